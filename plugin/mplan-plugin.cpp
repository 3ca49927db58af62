//===- mplan-plugin.cpp - mplan as a plugin of upstream mlir-opt ----------===//
//
// One shared object, MPlanPlugin.so, that Debian's own mlir-opt loads:
//
//   mlir-opt --load-dialect-plugin=build/lib/MPlanPlugin.so \
//            --load-pass-plugin=build/lib/MPlanPlugin.so \
//            in.mlir --mplan-plan-pipeline --convert-mplan-to-memref
//
// The dialect plugin registers the mplan dialect, the pass plugin every mplan
// pass and pipeline (as MLIR's examples/standalone does).
//
//===----------------------------------------------------------------------===//

#include "mplan/Conversion/Passes.h"
#include "mplan/Dialect/MPlan/IR/MPlanDialect.h"
#include "mplan/Transforms/Passes.h"

#include "mlir/IR/DialectRegistry.h"
#include "mlir/Tools/Plugins/DialectPlugin.h"
#include "mlir/Tools/Plugins/PassPlugin.h"

#include "llvm/Config/llvm-config.h"
#include "llvm/Support/Compiler.h"

using namespace mlir;

extern "C" LLVM_ATTRIBUTE_WEAK DialectPluginLibraryInfo
mlirGetDialectPluginInfo() {
  return {MLIR_PLUGIN_API_VERSION, "MPlan", LLVM_VERSION_STRING,
          [](DialectRegistry *registry) {
            registry->insert<mplan::MPlanDialect>();
          }};
}

extern "C" LLVM_ATTRIBUTE_WEAK PassPluginLibraryInfo mlirGetPassPluginInfo() {
  return {MLIR_PLUGIN_API_VERSION, "MPlanPasses", LLVM_VERSION_STRING, []() {
            mplan::registerMPlanPasses();
            mplan::registerMPlanConversionPasses();
            mplan::registerPlanPipeline();
            mplan::registerMPlanToLLVMPipeline();
          }};
}
