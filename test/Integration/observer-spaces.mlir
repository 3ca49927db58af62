// The observer's peak of live planned bytes per memory space, over the whole
// run: buffers of the default space and of space 1 (planned into one slab
// each) are counted apart. @main's %in (256 B) is live while @spaces runs, in
// which %a and %b (256 B each) are live at once in the default space, and %c
// and %d (128 B each) at the map that reads one and writes the other in space
// 1: peaks 768 and 256, whatever the arena kind; the JSON summary carries
// them too (in-place reuse off: it would merge %a and %b, and %c and %d).
// REQUIRES: mplan-runtime
//
// RUN: mplan-opt %s --mplan-plan-pipeline=inplace=false --convert-mplan-to-memref="arena=heap" \
// RUN:     --mplan-instrument --mplan-to-llvm \
// RUN:   | env MPLAN_RT_OUTPUT=stdout MPLAN_RT_JSON=%t.json mlir-runner -e main \
// RUN:       -entry-point-result=void -shared-libs=%mlir_runner_libs,%mplan_runtime \
// RUN:   | FileCheck %s
// RUN: FileCheck %s --check-prefix=JSON < %t.json
// RUN: mplan-opt %s --mplan-plan-pipeline=inplace=false --convert-mplan-to-memref="arena=global" \
// RUN:     --mplan-instrument --mplan-to-llvm \
// RUN:   | env MPLAN_RT_OUTPUT=stdout mlir-runner -e main -entry-point-result=void \
// RUN:       -shared-libs=%mlir_runner_libs,%mplan_runtime \
// RUN:   | FileCheck %s

// CHECK: 8
// CHECK-NOT: mplan-rt: error
// CHECK: mplan-rt: planned buffers 5, errors 0
// CHECK-NEXT: mplan-rt: peak live planned bytes per memory space: default 768, 1 256
// JSON: "space_peaks": {"default": 768, "1": 256}

func.func @spaces(%in: memref<64xf32>) -> f32 {
  %c0 = arith.constant 0 : index
  %a = memref.alloc() : memref<64xf32>
  %b = memref.alloc() : memref<64xf32>
  linalg.map { math.absf } ins(%in : memref<64xf32>) outs(%a : memref<64xf32>)
  linalg.map { arith.addf } ins(%a, %in : memref<64xf32>, memref<64xf32>) outs(%b : memref<64xf32>)
  %c = memref.alloc() : memref<32xf32, 1>
  %sb = memref.subview %b[0] [32] [1] : memref<64xf32> to memref<32xf32, strided<[1]>>
  memref.copy %sb, %c : memref<32xf32, strided<[1]>> to memref<32xf32, 1>
  %d = memref.alloc() : memref<32xf32, 1>
  linalg.map { arith.addf } ins(%c, %c : memref<32xf32, 1>, memref<32xf32, 1>) outs(%d : memref<32xf32, 1>)
  %v = memref.load %d[%c0] : memref<32xf32, 1>
  memref.dealloc %a : memref<64xf32>
  memref.dealloc %b : memref<64xf32>
  memref.dealloc %c : memref<32xf32, 1>
  memref.dealloc %d : memref<32xf32, 1>
  return %v : f32
}

func.func @main() {
  %in = memref.alloc() : memref<64xf32>
  %two = arith.constant 2.0 : f32
  linalg.fill ins(%two : f32) outs(%in : memref<64xf32>)
  %v = call @spaces(%in) : (memref<64xf32>) -> f32
  vector.print %v : f32
  memref.dealloc %in : memref<64xf32>
  return
}
