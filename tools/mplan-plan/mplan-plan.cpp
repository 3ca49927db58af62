//===- mplan-plan.cpp - Plan a MiniMalloc CSV from the command line -------===//
//
//   mplan-plan [--strategy=NAME] [--time-limit=SECONDS] [--alignment=BYTES]
//              [--capacity=BYTES] [--stagger=BYTES] [--search-stats]
//              [--report=OUT.json] [--portfolio-members] IN.csv [-o OUT.csv]
//
// Reads buffers in MiniMalloc's CSV format (id,lower,upper,size; extra
// columns kept), plans them with the mplan planner library and writes the same
// rows with an `offset` column. A one-line summary goes to stderr (when `best`
// stops above its goal, the line ends with the goal and the gap, and a
// warning follows). Malformed input is reported with its line number and
// produces no output file.
//
//===----------------------------------------------------------------------===//

#include "mplan/Support/Csv.h"
#include "mplan/Support/Planner.h"
#include "mplan/Version.h"

#include "llvm/Support/CommandLine.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/LogicalResult.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/ToolOutputFile.h"
#include "llvm/Support/WithColor.h"
#include "llvm/Support/raw_ostream.h"

#include <algorithm>
#include <chrono>
#include <string>

using namespace llvm;

namespace {
cl::OptionCategory category("mplan-plan options");

cl::opt<std::string> inputFilename(cl::Positional, cl::Required,
                                   cl::desc("<input csv, or - for stdin>"),
                                   cl::cat(category));
cl::opt<std::string> outputFilename("o", cl::init("-"),
                                    cl::desc("Output CSV (default: stdout)"),
                                    cl::value_desc("filename"),
                                    cl::cat(category));
cl::opt<std::string>
    strategy("strategy", cl::init("best"),
             cl::desc("Planning strategy: naive, linear-scan, greedy-by-size, "
                      "greedy-by-breadth, time-best-fit, portfolio, best "
                      "(default)"),
             cl::cat(category));
cl::opt<double> timeLimit("time-limit", cl::init(10.0),
                          cl::desc("Budget of `best` in seconds, reading "
                                   "and writing included (default 10; "
                                   "`portfolio` spends 1/40 of it, at least "
                                   "0.1 s); every strategy gives up 3 s past "
                                   "it with an error"),
                          cl::value_desc("seconds"), cl::cat(category));
cl::opt<int64_t> alignment("alignment", cl::init(1),
                           cl::desc("Minimum alignment of every buffer in "
                                    "bytes (a power of two, default 1)"),
                           cl::value_desc("bytes"), cl::cat(category));

cl::opt<int64_t>
    capacity("capacity", cl::init(0),
             cl::desc("Arena size that is good enough: `best` stops as soon "
                      "as its plan fits (default 0: aim at the lower bound)"),
             cl::value_desc("bytes"), cl::cat(category));

cl::opt<int64_t>
    stagger("stagger", cl::init(0),
            cl::desc("Cache stagger: move every offset o up by (o / 4096) * "
                     "stagger bytes (default 0: off)"),
            cl::value_desc("bytes"), cl::cat(category));

cl::opt<bool> printStats("search-stats",
                         cl::desc("Print the exact search's counters (nodes, "
                                  "backtracks, inference cut-offs, "
                                  "decompositions, restarts) on stderr"),
                         cl::cat(category));

cl::opt<bool> printMembers(
    "portfolio-members",
    cl::desc("Print every portfolio member of `portfolio` and `best` on "
             "stderr: its estimated and measured seconds, the time left "
             "when it was considered, and its arena"),
    cl::cat(category));

cl::opt<std::string>
    reportFilename("report",
                   cl::desc("Write a JSON report of the plan (the pass "
                            "report's function entry, plus the goal, the gap "
                            "and the search counters)"),
                   cl::value_desc("filename"), cl::cat(category));

/// The gap of a plan to its goal as a percentage of the goal.
double gapPercent(const mplan::Plan &plan) {
  return plan.goalBytes > 0
             ? 100.0 * static_cast<double>(mplan::goalGap(plan)) /
                   static_cast<double>(plan.goalBytes)
             : 0.0;
}

/// What the goal of `best` was: the capacity or the lower bound.
const char *goalName(const mplan::Plan &plan) {
  return plan.goalBytes > plan.lowerBound ? "capacity" : "lower bound";
}

json::Value searchJson(const mplan::SearchStats &s) {
  return json::Object{
      {"nodes", static_cast<int64_t>(s.nodes)},
      {"hole_nodes", static_cast<int64_t>(s.holeNodes)},
      {"backtracks", static_cast<int64_t>(s.backtracks)},
      {"cutoffs", static_cast<int64_t>(s.cutoffs)},
      {"decompositions", static_cast<int64_t>(s.decompositions)},
      {"restarts", static_cast<int64_t>(s.restarts)},
      {"work", static_cast<int64_t>(s.work)},
      {"targets", s.targets},
      {"solved_by", s.solvedBy},
      {"seconds", s.seconds}};
}

/// The report: one function entry named after the input, in the format of
/// the pipeline's report= (buffers with the CSV's lower/upper as start/end).
json::Value reportJson(const mplan::CsvTable &table, const mplan::Plan &plan,
                       StringRef name) {
  json::Array buffers;
  for (size_t r = 0; r < table.buffers.size(); ++r) {
    const mplan::Buffer &b = table.buffers[r];
    buffers.push_back(
        json::Object{{"id", b.id},
                     {"loc", "line " + std::to_string(table.lines[r])},
                     {"start", b.start},
                     {"end", b.end},
                     {"size", b.size},
                     {"offset", plan.offsets[r]}});
  }
  json::Object fn{{"name", name},
                  {"strategy", plan.strategy},
                  {"arena_bytes", plan.arenaSize},
                  {"lower_bound_bytes", plan.lowerBound},
                  {"proven_optimal", plan.provenOptimal},
                  {"seconds", plan.seconds},
                  {"buffers", std::move(buffers)},
                  {"unmanaged", json::Array{}}};
  if (plan.goalBytes > 0) {
    fn["goal_bytes"] = plan.goalBytes;
    fn["goal"] = goalName(plan);
    fn["reached_goal"] = mplan::goalGap(plan) == 0;
    fn["gap_bytes"] = mplan::goalGap(plan);
    fn["search"] = searchJson(plan.search);
  }
  return json::Object{{"functions", json::Array{std::move(fn)}}};
}

/// Prefixes a planner error that names a buffer ("buffer 7: ...") with the
/// line of that buffer's row.
std::string locate(const mplan::CsvTable &table, const std::string &msg) {
  StringRef rest(msg);
  int64_t id;
  if (!rest.consume_front("buffer ") || rest.consumeInteger(10, id))
    return msg;
  for (size_t r = 0; r < table.buffers.size(); ++r)
    if (table.buffers[r].id == id)
      return "line " + std::to_string(table.lines[r]) + ": " + msg;
  return msg;
}

int fail(const Twine &msg) {
  WithColor::error(errs(), "mplan-plan") << msg << "\n";
  return 1;
}

/// Flushes `file` and keeps it, or reports its write error (a full disk,
/// /dev/full) once: the stream's error is cleared so that its destructor
/// does not report it again as a fatal "IO failure on output stream".
LogicalResult finish(ToolOutputFile &file, StringRef name) {
  file.os().flush();
  if (std::error_code ec = file.os().error()) {
    file.os().clear_error();
    fail(name + ": " + ec.message());
    return failure();
  }
  file.keep();
  return success();
}
} // namespace

int main(int argc, char **argv) {
  auto processStart = std::chrono::steady_clock::now();
  InitLLVM init(argc, argv);
  cl::HideUnrelatedOptions(category);
  cl::SetVersionPrinter([](raw_ostream &os) {
    os << "mplan-plan (mplan) " << MPLAN_VERSION_STRING << "\n";
  });
  cl::ParseCommandLineOptions(
      argc, argv, "mplan-plan: static memory planning of MiniMalloc CSV\n");

  ErrorOr<std::unique_ptr<MemoryBuffer>> input =
      MemoryBuffer::getFileOrSTDIN(inputFilename, /*IsText=*/true);
  if (std::error_code ec = input.getError())
    return fail(inputFilename + ": " + ec.message());
  std::string displayName =
      inputFilename == "-" ? std::string("<stdin>") : inputFilename.getValue();

  mplan::Expected<mplan::CsvTable> table =
      mplan::parseBufferCsv((*input)->getBuffer());
  if (!table)
    return fail(displayName + ": " + table.error());

  mplan::PlanOptions options;
  options.strategy = strategy;
  // The time limit covers the whole process: what reading and parsing
  // took, and about twice as much for validating and writing the plan and
  // for the planner's own work past its deadline (its portfolio is not
  // interrupted), comes off the planner's budget (seconds at 10^6 buffers).
  double parsed = std::chrono::duration<double>(
                      std::chrono::steady_clock::now() - processStart)
                      .count();
  options.timeLimitSeconds =
      timeLimit >= 0 ? std::max(0.0, timeLimit - 3 * parsed) : timeLimit;
  options.alignment = alignment;
  options.capacity = capacity;
  options.stagger = stagger;
  mplan::Expected<mplan::Plan> plan =
      mplan::planBuffers(table->buffers, options);
  if (!plan)
    return fail(displayName + ": " + locate(*table, plan.error()));
  if (std::optional<std::string> err = mplan::validatePlan(
          table->buffers, plan->offsets, plan->arenaSize, options.alignment))
    return fail("internal error: invalid plan: " + *err);

  std::error_code ec;
  auto output = std::make_unique<ToolOutputFile>(outputFilename, ec,
                                                 sys::fs::OF_TextWithCRLF);
  if (ec)
    return fail(outputFilename + ": " + ec.message());
  output->os() << mplan::writeBufferCsv(*table, plan->offsets);
  if (failed(finish(*output, outputFilename)))
    return 1;

  if (!reportFilename.empty()) {
    auto report = std::make_unique<ToolOutputFile>(reportFilename, ec,
                                                   sys::fs::OF_TextWithCRLF);
    if (ec)
      return fail(reportFilename + ": " + ec.message());
    report->os() << formatv("{0:2}", reportJson(*table, *plan, displayName))
                 << "\n";
    if (failed(finish(*report, reportFilename)))
      return 1;
  }

  double ratio = plan->lowerBound > 0
                     ? static_cast<double>(plan->arenaSize) /
                           static_cast<double>(plan->lowerBound)
                     : 1.0;
  errs() << "mplan-plan: strategy=" << plan->strategy
         << " buffers=" << table->buffers.size() << " arena=" << plan->arenaSize
         << " lower-bound=" << plan->lowerBound
         << " ratio=" << format("%.4f", ratio)
         << " time=" << format("%.3f", plan->seconds) << "s"
         << " optimal=" << (plan->provenOptimal ? "yes" : "no");
  int64_t gap = mplan::goalGap(*plan);
  if (gap > 0)
    errs() << " goal=" << plan->goalBytes << " gap=" << gap << " ("
           << format("%.2f", gapPercent(*plan)) << "%)";
  errs() << "\n";
  if (gap > 0)
    WithColor::warning(errs(), "mplan-plan")
        << "best stopped after " << format("%.3f", plan->seconds)
        << " s without reaching its goal: arena " << plan->arenaSize << " is "
        << gap << " bytes (" << format("%.2f", gapPercent(*plan))
        << "%) above the " << goalName(*plan) << " " << plan->goalBytes << "\n";
  if (printStats) {
    const mplan::SearchStats &st = plan->search;
    errs() << "mplan-plan: search nodes=" << st.nodes
           << " hole-nodes=" << st.holeNodes << " backtracks=" << st.backtracks
           << " cutoffs=" << st.cutoffs
           << " decompositions=" << st.decompositions
           << " restarts=" << st.restarts << " work=" << st.work
           << " targets=" << st.targets
           << " time=" << format("%.3f", st.seconds)
           << "s solved-by=" << (st.solvedBy.empty() ? "none" : st.solvedBy)
           << "\n";
  }
  if (printMembers)
    for (const mplan::MemberRun &m : plan->members) {
      errs() << "mplan-plan: member " << m.name
             << (m.strategy.empty() ? "" : " (" + m.strategy + ")")
             << (m.extra ? " extra" : "")
             << " model=" << format("%.4f", m.modelSeconds)
             << "s estimated=" << format("%.4f", m.estimatedSeconds)
             << "s left=" << format("%.4f", m.secondsLeft) << "s";
      if (m.ran)
        errs() << " ran=" << format("%.4f", m.seconds)
               << "s cpu=" << format("%.4f", m.cpuSeconds) << "s";
      if (m.finished)
        errs() << " arena=" << m.arena;
      errs() << "\n";
    }
  if (!plan->skipped.empty()) {
    errs() << "mplan-plan: portfolio members skipped:";
    for (const std::string &member : plan->skipped)
      errs() << " " << member << ";";
    errs() << "\n";
  }
  return 0;
}
