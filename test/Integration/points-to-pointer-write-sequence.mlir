// Sequencing with a write through an !llvm.ptr made from an argument's address: the store must
// stay before the reads of those bytes. An effect on a value that is not a memref touches unknown
// memory in the dependence graph; it once had no location and sank to the return.
//
// RUN: mlir-opt %s %lower_to_llvm \
// RUN:   | mlir-runner -O3 -e main -entry-point-result=void -shared-libs=%mlir_runner_libs > %t.base
// RUN: mplan-opt %s --mplan-plan-pipeline="sequence=best" --mplan-verify-plan -o %t.planned.mlir
// RUN: mplan-opt %t.planned.mlir --convert-mplan-to-memref="arena=heap" --mplan-to-llvm \
// RUN:   | mlir-runner -O3 -e main -entry-point-result=void -shared-libs=%mlir_runner_libs > %t.heap
// RUN: diff %t.base %t.heap
// RUN: mplan-opt %t.planned.mlir --convert-mplan-to-memref="arena=global" --mplan-to-llvm \
// RUN:   | mlir-runner -O3 -e main -entry-point-result=void -shared-libs=%mlir_runner_libs > %t.global
// RUN: diff %t.base %t.global
// RUN: mplan-opt %t.planned.mlir --convert-mplan-to-memref="arena=argument" --mplan-to-llvm \
// RUN:   | mlir-runner -O3 -e main -entry-point-result=void -shared-libs=%mlir_runner_libs > %t.argument
// RUN: diff %t.base %t.argument

func.func @two_branches(%in: memref<256xf32>, %out: memref<2xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %p = memref.extract_aligned_pointer_as_index %in : memref<256xf32> -> index
  %pi = arith.index_cast %p : index to i64
  %ptr = llvm.inttoptr %pi : i64 to !llvm.ptr
  %big = llvm.mlir.constant(1000.0 : f32) : f32
  llvm.store %big, %ptr : f32, !llvm.ptr
  %x = memref.alloc() : memref<256xf32>
  linalg.map { math.absf } ins(%in : memref<256xf32>) outs(%x : memref<256xf32>)
  %a = memref.alloc() : memref<256xf32>
  linalg.map { math.exp } ins(%x : memref<256xf32>) outs(%a : memref<256xf32>)
  %b = memref.alloc() : memref<256xf32>
  linalg.map { math.sin } ins(%x : memref<256xf32>) outs(%b : memref<256xf32>)
  %c = memref.alloc() : memref<f32>
  %zc = arith.constant 0.0 : f32
  linalg.fill ins(%zc : f32) outs(%c : memref<f32>)
  linalg.reduce { arith.addf } ins(%a : memref<256xf32>) outs(%c : memref<f32>) dimensions = [0]
  %d = memref.alloc() : memref<f32>
  linalg.fill ins(%zc : f32) outs(%d : memref<f32>)
  linalg.reduce { arith.addf } ins(%b : memref<256xf32>) outs(%d : memref<f32>) dimensions = [0]
  %vc = memref.load %c[] : memref<f32>
  memref.store %vc, %out[%c0] : memref<2xf32>
  %vd = memref.load %d[] : memref<f32>
  memref.store %vd, %out[%c1] : memref<2xf32>
  return
}
func.func @main() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %in = memref.alloc() : memref<256xf32>
  %out = memref.alloc() : memref<2xf32>
  %z = arith.constant 0.0 : f32
  linalg.fill ins(%z : f32) outs(%in : memref<256xf32>)
  linalg.fill ins(%z : f32) outs(%out : memref<2xf32>)
  call @two_branches(%in, %out) : (memref<256xf32>, memref<2xf32>) -> ()
  %r0 = memref.load %out[%c0] : memref<2xf32>
  %r1 = memref.load %out[%c1] : memref<2xf32>
  vector.print %r0 : f32
  vector.print %r1 : f32
  return
}
