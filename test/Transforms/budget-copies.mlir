// RUN: mplan-opt %s --mplan-plan-pipeline="capacity=default:4160" | FileCheck %s
// RUN: not mplan-opt %s --mplan-plan-pipeline="capacity=default:4160 peak-guard=views remat=false sequence=program inplace=false" -o /dev/null 2>&1 | FileCheck %s --check-prefix=USER
// RUN: mplan-opt %s --mplan-plan-pipeline | FileCheck %s --check-prefix=NONE

// With a capacity, copy elision keeps the copies whose removal would raise
// the bound (peak-guard=all) unless the user chose the guard: writing %x0
// into the concat buffer %y in place would keep %y live beside the 4096-byte
// %t (4224 bytes; test/Transforms/elide-copies-peak.mlir). Without a capacity
// the default guard (views) writes it in place.
// CHECK: mplan.copies_kept_for_peak = 1
// CHECK: mplan.alloc_slab {capacity = 4160 : i64} : <4160, 64>
// USER: error: memory space 'default' of function 'skip_raises_peak' needs 4224 bytes
// NONE-NOT: copies_kept_for_peak
// NONE: mplan.alloc_slab : <4224, 64>
func.func @skip_raises_peak(%in: memref<16xf32>, %side: memref<1024xf32>, %out: memref<32xf32>) {
  %x0 = mplan.alloc_tensor id(0) -> memref<16xf32>
  linalg.map { math.absf } ins(%in : memref<16xf32>) outs(%x0 : memref<16xf32>)
  %t = mplan.alloc_tensor id(1) -> memref<1024xf32>
  linalg.map { math.exp } ins(%side : memref<1024xf32>) outs(%t : memref<1024xf32>)
  linalg.copy ins(%t : memref<1024xf32>) outs(%side : memref<1024xf32>)
  %x1 = mplan.alloc_tensor id(3) -> memref<16xf32>
  linalg.map { math.sqrt } ins(%in : memref<16xf32>) outs(%x1 : memref<16xf32>)
  %y = mplan.alloc_tensor id(2) -> memref<32xf32>
  %v0 = mplan.view %y[0] : memref<32xf32> to memref<16xf32, strided<[1]>>
  memref.copy %x0, %v0 : memref<16xf32> to memref<16xf32, strided<[1]>>
  %v1 = mplan.view %y[64] : memref<32xf32> to memref<16xf32, strided<[1], offset: 16>>
  memref.copy %x1, %v1 : memref<16xf32> to memref<16xf32, strided<[1], offset: 16>>
  linalg.copy ins(%y : memref<32xf32>) outs(%out : memref<32xf32>)
  return
}
