// RUN: mplan-opt %s --mplan-plan-pipeline --convert-mplan-to-memref="arena=heap" --mplan-instrument | FileCheck %s

// With the observer the bounds are always checked: before the view of a buffer planned at its
// upper bound, one mplan_rt_check_bound call per dynamic size with the buffer's id, the
// dimension, the size, the bound (the planned type's size there) and the bounds' text.

// CHECK:       func.func private @mplan_rt_check_bound(index, index, index, index, index, index)
// CHECK-LABEL: func.func @f(
// CHECK-SAME:  %[[N:[^:]*]]: index
// CHECK:       %[[V:.*]] = memref.view {{.*}}mplan.buffer_id = 0
// CHECK:       call @mplan_rt_region_begin(
// CHECK:       %[[ID:.*]] = arith.constant 0 : index
// CHECK-NEXT:  %[[DIM:.*]] = arith.constant 0 : index
// CHECK-NEXT:  %[[B:.*]] = arith.constant 8 : index
// CHECK:       call @mplan_rt_check_bound(%{{.*}}, %[[ID]], %[[DIM]], %[[N]], %[[B]], %{{.*}})
// CHECK-NEXT:  memref.reinterpret_cast %[[V]] to offset: [0], sizes: [%[[N]], 4]
func.func @f(%n: index {mplan.upper_bound = 8 : i64}, %out: memref<1xf32>) {
  %cst = arith.constant 1.0 : f32
  %c0 = arith.constant 0 : index
  %a = memref.alloc(%n) : memref<?x4xf32>
  linalg.fill ins(%cst : f32) outs(%a : memref<?x4xf32>)
  %v = memref.load %a[%c0, %c0] : memref<?x4xf32>
  memref.store %v, %out[%c0] : memref<1xf32>
  memref.dealloc %a : memref<?x4xf32>
  return
}
