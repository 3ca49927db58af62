// RUN: mplan-opt %s --mplan-plan-pipeline="capacity=default:512,workgroup:1024,1:256 report=%t.json" --mplan-verify-plan | FileCheck %s
// RUN: mplan-opt %s --mplan-plan-buffers="capacity=default:512" -o /dev/null
// RUN: mplan-opt %s --mplan-plan-pipeline="capacity=workgroup:768" -verify-diagnostics -o /dev/null

// Capacities per memory space: at a reachable arena each space plans; below
// its lower bound a space is a located error naming the space, the arena, the
// capacity, the lower bound and the buffers live at the peak. Each slab records
// its capacity, which convert-mplan-to-memref checks nested callee arenas against.
// CHECK-LABEL: func.func @spaces
// CHECK-DAG:   mplan.alloc_slab {capacity = 512 : i64} : <256, 64>
// CHECK-DAG:   mplan.alloc_slab {capacity = 1024 : i64} : <1024, 64, #gpu.address_space<workgroup>>
// CHECK-DAG:   mplan.alloc_slab {capacity = 256 : i64} : <128, 64, 1 : i64>
// expected-error @+2 {{memory space '#gpu.address_space<workgroup>' of function 'spaces' needs 1024 bytes (strategy best}}
// expected-note @+1 {{2 buffers live at op}}
func.func @spaces(%in: memref<64xf32>, %out: memref<64xf32>) {
  %a = memref.alloc() : memref<64xf32>
  %b = memref.alloc() : memref<64xf32>
  linalg.map { math.absf } ins(%in : memref<64xf32>) outs(%a : memref<64xf32>)
  linalg.map { math.exp } ins(%a : memref<64xf32>) outs(%b : memref<64xf32>)
  %w1 = memref.alloc() : memref<128xf32, #gpu.address_space<workgroup>>
  %w2 = memref.alloc() : memref<128xf32, #gpu.address_space<workgroup>>
  %s1 = memref.alloc() : memref<32xf32, 1>
  %sa = memref.subview %w1[0] [64] [1] : memref<128xf32, #gpu.address_space<workgroup>> to memref<64xf32, strided<[1]>, #gpu.address_space<workgroup>>
  %sb = memref.subview %w2[0] [64] [1] : memref<128xf32, #gpu.address_space<workgroup>> to memref<64xf32, strided<[1]>, #gpu.address_space<workgroup>>
  memref.copy %b, %sa : memref<64xf32> to memref<64xf32, strided<[1]>, #gpu.address_space<workgroup>>
  // expected-note @below {{the op floor is 1024 bytes: this op touches that many bytes of the space's planned buffers at once, which no order, recomputation or offload goes below; a capacity below it needs the op tiled}}
  memref.copy %sa, %sb : memref<64xf32, strided<[1]>, #gpu.address_space<workgroup>> to memref<64xf32, strided<[1]>, #gpu.address_space<workgroup>>
  %s1v = memref.subview %sb[0] [32] [1] : memref<64xf32, strided<[1]>, #gpu.address_space<workgroup>> to memref<32xf32, strided<[1]>, #gpu.address_space<workgroup>>
  memref.copy %s1v, %s1 : memref<32xf32, strided<[1]>, #gpu.address_space<workgroup>> to memref<32xf32, 1>
  %ov = memref.subview %out[0] [32] [1] : memref<64xf32> to memref<32xf32, strided<[1]>>
  memref.copy %s1, %ov : memref<32xf32, 1> to memref<32xf32, strided<[1]>>
  return
}
