// RUN: mplan-opt %s --split-input-file --mplan-instrument | FileCheck %s

// Allocations and frees come from memory effects, whatever the op: memref.alloc (also
// with an alignment), bufferization.clone and the result of memref.realloc are heap
// buffers recorded after the op; memref.dealloc and the operand of memref.realloc are
// freed before it. The free of a buffer that may come from an external function is
// recorded without the liveness check.

// CHECK-LABEL: func.func @effects(
// CHECK: %[[A:.*]] = memref.alloc() {alignment = 128 : i64} : memref<8xf32>
// CHECK-NEXT: arith.constant
// CHECK-NEXT: arith.addi
// CHECK-NEXT: %[[AP:.*]] = memref.extract_aligned_pointer_as_index %[[A]]
// CHECK-NEXT: %[[C32:.*]] = arith.constant 32 : index
// CHECK-NEXT: %[[HEAP:.*]] = arith.constant 0 : index
// CHECK-NEXT: call @mplan_rt_alloc(%{{.*}}, %[[AP]], %[[C32]], %[[HEAP]])
// CHECK-NEXT: %[[C:.*]] = bufferization.clone
// CHECK-NEXT: arith.constant
// CHECK-NEXT: arith.addi
// CHECK-NEXT: %[[CP:.*]] = memref.extract_aligned_pointer_as_index %[[C]]
// CHECK-NEXT: %[[C32B:.*]] = arith.constant 32 : index
// CHECK-NEXT: %[[HEAPB:.*]] = arith.constant 0 : index
// CHECK-NEXT: call @mplan_rt_alloc(%{{.*}}, %[[CP]], %[[C32B]], %[[HEAPB]])
// CHECK: %[[AP2:.*]] = memref.extract_aligned_pointer_as_index %[[A]]
// CHECK-NEXT: call @mplan_rt_free(%{{.*}}, %[[AP2]])
// CHECK-NEXT: %[[R:.*]] = memref.realloc %[[A]]
// CHECK: %[[RP:.*]] = memref.extract_aligned_pointer_as_index %[[R]]
// CHECK: %[[DIM:.*]] = memref.dim %[[R]]
// CHECK-NEXT: %[[RB:.*]] = arith.muli %{{.*}}, %[[DIM]]
// CHECK-NEXT: %[[HEAPC:.*]] = arith.constant 0 : index
// CHECK-NEXT: call @mplan_rt_alloc(%{{.*}}, %[[RP]], %[[RB]], %[[HEAPC]])
// CHECK: %[[CAST:.*]] = memref.cast
// CHECK: %[[EP:.*]] = memref.extract_aligned_pointer_as_index %[[CAST]]
// CHECK-NEXT: call @mplan_rt_free_untracked(%{{.*}}, %[[EP]])
// CHECK-NEXT: memref.dealloc %[[CAST]]
// CHECK: %[[CP2:.*]] = memref.extract_aligned_pointer_as_index %[[C]]
// CHECK-NEXT: call @mplan_rt_free(%{{.*}}, %[[CP2]])
// CHECK-NEXT: memref.dealloc %[[C]]
// CHECK: %[[RP2:.*]] = memref.extract_aligned_pointer_as_index %[[R]]
// CHECK-NEXT: call @mplan_rt_free(%{{.*}}, %[[RP2]])
// CHECK-NEXT: memref.dealloc %[[R]]
func.func private @external_alloc() -> memref<8xf32>
func.func @effects(%n: index, %m: memref<8xf32>) {
  %a = memref.alloc() {alignment = 128 : i64} : memref<8xf32>
  %c = bufferization.clone %m : memref<8xf32> to memref<8xf32>
  %r = memref.realloc %a(%n) : memref<8xf32> to memref<?xf32>
  %e = call @external_alloc() : () -> memref<8xf32>
  %cast = memref.cast %e : memref<8xf32> to memref<?xf32>
  memref.dealloc %cast : memref<?xf32>
  memref.dealloc %c : memref<8xf32>
  memref.dealloc %r : memref<?xf32>
  return
}

// -----

// bufferization.dealloc (which declares no effects and frees conditionally) is lowered
// first, as mplan-to-llvm lowers it: the free is recorded where it runs.

// CHECK-LABEL: func.func @conditional(
// CHECK: %[[A:.*]] = memref.alloc() : memref<8xf32>
// CHECK: call @mplan_rt_alloc(
// CHECK: %[[BASE:.*]], %{{.*}}, %{{.*}}, %{{.*}} = memref.extract_strided_metadata %[[A]]
// CHECK-NEXT: scf.if %{{.*}} {
// CHECK: %[[BP:.*]] = memref.extract_aligned_pointer_as_index %[[BASE]]
// CHECK-NEXT: func.call @mplan_rt_free(%{{.*}}, %[[BP]])
// CHECK-NEXT: memref.dealloc %[[BASE]]
// CHECK-NEXT: }
// CHECK-NOT: bufferization.dealloc
func.func @conditional(%c: i1) {
  %a = memref.alloc() : memref<8xf32>
  %base, %offset, %size, %stride = memref.extract_strided_metadata %a : memref<8xf32> -> memref<f32>, index, index, index
  bufferization.dealloc (%base : memref<f32>) if (%c)
  return
}

// -----

// Stack buffers: any allocation in the automatic allocation scope resource.

// CHECK-LABEL: func.func @stack(
// CHECK: memref.alloca() {alignment = 64 : i64} : memref<4xf64>
// CHECK: %[[B:.*]] = arith.constant 32 : index
// CHECK-NEXT: %[[STACK:.*]] = arith.constant 1 : index
// CHECK-NEXT: call @mplan_rt_alloc(%{{.*}}, %{{.*}}, %[[B]], %[[STACK]])
func.func @stack() {
  %s = memref.alloca() {alignment = 64 : i64} : memref<4xf64>
  return
}
