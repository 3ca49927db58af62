// RUN: mplan-opt %s --split-input-file --verify-diagnostics \
// RUN:   --convert-mplan-to-memref="arena=stack" | FileCheck %s
// RUN: mplan-opt %s --split-input-file \
// RUN:   --convert-mplan-to-memref="arena=stack stack-limit=4096" 2>/dev/null \
// RUN:   | FileCheck %s --check-prefix=SMALL
// RUN: not mplan-opt %s --convert-mplan-to-memref="arena=stack stack-limit=-1" 2>&1 \
// RUN:   | FileCheck %s --check-prefix=NEGATIVE

// NEGATIVE: error: --convert-mplan-to-memref option 'stack-limit': must be non-negative, got -1

// Within the default limit (1 MiB = 1048576 bytes, inclusive): a stack arena. With
// stack-limit=4096, a heap arena.
// CHECK-LABEL: func.func @at_limit(
// CHECK: memref.alloca() {alignment = 64 : i64, mplan.arena} : memref<1048576xi8>
// CHECK-NOT: memref.dealloc
// SMALL-LABEL: func.func @at_limit(
// SMALL: %[[H:.*]] = memref.alloc() {alignment = 64 : i64, mplan.arena} : memref<1048576xi8>
// SMALL: memref.dealloc %[[H]]
func.func @at_limit(%x: f32) {
  %slab = mplan.alloc_slab : !mplan.slab<1048576, 64>
  %a = mplan.alloc_tensor id(0) live [1, 2) at %slab[0] : !mplan.slab<1048576, 64> -> memref<262144xf32>
  linalg.fill ins(%x : f32) outs(%a : memref<262144xf32>)
  mplan.release_slab %slab : !mplan.slab<1048576, 64>
  return
}

// -----

// Above it (16 MiB would overflow the usual 8 MiB stack): a heap arena, freed at the
// release, and a remark at the slab.
// CHECK-LABEL: func.func @above_limit(
// CHECK: %[[H:.*]] = memref.alloc() {alignment = 64 : i64, mplan.arena} : memref<16777216xi8>
// CHECK: memref.dealloc %[[H]] : memref<16777216xi8>
// CHECK-NEXT: return
func.func @above_limit(%x: f32) {
  // expected-remark @below {{stack arena of 16777216 bytes exceeds stack-limit=1048576; allocated on the heap instead}}
  %slab = mplan.alloc_slab : !mplan.slab<16777216, 64>
  %a = mplan.alloc_tensor id(0) live [1, 2) at %slab[0] : !mplan.slab<16777216, 64> -> memref<4194304xf32>
  linalg.fill ins(%x : f32) outs(%a : memref<4194304xf32>)
  mplan.release_slab %slab : !mplan.slab<16777216, 64>
  return
}

// -----

// A slab in a loop body (e.g. a planned function inlined into a loop): an alloca there
// would take new stack on every iteration (upstream's loop lowering does not restore
// the stack), so the arena comes from the heap, with a remark.
// CHECK-LABEL: func.func @in_loop(
// CHECK: scf.for
// CHECK-NEXT: %[[H:.*]] = memref.alloc() {alignment = 64 : i64, mplan.arena} : memref<64xi8>
// CHECK: memref.dealloc %[[H]]
// CHECK-NEXT: }
func.func @in_loop(%x: f32, %n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  scf.for %i = %c0 to %n step %c1 {
    // expected-remark @below {{slab is not at the entry of a function or memref.alloca_scope body (inside scf.for), where a stack arena could be allocated again on every iteration without being freed; allocated on the heap instead}}
    %slab = mplan.alloc_slab : !mplan.slab<64, 64>
    %a = mplan.alloc_tensor id(0) live [5, 6) at %slab[0] : !mplan.slab<64, 64> -> memref<16xf32>
    linalg.fill ins(%x : f32) outs(%a : memref<16xf32>)
    mplan.release_slab %slab : !mplan.slab<64, 64>
  }
  return
}

// -----

// A slab in a block other than the entry block may be reached again through a branch.
// CHECK-LABEL: func.func @not_entry_block(
// CHECK: ^bb1:
// CHECK-NEXT: memref.alloc() {alignment = 64 : i64, mplan.arena} : memref<64xi8>
func.func @not_entry_block(%x: f32, %c: i1) {
  cf.br ^bb1
^bb1:
  // expected-remark @below {{slab is not at the entry of a function or memref.alloca_scope body (inside func.func)}}
  %slab = mplan.alloc_slab : !mplan.slab<64, 64>
  %a = mplan.alloc_tensor id(0) live [2, 3) at %slab[0] : !mplan.slab<64, 64> -> memref<16xf32>
  linalg.fill ins(%x : f32) outs(%a : memref<16xf32>)
  mplan.release_slab %slab : !mplan.slab<64, 64>
  cf.cond_br %c, ^bb1, ^bb2
^bb2:
  return
}

// -----

// At the entry of a memref.alloca_scope body (which frees its allocas when it ends, also
// inside a loop): a stack arena.
// CHECK-LABEL: func.func @in_alloca_scope(
// CHECK: scf.for
// CHECK-NEXT: memref.alloca_scope
// CHECK-NEXT: memref.alloca() {alignment = 64 : i64, mplan.arena} : memref<64xi8>
func.func @in_alloca_scope(%x: f32, %n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  scf.for %i = %c0 to %n step %c1 {
    memref.alloca_scope {
      %slab = mplan.alloc_slab : !mplan.slab<64, 64>
      %a = mplan.alloc_tensor id(0) live [6, 7) at %slab[0] : !mplan.slab<64, 64> -> memref<16xf32>
      linalg.fill ins(%x : f32) outs(%a : memref<16xf32>)
      mplan.release_slab %slab : !mplan.slab<64, 64>
    }
  }
  return
}
