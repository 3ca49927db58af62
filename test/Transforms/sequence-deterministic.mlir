// The order mplan-sequence picks is the same in every run (issue 32): the
// dependence graph's edges no longer come in the order of hashed pointers
// (which placed the ops left out of the problem differently from run to
// run), and the searches stop at a work budget, not at a time limit.
// RUN: %python %mplan_src_root/bench/sequence/gen.py inception > %t.in.mlir
// RUN: mlir-opt %t.in.mlir --one-shot-bufferize="bufferize-function-boundaries function-boundary-type-conversion=identity-layout-map" -o %t.mlir
// RUN: mplan-opt %t.mlir --mplan-capture-buffers="fold-views=1" --mplan-sequence -o %t.1
// RUN: mplan-opt %t.mlir --mplan-capture-buffers="fold-views=1" --mplan-sequence -o %t.2
// RUN: mplan-opt %t.mlir --mplan-capture-buffers="fold-views=1" --mplan-sequence -o %t.3
// RUN: mplan-opt %t.mlir --mplan-capture-buffers="fold-views=1" --mplan-sequence -o %t.4
// RUN: mplan-opt %t.mlir --mplan-capture-buffers="fold-views=1" --mplan-sequence -o %t.5
// RUN: cmp %t.1 %t.2
// RUN: cmp %t.1 %t.3
// RUN: cmp %t.1 %t.4
// RUN: cmp %t.1 %t.5
// RUN: FileCheck %s < %t.1
// CHECK: mplan.lower_bound_program_order
