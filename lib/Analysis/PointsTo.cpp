//===- PointsTo.cpp - Where may a memref value point? ---------------------===//

#include "mplan/Analysis/PointsTo.h"
#include "mplan/Analysis/BufferLiveness.h"
#include "mplan/Analysis/UpperBounds.h"
#include "mplan/Dialect/MPlan/IR/MPlanOps.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/Matchers.h"
#include "mlir/Interfaces/CallInterfaces.h"
#include "mlir/Interfaces/ControlFlowInterfaces.h"
#include "mlir/Interfaces/FunctionInterfaces.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "mlir/Interfaces/ViewLikeInterface.h"
#include "mplan/Support/CheckedMath.h"
#include "llvm/ADT/SmallPtrSet.h"

using namespace mlir;
using namespace mlir::mplan;

/// Values that designate memory: memrefs and mplan slabs.
static bool isPointer(Value value) {
  return isa<BaseMemRefType, SlabType>(value.getType());
}

/// The size in bytes of the object of type `type`, or -1.
static int64_t getObjectSize(Type type) {
  if (auto slab = dyn_cast<SlabType>(type))
    return slab.getSize();
  if (auto memref = dyn_cast<MemRefType>(type)) {
    FailureOr<int64_t> bytes = getMemRefByteSize(memref);
    if (succeeded(bytes) && hasIdentityLayout(memref))
      return *bytes;
  }
  return -1;
}

/// The bytes [begin, end), in elements of `elementSize` bytes from the aligned
/// pointer, that a strided layout addresses whose offset lies in
/// [offsetLow, offsetHigh] and whose dimensions have at most the sizes and
/// strides of `sizesAndStrides` (non-negative): begin is offsetLow, the last
/// element offsetHigh + sum((size - 1) * stride); std::nullopt on overflow.
static std::optional<std::pair<int64_t, int64_t>>
getSpanBytes(int64_t elementSize, int64_t offsetLow, int64_t offsetHigh,
             ArrayRef<std::pair<int64_t, int64_t>> sizesAndStrides) {
  std::optional<int64_t> first = ::mplan::checkedMul(offsetLow, elementSize);
  std::optional<int64_t> last = offsetHigh;
  for (auto [size, stride] : sizesAndStrides) {
    // A dimension of size 0 addresses nothing; the range stays a superset.
    std::optional<int64_t> step =
        ::mplan::checkedMul(std::max<int64_t>(size - 1, 0), stride);
    last = step && last ? ::mplan::checkedAdd(*last, *step) : std::nullopt;
  }
  std::optional<int64_t> lastPlusOne =
      last ? ::mplan::checkedAdd(*last, int64_t(1)) : std::nullopt;
  std::optional<int64_t> end =
      lastPlusOne ? ::mplan::checkedMul(*lastPlusOne, elementSize)
                  : std::nullopt;
  if (!first || !end)
    return std::nullopt;
  return std::make_pair(*first, *end);
}

/// The bytes [begin, end), relative to the aligned pointer, that a memref of
/// static shape and static strided layout `type` can address.
static std::optional<std::pair<int64_t, int64_t>> getAddressedBytes(Type type) {
  auto memref = dyn_cast<MemRefType>(type);
  if (!memref || !memref.hasStaticShape())
    return std::nullopt;
  FailureOr<int64_t> elementSize = getElementByteSize(memref.getElementType());
  SmallVector<int64_t> strides;
  int64_t offset;
  if (failed(elementSize) ||
      failed(getStridesAndOffset(memref, strides, offset)) ||
      ShapedType::isDynamic(offset) || offset < 0)
    return std::nullopt;
  SmallVector<std::pair<int64_t, int64_t>> sizesAndStrides;
  for (auto [size, stride] : llvm::zip(memref.getShape(), strides)) {
    if (size == 0) {
      std::optional<int64_t> first = ::mplan::checkedMul(offset, *elementSize);
      if (!first)
        return std::nullopt;
      return std::make_pair(*first, *first);
    }
    if (ShapedType::isDynamic(stride) || stride < 0)
      return std::nullopt;
    sizesAndStrides.push_back({size, stride});
  }
  return getSpanBytes(*elementSize, offset, offset, sizesAndStrides);
}

/// The bytes [begin, end), relative to the aligned pointer, that the result
/// of `op` can address when its offset, sizes or strides are dynamic, for
/// the casts convert-mplan-to-memref makes of a buffer planned at its upper
/// bound (they carry kBoundSourceAttr): from constant bounds of them (lower
/// bounds of at least 0 for the offset and the strides, from the IR; upper
/// bounds from the IR or the bounds stated on the function's arguments), or
/// std::nullopt. The range relies on the promise the plan itself rests on,
/// that no size exceeds its bound, so it holds only within the bytes of the
/// cast's source, the buffer planned at that bound (transferView checks it).
/// Any other cast with a dynamic layout may reach anywhere: the constraint
/// system computes without the wrap-around of index arithmetic (10 - 2 * n
/// is at most 10 to it, 12 at run time when 2 * n wraps), and its model of
/// an unsigned `scf.for` is signed.
static std::optional<std::pair<int64_t, int64_t>>
getBoundedCastBytes(memref::ReinterpretCastOp op) {
  if (!op->hasAttr(kBoundSourceAttr))
    return std::nullopt;
  FailureOr<int64_t> elementSize =
      getElementByteSize(op.getType().getElementType());
  if (failed(elementSize))
    return std::nullopt;
  auto upper = [&](OpFoldResult ofr) -> std::optional<int64_t> {
    if (std::optional<int64_t> value = getConstantIntValue(ofr))
      return value;
    std::optional<SizeUpperBound> bound =
        computeSizeUpperBound(cast<Value>(ofr));
    if (!bound)
      return std::nullopt;
    return bound->value;
  };
  auto lower = [&](OpFoldResult ofr) -> std::optional<int64_t> {
    if (std::optional<int64_t> value = getConstantIntValue(ofr))
      return value;
    return computeLowerBound(cast<Value>(ofr), /*withStated=*/true);
  };
  OpFoldResult offset = op.getMixedOffsets().front();
  std::optional<int64_t> first = lower(offset);
  std::optional<int64_t> last = upper(offset);
  if (!first || !last || *first < 0)
    return std::nullopt;
  SmallVector<std::pair<int64_t, int64_t>> sizesAndStrides;
  for (auto [size, stride] :
       llvm::zip(op.getMixedSizes(), op.getMixedStrides())) {
    std::optional<int64_t> sizeBound = upper(size);
    std::optional<int64_t> strideLow = lower(stride);
    std::optional<int64_t> strideBound = upper(stride);
    if (!sizeBound || !strideLow || !strideBound || *strideLow < 0)
      return std::nullopt;
    sizesAndStrides.push_back({*sizeBound, *strideBound});
  }
  return getSpanBytes(*elementSize, *first, *last, sizesAndStrides);
}

PointsToAnalysis::PointsToAnalysis(Operation *funcOp,
                                   function_ref<void(Operation *)> visit)
    : funcOp(funcOp) {
  (void)addPlace(MemoryPlace{}); // kUnknownPlace
  Region &body = funcOp->getRegion(0);
  if (!body.empty()) {
    for (BlockArgument arg : body.front().getArguments()) {
      if (!isPointer(arg))
        continue;
      addValuePlace(MemoryPlace::Kind::Argument, arg);
    }
  }
  funcOp->walk([&](Operation *op) {
    if (op == funcOp)
      return;
    seed(op);
    if (visit)
      visit(op);
  });
  propagate();
  built = true;
}

unsigned PointsToAnalysis::addPlace(MemoryPlace place) {
  places.push_back(place);
  pointersTo.emplace_back();
  return places.size() - 1;
}

void PointsToAnalysis::addValuePlace(MemoryPlace::Kind kind, Value value) {
  MemoryPlace place;
  place.kind = kind;
  place.value = value;
  place.size = getObjectSize(value.getType());
  unsigned id = addPlace(place);
  placeOf[value] = id;
  // The value is the object's start. An allocation addresses exactly its
  // bytes; an argument may be any part of a larger object.
  PointsToTarget target;
  target.place = id;
  target.base = 0;
  if (kind == MemoryPlace::Kind::Allocation && place.size >= 0) {
    target.exact = true;
    target.end = place.size;
  }
  join(value, target);
}

std::optional<unsigned> PointsToAnalysis::lookupPlace(Value value) const {
  auto it = placeOf.find(value);
  if (it == placeOf.end())
    return std::nullopt;
  return it->second;
}

ArrayRef<PointsToTarget> PointsToAnalysis::getTargets(Value value) const {
  static const PointsToTarget unknown{};
  // Only pointers get targets (join): a scalar needs no lookup.
  if (isPointer(value))
    if (auto it = targetsOf.find(value); it != targetsOf.end())
      return it->second;
  // A memref the analysis has not seen, or anything else a memory effect is
  // on (an `!llvm.ptr` made from an address, an integer): unknown memory.
  return unknown;
}

void PointsToAnalysis::joinOne(TargetList &list, const PointsToTarget &target,
                               bool &changed) {
  for (PointsToTarget &existing : list) {
    if (existing.place != target.place)
      continue;
    if (existing == target)
      return;
    // Two ways into one place: keep what both agree on. Different bases
    // (a shift carried around a loop) widen to the whole place, so joins
    // reach a fixed point.
    PointsToTarget merged = existing;
    if (existing.base != target.base) {
      merged.base = PointsToTarget::kUnknownBase;
      merged.exact = false;
    } else if (!existing.exact || !target.exact) {
      merged.exact = false;
    } else {
      merged.begin = std::min(existing.begin, target.begin);
      merged.end = std::max(existing.end, target.end);
    }
    if (!(merged == existing)) {
      existing = merged;
      changed = true;
    }
    return;
  }
  list.push_back(target);
  changed = true;
}

void PointsToAnalysis::join(Value value, ArrayRef<PointsToTarget> targets) {
  if (!isPointer(value) || targets.empty())
    return;
  TargetList &list = targetsOf[value];
  bool changed = false;
  bool hadTargets = !list.empty();
  for (const PointsToTarget &target : targets) {
    size_t before = list.size();
    joinOne(list, target, changed);
    if (list.size() != before)
      pointersTo[target.place].push_back(value);
  }
  // An update that adds to what a value already had: a fresh analysis
  // might give it less.
  widened |= built && changed && hadTargets;
  if (changed && queued.insert(value).second)
    worklist.push_back(value);
}

void PointsToAnalysis::markEscaped(ArrayRef<PointsToTarget> targets) {
  for (const PointsToTarget &target : targets) {
    MemoryPlace &place = places[target.place];
    if (place.isAllocation())
      place.escaped = true;
  }
}

/// Whether `op` is one whose pointer results the transfer functions of
/// visitUse compute from its operands (everything else also points to
/// unknown memory).
static bool hasKnownTransfer(Operation *op) {
  return isa<ViewLikeOpInterface, arith::SelectOp, RegionBranchOpInterface,
             AllocTensorOp>(op);
}

void PointsToAnalysis::seed(Operation *op) {
  // Allocations and globals are places of their own. Most ops compute
  // scalars: their interfaces are asked for only with a pointer result.
  if (llvm::any_of(op->getResults(), [](Value v) { return isPointer(v); })) {
    auto effects = dyn_cast<MemoryEffectOpInterface>(op);
    auto planned = dyn_cast<AllocTensorOp>(op);
    for (OpResult result : op->getResults()) {
      if (!isPointer(result))
        continue;
      if (auto get = dyn_cast<memref::GetGlobalOp>(op)) {
        Attribute symbol = get.getNameAttr();
        unsigned id = 0;
        for (unsigned i = 1; i < places.size() && !id; ++i)
          if (places[i].kind == MemoryPlace::Kind::Global &&
              places[i].symbol == symbol)
            id = i;
        if (!id) {
          MemoryPlace place;
          place.kind = MemoryPlace::Kind::Global;
          place.symbol = symbol;
          place.size = getObjectSize(result.getType());
          id = addPlace(place);
        }
        PointsToTarget target;
        target.place = id;
        target.base = 0;
        join(result, target);
        continue;
      }
      if ((!planned || !planned.isPlanned()) && effects &&
          effects.getEffectOnValue<MemoryEffects::Allocate>(result)) {
        addValuePlace(MemoryPlace::Kind::Allocation, result);
        continue;
      }
      if (!hasKnownTransfer(op))
        join(result, PointsToTarget{});
    }
  }
  // Region arguments of ops that do not say how values reach them, and
  // block arguments reached by branches that do not say so either.
  for (Region &region : op->getRegions())
    if (!region.empty())
      for (BlockArgument arg : region.front().getArguments())
        if (isPointer(arg) && !isa<RegionBranchOpInterface>(op))
          join(arg, PointsToTarget{});
  if (op->getNumSuccessors() && !isa<BranchOpInterface>(op))
    for (Block *successor : op->getSuccessors())
      for (BlockArgument arg : successor->getArguments())
        join(arg, PointsToTarget{});
}

PointsToAnalysis::TargetList
PointsToAnalysis::transferView(Operation *op, Value result,
                               ArrayRef<PointsToTarget> targets) const {
  TargetList out;
  // memref.cast and memref.assume_alignment (how an arena argument enters
  // its function) keep the pointer: the same bytes.
  if (isa<memref::CastOp, memref::AssumeAlignmentOp>(op)) {
    out.append(targets.begin(), targets.end());
    return out;
  }
  // The base buffer of extract_strided_metadata keeps the aligned pointer
  // and can be re-cast to reach anywhere in the allocation.
  bool wholeFromBase = isa<memref::ExtractStridedMetadataOp>(op);
  // memref.view moves the aligned pointer by its byte shift; the other
  // view-like ops of the memref and mplan dialects keep it and address what
  // their result layout says from there.
  std::optional<int64_t> shift = 0;
  if (auto view = dyn_cast<memref::ViewOp>(op)) {
    APInt value;
    shift = std::nullopt;
    if (matchPattern(view.getByteShift(), m_ConstantInt(&value)) &&
        value.getSignificantBits() <= 63)
      shift = value.getSExtValue();
  }
  bool keepsPointer =
      isa<memref::ViewOp, memref::SubViewOp, memref::ReinterpretCastOp,
          memref::ExpandShapeOp, memref::CollapseShapeOp, memref::TransposeOp,
          memref::MemorySpaceCastOp, memref::ExtractStridedMetadataOp, ViewOp>(
          op);
  std::optional<std::pair<int64_t, int64_t>> bytes =
      wholeFromBase ? std::nullopt : getAddressedBytes(result.getType());
  bool bounded = false;
  if (auto reinterpret = dyn_cast<memref::ReinterpretCastOp>(op)) {
    if (!bytes && !wholeFromBase) {
      bytes = getBoundedCastBytes(reinterpret);
      bounded = bytes.has_value();
    }
  }
  for (PointsToTarget target : targets) {
    PointsToTarget next;
    next.place = target.place;
    if (keepsPointer && target.hasBase() && shift) {
      std::optional<int64_t> base = ::mplan::checkedAdd(target.base, *shift);
      if (base)
        next.base = *base;
    }
    if (next.hasBase() && bytes) {
      std::optional<int64_t> begin =
          ::mplan::checkedAdd(next.base, bytes->first);
      std::optional<int64_t> end =
          ::mplan::checkedAdd(next.base, bytes->second);
      int64_t size = places[target.place].size;
      bool inSource =
          !bounded || (target.exact && begin && end && *begin >= target.begin &&
                       *end <= target.end);
      if (begin && end && *begin >= 0 && (size < 0 || *end <= size) &&
          inSource) {
        next.exact = true;
        next.begin = *begin;
        next.end = *end;
      }
    }
    // These address only elements of their source (an out-of-bounds
    // subview is undefined), so the source's exact bytes bound them even
    // when their own layout is not static. A reinterpret_cast, a
    // memref.view and unknown view-like ops may reach anywhere from the
    // pointer: they never inherit a range.
    if (!next.exact && target.exact &&
        isa<memref::SubViewOp, memref::ExpandShapeOp, memref::CollapseShapeOp,
            memref::TransposeOp, memref::MemorySpaceCastOp>(op)) {
      next.exact = true;
      next.begin = target.begin;
      next.end = target.end;
    }
    out.push_back(next);
  }
  return out;
}

void mlir::mplan::forEachPointerFlow(OpOperand &use, Operation *funcOp,
                                     function_ref<void(Value)> fn) {
  Operation *owner = use.getOwner();
  unsigned operandNumber = use.getOperandNumber();
  auto each = [&](auto values) {
    for (Value value : values)
      if (isPointer(value))
        fn(value);
  };
  auto forwarded = [&](OperandRange operands, ValueRange inputs) {
    if (operands.empty())
      return;
    unsigned first = operands.getBeginOperandIndex();
    if (operandNumber < first || operandNumber >= first + operands.size())
      return;
    unsigned index = operandNumber - first;
    if (index < inputs.size() && isPointer(inputs[index]))
      fn(inputs[index]);
  };
  auto regionArguments = [&](Operation *op) {
    for (Region &region : op->getRegions())
      if (!region.empty())
        each(region.front().getArguments());
  };
  // Region ops that say how operands reach their regions and results.
  auto regionBranchEntry = [&] {
    auto regionBranch = dyn_cast<RegionBranchOpInterface>(owner);
    if (!regionBranch)
      return false;
    SmallVector<RegionSuccessor> successors;
    regionBranch.getSuccessorRegions(RegionBranchPoint::parent(), successors);
    for (RegionSuccessor &successor : successors)
      forwarded(regionBranch.getEntrySuccessorOperands(successor),
                successor.getSuccessorInputs());
    return true;
  };
  // Control flow: forwarded operands flow into successor arguments/results.
  // (The interfaces are asked only of the ops that can have them: a branch
  // or a region terminator is a terminator, a region branch op has regions.)
  if (owner->hasTrait<OpTrait::IsTerminator>()) {
    if (auto branch = dyn_cast<BranchOpInterface>(owner)) {
      if (std::optional<BlockArgument> arg =
              branch.getSuccessorBlockArgument(operandNumber))
        if (isPointer(*arg))
          fn(*arg);
      return;
    }
    if (auto terminator = dyn_cast<RegionBranchTerminatorOpInterface>(owner))
      if (auto parent =
              dyn_cast<RegionBranchOpInterface>(owner->getParentOp())) {
        SmallVector<RegionSuccessor> successors;
        parent.getSuccessorRegions(RegionBranchPoint(terminator), successors);
        for (RegionSuccessor &successor : successors)
          forwarded(terminator.getSuccessorOperands(successor),
                    successor.getSuccessorInputs());
        return;
      }
    if (owner->getNumRegions() && regionBranchEntry())
      return;
    Operation *parent = owner->getParentOp();
    // A function's return hands the value to the caller.
    if (parent == funcOp || isa<FunctionOpInterface>(parent))
      return;
    // A terminator the analysis does not understand: the value may reach
    // its successors' arguments, the parent's results and its regions'
    // arguments.
    for (Block *successor : owner->getSuccessors())
      each(successor->getArguments());
    each(parent->getResults());
    regionArguments(parent);
    return;
  }
  if (owner->getNumRegions() && regionBranchEntry())
    return;
  // Without results, only region arguments can take the value (an op that
  // only reads or writes it, a call without results).
  if (owner->getNumResults() == 0) {
    regionArguments(owner);
    return;
  }
  if (isa<CallOpInterface>(owner)) {
    // A callee that does not keep an operand does not return it either.
    if (!BufferLiveness::isNoCaptureUse(use))
      each(owner->getResults());
    return;
  }
  // A memref loaded from memory is whatever was stored there (unknown
  // memory), never the memref it is loaded from.
  if (isa<memref::LoadOp>(owner))
    return;
  if (isa<arith::SelectOp>(owner)) {
    if (operandNumber != 0)
      each(owner->getResults());
    return;
  }
  // A planned buffer (its bytes of the slab), a view of its source, and
  // any other op: its pointer results and region arguments may be the value.
  each(owner->getResults());
  regionArguments(owner);
}

PointsToAnalysis::TargetList
PointsToAnalysis::transfer(OpOperand &use, Value to,
                           ArrayRef<PointsToTarget> targets) const {
  Operation *owner = use.getOwner();
  if (to.getDefiningOp() != owner)
    return TargetList(targets.begin(), targets.end());
  if (auto planned = dyn_cast<AllocTensorOp>(owner)) {
    // A planned buffer: its bytes of the slab.
    std::optional<int64_t> offset = planned.getOffset();
    int64_t size = getObjectSize(planned.getType());
    TargetList out;
    for (const PointsToTarget &target : targets) {
      PointsToTarget next;
      next.place = target.place;
      std::optional<int64_t> base =
          target.hasBase() && offset ? ::mplan::checkedAdd(target.base, *offset)
                                     : std::nullopt;
      std::optional<int64_t> end =
          base && size >= 0 ? ::mplan::checkedAdd(*base, size) : std::nullopt;
      if (base) {
        next.base = *base;
        if (end) {
          next.exact = true;
          next.begin = *base;
          next.end = *end;
        }
      }
      out.push_back(next);
    }
    return out;
  }
  if (auto view = dyn_cast<ViewLikeOpInterface>(owner))
    if (view.getViewSource() == use.get())
      return transferView(owner, to, targets);
  return TargetList(targets.begin(), targets.end());
}

void PointsToAnalysis::visitUse(OpOperand &use) {
  TargetList targets(getTargets(use.get()));
  if (BufferLiveness::getHiddenAccessReason(use, funcOp, &kinds))
    markEscaped(targets);
  forEachPointerFlow(use, funcOp,
                     [&](Value to) { join(to, transfer(use, to, targets)); });
}

void PointsToAnalysis::propagate() {
  while (!worklist.empty()) {
    Value value = worklist.pop_back_val();
    queued.erase(value);
    for (OpOperand &use : value.getUses())
      visitUse(use);
  }
}

void PointsToAnalysis::notifyOpInserted(Operation *op) {
  op->walk<WalkOrder::PreOrder>([&](Operation *nested) { seed(nested); });
  op->walk<WalkOrder::PreOrder>([&](Operation *nested) {
    for (OpOperand &operand : nested->getOpOperands())
      if (isPointer(operand.get()))
        visitUse(operand);
  });
  propagate();
}

void PointsToAnalysis::notifyValueReplaced(Value from, Value to) {
  // After the replacement the users of `from` use `to`: what they compute
  // may point where `to` does, and keeps what it had. Joining `to`'s targets
  // into `from` re-evaluates exactly those users.
  TargetList targets(getTargets(to));
  std::optional<unsigned> place = lookupPlace(from);
  if (!place) {
    // The same targets (a view re-expressed on its root): the users of
    // `from` compute what they did.
    ArrayRef<PointsToTarget> had = getTargets(from);
    if (targetsOf.contains(from) && had.size() == targets.size() &&
        llvm::all_of(targets, [&](const PointsToTarget &target) {
          return llvm::is_contained(had, target);
        }))
      return;
    join(from, targets);
    propagate();
    return;
  }
  widened = true;
  // `from` is an allocation: substitute `to`'s targets for it wherever it is
  // named. Every value derived from it names it, so nothing else changes.
  SmallVector<Value, 2> pointers = std::move(pointersTo[*place]);
  pointersTo[*place].clear();
  for (Value pointer : pointers) {
    auto it = targetsOf.find(pointer);
    if (it == targetsOf.end())
      continue;
    TargetList &list = it->second;
    auto found = llvm::find_if(list, [&](const PointsToTarget &target) {
      return target.place == *place;
    });
    if (found == list.end())
      continue;
    PointsToTarget old = *found;
    list.erase(found);
    TargetList moved;
    for (const PointsToTarget &into : targets) {
      // `to` addresses the bytes `from` had: byte 0 of `from` is the first
      // byte of `to`'s exact range (a view keeps its source's pointer and
      // carries the shift in its layout, so `to`'s base is not that byte).
      PointsToTarget next;
      next.place = into.place;
      if (into.exact) {
        int64_t shift = into.begin;
        std::optional<int64_t> base =
            old.hasBase() ? ::mplan::checkedAdd(shift, old.base) : std::nullopt;
        if (base)
          next.base = *base;
        std::optional<int64_t> begin =
            old.exact ? ::mplan::checkedAdd(shift, old.begin) : std::nullopt;
        std::optional<int64_t> end =
            old.exact ? ::mplan::checkedAdd(shift, old.end) : std::nullopt;
        next.exact = true;
        next.begin = begin && end ? *begin : into.begin;
        next.end = begin && end ? *end : into.end;
      }
      moved.push_back(next);
    }
    bool changed = false;
    for (const PointsToTarget &target : moved) {
      size_t before = list.size();
      joinOne(list, target, changed);
      if (list.size() != before)
        pointersTo[target.place].push_back(pointer);
    }
  }
}

void PointsToAnalysis::notifyOpErased(Operation *op) {
  auto forget = [&](Value value) {
    targetsOf.erase(value);
    queued.erase(value);
    if (auto it = placeOf.find(value); it != placeOf.end()) {
      places[it->second].value = nullptr;
      placeOf.erase(it);
    }
  };
  op->walk([&](Operation *nested) {
    // A use of the op may be what made a place it points into escape.
    for (Value operand : nested->getOperands())
      if (!widened && isPointer(operand))
        for (const PointsToTarget &target : getTargets(operand))
          widened |= places[target.place].escaped;
    for (Value result : nested->getResults())
      forget(result);
    for (Region &region : nested->getRegions())
      for (Block &block : region)
        for (BlockArgument arg : block.getArguments())
          forget(arg);
  });
}

bool PointsToAnalysis::notifyAllocationReplaced(Value from, Value to) {
  auto it = placeOf.find(from);
  if (it == placeOf.end() || from.getType() != to.getType() ||
      placeOf.contains(to) || targetsOf.contains(to))
    return false;
  unsigned id = it->second;
  placeOf.erase(it);
  placeOf[to] = id;
  places[id].value = to;
  auto targets = targetsOf.find(from);
  if (targets != targetsOf.end()) {
    TargetList list = std::move(targets->second);
    targetsOf.erase(targets);
    // The lists of the places it names name it.
    for (const PointsToTarget &target : list)
      llvm::replace(pointersTo[target.place], from, to);
    targetsOf[to] = std::move(list);
  }
  queued.erase(from);
  return true;
}

bool PointsToAnalysis::mayOverlap(const PointsToTarget &a,
                                  const PointsToTarget &b) const {
  using Kind = MemoryPlace::Kind;
  if (a.place == b.place) {
    if (a.exact && b.exact)
      return a.begin < b.end && b.begin < a.end;
    return true;
  }
  const MemoryPlace &pa = places[a.place], &pb = places[b.place];
  if (pa.isAllocation() || pb.isAllocation()) {
    // A fresh allocation is distinct from every other object; only unknown
    // memory may reach one that escaped.
    const MemoryPlace &alloc = pa.isAllocation() ? pa : pb;
    const MemoryPlace &other = pa.isAllocation() ? pb : pa;
    return other.kind == Kind::Unknown && alloc.escaped;
  }
  if (pa.kind == Kind::Global && pb.kind == Kind::Global)
    return false;
  return true;
}

SmallVector<Value> PointsToAnalysis::getPointersTo(unsigned place) const {
  SmallVector<Value> result;
  if (place >= pointersTo.size())
    return result;
  // The list may name values forgotten since (notifyOpErased) or moved to
  // another place (notifyValueReplaced): keep those that point here now.
  llvm::SmallPtrSet<void *, 16> seen;
  for (Value value : pointersTo[place]) {
    auto targets = targetsOf.find(value);
    if (targets == targetsOf.end() ||
        !llvm::any_of(targets->second,
                      [&](const PointsToTarget &target) {
                        return target.place == place;
                      }) ||
        !seen.insert(value.getAsOpaquePointer()).second)
      continue;
    result.push_back(value);
  }
  return result;
}

bool PointsToAnalysis::mayAlias(Value a, Value b) const {
  for (const PointsToTarget &x : getTargets(a))
    for (const PointsToTarget &y : getTargets(b))
      if (mayOverlap(x, y))
        return true;
  return false;
}

bool PointsToAnalysis::mayPointOutsideLocals(Value value) const {
  for (const PointsToTarget &target : getTargets(value)) {
    const MemoryPlace &place = places[target.place];
    if (!place.isAllocation() || place.escaped)
      return true;
  }
  return false;
}

bool PointsToAnalysis::mayPointInto(Value value, unsigned place) const {
  PointsToTarget whole;
  whole.place = place;
  for (const PointsToTarget &target : getTargets(value))
    if (mayOverlap(target, whole))
      return true;
  return false;
}

std::optional<unsigned> PointsToAnalysis::getOnlyAllocation(Value value) const {
  ArrayRef<PointsToTarget> targets = getTargets(value);
  if (targets.size() != 1 || !places[targets.front().place].isAllocation())
    return std::nullopt;
  return targets.front().place;
}
