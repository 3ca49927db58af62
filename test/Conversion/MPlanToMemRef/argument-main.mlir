// RUN: mplan-opt %s --convert-mplan-to-memref="arena=argument" | FileCheck %s
// RUN: mplan-opt %s --convert-mplan-to-memref="arena=argument functions=main,inner" \
// RUN:   | FileCheck %s --check-prefix=NAMED

// Default functions=: @main is the program's entry point (mlir-runner or a C runtime calls
// it with no arena), so it keeps a heap arena even though it has a slab, and hands @inner
// a slice of it. Named explicitly, it takes its arena like any other function.

// CHECK-LABEL: func.func @inner(
// CHECK-SAME:    memref<128xi8> {llvm.noalias, mplan.arena})
func.func @inner(%x: f32) {
  %slab = mplan.alloc_slab : !mplan.slab<128, 64>
  %a = mplan.alloc_tensor id(0) live [1, 2) at %slab[0] : !mplan.slab<128, 64> -> memref<32xf32>
  linalg.fill ins(%x : f32) outs(%a : memref<32xf32>)
  mplan.release_slab %slab : !mplan.slab<128, 64>
  return
}

// CHECK-LABEL: func.func @main() {
// CHECK:         %[[H:.*]] = memref.alloc() {alignment = 64 : i64, mplan.arena} : memref<192xi8>
// CHECK:         %[[S:.*]] = memref.view %[[H]][%{{.*}}][] {mplan.buffer_id = 1 : i64{{.*}}} : memref<192xi8> to memref<128xi8>
// CHECK-NEXT:    call @inner(%{{.*}}, %[[S]]) : (f32, memref<128xi8>) -> ()
// CHECK:         memref.dealloc %[[H]] : memref<192xi8>
// CHECK-NOT:   func.func @main_arena_size
// NAMED-LABEL: func.func @main(
// NAMED-SAME:    memref<192xi8> {llvm.noalias, mplan.arena})
// NAMED-LABEL: func.func @main_arena_size() -> index
func.func @main() {
  %x = arith.constant 1.0 : f32
  %slab = mplan.alloc_slab : !mplan.slab<64, 64>
  %a = mplan.alloc_tensor id(0) live [1, 5) at %slab[0] : !mplan.slab<64, 64> -> memref<16xf32>
  linalg.fill ins(%x : f32) outs(%a : memref<16xf32>)
  call @inner(%x) : (f32) -> ()
  %c0 = arith.constant 0 : index
  %v = memref.load %a[%c0] : memref<16xf32>
  mplan.release_slab %slab : !mplan.slab<64, 64>
  return
}
