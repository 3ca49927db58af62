// RUN: mplan-opt %s -split-input-file -allow-unregistered-dialect -test-mplan-aliases-agree -o /dev/null
// RUN: mplan-opt %S/liveness.mlir -split-input-file -allow-unregistered-dialect -test-mplan-aliases-agree -o /dev/null
// RUN: mplan-opt %S/liveness-updates.mlir -split-input-file -allow-unregistered-dialect -test-mplan-aliases-agree -o /dev/null
// RUN: mplan-opt %S/points-to.mlir -split-input-file -allow-unregistered-dialect -test-mplan-aliases-agree -o /dev/null

// One alias truth: a buffer's aliases (BufferLiveness) are the values the
// points-to analysis lets point into it, closed under the flow edges both
// follow (forEachPointerFlow) except into results their op allocates. The
// pass fails on the first value that breaks this; it runs here on shapes of
// every edge kind and on the inputs of the analysis tests.

func.func private @keep(memref<4xf32>) -> memref<4xf32>
func.func @edges(%arg0: memref<4xf32>, %n: index, %c: i1,
                 %idx: index) -> memref<4xf32> {
  %a = memref.alloc() : memref<16xf32>
  %v = memref.subview %a[4] [4] [1] : memref<16xf32> to memref<4xf32, strided<[1], offset: 4>>
  %cast = memref.cast %v : memref<4xf32, strided<[1], offset: 4>> to memref<4xf32, strided<[1], offset: ?>>
  %b = memref.alloc() : memref<4xf32>
  %s = arith.select %c, %b, %arg0 : memref<4xf32>
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %r:2 = scf.for %i = %c0 to %n step %c1 iter_args(%x = %s, %y = %arg0)
      -> (memref<4xf32>, memref<4xf32>) {
    scf.yield %y, %x : memref<4xf32>, memref<4xf32>
  }
  %w = scf.while (%p = %r#0) : (memref<4xf32>) -> memref<4xf32> {
    scf.condition(%c) %p : memref<4xf32>
  } do {
  ^bb0(%q: memref<4xf32>):
    scf.yield %q : memref<4xf32>
  }
  %clone = bufferization.clone %w : memref<4xf32> to memref<4xf32>
  %mm = memref.alloc() : memref<memref<4xf32>>
  memref.store %clone, %mm[] : memref<memref<4xf32>>
  %m = memref.load %mm[] : memref<memref<4xf32>>
  %k = func.call @keep(%m) : (memref<4xf32>) -> memref<4xf32>
  %u = "test.unknown"(%cast) : (memref<4xf32, strided<[1], offset: ?>>) -> memref<4xf32>
  cf.cond_br %c, ^bb1(%u : memref<4xf32>), ^bb1(%k : memref<4xf32>)
^bb1(%z: memref<4xf32>):
  return %z : memref<4xf32>
}
