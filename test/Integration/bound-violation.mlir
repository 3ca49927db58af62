// A stated bound is a promise the program can break: @step plans its buffer of %n x 8 floats
// at the bound %n <= 4, and @main calls it with 2, 4 and 5. Within the bound the planned
// program prints what the unplanned one prints; the call with 5 would write 40 floats into a
// 32-float slot. With check-bounds the run stops there with a cf.assert naming the buffer,
// the dimension, the bound and its source (cf.assert prints with puts on stdout and aborts:
// stdout is line-buffered here so that the message is not lost in the buffer); with the
// observer the check is always on and the run ends with exit status 3 and an error on stderr.
// REQUIRES: mplan-runtime
//
// RUN: mlir-opt %s %lower_to_llvm \
// RUN:   | mlir-runner -e main -entry-point-result=void -shared-libs=%mlir_runner_libs > %t.base
// RUN: FileCheck %s --check-prefix=BASE < %t.base
// RUN: mplan-opt %s --mplan-plan-pipeline="check-bounds=true report=%t.json" --convert-mplan-to-memref="arena=heap" --mplan-to-llvm \
// RUN:   | not --crash stdbuf -oL mlir-runner -e main -entry-point-result=void -shared-libs=%mlir_runner_libs > %t.assert
// RUN: FileCheck %s --check-prefix=ASSERT < %t.assert
// RUN: FileCheck %s --check-prefix=JSON < %t.json
// RUN: mplan-opt %s --mplan-plan-pipeline --convert-mplan-to-memref="arena=heap" --mplan-instrument --mplan-to-llvm \
// RUN:   | not mlir-runner -e main -entry-point-result=void -shared-libs=%mlir_runner_libs,%mplan_runtime > %t.obs.out 2> %t.obs.err
// RUN: FileCheck %s --check-prefix=OBS-OUT < %t.obs.out
// RUN: FileCheck %s --check-prefix=OBS-ERR < %t.obs.err
// RUN: mplan-opt %s --mplan-plan-pipeline="check-bounds=true" --convert-mplan-to-memref="arena=global" --mplan-to-llvm \
// RUN:   | not --crash stdbuf -oL mlir-runner -e main -entry-point-result=void -shared-libs=%mlir_runner_libs > %t.global
// RUN: FileCheck %s --check-prefix=ASSERT < %t.global

// BASE:        16
// BASE-NEXT:   32
// BASE-NEXT:   40

// ASSERT:      16
// ASSERT-NEXT: 32
// ASSERT-NEXT: mplan: buffer 0 (memref<?x8xf32> allocated at {{.*}}bound-violation.mlir:[[@LINE+20]]:8) is larger than its upper bound: dimension 0 <= 4 (mplan.upper_bound 4 of %arg0) does not hold
// ASSERT-NOT:  40

// JSON:        "name": "step"
// JSON:        "bound": "dimension 0 <= 4 (mplan.upper_bound 4 of %arg0)"
// JSON:        "unmanaged": []

// OBS-OUT:     16
// OBS-OUT-NEXT: 32
// OBS-OUT-NOT: 40
// OBS-ERR:     mplan-rt: error: bound-violation.mlir:[[@LINE+10]]:8 memref.reinterpret_cast: in @step: planned buffer 0: dimension 0 is 5, above its upper bound 4 (mplan.bound: dimension 0 <= 4 (mplan.upper_bound 4 of %arg0)); the run stops: the buffer does not fit its slot
// OBS-ERR:     mplan-rt: planned buffers {{[0-9]+}}, errors 1
// OBS-ERR:     mplan-rt: 1 error(s) found

#id = affine_map<(i, j) -> (i, j)>
#all = affine_map<(i, j) -> ()>

func.func @step(%n: index {mplan.upper_bound = 4 : i64}) {
  %one = arith.constant 1.0 : f32
  %zero = arith.constant 0.0 : f32
  %a = memref.alloc(%n) : memref<?x8xf32>
  linalg.fill ins(%one : f32) outs(%a : memref<?x8xf32>)
  %s = memref.alloc() : memref<f32>
  linalg.fill ins(%zero : f32) outs(%s : memref<f32>)
  linalg.generic {indexing_maps = [#id, #all], iterator_types = ["reduction", "reduction"]}
      ins(%a : memref<?x8xf32>) outs(%s : memref<f32>) {
  ^bb0(%v: f32, %acc: f32):
    %r = arith.addf %acc, %v : f32
    linalg.yield %r : f32
  }
  %v = memref.load %s[] : memref<f32>
  vector.print %v : f32
  memref.dealloc %a : memref<?x8xf32>
  memref.dealloc %s : memref<f32>
  return
}

func.func @main() {
  %c2 = arith.constant 2 : index
  %c4 = arith.constant 4 : index
  %c5 = arith.constant 5 : index
  call @step(%c2) : (index) -> ()
  call @step(%c4) : (index) -> ()
  call @step(%c5) : (index) -> ()
  return
}
