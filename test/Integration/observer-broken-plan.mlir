// The observer catches a plan that is wrong for the program: buffers 0 and 1 share bytes
// [32, 64) of the slab while both are live (buffer 0 is read after buffer 1 is written),
// although the live ranges written in the IR claim they do not overlap. The observer
// recomputes lifetimes from the IR and checks the real addresses at run time: it names
// both buffers and the run fails. (convert-mplan-to-memref would reject this plan itself:
// verify-plan=false lets it through to the observer.)
// REQUIRES: mplan-runtime
//
// RUN: mplan-opt %s --convert-mplan-to-memref="arena=heap verify-plan=false" \
// RUN:     --mplan-instrument --mplan-to-llvm \
// RUN:   | not mlir-runner -e main -entry-point-result=void \
// RUN:       -shared-libs=%mlir_runner_libs,%mplan_runtime 2>&1 \
// RUN:   | FileCheck %s
// RUN: mplan-opt %s --convert-mplan-to-memref="arena=heap verify-plan=false" \
// RUN:     --mplan-instrument --mplan-to-llvm \
// RUN:   | not --crash env MPLAN_RT_ABORT=1 mlir-runner -e main -entry-point-result=void \
// RUN:       -shared-libs=%mlir_runner_libs,%mplan_runtime 2>&1 \
// RUN:   | FileCheck %s --check-prefix=ABORT

// CHECK: mplan-rt: error: {{.*}}observer-broken-plan.mlir:[[@LINE+20]]:{{[0-9]+}} memref.view: in @broken: planned buffer 1 (bytes [32, 96) of its arena) overlaps live planned buffer 0 (bytes [0, 64)) created at {{.*}}observer-broken-plan.mlir:[[@LINE+12]]:{{[0-9]+}} memref.view
// CHECK: mplan-rt: planned buffers 2, errors 1
// CHECK: mplan-rt: @broken: calls 1, heap allocs 1 (1.00/call), frees 1
// CHECK: mplan-rt: 1 error(s) found

// ABORT: mplan-rt: error: {{.*}} overlaps live planned buffer 0
// ABORT-NOT: mplan-rt: ---- memory summary ----

#id = affine_map<(d0) -> (d0)>

func.func @broken(%x: memref<16xf32>, %out: memref<16xf32>) {
  %slab = mplan.alloc_slab : !mplan.slab<128, 64>
  %a = mplan.alloc_tensor id(0) live [1, 3) at %slab[0] : !mplan.slab<128, 64> -> memref<16xf32>
  linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel"]}
      ins(%x : memref<16xf32>) outs(%a : memref<16xf32>) {
  ^bb0(%v: f32, %o: f32):
    %two = arith.constant 2.0 : f32
    %r = arith.mulf %v, %two : f32
    linalg.yield %r : f32
  }
  %b = mplan.alloc_tensor id(1) live [3, 5) at %slab[32] : !mplan.slab<128, 64> -> memref<16xf32>
  linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel"]}
      ins(%x : memref<16xf32>) outs(%b : memref<16xf32>) {
  ^bb0(%v: f32, %o: f32):
    %one = arith.constant 1.0 : f32
    %r = arith.addf %v, %one : f32
    linalg.yield %r : f32
  }
  linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel"]}
      ins(%a, %b : memref<16xf32>, memref<16xf32>) outs(%out : memref<16xf32>) {
  ^bb0(%u: f32, %v: f32, %o: f32):
    %r = arith.addf %u, %v : f32
    linalg.yield %r : f32
  }
  mplan.release_slab %slab : !mplan.slab<128, 64>
  return
}

func.func private @printMemrefF32(memref<*xf32>)

func.func @main() {
  %x = memref.alloc() : memref<16xf32>
  %out = memref.alloc() : memref<16xf32>
  %c = arith.constant 0.5 : f32
  linalg.fill ins(%c : f32) outs(%x : memref<16xf32>)
  call @broken(%x, %out) : (memref<16xf32>, memref<16xf32>) -> ()
  %u = memref.cast %out : memref<16xf32> to memref<*xf32>
  call @printMemrefF32(%u) : (memref<*xf32>) -> ()
  memref.dealloc %x : memref<16xf32>
  memref.dealloc %out : memref<16xf32>
  return
}
