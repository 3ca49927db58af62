// Sequencing end to end: Inception-v3-style blocks emitted breadth first
// (Inputs/sequence-inception.mlir, from bench/sequence/gen.py), planned with
// sequence=best under every arena kind, print exactly what upstream's
// unplanned program prints; the report shows the bound sequencing bought.
//
// RUN: mlir-opt %S/Inputs/sequence-inception.mlir %bufferize_fb %baseline_dealloc \
// RUN:   | mlir-opt %lower_to_llvm \
// RUN:   | mlir-runner -e main -entry-point-result=void -shared-libs=%mlir_runner_libs \
// RUN:   | %normalize_addr > %t.base
// RUN: FileCheck %s --check-prefix=OUT < %t.base
// RUN: mlir-opt %S/Inputs/sequence-inception.mlir %bufferize_fb > %t.buf.mlir
// RUN: mplan-opt %t.buf.mlir --mplan-plan-pipeline="sequence=best report=%t.json" \
// RUN:   --mplan-verify-plan > %t.plan.mlir
// RUN: FileCheck %s --check-prefix=JSON < %t.json
// RUN: mplan-opt %t.plan.mlir --convert-mplan-to-memref="arena=heap" --mplan-to-llvm \
// RUN:   | mlir-runner -e main -entry-point-result=void -shared-libs=%mlir_runner_libs \
// RUN:   | %normalize_addr | diff %t.base -
// RUN: mplan-opt %t.plan.mlir --convert-mplan-to-memref="arena=stack" --mplan-to-llvm \
// RUN:   | mlir-runner -e main -entry-point-result=void -shared-libs=%mlir_runner_libs \
// RUN:   | %normalize_addr | diff %t.base -
// RUN: mplan-opt %t.plan.mlir --convert-mplan-to-memref="arena=global" --mplan-to-llvm \
// RUN:   | mlir-runner -e main -entry-point-result=void -shared-libs=%mlir_runner_libs \
// RUN:   | %normalize_addr | diff %t.base -
// RUN: mplan-opt %t.plan.mlir --convert-mplan-to-memref="arena=argument functions=model" \
// RUN:   --mplan-to-llvm \
// RUN:   | mlir-runner -e main -entry-point-result=void -shared-libs=%mlir_runner_libs \
// RUN:   | %normalize_addr | diff %t.base -

// OUT: sizes = [16, 32]
// OUT-NEXT: {{\[\[}}0.762267,

// JSON: "name": "model"
// JSON: "lower_bound_bytes": 4544
// JSON: "lower_bound_program_order_bytes": 6528
