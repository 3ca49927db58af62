// RUN: mplan-opt %s --verify-diagnostics --convert-mplan-to-memref="verify-plan=false"

// Without verify-plan the lowering still refuses a symbolic plan it cannot
// evaluate where the slab is allocated.
func.func @dynamic_size_after_slab(%x: memref<?xf32>) {
  %c0 = arith.constant 0 : index
  %slab = mplan.alloc_slab : !mplan.slab<0, 64>
  %n = memref.dim %x, %c0 : memref<?xf32>
  // expected-error @+1 {{has a size that is not computed before its slab is allocated}}
  %a = mplan.alloc_dynamic id(0) (%n) in %slab above [] : !mplan.slab<0, 64> -> memref<?xf32>
  mplan.release_slab %slab : !mplan.slab<0, 64>
  return
}
