//===- CaptureBuffers.cpp - memref.alloc to mplan.alloc_tensor ------------===//
//
// Every statically shaped memref.alloc the analysis can bound becomes an
// unplanned mplan.alloc_tensor. Its deallocations disappear with it: a
// memref.dealloc (also the lowered `scf.if %owned { memref.dealloc }` form and
// the extract_strided_metadata feeding it) is erased, and a
// bufferization.dealloc loses the buffer and its condition, keeping the
// others.
//
//===----------------------------------------------------------------------===//

#include "mplan/Analysis/BufferLiveness.h"
#include "mplan/Dialect/MPlan/IR/MPlanOps.h"
#include "mplan/Transforms/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Bufferization/IR/Bufferization.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/Builders.h"
#include "llvm/ADT/SetVector.h"

namespace mlir {
namespace mplan {
#define GEN_PASS_DEF_MPLANCAPTUREBUFFERS
#include "mplan/Transforms/Passes.h.inc"
} // namespace mplan
} // namespace mlir

using namespace mlir;
using namespace mlir::mplan;

/// The discardable attribute that records why a buffer was left unplanned.
static constexpr llvm::StringLiteral kUnplannedAttr = "mplan.unplanned";

/// Why `alloc` cannot become an mplan.alloc_tensor, or std::nullopt.
static std::optional<std::string>
getUnplannableReason(memref::AllocOp alloc, const BufferLiveness &liveness) {
  MemRefType type = alloc.getType();
  if (!type.hasStaticShape())
    return std::string("dynamic shape");
  if (!type.getLayout().isIdentity())
    return std::string("non-identity layout");
  if (failed(getMemRefByteSize(type)))
    return std::string("element type without a fixed byte size");
  if (!alloc.getSymbolOperands().empty())
    return std::string("symbol operands");
  if (std::optional<uint64_t> alignment = alloc.getAlignment())
    if (*alignment == 0 || !llvm::isPowerOf2_64(*alignment))
      return std::string("alignment is not a power of two");
  return liveness.getUnplannableReason(alloc.getResult());
}

/// Erases the deallocations of a captured buffer. `deallocUses` are the uses
/// BufferLiveness::isDeallocUse accepted on the buffer's aliases.
static void eraseDeallocs(ArrayRef<OpOperand *> deallocUses,
                          BufferLiveness &liveness) {
  llvm::SetVector<Operation *> toErase;
  llvm::MapVector<bufferization::DeallocOp, SmallVector<unsigned>> shrink;
  SmallVector<OpOperand *> worklist(deallocUses.begin(), deallocUses.end());
  while (!worklist.empty()) {
    OpOperand *use = worklist.pop_back_val();
    Operation *user = use->getOwner();
    if (isa<memref::DeallocOp>(user)) {
      toErase.insert(user);
    } else if (auto dealloc = dyn_cast<bufferization::DeallocOp>(user)) {
      shrink[dealloc].push_back(use->getOperandNumber() -
                                dealloc.getMemrefs().getBeginOperandIndex());
    } else if (auto metadata =
                   dyn_cast<memref::ExtractStridedMetadataOp>(user)) {
      for (OpOperand &baseUse : metadata.getBaseBuffer().getUses())
        worklist.push_back(&baseUse);
      toErase.insert(user);
    }
  }
  for (auto &[dealloc, positions] : shrink) {
    llvm::sort(positions);
    positions.erase(llvm::unique(positions), positions.end());
    for (unsigned position : llvm::reverse(positions)) {
      dealloc.getMemrefsMutable().erase(position);
      dealloc.getConditionsMutable().erase(position);
    }
    if (dealloc.getMemrefs().empty()) {
      // Nothing left to free: no retained value can be owned through it.
      OpBuilder builder(dealloc);
      Value owned = arith::ConstantOp::create(builder, dealloc.getLoc(),
                                              builder.getBoolAttr(false));
      for (Value result : dealloc->getResults())
        result.replaceAllUsesWith(owned);
      toErase.insert(dealloc);
    }
  }
  // Users before producers: deallocs before the metadata ops feeding them.
  SmallVector<Operation *> ordered;
  for (Operation *op : toErase)
    if (!isa<memref::ExtractStridedMetadataOp>(op))
      ordered.push_back(op);
  for (Operation *op : toErase)
    if (isa<memref::ExtractStridedMetadataOp>(op))
      ordered.push_back(op);
  for (Operation *op : ordered) {
    if (!op->use_empty())
      continue;
    Operation *parent = op->getParentOp();
    liveness.notifyOpErased(op);
    op->erase();
    // The lowered form `scf.if %owned { memref.dealloc %m }` is now empty.
    if (auto ifOp = dyn_cast_if_present<scf::IfOp>(parent))
      if (ifOp->getNumResults() == 0 && ifOp.getElseRegion().empty() &&
          ifOp.thenBlock()->getOperations().size() == 1) {
        liveness.notifyOpErased(ifOp);
        ifOp->erase();
      }
  }
}

bool mlir::mplan::captureBuffersInFunction(func::FuncOp func,
                                           BufferLiveness &liveness,
                                           bool emitRemarks) {
  int64_t nextId = 0;
  SmallVector<memref::AllocOp> allocs;
  func.walk([&](Operation *op) {
    if (auto alloc = dyn_cast<memref::AllocOp>(op))
      allocs.push_back(alloc);
    else if (auto tensor = dyn_cast<AllocTensorOp>(op))
      nextId = std::max<int64_t>(nextId, tensor.getId() + 1);
  });

  // Decide everything before changing the IR.
  SmallVector<std::optional<std::string>> reasons;
  reasons.reserve(allocs.size());
  for (memref::AllocOp alloc : allocs)
    reasons.push_back(getUnplannableReason(alloc, liveness));

  OpBuilder builder(func.getContext());
  bool changed = false;
  for (auto [alloc, reason] : llvm::zip_equal(allocs, reasons)) {
    if (reason) {
      alloc->setAttr(kUnplannedAttr, builder.getStringAttr(*reason));
      if (emitRemarks)
        alloc.emitRemark("buffer left unplanned: ") << *reason;
      continue;
    }
    // The slab's release replaces every dealloc of the buffer.
    SmallVector<OpOperand *> deallocUses;
    for (Value alias : liveness.getAliases(alloc.getResult()))
      for (OpOperand &use : alias.getUses())
        if (BufferLiveness::isDeallocUse(use))
          deallocUses.push_back(&use);
    eraseDeallocs(deallocUses, liveness);

    builder.setInsertionPoint(alloc);
    std::optional<uint64_t> alignment = alloc.getAlignment();
    auto tensor = AllocTensorOp::create(
        builder, alloc.getLoc(), alloc.getType(),
        builder.getI64IntegerAttr(nextId++), /*start=*/nullptr,
        /*end=*/nullptr, /*slab=*/Value(), /*offset=*/nullptr,
        alignment ? builder.getI64IntegerAttr(*alignment) : nullptr);
    // Same position, same uses: the tensor takes over the alloc's aliases,
    // range and reason in place (no re-analysis).
    alloc.replaceAllUsesWith(tensor.getResult());
    liveness.notifyRootReplaced(alloc.getResult(), tensor.getResult());
    liveness.notifyOpErased(alloc);
    alloc.erase();
    changed = true;
  }
  return changed;
}

namespace {
struct MPlanCaptureBuffersPass
    : public mlir::mplan::impl::MPlanCaptureBuffersBase<
          MPlanCaptureBuffersPass> {
  using Base::Base;

  void runOnOperation() override {
    func::FuncOp func = getOperation();
    if (func.isExternal())
      return;
    bool changed = captureBuffersInFunction(func, getAnalysis<BufferLiveness>(),
                                            emitRemarks);
    if (foldViews) {
      // The analysis is not updated by the view folding: drop it then.
      FailureOr<bool> folded = foldViewsInFunction(func);
      if (failed(folded))
        return signalPassFailure();
      if (*folded)
        return;
    }
    if (!changed)
      markAllAnalysesPreserved();
    else
      markAnalysesPreserved<BufferLiveness>();
  }
};
} // namespace
