// RUN: mplan-opt %s --mplan-dealloc-in-default-space | FileCheck %s
// RUN: mplan-opt %s --mplan-to-llvm | FileCheck %s --check-prefix=LLVM

// A buffer of an integer memory space is freed through a cast to the default space, so
// that finalize-memref-to-llvm passes free a pointer of the default address space.
// CHECK-LABEL: func.func @space1(
// CHECK: %[[A:.*]] = memref.alloc() {alignment = 64 : i64, mplan.arena} : memref<64xi8, 1>
// CHECK: %[[C:.*]] = memref.memory_space_cast %[[A]] : memref<64xi8, 1> to memref<64xi8>
// CHECK-NEXT: memref.dealloc %[[C]] : memref<64xi8>
// LLVM-LABEL: llvm.func @space1(
// LLVM: %[[P:.*]] = llvm.addrspacecast %{{.*}} : !llvm.ptr<1> to !llvm.ptr
// LLVM: llvm.call @free(%{{.*}}) : (!llvm.ptr) -> ()
func.func @space1() {
  %a = memref.alloc() {alignment = 64 : i64, mplan.arena} : memref<64xi8, 1>
  memref.dealloc %a : memref<64xi8, 1>
  return
}

// The default space, space 0 (printed as the default) and non-integer spaces are left alone.
// CHECK-LABEL: func.func @others(
// CHECK-NOT: memory_space_cast
// CHECK: memref.dealloc %{{.*}} : memref<4xf32>
// CHECK-NEXT: memref.dealloc %{{.*}} : memref<4xf32>
// CHECK-NEXT: memref.dealloc %{{.*}} : memref<4xf32, #gpu.address_space<workgroup>>
func.func @others() {
  %a = memref.alloc() : memref<4xf32>
  %b = memref.alloc() : memref<4xf32, 0>
  %c = memref.alloc() : memref<4xf32, #gpu.address_space<workgroup>>
  memref.dealloc %a : memref<4xf32>
  memref.dealloc %b : memref<4xf32, 0>
  memref.dealloc %c : memref<4xf32, #gpu.address_space<workgroup>>
  return
}
