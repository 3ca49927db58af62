// RUN: mplan-opt %s --verify-diagnostics --mplan-plan-pipeline="capacity=default:128" \
// RUN:   --convert-mplan-to-memref="arena=argument" -o /dev/null
// RUN: mplan-opt %s --mplan-plan-pipeline="capacity=default:192" \
// RUN:   --convert-mplan-to-memref="arena=argument" | FileCheck %s

// The capacity reaches the lowering from the pipeline (the slab records it): @callee
// (128 bytes) and @caller (64 bytes) each fit capacity=default:128, but @caller's arena
// with @callee's nested in it, past the buffer live across the call, takes 192.
// CHECK-LABEL: func.func @caller(
// CHECK-SAME: memref<192xi8> {llvm.noalias, mplan.arena}
func.func @callee(%x: f32, %out: memref<32xf32>) {
  %t = memref.alloc() : memref<32xf32>
  linalg.fill ins(%x : f32) outs(%t : memref<32xf32>)
  linalg.map { math.exp } ins(%t : memref<32xf32>) outs(%out : memref<32xf32>)
  memref.dealloc %t : memref<32xf32>
  return
}

func.func @caller(%x: f32, %out: memref<32xf32>, %r: memref<f32>) {
  %c0 = arith.constant 0 : index
  %a = memref.alloc() : memref<16xf32>
  linalg.fill ins(%x : f32) outs(%a : memref<16xf32>)
  // expected-error @below {{the arena of 'caller' (64 bytes) would need 192 bytes to hold the arena of 'callee' (128 bytes) at this call, above the capacity of 128 bytes of memory space 'default'}}
  func.call @callee(%x, %out) : (f32, memref<32xf32>) -> ()
  %v = memref.load %a[%c0] : memref<16xf32>
  memref.store %v, %r[] : memref<f32>
  memref.dealloc %a : memref<16xf32>
  return
}
