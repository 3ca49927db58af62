// RUN: mplan-opt %s --split-input-file --mplan-instrument | FileCheck %s

// A planned buffer's region begins where the plan's live range begins: at its first use, not
// at its view (issue 30, item 4). Views sit where the allocations were; with allocations
// hoisted to the top (One-Shot Bufferize output), every region began there and two buffers
// the plan puts at the same bytes one after the other were reported as overlapping.

// Straight-line code: buffer 1's region begins after buffer 0's ended.
// CHECK-LABEL: func.func @hoisted(
// CHECK:       %[[V0:.*]] = memref.view {{.*}} {mplan.buffer_id = 0 : i64
// CHECK:       %[[V1:.*]] = memref.view {{.*}} {mplan.buffer_id = 1 : i64
// CHECK-NOT:   call @mplan_rt_region
// CHECK:       %[[ID0:.*]] = arith.constant 0 : index
// CHECK:       call @mplan_rt_region_begin(%{{.*}}, %[[ID0]],
// CHECK-NEXT:  linalg.fill ins(%{{.*}} : f32) outs(%[[V0]] : memref<16xf32>)
// CHECK:       memref.load %[[V0]]
// CHECK-NEXT:  %[[E0:.*]] = arith.constant 0 : index
// CHECK:       call @mplan_rt_region_end(%[[E0]],
// CHECK:       %[[ID1:.*]] = arith.constant 1 : index
// CHECK:       call @mplan_rt_region_begin(%{{.*}}, %[[ID1]],
// CHECK-NEXT:  linalg.fill ins(%{{.*}} : f32) outs(%[[V1]] : memref<16xf32>)
// CHECK:       memref.load %[[V1]]
// CHECK-NEXT:  %[[E1:.*]] = arith.constant 1 : index
// CHECK:       call @mplan_rt_region_end(%[[E1]],
func.func @hoisted(%x: f32) -> f32 {
  %c0 = arith.constant 0 : index
  %a = memref.alloc() {alignment = 64 : i64, mplan.arena} : memref<64xi8>
  %v0 = memref.view %a[%c0][] {mplan.buffer_id = 0 : i64, mplan.live = array<i64: 4, 6>} : memref<64xi8> to memref<16xf32>
  %v1 = memref.view %a[%c0][] {mplan.buffer_id = 1 : i64, mplan.live = array<i64: 6, 8>} : memref<64xi8> to memref<16xf32>
  linalg.fill ins(%x : f32) outs(%v0 : memref<16xf32>)
  %y = memref.load %v0[%c0] : memref<16xf32>
  linalg.fill ins(%y : f32) outs(%v1 : memref<16xf32>)
  %z = memref.load %v1[%c0] : memref<16xf32>
  memref.dealloc %a : memref<64xi8>
  return %z : f32
}

// -----

// A buffer nothing uses begins and ends right after its view; a run-time sized buffer begins
// at its first use too, its byte size taken there.
// CHECK-LABEL: func.func @unused_and_dynamic(
// CHECK:       memref.view {{.*}} {mplan.buffer_id = 0 : i64
// CHECK-NOT:   memref.alloc
// CHECK:       call @mplan_rt_region_begin(
// CHECK-NEXT:  %[[E:.*]] = arith.constant 0 : index
// CHECK:       call @mplan_rt_region_end(%[[E]],
// CHECK:       %[[D:.*]] = memref.view {{.*}} {mplan.buffer_id = 1 : i64
// CHECK-NEXT:  arith.addf
// CHECK:       memref.dim %[[D]]
// CHECK:       call @mplan_rt_region_begin(
// CHECK-NEXT:  linalg.fill ins(%{{.*}} : f32) outs(%[[D]] : memref<?xf32>)
func.func @unused_and_dynamic(%x: f32, %n: index) -> f32 {
  %c0 = arith.constant 0 : index
  %a = memref.alloc() {alignment = 64 : i64, mplan.arena} : memref<64xi8>
  %v0 = memref.view %a[%c0][] {mplan.buffer_id = 0 : i64} : memref<64xi8> to memref<16xf32>
  %h = memref.alloc() {alignment = 64 : i64, mplan.arena} : memref<1024xi8>
  %d = memref.view %h[%c0][%n] {mplan.buffer_id = 1 : i64} : memref<1024xi8> to memref<?xf32>
  %y = arith.addf %x, %x : f32
  linalg.fill ins(%y : f32) outs(%d : memref<?xf32>)
  %z = memref.load %d[%c0] : memref<?xf32>
  memref.dealloc %a : memref<64xi8>
  memref.dealloc %h : memref<1024xi8>
  return %z : f32
}

// -----

// In a CFG, a buffer first used in a later block begins before its block's terminator.
// CHECK-LABEL: func.func @later_block(
// CHECK:       %[[V:.*]] = memref.view {{.*}} {mplan.buffer_id = 3 : i64
// CHECK-NEXT:  arith.addf
// CHECK:       call @mplan_rt_region_begin(
// CHECK-NEXT:  cf.cond_br
// CHECK:       linalg.fill ins(%{{.*}} : f32) outs(%[[V]] : memref<16xf32>)
func.func @later_block(%x: f32, %c: i1) -> f32 {
  %c0 = arith.constant 0 : index
  %a = memref.alloc() {alignment = 64 : i64, mplan.arena} : memref<64xi8>
  %v = memref.view %a[%c0][] {mplan.buffer_id = 3 : i64} : memref<64xi8> to memref<16xf32>
  %y = arith.addf %x, %x : f32
  cf.cond_br %c, ^bb1, ^bb2(%x : f32)
^bb1:
  linalg.fill ins(%y : f32) outs(%v : memref<16xf32>)
  %z = memref.load %v[%c0] : memref<16xf32>
  cf.br ^bb2(%z : f32)
^bb2(%r: f32):
  memref.dealloc %a : memref<64xi8>
  return %r : f32
}
