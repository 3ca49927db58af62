// RUN: mplan-opt %s --mplan-instrument | not mplan-opt --mplan-instrument -o /dev/null 2>&1 | FileCheck %s

// Instrumenting a module twice is one located error, at the first function
// with a body (not at the runtime's declarations), without the module printed
// after it.
// CHECK: <stdin>:{{[1-9][0-9]*}}:{{[0-9]+}}: error: mplan-instrument: the module is already instrumented (it defines @__mplan_rt_strings)
// CHECK-NOT: see current operation
func.func @f() {
  %a = memref.alloc() : memref<4xf32>
  memref.dealloc %a : memref<4xf32>
  return
}
