//===- PlanPipeline.cpp - mplan-plan-pipeline -----------------------------===//

#include "mplan/Analysis/PlanAnalyses.h"
#include "mplan/Analysis/UpperBounds.h"
#include "mplan/Support/Sequencer.h"
#include "mplan/Transforms/OptionErrors.h"
#include "mplan/Transforms/Passes.h"
#include "mplan/Transforms/PlanBuffers.h"

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
      for (size_t i = 0; i + 1 < pairs.size(); i += 2)
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
    auto prepare = [&](func::FuncOp func,
                       PlanAnalyses &analyses) -> LogicalResult {
      if (failed(verifyUpperBoundAttrs(func)))
        return failure();
      if (captureBuffersInFunction(func, analyses.getLiveness(), emitRemarks,
                                   maxBoundBytes, argUpperBound, checkBounds))
        analyses.notifyLivenessUpdated();
      if (viewsAndCopies) {
        PlanAnalyses::Listener listener(analyses);
        if (failed(foldViewsInFunction(func, &listener)))
          return failure();
        (void)elideCopiesInFunction(func, peakGuard, analyses);
      }
      // A space above its capacity gets the default pipeline's levers that
      // the user left unset: sequencing (fitting every capacity first) and
      // in-place reuse (which lowers the op floor itself).
      bool sequenceHere = sequence != "program";
      bool inplaceHere = inplace;
      MPlanSequenceOptions orderOptions = sequenceOptions;
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
      size_t bodyOps = 0;
      for (Block &block : func.getBody())
        bodyOps += block.getOperations().size();
      unsigned rounds = bodyOps <= kOrderReuseMaxOps ? kOrderReuseRounds : 0;
      for (unsigned round = 0; round < rounds && (sequenceHere || inplaceHere);
           ++round) {
        bool elided = false;
        if (viewsAndCopies && getCounter(func, kCopiesKeptForPeakAttr) != 0) {
          int64_t removed = getCounter(func, kCopiesRemovedAttr);
          func->removeAttr(kCopiesKeptForPeakAttr);
          func->removeAttr(kCopiesKeptForBudgetAttr);
          (void)elideCopiesInFunction(func, peakGuard, analyses);
          elided = getCounter(func, kCopiesRemovedAttr) != removed;
        }
        bool reordered = false;
        if (sequenceHere && (elided || reused)) {
          Attribute optimal = func->getAttr(kSequenceOptimalAttr);
          Attribute keptBecause = func->getAttr(kSequenceKeptBecauseAttr);
          FailureOr<bool> changed =
              sequenceFunction(func, againOptions, &analyses);
          if (failed(changed))
            return failure();
          reordered = *changed;
          if (!reordered) {
            func->removeAttr(kSequenceOptimalAttr);
            func->removeAttr(kSequenceKeptBecauseAttr);
            if (optimal)
              func->setAttr(kSequenceOptimalAttr, optimal);
            if (keptBecause)
              func->setAttr(kSequenceKeptBecauseAttr, keptBecause);
          }
        }
        if (!elided && !reordered)
          break;
        reused = inplaceHere && reuseInPlaceInFunction(func, analyses) != 0;
      }
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
    LogicalResult planned = planModule(module, userName, planOptions, prepare);
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
  // the caller.
  pm.addPass(createMPlanMarkCalls());
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
  pm.addPass(std::move(pass));
}

void mlir::mplan::registerPlanPipeline() {
  PassPipelineRegistration<PlanPipelineOptions>(
      "mplan-plan-pipeline",
      "Plan the static buffers of bufferized memref IR into one slab per "
      "function (capture, live ranges, plan)",
      buildPlanPipeline);
}
