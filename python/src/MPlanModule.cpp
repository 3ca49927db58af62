//===- MPlanModule.cpp - pybind11 module mplan._mplan ---------------------===//
//
// Python bindings of the planner library (mplan/Support) and of the MLIR pass
// pipeline runner (PipelineBridge.h). Errors are raised as the exception
// classes of the pure-Python module `mplan.errors`.
//
//===----------------------------------------------------------------------===//

#include "PipelineBridge.h"

#include "mplan/Support/CheckedMath.h"
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

/// `text` as a Python str; bytes that are not UTF-8 (CSV files may have
/// any) become lone surrogates with "surrogateescape", which writing with the
/// same handler turns back into the same bytes, or U+FFFD with "replace".
py::str decode(const std::string &text,
               const char *errors = "surrogateescape") {
  PyObject *str = PyUnicode_DecodeUTF8(
      text.data(), static_cast<Py_ssize_t>(text.size()), errors);
  if (!str)
    throw py::error_already_set();
  return py::reinterpret_steal<py::str>(str);
}

/// Raises `mplan.errors.<name>(message, args...)`.
template <typename... Args>
[[noreturn]] void raise(const char *name, const std::string &message,
                        Args &&...args) {
  py::object cls = py::module_::import("mplan.errors").attr(name);
  py::object exc = cls(decode(message, "replace"), std::forward<Args>(args)...);
  PyErr_SetObject(cls.ptr(), exc.ptr());
  throw py::error_already_set();
}

/// CSV fields as a list of Python strs (see decode).
py::list decodeFields(const std::vector<std::string> &fields) {
  py::list result;
  for (const std::string &field : fields)
    result.append(decode(field));
  return result;
}

/// `repr(value) (type)`, shortened, for messages about a rejected value.
std::string describe(py::handle value) {
  std::string text;
  try {
    text = py::repr(value).cast<std::string>();
  } catch (const py::error_already_set &) {
    text = "<unprintable>";
  }
  if (text.size() > 40)
    text = text.substr(0, 37) + "...";
  // module.qualname as mplan._describe shows it (tp_name has no module for
  // classes defined in Python).
  std::string type = Py_TYPE(value.ptr())->tp_name;
  try {
    py::handle cls = reinterpret_cast<PyObject *>(Py_TYPE(value.ptr()));
    std::string module = py::str(cls.attr("__module__"));
    type = py::str(cls.attr("__qualname__"));
    if (module != "builtins")
      type = module + "." + type;
  } catch (const py::error_already_set &) {
  }
  return text + " (" + type + ")";
}

/// Whether `value` declares itself an integer: a Python int or anything with
/// __index__ (numpy integer scalars, 0-d integral arrays), but no bool (numpy
/// booleans still have a deprecated __index__).
bool isInteger(py::handle value) {
  if (PyBool_Check(value.ptr()) || !PyIndex_Check(value.ptr()))
    return false;
  if (!py::hasattr(value, "dtype"))
    return true;
  try {
    std::string kind = py::str(value.attr("dtype").attr("kind"));
    return kind == "i" || kind == "u";
  } catch (const py::error_already_set &) {
    return false;
  }
}

/// The one conversion of user values to int64_t (buffer fields, offsets,
/// integer options; see docs/python.md): integers only, in the signed 64-bit
/// range. Anything else raises PlanError naming `what` ("buffers[3] (id 7):
/// size", "alignment", ...).
int64_t toInt64(py::handle value, const std::string &what) {
  if (!isInteger(value))
    raise("PlanError", what + " " + describe(value) + " is not an integer");
  py::object index =
      py::reinterpret_steal<py::object>(PyNumber_Index(value.ptr()));
  if (!index) {
    PyErr_Clear();
    raise("PlanError", what + " " + describe(value) + " is not an integer");
  }
  int overflow = 0;
  long long result = PyLong_AsLongLongAndOverflow(index.ptr(), &overflow);
  if (overflow)
    raise("PlanError", what + " " + py::str(index).cast<std::string>() +
                           " is out of range for a 64-bit integer");
  if (result == -1 && PyErr_Occurred()) {
    PyErr_Clear();
    raise("PlanError", what + " " + describe(value) + " is not an integer");
  }
  return result;
}

/// Defines the int64_t field `name` of Buffer as a property whose setter
/// converts through toInt64.
void defField(py::class_<mplan::Buffer> &cls, const char *name,
              int64_t mplan::Buffer::*field, const char *doc) {
  cls.def_property(
      name,
      py::cpp_function([field](const mplan::Buffer &b) { return b.*field; }),
      py::cpp_function([field, name](mplan::Buffer &b, py::handle value) {
        b.*field = toInt64(value, std::string("Buffer ") + name);
      }),
      doc);
}

/// PlanError unless the `alignment` option is a power of two (the message of
/// mplan::planBuffers).
void checkAlignment(int64_t alignment) {
  if (!mplan::isPowerOf2(alignment))
    raise("PlanError",
          "alignment " + std::to_string(alignment) + " is not a power of two");
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

  py::class_<mplan::Buffer> buffer(
      m, "Buffer",
      "One buffer to place: live in [start, end) (start inclusive, end "
      "exclusive), size bytes. Fields are integers (int, numpy integers); "
      "anything else raises mplan.PlanError.");
  buffer
      .def(py::init([](py::handle id, py::handle start, py::handle end,
                       py::handle size, py::handle alignment) {
             return mplan::Buffer{
                 toInt64(id, "Buffer id"), toInt64(start, "Buffer start"),
                 toInt64(end, "Buffer end"), toInt64(size, "Buffer size"),
                 toInt64(alignment, "Buffer alignment")};
           }),
           py::arg("id"), py::arg("start"), py::arg("end"), py::arg("size"),
           py::arg("alignment") = 1)
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
            if (t.size() != 5)
              raise("PlanError", "Buffer state " + describe(t) +
                                     " is not (id, start, end, size, "
                                     "alignment)");
            return mplan::Buffer{
                toInt64(t[0], "Buffer id"), toInt64(t[1], "Buffer start"),
                toInt64(t[2], "Buffer end"), toInt64(t[3], "Buffer size"),
                toInt64(t[4], "Buffer alignment")};
          }));
  defField(buffer, "id", &mplan::Buffer::id, "unique among the buffers");
  defField(buffer, "start", &mplan::Buffer::start, "inclusive");
  defField(buffer, "end", &mplan::Buffer::end, "exclusive");
  defField(buffer, "size", &mplan::Buffer::size, "bytes");
  defField(buffer, "alignment", &mplan::Buffer::alignment, "a power of two");

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
      .def_property_readonly(
          "header",
          [](const mplan::CsvTable &t) { return decodeFields(t.header); },
          "The header's column names.")
      .def_property_readonly(
          "rows",
          [](const mplan::CsvTable &t) {
            py::list rows;
            for (size_t r = 0; r < t.numRows(); ++r) {
              std::vector<std::string_view> fields = t.fields(r);
              rows.append(decodeFields(
                  std::vector<std::string>(fields.begin(), fields.end())));
            }
            return rows;
          },
          "The raw fields of every row (bytes that are not UTF-8 as lone "
          "surrogates, 'surrogateescape').")
      .def_readonly("buffers", &mplan::CsvTable::buffers)
      .def_readonly("lines", &mplan::CsvTable::lines,
                    "1-based line of every row in the input.")
      .def("__len__", [](const mplan::CsvTable &t) { return t.buffers.size(); })
      .def("__repr__", [](const mplan::CsvTable &t) {
        return "CsvTable(buffers=" + std::to_string(t.buffers.size()) + ")";
      });

  using mplan::python::Diagnostic;
  py::class_<Diagnostic> diagnostic(m, "Diagnostic", "One MLIR diagnostic.");
  for (auto [name, field] : {std::pair{"severity", &Diagnostic::severity},
                             std::pair{"location", &Diagnostic::location},
                             std::pair{"file", &Diagnostic::file},
                             std::pair{"message", &Diagnostic::message}})
    diagnostic.def_property_readonly(
        name,
        [field = field](const Diagnostic &d) { return decode(d.*field); });
  diagnostic.def_readonly("line", &Diagnostic::line)
      .def_readonly("column", &Diagnostic::column)
      .def("__str__",
           [](const Diagnostic &d) {
             std::string prefix;
             if (!d.file.empty())
               prefix = d.file + ":" + std::to_string(d.line) + ":" +
                        std::to_string(d.column) + ": ";
             return decode(prefix + d.severity + ": " + d.message, "replace");
           })
      .def("__repr__", [](const Diagnostic &d) {
        return decode("Diagnostic(" + d.severity + ", " + d.location + ", '" +
                          d.message + "')",
                      "replace");
      });

  m.def("plan_buffers", &planBuffers, py::arg("buffers"),
        py::arg("strategy") = "best", py::arg("time_limit") = 10.0,
        py::arg("alignment") = 1, py::arg("stagger") = 0,
        "Plans buffers; raises mplan.errors.PlanError on invalid input, an "
        "unknown strategy or invalid options.");
  m.def(
      "lower_bound",
      [](const std::vector<mplan::Buffer> &buffers, int64_t alignment) {
        checkAlignment(alignment);
        if (std::optional<std::string> err = mplan::validateInput(buffers))
          raise("PlanError", *err);
        std::optional<int64_t> bound = mplan::lowerBound(buffers, alignment);
        if (!bound)
          raise("PlanError", "the sum of the sizes of buffers live at the "
                             "same time, padded to alignment " +
                                 std::to_string(alignment) +
                                 ", overflows int64");
        return *bound;
      },
      py::arg("buffers"), py::arg("alignment") = 1,
      "The max-live lower bound in bytes; raises mplan.errors.PlanError.");
  m.def(
      "validate_plan",
      [](const std::vector<mplan::Buffer> &buffers,
         const std::vector<int64_t> &offsets, int64_t arenaSize,
         int64_t alignment) {
        checkAlignment(alignment);
        return mplan::validatePlan(buffers, offsets, arenaSize, alignment);
      },
      py::arg("buffers"), py::arg("offsets"), py::arg("arena_size"),
      py::arg("alignment") = 1,
      "None when the plan is valid, else a message naming the buffer(s); "
      "raises mplan.errors.PlanError for an invalid alignment.");
  m.def("to_int64", &toInt64, py::arg("value"), py::arg("what"),
        "The one conversion of user values to int64 (integers only); raises "
        "mplan.errors.PlanError naming `what`.");
  m.def("validate_input", &mplan::validateInput, py::arg("buffers"),
        "None when the buffers are a valid planning input, else a message.");
  m.def(
      "check_buffers",
      [](const std::vector<mplan::Buffer> &buffers)
          -> std::optional<std::pair<size_t, std::string>> {
        for (size_t i = 0; i < buffers.size(); ++i)
          if (std::optional<std::string> msg =
                  mplan::checkBufferFields(buffers[i]))
            return std::make_pair(i, *msg);
        return std::nullopt;
      },
      py::arg("buffers"),
      "None when every buffer passes the CSV reader's value checks, else "
      "(index, message) of the first that does not.");
  m.def("strategies", &mplan::strategyNames,
        "Names of every strategy plan_buffers accepts.");
  m.def("parse_csv", &parseCsv, py::arg("text"),
        "Parses MiniMalloc CSV text; raises mplan.errors.CsvError.");
  m.def("read_csv", &readCsv, py::arg("path"),
        "Reads a MiniMalloc CSV file; raises mplan.errors.CsvError.");
  m.def(
      "write_csv",
      [](const mplan::CsvTable &table, const std::vector<int64_t> &offsets) {
        if (offsets.size() != table.numRows())
          raise("PlanError", std::to_string(offsets.size()) + " offsets for " +
                                 std::to_string(table.numRows()) + " rows");
        return decode(mplan::writeBufferCsv(table, offsets));
      },
      py::arg("table"), py::arg("offsets"),
      "The table's rows with an `offset` column, as CSV text.");
  m.def(
      "format_csv",
      [](const std::vector<mplan::Buffer> &buffers,
         std::optional<std::vector<int64_t>> offsets) {
        if (offsets && offsets->size() != buffers.size())
          raise("PlanError", std::to_string(offsets->size()) + " offsets for " +
                                 std::to_string(buffers.size()) + " buffers");
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
