// RUN: mplan-opt %s --split-input-file | FileCheck %s
// RUN: mplan-opt %s --split-input-file | mplan-opt --split-input-file | FileCheck %s
// RUN: mplan-opt %s --split-input-file --mlir-print-op-generic | mplan-opt --split-input-file | FileCheck %s

// CHECK-LABEL: func @unplanned
// CHECK: mplan.alloc_tensor id(0) -> memref<16xf32>
// CHECK: mplan.alloc_tensor id(1) live [2, 7) -> memref<4x4xi8>
// CHECK: mplan.alloc_tensor id(2) {alignment = 64 : i64} -> memref<3xindex>
func.func @unplanned() {
  %0 = mplan.alloc_tensor id(0) -> memref<16xf32>
  %1 = mplan.alloc_tensor id(1) live [2, 7) -> memref<4x4xi8>
  %2 = mplan.alloc_tensor id(2) {alignment = 64 : i64} -> memref<3xindex>
  return
}

// -----

// CHECK-LABEL: func @planned
// CHECK: %[[SLAB:.*]] = mplan.alloc_slab : <128, 64>
// CHECK: mplan.alloc_tensor id(0) live [0, 3) at %[[SLAB]][0] : !mplan.slab<128, 64> -> memref<16xf32>
// CHECK: mplan.alloc_tensor id(1) live [1, 2) at %[[SLAB]][64] : !mplan.slab<128, 64> -> memref<4x4xf32>
// CHECK: mplan.release_slab %[[SLAB]] : <128, 64>
func.func @planned() {
  %slab = mplan.alloc_slab : !mplan.slab<128, 64>
  %0 = mplan.alloc_tensor id(0) live [0, 3) at %slab[0] : !mplan.slab<128, 64> -> memref<16xf32>
  %1 = mplan.alloc_tensor id(1) live [1, 2) at %slab[64] : !mplan.slab<128, 64> -> memref<4x4xf32>
  mplan.release_slab %slab : !mplan.slab<128, 64>
  return
}

// -----

// CHECK-LABEL: func @views
// CHECK: mplan.view %{{.*}}[64] : memref<64xf32> to memref<4x4xf32, strided<[4, 1], offset: 16>>
// CHECK: mplan.view %{{.*}}[4] : memref<4x4xf32> to memref<4x2xf32, strided<[4, 2], offset: 1>>
func.func @views(%arg0: memref<64xf32>, %arg1: memref<4x4xf32>) {
  %0 = mplan.view %arg0[64] : memref<64xf32> to memref<4x4xf32, strided<[4, 1], offset: 16>>
  %1 = mplan.view %arg1[4] : memref<4x4xf32> to memref<4x2xf32, strided<[4, 2], offset: 1>>
  return
}

// -----

// An empty slab and an empty buffer are legal.
// CHECK-LABEL: func @empty
// CHECK: mplan.alloc_tensor id(0) live [0, 1) at %{{.*}}[0] : !mplan.slab<0, 4> -> memref<0xf32>
func.func @empty() {
  %slab = mplan.alloc_slab : !mplan.slab<0, 4>
  %0 = mplan.alloc_tensor id(0) live [0, 1) at %slab[0] : !mplan.slab<0, 4> -> memref<0xf32>
  mplan.release_slab %slab : !mplan.slab<0, 4>
  return
}

// -----

// A slab with a capacity (mplan-plan-buffers' capacity=): its size may reach it.
// CHECK-LABEL: func @capacity
// CHECK: mplan.alloc_slab {capacity = 64 : i64} : <64, 64>
func.func @capacity() {
  %slab = mplan.alloc_slab {capacity = 64 : i64} : !mplan.slab<64, 64>
  mplan.release_slab %slab : !mplan.slab<64, 64>
  return
}

// -----

// One slab per memory space: integer spaces and dialect attributes.
// CHECK-LABEL: func @memory_spaces
// CHECK: mplan.alloc_slab : <64, 16, 1 : i64>
// CHECK: mplan.alloc_slab : <1024, 16, #gpu.address_space<workgroup>>
// CHECK: mplan.alloc_tensor id(0) live [0, 2) at %{{.*}}[0] : !mplan.slab<64, 16, 1 : i64> -> memref<16xf32, 1>
// CHECK: mplan.alloc_tensor id(1) live [0, 2) at %{{.*}}[0] : !mplan.slab<1024, 16, #gpu.address_space<workgroup>> -> memref<256xf32, #gpu.address_space<workgroup>>
func.func @memory_spaces() {
  %s1 = mplan.alloc_slab : !mplan.slab<64, 16, 1>
  %s2 = mplan.alloc_slab : !mplan.slab<1024, 16, #gpu.address_space<workgroup>>
  %0 = mplan.alloc_tensor id(0) live [0, 2) at %s1[0] : !mplan.slab<64, 16, 1> -> memref<16xf32, 1>
  %1 = mplan.alloc_tensor id(1) live [0, 2) at %s2[0] : !mplan.slab<1024, 16, #gpu.address_space<workgroup>> -> memref<256xf32, #gpu.address_space<workgroup>>
  mplan.release_slab %s2 : !mplan.slab<1024, 16, #gpu.address_space<workgroup>>
  mplan.release_slab %s1 : !mplan.slab<64, 16, 1>
  return
}

// -----

// n-D vectors are arrays of their innermost 1-D vector: vector<5x3xf32> takes
// 80 bytes aligned to 16, so the second buffer starts at 80.
// CHECK-LABEL: func @nd_vectors
// CHECK: at %{{.*}}[80] : !mplan.slab<160, 16> -> memref<1xvector<5x3xf32>>
func.func @nd_vectors() {
  %s = mplan.alloc_slab : !mplan.slab<160, 16>
  %0 = mplan.alloc_tensor id(0) live [0, 2) at %s[0] : !mplan.slab<160, 16> -> memref<1xvector<5x3xf32>>
  %1 = mplan.alloc_tensor id(1) live [0, 2) at %s[80] : !mplan.slab<160, 16> -> memref<1xvector<5x3xf32>>
  mplan.release_slab %s : !mplan.slab<160, 16>
  return
}

// -----

// Run-time sized buffers: unplanned, and planned by a symbolic plan (above
// the slab's static bytes and the buffers listed in `above`).
// CHECK-LABEL: func @alloc_dynamic
// CHECK: mplan.alloc_dynamic id(0) (%arg0) -> memref<?x64xf32>
// CHECK: mplan.alloc_dynamic id(1) (%arg0, %arg1) {alignment = 16 : i64} -> memref<?x4x?xi8>
// CHECK: %[[SLAB:.*]] = mplan.alloc_slab : <64, 64>
// CHECK: mplan.alloc_dynamic id(2) (%arg0) live [3, 9) in %[[SLAB]] above [] : !mplan.slab<64, 64> -> memref<?xf32>
// CHECK: mplan.alloc_dynamic id(3) (%arg1) live [4, 6) in %[[SLAB]] above [2] : !mplan.slab<64, 64> {alignment = 64 : i64} -> memref<?xf64>
func.func @alloc_dynamic(%n: index, %m: index) {
  %0 = mplan.alloc_dynamic id(0) (%n) -> memref<?x64xf32>
  %1 = mplan.alloc_dynamic id(1) (%n, %m) {alignment = 16 : i64} -> memref<?x4x?xi8>
  %slab = mplan.alloc_slab : !mplan.slab<64, 64>
  %2 = mplan.alloc_dynamic id(2) (%n) live [3, 9) in %slab above [] : !mplan.slab<64, 64> -> memref<?xf32>
  %3 = mplan.alloc_dynamic id(3) (%m) live [4, 6) in %slab above [2] : !mplan.slab<64, 64> {alignment = 64 : i64} -> memref<?xf64>
  mplan.release_slab %slab : !mplan.slab<64, 64>
  return
}
