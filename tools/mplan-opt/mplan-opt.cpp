//===- mplan-opt.cpp - mplan optimizer driver -----------------------------===//
//
// An MlirOptMain driver with every upstream dialect, pass and extension plus
// mplan's dialect and passes.
//
//===----------------------------------------------------------------------===//

#include "mplan/Conversion/Passes.h"
#include "mplan/Dialect/MPlan/IR/MPlanDialect.h"
#include "mplan/Transforms/Passes.h"
#include "mplan/Version.h"

#include "mlir/IR/DialectRegistry.h"
#include "mlir/InitAllDialects.h"
#include "mlir/InitAllExtensions.h"
#include "mlir/InitAllPasses.h"
#include "mlir/Tools/mlir-opt/MlirOptMain.h"

#include "llvm/Support/CommandLine.h"
#include "llvm/Support/raw_ostream.h"

namespace mlir::mplan {
/// Test passes from test/lib (-test-mplan-liveness, ...).
void registerTestPasses();
} // namespace mlir::mplan

int main(int argc, char **argv) {
  // `mplan-opt --version`: mplan's version after LLVM's.
  llvm::cl::AddExtraVersionPrinter([](llvm::raw_ostream &os) {
    os << "mplan version " << MPLAN_VERSION_STRING << "\n";
  });
  mlir::registerAllPasses();
  mlir::mplan::registerMPlanPasses();
  mlir::mplan::registerMPlanConversionPasses();
  mlir::mplan::registerPlanPipeline();
  mlir::mplan::registerTestPasses();
  mlir::mplan::registerMPlanToLLVMPipeline();

  mlir::DialectRegistry registry;
  mlir::registerAllDialects(registry);
  mlir::registerAllExtensions(registry);
  registry.insert<mlir::mplan::MPlanDialect>();
  return mlir::asMainReturnCode(
      mlir::MlirOptMain(argc, argv, "mplan optimizer driver\n", registry));
}
