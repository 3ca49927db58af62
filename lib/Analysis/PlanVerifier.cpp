//===- PlanVerifier.cpp - Check a plan against fresh live ranges ----------===//

#include "mplan/Analysis/PlanVerifier.h"
#include "mplan/Analysis/BufferLiveness.h"
#include "mplan/Analysis/OpKindCache.h"
#include "mplan/Dialect/MPlan/IR/MPlanOps.h"

#include "mlir/IR/Dominance.h"
#include "llvm/ADT/BitVector.h"
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

/// Checks the symbolic plan of the run-time sized buffers `ops` of one slab
/// (statically placed buffers stay below the slab's static size, run-time
/// sized ones above it, so only pairs of the latter can conflict): every size
/// is computed before the slab is allocated, `above` names buffers of the
/// slab and is acyclic, and two buffers live at the same time are ordered by
/// it, directly or through others (then the later one's offset is at least
/// the earlier one's end at any sizes). O(n (n + e)) for n buffers and e
/// entries of `above`.
static LogicalResult verifyDynamicSlab(Value slab,
                                       MutableArrayRef<AllocDynamicOp> ops,
                                       const BufferLiveness &liveness) {
  Operation *slabOp = slab.getDefiningOp();
  DominanceInfo dominance(liveness.getFunction());
  llvm::DenseMap<int64_t, unsigned> byId;
  for (auto [index, op] : llvm::enumerate(ops)) {
    if (!byId.try_emplace(op.getId(), index).second)
      return op.emitOpError("has the id ")
             << op.getId() << " of another run-time sized buffer of its slab";
    for (Value size : op.getSizes())
      if (!slabOp || !dominance.properlyDominates(size, slabOp)) {
        InFlightDiagnostic diag =
            op.emitOpError("has a size that is not computed before its slab "
                           "is allocated");
        if (slabOp)
          diag.attachNote(slabOp->getLoc()) << "the slab is allocated here";
        return diag;
      }
  }
  // Successors: the buffers each one is placed above.
  SmallVector<SmallVector<unsigned>> below(ops.size());
  for (auto [index, op] : llvm::enumerate(ops))
    for (int64_t id : op.getAboveAttr().asArrayRef()) {
      auto it = byId.find(id);
      if (it == byId.end())
        return op.emitOpError("is placed above id ")
               << id << ", which is no run-time sized buffer of its slab";
      below[index].push_back(it->second);
    }
  // Reachability from every buffer (also detects cycles: a buffer that
  // reaches itself).
  SmallVector<LiveRange> live;
  for (AllocDynamicOp op : ops)
    live.push_back(liveness.getLiveRange(op.getResult()));
  SmallVector<llvm::BitVector> reaches(ops.size(), llvm::BitVector(ops.size()));
  for (unsigned from = 0; from < ops.size(); ++from) {
    SmallVector<unsigned> stack(below[from]);
    while (!stack.empty()) {
      unsigned next = stack.pop_back_val();
      if (reaches[from].test(next))
        continue;
      reaches[from].set(next);
      llvm::append_range(stack, below[next]);
    }
    if (reaches[from].test(from))
      return ops[from].emitOpError("is placed above itself through 'above'");
  }
  for (unsigned a = 0; a < ops.size(); ++a)
    for (unsigned b = a + 1; b < ops.size(); ++b) {
      if (!live[a].overlaps(live[b]) || reaches[a].test(b) ||
          reaches[b].test(a))
        continue;
      InFlightDiagnostic diag =
          ops[b].emitOpError("may share bytes with buffer ")
          << ops[a].getId() << " while both are live (live [" << live[b].start
          << ", " << live[b].end << ") vs [" << live[a].start << ", "
          << live[a].end << ")): neither is placed above the other";
      diag.attachNote(ops[a].getLoc()) << "the other buffer is here";
      return diag;
    }
  return success();
}

/// A planned buffer's bytes belong to its slab, which the slab's release
/// frees, and the plan holds only for the uses the IR shows. Fails, at `op`,
/// if a value that may alias the buffer (BufferLiveness's aliases) is
/// deallocated, or has a use that would keep capture from planning it
/// (BufferLiveness::getCaptureReason: returned, freed or reallocated, passed
/// to a call that `mplan.nocapture` does not list, stored, converted to a
/// tensor or an address, used by a region that may run later, ...): the
/// verifier asks what the planner asks, of this function alone.
/// (mplan-instrument, which takes addresses, only runs once
/// convert-mplan-to-memref has left no planned op.)
static LogicalResult verifyStaysInSlab(Operation *op, Operation *funcOp,
                                       const BufferLiveness &liveness,
                                       OpKindCache &kinds) {
  Value buffer = op->getResult(0);
  if (liveness.mayBeDeallocated(buffer))
    return op->emitOpError("is deallocated, but its bytes are its slab's "
                           "(the slab's release frees them)");
  for (Value alias : liveness.getAliases(buffer))
    for (OpOperand &use : alias.getUses())
      if (std::optional<std::string> reason =
              BufferLiveness::getCaptureReason(use, funcOp, &kinds)) {
        InFlightDiagnostic diag = op->emitOpError("is planned, but ")
                                  << *reason;
        diag.attachNote(use.getOwner()->getLoc()) << "the use is here";
        // A call the mark does not list (not one that runs later, or a
        // marked call in such a region).
        if (StringRef(*reason).starts_with(BufferLiveness::kPassedToCallReason))
          diag.attachNote(use.getOwner()->getLoc())
              << "a call may use a planned buffer only if its '"
              << BufferLiveness::kNoCaptureAttr
              << "' lists the operand (mplan-mark-calls sets it)";
        return diag;
      }
  return success();
}

LogicalResult mlir::mplan::verifyPlan(Operation *funcOp,
                                      const BufferLiveness &liveness) {
  llvm::MapVector<Value, SmallVector<AllocTensorOp>> bySlab;
  llvm::MapVector<Value, SmallVector<AllocDynamicOp>> dynamicBySlab;
  funcOp->walk([&](Operation *op) {
    if (auto tensor = dyn_cast<AllocTensorOp>(op); tensor && tensor.isPlanned())
      bySlab[tensor.getSlab()].push_back(tensor);
    if (auto dynamic = dyn_cast<AllocDynamicOp>(op);
        dynamic && dynamic.isPlanned())
      dynamicBySlab[dynamic.getSlab()].push_back(dynamic);
  });
  OpKindCache kinds;
  // A planned buffer's bytes are its slab's: nothing else may free them or
  // keep them past the function.
  for (auto &[slab, ops] : bySlab)
    for (AllocTensorOp op : ops)
      if (failed(verifyStaysInSlab(op, funcOp, liveness, kinds)))
        return failure();
  for (auto &[slab, ops] : dynamicBySlab)
    for (AllocDynamicOp op : ops)
      if (failed(verifyStaysInSlab(op, funcOp, liveness, kinds)))
        return failure();
  for (auto &[slab, ops] : bySlab)
    if (failed(verifySlab(ops, liveness)))
      return failure();
  for (auto &[slab, ops] : dynamicBySlab)
    if (failed(verifyDynamicSlab(slab, ops, liveness)))
      return failure();
  return success();
}

LogicalResult mlir::mplan::verifyPlan(Operation *funcOp) {
  bool planned = false;
  funcOp->walk([&](Operation *op) {
    if (auto tensor = dyn_cast<AllocTensorOp>(op))
      planned = tensor.isPlanned();
    else if (auto dynamic = dyn_cast<AllocDynamicOp>(op))
      planned = dynamic.isPlanned();
    return planned ? WalkResult::interrupt() : WalkResult::advance();
  });
  if (!planned)
    return success();
  // Always recomputed from the IR as it is now (never a cached analysis):
  // the point is to catch passes that moved ops after planning.
  BufferLiveness liveness(funcOp);
  return verifyPlan(funcOp, liveness);
}
