//===- PlanAnalyses.cpp - The analyses mplan-plan keeps per function ------===//

#include "mplan/Analysis/PlanAnalyses.h"

#include "mlir/IR/Threading.h"

using namespace mlir;
using namespace mlir::mplan;

/// Below this many ops in its body's blocks (nested ops not counted), a
/// function's analyses take less time than handing one to another thread.
static constexpr size_t kParallelMinOps = 4096;

bool mlir::mplan::hasAtLeastBodyOps(Operation *funcOp, size_t count) {
  size_t seen = 0;
  for (Block &block : funcOp->getRegion(0))
    for (Operation &op : block) {
      (void)op;
      if (++seen >= count)
        return true;
    }
  return count == 0;
}

bool PlanAnalyses::buildBoth(function_ref<void(Operation *)> visit) {
  bool visited = !pointsTo;
  auto build = [&](size_t task) {
    if (task == 0)
      (void)getLiveness();
    else if (!pointsTo)
      pointsTo.emplace(funcOp, visit);
  };
  if (!hasAtLeastBodyOps(funcOp, kParallelMinOps)) {
    build(0);
    build(1);
    return visited;
  }
  // Each task builds one analysis from the IR, which neither changes; the
  // context runs them one after the other when it has no threads.
  parallelFor(funcOp->getContext(), 0, 2, build);
  return visited;
}
