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
