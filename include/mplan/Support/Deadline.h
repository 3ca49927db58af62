//===- Deadline.h - Time budgets of the planner library ---------*- C++ -*-===//
//
// Converting a budget in seconds (a user's double: possibly huge or infinite)
// to a clock time point overflows the clock's integer representation, which
// is undefined behaviour and in practice a deadline in the past. Every search
// of the library takes its deadline from here.
//
//===----------------------------------------------------------------------===//

#ifndef MPLAN_SUPPORT_DEADLINE_H
#define MPLAN_SUPPORT_DEADLINE_H

#include <algorithm>
#include <chrono>

namespace mplan {

using Clock = std::chrono::steady_clock;

/// The longest budget a search honours: about 31 years, far beyond any run
/// and far below the clock's range (292 years of nanoseconds).
inline constexpr double kMaxBudgetSeconds = 1e9;

/// `start` plus `seconds`, with the budget clamped to [0, kMaxBudgetSeconds]
/// (NaN counts as 0), so that an infinite budget means "no limit".
inline Clock::time_point deadlineAfter(Clock::time_point start,
                                       double seconds) {
  if (!(seconds > 0))
    seconds = 0;
  seconds = std::min(seconds, kMaxBudgetSeconds);
  return start + std::chrono::duration_cast<Clock::duration>(
                     std::chrono::duration<double>(seconds));
}

} // namespace mplan

#endif // MPLAN_SUPPORT_DEADLINE_H
