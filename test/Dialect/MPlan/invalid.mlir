// RUN: mplan-opt %s --split-input-file --verify-diagnostics

// expected-error @+1 {{slab alignment must be a positive power of two, got 3}}
func.func @bad_slab_alignment(%s: !mplan.slab<64, 3>) {
  return
}

// -----

// expected-error @+1 {{slab size must be non-negative, got -1}}
func.func @bad_slab_size(%s: !mplan.slab<-1, 8>) {
  return
}

// -----

func.func @negative_id() {
  // expected-error @+1 {{id must be non-negative, got -1}}
  %0 = mplan.alloc_tensor id(-1) -> memref<4xf32>
  return
}

// -----

func.func @empty_range() {
  // expected-error @+1 {{live range [3, 3) must be non-empty and non-negative}}
  %0 = mplan.alloc_tensor id(0) live [3, 3) -> memref<4xf32>
  return
}

// -----

func.func @half_range() {
  // expected-error @+1 {{expects both 'start' and 'end' or neither}}
  %0 = "mplan.alloc_tensor"() {id = 0 : i64, start = 1 : i64} : () -> memref<4xf32>
  return
}

// -----

func.func @bad_alignment() {
  // expected-error @+1 {{alignment must be a positive power of two, got 12}}
  %0 = mplan.alloc_tensor id(0) {alignment = 12 : i64} -> memref<4xf32>
  return
}

// -----

func.func @dynamic_shape() {
  // expected-error @+1 {{result #0 must be statically shaped memref with identity layout}}
  %0 = "mplan.alloc_tensor"() {id = 0 : i64} : () -> memref<?xf32>
  return
}

// -----

func.func @layout() {
  // expected-error @+1 {{result #0 must be statically shaped memref with identity layout}}
  %0 = "mplan.alloc_tensor"() {id = 0 : i64} : () -> memref<4xf32, strided<[2]>>
  return
}

// -----

func.func @unsized_element() {
  // expected-error @+1 {{element type 'memref<4xf32>' has no fixed byte size}}
  %0 = mplan.alloc_tensor id(0) -> memref<4xmemref<4xf32>>
  return
}

// -----

func.func @overflowing_size() {
  // expected-error @+1 {{has no fixed byte size or the buffer size overflows}}
  %0 = mplan.alloc_tensor id(0) -> memref<4611686018427387904x4xf32>
  return
}

// -----

func.func @offset_without_slab() {
  // expected-error @+1 {{expects a slab and an offset together}}
  %0 = "mplan.alloc_tensor"() {id = 0 : i64, offset = 0 : i64, operandSegmentSizes = array<i32: 0>} : () -> memref<4xf32>
  return
}

// -----

func.func @misaligned_offset() {
  %s = mplan.alloc_slab : !mplan.slab<128, 64>
  // expected-error @+1 {{offset 8 is not a multiple of the alignment 64}}
  %0 = mplan.alloc_tensor id(0) at %s[8] : !mplan.slab<128, 64> {alignment = 64 : i64} -> memref<4xf32>
  return
}

// -----

func.func @negative_offset() {
  %s = mplan.alloc_slab : !mplan.slab<128, 64>
  // expected-error @+1 {{offset must be non-negative, got -4}}
  %0 = mplan.alloc_tensor id(0) at %s[-4] : !mplan.slab<128, 64> -> memref<4xf32>
  return
}

// -----

func.func @alignment_above_slab() {
  %s = mplan.alloc_slab : !mplan.slab<256, 16>
  // expected-error @+1 {{alignment 64 exceeds the slab's alignment 16}}
  %0 = mplan.alloc_tensor id(0) at %s[64] : !mplan.slab<256, 16> {alignment = 64 : i64} -> memref<4xf32>
  return
}

// -----

func.func @element_misaligned() {
  %s = mplan.alloc_slab : !mplan.slab<128, 64>
  // expected-error @+1 {{offset 2 is not a multiple of the element alignment 4}}
  %0 = mplan.alloc_tensor id(0) at %s[2] : !mplan.slab<128, 64> -> memref<4xf32>
  return
}

// -----

func.func @vector_misaligned() {
  %s = mplan.alloc_slab : !mplan.slab<256, 64>
  // expected-error @+1 {{offset 16 is not a multiple of the element alignment 32}}
  %0 = mplan.alloc_tensor id(0) at %s[16] : !mplan.slab<256, 64> -> memref<2xvector<5xf32>>
  return
}

// -----

func.func @element_alignment_above_slab() {
  %s = mplan.alloc_slab : !mplan.slab<256, 8>
  // expected-error @+1 {{alignment 16 exceeds the slab's alignment 8}}
  %0 = mplan.alloc_tensor id(0) at %s[0] : !mplan.slab<256, 8> -> memref<1xvector<4xf32>>
  return
}

// -----

func.func @nd_vector_size() {
  %s = mplan.alloc_slab : !mplan.slab<128, 16>
  // vector<5x3xf32> is [5 x <3 x float>]: 80 bytes, so two do not fit in 128.
  // expected-error @+1 {{bytes [0, 0 + 160) do not fit in a slab of 128 bytes}}
  %0 = mplan.alloc_tensor id(0) at %s[0] : !mplan.slab<128, 16> -> memref<2xvector<5x3xf32>>
  return
}

// -----

func.func @space_mismatch() {
  %s = mplan.alloc_slab : !mplan.slab<256, 64>
  // expected-error @+1 {{memory space of the buffer differs from the slab's}}
  %0 = mplan.alloc_tensor id(0) at %s[0] : !mplan.slab<256, 64> -> memref<4xf32, 1>
  return
}

// -----

func.func @space_mismatch_slab() {
  %s = mplan.alloc_slab : !mplan.slab<256, 64, #gpu.address_space<workgroup>>
  // expected-error @+1 {{memory space of the buffer differs from the slab's}}
  %0 = mplan.alloc_tensor id(0) at %s[0] : !mplan.slab<256, 64, #gpu.address_space<workgroup>> -> memref<4xf32, 1>
  return
}

// -----

func.func @outside_slab() {
  %s = mplan.alloc_slab : !mplan.slab<128, 64>
  // expected-error @+1 {{bytes [64, 64 + 128) do not fit in a slab of 128 bytes}}
  %0 = mplan.alloc_tensor id(0) at %s[64] : !mplan.slab<128, 64> -> memref<32xf32>
  return
}

// -----

func.func @view_element_type(%arg0: memref<16xf32>) {
  // expected-error @+1 {{element type 'i32' differs from the source's element type 'f32'}}
  %0 = mplan.view %arg0[0] : memref<16xf32> to memref<16xi32>
  return
}

// -----

func.func @view_dynamic(%arg0: memref<16xf32>) {
  // expected-error @+1 {{result type 'memref<4xf32, strided<[?]>>' must have a static strided layout}}
  %0 = mplan.view %arg0[0] : memref<16xf32> to memref<4xf32, strided<[?]>>
  return
}

// -----

func.func @view_byte_offset(%arg0: memref<16xf32>) {
  // expected-error @+1 {{byte offset 6 is not a multiple of the element size 4}}
  %0 = mplan.view %arg0[6] : memref<16xf32> to memref<4xf32, strided<[1], offset: 1>>
  return
}

// -----

func.func @view_layout_offset(%arg0: memref<16xf32>) {
  // expected-error @+1 {{result layout offset 2 must equal the source's layout offset 0 plus the byte offset 4 in elements}}
  %0 = mplan.view %arg0[4] : memref<16xf32> to memref<4xf32, strided<[1], offset: 2>>
  return
}

// -----

func.func @view_out_of_bounds(%arg0: memref<16xf32>) {
  // expected-error @+1 {{view addresses elements outside its source's bytes}}
  %0 = mplan.view %arg0[32] : memref<16xf32> to memref<4x4xf32, strided<[4, 1], offset: 8>>
  return
}

// -----

func.func @view_memory_space(%arg0: memref<16xf32, 1>) {
  // expected-error @+1 {{memory space differs from the source's}}
  %0 = mplan.view %arg0[0] : memref<16xf32, 1> to memref<16xf32>
  return
}

// -----

func.func @dynamic_sizes(%n: index) {
  // expected-error @+1 {{expects one size per dynamic dimension (2), got 1}}
  %0 = mplan.alloc_dynamic id(0) (%n) -> memref<?x?xf32>
  return
}

// -----

func.func @dynamic_negative_id(%n: index) {
  // expected-error @+1 {{id must be non-negative, got -1}}
  %0 = mplan.alloc_dynamic id(-1) (%n) -> memref<?xf32>
  return
}

// -----

func.func @dynamic_alignment(%n: index) {
  // expected-error @+1 {{alignment must be a positive power of two, got 12}}
  %0 = mplan.alloc_dynamic id(0) (%n) {alignment = 12 : i64} -> memref<?xf32>
  return
}

// -----

func.func @dynamic_live_range(%n: index) {
  // expected-error @+1 {{live range [5, 5) must be non-empty and non-negative}}
  %0 = mplan.alloc_dynamic id(0) (%n) live [5, 5) -> memref<?xf32>
  return
}

// -----

func.func @dynamic_element(%n: index) {
  // expected-error @+1 {{element type 'memref<4xf32>' has no fixed byte size}}
  %0 = mplan.alloc_dynamic id(0) (%n) -> memref<?xmemref<4xf32>>
  return
}

// -----

func.func @dynamic_above_without_slab(%n: index) {
  // expected-error @+1 {{expects a slab and an 'above' list together}}
  %0 = mplan.alloc_dynamic id(0) (%n) {above = array<i64: 1>} -> memref<?xf32>
  return
}

// -----

func.func @dynamic_above_itself(%n: index) {
  %slab = mplan.alloc_slab : !mplan.slab<0, 64>
  // expected-error @+1 {{is listed above itself (id 4)}}
  %0 = mplan.alloc_dynamic id(4) (%n) in %slab above [4] : !mplan.slab<0, 64> -> memref<?xf32>
  return
}

// -----

func.func @dynamic_above_twice(%n: index) {
  %slab = mplan.alloc_slab : !mplan.slab<0, 64>
  // expected-error @+1 {{lists id 1 twice in 'above'}}
  %0 = mplan.alloc_dynamic id(4) (%n) in %slab above [1, 1] : !mplan.slab<0, 64> -> memref<?xf32>
  return
}

// -----

func.func @dynamic_slab_alignment(%n: index) {
  %slab = mplan.alloc_slab : !mplan.slab<0, 16>
  // expected-error @+1 {{alignment 64 exceeds the slab's alignment 16}}
  %0 = mplan.alloc_dynamic id(0) (%n) in %slab above [] : !mplan.slab<0, 16> {alignment = 64 : i64} -> memref<?xf32>
  return
}

// -----

func.func @dynamic_memory_space(%n: index) {
  %slab = mplan.alloc_slab : !mplan.slab<0, 16>
  // expected-error @+1 {{memory space of the buffer differs from the slab's}}
  %0 = mplan.alloc_dynamic id(0) (%n) in %slab above [] : !mplan.slab<0, 16> -> memref<?xf32, 1>
  return
}

// -----

func.func @dynamic_static_overflow(%n: index) {
  // expected-error @+1 {{the byte size of its static dimensions overflows int64}}
  %0 = mplan.alloc_dynamic id(0) (%n) -> memref<?x4611686018427387904x4xf32>
  return
}

// -----

// A slab's capacity bounds its size and excludes run-time sized buffers.
func.func @slab_over_capacity() {
  // expected-error @+1 {{size 128 exceeds its capacity of 64 bytes}}
  %s = mplan.alloc_slab {capacity = 64 : i64} : !mplan.slab<128, 64>
  mplan.release_slab %s : !mplan.slab<128, 64>
  return
}

// -----

func.func @slab_capacity_not_positive() {
  // expected-error @+1 {{attribute 'capacity' failed to satisfy constraint: 64-bit signless integer attribute whose value is positive}}
  %s = mplan.alloc_slab {capacity = 0 : i64} : !mplan.slab<0, 64>
  mplan.release_slab %s : !mplan.slab<0, 64>
  return
}

// -----

func.func @slab_capacity_dynamic(%n: index) {
  // expected-error @+1 {{has a capacity and holds a run-time sized buffer, which would grow it at run time}}
  %s = mplan.alloc_slab {capacity = 128 : i64} : !mplan.slab<64, 64>
  %a = mplan.alloc_dynamic id(0) (%n) live [1, 2) in %s above [] : !mplan.slab<64, 64> -> memref<?xf32>
  mplan.release_slab %s : !mplan.slab<64, 64>
  return
}
