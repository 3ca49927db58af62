//===- MarkCalls.cpp - mplan-mark-calls -----------------------------------===//
//
// Marks the memref operands of calls to functions of the module whose callee
// argument does not outlive the call (`mplan.nocapture`), so that the buffers
// a caller passes there can be planned in the caller.
//
//===----------------------------------------------------------------------===//

#include "mplan/Analysis/BufferLiveness.h"
#include "mplan/Transforms/Passes.h"

#include "mlir/IR/SymbolTable.h"
#include "mlir/Interfaces/CallInterfaces.h"

namespace mlir {
namespace mplan {
#define GEN_PASS_DEF_MPLANMARKCALLS
#include "mplan/Transforms/Passes.h.inc"
} // namespace mplan
} // namespace mlir

using namespace mlir;
using namespace mlir::mplan;

namespace {
struct MPlanMarkCallsPass
    : public mlir::mplan::impl::MPlanMarkCallsBase<MPlanMarkCallsPass> {
  MPlanMarkCallsPass() = default;
  explicit MPlanMarkCallsPass(bool checkOptOuts) : checkOptOuts(checkOptOuts) {}

  /// Whether the walk also checks every op's `mplan.unplanned` attribute
  /// (createMPlanMarkCallsCheckingOptOuts).
  bool checkOptOuts = false;

  void runOnOperation() override {
    ModuleOp module = getOperation();
    SymbolTable symbols(module);
    SmallVector<std::pair<CallOpInterface, func::FuncOp>> calls;
    SmallVector<func::FuncOp> callees;
    llvm::DenseSet<Operation *> seen;
    // The marks before the pass, to tell whether it changed anything.
    llvm::DenseMap<Operation *, Attribute> before;
    WalkResult walked = module.walk([&](Operation *op) {
      if (checkOptOuts && failed(verifyOptOutAttr(op)))
        return WalkResult::interrupt();
      auto call = dyn_cast<CallOpInterface>(op);
      if (!call)
        return WalkResult::advance();
      if (Attribute old = call->removeAttr(BufferLiveness::kNoCaptureAttr))
        before[call] = old;
      auto symbol =
          dyn_cast_if_present<SymbolRefAttr>(call.getCallableForCallee());
      auto callee = symbol && symbol.getNestedReferences().empty()
                        ? symbols.lookup<func::FuncOp>(
                              symbol.getRootReference().getValue())
                        : nullptr;
      if (!callee || callee.isExternal() ||
          callee.getNumArguments() != call.getArgOperands().size())
        return WalkResult::advance();
      calls.push_back({call, callee});
      if (seen.insert(callee).second)
        callees.push_back(callee);
      return WalkResult::advance();
    });
    if (walked.wasInterrupted())
      return signalPassFailure();

    // Least fixed point: an argument is marked once nothing in its callee
    // may capture it given the marks so far (a call inside the callee counts
    // as a capture until that call is marked), so marks only grow and a
    // recursive call never marks itself.
    bool changed = true;
    while (changed) {
      changed = false;
      llvm::DenseMap<Operation *, SmallVector<bool>> notCaptured;
      for (func::FuncOp callee : callees) {
        SmallVector<bool> &flags = notCaptured[callee];
        for (BlockArgument arg : callee.getArguments())
          flags.push_back(isa<BaseMemRefType>(arg.getType()) &&
                          !BufferLiveness::getArgumentCaptureReason(arg));
      }
      for (auto [call, callee] : calls) {
        SmallVector<int64_t> operands;
        MutableOperandRange args = call.getArgOperandsMutable();
        for (auto [i, flag] : llvm::enumerate(notCaptured[callee]))
          if (flag)
            operands.push_back(args[i].getOperandNumber());
        auto old = call->getAttrOfType<DenseI64ArrayAttr>(
            BufferLiveness::kNoCaptureAttr);
        if (operands.empty() ||
            (old && old.asArrayRef() == ArrayRef<int64_t>(operands)))
          continue;
        call->setAttr(BufferLiveness::kNoCaptureAttr,
                      DenseI64ArrayAttr::get(&getContext(), operands));
        changed = true;
      }
    }
    // Unchanged marks (the common case: no call or nothing new to mark) keep
    // every analysis and spare the verifier a run over the module.
    // Only the calls in `calls` can carry a mark now; every other call lost
    // the one it had (in `before`). No second walk of the module.
    bool same = llvm::all_of(before,
                             [](const auto &entry) {
                               return entry.first->getAttr(
                                          BufferLiveness::kNoCaptureAttr) ==
                                      entry.second;
                             }) &&
                llvm::all_of(calls, [&](const auto &entry) {
                  Operation *call = entry.first;
                  return before.lookup(call) ==
                         call->getAttr(BufferLiveness::kNoCaptureAttr);
                });
    if (same)
      markAllAnalysesPreserved();
  }
};
} // namespace

std::unique_ptr<Pass> mlir::mplan::createMPlanMarkCallsCheckingOptOuts() {
  return std::make_unique<MPlanMarkCallsPass>(/*checkOptOuts=*/true);
}
