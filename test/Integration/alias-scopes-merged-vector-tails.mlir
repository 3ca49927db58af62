// The merged-blocks case of alias-scopes-merged-blocks.mlir with vector
// tails: each branch fills its own planned buffer in a loop, then copies it
// to the output with one vector.load (@f) or vector.transfer_read (@g) and a
// vector.store. The two tails differ only in the buffer read;
// convert-vector-to-llvm merges them and lowers the load of the block
// argument to an llvm.load, whose mark the refresh recomputes from the
// memref its pointer was taken from (before, the merged load kept the
// scopes of one buffer and LLVM deleted the stores of the other: the stack
// arena printed the first branch's values for the second). Planned at -O3
// against the unplanned program.
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

func.func @f(%in: memref<32xf32>, %out: memref<32xf32>, %c: i1) {
  %x = memref.alloc() : memref<32xf32>
  %y = memref.alloc() : memref<32xf32>
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c8 = arith.constant 8 : index
  %c32 = arith.constant 32 : index
  %one = arith.constant 1.0 : f32
  %two = arith.constant 2.0 : f32
  cf.cond_br %c, ^bb1, ^bb2
^bb1:
  scf.for %i = %c0 to %c32 step %c8 {
    %v = vector.load %in[%i] : memref<32xf32>, vector<8xf32>
    %b = vector.broadcast %one : f32 to vector<8xf32>
    %r = arith.addf %v, %b : vector<8xf32>
    vector.store %r, %x[%i] : memref<32xf32>, vector<8xf32>
  }
  %vx = vector.load %x[%c0] : memref<32xf32>, vector<32xf32>
  vector.store %vx, %out[%c0] : memref<32xf32>, vector<32xf32>
  cf.br ^bb3
^bb2:
  scf.for %i = %c0 to %c32 step %c8 {
    %v = vector.load %in[%i] : memref<32xf32>, vector<8xf32>
    %b = vector.broadcast %two : f32 to vector<8xf32>
    %r = arith.mulf %v, %b : vector<8xf32>
    vector.store %r, %y[%i] : memref<32xf32>, vector<8xf32>
  }
  %vy = vector.load %y[%c0] : memref<32xf32>, vector<32xf32>
  vector.store %vy, %out[%c0] : memref<32xf32>, vector<32xf32>
  cf.br ^bb3
^bb3:
  memref.dealloc %x : memref<32xf32>
  memref.dealloc %y : memref<32xf32>
  return
}

func.func @g(%in: memref<32xf32>, %out: memref<32xf32>, %c: i1) {
  %x = memref.alloc() : memref<32xf32>
  %y = memref.alloc() : memref<32xf32>
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c8 = arith.constant 8 : index
  %c32 = arith.constant 32 : index
  %one = arith.constant 1.0 : f32
  %two = arith.constant 2.0 : f32
  cf.cond_br %c, ^bb1, ^bb2
^bb1:
  scf.for %i = %c0 to %c32 step %c8 {
    %v = vector.load %in[%i] : memref<32xf32>, vector<8xf32>
    %b = vector.broadcast %one : f32 to vector<8xf32>
    %r = arith.addf %v, %b : vector<8xf32>
    vector.store %r, %x[%i] : memref<32xf32>, vector<8xf32>
  }
  %vx = vector.transfer_read %x[%c0], %one {in_bounds=[true]} : memref<32xf32>, vector<32xf32>
  vector.store %vx, %out[%c0] : memref<32xf32>, vector<32xf32>
  cf.br ^bb3
^bb2:
  scf.for %i = %c0 to %c32 step %c8 {
    %v = vector.load %in[%i] : memref<32xf32>, vector<8xf32>
    %b = vector.broadcast %two : f32 to vector<8xf32>
    %r = arith.mulf %v, %b : vector<8xf32>
    vector.store %r, %y[%i] : memref<32xf32>, vector<8xf32>
  }
  %vy = vector.transfer_read %y[%c0], %one {in_bounds=[true]} : memref<32xf32>, vector<32xf32>
  vector.store %vy, %out[%c0] : memref<32xf32>, vector<32xf32>
  cf.br ^bb3
^bb3:
  memref.dealloc %x : memref<32xf32>
  memref.dealloc %y : memref<32xf32>
  return
}

func.func @main() {
  %in = memref.alloc() : memref<32xf32>
  %out = memref.alloc() : memref<32xf32>
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c32 = arith.constant 32 : index
  scf.for %i = %c0 to %c32 step %c1 {
    %ii = arith.index_cast %i : index to i32
    %f = arith.sitofp %ii : i32 to f32
    memref.store %f, %in[%i] : memref<32xf32>
    %z = arith.constant 0.0 : f32
    memref.store %z, %out[%i] : memref<32xf32>
  }
  %t = arith.constant true
  %f = arith.constant false
  call @f(%in, %out, %t) : (memref<32xf32>, memref<32xf32>, i1) -> ()
  %u = memref.cast %out : memref<32xf32> to memref<*xf32>
  call @printMemrefF32(%u) : (memref<*xf32>) -> ()
  call @f(%in, %out, %f) : (memref<32xf32>, memref<32xf32>, i1) -> ()
  call @printMemrefF32(%u) : (memref<*xf32>) -> ()
  call @g(%in, %out, %t) : (memref<32xf32>, memref<32xf32>, i1) -> ()
  call @printMemrefF32(%u) : (memref<*xf32>) -> ()
  call @g(%in, %out, %f) : (memref<32xf32>, memref<32xf32>, i1) -> ()
  call @printMemrefF32(%u) : (memref<*xf32>) -> ()
  memref.dealloc %in : memref<32xf32>
  memref.dealloc %out : memref<32xf32>
  return
}
func.func private @printMemrefF32(memref<*xf32>)
