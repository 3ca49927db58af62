// RUN: mplan-opt %s --split-input-file --mplan-plan-pipeline -verify-diagnostics
// RUN: mplan-opt %s --split-input-file --mplan-capture-buffers -verify-diagnostics

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
