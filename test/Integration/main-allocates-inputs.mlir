// A @main that computes a model's inputs into its own buffers and calls it: the model reads
// its weight argument and updates its cache argument in place (tensor.insert_slice), never
// keeping either, so mplan-mark-calls marks the call and @main's buffers are planned in its
// arena (the call is their last use) instead of "passed to a call to model". The planned
// program prints what the unplanned one prints.
//
// RUN: mlir-opt %s %bufferize_fb %baseline_dealloc \
// RUN:   | mlir-opt %lower_to_llvm \
// RUN:   | mlir-runner -e main -entry-point-result=void -shared-libs=%mlir_runner_libs \
// RUN:   | %normalize_addr > %t.base
// RUN: FileCheck %s < %t.base
// RUN: mlir-opt %s %bufferize_fb \
// RUN:   | mplan-opt --mplan-plan-pipeline="report=%t.json" --mplan-verify-plan \
// RUN:       --convert-mplan-to-memref="arena=heap" --mplan-to-llvm \
// RUN:   | mlir-runner -e main -entry-point-result=void -shared-libs=%mlir_runner_libs \
// RUN:   | %normalize_addr > %t.plan
// RUN: diff %t.base %t.plan
// RUN: FileCheck %s --check-prefix=REPORT < %t.json

// CHECK: sizes = [4, 8]
// CHECK-NEXT: {{\[\[}}0.5, 1.5, 2.5, 4, 4.5, 5.5, 6.5, 7.5],
// CHECK-NEXT: [1.5, 2.5, 3.5, 5, 5.5, 6.5, 7.5, 8.5],

// REPORT:      "name": "main",
// REPORT:      "buffers": [
// REPORT-COUNT-3: "id":
// REPORT-NOT:  "id":
// REPORT:      "unmanaged": []

#id = affine_map<(d0, d1) -> (d0, d1)>
func.func @model(%w: tensor<4x8xf32>, %cache: tensor<4x8xf32>, %x: tensor<4x1xf32>) -> tensor<4x8xf32> {
  %c = tensor.insert_slice %x into %cache[0, 3] [4, 1] [1, 1] : tensor<4x1xf32> into tensor<4x8xf32>
  %e = tensor.empty() : tensor<4x8xf32>
  %r = linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%w, %c : tensor<4x8xf32>, tensor<4x8xf32>) outs(%e : tensor<4x8xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %s = arith.addf %a, %b : f32
    linalg.yield %s : f32
  } -> tensor<4x8xf32>
  return %r : tensor<4x8xf32>
}

func.func private @printMemrefF32(tensor<*xf32>)

func.func @main() {
  %half = arith.constant 0.5 : f32
  %zero = arith.constant 0.0 : f32
  %e0 = tensor.empty() : tensor<4x8xf32>
  %w = linalg.generic {indexing_maps = [#id], iterator_types = ["parallel", "parallel"]} outs(%e0 : tensor<4x8xf32>) {
  ^bb0(%o: f32):
    %i = linalg.index 0 : index
    %j = linalg.index 1 : index
    %k = arith.addi %i, %j : index
    %ki = arith.index_cast %k : index to i32
    %f = arith.sitofp %ki : i32 to f32
    %v = arith.addf %f, %half : f32
    linalg.yield %v : f32
  } -> tensor<4x8xf32>
  %e1 = tensor.empty() : tensor<4x8xf32>
  %cache = linalg.fill ins(%zero : f32) outs(%e1 : tensor<4x8xf32>) -> tensor<4x8xf32>
  %e2 = tensor.empty() : tensor<4x1xf32>
  %x = linalg.fill ins(%half : f32) outs(%e2 : tensor<4x1xf32>) -> tensor<4x1xf32>
  %r = call @model(%w, %cache, %x) : (tensor<4x8xf32>, tensor<4x8xf32>, tensor<4x1xf32>) -> tensor<4x8xf32>
  %p = tensor.cast %r : tensor<4x8xf32> to tensor<*xf32>
  call @printMemrefF32(%p) : (tensor<*xf32>) -> ()
  return
}
