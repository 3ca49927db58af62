// Sequencing that fits a capacity (issue 32), capacity=1:2112: the space-1 buffers of
// @grow (2 KiB each) only fit in an order where the default space grows from 2048 to
// 4096 bytes (the cos runs before the add that makes %y), and those of @beside_default
// fit once the reduction of %a runs before the head that makes %b. Program order needs
// 4096 and 3072 bytes of space 1: without sequencing the plan fails. The reordered programs print
// exactly what the unplanned program prints, under every arena kind.
//
// RUN: mplan-opt %s --mplan-to-llvm \
// RUN:   | mlir-runner -e main -entry-point-result=void -shared-libs=%mlir_runner_libs \
// RUN:   | %normalize_addr > %t.base
// RUN: FileCheck %s --check-prefix=OUT < %t.base
// RUN: not mplan-opt %s --mplan-plan-pipeline="sequence=program inplace=false capacity=1:2112" -o /dev/null 2>&1 \
// RUN:   | FileCheck %s --check-prefix=PROGRAM
// RUN: mplan-opt %s --mplan-plan-pipeline="sequence=best inplace=false capacity=1:2112" --mplan-verify-plan > %t.planned.mlir
// RUN: FileCheck %s --check-prefix=PLAN < %t.planned.mlir
// RUN: mplan-opt %t.planned.mlir --convert-mplan-to-memref="arena=heap" --mplan-to-llvm \
// RUN:   | mlir-runner -e main -entry-point-result=void -shared-libs=%mlir_runner_libs \
// RUN:   | %normalize_addr > %t.plan.heap
// RUN: diff %t.base %t.plan.heap
// RUN: mplan-opt %t.planned.mlir --convert-mplan-to-memref="arena=stack" --mplan-to-llvm \
// RUN:   | mlir-runner -e main -entry-point-result=void -shared-libs=%mlir_runner_libs \
// RUN:   | %normalize_addr > %t.plan.stack
// RUN: diff %t.base %t.plan.stack
// RUN: mplan-opt %t.planned.mlir --convert-mplan-to-memref="arena=global" --mplan-to-llvm \
// RUN:   | mlir-runner -e main -entry-point-result=void -shared-libs=%mlir_runner_libs \
// RUN:   | %normalize_addr > %t.plan.global
// RUN: diff %t.base %t.plan.global
// RUN: mplan-opt %t.planned.mlir --convert-mplan-to-memref="arena=argument functions=grow,beside_default" \
// RUN:   --mplan-to-llvm \
// RUN:   | mlir-runner -e main -entry-point-result=void -shared-libs=%mlir_runner_libs \
// RUN:   | %normalize_addr > %t.plan.argument
// RUN: diff %t.base %t.plan.argument

// PROGRAM: error: memory space '1' of function 'grow' needs 4096 bytes

// PLAN-LABEL: func.func @grow(
// PLAN-DAG: mplan.alloc_slab : <4096, 64>
// PLAN-DAG: mplan.alloc_slab {capacity = 2112 : i64} : <2048, 64, 1 : i64>
// PLAN: linalg.map { math.cos }
// PLAN: linalg.map { arith.addf }
// PLAN-LABEL: func.func @beside_default(
// PLAN-DAG: mplan.alloc_slab : <1024, 64>
// PLAN-DAG: mplan.alloc_slab {capacity = 2112 : i64} : <2112, 64, 1 : i64>

// OUT-COUNT-3: Unranked Memref
// OUT-NOT: nan

func.func private @printMemrefF32(memref<*xf32>)

func.func @grow(%in: memref<512xf32>, %out: memref<512xf32>, %out2: memref<512xf32>) {
  %x = memref.alloc() : memref<512xf32, 1>
  linalg.generic {indexing_maps = [affine_map<(i) -> (i)>, affine_map<(i) -> (i)>, affine_map<(i) -> (i)>],
                  iterator_types = ["parallel"]}
      ins(%in : memref<512xf32>) outs(%x, %out : memref<512xf32, 1>, memref<512xf32>) {
  ^bb0(%a: f32, %b: f32, %c: f32):
    %e = arith.mulf %a, %a : f32
    linalg.yield %e, %a : f32, f32
  }
  %e = memref.alloc() : memref<512xf32>
  linalg.map { arith.negf } ins(%in : memref<512xf32>) outs(%e : memref<512xf32>)
  %y = memref.alloc() : memref<512xf32, 1>
  linalg.map { arith.addf } ins(%out, %in : memref<512xf32>, memref<512xf32>) outs(%y : memref<512xf32, 1>)
  linalg.map { arith.mulf } ins(%e, %y : memref<512xf32>, memref<512xf32, 1>) outs(%out2 : memref<512xf32>)
  %d = memref.alloc() : memref<512xf32>
  linalg.map { math.cos } ins(%x : memref<512xf32, 1>) outs(%d : memref<512xf32>)
  linalg.generic {indexing_maps = [affine_map<(i) -> (i)>, affine_map<(i) -> (i)>],
                  iterator_types = ["parallel"]}
      ins(%d : memref<512xf32>) outs(%out2 : memref<512xf32>) {
  ^bb0(%a: f32, %b: f32):
    %s = arith.addf %a, %b : f32
    linalg.yield %s : f32
  }
  return
}

func.func @beside_default(%in: memref<256xf32>, %out: memref<2xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %x = memref.alloc() : memref<256xf32, 1>
  linalg.map { math.absf } ins(%in : memref<256xf32>) outs(%x : memref<256xf32, 1>)
  %p1 = memref.alloc() : memref<256xf32>
  linalg.map { math.sin } ins(%in : memref<256xf32>) outs(%p1 : memref<256xf32>)
  %a = memref.alloc() : memref<256xf32, 1>
  linalg.map { math.sqrt } ins(%x : memref<256xf32, 1>) outs(%a : memref<256xf32, 1>)
  %b = memref.alloc() : memref<256xf32, 1>
  linalg.map { arith.addf } ins(%x, %p1 : memref<256xf32, 1>, memref<256xf32>) outs(%b : memref<256xf32, 1>)
  %p2 = memref.alloc() : memref<256xf32>
  linalg.map { math.cos } ins(%in : memref<256xf32>) outs(%p2 : memref<256xf32>)
  %c = memref.alloc() : memref<f32, 1>
  %zero = arith.constant 0.0 : f32
  linalg.fill ins(%zero : f32) outs(%c : memref<f32, 1>)
  linalg.reduce { arith.addf } ins(%a : memref<256xf32, 1>) outs(%c : memref<f32, 1>) dimensions = [0]
  linalg.reduce { arith.addf } ins(%p2 : memref<256xf32>) outs(%c : memref<f32, 1>) dimensions = [0]
  %d = memref.alloc() : memref<f32, 1>
  linalg.fill ins(%zero : f32) outs(%d : memref<f32, 1>)
  linalg.reduce { arith.addf } ins(%b : memref<256xf32, 1>) outs(%d : memref<f32, 1>) dimensions = [0]
  %vc = memref.load %c[] : memref<f32, 1>
  %vd = memref.load %d[] : memref<f32, 1>
  memref.store %vc, %out[%c0] : memref<2xf32>
  memref.store %vd, %out[%c1] : memref<2xf32>
  return
}

func.func @main() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c256 = arith.constant 256 : index
  %c512 = arith.constant 512 : index
  %in = memref.alloc() : memref<256xf32>
  %out = memref.alloc() : memref<512xf32>
  %out2 = memref.alloc() : memref<512xf32>
  %sums = memref.alloc() : memref<2xf32>
  %eighth = arith.constant 0.125 : f32
  scf.for %i = %c0 to %c256 step %c1 {
    %ii = arith.index_cast %i : index to i32
    %f = arith.sitofp %ii : i32 to f32
    %g = arith.mulf %f, %eighth : f32
    memref.store %g, %in[%i] : memref<256xf32>
  }
  %in2 = memref.alloc() : memref<512xf32>
  scf.for %i = %c0 to %c512 step %c1 {
    %ii = arith.index_cast %i : index to i32
    %f = arith.sitofp %ii : i32 to f32
    %g = arith.mulf %f, %eighth : f32
    memref.store %g, %in2[%i] : memref<512xf32>
  }
  func.call @grow(%in2, %out, %out2) : (memref<512xf32>, memref<512xf32>, memref<512xf32>) -> ()
  func.call @beside_default(%in, %sums) : (memref<256xf32>, memref<2xf32>) -> ()
  %u = memref.cast %out : memref<512xf32> to memref<*xf32>
  func.call @printMemrefF32(%u) : (memref<*xf32>) -> ()
  %u2 = memref.cast %out2 : memref<512xf32> to memref<*xf32>
  func.call @printMemrefF32(%u2) : (memref<*xf32>) -> ()
  %s = memref.cast %sums : memref<2xf32> to memref<*xf32>
  func.call @printMemrefF32(%s) : (memref<*xf32>) -> ()
  return
}
