// RUN: mplan-opt %s --split-input-file --mplan-to-llvm | FileCheck %s
// RUN: mplan-opt %s --split-input-file \
// RUN:   --mplan-to-llvm="scope-float-accumulators=true" \
// RUN:   | FileCheck %s --check-prefix=ALL
// RUN: mplan-opt %s --split-input-file \
// RUN:   --pass-pipeline="builtin.module(func.func(convert-linalg-to-loops,mplan-tag-buffer-accesses))" \
// RUN:   -mlir-print-debuginfo -mlir-print-local-scope \
// RUN:   | FileCheck %s --check-prefix=TAG

// The accumulator of a reduction loop (here a matmul's output element, loaded
// and stored at the same place in every iteration of the innermost loop)
// whose strided operand spans more than 32 KiB in the loop (a column of %b:
// 1 KiB a step, 64 steps) gets no scopes by default, so LLVM stores it every
// iteration as it does without scopes; the matmul's operands keep theirs.
// With scope-float-accumulators every access gets scopes.

// CHECK-LABEL: llvm.func @matmul
// The arena holds an unscoped accumulator: its pointer goes through an
// opaque copy (for a heap arena its aligned pointer is opaque already).
// CHECK: %[[MALLOC:.*]] = llvm.call @malloc
// CHECK-NEXT: llvm.inline_asm "", "=r,0" %[[MALLOC]] : (!llvm.ptr) -> !llvm.ptr
// The inner loop: two operands with scopes, the accumulator without.
// CHECK: llvm.load %{{.*}} {alias_scopes = [#{{.*}}], noalias_scopes = [#{{.*}}]} : !llvm.ptr -> f32
// CHECK: llvm.load %{{.*}} {alias_scopes = [#{{.*}}], noalias_scopes = [#{{.*}}]} : !llvm.ptr -> f32
// CHECK: llvm.load %{{[^ ]*}} : !llvm.ptr -> f32
// CHECK: llvm.fmul
// CHECK: llvm.fadd
// CHECK: llvm.store %{{[^ ]*}}, %{{[^ ]*}} : f32, !llvm.ptr

// ALL-LABEL: llvm.func @matmul
// ALL-NOT: llvm.inline_asm
// ALL-COUNT-3: llvm.load %{{.*}} {alias_scopes = [#{{.*}}], noalias_scopes = [#{{.*}}]} : !llvm.ptr -> f32
// ALL: llvm.store %{{.*}} {alias_scopes = [#{{.*}}], noalias_scopes = [#{{.*}}]} : f32, !llvm.ptr

// TAG-LABEL: func.func @matmul
// TAG: memref.alloc() {{.*}}mplan.arena{{.*}} loc(fused<{mplan.hide_provenance}>
// TAG: memref.load {{.*}} loc(fused<{mplan.access = [array<i64: -1, 0, 0>]}>
// TAG-NEXT: memref.load {{.*}} loc(fused<{mplan.access = [array<i64: 0, 0, 65536>]}>
// TAG-NEXT: memref.load {{.*}} loc("{{[^"]*}}":{{[0-9]+}}:{{[0-9]+}})
// TAG: memref.store {{.*}} loc("{{[^"]*}}":{{[0-9]+}}:{{[0-9]+}})
func.func @matmul(%a: memref<2x64xf32>, %out: memref<2x256xf32>) {
  %c0 = arith.constant 0 : index
  %c65536 = arith.constant 65536 : index
  %zero = arith.constant 0.0 : f32
  %arena = memref.alloc() {alignment = 64 : i64, mplan.arena} : memref<67584xi8>
  %b = memref.view %arena[%c0][] : memref<67584xi8> to memref<64x256xf32>
  %c = memref.view %arena[%c65536][] : memref<67584xi8> to memref<2x256xf32>
  linalg.fill ins(%zero : f32) outs(%b : memref<64x256xf32>)
  linalg.fill ins(%zero : f32) outs(%c : memref<2x256xf32>)
  linalg.matmul ins(%a, %b : memref<2x64xf32>, memref<64x256xf32>)
                outs(%c : memref<2x256xf32>)
  memref.dealloc %arena : memref<67584xi8>
  return
}

// -----

// A float accumulator whose loop's strided operand fits in 32 KiB keeps its
// scopes (%b: 64 B a step, 16 steps), and so do an integer accumulator (LLVM
// may reassociate integer additions, so a register accumulator lets it
// vectorize the reduction) and a float stored at an address that changes in
// the loop.

// CHECK-LABEL: llvm.func @others
// CHECK-NOT: llvm.inline_asm
// CHECK-COUNT-3: llvm.load %{{.*}} {alias_scopes = [#{{.*}}], noalias_scopes = [#{{.*}}]} : !llvm.ptr -> f32
// CHECK: llvm.store %{{.*}} {alias_scopes = [#{{.*}}], noalias_scopes = [#{{.*}}]} : f32, !llvm.ptr
// CHECK-COUNT-2: llvm.load %{{.*}} {alias_scopes = [#{{.*}}], noalias_scopes = [#{{.*}}]} : !llvm.ptr -> i32
// CHECK: llvm.store %{{.*}} {alias_scopes = [#{{.*}}], noalias_scopes = [#{{.*}}]} : i32, !llvm.ptr
// CHECK-COUNT-2: llvm.load %{{.*}} {alias_scopes = [#{{.*}}], noalias_scopes = [#{{.*}}]} : !llvm.ptr -> f32
// CHECK: llvm.store %{{.*}} {alias_scopes = [#{{.*}}], noalias_scopes = [#{{.*}}]} : f32, !llvm.ptr
func.func @others(%in: memref<16xi32>, %fin: memref<16xf32>,
                   %b: memref<16x16xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c16 = arith.constant 16 : index
  %c64 = arith.constant 64 : index
  %arena = memref.alloc() {alignment = 64 : i64, mplan.arena} : memref<128xi8>
  %acc = memref.view %arena[%c0][] : memref<128xi8> to memref<1xi32>
  %f = memref.view %arena[%c64][] : memref<128xi8> to memref<16xf32>
  scf.for %i = %c0 to %c16 step %c1 {
    %x = memref.load %fin[%i] : memref<16xf32>
    %y = memref.load %b[%i, %c0] : memref<16x16xf32>
    %s = memref.load %f[%c0] : memref<16xf32>
    %p = arith.mulf %x, %y : f32
    %t = arith.addf %s, %p : f32
    memref.store %t, %f[%c0] : memref<16xf32>
  }
  scf.for %i = %c0 to %c16 step %c1 {
    %x = memref.load %in[%i] : memref<16xi32>
    %s = memref.load %acc[%c0] : memref<1xi32>
    %t = arith.addi %s, %x : i32
    memref.store %t, %acc[%c0] : memref<1xi32>
  }
  scf.for %i = %c0 to %c16 step %c1 {
    %x = memref.load %fin[%i] : memref<16xf32>
    %s = memref.load %f[%i] : memref<16xf32>
    %t = arith.addf %s, %x : f32
    memref.store %t, %f[%i] : memref<16xf32>
  }
  memref.dealloc %arena : memref<128xi8>
  return
}

// -----

// A strided operand far beyond the caches (%big: 4 KiB a step, 512 steps, 2
// MiB) leaves its accumulator unscoped too.

// CHECK-LABEL: llvm.func @beyond_l2
// CHECK: llvm.inline_asm "", "=r,0"
// CHECK: llvm.load %{{.*}} {alias_scopes = [#{{.*}}]} : !llvm.ptr -> f32
// CHECK: llvm.load %{{.*}} {alias_scopes = [#{{.*}}]} : !llvm.ptr -> f32
// CHECK: llvm.load %{{[^ ]*}} : !llvm.ptr -> f32
// CHECK: llvm.store %{{[^ ]*}}, %{{[^ ]*}} : f32, !llvm.ptr
func.func @beyond_l2(%fin: memref<16xf32>, %big: memref<512x1024xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c512 = arith.constant 512 : index
  %arena = memref.alloca() {alignment = 64 : i64, mplan.arena} : memref<64xi8>
  %f = memref.view %arena[%c0][] : memref<64xi8> to memref<16xf32>
  scf.for %i = %c0 to %c512 step %c1 {
    %x = memref.load %fin[%c0] : memref<16xf32>
    %y = memref.load %big[%i, %c0] : memref<512x1024xf32>
    %s = memref.load %f[%c0] : memref<16xf32>
    %p = arith.mulf %x, %y : f32
    %t = arith.addf %s, %p : f32
    memref.store %t, %f[%c0] : memref<16xf32>
  }
  return
}

// -----

// A stack arena (an alloca) and a global arena holding an unscoped
// accumulator: without the opaque copy LLVM would prove the accumulator apart
// from the argument %b by itself and keep it in a register. The arena of
// another function without such an accumulator keeps its pointer as it is.

// CHECK-LABEL: llvm.func @stack_arena
// CHECK: %[[ALLOCA:.*]] = llvm.alloca
// CHECK-NEXT: %[[COPY:.*]] = llvm.inline_asm "", "=r,0" %[[ALLOCA]] : (!llvm.ptr) -> !llvm.ptr
// CHECK-NOT: %[[ALLOCA]]{{[^0-9]}}
// CHECK: llvm.return
func.func @stack_arena(%a: memref<2x64xf32>, %b: memref<64x256xf32>) {
  %c0 = arith.constant 0 : index
  %zero = arith.constant 0.0 : f32
  %arena = memref.alloca() {alignment = 64 : i64, mplan.arena} : memref<2048xi8>
  %c = memref.view %arena[%c0][] : memref<2048xi8> to memref<2x256xf32>
  linalg.fill ins(%zero : f32) outs(%c : memref<2x256xf32>)
  linalg.matmul ins(%a, %b : memref<2x64xf32>, memref<64x256xf32>)
                outs(%c : memref<2x256xf32>)
  return
}

// CHECK-LABEL: llvm.func @global_arena
// CHECK: %[[ADDR:.*]] = llvm.mlir.addressof @arena
// CHECK-NEXT: llvm.inline_asm "", "=r,0" %[[ADDR]] : (!llvm.ptr) -> !llvm.ptr
memref.global "private" @arena : memref<2048xi8> {alignment = 64 : i64}
func.func @global_arena(%a: memref<2x64xf32>, %b: memref<64x256xf32>) {
  %c0 = arith.constant 0 : index
  %zero = arith.constant 0.0 : f32
  %arena = memref.get_global @arena : memref<2048xi8> {mplan.arena}
  %c = memref.view %arena[%c0][] : memref<2048xi8> to memref<2x256xf32>
  linalg.fill ins(%zero : f32) outs(%c : memref<2x256xf32>)
  linalg.matmul ins(%a, %b : memref<2x64xf32>, memref<64x256xf32>)
                outs(%c : memref<2x256xf32>)
  return
}

// CHECK-LABEL: llvm.func @no_accumulator
// CHECK-NOT: llvm.inline_asm
// CHECK: llvm.return
func.func @no_accumulator(%a: memref<512xf32>) {
  %c0 = arith.constant 0 : index
  %arena = memref.alloca() {alignment = 64 : i64, mplan.arena} : memref<2048xi8>
  %c = memref.view %arena[%c0][] : memref<2048xi8> to memref<512xf32>
  linalg.copy ins(%a : memref<512xf32>) outs(%c : memref<512xf32>)
  return
}
