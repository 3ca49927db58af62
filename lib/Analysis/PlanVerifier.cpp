//===- PlanVerifier.cpp - Check a plan against fresh live ranges ----------===//

#include "mplan/Analysis/PlanVerifier.h"
#include "mplan/Analysis/BufferLiveness.h"
#include "mplan/Dialect/MPlan/IR/MPlanOps.h"

#include "llvm/ADT/MapVector.h"

#include <functional>
#include <queue>
#include <set>

using namespace mlir;
using namespace mlir::mplan;

namespace {
/// A planned buffer of one slab, as the sweep sees it.
struct Placed {
  AllocTensorOp op;
  size_t order; ///< program order, among the slab's buffers
  LiveRange live;
  int64_t offset;
  int64_t size;
  int64_t end() const { return offset + size; }
};
} // namespace

static LogicalResult reportConflict(Placed later, Placed earlier) {
  InFlightDiagnostic diag =
      later.op.emitOpError("shares bytes with buffer ")
      << earlier.op.getId() << " while both are live: bytes [" << later.offset
      << ", " << later.end() << ") live [" << later.live.start << ", "
      << later.live.end << ") vs bytes [" << earlier.offset << ", "
      << earlier.end() << ") live [" << earlier.live.start << ", "
      << earlier.live.end << ")";
  diag.attachNote(earlier.op.getLoc()) << "the other buffer is here";
  return failure();
}

/// Sweeps the buffers of one slab in order of their start, keeping the live
/// ones ordered by offset. As long as no conflict has been found the live
/// buffers are pairwise disjoint, so a starting buffer overlaps one of them
/// iff it overlaps its neighbour on either side in offset order.
static LogicalResult verifySlab(ArrayRef<AllocTensorOp> ops,
                                const BufferLiveness &liveness) {
  SmallVector<Placed> buffers;
  for (AllocTensorOp op : ops) {
    FailureOr<int64_t> size = op.getByteSize(); // the op verifier checked it
    LiveRange live = liveness.getLiveRange(op.getResult());
    if (failed(size) || *size == 0 || live.end <= live.start)
      continue;
    buffers.push_back({op, buffers.size(), live, *op.getOffset(), *size});
  }
  // Program order breaks ties, so the later of two buffers starting at the
  // same index is the one reported.
  llvm::sort(buffers, [](const Placed &a, const Placed &b) {
    return std::make_pair(a.live.start, a.order) <
           std::make_pair(b.live.start, b.order);
  });

  using Entry = std::pair<int64_t, size_t>; // (offset or end, buffer index)
  std::set<Entry> byOffset;
  std::priority_queue<Entry, std::vector<Entry>, std::greater<Entry>> byEnd;
  for (size_t i = 0; i < buffers.size(); ++i) {
    const Placed &buffer = buffers[i];
    while (!byEnd.empty() && byEnd.top().first <= buffer.live.start) {
      size_t done = byEnd.top().second;
      byOffset.erase({buffers[done].offset, done});
      byEnd.pop();
    }
    auto next = byOffset.lower_bound({buffer.offset, i});
    if (next != byOffset.end() && buffers[next->second].offset < buffer.end())
      return reportConflict(buffer, buffers[next->second]);
    if (next != byOffset.begin()) {
      const Placed &prev = buffers[std::prev(next)->second];
      if (prev.end() > buffer.offset)
        return reportConflict(buffer, prev);
    }
    byOffset.insert(next, {buffer.offset, i});
    byEnd.push({buffer.live.end, i});
  }
  return success();
}

LogicalResult mlir::mplan::verifyPlan(Operation *funcOp,
                                      const BufferLiveness &liveness) {
  llvm::MapVector<Value, SmallVector<AllocTensorOp>> bySlab;
  funcOp->walk([&](AllocTensorOp op) {
    if (op.isPlanned())
      bySlab[op.getSlab()].push_back(op);
  });
  for (auto &[slab, ops] : bySlab)
    if (failed(verifySlab(ops, liveness)))
      return failure();
  return success();
}

LogicalResult mlir::mplan::verifyPlan(Operation *funcOp) {
  bool planned = false;
  funcOp->walk([&](AllocTensorOp op) {
    planned = op.isPlanned();
    return planned ? WalkResult::interrupt() : WalkResult::advance();
  });
  if (!planned)
    return success();
  // Always recomputed from the IR as it is now (never a cached analysis):
  // the point is to catch passes that moved ops after planning.
  BufferLiveness liveness(funcOp);
  return verifyPlan(funcOp, liveness);
}
