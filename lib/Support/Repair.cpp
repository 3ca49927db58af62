//===- Repair.cpp - Peak repair for instances too large to search ---------===//
//
// Large-neighbourhood search on the top of a plan: to lower the arena below
// its current size, every buffer reaching above the target is taken out
// together with the buffers overlapping it in time whose tops lie in a band
// below the target, and the removed set is put back by decreasing size, each
// at the best-fit gap below the target among the placed buffers overlapping
// it. If every buffer fits, the smaller arena is kept; otherwise the old
// offsets come back and the next try uses a wider band. Each try costs the
// overlap queries of the removed buffers (O(removed x live set)), not O(n x
// live set), so it runs on instances far beyond the exact search.
//
//===----------------------------------------------------------------------===//

#include "PlannerImpl.h"

#include <algorithm>
#include <atomic>
#include <limits>
#include <mutex>
#include <numeric>
#include <random>
#include <thread>

using namespace mplan;
using namespace mplan::detail;

namespace {
/// All buffers bucketed by time: blocks of 16 x 4^level compressed points, a
/// buffer in the block of its start at the lowest level whose block size
/// covers its length (so it reaches at most into the next block); offsets
/// are read from the plan at query time.
class TimeIndex {
public:
  explicit TimeIndex(const Problem &p) : p(p) {
    int32_t times = std::max(p.numTimes, 1);
    while (levels < 15 && (int64_t(1) << shift(levels - 1)) < times)
      ++levels;
    base.assign(levels + 1, 0);
    for (int32_t l = 0; l < levels; ++l)
      base[l + 1] = base[l] + ((times - 1) >> shift(l)) + 1;
    buckets.resize(base[levels]);
    for (int32_t i = 0; i < p.numBuffers(); ++i) {
      int32_t l = levelOf(i);
      buckets[base[l] + (p.start[i] >> shift(l))].push_back(i);
    }
  }

  /// Calls fn(j) for every buffer j != i overlapping buffer i in time.
  template <typename Fn> void forEachOverlap(int32_t i, Fn fn) const {
    int32_t s = p.start[i], e = p.end[i];
    for (int32_t l = 0; l < levels; ++l) {
      int32_t b0 = s >> shift(l), b1 = (e - 1) >> shift(l);
      // A buffer of this level starting in block b0 - 1 may reach into b0.
      for (int32_t b = std::max(0, b0 - 1); b <= b1; ++b)
        for (int32_t j : buckets[base[l] + b])
          if (j != i && p.start[j] < e && p.end[j] > s)
            fn(j);
    }
  }

private:
  static int shift(int32_t level) { return 4 + 2 * level; }
  int32_t levelOf(int32_t i) const {
    int32_t len = p.end[i] - p.start[i], l = 0;
    while (l + 1 < levels && len > (int32_t(1) << shift(l)))
      ++l;
    return l;
  }

  const Problem &p;
  int32_t levels = 1;
  std::vector<int32_t> base;
  std::vector<std::vector<int32_t>> buckets;
};
} // namespace

bool mplan::detail::repairPeak(const Problem &p, Placement &placement,
                               Clock::time_point deadline, int64_t capacity) {
  int32_t n = p.numBuffers();
  // Building the index takes about a microsecond per buffer (a second at
  // 10^6): not worth starting with less time than that left.
  if (n == 0 || Clock::now() + std::chrono::microseconds(n) >= deadline)
    return false;
  TimeIndex index(p);
  std::vector<int64_t> &off = placement.offsets;
  int64_t goal = std::max(p.lowerBound, capacity);
  std::mt19937_64 rng(12345);
  bool improved = false;
  std::vector<int32_t> removed;
  std::vector<int64_t> saved;
  std::vector<char> inRemoved(n, 0);
  std::vector<std::pair<int64_t, int64_t>> spans;
  int failures = 0;
  while (placement.arena > goal && Clock::now() < deadline && failures < 256) {
    int64_t target = placement.arena - 1;
    // The buffers reaching above the target, and their band.
    removed.clear();
    int64_t largest = 0;
    for (int32_t i = 0; i < n; ++i)
      if (off[i] + p.size[i] > target) {
        removed.push_back(i);
        inRemoved[i] = 1;
        largest = std::max(largest, p.size[i]);
      }
    int64_t band =
        largest * (1 + static_cast<int64_t>(rng() % (2 + failures / 4)));
    size_t tops = removed.size();
    for (size_t r = 0; r < tops; ++r)
      index.forEachOverlap(removed[r], [&](int32_t j) {
        if (!inRemoved[j] && off[j] + p.size[j] > target - band) {
          inRemoved[j] = 1;
          removed.push_back(j);
        }
      });
    saved.clear();
    for (int32_t i : removed) {
      saved.push_back(off[i]);
      off[i] = -1;
    }
    std::vector<int32_t> order = removed;
    std::sort(order.begin(), order.end(), [&](int32_t a, int32_t b) {
      if (p.size[a] != p.size[b])
        return p.size[a] > p.size[b];
      return p.end[a] - p.start[a] > p.end[b] - p.start[b];
    });
    bool ok = true;
    for (size_t k = 0; k < order.size(); ++k) {
      // A try can be long (many removed buffers, each with a large live
      // set): give up at the deadline.
      if ((k & 63) == 63 && Clock::now() >= deadline) {
        ok = false;
        break;
      }
      int32_t i = order[k];
      spans.clear();
      index.forEachOverlap(i, [&](int32_t j) {
        if (off[j] >= 0)
          spans.push_back({off[j], off[j] + p.size[j]});
      });
      std::sort(spans.begin(), spans.end());
      int64_t mask = p.align[i] - 1, size = p.size[i];
      int64_t prevTop = 0, best = -1,
              bestGap = std::numeric_limits<int64_t>::max();
      auto consider = [&](int64_t gapEnd) {
        int64_t cand = (prevTop + mask) & ~mask;
        if (cand < gapEnd && gapEnd - cand >= size && cand + size <= target &&
            gapEnd - prevTop < bestGap) {
          bestGap = gapEnd - prevTop;
          best = cand;
        }
      };
      for (const auto &[lo, hi] : spans) {
        if (lo > prevTop)
          consider(lo);
        prevTop = std::max(prevTop, hi);
      }
      consider(std::numeric_limits<int64_t>::max() / 2);
      if (best < 0) {
        ok = false;
        break;
      }
      off[i] = best;
    }
    for (int32_t i : removed)
      inRemoved[i] = 0;
    if (!ok) {
      for (size_t k = 0; k < removed.size(); ++k)
        off[removed[k]] = saved[k];
      ++failures;
      continue;
    }
    int64_t arena = 0;
    for (int32_t i = 0; i < n; ++i)
      arena = std::max(arena, off[i] + p.size[i]);
    placement.arena = arena;
    improved = true;
    failures = 0;
  }
  return improved;
}

namespace {
/// The EndFit parameters of run r of improveBySweeps: run 0 the defaults,
/// the others drawn (deterministically from r) around them.
EndFit endFitOfRun(int32_t run) {
  EndFit params;
  if (run == 0)
    return params;
  uint64_t x = 0x9e3779b97f4a7c15ull * static_cast<uint64_t>(run + 1);
  auto draw = [&](uint64_t choices) {
    x ^= x >> 31;
    x *= 0xbf58476d1ce4e5b9ull;
    x ^= x >> 29;
    return static_cast<size_t>(x % choices);
  };
  static const double slack[] = {0.5, 1, 2};
  static const int32_t candidates[] = {16, 24, 32};
  static const double early[] = {1, 2, 4};
  static const double waste[] = {1, 3, 2};
  params.slack = slack[draw(3)];
  params.candidates = candidates[draw(3)];
  params.earlyWeight = early[draw(3)];
  params.wasteWeight = waste[draw(3)];
  // Half of the later runs also perturb every choice a little.
  params.noise = run >= 8 && draw(2) ? 0.2 : 0;
  params.seed = static_cast<uint64_t>(run);
  return params;
}
} // namespace

namespace {
/// One side of a peak split under re-rolls: the buffers starting after a
/// checkpoint are swept again (new EndFit parameters) from the plan's state
/// there, and the result is kept if the side's arena shrank. The checkpoint
/// lies a random 0.25-2 mean lifetimes before the first buffer reaching the
/// arena (the fragmentation there built up over about that long).
class SideReroll {
public:
  SideReroll(const Problem &side, const std::vector<int32_t> &order,
             std::vector<int64_t> offsets, int64_t arena, int64_t bound)
      : side(side), order(order), offsets(std::move(offsets)), arena(arena),
        bound(bound) {
    double sum = 0;
    for (int32_t i = 0; i < side.numBuffers(); ++i)
      sum += side.end[i] - side.start[i];
    meanLife = side.numBuffers() ? sum / side.numBuffers() : 1;
    excess = excessOf(this->offsets, arena);
  }

  /// The second criterion: the area (bytes x sections) of the plan above
  /// the middle between the bound and `level`, so a re-roll that lowers
  /// the crowd of buffers near the top counts before the top itself moves.
  double excessOf(const std::vector<int64_t> &plan, int64_t level) const {
    int64_t middle = bound + (level - bound) / 2;
    double area = 0;
    for (int32_t i = 0; i < side.numBuffers(); ++i)
      if (int64_t over = plan[i] + side.size[i] - middle; over > 0)
        area += static_cast<double>(over) * (side.end[i] - side.start[i]);
    return area;
  }

  /// Takes a plan from attempt().
  void accept(std::vector<int64_t> plan, int64_t planArena) {
    offsets = std::move(plan);
    arena = planArena;
    excess = excessOf(offsets, arena);
  }

  /// One re-roll with the EndFit parameters of `run` from a checkpoint
  /// drawn from `draw` (in [0, 1)). Returns true, with the new offsets,
  /// arena and excess (at the current arena's level), if the arena shrank
  /// or stayed with less excess.
  bool attempt(int32_t run, double draw, Clock::time_point deadline,
               std::vector<int64_t> &newOffsets, int64_t &newArena,
               double &newExcess) const {
    int32_t n = side.numBuffers();
    if (n == 0 || order.empty())
      return false;
    int32_t first = side.start[order[0]];
    int32_t worst = std::numeric_limits<int32_t>::max();
    for (int32_t i = 0; i < n; ++i)
      if (offsets[i] + side.size[i] == arena)
        worst = std::min(worst, side.start[i]);
    if (worst <= first)
      return false;
    int32_t back = static_cast<int32_t>((0.25 + 1.75 * draw) * meanLife);
    int32_t c = std::max(first, worst - std::max(back, 1));
    // Fixed: live at c (sorted by offset); then the buffers starting after c
    // in the side's order.
    std::vector<int32_t> fixed, rest;
    int64_t prefixTop = 0;
    for (int32_t i : order) {
      if (side.start[i] <= c) {
        prefixTop = std::max(prefixTop, offsets[i] + side.size[i]);
        if (side.end[i] > c)
          fixed.push_back(i);
      } else {
        rest.push_back(i);
      }
    }
    if (prefixTop >= arena)
      return false;
    std::sort(fixed.begin(), fixed.end(),
              [&](int32_t x, int32_t y) { return offsets[x] < offsets[y]; });
    Problem sub;
    sub.numTimes = side.numTimes;
    sub.lowerBound = side.lowerBound;
    SweepStart start;
    start.arenaLimit = arena;
    std::vector<int32_t> members;
    auto add = [&](int32_t i, int32_t s) {
      members.push_back(i);
      sub.size.push_back(side.size[i]);
      sub.align.push_back(side.align[i]);
      sub.start.push_back(s);
      sub.end.push_back(side.end[i]);
      sub.length.push_back(side.length[i]);
    };
    for (int32_t i : fixed) {
      add(i, c);
      start.fixed.push_back(offsets[i]);
    }
    for (int32_t i : rest)
      add(i, side.start[i]);
    sub.input = members;
    std::vector<int32_t> subOrder(members.size());
    std::iota(subOrder.begin(), subOrder.end(), 0);
    EndFit params = endFitOfRun(run);
    Placement part;
    if (placeSweep(sub, subOrder, Fit::Best, part, deadline, &params, &start) !=
        PlaceStatus::Done)
      return false;
    newOffsets = offsets;
    for (size_t k = fixed.size(); k < members.size(); ++k)
      newOffsets[members[k]] = part.offsets[k];
    newArena = std::max(prefixTop, part.arena);
    newExcess = excessOf(newOffsets, arena);
    return newArena < arena || newExcess < excess;
  }

  const Problem &side;
  const std::vector<int32_t> &order;
  std::vector<int64_t> offsets;
  int64_t arena;
  int64_t bound;
  double excess = 0;
  double meanLife = 1;
};
} // namespace

bool mplan::detail::improveBySweeps(const Problem &p, Placement &placement,
                                    Clock::time_point deadline,
                                    unsigned threads, int32_t maxRuns) {
  if (p.numBuffers() == 0 || placement.arena <= p.lowerBound)
    return false;
  // Each of the first two suits one side of the peak only (the other side
  // frees the stack at scattered offsets); the blocked ones trade a little
  // of one side for much of the other; largest first helps when a few
  // buffers are a large share of the arena.
  static const StackOrder stacks[] = {
      StackOrder::EarliestStart, StackOrder::LatestEnd, StackOrder::EndBlocks,
      StackOrder::StartBlocks, StackOrder::Largest};
  constexpr int kMaxStacks = 5;
  // The stacks split while time remains (a split is O(n log n) and cannot
  // stop: at 10^7 buffers seconds each).
  std::vector<PeakSides> sides;
  for (StackOrder stack : stacks)
    if (sides.empty() || Clock::now() < deadline)
      sides.push_back(splitAtPeak(p, stack));
  const int numStacks = static_cast<int>(sides.size());
  // Per stack and side, the best plan so far and the task that made it
  // (ties go to the earlier task, so the outcome does not depend on which
  // thread finished first).
  struct Best {
    int64_t arena = std::numeric_limits<int64_t>::max();
    size_t task = 0;
    std::vector<int64_t> offsets;
  };
  Best best[kMaxStacks][2];
  std::mutex mutex;
  std::atomic<bool> done{false};
  size_t tasks = static_cast<size_t>(maxRuns) * numStacks * 2;
  auto combined = [&](int s) {
    return std::max(best[s][0].arena, best[s][1].arena);
  };
  // The first runs cover every stack and side, the next kExtra rounds the
  // worse side of every stack (one run says little about a side limited by
  // a near-peak far from the stack); after that each run goes to the worse
  // side of the stack whose combined arena is lowest (only the worse side
  // of a stack lowers its arena).
  int32_t runs[kMaxStacks][2] = {};
  constexpr size_t kExtra = 2;
  size_t issued = 0;
  auto worker = [&] {
    for (;;) {
      size_t task;
      int s = 0, which = 0;
      int32_t run;
      {
        std::lock_guard<std::mutex> lock(mutex);
        if (done || issued >= tasks)
          break;
        task = issued++;
        if (task < 2 * numStacks ||
            best[0][0].arena == std::numeric_limits<int64_t>::max()) {
          s = static_cast<int>(task / 2 % numStacks);
          which = static_cast<int>(task % 2);
        } else if (task < 2 * numStacks + kExtra * numStacks) {
          s = static_cast<int>((task - 2 * numStacks) % numStacks);
          which = best[s][1].arena > best[s][0].arena ? 1 : 0;
        } else {
          for (int t = 1; t < numStacks; ++t)
            if (combined(t) < combined(s))
              s = t;
          which = best[s][1].arena > best[s][0].arena ? 1 : 0;
        }
        run = runs[s][which]++;
      }
      EndFit params = endFitOfRun(run);
      Placement part;
      if (placeSweep(sides[s].side[which], sides[s].order[which], Fit::Best,
                     part, deadline, &params,
                     &sides[s].stack) != PlaceStatus::Done)
        break;
      std::lock_guard<std::mutex> lock(mutex);
      Best &b = best[s][which];
      if (part.arena < b.arena || (part.arena == b.arena && task < b.task)) {
        b.arena = part.arena;
        b.task = task;
        b.offsets = std::move(part.offsets);
      }
      if (combined(s) <= p.lowerBound)
        done = true;
    }
  };
  if (threads > 1) {
    std::thread helper(worker);
    worker();
    helper.join();
  } else {
    worker();
  }
  int bestStack = -1;
  for (int s = 0; s < numStacks; ++s)
    if (best[s][0].arena != std::numeric_limits<int64_t>::max() &&
        best[s][1].arena != std::numeric_limits<int64_t>::max() &&
        (bestStack < 0 || combined(s) < combined(bestStack)))
      bestStack = s;
  if (bestStack < 0 || combined(bestStack) >= placement.arena)
    return false;
  for (int which = 0; which < 2; ++which) {
    const std::vector<int32_t> &members = sides[bestStack].members[which];
    for (size_t k = 0; k < members.size(); ++k)
      placement.offsets[members[k]] = best[bestStack][which].offsets[k];
  }
  placement.arena = combined(bestStack);
  return true;
}

bool mplan::detail::rerollSides(const Problem &p, Placement &placement,
                                Clock::time_point deadline, unsigned threads) {
  if (p.numBuffers() == 0 || placement.arena <= p.lowerBound ||
      Clock::now() >= deadline)
    return false;
  // The two sides of the peak (any stack order: only the membership and
  // the order after the stack matter here) with the plan's offsets.
  PeakSides split = splitAtPeak(p, StackOrder::EarliestStart);
  std::vector<SideReroll> rerolls;
  for (int which = 0; which < 2; ++which) {
    const std::vector<int32_t> &members = split.members[which];
    std::vector<int64_t> offsets(members.size());
    int64_t arena = 0;
    for (size_t k = 0; k < members.size(); ++k) {
      offsets[k] = placement.offsets[members[k]];
      arena = std::max(arena, offsets[k] + p.size[members[k]]);
    }
    rerolls.emplace_back(split.side[which], split.order[which],
                         std::move(offsets), arena, p.lowerBound);
  }
  // Per round, one attempt per thread on the worse side (run and
  // checkpoint drawn from the round and the thread); the best success wins
  // (the lower thread on ties).
  bool changed = false;
  for (int32_t round = 0;
       std::max(rerolls[0].arena, rerolls[1].arena) > p.lowerBound &&
       Clock::now() < deadline;
       ++round) {
    SideReroll &worse = rerolls[rerolls[1].arena > rerolls[0].arena ? 1 : 0];
    struct Attempt {
      bool ok = false;
      std::vector<int64_t> offsets;
      int64_t arena = 0;
      double excess = 0;
    };
    std::vector<Attempt> attempts(threads > 1 ? 2 : 1);
    auto attempt = [&](size_t t) {
      int32_t run = 1 + round * static_cast<int32_t>(attempts.size()) +
                    static_cast<int32_t>(t);
      uint64_t x = 0x9e3779b97f4a7c15ull * static_cast<uint64_t>(run) + 7;
      x ^= x >> 29;
      x *= 0xbf58476d1ce4e5b9ull;
      x ^= x >> 32;
      double draw = static_cast<double>(x >> 11) * 0x1p-53;
      attempts[t].ok = worse.attempt(run, draw, deadline, attempts[t].offsets,
                                     attempts[t].arena, attempts[t].excess);
    };
    if (attempts.size() > 1) {
      std::thread helper(attempt, 1);
      attempt(0);
      helper.join();
    } else {
      attempt(0);
    }
    if (Clock::now() >= deadline)
      break; // an attempt may have been cut short
    int pick = -1;
    for (size_t t = 0; t < attempts.size(); ++t)
      if (attempts[t].ok &&
          (pick < 0 ||
           std::make_pair(attempts[t].arena, attempts[t].excess) <
               std::make_pair(attempts[pick].arena, attempts[pick].excess)))
        pick = static_cast<int>(t);
    if (pick >= 0) {
      worse.accept(std::move(attempts[pick].offsets), attempts[pick].arena);
      changed = true;
    }
  }
  if (!changed)
    return false;
  for (int which = 0; which < 2; ++which) {
    const std::vector<int32_t> &members = split.members[which];
    for (size_t k = 0; k < members.size(); ++k)
      placement.offsets[members[k]] = rerolls[which].offsets[k];
  }
  int64_t before = placement.arena;
  placement.arena = std::max(rerolls[0].arena, rerolls[1].arena);
  return placement.arena < before;
}
