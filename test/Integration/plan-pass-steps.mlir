// mplan-plan (what mplan-plan-pipeline runs after mplan-mark-calls) does in one pass what
// capture{fold-views}, elide-copies, mplan-sequence, mplan-inplace and plan-buffers do one
// after the other: same IR, same report, with its defaults (peak-guard=all, sequence=best,
// in-place reuse on), with the earlier defaults (sequence=program inplace=false
// peak-guard=views: no sequencing) and without views-and-copies, on a pad/concat CNN and on
// a program whose @main calls @model with buffers it allocates (the calls are marked first).
//
// RUN: mlir-opt %models/pad_concat_cnn.mlir %bufferize_fb > %t.cnn
// RUN: mplan-opt %t.cnn --mplan-mark-calls --mplan-plan="report=%t.one.json" > %t.one
// RUN: mplan-opt %t.cnn --pass-pipeline="builtin.module(mplan-mark-calls,func.func(mplan-capture-buffers{fold-views=true},mplan-elide-copies{peak-guard=all},mplan-sequence,mplan-inplace),mplan-plan-buffers{report=%t.steps.json})" > %t.steps
// RUN: diff %t.one %t.steps
// RUN: diff %t.one.json %t.steps.json
// RUN: mplan-opt %t.cnn --mplan-plan-pipeline="report=%t.pipe.json" > %t.pipe
// RUN: diff %t.one %t.pipe
// RUN: diff %t.one.json %t.pipe.json
// RUN: mplan-opt %t.cnn --mplan-mark-calls --mplan-plan="sequence=program inplace=false peak-guard=views report=%t.one.json" > %t.one
// RUN: mplan-opt %t.cnn --pass-pipeline="builtin.module(mplan-mark-calls,func.func(mplan-capture-buffers{fold-views=true},mplan-elide-copies),mplan-plan-buffers{report=%t.steps.json})" > %t.steps
// RUN: diff %t.one %t.steps
// RUN: diff %t.one.json %t.steps.json
// RUN: mplan-opt %t.cnn --mplan-plan="views-and-copies=false" > %t.one
// RUN: mplan-opt %t.cnn --pass-pipeline="builtin.module(func.func(mplan-capture-buffers,mplan-sequence,mplan-inplace),mplan-plan-buffers)" > %t.steps
// RUN: diff %t.one %t.steps
// RUN: mplan-opt %t.cnn --mplan-plan="sequence=program inplace=false views-and-copies=false" > %t.one
// RUN: mplan-opt %t.cnn --pass-pipeline="builtin.module(func.func(mplan-capture-buffers),mplan-plan-buffers)" > %t.steps
// RUN: diff %t.one %t.steps
// RUN: mplan-opt %t.cnn --mplan-plan="peak-guard=views" > %t.one
// RUN: mplan-opt %t.cnn --pass-pipeline="builtin.module(func.func(mplan-capture-buffers{fold-views=true},mplan-elide-copies{peak-guard=views},mplan-sequence,mplan-inplace),mplan-plan-buffers)" > %t.steps
// RUN: diff %t.one %t.steps
//
// RUN: mlir-opt %models/ext_llm_decode_small.mlir %bufferize_fb > %t.llm
// RUN: mplan-opt %t.llm --mplan-mark-calls --mplan-plan="report=%t.one.json" > %t.one
// RUN: mplan-opt %t.llm --pass-pipeline="builtin.module(mplan-mark-calls,func.func(mplan-capture-buffers{fold-views=true},mplan-elide-copies{peak-guard=all},mplan-sequence,mplan-inplace),mplan-plan-buffers{report=%t.steps.json})" > %t.steps
// RUN: diff %t.one %t.steps
// RUN: diff %t.one.json %t.steps.json
// RUN: FileCheck %s --input-file=%t.one
// RUN: mplan-opt %t.llm --mplan-mark-calls --mplan-plan="sequence=program inplace=false peak-guard=views report=%t.one.json" > %t.one
// RUN: mplan-opt %t.llm --pass-pipeline="builtin.module(mplan-mark-calls,func.func(mplan-capture-buffers{fold-views=true},mplan-elide-copies),mplan-plan-buffers{report=%t.steps.json})" > %t.steps
// RUN: diff %t.one %t.steps
// RUN: diff %t.one.json %t.steps.json

// CHECK-LABEL: func.func @model
// CHECK:         mplan.alloc_slab
