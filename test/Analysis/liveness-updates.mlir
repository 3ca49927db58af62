// RUN: mplan-opt %s -split-input-file -test-mplan-liveness-updates | FileCheck %s

// Copy elision through the update API: %b is replaced by %a, so %a must now
// cover the uses of %b and of its view (old numbering: up to index 7), and
// %c, which interferes with %b's old uses, must still interfere with %a.
// CHECK-LABEL: func @elide
// CHECK: memref.alloc() {mplan.live = array<i64: 1, 8>}
// CHECK-NOT: memref.copy %alloc, %alloc
// CHECK: memref.alloc() {mplan.live = array<i64: 6, 9>}
func.func @elide(%arg0: memref<16xf32>, %out: memref<8xf32, strided<[1]>>) {
  %a = memref.alloc() : memref<16xf32>
  memref.copy %arg0, %a : memref<16xf32> to memref<16xf32>
  %b = memref.alloc() : memref<16xf32>
  memref.copy %a, %b {test.elide} : memref<16xf32> to memref<16xf32>
  %v = memref.subview %b[0] [8] [1] : memref<16xf32> to memref<8xf32, strided<[1]>>
  %c = memref.alloc() : memref<16xf32>
  memref.copy %arg0, %c : memref<16xf32> to memref<16xf32>
  memref.copy %v, %out : memref<8xf32, strided<[1]>> to memref<8xf32, strided<[1]>>
  memref.copy %c, %arg0 : memref<16xf32> to memref<16xf32>
  return
}

// -----

// Inside a loop body: the replacement extends the root's range only within
// the iteration.
// CHECK-LABEL: func @elide_in_loop
// CHECK: scf.for
// CHECK: memref.alloc() {mplan.live = array<i64: 4, 8>}
func.func @elide_in_loop(%arg0: memref<16xf32>, %n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  scf.for %i = %c0 to %n step %c1 {
    %a = memref.alloc() : memref<16xf32>
    memref.copy %arg0, %a : memref<16xf32> to memref<16xf32>
    %b = memref.alloc() : memref<16xf32>
    memref.copy %a, %b {test.elide} : memref<16xf32> to memref<16xf32>
    memref.copy %b, %arg0 : memref<16xf32> to memref<16xf32>
  }
  return
}
