//===- TestBufferLiveness.cpp - Test passes for the buffer analysis -------===//

#include "mplan/Analysis/BufferLiveness.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/IR/Builders.h"
#include "mlir/Pass/Pass.h"
#include "mlir/Pass/PassRegistry.h"

using namespace mlir;
using namespace mlir::mplan;

namespace {
/// Annotates every root with `mplan.live = array<i64: start, end>` or
/// `mplan.unmanaged = "reason"`, and every op carrying `test.index` with its
/// index and subtree end.
struct TestBufferLivenessPass
    : public PassWrapper<TestBufferLivenessPass, OperationPass<func::FuncOp>> {
  MLIR_DEFINE_EXPLICIT_INTERNAL_INLINE_TYPE_ID(TestBufferLivenessPass)
  StringRef getArgument() const final { return "test-mplan-liveness"; }
  StringRef getDescription() const final {
    return "Print mplan buffer live ranges and reasons as attributes";
  }
  void runOnOperation() override {
    func::FuncOp func = getOperation();
    if (func.isExternal())
      return;
    const BufferLiveness &liveness = getAnalysis<BufferLiveness>();
    Builder builder(func.getContext());
    for (Value root : liveness.getRoots()) {
      Operation *def = root.getDefiningOp();
      if (std::optional<std::string> reason =
              liveness.getUnplannableReason(root)) {
        def->setAttr("mplan.unmanaged", builder.getStringAttr(*reason));
        continue;
      }
      LiveRange range = liveness.getLiveRange(root);
      def->setAttr("mplan.live",
                   builder.getDenseI64ArrayAttr({range.start, range.end}));
    }
    func.walk([&](Operation *op) {
      if (op->hasAttr("test.index"))
        op->setAttr("test.index",
                    builder.getDenseI64ArrayAttr(
                        {liveness.getIndex(op), liveness.getSubtreeEnd(op)}));
    });
    markAllAnalysesPreserved();
  }
};

/// Moves every op carrying `test.sink` to just before its block's terminator,
/// as a scheduling pass might after planning.
struct TestSinkOpsPass
    : public PassWrapper<TestSinkOpsPass, OperationPass<func::FuncOp>> {
  MLIR_DEFINE_EXPLICIT_INTERNAL_INLINE_TYPE_ID(TestSinkOpsPass)
  StringRef getArgument() const final { return "test-mplan-sink-ops"; }
  StringRef getDescription() const final {
    return "Move ops marked test.sink before their block's terminator";
  }
  void runOnOperation() override {
    SmallVector<Operation *> toMove;
    getOperation().walk([&](Operation *op) {
      if (op->hasAttr("test.sink"))
        toMove.push_back(op);
    });
    for (Operation *op : toMove) {
      op->removeAttr("test.sink");
      op->moveBefore(op->getBlock()->getTerminator());
    }
  }
};

/// Elides `memref.copy %src, %dst` ops marked `test.elide` where %dst is a
/// root allocation used by nothing before the copy: %dst is replaced by %src,
/// keeping the analysis up to date with the in-place update API only. Then
/// compares every root's updated range with a fresh analysis and annotates
/// roots with `mplan.live` (updated) and, if it differs, `mplan.fresh`; an
/// updated range that does not contain the fresh one is an error.
struct TestBufferLivenessUpdatesPass
    : public PassWrapper<TestBufferLivenessUpdatesPass,
                         OperationPass<func::FuncOp>> {
  MLIR_DEFINE_EXPLICIT_INTERNAL_INLINE_TYPE_ID(TestBufferLivenessUpdatesPass)
  StringRef getArgument() const final { return "test-mplan-liveness-updates"; }
  StringRef getDescription() const final {
    return "Elide marked copies through the in-place update API and compare "
           "with a fresh analysis";
  }
  void runOnOperation() override {
    func::FuncOp func = getOperation();
    if (func.isExternal())
      return;
    BufferLiveness liveness(func);
    SmallVector<memref::CopyOp> copies;
    func.walk([&](memref::CopyOp copy) {
      if (copy->hasAttr("test.elide"))
        copies.push_back(copy);
    });
    for (memref::CopyOp copy : copies) {
      Value src = copy.getSource(), dst = copy.getTarget();
      Operation *dstDef = dst.getDefiningOp();
      if (!liveness.isRoot(dst) || !dstDef) {
        copy.emitOpError("test.elide: target is not a root allocation");
        return signalPassFailure();
      }
      liveness.notifyReplaced(dst, src);
      liveness.notifyOpErased(copy);
      copy.erase();
      dst.replaceAllUsesWith(src);
      liveness.notifyOpErased(dstDef);
      dstDef->erase();
    }
    BufferLiveness fresh(func);
    Builder builder(func.getContext());
    for (Value root : liveness.getRoots()) {
      LiveRange updated = liveness.getLiveRange(root);
      LiveRange exact = fresh.getLiveRange(root);
      Operation *def = root.getDefiningOp();
      def->setAttr("mplan.live",
                   builder.getDenseI64ArrayAttr({updated.start, updated.end}));
      if (!(updated == exact))
        def->setAttr("mplan.fresh",
                     builder.getDenseI64ArrayAttr({exact.start, exact.end}));
      if (updated.start > exact.start || updated.end < exact.end) {
        def->emitOpError("updated live range [")
            << updated.start << ", " << updated.end
            << ") does not contain the fresh one [" << exact.start << ", "
            << exact.end << ")";
        return signalPassFailure();
      }
      if (liveness.getAliases(root).size() < fresh.getAliases(root).size()) {
        def->emitOpError("updated alias set misses aliases");
        return signalPassFailure();
      }
    }
  }
};
} // namespace

namespace mlir {
namespace mplan {
void registerTestPasses() {
  PassRegistration<TestBufferLivenessPass>();
  PassRegistration<TestSinkOpsPass>();
  PassRegistration<TestBufferLivenessUpdatesPass>();
}
} // namespace mplan
} // namespace mlir
