// RUN: mplan-opt %s --split-input-file --mplan-dealloc-in-default-space | FileCheck %s
// RUN: mplan-opt %s --split-input-file --mplan-to-llvm -verify-diagnostics | FileCheck %s --check-prefix=LLVM

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

// -----

// The default space, space 0 (printed as the default) and non-integer spaces are left alone.
// mplan-to-llvm rejects a non-integer space (mplan-check-llvm-memory-spaces), which
// finalize-memref-to-llvm would report without a location and leave unlowered.
// CHECK-LABEL: func.func @others(
// CHECK-NOT: memory_space_cast
// CHECK: memref.dealloc %{{.*}} : memref<4xf32>
// CHECK-NEXT: memref.dealloc %{{.*}} : memref<4xf32>
// CHECK-NEXT: memref.dealloc %{{.*}} : memref<4xf32, #gpu.address_space<workgroup>>
func.func @others() {
  %a = memref.alloc() : memref<4xf32>
  %b = memref.alloc() : memref<4xf32, 0>
  // expected-error @+1 {{memory space #gpu.address_space<workgroup> has no LLVM address space: map it to an integer memory space before mplan-to-llvm}}
  %c = memref.alloc() : memref<4xf32, #gpu.address_space<workgroup>>
  memref.dealloc %a : memref<4xf32>
  memref.dealloc %b : memref<4xf32, 0>
  memref.dealloc %c : memref<4xf32, #gpu.address_space<workgroup>>
  return
}

// -----

// A space in a function's signature only, or in a global's type, is found too.
// expected-error @+1 {{memory space #gpu.address_space<private> has no LLVM address space}}
func.func @signature(%arg: memref<4xf32, #gpu.address_space<private>>) {
  return
}

// -----

// expected-error @+1 {{memory space #gpu.address_space<workgroup> has no LLVM address space}}
memref.global "private" @g : memref<4xf32, #gpu.address_space<workgroup>>

// -----

// The first op in pre-order: the kernel whose workgroup attribution has the
// space, not the store inside it.
gpu.module @kernels {
  // expected-error @+1 {{memory space #gpu.address_space<workgroup> has no LLVM address space}}
  gpu.func @k(%a: memref<16xf32>) workgroup(%w: memref<16xf32, #gpu.address_space<workgroup>>) kernel {
    %c0 = arith.constant 0 : index
    %v = memref.load %a[%c0] : memref<16xf32>
    memref.store %v, %w[%c0] : memref<16xf32, #gpu.address_space<workgroup>>
    gpu.return
  }
}
