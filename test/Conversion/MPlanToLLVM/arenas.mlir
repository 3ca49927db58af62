// RUN: mplan-opt %s --split-input-file --convert-mplan-arenas-to-llvm | FileCheck %s
// RUN: mplan-opt %s --split-input-file --mplan-to-llvm="aligned-arenas" | FileCheck %s --check-prefix=LLVM
// RUN: mplan-opt %s --split-input-file --mplan-to-llvm | FileCheck %s --check-prefix=DEFAULT

// A heap arena (memref.alloc marked mplan.arena) is allocated with
// aligned_alloc and used through its descriptor; other allocations are left
// to finalize-memref-to-llvm, which keeps upstream's malloc lowering.

// CHECK-LABEL: func.func @arena_and_other
// CHECK: %[[P:.*]] = llvm.call @aligned_alloc(%{{.*}}, %{{.*}}) : (i64, i64) -> !llvm.ptr
// CHECK: %[[A:.*]] = builtin.unrealized_conversion_cast %{{.*}} : !llvm.struct<(ptr, ptr, i64, array<1 x i64>, array<1 x i64>)> to memref<256xi8>
// CHECK: memref.view %[[A]]
// CHECK: memref.alloc() {alignment = 64 : i64} : memref<8xf32>
// CHECK-NOT: mplan.arena
// CHECK: memref.dealloc %[[A]]

// LLVM-LABEL: llvm.func @arena_and_other
// LLVM: llvm.call @aligned_alloc(
// LLVM: llvm.call @malloc(
// LLVM-COUNT-2: llvm.call @free(
// DEFAULT-LABEL: llvm.func @arena_and_other
// DEFAULT-NOT: @aligned_alloc
// DEFAULT-COUNT-2: llvm.call @malloc(
func.func @arena_and_other(%x: f32) {
  %arena = memref.alloc() {alignment = 64 : i64, mplan.arena} : memref<256xi8>
  %c0 = arith.constant 0 : index
  %v = memref.view %arena[%c0][] : memref<256xi8> to memref<16xf32>
  %other = memref.alloc() {alignment = 64 : i64} : memref<8xf32>
  memref.store %x, %v[%c0] : memref<16xf32>
  memref.store %x, %other[%c0] : memref<8xf32>
  memref.dealloc %other : memref<8xf32>
  memref.dealloc %arena : memref<256xi8>
  return
}

// -----

// Without an arena the pass changes nothing.

// CHECK-LABEL: func.func @no_arena
// CHECK-NEXT: memref.alloc() : memref<4xf32>
// CHECK-NOT: llvm.call
func.func @no_arena() {
  %a = memref.alloc() : memref<4xf32>
  memref.dealloc %a : memref<4xf32>
  return
}
