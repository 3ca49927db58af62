//===- CheckedMathTest.cpp ------------------------------------------------===//

#include "mplan/Support/CheckedMath.h"

#include <gtest/gtest.h>

#include <limits>

using namespace mplan;

namespace {
constexpr int64_t kMax = std::numeric_limits<int64_t>::max();

TEST(CheckedMath, AddSubMul) {
  EXPECT_EQ(checkedAdd(2, 3), 5);
  EXPECT_EQ(checkedAdd(kMax, 0), kMax);
  EXPECT_FALSE(checkedAdd(kMax, 1));
  EXPECT_FALSE(checkedSub(std::numeric_limits<int64_t>::min(), 1));
  EXPECT_EQ(checkedMul(1 << 20, 1 << 20), int64_t(1) << 40);
  EXPECT_FALSE(checkedMul(int64_t(1) << 32, int64_t(1) << 31));
  int64_t acc = kMax - 1;
  EXPECT_TRUE(addInPlace(acc, 1));
  EXPECT_FALSE(addInPlace(acc, 1));
}

TEST(CheckedMath, AlignTo) {
  EXPECT_EQ(alignTo(0, 16), 0);
  EXPECT_EQ(alignTo(1, 16), 16);
  EXPECT_EQ(alignTo(16, 16), 16);
  EXPECT_EQ(alignTo(17, 1), 17);
  EXPECT_FALSE(alignTo(kMax, 2));
  EXPECT_FALSE(alignTo(5, 3));  // not a power of two
  EXPECT_FALSE(alignTo(-1, 4)); // negative
  EXPECT_TRUE(isPowerOf2(1));
  EXPECT_FALSE(isPowerOf2(0));
  EXPECT_FALSE(isPowerOf2(12));
}
} // namespace
