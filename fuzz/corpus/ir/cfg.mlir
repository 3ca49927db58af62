func.func @cfg(%arg0: memref<8xi8>, %c: i1) -> memref<8xi8> {
  %a = memref.alloc() : memref<8xi8>
  cf.cond_br %c, ^bb1, ^bb2
^bb1:
  %b = memref.alloc() : memref<8xi8>
  memref.copy %a, %b : memref<8xi8> to memref<8xi8>
  memref.dealloc %b : memref<8xi8>
  cf.br ^bb1
^bb2:
  %r = memref.alloc() : memref<8xi8>
  memref.copy %arg0, %r : memref<8xi8> to memref<8xi8>
  return %r : memref<8xi8>
}
