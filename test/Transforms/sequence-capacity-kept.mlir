// When no order fits a capacity, sequencing keeps program order and says why,
// unless program order is proven optimal for the capped space (issue 32).
// RUN: mplan-opt %s --mplan-capture-buffers="fold-views=1" --mplan-sequence="capacity=1:1024 remarks=true" -verify-diagnostics | FileCheck %s --check-prefix=SEQ
// RUN: mplan-opt %s --mplan-capture-buffers="fold-views=1" --mplan-sequence="capacity=1:1024 work-limit=0 remarks=true" --mlir-print-op-on-diagnostic=false 2>&1 | FileCheck %s --check-prefix=BUDGET

// Every order runs the second head while %x and the first head's output are
// live: space 1 needs 3072 bytes in any order. The exact search proves it,
// so program order stays as the optimal order (no remark; the planner's
// later steps may still fit it); when the search cannot prove it (no work
// budget), the sequencer says why it kept program order.
// SEQ-LABEL: func.func @no_order_fits
// SEQ-SAME: mplan.sequence_optimal
// SEQ-NOT: mplan.sequence_kept_because
// BUDGET: remark: mplan-sequence kept program order: no order found fits memory space '1' in its capacity of 1024 bytes (its bound stays at 3072 bytes): the search's work budget ran out before it found an order below program order's bound
// BUDGET-NEXT: func.func @no_order_fits
func.func @no_order_fits(%in: memref<256xf32>, %out: memref<256xf32>) {
  %x = memref.alloc() : memref<256xf32, 1>
  linalg.map { math.absf } ins(%in : memref<256xf32>) outs(%x : memref<256xf32, 1>)
  %a = memref.alloc() : memref<256xf32, 1>
  linalg.map { math.exp } ins(%x : memref<256xf32, 1>) outs(%a : memref<256xf32, 1>)
  %b = memref.alloc() : memref<256xf32, 1>
  linalg.map { math.sin } ins(%x : memref<256xf32, 1>) outs(%b : memref<256xf32, 1>)
  linalg.map { arith.addf } ins(%a, %b : memref<256xf32, 1>, memref<256xf32, 1>) outs(%out : memref<256xf32>)
  return
}
