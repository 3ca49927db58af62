//===- MPlanToMemRef.cpp - Lower mplan to the memref dialect --------------===//
//
// Lowers slabs to `memref<Nxi8>` arenas (heap, stack, global or a function
// argument), planned buffers to `memref.view` of their arena, mplan views to
// `memref.reinterpret_cast` and slab releases to `memref.dealloc` or nothing.
//
// The ops this pass creates carry discardable attributes that
// `--mplan-instrument` reads:
//   * `mplan.arena` (unit) on the op (or function argument) providing an
//     arena;
//   * `mplan.buffer_id` (i64) and `mplan.live` (array<i64: start, end>) on the
//     `memref.view` of every planned buffer.
//
// arena=argument: every function named in `functions=` (default: every
// function with a slab but `main`) takes its arena as a trailing `memref<Nxi8>`
// parameter. Its callers in the module pass memory:
//   * a caller with a slab gets one more planned buffer, of the callee's arena
//     size, live exactly at the call, placed first-fit in the caller's plan
//     around the caller's existing buffers (which keep their offsets); the
//     caller's slab grows if no gap fits. Callees are processed before their
//     callers (call-graph post-order), so a caller's own arena size includes
//     the arenas of the callees it calls;
//   * a caller without a slab, or a call inside a recursive cycle (whose
//     callee arena size is not known yet), allocates the callee's arena on
//     the heap right before the call and frees it right after.
//
//===----------------------------------------------------------------------===//

#include "mplan/Analysis/BufferLiveness.h"
#include "mplan/Conversion/Passes.h"
#include "mplan/Dialect/MPlan/IR/MPlanOps.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/SymbolTable.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/MapVector.h"
#include "llvm/ADT/SetVector.h"
#include "llvm/ADT/StringSet.h"

namespace mlir {
namespace mplan {
#define GEN_PASS_DEF_CONVERTMPLANTOMEMREF
#include "mplan/Conversion/Passes.h.inc"
} // namespace mplan
} // namespace mlir

using namespace mlir;
using namespace mlir::mplan;

static constexpr llvm::StringLiteral kArenaAttr = "mplan.arena";
static constexpr llvm::StringLiteral kArenaSizeAttr = "mplan.arena_size";
static constexpr llvm::StringLiteral kArenaAlignAttr = "mplan.arena_alignment";
static constexpr llvm::StringLiteral kBufferIdAttr = "mplan.buffer_id";
static constexpr llvm::StringLiteral kLiveAttr = "mplan.live";

namespace {
enum class ArenaKind { Heap, Stack, Global, Argument };

/// What a function taking its arena from the caller needs.
struct ArgumentArena {
  int64_t size = 0;
  int64_t alignment = 1;
  bool final = false; ///< set once all the function's own calls are handled
};

struct ConvertMPlanToMemRefPass
    : public mlir::mplan::impl::ConvertMPlanToMemRefBase<
          ConvertMPlanToMemRefPass> {
  using Base::Base;

  void runOnOperation() override;

private:
  /// Creates the `memref<Nxi8>` value that backs `slab`.
  Value createArena(OpBuilder &builder, AllocSlabOp slab, ArenaKind kind,
                    SymbolTable &symbols);

  /// arena=argument: chooses the functions, makes room for callee arenas in
  /// the callers' plans, passes them at every call site and rewrites the
  /// signatures. Slabs of the chosen functions are mapped to their new
  /// argument in `arenas`.
  LogicalResult lowerArgumentArenas(ModuleOp module, SymbolTable &symbols,
                                    llvm::DenseMap<Value, Value> &arenas);
};
} // namespace

static FailureOr<ArenaKind> parseArenaKind(StringRef name) {
  return llvm::StringSwitch<FailureOr<ArenaKind>>(name)
      .Case("heap", ArenaKind::Heap)
      .Case("stack", ArenaKind::Stack)
      .Case("global", ArenaKind::Global)
      .Case("argument", ArenaKind::Argument)
      .Default(failure());
}

static MemRefType getArenaType(MLIRContext *ctx, int64_t size) {
  return MemRefType::get({size}, IntegerType::get(ctx, 8));
}

Value ConvertMPlanToMemRefPass::createArena(OpBuilder &builder,
                                            AllocSlabOp slab, ArenaKind kind,
                                            SymbolTable &symbols) {
  SlabType slabType = slab.getType();
  MemRefType arenaType = getArenaType(builder.getContext(), slabType.getSize());
  IntegerAttr alignment = builder.getI64IntegerAttr(slabType.getAlignment());
  Location loc = slab.getLoc();
  Operation *arena = nullptr;
  switch (kind) {
  case ArenaKind::Heap:
  case ArenaKind::Argument: // functions that keep their own arena: the heap
    arena = memref::AllocOp::create(builder, loc, arenaType, ValueRange(),
                                    alignment);
    break;
  case ArenaKind::Stack:
    arena = memref::AllocaOp::create(builder, loc, arenaType, ValueRange(),
                                     alignment);
    break;
  case ArenaKind::Global: {
    auto func = slab->getParentOfType<FunctionOpInterface>();
    std::string name = "__mplan_arena";
    if (func)
      name += "_" + func.getName().str();
    OpBuilder::InsertionGuard guard(builder);
    builder.setInsertionPoint(func ? func.getOperation() : slab.getOperation());
    auto global = memref::GlobalOp::create(
        builder, loc, name, builder.getStringAttr("private"), arenaType,
        builder.getUnitAttr(), /*constant=*/false, alignment);
    symbols.insert(global); // renames on a clash
    builder.setInsertionPoint(slab);
    arena = memref::GetGlobalOp::create(builder, loc, arenaType,
                                        global.getSymName());
    break;
  }
  }
  arena->setAttr(kArenaAttr, builder.getUnitAttr());
  return arena->getResult(0);
}

/// The slab of `func`, or null if it has none. Fails (with a diagnostic) on
/// more than one.
static FailureOr<AllocSlabOp> getUniqueSlab(func::FuncOp func) {
  AllocSlabOp slab;
  WalkResult result = func.walk([&](AllocSlabOp op) {
    if (slab) {
      op.emitOpError("is the second slab of function '")
          << func.getSymName()
          << "'; arena=argument needs at most one slab per function";
      return WalkResult::interrupt();
    }
    slab = op;
    return WalkResult::advance();
  });
  if (result.wasInterrupted())
    return failure();
  return slab;
}

static int64_t alignTo(int64_t value, int64_t alignment) {
  return (value + alignment - 1) / alignment * alignment;
}

namespace {
/// A buffer of a caller's plan, as far as placing new buffers is concerned.
struct Placed {
  LiveRange live;
  int64_t offset;
  int64_t size;
};
} // namespace

/// The lowest offset, a multiple of `alignment`, at which `size` bytes live
/// during `live` do not overlap any buffer of `placed` live at the same time.
static int64_t firstFit(ArrayRef<Placed> placed, LiveRange live, int64_t size,
                        int64_t alignment) {
  SmallVector<std::pair<int64_t, int64_t>> busy;
  for (const Placed &p : placed)
    if (p.live.overlaps(live) && p.size > 0)
      busy.push_back({p.offset, p.offset + p.size});
  llvm::sort(busy);
  int64_t offset = 0;
  for (auto [begin, end] : busy) {
    if (offset + size <= begin)
      break;
    offset = std::max(offset, alignTo(end, alignment));
  }
  return offset;
}

LogicalResult ConvertMPlanToMemRefPass::lowerArgumentArenas(
    ModuleOp module, SymbolTable &symbols,
    llvm::DenseMap<Value, Value> &arenas) {
  MLIRContext *ctx = module.getContext();

  // The functions with a body, and their slab.
  llvm::MapVector<func::FuncOp, AllocSlabOp> slabs;
  for (auto func : module.getOps<func::FuncOp>()) {
    if (func.isExternal())
      continue;
    FailureOr<AllocSlabOp> slab = getUniqueSlab(func);
    if (failed(slab))
      return failure();
    slabs[func] = *slab;
  }

  // The functions that take their arena from the caller.
  llvm::MapVector<func::FuncOp, ArgumentArena> argFuncs;
  if (functions.empty()) {
    // `main` is the program's entry point: whatever runs it (mlir-runner, a
    // C runtime) passes no arena, so by default it keeps a heap arena and
    // hands slices of it to the functions it calls.
    for (auto [func, slab] : slabs)
      if (slab && func.getSymName() != "main")
        argFuncs[func] = {};
  } else {
    for (const std::string &name : functions) {
      auto func = symbols.lookup<func::FuncOp>(name);
      if (!func)
        return module.emitError("convert-mplan-to-memref: functions= names '")
               << name << "', which is not a function of this module";
      if (func.isExternal())
        return func.emitError("convert-mplan-to-memref: function '")
               << name << "' named in functions= has no body";
      if (!slabs.lookup(func))
        return func.emitError("convert-mplan-to-memref: function '")
               << name
               << "' named in functions= has no planned buffers (no "
                  "mplan.alloc_slab); plan it first";
      argFuncs[func] = {};
    }
  }
  if (argFuncs.empty())
    return success();

  // Every use of such a function must be a func.call we can rewrite.
  for (auto &[func, info] : argFuncs) {
    std::optional<SymbolTable::UseRange> uses =
        SymbolTable::getSymbolUses(func, module);
    if (!uses)
      return func.emitError("convert-mplan-to-memref: cannot enumerate the "
                            "uses of function '")
             << func.getSymName() << "'";
    for (const SymbolTable::SymbolUse &use : *uses) {
      auto call = dyn_cast<func::CallOp>(use.getUser());
      if (!call || !call->getParentOfType<func::FuncOp>())
        return use.getUser()->emitOpError("uses function '")
               << func.getSymName()
               << "', which takes its arena from the caller (arena=argument); "
                  "only direct func.call ops inside func.func can pass it";
    }
  }

  // Call-graph post-order over the functions with a body, so that a callee's
  // arena size is final before its callers make room for it.
  llvm::SetVector<func::FuncOp> order;
  llvm::DenseSet<func::FuncOp> onStack;
  std::function<void(func::FuncOp)> visit = [&](func::FuncOp func) {
    if (order.contains(func) || onStack.contains(func))
      return;
    onStack.insert(func);
    func.walk([&](func::CallOp call) {
      auto callee = symbols.lookup<func::FuncOp>(call.getCallee());
      if (callee && !callee.isExternal())
        visit(callee);
    });
    onStack.erase(func);
    order.insert(func);
  };
  for (auto &[func, slab] : slabs)
    visit(func);

  OpBuilder builder(ctx);
  SmallVector<func::CallOp> deferred;
  for (func::FuncOp func : order) {
    // The calls of this function that must pass an arena.
    SmallVector<func::CallOp> calls;
    func.walk([&](func::CallOp call) {
      auto callee = symbols.lookup<func::FuncOp>(call.getCallee());
      if (callee && argFuncs.count(callee))
        calls.push_back(call);
    });

    AllocSlabOp slab = slabs.lookup(func);
    std::optional<BufferLiveness> liveness;
    SmallVector<Placed> placed;
    int64_t nextId = 0;
    SmallVector<std::pair<func::CallOp, AllocTensorOp>> slices;
    if (slab && !calls.empty()) {
      liveness.emplace(func);
      for (Operation *user : slab->getUsers()) {
        auto tensor = dyn_cast<AllocTensorOp>(user);
        if (!tensor)
          continue;
        nextId = std::max(nextId, tensor.getId() + 1);
        LiveRange live = liveness->getLiveRange(tensor.getResult());
        if (tensor.getStart()) { // keep whatever the planner assumed, too
          live.start = std::min(live.start, *tensor.getStart());
          live.end = std::max(live.end, *tensor.getEnd());
        }
        FailureOr<int64_t> size = tensor.getByteSize();
        placed.push_back(
            {live, *tensor.getOffset(), succeeded(size) ? *size : 0});
      }
    }

    for (func::CallOp call : calls) {
      auto callee = symbols.lookup<func::FuncOp>(call.getCallee());
      const ArgumentArena &info = argFuncs[callee];
      if (!slab || !info.final) {
        deferred.push_back(call);
        continue;
      }
      builder.setInsertionPoint(call);
      int64_t index = liveness->getIndex(call);
      LiveRange live{index, index + 1};
      int64_t offset = firstFit(placed, live, info.size, info.alignment);
      placed.push_back({live, offset, info.size});
      auto tensor = AllocTensorOp::create(
          builder, call.getLoc(), getArenaType(ctx, info.size),
          builder.getI64IntegerAttr(nextId++),
          builder.getI64IntegerAttr(live.start),
          builder.getI64IntegerAttr(live.end), slab.getResult(),
          builder.getI64IntegerAttr(offset),
          builder.getI64IntegerAttr(info.alignment));
      slices.push_back({call, tensor});
      call->insertOperands(call->getNumOperands(), tensor.getResult());
    }

    // Grow the slab to hold the slices.
    if (slab && !slices.empty()) {
      SlabType type = slab.getType();
      int64_t size = type.getSize();
      int64_t alignment = type.getAlignment();
      for (const Placed &p : placed)
        size = std::max(size, p.offset + p.size);
      for (auto &[call, tensor] : slices)
        alignment = std::max(alignment, tensor.getAlignment().value_or(1));
      slab.getResult().setType(SlabType::get(ctx, size, alignment));
    }

    auto it = argFuncs.find(func);
    if (it != argFuncs.end()) {
      it->second.size = slab.getType().getSize();
      it->second.alignment = slab.getType().getAlignment();
      it->second.final = true;
    }
  }

  // Calls from a function without a slab, and calls inside a recursive cycle
  // (the callee's size was not final when its caller was processed): the
  // callee's arena comes from the heap, around the call.
  for (func::CallOp call : deferred) {
    auto callee = symbols.lookup<func::FuncOp>(call.getCallee());
    const ArgumentArena &info = argFuncs[callee];
    builder.setInsertionPoint(call);
    auto alloc = memref::AllocOp::create(
        builder, call.getLoc(), getArenaType(ctx, info.size), ValueRange(),
        builder.getI64IntegerAttr(info.alignment));
    alloc->setAttr(kArenaAttr, builder.getUnitAttr());
    builder.setInsertionPointAfter(call);
    memref::DeallocOp::create(builder, call.getLoc(), alloc.getResult());
    call->insertOperands(call->getNumOperands(), alloc.getResult());
  }

  // Rewrite the signatures: the slab becomes a trailing argument.
  for (auto &[func, info] : argFuncs) {
    AllocSlabOp slab = slabs.lookup(func);
    MemRefType arenaType = getArenaType(ctx, info.size);
    Block &entry = func.getBody().front();
    unsigned argIndex = func.getNumArguments();
    if (failed(func.insertArgument(argIndex, arenaType,
                                   DictionaryAttr::get(ctx), slab.getLoc())))
      return func.emitError("convert-mplan-to-memref: cannot add the arena "
                            "argument");
    func.setArgAttr(argIndex, kArenaAttr, UnitAttr::get(ctx));
    func->setAttr(kArenaSizeAttr, builder.getI64IntegerAttr(info.size));
    func->setAttr(kArenaAlignAttr, builder.getI64IntegerAttr(info.alignment));
    builder.setInsertionPointToStart(&entry);
    auto assumed = memref::AssumeAlignmentOp::create(
        builder, slab.getLoc(), entry.getArgument(argIndex),
        builder.getI32IntegerAttr(static_cast<int32_t>(info.alignment)));
    arenas[slab.getResult()] = assumed.getResult();

    // `<name>_arena_size() -> index`.
    std::string sizeName = (func.getSymName() + "_arena_size").str();
    if (symbols.lookup(sizeName))
      return func.emitError("convert-mplan-to-memref: cannot create '")
             << sizeName << "': a symbol of that name exists";
    builder.setInsertionPointAfter(func);
    auto sizeFunc = func::FuncOp::create(
        builder, func.getLoc(), sizeName,
        builder.getFunctionType({}, {builder.getIndexType()}));
    sizeFunc.setVisibility(func.getVisibility());
    Block *body = sizeFunc.addEntryBlock();
    builder.setInsertionPointToStart(body);
    Value size =
        arith::ConstantIndexOp::create(builder, func.getLoc(), info.size);
    func::ReturnOp::create(builder, func.getLoc(), size);
    symbols.insert(sizeFunc);
  }
  return success();
}

void ConvertMPlanToMemRefPass::runOnOperation() {
  ModuleOp module = getOperation();
  FailureOr<ArenaKind> kind = parseArenaKind(arena);
  if (failed(kind)) {
    module.emitError("convert-mplan-to-memref: unknown arena kind '")
        << arena << "'; expected heap, stack, global or argument";
    return signalPassFailure();
  }
  if (*kind != ArenaKind::Argument && !functions.empty()) {
    module.emitError("convert-mplan-to-memref: functions= is only meaningful "
                     "with arena=argument (got arena=")
        << arena << ")";
    return signalPassFailure();
  }

  // Unplanned buffers have lost their deallocs to the slab's release: they
  // cannot be lowered on their own.
  WalkResult invalid = module.walk([&](Operation *op) {
    if (auto tensor = dyn_cast<AllocTensorOp>(op)) {
      if (tensor.isPlanned())
        return WalkResult::advance();
      op->emitOpError("is not planned; run mplan-plan-buffers first");
      return WalkResult::interrupt();
    }
    if (auto slab = dyn_cast<AllocSlabOp>(op)) {
      for (Operation *user : slab->getUsers()) {
        if (isa<AllocTensorOp, ReleaseSlabOp>(user))
          continue;
        user->emitOpError("uses an mplan slab in a way "
                          "convert-mplan-to-memref cannot lower");
        return WalkResult::interrupt();
      }
    }
    return WalkResult::advance();
  });
  if (invalid.wasInterrupted())
    return signalPassFailure();

  SymbolTable symbols(module);
  OpBuilder builder(&getContext());
  llvm::DenseMap<Value, Value> arenas;
  if (*kind == ArenaKind::Argument &&
      failed(lowerArgumentArenas(module, symbols, arenas)))
    return signalPassFailure();

  module.walk([&](AllocSlabOp slab) {
    if (arenas.count(slab.getResult()))
      return;
    builder.setInsertionPoint(slab);
    arenas[slab.getResult()] = createArena(builder, slab, *kind, symbols);
  });

  module.walk([&](Operation *op) {
    if (auto tensor = dyn_cast<AllocTensorOp>(op)) {
      builder.setInsertionPoint(tensor);
      Value offset = arith::ConstantIndexOp::create(builder, tensor.getLoc(),
                                                    *tensor.getOffset());
      auto view = memref::ViewOp::create(
          builder, tensor.getLoc(), tensor.getType(),
          arenas.lookup(tensor.getSlab()), offset, ValueRange());
      view->setAttr(kBufferIdAttr, builder.getI64IntegerAttr(tensor.getId()));
      if (tensor.getStart())
        view->setAttr(kLiveAttr, builder.getDenseI64ArrayAttr(
                                     {*tensor.getStart(), *tensor.getEnd()}));
      tensor.replaceAllUsesWith(view.getResult());
      tensor.erase();
      return;
    }
    if (auto view = dyn_cast<ViewOp>(op)) {
      builder.setInsertionPoint(view);
      MemRefType type = view.getType();
      auto [strides, offset] = type.getStridesAndOffset();
      Value cast = memref::ReinterpretCastOp::create(
          builder, view.getLoc(), type, view.getSource(), offset,
          type.getShape(), strides);
      view.replaceAllUsesWith(cast);
      view.erase();
      return;
    }
    if (auto release = dyn_cast<ReleaseSlabOp>(op)) {
      Value arena = arenas.lookup(release.getSlab());
      if (arena.getDefiningOp<memref::AllocOp>()) {
        builder.setInsertionPoint(release);
        memref::DeallocOp::create(builder, release.getLoc(), arena);
      }
      release.erase();
    }
  });
  module.walk([&](AllocSlabOp slab) { slab.erase(); });
}
