// X is a copy of Y[4..8) and a later call given Y[0..4) writes Y[4] through a reinterpret_cast:
// X must not become a view of Y (a call's access is the whole root, not the view's extent).
//
// RUN: mlir-opt %s %lower_to_llvm \
// RUN:   | mlir-runner -O3 -e main -entry-point-result=void -shared-libs=%mlir_runner_libs > %t.base
// RUN: mplan-opt %s --mplan-plan-pipeline --mplan-verify-plan -o %t.planned.mlir
// RUN: mplan-opt %t.planned.mlir --convert-mplan-to-memref="arena=heap" --mplan-to-llvm \
// RUN:   | mlir-runner -O3 -e main -entry-point-result=void -shared-libs=%mlir_runner_libs > %t.heap
// RUN: diff %t.base %t.heap
// RUN: mplan-opt %t.planned.mlir --convert-mplan-to-memref="arena=global" --mplan-to-llvm \
// RUN:   | mlir-runner -O3 -e main -entry-point-result=void -shared-libs=%mlir_runner_libs > %t.global
// RUN: diff %t.base %t.global
// RUN: mplan-opt %t.planned.mlir --convert-mplan-to-memref="arena=argument" --mplan-to-llvm \
// RUN:   | mlir-runner -O3 -e main -entry-point-result=void -shared-libs=%mlir_runner_libs > %t.argument
// RUN: diff %t.base %t.argument

func.func @g(%m: memref<4xf32, strided<[1]>>) {
  %c0 = arith.constant 0 : index
  %nine = arith.constant 9.0 : f32
  %r = memref.reinterpret_cast %m to offset: [4], sizes: [4], strides: [1] : memref<4xf32, strided<[1]>> to memref<4xf32, strided<[1], offset: 4>>
  memref.store %nine, %r[%c0] : memref<4xf32, strided<[1], offset: 4>>
  return
}
func.func @f(%in: memref<8xf32>, %out: memref<4xf32>) {
  %c0 = arith.constant 0 : index
  %y = memref.alloc() : memref<8xf32>
  memref.copy %in, %y : memref<8xf32> to memref<8xf32>
  %hi = memref.subview %y[4] [4] [1] : memref<8xf32> to memref<4xf32, strided<[1], offset: 4>>
  %x = memref.alloc() : memref<4xf32>
  memref.copy %hi, %x : memref<4xf32, strided<[1], offset: 4>> to memref<4xf32>
  %lo = memref.subview %y[0] [4] [1] : memref<8xf32> to memref<4xf32, strided<[1]>>
  func.call @g(%lo) : (memref<4xf32, strided<[1]>>) -> ()
  memref.copy %x, %out : memref<4xf32> to memref<4xf32>
  return
}
func.func @main() {
  %c0 = arith.constant 0 : index
  %in = memref.alloc() : memref<8xf32>
  %out = memref.alloc() : memref<4xf32>
  %five = arith.constant 5.0 : f32
  linalg.fill ins(%five : f32) outs(%in : memref<8xf32>)
  call @f(%in, %out) : (memref<8xf32>, memref<4xf32>) -> ()
  %v = memref.load %out[%c0] : memref<4xf32>
  vector.print %v : f32
  return
}
