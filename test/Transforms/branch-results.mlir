// RUN: mplan-opt %s --split-input-file --mplan-plan-pipeline --mplan-verify-plan | FileCheck %s
// RUN: mplan-opt %s --split-input-file --mplan-mark-calls --mplan-capture-buffers --mplan-fold-views --test-mplan-rewrites-keep-liveness -o /dev/null

// Buffers that the branches of an scf.if allocate and yield (what One-Shot
// Bufferize makes of a tensor scf.if) become one buffer allocated before the
// op: the branches share its bytes, and it is live until the result's last
// use. The else branch's temporary is planned too (live in the branch only):
// the arena is the larger branch's 2 x 256 bytes, not 3 x 256.
// CHECK-LABEL: func.func @if_results
// CHECK:         %[[S:.*]] = mplan.alloc_slab : <512, 64>
// CHECK:         %[[R:.*]] = mplan.alloc_tensor id({{[0-9]+}}) live [{{[0-9]+}}, {{[0-9]+}}) at %[[S]]
// CHECK:         scf.if
// CHECK:           outs(%[[R]] : memref<64xf32>)
// CHECK:           scf.yield %[[R]]
// CHECK:         } else {
// CHECK:           mplan.alloc_tensor
// CHECK:           outs(%[[R]] : memref<64xf32>)
// CHECK:           scf.yield %[[R]]
// CHECK:         linalg.map { math.sqrt } ins(%[[R]] : memref<64xf32>)
// CHECK-NOT:     memref.alloc
func.func @if_results(%c: i1, %in: memref<64xf32>, %out: memref<64xf32>) {
  %r = scf.if %c -> memref<64xf32> {
    %a = memref.alloc() : memref<64xf32>
    linalg.map { math.absf } ins(%in : memref<64xf32>) outs(%a : memref<64xf32>)
    scf.yield %a : memref<64xf32>
  } else {
    %t = memref.alloc() : memref<64xf32>
    linalg.map { math.exp } ins(%in : memref<64xf32>) outs(%t : memref<64xf32>)
    %b = memref.alloc() : memref<64xf32>
    linalg.map { arith.negf } ins(%t : memref<64xf32>) outs(%b : memref<64xf32>)
    scf.yield %b : memref<64xf32>
  }
  linalg.map { math.sqrt } ins(%r : memref<64xf32>) outs(%out : memref<64xf32>)
  return
}

// -----

// scf.index_switch, nested in an scf.if: inner results first, then the outer
// branch yields the inner hoisted buffer.
// CHECK-LABEL: func.func @nested_switch
// CHECK:         mplan.alloc_tensor
// CHECK-NEXT:    scf.if
// CHECK-NOT:     memref.alloc
// CHECK:         return
func.func @nested_switch(%c: i1, %i: index, %in: memref<16xf32>, %out: memref<16xf32>) {
  %r = scf.if %c -> memref<16xf32> {
    %s = scf.index_switch %i -> memref<16xf32>
    case 0 {
      %a = memref.alloc() : memref<16xf32>
      linalg.map { math.absf } ins(%in : memref<16xf32>) outs(%a : memref<16xf32>)
      scf.yield %a : memref<16xf32>
    }
    default {
      %b = memref.alloc() : memref<16xf32>
      linalg.map { math.exp } ins(%in : memref<16xf32>) outs(%b : memref<16xf32>)
      scf.yield %b : memref<16xf32>
    }
    scf.yield %s : memref<16xf32>
  } else {
    %d = memref.alloc() : memref<16xf32>
    linalg.map { arith.negf } ins(%in : memref<16xf32>) outs(%d : memref<16xf32>)
    scf.yield %d : memref<16xf32>
  }
  memref.copy %r, %out : memref<16xf32> to memref<16xf32>
  return
}

// -----

// Different types, or a branch that yields an argument: left as they are.
// CHECK-LABEL: func.func @not_hoisted
// CHECK:         memref.alloc() {mplan.unplanned = "yielded out of the region it is allocated in"} : memref<16xf32>
// CHECK:         memref.alloc() {mplan.unplanned = "yielded out of the region it is allocated in"} : memref<16xf32>
func.func @not_hoisted(%c: i1, %in: memref<16xf32>, %out: memref<16xf32>) {
  %r = scf.if %c -> memref<16xf32> {
    %a = memref.alloc() : memref<16xf32>
    linalg.map { math.absf } ins(%in : memref<16xf32>) outs(%a : memref<16xf32>)
    scf.yield %a : memref<16xf32>
  } else {
    scf.yield %in : memref<16xf32>
  }
  %r2 = scf.if %c -> memref<16xf32, strided<[1]>> {
    %a = memref.alloc() : memref<16xf32>
    %v = memref.cast %a : memref<16xf32> to memref<16xf32, strided<[1]>>
    scf.yield %v : memref<16xf32, strided<[1]>>
  } else {
    %b = memref.alloc() : memref<32xf32>
    %v = memref.subview %b[0] [16] [1] : memref<32xf32> to memref<16xf32, strided<[1]>>
    scf.yield %v : memref<16xf32, strided<[1]>>
  }
  memref.copy %r, %out : memref<16xf32> to memref<16xf32>
  memref.copy %r2, %out : memref<16xf32, strided<[1]>> to memref<16xf32>
  return
}
