// A tensor scf.if whose branches compute their result in buffers of their own (One-Shot
// Bufferize allocates in each branch and yields the buffer): mplan plans one buffer for both
// branches, and the planned program prints what the unplanned one prints for both outcomes,
// under every arena kind.
//
// RUN: mlir-opt %s %bufferize_fb %baseline_dealloc \
// RUN:   | mlir-opt %lower_to_llvm \
// RUN:   | mlir-runner -e main -entry-point-result=void -shared-libs=%mlir_runner_libs > %t.base
// RUN: FileCheck %s < %t.base
// RUN: mlir-opt %s %bufferize_fb | mplan-opt --mplan-plan-pipeline="report=%t.json" --mplan-verify-plan -o %t.planned.mlir
// RUN: FileCheck %s --check-prefix=JSON < %t.json
// RUN: mplan-opt %t.planned.mlir --convert-mplan-to-memref="arena=heap" --mplan-to-llvm \
// RUN:   | mlir-runner -e main -entry-point-result=void -shared-libs=%mlir_runner_libs > %t.heap
// RUN: diff %t.base %t.heap
// RUN: mplan-opt %t.planned.mlir --convert-mplan-to-memref="arena=stack" --mplan-to-llvm \
// RUN:   | mlir-runner -e main -entry-point-result=void -shared-libs=%mlir_runner_libs > %t.stack
// RUN: diff %t.base %t.stack
// RUN: mplan-opt %t.planned.mlir --convert-mplan-to-memref="arena=global" --mplan-to-llvm \
// RUN:   | mlir-runner -e main -entry-point-result=void -shared-libs=%mlir_runner_libs > %t.global
// RUN: diff %t.base %t.global
// RUN: mplan-opt %t.planned.mlir --convert-mplan-to-memref="arena=argument" --mplan-to-llvm \
// RUN:   | mlir-runner -e main -entry-point-result=void -shared-libs=%mlir_runner_libs > %t.argument
// RUN: diff %t.base %t.argument

// CHECK:      2
// CHECK-NEXT: 8
// CHECK-NEXT: -0.5
// CHECK-NEXT: -2
// JSON:       "name": "select"
// JSON:       "arena_bytes": 512
// JSON:       "unmanaged": []
// JSON-NEXT:  }

#id = affine_map<(d0) -> (d0)>

func.func @select(%c: i1, %x: tensor<64xf32>) -> f32 {
  %c0 = arith.constant 0 : index
  %c63 = arith.constant 63 : index
  %r = scf.if %c -> tensor<64xf32> {
    %e = tensor.empty() : tensor<64xf32>
    %a = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel"]}
        ins(%x : tensor<64xf32>) outs(%e : tensor<64xf32>) {
    ^bb0(%v: f32, %o: f32):
      %t = arith.addf %v, %v : f32
      linalg.yield %t : f32
    } -> tensor<64xf32>
    scf.yield %a : tensor<64xf32>
  } else {
    %e = tensor.empty() : tensor<64xf32>
    %n = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel"]}
        ins(%x : tensor<64xf32>) outs(%e : tensor<64xf32>) {
    ^bb0(%v: f32, %o: f32):
      %t = arith.negf %v : f32
      linalg.yield %t : f32
    } -> tensor<64xf32>
    %e2 = tensor.empty() : tensor<64xf32>
    %h = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel"]}
        ins(%n : tensor<64xf32>) outs(%e2 : tensor<64xf32>) {
    ^bb0(%v: f32, %o: f32):
      %half = arith.constant 0.5 : f32
      %t = arith.mulf %v, %half : f32
      linalg.yield %t : f32
    } -> tensor<64xf32>
    scf.yield %h : tensor<64xf32>
  }
  %first = tensor.extract %r[%c0] : tensor<64xf32>
  %last = tensor.extract %r[%c63] : tensor<64xf32>
  %s = arith.addf %first, %last : f32
  return %s : f32
}

func.func @main() {
  %one = arith.constant 1.0 : f32
  %e = tensor.empty() : tensor<64xf32>
  %x0 = linalg.fill ins(%one : f32) outs(%e : tensor<64xf32>) -> tensor<64xf32>
  %c3 = arith.constant 3.0 : f32
  %c63 = arith.constant 63 : index
  %x = tensor.insert %c3 into %x0[%c63] : tensor<64xf32>
  %true = arith.constant true
  %false = arith.constant false
  %a = call @select(%true, %x) : (i1, tensor<64xf32>) -> f32
  %b = call @select(%false, %x) : (i1, tensor<64xf32>) -> f32
  %c0 = arith.constant 0 : index
  %a0 = arith.constant 2.0 : f32
  vector.print %a0 : f32
  vector.print %a : f32
  %h = arith.constant -0.5 : f32
  vector.print %h : f32
  vector.print %b : f32
  return
}
