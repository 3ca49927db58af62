//===- PipelineBridge.cpp - MLIR pipeline runner for Python ---------------===//
//
// Compiled with LLVM's flags (no exceptions, no RTTI), like the MLIR tools.
//
//===----------------------------------------------------------------------===//

#include "PipelineBridge.h"

#include "mplan/Conversion/Passes.h"
#include "mplan/Dialect/MPlan/IR/MPlanDialect.h"
#include "mplan/Transforms/Passes.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/DialectRegistry.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/IR/OperationSupport.h"
#include "mlir/InitAllDialects.h"
#include "mlir/InitAllExtensions.h"
#include "mlir/InitAllPasses.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassRegistry.h"

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/raw_ostream.h"

#include <algorithm>
#include <chrono>
#include <mutex>

using namespace mlir;

namespace mplan {
namespace python {

static void registerEverything() {
  static std::once_flag once;
  std::call_once(once, [] {
    registerAllPasses();
    mlir::mplan::registerMPlanPasses();
    mlir::mplan::registerMPlanConversionPasses();
    mlir::mplan::registerPlanPipeline();
    mlir::mplan::registerMPlanToLLVMPipeline();
  });
}

static const char *severityName(DiagnosticSeverity severity) {
  switch (severity) {
  case DiagnosticSeverity::Error:
    return "error";
  case DiagnosticSeverity::Warning:
    return "warning";
  case DiagnosticSeverity::Remark:
    return "remark";
  case DiagnosticSeverity::Note:
    return "note";
  }
  return "error";
}

static Diagnostic convert(mlir::Diagnostic &diag) {
  Diagnostic result;
  result.severity = severityName(diag.getSeverity());
  result.message = diag.str();
  llvm::raw_string_ostream locStream(result.location);
  diag.getLocation().print(locStream);
  // The first file location inside the location (names, call sites and
  // fused locations wrap one).
  diag.getLocation()->walk([&](Location loc) {
    if (auto fileLoc = dyn_cast<FileLineColLoc>(loc)) {
      result.file = fileLoc.getFilename().str();
      result.line = fileLoc.getLine();
      result.column = fileLoc.getColumn();
      return WalkResult::interrupt();
    }
    return WalkResult::advance();
  });
  return result;
}

static Diagnostic plainError(std::string message) {
  Diagnostic result;
  result.severity = "error";
  result.message = std::move(message);
  return result;
}

PipelineResult runPipeline(const std::string &source,
                           const std::string &pipeline,
                           const PipelineOptions &options) {
  registerEverything();
  auto begin = std::chrono::steady_clock::now();
  PipelineResult result;
  auto finish = [&](bool success) -> PipelineResult {
    result.success = success;
    result.seconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - begin)
            .count();
    return std::move(result);
  };

  DialectRegistry registry;
  registerAllDialects(registry);
  registerAllExtensions(registry);
  registry.insert<mlir::mplan::MPlanDialect>();
  MLIRContext context(registry, options.multithreaded
                                    ? MLIRContext::Threading::ENABLED
                                    : MLIRContext::Threading::DISABLED);
  context.allowUnregisteredDialects(false);

  ScopedDiagnosticHandler handler(&context, [&](mlir::Diagnostic &diag) {
    result.diagnostics.push_back(convert(diag));
    for (mlir::Diagnostic &note : diag.getNotes())
      result.diagnostics.push_back(convert(note));
    return success();
  });

  // Parse the pipeline first so a typo costs no parsing of a large module.
  llvm::StringRef text = llvm::StringRef(pipeline).trim();
  std::string anchored = text.starts_with("builtin.module(")
                             ? text.str()
                             : ("builtin.module(" + text + ")").str();
  std::string pipelineError;
  llvm::raw_string_ostream pipelineErrorStream(pipelineError);
  FailureOr<OpPassManager> parsed =
      parsePassPipeline(anchored, pipelineErrorStream);
  if (failed(parsed)) {
    std::string message = "invalid pass pipeline '" + text.str() + "'";
    if (!pipelineError.empty())
      message += ": " + llvm::StringRef(pipelineError).trim().str();
    result.diagnostics.push_back(plainError(std::move(message)));
    return finish(false);
  }
  PassManager pm(&context, ModuleOp::getOperationName());
  static_cast<OpPassManager &>(pm) = std::move(*parsed);
  pm.enableVerifier(options.verifyEach);

  ParserConfig config(&context);
  OwningOpRef<ModuleOp> module =
      parseSourceString<ModuleOp>(source, config, options.sourceName);
  if (!module) {
    if (result.diagnostics.empty())
      result.diagnostics.push_back(plainError("cannot parse the MLIR input"));
    return finish(false);
  }

  if (failed(pm.run(*module))) {
    bool anyError = std::any_of(
        result.diagnostics.begin(), result.diagnostics.end(),
        [](const Diagnostic &diag) { return diag.severity == "error"; });
    if (!anyError)
      result.diagnostics.push_back(
          plainError("pass pipeline '" + text.str() + "' failed"));
    return finish(false);
  }

  OpPrintingFlags flags;
  if (options.printGeneric)
    flags.printGenericOpForm();
  if (options.printLocations)
    flags.enableDebugInfo();
  llvm::raw_string_ostream out(result.output);
  module->print(out, flags);
  return finish(true);
}

bool isRegisteredPass(const std::string &name) {
  registerEverything();
  return PassInfo::lookup(name) || PassPipelineInfo::lookup(name);
}

} // namespace python
} // namespace mplan
