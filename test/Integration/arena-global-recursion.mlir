// arena=global on recursive functions (issue 19, defect 6): a global arena is one per
// function, so nested activations of a recursive function would overwrite each other's
// buffers (here %t, live across the recursive call). Functions in a call-graph cycle
// (@rec calls itself; @ping and @pong call each other) get a heap arena instead, with a
// remark, and the planned program prints what upstream's unplanned program prints.
// @scale, called from the cycle but not in it, keeps its global.
//
// RUN: mlir-opt %s %lower_to_llvm \
// RUN:   | mlir-runner -e main -entry-point-result=void -shared-libs=%mlir_runner_libs \
// RUN:   | %normalize_addr > %t.base
// RUN: mplan-opt %s --mplan-plan-pipeline --convert-mplan-to-memref="arena=global" \
// RUN:   2> %t.remarks > %t.mlir
// RUN: FileCheck %s --check-prefix=REMARK < %t.remarks
// RUN: FileCheck %s --check-prefix=IR < %t.mlir
// RUN: mplan-opt %t.mlir --mplan-to-llvm \
// RUN:   | mlir-runner -e main -entry-point-result=void -shared-libs=%mlir_runner_libs \
// RUN:   | %normalize_addr > %t.plan
// RUN: diff %t.base %t.plan
// RUN: FileCheck %s --check-prefix=OUT < %t.plan

// REMARK-DAG: remark: function 'rec' is in a call-graph cycle (recursive), so its activations would share a global arena; allocated on the heap instead
// REMARK-DAG: remark: function 'ping' is in a call-graph cycle (recursive)
// REMARK-DAG: remark: function 'pong' is in a call-graph cycle (recursive)

// IR-LABEL: func.func @scale(
// IR: memref.get_global @__mplan_arena_scale
// IR-LABEL: func.func @rec(
// IR: memref.alloc() {{.*}}mplan.arena
// IR-LABEL: func.func @ping(
// IR: memref.alloc() {{.*}}mplan.arena
// IR-LABEL: func.func @pong(
// IR: memref.alloc() {{.*}}mplan.arena

// rec(4) = 26 * (i+1); ping(3) = 9 * (i+1) + 2.
// OUT: [26,  52,  78,  104,  130,  156,  182,  208]
// OUT: [11,  20,  29,  38,  47,  56,  65,  74]

func.func private @printMemrefF32(memref<*xf32>)

// out[i] = 2 * in[i], through a buffer of its own.
func.func @scale(%in: memref<8xf32>, %out: memref<8xf32>) {
  %two = arith.constant 2.0 : f32
  %u = memref.alloc() : memref<8xf32>
  linalg.generic {indexing_maps = [affine_map<(i) -> (i)>, affine_map<(i) -> (i)>],
                  iterator_types = ["parallel"]}
      ins(%in : memref<8xf32>) outs(%u : memref<8xf32>) {
  ^bb0(%x: f32, %o: f32):
    %m = arith.mulf %x, %two : f32
    linalg.yield %m : f32
  }
  memref.copy %u, %out : memref<8xf32> to memref<8xf32>
  memref.dealloc %u : memref<8xf32>
  return
}

// out[i] = n * (i+1) + 2 * rec(n-1)[i] (rec(1) = i+1): %t holds this level's term
// across the recursive call.
func.func @rec(%n: index, %out: memref<8xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c8 = arith.constant 8 : index
  %zero = arith.constant 0.0 : f32
  %t = memref.alloc() : memref<8xf32>
  %s = memref.alloc() : memref<8xf32>
  %nf = arith.index_cast %n : index to i32
  %nv = arith.sitofp %nf : i32 to f32
  scf.for %i = %c0 to %c8 step %c1 {
    %i1 = arith.addi %i, %c1 : index
    %ii = arith.index_cast %i1 : index to i32
    %f = arith.sitofp %ii : i32 to f32
    %v = arith.mulf %f, %nv : f32
    memref.store %v, %t[%i] : memref<8xf32>
  }
  %last = arith.cmpi ule, %n, %c1 : index
  scf.if %last {
    linalg.fill ins(%zero : f32) outs(%s : memref<8xf32>)
  } else {
    %m = arith.subi %n, %c1 : index
    func.call @rec(%m, %s) : (index, memref<8xf32>) -> ()
    func.call @scale(%s, %s) : (memref<8xf32>, memref<8xf32>) -> ()
  }
  linalg.generic {indexing_maps = [affine_map<(i) -> (i)>, affine_map<(i) -> (i)>, affine_map<(i) -> (i)>],
                  iterator_types = ["parallel"]}
      ins(%t, %s : memref<8xf32>, memref<8xf32>) outs(%out : memref<8xf32>) {
  ^bb0(%x: f32, %y: f32, %o: f32):
    %a = arith.addf %x, %y : f32
    linalg.yield %a : f32
  }
  memref.dealloc %t : memref<8xf32>
  memref.dealloc %s : memref<8xf32>
  return
}

// Mutual recursion: ping(n)[i] = n * (i+1) + pong(n-1)[i] (ping(1) = i+1) and
// pong(n)[i] = n * (i+1) + 1 + ping(n)[i], each keeping its term in a buffer of its own
// across the call.
func.func @ping(%n: index, %out: memref<8xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c8 = arith.constant 8 : index
  %zero = arith.constant 0.0 : f32
  %t = memref.alloc() : memref<8xf32>
  %s = memref.alloc() : memref<8xf32>
  %nf = arith.index_cast %n : index to i32
  %nv = arith.sitofp %nf : i32 to f32
  scf.for %i = %c0 to %c8 step %c1 {
    %i1 = arith.addi %i, %c1 : index
    %ii = arith.index_cast %i1 : index to i32
    %f = arith.sitofp %ii : i32 to f32
    %v = arith.mulf %f, %nv : f32
    memref.store %v, %t[%i] : memref<8xf32>
  }
  %last = arith.cmpi ule, %n, %c1 : index
  scf.if %last {
    linalg.fill ins(%zero : f32) outs(%s : memref<8xf32>)
  } else {
    %m = arith.subi %n, %c1 : index
    func.call @pong(%m, %s) : (index, memref<8xf32>) -> ()
  }
  linalg.generic {indexing_maps = [affine_map<(i) -> (i)>, affine_map<(i) -> (i)>, affine_map<(i) -> (i)>],
                  iterator_types = ["parallel"]}
      ins(%t, %s : memref<8xf32>, memref<8xf32>) outs(%out : memref<8xf32>) {
  ^bb0(%x: f32, %y: f32, %o: f32):
    %a = arith.addf %x, %y : f32
    linalg.yield %a : f32
  }
  memref.dealloc %t : memref<8xf32>
  memref.dealloc %s : memref<8xf32>
  return
}

func.func @pong(%n: index, %out: memref<8xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c8 = arith.constant 8 : index
  %one = arith.constant 1.0 : f32
  %t = memref.alloc() : memref<8xf32>
  %s = memref.alloc() : memref<8xf32>
  %nf = arith.index_cast %n : index to i32
  %nv = arith.sitofp %nf : i32 to f32
  scf.for %i = %c0 to %c8 step %c1 {
    %i1 = arith.addi %i, %c1 : index
    %ii = arith.index_cast %i1 : index to i32
    %f = arith.sitofp %ii : i32 to f32
    %v = arith.mulf %f, %nv : f32
    %w = arith.addf %v, %one : f32
    memref.store %w, %t[%i] : memref<8xf32>
  }
  func.call @ping(%n, %s) : (index, memref<8xf32>) -> ()
  linalg.generic {indexing_maps = [affine_map<(i) -> (i)>, affine_map<(i) -> (i)>, affine_map<(i) -> (i)>],
                  iterator_types = ["parallel"]}
      ins(%t, %s : memref<8xf32>, memref<8xf32>) outs(%out : memref<8xf32>) {
  ^bb0(%x: f32, %y: f32, %o: f32):
    %a = arith.addf %x, %y : f32
    linalg.yield %a : f32
  }
  memref.dealloc %t : memref<8xf32>
  memref.dealloc %s : memref<8xf32>
  return
}

func.func @main() {
  %c4 = arith.constant 4 : index
  %c3 = arith.constant 3 : index
  %out = memref.alloc() : memref<8xf32>
  func.call @rec(%c4, %out) : (index, memref<8xf32>) -> ()
  %u = memref.cast %out : memref<8xf32> to memref<*xf32>
  func.call @printMemrefF32(%u) : (memref<*xf32>) -> ()
  func.call @ping(%c3, %out) : (index, memref<8xf32>) -> ()
  func.call @printMemrefF32(%u) : (memref<*xf32>) -> ()
  memref.dealloc %out : memref<8xf32>
  return
}
