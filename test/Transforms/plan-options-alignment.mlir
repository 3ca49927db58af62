// RUN: mplan-opt %s -verify-diagnostics --mplan-plan-buffers="alignment=0"
// RUN: mplan-opt %s -verify-diagnostics --mplan-plan="alignment=48"
// RUN: mplan-opt %s -verify-diagnostics --mplan-plan-pipeline="alignment=-64"

// The slab and buffer alignment must be a positive power of two.

module {
  // expected-error @below {{option 'alignment': must be a positive power of two}}
  func.func @f() {
    %a = memref.alloc() : memref<4xf32>
    return
  }
}
