// RUN: mplan-opt %s --split-input-file --mplan-to-llvm | FileCheck %s

// mplan-to-llvm lowers memref.realloc (which finalize-memref-to-llvm leaves alone) with
// upstream's expand-realloc: keep the buffer if it does not grow, else allocate, copy and
// free the operand (as realloc(3) does).

// A static growth: always a new buffer.
// CHECK-LABEL: llvm.func @grow(
// CHECK-NOT: memref.realloc
// CHECK: llvm.call @malloc(
// CHECK: "llvm.intr.memcpy"
// CHECK: llvm.call @free(
// CHECK: llvm.return
func.func @grow(%a: memref<2xf32>) -> memref<4xf32> {
  %b = memref.realloc %a : memref<2xf32> to memref<4xf32>
  return %b : memref<4xf32>
}

// -----

// A dynamic size: compared at run time.
// CHECK-LABEL: llvm.func @dynamic(
// CHECK-NOT: memref.realloc
// CHECK: llvm.icmp "ult"
// CHECK: llvm.call @malloc(
// CHECK: "llvm.intr.memcpy"
// CHECK: llvm.call @free(
// CHECK: llvm.return
func.func @dynamic(%a: memref<?xf32>, %n: index) -> memref<?xf32> {
  %b = memref.realloc %a(%n) : memref<?xf32> to memref<?xf32>
  return %b : memref<?xf32>
}
