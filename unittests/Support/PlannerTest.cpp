//===- PlannerTest.cpp - Strategies, bound and validators -----------------===//

#include "mplan/Support/Planner.h"
#include "SanitizerBuild.h"
#include "mplan/Support/Deadline.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <numeric>
#include <random>
#include <set>

using namespace mplan;

namespace {

constexpr int64_t kMax = std::numeric_limits<int64_t>::max();

Plan planOrDie(const std::vector<Buffer> &buffers, const std::string &strategy,
               int64_t alignment = 1, double seconds = 1.0,
               int64_t capacity = 0) {
  PlanOptions options;
  options.strategy = strategy;
  options.alignment = alignment;
  options.timeLimitSeconds = seconds;
  options.capacity = capacity;
  Expected<Plan> plan = planBuffers(buffers, options);
  EXPECT_TRUE(plan.ok()) << strategy << ": " << plan.error();
  if (!plan.ok())
    return Plan();
  std::optional<std::string> err =
      validatePlan(buffers, plan->offsets, plan->arenaSize, alignment);
  EXPECT_FALSE(err) << strategy << ": " << *err;
  return *plan;
}

// A chain-shaped example in the style of Pisarchyk & Lee's figures, checked
// by hand. Greedy by size places t5, t7, t2, t0 at 0, t1 above t0/t2 (36),
// t3 above t2 (36), t6 above t5 (64) and t4 above t5 (64): arena 74, which is
// the max-live bound (t5 + t6 at time 6).
const std::vector<Buffer> kChain = {
    {0, 0, 2, 32, 1}, {1, 1, 3, 28, 1}, {2, 2, 5, 36, 1}, {3, 3, 5, 16, 1},
    {4, 4, 6, 8, 1},  {5, 5, 7, 64, 1}, {6, 6, 8, 10, 1}, {7, 7, 9, 40, 1}};

TEST(Planner, GreedyBySizeHandChecked) {
  Plan plan = planOrDie(kChain, "greedy-by-size");
  EXPECT_EQ(plan.offsets, (std::vector<int64_t>{0, 36, 0, 36, 64, 0, 64, 0}));
  EXPECT_EQ(plan.arenaSize, 74);
  EXPECT_EQ(plan.lowerBound, 74);
  EXPECT_TRUE(plan.provenOptimal);
  EXPECT_EQ(lowerBound(kChain), 74);
}

TEST(Planner, NaiveIsABumpAllocator) {
  Plan plan = planOrDie(kChain, "naive");
  EXPECT_EQ(plan.offsets,
            (std::vector<int64_t>{0, 32, 60, 96, 112, 120, 184, 194}));
  EXPECT_EQ(plan.arenaSize, 234);
}

TEST(Planner, LinearScanReusesFreedSpace) {
  // First fit in start order among the live buffers: t0@0, t1@32, t2 (36)
  // does not fit under t1 -> 60, t3@0 (t1 ended), t4@16, t5 (64) above t4
  // -> 24, t6@0, t7@10 (t5 ended): arena 96 (t2 at 60..96).
  Plan plan = planOrDie(kChain, "linear-scan");
  EXPECT_EQ(plan.offsets, (std::vector<int64_t>{0, 32, 60, 0, 16, 24, 0, 10}));
  EXPECT_EQ(plan.arenaSize, 96);
}

// An IREE LayoutSlices-style case: an arena-wide alignment of 16 pads every
// slice (100 -> 112, 50 -> 64, 30 -> 32). B must sit above A; C fits into the
// 112-byte gap under B (best fit).
TEST(Planner, AlignedSlicesHandChecked) {
  std::vector<Buffer> slices = {
      {10, 0, 2, 100, 1}, {11, 1, 3, 50, 1}, {12, 2, 4, 30, 1}};
  EXPECT_EQ(lowerBound(slices, 16), 176);
  Plan plan = planOrDie(slices, "greedy-by-size", 16);
  EXPECT_EQ(plan.offsets, (std::vector<int64_t>{0, 112, 0}));
  EXPECT_EQ(plan.arenaSize, 176);
  for (const std::string &s : strategyNames()) {
    Plan p = planOrDie(slices, s, 16);
    for (int64_t off : p.offsets)
      EXPECT_EQ(off % 16, 0) << s;
  }
  // Per-buffer alignment is honoured as well.
  std::vector<Buffer> mixed = {{1, 0, 2, 3, 1}, {2, 0, 2, 8, 64}};
  Plan m = planOrDie(mixed, "best");
  EXPECT_EQ(m.offsets[1] % 64, 0);
}

TEST(Planner, BestReachesTheBoundOnAnInterleavedExample) {
  // Greedy by size is suboptimal here; the optimum equals the bound (6).
  std::vector<Buffer> buffers = {{0, 0, 2, 2, 1}, {1, 1, 4, 2, 1},
                                 {2, 0, 1, 4, 1}, {3, 2, 5, 3, 1},
                                 {4, 3, 5, 1, 1}, {5, 4, 6, 3, 1}};
  Plan best = planOrDie(buffers, "best");
  EXPECT_EQ(best.arenaSize, *lowerBound(buffers));
  EXPECT_TRUE(best.provenOptimal);
}

TEST(Planner, ZeroSizeAndEmpty) {
  Plan empty = planOrDie({}, "best");
  EXPECT_EQ(empty.arenaSize, 0);
  std::vector<Buffer> buffers = {{1, 0, 5, 0, 1}, {2, 0, 5, 8, 1}};
  for (const std::string &s : strategyNames()) {
    Plan p = planOrDie(buffers, s);
    EXPECT_EQ(p.offsets[0], 0) << s;
    EXPECT_EQ(p.arenaSize, 8) << s;
  }
}

TEST(Planner, InputErrors) {
  PlanOptions options;
  EXPECT_FALSE(planBuffers({{1, 2, 2, 4, 1}}, options).ok());
  EXPECT_FALSE(planBuffers({{1, 0, 2, -4, 1}}, options).ok());
  EXPECT_FALSE(planBuffers({{1, 0, 2, 4, 3}}, options).ok());
  Expected<Plan> dup = planBuffers({{1, 0, 2, 4, 1}, {1, 3, 4, 4, 1}}, options);
  ASSERT_FALSE(dup.ok());
  EXPECT_NE(dup.error().find("duplicate buffer id 1"), std::string::npos);
  options.strategy = "nope";
  EXPECT_FALSE(planBuffers({}, options).ok());
  options.strategy = "best";
  options.alignment = 12;
  EXPECT_FALSE(planBuffers({}, options).ok());
}

TEST(Planner, Overflow) {
  // Huge buffers that never overlap are fine (both at 0) ...
  std::vector<Buffer> apart = {{1, 0, 1, kMax, 1}, {2, 1, 2, kMax, 1}};
  EXPECT_EQ(lowerBound(apart), kMax);
  for (const std::string &s : strategyNames()) {
    if (s == "naive")
      continue;
    Plan p = planOrDie(apart, s);
    EXPECT_EQ(p.arenaSize, kMax) << s;
  }
  // ... but the bump allocator overflows, and so do overlapping ones.
  PlanOptions naive;
  naive.strategy = "naive";
  EXPECT_FALSE(planBuffers(apart, naive).ok());
  std::vector<Buffer> together = {{1, 0, 2, kMax / 2 + 1, 1},
                                  {2, 1, 3, kMax / 2 + 1, 1}};
  EXPECT_FALSE(lowerBound(together));
  EXPECT_TRUE(validateInput(together).has_value());
  EXPECT_FALSE(planBuffers(together, PlanOptions()).ok());
  // Rounding up to the alignment can overflow too.
  std::vector<Buffer> big = {{1, 0, 1, kMax, 1}};
  PlanOptions aligned;
  aligned.alignment = 64;
  EXPECT_FALSE(planBuffers(big, aligned).ok());
}

TEST(Validator, CatchesOverlapsAndMisalignment) {
  std::vector<Buffer> buffers = {{7, 0, 2, 8, 1}, {9, 1, 3, 8, 4}};
  EXPECT_FALSE(validatePlan(buffers, {0, 8}, 16));
  std::optional<std::string> err = validatePlan(buffers, {0, 4}, 16);
  ASSERT_TRUE(err);
  EXPECT_NE(err->find("buffers 7 and 9"), std::string::npos) << *err;
  EXPECT_TRUE(validatePlan(buffers, {0, 8}, 15));  // exceeds the arena
  EXPECT_TRUE(validatePlan(buffers, {0, 10}, 32)); // misaligned
  EXPECT_TRUE(validatePlan(buffers, {0}, 32));     // missing offset
  // Touching lifetimes ([0,2) and [2,3)) may share bytes.
  EXPECT_FALSE(validatePlan({{1, 0, 2, 8, 1}, {2, 2, 3, 8, 1}}, {0, 0}, 8));
}

// The optimum by brute force: every compacted plan is produced by placing the
// buffers in some order, each on top of the earlier ones it overlaps.
int64_t bruteForce(const std::vector<Buffer> &buffers) {
  std::vector<size_t> perm(buffers.size());
  std::iota(perm.begin(), perm.end(), 0);
  int64_t best = kMax;
  do {
    std::vector<int64_t> top(buffers.size(), 0);
    int64_t arena = 0;
    for (size_t k = 0; k < perm.size(); ++k) {
      const Buffer &b = buffers[perm[k]];
      int64_t off = 0;
      for (size_t j = 0; j < k; ++j) {
        const Buffer &o = buffers[perm[j]];
        if (o.start < b.end && b.start < o.end)
          off = std::max(off, top[perm[j]]);
      }
      top[perm[k]] = off + b.size;
      arena = std::max(arena, off + b.size);
    }
    best = std::min(best, arena);
  } while (std::next_permutation(perm.begin(), perm.end()));
  return best;
}

std::vector<Buffer> randomInstance(std::mt19937_64 &rng, int n, int horizon,
                                   int64_t maxSize, bool aligned) {
  std::vector<Buffer> buffers;
  for (int i = 0; i < n; ++i) {
    Buffer b;
    b.id = i * 3 + 1;
    b.start = rng() % horizon;
    b.end = b.start + 1 + rng() % horizon;
    b.size = rng() % (maxSize + 1);
    b.alignment = aligned ? int64_t(1) << (rng() % 4) : 1;
    buffers.push_back(b);
  }
  return buffers;
}

TEST(Property, EveryStrategyIsValidAndBestIsNeverWorse) {
  std::mt19937_64 rng(12345);
  for (int iter = 0; iter < 2000; ++iter) {
    int n = 1 + rng() % 25;
    std::vector<Buffer> buffers =
        randomInstance(rng, n, 1 + rng() % 12, 1 + rng() % 100, iter % 3 == 0);
    int64_t alignment = iter % 5 == 0 ? 8 : 1;
    int64_t bound = *lowerBound(buffers, alignment);
    int64_t others = kMax, portfolio = kMax;
    for (const std::string &s : strategyNames()) {
      if (s == "best")
        continue;
      Plan p = planOrDie(buffers, s, alignment);
      EXPECT_GE(p.arenaSize, bound) << s;
      others = std::min(others, p.arenaSize);
      if (s == "portfolio")
        portfolio = p.arenaSize;
    }
    Plan best = planOrDie(buffers, "best", alignment, 0.05);
    EXPECT_GE(best.arenaSize, bound);
    EXPECT_LE(best.arenaSize, others) << "iteration " << iter;
    // With a capacity: still valid, never below the bound, never worse than
    // the portfolio, and within the capacity whenever another strategy was
    // (it may stop at any plan that fits).
    int64_t capacity =
        bound + static_cast<int64_t>(rng() % (others - bound + 2));
    Plan capped = planOrDie(buffers, "best", alignment, 0.05, capacity);
    EXPECT_GE(capped.arenaSize, bound);
    EXPECT_LE(capped.arenaSize, portfolio) << "iteration " << iter;
    if (others <= capacity)
      EXPECT_LE(capped.arenaSize, capacity) << "iteration " << iter;
    if (::testing::Test::HasFailure())
      break;
  }
}

/// A perfect packing: the rectangle [0, horizon) x [0, height) cut into
/// buffers by random guillotine cuts, so the max-live bound is `height` and
/// only a perfect plan reaches it.
void guillotine(std::mt19937_64 &rng, int64_t t0, int64_t t1, int64_t o0,
                int64_t o1, int depth, std::vector<Buffer> &out) {
  bool cutTime = rng() % 2 == 0;
  if (depth == 0 || (cutTime ? t1 - t0 < 2 : o1 - o0 < 2)) {
    out.push_back({int64_t(out.size()), t0, t1, o1 - o0, 1});
    return;
  }
  if (cutTime) {
    int64_t t = t0 + 1 + static_cast<int64_t>(rng() % (t1 - t0 - 1));
    guillotine(rng, t0, t, o0, o1, depth - 1, out);
    guillotine(rng, t, t1, o0, o1, depth - 1, out);
  } else {
    int64_t o = o0 + 1 + static_cast<int64_t>(rng() % (o1 - o0 - 1));
    guillotine(rng, t0, t1, o0, o, depth - 1, out);
    guillotine(rng, t0, t1, o, o1, depth - 1, out);
  }
}

TEST(Planner, BestHonoursTheCapacity) {
  std::mt19937_64 rng(2024);
  for (int iter = 0; iter < 30; ++iter) {
    std::vector<Buffer> buffers;
    guillotine(rng, 0, 40, 0, 1 << 16, 4, buffers);
    std::shuffle(buffers.begin(), buffers.end(), rng);
    for (size_t i = 0; i < buffers.size(); ++i)
      buffers[i].id = static_cast<int64_t>(i);
    int64_t bound = *lowerBound(buffers);
    ASSERT_EQ(bound, 1 << 16);
    Plan fit = planOrDie(buffers, "best", 1, 5.0, bound);
    EXPECT_EQ(fit.arenaSize, bound) << "iteration " << iter;
    EXPECT_TRUE(fit.provenOptimal);
    // Deterministic for the same input and options.
    Plan again = planOrDie(buffers, "best", 1, 5.0, bound);
    EXPECT_EQ(fit.offsets, again.offsets);
    // A capacity the portfolio already meets: its plan, no search.
    Plan portfolio = planOrDie(buffers, "portfolio");
    Plan loose = planOrDie(buffers, "best", 1, 5.0, portfolio.arenaSize);
    EXPECT_EQ(loose.arenaSize, portfolio.arenaSize);
    EXPECT_EQ(loose.offsets, portfolio.offsets);
    // A capacity below the bound cannot be met: best still aims at the bound.
    Plan below = planOrDie(buffers, "best", 1, 5.0, bound / 2);
    EXPECT_EQ(below.arenaSize, bound);
    if (::testing::Test::HasFailure())
      break;
  }
  PlanOptions options;
  options.capacity = -1;
  EXPECT_FALSE(planBuffers({{1, 0, 1, 8, 1}}, options).ok());
}

TEST(Property, HeuristicsValidOnMixedLifetimes) {
  // Short, medium and very long lifetimes exercise every level of the
  // overlap index used by the greedy placements.
  std::mt19937_64 rng(31337);
  for (int iter = 0; iter < 4; ++iter) {
    int n = 2000 + static_cast<int>(rng() % 6000);
    int64_t horizon = 1 + static_cast<int64_t>(rng() % (2 * n));
    std::vector<Buffer> buffers;
    for (int i = 0; i < n; ++i) {
      int64_t start = static_cast<int64_t>(rng() % horizon);
      int64_t len = rng() % 50 == 0  ? 1 + int64_t(rng() % horizon)
                    : rng() % 5 == 0 ? 1 + int64_t(rng() % 300)
                                     : 1 + int64_t(rng() % 12);
      buffers.push_back({int64_t(i), start, start + len,
                         int64_t(1 + rng() % 5000), int64_t(1) << (rng() % 3)});
    }
    int64_t greedy = kMax;
    for (const std::string &s :
         {"linear-scan", "greedy-by-size", "greedy-by-breadth", "portfolio"}) {
      Plan p = planOrDie(buffers, s);
      EXPECT_GE(p.arenaSize, p.lowerBound) << s;
      if (std::string(s) == "greedy-by-size")
        greedy = p.arenaSize;
      if (std::string(s) == "portfolio")
        EXPECT_LE(p.arenaSize, greedy);
    }
  }
}

TEST(Property, BestMatchesBruteForceOnTinyInstances) {
  std::mt19937_64 rng(777);
  for (int iter = 0; iter < 1500; ++iter) {
    int n = 1 + rng() % 7;
    std::vector<Buffer> buffers =
        randomInstance(rng, n, 1 + rng() % 6, 1 + rng() % 20, false);
    Plan best = planOrDie(buffers, "best", 1, 1.0);
    int64_t optimum = bruteForce(buffers);
    EXPECT_EQ(best.arenaSize, optimum) << "iteration " << iter;
    EXPECT_TRUE(best.provenOptimal) << "iteration " << iter;
    if (::testing::Test::HasFailure())
      break;
  }
}

TEST(Property, BestReachesTheBoundOnChainsAndBranches) {
  // DNN-shaped: each op consumes the previous activation (and sometimes a
  // skip connection from a few ops back) and produces a new one.
  std::mt19937_64 rng(99);
  for (int iter = 0; iter < 200; ++iter) {
    int n = 10 + rng() % 60;
    std::vector<Buffer> buffers;
    for (int i = 0; i < n; ++i) {
      int64_t lastUse = i + 2;
      if (rng() % 4 == 0)
        lastUse = i + 2 + int64_t(rng() % 4); // a branch merged later
      buffers.push_back(
          {int64_t(i), int64_t(i), lastUse, int64_t(64 * (1 + rng() % 64)), 1});
    }
    Plan best = planOrDie(buffers, "best", 1, 1.0);
    EXPECT_EQ(best.arenaSize, best.lowerBound) << "iteration " << iter;
    if (::testing::Test::HasFailure())
      break;
  }
}

TEST(Planner, BestRespectsItsTimeLimitAndIsDeterministic) {
  std::mt19937_64 rng(5);
  std::vector<Buffer> buffers = randomInstance(rng, 300, 60, 1000, false);
  Plan a = planOrDie(buffers, "best", 1, 0.2);
  EXPECT_LT(a.seconds, 1.0); // 0.2 s budget plus heuristics on a loaded machine
  Plan portfolio = planOrDie(buffers, "portfolio");
  EXPECT_LE(a.arenaSize, portfolio.arenaSize);
  Plan p2 = planOrDie(buffers, "portfolio");
  EXPECT_EQ(portfolio.offsets, p2.offsets);
}

TEST(Planner, LargeInstancesScale) {
  std::mt19937_64 rng(1);
  std::vector<Buffer> buffers;
  for (int i = 0; i < 100000; ++i) {
    int64_t start = static_cast<int64_t>(rng() % 100000);
    buffers.push_back({int64_t(i), start, start + 1 + int64_t(rng() % 16),
                       int64_t(1 + rng() % 4096), 1});
  }
  Plan p = planOrDie(buffers, "portfolio");
  EXPECT_GE(p.arenaSize, p.lowerBound);
  EXPECT_LT(p.seconds, 20.0); // timing bars are measured by the benchmark
}

} // namespace

TEST(Planner, GreedyFallbacksAndSparseKeys) {
  // More than 256 placed buffers overlapping one query (the greedy sorts
  // them as (offset, top) pairs instead of packed keys), and offsets beyond
  // 2^55 (likewise), with negative, sparse ids and times far apart (the
  // radix sorts of ids and times).
  std::mt19937_64 rng(17);
  for (int64_t scale : {int64_t(1), int64_t(1) << 48}) {
    std::vector<Buffer> buffers;
    for (int64_t i = 0; i < 600; ++i) {
      int64_t start = (i % 3 == 0 ? -(int64_t(1) << 60) : 0) +
                      static_cast<int64_t>(rng() % 1000) * 1000003;
      int64_t id = (i % 2 ? -1 : 1) * (i * 7919 + (int64_t(1) << 40));
      buffers.push_back({id, start, start + (int64_t(1) << 58),
                         scale * int64_t(1 + rng() % 64), 1});
    }
    for (const char *s : {"greedy-by-size", "portfolio"})
      EXPECT_GT(planOrDie(buffers, s).arenaSize, 0) << s;
    EXPECT_LE(planOrDie(buffers, "portfolio").arenaSize,
              planOrDie(buffers, "greedy-by-size").arenaSize);
  }
  std::vector<Buffer> dup = {{-(int64_t(1) << 62), 0, 1, 8, 1},
                             {5, 0, 1, 8, 1},
                             {-(int64_t(1) << 62), 1, 2, 8, 1}};
  PlanOptions options;
  Expected<Plan> plan = planBuffers(dup, options);
  ASSERT_FALSE(plan.ok());
  EXPECT_NE(plan.error().find("duplicate buffer id " +
                              std::to_string(-(int64_t(1) << 62))),
            std::string::npos);
}

TEST(Planner, GreedyBySizeMatchesAQuadraticReference) {
  // The greedy places buffers in a time-local sequence (batches swept in
  // time, see docs/planner.md), which must give exactly the plan of placing
  // them one by one in size order: compare with a direct O(n^2) best fit.
  std::mt19937_64 rng(23);
  for (int64_t maxLength : {int64_t(16), int64_t(400)}) {
    std::vector<Buffer> buffers;
    for (int64_t i = 0; i < 3000; ++i) {
      int64_t start = static_cast<int64_t>(rng() % 3000);
      int64_t length = 1 + static_cast<int64_t>(rng() % maxLength);
      buffers.push_back({i, start, start + length,
                         int64_t(1) + static_cast<int64_t>(rng() % 5000), 1});
    }
    std::vector<size_t> order(buffers.size());
    std::iota(order.begin(), order.end(), 0);
    std::sort(order.begin(), order.end(), [&](size_t a, size_t b) {
      const Buffer &x = buffers[a], &y = buffers[b];
      return std::make_tuple(-x.size, x.start - x.end, x.start, a) <
             std::make_tuple(-y.size, y.start - y.end, y.start, b);
    });
    std::vector<int64_t> offsets(buffers.size(), -1);
    int64_t arena = 0;
    for (size_t a = 0; a < order.size(); ++a) {
      const Buffer &x = buffers[order[a]];
      std::vector<std::pair<int64_t, int64_t>> placed;
      for (size_t b = 0; b < a; ++b) {
        const Buffer &y = buffers[order[b]];
        if (y.start < x.end && x.start < y.end)
          placed.push_back({offsets[order[b]], offsets[order[b]] + y.size});
      }
      std::sort(placed.begin(), placed.end());
      int64_t prevTop = 0, best = -1, bestGap = kMax;
      for (const auto &[off, top] : placed) {
        if (off - prevTop >= x.size && off - prevTop < bestGap) {
          bestGap = off - prevTop;
          best = prevTop;
        }
        prevTop = std::max(prevTop, top);
      }
      offsets[order[a]] = best >= 0 ? best : prevTop;
      arena = std::max(arena, offsets[order[a]] + x.size);
    }
    Plan plan = planOrDie(buffers, "greedy-by-size");
    EXPECT_EQ(plan.arenaSize, arena);
    EXPECT_EQ(plan.offsets, offsets);
  }
}

namespace {
/// Start-order placement the direct way: each buffer (by start, then size and
/// lifetime decreasing, then input order) at the best-fit / first-fit gap
/// among the placed buffers overlapping it, else on top. O(n^2).
std::vector<int64_t> timeOrderedReference(const std::vector<Buffer> &buffers,
                                          int64_t alignment, bool bestFit,
                                          int64_t &arena) {
  std::vector<size_t> order;
  for (size_t i = 0; i < buffers.size(); ++i)
    if (buffers[i].size > 0)
      order.push_back(i);
  auto padded = [&](const Buffer &b) {
    int64_t a = std::max(b.alignment, alignment);
    return (b.size + a - 1) / a * a;
  };
  std::stable_sort(order.begin(), order.end(), [&](size_t a, size_t b) {
    const Buffer &x = buffers[a], &y = buffers[b];
    return std::make_tuple(x.start, -padded(x), x.start - x.end) <
           std::make_tuple(y.start, -padded(y), y.start - y.end);
  });
  std::vector<int64_t> offsets(buffers.size(), 0);
  arena = 0;
  for (size_t a = 0; a < order.size(); ++a) {
    const Buffer &x = buffers[order[a]];
    int64_t align = std::max(x.alignment, alignment), size = padded(x);
    std::vector<std::pair<int64_t, int64_t>> placed;
    for (size_t b = 0; b < a; ++b) {
      const Buffer &y = buffers[order[b]];
      if (y.start < x.end && x.start < y.end)
        placed.push_back({offsets[order[b]], offsets[order[b]] + padded(y)});
    }
    std::sort(placed.begin(), placed.end());
    int64_t prevTop = 0, best = -1, bestGap = kMax;
    for (const auto &[off, top] : placed) {
      int64_t cand = (prevTop + align - 1) / align * align;
      if (off > prevTop && cand < off && off - cand >= size &&
          (bestFit ? off - prevTop < bestGap : best < 0)) {
        bestGap = off - prevTop;
        best = cand;
      }
      prevTop = std::max(prevTop, top);
    }
    offsets[order[a]] =
        best >= 0 ? best : (prevTop + align - 1) / align * align;
    arena = std::max(arena, offsets[order[a]] + size);
  }
  return offsets;
}

/// Heavy overlap: the live set grows with n (exponential lifetimes with a
/// mean proportional to n), sizes log-uniform over [1, maxSize], or with
/// `lognormal` log-normal (median maxSize / 4096, sigma 1.5, at most maxSize:
/// a few large buffers among many small ones, where greedy by size does
/// well).
std::vector<Buffer> heavyInstance(std::mt19937_64 &rng, int n, int64_t maxSize,
                                  bool aligned, bool lognormal = false) {
  std::exponential_distribution<double> life(1.0 / (0.07 * n + 1));
  std::uniform_real_distribution<double> logSize(0, std::log(maxSize));
  std::lognormal_distribution<double> logNormal(
      std::log(static_cast<double>(maxSize) / 4096), 1.5);
  std::vector<Buffer> buffers;
  int64_t span = n + 2 * n / 5 + 1;
  for (int i = 0; i < n; ++i) {
    int64_t start = static_cast<int64_t>(rng() % span);
    int64_t len = 1 + static_cast<int64_t>(life(rng));
    double size = lognormal ? std::clamp(logNormal(rng), 1.0,
                                         static_cast<double>(maxSize))
                            : std::exp(logSize(rng));
    buffers.push_back({int64_t(i), start, start + len,
                       static_cast<int64_t>(size),
                       aligned ? int64_t(1) << (rng() % 5) : 1});
  }
  return buffers;
}
} // namespace

TEST(Planner, TimeOrderedSweepsMatchAQuadraticReference) {
  // linear-scan and time-best-fit run as a sweep with a coalescing free list
  // (lib/Support/Sweep.cpp); they must place exactly like the direct
  // first-fit / best-fit among the overlapping placed buffers.
  std::mt19937_64 rng(41);
  for (int iter = 0; iter < 300; ++iter) {
    int n = 1 + static_cast<int>(rng() % (iter < 250 ? 60 : 1500));
    bool aligned = iter % 3 == 0;
    std::vector<Buffer> buffers =
        iter % 2
            ? heavyInstance(rng, n, 1 + rng() % 5000, aligned)
            : randomInstance(rng, n, 1 + rng() % 40, 1 + rng() % 300, aligned);
    int64_t alignment = iter % 7 == 0 ? 16 : 1;
    for (bool bestFit : {false, true}) {
      int64_t arena;
      std::vector<int64_t> offsets =
          timeOrderedReference(buffers, alignment, bestFit, arena);
      Plan plan = planOrDie(buffers, bestFit ? "time-best-fit" : "linear-scan",
                            alignment);
      EXPECT_EQ(plan.arenaSize, arena) << "iteration " << iter;
      for (size_t i = 0; i < buffers.size(); ++i)
        if (buffers[i].size > 0)
          EXPECT_EQ(plan.offsets[i], offsets[i])
              << "iteration " << iter << " buffer " << i;
    }
    if (::testing::Test::HasFailure())
      break;
  }
}

TEST(Property, EveryStrategyIsValidOnHeavyOverlap) {
  // Thousands of heavy-overlap instances (every buffer overlaps a sizeable
  // fraction of the others), each plan checked by the validator
  // (planOrDie); the portfolio is never worse than its time-ordered
  // best-fit member, best never worse than the portfolio.
  std::mt19937_64 rng(2024);
  for (int iter = 0; iter < 2000; ++iter) {
    int n = 2 + static_cast<int>(rng() % (iter % 100 == 0 ? 1000 : 40));
    std::vector<Buffer> buffers =
        heavyInstance(rng, n, 1 + rng() % 100000, iter % 4 == 0);
    int64_t alignment = iter % 5 == 0 ? 8 : 1;
    int64_t timeBestFit = 0, portfolio = 0;
    for (const std::string &s : strategyNames()) {
      if (s == "best" || (s == "naive" && n > 100))
        continue;
      Plan p = planOrDie(buffers, s, alignment);
      EXPECT_GE(p.arenaSize, p.lowerBound) << s;
      if (s == "time-best-fit")
        timeBestFit = p.arenaSize;
      if (s == "portfolio")
        portfolio = p.arenaSize;
    }
    EXPECT_LE(portfolio, timeBestFit) << "iteration " << iter;
    if (iter % 40 == 0) {
      // Under one time limit (the portfolio's members depend on it).
      Plan best = planOrDie(buffers, "best", alignment, 0.02);
      Plan quick = planOrDie(buffers, "portfolio", alignment, 0.02);
      EXPECT_LE(best.arenaSize, quick.arenaSize) << "iteration " << iter;
      EXPECT_LE(quick.arenaSize, timeBestFit) << "iteration " << iter;
    }
    if (::testing::Test::HasFailure())
      break;
  }
}

TEST(Planner, BestImprovesLargeHeavyInstancesWithinItsLimit) {
  // Components too large for the exact search: `best` runs randomized
  // lifetime-aware sweeps from five peak stacks, re-rolls of the worse side
  // and peak repair on two threads. Every plan valid (planOrDie), never worse
  // than the portfolio or the malloc simulation, and back within its limit
  // (plus slack for a loaded machine), also with alignments and a limit too
  // short for any improvement.
#ifdef MPLAN_SANITIZER_BUILD
  constexpr double kSlack = 6; // members admitted by estimate run 3-5x longer
#else
  constexpr double kSlack = 1.5;
#endif
  std::mt19937_64 rng(77);
  for (int iter = 0; iter < 8; ++iter) {
    int n = 5000 + static_cast<int>(rng() % 7000);
    bool aligned = iter % 2 == 1;
    std::vector<Buffer> buffers =
        heavyInstance(rng, n, 1 + rng() % (1 << 20), aligned);
    int64_t alignment = iter % 4 == 3 ? 8 : 1;
    double limit = iter == 0 ? 0.01 : 0.4;
    Plan portfolio = planOrDie(buffers, "portfolio", alignment, limit);
    Plan malloc = planOrDie(buffers, "time-best-fit", alignment);
    Plan best = planOrDie(buffers, "best", alignment, limit);
    EXPECT_LE(best.arenaSize, portfolio.arenaSize) << "iteration " << iter;
    EXPECT_LE(portfolio.arenaSize, malloc.arenaSize) << "iteration " << iter;
    EXPECT_LT(best.seconds, limit + kSlack) << "iteration " << iter;
    if (::testing::Test::HasFailure())
      break;
  }
}

TEST(Planner, PortfolioSkipsMembersThatDoNotFitTheBudget) {
  // 20k buffers, about 1,000 live at a time: the quadratic members do not fit
  // a 0.05 s budget and are reported; the sweeps still run.
  std::mt19937_64 rng(8);
  std::vector<Buffer> buffers = heavyInstance(rng, 20000, 1 << 20, false);
  Plan p = planOrDie(buffers, "portfolio", 1, 0.0);
  EXPECT_FALSE(p.skipped.empty());
  EXPECT_NE(p.strategy.find("start/"), std::string::npos) << p.strategy;
  Plan sweep = planOrDie(buffers, "time-best-fit");
  EXPECT_LE(p.arenaSize, sweep.arenaSize);
}

TEST(Planner, PortfolioRunsEveryMemberItsEstimateFits) {
  // Issue 34: the portfolio's budget follows the time limit, and a member
  // is skipped only when its estimate does not fit the time left in that
  // budget. 20k buffers with log-normal sizes, where greedy by size beats
  // every sweep and stack: with 40 s (a 1 s budget) the portfolio runs it
  // and is never above it (the old budget, min(limit, 0.2 s + 2 us x n),
  // skipped it and ended 5 % above).
  std::mt19937_64 rng(34);
  std::vector<Buffer> buffers =
      heavyInstance(rng, 20000, 64 << 20, false, /*lognormal=*/true);
  Plan bySize = planOrDie(buffers, "greedy-by-size", 1, 40.0);
  Plan byBreadth = planOrDie(buffers, "greedy-by-breadth", 1, 40.0);
  Plan sweep = planOrDie(buffers, "time-best-fit", 1, 40.0);
  for (double limit : {0.0, 1.0, 40.0}) {
    Plan p = planOrDie(buffers, "portfolio", 1, limit);
    ASSERT_FALSE(p.members.empty());
    double budget = portfolioBudget(limit);
    std::set<std::string> ran;
    for (const MemberRun &m : p.members) {
      EXPECT_FALSE(m.extra) << m.name;
      EXPECT_LE(m.secondsLeft, budget + 1e-9) << m.name;
      if (m.ran) {
        // Finished (a loaded machine may stop it at 3x the budget).
        if (m.finished)
          ran.insert(m.strategy);
        continue;
      }
      // Plain stacking is left out above 20k buffers when the
      // lifetime-aware one runs; everything else only by its estimate.
      if (m.name != "peak-earliest-start/best-fit")
        EXPECT_GT(m.estimatedSeconds, m.secondsLeft)
            << m.name << " at limit " << limit;
    }
    EXPECT_TRUE(ran.count("time-best-fit")) << limit;
    EXPECT_LE(p.arenaSize, sweep.arenaSize) << limit;
    for (const Plan *named : {&bySize, &byBreadth})
      if (ran.count(named->strategy))
        EXPECT_LE(p.arenaSize, named->arenaSize)
            << named->strategy << " at limit " << limit;
    // With 40 s both greedy members fit the budget (they take about 0.6 s
    // here; the old budget was 0.24 s) and run.
    if (limit == 40.0)
      for (const MemberRun &m : p.members)
        if (m.strategy == "greedy-by-size" || m.strategy == "greedy-by-breadth")
          EXPECT_TRUE(m.ran) << m.name;
  }
}

TEST(Planner, PortfolioAdmitsTheGreedyStrategiesWithAMargin) {
  // The portfolio is never above greedy-by-size or greedy-by-breadth when
  // they finish within its budget; their estimate is 0.5-1.35x what they
  // take, so they are admitted up to 1.5x the time left. At a limit whose
  // budget is 0.8x greedy-by-size's estimate it runs (on the second thread,
  // the first holding the time-ordered best fit).
  std::mt19937_64 rng(35);
  std::vector<Buffer> buffers =
      heavyInstance(rng, 20000, 64 << 20, false, /*lognormal=*/true);
  Plan probe = planOrDie(buffers, "portfolio", 1, 0.0);
  double model = 0;
  for (const MemberRun &m : probe.members)
    if (m.strategy == "greedy-by-size")
      model = m.modelSeconds;
  ASSERT_GT(model, 0.2);
  double limit = 0.8 * model / kPortfolioShare;
  ASSERT_NEAR(portfolioBudget(limit), 0.8 * model, 1e-9);
  Plan p = planOrDie(buffers, "portfolio", 1, limit);
  Plan bySize = planOrDie(buffers, "greedy-by-size", 1, limit);
  bool ran = false;
  for (const MemberRun &m : p.members)
    if (m.strategy == "greedy-by-size")
      ran = m.ran;
  EXPECT_TRUE(ran);
  EXPECT_LE(p.arenaSize, bySize.arenaSize);
}

TEST(Planner, PortfolioEstimatesBoundTheCpuTimeOfItsSweepsAndStacks) {
  // Issue 34: admission compares the cost model with the budget, so a model
  // below what the members cost lets the portfolio overrun the scale bars
  // (100k heavy-overlap buffers in 0.5 s: the old model put linear-scan at
  // 0.8 us per buffer where it takes about 2.2, and admitted four members
  // worth 0.7 s of CPU into a 0.25 s budget on two threads). On 100k
  // buffers, the most expensive case per buffer of the sweeps and stacks,
  // every member that ran took at most twice its estimate in thread CPU
  // time, and the busiest thread's estimates fit the budget.
#ifdef MPLAN_SANITIZER_BUILD
  GTEST_SKIP() << "CPU times; the sanitizer build is several times slower";
#endif
  std::mt19937_64 rng(100);
  std::vector<Buffer> buffers = heavyInstance(rng, 100000, 1 << 20, false);
  Plan p = planOrDie(buffers, "portfolio", 1, 10.0);
  double cpu = 0;
  for (const MemberRun &m : p.members) {
    if (!m.finished)
      continue;
    cpu += m.cpuSeconds;
    EXPECT_LE(m.cpuSeconds, 2 * m.modelSeconds + 0.01)
        << m.name << " estimated " << m.modelSeconds;
  }
  EXPECT_LE(cpu, 2 * portfolioBudget(10.0) + 0.05);
}

TEST(Property, BestIsNeverAboveAStrategyThatFinishesInItsLimit) {
  // Issue 34: `best` at a limit L ends at or below every strategy by name
  // that finishes within L (here within L / 2: both runs are timed on a
  // possibly loaded machine), on the property tests' instance kinds: small
  // random ones, heavy overlap, and heavy overlap with log-normal sizes up
  // to 10k buffers, where greedy by size wins.
  std::mt19937_64 rng(3434);
  for (int iter = 0; iter < 32; ++iter) {
    int kind = iter % 4;
    int n = kind == 0 ? 1 + static_cast<int>(rng() % 25)
            : kind == 1
                ? 2 + static_cast<int>(rng() % 400)
                : 1000 + static_cast<int>(rng() % (iter < 28 ? 2000 : 9000));
    std::vector<Buffer> buffers =
        kind == 0 ? randomInstance(rng, n, 1 + rng() % 12, 1 + rng() % 100,
                                   iter % 3 == 0)
                  : heavyInstance(rng, n, 1 + rng() % (64 << 20), iter % 5 == 0,
                                  /*lognormal=*/kind >= 2);
    double limit = kind == 0 ? 0.05 : iter >= 28 ? 1.0 : 0.25;
    int64_t finished = kMax;
    std::string winner;
    for (const std::string &s : strategyNames()) {
      if (s == "best")
        continue;
      Plan p = planOrDie(buffers, s, 1, limit);
      if (p.seconds <= limit / 2 && p.arenaSize < finished) {
        finished = p.arenaSize;
        winner = s;
      }
    }
    Plan best = planOrDie(buffers, "best", 1, limit);
    EXPECT_LE(best.arenaSize, finished)
        << "iteration " << iter << ": " << n << " buffers, " << winner
        << " within " << limit / 2 << " s";
    // The members mplan-plan offers by name that best left out did not fit
    // the time left.
    for (const MemberRun &m : best.members)
      if (!m.ran && !m.strategy.empty())
        EXPECT_GT(m.estimatedSeconds, m.secondsLeft) << m.name;
    if (::testing::Test::HasFailure())
      break;
  }
}

TEST(Planner, NoPlanPastTheTimeLimitAndItsGrace) {
  // Every strategy but naive (O(n)) gives up the grace past the limit: with
  // no limit and no grace, 20k buffers are an error naming the limit; with
  // the default grace they get a plan. `portfolio` and `best` run the
  // time-ordered best fit even with no time left, and name it. (Sweeps and
  // greedy placement check the deadline every 1024-4096 buffers.)
  std::mt19937_64 rng(9);
  std::vector<Buffer> buffers = heavyInstance(rng, 20000, 1 << 20, false);
  const std::pair<const char *, const char *> cases[] = {
      {"portfolio", "the time-ordered best fit"},
      {"best", "the time-ordered best fit"},
      {"linear-scan", "this strategy"},
      {"time-best-fit", "this strategy"},
      {"greedy-by-size", "this strategy"},
      {"greedy-by-breadth", "this strategy"}};
  for (const auto &[strategy, what] : cases) {
    PlanOptions options;
    options.strategy = strategy;
    options.timeLimitSeconds = 0;
    options.graceSeconds = 0;
    Expected<Plan> none = planBuffers(buffers, options);
    ASSERT_FALSE(none.ok()) << strategy;
    EXPECT_NE(none.error().find(
                  std::string("no plan within the time limit: 20000 buffers "
                              "take ") +
                  what),
              std::string::npos)
        << none.error();
#ifdef MPLAN_SANITIZER_BUILD
    options.graceSeconds = 12; // greedy placement runs several times slower
#else
    options.graceSeconds = 3;
#endif
    EXPECT_TRUE(planBuffers(buffers, options).ok()) << strategy;
  }
  PlanOptions bad;
  bad.graceSeconds = -1;
  Expected<Plan> negative = planBuffers(buffers, bad);
  ASSERT_FALSE(negative.ok());
  EXPECT_EQ(negative.error(), "the grace period must be non-negative");
}

TEST(Planner, StaggerSpreadsPagesAndKeepsPlansValid) {
  // Five 4 KiB buffers, each live with its neighbours: greedy packs them at
  // multiples of 4 KiB, the stagger moves the k-th page up by k * 128 bytes.
  std::vector<Buffer> pages;
  for (int64_t i = 0; i < 5; ++i)
    pages.push_back({i, i, i + 3, kStaggerPeriod, 64});
  PlanOptions options;
  options.strategy = "greedy-by-size";
  options.alignment = 64;
  Expected<Plan> flat = planBuffers(pages, options);
  ASSERT_TRUE(flat.ok()) << flat.error();
  options.stagger = 128;
  Expected<Plan> spread = planBuffers(pages, options);
  ASSERT_TRUE(spread.ok()) << spread.error();
  EXPECT_FALSE(validatePlan(pages, spread->offsets, spread->arenaSize, 64));
  std::set<int64_t> residues;
  for (size_t i = 0; i < pages.size(); ++i) {
    int64_t page = flat->offsets[i] / kStaggerPeriod;
    EXPECT_EQ(spread->offsets[i], flat->offsets[i] + page * 128);
    residues.insert(spread->offsets[i] % kStaggerPeriod);
  }
  EXPECT_EQ(residues.size(), 3u); // three pages are live at once
  EXPECT_EQ(flat->arenaSize, 3 * kStaggerPeriod);
  EXPECT_EQ(spread->arenaSize, 3 * kStaggerPeriod + 2 * 128);
  EXPECT_EQ(spread->staggerBytes, 2 * 128);
  EXPECT_EQ(spread->lowerBound, flat->lowerBound);
  EXPECT_TRUE(spread->provenOptimal);

  // Not a multiple of the alignment, negative: errors.
  options.stagger = 96;
  EXPECT_FALSE(planBuffers(pages, options).ok());
  options.stagger = -64;
  EXPECT_FALSE(planBuffers(pages, options).ok());
  // A buffer aligned to the period leaves nothing to stagger.
  pages[0].alignment = kStaggerPeriod;
  options.stagger = 64;
  Expected<Plan> pinned = planBuffers(pages, options);
  ASSERT_TRUE(pinned.ok()) << pinned.error();
  EXPECT_EQ(pinned->staggerBytes, 0);
  EXPECT_EQ(pinned->arenaSize, flat->arenaSize);
  // Offsets near the int64 limit overflow with a message, never wrap.
  std::vector<Buffer> huge = {{0, 0, 1, kMax / 2, 1}, {1, 0, 1, kMax / 4, 1}};
  options.alignment = 1;
  options.stagger = kStaggerPeriod - 1;
  EXPECT_FALSE(planBuffers(huge, options).ok());
}

TEST(Property, StaggeredPlansStayValid) {
  std::mt19937_64 rng(777);
  for (int iter = 0; iter < 500; ++iter) {
    std::vector<Buffer> buffers = randomInstance(
        rng, 1 + rng() % 40, 1 + rng() % 20, 1 + rng() % 20000, iter % 2 == 0);
    PlanOptions options;
    options.strategy = strategyNames()[iter % strategyNames().size()];
    options.timeLimitSeconds = 0.01;
    options.alignment = iter % 3 == 0 ? 16 : 1;
    options.stagger = options.alignment * (1 + rng() % 16);
    Expected<Plan> plan = planBuffers(buffers, options);
    ASSERT_TRUE(plan.ok()) << plan.error();
    std::optional<std::string> err = validatePlan(
        buffers, plan->offsets, plan->arenaSize, options.alignment);
    EXPECT_FALSE(err) << "iteration " << iter << ": " << *err;
    // The growth is at most one step (rounded up to an alignment of at most
    // 16) per 4 KiB of arena.
    int64_t step = options.stagger + 16;
    EXPECT_LE(plan->staggerBytes,
              (plan->arenaSize / kStaggerPeriod + 1) * step);
    if (::testing::Test::HasFailure())
      break;
  }
}

TEST(Deadline, HugeAndInvalidBudgetsSaturate) {
  Clock::time_point now = Clock::now();
  // An infinite or huge budget is "no limit", never a deadline in the past
  // (converting it to clock ticks used to overflow).
  for (double seconds : {std::numeric_limits<double>::infinity(), 1e300, 1e19,
                         kMaxBudgetSeconds})
    EXPECT_GT(deadlineAfter(now, seconds), now + std::chrono::hours(24 * 365))
        << seconds;
  for (double seconds : {0.0, -1.0, -std::numeric_limits<double>::infinity(),
                         std::numeric_limits<double>::quiet_NaN()})
    EXPECT_EQ(deadlineAfter(now, seconds), now) << seconds;
  EXPECT_EQ(deadlineAfter(now, 2.0), now + std::chrono::seconds(2));
}

TEST(Planner, InfiniteTimeLimitStillSearches) {
  // Every portfolio member needs 320 bytes here; only the exact search
  // reaches the bound, 304. An infinite budget must not skip it.
  std::vector<Buffer> buffers = {{0, 4, 8, 80}, {1, 3, 6, 16}, {2, 6, 10, 32},
                                 {3, 1, 5, 48}, {4, 1, 3, 48}, {5, 5, 9, 32},
                                 {6, 6, 8, 64}, {7, 5, 6, 80}, {8, 2, 3, 64},
                                 {9, 4, 7, 96}};
  EXPECT_EQ(planOrDie(buffers, "portfolio").arenaSize, 320);
  Plan plan =
      planOrDie(buffers, "best", 1, std::numeric_limits<double>::infinity());
  EXPECT_EQ(plan.lowerBound, 304);
  EXPECT_EQ(plan.arenaSize, 304);
  EXPECT_FALSE(validatePlan(buffers, plan.offsets, plan.arenaSize));
}

namespace {
/// A shuffled perfect packing of [0, 1000) x [0, height) (guillotine), ids
/// renumbered; sizes are multiples of `unit`.
std::vector<Buffer> shuffledPacking(std::mt19937_64 &rng, int depth,
                                    int64_t height, int64_t unit = 1) {
  std::vector<Buffer> buffers;
  guillotine(rng, 0, 1000, 0, height / unit, depth, buffers);
  std::shuffle(buffers.begin(), buffers.end(), rng);
  for (size_t i = 0; i < buffers.size(); ++i) {
    buffers[i].id = static_cast<int64_t>(i);
    buffers[i].size *= unit;
  }
  return buffers;
}
} // namespace

TEST(Search, FitsPerfectPackingsDeterministicallyAndCountsItsWork) {
  // Deep packings (up to 128 buffers) the portfolio mostly misses: best
  // with the capacity fits each one, with the same plan and winning member
  // on every run although the search's members run in parallel threads.
  std::mt19937_64 rng(17);
  int searched = 0;
  for (int iter = 0; iter < 16; ++iter) {
    std::vector<Buffer> buffers = shuffledPacking(rng, 7, 1 << 20);
    int64_t bound = *lowerBound(buffers);
    ASSERT_EQ(bound, 1 << 20);
    Plan fit = planOrDie(buffers, "best", 1, 10.0, bound);
    EXPECT_EQ(fit.arenaSize, bound) << "iteration " << iter;
    EXPECT_EQ(fit.goalBytes, bound);
    EXPECT_EQ(goalGap(fit), 0);
    Plan again = planOrDie(buffers, "best", 1, 10.0, bound);
    EXPECT_EQ(fit.offsets, again.offsets) << "iteration " << iter;
    EXPECT_EQ(fit.search.solvedBy, again.search.solvedBy);
    if (fit.strategy == "best(search)") {
      ++searched;
      const SearchStats &s = fit.search;
      EXPECT_FALSE(s.solvedBy.empty());
      EXPECT_GE(s.targets, 1);
      EXPECT_GE(s.restarts, 1u);
      EXPECT_GT(s.nodes, 0u);
      EXPECT_LE(s.holeNodes, s.nodes);
      EXPECT_GT(s.work, s.nodes); // every node scans its partition
      EXPECT_GE(s.seconds, 0.0);
    } else {
      EXPECT_EQ(fit.search.nodes, 0u);
    }
    if (::testing::Test::HasFailure())
      break;
  }
  EXPECT_GE(searched, 8) << searched;
}

TEST(Search, ReportsTheGapWhenItStopsShortOfItsGoal) {
  std::mt19937_64 rng(23);
  std::vector<Buffer> buffers;
  Plan portfolio;
  // A packing the portfolio does not fit.
  do {
    buffers = shuffledPacking(rng, 7, 1 << 20);
    portfolio = planOrDie(buffers, "portfolio");
  } while (portfolio.arenaSize == portfolio.lowerBound);
  int64_t bound = portfolio.lowerBound;
  // No time for the search: the portfolio's plan, short of the goal.
  Plan stopped = planOrDie(buffers, "best", 1, 0.0, bound);
  EXPECT_EQ(stopped.arenaSize, portfolio.arenaSize);
  EXPECT_EQ(stopped.goalBytes, bound);
  EXPECT_EQ(goalGap(stopped), portfolio.arenaSize - bound);
  // Without a capacity the goal is the bound.
  EXPECT_EQ(planOrDie(buffers, "best", 1, 0.0).goalBytes, bound);
  // A capacity above the bound is the goal; met, no gap.
  Plan loose = planOrDie(buffers, "best", 1, 0.0, portfolio.arenaSize);
  EXPECT_EQ(loose.goalBytes, portfolio.arenaSize);
  EXPECT_EQ(goalGap(loose), 0);
  // The bytes the stagger adds are not a gap.
  PlanOptions options;
  options.capacity = bound;
  options.stagger = 64;
  Expected<Plan> staggered = planBuffers(buffers, options);
  ASSERT_TRUE(staggered.ok());
  EXPECT_GT(staggered->staggerBytes, 0);
  EXPECT_EQ(staggered->arenaSize - staggered->staggerBytes, bound);
  EXPECT_EQ(goalGap(*staggered), 0);
  // Strategies other than best have no goal.
  Plan greedy = planOrDie(buffers, "greedy-by-size");
  EXPECT_EQ(greedy.goalBytes, 0);
  EXPECT_EQ(goalGap(greedy), 0);
  EXPECT_EQ(greedy.search.nodes, 0u);
}

TEST(Search, CapacitiesBetweenMultiplesOfTheSizeGcd) {
  // Every size a multiple of 64: a capacity 63 bytes above the bound can
  // only be met at the bound, and one 64 bytes below a multiple only at the
  // multiple below it.
  std::mt19937_64 rng(29);
  for (int iter = 0; iter < 6; ++iter) {
    std::vector<Buffer> buffers = shuffledPacking(rng, 6, 1 << 16, 64);
    int64_t bound = *lowerBound(buffers);
    Plan fit = planOrDie(buffers, "best", 1, 10.0, bound + 63);
    EXPECT_EQ(fit.arenaSize, bound) << "iteration " << iter;
    // Alignments join the gcd: 64-byte sizes at 128-byte alignment.
    Plan aligned = planOrDie(buffers, "best", 128, 10.0, 0);
    EXPECT_EQ(aligned.arenaSize % 64, 0);
    EXPECT_GE(aligned.arenaSize, aligned.lowerBound);
    if (::testing::Test::HasFailure())
      break;
  }
}

TEST(Search, WithoutACapacityReachesWhatACapacityFitsQuickly) {
#ifdef MPLAN_SANITIZER_BUILD
  GTEST_SKIP() << "two timed searches compared; the sanitizer build is slower";
#endif
  // Packings with some sizes grown a little: the bound is out of reach and
  // best without a capacity narrows the gap until its time limit. It must
  // get at least as low as any capacity best fits in 1/32 of that time
  // (issue 17: the descent used to end above such a capacity). The margin
  // is wide because both runs are timed: with 2 s against 0.25 s the test
  // failed on a loaded machine.
  std::mt19937_64 rng(31);
  int narrowed = 0;
  for (int iter = 0; iter < 12 && narrowed < 2; ++iter) {
    std::vector<Buffer> buffers = shuffledPacking(rng, 8, 1 << 20, 1024);
    for (Buffer &b : buffers)
      if (rng() % 7 == 0)
        b.size += 1024 * static_cast<int64_t>(1 + rng() % 8);
    Plan portfolio = planOrDie(buffers, "portfolio");
    Plan free = planOrDie(buffers, "best", 1, 8.0);
    if (free.arenaSize == free.lowerBound)
      continue;
    ++narrowed;
    int64_t bound = free.lowerBound, gap = portfolio.arenaSize - bound;
    for (int k = 1; k < 8; ++k) {
      int64_t capacity = bound + gap * k / 8;
      Plan capped = planOrDie(buffers, "best", 1, 0.25, capacity);
      if (capped.arenaSize > capacity)
        continue;
      EXPECT_LE(free.arenaSize, capacity)
          << "iteration " << iter << ": " << capacity << " fits in 0.25 s";
      break;
    }
    if (::testing::Test::HasFailure())
      break;
  }
  EXPECT_GE(narrowed, 1);
}
