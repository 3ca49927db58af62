// Debian's own mlir-opt (/usr/lib/llvm-22/bin/mlir-opt, not mplan-opt) runs mplan's pipeline through the
// plugin: the dialect plugin registers the mplan dialect, the pass plugin
// every mplan pass and pipeline (passes from a plugin are registered after
// the command line is parsed: name them in --pass-pipeline).
// REQUIRES: mplan-plugin
// RUN: mlir-opt --load-dialect-plugin=%mplan_plugin --load-pass-plugin=%mplan_plugin %s \
// RUN:   --pass-pipeline="builtin.module(mplan-plan-pipeline{strategy=best},func.func(mplan-verify-plan),convert-mplan-to-memref{arena=heap})" \
// RUN:   | FileCheck %s
// RUN: mlir-opt --load-pass-plugin=%mplan_plugin %s \
// RUN:   --pass-pipeline="builtin.module(mplan-plan-pipeline)" | FileCheck %s --check-prefix=PLANNED
// The dialect plugin alone parses planned IR.
// RUN: mlir-opt --load-pass-plugin=%mplan_plugin %s \
// RUN:   --pass-pipeline="builtin.module(mplan-plan-pipeline)" | mlir-opt --load-dialect-plugin=%mplan_plugin \
// RUN:   | FileCheck %s --check-prefix=PLANNED
// Without the dialect plugin, planned IR does not parse.
// RUN: mlir-opt --load-pass-plugin=%mplan_plugin %s \
// RUN:   --pass-pipeline="builtin.module(mplan-plan-pipeline)" | not mlir-opt 2>&1 \
// RUN:   | FileCheck %s --check-prefix=NODIALECT

// PLANNED: mplan.alloc_slab : <64, 64>
// PLANNED: mplan.alloc_tensor id(0) live
// PLANNED: mplan.release_slab

// CHECK-LABEL: func.func @chain
// CHECK: %[[ARENA:.*]] = memref.alloc() {{.*}}mplan.arena{{.*}} : memref<64xi8>
// CHECK-NOT: memref.alloc
// CHECK: memref.view %[[ARENA]]
// CHECK-NOT: memref.alloc
// CHECK: memref.dealloc %[[ARENA]] : memref<64xi8>
// CHECK-NEXT: return

// NODIALECT: error: {{.*}}mplan
func.func @chain(%arg0: memref<16xf32>, %out: memref<16xf32>) {
  %cst = arith.constant 1.0 : f32
  %a = memref.alloc() : memref<16xf32>
  linalg.fill ins(%cst : f32) outs(%a : memref<16xf32>)
  %b = memref.alloc() : memref<16xf32>
  linalg.add ins(%a, %arg0 : memref<16xf32>, memref<16xf32>) outs(%b : memref<16xf32>)
  memref.dealloc %a : memref<16xf32>
  %c = memref.alloc() : memref<16xf32>
  linalg.add ins(%b, %b : memref<16xf32>, memref<16xf32>) outs(%c : memref<16xf32>)
  memref.dealloc %b : memref<16xf32>
  linalg.add ins(%c, %c : memref<16xf32>, memref<16xf32>) outs(%out : memref<16xf32>)
  memref.dealloc %c : memref<16xf32>
  return
}
