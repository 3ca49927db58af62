// RUN: mplan-opt %s --split-input-file --mplan-elide-copies | FileCheck %s

// Pad: the producer writes straight into the padded buffer; the padding fill
// moves before it; the small buffer and the copy vanish.

// CHECK-LABEL: func.func @pad
// CHECK-SAME:    (%[[IN:.*]]: memref<4x4xf32>, %[[OUT:.*]]: memref<6x6xf32>)
// CHECK-SAME:    mplan.copies_removed = 1 : i64, mplan.copy_bytes_avoided = 64 : i64
// CHECK:         %[[BIG:.*]] = mplan.alloc_tensor id(1) -> memref<6x6xf32>
// CHECK-NEXT:    %[[V:.*]] = mplan.view %[[BIG]][28] : memref<6x6xf32> to memref<4x4xf32, strided<[6, 1], offset: 7>>
// CHECK-NEXT:    linalg.fill ins(%{{.*}} : f32) outs(%[[BIG]] : memref<6x6xf32>)
// CHECK-NEXT:    linalg.map { math.absf } ins(%[[IN]] : memref<4x4xf32>) outs(%[[V]] : memref<4x4xf32, strided<[6, 1], offset: 7>>)
// CHECK-NEXT:    linalg.copy ins(%[[BIG]] : memref<6x6xf32>) outs(%[[OUT]] : memref<6x6xf32>)
// CHECK-NEXT:    return
func.func @pad(%in: memref<4x4xf32>, %out: memref<6x6xf32>) {
  %cst = arith.constant 0.0 : f32
  %small = mplan.alloc_tensor id(0) -> memref<4x4xf32>
  linalg.map { math.absf } ins(%in : memref<4x4xf32>) outs(%small : memref<4x4xf32>)
  %big = mplan.alloc_tensor id(1) -> memref<6x6xf32>
  linalg.fill ins(%cst : f32) outs(%big : memref<6x6xf32>)
  %v = mplan.view %big[28] : memref<6x6xf32> to memref<4x4xf32, strided<[6, 1], offset: 7>>
  memref.copy %small, %v : memref<4x4xf32> to memref<4x4xf32, strided<[6, 1], offset: 7>>
  linalg.copy ins(%big : memref<6x6xf32>) outs(%out : memref<6x6xf32>)
  return
}

// -----

// The bufferized tensor.pad form: a linalg.map fill over linalg.index, a
// producer made of a fill and a conv-like accumulation, and a copy into a
// view (written here as mplan.view, as mplan-fold-views leaves it).

// CHECK-LABEL: func.func @pad_map_fill
// CHECK:         %[[BIG:.*]] = mplan.alloc_tensor id(1) -> memref<1x6x6x2xf32>
// CHECK-NEXT:    %[[V:.*]] = mplan.view %[[BIG]][{{[0-9]+}}] : memref<1x6x6x2xf32> to memref<1x4x4x2xf32, strided<[72, 12, 2, 1], offset: 14>>
// CHECK-NEXT:    linalg.map outs(%[[BIG]] : memref<1x6x6x2xf32>)
// CHECK:         linalg.fill ins(%{{.*}} : f32) outs(%[[V]] :
// CHECK-NEXT:    linalg.generic {{.*}} ins(%{{.*}} : memref<1x4x4x2xf32>) outs(%[[V]] :
// CHECK-NOT:     memref.copy
// CHECK:         linalg.copy ins(%[[BIG]]
func.func @pad_map_fill(%in: memref<1x4x4x2xf32>, %out: memref<1x6x6x2xf32>) {
  %cst = arith.constant 0.0 : f32
  %small = mplan.alloc_tensor id(0) -> memref<1x4x4x2xf32>
  linalg.fill ins(%cst : f32) outs(%small : memref<1x4x4x2xf32>)
  linalg.generic {indexing_maps = [affine_map<(a, b, c, d) -> (a, b, c, d)>, affine_map<(a, b, c, d) -> (a, b, c, d)>],
                  iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%in : memref<1x4x4x2xf32>) outs(%small : memref<1x4x4x2xf32>) {
  ^bb0(%x: f32, %acc: f32):
    %s = arith.addf %x, %acc : f32
    linalg.yield %s : f32
  }
  %big = mplan.alloc_tensor id(1) -> memref<1x6x6x2xf32>
  linalg.map outs(%big : memref<1x6x6x2xf32>)
    (%init: f32) {
      %0 = linalg.index 0 : index
      linalg.yield %cst : f32
    }
  %v = mplan.view %big[56] : memref<1x6x6x2xf32> to memref<1x4x4x2xf32, strided<[72, 12, 2, 1], offset: 14>>
  memref.copy %small, %v : memref<1x4x4x2xf32> to memref<1x4x4x2xf32, strided<[72, 12, 2, 1], offset: 14>>
  linalg.copy ins(%big : memref<1x6x6x2xf32>) outs(%out : memref<1x6x6x2xf32>)
  return
}

// -----

// Concat along the last dimension: both parts are written in place, even
// though the first part is read (by another op) before its copy; the two
// regions interleave but do not overlap.

// CHECK-LABEL: func.func @concat
// CHECK-SAME:    mplan.copies_removed = 2 : i64, mplan.copy_bytes_avoided = 96 : i64
// CHECK:         %[[CAT:.*]] = mplan.alloc_tensor id(2) -> memref<4x6xf32>
// CHECK-NEXT:    %[[V0:.*]] = mplan.view %[[CAT]][0] : memref<4x6xf32> to memref<4x2xf32, strided<[6, 1]>>
// CHECK-NEXT:    linalg.map { math.absf } ins(%{{.*}} : memref<4x2xf32>) outs(%[[V0]] :
// CHECK-NEXT:    linalg.copy ins(%[[V0]] : {{.*}}) outs(%{{.*}} : memref<4x2xf32>)
// CHECK-NEXT:    %[[V1:.*]] = mplan.view %[[CAT]][8] : memref<4x6xf32> to memref<4x4xf32, strided<[6, 1], offset: 2>>
// CHECK-NEXT:    linalg.map { arith.negf } ins(%{{.*}} : memref<4x4xf32>) outs(%[[V1]] :
// CHECK-NEXT:    linalg.copy ins(%[[CAT]] : memref<4x6xf32>)
// CHECK-NEXT:    return
func.func @concat(%a: memref<4x2xf32>, %b: memref<4x4xf32>, %side: memref<4x2xf32>, %out: memref<4x6xf32>) {
  %p0 = mplan.alloc_tensor id(0) -> memref<4x2xf32>
  linalg.map { math.absf } ins(%a : memref<4x2xf32>) outs(%p0 : memref<4x2xf32>)
  linalg.copy ins(%p0 : memref<4x2xf32>) outs(%side : memref<4x2xf32>)
  %p1 = mplan.alloc_tensor id(1) -> memref<4x4xf32>
  linalg.map { arith.negf } ins(%b : memref<4x4xf32>) outs(%p1 : memref<4x4xf32>)
  %cat = mplan.alloc_tensor id(2) -> memref<4x6xf32>
  %v0 = mplan.view %cat[0] : memref<4x6xf32> to memref<4x2xf32, strided<[6, 1]>>
  memref.copy %p0, %v0 : memref<4x2xf32> to memref<4x2xf32, strided<[6, 1]>>
  %v1 = mplan.view %cat[8] : memref<4x6xf32> to memref<4x4xf32, strided<[6, 1], offset: 2>>
  memref.copy %p1, %v1 : memref<4x4xf32> to memref<4x4xf32, strided<[6, 1], offset: 2>>
  linalg.copy ins(%cat : memref<4x6xf32>) outs(%out : memref<4x6xf32>)
  return
}

// -----

// A part that is read after the copy still goes in place (nothing writes the
// region afterwards), and a view of it is re-expressed in the destination.

// CHECK-LABEL: func.func @read_after_copy_and_view
// CHECK:         %[[BIG:.*]] = mplan.alloc_tensor id(1) -> memref<6x6xf32>
// CHECK-NEXT:    %[[V:.*]] = mplan.view %[[BIG]][28] : memref<6x6xf32> to memref<4x4xf32, strided<[6, 1], offset: 7>>
// CHECK-NEXT:    linalg.fill ins(%{{.*}} : f32) outs(%[[BIG]]
// CHECK-NEXT:    linalg.map { math.absf } ins(%{{.*}}) outs(%[[V]] :
// CHECK-NEXT:    %[[ROW:.*]] = mplan.view %[[BIG]][52] : memref<6x6xf32> to memref<4xf32, strided<[1], offset: 13>>
// CHECK-NEXT:    linalg.copy ins(%[[ROW]] : memref<4xf32, strided<[1], offset: 13>>) outs(%{{.*}} : memref<4xf32>)
// CHECK-NEXT:    linalg.copy ins(%[[BIG]] : memref<6x6xf32>)
func.func @read_after_copy_and_view(%in: memref<4x4xf32>, %row: memref<4xf32>, %out: memref<6x6xf32>) {
  %cst = arith.constant 0.0 : f32
  %small = mplan.alloc_tensor id(0) -> memref<4x4xf32>
  linalg.map { math.absf } ins(%in : memref<4x4xf32>) outs(%small : memref<4x4xf32>)
  %big = mplan.alloc_tensor id(1) -> memref<6x6xf32>
  linalg.fill ins(%cst : f32) outs(%big : memref<6x6xf32>)
  %v = mplan.view %big[28] : memref<6x6xf32> to memref<4x4xf32, strided<[6, 1], offset: 7>>
  memref.copy %small, %v : memref<4x4xf32> to memref<4x4xf32, strided<[6, 1], offset: 7>>
  %r = mplan.view %small[16] : memref<4x4xf32> to memref<4xf32, strided<[1], offset: 4>>
  linalg.copy ins(%r : memref<4xf32, strided<[1], offset: 4>>) outs(%row : memref<4xf32>)
  linalg.copy ins(%big : memref<6x6xf32>) outs(%out : memref<6x6xf32>)
  return
}

// -----

// View copy to view: a buffer that only holds a copy of a slice of another,
// and is only read, becomes a view of that slice.

// CHECK-LABEL: func.func @view_copy
// CHECK:         %[[A:.*]] = mplan.alloc_tensor id(0) -> memref<8x4xf32>
// CHECK-NEXT:    linalg.map { math.absf } ins(%{{.*}}) outs(%[[A]] :
// CHECK-NEXT:    %[[V:.*]] = mplan.view %[[A]][32] : memref<8x4xf32> to memref<2x4xf32, strided<[4, 1], offset: 8>>
// CHECK-NEXT:    linalg.copy ins(%[[V]] : memref<2x4xf32, strided<[4, 1], offset: 8>>) outs(%{{.*}} : memref<2x4xf32>)
// CHECK-NEXT:    return
func.func @view_copy(%in: memref<8x4xf32>, %out: memref<2x4xf32>) {
  %a = mplan.alloc_tensor id(0) -> memref<8x4xf32>
  linalg.map { math.absf } ins(%in : memref<8x4xf32>) outs(%a : memref<8x4xf32>)
  %b = mplan.alloc_tensor id(1) -> memref<2x4xf32>
  %s = mplan.view %a[32] : memref<8x4xf32> to memref<2x4xf32, strided<[4, 1], offset: 8>>
  memref.copy %s, %b : memref<2x4xf32, strided<[4, 1], offset: 8>> to memref<2x4xf32>
  linalg.copy ins(%b : memref<2x4xf32>) outs(%out : memref<2x4xf32>)
  return
}

// -----

// The source of a copy into a whole buffer that is modified in place
// afterwards: the source is not read again, so it is written in place.

// CHECK-LABEL: func.func @copy_then_update
// CHECK:         %[[B:.*]] = mplan.alloc_tensor id(1) -> memref<4xf32>
// CHECK-NEXT:    linalg.map { math.absf } ins(%{{.*}}) outs(%[[B]] :
// CHECK-NEXT:    linalg.map { arith.negf } ins(%[[B]] : memref<4xf32>) outs(%[[B]] :
// CHECK-NOT:     memref.copy
func.func @copy_then_update(%in: memref<4xf32>, %out: memref<4xf32>) {
  %a = mplan.alloc_tensor id(0) -> memref<4xf32>
  linalg.map { math.absf } ins(%in : memref<4xf32>) outs(%a : memref<4xf32>)
  %b = mplan.alloc_tensor id(1) -> memref<4xf32>
  memref.copy %a, %b : memref<4xf32> to memref<4xf32>
  linalg.map { arith.negf } ins(%b : memref<4xf32>) outs(%b : memref<4xf32>)
  linalg.copy ins(%b : memref<4xf32>) outs(%out : memref<4xf32>)
  return
}

// -----

// Concat into a returned buffer (a memref.alloc left unplanned): the parts
// are written in place through its subviews; linalg.copy counts as a copy.

// CHECK-LABEL: func.func @concat_into_result
// CHECK-SAME:    mplan.copies_removed = 2 : i64, mplan.copy_bytes_avoided = 64 : i64, mplan.views_removed = 2 : i64
// CHECK:         %[[R:.*]] = memref.alloc() : memref<2x8xf32>
// CHECK-NEXT:    %[[V0:.*]] = mplan.view %[[R]][0] : memref<2x8xf32> to memref<2x4xf32, strided<[8, 1]>>
// CHECK-NEXT:    linalg.map { math.absf } ins(%{{.*}}) outs(%[[V0]] :
// CHECK-NEXT:    %[[V1:.*]] = mplan.view %[[R]][16] : memref<2x8xf32> to memref<2x4xf32, strided<[8, 1], offset: 4>>
// CHECK-NEXT:    linalg.map { math.sqrt } ins(%{{.*}}) outs(%[[V1]] :
// CHECK-NEXT:    return %[[R]]
func.func @concat_into_result(%a: memref<2x4xf32>) -> memref<2x8xf32> {
  %p0 = mplan.alloc_tensor id(0) -> memref<2x4xf32>
  linalg.map { math.absf } ins(%a : memref<2x4xf32>) outs(%p0 : memref<2x4xf32>)
  %p1 = mplan.alloc_tensor id(1) -> memref<2x4xf32>
  linalg.map { math.sqrt } ins(%a : memref<2x4xf32>) outs(%p1 : memref<2x4xf32>)
  %r = memref.alloc() : memref<2x8xf32>
  %s0 = memref.subview %r[0, 0] [2, 4] [1, 1] : memref<2x8xf32> to memref<2x4xf32, strided<[8, 1]>>
  memref.copy %p0, %s0 : memref<2x4xf32> to memref<2x4xf32, strided<[8, 1]>>
  %s1 = memref.subview %r[0, 4] [2, 4] [1, 1] : memref<2x8xf32> to memref<2x4xf32, strided<[8, 1], offset: 4>>
  linalg.copy ins(%p1 : memref<2x4xf32>) outs(%s1 : memref<2x4xf32, strided<[8, 1], offset: 4>>)
  return %r : memref<2x8xf32>
}

// -----

// Nested concat: a concatenation that is itself copied into a larger one
// lands in it with all its parts (views of views re-expressed in the root).

// CHECK-LABEL: func.func @nested_concat
// CHECK-SAME:    mplan.copies_removed = 4 : i64, mplan.copy_bytes_avoided = 80 : i64
// CHECK:         %[[BIG:.*]] = mplan.alloc_tensor id(3) -> memref<2x6xf32>
// CHECK-NEXT:    %[[P0:.*]] = mplan.view %[[BIG]][0] : memref<2x6xf32> to memref<2x2xf32, strided<[6, 1]>>
// CHECK-NEXT:    %[[MID:.*]] = mplan.view %[[BIG]][0] : memref<2x6xf32> to memref<2x4xf32, strided<[6, 1]>>
// CHECK-NEXT:    linalg.map { math.absf } ins(%{{.*}}) outs(%[[P0]] :
// CHECK-NEXT:    %[[P1:.*]] = mplan.view %[[BIG]][8] : memref<2x6xf32> to memref<2x2xf32, strided<[6, 1], offset: 2>>
// CHECK-NEXT:    linalg.map { math.sqrt } ins(%{{.*}}) outs(%[[P1]] :
// CHECK-NEXT:    linalg.copy ins(%[[MID]] : {{.*}}) outs(%{{.*}} : memref<2x4xf32>)
// CHECK-NEXT:    %[[P2:.*]] = mplan.view %[[BIG]][16] : memref<2x6xf32> to memref<2x2xf32, strided<[6, 1], offset: 4>>
// CHECK-NEXT:    linalg.map { math.exp } ins(%{{.*}}) outs(%[[P2]] :
// CHECK-NEXT:    linalg.copy ins(%[[BIG]] : memref<2x6xf32>)
func.func @nested_concat(%a: memref<2x2xf32>, %side: memref<2x4xf32>, %out: memref<2x6xf32>) {
  %mid = mplan.alloc_tensor id(2) -> memref<2x4xf32>
  %p0 = mplan.alloc_tensor id(0) -> memref<2x2xf32>
  linalg.map { math.absf } ins(%a : memref<2x2xf32>) outs(%p0 : memref<2x2xf32>)
  %p1 = mplan.alloc_tensor id(1) -> memref<2x2xf32>
  linalg.map { math.sqrt } ins(%a : memref<2x2xf32>) outs(%p1 : memref<2x2xf32>)
  %m0 = mplan.view %mid[0] : memref<2x4xf32> to memref<2x2xf32, strided<[4, 1]>>
  memref.copy %p0, %m0 : memref<2x2xf32> to memref<2x2xf32, strided<[4, 1]>>
  %m1 = mplan.view %mid[8] : memref<2x4xf32> to memref<2x2xf32, strided<[4, 1], offset: 2>>
  memref.copy %p1, %m1 : memref<2x2xf32> to memref<2x2xf32, strided<[4, 1], offset: 2>>
  linalg.copy ins(%mid : memref<2x4xf32>) outs(%side : memref<2x4xf32>)
  %p2 = mplan.alloc_tensor id(4) -> memref<2x2xf32>
  linalg.map { math.exp } ins(%a : memref<2x2xf32>) outs(%p2 : memref<2x2xf32>)
  %big = mplan.alloc_tensor id(3) -> memref<2x6xf32>
  %b0 = mplan.view %big[0] : memref<2x6xf32> to memref<2x4xf32, strided<[6, 1]>>
  memref.copy %mid, %b0 : memref<2x4xf32> to memref<2x4xf32, strided<[6, 1]>>
  %b1 = mplan.view %big[16] : memref<2x6xf32> to memref<2x2xf32, strided<[6, 1], offset: 4>>
  memref.copy %p2, %b1 : memref<2x2xf32> to memref<2x2xf32, strided<[6, 1], offset: 4>>
  linalg.copy ins(%big : memref<2x6xf32>) outs(%out : memref<2x6xf32>)
  return
}

// -----

// Fill narrowing: the padding value is read from the producer's result, so
// the fill cannot move before the producer; it is restricted to the four
// dense boxes around the written region instead (rows above and below, then
// the columns left and right of it), and the copy goes.

// CHECK-LABEL: func.func @fill_narrowed
// CHECK-SAME:    mplan.fills_narrowed = 1 : i64
// CHECK:         %[[BIG:.*]] = mplan.alloc_tensor id(1) -> memref<6x6xf32>
// CHECK-NEXT:    %[[V:.*]] = mplan.view %[[BIG]][28] : memref<6x6xf32> to memref<4x4xf32, strided<[6, 1], offset: 7>>
// CHECK-NEXT:    linalg.map { math.absf } ins(%{{.*}} : memref<4x4xf32>) outs(%[[V]] :
// CHECK-NEXT:    %[[PAD:.*]] = memref.load %[[V]]
// CHECK-NEXT:    %[[T:.*]] = mplan.view %[[BIG]][0] : memref<6x6xf32> to memref<1x6xf32>
// CHECK-NEXT:    linalg.fill ins(%[[PAD]] : f32) outs(%[[T]] : memref<1x6xf32>)
// CHECK-NEXT:    %[[B:.*]] = mplan.view %[[BIG]][120] : memref<6x6xf32> to memref<1x6xf32, strided<[6, 1], offset: 30>>
// CHECK-NEXT:    linalg.fill ins(%[[PAD]] : f32) outs(%[[B]] :
// CHECK-NEXT:    %[[L:.*]] = mplan.view %[[BIG]][24] : memref<6x6xf32> to memref<4x1xf32, strided<[6, 1], offset: 6>>
// CHECK-NEXT:    linalg.fill ins(%[[PAD]] : f32) outs(%[[L]] :
// CHECK-NEXT:    %[[R:.*]] = mplan.view %[[BIG]][44] : memref<6x6xf32> to memref<4x1xf32, strided<[6, 1], offset: 11>>
// CHECK-NEXT:    linalg.fill ins(%[[PAD]] : f32) outs(%[[R]] :
// CHECK-NEXT:    linalg.copy ins(%[[BIG]] : memref<6x6xf32>)
// CHECK-NEXT:    return
func.func @fill_narrowed(%in: memref<4x4xf32>, %out: memref<6x6xf32>, %i: index) {
  %small = mplan.alloc_tensor id(0) -> memref<4x4xf32>
  linalg.map { math.absf } ins(%in : memref<4x4xf32>) outs(%small : memref<4x4xf32>)
  %pad = memref.load %small[%i, %i] : memref<4x4xf32>
  %big = mplan.alloc_tensor id(1) -> memref<6x6xf32>
  linalg.fill ins(%pad : f32) outs(%big : memref<6x6xf32>)
  %v = mplan.view %big[28] : memref<6x6xf32> to memref<4x4xf32, strided<[6, 1], offset: 7>>
  memref.copy %small, %v : memref<4x4xf32> to memref<4x4xf32, strided<[6, 1], offset: 7>>
  linalg.copy ins(%big : memref<6x6xf32>) outs(%out : memref<6x6xf32>)
  return
}

// -----

// Narrowing a fill of a view of the destination (the concat of a padded
// part): the fill covers columns 0..3, the part written in place columns
// 2..3; the fill keeps columns 0..1.

// CHECK-LABEL: func.func @fill_view_narrowed
// CHECK-SAME:    mplan.fills_narrowed = 1 : i64
// CHECK:         %[[CAT:.*]] = mplan.alloc_tensor id(1) -> memref<4x6xf32>
// CHECK:         %[[K:.*]] = mplan.view %[[CAT]][0] : memref<4x6xf32> to memref<4x2xf32, strided<[6, 1]>>
// CHECK-NEXT:    linalg.fill ins(%{{.*}} : f32) outs(%[[K]] : memref<4x2xf32, strided<[6, 1]>>)
// CHECK-NOT:     memref.copy
// CHECK:         return
func.func @fill_view_narrowed(%in: memref<4x2xf32>, %out: memref<4x6xf32>, %i: index) {
  %small = mplan.alloc_tensor id(0) -> memref<4x2xf32>
  linalg.map { math.absf } ins(%in : memref<4x2xf32>) outs(%small : memref<4x2xf32>)
  %pad = memref.load %small[%i, %i] : memref<4x2xf32>
  %cat = mplan.alloc_tensor id(1) -> memref<4x6xf32>
  %w = mplan.view %cat[0] : memref<4x6xf32> to memref<4x4xf32, strided<[6, 1]>>
  linalg.fill ins(%pad : f32) outs(%w : memref<4x4xf32, strided<[6, 1]>>)
  %v = mplan.view %cat[8] : memref<4x6xf32> to memref<4x2xf32, strided<[6, 1], offset: 2>>
  memref.copy %small, %v : memref<4x2xf32> to memref<4x2xf32, strided<[6, 1], offset: 2>>
  %r = mplan.view %cat[16] : memref<4x6xf32> to memref<4x2xf32, strided<[6, 1], offset: 4>>
  linalg.map { math.exp } ins(%in : memref<4x2xf32>) outs(%r : memref<4x2xf32, strided<[6, 1], offset: 4>>)
  linalg.copy ins(%cat : memref<4x6xf32>) outs(%out : memref<4x6xf32>)
  return
}

// -----

// The padding value is a constant materialized after the producer, right
// before the padded buffer (upstream's tosa-to-linalg-named pad lowering):
// the linalg.map fill captures it, and the constant moves up with the fill.

// CHECK-LABEL: func.func @pad_late_constant
// CHECK-SAME:    mplan.copies_removed = 1 : i64
// CHECK:         %[[BIG:.*]] = mplan.alloc_tensor id(1) -> memref<6x6xf32>
// CHECK-NEXT:    %[[V:.*]] = mplan.view %[[BIG]][28]
// CHECK-NEXT:    %[[CST:.*]] = arith.constant -3.40282347E+38 : f32
// CHECK-NEXT:    linalg.map outs(%[[BIG]] : memref<6x6xf32>)
// CHECK-NEXT:      (%{{.*}}: f32) {
// CHECK-NEXT:        linalg.yield %[[CST]] : f32
// CHECK:         linalg.map { math.absf } ins(%{{.*}} : memref<4x4xf32>) outs(%[[V]] : memref<4x4xf32, strided<[6, 1], offset: 7>>)
// CHECK-NOT:     memref.copy
// CHECK:         return
func.func @pad_late_constant(%in: memref<4x4xf32>, %out: memref<6x6xf32>) {
  %small = mplan.alloc_tensor id(0) -> memref<4x4xf32>
  linalg.map { math.absf } ins(%in : memref<4x4xf32>) outs(%small : memref<4x4xf32>)
  %cst = arith.constant -3.40282347E+38 : f32
  %big = mplan.alloc_tensor id(1) -> memref<6x6xf32>
  linalg.map outs(%big : memref<6x6xf32>)
    (%init: f32) {
      linalg.yield %cst : f32
    }
  %v = mplan.view %big[28] : memref<6x6xf32> to memref<4x4xf32, strided<[6, 1], offset: 7>>
  memref.copy %small, %v : memref<4x4xf32> to memref<4x4xf32, strided<[6, 1], offset: 7>>
  linalg.copy ins(%big : memref<6x6xf32>) outs(%out : memref<6x6xf32>)
  return
}

// -----

// A copy of a region onto itself is a no-op: the same value (what One-Shot
// Bufferize leaves once CSE merges the views of an in-place insert_slice),
// two views of the same region of a root, or a function argument onto itself.

// CHECK-LABEL: func.func @self_copy
// CHECK-SAME:    mplan.copies_removed = 3 : i64
// CHECK-NOT:     memref.copy
// CHECK:         linalg.copy
// CHECK-NOT:     memref.copy
// CHECK:         return
func.func @self_copy(%in: memref<4x4xf32>, %out: memref<4x8xf32>) {
  %buf = mplan.alloc_tensor id(0) -> memref<4x8xf32>
  %v = mplan.view %buf[16] : memref<4x8xf32> to memref<4x4xf32, strided<[8, 1], offset: 4>>
  linalg.map { math.absf } ins(%in : memref<4x4xf32>) outs(%v : memref<4x4xf32, strided<[8, 1], offset: 4>>)
  memref.copy %v, %v : memref<4x4xf32, strided<[8, 1], offset: 4>> to memref<4x4xf32, strided<[8, 1], offset: 4>>
  %w = mplan.view %buf[16] : memref<4x8xf32> to memref<4x4xf32, strided<[8, 1], offset: 4>>
  memref.copy %v, %w : memref<4x4xf32, strided<[8, 1], offset: 4>> to memref<4x4xf32, strided<[8, 1], offset: 4>>
  memref.copy %in, %in : memref<4x4xf32> to memref<4x4xf32>
  linalg.copy ins(%buf : memref<4x8xf32>) outs(%out : memref<4x8xf32>)
  return
}

// -----

// Two different regions of one root: the copy stays.

// CHECK-LABEL: func.func @copy_within_root
// CHECK-NOT:     mplan.copies_removed
// CHECK:         memref.copy
func.func @copy_within_root(%in: memref<4x4xf32>, %out: memref<4x8xf32>) {
  %buf = mplan.alloc_tensor id(0) -> memref<4x8xf32>
  %v = mplan.view %buf[16] : memref<4x8xf32> to memref<4x4xf32, strided<[8, 1], offset: 4>>
  linalg.map { math.absf } ins(%in : memref<4x4xf32>) outs(%v : memref<4x4xf32, strided<[8, 1], offset: 4>>)
  %w = mplan.view %buf[0] : memref<4x8xf32> to memref<4x4xf32, strided<[8, 1]>>
  memref.copy %v, %w : memref<4x4xf32, strided<[8, 1], offset: 4>> to memref<4x4xf32, strided<[8, 1]>>
  linalg.copy ins(%buf : memref<4x8xf32>) outs(%out : memref<4x8xf32>)
  return
}

// -----

// A zero-filled buffer shared by several accumulators (CSE merged their
// linalg.fill before bufferization; One-Shot Bufferize copies it into each):
// every copy becomes the fill of its target, and the shared buffer's fill
// moves down to the buffer's own last use (written in place there).

// CHECK-LABEL: func.func @fill_copies
// CHECK-SAME:    mplan.copies_removed = 2 : i64
// CHECK:         %[[CST:.*]] = arith.constant 0.0
// CHECK-NOT:     memref.copy
// CHECK:         %[[A:.*]] = mplan.alloc_tensor id(1)
// CHECK-NEXT:    linalg.fill ins(%[[CST]] : f32) outs(%[[A]] : memref<4xf32>)
// CHECK-NEXT:    linalg.map { arith.addf } ins(%{{.*}}, %[[A]] : {{.*}}) outs(%[[A]] : memref<4xf32>)
// CHECK-NEXT:    %[[B:.*]] = mplan.alloc_tensor id(2)
// CHECK-NEXT:    linalg.fill ins(%[[CST]] : f32) outs(%[[B]] : memref<4xf32>)
// CHECK-NEXT:    linalg.map { arith.addf } ins(%[[A]], %[[B]] : {{.*}}) outs(%[[B]] : memref<4xf32>)
// CHECK-NEXT:    linalg.fill ins(%[[CST]] : f32) outs(%[[Z:.*]] : memref<4xf32>)
// CHECK-NEXT:    linalg.map { arith.addf } ins(%[[B]], %[[Z]] : {{.*}}) outs(%[[Z]] : memref<4xf32>)
// CHECK-NOT:     memref.copy
// CHECK:         return
func.func @fill_copies(%in: memref<4xf32>, %out: memref<4xf32>) {
  %z = arith.constant 0.0 : f32
  %zero = mplan.alloc_tensor id(0) -> memref<4xf32>
  linalg.fill ins(%z : f32) outs(%zero : memref<4xf32>)
  %a = mplan.alloc_tensor id(1) -> memref<4xf32>
  memref.copy %zero, %a : memref<4xf32> to memref<4xf32>
  linalg.map { arith.addf } ins(%in, %a : memref<4xf32>, memref<4xf32>) outs(%a : memref<4xf32>)
  %b = mplan.alloc_tensor id(2) -> memref<4xf32>
  memref.copy %zero, %b : memref<4xf32> to memref<4xf32>
  linalg.map { arith.addf } ins(%a, %b : memref<4xf32>, memref<4xf32>) outs(%b : memref<4xf32>)
  linalg.map { arith.addf } ins(%b, %zero : memref<4xf32>, memref<4xf32>) outs(%zero : memref<4xf32>)
  linalg.copy ins(%zero : memref<4xf32>) outs(%out : memref<4xf32>)
  return
}

// -----

// Only copies remain of the filled buffer: it goes with its fill.

// CHECK-LABEL: func.func @fill_copies_only
// CHECK-SAME:    mplan.copies_removed = 2 : i64
// CHECK-NOT:     mplan.alloc_tensor id(0)
// CHECK:         linalg.fill ins(%{{.*}} : f32) outs(%{{.*}} : memref<4xf32, strided<[1], offset: 4>>)
// CHECK:         linalg.fill ins(%{{.*}} : f32) outs(%arg1 : memref<4xf32>)
// CHECK-NOT:     memref.copy
// CHECK:         return
func.func @fill_copies_only(%out: memref<8xf32>, %out2: memref<4xf32>) {
  %z = arith.constant 1.0 : f32
  %ones = mplan.alloc_tensor id(0) -> memref<4xf32>
  linalg.fill ins(%z : f32) outs(%ones : memref<4xf32>)
  %v = memref.subview %out[4] [4] [1] : memref<8xf32> to memref<4xf32, strided<[1], offset: 4>>
  memref.copy %ones, %v : memref<4xf32> to memref<4xf32, strided<[1], offset: 4>>
  memref.copy %ones, %out2 : memref<4xf32> to memref<4xf32>
  return
}

// -----

// A copy of a view onto itself changes nothing and goes; the view it named
// twice goes with it once (it was erased twice: a use after free).
// CHECK-LABEL: func.func @self_copy_of_view
// CHECK-NOT:     memref.copy
// CHECK-NOT:     memref.expand_shape
// CHECK:         memref.collapse_shape
func.func @self_copy_of_view(%i: index) -> f32 {
  %a = memref.alloc() : memref<4x6xf32>
  %e = memref.expand_shape %a [[0, 1], [2]] output_shape [2, 2, 6] : memref<4x6xf32> into memref<2x2x6xf32>
  memref.copy %e, %e : memref<2x2x6xf32> to memref<2x2x6xf32>
  %c = memref.collapse_shape %a [[0, 1]] : memref<4x6xf32> into memref<24xf32>
  %v = memref.load %c[%i] : memref<24xf32>
  return %v : f32
}

// -----

// A buffer's accesses are analyzed when a copy first asks about it, on the
// program as the rewrites before left it: the copy of %s onto itself goes
// first and takes the select with it, so %z1 is no longer reached through a
// value that may point elsewhere and its copy into %y goes too.
// CHECK-LABEL: func.func @select_gone
// CHECK-SAME:    mplan.copies_removed = 2
// CHECK-NOT:     memref.copy
// CHECK-NOT:     arith.select
// CHECK:         return
func.func @select_gone(%in: memref<16xf32>, %out: memref<16xf32>, %c: i1) {
  %z1 = mplan.alloc_tensor id(0) -> memref<16xf32>
  %z2 = mplan.alloc_tensor id(1) -> memref<16xf32>
  %s = arith.select %c, %z1, %z2 : memref<16xf32>
  memref.copy %s, %s : memref<16xf32> to memref<16xf32>
  linalg.map { math.absf } ins(%in : memref<16xf32>) outs(%z1 : memref<16xf32>)
  %y = mplan.alloc_tensor id(2) -> memref<16xf32>
  memref.copy %z1, %y : memref<16xf32> to memref<16xf32>
  linalg.map { math.absf } ins(%y : memref<16xf32>) outs(%out : memref<16xf32>)
  return
}

// -----

// A slice of one buffer copied into a slice of another: neither copy side is
// a whole buffer, so no rewrite applies and the copy stays (decided from the
// points-to sets, without analyzing either buffer). The buffers' accesses are
// analyzed later, when the copy of the whole %c into a slice of %b asks about
// them: that copy is written in place, and the kept copy still reads %a.

// CHECK-LABEL: func.func @slice_to_slice
// CHECK-SAME:    mplan.copies_removed = 1 : i64
// CHECK:         %[[A:.*]] = mplan.alloc_tensor id(0)
// CHECK:         %[[B:.*]] = mplan.alloc_tensor id(1)
// CHECK:         %[[AV:.*]] = mplan.view %[[A]][0]
// CHECK:         %[[BV:.*]] = mplan.view %[[B]][16]
// CHECK:         memref.copy %[[AV]], %[[BV]]
// CHECK-NOT:     memref.copy
// CHECK:         return
func.func @slice_to_slice(%in: memref<8xf32>, %in2: memref<4xf32>, %out: memref<12xf32>) {
  %a = mplan.alloc_tensor id(0) -> memref<8xf32>
  linalg.map { math.absf } ins(%in : memref<8xf32>) outs(%a : memref<8xf32>)
  %b = mplan.alloc_tensor id(1) -> memref<12xf32>
  %av = mplan.view %a[0] : memref<8xf32> to memref<4xf32, strided<[1]>>
  %bv = mplan.view %b[16] : memref<12xf32> to memref<4xf32, strided<[1], offset: 4>>
  memref.copy %av, %bv : memref<4xf32, strided<[1]>> to memref<4xf32, strided<[1], offset: 4>>
  %c = mplan.alloc_tensor id(2) -> memref<4xf32>
  linalg.map { math.absf } ins(%in2 : memref<4xf32>) outs(%c : memref<4xf32>)
  %bw = mplan.view %b[0] : memref<12xf32> to memref<4xf32, strided<[1]>>
  memref.copy %c, %bw : memref<4xf32> to memref<4xf32, strided<[1]>>
  linalg.copy ins(%b : memref<12xf32>) outs(%out : memref<12xf32>)
  return
}
