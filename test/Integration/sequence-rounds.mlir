// The pipeline (inplace=true) decides copy elision, the order and in-place reuse in
// rounds: in-place reuse merges buffers after the order was chosen, so the
// merged program is ordered again (and the copies the guard kept are judged
// again), while one of the steps changes it. On an Inception block of
// bench/sequence/gen.py (scale 0.25, seed 7; Inputs/sequence-inception-seed7.mlir)
// one round (the steps one after the other) reaches 35328 bytes, the rounds
// 34304; the plan prints what upstream's unplanned program prints under every
// arena kind.
//
// RUN: mlir-opt %S/Inputs/sequence-inception-seed7.mlir %bufferize_fb %baseline_dealloc \
// RUN:   | mlir-opt %lower_to_llvm \
// RUN:   | mlir-runner -e main -entry-point-result=void -shared-libs=%mlir_runner_libs \
// RUN:   | %normalize_addr > %t.base
// RUN: mlir-opt %S/Inputs/sequence-inception-seed7.mlir %bufferize_fb > %t.buf.mlir
// RUN: mplan-opt %t.buf.mlir -o /dev/null --pass-pipeline="builtin.module(mplan-mark-calls,func.func(mplan-capture-buffers{fold-views=true},mplan-elide-copies{peak-guard=all},mplan-sequence,mplan-inplace),mplan-plan-buffers{report=%t.steps.json})"
// RUN: FileCheck %s --check-prefix=STEPS < %t.steps.json
// RUN: mplan-opt %t.buf.mlir -o %t.plan.mlir --mplan-verify-plan \
// RUN:   --mplan-plan-pipeline="inplace=true report=%t.json"
// RUN: FileCheck %s < %t.json
// RUN: for arena in heap stack global "argument functions=model"; do \
// RUN:   mplan-opt %t.plan.mlir --convert-mplan-to-memref="arena=$arena" --mplan-to-llvm \
// RUN:     | mlir-runner -e main -entry-point-result=void -shared-libs=%mlir_runner_libs \
// RUN:     | %normalize_addr | diff %t.base - || exit 1; \
// RUN: done

// STEPS: "name": "model"
// STEPS: "lower_bound_bytes": 35328

// CHECK: "name": "model"
// CHECK: "lower_bound_bytes": 34304
