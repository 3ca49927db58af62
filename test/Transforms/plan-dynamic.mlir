// RUN: mplan-opt %s --split-input-file --mplan-capture-buffers --mplan-plan-buffers --mplan-verify-plan | FileCheck %s
// RUN: mplan-opt %s --split-input-file --mplan-capture-buffers --mplan-plan-buffers="report=-" -o /dev/null | FileCheck %s --check-prefix=REPORT
// RUN: mplan-opt %s --split-input-file --mplan-capture-buffers="max-bound-bytes=0" --mplan-plan-buffers | FileCheck %s --check-prefix=OFF
// RUN: mplan-opt %s --split-input-file --mplan-capture-buffers="max-bound-bytes=256" --mplan-plan-buffers --mplan-verify-plan | FileCheck %s --check-prefix=BOUNDDIM

// Buffers without an upper bound whose sizes are known where the function
// starts are sized at run time (issue 15, item 2): captured as
// mplan.alloc_dynamic, their sizes recomputed right before the slab, and
// every two of them live at the same time ordered by `above`. A chain of
// three: the first and the third never overlap, so both sit on the static
// bytes and the second above both.
// CHECK-LABEL: func @chain
// CHECK:       %[[C0:.*]] = arith.constant 0 : index
// CHECK-NEXT:  %[[N:.*]] = memref.dim %arg0, %[[C0]]
// CHECK-NEXT:  %[[SLAB:.*]] = mplan.alloc_slab : <64, 64>
// CHECK:       mplan.alloc_tensor id(0) {{.*}} at %[[SLAB]][0]
// CHECK:       %[[A:.*]] = mplan.alloc_dynamic id(1) (%[[N]]) live [{{.*}}) in %[[SLAB]] above [] : !mplan.slab<64, 64> {alignment = 64 : i64} -> memref<?x64xf32>
// CHECK:       mplan.alloc_dynamic id(2) (%[[N]]) live [{{.*}}) in %[[SLAB]] above [1, 3]
// CHECK:       mplan.alloc_dynamic id(3) (%[[N]]) live [{{.*}}) in %[[SLAB]] above []
// CHECK-NOT:   memref.dealloc
// CHECK:       mplan.release_slab %[[SLAB]]
// REPORT:      "name": "chain"
// REPORT:      "unmanaged": []
// REPORT:      "dynamic_arena": "max(64, end(1), end(3), end(2))"
// REPORT:      "dynamic_size_hint": 64
// REPORT:      "arena_bytes_at_hint": 32832
// REPORT:      "dynamic_buffers": [
// REPORT:        "id": 1,
// REPORT:        "alignment": 64,
// REPORT:        "size": "256 * dim(%arg0, 0)",
// REPORT-NEXT:   "above": []
// REPORT:        "id": 3,
// REPORT:        "id": 2,
// REPORT:        "above": [
// REPORT-NEXT:     1,
// REPORT-NEXT:     3
// REPORT-NEXT:   ]
// OFF-LABEL:   func @chain
// OFF:         memref.alloc(%{{.*}}) {mplan.unplanned = "dynamic shape (bounded planning disabled: max-bound-bytes=0)"}
// OFF-NOT:     mplan.alloc_dynamic
func.func @chain(%in: memref<?x64xf32>, %out: memref<?x64xf32>) {
  %c0 = arith.constant 0 : index
  %s = memref.alloc() : memref<16xf32>
  %n = memref.dim %in, %c0 : memref<?x64xf32>
  %a = memref.alloc(%n) : memref<?x64xf32>
  memref.copy %in, %a : memref<?x64xf32> to memref<?x64xf32>
  %b = memref.alloc(%n) : memref<?x64xf32>
  memref.copy %a, %b : memref<?x64xf32> to memref<?x64xf32>
  memref.dealloc %a : memref<?x64xf32>
  %c = memref.alloc(%n) : memref<?x64xf32>
  memref.copy %b, %c : memref<?x64xf32> to memref<?x64xf32>
  memref.dealloc %b : memref<?x64xf32>
  memref.copy %c, %out : memref<?x64xf32> to memref<?x64xf32>
  memref.dealloc %c : memref<?x64xf32>
  %z = arith.constant 0.0 : f32
  memref.store %z, %s[%c0] : memref<16xf32>
  return
}

// -----

// Sizes computed with arithmetic from the arguments are recomputed before the
// slab; a function with only run-time sized buffers gets a slab of 0 static
// bytes. A buffer allocated in a loop is left alone, with a loop-invariant size
// too: a loop that does not run leaves its size at the function's start
// whatever the arithmetic gives there (negative, huge), and the arena sized by
// it would fail. So is one whose size depends on the induction variable or on
// memory, each with the reason.
// CHECK-LABEL: func @sizes
// CHECK:       %[[C2:.*]] = arith.constant 2 : index
// CHECK-NEXT:  %[[K:.*]] = arith.muli %arg0, %[[C2]]
// CHECK-NEXT:  %[[SLAB:.*]] = mplan.alloc_slab : <0, 64>
// CHECK:       mplan.alloc_dynamic id(0) (%[[K]]) live {{.*}} in %[[SLAB]] above []
// CHECK:       scf.for %[[I:.*]] =
// CHECK:         memref.alloc(%{{.*}}) {mplan.unplanned = "dynamic shape: no upper bound for dimension 0 {{.*}}; nor can it be sized at run time: it is allocated inside 'scf.for', which may not run it on every call"}
// CHECK:         memref.alloc(%[[I]]) {mplan.unplanned = "dynamic shape: no upper bound for dimension 0 {{.*}}; nor can it be sized at run time: it is allocated inside 'scf.for', which may not run it on every call"}
// CHECK:       memref.alloc(%{{.*}}) {mplan.unplanned = "dynamic shape: no upper bound for dimension 0 {{.*}}; nor can it be sized at run time: dynamic size #0 is not computable where the function starts (it depends on 'memref.load', which may read memory, have effects or not be speculatable)"}
// CHECK:       memref.alloc(%arg0) {mplan.unplanned = "dynamic shape: no upper bound for dimension 0 {{.*}}; run-time sizing is for the default memory space only"}
// REPORT:      "name": "sizes"
// REPORT:      "dynamic_arena": "max(0, end(0))"
// REPORT:      "size": "4 * (%arg0 * 2)"
func.func @sizes(%n: index, %p: memref<index>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %cst = arith.constant 1.0 : f32
  %c2 = arith.constant 2 : index
  %k = arith.muli %n, %c2 : index
  %a = memref.alloc(%k) : memref<?xf32>
  linalg.fill ins(%cst : f32) outs(%a : memref<?xf32>)
  memref.dealloc %a : memref<?xf32>
  scf.for %i = %c0 to %n step %c1 {
    %e = memref.alloc(%k) : memref<?xf32>
    linalg.fill ins(%cst : f32) outs(%e : memref<?xf32>)
    memref.dealloc %e : memref<?xf32>
    %b = memref.alloc(%i) : memref<?xf32>
    linalg.fill ins(%cst : f32) outs(%b : memref<?xf32>)
    memref.dealloc %b : memref<?xf32>
  }
  %m = memref.load %p[] : memref<index>
  %c = memref.alloc(%m) : memref<?xf32>
  linalg.fill ins(%cst : f32) outs(%c : memref<?xf32>)
  memref.dealloc %c : memref<?xf32>
  %d = memref.alloc(%n) : memref<?xf32, 1>
  linalg.fill ins(%cst : f32) outs(%d : memref<?xf32, 1>)
  memref.dealloc %d : memref<?xf32, 1>
  return
}

// -----

// The analysis' reasons come first: a returned run-time sized buffer stays a
// heap allocation.
// CHECK-LABEL: func @returned
// CHECK:       memref.alloc(%arg0) {mplan.unplanned = "escapes via return"}
// CHECK-NOT:   mplan.alloc_slab
func.func @returned(%n: index) -> memref<?xf32> {
  %a = memref.alloc(%n) : memref<?xf32>
  return %a : memref<?xf32>
}

// -----

// A size read off another buffer with memref.dim stands for the size that
// buffer was allocated with, so it is computable where the function starts
// even though the buffer is not.
// CHECK-LABEL: func @dim_of_alloc
// CHECK:       %[[SLAB:.*]] = mplan.alloc_slab : <0, 64>
// CHECK:       mplan.alloc_dynamic id(0) (%arg0) live
// CHECK:       mplan.alloc_dynamic id(1) (%arg0) live
func.func @dim_of_alloc(%n: index) {
  %c0 = arith.constant 0 : index
  %cst = arith.constant 1.0 : f32
  %a = memref.alloc(%n) : memref<?xf32>
  linalg.fill ins(%cst : f32) outs(%a : memref<?xf32>)
  %m = memref.dim %a, %c0 : memref<?xf32>
  %b = memref.alloc(%m) : memref<?xf32>
  memref.copy %a, %b : memref<?xf32> to memref<?xf32>
  return
}

// -----

// memref.dim of a bounded buffer (planned at its bound: mplan.alloc_tensor and
// a reinterpret_cast to its dynamic type) sizing a buffer that exceeds
// max-bound-bytes, hence run-time sized: the dim stands for the view's size,
// computable where the function starts (found by utils/fuzz_pipeline.py
// --kinds dynamic, seed 22: "a size is not computable where the function
// starts (it depends on 'mplan.alloc_tensor', ...)").
// BOUNDDIM-LABEL: func @dim_of_bounded
// BOUNDDIM:       %[[S:.*]] = affine.min
// BOUNDDIM:       %[[SLAB:.*]] = mplan.alloc_slab : <192, 64>
// BOUNDDIM:       mplan.alloc_tensor id(0) {{.*}} -> memref<40xf32>
// BOUNDDIM:       mplan.alloc_dynamic id(1) (%[[S]]) live {{.*}} in %[[SLAB]] above []
func.func @dim_of_bounded(%n: index, %out: memref<?xf32>) {
  %c0 = arith.constant 0 : index
  %cst = arith.constant 1.0 : f32
  %s = affine.min affine_map<(d0) -> (d0, 40)>(%n)
  %a = memref.alloc(%s) : memref<?xf32>
  linalg.fill ins(%cst : f32) outs(%a : memref<?xf32>)
  %d = memref.dim %a, %c0 : memref<?xf32>
  %b = memref.alloc(%d) : memref<?x4xf32>
  linalg.fill ins(%cst : f32) outs(%b : memref<?x4xf32>)
  memref.copy %a, %out : memref<?xf32> to memref<?xf32>
  memref.dealloc %b : memref<?x4xf32>
  memref.dealloc %a : memref<?xf32>
  return
}

// -----

// Capture recomputes the sizes of run-time sized buffers where the function
// starts, once per value and in order (the second size reuses the first's
// clones), so that no later rewrite can make them depend on anything computed
// later.
// CHECK-LABEL: func @hoisted_in_order
// CHECK:       %[[C0:.*]] = arith.constant 0 : index
// CHECK:       %[[N:.*]] = memref.dim %arg0, %[[C0]]
// CHECK:       %[[C1:.*]] = arith.constant 1 : index
// CHECK:       %[[K:.*]] = arith.addi %[[N]], %[[C1]]
// CHECK:       mplan.alloc_slab
// CHECK:       mplan.alloc_dynamic id(0) (%[[N]])
// CHECK:       mplan.alloc_dynamic id(1) (%[[K]])
func.func @hoisted_in_order(%x: memref<?xf32>) {
  %cst = arith.constant 1.0 : f32
  %c0 = arith.constant 0 : index
  %n = memref.dim %x, %c0 : memref<?xf32>
  %a = memref.alloc(%n) : memref<?xf32>
  linalg.fill ins(%cst : f32) outs(%a : memref<?xf32>)
  %c1 = arith.constant 1 : index
  %k = arith.addi %n, %c1 : index
  %b = memref.alloc(%k) : memref<?xf32>
  linalg.fill ins(%cst : f32) outs(%b : memref<?xf32>)
  memref.copy %x, %a : memref<?xf32> to memref<?xf32>
  return
}

// -----

// Static dimensions whose byte size overflows int64 are not sized at run time.
// CHECK-LABEL: func @static_part_overflows
// CHECK:       memref.alloc(%arg0) {mplan.unplanned = "dynamic shape: no upper bound for dimension 0 {{.*}}; nor can it be sized at run time: the byte size of its static dimensions overflows int64"}
func.func @static_part_overflows(%n: index) {
  %a = memref.alloc(%n) : memref<?x4611686018427387904x4xf32>
  memref.dealloc %a : memref<?x4611686018427387904x4xf32>
  return
}

// -----

// `above` is transitively reduced: of three buffers live at once, the third is
// placed above the second only, which is above the first (listing the first
// again changes no offset; 1,500 such buffers gave 1.1M `arith.maxui` in
// convert-mplan-to-memref with every pair listed).
// CHECK-LABEL: func @all_live
// CHECK:       mplan.alloc_dynamic id(0) (%arg0) live [{{.*}}) in %{{.*}} above []
// CHECK:       mplan.alloc_dynamic id(1) (%arg0) live [{{.*}}) in %{{.*}} above [0]
// CHECK:       mplan.alloc_dynamic id(2) (%arg0) live [{{.*}}) in %{{.*}} above [1]
// REPORT:      "name": "all_live"
// REPORT:      "dynamic_arena": "max(0, end(0), end(1), end(2))"
// REPORT:      "arena_bytes_at_hint": 768
func.func @all_live(%n: index, %out: memref<?xf32>) {
  %c0 = arith.constant 0 : index
  %cst = arith.constant 1.0 : f32
  %b0 = memref.alloc(%n) : memref<?xf32>
  linalg.fill ins(%cst : f32) outs(%b0 : memref<?xf32>)
  %b1 = memref.alloc(%n) : memref<?xf32>
  linalg.fill ins(%cst : f32) outs(%b1 : memref<?xf32>)
  %b2 = memref.alloc(%n) : memref<?xf32>
  linalg.fill ins(%cst : f32) outs(%b2 : memref<?xf32>)
  %x0 = memref.load %b0[%c0] : memref<?xf32>
  %x1 = memref.load %b1[%c0] : memref<?xf32>
  %x2 = memref.load %b2[%c0] : memref<?xf32>
  %s1 = arith.addf %x0, %x1 : f32
  %s2 = arith.addf %s1, %x2 : f32
  memref.store %s2, %out[%c0] : memref<?xf32>
  memref.dealloc %b0 : memref<?xf32>
  memref.dealloc %b1 : memref<?xf32>
  memref.dealloc %b2 : memref<?xf32>
  return
}

// -----

// Sized where the function starts, a buffer must be allocated on every call that returns: one
// under a branch may not be, and on those calls its size at the start is whatever the
// arithmetic gives (`%n - 100` wraps for %n < 100; the arena sized by it fails). In a CFG, a
// block the entry does not always reach a return through keeps its buffer; the block every
// path goes through sizes its own.
// CHECK-LABEL: func @conditional
// CHECK:       scf.if
// CHECK:         memref.alloc(%{{.*}}) {mplan.unplanned = "dynamic shape: no upper bound for dimension 0 {{.*}}; nor can it be sized at run time: it is allocated inside 'scf.if', which may not run it on every call"}
func.func @conditional(%n: index) {
  %c100 = arith.constant 100 : index
  %cst = arith.constant 1.0 : f32
  %big = arith.cmpi sge, %n, %c100 : index
  scf.if %big {
    %sz = arith.subi %n, %c100 : index
    %a = memref.alloc(%sz) : memref<?xf32>
    linalg.fill ins(%cst : f32) outs(%a : memref<?xf32>)
    memref.dealloc %a : memref<?xf32>
  }
  return
}

// CHECK-LABEL: func @branches
// CHECK:       ^bb1:
// CHECK:         memref.alloc(%{{.*}}) {mplan.unplanned = "dynamic shape: no upper bound for dimension 0 {{.*}}; nor can it be sized at run time: its block does not run on every call"}
// CHECK:       ^bb2:
// CHECK:         mplan.alloc_dynamic id(0) (%arg0)
func.func @branches(%n: index, %c: i1) {
  %cst = arith.constant 1.0 : f32
  cf.cond_br %c, ^bb1, ^bb2
^bb1:
  %a = memref.alloc(%n) : memref<?xf32>
  linalg.fill ins(%cst : f32) outs(%a : memref<?xf32>)
  memref.dealloc %a : memref<?xf32>
  cf.br ^bb2
^bb2:
  %b = memref.alloc(%n) : memref<?xf32>
  linalg.fill ins(%cst : f32) outs(%b : memref<?xf32>)
  memref.dealloc %b : memref<?xf32>
  return
}

// -----

// The sizes are recomputed at the start of the block after any recomputed before; the op that
// was first there when capture began may be an allocation it has replaced since (this crashed).
// CHECK-LABEL: func @first_replaced
// CHECK:       %[[C2:.*]] = arith.constant 2 : index
// CHECK-NEXT:  arith.muli %arg0, %[[C2]]
// CHECK:       mplan.alloc_slab : <64, 64>
// CHECK:       mplan.alloc_tensor id(0)
// CHECK:       mplan.alloc_dynamic id(1)
func.func @first_replaced(%n: index) {
  %a = memref.alloc() : memref<4xf32>
  %cst = arith.constant 1.0 : f32
  linalg.fill ins(%cst : f32) outs(%a : memref<4xf32>)
  %c2 = arith.constant 2 : index
  %k = arith.muli %n, %c2 : index
  %b = memref.alloc(%k) : memref<?xf32>
  linalg.fill ins(%cst : f32) outs(%b : memref<?xf32>)
  memref.dealloc %a : memref<4xf32>
  memref.dealloc %b : memref<?xf32>
  return
}
