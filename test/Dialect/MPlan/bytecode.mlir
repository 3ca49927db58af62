// RUN: mplan-opt %s --emit-bytecode | mplan-opt | FileCheck %s
// The planner id of mplan.alloc_tensor is a property whose bytecode is the
// i64 attribute it was before: a file written when it was an attribute reads
// the same (Inputs/attribute-id.mlirbc is this file, written then).
// RUN: mplan-opt %S/Inputs/attribute-id.mlirbc | FileCheck %s

// CHECK-LABEL: func.func @f
// CHECK: mplan.alloc_dynamic id(3) (%{{.*}}) live [1, 3) in %{{.*}} above []
// CHECK: mplan.alloc_tensor id(7) live [1, 2) at %{{.*}}[64] : !mplan.slab<128, 64> -> memref<4xf32>
func.func @f(%n: index) {
  %s = mplan.alloc_slab : !mplan.slab<128, 64>
  %0 = mplan.alloc_dynamic id(3) (%n) live [1, 3) in %s above [] : !mplan.slab<128, 64> -> memref<?xf32>
  %1 = mplan.alloc_tensor id(7) live [1, 2) at %s[64] : !mplan.slab<128, 64> -> memref<4xf32>
  mplan.release_slab %s : !mplan.slab<128, 64>
  return
}
