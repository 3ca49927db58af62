// RUN: mplan-opt %s --split-input-file --mplan-capture-buffers | FileCheck %s
// RUN: mplan-opt %s --split-input-file --mplan-capture-buffers="arg-upper-bound=32" | FileCheck %s --check-prefix=OPT
// RUN: mplan-opt %s --split-input-file --mplan-plan="arg-upper-bound=32" | FileCheck %s --check-prefix=OPT
// RUN: mplan-opt %s --split-input-file --mplan-plan-pipeline="arg-upper-bound=32 report=-" -o /dev/null | FileCheck %s --check-prefix=REPORT

// One bound for every argument (issue 15, item 1): `mplan.arg_upper_bound = N` on a function
// bounds each of its index arguments and each dynamic dimension of its ranked memref and
// tensor arguments that no bound attribute of the argument's own bounds (an entry -1 of
// `mplan.dim_upper_bounds` takes it too); the `arg-upper-bound=N` option of capture, plan and
// the pipeline does the same for every function, and any attribute wins over it. The
// `mplan.bound` text says which source made the buffer plannable.

// CHECK-LABEL: func @function_bound
// CHECK:       mplan.alloc_tensor id(0) {mplan.bound = "dimension 0 <= 16 (mplan.arg_upper_bound 16 of @function_bound for %arg0)"} -> memref<16x4xf32>
// CHECK:       mplan.alloc_tensor id(1) {mplan.bound = "dimension 0 <= 16 (mplan.arg_upper_bound 16 of @function_bound for dimension 0 of %arg1); dimension 1 <= 16 (mplan.arg_upper_bound 16 of @function_bound for dimension 1 of %arg1)"} -> memref<16x16xf32>
// CHECK:       mplan.alloc_tensor id(2) {mplan.bound = "dimension 0 <= 8 (mplan.upper_bound 8 of %arg2)"} -> memref<8xf32>
// CHECK:       mplan.alloc_tensor id(3) {mplan.bound = "dimension 0 <= 2 (mplan.dim_upper_bounds 2 of dimension 0 of %arg3)"} -> memref<2xf32>
// CHECK:       mplan.alloc_tensor id(4) {mplan.bound = "dimension 0 <= 16 (mplan.arg_upper_bound 16 of @function_bound for dimension 1 of %arg3)"} -> memref<16xf32>
// OPT-LABEL:   func @function_bound
// OPT:         mplan.alloc_tensor id(0) {{.*}}{mplan.bound = "dimension 0 <= 16 (mplan.arg_upper_bound 16 of @function_bound for %arg0)"}
// OPT:         mplan.alloc_tensor id(2) {{.*}}{mplan.bound = "dimension 0 <= 8 (mplan.upper_bound 8 of %arg2)"}
// REPORT:      "name": "function_bound"
// REPORT:      "bound": "dimension 0 <= 16 (mplan.arg_upper_bound 16 of @function_bound for %arg0)"
func.func @function_bound(%n: index, %x: memref<?x?xf32>, %m: index {mplan.upper_bound = 8 : i64},
                          %y: memref<?x?xf32> {mplan.dim_upper_bounds = array<i64: 2, -1>})
    attributes {mplan.arg_upper_bound = 16 : i64} {
  %cst = arith.constant 1.0 : f32
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %a = memref.alloc(%n) : memref<?x4xf32>
  linalg.fill ins(%cst : f32) outs(%a : memref<?x4xf32>)
  %d0 = memref.dim %x, %c0 : memref<?x?xf32>
  %d1 = memref.dim %x, %c1 : memref<?x?xf32>
  %b = memref.alloc(%d0, %d1) : memref<?x?xf32>
  linalg.fill ins(%cst : f32) outs(%b : memref<?x?xf32>)
  %c = memref.alloc(%m) : memref<?xf32>
  linalg.fill ins(%cst : f32) outs(%c : memref<?xf32>)
  %e0 = memref.dim %y, %c0 : memref<?x?xf32>
  %d = memref.alloc(%e0) : memref<?xf32>
  linalg.fill ins(%cst : f32) outs(%d : memref<?xf32>)
  %e1 = memref.dim %y, %c1 : memref<?x?xf32>
  %e = memref.alloc(%e1) : memref<?xf32>
  linalg.fill ins(%cst : f32) outs(%e : memref<?xf32>)
  return
}

// -----

// Without any attribute only the option bounds the arguments; the function attribute wins
// over the option. Static dimensions and non-index arguments are never bounded by it.
// CHECK-LABEL: func @option_only
// CHECK:       mplan.alloc_dynamic id(0) (%{{.*}}) -> memref<?x3xf32>
// OPT-LABEL:   func @option_only
// OPT:         mplan.alloc_tensor id(0) {{.*}}{mplan.bound = "dimension 0 <= 64 (arg-upper-bound=32 for %arg0)"} -> memref<64x3xf32>
// OPT-LABEL:   func @attribute_wins
// OPT:         mplan.alloc_tensor id(0) {{.*}}{mplan.bound = "dimension 0 <= 4 (mplan.arg_upper_bound 4 of @attribute_wins for dimension 0 of %arg0)"} -> memref<4xf32>
// REPORT:      "name": "option_only"
// REPORT:      "bound": "dimension 0 <= 64 (arg-upper-bound=32 for %arg0)"
// REPORT:      "unmanaged": []
func.func @option_only(%n: index) {
  %cst = arith.constant 1.0 : f32
  %c2 = arith.constant 2 : index
  %k = arith.muli %n, %c2 : index
  %a = memref.alloc(%k) : memref<?x3xf32>
  linalg.fill ins(%cst : f32) outs(%a : memref<?x3xf32>)
  return
}
func.func @attribute_wins(%x: memref<?x5xf32>) attributes {mplan.arg_upper_bound = 4 : i64} {
  %cst = arith.constant 1.0 : f32
  %c0 = arith.constant 0 : index
  %d0 = memref.dim %x, %c0 : memref<?x5xf32>
  %a = memref.alloc(%d0) : memref<?xf32>
  linalg.fill ins(%cst : f32) outs(%a : memref<?xf32>)
  return
}
