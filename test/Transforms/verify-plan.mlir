// RUN: mplan-opt %s --split-input-file --mplan-plan-pipeline --mplan-verify-plan | FileCheck %s
// RUN: mplan-opt %s --split-input-file --mplan-plan-pipeline -test-mplan-sink-ops --mplan-verify-plan -verify-diagnostics

// Planned IR verifies. Then a scheduling pass (simulated by
// -test-mplan-sink-ops) sinks the last read of %a below the uses of %b,
// which was given %a's bytes: the verifier reports the conflict at %b.
// CHECK-LABEL: func @sunk_use
// CHECK: mplan.alloc_tensor id(0) live [1, 3) at %{{.*}}[0]
// CHECK: mplan.alloc_tensor id(1) live [4, 6) at %{{.*}}[0]
func.func @sunk_use(%arg0: memref<16xf32>, %arg1: memref<16xf32>) {
  // expected-note @below {{the other buffer is here}}
  %a = memref.alloc() : memref<16xf32>
  memref.copy %arg0, %a : memref<16xf32> to memref<16xf32>
  memref.copy %a, %arg1 {test.sink} : memref<16xf32> to memref<16xf32>
  // expected-error @below {{shares bytes with buffer 0 while both are live: bytes [0, 64) live [4, 6) vs bytes [0, 64) live [2, 8)}}
  %b = memref.alloc() : memref<16xf32>
  memref.copy %arg1, %b : memref<16xf32> to memref<16xf32>
  memref.copy %b, %arg0 : memref<16xf32> to memref<16xf32>
  return
}

// -----

// Moving a use into a loop: the loop-carried buffer %t from the body now
// overlaps a buffer planned at the same offset after it.
// CHECK-LABEL: func @loop_nested
// CHECK: scf.for
// CHECK: mplan.alloc_tensor id(0) live
// CHECK: mplan.alloc_tensor id(1) live
func.func @loop_nested(%arg0: memref<16xf32>, %n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  scf.for %i = %c0 to %n step %c1 {
    // expected-note @below {{the other buffer is here}}
    %t = memref.alloc() : memref<16xf32>
    memref.copy %arg0, %t : memref<16xf32> to memref<16xf32>
    memref.copy %t, %arg0 {test.sink} : memref<16xf32> to memref<16xf32>
    // expected-error @below {{shares bytes with buffer 0 while both are live}}
    %u = memref.alloc() : memref<16xf32>
    memref.copy %arg0, %u : memref<16xf32> to memref<16xf32>
    memref.copy %u, %arg0 : memref<16xf32> to memref<16xf32>
  }
  return
}
