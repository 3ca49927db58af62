//===- FoldViews.cpp - View chains on planner buffers to mplan.view -------===//

#include "mplan/Dialect/MPlan/IR/MPlanOps.h"
#include "mplan/Transforms/Passes.h"

#include "mlir/IR/Builders.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

#include <algorithm>

namespace mlir {
namespace mplan {
#define GEN_PASS_DEF_MPLANFOLDVIEWS
#include "mplan/Transforms/Passes.h.inc"
} // namespace mplan
} // namespace mlir

using namespace mlir;
using namespace mlir::mplan;

/// The view ops this pass canonicalizes or removes.
static bool isViewOp(Operation *op) {
  return isa<ViewOp, memref::SubViewOp, memref::ExpandShapeOp,
             memref::CollapseShapeOp, memref::ReinterpretCastOp, memref::CastOp,
             memref::ViewOp>(op);
}

FailureOr<bool>
mlir::mplan::foldViewsInFunction(func::FuncOp func,
                                 RewriterBase::Listener *listener) {
  // One walk collects the views (and counts them); only they, and the
  // mplan.views the patterns create, are ever visited by the driver. No
  // other op of the function is folded, simplified or erased.
  int64_t viewsBefore = 0, memrefViewsBefore = 0;
  SmallVector<Operation *> views;
  func.walk([&](Operation *op) {
    if (!isViewOp(op))
      return;
    views.push_back(op);
    ++viewsBefore;
    if (!isa<ViewOp>(op))
      ++memrefViewsBefore;
  });
  if (views.empty())
    return false;

  RewritePatternSet patterns(func.getContext());
  populateViewFoldingPatterns(patterns);
  // The multi-op driver pops its worklist from the back: hand it the views
  // in reverse program order so that sources are rewritten before their
  // users (one visit per view in the common case). Dead views are erased.
  std::reverse(views.begin(), views.end());
  GreedyRewriteConfig config;
  config.setRegionSimplificationLevel(GreedySimplifyRegionLevel::Disabled)
      .setStrictness(GreedyRewriteStrictness::ExistingAndNewOps)
      .setListener(listener);
  if (failed(applyOpPatternsGreedily(views, std::move(patterns), config))) {
    mlir::emitError(func.getLoc(), "mplan-fold-views did not converge");
    return failure();
  }

  // A view folded in place into a view of the root (view of view) leaves
  // its old source without users, which the driver does not revisit:
  // sweep the dead views, users before sources, and count what is left.
  int64_t viewsAfter = 0, memrefViewsAfter = 0;
  views.clear();
  func.walk([&](Operation *op) {
    if (isViewOp(op))
      views.push_back(op);
  });
  for (Operation *op : llvm::reverse(views)) {
    if (isOpTriviallyDead(op)) {
      if (listener)
        listener->notifyOperationErased(op);
      op->erase();
      continue;
    }
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
