// RUN: mplan-opt %s --split-input-file --verify-diagnostics \
// RUN:   --convert-mplan-to-memref="arena=global" | FileCheck %s

// arena=global gives a function one arena for all its activations: a function that may
// have two activations at once gets a heap arena instead, with a remark at its slab.

// Self recursion.
// CHECK-NOT: memref.global
// CHECK-LABEL: func.func @self(
// CHECK: %[[H:.*]] = memref.alloc() {alignment = 64 : i64, mplan.arena} : memref<64xi8>
// CHECK: memref.dealloc %[[H]]
func.func @self(%n: i1, %x: f32) {
  // expected-remark @below {{function 'self' is in a call-graph cycle (recursive), so its activations would share a global arena; allocated on the heap instead}}
  %slab = mplan.alloc_slab : !mplan.slab<64, 64>
  %a = mplan.alloc_tensor id(0) live [1, 4) at %slab[0] : !mplan.slab<64, 64> -> memref<16xf32>
  linalg.fill ins(%x : f32) outs(%a : memref<16xf32>)
  scf.if %n {
    func.call @self(%n, %x) : (i1, f32) -> ()
  }
  mplan.release_slab %slab : !mplan.slab<64, 64>
  return
}

// -----

// Mutual recursion through a function without a slab; @leaf, called from the cycle but
// not in it, keeps its global.
// CHECK-NOT: memref.global
// CHECK-LABEL: func.func @ping(
// CHECK: memref.alloc() {alignment = 64 : i64, mplan.arena} : memref<64xi8>
// CHECK-NOT: memref.global
// CHECK: memref.global "private" @__mplan_arena_leaf
// CHECK-LABEL: func.func @leaf(
// CHECK: memref.get_global @__mplan_arena_leaf
func.func @ping(%n: i1, %x: f32) {
  // expected-remark @below {{function 'ping' is in a call-graph cycle (recursive)}}
  %slab = mplan.alloc_slab : !mplan.slab<64, 64>
  %a = mplan.alloc_tensor id(0) live [1, 4) at %slab[0] : !mplan.slab<64, 64> -> memref<16xf32>
  linalg.fill ins(%x : f32) outs(%a : memref<16xf32>)
  func.call @pong(%n, %x) : (i1, f32) -> ()
  func.call @leaf(%x) : (f32) -> ()
  mplan.release_slab %slab : !mplan.slab<64, 64>
  return
}

func.func @pong(%n: i1, %x: f32) {
  scf.if %n {
    func.call @ping(%n, %x) : (i1, f32) -> ()
  }
  return
}

func.func @leaf(%x: f32) {
  %slab = mplan.alloc_slab : !mplan.slab<64, 64>
  %a = mplan.alloc_tensor id(0) live [1, 2) at %slab[0] : !mplan.slab<64, 64> -> memref<16xf32>
  linalg.fill ins(%x : f32) outs(%a : memref<16xf32>)
  mplan.release_slab %slab : !mplan.slab<64, 64>
  return
}

// -----

// Recursion through a function pointer: a call_indirect may call any function whose
// address is taken.
// CHECK-NOT: memref.global
// CHECK-LABEL: func.func @indirect(
// CHECK: memref.alloc() {alignment = 64 : i64, mplan.arena} : memref<64xi8>
func.func @indirect(%n: i1, %x: f32) {
  // expected-remark @below {{function 'indirect' is in a call-graph cycle (recursive)}}
  %slab = mplan.alloc_slab : !mplan.slab<64, 64>
  %a = mplan.alloc_tensor id(0) live [1, 5) at %slab[0] : !mplan.slab<64, 64> -> memref<16xf32>
  linalg.fill ins(%x : f32) outs(%a : memref<16xf32>)
  %f = func.constant @indirect : (i1, f32) -> ()
  scf.if %n {
    func.call_indirect %f(%n, %x) : (i1, f32) -> ()
  }
  mplan.release_slab %slab : !mplan.slab<64, 64>
  return
}

// -----

// Through an external function that gets the function's address (a callback).
// CHECK-NOT: memref.global
// CHECK-LABEL: func.func @callback(
// CHECK: memref.alloc() {alignment = 64 : i64, mplan.arena} : memref<64xi8>
func.func private @visit((f32) -> (), f32)

func.func @callback(%x: f32) {
  // expected-remark @below {{function 'callback' is in a call-graph cycle (recursive)}}
  %slab = mplan.alloc_slab : !mplan.slab<64, 64>
  %a = mplan.alloc_tensor id(0) live [1, 5) at %slab[0] : !mplan.slab<64, 64> -> memref<16xf32>
  linalg.fill ins(%x : f32) outs(%a : memref<16xf32>)
  %f = func.constant @callback : (f32) -> ()
  func.call @visit(%f, %x) : ((f32) -> (), f32) -> ()
  mplan.release_slab %slab : !mplan.slab<64, 64>
  return
}

// -----

// Calling an external function that is given no function's address is no cycle.
// CHECK: memref.global "private" @__mplan_arena_plain
// CHECK-LABEL: func.func @plain(
// CHECK: memref.get_global @__mplan_arena_plain
func.func private @print(f32)

func.func @plain(%x: f32) {
  %slab = mplan.alloc_slab : !mplan.slab<64, 64>
  %a = mplan.alloc_tensor id(0) live [1, 3) at %slab[0] : !mplan.slab<64, 64> -> memref<16xf32>
  linalg.fill ins(%x : f32) outs(%a : memref<16xf32>)
  func.call @print(%x) : (f32) -> ()
  mplan.release_slab %slab : !mplan.slab<64, 64>
  return
}

// -----

// A function that may run in several instances at once (called, directly or not, from a
// region whose iterations may run concurrently) shares a global arena between them; so
// does a slab nested in such a region. @seq is only called sequentially.
// CHECK-NOT: memref.global
// CHECK-LABEL: func.func @body(
// CHECK: memref.alloc() {alignment = 64 : i64, mplan.arena} : memref<64xi8>
// CHECK-LABEL: func.func @body_callee(
// CHECK: memref.alloc() {alignment = 64 : i64, mplan.arena} : memref<64xi8>
// CHECK: memref.global "private" @__mplan_arena_seq
// CHECK-LABEL: func.func @seq(
// CHECK: memref.get_global @__mplan_arena_seq
// CHECK-LABEL: func.func @driver(
// CHECK-NOT: memref.global
// CHECK: scf.parallel
// CHECK-NEXT: memref.alloc() {alignment = 64 : i64, mplan.arena} : memref<64xi8>
func.func @body(%x: f32) {
  // expected-remark @below {{function 'body' may run in several instances at once (from scf.parallel in function 'driver'), which would share a global arena; allocated on the heap instead}}
  %slab = mplan.alloc_slab : !mplan.slab<64, 64>
  %a = mplan.alloc_tensor id(0) live [1, 3) at %slab[0] : !mplan.slab<64, 64> -> memref<16xf32>
  linalg.fill ins(%x : f32) outs(%a : memref<16xf32>)
  func.call @body_callee(%x) : (f32) -> ()
  mplan.release_slab %slab : !mplan.slab<64, 64>
  return
}

func.func @body_callee(%x: f32) {
  // expected-remark @below {{function 'body_callee' may run in several instances at once (from scf.parallel in function 'driver')}}
  %slab = mplan.alloc_slab : !mplan.slab<64, 64>
  %a = mplan.alloc_tensor id(0) live [1, 2) at %slab[0] : !mplan.slab<64, 64> -> memref<16xf32>
  linalg.fill ins(%x : f32) outs(%a : memref<16xf32>)
  mplan.release_slab %slab : !mplan.slab<64, 64>
  return
}

func.func @seq(%x: f32) {
  %slab = mplan.alloc_slab : !mplan.slab<64, 64>
  %a = mplan.alloc_tensor id(0) live [1, 2) at %slab[0] : !mplan.slab<64, 64> -> memref<16xf32>
  linalg.fill ins(%x : f32) outs(%a : memref<16xf32>)
  mplan.release_slab %slab : !mplan.slab<64, 64>
  return
}

func.func @driver(%x: f32, %n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  scf.parallel (%i) = (%c0) to (%n) step (%c1) {
    // A planned function inlined into the loop body.
    // expected-remark @below {{function 'driver' may run in several instances at once (from scf.parallel in function 'driver')}}
    %slab = mplan.alloc_slab : !mplan.slab<64, 64>
    %a = mplan.alloc_tensor id(0) live [6, 7) at %slab[0] : !mplan.slab<64, 64> -> memref<16xf32>
    linalg.fill ins(%x : f32) outs(%a : memref<16xf32>)
    mplan.release_slab %slab : !mplan.slab<64, 64>
    func.call @body(%x) : (f32) -> ()
    scf.reduce
  }
  scf.for %i = %c0 to %n step %c1 {
    func.call @seq(%x) : (f32) -> ()
  }
  return
}
