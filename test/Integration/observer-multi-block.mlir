// The memory observer on a correct plan of a function with blocks (cf.cond_br, a merge
// with a block argument, a CFG loop carrying a buffer): planned under every arena kind,
// instrumented and run, it reports no error and the program prints what the unplanned
// program prints. The planner reuses the bytes of a buffer read in both branches once it
// is dead on each path (e.g. in ^bb2 after its last use there); an observer that kept such
// a buffer live until the function returns reported a false overlap and exit 3.
// REQUIRES: mplan-runtime
//
// RUN: mlir-opt %s %bufferize_fb %out_params | mlir-opt %lower_to_llvm \
// RUN:   | mlir-runner -e main -entry-point-result=void -shared-libs=%mlir_runner_libs \
// RUN:   | %normalize_addr > %t.base
// RUN: FileCheck %s --check-prefix=OUT < %t.base
//
// RUN: mlir-opt %s %bufferize_fb %out_params \
// RUN:   | mplan-opt --mplan-plan-pipeline --convert-mplan-to-memref="arena=heap" \
// RUN:       --mplan-instrument --mplan-to-llvm \
// RUN:   | env MPLAN_RT_OUTPUT=stdout mlir-runner -e main -entry-point-result=void \
// RUN:       -shared-libs=%mlir_runner_libs,%mplan_runtime | %normalize_addr > %t.heap
// RUN: FileCheck %s < %t.heap
// RUN: grep -v '^mplan-rt' %t.heap | diff %t.base -
//
// RUN: mlir-opt %s %bufferize_fb %out_params \
// RUN:   | mplan-opt --mplan-plan-pipeline --convert-mplan-to-memref="arena=stack" \
// RUN:       --mplan-instrument --mplan-to-llvm \
// RUN:   | env MPLAN_RT_OUTPUT=stdout mlir-runner -e main -entry-point-result=void \
// RUN:       -shared-libs=%mlir_runner_libs,%mplan_runtime | %normalize_addr > %t.stack
// RUN: FileCheck %s < %t.stack
// RUN: grep -v '^mplan-rt' %t.stack | diff %t.base -
//
// RUN: mlir-opt %s %bufferize_fb %out_params \
// RUN:   | mplan-opt --mplan-plan-pipeline --convert-mplan-to-memref="arena=global" \
// RUN:       --mplan-instrument --mplan-to-llvm \
// RUN:   | env MPLAN_RT_OUTPUT=stdout mlir-runner -e main -entry-point-result=void \
// RUN:       -shared-libs=%mlir_runner_libs,%mplan_runtime | %normalize_addr > %t.global
// RUN: FileCheck %s < %t.global
// RUN: grep -v '^mplan-rt' %t.global | diff %t.base -
//
// RUN: mlir-opt %s %bufferize_fb %out_params \
// RUN:   | mplan-opt --mplan-plan-pipeline --convert-mplan-to-memref="arena=argument" \
// RUN:       --mplan-instrument --mplan-to-llvm \
// RUN:   | env MPLAN_RT_OUTPUT=stdout mlir-runner -e main -entry-point-result=void \
// RUN:       -shared-libs=%mlir_runner_libs,%mplan_runtime | %normalize_addr > %t.argument
// RUN: FileCheck %s < %t.argument
// RUN: grep -v '^mplan-rt' %t.argument | diff %t.base -

// OUT: [2.375,  5.34375,  9.5,
// OUT: [-7.125,  -5.9375,  -4.75,

// CHECK: [2.375,  5.34375,  9.5,
// CHECK: [-7.125,  -5.9375,  -4.75,
// CHECK-NOT: mplan-rt: error
// CHECK: mplan-rt: planned buffers {{[1-9][0-9]*}}, errors 0
// CHECK: mplan-rt: @branchy: calls 2, {{.*}} planned buffers {{[1-9][0-9]*}},

#id = affine_map<(d0) -> (d0)>
func.func @branchy(%x: tensor<16xf32>, %c: i1, %n: index) -> tensor<16xf32> {
  %e = tensor.empty() : tensor<16xf32>
  %a = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel"]}
      ins(%x : tensor<16xf32>) outs(%e : tensor<16xf32>) {
  ^bb0(%v: f32, %o: f32):
    %two = arith.constant 2.0 : f32
    %r = arith.mulf %v, %two : f32
    linalg.yield %r : f32
  } -> tensor<16xf32>
  cf.cond_br %c, ^bb1, ^bb2
^bb1:
  %b = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel"]}
      ins(%a : tensor<16xf32>) outs(%e : tensor<16xf32>) {
  ^bb0(%v: f32, %o: f32):
    %one = arith.constant 1.0 : f32
    %r = arith.addf %v, %one : f32
    linalg.yield %r : f32
  } -> tensor<16xf32>
  %d = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel"]}
      ins(%b : tensor<16xf32>) outs(%e : tensor<16xf32>) {
  ^bb0(%v: f32, %o: f32):
    %r = arith.mulf %v, %v : f32
    linalg.yield %r : f32
  } -> tensor<16xf32>
  cf.br ^bb3(%d : tensor<16xf32>)
^bb2:
  %f = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel"]}
      ins(%a : tensor<16xf32>) outs(%e : tensor<16xf32>) {
  ^bb0(%v: f32, %o: f32):
    %three = arith.constant 3.0 : f32
    %r = arith.subf %v, %three : f32
    linalg.yield %r : f32
  } -> tensor<16xf32>
  cf.br ^bb3(%f : tensor<16xf32>)
^bb3(%r: tensor<16xf32>):
  %c0 = arith.constant 0 : index
  cf.br ^loop(%c0, %r : index, tensor<16xf32>)
^loop(%i: index, %acc: tensor<16xf32>):
  %g = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel"]}
      ins(%acc : tensor<16xf32>) outs(%e : tensor<16xf32>) {
  ^bb0(%v: f32, %o: f32):
    %half = arith.constant 0.5 : f32
    %s = arith.mulf %v, %half : f32
    linalg.yield %s : f32
  } -> tensor<16xf32>
  %h = linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel"]}
      ins(%g, %acc : tensor<16xf32>, tensor<16xf32>) outs(%e : tensor<16xf32>) {
  ^bb0(%v: f32, %w: f32, %o: f32):
    %s = arith.addf %v, %w : f32
    linalg.yield %s : f32
  } -> tensor<16xf32>
  %c1 = arith.constant 1 : index
  %next = arith.addi %i, %c1 : index
  %more = arith.cmpi slt, %next, %n : index
  cf.cond_br %more, ^loop(%next, %h : index, tensor<16xf32>), ^exit
^exit:
  %k = linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel"]}
      ins(%h, %r : tensor<16xf32>, tensor<16xf32>) outs(%e : tensor<16xf32>) {
  ^bb0(%v: f32, %w: f32, %o: f32):
    %s = arith.subf %v, %w : f32
    linalg.yield %s : f32
  } -> tensor<16xf32>
  return %k : tensor<16xf32>
}
func.func private @printMemrefF32(tensor<*xf32>)
func.func @main() {
  %e = tensor.empty() : tensor<16xf32>
  %x = linalg.generic {indexing_maps = [#id], iterator_types = ["parallel"]} outs(%e : tensor<16xf32>) {
  ^bb0(%o: f32):
    %i = linalg.index 0 : index
    %ii = arith.index_cast %i : index to i32
    %f = arith.sitofp %ii : i32 to f32
    %q = arith.constant 0.25 : f32
    %r = arith.mulf %f, %q : f32
    linalg.yield %r : f32
  } -> tensor<16xf32>
  %t = arith.constant true
  %f = arith.constant false
  %n = arith.constant 3 : index
  %r1 = call @branchy(%x, %t, %n) : (tensor<16xf32>, i1, index) -> tensor<16xf32>
  %r2 = call @branchy(%x, %f, %n) : (tensor<16xf32>, i1, index) -> tensor<16xf32>
  %u1 = tensor.cast %r1 : tensor<16xf32> to tensor<*xf32>
  call @printMemrefF32(%u1) : (tensor<*xf32>) -> ()
  %u2 = tensor.cast %r2 : tensor<16xf32> to tensor<*xf32>
  call @printMemrefF32(%u2) : (tensor<*xf32>) -> ()
  return
}
