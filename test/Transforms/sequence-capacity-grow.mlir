// Fitting a capacity comes before every other space's bound (issue 32): a
// space without a capacity may grow when that is what fits a capped one,
// and when no order fits, the sequencer says why.
// RUN: mplan-opt %s --split-input-file --mplan-plan-pipeline="sequence=best capacity=1:1024 remarks=true" --mplan-verify-plan --mlir-print-op-on-diagnostic=false -verify-diagnostics | FileCheck %s
// RUN: mplan-opt %s --split-input-file --mplan-plan-pipeline="sequence=best" --mplan-verify-plan | FileCheck %s --check-prefix=NONE
// RUN: mplan-opt %s --split-input-file --mplan-capture-buffers="fold-views=1" --mplan-sequence="capacity=1:1024" | FileCheck %s --check-prefix=SEQ
// RUN: mplan-opt %s --split-input-file --mplan-capture-buffers="fold-views=1" --mplan-sequence="capacity=1:1024 work-limit=0 remarks=true" --mlir-print-op-on-diagnostic=false 2>&1 | FileCheck %s --check-prefix=BUDGET

// Every op reads or writes the arguments, so the generic runs first and
// the two writes of %out2 last. In program order %x (space 1) is live until
// the cos after %y is made: space 1 needs 2048 bytes and the default space
// 1024 (%e and %d disjoint). The only orders where %x and %y are disjoint
// run the cos before the add that makes %y, and so %d is live across the
// add that frees %e: fitting space 1 in 1024 bytes raises the default space
// from 1024 to 2048 bytes, which it has no capacity to refuse. Without a
// capacity the default space is the objective, and program order stays.
// CHECK-LABEL: func.func @grow
// CHECK-NOT: mplan.sequence_kept_because
// CHECK-DAG: mplan.alloc_slab : <2048, 64>
// CHECK-DAG: mplan.alloc_slab {capacity = 1024 : i64} : <1024, 64, 1 : i64>
// CHECK: linalg.map { math.cos }
// CHECK: linalg.map { arith.addf }
// NONE-LABEL: func.func @grow
// NONE-DAG: mplan.alloc_slab : <1024, 64>
// NONE-DAG: mplan.alloc_slab : <2048, 64, 1 : i64>
// NONE: linalg.map { arith.addf }
// NONE: linalg.map { math.cos }
// SEQ-LABEL: func.func @grow
// SEQ-NOT: mplan.sequence_kept_because
// SEQ: linalg.map { math.cos }
// SEQ: linalg.map { arith.addf }
func.func @grow(%in: memref<256xf32>, %out: memref<256xf32>, %out2: memref<256xf32>) {
  %x = memref.alloc() : memref<256xf32, 1>
  linalg.generic {indexing_maps = [affine_map<(i) -> (i)>, affine_map<(i) -> (i)>, affine_map<(i) -> (i)>],
                  iterator_types = ["parallel"]}
      ins(%in : memref<256xf32>) outs(%x, %out : memref<256xf32, 1>, memref<256xf32>) {
  ^bb0(%a: f32, %b: f32, %c: f32):
    %e = math.exp %a : f32
    linalg.yield %e, %a : f32, f32
  }
  %e = memref.alloc() : memref<256xf32>
  linalg.map { math.sin } ins(%in : memref<256xf32>) outs(%e : memref<256xf32>)
  %y = memref.alloc() : memref<256xf32, 1>
  linalg.map { arith.addf } ins(%out, %in : memref<256xf32>, memref<256xf32>) outs(%y : memref<256xf32, 1>)
  linalg.map { arith.mulf } ins(%e, %y : memref<256xf32>, memref<256xf32, 1>) outs(%out2 : memref<256xf32>)
  %d = memref.alloc() : memref<256xf32>
  linalg.map { math.cos } ins(%x : memref<256xf32, 1>) outs(%d : memref<256xf32>)
  linalg.generic {indexing_maps = [affine_map<(i) -> (i)>, affine_map<(i) -> (i)>],
                  iterator_types = ["parallel"]}
      ins(%d : memref<256xf32>) outs(%out2 : memref<256xf32>) {
  ^bb0(%a: f32, %b: f32):
    %s = arith.addf %a, %b : f32
    linalg.yield %s : f32
  }
  return
}

// -----

// Every order runs the second head while %x and the first head's output are
// live: space 1 needs 3072 bytes in any order. The exact search proves it,
// so program order stays as the optimal order (no remark) and the planner
// fails; when the search cannot prove it (no work budget), the sequencer
// says why it kept program order.
// SEQ-LABEL: func.func @no_order_fits
// SEQ-SAME: mplan.sequence_optimal
// SEQ-NOT: mplan.sequence_kept_because
// BUDGET: remark: mplan-sequence kept program order: no order found fits memory space '1' in its capacity of 1024 bytes (its bound stays at 3072 bytes): the search's work budget ran out before it found an order below program order's bound
// BUDGET-NEXT: func.func @no_order_fits
// expected-error @below {{memory space '1' of function 'no_order_fits' needs 3072 bytes}}
// expected-note @below {{3 buffers live at op}}
func.func @no_order_fits(%in: memref<256xf32>, %out: memref<256xf32>) {
  %x = memref.alloc() : memref<256xf32, 1>
  linalg.map { math.absf } ins(%in : memref<256xf32>) outs(%x : memref<256xf32, 1>)
  %a = memref.alloc() : memref<256xf32, 1>
  // expected-note @below {{the op floor is 2048 bytes}}
  linalg.map { math.exp } ins(%x : memref<256xf32, 1>) outs(%a : memref<256xf32, 1>)
  %b = memref.alloc() : memref<256xf32, 1>
  linalg.map { math.sin } ins(%x : memref<256xf32, 1>) outs(%b : memref<256xf32, 1>)
  linalg.map { arith.addf } ins(%a, %b : memref<256xf32, 1>, memref<256xf32, 1>) outs(%out : memref<256xf32>)
  return
}
