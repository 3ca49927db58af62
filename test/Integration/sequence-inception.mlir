// Sequencing end to end: Inception-v3-style blocks emitted breadth first
// (Inputs/sequence-inception.mlir, from bench/sequence/gen.py), planned with
// sequence=best alone and with the default pipeline (which sequences too), under
// every arena kind, print exactly what upstream's unplanned program prints; the
// reports show the bound sequencing bought.
//
// RUN: mlir-opt %S/Inputs/sequence-inception.mlir %bufferize_fb %baseline_dealloc \
// RUN:   | mlir-opt %lower_to_llvm \
// RUN:   | mlir-runner -e main -entry-point-result=void -shared-libs=%mlir_runner_libs \
// RUN:   | %normalize_addr > %t.base
// RUN: FileCheck %s --check-prefix=OUT < %t.base
// RUN: mlir-opt %S/Inputs/sequence-inception.mlir %bufferize_fb > %t.buf.mlir
// RUN: mplan-opt %t.buf.mlir -o %t.plan.mlir --mplan-verify-plan \
// RUN:   --mplan-plan-pipeline="sequence=best inplace=false peak-guard=views report=%t.json"
// RUN: FileCheck %s --check-prefix=JSON < %t.json
// RUN: mplan-opt %t.buf.mlir -o %t.default.mlir --mplan-verify-plan \
// RUN:   --mplan-plan-pipeline="report=%t.default.json"
// RUN: FileCheck %s --check-prefix=DEFAULT < %t.default.json
// RUN: for plan in plan default; do \
// RUN:   for arena in heap stack global "argument functions=model"; do \
// RUN:     mplan-opt %t.$plan.mlir --convert-mplan-to-memref="arena=$arena" --mplan-to-llvm \
// RUN:       | mlir-runner -e main -entry-point-result=void -shared-libs=%mlir_runner_libs \
// RUN:       | %normalize_addr | diff %t.base - || exit 1; \
// RUN: done; done

// OUT: sizes = [16, 32]
// OUT-NEXT: {{\[\[}}0.762267,

// Sequencing alone (no in-place reuse, the copy guard on views only) lowers the bound from
// program order's 6528 bytes to 4544.
// JSON: "name": "model"
// JSON: "lower_bound_bytes": 4544
// JSON: "lower_bound_program_order_bytes": 6528

// The default plan: the guard on every copy keeps two copies whose elision raised the
// bound in program order; the function is also planned with every pad and concat copy
// removed (program order 6528 bytes), and after sequencing that plan is as low (4544
// bytes) with two copies fewer: it is taken. In-place reuse (on by default) then writes
// elementwise outputs over inputs that die there: 4160 bytes.
// DEFAULT: "name": "model"
// DEFAULT: "lower_bound_bytes": 4160
// DEFAULT: "lower_bound_program_order_bytes": 6528
// DEFAULT: "sequence_optimal": true
// DEFAULT: "copies_removed": 12
