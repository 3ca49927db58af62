// RUN: mplan-opt %s --mplan-plan-pipeline="strategy=greedy-by-size stagger=128 inplace=false report=%t.json" --mplan-verify-plan | FileCheck %s
// RUN: FileCheck %s --check-prefix=JSON < %t.json
// RUN: mplan-opt %s --mplan-plan-pipeline="strategy=greedy-by-size inplace=false" | FileCheck %s --check-prefix=FLAT

// Three 4 KiB buffers live at once: packed at 0, 4096 and 8192, all three
// start at the same address modulo 4 KiB. With stagger=128 the k-th 4 KiB
// page of the plan moves up by k * 128 bytes.

// CHECK-LABEL: func @pages
// CHECK: %[[S:.*]] = mplan.alloc_slab : <12544, 64>
// CHECK-DAG: mplan.alloc_tensor id({{[0-9]}}) live [{{.*}}) at %[[S]][0]
// CHECK-DAG: mplan.alloc_tensor id({{[0-9]}}) live [{{.*}}) at %[[S]][4224]
// CHECK-DAG: mplan.alloc_tensor id({{[0-9]}}) live [{{.*}}) at %[[S]][8448]
// FLAT-LABEL: func @pages
// FLAT: mplan.alloc_slab : <12288, 64>
// JSON: "name": "pages"
// JSON-NEXT: "strategy": "greedy-by-size"
// JSON-NEXT: "arena_bytes": 12544
// JSON-NEXT: "lower_bound_bytes": 12288
// JSON-NEXT: "stagger_bytes": 256
func.func @pages(%x: memref<1024xf32>) {
  %a = memref.alloc() : memref<1024xf32>
  %b = memref.alloc() : memref<1024xf32>
  %c = memref.alloc() : memref<1024xf32>
  linalg.map { math.absf } ins(%x : memref<1024xf32>) outs(%a : memref<1024xf32>)
  linalg.map { math.absf } ins(%x : memref<1024xf32>) outs(%b : memref<1024xf32>)
  linalg.map { math.absf } ins(%x : memref<1024xf32>) outs(%c : memref<1024xf32>)
  linalg.add ins(%a, %b : memref<1024xf32>, memref<1024xf32>) outs(%c : memref<1024xf32>)
  memref.copy %c, %x : memref<1024xf32> to memref<1024xf32>
  memref.dealloc %a : memref<1024xf32>
  memref.dealloc %b : memref<1024xf32>
  memref.dealloc %c : memref<1024xf32>
  return
}

// Buffers smaller than the period inside one page keep their offsets.

// CHECK-LABEL: func @small
// CHECK: %[[S:.*]] = mplan.alloc_slab : <128, 64>
// FLAT-LABEL: func @small
// FLAT: mplan.alloc_slab : <128, 64>
func.func @small(%x: memref<16xf32>) {
  %a = memref.alloc() : memref<16xf32>
  %b = memref.alloc() : memref<16xf32>
  linalg.map { math.absf } ins(%x : memref<16xf32>) outs(%a : memref<16xf32>)
  linalg.add ins(%a, %x : memref<16xf32>, memref<16xf32>) outs(%b : memref<16xf32>)
  memref.copy %b, %x : memref<16xf32> to memref<16xf32>
  memref.dealloc %a : memref<16xf32>
  memref.dealloc %b : memref<16xf32>
  return
}
