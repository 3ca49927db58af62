// End to end on a BERT encoder in torch-mlir's linalg style (models/ext_bert_torch_small.mlir,
// models/gen_external.py: embedding gather by tensor.extract in a linalg.generic, nn.Linear as
// transpose + broadcast + linalg.batch_matmul, heads through expand/collapse_shape and permuting
// generics, softmax and layernorm as generic reductions with keepdim output maps). The plan
// verifies, the arena equals the max-live lower bound, only the returned buffer is unplanned,
// and the heap and stack arenas print what the unplanned program prints.
//
// RUN: mlir-opt %models/ext_bert_torch_small.mlir %bufferize_fb %baseline_dealloc \
// RUN:   | mlir-opt %lower_to_llvm \
// RUN:   | mlir-runner -e main -entry-point-result=void -shared-libs=%mlir_runner_libs \
// RUN:   | %normalize_addr > %t.base
// RUN: FileCheck %s < %t.base
// RUN: mlir-opt %models/ext_bert_torch_small.mlir %bufferize_fb -o %t.buf.mlir
// RUN: mplan-opt %t.buf.mlir --mplan-plan-pipeline="report=%t.json" --mplan-verify-plan -o %t.plan.mlir
// RUN: FileCheck %s --check-prefix=REPORT < %t.json
// RUN: mplan-opt %t.plan.mlir --convert-mplan-to-memref="arena=heap" --mplan-to-llvm \
// RUN:   | mlir-runner -e main -entry-point-result=void -shared-libs=%mlir_runner_libs \
// RUN:   | %normalize_addr > %t.heap
// RUN: diff %t.base %t.heap
// RUN: mplan-opt %t.plan.mlir --convert-mplan-to-memref="arena=stack" --mplan-to-llvm \
// RUN:   | mlir-runner -e main -entry-point-result=void -shared-libs=%mlir_runner_libs \
// RUN:   | %normalize_addr > %t.stack
// RUN: diff %t.base %t.stack

// The frontend's own cleanup before bufferization (CSE shares one zero fill between the
// accumulators, which One-Shot Bufferize then copies into each; mplan turns those copies
// back into fills): same output.
// RUN: mlir-opt %models/ext_bert_torch_small.mlir --canonicalize --linalg-fuse-elementwise-ops --cse %bufferize_fb \
// RUN:   | mplan-opt --mplan-plan-pipeline --mplan-verify-plan --convert-mplan-to-memref="arena=heap" --mplan-to-llvm \
// RUN:   | mlir-runner -e main -entry-point-result=void -shared-libs=%mlir_runner_libs \
// RUN:   | %normalize_addr > %t.fused
// RUN: diff %t.base %t.fused

// CHECK: model ext_bert_torch_small output 1x8x32
// CHECK-NEXT: sum 2.212
// CHECK-NEXT: sumsq 258.1

// REPORT:      "name": "model",
// REPORT-NEXT: "strategy":
// REPORT-NEXT: "arena_bytes": [[ARENA:[0-9]+]],
// REPORT-NEXT: "lower_bound_bytes": [[ARENA]],
// REPORT:      "unmanaged": [
// REPORT-NEXT:   {
// REPORT-NEXT:     "loc":
// REPORT-NEXT:     "reason": "escapes via return"
// REPORT-NEXT:   }
// REPORT-NEXT: ]
