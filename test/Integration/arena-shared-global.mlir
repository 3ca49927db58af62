// arena=shared-global on a module with two entry points, as a model with a prefill and a
// decode method has: @main (whose buffers opt out with mplan.unplanned, so it has no slab)
// calls @prefill, then @step (no slab of its own) which calls @decode, then @shared;
// @prefill and @decode both call @shared. @shared nests in its callers' arenas; @prefill,
// @decode and @main's call of @shared never run at once, so all three (and @shared's own
// call, below) use the one global from offset 0, sized for the largest of them. @shared is public: it keeps its signature
// and calls the arena-taking @__mplan_body_shared, which the calls in the module call
// (arena-shared-global-entry.mlir runs such a function as the entry point). The planned
// program prints exactly what upstream's unplanned program prints.
//
// RUN: mlir-opt %s %lower_to_llvm \
// RUN:   | mlir-runner -e main -entry-point-result=void -shared-libs=%mlir_runner_libs \
// RUN:   | %normalize_addr > %t.base
// RUN: FileCheck %s --check-prefix=OUT < %t.base
// RUN: mplan-opt %s --mplan-plan-pipeline \
// RUN:     --convert-mplan-to-memref="arena=shared-global" -o %t.mlir 2> %t.remarks
// RUN: FileCheck %s --check-prefix=IR < %t.mlir
// RUN: FileCheck %s --check-prefix=REMARK < %t.remarks
// RUN: mplan-opt %t.mlir --mplan-to-llvm \
// RUN:   | mlir-runner -e main -entry-point-result=void -shared-libs=%mlir_runner_libs \
// RUN:   | %normalize_addr > %t.plan
// RUN: diff %t.base %t.plan

// OUT: sizes = [4, 8]
// OUT-NEXT: {{\[\[}}-0.338992,
// OUT-COUNT-2: sizes = [4, 8]

// REMARK: remark: public function 'shared' keeps its signature: it calls '__mplan_body_shared', which takes its arena from the caller, as the calls in the module now do
// REMARK: remark: arena=shared-global: one arena '__mplan_arena_shared' of {{[0-9]+}} bytes from offset 0 for 4 users ('prefill', 'decode', the call of '__mplan_body_shared' in 'shared', the call of '__mplan_body_shared' in 'main'), instead of their sum, {{[0-9]+}} bytes; not re-entrant
// REMARK-NOT: remark

// One global, no heap arena anywhere.
// IR: memref.global "private" @__mplan_arena_shared : memref<[[N:[0-9]+]]xi8> = uninitialized {alignment = 64 : i64}
// IR-NOT: memref.global "private" @__mplan_arena
// IR-LABEL: func.func @shared(
// IR-SAME: %{{[a-z0-9]+}}: memref<4x8xf32>){{( attributes \{.*\})?}} {
// IR-NEXT: memref.get_global @__mplan_arena_shared : memref<[[N]]xi8>
// IR: call @__mplan_body_shared(
// IR-LABEL: func.func private @__mplan_body_shared(
// IR-SAME: memref<[[S:[0-9]+]]xi8> {llvm.noalias, mplan.arena}
// IR-NOT: mplan.arena}
// IR-LABEL: func.func @prefill(
// IR-NEXT: %[[G:.*]] = memref.get_global @__mplan_arena_shared : memref<[[N]]xi8> {mplan.arena}
// IR: memref.view %[[G]]{{.*}} to memref<[[S]]xi8>
// IR-NEXT: call @__mplan_body_shared(
// IR-LABEL: func.func @decode(
// IR-NEXT: %[[G:.*]] = memref.get_global @__mplan_arena_shared : memref<[[N]]xi8> {mplan.arena}
// IR: memref.view %[[G]]{{.*}} to memref<[[S]]xi8>
// IR-NEXT: call @__mplan_body_shared(
// IR-LABEL: func.func @step(
// IR-NEXT: call @decode(
// IR-LABEL: func.func @main(
// IR: %[[G:.*]] = memref.get_global @__mplan_arena_shared : memref<[[N]]xi8>
// IR: memref.view %[[G]]{{.*}} to memref<[[S]]xi8>
// IR-NEXT: call @__mplan_body_shared(
// IR-NOT: mplan.arena}

#id = affine_map<(d0, d1) -> (d0, d1)>

// out = tanh(x) * 0.5 + x, through two buffers of its own.
func.func @shared(%x: memref<4x8xf32>, %out: memref<4x8xf32>) {
  %half = arith.constant 0.5 : f32
  %t = memref.alloc() : memref<4x8xf32>
  linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%x : memref<4x8xf32>) outs(%t : memref<4x8xf32>) {
  ^bb0(%a: f32, %o: f32):
    %th = math.tanh %a : f32
    linalg.yield %th : f32
  }
  %u = memref.alloc() : memref<4x8xf32>
  linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%t, %x : memref<4x8xf32>, memref<4x8xf32>) outs(%u : memref<4x8xf32>) {
  ^bb0(%a: f32, %c: f32, %o: f32):
    %m = arith.mulf %a, %half : f32
    %s = arith.addf %m, %c : f32
    linalg.yield %s : f32
  }
  memref.copy %u, %out : memref<4x8xf32> to memref<4x8xf32>
  memref.dealloc %t : memref<4x8xf32>
  memref.dealloc %u : memref<4x8xf32>
  return
}

// out = shared(x * w) + x * w, with a wide intermediate: the larger arena.
func.func @prefill(%x: memref<4x8xf32>, %w: memref<8x8xf32>, %out: memref<4x8xf32>) {
  %zero = arith.constant 0.0 : f32
  %wide = memref.alloc() : memref<4x64xf32>
  linalg.fill ins(%zero : f32) outs(%wide : memref<4x64xf32>)
  %h = memref.subview %wide[0, 0] [4, 8] [1, 1] : memref<4x64xf32> to memref<4x8xf32, strided<[64, 1]>>
  linalg.matmul ins(%x, %w : memref<4x8xf32>, memref<8x8xf32>) outs(%h : memref<4x8xf32, strided<[64, 1]>>)
  %hc = memref.alloc() : memref<4x8xf32>
  memref.copy %h, %hc : memref<4x8xf32, strided<[64, 1]>> to memref<4x8xf32>
  %s = memref.alloc() : memref<4x8xf32>
  func.call @shared(%hc, %s) : (memref<4x8xf32>, memref<4x8xf32>) -> ()
  linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%s, %hc : memref<4x8xf32>, memref<4x8xf32>) outs(%out : memref<4x8xf32>) {
  ^bb0(%a: f32, %c: f32, %o: f32):
    %r = arith.addf %a, %c : f32
    linalg.yield %r : f32
  }
  memref.dealloc %wide : memref<4x64xf32>
  memref.dealloc %hc : memref<4x8xf32>
  memref.dealloc %s : memref<4x8xf32>
  return
}

// out = shared(x - 1) * 2.
func.func @decode(%x: memref<4x8xf32>, %out: memref<4x8xf32>) {
  %one = arith.constant 1.0 : f32
  %two = arith.constant 2.0 : f32
  %d = memref.alloc() : memref<4x8xf32>
  linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%x : memref<4x8xf32>) outs(%d : memref<4x8xf32>) {
  ^bb0(%a: f32, %o: f32):
    %r = arith.subf %a, %one : f32
    linalg.yield %r : f32
  }
  %s = memref.alloc() : memref<4x8xf32>
  func.call @shared(%d, %s) : (memref<4x8xf32>, memref<4x8xf32>) -> ()
  linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%s : memref<4x8xf32>) outs(%out : memref<4x8xf32>) {
  ^bb0(%a: f32, %o: f32):
    %r = arith.mulf %a, %two : f32
    linalg.yield %r : f32
  }
  memref.dealloc %d : memref<4x8xf32>
  memref.dealloc %s : memref<4x8xf32>
  return
}

// No slab: @decode's arena does not nest here, it uses the global.
func.func @step(%x: memref<4x8xf32>, %out: memref<4x8xf32>) {
  func.call @decode(%x, %out) : (memref<4x8xf32>, memref<4x8xf32>) -> ()
  return
}

func.func private @printMemrefF32(memref<*xf32>)

func.func @main() {
  %x = memref.alloc() {mplan.unplanned} : memref<4x8xf32>
  linalg.generic {indexing_maps = [#id], iterator_types = ["parallel", "parallel"]}
      outs(%x : memref<4x8xf32>) {
  ^bb0(%o: f32):
    %i = linalg.index 0 : index
    %j = linalg.index 1 : index
    %c8 = arith.constant 8 : index
    %k = arith.muli %i, %c8 : index
    %l = arith.addi %k, %j : index
    %li = arith.index_cast %l : index to i64
    %lf = arith.sitofp %li : i64 to f32
    %s = math.sin %lf : f32
    linalg.yield %s : f32
  }
  %w = memref.alloc() {mplan.unplanned} : memref<8x8xf32>
  linalg.generic {indexing_maps = [#id], iterator_types = ["parallel", "parallel"]}
      outs(%w : memref<8x8xf32>) {
  ^bb0(%o: f32):
    %i = linalg.index 0 : index
    %j = linalg.index 1 : index
    %c3 = arith.constant 3 : index
    %k = arith.muli %i, %c3 : index
    %l = arith.addi %k, %j : index
    %li = arith.index_cast %l : index to i64
    %lf = arith.sitofp %li : i64 to f32
    %s = math.cos %lf : f32
    %q = arith.constant 0.25 : f32
    %r = arith.mulf %s, %q : f32
    linalg.yield %r : f32
  }
  %o1 = memref.alloc() {mplan.unplanned} : memref<4x8xf32>
  func.call @prefill(%x, %w, %o1) : (memref<4x8xf32>, memref<8x8xf32>, memref<4x8xf32>) -> ()
  %o2 = memref.alloc() {mplan.unplanned} : memref<4x8xf32>
  func.call @step(%o1, %o2) : (memref<4x8xf32>, memref<4x8xf32>) -> ()
  %o3 = memref.alloc() {mplan.unplanned} : memref<4x8xf32>
  func.call @shared(%o2, %o3) : (memref<4x8xf32>, memref<4x8xf32>) -> ()
  %u1 = memref.cast %o1 : memref<4x8xf32> to memref<*xf32>
  func.call @printMemrefF32(%u1) : (memref<*xf32>) -> ()
  %u2 = memref.cast %o2 : memref<4x8xf32> to memref<*xf32>
  func.call @printMemrefF32(%u2) : (memref<*xf32>) -> ()
  %u3 = memref.cast %o3 : memref<4x8xf32> to memref<*xf32>
  func.call @printMemrefF32(%u3) : (memref<*xf32>) -> ()
  memref.dealloc %x : memref<4x8xf32>
  memref.dealloc %w : memref<8x8xf32>
  memref.dealloc %o1 : memref<4x8xf32>
  memref.dealloc %o2 : memref<4x8xf32>
  memref.dealloc %o3 : memref<4x8xf32>
  return
}
