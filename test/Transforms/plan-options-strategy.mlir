// RUN: mplan-opt %s -verify-diagnostics --mplan-plan-buffers="strategy=bogus"
// RUN: mplan-opt %s -verify-diagnostics --mplan-plan="strategy=bogus"
// RUN: mplan-opt %s -verify-diagnostics --mplan-plan-pipeline="strategy=bogus"

// The plan passes check their options before touching the IR: an unknown
// strategy is an error at the module, naming the known ones.

// expected-error @+1 {{unknown strategy 'bogus'; expected one of: naive linear-scan greedy-by-size greedy-by-breadth time-best-fit portfolio best}}
module {
  func.func @f() {
    %a = memref.alloc() : memref<4xf32>
    return
  }
}
