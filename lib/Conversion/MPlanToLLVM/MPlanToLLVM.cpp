//===- MPlanToLLVM.cpp - mplan-to-llvm pipeline ---------------------------===//
//
// Everything a planned (or unplanned) bufferized program contains, down to the
// LLVM dialect, with upstream passes and patterns (bufferization.clone and
// memref.realloc included; buffers of integer memory spaces freed through the
// default space, see mplan-dealloc-in-default-space; ub.poison that the
// vector lowering leaves behind included). With `aligned-arenas`,
// convert-mplan-arenas-to-llvm first lowers the heap arenas with upstream's
// aligned_alloc pattern; with `alias-scopes` (the default), the accesses to
// arena buffers get alias scopes (AliasScopes.cpp).
//
//===----------------------------------------------------------------------===//

#include "mplan/Conversion/Passes.h"

#include "mlir/Conversion/AffineToStandard/AffineToStandard.h"
#include "mlir/Conversion/ArithToLLVM/ArithToLLVM.h"
#include "mlir/Conversion/BufferizationToMemRef/BufferizationToMemRef.h"
#include "mlir/Conversion/ControlFlowToLLVM/ControlFlowToLLVM.h"
#include "mlir/Conversion/FuncToLLVM/ConvertFuncToLLVMPass.h"
#include "mlir/Conversion/IndexToLLVM/IndexToLLVM.h"
#include "mlir/Conversion/LLVMCommon/TypeConverter.h"
#include "mlir/Conversion/MathToLLVM/MathToLLVM.h"
#include "mlir/Conversion/MathToLibm/MathToLibm.h"
#include "mlir/Conversion/MemRefToLLVM/MemRefToLLVM.h"
#include "mlir/Conversion/ReconcileUnrealizedCasts/ReconcileUnrealizedCasts.h"
#include "mlir/Conversion/SCFToControlFlow/SCFToControlFlow.h"
#include "mlir/Conversion/UBToLLVM/UBToLLVM.h"
#include "mlir/Conversion/VectorToLLVM/ConvertVectorToLLVMPass.h"
#include "mlir/Dialect/Bufferization/Transforms/Passes.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/Linalg/Passes.h"
#include "mlir/Dialect/MemRef/Transforms/Passes.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Interfaces/LoopLikeInterface.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassRegistry.h"
#include "mlir/Transforms/DialectConversion.h"

namespace mlir {
namespace mplan {
#define GEN_PASS_DEF_CONVERTMPLANARENASTOLLVM
#define GEN_PASS_DEF_MPLANCHECKLLVMMEMORYSPACES
#define GEN_PASS_DEF_MPLANDEALLOCINDEFAULTSPACE
#define GEN_PASS_DEF_MPLANEXPANDSTATICREALLOC
#define GEN_PASS_DEF_MPLANKEEPOUTERLOOPS
#include "mplan/Conversion/Passes.h.inc"
} // namespace mplan
} // namespace mlir

using namespace mlir;

namespace {
struct ConvertMPlanArenasToLLVMPass
    : public mlir::mplan::impl::ConvertMPlanArenasToLLVMBase<
          ConvertMPlanArenasToLLVMPass> {
  void runOnOperation() override {
    ModuleOp module = getOperation();
    LowerToLLVMOptions options(&getContext());
    options.allocLowering = LowerToLLVMOptions::AllocLowering::AlignedAlloc;
    LLVMTypeConverter converter(&getContext(), options);
    RewritePatternSet patterns(&getContext());
    populateFinalizeMemRefToLLVMConversionPatterns(converter, patterns);
    // Only the arenas are illegal: a partial conversion leaves every other op
    // (and the arenas' users, through casts) to finalize-memref-to-llvm.
    ConversionTarget target(getContext());
    target.addDynamicallyLegalOp<memref::AllocOp>(
        [](memref::AllocOp op) { return !op->hasAttr("mplan.arena"); });
    target.markUnknownOpDynamicallyLegal([](Operation *) { return true; });
    if (failed(applyPartialConversion(module, target, std::move(patterns))))
      signalPassFailure();
  }
};

struct MPlanCheckLLVMMemorySpacesPass
    : public mlir::mplan::impl::MPlanCheckLLVMMemorySpacesBase<
          MPlanCheckLLVMMemorySpacesPass> {
  void runOnOperation() override {
    // The first memory space in `typeOrAttr` (or nested in it) that is set
    // and is no integer. Types and attributes are uniqued: each is walked
    // once.
    llvm::DenseMap<const void *, Attribute> walked;
    auto unmappable = [&](auto typeOrAttr) {
      auto [it, inserted] =
          walked.try_emplace(typeOrAttr.getAsOpaquePointer(), Attribute());
      if (!inserted)
        return it->second;
      Attribute found;
      typeOrAttr.walk([&](BaseMemRefType memref) {
        Attribute space = memref.getMemorySpace();
        if (!found && space && !isa<IntegerAttr>(space))
          found = space;
      });
      it->second = found;
      return found;
    };
    auto check = [&](Operation *op) {
      Attribute space = unmappable(op->getAttrDictionary());
      for (Type type : op->getResultTypes())
        if (!space)
          space = unmappable(type);
      for (Type type : op->getOperandTypes())
        if (!space)
          space = unmappable(type);
      for (Region &region : op->getRegions())
        for (Block &block : region)
          for (Type type : block.getArgumentTypes())
            if (!space)
              space = unmappable(type);
      if (!space)
        return WalkResult::advance();
      mlir::emitError(op->getLoc(), "memory space ")
          << space
          << " has no LLVM address space: map it to an integer memory space "
             "before mplan-to-llvm";
      return WalkResult::interrupt();
    };
    if (getOperation()->walk<WalkOrder::PreOrder>(check).wasInterrupted())
      return signalPassFailure();
    // A check: the IR is unchanged (and the verifier need not run again).
    markAllAnalysesPreserved();
  }
};

struct MPlanDeallocInDefaultSpacePass
    : public mlir::mplan::impl::MPlanDeallocInDefaultSpaceBase<
          MPlanDeallocInDefaultSpacePass> {
  void runOnOperation() override {
    getOperation()->walk([](memref::DeallocOp dealloc) {
      auto type = dyn_cast<MemRefType>(dealloc.getMemref().getType());
      auto space = type
                       ? dyn_cast_if_present<IntegerAttr>(type.getMemorySpace())
                       : IntegerAttr();
      if (!space || space.getValue().isZero())
        return;
      OpBuilder builder(dealloc);
      Value cast = memref::MemorySpaceCastOp::create(
          builder, dealloc.getLoc(),
          MemRefType::get(type.getShape(), type.getElementType(),
                          type.getLayout()),
          dealloc.getMemref());
      dealloc.getMemrefMutable().assign(cast);
    });
  }
};
} // namespace

namespace {
struct MPlanExpandStaticReallocPass
    : public mlir::mplan::impl::MPlanExpandStaticReallocBase<
          MPlanExpandStaticReallocPass> {
  void runOnOperation() override {
    SmallVector<memref::ReallocOp> reallocs;
    getOperation()->walk([&](memref::ReallocOp op) {
      MemRefType from = op.getSource().getType();
      MemRefType to = op.getType();
      if (from.hasStaticShape() && to.hasStaticShape())
        reallocs.push_back(op);
    });
    for (memref::ReallocOp op : reallocs) {
      MemRefType from = op.getSource().getType();
      MemRefType to = op.getType();
      int64_t oldSize = from.getDimSize(0), newSize = to.getDimSize(0);
      OpBuilder builder(op);
      Location loc = op.getLoc();
      Value result;
      if (newSize <= oldSize) {
        // The leading elements of the same allocation.
        result = memref::ReinterpretCastOp::create(
            builder, loc, to, op.getSource(), /*offset=*/0, {newSize},
            /*strides=*/{1});
      } else {
        // A new allocation holding the old elements first; the old one goes.
        auto alloc = memref::AllocOp::create(builder, loc, to, ValueRange(),
                                             op.getAlignmentAttr());
        Value head = memref::SubViewOp::create(
            builder, loc, alloc, ArrayRef<int64_t>{0},
            ArrayRef<int64_t>{oldSize}, ArrayRef<int64_t>{1});
        memref::CopyOp::create(builder, loc, op.getSource(), head);
        memref::DeallocOp::create(builder, loc, op.getSource());
        result = alloc;
      }
      op.replaceAllUsesWith(result);
      op.erase();
    }
  }
};
} // namespace

namespace {
struct MPlanKeepOuterLoopsPass
    : public mlir::mplan::impl::MPlanKeepOuterLoopsBase<
          MPlanKeepOuterLoopsPass> {
  void runOnOperation() override {
    func::FuncOp func = getOperation();
    if (func.isExternal())
      return;
    // Only functions with an arena (planned by mplan).
    bool hasArena = llvm::any_of(func.getArguments(), [&](BlockArgument arg) {
      return func.getArgAttr(arg.getArgNumber(), "mplan.arena");
    });
    if (!hasArena)
      func.walk([&](Operation *op) {
        if (op->hasAttr("mplan.arena")) {
          hasArena = true;
          return WalkResult::interrupt();
        }
        return WalkResult::advance();
      });
    if (!hasArena)
      return;
    MLIRContext *ctx = &getContext();
    auto noUnroll = LLVM::LoopAnnotationAttr::get(
        ctx, /*disableNonforced=*/{}, /*vectorize=*/{}, /*interleave=*/{},
        LLVM::LoopUnrollAttr::get(ctx, /*disable=*/BoolAttr::get(ctx, true),
                                  /*count=*/{}, /*runtimeDisable=*/{},
                                  /*full=*/{}, /*followupUnrolled=*/{},
                                  /*followupRemainder=*/{},
                                  /*followupAll=*/{}),
        /*unrollAndJam=*/{}, /*licm=*/{}, /*distribute=*/{}, /*pipeline=*/{},
        /*peeled=*/{}, /*unswitch=*/{}, /*mustProgress=*/{},
        /*isVectorized=*/{}, /*startLoc=*/{}, /*endLoc=*/{},
        /*parallelAccesses=*/{});
    // scf-to-cf gives the loop's latch branch its `loop_annotation`.
    StringRef name = LLVM::BrOp::getLoopAnnotationAttrName(
                         OperationName(LLVM::BrOp::getOperationName(), ctx))
                         .getValue();
    func.walk([&](scf::ForOp loop) {
      if (loop->hasAttr(name))
        return;
      WalkResult nested = loop.getBody()->walk(
          [](LoopLikeOpInterface) { return WalkResult::interrupt(); });
      if (nested.wasInterrupted())
        loop->setAttr(name, noUnroll);
    });
  }
};
} // namespace

void mlir::mplan::buildMPlanToLLVMPipeline(OpPassManager &pm,
                                           const MPlanToLLVMOptions &options) {
  // What upstream's ownership-based deallocation left for the buffers mplan
  // did not plan: bufferization.dealloc becomes memref.dealloc, and
  // bufferization.clone an alloc and a copy.
  pm.addPass(mplan::createMPlanCheckLLVMMemorySpaces());
  pm.addPass(bufferization::createLowerDeallocationsPass());
  pm.addPass(createConvertBufferizationToMemRefPass());
  // memref.realloc (never of a planned buffer: mplan leaves a reallocated
  // buffer unmanaged), which finalize-memref-to-llvm does not lower: an
  // scf.if that keeps the buffer (a reinterpret_cast) when it does not grow,
  // else allocates, copies and frees the operand, as realloc(3) does (the
  // static ones first: expand-realloc's growing branch is invalid IR for a
  // static shrink).
  pm.addPass(mplan::createMPlanExpandStaticRealloc());
  pm.addPass(memref::createExpandReallocPass(
      memref::ExpandReallocPassOptions{/*emitDeallocs=*/true}));
  pm.addNestedPass<func::FuncOp>(createConvertLinalgToLoopsPass());
  pm.addPass(memref::createExpandStridedMetadataPass());
  pm.addPass(createLowerAffinePass());
  if (!options.unrollOuterLoops)
    pm.addNestedPass<func::FuncOp>(mplan::createMPlanKeepOuterLoops());
  // Each load and store now reads or writes one memref: mark the arena bytes
  // it may touch (the marks travel in locations through the lowering). The
  // loops are still scf, so that the accumulators of reduction loops can be
  // told apart.
  if (options.aliasScopes) {
    MPlanTagBufferAccessesOptions tagOptions;
    tagOptions.scopeFloatAccumulators = options.scopeFloatAccumulators;
    pm.addNestedPass<func::FuncOp>(
        mplan::createMPlanTagBufferAccesses(tagOptions));
  }
  pm.addPass(createSCFToControlFlowPass());
  pm.addPass(createConvertVectorToLLVMPass());
  // convert-vector-to-llvm simplifies regions: blocks that differ only in
  // the marks of their accesses (locations) may have been merged.
  if (options.aliasScopes) {
    MPlanTagBufferAccessesOptions refreshOptions;
    refreshOptions.refresh = true;
    pm.addNestedPass<func::FuncOp>(
        mplan::createMPlanTagBufferAccesses(refreshOptions));
  }
  // The n-D vector lowerings (vector.transpose, vector.broadcast, ...) build
  // their results from ub.poison, which convert-vector-to-llvm leaves.
  pm.addPass(createUBToLLVMConversionPass());
  pm.addPass(mplan::createMPlanDeallocInDefaultSpace());
  if (options.alignedArenas)
    pm.addPass(mplan::createConvertMPlanArenasToLLVM());
  FinalizeMemRefToLLVMConversionPassOptions memrefOptions;
  memrefOptions.useAlignedAlloc = options.useAlignedAlloc;
  pm.addPass(createFinalizeMemRefToLLVMConversionPass(memrefOptions));
  pm.addPass(createConvertMathToLLVMPass());
  pm.addPass(createConvertMathToLibmPass());
  pm.addPass(createArithToLLVMConversionPass());
  pm.addPass(createConvertIndexToLLVMPass());
  pm.addPass(createConvertFuncToLLVMPass());
  pm.addPass(createConvertControlFlowToLLVMPass());
  pm.addPass(createReconcileUnrealizedCastsPass());
  if (options.aliasScopes)
    pm.addPass(mplan::createMPlanBufferAliasScopes());
}

void mlir::mplan::registerMPlanToLLVMPipeline() {
  PassPipelineRegistration<MPlanToLLVMOptions>(
      "mplan-to-llvm",
      "Lower linalg, scf, memref, arith, math, cf and func to the LLVM "
      "dialect (run after convert-mplan-to-memref)",
      buildMPlanToLLVMPipeline);
}
