//===- SequencerTest.cpp - Memory-aware operation order -------------------===//

#include "mplan/Support/Sequencer.h"
#include "SanitizerBuild.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <functional>
#include <limits>
#include <random>

using namespace mplan;

namespace {

Sequence sequenceOrDie(const SequenceGraph &graph, const std::string &mode,
                       double seconds = 2.0) {
  SequenceOptions options;
  options.mode = mode;
  options.timeLimitSeconds = seconds;
  Expected<Sequence> result = sequenceGraph(graph, options);
  EXPECT_TRUE(result.ok()) << mode << ": " << result.error();
  if (!result.ok())
    return Sequence();
  std::optional<int64_t> peak = schedulePeak(graph, result->order);
  EXPECT_TRUE(peak.has_value()) << mode << ": not a topological order";
  if (peak)
    EXPECT_EQ(*peak, result->peak) << mode;
  EXPECT_LE(result->peak, result->programPeak) << mode;
  return *result;
}

// An Inception-style block emitted breadth first: x feeds two branches of
// two ops each, joined by a concat. Program order runs both branch heads
// while x is live (100 + 50 + 50); finishing one branch first needs
// 100 + 50 + 10 at most, which is optimal: the second head runs while x, its
// own output and the first branch's live result (>= 10) are live.
SequenceGraph inceptionBreadthFirst() {
  SequenceGraph g;
  g.numNodes = 6;
  g.predecessors = {{}, {0}, {0}, {1}, {2}, {3, 4}};
  g.buffers = {{100, {0, 1, 2}}, // x
               {50, {1, 3}},     // branch 1 head
               {50, {2, 4}},     // branch 2 head
               {10, {3, 5}},     // branch 1 result
               {10, {4, 5}},     // branch 2 result
               {10, {5}}};       // concat
  return g;
}

TEST(Sequencer, InceptionHandChecked) {
  SequenceGraph g = inceptionBreadthFirst();
  EXPECT_EQ(schedulePeak(g, {0, 1, 2, 3, 4, 5}), 200);
  EXPECT_EQ(schedulePeak(g, {0, 1, 3, 2, 4, 5}), 160);
  for (const char *mode : {"greedy", "best", "exact"}) {
    Sequence s = sequenceOrDie(g, mode);
    EXPECT_EQ(s.programPeak, 200) << mode;
    EXPECT_EQ(s.peak, 160) << mode;
  }
  Sequence best = sequenceOrDie(g, "best");
  EXPECT_TRUE(best.provenOptimal);
  Sequence program = sequenceOrDie(g, "program");
  EXPECT_EQ(program.peak, 200);
  EXPECT_EQ(program.order, (std::vector<int32_t>{0, 1, 2, 3, 4, 5}));
}

TEST(Sequencer, KeepsProgramOrderWhenNothingIsBetter) {
  // A chain: one order only.
  SequenceGraph g;
  g.numNodes = 4;
  g.predecessors = {{}, {0}, {1}, {2}};
  g.buffers = {{8, {0, 1}}, {16, {1, 2}}, {4, {2, 3}}};
  Sequence s = sequenceOrDie(g, "best");
  EXPECT_EQ(s.order, (std::vector<int32_t>{0, 1, 2, 3}));
  EXPECT_EQ(s.peak, 24);
  EXPECT_TRUE(s.provenOptimal);
  // Independent nodes whose order does not matter stay in program order.
  SequenceGraph flat;
  flat.numNodes = 3;
  flat.predecessors = {{}, {}, {}};
  flat.buffers = {{8, {0}}, {8, {1}}, {8, {2}}};
  EXPECT_EQ(sequenceOrDie(flat, "best").order, (std::vector<int32_t>{0, 1, 2}));
}

TEST(Sequencer, EmptyGraphIsOptimal) {
  // No node: the empty order is the only one, and every search mode says
  // so; program mode makes no claim.
  SequenceGraph g;
  for (const char *mode : {"greedy", "best", "exact"}) {
    Sequence s = sequenceOrDie(g, mode);
    EXPECT_TRUE(s.order.empty()) << mode;
    EXPECT_EQ(s.peak, 0) << mode;
    EXPECT_TRUE(s.provenOptimal) << mode;
  }
  EXPECT_FALSE(sequenceOrDie(g, "program").provenOptimal);
}

TEST(Sequencer, NodeBytesCountWhileTheNodeRuns) {
  SequenceGraph g;
  g.numNodes = 2;
  g.predecessors = {{}, {}};
  g.buffers = {{10, {0}}};
  g.nodeBytes = {0, 30};
  EXPECT_EQ(schedulePeak(g, {0, 1}), 30);
  EXPECT_EQ(schedulePeak(g, {1, 0}), 30);
}

TEST(Sequencer, CutNodesSplitTheGraph) {
  // Three Inception blocks in a row: the concats (and x) are cut nodes.
  SequenceGraph one = inceptionBreadthFirst();
  SequenceGraph g;
  for (int block = 0; block < 3; ++block) {
    int32_t offset = g.numNodes;
    for (const std::vector<int32_t> &preds : one.predecessors) {
      std::vector<int32_t> shifted;
      for (int32_t p : preds)
        shifted.push_back(p + offset);
      if (block > 0 && preds.empty())
        shifted.push_back(offset - 1);
      g.predecessors.push_back(shifted);
    }
    for (SequenceBuffer buffer : one.buffers) {
      for (int32_t &u : buffer.users)
        u += offset;
      g.buffers.push_back(buffer);
    }
    g.numNodes += one.numNodes;
  }
  Sequence s = sequenceOrDie(g, "best");
  EXPECT_EQ(s.peak, 160);
  EXPECT_TRUE(s.provenOptimal);
  // x and concat of each block alone, the four branch ops together.
  EXPECT_EQ(s.numComponents, 9);
  EXPECT_EQ(s.largestComponent, 4);
}

TEST(Sequencer, RejectsInvalidInput) {
  SequenceOptions options;
  SequenceGraph g = inceptionBreadthFirst();
  options.mode = "fastest";
  EXPECT_FALSE(sequenceGraph(g, options).ok());
  options.mode = "best";
  SequenceGraph bad = g;
  bad.predecessors[1] = {3};
  Expected<Sequence> r = sequenceGraph(bad, options);
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.error().find("earlier in program order"), std::string::npos);
  bad = g;
  bad.buffers[0].users.push_back(6);
  EXPECT_FALSE(sequenceGraph(bad, options).ok());
  bad = g;
  bad.buffers[0].size = -1;
  EXPECT_FALSE(sequenceGraph(bad, options).ok());
  bad = g;
  bad.buffers[0].size = std::numeric_limits<int64_t>::max();
  EXPECT_FALSE(sequenceGraph(bad, options).ok());
  // Not topological, not a permutation.
  EXPECT_FALSE(schedulePeak(g, {1, 0, 2, 3, 4, 5}));
  EXPECT_FALSE(schedulePeak(g, {0, 1, 2, 3, 4}));
  EXPECT_FALSE(schedulePeak(g, {0, 1, 1, 3, 4, 5}));
}

/// A random DAG in program order: each node depends on a few earlier ones
/// (mostly recent, as in real programs), produces one buffer read by up to
/// three later nodes and sometimes a second one.
SequenceGraph randomGraph(std::mt19937 &rng, int32_t n, int maxPreds = 2) {
  SequenceGraph g;
  g.numNodes = n;
  g.predecessors.resize(n);
  std::uniform_int_distribution<int> size(1, 64);
  for (int32_t v = 1; v < n; ++v) {
    int preds = std::uniform_int_distribution<int>(0, maxPreds)(rng);
    for (int i = 0; i < preds; ++i) {
      int32_t lo = std::max(0, v - 6);
      g.predecessors[v].push_back(
          std::uniform_int_distribution<int32_t>(lo, v - 1)(rng));
    }
  }
  // Buffers flow along the edges: the producer and its consumers use it.
  std::vector<std::vector<int32_t>> consumers(n);
  for (int32_t v = 0; v < n; ++v)
    for (int32_t p : g.predecessors[v])
      consumers[p].push_back(v);
  for (int32_t v = 0; v < n; ++v) {
    SequenceBuffer buffer{size(rng) * 16, {v}};
    for (int32_t u : consumers[v])
      buffer.users.push_back(u);
    g.buffers.push_back(buffer);
  }
  if (n > 0 && rng() % 2)
    g.nodeBytes.assign(n, 0), g.nodeBytes[rng() % n] = size(rng);
  return g;
}

/// The least peak over all topological orders, by enumeration.
int64_t bruteForce(const SequenceGraph &g) {
  int32_t n = g.numNodes;
  std::vector<int32_t> order, missing(n);
  std::vector<std::vector<int32_t>> succs(n);
  for (int32_t v = 0; v < n; ++v) {
    missing[v] = static_cast<int32_t>(g.predecessors[v].size());
    for (int32_t p : g.predecessors[v])
      succs[p].push_back(v);
  }
  std::vector<uint8_t> done(n, 0);
  int64_t best = std::numeric_limits<int64_t>::max();
  std::function<void()> visit = [&] {
    if (static_cast<int32_t>(order.size()) == n) {
      best = std::min(best, *schedulePeak(g, order));
      return;
    }
    for (int32_t v = 0; v < n; ++v) {
      if (done[v] || missing[v] != 0)
        continue;
      done[v] = 1;
      order.push_back(v);
      for (int32_t s : succs[v])
        --missing[s];
      visit();
      for (int32_t s : succs[v])
        ++missing[s];
      order.pop_back();
      done[v] = 0;
    }
  };
  visit();
  return best;
}

/// `exact` and `best` reach the optimum of `g` and `exact` proves it; the
/// list schedulers reach no lower peak and prove only the optimum.
void expectOptimal(const SequenceGraph &g, int trial) {
  int64_t optimum = bruteForce(g);
  Sequence exact = sequenceOrDie(g, "exact");
  EXPECT_EQ(exact.peak, optimum) << "trial " << trial;
  EXPECT_TRUE(exact.provenOptimal) << "trial " << trial;
  Sequence best = sequenceOrDie(g, "best");
  EXPECT_EQ(best.peak, optimum) << "trial " << trial;
  Sequence greedy = sequenceOrDie(g, "greedy");
  EXPECT_GE(greedy.peak, optimum) << "trial " << trial;
  EXPECT_TRUE(!greedy.provenOptimal || greedy.peak == optimum)
      << "trial " << trial;
  // Without the dominance rule (the search capacity-driven callers run).
  SequenceOptions full;
  full.mode = "exact";
  full.dominance = false;
  Expected<Sequence> exhaustive = sequenceGraph(g, full);
  ASSERT_TRUE(exhaustive.ok()) << exhaustive.error();
  EXPECT_EQ(exhaustive->peak, optimum) << "trial " << trial;
  EXPECT_TRUE(exhaustive->provenOptimal) << "trial " << trial;
}

TEST(Sequencer, ExactMatchesBruteForce) {
  std::mt19937 rng(7);
  for (int trial = 0; trial < 300; ++trial) {
    int32_t n = std::uniform_int_distribution<int32_t>(1, 8)(rng);
    expectOptimal(randomGraph(rng, n, trial % 3), trial);
  }
}

/// A random DAG whose buffers are used by any nodes (not only along its
/// edges: skip connections, buffers read by unrelated branches, nodes that
/// touch several), with bytes of their own on some nodes: what the exact
/// search's dominance rule and lower bound must get right.
SequenceGraph randomSharedGraph(std::mt19937 &rng, int32_t n) {
  SequenceGraph g;
  g.numNodes = n;
  g.predecessors.resize(n);
  for (int32_t v = 1; v < n; ++v)
    for (int i = 0, e = static_cast<int>(rng() % 3); i < e; ++i)
      g.predecessors[v].push_back(static_cast<int32_t>(rng() % v));
  int32_t numBuffers =
      std::uniform_int_distribution<int32_t>(n / 2, n + 4)(rng);
  for (int32_t b = 0; b < numBuffers; ++b) {
    SequenceBuffer buffer;
    buffer.size = (1 + static_cast<int64_t>(rng() % 8)) * 16;
    for (int i = 0, e = 1 + static_cast<int>(rng() % 3); i < e; ++i)
      buffer.users.push_back(static_cast<int32_t>(rng() % n));
    g.buffers.push_back(buffer);
  }
  if (rng() % 2) {
    g.nodeBytes.assign(n, 0);
    for (int i = 0; i < 2; ++i)
      g.nodeBytes[rng() % n] = static_cast<int64_t>(rng() % 100);
  }
  return g;
}

TEST(Sequencer, ExactMatchesBruteForceWithSharedBuffers) {
  std::mt19937 rng(1);
  for (int trial = 0; trial < 600; ++trial) {
    int32_t n = std::uniform_int_distribution<int32_t>(5, 9)(rng);
    expectOptimal(randomSharedGraph(rng, n), trial);
  }
}

TEST(Sequencer, NeverWorseThanProgramOrder) {
  std::mt19937 rng(11);
  for (int trial = 0; trial < 60; ++trial) {
    int32_t n = std::uniform_int_distribution<int32_t>(20, 400)(rng);
    SequenceGraph g = randomGraph(rng, n, 1 + trial % 3);
    for (const char *mode : {"greedy", "best"}) {
      Sequence s = sequenceOrDie(g, mode, 0.2);
      EXPECT_LE(s.peak, s.programPeak) << mode << " trial " << trial;
    }
  }
}

TEST(Sequencer, WorkBudgetMakesTheResultDeterministic) {
  // A graph large enough that the default budget ends the search: the
  // result depends on the budget only, never on the clock (no time limit).
  std::mt19937 rng(5);
  SequenceGraph g = randomGraph(rng, 3000, 3);
  SequenceOptions options;
  options.workLimit = 200000;
  Expected<Sequence> first = sequenceGraph(g, options);
  ASSERT_TRUE(first.ok()) << first.error();
  EXPECT_TRUE(first->budgetExhausted);
  EXPECT_GE(first->work, options.workLimit);
  for (int run = 0; run < 3; ++run) {
    Expected<Sequence> again = sequenceGraph(g, options);
    ASSERT_TRUE(again.ok());
    EXPECT_EQ(again->order, first->order);
    EXPECT_EQ(again->peak, first->peak);
    EXPECT_EQ(again->work, first->work);
  }
  // No work at all: list schedules only, and the result says the budget
  // stopped the search.
  SequenceGraph inception = inceptionBreadthFirst();
  options.workLimit = 0;
  Expected<Sequence> none = sequenceGraph(inception, options);
  ASSERT_TRUE(none.ok());
  EXPECT_EQ(none->peak, 160); // the list schedulers find it
  EXPECT_EQ(none->work, 0);
  // A budget that suffices is not reported as exhausted.
  options.workLimit = SequenceOptions::kDefaultSequenceWorkLimit;
  Expected<Sequence> enough = sequenceGraph(inception, options);
  ASSERT_TRUE(enough.ok());
  EXPECT_FALSE(enough->budgetExhausted);
  options.workLimit = -1;
  EXPECT_FALSE(sequenceGraph(inception, options).ok());
}

TEST(Sequencer, ScalesToLargeGraphs) {
  // 100k nodes with short-range edges: many components, some large.
  std::mt19937 rng(3);
  SequenceGraph g = randomGraph(rng, 100000, 2);
  auto start = std::chrono::steady_clock::now();
  Sequence best = sequenceOrDie(g, "best", 1.0);
  double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start)
          .count();
  EXPECT_LT(seconds, 5.0 * kSanitizerSlowdown);
  EXPECT_LE(best.peak, best.programPeak);
  start = std::chrono::steady_clock::now();
  Sequence greedy = sequenceOrDie(g, "greedy", 1.0);
  seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start)
          .count();
  EXPECT_LT(seconds, 3.0 * kSanitizerSlowdown);
  EXPECT_LE(greedy.peak, greedy.programPeak);
}

} // namespace
