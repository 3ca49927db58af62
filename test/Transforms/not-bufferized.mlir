// RUN: mplan-opt %s --mplan-plan-pipeline="report=%t.json" -verify-diagnostics | FileCheck %s
// RUN: FileCheck %s --check-prefix=JSON < %t.json

// Tensor-level input (the common first mistake): a warning naming the
// function, exit 0, an empty plan.
// CHECK-LABEL: func.func @tensors
// JSON: "arena_bytes": 0
// expected-warning @+1 {{function 'tensors' computes on tensors and allocates no buffers, so there is nothing to plan; run One-Shot Bufferize first}}
func.func @tensors(%x: tensor<16xf32>) -> tensor<16xf32> {
  %e = tensor.empty() : tensor<16xf32>
  %r = linalg.map { math.absf } ins(%x : tensor<16xf32>) outs(%e : tensor<16xf32>)
  return %r : tensor<16xf32>
}
