// Every strategy with every alignment option places each buffer at a multiple of its element's
// ABI alignment (vector<32xf32>: 128 bytes, vector<5x3xf32>: 16, f64: 8, f32: 4) and aligns the
// slab for its most aligned buffer, so the planned IR verifies whatever `alignment=` says.
// RUN: mplan-opt %s --mplan-plan-pipeline="strategy=naive alignment=1" --mplan-verify-plan | FileCheck %s --check-prefix=NAIVE1
// RUN: mplan-opt %s --mplan-plan-pipeline="strategy=linear-scan alignment=1" --mplan-verify-plan | FileCheck %s --check-prefix=SLAB
// RUN: mplan-opt %s --mplan-plan-pipeline="strategy=greedy-by-size alignment=2" --mplan-verify-plan | FileCheck %s --check-prefix=SLAB
// RUN: mplan-opt %s --mplan-plan-pipeline="strategy=greedy-by-breadth alignment=8" --mplan-verify-plan | FileCheck %s --check-prefix=SLAB
// RUN: mplan-opt %s --mplan-plan-pipeline="strategy=portfolio alignment=4" --mplan-verify-plan | FileCheck %s --check-prefix=SLAB
// RUN: mplan-opt %s --mplan-plan-pipeline="strategy=best alignment=16" --mplan-verify-plan | FileCheck %s --check-prefix=SLAB
// RUN: mplan-opt %s --mplan-plan-pipeline="strategy=naive" --mplan-verify-plan | FileCheck %s --check-prefix=SLAB
// RUN: mplan-opt %s --mplan-plan-pipeline="strategy=linear-scan alignment=4096" --mplan-verify-plan | FileCheck %s --check-prefix=BIG

// naive places the buffers one after the other in program order, each at the next multiple of
// its own alignment.
// NAIVE1-LABEL: func.func @mixed
// NAIVE1:       mplan.alloc_slab : <{{[0-9]+}}, 128>
// NAIVE1:       id(0) {{.*}}[0] {{.*}} -> memref<3xi8>
// NAIVE1:       id(1) {{.*}}[4] {{.*}} -> memref<16xf32>
// NAIVE1:       id(2) {{.*}}[128] {{.*}} -> memref<1xvector<32xf32>>
// NAIVE1:       id(3) {{.*}}[256] {{.*}} -> memref<3xf64>
// NAIVE1:       id(4) {{.*}}[288] {{.*}} -> memref<2xvector<5x3xf32>>
// SLAB-LABEL:   func.func @mixed
// SLAB:         mplan.alloc_slab : <{{[0-9]+}}, 128>
// BIG-LABEL:    func.func @mixed
// BIG:          mplan.alloc_slab : <{{[0-9]+}}, 4096>
func.func @mixed(%o: memref<3xi8>, %o1: memref<16xf32>, %o2: memref<1xvector<32xf32>>, %o3: memref<3xf64>, %o4: memref<2xvector<5x3xf32>>) {
  %a = memref.alloc() : memref<3xi8>
  %b = memref.alloc() : memref<16xf32>
  %c = memref.alloc() : memref<1xvector<32xf32>>
  %d = memref.alloc() : memref<3xf64>
  %e = memref.alloc() : memref<2xvector<5x3xf32>>
  memref.copy %o, %a : memref<3xi8> to memref<3xi8>
  memref.copy %o1, %b : memref<16xf32> to memref<16xf32>
  memref.copy %o2, %c : memref<1xvector<32xf32>> to memref<1xvector<32xf32>>
  memref.copy %o3, %d : memref<3xf64> to memref<3xf64>
  memref.copy %o4, %e : memref<2xvector<5x3xf32>> to memref<2xvector<5x3xf32>>
  memref.copy %a, %o : memref<3xi8> to memref<3xi8>
  memref.copy %b, %o1 : memref<16xf32> to memref<16xf32>
  memref.copy %c, %o2 : memref<1xvector<32xf32>> to memref<1xvector<32xf32>>
  memref.copy %d, %o3 : memref<3xf64> to memref<3xf64>
  memref.copy %e, %o4 : memref<2xvector<5x3xf32>> to memref<2xvector<5x3xf32>>
  return
}
