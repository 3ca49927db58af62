// RUN: mplan-opt %s --mplan-plan-pipeline="sequence=program inplace=false capacity=default:150 offload=default:1 remarks=true" --mplan-verify-plan -o /dev/null 2>&1 | FileCheck %s
// RUN: not mplan-opt %s --mplan-plan-pipeline="sequence=program inplace=false capacity=default:100 remat=false offload=default:1 remarks=true" -o /dev/null 2>&1 | FileCheck %s --check-prefix=FLOOR

// A split must lower the bound where it frees bytes, not only move the peak
// (found by the capacity fuzzer, seed 95047): %b and %c, read only by the op
// at the peak, were recomputed in turn right before it, each recomputation
// the next peak, 2,230 times until the work limit, and then the capacity the
// offload of %k meets was refused. Now the offload of %k alone meets 150
// bytes (128), and below the op floor (100 < 128) nothing is split and the
// error follows at once.
// CHECK-NOT: rematerialized
// CHECK: remark: buffer 0 (64 bytes) offloaded to memory space '1'
// CHECK-NOT: rematerialized
// CHECK-NOT: offloaded
// FLOOR-NOT: offloaded
// FLOOR: error: memory space 'default' of function 'pingpong' needs
#id = affine_map<(d0) -> (d0)>
func.func @pingpong(%x: memref<16xf32>, %o: memref<16xf32>, %o2: memref<16xf32>) {
  %k = memref.alloc() : memref<16xf32>
  linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel"]} ins(%x : memref<16xf32>) outs(%k : memref<16xf32>) {
  ^bb0(%a: f32, %out: f32):
    %r = arith.negf %a : f32
    linalg.yield %r : f32
  }
  %b = memref.alloc() : memref<16xf32>
  linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel"]} ins(%x : memref<16xf32>) outs(%b : memref<16xf32>) {
  ^bb0(%a: f32, %out: f32):
    %r = arith.addf %a, %a : f32
    linalg.yield %r : f32
  }
  %c = memref.alloc() : memref<16xf32>
  linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel"]} ins(%x : memref<16xf32>) outs(%c : memref<16xf32>) {
  ^bb0(%a: f32, %out: f32):
    %r = arith.mulf %a, %a : f32
    linalg.yield %r : f32
  }
  linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel"]} ins(%b, %c : memref<16xf32>, memref<16xf32>) outs(%o : memref<16xf32>) {
  ^bb0(%a: f32, %a2: f32, %out: f32):
    %r = arith.addf %a, %a2 : f32
    linalg.yield %r : f32
  }
  memref.copy %k, %o2 : memref<16xf32> to memref<16xf32>
  memref.dealloc %b : memref<16xf32>
  memref.dealloc %c : memref<16xf32>
  memref.dealloc %k : memref<16xf32>
  return
}
