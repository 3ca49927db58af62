// RUN: mplan-opt %s --convert-mplan-to-memref="arena=argument" | FileCheck %s
// RUN: mplan-opt %s --convert-mplan-to-memref="arena=argument functions=inner" \
// RUN:   | FileCheck %s --check-prefix=NAMED

// Default functions=: every function with a slab takes its arena from its caller. The
// caller @outer has a slab: the callee's arena becomes a planned buffer of @outer, live
// only at the call, placed first-fit around @outer's buffers live across the call (bytes
// [0, 64) here), and @outer's slab grows to hold it; @outer's own argument arena includes
// it. @noslab has no slab: it allocates @inner's arena on the heap around the call.

// CHECK-LABEL: func.func @inner(
// CHECK-SAME: %[[ARG:[a-z0-9]+]]: memref<128xi8> {llvm.noalias, mplan.arena})
// CHECK-SAME: attributes {mplan.arena_alignment = 64 : i64, mplan.arena_size = 128 : i64}
// CHECK: %[[A:.*]] = memref.assume_alignment %[[ARG]], 64 : memref<128xi8>
// CHECK: memref.view %[[A]]
// CHECK-NOT: memref.dealloc
// CHECK: return
// CHECK-LABEL: func.func @inner_arena_size() -> index
// CHECK: arith.constant 128 : index
func.func @inner(%x: f32) {
  %slab = mplan.alloc_slab : !mplan.slab<128, 64>
  %a = mplan.alloc_tensor id(0) live [1, 2) at %slab[0] : !mplan.slab<128, 64> -> memref<32xf32>
  linalg.fill ins(%x : f32) outs(%a : memref<32xf32>)
  mplan.release_slab %slab : !mplan.slab<128, 64>
  return
}

// CHECK-LABEL: func.func @outer(
// CHECK-SAME: %[[ARG:[a-z0-9]+]]: memref<192xi8> {llvm.noalias, mplan.arena})
// CHECK-SAME: mplan.arena_size = 192 : i64
// CHECK: %[[A:.*]] = memref.assume_alignment %[[ARG]], 64 : memref<192xi8>
// CHECK: memref.view %[[A]][%{{.*}}][] {mplan.buffer_id = 0 : i64{{.*}}} : memref<192xi8> to memref<16xf32>
// CHECK: %[[C64:.*]] = arith.constant 64 : index
// CHECK: %[[S:.*]] = memref.view %[[A]][%[[C64]]][] {mplan.buffer_id = 1 : i64{{.*}}} : memref<192xi8> to memref<128xi8>
// CHECK-NEXT: call @inner(%{{.*}}, %[[S]]) : (f32, memref<128xi8>) -> ()
// CHECK-LABEL: func.func @outer_arena_size() -> index
// CHECK: arith.constant 192 : index
func.func @outer(%x: f32) {
  %slab = mplan.alloc_slab : !mplan.slab<64, 64>
  %a = mplan.alloc_tensor id(0) live [1, 5) at %slab[0] : !mplan.slab<64, 64> -> memref<16xf32>
  linalg.fill ins(%x : f32) outs(%a : memref<16xf32>)
  call @inner(%x) : (f32) -> ()
  %c0 = arith.constant 0 : index
  %v = memref.load %a[%c0] : memref<16xf32>
  mplan.release_slab %slab : !mplan.slab<64, 64>
  return
}

// CHECK-LABEL: func.func @noslab(
// CHECK-SAME: %{{.*}}: f32) {
// CHECK: %[[H:.*]] = memref.alloc() {alignment = 64 : i64, mplan.arena} : memref<192xi8>
// CHECK-NEXT: call @outer(%{{.*}}, %[[H]]) : (f32, memref<192xi8>) -> ()
// CHECK-NEXT: memref.dealloc %[[H]] : memref<192xi8>
func.func @noslab(%x: f32) {
  call @outer(%x) : (f32) -> ()
  return
}

// functions=inner: only @inner takes its arena from its caller; @outer keeps a heap arena
// that now also holds @inner's arena, and @noslab calls @outer unchanged.
// NAMED-LABEL: func.func @inner(
// NAMED-SAME: memref<128xi8> {llvm.noalias, mplan.arena})
// NAMED-LABEL: func.func @inner_arena_size() -> index
// NAMED-LABEL: func.func @outer(
// NAMED-SAME: %{{.*}}: f32) {
// NAMED: %[[A:.*]] = memref.alloc() {alignment = 64 : i64, mplan.arena} : memref<192xi8>
// NAMED: %[[S:.*]] = memref.view %[[A]][%{{.*}}][] {{.*}} : memref<192xi8> to memref<128xi8>
// NAMED-NEXT: call @inner(%{{.*}}, %[[S]]) : (f32, memref<128xi8>) -> ()
// NAMED: memref.dealloc %[[A]] : memref<192xi8>
// NAMED-NOT: @outer_arena_size
// NAMED-LABEL: func.func @noslab(
// NAMED-NEXT: call @outer(%{{.*}}) : (f32) -> ()
