// RUN: mplan-opt %s --mplan-plan-pipeline="sequence=program inplace=false capacity=default:600 remat=false" -verify-diagnostics -o /dev/null
// RUN: not mplan-opt %s --mplan-plan-pipeline="sequence=program inplace=false capacity=default:400" -o /dev/null 2>&1 | FileCheck %s --check-prefix=TILE
// RUN: mplan-opt %s --mplan-plan-pipeline="sequence=program inplace=false capacity=default:600" | FileCheck %s --check-prefix=REMAT

// A capacity below the bound names the op floor, the most bytes of planned
// buffers one op touches itself, at that op: here the maps touch two 256-byte
// buffers while %x (filled first, read last) keeps three live. At 600 bytes
// the floor (512) is below the capacity (an order, recomputation or offload
// could reach it, and with rematerialization on, the default, recomputing
// the fill of %x right before its last use does); at 400 it is above, and
// only tiling the op would (nothing is split, then). The error and its notes come without the
// function printed after them.

// expected-error @below {{memory space 'default' of function 'floor' needs 768 bytes}}
// expected-note @below {{3 buffers live at op}}
func.func @floor(%in: memref<64xf32>, %out: memref<64xf32>) {
  %zero = arith.constant 0.0 : f32
  // expected-note @below {{buffer 0 is not split: rematerialization is off; no offload from its memory space}}
  %x = memref.alloc() : memref<64xf32>
  linalg.fill ins(%zero : f32) outs(%x : memref<64xf32>)
  // expected-note @below {{buffer 1 is not split: the op at the peak uses it}}
  %a = memref.alloc() : memref<64xf32>
  // expected-note @below {{buffer 2 is not split: the op at the peak uses it}}
  %b = memref.alloc() : memref<64xf32>
  linalg.map { math.absf } ins(%in : memref<64xf32>) outs(%a : memref<64xf32>)
  // expected-note @below {{the op floor is 512 bytes: this op touches that many bytes of the space's planned buffers at once, which no order, recomputation or offload goes below}}
  linalg.map { math.exp } ins(%a : memref<64xf32>) outs(%b : memref<64xf32>)
  linalg.map { arith.addf } ins(%x, %b : memref<64xf32>, memref<64xf32>) outs(%out : memref<64xf32>)
  return
}

// TILE: error: memory space 'default' of function 'floor' needs 768 bytes
// TILE-NOT: see current operation
// TILE: note: 3 buffers live at op
// TILE-NOT: is not split
// TILE: note: the op floor is 512 bytes: {{.*}}; a capacity below it needs the op tiled
// TILE-NEXT: linalg.map { math.exp }

// REMAT: mplan.splits = [{{.*}}kind = "remat"
// REMAT: mplan.alloc_slab {capacity = 600 : i64} : <512, 64>
