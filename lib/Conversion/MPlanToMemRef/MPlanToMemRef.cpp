//===- MPlanToMemRef.cpp - Lower mplan to the memref dialect --------------===//

#include "mplan/Conversion/Passes.h"
#include "mplan/Dialect/MPlan/IR/MPlanOps.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/SymbolTable.h"

namespace mlir {
namespace mplan {
#define GEN_PASS_DEF_CONVERTMPLANTOMEMREF
#include "mplan/Conversion/Passes.h.inc"
} // namespace mplan
} // namespace mlir

using namespace mlir;
using namespace mlir::mplan;

namespace {
enum class ArenaKind { Heap, Stack, Global, Argument };

struct ConvertMPlanToMemRefPass
    : public mlir::mplan::impl::ConvertMPlanToMemRefBase<ConvertMPlanToMemRefPass> {
  using Base::Base;

  void runOnOperation() override;

private:
  /// Creates the `memref<Nxi8>` value that backs `slab`.
  Value createArena(OpBuilder &builder, AllocSlabOp slab, ArenaKind kind,
                    SymbolTable &symbols);
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

Value ConvertMPlanToMemRefPass::createArena(OpBuilder &builder,
                                            AllocSlabOp slab, ArenaKind kind,
                                            SymbolTable &symbols) {
  SlabType slabType = slab.getType();
  auto arenaType =
      MemRefType::get({slabType.getSize()}, builder.getIntegerType(8));
  IntegerAttr alignment = builder.getI64IntegerAttr(slabType.getAlignment());
  Location loc = slab.getLoc();
  switch (kind) {
  case ArenaKind::Heap:
    return memref::AllocOp::create(builder, loc, arenaType, ValueRange(),
                                   alignment);
  case ArenaKind::Stack:
    return memref::AllocaOp::create(builder, loc, arenaType, ValueRange(),
                                    alignment);
  case ArenaKind::Global:
  case ArenaKind::Argument: {
    auto func = slab->getParentOfType<func::FuncOp>();
    OpBuilder::InsertionGuard guard(builder);
    builder.setInsertionPoint(func);
    auto global = memref::GlobalOp::create(
        builder, loc, ("__mplan_arena_" + func.getSymName()).str(),
        builder.getStringAttr("private"), arenaType,
        builder.getUnitAttr(), /*constant=*/false, alignment);
    symbols.insert(global);
    builder.setInsertionPoint(slab);
    return memref::GetGlobalOp::create(builder, loc, arenaType,
                                       global.getSymName());
  }
  }
  llvm_unreachable("unknown arena kind");
}

void ConvertMPlanToMemRefPass::runOnOperation() {
  ModuleOp module = getOperation();
  FailureOr<ArenaKind> kind = parseArenaKind(arena);
  if (failed(kind)) {
    module.emitError("convert-mplan-to-memref: unknown arena kind '")
        << arena << "'; expected heap, stack, global or argument";
    return signalPassFailure();
  }
  if (*kind == ArenaKind::Argument) {
    module.emitError("convert-mplan-to-memref: arena=argument is not "
                     "implemented yet");
    return signalPassFailure();
  }

  // Unplanned buffers have lost their deallocs to the slab's release: they
  // cannot be lowered on their own.
  WalkResult unplanned = module.walk([&](AllocTensorOp op) {
    if (op.isPlanned())
      return WalkResult::advance();
    op.emitOpError("is not planned; run mplan-plan-buffers first");
    return WalkResult::interrupt();
  });
  if (unplanned.wasInterrupted())
    return signalPassFailure();

  SymbolTable symbols(module);
  OpBuilder builder(&getContext());
  llvm::DenseMap<Value, Value> arenas;
  module.walk([&](AllocSlabOp slab) {
    builder.setInsertionPoint(slab);
    arenas[slab.getResult()] = createArena(builder, slab, *kind, symbols);
  });

  module.walk([&](Operation *op) {
    if (auto tensor = dyn_cast<AllocTensorOp>(op)) {
      builder.setInsertionPoint(tensor);
      Value offset = arith::ConstantIndexOp::create(builder, tensor.getLoc(),
                                                    *tensor.getOffset());
      Value view =
          memref::ViewOp::create(builder, tensor.getLoc(), tensor.getType(),
                                 arenas.lookup(tensor.getSlab()), offset,
                                 ValueRange());
      tensor.replaceAllUsesWith(view);
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
      if (*kind == ArenaKind::Heap) {
        builder.setInsertionPoint(release);
        memref::DeallocOp::create(builder, release.getLoc(),
                                  arenas.lookup(release.getSlab()));
      }
      release.erase();
    }
  });
  module.walk([&](AllocSlabOp slab) { slab.erase(); });
}
