// arena=stack with an arena larger than the stack can hold (issue 19, defect 5): @big's
// two 16 MiB intermediates are live at once, a 32 MiB arena, four times the usual 8 MiB
// stack, so an alloca would crash the program. Above stack-limit (default 1 MiB) the arena comes from the heap, with a remark
// at the slab; @small keeps its stack arena. The planned program prints what upstream's
// unplanned program prints.
//
// RUN: mlir-opt %s %lower_to_llvm \
// RUN:   | mlir-runner -e main -entry-point-result=void -shared-libs=%mlir_runner_libs \
// RUN:   | %normalize_addr > %t.base
// RUN: mplan-opt %s --mplan-plan-pipeline --convert-mplan-to-memref="arena=stack" \
// RUN:   2> %t.remarks > %t.mlir
// RUN: FileCheck %s --check-prefix=REMARK < %t.remarks
// RUN: FileCheck %s --check-prefix=IR < %t.mlir
// RUN: mplan-opt %t.mlir --mplan-to-llvm \
// RUN:   | mlir-runner -e main -entry-point-result=void -shared-libs=%mlir_runner_libs \
// RUN:   | %normalize_addr > %t.plan
// RUN: diff %t.base %t.plan
// RUN: FileCheck %s --check-prefix=OUT < %t.plan

// REMARK: remark: stack arena of {{[0-9]+}} bytes exceeds stack-limit=1048576; allocated on the heap instead
// REMARK-NOT: remark

// IR-LABEL: func.func @big(
// IR: %[[H:.*]] = memref.alloc() {{.*}}mplan.arena{{.*}} : memref<{{[0-9][0-9][0-9][0-9][0-9][0-9][0-9][0-9]}}xi8>
// IR: memref.dealloc %[[H]]
// IR-LABEL: func.func @small(
// IR: memref.alloca() {{.*}}mplan.arena{{.*}} : memref<{{[0-9]+}}xi8>

// OUT: [4.1943e+06]
// OUT: [1.25829e+07]
// OUT: [96]

func.func private @printMemrefF32(memref<*xf32>)

// Sum of x + 2 over 4 Mi elements, through two 16 MiB intermediates.
func.func @big(%x: f32, %out: memref<1xf32>) {
  %two = arith.constant 2.0 : f32
  %a = memref.alloc() : memref<4194304xf32>
  %b = memref.alloc() : memref<4194304xf32>
  linalg.fill ins(%x : f32) outs(%a : memref<4194304xf32>)
  linalg.generic {indexing_maps = [affine_map<(i) -> (i)>, affine_map<(i) -> (i)>],
                  iterator_types = ["parallel"]}
      ins(%a : memref<4194304xf32>) outs(%b : memref<4194304xf32>) {
  ^bb0(%v: f32, %o: f32):
    %s = arith.addf %v, %two : f32
    linalg.yield %s : f32
  }
  linalg.generic {indexing_maps = [affine_map<(i) -> (i)>, affine_map<(i) -> (0)>],
                  iterator_types = ["reduction"]}
      ins(%b : memref<4194304xf32>) outs(%out : memref<1xf32>) {
  ^bb0(%v: f32, %acc: f32):
    %s = arith.addf %v, %acc : f32
    linalg.yield %s : f32
  }
  memref.dealloc %a : memref<4194304xf32>
  memref.dealloc %b : memref<4194304xf32>
  return
}

// The same on 32 elements: a small arena, on the stack.
func.func @small(%x: f32, %out: memref<1xf32>) {
  %two = arith.constant 2.0 : f32
  %a = memref.alloc() : memref<32xf32>
  %b = memref.alloc() : memref<32xf32>
  linalg.fill ins(%x : f32) outs(%a : memref<32xf32>)
  linalg.generic {indexing_maps = [affine_map<(i) -> (i)>, affine_map<(i) -> (i)>],
                  iterator_types = ["parallel"]}
      ins(%a : memref<32xf32>) outs(%b : memref<32xf32>) {
  ^bb0(%v: f32, %o: f32):
    %s = arith.addf %v, %two : f32
    linalg.yield %s : f32
  }
  linalg.generic {indexing_maps = [affine_map<(i) -> (i)>, affine_map<(i) -> (0)>],
                  iterator_types = ["reduction"]}
      ins(%b : memref<32xf32>) outs(%out : memref<1xf32>) {
  ^bb0(%v: f32, %acc: f32):
    %s = arith.addf %v, %acc : f32
    linalg.yield %s : f32
  }
  memref.dealloc %a : memref<32xf32>
  memref.dealloc %b : memref<32xf32>
  return
}

func.func @main() {
  %zero = arith.constant 0.0 : f32
  %m1 = arith.constant -1.0 : f32
  %one = arith.constant 1.0 : f32
  %out = memref.alloc() : memref<1xf32>
  %u = memref.cast %out : memref<1xf32> to memref<*xf32>
  linalg.fill ins(%zero : f32) outs(%out : memref<1xf32>)
  func.call @big(%m1, %out) : (f32, memref<1xf32>) -> ()
  func.call @printMemrefF32(%u) : (memref<*xf32>) -> ()
  linalg.fill ins(%zero : f32) outs(%out : memref<1xf32>)
  func.call @big(%one, %out) : (f32, memref<1xf32>) -> ()
  func.call @printMemrefF32(%u) : (memref<*xf32>) -> ()
  linalg.fill ins(%zero : f32) outs(%out : memref<1xf32>)
  func.call @small(%one, %out) : (f32, memref<1xf32>) -> ()
  func.call @printMemrefF32(%u) : (memref<*xf32>) -> ()
  memref.dealloc %out : memref<1xf32>
  return
}
