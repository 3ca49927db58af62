//===- CaptureBuffers.cpp - memref.alloc to mplan.alloc_tensor ------------===//
//
// Branch results first: when every branch of an scf.if / scf.index_switch
// yields, at one result position, a buffer it allocates itself (the form
// One-Shot Bufferize gives a tensor scf.if: an allocation, possibly cast to
// the result type), and those allocations have one
// type, they become one allocation right before the op, which the branches
// write and yield. Only one branch runs per execution of the op, so one
// buffer serves them all, as each branch's own did: the branches share its
// bytes (the arena holds the largest branch, not all of them), and it is live
// from its first use in the branch that runs to the last use of the result.
// Branches whose yielded buffers differ in type, or that yield anything else,
// keep their allocations (left unplanned: "yielded out of the region ...").
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
#include "mplan/Analysis/EntryValues.h"
#include "mplan/Analysis/PlanAnalyses.h"
#include "mplan/Analysis/PointsTo.h"
#include "mplan/Analysis/UpperBounds.h"
#include "mplan/Dialect/MPlan/IR/MPlanOps.h"
#include "mplan/Support/CheckedMath.h"
#include "mplan/Transforms/OptionErrors.h"
#include "mplan/Transforms/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Bufferization/IR/Bufferization.h"
#include "mlir/Dialect/ControlFlow/IR/ControlFlowOps.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/Dominance.h"
#include "mlir/IR/SymbolTable.h"
#include "mlir/Interfaces/FunctionInterfaces.h"
#include "llvm/ADT/SetVector.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/raw_ostream.h"

namespace mlir {
namespace mplan {
#define GEN_PASS_DEF_MPLANCAPTUREBUFFERS
#include "mplan/Transforms/Passes.h.inc"
} // namespace mplan
} // namespace mlir

using namespace mlir;
using namespace mlir::mplan;

/// The discardable attribute that records why a buffer was left unplanned
/// (a string), or opts it out (a unit attribute).
static constexpr llvm::StringLiteral kUnplannedAttr =
    BufferLiveness::kUnplannedAttr;

/// How a dynamically shaped memref.alloc is captured: as an
/// mplan.alloc_tensor of `staticType` (every dynamic dimension at its upper
/// bound) viewed as the alloc's type.
struct UpperBoundShape {
  MemRefType staticType;
  /// Which bounds made the buffer plannable (the kBoundSourceAttr text).
  std::string source;
  /// Per dynamic dimension, its part of `source` ("dimension D <= N (...)").
  SmallVector<std::string> dimSources;
  /// Per dynamic dimension, whether its bound relies on a stated bound (a
  /// promise, checked with check-bounds) rather than on the IR alone.
  SmallVector<bool> dimStated;
};

/// What capture does with one memref.alloc: leave it (a reason) or capture it,
/// at its upper-bound shape if it is dynamically shaped.
struct CaptureDecision {
  std::optional<std::string> reason;
  std::optional<UpperBoundShape> bounded;
  /// Dynamically shaped without a usable bound (why: `unboundedReason`), but
  /// its sizes are computable where the function starts: captured as an
  /// mplan.alloc_dynamic, placed by a symbolic plan at run time.
  bool runtimeSized = false;
  std::string unboundedReason;
  /// The alignment the program assumes of the buffer (the largest
  /// memref.assume_alignment of a view starting a multiple of it into the
  /// buffer), at least the allocation's own.
  std::optional<uint64_t> alignment;
};

/// The largest buffer the planner places: 256 TiB, beyond any address space
/// in use, and far enough below 2^63 that alignment padding and the sums of
/// the planner's bound never overflow for any realistic number of buffers.
static constexpr int64_t kMaxPlannedBytes = int64_t(1) << 48;

/// The upper-bound shape of the dynamically shaped `alloc`, or why it has
/// none: a dynamic size without a constant upper bound, or a buffer larger
/// than `maxBoundBytes` at its bounds (IREE had to cap its bounded
/// allocations after unconstrained dimensions gave petabyte ones).
static FailureOr<UpperBoundShape> computeUpperBoundShape(memref::AllocOp alloc,
                                                         int64_t maxBoundBytes,
                                                         int64_t argUpperBound,
                                                         std::string &reason) {
  MemRefType type = alloc.getType();
  if (maxBoundBytes <= 0) {
    reason = "dynamic shape (bounded planning disabled: max-bound-bytes=0)";
    return failure();
  }
  SmallVector<int64_t> shape(type.getShape());
  SmallVector<std::string> dimSources;
  SmallVector<bool> dimStated;
  unsigned dynamicIndex = 0;
  for (auto [dim, size] : llvm::enumerate(shape)) {
    if (!ShapedType::isDynamic(size))
      continue;
    Value operand = alloc.getDynamicSizes()[dynamicIndex++];
    std::string overflow;
    std::optional<SizeUpperBound> bound =
        computeSizeUpperBound(operand, argUpperBound, &overflow);
    if (!bound && !overflow.empty()) {
      reason = "dynamic shape: the upper bound of dimension " +
               std::to_string(dim) + ", " + overflow +
               ", does not fit in int64";
      return failure();
    }
    if (!bound) {
      reason = "dynamic shape: no upper bound for dimension " +
               std::to_string(dim) + " (state one with '" +
               kUpperBoundAttr.str() + "' or '" + kDimUpperBoundsAttr.str() +
               "' on the function's arguments, or '" +
               kArgUpperBoundAttr.str() + "' on the function)";
      return failure();
    }
    // A negative bound means no valid size: the allocation cannot run with
    // the sizes it would need, so any slot fits.
    size = std::max<int64_t>(bound->value, 0);
    dimSources.push_back("dimension " + std::to_string(dim) + " <= " +
                         std::to_string(size) + " (" + bound->source + ")");
    dimStated.push_back(bound->stated);
  }
  std::string source = llvm::join(dimSources, "; ");
  auto staticType =
      MemRefType::get(shape, type.getElementType(), MemRefLayoutAttrInterface(),
                      type.getMemorySpace());
  FailureOr<int64_t> bytes = getMemRefByteSize(staticType);
  if (failed(bytes) || *bytes > std::min(maxBoundBytes, kMaxPlannedBytes)) {
    std::string text;
    llvm::raw_string_ostream message(text);
    message << "dynamic shape: the upper bound (" << source << ") gives ";
    if (failed(bytes))
      message << "a byte size that overflows int64";
    else
      message << *bytes << " bytes";
    // Static buffers above kMaxPlannedBytes are left unplanned too.
    if (succeeded(bytes) && *bytes <= maxBoundBytes)
      message << ", above the 2^48 bytes a planned buffer may take";
    else
      message << ", above the cap of " << maxBoundBytes
              << " bytes (max-bound-bytes)";
    reason = text;
    return failure();
  }
  return UpperBoundShape{staticType, source, std::move(dimSources),
                         std::move(dimStated)};
}

/// Whether and how `alloc` becomes an mplan.alloc_tensor.
/// `postDom` is the function's post-dominance when its body has more than
/// one block (built once per function), else null.
static CaptureDecision decideCapture(memref::AllocOp alloc,
                                     const BufferLiveness &liveness,
                                     int64_t maxBoundBytes,
                                     int64_t argUpperBound,
                                     const PostDominanceInfo *postDom) {
  auto leave = [](std::string reason) {
    CaptureDecision decision;
    decision.reason = std::move(reason);
    return decision;
  };
  if (BufferLiveness::isOptedOut(alloc))
    return leave(BufferLiveness::kOptedOutReason.str());
  MemRefType type = alloc.getType();
  if (!hasIdentityLayout(type))
    return leave("non-identity layout");
  if (failed(getElementByteSize(type.getElementType())))
    return leave("element type without a fixed byte size");
  if (type.hasStaticShape()) {
    FailureOr<int64_t> bytes = getMemRefByteSize(type);
    if (failed(bytes))
      return leave("byte size overflows int64");
    // No machine addresses more; the planner's padding and sums of such
    // sizes would overflow int64.
    if (*bytes > kMaxPlannedBytes)
      return leave("byte size " + std::to_string(*bytes) +
                   " above the 2^48 bytes a planned buffer may take");
  }
  if (!alloc.getSymbolOperands().empty())
    return leave("symbol operands");
  if (std::optional<uint64_t> alignment = alloc.getAlignment())
    if (*alignment == 0 || !llvm::isPowerOf2_64(*alignment))
      return leave("alignment is not a power of two");
  if (std::optional<std::string> reason =
          liveness.getUnplannableReason(alloc.getResult()))
    return leave(*reason);
  if (type.hasStaticShape())
    return {};
  std::string reason;
  FailureOr<UpperBoundShape> bounded =
      computeUpperBoundShape(alloc, maxBoundBytes, argUpperBound, reason);
  if (failed(bounded)) {
    // max-bound-bytes=0 plans no dynamically shaped buffer at all.
    if (maxBoundBytes <= 0)
      return leave(reason);
    if (type.getMemorySpace())
      return leave(reason + "; run-time sizing is for the default memory "
                            "space only");
    // The element size times the static dimensions must fit in int64 (the
    // mplan.alloc_dynamic verifier's condition): the type's bytes with every
    // dynamic dimension 1.
    SmallVector<int64_t> unitShape(type.getShape());
    for (int64_t &dim : unitShape)
      if (ShapedType::isDynamic(dim))
        dim = 1;
    if (failed(getMemRefByteSize(
            MemRefType::get(unitShape, type.getElementType()))))
      return leave(reason + "; nor can it be sized at run time: the byte "
                            "size of its static dimensions overflows int64");
    auto func = alloc->getParentOfType<func::FuncOp>();
    Region &body = func.getBody();
    // Sized where the function starts, the buffer must be allocated on every
    // call that returns: its sizes there are then the ones it is allocated
    // with. One a branch or a loop may skip has, on the calls that skip it,
    // whatever its size arithmetic gives there (negative, huge), and the
    // arena sized by it fails.
    // (A loop of constant bounds that runs at least once runs its body.)
    Operation *top = alloc;
    for (Operation *parent = alloc->getParentOp(); parent != func;
         top = parent, parent = parent->getParentOp()) {
      auto loop = dyn_cast<scf::ForOp>(parent);
      std::optional<int64_t> lb =
          loop ? getConstantIntValue(loop.getLowerBound()) : std::nullopt;
      std::optional<int64_t> ub =
          loop ? getConstantIntValue(loop.getUpperBound()) : std::nullopt;
      bool runs =
          lb && ub &&
          (loop.getUnsignedCmp() ? uint64_t(*lb) < uint64_t(*ub) : *lb < *ub);
      if (!runs)
        return leave(reason +
                     "; nor can it be sized at run time: it is "
                     "allocated inside '" +
                     parent->getName().getStringRef().str() +
                     "', which may not run it on every call");
    }
    if (postDom && !postDom->postDominates(top->getBlock(), &body.front()))
      return leave(reason + "; nor can it be sized at run time: its block "
                            "does not run on every call");
    for (auto [index, size] : llvm::enumerate(alloc.getDynamicSizes()))
      if (std::optional<std::string> why = getEntryComputeReason(size, body))
        return leave(
            reason + "; nor can it be sized at run time: dynamic size #" +
            std::to_string(index) +
            " is not computable where the function starts (" + *why + ")");
    CaptureDecision decision;
    decision.runtimeSized = true;
    decision.unboundedReason = reason;
    return decision;
  }
  CaptureDecision decision;
  decision.bounded = *bounded;
  return decision;
}

/// Where `loc` points, as `file:line:col` (its first file location), or as
/// MLIR prints it when it has none.
static std::string formatLocation(Location loc) {
  std::string text;
  llvm::raw_string_ostream os(text);
  if (auto file = loc->findInstanceOf<FileLineColLoc>())
    os << file.getFilename().getValue() << ":" << file.getLine() << ":"
       << file.getColumn();
  else
    os << loc;
  return text;
}

namespace {
/// What `memref.assume_alignment` ops say of each allocation of a function,
/// through the points-to analysis: the alignment its slot must have, or why
/// no slot can keep an assumption (a view at an offset that is not a multiple
/// of the alignment, or at an offset the analysis does not know). A planned
/// buffer is a view of the arena at its slot: an assumption the allocator
/// happened to meet must still hold there (LLVM may use it for aligned
/// vector accesses).
struct AssumedAlignments {
  llvm::DenseMap<Value, uint64_t> alignment;
  llvm::DenseMap<Value, std::string> reason;

  /// `assumes`: the function's memref.assume_alignment ops.
  AssumedAlignments(PlanAnalyses &analyses,
                    ArrayRef<memref::AssumeAlignmentOp> assumes) {
    if (assumes.empty())
      return;
    const PointsToAnalysis &pointsTo = analyses.getPointsTo();
    for (memref::AssumeAlignmentOp op : assumes) {
      uint64_t align = op.getAlignment();
      // The assumption is of the aligned pointer plus the layout's offset.
      std::optional<int64_t> offsetBytes;
      auto type = dyn_cast<MemRefType>(op.getMemref().getType());
      SmallVector<int64_t> strides;
      int64_t offset;
      FailureOr<int64_t> elementSize = failure();
      if (type)
        elementSize = getElementByteSize(type.getElementType());
      if (succeeded(elementSize) &&
          succeeded(getStridesAndOffset(type, strides, offset)) &&
          !ShapedType::isDynamic(offset))
        offsetBytes = ::mplan::checkedMul(offset, *elementSize);
      for (const PointsToTarget &target : pointsTo.getTargets(op.getMemref())) {
        const MemoryPlace &place = pointsTo.getPlace(target.place);
        if (!place.isAllocation() || !place.value ||
            !place.value.getDefiningOp<memref::AllocOp>())
          continue;
        std::optional<int64_t> at;
        if (target.hasBase() && offsetBytes)
          at = ::mplan::checkedAdd(target.base, *offsetBytes);
        std::string text;
        llvm::raw_string_ostream os(text);
        os << "memref.assume_alignment " << align << " at "
           << formatLocation(op.getLoc()) << " of a view ";
        if (!at)
          os << "at an offset the analysis does not know";
        else if (*at % static_cast<int64_t>(align) != 0)
          os << *at << " bytes into the buffer";
        else {
          uint64_t &known = alignment[place.value];
          known = std::max(known, align);
          continue;
        }
        reason.try_emplace(place.value, std::move(text));
      }
    }
  }
};
} // namespace

/// Creates, at the builder's insertion point, a cf.assert per dynamic size of
/// `alloc` (captured as `tensor` at the upper-bound shape `bounded`) whose
/// bound relies on a stated bound, that the size is at most its bound
/// (unsigned: a negative size fails too), with a message naming the buffer,
/// the dimension, the bound and its source. A bound the IR alone implies
/// holds on every run and is not checked. Announces the new ops to
/// `liveness`.
static void createBoundChecks(OpBuilder &builder, memref::AllocOp alloc,
                              AllocTensorOp tensor,
                              const UpperBoundShape &bounded,
                              BufferLiveness &liveness) {
  MemRefType type = alloc.getType();
  Location loc = alloc.getLoc();
  unsigned dynamicIndex = 0;
  for (auto [dim, size] : llvm::enumerate(type.getShape())) {
    if (!ShapedType::isDynamic(size))
      continue;
    Value operand = alloc.getDynamicSizes()[dynamicIndex];
    StringRef dimSource = bounded.dimSources[dynamicIndex];
    if (!bounded.dimStated[dynamicIndex++])
      continue;
    auto bound = arith::ConstantIndexOp::create(
        builder, loc, bounded.staticType.getDimSize(dim));
    auto within = arith::CmpIOp::create(builder, loc, arith::CmpIPredicate::ule,
                                        operand, bound);
    std::string message;
    llvm::raw_string_ostream os(message);
    os << "mplan: buffer " << tensor.getId() << " (" << type << " allocated at "
       << formatLocation(loc)
       << ") is larger than its upper bound: " << dimSource << " does not hold";
    auto check = cf::AssertOp::create(builder, loc, within, message);
    for (Operation *op :
         {bound.getOperation(), within.getOperation(), check.getOperation()})
      liveness.notifyOpInserted(op);
  }
}

/// Creates, before `alloc` (a dynamically shaped memref.alloc captured as
/// `tensor` of its upper-bound shape), the view of `tensor` with `alloc`'s
/// type: offset 0, `alloc`'s sizes and its identity layout's row-major
/// strides (computed with arith.muli where an inner size is dynamic). The
/// view's elements are the first ones of `tensor`, which has at least as
/// many when every size is at most its bound: the view carries the bounds'
/// text (kBoundSourceAttr) for the observer, which checks them at run time,
/// and with `checkBounds` a cf.assert per dynamic size checks it right before
/// the view. Announces the new ops to `liveness`.
static Value createBoundedView(OpBuilder &builder, memref::AllocOp alloc,
                               AllocTensorOp tensor,
                               const UpperBoundShape &bounded, bool checkBounds,
                               BufferLiveness &liveness) {
  MemRefType type = alloc.getType();
  Location loc = alloc.getLoc();
  if (checkBounds)
    createBoundChecks(builder, alloc, tensor, bounded, liveness);
  SmallVector<OpFoldResult> sizes;
  unsigned dynamicIndex = 0;
  for (int64_t size : type.getShape())
    sizes.push_back(ShapedType::isDynamic(size)
                        ? OpFoldResult(alloc.getDynamicSizes()[dynamicIndex++])
                        : OpFoldResult(builder.getIndexAttr(size)));
  // The stride of a dimension is staticFactor * dynamicFactor (null: 1).
  SmallVector<OpFoldResult> strides(type.getRank());
  int64_t staticFactor = 1;
  Value dynamicFactor;
  auto createConstant = [&](int64_t constant) -> Value {
    auto op = arith::ConstantIndexOp::create(builder, loc, constant);
    liveness.notifyOpInserted(op);
    return op;
  };
  auto createMul = [&](Value lhs, Value rhs) -> Value {
    auto op = arith::MulIOp::create(builder, loc, lhs, rhs);
    liveness.notifyOpInserted(op);
    return op;
  };
  for (int64_t dim = type.getRank() - 1; dim >= 0; --dim) {
    if (!dynamicFactor)
      strides[dim] = builder.getIndexAttr(staticFactor);
    else if (staticFactor == 1)
      strides[dim] = dynamicFactor;
    else
      strides[dim] = createMul(dynamicFactor, createConstant(staticFactor));
    if (dim == 0)
      break;
    // Static sizes multiply into the static factor, which stays below the
    // upper-bound type's element count and so fits in int64.
    if (!ShapedType::isDynamic(type.getDimSize(dim)))
      staticFactor *= type.getDimSize(dim);
    else if (!dynamicFactor)
      dynamicFactor = cast<Value>(sizes[dim]);
    else
      dynamicFactor = createMul(dynamicFactor, cast<Value>(sizes[dim]));
  }
  auto view = memref::ReinterpretCastOp::create(
      builder, loc, type, tensor, builder.getIndexAttr(0), sizes, strides);
  view->setAttr(kBoundSourceAttr, builder.getStringAttr(bounded.source));
  return view.getResult();
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
      liveness.notifyOpInserted(owned.getDefiningOp());
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

/// The memref.alloc in `region`'s block that `region` yields at `position`,
/// directly or through a memref.cast (One-Shot Bufferize casts it to the
/// op's result type), or null.
static memref::AllocOp getYieldedAlloc(Region &region, unsigned position) {
  if (!region.hasOneBlock())
    return {};
  Operation *terminator = region.front().getTerminator();
  if (!isa<scf::YieldOp>(terminator) ||
      position >= terminator->getNumOperands())
    return {};
  Value yielded = terminator->getOperand(position);
  if (auto cast = yielded.getDefiningOp<memref::CastOp>())
    yielded = cast.getSource();
  auto alloc = yielded.getDefiningOp<memref::AllocOp>();
  if (!alloc || alloc->getParentRegion() != &region ||
      !alloc->getDiscardableAttrDictionary().empty())
    return {};
  return alloc;
}

/// Replaces, for each result of `op` (scf.if or scf.index_switch) that every
/// region yields as a fresh static memref.alloc of one type, those
/// allocations by one right before `op`; the result's uses take that
/// allocation (cast to the result type after `op` if need be). Keeps
/// `liveness` valid. Returns whether anything changed.
static bool hoistBranchResults(Operation *op, BufferLiveness &liveness) {
  bool changed = false;
  for (OpResult result : op->getResults()) {
    if (!isa<MemRefType>(result.getType()))
      continue;
    SmallVector<memref::AllocOp> allocs;
    for (Region &region : op->getRegions()) {
      memref::AllocOp alloc = getYieldedAlloc(region, result.getResultNumber());
      if (!alloc || alloc.getNumOperands() != 0 ||
          (!allocs.empty() && alloc.getType() != allocs[0].getType()))
        break;
      allocs.push_back(alloc);
    }
    // An scf.if without an else branch yields nothing.
    if (allocs.empty() || allocs.size() != op->getNumRegions())
      continue;
    uint64_t alignment = 0;
    for (memref::AllocOp alloc : allocs)
      alignment =
          std::max<uint64_t>(alignment, alloc.getAlignment().value_or(0));
    OpBuilder builder(op);
    auto hoisted = memref::AllocOp::create(
        builder, op->getLoc(), allocs[0].getType(), ValueRange(),
        alignment ? builder.getI64IntegerAttr(alignment) : IntegerAttr());
    for (memref::AllocOp alloc : allocs) {
      liveness.notifyOpErased(alloc);
      alloc.replaceAllUsesWith(hoisted.getResult());
      alloc.erase();
    }
    // Every branch yields the hoisted buffer: the result is that buffer.
    Value replacement = hoisted.getResult();
    if (replacement.getType() != result.getType()) {
      builder.setInsertionPointAfter(op);
      auto cast = memref::CastOp::create(builder, op->getLoc(),
                                         result.getType(), replacement);
      liveness.notifyOpInserted(cast);
      replacement = cast.getResult();
    }
    result.replaceAllUsesWith(replacement);
    liveness.notifyOpInserted(hoisted);
    changed = true;
  }
  return changed;
}

LogicalResult mlir::mplan::verifyOptOutAttr(Operation *op) {
  // A function's arguments and results are the caller's buffers: nothing
  // to opt out (a function has a region: most ops need no interface lookup).
  if (op->getNumRegions() != 0)
    if (auto func = dyn_cast<FunctionOpInterface>(op)) {
      auto emit = [&](Location loc, StringRef what, unsigned index) {
        emitError(loc) << what << " #" << index << " of @"
                       << SymbolTable::getSymbolName(func).getValue()
                       << " carries '" << kUnplannedAttr
                       << "', which opts a memref.alloc or memref.alloca out "
                          "of planning; function arguments and results are "
                          "never planned";
        return failure();
      };
      for (unsigned index = 0, e = func.getNumArguments(); index < e; ++index)
        if (func.getArgAttr(index, kUnplannedAttr))
          return emit(func.isExternal() ? func.getLoc()
                                        : func.getArgument(index).getLoc(),
                      "argument", index);
      for (unsigned index = 0, e = func.getNumResults(); index < e; ++index)
        if (func.getResultAttr(index, kUnplannedAttr))
          return emit(func.getLoc(), "result", index);
    }
  // A dialect attribute: discardable (most ops have none, and their
  // inherent attributes are not searched).
  Attribute attr = op->getDiscardableAttr(kUnplannedAttr);
  if (!attr)
    return success();
  bool isAlloc = isa<memref::AllocOp, memref::AllocaOp>(op);
  if (isa<UnitAttr>(attr) && isAlloc)
    return success();
  // A reason recorded by an earlier run.
  if (isa<StringAttr>(attr) && isa<memref::AllocOp>(op))
    return success();
  return op->emitOpError("carries '")
         << kUnplannedAttr
         << "', which opts a memref.alloc or memref.alloca out of planning as "
            "a unit attribute"
         << (isAlloc ? "; got " : " and is not one; got ") << attr;
}

LogicalResult mlir::mplan::verifyOptOutAttrs(Operation *root) {
  WalkResult result = root->walk([](Operation *op) {
    return failed(verifyOptOutAttr(op)) ? WalkResult::interrupt()
                                        : WalkResult::advance();
  });
  return failure(result.wasInterrupted());
}

bool mlir::mplan::isCaptureWalkOp(Operation *op) {
  return isa<scf::IfOp, scf::IndexSwitchOp, memref::AssumeAlignmentOp>(op);
}

/// Erases the deallocations of `buffer` (a root of the liveness), which the
/// plan takes over; true if there were any.
static bool eraseDeallocsOf(Value buffer, PlanAnalyses &analyses) {
  BufferLiveness &liveness = analyses.getLiveness();
  if (!liveness.mayBeDeallocated(buffer))
    return false;
  SmallVector<OpOperand *> deallocUses;
  for (Value alias : liveness.getAliases(buffer))
    for (OpOperand &use : alias.getUses())
      if (BufferLiveness::isDeallocUse(use))
        deallocUses.push_back(&use);
  if (deallocUses.empty())
    return false;
  // Erased uses may have been what made a place escape.
  analyses.resetPointsTo();
  eraseDeallocs(deallocUses, liveness);
  liveness.notifyDeallocsErased(buffer);
  return true;
}

bool mlir::mplan::captureBuffersInFunction(func::FuncOp func,
                                           PlanAnalyses &analyses,
                                           bool emitRemarks,
                                           int64_t maxBoundBytes,
                                           int64_t argUpperBound,
                                           bool checkBounds, PlanStepOps *ops) {
  BufferLiveness &liveness = analyses.getLiveness();
  // Inner ops first, so that an outer branch yields an inner op's hoisted
  // allocation directly. One walk finds the branch ops and the alignment
  // assumptions; the allocations and the ids taken are the liveness's
  // roots (after hoisting, which announces what it changes).
  // (The ops listed for the steps, if any, are those of that walk.)
  SmallVector<Operation *> branchOps;
  SmallVector<memref::AssumeAlignmentOp> assumes;
  auto sort = [&](Operation *op) {
    if (isa<scf::IfOp, scf::IndexSwitchOp>(op))
      branchOps.push_back(op);
    else if (auto assume = dyn_cast<memref::AssumeAlignmentOp>(op))
      assumes.push_back(assume);
  };
  if (std::optional<SmallVector<Operation *>> listed =
          ops ? ops->takeBranchesAndAssumes() : std::nullopt)
    llvm::for_each(*listed, sort);
  else
    func.walk<WalkOrder::PostOrder>([&](Operation *op) {
      if (isCaptureWalkOp(op))
        sort(op);
    });
  bool hoistedAny = false;
  for (Operation *op : branchOps)
    hoistedAny |= hoistBranchResults(op, liveness);
  // Hoisting makes new allocations and erases others: the points-to
  // analysis is rebuilt when next asked for, the steps walk.
  if (hoistedAny) {
    analyses.resetPointsTo();
    if (ops)
      ops->invalidate();
  }
  int64_t nextId = 0;
  SmallVector<memref::AllocOp> allocs;
  // Unplanned buffers of the mplan dialect the input frees itself.
  SmallVector<Value> freedMPlanBuffers;
  for (Value root : liveness.getRootsInProgramOrder()) {
    Operation *op = root.getDefiningOp();
    if (auto alloc = dyn_cast_or_null<memref::AllocOp>(op)) {
      allocs.push_back(alloc);
      continue;
    }
    if (auto tensor = dyn_cast_or_null<AllocTensorOp>(op)) {
      nextId = std::max<int64_t>(nextId, tensor.getId() + 1);
      if (tensor.isPlanned())
        continue;
    } else if (auto dynamic = dyn_cast_or_null<AllocDynamicOp>(op)) {
      nextId = std::max<int64_t>(nextId, dynamic.getId() + 1);
      if (dynamic.isPlanned())
        continue;
    } else {
      continue;
    }
    if (liveness.mayBeDeallocated(root) && !liveness.getUnplannableReason(root))
      freedMPlanBuffers.push_back(root);
  }

  // Decide everything before changing the IR.
  SmallVector<CaptureDecision> decisions;
  decisions.reserve(allocs.size());
  AssumedAlignments assumed(analyses, assumes);
  std::optional<PostDominanceInfo> postDom;
  if (!func.getBody().hasOneBlock())
    postDom.emplace(func);
  for (memref::AllocOp alloc : allocs) {
    CaptureDecision decision =
        decideCapture(alloc, liveness, maxBoundBytes, argUpperBound,
                      postDom ? &*postDom : nullptr);
    decision.alignment = alloc.getAlignment();
    if (!decision.reason) {
      auto reason = assumed.reason.find(alloc.getResult());
      auto known = assumed.alignment.find(alloc.getResult());
      if (reason != assumed.reason.end())
        decision.reason = reason->second;
      else if (known != assumed.alignment.end())
        decision.alignment =
            std::max<uint64_t>(decision.alignment.value_or(1), known->second);
    }
    decisions.push_back(std::move(decision));
  }

  OpBuilder builder(func.getContext());
  // The sizes of run-time sized buffers, recomputed at the function's start
  // (each clone after the previous ones, which it may use). The insertion
  // point is set afresh before each use: the op first in the block when the
  // builder was made may be an allocation replaced since.
  OpBuilder entryBuilder(func.getContext());
  Block &entryBlock = func.getBody().front();
  Operation *lastEntryClone = nullptr;
  IRMapping entryValues;
  bool changed = false;
  // An unplanned buffer of the mplan dialect in the input is the plan's as a
  // captured one is: its slab's release frees it, not the input's deallocs.
  for (Value buffer : freedMPlanBuffers)
    changed |= eraseDeallocsOf(buffer, analyses);
  for (auto [alloc, decision] : llvm::zip_equal(allocs, decisions)) {
    if (std::optional<std::string> &reason = decision.reason) {
      // An opted-out buffer keeps the user's unit attribute.
      if (!BufferLiveness::isOptedOut(alloc))
        alloc->setAttr(kUnplannedAttr, builder.getStringAttr(*reason));
      if (emitRemarks)
        mlir::emitRemark(alloc.getLoc(), "buffer left unplanned: ") << *reason;
      continue;
    }
    // The slab's release replaces every dealloc of the buffer.
    if (eraseDeallocsOf(alloc.getResult(), analyses))
      changed = true;

    builder.setInsertionPoint(alloc);
    std::optional<uint64_t> alignment = decision.alignment;
    // The alloc's own attribute when the alignment is its (no lookup of the
    // same attribute per buffer).
    IntegerAttr alignmentAttr;
    if (alignment)
      alignmentAttr = alloc.getAlignment() == alignment
                          ? alloc.getAlignmentAttr()
                          : builder.getI64IntegerAttr(*alignment);
    if (decision.runtimeSized) {
      // Same position, same uses, same type: placed at run time by the
      // symbolic plan of mplan-plan-buffers. Its sizes are recomputed where
      // the function starts now, so that no later rewrite (of the buffers
      // a `memref.dim` reads them off, say) can make them depend on
      // something computed later.
      if (lastEntryClone)
        entryBuilder.setInsertionPointAfter(lastEntryClone);
      else
        entryBuilder.setInsertionPointToStart(&entryBlock);
      // The clones are ops the lists of the steps do not have.
      if (ops)
        ops->invalidate();
      Block::iterator firstClone = entryBuilder.getInsertionPoint();
      bool atBegin = firstClone == entryBlock.begin();
      if (!atBegin)
        --firstClone;
      SmallVector<Value> sizes =
          cloneAtEntry(entryBuilder, alloc.getDynamicSizes(), entryValues);
      // The clones are announced like any new op (the liveness numbers
      // them).
      for (Block::iterator it = atBegin ? entryBlock.begin() : ++firstClone;
           it != entryBuilder.getInsertionPoint(); ++it)
        analyses.notifyOpInserted(&*it);
      if (entryBuilder.getInsertionPoint() != entryBlock.begin())
        lastEntryClone = &*std::prev(entryBuilder.getInsertionPoint());
      auto dynamic = AllocDynamicOp::create(
          builder, alloc.getLoc(), alloc.getType(),
          builder.getI64IntegerAttr(nextId++), sizes,
          /*start=*/nullptr, /*end=*/nullptr, /*slab=*/Value(),
          /*above=*/nullptr, alignmentAttr);
      if (emitRemarks)
        mlir::emitRemark(dynamic.getLoc(), "buffer sized at run time: ")
            << decision.unboundedReason;
      alloc.replaceAllUsesWith(dynamic.getResult());
      analyses.notifyAllocationReplaced(alloc.getResult(), dynamic.getResult());
      analyses.notifyOpErased(alloc);
      alloc.erase();
      changed = true;
      continue;
    }
    auto tensor = AllocTensorOp::create(
        builder, alloc.getLoc(),
        decision.bounded ? decision.bounded->staticType : alloc.getType(),
        builder.getI64IntegerAttr(nextId++), /*start=*/nullptr,
        /*end=*/nullptr, /*slab=*/Value(), /*offset=*/nullptr, alignmentAttr);
    if (!decision.bounded) {
      // Same position, same uses: the tensor takes over the alloc's
      // aliases, range and reason in place (no re-analysis).
      alloc.replaceAllUsesWith(tensor.getResult());
      analyses.notifyAllocationReplaced(alloc.getResult(), tensor.getResult());
      if (ops)
        ops->notifyAllocationReplaced(alloc, tensor);
    } else {
      // Views of the bounded buffer stand for it: the points-to analysis is
      // rebuilt when next asked for, the steps walk.
      analyses.resetPointsTo();
      if (ops)
        ops->invalidate();
      // Every user keeps its type through a view of the upper-bound buffer:
      // the tensor takes over the alloc's root, the view joins its aliases.
      tensor->setAttr(kBoundSourceAttr,
                      builder.getStringAttr(decision.bounded->source));
      Value view = createBoundedView(builder, alloc, tensor, *decision.bounded,
                                     checkBounds, liveness);
      alloc.replaceAllUsesWith(view);
      liveness.notifyRootReplaced(alloc.getResult(), tensor.getResult());
      liveness.notifyOpInserted(view.getDefiningOp());
    }
    analyses.notifyOpErased(alloc);
    alloc.erase();
    changed = true;
  }
  return changed || hoistedAny;
}

LogicalResult mlir::mplan::verifyCaptureOptions(Operation *anchor,
                                                StringRef pass,
                                                int64_t maxBoundBytes,
                                                int64_t argUpperBound) {
  if (maxBoundBytes < 0)
    return emitOptionError(anchor, pass, "max-bound-bytes",
                           "must be >= 0 (0: plan no dynamically shaped "
                           "buffer), got " +
                               Twine(maxBoundBytes));
  if (argUpperBound < 0)
    return emitOptionError(anchor, pass, "arg-upper-bound",
                           "must be >= 0 (0: none), got " +
                               Twine(argUpperBound));
  return success();
}

namespace {
struct MPlanCaptureBuffersPass
    : public mlir::mplan::impl::MPlanCaptureBuffersBase<
          MPlanCaptureBuffersPass> {
  using Base::Base;

  void getDependentDialects(DialectRegistry &registry) const override {
    Base::getDependentDialects(registry);
    registerUpperBoundInterfaces(registry);
  }

  void runOnOperation() override {
    func::FuncOp func = getOperation();
    if (failed(verifyCaptureOptions(func, getArgument(), maxBoundBytes,
                                    argUpperBound)))
      return signalPassFailure();
    if (func.isExternal())
      return;
    if (failed(verifyOptOutAttrs(func)) || failed(verifyUpperBoundAttrs(func)))
      return signalPassFailure();
    PlanAnalyses analyses(func);
    bool changed = captureBuffersInFunction(
        func, analyses, emitRemarks, maxBoundBytes, argUpperBound, checkBounds);
    if (foldViews) {
      FailureOr<bool> folded = foldViewsInFunction(func);
      if (failed(folded))
        return signalPassFailure();
      changed |= *folded;
    }
    if (!changed)
      markAllAnalysesPreserved();
  }
};
} // namespace
