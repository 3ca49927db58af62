// Fitting a capacity comes before every other space's bound (issue 32): a
// space without a capacity may grow when that is what fits a capped one.
// RUN: mplan-opt %s --mplan-plan-pipeline="sequence=best inplace=false capacity=1:1024 remarks=true" --mplan-verify-plan -verify-diagnostics | FileCheck %s
// RUN: mplan-opt %s --mplan-plan-pipeline="sequence=best" --mplan-verify-plan | FileCheck %s --check-prefix=NONE
// RUN: mplan-opt %s --mplan-capture-buffers="fold-views=1" --mplan-sequence="capacity=1:1024" | FileCheck %s --check-prefix=SEQ

// Every op reads or writes the arguments, so the generic runs first and
// the two writes of %out2 last. In program order %x (space 1) is live until
// the cos after %y is made: space 1 needs 2048 bytes and the default space
// 1024 (%e and %d disjoint). The only orders where %x and %y are disjoint
// run the cos before the add that makes %y, and so %d is live across the
// add that frees %e: fitting space 1 in 1024 bytes raises the default space
// from 1024 to 2048 bytes, which it has no capacity to refuse. Without a
// capacity the default space is the objective, and program order stays.
// CHECK-LABEL: func.func @grow
// CHECK-NOT: mplan.sequence_kept_because
// CHECK-DAG: mplan.alloc_slab : <2048, 64>
// CHECK-DAG: mplan.alloc_slab {capacity = 1024 : i64} : <1024, 64, 1 : i64>
// CHECK: linalg.map { math.cos }
// CHECK: linalg.map { arith.addf }
// NONE-LABEL: func.func @grow
// NONE-DAG: mplan.alloc_slab : <1024, 64>
// NONE-DAG: mplan.alloc_slab : <2048, 64, 1 : i64>
// NONE: linalg.map { arith.addf }
// NONE: linalg.map { math.cos }
// SEQ-LABEL: func.func @grow
// SEQ-NOT: mplan.sequence_kept_because
// SEQ: linalg.map { math.cos }
// SEQ: linalg.map { arith.addf }
func.func @grow(%in: memref<256xf32>, %out: memref<256xf32>, %out2: memref<256xf32>) {
  %x = memref.alloc() : memref<256xf32, 1>
  linalg.generic {indexing_maps = [affine_map<(i) -> (i)>, affine_map<(i) -> (i)>, affine_map<(i) -> (i)>],
                  iterator_types = ["parallel"]}
      ins(%in : memref<256xf32>) outs(%x, %out : memref<256xf32, 1>, memref<256xf32>) {
  ^bb0(%a: f32, %b: f32, %c: f32):
    %e = math.exp %a : f32
    linalg.yield %e, %a : f32, f32
  }
  %e = memref.alloc() : memref<256xf32>
  linalg.map { math.sin } ins(%in : memref<256xf32>) outs(%e : memref<256xf32>)
  %y = memref.alloc() : memref<256xf32, 1>
  linalg.map { arith.addf } ins(%out, %in : memref<256xf32>, memref<256xf32>) outs(%y : memref<256xf32, 1>)
  linalg.map { arith.mulf } ins(%e, %y : memref<256xf32>, memref<256xf32, 1>) outs(%out2 : memref<256xf32>)
  %d = memref.alloc() : memref<256xf32>
  linalg.map { math.cos } ins(%x : memref<256xf32, 1>) outs(%d : memref<256xf32>)
  linalg.generic {indexing_maps = [affine_map<(i) -> (i)>, affine_map<(i) -> (i)>],
                  iterator_types = ["parallel"]}
      ins(%d : memref<256xf32>) outs(%out2 : memref<256xf32>) {
  ^bb0(%a: f32, %b: f32):
    %s = arith.addf %a, %b : f32
    linalg.yield %s : f32
  }
  return
}
