//===- Heuristics.cpp - Greedy planners and the portfolio -----------------===//
//
// Greedy offset assignment in a given buffer order (Pisarchyk & Lee 2020,
// "Efficient Memory Management for Deep Neural Net Inference", section 4:
// greedy by size and greedy by breadth for offset calculation), generalized
// to any order and to best-fit / first-fit gap selection, plus a portfolio
// of orders in the spirit of XLA's GlobalDecreasingSizeBestFitHeap.
//
//===----------------------------------------------------------------------===//

#include "PlannerImpl.h"

#include "mplan/Support/CheckedMath.h"

#include <algorithm>
#include <atomic>
#include <cstdio>
#include <ctime>
#include <limits>
#include <mutex>
#include <numeric>
#include <optional>
#include <thread>

using namespace mplan;
using namespace mplan::detail;

OverlapIndex::OverlapIndex(const Problem &p) {
  int32_t n = p.numBuffers();
  int32_t times = std::max(p.numTimes, 1);
  while (numLevels < kMaxLevels &&
         (int64_t(1) << shiftOf(numLevels - 1)) < times)
    ++numLevels;
  auto levelOf = [&](int32_t i) {
    int32_t len = p.end[i] - p.start[i], level = 0;
    while (level + 1 < numLevels && len > (int32_t(1) << shiftOf(level)))
      ++level;
    return level;
  };
  levelBase.assign(numLevels + 1, 0);
  for (int32_t level = 0; level < numLevels; ++level)
    levelBase[level + 1] =
        levelBase[level] + ((times - 1) >> shiftOf(level)) + 1;
  // Block capacities (CSR) and every buffer's blocks.
  blockBegin.assign(levelBase[numLevels] + 1, 0);
  blockOf.assign(2 * static_cast<size_t>(n), -1);
  std::vector<char> used(numLevels, 0);
  for (int32_t i = 0; i < n; ++i) {
    int32_t level = levelOf(i);
    used[level] = 1;
    int shift = shiftOf(level);
    int which = 0;
    for (int32_t b = p.start[i] >> shift; b <= (p.end[i] - 1) >> shift; ++b) {
      int32_t block = levelBase[level] + b;
      ++blockBegin[block + 1];
      blockOf[2 * static_cast<size_t>(i) + which++] = block;
    }
  }
  for (size_t b = 1; b < blockBegin.size(); ++b)
    blockBegin[b] += blockBegin[b - 1];
  for (int32_t level = 0; level < numLevels; ++level)
    if (used[level])
      usedLevels.push_back(level);
}

namespace {
/// The positions of `order` in a sequence that places every buffer after the
/// buffers before it in `order` that overlap it in time, and before those
/// after it, so greedy placement in this sequence gives exactly the plan of
/// `order`, but with queries that move through time: `order` is cut into
/// consecutive batches of about n / (mean live count) buffers (about one
/// live at a time per batch); within a batch, buffers are grouped into
/// chains of overlapping lifetimes, chains go in time order and buffers
/// within a chain in `order`. In size order the queries land at random
/// times; in this sequence each batch sweeps the overlap index once, so
/// consecutive queries read neighbouring blocks instead of missing the
/// cache (and the TLB) on large inputs.
std::vector<int32_t> timeLocalSequence(const Problem &p,
                                       const std::vector<int32_t> &order) {
  size_t n = order.size();
  std::vector<int32_t> sequence(n);
  uint64_t lifetimes = 0; // sum of compressed lengths, < 2^31 * 2^31
  for (int32_t i : order)
    lifetimes += static_cast<uint64_t>(p.end[i] - p.start[i]);
  uint64_t times = static_cast<uint64_t>(std::max(p.numTimes, 1));
  size_t batch = static_cast<size_t>(
      std::max<uint64_t>(1, n * times / std::max(lifetimes, times)));
  std::vector<uint64_t> keys;
  int bits = 1; // for a position within a batch
  while ((size_t(1) << bits) < batch)
    ++bits;
  uint64_t mask = (uint64_t(1) << bits) - 1;
  for (size_t b0 = 0, out = 0; b0 < n; b0 += batch) {
    size_t b1 = std::min(n, b0 + batch);
    // (start, position in the batch) keys, in time order.
    keys.resize(b1 - b0);
    for (size_t j = b0; j < b1; ++j)
      keys[j - b0] =
          static_cast<uint64_t>(p.start[order[j]]) << bits | (j - b0);
    radixSort(keys);
    // Chains: a buffer starting at or after the end of every earlier one (in
    // time) starts a new chain.
    int32_t chainEnd = 0;
    size_t chainBegin = out;
    for (uint64_t key : keys) {
      size_t j = b0 + (key & mask);
      int32_t i = order[j];
      if (p.start[i] >= chainEnd) {
        std::sort(sequence.begin() + chainBegin, sequence.begin() + out);
        chainBegin = out;
      }
      chainEnd = std::max(chainEnd, p.end[i]);
      sequence[out++] = static_cast<int32_t>(j);
    }
    std::sort(sequence.begin() + chainBegin, sequence.begin() + out);
  }
  return sequence;
}
} // namespace

PlaceStatus mplan::detail::placeGreedy(const Problem &p,
                                       const OverlapIndex &index,
                                       const std::vector<int32_t> &order,
                                       Fit fit, Placement &result,
                                       Clock::time_point deadline) {
  int32_t n = p.numBuffers();
  OverlapIndex::PlacedSlots slots(index);
  // What the loop needs of each buffer, gathered in placement sequence first
  // (the gather's independent loads overlap, the loop's would stall) from
  // one record per buffer (one cache line per buffer instead of one per
  // field).
  struct Item {
    int32_t start, end;
    int32_t blocks[2];
    int64_t size, mask;
    int32_t buffer;
  };
  std::vector<Item> items(order.size());
  for (int32_t i = 0; i < n; ++i) {
    const int32_t *blocks = slots.blocksOf(i);
    items[i] = {p.start[i], p.end[i],       {blocks[0], blocks[1]},
                p.size[i],  p.align[i] - 1, i};
  }
  {
    std::vector<int32_t> sequence = timeLocalSequence(p, order);
    std::vector<Item> byBuffer(order.size());
    items.swap(byBuffer);
    for (size_t j = 0; j < order.size(); ++j)
      items[j] = byBuffer[order[sequence[j]]];
  }
  std::vector<int64_t> offsets(n, -1);
  // The placed buffers overlapping the current one, as (offset << 8 | k)
  // keys with tops[k] when every offset is below 2^55 and there are at most
  // 256 of them (one-word keys sort fastest), else as (offset, top) spans in
  // a radix sort by offset (on heavy overlap thousands of them: a third of
  // the time of a comparison sort).
  using Span = std::pair<int64_t, int64_t>;
  std::vector<Span> spans;
  std::vector<uint64_t> keys;
  std::vector<int64_t> tops;
  int64_t arena = 0;
  constexpr size_t kPrefetchDistance = 8;
  for (size_t j = 0; j < items.size(); ++j) {
    if ((j & 1023) == 1023 && Clock::now() > deadline)
      return PlaceStatus::OutOfTime;
    if (j + kPrefetchDistance < items.size())
      slots.prefetch(items[j + kPrefetchDistance].start,
                     items[j + kPrefetchDistance].end);
    const Item &item = items[j];
    keys.clear();
    tops.clear();
    slots.forEachOverlap(item.start, item.end,
                         [&](const OverlapIndex::Slot &slot) {
                           keys.push_back(static_cast<uint64_t>(slot.offset));
                           tops.push_back(slot.top);
                         });
    // The gaps between the placed intervals in offset order: the smallest
    // that fits (best fit) or the lowest (first fit).
    int64_t size = item.size, mask = item.mask;
    int64_t prevTop = 0;
    int64_t bestOffset = -1, bestGap = std::numeric_limits<int64_t>::max();
    auto consider = [&](int64_t off, int64_t top) {
      if (off > prevTop) {
        int64_t cand;
        if (!__builtin_add_overflow(prevTop, mask, &cand) &&
            (cand &= ~mask) < off && off - cand >= size) {
          int64_t gap = off - prevTop;
          if (fit == Fit::First) {
            bestOffset = cand;
            return false;
          }
          if (gap < bestGap) {
            bestGap = gap;
            bestOffset = cand;
          }
        }
      }
      prevTop = std::max(prevTop, top);
      return true;
    };
    size_t k = keys.size();
    if (k <= 256 && (arena >> 55) == 0) {
      for (size_t a = 0; a < k; ++a)
        keys[a] = keys[a] << 8 | a;
      // Usually a few dozen intervals: insertion sort.
      if (k > 32) {
        std::sort(keys.begin(), keys.end());
      } else {
        for (size_t a = 1; a < k; ++a) {
          uint64_t x = keys[a];
          size_t b = a;
          for (; b > 0 && x < keys[b - 1]; --b)
            keys[b] = keys[b - 1];
          keys[b] = x;
        }
      }
      for (uint64_t key : keys)
        if (!consider(static_cast<int64_t>(key >> 8), tops[key & 255]))
          break;
    } else {
      spans.resize(k);
      for (size_t a = 0; a < k; ++a)
        spans[a] = {static_cast<int64_t>(keys[a]), tops[a]};
      radixSortBy(spans,
                  [](const Span &a) { return static_cast<uint64_t>(a.first); });
      for (const auto &[off, top] : spans)
        if (!consider(off, top))
          break;
    }
    if (bestOffset < 0) {
      std::optional<int64_t> cand = alignTo(prevTop, mask + 1);
      if (!cand)
        return PlaceStatus::Overflow;
      bestOffset = *cand;
    }
    std::optional<int64_t> top = checkedAdd(bestOffset, size);
    if (!top)
      return PlaceStatus::Overflow;
    offsets[item.buffer] = bestOffset;
    slots.place(item.blocks, item.start, item.end, bestOffset, *top);
    arena = std::max(arena, *top);
  }
  result.offsets = std::move(offsets);
  result.arena = arena;
  return PlaceStatus::Done;
}

std::vector<int32_t> mplan::detail::overlapCounts(const Problem &p) {
  // n - 1 - #(end <= start_i) - #(start >= end_i).
  int32_t n = p.numBuffers();
  std::vector<int32_t> endsAtOrBefore(p.numTimes + 1, 0),
      startsAtOrAfter(p.numTimes + 2, 0);
  for (int32_t i = 0; i < n; ++i) {
    ++endsAtOrBefore[p.end[i]];
    ++startsAtOrAfter[p.start[i]];
  }
  for (int32_t t = 1; t <= p.numTimes; ++t)
    endsAtOrBefore[t] += endsAtOrBefore[t - 1];
  for (int32_t t = p.numTimes - 1; t >= 0; --t)
    startsAtOrAfter[t] += startsAtOrAfter[t + 1];
  std::vector<int32_t> degree(n);
  for (int32_t i = 0; i < n; ++i)
    degree[i] = n - 1 - endsAtOrBefore[p.start[i]] - startsAtOrAfter[p.end[i]];
  return degree;
}

const char *mplan::detail::orderName(Order order) {
  switch (order) {
  case Order::Size:
    return "size";
  case Order::Length:
    return "lifetime";
  case Order::Area:
    return "area";
  case Order::Degree:
    return "conflicts";
  case Order::Breadth:
    return "breadth";
  case Order::Start:
    return "start";
  }
  return "?";
}

namespace {
/// Per-section live sums ("breadth" in Pisarchyk & Lee) and, per buffer, the
/// first section of maximal breadth within its lifetime (a range-argmax over
/// an iterative segment tree).
void computeBreadth(const Problem &p, std::vector<int64_t> &bufferBreadth,
                    std::vector<int32_t> &bufferSection) {
  int32_t n = p.numBuffers();
  int32_t sections = std::max(p.numTimes - 1, 1);
  std::vector<int64_t> breadth = liveBytes(p);
  breadth.resize(sections, 0); // one section even without buffers
  size_t leaves = 1;
  while (leaves < static_cast<size_t>(sections))
    leaves <<= 1;
  // (breadth, -section) maximized: the first section among equal breadths.
  std::vector<int32_t> tree(2 * leaves, -1);
  auto better = [&](int32_t a, int32_t b) {
    if (a < 0)
      return b;
    if (b < 0)
      return a;
    if (breadth[a] != breadth[b])
      return breadth[a] > breadth[b] ? a : b;
    return std::min(a, b);
  };
  for (int32_t t = 0; t < sections; ++t)
    tree[leaves + t] = t;
  for (size_t node = leaves - 1; node >= 1; --node)
    tree[node] = better(tree[2 * node], tree[2 * node + 1]);
  bufferBreadth.resize(n);
  bufferSection.resize(n);
  for (int32_t i = 0; i < n; ++i) {
    int32_t best = -1;
    for (size_t l = p.start[i] + leaves, r = p.end[i] + leaves; l < r;
         l >>= 1, r >>= 1) {
      if (l & 1)
        best = better(best, tree[l++]);
      if (r & 1)
        best = better(best, tree[--r]);
    }
    bufferSection[i] = best;
    bufferBreadth[i] = breadth[best];
  }
}
} // namespace

std::vector<int32_t> mplan::detail::makeOrder(const Problem &p, Order order) {
  int32_t n = p.numBuffers();
  std::vector<int32_t> idx(n);
  std::iota(idx.begin(), idx.end(), 0);
  // Orders by several keys, most significant first, ties by index. The keys
  // are computed in buffer order (sequential loads) as columns, listed least
  // significant first by thenBy. When their ranges fit in 64 bits together
  // they are packed into one word per buffer and sorted by one stable radix
  // sort of contiguous (key, index) records; otherwise one such sort per key,
  // from the least significant up. Either way, as many 11-bit digits as the
  // ranges need and no indirect, cache-missing key loads in comparisons.
  struct Record {
    uint64_t key;
    int32_t index;
  };
  std::vector<std::vector<uint64_t>> columns;
  auto thenBy = [&](auto key) {
    std::vector<uint64_t> column(n);
    for (int32_t i = 0; i < n; ++i)
      column[i] = key(i);
    columns.push_back(std::move(column));
  };
  auto sortByColumns = [&] {
    std::vector<int> bits;
    int total = 0;
    for (std::vector<uint64_t> &column : columns) {
      uint64_t low = std::numeric_limits<uint64_t>::max(), all = 0;
      for (uint64_t v : column)
        low = std::min(low, v);
      for (uint64_t &v : column)
        all |= (v -= low);
      int b = 0;
      while (b < 64 && (all >> b) != 0)
        ++b;
      bits.push_back(b);
      total += b;
    }
    std::vector<Record> records(n);
    auto sortRecords = [&] {
      radixSortBy(records, [](const Record &r) { return r.key; });
      for (int32_t a = 0; a < n; ++a)
        idx[a] = records[a].index;
    };
    if (total <= 64) {
      for (int32_t i = 0; i < n; ++i) {
        uint64_t packed = 0;
        for (size_t c = columns.size(); c-- > 0;)
          if (bits[c] > 0)
            packed = (bits[c] < 64 ? packed << bits[c] : 0) | columns[c][i];
        records[i] = {packed, i};
      }
      sortRecords();
      return;
    }
    for (const std::vector<uint64_t> &column : columns) {
      for (int32_t a = 0; a < n; ++a)
        records[a] = {column[idx[a]], idx[a]};
      sortRecords();
    }
  };
  // Order-preserving unsigned keys of a signed value, ascending / descending.
  auto up = [](int64_t v) {
    return static_cast<uint64_t>(v) ^ (uint64_t(1) << 63);
  };
  auto down = [&](int64_t v) { return ~up(v); };
  auto start = [&](int32_t i) { return up(p.start[i]); };
  auto bigger = [&](int32_t i) { return down(p.size[i]); };
  auto longer = [&](int32_t i) { return down(p.length[i]); };
  switch (order) {
  case Order::Size: // size, length decreasing, then start
    thenBy(start);
    thenBy(longer);
    thenBy(bigger);
    break;
  case Order::Length: // length, size decreasing, then start
    thenBy(start);
    thenBy(bigger);
    thenBy(longer);
    break;
  case Order::Area: { // size x length, size decreasing, then start
    thenBy(start);
    thenBy(bigger);
    // The exact 128-bit area (both factors are positive int64).
    auto area = [&](int32_t i) {
      return static_cast<unsigned __int128>(p.size[i]) *
             static_cast<uint64_t>(p.length[i]);
    };
    thenBy([&](int32_t i) { return ~static_cast<uint64_t>(area(i)); });
    thenBy([&](int32_t i) { return ~static_cast<uint64_t>(area(i) >> 64); });
    break;
  }
  case Order::Degree: {
    std::vector<int32_t> degree = overlapCounts(p);
    // Degree decreasing, size decreasing, then start.
    thenBy(start);
    thenBy(bigger);
    thenBy([&](int32_t i) { return down(degree[i]); });
    break;
  }
  case Order::Breadth: {
    // Pisarchyk & Lee's greedy by breadth: operators (sections) by decreasing
    // breadth, and within one, its unassigned tensors by decreasing size. A
    // tensor is first met at the first section of maximal breadth in its
    // lifetime.
    std::vector<int64_t> bb;
    std::vector<int32_t> bs;
    computeBreadth(p, bb, bs);
    thenBy(bigger);
    thenBy([&](int32_t i) { return up(bs[i]); });
    thenBy([&](int32_t i) { return down(bb[i]); });
    break;
  }
  case Order::Start: // start, then size and length decreasing
    thenBy(longer);
    thenBy(bigger);
    thenBy(start);
    break;
  }
  sortByColumns();
  return idx;
}

double mplan::portfolioBudget(double timeLimitSeconds) {
  double limit = timeLimitSeconds > 0 ? timeLimitSeconds : 0;
  // Small instances run every member whatever the limit.
  return std::max(0.05,
                  std::min(limit, std::max(0.1, kPortfolioShare * limit)));
}

namespace {
/// Seconds of CPU time the calling thread has used (wall time where the
/// system has no per-thread clock).
double threadCpuSeconds() {
#ifdef CLOCK_THREAD_CPUTIME_ID
  timespec ts;
  if (clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts) == 0)
    return ts.tv_sec + 1e-9 * ts.tv_nsec;
#endif
  return std::chrono::duration<double>(Clock::now().time_since_epoch()).count();
}

/// One member of the portfolio: an order and a fit; the start order is run
/// by the free-list sweep.
struct Member {
  Order order;
  Fit fit;
  /// Set for placeFromPeak members (order is then Order::Start).
  std::optional<StackOrder> stack = std::nullopt;
  /// Lifetime-aware best fit (EndFit with its defaults; with `stack`).
  bool endFit = false;
};

const char *stackName(StackOrder stack) {
  switch (stack) {
  case StackOrder::LatestEnd:
    return "latest-end";
  case StackOrder::EarliestStart:
    return "earliest-start";
  case StackOrder::Largest:
    return "largest";
  case StackOrder::EndBlocks:
    return "end-blocks";
  case StackOrder::StartBlocks:
    return "start-blocks";
  }
  return "?";
}

/// The member that always runs, whatever the budget: time-ordered best fit
/// (the portfolio is never worse than it).
bool alwaysRuns(const Member &m) {
  return m.order == Order::Start && m.fit == Fit::Best && !m.stack;
}

std::string memberName(const Member &m) {
  std::string fit = m.endFit             ? "/end-fit"
                    : m.fit == Fit::Best ? "/best-fit"
                                         : "/first-fit";
  if (m.stack)
    return std::string("peak-") + stackName(*m.stack) + fit;
  return orderName(m.order) + fit;
}

/// The strategy mplan-plan offers by name that runs the same placement as
/// member `m` (same plan), or "".
const char *namedStrategy(const Member &m) {
  if (m.stack)
    return "";
  if (m.order == Order::Start)
    return m.fit == Fit::Best ? "time-best-fit" : "linear-scan";
  if (m.fit == Fit::Best && m.order == Order::Size)
    return "greedy-by-size";
  if (m.fit == Fit::Best && m.order == Order::Breadth)
    return "greedy-by-breadth";
  return "";
}

/// Members whose measured times share one correction of the cost model.
enum class CostKind { Sweep, Stack, EndFitStack, Greedy, Count };
CostKind costKind(const Member &m) {
  if (m.stack)
    return m.endFit ? CostKind::EndFitStack : CostKind::Stack;
  return m.order == Order::Start ? CostKind::Sweep : CostKind::Greedy;
}
} // namespace

PlaceStatus mplan::detail::runPortfolio(const Problem &p, Placement &result,
                                        std::string &winner,
                                        const PortfolioBudget &budget,
                                        PortfolioLog *log) {
  Clock::time_point begin = Clock::now();
  // The fixed order that breaks ties (the first member with the smallest
  // arena wins, so the result does not depend on scheduling).
  static const Order orders[] = {Order::Size,    Order::Area,   Order::Start,
                                 Order::Breadth, Order::Length, Order::Degree};
  std::vector<Member> members;
  for (Order o : orders)
    for (Fit f : {Fit::Best, Fit::First})
      members.push_back({o, f});
  size_t firstPeak = members.size();
  // One stacking (the best of four tried on heavy-overlap instances, by a
  // small margin; each costs two sweeps).
  members.push_back({Order::Start, Fit::Best, StackOrder::EarliestStart});
  // Lifetime-aware best fit from two stackings (heavy overlap: 1.02-1.04x
  // the bound where best fit ends at 1.08x).
  members.push_back(
      {Order::Start, Fit::Best, StackOrder::EarliestStart, /*endFit=*/true});
  members.push_back(
      {Order::Start, Fit::Best, StackOrder::Largest, /*endFit=*/true});
  auto indexOf = [&](Order o, Fit f) {
    size_t m = 0;
    while (members[m].order != o || members[m].fit != f || members[m].stack)
      ++m;
    return m;
  };
  // The cost model: seconds for one thread. The sweeps are O(n log L); a
  // greedy placement visits every placed buffer overlapping each buffer,
  // about half of the overlapping pairs (and sorts them), plus per-buffer
  // work. Constants fitted to the user CPU time of the strategies by name
  // on the bench's instance families (docs/planner.md, "Cost of each
  // strategy"; docs/benchmarks.md has the measured / estimated ratios);
  // `best` corrects them by what the members that ran measured.
  int32_t n = p.numBuffers();
  double pairs = 0;
  {
    std::vector<int32_t> degree = overlapCounts(p);
    for (int32_t d : degree)
      pairs += d;
    pairs /= 2;
  }
  auto model = [&](const Member &m) {
    switch (costKind(m)) {
    case CostKind::Stack:
      return 1e-6 * n;
    case CostKind::EndFitStack:
      return 2e-6 * n;
    case CostKind::Sweep:
      return (m.fit == Fit::Best ? 1e-6 : 2.2e-6) * n;
    default:
      return 4e-7 * n + 3e-8 * pairs;
    }
  };
  // Priority: time-best-fit, greedy-by-size and greedy-by-breadth first
  // (the portfolio is never worse than any of them that fits its budget),
  // then lifetime-aware stacking (best on growing live sets: 1.02x the
  // bound on `heavy` where the sweeps end at 1.08-1.10x), then linear-scan
  // (worse than the stacking on `heavy`, `lognormal` and `random` at
  // 10k-300k buffers, and twice the time-ordered best fit's time) and the
  // other orders.
  std::vector<size_t> priority = {indexOf(Order::Start, Fit::Best),
                                  indexOf(Order::Size, Fit::Best),
                                  indexOf(Order::Breadth, Fit::Best),
                                  firstPeak + 1,
                                  indexOf(Order::Start, Fit::First),
                                  firstPeak,
                                  firstPeak + 2,
                                  indexOf(Order::Area, Fit::Best),
                                  indexOf(Order::Size, Fit::First),
                                  indexOf(Order::Area, Fit::First),
                                  indexOf(Order::Length, Fit::Best),
                                  indexOf(Order::Degree, Fit::Best),
                                  indexOf(Order::Breadth, Fit::First),
                                  indexOf(Order::Length, Fit::First),
                                  indexOf(Order::Degree, Fit::First)};
  bool extraTier = budget.extraSeconds > budget.seconds;
  Clock::time_point tier2End = deadlineAfter(begin, budget.extraSeconds);
  // A safety net for estimates that are far off: an admitted member still
  // running at the time limit (or 3x the budget, when that is later) stops
  // and is reported; the time-ordered best fit only at the hard deadline,
  // and so does every tier-1 member of `best` (finishTier1).
  // (On a loaded machine members take several times their estimate: they
  // may run past the budget, but the plan stays the same.)
  Clock::time_point tier1Stop =
      budget.finishTier1
          ? budget.hardDeadline
          : std::min(deadlineAfter(begin, std::max({budget.limitSeconds,
                                                    3 * budget.seconds, 0.1})),
                     budget.hardDeadline);
  Clock::time_point tier2Stop = std::min(tier2End, budget.hardDeadline);

  std::vector<MemberRun> runs(members.size());
  for (size_t m = 0; m < members.size(); ++m) {
    runs[m].name = memberName(members[m]);
    runs[m].strategy = namedStrategy(members[m]);
    runs[m].modelSeconds = model(members[m]);
  }
  // Tier 1 admits members in priority order on a simulated schedule of
  // the threads (each member on the thread that is free first) while the
  // model says they end within the budget: deterministic, so `portfolio`
  // gives the same plan on every run (unless a member is stopped at the
  // time limit on a loaded machine) and `best` (whose tier 1 is the same) is
  // never worse. Tier 2 (`best` only) then takes the members tier 1
  // skipped, cheapest first, each when its estimate, corrected by what the
  // members that ran measured, fits the time left.
  unsigned threads =
      std::max(1u, std::min(2u, std::thread::hardware_concurrency()));
  std::vector<size_t> tier1, tier2;
  std::vector<char> ruledOut(members.size(), 0);
  {
    std::vector<double> clocks(threads, 0.0);
    bool endFitStacks = false;
    for (size_t m : priority) {
      MemberRun &run = runs[m];
      run.estimatedSeconds = run.modelSeconds;
      auto thread = std::min_element(clocks.begin(), clocks.end());
      run.secondsLeft = std::max(0.0, budget.seconds - *thread);
      // On large instances plain stacking only costs time once the
      // lifetime-aware one runs (3-4 % worse on every heavy-overlap
      // instance measured).
      if (m == firstPeak && n > 20000 && endFitStacks) {
        ruledOut[m] = 1;
        continue;
      }
      // greedy-by-size and greedy-by-breadth, which the portfolio promises
      // never to be above when they finish within its budget, are admitted
      // up to 1.5x the time left: their estimate is 0.5-1.35x of what they
      // take, so one that finishes within the budget is not skipped.
      bool promised = members[m].order != Order::Start && !members[m].stack &&
                      !run.strategy.empty();
      double room = promised ? 1.5 * run.secondsLeft : run.secondsLeft;
      if (alwaysRuns(members[m]) || run.modelSeconds <= room) {
        *thread += run.modelSeconds;
        tier1.push_back(m);
        endFitStacks |= m == firstPeak + 1;
      } else {
        tier2.push_back(m);
      }
    }
    // Both tiers run cheapest first: on a loaded machine the members that
    // overrun and are stopped are then the expensive ones, not the cheap
    // ones queued behind them.
    auto cheaper = [&](size_t a, size_t b) {
      return runs[a].modelSeconds < runs[b].modelSeconds;
    };
    std::stable_sort(tier1.begin(), tier1.end(), cheaper);
    std::stable_sort(tier2.begin(), tier2.end(), cheaper);
  }
  std::mutex mutex;
  size_t next1 = 0, next2 = 0;
  int64_t bestArena = std::numeric_limits<int64_t>::max();
  double ratioSum[static_cast<int>(CostKind::Count)] = {};
  int ratioCount[static_cast<int>(CostKind::Count)] = {};
  // The model times the mean measured / model ratio of the finished
  // members of the same kind, or of all kinds when none of its kind has
  // finished yet (that ratio is mostly the machine's load).
  auto estimate = [&](size_t m) {
    int kind = static_cast<int>(costKind(members[m]));
    double sum = ratioSum[kind];
    int count = ratioCount[kind];
    for (int k = 0; count == 0 && k < static_cast<int>(CostKind::Count); ++k) {
      sum += ratioSum[k];
      count += ratioCount[k];
    }
    return runs[m].modelSeconds * (count ? sum / count : 1.0);
  };
  auto secondsUntil = [](Clock::time_point now, Clock::time_point end) {
    return now < end ? std::chrono::duration<double>(end - now).count() : 0.0;
  };
  // The member to run next and the time it stops at, or false.
  auto pick = [&](size_t &out, Clock::time_point &stop) {
    std::lock_guard<std::mutex> lock(mutex);
    Clock::time_point now = Clock::now();
    if (next1 < tier1.size()) {
      size_t m = tier1[next1++];
      out = m;
      stop = alwaysRuns(members[m]) ? budget.hardDeadline : tier1Stop;
      return true;
    }
    // Tier 2 ends once a member reached the goal (nothing can beat it).
    if (!extraTier || bestArena <= budget.goalBytes)
      return false;
    while (next2 < tier2.size()) {
      size_t m = tier2[next2++];
      MemberRun &run = runs[m];
      run.extra = true;
      run.estimatedSeconds = estimate(m);
      run.secondsLeft = secondsUntil(now, tier2End);
      // Members mplan-plan offers by name run whenever they fit (`best` is
      // never worse than any of them that finishes in its limit); the
      // others only when they take at most a quarter of the time left.
      double room =
          run.strategy.empty() ? run.secondsLeft / 4 : run.secondsLeft;
      if (run.estimatedSeconds <= room) {
        out = m;
        // One that runs far past its estimate stops, leaving the rest of
        // the limit to the search.
        stop = std::min(tier2Stop,
                        deadlineAfter(now, 2 * run.estimatedSeconds + 0.1));
        return true;
      }
    }
    return false;
  };
  std::once_flag indexOnce;
  std::optional<OverlapIndex> index;
  std::vector<Placement> results(members.size());
  std::vector<PlaceStatus> status(members.size(), PlaceStatus::OutOfTime);
  auto worker = [&] {
    size_t m;
    Clock::time_point stop;
    while (pick(m, stop)) {
      const Member &member = members[m];
      Clock::time_point start = Clock::now();
      double cpuStart = threadCpuSeconds();
      if (member.stack) {
        EndFit params;
        status[m] = placeFromPeak(p, *member.stack, member.fit, results[m],
                                  member.endFit ? &params : nullptr, stop);
      } else if (member.order == Order::Start) {
        status[m] = placeSweep(p, makeOrder(p, member.order), member.fit,
                               results[m], stop);
      } else {
        std::call_once(indexOnce, [&] { index.emplace(p); });
        status[m] = placeGreedy(p, *index, makeOrder(p, member.order),
                                member.fit, results[m], stop);
      }
      double seconds =
          std::chrono::duration<double>(Clock::now() - start).count();
      double cpuSeconds = threadCpuSeconds() - cpuStart;
      std::lock_guard<std::mutex> lock(mutex);
      MemberRun &run = runs[m];
      run.ran = true;
      run.seconds = seconds;
      run.cpuSeconds = cpuSeconds;
      run.finished = status[m] == PlaceStatus::Done;
      if (run.finished) {
        run.arena = results[m].arena;
        bestArena = std::min(bestArena, run.arena);
      }
      // A finished member corrects the model of its kind (within 1/4 - 16x:
      // tiny instances measure mostly noise).
      if (run.finished && run.modelSeconds > 1e-4) {
        int kind = static_cast<int>(costKind(member));
        ratioSum[kind] += std::clamp(seconds / run.modelSeconds, 0.25, 16.0);
        ++ratioCount[kind];
      }
    }
  };
  double work = 0;
  for (size_t m : tier1)
    work += runs[m].modelSeconds;
  if (extraTier)
    for (size_t m : tier2)
      work += runs[m].modelSeconds;
  if (threads > 1 && work > 0.01) {
    std::thread helper(worker);
    worker();
    helper.join();
  } else {
    worker();
  }
  int best = -1;
  bool outOfTime = false;
  for (size_t m = 0; m < members.size(); ++m) {
    if (runs[m].ran && status[m] == PlaceStatus::OutOfTime)
      outOfTime = true;
    if (status[m] == PlaceStatus::Done &&
        (best < 0 || results[m].arena < results[best].arena))
      best = static_cast<int>(m);
  }
  if (log) {
    for (size_t m : priority) {
      const MemberRun &run = runs[m];
      char text[96];
      if (ruledOut[m])
        log->skipped.push_back(run.name +
                               " (the lifetime-aware stacking runs)");
      else if (run.ran && !run.finished && status[m] == PlaceStatus::OutOfTime)
        log->skipped.push_back(run.name + " (out of time)");
      else if (!run.ran) {
        std::snprintf(text, sizeof(text), " (estimated %.3g s, %.3g s left)",
                      run.estimatedSeconds, run.secondsLeft);
        log->skipped.push_back(run.name + text);
      }
      log->members.push_back(run);
    }
  }
  if (best < 0)
    return outOfTime ? PlaceStatus::OutOfTime : PlaceStatus::Overflow;
  result = std::move(results[best]);
  winner = memberName(members[best]);
  return PlaceStatus::Done;
}
