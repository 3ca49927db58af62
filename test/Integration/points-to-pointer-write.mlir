// A write through an !llvm.ptr made from the argument's address (extract_aligned_pointer_as_index,
// inttoptr, llvm.store) while a copy out of the argument is live: the copy must stay. An effect on
// a value that is not a memref points to unknown memory (PointsToAnalysis::getTargets); it was
// once taken for "points nowhere" and the copy became a view of the argument.
//
// RUN: mlir-opt %s %lower_to_llvm \
// RUN:   | mlir-runner -O3 -e main -entry-point-result=void -shared-libs=%mlir_runner_libs > %t.base
// RUN: mplan-opt %s --mplan-plan-pipeline --mplan-verify-plan -o %t.planned.mlir
// RUN: mplan-opt %t.planned.mlir --convert-mplan-to-memref="arena=heap" --mplan-to-llvm \
// RUN:   | mlir-runner -O3 -e main -entry-point-result=void -shared-libs=%mlir_runner_libs > %t.heap
// RUN: diff %t.base %t.heap
// RUN: mplan-opt %t.planned.mlir --convert-mplan-to-memref="arena=global" --mplan-to-llvm \
// RUN:   | mlir-runner -O3 -e main -entry-point-result=void -shared-libs=%mlir_runner_libs > %t.global
// RUN: diff %t.base %t.global
// RUN: mplan-opt %t.planned.mlir --convert-mplan-to-memref="arena=argument" --mplan-to-llvm \
// RUN:   | mlir-runner -O3 -e main -entry-point-result=void -shared-libs=%mlir_runner_libs > %t.argument
// RUN: diff %t.base %t.argument

func.func @f(%arg0: memref<4xf32>) {
  %c0 = arith.constant 0 : index
  %x = memref.alloc() : memref<4xf32>
  memref.copy %arg0, %x : memref<4xf32> to memref<4xf32>
  %p = memref.extract_aligned_pointer_as_index %arg0 : memref<4xf32> -> index
  %i = arith.index_cast %p : index to i64
  %ptr = llvm.inttoptr %i : i64 to !llvm.ptr
  %nine = llvm.mlir.constant(9.0 : f32) : f32
  llvm.store %nine, %ptr : f32, !llvm.ptr
  %v = memref.load %x[%c0] : memref<4xf32>
  vector.print %v : f32
  memref.dealloc %x : memref<4xf32>
  return
}
func.func @main() {
  %a = memref.alloc() : memref<4xf32>
  %five = arith.constant 5.0 : f32
  linalg.fill ins(%five : f32) outs(%a : memref<4xf32>)
  call @f(%a) : (memref<4xf32>) -> ()
  memref.dealloc %a : memref<4xf32>
  return
}
