// RUN: mplan-opt %s --split-input-file --mplan-plan-pipeline --mplan-verify-plan | FileCheck %s
// RUN: mplan-opt %s --split-input-file --mplan-mark-calls --mplan-capture-buffers --mplan-fold-views --test-mplan-rewrites-keep-liveness -o /dev/null

// A copy out of a view of a function argument into a local buffer that is only
// read afterwards, while nothing may write the argument: the local buffer
// becomes the view (no copy, no buffer).
// CHECK-LABEL: func.func @slice_of_argument
// CHECK-SAME:    mplan.copies_removed = 1
// CHECK:         %[[SV:.*]] = memref.subview %arg0[8] [16] [1]
// CHECK-NOT:     memref.copy
// CHECK:         linalg.map { math.absf } ins(%[[SV]] : memref<16xf32, strided<[1], offset: 8>>)
func.func @slice_of_argument(%arg0: memref<64xf32>) -> memref<16xf32> {
  %sv = memref.subview %arg0[8] [16] [1] : memref<64xf32> to memref<16xf32, strided<[1], offset: 8>>
  %x = memref.alloc() : memref<16xf32>
  memref.copy %sv, %x : memref<16xf32, strided<[1], offset: 8>> to memref<16xf32>
  %r = memref.alloc() : memref<16xf32>
  linalg.map { math.absf } ins(%x : memref<16xf32>) outs(%r : memref<16xf32>)
  return %r : memref<16xf32>
}

// -----

// The argument is written while the local buffer is still read: kept.
// CHECK-LABEL: func.func @argument_written
// CHECK:         memref.copy
func.func @argument_written(%arg0: memref<64xf32>) -> memref<16xf32> {
  %zero = arith.constant 0.0 : f32
  %sv = memref.subview %arg0[8] [16] [1] : memref<64xf32> to memref<16xf32, strided<[1], offset: 8>>
  %x = memref.alloc() : memref<16xf32>
  memref.copy %sv, %x : memref<16xf32, strided<[1], offset: 8>> to memref<16xf32>
  linalg.fill ins(%zero : f32) outs(%arg0 : memref<64xf32>)
  %r = memref.alloc() : memref<16xf32>
  linalg.map { math.absf } ins(%x : memref<16xf32>) outs(%r : memref<16xf32>)
  return %r : memref<16xf32>
}

// -----

// Another argument (which may alias the first) is written, or a call runs,
// while the local buffer is live: kept.
// CHECK-LABEL: func.func @other_argument_written
// CHECK:         memref.copy
// CHECK-LABEL: func.func @call_between
// CHECK:         memref.copy
func.func @other_argument_written(%arg0: memref<64xf32>, %arg1: memref<16xf32>) -> memref<16xf32> {
  %sv = memref.subview %arg0[8] [16] [1] : memref<64xf32> to memref<16xf32, strided<[1], offset: 8>>
  %x = memref.alloc() : memref<16xf32>
  memref.copy %sv, %x : memref<16xf32, strided<[1], offset: 8>> to memref<16xf32>
  linalg.map { math.exp } ins(%x : memref<16xf32>) outs(%arg1 : memref<16xf32>)
  %r = memref.alloc() : memref<16xf32>
  linalg.map { math.absf } ins(%x : memref<16xf32>) outs(%r : memref<16xf32>)
  return %r : memref<16xf32>
}
func.func private @opaque()
func.func @call_between(%arg0: memref<64xf32>) -> memref<16xf32> {
  %sv = memref.subview %arg0[8] [16] [1] : memref<64xf32> to memref<16xf32, strided<[1], offset: 8>>
  %x = memref.alloc() : memref<16xf32>
  memref.copy %sv, %x : memref<16xf32, strided<[1], offset: 8>> to memref<16xf32>
  func.call @opaque() : () -> ()
  %r = memref.alloc() : memref<16xf32>
  linalg.map { math.absf } ins(%x : memref<16xf32>) outs(%r : memref<16xf32>)
  return %r : memref<16xf32>
}

// -----

// The local buffer is written after the copy: kept.
// CHECK-LABEL: func.func @local_written
// CHECK:         memref.copy
func.func @local_written(%arg0: memref<64xf32>) -> memref<16xf32> {
  %sv = memref.subview %arg0[8] [16] [1] : memref<64xf32> to memref<16xf32, strided<[1], offset: 8>>
  %x = memref.alloc() : memref<16xf32>
  memref.copy %sv, %x : memref<16xf32, strided<[1], offset: 8>> to memref<16xf32>
  linalg.map { math.exp } ins(%x : memref<16xf32>) outs(%x : memref<16xf32>)
  %r = memref.alloc() : memref<16xf32>
  linalg.map { math.absf } ins(%x : memref<16xf32>) outs(%r : memref<16xf32>)
  return %r : memref<16xf32>
}

// -----

// A copy out of an argument that is elided before the first rewrite needing
// live ranges, then a chain of copies between local buffers (the profile
// built after the argument slice must skip the erased root: found by ASan).
// CHECK-LABEL: func.func @argument_then_chain
// CHECK-SAME:    mplan.copies_removed
func.func @argument_then_chain(%arg0: memref<16xf32>) {
  %cst = arith.constant 1.0 : f32
  %b0 = memref.alloc() : memref<16xf32>
  memref.copy %arg0, %b0 : memref<16xf32> to memref<16xf32>
  %b1 = memref.alloc() : memref<16xf32>
  linalg.fill ins(%cst : f32) outs(%b1 : memref<16xf32>)
  memref.copy %b0, %b1 : memref<16xf32> to memref<16xf32>
  memref.dealloc %b0 : memref<16xf32>
  %b2 = memref.alloc() : memref<16xf32>
  linalg.fill ins(%cst : f32) outs(%b2 : memref<16xf32>)
  memref.copy %b1, %b2 : memref<16xf32> to memref<16xf32>
  memref.dealloc %b1 : memref<16xf32>
  memref.copy %b2, %arg0 : memref<16xf32> to memref<16xf32>
  memref.dealloc %b2 : memref<16xf32>
  return
}
