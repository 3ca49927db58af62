// RUN: mplan-opt %s --mplan-plan-pipeline="capacity=default:512" | FileCheck %s --check-prefix=AUTO
// RUN: mplan-opt %s --mplan-plan-pipeline="capacity=default:768" | FileCheck %s --check-prefix=FITS
// RUN: not mplan-opt %s --mplan-plan-pipeline="capacity=default:512 inplace=false remat=false" 2>&1 | FileCheck %s --check-prefix=USER

// Above a capacity, the default pipeline's levers come first: sequencing (fit
// every capacity first) and in-place reuse (on by default), which here writes
// %b over %a, which dies at the op: 768 -> 512 bytes without a recomputation.
// Below a capacity the program fits, the plan is the same (the defaults do
// not depend on the capacity); a lever the user set is kept as set
// (inplace=false remat=false: the capacity is not met).

// AUTO: func.func @levers{{.*}}mplan.inplace = [{at = {{.*}}, buffer = 1 : i64, reused_by = 2 : i64}]
// AUTO: mplan.alloc_slab {capacity = 512 : i64} : <512, 64>
// FITS: func.func @levers{{.*}}mplan.inplace = [{at = {{.*}}, buffer = 1 : i64, reused_by = 2 : i64}]
// FITS: mplan.alloc_slab {capacity = 768 : i64} : <512, 64>
// USER: error: memory space 'default' of function 'levers' needs 768 bytes
func.func @levers(%in: memref<64xf32>, %out: memref<64xf32>) {
  %c0 = arith.constant 0 : index
  %x = memref.alloc() : memref<64xf32>
  memref.copy %in, %x : memref<64xf32> to memref<64xf32>
  %a = memref.alloc() : memref<64xf32>
  %b = memref.alloc() : memref<64xf32>
  linalg.map { math.absf } ins(%x : memref<64xf32>) outs(%a : memref<64xf32>)
  linalg.map { math.exp } ins(%a : memref<64xf32>) outs(%b : memref<64xf32>)
  linalg.map { arith.addf } ins(%x, %b : memref<64xf32>, memref<64xf32>) outs(%out : memref<64xf32>)
  return
}
