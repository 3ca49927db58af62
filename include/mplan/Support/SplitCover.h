//===- SplitCover.h - Least-cost live-range splits under a capacity -*- C++
//-*-===//
//
// The choice behind meeting a capacity by splitting live ranges
// (rematerialization, offload), free of MLIR: points of a program with the
// bytes live at each, a target, and candidates that each free some bytes
// over a stretch of points at a cost. The least-cost set of candidates that
// brings every point to at most the target is a covering integer program
// (Checkmate and Moccasin solve its richer forms with MILP and constraint
// programming); solveSplitCover answers it by branch and bound within a work
// budget, starting from the greedy cover, so its answer never depends on the
// machine's load.
//
//===----------------------------------------------------------------------===//

#ifndef MPLAN_SUPPORT_SPLITCOVER_H
#define MPLAN_SUPPORT_SPLITCOVER_H

#include <cstdint>
#include <optional>
#include <utility>
#include <vector>

namespace mplan {

/// One way to free bytes over a stretch of points: a split of one live range.
struct CoverCandidate {
  /// The points [from, to) where `bytes` are free when the candidate is
  /// taken.
  int64_t from = 0, to = 0;
  int64_t bytes = 0;
  int64_t cost = 0;
  /// Candidates of one group exclude each other (-1: no group): the levers
  /// of one gap of one buffer.
  int64_t group = -1;
  /// The bytes live at the point the candidate creates right before `to`
  /// (its recomputation or copy back), before any candidate frees anything;
  /// the candidates free there that end at or before `to` and start again
  /// after it (from <= to < their to) lower it. 0: none.
  int64_t lateBytes = 0;
  /// The candidate this one is taken only together with (-1: none): a split
  /// of an input of a recomputation around the read that recomputation adds,
  /// which exists only once the recomputation is applied (the two halves of
  /// a gap cut by that read). It frees nothing at a late point right before
  /// its `from`, where the recomputation reads it. A candidate whose
  /// prerequisites form a cycle is never taken.
  int64_t prerequisite = -1;
};

/// Whether `candidate`, taken, lowers a late point right before `to`: its
/// early part ended before it and its later part starts after it.
inline bool lowersLatePoint(const CoverCandidate &candidate, int64_t to) {
  return candidate.to > to &&
         (candidate.prerequisite < 0 ? candidate.from <= to
                                     : candidate.from < to);
}

struct CoverProblem {
  /// The bytes live at each point.
  std::vector<int64_t> live;
  int64_t target = 0;
  std::vector<CoverCandidate> candidates;
  /// Pairs of candidates that exclude each other (a recomputation and a
  /// split of one of its inputs that frees it at the recomputation's point).
  std::vector<std::pair<size_t, size_t>> conflicts;
};

struct CoverResult {
  /// The candidates taken, in increasing index order.
  std::vector<size_t> chosen;
  int64_t cost = 0;
  /// The search finished within its budget: no cheaper cover exists.
  bool optimal = false;
};

/// The least-cost cover of `problem` found within `workLimit` steps (rows and
/// candidates visited), or no value when none exists or the budget ran out
/// before one was found. A cover takes at most one candidate per group,
/// never both of a conflicting pair and a candidate only with its
/// prerequisite; it leaves at most `target` bytes at every point (bytes live
/// less the bytes the taken candidates free there) and at every taken
/// candidate's own late point. `work` accumulates the steps taken.
std::optional<CoverResult> solveSplitCover(const CoverProblem &problem,
                                           int64_t workLimit, int64_t &work);

} // namespace mplan

#endif // MPLAN_SUPPORT_SPLITCOVER_H
