//===- SplitCoverTest.cpp - Tests of the least-cost split cover -----------===//

#include "mplan/Support/SplitCover.h"

#include "gtest/gtest.h"

#include <limits>
#include <random>

using namespace mplan;

namespace {
constexpr int64_t kWork = 10000000;

CoverCandidate cand(int64_t from, int64_t to, int64_t bytes, int64_t cost,
                    int64_t group = -1, int64_t late = 0) {
  CoverCandidate c;
  c.from = from;
  c.to = to;
  c.bytes = bytes;
  c.cost = cost;
  c.group = group;
  c.lateBytes = late;
  return c;
}

/// Whether `chosen` is a cover of `problem` (every constraint of the header).
bool isCover(const CoverProblem &problem, const std::vector<size_t> &chosen) {
  std::vector<char> taken(problem.candidates.size(), 0);
  for (size_t c : chosen) {
    if (taken[c])
      return false;
    taken[c] = 1;
  }
  for (const auto &[a, b] : problem.conflicts)
    if (taken[a] && taken[b])
      return false;
  for (size_t c : chosen) {
    int64_t p = problem.candidates[c].prerequisite;
    if (p >= 0 && (static_cast<size_t>(p) >= taken.size() || !taken[p]))
      return false;
  }
  for (size_t c : chosen)
    for (size_t d : chosen)
      if (c != d && problem.candidates[c].group >= 0 &&
          problem.candidates[c].group == problem.candidates[d].group)
        return false;
  for (size_t i = 0; i < problem.live.size(); ++i) {
    int64_t live = problem.live[i];
    for (size_t c : chosen)
      if (problem.candidates[c].from <= static_cast<int64_t>(i) &&
          static_cast<int64_t>(i) < problem.candidates[c].to)
        live -= problem.candidates[c].bytes;
    if (live > problem.target)
      return false;
  }
  for (size_t c : chosen) {
    const CoverCandidate &own = problem.candidates[c];
    if (own.lateBytes <= problem.target)
      continue;
    int64_t live = own.lateBytes;
    for (size_t d : chosen)
      if (d != c && lowersLatePoint(problem.candidates[d], own.to))
        live -= problem.candidates[d].bytes;
    if (live > problem.target)
      return false;
  }
  return true;
}

/// Solves `problem` and expects `chosen` at `cost`, proven optimal.
void expectOptimalCover(const CoverProblem &problem,
                        const std::vector<size_t> &chosen, int64_t cost) {
  int64_t work = 0;
  std::optional<CoverResult> result = solveSplitCover(problem, kWork, work);
  ASSERT_TRUE(result);
  EXPECT_TRUE(result->optimal);
  EXPECT_TRUE(isCover(problem, result->chosen));
  EXPECT_EQ(result->chosen, chosen);
  EXPECT_EQ(result->cost, cost);
}

TEST(SplitCoverTest, TakesTwoCheapSplitsOverOneThatIsCheapPerByte) {
  // Two runs above the target; one wide split covers both at 192, two
  // narrow ones at 8 each (the greedy choice by cost per byte at the first
  // peak took the wide one).
  CoverProblem problem;
  problem.live = {100, 384, 384, 100, 384, 100};
  problem.target = 358;
  problem.candidates = {cand(1, 5, 96, 192), cand(1, 3, 64, 8),
                        cand(4, 5, 64, 8)};
  int64_t work = 0;
  std::optional<CoverResult> result = solveSplitCover(problem, kWork, work);
  ASSERT_TRUE(result);
  EXPECT_TRUE(result->optimal);
  EXPECT_EQ(result->cost, 16);
  EXPECT_EQ(result->chosen, (std::vector<size_t>{1, 2}));
  EXPECT_GT(work, 0);
}

TEST(SplitCoverTest, NoCoverWhenAPointNothingFreesIsAbove) {
  CoverProblem problem;
  problem.live = {10, 50, 10};
  problem.target = 40;
  problem.candidates = {cand(0, 1, 20, 1), cand(2, 3, 20, 1)};
  int64_t work = 0;
  EXPECT_FALSE(solveSplitCover(problem, kWork, work));
  // Not enough bytes to free either.
  problem.candidates = {cand(1, 2, 5, 1), cand(1, 2, 4, 1)};
  EXPECT_FALSE(solveSplitCover(problem, kWork, work));
}

TEST(SplitCoverTest, OneLeverPerGroup) {
  // Both levers of one gap free 30 bytes; the need is 40: one lever of the
  // gap and the other buffer, not both levers.
  CoverProblem problem;
  problem.live = {100};
  problem.target = 60;
  problem.candidates = {cand(0, 1, 30, 1, /*group=*/0),
                        cand(0, 1, 30, 2, /*group=*/0), cand(0, 1, 10, 50)};
  int64_t work = 0;
  std::optional<CoverResult> result = solveSplitCover(problem, kWork, work);
  ASSERT_TRUE(result);
  EXPECT_EQ(result->chosen, (std::vector<size_t>{0, 2}));
  EXPECT_EQ(result->cost, 51);
}

TEST(SplitCoverTest, ALatePointAboveTheTargetNeedsAnotherSplit) {
  // Candidate 0 is cheap but its recomputation right before point 3 holds
  // 70 bytes: candidate 1 (freeing points 2-3) must come with it, or
  // candidate 2 alone.
  CoverProblem problem;
  problem.live = {10, 70, 20, 20};
  problem.target = 60;
  problem.candidates = {cand(1, 3, 20, 1, -1, /*late=*/70), cand(2, 4, 20, 5),
                        cand(1, 2, 10, 100)};
  int64_t work = 0;
  std::optional<CoverResult> result = solveSplitCover(problem, kWork, work);
  ASSERT_TRUE(result);
  EXPECT_EQ(result->chosen, (std::vector<size_t>{0, 1}));
  EXPECT_EQ(result->cost, 6);
  EXPECT_TRUE(isCover(problem, result->chosen));
  // Without candidate 1, candidate 0 cannot be taken.
  problem.candidates[1].bytes = 0;
  result = solveSplitCover(problem, kWork, work);
  ASSERT_TRUE(result);
  EXPECT_EQ(result->chosen, (std::vector<size_t>{2}));
}

TEST(SplitCoverTest, ALateRowOfASplitTakenForALaterLateRowCounts) {
  // Point 0 needs candidate 1, whose late point (before 2) needs candidate 0;
  // candidate 0's own late point (before 3) holds 10 bytes and only candidate
  // 2 (1 byte) frees there: no cover. Candidate 0's late row comes before
  // candidate 1's, so taking 0 for the later row must not skip it.
  CoverProblem problem;
  problem.live = {10, 0, 0, 0, 0};
  problem.target = 5;
  problem.candidates = {cand(1, 3, 10, 1, -1, /*late=*/10),
                        cand(0, 2, 10, 1, -1, /*late=*/10), cand(3, 4, 1, 100)};
  int64_t work = 0;
  std::optional<CoverResult> result = solveSplitCover(problem, kWork, work);
  EXPECT_FALSE(result && !isCover(problem, result->chosen));
  EXPECT_FALSE(result);
  // With candidate 2 freeing enough, the three together are the cover.
  problem.candidates[2].bytes = 5;
  result = solveSplitCover(problem, kWork, work);
  ASSERT_TRUE(result);
  EXPECT_TRUE(isCover(problem, result->chosen));
  EXPECT_EQ(result->chosen, (std::vector<size_t>{0, 1, 2}));
  EXPECT_EQ(result->cost, 102);
}

TEST(SplitCoverTest, MatchesExhaustiveSearchOnRandomProblems) {
  std::mt19937_64 rng(7);
  for (int round = 0; round < 300; ++round) {
    CoverProblem problem;
    size_t points = 4 + rng() % 12;
    for (size_t i = 0; i < points; ++i)
      problem.live.push_back(static_cast<int64_t>(rng() % 200));
    problem.target = 60 + static_cast<int64_t>(rng() % 80);
    size_t n = 1 + rng() % 11;
    for (size_t c = 0; c < n; ++c) {
      int64_t from = static_cast<int64_t>(rng() % points);
      int64_t to = from + 1 + static_cast<int64_t>(rng() % (points - from));
      problem.candidates.push_back(
          cand(from, to, 1 + static_cast<int64_t>(rng() % 120),
               static_cast<int64_t>(rng() % 100),
               rng() % 3 == 0 ? static_cast<int64_t>(rng() % 3) : -1,
               rng() % 4 == 0 ? static_cast<int64_t>(rng() % 250) : 0));
    }
    for (size_t k = rng() % 3; k > 0; --k) {
      size_t a = rng() % n, b = rng() % n;
      if (a != b)
        problem.conflicts.push_back({a, b});
    }
    // Some candidates go only with an earlier one (chains of them, too).
    for (size_t c = 1; c < n; ++c)
      if (rng() % 4 == 0)
        problem.candidates[c].prerequisite = static_cast<int64_t>(rng() % c);
    int64_t bestCost = std::numeric_limits<int64_t>::max();
    for (uint32_t mask = 0; mask < (1u << n); ++mask) {
      std::vector<size_t> chosen;
      int64_t cost = 0;
      for (size_t c = 0; c < n; ++c)
        if (mask & (1u << c)) {
          chosen.push_back(c);
          cost += problem.candidates[c].cost;
        }
      if (cost < bestCost && isCover(problem, chosen))
        bestCost = cost;
    }
    int64_t work = 0;
    std::optional<CoverResult> result = solveSplitCover(problem, kWork, work);
    SCOPED_TRACE("round " + std::to_string(round));
    if (bestCost == std::numeric_limits<int64_t>::max()) {
      EXPECT_FALSE(result);
      continue;
    }
    ASSERT_TRUE(result);
    EXPECT_TRUE(result->optimal);
    EXPECT_EQ(result->cost, bestCost);
    EXPECT_TRUE(isCover(problem, result->chosen));
  }
}

TEST(SplitCoverTest, ACoverOfManySplitsDoesNotOverflowTheStack) {
  // 200,000 points one byte above the target, each freed by the two
  // candidates spanning it: the first dive takes a candidate per level, far
  // deeper than a stack holds. The search stops, as out of work.
  CoverProblem problem;
  problem.live.assign(200000, 1);
  problem.target = 0;
  for (int64_t i = 0; i < 200000; ++i)
    problem.candidates.push_back(cand(i, i + 2, 1, 1));
  int64_t work = 0;
  std::optional<CoverResult> result = solveSplitCover(problem, kWork, work);
  EXPECT_TRUE(!result || !result->optimal);
}

TEST(SplitCoverTest, NeverBothOfAConflictingPair) {
  // Candidates 0 and 1 together are the cheapest cover, but a recomputation
  // (0) may not be taken with the split (1) that frees its input there.
  CoverProblem problem;
  problem.live = {100, 100};
  problem.target = 40;
  problem.candidates = {cand(0, 2, 30, 1), cand(0, 2, 30, 1),
                        cand(0, 2, 30, 10)};
  int64_t work = 0;
  std::optional<CoverResult> result = solveSplitCover(problem, kWork, work);
  ASSERT_TRUE(result);
  EXPECT_EQ(result->cost, 2);
  problem.conflicts = {{0, 1}};
  result = solveSplitCover(problem, kWork, work);
  ASSERT_TRUE(result);
  EXPECT_EQ(result->cost, 11);
  EXPECT_TRUE(isCover(problem, result->chosen));
}

TEST(SplitCoverTest, ACandidateGoesOnlyWithItsPrerequisite) {
  // A recomputation (0: points 1-3, its later use at 4) reads a buffer; the
  // read it adds at 4 cuts a gap of that buffer, whose second half (1:
  // points 4-5) exists only once 0 is applied. Another split covers 1-3
  // cheaper (2), but the half cannot go with it: 0 and 1 (cost 3).
  CoverProblem problem;
  problem.live = {10, 100, 100, 100, 100, 100};
  problem.target = 60;
  problem.candidates = {cand(1, 4, 50, 2), cand(4, 6, 50, 1), cand(1, 4, 50, 1),
                        cand(4, 6, 50, 10)};
  problem.candidates[1].prerequisite = 0;
  expectOptimalCover(problem, {0, 1}, 3);
  // The recomputation reads the buffer at its late point, so the half does
  // not lower that point: with 100 bytes there, 0 needs 3 (which does),
  // and 2 with 3 is cheaper.
  problem.candidates[0].lateBytes = 100;
  expectOptimalCover(problem, {2, 3}, 11);
  // Without 3, nothing lowers 0's late point: 0 is never taken, nor is the
  // half, and nothing else covers points 4-5.
  problem.candidates[3].bytes = 0;
  int64_t work = 0;
  EXPECT_FALSE(solveSplitCover(problem, kWork, work));
}

TEST(SplitCoverTest, BranchesOnTheRowWithFewestOpenCandidates) {
  // 20 points, each freed by a cheap candidate (a) or a dear one (b), and a
  // last point only d frees, which excludes every a. Branching on the first
  // short point takes a's first and finds d banned 2^20 times; branching on
  // the point with fewest open candidates takes d first, then the b's.
  CoverProblem problem;
  problem.live.assign(21, 100);
  problem.target = 50;
  for (int64_t k = 0; k < 20; ++k) {
    problem.candidates.push_back(cand(k, k + 1, 60, 1));
    problem.candidates.push_back(cand(k, k + 1, 60, 10));
  }
  problem.candidates.push_back(cand(20, 21, 60, 1));
  for (size_t k = 0; k < 20; ++k)
    problem.conflicts.push_back({2 * k, 40});
  int64_t work = 0;
  std::optional<CoverResult> result = solveSplitCover(problem, 100000, work);
  ASSERT_TRUE(result);
  EXPECT_TRUE(result->optimal);
  EXPECT_TRUE(isCover(problem, result->chosen));
  EXPECT_EQ(result->cost, 201);
}

TEST(SplitCoverTest, StopsAtItsWorkBudget) {
  // 40 interchangeable candidates over 40 short runs: a budget of 50 steps
  // cannot finish, and the answer says so (or there is none).
  CoverProblem problem;
  for (int i = 0; i < 80; ++i)
    problem.live.push_back(i % 2 ? 100 : 10);
  problem.target = 50;
  for (int i = 0; i < 40; ++i)
    problem.candidates.push_back(cand(0, 80, 60, 1000 + i));
  for (int i = 0; i < 40; ++i)
    problem.candidates.push_back(cand(2 * i + 1, 2 * i + 2, 60, 30));
  int64_t work = 0;
  std::optional<CoverResult> result = solveSplitCover(problem, 50, work);
  EXPECT_TRUE(!result || !result->optimal);
  work = 0;
  result = solveSplitCover(problem, kWork, work);
  ASSERT_TRUE(result);
  EXPECT_TRUE(result->optimal);
  EXPECT_EQ(result->cost, 1000);
}
} // namespace
