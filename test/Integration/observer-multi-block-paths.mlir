// A plan that is correct only path by path (written by hand, in the form
// convert-mplan-to-memref produces): buffer 0 is read in both branches, and each branch
// reuses its bytes after its own last read of it (buffer 2 in ^bb1, buffer 4 in ^bb2).
// In the CFG loop, buffer 5 is defined and dies in every iteration, on bytes of buffers
// dead by then. The observer ends each region where the buffer is dead on the path
// taken: no error, on either path.
// REQUIRES: mplan-runtime
//
// RUN: mplan-opt %s --mplan-instrument --mplan-to-llvm \
// RUN:   | env MPLAN_RT_OUTPUT=stdout mlir-runner -e main -entry-point-result=void \
// RUN:       -shared-libs=%mlir_runner_libs,%mplan_runtime \
// RUN:   | FileCheck %s

// x = [0, 0.25, 0.5, 0.75]; (2x+1)^2, then 3 times r -> r + r/2:
// CHECK: [3.375,  7.59375,  13.5,  21.0938]
// 2x-3, then the same:
// CHECK: [-10.125,  -8.4375,  -6.75,  -5.0625]
// CHECK-NOT: mplan-rt: error
// CHECK: mplan-rt: planned buffers 12, errors 0
// CHECK: mplan-rt: @paths: calls 2, heap allocs 2 (1.00/call), frees 2, stack allocs 0, static arenas 0, planned buffers 12,

#id = affine_map<(d0) -> (d0)>

func.func @paths(%x: memref<4xf32>, %c: i1, %out: memref<4xf32>) {
  %c0 = arith.constant 0 : index
  %c16 = arith.constant 16 : index
  %arena = memref.alloc() {alignment = 64 : i64, mplan.arena} : memref<32xi8>
  %a = memref.view %arena[%c0][] {mplan.buffer_id = 0 : i64} : memref<32xi8> to memref<4xf32>
  linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel"]}
      ins(%x : memref<4xf32>) outs(%a : memref<4xf32>) {
  ^bb0(%v: f32, %o: f32):
    %two = arith.constant 2.0 : f32
    %r = arith.mulf %v, %two : f32
    linalg.yield %r : f32
  }
  cf.cond_br %c, ^bb1, ^bb2
^bb1:
  %b = memref.view %arena[%c16][] {mplan.buffer_id = 1 : i64} : memref<32xi8> to memref<4xf32>
  linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel"]}
      ins(%a : memref<4xf32>) outs(%b : memref<4xf32>) {
  ^bb0(%v: f32, %o: f32):
    %one = arith.constant 1.0 : f32
    %r = arith.addf %v, %one : f32
    linalg.yield %r : f32
  }
  // Buffer 0 is dead on this path: buffer 2 takes its bytes.
  %d = memref.view %arena[%c0][] {mplan.buffer_id = 2 : i64} : memref<32xi8> to memref<4xf32>
  linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel"]}
      ins(%b : memref<4xf32>) outs(%d : memref<4xf32>) {
  ^bb0(%v: f32, %o: f32):
    %r = arith.mulf %v, %v : f32
    linalg.yield %r : f32
  }
  cf.br ^bb3(%d : memref<4xf32>)
^bb2:
  %f = memref.view %arena[%c16][] {mplan.buffer_id = 3 : i64} : memref<32xi8> to memref<4xf32>
  linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel"]}
      ins(%a : memref<4xf32>) outs(%f : memref<4xf32>) {
  ^bb0(%v: f32, %o: f32):
    %three = arith.constant 3.0 : f32
    %r = arith.subf %v, %three : f32
    linalg.yield %r : f32
  }
  // Buffer 0 is dead on this path too: buffer 4 takes its bytes.
  %g = memref.view %arena[%c0][] {mplan.buffer_id = 4 : i64} : memref<32xi8> to memref<4xf32>
  memref.copy %f, %g : memref<4xf32> to memref<4xf32>
  cf.br ^bb3(%g : memref<4xf32>)
^bb3(%m: memref<4xf32>):
  memref.copy %m, %out : memref<4xf32> to memref<4xf32>
  %i0 = arith.constant 0 : index
  cf.br ^loop(%i0 : index)
^loop(%i: index):
  // A new buffer in every iteration, on the bytes of buffers 0, 2 and 4 (all dead).
  %h = memref.view %arena[%c0][] {mplan.buffer_id = 5 : i64} : memref<32xi8> to memref<4xf32>
  linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel"]}
      ins(%out : memref<4xf32>) outs(%h : memref<4xf32>) {
  ^bb0(%v: f32, %o: f32):
    %half = arith.constant 0.5 : f32
    %r = arith.mulf %v, %half : f32
    linalg.yield %r : f32
  }
  linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel"]}
      ins(%h : memref<4xf32>) outs(%out : memref<4xf32>) {
  ^bb0(%v: f32, %o: f32):
    %r = arith.addf %v, %o : f32
    linalg.yield %r : f32
  }
  %c1 = arith.constant 1 : index
  %n = arith.constant 3 : index
  %next = arith.addi %i, %c1 : index
  %more = arith.cmpi slt, %next, %n : index
  cf.cond_br %more, ^loop(%next : index), ^exit
^exit:
  memref.dealloc %arena : memref<32xi8>
  return
}

func.func private @printMemrefF32(memref<*xf32>)

func.func @main() {
  %x = memref.alloc() : memref<4xf32>
  %out = memref.alloc() : memref<4xf32>
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  scf.for %i = %c0 to %c4 step %c1 {
    %ii = arith.index_cast %i : index to i32
    %f = arith.sitofp %ii : i32 to f32
    %q = arith.constant 0.25 : f32
    %v = arith.mulf %f, %q : f32
    memref.store %v, %x[%i] : memref<4xf32>
  }
  %u = memref.cast %out : memref<4xf32> to memref<*xf32>
  %t = arith.constant true
  call @paths(%x, %t, %out) : (memref<4xf32>, i1, memref<4xf32>) -> ()
  call @printMemrefF32(%u) : (memref<*xf32>) -> ()
  %f = arith.constant false
  call @paths(%x, %f, %out) : (memref<4xf32>, i1, memref<4xf32>) -> ()
  call @printMemrefF32(%u) : (memref<*xf32>) -> ()
  memref.dealloc %x : memref<4xf32>
  memref.dealloc %out : memref<4xf32>
  return
}
