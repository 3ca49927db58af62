// arena=heap on a small program nobody tuned the planner to (Inputs/arena-chain.mlir): the
// planned program prints exactly what upstream's unplanned program prints, and the lowered
// @compute allocates as the arena kind promises.
//
// RUN: mlir-opt %S/Inputs/arena-chain.mlir %bufferize_fb %out_params %baseline_dealloc \
// RUN:   | mlir-opt %lower_to_llvm \
// RUN:   | mlir-runner -e main -entry-point-result=void -shared-libs=%mlir_runner_libs \
// RUN:   | %normalize_addr > %t.base
// RUN: mlir-opt %S/Inputs/arena-chain.mlir %bufferize_fb %out_params \
// RUN:   | mplan-opt --mplan-plan-pipeline --convert-mplan-to-memref="arena=heap" > %t.mlir
// RUN: FileCheck %s --check-prefix=IR < %t.mlir
// RUN: mplan-opt %t.mlir --mplan-to-llvm \
// RUN:   | mlir-runner -e main -entry-point-result=void -shared-libs=%mlir_runner_libs \
// RUN:   | %normalize_addr > %t.plan
// RUN: diff %t.base %t.plan
// With aligned-arenas the arena comes from aligned_alloc (LOWERED), with
// use-aligned-alloc every other allocation too; the program prints the same.
// RUN: mplan-opt %t.mlir --mplan-to-llvm="aligned-arenas" > %t.arenas.mlir
// RUN: FileCheck %s --check-prefix=LOWERED < %t.arenas.mlir
// RUN: mlir-runner -e main -entry-point-result=void -shared-libs=%mlir_runner_libs %t.arenas.mlir \
// RUN:   | %normalize_addr | diff %t.base -
// RUN: mplan-opt %t.mlir --mplan-to-llvm="use-aligned-alloc" > %t.aligned.mlir
// RUN: FileCheck %s --check-prefix=ALIGNED < %t.aligned.mlir
// RUN: mlir-runner -e main -entry-point-result=void -shared-libs=%mlir_runner_libs %t.aligned.mlir \
// RUN:   | %normalize_addr | diff %t.base -
// RUN: FileCheck %s --check-prefix=OUT < %t.plan

// OUT: -3.274
// OUT: sizes = [8, 16]
// OUT-NEXT: {{\[\[}}0.0889

// One aligned allocation per call, freed before the return; no other allocation.
// IR-LABEL: func.func @compute(
// IR: %[[A:.*]] = memref.alloc() {alignment = 64 : i64, mplan.arena} : memref<[[N:[0-9]+]]xi8>
// IR-NOT: memref.alloc
// IR-COUNT-2: memref.view %[[A]]
// IR-NOT: memref.alloc
// IR: memref.dealloc %[[A]] : memref<[[N]]xi8>
// IR-NEXT: return
// IR-NEXT: }
// IR-LABEL: func.func @main(

// ALIGNED-LABEL: llvm.func @compute(
// ALIGNED: llvm.call @aligned_alloc(
// ALIGNED-NOT: llvm.call @malloc(
// ALIGNED: llvm.call @free(

// LOWERED-LABEL: llvm.func @compute(
// LOWERED: llvm.call @aligned_alloc(
// LOWERED-NOT: llvm.call @malloc(
// LOWERED: llvm.call @free(
