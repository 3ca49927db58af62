// Programs whose buffers the IR does not fully show (stored into a box, yielded into a box by
// linalg.generic, reallocated), n-D vector elements and vectors that need more alignment than
// the `alignment=` option: the planned program prints what the unplanned one prints, with every
// strategy, a small alignment option and every arena kind. (Before the fixes: the copy out of a
// stored buffer became a view of it and printed 9; realloc's shrunk result shared bytes with
// the next buffer (static shrinking reallocs do not lower upstream: expand-realloc builds an
// out-of-bounds subview, so the sizes are dynamic here); vector<5x3xf32> was sized 64 bytes instead of 80; with alignment=8 and a stack
// arena the vector<4xf32> load faulted.)
//
// RUN: mplan-opt %s --mplan-expand-static-realloc --expand-realloc | mlir-opt %lower_to_llvm \
// RUN:   | mlir-runner -e main -entry-point-result=void -shared-libs=%mlir_runner_libs > %t.base
// RUN: FileCheck %s < %t.base
// RUN: mplan-opt %s --mplan-plan-pipeline --mplan-verify-plan --convert-mplan-to-memref="arena=heap" --mplan-to-llvm \
// RUN:   | mlir-runner -e main -entry-point-result=void -shared-libs=%mlir_runner_libs > %t.heap
// RUN: diff %t.base %t.heap
// RUN: mplan-opt %s --mplan-plan-pipeline="alignment=8 strategy=naive" --mplan-verify-plan --convert-mplan-to-memref="arena=stack" --mplan-to-llvm \
// RUN:   | mlir-runner -e main -entry-point-result=void -shared-libs=%mlir_runner_libs > %t.stack
// RUN: diff %t.base %t.stack
// RUN: mplan-opt %s --mplan-plan-pipeline="alignment=1 strategy=linear-scan" --mplan-verify-plan --convert-mplan-to-memref="arena=global" --mplan-to-llvm \
// RUN:   | mlir-runner -e main -entry-point-result=void -shared-libs=%mlir_runner_libs > %t.global
// RUN: diff %t.base %t.global
// RUN: mplan-opt %s --mplan-plan-pipeline="alignment=2 strategy=greedy-by-breadth" --mplan-verify-plan --convert-mplan-to-memref="arena=argument" --mplan-to-llvm \
// RUN:   | mlir-runner -e main -entry-point-result=void -shared-libs=%mlir_runner_libs > %t.argument
// RUN: diff %t.base %t.argument

// CHECK:      1
// CHECK-NEXT: 1
// CHECK-NEXT: 2
// CHECK-NEXT: 1
// CHECK-NEXT: 3
// CHECK-NEXT: 3
// CHECK-NEXT: 2
// CHECK-NEXT: 5
// CHECK-NEXT: 1
// CHECK-NEXT: 3
// CHECK-NEXT: 7
// CHECK-NEXT: 4
// CHECK-NEXT: 7
// CHECK-NEXT: 2

// A copy out of a buffer that is also stored into a box: a write through the box after the
// copy must not change the copy.
func.func @stored(%box: memref<1xmemref<8xf32>>) -> f32 {
  %c0 = arith.constant 0 : index
  %one = arith.constant 1.0 : f32
  %nine = arith.constant 9.0 : f32
  %y = memref.alloc() : memref<8xf32>
  linalg.fill ins(%one : f32) outs(%y : memref<8xf32>)
  memref.store %y, %box[%c0] : memref<1xmemref<8xf32>>
  %sv = memref.subview %y[0] [4] [1] : memref<8xf32> to memref<4xf32, strided<[1]>>
  %x = memref.alloc() : memref<4xf32>
  memref.copy %sv, %x : memref<4xf32, strided<[1]>> to memref<4xf32>
  %p = memref.load %box[%c0] : memref<1xmemref<8xf32>>
  linalg.fill ins(%nine : f32) outs(%p : memref<8xf32>)
  %r = memref.load %x[%c0] : memref<4xf32>
  memref.dealloc %x : memref<4xf32>
  return %r : f32
}

// The same through linalg.yield into a memref of memrefs.
func.func @yielded(%box: memref<1xmemref<8xf32>>) -> f32 {
  %c0 = arith.constant 0 : index
  %one = arith.constant 1.0 : f32
  %nine = arith.constant 9.0 : f32
  %y = memref.alloc() : memref<8xf32>
  linalg.fill ins(%one : f32) outs(%y : memref<8xf32>)
  linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]}
      outs(%box : memref<1xmemref<8xf32>>) {
  ^bb0(%old: memref<8xf32>):
    linalg.yield %y : memref<8xf32>
  }
  %sv = memref.subview %y[0] [4] [1] : memref<8xf32> to memref<4xf32, strided<[1]>>
  %x = memref.alloc() : memref<4xf32>
  memref.copy %sv, %x : memref<4xf32, strided<[1]>> to memref<4xf32>
  %p = memref.load %box[%c0] : memref<1xmemref<8xf32>>
  linalg.fill ins(%nine : f32) outs(%p : memref<8xf32>)
  %r = memref.load %x[%c0] : memref<4xf32>
  memref.dealloc %x : memref<4xf32>
  return %r : f32
}

// memref.realloc shrinking and growing a buffer, next to buffers that could reuse its bytes.
func.func @realloc(%n1: index, %n4: index) -> (f32, f32, f32, f32) {
  %c0 = arith.constant 0 : index
  %c3 = arith.constant 3 : index
  %one = arith.constant 1.0 : f32
  %two = arith.constant 2.0 : f32
  %three = arith.constant 3.0 : f32
  %a = memref.alloc() : memref<2xf32>
  linalg.fill ins(%two : f32) outs(%a : memref<2xf32>)
  %r = memref.realloc %a(%n1) : memref<2xf32> to memref<?xf32>
  %b = memref.alloc() : memref<2xf32>
  linalg.fill ins(%one : f32) outs(%b : memref<2xf32>)
  %v0 = memref.load %r[%c0] : memref<?xf32>
  %v1 = memref.load %b[%c0] : memref<2xf32>
  memref.dealloc %r : memref<?xf32>
  memref.dealloc %b : memref<2xf32>
  %g = memref.alloc() : memref<2xf32>
  linalg.fill ins(%three : f32) outs(%g : memref<2xf32>)
  %grown = memref.realloc %g(%n4) : memref<2xf32> to memref<?xf32>
  memref.store %three, %grown[%c3] : memref<?xf32>
  %v2 = memref.load %grown[%c0] : memref<?xf32>
  %v3 = memref.load %grown[%c3] : memref<?xf32>
  memref.dealloc %grown : memref<?xf32>
  return %v1, %v0, %v2, %v3 : f32, f32, f32, f32
}

// The same with static shapes: a shrink next to a buffer that could take its bytes, a grow.
func.func @realloc_static() -> (f32, f32) {
  %c0 = arith.constant 0 : index
  %c7 = arith.constant 7 : index
  %one = arith.constant 1.0 : f32
  %two = arith.constant 2.0 : f32
  %five = arith.constant 5.0 : f32
  %a = memref.alloc() : memref<12xf32>
  linalg.fill ins(%two : f32) outs(%a : memref<12xf32>)
  %r = memref.realloc %a : memref<12xf32> to memref<4xf32>
  %b = memref.alloc() : memref<12xf32>
  linalg.fill ins(%one : f32) outs(%b : memref<12xf32>)
  %g = memref.realloc %r : memref<4xf32> to memref<8xf32>
  memref.store %five, %g[%c7] : memref<8xf32>
  %v0 = memref.load %g[%c0] : memref<8xf32>
  %v7 = memref.load %g[%c7] : memref<8xf32>
  memref.dealloc %g : memref<8xf32>
  memref.dealloc %b : memref<12xf32>
  return %v0, %v7 : f32, f32
}

func.func @main() {
  %c0 = arith.constant 0 : index
  %box = memref.alloc() : memref<1xmemref<8xf32>>
  %s = call @stored(%box) : (memref<1xmemref<8xf32>>) -> f32
  vector.print %s : f32
  %yv = call @yielded(%box) : (memref<1xmemref<8xf32>>) -> f32
  vector.print %yv : f32
  %y = memref.load %box[%c0] : memref<1xmemref<8xf32>>
  memref.dealloc %y : memref<8xf32>
  memref.dealloc %box : memref<1xmemref<8xf32>>
  %n1 = arith.constant 1 : index
  %n4 = arith.constant 4 : index
  %r:4 = call @realloc(%n1, %n4) : (index, index) -> (f32, f32, f32, f32)
  vector.print %r#1 : f32
  vector.print %r#0 : f32
  vector.print %r#2 : f32
  vector.print %r#3 : f32
  %rs:2 = call @realloc_static() : () -> (f32, f32)
  vector.print %rs#0 : f32
  vector.print %rs#1 : f32

  // An n-D vector element (80 bytes) live beside a buffer planned right after it.
  %mat = arith.constant dense<[[1.0, 2.0, 3.0], [1.0, 2.0, 3.0], [1.0, 2.0, 3.0], [1.0, 2.0, 3.0], [1.0, 2.0, 3.0]]> : vector<5x3xf32>
  %vs = memref.alloc() : memref<1xvector<5x3xf32>>
  %fs = memref.alloc() : memref<16xf32>
  memref.store %mat, %vs[%c0] : memref<1xvector<5x3xf32>>
  %seven = arith.constant 7.0 : f32
  linalg.fill ins(%seven : f32) outs(%fs : memref<16xf32>)
  %back = memref.load %vs[%c0] : memref<1xvector<5x3xf32>>
  %e00 = vector.extract %back[0, 0] : f32 from vector<5x3xf32>
  %e42 = vector.extract %back[4, 2] : f32 from vector<5x3xf32>
  vector.print %e00 : f32
  vector.print %e42 : f32
  %f0 = memref.load %fs[%c0] : memref<16xf32>
  vector.print %f0 : f32

  // A vector<4xf32> needs 16-byte alignment, whatever alignment= says.
  %small = memref.alloc() : memref<3xi8>
  %vec = memref.alloc() : memref<1xvector<4xf32>>
  %i2 = arith.constant 2 : i8
  linalg.fill ins(%i2 : i8) outs(%small : memref<3xi8>)
  %q = arith.constant dense<[4.0, 5.0, 6.0, 7.0]> : vector<4xf32>
  memref.store %q, %vec[%c0] : memref<1xvector<4xf32>>
  %qb = memref.load %vec[%c0] : memref<1xvector<4xf32>>
  %q0 = vector.extract %qb[0] : f32 from vector<4xf32>
  %q3 = vector.extract %qb[3] : f32 from vector<4xf32>
  vector.print %q0 : f32
  vector.print %q3 : f32
  %s0 = memref.load %small[%c0] : memref<3xi8>
  vector.print %s0 : i8
  memref.dealloc %vs : memref<1xvector<5x3xf32>>
  memref.dealloc %fs : memref<16xf32>
  memref.dealloc %small : memref<3xi8>
  memref.dealloc %vec : memref<1xvector<4xf32>>
  return
}
