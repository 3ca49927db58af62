// Alias scopes at -O3 (mplan-to-llvm's default): LLVM may reorder and vectorize the accesses
// of arena buffers with disjoint bytes, so the planned programs, compiled by mlir-runner -O3
// with their scopes, must print exactly what the unplanned program prints, for every arena
// kind. models/ext_llm_decode_small.mlir writes its KV-cache arguments in place and reads them
// back (accesses outside the arena between accesses to arena buffers that reuse bytes);
// models/attention.mlir reuses bytes heavily. models/mlp.mlir has the strided float reductions
// whose accumulators stay unscoped, so its stack and global arenas are reached through an opaque
// copy of their pointer (mplan-buffer-alias-scopes).
//
// RUN: mlir-opt %models/ext_llm_decode_small.mlir %bufferize_fb %baseline_dealloc \
// RUN:   | mlir-opt %lower_to_llvm \
// RUN:   | mlir-runner -O3 -e main -entry-point-result=void -shared-libs=%mlir_runner_libs \
// RUN:   | %normalize_addr > %t.llm.base
// RUN: mlir-opt %models/ext_llm_decode_small.mlir %bufferize_fb \
// RUN:   | mplan-opt --mplan-plan-pipeline -o %t.llm.plan.mlir
// RUN: mplan-opt %t.llm.plan.mlir --convert-mplan-to-memref="arena=heap" --mplan-to-llvm > %t.llm.heap.mlir
// RUN: FileCheck %s --check-prefix=SCOPES < %t.llm.heap.mlir
// RUN: mlir-runner -O3 -e main -entry-point-result=void -shared-libs=%mlir_runner_libs %t.llm.heap.mlir \
// RUN:   | %normalize_addr | diff %t.llm.base -
// RUN: mplan-opt %t.llm.plan.mlir --convert-mplan-to-memref="arena=stack" --mplan-to-llvm \
// RUN:   | mlir-runner -O3 -e main -entry-point-result=void -shared-libs=%mlir_runner_libs \
// RUN:   | %normalize_addr | diff %t.llm.base -
// RUN: mplan-opt %t.llm.plan.mlir --convert-mplan-to-memref="arena=global" --mplan-to-llvm \
// RUN:   | mlir-runner -O3 -e main -entry-point-result=void -shared-libs=%mlir_runner_libs \
// RUN:   | %normalize_addr | diff %t.llm.base -
// RUN: mplan-opt %t.llm.plan.mlir --convert-mplan-to-memref="arena=argument functions=model" \
// RUN:   --mplan-to-llvm \
// RUN:   | mlir-runner -O3 -e main -entry-point-result=void -shared-libs=%mlir_runner_libs \
// RUN:   | %normalize_addr | diff %t.llm.base -
//
// RUN: mlir-opt %models/attention.mlir %bufferize_fb %baseline_dealloc \
// RUN:   | mlir-opt %lower_to_llvm \
// RUN:   | mlir-runner -O3 -e main -entry-point-result=void -shared-libs=%mlir_runner_libs \
// RUN:   | %normalize_addr > %t.att.base
// RUN: mlir-opt %models/attention.mlir %bufferize_fb \
// RUN:   | mplan-opt --mplan-plan-pipeline --convert-mplan-to-memref="arena=heap" --mplan-to-llvm \
// RUN:   | mlir-runner -O3 -e main -entry-point-result=void -shared-libs=%mlir_runner_libs \
// RUN:   | %normalize_addr | diff %t.att.base -
// RUN: mlir-opt %models/attention.mlir %bufferize_fb \
// RUN:   | mplan-opt --mplan-plan-pipeline="inplace=true sequence=best" \
// RUN:     --convert-mplan-to-memref="arena=global" --mplan-to-llvm \
// RUN:   | mlir-runner -O3 -e main -entry-point-result=void -shared-libs=%mlir_runner_libs \
// RUN:   | %normalize_addr | diff %t.att.base -
//
// RUN: mlir-opt %models/mlp.mlir %bufferize_fb %baseline_dealloc \
// RUN:   | mlir-opt %lower_to_llvm \
// RUN:   | mlir-runner -O3 -e main -entry-point-result=void -shared-libs=%mlir_runner_libs \
// RUN:   | %normalize_addr > %t.mlp.base
// RUN: mlir-opt %models/mlp.mlir %bufferize_fb | mplan-opt --mplan-plan-pipeline -o %t.mlp.plan.mlir
// RUN: mplan-opt %t.mlp.plan.mlir --convert-mplan-to-memref="arena=stack" --mplan-to-llvm > %t.mlp.stack.mlir
// RUN: FileCheck %s --check-prefix=HIDDEN < %t.mlp.stack.mlir
// RUN: mlir-runner -O3 -e main -entry-point-result=void -shared-libs=%mlir_runner_libs %t.mlp.stack.mlir \
// RUN:   | %normalize_addr | diff %t.mlp.base -
// RUN: mplan-opt %t.mlp.plan.mlir --convert-mplan-to-memref="arena=global" --mplan-to-llvm \
// RUN:   | mlir-runner -O3 -e main -entry-point-result=void -shared-libs=%mlir_runner_libs \
// RUN:   | %normalize_addr | diff %t.mlp.base -

// HIDDEN-LABEL: llvm.func @model
// HIDDEN: %[[ARENA:.*]] = llvm.alloca
// HIDDEN-NEXT: llvm.inline_asm "", "=r,0" %[[ARENA]] : (!llvm.ptr) -> !llvm.ptr

// The planned @model carries scopes: its loads of the cache arguments are outside the arena.
// SCOPES: #{{alias_scope[0-9]*}} = #llvm.alias_scope<{{.*}}description = "outside the arenas">
// SCOPES-LABEL: llvm.func @model
// SCOPES: llvm.load {{.*}}alias_scopes = [#alias_scope
