//===- CsvTest.cpp - MiniMalloc CSV reading and writing -------------------===//

#include "mplan/Support/Csv.h"

#include <gtest/gtest.h>

using namespace mplan;

namespace {

std::string errorOf(std::string_view text) {
  Expected<CsvTable> t = parseBufferCsv(text);
  EXPECT_FALSE(t.ok());
  return t.ok() ? std::string() : t.error();
}

TEST(Csv, ParsesAnyColumnOrderAndKeepsExtraColumns) {
  Expected<CsvTable> t = parseBufferCsv(
      "size,note,upper,id,lower\r\n8,x,3,7,1\r\n\r\n4,y,2,9,0\n");
  ASSERT_TRUE(t.ok()) << t.error();
  ASSERT_EQ(t->buffers.size(), 2u);
  EXPECT_EQ(t->buffers[0].id, 7);
  EXPECT_EQ(t->buffers[0].start, 1);
  EXPECT_EQ(t->buffers[0].end, 3);
  EXPECT_EQ(t->buffers[0].size, 8);
  EXPECT_EQ(t->lines[1], 4u);
  EXPECT_EQ(writeBufferCsv(*t, {0, 8}),
            "size,note,upper,id,lower,offset\n8,x,3,7,1,0\n4,y,2,9,0,8\n");
}

TEST(Csv, ReadsAlignmentAndReplacesOffsetColumn) {
  Expected<CsvTable> t =
      parseBufferCsv("id,lower,upper,size,alignment,offset\n1,0,1,3,16,99\n");
  ASSERT_TRUE(t.ok()) << t.error();
  EXPECT_EQ(t->buffers[0].alignment, 16);
  EXPECT_EQ(writeBufferCsv(*t, {32}),
            "id,lower,upper,size,alignment,offset\n1,0,1,3,16,32\n");
}

TEST(Csv, HeaderOnlyIsAnEmptyProblem) {
  Expected<CsvTable> t = parseBufferCsv("id,lower,upper,size\n");
  ASSERT_TRUE(t.ok());
  EXPECT_TRUE(t->buffers.empty());
}

TEST(Csv, Errors) {
  EXPECT_EQ(errorOf(""), "line 1: empty input: expected a header naming id, "
                         "lower, upper and size");
  EXPECT_NE(errorOf("id,lower,size\n1,0,4\n")
                .find("line 1: missing column "
                      "'upper'"),
            std::string::npos);
  EXPECT_NE(errorOf("id,lower,upper,size\n1,0,2,4\n2,0,x,4\n")
                .find("line 3: column 'upper': 'x' is not an integer"),
            std::string::npos);
  EXPECT_NE(errorOf("id,lower,upper,size\n1,0,2,-4\n")
                .find("line 2: size (-4) must be non-negative"),
            std::string::npos);
  EXPECT_NE(errorOf("id,lower,upper,size\n1,-1,2,4\n").find("line 2: lower"),
            std::string::npos);
  EXPECT_NE(errorOf("id,lower,upper,size\n1,0,2,99999999999999999999\n")
                .find("line 2: column 'size': 99999999999999999999 is out of "
                      "range"),
            std::string::npos);
  EXPECT_NE(errorOf("id,lower,upper,size\n1,5,5,4\n")
                .find("line 2: upper (5) must be greater than lower (5)"),
            std::string::npos);
  EXPECT_NE(errorOf("id,lower,upper,size\n1,0,2,4\n\n1,0,2,4\n")
                .find("line 4: duplicate id 1 (first on line 2)"),
            std::string::npos);
  EXPECT_NE(errorOf("id,lower,upper,size\n1,0,2\n")
                .find("line 2: expected 4 fields, found 3"),
            std::string::npos);
  EXPECT_NE(errorOf("id,lower,upper,size\n1,0,2,4.5\n").find("line 2:"),
            std::string::npos);
  EXPECT_NE(errorOf("id,lower,upper,size,alignment\n1,0,2,4,3\n")
                .find("line 2: alignment (3) must be a power of two"),
            std::string::npos);
  EXPECT_NE(errorOf("id,id,lower,upper,size\n").find("duplicate column"),
            std::string::npos);
}

// Duplicate ids are found after the rows are read (by sorting the ids), but
// the error is the one a line-by-line reader meets first.
TEST(Csv, ReportsTheFirstErrorInFileOrder) {
  // The earliest repeat wins, with the first line of its id, whatever the
  // ids' order.
  EXPECT_EQ(errorOf("id,lower,upper,size\n9,0,2,4\n3,0,2,4\n3,0,2,4\n"
                    "9,0,2,4\n3,0,2,4\n"),
            "line 4: duplicate id 3 (first on line 3)");
  EXPECT_EQ(errorOf("id,lower,upper,size\n-5,0,2,4\n7,0,2,4\n"
                    "9223372036854775807,0,2,4\n-9223372036854775808,0,2,4\n"
                    "7,0,2,4\n-5,0,2,4\n"),
            "line 6: duplicate id 7 (first on line 3)");
  // A malformed row before the repeat is reported, a malformed row after
  // it is not.
  EXPECT_EQ(errorOf("id,lower,upper,size\n1,0,2,4\n2,0,2\n1,0,2,4\n"),
            "line 3: expected 4 fields, found 3");
  EXPECT_EQ(errorOf("id,lower,upper,size\n1,0,2,4\n1,0,2,4\n2,0,2\n"),
            "line 3: duplicate id 1 (first on line 2)");
  // Many rows, one repeat near the end.
  std::string text = "id,lower,upper,size\n";
  for (int i = 0; i < 5000; ++i)
    text += std::to_string(i * 7919 % 5000) + ",0,2,4\n";
  Expected<CsvTable> ok = parseBufferCsv(text);
  ASSERT_TRUE(ok.ok());
  EXPECT_EQ(ok->numRows(), 5000u);
  text += "4242,0,2,4\n";
  int firstLine = 0;
  for (int i = 0; i < 5000; ++i)
    if (i * 7919 % 5000 == 4242)
      firstLine = i + 2;
  EXPECT_EQ(errorOf(text), "line 5002: duplicate id 4242 (first on line " +
                               std::to_string(firstLine) + ")");
}

TEST(Csv, RowsKeepTheirFields) {
  Expected<CsvTable> t = parseBufferCsv(
      " name , id,lower,upper,size\n a ,1, 0,2 ,+8\n\nb,2,1,3,4");
  ASSERT_TRUE(t.ok());
  ASSERT_EQ(t->numRows(), 2u);
  std::vector<std::string_view> row = t->fields(0);
  ASSERT_EQ(row.size(), 5u);
  EXPECT_EQ(row[0], "a");
  EXPECT_EQ(row[4], "+8");
  EXPECT_EQ(t->rowText(1), "b,2,1,3,4");
  EXPECT_EQ(t->lines[1], 4u);
  EXPECT_EQ(writeBufferCsv(*t, {16, 0}),
            "name,id,lower,upper,size,offset\na,1,0,2,+8,16\nb,2,1,3,4,0\n");
}

TEST(Csv, WritesBuffers) {
  std::vector<Buffer> buffers = {{1, 0, 2, 8, 1}, {2, 1, 3, 4, 1}};
  std::vector<int64_t> offsets = {0, 8};
  EXPECT_EQ(writeBufferCsv(buffers, &offsets),
            "id,lower,upper,size,offset\n1,0,2,8,0\n2,1,3,4,8\n");
  Expected<CsvTable> back = parseBufferCsv(writeBufferCsv(buffers));
  ASSERT_TRUE(back.ok());
  EXPECT_EQ(back->buffers[1].size, 4);
}
} // namespace
