//===- PlanAnalyses.cpp - The analyses mplan-plan keeps per function ------===//

#include "mplan/Analysis/PlanAnalyses.h"

#include "mlir/IR/Threading.h"

using namespace mlir;
using namespace mlir::mplan;

/// Below this many ops in its body's blocks (nested ops not counted), a
/// function's analyses take less time than handing one to another thread.
static constexpr size_t kParallelMinOps = 4096;

/// Whether the blocks of `region` hold at least `count` ops (counted up to
/// there).
static bool hasAtLeastOps(Region &region, size_t count) {
  size_t seen = 0;
  for (Block &block : region)
    for (Operation &op : block) {
      (void)op;
      if (++seen >= count)
        return true;
    }
  return false;
}

void PlanAnalyses::buildBoth() {
  auto build = [&](size_t task) {
    if (task == 0)
      (void)getLiveness();
    else
      (void)getPointsTo();
  };
  if (!hasAtLeastOps(funcOp->getRegion(0), kParallelMinOps)) {
    build(0);
    build(1);
    return;
  }
  // Each task builds one analysis from the IR, which neither changes; the
  // context runs them one after the other when it has no threads.
  parallelFor(funcOp->getContext(), 0, 2, build);
}
