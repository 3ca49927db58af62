// A reinterpret_cast whose dynamic size the constraint system bounds but index arithmetic
// wraps past: 10 - 2 * n is at most 10 to the constraint system, 12 at run time with
// n = 2^63 - 1 (an empty memref<?x0xf32>), so r[10] is w[0]. The points-to analysis gave the
// cast bytes [0, 40) of %x and its store a scope disjoint from w's: LLVM forwarded the stale
// 3.0 at -O3 under every arena kind. Only the casts convert-mplan-to-memref makes of a buffer
// planned at its bound (mplan.bound) get bounded bytes now.
//
// RUN: mlir-opt %s --convert-bufferization-to-memref | mlir-opt %lower_to_llvm \
// RUN:   | mlir-runner -O3 -e main -entry-point-result=void -shared-libs=%mlir_runner_libs > %t.base
// RUN: FileCheck %s < %t.base
// RUN: mplan-opt %s --mplan-plan-pipeline --mplan-verify-plan -o %t.plan.mlir
// RUN: mplan-opt %t.plan.mlir --convert-mplan-to-memref="arena=heap" --mplan-to-llvm \
// RUN:   | mlir-runner -O3 -e main -entry-point-result=void -shared-libs=%mlir_runner_libs \
// RUN:   | diff %t.base -
// RUN: mplan-opt %t.plan.mlir --convert-mplan-to-memref="arena=global" --mplan-to-llvm \
// RUN:   | mlir-runner -O3 -e main -entry-point-result=void -shared-libs=%mlir_runner_libs \
// RUN:   | diff %t.base -
// RUN: mplan-opt %t.plan.mlir --convert-mplan-to-memref="arena=argument" --mplan-to-llvm \
// RUN:   | mlir-runner -O3 -e main -entry-point-result=void -shared-libs=%mlir_runner_libs \
// RUN:   | diff %t.base -

// CHECK: 12
// CHECK-NEXT: 2
func.func @f(%m: memref<?x0xf32>, %k: index) {
  %c0 = arith.constant 0 : index
  %c2 = arith.constant 2 : index
  %c10 = arith.constant 10 : index
  %one = arith.constant 1.0 : f32
  %two = arith.constant 2.0 : f32
  %three = arith.constant 3.0 : f32
  %x = memref.alloc() : memref<64xf32>
  linalg.fill ins(%one : f32) outs(%x : memref<64xf32>)
  %n = memref.dim %m, %c0 : memref<?x0xf32>
  %n2 = arith.muli %n, %c2 : index
  %sz = arith.subi %c10, %n2 : index
  vector.print %sz : index
  %r = memref.reinterpret_cast %x to offset: [0], sizes: [%sz], strides: [1] : memref<64xf32> to memref<?xf32>
  %w = memref.subview %x[10] [2] [1] : memref<64xf32> to memref<2xf32, strided<[1], offset: 10>>
  memref.store %three, %w[%c0] : memref<2xf32, strided<[1], offset: 10>>
  memref.store %two, %r[%k] : memref<?xf32>
  %v = memref.load %w[%c0] : memref<2xf32, strided<[1], offset: 10>>
  vector.print %v : f32
  memref.dealloc %x : memref<64xf32>
  return
}
func.func @main() {
  %big = arith.constant 9223372036854775807 : index
  %c10 = arith.constant 10 : index
  %m = memref.alloc(%big) : memref<?x0xf32>
  call @f(%m, %c10) : (memref<?x0xf32>, index) -> ()
  memref.dealloc %m : memref<?x0xf32>
  return
}
