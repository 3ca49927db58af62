//===- downstream-opt.cpp - A downstream compiler embedding mplan ---------===//
//
// Registers every upstream dialect and pass, mplan's dialect and passes, and
// one pipeline of its own built from mplan's C++ API:
//
//   --downstream-compile: one-shot-bufferize, mplan-plan-pipeline (through
//   mlir::mplan::buildPlanPipeline) and convert-mplan-to-memref{arena=heap}.
//
//===----------------------------------------------------------------------===//

#include "mplan/Conversion/Passes.h"
#include "mplan/Dialect/MPlan/IR/MPlanDialect.h"
#include "mplan/Support/Planner.h"
#include "mplan/Transforms/Passes.h"

#include "mlir/Dialect/Bufferization/Transforms/Passes.h"
#include "mlir/IR/DialectRegistry.h"
#include "mlir/InitAllDialects.h"
#include "mlir/InitAllExtensions.h"
#include "mlir/InitAllPasses.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassRegistry.h"
#include "mlir/Tools/mlir-opt/MlirOptMain.h"

namespace {
struct DownstreamOptions : public mlir::PassPipelineOptions<DownstreamOptions> {
  Option<std::string> strategy{*this, "strategy",
                               llvm::cl::desc("mplan planning strategy"),
                               llvm::cl::init("best")};
};

void buildDownstreamPipeline(mlir::OpPassManager &pm,
                             const DownstreamOptions &options) {
  mlir::bufferization::OneShotBufferizePassOptions bufferize;
  bufferize.bufferizeFunctionBoundaries = true;
  bufferize.functionBoundaryTypeConversion =
      mlir::bufferization::LayoutMapOption::IdentityLayoutMap;
  pm.addPass(mlir::bufferization::createOneShotBufferizePass(bufferize));

  mlir::mplan::PlanPipelineOptions plan;
  plan.strategy = options.strategy;
  mlir::mplan::buildPlanPipeline(pm, plan);

  mlir::mplan::ConvertMPlanToMemRefOptions lower;
  lower.arena = "heap";
  pm.addPass(mlir::mplan::createConvertMPlanToMemRef(lower));
}
} // namespace

int main(int argc, char **argv) {
  // The MLIR-free planner is usable directly, too.
  const std::vector<std::string> &strategies = mplan::strategyNames();
  if (strategies.empty())
    return 1;

  mlir::registerAllPasses();
  mlir::mplan::registerMPlanPasses();
  mlir::mplan::registerMPlanConversionPasses();
  mlir::mplan::registerPlanPipeline();
  mlir::mplan::registerMPlanToLLVMPipeline();
  mlir::PassPipelineRegistration<DownstreamOptions>(
      "downstream-compile",
      "Bufferize, plan every static buffer with mplan, lower to a heap arena",
      buildDownstreamPipeline);

  mlir::DialectRegistry registry;
  mlir::registerAllDialects(registry);
  mlir::registerAllExtensions(registry);
  registry.insert<mlir::mplan::MPlanDialect>();
  return mlir::asMainReturnCode(mlir::MlirOptMain(
      argc, argv, "downstream compiler embedding mplan\n", registry));
}
