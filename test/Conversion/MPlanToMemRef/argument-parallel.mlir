// RUN: mplan-opt %s --split-input-file --convert-mplan-to-memref="arena=argument functions=work" \
// RUN:   | FileCheck %s

// arena=argument: a call whose iterations may run concurrently must not pass every
// iteration the same slice of the caller's arena. Such calls allocate the callee's arena
// on the heap inside the iteration, right around the call; a call in a sequential loop
// still gets a planned slice of the caller's arena.

func.func @work(%x: f32) {
  %slab = mplan.alloc_slab : !mplan.slab<64, 64>
  %a = mplan.alloc_tensor id(0) live [1, 2) at %slab[0] : !mplan.slab<64, 64> -> memref<16xf32>
  linalg.fill ins(%x : f32) outs(%a : memref<16xf32>)
  mplan.release_slab %slab : !mplan.slab<64, 64>
  return
}

// CHECK-LABEL: func.func @in_scf_parallel(
// CHECK: %[[ARENA:.*]] = memref.alloc() {alignment = 64 : i64, mplan.arena} : memref<64xi8>
// CHECK: scf.parallel
// CHECK-NEXT: %[[H:.*]] = memref.alloc() {alignment = 64 : i64, mplan.arena} : memref<64xi8>
// CHECK-NEXT: func.call @work(%{{.*}}, %[[H]]) : (f32, memref<64xi8>) -> ()
// CHECK-NEXT: memref.dealloc %[[H]] : memref<64xi8>
// CHECK-NEXT: scf.reduce
// CHECK: memref.dealloc %[[ARENA]]
func.func @in_scf_parallel(%x: f32, %n: index) {
  %slab = mplan.alloc_slab : !mplan.slab<64, 64>
  %a = mplan.alloc_tensor id(0) live [2, 9) at %slab[0] : !mplan.slab<64, 64> -> memref<16xf32>
  linalg.fill ins(%x : f32) outs(%a : memref<16xf32>)
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  scf.parallel (%i) = (%c0) to (%n) step (%c1) {
    func.call @work(%x) : (f32) -> ()
    scf.reduce
  }
  %v = memref.load %a[%c0] : memref<16xf32>
  mplan.release_slab %slab : !mplan.slab<64, 64>
  return
}

// Nested in a sequential op inside the parallel one: still concurrent.
// CHECK-LABEL: func.func @in_scf_forall(
// CHECK: scf.forall
// CHECK: scf.if
// CHECK-NEXT: %[[H:.*]] = memref.alloc() {alignment = 64 : i64, mplan.arena} : memref<64xi8>
// CHECK-NEXT: func.call @work(%{{.*}}, %[[H]])
// CHECK-NEXT: memref.dealloc %[[H]]
func.func @in_scf_forall(%x: f32, %c: i1) {
  %slab = mplan.alloc_slab : !mplan.slab<64, 64>
  %a = mplan.alloc_tensor id(0) live [1, 2) at %slab[0] : !mplan.slab<64, 64> -> memref<16xf32>
  linalg.fill ins(%x : f32) outs(%a : memref<16xf32>)
  scf.forall (%i) in (4) {
    scf.if %c {
      func.call @work(%x) : (f32) -> ()
    }
  }
  mplan.release_slab %slab : !mplan.slab<64, 64>
  return
}

// CHECK-LABEL: func.func @in_affine_parallel(
// CHECK: affine.parallel
// CHECK-NEXT: %[[H:.*]] = memref.alloc() {alignment = 64 : i64, mplan.arena} : memref<64xi8>
// CHECK-NEXT: func.call @work(%{{.*}}, %[[H]])
// CHECK-NEXT: memref.dealloc %[[H]]
func.func @in_affine_parallel(%x: f32) {
  %slab = mplan.alloc_slab : !mplan.slab<64, 64>
  %a = mplan.alloc_tensor id(0) live [1, 2) at %slab[0] : !mplan.slab<64, 64> -> memref<16xf32>
  linalg.fill ins(%x : f32) outs(%a : memref<16xf32>)
  affine.parallel (%i) = (0) to (4) {
    func.call @work(%x) : (f32) -> ()
  }
  mplan.release_slab %slab : !mplan.slab<64, 64>
  return
}

// CHECK-LABEL: func.func @in_omp_parallel(
// CHECK: omp.parallel
// CHECK-NEXT: %[[H:.*]] = memref.alloc() {alignment = 64 : i64, mplan.arena} : memref<64xi8>
// CHECK-NEXT: func.call @work(%{{.*}}, %[[H]])
// CHECK-NEXT: memref.dealloc %[[H]]
func.func @in_omp_parallel(%x: f32) {
  %slab = mplan.alloc_slab : !mplan.slab<64, 64>
  %a = mplan.alloc_tensor id(0) live [1, 2) at %slab[0] : !mplan.slab<64, 64> -> memref<16xf32>
  linalg.fill ins(%x : f32) outs(%a : memref<16xf32>)
  omp.parallel {
    func.call @work(%x) : (f32) -> ()
    omp.terminator
  }
  mplan.release_slab %slab : !mplan.slab<64, 64>
  return
}

// The region of async.execute may run while the caller goes on.
// CHECK-LABEL: func.func @in_async_execute(
// CHECK: async.execute
// CHECK-NEXT: %[[H:.*]] = memref.alloc() {alignment = 64 : i64, mplan.arena} : memref<64xi8>
// CHECK-NEXT: func.call @work(%{{.*}}, %[[H]])
// CHECK-NEXT: memref.dealloc %[[H]]
func.func @in_async_execute(%x: f32) {
  %slab = mplan.alloc_slab : !mplan.slab<64, 64>
  %a = mplan.alloc_tensor id(0) live [1, 2) at %slab[0] : !mplan.slab<64, 64> -> memref<16xf32>
  linalg.fill ins(%x : f32) outs(%a : memref<16xf32>)
  %t = async.execute {
    func.call @work(%x) : (f32) -> ()
    async.yield
  }
  async.await %t : !async.token
  mplan.release_slab %slab : !mplan.slab<64, 64>
  return
}

// A sequential loop runs one call at a time: a planned slice of the caller's arena (past
// the 64 bytes of %a, live across the loop), no heap allocation.
// CHECK-LABEL: func.func @in_scf_for(
// CHECK: %[[ARENA:.*]] = memref.alloc() {alignment = 64 : i64, mplan.arena} : memref<128xi8>
// CHECK: scf.for
// CHECK-NEXT: %[[C64:.*]] = arith.constant 64 : index
// CHECK-NEXT: %[[S:.*]] = memref.view %[[ARENA]][%[[C64]]][] {{.*}} : memref<128xi8> to memref<64xi8>
// CHECK-NEXT: func.call @work(%{{.*}}, %[[S]])
// CHECK-NOT: memref.dealloc
// CHECK: }
func.func @in_scf_for(%x: f32, %n: index) {
  %slab = mplan.alloc_slab : !mplan.slab<64, 64>
  %a = mplan.alloc_tensor id(0) live [2, 9) at %slab[0] : !mplan.slab<64, 64> -> memref<16xf32>
  linalg.fill ins(%x : f32) outs(%a : memref<16xf32>)
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  scf.for %i = %c0 to %n step %c1 {
    func.call @work(%x) : (f32) -> ()
  }
  %v = memref.load %a[%c0] : memref<16xf32>
  mplan.release_slab %slab : !mplan.slab<64, 64>
  return
}
