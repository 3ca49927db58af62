// RUN: mplan-opt %s --split-input-file --mplan-plan-pipeline="report=%t.json" --mplan-verify-plan | FileCheck %s
// RUN: FileCheck %s --check-prefix=JSON < %t.json

// (The report holds the last split only.)

// Buffers whose bytes can be reached in ways the IR does not show (stored,
// address taken, kept by a callee, yielded into a box, reallocated) are never
// planned, and no copy into or out of them is elided: the copy must freeze
// the values, whatever is written through the hidden path afterwards.

// CHECK-LABEL: func.func @copy_out_of_stored
// CHECK:         %[[Y:.*]] = memref.alloc() {mplan.unplanned = "stored to memory"}
// CHECK:         memref.copy
func.func @copy_out_of_stored(%box: memref<1xmemref<8xf32>>, %o: memref<4xf32>) {
  %c0 = arith.constant 0 : index
  %one = arith.constant 1.0 : f32
  %nine = arith.constant 9.0 : f32
  %y = memref.alloc() : memref<8xf32>
  linalg.fill ins(%one : f32) outs(%y : memref<8xf32>)
  memref.store %y, %box[%c0] : memref<1xmemref<8xf32>>
  %sv = memref.subview %y[0] [4] [1] : memref<8xf32> to memref<4xf32, strided<[1]>>
  %x = memref.alloc() : memref<4xf32>
  memref.copy %sv, %x : memref<4xf32, strided<[1]>> to memref<4xf32>
  %p = memref.load %box[%c0] : memref<1xmemref<8xf32>>
  linalg.fill ins(%nine : f32) outs(%p : memref<8xf32>)
  linalg.copy ins(%x : memref<4xf32>) outs(%o : memref<4xf32>)
  return
}

// -----

// CHECK-LABEL: func.func @copy_out_of_address_taken
// CHECK:         memref.alloc() {mplan.unplanned = "its address is taken by 'memref.extract_aligned_pointer_as_index'"}
// CHECK:         memref.copy
func.func @copy_out_of_address_taken(%o: memref<4xf32>) -> index {
  %one = arith.constant 1.0 : f32
  %y = memref.alloc() : memref<8xf32>
  linalg.fill ins(%one : f32) outs(%y : memref<8xf32>)
  %addr = memref.extract_aligned_pointer_as_index %y : memref<8xf32> -> index
  %sv = memref.subview %y[4] [4] [1] : memref<8xf32> to memref<4xf32, strided<[1], offset: 4>>
  %x = memref.alloc() : memref<4xf32>
  memref.copy %sv, %x : memref<4xf32, strided<[1], offset: 4>> to memref<4xf32>
  linalg.copy ins(%x : memref<4xf32>) outs(%o : memref<4xf32>)
  return %addr : index
}

// -----

// A write in place into a buffer a callee keeps: the callee may read the
// region before the copy.
// CHECK-LABEL: func.func @write_into_kept
// CHECK:         memref.alloc() {mplan.unplanned = "passed to a call to keep"}
// CHECK:         memref.copy
func.func private @keep(memref<8xf32>)
func.func @write_into_kept(%in: memref<4xf32>, %o: memref<8xf32>) {
  %y = memref.alloc() : memref<8xf32>
  func.call @keep(%y) : (memref<8xf32>) -> ()
  %x = memref.alloc() : memref<4xf32>
  linalg.map { math.absf } ins(%in : memref<4xf32>) outs(%x : memref<4xf32>)
  %sv = memref.subview %y[0] [4] [1] : memref<8xf32> to memref<4xf32, strided<[1]>>
  memref.copy %x, %sv : memref<4xf32> to memref<4xf32, strided<[1]>>
  linalg.copy ins(%y : memref<8xf32>) outs(%o : memref<8xf32>)
  return
}

// -----

// linalg.yield stores the buffer into a memref of memrefs.
// CHECK-LABEL: func.func @yielded_into_box
// CHECK:         memref.alloc() {mplan.unplanned = "yielded to 'linalg.generic', which may store it"}
// CHECK:         memref.copy
func.func @yielded_into_box(%box: memref<1xmemref<8xf32>>, %o: memref<4xf32>) {
  %one = arith.constant 1.0 : f32
  %y = memref.alloc() : memref<8xf32>
  linalg.fill ins(%one : f32) outs(%y : memref<8xf32>)
  linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]}
      outs(%box : memref<1xmemref<8xf32>>) {
  ^bb0(%old: memref<8xf32>):
    linalg.yield %y : memref<8xf32>
  }
  %sv = memref.subview %y[0] [4] [1] : memref<8xf32> to memref<4xf32, strided<[1]>>
  %x = memref.alloc() : memref<4xf32>
  memref.copy %sv, %x : memref<4xf32, strided<[1]>> to memref<4xf32>
  linalg.copy ins(%x : memref<4xf32>) outs(%o : memref<4xf32>)
  return
}

// -----

// memref.realloc ends its operand's storage: the operand is not planned (its
// bytes would be reused while the realloc result still holds them, or freed
// by realloc itself).
// CHECK-LABEL: func.func @realloc_shrink
// CHECK:         memref.alloc() {mplan.unplanned = "freed or reallocated by 'memref.realloc'"}
// CHECK:         memref.realloc
func.func @realloc_shrink(%o: memref<1xf32>, %o2: memref<2xf32>) {
  %two = arith.constant 2.0 : f32
  %one = arith.constant 1.0 : f32
  %a = memref.alloc() : memref<2xf32>
  linalg.fill ins(%two : f32) outs(%a : memref<2xf32>)
  %r = memref.realloc %a : memref<2xf32> to memref<1xf32>
  %b = memref.alloc() : memref<2xf32>
  linalg.fill ins(%one : f32) outs(%b : memref<2xf32>)
  linalg.copy ins(%b : memref<2xf32>) outs(%o2 : memref<2xf32>)
  linalg.copy ins(%r : memref<1xf32>) outs(%o : memref<1xf32>)
  memref.dealloc %r : memref<1xf32>
  return
}

// -----

// A copy between memory spaces moves data: never elided, and each space gets
// its own slab.
// CHECK-LABEL: func.func @copy_between_spaces
// CHECK-DAG:     mplan.alloc_slab : <{{[0-9]+}}, 64>
// CHECK-DAG:     mplan.alloc_slab : <{{[0-9]+}}, 64, 1 : i64>
// CHECK:         mplan.alloc_tensor {{.*}} -> memref<16xf32, 1>
// CHECK:         memref.copy %{{.*}}, %{{.*}} : memref<16xf32> to memref<16xf32, 1>
// CHECK:         mplan.alloc_tensor {{.*}} -> memref<16xf32>
// CHECK:         memref.copy %{{.*}}, %{{.*}} : memref<16xf32, 1> to memref<16xf32>
// JSON-LABEL:  "name": "copy_between_spaces"
// JSON:        "memory_spaces": [
// JSON-NEXT:     {
// JSON-NEXT:       "memory_space": "1",
func.func @copy_between_spaces(%arg0: memref<16xf32>, %o: memref<16xf32>) {
  %a = memref.alloc() : memref<16xf32, 1>
  memref.copy %arg0, %a : memref<16xf32> to memref<16xf32, 1>
  %b = memref.alloc() : memref<16xf32>
  memref.copy %a, %b : memref<16xf32, 1> to memref<16xf32>
  linalg.map { math.absf } ins(%b : memref<16xf32>) outs(%o : memref<16xf32>)
  return
}
