// arena=argument with calls inside parallel loops (issue 19, defect 2): every iteration
// of an scf.parallel / scf.forall may run at the same time as the others, so the callee's
// arena must not be one slice of the caller's arena shared by all of them. Each such call
// gets its own heap arena, allocated and freed around the call inside the iteration; the
// call in the sequential scf.for keeps a planned slice of @main's arena. mplan-to-llvm
// runs the parallel loops sequentially, so this checks that the planned program prints
// what upstream's unplanned program prints; the IR checks the per-iteration arenas.
//
// RUN: mlir-opt %s %lower_to_llvm \
// RUN:   | mlir-runner -e main -entry-point-result=void -shared-libs=%mlir_runner_libs \
// RUN:   | %normalize_addr > %t.base
// RUN: mplan-opt %s --mplan-plan-pipeline --mplan-verify-plan \
// RUN:   --convert-mplan-to-memref="arena=argument" > %t.mlir
// RUN: FileCheck %s --check-prefix=IR < %t.mlir
// RUN: mplan-opt %t.mlir --mplan-to-llvm \
// RUN:   | mlir-runner -e main -entry-point-result=void -shared-libs=%mlir_runner_libs \
// RUN:   | %normalize_addr > %t.plan
// RUN: diff %t.base %t.plan
// RUN: FileCheck %s --check-prefix=OUT < %t.plan

// IR-LABEL: func.func @row(
// IR-SAME: memref<{{[0-9]+}}xi8> {llvm.noalias, mplan.arena}
// IR-LABEL: func.func @main(
// IR: %[[ARENA:.*]] = memref.alloc() {{.*}}mplan.arena{{.*}} : memref<[[M:[0-9]+]]xi8>
// IR: scf.parallel
// IR: %[[H1:.*]] = memref.alloc() {{.*}}mplan.arena{{.*}} : memref<[[N:[0-9]+]]xi8>
// IR-NEXT: call @row({{.*}}, %[[H1]])
// IR-NEXT: memref.dealloc %[[H1]]
// IR: scf.forall
// IR: %[[H2:.*]] = memref.alloc() {{.*}}mplan.arena{{.*}} : memref<[[N]]xi8>
// IR-NEXT: call @row({{.*}}, %[[H2]])
// IR-NEXT: memref.dealloc %[[H2]]
// IR: scf.for
// IR: %[[S:.*]] = memref.view %[[ARENA]][%{{.*}}][] {{.*}} : memref<[[M]]xi8> to memref<[[N]]xi8>
// IR-NEXT: call @row({{.*}}, %[[S]])

// Every loop writes the same rows; the last one is 3 * j + 90.
// OUT-COUNT-3: [90,   93,   96,   99,   102,   105,   108,   111]]
// OUT-NEXT: 1

func.func private @printMemrefF32(memref<*xf32>)

// out[r, j] = 3 * j + 10 * r * r, through intermediates of its own (its arena).
func.func @row(%r: index, %out: memref<4x8xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c8 = arith.constant 8 : index
  %three = arith.constant 3.0 : f32
  %ten = arith.constant 10.0 : f32
  %a = memref.alloc() : memref<8xf32>
  %b = memref.alloc() : memref<8xf32>
  %rr = arith.muli %r, %r : index
  %ri = arith.index_cast %rr : index to i32
  %rf = arith.sitofp %ri : i32 to f32
  %off = arith.mulf %rf, %ten : f32
  scf.for %j = %c0 to %c8 step %c1 {
    %ji = arith.index_cast %j : index to i32
    %jf = arith.sitofp %ji : i32 to f32
    %v = arith.mulf %jf, %three : f32
    memref.store %v, %a[%j] : memref<8xf32>
  }
  linalg.generic {indexing_maps = [affine_map<(j) -> (j)>, affine_map<(j) -> (j)>],
                  iterator_types = ["parallel"]}
      ins(%a : memref<8xf32>) outs(%b : memref<8xf32>) {
  ^bb0(%x: f32, %o: f32):
    %s = arith.addf %x, %off : f32
    linalg.yield %s : f32
  }
  scf.for %j = %c0 to %c8 step %c1 {
    %v = memref.load %b[%j] : memref<8xf32>
    memref.store %v, %out[%r, %j] : memref<4x8xf32>
  }
  memref.dealloc %a : memref<8xf32>
  memref.dealloc %b : memref<8xf32>
  return
}

func.func @main() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c4 = arith.constant 4 : index
  %one = arith.constant 1.0 : f32
  // A buffer of @main live across all the calls.
  %keep = memref.alloc() : memref<16xf32>
  linalg.fill ins(%one : f32) outs(%keep : memref<16xf32>)
  %out = memref.alloc() : memref<4x8xf32>
  %u = memref.cast %out : memref<4x8xf32> to memref<*xf32>
  scf.parallel (%r) = (%c0) to (%c4) step (%c1) {
    func.call @row(%r, %out) : (index, memref<4x8xf32>) -> ()
    scf.reduce
  }
  func.call @printMemrefF32(%u) : (memref<*xf32>) -> ()
  scf.forall (%r) in (4) {
    func.call @row(%r, %out) : (index, memref<4x8xf32>) -> ()
  }
  func.call @printMemrefF32(%u) : (memref<*xf32>) -> ()
  scf.for %r = %c0 to %c4 step %c1 {
    func.call @row(%r, %out) : (index, memref<4x8xf32>) -> ()
  }
  func.call @printMemrefF32(%u) : (memref<*xf32>) -> ()
  %k = memref.load %keep[%c2] : memref<16xf32>
  vector.print %k : f32
  memref.dealloc %out : memref<4x8xf32>
  memref.dealloc %keep : memref<16xf32>
  return
}
