func.func private @ext(memref<4xf32>)
func.func @odd(%n: index) {
  %z = memref.alloc() : memref<0xf32>
  %one = memref.alloc() : memref<1xi8>
  %big = memref.alloc() : memref<4611686018427387904xf64>
  %dyn = memref.alloc(%n) : memref<?xf32>
  %x = memref.alloc() {alignment = 1099511627776 : i64} : memref<4xf32>
  %u = memref.alloc() {mplan.unplanned} : memref<4xf32>
  %s = memref.alloca() : memref<4xf32>
  "foo.unknown"(%x, %u) : (memref<4xf32>, memref<4xf32>) -> ()
  func.call @ext(%s) : (memref<4xf32>) -> ()
  %v = memref.alloc() : memref<vector<3xf32>>
  %cx = memref.alloc() : memref<2xcomplex<f32>>
  %gs = memref.alloc() : memref<4xf32, #gpu.address_space<workgroup>>
  %i1 = memref.alloc() : memref<4xf32, 1>
  return
}
