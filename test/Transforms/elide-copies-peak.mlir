// RUN: mplan-opt %s --split-input-file --mplan-elide-copies=peak-guard=all | FileCheck %s
// RUN: mplan-opt %s --mplan-elide-copies=peak-guard=all --mplan-plan-buffers="report=%t.json" -o /dev/null
// RUN: FileCheck %s --check-prefix=ARENA --input-file=%t.json
// RUN: mplan-opt %s --mplan-plan-buffers="report=%t.base.json" -o /dev/null
// RUN: FileCheck %s --check-prefix=BASE --input-file=%t.base.json
// RUN: mplan-opt %s --split-input-file --mplan-elide-copies | FileCheck %s --check-prefix=VIEWS
// RUN: mplan-opt %s --mplan-elide-copies --mplan-plan-buffers="report=%t.views.json" -o /dev/null
// RUN: FileCheck %s --check-prefix=VIEWS-ARENA --input-file=%t.views.json
// RUN: mplan-opt %s --split-input-file --mplan-elide-copies=peak-guard=none | FileCheck %s --check-prefix=NONE

// The peak guard (peak-guard=all): writing in place makes the destination
// live from the producer of its part on. Here a 4096-byte temporary lives between the
// production of %x0 and the concat; %x0 + %t (64 + 4096 bytes) is the peak.
// Writing %x0 in place would put %y (128 bytes) next to %t: 4224 > 4160, so
// that copy stays. %x1 is produced after %t is dead: written in place.

// CHECK-LABEL: func.func @skip_raises_peak
// CHECK-SAME:    mplan.copies_kept_for_peak = 1 : i64
// CHECK-SAME:    mplan.copies_removed = 1 : i64
// CHECK:         %[[X0:.*]] = mplan.alloc_tensor id(0) -> memref<16xf32>
// CHECK-NEXT:    linalg.map { math.absf } ins(%{{.*}} : memref<16xf32>) outs(%[[X0]] : memref<16xf32>)
// CHECK:         %[[Y:.*]] = mplan.alloc_tensor id(2) -> memref<32xf32>
// CHECK-NEXT:    %[[V1:.*]] = mplan.view %[[Y]][64]
// CHECK-NEXT:    linalg.map { math.sqrt } ins(%{{.*}} : memref<16xf32>) outs(%[[V1]] :
// CHECK-NEXT:    %[[V0:.*]] = mplan.view %[[Y]][0]
// CHECK-NEXT:    memref.copy %[[X0]], %[[V0]]
// CHECK-NEXT:    linalg.copy ins(%[[Y]] : memref<32xf32>)
// With the default (peak-guard=views) pad and concat copies always go: %y
// lives from %x0's production on and the arena grows to 4224 bytes.
// VIEWS-LABEL:   func.func @skip_raises_peak
// VIEWS-NOT:       copies_kept_for_peak
// VIEWS-SAME:      mplan.copies_removed = 2 : i64
// VIEWS:           %[[Y:.*]] = mplan.alloc_tensor id(2) -> memref<32xf32>
// VIEWS-NEXT:      %[[V0:.*]] = mplan.view %[[Y]][0]
// VIEWS-NEXT:      linalg.map { math.absf } ins(%{{.*}} : memref<16xf32>) outs(%[[V0]] :
// VIEWS-NOT:       memref.copy
// VIEWS:           return
// VIEWS-ARENA:     "name": "skip_raises_peak"
// VIEWS-ARENA:     "arena_bytes": 4224
// NONE-LABEL:    func.func @skip_raises_peak
// NONE-SAME:       mplan.copies_removed = 2 : i64
// ARENA:         "name": "skip_raises_peak"
// ARENA:         "arena_bytes": 4160
// BASE:          "name": "skip_raises_peak"
// BASE:          "arena_bytes": 4160
func.func @skip_raises_peak(%in: memref<16xf32>, %side: memref<1024xf32>, %out: memref<32xf32>) {
  %x0 = mplan.alloc_tensor id(0) -> memref<16xf32>
  linalg.map { math.absf } ins(%in : memref<16xf32>) outs(%x0 : memref<16xf32>)
  %t = mplan.alloc_tensor id(1) -> memref<1024xf32>
  linalg.map { math.exp } ins(%side : memref<1024xf32>) outs(%t : memref<1024xf32>)
  linalg.copy ins(%t : memref<1024xf32>) outs(%side : memref<1024xf32>)
  %x1 = mplan.alloc_tensor id(3) -> memref<16xf32>
  linalg.map { math.sqrt } ins(%in : memref<16xf32>) outs(%x1 : memref<16xf32>)
  %y = mplan.alloc_tensor id(2) -> memref<32xf32>
  %v0 = mplan.view %y[0] : memref<32xf32> to memref<16xf32, strided<[1]>>
  memref.copy %x0, %v0 : memref<16xf32> to memref<16xf32, strided<[1]>>
  %v1 = mplan.view %y[64] : memref<32xf32> to memref<16xf32, strided<[1], offset: 16>>
  memref.copy %x1, %v1 : memref<16xf32> to memref<16xf32, strided<[1], offset: 16>>
  linalg.copy ins(%y : memref<32xf32>) outs(%out : memref<32xf32>)
  return
}

// -----

// The same shape with a 64-byte temporary: the peak is at the concat
// (%x0 + %x1 + %y = 256 bytes); writing both parts in place puts %y next to
// %t (192 bytes), below it. Both copies go and the arena shrinks.

// VIEWS-LABEL: func.func @take_lowers_peak
// VIEWS-SAME:    mplan.copies_removed = 2 : i64
// VIEWS-ARENA:   "name": "take_lowers_peak"
// VIEWS-ARENA:   "arena_bytes": 192
// CHECK-LABEL: func.func @take_lowers_peak
// CHECK-NOT:     copies_kept_for_peak
// CHECK-SAME:    mplan.copies_removed = 2 : i64
// CHECK:         %[[Y:.*]] = mplan.alloc_tensor id(2) -> memref<32xf32>
// CHECK-NEXT:    %[[V0:.*]] = mplan.view %[[Y]][0]
// CHECK-NEXT:    linalg.map { math.absf } ins(%{{.*}} : memref<16xf32>) outs(%[[V0]] :
// CHECK-NOT:     memref.copy
// CHECK:         linalg.copy ins(%[[Y]] : memref<32xf32>)
// ARENA:         "name": "take_lowers_peak"
// ARENA:         "arena_bytes": 192
// BASE:          "name": "take_lowers_peak"
// BASE:          "arena_bytes": 256
func.func @take_lowers_peak(%in: memref<16xf32>, %side: memref<16xf32>, %out: memref<32xf32>) {
  %x0 = mplan.alloc_tensor id(0) -> memref<16xf32>
  linalg.map { math.absf } ins(%in : memref<16xf32>) outs(%x0 : memref<16xf32>)
  %t = mplan.alloc_tensor id(1) -> memref<16xf32>
  linalg.map { math.exp } ins(%side : memref<16xf32>) outs(%t : memref<16xf32>)
  linalg.copy ins(%t : memref<16xf32>) outs(%side : memref<16xf32>)
  %x1 = mplan.alloc_tensor id(3) -> memref<16xf32>
  linalg.map { math.sqrt } ins(%in : memref<16xf32>) outs(%x1 : memref<16xf32>)
  %y = mplan.alloc_tensor id(2) -> memref<32xf32>
  %v0 = mplan.view %y[0] : memref<32xf32> to memref<16xf32, strided<[1]>>
  memref.copy %x0, %v0 : memref<16xf32> to memref<16xf32, strided<[1]>>
  %v1 = mplan.view %y[64] : memref<32xf32> to memref<16xf32, strided<[1], offset: 16>>
  memref.copy %x1, %v1 : memref<16xf32> to memref<16xf32, strided<[1], offset: 16>>
  linalg.copy ins(%y : memref<32xf32>) outs(%out : memref<32xf32>)
  return
}

// -----

// View copy to view is guarded too (also by the default): %s (64 bytes) is a
// slice of %big (4096 bytes) that outlives it next to a 4096-byte temporary.
// Making %s a view of %big would keep %big live next to %t (8192 > 4160
// bytes): the copy stays. Without a guard it goes.
// VIEWS-LABEL: func.func @view_copy_raises_peak
// VIEWS-SAME:    mplan.copies_kept_for_peak = 1 : i64
// VIEWS:         memref.copy
// VIEWS-ARENA:   "name": "view_copy_raises_peak"
// VIEWS-ARENA:   "arena_bytes": 4160
// NONE-LABEL:  func.func @view_copy_raises_peak
// NONE-NOT:      copies_kept_for_peak
// NONE-SAME:     mplan.copies_removed = 1 : i64
// NONE-NOT:      memref.copy
// NONE:          return

// CHECK-LABEL: func.func @view_copy_raises_peak
// CHECK-SAME:    mplan.copies_kept_for_peak = 1 : i64
// CHECK:         memref.copy
// ARENA:         "name": "view_copy_raises_peak"
// ARENA:         "arena_bytes": 4160
// BASE:          "name": "view_copy_raises_peak"
// BASE:          "arena_bytes": 4160
func.func @view_copy_raises_peak(%in: memref<1024xf32>, %side: memref<1024xf32>, %out: memref<16xf32>) {
  %big = mplan.alloc_tensor id(0) -> memref<1024xf32>
  linalg.map { math.absf } ins(%in : memref<1024xf32>) outs(%big : memref<1024xf32>)
  %v = mplan.view %big[0] : memref<1024xf32> to memref<16xf32, strided<[1]>>
  %s = mplan.alloc_tensor id(1) -> memref<16xf32>
  memref.copy %v, %s : memref<16xf32, strided<[1]>> to memref<16xf32>
  %t = mplan.alloc_tensor id(2) -> memref<1024xf32>
  linalg.map { math.exp } ins(%side : memref<1024xf32>) outs(%t : memref<1024xf32>)
  linalg.copy ins(%t : memref<1024xf32>) outs(%side : memref<1024xf32>)
  linalg.copy ins(%s : memref<16xf32>) outs(%out : memref<16xf32>)
  return
}
