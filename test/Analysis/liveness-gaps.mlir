// The liveness mplan-plan keeps through capture, view folding, copy elision and in-place reuse
// is renumbered without a walk (BufferLiveness::renumber closes up the erased ops' indices):
// every range must still be what a fresh analysis gives, also where an erased use was not at an
// end of a range but the region has several blocks (a later block counts from its first op), and
// where a range waiting for recomputation is merged into another buffer's. A wider range here
// costs arena bytes: the plans below share one 64-byte slot.
// RUN: mplan-opt %s --split-input-file --test-mplan-rewrites-keep-liveness="capture=true fold=true" -o /dev/null
// RUN: mplan-opt %s --split-input-file --mplan-plan-pipeline | FileCheck %s

// A dead view of %a in ^bb1, which runs last: folding erases it, and %a then lives in the entry
// block only, where %b can take its bytes.
// CHECK-LABEL: func.func @dead_view_in_later_block
// CHECK:         mplan.alloc_slab : <64, 64>
// CHECK:         mplan.alloc_tensor id(0) live [2, 7) at %{{.*}}[0]
// CHECK:         mplan.alloc_tensor id(1) live [7, 15) at %{{.*}}[0]
#id = affine_map<(d0) -> (d0)>
func.func @dead_view_in_later_block(%in: memref<4xf32>, %out: memref<4xf32>) {
  %a = memref.alloc() : memref<4xf32>
  %b = memref.alloc() : memref<4xf32>
  linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel"]} ins(%in : memref<4xf32>) outs(%a : memref<4xf32>) {
  ^bb0(%x: f32, %y: f32):
    %e = arith.addf %x, %x : f32
    linalg.yield %e : f32
  }
  linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel"]} ins(%a : memref<4xf32>) outs(%out : memref<4xf32>) {
  ^bb0(%x: f32, %y: f32):
    linalg.yield %x : f32
  }
  cf.br ^bb2
^bb1:
  %k = arith.constant 0 : index
  %dead = memref.subview %a[0][2][1] : memref<4xf32> to memref<2xf32, strided<[1]>>
  return
^bb2:
  linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel"]} ins(%in : memref<4xf32>) outs(%b : memref<4xf32>) {
  ^bb0(%x: f32, %y: f32):
    %e = arith.mulf %x, %x : f32
    linalg.yield %e : f32
  }
  linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel"]} ins(%b : memref<4xf32>) outs(%out : memref<4xf32>) {
  ^bb0(%x: f32, %y: f32):
    linalg.yield %x : f32
  }
  cf.br ^bb1
}

// -----

// A copy of %a onto itself in ^bb1 goes; the range is recomputed from the fill left in ^bb2.
// CHECK-LABEL: func.func @self_copy_in_later_block
func.func @self_copy_in_later_block(%arg0: memref<4xf32>) {
  %cst = arith.constant 1.0 : f32
  %a = memref.alloc() : memref<4xf32>
  cf.br ^bb2
^bb1:
  %c = arith.constant 0 : index
  memref.copy %a, %a : memref<4xf32> to memref<4xf32>
  return
^bb2:
  linalg.fill ins(%cst : f32) outs(%a : memref<4xf32>)
  %x = arith.constant 3 : index
  cf.br ^bb1
}

// -----

// The erased self-copy was %a's only use.
// CHECK-LABEL: func.func @only_use_erased
func.func @only_use_erased(%arg0: memref<4xf32>) {
  %cst = arith.constant 1.0 : f32
  %a = memref.alloc() : memref<4xf32>
  %b = memref.alloc() : memref<4xf32>
  linalg.fill ins(%cst : f32) outs(%b : memref<4xf32>)
  cf.br ^bb2
^bb1:
  %c = arith.constant 0 : index
  %v = memref.subview %a[0][2][1] : memref<4xf32> to memref<2xf32, strided<[1]>>
  return
^bb2:
  %x = arith.constant 3 : index
  cf.br ^bb1
}

// -----

// %dead was %s's first use; folding erases it, and copy elision then writes %s in place into
// %t: %t's range is the union's as a fresh analysis gives it, and %z's bytes are free for it.
// CHECK-LABEL: func.func @dead_first_use_then_merge
// CHECK:         mplan.alloc_slab : <64, 64>
#id = affine_map<(d0) -> (d0)>
func.func @dead_first_use_then_merge(%in: memref<4xf32>, %out: memref<4xf32>) {
  %cst = arith.constant 1.0 : f32
  %t = memref.alloc() : memref<4xf32>
  %s = memref.alloc() : memref<4xf32>
  %z = memref.alloc() : memref<4xf32>
  %dead = memref.subview %s[0][2][1] : memref<4xf32> to memref<2xf32, strided<[1]>>
  linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel"]} ins(%in : memref<4xf32>) outs(%z : memref<4xf32>) {
  ^bb0(%x: f32, %y: f32):
    %e = arith.mulf %x, %x : f32
    linalg.yield %e : f32
  }
  linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel"]} ins(%z : memref<4xf32>) outs(%out : memref<4xf32>) {
  ^bb0(%x: f32, %y: f32):
    linalg.yield %x : f32
  }
  linalg.fill ins(%cst : f32) outs(%t : memref<4xf32>)
  linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel"]} ins(%in : memref<4xf32>) outs(%s : memref<4xf32>) {
  ^bb0(%x: f32, %y: f32):
    %e = arith.addf %x, %x : f32
    linalg.yield %e : f32
  }
  memref.copy %s, %t : memref<4xf32> to memref<4xf32>
  linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel"]} ins(%t : memref<4xf32>) outs(%out : memref<4xf32>) {
  ^bb0(%x: f32, %y: f32):
    linalg.yield %x : f32
  }
  return
}

// -----

// A dead view inside an scf.if, a self-copy and a copy that becomes a view, on one buffer.
// CHECK-LABEL: func.func @dead_view_in_if_then_copies
#id = affine_map<(d0) -> (d0)>
func.func @dead_view_in_if_then_copies(%arg0: memref<8xf32>, %out: memref<8xf32>, %c: i1) {
  %cst = arith.constant 1.0 : f32
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %a0 = memref.alloc() : memref<8xf32>
  %a1 = memref.alloc() : memref<8xf32>
  %k1 = arith.constant 7 : index
  scf.if %c {
    %d2 = memref.subview %a1[0][4][1] : memref<8xf32> to memref<4xf32, strided<[1], offset: 0>>
  }
  %v3 = memref.subview %a1[4][4][1] : memref<8xf32> to memref<4xf32, strided<[1], offset: 4>>
  %s4 = memref.subview %a1[0][4][1] : memref<8xf32> to memref<4xf32, strided<[1], offset: 0>>
  %x5 = memref.load %a0[%c0] : memref<8xf32>
  memref.copy %v3, %v3 : memref<4xf32, strided<[1], offset: 4>> to memref<4xf32, strided<[1], offset: 4>>
  %v6 = memref.subview %a1[4][4][1] : memref<8xf32> to memref<4xf32, strided<[1], offset: 4>>
  memref.copy %a0, %a1 : memref<8xf32> to memref<8xf32>
  linalg.fill ins(%cst : f32) outs(%a0 : memref<8xf32>)
  return
}


// -----

// Erasing the dead view of %base makes the metadata op a deallocation use, which no range
// counts: %a's range then starts at the fill.
// CHECK-LABEL: func.func @meta
func.func private @ext(memref<8xf32>)
func.func @meta(%out: memref<8xf32>) {
  %cst = arith.constant 1.0 : f32
  %a = memref.alloc() : memref<8xf32>
  %base, %off, %sz, %st = memref.extract_strided_metadata %a : memref<8xf32> -> memref<f32>, index, index, index
  linalg.fill ins(%cst : f32) outs(%out : memref<8xf32>)
  %v = memref.reinterpret_cast %base to offset: [0], sizes: [1], strides: [1] : memref<f32> to memref<1xf32>
  linalg.fill ins(%cst : f32) outs(%a : memref<8xf32>)
  func.call @ext(%a) : (memref<8xf32>) -> ()
  memref.dealloc %base : memref<f32>
  return
}
