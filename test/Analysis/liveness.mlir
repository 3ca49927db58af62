// RUN: mplan-opt %s -split-input-file -allow-unregistered-dialect -test-mplan-liveness | FileCheck %s

// Pre-order numbering: a nested op is numbered after its parent and before
// the parent's next sibling; ranges run from first use to last use + 1.
// CHECK-LABEL: func @straight_line
// CHECK: memref.alloc() {mplan.live = array<i64: 1, 4>}
// CHECK: memref.alloc() {mplan.live = array<i64: 3, 5>}
// CHECK: memref.alloc() {mplan.live = array<i64: 6, 7>}
func.func @straight_line(%arg0: memref<4xf32>) {
  %a = memref.alloc() : memref<4xf32>
  memref.copy %arg0, %a : memref<4xf32> to memref<4xf32>
  %b = memref.alloc() : memref<4xf32>
  memref.copy %a, %b : memref<4xf32> to memref<4xf32>
  memref.copy %b, %arg0 : memref<4xf32> to memref<4xf32>
  %c = memref.alloc() : memref<4xf32>
  memref.copy %arg0, %c : memref<4xf32> to memref<4xf32>
  return
}

// -----

// Uses through views (subview, expand_shape, cast) count for the root: the
// write through the alias at index 6 keeps %a live.
// CHECK-LABEL: func @views
// CHECK: memref.alloc() {mplan.live = array<i64: 1, 7>}
func.func @views(%arg0: memref<2x4xf32>, %v: f32) {
  %a = memref.alloc() : memref<8xf32>
  %s = memref.subview %a[4] [4] [1] : memref<8xf32> to memref<4xf32, strided<[1], offset: 4>>
  %e = memref.expand_shape %a [[0, 1]] output_shape [2, 4] : memref<8xf32> into memref<2x4xf32>
  memref.copy %arg0, %e : memref<2x4xf32> to memref<2x4xf32>
  %c = memref.cast %s : memref<4xf32, strided<[1], offset: 4>> to memref<?xf32, strided<[1], offset: ?>>
  %i = arith.constant 0 : index
  memref.store %v, %c[%i] : memref<?xf32, strided<[1], offset: ?>>
  return
}

// -----

// arith.select: both buffers stay live while the selected one is used.
// CHECK-LABEL: func @select
// CHECK: memref.alloc() {mplan.live = array<i64: 1, 6>}
// CHECK: memref.alloc() {mplan.live = array<i64: 3, 6>}
// CHECK: memref.alloc() {mplan.live = array<i64: 7, 8>}
func.func @select(%arg0: memref<4xf32>, %cond: i1) {
  %a = memref.alloc() : memref<4xf32>
  memref.copy %arg0, %a : memref<4xf32> to memref<4xf32>
  %b = memref.alloc() : memref<4xf32>
  memref.copy %arg0, %b : memref<4xf32> to memref<4xf32>
  %s = arith.select %cond, %a, %b : memref<4xf32>
  memref.copy %s, %arg0 : memref<4xf32> to memref<4xf32>
  %c = memref.alloc() : memref<4xf32>
  memref.copy %arg0, %c : memref<4xf32> to memref<4xf32>
  return
}

// -----

// A buffer used inside a loop is live for the whole loop (its back edge); a
// buffer allocated in the body is live within one iteration, inside the
// loop's index span [4, 9].
// CHECK-LABEL: func @scf_for
// CHECK: memref.alloc() {mplan.live = array<i64: 1, 10>}
// CHECK: scf.for
// CHECK: memref.alloc() {mplan.live = array<i64: 6, 9>}
// CHECK: memref.alloc() {mplan.live = array<i64: 8, 9>}
// CHECK: } {test.index = array<i64: 4, 9>}
// CHECK: memref.alloc() {mplan.live = array<i64: 11, 12>}
func.func @scf_for(%arg0: memref<4xf32>, %n: index) {
  %a = memref.alloc() : memref<4xf32>
  memref.copy %arg0, %a : memref<4xf32> to memref<4xf32>
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  scf.for %i = %c0 to %n step %c1 {
    %t = memref.alloc() : memref<4xf32>
    memref.copy %a, %t : memref<4xf32> to memref<4xf32>
    %u = memref.alloc() : memref<4xf32>
    memref.copy %t, %u : memref<4xf32> to memref<4xf32>
    scf.yield
  } {test.index}
  %d = memref.alloc() : memref<4xf32>
  memref.copy %arg0, %d : memref<4xf32> to memref<4xf32>
  return
}

// -----

// Loop-carried buffers: a top-level buffer passed as iter_arg is live for
// the whole loop and while the result is used; a buffer allocated in the
// body and yielded to the next iteration cannot have one slot.
// CHECK-LABEL: func @scf_for_iter_args
// CHECK: memref.alloc() {mplan.live = array<i64: 1, 9>}
// CHECK: memref.alloc() {mplan.unmanaged = "carried across loop iterations"}
func.func @scf_for_iter_args(%arg0: memref<4xf32>, %n: index) {
  %a = memref.alloc() : memref<4xf32>
  memref.copy %arg0, %a : memref<4xf32> to memref<4xf32>
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %r = scf.for %i = %c0 to %n step %c1 iter_args(%it = %a) -> (memref<4xf32>) {
    %t = memref.alloc() : memref<4xf32>
    memref.copy %it, %t : memref<4xf32> to memref<4xf32>
    scf.yield %t : memref<4xf32>
  }
  memref.copy %r, %arg0 : memref<4xf32> to memref<4xf32>
  return
}

// -----

// scf.while: uses in the before and after regions keep the buffer live for
// the whole loop.
// CHECK-LABEL: func @scf_while
// CHECK: memref.alloc() {mplan.live = array<i64: 1, 7>}
// CHECK: memref.alloc() {mplan.live = array<i64: 5, 6>}
// CHECK: memref.alloc() {mplan.live = array<i64: 8, 9>}
func.func @scf_while(%arg0: memref<4xf32>, %c: i1) {
  %a = memref.alloc() : memref<4xf32>
  scf.while : () -> () {
    memref.copy %arg0, %a : memref<4xf32> to memref<4xf32>
    scf.condition(%c)
  } do {
    %b = memref.alloc() : memref<4xf32>
    memref.copy %a, %b : memref<4xf32> to memref<4xf32>
    scf.yield
  }
  %d = memref.alloc() : memref<4xf32>
  memref.copy %arg0, %d : memref<4xf32> to memref<4xf32>
  return
}
// -----

// CHECK-LABEL: func @scf_while_body
// CHECK: memref.alloc() {mplan.live = array<i64: 4, 5>}
func.func @scf_while_body(%arg0: memref<4xf32>, %c: i1) {
  scf.while : () -> () {
    scf.condition(%c)
  } do {
    %z = arith.constant 0.0 : f32
    %b = memref.alloc() : memref<4xf32>
    memref.copy %arg0, %b : memref<4xf32> to memref<4xf32>
    scf.yield
  }
  return
}

// -----

// scf.if: buffers of the two branches are live inside their branch only;
// a top-level buffer used in one branch is live for the whole if.
// CHECK-LABEL: func @scf_if
// CHECK: memref.alloc() {mplan.live = array<i64: 1, 9>}
// CHECK: memref.alloc() {mplan.live = array<i64: 4, 5>}
// CHECK: memref.alloc() {mplan.live = array<i64: 7, 8>}
func.func @scf_if(%arg0: memref<4xf32>, %c: i1) {
  %a = memref.alloc() : memref<4xf32>
  memref.copy %arg0, %a : memref<4xf32> to memref<4xf32>
  scf.if %c {
    %t = memref.alloc() : memref<4xf32>
    memref.copy %arg0, %t : memref<4xf32> to memref<4xf32>
    scf.yield
  } else {
    %e = memref.alloc() : memref<4xf32>
    memref.copy %a, %e : memref<4xf32> to memref<4xf32>
    scf.yield
  }
  return
}

// -----

// A buffer allocated in a branch and yielded out of it cannot be planned in
// the branch.
// CHECK-LABEL: func @scf_if_yield
// CHECK: memref.alloc() {mplan.unmanaged = "yielded out of the region it is allocated in"}
func.func @scf_if_yield(%arg0: memref<4xf32>, %c: i1) {
  %r = scf.if %c -> memref<4xf32> {
    %t = memref.alloc() : memref<4xf32>
    scf.yield %t : memref<4xf32>
  } else {
    scf.yield %arg0 : memref<4xf32>
  }
  memref.copy %r, %arg0 : memref<4xf32> to memref<4xf32>
  return
}

// -----

// Parallel loop bodies never get a shared slot; a top-level buffer used in
// a parallel loop is live for the whole loop.
// CHECK-LABEL: func @parallel
// CHECK: memref.alloc() {mplan.live = array<i64: 3, 7>}
// CHECK: memref.alloc() {mplan.unmanaged = "allocated inside 'scf.parallel', whose iterations may run concurrently"}
// CHECK: memref.alloc() {mplan.unmanaged = "allocated inside 'scf.forall', whose iterations may run concurrently"}
func.func @parallel(%arg0: memref<4xf32>, %n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %a = memref.alloc() : memref<4xf32>
  scf.parallel (%i) = (%c0) to (%n) step (%c1) {
    %t = memref.alloc() : memref<4xf32>
    memref.copy %a, %t : memref<4xf32> to memref<4xf32>
    scf.reduce
  }
  scf.forall (%j) in (%n) {
    %u = memref.alloc() : memref<4xf32>
    memref.copy %arg0, %u : memref<4xf32> to memref<4xf32>
  }
  return
}

// -----

// Multi-block CFG (diamond): %a is live on both paths; %b and %c live in
// their own blocks; %m (merged through a block argument) keeps %b and %c
// live up to its use in ^bb3.
// CHECK-LABEL: func @cfg_diamond
// CHECK: memref.alloc() {mplan.live = array<i64: 1, 8>}
// CHECK: memref.alloc() {mplan.live = array<i64: 4, 10>}
// CHECK: memref.alloc() {mplan.live = array<i64: 7, 10>}
// CHECK: memref.alloc() {mplan.live = array<i64: 11, 12>}
func.func @cfg_diamond(%arg0: memref<4xf32>, %cond: i1) {
  %a = memref.alloc() : memref<4xf32>
  memref.copy %arg0, %a : memref<4xf32> to memref<4xf32>
  cf.cond_br %cond, ^bb1, ^bb2
^bb1:
  %b = memref.alloc() : memref<4xf32>
  memref.copy %a, %b : memref<4xf32> to memref<4xf32>
  cf.br ^bb3(%b : memref<4xf32>)
^bb2:
  %c = memref.alloc() : memref<4xf32>
  memref.copy %a, %c : memref<4xf32> to memref<4xf32>
  cf.br ^bb3(%c : memref<4xf32>)
^bb3(%m: memref<4xf32>):
  memref.copy %m, %arg0 : memref<4xf32> to memref<4xf32>
  %d = memref.alloc() : memref<4xf32>
  memref.copy %arg0, %d : memref<4xf32> to memref<4xf32>
  return
}

// -----

// CFG loop: %a (defined before the loop, used in its body) is live for the
// whole loop; %t (allocated and used within one iteration) only in the body;
// %u is carried across the back edge through a block argument.
// CHECK-LABEL: func @cfg_loop
// CHECK: memref.alloc() {mplan.live = array<i64: 1, 9>}
// CHECK: memref.alloc() {mplan.live = array<i64: 5, 6>}
// CHECK: memref.alloc() {mplan.unmanaged = "may live across a back edge of its block"}
func.func @cfg_loop(%arg0: memref<4xf32>, %cond: i1) {
  %a = memref.alloc() : memref<4xf32>
  memref.copy %arg0, %a : memref<4xf32> to memref<4xf32>
  cf.br ^header(%arg0 : memref<4xf32>)
^header(%p: memref<4xf32>):
  cf.cond_br %cond, ^body, ^exit
^body:
  %t = memref.alloc() : memref<4xf32>
  memref.copy %a, %t : memref<4xf32> to memref<4xf32>
  %u = memref.alloc() : memref<4xf32>
  memref.copy %p, %u : memref<4xf32> to memref<4xf32>
  cf.br ^header(%u : memref<4xf32>)
^exit:
  return
}

// -----

// Escapes and captures: returned, passed to a call, stored, address taken,
// converted to a tensor, captured by an op without known effects.
// CHECK-LABEL: func @escapes
// CHECK: memref.alloc() {mplan.unmanaged = "escapes via return"}
// CHECK: memref.alloc() {mplan.unmanaged = "passed to a call to callee"}
// CHECK: memref.alloc() {mplan.unmanaged = "stored to memory"}
// CHECK: memref.alloc() {mplan.unmanaged = "its address is taken by 'memref.extract_aligned_pointer_as_index'"}
// CHECK: memref.alloc() {mplan.unmanaged = "captured by 'test.unknown', whose memory effects are unknown"}
// CHECK: memref.alloc() {mplan.unmanaged = "converted by 'bufferization.to_tensor' to tensor<4xf32>"}
func.func private @callee(memref<4xf32>)
func.func @escapes(%slot: memref<memref<4xf32>>) -> memref<4xf32> {
  %r = memref.alloc() : memref<4xf32>
  %c = memref.alloc() : memref<4xf32>
  func.call @callee(%c) : (memref<4xf32>) -> ()
  %s = memref.alloc() : memref<4xf32>
  memref.store %s, %slot[] : memref<memref<4xf32>>
  %p = memref.alloc() : memref<4xf32>
  %i = memref.extract_aligned_pointer_as_index %p : memref<4xf32> -> index
  %u = memref.alloc() : memref<4xf32>
  "test.unknown"(%u) : (memref<4xf32>) -> ()
  %t = memref.alloc() : memref<4xf32>
  %tt = bufferization.to_tensor %t : memref<4xf32> to tensor<4xf32>
  return %r : memref<4xf32>
}

// -----

// Deallocations are not uses: %a's range ends at its last real use, not at
// the deallocs at the end of the block (memref.dealloc, bufferization.dealloc,
// and the lowered scf.if form through extract_strided_metadata).
// CHECK-LABEL: func @deallocs
// CHECK: memref.alloc() {mplan.live = array<i64: 1, 2>}
// CHECK: memref.alloc() {mplan.live = array<i64: 3, 4>}
// CHECK: memref.alloc() {mplan.live = array<i64: 5, 6>}
func.func @deallocs(%arg0: memref<4xf32>, %own: i1) {
  %a = memref.alloc() : memref<4xf32>
  memref.copy %arg0, %a : memref<4xf32> to memref<4xf32>
  %b = memref.alloc() : memref<4xf32>
  memref.copy %arg0, %b : memref<4xf32> to memref<4xf32>
  %c = memref.alloc() : memref<2x2xf32>
  %cc = memref.collapse_shape %c [[0, 1]] : memref<2x2xf32> into memref<4xf32>
  memref.dealloc %a : memref<4xf32>
  bufferization.dealloc (%b : memref<4xf32>) if (%own)
  %base, %off, %sz:2, %st:2 = memref.extract_strided_metadata %c : memref<2x2xf32> -> memref<f32>, index, index, index, index, index
  scf.if %own {
    memref.dealloc %base : memref<f32>
  }
  return
}

// -----

// A dealloc through a value that may alias several buffers is not removable.
// CHECK-LABEL: func @dealloc_merged
// CHECK: memref.alloc() {mplan.unmanaged = "deallocated by 'memref.dealloc' through a value that may alias other buffers"}
// CHECK: memref.alloc() {mplan.unmanaged = "deallocated by 'memref.dealloc' through a value that may alias other buffers"}
func.func @dealloc_merged(%cond: i1) {
  %a = memref.alloc() : memref<4xf32>
  %b = memref.alloc() : memref<4xf32>
  %s = arith.select %cond, %a, %b : memref<4xf32>
  memref.dealloc %s : memref<4xf32>
  return
}

// -----

// A region that may run after its op returns (async.execute).
// CHECK-LABEL: func @async
// CHECK: memref.alloc() {mplan.unmanaged = "used inside 'async.execute', whose region may run after it returns"}
func.func @async(%arg0: memref<4xf32>) {
  %a = memref.alloc() : memref<4xf32>
  %t = async.execute {
    memref.copy %arg0, %a : memref<4xf32> to memref<4xf32>
    async.yield
  }
  async.await %t : !async.token
  return
}

// -----

// Asynchronous gpu ops (a `!gpu.async.token` result) may run until the token
// is waited on: a buffer an async kernel reads or an async memcpy copies is
// not done at the op. A synchronous launch is.
// CHECK-LABEL: func @gpu_async
// CHECK: memref.alloc() {mplan.unmanaged = "used inside 'gpu.launch', whose region may run after it returns"}
// CHECK: memref.alloc() {mplan.unmanaged = "passed to 'gpu.memcpy', which may run after it returns"}
// CHECK: memref.alloc() {mplan.live = array<i64
func.func @gpu_async(%in: memref<16xf32>, %out: memref<16xf32>) {
  %c1 = arith.constant 1 : index
  %c0 = arith.constant 0 : index
  %a = memref.alloc() : memref<16xf32>
  memref.copy %in, %a : memref<16xf32> to memref<16xf32>
  %t0 = gpu.wait async
  %t1 = gpu.launch async [%t0] blocks(%bx, %by, %bz) in (%x = %c1, %y = %c1, %z = %c1) threads(%tx, %ty, %tz) in (%u = %c1, %v = %c1, %w = %c1) {
    %e = memref.load %a[%c0] : memref<16xf32>
    memref.store %e, %out[%c0] : memref<16xf32>
    gpu.terminator
  }
  %b = memref.alloc() : memref<16xf32>
  memref.copy %in, %b : memref<16xf32> to memref<16xf32>
  %t2 = gpu.memcpy async [%t1] %out, %b : memref<16xf32>, memref<16xf32>
  gpu.wait [%t2]
  %c = memref.alloc() : memref<16xf32>
  memref.copy %in, %c : memref<16xf32> to memref<16xf32>
  gpu.launch blocks(%bx, %by, %bz) in (%x = %c1, %y = %c1, %z = %c1) threads(%tx, %ty, %tz) in (%u = %c1, %v = %c1, %w = %c1) {
    %e = memref.load %c[%c0] : memref<16xf32>
    memref.store %e, %out[%c0] : memref<16xf32>
    gpu.terminator
  }
  return
}

// -----

// Only the gpu ops that make a token run late: a loop or an scf.if that
// carries one runs its body at the op.
// CHECK-LABEL: func @gpu_token_loop
// CHECK: memref.alloc() {mplan.live = array<i64
// CHECK: memref.alloc() {mplan.live = array<i64
func.func @gpu_token_loop(%in: memref<16xf32>, %out: memref<16xf32>, %n: index, %p: i1) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %t0 = gpu.wait async
  %tl = scf.for %i = %c0 to %n step %c1 iter_args(%tk = %t0) -> !gpu.async.token {
    %d = memref.alloc() : memref<16xf32>
    memref.copy %in, %d : memref<16xf32> to memref<16xf32>
    memref.copy %d, %out : memref<16xf32> to memref<16xf32>
    %tn = gpu.wait async [%tk]
    scf.yield %tn : !gpu.async.token
  }
  %c = memref.alloc() : memref<16xf32>
  memref.copy %in, %c : memref<16xf32> to memref<16xf32>
  %ti = scf.if %p -> !gpu.async.token {
    memref.copy %c, %out : memref<16xf32> to memref<16xf32>
    scf.yield %tl : !gpu.async.token
  } else {
    scf.yield %tl : !gpu.async.token
  }
  gpu.wait [%ti]
  return
}

// -----

// OpenACC ops with an `async` clause run until an `acc.wait`; without one
// they are done at the op.
// CHECK-LABEL: func @acc_async
// CHECK: memref.alloc() {mplan.unmanaged = "used inside 'acc.parallel', whose region may run after it returns"}
// CHECK: memref.alloc() {mplan.unmanaged = "passed to 'acc.copyin', which may run after it returns"}
// CHECK: memref.alloc() {mplan.live = array<i64
func.func @acc_async(%in: memref<16xf32>, %out: memref<16xf32>, %q: i32) {
  %c0 = arith.constant 0 : index
  %a = memref.alloc() : memref<16xf32>
  memref.copy %in, %a : memref<16xf32> to memref<16xf32>
  acc.parallel async {
    %e = memref.load %a[%c0] : memref<16xf32>
    memref.store %e, %out[%c0] : memref<16xf32>
    acc.yield
  }
  %b = memref.alloc() : memref<16xf32>
  memref.copy %in, %b : memref<16xf32> to memref<16xf32>
  %d = acc.copyin varPtr(%b : memref<16xf32>) async -> memref<16xf32>
  acc.enter_data async dataOperands(%d : memref<16xf32>)
  acc.wait
  %c = memref.alloc() : memref<16xf32>
  memref.copy %in, %c : memref<16xf32> to memref<16xf32>
  acc.kernels {
    %e = memref.load %c[%c0] : memref<16xf32>
    memref.store %e, %out[%c0] : memref<16xf32>
    acc.terminator
  }
  return
}

// -----

// Aliases are the values the points-to analysis's flow edges reach: an
// iter arg, a loop result or an scf.if result aliases only what is forwarded
// at its position (the buffer passed at position 0 is not live while result
// 1 is used), and a memref loaded from a memref of memrefs is not an alias
// of it (it points to whatever was stored there).
// CHECK-LABEL: func @flow_positions
// CHECK: memref.alloc() {mplan.live = array<i64: 1, 7>}
// CHECK: memref.alloc() {mplan.live = array<i64: 8, 10>}
// CHECK: memref.alloc() {mplan.live = array<i64: 11, 13>} : memref<memref<4xf32>>
// CHECK: memref.alloc() {mplan.live = array<i64: 14, 16>}
// CHECK: memref.alloc() {mplan.live = array<i64: 17, 21>}
// CHECK: memref.alloc() {mplan.live = array<i64: 22, 24>}
func.func @flow_positions(%arg0: memref<4xf32>, %n: index, %c: i1) {
  %a = memref.alloc() : memref<4xf32>
  memref.copy %arg0, %a : memref<4xf32> to memref<4xf32>
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %r:2 = scf.for %i = %c0 to %n step %c1 iter_args(%x = %a, %y = %arg0)
      -> (memref<4xf32>, memref<4xf32>) {
    memref.copy %x, %y : memref<4xf32> to memref<4xf32>
    scf.yield %x, %y : memref<4xf32>, memref<4xf32>
  }
  %b = memref.alloc() : memref<4xf32>
  memref.copy %r#1, %b : memref<4xf32> to memref<4xf32>
  memref.copy %b, %arg0 : memref<4xf32> to memref<4xf32>
  %mm = memref.alloc() : memref<memref<4xf32>>
  memref.store %arg0, %mm[] : memref<memref<4xf32>>
  %m = memref.load %mm[] : memref<memref<4xf32>>
  %d = memref.alloc() : memref<4xf32>
  memref.copy %m, %d : memref<4xf32> to memref<4xf32>
  memref.copy %d, %arg0 : memref<4xf32> to memref<4xf32>
  %e = memref.alloc() : memref<4xf32>
  memref.copy %arg0, %e : memref<4xf32> to memref<4xf32>
  %s:2 = scf.if %c -> (memref<4xf32>, memref<4xf32>) {
    scf.yield %e, %arg0 : memref<4xf32>, memref<4xf32>
  } else {
    scf.yield %e, %arg0 : memref<4xf32>, memref<4xf32>
  }
  %f = memref.alloc() : memref<4xf32>
  memref.copy %s#1, %f : memref<4xf32> to memref<4xf32>
  memref.copy %f, %arg0 : memref<4xf32> to memref<4xf32>
  return
}
