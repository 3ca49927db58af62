// RUN: mplan-opt %s --split-input-file --verify-diagnostics \
// RUN:   --convert-mplan-to-memref="arena=argument functions=noslab"

// expected-error @below {{--convert-mplan-to-memref option 'functions': function 'noslab' has no planned buffers in the default memory space (no mplan.alloc_slab without a memory space); plan it first}}
func.func @noslab() {
  return
}

// -----

// A slab in another memory space is not passed by the caller.
// expected-error @below {{--convert-mplan-to-memref option 'functions': function 'noslab' has no planned buffers in the default memory space}}
func.func @noslab() {
  %s = mplan.alloc_slab : !mplan.slab<64, 64, 1>
  mplan.release_slab %s : !mplan.slab<64, 64, 1>
  return
}

// -----

// expected-error @below {{--convert-mplan-to-memref option 'functions': function 'noslab' has no body}}
func.func private @noslab()

// -----

// Named in functions=, a function whose address is taken is an error at the use (by
// default it is left out with a remark: argument-address-taken.mlir).
func.func @noslab() {
  %s = mplan.alloc_slab : !mplan.slab<64, 64>
  mplan.release_slab %s : !mplan.slab<64, 64>
  return
}

func.func @taker() -> (() -> ()) {
  // expected-error @below {{uses function 'noslab', which takes its arena from the caller (arena=argument); only direct func.call ops inside func.func can pass it}}
  %f = func.constant @noslab : () -> ()
  return %f : () -> ()
}
