// Run-time sized buffers (issue 15, item 2): the dynamic-batch MLP of dynamic-batch.mlir with
// its bound attributes removed, so no dynamic dimension has an upper bound. Every batch-sized
// buffer of @mlp (and the input @run builds) is placed by a symbolic plan evaluated when the
// function starts: one heap allocation per call, whatever the arena kind asked for (the slab's
// size is known only at run time). At batch 1, 7 and 64 the planned program prints exactly
// what the unplanned program prints; the observer sees one allocation per call of @mlp and
// no two live buffers sharing bytes.
//
// RUN: sed -e 's/ {mplan.dim_upper_bounds = array<i64: 64, -1>}//' -e 's/ {mplan.upper_bound = 64 : i64}//' \
// RUN:   %S/dynamic-batch.mlir > %t.input.mlir
// RUN: mlir-opt %t.input.mlir %bufferize_fb %baseline_dealloc \
// RUN:   | mlir-opt %lower_to_llvm \
// RUN:   | mlir-runner -e main -entry-point-result=void -shared-libs=%mlir_runner_libs > %t.base
// RUN: FileCheck %S/dynamic-batch.mlir < %t.base
// RUN: mlir-opt %t.input.mlir %bufferize_fb | mplan-opt --mplan-plan-pipeline="report=%t.json" --mplan-verify-plan -o %t.planned.mlir
// RUN: FileCheck %s --check-prefix=JSON < %t.json
// RUN: FileCheck %s --check-prefix=IR < %t.planned.mlir
// RUN: mplan-opt %t.planned.mlir --convert-mplan-to-memref="arena=heap" --mplan-to-llvm \
// RUN:   | mlir-runner -e main -entry-point-result=void -shared-libs=%mlir_runner_libs > %t.heap
// RUN: diff %t.base %t.heap
// RUN: mplan-opt %t.planned.mlir --convert-mplan-to-memref="arena=stack" --mplan-to-llvm 2>/dev/null \
// RUN:   | mlir-runner -e main -entry-point-result=void -shared-libs=%mlir_runner_libs > %t.stack
// RUN: diff %t.base %t.stack
// RUN: mplan-opt %t.planned.mlir --convert-mplan-to-memref="arena=global" --mplan-to-llvm 2>/dev/null \
// RUN:   | mlir-runner -e main -entry-point-result=void -shared-libs=%mlir_runner_libs > %t.global
// RUN: diff %t.base %t.global
// RUN: mplan-opt %t.planned.mlir --convert-mplan-to-memref="arena=argument" --mplan-to-llvm 2>/dev/null \
// RUN:   | mlir-runner -e main -entry-point-result=void -shared-libs=%mlir_runner_libs > %t.argument
// RUN: diff %t.base %t.argument
// RUN: mplan-opt %t.planned.mlir --convert-mplan-to-memref="arena=shared-global" --mplan-to-llvm 2>/dev/null \
// RUN:   | mlir-runner -e main -entry-point-result=void -shared-libs=%mlir_runner_libs > %t.shared
// RUN: diff %t.base %t.shared
// RUN: mplan-opt %t.planned.mlir --convert-mplan-to-memref="arena=heap" --mplan-instrument --mplan-to-llvm \
// RUN:   | env MPLAN_RT_OUTPUT=stdout MPLAN_RT_VERBOSE=1 mlir-runner -e main -entry-point-result=void \
// RUN:       -shared-libs=%mlir_runner_libs,%mplan_runtime \
// RUN:   | FileCheck %s --check-prefix=OBS
// REQUIRES: mplan-runtime

// Nothing of @mlp is left to malloc; its batch-sized buffers are in the symbolic plan.
// JSON:       "name": "mlp"
// JSON:       "unmanaged": []
// JSON:       "dynamic_arena": "max(64, end({{[0-9]+}}), end({{[0-9]+}}), end({{[0-9]+}}))"
// JSON:       "size": "256 * dim(%arg0, 0)"
// JSON:       "name": "run"
// JSON:       "unmanaged": []
// JSON:       "dynamic_arena": "max(0, end(0))"
// JSON:       "size": "128 * %arg0"
// IR-LABEL:   func.func @mlp
// IR-NOT:     memref.alloc
// IR:         mplan.alloc_slab
// IR:         mplan.alloc_dynamic
// IR-LABEL:   func.func @value

// OBS:        planned buffers {{[0-9]+}}, errors 0
// OBS:        @mlp: calls 3, heap allocs 3 (1.00/call), frees 3
