// A buffer read at every block of a long function (%g = exp(arg), read by
// the first and the fourth op of each block, past each block's peak of four
// 512-byte buffers) is split at every gap in one step of the loop: at 90 %
// of the bound, rematerialized before each block (remat) or copied out and
// back around each block (offload), applied from the last gap back. Before,
// one split per step made the 100k-op form of this program fail its capacity
// after 20 s (bench/budget: docs/benchmarks.md "Scale"). Run against the
// unplanned program under heap, stack and global arenas.
// REQUIRES: mplan-runtime
//
// RUN: mplan-opt %s --mplan-to-llvm \
// RUN:   | mlir-runner -e main -entry-point-result=void -shared-libs=%mlir_runner_libs > %t.base
// RUN: mplan-opt %s --mplan-plan-pipeline="sequence=program inplace=false capacity=default:2304 remarks=true" \
// RUN:     --mplan-verify-plan -o %t.remat.mlir 2>&1 | FileCheck %s --check-prefix=REMAT
// RUN: mplan-opt %s --mplan-plan-pipeline="sequence=program inplace=false capacity=default:2304 remat=false offload=default:1" \
// RUN:     --mplan-verify-plan -o %t.offload.mlir
// RUN: FileCheck %s --check-prefix=OFFLOAD < %t.offload.mlir
// RUN: mplan-opt %t.remat.mlir --convert-mplan-to-memref="arena=heap" --mplan-to-llvm \
// RUN:   | mlir-runner -e main -entry-point-result=void -shared-libs=%mlir_runner_libs > %t.heap
// RUN: diff %t.base %t.heap
// RUN: mplan-opt %t.remat.mlir --convert-mplan-to-memref="arena=stack" --mplan-to-llvm \
// RUN:   | mlir-runner -e main -entry-point-result=void -shared-libs=%mlir_runner_libs > %t.stack
// RUN: diff %t.base %t.stack
// RUN: mplan-opt %t.offload.mlir --convert-mplan-to-memref="arena=global" --mplan-to-llvm \
// RUN:   | mlir-runner -e main -entry-point-result=void -shared-libs=%mlir_runner_libs > %t.global
// RUN: diff %t.base %t.global
// RUN: mplan-opt %t.offload.mlir --convert-mplan-to-memref="arena=heap" --mplan-to-llvm \
// RUN:   | mlir-runner -e main -entry-point-result=void -shared-libs=%mlir_runner_libs > %t.offload.heap
// RUN: diff %t.base %t.offload.heap

// %g (buffer 0) is recomputed before the first use of every block after
// the first, in one step: the later gaps first (before, each split was a
// step of its own, on the new buffer the last one made: buffers 33, 34, ...).
// The running sum's first buffer (1) goes first.
// REMAT: remark: buffer 1 (512 bytes) rematerialized
// REMAT-COUNT-3: remark: buffer 0 (512 bytes) rematerialized before its later use (work 128)
// REMAT-NOT: rematerialized
// OFFLOAD: mplan.alloc_slab {capacity = 2304 : i64}
// OFFLOAD-COUNT-3: memref.copy
func.func @g(%arg0: memref<8x16xf32>, %out: memref<8x16xf32>) {
  %g = memref.alloc() : memref<8x16xf32>
  linalg.map { math.exp } ins(%arg0 : memref<8x16xf32>) outs(%g : memref<8x16xf32>)
  %s0 = memref.alloc() : memref<8x16xf32>
  linalg.map { math.absf } ins(%arg0 : memref<8x16xf32>) outs(%s0 : memref<8x16xf32>)
  %b1 = memref.alloc() : memref<8x16xf32>
  linalg.map { math.absf } ins(%g : memref<8x16xf32>) outs(%b1 : memref<8x16xf32>)
  %c1 = memref.alloc() : memref<8x16xf32>
  linalg.map { arith.negf } ins(%b1 : memref<8x16xf32>) outs(%c1 : memref<8x16xf32>)
  %e1 = memref.alloc() : memref<8x16xf32>
  linalg.map { arith.mulf } ins(%b1, %c1 : memref<8x16xf32>, memref<8x16xf32>) outs(%e1 : memref<8x16xf32>)
  %d1 = memref.alloc() : memref<8x16xf32>
  linalg.map { arith.addf } ins(%g, %e1 : memref<8x16xf32>, memref<8x16xf32>) outs(%d1 : memref<8x16xf32>)
  %s1 = memref.alloc() : memref<8x16xf32>
  linalg.map { arith.addf } ins(%s0, %d1 : memref<8x16xf32>, memref<8x16xf32>) outs(%s1 : memref<8x16xf32>)
  %b2 = memref.alloc() : memref<8x16xf32>
  linalg.map { math.absf } ins(%g : memref<8x16xf32>) outs(%b2 : memref<8x16xf32>)
  %c2 = memref.alloc() : memref<8x16xf32>
  linalg.map { arith.negf } ins(%b2 : memref<8x16xf32>) outs(%c2 : memref<8x16xf32>)
  %e2 = memref.alloc() : memref<8x16xf32>
  linalg.map { arith.mulf } ins(%b2, %c2 : memref<8x16xf32>, memref<8x16xf32>) outs(%e2 : memref<8x16xf32>)
  %d2 = memref.alloc() : memref<8x16xf32>
  linalg.map { arith.addf } ins(%g, %e2 : memref<8x16xf32>, memref<8x16xf32>) outs(%d2 : memref<8x16xf32>)
  %s2 = memref.alloc() : memref<8x16xf32>
  linalg.map { arith.addf } ins(%s1, %d2 : memref<8x16xf32>, memref<8x16xf32>) outs(%s2 : memref<8x16xf32>)
  %b3 = memref.alloc() : memref<8x16xf32>
  linalg.map { math.absf } ins(%g : memref<8x16xf32>) outs(%b3 : memref<8x16xf32>)
  %c3 = memref.alloc() : memref<8x16xf32>
  linalg.map { arith.negf } ins(%b3 : memref<8x16xf32>) outs(%c3 : memref<8x16xf32>)
  %e3 = memref.alloc() : memref<8x16xf32>
  linalg.map { arith.mulf } ins(%b3, %c3 : memref<8x16xf32>, memref<8x16xf32>) outs(%e3 : memref<8x16xf32>)
  %d3 = memref.alloc() : memref<8x16xf32>
  linalg.map { arith.addf } ins(%g, %e3 : memref<8x16xf32>, memref<8x16xf32>) outs(%d3 : memref<8x16xf32>)
  %s3 = memref.alloc() : memref<8x16xf32>
  linalg.map { arith.addf } ins(%s2, %d3 : memref<8x16xf32>, memref<8x16xf32>) outs(%s3 : memref<8x16xf32>)
  %b4 = memref.alloc() : memref<8x16xf32>
  linalg.map { math.absf } ins(%g : memref<8x16xf32>) outs(%b4 : memref<8x16xf32>)
  %c4 = memref.alloc() : memref<8x16xf32>
  linalg.map { arith.negf } ins(%b4 : memref<8x16xf32>) outs(%c4 : memref<8x16xf32>)
  %e4 = memref.alloc() : memref<8x16xf32>
  linalg.map { arith.mulf } ins(%b4, %c4 : memref<8x16xf32>, memref<8x16xf32>) outs(%e4 : memref<8x16xf32>)
  %d4 = memref.alloc() : memref<8x16xf32>
  linalg.map { arith.addf } ins(%g, %e4 : memref<8x16xf32>, memref<8x16xf32>) outs(%d4 : memref<8x16xf32>)
  %s4 = memref.alloc() : memref<8x16xf32>
  linalg.map { arith.addf } ins(%s3, %d4 : memref<8x16xf32>, memref<8x16xf32>) outs(%s4 : memref<8x16xf32>)
  memref.copy %s4, %out : memref<8x16xf32> to memref<8x16xf32>
  return
}
func.func @main() {
  %a = memref.alloc() {mplan.unplanned} : memref<8x16xf32>
  %o = memref.alloc() {mplan.unplanned} : memref<8x16xf32>
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c8 = arith.constant 8 : index
  %c16 = arith.constant 16 : index
  scf.for %i = %c0 to %c8 step %c1 {
    scf.for %j = %c0 to %c16 step %c1 {
      %k = arith.muli %i, %c16 : index
      %l = arith.addi %k, %j : index
      %x = arith.index_cast %l : index to i32
      %f = arith.sitofp %x : i32 to f32
      %s = arith.constant 0.01 : f32
      %v = arith.mulf %f, %s : f32
      memref.store %v, %a[%i, %j] : memref<8x16xf32>
    }
  }
  func.call @g(%a, %o) : (memref<8x16xf32>, memref<8x16xf32>) -> ()
  scf.for %i = %c0 to %c8 step %c1 {
    scf.for %j = %c0 to %c16 step %c1 {
      %v = memref.load %o[%i, %j] : memref<8x16xf32>
      vector.print %v : f32
    }
  }
  return
}
