// RUN: mplan-opt %s --split-input-file --mplan-to-llvm | FileCheck %s
// RUN: mplan-opt %s --mplan-to-llvm | mlir-translate --mlir-to-llvmir | FileCheck %s --check-prefix=IR

// IR: define void @transpose(
// IR: define [5 x <3 x float>] @broadcast(

// convert-vector-to-llvm builds the results of n-D vector ops (here vector.transpose of a
// vector<5x3xf32>) from ub.poison and leaves that op to the UB dialect's own lowering:
// mplan-to-llvm runs convert-ub-to-llvm after it, so nothing but the LLVM dialect is left.

// CHECK-LABEL: llvm.func @transpose(
// CHECK-NOT: ub.poison
// CHECK-NOT: unrealized_conversion_cast
// CHECK: llvm.mlir.poison : !llvm.array<3 x vector<5xf32>>
// CHECK-NOT: ub.poison
// CHECK-NOT: vector.
// CHECK: llvm.return
func.func @transpose(%x: vector<15xf32>, %out: memref<5x3xf32>) {
  %c0 = arith.constant 0 : index
  %v = vector.shape_cast %x : vector<15xf32> to vector<5x3xf32>
  %t = vector.transpose %v, [1, 0] : vector<5x3xf32> to vector<3x5xf32>
  %e = vector.extract %t[1] : vector<5xf32> from vector<3x5xf32>
  %f = vector.extract_strided_slice %e {offsets = [0], sizes = [3], strides = [1]} : vector<5xf32> to vector<3xf32>
  vector.store %f, %out[%c0, %c0] : memref<5x3xf32>, vector<3xf32>
  return
}

// -----

// A poison the input spells out, and an n-D broadcast.
// CHECK-LABEL: llvm.func @broadcast(
// CHECK-NOT: ub.poison
// CHECK-NOT: unrealized_conversion_cast
// CHECK: llvm.mlir.poison : !llvm.array<5 x vector<3xf32>>
// CHECK-NOT: ub.poison
// CHECK: llvm.return
func.func @broadcast(%x: f32, %y: vector<3xf32>, %out: memref<5x3xf32>) -> vector<5x3xf32> {
  %c0 = arith.constant 0 : index
  %p = ub.poison : vector<5x3xf32>
  %i = vector.insert %y, %p[2] : vector<3xf32> into vector<5x3xf32>
  %b = vector.broadcast %x : f32 to vector<5x3xf32>
  %s = arith.addf %i, %b : vector<5x3xf32>
  return %s : vector<5x3xf32>
}
