// A program planned by the installed mplan-opt, instrumented with
// --mplan-instrument and run with the installed observer runtime
// (MPLAN_RUNTIME_LIBRARY of the installed package).
//
// RUN: mplan-opt %s --one-shot-bufferize="bufferize-function-boundaries function-boundary-type-conversion=identity-layout-map" \
// RUN:   --mplan-plan-pipeline --convert-mplan-to-memref="arena=heap" --mplan-instrument --mplan-to-llvm \
// RUN:   | env MPLAN_RT_OUTPUT=stdout mlir-runner -e main -entry-point-result=void \
// RUN:       -shared-libs=%mlir_runner_libs,%mplan_runtime \
// RUN:   | FileCheck %s

// CHECK: [6.43656,  6.43656,  6.43656,  6.43656]
// CHECK-NOT: mplan-rt: error
// CHECK: mplan-rt: planned buffers {{[1-9][0-9]*}}, errors 0

func.func private @printMemrefF32(tensor<*xf32>)

func.func @chain(%x: tensor<4xf32>) -> tensor<4xf32> {
  %e0 = tensor.empty() : tensor<4xf32>
  %a = linalg.exp ins(%x : tensor<4xf32>) outs(%e0 : tensor<4xf32>) -> tensor<4xf32>
  %e1 = tensor.empty() : tensor<4xf32>
  %b = linalg.add ins(%a, %a : tensor<4xf32>, tensor<4xf32>) outs(%e1 : tensor<4xf32>) -> tensor<4xf32>
  %e2 = tensor.empty() : tensor<4xf32>
  %c = linalg.add ins(%b, %x : tensor<4xf32>, tensor<4xf32>) outs(%e2 : tensor<4xf32>) -> tensor<4xf32>
  return %c : tensor<4xf32>
}

func.func @main() {
  %one = arith.constant dense<1.0> : tensor<4xf32>
  %r = call @chain(%one) : (tensor<4xf32>) -> tensor<4xf32>
  %u = tensor.cast %r : tensor<4xf32> to tensor<*xf32>
  call @printMemrefF32(%u) : (tensor<*xf32>) -> ()
  return
}
