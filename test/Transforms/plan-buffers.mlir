// RUN: mplan-opt %s --split-input-file --mplan-capture-buffers --mplan-plan-buffers="report=%t.json" | FileCheck %s
// RUN: mplan-opt %s --split-input-file --mplan-plan-pipeline --mplan-verify-plan > /dev/null

// (Capture and plan only, so the views/copies passes do not change the IR.)

// Buffers allocated in a sequential loop body are planned within the
// iteration, together with the function's other buffers: %t and %u overlap,
// %a is live for the whole loop, %d (after the loop) may reuse %a's bytes.
// CHECK-LABEL: func @loop
// CHECK: %[[S:.*]] = mplan.alloc_slab : <192, 64>
// CHECK: mplan.alloc_tensor id(0) live [1, 10) at %[[S]][[[A:[0-9]+]]]
// CHECK: scf.for
// CHECK: mplan.alloc_tensor id(1) live [6, 9) at %[[S]][{{[0-9]+}}]
// CHECK: mplan.alloc_tensor id(2) live [8, 9) at %[[S]][{{[0-9]+}}]
// CHECK: mplan.alloc_tensor id(3) live [11, 12) at %[[S]][[[A]]]
// CHECK: mplan.release_slab %[[S]]
// CHECK-NEXT: return
func.func @loop(%arg0: memref<16xf32>, %n: index) {
  %a = memref.alloc() : memref<16xf32>
  memref.copy %arg0, %a : memref<16xf32> to memref<16xf32>
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  scf.for %i = %c0 to %n step %c1 {
    %t = memref.alloc() : memref<16xf32>
    memref.copy %a, %t : memref<16xf32> to memref<16xf32>
    %u = memref.alloc() : memref<16xf32>
    memref.copy %t, %u : memref<16xf32> to memref<16xf32>
  }
  %d = memref.alloc() : memref<16xf32>
  memref.copy %arg0, %d : memref<16xf32> to memref<16xf32>
  return
}

// -----

// Must not share: %a is written through an alias (a subview) after %b read
// it, so %a is still live while %b is; they get different bytes.
// CHECK-LABEL: func @write_through_alias
// CHECK: %[[S:.*]] = mplan.alloc_slab : <128, 64>
// CHECK-DAG: mplan.alloc_tensor id(0) live [1, 7) at %[[S]][{{0|64}}]
// CHECK-DAG: mplan.alloc_tensor id(1) live [3, 8) at %[[S]][{{0|64}}]
func.func @write_through_alias(%arg0: memref<16xf32>, %f: f32) {
  %a = memref.alloc() : memref<16xf32>
  memref.copy %arg0, %a : memref<16xf32> to memref<16xf32>
  %b = memref.alloc() : memref<16xf32>
  memref.copy %a, %b : memref<16xf32> to memref<16xf32>
  %v = memref.subview %a[0] [8] [1] : memref<16xf32> to memref<8xf32, strided<[1]>>
  linalg.fill ins(%f : f32) outs(%v : memref<8xf32, strided<[1]>>)
  memref.copy %b, %arg0 : memref<16xf32> to memref<16xf32>
  return
}

// -----

// A buffer aligned beyond the pass's `alignment` (One-Shot Bufferize's
// `buffer-alignment=256`) raises the slab's alignment; the others keep 64.
// CHECK-LABEL: func @over_aligned
// CHECK: %[[S:.*]] = mplan.alloc_slab : <320, 256>
// CHECK: mplan.alloc_tensor id(0) live [2, 4) at %[[S]][0] : !mplan.slab<320, 256> {alignment = 256 : i64}
// CHECK: mplan.alloc_tensor id(1) live [3, 5) at %[[S]][256] : !mplan.slab<320, 256> {alignment = 64 : i64}
func.func @over_aligned(%arg0: memref<16xf32>, %arg1: memref<16xf32>) {
  %a = memref.alloc() {alignment = 256 : i64} : memref<16xf32>
  %b = memref.alloc() {alignment = 64 : i64} : memref<16xf32>
  memref.copy %arg0, %a : memref<16xf32> to memref<16xf32>
  memref.copy %a, %b : memref<16xf32> to memref<16xf32>
  memref.copy %b, %arg1 : memref<16xf32> to memref<16xf32>
  return
}

// -----

// Element sizes as the lowering to LLVM lays elements out: an i24 takes 4
// bytes, a vector<3xf32> 16 (store size rounded up to a power of two), so
// memref<5xvector<3xf32>> needs 80 bytes and the i24 buffer beside it may not
// start before byte 128.
// CHECK-LABEL: func @element_sizes
// CHECK: %[[S:.*]] = mplan.alloc_slab : <192, 64>
// CHECK: mplan.alloc_tensor id(0) live [{{.*}}) at %[[S]][0] {{.*}} -> memref<5xvector<3xf32>>
// CHECK: mplan.alloc_tensor id(1) live [{{.*}}) at %[[S]][128] {{.*}} -> memref<7xi24>
func.func @element_sizes(%v: vector<3xf32>, %x: i24, %i: index) -> (vector<3xf32>, i24) {
  %a = memref.alloc() : memref<5xvector<3xf32>>
  %b = memref.alloc() : memref<7xi24>
  memref.store %v, %a[%i] : memref<5xvector<3xf32>>
  memref.store %x, %b[%i] : memref<7xi24>
  %r = memref.load %a[%i] : memref<5xvector<3xf32>>
  %s = memref.load %b[%i] : memref<7xi24>
  return %r, %s : vector<3xf32>, i24
}

// -----

// Escaping buffers and parallel bodies are never planned; the report lists
// them with their reasons.
// CHECK-LABEL: func @unmanaged
// CHECK: memref.alloc() {mplan.unplanned = "allocated inside 'scf.forall', whose iterations may run concurrently"}
// CHECK: memref.alloc() {mplan.unplanned = "escapes via return"}
func.func @unmanaged(%arg0: memref<16xf32>, %n: index) -> memref<16xf32> {
  scf.forall (%i) in (%n) {
    %p = memref.alloc() : memref<16xf32>
    memref.copy %arg0, %p : memref<16xf32> to memref<16xf32>
  }
  %r = memref.alloc() : memref<16xf32>
  memref.copy %arg0, %r : memref<16xf32> to memref<16xf32>
  return %r : memref<16xf32>
}

// RUN: FileCheck %s --check-prefix=JSON < %t.json
// JSON: "name": "unmanaged"
// JSON: "strategy":
// JSON: "arena_bytes": 0
// JSON: "lower_bound_bytes": 0
// JSON: "buffers": []
// JSON: "unmanaged": [
// JSON-NEXT: {
// JSON-NEXT: "loc": "{{.*}}plan-buffers.mlir:{{[0-9]+}}:{{[0-9]+}}"
// JSON-NEXT: "reason": "allocated inside 'scf.forall', whose iterations may run concurrently"
// JSON: "reason": "escapes via return"

