// RUN: mplan-opt %s -verify-diagnostics --mplan-plan-buffers="stagger=100"
// RUN: mplan-opt %s -verify-diagnostics --mplan-plan="stagger=-64"
// RUN: mplan-opt %s -verify-diagnostics --mplan-plan-pipeline="alignment=128 stagger=64"

// The stagger must be a non-negative multiple of the alignment.

module {
  // expected-error @below {{option 'stagger': must be a non-negative multiple of 'alignment'}}
  func.func @f() {
    %a = memref.alloc() : memref<4xf32>
    return
  }
}
