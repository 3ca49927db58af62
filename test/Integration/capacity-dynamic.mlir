// A capacity and run-time sized buffers (issue 30): the dynamic-batch MLP of
// dynamic-batch.mlir without its bounds, planned with capacity=default:12544 (@main's
// bound). The batch-sized buffers of @mlp and @run would grow their capped slabs at run
// time, so each gets its own allocation outside the slab, at the function's start, freed
// at every return (the report lists them in `unmanaged` with the reason); the static
// buffers stay in the slab. At batch 1, 7 and 64 the planned program prints exactly what
// the unplanned program prints, under every arena kind; the observer finds no overlap.
//
// RUN: sed -e 's/ {mplan.dim_upper_bounds = array<i64: 64, -1>}//' -e 's/ {mplan.upper_bound = 64 : i64}//' \
// RUN:   %S/dynamic-batch.mlir > %t.input.mlir
// RUN: mlir-opt %t.input.mlir %bufferize_fb %baseline_dealloc \
// RUN:   | mlir-opt %lower_to_llvm \
// RUN:   | mlir-runner -e main -entry-point-result=void -shared-libs=%mlir_runner_libs > %t.base
// RUN: FileCheck %S/dynamic-batch.mlir < %t.base
// RUN: mlir-opt %t.input.mlir %bufferize_fb \
// RUN:   | mplan-opt --mplan-plan-pipeline="capacity=default:12544 report=%t.json" --mplan-verify-plan -o %t.planned.mlir
// RUN: FileCheck %s --check-prefix=JSON < %t.json
// RUN: FileCheck %s --check-prefix=IR < %t.planned.mlir
// RUN: mplan-opt %t.planned.mlir --convert-mplan-to-memref="arena=heap" --mplan-to-llvm \
// RUN:   | mlir-runner -e main -entry-point-result=void -shared-libs=%mlir_runner_libs > %t.heap
// RUN: diff %t.base %t.heap
// RUN: mplan-opt %t.planned.mlir --convert-mplan-to-memref="arena=stack" --mplan-to-llvm 2>/dev/null \
// RUN:   | mlir-runner -e main -entry-point-result=void -shared-libs=%mlir_runner_libs > %t.stack
// RUN: diff %t.base %t.stack
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

// JSON:       "name": "mlp"
// JSON:       "arena_bytes": 64
// JSON:       "unmanaged": [
// JSON:         "reason": "run-time sized in memory space 'default', which has a capacity of 12544 bytes: allocated on its own
// JSON-NOT:   "dynamic_arena"
// JSON:       "name": "run"
// JSON:       "reason": "run-time sized in memory space 'default', which has a capacity of 12544 bytes: allocated on its own
// JSON-NOT:   "dynamic_arena"
// JSON:       "name": "main"
// JSON:       "arena_bytes": 12544
// IR-LABEL:   func.func @mlp
// IR-COUNT-3: memref.alloc(%{{.*}}) {{.*}}mplan.unplanned = "run-time sized
// IR:         mplan.alloc_slab {capacity = 12544 : i64} : <64, 64>
// IR-NOT:     mplan.alloc_dynamic
// IR-LABEL:   func.func @value

// OBS:        planned buffers {{[0-9]+}}, errors 0
