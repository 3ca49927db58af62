// RUN: mplan-opt %s --split-input-file --mplan-mark-calls | FileCheck %s
// RUN: mplan-opt %s --split-input-file --mplan-plan-pipeline="report=%t.json" --mplan-verify-plan \
// RUN:   | FileCheck %s --check-prefix=PLAN

// A callee that only reads and writes its arguments while it runs: the
// caller's buffers passed to it are planned (the call is their use).

// CHECK-LABEL: func.func @caller
// CHECK: call @compute(%{{.*}}, %{{.*}}) {mplan.nocapture = array<i64: 0, 1>}
// PLAN-LABEL: func.func @caller
// PLAN: %[[S:.*]] = mplan.alloc_slab : <128, 64>
// PLAN: %[[A:.*]] = mplan.alloc_tensor id(0) live [1, 4) at %[[S]]
// PLAN: %[[B:.*]] = mplan.alloc_tensor id(1) live [3, 5) at %[[S]]
// PLAN-NOT: memref.alloc
// PLAN: call @compute(%[[A]], %[[B]])
func.func @compute(%in: memref<16xf32>, %out: memref<16xf32>) {
  linalg.map { math.absf } ins(%in : memref<16xf32>) outs(%out : memref<16xf32>)
  return
}
func.func @caller(%x: memref<16xf32>, %y: memref<16xf32>) {
  %a = memref.alloc() : memref<16xf32>
  memref.copy %x, %a : memref<16xf32> to memref<16xf32>
  %b = memref.alloc() : memref<16xf32>
  call @compute(%a, %b) : (memref<16xf32>, memref<16xf32>) -> ()
  memref.copy %b, %y : memref<16xf32> to memref<16xf32>
  return
}

// -----

// Arguments that outlive the call stay captured: returned (through a view),
// stored, deallocated, passed to an external function, or passed on to a
// recursive call. A call that forwards an argument to a non-capturing callee
// is marked too (the least fixed point reaches through call chains).

// CHECK-LABEL: func.func @caller2
// CHECK: call @returns(%{{.*}}) : (memref<16xf32>) -> memref<4xf32>
// CHECK: call @stores(%{{.*}}, %{{.*}}) {mplan.nocapture = array<i64: 1>}
// CHECK: call @frees(%{{.*}}) : (memref<16xf32>) -> ()
// CHECK: call @external(%{{.*}}) : (memref<16xf32>) -> ()
// CHECK: call @recursive(%{{.*}}, %{{.*}}) : (memref<16xf32>, index) -> ()
// CHECK: call @forwards(%{{.*}}) {mplan.nocapture = array<i64: 0>}
// PLAN-LABEL: func.func @caller2
// PLAN-COUNT-5: memref.alloc() {mplan.unplanned = "passed to a call to
// PLAN: mplan.alloc_tensor id(0)
// PLAN-NEXT: call @forwards
func.func @returns(%m: memref<16xf32>) -> memref<4xf32> {
  %v = memref.subview %m[0] [4] [1] : memref<16xf32> to memref<4xf32>
  return %v : memref<4xf32>
}
func.func @stores(%m: memref<16xf32>, %p: memref<1xmemref<16xf32>>) {
  %c0 = arith.constant 0 : index
  memref.store %m, %p[%c0] : memref<1xmemref<16xf32>>
  return
}
func.func @frees(%m: memref<16xf32>) {
  memref.dealloc %m : memref<16xf32>
  return
}
func.func private @external(memref<16xf32>)
func.func @recursive(%m: memref<16xf32>, %n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %done = arith.cmpi eq, %n, %c0 : index
  scf.if %done {
  } else {
    %n1 = arith.subi %n, %c1 : index
    func.call @recursive(%m, %n1) : (memref<16xf32>, index) -> ()
  }
  return
}
func.func @forwards(%m: memref<16xf32>) {
  call @compute2(%m) : (memref<16xf32>) -> ()
  return
}
func.func @compute2(%m: memref<16xf32>) {
  linalg.map { math.absf } ins(%m : memref<16xf32>) outs(%m : memref<16xf32>)
  return
}
func.func @caller2(%p: memref<1xmemref<16xf32>>, %n: index) {
  %a = memref.alloc() : memref<16xf32>
  %r = call @returns(%a) : (memref<16xf32>) -> memref<4xf32>
  %b = memref.alloc() : memref<16xf32>
  call @stores(%b, %p) : (memref<16xf32>, memref<1xmemref<16xf32>>) -> ()
  %c = memref.alloc() : memref<16xf32>
  call @frees(%c) : (memref<16xf32>) -> ()
  %d = memref.alloc() : memref<16xf32>
  call @external(%d) : (memref<16xf32>) -> ()
  %e = memref.alloc() : memref<16xf32>
  call @recursive(%e, %n) : (memref<16xf32>, index) -> ()
  %f = memref.alloc() : memref<16xf32>
  call @forwards(%f) : (memref<16xf32>) -> ()
  return
}

// -----

// The result of a call cannot alias an operand its callee does not capture
// (returning it would be a capture): handing the result to an external
// function does not make the operand escape.

// CHECK-LABEL: func.func @result_not_alias
// CHECK: call @fresh(%{{.*}}) {mplan.nocapture = array<i64: 0>}
// PLAN-LABEL: func.func @result_not_alias
// PLAN: %[[A:.*]] = mplan.alloc_tensor id(0)
// PLAN: %[[R:.*]] = call @fresh(%[[A]])
// PLAN: call @sink(%[[R]])
func.func @fresh(%m: memref<16xf32>) -> memref<16xf32> {
  %r = memref.alloc() : memref<16xf32>
  memref.copy %m, %r : memref<16xf32> to memref<16xf32>
  return %r : memref<16xf32>
}
func.func private @sink(memref<16xf32>)
func.func @result_not_alias(%x: memref<16xf32>) {
  %a = memref.alloc() : memref<16xf32>
  memref.copy %x, %a : memref<16xf32> to memref<16xf32>
  %r = call @fresh(%a) : (memref<16xf32>) -> memref<16xf32>
  call @sink(%r) : (memref<16xf32>) -> ()
  return
}

// -----

// A callee that yields its argument into a memref of memrefs keeps it.
// CHECK-LABEL: func.func @caller_box
// CHECK: call @boxes(%{{.*}}, %{{.*}}) {mplan.nocapture = array<i64: 1>}
// PLAN-LABEL: func.func @caller_box
// PLAN: memref.alloc() {mplan.unplanned = "passed to a call to boxes"}
func.func @boxes(%m: memref<16xf32>, %box: memref<1xmemref<16xf32>>) {
  linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]}
      outs(%box : memref<1xmemref<16xf32>>) {
  ^bb0(%old: memref<16xf32>):
    linalg.yield %m : memref<16xf32>
  }
  return
}
func.func @caller_box(%box: memref<1xmemref<16xf32>>) {
  %a = memref.alloc() : memref<16xf32>
  call @boxes(%a, %box) : (memref<16xf32>, memref<1xmemref<16xf32>>) -> ()
  return
}

// -----

// An argument's aliases are the values the points-to analysis's flow edges
// reach from it: a memref of memrefs the callee only loads from is not
// captured by a call on what it loads, and an argument yielded at a position
// whose result the callee does not keep is not captured by a call on the
// result at another position.

// CHECK-LABEL: func.func @caller_flow
// CHECK: call @reads_table(%{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}) {mplan.nocapture = array<i64: 0, 1>}
// PLAN-LABEL: func.func @caller_flow
// PLAN: mplan.alloc_tensor id(0)
// PLAN: memref.alloc() {mplan.unplanned = "passed to a call to reads_table"}
func.func private @keep(memref<4xf32>)
func.func @reads_table(%t: memref<memref<4xf32>>, %u: memref<4xf32>,
                       %v: memref<4xf32>, %c: i1) {
  %m = memref.load %t[] : memref<memref<4xf32>>
  call @keep(%m) : (memref<4xf32>) -> ()
  %r:2 = scf.if %c -> (memref<4xf32>, memref<4xf32>) {
    scf.yield %u, %v : memref<4xf32>, memref<4xf32>
  } else {
    scf.yield %u, %v : memref<4xf32>, memref<4xf32>
  }
  call @keep(%r#1) : (memref<4xf32>) -> ()
  return
}
func.func @caller_flow(%t: memref<memref<4xf32>>, %c: i1) {
  %a = memref.alloc() : memref<4xf32>
  %b = memref.alloc() : memref<4xf32>
  call @reads_table(%t, %a, %b, %c)
      : (memref<memref<4xf32>>, memref<4xf32>, memref<4xf32>, i1) -> ()
  return
}
