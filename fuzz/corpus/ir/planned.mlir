func.func @planned(%arg0: memref<16xf32>) {
  %s = mplan.alloc_slab : <128, 64>
  %a = mplan.alloc_tensor id(0) live [0, 2) at %s[0] : !mplan.slab<128, 64> -> memref<16xf32>
  %b = mplan.alloc_tensor id(1) live [1, 3) at %s[64] : !mplan.slab<128, 64> -> memref<16xf32>
  memref.copy %arg0, %a : memref<16xf32> to memref<16xf32>
  memref.copy %a, %b : memref<16xf32> to memref<16xf32>
  memref.copy %b, %arg0 : memref<16xf32> to memref<16xf32>
  mplan.release_slab %s : !mplan.slab<128, 64>
  return
}
