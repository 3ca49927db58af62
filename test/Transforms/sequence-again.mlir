// RUN: mplan-opt %s --mplan-capture-buffers="fold-views=1" --mplan-sequence="mode=best" \
// RUN:   --mplan-sequence="mode=best remarks=true" 2>&1 | FileCheck %s
// RUN: not mplan-opt %S/budget-order-rounds.mlir \
// RUN:   --mplan-plan-pipeline="capacity=default:440 offload=default:1 remarks=true" \
// RUN:   -o /dev/null 2>&1 | FileCheck %s --check-prefix=ROUNDS

// A function sequenced already is judged against the bound of its order,
// not the program-order bound recorded the first time
// (mplan.lower_bound_program_order): mplan-plan-pipeline sequences a
// function again after splitting it (test/Transforms/budget-order-rounds.mlir),
// and the second run found its order optimal for the model yet kept it "because"
// the model's peak (2112) differed from that stale bound (3072).

// CHECK-NOT: remark
// CHECK-LABEL: func @two_branches
// CHECK-SAME: mplan.lower_bound_program_order = 3072
// CHECK-NOT: mplan.sequence_kept_because
// CHECK-SAME: mplan.sequence_optimal
// CHECK-NOT: mplan.sequence_kept_because
// CHECK: linalg.map { math.absf }
// CHECK: linalg.map { math.exp }
// CHECK: linalg.reduce
// CHECK: linalg.map { math.sin }
// CHECK: linalg.reduce
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

// In the pipeline: the offloads of the first round leave 448 bytes; ordered
// again, the split program's order is already optimal (no remark names the
// program-order bound of 1344 bytes as the current one).
// ROUNDS-NOT: differs from the planner's bound
// ROUNDS: error: memory space 'default' of function 'f0' needs 448 bytes
