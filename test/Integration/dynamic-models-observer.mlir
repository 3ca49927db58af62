// The dynamic-shape zoo models under the memory observer and the opt-in bound check
// (issue 15): at every size within the bound no check fires (exit status 0, no error), the
// output is what the unplanned program prints, and @model allocates on the heap only its arena
// and its returned buffer.
// REQUIRES: mplan-runtime
//
// RUN: mlir-opt %models/decoder_step.mlir %bufferize_fb %baseline_dealloc \
// RUN:   | mlir-opt %lower_to_llvm \
// RUN:   | mlir-runner -e main -entry-point-result=void -shared-libs=%mlir_runner_libs \
// RUN:   | %normalize_addr > %t.decoder.base
// RUN: mlir-opt %models/decoder_step.mlir %bufferize_fb \
// RUN:   | mplan-opt --mplan-plan-pipeline="check-bounds=true" --convert-mplan-to-memref="arena=heap" \
// RUN:       --mplan-instrument --mplan-to-llvm \
// RUN:   | mlir-runner -e main -entry-point-result=void -shared-libs=%mlir_runner_libs,%mplan_runtime \
// RUN:       2> %t.decoder.err | %normalize_addr > %t.decoder.obs
// RUN: diff %t.decoder.base %t.decoder.obs
// RUN: FileCheck %s --check-prefix=DECODER < %t.decoder.err
// RUN: mlir-opt %models/cnn_dynamic_batch.mlir %bufferize_fb %baseline_dealloc \
// RUN:   | mlir-opt %lower_to_llvm \
// RUN:   | mlir-runner -e main -entry-point-result=void -shared-libs=%mlir_runner_libs \
// RUN:   | %normalize_addr > %t.cnn.base
// RUN: mlir-opt %models/cnn_dynamic_batch.mlir %bufferize_fb \
// RUN:   | mplan-opt --mplan-plan-pipeline="check-bounds=true" --convert-mplan-to-memref="arena=heap" \
// RUN:       --mplan-instrument --mplan-to-llvm \
// RUN:   | mlir-runner -e main -entry-point-result=void -shared-libs=%mlir_runner_libs,%mplan_runtime \
// RUN:       2> %t.cnn.err | %normalize_addr > %t.cnn.obs
// RUN: diff %t.cnn.base %t.cnn.obs
// RUN: FileCheck %s --check-prefix=CNN < %t.cnn.err

// DECODER-NOT: error
// DECODER:     mplan-rt: planned buffers {{[0-9]+}}, errors 0
// DECODER:     mplan-rt: @model: calls 3, heap allocs 6 (2.00/call), frees 3,
// DECODER-NOT: error
// CNN-NOT:     error
// CNN:         mplan-rt: planned buffers {{[0-9]+}}, errors 0
// CNN:         mplan-rt: @model: calls 3, heap allocs 6 (2.00/call), frees 3,
// CNN-NOT:     error
