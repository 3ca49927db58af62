// The guard on every copy (peak-guard=all, the default) decides copy by copy:
// each kept copy's removal alone would raise the bound, yet removing every pad
// and concat copy, then ordering and reusing in place, ends lower. Where the
// guard kept a copy, the pipeline plans the function that way too (on a copy
// of it) and takes the lower plan. On a DARTS normal cell of
// bench/sequence/gen.py (scale 0.25, seed 5; Inputs/sequence-darts-seed5.mlir)
// the guarded plan alone is 20736 bytes, program order with every pad and
// concat copy removed (peak-guard=views, no sequencing) 18432, the default
// 18432; the plan prints what upstream's unplanned program prints under every
// arena kind.
//
// RUN: mlir-opt %S/Inputs/sequence-darts-seed5.mlir %bufferize_fb %baseline_dealloc \
// RUN:   | mlir-opt %lower_to_llvm \
// RUN:   | mlir-runner -e main -entry-point-result=void -shared-libs=%mlir_runner_libs \
// RUN:   | %normalize_addr > %t.base
// RUN: mlir-opt %S/Inputs/sequence-darts-seed5.mlir %bufferize_fb > %t.buf.mlir
// RUN: mplan-opt %t.buf.mlir -o /dev/null --mplan-plan-pipeline="sequence=program inplace=false peak-guard=views report=%t.views.json"
// RUN: FileCheck %s --check-prefix=VIEWS < %t.views.json
// RUN: mplan-opt %t.buf.mlir -o %t.plan.mlir --mplan-verify-plan \
// RUN:   --mplan-plan-pipeline="report=%t.json"
// RUN: FileCheck %s < %t.json
// RUN: for arena in heap stack global "argument functions=model"; do \
// RUN:   mplan-opt %t.plan.mlir --convert-mplan-to-memref="arena=$arena" --mplan-to-llvm \
// RUN:     | mlir-runner -e main -entry-point-result=void -shared-libs=%mlir_runner_libs \
// RUN:     | %normalize_addr | diff %t.base - || exit 1; \
// RUN: done

// VIEWS: "name": "model"
// VIEWS: "lower_bound_bytes": 18432

// CHECK: "name": "model"
// CHECK: "lower_bound_bytes": 18432
