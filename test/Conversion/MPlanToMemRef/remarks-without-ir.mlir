// RUN: mplan-opt %s --mplan-plan-pipeline="remarks=true" --convert-mplan-to-memref="arena=shared-global" -o /dev/null 2>&1 | FileCheck %s --implicit-check-not="see current operation"

// A remark is one located line: the op it is about (here a whole function) is
// not printed after it.
// CHECK: remarks-without-ir.mlir:[[# @LINE + 6]]:8: remark: buffer left unplanned: escapes via return
// CHECK: remarks-without-ir.mlir:[[# @LINE + 1]]:1: remark: public function 'callee' keeps its signature
func.func @callee(%x: f32) -> memref<4xf32> {
  %a = memref.alloc() : memref<16xf32>
  linalg.fill ins(%x : f32) outs(%a : memref<16xf32>)
  memref.dealloc %a : memref<16xf32>
  %r = memref.alloc() : memref<4xf32>
  linalg.fill ins(%x : f32) outs(%r : memref<4xf32>)
  return %r : memref<4xf32>
}
func.func @caller(%x: f32) {
  %b = memref.alloc() : memref<16xf32>
  linalg.fill ins(%x : f32) outs(%b : memref<16xf32>)
  %r = call @callee(%x) : (f32) -> memref<4xf32>
  memref.dealloc %b : memref<16xf32>
  memref.dealloc %r : memref<4xf32>
  return
}
