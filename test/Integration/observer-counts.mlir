// The memory observer on the same program, unplanned (upstream's baseline: one malloc and
// one free per intermediate buffer) and planned (heap: one allocation per call; global:
// none). The summary goes to stdout after the program's own output.
// REQUIRES: mplan-runtime
//
// RUN: mlir-opt %S/Inputs/arena-chain.mlir %bufferize_fb %out_params %baseline_dealloc \
// RUN:   | mplan-opt --mplan-instrument --mplan-to-llvm \
// RUN:   | env MPLAN_RT_OUTPUT=stdout MPLAN_RT_VERBOSE=1 mlir-runner -e main \
// RUN:       -entry-point-result=void -shared-libs=%mlir_runner_libs,%mplan_runtime \
// RUN:   | FileCheck %s --check-prefix=BASE
// RUN: mlir-opt %S/Inputs/arena-chain.mlir %bufferize_fb %out_params \
// RUN:   | mplan-opt --mplan-plan-pipeline --convert-mplan-to-memref="arena=heap" \
// RUN:       --mplan-instrument --mplan-to-llvm \
// RUN:   | env MPLAN_RT_OUTPUT=stdout MPLAN_RT_VERBOSE=1 mlir-runner -e main \
// RUN:       -entry-point-result=void -shared-libs=%mlir_runner_libs,%mplan_runtime \
// RUN:   | FileCheck %s --check-prefix=HEAP
// RUN: mlir-opt %S/Inputs/arena-chain.mlir %bufferize_fb %out_params \
// RUN:   | mplan-opt --mplan-plan-pipeline --convert-mplan-to-memref="arena=global" \
// RUN:       --mplan-instrument --mplan-to-llvm \
// RUN:   | env MPLAN_RT_OUTPUT=stdout mlir-runner -e main \
// RUN:       -entry-point-result=void -shared-libs=%mlir_runner_libs,%mplan_runtime \
// RUN:   | FileCheck %s --check-prefix=GLOBAL
// RUN: mlir-opt %S/Inputs/arena-chain.mlir %bufferize_fb %out_params \
// RUN:   | mplan-opt --mplan-plan-pipeline --convert-mplan-to-memref="arena=stack" \
// RUN:       --mplan-instrument --mplan-to-llvm \
// RUN:   | env MPLAN_RT_OUTPUT=stdout MPLAN_RT_JSON=%t.json mlir-runner -e main \
// RUN:       -entry-point-result=void -shared-libs=%mlir_runner_libs,%mplan_runtime \
// RUN:   | FileCheck %s --check-prefix=STACK
// RUN: %python -c "import json,sys; d=json.load(open(sys.argv[1])); f={x['name']: x for x in d['functions']}; print('json', d['errors'], f['compute']['calls'], f['compute']['heap_allocs'], f['compute']['stack_allocs'])" %t.json \
// RUN:   | FileCheck %s --check-prefix=JSON

// Four intermediates of @compute are 8x32 or 8x16 f32 (1 KiB, 1 KiB, 512 B, 512 B); the
// baseline mallocs and frees each of them on every call. Planned, in-place reuse writes two
// of them over inputs that die there: two planned buffers a call.
// BASE: -3.274
// BASE: mplan-rt: planned buffers 0, errors 0
// BASE: mplan-rt: @compute: calls 2, heap allocs 8 (4.00/call), frees 8, stack allocs 0, static arenas 0, planned buffers 0, peak 3072 B above entry
// BASE: mplan-rt: site {{.*}} memref.alloc: heap alloc x2, 2048 B total, 1024 B max

// HEAP: -3.274
// HEAP: mplan-rt: planned buffers {{[0-9]+}}, errors 0
// HEAP: mplan-rt: @compute: calls 2, heap allocs 2 (1.00/call), frees 2, stack allocs 0, static arenas 0, planned buffers 4, peak [[ARENA:[0-9]+]] B above entry
// HEAP: mplan-rt: site {{.*}} memref.view: planned buffer 0 at [0, 1024) of a [[ARENA]]-byte arena, live [{{[0-9]+}}, {{[0-9]+}}), x2

// GLOBAL: -3.274
// GLOBAL: mplan-rt: planned buffers {{[0-9]+}}, errors 0
// GLOBAL: mplan-rt: @compute: calls 2, heap allocs 0 (0.00/call), frees 0, stack allocs 0, static arenas 2, planned buffers 4,

// STACK: -3.274
// STACK: mplan-rt: @compute: calls 2, heap allocs 0 (0.00/call), frees 0, stack allocs 2, static arenas 0, planned buffers 4,

// JSON: json 0 2 0 2
