//===- PlanPipeline.cpp - mplan-plan-pipeline -----------------------------===//

#include "mplan/Analysis/PlanAnalyses.h"
#include "mplan/Analysis/UpperBounds.h"
#include "mplan/Support/CheckedMath.h"
#include "mplan/Support/Sequencer.h"
#include "mplan/Transforms/OptionErrors.h"
#include "mplan/Transforms/Passes.h"
#include "mplan/Transforms/PlanBuffers.h"

#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassRegistry.h"
#include "mlir/Support/FileUtilities.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/ToolOutputFile.h"

namespace mlir {
namespace mplan {
#define GEN_PASS_DEF_MPLANPLAN
#include "mplan/Transforms/Passes.h.inc"
} // namespace mplan
} // namespace mlir

using namespace mlir;
using namespace mlir::mplan;

/// The rounds of ordering and splitting again after the first splits.
static constexpr unsigned kOrderSplitRounds = 3;
/// The rounds of copy elision, ordering and in-place reuse again after the
/// first, on functions whose body blocks hold at most kOrderReuseMaxOps ops
/// (each round may build the sequencer's model again: on larger functions
/// one round keeps sequencing's cost linear).
static constexpr unsigned kOrderReuseRounds = 3;
static constexpr size_t kOrderReuseMaxOps = 4096;

/// The counter attribute `name` of `func` (0 when it has none).
static int64_t getCounter(func::FuncOp func, StringRef name) {
  auto counter = func->getAttrOfType<IntegerAttr>(name);
  return counter ? counter.getInt() : 0;
}

/// Whether the blocks of `func`'s body hold at most kOrderReuseMaxOps ops
/// (nested ops not counted; counted up to there).
static bool isSmall(func::FuncOp func) {
  return !hasAtLeastBodyOps(func, kOrderReuseMaxOps + 1);
}

void PlanStepOps::visit(Operation *op) {
  if (isCaptureWalkOp(op))
    branchesAndAssumes->push_back(op);
  else if (isFoldableViewOp(op))
    views->push_back(op);
  else if (isElidableCopy(op))
    copies->push_back(op);
  else if (isElidableAllocation(op)) {
    if (isa<memref::AllocOp>(op))
      allocIndex[op] = allocs->size();
    allocs->push_back(op);
  }
}

void PlanStepOps::notifyAllocationReplaced(Operation *from, Operation *to) {
  auto it = allocIndex.find(from);
  if (!valid || !allocs || it == allocIndex.end())
    return;
  (*allocs)[it->second] = isElidableAllocation(to) ? to : nullptr;
  allocIndex.erase(it);
}

std::optional<std::pair<SmallVector<Operation *>, SmallVector<Operation *>>>
PlanStepOps::takeCopiesAndAllocs() {
  std::optional<SmallVector<Operation *>> takenCopies = take(copies);
  std::optional<SmallVector<Operation *>> takenAllocs = take(allocs);
  allocIndex.clear();
  if (!takenCopies || !takenAllocs)
    return std::nullopt;
  // Allocations replaced by ops of another kind left a hole.
  llvm::erase(*takenAllocs, nullptr);
  return std::make_pair(std::move(*takenCopies), std::move(*takenAllocs));
}

/// Whether `func` has a copy copy elision looks at.
static bool hasCopies(func::FuncOp func) {
  return func
      .walk([](Operation *op) {
        return isElidableCopy(op) ? WalkResult::interrupt()
                                  : WalkResult::advance();
      })
      .wasInterrupted();
}

/// The max-live bound of each memory space of `func` (keyed as
/// formatMemorySpace names it); std::nullopt when one overflows.
static std::optional<llvm::StringMap<int64_t>>
getSpaceBounds(func::FuncOp func, PlanAnalyses &analyses, int64_t alignment) {
  auto found = computeSpaceBounds(func, analyses.getExactLiveness(), alignment);
  if (failed(found))
    return std::nullopt;
  // Slabs that share a name (`1` and `1 : i32`) count as one space, as the
  // capacity check counts them: their bounds add up.
  llvm::StringMap<int64_t> bounds;
  for (const auto &[space, bound] : *found) {
    std::optional<int64_t> sum =
        bound ? ::mplan::checkedAdd(bounds.lookup(space), *bound)
              : std::nullopt;
    if (!sum)
      return std::nullopt;
    bounds[space] = *sum;
  }
  return bounds;
}

/// Whether the plan of `candidate` is lower than `func`'s: no memory space's
/// bound higher and one lower, or every bound the same and more copies
/// removed.
static bool isLower(func::FuncOp candidate, PlanAnalyses &candidateAnalyses,
                    func::FuncOp func, PlanAnalyses &analyses,
                    int64_t alignment) {
  std::optional<llvm::StringMap<int64_t>> mine =
      getSpaceBounds(candidate, candidateAnalyses, alignment);
  std::optional<llvm::StringMap<int64_t>> theirs =
      getSpaceBounds(func, analyses, alignment);
  if (!mine || !theirs)
    return false;
  bool lower = false;
  for (const auto &[space, bound] : *mine) {
    int64_t other = theirs->lookup(space);
    if (bound > other)
      return false;
    lower |= bound < other;
  }
  for (const auto &[space, bound] : *theirs)
    lower |= !mine->contains(space) && bound > 0;
  return lower || getCounter(candidate, kCopiesRemovedAttr) >
                      getCounter(func, kCopiesRemovedAttr);
}

/// Moves `from`'s body and its mplan attributes (counters, in-place merges,
/// sequencing's records) into `func`, whose own go.
static void takePlan(func::FuncOp func, func::FuncOp from) {
  func.getBody().takeBody(from.getBody());
  SmallVector<StringAttr> stale;
  for (NamedAttribute attr : func->getDiscardableAttrs())
    if (attr.getName().getValue().starts_with("mplan."))
      stale.push_back(attr.getName());
  for (StringAttr name : stale)
    func->removeAttr(name);
  for (NamedAttribute attr : from->getDiscardableAttrs())
    if (attr.getName().getValue().starts_with("mplan."))
      func->setAttr(attr.getName(), attr.getValue());
}

/// The number of live ranges split in `func` so far (kSplitsAttr).
static size_t numSplits(func::FuncOp func) {
  auto splits = func->getAttrOfType<ArrayAttr>(kSplitsAttr);
  return splits ? splits.size() : 0;
}

/// Moves `func`'s splitting problems (kSplitProblemAttr) into `problems`,
/// one JSON object per space, and drops the attribute.
static void takeSplitProblems(func::FuncOp func, llvm::json::Array &problems) {
  auto recorded = func->getAttrOfType<ArrayAttr>(kSplitProblemAttr);
  if (!recorded)
    return;
  func->removeAttr(kSplitProblemAttr);
  for (auto problem : recorded.getAsRange<DictionaryAttr>()) {
    llvm::json::Object entry;
    entry["function"] = func.getSymName().str();
    if (auto space = problem.getAs<StringAttr>("space"))
      entry["memory_space"] = space.str();
    if (auto capacity = problem.getAs<IntegerAttr>("capacity"))
      entry["capacity_bytes"] = capacity.getInt();
    // False when the work budget ended the list of candidates early.
    if (auto complete = problem.getAs<BoolAttr>("complete"))
      entry["complete"] = complete.getValue();
    llvm::json::Array live, candidates, conflicts;
    if (auto bytes = problem.getAs<DenseI64ArrayAttr>("live"))
      for (int64_t value : bytes.asArrayRef())
        live.push_back(value);
    if (auto rows = problem.getAs<ArrayAttr>("candidates"))
      for (auto row : rows.getAsRange<DenseI64ArrayAttr>()) {
        ArrayRef<int64_t> v = row.asArrayRef();
        if (v.size() != 9)
          continue;
        llvm::json::Object candidate{
            {"buffer", v[0]},     {"kind", v[1] == 0 ? "remat" : "offload"},
            {"from", v[2]},       {"to", v[3]},
            {"bytes", v[4]},      {"cost", v[5]},
            {"late_bytes", v[6]}, {"group", v[7]}};
        // A half of an input's gap cut by the read its recomputation adds.
        if (v[8] >= 0)
          candidate["prerequisite"] = v[8];
        candidates.push_back(std::move(candidate));
      }
    if (auto pairs = problem.getAs<DenseI64ArrayAttr>("conflicts"))
      for (int64_t i = 0; i + 1 < pairs.size(); i += 2)
        conflicts.push_back(llvm::json::Array{pairs[i], pairs[i + 1]});
    entry["live_bytes"] = std::move(live);
    entry["candidates"] = std::move(candidates);
    entry["conflicts"] = std::move(conflicts);
    problems.push_back(std::move(entry));
  }
}

/// Writes `problems` to `path` as `{"problems": [...]}`.
static LogicalResult writeSplitProblems(ModuleOp module, StringRef pass,
                                        StringRef path,
                                        llvm::json::Array problems) {
  std::string error;
  std::unique_ptr<llvm::ToolOutputFile> file = openOutputFile(path, &error);
  if (!file)
    return emitOptionError(module, pass, "split-problem",
                           "cannot write the splitting problem: " + error);
  file->os() << llvm::formatv("{0:2}", llvm::json::Value(llvm::json::Object{
                                           {"problems", std::move(problems)}}))
             << "\n";
  file->keep();
  return success();
}

namespace {
struct MPlanPlanPass : public mlir::mplan::impl::MPlanPlanBase<MPlanPlanPass> {
  using Base::Base;

  void getDependentDialects(DialectRegistry &registry) const override {
    Base::getDependentDialects(registry);
    registerUpperBoundInterfaces(registry);
  }

  /// The pass or pipeline the user named, for option errors: the pipeline
  /// runs this pass with its own options.
  StringRef userName = "mplan-plan";
  /// Whether the user set `time-limit` (the pipeline always sets the
  /// pass's option).
  bool timeLimitGiven = true;
  /// Whether the user set `sequence` and `inplace` (unset: the pass's own
  /// parse says).
  std::optional<bool> sequenceGiven, inplaceGiven;
  /// Whether the pass before this one checked the opt-out attributes
  /// (createMPlanMarkCallsCheckingOptOuts, in the pipeline).
  bool optOutsVerified = false;

  void runOnOperation() override {
    ModuleOp module = getOperation();
    bool userSetSequence = sequenceGiven.value_or(sequence.hasValue());
    bool userSetInplace = inplaceGiven.value_or(inplace.hasValue());
    // The time limit is the sequencer's safety net only if the user set it;
    // its work budget alone makes the order independent of the load.
    MPlanSequenceOptions sequenceOptions{
        sequence,
        timeLimitGiven && timeLimit.hasValue() ? double(timeLimit) : 0.0,
        alignment,
        ::mplan::SequenceOptions().workLimit,
        emitRemarks,
        {capacity.begin(), capacity.end()}};
    if (failed(verifyCaptureOptions(module, userName, maxBoundBytes,
                                    argUpperBound)) ||
        failed(verifySequenceOptions(module, userName, "sequence",
                                     sequenceOptions)))
      return signalPassFailure();
    MPlanPlanBuffersOptions planOptions{
        strategy,  timeLimit,
        alignment, reportPath,
        stagger,   SmallVector<std::string>(capacity.begin(), capacity.end())};
    // The levers that lower a bound above a capacity.
    BudgetOptions budget;
    budget.planner = planOptions;
    budget.remat = remat;
    budget.offloadCost = offloadCost;
    budget.workLimit = ::mplan::SequenceOptions().workLimit;
    budget.emitRemarks = emitRemarks;
    budget.recordProblem = !splitProblem.empty();
    llvm::json::Array problems;
    if (!(offloadCost >= 0.0 && offloadCost <= 1.0e12)) {
      (void)emitOptionError(module, userName, "offload-cost",
                            "must be between 0 and 1e12");
      return signalPassFailure();
    }
    FailureOr<SmallVector<std::pair<std::string, Attribute>>> offloads =
        parseOffloads(
            &getContext(),
            [&] { return emitOptionError(module, userName, "offload", ""); },
            SmallVector<std::string>(offload.begin(), offload.end()));
    if (failed(offloads))
      return signalPassFailure();
    budget.offload = std::move(*offloads);
    // Views and copies before live ranges are computed for planning: view
    // chains to one mplan.view of the root, then copies removed by aliasing.
    // Every step works on the function's one points-to analysis and one
    // liveness (`analyses`, built when a step first needs them: the liveness
    // for capture, the points-to analysis for copy elision), which each
    // rewrite keeps valid in place, up to the plan.
    // Copy elision under `guard`, then the order and in-place reuse (in
    // rounds). `remarks`: the sequencer may emit its remarks.
    struct Decision {
      /// The function is sequenced, with these options from now on.
      bool sequenced = false;
      MPlanSequenceOptions again;
    };
    // `ops`: the function's ops as listed for the steps (PlanStepOps), if
    // any.
    auto decide = [&](func::FuncOp func, PlanAnalyses &analyses,
                      PeakGuard guard, bool remarks,
                      PlanStepOps *ops) -> FailureOr<Decision> {
      if (viewsAndCopies)
        (void)elideCopiesInFunction(func, guard, analyses, ops);
      // A space above its capacity gets the default pipeline's levers that
      // the user left unset: sequencing (fitting every capacity first) and
      // in-place reuse (which lowers the op floor itself).
      bool sequenceHere = sequence != "program";
      bool inplaceHere = inplace;
      MPlanSequenceOptions orderOptions = sequenceOptions;
      orderOptions.emitRemarks &= remarks;
      if ((!userSetSequence || !userSetInplace) &&
          exceedsCapacity(func, budget, analyses)) {
        if (!userSetSequence && !sequenceHere) {
          sequenceHere = true;
          orderOptions.mode = "best";
        }
        inplaceHere |= !userSetInplace;
      }
      // The order the planner will see, before in-place reuse decides which
      // inputs die where.
      if (sequenceHere &&
          failed(sequenceFunction(func, orderOptions, &analyses)))
        return failure();
      bool reused = false;
      if (inplaceHere) {
        // The report's program-order bound is the one before in-place reuse
        // (sequencing recorded it already if it ran).
        (void)recordProgramOrderBound(func, analyses.getExactLiveness(),
                                      alignment);
        reused = reuseInPlaceInFunction(func, analyses) != 0;
      }
      // Copy elision, the order and in-place reuse each judge against the
      // peak the steps before them left: the guard kept copies against the
      // bound of program order, the order was chosen before buffers merged
      // in place. While one of them changes the program, the others look
      // again: the kept copies are judged afresh (and counted afresh), the
      // merged program is ordered again and reused in place again. No step
      // raises any space's bound, so neither do the rounds; an order kept in
      // a later round leaves the first round's remarks and report as they
      // were. (Sequencing leaves functions of more than one block alone.)
      MPlanSequenceOptions againOptions = orderOptions;
      againOptions.emitRemarks = false;
      unsigned rounds = isSmall(func) ? kOrderReuseRounds : 0;
      for (unsigned round = 0; round < rounds && (sequenceHere || inplaceHere);
           ++round) {
        bool elided = false;
        if (viewsAndCopies && getCounter(func, kCopiesKeptForPeakAttr) != 0) {
          int64_t removed = getCounter(func, kCopiesRemovedAttr);
          func->removeAttr(kCopiesKeptForPeakAttr);
          func->removeAttr(kCopiesKeptForBudgetAttr);
          (void)elideCopiesInFunction(func, guard, analyses);
          elided = getCounter(func, kCopiesRemovedAttr) != removed;
        }
        bool reordered = false;
        if (sequenceHere && (elided || reused)) {
          Attribute keptBecause = func->getAttr(kSequenceKeptBecauseAttr);
          FailureOr<bool> changed =
              sequenceFunction(func, againOptions, &analyses);
          if (failed(changed))
            return failure();
          reordered = *changed;
          // `sequence_optimal` is this round's (for the program as it is
          // now); unless it is set, why the order was kept stays the first
          // round's (none if the first round reordered).
          if (!reordered) {
            func->removeAttr(kSequenceKeptBecauseAttr);
            if (keptBecause && !func->hasAttr(kSequenceOptimalAttr))
              func->setAttr(kSequenceKeptBecauseAttr, keptBecause);
          }
        }
        if (!elided && !reordered)
          break;
        reused = inplaceHere && reuseInPlaceInFunction(func, analyses) != 0;
      }
      return Decision{sequenceHere, againOptions};
    };
    // The module's symbols, for the names of the functions' copies.
    std::optional<SymbolTable> symbols;
    auto prepare = [&](func::FuncOp func,
                       PlanAnalyses &analyses) -> LogicalResult {
      if (failed(verifyUpperBoundAttrs(func)))
        return failure();
      // Capture needs the liveness; copy elision, sequencing and in-place
      // reuse the points-to analysis, which capture and view folding keep
      // valid: both are built side by side.
      // The walk that builds the points-to analysis lists the ops capture,
      // view folding and copy elision visit.
      PlanStepOps ops;
      if ((viewsAndCopies || sequence != "program" || inplace ||
           !capacity.empty()) &&
          analyses.buildBoth([&](Operation *op) { ops.visit(op); }))
        ops.setValid();
      if (captureBuffersInFunction(func, analyses, emitRemarks, maxBoundBytes,
                                   argUpperBound, checkBounds, &ops))
        analyses.notifyLivenessUpdated();
      if (viewsAndCopies) {
        PlanAnalyses::Listener listener(analyses);
        if (failed(foldViewsInFunction(func, &listener, &ops)))
          return failure();
      }
      // Copy elision sees the points-to analysis a fresh one would be.
      analyses.dropWidenedPointsTo();
      // The guard on every copy keeps the bound of each decision at most
      // that of keeping the copy, but its decisions are greedy: removing
      // every pad and concat copy (`views`) may end lower. Where the guard
      // kept a copy, a copy of the function is planned that way too, and
      // the lower of the two is taken (no space higher, one lower or as
      // many bytes and fewer copies), on functions of up to
      // kOrderReuseMaxOps body ops.
      func::FuncOp alternative;
      if (viewsAndCopies && peakGuard == PeakGuard::All && isSmall(func) &&
          hasCopies(func)) {
        // A name no symbol of the module has (a name taken twice would make
        // a symbol table of the module invalid while the copy lives), looked
        // up in one table of the module's symbols (a lookup per function in
        // the module's ops would make many functions quadratic), built
        // before the copy exists under the function's name.
        if (!symbols)
          symbols.emplace(module);
        std::string name =
            (func.getSymName() + ".mplan.peak_guard_views").str();
        for (unsigned n = 1; symbols->lookup(name); ++n)
          name =
              (func.getSymName() + ".mplan.peak_guard_views." + Twine(n)).str();
        OpBuilder builder(func);
        alternative = cast<func::FuncOp>(builder.clone(*func));
        alternative.setSymName(name);
        alternative.setPrivate();
        symbols->insert(alternative);
      }
      FailureOr<Decision> decision =
          decide(func, analyses, peakGuard, true, &ops);
      if (succeeded(decision) && alternative &&
          getCounter(func, kCopiesKeptForPeakAttr) != 0) {
        // Its diagnostics would repeat the function's (and name the copy).
        ScopedDiagnosticHandler quiet(func.getContext(),
                                      [](Diagnostic &) { return success(); });
        PlanAnalyses altAnalyses(alternative);
        FailureOr<Decision> altDecision =
            decide(alternative, altAnalyses, PeakGuard::Views, false, nullptr);
        if (succeeded(altDecision) &&
            isLower(alternative, altAnalyses, func, analyses, alignment)) {
          takePlan(func, alternative);
          analyses.reset();
          decision = altDecision;
        }
      }
      if (alternative)
        symbols->erase(alternative);
      if (failed(decision))
        return failure();
      bool sequenceHere = decision->sequenced;
      MPlanSequenceOptions againOptions = decision->again;
      // Last, what the order, the copies and in-place reuse left above a
      // capacity is split.
      LogicalResult met = meetCapacitiesInFunction(func, budget, analyses);
      takeSplitProblems(func, problems);
      // The splits change the program the order was chosen for: while a
      // capacity is still exceeded, the split program is ordered again and
      // what is left above it split again, as long as each round lowers the
      // bytes above the capacities (a fixed point; a few rounds at most).
      int64_t excess = succeeded(met) && sequenceHere && numSplits(func) != 0
                           ? capacityExcess(func, budget, analyses)
                           : 0;
      BudgetOptions again = budget;
      again.recordProblem = false; // The first round's problem is kept.
      for (unsigned round = 0; round < kOrderSplitRounds && excess != 0;
           ++round) {
        FailureOr<bool> reordered =
            sequenceFunction(func, againOptions, &analyses);
        if (failed(reordered))
          return failure();
        if (!*reordered)
          break;
        met = meetCapacitiesInFunction(func, again, analyses);
        if (failed(met))
          break;
        int64_t left = capacityExcess(func, budget, analyses);
        if (left >= excess)
          break;
        excess = left;
      }
      return met;
    };
    LogicalResult planned =
        planModule(module, userName, planOptions, prepare, optOutsVerified);
    // Written when planning fails too: the problem of a capacity the levers
    // did not meet is the one an exact search asks about.
    if (!splitProblem.empty() &&
        failed(writeSplitProblems(module, userName, splitProblem,
                                  std::move(problems))))
      planned = failure();
    if (failed(planned))
      signalPassFailure();
  }
};
} // namespace

void mlir::mplan::buildPlanPipeline(OpPassManager &pm,
                                    const PlanPipelineOptions &options) {
  // Buffers passed to calls whose callee does not keep them are planned in
  // the caller. The walk that finds the calls also checks the opt-out
  // attributes, which the plan pass then need not walk the module for.
  pm.addPass(createMPlanMarkCallsCheckingOptOuts());
  // Capture, views, copies and plan in one pass: the (large) functions are
  // verified once, not after each step.
  MPlanPlanOptions plan;
  plan.strategy = options.strategy;
  plan.timeLimit = options.timeLimit;
  plan.alignment = options.alignment;
  plan.reportPath = options.report;
  plan.stagger = options.stagger;
  plan.capacity.assign(options.capacity.begin(), options.capacity.end());
  plan.viewsAndCopies = options.viewsAndCopies;
  plan.peakGuard = options.peakGuard;
  plan.sequence = options.sequence;
  plan.inplace = options.inplace;
  plan.remat = options.remat;
  plan.offload.assign(options.offload.begin(), options.offload.end());
  plan.offloadCost = options.offloadCost;
  plan.splitProblem = options.splitProblem;
  plan.emitRemarks = options.remarks;
  plan.maxBoundBytes = options.maxBoundBytes;
  plan.argUpperBound = options.argUpperBound;
  plan.checkBounds = options.checkBounds;
  auto pass = std::make_unique<MPlanPlanPass>(plan);
  pass->userName = "mplan-plan-pipeline";
  pass->timeLimitGiven = options.timeLimit.hasValue();
  pass->sequenceGiven = options.sequence.hasValue();
  pass->inplaceGiven = options.inplace.hasValue();
  pass->optOutsVerified = true;
  pm.addPass(std::move(pass));
}

void mlir::mplan::registerPlanPipeline() {
  PassPipelineRegistration<PlanPipelineOptions>(
      "mplan-plan-pipeline",
      "Plan the static buffers of bufferized memref IR into one slab per "
      "function (capture, live ranges, plan)",
      buildPlanPipeline);
}
