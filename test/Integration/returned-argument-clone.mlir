// A program from utils/fuzz_pipeline.py (seed 2: a callee writes into its tensor argument
// and returns it). Upstream's ownership-based deallocation then clones the returned argument
// (bufferization.clone), which the baseline lowers with --convert-bufferization-to-memref and
// mplan-to-llvm lowers itself: the planned program runs from the deallocated IR with its
// bufferization.dealloc and bufferization.clone ops left in, and prints what the baseline
// prints.
//
// RUN: mlir-opt %S/Inputs/fuzz-seed2-returns-argument.mlir %bufferize_fb %baseline_dealloc \
// RUN:   | mlir-opt %lower_to_llvm \
// RUN:   | mlir-runner -e main -entry-point-result=void -shared-libs=%mlir_runner_libs \
// RUN:   | %normalize_addr > %t.base
// RUN: mlir-opt %S/Inputs/fuzz-seed2-returns-argument.mlir %bufferize_fb \
// RUN:     --ownership-based-buffer-deallocation > %t.dealloc
// RUN: FileCheck %s --check-prefix=IR < %t.dealloc
// RUN: mplan-opt %t.dealloc --mplan-plan-pipeline --convert-mplan-to-memref="arena=heap" --mplan-to-llvm \
// RUN:   | mlir-runner -e main -entry-point-result=void -shared-libs=%mlir_runner_libs \
// RUN:   | %normalize_addr > %t.plan
// RUN: diff %t.base %t.plan
// RUN: FileCheck %s < %t.plan

// IR: bufferization.clone
// CHECK: result 0 2 sum 0.4266
