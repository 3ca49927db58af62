//===- PlanPipeline.cpp - mplan-plan-pipeline -----------------------------===//

#include "mplan/Transforms/Passes.h"

#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassRegistry.h"

using namespace mlir;
using namespace mlir::mplan;

void mlir::mplan::buildPlanPipeline(OpPassManager &pm,
                                    const PlanPipelineOptions &options) {
  // Buffers passed to calls whose callee does not keep them are planned in
  // the caller.
  pm.addPass(createMPlanMarkCalls());
  MPlanCaptureBuffersOptions capture;
  capture.emitRemarks = options.remarks;
  // Views and copies: view chains to one mplan.view of the root (done by the
  // capture pass itself, as mplan-fold-views would right after it: the IR is
  // verified once for both), then copies removed by aliasing (both before
  // live ranges are computed).
  capture.foldViews = options.viewsAndCopies;
  pm.addNestedPass<func::FuncOp>(createMPlanCaptureBuffers(capture));
  if (options.viewsAndCopies) {
    MPlanElideCopiesOptions elide;
    elide.peakGuard = options.peakGuard;
    pm.addNestedPass<func::FuncOp>(createMPlanElideCopies(elide));
  }

  MPlanPlanBuffersOptions plan;
  plan.strategy = options.strategy;
  plan.timeLimit = options.timeLimit;
  plan.alignment = options.alignment;
  plan.reportPath = options.report;
  pm.addPass(createMPlanPlanBuffers(plan));
}

void mlir::mplan::registerPlanPipeline() {
  PassPipelineRegistration<PlanPipelineOptions>(
      "mplan-plan-pipeline",
      "Plan the static buffers of bufferized memref IR into one slab per "
      "function (capture, live ranges, plan)",
      buildPlanPipeline);
}
