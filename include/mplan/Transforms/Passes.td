//===- Passes.td - mplan transformation passes -------------*- tablegen -*-===//

#ifndef MPLAN_TRANSFORMS_PASSES_TD
#define MPLAN_TRANSFORMS_PASSES_TD

include "mlir/Pass/PassBase.td"

def MPlanCaptureBuffers : Pass<"mplan-capture-buffers", "func::FuncOp"> {
  let summary = "Turn plannable memref.alloc ops into mplan.alloc_tensor";
  let description = [{
    Every statically shaped, identity-layout `memref.alloc` whose lifetime the
    analysis can bound becomes an unplanned `mplan.alloc_tensor` with a fresh
    id; the `memref.dealloc` ops of captured buffers are erased (the slab's
    release replaces them). A buffer that is left alone (dynamic shape,
    escaping through a return, captured by an op the analysis does not model,
    ...) stays a `memref.alloc` and is reported with its reason as a remark
    when `remarks` is set.
  }];
  let dependentDialects = ["::mlir::mplan::MPlanDialect",
                           "::mlir::memref::MemRefDialect"];
  let options = [
    Option<"emitRemarks", "remarks", "bool", /*default=*/"false",
           "Emit a remark for every buffer that is left unplanned">,
  ];
}

def MPlanPlanBuffers : Pass<"mplan-plan-buffers", "ModuleOp"> {
  let summary = "Assign every mplan.alloc_tensor a byte offset in one slab";
  let description = [{
    For each function, computes the live range `[start, end)` of every
    unplanned `mplan.alloc_tensor` over the function's op numbering, plans
    them with the chosen strategy of the planner library, creates one
    `mplan.alloc_slab` at the top of the function and an `mplan.release_slab`
    before every return, and rewrites the buffers into their planned form.
    A plan is validated independently before it is written; a plan that does
    not validate is an error. With `report=PATH`, writes the JSON report
    (planned buffers, arena, lower bound and unplanned buffers with reasons).
  }];
  let dependentDialects = ["::mlir::mplan::MPlanDialect"];
  let options = [
    Option<"strategy", "strategy", "std::string", /*default=*/"\"best\"",
           "Planning strategy (naive, linear-scan, greedy-by-size, "
           "greedy-by-breadth, portfolio, best)">,
    Option<"timeLimit", "time-limit", "double", /*default=*/"0.25",
           "Search budget in seconds per function for the 'best' strategy">,
    Option<"alignment", "alignment", "int64_t", /*default=*/"64",
           "Byte alignment of the slab and of every buffer in it">,
    Option<"reportPath", "report", "std::string", /*default=*/"\"\"",
           "Write a JSON report of the plan to this path ('-' for stdout)">,
  ];
}

def MPlanVerifyPlan : Pass<"mplan-verify-plan", "func::FuncOp"> {
  let summary = "Check that no two simultaneously live buffers share bytes";
  let description = [{
    Recomputes the live ranges of the planned `mplan.alloc_tensor` ops of each
    function (ignoring the ranges recorded in the IR) and fails, at the
    location of one of the two buffers, if two buffers that are live at the
    same time overlap in their slab. Run it after passes that may reorder
    operations.
  }];
}

#endif // MPLAN_TRANSFORMS_PASSES_TD
