// RUN: mplan-opt %s --split-input-file --mplan-instrument -verify-diagnostics

// The observer instruments the lowered program: a planned buffer is a view of
// its arena only after convert-mplan-to-memref. Before, taking its address at
// its mplan op would count as a use of it (the plan verifier would then see
// overlapping live ranges) and the observer would count the buffers as heap
// allocations that are never freed.
func.func @planned(%in: memref<4xf32>, %out: memref<4xf32>) {
  // expected-error @+1 {{mplan-instrument: 'mplan.alloc_slab' is not lowered; run convert-mplan-to-memref before mplan-instrument}}
  %slab = mplan.alloc_slab : !mplan.slab<16, 64>
  %a = mplan.alloc_tensor id(0) live [1, 3) at %slab[0] : !mplan.slab<16, 64> -> memref<4xf32>
  memref.copy %in, %a : memref<4xf32> to memref<4xf32>
  memref.copy %a, %out : memref<4xf32> to memref<4xf32>
  mplan.release_slab %slab : !mplan.slab<16, 64>
  return
}

// -----

// Unplanned mplan buffers too.
func.func @unplanned(%out: memref<4xf32>) {
  // expected-error @+1 {{'mplan.alloc_tensor' is not lowered}}
  %a = mplan.alloc_tensor id(0) -> memref<4xf32>
  memref.copy %a, %out : memref<4xf32> to memref<4xf32>
  return
}
