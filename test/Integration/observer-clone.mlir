// The memory observer on programs with bufferization.clone: upstream's ownership-based
// deallocation clones a returned argument (@bump writes into its argument and returns it;
// @pick returns its argument or a new buffer) and frees with bufferization.dealloc. The
// observer records each clone as a heap allocation (from its Allocate effect) and sees the
// frees that run (bufferization.dealloc lowered as mplan-to-llvm lowers it): no error,
// every allocation freed, the baseline's output. Before, it missed the clones and then
// reported their frees ("free of 0x..., which is not a live heap buffer", exit 3). Run
// unplanned (with bufferization.dealloc left in, or already lowered to memref.dealloc)
// and planned from the deallocated IR under every arena kind.
// REQUIRES: mplan-runtime
//
// RUN: mlir-opt %s %bufferize_fb %baseline_dealloc | mlir-opt %lower_to_llvm \
// RUN:   | mlir-runner -e main -entry-point-result=void -shared-libs=%mlir_runner_libs \
// RUN:   | %normalize_addr > %t.base
// RUN: FileCheck %s --check-prefix=OUT < %t.base
// RUN: mlir-opt %s %bufferize_fb --ownership-based-buffer-deallocation --canonicalize \
// RUN:     --buffer-deallocation-simplification > %t.dealloc
// RUN: FileCheck %s --check-prefix=IR < %t.dealloc
//
// RUN: mplan-opt %t.dealloc --mplan-instrument --mplan-to-llvm \
// RUN:   | env MPLAN_RT_OUTPUT=stdout MPLAN_RT_VERBOSE=1 mlir-runner -e main \
// RUN:       -entry-point-result=void -shared-libs=%mlir_runner_libs,%mplan_runtime \
// RUN:   | %normalize_addr > %t.unplanned
// RUN: FileCheck %s --check-prefixes=CHECK,UNPLANNED < %t.unplanned
// RUN: grep -v '^mplan-rt' %t.unplanned | diff %t.base -
// RUN: mlir-opt %t.dealloc --bufferization-lower-deallocations \
// RUN:   | mplan-opt --mplan-instrument --mplan-to-llvm \
// RUN:   | env MPLAN_RT_OUTPUT=stdout MPLAN_RT_VERBOSE=1 mlir-runner -e main \
// RUN:       -entry-point-result=void -shared-libs=%mlir_runner_libs,%mplan_runtime \
// RUN:   | %normalize_addr > %t.lowered
// RUN: FileCheck %s --check-prefixes=CHECK,UNPLANNED < %t.lowered
// RUN: grep -v '^mplan-rt' %t.lowered | diff %t.base -
//
// RUN: mplan-opt %t.dealloc --mplan-plan-pipeline --convert-mplan-to-memref="arena=heap" \
// RUN:     --mplan-instrument --mplan-to-llvm \
// RUN:   | env MPLAN_RT_OUTPUT=stdout mlir-runner -e main -entry-point-result=void \
// RUN:       -shared-libs=%mlir_runner_libs,%mplan_runtime | %normalize_addr > %t.heap
// RUN: FileCheck %s --check-prefixes=CHECK,PLANNED < %t.heap
// RUN: grep -v '^mplan-rt' %t.heap | diff %t.base -
// RUN: mplan-opt %t.dealloc --mplan-plan-pipeline --convert-mplan-to-memref="arena=stack" \
// RUN:     --mplan-instrument --mplan-to-llvm \
// RUN:   | env MPLAN_RT_OUTPUT=stdout mlir-runner -e main -entry-point-result=void \
// RUN:       -shared-libs=%mlir_runner_libs,%mplan_runtime | %normalize_addr > %t.stack
// RUN: FileCheck %s --check-prefixes=CHECK,PLANNED < %t.stack
// RUN: grep -v '^mplan-rt' %t.stack | diff %t.base -
// RUN: mplan-opt %t.dealloc --mplan-plan-pipeline --convert-mplan-to-memref="arena=global" \
// RUN:     --mplan-instrument --mplan-to-llvm \
// RUN:   | env MPLAN_RT_OUTPUT=stdout mlir-runner -e main -entry-point-result=void \
// RUN:       -shared-libs=%mlir_runner_libs,%mplan_runtime | %normalize_addr > %t.global
// RUN: FileCheck %s --check-prefixes=CHECK,PLANNED < %t.global
// RUN: grep -v '^mplan-rt' %t.global | diff %t.base -
// RUN: mplan-opt %t.dealloc --mplan-plan-pipeline --convert-mplan-to-memref="arena=argument" \
// RUN:     --mplan-instrument --mplan-to-llvm \
// RUN:   | env MPLAN_RT_OUTPUT=stdout mlir-runner -e main -entry-point-result=void \
// RUN:       -shared-libs=%mlir_runner_libs,%mplan_runtime | %normalize_addr > %t.argument
// RUN: FileCheck %s --check-prefixes=CHECK,PLANNED < %t.argument
// RUN: grep -v '^mplan-rt' %t.argument | diff %t.base -

// IR: bufferization.clone
// IR: bufferization.dealloc

// OUT: [1,  2.25,  4,  6.25,
// OUT: [1,  7.0625,  24,  58.5625,

// CHECK: [1,  2.25,  4,  6.25,
// CHECK: [1,  7.0625,  24,  58.5625,
// CHECK-NOT: mplan-rt: error
// CHECK: mplan-rt: heap allocs [[N:[0-9]+]], frees [[N]], bytes {{[0-9]+}}, live at exit 0 (0 B)
// PLANNED: mplan-rt: planned buffers {{[1-9][0-9]*}}, errors 0
// UNPLANNED: mplan-rt: planned buffers 0, errors 0
// CHECK: mplan-rt: @bump: calls 2, heap allocs 2 (1.00/call), frees 0,
// UNPLANNED: mplan-rt: site {{.*}} bufferization.clone: heap alloc x2, 128 B total, 64 B max

#id = affine_map<(d0) -> (d0)>
// Writes into its argument and returns it: ownership-based deallocation clones the result.
func.func @bump(%x: tensor<16xf32>) -> tensor<16xf32> {
  %r = linalg.generic {indexing_maps = [#id], iterator_types = ["parallel"]}
      outs(%x : tensor<16xf32>) {
  ^bb0(%o: f32):
    %one = arith.constant 1.0 : f32
    %s = arith.addf %o, %one : f32
    linalg.yield %s : f32
  } -> tensor<16xf32>
  return %r : tensor<16xf32>
}
// Returns its argument or a new tensor: a clone where the result is not owned.
func.func @pick(%x: tensor<16xf32>, %c: i1) -> tensor<16xf32> {
  %r = scf.if %c -> tensor<16xf32> {
    scf.yield %x : tensor<16xf32>
  } else {
    %e = tensor.empty() : tensor<16xf32>
    %a = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel"]}
        ins(%x : tensor<16xf32>) outs(%e : tensor<16xf32>) {
    ^bb0(%v: f32, %o: f32):
      %m = arith.mulf %v, %v : f32
      linalg.yield %m : f32
    } -> tensor<16xf32>
    scf.yield %a : tensor<16xf32>
  }
  return %r : tensor<16xf32>
}
func.func @compute(%x: tensor<16xf32>, %c: i1) -> tensor<16xf32> {
  %e = tensor.empty() : tensor<16xf32>
  %a = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel"]}
      ins(%x : tensor<16xf32>) outs(%e : tensor<16xf32>) {
  ^bb0(%v: f32, %o: f32):
    %half = arith.constant 0.5 : f32
    %m = arith.mulf %v, %half : f32
    linalg.yield %m : f32
  } -> tensor<16xf32>
  %t1 = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel"]}
      ins(%a : tensor<16xf32>) outs(%e : tensor<16xf32>) {
  ^bb0(%v: f32, %o: f32):
    %three = arith.constant 3.0 : f32
    %m = arith.addf %v, %three : f32
    linalg.yield %m : f32
  } -> tensor<16xf32>
  %t2 = linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel"]}
      ins(%t1, %a : tensor<16xf32>, tensor<16xf32>) outs(%e : tensor<16xf32>) {
  ^bb0(%v: f32, %w: f32, %o: f32):
    %m = arith.mulf %v, %w : f32
    linalg.yield %m : f32
  } -> tensor<16xf32>
  %b = call @bump(%t2) : (tensor<16xf32>) -> tensor<16xf32>
  %p = call @pick(%b, %c) : (tensor<16xf32>, i1) -> tensor<16xf32>
  %d = linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel"]}
      ins(%p, %a : tensor<16xf32>, tensor<16xf32>) outs(%e : tensor<16xf32>) {
  ^bb0(%v: f32, %w: f32, %o: f32):
    %s = arith.subf %v, %w : f32
    linalg.yield %s : f32
  } -> tensor<16xf32>
  return %d : tensor<16xf32>
}
func.func private @printMemrefF32(tensor<*xf32>)
func.func @main() {
  %e = tensor.empty() : tensor<16xf32>
  %x = linalg.generic {indexing_maps = [#id], iterator_types = ["parallel"]} outs(%e : tensor<16xf32>) {
  ^bb0(%o: f32):
    %i = linalg.index 0 : index
    %ii = arith.index_cast %i : index to i32
    %f = arith.sitofp %ii : i32 to f32
    linalg.yield %f : f32
  } -> tensor<16xf32>
  %t = arith.constant true
  %f = arith.constant false
  %r1 = call @compute(%x, %t) : (tensor<16xf32>, i1) -> tensor<16xf32>
  %r2 = call @compute(%x, %f) : (tensor<16xf32>, i1) -> tensor<16xf32>
  %u1 = tensor.cast %r1 : tensor<16xf32> to tensor<*xf32>
  call @printMemrefF32(%u1) : (tensor<*xf32>) -> ()
  %u2 = tensor.cast %r2 : tensor<16xf32> to tensor<*xf32>
  call @printMemrefF32(%u2) : (tensor<*xf32>) -> ()
  return
}
