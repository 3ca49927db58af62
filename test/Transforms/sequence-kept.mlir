// Every path on which mplan-sequence keeps program order for another reason
// than its being optimal says why: a remark under remarks=true and the
// report's sequence_kept_because (issue 32).
// RUN: mplan-opt %s --split-input-file --mplan-capture-buffers="fold-views=1" --mplan-sequence="remarks=true" -verify-diagnostics | FileCheck %s
// RUN: mplan-opt %s --split-input-file --mplan-capture-buffers="fold-views=1" --mplan-sequence="remarks=true work-limit=0" --mlir-print-op-on-diagnostic=false 2>&1 >/dev/null | FileCheck %s --check-prefix=BUDGET
// RUN: mplan-opt %s --split-input-file --mplan-capture-buffers="fold-views=1" --mplan-sequence="remarks=true mode=greedy" --mlir-print-op-on-diagnostic=false 2>&1 >/dev/null | FileCheck %s --check-prefix=GREEDY
// RUN: mplan-opt %s --mplan-plan-pipeline="sequence=best inplace=false report=%t.json" --mplan-verify-plan > /dev/null
// RUN: FileCheck %s --check-prefix=JSON < %t.json

// Program order is optimal (every order runs the second head while x and
// the first head's output are live), which the exact search proves; the
// list schedulers alone (sequence=greedy, or no work budget) do not.
// CHECK-LABEL: func @diamond
// CHECK-SAME: mplan.sequence_optimal
// BUDGET: remark: mplan-sequence kept program order: the search's work budget ran out before it found an order below program order's bound
// GREEDY: remark: mplan-sequence kept program order: the list schedulers found no lower order (sequence=greedy proves nothing)
// JSON: "name": "diamond"
func.func @diamond(%in: memref<256xf32>, %out: memref<256xf32>) {
  %x = memref.alloc() : memref<256xf32>
  linalg.map { math.absf } ins(%in : memref<256xf32>) outs(%x : memref<256xf32>)
  %a = memref.alloc() : memref<256xf32>
  linalg.map { math.exp } ins(%x : memref<256xf32>) outs(%a : memref<256xf32>)
  %b = memref.alloc() : memref<256xf32>
  linalg.map { math.sin } ins(%x : memref<256xf32>) outs(%b : memref<256xf32>)
  linalg.map { arith.addf } ins(%a, %b : memref<256xf32>, memref<256xf32>) outs(%out : memref<256xf32>)
  return
}

// -----

// The only orders that lower the default space's bound run the reduction
// of %a (which needs %p2) before the second reader of %p1: both 1 KiB
// buffers of memory space 1 would be live at once.
// CHECK-LABEL: func @space_forced
// CHECK-SAME: mplan.sequence_kept_because = "the order found raises the bound of memory space '1' from 1024 to 2048 bytes"
// JSON: "name": "space_forced"
// JSON: "sequence_kept_because": "the order found raises the bound of memory space '1' from 1024 to 2048 bytes"
// expected-remark @below {{mplan-sequence kept program order: the order found raises the bound of memory space '1' from 1024 to 2048 bytes}}
func.func @space_forced(%in: memref<256xf32>, %out: memref<2xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %x = memref.alloc() : memref<256xf32>
  linalg.map { math.absf } ins(%in : memref<256xf32>) outs(%x : memref<256xf32>)
  %p1 = memref.alloc() : memref<256xf32, 1>
  linalg.map { math.sin } ins(%in : memref<256xf32>) outs(%p1 : memref<256xf32, 1>)
  %a = memref.alloc() : memref<256xf32>
  linalg.map { arith.mulf } ins(%x, %p1 : memref<256xf32>, memref<256xf32, 1>) outs(%a : memref<256xf32>)
  %b = memref.alloc() : memref<256xf32>
  linalg.map { arith.addf } ins(%x, %p1 : memref<256xf32>, memref<256xf32, 1>) outs(%b : memref<256xf32>)
  %p2 = memref.alloc() : memref<256xf32, 1>
  linalg.map { math.cos } ins(%in : memref<256xf32>) outs(%p2 : memref<256xf32, 1>)
  %c = memref.alloc() : memref<f32>
  linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>, affine_map<(d0) -> ()>], iterator_types = ["reduction"]} ins(%a, %p2 : memref<256xf32>, memref<256xf32, 1>) outs(%c : memref<f32>) {
  ^bb0(%e: f32, %f: f32, %acc: f32):
    %s = arith.addf %e, %f : f32
    %t = arith.addf %s, %acc : f32
    linalg.yield %t : f32
  }
  %d = memref.alloc() : memref<f32>
  linalg.reduce { arith.addf } ins(%b : memref<256xf32>) outs(%d : memref<f32>) dimensions = [0]
  %vc = memref.load %c[] : memref<f32>
  %vd = memref.load %d[] : memref<f32>
  memref.store %vc, %out[%c0] : memref<2xf32>
  memref.store %vd, %out[%c1] : memref<2xf32>
  return
}

// -----

// The same with run-time sized buffers: they would overlap (and their
// run-time arena grow).
// CHECK-LABEL: func @dynamic_forced
// CHECK-SAME: mplan.sequence_kept_because = "the order found makes two run-time sized buffers that are disjoint in program order overlap"
// JSON: "name": "dynamic_forced"
// JSON: "sequence_kept_because": "the order found makes two run-time sized buffers
// expected-remark @below {{the order found makes two run-time sized buffers that are disjoint in program order overlap}}
func.func @dynamic_forced(%in: memref<256xf32>, %out: memref<2xf32>, %n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %one = arith.constant 1.0 : f32
  %x = memref.alloc() : memref<256xf32>
  linalg.map { math.absf } ins(%in : memref<256xf32>) outs(%x : memref<256xf32>)
  %p1 = memref.alloc(%n) : memref<?xf32>
  linalg.fill ins(%one : f32) outs(%p1 : memref<?xf32>)
  %v1 = memref.subview %p1[0] [256] [1] : memref<?xf32> to memref<256xf32, strided<[1]>>
  %a = memref.alloc() : memref<256xf32>
  linalg.map { arith.mulf } ins(%x, %v1 : memref<256xf32>, memref<256xf32, strided<[1]>>) outs(%a : memref<256xf32>)
  %b = memref.alloc() : memref<256xf32>
  linalg.map { arith.addf } ins(%x, %v1 : memref<256xf32>, memref<256xf32, strided<[1]>>) outs(%b : memref<256xf32>)
  %p2 = memref.alloc(%n) : memref<?xf32>
  linalg.fill ins(%one : f32) outs(%p2 : memref<?xf32>)
  %c = memref.alloc() : memref<f32>
  %v2 = memref.subview %p2[0] [256] [1] : memref<?xf32> to memref<256xf32, strided<[1]>>
  linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>, affine_map<(d0) -> ()>], iterator_types = ["reduction"]} ins(%a, %v2 : memref<256xf32>, memref<256xf32, strided<[1]>>) outs(%c : memref<f32>) {
  ^bb0(%e: f32, %f: f32, %acc: f32):
    %s = arith.addf %e, %f : f32
    %t = arith.addf %s, %acc : f32
    linalg.yield %t : f32
  }
  linalg.reduce { arith.addf } ins(%b : memref<256xf32>) outs(%c : memref<f32>) dimensions = [0]
  %vc = memref.load %c[] : memref<f32>
  memref.store %vc, %out[%c0] : memref<2xf32>
  return
}

// -----

// CHECK-LABEL: func @cfg
// CHECK-SAME: mplan.sequence_kept_because = "the function body has more than one block (a CFG is not reordered)"
// JSON: "name": "cfg"
// JSON: "sequence_kept_because": "the function body has more than one block (a CFG is not reordered)"
// expected-remark @below {{mplan-sequence kept program order: the function body has more than one block}}
func.func @cfg(%in: memref<256xf32>, %out: memref<256xf32>, %c: i1) {
  %x = memref.alloc() : memref<256xf32>
  linalg.map { math.absf } ins(%in : memref<256xf32>) outs(%x : memref<256xf32>)
  cf.cond_br %c, ^bb1, ^bb2
^bb1:
  linalg.map { math.exp } ins(%x : memref<256xf32>) outs(%out : memref<256xf32>)
  cf.br ^bb2
^bb2:
  return
}
