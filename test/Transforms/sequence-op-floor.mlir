// A bound at the op floor (the most bytes one op touches itself, padded as
// the bound pads them) is optimal: mplan-sequence says so without building
// a model, whatever its work budget (issue 32: on large functions the model
// was most of sequencing's cost). Before, with no work budget, program order
// was kept "because the search's work budget ran out".
// RUN: mplan-opt %s --split-input-file --mplan-capture-buffers="fold-views=1" --mplan-sequence="remarks=true work-limit=0" -verify-diagnostics | FileCheck %s
// RUN: mplan-opt %s --split-input-file --mplan-capture-buffers="fold-views=1" --mplan-sequence="remarks=true mode=greedy" -verify-diagnostics | FileCheck %s

// A chain: at most an input and an output are live; the middle op touches
// 2048 bytes, the bound.
// CHECK-LABEL: func @chain
// CHECK-SAME: mplan.sequence_optimal
// CHECK-NOT: mplan.sequence_kept_because
func.func @chain(%in: memref<256xf32>, %out: memref<256xf32>) {
  %x = memref.alloc() : memref<256xf32>
  linalg.map { math.absf } ins(%in : memref<256xf32>) outs(%x : memref<256xf32>)
  %y = memref.alloc() : memref<256xf32>
  linalg.map { math.exp } ins(%x : memref<256xf32>) outs(%y : memref<256xf32>)
  %z = memref.alloc() : memref<256xf32>
  linalg.map { math.sin } ins(%y : memref<256xf32>) outs(%z : memref<256xf32>)
  linalg.map { math.cos } ins(%z : memref<256xf32>) outs(%out : memref<256xf32>)
  return
}

// -----

// Sizes padded to the alignment (64): three 4-byte buffers count 64 bytes
// each, in the floor as in the bound (192 bytes at the op reading two of
// them).
// CHECK-LABEL: func @padded
// CHECK-SAME: mplan.sequence_optimal
func.func @padded(%in: memref<1xf32>, %out: memref<1xf32>) {
  %x = memref.alloc() : memref<1xf32>
  linalg.map { math.absf } ins(%in : memref<1xf32>) outs(%x : memref<1xf32>)
  %y = memref.alloc() : memref<1xf32>
  linalg.map { math.exp } ins(%in : memref<1xf32>) outs(%y : memref<1xf32>)
  %z = memref.alloc() : memref<1xf32>
  linalg.map { arith.addf } ins(%x, %y : memref<1xf32>, memref<1xf32>) outs(%z : memref<1xf32>)
  linalg.map { math.cos } ins(%z : memref<1xf32>) outs(%out : memref<1xf32>)
  return
}

// -----

// Above the floor: a model is built (and, without a work budget, proves
// nothing): the diamond keeps %x live beside both heads (3072 bytes), no
// op touches more than 2048.
// CHECK-LABEL: func @diamond
// CHECK-NOT: mplan.sequence_optimal
// CHECK-SAME: mplan.sequence_kept_because
// expected-remark @below {{mplan-sequence kept program order}}
func.func @diamond(%in: memref<256xf32>, %out: memref<256xf32>) {
  %x = memref.alloc() : memref<256xf32>
  linalg.map { math.absf } ins(%in : memref<256xf32>) outs(%x : memref<256xf32>)
  %a = memref.alloc() : memref<256xf32>
  linalg.map { math.exp } ins(%x : memref<256xf32>) outs(%a : memref<256xf32>)
  %b = memref.alloc() : memref<256xf32>
  linalg.map { math.sin } ins(%x : memref<256xf32>) outs(%b : memref<256xf32>)
  linalg.map { arith.addf } ins(%a, %b : memref<256xf32>, memref<256xf32>) outs(%out : memref<256xf32>)
  return
}

// -----

// An op that reads a buffer through two values (the buffer and a view of
// it) touches its bytes once: the floor is 2048, below the bound of 3072,
// and the budget-less search again proves nothing.
// CHECK-LABEL: func @two_names
// CHECK-NOT: mplan.sequence_optimal
// CHECK-SAME: mplan.sequence_kept_because
// expected-remark @below {{mplan-sequence kept program order}}
func.func @two_names(%in: memref<256xf32>, %out: memref<256xf32>) {
  %x = memref.alloc() : memref<256xf32>
  linalg.map { math.absf } ins(%in : memref<256xf32>) outs(%x : memref<256xf32>)
  %v = memref.subview %x[0] [256] [1] : memref<256xf32> to memref<256xf32, strided<[1]>>
  %a = memref.alloc() : memref<256xf32>
  linalg.map { arith.addf } ins(%x, %v : memref<256xf32>, memref<256xf32, strided<[1]>>) outs(%a : memref<256xf32>)
  %b = memref.alloc() : memref<256xf32>
  linalg.map { math.sin } ins(%x : memref<256xf32>) outs(%b : memref<256xf32>)
  linalg.map { arith.addf } ins(%a, %b : memref<256xf32>, memref<256xf32>) outs(%out : memref<256xf32>)
  return
}
