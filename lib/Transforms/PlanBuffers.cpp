//===- PlanBuffers.cpp - Place every buffer of a function in one slab -----===//

#include "mplan/Transforms/PlanBuffers.h"
#include "mplan/Analysis/EntryValues.h"
#include "mplan/Analysis/PlanAnalyses.h"
#include "mplan/Analysis/PointsTo.h"
#include "mplan/Analysis/UpperBounds.h"
#include "mplan/Dialect/MPlan/IR/MPlanOps.h"
#include "mplan/Support/Planner.h"
#include "mplan/Transforms/OptionErrors.h"
#include "mplan/Transforms/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/Matchers.h"
#include "mlir/Interfaces/DestinationStyleOpInterface.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "mlir/Interfaces/ViewLikeInterface.h"
#include "mlir/Support/FileUtilities.h"
#include "mplan/Support/CheckedMath.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringSwitch.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/MathExtras.h"
#include "llvm/Support/ToolOutputFile.h"

#include <numeric>

namespace mlir {
namespace mplan {
#define GEN_PASS_DEF_MPLANPLANBUFFERS
#include "mplan/Transforms/Passes.h.inc"
} // namespace mplan
} // namespace mlir

using namespace mlir;
using namespace mlir::mplan;

static std::string formatLoc(Location loc) {
  std::string text;
  llvm::raw_string_ostream os(text);
  if (auto fileLoc = dyn_cast<FileLineColLoc>(loc))
    os << fileLoc.getFilename().getValue() << ":" << fileLoc.getLine() << ":"
       << fileLoc.getColumn();
  else if (auto nameLoc = dyn_cast<NameLoc>(loc))
    os << nameLoc.getName().getValue();
  else if (auto fused = dyn_cast<FusedLoc>(loc);
           fused && !fused.getLocations().empty())
    return formatLoc(fused.getLocations().front());
  else
    loc.print(os);
  return text;
}

/// Checks the options of `pass` (mplan-plan-buffers or a pass that runs it),
/// with an error about the first invalid one.
static LogicalResult verifyOptions(Operation *anchor, StringRef pass,
                                   const MPlanPlanBuffersOptions &options) {
  auto error = [&](StringRef option, const Twine &message) {
    return emitOptionError(anchor, pass, option, message);
  };
  if (!llvm::is_contained(::mplan::strategyNames(), options.strategy))
    return error("strategy", "unknown strategy '" + options.strategy +
                                 "'; expected one of: " +
                                 llvm::join(::mplan::strategyNames(), " "));
  if (!(options.timeLimit >= 0))
    return error("time-limit", "must be a non-negative number of seconds, "
                               "got " +
                                   llvm::formatv("{0}", options.timeLimit));
  if (options.alignment <= 0 || !llvm::isPowerOf2_64(options.alignment))
    return error("alignment", "must be a positive power of two, got " +
                                  Twine(options.alignment));
  if (options.stagger < 0 || options.stagger % options.alignment != 0)
    return error("stagger", "must be a non-negative multiple of "
                            "'alignment' (" +
                                Twine(options.alignment) + "), got " +
                                Twine(options.stagger));
  return parseCapacities([&] { return error("capacity", ""); },
                         options.capacity);
}

namespace {
struct MPlanPlanBuffersPass
    : public mlir::mplan::impl::MPlanPlanBuffersBase<MPlanPlanBuffersPass> {
  using Base::Base;

  void runOnOperation() override {
    if (failed(planModule(
            getOperation(), getArgument(),
            {strategy, timeLimit, alignment, reportPath, stagger,
             SmallVector<std::string>(capacity.begin(), capacity.end())})))
      signalPassFailure();
  }
};
} // namespace

bool mlir::mplan::addToCounterAttr(func::FuncOp func, StringRef name,
                                   int64_t delta) {
  if (delta == 0)
    return false;
  int64_t old = 0;
  if (auto attr = func->getAttrOfType<IntegerAttr>(name))
    old = attr.getInt();
  func->setAttr(name, IntegerAttr::get(IntegerType::get(func.getContext(), 64),
                                       old + delta));
  return true;
}

std::string mlir::mplan::formatMemorySpace(Attribute space) {
  std::string text;
  llvm::raw_string_ostream os(text);
  if (auto integer = dyn_cast_if_present<IntegerAttr>(space))
    os << integer.getValue();
  else if (space)
    space.print(os);
  return text;
}

/// Fails with an error at `op`, a planner buffer, if the analysis gives a
/// reason not to plan it.
static LogicalResult checkPlannable(Operation *op,
                                    const BufferLiveness &liveness) {
  if (std::optional<std::string> reason =
          liveness.getUnplannableReason(op->getResult(0)))
    return op->emitOpError("cannot be planned: ") << *reason;
  // Its slab's release frees a planned buffer (mplan-capture-buffers erases
  // the deallocations of the buffers it captures, and of those it finds).
  if (liveness.mayBeDeallocated(op->getResult(0)))
    return op->emitOpError(
        "cannot be planned: it is deallocated, and a planned "
        "buffer is freed by its slab's release "
        "(mplan-capture-buffers erases its deallocations)");
  return success();
}

FailureOr<::mplan::Plan> mlir::mplan::runPlanner(
    func::FuncOp func, const std::vector<::mplan::Buffer> &buffers,
    const MPlanPlanBuffersOptions &options, int64_t capacity) {
  ::mplan::PlanOptions planOptions;
  planOptions.strategy = options.strategy;
  planOptions.timeLimitSeconds = options.timeLimit;
  planOptions.alignment = options.alignment;
  planOptions.stagger = options.stagger;
  planOptions.capacity = capacity;
  ::mplan::Expected<::mplan::Plan> plan =
      ::mplan::planBuffers(buffers, planOptions);
  if (!plan)
    return mlir::emitError(func.getLoc(), "memory planning failed: ")
           << plan.error();
  return std::move(*plan);
}

FailureOr<SmallVector<SlabBuffers>> mlir::mplan::collectSlabBuffers(
    func::FuncOp func, const BufferLiveness &liveness, int64_t alignment) {
  // One slab per memory space: buffers of different spaces never share one.
  SmallVector<SlabBuffers> slabs;
  llvm::DenseMap<Attribute, unsigned> slabOf;
  // The liveness's roots are every allocation of the function: no walk.
  for (Value root : liveness.getRootsInProgramOrder()) {
    auto op = root.getDefiningOp<AllocTensorOp>();
    if (!op || op.isPlanned())
      continue;
    if (failed(checkPlannable(op, liveness)))
      return failure();
    Attribute space = op.getType().getMemorySpace();
    auto [it, inserted] = slabOf.try_emplace(space, slabs.size());
    if (inserted) {
      slabs.emplace_back();
      slabs.back().memorySpace = space;
      slabs.back().alignment = alignment;
    }
    SlabBuffers &slab = slabs[it->second];
    LiveRange range = liveness.getLiveRange(op.getResult());
    ::mplan::Buffer buffer;
    buffer.id = op.getId();
    buffer.start = range.start;
    buffer.end = range.end;
    buffer.size = *op.getByteSize();
    // Whatever the options say, every buffer is aligned for its elements.
    buffer.alignment = std::max<int64_t>(
        op.getAlignment().value_or(1),
        getElementLayout(op.getType().getElementType())->alignment);
    // The slab is aligned for its most aligned buffer (One-Shot Bufferize's
    // `buffer-alignment` or an element's ABI alignment may exceed the pass's
    // `alignment`); the option still pads every buffer.
    slab.alignment = std::max(slab.alignment, buffer.alignment);
    slab.ops.push_back(op);
    slab.buffers.push_back(buffer);
  }
  return slabs;
}

FailureOr<SmallVector<std::pair<std::string, std::optional<int64_t>>>>
mlir::mplan::computeSpaceBounds(func::FuncOp func,
                                const BufferLiveness &liveness,
                                int64_t alignment) {
  FailureOr<SmallVector<SlabBuffers>> slabs =
      collectSlabBuffers(func, liveness, alignment);
  if (failed(slabs))
    return failure();
  SmallVector<std::pair<std::string, std::optional<int64_t>>> bounds;
  for (const SlabBuffers &slab : *slabs)
    bounds.emplace_back(formatMemorySpace(slab.memorySpace),
                        ::mplan::lowerBound(slab.buffers, alignment));
  return bounds;
}

std::optional<int64_t> mlir::mplan::recordProgramOrderBound(
    func::FuncOp func, const BufferLiveness &liveness, int64_t alignment) {
  if (auto recorded =
          func->getAttrOfType<IntegerAttr>(kLowerBoundProgramOrderAttr))
    return recorded.getInt();
  FailureOr<SmallVector<SlabBuffers>> slabs =
      collectSlabBuffers(func, liveness, alignment);
  if (failed(slabs))
    return std::nullopt;
  return recordProgramOrderBound(func, *slabs, alignment);
}

std::optional<int64_t> mlir::mplan::recordProgramOrderBound(
    func::FuncOp func, ArrayRef<SlabBuffers> slabs, int64_t alignment) {
  if (auto recorded =
          func->getAttrOfType<IntegerAttr>(kLowerBoundProgramOrderAttr))
    return recorded.getInt();
  std::optional<int64_t> bound = 0;
  for (const SlabBuffers &slab : slabs)
    if (!slab.memorySpace)
      bound = ::mplan::lowerBound(slab.buffers, alignment);
  if (bound)
    func->setAttr(
        kLowerBoundProgramOrderAttr,
        IntegerAttr::get(IntegerType::get(func.getContext(), 64), *bound));
  return bound;
}

std::optional<std::string> mlir::mplan::parseMemorySpaceKey(StringRef space) {
  if (space == "default")
    return std::string();
  if (llvm::is_contained({"global", "workgroup", "private"}, space))
    return ("#gpu.address_space<" + space + ">").str();
  APInt value;
  if (space.empty() || space.getAsInteger(10, value) || value.isNegative() ||
      value.getActiveBits() > 63)
    return std::nullopt;
  return value.isZero() ? std::string() : std::to_string(value.getZExtValue());
}

FailureOr<llvm::StringMap<int64_t>>
mlir::mplan::parseCapacities(function_ref<OptionError()> emitError,
                             ArrayRef<std::string> specs) {
  llvm::StringMap<int64_t> capacities;
  for (StringRef spec : specs) {
    auto [space, bytes] = spec.rsplit(':');
    std::optional<std::string> key = parseMemorySpaceKey(space.trim());
    int64_t value = 0;
    if (!spec.contains(':') || !key)
      return emitError()
             << "entry '" << spec
             << "': expected SPACE:BYTES with SPACE 'default', an integer "
                "memory space, or one of global, workgroup, private";
    if (bytes.trim().getAsInteger(10, value) || value <= 0)
      return emitError() << "entry '" << spec
                         << "': BYTES must be a positive 64-bit integer";
    if (!capacities.try_emplace(*key, value).second)
      return emitError() << "entry '" << spec << "': memory space '"
                         << space.trim() << "' has a capacity already";
  }
  return capacities;
}

/// The buffers of `slab` live at the point where the most bytes are live, as
/// a note-ready list (largest first, at most `limit`).
static std::string describePeak(const SlabBuffers &slab, size_t limit = 8) {
  // Sweep the starts and ends in time order; ends before starts at a tie.
  SmallVector<std::pair<int64_t, int64_t>> events; // (time, +-size)
  for (const ::mplan::Buffer &buffer : slab.buffers) {
    events.push_back({buffer.start, buffer.size});
    events.push_back({buffer.end, -buffer.size});
  }
  llvm::sort(events);
  int64_t live = 0, best = -1, when = 0;
  for (auto [time, delta] : events) {
    live += delta;
    if (live > best) {
      best = live;
      when = time;
    }
  }
  SmallVector<size_t> atPeak;
  for (auto [i, buffer] : llvm::enumerate(slab.buffers))
    if (buffer.start <= when && when < buffer.end)
      atPeak.push_back(i);
  llvm::sort(atPeak, [&](size_t a, size_t b) {
    return slab.buffers[a].size > slab.buffers[b].size;
  });
  std::string text;
  llvm::raw_string_ostream os(text);
  os << atPeak.size() << " buffers live at op " << when << ":";
  for (size_t i : ArrayRef<size_t>(atPeak).take_front(limit)) {
    AllocTensorOp op = slab.ops[i];
    os << " id " << slab.buffers[i].id << " (" << slab.buffers[i].size << " B, "
       << formatLoc(op.getLoc()) << ")";
  }
  if (atPeak.size() > limit)
    os << " ...";
  return text;
}

/// The op floor of `slab`: the most bytes of its buffers one op touches
/// itself (the planned buffers its memref operands and results
/// surely point into: the points-to analysis names one allocation), and the
/// op. Every plan of every order keeps those buffers live at once, so no
/// reordering, recomputation or offload brings the space below it; only
/// tiling the op does. Operands an op declares no read or write on (views,
/// allocations, frees) do not count; an op without declared effects touches
/// every memref operand. With `alignment` > 1 sizes are padded as
/// ::mplan::lowerBound pads them (a size that overflows counts as the largest
/// int64: no bound is below it).
std::pair<int64_t, Operation *> mlir::mplan::computeOpFloor(
    const SlabBuffers &slab, const PointsToAnalysis &pointsTo,
    const BufferLiveness &liveness, int64_t alignment, int64_t enough) {
  DenseMap<unsigned, int64_t> sizeOfPlace;
  for (auto [i, buffer] : llvm::enumerate(slab.buffers)) {
    AllocTensorOp op = slab.ops[i];
    std::optional<int64_t> size =
        alignment > 1 ? ::mplan::alignTo(buffer.size,
                                         std::max(buffer.alignment, alignment))
                      : std::optional<int64_t>(buffer.size);
    if (std::optional<unsigned> place = pointsTo.lookupPlace(op.getResult()))
      sizeOfPlace[*place] = size.value_or(std::numeric_limits<int64_t>::max());
  }
  std::pair<int64_t, Operation *> floor = {0, nullptr};
  // Only an op that defines or uses an alias of a buffer of the slab touches
  // one (the liveness's alias lists: no walk of the function).
  llvm::SmallPtrSet<Operation *, 32> visited;
  auto visit = [&](Operation *op) {
    if (!visited.insert(op).second || isa<ViewLikeOpInterface>(op))
      return;
    SmallVector<Value> touched;
    // A destination-style op (linalg, ...) reads its inputs and writes its
    // inits: its memref operands, without listing its effects (costly for
    // linalg ops).
    if (isa<DestinationStyleOpInterface>(op)) {
      for (Value operand : op->getOperands())
        if (isa<BaseMemRefType>(operand.getType()))
          touched.push_back(operand);
    } else if (auto effects = dyn_cast<MemoryEffectOpInterface>(op)) {
      SmallVector<MemoryEffects::EffectInstance> instances;
      effects.getEffects(instances);
      for (const MemoryEffects::EffectInstance &effect : instances)
        if (isa<MemoryEffects::Read, MemoryEffects::Write>(
                effect.getEffect()) &&
            effect.getValue())
          touched.push_back(effect.getValue());
    } else {
      for (Value operand : op->getOperands())
        if (isa<BaseMemRefType>(operand.getType()))
          touched.push_back(operand);
    }
    llvm::SmallDenseSet<unsigned> places;
    int64_t bytes = 0;
    for (Value value : touched) {
      std::optional<unsigned> place = pointsTo.getOnlyAllocation(value);
      if (!place || !places.insert(*place).second)
        continue;
      auto it = sizeOfPlace.find(*place);
      if (it != sizeOfPlace.end())
        bytes = ::mplan::checkedAdd(bytes, it->second)
                    .value_or(std::numeric_limits<int64_t>::max());
    }
    // Among equals the first in post-order (an op before the ops it is
    // nested in): the innermost op, the one tiling would split.
    auto isFirst = [&](Operation *other) {
      if (other->isAncestor(op))
        return true;
      if (op->isAncestor(other))
        return false;
      return liveness.isBefore(op, other);
    };
    if (bytes > floor.first ||
        (bytes == floor.first && bytes > 0 && isFirst(floor.second)))
      floor = {bytes, op};
  };
  for (AllocTensorOp op : slab.ops)
    for (Value alias : liveness.getAliases(op.getResult())) {
      if (Operation *def = alias.getDefiningOp())
        visit(def);
      for (Operation *user : alias.getUsers())
        visit(user);
      if (floor.first >= enough)
        return floor;
    }
  return floor;
}

/// The return-like terminators of the blocks of `func`'s body.
static SmallVector<Operation *> getReturns(func::FuncOp func) {
  SmallVector<Operation *> returns;
  for (Block &block : func.getBody())
    if (block.getTerminator()->hasTrait<OpTrait::ReturnLike>())
      returns.push_back(block.getTerminator());
  return returns;
}

/// Creates a slab of `size` bytes at the top of `func`, released before every
/// return.
static AllocSlabOp createSlab(func::FuncOp func, int64_t size,
                              int64_t alignment, Attribute memorySpace) {
  MLIRContext *ctx = func.getContext();
  OpBuilder builder(ctx);
  builder.setInsertionPointToStart(&func.getBody().front());
  auto slab = AllocSlabOp::create(
      builder, func.getLoc(), SlabType::get(ctx, size, alignment, memorySpace),
      /*capacity=*/IntegerAttr());
  for (Operation *terminator : getReturns(func)) {
    builder.setInsertionPoint(terminator);
    ReleaseSlabOp::create(builder, terminator->getLoc(), slab.getResult());
  }
  return slab;
}

/// Plans `slab`, the unplanned buffers of `func` in one memory space, into
/// one new slab of that space and fills `report`. `capacity` (0: none) is
/// the most bytes the space may take; `analyses` name the op floor when the
/// space does not fit it.
static FailureOr<AllocSlabOp> planSlab(func::FuncOp func,
                                       const SlabBuffers &slab,
                                       const MPlanPlanBuffersOptions &options,
                                       int64_t capacity, SlabPlanReport &report,
                                       PlanAnalyses &analyses) {
  report.memorySpace = formatMemorySpace(slab.memorySpace);
  report.strategy = options.strategy;
  const std::vector<::mplan::Buffer> &buffers = slab.buffers;

  FailureOr<::mplan::Plan> plan = runPlanner(func, buffers, options, capacity);
  if (failed(plan))
    return failure();
  if (capacity > 0 && plan->arenaSize > capacity) {
    // At the function's location, not on the op: the error and its notes,
    // without the function printed after them.
    InFlightDiagnostic diag =
        mlir::emitError(func.getLoc(), "memory space '")
        << (report.memorySpace.empty() ? "default" : report.memorySpace)
        << "' of function '" << func.getSymName() << "' needs "
        << plan->arenaSize << " bytes (strategy " << plan->strategy
        << "), above its capacity of " << capacity
        << " bytes; the max-live lower bound is " << plan->lowerBound
        << " bytes";
    std::string key =
        report.memorySpace.empty() ? "default" : report.memorySpace;
    if (auto before =
            func->getAttrOfType<DictionaryAttr>(kBoundsBeforeSplitsAttr))
      if (auto bound = before.getAs<IntegerAttr>(key))
        diag << " (" << bound.getInt()
             << " before rematerialization and offload)";
    diag.attachNote() << describePeak(slab);
    if (auto limit = func->getAttrOfType<IntegerAttr>(kSplitWorkLimitAttr))
      diag.attachNote(func.getLoc())
          << "rematerialization and offload stopped at their work budget of "
          << limit.getInt()
          << " steps (a budget, not seconds, so that the plan does not depend "
             "on the machine's load): more splits might meet the capacity";
    // Why the levers could not split the buffers live at the peak.
    if (auto unsplit = func->getAttrOfType<ArrayAttr>(kUnsplitAttr))
      for (auto entry : unsplit.getAsRange<DictionaryAttr>()) {
        auto id = entry.getAs<IntegerAttr>("buffer");
        auto at = entry.getAs<LocationAttr>("at");
        auto why = entry.getAs<StringAttr>("why");
        if (id && at && why)
          diag.attachNote(Location(at)) << "buffer " << id.getInt()
                                        << " is not split: " << why.getValue();
      }
    auto [floor, floorOp] =
        computeOpFloor(slab, analyses.getPointsTo(), analyses.getLiveness());
    if (floorOp) {
      Diagnostic &note = diag.attachNote(floorOp->getLoc());
      note << "the op floor is " << floor
           << " bytes: this op touches that many bytes of the space's "
              "planned buffers at once, which no order, recomputation or "
              "offload goes below";
      if (capacity < floor)
        note << "; a capacity below it needs the op tiled";
    }
    return diag;
  }
  if (std::optional<std::string> error = ::mplan::validatePlan(
          buffers, plan->offsets, plan->arenaSize, options.alignment))
    return mlir::emitError(func.getLoc(),
                           "the planner returned an invalid plan: ")
           << *error;

  if (capacity > 0) {
    report.capacityBytes = capacity;
    report.opFloorBytes =
        computeOpFloor(slab, analyses.getPointsTo(), analyses.getLiveness())
            .first;
    if (auto before =
            func->getAttrOfType<DictionaryAttr>(kBoundsBeforeSplitsAttr))
      if (auto bound = before.getAs<IntegerAttr>(
              report.memorySpace.empty() ? "default" : report.memorySpace))
        report.boundBeforeSplits = bound.getInt();
  }
  report.strategy = plan->strategy;
  report.arenaBytes = plan->arenaSize;
  report.lowerBoundBytes = plan->lowerBound;
  report.staggerBytes = plan->staggerBytes;

  OpBuilder builder(func.getContext());
  AllocSlabOp slabOp =
      createSlab(func, plan->arenaSize, slab.alignment, slab.memorySpace);
  // What the lowering checks callee arenas nested in this one against.
  if (capacity > 0)
    slabOp.setCapacityAttr(builder.getI64IntegerAttr(capacity));
  Value slabValue = slabOp.getResult();

  // Offsets repeat, and so do range bounds: the context's attribute uniquer
  // is asked once per value, not three times per buffer (a lookup there
  // costs far more than one in a local map).
  llvm::DenseMap<int64_t, IntegerAttr> i64Attrs;
  auto getI64Attr = [&](int64_t value) {
    IntegerAttr &attr = i64Attrs[value];
    if (!attr)
      attr = builder.getI64IntegerAttr(value);
    return attr;
  };
  for (auto [constOp, buffer, offset] :
       llvm::zip_equal(slab.ops, buffers, plan->offsets)) {
    AllocTensorOp op = constOp;
    // Planned in place (the slab is the op's only, optional, operand): no
    // new op, no use replacement, no erasure.
    op->insertOperands(0, slabValue);
    op.setStartAttr(getI64Attr(buffer.start));
    op.setEndAttr(getI64Attr(buffer.end));
    op.setOffsetAttr(getI64Attr(offset));
    // The report's entries are only written to a report file.
    if (options.reportPath.empty())
      continue;
    std::string bound;
    if (auto source = dyn_cast_if_present<StringAttr>(
            op->getDiscardableAttr(kBoundSourceAttr)))
      bound = source.str();
    report.buffers.push_back({buffer.id, buffer.start, buffer.end, buffer.size,
                              offset, formatLoc(op.getLoc()), bound});
  }
  return slabOp;
}

/// The byte size of `op`'s buffer when every dynamic dimension is `hint`,
/// saturating at 2^48.
static int64_t getSizeAtHint(AllocDynamicOp op, int64_t hint) {
  constexpr int64_t kMax = int64_t(1) << 48;
  int64_t size = std::min(*op.getStaticByteFactor(), kMax);
  for (size_t i = 0, e = op.getSizes().size(); i < e; ++i) {
    std::optional<int64_t> next = ::mplan::checkedMul(size, hint);
    size = next && *next <= kMax ? *next : kMax;
  }
  return size;
}

/// `value`, an index computed from the function's arguments, as the report
/// prints it: `%argN`, `dim(%argN, D)`, constants and arithmetic; deeper or
/// other computations print as the op's name.
static std::string describeValue(Value value, unsigned depth = 0) {
  if (auto arg = dyn_cast<BlockArgument>(value))
    return "%arg" + std::to_string(arg.getArgNumber());
  Operation *op = value.getDefiningOp();
  APInt constant;
  if (matchPattern(value, m_ConstantInt(&constant)))
    return std::to_string(constant.getSExtValue());
  if (depth < 4) {
    if (isa<memref::DimOp, tensor::DimOp>(op))
      return "dim(" + describeValue(op->getOperand(0), depth + 1) + ", " +
             describeValue(op->getOperand(1), depth + 1) + ")";
    StringRef symbol =
        llvm::StringSwitch<StringRef>(op->getName().getStringRef())
            .Case("arith.addi", " + ")
            .Case("arith.subi", " - ")
            .Case("arith.muli", " * ")
            .Case("arith.divui", " / ")
            .Case("arith.divsi", " / ")
            .Case("arith.ceildivui", " ceildiv ")
            .Case("arith.ceildivsi", " ceildiv ")
            .Default("");
    if (!symbol.empty())
      return "(" + describeValue(op->getOperand(0), depth + 1) + symbol.str() +
             describeValue(op->getOperand(1), depth + 1) + ")";
    if (op->getNumOperands() == 1 &&
        isa<arith::IndexCastOp, arith::IndexCastUIOp>(op))
      return describeValue(op->getOperand(0), depth + 1);
  }
  return op->getName().getStringRef().str() + "(...)";
}

/// The byte size of `op`'s buffer as the report prints it: the element size
/// and static dimensions folded into one factor, times each dynamic size.
static std::string describeSize(AllocDynamicOp op) {
  std::string text = std::to_string(*op.getStaticByteFactor());
  for (Value size : op.getSizes())
    text += " * " + describeValue(size);
  return text;
}

/// The `above` lists of a symbolic plan, as ranks in `order` (`buffers`
/// sorted by their offsets in a plan): each buffer is above the lower-ranked
/// buffers live at the same time, transitively reduced. A buffer that a kept
/// entry is already above, directly or through others, ends at or below
/// that entry's offset at any sizes, so dropping it changes no offset; the
/// reduction keeps the plan's arithmetic linear when many run-time sized
/// buffers are live at once (1,500 of them gave 1.1M `arith.maxui` in
/// convert-mplan-to-memref with every pair listed). Each list is in
/// ascending rank; O(n^2) time in the worst case, O(n) extra memory.
static SmallVector<SmallVector<unsigned>>
reduceAbove(ArrayRef<::mplan::Buffer> buffers, ArrayRef<unsigned> order) {
  SmallVector<SmallVector<unsigned>> belowRanks(order.size());
  // reachedAt[r] == rank: r is below a kept entry of the buffer at `rank`.
  SmallVector<unsigned> reachedAt(order.size(), ~0u);
  SmallVector<unsigned> candidates, stack;
  for (auto [rank, index] : llvm::enumerate(order)) {
    const ::mplan::Buffer &buffer = buffers[index];
    candidates.clear();
    for (unsigned lower = 0; lower < rank; ++lower) {
      const ::mplan::Buffer &other = buffers[order[lower]];
      if (other.start < buffer.end && buffer.start < other.end)
        candidates.push_back(lower);
    }
    // Highest rank first: entries only point to lower ranks, so a candidate
    // can only be reached from one ranked above it; nothing below the
    // lowest candidate needs to be visited.
    SmallVector<unsigned> &kept = belowRanks[rank];
    for (unsigned candidate : llvm::reverse(candidates)) {
      if (reachedAt[candidate] == rank)
        continue;
      kept.push_back(candidate);
      stack.push_back(candidate);
      while (!stack.empty())
        for (unsigned deeper : belowRanks[stack.pop_back_val()])
          if (deeper >= candidates.front() && reachedAt[deeper] != rank) {
            reachedAt[deeper] = rank;
            stack.push_back(deeper);
          }
    }
    std::reverse(kept.begin(), kept.end());
  }
  return belowRanks;
}

/// Gives each run-time sized buffer of `ops` (in the default memory space of
/// `func`, which has a capacity of `capacity` bytes) its own allocation
/// outside the slab, where it cannot push the slab past the capacity at run
/// time: a `memref.alloc` of its sizes (recomputed there) at the start of the
/// function, freed before every return, marked unplanned with the reason and
/// listed in the report's `unmanaged`.
static void allocateOutsideSlab(func::FuncOp func, ArrayRef<AllocDynamicOp> ops,
                                int64_t capacity, FunctionPlanReport &report) {
  std::string reason =
      "run-time sized in memory space 'default', which has a capacity of " +
      std::to_string(capacity) +
      " bytes: allocated on its own (memref.alloc at the function's start, "
      "freed at its returns), outside the capped slab";
  // The builder inserts before the entry block's first op, which may be one
  // of `ops`: they are erased only once every allocation exists.
  OpBuilder builder = OpBuilder::atBlockBegin(&func.getBody().front());
  IRMapping mapping;
  SmallVector<memref::AllocOp> allocs;
  for (AllocDynamicOp op : ops) {
    SmallVector<Value> sizes = cloneAtEntry(builder, op.getSizes(), mapping);
    std::optional<int64_t> alignment = op.getAlignment();
    auto alloc = memref::AllocOp::create(
        builder, op.getLoc(), op.getMemref().getType(), sizes,
        alignment ? builder.getI64IntegerAttr(*alignment) : IntegerAttr());
    alloc->setAttr(BufferLiveness::kUnplannedAttr,
                   builder.getStringAttr(reason));
    op.getMemref().replaceAllUsesWith(alloc.getResult());
    allocs.push_back(alloc);
    report.unmanaged.emplace_back(formatLoc(alloc.getLoc()), reason);
  }
  for (AllocDynamicOp op : ops)
    op.erase();
  for (Operation *terminator : getReturns(func)) {
    builder.setInsertionPoint(terminator);
    for (memref::AllocOp alloc : allocs)
      memref::DeallocOp::create(builder, terminator->getLoc(), alloc);
  }
}

/// Plans the run-time sized buffers of `func` (unplanned mplan.alloc_dynamic
/// ops) into its default-space slab `slab` (created if null): their sizes
/// are recomputed right before the slab, and a symbolic plan orders every two
/// of them that are live at the same time. The order is that of their
/// offsets in a plan of the sizes they have when every dynamic dimension is
/// kDynamicSizeHint, so at those sizes the symbolic plan is at most that
/// plan's arena; at any sizes it is valid. If the default space has a
/// `capacity` (bytes; 0: none), they get their own allocations instead
/// (allocateOutsideSlab).
static LogicalResult planDynamicBuffers(func::FuncOp func,
                                        const BufferLiveness &liveness,
                                        const MPlanPlanBuffersOptions &options,
                                        AllocSlabOp slab, int64_t capacity,
                                        FunctionPlanReport &report) {
  SmallVector<AllocDynamicOp> ops;
  for (Value root : liveness.getRootsInProgramOrder()) {
    auto op = root.getDefiningOp<AllocDynamicOp>();
    if (!op || op.isPlanned())
      continue;
    if (failed(checkPlannable(op, liveness)))
      return failure();
    if (op.getMemref().getType().getMemorySpace())
      return op.emitOpError("cannot be planned: run-time sized buffers are "
                            "planned in the default memory space only");
    for (Value size : op.getSizes())
      if (std::optional<std::string> reason =
              getEntryComputeReason(size, func.getBody()))
        return op.emitOpError("cannot be planned: a size is not computable "
                              "where the function starts (")
               << *reason << ")";
    ops.push_back(op);
  }
  if (ops.empty())
    return success();
  if (capacity > 0) {
    allocateOutsideSlab(func, ops, capacity, report);
    return success();
  }

  // The order: the planner's plan at the hinted sizes.
  std::vector<::mplan::Buffer> buffers;
  SmallVector<int64_t> alignments;
  int64_t slabAlignment = options.alignment;
  for (AllocDynamicOp op : ops) {
    LiveRange range = liveness.getLiveRange(op.getResult());
    int64_t alignment =
        std::max<int64_t>(op.getEffectiveAlignment(), options.alignment);
    alignments.push_back(alignment);
    slabAlignment = std::max(slabAlignment, alignment);
    ::mplan::Buffer buffer;
    buffer.id = op.getId();
    buffer.start = range.start;
    buffer.end = range.end;
    buffer.size = getSizeAtHint(op, kDynamicSizeHint);
    buffer.alignment = alignment;
    buffers.push_back(buffer);
  }
  // No stagger: the order is all that is kept of this plan.
  MPlanPlanBuffersOptions orderOptions = options;
  orderOptions.stagger = 0;
  FailureOr<::mplan::Plan> plan =
      runPlanner(func, buffers, orderOptions, /*capacity=*/0);
  if (failed(plan))
    return failure();
  SmallVector<unsigned> order(ops.size());
  std::iota(order.begin(), order.end(), 0u);
  llvm::stable_sort(order, [&](unsigned a, unsigned b) {
    return plan->offsets[a] < plan->offsets[b];
  });

  MLIRContext *ctx = func.getContext();
  if (!slab)
    slab = createSlab(func, 0, slabAlignment, Attribute());
  SlabType slabType = slab.getType();
  if (slabType.getAlignment() < slabAlignment)
    slab.getResult().setType(SlabType::get(
        ctx, slabType.getSize(), slabAlignment, slabType.getMemorySpace()));

  // Sizes are recomputed right before the slab; the symbolic plan and the
  // arena at the hinted sizes (which follow it exactly) go to the report.
  OpBuilder builder(ctx);
  builder.setInsertionPoint(slab);
  IRMapping mapping;
  SmallVector<int64_t> offsetsAtHint(ops.size());
  int64_t arenaAtHint = slab.getType().getSize();
  SmallVector<std::string> ends;
  SmallVector<SmallVector<unsigned>> belowRanks = reduceAbove(buffers, order);
  for (auto [rank, index] : llvm::enumerate(order)) {
    AllocDynamicOp op = ops[index];
    LiveRange range = liveness.getLiveRange(op.getResult());
    SmallVector<int64_t> above;
    int64_t offset = slab.getType().getSize();
    for (unsigned lower : belowRanks[rank]) {
      unsigned earlier = order[lower];
      above.push_back(ops[earlier].getId());
      offset = std::max(offset, offsetsAtHint[earlier] + buffers[earlier].size);
    }
    offsetsAtHint[index] = llvm::alignTo(offset, alignments[index]);
    arenaAtHint =
        std::max(arenaAtHint, offsetsAtHint[index] + buffers[index].size);
    std::string size = describeSize(op);
    op.getSizesMutable().assign(cloneAtEntry(builder, op.getSizes(), mapping));
    op.getSlabMutable().assign(slab.getResult());
    op.setAboveAttr(builder.getDenseI64ArrayAttr(above));
    op.setStartAttr(builder.getI64IntegerAttr(range.start));
    op.setEndAttr(builder.getI64IntegerAttr(range.end));
    op.setAlignmentAttr(builder.getI64IntegerAttr(alignments[index]));
    report.dynamicBuffers.push_back(
        {op.getId(), range.start, range.end, alignments[index],
         formatLoc(op.getLoc()), size,
         std::vector<int64_t>(above.begin(), above.end())});
    ends.push_back("end(" + std::to_string(op.getId()) + ")");
  }
  report.dynamicArena = "max(" + std::to_string(slab.getType().getSize()) +
                        ", " + llvm::join(ends, ", ") + ")";
  report.arenaBytesAtHint = arenaAtHint;
  return success();
}

LogicalResult mlir::mplan::planBuffersInFunction(
    func::FuncOp func, const MPlanPlanBuffersOptions &options,
    FunctionPlanReport &report, PlanAnalyses *analyses) {
  report.name = func.getSymName().str();
  for (StringRef key : {"views_removed", "views_canonicalized",
                        "copies_removed", "copy_bytes_avoided"}) {
    auto count = func->getAttrOfType<IntegerAttr>(("mplan." + key).str());
    report.viewCopyCounts.emplace_back(key.str(), count ? count.getInt() : 0);
  }
  report.defaultSpace.strategy = options.strategy;
  if (auto bound =
          func->getAttrOfType<IntegerAttr>(kLowerBoundProgramOrderAttr))
    report.lowerBoundProgramOrder = bound.getInt();
  report.sequenceOptimal = func->hasAttr(kSequenceOptimalAttr);
  if (auto kept = func->getAttrOfType<StringAttr>(kSequenceKeptBecauseAttr))
    report.sequenceKeptBecause = kept.str();
  // Each merge's entry (a formatted location) is only written to a report
  // file.
  auto merges = options.reportPath.empty()
                    ? ArrayAttr()
                    : func->getAttrOfType<ArrayAttr>("mplan.inplace");
  if (merges)
    for (auto merge : merges.getAsRange<DictionaryAttr>()) {
      auto id = merge.getAs<IntegerAttr>("buffer");
      auto reusedBy = merge.getAs<IntegerAttr>("reused_by");
      auto loc = merge.getAs<LocationAttr>("at");
      if (id && reusedBy && loc)
        report.inplace.push_back(
            {id.getInt(), reusedBy.getInt(), formatLoc(Location(loc))});
    }
  if (auto splits = func->getAttrOfType<ArrayAttr>(kSplitsAttr))
    for (auto split : splits.getAsRange<DictionaryAttr>()) {
      FunctionPlanReport::SplitEntry entry;
      auto integer = [&](StringRef key) -> int64_t {
        auto value = split.getAs<IntegerAttr>(key);
        return value ? value.getInt() : 0;
      };
      auto loc = [&](StringRef key) {
        auto value = split.getAs<LocationAttr>(key);
        return value ? formatLoc(Location(value)) : std::string();
      };
      if (auto kind = split.getAs<StringAttr>("kind"))
        entry.kind = kind.str();
      entry.buffer = integer("buffer");
      entry.newBuffer = integer("new_buffer");
      if (split.get("offload_buffer"))
        entry.offloadBuffer = integer("offload_buffer");
      if (auto inputs = split.getAs<DenseI64ArrayAttr>("recomputed_inputs"))
        entry.recomputedInputs.assign(inputs.asArrayRef().begin(),
                                      inputs.asArrayRef().end());
      entry.after = loc("after");
      entry.before = loc("before");
      entry.cost = integer("cost");
      entry.bytes = integer("bytes");
      report.splits.push_back(std::move(entry));
    }
  if (auto work = func->getAttrOfType<IntegerAttr>(kProgramWorkAttr))
    report.programWork = work.getInt();
  // The buffers left to the allocator, for the report only (a walk).
  if (!options.reportPath.empty())
    func.walk([&](Operation *op) {
      if (!isa<memref::AllocOp, memref::AllocaOp>(op))
        return;
      if (BufferLiveness::isOptedOut(op))
        report.unmanaged.emplace_back(formatLoc(op->getLoc()),
                                      BufferLiveness::kOptedOutReason.str());
      else if (auto reason = op->getAttrOfType<StringAttr>(
                   BufferLiveness::kUnplannedAttr))
        report.unmanaged.emplace_back(formatLoc(op->getLoc()),
                                      reason.getValue().str());
    });

  FailureOr<llvm::StringMap<int64_t>> capacities = parseCapacities(
      [&] { return mlir::emitError(func.getLoc(), "capacity "); },
      options.capacity);
  if (failed(capacities))
    return failure();
  std::optional<PlanAnalyses> own;
  if (!analyses)
    analyses = &own.emplace(func);
  const BufferLiveness &liveness = analyses->getExactLiveness();
  FailureOr<SmallVector<SlabBuffers>> slabs =
      collectSlabBuffers(func, liveness, options.alignment);
  if (failed(slabs))
    return failure();
  AllocSlabOp defaultSlab;
  for (const SlabBuffers &slab : *slabs) {
    SlabPlanReport *slabReport = &report.defaultSpace;
    if (slab.memorySpace) {
      report.otherSpaces.emplace_back();
      slabReport = &report.otherSpaces.back();
    }
    FailureOr<AllocSlabOp> planned =
        planSlab(func, slab, options,
                 capacities->lookup(formatMemorySpace(slab.memorySpace)),
                 *slabReport, *analyses);
    if (failed(planned))
      return failure();
    if (!slab.memorySpace)
      defaultSlab = *planned;
  }
  return planDynamicBuffers(func, liveness, options, defaultSlab,
                            capacities->lookup(formatMemorySpace({})), report);
}

/// Writes the fields of one slab's plan (strategy, sizes, buffers) into the
/// current JSON object.
static void writeSlabFields(llvm::json::OStream &json,
                            const SlabPlanReport &slab) {
  json.attribute("strategy", slab.strategy);
  json.attribute("arena_bytes", slab.arenaBytes);
  json.attribute("lower_bound_bytes", slab.lowerBoundBytes);
  json.attribute("stagger_bytes", slab.staggerBytes);
  if (slab.capacityBytes > 0) {
    json.attribute("capacity_bytes", slab.capacityBytes);
    json.attribute("op_floor_bytes", slab.opFloorBytes);
    if (slab.boundBeforeSplits)
      json.attribute("lower_bound_before_splits_bytes",
                     *slab.boundBeforeSplits);
  }
  json.attributeArray("buffers", [&] {
    for (const SlabPlanReport::Entry &entry : slab.buffers)
      json.object([&] {
        json.attribute("id", entry.id);
        json.attribute("loc", entry.loc);
        json.attribute("start", entry.start);
        json.attribute("end", entry.end);
        json.attribute("size", entry.size);
        json.attribute("offset", entry.offset);
        // A dynamically shaped buffer planned at its upper bound.
        if (!entry.bound.empty())
          json.attribute("bound", entry.bound);
      });
  });
}

/// Writes the symbolic plan of the run-time sized buffers of `report`, if
/// any, into the current JSON object: the arena's size as an expression, its
/// value at the hinted sizes, and per buffer its size expression and the
/// buffers it is placed above.
static void writeSymbolicPlan(llvm::json::OStream &json,
                              const FunctionPlanReport &report) {
  if (report.dynamicBuffers.empty())
    return;
  json.attribute("dynamic_arena", report.dynamicArena);
  json.attribute("dynamic_size_hint", kDynamicSizeHint);
  json.attribute("arena_bytes_at_hint", report.arenaBytesAtHint);
  json.attributeArray("dynamic_buffers", [&] {
    for (const FunctionPlanReport::DynamicEntry &entry : report.dynamicBuffers)
      json.object([&] {
        for (auto [key, value] : {std::pair<StringRef, int64_t>{"id", entry.id},
                                  {"start", entry.start},
                                  {"end", entry.end},
                                  {"alignment", entry.alignment}})
          json.attribute(key, value);
        json.attribute("loc", entry.loc);
        json.attribute("size", entry.size);
        json.attributeArray("above", [&] {
          for (int64_t id : entry.above)
            json.value(id);
        });
      });
  });
}

/// Writes the live ranges split to meet a capacity (kSplitsAttr), if any,
/// into the current JSON object: each split, the work the recomputations add
/// and the bytes the offloads move, beside the program's own work.
static void writeSplits(llvm::json::OStream &json,
                        const FunctionPlanReport &report) {
  if (report.splits.empty())
    return;
  int64_t work = 0, moved = 0;
  json.attributeArray("splits", [&] {
    for (const FunctionPlanReport::SplitEntry &entry : report.splits)
      json.object([&] {
        json.attribute("kind", entry.kind);
        json.attribute("buffer", entry.buffer);
        json.attribute("new_buffer", entry.newBuffer);
        if (entry.offloadBuffer)
          json.attribute("offload_buffer", *entry.offloadBuffer);
        if (!entry.recomputedInputs.empty())
          json.attributeArray("recomputed_inputs", [&] {
            for (int64_t id : entry.recomputedInputs)
              json.value(id);
          });
        json.attribute("after", entry.after);
        json.attribute("before", entry.before);
        json.attribute("cost", entry.cost);
        json.attribute("bytes", entry.bytes);
        if (entry.kind == "remat")
          work = ::mplan::checkedAdd(work, entry.cost)
                     .value_or(std::numeric_limits<int64_t>::max());
        else
          moved = ::mplan::checkedAdd(
                      moved, ::mplan::checkedMul(2, entry.bytes)
                                 .value_or(std::numeric_limits<int64_t>::max()))
                      .value_or(std::numeric_limits<int64_t>::max());
      });
  });
  json.attribute("split_work", work);
  json.attribute("split_bytes_moved", moved);
  if (report.programWork)
    json.attribute("program_work", *report.programWork);
}

/// Writes the JSON plan report of `reports` to `path` ('-': stdout), with an
/// error about the `report` option of `pass` if it cannot.
static LogicalResult writePlanReport(Operation *anchor, StringRef pass,
                                     StringRef path,
                                     ArrayRef<FunctionPlanReport> reports) {
  std::string error;
  std::unique_ptr<llvm::ToolOutputFile> file = openOutputFile(path, &error);
  if (!file)
    return emitOptionError(anchor, pass, "report",
                           "cannot write the plan report: " + error);
  {
    llvm::json::OStream json(file->os(), /*IndentSize=*/2);
    json.object([&] {
      json.attributeArray("functions", [&] {
        for (const FunctionPlanReport &report : reports) {
          json.object([&] {
            json.attribute("name", report.name);
            writeSlabFields(json, report.defaultSpace);
            // The bound before mplan-sequence (program order): what the order
            // bought is the difference to lower_bound_bytes.
            json.attribute("lower_bound_program_order_bytes",
                           report.lowerBoundProgramOrder.value_or(
                               report.defaultSpace.lowerBoundBytes));
            if (report.lowerBoundProgramOrder)
              json.attribute("sequence_optimal", report.sequenceOptimal);
            if (!report.sequenceKeptBecause.empty())
              json.attribute("sequence_kept_because",
                             report.sequenceKeptBecause);
            for (const auto &[key, count] : report.viewCopyCounts)
              json.attribute(key, count);
            json.attributeArray("unmanaged", [&] {
              for (const auto &entry : report.unmanaged)
                json.object([&] {
                  json.attribute("loc", entry.first);
                  json.attribute("reason", entry.second);
                });
            });
            writeSymbolicPlan(json, report);
            if (!report.inplace.empty())
              json.attributeArray("inplace", [&] {
                for (const FunctionPlanReport::InPlaceEntry &entry :
                     report.inplace)
                  json.object([&] {
                    json.attribute("buffer", entry.id);
                    json.attribute("reused_by", entry.reusedBy);
                    json.attribute("loc", entry.loc);
                  });
              });
            writeSplits(json, report);
            // Slabs of the other memory spaces, each planned on its own.
            if (!report.otherSpaces.empty())
              json.attributeArray("memory_spaces", [&] {
                for (const SlabPlanReport &slab : report.otherSpaces)
                  json.object([&] {
                    json.attribute("memory_space", slab.memorySpace);
                    writeSlabFields(json, slab);
                  });
              });
          });
        }
      });
    });
  }
  file->os() << "\n";
  file->os().flush();
  if (std::error_code ec = file->os().error()) {
    // Reported here, not by the stream's destructor (a fatal error).
    file->os().clear_error();
    return emitOptionError(anchor, pass, "report",
                           "cannot write the plan report to '" + path +
                               "': " + ec.message());
  }
  file->keep();
  return success();
}

/// A function that still computes on ranked tensors and allocates no buffer
/// has nothing to plan: the common first mistake of running the pipeline on
/// tensor-level IR. Warns at the function.
static void warnIfNotBufferized(func::FuncOp func) {
  bool tensors = false, allocations = false;
  func.walk([&](Operation *op) {
    if (isa<memref::AllocOp, memref::AllocaOp, AllocTensorOp>(op))
      allocations = true;
    tensors |=
        llvm::any_of(op->getResultTypes(), llvm::IsaPred<RankedTensorType>);
    return allocations ? WalkResult::interrupt() : WalkResult::advance();
  });
  tensors |=
      llvm::any_of(func.getArgumentTypes(), llvm::IsaPred<RankedTensorType>);
  if (tensors && !allocations)
    mlir::emitWarning(func.getLoc(), "function '")
        << func.getSymName()
        << "' computes on tensors and allocates no buffers, so there is "
           "nothing to plan; run One-Shot Bufferize first "
           "(--one-shot-bufferize=\"bufferize-function-boundaries\")";
}

/// Remarks at each `builtin.module` nested in `module` that holds function
/// bodies: the pass plans the functions of the module it runs on, as a
/// symbol table of its own (the report, the calls between planned functions
/// and the arenas they hand on are per module), and a nested module is one
/// too. The remark says how to plan it: by nesting the pass.
static void remarkNestedModules(ModuleOp module) {
  for (auto nested : module.getOps<ModuleOp>()) {
    SmallVector<std::string> names;
    nested.walk([&](func::FuncOp func) {
      if (!func.isExternal())
        names.push_back("@" + func.getSymName().str());
    });
    if (names.empty())
      continue;
    mlir::emitRemark(nested.getLoc(),
                     "the functions of this nested 'builtin.module' (")
        << llvm::join(names, ", ")
        << ") are not planned: the pass plans the module it runs on; nest it "
           "to plan this one (e.g. "
           "--pass-pipeline=\"builtin.module(builtin.module("
           "mplan-plan-pipeline))\")";
  }
}

LogicalResult mlir::mplan::planModule(
    ModuleOp module, StringRef pass, const MPlanPlanBuffersOptions &options,
    llvm::function_ref<LogicalResult(func::FuncOp, PlanAnalyses &)> prepare,
    bool optOutsVerified) {
  if (failed(verifyOptions(module, pass, options)) ||
      (!optOutsVerified && failed(verifyOptOutAttrs(module))))
    return failure();
  remarkNestedModules(module);
  std::vector<FunctionPlanReport> reports;
  for (auto func : module.getOps<func::FuncOp>()) {
    if (func.isExternal())
      continue;
    warnIfNotBufferized(func);
    // The function's analyses, built once by the first step that needs them
    // and kept valid by every rewrite up to the plan.
    PlanAnalyses analyses(func);
    if (prepare && failed(prepare(func, analyses)))
      return failure();
    reports.emplace_back();
    if (failed(planBuffersInFunction(func, options, reports.back(), &analyses)))
      return failure();
  }
  if (!options.reportPath.empty())
    return writePlanReport(module, pass, options.reportPath, reports);
  return success();
}
