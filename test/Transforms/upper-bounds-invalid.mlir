// RUN: mplan-opt %s --split-input-file --mplan-capture-buffers -verify-diagnostics
// RUN: mplan-opt %s --split-input-file --mplan-plan-pipeline -verify-diagnostics
// RUN: not mplan-opt %s --mplan-capture-buffers="max-bound-bytes=-1" 2>&1 | FileCheck %s --check-prefix=OPTION
// RUN: not mplan-opt %s --mplan-plan-pipeline="max-bound-bytes=-1" 2>&1 | FileCheck %s --check-prefix=OPTION

// Bound attributes the analysis cannot use are located errors, never ignored.
// RUN: not mplan-opt %s --mplan-capture-buffers="arg-upper-bound=-3" 2>&1 | FileCheck %s --check-prefix=ARGOPT
// RUN: not mplan-opt %s --mplan-plan-pipeline="arg-upper-bound=-3" 2>&1 | FileCheck %s --check-prefix=ARGOPT
// OPTION: option 'max-bound-bytes': must be >= 0 (0: plan no dynamically shaped buffer), got -1
// ARGOPT: option 'arg-upper-bound': must be >= 0 (0: none), got -3

// expected-error @below {{argument #0 carries 'mplan.upper_bound', which bounds an argument of type 'index'; the argument has type 'i64'}}
func.func @not_index(%n: i64 {mplan.upper_bound = 16 : i64}) {
  return
}

// -----

// expected-error @below {{argument #1 carries 'mplan.upper_bound', which must be a positive bound; got 0}}
func.func @zero(%a: index, %n: index {mplan.upper_bound = 0 : i64}) {
  return
}

// -----

// expected-error @below {{argument #0 carries 'mplan.upper_bound', which must be a positive bound; got -4}}
func.func @negative(%n: index {mplan.upper_bound = -4 : i64}) {
  return
}

// -----

// expected-error @below {{argument #0 carries 'mplan.upper_bound', which must be an i64 integer; got "16"}}
func.func @not_integer(%n: index {mplan.upper_bound = "16"}) {
  return
}

// -----

// expected-error @below {{argument #0 carries 'mplan.upper_bound', which must be an i64 integer; got 16 : i32}}
func.func @not_i64(%n: index {mplan.upper_bound = 16 : i32}) {
  return
}

// -----

// expected-error @below {{argument #0 carries 'mplan.dim_upper_bounds', whose entry 8 bounds static dimension 1 of 'memref<?x4xf32>'; use -1 there}}
func.func @static_dim(%m: memref<?x4xf32> {mplan.dim_upper_bounds = array<i64: 16, 8>}) {
  return
}

// -----

// expected-error @below {{argument #0 carries 'mplan.dim_upper_bounds', whose entry for dimension 0 must be a positive bound or -1 (none); got 0}}
func.func @zero_dim(%m: memref<?x4xf32> {mplan.dim_upper_bounds = array<i64: 0, -1>}) {
  return
}

// -----

// expected-error @below {{argument #0 carries 'mplan.dim_upper_bounds', whose entry for dimension 1 must be a positive bound or -1 (none); got -2}}
func.func @negative_dim(%t: memref<4x?xf32> {mplan.dim_upper_bounds = array<i64: -1, -2>}) {
  return
}

// -----

// expected-error @below {{argument #0 carries 'mplan.dim_upper_bounds', which needs one entry per dimension (2); got 1}}
func.func @wrong_rank(%m: memref<?x?xf32> {mplan.dim_upper_bounds = array<i64: 16>}) {
  return
}

// -----

// expected-error @below {{argument #0 carries 'mplan.dim_upper_bounds', which must be an array<i64: ...>; got [16, -1]}}
func.func @not_array(%m: memref<?x4xf32> {mplan.dim_upper_bounds = [16, -1]}) {
  return
}

// -----

// expected-error @below {{argument #1 carries 'mplan.dim_upper_bounds', which bounds the dimensions of a ranked memref or tensor argument; the argument has type 'index'}}
func.func @not_shaped(%m: memref<?xf32>, %n: index {mplan.dim_upper_bounds = array<i64: 16>}) {
  return
}

// -----

// expected-error @below {{argument #0 carries 'mplan.dim_upper_bounds', which bounds the dimensions of a ranked memref or tensor argument; the argument has type 'memref<*xf32>'}}
func.func @unranked(%m: memref<*xf32> {mplan.dim_upper_bounds = array<i64: 16>}) {
  return
}

// -----

// expected-error @below {{function @fn_zero carries 'mplan.arg_upper_bound', which must be a positive bound; got 0}}
func.func @fn_zero(%n: index) attributes {mplan.arg_upper_bound = 0 : i64} {
  return
}

// -----

// expected-error @below {{function @fn_not_i64 carries 'mplan.arg_upper_bound', which must be an i64 integer; got 16 : i32}}
func.func @fn_not_i64(%n: index) attributes {mplan.arg_upper_bound = 16 : i32} {
  return
}

// -----

// expected-error @below {{function @fn_string carries 'mplan.arg_upper_bound', which must be an i64 integer; got "16"}}
func.func @fn_string(%n: index) attributes {mplan.arg_upper_bound = "16"} {
  return
}

// -----

// Bounds anywhere but where they bound an argument would be ignored: located errors
// (issue 30).
// expected-error @below {{argument #1 carries 'mplan.arg_upper_bound', which is a function attribute; bound the argument with 'mplan.upper_bound' (index) or 'mplan.dim_upper_bounds' (memref, tensor)}}
func.func @arg_bound_on_argument(%a: index, %n: index {mplan.arg_upper_bound = 8 : i64}) {
  return
}

// -----

// expected-error @below {{function @upper_bound_on_function carries 'mplan.upper_bound', which bounds an argument; put it on the argument, or 'mplan.arg_upper_bound' on the function for every argument without a bound}}
func.func @upper_bound_on_function(%n: index) attributes {mplan.upper_bound = 8 : i64} {
  return
}

// -----

// expected-error @below {{function @dim_bounds_on_function carries 'mplan.dim_upper_bounds', which bounds an argument}}
func.func @dim_bounds_on_function(%x: memref<?xf32>) attributes {mplan.dim_upper_bounds = array<i64: 4>} {
  return
}

// -----

// expected-error @below {{result #0 of @upper_bound_on_result carries 'mplan.upper_bound', which bounds function arguments only}}
func.func @upper_bound_on_result(%n: index) -> (index {mplan.upper_bound = 8 : i64}) {
  return %n : index
}

// -----

// expected-error @below {{result #1 of @negative_on_result carries 'mplan.upper_bound', which bounds function arguments only}}
func.func @negative_on_result(%n: index) -> (index, index {mplan.upper_bound = -8 : i64}) {
  return %n, %n : index, index
}
