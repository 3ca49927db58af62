// The copy of a function that mplan-plan plans with peak-guard=views beside the
// guarded plan (docs/design.md "Defaults") takes a name no symbol of the module
// has: a function already named like it is left as it is, and a symbol table of
// the module (the dependence graph builds one for the global) stays valid while
// the copy lives.
// RUN: mplan-opt %s --mplan-plan-pipeline --mplan-verify-plan | FileCheck %s

// CHECK-LABEL: func.func @model(
// CHECK: mplan.alloc_slab
// CHECK-LABEL: func.func @model.mplan.peak_guard_views(
// CHECK-SAME: %{{.*}}: memref<4xf32>
// CHECK-NEXT: return
// CHECK-NOT: func.func
memref.global "private" constant @w : memref<256xf32> = dense<1.0>
func.func @model(%in: memref<256xf32>, %out: memref<512xf32>) {
  %cst = arith.constant 2.0 : f32
  %w = memref.get_global @w : memref<256xf32>
  %a = memref.alloc() : memref<256xf32>
  linalg.map { arith.addf } ins(%in, %w : memref<256xf32>, memref<256xf32>) outs(%a : memref<256xf32>)
  %t = memref.alloc() : memref<512xf32>
  linalg.fill ins(%cst : f32) outs(%t : memref<512xf32>)
  %ts = memref.subview %t[0] [256] [1] : memref<512xf32> to memref<256xf32, strided<[1]>>
  %b = memref.alloc() : memref<256xf32>
  linalg.map { math.exp } ins(%ts : memref<256xf32, strided<[1]>>) outs(%b : memref<256xf32>)
  %c = memref.alloc() : memref<512xf32>
  %c0 = memref.subview %c[0] [256] [1] : memref<512xf32> to memref<256xf32, strided<[1]>>
  %c1 = memref.subview %c[256] [256] [1] : memref<512xf32> to memref<256xf32, strided<[1], offset: 256>>
  memref.copy %a, %c0 : memref<256xf32> to memref<256xf32, strided<[1]>>
  memref.copy %b, %c1 : memref<256xf32> to memref<256xf32, strided<[1], offset: 256>>
  linalg.map { math.absf } ins(%c : memref<512xf32>) outs(%out : memref<512xf32>)
  return
}
func.func @"model.mplan.peak_guard_views"(%x: memref<4xf32>) {
  return
}
