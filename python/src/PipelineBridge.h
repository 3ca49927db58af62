//===- PipelineBridge.h - MLIR pipeline runner for Python -------*- C++ -*-===//
//
// A plain C++ interface (standard library types only) between the pybind11
// module, which is compiled with exceptions and RTTI, and MLIR, which is
// compiled without them. Only PipelineBridge.cpp includes MLIR headers.
//
//===----------------------------------------------------------------------===//

#ifndef MPLAN_PYTHON_PIPELINEBRIDGE_H
#define MPLAN_PYTHON_PIPELINEBRIDGE_H

#include <string>
#include <vector>

namespace mplan {
namespace python {

/// One MLIR diagnostic. `file` is empty and `line`/`column` are 0 when the
/// diagnostic has no file location.
struct Diagnostic {
  std::string severity; ///< "error", "warning", "remark" or "note"
  std::string location; ///< the printed location, e.g. loc("a.mlir":3:5)
  std::string file;
  unsigned line = 0;
  unsigned column = 0;
  std::string message;
};

struct PipelineResult {
  bool success = false;
  std::string output; ///< the printed module when success
  std::vector<Diagnostic> diagnostics;
  double seconds = 0; ///< wall time of parse + pipeline
};

struct PipelineOptions {
  /// Name used in locations of the parsed text.
  std::string sourceName = "<string>";
  /// Verify the IR after every pass.
  bool verifyEach = true;
  /// Print the generic op form.
  bool printGeneric = false;
  /// Print debug locations.
  bool printLocations = false;
  /// Run function-level passes on several threads.
  bool multithreaded = false;
};

/// Parses `source` as an MLIR module in a context with every upstream dialect
/// and extension plus mplan's, runs `pipeline` (a textual pass pipeline such
/// as "mplan-plan-pipeline{strategy=best}", optionally wrapped in
/// "builtin.module(...)") and prints the result. Never throws; failures are
/// reported through `diagnostics` and `success == false`.
PipelineResult runPipeline(const std::string &source,
                           const std::string &pipeline,
                           const PipelineOptions &options);

/// Whether `name` is a registered pass or pass pipeline (e.g.
/// "mplan-plan-pipeline", "one-shot-bufferize").
bool isRegisteredPass(const std::string &name);

} // namespace python
} // namespace mplan

#endif // MPLAN_PYTHON_PIPELINEBRIDGE_H
