// RUN: mplan-opt %s --convert-mplan-to-memref="arena=heap" | FileCheck %s --check-prefix=HEAP
// RUN: mplan-opt %s --convert-mplan-to-memref | FileCheck %s --check-prefix=HEAP
// RUN: mplan-opt %s --convert-mplan-to-memref="arena=stack" | FileCheck %s --check-prefix=STACK
// RUN: mplan-opt %s --convert-mplan-to-memref="arena=global" | FileCheck %s --check-prefix=GLOBAL

// HEAP-LABEL: func.func @two_exits(
// HEAP: %[[A:.*]] = memref.alloc() {alignment = 128 : i64, mplan.arena} : memref<256xi8>
// HEAP: %[[C0:.*]] = arith.constant 0 : index
// HEAP: memref.view %[[A]][%[[C0]]][] {mplan.buffer_id = 0 : i64, mplan.live = array<i64: 1, 3>} : memref<256xi8> to memref<16xf32>
// HEAP: %[[C128:.*]] = arith.constant 128 : index
// HEAP: %[[V:.*]] = memref.view %[[A]][%[[C128]]][] {mplan.buffer_id = 1 : i64, mplan.live = array<i64: 2, 4>} : memref<256xi8> to memref<4x4xf32>
// HEAP: memref.reinterpret_cast %[[V]] to offset: [4], sizes: [2, 4], strides: [4, 1]
// HEAP: cf.cond_br
// HEAP: memref.dealloc %[[A]] : memref<256xi8>
// HEAP-NEXT: return
// HEAP: memref.dealloc %[[A]] : memref<256xi8>
// HEAP-NEXT: return
// HEAP-NOT: {{mplan\.(alloc_|release_|view )}}

// STACK-LABEL: func.func @two_exits(
// STACK: %[[A:.*]] = memref.alloca() {alignment = 128 : i64, mplan.arena} : memref<256xi8>
// STACK-COUNT-2: memref.view %[[A]]
// STACK-NOT: memref.dealloc
// STACK-NOT: {{mplan\.(alloc_|release_|view )}}

// GLOBAL: memref.global "private" @__mplan_arena_two_exits : memref<256xi8> = uninitialized {alignment = 128 : i64}
// GLOBAL-LABEL: func.func @two_exits(
// GLOBAL: %[[A:.*]] = memref.get_global @__mplan_arena_two_exits : memref<256xi8>
// GLOBAL-COUNT-2: memref.view %[[A]]
// GLOBAL-NOT: memref.dealloc
// GLOBAL-NOT: {{mplan\.(alloc_|release_|view )}}
func.func @two_exits(%c: i1, %x: f32) {
  %slab = mplan.alloc_slab : !mplan.slab<256, 128>
  %a = mplan.alloc_tensor id(0) live [1, 3) at %slab[0] : !mplan.slab<256, 128> -> memref<16xf32>
  %b = mplan.alloc_tensor id(1) live [2, 4) at %slab[128] : !mplan.slab<256, 128> -> memref<4x4xf32>
  %v = mplan.view %b[16] : memref<4x4xf32> to memref<2x4xf32, strided<[4, 1], offset: 4>>
  linalg.fill ins(%x : f32) outs(%a : memref<16xf32>)
  linalg.fill ins(%x : f32) outs(%v : memref<2x4xf32, strided<[4, 1], offset: 4>>)
  cf.cond_br %c, ^bb1, ^bb2
^bb1:
  mplan.release_slab %slab : !mplan.slab<256, 128>
  return
^bb2:
  mplan.release_slab %slab : !mplan.slab<256, 128>
  return
}

// A function without a slab is left alone.
// HEAP-LABEL: func.func @no_slab(
// HEAP-NEXT: return
// GLOBAL-NOT: @__mplan_arena_no_slab
func.func @no_slab() {
  return
}
