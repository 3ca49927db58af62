// RUN: mplan-opt %s --mplan-plan-pipeline="capacity=default:64 report=%t.json" \
// RUN:   --mplan-verify-plan | FileCheck %s
// RUN: FileCheck %s --check-prefix=REPORT < %t.json
// RUN: mplan-opt %s --mplan-capture-buffers --mplan-plan-buffers="capacity=0:64" \
// RUN:   | FileCheck %s
// RUN: mplan-opt %s --mplan-plan-pipeline | FileCheck %s --check-prefix=NOCAP

// A capacity counts everything that can occupy its space (issue 30): a run-time sized
// buffer would grow the capped slab at run time (the slab's static 64 bytes were
// accepted under capacity=default:64 while the arena grew with %n), so in a space with a
// capacity it gets its own allocation outside the slab: a memref.alloc of its sizes at
// the function's start, freed before every return, marked unplanned with the reason,
// which the report lists in `unmanaged`. The slab records its capacity.
// CHECK-LABEL: func.func @mixed(
// CHECK:       %[[D:.*]] = memref.alloc(%arg0) {mplan.unplanned = "run-time sized in memory space 'default', which has a capacity of 64 bytes: allocated on its own (memref.alloc at the function's start, freed at its returns), outside the capped slab"} : memref<?xf32>
// CHECK:       %[[SLAB:.*]] = mplan.alloc_slab {capacity = 64 : i64} : <64, 64>
// CHECK-NOT:   mplan.alloc_dynamic
// CHECK:       mplan.alloc_tensor id(0) live [{{.*}}) at %[[SLAB]][0]
// CHECK:       scf.for
// CHECK:         linalg.fill ins(%{{.*}} : f32) outs(%[[D]] : memref<?xf32>)
// CHECK:       mplan.release_slab %[[SLAB]]
// CHECK-NEXT:  memref.dealloc %[[D]] : memref<?xf32>
// CHECK-NEXT:  return
// REPORT:      "name": "mixed"
// REPORT:      "arena_bytes": 64
// REPORT:      "unmanaged": [
// REPORT-NEXT:   {
// REPORT-NEXT:     "loc": "{{.*}}capacity-dynamic.mlir:[[# @LINE + 18]]:{{.*}}",
// REPORT-NEXT:     "reason": "run-time sized in memory space 'default', which has a capacity of 64 bytes: allocated on its own
// REPORT-NOT:  "dynamic_buffers"
// REPORT:      "name": "only_dynamic"
// REPORT:      "arena_bytes": 0
// REPORT:      "reason": "run-time sized in memory space 'default', which has a capacity of 64 bytes
// REPORT-NOT:  "dynamic_buffers"
// NOCAP-LABEL: func.func @mixed(
// NOCAP:       %[[SLAB:.*]] = mplan.alloc_slab : <64, 64>
// NOCAP:       mplan.alloc_dynamic id(1) (%arg0) live [{{.*}}) in %[[SLAB]] above []
func.func @mixed(%n: index, %out: memref<?xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %cst = arith.constant 1.0 : f32
  %s = memref.alloc() : memref<16xf32>
  linalg.fill ins(%cst : f32) outs(%s : memref<16xf32>)
  scf.for %i = %c0 to %c4 step %c1 {
    %d = memref.alloc(%n) : memref<?xf32>
    linalg.fill ins(%cst : f32) outs(%d : memref<?xf32>)
    %x = memref.load %s[%i] : memref<16xf32>
    %y = memref.load %d[%c0] : memref<?xf32>
    %z = arith.addf %x, %y : f32
    memref.store %z, %out[%i] : memref<?xf32>
    memref.dealloc %d : memref<?xf32>
  }
  memref.dealloc %s : memref<16xf32>
  return
}

// Only run-time sized buffers: no slab at all; every return frees them.
// CHECK-LABEL: func.func @only_dynamic(
// CHECK:       %[[N:.*]] = arith.muli %arg0, %{{.*}} : index
// CHECK-NEXT:  %[[D:.*]] = memref.alloc(%[[N]]) {mplan.unplanned = "run-time sized
// CHECK-NOT:   mplan.alloc_slab
// CHECK:       cf.cond_br
// CHECK:       memref.dealloc %[[D]]
// CHECK-NEXT:  return
// CHECK:       memref.dealloc %[[D]]
// CHECK-NEXT:  return
// NOCAP-LABEL: func.func @only_dynamic(
// NOCAP:       mplan.alloc_slab : <0, 64>
func.func @only_dynamic(%n: index, %c: i1, %out: memref<f32>) {
  %c0 = arith.constant 0 : index
  %c2 = arith.constant 2 : index
  %cst = arith.constant 1.0 : f32
  %m = arith.muli %n, %c2 : index
  %d = memref.alloc(%m) : memref<?xf32>
  linalg.fill ins(%cst : f32) outs(%d : memref<?xf32>)
  %y = memref.load %d[%c0] : memref<?xf32>
  cf.cond_br %c, ^a, ^b
^a:
  memref.store %y, %out[] : memref<f32>
  memref.dealloc %d : memref<?xf32>
  return
^b:
  memref.dealloc %d : memref<?xf32>
  return
}

// The entry block's first op is a run-time sized buffer: the new allocations are
// inserted before it, so it must outlive their creation (an erased insertion point
// crashed the pass).
// CHECK-LABEL: func.func @dynamic_first(
// CHECK-NEXT:  %[[A:.*]] = memref.alloc(%arg0) {mplan.unplanned = "run-time sized
// CHECK-NEXT:  %[[B:.*]] = memref.alloc(%arg0) {mplan.unplanned = "run-time sized
// CHECK-NOT:   mplan.alloc_dynamic
// CHECK:       memref.dealloc %[[A]]
// CHECK-NEXT:  memref.dealloc %[[B]]
// CHECK-NEXT:  return
func.func @dynamic_first(%n: index, %out: memref<f32>) {
  %a = memref.alloc(%n) : memref<?xf32>
  %b = memref.alloc(%n) : memref<?xf32>
  %c0 = arith.constant 0 : index
  %cst = arith.constant 1.0 : f32
  linalg.fill ins(%cst : f32) outs(%a : memref<?xf32>)
  linalg.fill ins(%cst : f32) outs(%b : memref<?xf32>)
  %x = memref.load %a[%c0] : memref<?xf32>
  %y = memref.load %b[%c0] : memref<?xf32>
  %z = arith.addf %x, %y : f32
  memref.store %z, %out[] : memref<f32>
  memref.dealloc %a : memref<?xf32>
  memref.dealloc %b : memref<?xf32>
  return
}
