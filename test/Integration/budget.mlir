// Capacities below the bound met by rematerialization and by offload, run
// against the unplanned program: a residual-like function whose long-lived
// %x (fill + matmul of the arguments) is recomputed before its later use,
// and a function whose space-1 buffer %x goes to the default space between
// its uses (offload=1:default) and comes back. Every arena kind that keeps
// each function's arena to itself (heap, stack, global) prints what the
// unplanned program prints, and the observer sees no overlap and space 1's
// peak within its capacity of 512 bytes. (arena=argument and shared-global
// nest a callee's arena in its caller's, whose sum the capacity also
// bounds: @main's own buffers leave no room for @residual's arena there.)
// REQUIRES: mplan-runtime
//
// RUN: mplan-opt %s --mplan-to-llvm \
// RUN:   | mlir-runner -e main -entry-point-result=void -shared-libs=%mlir_runner_libs \
// RUN:   > %t.base
// RUN: FileCheck %s --check-prefix=OUT < %t.base
// RUN: mplan-opt %s --mplan-plan-pipeline="sequence=program inplace=false capacity=default:3072,1:512 offload=1:default" \
// RUN:     --mplan-verify-plan > %t.planned.mlir
// RUN: FileCheck %s --check-prefix=PLAN < %t.planned.mlir
// RUN: mplan-opt %s --mplan-plan-pipeline="sequence=program inplace=false capacity=1:512 offload=1:default remat=false" \
// RUN:     --mplan-verify-plan > %t.offload.mlir
// RUN: FileCheck %s --check-prefix=OFFLOAD < %t.offload.mlir
// RUN: mplan-opt %t.planned.mlir --convert-mplan-to-memref="arena=heap" --mplan-to-llvm \
// RUN:   | mlir-runner -e main -entry-point-result=void -shared-libs=%mlir_runner_libs > %t.heap
// RUN: diff %t.base %t.heap
// RUN: mplan-opt %t.planned.mlir --convert-mplan-to-memref="arena=stack" --mplan-to-llvm \
// RUN:   | mlir-runner -e main -entry-point-result=void -shared-libs=%mlir_runner_libs > %t.stack
// RUN: diff %t.base %t.stack
// RUN: mplan-opt %t.planned.mlir --convert-mplan-to-memref="arena=global" --mplan-to-llvm \
// RUN:   | mlir-runner -e main -entry-point-result=void -shared-libs=%mlir_runner_libs > %t.global
// RUN: diff %t.base %t.global
// RUN: mplan-opt %t.offload.mlir --convert-mplan-to-memref="arena=heap" --mplan-to-llvm \
// RUN:   | mlir-runner -e main -entry-point-result=void -shared-libs=%mlir_runner_libs > %t.offload.heap
// RUN: diff %t.base %t.offload.heap
// RUN: mplan-opt %t.offload.mlir --convert-mplan-to-memref="arena=global" --mplan-to-llvm \
// RUN:   | mlir-runner -e main -entry-point-result=void -shared-libs=%mlir_runner_libs > %t.offload.global
// RUN: diff %t.base %t.offload.global
// RUN: mplan-opt %t.offload.mlir --convert-mplan-to-memref="arena=heap" --mplan-instrument \
// RUN:     --mplan-to-llvm \
// RUN:   | env MPLAN_RT_OUTPUT=stdout mlir-runner -e main -entry-point-result=void \
// RUN:       -shared-libs=%mlir_runner_libs,%mplan_runtime \
// RUN:   | FileCheck %s --check-prefix=OBSERVED

// OUT: 0.722656
// OUT-NEXT: -1.13572

// PLAN-LABEL: func.func @residual
// PLAN-SAME: kind = "remat"
// PLAN: mplan.alloc_slab {capacity = 3072 : i64} : <3072, 64>
// PLAN-LABEL: func.func @spaces
// PLAN-SAME: kind = "remat"
// OFFLOAD-LABEL: func.func @spaces
// OFFLOAD-SAME: kind = "offload"
// OFFLOAD: memref.copy {{.*}} : memref<64xf32, 1> to memref<64xf32>
// OFFLOAD: memref.copy {{.*}} : memref<64xf32> to memref<64xf32, 1>

// OBSERVED-NOT: mplan-rt: error
// OBSERVED: mplan-rt: planned buffers {{[0-9]+}}, errors 0
// OBSERVED-NEXT: mplan-rt: peak live planned bytes per memory space: default {{[0-9]+}}, 1 512

func.func @residual(%a: memref<16x16xf32>, %b: memref<16x16xf32>) -> f32 {
  %c0 = arith.constant 0 : index
  %c5 = arith.constant 5 : index
  %zero = arith.constant 0.0 : f32
  %x = memref.alloc() : memref<16x16xf32>
  linalg.fill ins(%zero : f32) outs(%x : memref<16x16xf32>)
  linalg.matmul ins(%a, %b : memref<16x16xf32>, memref<16x16xf32>) outs(%x : memref<16x16xf32>)
  %y = memref.alloc() : memref<16x16xf32>
  linalg.map { math.absf } ins(%x : memref<16x16xf32>) outs(%y : memref<16x16xf32>)
  %z = memref.alloc() : memref<16x16xf32>
  linalg.map { arith.negf } ins(%y : memref<16x16xf32>) outs(%z : memref<16x16xf32>)
  %w = memref.alloc() : memref<16x16xf32>
  linalg.map { arith.mulf } ins(%z, %z : memref<16x16xf32>, memref<16x16xf32>) outs(%w : memref<16x16xf32>)
  %v = memref.alloc() : memref<16x16xf32>
  linalg.map { arith.addf } ins(%w, %z : memref<16x16xf32>, memref<16x16xf32>) outs(%v : memref<16x16xf32>)
  %r = memref.alloc() : memref<16x16xf32>
  linalg.map { arith.addf } ins(%v, %x : memref<16x16xf32>, memref<16x16xf32>) outs(%r : memref<16x16xf32>)
  %s = memref.load %r[%c0, %c0] : memref<16x16xf32>
  %s2 = memref.load %r[%c5, %c5] : memref<16x16xf32>
  %t = arith.addf %s, %s2 : f32
  memref.dealloc %x : memref<16x16xf32>
  memref.dealloc %y : memref<16x16xf32>
  memref.dealloc %z : memref<16x16xf32>
  memref.dealloc %w : memref<16x16xf32>
  memref.dealloc %v : memref<16x16xf32>
  memref.dealloc %r : memref<16x16xf32>
  return %t : f32
}

func.func @spaces(%a: memref<64xf32>, %out: memref<64xf32>) {
  %x = memref.alloc() : memref<64xf32, 1>
  linalg.map { math.sin } ins(%a : memref<64xf32>) outs(%x : memref<64xf32, 1>)
  %y = memref.alloc() : memref<64xf32, 1>
  linalg.map { math.exp } ins(%x : memref<64xf32, 1>) outs(%y : memref<64xf32, 1>)
  %z = memref.alloc() : memref<64xf32, 1>
  linalg.map { arith.negf } ins(%y : memref<64xf32, 1>) outs(%z : memref<64xf32, 1>)
  linalg.map { arith.addf } ins(%x, %z : memref<64xf32, 1>, memref<64xf32, 1>) outs(%out : memref<64xf32>)
  memref.dealloc %x : memref<64xf32, 1>
  memref.dealloc %y : memref<64xf32, 1>
  memref.dealloc %z : memref<64xf32, 1>
  return
}

func.func @main() {
  %c0 = arith.constant 0 : index
  %c3 = arith.constant 3 : index
  %a = memref.alloc() {mplan.unplanned} : memref<16x16xf32>
  %b = memref.alloc() {mplan.unplanned} : memref<16x16xf32>
  %half = arith.constant 0.5 : f32
  %quarter = arith.constant -0.25 : f32
  %big = arith.constant 1.75 : f32
  linalg.fill ins(%half : f32) outs(%a : memref<16x16xf32>)
  linalg.fill ins(%quarter : f32) outs(%b : memref<16x16xf32>)
  memref.store %big, %a[%c0, %c0] : memref<16x16xf32>
  %r = call @residual(%a, %b) : (memref<16x16xf32>, memref<16x16xf32>) -> f32
  vector.print %r : f32
  %in = memref.alloc() {mplan.unplanned} : memref<64xf32>
  %out = memref.alloc() {mplan.unplanned} : memref<64xf32>
  linalg.fill ins(%big : f32) outs(%in : memref<64xf32>)
  memref.store %half, %in[%c3] : memref<64xf32>
  call @spaces(%in, %out) : (memref<64xf32>, memref<64xf32>) -> ()
  %v = memref.load %out[%c3] : memref<64xf32>
  vector.print %v : f32
  memref.dealloc %a : memref<16x16xf32>
  memref.dealloc %b : memref<16x16xf32>
  memref.dealloc %in : memref<64xf32>
  memref.dealloc %out : memref<64xf32>
  return
}
