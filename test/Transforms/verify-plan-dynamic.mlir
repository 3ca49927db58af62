// RUN: mplan-opt %s --split-input-file --mplan-verify-plan -verify-diagnostics

// The symbolic plan of run-time sized buffers is checked against fresh live
// ranges: two buffers live at the same time must be ordered by `above`,
// directly or through others.

// A chain through a third buffer orders 0 and 2: valid (all three are live
// at the same time).
func.func @transitive(%n: index) {
  %cst = arith.constant 1.0 : f32
  %slab = mplan.alloc_slab : !mplan.slab<0, 64>
  %a = mplan.alloc_dynamic id(0) (%n) in %slab above [] : !mplan.slab<0, 64> -> memref<?xf32>
  %b = mplan.alloc_dynamic id(1) (%n) in %slab above [0] : !mplan.slab<0, 64> -> memref<?xf32>
  %c = mplan.alloc_dynamic id(2) (%n) in %slab above [1] : !mplan.slab<0, 64> -> memref<?xf32>
  linalg.fill ins(%cst : f32) outs(%a : memref<?xf32>)
  linalg.fill ins(%cst : f32) outs(%b : memref<?xf32>)
  linalg.fill ins(%cst : f32) outs(%c : memref<?xf32>)
  memref.copy %a, %c : memref<?xf32> to memref<?xf32>
  memref.copy %b, %c : memref<?xf32> to memref<?xf32>
  mplan.release_slab %slab : !mplan.slab<0, 64>
  return
}

// -----

func.func @unordered(%n: index) {
  %cst = arith.constant 1.0 : f32
  %slab = mplan.alloc_slab : !mplan.slab<0, 64>
  // expected-note @+1 {{the other buffer is here}}
  %a = mplan.alloc_dynamic id(0) (%n) in %slab above [] : !mplan.slab<0, 64> -> memref<?xf32>
  // expected-error @+1 {{may share bytes with buffer 0 while both are live (live [6, 9) vs [4, 9)): neither is placed above the other}}
  %b = mplan.alloc_dynamic id(1) (%n) in %slab above [] : !mplan.slab<0, 64> -> memref<?xf32>
  linalg.fill ins(%cst : f32) outs(%a : memref<?xf32>)
  linalg.fill ins(%cst : f32) outs(%b : memref<?xf32>)
  memref.copy %a, %b : memref<?xf32> to memref<?xf32>
  mplan.release_slab %slab : !mplan.slab<0, 64>
  return
}

// -----

func.func @cycle(%n: index) {
  %slab = mplan.alloc_slab : !mplan.slab<0, 64>
  // expected-error @+1 {{is placed above itself through 'above'}}
  %a = mplan.alloc_dynamic id(0) (%n) in %slab above [1] : !mplan.slab<0, 64> -> memref<?xf32>
  %b = mplan.alloc_dynamic id(1) (%n) in %slab above [0] : !mplan.slab<0, 64> -> memref<?xf32>
  mplan.release_slab %slab : !mplan.slab<0, 64>
  return
}

// -----

func.func @unknown_id(%n: index) {
  %slab = mplan.alloc_slab : !mplan.slab<0, 64>
  // expected-error @+1 {{is placed above id 7, which is no run-time sized buffer of its slab}}
  %a = mplan.alloc_dynamic id(0) (%n) in %slab above [7] : !mplan.slab<0, 64> -> memref<?xf32>
  mplan.release_slab %slab : !mplan.slab<0, 64>
  return
}

// -----

func.func @duplicate_id(%n: index) {
  %slab = mplan.alloc_slab : !mplan.slab<0, 64>
  %a = mplan.alloc_dynamic id(0) (%n) in %slab above [] : !mplan.slab<0, 64> -> memref<?xf32>
  // expected-error @+1 {{has the id 0 of another run-time sized buffer of its slab}}
  %b = mplan.alloc_dynamic id(0) (%n) in %slab above [] : !mplan.slab<0, 64> -> memref<?xf32>
  mplan.release_slab %slab : !mplan.slab<0, 64>
  return
}

// -----

func.func @size_after_slab(%x: memref<?xf32>) {
  %c0 = arith.constant 0 : index
  // expected-note @+1 {{the slab is allocated here}}
  %slab = mplan.alloc_slab : !mplan.slab<0, 64>
  %n = memref.dim %x, %c0 : memref<?xf32>
  // expected-error @+1 {{has a size that is not computed before its slab is allocated}}
  %a = mplan.alloc_dynamic id(0) (%n) in %slab above [] : !mplan.slab<0, 64> -> memref<?xf32>
  mplan.release_slab %slab : !mplan.slab<0, 64>
  return
}

// -----

// A planned buffer's bytes are its slab's: a deallocation of it would free them
// a second time, after the slab's release.
func.func @freed_dynamic(%n: index) {
  %cst = arith.constant 1.0 : f32
  %slab = mplan.alloc_slab : !mplan.slab<0, 64>
  // expected-error @+1 {{is deallocated, but its bytes are its slab's (the slab's release frees them)}}
  %a = mplan.alloc_dynamic id(0) (%n) in %slab above [] : !mplan.slab<0, 64> -> memref<?xf32>
  linalg.fill ins(%cst : f32) outs(%a : memref<?xf32>)
  memref.dealloc %a : memref<?xf32>
  mplan.release_slab %slab : !mplan.slab<0, 64>
  return
}

// -----

func.func @freed_static(%out: memref<4xf32>) {
  %slab = mplan.alloc_slab : !mplan.slab<64, 64>
  // expected-error @+1 {{is deallocated, but its bytes are its slab's (the slab's release frees them)}}
  %a = mplan.alloc_tensor id(0) live [1, 3) at %slab[0] : !mplan.slab<64, 64> -> memref<4xf32>
  memref.copy %out, %a : memref<4xf32> to memref<4xf32>
  %c = memref.cast %a : memref<4xf32> to memref<?xf32>
  memref.dealloc %c : memref<?xf32>
  mplan.release_slab %slab : !mplan.slab<64, 64>
  return
}
