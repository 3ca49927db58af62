// RUN: mplan-opt %s --split-input-file --mplan-plan-pipeline="sequence=program inplace=false capacity=default:600" -verify-diagnostics -o /dev/null

// Each function keeps three 256-byte buffers live at one op, above a capacity
// of 600 bytes, and the one buffer the op at the peak does not use (%x, read
// early and late) must not be rematerialized: the capacity error says why
// at the buffer.

// An input of the writer (the argument %a) is written between the writer and
// the later use: recomputing %x there would read the new bytes.
// expected-error @below {{needs 768 bytes}}
// expected-note @below {{3 buffers live at op}}
func.func @input_written(%a: memref<64xf32>, %b: memref<64xf32>, %out: memref<64xf32>) {
  // expected-note @below {{buffer 0 is not split: not recomputable: an input of its writer may be written before its later use; no offload from its memory space}}
  %x = memref.alloc() : memref<64xf32>
  linalg.map { math.absf } ins(%a : memref<64xf32>) outs(%x : memref<64xf32>)
  // expected-note @below {{buffer 1 is not split: the op at the peak uses it}}
  %y = memref.alloc() : memref<64xf32>
  // expected-note @below {{the op floor is 512 bytes}}
  linalg.map { math.exp } ins(%x : memref<64xf32>) outs(%y : memref<64xf32>)
  // expected-note @below {{buffer 2 is not split: the op at the peak uses it}}
  %z = memref.alloc() : memref<64xf32>
  linalg.map { arith.negf } ins(%y : memref<64xf32>) outs(%z : memref<64xf32>)
  memref.copy %b, %a : memref<64xf32> to memref<64xf32>
  linalg.map { arith.addf } ins(%x, %z : memref<64xf32>, memref<64xf32>) outs(%out : memref<64xf32>)
  return
}

// -----

// The first writer reads what the buffer held (uninitialized here): running
// it again on a fresh buffer would read other bytes.
// expected-error @below {{needs 768 bytes}}
// expected-note @below {{3 buffers live at op}}
func.func @first_writer_reads(%a: memref<64xf32>, %out: memref<64xf32>) {
  // expected-note @below {{buffer 0 is not split: not recomputable: its first writer does not overwrite all of it}}
  %x = memref.alloc() : memref<64xf32>
  linalg.map { arith.addf } ins(%a, %x : memref<64xf32>, memref<64xf32>) outs(%x : memref<64xf32>)
  // expected-note @below {{buffer 1 is not split}}
  %y = memref.alloc() : memref<64xf32>
  // expected-note @below {{the op floor is 512 bytes}}
  linalg.map { math.exp } ins(%x : memref<64xf32>) outs(%y : memref<64xf32>)
  // expected-note @below {{buffer 2 is not split}}
  %z = memref.alloc() : memref<64xf32>
  linalg.map { arith.negf } ins(%y : memref<64xf32>) outs(%z : memref<64xf32>)
  linalg.map { arith.addf } ins(%x, %z : memref<64xf32>, memref<64xf32>) outs(%out : memref<64xf32>)
  return
}

// -----

// Written again after it is first read: the writers before the peak are not
// the ones that made the bytes read after it.
// expected-error @below {{needs 768 bytes}}
// expected-note @below {{3 buffers live at op}}
func.func @written_after_read(%a: memref<64xf32>, %out: memref<64xf32>) {
  %c0 = arith.constant 0 : index
  %one = arith.constant 1.0 : f32
  // expected-note @below {{buffer 0 is not split: not recomputable: it is written again after it is first read}}
  %x = memref.alloc() : memref<64xf32>
  linalg.map { math.absf } ins(%a : memref<64xf32>) outs(%x : memref<64xf32>)
  // expected-note @below {{buffer 1 is not split}}
  %y = memref.alloc() : memref<64xf32>
  // expected-note @below {{the op floor is 512 bytes}}
  linalg.map { math.exp } ins(%x : memref<64xf32>) outs(%y : memref<64xf32>)
  memref.store %one, %x[%c0] : memref<64xf32>
  // expected-note @below {{buffer 2 is not split}}
  %z = memref.alloc() : memref<64xf32>
  linalg.map { arith.negf } ins(%y : memref<64xf32>) outs(%z : memref<64xf32>)
  linalg.map { arith.addf } ins(%x, %z : memref<64xf32>, memref<64xf32>) outs(%out : memref<64xf32>)
  return
}

