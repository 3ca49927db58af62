// Stated upper bounds whose derived bound overflows int64 (issue 30, item 3): `%n + 1` with
// `%n <= 2^63 - 1` (an argument attribute, or arg-upper-bound=) and `2 * %n` with
// `%n <= 2^62` are bounded by 2^63, which upstream's constant-bound query narrows to -2^63
// without a check; the buffers were planned at 0 elements in a 64-byte slab, both at offset 0,
// and the program printed 4.0 where the unplanned one prints 3.0 (with check-bounds=true a
// valid call stopped at the bound check). An overflowing bound is no bound: the buffers are
// sized at run time, and the planned program prints what the unplanned one prints, at -O3,
// with and without check-bounds, under the observer too.
//
// RUN: mlir-opt %s %lower_to_llvm \
// RUN:   | mlir-runner -O3 -e main -entry-point-result=void -shared-libs=%mlir_runner_libs > %t.base
// RUN: FileCheck %s < %t.base
// RUN: mplan-opt %s --mplan-plan-pipeline="report=%t.json" -o %t.planned.mlir
// RUN: FileCheck %s --check-prefix=JSON < %t.json
// RUN: mplan-opt %t.planned.mlir --convert-mplan-to-memref="arena=heap" --mplan-to-llvm \
// RUN:   | mlir-runner -O3 -e main -entry-point-result=void -shared-libs=%mlir_runner_libs > %t.heap
// RUN: diff %t.base %t.heap
// RUN: mplan-opt %t.planned.mlir --convert-mplan-to-memref="arena=global" --mplan-to-llvm 2>/dev/null \
// RUN:   | mlir-runner -O3 -e main -entry-point-result=void -shared-libs=%mlir_runner_libs > %t.global
// RUN: diff %t.base %t.global
// RUN: mplan-opt %s --mplan-plan-pipeline="check-bounds=true" --convert-mplan-to-memref="arena=heap" \
// RUN:     --mplan-to-llvm \
// RUN:   | mlir-runner -O3 -e main -entry-point-result=void -shared-libs=%mlir_runner_libs > %t.checked
// RUN: diff %t.base %t.checked
// RUN: sed -e 's/ {mplan.upper_bound = [0-9]* : i64}//' %s > %t.noattr.mlir
// RUN: mplan-opt %t.noattr.mlir --mplan-plan-pipeline="arg-upper-bound=9223372036854775807 check-bounds=true" \
// RUN:     --convert-mplan-to-memref="arena=heap" --mplan-to-llvm \
// RUN:   | mlir-runner -O3 -e main -entry-point-result=void -shared-libs=%mlir_runner_libs > %t.option
// RUN: diff %t.base %t.option
// RUN: mplan-opt %t.planned.mlir --convert-mplan-to-memref="arena=heap" --mplan-instrument --mplan-to-llvm \
// RUN:   | env MPLAN_RT_OUTPUT=stdout mlir-runner -e main -entry-point-result=void \
// RUN:       -shared-libs=%mlir_runner_libs,%mplan_runtime \
// RUN:   | FileCheck %s --check-prefix=OBS
// REQUIRES: mplan-runtime

// CHECK:      3
// CHECK-NEXT: 7
// CHECK-NOT:  {{.}}

// Every buffer is sized at run time; none is planned at a bound.
// JSON:       "name": "plus_one"
// JSON:       "buffers": []
// JSON:       "dynamic_buffers"
// JSON:       "size": "4 * (%arg0 + 1)"
// JSON:       "name": "twice"
// JSON:       "buffers": []
// JSON:       "dynamic_buffers"
// JSON:       "size": "4 * (%arg0 * 2)"

// OBS:     3
// OBS:     7
// OBS:     planned buffers 4, errors 0

// a[n] + b[0] with a all 1.0 and b all 2.0, both live at once: 3.0.
func.func @plus_one(%n: index {mplan.upper_bound = 9223372036854775807 : i64}) -> f32 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %one = arith.constant 1.0 : f32
  %two = arith.constant 2.0 : f32
  %s = arith.addi %n, %c1 : index
  %a = memref.alloc(%s) : memref<?xf32>
  linalg.fill ins(%one : f32) outs(%a : memref<?xf32>)
  %b = memref.alloc(%s) : memref<?xf32>
  linalg.fill ins(%two : f32) outs(%b : memref<?xf32>)
  %x = memref.load %a[%n] : memref<?xf32>
  %y = memref.load %b[%c0] : memref<?xf32>
  %z = arith.addf %x, %y : f32
  memref.dealloc %a : memref<?xf32>
  memref.dealloc %b : memref<?xf32>
  return %z : f32
}

// a[2n - 1] + b[0] with a all 3.0 and b all 4.0: 7.0.
func.func @twice(%n: index {mplan.upper_bound = 4611686018427387904 : i64}) -> f32 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %three = arith.constant 3.0 : f32
  %four = arith.constant 4.0 : f32
  %s = arith.muli %n, %c2 : index
  %a = memref.alloc(%s) : memref<?xf32>
  linalg.fill ins(%three : f32) outs(%a : memref<?xf32>)
  %b = memref.alloc(%s) : memref<?xf32>
  linalg.fill ins(%four : f32) outs(%b : memref<?xf32>)
  %last = arith.subi %s, %c1 : index
  %x = memref.load %a[%last] : memref<?xf32>
  %y = memref.load %b[%c0] : memref<?xf32>
  %z = arith.addf %x, %y : f32
  memref.dealloc %a : memref<?xf32>
  memref.dealloc %b : memref<?xf32>
  return %z : f32
}

func.func @main() {
  %c5 = arith.constant 5 : index
  %p = call @plus_one(%c5) : (index) -> f32
  vector.print %p : f32
  %t = call @twice(%c5) : (index) -> f32
  vector.print %t : f32
  return
}
