// In-place reuse (inplace=true) on programs nobody tuned it for: every elementwise op whose input
// dies there writes its output over the input. The planned programs print exactly what
// upstream's unplanned programs print, under every arena kind, and the arena is smaller than
// without in-place reuse (Inputs/arena-chain.mlir's @compute: 2048 -> 1536 bytes; mlp's @model:
// 65536 -> 49152).
//
// RUN: mlir-opt %S/Inputs/arena-chain.mlir %bufferize_fb %out_params %baseline_dealloc \
// RUN:   | mlir-opt %lower_to_llvm \
// RUN:   | mlir-runner -e main -entry-point-result=void -shared-libs=%mlir_runner_libs \
// RUN:   | %normalize_addr > %t.base
// RUN: mlir-opt %S/Inputs/arena-chain.mlir %bufferize_fb %out_params > %t.buf.mlir
// RUN: mplan-opt %t.buf.mlir --mplan-plan-pipeline="inplace=true report=%t.json" --mplan-verify-plan -o %t.planned.mlir
// RUN: FileCheck %s --check-prefix=JSON < %t.json
// RUN: mplan-opt %t.planned.mlir --convert-mplan-to-memref="arena=heap" --mplan-to-llvm \
// RUN:   | mlir-runner -e main -entry-point-result=void -shared-libs=%mlir_runner_libs \
// RUN:   | %normalize_addr > %t.heap
// RUN: diff %t.base %t.heap
// RUN: mplan-opt %t.planned.mlir --convert-mplan-to-memref="arena=stack" --mplan-to-llvm \
// RUN:   | mlir-runner -e main -entry-point-result=void -shared-libs=%mlir_runner_libs \
// RUN:   | %normalize_addr > %t.stack
// RUN: diff %t.base %t.stack
// RUN: mplan-opt %t.planned.mlir --convert-mplan-to-memref="arena=global" --mplan-to-llvm \
// RUN:   | mlir-runner -e main -entry-point-result=void -shared-libs=%mlir_runner_libs \
// RUN:   | %normalize_addr > %t.global
// RUN: diff %t.base %t.global
// RUN: mplan-opt %t.planned.mlir --convert-mplan-to-memref="arena=argument" --mplan-to-llvm \
// RUN:   | mlir-runner -e main -entry-point-result=void -shared-libs=%mlir_runner_libs \
// RUN:   | %normalize_addr > %t.argument
// RUN: diff %t.base %t.argument
//
// RUN: mlir-opt %models/mlp.mlir %bufferize_fb %baseline_dealloc \
// RUN:   | mlir-opt %lower_to_llvm \
// RUN:   | mlir-runner -e main -entry-point-result=void -shared-libs=%mlir_runner_libs \
// RUN:   | %normalize_addr > %t.mlp.base
// RUN: mlir-opt %models/mlp.mlir %bufferize_fb \
// RUN:   | mplan-opt --mplan-plan-pipeline="inplace=true report=%t.mlp.json" --convert-mplan-to-memref="arena=heap" --mplan-to-llvm \
// RUN:   | mlir-runner -e main -entry-point-result=void -shared-libs=%mlir_runner_libs \
// RUN:   | %normalize_addr > %t.mlp.plan
// RUN: diff %t.mlp.base %t.mlp.plan
// RUN: FileCheck %s --check-prefix=MLP < %t.mlp.json

// JSON:      "name": "compute"
// JSON:      "arena_bytes": 1536
// JSON:      "inplace": [
// JSON-NEXT:   {
// JSON-NEXT:     "buffer":
// JSON-NEXT:     "reused_by":
// MLP:       "name": "model"
// MLP:       "arena_bytes": 49152
// MLP:       "inplace": [
