//===- VerifyPlan.cpp - Check planned buffers against fresh live ranges ---===//

#include "mplan/Analysis/BufferLiveness.h"
#include "mplan/Dialect/MPlan/IR/MPlanOps.h"
#include "mplan/Support/Planner.h"
#include "mplan/Transforms/Passes.h"

#include "llvm/ADT/MapVector.h"

namespace mlir {
namespace mplan {
#define GEN_PASS_DEF_MPLANVERIFYPLAN
#include "mplan/Transforms/Passes.h.inc"
} // namespace mplan
} // namespace mlir

using namespace mlir;
using namespace mlir::mplan;

namespace {
struct MPlanVerifyPlanPass
    : public mlir::mplan::impl::MPlanVerifyPlanBase<MPlanVerifyPlanPass> {
  void runOnOperation() override {
    func::FuncOp func = getOperation();
    if (func.isExternal())
      return;
    // Always recomputed from the IR as it is now (never a cached analysis):
    // the point is to catch passes that moved ops after planning.
    BufferLiveness liveness(func);
    llvm::MapVector<Value, SmallVector<AllocTensorOp>> bySlab;
    func.walk([&](AllocTensorOp op) {
      if (op.isPlanned())
        bySlab[op.getSlab()].push_back(op);
    });
    for (auto &[slab, ops] : bySlab)
      if (failed(verifySlab(cast<SlabType>(slab.getType()), ops, liveness)))
        return signalPassFailure();
    markAllAnalysesPreserved();
  }

  LogicalResult verifySlab(SlabType slabType,
                           MutableArrayRef<AllocTensorOp> ops,
                           const BufferLiveness &liveness) {
    std::vector<::mplan::Buffer> buffers;
    std::vector<int64_t> offsets;
    SmallVector<LiveRange> ranges;
    for (AllocTensorOp op : ops) {
      LiveRange range = liveness.getLiveRange(op.getResult());
      ranges.push_back(range);
      buffers.push_back({static_cast<int64_t>(buffers.size()), range.start,
                         range.end, *op.getByteSize(),
                         op.getAlignment().value_or(1)});
      offsets.push_back(*op.getOffset());
    }
    if (!::mplan::validatePlan(buffers, offsets, slabType.getSize()))
      return success();
    // Locate one conflicting pair for the diagnostic (only on failure).
    for (size_t i = 0; i < ops.size(); ++i)
      for (size_t j = i + 1; j < ops.size(); ++j) {
        if (!ranges[i].overlaps(ranges[j]) || buffers[i].size == 0 ||
            buffers[j].size == 0)
          continue;
        if (offsets[i] < offsets[j] + buffers[j].size &&
            offsets[j] < offsets[i] + buffers[i].size) {
          InFlightDiagnostic diag =
              ops[j].emitOpError("shares bytes with buffer ")
              << ops[i].getId() << " while both are live: bytes [" << offsets[j]
              << ", " << offsets[j] + buffers[j].size << ") live ["
              << ranges[j].start << ", " << ranges[j].end << ") vs bytes ["
              << offsets[i] << ", " << offsets[i] + buffers[i].size
              << ") live [" << ranges[i].start << ", " << ranges[i].end << ")";
          diag.attachNote(ops[i].getLoc()) << "the other buffer is here";
          return failure();
        }
      }
    return ops.front().emitOpError("plan of this slab is invalid");
  }
};
} // namespace
