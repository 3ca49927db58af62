// RUN: mplan-opt %s --convert-mplan-to-memref="arena=argument" | FileCheck %s

// A recursive call cannot take a slice of its caller's arena (the callee's size is not
// final while its caller is planned): it allocates the callee's arena on the heap around
// the call.
// CHECK-LABEL: func.func @rec(
// CHECK-SAME: %[[ARG:[a-z0-9]+]]: memref<64xi8> {llvm.noalias, mplan.arena})
// CHECK: %[[H:.*]] = memref.alloc() {alignment = 64 : i64, mplan.arena} : memref<64xi8>
// CHECK-NEXT: call @rec(%{{.*}}, %[[H]])
// CHECK-NEXT: memref.dealloc %[[H]]
func.func @rec(%n: i1, %x: f32) {
  %slab = mplan.alloc_slab : !mplan.slab<64, 64>
  %a = mplan.alloc_tensor id(0) live [1, 2) at %slab[0] : !mplan.slab<64, 64> -> memref<16xf32>
  linalg.fill ins(%x : f32) outs(%a : memref<16xf32>)
  scf.if %n {
    func.call @rec(%n, %x) : (i1, f32) -> ()
  }
  mplan.release_slab %slab : !mplan.slab<64, 64>
  return
}

// Mutual recursion: callees are processed first, so @odd (reached from @even) is final
// when @even is processed: @even passes @odd a planned slice of its arena (after %a, live
// across the call), which grows @even's arena to 128 bytes. @odd's call back to @even
// comes first in the post-order, before @even's size is known: @even's final 128-byte
// arena comes from the heap around that call.
// CHECK-LABEL: func.func @even(
// CHECK-SAME: %[[ARG:[a-z0-9]+]]: memref<128xi8> {llvm.noalias, mplan.arena})
// CHECK: %[[A:.*]] = memref.assume_alignment %[[ARG]], 64 : memref<128xi8>
// CHECK: %[[C64:.*]] = arith.constant 64 : index
// CHECK-NEXT: %[[S:.*]] = memref.view %[[A]][%[[C64]]][] {{.*}} : memref<128xi8> to memref<64xi8>
// CHECK-NEXT: call @odd(%{{.*}}, %[[S]])
// CHECK-LABEL: func.func @odd(
// CHECK-SAME: %{{.*}}: memref<64xi8> {llvm.noalias, mplan.arena})
// CHECK: %[[H:.*]] = memref.alloc() {alignment = 64 : i64, mplan.arena} : memref<128xi8>
// CHECK-NEXT: call @even(%{{.*}}, %[[H]])
// CHECK-NEXT: memref.dealloc %[[H]]
func.func @even(%n: i1, %x: f32) {
  %slab = mplan.alloc_slab : !mplan.slab<64, 64>
  %a = mplan.alloc_tensor id(0) live [1, 5) at %slab[0] : !mplan.slab<64, 64> -> memref<16xf32>
  linalg.fill ins(%x : f32) outs(%a : memref<16xf32>)
  scf.if %n {
    func.call @odd(%n, %x) : (i1, f32) -> ()
  }
  %c0 = arith.constant 0 : index
  %v = memref.load %a[%c0] : memref<16xf32>
  mplan.release_slab %slab : !mplan.slab<64, 64>
  return
}

func.func @odd(%n: i1, %x: f32) {
  %slab = mplan.alloc_slab : !mplan.slab<64, 64>
  %a = mplan.alloc_tensor id(0) live [1, 2) at %slab[0] : !mplan.slab<64, 64> -> memref<16xf32>
  linalg.fill ins(%x : f32) outs(%a : memref<16xf32>)
  scf.if %n {
    func.call @even(%n, %x) : (i1, f32) -> ()
  }
  mplan.release_slab %slab : !mplan.slab<64, 64>
  return
}
