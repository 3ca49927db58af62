//===- ChallengingInstances.cpp - Packed instances for the exact search ---===//

#include "ChallengingInstances.h"

#include <algorithm>
#include <random>

using namespace mplan;

namespace {
/// A rectangle of the packing: time [t0, t1) x bytes [s0, s1).
struct Rect {
  int64_t t0, t1, s0, s1;
};

/// A cut point strictly inside [lo, hi) on a grid of `step`, between 1/8 and
/// 7/8 of the way (no slivers); -1 when the side is too short.
int64_t cutPoint(int64_t lo, int64_t hi, int64_t step, std::mt19937_64 &rng) {
  int64_t cells = (hi - lo) / step;
  if (cells < 2)
    return -1;
  int64_t k = 8 + static_cast<int64_t>(rng() % 49); // 8..56 of 64
  int64_t at = lo + std::clamp<int64_t>(cells * k / 64, 1, cells - 1) * step;
  return at;
}
} // namespace

std::vector<Buffer> bench::packedInstance(int64_t n, uint64_t seed,
                                          int64_t capacity, int64_t unit,
                                          int64_t drop) {
  constexpr int64_t kTime = int64_t(1) << 20;
  std::mt19937_64 rng(seed);
  std::vector<Rect> rects = {{0, kTime, 0, capacity}};
  for (int attempts = 0;
       static_cast<int64_t>(rects.size()) < n && attempts < 100 * n;
       ++attempts) {
    // Draw a rectangle with probability proportional to its area (as
    // fractions of the whole, so the two axes weigh the same).
    std::vector<double> weight;
    for (const Rect &r : rects)
      weight.push_back(static_cast<double>(r.t1 - r.t0) / kTime *
                       static_cast<double>(r.s1 - r.s0) / capacity);
    std::discrete_distribution<size_t> pick(weight.begin(), weight.end());
    size_t at = pick(rng);
    Rect r = rects[at];
    // Cut the relatively longer side, usually.
    double timeShare = static_cast<double>(r.t1 - r.t0) / kTime;
    double spaceShare = static_cast<double>(r.s1 - r.s0) / capacity;
    bool acrossTime = (timeShare >= spaceShare) == (rng() % 10 < 7);
    if (acrossTime) {
      int64_t c = cutPoint(r.t0, r.t1, 1, rng);
      if (c < 0)
        continue;
      rects[at] = {r.t0, c, r.s0, r.s1};
      rects.push_back({c, r.t1, r.s0, r.s1});
    } else {
      int64_t c = cutPoint(r.s0, r.s1, unit, rng);
      if (c < 0)
        continue;
      rects[at] = {r.t0, r.t1, r.s0, c};
      rects.push_back({r.t0, r.t1, c, r.s1});
    }
  }
  std::shuffle(rects.begin(), rects.end(), rng);
  rects.resize(rects.size() -
               std::min<size_t>(rects.size() - 1, static_cast<size_t>(drop)));
  std::vector<Buffer> buffers;
  for (const Rect &r : rects)
    buffers.push_back(
        {static_cast<int64_t>(buffers.size()), r.t0, r.t1, r.s1 - r.s0, 1});
  return buffers;
}

std::vector<std::vector<Buffer>>
bench::challengingInstances(int count, uint64_t seed, int64_t minBuffers,
                            int64_t maxBuffers, double minGreedyRatio,
                            int64_t capacity) {
  std::mt19937_64 rng(seed);
  std::vector<std::vector<Buffer>> kept;
  PlanOptions greedy;
  greedy.strategy = "greedy-by-size";
  while (static_cast<int>(kept.size()) < count) {
    int64_t n = minBuffers +
                static_cast<int64_t>(rng() % (maxBuffers - minBuffers + 1));
    int64_t drop = rng() % 4 == 0 ? 1 + static_cast<int64_t>(rng() % 3) : 0;
    std::vector<Buffer> buffers =
        packedInstance(n, rng(), capacity, 1024, drop);
    Expected<Plan> plan = planBuffers(buffers, greedy);
    if (plan && static_cast<double>(plan->arenaSize) >=
                    minGreedyRatio * static_cast<double>(capacity))
      kept.push_back(std::move(buffers));
  }
  return kept;
}
