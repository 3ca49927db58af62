// arena=argument: @compute takes its arena from its caller. @main (planned itself, its own
// arena on the heap) passes a slice of its arena, planned like any of its buffers: live
// exactly at each call, placed around @main's buffers that live across the calls. The
// program prints what upstream's unplanned program prints, @compute allocates nothing,
// and the observer sees no two live buffers of @main overlap with the slices.
//
// RUN: mlir-opt %S/Inputs/arena-chain.mlir %bufferize_fb %out_params %baseline_dealloc \
// RUN:   | mlir-opt %lower_to_llvm \
// RUN:   | mlir-runner -e main -entry-point-result=void -shared-libs=%mlir_runner_libs \
// RUN:   | %normalize_addr > %t.base
// RUN: mlir-opt %S/Inputs/arena-chain.mlir %bufferize_fb %out_params \
// RUN:   | mplan-opt --mplan-plan-pipeline \
// RUN:       --convert-mplan-to-memref="arena=argument functions=compute" > %t.mlir
// RUN: FileCheck %s --check-prefix=IR < %t.mlir
// RUN: mplan-opt %t.mlir --mplan-to-llvm \
// RUN:   | mlir-runner -e main -entry-point-result=void -shared-libs=%mlir_runner_libs \
// RUN:   | %normalize_addr > %t.plan
// RUN: diff %t.base %t.plan
// RUN: FileCheck %s --check-prefix=OUT < %t.plan
// RUN: mplan-opt %t.mlir --mplan-instrument --mplan-to-llvm \
// RUN:   | env MPLAN_RT_OUTPUT=stdout mlir-runner -e main -entry-point-result=void \
// RUN:       -shared-libs=%mlir_runner_libs,%mplan_runtime \
// RUN:   | FileCheck %s --check-prefix=RT
// REQUIRES: mplan-runtime

// OUT: -3.274
// OUT: sizes = [8, 16]
// OUT-NEXT: {{\[\[}}0.0889

// IR-LABEL: func.func @compute(
// IR-SAME: %[[ARENA:[a-z0-9]+]]: memref<[[N:[0-9]+]]xi8> {llvm.noalias, mplan.arena})
// IR-SAME: attributes {mplan.arena_alignment = 64 : i64, mplan.arena_size = [[N]] : i64, mplan.inplace = [{{.*}}], mplan.lower_bound_program_order = {{[0-9]+}} : i64, mplan.sequence_optimal}
// IR: %[[A:.*]] = memref.assume_alignment %[[ARENA]], 64
// IR-NOT: memref.alloc
// The four intermediates are two views of the arena (in-place reuse merges two pairs).
// IR-COUNT-2: memref.view %[[A]]
// IR-NOT: memref.alloc
// IR-NOT: memref.dealloc
// IR: return
// IR-NEXT: }
// IR-LABEL: func.func @compute_arena_size() -> index {
// IR-NEXT: %[[C:.*]] = arith.constant [[N]] : index
// IR-NEXT: return %[[C]] : index
// IR-LABEL: func.func @main(
// IR: %[[MAIN:.*]] = memref.alloc() {alignment = 64 : i64, mplan.arena} : memref<[[M:[0-9]+]]xi8>
// IR: %[[S1:.*]] = memref.view %[[MAIN]][%{{.*}}][] {{.*}} : memref<[[M]]xi8> to memref<[[N]]xi8>
// IR-NEXT: call @compute({{.*}}, %[[S1]]) {{.*}}: ({{.*}}, memref<[[N]]xi8>) -> ()
// IR: %[[S2:.*]] = memref.view %[[MAIN]][%{{.*}}][] {{.*}} : memref<[[M]]xi8> to memref<[[N]]xi8>
// IR-NEXT: call @compute({{.*}}, %[[S2]]) {{.*}}: ({{.*}}, memref<[[N]]xi8>) -> ()
// IR: memref.dealloc %[[MAIN]]

// RT: -3.274
// RT: mplan-rt: ---- memory summary ----
// RT: argument arenas 2
// RT: planned buffers {{[0-9]+}}, errors 0
// RT: mplan-rt: @compute: calls 2, heap allocs 0 (0.00/call), frees 0, stack allocs 0, static arenas 0, planned buffers 4,
