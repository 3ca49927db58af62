// Bufferized IR with buffers in the default memory space, memory space 1 and GPU
// workgroup memory, and copies between them (for memory-spaces.mlir).
func.func @mixed(%in: memref<16xf32>, %out: memref<16xf32>) {
  %a = memref.alloc() : memref<16xf32>
  %b = memref.alloc() : memref<16xf32, 1>
  %w = memref.alloc() : memref<16xf32, #gpu.address_space<workgroup>>
  %c = memref.alloc() : memref<16xf32>
  memref.copy %in, %a : memref<16xf32> to memref<16xf32>
  memref.copy %a, %b : memref<16xf32> to memref<16xf32, 1>
  memref.copy %b, %w : memref<16xf32, 1> to memref<16xf32, #gpu.address_space<workgroup>>
  memref.copy %w, %c : memref<16xf32, #gpu.address_space<workgroup>> to memref<16xf32>
  linalg.generic {indexing_maps = [affine_map<(i) -> (i)>, affine_map<(i) -> (i)>, affine_map<(i) -> (i)>],
                  iterator_types = ["parallel"]}
      ins(%c, %a : memref<16xf32>, memref<16xf32>) outs(%out : memref<16xf32>) {
  ^bb0(%x: f32, %y: f32, %z: f32):
    %s = arith.addf %x, %y : f32
    linalg.yield %s : f32
  }
  memref.dealloc %a : memref<16xf32>
  memref.dealloc %b : memref<16xf32, 1>
  memref.dealloc %w : memref<16xf32, #gpu.address_space<workgroup>>
  memref.dealloc %c : memref<16xf32>
  return
}
