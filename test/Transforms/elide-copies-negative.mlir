// RUN: mplan-opt %s --split-input-file --mplan-elide-copies | FileCheck %s

// Mutation safety: none of these copies may be removed.

// The source is written after the copy while the copy is still read: the
// copy must keep the old values.
// CHECK-LABEL: func.func @source_written_after_copy
// CHECK-NOT:     mplan.copies_removed
// CHECK:         mplan.alloc_tensor id(0)
// CHECK:         mplan.alloc_tensor id(1)
// CHECK:         memref.copy
func.func @source_written_after_copy(%in: memref<4xf32>, %o1: memref<4xf32>, %o2: memref<4xf32>) {
  %a = mplan.alloc_tensor id(0) -> memref<4xf32>
  linalg.map { math.absf } ins(%in : memref<4xf32>) outs(%a : memref<4xf32>)
  %b = mplan.alloc_tensor id(1) -> memref<4xf32>
  memref.copy %a, %b : memref<4xf32> to memref<4xf32>
  linalg.map { arith.negf } ins(%a : memref<4xf32>) outs(%a : memref<4xf32>)
  linalg.copy ins(%a : memref<4xf32>) outs(%o1 : memref<4xf32>)
  linalg.copy ins(%b : memref<4xf32>) outs(%o2 : memref<4xf32>)
  return
}

// -----

// The destination is updated in place after the copy while the source is
// still read.
// CHECK-LABEL: func.func @destination_written_while_source_read
// CHECK:         memref.copy
func.func @destination_written_while_source_read(%in: memref<4xf32>, %o1: memref<4xf32>, %o2: memref<4xf32>) {
  %a = mplan.alloc_tensor id(0) -> memref<4xf32>
  linalg.map { math.absf } ins(%in : memref<4xf32>) outs(%a : memref<4xf32>)
  %b = mplan.alloc_tensor id(1) -> memref<4xf32>
  memref.copy %a, %b : memref<4xf32> to memref<4xf32>
  linalg.map { arith.negf } ins(%b : memref<4xf32>) outs(%b : memref<4xf32>)
  linalg.copy ins(%a : memref<4xf32>) outs(%o1 : memref<4xf32>)
  linalg.copy ins(%b : memref<4xf32>) outs(%o2 : memref<4xf32>)
  return
}

// -----

// The destination region is written between the production and the copy by
// an op that is not a movable initialization (it reads another buffer).
// CHECK-LABEL: func.func @region_written_before_copy
// CHECK:         memref.copy
func.func @region_written_before_copy(%in: memref<4x4xf32>, %other: memref<4x4xf32>, %out: memref<6x6xf32>) {
  %cst = arith.constant 0.0 : f32
  %big = mplan.alloc_tensor id(1) -> memref<6x6xf32>
  linalg.fill ins(%cst : f32) outs(%big : memref<6x6xf32>)
  %v = mplan.view %big[28] : memref<6x6xf32> to memref<4x4xf32, strided<[6, 1], offset: 7>>
  %small = mplan.alloc_tensor id(0) -> memref<4x4xf32>
  linalg.map { math.absf } ins(%in : memref<4x4xf32>) outs(%small : memref<4x4xf32>)
  linalg.copy ins(%other : memref<4x4xf32>) outs(%v : memref<4x4xf32, strided<[6, 1], offset: 7>>)
  linalg.copy ins(%big : memref<6x6xf32>) outs(%out : memref<6x6xf32>)
  memref.copy %small, %v : memref<4x4xf32> to memref<4x4xf32, strided<[6, 1], offset: 7>>
  linalg.copy ins(%big : memref<6x6xf32>) outs(%out : memref<6x6xf32>)
  return
}

// -----

// The destination region is read between the production and the copy: it
// must still see the old values there.
// CHECK-LABEL: func.func @region_read_before_copy
// CHECK:         memref.copy
func.func @region_read_before_copy(%in: memref<4x4xf32>, %peek: memref<4x4xf32>, %out: memref<6x6xf32>) {
  %cst = arith.constant 1.0 : f32
  %big = mplan.alloc_tensor id(1) -> memref<6x6xf32>
  linalg.fill ins(%cst : f32) outs(%big : memref<6x6xf32>)
  %v = mplan.view %big[28] : memref<6x6xf32> to memref<4x4xf32, strided<[6, 1], offset: 7>>
  %small = mplan.alloc_tensor id(0) -> memref<4x4xf32>
  linalg.map { math.absf } ins(%in : memref<4x4xf32>) outs(%small : memref<4x4xf32>)
  linalg.copy ins(%v : memref<4x4xf32, strided<[6, 1], offset: 7>>) outs(%peek : memref<4x4xf32>)
  memref.copy %small, %v : memref<4x4xf32> to memref<4x4xf32, strided<[6, 1], offset: 7>>
  linalg.copy ins(%big : memref<6x6xf32>) outs(%out : memref<6x6xf32>)
  return
}

// -----

// The fill of the destination uses a value computed after the producer: it
// cannot move before it, and the region is not a dense box (every other
// element), so the fill cannot be narrowed to its complement either.
// CHECK-LABEL: func.func @fill_not_movable
// CHECK-NOT:     mplan.fills_narrowed
// CHECK:         linalg.fill ins(%{{.*}} : f32) outs(%{{.*}} : memref<16xf32>)
// CHECK:         memref.copy
func.func @fill_not_movable(%in: memref<8xf32>, %out: memref<16xf32>, %i: index) {
  %small = mplan.alloc_tensor id(0) -> memref<8xf32>
  linalg.map { math.absf } ins(%in : memref<8xf32>) outs(%small : memref<8xf32>)
  %pad = memref.load %small[%i] : memref<8xf32>
  %big = mplan.alloc_tensor id(1) -> memref<16xf32>
  linalg.fill ins(%pad : f32) outs(%big : memref<16xf32>)
  %v = mplan.view %big[0] : memref<16xf32> to memref<8xf32, strided<[2]>>
  memref.copy %small, %v : memref<8xf32> to memref<8xf32, strided<[2]>>
  linalg.copy ins(%big : memref<16xf32>) outs(%out : memref<16xf32>)
  return
}

// -----

// Writes into function arguments (y[:, 0] = x[:, 0] on an input): arguments
// are not planner buffers; neither the copy between them nor a copy from a
// planned buffer into an argument, nor one from an argument that is written
// afterwards, goes.
// CHECK-LABEL: func.func @argument_writes
// CHECK-NOT:     mplan.copies_removed
// CHECK-COUNT-3: memref.copy
func.func @argument_writes(%x: memref<4x4xf32>, %y: memref<4x4xf32>, %out: memref<4x4xf32>) {
  %sx = memref.subview %x[0, 0] [4, 1] [1, 1] : memref<4x4xf32> to memref<4xf32, strided<[4]>>
  %sy = memref.subview %y[0, 0] [4, 1] [1, 1] : memref<4x4xf32> to memref<4xf32, strided<[4]>>
  memref.copy %sx, %sy : memref<4xf32, strided<[4]>> to memref<4xf32, strided<[4]>>
  %t = mplan.alloc_tensor id(0) -> memref<4xf32>
  linalg.map { math.absf } ins(%sx : memref<4xf32, strided<[4]>>) outs(%t : memref<4xf32>)
  %sy1 = memref.subview %y[0, 1] [4, 1] [1, 1] : memref<4x4xf32> to memref<4xf32, strided<[4], offset: 1>>
  memref.copy %t, %sy1 : memref<4xf32> to memref<4xf32, strided<[4], offset: 1>>
  %c = mplan.alloc_tensor id(1) -> memref<4x4xf32>
  memref.copy %x, %c : memref<4x4xf32> to memref<4x4xf32>
  linalg.map { arith.negf } ins(%x : memref<4x4xf32>) outs(%x : memref<4x4xf32>)
  linalg.copy ins(%c : memref<4x4xf32>) outs(%out : memref<4x4xf32>)
  return
}

// -----

// In-place linalg op whose output would alias its input: the producer reads
// the destination region it would then write (a transpose of it).
// CHECK-LABEL: func.func @output_aliases_input
// CHECK:         memref.copy
func.func @output_aliases_input(%out: memref<4x4xf32>) {
  %cst = arith.constant 1.0 : f32
  %big = mplan.alloc_tensor id(1) -> memref<4x4xf32>
  linalg.map { math.absf } ins(%out : memref<4x4xf32>) outs(%big : memref<4x4xf32>)
  %small = mplan.alloc_tensor id(0) -> memref<4x4xf32>
  linalg.transpose ins(%big : memref<4x4xf32>) outs(%small : memref<4x4xf32>) permutation = [1, 0]
  memref.copy %small, %big : memref<4x4xf32> to memref<4x4xf32>
  linalg.copy ins(%big : memref<4x4xf32>) outs(%out : memref<4x4xf32>)
  return
}

// -----

// The source is written after the copy inside a loop (nested uses count as
// reads and writes at the loop).
// CHECK-LABEL: func.func @written_in_loop
// CHECK:         memref.copy
func.func @written_in_loop(%in: memref<4xf32>, %out: memref<4xf32>, %n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %a = mplan.alloc_tensor id(0) -> memref<4xf32>
  linalg.map { math.absf } ins(%in : memref<4xf32>) outs(%a : memref<4xf32>)
  %b = mplan.alloc_tensor id(1) -> memref<4xf32>
  memref.copy %a, %b : memref<4xf32> to memref<4xf32>
  scf.for %i = %c0 to %n step %c1 {
    linalg.map { arith.negf } ins(%b : memref<4xf32>) outs(%b : memref<4xf32>)
  }
  linalg.copy ins(%a : memref<4xf32>) outs(%out : memref<4xf32>)
  linalg.copy ins(%b : memref<4xf32>) outs(%out : memref<4xf32>)
  return
}

// -----

// Two copies into overlapping regions: the second part cannot go in place
// over the first while the first is read.
// CHECK-LABEL: func.func @overlapping_regions
// CHECK-COUNT-2: memref.copy
func.func @overlapping_regions(%a: memref<4xf32>, %b: memref<4xf32>, %o: memref<4xf32>, %out: memref<6xf32>) {
  %p0 = mplan.alloc_tensor id(0) -> memref<4xf32>
  linalg.map { math.absf } ins(%a : memref<4xf32>) outs(%p0 : memref<4xf32>)
  %p1 = mplan.alloc_tensor id(1) -> memref<4xf32>
  linalg.map { arith.negf } ins(%b : memref<4xf32>) outs(%p1 : memref<4xf32>)
  %cat = mplan.alloc_tensor id(2) -> memref<6xf32>
  %v0 = mplan.view %cat[0] : memref<6xf32> to memref<4xf32, strided<[1]>>
  memref.copy %p0, %v0 : memref<4xf32> to memref<4xf32, strided<[1]>>
  %v1 = mplan.view %cat[8] : memref<6xf32> to memref<4xf32, strided<[1], offset: 2>>
  memref.copy %p1, %v1 : memref<4xf32> to memref<4xf32, strided<[1], offset: 2>>
  linalg.copy ins(%p0 : memref<4xf32>) outs(%o : memref<4xf32>)
  linalg.copy ins(%cat : memref<6xf32>) outs(%out : memref<6xf32>)
  return
}

// -----

// The filled buffer is written again before the copy: the copy does not copy
// the fill's value and stays (and both buffers are still needed after it).

// CHECK-LABEL: func.func @fill_then_write
// CHECK:         memref.copy
func.func @fill_then_write(%in: memref<4xf32>, %out: memref<4xf32>, %out2: memref<4xf32>) {
  %z = arith.constant 0.0 : f32
  %zero = mplan.alloc_tensor id(0) -> memref<4xf32>
  linalg.fill ins(%z : f32) outs(%zero : memref<4xf32>)
  linalg.map { arith.addf } ins(%in, %zero : memref<4xf32>, memref<4xf32>) outs(%zero : memref<4xf32>)
  %a = mplan.alloc_tensor id(1) -> memref<4xf32>
  memref.copy %zero, %a : memref<4xf32> to memref<4xf32>
  linalg.map { arith.addf } ins(%in, %a : memref<4xf32>, memref<4xf32>) outs(%a : memref<4xf32>)
  linalg.copy ins(%a : memref<4xf32>) outs(%out : memref<4xf32>)
  linalg.copy ins(%zero : memref<4xf32>) outs(%out2 : memref<4xf32>)
  return
}
