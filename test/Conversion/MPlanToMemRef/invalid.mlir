// RUN: mplan-opt %s --split-input-file --verify-diagnostics --allow-unregistered-dialect \
// RUN:   --convert-mplan-to-memref="arena=argument"
// RUN: not mplan-opt %s --split-input-file --allow-unregistered-dialect --convert-mplan-to-memref="arena=pool" 2>&1 \
// RUN:   | FileCheck %s --check-prefix=KIND
// RUN: not mplan-opt %s --split-input-file --allow-unregistered-dialect --convert-mplan-to-memref="arena=argument functions=nope" 2>&1 \
// RUN:   | FileCheck %s --check-prefix=UNKNOWN
// RUN: not mplan-opt %s --split-input-file --allow-unregistered-dialect --convert-mplan-to-memref="arena=heap functions=f" 2>&1 \
// RUN:   | FileCheck %s --check-prefix=NOTARG

// KIND: error: --convert-mplan-to-memref option 'arena': unknown arena kind 'pool'; expected heap, stack, global, argument or shared-global
// UNKNOWN: error: --convert-mplan-to-memref option 'functions': 'nope' is not a function of this module
// NOTARG: error: --convert-mplan-to-memref option 'functions': only meaningful with arena=argument (got arena=heap)

func.func @unplanned() {
  // expected-error @below {{is not planned; run mplan-plan-buffers first}}
  %a = mplan.alloc_tensor id(0) -> memref<4xf32>
  return
}

// -----

// Slabs in other memory spaces do not count: only the default-space slab is passed.
func.func @two_slabs() {
  %s0 = mplan.alloc_slab : !mplan.slab<64, 64>
  %s2 = mplan.alloc_slab : !mplan.slab<64, 64, 2>
  // expected-error @below {{is the second default-memory-space slab of function 'two_slabs'; arena=argument needs at most one per function}}
  %s1 = mplan.alloc_slab : !mplan.slab<64, 64>
  mplan.release_slab %s1 : !mplan.slab<64, 64>
  mplan.release_slab %s2 : !mplan.slab<64, 64, 2>
  mplan.release_slab %s0 : !mplan.slab<64, 64>
  return
}


// -----

// Nothing wrong here: functions= naming no function of the module is (UNKNOWN).
func.func @f() {
  %s = mplan.alloc_slab : !mplan.slab<64, 64>
  mplan.release_slab %s : !mplan.slab<64, 64>
  return
}

// -----

func.func private @external()

func.func @user() {
  %s = mplan.alloc_slab : !mplan.slab<64, 64>
  // expected-error @below {{uses an mplan slab in a way convert-mplan-to-memref cannot lower}}
  "test.use"(%s) : (!mplan.slab<64, 64>) -> ()
  mplan.release_slab %s : !mplan.slab<64, 64>
  return
}

// -----

func.func @unplanned_dynamic(%n: index) {
  // expected-error @+1 {{is not planned; run mplan-plan-buffers first}}
  %a = mplan.alloc_dynamic id(1) (%n) -> memref<?xf32>
  return
}
