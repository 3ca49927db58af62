//===- ir_fuzzer.cpp - libFuzzer target: MLIR text + mplan passes ---------===//
//
// Arbitrary bytes go into MLIR's parser (every upstream dialect and mplan's
// registered, unknown dialects allowed so the passes meet ops they have never
// seen). Whatever parses and verifies goes through
//   mplan-plan-pipeline (capture, views, copies, [sequence], [in-place], plan)
//   mplan-verify-plan
//   convert-mplan-to-memref
//   mplan-tag-buffer-accesses, mplan-buffer-alias-scopes (the alias scopes of
//   mplan-to-llvm: tracing every access to its arena places, then removing
//   the marks)
// with options taken from a hash of the input. Oracles:
//  - no crash, no assertion, no sanitizer report, no hang (libFuzzer's
//    -timeout);
//  - the verifier accepts the output of every pass (checked after each pass);
//  - a pass that fails has emitted an error;
//  - on input without mplan ops (nothing planned yet), mplan-verify-plan
//    accepts whatever plan the pipeline made: a plan it rejects is wrong.
// See docs/hardening.md.
//
//===----------------------------------------------------------------------===//

#include "mplan/Conversion/Passes.h"
#include "mplan/Dialect/MPlan/IR/MPlanDialect.h"
#include "mplan/Transforms/Passes.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/DialectRegistry.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/IR/Verifier.h"
#include "mlir/InitAllDialects.h"
#include "mlir/InitAllExtensions.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Pass/PassInstrumentation.h"
#include "mlir/Pass/PassManager.h"

#include "llvm/Support/raw_ostream.h"

#include <cstdlib>
#include <memory>
#include <string>

using namespace mlir;

namespace {
DialectRegistry *registry;
const char *stage = "";
std::string_view currentInput;

[[noreturn]] void finding(const llvm::Twine &what, Operation *op = nullptr) {
  llvm::errs() << "mplan-fuzz-ir: " << what << " (stage: " << stage << ")\n";
  if (op)
    op->print(llvm::errs(), OpPrintingFlags().printGenericOpForm());
  llvm::errs() << "\n--- input ---\n" << currentInput << "\n---\n";
  std::abort();
}

/// Verifies the IR after every pass (the pass manager's own verifier would
/// only make the pipeline fail, which we could not tell from a pass error).
struct VerifyAfterEachPass : public PassInstrumentation {
  void runAfterPass(Pass *pass, Operation *op) override {
    // Verify from the module so that symbol uses are checked too.
    Operation *top = op;
    while (Operation *parent = top->getParentOp())
      top = parent;
    if (failed(verify(top)))
      finding(llvm::Twine("the verifier rejects the output of ") +
                  pass->getArgument(),
              top);
  }
};

uint64_t hashBytes(std::string_view s) {
  uint64_t h = 1469598103934665603ull; // FNV-1a
  for (unsigned char c : s)
    h = (h ^ c) * 1099511628211ull;
  return h;
}

/// Inputs that crash MLIR 22's own parser are skipped (upstream bugs, not
/// mplan's; docs/hardening.md): brackets nested more than 256 deep (recursion),
/// and the custom parsers of linalg.reduce / linalg.transpose /
/// linalg.broadcast, which dereference a null attribute when the list after
/// `dimensions =` / `permutation =` does not parse. Skipping them keeps the
/// fuzzer exploring mplan's code.
bool mayCrashUpstreamParser(std::string_view text) {
  // MLIR's parser recurses once per nested bracket: thousands of '(' or '<'
  // overflow the stack (more so under ASan). mplan's own depth tests are
  // lit tests (test/Hardening/ir-nesting.test).
  int depth = 0;
  for (char c : text) {
    if (c == '(' || c == '<' || c == '[' || c == '{')
      ++depth;
    else if ((c == ')' || c == '>' || c == ']' || c == '}') && depth > 0)
      --depth; // also the '>' of '->': an underestimate at worst
    if (depth > 256)
      return true;
  }
  for (std::string_view key : {"dimensions", "permutation"}) {
    for (size_t pos = text.find(key); pos != std::string_view::npos;
         pos = text.find(key, pos + 1)) {
      size_t i = pos + key.size();
      auto skipSpace = [&] {
        while (i < text.size() && (text[i] == ' ' || text[i] == '\n'))
          ++i;
      };
      skipSpace();
      if (i >= text.size() || text[i] != '=')
        continue;
      ++i;
      skipSpace();
      // Only `[` (integer (`,` integer)*)? `]` is safe.
      if (i >= text.size() || text[i] != '[')
        return true;
      ++i;
      skipSpace();
      if (i < text.size() && text[i] == ']')
        continue;
      while (true) {
        if (i < text.size() && text[i] == '-')
          ++i;
        size_t digits = i;
        while (i < text.size() && text[i] >= '0' && text[i] <= '9')
          ++i;
        if (i == digits)
          return true;
        skipSpace();
        if (i < text.size() && text[i] == ']')
          break;
        if (i >= text.size() || text[i] != ',')
          return true;
        ++i;
        skipSpace();
      }
    }
  }
  return false;
}

bool hasMPlanOps(ModuleOp module) {
  bool found = false;
  module.walk([&](Operation *op) {
    if (op->getDialect() && op->getDialect()->getNamespace() ==
                                mplan::MPlanDialect::getDialectNamespace()) {
      found = true;
      return WalkResult::interrupt();
    }
    return WalkResult::advance();
  });
  return found;
}

/// Runs `pm` on `module`; returns whether it succeeded and checks that a
/// failure came with an error.
bool runStage(const char *name, PassManager &pm, ModuleOp module,
              bool &sawError) {
  stage = name;
  sawError = false;
  LogicalResult result = pm.run(module);
  if (failed(result) && !sawError)
    finding("a pass failed without an error diagnostic", module);
  return succeeded(result);
}
} // namespace

extern "C" int LLVMFuzzerInitialize(int *, char ***) {
  registry = new DialectRegistry();
  registerAllDialects(*registry);
  registerAllExtensions(*registry);
  registry->insert<mplan::MPlanDialect>();
  return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  // A fresh context per input: every finding reproduces from its input
  // alone (nothing carries over from earlier runs).
  MLIRContext context(*registry, MLIRContext::Threading::DISABLED);
  context.allowUnregisteredDialects();
  MLIRContext *ctx = &context;
  currentInput = std::string_view(reinterpret_cast<const char *>(data), size);

  bool sawError = false;
  ScopedDiagnosticHandler handler(ctx, [&](Diagnostic &diag) {
    if (diag.getSeverity() == DiagnosticSeverity::Error)
      sawError = true;
    return success(); // swallow
  });

  if (mayCrashUpstreamParser(currentInput))
    return 0;
  stage = "parse";
  ParserConfig config(ctx);
  // MLIR's lexer reads the byte after the buffer (MemoryBuffer guarantees a
  // NUL there); libFuzzer's data has none, so parse a NUL-terminated copy.
  std::string text(currentInput);
  OwningOpRef<ModuleOp> module = parseSourceString<ModuleOp>(
      llvm::StringRef(text.data(), text.size()), config);
  if (!module || failed(verify(*module)))
    return 0;
  bool clean = !hasMPlanOps(*module);

  uint64_t h = hashBytes(currentInput);
  static const char *strategies[] = {"best",           "portfolio",
                                     "greedy-by-size", "greedy-by-breadth",
                                     "linear-scan",    "naive"};
  static const char *sequences[] = {"program", "program", "greedy", "best"};
  static const char *arenas[] = {"heap", "stack", "global", "argument"};
  mplan::PlanPipelineOptions options;
  options.strategy = strategies[h % 6];
  options.timeLimit = 0.005;
  options.sequence = sequences[(h >> 4) % 4];
  options.inplace = (h >> 8) % 2;
  options.viewsAndCopies = (h >> 9) % 8 != 0;
  options.peakGuard = static_cast<mplan::PeakGuard>((h >> 12) % 3);
  options.alignment = int64_t(1) << ((h >> 16) % 8);

  PassManager plan(ctx);
  plan.enableVerifier(false);
  plan.addInstrumentation(std::make_unique<VerifyAfterEachPass>());
  mplan::buildPlanPipeline(plan, options);
  // A located error is a legitimate outcome (e.g. a malformed
  // mplan.unplanned attribute); runStage checks there is one.
  if (!runStage("mplan-plan-pipeline", plan, *module, sawError))
    return 0;

  PassManager verifyPlan(ctx);
  verifyPlan.enableVerifier(false);
  verifyPlan.addNestedPass<func::FuncOp>(mplan::createMPlanVerifyPlan());
  if (!runStage("mplan-verify-plan", verifyPlan, *module, sawError)) {
    if (clean)
      finding("mplan-verify-plan rejects the plan", *module);
    return 0;
  }

  PassManager lower(ctx);
  lower.enableVerifier(false);
  lower.addInstrumentation(std::make_unique<VerifyAfterEachPass>());
  mplan::ConvertMPlanToMemRefOptions lowerOptions;
  lowerOptions.arena = arenas[(h >> 20) % 4];
  lower.addPass(mplan::createConvertMPlanToMemRef(lowerOptions));
  lower.addNestedPass<func::FuncOp>(mplan::createMPlanTagBufferAccesses());
  lower.addPass(mplan::createMPlanBufferAliasScopes());
  (void)runStage("convert-mplan-to-memref", lower, *module, sawError);
  return 0;
}
