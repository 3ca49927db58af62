//===- CaptureBuffers.cpp - memref.alloc to mplan.alloc_tensor ------------===//

#include "mplan/Analysis/BufferLiveness.h"
#include "mplan/Dialect/MPlan/IR/MPlanOps.h"
#include "mplan/Transforms/Passes.h"

#include "mlir/Dialect/Bufferization/IR/Bufferization.h"
#include "mlir/IR/Builders.h"

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
  SmallVector<Value> aliases;
  liveness.getAliases(alloc.getResult(), aliases);
  for (Value alias : aliases)
    for (Operation *user : alias.getUsers())
      if (isa<bufferization::DeallocOp>(user))
        return std::string("released by bufferization.dealloc");
  return liveness.getUnplannableReason(alloc.getResult());
}

namespace {
struct MPlanCaptureBuffersPass
    : public mlir::mplan::impl::MPlanCaptureBuffersBase<MPlanCaptureBuffersPass> {
  using Base::Base;

  void runOnOperation() override {
    func::FuncOp func = getOperation();
    if (func.isExternal())
      return;
    const BufferLiveness &liveness = getAnalysis<BufferLiveness>();

    int64_t nextId = 0;
    SmallVector<memref::AllocOp> allocs;
    func.walk([&](Operation *op) {
      if (auto alloc = dyn_cast<memref::AllocOp>(op))
        allocs.push_back(alloc);
      else if (auto tensor = dyn_cast<AllocTensorOp>(op))
        nextId = std::max<int64_t>(nextId, tensor.getId() + 1);
    });

    OpBuilder builder(func.getContext());
    bool changed = false;
    for (memref::AllocOp alloc : allocs) {
      if (std::optional<std::string> reason =
              getUnplannableReason(alloc, liveness)) {
        alloc->setAttr(kUnplannedAttr, builder.getStringAttr(*reason));
        if (emitRemarks)
          alloc.emitRemark("buffer left unplanned: ") << *reason;
        continue;
      }
      // The slab's release replaces every dealloc of the buffer.
      SmallVector<Value> aliases;
      liveness.getAliases(alloc.getResult(), aliases);
      for (Value alias : aliases)
        for (Operation *user : llvm::make_early_inc_range(alias.getUsers()))
          if (isa<memref::DeallocOp>(user))
            user->erase();

      builder.setInsertionPoint(alloc);
      std::optional<uint64_t> alignment = alloc.getAlignment();
      auto tensor = AllocTensorOp::create(
          builder, alloc.getLoc(), alloc.getType(),
          builder.getI64IntegerAttr(nextId++), /*start=*/nullptr,
          /*end=*/nullptr, /*slab=*/Value(), /*offset=*/nullptr,
          alignment ? builder.getI64IntegerAttr(*alignment) : nullptr);
      alloc.replaceAllUsesWith(tensor.getResult());
      alloc.erase();
      changed = true;
    }
    if (!changed)
      markAllAnalysesPreserved();
  }
};
} // namespace
