// RUN: mplan-opt %s --mplan-plan-pipeline -verify-diagnostics | FileCheck %s
// RUN: mplan-opt %s --mplan-plan -verify-diagnostics | FileCheck %s
// RUN: mplan-opt %s --pass-pipeline="builtin.module(builtin.module(mplan-plan-pipeline))" \
// RUN:   | FileCheck %s --check-prefix=NESTED

// The planning passes plan the functions of the module they run on: a nested builtin.module
// is a symbol table of its own (the report, calls between planned functions and the arenas
// they hand on are per module), planned by nesting the pass. Its functions were skipped
// silently; a remark at the nested module now names them and says how (issue 30).

// CHECK-LABEL: func.func @outer
// CHECK:       mplan.alloc_slab
// CHECK-LABEL: func.func @inner
// CHECK-NOT:   mplan.
// CHECK:       memref.alloc()
// NESTED-LABEL: func.func @outer
// NESTED-NOT:   mplan.
// NESTED:       memref.alloc()
// NESTED-LABEL: func.func @inner
// NESTED:       mplan.alloc_slab
func.func @outer(%x: f32) -> f32 {
  %c0 = arith.constant 0 : index
  %a = memref.alloc() : memref<16xf32>
  linalg.fill ins(%x : f32) outs(%a : memref<16xf32>)
  %y = memref.load %a[%c0] : memref<16xf32>
  return %y : f32
}

// expected-remark @below {{the functions of this nested 'builtin.module' (@inner, @deeper) are not planned: the pass plans the module it runs on; nest it to plan this one (e.g. --pass-pipeline="builtin.module(builtin.module(mplan-plan-pipeline))")}}
module @nested {
  func.func @inner(%x: f32) -> f32 {
    %c0 = arith.constant 0 : index
    %a = memref.alloc() : memref<16xf32>
    linalg.fill ins(%x : f32) outs(%a : memref<16xf32>)
    %y = memref.load %a[%c0] : memref<16xf32>
    return %y : f32
  }
  module @deeper {
    func.func @deeper(%x: f32) -> f32 {
      return %x : f32
    }
  }
}

// A nested module without function bodies has nothing to plan: no remark.
module @declarations {
  func.func private @external(f32) -> f32
}
