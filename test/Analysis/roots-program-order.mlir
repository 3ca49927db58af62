// Capture hoists the allocations every branch of an scf.if yields into one
// before the scf.if: a root announced after the liveness numbered the ops.
// Every step that lists the roots without walking the function
// (BufferLiveness::getRootsInProgramOrder) must still list it before the
// allocation after the scf.if: capture numbers the buffers in that order, and
// after capture, copy elision and in-place reuse on the same analysis it
// agrees with a fresh analysis's walk.
// RUN: mplan-opt %s --test-mplan-rewrites-keep-liveness=capture=true -o /dev/null
// RUN: mplan-opt %s --mplan-capture-buffers | FileCheck %s

// CHECK-LABEL: func.func @hoisted_before_later
// CHECK: mplan.alloc_tensor id(0)
// CHECK: mplan.alloc_tensor id(1)
// CHECK-NEXT: scf.if
// CHECK: mplan.alloc_tensor id(2)
func.func @hoisted_before_later(%c: i1, %in: memref<16xf32>, %out: memref<16xf32>) {
  %a = memref.alloc() : memref<16xf32>
  linalg.map { math.absf } ins(%in : memref<16xf32>) outs(%a : memref<16xf32>)
  %r = scf.if %c -> memref<16xf32> {
    %x = memref.alloc() : memref<16xf32>
    linalg.map { math.exp } ins(%a : memref<16xf32>) outs(%x : memref<16xf32>)
    scf.yield %x : memref<16xf32>
  } else {
    %y = memref.alloc() : memref<16xf32>
    linalg.map { math.sin } ins(%a : memref<16xf32>) outs(%y : memref<16xf32>)
    scf.yield %y : memref<16xf32>
  }
  %b = memref.alloc() : memref<16xf32>
  linalg.map { arith.addf } ins(%r, %a : memref<16xf32>, memref<16xf32>) outs(%b : memref<16xf32>)
  linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]}
      ins(%r, %a, %b : memref<16xf32>, memref<16xf32>, memref<16xf32>) outs(%out : memref<16xf32>) {
  ^bb0(%p: f32, %q: f32, %s: f32, %o: f32):
    %t = arith.addf %p, %q : f32
    %u = arith.mulf %t, %s : f32
    linalg.yield %u : f32
  }
  return
}
