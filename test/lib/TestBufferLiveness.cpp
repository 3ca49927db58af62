//===- TestBufferLiveness.cpp - Test passes for the buffer analysis -------===//

#include "mplan/Analysis/BufferLiveness.h"
#include "mplan/Analysis/PlanAnalyses.h"
#include "mplan/Analysis/PointsTo.h"
#include "mplan/Analysis/UpperBounds.h"
#include "mplan/Dialect/MPlan/IR/MPlanDialect.h"
#include "mplan/Transforms/Passes.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/IR/Builders.h"
#include "mlir/Pass/Pass.h"
#include "mlir/Pass/PassRegistry.h"
#include "llvm/ADT/SmallPtrSet.h"

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

/// Checks `liveness`, updated in place by rewrites of `func`, against a fresh
/// analysis of `func`: every root it knows has at least the fresh aliases,
/// a reason whenever the fresh analysis has one, and every pair of roots that
/// interferes in the fresh analysis interferes in the updated one (the
/// numberings differ after insertions and erasures; the interference relation
/// must not lose edges). Emits an error at the first violation.
static LogicalResult checkAgainstFresh(func::FuncOp func,
                                       const BufferLiveness &liveness) {
  BufferLiveness fresh(func);
  SmallVector<Value> roots = fresh.getRoots();
  for (Value root : roots) {
    Operation *def = root.getDefiningOp();
    if (!liveness.isRoot(root))
      return def->emitOpError("is a root the updated analysis does not know");
    if (liveness.getAliases(root).size() < fresh.getAliases(root).size())
      return def->emitOpError("updated alias set misses aliases");
    if (fresh.getUnplannableReason(root) &&
        !liveness.getUnplannableReason(root))
      return def->emitOpError("is unplannable (")
             << *fresh.getUnplannableReason(root)
             << ") but the updated analysis would plan it";
  }
  // The updated analysis lists its roots in program order without a walk
  // (ops inserted since its numbering share indices): as a fresh analysis,
  // which meets them in a pre-order walk, lists them.
  llvm::SmallPtrSet<Value, 16> freshRoots(roots.begin(), roots.end());
  SmallVector<Value> ordered;
  for (Value root : liveness.getRootsInProgramOrder())
    if (freshRoots.contains(root))
      ordered.push_back(root);
  if (ordered != roots)
    return func.emitOpError("the updated analysis lists its roots in another "
                            "order than a walk of the function");
  for (size_t i = 0; i < roots.size(); ++i)
    for (size_t j = i + 1; j < roots.size(); ++j)
      if (fresh.getLiveRange(roots[i]).overlaps(fresh.getLiveRange(roots[j])) &&
          !liveness.getLiveRange(roots[i]).overlaps(
              liveness.getLiveRange(roots[j])))
        return roots[j].getDefiningOp()->emitOpError(
            "interferes with another buffer in a fresh analysis but not in "
            "the updated one");
  return success();
}

/// Checks that `liveness`, as PlanAnalyses::getExactLiveness hands it to
/// sequencing, in-place reuse and the planner, numbers every op of `func` and
/// gives every root the range a fresh analysis does.
static LogicalResult checkExactAgainstFresh(func::FuncOp func,
                                            const BufferLiveness &liveness) {
  BufferLiveness fresh(func);
  if (fresh.getNumIndices() != liveness.getNumIndices())
    return func.emitOpError("the renumbered analysis uses ")
           << liveness.getNumIndices() << " indices, a fresh one "
           << fresh.getNumIndices();
  WalkResult numbered = func.walk([&](Operation *op) {
    if (op == func.getOperation() ||
        (fresh.getIndex(op) == liveness.getIndex(op) &&
         fresh.getSubtreeEnd(op) == liveness.getSubtreeEnd(op)))
      return WalkResult::advance();
    op->emitOpError("is numbered [")
        << liveness.getIndex(op) << ", " << liveness.getSubtreeEnd(op)
        << "] by the renumbered analysis, [" << fresh.getIndex(op) << ", "
        << fresh.getSubtreeEnd(op) << "] by a fresh one";
    return WalkResult::interrupt();
  });
  if (numbered.wasInterrupted())
    return failure();
  for (Value root : fresh.getRoots()) {
    LiveRange mine = liveness.getLiveRange(root);
    LiveRange theirs = fresh.getLiveRange(root);
    if (!(mine == theirs))
      return root.getDefiningOp()->emitOpError("has the range [")
             << mine.start << ", " << mine.end
             << ") in the renumbered analysis, [" << theirs.start << ", "
             << theirs.end << ") in a fresh one";
  }
  return success();
}

/// Elides `memref.copy %src, %dst` ops marked `test.elide` where %dst is a
/// root allocation: %dst is replaced by %src, keeping the analysis up to date
/// with the in-place update API only. Annotates roots with the updated
/// `mplan.live` range, then checks the updated analysis against a fresh one:
/// every pair of roots that interferes in the fresh analysis must interfere
/// in the updated one (the numbering differs after erasures, the interference
/// relation must not lose edges), and no alias may be missing.
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
    Builder builder(func.getContext());
    for (Value root : liveness.getRoots()) {
      LiveRange updated = liveness.getLiveRange(root);
      root.getDefiningOp()->setAttr(
          "mplan.live",
          builder.getDenseI64ArrayAttr({updated.start, updated.end}));
    }
    if (failed(checkAgainstFresh(func, liveness)))
      return signalPassFailure();
  }
};

/// Runs copy elision and in-place reuse as mplan-plan does, with one analysis
/// updated in place by both, and compares it with a fresh analysis of the
/// result (checkAgainstFresh).
struct TestRewritesKeepLivenessPass
    : public PassWrapper<TestRewritesKeepLivenessPass,
                         OperationPass<func::FuncOp>> {
  MLIR_DEFINE_EXPLICIT_INTERNAL_INLINE_TYPE_ID(TestRewritesKeepLivenessPass)
  StringRef getArgument() const final {
    return "test-mplan-rewrites-keep-liveness";
  }
  StringRef getDescription() const final {
    return "Elide copies and reuse inputs in place with one analysis updated "
           "in place, and compare it with a fresh analysis";
  }
  void getDependentDialects(DialectRegistry &registry) const override {
    registry.insert<MPlanDialect>();
    registerUpperBoundInterfaces(registry);
  }
  TestRewritesKeepLivenessPass() = default;
  TestRewritesKeepLivenessPass(const TestRewritesKeepLivenessPass &other)
      : PassWrapper(other) {}
  Option<bool> capture{*this, "capture",
                       llvm::cl::desc("Capture the allocations first (hoisting "
                                      "those of branches), as mplan-plan does"),
                       llvm::cl::init(false)};
  Option<bool> fold{
      *this, "fold",
      llvm::cl::desc("Then fold the views, announcing every "
                     "change to the analyses, as mplan-plan does"),
      llvm::cl::init(false)};
  void runOnOperation() override {
    func::FuncOp func = getOperation();
    if (func.isExternal())
      return;
    PlanAnalyses analyses(func);
    if (capture && captureBuffersInFunction(func, analyses,
                                            /*emitRemarks=*/false))
      analyses.notifyLivenessUpdated();
    if (fold) {
      PlanAnalyses::Listener listener(analyses);
      if (failed(foldViewsInFunction(func, &listener)))
        return signalPassFailure();
      analyses.dropWidenedPointsTo();
    }
    (void)elideCopiesInFunction(func, PeakGuard::Views, analyses);
    (void)reuseInPlaceInFunction(func, analyses);
    if (failed(checkAgainstFresh(func, analyses.getLiveness())) ||
        failed(checkExactAgainstFresh(func, analyses.getExactLiveness())))
      return signalPassFailure();
  }
};

/// Annotates every op carrying `test.ptr` with what its first result may
/// point to, as `test.ptr = "place[begin, end), ..."`: places are `unknown`,
/// `argN`, `@global` or the `test.name` of the allocating op (`alloc`
/// without one), followed by `!` for an escaped allocation; a range is shown
/// when the analysis knows the bytes exactly. Ops carrying `test.alias`
/// (an array of two names given by `test.name` on the values' ops) get
/// `test.alias = true/false` from mayAlias.
struct TestPointsToPass
    : public PassWrapper<TestPointsToPass, OperationPass<func::FuncOp>> {
  MLIR_DEFINE_EXPLICIT_INTERNAL_INLINE_TYPE_ID(TestPointsToPass)
  StringRef getArgument() const final { return "test-mplan-points-to"; }
  StringRef getDescription() const final {
    return "Print what memref values may point to as attributes";
  }
  void runOnOperation() override {
    func::FuncOp func = getOperation();
    if (func.isExternal())
      return;
    const PointsToAnalysis &analysis = getAnalysis<PointsToAnalysis>();
    Builder builder(func.getContext());
    auto placeName = [&](unsigned id) {
      const MemoryPlace &place = analysis.getPlace(id);
      std::string name;
      llvm::raw_string_ostream os(name);
      switch (place.kind) {
      case MemoryPlace::Kind::Unknown:
        os << "unknown";
        break;
      case MemoryPlace::Kind::Argument:
        os << "arg" << cast<BlockArgument>(place.value).getArgNumber();
        break;
      case MemoryPlace::Kind::Global:
        os << "@" << cast<FlatSymbolRefAttr>(place.symbol).getValue();
        break;
      case MemoryPlace::Kind::Allocation: {
        auto label =
            place.value.getDefiningOp()->getAttrOfType<StringAttr>("test.name");
        os << (label ? label.getValue() : StringRef("alloc"));
        if (place.escaped)
          os << "!";
        break;
      }
      }
      return name;
    };
    llvm::StringMap<Value> named;
    func.walk([&](Operation *op) {
      if (auto label = op->getAttrOfType<StringAttr>("test.name"))
        if (op->getNumResults())
          named[label.getValue()] = op->getResult(0);
    });
    func.walk([&](Operation *op) {
      if (op->hasAttr("test.ptr") && op->getNumResults()) {
        SmallVector<std::string> parts;
        for (const PointsToTarget &target :
             analysis.getTargets(op->getResult(0))) {
          std::string part = placeName(target.place);
          if (target.exact)
            part += "[" + std::to_string(target.begin) + ", " +
                    std::to_string(target.end) + ")";
          parts.push_back(part);
        }
        llvm::sort(parts);
        op->setAttr("test.ptr", builder.getStringAttr(llvm::join(parts, ", ")));
      }
      if (auto pair = op->getAttrOfType<ArrayAttr>("test.alias")) {
        if (pair.size() != 2)
          return;
        auto a = dyn_cast<StringAttr>(pair[0]),
             b = dyn_cast<StringAttr>(pair[1]);
        if (!a || !b || !named.count(a.getValue()) ||
            !named.count(b.getValue()))
          return;
        op->setAttr("test.alias", builder.getBoolAttr(analysis.mayAlias(
                                      named.lookup(a.getValue()),
                                      named.lookup(b.getValue()))));
      }
    });
    markAllAnalysesPreserved();
  }
};

/// Checks that the liveness's aliases and the points-to analysis tell one
/// story (both follow forEachPointerFlow): every alias of a root that is a
/// place points into that place, and the aliases are closed under the flow
/// edges except into results their op allocates (a new buffer). Emits an
/// error at the first value that breaks this.
struct TestAliasesAgreePass
    : public PassWrapper<TestAliasesAgreePass, OperationPass<func::FuncOp>> {
  MLIR_DEFINE_EXPLICIT_INTERNAL_INLINE_TYPE_ID(TestAliasesAgreePass)
  StringRef getArgument() const final { return "test-mplan-aliases-agree"; }
  StringRef getDescription() const final {
    return "Check BufferLiveness's aliases against the points-to analysis";
  }
  void runOnOperation() override {
    func::FuncOp func = getOperation();
    if (func.isExternal())
      return;
    BufferLiveness liveness(func);
    PointsToAnalysis pointsTo(func);
    for (Value root : liveness.getRoots()) {
      std::optional<unsigned> place = pointsTo.lookupPlace(root);
      if (!place)
        continue;
      ArrayRef<Value> aliases = liveness.getAliases(root);
      llvm::SmallPtrSet<Value, 16> aliasSet(aliases.begin(), aliases.end());
      for (Value alias : aliases) {
        if (!pointsTo.mayPointInto(alias, *place)) {
          emitError(alias.getLoc())
              << "an alias of a buffer that the points-to analysis does not "
                 "let point into it";
          return signalPassFailure();
        }
        for (OpOperand &use : alias.getUses()) {
          Value missing;
          forEachPointerFlow(use, func, [&](Value flow) {
            if (!missing && isa<BaseMemRefType>(flow.getType()) &&
                !aliasSet.contains(flow) &&
                !BufferLiveness::isAllocatedResult(flow))
              missing = flow;
          });
          if (missing) {
            emitError(missing.getLoc())
                << "a value the flow edges reach from an alias of a buffer "
                   "that is not one of its aliases";
            return signalPassFailure();
          }
        }
      }
    }
    markAllAnalysesPreserved();
  }
};

/// Builds both analyses, captures the allocations and folds the views as
/// mplan-plan does, and marks the function `test.points_to = "kept"` when
/// the points-to analysis was kept through them (PlanAnalyses::
/// dropWidenedPointsTo) or `"rebuilt"` when it was dropped. A kept analysis
/// must answer as a fresh analysis of the result: every pointer value has
/// the same targets (places compared by what they are), every place the same
/// escape; an error at the first value where it does not.
struct TestCaptureKeepsPointsToPass
    : public PassWrapper<TestCaptureKeepsPointsToPass,
                         OperationPass<func::FuncOp>> {
  MLIR_DEFINE_EXPLICIT_INTERNAL_INLINE_TYPE_ID(TestCaptureKeepsPointsToPass)
  StringRef getArgument() const final {
    return "test-mplan-capture-keeps-points-to";
  }
  StringRef getDescription() const final {
    return "Capture and fold views with the points-to analysis kept in "
           "place, and compare it with a fresh one";
  }
  void getDependentDialects(DialectRegistry &registry) const override {
    registry.insert<MPlanDialect>();
    registerUpperBoundInterfaces(registry);
  }
  void runOnOperation() override {
    func::FuncOp func = getOperation();
    if (func.isExternal())
      return;
    PlanAnalyses analyses(func);
    analyses.buildBoth();
    if (captureBuffersInFunction(func, analyses, /*emitRemarks=*/false))
      analyses.notifyLivenessUpdated();
    PlanAnalyses::Listener listener(analyses);
    if (failed(foldViewsInFunction(func, &listener)))
      return signalPassFailure();
    analyses.dropWidenedPointsTo();
    Builder builder(func.getContext());
    bool kept = analyses.hasPointsTo();
    func->setAttr("test.points_to",
                  builder.getStringAttr(kept ? "kept" : "rebuilt"));
    if (!kept)
      return;
    const PointsToAnalysis &ours = analyses.getPointsTo();
    PointsToAnalysis fresh(func);
    auto samePlace = [&](unsigned a, unsigned b) {
      const MemoryPlace &x = ours.getPlace(a), &y = fresh.getPlace(b);
      return x.kind == y.kind && x.value == y.value && x.symbol == y.symbol &&
             x.size == y.size && x.escaped == y.escaped;
    };
    auto sameTarget = [&](const PointsToTarget &x, const PointsToTarget &y) {
      return samePlace(x.place, y.place) && x.base == y.base &&
             x.exact == y.exact &&
             (!x.exact || (x.begin == y.begin && x.end == y.end));
    };
    auto check = [&](Value value) {
      if (!isa<BaseMemRefType>(value.getType()))
        return true;
      ArrayRef<PointsToTarget> a = ours.getTargets(value);
      ArrayRef<PointsToTarget> b = fresh.getTargets(value);
      bool same =
          a.size() == b.size() && llvm::all_of(a, [&](const PointsToTarget &x) {
            return llvm::any_of(
                b, [&](const PointsToTarget &y) { return sameTarget(x, y); });
          });
      if (!same)
        emitError(value.getLoc())
            << "the points-to analysis kept through capture differs from a "
               "fresh one here";
      return same;
    };
    WalkResult result = func.walk([&](Operation *op) {
      for (Region &region : op->getRegions())
        for (Block &block : region)
          for (BlockArgument arg : block.getArguments())
            if (!check(arg))
              return WalkResult::interrupt();
      for (Value value : op->getResults())
        if (!check(value))
          return WalkResult::interrupt();
      return WalkResult::advance();
    });
    if (result.wasInterrupted())
      signalPassFailure();
  }
};

} // namespace

namespace mlir {
namespace mplan {
void registerTestPasses() {
  PassRegistration<TestCaptureKeepsPointsToPass>();
  PassRegistration<TestBufferLivenessPass>();
  PassRegistration<TestPointsToPass>();
  PassRegistration<TestSinkOpsPass>();
  PassRegistration<TestBufferLivenessUpdatesPass>();
  PassRegistration<TestRewritesKeepLivenessPass>();
  PassRegistration<TestAliasesAgreePass>();
}
} // namespace mplan
} // namespace mlir
