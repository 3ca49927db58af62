// RUN: mplan-opt %s --split-input-file --mplan-instrument | FileCheck %s

// Planned buffers of a function with blocks: a region ends where the buffer is dead on
// the path taken, never later. Buffer 0 is used in ^bb1 only: it ends after that use in
// ^bb1 (so buffer 1 may take its bytes there) and at the start of ^bb2, where it is dead
// on entry. Buffers 1 and 2 flow into ^bb3's argument and end after its use there.

// CHECK-LABEL: func.func @branches(
// CHECK: %[[A:.*]] = memref.alloc() {mplan.arena}
// CHECK: %[[V0:.*]] = memref.view %[[A]]{{.*}}mplan.buffer_id = 0
// CHECK: call @mplan_rt_region_begin(
// CHECK-NOT: call @mplan_rt_region_end(
// CHECK: cf.cond_br %{{.*}}, ^[[BB1:.*]], ^[[BB2:.*]]
// CHECK: ^[[BB1]]:
// CHECK-NEXT: linalg.fill ins(%{{.*}} : f32) outs(%[[V0]] :
// CHECK-NEXT: %[[ID0:.*]] = arith.constant 0 : index
// CHECK-NEXT: %[[P0:.*]] = memref.extract_aligned_pointer_as_index %[[A]]
// CHECK-NEXT: call @mplan_rt_region_end(%[[ID0]], %[[P0]])
// CHECK-NEXT: memref.view %[[A]]{{.*}}mplan.buffer_id = 1
// CHECK: cf.br ^[[BB3:.*]](
// CHECK: ^[[BB2]]:
// CHECK-NEXT: %[[ID0B:.*]] = arith.constant 0 : index
// CHECK-NEXT: %[[P0B:.*]] = memref.extract_aligned_pointer_as_index %[[A]]
// CHECK-NEXT: call @mplan_rt_region_end(%[[ID0B]], %[[P0B]])
// CHECK-NEXT: memref.view %[[A]]{{.*}}mplan.buffer_id = 2
// CHECK: ^[[BB3]](%[[M:.*]]: memref<16xf32>):
// CHECK-NEXT: linalg.fill ins(%{{.*}} : f32) outs(%[[M]] :
// CHECK-DAG: %[[ID2:.*]] = arith.constant 2 : index
// CHECK-DAG: call @mplan_rt_region_end(%[[ID2]],
// CHECK-DAG: %[[ID1:.*]] = arith.constant 1 : index
// CHECK-DAG: call @mplan_rt_region_end(%[[ID1]],
// CHECK: call @mplan_rt_free(
// CHECK: call @mplan_rt_exit(
// CHECK-NEXT: return
func.func @branches(%c: i1, %x: f32) {
  %c0 = arith.constant 0 : index
  %a = memref.alloc() {mplan.arena} : memref<128xi8>
  %v0 = memref.view %a[%c0][] {mplan.buffer_id = 0 : i64} : memref<128xi8> to memref<16xf32>
  linalg.fill ins(%x : f32) outs(%v0 : memref<16xf32>)
  cf.cond_br %c, ^bb1, ^bb2
^bb1:
  linalg.fill ins(%x : f32) outs(%v0 : memref<16xf32>)
  %v1 = memref.view %a[%c0][] {mplan.buffer_id = 1 : i64} : memref<128xi8> to memref<16xf32>
  linalg.fill ins(%x : f32) outs(%v1 : memref<16xf32>)
  cf.br ^bb3(%v1 : memref<16xf32>)
^bb2:
  %v2 = memref.view %a[%c0][] {mplan.buffer_id = 2 : i64} : memref<128xi8> to memref<16xf32>
  cf.br ^bb3(%v2 : memref<16xf32>)
^bb3(%m: memref<16xf32>):
  linalg.fill ins(%x : f32) outs(%m : memref<16xf32>)
  memref.dealloc %a : memref<128xi8>
  return
}

// -----

// A buffer that dies along one edge into a block it reaches along another: the end goes
// into a block inserted on that edge. Buffer 0 reaches ^bb1 as its argument through the
// first edge only, buffer 1 through the second only.

// CHECK-LABEL: func.func @critical_edges(
// CHECK: %[[A:.*]] = memref.alloc() {mplan.arena}
// CHECK: %[[V0:.*]] = memref.view %[[A]]{{.*}}mplan.buffer_id = 0
// CHECK: %[[V1:.*]] = memref.view %[[A]]{{.*}}mplan.buffer_id = 1
// CHECK: cf.cond_br %{{.*}}, ^[[E0:.*]](%[[V0]] : memref<16xf32>), ^[[E1:.*]](%[[V1]] : memref<16xf32>)
// CHECK: ^[[E1]](%[[X1:.*]]: memref<16xf32>):
// CHECK-NEXT: %[[ID0:.*]] = arith.constant 0 : index
// CHECK-NEXT: memref.extract_aligned_pointer_as_index %[[A]]
// CHECK-NEXT: call @mplan_rt_region_end(%[[ID0]],
// CHECK-NEXT: cf.br ^[[BB:.*]](%[[X1]] : memref<16xf32>)
// CHECK: ^[[E0]](%[[X0:.*]]: memref<16xf32>):
// CHECK-NEXT: %[[ID1:.*]] = arith.constant 1 : index
// CHECK-NEXT: memref.extract_aligned_pointer_as_index %[[A]]
// CHECK-NEXT: call @mplan_rt_region_end(%[[ID1]],
// CHECK-NEXT: cf.br ^[[BB]](%[[X0]] : memref<16xf32>)
// CHECK: ^[[BB]](%[[M:.*]]: memref<16xf32>):
// CHECK-NEXT: linalg.fill ins(%{{.*}} : f32) outs(%[[M]] :
func.func @critical_edges(%c: i1, %x: f32) {
  %c0 = arith.constant 0 : index
  %c64 = arith.constant 64 : index
  %a = memref.alloc() {mplan.arena} : memref<128xi8>
  %v0 = memref.view %a[%c0][] {mplan.buffer_id = 0 : i64} : memref<128xi8> to memref<16xf32>
  %v1 = memref.view %a[%c64][] {mplan.buffer_id = 1 : i64} : memref<128xi8> to memref<16xf32>
  cf.cond_br %c, ^bb1(%v0 : memref<16xf32>), ^bb1(%v1 : memref<16xf32>)
^bb1(%m: memref<16xf32>):
  linalg.fill ins(%x : f32) outs(%m : memref<16xf32>)
  memref.dealloc %a : memref<128xi8>
  return
}

// -----

// A CFG loop: buffer 1, defined in the loop body, ends after its last use in every
// iteration; buffer 0, used after the loop, stays live through it and ends after that use.

// CHECK-LABEL: func.func @loop(
// CHECK: %[[A:.*]] = memref.alloc() {mplan.arena}
// CHECK: %[[V0:.*]] = memref.view %[[A]]{{.*}}mplan.buffer_id = 0
// CHECK: ^[[LOOP:.*]](%{{.*}}: index):
// CHECK-NEXT: %[[V1:.*]] = memref.view %[[A]]{{.*}}mplan.buffer_id = 1
// CHECK: linalg.fill ins(%{{.*}} : f32) outs(%[[V1]] :
// CHECK-NEXT: %[[ID1:.*]] = arith.constant 1 : index
// CHECK-NEXT: memref.extract_aligned_pointer_as_index %[[A]]
// CHECK-NEXT: call @mplan_rt_region_end(%[[ID1]],
// CHECK-NOT: call @mplan_rt_region_end(
// CHECK: cf.cond_br %{{.*}}, ^[[LOOP]](%{{.*}} : index), ^[[EXIT:.*]]
// CHECK: ^[[EXIT]]:
// CHECK-NEXT: linalg.fill ins(%{{.*}} : f32) outs(%[[V0]] :
// CHECK-NEXT: %[[ID0:.*]] = arith.constant 0 : index
// CHECK-NEXT: memref.extract_aligned_pointer_as_index %[[A]]
// CHECK-NEXT: call @mplan_rt_region_end(%[[ID0]],
func.func @loop(%n: index, %x: f32) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c64 = arith.constant 64 : index
  %a = memref.alloc() {mplan.arena} : memref<128xi8>
  %v0 = memref.view %a[%c0][] {mplan.buffer_id = 0 : i64} : memref<128xi8> to memref<16xf32>
  cf.br ^bb1(%c0 : index)
^bb1(%i: index):
  %v1 = memref.view %a[%c64][] {mplan.buffer_id = 1 : i64} : memref<128xi8> to memref<16xf32>
  linalg.fill ins(%x : f32) outs(%v1 : memref<16xf32>)
  %next = arith.addi %i, %c1 : index
  %more = arith.cmpi slt, %next, %n : index
  cf.cond_br %more, ^bb1(%next : index), ^bb2
^bb2:
  linalg.fill ins(%x : f32) outs(%v0 : memref<16xf32>)
  memref.dealloc %a : memref<128xi8>
  return
}

// -----

// A buffer passed to a function of the module lives until the call only when the callee
// returns none of its aliases (here a clone): the call's result is a new buffer.

// CHECK-LABEL: func.func @caller(
// CHECK: %[[A:.*]] = memref.alloc() {mplan.arena}
// CHECK: %[[R:.*]] = call @clone_of_argument(
// CHECK-NEXT: %[[ID:.*]] = arith.constant 0 : index
// CHECK-NEXT: memref.extract_aligned_pointer_as_index %[[A]]
// CHECK-NEXT: call @mplan_rt_region_end(%[[ID]],
// CHECK-NEXT: linalg.fill ins(%{{.*}} : f32) outs(%[[R]] :
func.func @clone_of_argument(%x: memref<16xf32>) -> memref<16xf32> {
  %c = bufferization.clone %x : memref<16xf32> to memref<16xf32>
  return %c : memref<16xf32>
}
func.func @caller(%x: f32) {
  %c0 = arith.constant 0 : index
  %a = memref.alloc() {mplan.arena} : memref<64xi8>
  %v = memref.view %a[%c0][] {mplan.buffer_id = 0 : i64} : memref<64xi8> to memref<16xf32>
  %r = call @clone_of_argument(%v) : (memref<16xf32>) -> memref<16xf32>
  linalg.fill ins(%x : f32) outs(%r : memref<16xf32>)
  memref.dealloc %r : memref<16xf32>
  memref.dealloc %a : memref<64xi8>
  return
}

// -----

// ... and until the last use of the call's result when the callee returns its argument.

// CHECK-LABEL: func.func @caller_of_identity(
// CHECK: %[[R:.*]] = call @identity(
// CHECK-NEXT: linalg.fill ins(%{{.*}} : f32) outs(%[[R]] :
// CHECK-NEXT: %[[ID:.*]] = arith.constant 0 : index
// CHECK-NEXT: memref.extract_aligned_pointer_as_index
// CHECK-NEXT: call @mplan_rt_region_end(%[[ID]],
func.func @identity(%x: memref<16xf32>) -> memref<16xf32> {
  return %x : memref<16xf32>
}
func.func @caller_of_identity(%x: f32) {
  %c0 = arith.constant 0 : index
  %a = memref.alloc() {mplan.arena} : memref<64xi8>
  %v = memref.view %a[%c0][] {mplan.buffer_id = 0 : i64} : memref<64xi8> to memref<16xf32>
  %r = call @identity(%v) : (memref<16xf32>) -> memref<16xf32>
  linalg.fill ins(%x : f32) outs(%r : memref<16xf32>)
  memref.dealloc %a : memref<64xi8>
  return
}

// -----

// A buffer carried around a loop (yielded to the next iteration) lives across the loop:
// its region ends after the last use of the loop's result, not in the loop body.

// CHECK-LABEL: func.func @carried(
// CHECK: %[[A:.*]] = memref.alloc() {mplan.arena}
// CHECK: %[[R:.*]] = scf.for
// CHECK: memref.view %[[A]]{{.*}}mplan.buffer_id = 0
// CHECK: func.call @mplan_rt_region_begin(
// CHECK-NOT: call @mplan_rt_region_end(
// CHECK: scf.yield
// CHECK: linalg.fill ins(%{{.*}} : f32) outs(%[[R]] :
// CHECK-NEXT: %[[ID:.*]] = arith.constant 0 : index
// CHECK-NEXT: memref.extract_aligned_pointer_as_index %[[A]]
// CHECK-NEXT: call @mplan_rt_region_end(%[[ID]],
func.func @carried(%x: f32, %n: index, %init: memref<16xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %a = memref.alloc() {mplan.arena} : memref<128xi8>
  %r = scf.for %i = %c0 to %n step %c1 iter_args(%prev = %init) -> (memref<16xf32>) {
    %v = memref.view %a[%c0][] {mplan.buffer_id = 0 : i64} : memref<128xi8> to memref<16xf32>
    memref.copy %prev, %v : memref<16xf32> to memref<16xf32>
    scf.yield %v : memref<16xf32>
  }
  linalg.fill ins(%x : f32) outs(%r : memref<16xf32>)
  memref.dealloc %a : memref<128xi8>
  return
}
