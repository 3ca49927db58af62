// RUN: mplan-opt %s --mplan-plan-pipeline="inplace=false capacity=default:300" -verify-diagnostics -o /dev/null

// The loop and the copy in its body touch the same two 256-byte buffers: the
// op floor (512 bytes) names the copy, the innermost of the ops that touch
// the most (the one tiling would split), not the loop around it.

// expected-error @below {{memory space 'default' of function 'floor_nested' needs 512 bytes}}
// expected-note @below {{2 buffers live at op}}
func.func @floor_nested(%in: memref<64xf32>, %out: memref<64xf32>, %n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %zero = arith.constant 0.0 : f32
  %a = memref.alloc() : memref<64xf32>
  %b = memref.alloc() : memref<64xf32>
  linalg.fill ins(%zero : f32) outs(%a : memref<64xf32>)
  linalg.fill ins(%zero : f32) outs(%b : memref<64xf32>)
  %r:2 = scf.for %i = %c0 to %n step %c1 iter_args(%x = %a, %y = %b) -> (memref<64xf32>, memref<64xf32>) {
    // expected-note @below {{the op floor is 512 bytes}}
    memref.copy %x, %y : memref<64xf32> to memref<64xf32>
    scf.yield %x, %y : memref<64xf32>, memref<64xf32>
  }
  memref.copy %r#0, %out : memref<64xf32> to memref<64xf32>
  return
}
