func.func @loop(%arg0: memref<16xf32>, %n: index) {
  %a = memref.alloc() : memref<16xf32>
  memref.copy %arg0, %a : memref<16xf32> to memref<16xf32>
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  scf.for %i = %c0 to %n step %c1 {
    %t = memref.alloc() : memref<16xf32>
    memref.copy %a, %t : memref<16xf32> to memref<16xf32>
    memref.dealloc %t : memref<16xf32>
  }
  %d = memref.alloc() {alignment = 128 : i64} : memref<4x4xf32>
  %v = memref.subview %d[1, 0] [2, 4] [1, 1] : memref<4x4xf32> to memref<2x4xf32, strided<[4, 1], offset: 4>>
  memref.dealloc %a : memref<16xf32>
  return
}
