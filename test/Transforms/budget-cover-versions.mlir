// RUN: mplan-opt %s --mplan-plan-pipeline="sequence=program inplace=false capacity=default:320 remarks=true" --mplan-verify-plan -o /dev/null 2>&1 | FileCheck %s --check-prefix=REMARK
// RUN: mplan-opt %s --mplan-plan-pipeline="sequence=program inplace=false capacity=default:320" --mplan-verify-plan | FileCheck %s

// A recomputation reads the new buffer of an input split before it. The
// cover frees %a (64) and %b (80) over the peak; %a goes first (cheaper per
// byte) and is recomputed at its later use, before %b's. %b's recomputation
// then reads that new buffer, which holds %a's bytes and is live there
// anyway (80), instead of recomputing %a once more as a temporary (144).

// REMARK: remark: buffer 1 (64 bytes) rematerialized before its later use (work 64)
// REMARK: remark: buffer 2 (64 bytes) rematerialized before its later use (work 80)
// REMARK-NOT: work 144

// CHECK-LABEL: func.func @g
// CHECK-SAME: mplan.splits = [{{{[^}]*}}buffer = 1 : i64, bytes = 64 : i64, cost = 64 : i64, kind = "remat", new_buffer = [[A2:[0-9]+]] : i64}, {{{[^}]*}}buffer = 2 : i64, bytes = 64 : i64, cost = 80 : i64, kind = "remat", new_buffer = [[B2:[0-9]+]] : i64}]
// CHECK: %[[NEWA:.*]] = mplan.alloc_tensor id([[A2]])
// CHECK: %[[NEWB:.*]] = mplan.alloc_tensor id([[B2]])
// CHECK-NEXT: linalg.generic {{.*}} ins(%[[NEWA]], %arg0 : memref<16xf32>, memref<16xf32>) outs(%[[NEWB]] : memref<16xf32>)

#id = affine_map<(d0) -> (d0)>
func.func @g(%x: memref<16xf32>, %y: memref<16xf32>) {
  %z = arith.constant 0.0 : f32
  %acc = memref.alloc() : memref<16xf32>
  linalg.fill ins(%z : f32) outs(%acc : memref<16xf32>)
  %a = memref.alloc() : memref<16xf32>
  linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel"]} ins(%x : memref<16xf32>) outs(%a : memref<16xf32>) {
  ^bb0(%i: f32, %o: f32):
    %c2 = arith.constant 2.0 : f32
    %c1 = arith.constant 1.0 : f32
    %m = arith.mulf %i, %c2 : f32
    %s = arith.addf %m, %c1 : f32
    linalg.yield %s : f32
  }
  %b = memref.alloc() : memref<16xf32>
  linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel"]} ins(%a, %x : memref<16xf32>, memref<16xf32>) outs(%b : memref<16xf32>) {
  ^bb0(%i: f32, %j: f32, %o: f32):
    %d = arith.subf %i, %j : f32
    %e = arith.mulf %d, %d : f32
    %f = arith.addf %e, %i : f32
    %g = arith.mulf %f, %j : f32
    %h = arith.addf %g, %d : f32
    linalg.yield %h : f32
  }
  linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel"]} ins(%a : memref<16xf32>) outs(%acc : memref<16xf32>) {
  ^bb0(%i: f32, %o: f32):
    %s = arith.addf %i, %o : f32
    linalg.yield %s : f32
  }
  linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel"]} ins(%b : memref<16xf32>) outs(%acc : memref<16xf32>) {
  ^bb0(%i: f32, %o: f32):
    %s = arith.addf %i, %o : f32
    linalg.yield %s : f32
  }
  %t = memref.alloc() : memref<64xf32>
  linalg.fill ins(%z : f32) outs(%t : memref<64xf32>)
  %tv = memref.subview %t[0] [16] [1] : memref<64xf32> to memref<16xf32, strided<[1]>>
  linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel"]} ins(%tv : memref<16xf32, strided<[1]>>) outs(%acc : memref<16xf32>) {
  ^bb0(%i: f32, %o: f32):
    %s = arith.addf %i, %o : f32
    linalg.yield %s : f32
  }
  memref.dealloc %t : memref<64xf32>
  linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel"]} ins(%a : memref<16xf32>) outs(%acc : memref<16xf32>) {
  ^bb0(%i: f32, %o: f32):
    %s = arith.mulf %i, %o : f32
    linalg.yield %s : f32
  }
  linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel"]} ins(%b : memref<16xf32>) outs(%acc : memref<16xf32>) {
  ^bb0(%i: f32, %o: f32):
    %s = arith.mulf %i, %o : f32
    linalg.yield %s : f32
  }
  linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel"]} ins(%a : memref<16xf32>) outs(%acc : memref<16xf32>) {
  ^bb0(%i: f32, %o: f32):
    %s = arith.addf %i, %o : f32
    linalg.yield %s : f32
  }
  memref.copy %acc, %y : memref<16xf32> to memref<16xf32>
  memref.dealloc %a : memref<16xf32>
  memref.dealloc %b : memref<16xf32>
  memref.dealloc %acc : memref<16xf32>
  return
}
