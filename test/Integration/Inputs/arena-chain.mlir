// A small network used by the arena-*.mlir and observer-*.mlir tests: after
// One-Shot Bufferize @compute has five intermediate buffers and a returned one
// (which --buffer-results-to-out-params turns into a caller-provided
// argument). @main calls it twice and prints a sum and the result of the
// second call.

#id = affine_map<(d0, d1) -> (d0, d1)>
#row = affine_map<(d0, d1) -> (d1)>

func.func @compute(%x: tensor<8x16xf32>, %w1: tensor<16x32xf32>, %w2: tensor<32x16xf32>,
                   %b: tensor<16xf32>) -> tensor<8x16xf32> {
  %zero = arith.constant 0.0 : f32
  %e0 = tensor.empty() : tensor<8x32xf32>
  %f0 = linalg.fill ins(%zero : f32) outs(%e0 : tensor<8x32xf32>) -> tensor<8x32xf32>
  %h = linalg.matmul ins(%x, %w1 : tensor<8x16xf32>, tensor<16x32xf32>) outs(%f0 : tensor<8x32xf32>) -> tensor<8x32xf32>
  %e1 = tensor.empty() : tensor<8x32xf32>
  %r = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%h : tensor<8x32xf32>) outs(%e1 : tensor<8x32xf32>) {
  ^bb0(%a: f32, %o: f32):
    %m = arith.maximumf %a, %zero : f32
    linalg.yield %m : f32
  } -> tensor<8x32xf32>
  %e2 = tensor.empty() : tensor<8x16xf32>
  %f2 = linalg.fill ins(%zero : f32) outs(%e2 : tensor<8x16xf32>) -> tensor<8x16xf32>
  %y = linalg.matmul ins(%r, %w2 : tensor<8x32xf32>, tensor<32x16xf32>) outs(%f2 : tensor<8x16xf32>) -> tensor<8x16xf32>
  %e3 = tensor.empty() : tensor<8x16xf32>
  %yb = linalg.generic {indexing_maps = [#id, #row, #id], iterator_types = ["parallel", "parallel"]}
      ins(%y, %b : tensor<8x16xf32>, tensor<16xf32>) outs(%e3 : tensor<8x16xf32>) {
  ^bb0(%a: f32, %c: f32, %o: f32):
    %s = arith.addf %a, %c : f32
    linalg.yield %s : f32
  } -> tensor<8x16xf32>
  %e4 = tensor.empty() : tensor<8x16xf32>
  %t = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%yb : tensor<8x16xf32>) outs(%e4 : tensor<8x16xf32>) {
  ^bb0(%a: f32, %o: f32):
    %th = math.tanh %a : f32
    linalg.yield %th : f32
  } -> tensor<8x16xf32>
  %res = linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%t, %x : tensor<8x16xf32>, tensor<8x16xf32>) outs(%e4 : tensor<8x16xf32>) {
  ^bb0(%a: f32, %c: f32, %o: f32):
    %s = arith.addf %a, %c : f32
    linalg.yield %s : f32
  } -> tensor<8x16xf32>
  return %res : tensor<8x16xf32>
}

func.func @fill2d(%seed: f32, %scale: f32, %n: index, %m: index) -> tensor<?x?xf32> {
  %t = tensor.empty(%n, %m) : tensor<?x?xf32>
  %r = linalg.generic {indexing_maps = [#id], iterator_types = ["parallel", "parallel"]}
      outs(%t : tensor<?x?xf32>) {
  ^bb0(%o: f32):
    %i = linalg.index 0 : index
    %j = linalg.index 1 : index
    %c7 = arith.constant 7 : index
    %i7 = arith.muli %i, %c7 : index
    %k = arith.addi %i7, %j : index
    %ki = arith.index_cast %k : index to i64
    %kf = arith.sitofp %ki : i64 to f32
    %a = arith.addf %kf, %seed : f32
    %s = math.sin %a : f32
    %v = arith.mulf %s, %scale : f32
    linalg.yield %v : f32
  } -> tensor<?x?xf32>
  return %r : tensor<?x?xf32>
}

func.func private @printMemrefF32(tensor<*xf32>)

func.func @main() {
  %c8 = arith.constant 8 : index
  %c16 = arith.constant 16 : index
  %c32 = arith.constant 32 : index
  %one = arith.constant 1.0 : f32
  %small = arith.constant 0.25 : f32
  %s0 = arith.constant 0.0 : f32
  %s1 = arith.constant 1.5 : f32
  %s2 = arith.constant 2.5 : f32
  %s3 = arith.constant 3.5 : f32
  %xd = call @fill2d(%s0, %one, %c8, %c16) : (f32, f32, index, index) -> tensor<?x?xf32>
  %x = tensor.cast %xd : tensor<?x?xf32> to tensor<8x16xf32>
  %w1d = call @fill2d(%s1, %small, %c16, %c32) : (f32, f32, index, index) -> tensor<?x?xf32>
  %w1 = tensor.cast %w1d : tensor<?x?xf32> to tensor<16x32xf32>
  %w2d = call @fill2d(%s2, %small, %c32, %c16) : (f32, f32, index, index) -> tensor<?x?xf32>
  %w2 = tensor.cast %w2d : tensor<?x?xf32> to tensor<32x16xf32>
  %bd = call @fill2d(%s3, %small, %c8, %c16) : (f32, f32, index, index) -> tensor<?x?xf32>
  %bm = tensor.cast %bd : tensor<?x?xf32> to tensor<8x16xf32>
  %b = tensor.extract_slice %bm[0, 0] [1, 16] [1, 1] : tensor<8x16xf32> to tensor<16xf32>
  // A buffer of @main live across both calls (planned in @main's arena).
  %e5 = tensor.empty() : tensor<8x16xf32>
  %sq = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%x : tensor<8x16xf32>) outs(%e5 : tensor<8x16xf32>) {
  ^bb0(%a: f32, %o: f32):
    %m = arith.mulf %a, %a : f32
    linalg.yield %m : f32
  } -> tensor<8x16xf32>
  %r1 = call @compute(%x, %w1, %w2, %b) : (tensor<8x16xf32>, tensor<16x32xf32>, tensor<32x16xf32>, tensor<16xf32>) -> tensor<8x16xf32>
  %r2 = call @compute(%r1, %w1, %w2, %b) : (tensor<8x16xf32>, tensor<16x32xf32>, tensor<32x16xf32>, tensor<16xf32>) -> tensor<8x16xf32>
  %e6 = tensor.empty() : tensor<8x16xf32>
  %d = linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%r2, %sq : tensor<8x16xf32>, tensor<8x16xf32>) outs(%e6 : tensor<8x16xf32>) {
  ^bb0(%a: f32, %c: f32, %o: f32):
    %eighth = arith.constant 0.125 : f32
    %cs = arith.mulf %c, %eighth : f32
    %s = arith.addf %a, %cs : f32
    linalg.yield %s : f32
  } -> tensor<8x16xf32>
  %acc0 = tensor.empty() : tensor<f32>
  %acc = linalg.fill ins(%s0 : f32) outs(%acc0 : tensor<f32>) -> tensor<f32>
  %sum = linalg.generic {indexing_maps = [#id, affine_map<(d0, d1) -> ()>], iterator_types = ["reduction", "reduction"]}
      ins(%d : tensor<8x16xf32>) outs(%acc : tensor<f32>) {
  ^bb0(%a: f32, %o: f32):
    %s = arith.addf %a, %o : f32
    linalg.yield %s : f32
  } -> tensor<f32>
  %sv = tensor.extract %sum[] : tensor<f32>
  vector.print %sv : f32
  %u = tensor.cast %r2 : tensor<8x16xf32> to tensor<*xf32>
  call @printMemrefF32(%u) : (tensor<*xf32>) -> ()
  return
}
