// RUN: mplan-opt %s --split-input-file --mplan-to-llvm | FileCheck %s
// RUN: mplan-opt %s --split-input-file \
// RUN:   --pass-pipeline="builtin.module(func.func(mplan-tag-buffer-accesses),convert-scf-to-cf,convert-vector-to-llvm,func.func(mplan-tag-buffer-accesses{refresh=true}))" \
// RUN:   -mlir-print-debuginfo -mlir-print-local-scope | FileCheck %s --check-prefix=TAG

// Blocks that differ only in which buffer an access touches (here the exits
// of two loops once scf is lowered to cf) are merged by the region
// simplification of convert-vector-to-llvm (it compares ops
// without their locations, where the marks are): the one access that is
// left reads a block argument, either buffer (the points-to analysis gives
// it the whole arena). Its mark is recomputed after that pass
// (mplan-tag-buffer-accesses{refresh}): before, it kept the mark of one
// buffer, claimed noalias with the other, and LLVM at -O2 deleted the stores
// that filled the other (test/Integration/alias-scopes-merged-blocks.mlir).

// CHECK-DAG: #[[OUT:alias_scope[0-9]*]] = #llvm.alias_scope<{{.*}}description = "outside the arenas">
// CHECK-DAG: #[[ALL:alias_scope[0-9]*]] = #llvm.alias_scope<{{.*}}description = "arena 0 bytes [0, 192)">
// CHECK-LABEL: llvm.func @copies
// CHECK: ^bb{{[0-9]+}}(%{{.*}}: !llvm.struct
// CHECK: "llvm.intr.memcpy"({{.*}}) <{alias_scopes = [#[[OUT]], #[[ALL]]], isVolatile = false}>
// CHECK-NOT: llvm.intr.memcpy
// TAG-LABEL: func.func @copies
// TAG: ^bb{{[0-9]+}}(%[[SRC:[0-9]+]]: memref<16xf32>
// TAG: memref.copy %[[SRC]], %{{.*}} loc(fused<{mplan.access = [array<i64: -1, 0, 0>, array<i64: 0, 0, 192>]}>
func.func @copies(%out: memref<16xf32>, %c: i1, %v: f32, %w: f32) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c16 = arith.constant 16 : index
  %c64 = arith.constant 64 : index
  %c128 = arith.constant 128 : index
  %arena = memref.alloca() {alignment = 64 : i64, mplan.arena} : memref<192xi8>
  %a = memref.view %arena[%c0][] : memref<192xi8> to memref<16xf32>
  %b = memref.view %arena[%c64][] : memref<192xi8> to memref<16xf32>
  %x = memref.view %arena[%c128][] : memref<192xi8> to memref<16xf32>
  memref.store %v, %x[%c0] : memref<16xf32>
  cf.cond_br %c, ^bb1, ^bb2
^bb1:
  scf.for %i = %c0 to %c16 step %c1 {
    memref.store %v, %a[%i] : memref<16xf32>
  }
  memref.copy %a, %out : memref<16xf32> to memref<16xf32>
  cf.br ^bb3
^bb2:
  scf.for %i = %c0 to %c16 step %c1 {
    memref.store %w, %b[%i] : memref<16xf32>
  }
  memref.copy %b, %out : memref<16xf32> to memref<16xf32>
  cf.br ^bb3
^bb3:
  return
}

// -----

// The same with vector loads, which convert-vector-to-llvm lowers to LLVM
// loads before the marks are recomputed: the pointer of each is traced back
// to the memref it was offset from. The load of the merged block reads
// either buffer (the whole arena); the load of %x keeps its own bytes.

// CHECK-DAG: #[[OUT:alias_scope[0-9]*]] = #llvm.alias_scope<{{.*}}description = "outside the arenas">
// CHECK-DAG: #[[ALL:alias_scope[0-9]*]] = #llvm.alias_scope<{{.*}}description = "arena 0 bytes [0, 192)">
// CHECK-DAG: #[[X:alias_scope[0-9]*]] = #llvm.alias_scope<{{.*}}description = "arena 0 bytes [128, 192)">
// CHECK-LABEL: llvm.func @vector_loads
// CHECK: llvm.load %{{.*}} {alias_scopes = [#[[X]]], alignment = 4 : i64, noalias_scopes = [#[[OUT]], {{.*}}]} : !llvm.ptr -> vector<4xf32>
// CHECK: llvm.load %{{.*}} {alias_scopes = [#[[ALL]]], alignment = 4 : i64, noalias_scopes = [#[[OUT]]]} : !llvm.ptr -> vector<4xf32>
// TAG-LABEL: func.func @vector_loads
// TAG: llvm.load {{.*}} loc(fused<{mplan.access = [array<i64: 0, 128, 192>]}>
// TAG: llvm.load {{.*}} loc(fused<{mplan.access = [array<i64: 0, 0, 192>]}>
func.func @vector_loads(%out: memref<4xf32>, %c: i1, %v: f32, %w: f32) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c16 = arith.constant 16 : index
  %c64 = arith.constant 64 : index
  %c128 = arith.constant 128 : index
  %arena = memref.alloca() {alignment = 64 : i64, mplan.arena} : memref<192xi8>
  %a = memref.view %arena[%c0][] : memref<192xi8> to memref<16xf32>
  %b = memref.view %arena[%c64][] : memref<192xi8> to memref<16xf32>
  %x = memref.view %arena[%c128][] : memref<192xi8> to memref<16xf32>
  %xv = vector.load %x[%c0] : memref<16xf32>, vector<4xf32>
  cf.cond_br %c, ^bb1, ^bb2
^bb1:
  scf.for %i = %c0 to %c16 step %c1 {
    memref.store %v, %a[%i] : memref<16xf32>
  }
  %u = vector.load %a[%c0] : memref<16xf32>, vector<4xf32>
  vector.store %u, %out[%c0] : memref<4xf32>, vector<4xf32>
  cf.br ^bb3
^bb2:
  scf.for %i = %c0 to %c16 step %c1 {
    memref.store %w, %b[%i] : memref<16xf32>
  }
  %t = vector.load %b[%c0] : memref<16xf32>, vector<4xf32>
  vector.store %t, %out[%c0] : memref<4xf32>, vector<4xf32>
  cf.br ^bb3
^bb3:
  vector.store %xv, %out[%c0] : memref<4xf32>, vector<4xf32>
  return
}
