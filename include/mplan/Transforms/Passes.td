//===- Passes.td - mplan transformation passes -------------*- tablegen -*-===//

#ifndef MPLAN_TRANSFORMS_PASSES_TD
#define MPLAN_TRANSFORMS_PASSES_TD

include "mlir/Pass/PassBase.td"

def MPlanCaptureBuffers : Pass<"mplan-capture-buffers", "func::FuncOp"> {
  let summary = "Turn plannable memref.alloc ops into mplan.alloc_tensor";
  let description = [{
    Every statically shaped, identity-layout `memref.alloc` whose lifetime the
    analysis can bound becomes an unplanned `mplan.alloc_tensor` with a fresh
    id; a dynamically shaped one whose dynamic sizes have constant upper
    bounds (from the IR, or from `mplan.upper_bound` /
    `mplan.dim_upper_bounds` on the function's arguments) becomes one of its
    upper-bound static type, viewed as the original type through a
    `memref.reinterpret_cast`, with the bounds it relied on in `mplan.bound`; the `memref.dealloc` ops of captured buffers are erased (the slab's
    release replaces them). A buffer that is left alone (dynamic shape,
    escaping through a return, captured by an op the analysis does not model,
    ...) stays a `memref.alloc` and is reported with its reason as a remark
    when `remarks` is set.
  }];
  let dependentDialects = ["::mlir::mplan::MPlanDialect",
                           "::mlir::memref::MemRefDialect",
                           "::mlir::cf::ControlFlowDialect"];
  let options = [
    Option<"emitRemarks", "remarks", "bool", /*default=*/"false",
           "Emit a remark for every buffer that is left unplanned">,
    Option<"foldViews", "fold-views", "bool", /*default=*/"false",
           "Then fold view chains as mplan-fold-views does, in the same pass "
           "(one verifier run less than the two passes)">,
    Option<"maxBoundBytes", "max-bound-bytes", "int64_t",
           /*default=*/"1073741824",
           "Largest byte size of a dynamically shaped buffer at its upper "
           "bound; a larger bound counts as no bound (0: plan no dynamically "
           "shaped buffer)">,
    Option<"argUpperBound", "arg-upper-bound", "int64_t", /*default=*/"0",
           "Upper bound of every index argument and every dynamic dimension "
           "of a memref or tensor argument that no mplan bound attribute "
           "bounds (0: none)">,
    Option<"checkBounds", "check-bounds", "bool", /*default=*/"false",
           "Check at run time, before the view of each buffer planned at its "
           "upper bound, that every dynamic size is within its bound "
           "(cf.assert naming the buffer, the dimension and the bound)">,
  ];
}

def MPlanMarkCalls : Pass<"mplan-mark-calls", "ModuleOp"> {
  let summary = "Mark the call operands whose callee does not capture them";
  let description = [{
    For every call to a `func.func` defined in the module, lists in the call's
    `mplan.nocapture` attribute (operand numbers) the memref operands whose
    callee argument is only read and written while the callee runs: never
    returned, stored, deallocated, passed to an op the analysis does not
    model, or passed on to a call that may capture it. A buffer passed only
    there is planned in the caller (the call is a use of it) instead of being
    left unplanned as "passed to a call". Computed as a least fixed point over
    the calls, so recursion is handled conservatively; existing
    `mplan.nocapture` attributes are recomputed. `mplan-plan-pipeline` runs
    it first, and checks the `mplan.unplanned` attributes of the module in the
    same walk (its plan pass does not walk the module again for them).
  }];
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
           "greedy-by-breadth, time-best-fit, portfolio, best)">,
    Option<"timeLimit", "time-limit", "double", /*default=*/"0.25",
           "Search budget in seconds per function for the 'best' strategy; "
           "every strategy gives up 3 s past it with an error">,
    Option<"alignment", "alignment", "int64_t", /*default=*/"64",
           "Byte alignment of the slab and of every buffer in it">,
    Option<"reportPath", "report", "std::string", /*default=*/"\"\"",
           "Write a JSON report of the plan to this path ('-' for stdout)">,
    Option<"stagger", "stagger", "int64_t", /*default=*/"0",
           "Cache stagger in bytes: move every offset o up by "
           "(o / 4096) * stagger (0: off; a multiple of 'alignment')">,
    ListOption<"capacity", "capacity", "std::string",
               "Capacities per memory space, SPACE:BYTES,... (SPACE: default, "
               "an integer, or global/workgroup/private for "
               "#gpu.address_space); a space whose plan does not fit is an "
               "error naming the space, the arena, the capacity, the lower "
               "bound and the buffers live at the peak; run-time sized "
               "buffers in a space with a capacity get their own allocation "
               "outside its slab">,
  ];
}

def MPlanPlan : Pass<"mplan-plan", "ModuleOp"> {
  let summary = "Capture, fold views, elide copies and plan every function";
  let description = [{
    What `mplan-plan-pipeline` runs after `mplan-mark-calls`: for each
    function, the work of `mplan-capture-buffers`, `mplan-fold-views` and
    `mplan-elide-copies` (with `views-and-copies`, the default) and
    `mplan-plan-buffers`, in that order and with the same options, in one
    pass (with `sequence=` and `inplace=`, `mplan-sequence` and
    `mplan-inplace` before planning; both on by default). A memory space
    whose bound is above its `capacity` gets sequencing unless the user set
    `sequence` (which fits capacities first), then its live ranges split by
    rematerialization (`remat`) and
    offload to another memory space (`offload`) until it fits. The result is the same as running the passes one after the other;
    the pass manager verifies the module once instead of after each step
    (MLIR's verifier, linalg's structured-op checks above all, costs about as
    much per run as the mplan steps together on a large function).
  }];
  let dependentDialects = ["::mlir::mplan::MPlanDialect",
                           "::mlir::memref::MemRefDialect",
                           "::mlir::cf::ControlFlowDialect"];
  let options = [
    Option<"strategy", "strategy", "std::string", /*default=*/"\"best\"",
           "Planning strategy (naive, linear-scan, greedy-by-size, "
           "greedy-by-breadth, time-best-fit, portfolio, best)">,
    Option<"timeLimit", "time-limit", "double", /*default=*/"0.25",
           "Search budget in seconds per function for the 'best' strategy; "
           "every strategy gives up 3 s past it with an error">,
    Option<"alignment", "alignment", "int64_t", /*default=*/"64",
           "Byte alignment of the slab and of every buffer in it">,
    Option<"reportPath", "report", "std::string", /*default=*/"\"\"",
           "Write a JSON report of the plan to this path ('-' for stdout)">,
    Option<"stagger", "stagger", "int64_t", /*default=*/"0",
           "Cache stagger in bytes: move every offset o up by "
           "(o / 4096) * stagger (0: off; a multiple of 'alignment')">,
    ListOption<"capacity", "capacity", "std::string",
               "Capacities per memory space, SPACE:BYTES,... (SPACE: default, "
               "an integer, or global/workgroup/private for "
               "#gpu.address_space); a space whose plan does not fit is an "
               "error naming the space, the arena, the capacity, the lower "
               "bound and the buffers live at the peak; run-time sized "
               "buffers in a space with a capacity get their own allocation "
               "outside its slab">,
    Option<"sequence", "sequence", "std::string", /*default=*/"\"best\"",
           "Order the ops of each function to lower the max-live bound "
           "after copy elision, as mplan-sequence does (program: keep the "
           "order, greedy, best, exact); its budget is 'time-limit'">,
    Option<"viewsAndCopies", "views-and-copies", "bool", /*default=*/"true",
           "Fold view chains and elide copies before planning">,
    Option<"peakGuard", "peak-guard", "::mlir::mplan::PeakGuard",
           /*default=*/"::mlir::mplan::PeakGuard::All",
           "Which copy eliminations must not raise the max-live bound "
           "(all: the plan is never above what keeping the copies gives)",
           [{::llvm::cl::values(
             clEnumValN(::mlir::mplan::PeakGuard::None, "none",
                        "no rewrite is guarded"),
             clEnumValN(::mlir::mplan::PeakGuard::Views, "views",
                        "view copies only: pad and concat copies always go"),
             clEnumValN(::mlir::mplan::PeakGuard::All, "all",
                        "every rewrite is guarded"))}]>,
    Option<"inplace", "inplace", "bool", /*default=*/"true",
           "Then write the output of elementwise ops over input buffers that "
           "die there, as mplan-inplace does (false: never)">,
    Option<"remat", "remat", "bool", /*default=*/"true",
           "When a space's bound is above its capacity, recompute buffers "
           "whose writers can run again before their later uses instead of "
           "keeping them live across the peak">,
    ListOption<"offload", "offload", "std::string",
               "FROM:TO,...: when space FROM's bound is above its capacity, "
               "copy buffers to space TO between their uses (spaces as "
               "'capacity' names them)">,
    Option<"offloadCost", "offload-cost", "double", /*default=*/"1.0",
           "The cost of moving one byte (offload), in payload ops of a "
           "recomputation">,
    Option<"splitProblem", "split-problem", "std::string", /*default=*/"",
           "Write the splitting problem of each space above its capacity, "
           "before the first split, to this JSON file (the bytes live at "
           "each point and every legal split of every buffer between two of "
           "its uses), for an exact search over the same levers">,
    Option<"emitRemarks", "remarks", "bool", /*default=*/"false",
           "Emit a remark for every buffer that is left unplanned">,
    Option<"maxBoundBytes", "max-bound-bytes", "int64_t",
           /*default=*/"1073741824",
           "Largest byte size of a dynamically shaped buffer at its upper "
           "bound; a larger bound counts as no bound (0: plan no dynamically "
           "shaped buffer)">,
    Option<"argUpperBound", "arg-upper-bound", "int64_t", /*default=*/"0",
           "Upper bound of every index argument and every dynamic dimension "
           "of a memref or tensor argument that no mplan bound attribute "
           "bounds (0: none)">,
    Option<"checkBounds", "check-bounds", "bool", /*default=*/"false",
           "Check at run time, before the view of each buffer planned at its "
           "upper bound, that every dynamic size is within its bound "
           "(cf.assert naming the buffer, the dimension and the bound)">,
  ];
}

def MPlanInPlace : Pass<"mplan-inplace", "func::FuncOp"> {
  let summary = "Write elementwise outputs over input buffers that die there";
  let description = [{
    When an elementwise linalg op on buffers (all loops parallel) is the last
    use of an input buffer X and the first use of its output buffer Y, with
    identity indexing maps for both, the same type, and a payload that does
    not read the output's initial value, Y's buffer becomes X's: the two
    unplanned `mplan.alloc_tensor` roots merge, so a chain of elementwise ops
    on one activation needs one buffer instead of two.

    ```mlir
    %x = mplan.alloc_tensor id(0) -> memref<64xf32>
    linalg.map { math.absf } ins(%in : memref<64xf32>) outs(%x : memref<64xf32>)
    %y = mplan.alloc_tensor id(1) -> memref<64xf32>
    linalg.map { arith.negf } ins(%x : memref<64xf32>) outs(%y : memref<64xf32>)
    // becomes
    %x = mplan.alloc_tensor id(0) -> memref<64xf32>
    linalg.map { math.absf } ins(%in : memref<64xf32>) outs(%x : memref<64xf32>)
    linalg.map { arith.negf } ins(%x : memref<64xf32>) outs(%x : memref<64xf32>)
    ```

    Never when X or Y is a function argument, escapes or has a hidden access
    (stored, address taken, kept by a callee), is read later through any
    alias, is touched by the op other than as the reused operands, or is
    allocated outside the op's block (loops, parallel iterations). The merges
    are listed in the function's `mplan.inplace` attribute and in the plan
    report (`inplace`). Merging never raises the max-live bound.
  }];
}

def MPlanVerifyPlan : Pass<"mplan-verify-plan", "func::FuncOp"> {
  let summary = "Check that no two simultaneously live buffers share bytes";
  let description = [{
    Recomputes the live ranges of the planned `mplan.alloc_tensor` ops of each
    function (ignoring the ranges recorded in the IR) and fails, at the
    location of one of the two buffers, if two buffers that are live at the
    same time overlap in their slab. Each slab (a function has one per memory
    space) is checked on its own: buffers of different slabs never conflict.
    One sort and sweep per slab, O(n log n). Run it after passes that may
    reorder operations; `convert-mplan-to-memref` runs the same check
    (mplan/Analysis/PlanVerifier.h) unless `verify-plan=false`.
  }];
}

def MPlanSequence : Pass<"mplan-sequence", "func::FuncOp"> {
  let summary = "Order the ops of a function to lower the max-live bound";
  let description = [{
    Reorders the ops of a function body (a single block; ops nested in loops
    and other regions stay where they are, inside their op) so that every
    memory space with a `capacity` fits it (a space over its capacity is
    lowered first, even in a function without default-space buffers) and
    then the max-live bound of the buffers `mplan-plan-buffers` will place --
    the largest total padded size of the default memory space's unplanned
    `mplan.alloc_tensor` buffers live at one point, with the live ranges of
    `BufferLiveness` (views, copies written in place and loops included) --
    is as low as the sequencer finds, and never above program order's (when
    nothing is better, the order stays). Run it after capture, view folding
    and copy elision; `mplan-plan-pipeline sequence=MODE` does.

    Legal orders are those of the dependence graph (DependenceGraph.h): SSA
    uses, read/write, write/read and write/write on a common buffer root
    through any alias (function arguments, unmanaged buffers and values not
    derived from a root through views share one location), ops with unknown
    effects (calls) as barriers, the terminator last. The order is chosen by
    the MLIR-free sequencer (mplan/Support/Sequencer.h): the graph splits at
    cut nodes; components are solved exactly by a dynamic program over
    scheduled-op sets (SERENITY, MLSys 2020) where small enough, otherwise by
    list scheduling, beam search and exact re-solving of windows around the
    peak, within a deterministic work budget (`work-limit`; `time-limit` only
    as a safety net when given), so the order does not depend on the machine's
    load.

    The planner's own live ranges judge the order: run-time sized buffers
    disjoint in program order stay disjoint; an order that lowers the bytes
    over the capacities is taken if every capped space that grows stays
    within its capacity (a space without one may grow); any other order is
    taken only if no memory space's bound grows and one gets lower. If the
    default space's order is rejected for another space or a run-time sized
    buffer, a second order keeps those buffers disjoint. Whenever program order
    stays for another reason than its being optimal, the function gets
    `mplan.sequence_kept_because` (the report's `sequence_kept_because`) and,
    with `remarks`, a remark saying why.

    An Inception-style block emitted breadth first runs both branch heads
    while the input is live:

    ```mlir
    %a = mplan.alloc_tensor id(1) -> memref<1024xf32>
    linalg.map { math.absf } ins(%x : ...) outs(%a : ...)   // head 1
    %b = mplan.alloc_tensor id(2) -> memref<1024xf32>
    linalg.map { math.exp } ins(%x : ...) outs(%b : ...)    // head 2
    %c = mplan.alloc_tensor id(3) -> memref<16xf32>
    linalg.reduce ins(%a : ...) outs(%c : ...)              // tail 1
    %d = mplan.alloc_tensor id(4) -> memref<16xf32>
    linalg.reduce ins(%b : ...) outs(%d : ...)              // tail 2
    ```

    Afterwards branch 1 finishes (and `%a` dies) before branch 2 starts, so
    `%a` and `%b` are never live at the same time:

    ```mlir
    %a = ...  head 1   %c = ...  tail 1   %b = ...  head 2   %d = ...  tail 2
    ```

    Records the bound in program order as the function attribute
    `mplan.lower_bound_program_order` (the plan report's
    `lower_bound_program_order_bytes`) and `mplan.sequence_optimal` when the
    order is proven optimal.
  }];
  let options = [
    Option<"mode", "mode", "std::string", /*default=*/"\"best\"",
           "program (keep the order), greedy (list scheduling), best (exact "
           "where feasible, else the best of list, beam and window search), "
           "exact (best without a state limit)">,
    Option<"timeLimit", "time-limit", "double", /*default=*/"0",
           "Wall-clock safety net in seconds per function (0: none); the "
           "search's budget is 'work-limit', so the order does not depend on "
           "the machine's load unless a time limit is given">,
    Option<"alignment", "alignment", "int64_t", /*default=*/"64",
           "Byte alignment every buffer is padded to (as the planner's)">,
    Option<"workLimit", "work-limit", "int64_t",
           /*default=*/"10000000",
           "Deterministic search budget per function: candidate ops the "
           "searches look at (sequence=exact: 100 times this)">,
    Option<"emitRemarks", "remarks", "bool", /*default=*/"false",
           "Emit a remark saying why program order is kept whenever it is "
           "kept for another reason than being optimal">,
    ListOption<"capacity", "capacity", "std::string",
               "SPACE:BYTES,... as mplan-plan-buffers': fitting every "
               "capacity comes first, then the default space's bound">,
  ];
}

def MPlanFoldViews : Pass<"mplan-fold-views", "func::FuncOp"> {
  let summary = "Reduce view chains on planner buffers to one mplan.view";
  let description = [{
    Rewrites every static view-like op of an `mplan.alloc_tensor` (or of a
    view of one) -- `memref.subview`, `expand_shape`, `collapse_shape`,
    `reinterpret_cast`, `cast`, zero-shift `memref.view` and chains of them --
    into one `mplan.view` of the buffer at a static byte offset with exactly
    the replaced op's result type, folds views of views and erases views
    without uses. Views whose type is not static are left alone. Records the
    number of view ops removed and canonicalized as the function attributes
    `mplan.views_removed` and `mplan.views_canonicalized` (accumulated over
    runs; the plan report shows them).
  }];
  let dependentDialects = ["::mlir::mplan::MPlanDialect",
                           "::mlir::memref::MemRefDialect"];
}

def MPlanElideCopies : Pass<"mplan-elide-copies", "func::FuncOp"> {
  let summary = "Remove copies between planner buffers by aliasing them";
  let description = [{
    For every `memref.copy` / `linalg.copy` between two unplanned
    `mplan.alloc_tensor` buffers of the same block (run `mplan-fold-views`
    first so their views are `mplan.view` ops):

    * *write in place* (pad, concat): when the source is a whole buffer and
      the target a static region of another, the source becomes that region:
      its producers write straight into the destination. The destination's
      initialization (a fill-like op that only writes the destination) is
      moved before the producer when it writes the region in between; any
      other access to the region between the source's first use and the copy,
      any write to the source after the copy and any write to the region
      while the source is still read make the copy stay.
    * *view copy to view*: when the target is a whole buffer only read after
      the copy and the source region is not written while the target is
      still used, the target becomes a view of the source.

    The buffer and the copy disappear; live ranges follow from the rewritten
    IR. The *peak guard* keeps a copy whose removal would raise the max-live
    bound (the largest total size of the buffers live at one point): writing
    in place makes the destination live from the source's first use, a view
    keeps the source live until the target's last use. `peak-guard=views`
    (default) guards view copies only, so every pad and concat copy of a
    computed buffer goes even where the arena grows (a DenseNet-style concat
    whose destination then lives through the whole block); `all` guards both
    (the arena never grows through copy elision), `none` neither. Write and alias information is computed once per function and
    updated in place for the ops each rewrite touches. Records
    `mplan.copies_removed` and `mplan.copy_bytes_avoided` as function
    attributes (accumulated; the plan report shows them).
  }];
  let options = [
    Option<"peakGuard", "peak-guard", "::mlir::mplan::PeakGuard",
           /*default=*/"::mlir::mplan::PeakGuard::Views",
           "Which rewrites must not raise the max-live bound",
           [{::llvm::cl::values(
             clEnumValN(::mlir::mplan::PeakGuard::None, "none",
                        "no rewrite is guarded"),
             clEnumValN(::mlir::mplan::PeakGuard::Views, "views",
                        "view copies only: pad and concat copies always go"),
             clEnumValN(::mlir::mplan::PeakGuard::All, "all",
                        "every rewrite is guarded"))}]>
  ];
  let dependentDialects = ["::mlir::mplan::MPlanDialect",
                           "::mlir::memref::MemRefDialect"];
}

def MPlanInstrument : Pass<"mplan-instrument", "ModuleOp"> {
  let summary = "Insert calls into the mplan memory observer runtime";
  let description = [{
    Run after `convert-mplan-to-memref` (or on any bufferized program, planned
    or not) and before `mplan-to-llvm`; a module that still has mplan ops is
    rejected with an error at the first. Inserts calls into
    `libmplan_runtime.so` (runtime/mplan_runtime.h) that record, per op
    location: every allocation and free (the memref values an op declares
    Allocate / Free memory effects on: `memref.alloc`, `memref.alloca`,
    `memref.realloc`, `bufferization.clone`, `memref.dealloc`, ...; upstream's
    `bufferization.dealloc` is lowered first, as `mplan-to-llvm` lowers it,
    so that the frees that run are recorded), every arena (`mplan.arena` ops
    and arguments), and the region of every planned buffer (`memref.view`
    tagged `mplan.buffer_id`), from its first use (where the plan's live
    range begins: not at the view, which sits where the allocation was) to
    where it is dead on the path taken (recomputed from the IR, not taken from the plan; in a
    function with blocks, from upstream's Liveness); plus function entry and
    exit. At run time the observer counts allocations and frees per function
    call, tracks peak live bytes (and the peak of live planned bytes per
    memory space), checks that no two live planned buffers of
    one invocation share a byte, that each lies inside its arena and that
    each free is of a live heap buffer (unless the buffer may come from code
    it does not see, such as an external function), and prints a summary at
    exit (`mplan_rt_print_summary` prints it on request). Load the runtime
    with `mlir-runner -shared-libs=build/lib/libmplan_runtime.so`. The
    observer keeps one call stack and one set of counters for the process:
    it is for programs that run on one thread (concurrent calls, e.g. from
    an OpenMP-lowered `scf.parallel`, interleave their entries and exits and
    are reported as mismatched).
  }];
  let dependentDialects = ["::mlir::memref::MemRefDialect",
                           "::mlir::arith::ArithDialect",
                           "::mlir::func::FuncDialect",
                           "::mlir::scf::SCFDialect",
                           "::mlir::cf::ControlFlowDialect"];
}

#endif // MPLAN_TRANSFORMS_PASSES_TD
