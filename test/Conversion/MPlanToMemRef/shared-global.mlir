// RUN: mplan-opt %s --split-input-file --verify-diagnostics \
// RUN:   --convert-mplan-to-memref="arena=shared-global" | FileCheck %s

// arena=shared-global: one memref.global for the module (per memory space). A function
// called from a function with a slab of its own (@shared) nests in its callers' arenas
// (arena=argument's machinery); every other function with a slab (@prefill, @decode) and
// every call of a nesting function from a caller without a slab (@main's call of @shared)
// uses the global from offset 0. None of them runs inside another (@step has no slab), so
// the global is the largest of their arenas, 320 bytes (@prefill's 256 and @shared's
// slice, placed after @prefill's buffer that lives across the call), not their sum.
// @shared is public, so it keeps its signature (issue 30: mlir-runner -e shared, a C
// caller): the arena-taking function is the private @__mplan_body_shared, which every call
// in the module calls, and @shared calls it with the global's first bytes (one more user).

// CHECK: memref.global "private" @__mplan_arena_shared : memref<320xi8> = uninitialized {alignment = 64 : i64}
// CHECK-NOT: memref.global
// CHECK-LABEL: func.func @shared(
// CHECK-SAME: %{{.*}}: f32) {
// CHECK-NEXT: %[[G:.*]] = memref.get_global @__mplan_arena_shared : memref<320xi8>
// CHECK-NEXT: %[[C0:.*]] = arith.constant 0 : index
// CHECK-NEXT: %[[S:.*]] = memref.view %[[G]][%[[C0]]][] : memref<320xi8> to memref<64xi8>
// CHECK-NEXT: call @__mplan_body_shared(%{{.*}}, %[[S]]) : (f32, memref<64xi8>) -> ()
// CHECK-NEXT: return
// CHECK-LABEL: func.func private @__mplan_body_shared(
// CHECK-SAME: %[[ARG:[a-z0-9]+]]: memref<64xi8> {llvm.noalias, mplan.arena})
// CHECK: %[[A:.*]] = memref.assume_alignment %[[ARG]], 64
// CHECK: memref.view %[[A]]
// CHECK-LABEL: func.func private @__mplan_body_shared_arena_size() -> index
// CHECK-LABEL: func.func @prefill(
// CHECK-NEXT: %[[G:.*]] = memref.get_global @__mplan_arena_shared : memref<320xi8> {mplan.arena}
// CHECK: memref.view %[[G]][%{{.*}}][] {mplan.buffer_id = 0 : i64{{.*}}} : memref<320xi8> to memref<64xf32>
// CHECK: %[[C256:.*]] = arith.constant 256 : index
// CHECK-NEXT: %[[S:.*]] = memref.view %[[G]][%[[C256]]][] {{.*}} : memref<320xi8> to memref<64xi8>
// CHECK-NEXT: call @__mplan_body_shared(%{{.*}}, %[[S]])
// CHECK-NOT: memref.dealloc
// CHECK-LABEL: func.func @decode(
// CHECK-NEXT: %[[G:.*]] = memref.get_global @__mplan_arena_shared : memref<320xi8> {mplan.arena}
// CHECK: %[[S:.*]] = memref.view %[[G]][%{{.*}}][] {{.*}} : memref<320xi8> to memref<64xi8>
// CHECK-NEXT: call @__mplan_body_shared(%{{.*}}, %[[S]])
// CHECK-LABEL: func.func @step(
// CHECK-NEXT: call @decode(%{{.*}}) : (f32) -> ()
// CHECK-LABEL: func.func @main(
// CHECK-NEXT: call @prefill(%{{.*}}) : (f32) -> ()
// CHECK-NEXT: call @step(%{{.*}}) : (f32) -> ()
// CHECK-NEXT: %[[G:.*]] = memref.get_global @__mplan_arena_shared : memref<320xi8>
// CHECK-NEXT: %[[C0:.*]] = arith.constant 0 : index
// CHECK-NEXT: %[[S:.*]] = memref.view %[[G]][%[[C0]]][] : memref<320xi8> to memref<64xi8>
// CHECK-NEXT: call @__mplan_body_shared(%{{.*}}, %[[S]]) : (f32, memref<64xi8>) -> ()
// CHECK-NOT: memref.alloc

// expected-remark @below {{arena=shared-global: one arena '__mplan_arena_shared' of 320 bytes from offset 0 for 4 users ('prefill', 'decode', the call of '__mplan_body_shared' in 'shared', the call of '__mplan_body_shared' in 'main'), instead of their sum, 576 bytes; not re-entrant}}
module {
  // expected-remark @below {{public function 'shared' keeps its signature: it calls '__mplan_body_shared', which takes its arena from the caller, as the calls in the module now do}}
  func.func @shared(%x: f32) {
    %slab = mplan.alloc_slab : !mplan.slab<64, 64>
    %a = mplan.alloc_tensor id(0) live [1, 2) at %slab[0] : !mplan.slab<64, 64> -> memref<16xf32>
    linalg.fill ins(%x : f32) outs(%a : memref<16xf32>)
    mplan.release_slab %slab : !mplan.slab<64, 64>
    return
  }
  func.func @prefill(%x: f32) {
    %slab = mplan.alloc_slab : !mplan.slab<256, 64>
    %a = mplan.alloc_tensor id(0) live [1, 5) at %slab[0] : !mplan.slab<256, 64> -> memref<64xf32>
    linalg.fill ins(%x : f32) outs(%a : memref<64xf32>)
    func.call @shared(%x) : (f32) -> ()
    %c0 = arith.constant 0 : index
    %v = memref.load %a[%c0] : memref<64xf32>
    mplan.release_slab %slab : !mplan.slab<256, 64>
    return
  }
  func.func @decode(%x: f32) {
    %slab = mplan.alloc_slab : !mplan.slab<128, 64>
    %a = mplan.alloc_tensor id(0) live [1, 2) at %slab[0] : !mplan.slab<128, 64> -> memref<32xf32>
    linalg.fill ins(%x : f32) outs(%a : memref<32xf32>)
    func.call @shared(%x) : (f32) -> ()
    mplan.release_slab %slab : !mplan.slab<128, 64>
    return
  }
  func.func @step(%x: f32) {
    func.call @decode(%x) : (f32) -> ()
    return
  }
  func.func @main(%x: f32) {
    func.call @prefill(%x) : (f32) -> ()
    func.call @step(%x) : (f32) -> ()
    func.call @shared(%x) : (f32) -> ()
    return
  }
}

// -----

// A function reachable from another user of offset 0 through a function without a slab
// (@inner, called from @outer through @mid) would overwrite the user's bytes: it gets a
// heap arena, with a remark. So does a call of a nesting function (@leaf) from a caller
// without a slab (@mid2) reachable from a user (@outer). The global is @outer's arena.
// (Private nesting functions, here and below, keep their name and take the arena.)

// CHECK: memref.global "private" @__mplan_arena_shared : memref<128xi8>
// CHECK-LABEL: func.func @inner(
// CHECK: %[[H:.*]] = memref.alloc() {alignment = 64 : i64, mplan.arena} : memref<512xi8>
// CHECK: memref.dealloc %[[H]]
// CHECK-LABEL: func.func private @leaf(
// CHECK-SAME: memref<64xi8> {llvm.noalias, mplan.arena}
// CHECK-LABEL: func.func @mid2(
// CHECK-NEXT: %[[H:.*]] = memref.alloc() {alignment = 64 : i64, mplan.arena} : memref<64xi8>
// CHECK-NEXT: call @leaf(%{{.*}}, %[[H]])
// CHECK-NEXT: memref.dealloc %[[H]]
// CHECK-LABEL: func.func @outer(
// CHECK-NEXT: memref.get_global @__mplan_arena_shared : memref<128xi8> {mplan.arena}

// expected-remark @below {{one arena '__mplan_arena_shared' of 128 bytes from offset 0 for 1 user ('outer'), instead of their sum, 128 bytes}}
module {
  func.func @inner(%x: f32) {
    // expected-remark @below {{function 'inner' may run while 'outer' uses the shared global arena from offset 0 (reachable through calls from it); allocated on the heap instead}}
    %slab = mplan.alloc_slab : !mplan.slab<512, 64>
    %a = mplan.alloc_tensor id(0) live [1, 2) at %slab[0] : !mplan.slab<512, 64> -> memref<128xf32>
    linalg.fill ins(%x : f32) outs(%a : memref<128xf32>)
    mplan.release_slab %slab : !mplan.slab<512, 64>
    return
  }
  func.func @mid(%x: f32) {
    func.call @inner(%x) : (f32) -> ()
    return
  }
  func.func private @leaf(%x: f32) {
    %slab = mplan.alloc_slab : !mplan.slab<64, 64>
    %a = mplan.alloc_tensor id(0) live [1, 2) at %slab[0] : !mplan.slab<64, 64> -> memref<16xf32>
    linalg.fill ins(%x : f32) outs(%a : memref<16xf32>)
    mplan.release_slab %slab : !mplan.slab<64, 64>
    return
  }
  func.func @mid2(%x: f32) {
    // expected-remark @below {{the arena of 'leaf' is allocated on the heap around this call: the caller 'mid2' may run while 'outer' uses the shared global arena from offset 0 (reachable through calls from it)}}
    func.call @leaf(%x) : (f32) -> ()
    return
  }
  func.func @outer(%x: f32) {
    %slab = mplan.alloc_slab : !mplan.slab<64, 64>
    %a = mplan.alloc_tensor id(0) live [1, 6) at %slab[0] : !mplan.slab<64, 64> -> memref<16xf32>
    linalg.fill ins(%x : f32) outs(%a : memref<16xf32>)
    func.call @mid(%x) : (f32) -> ()
    func.call @mid2(%x) : (f32) -> ()
    func.call @leaf(%x) : (f32) -> ()
    %c0 = arith.constant 0 : index
    %v = memref.load %a[%c0] : memref<16xf32>
    mplan.release_slab %slab : !mplan.slab<64, 64>
    return
  }
}

// -----

// Recursion and concurrency as for arena=global: a recursive function, a function that
// may run in several instances at once and a call that does (in scf.parallel) get heap
// arenas with a remark. @work nests in @seq's arena; @par has no slab.

// CHECK-LABEL: func.func @rec(
// CHECK: memref.alloc() {alignment = 64 : i64, mplan.arena} : memref<64xi8>
// CHECK-LABEL: func.func @body(
// CHECK: memref.alloc() {alignment = 64 : i64, mplan.arena} : memref<64xi8>
// CHECK-LABEL: func.func private @work(
// CHECK-SAME: memref<64xi8> {llvm.noalias, mplan.arena}
// CHECK-LABEL: func.func @seq(
// CHECK-NEXT: memref.get_global @__mplan_arena_shared : memref<128xi8> {mplan.arena}
// CHECK-LABEL: func.func @par(
// CHECK: scf.parallel
// CHECK-NEXT: %[[H:.*]] = memref.alloc() {alignment = 64 : i64, mplan.arena} : memref<64xi8>
// CHECK-NEXT: func.call @work(%{{.*}}, %[[H]])
// CHECK-NEXT: memref.dealloc %[[H]]
// CHECK-NEXT: func.call @body(

// expected-remark @below {{one arena '__mplan_arena_shared' of 128 bytes from offset 0 for 1 user ('seq'), instead of their sum, 128 bytes}}
module {
  func.func @rec(%n: i1, %x: f32) {
    // expected-remark @below {{function 'rec' is in a call-graph cycle (recursive), so its activations would share a global arena; allocated on the heap instead}}
    %slab = mplan.alloc_slab : !mplan.slab<64, 64>
    %a = mplan.alloc_tensor id(0) live [1, 4) at %slab[0] : !mplan.slab<64, 64> -> memref<16xf32>
    linalg.fill ins(%x : f32) outs(%a : memref<16xf32>)
    scf.if %n {
      func.call @rec(%n, %x) : (i1, f32) -> ()
    }
    mplan.release_slab %slab : !mplan.slab<64, 64>
    return
  }
  func.func @body(%x: f32) {
    // expected-remark @below {{function 'body' may run in several instances at once (from scf.parallel in function 'par'), which would share a global arena; allocated on the heap instead}}
    %slab = mplan.alloc_slab : !mplan.slab<64, 64>
    %a = mplan.alloc_tensor id(0) live [1, 2) at %slab[0] : !mplan.slab<64, 64> -> memref<16xf32>
    linalg.fill ins(%x : f32) outs(%a : memref<16xf32>)
    mplan.release_slab %slab : !mplan.slab<64, 64>
    return
  }
  func.func private @work(%x: f32) {
    %slab = mplan.alloc_slab : !mplan.slab<64, 64>
    %a = mplan.alloc_tensor id(0) live [1, 2) at %slab[0] : !mplan.slab<64, 64> -> memref<16xf32>
    linalg.fill ins(%x : f32) outs(%a : memref<16xf32>)
    mplan.release_slab %slab : !mplan.slab<64, 64>
    return
  }
  func.func @seq(%x: f32) {
    %slab = mplan.alloc_slab : !mplan.slab<64, 64>
    %a = mplan.alloc_tensor id(0) live [1, 5) at %slab[0] : !mplan.slab<64, 64> -> memref<16xf32>
    linalg.fill ins(%x : f32) outs(%a : memref<16xf32>)
    func.call @work(%x) : (f32) -> ()
    %c0 = arith.constant 0 : index
    %v = memref.load %a[%c0] : memref<16xf32>
    mplan.release_slab %slab : !mplan.slab<64, 64>
    return
  }
  func.func @par(%x: f32, %n: index) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    scf.parallel (%i) = (%c0) to (%n) step (%c1) {
      // expected-remark @below {{the arena of 'work' is allocated on the heap around this call: it is nested in scf.parallel, whose regions may run at once}}
      func.call @work(%x) : (f32) -> ()
      func.call @body(%x) : (f32) -> ()
      scf.reduce
    }
    return
  }
}

// -----

// A function whose address is taken cannot take its arena as an argument: it is a user
// of offset 0 itself, and every function an indirect call may reach from another user
// (here @cb, from @caller's call_indirect) gets a heap arena.

// CHECK-LABEL: func.func @cb(
// CHECK: memref.alloc() {alignment = 64 : i64, mplan.arena} : memref<256xi8>
// CHECK-LABEL: func.func @caller(
// CHECK-NEXT: memref.get_global @__mplan_arena_shared : memref<64xi8> {mplan.arena}

// expected-remark @below {{one arena '__mplan_arena_shared' of 64 bytes from offset 0 for 1 user ('caller')}}
module {
  func.func @cb(%x: f32) {
    // expected-remark @below {{function 'cb' may run while 'caller' uses the shared global arena from offset 0}}
    %slab = mplan.alloc_slab : !mplan.slab<256, 64>
    %a = mplan.alloc_tensor id(0) live [1, 2) at %slab[0] : !mplan.slab<256, 64> -> memref<64xf32>
    linalg.fill ins(%x : f32) outs(%a : memref<64xf32>)
    mplan.release_slab %slab : !mplan.slab<256, 64>
    return
  }
  func.func @caller(%f: (f32) -> (), %x: f32) {
    %slab = mplan.alloc_slab : !mplan.slab<64, 64>
    %a = mplan.alloc_tensor id(0) live [1, 4) at %slab[0] : !mplan.slab<64, 64> -> memref<16xf32>
    linalg.fill ins(%x : f32) outs(%a : memref<16xf32>)
    func.call_indirect %f(%x) : (f32) -> ()
    mplan.release_slab %slab : !mplan.slab<64, 64>
    return
  }
  func.func @main(%x: f32) {
    %f = func.constant @cb : (f32) -> ()
    func.call @caller(%f, %x) : ((f32) -> (), f32) -> ()
    return
  }
}

// -----

// Memory spaces: one shared global per space. Slabs in other spaces are not passed to
// callees (as with arena=argument): every function with one is a user of its space's
// global, or gets a heap arena in its space when it may run inside another user (@b).

// CHECK-DAG: memref.global "private" @__mplan_arena_shared_1 : memref<512xi8, 1> = uninitialized {alignment = 64 : i64}
// CHECK-DAG: memref.global "private" @__mplan_arena_shared : memref<64xi8> = uninitialized {alignment = 64 : i64}
// CHECK-LABEL: func.func @a(
// CHECK: memref.get_global @__mplan_arena_shared_1 : memref<512xi8, 1> {mplan.arena}
// CHECK-LABEL: func.func private @b(
// CHECK-SAME: memref<64xi8> {llvm.noalias, mplan.arena}
// CHECK: memref.alloc() {alignment = 64 : i64, mplan.arena} : memref<128xi8, 1>
// CHECK-LABEL: func.func @c(
// CHECK: memref.get_global @__mplan_arena_shared_1 : memref<512xi8, 1> {mplan.arena}
// CHECK: memref.get_global @__mplan_arena_shared : memref<64xi8> {mplan.arena}

// expected-remark @below {{one arena '__mplan_arena_shared' of 64 bytes from offset 0 for 1 user ('c'), instead of their sum, 64 bytes}}
// expected-remark @below {{one memory-space 1 : i64 arena '__mplan_arena_shared_1' of 512 bytes from offset 0 for 2 users ('a', 'c'), instead of their sum, 768 bytes}}
module {
  func.func @a(%x: f32) {
    %slab = mplan.alloc_slab : !mplan.slab<512, 64, 1>
    %a = mplan.alloc_tensor id(0) live [1, 2) at %slab[0] : !mplan.slab<512, 64, 1> -> memref<128xf32, 1>
    linalg.fill ins(%x : f32) outs(%a : memref<128xf32, 1>)
    mplan.release_slab %slab : !mplan.slab<512, 64, 1>
    return
  }
  func.func private @b(%x: f32) {
    // expected-remark @below {{function 'b' may run while 'c' uses the shared global arena from offset 0}}
    %s1 = mplan.alloc_slab : !mplan.slab<128, 64, 1>
    %slab = mplan.alloc_slab : !mplan.slab<64, 64>
    %a = mplan.alloc_tensor id(0) live [1, 2) at %s1[0] : !mplan.slab<128, 64, 1> -> memref<32xf32, 1>
    %b = mplan.alloc_tensor id(1) live [2, 3) at %slab[0] : !mplan.slab<64, 64> -> memref<16xf32>
    linalg.fill ins(%x : f32) outs(%a : memref<32xf32, 1>)
    linalg.fill ins(%x : f32) outs(%b : memref<16xf32>)
    mplan.release_slab %slab : !mplan.slab<64, 64>
    mplan.release_slab %s1 : !mplan.slab<128, 64, 1>
    return
  }
  func.func @c(%x: f32) {
    %s1 = mplan.alloc_slab : !mplan.slab<256, 64, 1>
    %slab = mplan.alloc_slab : !mplan.slab<64, 64>
    %a = mplan.alloc_tensor id(0) live [1, 2) at %s1[0] : !mplan.slab<256, 64, 1> -> memref<64xf32, 1>
    %b = mplan.alloc_tensor id(1) live [2, 4) at %slab[0] : !mplan.slab<64, 64> -> memref<16xf32>
    linalg.fill ins(%x : f32) outs(%a : memref<64xf32, 1>)
    linalg.fill ins(%x : f32) outs(%b : memref<16xf32>)
    func.call @b(%x) : (f32) -> ()
    mplan.release_slab %slab : !mplan.slab<64, 64>
    mplan.release_slab %s1 : !mplan.slab<256, 64, 1>
    return
  }
}
