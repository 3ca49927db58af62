// RUN: mplan-opt %s --mplan-plan-pipeline="sequence=program inplace=false capacity=default:3072 report=%t.json" -o /dev/null
// RUN: FileCheck %s < %t.json

// The report of a rematerialization (budget.mlir's @remat): the capacity,
// the op floor, the bound before the split, each split and the totals.
// CHECK: "name": "remat"
// CHECK: "capacity_bytes": 3072
// CHECK-NEXT: "op_floor_bytes": 3072
// CHECK-NEXT: "lower_bound_before_splits_bytes": 4096
// CHECK: "splits": [
// CHECK-NEXT: {
// CHECK-NEXT: "kind": "remat",
// CHECK-NEXT: "buffer": 0,
// CHECK-NEXT: "new_buffer": 4,
// CHECK: "cost": 9216,
// CHECK-NEXT: "bytes": 1024
// CHECK: "split_work": 9216,
// CHECK-NEXT: "split_bytes_moved": 0,
// CHECK-NEXT: "program_work": 10240
func.func @remat(%a: memref<16x16xf32>, %b: memref<16x16xf32>, %out: memref<16x16xf32>) {
  %zero = arith.constant 0.0 : f32
  %x = memref.alloc() : memref<16x16xf32>
  linalg.fill ins(%zero : f32) outs(%x : memref<16x16xf32>)
  linalg.matmul ins(%a, %b : memref<16x16xf32>, memref<16x16xf32>) outs(%x : memref<16x16xf32>)
  %y = memref.alloc() : memref<16x16xf32>
  linalg.map { math.absf } ins(%x : memref<16x16xf32>) outs(%y : memref<16x16xf32>)
  %z = memref.alloc() : memref<16x16xf32>
  linalg.map { arith.negf } ins(%y : memref<16x16xf32>) outs(%z : memref<16x16xf32>)
  %w = memref.alloc() : memref<16x16xf32>
  linalg.map { arith.mulf } ins(%z, %y : memref<16x16xf32>, memref<16x16xf32>) outs(%w : memref<16x16xf32>)
  linalg.map { arith.addf } ins(%w, %x : memref<16x16xf32>, memref<16x16xf32>) outs(%out : memref<16x16xf32>)
  return
}

