//===- Passes.h - mplan transformation passes -------------------*- C++ -*-===//

#ifndef MPLAN_TRANSFORMS_PASSES_H
#define MPLAN_TRANSFORMS_PASSES_H

#include "mlir/Dialect/ControlFlow/IR/ControlFlow.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/Pass/Pass.h"
#include "mlir/Pass/PassOptions.h"
#include "mplan/Dialect/MPlan/IR/MPlanDialect.h"
#include "mplan/Transforms/OptionErrors.h"
#include "llvm/ADT/StringMap.h"

#include <optional>

namespace mlir {
namespace mplan {

class BufferLiveness;
class PlanAnalyses;

/// Which rewrites of `mplan-elide-copies` must not raise the max-live bound
/// (its `peak-guard` option).
enum class PeakGuard {
  /// None: every legal rewrite is taken.
  None,
  /// View copies that would become views only; pad and concat copies are
  /// always written in place (the default).
  Views,
  /// Every rewrite.
  All,
};

#define GEN_PASS_DECL
#include "mplan/Transforms/Passes.h.inc"

/// Options of the `mplan-plan-pipeline` pass pipeline.
struct PlanPipelineOptions : public PassPipelineOptions<PlanPipelineOptions> {
  PassOptions::Option<std::string> strategy{
      *this, "strategy",
      llvm::cl::desc("Planning strategy (naive, linear-scan, greedy-by-size, "
                     "greedy-by-breadth, time-best-fit, portfolio, best)"),
      llvm::cl::init("best")};
  PassOptions::Option<double> timeLimit{
      *this, "time-limit",
      llvm::cl::desc("Search budget in seconds per function"),
      llvm::cl::init(0.25)};
  PassOptions::Option<int64_t> alignment{
      *this, "alignment",
      llvm::cl::desc("Byte alignment of the slab and of every buffer"),
      llvm::cl::init(64)};
  PassOptions::Option<int64_t> stagger{
      *this, "stagger",
      llvm::cl::desc("Cache stagger in bytes: move every offset o up by "
                     "(o / 4096) * stagger (0: off)"),
      llvm::cl::init(0)};
  PassOptions::Option<std::string> report{
      *this, "report",
      llvm::cl::desc("Write the JSON plan report to this path ('-': stdout)"),
      llvm::cl::init("")};
  PassOptions::Option<std::string> sequence{
      *this, "sequence",
      llvm::cl::desc("Order the ops of each function to lower the max-live "
                     "bound (program: keep the order, greedy, best, exact; "
                     "see mplan-sequence)"),
      llvm::cl::init("best")};
  PassOptions::Option<bool> remat{
      *this, "remat",
      llvm::cl::desc("When a space's bound is above its capacity, recompute "
                     "buffers whose writers can run again before their "
                     "later uses"),
      llvm::cl::init(true)};
  PassOptions::ListOption<std::string> offload{
      *this, "offload",
      llvm::cl::desc("FROM:TO,...: when space FROM's bound is above its "
                     "capacity, copy buffers to space TO between their "
                     "uses")};
  PassOptions::Option<double> offloadCost{
      *this, "offload-cost",
      llvm::cl::desc("The cost of moving one byte (offload), in payload ops"),
      llvm::cl::init(1.0)};
  PassOptions::Option<std::string> splitProblem{
      *this, "split-problem",
      llvm::cl::desc("Write the splitting problem of each space above its "
                     "capacity, before the first split, to this JSON file "
                     "(for an exact search over the same levers)"),
      llvm::cl::init("")};
  PassOptions::Option<bool> viewsAndCopies{
      *this, "views-and-copies",
      llvm::cl::desc("Run mplan-fold-views and mplan-elide-copies before "
                     "planning (off: plan the captured buffers as they are)"),
      llvm::cl::init(true)};
  PassOptions::Option<PeakGuard> peakGuard{
      *this, "peak-guard",
      llvm::cl::desc("Which copy eliminations must not raise the max-live "
                     "bound (see mplan-elide-copies; all: the plan is never "
                     "above what keeping the copies gives)"),
      llvm::cl::init(PeakGuard::All),
      llvm::cl::values(
          clEnumValN(PeakGuard::None, "none", "no rewrite is guarded"),
          clEnumValN(PeakGuard::Views, "views",
                     "view copies only: pad and concat copies always go"),
          clEnumValN(PeakGuard::All, "all", "every rewrite is guarded"))};
  PassOptions::ListOption<std::string> capacity{
      *this, "capacity",
      llvm::cl::desc("Capacities per memory space, SPACE:BYTES,... (SPACE: "
                     "default, an integer, or global/workgroup/private for "
                     "#gpu.address_space); a space that cannot fit is an "
                     "error; run-time sized buffers in a space with a "
                     "capacity get their own allocation outside its slab")};
  PassOptions::Option<bool> inplace{
      *this, "inplace",
      llvm::cl::desc("Write the output of an elementwise op over an input "
                     "buffer that dies there (see mplan-inplace; false: "
                     "never)"),
      llvm::cl::init(true)};
  PassOptions::Option<int64_t> maxBoundBytes{
      *this, "max-bound-bytes",
      llvm::cl::desc("Largest byte size of a dynamically shaped buffer at its "
                     "upper bound; a larger bound counts as no bound (0: plan "
                     "no dynamically shaped buffer)"),
      llvm::cl::init(int64_t(1) << 30)};
  PassOptions::Option<int64_t> argUpperBound{
      *this, "arg-upper-bound",
      llvm::cl::desc("Upper bound of every index argument and every dynamic "
                     "dimension of a memref or tensor argument that no mplan "
                     "bound attribute bounds (0: none)"),
      llvm::cl::init(0)};
  PassOptions::Option<bool> checkBounds{
      *this, "check-bounds",
      llvm::cl::desc("Check every dynamic size against its upper bound at run "
                     "time (cf.assert before each bounded buffer's view)"),
      llvm::cl::init(false)};
  PassOptions::Option<bool> remarks{
      *this, "remarks",
      llvm::cl::desc("Emit a remark for every buffer left unplanned"),
      llvm::cl::init(false)};
};

/// Checks the `max-bound-bytes` and `arg-upper-bound` options of `pass`
/// (mplan-capture-buffers or a pass or pipeline that runs it), with an error
/// at `anchor` about the first invalid one (emitOptionError).
LogicalResult verifyCaptureOptions(Operation *anchor, StringRef pass,
                                   int64_t maxBoundBytes,
                                   int64_t argUpperBound);

/// The ops the steps of mplan-plan visit (capture, view folding, copy
/// elision), listed by the walk that builds the function's points-to analysis
/// (PlanAnalyses::buildBoth) instead of a walk of the function per step. Each
/// list is in that walk's post-order, the order of the step's own walk. Each
/// step takes its lists once: capture its branch and alignment ops, view
/// folding its views, copy elision its copies and allocations. Capture keeps
/// the lists valid while it only turns allocations into planner buffers in
/// place, and invalidates them when it changes the IR otherwise; view
/// folding changes only views.
class PlanStepOps {
public:
  /// Adds `op` to the list of its kind (the visitor of buildBoth).
  void visit(Operation *op);
  /// The lists are those of the function as it is now.
  void setValid() { valid = true; }
  /// The IR changed in a way the lists do not follow: each step walks.
  void invalidate() { valid = false; }
  /// Allocation `from` (an op of `allocs`) is replaced by `to` in its place:
  /// `to` takes its entry if copy elision rewrites ops of its kind.
  void notifyAllocationReplaced(Operation *from, Operation *to);

  /// The scf.if, scf.index_switch and memref.assume_alignment ops (capture),
  /// if the lists are valid.
  std::optional<SmallVector<Operation *>> takeBranchesAndAssumes() {
    return take(branchesAndAssumes);
  }
  /// The view ops view folding rewrites.
  std::optional<SmallVector<Operation *>> takeViews() { return take(views); }
  /// The copies copy elision looks at and the allocations it rewrites: both
  /// or neither.
  std::optional<std::pair<SmallVector<Operation *>, SmallVector<Operation *>>>
  takeCopiesAndAllocs();

private:
  std::optional<SmallVector<Operation *>>
  take(std::optional<SmallVector<Operation *>> &list) {
    std::optional<SmallVector<Operation *>> taken;
    if (valid)
      taken = std::move(list);
    list.reset();
    return taken;
  }
  bool valid = false;
  std::optional<SmallVector<Operation *>> branchesAndAssumes{std::in_place},
      views{std::in_place}, copies{std::in_place}, allocs{std::in_place};
  /// The entry of each memref.alloc in `allocs`.
  llvm::DenseMap<Operation *, unsigned> allocIndex;
};

/// Whether capture looks at `op` before it captures: a branch op whose
/// results it may hoist or an alignment assumption.
bool isCaptureWalkOp(Operation *op);
/// Whether `op` is a view op mplan-fold-views canonicalizes or removes.
bool isFoldableViewOp(Operation *op);
/// Whether `op` is a copy mplan-elide-copies tries to remove, or an
/// allocation it may rewrite.
bool isElidableCopy(Operation *op);
bool isElidableAllocation(Operation *op);

/// The work of `mplan-capture-buffers` (without fold-views) on one function,
/// whose analyses are `analyses`: the liveness is built if need be and kept
/// up to date; a points-to analysis already built is kept while capture only
/// turns allocations into planner buffers of the same type, and dropped
/// otherwise (branch results hoisted, deallocations erased, buffers bounded). A
/// dynamically shaped buffer is captured at its upper-bound size
/// (UpperBounds.h) when that is at most `maxBoundBytes` bytes; `argUpperBound`
/// (> 0; 0: none) bounds the arguments no bound attribute bounds. With
/// `checkBounds`, a cf.assert before the view of each such buffer checks its
/// sizes against the bounds. Returns whether the IR changed.
/// `ops`, if given, lists the function's ops (PlanStepOps): capture takes
/// its own from it and keeps it valid or invalidates it.
bool captureBuffersInFunction(func::FuncOp func, PlanAnalyses &analyses,
                              bool emitRemarks,
                              int64_t maxBoundBytes = int64_t(1) << 30,
                              int64_t argUpperBound = 0,
                              bool checkBounds = false,
                              PlanStepOps *ops = nullptr);

/// Checks every `mplan.unplanned` attribute under `root`: a unit attribute
/// (opt-out) on a memref.alloc or memref.alloca, or a string (a reason an
/// earlier run recorded) on a memref.alloc. Emits an error at the first op
/// that carries it otherwise.
LogicalResult verifyOptOutAttrs(Operation *root);
/// The check of verifyOptOutAttrs on `op` alone (not the ops nested in it).
LogicalResult verifyOptOutAttr(Operation *op);

/// mplan-mark-calls that also checks every op's `mplan.unplanned` attribute
/// (verifyOptOutAttr) in the walk of the module it makes anyway, and fails
/// at the first invalid one: mplan-plan-pipeline runs it so that its plan
/// pass need not walk the module for that check.
std::unique_ptr<Pass> createMPlanMarkCallsCheckingOptOuts();

/// Counters `mplan-elide-copies` adds to on the function: copies removed,
/// and copies kept because their removal would raise the max-live bound
/// (`peak-guard`) or exceed a capacity.
constexpr llvm::StringLiteral kCopiesRemovedAttr = "mplan.copies_removed";
constexpr llvm::StringLiteral kCopiesKeptForPeakAttr =
    "mplan.copies_kept_for_peak";
constexpr llvm::StringLiteral kCopiesKeptForBudgetAttr =
    "mplan.copies_kept_for_budget";

/// The work of `mplan-elide-copies` on one function, whose analyses are
/// `analyses` (kept up to date; the liveness is only built if some copy
/// passes the legality checks). Returns whether the IR changed.
/// The copies and allocations are taken from `ops` if given and valid.
bool elideCopiesInFunction(func::FuncOp func, PeakGuard peakGuard,
                           PlanAnalyses &analyses, PlanStepOps *ops = nullptr);

/// The work of `mplan-inplace` on one function, whose analyses are
/// `analyses` (kept up to date): every elementwise linalg op whose output can
/// be written over a dying input gets that input's buffer. Records the merges
/// in the function's `mplan.inplace` attribute; returns how many were made.
int64_t reuseInPlaceInFunction(func::FuncOp func, PlanAnalyses &analyses);

/// What meetCapacitiesInFunction works with: the planner's options (its
/// `capacity` list names the capped spaces), the levers and their costs.
struct BudgetOptions {
  MPlanPlanBuffersOptions planner;
  /// Rematerialize buffers whose writers can run again.
  bool remat = true;
  /// The spaces buffers may be offloaded from and the space each goes to
  /// (keys as formatMemorySpace prints them; parseOffloads).
  SmallVector<std::pair<std::string, Attribute>> offload;
  /// The cost of moving one byte, in payload ops.
  double offloadCost = 1.0;
  /// Steps (ops and uses visited) the search may take.
  int64_t workLimit = 10000000;
  bool emitRemarks = false;
  /// Record the splitting problem before the first split (kSplitProblemAttr).
  bool recordProblem = false;
};

/// The function attributes meetCapacitiesInFunction records: the splits it
/// made (`{kind, buffer, new_buffer, [offload_buffer,] after, before, cost,
/// bytes}`), each capped space's max-live bound before them, and why the
/// buffers live at the last peak it could not lower could not be split
/// (`{buffer, at, why}`).
constexpr llvm::StringLiteral kSplitsAttr = "mplan.splits";
constexpr llvm::StringLiteral kBoundsBeforeSplitsAttr =
    "mplan.bounds_before_splits";
constexpr llvm::StringLiteral kUnsplitAttr = "mplan.unsplit";
/// The work budget the splits stopped at, when they did (the capacity error
/// says so).
constexpr llvm::StringLiteral kSplitWorkLimitAttr = "mplan.split_work_limit";
/// The work of the function's ops before the splits (the unit of `cost`).
constexpr llvm::StringLiteral kProgramWorkAttr = "mplan.program_work";
/// With BudgetOptions::recordProblem: per space above its capacity, the
/// problem the splits solve, before the first one (`{space, capacity,
/// complete (false: the work budget cut the list of candidates), live,
/// candidates, conflicts}`: the padded bytes live at each point of the
/// numbering; each legal split of a buffer between two consecutive uses as
/// `[buffer, kind (0 remat, 1 offload), first freed point, end of the freed
/// points, bytes freed, cost, bytes live while recomputing, group (one lever
/// per group), prerequisite (-1, or the recomputation a half of a cut gap
/// goes with)]`; the pairs that exclude each other, flattened). The
/// pipeline's `split-problem` writes it to a file and drops the attribute.
constexpr llvm::StringLiteral kSplitProblemAttr = "mplan.split_problem";

/// Lowers the max-live bound of every memory space of `func` with a
/// capacity (`options.planner.capacity`) that its buffers exceed, by
/// rematerializing buffers or offloading them to another memory space
/// between their uses (see Budget.cpp), until the space fits or no lever is
/// left; works on `analyses` and leaves them valid. Without a capacity, does
/// nothing. Fails only on a malformed capacity.
LogicalResult meetCapacitiesInFunction(func::FuncOp func,
                                       const BudgetOptions &options,
                                       PlanAnalyses &analyses);

/// The bytes by which the max-live bounds of `func`'s memory spaces with a
/// capacity (`options.planner.capacity`) exceed it, summed, by the liveness
/// of `analyses`: 0 when every one fits, INT64_MAX when a bound overflows.
int64_t capacityExcess(func::FuncOp func, const BudgetOptions &options,
                       PlanAnalyses &analyses);

/// Whether a memory space of `func` with a capacity has a max-live bound
/// above it (capacityExcess is not 0).
bool exceedsCapacity(func::FuncOp func, const BudgetOptions &options,
                     PlanAnalyses &analyses);

/// Parses the `offload` option: `FROM:TO` entries, each space as `capacity`
/// names it; fails with an error that `emitError` starts.
FailureOr<SmallVector<std::pair<std::string, Attribute>>>
parseOffloads(MLIRContext *context, function_ref<OptionError()> emitError,
              ArrayRef<std::string> specs);

/// The function attributes mplan-sequence records: the max-live bound in
/// program order (default memory space) and, when the order it chose is
/// proven optimal, a unit attribute.
constexpr llvm::StringLiteral kLowerBoundProgramOrderAttr =
    "mplan.lower_bound_program_order";
constexpr llvm::StringLiteral kSequenceOptimalAttr = "mplan.sequence_optimal";
/// Why mplan-sequence kept program order (a string), when it did.
constexpr llvm::StringLiteral kSequenceKeptBecauseAttr =
    "mplan.sequence_kept_because";

/// The work of `mplan-sequence` on one function (after capture, views and
/// copies): reorders the ops of its body to lower the max-live bound of its
/// default-space buffers (or, with capacities, first to fit them), taking
/// an order only if, with the planner's own live ranges, no memory space's
/// bound gets worse and run-time sized buffers disjoint in program order
/// stay disjoint. When it keeps program order for another reason than its
/// being optimal, it records why (kSequenceKeptBecauseAttr; a remark with
/// `options.emitRemarks`). Returns whether the IR changed; failure if the
/// sequencer fails. `options` must have passed verifySequenceOptions. With
/// `analyses`, it works on them and leaves them valid for the order it
/// leaves (the liveness of the new order).
FailureOr<bool> sequenceFunction(func::FuncOp func,
                                 const MPlanSequenceOptions &options,
                                 PlanAnalyses *analyses = nullptr);

/// Checks the options of `mplan-sequence` as the options `mode`, `time-limit`,
/// `alignment`, `work-limit` and `capacity` of `pass` (the pass or pipeline the
/// user named: the pipeline calls the mode `sequence`), with an error at
/// `anchor` about the first invalid one (emitOptionError).
LogicalResult verifySequenceOptions(Operation *anchor, StringRef pass,
                                    StringRef modeOption,
                                    const MPlanSequenceOptions &options);

/// The value every dynamic dimension of a run-time sized buffer takes when
/// mplan-plan-buffers orders those buffers (by their offsets in a plan of
/// these sizes) and in the report's `arena_bytes_at_hint`.
constexpr int64_t kDynamicSizeHint = 64;

/// What the plan report says about the slab of one memory space.
struct SlabPlanReport {
  /// The memory space attribute as printed ("1",
  /// "#gpu.address_space<workgroup>"); empty for the default space.
  std::string memorySpace;
  std::string strategy;
  int64_t arenaBytes = 0;
  int64_t lowerBoundBytes = 0;
  int64_t staggerBytes = 0; ///< included in arenaBytes
  /// With a capacity: the capacity, the max-live bound before any live
  /// range was split (when one was) and the op floor.
  int64_t capacityBytes = 0;
  std::optional<int64_t> boundBeforeSplits;
  int64_t opFloorBytes = 0;
  struct Entry {
    int64_t id, start, end, size, offset;
    std::string loc;
    /// For a dynamically shaped buffer planned at its upper bound: which
    /// bounds made it plannable (empty otherwise).
    std::string bound;
  };
  std::vector<Entry> buffers;
};

/// What the plan report says about one function: its default-space slab
/// (the report's top-level fields) and one slab per other memory space.
struct FunctionPlanReport {
  std::string name;
  SlabPlanReport defaultSpace;
  std::vector<SlabPlanReport> otherSpaces;
  std::vector<std::pair<std::string, std::string>> unmanaged;
  /// The default space's max-live bound in program order, before
  /// mplan-sequence reordered the function (kLowerBoundProgramOrderAttr);
  /// unset when it did not run.
  std::optional<int64_t> lowerBoundProgramOrder;
  /// mplan-sequence proved its order optimal (kSequenceOptimalAttr).
  bool sequenceOptimal = false;
  /// Why mplan-sequence kept program order (kSequenceKeptBecauseAttr).
  std::string sequenceKeptBecause;
  /// In-place reuses (mplan-inplace): buffer `id` also holds what buffer
  /// `reusedBy` held, from the op at `loc` on.
  struct InPlaceEntry {
    int64_t id, reusedBy;
    std::string loc;
  };
  std::vector<InPlaceEntry> inplace;
  /// The live ranges split to meet a capacity (kSplitsAttr), as recorded,
  /// and the work of the function's ops before them (kProgramWorkAttr).
  struct SplitEntry {
    std::string kind;
    int64_t buffer, newBuffer;
    std::optional<int64_t> offloadBuffer;
    std::vector<int64_t> recomputedInputs;
    std::string after, before;
    int64_t cost, bytes;
  };
  std::vector<SplitEntry> splits;
  std::optional<int64_t> programWork;
  /// The symbolic plan of the run-time sized buffers (mplan.alloc_dynamic)
  /// of the default-space slab: each one's place is computed when the slab is
  /// allocated, above the static bytes and above the buffers in `above`.
  struct DynamicEntry {
    int64_t id, start, end, alignment;
    std::string loc;
    /// The byte size as an expression of the run-time sizes
    /// ("4 * 64 * %arg1").
    std::string size;
    std::vector<int64_t> above;
  };
  std::vector<DynamicEntry> dynamicBuffers;
  /// The size of the default-space slab as an expression (empty without
  /// run-time sized buffers), and its value when every dynamic dimension is
  /// kDynamicSizeHint.
  std::string dynamicArena;
  int64_t arenaBytesAtHint = 0;
  /// Counts recorded by mplan-fold-views / mplan-elide-copies as function
  /// attributes (`mplan.<key>`), reported as `<key>`.
  std::vector<std::pair<std::string, int64_t>> viewCopyCounts;
};

/// The work of `mplan-plan-buffers` on one function: plans its unplanned
/// mplan.alloc_tensor ops into one slab per memory space with `options`
/// (strategy, time limit, alignment) and fills `report`. With `analyses`
/// (those of `func` as it is), plans with their liveness instead of building
/// one.
LogicalResult planBuffersInFunction(func::FuncOp func,
                                    const MPlanPlanBuffersOptions &options,
                                    FunctionPlanReport &report,
                                    PlanAnalyses *analyses = nullptr);

/// Parses the `capacity` option: `SPACE:BYTES` entries with SPACE `default`,
/// an integer memory space or a `#gpu.address_space` keyword (`global`,
/// `workgroup`, `private`) and BYTES a positive integer. Maps each space, as
/// the plan report prints it ("" for the default space, "1",
/// "#gpu.address_space<workgroup>"), to its capacity; fails on a malformed or
/// repeated entry, with an error that `emitError` starts ("entry '...': ...").
FailureOr<llvm::StringMap<int64_t>>
parseCapacities(function_ref<OptionError()> emitError,
                ArrayRef<std::string> specs);

/// The work of `mplan-plan-buffers` on a module: checks `options` (an
/// invalid one is an error about the option of `pass`, the pass or pipeline
/// the user named), then for each function with a body runs `prepare` (if
/// given) and plans it, and writes the JSON report to `options.reportPath`
/// ('-': stdout) if set. With `optOutsVerified` the module's `mplan.unplanned`
/// attributes are known valid (createMPlanMarkCallsCheckingOptOuts ran just
/// before) and are not checked again.
LogicalResult planModule(
    ModuleOp module, StringRef pass, const MPlanPlanBuffersOptions &options,
    llvm::function_ref<LogicalResult(func::FuncOp, PlanAnalyses &)> prepare =
        {},
    bool optOutsVerified = false);

/// The work of `mplan-fold-views` on one function: view chains on planner
/// buffers become one mplan.view of the root, dead views are erased, and the
/// counts are added to the function's `mplan.views_removed` /
/// `mplan.views_canonicalized` attributes. Returns whether the IR changed;
/// failure if the rewrite did not converge. Every change is announced to
/// `listener` if given.
/// The views are taken from `ops` if given and valid.
FailureOr<bool> foldViewsInFunction(func::FuncOp func,
                                    RewriterBase::Listener *listener = nullptr,
                                    PlanStepOps *ops = nullptr);

/// Adds `delta` to the per-function counter attribute `name` (an i64
/// attribute such as `mplan.copies_removed`, which mplan-plan-buffers copies
/// into the plan report). Returns whether the attribute changed.
bool addToCounterAttr(func::FuncOp func, StringRef name, int64_t delta);

/// Adds the passes that take bufferized memref IR to planned mplan IR.
void buildPlanPipeline(OpPassManager &pm, const PlanPipelineOptions &options);

/// Registers `mplan-plan-pipeline`.
void registerPlanPipeline();

#define GEN_PASS_REGISTRATION
#include "mplan/Transforms/Passes.h.inc"

} // namespace mplan
} // namespace mlir

#endif // MPLAN_TRANSFORMS_PASSES_H
