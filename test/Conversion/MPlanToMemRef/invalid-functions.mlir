// RUN: mplan-opt %s --split-input-file --verify-diagnostics \
// RUN:   --convert-mplan-to-memref="arena=argument functions=noslab"

// expected-error @below {{convert-mplan-to-memref: function 'noslab' named in functions= has no planned buffers (no mplan.alloc_slab); plan it first}}
func.func @noslab() {
  return
}

// -----

// expected-error @below {{convert-mplan-to-memref: function 'noslab' named in functions= has no body}}
func.func private @noslab()
