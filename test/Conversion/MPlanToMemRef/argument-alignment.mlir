// RUN: mplan-opt %s --convert-mplan-to-memref="arena=argument functions=vec" | FileCheck %s

// arena=argument: the callee's arena is placed in the caller's plan at a multiple of the
// callee's slab alignment (here 16, for its vector<4xf32> elements), not at the first
// free byte (8, after %a), and the caller's slab takes the larger alignment.

// CHECK-LABEL: func.func @vec(
// CHECK-SAME: %[[ARG:[a-z0-9]+]]: memref<16xi8> {llvm.noalias, mplan.arena})
// CHECK-SAME: attributes {mplan.arena_alignment = 16 : i64, mplan.arena_size = 16 : i64}
func.func @vec(%x: vector<4xf32>) {
  %slab = mplan.alloc_slab : !mplan.slab<16, 16>
  %a = mplan.alloc_tensor id(0) live [1, 2) at %slab[0] : !mplan.slab<16, 16> -> memref<1xvector<4xf32>>
  %c0 = arith.constant 0 : index
  memref.store %x, %a[%c0] : memref<1xvector<4xf32>>
  mplan.release_slab %slab : !mplan.slab<16, 16>
  return
}

// CHECK-LABEL: func.func @caller(
// CHECK: %[[ARENA:.*]] = memref.alloc() {alignment = 16 : i64, mplan.arena} : memref<32xi8>
// CHECK: %[[C16:.*]] = arith.constant 16 : index
// CHECK-NEXT: %[[S:.*]] = memref.view %[[ARENA]][%[[C16]]][] {{.*}} : memref<32xi8> to memref<16xi8>
// CHECK-NEXT: call @vec(%{{.*}}, %[[S]])
func.func @caller(%x: vector<4xf32>, %y: f64) {
  %slab = mplan.alloc_slab : !mplan.slab<8, 8>
  %a = mplan.alloc_tensor id(0) live [1, 6) at %slab[0] : !mplan.slab<8, 8> -> memref<1xf64>
  %c0 = arith.constant 0 : index
  memref.store %y, %a[%c0] : memref<1xf64>
  call @vec(%x) : (vector<4xf32>) -> ()
  %v = memref.load %a[%c0] : memref<1xf64>
  mplan.release_slab %slab : !mplan.slab<8, 8>
  return
}
