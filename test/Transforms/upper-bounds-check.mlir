// RUN: mplan-opt %s --split-input-file --mplan-capture-buffers="check-bounds=true" | FileCheck %s
// RUN: mplan-opt %s --split-input-file --mplan-plan-pipeline="check-bounds=true" | FileCheck %s --check-prefix=PIPE
// RUN: mplan-opt %s --split-input-file --mplan-plan="check-bounds=true" | FileCheck %s --check-prefix=PIPE
// RUN: mplan-opt %s --split-input-file --mplan-capture-buffers | FileCheck %s --check-prefix=OFF

// A stated bound is a promise: with check-bounds, every dynamic size of a buffer planned at its
// upper bound is checked right before the buffer's view (unsigned, so a negative size fails
// too), and a violation stops the run with a message naming the buffer (its id, type and
// allocation site), the dimension, the bound and its source. Without the option no check is
// emitted; the view always carries the bounds' text (`mplan.bound`) for the observer.

// CHECK-LABEL: func @one_dynamic
// CHECK-SAME:  (%[[N:.*]]: index
// CHECK:       %[[T:.*]] = mplan.alloc_tensor id(0) {mplan.bound = "dimension 0 <= 64 (mplan.upper_bound 64 of %arg0)"} -> memref<64x16xf32>
// CHECK-NEXT:  %[[B:.*]] = arith.constant 64 : index
// CHECK-NEXT:  %[[OK:.*]] = arith.cmpi ule, %[[N]], %[[B]] : index
// CHECK-NEXT:  cf.assert %[[OK]], "mplan: buffer 0 (memref<?x16xf32> allocated at {{.*}}upper-bounds-check.mlir:[[@LINE+12]]:8) is larger than its upper bound: dimension 0 <= 64 (mplan.upper_bound 64 of %arg0) does not hold"
// CHECK-NEXT:  memref.reinterpret_cast %[[T]] to offset: [0], sizes: [%[[N]], 16], strides: [16, 1] {mplan.bound = "dimension 0 <= 64 (mplan.upper_bound 64 of %arg0)"}
// PIPE-LABEL:  func @one_dynamic
// PIPE:        mplan.alloc_slab
// PIPE:        cf.assert %{{.*}}, "mplan: buffer 0 (memref<?x16xf32> allocated at {{.*}}) is larger than its upper bound: dimension 0 <= 64 (mplan.upper_bound 64 of %arg0) does not hold"
// PIPE-NEXT:   memref.reinterpret_cast
// PIPE:        linalg.fill
// OFF-LABEL:   func @one_dynamic
// OFF-NOT:     cf.assert
// OFF:         memref.reinterpret_cast {{.*}} {mplan.bound = "dimension 0 <= 64 (mplan.upper_bound 64 of %arg0)"}
func.func @one_dynamic(%n: index {mplan.upper_bound = 64 : i64}) {
  %cst = arith.constant 1.0 : f32
  %a = memref.alloc(%n) : memref<?x16xf32>
  linalg.fill ins(%cst : f32) outs(%a : memref<?x16xf32>)
  memref.dealloc %a : memref<?x16xf32>
  return
}

// -----

// One check per dynamic dimension, each with its own bound and source; a size derived from
// bounded arguments is checked against its derived bound. Static buffers get no check.
// CHECK-LABEL: func @two_dynamic
// CHECK-SAME:  (%[[IN:.*]]: memref<?x?xf32> {{.*}}, %[[N:.*]]: index
// CHECK:       %[[D0:.*]] = memref.dim %[[IN]], %{{.*}}
// CHECK:       %[[K:.*]] = arith.muli %[[N]], %{{.*}} : index
// CHECK:       mplan.alloc_tensor id(0) {{.*}} -> memref<8x2x6xf32>
// CHECK-NEXT:  %[[B0:.*]] = arith.constant 8 : index
// CHECK-NEXT:  %[[OK0:.*]] = arith.cmpi ule, %[[D0]], %[[B0]] : index
// CHECK-NEXT:  cf.assert %[[OK0]], "mplan: buffer 0 (memref<?x2x?xf32> allocated at {{.*}}) is larger than its upper bound: dimension 0 <= 8 (mplan.dim_upper_bounds 8 of dimension 0 of %arg0) does not hold"
// CHECK-NEXT:  %[[B2:.*]] = arith.constant 6 : index
// CHECK-NEXT:  %[[OK2:.*]] = arith.cmpi ule, %[[K]], %[[B2]] : index
// CHECK-NEXT:  cf.assert %[[OK2]], "mplan: buffer 0 (memref<?x2x?xf32> allocated at {{.*}}) is larger than its upper bound: dimension 2 <= 6 (mplan.upper_bound 3 of %arg1) does not hold"
// CHECK:       memref.reinterpret_cast
// CHECK:       mplan.alloc_tensor id(1) -> memref<4xf32>
// CHECK-NOT:   cf.assert
// CHECK:       return
func.func @two_dynamic(%in: memref<?x?xf32> {mplan.dim_upper_bounds = array<i64: 8, -1>},
                       %n: index {mplan.upper_bound = 3 : i64}) {
  %cst = arith.constant 1.0 : f32
  %c0 = arith.constant 0 : index
  %c2 = arith.constant 2 : index
  %d0 = memref.dim %in, %c0 : memref<?x?xf32>
  %k = arith.muli %n, %c2 : index
  %a = memref.alloc(%d0, %k) : memref<?x2x?xf32>
  linalg.fill ins(%cst : f32) outs(%a : memref<?x2x?xf32>)
  %b = memref.alloc() : memref<4xf32>
  linalg.fill ins(%cst : f32) outs(%b : memref<4xf32>)
  return
}

// -----

// A bound the IR alone implies (an affine.min clamp) holds on every run: no check. The
// observer still checks it (the view carries its text).
// CHECK-LABEL: func @derived_from_ir
// CHECK:       mplan.alloc_tensor id(0) {mplan.bound = "dimension 0 <= 128 (derived from the IR)"} -> memref<128xf32>
// CHECK-NOT:   cf.assert
// CHECK:       memref.reinterpret_cast {{.*}} {mplan.bound = "dimension 0 <= 128 (derived from the IR)"}
func.func @derived_from_ir(%n: index) {
  %cst = arith.constant 1.0 : f32
  %c = affine.min affine_map<(d0) -> (d0, 128)>(%n)
  %a = memref.alloc(%c) : memref<?xf32>
  linalg.fill ins(%cst : f32) outs(%a : memref<?xf32>)
  return
}
