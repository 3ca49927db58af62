// Buffers in memory space 1 beside default-space ones (issue 19, defect 1), planned into
// one slab per memory space and lowered with every arena kind: each arena is in its
// slab's space, every buffer's view stays in its space, the copies between the spaces
// are kept, and the planned program prints what the unplanned program prints.
// The baseline is lowered by mplan-to-llvm too: upstream's pipeline alone cannot free a
// buffer of space 1 (finalize-memref-to-llvm passes its pointer to free without casting
// it back to the default space; mplan-to-llvm's mplan-dealloc-in-default-space does).
//
// RUN: mplan-opt %s --mplan-to-llvm \
// RUN:   | mlir-runner -e main -entry-point-result=void -shared-libs=%mlir_runner_libs \
// RUN:   | %normalize_addr > %t.base
// RUN: FileCheck %s --check-prefix=OUT < %t.base
// RUN: mplan-opt %s --mplan-plan-pipeline --mplan-verify-plan > %t.planned.mlir
// RUN: FileCheck %s --check-prefix=PLAN < %t.planned.mlir
// RUN: mplan-opt %t.planned.mlir --convert-mplan-to-memref="arena=heap" > %t.heap.mlir
// RUN: FileCheck %s --check-prefix=HEAP < %t.heap.mlir
// RUN: mplan-opt %t.heap.mlir --mplan-to-llvm \
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
// RUN: mplan-opt %t.planned.mlir --convert-mplan-to-memref="arena=argument functions=compute" \
// RUN:   --mplan-to-llvm \
// RUN:   | mlir-runner -e main -entry-point-result=void -shared-libs=%mlir_runner_libs \
// RUN:   | %normalize_addr > %t.plan.argument
// RUN: diff %t.base %t.plan.argument

// PLAN-LABEL: func.func @compute(
// PLAN-DAG: mplan.alloc_slab : <{{[0-9]+}}, {{[0-9]+}}, 1 : i64>
// PLAN-DAG: mplan.alloc_slab : <{{[0-9]+}}, {{[0-9]+}}>
// PLAN-DAG: memref.copy %{{.*}}, %{{.*}} : memref<16xf32> to memref<16xf32, 1>
// PLAN-DAG: memref.copy %{{.*}}, %{{.*}} : memref<16xf32, 1> to memref<16xf32>

// HEAP-LABEL: func.func @compute(
// HEAP-DAG: %[[D:.*]] = memref.alloc() {{.*}}mplan.arena{{.*}} : memref<{{[0-9]+}}xi8>
// HEAP-DAG: %[[S:.*]] = memref.alloc() {{.*}}mplan.arena{{.*}} : memref<{{[0-9]+}}xi8, 1>
// HEAP-DAG: memref.view %[[D]]{{.*}} to memref<16xf32>
// HEAP-DAG: memref.view %[[S]]{{.*}} to memref<16xf32, 1>

// in[i] = i; out[i] = (2 * in[i] + 1) + in[i], through space 1 and back.
// OUT: [1,  4,  7,  10,  13,  16,  19,  22,  25,  28,  31,  34,  37,  40,  43,  46]

func.func private @printMemrefF32(memref<*xf32>)

func.func @compute(%in: memref<16xf32>, %out: memref<16xf32>) {
  %two = arith.constant 2.0 : f32
  %one = arith.constant 1.0 : f32
  %a = memref.alloc() : memref<16xf32>
  %b = memref.alloc() : memref<16xf32, 1>
  %c = memref.alloc() : memref<16xf32>
  %d = memref.alloc() : memref<16xf32, 1>
  %e = memref.alloc() : memref<16xf32>
  // %b = in, in space 1.
  memref.copy %in, %b : memref<16xf32> to memref<16xf32, 1>
  // %a = 2 * %b.
  linalg.generic {indexing_maps = [affine_map<(i) -> (i)>, affine_map<(i) -> (i)>],
                  iterator_types = ["parallel"]}
      ins(%b : memref<16xf32, 1>) outs(%a : memref<16xf32>) {
  ^bb0(%x: f32, %y: f32):
    %m = arith.mulf %x, %two : f32
    linalg.yield %m : f32
  }
  // %d = %a + 1, in space 1.
  linalg.generic {indexing_maps = [affine_map<(i) -> (i)>, affine_map<(i) -> (i)>],
                  iterator_types = ["parallel"]}
      ins(%a : memref<16xf32>) outs(%d : memref<16xf32, 1>) {
  ^bb0(%x: f32, %y: f32):
    %m = arith.addf %x, %one : f32
    linalg.yield %m : f32
  }
  // %e = %d, back in the default space; %c = %e + %b.
  memref.copy %d, %e : memref<16xf32, 1> to memref<16xf32>
  linalg.generic {indexing_maps = [affine_map<(i) -> (i)>, affine_map<(i) -> (i)>, affine_map<(i) -> (i)>],
                  iterator_types = ["parallel"]}
      ins(%e, %b : memref<16xf32>, memref<16xf32, 1>) outs(%c : memref<16xf32>) {
  ^bb0(%x: f32, %y: f32, %z: f32):
    %m = arith.addf %x, %y : f32
    linalg.yield %m : f32
  }
  memref.copy %c, %out : memref<16xf32> to memref<16xf32>
  memref.dealloc %a : memref<16xf32>
  memref.dealloc %b : memref<16xf32, 1>
  memref.dealloc %c : memref<16xf32>
  memref.dealloc %d : memref<16xf32, 1>
  memref.dealloc %e : memref<16xf32>
  return
}

func.func @main() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c16 = arith.constant 16 : index
  %in = memref.alloc() : memref<16xf32>
  %out = memref.alloc() : memref<16xf32>
  scf.for %i = %c0 to %c16 step %c1 {
    %ii = arith.index_cast %i : index to i32
    %f = arith.sitofp %ii : i32 to f32
    memref.store %f, %in[%i] : memref<16xf32>
  }
  func.call @compute(%in, %out) : (memref<16xf32>, memref<16xf32>) -> ()
  %u = memref.cast %out : memref<16xf32> to memref<*xf32>
  func.call @printMemrefF32(%u) : (memref<*xf32>) -> ()
  memref.dealloc %in : memref<16xf32>
  memref.dealloc %out : memref<16xf32>
  return
}
