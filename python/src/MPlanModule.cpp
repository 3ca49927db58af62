//===- MPlanModule.cpp - pybind11 module mplan._mplan ---------------------===//
//
// Python bindings of the planner library (mplan/Support) and of the MLIR pass
// pipeline runner (PipelineBridge.h). Errors are raised as the exception
// classes of the pure-Python module `mplan.errors`.
//
//===----------------------------------------------------------------------===//

#include "PipelineBridge.h"

#include "mplan/Support/Csv.h"
#include "mplan/Support/Planner.h"

#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <optional>
#include <sstream>
#include <string>
#include <vector>

namespace py = pybind11;

namespace {

/// Raises `mplan.errors.<name>(args...)`.
template <typename... Args>
[[noreturn]] void raise(const char *name, Args &&...args) {
  py::object cls = py::module_::import("mplan.errors").attr(name);
  py::object exc = cls(std::forward<Args>(args)...);
  PyErr_SetObject(cls.ptr(), exc.ptr());
  throw py::error_already_set();
}

std::string reprBuffer(const mplan::Buffer &b) {
  std::ostringstream os;
  os << "Buffer(id=" << b.id << ", start=" << b.start << ", end=" << b.end
     << ", size=" << b.size;
  if (b.alignment != 1)
    os << ", alignment=" << b.alignment;
  os << ")";
  return os.str();
}

mplan::Plan planBuffers(const std::vector<mplan::Buffer> &buffers,
                        const std::string &strategy, double timeLimit,
                        int64_t alignment, int64_t stagger) {
  mplan::PlanOptions options;
  options.strategy = strategy;
  options.timeLimitSeconds = timeLimit;
  options.alignment = alignment;
  options.stagger = stagger;
  std::optional<mplan::Expected<mplan::Plan>> plan;
  {
    py::gil_scoped_release release;
    plan.emplace(mplan::planBuffers(buffers, options));
  }
  if (!*plan)
    raise("PlanError", plan->error());
  return std::move(plan->value());
}

mplan::CsvTable parseCsv(const std::string &text) {
  mplan::Expected<mplan::CsvTable> table = mplan::parseBufferCsv(text);
  if (!table)
    raise("CsvError", table.error());
  return std::move(table.value());
}

mplan::CsvTable readCsv(const std::string &path) {
  mplan::Expected<mplan::CsvTable> table = mplan::readBufferCsvFile(path);
  if (!table)
    raise("CsvError", table.error());
  return std::move(table.value());
}

py::object runPipeline(const std::string &source, const std::string &pipeline,
                       const std::string &sourceName, bool verifyEach,
                       bool printGeneric, bool printLocations,
                       bool multithreaded) {
  mplan::python::PipelineOptions options;
  options.sourceName = sourceName;
  options.verifyEach = verifyEach;
  options.printGeneric = printGeneric;
  options.printLocations = printLocations;
  options.multithreaded = multithreaded;
  mplan::python::PipelineResult result;
  {
    py::gil_scoped_release release;
    result = mplan::python::runPipeline(source, pipeline, options);
  }
  py::list diagnostics;
  for (const mplan::python::Diagnostic &diag : result.diagnostics)
    diagnostics.append(py::cast(diag));
  if (!result.success) {
    std::string message;
    for (const mplan::python::Diagnostic &diag : result.diagnostics) {
      if (diag.severity != "error")
        continue;
      if (!message.empty())
        message += "\n";
      if (!diag.file.empty())
        message += diag.file + ":" + std::to_string(diag.line) + ":" +
                   std::to_string(diag.column) + ": ";
      message += "error: " + diag.message;
    }
    raise("MLIRError", message, diagnostics);
  }
  return py::make_tuple(result.output, diagnostics, result.seconds);
}

} // namespace

PYBIND11_MODULE(_mplan, m) {
  m.doc() = "Native part of mplan: the planner library and the MLIR pass "
            "pipeline runner. Use the `mplan` package, not this module.";

  py::class_<mplan::Buffer>(m, "Buffer",
                            "One buffer to place: live in [start, end) "
                            "(start inclusive, end exclusive), size bytes.")
      .def(py::init([](int64_t id, int64_t start, int64_t end, int64_t size,
                       int64_t alignment) {
             return mplan::Buffer{id, start, end, size, alignment};
           }),
           py::arg("id"), py::arg("start"), py::arg("end"), py::arg("size"),
           py::arg("alignment") = 1)
      .def_readwrite("id", &mplan::Buffer::id)
      .def_readwrite("start", &mplan::Buffer::start, "inclusive")
      .def_readwrite("end", &mplan::Buffer::end, "exclusive")
      .def_readwrite("size", &mplan::Buffer::size, "bytes")
      .def_readwrite("alignment", &mplan::Buffer::alignment, "a power of two")
      .def("__repr__", &reprBuffer)
      .def("__eq__",
           [](const mplan::Buffer &a, const mplan::Buffer &b) {
             return a.id == b.id && a.start == b.start && a.end == b.end &&
                    a.size == b.size && a.alignment == b.alignment;
           })
      .def(py::pickle(
          [](const mplan::Buffer &b) {
            return py::make_tuple(b.id, b.start, b.end, b.size, b.alignment);
          },
          [](const py::tuple &t) {
            return mplan::Buffer{t[0].cast<int64_t>(), t[1].cast<int64_t>(),
                                 t[2].cast<int64_t>(), t[3].cast<int64_t>(),
                                 t[4].cast<int64_t>()};
          }));

  py::class_<mplan::Plan>(m, "Plan", "The result of planning.")
      .def_readonly("offsets", &mplan::Plan::offsets,
                    "Byte offset of every buffer, parallel to the input.")
      .def_readonly("arena_size", &mplan::Plan::arenaSize,
                    "Bytes of the arena (largest padded end).")
      .def_readonly("lower_bound", &mplan::Plan::lowerBound,
                    "The max-live lower bound in bytes.")
      .def_readonly("strategy", &mplan::Plan::strategy,
                    "The strategy that produced the plan, e.g. "
                    "'best(search)'.")
      .def_readonly("seconds", &mplan::Plan::seconds,
                    "Wall time spent planning.")
      .def_readonly("proven_optimal", &mplan::Plan::provenOptimal,
                    "True when arena_size - stagger_bytes is proven minimal.")
      .def_readonly("stagger_bytes", &mplan::Plan::staggerBytes,
                    "Bytes the stagger option added to arena_size.")
      .def_property_readonly(
          "ratio",
          [](const mplan::Plan &p) {
            return p.lowerBound > 0 ? static_cast<double>(p.arenaSize) /
                                          static_cast<double>(p.lowerBound)
                                    : 1.0;
          },
          "arena_size / lower_bound (1.0 when the bound is 0).")
      .def("__repr__", [](const mplan::Plan &p) {
        std::ostringstream os;
        os << "Plan(strategy='" << p.strategy << "', arena_size=" << p.arenaSize
           << ", lower_bound=" << p.lowerBound
           << ", buffers=" << p.offsets.size()
           << ", proven_optimal=" << (p.provenOptimal ? "True" : "False")
           << ")";
        return os.str();
      });

  py::class_<mplan::CsvTable>(m, "CsvTable",
                              "A parsed MiniMalloc CSV file: the raw header "
                              "and rows (extra columns kept) and the "
                              "buffers they describe.")
      .def_readonly("header", &mplan::CsvTable::header)
      .def_readonly("rows", &mplan::CsvTable::rows)
      .def_readonly("buffers", &mplan::CsvTable::buffers)
      .def_readonly("lines", &mplan::CsvTable::lines,
                    "1-based line of every row in the input.")
      .def("__len__", [](const mplan::CsvTable &t) { return t.buffers.size(); })
      .def("__repr__", [](const mplan::CsvTable &t) {
        return "CsvTable(buffers=" + std::to_string(t.buffers.size()) + ")";
      });

  py::class_<mplan::python::Diagnostic>(m, "Diagnostic", "One MLIR diagnostic.")
      .def_readonly("severity", &mplan::python::Diagnostic::severity)
      .def_readonly("location", &mplan::python::Diagnostic::location)
      .def_readonly("file", &mplan::python::Diagnostic::file)
      .def_readonly("line", &mplan::python::Diagnostic::line)
      .def_readonly("column", &mplan::python::Diagnostic::column)
      .def_readonly("message", &mplan::python::Diagnostic::message)
      .def("__str__",
           [](const mplan::python::Diagnostic &d) {
             std::string prefix;
             if (!d.file.empty())
               prefix = d.file + ":" + std::to_string(d.line) + ":" +
                        std::to_string(d.column) + ": ";
             return prefix + d.severity + ": " + d.message;
           })
      .def("__repr__", [](const mplan::python::Diagnostic &d) {
        return "Diagnostic(" + d.severity + ", " + d.location + ", '" +
               d.message + "')";
      });

  m.def("plan_buffers", &planBuffers, py::arg("buffers"),
        py::arg("strategy") = "best", py::arg("time_limit") = 10.0,
        py::arg("alignment") = 1, py::arg("stagger") = 0,
        "Plans buffers; raises mplan.errors.PlanError on invalid input, an "
        "unknown strategy or invalid options.");
  m.def(
      "lower_bound",
      [](const std::vector<mplan::Buffer> &buffers, int64_t alignment) {
        std::optional<int64_t> bound = mplan::lowerBound(buffers, alignment);
        if (!bound) {
          std::optional<std::string> err = mplan::validateInput(buffers);
          raise("PlanError",
                err ? *err : std::string("lower bound overflows int64"));
        }
        return *bound;
      },
      py::arg("buffers"), py::arg("alignment") = 1,
      "The max-live lower bound in bytes.");
  m.def("validate_plan", &mplan::validatePlan, py::arg("buffers"),
        py::arg("offsets"), py::arg("arena_size"), py::arg("alignment") = 1,
        "None when the plan is valid, else a message naming the buffer(s).");
  m.def("validate_input", &mplan::validateInput, py::arg("buffers"),
        "None when the buffers are a valid planning input, else a message.");
  m.def("strategies", &mplan::strategyNames,
        "Names of every strategy plan_buffers accepts.");
  m.def("parse_csv", &parseCsv, py::arg("text"),
        "Parses MiniMalloc CSV text; raises mplan.errors.CsvError.");
  m.def("read_csv", &readCsv, py::arg("path"),
        "Reads a MiniMalloc CSV file; raises mplan.errors.CsvError.");
  m.def(
      "write_csv",
      [](const mplan::CsvTable &table, const std::vector<int64_t> &offsets) {
        if (offsets.size() != table.rows.size())
          throw py::value_error("write_csv: " + std::to_string(offsets.size()) +
                                " offsets for " +
                                std::to_string(table.rows.size()) + " rows");
        return mplan::writeBufferCsv(table, offsets);
      },
      py::arg("table"), py::arg("offsets"),
      "The table's rows with an `offset` column, as CSV text.");
  m.def(
      "format_csv",
      [](const std::vector<mplan::Buffer> &buffers,
         std::optional<std::vector<int64_t>> offsets) {
        if (offsets && offsets->size() != buffers.size())
          throw py::value_error(
              "format_csv: " + std::to_string(offsets->size()) +
              " offsets for " + std::to_string(buffers.size()) + " buffers");
        return mplan::writeBufferCsv(buffers, offsets ? &*offsets : nullptr);
      },
      py::arg("buffers"), py::arg("offsets") = py::none(),
      "Buffers as id,lower,upper,size[,alignment][,offset] CSV text.");
  m.def("run_pipeline", &runPipeline, py::arg("source"), py::arg("pipeline"),
        py::arg("source_name") = "<string>", py::arg("verify_each") = true,
        py::arg("print_generic") = false, py::arg("print_locations") = false,
        py::arg("multithreaded") = false,
        "Parses MLIR text, runs a textual pass pipeline and returns "
        "(text, diagnostics, seconds); raises mplan.errors.MLIRError.");
  m.def("is_registered_pass", &mplan::python::isRegisteredPass, py::arg("name"),
        "Whether `name` is a registered pass or pass pipeline.");
}
