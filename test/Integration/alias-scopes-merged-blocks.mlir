// Two branches that fill a different planned buffer in a loop and copy it to
// the same argument: once scf is lowered to cf, the two loop exits (a copy
// and a branch) differ only in the copy's source, and convert-vector-to-llvm
// merges them into one block whose copy reads a block argument. The copy
// kept the alias scopes of one buffer and claimed noalias with the other, so
// LLVM at -O2 deleted the loop that filled the other (the cfg fuzzer's seed
// 100487 under arena=stack printed garbage; test/Conversion/MPlanToLLVM/
// alias-scopes-merged-blocks.mlir). Planned at -O3 against the unplanned
// program under heap, stack and global arenas.
//
// RUN: mplan-opt %s --mplan-to-llvm \
// RUN:   | mlir-runner -O3 -e main -entry-point-result=void -shared-libs=%mlir_runner_libs \
// RUN:   | %normalize_addr > %t.base
// RUN: mplan-opt %s --mplan-plan-pipeline -o %t.plan.mlir
// RUN: mplan-opt %t.plan.mlir --convert-mplan-to-memref="arena=heap" --mplan-to-llvm \
// RUN:   | mlir-runner -O3 -e main -entry-point-result=void -shared-libs=%mlir_runner_libs \
// RUN:   | %normalize_addr | diff %t.base -
// RUN: mplan-opt %t.plan.mlir --convert-mplan-to-memref="arena=stack" --mplan-to-llvm \
// RUN:   | mlir-runner -O3 -e main -entry-point-result=void -shared-libs=%mlir_runner_libs \
// RUN:   | %normalize_addr | diff %t.base -
// RUN: mplan-opt %t.plan.mlir --convert-mplan-to-memref="arena=global" --mplan-to-llvm \
// RUN:   | mlir-runner -O3 -e main -entry-point-result=void -shared-libs=%mlir_runner_libs \
// RUN:   | %normalize_addr | diff %t.base -

func.func @f(%in: memref<23xf32>, %out: memref<23xf32>, %c: i1) {
  %x = memref.alloc() : memref<23xf32>
  %y = memref.alloc() : memref<23xf32>
  cf.cond_br %c, ^bb1, ^bb2
^bb1:
  linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} ins(%in : memref<23xf32>) outs(%x : memref<23xf32>) {
  ^bb0(%a: f32, %o: f32):
    %one = arith.constant 1.0 : f32
    %r = arith.addf %a, %one : f32
    linalg.yield %r : f32
  }
  memref.copy %x, %out : memref<23xf32> to memref<23xf32>
  cf.br ^bb3
^bb2:
  linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} ins(%in : memref<23xf32>) outs(%y : memref<23xf32>) {
  ^bb0(%a: f32, %o: f32):
    %two = arith.constant 2.0 : f32
    %r = arith.mulf %a, %two : f32
    linalg.yield %r : f32
  }
  memref.copy %y, %out : memref<23xf32> to memref<23xf32>
  cf.br ^bb3
^bb3:
  memref.dealloc %x : memref<23xf32>
  memref.dealloc %y : memref<23xf32>
  return
}

func.func @main() {
  %in = memref.alloc() : memref<23xf32>
  %out = memref.alloc() : memref<23xf32>
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c23 = arith.constant 23 : index
  scf.for %i = %c0 to %c23 step %c1 {
    %ii = arith.index_cast %i : index to i32
    %f = arith.sitofp %ii : i32 to f32
    memref.store %f, %in[%i] : memref<23xf32>
  }
  %t = arith.constant true
  %f = arith.constant false
  call @f(%in, %out, %t) : (memref<23xf32>, memref<23xf32>, i1) -> ()
  %u = memref.cast %out : memref<23xf32> to memref<*xf32>
  call @printMemrefF32(%u) : (memref<*xf32>) -> ()
  call @f(%in, %out, %f) : (memref<23xf32>, memref<23xf32>, i1) -> ()
  call @printMemrefF32(%u) : (memref<*xf32>) -> ()
  memref.dealloc %in : memref<23xf32>
  memref.dealloc %out : memref<23xf32>
  return
}
func.func private @printMemrefF32(memref<*xf32>)
