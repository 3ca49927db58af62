// RUN: mplan-opt %s --split-input-file --mplan-plan-pipeline="report=%t.json" --mplan-verify-plan | FileCheck %s
// RUN: FileCheck %s --check-prefix=JSON < %t.json
// RUN: mplan-opt %s --split-input-file --mplan-capture-buffers | FileCheck %s --check-prefix=CAPTURE

// A unit `mplan.unplanned` opts a buffer out: it keeps its allocation and its
// attribute, is reported, and no copy into or out of it is elided (the copy
// out of it would otherwise become a view, the copy into it a write in place).
// CHECK-LABEL: func.func @opted_out
// CHECK:         %[[DMA:.*]] = memref.alloc() {mplan.unplanned} : memref<16xf32>
// CHECK:         memref.copy %[[DMA]], %{{.*}} : memref<16xf32> to memref<16xf32>
// CHECK:         %[[DST:.*]] = memref.alloc() {mplan.unplanned} : memref<32xf32>
// CHECK:         memref.copy %{{.*}}, %{{.*}} : memref<16xf32> to memref<16xf32, strided<[1], offset: 16>>
// CAPTURE-LABEL: func.func @opted_out
// CAPTURE:       memref.alloc() {mplan.unplanned} : memref<16xf32>
// CAPTURE:       memref.alloca() {mplan.unplanned} : memref<4xf32>
// JSON:          "reason": "opted out (mplan.unplanned)"
// JSON:          "reason": "opted out (mplan.unplanned)"
// JSON:          "reason": "opted out (mplan.unplanned)"
func.func @opted_out(%in: memref<16xf32>, %out: memref<16xf32>, %out2: memref<32xf32>) {
  %dma = memref.alloc() {mplan.unplanned} : memref<16xf32>
  linalg.map { math.absf } ins(%in : memref<16xf32>) outs(%dma : memref<16xf32>)
  %x = memref.alloc() : memref<16xf32>
  memref.copy %dma, %x : memref<16xf32> to memref<16xf32>
  linalg.map { math.exp } ins(%x : memref<16xf32>) outs(%out : memref<16xf32>)
  %small = memref.alloca() {mplan.unplanned} : memref<4xf32>
  %dst = memref.alloc() {mplan.unplanned} : memref<32xf32>
  %y = memref.alloc() : memref<16xf32>
  linalg.map { arith.negf } ins(%in : memref<16xf32>) outs(%y : memref<16xf32>)
  %sv = memref.subview %dst[16] [16] [1] : memref<32xf32> to memref<16xf32, strided<[1], offset: 16>>
  memref.copy %y, %sv : memref<16xf32> to memref<16xf32, strided<[1], offset: 16>>
  memref.copy %dst, %out2 : memref<32xf32> to memref<32xf32>
  memref.dealloc %dma : memref<16xf32>
  memref.dealloc %dst : memref<32xf32>
  return
}

// A copy of a filled buffer into an opted-out buffer stays a copy (it is not
// rewritten into a fill of the opted-out buffer).
// CHECK-LABEL: func.func @filled_into_opted_out
// CHECK:         %[[DMA:.*]] = memref.alloc() {mplan.unplanned} : memref<4xf32>
// CHECK:         memref.copy %{{.*}}, %[[DMA]] : memref<4xf32> to memref<4xf32>
// CAPTURE-LABEL: func.func @filled_into_opted_out
// JSON:          "reason": "opted out (mplan.unplanned)"
func.func @filled_into_opted_out(%out: memref<4xf32>) {
  %c0 = arith.constant 0 : index
  %zero = arith.constant 0.0 : f32
  %x = memref.alloc() : memref<4xf32>
  linalg.fill ins(%zero : f32) outs(%x : memref<4xf32>)
  %dma = memref.alloc() {mplan.unplanned} : memref<4xf32>
  memref.copy %x, %dma : memref<4xf32> to memref<4xf32>
  %v = memref.load %dma[%c0] : memref<4xf32>
  memref.store %v, %out[%c0] : memref<4xf32>
  memref.dealloc %dma : memref<4xf32>
  return
}
