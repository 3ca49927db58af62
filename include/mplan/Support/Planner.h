//===- Planner.h - Static memory planning (MLIR-free) -----------*- C++ -*-===//
//
// The planning problem: every buffer {id, start, end, size, alignment} gets a
// byte offset in one arena so that buffers whose lifetimes [start, end)
// overlap never share bytes, and the arena is as small as possible.
//
// This library depends on the C++17 standard library only, so the MLIR
// passes, the mplan-plan CLI and the Python module can all use it.
// See docs/planner.md for the strategies and their sources.
//
//===----------------------------------------------------------------------===//

#ifndef MPLAN_SUPPORT_PLANNER_H
#define MPLAN_SUPPORT_PLANNER_H

#include <cassert>
#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <variant>
#include <vector>

namespace mplan {

/// One buffer to place. `start` is inclusive, `end` exclusive (MiniMalloc's
/// `lower`/`upper`), so two buffers conflict iff a.start < b.end && b.start <
/// a.end. A buffer of size 0 conflicts with nothing and gets offset 0.
struct Buffer {
  int64_t id = 0;
  int64_t start = 0;     ///< inclusive
  int64_t end = 0;       ///< exclusive
  int64_t size = 0;      ///< bytes
  int64_t alignment = 1; ///< power of two
};

/// The period of PlanOptions::stagger: 4 KiB, the address bits x86 cores
/// compare to tell a load from an older store (4K aliasing) and the span of
/// one way of a 32 KiB, 8-way L1 data cache.
inline constexpr int64_t kStaggerPeriod = 4096;

struct PlanOptions {
  /// One of strategyNames().
  std::string strategy = "best";
  /// Budget of `best` (portfolio, exact search, sweeps, peak repair) and of
  /// `portfolio`, which spends kPortfolioShare of it (members whose
  /// estimated cost does not fit are skipped, see portfolioBudget).
  /// Every strategy gives up graceSeconds past it, and planBuffers then
  /// fails with an error naming the limit (`portfolio` and `best` always
  /// run the time-ordered best fit, also when the limit leaves no time for
  /// it; `naive` is O(n) and never gives up).
  double timeLimitSeconds = 10.0;
  /// How long past the time limit a strategy may run before giving up.
  double graceSeconds = 3.0;
  /// Minimum alignment for every buffer (a power of two).
  int64_t alignment = 1;
  /// Arena size that is good enough for `best` (0: none). The search stops as
  /// soon as it has a plan of at most max(capacity, lower bound) bytes, like
  /// MiniMalloc, which takes the capacity as input; without one it aims at
  /// the lower bound and then narrows the gap until the time limit.
  int64_t capacity = 0;
  /// Cache stagger in bytes (0: off; a multiple of `alignment`). After
  /// placement every offset o becomes o + (o / kStaggerPeriod) * stagger, so
  /// buffers placed a multiple of 4 KiB apart no longer start at the same
  /// address modulo 4 KiB (as jemalloc offsets large allocations within a
  /// page, "cache-oblivious" mode). The map is monotone, so buffers that did
  /// not share bytes still do not; the arena grows by about stagger / 4096 of
  /// itself. The step is rounded up to the largest buffer alignment; when that
  /// makes it a multiple of kStaggerPeriod the plan is left unstaggered.
  int64_t stagger = 0;
};

/// The share of PlanOptions::timeLimitSeconds the `portfolio` strategy (and
/// the portfolio `best` starts from) spends: 1/40, 0.25 s of the default
/// 10 s limit.
inline constexpr double kPortfolioShare = 1.0 / 40;

/// The budget of the `portfolio` strategy under a time limit:
/// kPortfolioShare of it, at least 0.1 s but at most the limit, and never
/// below 0.05 s (small instances run every member whatever the limit).
double portfolioBudget(double timeLimitSeconds);

/// One member of the portfolio of `portfolio` and `best` (Plan::members), in
/// priority order. `portfolio` admits members in that order while their
/// estimated cost, scheduled on its 2 threads, ends within its budget
/// (deterministic: the same members on every run); `best` runs the same and
/// then, cheapest first, every member left out whose estimate fits the rest
/// of its time limit (members mplan-plan also offers by name: all of it;
/// the others: a quarter of it). See docs/planner.md.
struct MemberRun {
  std::string name; ///< e.g. "size/best-fit", "peak-largest/end-fit"
  /// The cost model's estimate in seconds for one thread (from the number
  /// of buffers and of overlapping pairs).
  double modelSeconds = 0;
  /// What admission compared with secondsLeft (greedy-by-size and
  /// greedy-by-breadth: with 1.5x secondsLeft): modelSeconds, scaled for
  /// `best`'s further members (and for members dropped on a loaded
  /// machine) by what the finished members of the same kind measured
  /// (their seconds / modelSeconds).
  double estimatedSeconds = 0;
  /// Seconds left in the member's tier when a thread considered it.
  double secondsLeft = 0;
  bool ran = false;
  bool finished = false; ///< ran and produced a plan (not out of time)
  double seconds = 0;    ///< wall time of its run
  /// CPU time of its thread during the run (what the cost model estimates;
  /// on a loaded machine `seconds` is larger). Equal to `seconds` where the
  /// system has no per-thread clock.
  double cpuSeconds = 0;
  int64_t arena = 0; ///< its plan's arena (when finished)
  /// Run by `best` after the portfolio's own budget (0 for `portfolio`).
  bool extra = false;
  /// The member mplan-plan also offers by name ("time-best-fit",
  /// "linear-scan", "greedy-by-size", "greedy-by-breadth"), else empty.
  std::string strategy;
};

/// What `best`'s exact search did (Plan::search; all zero for the other
/// strategies and when the portfolio already reached the goal). Searches
/// count in nodes (one per partial plan visited) and in work (the elementary
/// steps both searches take: entries scanned per node and per placement),
/// which is what their restart budgets are measured in. The search's members
/// run in parallel threads, so the counters may differ slightly between runs;
/// the plan does not.
struct SearchStats {
  uint64_t nodes = 0;          ///< nodes visited, both searches
  uint64_t holeNodes = 0;      ///< of which by the hole-directed search
  uint64_t backtracks = 0;     ///< canonical nodes whose placements all failed
  uint64_t cutoffs = 0;        ///< canonical placements refuted by inference
  uint64_t decompositions = 0; ///< canonical placements splitting a partition
  uint64_t restarts = 0;       ///< search runs started
  uint64_t work = 0;           ///< elementary steps, both searches
  int32_t targets = 0;         ///< capacities tried
  /// Which run found the last plan, e.g. "canonical TWA round 4" (empty
  /// when the search found none).
  std::string solvedBy;
  double seconds = 0; ///< wall time spent in the exact search
};

/// The result of planning. Every buffer's size is padded to its effective
/// alignment (max of its own and PlanOptions::alignment) and every offset is a
/// multiple of that alignment; `arenaSize` is the largest padded end.
struct Plan {
  std::vector<int64_t> offsets; ///< parallel to the input vector
  int64_t arenaSize = 0;
  int64_t lowerBound = 0; ///< max-live bound, see mplan::lowerBound
  /// Which strategy produced the plan; for `best` and `portfolio` this names
  /// the winning member, e.g. "best(search)" or "portfolio(size/best-fit)".
  std::string strategy;
  double seconds = 0; ///< wall time spent planning
  /// True when arenaSize - staggerBytes is proven minimal (it equals the
  /// lower bound, or the exact search proved no smaller arena exists).
  bool provenOptimal = false;
  /// Bytes PlanOptions::stagger added to arenaSize.
  int64_t staggerBytes = 0;
  /// What `best` aimed at: max(capacity, lower bound) (0 for the other
  /// strategies). When arenaSize - staggerBytes is above it, `best` stopped
  /// (time limit, or an instance too large for the exact search) without
  /// reaching it; see goalGap().
  int64_t goalBytes = 0;
  /// Counters of `best`'s exact search.
  SearchStats search;
  /// Portfolio members (`portfolio`, `best`) that did not run because their
  /// estimated cost exceeded their share of the budget, or that ran out of
  /// time, with the reason, e.g. "size/first-fit (estimated 38.2 s, 0.21 s
  /// left)".
  std::vector<std::string> skipped;
  /// Every portfolio member considered (`portfolio`, `best`): estimate,
  /// time left, whether it ran, its time and arena.
  std::vector<MemberRun> members;
};

/// How many bytes a plan of `best` is above its goal (0 when it reached it
/// or for other strategies).
inline int64_t goalGap(const Plan &plan) {
  if (plan.goalBytes <= 0)
    return 0;
  int64_t arena = plan.arenaSize - plan.staggerBytes;
  return arena > plan.goalBytes ? arena - plan.goalBytes : 0;
}

/// The error half of Expected<T>.
struct Error {
  std::string message;
};

/// A small value-or-error-message type (no exceptions).
template <typename T> class Expected {
public:
  Expected(T value) : storage(std::move(value)) {}
  Expected(Error error) : storage(std::move(error)) {}

  bool ok() const { return std::holds_alternative<T>(storage); }
  explicit operator bool() const { return ok(); }

  /// The error message; only valid when !ok().
  const std::string &error() const {
    assert(!ok() && "no error in a successful Expected");
    return std::get<Error>(storage).message;
  }

  T &value() {
    assert(ok() && "accessing the value of a failed Expected");
    return std::get<T>(storage);
  }
  const T &value() const {
    assert(ok() && "accessing the value of a failed Expected");
    return std::get<T>(storage);
  }
  T &operator*() { return value(); }
  const T &operator*() const { return value(); }
  T *operator->() { return &value(); }
  const T *operator->() const { return &value(); }

private:
  std::variant<T, Error> storage;
};

using PlanResult = Expected<Plan>;

/// Plans `buffers` with `options.strategy`. Fails (with a message) on invalid
/// input (see validateInput), an unknown strategy, invalid options, or when an
/// offset would overflow int64_t.
Expected<Plan> planBuffers(const std::vector<Buffer> &buffers,
                           const PlanOptions &options);

/// The max-live lower bound: the largest sum, over all time points, of the
/// padded sizes (rounded up to max(buffer alignment, `alignment`)) of the
/// buffers live at that point. std::nullopt on overflow or invalid input.
std::optional<int64_t> lowerBound(const std::vector<Buffer> &buffers,
                                  int64_t alignment = 1);

/// Independent check of a plan (a sweep over time, sharing no code with the
/// strategies): one offset per buffer, offsets non-negative and multiples of
/// max(buffer alignment, `alignment`), offset + size <= arenaSize, and no two
/// buffers that are live at the same time share a byte. std::nullopt when
/// valid, else a message naming the offending buffer id(s).
std::optional<std::string> validatePlan(const std::vector<Buffer> &buffers,
                                        const std::vector<int64_t> &offsets,
                                        int64_t arenaSize,
                                        int64_t alignment = 1);

/// Checks the input: sizes >= 0, end > start, alignment a power of two,
/// unique ids, and that the max-live sum does not overflow int64_t.
/// std::nullopt when valid, else a message naming the buffer id.
std::optional<std::string> validateInput(const std::vector<Buffer> &buffers);

/// All strategy names planBuffers accepts: naive, linear-scan, greedy-by-size,
/// greedy-by-breadth, time-best-fit, portfolio, best.
const std::vector<std::string> &strategyNames();

} // namespace mplan

#endif // MPLAN_SUPPORT_PLANNER_H
