#map = affine_map<(d0, d1) -> (d0, d1)>
func.func @f(%arg0: memref<4x8xf32>, %out: memref<4x8xf32>) {
  %cst = arith.constant 0.0 : f32
  %0 = memref.alloc() {alignment = 64 : i64} : memref<4x8xf32>
  linalg.fill ins(%cst : f32) outs(%0 : memref<4x8xf32>)
  %1 = memref.alloc() {alignment = 64 : i64} : memref<4x8xf32>
  linalg.generic {indexing_maps = [#map, #map, #map], iterator_types = ["parallel", "parallel"]} ins(%arg0, %0 : memref<4x8xf32>, memref<4x8xf32>) outs(%1 : memref<4x8xf32>) {
  ^bb0(%in: f32, %in_0: f32, %o: f32):
    %2 = arith.addf %in, %in_0 : f32
    linalg.yield %2 : f32
  }
  %e = memref.expand_shape %1 [[0], [1, 2]] output_shape [4, 2, 4] : memref<4x8xf32> into memref<4x2x4xf32>
  %c = memref.collapse_shape %e [[0], [1, 2]] : memref<4x2x4xf32> into memref<4x8xf32>
  memref.copy %c, %out : memref<4x8xf32> to memref<4x8xf32>
  return
}
