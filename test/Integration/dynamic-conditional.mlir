// A run-time sized buffer allocated only under a branch: its sizes were recomputed where the
// function starts, also on the calls that skip the branch, where `%n - 100` wraps (%n = 0):
// the arena's size came out negative, its allocation failed and the static buffer beside it
// was used through a null arena (a segfault under every arena kind). Such a buffer is left
// unplanned now (plan-dynamic.mlir @conditional).
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

// CHECK: 5
// CHECK-NEXT: 64
// CHECK-NEXT: 64
func.func @f(%n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 100 : index
  %c16 = arith.constant 16 : index
  %one = arith.constant 1.0 : f32
  %two = arith.constant 2.0 : f32
  %x = memref.alloc() : memref<64xf32>
  linalg.fill ins(%one : f32) outs(%x : memref<64xf32>)
  %pos = arith.cmpi sge, %n, %c1 : index
  scf.if %pos {
    %sz = arith.subi %n, %c1 : index
    %b = memref.alloc(%sz) : memref<?xf32>
    linalg.fill ins(%two : f32) outs(%b : memref<?xf32>)
    %d = memref.dim %b, %c0 : memref<?xf32>
    vector.print %d : index
    memref.dealloc %b : memref<?xf32>
  }
  %v = vector.transfer_read %x[%c0], %one : memref<64xf32>, vector<64xf32>
  %r = vector.reduction <add>, %v : vector<64xf32> into f32
  vector.print %r : f32
  memref.dealloc %x : memref<64xf32>
  return
}
func.func @main() {
  %c0 = arith.constant 0 : index
  %c5 = arith.constant 105 : index
  call @f(%c5) : (index) -> ()
  call @f(%c0) : (index) -> ()
  return
}
