// RUN: mplan-opt %s --split-input-file --mplan-capture-buffers="remarks=true" -verify-diagnostics | FileCheck %s
// RUN: mplan-opt %s --split-input-file --mplan-capture-buffers="max-bound-bytes=4096" | FileCheck %s --check-prefix=CAP
// RUN: mplan-opt %s --split-input-file --mplan-plan-pipeline="report=-" -o /dev/null | FileCheck %s --check-prefix=REPORT

// Dynamically shaped buffers whose sizes have constant upper bounds are captured at their
// upper-bound size (issue 15, item 1): an mplan.alloc_tensor of the static type, viewed as
// the original type, with the bounds that made it plannable in `mplan.bound`.

// An affine.min clamp bounds the size in the IR alone.
// CHECK-LABEL: func @affine_min
// CHECK:       %[[N:.*]] = affine.min
// CHECK:       %[[T:.*]] = mplan.alloc_tensor id(0) {mplan.bound = "dimension 0 <= 128 (derived from the IR)"} -> memref<128x64xf32>
// CHECK:       %[[V:.*]] = memref.reinterpret_cast %[[T]] to offset: [0], sizes: [%[[N]], 64], strides: [64, 1] {mplan.bound = "dimension 0 <= 128 (derived from the IR)"} : memref<128x64xf32> to memref<?x64xf32>
// CHECK:       linalg.fill {{.*}} outs(%[[V]] : memref<?x64xf32>)
// CHECK-NOT:   memref.dealloc
// CAP-LABEL:   func @affine_min
// CAP:         mplan.alloc_dynamic id(0) (%{{.*}}) -> memref<?x64xf32>
// REPORT:      "name": "affine_min"
// REPORT:      "size": 32768
// REPORT-NEXT: "offset": 0
// REPORT-NEXT: "bound": "dimension 0 <= 128 (derived from the IR)"
// REPORT:      "unmanaged": []
func.func @affine_min(%n: index) {
  %cst = arith.constant 1.0 : f32
  %c = affine.min affine_map<(d0) -> (d0, 128)>(%n)
  %a = memref.alloc(%c) : memref<?x64xf32>
  linalg.fill ins(%cst : f32) outs(%a : memref<?x64xf32>)
  memref.dealloc %a : memref<?x64xf32>
  return
}

// -----

// A size chosen by scf.if between constants, and a loop induction variable.
// CHECK-LABEL: func @constants_and_loops
// CHECK:       mplan.alloc_tensor id(0) {mplan.bound = "dimension 0 <= 32 (derived from the IR)"} -> memref<32xf32>
// CHECK:       scf.for %[[I:.*]] =
// CHECK:         mplan.alloc_tensor id(1) {mplan.bound = "dimension 0 <= 9 (derived from the IR)"} -> memref<9xf32>
func.func @constants_and_loops(%c: i1) {
  %cst = arith.constant 1.0 : f32
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c10 = arith.constant 10 : index
  %c16 = arith.constant 16 : index
  %c32 = arith.constant 32 : index
  %n = arith.select %c, %c16, %c32 : index
  %a = memref.alloc(%n) : memref<?xf32>
  linalg.fill ins(%cst : f32) outs(%a : memref<?xf32>)
  scf.for %i = %c0 to %c10 step %c1 {
    %b = memref.alloc(%i) : memref<?xf32>
    linalg.fill ins(%cst : f32) outs(%b : memref<?xf32>)
  }
  return
}

// -----

// Bounds the user states on index arguments carry through arithmetic, without assuming
// monotonicity: 2 * n is bounded, min(n, m) + n by 8 + 1024; a stated bound is a size's, so the
// argument lies in [0, N] and 100 - m is at most 100 (without the lower bound 0, 2 * n could
// wrap below it to any value: n = -2^63 + 1500 gives 3000).
// CHECK-LABEL: func @user_index_bounds
// CHECK:       mplan.alloc_tensor id(0) {mplan.bound = "dimension 0 <= 2048 (mplan.upper_bound 1024 of %arg0)"} -> memref<2048xf32>
// CHECK:       mplan.alloc_tensor id(1) {mplan.bound = "dimension 0 <= 100 (mplan.upper_bound 8 of %arg1)"} -> memref<100xf32>
// CHECK:       mplan.alloc_tensor id(2) {mplan.bound = "dimension 0 <= 1032 (mplan.upper_bound 1024 of %arg0, mplan.upper_bound 8 of %arg1)"} -> memref<1032x4xf32>
// CHECK:       memref.reinterpret_cast %{{.*}} to offset: [0], sizes: [%{{.*}}, 4], strides: [4, 1]
func.func @user_index_bounds(%n: index {mplan.upper_bound = 1024 : i64},
                             %m: index {mplan.upper_bound = 8 : i64}) {
  %cst = arith.constant 1.0 : f32
  %c2 = arith.constant 2 : index
  %c100 = arith.constant 100 : index
  %k = arith.muli %n, %c2 : index
  %a = memref.alloc(%k) : memref<?xf32>
  linalg.fill ins(%cst : f32) outs(%a : memref<?xf32>)
  %d = arith.subi %c100, %m : index
  %b = memref.alloc(%d) : memref<?xf32>
  linalg.fill ins(%cst : f32) outs(%b : memref<?xf32>)
  %mn = affine.min affine_map<(d0, d1) -> (d0, d1)>(%n, %m)
  %s = arith.addi %mn, %n : index
  %c = memref.alloc(%s) : memref<?x4xf32>
  linalg.fill ins(%cst : f32) outs(%c : memref<?x4xf32>)
  return
}

// -----

// memref.dim of a memref argument with bounded dimensions; an unbounded dimension (-1) gives
// no bound (sized at run time).
// CHECK-LABEL: func @dim_of_bounded_argument
// CHECK:       mplan.alloc_tensor id(0) {mplan.bound = "dimension 0 <= 16 (mplan.dim_upper_bounds 16 of dimension 0 of %arg0)"} -> memref<16x32xf32>
// CHECK:       mplan.alloc_dynamic id(1) (%{{.*}}) -> memref<?x32xf32>
func.func @dim_of_bounded_argument(%in: memref<?x?xf32> {mplan.dim_upper_bounds = array<i64: 16, -1>}) {
  %cst = arith.constant 1.0 : f32
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %d0 = memref.dim %in, %c0 : memref<?x?xf32>
  %a = memref.alloc(%d0) : memref<?x32xf32>
  linalg.fill ins(%cst : f32) outs(%a : memref<?x32xf32>)
  %d1 = memref.dim %in, %c1 : memref<?x?xf32>
  // expected-remark @below {{buffer sized at run time: dynamic shape: no upper bound for dimension 0}}
  %b = memref.alloc(%d1) : memref<?x32xf32>
  linalg.fill ins(%cst : f32) outs(%b : memref<?x32xf32>)
  return
}

// -----

// Inner dynamic dimensions: the identity layout's strides are dynamic, so the view computes
// them from the sizes; the buffer at its bounds holds at least as many elements.
// CHECK-LABEL: func @inner_dynamic
// CHECK-SAME:  (%[[N:.*]]: index {{.*}}, %[[M:.*]]: index
// CHECK:       %[[T:.*]] = mplan.alloc_tensor id(0) {mplan.bound = "dimension 1 <= 8 (mplan.upper_bound 8 of %arg0); dimension 2 <= 4 (mplan.upper_bound 4 of %arg1)"} -> memref<3x8x4xf32>
// CHECK:       %[[S1:.*]] = arith.muli %[[M]], %[[N]] : index
// CHECK:       memref.reinterpret_cast %[[T]] to offset: [0], sizes: [3, %[[N]], %[[M]]], strides: [%[[S1]], %[[M]], 1] {mplan.bound = {{.*}}} : memref<3x8x4xf32> to memref<3x?x?xf32>
// CHECK-LABEL: func @inner_static_after_dynamic
// CHECK:       %[[T:.*]] = mplan.alloc_tensor id(0) {{.*}} -> memref<8x5xf32>
// CHECK:       memref.reinterpret_cast %[[T]] to offset: [0], sizes: [%{{.*}}, 5], strides: [5, 1]
// CHECK-LABEL: func @dynamic_between_static
// CHECK:       %[[T:.*]] = mplan.alloc_tensor id(0) {{.*}} -> memref<2x8x5xf32>
// CHECK:       %[[C5:.*]] = arith.constant 5 : index
// CHECK:       %[[S:.*]] = arith.muli %[[N:.*]], %[[C5]] : index
// CHECK:       memref.reinterpret_cast %[[T]] to offset: [0], sizes: [2, %[[N]], 5], strides: [%[[S]], 5, 1]
func.func @inner_dynamic(%n: index {mplan.upper_bound = 8 : i64},
                         %m: index {mplan.upper_bound = 4 : i64}) {
  %cst = arith.constant 1.0 : f32
  %a = memref.alloc(%n, %m) : memref<3x?x?xf32>
  linalg.fill ins(%cst : f32) outs(%a : memref<3x?x?xf32>)
  return
}
func.func @inner_static_after_dynamic(%n: index {mplan.upper_bound = 8 : i64}) {
  %cst = arith.constant 1.0 : f32
  %a = memref.alloc(%n) : memref<?x5xf32>
  linalg.fill ins(%cst : f32) outs(%a : memref<?x5xf32>)
  return
}
func.func @dynamic_between_static(%n: index {mplan.upper_bound = 8 : i64}) {
  %cst = arith.constant 1.0 : f32
  %a = memref.alloc(%n) : memref<2x?x5xf32>
  linalg.fill ins(%cst : f32) outs(%a : memref<2x?x5xf32>)
  return
}

// -----

// A bounded buffer is still left alone for the analysis' reasons (here: returned), and
// a bound the cap rejects counts as no bound: that buffer is sized at run time.
// CHECK-LABEL: func @still_unmanaged
// CHECK:       memref.alloc(%{{.*}}) {mplan.unplanned = "escapes via return"}
// CHECK:       mplan.alloc_dynamic id(0) (%arg0) -> memref<?xf32>
func.func @still_unmanaged(%n: index {mplan.upper_bound = 4611686018427387904 : i64}) -> memref<?xf32> {
  %cst = arith.constant 1.0 : f32
  %c4 = arith.constant 4 : index
  %s = affine.min affine_map<(d0) -> (d0, 64)>(%n)
  // expected-remark @below {{buffer left unplanned: escapes via return}}
  %a = memref.alloc(%s) : memref<?xf32>
  linalg.fill ins(%cst : f32) outs(%a : memref<?xf32>)
  // expected-remark @below {{buffer sized at run time: dynamic shape: the upper bound (dimension 0 <= 4611686018427387904 (mplan.upper_bound 4611686018427387904 of %arg0)) gives a byte size that overflows int64, above the cap of 1073741824 bytes (max-bound-bytes)}}
  %b = memref.alloc(%n) : memref<?xf32>
  linalg.fill ins(%cst : f32) outs(%b : memref<?xf32>)
  return %a : memref<?xf32>
}

// -----

// A derived bound that does not fit in int64 is no bound (issue 30, item 3): `%n + 1` with
// `%n <= 2^63 - 1` and `2 * %m` with `%m <= 2^62` are at most 2^63, which upstream's constant
// bound query narrowed to -2^63, so both buffers were captured at 0 elements. They are sized at
// run time, with the overflowing bound in the remark. A bound of exactly 2^63 - 1 fits: that
// buffer is rejected by the byte cap instead.
// CHECK-LABEL: func @overflowing_bounds
// CHECK:       mplan.alloc_dynamic id(0) (%{{.*}}) -> memref<?xf32>
// CHECK:       mplan.alloc_dynamic id(1) (%{{.*}}) -> memref<?xi8>
// CHECK:       mplan.alloc_dynamic id(2) (%{{.*}}) -> memref<?xi8>
// CHECK-NOT:   mplan.alloc_tensor
func.func @overflowing_bounds(%n: index {mplan.upper_bound = 9223372036854775807 : i64},
                              %m: index {mplan.upper_bound = 4611686018427387904 : i64},
                              %k: index {mplan.upper_bound = 9223372036854775806 : i64}) {
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %cst = arith.constant 1.0 : f32
  %i = arith.constant 1 : i8
  %s = arith.addi %n, %c1 : index
  // expected-remark @below {{buffer sized at run time: dynamic shape: the upper bound of dimension 0, 9223372036854775808 (mplan.upper_bound 9223372036854775807 of %arg0), does not fit in int64}}
  %a = memref.alloc(%s) : memref<?xf32>
  linalg.fill ins(%cst : f32) outs(%a : memref<?xf32>)
  %t = arith.muli %c2, %m : index
  // expected-remark @below {{buffer sized at run time: dynamic shape: the upper bound of dimension 0, 9223372036854775808 (mplan.upper_bound 4611686018427387904 of %arg1), does not fit in int64}}
  %b = memref.alloc(%t) : memref<?xi8>
  linalg.fill ins(%i : i8) outs(%b : memref<?xi8>)
  %u = arith.addi %k, %c1 : index
  // expected-remark @below {{buffer sized at run time: dynamic shape: the upper bound (dimension 0 <= 9223372036854775807 (mplan.upper_bound 9223372036854775806 of %arg2)) gives 9223372036854775807 bytes, above the cap of 1073741824 bytes (max-bound-bytes)}}
  %c = memref.alloc(%u) : memref<?xi8>
  linalg.fill ins(%i : i8) outs(%c : memref<?xi8>)
  memref.dealloc %a : memref<?xf32>
  memref.dealloc %b : memref<?xi8>
  memref.dealloc %c : memref<?xi8>
  return
}

// -----

// A bound the IR alone gives that does not fit (min(%n, 2^63 - 1) + 1 <= 2^63) is no bound
// either, and the stated bound of %n is tried as when the IR gives none: 17. The IR's bound
// came back as -2^63 and the buffer was captured at 0 elements.
// CHECK-LABEL: func @ir_bound_overflows
// CHECK:       mplan.alloc_tensor id(0) {mplan.bound = "dimension 0 <= 17 (mplan.upper_bound 16 of %arg0)"} -> memref<17xf32>
func.func @ir_bound_overflows(%n: index {mplan.upper_bound = 16 : i64}) {
  %cst = arith.constant 1.0 : f32
  %c1 = arith.constant 1 : index
  %m = affine.min affine_map<(d0) -> (d0, 9223372036854775807)>(%n)
  %s = arith.addi %m, %c1 : index
  %a = memref.alloc(%s) : memref<?xf32>
  linalg.fill ins(%cst : f32) outs(%a : memref<?xf32>)
  memref.dealloc %a : memref<?xf32>
  return
}

// -----

// A bound the constraint system derives where the machine's index arithmetic may wrap is no
// bound: 16 - 2 * dim is at most 16 to the system, 18 at run time when dim is 2^63 - 1 (an
// empty memref<?x0xf32>) and 2 * dim wraps to -2; 2 * dim + 4 with dim <= 100 stated cannot
// wrap. In an unsigned scf.for upstream models the induction variable as signed (0 <= i < -1:
// no value at all), so 8 * i + 32 got the "bound" 16 though it is 32 at i = 0. Both were planned
// at those bounds and overwrote their neighbours.
// CHECK-LABEL: func @may_wrap
// CHECK:       mplan.alloc_dynamic id(0)
// CHECK:       mplan.alloc_tensor id(1) {mplan.bound = "dimension 0 <= 204 (mplan.dim_upper_bounds 100 of dimension 0 of %arg1)"}
func.func @may_wrap(%m: memref<?x0xf32>, %b: memref<?xf32> {mplan.dim_upper_bounds = array<i64: 100>}) {
  %c0 = arith.constant 0 : index
  %c2 = arith.constant 2 : index
  %c4 = arith.constant 4 : index
  %c16 = arith.constant 16 : index
  %cst = arith.constant 1.0 : f32
  %n = memref.dim %m, %c0 : memref<?x0xf32>
  %twice = arith.muli %n, %c2 : index
  %size = arith.subi %c16, %twice : index
  // expected-remark @below {{buffer sized at run time: dynamic shape: no upper bound for dimension 0}}
  %a = memref.alloc(%size) : memref<?xf32>
  linalg.fill ins(%cst : f32) outs(%a : memref<?xf32>)
  %k = memref.dim %b, %c0 : memref<?xf32>
  %k2 = arith.muli %k, %c2 : index
  %k3 = arith.addi %k2, %c4 : index
  %c = memref.alloc(%k3) : memref<?xf32>
  linalg.fill ins(%cst : f32) outs(%c : memref<?xf32>)
  memref.dealloc %a : memref<?xf32>
  memref.dealloc %c : memref<?xf32>
  return
}

// CHECK-LABEL: func @unsigned_loop
// CHECK:       memref.alloc(%{{.*}}) {mplan.unplanned = "dynamic shape: no upper bound
func.func @unsigned_loop(%step: index) {
  %c0 = arith.constant 0 : index
  %c8 = arith.constant 8 : index
  %c32 = arith.constant 32 : index
  %cm1 = arith.constant -1 : index
  %cst = arith.constant 1.0 : f32
  scf.for unsigned %i = %c0 to %cm1 step %step {
    %i8 = arith.muli %i, %c8 : index
    %sz = arith.addi %i8, %c32 : index
    // expected-remark @below {{buffer left unplanned: dynamic shape: no upper bound for dimension 0}}
    %a = memref.alloc(%sz) : memref<?xf32>
    linalg.fill ins(%cst : f32) outs(%a : memref<?xf32>)
    memref.dealloc %a : memref<?xf32>
  }
  return
}

// -----

// Wraps of the lowering: lower-affine computes a ceildiv of a non-positive dividend as
// 0 - ((0 - s) floordiv c), and 0 - s wraps at s = INT64_MIN (s ceildiv 2^58 + 40 is at most 40
// to the system, 72 at run time); a lowered scf.for steps iv + step, which wraps below the
// upper bound when ub - 1 + step leaves int64, and runs an iteration at a negative iv (10 -
// iv floordiv 2^59 is at most 10 to the system, 23 in that iteration). No bound either way.
// CHECK-LABEL: func @lowering_wraps
// CHECK-NOT:   mplan.bound
// CHECK:       return
func.func @lowering_wraps(%x: index, %ub: index, %step: index) {
  %c0 = arith.constant 0 : index
  %cst = arith.constant 1.0 : f32
  %s = affine.min affine_map<()[s0] -> (s0, 0)>()[%x]
  %sz = affine.apply affine_map<()[s0] -> (s0 ceildiv 288230376151711744 + 40)>()[%s]
  // expected-remark @below {{buffer sized at run time: dynamic shape: no upper bound for dimension 0}}
  %a = memref.alloc(%sz) : memref<?xf32>
  linalg.fill ins(%cst : f32) outs(%a : memref<?xf32>)
  memref.dealloc %a : memref<?xf32>
  scf.for %i = %c0 to %ub step %step {
    %t = affine.apply affine_map<(d0) -> (10 - d0 floordiv 576460752303423488)>(%i)
    // expected-remark @below {{buffer left unplanned: dynamic shape: no upper bound for dimension 0}}
    %b = memref.alloc(%t) : memref<?xf32>
    linalg.fill ins(%cst : f32) outs(%b : memref<?xf32>)
    memref.dealloc %b : memref<?xf32>
  }
  return
}

// -----

// A dimension of a collapse_shape is the product of its group's source dimensions, which may
// wrap: 4 x (2^62 - 25) of an empty memref<?x?x0xf32> collapses to -100, so 10 - dim is 110 at
// run time while the system, taking the dimension as a size, bounds it by 10. No bound through
// such a product; a group whose other dimensions are 1 multiplies nothing and keeps its bound.
// CHECK-LABEL: func @collapse_product
// CHECK:       mplan.alloc_dynamic id(0)
// CHECK:       mplan.alloc_tensor id(1) {mplan.bound = "dimension 0 <= 10 (derived from the IR)"}
func.func @collapse_product(%m: memref<?x?x0xf32>, %u: memref<1x?x0xf32>) {
  %c0 = arith.constant 0 : index
  %c10 = arith.constant 10 : index
  %cst = arith.constant 1.0 : f32
  %c = memref.collapse_shape %m [[0, 1], [2]] : memref<?x?x0xf32> into memref<?x0xf32>
  %d = memref.dim %c, %c0 : memref<?x0xf32>
  %sz = arith.subi %c10, %d : index
  // expected-remark @below {{buffer sized at run time: dynamic shape: no upper bound for dimension 0}}
  %a = memref.alloc(%sz) : memref<?xf32>
  linalg.fill ins(%cst : f32) outs(%a : memref<?xf32>)
  %cu = memref.collapse_shape %u [[0, 1], [2]] : memref<1x?x0xf32> into memref<?x0xf32>
  %du = memref.dim %cu, %c0 : memref<?x0xf32>
  %szu = arith.subi %c10, %du : index
  %b = memref.alloc(%szu) : memref<?xf32>
  linalg.fill ins(%cst : f32) outs(%b : memref<?xf32>)
  memref.dealloc %a : memref<?xf32>
  memref.dealloc %b : memref<?xf32>
  return
}

// -----

// A dynamic dimension of a tensor.pad (low + source + high) or a tensor.concat
// (the inputs' sum) may wrap (2^62 + 2^62 of an empty tensor) where the
// constraint system takes it as a size: no bound through it.
// CHECK-LABEL: func @pad_concat_sum
// CHECK:       memref.alloc({{.*}}) {mplan.unplanned = "dynamic shape: no upper bound for dimension 0
// CHECK:       mplan.alloc_dynamic id(0)
// CHECK:       mplan.alloc_tensor id(1) {mplan.bound = "dimension 0 <= 7 (derived from the IR)"}
func.func @pad_concat_sum(%t: tensor<?x0xf32>, %lo: index) {
  %c0 = arith.constant 0 : index
  %c10 = arith.constant 10 : index
  %z = arith.constant 0.0 : f32
  %cst = arith.constant 1.0 : f32
  %p = tensor.pad %t low[%lo, 0] high[%lo, 0] {
  ^bb0(%i: index, %j: index):
    tensor.yield %z : f32
  } : tensor<?x0xf32> to tensor<?x0xf32>
  %dp = tensor.dim %p, %c0 : tensor<?x0xf32>
  %szp = arith.subi %c10, %dp : index
  // (Not sized at run time either: the pad is not speculatable.)
  // expected-remark @below {{buffer left unplanned: dynamic shape: no upper bound for dimension 0}}
  %a = memref.alloc(%szp) : memref<?xf32>
  linalg.fill ins(%cst : f32) outs(%a : memref<?xf32>)
  %cc = tensor.concat dim(0) %t, %t : (tensor<?x0xf32>, tensor<?x0xf32>) -> tensor<?x0xf32>
  %dc = tensor.dim %cc, %c0 : tensor<?x0xf32>
  %szc = arith.subi %c10, %dc : index
  // expected-remark @below {{buffer sized at run time: dynamic shape: no upper bound for dimension 0}}
  %b = memref.alloc(%szc) : memref<?xf32>
  linalg.fill ins(%cst : f32) outs(%b : memref<?xf32>)
  // A static padded dimension keeps its bound.
  %s = tensor.pad %t low[%lo, 1] high[%lo, 2] {
  ^bb0(%i: index, %j: index):
    tensor.yield %z : f32
  } : tensor<?x0xf32> to tensor<?x3xf32>
  %c1 = arith.constant 1 : index
  %d1 = tensor.dim %s, %c1 : tensor<?x3xf32>
  %szs = arith.subi %c10, %d1 : index
  %e = memref.alloc(%szs) : memref<?xf32>
  linalg.fill ins(%cst : f32) outs(%e : memref<?xf32>)
  memref.dealloc %a : memref<?xf32>
  memref.dealloc %b : memref<?xf32>
  memref.dealloc %e : memref<?xf32>
  return
}
