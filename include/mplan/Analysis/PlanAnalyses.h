//===- PlanAnalyses.h - The analyses mplan-plan keeps per function -*- C++
//-*-===//
//
// The points-to analysis (PointsTo.h) and the live ranges (BufferLiveness.h)
// of one function, built once, when a step first needs them, and kept valid
// in place by every rewrite that follows through one notify API: copy
// elision, sequencing, in-place reuse and planning all work on the same two
// analyses instead of building their own.
//
// The points-to analysis answers "may these values share bytes?"; the
// liveness numbers the ops and gives every buffer its live range and why it
// cannot be planned. A rewrite that changes the IR announces it here, and
// each announcement goes to both (to the liveness only once it exists).
// Reordering ops (sequencing) leaves aliasing as it is but renumbers the
// function: resetLiveness() then drops the liveness, which is rebuilt when
// next asked for.
//
//===----------------------------------------------------------------------===//

#ifndef MPLAN_ANALYSIS_PLANANALYSES_H
#define MPLAN_ANALYSIS_PLANANALYSES_H

#include "mplan/Analysis/BufferLiveness.h"
#include "mplan/Analysis/PointsTo.h"

#include "mlir/IR/PatternMatch.h"

#include <optional>

namespace mlir {
namespace mplan {

/// Whether the blocks of `funcOp`'s region hold at least `count` ops
/// (nested ops not counted; counted up to there).
bool hasAtLeastBodyOps(Operation *funcOp, size_t count);

class PlanAnalyses {
public:
  explicit PlanAnalyses(Operation *funcOp) : funcOp(funcOp) {}

  Operation *getFunction() const { return funcOp; }

  /// The points-to analysis of the function (built on the first call).
  PointsToAnalysis &getPointsTo() {
    if (!pointsTo)
      pointsTo.emplace(funcOp);
    return *pointsTo;
  }
  /// The liveness of the function (built on the first call), as the
  /// in-place updates left it: a numbering with gaps and ranges that only
  /// grew since it was built.
  BufferLiveness &getLiveness() {
    if (!liveness)
      liveness.emplace(funcOp);
    return *liveness;
  }
  /// The liveness with the numbering and the ranges a fresh analysis of the
  /// function would give (BufferLiveness::renumber, when the IR changed
  /// since it was built or last renumbered): what sequencing, in-place
  /// reuse and the planner see.
  BufferLiveness &getExactLiveness() {
    if (liveness && changed)
      liveness->renumber();
    changed = false;
    return getLiveness();
  }
  bool hasLiveness() const { return liveness.has_value(); }
  bool hasPointsTo() const { return pointsTo.has_value(); }
  /// Builds whichever of the two analyses is not built yet. Both only read
  /// the IR, so they are built side by side when the context allows threads
  /// (the pipeline's first step needs the liveness, the points-to analysis
  /// is kept valid from then on until copy elision asks for it). If the
  /// points-to analysis is built, its walk hands every op to `visit`
  /// (PointsToAnalysis::PointsToAnalysis), on the thread that builds it.
  /// Returns whether it did.
  bool buildBoth(function_ref<void(Operation *)> visit = {});
  /// The ops were renumbered (reordered): the liveness is rebuilt when next
  /// asked for. Aliasing did not change, the points-to analysis stays.
  void resetLiveness() {
    liveness.reset();
    changed = false;
  }

  /// Drops the points-to analysis if an update since it was built may have
  /// made it more conservative than a fresh one (PointsToAnalysis::
  /// isWidened): the steps before copy elision (capture, view folding) keep
  /// it only while it answers as a fresh analysis of the function would.
  void dropWidenedPointsTo() {
    if (pointsTo && pointsTo->isWidened())
      pointsTo.reset();
  }
  /// Drops the points-to analysis, rebuilt when next asked for: a step
  /// changed the IR without announcing it to it.
  void resetPointsTo() { pointsTo.reset(); }

  /// The function's body was replaced: both analyses are rebuilt when next
  /// asked for.
  void reset() {
    pointsTo.reset();
    liveness.reset();
    changed = false;
  }

  //===--------------------------------------------------------------------===//
  // The one notify API: each call keeps both analyses valid.
  //===--------------------------------------------------------------------===//

  /// A step changed the IR and kept the liveness valid with its own
  /// notify* calls (capture).
  void notifyLivenessUpdated() { changed = true; }
  /// `op` (and the ops nested in it) was just inserted.
  void notifyOpInserted(Operation *op) {
    auto each = [&](auto &analysis) { analysis.notifyOpInserted(op); };
    notify(each, each);
  }
  /// `op` now uses a replacement announced with notifyValueReplaced
  /// instead of the value it replaced: only the liveness looks at the op
  /// again (as if it were inserted).
  void notifyUserRedirected(Operation *op) {
    changed = true;
    if (liveness)
      liveness->notifyOpInserted(op);
  }
  /// Whether the liveness (if built) has every buffer `to` may be an alias
  /// of among those of `from`: a user of `from` taking `to` instead changes
  /// nothing it knows (the user is charged to those buffers already), and
  /// need not be announced with notifyUserRedirected.
  bool livenessCoversReplacement(Value from, Value to) const {
    if (!liveness)
      return true;
    ArrayRef<Value> fromRoots = liveness->getRootsOf(from);
    return llvm::all_of(liveness->getRootsOf(to), [&](Value root) {
      return llvm::is_contained(fromRoots, root);
    });
  }
  /// Call BEFORE erasing `op`.
  void notifyOpErased(Operation *op) {
    auto each = [&](auto &analysis) { analysis.notifyOpErased(op); };
    notify(each, each);
  }
  /// `op` was moved (aliasing is unchanged).
  void notifyOpMoved(Operation *op) {
    notify([](PointsToAnalysis &) {},
           [&](BufferLiveness &analysis) { analysis.notifyOpMoved(op); });
  }
  /// Call BEFORE `from.replaceAllUsesWith(to)`, `from` not a buffer of its
  /// own: what is computed from `from` may also point where `to` does, and
  /// `to`'s buffers live wherever `from` is used.
  void notifyValueReplaced(Value from, Value to) {
    notify(
        [&](PointsToAnalysis &analysis) {
          analysis.notifyValueReplaced(from, to);
        },
        [&](BufferLiveness &analysis) { analysis.notifyReplaced(from, to); });
  }
  /// Call BEFORE `from.replaceAllUsesWith(to)` where `from` is a buffer that
  /// goes away and `into` is the buffer `to` points into (a view of `into`
  /// or `into` itself): `into` covers everything `from` covered (aliases and
  /// live range), and what pointed into `from` points into `to`.
  void notifyBufferMerged(Value from, Value into, Value to) {
    notify(
        [&](PointsToAnalysis &analysis) {
          analysis.notifyValueReplaced(from, to);
        },
        [&](BufferLiveness &analysis) { analysis.mergeInto(from, into); });
  }

  /// Call BEFORE erasing allocation `from`, after `from.replaceAllUsesWith(
  /// to)`, where `to` is an allocation of the same type in `from`'s place
  /// (capture): `to` is the root and the place `from` was.
  void notifyAllocationReplaced(Value from, Value to) {
    changed = true;
    if (pointsTo && !pointsTo->notifyAllocationReplaced(from, to))
      pointsTo.reset();
    if (liveness)
      liveness->notifyRootReplaced(from, to);
  }

  /// Announces the changes a pattern rewriter makes (mplan-fold-views) to
  /// the analyses.
  struct Listener : public RewriterBase::Listener {
    explicit Listener(PlanAnalyses &analyses) : analyses(analyses) {}
    void notifyOperationInserted(Operation *op,
                                 OpBuilder::InsertPoint previous) override {
      replacing = nullptr;
      // A set previous point: the op was moved, not created.
      if (previous.isSet())
        analyses.notifyOpMoved(op);
      else
        analyses.notifyOpInserted(op);
    }
    // Its operands changed: its results alias what they now use, and it
    // uses them where it is. While the uses of an op's results are being
    // redirected (replaceAllOpUsesWith, replaceOp), each user is modified to
    // take the replacement, which the points-to analysis has from
    // notifyValueReplaced already, and the liveness too unless the
    // replacement may alias buffers the replaced value may not (a view
    // replaced by a view of the same buffer).
    void notifyOperationModified(Operation *op) override {
      if (replacing) {
        if (replacing->use_empty())
          replacing = nullptr;
        if (rereadUsers)
          analyses.notifyUserRedirected(op);
        return;
      }
      analyses.notifyOpInserted(op);
    }
    void notifyOperationReplaced(Operation *op, ValueRange values) override {
      rereadUsers = false;
      for (auto [from, to] : llvm::zip_equal(op->getResults(), values)) {
        if (!to)
          continue;
        rereadUsers |= !analyses.livenessCoversReplacement(from, to);
        analyses.notifyValueReplaced(from, to);
      }
      replacing = op->use_empty() ? nullptr : op;
    }
    void notifyOperationErased(Operation *op) override {
      replacing = nullptr;
      analyses.notifyOpErased(op);
    }
    PlanAnalyses &analyses;
    /// The op whose results' uses a rewriter is redirecting, until the last
    /// one is.
    Operation *replacing = nullptr;
    /// Whether the liveness looks at each redirected user again.
    bool rereadUsers = false;
  };

private:
  /// Marks the IR changed and hands the change to each analysis that exists.
  template <typename PointsToFn, typename LivenessFn>
  void notify(PointsToFn onPointsTo, LivenessFn onLiveness) {
    changed = true;
    if (pointsTo)
      onPointsTo(*pointsTo);
    if (liveness)
      onLiveness(*liveness);
  }

  Operation *funcOp;
  std::optional<PointsToAnalysis> pointsTo;
  std::optional<BufferLiveness> liveness;
  /// Whether the IR changed since the liveness was built or renumbered.
  bool changed = false;
};

} // namespace mplan
} // namespace mlir

#endif // MPLAN_ANALYSIS_PLANANALYSES_H
