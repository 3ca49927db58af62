//===- csv_fuzzer.cpp - libFuzzer target: CSV reader + planner ------------===//
//
// Arbitrary bytes go into mplan::parseBufferCsv (the reader behind mplan-plan
// and mplan.read_csv). Every instance it accepts is planned with every
// strategy and checked against oracles that share no code with the
// strategies:
//  - planBuffers fails only when validateInput rejects the instance or an
//    offset would overflow int64 (then the naive plan must overflow too);
//  - validatePlan accepts the plan (no two live buffers share a byte,
//    offsets aligned, inside the arena);
//  - arena >= lower bound, and the lower bound is mplan::lowerBound's;
//  - writeBufferCsv's output parses again with the same buffers.
// Options (alignment, stagger, capacity) come from a hash of the input, so
// the corpus explores them too. See docs/hardening.md.
//
//===----------------------------------------------------------------------===//

#include "mplan/Support/Csv.h"
#include "mplan/Support/Planner.h"

#include <cstdio>
#include <cstdlib>
#include <string>
#include <string_view>

using namespace mplan;

namespace {
[[noreturn]] void finding(const std::string &what, std::string_view input) {
  std::fprintf(stderr, "mplan-fuzz-csv: %s\n--- input ---\n", what.c_str());
  std::fwrite(input.data(), 1, input.size(), stderr);
  std::fprintf(stderr, "\n---\n");
  std::abort();
}

uint64_t hashBytes(std::string_view s) {
  uint64_t h = 1469598103934665603ull; // FNV-1a
  for (unsigned char c : s)
    h = (h ^ c) * 1099511628211ull;
  return h;
}
} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  std::string_view text(reinterpret_cast<const char *>(data), size);
  Expected<CsvTable> table = parseBufferCsv(text);
  if (!table) {
    if (table.error().rfind("line ", 0) != 0)
      finding("error without a line: " + table.error(), text);
    return 0;
  }
  const std::vector<Buffer> &buffers = table->buffers;
  if (buffers.size() != table->numRows() ||
      buffers.size() != table->lines.size())
    finding("rows, buffers and lines differ in length", text);
  for (size_t r = 0; r < table->numRows(); ++r)
    if (table->fields(r).size() != table->header.size())
      finding("a row's fields differ from the header in number", text);

  uint64_t h = hashBytes(text);
  PlanOptions options;
  options.timeLimitSeconds = 0.002;
  options.alignment = int64_t(1) << (h % 8 == 0 ? (h >> 8) % 63 : h % 4);
  int64_t staggerSteps = (h >> 16) % 4 == 0 ? (h >> 20) % 4 : 0;
  if (options.alignment <= (int64_t(1) << 40))
    options.stagger = options.alignment * staggerSteps;
  options.capacity =
      (h >> 24) % 8 == 0 ? static_cast<int64_t>((h >> 28) % 4096) : 0;

  std::optional<std::string> inputError = validateInput(buffers);
  std::optional<int64_t> bound = lowerBound(buffers, options.alignment);
  for (const std::string &strategy : strategyNames()) {
    options.strategy = strategy;
    Expected<Plan> plan = planBuffers(buffers, options);
    if (!plan) {
      // Legitimate failures: invalid input, or sizes whose placement (or
      // padding, or stagger) does not fit in int64.
      if (inputError || !bound)
        continue;
      const std::string &msg = plan.error();
      if (msg.find("overflow") == std::string::npos)
        finding(strategy + " failed on valid input: " + msg, text);
      continue;
    }
    if (inputError)
      finding(strategy + " planned invalid input (" + *inputError + ")", text);
    if (plan->offsets.size() != buffers.size())
      finding(strategy + ": wrong number of offsets", text);
    if (std::optional<std::string> err = validatePlan(
            buffers, plan->offsets, plan->arenaSize, options.alignment))
      finding(strategy + ": invalid plan: " + *err, text);
    if (!bound || plan->lowerBound != *bound)
      finding(strategy + ": lower bound differs from mplan::lowerBound", text);
    if (plan->arenaSize < plan->lowerBound)
      finding(strategy + ": arena below the lower bound", text);
    if (plan->staggerBytes < 0 || plan->staggerBytes > plan->arenaSize)
      finding(strategy + ": stagger bytes out of range", text);

    if (strategy == "best") {
      // Round trip through the writer and the reader.
      std::string out = writeBufferCsv(*table, plan->offsets);
      Expected<CsvTable> again = parseBufferCsv(out);
      if (!again)
        finding("written CSV does not parse: " + again.error(), text);
      if (again->buffers.size() != buffers.size())
        finding("written CSV has a different number of rows", text);
      for (size_t i = 0; i < buffers.size(); ++i) {
        const Buffer &a = buffers[i], &b = again->buffers[i];
        if (a.id != b.id || a.start != b.start || a.end != b.end ||
            a.size != b.size || a.alignment != b.alignment)
          finding("written CSV changes buffer " + std::to_string(a.id), text);
      }
    }
  }
  return 0;
}
