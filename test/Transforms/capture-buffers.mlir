// RUN: mplan-opt %s --split-input-file --mplan-capture-buffers="remarks=true" -verify-diagnostics | FileCheck %s

// Without deallocs: static allocs become unplanned alloc_tensors with fresh
// ids; the dynamic one, without an upper bound but with a size known where
// the function starts, an unplanned alloc_dynamic; the returned one stays a
// heap allocation.
// CHECK-LABEL: func @no_deallocs
// CHECK: mplan.alloc_tensor id(0) -> memref<4xf32>
// CHECK: mplan.alloc_tensor id(1) -> memref<4xf32>
// CHECK: mplan.alloc_dynamic id(2) (%arg1) -> memref<?xf32>
// CHECK: memref.alloc() {mplan.unplanned = "escapes via return"}
func.func @no_deallocs(%arg0: memref<4xf32>, %n: index) -> memref<4xf32> {
  %a = memref.alloc() : memref<4xf32>
  memref.copy %arg0, %a : memref<4xf32> to memref<4xf32>
  %b = memref.alloc() : memref<4xf32>
  memref.copy %a, %b : memref<4xf32> to memref<4xf32>
  // expected-remark @below {{buffer sized at run time: dynamic shape: no upper bound for dimension 0 (state one with}}
  %d = memref.alloc(%n) : memref<?xf32>
  // expected-remark @below {{buffer left unplanned: escapes via return}}
  %r = memref.alloc() : memref<4xf32>
  memref.copy %b, %r : memref<4xf32> to memref<4xf32>
  return %r : memref<4xf32>
}

// -----

// memref.dealloc of a captured buffer disappears with it; the dealloc of the
// unplanned buffer (dynamic, with a size read from memory: neither bounded
// nor computable where the function starts) stays.
// CHECK-LABEL: func @memref_dealloc
// CHECK: mplan.alloc_tensor id(0)
// CHECK: %[[D:.*]] = memref.alloc(%{{.*}}) {mplan.unplanned = "dynamic shape: no upper bound for dimension 0 {{.*}}; nor can it be sized at run time: dynamic size #0 is not computable where the function starts (it depends on 'memref.load', which may read memory, have effects or not be speculatable)"}
// CHECK-NOT: memref.dealloc %{{.*}} : memref<4xf32>
// CHECK: memref.dealloc %[[D]] : memref<?xf32>
// CHECK-NOT: memref.dealloc
func.func @memref_dealloc(%arg0: memref<4xf32>, %size: memref<index>) {
  %a = memref.alloc() : memref<4xf32>
  memref.copy %arg0, %a : memref<4xf32> to memref<4xf32>
  %n = memref.load %size[] : memref<index>
  // expected-remark @below {{buffer left unplanned: dynamic shape}}
  %d = memref.alloc(%n) : memref<?xf32>
  memref.dealloc %a : memref<4xf32>
  memref.dealloc %d : memref<?xf32>
  return
}

// -----

// bufferization.dealloc: the captured buffer and its condition are removed,
// the others kept; a dealloc left with nothing to free is erased and its
// ownership results become false.
// CHECK-LABEL: func @bufferization_dealloc
// CHECK: %[[A:.*]] = mplan.alloc_tensor id(0)
// CHECK: %[[D:.*]] = memref.alloc
// CHECK: %[[B:.*]] = mplan.alloc_tensor id(1)
// CHECK: bufferization.dealloc (%[[D]] : memref<?xf32>) if (%arg3)
// CHECK-NEXT: %[[F:.*]] = arith.constant false
// CHECK-NEXT: return %[[F]]
func.func @bufferization_dealloc(%arg0: memref<4xf32>, %size: memref<index>, %c1: i1, %c2: i1, %c3: i1) -> i1 {
  %a = memref.alloc() : memref<4xf32>
  memref.copy %arg0, %a : memref<4xf32> to memref<4xf32>
  %n = memref.load %size[] : memref<index>
  // expected-remark @below {{buffer left unplanned: dynamic shape}}
  %d = memref.alloc(%n) : memref<?xf32>
  %b = memref.alloc() : memref<4xf32>
  memref.copy %arg0, %b : memref<4xf32> to memref<4xf32>
  bufferization.dealloc (%a, %d : memref<4xf32>, memref<?xf32>) if (%c1, %c2)
  %o = bufferization.dealloc (%b : memref<4xf32>) if (%c3) retain (%arg0 : memref<4xf32>)
  return %o : i1
}

// -----

// The lowered form (--bufferization-lower-deallocations): scf.if on the
// ownership and a dealloc of the base buffer; all of it disappears.
// CHECK-LABEL: func @lowered_dealloc
// CHECK: mplan.alloc_tensor id(0) -> memref<2x2xf32>
// CHECK-NOT: extract_strided_metadata
// CHECK-NOT: scf.if
// CHECK-NOT: memref.dealloc
// CHECK: return
func.func @lowered_dealloc(%arg0: memref<4xf32>, %own: i1) {
  %a = memref.alloc() : memref<2x2xf32>
  %c = memref.collapse_shape %a [[0, 1]] : memref<2x2xf32> into memref<4xf32>
  memref.copy %arg0, %c : memref<4xf32> to memref<4xf32>
  %base, %off, %sz:2, %st:2 = memref.extract_strided_metadata %a : memref<2x2xf32> -> memref<f32>, index, index, index, index, index
  scf.if %own {
    memref.dealloc %base : memref<f32>
  }
  return
}

// -----

// Allocations in sequential loop bodies and branches are captured; those in
// parallel bodies are not.
// CHECK-LABEL: func @nested
// CHECK: scf.for
// CHECK: mplan.alloc_tensor id(0)
// CHECK: scf.if
// CHECK: mplan.alloc_tensor id(1)
// CHECK: scf.parallel
// CHECK: memref.alloc() {mplan.unplanned = "allocated inside 'scf.parallel', whose iterations may run concurrently"}
func.func @nested(%arg0: memref<4xf32>, %n: index, %c: i1) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  scf.for %i = %c0 to %n step %c1 {
    %t = memref.alloc() : memref<4xf32>
    memref.copy %arg0, %t : memref<4xf32> to memref<4xf32>
    memref.dealloc %t : memref<4xf32>
  }
  scf.if %c {
    %u = memref.alloc() : memref<4xf32>
    memref.copy %arg0, %u : memref<4xf32> to memref<4xf32>
  }
  scf.parallel (%j) = (%c0) to (%n) step (%c1) {
    // expected-remark @below {{buffer left unplanned: allocated inside 'scf.parallel', whose iterations may run concurrently}}
    %p = memref.alloc() : memref<4xf32>
    memref.copy %arg0, %p : memref<4xf32> to memref<4xf32>
    scf.reduce
  }
  return
}

// -----

// A dealloc through a select of two buffers cannot be removed: both stay.
// CHECK-LABEL: func @merged_dealloc
// CHECK-NOT: mplan.alloc_tensor
func.func @merged_dealloc(%arg0: memref<4xf32>, %c: i1) {
  // expected-remark @below {{buffer left unplanned: deallocated by 'memref.dealloc' through a value that may alias other buffers}}
  %a = memref.alloc() : memref<4xf32>
  // expected-remark @below {{buffer left unplanned: deallocated by 'memref.dealloc' through a value that may alias other buffers}}
  %b = memref.alloc() : memref<4xf32>
  %s = arith.select %c, %a, %b : memref<4xf32>
  memref.copy %arg0, %s : memref<4xf32> to memref<4xf32>
  memref.dealloc %s : memref<4xf32>
  return
}

// -----

// The same through bufferization.dealloc of the select's base buffer (the form upstream's
// ownership-based deallocation gives): the reason names the op that frees, not the
// memref.extract_strided_metadata in between (issue 30).
// CHECK-LABEL: func @merged_bufferization_dealloc
// CHECK-NOT: mplan.alloc_tensor
func.func @merged_bufferization_dealloc(%arg0: memref<4xf32>, %c: i1) {
  // expected-remark @below {{buffer left unplanned: deallocated by 'bufferization.dealloc' through a value that may alias other buffers}}
  %a = memref.alloc() : memref<4xf32>
  // expected-remark @below {{buffer left unplanned: deallocated by 'bufferization.dealloc' through a value that may alias other buffers}}
  %b = memref.alloc() : memref<4xf32>
  %s = arith.select %c, %a, %b : memref<4xf32>
  memref.copy %arg0, %s : memref<4xf32> to memref<4xf32>
  %base, %offset, %size, %stride = memref.extract_strided_metadata %s : memref<4xf32> -> memref<f32>, index, index, index
  %true = arith.constant true
  bufferization.dealloc (%base : memref<f32>) if (%true)
  return
}
