// The program of arena-shared-global.mlir under the memory observer: @prefill, @decode
// (through @step) and @main's call of @shared use the one shared global from offset 0, one
// after another; @shared's body (@__mplan_body_shared, which @shared, public, wraps) gets
// its arena as an argument every time (from a slice of its caller's arena or the global),
// allocates nothing, and no two planned buffers that are live at once overlap.
//
// RUN: mplan-opt %S/arena-shared-global.mlir --mplan-plan-pipeline \
// RUN:     --convert-mplan-to-memref="arena=shared-global" 2>/dev/null \
// RUN:   | mplan-opt --mplan-instrument --mplan-to-llvm \
// RUN:   | env MPLAN_RT_OUTPUT=stdout mlir-runner -e main -entry-point-result=void \
// RUN:       -shared-libs=%mlir_runner_libs,%mplan_runtime \
// RUN:   | FileCheck %s
// REQUIRES: mplan-runtime

// CHECK: mplan-rt: ---- memory summary ----
// CHECK: argument arenas 3
// CHECK: planned buffers 10, errors 0
// CHECK: @prefill: calls 1, heap allocs 0 {{.*}}, static arenas 1,
// CHECK: @__mplan_body_shared: calls 3, heap allocs 0 {{.*}}, static arenas 0,
// CHECK: @step: calls 1, heap allocs 0
// CHECK: @decode: calls 1, heap allocs 0 {{.*}}, static arenas 1,
