// RUN: mplan-opt %s --mplan-plan-pipeline="inplace=true sequence=program" | FileCheck %s
// RUN: mplan-opt %s --mplan-plan-pipeline="inplace=true sequence=program" --mplan-verify-plan > /dev/null

// Live ranges after in-place reuse are those a fresh numbering of the merged
// function gives: the erased buffers' indices are closed up, and the ranges
// of the buffers after them (and of the merged ones) move down with them.
// CHECK-LABEL: func.func @chain
// CHECK-SAME:    mplan.inplace = [{at = {{.*}}, buffer = 0 : i64, reused_by = 1 : i64}, {at = {{.*}}, buffer = 0 : i64, reused_by = 3 : i64}, {at = {{.*}}, buffer = 2 : i64, reused_by = 4 : i64}, {at = {{.*}}, buffer = 2 : i64, reused_by = 5 : i64}]
// CHECK:         mplan.alloc_tensor id(0) live [1, 23) at %{{.*}}[0]
// CHECK:         mplan.alloc_tensor id(2) live [8, 26) at %{{.*}}[256]
// CHECK-NOT:     mplan.alloc_tensor
func.func @chain(%in: memref<64xf32>, %w: memref<32xf32>, %out: memref<64xf32>, %out2: memref<32xf32>) {
  %a = memref.alloc() : memref<64xf32>
  linalg.map { math.absf } ins(%in : memref<64xf32>) outs(%a : memref<64xf32>)
  %b = memref.alloc() : memref<64xf32>
  linalg.map { arith.negf } ins(%a : memref<64xf32>) outs(%b : memref<64xf32>)
  %t = memref.alloc() : memref<32xf32>
  linalg.map { math.exp } ins(%w : memref<32xf32>) outs(%t : memref<32xf32>)
  %c = memref.alloc() : memref<64xf32>
  linalg.map { math.sqrt } ins(%b : memref<64xf32>) outs(%c : memref<64xf32>)
  %u = memref.alloc() : memref<32xf32>
  linalg.map { arith.negf } ins(%t : memref<32xf32>) outs(%u : memref<32xf32>)
  %v = memref.alloc() : memref<32xf32>
  linalg.map { math.absf } ins(%u : memref<32xf32>) outs(%v : memref<32xf32>)
  linalg.map { math.absf } ins(%c : memref<64xf32>) outs(%out : memref<64xf32>)
  linalg.map { math.absf } ins(%v : memref<32xf32>) outs(%out2 : memref<32xf32>)
  return
}

// The first op of ^bb3 is %y, which the merge into %x erases: a range that
// starts at that block starts at the op that follows it.
// CHECK-LABEL: func.func @front_erased
// CHECK:         mplan.alloc_tensor id(0) live [1, 10) at %{{.*}}[0]
// CHECK:         mplan.alloc_tensor id(2) live [11, 20) at %{{.*}}[64]
// CHECK:         mplan.alloc_tensor id(3) live [10, 26) at %{{.*}}[0]
// CHECK-NOT:     mplan.alloc_tensor
func.func @front_erased(%in: memref<16xf32>, %out: memref<16xf32>, %out2: memref<16xf32>, %c: i1) {
  %z = memref.alloc() : memref<16xf32>
  linalg.map { math.exp } ins(%in : memref<16xf32>) outs(%z : memref<16xf32>)
  cf.br ^bb1
^bb1:
  linalg.map { math.absf } ins(%z : memref<16xf32>) outs(%out2 : memref<16xf32>)
  cf.cond_br %c, ^bb2, ^bb4
^bb2:
  cf.br ^bb1
^bb3:
  %y = memref.alloc() : memref<16xf32>
  %x = memref.alloc() : memref<16xf32>
  linalg.map { math.absf } ins(%in : memref<16xf32>) outs(%x : memref<16xf32>)
  linalg.map { arith.negf } ins(%x : memref<16xf32>) outs(%y : memref<16xf32>)
  linalg.map { arith.addf } ins(%y, %w : memref<16xf32>, memref<16xf32>) outs(%out : memref<16xf32>)
  return
^bb4:
  %w = memref.alloc() : memref<16xf32>
  linalg.map { math.exp } ins(%in : memref<16xf32>) outs(%w : memref<16xf32>)
  cf.br ^bb3
}
