// arena=argument with a callee whose buffers need more alignment than the alignment=
// option (issue 19, defect 3): @vec's vector<4xf32> buffers need 16-byte alignment, so its
// slab is 16-aligned whatever alignment=8 says, and @main places @vec's arena at a
// multiple of 16 in its own arena (after its 8-byte %k, live across the call: offset 16,
// not 8), which it allocates 16-aligned. An 8-aligned slice would make the aligned vector
// loads fault. The planned program prints what upstream's unplanned program prints.
//
// RUN: mlir-opt %s %lower_to_llvm \
// RUN:   | mlir-runner -e main -entry-point-result=void -shared-libs=%mlir_runner_libs > %t.base
// RUN: FileCheck %s --check-prefix=OUT < %t.base
// RUN: mplan-opt %s --mplan-plan-pipeline="alignment=8" --mplan-verify-plan \
// RUN:   --convert-mplan-to-memref="arena=argument functions=vec" > %t.mlir
// RUN: FileCheck %s --check-prefix=IR < %t.mlir
// RUN: mplan-opt %t.mlir --mplan-to-llvm \
// RUN:   | mlir-runner -e main -entry-point-result=void -shared-libs=%mlir_runner_libs > %t.plan
// RUN: diff %t.base %t.plan

// IR-LABEL: func.func @vec(
// IR-SAME: memref<[[N:[0-9]+]]xi8> {llvm.noalias, mplan.arena})
// IR-SAME: mplan.arena_alignment = 16
// IR-LABEL: func.func @main(
// IR: %[[ARENA:.*]] = memref.alloc() {alignment = 16 : i64, mplan.arena} : memref<[[M:[0-9]+]]xi8>
// IR: %[[C16:.*]] = arith.constant 16 : index
// IR-NEXT: %[[S:.*]] = memref.view %[[ARENA]][%[[C16]]][] {{.*}} : memref<[[M]]xi8> to memref<[[N]]xi8>
// IR-NEXT: call @vec({{.*}}, %[[S]])

// OUT: 3
// OUT-NEXT: 9
// OUT-NEXT: 2.5

func.func @vec(%x: vector<4xf32>, %out: memref<1xvector<4xf32>>) {
  %c0 = arith.constant 0 : index
  %one = arith.constant dense<1.0> : vector<4xf32>
  %a = memref.alloc() : memref<1xvector<4xf32>>
  %b = memref.alloc() : memref<1xvector<4xf32>>
  memref.store %x, %a[%c0] : memref<1xvector<4xf32>>
  %v = memref.load %a[%c0] : memref<1xvector<4xf32>>
  %w = arith.addf %v, %v : vector<4xf32>
  %y = arith.addf %w, %one : vector<4xf32>
  memref.store %y, %b[%c0] : memref<1xvector<4xf32>>
  %z = memref.load %b[%c0] : memref<1xvector<4xf32>>
  memref.store %z, %out[%c0] : memref<1xvector<4xf32>>
  memref.dealloc %a : memref<1xvector<4xf32>>
  memref.dealloc %b : memref<1xvector<4xf32>>
  return
}

func.func @main() {
  %c0 = arith.constant 0 : index
  %x = arith.constant dense<[1.0, 2.0, 3.0, 4.0]> : vector<4xf32>
  %f = arith.constant 2.5 : f64
  %k = memref.alloc() : memref<1xf64>
  memref.store %f, %k[%c0] : memref<1xf64>
  %out = memref.alloca() : memref<1xvector<4xf32>>
  func.call @vec(%x, %out) : (vector<4xf32>, memref<1xvector<4xf32>>) -> ()
  %r = memref.load %out[%c0] : memref<1xvector<4xf32>>
  %r0 = vector.extract %r[0] : f32 from vector<4xf32>
  %r3 = vector.extract %r[3] : f32 from vector<4xf32>
  vector.print %r0 : f32
  vector.print %r3 : f32
  %g = memref.load %k[%c0] : memref<1xf64>
  vector.print %g : f64
  memref.dealloc %k : memref<1xf64>
  return
}
