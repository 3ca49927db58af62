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
