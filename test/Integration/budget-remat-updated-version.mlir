// A program of the fuzzer (utils/fuzz_pipeline.py --kinds budget --gen 7300239) planned under a
// capacity of 607 bytes with the default levers: in-place reuse writes %m3 over %m2, and the
// new buffer a rematerialization of that buffer makes is then updated in place (%m3 * -0.75)
// and stored into, with the later uses moved to it. A later split recomputed that new buffer by
// its original's writers (the fill and the + 0.5), which do not make those bytes: the output
// differed under every arena kind. A new buffer whose first writers are more than the ops that
// made it is not recomputed by its original's writers.
//
// RUN: mplan-opt %s --mplan-to-llvm \
// RUN:   | mlir-runner -e main -entry-point-result=void -shared-libs=%mlir_runner_libs \
// RUN:   | %normalize_addr > %t.base
// RUN: mplan-opt %s --mplan-plan-pipeline="capacity=default:607" --mplan-verify-plan > %t.planned.mlir
// RUN: mplan-opt %t.planned.mlir --convert-mplan-to-memref="arena=heap" --mplan-to-llvm \
// RUN:   | mlir-runner -e main -entry-point-result=void -shared-libs=%mlir_runner_libs \
// RUN:   | %normalize_addr > %t.heap
// RUN: diff %t.base %t.heap
// RUN: mplan-opt %t.planned.mlir --convert-mplan-to-memref="arena=shared-global" --mplan-to-llvm \
// RUN:   | mlir-runner -e main -entry-point-result=void -shared-libs=%mlir_runner_libs \
// RUN:   | %normalize_addr > %t.shared
// RUN: diff %t.base %t.shared


func.func @f0(%x0: memref<48xf32>, %x1: memref<32xf32>, %y0: memref<1xf32>, %y1: memref<18xf32>, %y2: memref<16xf32>, %y3: memref<24xf32>, %y4: memref<64xf32>, %y5: memref<1xf32>, %y6: memref<18xf32>, %y7: memref<16xf32>, %y8: memref<48xf32>, %y9: memref<32xf32>) {
  %cf1 = arith.constant 0.000000e+00 : f32
  %m2 = memref.alloc() : memref<64xf32>
  linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} outs(%m2 : memref<64xf32>) {
  ^bb0(%_o: f32):
    %_i = linalg.index 0 : index
    %_a = arith.constant 11 : index
    %_k = arith.constant 11 : index
    %_p = arith.constant 23 : index
    %_ia = arith.muli %_i, %_a : index
    %_ik = arith.addi %_ia, %_k : index
    %_im = arith.remui %_ik, %_p : index
    %_ii = arith.index_cast %_im : index to i32
    %_e = arith.constant 11 : i32
    %_d = arith.subi %_ii, %_e : i32
    %_f = arith.sitofp %_d : i32 to f32
    %_s = arith.constant -3.750000e-01 : f32
    %_r = arith.mulf %_f, %_s : f32
    linalg.yield %_r : f32
  }
  %m3 = memref.alloc() : memref<64xf32>
  linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} ins(%m2 : memref<64xf32>) outs(%m3 : memref<64xf32>) {
  ^bb0(%_b0: f32, %_o: f32):
    %_t1c = arith.constant 5.000000e-01 : f32
    %_t1 = arith.addf %_b0, %_t1c : f32
    linalg.yield %_t1 : f32
  }
  memref.dealloc %m2 : memref<64xf32>
  %m4 = memref.alloc() : memref<1xf32>
  %ci5 = arith.constant 0 : index
  %ci6 = arith.constant 1 : index
  %ci7 = arith.constant 7 : index
  %cn8 = memref.dim %m3, %ci5 : memref<64xf32>
  %cz9 = arith.constant 0.0 : f32
  %cs10 = scf.for %ci11 = %ci5 to %cn8 step %ci6 iter_args(%ca12 = %cz9) -> (f32) {
    %cx13 = memref.load %m3[%ci11] : memref<64xf32>
    %cx14 = arith.remui %ci11, %ci7 : index
    %cx15 = arith.addi %cx14, %ci6 : index
    %cx16 = arith.index_cast %cx15 : index to i32
    %cx17 = arith.sitofp %cx16 : i32 to f32
    %cx18 = arith.mulf %cx13, %cx17 : f32
    %cx19 = arith.addf %ca12, %cx18 : f32
    scf.yield %cx19 : f32
  }
  %ci20 = arith.constant 0 : index
  memref.store %cs10, %m4[%ci20] : memref<1xf32>
  %m21 = memref.alloc() : memref<32xf32>
  %sv22 = memref.subview %x0[5] [32] [1] : memref<48xf32> to memref<32xf32, strided<[1], offset: 5>>
  memref.copy %sv22, %m21 : memref<32xf32, strided<[1], offset: 5>> to memref<32xf32>
  %sv23 = memref.subview %m21[5] [18] [1] : memref<32xf32> to memref<18xf32, strided<[1], offset: 5>>
  %m24 = memref.alloc() : memref<18xf32>
  linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} ins(%sv23 : memref<18xf32, strided<[1], offset: 5>>) outs(%m24 : memref<18xf32>) {
  ^bb0(%_b0: f32, %_o: f32):
    %_t1c = arith.constant -7.500000e-01 : f32
    %_t1 = arith.addf %_b0, %_t1c : f32
    linalg.yield %_t1 : f32
  }
  %m25 = memref.alloc() : memref<16xf32>
  %sv26 = memref.subview %m21[0] [16] [1] : memref<32xf32> to memref<16xf32, strided<[1], offset: 0>>
  linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} ins(%sv26 : memref<16xf32, strided<[1], offset: 0>>) outs(%m25 : memref<16xf32>) {
  ^bb0(%_b0: f32, %_o: f32):
    %_t1c = arith.constant 5.000000e-01 : f32
    %_t1 = arith.addf %_b0, %_t1c : f32
    linalg.yield %_t1 : f32
  }
  %m27 = memref.alloc() : memref<16xf32>
  memref.copy %m25, %m27 : memref<16xf32> to memref<16xf32>
  linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} ins(%m3 : memref<64xf32>) outs(%m3 : memref<64xf32>) {
  ^bb0(%_b0: f32, %_o: f32):
    %_t1c = arith.constant -7.500000e-01 : f32
    %_t1 = arith.mulf %_b0, %_t1c : f32
    linalg.yield %_t1 : f32
  }
  %m28 = memref.alloc() : memref<24xf32>
  %sv29 = memref.subview %x0[14] [24] [1] : memref<48xf32> to memref<24xf32, strided<[1], offset: 14>>
  linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} ins(%sv29 : memref<24xf32, strided<[1], offset: 14>>) outs(%m28 : memref<24xf32>) {
  ^bb0(%_b0: f32, %_o: f32):
    %_t1c = arith.constant 1.500000e+00 : f32
    %_t1 = arith.addf %_b0, %_t1c : f32
    linalg.yield %_t1 : f32
  }
  %m30 = memref.alloc() : memref<24xf32>
  linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} ins(%m28 : memref<24xf32>) outs(%m30 : memref<24xf32>) {
  ^bb0(%_b0: f32, %_o: f32):
    %_t1c = arith.constant 1.500000e+00 : f32
    %_t1 = arith.mulf %_b0, %_t1c : f32
    linalg.yield %_t1 : f32
  }
  %m31 = memref.alloc() : memref<24xf32>
  linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} ins(%m28, %m28 : memref<24xf32>, memref<24xf32>) outs(%m31 : memref<24xf32>) {
  ^bb0(%_b0: f32, %_b1: f32, %_o: f32):
    %_t1 = arith.mulf %_b0, %_b1 : f32
    %_t2c = arith.constant 1.250000e-01 : f32
    %_t2 = arith.addf %_t1, %_t2c : f32
    linalg.yield %_t2 : f32
  }
  %m32 = memref.alloc() : memref<24xf32>
  %sv33 = memref.subview %x0[23] [24] [1] : memref<48xf32> to memref<24xf32, strided<[1], offset: 23>>
  linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} ins(%sv33 : memref<24xf32, strided<[1], offset: 23>>) outs(%m32 : memref<24xf32>) {
  ^bb0(%_b0: f32, %_o: f32):
    %_t1c = arith.constant -7.500000e-01 : f32
    %_t1 = arith.addf %_b0, %_t1c : f32
    linalg.yield %_t1 : f32
  }
  %m34 = memref.alloc() : memref<24xf32>
  linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} ins(%m31, %m32 : memref<24xf32>, memref<24xf32>) outs(%m34 : memref<24xf32>) {
  ^bb0(%_b0: f32, %_b1: f32, %_o: f32):
    %_t1 = arith.mulf %_b0, %_b1 : f32
    %_t2c = arith.constant -7.500000e-01 : f32
    %_t2 = arith.mulf %_t1, %_t2c : f32
    linalg.yield %_t2 : f32
  }
  memref.dealloc %m28 : memref<24xf32>
  memref.dealloc %m30 : memref<24xf32>
  memref.dealloc %m31 : memref<24xf32>
  memref.dealloc %m32 : memref<24xf32>
  %sv35 = memref.subview %x1[22] [9] [1] : memref<32xf32> to memref<9xf32, strided<[1], offset: 22>>
  %cf36 = arith.constant 4.200000e+01 : f32
  %ci37 = arith.constant 17 : index
  memref.store %cf36, %x1[%ci37] : memref<32xf32>
  %cf38 = arith.constant 1.000000e+00 : f32
  %ci39 = arith.constant 52 : index
  memref.store %cf38, %m3[%ci39] : memref<64xf32>
  %m40 = memref.alloc() : memref<64xf32>
  memref.copy %m3, %m40 : memref<64xf32> to memref<64xf32>
  %m41 = memref.alloc() : memref<1xf32>
  %ci42 = arith.constant 0 : index
  %ci43 = arith.constant 1 : index
  %ci44 = arith.constant 7 : index
  %cn45 = memref.dim %m21, %ci42 : memref<32xf32>
  %cz46 = arith.constant 0.0 : f32
  %cs47 = scf.for %ci48 = %ci42 to %cn45 step %ci43 iter_args(%ca49 = %cz46) -> (f32) {
    %cx50 = memref.load %m21[%ci48] : memref<32xf32>
    %cx51 = arith.remui %ci48, %ci44 : index
    %cx52 = arith.addi %cx51, %ci43 : index
    %cx53 = arith.index_cast %cx52 : index to i32
    %cx54 = arith.sitofp %cx53 : i32 to f32
    %cx55 = arith.mulf %cx50, %cx54 : f32
    %cx56 = arith.addf %ca49, %cx55 : f32
    scf.yield %cx56 : f32
  }
  %ci57 = arith.constant 0 : index
  memref.store %cs47, %m41[%ci57] : memref<1xf32>
  %m58 = memref.alloc() : memref<18xf32>
  linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} ins(%sv23 : memref<18xf32, strided<[1], offset: 5>>) outs(%m58 : memref<18xf32>) {
  ^bb0(%_b0: f32, %_o: f32):
    %_t1c = arith.constant 5.000000e-01 : f32
    %_t1 = arith.mulf %_b0, %_t1c : f32
    linalg.yield %_t1 : f32
  }
  %m59 = memref.alloc() : memref<16xf32>
  linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} ins(%m25 : memref<16xf32>) outs(%m59 : memref<16xf32>) {
  ^bb0(%_b0: f32, %_o: f32):
    %_t1c = arith.constant 1.500000e+00 : f32
    %_t1 = arith.mulf %_b0, %_t1c : f32
    linalg.yield %_t1 : f32
  }
  memref.dealloc %m3 : memref<64xf32>
  memref.dealloc %m21 : memref<32xf32>
  memref.dealloc %m25 : memref<16xf32>
  memref.copy %m4, %y0 : memref<1xf32> to memref<1xf32>
  memref.dealloc %m4 : memref<1xf32>
  memref.copy %m24, %y1 : memref<18xf32> to memref<18xf32>
  memref.dealloc %m24 : memref<18xf32>
  memref.copy %m27, %y2 : memref<16xf32> to memref<16xf32>
  memref.dealloc %m27 : memref<16xf32>
  memref.copy %m34, %y3 : memref<24xf32> to memref<24xf32>
  memref.dealloc %m34 : memref<24xf32>
  memref.copy %m40, %y4 : memref<64xf32> to memref<64xf32>
  memref.dealloc %m40 : memref<64xf32>
  memref.copy %m41, %y5 : memref<1xf32> to memref<1xf32>
  memref.dealloc %m41 : memref<1xf32>
  memref.copy %m58, %y6 : memref<18xf32> to memref<18xf32>
  memref.dealloc %m58 : memref<18xf32>
  memref.copy %m59, %y7 : memref<16xf32> to memref<16xf32>
  memref.dealloc %m59 : memref<16xf32>
  memref.copy %x0, %y8 : memref<48xf32> to memref<48xf32>
  memref.copy %x1, %y9 : memref<32xf32> to memref<32xf32>
  return
}

// @fz_init: m[i] = ((i * 7 + seed) mod 29 - 14) / 8 (exact in f32)
func.func @fz_init(%m: memref<?xf32>, %seed: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c7 = arith.constant 7 : index
  %c29 = arith.constant 29 : index
  %n = memref.dim %m, %c0 : memref<?xf32>
  scf.for %i = %c0 to %n step %c1 {
    %a = arith.muli %i, %c7 : index
    %b = arith.addi %a, %seed : index
    %h = arith.remui %b, %c29 : index
    %hi = arith.index_cast %h : index to i32
    %c14 = arith.constant 14 : i32
    %d = arith.subi %hi, %c14 : i32
    %f = arith.sitofp %d : i32 to f32
    %s = arith.constant 0.125 : f32
    %v = arith.mulf %f, %s : f32
    memref.store %v, %m[%i] : memref<?xf32>
  }
  return
}

// @fz_check: prints the sum and a hash of the bits of m (position-weighted)
func.func @fz_check(%m: memref<?xf32>, %id: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c31 = arith.constant 31 : index
  %n = memref.dim %m, %c0 : memref<?xf32>
  %z = arith.constant 0.0 : f32
  %zi = arith.constant 0 : i32
  %r:2 = scf.for %i = %c0 to %n step %c1 iter_args(%s = %z, %h = %zi) -> (f32, i32) {
    %x = memref.load %m[%i] : memref<?xf32>
    %s2 = arith.addf %s, %x : f32
    %w = arith.remui %i, %c31 : index
    %w1 = arith.addi %w, %c1 : index
    %wi = arith.index_cast %w1 : index to i32
    %bits = arith.bitcast %x : f32 to i32
    %bm = arith.muli %bits, %wi : i32
    %h2 = arith.addi %h, %bm : i32
    scf.yield %s2, %h2 : f32, i32
  }
  vector.print str "output "
  vector.print %id : index
  vector.print str "sum "
  vector.print %r#0 : f32
  vector.print str "hash "
  vector.print %r#1 : i32
  return
}

func.func @main() {
  %in0 = memref.alloc() {mplan.unplanned} : memref<48xf32>
  %inc0 = memref.cast %in0 : memref<48xf32> to memref<?xf32>
  %s0 = arith.constant 3 : index
  call @fz_init(%inc0, %s0) : (memref<?xf32>, index) -> ()
  %in1 = memref.alloc() {mplan.unplanned} : memref<32xf32>
  %inc1 = memref.cast %in1 : memref<32xf32> to memref<?xf32>
  %s1 = arith.constant 8 : index
  call @fz_init(%inc1, %s1) : (memref<?xf32>, index) -> ()
  %out0 = memref.alloc() {mplan.unplanned} : memref<1xf32>
  %z0 = arith.constant 0.0 : f32
  linalg.fill ins(%z0 : f32) outs(%out0 : memref<1xf32>)
  %out1 = memref.alloc() {mplan.unplanned} : memref<18xf32>
  %z1 = arith.constant 0.0 : f32
  linalg.fill ins(%z1 : f32) outs(%out1 : memref<18xf32>)
  %out2 = memref.alloc() {mplan.unplanned} : memref<16xf32>
  %z2 = arith.constant 0.0 : f32
  linalg.fill ins(%z2 : f32) outs(%out2 : memref<16xf32>)
  %out3 = memref.alloc() {mplan.unplanned} : memref<24xf32>
  %z3 = arith.constant 0.0 : f32
  linalg.fill ins(%z3 : f32) outs(%out3 : memref<24xf32>)
  %out4 = memref.alloc() {mplan.unplanned} : memref<64xf32>
  %z4 = arith.constant 0.0 : f32
  linalg.fill ins(%z4 : f32) outs(%out4 : memref<64xf32>)
  %out5 = memref.alloc() {mplan.unplanned} : memref<1xf32>
  %z5 = arith.constant 0.0 : f32
  linalg.fill ins(%z5 : f32) outs(%out5 : memref<1xf32>)
  %out6 = memref.alloc() {mplan.unplanned} : memref<18xf32>
  %z6 = arith.constant 0.0 : f32
  linalg.fill ins(%z6 : f32) outs(%out6 : memref<18xf32>)
  %out7 = memref.alloc() {mplan.unplanned} : memref<16xf32>
  %z7 = arith.constant 0.0 : f32
  linalg.fill ins(%z7 : f32) outs(%out7 : memref<16xf32>)
  %out8 = memref.alloc() {mplan.unplanned} : memref<48xf32>
  %z8 = arith.constant 0.0 : f32
  linalg.fill ins(%z8 : f32) outs(%out8 : memref<48xf32>)
  %out9 = memref.alloc() {mplan.unplanned} : memref<32xf32>
  %z9 = arith.constant 0.0 : f32
  linalg.fill ins(%z9 : f32) outs(%out9 : memref<32xf32>)
  call @f0(%in0, %in1, %out0, %out1, %out2, %out3, %out4, %out5, %out6, %out7, %out8, %out9) : (memref<48xf32>, memref<32xf32>, memref<1xf32>, memref<18xf32>, memref<16xf32>, memref<24xf32>, memref<64xf32>, memref<1xf32>, memref<18xf32>, memref<16xf32>, memref<48xf32>, memref<32xf32>) -> ()
  %oc0 = memref.cast %out0 : memref<1xf32> to memref<?xf32>
  %id0 = arith.constant 0 : index
  call @fz_check(%oc0, %id0) : (memref<?xf32>, index) -> ()
  %oc1 = memref.cast %out1 : memref<18xf32> to memref<?xf32>
  %id1 = arith.constant 1 : index
  call @fz_check(%oc1, %id1) : (memref<?xf32>, index) -> ()
  %oc2 = memref.cast %out2 : memref<16xf32> to memref<?xf32>
  %id2 = arith.constant 2 : index
  call @fz_check(%oc2, %id2) : (memref<?xf32>, index) -> ()
  %oc3 = memref.cast %out3 : memref<24xf32> to memref<?xf32>
  %id3 = arith.constant 3 : index
  call @fz_check(%oc3, %id3) : (memref<?xf32>, index) -> ()
  %oc4 = memref.cast %out4 : memref<64xf32> to memref<?xf32>
  %id4 = arith.constant 4 : index
  call @fz_check(%oc4, %id4) : (memref<?xf32>, index) -> ()
  %oc5 = memref.cast %out5 : memref<1xf32> to memref<?xf32>
  %id5 = arith.constant 5 : index
  call @fz_check(%oc5, %id5) : (memref<?xf32>, index) -> ()
  %oc6 = memref.cast %out6 : memref<18xf32> to memref<?xf32>
  %id6 = arith.constant 6 : index
  call @fz_check(%oc6, %id6) : (memref<?xf32>, index) -> ()
  %oc7 = memref.cast %out7 : memref<16xf32> to memref<?xf32>
  %id7 = arith.constant 7 : index
  call @fz_check(%oc7, %id7) : (memref<?xf32>, index) -> ()
  %oc8 = memref.cast %out8 : memref<48xf32> to memref<?xf32>
  %id8 = arith.constant 8 : index
  call @fz_check(%oc8, %id8) : (memref<?xf32>, index) -> ()
  %oc9 = memref.cast %out9 : memref<32xf32> to memref<?xf32>
  %id9 = arith.constant 9 : index
  call @fz_check(%oc9, %id9) : (memref<?xf32>, index) -> ()
  memref.dealloc %in0 : memref<48xf32>
  memref.dealloc %in1 : memref<32xf32>
  memref.dealloc %out0 : memref<1xf32>
  memref.dealloc %out1 : memref<18xf32>
  memref.dealloc %out2 : memref<16xf32>
  memref.dealloc %out3 : memref<24xf32>
  memref.dealloc %out4 : memref<64xf32>
  memref.dealloc %out5 : memref<1xf32>
  memref.dealloc %out6 : memref<18xf32>
  memref.dealloc %out7 : memref<16xf32>
  memref.dealloc %out8 : memref<48xf32>
  memref.dealloc %out9 : memref<32xf32>
  return
}
