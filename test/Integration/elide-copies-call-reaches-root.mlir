// A callee given a view of Y reaches all of Y's bytes (a reinterpret_cast from the view's pointer):
// copy elision must count a call's access as the whole root, not the view's extent, before moving
// the copy's producer into Y.
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
func.func @f(%in: memref<4xf32>, %out: memref<8xf32>) {
  %one = arith.constant 1.0 : f32
  %y = memref.alloc() : memref<8xf32>
  linalg.fill ins(%one : f32) outs(%y : memref<8xf32>)
  %x = memref.alloc() : memref<4xf32>
  memref.copy %in, %x : memref<4xf32> to memref<4xf32>
  %lo = memref.subview %y[0] [4] [1] : memref<8xf32> to memref<4xf32, strided<[1]>>
  func.call @g(%lo) : (memref<4xf32, strided<[1]>>) -> ()
  %hi = memref.subview %y[4] [4] [1] : memref<8xf32> to memref<4xf32, strided<[1], offset: 4>>
  memref.copy %x, %hi : memref<4xf32> to memref<4xf32, strided<[1], offset: 4>>
  memref.copy %y, %out : memref<8xf32> to memref<8xf32>
  return
}
func.func @main() {
  %c0 = arith.constant 0 : index
  %c4 = arith.constant 4 : index
  %in = memref.alloc() : memref<4xf32>
  %out = memref.alloc() : memref<8xf32>
  %five = arith.constant 5.0 : f32
  linalg.fill ins(%five : f32) outs(%in : memref<4xf32>)
  call @f(%in, %out) : (memref<4xf32>, memref<8xf32>) -> ()
  %v = memref.load %out[%c4] : memref<8xf32>
  vector.print %v : f32
  return
}
