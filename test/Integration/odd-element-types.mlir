// Element types whose memory footprint is not their bit width / 8: in the lowering to LLVM an i24
// takes 4 bytes and a vector<3xf32> 16. Planned with those sizes (and with a buffer aligned to 128,
// beyond the default 64-byte slab alignment), three simultaneously live buffers stay disjoint and
// the program prints what the unplanned one prints. (Planned with 12-byte vectors, the i24
// buffer overlapped the vector buffer's last element: 15.999 instead of 8.)
//
// RUN: mlir-opt %s %lower_to_llvm \
// RUN:   | mlir-runner -e main -entry-point-result=void -shared-libs=%mlir_runner_libs > %t.base
// RUN: FileCheck %s < %t.base
// RUN: mplan-opt %s --mplan-plan-pipeline --mplan-verify-plan --convert-mplan-to-memref="arena=heap" --mplan-to-llvm \
// RUN:   | mlir-runner -e main -entry-point-result=void -shared-libs=%mlir_runner_libs > %t.plan
// RUN: diff %t.base %t.plan

// CHECK:      0
// CHECK-NEXT: 2
// CHECK-NEXT: 4
// CHECK-NEXT: 6
// CHECK-NEXT: 8
// CHECK-NEXT: -1000
// CHECK:      -994
// CHECK-NEXT: 1.5

func.func @main() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c5 = arith.constant 5 : index
  %c7 = arith.constant 7 : index
  %vecs = memref.alloc() : memref<5xvector<3xf32>>
  %ints = memref.alloc() : memref<7xi24>
  %wide = memref.alloc() {alignment = 128 : i64} : memref<4xf32>
  scf.for %i = %c0 to %c5 step %c1 {
    %ii = arith.index_cast %i : index to i32
    %f = arith.sitofp %ii : i32 to f32
    %v = vector.broadcast %f : f32 to vector<3xf32>
    memref.store %v, %vecs[%i] : memref<5xvector<3xf32>>
  }
  scf.for %i = %c0 to %c7 step %c1 {
    %ii = arith.index_cast %i : index to i24
    %big = arith.constant -1000 : i24
    %x = arith.addi %ii, %big : i24
    memref.store %x, %ints[%i] : memref<7xi24>
  }
  %one = arith.constant 1.5 : f32
  linalg.fill ins(%one : f32) outs(%wide : memref<4xf32>)
  scf.for %i = %c0 to %c5 step %c1 {
    %v = memref.load %vecs[%i] : memref<5xvector<3xf32>>
    %e0 = vector.extract %v[0] : f32 from vector<3xf32>
    %e2 = vector.extract %v[2] : f32 from vector<3xf32>
    %s = arith.addf %e0, %e2 : f32
    vector.print %s : f32
  }
  scf.for %i = %c0 to %c7 step %c1 {
    %x = memref.load %ints[%i] : memref<7xi24>
    %y = arith.extsi %x : i24 to i32
    vector.print %y : i32
  }
  %w = memref.load %wide[%c1] : memref<4xf32>
  vector.print %w : f32
  memref.dealloc %vecs : memref<5xvector<3xf32>>
  memref.dealloc %ints : memref<7xi24>
  memref.dealloc %wide : memref<4xf32>
  return
}
