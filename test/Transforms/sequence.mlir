// RUN: mplan-opt %s --split-input-file --allow-unregistered-dialect --mplan-capture-buffers="fold-views=1" --mplan-sequence | FileCheck %s
// RUN: mplan-opt %s --split-input-file --allow-unregistered-dialect --mplan-plan-pipeline="sequence=best" --mplan-verify-plan > /dev/null

// Two branches on %x emitted breadth first: both 1 KiB branch heads are live
// with %x (3072 bytes). Finishing branch 1 first (its reduction frees %a)
// lowers the bound to 2112 (x, b and c), which is optimal.
// CHECK-LABEL: func @two_branches
// CHECK-SAME: mplan.lower_bound_program_order = 3072
// CHECK-SAME: mplan.sequence_optimal
// CHECK: linalg.map { math.absf }
// CHECK: linalg.map { math.exp }
// CHECK: linalg.reduce
// CHECK: linalg.map { math.sin }
// CHECK: linalg.reduce
// CHECK: memref.store
// CHECK: memref.store
// CHECK-NEXT: return
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

// -----

// Nothing to gain (a chain): the order stays, the bound is recorded.
// CHECK-LABEL: func @chain
// CHECK-SAME: mplan.lower_bound_program_order = 2048
// CHECK: linalg.map { math.absf }
// CHECK-NEXT: mplan.alloc_tensor id(1)
// CHECK-NEXT: linalg.map { math.exp }
// CHECK-NEXT: memref.copy
// CHECK-NEXT: return
func.func @chain(%in: memref<256xf32>, %out: memref<256xf32>) {
  %x = memref.alloc() : memref<256xf32>
  linalg.map { math.absf } ins(%in : memref<256xf32>) outs(%x : memref<256xf32>)
  %a = memref.alloc() : memref<256xf32>
  linalg.map { math.exp } ins(%x : memref<256xf32>) outs(%a : memref<256xf32>)
  memref.copy %a, %out : memref<256xf32> to memref<256xf32>
  return
}

// -----

// A write is never moved above a reader of the same buffer through an alias:
// branch 1's tail writes %s through a view, and branch 2's head reads %s, so
// the tail stays after the head (moving it up would lower the bound).
// CHECK-LABEL: func @war_through_alias
// CHECK-SAME: mplan.lower_bound_program_order = 4096
// CHECK: linalg.map { math.exp }
// CHECK: linalg.map { arith.addf }
// CHECK: linalg.map { math.sin }
// CHECK: return
func.func @war_through_alias(%in: memref<256xf32>, %out: memref<256xf32>) {
  %f = arith.constant 1.0 : f32
  %s = memref.alloc() : memref<256xf32>
  linalg.fill ins(%f : f32) outs(%s : memref<256xf32>)
  %x = memref.alloc() : memref<256xf32>
  linalg.map { math.absf } ins(%in : memref<256xf32>) outs(%x : memref<256xf32>)
  %a = memref.alloc() : memref<256xf32>
  linalg.map { math.exp } ins(%x : memref<256xf32>) outs(%a : memref<256xf32>)
  %b = memref.alloc() : memref<256xf32>
  linalg.map { arith.addf } ins(%x, %s : memref<256xf32>, memref<256xf32>) outs(%b : memref<256xf32>)
  %sv = memref.subview %s[0] [256] [1] : memref<256xf32> to memref<256xf32, strided<[1]>>
  linalg.map { math.sin } ins(%a : memref<256xf32>) outs(%sv : memref<256xf32, strided<[1]>>)
  linalg.map { arith.addf } ins(%b, %s : memref<256xf32>, memref<256xf32>) outs(%out : memref<256xf32>)
  return
}

// -----

// The same program with branch 1's tail writing a small buffer instead of
// %s: one branch finishes before the other starts (4096 -> 3136 bytes).
// CHECK-LABEL: func @no_war
// CHECK: linalg.map { math.exp }
// CHECK-NEXT: mplan.alloc_tensor
// CHECK-NEXT: linalg.reduce
func.func @no_war(%in: memref<256xf32>, %out: memref<256xf32>, %r: memref<f32>) {
  %f = arith.constant 1.0 : f32
  %s = memref.alloc() : memref<256xf32>
  linalg.fill ins(%f : f32) outs(%s : memref<256xf32>)
  %x = memref.alloc() : memref<256xf32>
  linalg.map { math.absf } ins(%in : memref<256xf32>) outs(%x : memref<256xf32>)
  %a = memref.alloc() : memref<256xf32>
  linalg.map { math.exp } ins(%x : memref<256xf32>) outs(%a : memref<256xf32>)
  %b = memref.alloc() : memref<256xf32>
  linalg.map { arith.addf } ins(%x, %s : memref<256xf32>, memref<256xf32>) outs(%b : memref<256xf32>)
  %c = memref.alloc() : memref<f32>
  linalg.reduce { arith.addf } ins(%a : memref<256xf32>) outs(%c : memref<f32>) dimensions = [0]
  linalg.map { arith.addf } ins(%b, %s : memref<256xf32>, memref<256xf32>) outs(%out : memref<256xf32>)
  memref.copy %c, %r : memref<f32> to memref<f32>
  return
}

// -----

// A dealloc never moves above a use: %dyn (opted out, unmanaged) is read by
// branch 2's head; its dealloc stays after that head when branch 1 moves up.
// CHECK-LABEL: func @dealloc_after_use
// CHECK: linalg.map { math.exp }
// CHECK: linalg.reduce
// CHECK: linalg.map { arith.addf }
// CHECK: memref.dealloc
// CHECK: return
func.func @dealloc_after_use(%in: memref<256xf32>, %out: memref<2xf32>, %n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %dyn = memref.alloc(%n) {mplan.unplanned} : memref<?xf32>
  %dv = memref.subview %dyn[0] [256] [1] : memref<?xf32> to memref<256xf32, strided<[1]>>
  linalg.map { math.absf } ins(%in : memref<256xf32>) outs(%dv : memref<256xf32, strided<[1]>>)
  %x = memref.alloc() : memref<256xf32>
  linalg.map { math.absf } ins(%in : memref<256xf32>) outs(%x : memref<256xf32>)
  %a = memref.alloc() : memref<256xf32>
  linalg.map { math.exp } ins(%x : memref<256xf32>) outs(%a : memref<256xf32>)
  %b = memref.alloc() : memref<256xf32>
  linalg.map { arith.addf } ins(%x, %dv : memref<256xf32>, memref<256xf32, strided<[1]>>) outs(%b : memref<256xf32>)
  memref.dealloc %dyn : memref<?xf32>
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

// -----

// Calls are barriers: branch 1's tail cannot move above the call, so nothing
// is gained and the order stays.
// CHECK-LABEL: func @call_barrier
// CHECK: linalg.map { math.sin }
// CHECK-NEXT: call @opaque
// CHECK-NEXT: mplan.alloc_tensor
// CHECK-NEXT: linalg.reduce
func.func private @opaque()
func.func @call_barrier(%in: memref<256xf32>, %out: memref<2xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %x = memref.alloc() : memref<256xf32>
  linalg.map { math.absf } ins(%in : memref<256xf32>) outs(%x : memref<256xf32>)
  %a = memref.alloc() : memref<256xf32>
  linalg.map { math.exp } ins(%x : memref<256xf32>) outs(%a : memref<256xf32>)
  %b = memref.alloc() : memref<256xf32>
  linalg.map { math.sin } ins(%x : memref<256xf32>) outs(%b : memref<256xf32>)
  func.call @opaque() : () -> ()
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

// -----

// Ops with unknown effects are barriers too.
// CHECK-LABEL: func @unknown_effects_barrier
// CHECK: linalg.map { math.sin }
// CHECK-NEXT: "test.opaque"
// CHECK-NEXT: mplan.alloc_tensor
// CHECK-NEXT: linalg.reduce
func.func @unknown_effects_barrier(%in: memref<256xf32>, %out: memref<2xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %x = memref.alloc() : memref<256xf32>
  linalg.map { math.absf } ins(%in : memref<256xf32>) outs(%x : memref<256xf32>)
  %a = memref.alloc() : memref<256xf32>
  linalg.map { math.exp } ins(%x : memref<256xf32>) outs(%a : memref<256xf32>)
  %b = memref.alloc() : memref<256xf32>
  linalg.map { math.sin } ins(%x : memref<256xf32>) outs(%b : memref<256xf32>)
  "test.opaque"() : () -> ()
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

// -----

// Side-effecting ops keep their relative order: the stores to %out (a
// function argument) of branch 2 come before branch 1's in program order and
// stay so when branch 1's computation moves up.
// CHECK-LABEL: func @side_effects_keep_order
// CHECK: linalg.map { math.exp }
// CHECK: linalg.reduce
// CHECK: linalg.map { math.sin }
// CHECK: memref.store %{{.*}}, %arg1[%c1]
// CHECK: memref.store %{{.*}}, %arg1[%c0]
// CHECK: return
func.func @side_effects_keep_order(%in: memref<256xf32>, %out: memref<2xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %x = memref.alloc() : memref<256xf32>
  linalg.map { math.absf } ins(%in : memref<256xf32>) outs(%x : memref<256xf32>)
  %a = memref.alloc() : memref<256xf32>
  linalg.map { math.exp } ins(%x : memref<256xf32>) outs(%a : memref<256xf32>)
  %b = memref.alloc() : memref<256xf32>
  linalg.map { math.sin } ins(%x : memref<256xf32>) outs(%b : memref<256xf32>)
  %d = memref.alloc() : memref<f32>
  linalg.reduce { arith.addf } ins(%b : memref<256xf32>) outs(%d : memref<f32>) dimensions = [0]
  %vd = memref.load %d[] : memref<f32>
  memref.store %vd, %out[%c1] : memref<2xf32>
  %c = memref.alloc() : memref<f32>
  linalg.reduce { arith.addf } ins(%a : memref<256xf32>) outs(%c : memref<f32>) dimensions = [0]
  %vc = memref.load %c[] : memref<f32>
  memref.store %vc, %out[%c0] : memref<2xf32>
  return
}

// -----

// Ops inside loops and other regions stay inside: branch 1's tail is a loop;
// the loop moves as a whole, its body is untouched. The terminator stays
// last.
// CHECK-LABEL: func @regions_stay
// CHECK: linalg.map { math.exp }
// CHECK: scf.for
// CHECK-NEXT: linalg.reduce
// CHECK-NEXT: {{^ *}}}{{$}}
// CHECK: linalg.map { math.sin }
// CHECK: return
// CHECK-NEXT: {{^ *}}}{{$}}
func.func @regions_stay(%in: memref<256xf32>, %out: memref<2xf32>, %n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %x = memref.alloc() : memref<256xf32>
  linalg.map { math.absf } ins(%in : memref<256xf32>) outs(%x : memref<256xf32>)
  %a = memref.alloc() : memref<256xf32>
  linalg.map { math.exp } ins(%x : memref<256xf32>) outs(%a : memref<256xf32>)
  %b = memref.alloc() : memref<256xf32>
  linalg.map { math.sin } ins(%x : memref<256xf32>) outs(%b : memref<256xf32>)
  %c = memref.alloc() : memref<f32>
  scf.for %i = %c0 to %n step %c1 {
    linalg.reduce { arith.addf } ins(%a : memref<256xf32>) outs(%c : memref<f32>) dimensions = [0]
  }
  %d = memref.alloc() : memref<f32>
  linalg.reduce { arith.addf } ins(%b : memref<256xf32>) outs(%d : memref<f32>) dimensions = [0]
  %vc = memref.load %c[] : memref<f32>
  memref.store %vc, %out[%c0] : memref<2xf32>
  %vd = memref.load %d[] : memref<f32>
  memref.store %vd, %out[%c1] : memref<2xf32>
  return
}
