// RUN: mplan-opt %s --split-input-file --mplan-fold-views | FileCheck %s

// Each memref view kind on a planner buffer becomes one mplan.view of the
// buffer with exactly the replaced op's type.

// CHECK-LABEL: func.func @subview
// CHECK:         %[[A:.*]] = mplan.alloc_tensor id(0) -> memref<8x8xf32>
// CHECK-NEXT:    %[[V:.*]] = mplan.view %[[A]][72] : memref<8x8xf32> to memref<4x4xf32, strided<[8, 1], offset: 18>>
// CHECK-NEXT:    linalg.fill ins(%{{.*}} : f32) outs(%[[V]] : memref<4x4xf32, strided<[8, 1], offset: 18>>)
// CHECK-NOT:     memref.subview
// CHECK:         return
func.func @subview(%f: f32) {
  %a = mplan.alloc_tensor id(0) -> memref<8x8xf32>
  %s = memref.subview %a[2, 2] [4, 4] [1, 1] : memref<8x8xf32> to memref<4x4xf32, strided<[8, 1], offset: 18>>
  linalg.fill ins(%f : f32) outs(%s : memref<4x4xf32, strided<[8, 1], offset: 18>>)
  return
}

// -----

// CHECK-LABEL: func.func @expand_collapse
// CHECK:         %[[A:.*]] = mplan.alloc_tensor id(0) -> memref<4x6xf32>
// CHECK-NEXT:    %[[E:.*]] = mplan.view %[[A]][0] : memref<4x6xf32> to memref<2x2x6xf32>
// CHECK-NEXT:    memref.copy %[[E]], %[[E]] : memref<2x2x6xf32> to memref<2x2x6xf32>
// CHECK-NEXT:    %[[C:.*]] = mplan.view %[[A]][0] : memref<4x6xf32> to memref<24xf32>
// CHECK-NEXT:    memref.load %[[C]]
// CHECK-NOT:     memref.expand_shape
// CHECK-NOT:     memref.collapse_shape
func.func @expand_collapse(%i: index) -> f32 {
  %a = mplan.alloc_tensor id(0) -> memref<4x6xf32>
  %e = memref.expand_shape %a [[0, 1], [2]] output_shape [2, 2, 6] : memref<4x6xf32> into memref<2x2x6xf32>
  memref.copy %e, %e : memref<2x2x6xf32> to memref<2x2x6xf32>
  %c = memref.collapse_shape %a [[0, 1]] : memref<4x6xf32> into memref<24xf32>
  %v = memref.load %c[%i] : memref<24xf32>
  return %v : f32
}

// -----

// CHECK-LABEL: func.func @reinterpret_and_cast
// CHECK:         %[[A:.*]] = mplan.alloc_tensor id(0) -> memref<64xf32>
// CHECK-NEXT:    %[[R:.*]] = mplan.view %[[A]][64] : memref<64xf32> to memref<4x4xf32, strided<[4, 1], offset: 16>>
// CHECK-NEXT:    linalg.copy ins(%[[R]] : {{.*}}) outs(%[[R]] :
// CHECK-NEXT:    %[[C:.*]] = mplan.view %[[A]][0] : memref<64xf32> to memref<64xf32, strided<[1]>>
// CHECK-NEXT:    return %[[C]]
func.func @reinterpret_and_cast(%i: index) -> memref<64xf32, strided<[1]>> {
  %a = mplan.alloc_tensor id(0) -> memref<64xf32>
  %r = memref.reinterpret_cast %a to offset: [16], sizes: [4, 4], strides: [4, 1] : memref<64xf32> to memref<4x4xf32, strided<[4, 1], offset: 16>>
  linalg.copy ins(%r : memref<4x4xf32, strided<[4, 1], offset: 16>>) outs(%r : memref<4x4xf32, strided<[4, 1], offset: 16>>)
  %c = memref.cast %a : memref<64xf32> to memref<64xf32, strided<[1]>>
  return %c : memref<64xf32, strided<[1]>>
}

// -----

// A zero-shift memref.view of an i8 buffer keeps its type; a shifted one
// starts a new base and is left alone.
// CHECK-LABEL: func.func @memref_view
// CHECK:         %[[A:.*]] = mplan.alloc_tensor id(0) -> memref<64xi8>
// CHECK:         %[[V:.*]] = mplan.view %[[A]][0] : memref<64xi8> to memref<8x8xi8>
// CHECK:         memref.view %[[A]][%{{.*}}][] : memref<64xi8> to memref<4xi8>
// CHECK:         memref.load %[[V]]
func.func @memref_view(%i: index) -> (i8, i8) {
  %c0 = arith.constant 0 : index
  %c8 = arith.constant 8 : index
  %a = mplan.alloc_tensor id(0) -> memref<64xi8>
  %v = memref.view %a[%c0][] : memref<64xi8> to memref<8x8xi8>
  %w = memref.view %a[%c8][] : memref<64xi8> to memref<4xi8>
  %x = memref.load %v[%i, %i] : memref<8x8xi8>
  %y = memref.load %w[%i] : memref<4xi8>
  return %x, %y : i8, i8
}

// -----

// A chain mixing kinds folds to one view of the root; the intermediate views
// die.
// CHECK-LABEL: func.func @chain
// CHECK-SAME:    mplan.views_canonicalized = 3 : i64, mplan.views_removed = 2 : i64
// CHECK:         %[[A:.*]] = mplan.alloc_tensor id(0) -> memref<1x8x8x4xf32>
// CHECK-NEXT:    %[[V:.*]] = mplan.view %[[A]][176] : memref<1x8x8x4xf32> to memref<2x4xf32, strided<[32, 1], offset: 44>>
// CHECK-NEXT:    linalg.fill ins(%{{.*}} : f32) outs(%[[V]] :
// CHECK-NEXT:    return
func.func @chain(%f: f32) {
  %a = mplan.alloc_tensor id(0) -> memref<1x8x8x4xf32>
  %c = memref.collapse_shape %a [[0, 1], [2], [3]] : memref<1x8x8x4xf32> into memref<8x8x4xf32>
  %s = memref.subview %c[1, 2, 0] [2, 3, 4] [1, 1, 1] : memref<8x8x4xf32> to memref<2x3x4xf32, strided<[32, 4, 1], offset: 40>>
  %t = memref.subview %s[0, 1, 0] [2, 1, 4] [1, 1, 1] : memref<2x3x4xf32, strided<[32, 4, 1], offset: 40>> to memref<2x4xf32, strided<[32, 1], offset: 44>>
  linalg.fill ins(%f : f32) outs(%t : memref<2x4xf32, strided<[32, 1], offset: 44>>)
  return
}

// -----

// An mplan.view of an mplan.view folds; an identity view and dead views go.
// CHECK-LABEL: func.func @view_of_view
// CHECK:         %[[A:.*]] = mplan.alloc_tensor id(0) -> memref<64xf32>
// CHECK-NEXT:    %[[V:.*]] = mplan.view %[[A]][96] : memref<64xf32> to memref<4xf32, strided<[1], offset: 24>>
// CHECK-NEXT:    memref.copy %[[A]], %[[A]]
// CHECK-NEXT:    linalg.fill ins(%{{.*}} : f32) outs(%[[V]] :
// CHECK-NEXT:    return
func.func @view_of_view(%f: f32) {
  %a = mplan.alloc_tensor id(0) -> memref<64xf32>
  %v = mplan.view %a[64] : memref<64xf32> to memref<16xf32, strided<[1], offset: 16>>
  %w = mplan.view %v[32] : memref<16xf32, strided<[1], offset: 16>> to memref<4xf32, strided<[1], offset: 24>>
  %id = mplan.view %a[0] : memref<64xf32> to memref<64xf32>
  %dead = memref.subview %a[4] [4] [1] : memref<64xf32> to memref<4xf32, strided<[1], offset: 4>>
  memref.copy %id, %id : memref<64xf32> to memref<64xf32>
  linalg.fill ins(%f : f32) outs(%w : memref<4xf32, strided<[1], offset: 24>>)
  return
}

// -----

// Left alone: dynamic offsets, views of function arguments, views of
// memref.alloc.
// CHECK-LABEL: func.func @not_static
// CHECK:         memref.subview %{{.*}}[%{{.*}}] [4] [1]
// CHECK:         memref.subview %arg0[4] [4] [1]
// CHECK:         memref.subview %{{.*}}[8] [4] [1]
// CHECK-NOT:     mplan.view
func.func @not_static(%arg0: memref<64xf32>, %i: index, %f: f32) {
  %a = mplan.alloc_tensor id(0) -> memref<64xf32>
  %s = memref.subview %a[%i] [4] [1] : memref<64xf32> to memref<4xf32, strided<[1], offset: ?>>
  linalg.fill ins(%f : f32) outs(%s : memref<4xf32, strided<[1], offset: ?>>)
  %t = memref.subview %arg0[4] [4] [1] : memref<64xf32> to memref<4xf32, strided<[1], offset: 4>>
  linalg.fill ins(%f : f32) outs(%t : memref<4xf32, strided<[1], offset: 4>>)
  %b = memref.alloc() : memref<64xf32>
  %u = memref.subview %b[8] [4] [1] : memref<64xf32> to memref<4xf32, strided<[1], offset: 8>>
  linalg.fill ins(%f : f32) outs(%u : memref<4xf32, strided<[1], offset: 8>>)
  memref.dealloc %b : memref<64xf32>
  return
}

// -----

// A rank-reducing subview is a view too.
// CHECK-LABEL: func.func @rank_reducing
// CHECK:         %[[A:.*]] = mplan.alloc_tensor id(0) -> memref<4x8xf32>
// CHECK:         %[[V:.*]] = mplan.view %[[A]][32] : memref<4x8xf32> to memref<8xf32, strided<[1], offset: 8>>
// CHECK:         linalg.fill ins(%{{.*}} : f32) outs(%[[V]] : memref<8xf32, strided<[1], offset: 8>>)
func.func @rank_reducing(%f: f32) {
  %a = mplan.alloc_tensor id(0) -> memref<4x8xf32>
  %s = memref.subview %a[1, 0] [1, 8] [1, 1] : memref<4x8xf32> to memref<8xf32, strided<[1], offset: 8>>
  linalg.fill ins(%f : f32) outs(%s : memref<8xf32, strided<[1], offset: 8>>)
  return
}
