// RUN: mplan-opt %s --split-input-file --mplan-plan-pipeline="sequence=program inplace=false capacity=default:3072" | FileCheck %s
// RUN: mplan-opt %s --split-input-file --mplan-plan-pipeline="sequence=program inplace=false capacity=1:512 offload=1:default remat=false" | FileCheck %s --check-prefix=OFFLOAD
// Without a capacity the levers change nothing: the same IR with and without them.
// RUN: mplan-opt %s --split-input-file --mplan-plan-pipeline="remat=false" -o %t.off.mlir
// RUN: mplan-opt %s --split-input-file --mplan-plan-pipeline="remat=true offload=1:default,default:1" -o %t.on.mlir
// RUN: diff %t.off.mlir %t.on.mlir

// %x (fill + matmul of the arguments) is read before and after the peak of
// %y, %z and %w: both ops run again, into a new buffer, right before the
// later use, and the bound drops from 4096 to 3072 bytes.
// CHECK-LABEL: func.func @remat
// CHECK-SAME: mplan.splits = [{{{.*}}buffer = 0 : i64, bytes = 1024 : i64, cost = 9216 : i64, kind = "remat", new_buffer = 4 : i64}]
// CHECK: mplan.alloc_slab {capacity = 3072 : i64} : <3072, 64>
// CHECK: %[[X:.*]] = mplan.alloc_tensor id(0)
// CHECK: linalg.matmul {{.*}} outs(%[[X]]
// CHECK: %[[X2:.*]] = mplan.alloc_tensor id(4)
// CHECK-NEXT: linalg.fill {{.*}} outs(%[[X2]]
// CHECK-NEXT: linalg.matmul ins(%arg0, %arg1 {{.*}} outs(%[[X2]]
// CHECK-NEXT: linalg.map { arith.addf } ins(%{{.*}}, %[[X2]]
func.func @remat(%a: memref<16x16xf32>, %b: memref<16x16xf32>, %out: memref<16x16xf32>) {
  %zero = arith.constant 0.0 : f32
  %x = memref.alloc() : memref<16x16xf32>
  linalg.fill ins(%zero : f32) outs(%x : memref<16x16xf32>)
  linalg.matmul ins(%a, %b : memref<16x16xf32>, memref<16x16xf32>) outs(%x : memref<16x16xf32>)
  %y = memref.alloc() : memref<16x16xf32>
  linalg.map { math.absf } ins(%x : memref<16x16xf32>) outs(%y : memref<16x16xf32>)
  %z = memref.alloc() : memref<16x16xf32>
  linalg.map { arith.negf } ins(%y : memref<16x16xf32>) outs(%z : memref<16x16xf32>)
  %w = memref.alloc() : memref<16x16xf32>
  linalg.map { arith.mulf } ins(%z, %y : memref<16x16xf32>, memref<16x16xf32>) outs(%w : memref<16x16xf32>)
  linalg.map { arith.addf } ins(%w, %x : memref<16x16xf32>, memref<16x16xf32>) outs(%out : memref<16x16xf32>)
  return
}

// -----

// %t's input %s is dead at %t's later use: %s is recomputed first (a
// temporary), then %t from it; the views of %t on both sides of the peak:
// the later one is cloned onto the new buffer.
// CHECK-LABEL: func.func @recompute_inputs_and_views
// CHECK-SAME: recomputed_inputs = array<i64: 0>
// CHECK: %[[S2:.*]] = mplan.alloc_tensor id(5)
// CHECK-NEXT: linalg.map { math.absf } ins(%arg0 {{.*}} outs(%[[S2]]
// CHECK-NEXT: %[[T2:.*]] = mplan.alloc_tensor id(6)
// CHECK-NEXT: linalg.map { math.exp } ins(%[[S2]] {{.*}} outs(%[[T2]]
// CHECK-NEXT: %[[V2:.*]] = mplan.view %[[T2]][0]
// CHECK-NEXT: linalg.map { arith.addf } ins(%[[V2]]
func.func @recompute_inputs_and_views(%a: memref<256xf32>, %out: memref<256xf32>) {
  %s = memref.alloc() : memref<256xf32>
  linalg.map { math.absf } ins(%a : memref<256xf32>) outs(%s : memref<256xf32>)
  %t = memref.alloc() : memref<256xf32>
  linalg.map { math.exp } ins(%s : memref<256xf32>) outs(%t : memref<256xf32>)
  %v = memref.expand_shape %t [[0, 1]] output_shape [16, 16] : memref<256xf32> into memref<16x16xf32>
  %y = memref.alloc() : memref<16x16xf32>
  linalg.map { arith.negf } ins(%v : memref<16x16xf32>) outs(%y : memref<16x16xf32>)
  %z = memref.alloc() : memref<16x16xf32>
  linalg.map { math.absf } ins(%y : memref<16x16xf32>) outs(%z : memref<16x16xf32>)
  %w = memref.alloc() : memref<16x16xf32>
  linalg.map { arith.mulf } ins(%z, %y : memref<16x16xf32>, memref<16x16xf32>) outs(%w : memref<16x16xf32>)
  %o = memref.expand_shape %out [[0, 1]] output_shape [16, 16] : memref<256xf32> into memref<16x16xf32>
  linalg.map { arith.addf } ins(%v, %w : memref<16x16xf32>, memref<16x16xf32>) outs(%o : memref<16x16xf32>)
  return
}

// -----

// Space 1 holds 768 bytes at the peak, above its capacity of 512: %x goes to
// the default space after its last use before the peak and comes back into
// a new buffer of space 1 before its later use (remat=false: copying %a in
// again would be cheaper). With capacity=default:3072
// alone, space 1 has no capacity and nothing changes.
// CHECK-LABEL: func.func @offload(
// CHECK-NOT: mplan.splits
// CHECK: return
// OFFLOAD-LABEL: func.func @offload
// OFFLOAD-SAME: kind = "offload"
// OFFLOAD: %[[X:.*]] = mplan.alloc_tensor id(0) {{.*}} -> memref<64xf32, 1>
// OFFLOAD: linalg.map { math.exp } ins(%[[X]]
// OFFLOAD-NEXT: %[[H:.*]] = mplan.alloc_tensor id(3) {{.*}} -> memref<64xf32>
// OFFLOAD-NEXT: memref.copy %[[X]], %[[H]] : memref<64xf32, 1> to memref<64xf32>
// OFFLOAD: %[[X2:.*]] = mplan.alloc_tensor id(4) {{.*}} -> memref<64xf32, 1>
// OFFLOAD-NEXT: memref.copy %[[H]], %[[X2]] : memref<64xf32> to memref<64xf32, 1>
// OFFLOAD-NEXT: linalg.map { arith.addf } ins(%[[X2]]
func.func @offload(%a: memref<64xf32>, %out: memref<64xf32>) {
  %x = memref.alloc() : memref<64xf32, 1>
  memref.copy %a, %x : memref<64xf32> to memref<64xf32, 1>
  %y = memref.alloc() : memref<64xf32, 1>
  linalg.map { math.exp } ins(%x : memref<64xf32, 1>) outs(%y : memref<64xf32, 1>)
  %z = memref.alloc() : memref<64xf32, 1>
  linalg.map { arith.negf } ins(%y : memref<64xf32, 1>) outs(%z : memref<64xf32, 1>)
  linalg.map { arith.addf } ins(%x, %z : memref<64xf32, 1>, memref<64xf32, 1>) outs(%out : memref<64xf32>)
  return
}
