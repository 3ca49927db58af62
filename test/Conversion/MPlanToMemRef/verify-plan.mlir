// RUN: mplan-opt %s --split-input-file --verify-diagnostics --convert-mplan-to-memref
// RUN: mplan-opt %s --split-input-file --verify-diagnostics --mplan-verify-plan
// RUN: mplan-opt %s --split-input-file --convert-mplan-to-memref="verify-plan=false" \
// RUN:   | FileCheck %s --check-prefix=OFF

// convert-mplan-to-memref checks the plan against the IR it is given, as
// --mplan-verify-plan does (one shared check): live ranges are recomputed, ignoring the
// ranges recorded on the ops. Here a pass run after planning moved the last read of %a
// below the first write of %b, which was given %a's bytes [0, 64). verify-plan=false
// lowers it anyway.

// OFF-LABEL: func.func @reordered(
// OFF-COUNT-2: memref.view
func.func @reordered(%x: f32) {
  %slab = mplan.alloc_slab : !mplan.slab<128, 64>
  // expected-note @below {{the other buffer is here}}
  %a = mplan.alloc_tensor id(0) live [2, 4) at %slab[0] : !mplan.slab<128, 64> -> memref<16xf32>
  // expected-error @below {{'mplan.alloc_tensor' op shares bytes with buffer 0 while both are live: bytes [32, 96) live [6, 8) vs bytes [0, 64) live [4, 9)}}
  %b = mplan.alloc_tensor id(1) live [4, 6) at %slab[32] : !mplan.slab<128, 64> -> memref<16xf32>
  %c0 = arith.constant 0 : index
  linalg.fill ins(%x : f32) outs(%a : memref<16xf32>)
  linalg.fill ins(%x : f32) outs(%b : memref<16xf32>)
  %v = memref.load %a[%c0] : memref<16xf32>
  mplan.release_slab %slab : !mplan.slab<128, 64>
  return
}

// -----

// Buffers of different slabs (one per memory space) never conflict, even at the same
// offset while live at the same time; within each slab the plan is checked on its own.
// OFF-LABEL: func.func @two_slabs(
func.func @two_slabs(%x: f32) {
  %d = mplan.alloc_slab : !mplan.slab<64, 64>
  %s = mplan.alloc_slab : !mplan.slab<128, 64, 1>
  %a = mplan.alloc_tensor id(0) live [3, 8) at %d[0] : !mplan.slab<64, 64> -> memref<16xf32>
  %b = mplan.alloc_tensor id(1) live [4, 8) at %s[0] : !mplan.slab<128, 64, 1> -> memref<16xf32, 1>
  // expected-note @below {{the other buffer is here}}
  %c = mplan.alloc_tensor id(2) live [5, 8) at %s[64] : !mplan.slab<128, 64, 1> -> memref<16xf32, 1>
  // expected-error @below {{shares bytes with buffer 2 while both are live}}
  %e = mplan.alloc_tensor id(3) live [6, 8) at %s[64] : !mplan.slab<128, 64, 1> -> memref<4xf32, 1>
  %c0 = arith.constant 0 : index
  linalg.fill ins(%x : f32) outs(%a : memref<16xf32>)
  linalg.fill ins(%x : f32) outs(%b : memref<16xf32, 1>)
  linalg.fill ins(%x : f32) outs(%c : memref<16xf32, 1>)
  linalg.fill ins(%x : f32) outs(%e : memref<4xf32, 1>)
  %v0 = memref.load %a[%c0] : memref<16xf32>
  %v1 = memref.load %b[%c0] : memref<16xf32, 1>
  %v2 = memref.load %c[%c0] : memref<16xf32, 1>
  mplan.release_slab %s : !mplan.slab<128, 64, 1>
  mplan.release_slab %d : !mplan.slab<64, 64>
  return
}

// -----

// A correct plan with many buffers reusing bytes in turn, the sweep's common case.
// OFF-LABEL: func.func @reuse(
func.func @reuse(%x: f32) {
  %slab = mplan.alloc_slab : !mplan.slab<128, 64>
  %a = mplan.alloc_tensor id(0) live [4, 6) at %slab[0] : !mplan.slab<128, 64> -> memref<16xf32>
  %b = mplan.alloc_tensor id(1) live [4, 6) at %slab[64] : !mplan.slab<128, 64> -> memref<16xf32>
  %c = mplan.alloc_tensor id(2) live [4, 6) at %slab[0] : !mplan.slab<128, 64> -> memref<32xf32>
  %d = mplan.alloc_tensor id(3) live [4, 6) at %slab[0] : !mplan.slab<128, 64> -> memref<0xf32>
  linalg.fill ins(%x : f32) outs(%a : memref<16xf32>)
  linalg.fill ins(%x : f32) outs(%b : memref<16xf32>)
  linalg.fill ins(%x : f32) outs(%c : memref<32xf32>)
  linalg.fill ins(%x : f32) outs(%d : memref<0xf32>)
  mplan.release_slab %slab : !mplan.slab<128, 64>
  return
}
