//===- PlannerImpl.h - Planner internals shared by the strategies -*- C++ -*-=//
//
// Internal to lib/Support: the normalized problem every strategy works on.
//
//===----------------------------------------------------------------------===//

#ifndef MPLAN_LIB_SUPPORT_PLANNERIMPL_H
#define MPLAN_LIB_SUPPORT_PLANNERIMPL_H

#include "mplan/Support/Deadline.h"
#include "mplan/Support/Planner.h"

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <limits>
#include <string>
#include <vector>

namespace mplan {
namespace detail {

/// The normalized problem: zero-size buffers removed, sizes padded to the
/// effective alignment, times compressed to the distinct event points
/// 0..numTimes-1. Buffer i is live in sections start[i] .. end[i]-1, where
/// section t is the time span between event points t and t+1.
struct Problem {
  std::vector<int32_t> input;  ///< problem index -> index in the input vector
  std::vector<int64_t> size;   ///< padded size, > 0
  std::vector<int64_t> align;  ///< effective alignment
  std::vector<int32_t> start;  ///< compressed, inclusive
  std::vector<int32_t> end;    ///< compressed, exclusive
  std::vector<int64_t> length; ///< end - start in input time units
  int32_t numTimes = 0;
  int64_t lowerBound = 0;

  int32_t numBuffers() const { return static_cast<int32_t>(size.size()); }
};

/// Offsets indexed like Problem's buffers, and the resulting arena size.
struct Placement {
  std::vector<int64_t> offsets;
  int64_t arena = 0;
};

/// Finds, for a buffer, the already placed buffers overlapping it in time in
/// O(levels + k) with few cache misses (greedy placement queries in size
/// order, i.e. at random times, so memory locality dominates).
///
/// Time (compressed) is cut into blocks of 16 points at level 0, 64 at level
/// 1, ... (x4 per level; x2 levels, or 8-point blocks at level 0, scan fewer
/// slots per level but more levels, and measured slower). A buffer lives at the
/// lowest level whose block size is at least its length, in the (at most two)
/// blocks it touches; each stored copy is a slot. Every block has room for all
/// of its slots (a CSR layout computed once), but a placement run (PlacedSlots)
/// appends a buffer's slots only when it is placed, so a query scans placed
/// buffers only: per non-empty level, the consecutive blocks its own lifetime
/// touches, keeping the slots that overlap it and reporting a buffer stored in
/// two blocks only once. The placed interval is stored in the slot, so a query
/// reads contiguous memory.
class OverlapIndex {
public:
  explicit OverlapIndex(const Problem &problem);

  /// log2 of the block size of a level.
  static int shiftOf(int32_t level) { return 4 + 2 * level; }
  static constexpr int32_t kMaxLevels = 15;

  struct Slot {
    int32_t start, end; ///< the stored buffer's lifetime
    int64_t offset;     ///< where it was placed
    int64_t top;        ///< offset + size
  };

  /// The placed buffers of one placement run.
  class PlacedSlots {
  public:
    explicit PlacedSlots(const OverlapIndex &index)
        : index(index), slots(index.blockBegin.back()),
          fill(index.blockBegin.begin(), index.blockBegin.end() - 1) {}

    /// The (up to two) blocks of buffer i, -1 for none.
    const int32_t *blocksOf(int32_t i) const {
      return index.blockOf.data() + 2 * static_cast<size_t>(i);
    }

    /// Records a buffer with lifetime [s, e) stored in `blocks` (blocksOf) at
    /// [offset, top).
    void place(const int32_t *blocks, int32_t s, int32_t e, int64_t offset,
               int64_t top) {
      for (int which = 0; which < 2; ++which)
        if (int32_t b = blocks[which]; b >= 0)
          slots[fill[b]++] = {s, e, offset, top};
    }

    /// Calls fn(slot) for the slot of every placed buffer overlapping the
    /// lifetime [s, e), each buffer once.
    template <typename Fn>
    void forEachOverlap(int32_t s, int32_t e, Fn fn) const {
      const Slot *data = slots.data();
      for (int32_t level : index.usedLevels) {
        int shift = shiftOf(level);
        int32_t b0 = s >> shift, b1 = (e - 1) >> shift;
        const int32_t *begin = index.blockBegin.data() + index.levelBase[level];
        const int32_t *end = fill.data() + index.levelBase[level];
        for (const Slot *slot = data + begin[b0], *se = data + end[b0];
             slot < se; ++slot)
          if (slot->start < e && slot->end > s)
            fn(*slot);
        // A buffer is stored in blocks start>>shift and maybe the next: in
        // the later blocks, skip the copies of buffers starting in an earlier
        // (scanned) block.
        for (int32_t b = b0 + 1; b <= b1; ++b) {
          int32_t from = b << shift;
          for (const Slot *slot = data + begin[b], *se = data + end[b];
               slot < se; ++slot)
            if (slot->start >= from && slot->start < e)
              fn(*slot);
        }
      }
    }

    /// Prefetches the placed slots a query for [s, e) will scan (the
    /// queries of a size order land at random times, so without this every
    /// block is a cache miss on large inputs).
    void prefetch(int32_t s, int32_t e) const {
      const char *data = reinterpret_cast<const char *>(slots.data());
      for (int32_t level : index.usedLevels) {
        int shift = shiftOf(level);
        int32_t b0 = s >> shift, b1 = std::min((e - 1) >> shift, b0 + 1);
        const int32_t *begin = index.blockBegin.data() + index.levelBase[level];
        const int32_t *end = fill.data() + index.levelBase[level];
        for (int32_t b = b0; b <= b1; ++b) {
          const char *from = data + sizeof(Slot) * begin[b];
          const char *to =
              std::min(data + sizeof(Slot) * end[b], from + 16 * 64);
          for (; from < to; from += 64)
            __builtin_prefetch(from);
        }
      }
    }

  private:
    const OverlapIndex &index;
    std::vector<Slot> slots;
    std::vector<int32_t> fill; ///< per block, the end of its placed slots
  };

private:
  int32_t numLevels = 1;
  std::vector<int32_t> usedLevels; ///< levels holding at least one buffer
  std::vector<int32_t> levelBase;  ///< first block index of each level
  std::vector<int32_t> blockBegin; ///< CSR over all blocks of all levels
  std::vector<int32_t> blockOf;    ///< per buffer, its (up to) two blocks
};

/// Where a buffer goes among the gaps left by the placed buffers overlapping
/// it in time.
enum class Fit { Best, First };

/// How a placement run ended.
/// How a placement run ended (AboveCap: see SweepStart).
enum class PlaceStatus { Done, Overflow, OutOfTime, AboveCap };

/// Places buffers greedily in `order`: each at the best-fit / first-fit gap
/// among the already placed buffers overlapping it in time, else on top of
/// them. O(n + sum over buffers of k log min(k, 256)), k the placed buffers
/// it overlaps (radix sorted beyond 256), i.e. n x live set. Stops with
/// OutOfTime once `deadline` passes (checked every 1024 buffers).
PlaceStatus placeGreedy(const Problem &problem, const OverlapIndex &index,
                        const std::vector<int32_t> &order, Fit fit,
                        Placement &result,
                        Clock::time_point deadline = Clock::time_point::max());

/// Lifetime-aware best fit for the time-ordered sweep (placeSweep with
/// Fit::Best). Among the gaps that hold the buffer and are at most
/// size x (1 + slack) long (the `candidates` smallest; the best-fit gap
/// always), it takes the gap and side (bottom or top of the gap) whose
/// neighbour there ends closest to the buffer's own end, so the space of
/// buffers freed together coalesces: cost = |end difference| (times
/// `earlyWeight` when the neighbour ends first) + wasteWeight x (gap - size) /
/// size x the mean lifetime, each cost times 1 + noise x U[0, 1) (from
/// `seed`) when noise > 0. O(candidates) more per buffer than best fit.
///
/// With loadExponent k != 0 the end difference is measured in load-weighted
/// time: a section where L bytes are live weighs (L / bound)^k (bound: the
/// problem's lowerBound, or its largest live sum when that is higher),
/// scaled so that the sections the sweep spans weigh 1 on average. The hole
/// a mismatch leaves then costs what it costs the arena: much while the
/// live sum is near the bound, almost nothing in a valley. k < 0 (the
/// default) takes k = 1 / (0.42 sqrt(w / bound)), w = sqrt(sum of size^3 /
/// sum of size) (the byte-weighted root mean square size), at most 1000:
/// about 24 at 10k `heavy` buffers, 74 at 100k, 104 at 200k, 35 at 100k
/// `lognormal`. O(n + times) more per sweep.
///
/// The early-end cost is also multiplied by (neighbour's size / size)^
/// holeExponent: the neighbour's death opens a hole of its size.
struct EndFit {
  double slack = 0.5;
  int32_t candidates = 32;
  double earlyWeight = 2;
  double wasteWeight = 1;
  double loadExponent = -1;
  double holeExponent = 0.3;
  double noise = 0;
  uint64_t seed = 0;
};

/// Where placeSweep starts from and when it gives up: the first `fixed.size()`
/// positions of the order (all starting at the first start time, sorted by
/// offset, disjoint) are placed at `fixed`; the run stops with AboveCap as
/// soon as a buffer's top exceeds `arenaLimit`.
struct SweepStart {
  std::vector<int64_t> fixed;
  int64_t arenaLimit = std::numeric_limits<int64_t>::max();
};

/// The same plan as placeGreedy for an `order` sorted by start time (e.g.
/// Order::Start), by a sweep over time with an address-ordered, coalescing
/// free list (a malloc simulation, lib/Support/Sweep.cpp): O(n log L) for L
/// buffers live at once. With `endFit` (and Fit::Best), the gap is chosen by
/// EndFit instead (a different plan).
PlaceStatus placeSweep(const Problem &problem,
                       const std::vector<int32_t> &order, Fit fit,
                       Placement &result,
                       Clock::time_point deadline = Clock::time_point::max(),
                       const EndFit *endFit = nullptr,
                       const SweepStart *from = nullptr);

/// Blocks of the EndBlocks and StartBlocks stacks.
constexpr int kStackBlocks = 16;

/// How placeFromPeak stacks the buffers live at the peak (bottom first).
/// EndBlocks: cut by latest end into kStackBlocks blocks of about equal
/// bytes, each block in start order (earliest at its bottom); StartBlocks:
/// blocks by earliest start, each in end order (latest at its bottom).
enum class StackOrder {
  LatestEnd,
  EarliestStart,
  Largest,
  EndBlocks,
  StartBlocks
};

/// Stacks the buffers live at the max-live section from offset 0 (so the
/// arena there is the bound), then sweeps forward in time over the buffers
/// starting after it and backward over the ones ending before it, each with
/// a coalescing free list that starts from the stack (placeSweep). The
/// fragmentation a time-ordered sweep accumulates from the first buffer on
/// starts at the peak instead. O(n log L). Stops with OutOfTime once
/// `deadline` passes.
PlaceStatus
placeFromPeak(const Problem &problem, StackOrder stack, Fit fit,
              Placement &result, const EndFit *endFit = nullptr,
              Clock::time_point deadline = Clock::time_point::max());

/// The two sweeps of placeFromPeak as problems of their own: side 0 is the
/// stack and the buffers starting after the peak section, side 1 the stack
/// and the buffers ending at or before it with times mirrored. Each side's
/// `order` places the stack first (all start at the peak), then by start.
/// The sides share only the stack, whose offsets every sweep of `order`
/// places identically (from 0, in stack order), so a plan of side 0 and a
/// plan of side 1 from different sweeps combine into a valid plan.
struct PeakSides {
  Problem side[2];
  std::vector<int32_t> members[2]; ///< side index -> problem index
  std::vector<int32_t> order[2];
  /// Where the stack goes (the start of both sides' sweeps): with
  /// alignment padding a best fit could otherwise put a later stack buffer
  /// into the padding, differently on the two sides.
  SweepStart stack;
};
PeakSides splitAtPeak(const Problem &problem, StackOrder stack);

/// Improves `placement` until `deadline` by sweeps from the peak with
/// randomized EndFit parameters on `threads` threads (five stack orders, at
/// most 10 x `maxRuns` runs: every side of every stack once, two more runs on
/// the worse side of every stack, then always on the worse side of the best
/// stack), keeping the best plan of each side separately. Time-based: the
/// result depends on how many runs fit before the deadline. Returns true
/// if the arena shrank.
bool improveBySweeps(const Problem &problem, Placement &placement,
                     Clock::time_point deadline, unsigned threads,
                     int32_t maxRuns = 64);

/// Improves a valid `placement` until `deadline` by re-rolls of the worse
/// side of the peak (SideReroll in Repair.cpp: the buffers after a
/// checkpoint swept again with new EndFit parameters, kept when the side's
/// arena shrank or its area near the top did), one attempt per thread and
/// round. Returns true if the arena shrank.
bool rerollSides(const Problem &problem, Placement &placement,
                 Clock::time_point deadline, unsigned threads);

/// The bytes live in each section 0..numTimes-1 (buildProblem checked that
/// no live sum overflows; the problems derived from one only drop buffers or
/// shorten them). O(n + times).
std::vector<int64_t> liveBytes(const Problem &problem);

/// Per buffer, how many other buffers overlap it in time: O(n + times).
std::vector<int32_t> overlapCounts(const Problem &problem);

/// Buffer orders used by the heuristics; all deterministic.
enum class Order { Size, Length, Area, Degree, Breadth, Start };
std::vector<int32_t> makeOrder(const Problem &problem, Order order);
const char *orderName(Order order);

/// The time budgets of runPortfolio, in seconds from its start.
struct PortfolioBudget {
  /// Tier 1, the `portfolio` strategy: members in priority order, each when
  /// its estimate fits the time left until then.
  double seconds = 0;
  /// Tier 2 (`best`; none when not above `seconds`): then the members tier 1
  /// skipped, cheapest first, each when its estimate fits the time left
  /// until then (members not offered by name: a quarter of it).
  double extraSeconds = 0;
  /// Tier 2 takes no further member once one reached this arena.
  int64_t goalBytes = 0;
  /// The time limit: tier-1 members still running then stop (or at 3x
  /// `seconds`, when that is later), unless `finishTier1`.
  double limitSeconds = 0;
  /// Tier-1 members run until `hardDeadline` (`best`: its tier 1 is the
  /// portfolio's, and a member the portfolio finished on the same instance
  /// must not be stopped because this run was slower, or `best` could be
  /// worse than `portfolio` on a loaded machine).
  bool finishTier1 = false;
  /// The time-ordered best fit, which always runs, stops here (OutOfTime).
  Clock::time_point hardDeadline = Clock::time_point::max();
};

/// What runPortfolio did: every member considered and the reasons of those
/// that did not run or ran out of time (Plan::members, Plan::skipped).
struct PortfolioLog {
  std::vector<MemberRun> members;
  std::vector<std::string> skipped;
};

/// Runs the heuristic portfolio on 2 threads within `budget` (members whose
/// estimated cost does not fit the time left are skipped; the estimates of
/// a kind of member follow what the members of that kind measured). The
/// time-ordered best fit always runs. Returns Done with `result` from the
/// best member (`winner` names it; the first in a fixed order on ties),
/// OutOfTime if that member ran out of time and no other finished, Overflow
/// if every member overflowed.
PlaceStatus runPortfolio(const Problem &problem, Placement &result,
                         std::string &winner, const PortfolioBudget &budget,
                         PortfolioLog *log = nullptr);

/// Improves `placement` (valid, arena above the bound) until `deadline` by
/// repairing the peak: buffers reaching above a target are taken out with
/// their neighbourhood and put back by decreasing size at best fit below
/// it. For instances too large for the exact search. Returns true if the
/// arena shrank.
bool repairPeak(const Problem &problem, Placement &placement,
                Clock::time_point deadline, int64_t capacity = 0);

/// Sorts `items` stably by keyOf(item) (a uint64_t) ascending: LSD radix sort
/// with 11-bit digits and only as many passes as the largest key needs, O(n)
/// with sequential memory access (an insertion sort below 64 items).
template <typename T, typename KeyOf>
void radixSortBy(std::vector<T> &items, KeyOf keyOf) {
  if (items.size() < 64) {
    for (size_t a = 1; a < items.size(); ++a) {
      T item = items[a];
      size_t b = a;
      for (; b > 0 && keyOf(item) < keyOf(items[b - 1]); --b)
        items[b] = items[b - 1];
      items[b] = item;
    }
    return;
  }
  uint64_t all = 0;
  for (const T &item : items)
    all |= keyOf(item);
  std::vector<T> tmp(items.size());
  constexpr int kBits = 11;
  constexpr size_t kBuckets = size_t(1) << kBits;
  std::vector<size_t> count(kBuckets);
  for (int shift = 0; shift < 64 && (all >> shift) != 0; shift += kBits) {
    std::fill(count.begin(), count.end(), 0);
    for (const T &item : items)
      ++count[(keyOf(item) >> shift) & (kBuckets - 1)];
    size_t sum = 0;
    for (size_t &c : count) {
      size_t here = c;
      c = sum;
      sum += here;
    }
    for (const T &item : items)
      tmp[count[(keyOf(item) >> shift) & (kBuckets - 1)]++] = item;
    items.swap(tmp);
  }
}

/// Sorts `keys` ascending (radixSortBy).
void radixSort(std::vector<uint64_t> &keys);

/// Exact branch-and-bound search (MiniMalloc-style). Improves `incumbent`
/// (which must be a valid placement) until it reaches problem.lowerBound,
/// proves it optimal, or `deadline` passes. With `capacity` > 0 it stops as
/// soon as the arena is at most max(capacity, lower bound). Returns true if
/// `incumbent` is proven optimal on return. Adds its counts to `stats`.
bool searchExact(const Problem &problem, Placement &incumbent,
                 Clock::time_point deadline, int64_t capacity = 0,
                 SearchStats *stats = nullptr);

} // namespace detail
} // namespace mplan

#endif // MPLAN_LIB_SUPPORT_PLANNERIMPL_H
