// arena=shared-global keeps the signature of every public function (issue 30): @decode
// is an entry point (mlir-runner -e decode) that @generate, a planned function with a
// buffer live across the call, also calls. @decode's arena nests in @generate's; before,
// @decode itself gained the arena parameter and `mlir-runner -e decode` failed on it. Now
// @decode is a wrapper that calls the arena-taking @__mplan_body_decode with the shared
// global's first bytes. Each entry point (@decode, @generate, @main) prints exactly what
// upstream's unplanned program prints.
//
// RUN: mplan-opt %s --mplan-plan-pipeline \
// RUN:     --convert-mplan-to-memref="arena=shared-global" -o %t.plan.mlir 2> %t.remarks
// RUN: FileCheck %s --check-prefix=IR < %t.plan.mlir
// RUN: FileCheck %s --check-prefix=REMARK < %t.remarks
// RUN: mlir-opt %s %lower_to_llvm -o %t.base.ll.mlir
// RUN: mplan-opt %t.plan.mlir --mplan-to-llvm -o %t.plan.ll.mlir
// RUN: mlir-runner %t.base.ll.mlir -e decode -entry-point-result=void -shared-libs=%mlir_runner_libs \
// RUN:   | %normalize_addr > %t.base.decode
// RUN: FileCheck %s --check-prefix=DECODE < %t.base.decode
// RUN: mlir-runner %t.plan.ll.mlir -e decode -entry-point-result=void -shared-libs=%mlir_runner_libs \
// RUN:   | %normalize_addr > %t.plan.decode
// RUN: diff %t.base.decode %t.plan.decode
// RUN: mlir-runner %t.base.ll.mlir -e generate -entry-point-result=void -shared-libs=%mlir_runner_libs \
// RUN:   | %normalize_addr > %t.base.generate
// RUN: mlir-runner %t.plan.ll.mlir -e generate -entry-point-result=void -shared-libs=%mlir_runner_libs \
// RUN:   | %normalize_addr > %t.plan.generate
// RUN: diff %t.base.generate %t.plan.generate
// RUN: mlir-runner %t.base.ll.mlir -e main -entry-point-result=void -shared-libs=%mlir_runner_libs \
// RUN:   | %normalize_addr > %t.base.main
// RUN: mlir-runner %t.plan.ll.mlir -e main -entry-point-result=void -shared-libs=%mlir_runner_libs \
// RUN:   | %normalize_addr > %t.plan.main
// RUN: diff %t.base.main %t.plan.main

// DECODE: sizes = [8]
// DECODE-NEXT: [1.5,

// REMARK: remark: public function 'decode' keeps its signature: it calls '__mplan_body_decode', which takes its arena from the caller, as the calls in the module now do
// REMARK: remark: arena=shared-global: one arena '__mplan_arena_shared'

// IR-LABEL: func.func @decode(){{( attributes \{.*\})?}} {
// IR-NEXT: memref.get_global @__mplan_arena_shared
// IR: call @__mplan_body_decode(%{{.*}}) : (memref<{{[0-9]+}}xi8>) -> ()
// IR-NEXT: return
// IR-LABEL: func.func private @__mplan_body_decode(
// IR-SAME: {llvm.noalias, mplan.arena}
// IR-LABEL: func.func @generate(){{( attributes \{.*\})?}} {
// IR: call @__mplan_body_decode(

func.func private @printMemrefF32(memref<*xf32>)

// Prints tanh(i / 8) * 2 + 1.5 for i in [0, 8), through a planned buffer and the printed
// one (opted out).
func.func @decode() {
  %c0 = arith.constant 0 : index
  %x = memref.alloc() : memref<8xf32>
  linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]}
      outs(%x : memref<8xf32>) {
  ^bb0(%o: f32):
    %i = linalg.index 0 : index
    %ii = arith.index_cast %i : index to i64
    %f = arith.sitofp %ii : i64 to f32
    %eighth = arith.constant 0.125 : f32
    %s = arith.mulf %f, %eighth : f32
    %t = math.tanh %s : f32
    linalg.yield %t : f32
  }
  %y = memref.alloc() {mplan.unplanned} : memref<8xf32>
  linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]}
      ins(%x : memref<8xf32>) outs(%y : memref<8xf32>) {
  ^bb0(%a: f32, %o: f32):
    %two = arith.constant 2.0 : f32
    %c = arith.constant 1.5 : f32
    %m = arith.mulf %a, %two : f32
    %r = arith.addf %m, %c : f32
    linalg.yield %r : f32
  }
  %u = memref.cast %y : memref<8xf32> to memref<*xf32>
  func.call @printMemrefF32(%u) : (memref<*xf32>) -> ()
  memref.dealloc %x : memref<8xf32>
  memref.dealloc %y : memref<8xf32>
  return
}

// Fills a buffer that lives across the call of @decode, then prints twice its values
// (the printed buffer is opted out: a buffer passed to printMemrefF32 escapes).
func.func @generate() {
  %w = memref.alloc() : memref<16xf32>
  %v = arith.constant 3.25 : f32
  linalg.fill ins(%v : f32) outs(%w : memref<16xf32>)
  func.call @decode() : () -> ()
  %p = memref.alloc() {mplan.unplanned} : memref<16xf32>
  linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]}
      ins(%w : memref<16xf32>) outs(%p : memref<16xf32>) {
  ^bb0(%a: f32, %o: f32):
    %r = arith.addf %a, %a : f32
    linalg.yield %r : f32
  }
  %u = memref.cast %p : memref<16xf32> to memref<*xf32>
  func.call @printMemrefF32(%u) : (memref<*xf32>) -> ()
  memref.dealloc %w : memref<16xf32>
  memref.dealloc %p : memref<16xf32>
  return
}

func.func @main() {
  func.call @generate() : () -> ()
  func.call @decode() : () -> ()
  return
}
