// RUN: mplan-opt %s --split-input-file \
// RUN:   --pass-pipeline="builtin.module(func.func(mplan-keep-outer-loops))" \
// RUN:   -mlir-print-local-scope | FileCheck %s
// RUN: mplan-opt %s --split-input-file --mplan-to-llvm -mlir-print-local-scope \
// RUN:   | FileCheck %s --check-prefix=LLVM
// RUN: mplan-opt %s --split-input-file \
// RUN:   --mplan-to-llvm="unroll-outer-loops=true" \
// RUN:   | FileCheck %s --check-prefix=ON

// In a function with an arena, a loop that contains a loop gets
// llvm.loop.unroll.disable; the innermost loop is left to LLVM.

// CHECK-LABEL: func.func @planned
// CHECK: scf.for
// CHECK: scf.for
// CHECK-NOT: loop_annotation
// CHECK: }
// CHECK-NEXT: } {loop_annotation = #llvm.loop_annotation<unroll = <disable = true>>}

// The outer loop's latch (the branch back to its header, ^bb1):
// LLVM-LABEL: llvm.func @planned
// LLVM-NOT: loop_annotation
// LLVM: llvm.br ^bb1({{.*}}) {loop_annotation = #llvm.loop_annotation<unroll = <disable = true>>}
// LLVM-NOT: loop_annotation
// LLVM-LABEL: llvm.func @unplanned
// LLVM-NOT: loop_annotation
// LLVM: // -----

// ON-NOT: disable = true
func.func @planned(%out: memref<16x16xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c16 = arith.constant 16 : index
  %arena = memref.alloc() {alignment = 64 : i64, mplan.arena} : memref<1024xi8>
  %a = memref.view %arena[%c0][] : memref<1024xi8> to memref<16x16xf32>
  scf.for %i = %c0 to %c16 step %c1 {
    scf.for %j = %c0 to %c16 step %c1 {
      %x = memref.load %out[%i, %j] : memref<16x16xf32>
      memref.store %x, %a[%i, %j] : memref<16x16xf32>
    }
  }
  memref.dealloc %arena : memref<1024xi8>
  return
}

// A function without an arena keeps its loops as they are.

// CHECK-LABEL: func.func @unplanned
// CHECK-NOT: loop_annotation
func.func @unplanned(%in: memref<16x16xf32>, %out: memref<16x16xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c16 = arith.constant 16 : index
  scf.for %i = %c0 to %c16 step %c1 {
    scf.for %j = %c0 to %c16 step %c1 {
      %x = memref.load %in[%i, %j] : memref<16x16xf32>
      memref.store %x, %out[%i, %j] : memref<16x16xf32>
    }
  }
  return
}

// -----

// The arena argument of arena=argument makes a function planned too, and a
// loop annotation already there is kept.

// CHECK-LABEL: func.func @argument
// CHECK: scf.for
// CHECK: } {loop_annotation = #llvm.loop_annotation<unroll = <disable = true>>}
// CHECK: } {loop_annotation = #llvm.loop_annotation<unroll = <count = 2 : i32>>}
func.func @argument(%arena: memref<1024xi8> {mplan.arena}, %out: memref<16x16xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c16 = arith.constant 16 : index
  %a = memref.view %arena[%c0][] : memref<1024xi8> to memref<16x16xf32>
  scf.for %i = %c0 to %c16 step %c1 {
    scf.for %j = %c0 to %c16 step %c1 {
      %x = memref.load %out[%i, %j] : memref<16x16xf32>
      memref.store %x, %a[%i, %j] : memref<16x16xf32>
    }
  }
  scf.for %i = %c0 to %c16 step %c1 {
    scf.for %j = %c0 to %c16 step %c1 {
      %x = memref.load %out[%i, %j] : memref<16x16xf32>
      memref.store %x, %a[%i, %j] : memref<16x16xf32>
    }
  } {loop_annotation = #llvm.loop_annotation<unroll = #llvm.loop_unroll<count = 2 : i32>>}
  return
}
