// End to end on a program in the style a TOSA exporter emits (models/ext_resnet18_tosa_small.mlir,
// models/gen_external.py: ResNet-18's structure with narrow layers): upstream tosa-to-linalg-named,
// tosa-to-linalg, tosa-to-arith, tosa-to-tensor, then One-Shot Bufferize. The plan verifies, the
// arena equals the max-live lower bound, the only buffer left unplanned is the returned one, the
// pad copies of computed tensors go (upstream's pad lowering materializes the padding constant
// after the producer), and the heap and global arenas print what the unplanned program prints.
//
// RUN: mlir-opt %models/ext_resnet18_tosa_small.mlir %tosa_to_linalg -o %t.linalg.mlir
// RUN: mlir-opt %t.linalg.mlir %bufferize_fb %baseline_dealloc \
// RUN:   | mlir-opt %lower_to_llvm \
// RUN:   | mlir-runner -e main -entry-point-result=void -shared-libs=%mlir_runner_libs \
// RUN:   | %normalize_addr > %t.base
// RUN: FileCheck %s < %t.base
// RUN: mlir-opt %t.linalg.mlir %bufferize_fb -o %t.buf.mlir
// RUN: mplan-opt %t.buf.mlir --mplan-plan-pipeline="report=%t.json" --mplan-verify-plan -o %t.plan.mlir
// RUN: FileCheck %s --check-prefix=REPORT < %t.json
// RUN: FileCheck %s --check-prefix=IR < %t.plan.mlir
// RUN: mplan-opt %t.plan.mlir --convert-mplan-to-memref="arena=heap" --mplan-to-llvm \
// RUN:   | mlir-runner -e main -entry-point-result=void -shared-libs=%mlir_runner_libs \
// RUN:   | %normalize_addr > %t.heap
// RUN: diff %t.base %t.heap
// RUN: mplan-opt %t.plan.mlir --convert-mplan-to-memref="arena=global" --mplan-to-llvm \
// RUN:   | mlir-runner -e main -entry-point-result=void -shared-libs=%mlir_runner_libs \
// RUN:   | %normalize_addr > %t.global
// RUN: diff %t.base %t.global

// CHECK: model ext_resnet18_tosa_small output 1x10
// CHECK-NEXT: sum 0.1135
// CHECK-NEXT: sumsq 0.3796

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

// The copy of the input argument into its padded buffer stays (the argument is
// not ours to place); every other pad copy goes.
// IR-LABEL: func.func @model
// IR-SAME:    mplan.copies_removed = 17
// IR:         memref.copy %arg0
// IR-NOT:     memref.copy
// IR:         return
