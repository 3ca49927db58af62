//===- HardeningTest.cpp - adversarial planner and CSV inputs (issue 16) --===//
//
// Regression tests for what fuzzing and adversarial inputs found in the CSV
// reader and the planner, and the extremes every strategy must survive:
// sizes and alignments near 2^63, zero-size and 1-byte buffers.
//
//===----------------------------------------------------------------------===//

#include "mplan/Support/Csv.h"
#include "mplan/Support/Planner.h"

#include <gtest/gtest.h>

#include <limits>

using namespace mplan;

namespace {
constexpr int64_t kMax = std::numeric_limits<int64_t>::max();

std::string errorOf(std::string_view text) {
  Expected<CsvTable> t = parseBufferCsv(text);
  EXPECT_FALSE(t.ok());
  return t.ok() ? std::string() : t.error();
}

// A byte order mark starts the file, not the header line: blank lines may
// come between it and the header.
TEST(Hardening, ByteOrderMarkBeforeBlankLines) {
  Expected<CsvTable> t =
      parseBufferCsv("\xEF\xBB\xBF\r\n\nid,lower,upper,size\n0,0,2,4\n");
  ASSERT_TRUE(t.ok()) << t.error();
  ASSERT_EQ(t->buffers.size(), 1u);
  EXPECT_EQ(t->header[0], "id");
  EXPECT_EQ(t->lines[0], 4u);
  // Only at the start of the file.
  EXPECT_EQ(errorOf("id,lower,upper,size\n\xEF\xBB\xBF"
                    "0,0,2,4\n"),
            "line 2: column 'id': '\\xef\\xbb\\xbf0' is not an integer");
}

// Found by mplan-fuzz-csv: a second mark named the first column, and the
// written CSV (header first) no longer parsed.
TEST(Hardening, SecondByteOrderMarkIsAnError) {
  EXPECT_EQ(errorOf("\xEF\xBB\xBF\xEF\xBB\xBF,x,size,upper,id,lower\r\r\n"),
            "line 1: a second byte order mark starts the header");
  EXPECT_EQ(errorOf("\xEF\xBB\xBF\n\xEF\xBB\xBFid,lower,upper,size\n"),
            "line 2: a second byte order mark starts the header");
}

// Messages are one printable line whatever bytes the field holds.
TEST(Hardening, ErrorsEscapeBytesThatAreNotText) {
  std::string text("id,lower,upper,size\n0,0,2,4\0"
                   "7\n",
                   29);
  EXPECT_EQ(errorOf(text),
            "line 2: column 'size': '4\\x007' is not an integer");
  std::string longField(1000, '9');
  std::string msg = errorOf("id,lower,upper,size\n0,0,2," + longField + "\n");
  EXPECT_LT(msg.size(), 200u);
  EXPECT_NE(msg.find("out of range"), std::string::npos);
}

TEST(Hardening, MalformedCsvNamesTheLine) {
  EXPECT_EQ(errorOf(""), "line 1: empty input: expected a header naming id, "
                         "lower, upper and size");
  EXPECT_EQ(errorOf("id,lower,upper\n0,0,1\n"),
            "line 1: missing column 'size' (the header must name id, lower, "
            "upper and size)");
  EXPECT_EQ(errorOf("id,lower,upper,size\n0,0,1\n"),
            "line 2: expected 4 fields, found 3");
  EXPECT_EQ(errorOf("id,lower,upper,size\n0,0,1,-0x1\n"),
            "line 2: column 'size': '-0x1' is not an integer");
  EXPECT_EQ(errorOf("id,lower,upper,size\n0,0,1,9223372036854775808\n"),
            "line 2: column 'size': 9223372036854775808 is out of range for "
            "a 64-bit integer");
  Expected<CsvTable> header = parseBufferCsv("id,lower,upper,size\r\n");
  ASSERT_TRUE(header.ok());
  EXPECT_TRUE(header->buffers.empty());
}

// Every strategy: a valid plan within int64, or an error; never a wrap.
TEST(Hardening, EveryStrategyNearTheInt64Limit) {
  const int64_t half = int64_t(1) << 62;
  struct Case {
    std::vector<Buffer> buffers;
    int64_t alignment;
    bool naiveFits, othersFit;
  } cases[] = {
      {{{0, 0, 2, half - 1}, {1, 1, 3, half - 1}, {2, 3, 4, 1}}, 1, true, true},
      {{{0, 0, 2, half - 1}, {1, 1, 3, half - 1}, {2, 3, 4, half - 1}},
       1,
       false,
       true},
      {{{0, 0, 2, half}, {1, 1, 3, half}}, 1, false, false},
      {{{0, 0, 2, kMax}, {1, 2, 3, kMax}}, 1, false, true},
      {{{0, 0, 2, kMax}}, 64, false, false},
      {{{0, 0, 2, 1}, {1, 1, 3, 1}}, half, false, false},
      {{{0, 0, kMax, 1}, {1, kMax - 1, kMax, 1}}, 1, true, true},
      {{{0, 0, 5, 0}, {1, 0, 5, 1}, {2, 1, 3, 1}, {3, 2, 4, 0}}, 1, true, true},
      {{{0, 0, 2, 1}, {1, 1, 3, 1}}, int64_t(1) << 40, true, true},
  };
  for (const Case &c : cases) {
    for (const std::string &strategy : strategyNames()) {
      PlanOptions options;
      options.strategy = strategy;
      options.alignment = c.alignment;
      options.timeLimitSeconds = 0.05;
      Expected<Plan> plan = planBuffers(c.buffers, options);
      bool fits = strategy == "naive" ? c.naiveFits : c.othersFit;
      ASSERT_EQ(plan.ok(), fits)
          << strategy << ": " << (plan.ok() ? "planned" : plan.error());
      if (!plan) {
        EXPECT_NE(plan.error().find("overflow"), std::string::npos)
            << plan.error();
        continue;
      }
      EXPECT_EQ(
          validatePlan(c.buffers, plan->offsets, plan->arenaSize, c.alignment),
          std::nullopt)
          << strategy;
      EXPECT_GE(plan->arenaSize, plan->lowerBound) << strategy;
    }
  }
}

// The live-sum overflow names a buffer and the time, so the CLI can name the
// buffer's line.
TEST(Hardening, LiveSumOverflowNamesBufferAndTime) {
  const int64_t half = int64_t(1) << 62;
  PlanOptions options;
  options.strategy = "naive";
  Expected<Plan> plan =
      planBuffers({{5, 0, 9, 1}, {6, 3, 9, half}, {7, 4, 5, half}}, options);
  ASSERT_FALSE(plan.ok());
  EXPECT_EQ(plan.error(), "buffer 7: the sum of the sizes of buffers live at "
                          "time 4 overflows int64");
  EXPECT_NE(validateInput({{5, 0, 9, 1}, {6, 3, 9, half}, {7, 4, 5, half}}),
            std::nullopt);
  EXPECT_EQ(lowerBound({{6, 3, 9, half}, {7, 4, 5, half}}), std::nullopt);
}
} // namespace
