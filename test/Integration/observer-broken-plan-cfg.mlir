// The observer still catches a wrong plan in a function with blocks: buffer 1, defined in
// ^bb1, shares bytes [32, 64) with buffer 0, which is read after the branches merge (so it
// is live in ^bb1). The first call takes ^bb1: the observer names both buffers and the run
// fails. The second call takes ^bb2, where nothing overlaps: no second error.
// REQUIRES: mplan-runtime
//
// RUN: mplan-opt %s --mplan-instrument --mplan-to-llvm \
// RUN:   | not mlir-runner -e main -entry-point-result=void \
// RUN:       -shared-libs=%mlir_runner_libs,%mplan_runtime 2>&1 \
// RUN:   | FileCheck %s

// CHECK: mplan-rt: error: {{.*}}observer-broken-plan-cfg.mlir:[[@LINE+23]]:{{[0-9]+}} memref.view: in @broken: planned buffer 1 (bytes [32, 96) of its arena) overlaps live planned buffer 0 (bytes [0, 64)) created at {{.*}}observer-broken-plan-cfg.mlir:[[@LINE+13]]:{{[0-9]+}} memref.view
// CHECK-NOT: mplan-rt: error
// CHECK: mplan-rt: planned buffers 4, errors 1
// CHECK: mplan-rt: @broken: calls 2,
// CHECK: mplan-rt: 1 error(s) found

#id = affine_map<(d0) -> (d0)>

func.func @broken(%x: memref<16xf32>, %c: i1, %out: memref<16xf32>) {
  %c0 = arith.constant 0 : index
  %c32 = arith.constant 32 : index
  %c128 = arith.constant 128 : index
  %arena = memref.alloc() {alignment = 64 : i64, mplan.arena} : memref<192xi8>
  %a = memref.view %arena[%c0][] {mplan.buffer_id = 0 : i64} : memref<192xi8> to memref<16xf32>
  linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel"]}
      ins(%x : memref<16xf32>) outs(%a : memref<16xf32>) {
  ^bb0(%v: f32, %o: f32):
    %two = arith.constant 2.0 : f32
    %r = arith.mulf %v, %two : f32
    linalg.yield %r : f32
  }
  cf.cond_br %c, ^bb1, ^bb2
^bb1:
  %b = memref.view %arena[%c32][] {mplan.buffer_id = 1 : i64} : memref<192xi8> to memref<16xf32>
  linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel"]}
      ins(%x : memref<16xf32>) outs(%b : memref<16xf32>) {
  ^bb0(%v: f32, %o: f32):
    %one = arith.constant 1.0 : f32
    %r = arith.addf %v, %one : f32
    linalg.yield %r : f32
  }
  cf.br ^bb3(%b : memref<16xf32>)
^bb2:
  %f = memref.view %arena[%c128][] {mplan.buffer_id = 2 : i64} : memref<192xi8> to memref<16xf32>
  memref.copy %x, %f : memref<16xf32> to memref<16xf32>
  cf.br ^bb3(%f : memref<16xf32>)
^bb3(%m: memref<16xf32>):
  linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel"]}
      ins(%a, %m : memref<16xf32>, memref<16xf32>) outs(%out : memref<16xf32>) {
  ^bb0(%u: f32, %v: f32, %o: f32):
    %r = arith.addf %u, %v : f32
    linalg.yield %r : f32
  }
  memref.dealloc %arena : memref<192xi8>
  return
}

func.func @main() {
  %x = memref.alloc() : memref<16xf32>
  %out = memref.alloc() : memref<16xf32>
  %c = arith.constant 0.5 : f32
  linalg.fill ins(%c : f32) outs(%x : memref<16xf32>)
  %t = arith.constant true
  call @broken(%x, %t, %out) : (memref<16xf32>, i1, memref<16xf32>) -> ()
  %f = arith.constant false
  call @broken(%x, %f, %out) : (memref<16xf32>, i1, memref<16xf32>) -> ()
  memref.dealloc %x : memref<16xf32>
  memref.dealloc %out : memref<16xf32>
  return
}
