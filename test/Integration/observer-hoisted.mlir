// The observer starts a planned buffer's life where the plan does, at its first use, not at
// its view (issue 30, item 4). One-Shot Bufferize leaves the allocations of the tensor.empty
// ops at the top of @chain (hoisted): every view sits there, and the observer began every
// region there, so two buffers the plan rightly gives the same bytes, used one after the
// other, were reported ("planned buffer 1 ... overlaps live planned buffer 0", exit 3).
// Static buffers (@chain's three), run-time sized ones (@chain's two of %n elements) and a
// CFG whose second buffer is first used in a later block (@branchy) run with 0 observer
// errors under every arena kind, printing what the unplanned program prints.
// REQUIRES: mplan-runtime
//
// RUN: mlir-opt %s %bufferize_fb %baseline_dealloc | mlir-opt %lower_to_llvm \
// RUN:   | mlir-runner -e main -entry-point-result=void -shared-libs=%mlir_runner_libs > %t.base
// RUN: FileCheck %s --check-prefix=OUT < %t.base
// In-place reuse (inplace=true) would write @chain's three static buffers into one: the
// plan is pinned to program order without it, so that distinct buffers share bytes. The
// default plan runs under the observer too.
// RUN: mlir-opt %s %bufferize_fb > %t.buf.mlir
// RUN: mplan-opt %t.buf.mlir -o %t.planned.mlir \
// RUN:     --mplan-plan-pipeline="sequence=program inplace=false peak-guard=views report=%t.json"
// RUN: FileCheck %s --check-prefix=JSON < %t.json
// RUN: mplan-opt %t.buf.mlir --mplan-plan-pipeline -o %t.default.mlir
// RUN: for plan in planned default; do for arena in heap stack global argument shared-global; do \
// RUN:   mplan-opt %t.$plan.mlir --convert-mplan-to-memref="arena=$arena" --mplan-instrument \
// RUN:       --mplan-to-llvm 2>/dev/null \
// RUN:     | env MPLAN_RT_OUTPUT=stdout mlir-runner -e main -entry-point-result=void \
// RUN:         -shared-libs=%mlir_runner_libs,%mplan_runtime > %t.$plan.$arena || exit 1; \
// RUN:   grep -v '^mplan-rt' %t.$plan.$arena | diff %t.base - || exit 1; \
// RUN:   FileCheck %s --check-prefix=OBS < %t.$plan.$arena || exit 1; \
// RUN: done; done

// OUT:      0
// OUT-NEXT: 3
// OUT-NEXT: 7
// OUT-NOT:  {{.}}

// The plan shares bytes between buffers used one after the other.
// JSON:      "name": "chain"
// JSON:      "id": 0,
// JSON:      "offset": 0
// JSON:      "id": 1,
// JSON:      "offset": 64
// JSON:      "id": 2,
// JSON:      "offset": 0
// JSON:      "dynamic_buffers"
// JSON:      "name": "branchy"
// JSON:      "id": 0,
// JSON:      "offset": 0
// JSON:      "id": 1,
// JSON:      "offset": 0

// OBS-NOT:  error
// OBS:      mplan-rt: planned buffers {{[0-9]+}}, errors 0

#id = affine_map<(d0) -> (d0)>

func.func @chain(%x: tensor<16xf32>, %n: index) -> f32 {
  %c0 = arith.constant 0 : index
  %e0 = tensor.empty() : tensor<16xf32>
  %e1 = tensor.empty() : tensor<16xf32>
  %e2 = tensor.empty() : tensor<16xf32>
  %d0 = tensor.empty(%n) : tensor<?xf32>
  %d1 = tensor.empty(%n) : tensor<?xf32>
  %a = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel"]}
      ins(%x : tensor<16xf32>) outs(%e0 : tensor<16xf32>) {
  ^bb0(%i: f32, %o: f32):
    %r = arith.addf %i, %i : f32
    linalg.yield %r : f32
  } -> tensor<16xf32>
  %b = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel"]}
      ins(%a : tensor<16xf32>) outs(%e1 : tensor<16xf32>) {
  ^bb0(%i: f32, %o: f32):
    %r = arith.mulf %i, %i : f32
    linalg.yield %r : f32
  } -> tensor<16xf32>
  %c = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel"]}
      ins(%b : tensor<16xf32>) outs(%e2 : tensor<16xf32>) {
  ^bb0(%i: f32, %o: f32):
    %r = arith.subf %i, %i : f32
    linalg.yield %r : f32
  } -> tensor<16xf32>
  %v = tensor.extract %c[%c0] : tensor<16xf32>
  %f0 = linalg.fill ins(%v : f32) outs(%d0 : tensor<?xf32>) -> tensor<?xf32>
  %w = tensor.extract %f0[%c0] : tensor<?xf32>
  %s = arith.addf %w, %w : f32
  %f1 = linalg.fill ins(%s : f32) outs(%d1 : tensor<?xf32>) -> tensor<?xf32>
  %u = tensor.extract %f1[%c0] : tensor<?xf32>
  return %u : f32
}

// %b is first used in ^bb1 or ^bb2, after %a's last use in the entry block.
func.func @branchy(%c: i1) -> f32 {
  %c0 = arith.constant 0 : index
  %c3 = arith.constant 3 : index
  %one = arith.constant 1.0 : f32
  %a = memref.alloc() : memref<16xf32>
  %b = memref.alloc() : memref<16xf32>
  linalg.fill ins(%one : f32) outs(%a : memref<16xf32>)
  %x = memref.load %a[%c0] : memref<16xf32>
  cf.cond_br %c, ^bb1, ^bb2
^bb1:
  %two = arith.constant 2.0 : f32
  %p = arith.addf %x, %two : f32
  linalg.fill ins(%p : f32) outs(%b : memref<16xf32>)
  %y = memref.load %b[%c0] : memref<16xf32>
  cf.br ^bb3(%y : f32)
^bb2:
  %six = arith.constant 6.0 : f32
  %q = arith.addf %x, %six : f32
  linalg.fill ins(%q : f32) outs(%b : memref<16xf32>)
  %z = memref.load %b[%c3] : memref<16xf32>
  cf.br ^bb3(%z : f32)
^bb3(%r: f32):
  return %r : f32
}

func.func @main() {
  %x = arith.constant dense<1.5> : tensor<16xf32>
  %c8 = arith.constant 8 : index
  %r = call @chain(%x, %c8) : (tensor<16xf32>, index) -> f32
  vector.print %r : f32
  %true = arith.constant true
  %false = arith.constant false
  %p = call @branchy(%true) : (i1) -> f32
  vector.print %p : f32
  %q = call @branchy(%false) : (i1) -> f32
  vector.print %q : f32
  return
}
