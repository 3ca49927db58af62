// End to end: models/pad_concat_cnn.mlir (a DenseNet-style CNN: every conv input is a
// tensor.pad, every block output a concatenation). Planned with mplan (views folded, copies
// elided), by default and with peak-guard=views, it must print exactly what the unplanned
// baseline prints; and after the plan pipeline with peak-guard=views, one copy is left in
// @model: the one from the function argument into the first pad (the argument is not
// computed here, so it cannot be written in place).
//
// RUN: mlir-opt %models/pad_concat_cnn.mlir %bufferize_fb %baseline_dealloc \
// RUN:   | mlir-opt %lower_to_llvm \
// RUN:   | mlir-runner -e main -entry-point-result=void -shared-libs=%mlir_runner_libs \
// RUN:   | %normalize_addr > %t.base
// RUN: FileCheck %s < %t.base
// RUN: mlir-opt %models/pad_concat_cnn.mlir %bufferize_fb \
// RUN:   | mplan-opt --mplan-plan-pipeline --convert-mplan-to-memref="arena=heap" --mplan-to-llvm \
// RUN:   | mlir-runner -e main -entry-point-result=void -shared-libs=%mlir_runner_libs \
// RUN:   | %normalize_addr > %t.plan
// RUN: diff %t.base %t.plan
// RUN: mlir-opt %models/pad_concat_cnn.mlir %bufferize_fb \
// RUN:   | mplan-opt --mplan-plan-pipeline="peak-guard=views" --mplan-verify-plan > %t.views.mlir
// RUN: FileCheck %s --check-prefix=IR < %t.views.mlir
// RUN: mplan-opt %t.views.mlir --convert-mplan-to-memref="arena=heap" --mplan-to-llvm \
// RUN:   | mlir-runner -e main -entry-point-result=void -shared-libs=%mlir_runner_libs \
// RUN:   | %normalize_addr | diff %t.base -
// RUN: mlir-opt %models/pad_concat_cnn.mlir %bufferize_fb \
// RUN:   | mplan-opt --mplan-plan-pipeline --mplan-verify-plan \
// RUN:   | FileCheck %s --check-prefix=DEFAULT

// CHECK: model pad_concat_cnn output 1x10
// CHECK-NEXT: sum 0.00843
// CHECK-NEXT: sumsq 0.1251

// With peak-guard=views, every pad and concat copy of a computed tensor goes; the copy of
// the input argument into its padded buffer stays (the argument is not ours to place).
// IR-LABEL: func.func @model
// IR-NOT:     copies_kept_for_peak
// IR-SAME:    mplan.copies_removed = 36
// IR:         memref.copy %arg0
// IR-NOT:     memref.copy
// IR-NOT:     memref.subview
// IR:         return

// The default guard (peak-guard=all) keeps one concat copy whose elision would raise the
// max-live bound (arena 664,320 bytes instead of 713,472).
// DEFAULT-LABEL: func.func @model
// DEFAULT-SAME:    mplan.copies_kept_for_peak = 1
// DEFAULT-SAME:    mplan.copies_removed = 35
// DEFAULT:         mplan.alloc_slab : <664320, 64>
// DEFAULT:         memref.copy %arg0
// DEFAULT:         memref.copy
// DEFAULT-NOT:     memref.copy
// DEFAULT-NOT:     memref.subview
// DEFAULT:         return
