// RUN: mplan-opt %s --split-input-file --mplan-plan-pipeline -verify-diagnostics
// RUN: mplan-opt %s --split-input-file --mplan-capture-buffers -verify-diagnostics
// RUN: mplan-opt %s --split-input-file --mplan-plan -verify-diagnostics

func.func @not_an_allocation(%in: memref<16xf32>, %out: memref<16xf32>) {
  // expected-error @+1 {{'linalg.map' op carries 'mplan.unplanned', which opts a memref.alloc or memref.alloca out of planning as a unit attribute and is not one; got unit}}
  linalg.map { math.absf } ins(%in : memref<16xf32>) outs(%out : memref<16xf32>) {mplan.unplanned}
  return
}

// -----

func.func @not_unit(%out: memref<16xf32>) {
  // expected-error @+1 {{'memref.alloca' op carries 'mplan.unplanned', which opts a memref.alloc or memref.alloca out of planning as a unit attribute; got 1 : i64}}
  %a = memref.alloca() {mplan.unplanned = 1} : memref<16xf32>
  memref.copy %a, %out : memref<16xf32> to memref<16xf32>
  return
}

// -----

// Function arguments and results are the caller's buffers: an opt-out there would be ignored
// (issue 30).
// expected-error @below {{argument #1 of @unplanned_argument carries 'mplan.unplanned', which opts a memref.alloc or memref.alloca out of planning; function arguments and results are never planned}}
func.func @unplanned_argument(%in: memref<16xf32>, %out: memref<16xf32> {mplan.unplanned}) {
  memref.copy %in, %out : memref<16xf32> to memref<16xf32>
  return
}

// -----

// expected-error @below {{result #0 of @unplanned_result carries 'mplan.unplanned'}}
func.func @unplanned_result() -> (memref<16xf32> {mplan.unplanned}) {
  %a = memref.alloc() : memref<16xf32>
  return %a : memref<16xf32>
}
