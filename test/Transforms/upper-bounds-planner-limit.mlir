// RUN: mplan-opt %s --mplan-plan-pipeline="max-bound-bytes=9223372036854775807 remarks=true report=%t.json" \
// RUN:   -verify-diagnostics | FileCheck %s
// RUN: FileCheck %s --check-prefix=REPORT < %t.json

// A bound within max-bound-bytes but above the 2^48 bytes a planned buffer may take (a static
// buffer that large is left unplanned) is no bound either: two such buffers, captured at
// 2^62 bytes each, made the planner's live sum overflow and the pipeline fail ("memory
// planning failed: ... overflows int64"). They are sized at run time (issue 30, item 3).
// CHECK-LABEL: func @above_planner_limit
// CHECK:       mplan.alloc_dynamic id(0)
// CHECK:       mplan.alloc_dynamic id(1)
// REPORT:      "name": "above_planner_limit"
// REPORT:      "buffers": []
func.func @above_planner_limit(%n: index {mplan.upper_bound = 1152921504606846975 : i64}) -> f32 {
  %cst = arith.constant 1.0 : f32
  %c1 = arith.constant 1 : index
  %s = arith.addi %n, %c1 : index
  // expected-remark @below {{buffer sized at run time: dynamic shape: the upper bound (dimension 0 <= 1152921504606846976 (mplan.upper_bound 1152921504606846975 of %arg0)) gives 4611686018427387904 bytes, above the 2^48 bytes a planned buffer may take}}
  %a = memref.alloc(%s) : memref<?xf32>
  linalg.fill ins(%cst : f32) outs(%a : memref<?xf32>)
  // expected-remark @below {{buffer sized at run time}}
  %b = memref.alloc(%s) : memref<?xf32>
  linalg.fill ins(%cst : f32) outs(%b : memref<?xf32>)
  %c0 = arith.constant 0 : index
  %x = memref.load %a[%c0] : memref<?xf32>
  memref.dealloc %a : memref<?xf32>
  memref.dealloc %b : memref<?xf32>
  return %x : f32
}
