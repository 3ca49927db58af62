// RUN: mplan-opt %s --mplan-plan-pipeline="sequence=program inplace=false capacity=default:384 remarks=true" --mplan-verify-plan -o /dev/null 2>&1 | FileCheck %s --check-prefix=REMARK
// RUN: mplan-opt %s --mplan-plan-pipeline="sequence=program inplace=false capacity=default:384" --mplan-verify-plan | FileCheck %s
// RUN: mplan-opt %s --mplan-plan-pipeline="sequence=program inplace=false capacity=default:384 split-problem=%t.json" -o /dev/null
// RUN: FileCheck %s --input-file=%t.json --check-prefix=PROBLEM

// A recomputation that reads a buffer another split frees at its later use,
// realized by the order of application. %b (16 work) is recomputed from %a
// before its later use; %a's gap holds that use. Taken together as listed
// (both split at their gaps) the recomputation of %b would have to recompute
// %a as well, so the two exclude each other; the next cheapest cover
// recomputed %c (576) with %b: 592. Applied first, the recomputation of %b
// reads %a where %a was not used before: that cuts %a's gap in two, and the
// split of its first half (taken only with the recomputation) frees %a over
// the peak: %a is recomputed right before the recomputation of %b, which
// reads the new buffer (16 + 64 = 80).

// REMARK: remark: buffer 2 (64 bytes) rematerialized before its later use (work 16)
// REMARK-NEXT: %b = memref.alloc()
// REMARK: note: its later use
// REMARK-NEXT: ins(%b : memref<16xf32>) outs(%acc : memref<16xf32>)
// REMARK: remark: buffer 1 (64 bytes) rematerialized before its later use (work 64)
// REMARK-NEXT: %a = memref.alloc()
// REMARK: note: its later use
// REMARK-NEXT: ins(%a, %x : memref<16xf32>, memref<16xf32>) outs(%b : memref<16xf32>)
// REMARK-NOT: work 576

// CHECK-LABEL: func.func @f
// CHECK-SAME: mplan.splits = [{{{[^}]*}}buffer = 2 : i64, bytes = 64 : i64, cost = 16 : i64, kind = "remat", new_buffer = [[B2:[0-9]+]] : i64}, {{{[^}]*}}buffer = 1 : i64, bytes = 64 : i64, cost = 64 : i64, kind = "remat", new_buffer = [[A2:[0-9]+]] : i64}]
// CHECK: mplan.alloc_slab {capacity = 384 : i64}
// CHECK: %[[NEWB:.*]] = mplan.alloc_tensor id([[B2]])
// CHECK: %[[NEWA:.*]] = mplan.alloc_tensor id([[A2]])
// CHECK-NEXT: linalg.generic {{.*}} ins(%arg0 : memref<16xf32>) outs(%[[NEWA]] : memref<16xf32>)
// CHECK: linalg.generic {{.*}} ins(%[[NEWA]], %arg0 : memref<16xf32>, memref<16xf32>) outs(%[[NEWB]] : memref<16xf32>)
// CHECK: arith.subf

// The covering problem: %a's split (0) and %b's recomputation (1) exclude
// each other; the first half of %a's gap, up to that recomputation, is a
// candidate of its own whose prerequisite is 1.
// PROBLEM: "candidates": [
// PROBLEM: "buffer": 1,
// PROBLEM-NEXT: "bytes": 64,
// PROBLEM-NEXT: "cost": 64,
// PROBLEM-NEXT: "from": 24,
// PROBLEM-NEXT: "group": 0,
// PROBLEM-NEXT: "kind": "remat",
// PROBLEM-NEXT: "late_bytes": 128,
// PROBLEM-NEXT: "to": 43
// PROBLEM: "buffer": 2,
// PROBLEM-NEXT: "bytes": 64,
// PROBLEM-NEXT: "cost": 16,
// PROBLEM: "buffer": 1,
// PROBLEM-NEXT: "bytes": 64,
// PROBLEM-NEXT: "cost": 64,
// PROBLEM-NEXT: "from": 24,
// PROBLEM-NEXT: "group": 4,
// PROBLEM-NEXT: "kind": "remat",
// PROBLEM-NEXT: "late_bytes": 192,
// PROBLEM-NEXT: "prerequisite": 1,
// PROBLEM-NEXT: "to": 40
// PROBLEM: "conflicts": [
// PROBLEM-NEXT: [
// PROBLEM-NEXT: 1,
// PROBLEM-NEXT: 0
// PROBLEM-NEXT: ]
// PROBLEM-NEXT: ],

#id = affine_map<(d0) -> (d0)>
func.func @f(%x: memref<16xf32>, %v: memref<32x16xf32>, %y: memref<16xf32>) {
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
    %s = arith.subf %i, %j : f32
    linalg.yield %s : f32
  }
  %c = memref.alloc() : memref<16xf32>
  linalg.fill ins(%z : f32) outs(%c : memref<16xf32>)
  linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d1, d0)>, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"]} ins(%v : memref<32x16xf32>) outs(%c : memref<16xf32>) {
  ^bb0(%i: f32, %o: f32):
    %s = arith.addf %i, %o : f32
    linalg.yield %s : f32
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
  linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel"]} ins(%c : memref<16xf32>) outs(%acc : memref<16xf32>) {
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
  linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel"]} ins(%c : memref<16xf32>) outs(%acc : memref<16xf32>) {
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
    %s = arith.mulf %i, %o : f32
    linalg.yield %s : f32
  }
  memref.copy %acc, %y : memref<16xf32> to memref<16xf32>
  memref.dealloc %a : memref<16xf32>
  memref.dealloc %b : memref<16xf32>
  memref.dealloc %c : memref<16xf32>
  memref.dealloc %acc : memref<16xf32>
  return
}
