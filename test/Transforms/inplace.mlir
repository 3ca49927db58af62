// RUN: mplan-opt %s --split-input-file --mplan-capture-buffers --mplan-inplace | FileCheck %s
// RUN: mplan-opt %s --split-input-file --mplan-plan-pipeline="inplace=true" --mplan-verify-plan > /dev/null

// A chain of elementwise ops on one activation: every output is written over
// the input that dies there, so the chain needs one buffer. The first op's
// input is a function argument: its output gets a buffer of its own.
// CHECK-LABEL: func.func @chain
// CHECK-SAME:    mplan.inplace = [{at = {{.*}}, buffer = 0 : i64, reused_by = 1 : i64}, {at = {{.*}}, buffer = 0 : i64, reused_by = 2 : i64}]
// CHECK:         %[[A:.*]] = mplan.alloc_tensor id(0)
// CHECK-NOT:     mplan.alloc_tensor
// CHECK:         linalg.map { math.absf } ins(%{{.*}} : memref<64xf32>) outs(%[[A]] : memref<64xf32>)
// CHECK:         linalg.map { arith.negf } ins(%[[A]] : memref<64xf32>) outs(%[[A]] : memref<64xf32>)
// CHECK:         linalg.generic {{.*}} ins(%[[A]], %{{.*}} : memref<64xf32>, memref<64xf32>) outs(%[[A]] : memref<64xf32>)
// CHECK:         linalg.map { math.sqrt } ins(%[[A]] : memref<64xf32>) outs(%{{.*}} : memref<64xf32>)
func.func @chain(%in: memref<64xf32>, %bias: memref<64xf32>, %out: memref<64xf32>) {
  %a = memref.alloc() : memref<64xf32>
  linalg.map { math.absf } ins(%in : memref<64xf32>) outs(%a : memref<64xf32>)
  %b = memref.alloc() : memref<64xf32>
  linalg.map { arith.negf } ins(%a : memref<64xf32>) outs(%b : memref<64xf32>)
  %c = memref.alloc() : memref<64xf32>
  linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>],
                  iterator_types = ["parallel"]}
      ins(%b, %bias : memref<64xf32>, memref<64xf32>) outs(%c : memref<64xf32>) {
  ^bb0(%x: f32, %y: f32, %o: f32):
    %s = arith.addf %x, %y : f32
    linalg.yield %s : f32
  }
  linalg.map { math.sqrt } ins(%c : memref<64xf32>) outs(%out : memref<64xf32>)
  return
}

// -----

// The input is read again later (through a view): no reuse.
// CHECK-LABEL: func.func @read_later
// CHECK-NOT:     mplan.inplace
// CHECK:         mplan.alloc_tensor id(0)
// CHECK:         mplan.alloc_tensor id(1)
func.func @read_later(%in: memref<64xf32>, %out: memref<64xf32>, %out2: memref<8xf32>) {
  %a = memref.alloc() : memref<64xf32>
  linalg.map { math.absf } ins(%in : memref<64xf32>) outs(%a : memref<64xf32>)
  %b = memref.alloc() : memref<64xf32>
  linalg.map { arith.negf } ins(%a : memref<64xf32>) outs(%b : memref<64xf32>)
  %v = memref.subview %a[0] [8] [1] : memref<64xf32> to memref<8xf32, strided<[1]>>
  memref.copy %v, %out2 : memref<8xf32, strided<[1]>> to memref<8xf32>
  memref.copy %b, %out : memref<64xf32> to memref<64xf32>
  return
}

// -----

// The input escapes (stored to memory): never reused.
// CHECK-LABEL: func.func @escaping_input
// CHECK-NOT:     mplan.inplace
// CHECK:         memref.alloc()
// CHECK:         mplan.alloc_tensor id(0)
func.func @escaping_input(%in: memref<64xf32>, %out: memref<64xf32>, %box: memref<1xmemref<64xf32>>) {
  %c0 = arith.constant 0 : index
  %a = memref.alloc() : memref<64xf32>
  memref.store %a, %box[%c0] : memref<1xmemref<64xf32>>
  linalg.map { math.absf } ins(%in : memref<64xf32>) outs(%a : memref<64xf32>)
  %b = memref.alloc() : memref<64xf32>
  linalg.map { arith.negf } ins(%a : memref<64xf32>) outs(%b : memref<64xf32>)
  memref.copy %b, %out : memref<64xf32> to memref<64xf32>
  return
}

// -----

// The output is used before the op (its first use is not the op): no reuse.
// CHECK-LABEL: func.func @output_used_before
// CHECK-NOT:     mplan.inplace
// CHECK:         mplan.alloc_tensor id(0)
// CHECK:         mplan.alloc_tensor id(1)
func.func @output_used_before(%in: memref<64xf32>, %out: memref<64xf32>, %out2: memref<64xf32>) {
  %a = memref.alloc() : memref<64xf32>
  %b = memref.alloc() : memref<64xf32>
  linalg.map { math.exp } ins(%in : memref<64xf32>) outs(%b : memref<64xf32>)
  memref.copy %b, %out2 : memref<64xf32> to memref<64xf32>
  linalg.map { math.absf } ins(%in : memref<64xf32>) outs(%a : memref<64xf32>)
  linalg.map { arith.negf } ins(%a : memref<64xf32>) outs(%b : memref<64xf32>)
  memref.copy %b, %out : memref<64xf32> to memref<64xf32>
  return
}

// -----

// The payload reads the output's initial value (an accumulation): no reuse.
// CHECK-LABEL: func.func @reads_output
// CHECK-NOT:     mplan.inplace
// CHECK:         mplan.alloc_tensor id(0)
// CHECK:         mplan.alloc_tensor id(1)
func.func @reads_output(%in: memref<64xf32>, %out: memref<64xf32>) {
  %a = memref.alloc() : memref<64xf32>
  linalg.map { math.absf } ins(%in : memref<64xf32>) outs(%a : memref<64xf32>)
  %b = memref.alloc() : memref<64xf32>
  linalg.map { math.exp } ins(%in : memref<64xf32>) outs(%b : memref<64xf32>)
  linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>],
                  iterator_types = ["parallel"]}
      ins(%a : memref<64xf32>) outs(%b : memref<64xf32>) {
  ^bb0(%x: f32, %o: f32):
    %s = arith.addf %x, %o : f32
    linalg.yield %s : f32
  }
  memref.copy %b, %out : memref<64xf32> to memref<64xf32>
  return
}

// -----

// A transposed input (not the identity map) and a reduction: no reuse; the
// elementwise op between them reuses its input.
// CHECK-LABEL: func.func @not_elementwise
// CHECK-SAME:    mplan.inplace = [{at = {{.*}}, buffer = 1 : i64, reused_by = 2 : i64}]
// CHECK:         mplan.alloc_tensor id(0)
// CHECK:         mplan.alloc_tensor id(1)
// CHECK:         linalg.transpose
// CHECK:         mplan.alloc_tensor id(3)
func.func @not_elementwise(%in: memref<8x8xf32>, %out: memref<8x8xf32>, %out2: memref<8xf32>) {
  %a = memref.alloc() : memref<8x8xf32>
  linalg.map { math.absf } ins(%in : memref<8x8xf32>) outs(%a : memref<8x8xf32>)
  %b = memref.alloc() : memref<8x8xf32>
  linalg.transpose ins(%a : memref<8x8xf32>) outs(%b : memref<8x8xf32>) permutation = [1, 0]
  %c = memref.alloc() : memref<8x8xf32>
  linalg.map { math.absf } ins(%b : memref<8x8xf32>) outs(%c : memref<8x8xf32>)
  %d = memref.alloc() : memref<8xf32>
  linalg.reduce { arith.addf } ins(%c : memref<8x8xf32>) outs(%d : memref<8xf32>) dimensions = [1]
  memref.copy %d, %out2 : memref<8xf32> to memref<8xf32>
  return
}

// -----

// The input also feeds the op through a transposed view: no reuse.
// CHECK-LABEL: func.func @input_twice
// CHECK-NOT:     mplan.inplace
// CHECK-COUNT-2: mplan.alloc_tensor
func.func @input_twice(%in: memref<8x8xf32>, %out: memref<8x8xf32>) {
  %a = memref.alloc() : memref<8x8xf32>
  linalg.map { math.absf } ins(%in : memref<8x8xf32>) outs(%a : memref<8x8xf32>)
  %b = memref.alloc() : memref<8x8xf32>
  %t = memref.transpose %a (i, j) -> (j, i) : memref<8x8xf32> to memref<8x8xf32, strided<[1, 8]>>
  linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>],
                  iterator_types = ["parallel", "parallel"]}
      ins(%a, %t : memref<8x8xf32>, memref<8x8xf32, strided<[1, 8]>>) outs(%b : memref<8x8xf32>) {
  ^bb0(%x: f32, %y: f32, %o: f32):
    %s = arith.addf %x, %y : f32
    linalg.yield %s : f32
  }
  memref.copy %b, %out : memref<8x8xf32> to memref<8x8xf32>
  return
}

// -----

// Different element types or shapes: no reuse.
// CHECK-LABEL: func.func @types_differ
// CHECK-NOT:     mplan.inplace
// CHECK-COUNT-2: mplan.alloc_tensor
func.func @types_differ(%in: memref<64xf32>, %out: memref<64xi32>) {
  %a = memref.alloc() : memref<64xf32>
  linalg.map { math.absf } ins(%in : memref<64xf32>) outs(%a : memref<64xf32>)
  %b = memref.alloc() : memref<64xi32>
  linalg.map { arith.bitcast } ins(%a : memref<64xf32>) outs(%b : memref<64xi32>)
  memref.copy %b, %out : memref<64xi32> to memref<64xi32>
  return
}

// -----

// Inside a loop whose body runs the op many times, the input allocated
// outside the loop is read again in the next iteration: no reuse. Inside a
// parallel loop nothing is reused either.
// CHECK-LABEL: func.func @in_loops
// CHECK-NOT:     mplan.inplace
// CHECK-COUNT-2: mplan.alloc_tensor
func.func @in_loops(%in: memref<64xf32>, %out: memref<64xf32>, %n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %a = memref.alloc() : memref<64xf32>
  linalg.map { math.absf } ins(%in : memref<64xf32>) outs(%a : memref<64xf32>)
  %b = memref.alloc() : memref<64xf32>
  scf.for %i = %c0 to %n step %c1 {
    linalg.map { arith.negf } ins(%a : memref<64xf32>) outs(%b : memref<64xf32>)
  }
  scf.parallel (%i) = (%c0) to (%n) step (%c1) {
    linalg.map { math.absf } ins(%b : memref<64xf32>) outs(%out : memref<64xf32>)
    scf.reduce
  }
  return
}
