//===- InPlace.cpp - Outputs written over dying inputs --------------------===//
//
// An elementwise linalg op whose input buffer X dies at the op writes its
// output over X: the output's buffer Y merges into X, so a chain
// bias-add -> relu -> scale on one activation needs one buffer, not two.
//
//   %x = mplan.alloc_tensor id(0) -> memref<64xf32>      (last used below)
//   %y = mplan.alloc_tensor id(1) -> memref<64xf32>      (first used below)
//   linalg.generic ... ins(%x : ...) outs(%y : ...) { ^bb0(%in, %out): ... }
//   ... uses of %y ...
// becomes
//   %x = mplan.alloc_tensor id(0) -> memref<64xf32>
//   linalg.generic ... ins(%x : ...) outs(%x : ...) { ... }
//   ... uses of %x ...
//
// Legality (every condition is checked; a candidate that fails one stays):
//  * the op is a linalg op on buffers whose loops are all parallel;
//  * Y is the op's init operand itself (a whole root), its indexing map is
//    the identity, the payload does not read its initial value, and the op
//    is Y's first use through any alias (Y's live range starts at the op);
//  * X is one of the op's input operands itself (a whole root), with the
//    identity indexing map, of exactly Y's type (shape, element type, memory
//    space), and the op is X's last use through any alias (X's live range
//    ends with the op);
//  * X and Y are unplanned mplan.alloc_tensor results the planner can plan
//    (not function arguments, not escaping, no hidden access:
//    BufferLiveness::getUnplannableReason), allocated in the op's block (so
//    never carried around a loop or run by parallel iterations);
//  * no other operand of the op, and no op nested in it, may point into X
//    or Y (PointsToAnalysis), except X as further identity-mapped inputs.
// Each iteration of the op then reads X[i] and writes Y[i] = X[i] only: no
// element of X is read after it was overwritten.
//
// The merge is BufferLiveness::mergeInto, the same mechanism copy elision
// uses, so the analysis stays valid in place (no recomputation) and a chain
// merges op after op. Merging never raises the max-live bound: X and Y were
// both live at the op, and the merged buffer is live exactly where either
// was.
//
//===----------------------------------------------------------------------===//

#include "mplan/Analysis/PlanAnalyses.h"
#include "mplan/Dialect/MPlan/IR/MPlanOps.h"
#include "mplan/Transforms/Passes.h"

#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/IR/Builders.h"

namespace mlir {
namespace mplan {
#define GEN_PASS_DEF_MPLANINPLACE
#include "mplan/Transforms/Passes.h.inc"
} // namespace mplan
} // namespace mlir

using namespace mlir;
using namespace mlir::mplan;

namespace {
/// Finds and applies in-place reuses in one function.
class InPlaceReuse {
public:
  InPlaceReuse(func::FuncOp func, PlanAnalyses &analyses)
      : func(func), analyses(analyses), liveness(analyses.getExactLiveness()),
        pointsTo(analyses.getPointsTo()) {
    MLIRContext *context = func.getContext();
    names = {StringAttr::get(context, "at"), StringAttr::get(context, "buffer"),
             StringAttr::get(context, "reused_by")};
  }

  /// Rewrites every legal candidate; returns the merges made.
  SmallVector<Attribute> run();

private:
  /// The unplanned, plannable mplan.alloc_tensor `value` is, allocated in
  /// `block`, or null.
  AllocTensorOp getLocalRoot(Value value, Block *block) const;
  /// Whether one of `operands` (those of an op and of the ops nested in it)
  /// may point into `root`, other than those in `allowed`.
  bool usesOtherwise(ArrayRef<OpOperand *> operands, Value root,
                     ArrayRef<OpOperand *> allowed) const;
  /// Tries to write `op`'s output over a dying input; true if merged.
  bool tryOp(linalg::LinalgOp op, SmallVectorImpl<Attribute> &merges);

  func::FuncOp func;
  /// The keys of a merge record, in sorted order.
  struct {
    StringAttr at, buffer, reusedBy;
  } names;
  /// The function's analyses, kept valid through the merges.
  PlanAnalyses &analyses;
  BufferLiveness &liveness;
  /// Which operands may touch a buffer (mplan/Analysis/PointsTo.h).
  PointsToAnalysis &pointsTo;
};
} // namespace

AllocTensorOp InPlaceReuse::getLocalRoot(Value value, Block *block) const {
  auto alloc = value.getDefiningOp<AllocTensorOp>();
  if (!alloc || alloc.isPlanned() || alloc->getBlock() != block ||
      !liveness.isRoot(value) || liveness.getUnplannableReason(value))
    return {};
  return alloc;
}

bool InPlaceReuse::usesOtherwise(ArrayRef<OpOperand *> operands, Value root,
                                 ArrayRef<OpOperand *> allowed) const {
  std::optional<unsigned> place = pointsTo.lookupPlace(root);
  if (!place)
    return true;
  return llvm::any_of(operands, [&](OpOperand *operand) {
    return !llvm::is_contained(allowed, operand) &&
           pointsTo.mayPointInto(operand->get(), *place);
  });
}

bool InPlaceReuse::tryOp(linalg::LinalgOp op,
                         SmallVectorImpl<Attribute> &merges) {
  Block *block = op->getBlock();
  // The cheapest test first: an init that is a buffer of the block.
  if (llvm::none_of(op.getDpsInitsMutable(), [&](OpOperand &init) {
        return getLocalRoot(init.get(), block);
      }))
    return false;
  if (!op.hasPureBufferSemantics() ||
      op.getNumLoops() != op.getNumParallelLoops())
    return false;
  int64_t index = liveness.getIndex(op);
  int64_t end = liveness.getSubtreeEnd(op) + 1;
  // The operands of the op and of the ops nested in it, listed by one walk
  // when first needed (both buffers are checked against them).
  SmallVector<OpOperand *> operands;
  bool listed = false;
  auto getOperands = [&]() -> ArrayRef<OpOperand *> {
    if (!listed)
      op->walk([&](Operation *nested) {
        for (OpOperand &operand : nested->getOpOperands())
          operands.push_back(&operand);
      });
    listed = true;
    return operands;
  };
  for (OpOperand &init : op.getDpsInitsMutable()) {
    AllocTensorOp yAlloc = getLocalRoot(init.get(), block);
    if (!yAlloc || !op.getMatchingIndexingMap(&init).isIdentity() ||
        op.payloadUsesValueFromOperand(&init) ||
        liveness.getLiveRange(yAlloc.getResult()).start != index ||
        usesOtherwise(getOperands(), yAlloc.getResult(), {&init}))
      continue;
    for (OpOperand *input : op.getDpsInputOperands()) {
      AllocTensorOp xAlloc = getLocalRoot(input->get(), block);
      if (!xAlloc || xAlloc == yAlloc || xAlloc.getType() != yAlloc.getType())
        continue;
      LiveRange xRange = liveness.getLiveRange(xAlloc.getResult());
      if (xRange.end != end || xRange.start > index)
        continue;
      // X may appear as several inputs, each identity-mapped.
      SmallVector<OpOperand *> xInputs;
      bool identity = true;
      for (OpOperand *other : op.getDpsInputOperands())
        if (other->get() == xAlloc.getResult()) {
          xInputs.push_back(other);
          identity &= op.getMatchingIndexingMap(other).isIdentity();
        }
      if (!identity ||
          usesOtherwise(getOperands(), xAlloc.getResult(), xInputs))
        continue;

      // Y's bytes are X's from here on.
      Value x = xAlloc.getResult(), y = yAlloc.getResult();
      // The ids are the buffers' own i64 attributes; the names are sorted.
      NamedAttribute record[] = {{names.at, op->getLoc()},
                                 {names.buffer, xAlloc.getIdAttr()},
                                 {names.reusedBy, yAlloc.getIdAttr()}};
      merges.push_back(DictionaryAttr::getWithSorted(func.getContext(), record));
      std::optional<uint64_t> xAlign = xAlloc.getAlignment();
      std::optional<uint64_t> yAlign = yAlloc.getAlignment();
      if (yAlign && (!xAlign || *yAlign > *xAlign))
        xAlloc.setAlignmentAttr(yAlloc.getAlignmentAttr());
      analyses.notifyBufferMerged(y, x, x);
      y.replaceAllUsesWith(x);
      analyses.notifyOpErased(yAlloc);
      yAlloc->erase();
      return true;
    }
  }
  return false;
}

SmallVector<Attribute> InPlaceReuse::run() {
  // A candidate writes a root itself where the root's live range starts
  // (tryOp asks that of its init; merges only widen ranges, so no op
  // becomes a candidate later): the linalg ops among the roots' users at
  // their range's start, in program order, not a walk of the function. The
  // numbering is exact, so one index is one op: an op that starts several
  // roots is kept once.
  SmallVector<std::pair<int64_t, linalg::LinalgOp>> candidates;
  for (Value root : liveness.getRoots()) {
    int64_t start = liveness.getLiveRange(root).start;
    for (Operation *user : root.getUsers())
      if (liveness.getIndex(user) == start)
        if (auto linalgOp = dyn_cast<linalg::LinalgOp>(user))
          candidates.emplace_back(start, linalgOp);
  }
  llvm::sort(candidates, llvm::less_first());
  candidates.erase(llvm::unique(candidates, [](const auto &a, const auto &b) {
                     return a.first == b.first;
                   }),
                   candidates.end());
  SmallVector<Attribute> merges;
  for (auto &[index, op] : candidates)
    (void)tryOp(op, merges);
  return merges;
}

/// The function attribute listing the merges (`{buffer, reused_by, at}`),
/// which the plan report copies.
static constexpr llvm::StringLiteral kInPlaceAttr = "mplan.inplace";

int64_t mlir::mplan::reuseInPlaceInFunction(func::FuncOp func,
                                            PlanAnalyses &analyses) {
  SmallVector<Attribute> merges = InPlaceReuse(func, analyses).run();
  int64_t count = merges.size();
  if (count == 0)
    return 0;
  if (auto old = func->getAttrOfType<ArrayAttr>(kInPlaceAttr))
    merges.insert(merges.begin(), old.begin(), old.end());
  func->setAttr(kInPlaceAttr, ArrayAttr::get(func.getContext(), merges));
  return count;
}

namespace {
struct MPlanInPlacePass
    : public mlir::mplan::impl::MPlanInPlaceBase<MPlanInPlacePass> {
  using Base::Base;

  void runOnOperation() override {
    func::FuncOp func = getOperation();
    if (func.isExternal())
      return;
    PlanAnalyses analyses(func);
    // No merge, no change: every analysis stays (and no re-verification).
    if (reuseInPlaceInFunction(func, analyses) == 0)
      markAllAnalysesPreserved();
  }
};
} // namespace
