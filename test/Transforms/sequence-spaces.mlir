// Sequencing sees every memory space and the run-time sized buffers (issue
// 32): an order is taken only if no space's bound grows and run-time sized
// buffers disjoint in program order stay disjoint.
// RUN: mplan-opt %s --mplan-plan-pipeline="sequence=best report=%t.json" --mplan-verify-plan > /dev/null
// RUN: FileCheck %s < %t.json
// RUN: mplan-opt %s --mplan-plan-pipeline="sequence=best capacity=1:1024" --mplan-verify-plan | FileCheck %s --check-prefix=CAP

// Buffers in the default space and in space 1. Finishing the reduction of
// %a before the head that makes %b lowers the default space from 3072 to
// 2112 bytes; the order that only looks at the default space also runs the
// writer of %p2 while %p1 is live and doubles space 1 (1024 to 2048 bytes,
// so capacity=1:1024 failed). The order taken keeps %p1 and %p2 disjoint.
// CHECK: "lower_bound_bytes": 2112
// CHECK: "lower_bound_program_order_bytes": 3072
// CHECK: "memory_space": "1"
// CHECK-NEXT: "strategy"
// CHECK-NEXT: "arena_bytes": 1024
// CHECK-NEXT: "lower_bound_bytes": 1024
// CAP-LABEL: func.func @spaces
// CAP: mplan.alloc_slab{{.*}}2112
func.func @spaces(%in: memref<256xf32>, %out: memref<2xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %x = memref.alloc() : memref<256xf32>
  linalg.map { math.absf } ins(%in : memref<256xf32>) outs(%x : memref<256xf32>)
  %p1 = memref.alloc() : memref<256xf32, 1>
  linalg.map { math.sin } ins(%in : memref<256xf32>) outs(%p1 : memref<256xf32, 1>)
  %a = memref.alloc() : memref<256xf32>
  linalg.map { math.exp } ins(%x : memref<256xf32>) outs(%a : memref<256xf32>)
  %b = memref.alloc() : memref<256xf32>
  linalg.map { arith.addf } ins(%x, %p1 : memref<256xf32>, memref<256xf32, 1>) outs(%b : memref<256xf32>)
  %p2 = memref.alloc() : memref<256xf32, 1>
  linalg.map { math.cos } ins(%in : memref<256xf32>) outs(%p2 : memref<256xf32, 1>)
  %c = memref.alloc() : memref<f32>
  linalg.reduce { arith.addf } ins(%a : memref<256xf32>) outs(%c : memref<f32>) dimensions = [0]
  linalg.reduce { arith.addf } ins(%p2 : memref<256xf32, 1>) outs(%c : memref<f32>) dimensions = [0]
  %d = memref.alloc() : memref<f32>
  linalg.reduce { arith.addf } ins(%b : memref<256xf32>) outs(%d : memref<f32>) dimensions = [0]
  %vc = memref.load %c[] : memref<f32>
  %vd = memref.load %d[] : memref<f32>
  memref.store %vc, %out[%c0] : memref<2xf32>
  memref.store %vd, %out[%c1] : memref<2xf32>
  return
}


// The same with run-time sized buffers: %p1 and %p2 are disjoint in program
// order and stay so (ordered only by the default space, they overlapped
// and the run-time arena grew by one of them).
// CHECK: "lower_bound_bytes": 2112
// CHECK: "lower_bound_program_order_bytes": 3072
// CHECK: "dynamic_buffers"
// CHECK: "size": "4 * %arg2",
// CHECK-NEXT: "above": []
// CHECK: "size": "4 * %arg2",
// CHECK-NEXT: "above": []
func.func @dynamic(%in: memref<256xf32>, %out: memref<2xf32>, %n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %one = arith.constant 1.0 : f32
  %x = memref.alloc() : memref<256xf32>
  linalg.map { math.absf } ins(%in : memref<256xf32>) outs(%x : memref<256xf32>)
  %p1 = memref.alloc(%n) : memref<?xf32>
  linalg.fill ins(%one : f32) outs(%p1 : memref<?xf32>)
  %v1 = memref.subview %p1[0] [256] [1] : memref<?xf32> to memref<256xf32, strided<[1]>>
  %a = memref.alloc() : memref<256xf32>
  linalg.map { math.exp } ins(%x : memref<256xf32>) outs(%a : memref<256xf32>)
  %b = memref.alloc() : memref<256xf32>
  linalg.map { arith.addf } ins(%x, %v1 : memref<256xf32>, memref<256xf32, strided<[1]>>) outs(%b : memref<256xf32>)
  %p2 = memref.alloc(%n) : memref<?xf32>
  linalg.fill ins(%one : f32) outs(%p2 : memref<?xf32>)
  %c = memref.alloc() : memref<f32>
  linalg.reduce { arith.addf } ins(%a : memref<256xf32>) outs(%c : memref<f32>) dimensions = [0]
  linalg.reduce { arith.addf } ins(%p2 : memref<?xf32>) outs(%c : memref<f32>) dimensions = [0]
  %d = memref.alloc() : memref<f32>
  linalg.reduce { arith.addf } ins(%b : memref<256xf32>) outs(%d : memref<f32>) dimensions = [0]
  %vc = memref.load %c[] : memref<f32>
  %vd = memref.load %d[] : memref<f32>
  memref.store %vc, %out[%c0] : memref<2xf32>
  memref.store %vd, %out[%c1] : memref<2xf32>
  return
}
