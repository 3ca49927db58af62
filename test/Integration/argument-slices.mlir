// Argument slices: a copy out of a view of a function argument into a local buffer becomes a
// view of the argument where nothing writes the argument while the buffer is live, and stays
// where the argument is written in between (@written: the copy must keep the old values).
// The planned program prints what the unplanned one prints under every arena kind.
//
// RUN: mlir-opt %s %lower_to_llvm \
// RUN:   | mlir-runner -e main -entry-point-result=void -shared-libs=%mlir_runner_libs > %t.base
// RUN: FileCheck %s < %t.base
// RUN: mplan-opt %s --mplan-plan-pipeline --mplan-verify-plan -o %t.planned.mlir
// RUN: FileCheck %s --check-prefix=IR < %t.planned.mlir
// RUN: mplan-opt %t.planned.mlir --convert-mplan-to-memref="arena=heap" --mplan-to-llvm \
// RUN:   | mlir-runner -e main -entry-point-result=void -shared-libs=%mlir_runner_libs > %t.heap
// RUN: diff %t.base %t.heap
// RUN: mplan-opt %t.planned.mlir --convert-mplan-to-memref="arena=global" --mplan-to-llvm \
// RUN:   | mlir-runner -e main -entry-point-result=void -shared-libs=%mlir_runner_libs > %t.global
// RUN: diff %t.base %t.global
// RUN: mplan-opt %t.planned.mlir --convert-mplan-to-memref="arena=argument" --mplan-to-llvm \
// RUN:   | mlir-runner -e main -entry-point-result=void -shared-libs=%mlir_runner_libs > %t.argument
// RUN: diff %t.base %t.argument

// CHECK:      9
// CHECK-NEXT: 24
// CHECK-NEXT: 9
// CHECK-NEXT: 24
// IR-LABEL:   func.func @slice
// IR-NOT:     memref.copy
// IR-LABEL:   func.func @written
// IR:         memref.copy

// out[i] = |x[8 + i]| + 1
func.func @slice(%arg0: memref<64xf32>, %out: memref<16xf32>) {
  %sv = memref.subview %arg0[8] [16] [1] : memref<64xf32> to memref<16xf32, strided<[1], offset: 8>>
  %x = memref.alloc() : memref<16xf32>
  memref.copy %sv, %x : memref<16xf32, strided<[1], offset: 8>> to memref<16xf32>
  %r = memref.alloc() : memref<16xf32>
  linalg.map { math.absf } ins(%x : memref<16xf32>) outs(%r : memref<16xf32>)
  linalg.map ins(%r : memref<16xf32>) outs(%out : memref<16xf32>)
    (%v: f32, %init: f32) {
      %one = arith.constant 1.0 : f32
      %s = arith.addf %v, %one : f32
      linalg.yield %s : f32
    }
  memref.dealloc %x : memref<16xf32>
  memref.dealloc %r : memref<16xf32>
  return
}

// The same, but the argument is zeroed while the copy is still needed.
func.func @written(%arg0: memref<64xf32>, %out: memref<16xf32>) {
  %zero = arith.constant 0.0 : f32
  %sv = memref.subview %arg0[8] [16] [1] : memref<64xf32> to memref<16xf32, strided<[1], offset: 8>>
  %x = memref.alloc() : memref<16xf32>
  memref.copy %sv, %x : memref<16xf32, strided<[1], offset: 8>> to memref<16xf32>
  linalg.fill ins(%zero : f32) outs(%arg0 : memref<64xf32>)
  %r = memref.alloc() : memref<16xf32>
  linalg.map { math.absf } ins(%x : memref<16xf32>) outs(%r : memref<16xf32>)
  linalg.map ins(%r : memref<16xf32>) outs(%out : memref<16xf32>)
    (%v: f32, %init: f32) {
      %one = arith.constant 1.0 : f32
      %s = arith.addf %v, %one : f32
      linalg.yield %s : f32
    }
  memref.dealloc %x : memref<16xf32>
  memref.dealloc %r : memref<16xf32>
  return
}

func.func @fill(%a: memref<64xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c64 = arith.constant 64 : index
  scf.for %i = %c0 to %c64 step %c1 {
    %ii = arith.index_cast %i : index to i64
    %f = arith.sitofp %ii : i64 to f32
    %n = arith.negf %f : f32
    memref.store %n, %a[%i] : memref<64xf32>
  }
  return
}

func.func @main() {
  %c0 = arith.constant 0 : index
  %c15 = arith.constant 15 : index
  %a = memref.alloc() : memref<64xf32>
  %o = memref.alloc() : memref<16xf32>
  call @fill(%a) : (memref<64xf32>) -> ()
  call @slice(%a, %o) : (memref<64xf32>, memref<16xf32>) -> ()
  %s0 = memref.load %o[%c0] : memref<16xf32>
  %s15 = memref.load %o[%c15] : memref<16xf32>
  vector.print %s0 : f32
  vector.print %s15 : f32
  call @written(%a, %o) : (memref<64xf32>, memref<16xf32>) -> ()
  %w0 = memref.load %o[%c0] : memref<16xf32>
  %w15 = memref.load %o[%c15] : memref<16xf32>
  vector.print %w0 : f32
  vector.print %w15 : f32
  memref.dealloc %a : memref<64xf32>
  memref.dealloc %o : memref<16xf32>
  return
}
