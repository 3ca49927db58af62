// A residual chain (bench/budget/gen_residual.py 107) planned under a
// capacity with rematerialization and offload (499 bytes, 60 % of its
// bound), run against the unplanned program under heap and global arenas.
// A new buffer of an earlier recomputation of %x0 is written again after its
// own writers, so its bytes are not what %x0's writer computes: it is never
// recomputed by that writer (it was, and the output differed, while new
// buffers of earlier splits were recomputed by their original's writers
// without that check).
//
// RUN: mplan-opt %s --mplan-to-llvm \
// RUN:   | mlir-runner -e main -entry-point-result=void -shared-libs=%mlir_runner_libs > %t.base
// RUN: mplan-opt %s --mplan-plan-pipeline="capacity=default:499 offload=default:1" \
// RUN:     --mplan-verify-plan > %t.planned.mlir
// RUN: mplan-opt %t.planned.mlir --convert-mplan-to-memref="arena=heap" --mplan-to-llvm \
// RUN:   | mlir-runner -e main -entry-point-result=void -shared-libs=%mlir_runner_libs > %t.heap
// RUN: diff %t.base %t.heap
// RUN: mplan-opt %t.planned.mlir --convert-mplan-to-memref="arena=global" --mplan-to-llvm \
// RUN:   | mlir-runner -e main -entry-point-result=void -shared-libs=%mlir_runner_libs > %t.global
// RUN: diff %t.base %t.global

func.func @f(%x: memref<16xf32>, %y: memref<16xf32>) {
  %acc = memref.alloc() : memref<16xf32>
  %z = arith.constant 0.0 : f32
  linalg.fill ins(%z : f32) outs(%acc : memref<16xf32>)
  %x0 = memref.alloc() : memref<16xf32>
  linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} ins(%x : memref<16xf32>) outs(%x0 : memref<16xf32>) {
  ^bb0(%i: f32, %o: f32):
    %ca = arith.constant 2.000 : f32
    %cb = arith.constant 0.000 : f32
    %m = arith.mulf %i, %ca : f32
    %s = arith.addf %m, %cb : f32
    linalg.yield %s : f32
  }
  linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} ins(%x0 : memref<16xf32>) outs(%acc : memref<16xf32>) {
  ^bb0(%i: f32, %o: f32):
    %h = arith.constant 0.5 : f32
    %m = arith.mulf %o, %h : f32
    %s = arith.addf %i, %m : f32
    linalg.yield %s : f32
  }
  %x1 = memref.alloc() : memref<16xf32>
  linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} ins(%x0 : memref<16xf32>) outs(%x1 : memref<16xf32>) {
  ^bb0(%i: f32, %o: f32):
    %ca = arith.constant 2.000 : f32
    %cb = arith.constant 1.000 : f32
    %m = arith.mulf %i, %ca : f32
    %s = arith.addf %m, %cb : f32
    linalg.yield %s : f32
  }
  linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} ins(%x1 : memref<16xf32>) outs(%acc : memref<16xf32>) {
  ^bb0(%i: f32, %o: f32):
    %h = arith.constant 0.5 : f32
    %m = arith.mulf %o, %h : f32
    %s = arith.addf %i, %m : f32
    linalg.yield %s : f32
  }
  %x2 = memref.alloc() : memref<16xf32>
  linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} ins(%x1 : memref<16xf32>) outs(%x2 : memref<16xf32>) {
  ^bb0(%i: f32, %o: f32):
    %ca = arith.constant -1.000 : f32
    %cb = arith.constant 2.000 : f32
    %m = arith.mulf %i, %ca : f32
    %s = arith.addf %m, %cb : f32
    linalg.yield %s : f32
  }
  linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} ins(%x2 : memref<16xf32>) outs(%acc : memref<16xf32>) {
  ^bb0(%i: f32, %o: f32):
    %h = arith.constant 0.5 : f32
    %m = arith.mulf %o, %h : f32
    %s = arith.addf %i, %m : f32
    linalg.yield %s : f32
  }
  %x3 = memref.alloc() : memref<16xf32>
  linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} ins(%x1 : memref<16xf32>) outs(%x3 : memref<16xf32>) {
  ^bb0(%i: f32, %o: f32):
    %ca = arith.constant -1.000 : f32
    %cb = arith.constant 3.000 : f32
    %m = arith.mulf %i, %ca : f32
    %s = arith.addf %m, %cb : f32
    linalg.yield %s : f32
  }
  %v1 = memref.subview %x3[3] [8] [1] : memref<16xf32> to memref<8xf32, strided<[1], offset: 3>>
  linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} ins(%x3 : memref<16xf32>) outs(%acc : memref<16xf32>) {
  ^bb0(%i: f32, %o: f32):
    %h = arith.constant 0.5 : f32
    %m = arith.mulf %o, %h : f32
    %s = arith.addf %i, %m : f32
    linalg.yield %s : f32
  }
  %acc8 = memref.subview %acc[4] [8] [1] : memref<16xf32> to memref<8xf32, strided<[1], offset: 4>>
  %t2 = memref.alloc() : memref<48xf32>
  linalg.fill ins(%z : f32) outs(%t2 : memref<48xf32>)
  %tv3 = memref.subview %t2[0] [16] [1] : memref<48xf32> to memref<16xf32, strided<[1]>>
  linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} ins(%x1 : memref<16xf32>) outs(%tv3 : memref<16xf32, strided<[1]>>) {
  ^bb0(%i: f32, %o: f32):
    %ca = arith.constant 1.000 : f32
    %cb = arith.constant 0.000 : f32
    %m = arith.mulf %i, %ca : f32
    %s = arith.addf %m, %cb : f32
    linalg.yield %s : f32
  }
  linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} ins(%tv3 : memref<16xf32, strided<[1]>>) outs(%acc : memref<16xf32>) {
  ^bb0(%i: f32, %o: f32):
    %h = arith.constant 0.5 : f32
    %m = arith.mulf %o, %h : f32
    %s = arith.addf %i, %m : f32
    linalg.yield %s : f32
  }
  memref.dealloc %t2 : memref<48xf32>
  linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} ins(%x2 : memref<16xf32>) outs(%acc : memref<16xf32>) {
  ^bb0(%i: f32, %o: f32):
    %h = arith.constant 0.5 : f32
    %m = arith.mulf %o, %h : f32
    %s = arith.addf %i, %m : f32
    linalg.yield %s : f32
  }
  %x4 = memref.alloc() : memref<16xf32>
  linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} ins(%x1, %x0 : memref<16xf32>, memref<16xf32>) outs(%x4 : memref<16xf32>) {
  ^bb0(%i: f32, %j: f32, %o: f32):
    %s = arith.subf %i, %j : f32
    linalg.yield %s : f32
  }
  %t4 = memref.alloc() : memref<96xf32>
  linalg.fill ins(%z : f32) outs(%t4 : memref<96xf32>)
  %tv5 = memref.subview %t4[0] [16] [1] : memref<96xf32> to memref<16xf32, strided<[1]>>
  linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} ins(%x1 : memref<16xf32>) outs(%tv5 : memref<16xf32, strided<[1]>>) {
  ^bb0(%i: f32, %o: f32):
    %ca = arith.constant 1.000 : f32
    %cb = arith.constant 1.000 : f32
    %m = arith.mulf %i, %ca : f32
    %s = arith.addf %m, %cb : f32
    linalg.yield %s : f32
  }
  linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} ins(%tv5 : memref<16xf32, strided<[1]>>) outs(%acc : memref<16xf32>) {
  ^bb0(%i: f32, %o: f32):
    %h = arith.constant 0.5 : f32
    %m = arith.mulf %o, %h : f32
    %s = arith.addf %i, %m : f32
    linalg.yield %s : f32
  }
  memref.dealloc %t4 : memref<96xf32>
  linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} ins(%v1 : memref<8xf32, strided<[1], offset: 3>>) outs(%acc8 : memref<8xf32, strided<[1], offset: 4>>) {
  ^bb0(%i: f32, %o: f32):
    %h = arith.constant 0.5 : f32
    %m = arith.mulf %o, %h : f32
    %s = arith.addf %i, %m : f32
    linalg.yield %s : f32
  }
  %x5 = memref.alloc() : memref<16xf32>
  linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} ins(%x3, %x3 : memref<16xf32>, memref<16xf32>) outs(%x5 : memref<16xf32>) {
  ^bb0(%i: f32, %j: f32, %o: f32):
    %s = arith.subf %i, %j : f32
    linalg.yield %s : f32
  }
  %t6 = memref.alloc() : memref<48xf32>
  linalg.fill ins(%z : f32) outs(%t6 : memref<48xf32>)
  %tv7 = memref.subview %t6[0] [16] [1] : memref<48xf32> to memref<16xf32, strided<[1]>>
  linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} ins(%x0 : memref<16xf32>) outs(%tv7 : memref<16xf32, strided<[1]>>) {
  ^bb0(%i: f32, %o: f32):
    %ca = arith.constant 1.000 : f32
    %cb = arith.constant 2.000 : f32
    %m = arith.mulf %i, %ca : f32
    %s = arith.addf %m, %cb : f32
    linalg.yield %s : f32
  }
  linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} ins(%tv7 : memref<16xf32, strided<[1]>>) outs(%acc : memref<16xf32>) {
  ^bb0(%i: f32, %o: f32):
    %h = arith.constant 0.5 : f32
    %m = arith.mulf %o, %h : f32
    %s = arith.addf %i, %m : f32
    linalg.yield %s : f32
  }
  memref.dealloc %t6 : memref<48xf32>
  linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} ins(%x2 : memref<16xf32>) outs(%acc : memref<16xf32>) {
  ^bb0(%i: f32, %o: f32):
    %h = arith.constant 0.5 : f32
    %m = arith.mulf %o, %h : f32
    %s = arith.addf %i, %m : f32
    linalg.yield %s : f32
  }
  linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} ins(%x3 : memref<16xf32>) outs(%acc : memref<16xf32>) {
  ^bb0(%i: f32, %o: f32):
    %h = arith.constant 0.5 : f32
    %m = arith.mulf %o, %h : f32
    %s = arith.addf %i, %m : f32
    linalg.yield %s : f32
  }
  linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} ins(%x2 : memref<16xf32>) outs(%acc : memref<16xf32>) {
  ^bb0(%i: f32, %o: f32):
    %h = arith.constant 0.5 : f32
    %m = arith.mulf %o, %h : f32
    %s = arith.addf %i, %m : f32
    linalg.yield %s : f32
  }
  %t8 = memref.alloc() : memref<32xf32>
  linalg.fill ins(%z : f32) outs(%t8 : memref<32xf32>)
  %tv9 = memref.subview %t8[0] [16] [1] : memref<32xf32> to memref<16xf32, strided<[1]>>
  linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} ins(%x3 : memref<16xf32>) outs(%tv9 : memref<16xf32, strided<[1]>>) {
  ^bb0(%i: f32, %o: f32):
    %ca = arith.constant 1.000 : f32
    %cb = arith.constant 3.000 : f32
    %m = arith.mulf %i, %ca : f32
    %s = arith.addf %m, %cb : f32
    linalg.yield %s : f32
  }
  linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} ins(%tv9 : memref<16xf32, strided<[1]>>) outs(%acc : memref<16xf32>) {
  ^bb0(%i: f32, %o: f32):
    %h = arith.constant 0.5 : f32
    %m = arith.mulf %o, %h : f32
    %s = arith.addf %i, %m : f32
    linalg.yield %s : f32
  }
  memref.dealloc %t8 : memref<32xf32>
  linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} ins(%x5 : memref<16xf32>) outs(%acc : memref<16xf32>) {
  ^bb0(%i: f32, %o: f32):
    %h = arith.constant 0.5 : f32
    %m = arith.mulf %o, %h : f32
    %s = arith.addf %i, %m : f32
    linalg.yield %s : f32
  }
  linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} ins(%x2 : memref<16xf32>) outs(%acc : memref<16xf32>) {
  ^bb0(%i: f32, %o: f32):
    %h = arith.constant 0.5 : f32
    %m = arith.mulf %o, %h : f32
    %s = arith.addf %i, %m : f32
    linalg.yield %s : f32
  }
  linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} ins(%x1 : memref<16xf32>) outs(%acc : memref<16xf32>) {
  ^bb0(%i: f32, %o: f32):
    %h = arith.constant 0.5 : f32
    %m = arith.mulf %o, %h : f32
    %s = arith.addf %i, %m : f32
    linalg.yield %s : f32
  }
  %x6 = memref.alloc() : memref<16xf32>
  linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} ins(%x4, %x0 : memref<16xf32>, memref<16xf32>) outs(%x6 : memref<16xf32>) {
  ^bb0(%i: f32, %j: f32, %o: f32):
    %s = arith.subf %i, %j : f32
    linalg.yield %s : f32
  }
  %t10 = memref.alloc() : memref<96xf32>
  linalg.fill ins(%z : f32) outs(%t10 : memref<96xf32>)
  %tv11 = memref.subview %t10[0] [16] [1] : memref<96xf32> to memref<16xf32, strided<[1]>>
  linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} ins(%x1 : memref<16xf32>) outs(%tv11 : memref<16xf32, strided<[1]>>) {
  ^bb0(%i: f32, %o: f32):
    %ca = arith.constant 1.000 : f32
    %cb = arith.constant 4.000 : f32
    %m = arith.mulf %i, %ca : f32
    %s = arith.addf %m, %cb : f32
    linalg.yield %s : f32
  }
  linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} ins(%tv11 : memref<16xf32, strided<[1]>>) outs(%acc : memref<16xf32>) {
  ^bb0(%i: f32, %o: f32):
    %h = arith.constant 0.5 : f32
    %m = arith.mulf %o, %h : f32
    %s = arith.addf %i, %m : f32
    linalg.yield %s : f32
  }
  memref.dealloc %t10 : memref<96xf32>
  linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} ins(%x6 : memref<16xf32>) outs(%acc : memref<16xf32>) {
  ^bb0(%i: f32, %o: f32):
    %h = arith.constant 0.5 : f32
    %m = arith.mulf %o, %h : f32
    %s = arith.addf %i, %m : f32
    linalg.yield %s : f32
  }
  linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} ins(%x5 : memref<16xf32>) outs(%acc : memref<16xf32>) {
  ^bb0(%i: f32, %o: f32):
    %h = arith.constant 0.5 : f32
    %m = arith.mulf %o, %h : f32
    %s = arith.addf %i, %m : f32
    linalg.yield %s : f32
  }
  linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} ins(%x1 : memref<16xf32>) outs(%acc : memref<16xf32>) {
  ^bb0(%i: f32, %o: f32):
    %h = arith.constant 0.5 : f32
    %m = arith.mulf %o, %h : f32
    %s = arith.addf %i, %m : f32
    linalg.yield %s : f32
  }
  %t12 = memref.alloc() : memref<96xf32>
  linalg.fill ins(%z : f32) outs(%t12 : memref<96xf32>)
  %tv13 = memref.subview %t12[0] [16] [1] : memref<96xf32> to memref<16xf32, strided<[1]>>
  linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} ins(%x3 : memref<16xf32>) outs(%tv13 : memref<16xf32, strided<[1]>>) {
  ^bb0(%i: f32, %o: f32):
    %ca = arith.constant 1.000 : f32
    %cb = arith.constant 5.000 : f32
    %m = arith.mulf %i, %ca : f32
    %s = arith.addf %m, %cb : f32
    linalg.yield %s : f32
  }
  linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} ins(%tv13 : memref<16xf32, strided<[1]>>) outs(%acc : memref<16xf32>) {
  ^bb0(%i: f32, %o: f32):
    %h = arith.constant 0.5 : f32
    %m = arith.mulf %o, %h : f32
    %s = arith.addf %i, %m : f32
    linalg.yield %s : f32
  }
  memref.dealloc %t12 : memref<96xf32>
  linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} ins(%x4 : memref<16xf32>) outs(%acc : memref<16xf32>) {
  ^bb0(%i: f32, %o: f32):
    %h = arith.constant 0.5 : f32
    %m = arith.mulf %o, %h : f32
    %s = arith.addf %i, %m : f32
    linalg.yield %s : f32
  }
  linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} ins(%v1 : memref<8xf32, strided<[1], offset: 3>>) outs(%acc8 : memref<8xf32, strided<[1], offset: 4>>) {
  ^bb0(%i: f32, %o: f32):
    %h = arith.constant 0.5 : f32
    %m = arith.mulf %o, %h : f32
    %s = arith.addf %i, %m : f32
    linalg.yield %s : f32
  }
  linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} ins(%x3 : memref<16xf32>) outs(%acc : memref<16xf32>) {
  ^bb0(%i: f32, %o: f32):
    %h = arith.constant 0.5 : f32
    %m = arith.mulf %o, %h : f32
    %s = arith.addf %i, %m : f32
    linalg.yield %s : f32
  }
  %t14 = memref.alloc() : memref<32xf32>
  linalg.fill ins(%z : f32) outs(%t14 : memref<32xf32>)
  %tv15 = memref.subview %t14[0] [16] [1] : memref<32xf32> to memref<16xf32, strided<[1]>>
  linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} ins(%x3 : memref<16xf32>) outs(%tv15 : memref<16xf32, strided<[1]>>) {
  ^bb0(%i: f32, %o: f32):
    %ca = arith.constant 1.000 : f32
    %cb = arith.constant 6.000 : f32
    %m = arith.mulf %i, %ca : f32
    %s = arith.addf %m, %cb : f32
    linalg.yield %s : f32
  }
  linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} ins(%tv15 : memref<16xf32, strided<[1]>>) outs(%acc : memref<16xf32>) {
  ^bb0(%i: f32, %o: f32):
    %h = arith.constant 0.5 : f32
    %m = arith.mulf %o, %h : f32
    %s = arith.addf %i, %m : f32
    linalg.yield %s : f32
  }
  memref.dealloc %t14 : memref<32xf32>
  linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} ins(%x6 : memref<16xf32>) outs(%acc : memref<16xf32>) {
  ^bb0(%i: f32, %o: f32):
    %h = arith.constant 0.5 : f32
    %m = arith.mulf %o, %h : f32
    %s = arith.addf %i, %m : f32
    linalg.yield %s : f32
  }
  linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} ins(%x5 : memref<16xf32>) outs(%acc : memref<16xf32>) {
  ^bb0(%i: f32, %o: f32):
    %h = arith.constant 0.5 : f32
    %m = arith.mulf %o, %h : f32
    %s = arith.addf %i, %m : f32
    linalg.yield %s : f32
  }
  %x7 = memref.alloc() : memref<16xf32>
  linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} ins(%x4, %x2 : memref<16xf32>, memref<16xf32>) outs(%x7 : memref<16xf32>) {
  ^bb0(%i: f32, %j: f32, %o: f32):
    %s = arith.subf %i, %j : f32
    linalg.yield %s : f32
  }
  linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} ins(%x1 : memref<16xf32>) outs(%acc : memref<16xf32>) {
  ^bb0(%i: f32, %o: f32):
    %h = arith.constant 0.5 : f32
    %m = arith.mulf %o, %h : f32
    %s = arith.addf %i, %m : f32
    linalg.yield %s : f32
  }
  linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} ins(%x2 : memref<16xf32>) outs(%acc : memref<16xf32>) {
  ^bb0(%i: f32, %o: f32):
    %h = arith.constant 0.5 : f32
    %m = arith.mulf %o, %h : f32
    %s = arith.addf %i, %m : f32
    linalg.yield %s : f32
  }
  linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} ins(%x6 : memref<16xf32>) outs(%acc : memref<16xf32>) {
  ^bb0(%i: f32, %o: f32):
    %h = arith.constant 0.5 : f32
    %m = arith.mulf %o, %h : f32
    %s = arith.addf %i, %m : f32
    linalg.yield %s : f32
  }
  linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} ins(%x7 : memref<16xf32>) outs(%acc : memref<16xf32>) {
  ^bb0(%i: f32, %o: f32):
    %h = arith.constant 0.5 : f32
    %m = arith.mulf %o, %h : f32
    %s = arith.addf %i, %m : f32
    linalg.yield %s : f32
  }
  memref.copy %acc, %y : memref<16xf32> to memref<16xf32>
  memref.dealloc %x0 : memref<16xf32>
  memref.dealloc %x1 : memref<16xf32>
  memref.dealloc %x2 : memref<16xf32>
  memref.dealloc %x3 : memref<16xf32>
  memref.dealloc %x4 : memref<16xf32>
  memref.dealloc %x5 : memref<16xf32>
  memref.dealloc %x6 : memref<16xf32>
  memref.dealloc %x7 : memref<16xf32>
  memref.dealloc %acc : memref<16xf32>
  return
}
func.func @main() {
  %x = memref.alloc() {mplan.unplanned} : memref<16xf32>
  %y = memref.alloc() {mplan.unplanned} : memref<16xf32>
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c16 = arith.constant 16 : index
  scf.for %i = %c0 to %c16 step %c1 {
    %ii = arith.index_cast %i : index to i32
    %f = arith.sitofp %ii : i32 to f32
    %q = arith.constant 0.25 : f32
    %v = arith.mulf %f, %q : f32
    memref.store %v, %x[%i] : memref<16xf32>
  }
  call @f(%x, %y) : (memref<16xf32>, memref<16xf32>) -> ()
  scf.for %i = %c0 to %c16 step %c1 {
    %v = memref.load %y[%i] : memref<16xf32>
    vector.print %v : f32
  }
  memref.dealloc %x : memref<16xf32>
  memref.dealloc %y : memref<16xf32>
  return
}
