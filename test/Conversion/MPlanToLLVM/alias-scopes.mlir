// RUN: mplan-opt %s --split-input-file --mplan-to-llvm | FileCheck %s
// RUN: mplan-opt %s --split-input-file --mplan-to-llvm="alias-scopes=false" \
// RUN:   | FileCheck %s --check-prefix=OFF
// RUN: mplan-opt %s --split-input-file --mplan-to-llvm -mlir-print-debuginfo \
// RUN:   | FileCheck %s --check-prefix=LOC

// Alias scopes of arena buffers (mplan-tag-buffer-accesses before the LLVM
// lowering, mplan-buffer-alias-scopes after it). Two planned buffers at
// disjoint bytes [0, 64) and [64, 128) of a heap arena, and the function's
// arguments, which are outside the arena.

// OFF-NOT: alias_scope
// LOC-NOT: mplan.access

// CHECK-DAG: #[[DOM:alias_scope_domain[0-9]*]] = #llvm.alias_scope_domain<{{.*}}description = "mplan arena buffers of @chain">
// CHECK-DAG: #[[OUT:alias_scope[0-9]*]] = #llvm.alias_scope<{{.*}}domain = #[[DOM]], description = "outside the arenas">
// CHECK-DAG: #[[B0:alias_scope[0-9]*]] = #llvm.alias_scope<{{.*}}domain = #[[DOM]], description = "arena 0 bytes [0, 64)">
// CHECK-DAG: #[[B1:alias_scope[0-9]*]] = #llvm.alias_scope<{{.*}}domain = #[[DOM]], description = "arena 0 bytes [64, 128)">
// CHECK-LABEL: llvm.func @chain
// CHECK: llvm.load %{{.*}} {alias_scopes = [#[[OUT]]], noalias_scopes = [#[[B0]], #[[B1]]]} : !llvm.ptr -> f32
// CHECK: llvm.store %{{.*}} {alias_scopes = [#[[B0]]], noalias_scopes = [#[[OUT]], #[[B1]]]} : f32, !llvm.ptr
// CHECK: llvm.load %{{.*}} {alias_scopes = [#[[B0]]], noalias_scopes = [#[[OUT]], #[[B1]]]} : !llvm.ptr -> f32
// CHECK: llvm.store %{{.*}} {alias_scopes = [#[[B1]]], noalias_scopes = [#[[OUT]], #[[B0]]]} : f32, !llvm.ptr
// CHECK: llvm.load %{{.*}} {alias_scopes = [#[[B1]]], noalias_scopes = [#[[OUT]], #[[B0]]]} : !llvm.ptr -> f32
// CHECK: llvm.store %{{.*}} {alias_scopes = [#[[OUT]]], noalias_scopes = [#[[B0]], #[[B1]]]} : f32, !llvm.ptr
func.func @chain(%in: memref<16xf32>, %out: memref<16xf32>) {
  %c0 = arith.constant 0 : index
  %c64 = arith.constant 64 : index
  %c3 = arith.constant 3 : index
  %arena = memref.alloc() {alignment = 64 : i64, mplan.arena} : memref<128xi8>
  %a = memref.view %arena[%c0][] : memref<128xi8> to memref<16xf32>
  %b = memref.view %arena[%c64][] : memref<128xi8> to memref<16xf32>
  %x = memref.load %in[%c3] : memref<16xf32>
  memref.store %x, %a[%c3] : memref<16xf32>
  %y = memref.load %a[%c3] : memref<16xf32>
  memref.store %y, %b[%c3] : memref<16xf32>
  %z = memref.load %b[%c3] : memref<16xf32>
  memref.store %z, %out[%c3] : memref<16xf32>
  memref.dealloc %arena : memref<128xi8>
  return
}

// -----

// Bytes shared at different times are never noalias: %a and %b are the same
// bytes (one scope), %c overlaps both; only %d is disjoint from them. No
// access is outside the arena, so there is no outside scope.

// CHECK-DAG: #[[AB:alias_scope[0-9]*]] = #llvm.alias_scope<{{.*}}description = "arena 0 bytes [0, 64)">
// CHECK-DAG: #[[C:alias_scope[0-9]*]] = #llvm.alias_scope<{{.*}}description = "arena 0 bytes [32, 96)">
// CHECK-DAG: #[[D:alias_scope[0-9]*]] = #llvm.alias_scope<{{.*}}description = "arena 0 bytes [96, 128)">
// CHECK-LABEL: llvm.func @reuse
// CHECK: llvm.store %{{.*}} {alias_scopes = [#[[AB]]], noalias_scopes = [#[[D]]]}
// CHECK: llvm.load %{{.*}} {alias_scopes = [#[[AB]]], noalias_scopes = [#[[D]]]}
// CHECK: llvm.store %{{.*}} {alias_scopes = [#[[AB]]], noalias_scopes = [#[[D]]]}
// CHECK: llvm.store %{{.*}} {alias_scopes = [#[[C]]], noalias_scopes = [#[[D]]]}
// CHECK: llvm.store %{{.*}} {alias_scopes = [#[[D]]], noalias_scopes = [#[[AB]], #[[C]]]}
func.func @reuse(%v: f32) {
  %c0 = arith.constant 0 : index
  %c32 = arith.constant 32 : index
  %c96 = arith.constant 96 : index
  %arena = memref.alloc() {alignment = 64 : i64, mplan.arena} : memref<128xi8>
  %a = memref.view %arena[%c0][] : memref<128xi8> to memref<16xf32>
  memref.store %v, %a[%c0] : memref<16xf32>
  %x = memref.load %a[%c0] : memref<16xf32>
  %b = memref.view %arena[%c0][] : memref<128xi8> to memref<4x4xf32>
  memref.store %x, %b[%c0, %c0] : memref<4x4xf32>
  %c = memref.view %arena[%c32][] : memref<128xi8> to memref<16xf32>
  memref.store %x, %c[%c0] : memref<16xf32>
  %d = memref.view %arena[%c96][] : memref<128xi8> to memref<8xf32>
  memref.store %x, %d[%c0] : memref<8xf32>
  memref.dealloc %arena : memref<128xi8>
  return
}

// -----

// Views of a buffer (subview, collapse_shape, cast, reinterpret_cast) stay
// inside it: a static subview gets the bytes it addresses, which overlap the
// buffer's (no noalias between them); a memref.copy between two buffers
// carries both.

// CHECK-DAG: #[[OUT:alias_scope[0-9]*]] = #llvm.alias_scope<{{.*}}description = "outside the arenas">
// CHECK-DAG: #[[SUB:alias_scope[0-9]*]] = #llvm.alias_scope<{{.*}}description = "arena 0 bytes [64, 192)">
// CHECK-DAG: #[[A:alias_scope[0-9]*]] = #llvm.alias_scope<{{.*}}description = "arena 0 bytes [0, 256)">
// CHECK-DAG: #[[B:alias_scope[0-9]*]] = #llvm.alias_scope<{{.*}}description = "arena 0 bytes [256, 512)">
// CHECK-LABEL: llvm.func @views
// CHECK: llvm.store %{{.*}} {alias_scopes = [#[[SUB]]], noalias_scopes = [#[[OUT]], #[[B]]]}
// CHECK: llvm.load %{{.*}} {alias_scopes = [#[[A]]], noalias_scopes = [#[[OUT]], #[[B]]]}
// CHECK: llvm.store %{{.*}} {alias_scopes = [#[[A]]], noalias_scopes = [#[[OUT]], #[[B]]]}
// CHECK: "llvm.intr.memcpy"(%{{.*}}) <{alias_scopes = [#[[A]], #[[B]]], isVolatile = false, noalias_scopes = [#[[OUT]]]}>
// CHECK: llvm.load %{{.*}} {alias_scopes = [#[[B]]], noalias_scopes = [#[[OUT]], #[[SUB]], #[[A]]]}
func.func @views(%v: f32, %out: memref<f32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c256 = arith.constant 256 : index
  %arena = memref.alloc() {alignment = 64 : i64, mplan.arena} : memref<512xi8>
  %a = memref.view %arena[%c0][] : memref<512xi8> to memref<8x8xf32>
  %sub = memref.subview %a[2, 0] [4, 8] [1, 1]
      : memref<8x8xf32> to memref<4x8xf32, strided<[8, 1], offset: 16>>
  memref.store %v, %sub[%c1, %c1] : memref<4x8xf32, strided<[8, 1], offset: 16>>
  %flat = memref.collapse_shape %a [[0, 1]] : memref<8x8xf32> into memref<64xf32>
  %x = memref.load %flat[%c1] : memref<64xf32>
  %cast = memref.cast %a : memref<8x8xf32> to memref<?x8xf32>
  %re = memref.reinterpret_cast %cast to offset: [0], sizes: [64], strides: [1]
      : memref<?x8xf32> to memref<64xf32>
  memref.store %x, %re[%c0] : memref<64xf32>
  %b = memref.view %arena[%c256][] : memref<512xi8> to memref<8x8xf32>
  memref.copy %a, %b : memref<8x8xf32> to memref<8x8xf32>
  %y = memref.load %b[%c1, %c1] : memref<8x8xf32>
  memref.store %y, %out[] : memref<f32>
  memref.dealloc %arena : memref<512xi8>
  return
}

// -----

// An access whose memref cannot be traced to a place (loaded from memory, a
// call result, a block argument) gets no metadata.

// CHECK-LABEL: llvm.func @unknown
// CHECK: llvm.store %{{.*}} {alias_scopes = [#{{alias_scope[0-9]*}}]} : f32, !llvm.ptr
// CHECK: llvm.call @opaque
// CHECK: llvm.store %{{[0-9a-z_]+}}, %{{[0-9]+}} : f32, !llvm.ptr
// CHECK: llvm.cond_br
// CHECK: llvm.store %{{[0-9a-z_]+}}, %{{[0-9]+}} : f32, !llvm.ptr
func.func private @opaque() -> memref<16xf32>
func.func @unknown(%v: f32, %pick: i1) {
  %c0 = arith.constant 0 : index
  %arena = memref.alloc() {alignment = 64 : i64, mplan.arena} : memref<64xi8>
  %a = memref.view %arena[%c0][] : memref<64xi8> to memref<16xf32>
  memref.store %v, %a[%c0] : memref<16xf32>
  %r = func.call @opaque() : () -> memref<16xf32>
  memref.store %v, %r[%c0] : memref<16xf32>
  cf.cond_br %pick, ^bb1(%a : memref<16xf32>), ^bb1(%r : memref<16xf32>)
^bb1(%m: memref<16xf32>):
  memref.store %v, %m[%c0] : memref<16xf32>
  memref.dealloc %arena : memref<64xi8>
  return
}

// -----

// An arena allocated in a loop (a new one each iteration) gives no byte
// ranges; a function without an arena gets no metadata at all.

// CHECK-LABEL: llvm.func @nested_arena
// CHECK-NOT: alias_scopes
// CHECK-LABEL: llvm.func @no_arena
// CHECK-NOT: alias_scopes
// CHECK: llvm.return
func.func @nested_arena(%v: f32, %n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c64 = arith.constant 64 : index
  scf.for %i = %c0 to %n step %c1 {
    %arena = memref.alloc() {alignment = 64 : i64, mplan.arena} : memref<128xi8>
    %a = memref.view %arena[%c0][] : memref<128xi8> to memref<16xf32>
    %b = memref.view %arena[%c64][] : memref<128xi8> to memref<16xf32>
    memref.store %v, %a[%c0] : memref<16xf32>
    memref.store %v, %b[%c0] : memref<16xf32>
    memref.dealloc %arena : memref<128xi8>
  }
  return
}
func.func @no_arena(%v: f32, %m: memref<4xf32>) {
  %c0 = arith.constant 0 : index
  %a = memref.alloc() : memref<4xf32>
  memref.store %v, %a[%c0] : memref<4xf32>
  memref.copy %a, %m : memref<4xf32> to memref<4xf32>
  memref.dealloc %a : memref<4xf32>
  return
}

// -----

// A global arena and a stack arena in two memory spaces of one function: two
// arenas (numbered 0 for the alloca, 1 for the global), so any byte range of
// one is disjoint from any of the other.

// CHECK-DAG: #[[OUT:alias_scope[0-9]*]] = #llvm.alias_scope<{{.*}}description = "outside the arenas">
// CHECK-DAG: #[[G:alias_scope[0-9]*]] = #llvm.alias_scope<{{.*}}description = "arena 1 bytes [0, 16)">
// CHECK-DAG: #[[S:alias_scope[0-9]*]] = #llvm.alias_scope<{{.*}}description = "arena 0 bytes [0, 16)">
// CHECK-LABEL: llvm.func @two_arenas
// CHECK: llvm.store %{{.*}} {alias_scopes = [#[[G]]], noalias_scopes = [#[[OUT]], #[[S]]]} : f32, !llvm.ptr
// CHECK: llvm.store %{{.*}} {alias_scopes = [#[[S]]], noalias_scopes = [#[[OUT]], #[[G]]]} : f32, !llvm.ptr<1>
// CHECK: llvm.load %{{.*}} {alias_scopes = [#[[OUT]]], noalias_scopes = [#[[G]], #[[S]]]}
memref.global "private" @__mplan_arena_two_arenas : memref<16xi8> = uninitialized {alignment = 64 : i64}
func.func @two_arenas(%v: f32, %in: memref<4xf32>) -> f32 {
  %c0 = arith.constant 0 : index
  %g = memref.get_global @__mplan_arena_two_arenas : memref<16xi8> {mplan.arena}
  %s = memref.alloca() {alignment = 64 : i64, mplan.arena} : memref<16xi8, 1>
  %a = memref.view %g[%c0][] : memref<16xi8> to memref<4xf32>
  %b = memref.view %s[%c0][] : memref<16xi8, 1> to memref<4xf32, 1>
  memref.store %v, %a[%c0] : memref<4xf32>
  memref.store %v, %b[%c0] : memref<4xf32, 1>
  %x = memref.load %in[%c0] : memref<4xf32>
  return %x : f32
}

// -----

// arena=argument: the other arguments are outside the arena argument only
// when it is `llvm.noalias` (the caller's obligation); without it they get
// no metadata, and the arena's byte ranges are still disjoint from each other.

// CHECK-DAG: #[[OUT:alias_scope[0-9]*]] = #llvm.alias_scope<{{.*}}description = "outside the arenas">
// CHECK-DAG: #[[A:alias_scope[0-9]*]] = #llvm.alias_scope<{{.*}}description = "arena 0 bytes [0, 16)">
// CHECK-DAG: #[[B:alias_scope[0-9]*]] = #llvm.alias_scope<{{.*}}description = "arena 0 bytes [16, 32)">
// CHECK-DAG: #[[AD:alias_scope_domain[0-9]*]] = #llvm.alias_scope_domain<{{.*}}description = "mplan arena buffers of @callee_aligned">
// CHECK-DAG: #[[AO:alias_scope[0-9]*]] = #llvm.alias_scope<{{.*}}domain = #[[AD]], description = "outside the arenas">
// CHECK-DAG: #[[AA:alias_scope[0-9]*]] = #llvm.alias_scope<{{.*}}domain = #[[AD]], description = "arena 0 bytes [0, 16)">
// CHECK-DAG: #[[AB:alias_scope[0-9]*]] = #llvm.alias_scope<{{.*}}domain = #[[AD]], description = "arena 0 bytes [16, 32)">
// CHECK-LABEL: llvm.func @callee_noalias
// CHECK: llvm.load %{{.*}} {alias_scopes = [#[[OUT]]], noalias_scopes = [#[[A]]]}
// CHECK: llvm.store %{{.*}} {alias_scopes = [#[[A]]], noalias_scopes = [#[[OUT]]]}
// CHECK-LABEL: llvm.func @callee_maybe_alias
// CHECK: llvm.load %{{[0-9]+}} : !llvm.ptr -> f32
// CHECK: llvm.store %{{.*}} {alias_scopes = [#[[BA:.*]]], noalias_scopes = [#[[BB:.*]]]}
// CHECK: llvm.store %{{.*}} {alias_scopes = [#[[BB]]], noalias_scopes = [#[[BA]]]}
// The arena argument as convert-mplan-to-memref hands it to the views, through
// memref.assume_alignment: the same byte ranges (it was the whole arena for
// every buffer: LLVM saw every pair of them as possibly overlapping).
// CHECK-LABEL: llvm.func @callee_aligned
// CHECK: llvm.load %{{.*}} {alias_scopes = [#[[AO]]], noalias_scopes = [#[[AA]], #[[AB]]]}
// CHECK: llvm.store %{{.*}} {alias_scopes = [#[[AA]]], noalias_scopes = [#[[AO]], #[[AB]]]}
// CHECK: llvm.store %{{.*}} {alias_scopes = [#[[AB]]], noalias_scopes = [#[[AO]], #[[AA]]]}
func.func @callee_noalias(%in: memref<4xf32>, %arena: memref<16xi8> {llvm.noalias, mplan.arena}) {
  %c0 = arith.constant 0 : index
  %a = memref.view %arena[%c0][] : memref<16xi8> to memref<4xf32>
  %x = memref.load %in[%c0] : memref<4xf32>
  memref.store %x, %a[%c0] : memref<4xf32>
  return
}
func.func @callee_maybe_alias(%in: memref<4xf32>, %arena: memref<32xi8> {mplan.arena}) {
  %c0 = arith.constant 0 : index
  %c16 = arith.constant 16 : index
  %a = memref.view %arena[%c0][] : memref<32xi8> to memref<4xf32>
  %b = memref.view %arena[%c16][] : memref<32xi8> to memref<4xf32>
  %x = memref.load %in[%c0] : memref<4xf32>
  memref.store %x, %a[%c0] : memref<4xf32>
  memref.store %x, %b[%c0] : memref<4xf32>
  return
}
func.func @callee_aligned(%in: memref<4xf32>, %arena: memref<32xi8> {llvm.noalias, mplan.arena}) {
  %c0 = arith.constant 0 : index
  %c16 = arith.constant 16 : index
  %aligned = memref.assume_alignment %arena, 64 : memref<32xi8>
  %a = memref.view %aligned[%c0][] : memref<32xi8> to memref<4xf32>
  %b = memref.view %aligned[%c16][] : memref<32xi8> to memref<4xf32>
  %x = memref.load %in[%c0] : memref<4xf32>
  memref.store %x, %a[%c0] : memref<4xf32>
  memref.store %x, %b[%c0] : memref<4xf32>
  return
}

// -----

// Buffers sized at run time within a bound (convert-mplan-to-memref: a
// reinterpret_cast with dynamic sizes of a view sized at the bound, marked
// mplan.bound) get the bytes the bound allows: [0, 4 x 33) and [192, 196)
// (every arena buffer had the whole arena before: decoder_step's loops over
// them were not vectorized). Without the mark the stated bound is not used.

// CHECK-DAG: #[[R:alias_scope[0-9]*]] = #llvm.alias_scope<{{.*}}description = "arena 0 bytes [0, 132)">
// CHECK-DAG: #[[W:alias_scope[0-9]*]] = #llvm.alias_scope<{{.*}}description = "arena 0 bytes [192, 196)">
// CHECK-LABEL: llvm.func @bounded
// CHECK: llvm.store %{{.*}} {alias_scopes = [#[[R]]], noalias_scopes = [#[[W]]]}
// CHECK: llvm.store %{{.*}} {alias_scopes = [#[[W]]], noalias_scopes = [#[[R]]]}
// CHECK-LABEL: llvm.func @unmarked
// CHECK: llvm.store %{{.*}} {alias_scopes = [#{{.*}}]} : f32
// CHECK: llvm.store %{{.*}} {alias_scopes = [#{{.*}}]} : f32
func.func @bounded(%m: memref<?xf32>, %v: f32) attributes {mplan.arg_upper_bound = 32 : i64} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c192 = arith.constant 192 : index
  %arena = memref.alloc() {alignment = 64 : i64, mplan.arena} : memref<256xi8>
  %a = memref.view %arena[%c0][] : memref<256xi8> to memref<33xf32>
  %dim = memref.dim %m, %c0 : memref<?xf32>
  %n = arith.addi %dim, %c1 : index
  %r = memref.reinterpret_cast %a to offset: [0], sizes: [%n], strides: [1] {mplan.bound = "dimension 0 <= 33"} : memref<33xf32> to memref<?xf32>
  %w = memref.view %arena[%c192][] : memref<256xi8> to memref<1xf32>
  memref.store %v, %r[%dim] : memref<?xf32>
  memref.store %v, %w[%c0] : memref<1xf32>
  memref.dealloc %arena : memref<256xi8>
  return
}
func.func @unmarked(%m: memref<?xf32>, %v: f32) attributes {mplan.arg_upper_bound = 32 : i64} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c192 = arith.constant 192 : index
  %arena = memref.alloc() {alignment = 64 : i64, mplan.arena} : memref<256xi8>
  %a = memref.view %arena[%c0][] : memref<256xi8> to memref<33xf32>
  %dim = memref.dim %m, %c0 : memref<?xf32>
  %n = arith.addi %dim, %c1 : index
  %r = memref.reinterpret_cast %a to offset: [0], sizes: [%n], strides: [1] : memref<33xf32> to memref<?xf32>
  %w = memref.view %arena[%c192][] : memref<256xi8> to memref<1xf32>
  memref.store %v, %r[%dim] : memref<?xf32>
  memref.store %v, %w[%c0] : memref<1xf32>
  memref.dealloc %arena : memref<256xi8>
  return
}

// -----

// A mark written in the input is not trusted: mplan-tag-buffer-accesses drops
// it, so no scope comes of it.

// CHECK-LABEL: llvm.func @forged
// CHECK-NOT: alias_scopes
// CHECK: llvm.return
func.func @forged(%v: f32, %m: memref<4xf32>, %n: memref<4xf32>) {
  %c0 = arith.constant 0 : index
  memref.store %v, %m[%c0] : memref<4xf32> loc(fused<{mplan.access = [array<i64: 0, 0, 4>]}>["forged"])
  memref.store %v, %n[%c0] : memref<4xf32> loc(fused<{mplan.access = [array<i64: 0, 8, 12>]}>["forged"])
  return
}

// -----

// An arena freed before the function ends, with an allocation after it that
// may reuse its bytes (a callee's arena allocated around a call has this
// shape), is not an arena here: no scopes.

// CHECK-LABEL: llvm.func @freed_early
// CHECK-NOT: alias_scopes
// CHECK: llvm.return
func.func @freed_early(%v: f32) -> memref<4xf32> {
  %c0 = arith.constant 0 : index
  %c16 = arith.constant 16 : index
  %arena = memref.alloc() {alignment = 64 : i64, mplan.arena} : memref<32xi8>
  %a = memref.view %arena[%c0][] : memref<32xi8> to memref<4xf32>
  %b = memref.view %arena[%c16][] : memref<32xi8> to memref<4xf32>
  memref.store %v, %a[%c0] : memref<4xf32>
  memref.store %v, %b[%c0] : memref<4xf32>
  memref.dealloc %arena : memref<32xi8>
  %later = memref.alloc() : memref<4xf32>
  memref.store %v, %later[%c0] : memref<4xf32>
  return %later : memref<4xf32>
}

// -----

// A reinterpret_cast of a shifted view re-derives its extent from the view's
// pointer: rc = X[16, 48) overlaps w = X[32, 48) (issue 30: the cast once got
// the view's [16, 32) and was declared noalias with w).

// CHECK-DAG: #[[RC:alias_scope[0-9]*]] = #llvm.alias_scope<{{.*}}description = "arena 0 bytes [16, 48)">
// CHECK-DAG: #[[W:alias_scope[0-9]*]] = #llvm.alias_scope<{{.*}}description = "arena 0 bytes [32, 48)">
// CHECK-LABEL: llvm.func @cast_of_shifted_view
// CHECK: llvm.store %{{.*}} {alias_scopes = [#[[W]]], noalias_scopes = [#{{[a-z_0-9]+}}]}
// CHECK: llvm.store %{{.*}} {alias_scopes = [#[[RC]]], noalias_scopes = [#{{[a-z_0-9]+}}]}
// CHECK: llvm.load %{{.*}} {alias_scopes = [#[[W]]], noalias_scopes = [#{{[a-z_0-9]+}}]}
func.func @cast_of_shifted_view(%out: memref<f32>) {
  %c1 = arith.constant 1 : index
  %c5 = arith.constant 5 : index
  %c16 = arith.constant 16 : index
  %c32 = arith.constant 32 : index
  %one = arith.constant 1.0 : f32
  %two = arith.constant 2.0 : f32
  %x = memref.alloc() {alignment = 64 : i64, mplan.arena} : memref<64xi8>
  %v = memref.view %x[%c16][] : memref<64xi8> to memref<4xf32>
  %rc = memref.reinterpret_cast %v to offset: [0], sizes: [8], strides: [1] : memref<4xf32> to memref<8xf32>
  %w = memref.view %x[%c32][] : memref<64xi8> to memref<4xf32>
  memref.store %one, %w[%c1] : memref<4xf32>
  memref.store %two, %rc[%c5] : memref<8xf32>
  %r = memref.load %w[%c1] : memref<4xf32>
  memref.store %r, %out[] : memref<f32>
  memref.dealloc %x : memref<64xi8>
  return
}
