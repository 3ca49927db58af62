// RUN: mplan-opt %s --split-input-file --mplan-verify-plan -verify-diagnostics

// A planned buffer's bytes are its slab's, and the plan holds only for the
// uses the IR shows: the plan verifier rejects a use of the buffer, or of a
// value that may alias it, that would keep capture from planning it (the
// reason capture gives). Deallocations are in verify-plan-dynamic.mlir.

func.func @gpu_dealloc(%out: memref<4xf32>) {
  %slab = mplan.alloc_slab : !mplan.slab<64, 64>
  // expected-error @+1 {{is planned, but freed or reallocated by 'gpu.dealloc'}}
  %a = mplan.alloc_tensor id(0) live [1, 3) at %slab[0] : !mplan.slab<64, 64> -> memref<4xf32>
  memref.copy %out, %a : memref<4xf32> to memref<4xf32>
  // expected-note @+1 {{the use is here}}
  gpu.dealloc %a : memref<4xf32>
  mplan.release_slab %slab : !mplan.slab<64, 64>
  return
}

// -----

// Through a cast: a realloc may free the bytes and move them.
func.func @realloc(%out: memref<4xf32>) -> memref<8xf32> {
  %slab = mplan.alloc_slab : !mplan.slab<64, 64>
  // expected-error @+1 {{is planned, but freed or reallocated by 'memref.realloc'}}
  %a = mplan.alloc_tensor id(0) live [1, 4) at %slab[0] : !mplan.slab<64, 64> -> memref<4xf32>
  memref.copy %out, %a : memref<4xf32> to memref<4xf32>
  %c = memref.cast %a : memref<4xf32> to memref<4xf32, strided<[1]>>
  %d = memref.cast %c : memref<4xf32, strided<[1]>> to memref<4xf32>
  // expected-note @+1 {{the use is here}}
  %r = memref.realloc %d : memref<4xf32> to memref<8xf32>
  mplan.release_slab %slab : !mplan.slab<64, 64>
  return %r : memref<8xf32>
}

// -----

// Merged with an argument by a select and returned: the caller would read
// bytes the slab's release already freed.
func.func @returned(%p: i1, %arg: memref<4xf32>) -> memref<4xf32> {
  %slab = mplan.alloc_slab : !mplan.slab<64, 64>
  // expected-error @+1 {{is planned, but escapes via return}}
  %a = mplan.alloc_tensor id(0) live [1, 4) at %slab[0] : !mplan.slab<64, 64> -> memref<4xf32>
  memref.copy %arg, %a : memref<4xf32> to memref<4xf32>
  %s = arith.select %p, %a, %arg : memref<4xf32>
  mplan.release_slab %slab : !mplan.slab<64, 64>
  // expected-note @+1 {{the use is here}}
  return %s : memref<4xf32>
}

// -----

func.func @frees(%m: memref<4xf32>) {
  memref.dealloc %m : memref<4xf32>
  return
}

// Passed through a block argument to a call that mplan.nocapture does not
// list (the callee frees it; mplan-mark-calls would not mark it). The
// verifier reads no other function: it runs on one function at a time.
func.func @callee_frees(%out: memref<4xf32>) {
  %slab = mplan.alloc_slab : !mplan.slab<64, 64>
  // expected-error @+1 {{is planned, but passed to a call to frees}}
  %a = mplan.alloc_tensor id(0) live [1, 4) at %slab[0] : !mplan.slab<64, 64> -> memref<4xf32>
  memref.copy %out, %a : memref<4xf32> to memref<4xf32>
  cf.br ^bb1(%a : memref<4xf32>)
^bb1(%b: memref<4xf32>):
  // expected-note @+2 {{the use is here}}
  // expected-note @+1 {{a call may use a planned buffer only if its 'mplan.nocapture' lists the operand (mplan-mark-calls sets it)}}
  func.call @frees(%b) : (memref<4xf32>) -> ()
  mplan.release_slab %slab : !mplan.slab<64, 64>
  return
}

// -----

func.func private @external(memref<4xf32>)

// An external callee may keep or free the buffer: only a `mplan.nocapture`
// mark (mplan-mark-calls) says it does not.
func.func @external_callee(%out: memref<4xf32>) {
  %slab = mplan.alloc_slab : !mplan.slab<64, 64>
  // expected-error @+1 {{is planned, but passed to a call to external}}
  %a = mplan.alloc_tensor id(0) live [1, 4) at %slab[0] : !mplan.slab<64, 64> -> memref<4xf32>
  memref.copy %out, %a : memref<4xf32> to memref<4xf32>
  // expected-note @+2 {{the use is here}}
  // expected-note @+1 {{mplan-mark-calls sets it}}
  func.call @external(%a) : (memref<4xf32>) -> ()
  mplan.release_slab %slab : !mplan.slab<64, 64>
  return
}

// -----

func.func private @external(memref<4xf32>)

func.func @reads(%m: memref<4xf32>, %out: memref<4xf32>) {
  memref.copy %m, %out : memref<4xf32> to memref<4xf32>
  return
}

// Accepted: calls whose marks list the operand. Returning another value and
// deallocating an argument are no uses of the buffer.
func.func @kept_in_slab(%out: memref<4xf32>, %other: memref<4xf32>) -> memref<4xf32> {
  %slab = mplan.alloc_slab : !mplan.slab<64, 64>
  %a = mplan.alloc_tensor id(0) live [1, 5) at %slab[0] : !mplan.slab<64, 64> -> memref<4xf32>
  memref.copy %out, %a : memref<4xf32> to memref<4xf32>
  func.call @external(%a) {mplan.nocapture = array<i64: 0>} : (memref<4xf32>) -> ()
  func.call @reads(%a, %out) {mplan.nocapture = array<i64: 0, 1>} : (memref<4xf32>, memref<4xf32>) -> ()
  memref.dealloc %other : memref<4xf32>
  mplan.release_slab %slab : !mplan.slab<64, 64>
  return %out : memref<4xf32>
}

// -----

// Converted to a tensor, which a to_buffer may turn back into a memref the
// use-def chains do not tie to the buffer (and a deallocation may free).
func.func @to_tensor(%out: memref<4xf32>) {
  %slab = mplan.alloc_slab : !mplan.slab<64, 64>
  // expected-error @+1 {{is planned, but converted by 'bufferization.to_tensor' to tensor<4xf32>}}
  %a = mplan.alloc_tensor id(0) live [1, 4) at %slab[0] : !mplan.slab<64, 64> -> memref<4xf32>
  memref.copy %out, %a : memref<4xf32> to memref<4xf32>
  // expected-note @+1 {{the use is here}}
  %t = bufferization.to_tensor %a restrict writable : memref<4xf32> to tensor<4xf32>
  %v = bufferization.to_buffer %t : tensor<4xf32> to memref<4xf32>
  memref.dealloc %v : memref<4xf32>
  mplan.release_slab %slab : !mplan.slab<64, 64>
  return
}

// -----

// Stored to memory: code the use-def chains do not show may use it later.
func.func @stored(%box: memref<memref<4xf32>>, %out: memref<4xf32>) {
  %slab = mplan.alloc_slab : !mplan.slab<64, 64>
  // expected-error @+1 {{is planned, but stored to memory}}
  %a = mplan.alloc_tensor id(0) live [1, 4) at %slab[0] : !mplan.slab<64, 64> -> memref<4xf32>
  memref.copy %out, %a : memref<4xf32> to memref<4xf32>
  // expected-note @+1 {{the use is here}}
  memref.store %a, %box[] : memref<memref<4xf32>>
  mplan.release_slab %slab : !mplan.slab<64, 64>
  return
}

// -----

func.func private @reads(memref<4xf32>)

// A marked call inside a region that may run after its op returns.
func.func @async_region(%out: memref<4xf32>) {
  %slab = mplan.alloc_slab : !mplan.slab<64, 64>
  // expected-error @+1 {{is planned, but used inside 'async.execute', whose region may run after it returns}}
  %a = mplan.alloc_tensor id(0) live [1, 4) at %slab[0] : !mplan.slab<64, 64> -> memref<4xf32>
  memref.copy %out, %a : memref<4xf32> to memref<4xf32>
  %token = async.execute {
    // expected-note @+1 {{the use is here}}
    func.call @reads(%a) {mplan.nocapture = array<i64: 0>} : (memref<4xf32>) -> ()
    async.yield
  }
  async.await %token : !async.token
  mplan.release_slab %slab : !mplan.slab<64, 64>
  return
}
