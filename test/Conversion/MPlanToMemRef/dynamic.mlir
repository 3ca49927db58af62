// RUN: mplan-opt %s --split-input-file --convert-mplan-to-memref="arena=heap" | FileCheck %s
// RUN: mplan-opt %s --split-input-file --convert-mplan-to-memref="arena=stack" -verify-diagnostics | FileCheck %s
// RUN: mplan-opt %s --split-input-file --convert-mplan-to-memref="arena=global" -verify-diagnostics | FileCheck %s
// RUN: mplan-opt %s --split-input-file --convert-mplan-to-memref="arena=argument" | FileCheck %s --check-prefix=ARG
// RUN: mplan-opt %s --split-input-file --convert-mplan-to-memref="arena=argument functions=symbolic" | FileCheck %s --check-prefix=ARG

// The symbolic plan is evaluated right before the slab: each run-time sized
// buffer starts at the slab's static size (64) or at the largest end of the
// buffers it is placed above, rounded up to its alignment; the arena is the
// largest end. A slab with run-time sized buffers is always on the heap.
// CHECK-LABEL: func.func @symbolic(
// CHECK-SAME:    %[[N:[^:]*]]: index, %[[M:[^:]*]]: index
// CHECK:         %[[C64:.*]] = arith.constant 64 : index
// CHECK:         %[[A_OFF:.*]] = arith.andi
// CHECK:         %[[C256:.*]] = arith.constant 256 : index
// CHECK:         %[[A_BYTES:.*]] = arith.muli %[[C256]], %[[N]] : index
// CHECK:         %[[A_END:.*]] = arith.addi %[[A_OFF]], %[[A_BYTES]] : index
// CHECK:         %[[T0:.*]] = arith.maxui %[[C64]], %[[A_END]] : index
// CHECK:         %[[B_BASE:.*]] = arith.maxui %[[C64]], %[[A_END]] : index
// CHECK:         %[[B_SUM:.*]] = arith.addi %[[B_BASE]], %{{.*}} : index
// CHECK:         %[[B_OFF:.*]] = arith.andi %[[B_SUM]], %{{.*}} : index
// CHECK:         %[[C8:.*]] = arith.constant 8 : index
// CHECK:         %[[B_BYTES:.*]] = arith.muli %[[C8]], %[[M]] : index
// CHECK:         %[[B_END:.*]] = arith.addi %[[B_OFF]], %[[B_BYTES]] : index
// CHECK:         %[[TOTAL:.*]] = arith.maxui %[[T0]], %[[B_END]] : index
// CHECK:         %[[ARENA:.*]] = memref.alloc(%[[TOTAL]]) {alignment = 64 : i64, mplan.arena} : memref<?xi8>
// CHECK:         memref.view %[[ARENA]][%{{.*}}][] {mplan.buffer_id = 0 : i64{{.*}}} : memref<?xi8> to memref<16xf32>
// CHECK:         memref.view %[[ARENA]][%[[A_OFF]]][%[[N]]] {mplan.buffer_id = 1 : i64, mplan.live = array<i64: 2, 5>} : memref<?xi8> to memref<?x64xf32>
// CHECK:         memref.view %[[ARENA]][%[[B_OFF]]][%[[M]]] {mplan.buffer_id = 2 : i64, mplan.live = array<i64: 3, 6>} : memref<?xi8> to memref<?xf64>
// CHECK:         memref.dealloc %[[ARENA]] : memref<?xi8>
// arena=argument: the arena of a function with run-time sized buffers is a
// `memref<?xi8>` argument; `<name>_arena_size` takes the function's
// arguments and evaluates the same symbolic plan on them; a caller in the
// module allocates the arena around the call with that size.
// ARG-LABEL:   func.func @symbolic(
// ARG-SAME:      %[[N:[^:]*]]: index, %[[M:[^:]*]]: index, %[[ARENA:.*]]: memref<?xi8> {llvm.noalias, mplan.arena}) attributes {mplan.arena_alignment = 64 : i64}
// ARG:           %[[AL:.*]] = memref.assume_alignment %[[ARENA]], 64 : memref<?xi8>
// ARG:           memref.view %[[AL]][%{{.*}}][%[[N]]] {mplan.buffer_id = 1 : i64
// ARG:           memref.view %[[AL]][%{{.*}}][%[[M]]] {mplan.buffer_id = 2 : i64
// ARG-LABEL:   func.func @symbolic_arena_size(
// ARG-SAME:      %[[SN:[^:]*]]: index, %[[SM:[^:]*]]: index) -> index
// ARG:           arith.muli %{{.*}}, %[[SN]] : index
// ARG:           arith.muli %{{.*}}, %[[SM]] : index
// ARG:           %[[TOTAL:.*]] = arith.maxui
// ARG-NEXT:      return %[[TOTAL]] : index
// ARG-LABEL:   func.func @caller(
// ARG:           %[[SIZE:.*]] = call @symbolic_arena_size(%arg0, %arg1) : (index, index) -> index
// ARG:           %[[A:.*]] = memref.alloc(%[[SIZE]]) {alignment = 64 : i64, mplan.arena} : memref<?xi8>
// ARG:           call @symbolic(%arg0, %arg1, %[[A]])
// ARG:           memref.dealloc %[[A]] : memref<?xi8>
func.func @symbolic(%n: index, %m: index) {
  // expected-remark @+1 {{slab holds run-time sized buffers (mplan.alloc_dynamic), so its size is known only when the function runs; allocated on the heap instead}}
  %slab = mplan.alloc_slab : !mplan.slab<64, 64>
  %s = mplan.alloc_tensor id(0) live [1, 2) at %slab[0] : !mplan.slab<64, 64> -> memref<16xf32>
  %a = mplan.alloc_dynamic id(1) (%n) live [2, 5) in %slab above [] : !mplan.slab<64, 64> {alignment = 64 : i64} -> memref<?x64xf32>
  %b = mplan.alloc_dynamic id(2) (%m) live [3, 6) in %slab above [1] : !mplan.slab<64, 64> {alignment = 64 : i64} -> memref<?xf64>
  mplan.release_slab %slab : !mplan.slab<64, 64>
  return
}

func.func @caller(%n: index, %m: index) {
  call @symbolic(%n, %m) : (index, index) -> ()
  return
}
