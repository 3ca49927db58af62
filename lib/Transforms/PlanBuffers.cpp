//===- PlanBuffers.cpp - Place every buffer of a function in one slab -----===//

#include "mplan/Transforms/PlanBuffers.h"
#include "mplan/Analysis/BufferLiveness.h"
#include "mplan/Analysis/UpperBounds.h"
#include "mplan/Dialect/MPlan/IR/MPlanOps.h"
#include "mplan/Support/Planner.h"
#include "mplan/Transforms/Passes.h"

#include "mlir/IR/Builders.h"
#include "mlir/Support/FileUtilities.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/MathExtras.h"
#include "llvm/Support/ToolOutputFile.h"

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

/// Checks the strategy, alignment and stagger of `options`, with an error at
/// `anchor`.
static LogicalResult verifyOptions(Operation *anchor,
                                   const MPlanPlanBuffersOptions &options) {
  if (options.alignment <= 0 || !llvm::isPowerOf2_64(options.alignment))
    return anchor->emitError("mplan-plan-buffers: 'alignment' must be a "
                             "positive power of two, got ")
           << options.alignment;
  if (options.stagger < 0 || options.stagger % options.alignment != 0)
    return anchor->emitError("mplan-plan-buffers: 'stagger' must be a "
                             "non-negative multiple of 'alignment' (")
           << options.alignment << "), got " << options.stagger;
  if (!llvm::is_contained(::mplan::strategyNames(), options.strategy)) {
    InFlightDiagnostic diag =
        anchor->emitError("mplan-plan-buffers: unknown strategy '")
        << options.strategy << "'; expected one of:";
    for (const std::string &name : ::mplan::strategyNames())
      diag << " " << name;
    return diag;
  }
  return success();
}

namespace {
struct MPlanPlanBuffersPass
    : public mlir::mplan::impl::MPlanPlanBuffersBase<MPlanPlanBuffersPass> {
  using Base::Base;

  void runOnOperation() override {
    if (failed(planModule(
            getOperation(),
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

/// The memory space `space` as the report prints it; empty for the default.
static std::string formatMemorySpace(Attribute space) {
  std::string text;
  llvm::raw_string_ostream os(text);
  if (auto integer = dyn_cast_if_present<IntegerAttr>(space))
    os << integer.getValue();
  else if (space)
    space.print(os);
  return text;
}

FailureOr<SmallVector<SlabBuffers>> mlir::mplan::collectSlabBuffers(
    func::FuncOp func, const BufferLiveness &liveness, int64_t alignment) {
  // One slab per memory space: buffers of different spaces never share one.
  SmallVector<SlabBuffers> slabs;
  llvm::DenseMap<Attribute, unsigned> slabOf;
  WalkResult walk = func.walk([&](AllocTensorOp op) {
    if (op.isPlanned())
      return WalkResult::advance();
    if (std::optional<std::string> reason =
            liveness.getUnplannableReason(op.getResult())) {
      op.emitOpError("cannot be planned: ") << *reason;
      return WalkResult::interrupt();
    }
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
    return WalkResult::advance();
  });
  if (walk.wasInterrupted())
    return failure();
  return slabs;
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
  std::optional<int64_t> bound = 0;
  for (const SlabBuffers &slab : *slabs)
    if (!slab.memorySpace)
      bound = ::mplan::lowerBound(slab.buffers, alignment);
  if (bound)
    func->setAttr(
        kLowerBoundProgramOrderAttr,
        IntegerAttr::get(IntegerType::get(func.getContext(), 64), *bound));
  return bound;
}

/// The memory space a `capacity` entry names, as formatMemorySpace prints
/// it: `default`, an integer memory space, or a `#gpu.address_space` keyword.
static std::optional<std::string> parseCapacitySpace(StringRef space) {
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
mlir::mplan::parseCapacities(Operation *anchor, ArrayRef<std::string> specs) {
  llvm::StringMap<int64_t> capacities;
  for (StringRef spec : specs) {
    auto [space, bytes] = spec.rsplit(':');
    std::optional<std::string> key = parseCapacitySpace(space.trim());
    int64_t value = 0;
    if (!spec.contains(':') || !key)
      return anchor->emitError("capacity '")
             << spec
             << "': expected SPACE:BYTES with SPACE 'default', an integer "
                "memory space, or one of global, workgroup, private";
    if (bytes.trim().getAsInteger(10, value) || value <= 0)
      return anchor->emitError("capacity '")
             << spec << "': BYTES must be a positive 64-bit integer";
    if (!capacities.try_emplace(*key, value).second)
      return anchor->emitError("capacity '")
             << spec << "': memory space '" << space.trim()
             << "' has a capacity already";
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

/// Plans `slab`, the unplanned buffers of `func` in one memory space, into
/// one new slab of that space and fills `report`. `capacity` (0: none) is
/// the most bytes the space may take.
static LogicalResult planSlab(func::FuncOp func, const SlabBuffers &slab,
                              const MPlanPlanBuffersOptions &options,
                              int64_t capacity, SlabPlanReport &report) {
  report.memorySpace = formatMemorySpace(slab.memorySpace);
  report.strategy = options.strategy;
  const std::vector<::mplan::Buffer> &buffers = slab.buffers;

  ::mplan::PlanOptions planOptions;
  planOptions.strategy = options.strategy;
  planOptions.timeLimitSeconds = options.timeLimit;
  planOptions.alignment = options.alignment;
  planOptions.stagger = options.stagger;
  planOptions.capacity = capacity;
  ::mplan::Expected<::mplan::Plan> plan =
      ::mplan::planBuffers(buffers, planOptions);
  if (!plan)
    return func.emitError("memory planning failed: ") << plan.error();
  if (capacity > 0 && plan->arenaSize > capacity) {
    InFlightDiagnostic diag =
        func.emitError("memory space '")
        << (report.memorySpace.empty() ? "default" : report.memorySpace)
        << "' of function '" << func.getSymName() << "' needs "
        << plan->arenaSize << " bytes (strategy " << plan->strategy
        << "), above its capacity of " << capacity
        << " bytes; the max-live lower bound is " << plan->lowerBound
        << " bytes";
    diag.attachNote() << describePeak(slab);
    return diag;
  }
  if (std::optional<std::string> error = ::mplan::validatePlan(
          buffers, plan->offsets, plan->arenaSize, options.alignment))
    return func.emitError("the planner returned an invalid plan: ") << *error;

  report.strategy = plan->strategy;
  report.arenaBytes = plan->arenaSize;
  report.lowerBoundBytes = plan->lowerBound;
  report.staggerBytes = plan->staggerBytes;

  // One slab at the top of the function, released before every return.
  MLIRContext *ctx = func.getContext();
  OpBuilder builder(ctx);
  Block &entry = func.getBody().front();
  builder.setInsertionPointToStart(&entry);
  auto slabType =
      SlabType::get(ctx, plan->arenaSize, slab.alignment, slab.memorySpace);
  Value slabValue = AllocSlabOp::create(builder, func.getLoc(), slabType);
  for (Block &block : func.getBody()) {
    Operation *terminator = block.getTerminator();
    if (!terminator->hasTrait<OpTrait::ReturnLike>())
      continue;
    builder.setInsertionPoint(terminator);
    ReleaseSlabOp::create(builder, terminator->getLoc(), slabValue);
  }

  for (auto [constOp, buffer, offset] :
       llvm::zip_equal(slab.ops, buffers, plan->offsets)) {
    AllocTensorOp op = constOp;
    // Planned in place (the slab is the op's only, optional, operand): no
    // new op, no use replacement, no erasure.
    op->insertOperands(0, slabValue);
    op.setStartAttr(builder.getI64IntegerAttr(buffer.start));
    op.setEndAttr(builder.getI64IntegerAttr(buffer.end));
    op.setOffsetAttr(builder.getI64IntegerAttr(offset));
    std::string bound;
    if (auto source = op->getAttrOfType<StringAttr>(kBoundSourceAttr))
      bound = source.str();
    report.buffers.push_back({buffer.id, buffer.start, buffer.end, buffer.size,
                              offset, formatLoc(op.getLoc()), bound});
  }
  return success();
}

LogicalResult
mlir::mplan::planBuffersInFunction(func::FuncOp func,
                                   const MPlanPlanBuffersOptions &options,
                                   FunctionPlanReport &report) {
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
  if (auto merges = func->getAttrOfType<ArrayAttr>("mplan.inplace"))
    for (auto merge : merges.getAsRange<DictionaryAttr>()) {
      auto id = merge.getAs<IntegerAttr>("buffer");
      auto reusedBy = merge.getAs<IntegerAttr>("reused_by");
      auto loc = merge.getAs<LocationAttr>("at");
      if (id && reusedBy && loc)
        report.inplace.push_back(
            {id.getInt(), reusedBy.getInt(), formatLoc(Location(loc))});
    }
  func.walk([&](Operation *op) {
    if (!isa<memref::AllocOp, memref::AllocaOp>(op))
      return;
    if (BufferLiveness::isOptedOut(op))
      report.unmanaged.emplace_back(formatLoc(op->getLoc()),
                                    BufferLiveness::kOptedOutReason.str());
    else if (auto reason =
                 op->getAttrOfType<StringAttr>(BufferLiveness::kUnplannedAttr))
      report.unmanaged.emplace_back(formatLoc(op->getLoc()),
                                    reason.getValue().str());
  });

  FailureOr<llvm::StringMap<int64_t>> capacities =
      parseCapacities(func, options.capacity);
  if (failed(capacities))
    return failure();
  BufferLiveness liveness(func);
  FailureOr<SmallVector<SlabBuffers>> slabs =
      collectSlabBuffers(func, liveness, options.alignment);
  if (failed(slabs))
    return failure();
  for (const SlabBuffers &slab : *slabs) {
    SlabPlanReport *slabReport = &report.defaultSpace;
    if (slab.memorySpace) {
      report.otherSpaces.emplace_back();
      slabReport = &report.otherSpaces.back();
    }
    if (failed(planSlab(func, slab, options,
                        capacities->lookup(formatMemorySpace(slab.memorySpace)),
                        *slabReport)))
      return failure();
  }
  return success();
}

/// Writes the fields of one slab's plan (strategy, sizes, buffers) into the
/// current JSON object.
static void writeSlabFields(llvm::json::OStream &json,
                            const SlabPlanReport &slab) {
  json.attribute("strategy", slab.strategy);
  json.attribute("arena_bytes", slab.arenaBytes);
  json.attribute("lower_bound_bytes", slab.lowerBoundBytes);
  json.attribute("stagger_bytes", slab.staggerBytes);
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

/// Writes the JSON plan report of `reports` to `path` ('-': stdout), with an
/// error at `anchor` if it cannot.
static LogicalResult writePlanReport(Operation *anchor, StringRef path,
                                     ArrayRef<FunctionPlanReport> reports) {
  std::string error;
  std::unique_ptr<llvm::ToolOutputFile> file = openOutputFile(path, &error);
  if (!file)
    return anchor->emitError("cannot write the plan report: ") << error;
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
            for (const auto &[key, count] : report.viewCopyCounts)
              json.attribute(key, count);
            json.attributeArray("unmanaged", [&] {
              for (const auto &entry : report.unmanaged)
                json.object([&] {
                  json.attribute("loc", entry.first);
                  json.attribute("reason", entry.second);
                });
            });
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
    func.emitWarning("function '")
        << func.getSymName()
        << "' computes on tensors and allocates no buffers, so there is "
           "nothing to plan; run One-Shot Bufferize first "
           "(--one-shot-bufferize=\"bufferize-function-boundaries\")";
}

LogicalResult mlir::mplan::planModule(
    ModuleOp module, const MPlanPlanBuffersOptions &options,
    llvm::function_ref<LogicalResult(func::FuncOp)> prepare) {
  if (failed(verifyOptions(module, options)) ||
      failed(parseCapacities(module, options.capacity)) ||
      failed(verifyOptOutAttrs(module)))
    return failure();
  std::vector<FunctionPlanReport> reports;
  for (auto func : module.getOps<func::FuncOp>()) {
    if (func.isExternal())
      continue;
    warnIfNotBufferized(func);
    if (prepare && failed(prepare(func)))
      return failure();
    reports.emplace_back();
    if (failed(planBuffersInFunction(func, options, reports.back())))
      return failure();
  }
  if (!options.reportPath.empty())
    return writePlanReport(module, options.reportPath, reports);
  return success();
}
