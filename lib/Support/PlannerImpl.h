//===- PlannerImpl.h - Planner internals shared by the strategies -*- C++ -*-=//
//
// Internal to lib/Support: the normalized problem every strategy works on.
//
//===----------------------------------------------------------------------===//

#ifndef MPLAN_LIB_SUPPORT_PLANNERIMPL_H
#define MPLAN_LIB_SUPPORT_PLANNERIMPL_H

#include "mplan/Support/Planner.h"

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

/// Enumerates, for a buffer, every other buffer overlapping it in time in
/// O(log T + k): the buffers live at its start (a stabbing query on a static
/// segment tree over compressed time) plus those starting strictly inside
/// its lifetime (a range of the buffers sorted by start).
class OverlapIndex {
public:
  explicit OverlapIndex(const Problem &problem);

  template <typename Fn> void forEachOverlap(int32_t i, Fn fn) const {
    int32_t s = problem.start[i];
    for (size_t node = static_cast<size_t>(s) + leaves; node >= 1; node >>= 1) {
      for (int32_t k = nodeBegin[node], ke = nodeBegin[node + 1]; k < ke; ++k) {
        int32_t j = nodeItems[k];
        if (j != i)
          fn(j);
      }
    }
    for (int32_t k = firstStartingAt[s + 1],
                 ke = firstStartingAt[problem.end[i]];
         k < ke; ++k)
      fn(byStart[k]);
  }

private:
  const Problem &problem;
  size_t leaves = 1;
  std::vector<int32_t> nodeBegin, nodeItems;
  std::vector<int32_t> byStart;
  std::vector<int32_t> firstStartingAt; ///< size numTimes + 1
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
