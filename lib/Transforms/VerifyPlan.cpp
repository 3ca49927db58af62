//===- VerifyPlan.cpp - Check planned buffers against fresh live ranges ---===//
//
// A thin pass over verifyPlan (mplan/Analysis/PlanVerifier.h), the check that
// convert-mplan-to-memref also runs before lowering.
//
//===----------------------------------------------------------------------===//

#include "mplan/Analysis/PlanVerifier.h"
#include "mplan/Transforms/Passes.h"

namespace mlir {
namespace mplan {
#define GEN_PASS_DEF_MPLANVERIFYPLAN
#include "mplan/Transforms/Passes.h.inc"
} // namespace mplan
} // namespace mlir

using namespace mlir;

namespace {
struct MPlanVerifyPlanPass
    : public mlir::mplan::impl::MPlanVerifyPlanBase<MPlanVerifyPlanPass> {
  void runOnOperation() override {
    func::FuncOp func = getOperation();
    if (func.isExternal())
      return;
    if (failed(mlir::mplan::verifyPlan(func)))
      return signalPassFailure();
    markAllAnalysesPreserved();
  }
};
} // namespace
