// RUN: mplan-opt %s --convert-mplan-to-memref="arena=argument" | FileCheck %s

// A recursive call cannot take a slice of its caller's arena (the callee's size is not
// final while its caller is planned): it allocates the callee's arena on the heap around
// the call.
// CHECK-LABEL: func.func @rec(
// CHECK-SAME: %[[ARG:[a-z0-9]+]]: memref<64xi8> {mplan.arena})
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
