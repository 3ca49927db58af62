// RUN: mplan-opt %s --split-input-file --mplan-plan-pipeline --mplan-verify-plan | FileCheck %s
// RUN: mplan-opt %s --split-input-file --mplan-plan-pipeline="capacity=default:64" --mplan-verify-plan | FileCheck %s --check-prefix=CAP
// RUN: mplan-opt %s --split-input-file --mplan-plan-buffers -verify-diagnostics -o /dev/null

// Buffers of the mplan dialect that the input already has, unplanned, and frees
// itself: capture takes their deallocations over as it does those of the
// memref.allocs it captures (the slab's release frees a planned buffer; a
// run-time sized buffer of a capped space gets its own allocation, freed at the
// returns). The deallocations were kept next to the plan: freed slab bytes, and
// a double free under a capacity. Planning without capture rejects them.

// CHECK-LABEL: func.func @static
// CHECK:       mplan.alloc_tensor id(0) live [{{.*}}) at
// CHECK-NOT:   memref.dealloc
// CHECK:       return
func.func @static(%out: memref<f32>) {
  // expected-error @+1 {{cannot be planned: it is deallocated, and a planned buffer is freed by its slab's release (mplan-capture-buffers erases its deallocations)}}
  %0 = mplan.alloc_tensor id(0) -> memref<4xf32>
  %c0 = arith.constant 0 : index
  %cst = arith.constant 1.0 : f32
  linalg.fill ins(%cst : f32) outs(%0 : memref<4xf32>)
  %x = memref.load %0[%c0] : memref<4xf32>
  memref.store %x, %out[] : memref<f32>
  memref.dealloc %0 : memref<4xf32>
  return
}

// -----

// CHECK-LABEL: func.func @dynamic
// CHECK:       mplan.alloc_dynamic id(0) (%arg0) live
// CHECK:       mplan.alloc_dynamic id(1) (%arg0) live
// CHECK-NOT:   memref.dealloc
// CHECK:       return
// CAP-LABEL:   func.func @dynamic
// CAP-COUNT-2: memref.alloc(%arg0)
// CAP-NOT:     mplan.alloc_dynamic
// CAP:         memref.dealloc
// CAP-NEXT:    memref.dealloc
// CAP-NEXT:    return
func.func @dynamic(%n: index, %out: memref<f32>) {
  %0 = mplan.alloc_dynamic id(0) (%n) -> memref<?xf32>
  %c0 = arith.constant 0 : index
  // expected-error @+1 {{cannot be planned: it is deallocated}}
  %1 = mplan.alloc_dynamic id(1) (%n) -> memref<?xf32>
  %cst = arith.constant 1.0 : f32
  linalg.fill ins(%cst : f32) outs(%0 : memref<?xf32>)
  linalg.fill ins(%cst : f32) outs(%1 : memref<?xf32>)
  %x = memref.load %0[%c0] : memref<?xf32>
  %y = memref.load %1[%c0] : memref<?xf32>
  %z = arith.addf %x, %y : f32
  memref.store %z, %out[] : memref<f32>
  memref.dealloc %1 : memref<?xf32>
  return
}
