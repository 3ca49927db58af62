//===- FoldViews.cpp - View chains on planner buffers to mplan.view -------===//

#include "mplan/Dialect/MPlan/IR/MPlanOps.h"
#include "mplan/Transforms/Passes.h"

#include "mlir/IR/Builders.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/STLExtras.h"

#include <algorithm>

namespace mlir {
namespace mplan {
#define GEN_PASS_DEF_MPLANFOLDVIEWS
#include "mplan/Transforms/Passes.h.inc"
} // namespace mplan
} // namespace mlir

using namespace mlir;
using namespace mlir::mplan;

bool mlir::mplan::isFoldableViewOp(Operation *op) {
  return isa<ViewOp, memref::SubViewOp, memref::ExpandShapeOp,
             memref::CollapseShapeOp, memref::ReinterpretCastOp, memref::CastOp,
             memref::ViewOp>(op);
}

namespace {
/// Hands every change on to the analyses' listener and keeps the view ops
/// the driver inserts and the ops it erases, so that the sweep after it
/// needs no second walk of the function.
struct ViewTracker : public RewriterBase::ForwardingListener {
  explicit ViewTracker(OpBuilder::Listener *listener)
      : ForwardingListener(listener) {}
  void notifyOperationInserted(Operation *op,
                               OpBuilder::InsertPoint previous) override {
    ForwardingListener::notifyOperationInserted(op, previous);
    // A new op may take the address of an erased one.
    erased.erase(op);
    if (isFoldableViewOp(op))
      inserted.push_back(op);
  }
  void notifyOperationErased(Operation *op) override {
    ForwardingListener::notifyOperationErased(op);
    erased.insert(op);
  }
  SmallVector<Operation *> inserted;
  llvm::DenseSet<Operation *> erased;
};
} // namespace

FailureOr<bool> mlir::mplan::foldViewsInFunction(
    func::FuncOp func, RewriterBase::Listener *listener, PlanStepOps *ops) {
  // One walk collects the views (or they are listed already); only they,
  // and the mplan.views the patterns create, are ever visited by the
  // driver. No other op of the function is folded, simplified or erased.
  SmallVector<Operation *> views;
  if (std::optional<SmallVector<Operation *>> listed =
          ops ? ops->takeViews() : std::nullopt)
    views = std::move(*listed);
  else
    func.walk([&](Operation *op) {
      if (isFoldableViewOp(op))
        views.push_back(op);
    });
  int64_t viewsBefore = views.size();
  int64_t memrefViewsBefore =
      llvm::count_if(views, [](Operation *op) { return !isa<ViewOp>(op); });
  if (views.empty())
    return false;

  RewritePatternSet patterns(func.getContext());
  populateViewFoldingPatterns(patterns);
  // The multi-op driver pops its worklist from the back: hand it the views
  // in reverse program order so that sources are rewritten before their
  // users (one visit per view in the common case). Dead views are erased.
  std::reverse(views.begin(), views.end());
  RewriterBase::Listener none;
  ViewTracker tracker(listener ? listener : &none);
  GreedyRewriteConfig config;
  config.setRegionSimplificationLevel(GreedySimplifyRegionLevel::Disabled)
      .setStrictness(GreedyRewriteStrictness::ExistingAndNewOps)
      .setListener(&tracker);
  SmallVector<Operation *> initial = views;
  if (failed(applyOpPatternsGreedily(views, std::move(patterns), config))) {
    mlir::emitError(func.getLoc(), "mplan-fold-views did not converge");
    return failure();
  }

  // A view folded in place into a view of the root (view of view) leaves
  // its old source without users, which the driver does not revisit: erase
  // the dead views (and the views that die with them), then count what is
  // left. The views are the ones found and the ones the driver inserted,
  // less those it erased.
  SmallVector<Operation *> candidates;
  llvm::DenseSet<Operation *> alive;
  for (Operation *op : llvm::concat<Operation *>(initial, tracker.inserted))
    if (!tracker.erased.contains(op) && isFoldableViewOp(op) &&
        alive.insert(op).second)
      candidates.push_back(op);
  SmallVector<Operation *> dead(candidates);
  while (!dead.empty()) {
    Operation *op = dead.pop_back_val();
    if (!alive.contains(op) || !isOpTriviallyDead(op))
      continue;
    Operation *source = op->getOperand(0).getDefiningOp();
    if (listener)
      listener->notifyOperationErased(op);
    alive.erase(op);
    op->erase();
    if (source && alive.contains(source))
      dead.push_back(source);
  }
  int64_t viewsAfter = 0, memrefViewsAfter = 0;
  for (Operation *op : candidates) {
    if (!alive.contains(op))
      continue;
    ++viewsAfter;
    if (!isa<ViewOp>(op))
      ++memrefViewsAfter;
  }
  addToCounterAttr(func, "mplan.views_removed", viewsBefore - viewsAfter);
  addToCounterAttr(func, "mplan.views_canonicalized",
                   memrefViewsBefore - memrefViewsAfter);
  return true;
}

namespace {
struct MPlanFoldViewsPass
    : public mlir::mplan::impl::MPlanFoldViewsBase<MPlanFoldViewsPass> {
  using Base::Base;

  void runOnOperation() override {
    func::FuncOp func = getOperation();
    if (func.isExternal())
      return;
    FailureOr<bool> changed = foldViewsInFunction(func);
    if (failed(changed))
      return signalPassFailure();
    if (!*changed)
      markAllAnalysesPreserved();
  }
};
} // namespace
