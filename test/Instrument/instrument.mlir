// RUN: mplan-opt %s --split-input-file --mplan-instrument | FileCheck %s

// Heap allocations, frees, planned buffer regions (begin before the first use, end after the
// last use of anything aliasing it, here through a subview) and function entry/exit.

// CHECK: memref.global "private" constant @__mplan_rt_strings
// CHECK-DAG: func.func private @mplan_rt_enter(index)
// CHECK-DAG: func.func private @mplan_rt_region_begin(index, index, index, index, index, index, index, index, index)
// CHECK-LABEL: func.func @f(
// CHECK: call @mplan_rt_enter(
// CHECK-NEXT: %[[OFF:.*]] = arith.constant 64 : index
// CHECK: %[[A:.*]] = memref.alloc() {alignment = 64 : i64, mplan.arena} : memref<128xi8>
// CHECK: %[[AP:.*]] = memref.extract_aligned_pointer_as_index %[[A]]
// CHECK: %[[C128:.*]] = arith.constant 128 : index
// CHECK: %[[HEAP:.*]] = arith.constant 0 : index
// CHECK: call @mplan_rt_alloc(%{{.*}}, %[[AP]], %[[C128]], %[[HEAP]])
// CHECK: %[[V:.*]] = memref.view %[[A]][%[[OFF]]][] {mplan.buffer_id = 7 : i64, mplan.live = array<i64: 1, 3>}
// CHECK: %[[VP:.*]] = memref.extract_aligned_pointer_as_index %[[A]]
// CHECK: call @mplan_rt_region_begin(%{{.*}}, %{{.*}}, %[[VP]], %{{.*}}, %[[OFF]], %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}})
// CHECK: %[[S:.*]] = memref.subview %[[V]]
// CHECK: linalg.fill ins(%{{.*}} : f32) outs(%[[S]]
// CHECK-NEXT: %[[ID:.*]] = arith.constant 7 : index
// CHECK-NEXT: %[[EP:.*]] = memref.extract_aligned_pointer_as_index %[[A]]
// CHECK-NEXT: call @mplan_rt_region_end(%[[ID]], %[[EP]])
// CHECK: call @mplan_rt_free(
// CHECK-NEXT: memref.dealloc %[[A]]
// CHECK: call @mplan_rt_exit(
// CHECK-NEXT: return
func.func @f(%x: f32) {
  %c64 = arith.constant 64 : index
  %a = memref.alloc() {alignment = 64 : i64, mplan.arena} : memref<128xi8>
  %v = memref.view %a[%c64][] {mplan.buffer_id = 7 : i64, mplan.live = array<i64: 1, 3>} : memref<128xi8> to memref<16xf32>
  %s = memref.subview %v[0] [8] [1] : memref<16xf32> to memref<8xf32, strided<[1]>>
  linalg.fill ins(%x : f32) outs(%s : memref<8xf32, strided<[1]>>)
  %y = arith.addf %x, %x : f32
  memref.dealloc %a : memref<128xi8>
  return
}

// -----

// Dynamic sizes are computed at run time; stack and global arenas are recorded as such.
// CHECK-LABEL: func.func @g(
// CHECK: %[[D:.*]] = memref.alloc(%[[N:.*]]) : memref<?xf32>
// CHECK: %[[C4:.*]] = arith.constant 4 : index
// CHECK: %[[DIM:.*]] = memref.dim %[[D]], %{{.*}}
// CHECK: %[[BYTES:.*]] = arith.muli %[[C4]], %[[DIM]] : index
// CHECK: call @mplan_rt_alloc(%{{.*}}, %{{.*}}, %[[BYTES]], %{{.*}})
// CHECK: memref.alloca() : memref<8xf32>
// CHECK: %[[STACK:.*]] = arith.constant 1 : index
// CHECK-NEXT: call @mplan_rt_alloc(%{{.*}}, %{{.*}}, %{{.*}}, %[[STACK]])
// CHECK: memref.get_global @arena
// CHECK: %[[STATIC:.*]] = arith.constant 2 : index
// CHECK-NEXT: call @mplan_rt_alloc(%{{.*}}, %{{.*}}, %{{.*}}, %[[STATIC]])
memref.global "private" @arena : memref<64xi8> = uninitialized
func.func @g(%n: index) {
  %d = memref.alloc(%n) : memref<?xf32>
  %s = memref.alloca() : memref<8xf32>
  %g = memref.get_global @arena : memref<64xi8> {mplan.arena}
  memref.dealloc %d : memref<?xf32>
  return
}

