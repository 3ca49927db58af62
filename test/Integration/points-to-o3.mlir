// Issue 30's silent wrong programs, run planned at mlir-runner -O3 (alias scopes on) against the
// unplanned program under every arena kind:
//  * @cast_view: a reinterpret_cast of a shifted view reaches bytes of another view of the same
//    buffer (rc[5] and w[1] are the same bytes);
//  * @sel, @ifres, @forres, @cfg, @selsub, @castsel: a write through a value that may be a local
//    buffer or the argument, while a copy out of the argument is live (the copy must stay).
//
// RUN: mlir-opt %s %lower_to_llvm \
// RUN:   | mlir-runner -O3 -e main -entry-point-result=void -shared-libs=%mlir_runner_libs > %t.base
// RUN: FileCheck %s < %t.base
// RUN: mplan-opt %s --mplan-plan-pipeline --mplan-verify-plan -o %t.planned.mlir
// RUN: mplan-opt %t.planned.mlir --convert-mplan-to-memref="arena=heap" --mplan-to-llvm \
// RUN:   | mlir-runner -O3 -e main -entry-point-result=void -shared-libs=%mlir_runner_libs > %t.heap
// RUN: diff %t.base %t.heap
// RUN: mplan-opt %t.planned.mlir --convert-mplan-to-memref="arena=stack" --mplan-to-llvm \
// RUN:   | mlir-runner -O3 -e main -entry-point-result=void -shared-libs=%mlir_runner_libs > %t.stack
// RUN: diff %t.base %t.stack
// RUN: mplan-opt %t.planned.mlir --convert-mplan-to-memref="arena=global" --mplan-to-llvm \
// RUN:   | mlir-runner -O3 -e main -entry-point-result=void -shared-libs=%mlir_runner_libs > %t.global
// RUN: diff %t.base %t.global
// RUN: mplan-opt %t.planned.mlir --convert-mplan-to-memref="arena=argument" --mplan-to-llvm \
// RUN:   | mlir-runner -O3 -e main -entry-point-result=void -shared-libs=%mlir_runner_libs > %t.argument
// RUN: diff %t.base %t.argument

// CHECK: 2
// CHECK-NEXT: 5
// CHECK-NEXT: 5
// CHECK-NEXT: 5
// CHECK-NEXT: 5
// CHECK-NEXT: 5
// CHECK-NEXT: 5

func.func @cast_view() {
  %c1 = arith.constant 1 : index
  %c5 = arith.constant 5 : index
  %c16 = arith.constant 16 : index
  %c32 = arith.constant 32 : index
  %one = arith.constant 1.0 : f32
  %two = arith.constant 2.0 : f32
  %x = memref.alloc() : memref<64xi8>
  %v = memref.view %x[%c16][] : memref<64xi8> to memref<4xf32>
  %rc = memref.reinterpret_cast %v to offset: [0], sizes: [8], strides: [1] : memref<4xf32> to memref<8xf32>
  %w = memref.view %x[%c32][] : memref<64xi8> to memref<4xf32>
  memref.store %one, %w[%c1] : memref<4xf32>
  memref.store %two, %rc[%c5] : memref<8xf32>
  %r = memref.load %w[%c1] : memref<4xf32>
  vector.print %r : f32
  memref.dealloc %x : memref<64xi8>
  return
}

// The copy out of %arg0 must keep the argument's old values: %s may be %arg0.
func.func @sel(%arg0: memref<4xf32>, %c: i1) {
  %c0 = arith.constant 0 : index
  %x = memref.alloc() : memref<4xf32>
  memref.copy %arg0, %x : memref<4xf32> to memref<4xf32>
  %y = memref.alloc() : memref<4xf32>
  %s = arith.select %c, %y, %arg0 : memref<4xf32>
  %nine = arith.constant 9.0 : f32
  linalg.fill ins(%nine : f32) outs(%s : memref<4xf32>)
  %v = memref.load %x[%c0] : memref<4xf32>
  vector.print %v : f32
  memref.dealloc %x : memref<4xf32>
  memref.dealloc %y : memref<4xf32>
  return
}

func.func @ifres(%arg0: memref<4xf32>, %c: i1) {
  %c0 = arith.constant 0 : index
  %x = memref.alloc() : memref<4xf32>
  memref.copy %arg0, %x : memref<4xf32> to memref<4xf32>
  %y = memref.alloc() : memref<4xf32>
  %s = scf.if %c -> memref<4xf32> {
    scf.yield %y : memref<4xf32>
  } else {
    scf.yield %arg0 : memref<4xf32>
  }
  %nine = arith.constant 9.0 : f32
  linalg.fill ins(%nine : f32) outs(%s : memref<4xf32>)
  %v = memref.load %x[%c0] : memref<4xf32>
  vector.print %v : f32
  memref.dealloc %x : memref<4xf32>
  memref.dealloc %y : memref<4xf32>
  return
}

func.func @forres(%arg0: memref<4xf32>, %c: i1) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %x = memref.alloc() : memref<4xf32>
  memref.copy %arg0, %x : memref<4xf32> to memref<4xf32>
  %y = memref.alloc() : memref<4xf32>
  %s = scf.for %i = %c0 to %c2 step %c1 iter_args(%it = %y) -> memref<4xf32> {
    scf.yield %arg0 : memref<4xf32>
  }
  %nine = arith.constant 9.0 : f32
  linalg.fill ins(%nine : f32) outs(%s : memref<4xf32>)
  %v = memref.load %x[%c0] : memref<4xf32>
  vector.print %v : f32
  memref.dealloc %x : memref<4xf32>
  memref.dealloc %y : memref<4xf32>
  return
}

func.func @cfg(%arg0: memref<4xf32>, %c: i1) {
  %c0 = arith.constant 0 : index
  %x = memref.alloc() : memref<4xf32>
  memref.copy %arg0, %x : memref<4xf32> to memref<4xf32>
  %y = memref.alloc() : memref<4xf32>
  cf.cond_br %c, ^bb1(%y : memref<4xf32>), ^bb1(%arg0 : memref<4xf32>)
^bb1(%s: memref<4xf32>):
  %nine = arith.constant 9.0 : f32
  linalg.fill ins(%nine : f32) outs(%s : memref<4xf32>)
  %v = memref.load %x[%c0] : memref<4xf32>
  vector.print %v : f32
  memref.dealloc %x : memref<4xf32>
  memref.dealloc %y : memref<4xf32>
  return
}

func.func @selsub(%arg0: memref<8xf32>, %c: i1) {
  %c0 = arith.constant 0 : index
  %src = memref.subview %arg0[4] [4] [1] : memref<8xf32> to memref<4xf32, strided<[1], offset: 4>>
  %x = memref.alloc() : memref<4xf32>
  memref.copy %src, %x : memref<4xf32, strided<[1], offset: 4>> to memref<4xf32>
  %y = memref.alloc() : memref<8xf32>
  %s = arith.select %c, %y, %arg0 : memref<8xf32>
  %sub = memref.subview %s[4] [4] [1] : memref<8xf32> to memref<4xf32, strided<[1], offset: 4>>
  %nine = arith.constant 9.0 : f32
  linalg.fill ins(%nine : f32) outs(%sub : memref<4xf32, strided<[1], offset: 4>>)
  %v = memref.load %x[%c0] : memref<4xf32>
  vector.print %v : f32
  memref.dealloc %x : memref<4xf32>
  memref.dealloc %y : memref<8xf32>
  return
}

func.func @castsel(%arg0: memref<4xf32>, %c: i1) {
  %c0 = arith.constant 0 : index
  %x = memref.alloc() : memref<4xf32>
  memref.copy %arg0, %x : memref<4xf32> to memref<4xf32>
  %y = memref.alloc() : memref<4xf32>
  %s = arith.select %c, %y, %arg0 : memref<4xf32>
  %cast = memref.cast %s : memref<4xf32> to memref<?xf32>
  %nine = arith.constant 9.0 : f32
  linalg.fill ins(%nine : f32) outs(%cast : memref<?xf32>)
  %v = memref.load %x[%c0] : memref<4xf32>
  vector.print %v : f32
  memref.dealloc %x : memref<4xf32>
  memref.dealloc %y : memref<4xf32>
  return
}

func.func @main() {
  %false = arith.constant false
  %five = arith.constant 5.0 : f32
  call @cast_view() : () -> ()
  %a = memref.alloc() : memref<4xf32>
  linalg.fill ins(%five : f32) outs(%a : memref<4xf32>)
  call @sel(%a, %false) : (memref<4xf32>, i1) -> ()
  linalg.fill ins(%five : f32) outs(%a : memref<4xf32>)
  call @ifres(%a, %false) : (memref<4xf32>, i1) -> ()
  linalg.fill ins(%five : f32) outs(%a : memref<4xf32>)
  call @forres(%a, %false) : (memref<4xf32>, i1) -> ()
  linalg.fill ins(%five : f32) outs(%a : memref<4xf32>)
  call @cfg(%a, %false) : (memref<4xf32>, i1) -> ()
  %b = memref.alloc() : memref<8xf32>
  linalg.fill ins(%five : f32) outs(%b : memref<8xf32>)
  call @selsub(%b, %false) : (memref<8xf32>, i1) -> ()
  linalg.fill ins(%five : f32) outs(%a : memref<4xf32>)
  call @castsel(%a, %false) : (memref<4xf32>, i1) -> ()
  memref.dealloc %a : memref<4xf32>
  memref.dealloc %b : memref<8xf32>
  return
}
