// RUN: mplan-opt %s --split-input-file --mplan-capture-buffers="remarks=true" -verify-diagnostics | FileCheck %s
// RUN: mplan-opt %s --split-input-file --mplan-plan-pipeline --convert-mplan-to-memref \
// RUN:   | FileCheck %s --check-prefix=PLAN

// A buffer the program assumes aligned (memref.assume_alignment, which LLVM
// may use for aligned vector accesses) keeps that alignment in the arena: the
// assumption is of its start or of a view a multiple of the alignment into
// it, so its slot gets that alignment. Before, the planner placed %y at byte
// 128 of a 64-byte aligned arena, where `assume_alignment 256` is false.

// CHECK-LABEL: func @assumed
// CHECK: mplan.alloc_tensor {{.*}}alignment = 256
// CHECK: mplan.alloc_tensor {{.*}}alignment = 128
// PLAN-LABEL: func @assumed
// PLAN: memref.alloc() {alignment = 256 : i64, mplan.arena}
// PLAN-DAG: memref.view %{{.*}}[%[[X:c[0-9_]+]]][] {mplan.buffer_id = 0
// PLAN-DAG: memref.view %{{.*}}[%[[Y:c[0-9_]+]]][] {mplan.buffer_id = 1
// PLAN-DAG: memref.view %{{.*}}[%[[Z:c[0-9_]+]]][] {mplan.buffer_id = 2
// PLAN-DAG: %[[Y]] = arith.constant {{(0|256|512|768|1024)}} : index
// PLAN-DAG: %[[Z]] = arith.constant {{(0|128|256|384|512|640|768|896|1024)}} : index
func.func @assumed(%a: memref<16xf32>, %o: memref<16xf32>) {
  %x = memref.alloc() : memref<32xf32>
  %y = memref.alloc() : memref<16xf32>
  %z = memref.alloc() : memref<64xf32>
  %xs = memref.subview %x[0] [16] [1] : memref<32xf32> to memref<16xf32, strided<[1]>>
  memref.copy %a, %xs : memref<16xf32> to memref<16xf32, strided<[1]>>
  %ya = memref.assume_alignment %y, 256 : memref<16xf32>
  linalg.add ins(%a, %xs : memref<16xf32>, memref<16xf32, strided<[1]>>) outs(%ya : memref<16xf32>)
  // 128 bytes into %z: its start must be 128-aligned.
  %zs = memref.subview %z[32] [16] [1] : memref<64xf32> to memref<16xf32, strided<[1], offset: 32>>
  %za = memref.assume_alignment %zs, 128 : memref<16xf32, strided<[1], offset: 32>>
  linalg.add ins(%ya, %xs : memref<16xf32>, memref<16xf32, strided<[1]>>) outs(%za : memref<16xf32, strided<[1], offset: 32>>)
  linalg.add ins(%za, %ya : memref<16xf32, strided<[1], offset: 32>>, memref<16xf32>) outs(%o : memref<16xf32>)
  memref.dealloc %x : memref<32xf32>
  memref.dealloc %y : memref<16xf32>
  memref.dealloc %z : memref<64xf32>
  return
}

// -----

// An assumption no slot can keep (a view 8 bytes into the buffer assumed
// 16-aligned) or one at an offset the points-to analysis does not know
// leaves the buffer unplanned, with the reason.

// CHECK-LABEL: func @unkept
// PLAN-LABEL: func @unkept
// PLAN-NOT: mplan.arena
func.func @unkept(%a: memref<16xf32>, %o: memref<8xf32>, %i: index) {
  // expected-remark @below {{buffer left unplanned: memref.assume_alignment 16 at}}
  %x = memref.alloc() : memref<16xf32>
  %s = memref.subview %x[2] [8] [1] : memref<16xf32> to memref<8xf32, strided<[1], offset: 2>>
  %sa = memref.assume_alignment %s, 16 : memref<8xf32, strided<[1], offset: 2>>
  memref.copy %a, %x : memref<16xf32> to memref<16xf32>
  memref.copy %sa, %o : memref<8xf32, strided<[1], offset: 2>> to memref<8xf32>
  // expected-remark @below {{buffer left unplanned: memref.assume_alignment 64 at}}
  %y = memref.alloc() : memref<16xf32>
  %d = memref.subview %y[%i] [8] [1] : memref<16xf32> to memref<8xf32, strided<[1], offset: ?>>
  %da = memref.assume_alignment %d, 64 : memref<8xf32, strided<[1], offset: ?>>
  memref.copy %a, %y : memref<16xf32> to memref<16xf32>
  memref.copy %da, %o : memref<8xf32, strided<[1], offset: ?>> to memref<8xf32>
  memref.dealloc %x : memref<16xf32>
  memref.dealloc %y : memref<16xf32>
  return
}

// -----

// An assumption on a bufferization.clone of a buffer (or of a view of it)
// reaches the buffer through the points-to analysis (the clone may be the
// buffer's bytes as far as it knows), not through the buffer's aliases (the
// clone is an allocation of its own): it is looked for in the whole function.
// CHECK-LABEL: func @clone_assumed
// CHECK: mplan.alloc_tensor id(0) {alignment = 256 : i64}
// PLAN-LABEL: func @clone_assumed
// PLAN: memref.alloc() {alignment = 256 : i64, mplan.arena}
func.func @clone_assumed(%out: memref<64xf32>) {
  %cst = arith.constant 1.0 : f32
  %a = memref.alloc() : memref<64xf32>
  linalg.fill ins(%cst : f32) outs(%a : memref<64xf32>)
  %b = bufferization.clone %a : memref<64xf32> to memref<64xf32>
  %c = memref.assume_alignment %b, 256 : memref<64xf32>
  memref.copy %c, %out : memref<64xf32> to memref<64xf32>
  memref.dealloc %b : memref<64xf32>
  return
}

// -----

// CHECK-LABEL: func @clone_unkept
// PLAN-LABEL: func @clone_unkept
// PLAN-NOT: mplan.arena
func.func @clone_unkept(%out: memref<15xf32, strided<[1], offset: 1>>) {
  %cst = arith.constant 1.0 : f32
  // expected-remark @below {{buffer left unplanned: memref.assume_alignment 64 at}}
  %a = memref.alloc() : memref<16xf32>
  linalg.fill ins(%cst : f32) outs(%a : memref<16xf32>)
  %s = memref.subview %a[1] [15] [1] : memref<16xf32> to memref<15xf32, strided<[1], offset: 1>>
  %b = bufferization.clone %s : memref<15xf32, strided<[1], offset: 1>> to memref<15xf32, strided<[1], offset: 1>>
  %c = memref.assume_alignment %b, 64 : memref<15xf32, strided<[1], offset: 1>>
  memref.copy %c, %out : memref<15xf32, strided<[1], offset: 1>> to memref<15xf32, strided<[1], offset: 1>>
  return
}
