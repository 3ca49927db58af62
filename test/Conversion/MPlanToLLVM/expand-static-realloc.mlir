// RUN: mplan-opt %s --split-input-file --mplan-expand-static-realloc | FileCheck %s
// RUN: mplan-opt %s --split-input-file --mplan-to-llvm | FileCheck %s --check-prefix=LLVM

// A static realloc that shrinks keeps the allocation (upstream's
// expand-realloc builds an out-of-bounds subview here and fails).
// CHECK-LABEL: func.func @shrink
// CHECK:         %[[R:.*]] = memref.reinterpret_cast %arg0 to offset: [0], sizes: [4], strides: [1] : memref<12xf32> to memref<4xf32>
// CHECK-NOT:     memref.realloc
// CHECK:         memref.dealloc %[[R]]
// LLVM-LABEL: llvm.func @shrink
// LLVM-NOT:     memref.
func.func @shrink(%arg0: memref<12xf32>) -> f32 {
  %c0 = arith.constant 0 : index
  %r = memref.realloc %arg0 : memref<12xf32> to memref<4xf32>
  %v = memref.load %r[%c0] : memref<4xf32>
  memref.dealloc %r : memref<4xf32>
  return %v : f32
}

// -----

// One that grows allocates, copies into the leading elements and frees.
// CHECK-LABEL: func.func @grow
// CHECK:         %[[NEW:.*]] = memref.alloc() {alignment = 16 : i64} : memref<12xf32>
// CHECK:         %[[HEAD:.*]] = memref.subview %[[NEW]][0] [4] [1]
// CHECK:         memref.copy %arg0, %[[HEAD]]
// CHECK:         memref.dealloc %arg0
// CHECK-NOT:     memref.realloc
// LLVM-LABEL: llvm.func @grow
// LLVM-NOT:     memref.
func.func @grow(%arg0: memref<4xf32>) -> memref<12xf32> {
  %r = memref.realloc %arg0 {alignment = 16} : memref<4xf32> to memref<12xf32>
  return %r : memref<12xf32>
}

// -----

// Dynamic sizes are left to expand-realloc.
// CHECK-LABEL: func.func @dynamic
// CHECK:         memref.realloc
func.func @dynamic(%arg0: memref<4xf32>, %n: index) -> memref<?xf32> {
  %r = memref.realloc %arg0(%n) : memref<4xf32> to memref<?xf32>
  return %r : memref<?xf32>
}
