// RUN: mplan-opt %s -split-input-file -allow-unregistered-dialect -test-mplan-points-to | FileCheck %s

// Views at constant shifts are exact ranges; a reinterpret_cast of a shifted
// view re-derives its extent from the view's pointer (issue 30: `rc[5]` and
// `w[1]` are the same bytes).
// CHECK-LABEL: func @views
func.func @views() {
  %c16 = arith.constant 16 : index
  %c32 = arith.constant 32 : index
  // CHECK: test.name = "X", test.ptr = "X[0, 64)"
  %x = memref.alloc() {test.name = "X", test.ptr} : memref<64xi8>
  // CHECK: test.name = "v", test.ptr = "X[16, 32)"
  %v = memref.view %x[%c16][] {test.name = "v", test.ptr} : memref<64xi8> to memref<4xf32>
  // CHECK: test.name = "rc", test.ptr = "X[16, 48)"
  %rc = memref.reinterpret_cast %v to offset: [0], sizes: [8], strides: [1] {test.name = "rc", test.ptr} : memref<4xf32> to memref<8xf32>
  // CHECK: test.name = "w", test.ptr = "X[32, 48)"
  %w = memref.view %x[%c32][] {test.name = "w", test.ptr} : memref<64xi8> to memref<4xf32>
  // CHECK: test.ptr = "X[20, 28)"
  %s = memref.subview %v[1] [2] [1] {test.ptr} : memref<4xf32> to memref<2xf32, strided<[1], offset: 1>>
  // CHECK: test.ptr = "X"
  %m, %off, %sz, %st = "memref.extract_strided_metadata"(%v) {test.ptr} : (memref<4xf32>) -> (memref<f32>, index, index, index)
  // CHECK: test.alias = true
  // CHECK: test.alias = false
  // CHECK: test.alias = false
  "test.op"() {test.alias = ["rc", "w"]} : () -> ()
  "test.op"() {test.alias = ["v", "w"]} : () -> ()
  "test.op"() {test.alias = ["X", "Y"]} : () -> ()
  %y = memref.alloc() {test.name = "Y"} : memref<64xi8>
  return
}

// -----

// A select, a region result, a loop-carried value and a block argument
// merge a local buffer with an argument (issue 30, item 2).
// CHECK-LABEL: func @merges
func.func @merges(%arg0: memref<4xf32>, %c: i1, %lb: index, %ub: index, %st: index) {
  %y = memref.alloc() {test.name = "Y"} : memref<4xf32>
  // CHECK: test.ptr = "Y[0, 16), arg0"
  %s = arith.select %c, %y, %arg0 {test.ptr} : memref<4xf32>
  // CHECK: test.ptr = "Y[0, 16), arg0"
  %i = scf.if %c -> memref<4xf32> {
    scf.yield %y : memref<4xf32>
  } else {
    scf.yield %arg0 : memref<4xf32>
  } {test.ptr}
  // CHECK: test.ptr = "Y[0, 16), arg0"
  %f = scf.for %iv = %lb to %ub step %st iter_args(%it = %y) -> memref<4xf32> {
    scf.yield %arg0 : memref<4xf32>
  } {test.ptr}
  // CHECK: test.ptr = "Y[0, 16), arg0"
  %cast = memref.cast %s {test.ptr} : memref<4xf32> to memref<?xf32>
  cf.cond_br %c, ^bb1(%y : memref<4xf32>), ^bb1(%arg0 : memref<4xf32>)
^bb1(%b: memref<4xf32>):
  // CHECK: test.ptr = "Y[0, 16), arg0[0, 16)"
  %v = memref.subview %b[0] [4] [1] {test.ptr} : memref<4xf32> to memref<4xf32, strided<[1]>>
  return
}

// -----

// Unknown memory: loads of memrefs, call results, ops the analysis does not
// know; a stored buffer escapes.
// CHECK-LABEL: func @unknown
func.func private @g(memref<4xf32>) -> memref<4xf32>
func.func @unknown(%box: memref<1xmemref<4xf32>>) {
  %c0 = arith.constant 0 : index
  %y = memref.alloc() {test.name = "Y"} : memref<4xf32>
  memref.store %y, %box[%c0] : memref<1xmemref<4xf32>>
  // CHECK: test.ptr = "unknown"
  %l = memref.load %box[%c0] {test.ptr} : memref<1xmemref<4xf32>>
  // CHECK: test.ptr = "Y![0, 16), unknown"
  %r = func.call @g(%y) {test.ptr} : (memref<4xf32>) -> memref<4xf32>
  // CHECK: test.ptr = "Y![0, 16), unknown"
  %u = "test.unknown"(%y) {test.ptr} : (memref<4xf32>) -> memref<4xf32>
  %z = memref.alloc() {test.name = "Z"} : memref<4xf32>
  // CHECK: test.alias = true
  // CHECK: test.alias = false
  "test.op"() {test.alias = ["Y", "l"]} : () -> ()
  "test.op"() {test.alias = ["Z", "l"]} : () -> ()
  %l2 = memref.load %box[%c0] {test.name = "l"} : memref<1xmemref<4xf32>>
  return
}

// -----

// A view moved around a loop by a shift each iteration widens to the whole
// place (the analysis reaches a fixed point).
// CHECK-LABEL: func @loop_shift
func.func @loop_shift(%n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %x = memref.alloc() {test.name = "X"} : memref<64xi8>
  %v0 = memref.view %x[%c0][] : memref<64xi8> to memref<64xi8>
  // CHECK: test.ptr = "X"
  %r = scf.for %i = %c0 to %n step %c1 iter_args(%v = %v0) -> memref<64xi8> {
    %next = memref.view %v[%c4][] : memref<64xi8> to memref<60xi8>
    %back = memref.reinterpret_cast %next to offset: [0], sizes: [64], strides: [1] : memref<60xi8> to memref<64xi8>
    scf.yield %back : memref<64xi8>
  } {test.ptr}
  return
}

// -----

// An effect on a value that is not a memref (a pointer made from an
// address) may touch unknown memory, and so may the argument.
// CHECK-LABEL: func @pointer
func.func @pointer(%arg0: memref<4xf32>) {
  %p = memref.extract_aligned_pointer_as_index %arg0 : memref<4xf32> -> index
  %i = arith.index_cast %p : index to i64
  // CHECK: test.name = "ptr", test.ptr = "unknown"
  %ptr = llvm.inttoptr %i {test.name = "ptr", test.ptr} : i64 to !llvm.ptr
  // CHECK: test.alias = true
  "test.op"() {test.alias = ["ptr", "A"]} : () -> ()
  %a = memref.subview %arg0[0] [4] [1] {test.name = "A"} : memref<4xf32> to memref<4xf32, strided<[1]>>
  return
}

// -----

// memref.assume_alignment keeps its operand's pointer (convert-mplan-to-memref
// gives an arena argument one): views of it at constant shifts are exact
// ranges of the argument, as views of the argument itself are.
// CHECK-LABEL: func @assume_alignment
func.func @assume_alignment(%arena: memref<128xi8>) {
  %c0 = arith.constant 0 : index
  %c64 = arith.constant 64 : index
  // CHECK: test.ptr = "arg0"
  %aligned = memref.assume_alignment %arena, 64 {test.ptr} : memref<128xi8>
  // CHECK: test.name = "a", test.ptr = "arg0[0, 64)"
  %a = memref.view %aligned[%c0][] {test.name = "a", test.ptr} : memref<128xi8> to memref<16xf32>
  // CHECK: test.name = "b", test.ptr = "arg0[64, 128)"
  %b = memref.view %aligned[%c64][] {test.name = "b", test.ptr} : memref<128xi8> to memref<16xf32>
  // CHECK: test.alias = false
  "test.op"() {test.alias = ["a", "b"]} : () -> ()
  return
}

// -----

// A reinterpret_cast with dynamic sizes or strides that convert-mplan-to-memref
// made of a buffer planned at its bound (mplan.bound) addresses the bytes the
// bounds allow (from the IR and the bounds stated on the arguments: the
// promise the plan rests on), and only inside its source. Any other cast with
// a dynamic layout may reach anywhere in its allocation: index arithmetic
// wraps where the constraint system's does not (10 - 2 * n is at most 10 to
// it, 12 at run time when 2 * n wraps), so not even an IR bound holds.
// CHECK-LABEL: func @reinterpret_dynamic
func.func @reinterpret_dynamic(%m: memref<?xf32>) attributes {mplan.arg_upper_bound = 8 : i64} {
  %c0 = arith.constant 0 : index
  %c192 = arith.constant 192 : index
  %c4 = arith.constant 4 : index
  %x = memref.alloc() {test.name = "X"} : memref<256xi8>
  %v = memref.view %x[%c0][] : memref<256xi8> to memref<12x4xf32>
  // CHECK: test.name = "w", test.ptr = "X[192, 208)"
  %w = memref.view %x[%c192][] {test.name = "w", test.ptr} : memref<256xi8> to memref<4xf32>
  %dim = memref.dim %m, %c0 : memref<?xf32>
  %n = arith.addi %dim, %c4 : index
  // Sizes [n, 4], strides [4, 1], n <= 12 by the stated bound: [0, 192).
  // CHECK: test.name = "planned", test.ptr = "X[0, 192)"
  %planned = memref.reinterpret_cast %v to offset: [0], sizes: [%n, 4], strides: [4, 1] {mplan.bound = "stated", test.name = "planned", test.ptr} : memref<12x4xf32> to memref<?x4xf32>
  // Sizes [2, n], strides [n, 1]: n >= 4 from the IR, n <= 12 stated.
  // CHECK: test.name = "strided", test.ptr = "X[0, 96)"
  %strided = memref.reinterpret_cast %v to offset: [0], sizes: [2, %n], strides: [%n, 1] {mplan.bound = "stated", test.name = "strided", test.ptr} : memref<12x4xf32> to memref<2x?xf32, strided<[?, 1]>>
  // CHECK: test.name = "stated", test.ptr = "X"
  %stated = memref.reinterpret_cast %v to offset: [0], sizes: [%n, 4], strides: [4, 1] {test.name = "stated", test.ptr} : memref<12x4xf32> to memref<?x4xf32>
  // min(dim, 4) rows of 4, bounded by the IR alone: [0, 64) when marked.
  %rows = affine.min affine_map<()[s0] -> (s0, 4)>()[%dim]
  // CHECK: test.name = "derived", test.ptr = "X[0, 64)"
  %derived = memref.reinterpret_cast %v to offset: [0], sizes: [%rows, 4], strides: [4, 1] {mplan.bound = "derived", test.name = "derived", test.ptr} : memref<12x4xf32> to memref<?x4xf32>
  // 10 - 2 * dim, at most 10 to the constraint system, wraps to 12 when
  // dim is 2^63 - 1: unmarked, anywhere.
  %c2 = arith.constant 2 : index
  %c10 = arith.constant 10 : index
  %twice = arith.muli %dim, %c2 : index
  %wrap = arith.subi %c10, %twice : index
  // CHECK: test.name = "wraps", test.ptr = "X"
  %wraps = memref.reinterpret_cast %v to offset: [0], sizes: [%wrap], strides: [1] {test.name = "wraps", test.ptr} : memref<12x4xf32> to memref<?xf32>
  // A stated bound that would take the cast past its source's bytes (48 of
  // %v2 with n <= 12): not the planned buffer's bound, anywhere.
  %v2 = memref.view %x[%c0][] : memref<256xi8> to memref<8x4xf32>
  // CHECK: test.name = "past", test.ptr = "X"
  %past = memref.reinterpret_cast %v2 to offset: [0], sizes: [%n, 4], strides: [4, 1] {mplan.bound = "stated", test.name = "past", test.ptr} : memref<8x4xf32> to memref<?x4xf32>
  // A stride that may be negative (0 - dim): anywhere.
  %ns = arith.subi %c0, %dim : index
  // CHECK: test.name = "negative", test.ptr = "X"
  %negative = memref.reinterpret_cast %v to offset: [8], sizes: [2], strides: [%ns] {mplan.bound = "stated", test.name = "negative", test.ptr} : memref<12x4xf32> to memref<2xf32, strided<[?], offset: 8>>
  // CHECK: test.alias = false
  // CHECK: test.alias = false
  // CHECK: test.alias = false
  // CHECK: test.alias = true
  // CHECK: test.alias = true
  // CHECK: test.alias = true
  // CHECK: test.alias = true
  "test.op"() {test.alias = ["planned", "w"]} : () -> ()
  "test.op"() {test.alias = ["strided", "w"]} : () -> ()
  "test.op"() {test.alias = ["derived", "w"]} : () -> ()
  "test.op"() {test.alias = ["stated", "w"]} : () -> ()
  "test.op"() {test.alias = ["negative", "w"]} : () -> ()
  "test.op"() {test.alias = ["past", "w"]} : () -> ()
  "test.op"() {test.alias = ["wraps", "w"]} : () -> ()
  return
}
