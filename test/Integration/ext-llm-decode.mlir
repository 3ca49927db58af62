// End to end on the decode step of a Llama-style LLM (models/ext_llm_decode_small.mlir,
// models/gen_external.py: 3 layers here, 28 in models/ext_llm_decode.mlir). The KV caches are
// function arguments updated in place by tensor.insert_slice, so after One-Shot Bufferize the new
// keys and values are memref.copy'd into subviews of the arguments; the attention then reads the
// arguments. Weights are stacked per kind and sliced per layer (subviews of arguments), rotary
// embedding goes through extract_slice and tensor.concat / insert_slice. The plan verifies, the
// arena equals the max-live lower bound, only the returned logits are unplanned, the copies into
// the caches stay, and heap, stack and argument arenas print what the unplanned program prints.
//
// RUN: mlir-opt %models/ext_llm_decode_small.mlir %bufferize_fb %baseline_dealloc \
// RUN:   | mlir-opt %lower_to_llvm \
// RUN:   | mlir-runner -e main -entry-point-result=void -shared-libs=%mlir_runner_libs \
// RUN:   | %normalize_addr > %t.base
// RUN: FileCheck %s < %t.base
// RUN: mlir-opt %models/ext_llm_decode_small.mlir %bufferize_fb -o %t.buf.mlir
// RUN: mplan-opt %t.buf.mlir --mplan-plan-pipeline="report=%t.json" --mplan-verify-plan -o %t.plan.mlir
// RUN: FileCheck %s --check-prefix=REPORT < %t.json
// RUN: FileCheck %s --check-prefix=IR < %t.plan.mlir
// RUN: grep -c "memref.copy .* to memref<2x1x16xf32, strided<\[128, 16, 1\], offset: 80>>" %t.plan.mlir \
// RUN:   | FileCheck %s --check-prefix=CACHE
// RUN: grep -c "memref.copy" %t.plan.mlir | FileCheck %s --check-prefix=COPIES
// RUN: mplan-opt %t.plan.mlir --convert-mplan-to-memref="arena=heap" --mplan-to-llvm \
// RUN:   | mlir-runner -e main -entry-point-result=void -shared-libs=%mlir_runner_libs \
// RUN:   | %normalize_addr > %t.heap
// RUN: diff %t.base %t.heap
// RUN: mplan-opt %t.plan.mlir --convert-mplan-to-memref="arena=stack" --mplan-to-llvm \
// RUN:   | mlir-runner -e main -entry-point-result=void -shared-libs=%mlir_runner_libs \
// RUN:   | %normalize_addr > %t.stack
// RUN: diff %t.base %t.stack
// RUN: mplan-opt %t.plan.mlir --convert-mplan-to-memref="arena=argument functions=model" --mplan-to-llvm \
// RUN:   | mlir-runner -e main -entry-point-result=void -shared-libs=%mlir_runner_libs \
// RUN:   | %normalize_addr > %t.arg
// RUN: diff %t.base %t.arg

// The frontend's own cleanup before bufferization (CSE shares one zero fill between the
// accumulators, which One-Shot Bufferize then copies into each; mplan turns those copies
// back into fills): same output.
// RUN: mlir-opt %models/ext_llm_decode_small.mlir --canonicalize --linalg-fuse-elementwise-ops --cse %bufferize_fb \
// RUN:   | mplan-opt --mplan-plan-pipeline --mplan-verify-plan --convert-mplan-to-memref="arena=heap" --mplan-to-llvm \
// RUN:   | mlir-runner -e main -entry-point-result=void -shared-libs=%mlir_runner_libs \
// RUN:   | %normalize_addr > %t.fused
// RUN: diff %t.base %t.fused

// CHECK: model ext_llm_decode_small output 1x32
// CHECK-NEXT: sum 0.8345
// CHECK-NEXT: sumsq 10.15

// REPORT:      "name": "model",
// REPORT-NEXT: "strategy":
// REPORT-NEXT: "arena_bytes": [[ARENA:[0-9]+]],
// REPORT-NEXT: "lower_bound_bytes": [[ARENA]],
// REPORT:      "unmanaged": [
// REPORT-NEXT:   {
// REPORT-NEXT:     "loc":
// REPORT-NEXT:     "reason": "escapes via return"
// REPORT-NEXT:   }
// REPORT-NEXT: ]

// Per layer, the new key and value go into the argument caches (two copies each
// into a subview of an argument) and the queries' rotate-half keeps the copy of
// one half of the projection (a part of a buffer that is also read whole); the
// keys' tensor.concat parts are written in place.
// IR-LABEL: func.func @model
// IR-SAME:    mplan.copies_removed = 6
// IR:         memref.copy {{.*}} to memref<2x1x16xf32, strided<[128, 16, 1], offset: 80>>
// IR:         return
// CACHE: {{^}}6{{$}}
// COPIES: {{^}}12{{$}}
