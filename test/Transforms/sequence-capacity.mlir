// Sequencing with capacities (issue 32): fitting every capacity comes first,
// then the default space's bound, whichever space is capped and whichever
// space's buffer comes first in the function. In-place reuse is off in every
// RUN (it would write @capped_only's %b over %x, whatever the order).
// RUN: mplan-opt %s --split-input-file --mplan-plan-pipeline="sequence=best inplace=false capacity=1:4096" --mplan-verify-plan | FileCheck %s --check-prefix=LOOSE
// RUN: mplan-opt %s --split-input-file --mplan-plan-pipeline="sequence=best inplace=false capacity=1:2112" --mplan-verify-plan | FileCheck %s --check-prefix=FIT
// RUN: mplan-opt %s --split-input-file --mplan-plan-pipeline="sequence=best inplace=false" --mplan-verify-plan | FileCheck %s --check-prefix=NONE
// RUN: mplan-opt %s --split-input-file --mplan-plan-pipeline="sequence=best inplace=false capacity=1:2112,2:2112" --mplan-verify-plan | FileCheck %s --check-prefix=TWO

// A capacity that does not bind changes nothing: with or without
// capacity=1:4096, the order taken keeps space 1 at 1024 bytes while the
// default space goes from 3072 to 2112 bytes. (An order that only looks at
// the default space doubles space 1; it was taken under the capacity when
// the default space's buffer came first in the function, and not when the
// space-1 buffer did: @space1_first.)
// LOOSE-LABEL: func.func @default_first
// LOOSE-DAG: mplan.alloc_slab : <2112, 64>
// LOOSE-DAG: mplan.alloc_slab {capacity = 4096 : i64} : <1024, 64, 1 : i64>
// NONE-LABEL: func.func @default_first
// NONE-DAG: mplan.alloc_slab : <2112, 64>
// NONE-DAG: mplan.alloc_slab : <1024, 64, 1 : i64>
func.func @default_first(%in: memref<256xf32>, %out: memref<2xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %x = memref.alloc() : memref<256xf32>
  linalg.map { math.absf } ins(%in : memref<256xf32>) outs(%x : memref<256xf32>)
  %p1 = memref.alloc() : memref<256xf32, 1>
  linalg.map { math.sin } ins(%in : memref<256xf32>) outs(%p1 : memref<256xf32, 1>)
  %a = memref.alloc() : memref<256xf32>
  linalg.map { math.exp } ins(%x : memref<256xf32>) outs(%a : memref<256xf32>)
  %b = memref.alloc() : memref<256xf32>
  linalg.map { arith.addf } ins(%x, %p1 : memref<256xf32>, memref<256xf32, 1>) outs(%b : memref<256xf32>)
  %p2 = memref.alloc() : memref<256xf32, 1>
  linalg.map { math.cos } ins(%in : memref<256xf32>) outs(%p2 : memref<256xf32, 1>)
  %c = memref.alloc() : memref<f32>
  linalg.reduce { arith.addf } ins(%a : memref<256xf32>) outs(%c : memref<f32>) dimensions = [0]
  linalg.reduce { arith.addf } ins(%p2 : memref<256xf32, 1>) outs(%c : memref<f32>) dimensions = [0]
  %d = memref.alloc() : memref<f32>
  linalg.reduce { arith.addf } ins(%b : memref<256xf32>) outs(%d : memref<f32>) dimensions = [0]
  %vc = memref.load %c[] : memref<f32>
  %vd = memref.load %d[] : memref<f32>
  memref.store %vc, %out[%c0] : memref<2xf32>
  memref.store %vd, %out[%c1] : memref<2xf32>
  return
}

// -----

// LOOSE-LABEL: func.func @space1_first
// LOOSE-DAG: mplan.alloc_slab : <2112, 64>
// LOOSE-DAG: mplan.alloc_slab {capacity = 4096 : i64} : <1024, 64, 1 : i64>
func.func @space1_first(%in: memref<256xf32>, %out: memref<2xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %p1 = memref.alloc() : memref<256xf32, 1>
  linalg.map { math.sin } ins(%in : memref<256xf32>) outs(%p1 : memref<256xf32, 1>)
  %x = memref.alloc() : memref<256xf32>
  linalg.map { math.absf } ins(%in : memref<256xf32>) outs(%x : memref<256xf32>)
  %a = memref.alloc() : memref<256xf32>
  linalg.map { math.exp } ins(%x : memref<256xf32>) outs(%a : memref<256xf32>)
  %b = memref.alloc() : memref<256xf32>
  linalg.map { arith.addf } ins(%x, %p1 : memref<256xf32>, memref<256xf32, 1>) outs(%b : memref<256xf32>)
  %p2 = memref.alloc() : memref<256xf32, 1>
  linalg.map { math.cos } ins(%in : memref<256xf32>) outs(%p2 : memref<256xf32, 1>)
  %c = memref.alloc() : memref<f32>
  linalg.reduce { arith.addf } ins(%a : memref<256xf32>) outs(%c : memref<f32>) dimensions = [0]
  linalg.reduce { arith.addf } ins(%p2 : memref<256xf32, 1>) outs(%c : memref<f32>) dimensions = [0]
  %d = memref.alloc() : memref<f32>
  linalg.reduce { arith.addf } ins(%b : memref<256xf32>) outs(%d : memref<f32>) dimensions = [0]
  %vc = memref.load %c[] : memref<f32>
  %vd = memref.load %d[] : memref<f32>
  memref.store %vc, %out[%c0] : memref<2xf32>
  memref.store %vd, %out[%c1] : memref<2xf32>
  return
}

// -----

// @default_first with the spaces swapped: space 1 needs 3072 bytes in
// program order and 2112 after sequencing. Without a capacity the default
// space (two disjoint 1 KiB buffers) is the objective and cannot get lower,
// so program order stays; with capacity=1:2112 space 1 is lowered to fit,
// the default space kept from growing.
// FIT-LABEL: func.func @capped_beside_default
// FIT-DAG: mplan.alloc_slab : <1024, 64>
// FIT-DAG: mplan.alloc_slab {capacity = 2112 : i64} : <2112, 64, 1 : i64>
// NONE-LABEL: func.func @capped_beside_default
// NONE-DAG: mplan.alloc_slab : <1024, 64>
// NONE-DAG: mplan.alloc_slab : <3072, 64, 1 : i64>
func.func @capped_beside_default(%in: memref<256xf32>, %out: memref<2xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %x = memref.alloc() : memref<256xf32, 1>
  linalg.map { math.absf } ins(%in : memref<256xf32>) outs(%x : memref<256xf32, 1>)
  %p1 = memref.alloc() : memref<256xf32>
  linalg.map { math.sin } ins(%in : memref<256xf32>) outs(%p1 : memref<256xf32>)
  %a = memref.alloc() : memref<256xf32, 1>
  linalg.map { math.exp } ins(%x : memref<256xf32, 1>) outs(%a : memref<256xf32, 1>)
  %b = memref.alloc() : memref<256xf32, 1>
  linalg.map { arith.addf } ins(%x, %p1 : memref<256xf32, 1>, memref<256xf32>) outs(%b : memref<256xf32, 1>)
  %p2 = memref.alloc() : memref<256xf32>
  linalg.map { math.cos } ins(%in : memref<256xf32>) outs(%p2 : memref<256xf32>)
  %c = memref.alloc() : memref<f32, 1>
  linalg.reduce { arith.addf } ins(%a : memref<256xf32, 1>) outs(%c : memref<f32, 1>) dimensions = [0]
  linalg.reduce { arith.addf } ins(%p2 : memref<256xf32>) outs(%c : memref<f32, 1>) dimensions = [0]
  %d = memref.alloc() : memref<f32, 1>
  linalg.reduce { arith.addf } ins(%b : memref<256xf32, 1>) outs(%d : memref<f32, 1>) dimensions = [0]
  %vc = memref.load %c[] : memref<f32, 1>
  %vd = memref.load %d[] : memref<f32, 1>
  memref.store %vc, %out[%c0] : memref<2xf32>
  memref.store %vd, %out[%c1] : memref<2xf32>
  return
}

// -----

// Only buffers of space 1: without a capacity program order stays (the
// default space's bound is the objective); with capacity=1:2112 the
// sequencer lowers space 1 from 3072 to 2112 bytes.
// FIT-LABEL: func.func @capped_only
// FIT: mplan.alloc_slab {capacity = 2112 : i64} : <2112, 64, 1 : i64>
// NONE-LABEL: func.func @capped_only
// NONE: mplan.alloc_slab : <3072, 64, 1 : i64>
func.func @capped_only(%in: memref<256xf32>, %out: memref<2xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %x = memref.alloc() : memref<256xf32, 1>
  linalg.map { math.absf } ins(%in : memref<256xf32>) outs(%x : memref<256xf32, 1>)
  %a = memref.alloc() : memref<256xf32, 1>
  linalg.map { math.exp } ins(%x : memref<256xf32, 1>) outs(%a : memref<256xf32, 1>)
  %b = memref.alloc() : memref<256xf32, 1>
  linalg.map { math.sin } ins(%x : memref<256xf32, 1>) outs(%b : memref<256xf32, 1>)
  %c = memref.alloc() : memref<f32, 1>
  linalg.reduce { arith.addf } ins(%a : memref<256xf32, 1>) outs(%c : memref<f32, 1>) dimensions = [0]
  %d = memref.alloc() : memref<f32, 1>
  linalg.reduce { arith.addf } ins(%b : memref<256xf32, 1>) outs(%d : memref<f32, 1>) dimensions = [0]
  %vc = memref.load %c[] : memref<f32, 1>
  %vd = memref.load %d[] : memref<f32, 1>
  memref.store %vc, %out[%c0] : memref<2xf32>
  memref.store %vd, %out[%c1] : memref<2xf32>
  return
}

// -----

// Two capped spaces, each over its capacity in program order (3072 bytes):
// each is lowered in turn with the other kept from growing, and both fit.
// Capping one of them lowers that one only.
// TWO-LABEL: func.func @two_capped
// TWO-DAG: mplan.alloc_slab {capacity = 2112 : i64} : <2112, 64, 1 : i64>
// TWO-DAG: mplan.alloc_slab {capacity = 2112 : i64} : <2112, 64, 2 : i64>
// FIT-LABEL: func.func @two_capped
// FIT-DAG: mplan.alloc_slab {capacity = 2112 : i64} : <2112, 64, 1 : i64>
// FIT-DAG: mplan.alloc_slab : <3072, 64, 2 : i64>
func.func @two_capped(%in: memref<256xf32>, %out: memref<4xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %x = memref.alloc() : memref<256xf32, 1>
  linalg.map { math.absf } ins(%in : memref<256xf32>) outs(%x : memref<256xf32, 1>)
  %u = memref.alloc() : memref<256xf32, 2>
  linalg.map { math.absf } ins(%in : memref<256xf32>) outs(%u : memref<256xf32, 2>)
  %a = memref.alloc() : memref<256xf32, 1>
  linalg.map { math.exp } ins(%x : memref<256xf32, 1>) outs(%a : memref<256xf32, 1>)
  %v = memref.alloc() : memref<256xf32, 2>
  linalg.map { math.exp } ins(%u : memref<256xf32, 2>) outs(%v : memref<256xf32, 2>)
  %b = memref.alloc() : memref<256xf32, 1>
  linalg.map { math.sin } ins(%x : memref<256xf32, 1>) outs(%b : memref<256xf32, 1>)
  %w = memref.alloc() : memref<256xf32, 2>
  linalg.map { math.sin } ins(%u : memref<256xf32, 2>) outs(%w : memref<256xf32, 2>)
  %c = memref.alloc() : memref<f32, 1>
  linalg.reduce { arith.addf } ins(%a : memref<256xf32, 1>) outs(%c : memref<f32, 1>) dimensions = [0]
  %r = memref.alloc() : memref<f32, 2>
  linalg.reduce { arith.addf } ins(%v : memref<256xf32, 2>) outs(%r : memref<f32, 2>) dimensions = [0]
  %d = memref.alloc() : memref<f32, 1>
  linalg.reduce { arith.addf } ins(%b : memref<256xf32, 1>) outs(%d : memref<f32, 1>) dimensions = [0]
  %s = memref.alloc() : memref<f32, 2>
  linalg.reduce { arith.addf } ins(%w : memref<256xf32, 2>) outs(%s : memref<f32, 2>) dimensions = [0]
  %vc = memref.load %c[] : memref<f32, 1>
  %vd = memref.load %d[] : memref<f32, 1>
  %vr = memref.load %r[] : memref<f32, 2>
  %vs = memref.load %s[] : memref<f32, 2>
  memref.store %vc, %out[%c0] : memref<4xf32>
  memref.store %vd, %out[%c1] : memref<4xf32>
  memref.store %vr, %out[%c2] : memref<4xf32>
  memref.store %vs, %out[%c3] : memref<4xf32>
  return
}
