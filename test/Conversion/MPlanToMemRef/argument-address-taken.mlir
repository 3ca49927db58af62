// RUN: mplan-opt %s --verify-diagnostics \
// RUN:   --convert-mplan-to-memref="arena=argument" | FileCheck %s

// arena=argument without functions=: a function whose address is taken (func.constant)
// could be called through the pointer, which passes no arena, so it is left out with a
// remark: it keeps its own heap arena and its callers call it unchanged. The other
// functions still take their arena from the caller (@other nests in @caller's slab).
// Named in functions=, the same function is an error at the use
// (invalid-functions.mlir).

// CHECK-LABEL: func.func @callee(
// CHECK-SAME: %{{.*}}: f32) {
// CHECK: %[[H:.*]] = memref.alloc() {alignment = 64 : i64, mplan.arena} : memref<64xi8>
// CHECK: memref.dealloc %[[H]]
// CHECK-NOT: @callee_arena_size
// CHECK-LABEL: func.func @other(
// CHECK-SAME: memref<64xi8> {llvm.noalias, mplan.arena})
// CHECK-LABEL: func.func @caller(
// CHECK-SAME: memref<128xi8> {llvm.noalias, mplan.arena})
// CHECK: call @callee(%{{.*}}) : (f32) -> ()
// CHECK: call @other(%{{.*}}, %{{.*}}) : (f32, memref<64xi8>) -> ()
// CHECK-LABEL: func.func @taker(
// CHECK: constant @callee : (f32) -> ()
func.func @callee(%x: f32) {
  %s = mplan.alloc_slab : !mplan.slab<64, 64>
  %a = mplan.alloc_tensor id(0) live [1, 2) at %s[0] : !mplan.slab<64, 64> -> memref<16xf32>
  linalg.fill ins(%x : f32) outs(%a : memref<16xf32>)
  mplan.release_slab %s : !mplan.slab<64, 64>
  return
}

func.func @other(%x: f32) {
  %s = mplan.alloc_slab : !mplan.slab<64, 64>
  %a = mplan.alloc_tensor id(0) live [1, 2) at %s[0] : !mplan.slab<64, 64> -> memref<16xf32>
  linalg.fill ins(%x : f32) outs(%a : memref<16xf32>)
  mplan.release_slab %s : !mplan.slab<64, 64>
  return
}

func.func @caller(%x: f32) {
  %s = mplan.alloc_slab : !mplan.slab<64, 64>
  %a = mplan.alloc_tensor id(0) live [1, 5) at %s[0] : !mplan.slab<64, 64> -> memref<16xf32>
  linalg.fill ins(%x : f32) outs(%a : memref<16xf32>)
  func.call @callee(%x) : (f32) -> ()
  func.call @other(%x) : (f32) -> ()
  %c0 = arith.constant 0 : index
  %v = memref.load %a[%c0] : memref<16xf32>
  mplan.release_slab %s : !mplan.slab<64, 64>
  return
}

func.func @taker() -> ((f32) -> ()) {
  // expected-remark @below {{function 'callee' keeps its own heap arena (arena=argument): this use of it is not a direct func.call inside a func.func, which could not pass an arena}}
  %f = func.constant @callee : (f32) -> ()
  return %f : (f32) -> ()
}
