// RUN: mplan-opt %s --mplan-plan-pipeline="sequence=best report=%t.json" --mplan-verify-plan | FileCheck %s
// RUN: FileCheck %s --check-prefix=JSON < %t.json
// RUN: mplan-opt %s --mplan-plan-pipeline="report=%t.default.json" > /dev/null
// RUN: FileCheck %s --check-prefix=JSON < %t.default.json
// RUN: mplan-opt %s --mplan-plan-pipeline="sequence=program inplace=false report=%t.program.json" > /dev/null
// RUN: FileCheck %s --check-prefix=PROGRAM < %t.program.json
// RUN: not mplan-opt %s --mplan-plan-pipeline="sequence=fastest" 2>&1 | FileCheck %s --check-prefix=BADMODE

// The report gives the bound in program order next to the bound after
// sequencing: the two branch heads of %x no longer live at the same time.
// CHECK-LABEL: func @two_branches
// CHECK: mplan.alloc_slab : <2112, 64>
// CHECK: linalg.map { math.exp }
// CHECK: linalg.reduce
// CHECK: linalg.map { math.sin }

// JSON: "name": "two_branches"
// JSON: "arena_bytes": 2112
// JSON: "lower_bound_bytes": 2112
// JSON: "lower_bound_program_order_bytes": 3072
// JSON: "sequence_optimal": true

// The default pipeline sequences too (sequence=best). Without sequencing (and
// without in-place reuse, which would write %b over %x) both figures are
// program order's.
// PROGRAM: "arena_bytes": 3072
// PROGRAM: "lower_bound_bytes": 3072
// PROGRAM: "lower_bound_program_order_bytes": 3072
// PROGRAM-NOT: sequence_optimal

// BADMODE: error: --mplan-plan-pipeline option 'sequence': unknown mode 'fastest'; expected one of: program greedy best exact
func.func @two_branches(%in: memref<256xf32>, %out: memref<2xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %x = memref.alloc() : memref<256xf32>
  linalg.map { math.absf } ins(%in : memref<256xf32>) outs(%x : memref<256xf32>)
  %a = memref.alloc() : memref<256xf32>
  linalg.map { math.exp } ins(%x : memref<256xf32>) outs(%a : memref<256xf32>)
  %b = memref.alloc() : memref<256xf32>
  linalg.map { math.sin } ins(%x : memref<256xf32>) outs(%b : memref<256xf32>)
  %c = memref.alloc() : memref<f32>
  linalg.reduce { arith.addf } ins(%a : memref<256xf32>) outs(%c : memref<f32>) dimensions = [0]
  %d = memref.alloc() : memref<f32>
  linalg.reduce { arith.addf } ins(%b : memref<256xf32>) outs(%d : memref<f32>) dimensions = [0]
  %vc = memref.load %c[] : memref<f32>
  memref.store %vc, %out[%c0] : memref<2xf32>
  %vd = memref.load %d[] : memref<f32>
  memref.store %vd, %out[%c1] : memref<2xf32>
  return
}
