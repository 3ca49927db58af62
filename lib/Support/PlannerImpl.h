//===- PlannerImpl.h - Planner internals shared by the strategies -*- C++ -*-=//
//
// Internal to lib/Support: the normalized problem every strategy works on.
//
//===----------------------------------------------------------------------===//

#ifndef MPLAN_LIB_SUPPORT_PLANNERIMPL_H
#define MPLAN_LIB_SUPPORT_PLANNERIMPL_H

#include "mplan/Support/Planner.h"

#include <algorithm>
#include <chrono>
#include <cstdint>
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

/// Finds, for a buffer, the buffers overlapping it in time in about
/// O(levels + k) with few cache misses (greedy placement queries in size
/// order, i.e. at random times, so memory locality dominates).
///
/// Time (compressed) is cut into blocks of 16 points at level 0, 128 at
/// level 1, ... (x8 per level). A buffer lives at the lowest level whose
/// block size is at least its length, in the (at most two) blocks it touches;
/// each stored copy is a slot. A query scans, per level, the consecutive
/// blocks its own lifetime touches, keeps the slots that overlap it and
/// reports a buffer stored in two blocks only once. placeGreedy keeps the
/// placed interval of every buffer next to its slots, so a query reads
/// contiguous memory.
class OverlapIndex {
public:
  explicit OverlapIndex(const Problem &problem);

  struct Slot {
    int32_t start, end; ///< the stored buffer's lifetime
    int64_t offset;     ///< -1 until placed (filled by the user)
    int64_t top;
  };

  /// Fresh slots (every offset -1) for one placement run.
  std::vector<Slot> makeSlots() const { return slotTemplate; }

  /// Calls fn(slot) for the slot of every buffer overlapping `i` (including
  /// `i` itself), each buffer once.
  template <typename Fn>
  void forEachOverlapSlot(int32_t i, const std::vector<Slot> &slots,
                          Fn fn) const {
    int32_t s = problem.start[i], e = problem.end[i];
    for (int32_t level = 0; level < numLevels; ++level) {
      int shift = 4 + 2 * level;
      int32_t b0 = s >> shift, b1 = (e - 1) >> shift;
      const int32_t *begin = blockBegin.data() + levelBase[level];
      for (int32_t b = b0; b <= b1; ++b) {
        for (int32_t k = begin[b], ke = begin[b + 1]; k < ke; ++k) {
          const Slot &slot = slots[k];
          if (slot.start >= e || slot.end <= s)
            continue;
          // Stored in blocks start>>shift and maybe the next: report it in
          // the first of those that the query scans.
          if (std::max(slot.start >> shift, b0) != b)
            continue;
          fn(slot);
        }
      }
    }
  }

  template <typename Fn> void forEachOverlap(int32_t i, Fn fn) const {
    int32_t s = problem.start[i], e = problem.end[i];
    for (int32_t level = 0; level < numLevels; ++level) {
      int shift = 4 + 2 * level;
      int32_t b0 = s >> shift, b1 = (e - 1) >> shift;
      const int32_t *begin = blockBegin.data() + levelBase[level];
      for (int32_t b = b0; b <= b1; ++b)
        for (int32_t k = begin[b], ke = begin[b + 1]; k < ke; ++k) {
          const Slot &slot = slotTemplate[k];
          if (slot.start >= e || slot.end <= s ||
              std::max(slot.start >> shift, b0) != b || slotOwner[k] == i)
            continue;
          fn(slotOwner[k]);
        }
    }
  }

  /// The slots of buffer i: slotOf[2i] and slotOf[2i+1] (-1 if none).
  int32_t slot(int32_t i, int which) const { return slotOf[2 * i + which]; }

private:
  const Problem &problem;
  int32_t numLevels = 1;
  std::vector<int32_t> levelBase;  ///< first block index of each level
  std::vector<int32_t> blockBegin; ///< CSR over all blocks of all levels
  std::vector<Slot> slotTemplate;
  std::vector<int32_t> slotOwner;
  std::vector<int32_t> slotOf;
};

/// Where a buffer goes among the gaps left by the placed buffers overlapping
/// it in time.
enum class Fit { Best, First };

/// Places buffers greedily in `order`. Returns false if an offset overflows.
bool placeGreedy(const Problem &problem, const OverlapIndex &index,
                 const std::vector<int32_t> &order, Fit fit, Placement &result);

/// Buffer orders used by the heuristics; all deterministic.
enum class Order { Size, Length, Area, Degree, Breadth, Start };
std::vector<int32_t> makeOrder(const Problem &problem, Order order);
const char *orderName(Order order);

/// Runs the heuristic portfolio; returns false only if every member
/// overflowed. `winner` names the member that produced `result`.
bool runPortfolio(const Problem &problem, Placement &result,
                  std::string &winner);

using Clock = std::chrono::steady_clock;

/// Exact branch-and-bound search (MiniMalloc-style). Improves `incumbent`
/// (which must be a valid placement) until it reaches problem.lowerBound,
/// proves it optimal, or `deadline` passes. With `capacity` > 0 it stops as
/// soon as the arena is at most max(capacity, lower bound). Returns true if
/// `incumbent` is proven optimal on return.
bool searchExact(const Problem &problem, Placement &incumbent,
                 Clock::time_point deadline, int64_t capacity = 0);

} // namespace detail
} // namespace mplan

#endif // MPLAN_LIB_SUPPORT_PLANNERIMPL_H
