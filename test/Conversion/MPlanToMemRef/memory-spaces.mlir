// RUN: mplan-opt %s --split-input-file --convert-mplan-to-memref="arena=heap" | FileCheck %s --check-prefix=HEAP
// RUN: mplan-opt %s --split-input-file --convert-mplan-to-memref="arena=stack" | FileCheck %s --check-prefix=STACK
// RUN: mplan-opt %s --split-input-file --convert-mplan-to-memref="arena=global" | FileCheck %s --check-prefix=GLOBAL
// RUN: mplan-opt %s --split-input-file --convert-mplan-to-memref="arena=argument" | FileCheck %s --check-prefix=ARG
// Every arena kind's output is IR upstream accepts.
// RUN: mplan-opt %s --split-input-file --convert-mplan-to-memref="arena=heap" | mlir-opt --split-input-file > /dev/null
// RUN: mplan-opt %s --split-input-file --convert-mplan-to-memref="arena=stack" | mlir-opt --split-input-file > /dev/null
// RUN: mplan-opt %s --split-input-file --convert-mplan-to-memref="arena=global" | mlir-opt --split-input-file > /dev/null
// RUN: mplan-opt %s --split-input-file --convert-mplan-to-memref="arena=argument" | mlir-opt --split-input-file > /dev/null

// One slab per memory space: each is lowered to an arena in its own space, and every
// buffer's memref.view stays in its slab's space. The three buffers share offset 0 and
// are live at the same time, which is right: they are in different slabs.

// HEAP-LABEL: func.func @three_spaces(
// HEAP-DAG: %[[D:.*]] = memref.alloc() {alignment = 64 : i64, mplan.arena} : memref<64xi8>
// HEAP-DAG: %[[I:.*]] = memref.alloc() {alignment = 16 : i64, mplan.arena} : memref<64xi8, 1>
// HEAP-DAG: %[[W:.*]] = memref.alloc() {alignment = 16 : i64, mplan.arena} : memref<256xi8, #gpu.address_space<workgroup>>
// HEAP-DAG: memref.view %[[D]][%{{.*}}][] {{.*}} : memref<64xi8> to memref<16xf32>
// HEAP-DAG: memref.view %[[I]][%{{.*}}][] {{.*}} : memref<64xi8, 1> to memref<16xf32, 1>
// HEAP-DAG: memref.view %[[W]][%{{.*}}][] {{.*}} : memref<256xi8, #gpu.address_space<workgroup>> to memref<64xf32, #gpu.address_space<workgroup>>
// HEAP-DAG: memref.dealloc %[[D]] : memref<64xi8>
// HEAP-DAG: memref.dealloc %[[I]] : memref<64xi8, 1>
// HEAP-DAG: memref.dealloc %[[W]] : memref<256xi8, #gpu.address_space<workgroup>>
// HEAP: return

// STACK-LABEL: func.func @three_spaces(
// STACK-DAG: %[[D:.*]] = memref.alloca() {alignment = 64 : i64, mplan.arena} : memref<64xi8>
// STACK-DAG: %[[I:.*]] = memref.alloca() {alignment = 16 : i64, mplan.arena} : memref<64xi8, 1>
// STACK-DAG: %[[W:.*]] = memref.alloca() {alignment = 16 : i64, mplan.arena} : memref<256xi8, #gpu.address_space<workgroup>>
// STACK-DAG: memref.view %[[D]][%{{.*}}][] {{.*}} : memref<64xi8> to memref<16xf32>
// STACK-DAG: memref.view %[[I]][%{{.*}}][] {{.*}} : memref<64xi8, 1> to memref<16xf32, 1>
// STACK-DAG: memref.view %[[W]][%{{.*}}][] {{.*}} : memref<256xi8, #gpu.address_space<workgroup>> to memref<64xf32, #gpu.address_space<workgroup>>
// STACK-NOT: memref.dealloc
// STACK: return

// One global per (function, memory space).
// GLOBAL-DAG: memref.global "private" @__mplan_arena_three_spaces : memref<64xi8> = uninitialized {alignment = 64 : i64}
// GLOBAL-DAG: memref.global "private" @__mplan_arena_three_spaces_1 : memref<64xi8, 1> = uninitialized {alignment = 16 : i64}
// GLOBAL-DAG: memref.global "private" @__mplan_arena_three_spaces_gpu_address_space_workgroup : memref<256xi8, #gpu.address_space<workgroup>> = uninitialized {alignment = 16 : i64}
// GLOBAL-LABEL: func.func @three_spaces(
// GLOBAL-DAG: %[[D:.*]] = memref.get_global @__mplan_arena_three_spaces : memref<64xi8>
// GLOBAL-DAG: %[[I:.*]] = memref.get_global @__mplan_arena_three_spaces_1 : memref<64xi8, 1>
// GLOBAL-DAG: %[[W:.*]] = memref.get_global @__mplan_arena_three_spaces_gpu_address_space_workgroup : memref<256xi8, #gpu.address_space<workgroup>>
// GLOBAL-DAG: memref.view %[[D]][%{{.*}}][] {{.*}} : memref<64xi8> to memref<16xf32>
// GLOBAL-DAG: memref.view %[[I]][%{{.*}}][] {{.*}} : memref<64xi8, 1> to memref<16xf32, 1>
// GLOBAL-DAG: memref.view %[[W]][%{{.*}}][] {{.*}} : memref<256xi8, #gpu.address_space<workgroup>> to memref<64xf32, #gpu.address_space<workgroup>>
// GLOBAL-NOT: memref.dealloc
// GLOBAL: return

// arena=argument: the default-space slab becomes the argument; the slabs in the other
// spaces keep a heap arena in their space.
// ARG-LABEL: func.func @three_spaces(
// ARG-SAME: %[[ARENA:[a-z0-9]+]]: memref<64xi8> {llvm.noalias, mplan.arena})
// ARG-SAME: attributes {mplan.arena_alignment = 64 : i64, mplan.arena_size = 64 : i64}
// ARG: %[[D:.*]] = memref.assume_alignment %[[ARENA]], 64 : memref<64xi8>
// ARG-DAG: %[[I:.*]] = memref.alloc() {alignment = 16 : i64, mplan.arena} : memref<64xi8, 1>
// ARG-DAG: %[[W:.*]] = memref.alloc() {alignment = 16 : i64, mplan.arena} : memref<256xi8, #gpu.address_space<workgroup>>
// ARG-DAG: memref.view %[[D]][%{{.*}}][] {{.*}} : memref<64xi8> to memref<16xf32>
// ARG-DAG: memref.view %[[I]][%{{.*}}][] {{.*}} : memref<64xi8, 1> to memref<16xf32, 1>
// ARG-DAG: memref.view %[[W]][%{{.*}}][] {{.*}} : memref<256xi8, #gpu.address_space<workgroup>> to memref<64xf32, #gpu.address_space<workgroup>>
// ARG-DAG: memref.dealloc %[[I]] : memref<64xi8, 1>
// ARG-DAG: memref.dealloc %[[W]] : memref<256xi8, #gpu.address_space<workgroup>>
// ARG-NOT: memref.dealloc %[[D]]
// ARG: return
func.func @three_spaces(%x: f32) {
  %d = mplan.alloc_slab : !mplan.slab<64, 64>
  %i = mplan.alloc_slab : !mplan.slab<64, 16, 1>
  %w = mplan.alloc_slab : !mplan.slab<256, 16, #gpu.address_space<workgroup>>
  %a = mplan.alloc_tensor id(0) live [4, 8) at %d[0] : !mplan.slab<64, 64> -> memref<16xf32>
  %b = mplan.alloc_tensor id(1) live [5, 8) at %i[0] : !mplan.slab<64, 16, 1> -> memref<16xf32, 1>
  %c = mplan.alloc_tensor id(2) live [6, 8) at %w[0] : !mplan.slab<256, 16, #gpu.address_space<workgroup>> -> memref<64xf32, #gpu.address_space<workgroup>>
  linalg.fill ins(%x : f32) outs(%a : memref<16xf32>)
  linalg.fill ins(%x : f32) outs(%b : memref<16xf32, 1>)
  linalg.fill ins(%x : f32) outs(%c : memref<64xf32, #gpu.address_space<workgroup>>)
  mplan.release_slab %w : !mplan.slab<256, 16, #gpu.address_space<workgroup>>
  mplan.release_slab %i : !mplan.slab<64, 16, 1>
  mplan.release_slab %d : !mplan.slab<64, 64>
  return
}

// -----

// arena=argument with a callee that also has a slab in another space: the caller slices
// only the callee's default-space arena out of its own default-space slab. A caller whose
// only slab is in another space has no arena to slice from: the heap, around the call.

// ARG-LABEL: func.func @callee(
// ARG-SAME: %{{.*}}: f32, %[[ARENA:[a-z0-9]+]]: memref<64xi8> {llvm.noalias, mplan.arena})
// ARG: memref.alloc() {alignment = 64 : i64, mplan.arena} : memref<64xi8, 1>
// ARG-LABEL: func.func @caller(
// ARG-SAME: %[[CA:[a-z0-9]+]]: memref<128xi8> {llvm.noalias, mplan.arena})
// ARG: %[[A:.*]] = memref.assume_alignment %[[CA]], 64 : memref<128xi8>
// ARG: %[[S:.*]] = memref.view %[[A]][%{{.*}}][] {{.*}} : memref<128xi8> to memref<64xi8>
// ARG-NEXT: call @callee(%{{.*}}, %[[S]]) : (f32, memref<64xi8>) -> ()
// ARG-LABEL: func.func @space_only_caller(
// ARG: %[[H:.*]] = memref.alloc() {alignment = 64 : i64, mplan.arena} : memref<64xi8>
// ARG-NEXT: call @callee(%{{.*}}, %[[H]]) : (f32, memref<64xi8>) -> ()
// ARG-NEXT: memref.dealloc %[[H]] : memref<64xi8>
func.func @callee(%x: f32) {
  %d = mplan.alloc_slab : !mplan.slab<64, 64>
  %i = mplan.alloc_slab : !mplan.slab<64, 64, 1>
  %a = mplan.alloc_tensor id(0) live [3, 6) at %d[0] : !mplan.slab<64, 64> -> memref<16xf32>
  %b = mplan.alloc_tensor id(1) live [4, 6) at %i[0] : !mplan.slab<64, 64, 1> -> memref<16xf32, 1>
  linalg.fill ins(%x : f32) outs(%a : memref<16xf32>)
  linalg.fill ins(%x : f32) outs(%b : memref<16xf32, 1>)
  mplan.release_slab %i : !mplan.slab<64, 64, 1>
  mplan.release_slab %d : !mplan.slab<64, 64>
  return
}

func.func @caller(%x: f32) {
  %d = mplan.alloc_slab : !mplan.slab<64, 64>
  %a = mplan.alloc_tensor id(0) live [2, 6) at %d[0] : !mplan.slab<64, 64> -> memref<16xf32>
  linalg.fill ins(%x : f32) outs(%a : memref<16xf32>)
  func.call @callee(%x) : (f32) -> ()
  %c0 = arith.constant 0 : index
  %v = memref.load %a[%c0] : memref<16xf32>
  mplan.release_slab %d : !mplan.slab<64, 64>
  return
}

func.func @space_only_caller(%x: f32) {
  %i = mplan.alloc_slab : !mplan.slab<64, 64, 1>
  %b = mplan.alloc_tensor id(0) live [2, 5) at %i[0] : !mplan.slab<64, 64, 1> -> memref<16xf32, 1>
  linalg.fill ins(%x : f32) outs(%b : memref<16xf32, 1>)
  func.call @callee(%x) : (f32) -> ()
  %c0 = arith.constant 0 : index
  %v = memref.load %b[%c0] : memref<16xf32, 1>
  mplan.release_slab %i : !mplan.slab<64, 64, 1>
  return
}

// -----

// A global's name that is taken already gets a suffix.
// GLOBAL: memref.global "private" @__mplan_arena_clash_1 : memref<4xi8> = uninitialized
// GLOBAL: memref.global "private" @__mplan_arena_clash_1_0 : memref<64xi8, 1> = uninitialized {alignment = 64 : i64}
// GLOBAL-LABEL: func.func @clash(
// GLOBAL: memref.get_global @__mplan_arena_clash_1_0 : memref<64xi8, 1>
memref.global "private" @__mplan_arena_clash_1 : memref<4xi8> = uninitialized

func.func @clash(%x: f32) {
  %s = mplan.alloc_slab : !mplan.slab<64, 64, 1>
  %a = mplan.alloc_tensor id(0) live [1, 2) at %s[0] : !mplan.slab<64, 64, 1> -> memref<16xf32, 1>
  linalg.fill ins(%x : f32) outs(%a : memref<16xf32, 1>)
  mplan.release_slab %s : !mplan.slab<64, 64, 1>
  return
}

// -----

// From bufferized IR mixing the default space, an integer space and GPU workgroup memory:
// planned (one slab per space), verified, and lowered to IR upstream accepts, with every
// buffer in its own space and the copies between spaces kept.
// RUN: mplan-opt %S/Inputs/three-spaces.mlir --mplan-plan-pipeline --mplan-verify-plan \
// RUN:   --convert-mplan-to-memref | tee %t.lowered | FileCheck %s --check-prefix=PIPE
// RUN: mlir-opt %t.lowered > /dev/null
// PIPE-LABEL: func.func @mixed(
// PIPE-DAG: %[[D:.*]] = memref.alloc() {{.*}}mplan.arena{{.*}} : memref<{{[0-9]+}}xi8>
// PIPE-DAG: %[[I:.*]] = memref.alloc() {{.*}}mplan.arena{{.*}} : memref<{{[0-9]+}}xi8, 1>
// PIPE-DAG: %[[W:.*]] = memref.alloc() {{.*}}mplan.arena{{.*}} : memref<{{[0-9]+}}xi8, #gpu.address_space<workgroup>>
// PIPE-DAG: memref.view %[[D]]{{.*}} to memref<16xf32>
// PIPE-DAG: memref.view %[[I]]{{.*}} to memref<16xf32, 1>
// PIPE-DAG: memref.view %[[W]]{{.*}} to memref<16xf32, #gpu.address_space<workgroup>>
// PIPE-DAG: memref.copy %{{.*}}, %{{.*}} : memref<16xf32> to memref<16xf32, 1>
// PIPE-DAG: memref.copy %{{.*}}, %{{.*}} : memref<16xf32, 1> to memref<16xf32, #gpu.address_space<workgroup>>
