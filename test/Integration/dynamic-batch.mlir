// A dynamic-batch MLP (issue 15, item 1): the batch size of the input is bounded by the user
// (`mplan.dim_upper_bounds` on the argument), so every intermediate buffer of the model
// function, whose batch dimension is the input's, is planned in the arena at its upper-bound
// size; so is the input @run builds, whose size is a bounded index argument
// (`mplan.upper_bound`). Called at several
// batch sizes up to the bound, the planned program prints exactly what the unplanned program
// prints, under every arena kind.
//
// RUN: mlir-opt %s %bufferize_fb %baseline_dealloc \
// RUN:   | mlir-opt %lower_to_llvm \
// RUN:   | mlir-runner -e main -entry-point-result=void -shared-libs=%mlir_runner_libs > %t.base
// RUN: FileCheck %s < %t.base
// RUN: mlir-opt %s %bufferize_fb | mplan-opt --mplan-plan-pipeline="report=%t.json" --mplan-verify-plan -o %t.planned.mlir
// RUN: FileCheck %s --check-prefix=JSON < %t.json
// RUN: FileCheck %s --check-prefix=IR < %t.planned.mlir
// RUN: mplan-opt %t.planned.mlir --convert-mplan-to-memref="arena=heap" --mplan-to-llvm \
// RUN:   | mlir-runner -O3 -e main -entry-point-result=void -shared-libs=%mlir_runner_libs > %t.heap
// RUN: diff %t.base %t.heap
// RUN: mplan-opt %t.planned.mlir --convert-mplan-to-memref="arena=stack" --mplan-to-llvm \
// RUN:   | mlir-runner -O3 -e main -entry-point-result=void -shared-libs=%mlir_runner_libs > %t.stack
// RUN: diff %t.base %t.stack
// RUN: mplan-opt %t.planned.mlir --convert-mplan-to-memref="arena=global" --mplan-to-llvm \
// RUN:   | mlir-runner -O3 -e main -entry-point-result=void -shared-libs=%mlir_runner_libs > %t.global
// RUN: diff %t.base %t.global
// RUN: mplan-opt %t.planned.mlir --convert-mplan-to-memref="arena=argument" --mplan-to-llvm \
// RUN:   | mlir-runner -O3 -e main -entry-point-result=void -shared-libs=%mlir_runner_libs > %t.argument
// RUN: diff %t.base %t.argument

// CHECK:      batch
// CHECK-NEXT: 1
// CHECK-NEXT: 86.83
// CHECK-NEXT: batch
// CHECK-NEXT: 7
// CHECK-NEXT: 919.55
// CHECK-NEXT: batch
// CHECK-NEXT: 64
// CHECK-NEXT: 7228.1

// No buffer of the model function is left to malloc: its unmanaged list is empty and its
// batch-sized buffers say which bound made them plannable.
// JSON:       "name": "mlp"
// JSON:       "bound": "dimension 0 <= 64 (mplan.dim_upper_bounds 64 of dimension 0 of %arg0)"
// JSON:       "unmanaged": []
// JSON:       "name": "run"
// JSON:       "bound": "dimension 0 <= 64 (mplan.upper_bound 64 of %arg0)"
// JSON:       "unmanaged": []
// JSON:       "name": "main"
// JSON:       "unmanaged": []
// IR-LABEL:   func.func @mlp
// IR-NOT:     memref.alloc
// IR:         mplan.alloc_slab
// IR:         mplan.alloc_tensor {{.*}}mplan.bound = {{.*}} -> memref<64x64xf32>
// IR:         memref.reinterpret_cast {{.*}} to offset: [0], sizes: [%{{.*}}, 64], strides: [64, 1] {mplan.bound = {{.*}}} : memref<64x64xf32> to memref<?x64xf32>
// IR-LABEL:   func.func @main

#x = affine_map<(b, i, o) -> (b, i)>
#w = affine_map<(b, i, o) -> (i, o)>
#y = affine_map<(b, i, o) -> (b, o)>
#id2 = affine_map<(b, o) -> (b, o)>
#row = affine_map<(b, o) -> (o)>
#all = affine_map<(b, o) -> ()>

// relu(x * w1 + b1) * w2, reduced to one checksum.
func.func @mlp(%x: tensor<?x32xf32> {mplan.dim_upper_bounds = array<i64: 64, -1>},
               %w1: tensor<32x64xf32>, %b1: tensor<64xf32>, %w2: tensor<64x16xf32>) -> f32 {
  %c0 = arith.constant 0 : index
  %zero = arith.constant 0.0 : f32
  %n = tensor.dim %x, %c0 : tensor<?x32xf32>
  %e1 = tensor.empty(%n) : tensor<?x64xf32>
  %f1 = linalg.fill ins(%zero : f32) outs(%e1 : tensor<?x64xf32>) -> tensor<?x64xf32>
  %h = linalg.matmul ins(%x, %w1 : tensor<?x32xf32>, tensor<32x64xf32>)
                     outs(%f1 : tensor<?x64xf32>) -> tensor<?x64xf32>
  %e2 = tensor.empty(%n) : tensor<?x64xf32>
  %a = linalg.generic {indexing_maps = [#id2, #row, #id2],
                       iterator_types = ["parallel", "parallel"]}
      ins(%h, %b1 : tensor<?x64xf32>, tensor<64xf32>) outs(%e2 : tensor<?x64xf32>) {
  ^bb0(%v: f32, %bias: f32, %o: f32):
    %s = arith.addf %v, %bias : f32
    %r = arith.maximumf %s, %zero : f32
    linalg.yield %r : f32
  } -> tensor<?x64xf32>
  %e3 = tensor.empty(%n) : tensor<?x16xf32>
  %f3 = linalg.fill ins(%zero : f32) outs(%e3 : tensor<?x16xf32>) -> tensor<?x16xf32>
  %y = linalg.matmul ins(%a, %w2 : tensor<?x64xf32>, tensor<64x16xf32>)
                     outs(%f3 : tensor<?x16xf32>) -> tensor<?x16xf32>
  %e4 = tensor.empty() : tensor<f32>
  %f4 = linalg.fill ins(%zero : f32) outs(%e4 : tensor<f32>) -> tensor<f32>
  %sum = linalg.generic {indexing_maps = [#id2, #all],
                         iterator_types = ["reduction", "reduction"]}
      ins(%y : tensor<?x16xf32>) outs(%f4 : tensor<f32>) {
  ^bb0(%v: f32, %acc: f32):
    %sq = arith.mulf %v, %v : f32
    %t = arith.addf %sq, %v : f32
    %r = arith.addf %acc, %t : f32
    linalg.yield %r : f32
  } -> tensor<f32>
  %s = tensor.extract %sum[] : tensor<f32>
  return %s : f32
}

// A deterministic value in [-0.5, 0.5) for element (i, j) with seed k.
func.func @value(%i: index, %j: index, %k: index) -> f32 {
  %c11 = arith.constant 11 : index
  %c7 = arith.constant 7 : index
  %a = arith.muli %i, %c7 : index
  %b = arith.muli %j, %k : index
  %c = arith.addi %a, %b : index
  %m = arith.remui %c, %c11 : index
  %mi = arith.index_cast %m : index to i32
  %mf = arith.sitofp %mi : i32 to f32
  %scale = arith.constant 0.1 : f32
  %half = arith.constant 0.5 : f32
  %v = arith.mulf %mf, %scale : f32
  %r = arith.subf %v, %half : f32
  return %r : f32
}

func.func @run(%n: index {mplan.upper_bound = 64 : i64}, %w1: tensor<32x64xf32>, %b1: tensor<64xf32>, %w2: tensor<64x16xf32>) {
  %c5 = arith.constant 5 : index
  %x = tensor.generate %n {
  ^bb0(%i: index, %j: index):
    %v = func.call @value(%i, %j, %c5) : (index, index, index) -> f32
    tensor.yield %v : f32
  } : tensor<?x32xf32>
  %s = func.call @mlp(%x, %w1, %b1, %w2)
      : (tensor<?x32xf32>, tensor<32x64xf32>, tensor<64xf32>, tensor<64x16xf32>) -> f32
  %c = arith.constant 0 : index
  vector.print str "batch\n"
  %ni = arith.index_cast %n : index to i64
  vector.print %ni : i64
  vector.print %s : f32
  return
}

func.func @main() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %w1 = tensor.generate {
  ^bb0(%i: index, %j: index):
    %v = func.call @value(%i, %j, %c3) : (index, index, index) -> f32
    tensor.yield %v : f32
  } : tensor<32x64xf32>
  %b1 = tensor.generate {
  ^bb0(%i: index):
    %v = func.call @value(%i, %c0, %c1) : (index, index, index) -> f32
    tensor.yield %v : f32
  } : tensor<64xf32>
  %w2 = tensor.generate {
  ^bb0(%i: index, %j: index):
    %v = func.call @value(%i, %j, %c2) : (index, index, index) -> f32
    tensor.yield %v : f32
  } : tensor<64x16xf32>
  %n1 = arith.constant 1 : index
  %n7 = arith.constant 7 : index
  %n64 = arith.constant 64 : index
  func.call @run(%n1, %w1, %b1, %w2) : (index, tensor<32x64xf32>, tensor<64xf32>, tensor<64x16xf32>) -> ()
  func.call @run(%n7, %w1, %b1, %w2) : (index, tensor<32x64xf32>, tensor<64xf32>, tensor<64x16xf32>) -> ()
  func.call @run(%n64, %w1, %b1, %w2) : (index, tensor<32x64xf32>, tensor<64xf32>, tensor<64x16xf32>) -> ()
  return
}
