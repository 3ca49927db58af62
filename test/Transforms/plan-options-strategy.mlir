// RUN: mplan-opt %s -verify-diagnostics --mplan-plan-buffers="strategy=bogus"
// RUN: mplan-opt %s -verify-diagnostics --mplan-plan="strategy=bogus"
// RUN: mplan-opt %s -verify-diagnostics --mplan-plan-pipeline="strategy=bogus"

// The plan passes check their options before touching the IR: an unknown
// strategy is one error at the first function (test/Transforms/option-errors.test
// has the option's name per pass), naming the known ones.

module {
  // expected-error @below {{option 'strategy': unknown strategy 'bogus'; expected one of: naive linear-scan greedy-by-size greedy-by-breadth time-best-fit portfolio best}}
  func.func @f() {
    %a = memref.alloc() : memref<4xf32>
    return
  }
}
