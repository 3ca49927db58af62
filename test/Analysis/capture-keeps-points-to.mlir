// RUN: mplan-opt %s --split-input-file --test-mplan-capture-keeps-points-to | FileCheck %s
// RUN: mplan-opt %s --split-input-file --mlir-disable-threading --test-mplan-capture-keeps-points-to | FileCheck %s

// mplan-plan builds the points-to analysis beside the liveness, before
// capture, and keeps it through capture and view folding while it answers as
// a fresh analysis of their result would (the test pass checks every value
// against a fresh one); otherwise it is rebuilt for copy elision.

// Allocations captured as planner buffers of the same type, views folded to
// mplan.view, a select of two buffers, a loop carrying one: kept.
// CHECK-LABEL: func.func @renamed
// CHECK-SAME:    test.points_to = "kept"
func.func @renamed(%c: i1, %arg: memref<8x16xf32>, %out: memref<128xf32>) {
  %cst = arith.constant 0.0 : f32
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %a = memref.alloc() : memref<8x16xf32>
  %b = memref.alloc() : memref<8x16xf32>
  linalg.fill ins(%cst : f32) outs(%a : memref<8x16xf32>)
  %s = memref.subview %a[2, 0] [4, 16] [1, 1] : memref<8x16xf32> to memref<4x16xf32, strided<[16, 1], offset: 32>>
  linalg.fill ins(%cst : f32) outs(%s : memref<4x16xf32, strided<[16, 1], offset: 32>>)
  %e = memref.collapse_shape %b [[0, 1]] : memref<8x16xf32> into memref<128xf32>
  linalg.fill ins(%cst : f32) outs(%e : memref<128xf32>)
  %p = arith.select %c, %a, %b : memref<8x16xf32>
  %r = scf.for %i = %c0 to %c4 step %c1 iter_args(%x = %p) -> (memref<8x16xf32>) {
    memref.copy %arg, %x : memref<8x16xf32> to memref<8x16xf32>
    scf.yield %x : memref<8x16xf32>
  }
  %f = memref.collapse_shape %r [[0, 1]] : memref<8x16xf32> into memref<128xf32>
  memref.copy %f, %out : memref<128xf32> to memref<128xf32>
  return
}

// -----

// A buffer sized at run time (no bound) becomes mplan.alloc_dynamic of the
// same type: kept.
// CHECK-LABEL: func.func @runtime_sized
// CHECK-SAME:    test.points_to = "kept"
func.func @runtime_sized(%n: index, %out: memref<?xf32>) {
  %cst = arith.constant 1.0 : f32
  %a = memref.alloc(%n) : memref<?xf32>
  linalg.fill ins(%cst : f32) outs(%a : memref<?xf32>)
  memref.copy %a, %out : memref<?xf32> to memref<?xf32>
  return
}

// -----

// Branch results hoisted out of an scf.if: new allocations, rebuilt.
// CHECK-LABEL: func.func @hoisted
// CHECK-SAME:    test.points_to = "rebuilt"
func.func @hoisted(%c: i1, %in: memref<64xf32>, %out: memref<64xf32>) {
  %r = scf.if %c -> memref<64xf32> {
    %a = memref.alloc() : memref<64xf32>
    linalg.map { math.absf } ins(%in : memref<64xf32>) outs(%a : memref<64xf32>)
    scf.yield %a : memref<64xf32>
  } else {
    %b = memref.alloc() : memref<64xf32>
    linalg.map { math.exp } ins(%in : memref<64xf32>) outs(%b : memref<64xf32>)
    scf.yield %b : memref<64xf32>
  }
  linalg.map { math.sqrt } ins(%r : memref<64xf32>) outs(%out : memref<64xf32>)
  return
}

// -----

// Deallocations erased with their buffer: rebuilt.
// CHECK-LABEL: func.func @deallocated
// CHECK-SAME:    test.points_to = "rebuilt"
func.func @deallocated(%out: memref<4xf32>) {
  %cst = arith.constant 1.0 : f32
  %a = memref.alloc() : memref<4xf32>
  linalg.fill ins(%cst : f32) outs(%a : memref<4xf32>)
  memref.copy %a, %out : memref<4xf32> to memref<4xf32>
  memref.dealloc %a : memref<4xf32>
  return
}

// -----

// A buffer captured at its upper bound, used through a view of the bounded
// buffer: a new type, rebuilt.
// CHECK-LABEL: func.func @bounded
// CHECK-SAME:    test.points_to = "rebuilt"
func.func @bounded(%n: index) {
  %cst = arith.constant 1.0 : f32
  %c = affine.min affine_map<(d0) -> (d0, 128)>(%n)
  %a = memref.alloc(%c) : memref<?x64xf32>
  linalg.fill ins(%cst : f32) outs(%a : memref<?x64xf32>)
  return
}

// -----

// A buffer stored into a memref of memrefs escapes; it stays a memref.alloc
// (unplanned) and the analysis is kept.
// CHECK-LABEL: func.func @escaped
// CHECK-SAME:    test.points_to = "kept"
func.func @escaped(%slot: memref<memref<4xf32>>) {
  %a = memref.alloc() : memref<4xf32>
  memref.store %a, %slot[] : memref<memref<4xf32>>
  return
}
