// The mplan plan pipeline, registered in downstream-opt from the installed
// mplan package, on bufferized IR; then the downstream's own pipeline (built
// with mlir::mplan::buildPlanPipeline) from tensors to one heap arena; and the
// installed mplan-opt on the same input.
//
// RUN: downstream-opt %s --one-shot-bufferize="bufferize-function-boundaries function-boundary-type-conversion=identity-layout-map" \
// RUN:   --mplan-plan-pipeline="strategy=best report=%t.json" | FileCheck %s --check-prefix=PLAN
// RUN: FileCheck %s --check-prefix=REPORT < %t.json
// RUN: downstream-opt %s --downstream-compile | FileCheck %s --check-prefix=ARENA
// RUN: downstream-opt %s --downstream-compile="strategy=naive" | FileCheck %s --check-prefix=NAIVE
// RUN: mplan-opt %s --one-shot-bufferize="bufferize-function-boundaries function-boundary-type-conversion=identity-layout-map" \
// RUN:   --mplan-plan-pipeline | FileCheck %s --check-prefix=PLAN

func.func @chain(%x: tensor<16x16xf32>) -> f32 {
  %c0 = arith.constant 0 : index
  %e0 = tensor.empty() : tensor<16x16xf32>
  %a = linalg.exp ins(%x : tensor<16x16xf32>) outs(%e0 : tensor<16x16xf32>) -> tensor<16x16xf32>
  %e1 = tensor.empty() : tensor<16x16xf32>
  %b = linalg.transpose ins(%a : tensor<16x16xf32>) outs(%e1 : tensor<16x16xf32>) permutation = [1, 0]
  %e2 = tensor.empty() : tensor<16x16xf32>
  %c = linalg.transpose ins(%b : tensor<16x16xf32>) outs(%e2 : tensor<16x16xf32>) permutation = [1, 0]
  %r = tensor.extract %c[%c0, %c0] : tensor<16x16xf32>
  return %r : f32
}

// Three 1 KiB buffers, at most two live at once: a 2 KiB slab (a transpose
// reads other elements than it writes: in-place reuse, when asked for, leaves
// it alone, and the strategies still differ).
// PLAN-LABEL: func.func @chain
// PLAN:       mplan.alloc_slab : <2048, 64>
// PLAN-COUNT-3: mplan.alloc_tensor
// PLAN:       mplan.release_slab

// REPORT:      "name": "chain"
// REPORT:      "arena_bytes": 2048
// REPORT:      "lower_bound_bytes": 2048

// ARENA-LABEL: func.func @chain
// ARENA:       memref.alloc() {{.*}}: memref<2048xi8>
// ARENA-COUNT-3: memref.view
// ARENA-NOT:   memref.alloc(
// ARENA:       memref.dealloc

// NAIVE:       memref.alloc() {{.*}}: memref<3072xi8>
