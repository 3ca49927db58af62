// A dimension of a collapse_shape is the product of its group's source dimensions, which
// wraps: memref<?x?x0xf32> of 4 x (2^62 - 25) (empty, so allocatable) collapses to -100, and
// 10 - dim is 110. The constraint system takes the dimension as a size (at least 0) and bounded
// the buffer by 10 "derived from the IR": planned at 10 elements, the fill of 110 wrote over its
// neighbours (heap: a corrupted malloc list and a hang; stack: a segfault). Through such a
// product no bound is taken now: the buffer is sized at run time.
//
// RUN: mlir-opt %s | mlir-opt %lower_to_llvm \
// RUN:   | mlir-runner -O3 -e main -entry-point-result=void -shared-libs=%mlir_runner_libs > %t.base
// RUN: FileCheck %s < %t.base
// RUN: mplan-opt %s --mplan-plan-pipeline --mplan-verify-plan -o %t.plan.mlir
// RUN: mplan-opt %t.plan.mlir --convert-mplan-to-memref="arena=heap" --mplan-to-llvm \
// RUN:   | mlir-runner -O3 -e main -entry-point-result=void -shared-libs=%mlir_runner_libs \
// RUN:   | diff %t.base -
// RUN: mplan-opt %t.plan.mlir --convert-mplan-to-memref="arena=stack" --mplan-to-llvm \
// RUN:   | mlir-runner -O3 -e main -entry-point-result=void -shared-libs=%mlir_runner_libs \
// RUN:   | diff %t.base -
// RUN: mplan-opt %t.plan.mlir --convert-mplan-to-memref="arena=global" --mplan-to-llvm \
// RUN:   | mlir-runner -O3 -e main -entry-point-result=void -shared-libs=%mlir_runner_libs \
// RUN:   | diff %t.base -
// RUN: mplan-opt %t.plan.mlir --convert-mplan-to-memref="arena=argument" --mplan-to-llvm \
// RUN:   | mlir-runner -O3 -e main -entry-point-result=void -shared-libs=%mlir_runner_libs \
// RUN:   | diff %t.base -
// RUN: mplan-opt %t.plan.mlir --convert-mplan-to-memref="arena=shared-global" --mplan-to-llvm \
// RUN:   | mlir-runner -O3 -e main -entry-point-result=void -shared-libs=%mlir_runner_libs \
// RUN:   | diff %t.base -

// CHECK: 110
// CHECK-NEXT: 2
// CHECK-NEXT: 64
// CHECK-NEXT: 64
func.func @f(%m: memref<?x?x0xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c10 = arith.constant 10 : index
  %one = arith.constant 1.0 : f32
  %two = arith.constant 2.0 : f32
  %x = memref.alloc() : memref<64xf32>
  linalg.fill ins(%one : f32) outs(%x : memref<64xf32>)
  %c = memref.collapse_shape %m [[0, 1], [2]] : memref<?x?x0xf32> into memref<?x0xf32>
  %d = memref.dim %c, %c0 : memref<?x0xf32>
  %sz = arith.subi %c10, %d : index
  vector.print %sz : index
  %b = memref.alloc(%sz) : memref<?xf32>
  linalg.fill ins(%two : f32) outs(%b : memref<?xf32>)
  %y = memref.alloc() : memref<64xf32>
  linalg.fill ins(%one : f32) outs(%y : memref<64xf32>)
  %s0 = memref.load %b[%c1] : memref<?xf32>
  vector.print %s0 : f32
  %v = vector.transfer_read %x[%c0], %one : memref<64xf32>, vector<64xf32>
  %r = vector.reduction <add>, %v : vector<64xf32> into f32
  vector.print %r : f32
  %v2 = vector.transfer_read %y[%c0], %one : memref<64xf32>, vector<64xf32>
  %r2 = vector.reduction <add>, %v2 : vector<64xf32> into f32
  vector.print %r2 : f32
  memref.dealloc %b : memref<?xf32>
  memref.dealloc %x : memref<64xf32>
  memref.dealloc %y : memref<64xf32>
  return
}
func.func @main() {
  %c4 = arith.constant 4 : index
  %big = arith.constant 4611686018427387879 : index
  %m = memref.alloc(%c4, %big) : memref<?x?x0xf32>
  call @f(%m) : (memref<?x?x0xf32>) -> ()
  return
}
