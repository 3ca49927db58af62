//===- Sweep.cpp - Time-ordered placement with a coalescing free list -----===//
//
// Placement in start order is a malloc simulation: the placed buffers that
// overlap a buffer starting at s are exactly the ones live at s, so instead of
// gathering them (n x live set), a sweep over time keeps the free gaps below
// the top of the live buffers in an address-ordered, coalescing free list and
// frees buffers when their lifetime ends. Best fit takes the smallest gap
// that fits (lowest address among equal gaps), first fit the lowest; when no
// gap fits the buffer goes on top. This is the allocator behind IREE's
// LayoutSlices and upstream MLIR's static-memory-planner-analysis
// (time-ordered best fit), and the plan equals placeGreedy's in the same
// order: both see the same gaps (the maximal free ranges among the overlapping
// placed buffers, below their highest top).
//
// Cost: O(n log L) time and O(L) extra memory for L buffers live at once.
//
//===----------------------------------------------------------------------===//

#include "PlannerImpl.h"

#include "mplan/Support/CheckedMath.h"

#include <cmath>
#include <limits>
#include <numeric>
#include <set>

using namespace mplan;
using namespace mplan::detail;

namespace {

/// Free gaps [lo, hi) keyed by address in a treap whose nodes know the longest
/// gap of their subtree, so first fit is one descent.
class GapTreap {
public:
  explicit GapTreap(size_t reserve) { nodes.reserve(reserve); }

  /// Inserts the gap [lo, hi) (disjoint from every gap) of block `block`.
  void insert(int64_t lo, int64_t hi, int32_t block) {
    int32_t fresh = allocate(lo, hi, block);
    int32_t a, b;
    split(root, lo, a, b);
    root = merge(merge(a, fresh), b);
  }

  /// Removes the gap starting at lo (which must exist).
  void erase(int64_t lo) {
    int32_t a, b, c;
    split(root, lo, a, b);
    split(b, lo + 1, b, c);
    if (b >= 0)
      freeList.push_back(b);
    root = merge(a, c);
  }

  /// The block of the lowest gap holding `size` bytes at an offset aligned
  /// to mask + 1, or -1.
  int32_t firstFit(int64_t size, int64_t mask) const {
    int32_t t = firstFit(root, size, mask);
    return t >= 0 ? nodes[t].block : -1;
  }

  /// True when the gap [lo, hi) holds size bytes aligned to mask + 1.
  static bool fits(int64_t lo, int64_t hi, int64_t size, int64_t mask) {
    int64_t cand;
    return !__builtin_add_overflow(lo, mask, &cand) && (cand &= ~mask) < hi &&
           hi - cand >= size;
  }

private:
  struct Node {
    int64_t lo, hi, longest;
    uint32_t priority;
    int32_t left, right, block;
  };
  std::vector<Node> nodes;
  std::vector<int32_t> freeList;
  int32_t root = -1;
  uint64_t seed = 0x9e3779b97f4a7c15ull;

  int32_t allocate(int64_t lo, int64_t hi, int32_t block) {
    seed ^= seed << 13;
    seed ^= seed >> 7;
    seed ^= seed << 17;
    Node node{lo, hi, hi - lo, static_cast<uint32_t>(seed), -1, -1, block};
    if (!freeList.empty()) {
      int32_t t = freeList.back();
      freeList.pop_back();
      nodes[t] = node;
      return t;
    }
    nodes.push_back(node);
    return static_cast<int32_t>(nodes.size() - 1);
  }

  void update(int32_t t) {
    Node &n = nodes[t];
    n.longest = n.hi - n.lo;
    if (n.left >= 0)
      n.longest = std::max(n.longest, nodes[n.left].longest);
    if (n.right >= 0)
      n.longest = std::max(n.longest, nodes[n.right].longest);
  }

  /// Splits t into keys < key (a) and >= key (b).
  void split(int32_t t, int64_t key, int32_t &a, int32_t &b) {
    if (t < 0) {
      a = b = -1;
      return;
    }
    if (nodes[t].lo < key) {
      split(nodes[t].right, key, nodes[t].right, b);
      a = t;
    } else {
      split(nodes[t].left, key, a, nodes[t].left);
      b = t;
    }
    update(t);
  }

  int32_t merge(int32_t a, int32_t b) {
    if (a < 0)
      return b;
    if (b < 0)
      return a;
    if (nodes[a].priority > nodes[b].priority) {
      nodes[a].right = merge(nodes[a].right, b);
      update(a);
      return a;
    }
    nodes[b].left = merge(a, nodes[b].left);
    update(b);
    return b;
  }

  int32_t firstFit(int32_t t, int64_t size, int64_t mask) const {
    if (t < 0 || nodes[t].longest < size)
      return -1;
    if (int32_t found = firstFit(nodes[t].left, size, mask); found >= 0)
      return found;
    if (fits(nodes[t].lo, nodes[t].hi, size, mask))
      return t;
    return firstFit(nodes[t].right, size, mask);
  }
};

/// EndFit's load-weighted clock (see EndFit::loadExponent) for problem p:
/// elapsed[t] for t in 0..numTimes, or empty when the weights degenerate.
std::vector<double> loadWeightedTime(const Problem &p, double exponent) {
  std::vector<int64_t> live = liveBytes(p);
  double peak = static_cast<double>(p.lowerBound);
  for (int64_t l : live)
    peak = std::max(peak, static_cast<double>(l));
  int32_t first = std::numeric_limits<int32_t>::max(), last = 0;
  for (int32_t i = 0; i < p.numBuffers(); ++i) {
    first = std::min(first, p.start[i]);
    last = std::max(last, p.end[i]);
  }
  if (exponent < 0) {
    // The depth below the bound where holes still cost: the fragmentation
    // a sweep leaves grows like the square root of the typical buffer size
    // over the bound. Typical: sqrt(sum of size^3 / sum of size), the root
    // mean square of the sizes weighted by bytes, so that a few very large
    // buffers count (at most 1000: beyond that only the sections at the
    // bound would count).
    double bytes = 0, cubes = 0;
    for (int64_t size : p.size) {
      double s = static_cast<double>(size);
      bytes += s;
      cubes += s * s * s;
    }
    constexpr double kDepth = 0.42;
    exponent = std::min(
        1000.0, 1 / (kDepth * std::sqrt(std::sqrt(cubes / bytes) / peak)));
  }
  std::vector<double> elapsed(live.size() + 1, 0);
  for (size_t t = 0; t < live.size(); ++t)
    elapsed[t + 1] =
        elapsed[t] + std::pow(static_cast<double>(live[t]) / peak, exponent);
  // Scaled so that the sections from the first start to the last end weigh
  // 1 on average, like the plain clock.
  double span = elapsed[last] - elapsed[first];
  if (!(span > 0) || !std::isfinite(span))
    return {};
  double scale = static_cast<double>(last - first) / span;
  for (double &e : elapsed)
    e *= scale;
  return elapsed;
}

} // namespace

std::vector<int64_t> mplan::detail::liveBytes(const Problem &p) {
  std::vector<int64_t> live(static_cast<size_t>(p.numTimes) + 1, 0);
  for (int32_t i = 0; i < p.numBuffers(); ++i) {
    live[p.start[i]] += p.size[i];
    live[p.end[i]] -= p.size[i];
  }
  int64_t sum = 0;
  for (int64_t &l : live)
    l = sum += l;
  live.pop_back();
  return live;
}

PlaceStatus mplan::detail::placeSweep(const Problem &p,
                                      const std::vector<int32_t> &order,
                                      Fit fit, Placement &result,
                                      Clock::time_point deadline,
                                      const EndFit *endFit,
                                      const SweepStart *from) {
  if (fit != Fit::Best)
    endFit = nullptr;
  size_t fixedCount = from ? from->fixed.size() : 0;
  int64_t arenaLimit =
      from ? from->arenaLimit : std::numeric_limits<int64_t>::max();
  size_t n = order.size();
  // What the loop needs, gathered in order (sequential reads afterwards).
  struct Item {
    int64_t size, mask;
    int32_t start, end;
  };
  std::vector<Item> items(n);
  for (size_t j = 0; j < n; ++j) {
    int32_t i = order[j];
    items[j] = {p.size[i], p.align[i] - 1, p.start[i], p.end[i]};
  }
  // Positions by end time (counting sort): freed when the sweep passes it.
  std::vector<int32_t> byEnd(n);
  {
    std::vector<int32_t> first(static_cast<size_t>(p.numTimes) + 1, 0);
    for (const Item &item : items)
      ++first[item.end];
    for (size_t t = 1; t < first.size(); ++t)
      first[t] += first[t - 1];
    for (size_t j = n; j-- > 0;)
      byEnd[--first[items[j].end]] = static_cast<int32_t>(j);
  }
  // The arena below the top of the live buffers as an address-ordered,
  // doubly linked list of blocks, each a live buffer or a (maximal) gap.
  // Block j < n is the buffer at position j; gaps take blocks from n on.
  struct Block {
    int64_t lo, hi;
    int32_t prev = -1, next = -1;
    bool gap = false;
  };
  std::vector<Block> blocks(n);
  std::vector<int32_t> spareGaps;
  int32_t topBlock = -1; // the highest block (a live buffer) or -1
  // Best fit: gaps by (length, address); first fit: the treap by address.
  struct GapKey {
    int64_t length, lo;
    int32_t block;
    // The ends of the buffers below and above (-1: none), for EndFit: a
    // gap's neighbours stay the same while it exists (any change to them
    // replaces the gap), and reading them here saves two cache misses per
    // candidate.
    int32_t belowEnd = -1, aboveEnd = -1;
    // Their sizes to the power EndFit::holeExponent (0: none), for the
    // early-end term.
    double belowHole = 0, aboveHole = 0;
    bool operator<(const GapKey &o) const {
      return length != o.length ? length < o.length : lo < o.lo;
    }
  };
  std::set<GapKey> bySize;
  GapTreap byAddress(fit == Fit::First ? 1024 : 0);
  auto endOf = [&](int32_t k) {
    return k >= 0 && static_cast<size_t>(k) < n ? items[k].end : -1;
  };
  // EndFit: every buffer's size to the power holeExponent, once per sweep
  // (the early-end term divides the neighbour's by the buffer's: a pow per
  // candidate gap was a third of the time of `best`).
  std::vector<double> holeOfItem;
  if (endFit && endFit->holeExponent != 0) {
    holeOfItem.resize(n);
    for (size_t j = 0; j < n; ++j)
      holeOfItem[j] =
          std::pow(static_cast<double>(items[j].size), endFit->holeExponent);
  }
  auto holeOf = [&](int32_t k) -> double {
    return k >= 0 && static_cast<size_t>(k) < n && !holeOfItem.empty()
               ? holeOfItem[k]
               : 0;
  };
  auto newGap = [&](int64_t lo, int64_t hi, int32_t below, int32_t above) {
    int32_t g;
    if (!spareGaps.empty()) {
      g = spareGaps.back();
      spareGaps.pop_back();
    } else {
      g = static_cast<int32_t>(blocks.size());
      blocks.emplace_back();
    }
    blocks[g].lo = lo;
    blocks[g].hi = hi;
    blocks[g].gap = true;
    if (fit == Fit::Best)
      bySize.insert({hi - lo, lo, g, endOf(below), endOf(above), holeOf(below),
                     holeOf(above)});
    else
      byAddress.insert(lo, hi, g);
    return g;
  };
  auto dropGap = [&](int32_t g) {
    if (fit == Fit::Best)
      bySize.erase({blocks[g].hi - blocks[g].lo, blocks[g].lo, g});
    else
      byAddress.erase(blocks[g].lo);
    spareGaps.push_back(g);
  };
  auto link = [&](int32_t a, int32_t b) { // a directly below b
    if (a >= 0)
      blocks[a].next = b;
    if (b >= 0)
      blocks[b].prev = a;
  };
  auto release = [&](int32_t j) {
    Block &b = blocks[j];
    int32_t below = b.prev, above = b.next;
    int64_t lo = b.lo, hi = b.hi;
    if (below >= 0 && blocks[below].gap) {
      lo = blocks[below].lo;
      int32_t under = blocks[below].prev;
      dropGap(below);
      below = under;
    }
    if (above < 0) { // the top: the freed range and the gap below join it
      topBlock = below;
      if (below >= 0)
        blocks[below].next = -1;
      return;
    }
    if (blocks[above].gap) {
      hi = blocks[above].hi;
      int32_t over = blocks[above].next;
      dropGap(above);
      above = over;
    }
    int32_t g = newGap(lo, hi, below, above);
    link(below, g);
    link(g, above);
  };
  // EndFit: the mean lifetime scales the waste term; a xorshift for noise.
  double meanLife = 1;
  uint64_t noiseState = 0x9e3779b97f4a7c15ull;
  if (endFit) {
    double sum = 0;
    for (const Item &item : items)
      sum += item.end - item.start;
    meanLife = n > 0 ? std::max(1.0, sum / static_cast<double>(n)) : 1;
    noiseState ^= endFit->seed * 0xbf58476d1ce4e5b9ull + 1;
  }
  auto noiseFactor = [&] {
    noiseState ^= noiseState << 13;
    noiseState ^= noiseState >> 7;
    noiseState ^= noiseState << 17;
    return 1 + endFit->noise * static_cast<double>(noiseState >> 11) * 0x1p-53;
  };
  // EndFit's clock: elapsed[t] is the (load-weighted) time from 0 to t.
  std::vector<double> elapsed;
  if (endFit && endFit->loadExponent != 0 && n > 0)
    elapsed = loadWeightedTime(p, endFit->loadExponent);
  auto timeAt = [&](int32_t t) {
    return elapsed.empty() ? static_cast<double>(t) : elapsed[t];
  };
  // The cost of resting next to a buffer ending at neighbourEnd (-1: the
  // arena's bottom, free of cost) whose size to the power holeExponent is
  // neighbourHole, for a buffer ending at `end` whose size to that power is
  // 1 / invHole.
  auto neighbourCost = [&](int32_t neighbourEnd, double neighbourHole,
                           int32_t end, double invHole) -> double {
    if (neighbourEnd < 0)
      return 0;
    double d = timeAt(neighbourEnd) - timeAt(end);
    if (d >= 0)
      return d;
    // The neighbour's death opens a hole of its size beside a live buffer.
    double hole = holeOfItem.empty() ? 1 : neighbourHole * invHole;
    return -d * endFit->earlyWeight * hole;
  };
  std::vector<int64_t> offsets(p.numBuffers(), -1);
  int64_t arena = 0;
  size_t freed = 0;
  for (size_t j = 0; j < n; ++j) {
    if ((j & 4095) == 4095 && Clock::now() > deadline)
      return PlaceStatus::OutOfTime;
    const Item &item = items[j];
    while (freed < n && items[byEnd[freed]].end <= item.start) {
      int32_t k = byEnd[freed++];
      if (static_cast<size_t>(k) < j)
        release(k);
    }
    int64_t size = item.size, mask = item.mask;
    int32_t g = -1;
    bool atTop = false; // EndFit: at the top of the gap
    if (j < fixedCount) {
      // A fixed start: above everything placed so far (sorted by offset).
    } else if (endFit) {
      double bestCost = 0;
      int32_t seen = 0;
      double invHole = holeOfItem.empty() ? 1 : 1 / holeOfItem[j];
      // size x (1 + slack), saturated (sizes reach 2^62 and more).
      double extra = endFit->slack * static_cast<double>(size);
      int64_t room = std::numeric_limits<int64_t>::max() - size;
      int64_t limit = extra >= static_cast<double>(room)
                          ? std::numeric_limits<int64_t>::max()
                          : size + static_cast<int64_t>(extra);
      for (auto it = bySize.lower_bound({size, 0, 0});
           it != bySize.end() && seen < endFit->candidates &&
           (g < 0 || it->length <= limit);
           ++it) {
        if (!GapTreap::fits(it->lo, it->lo + it->length, size, mask))
          continue;
        ++seen;
        double waste = endFit->wasteWeight *
                       static_cast<double>(it->length - size) /
                       static_cast<double>(size) * meanLife;
        double noise = endFit->noise > 0 ? noiseFactor() : 1;
        double low =
            (neighbourCost(it->belowEnd, it->belowHole, item.end, invHole) +
             waste) *
            noise;
        // The top of the gap, when the aligned offset there is in it.
        int64_t highOffset = (it->lo + it->length - size) & ~mask;
        double high = highOffset >= it->lo
                          ? (neighbourCost(it->aboveEnd, it->aboveHole,
                                           item.end, invHole) +
                             waste) *
                                noise
                          : low + 1;
        if (g < 0 || std::min(low, high) < bestCost) {
          g = it->block;
          atTop = high < low;
          bestCost = std::min(low, high);
        }
      }
    } else if (fit == Fit::Best) {
      for (auto it = bySize.lower_bound({size, 0, 0}); it != bySize.end();
           ++it) {
        if (GapTreap::fits(it->lo, it->lo + it->length, size, mask)) {
          g = it->block;
          break;
        }
      }
    } else {
      g = byAddress.firstFit(size, mask);
    }
    int64_t myLo, myHi;
    if (g >= 0) {
      int64_t lo = blocks[g].lo, hi = blocks[g].hi;
      int32_t below = blocks[g].prev, above = blocks[g].next;
      dropGap(g);
      // fits() checked the overflow.
      int64_t offset = atTop ? (hi - size) & ~mask : (lo + mask) & ~mask;
      myLo = blocks[j].lo = offset;
      myHi = blocks[j].hi = offset + size;
      if (offset > lo) {
        int32_t pad = newGap(lo, offset, below, static_cast<int32_t>(j));
        link(below, pad);
        below = pad;
      }
      link(below, static_cast<int32_t>(j));
      if (offset + size < hi) {
        int32_t rest =
            newGap(offset + size, hi, static_cast<int32_t>(j), above);
        link(static_cast<int32_t>(j), rest);
        link(rest, above);
      } else {
        link(static_cast<int32_t>(j), above);
      }
    } else {
      int64_t liveTop = topBlock >= 0 ? blocks[topBlock].hi : 0;
      std::optional<int64_t> aligned = alignTo(liveTop, mask + 1);
      if (j < fixedCount) {
        if (from->fixed[j] < liveTop)
          return PlaceStatus::AboveCap;
        aligned = from->fixed[j];
      }
      std::optional<int64_t> top =
          aligned ? checkedAdd(*aligned, size) : std::nullopt;
      if (!top)
        return PlaceStatus::Overflow;
      int32_t below = topBlock;
      if (*aligned > liveTop) {
        int32_t pad = newGap(liveTop, *aligned, below, static_cast<int32_t>(j));
        link(below, pad);
        below = pad;
      }
      myLo = blocks[j].lo = *aligned;
      myHi = blocks[j].hi = *top;
      link(below, static_cast<int32_t>(j));
      blocks[j].next = -1;
      topBlock = static_cast<int32_t>(j);
    }
    offsets[order[j]] = myLo;
    arena = std::max(arena, myHi);
    if (arena > arenaLimit)
      return PlaceStatus::AboveCap;
  }
  result.offsets = std::move(offsets);
  result.arena = arena;
  return PlaceStatus::Done;
}

namespace {
/// The section where the live sum is largest (the first such).
int32_t peakSection(const Problem &p) {
  std::vector<int64_t> live = liveBytes(p);
  return live.empty()
             ? 0
             : static_cast<int32_t>(std::max_element(live.begin(), live.end()) -
                                    live.begin());
}
} // namespace

PeakSides mplan::detail::splitAtPeak(const Problem &p, StackOrder stack) {
  int32_t n = p.numBuffers();
  int32_t peak = peakSection(p);
  // The buffers live at the peak, stacked from 0 in `stack` order: the arena
  // there is exactly their (padded) sum.
  std::vector<int32_t> live;
  for (int32_t i = 0; i < n; ++i)
    if (p.start[i] <= peak && peak < p.end[i])
      live.push_back(i);
  auto key = [&](int32_t i) -> int64_t {
    switch (stack) {
    case StackOrder::LatestEnd:
      return -static_cast<int64_t>(p.end[i]);
    case StackOrder::EarliestStart:
      return p.start[i];
    case StackOrder::Largest:
      return -p.size[i];
    case StackOrder::EndBlocks:
      return -static_cast<int64_t>(p.end[i]);
    case StackOrder::StartBlocks:
      return p.start[i];
    }
    return 0;
  };
  std::stable_sort(live.begin(), live.end(),
                   [&](int32_t a, int32_t b) { return key(a) < key(b); });
  if (stack == StackOrder::EndBlocks || stack == StackOrder::StartBlocks) {
    // Blocks of about equal bytes in the order above, each sorted by the
    // other end of the lifetimes. On one side of the peak the blocks empty
    // one after the other from the top (scattered within a block); on the
    // other every block empties from its own top, so the holes there grow
    // contiguously instead of opening anywhere in the stack.
    // The stack's bytes are the live sum at the peak, the bound (which
    // buildProblem checked for overflow, so no partial sum overflows).
    bool byEnd = stack == StackOrder::EndBlocks;
    int64_t share = p.lowerBound / kStackBlocks;
    auto inner = [&](int32_t a, int32_t b) {
      return byEnd ? p.start[a] < p.start[b] : p.end[a] > p.end[b];
    };
    size_t begin = 0;
    int64_t acc = 0;
    for (size_t q = 0; q < live.size(); ++q) {
      acc += p.size[live[q]];
      if (acc >= share || q + 1 == live.size()) {
        std::stable_sort(live.begin() + begin, live.begin() + q + 1, inner);
        begin = q + 1;
        acc = 0;
      }
    }
  }
  // Two sweeps away from the peak, each starting from the stack: forward in
  // time over the buffers starting after the peak, and backward (times
  // mirrored) over the ones ending at or before it. Neither side overlaps
  // the other in time.
  PeakSides sides;
  int64_t top = 0;
  for (int32_t i : live) {
    std::optional<int64_t> at = alignTo(top, p.align[i]);
    std::optional<int64_t> end = at ? checkedAdd(*at, p.size[i]) : std::nullopt;
    if (!end) { // the sweeps report the overflow
      sides.stack.fixed.clear();
      break;
    }
    sides.stack.fixed.push_back(*at);
    top = *end;
  }
  for (int which = 0; which < 2; ++which) {
    bool forward = which == 0;
    Problem &side = sides.side[which];
    std::vector<int32_t> &members = sides.members[which];
    side.numTimes = p.numTimes + 1;
    side.lowerBound = p.lowerBound;
    auto add = [&](int32_t i, int32_t s, int32_t e) {
      members.push_back(i);
      side.size.push_back(p.size[i]);
      side.align.push_back(p.align[i]);
      side.start.push_back(s);
      side.end.push_back(e);
      side.length.push_back(p.length[i]);
    };
    // Mirrored: section t becomes numTimes - 1 - t.
    auto mirror = [&](int32_t t) { return p.numTimes - t; };
    int32_t from = forward ? peak : mirror(peak + 1);
    for (int32_t i : live)
      add(i, from, forward ? p.end[i] : mirror(p.start[i]));
    for (int32_t i = 0; i < n; ++i) {
      if (forward && p.start[i] > peak)
        add(i, p.start[i], p.end[i]);
      else if (!forward && p.end[i] <= peak)
        add(i, mirror(p.end[i]), mirror(p.start[i]));
    }
    side.input = members;
    // The stack first (all start at `from`, placed in stack order), then
    // the others by start.
    std::vector<int32_t> &order = sides.order[which];
    order.resize(members.size());
    std::iota(order.begin(), order.end(), 0);
    std::stable_sort(order.begin() + live.size(), order.end(),
                     [&](int32_t a, int32_t b) {
                       if (side.start[a] != side.start[b])
                         return side.start[a] < side.start[b];
                       return side.size[a] > side.size[b];
                     });
  }
  return sides;
}

PlaceStatus mplan::detail::placeFromPeak(const Problem &p, StackOrder stack,
                                         Fit fit, Placement &result,
                                         const EndFit *endFit,
                                         Clock::time_point deadline) {
  PeakSides sides = splitAtPeak(p, stack);
  std::vector<int64_t> offsets(p.numBuffers(), -1);
  int64_t arena = 0;
  for (int which = 0; which < 2; ++which) {
    Placement part;
    if (PlaceStatus st = placeSweep(sides.side[which], sides.order[which], fit,
                                    part, deadline, endFit, &sides.stack);
        st != PlaceStatus::Done)
      return st;
    for (size_t k = 0; k < sides.members[which].size(); ++k)
      offsets[sides.members[which][k]] = part.offsets[k];
    arena = std::max(arena, part.arena);
  }
  result.offsets = std::move(offsets);
  result.arena = arena;
  return PlaceStatus::Done;
}
