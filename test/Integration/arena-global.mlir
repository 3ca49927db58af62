// arena=global on a small program nobody tuned the planner to (Inputs/arena-chain.mlir): the
// planned program prints exactly what upstream's unplanned program prints, and the lowered
// @compute allocates as the arena kind promises.
//
// RUN: mlir-opt %S/Inputs/arena-chain.mlir %bufferize_fb %out_params %baseline_dealloc \
// RUN:   | mlir-opt %lower_to_llvm \
// RUN:   | mlir-runner -e main -entry-point-result=void -shared-libs=%mlir_runner_libs \
// RUN:   | %normalize_addr > %t.base
// RUN: mlir-opt %S/Inputs/arena-chain.mlir %bufferize_fb %out_params \
// RUN:   | mplan-opt --mplan-plan-pipeline --convert-mplan-to-memref="arena=global" > %t.mlir
// RUN: FileCheck %s --check-prefix=IR < %t.mlir
// RUN: mplan-opt %t.mlir --mplan-to-llvm \
// RUN:   | mlir-runner -e main -entry-point-result=void -shared-libs=%mlir_runner_libs \
// RUN:   | %normalize_addr > %t.plan
// RUN: diff %t.base %t.plan
// RUN: FileCheck %s --check-prefix=OUT < %t.plan

// OUT: -3.274
// OUT: sizes = [8, 16]
// OUT-NEXT: {{\[\[}}0.0889

// A private, aligned, uninitialized global per function; no allocation at all.
// IR: memref.global "private" @__mplan_arena_compute : memref<[[N:[0-9]+]]xi8> = uninitialized {alignment = 64 : i64}
// IR-LABEL: func.func @compute(
// IR: %[[A:.*]] = memref.get_global @__mplan_arena_compute : memref<[[N]]xi8>
// IR-NOT: memref.alloc
// IR-COUNT-2: memref.view %[[A]]
// IR-NOT: memref.alloc
// IR-NOT: memref.dealloc
// IR: return
// IR-NEXT: }
// IR-LABEL: func.func @main(
