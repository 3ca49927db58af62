//===- Planner.cpp - Planner entry points, bound and validators -----------===//

#include "PlannerImpl.h"

#include "mplan/Support/CheckedMath.h"

#include <algorithm>
#include <cstdio>
#include <limits>
#include <set>
#include <thread>

using namespace mplan;
using namespace mplan::detail;

const std::vector<std::string> &mplan::strategyNames() {
  static const std::vector<std::string> names = {"naive",
                                                 "linear-scan",
                                                 "greedy-by-size",
                                                 "greedy-by-breadth",
                                                 "time-best-fit",
                                                 "portfolio",
                                                 "best"};
  return names;
}

namespace {
/// A time event of the sweep, in (time, kind, index) order (makeEvents):
/// ends before starts at the same time since lifetimes are half-open.
struct Event {
  int64_t time;
  int kind; // 0 = end, 1 = start
  size_t index;
};

std::vector<Event> makeEvents(const std::vector<Buffer> &buffers) {
  // All ends, then all starts, each by index; a stable sort by time then
  // gives (time, kind, index) order (an LSD radix sort of time - min: a
  // comparison sort took two thirds of validatePlan's time at 10^7 buffers).
  std::vector<Event> events;
  events.reserve(buffers.size() * 2);
  int64_t minTime = std::numeric_limits<int64_t>::max();
  for (int kind : {0, 1})
    for (size_t i = 0; i < buffers.size(); ++i) {
      if (buffers[i].size == 0)
        continue;
      int64_t time = kind ? buffers[i].start : buffers[i].end;
      events.push_back({time, kind, i});
      minTime = std::min(minTime, time);
    }
  detail::radixSortBy(events, [minTime](const Event &ev) {
    return static_cast<uint64_t>(ev.time) - static_cast<uint64_t>(minTime);
  });
  return events;
}

std::string idOf(const Buffer &b) { return std::to_string(b.id); }
} // namespace

std::optional<int64_t> mplan::lowerBound(const std::vector<Buffer> &buffers,
                                         int64_t alignment) {
  if (!isPowerOf2(alignment))
    return std::nullopt;
  int64_t live = 0, best = 0;
  for (const Event &ev : makeEvents(buffers)) {
    const Buffer &b = buffers[ev.index];
    if (b.size < 0 || !isPowerOf2(b.alignment))
      return std::nullopt;
    std::optional<int64_t> padded =
        alignTo(b.size, std::max(b.alignment, alignment));
    if (!padded)
      return std::nullopt;
    if (ev.kind == 0) {
      live -= *padded;
      continue;
    }
    if (!addInPlace(live, *padded))
      return std::nullopt;
    best = std::max(best, live);
  }
  return best;
}

namespace {
/// validateInput without the max-live overflow check (planBuffers checks it
/// on the compressed problem instead of sorting the events twice).
std::optional<std::string> validateBuffers(const std::vector<Buffer> &buffers) {
  // Ids as unsigned offsets from the smallest id (same order as the ids,
  // and few radix passes for dense ids).
  int64_t minId = std::numeric_limits<int64_t>::max();
  for (const Buffer &b : buffers)
    minId = std::min(minId, b.id);
  std::vector<uint64_t> ids;
  ids.reserve(buffers.size());
  for (size_t i = 0; i < buffers.size(); ++i) {
    const Buffer &b = buffers[i];
    if (b.size < 0)
      return "buffer " + idOf(b) + ": negative size " + std::to_string(b.size);
    if (b.end <= b.start)
      return "buffer " + idOf(b) + ": end (" + std::to_string(b.end) +
             ") must be greater than start (" + std::to_string(b.start) + ")";
    if (!isPowerOf2(b.alignment))
      return "buffer " + idOf(b) + ": alignment " +
             std::to_string(b.alignment) + " is not a power of two";
    if (!alignTo(b.size, b.alignment))
      return "buffer " + idOf(b) + ": size " + std::to_string(b.size) +
             " overflows when rounded up to alignment " +
             std::to_string(b.alignment);
    ids.push_back(static_cast<uint64_t>(b.id) - static_cast<uint64_t>(minId));
  }
  radixSort(ids);
  auto dup = std::adjacent_find(ids.begin(), ids.end());
  if (dup != ids.end())
    return "duplicate buffer id " + std::to_string(static_cast<int64_t>(
                                        *dup + static_cast<uint64_t>(minId)));
  return std::nullopt;
}
} // namespace

std::optional<std::string>
mplan::validateInput(const std::vector<Buffer> &buffers) {
  if (std::optional<std::string> err = validateBuffers(buffers))
    return err;
  if (!lowerBound(buffers, 1))
    return std::string("the sum of the sizes of buffers live at the same "
                       "time overflows int64");
  return std::nullopt;
}

std::optional<std::string>
mplan::validatePlan(const std::vector<Buffer> &buffers,
                    const std::vector<int64_t> &offsets, int64_t arenaSize,
                    int64_t alignment) {
  if (offsets.size() != buffers.size())
    return "plan has " + std::to_string(offsets.size()) + " offsets for " +
           std::to_string(buffers.size()) + " buffers";
  if (arenaSize < 0)
    return "negative arena size " + std::to_string(arenaSize);
  for (size_t i = 0; i < buffers.size(); ++i) {
    const Buffer &b = buffers[i];
    int64_t off = offsets[i];
    if (off < 0)
      return "buffer " + idOf(b) + ": negative offset " + std::to_string(off);
    int64_t align = std::max(b.alignment, alignment);
    if (!isPowerOf2(align))
      return "buffer " + idOf(b) + ": alignment is not a power of two";
    if (off % align != 0)
      return "buffer " + idOf(b) + ": offset " + std::to_string(off) +
             " is not a multiple of its alignment " + std::to_string(align);
    std::optional<int64_t> top = checkedAdd(off, b.size);
    if (!top || *top > arenaSize)
      return "buffer " + idOf(b) + ": [" + std::to_string(off) + ", " +
             (top ? std::to_string(*top) : std::string("overflow")) +
             ") exceeds the arena of " + std::to_string(arenaSize) + " bytes";
  }
  // Sweep over time keeping the live buffers ordered by offset. The live set
  // is pairwise disjoint as long as the plan is valid, so it suffices to
  // check a starting buffer against its neighbours in offset order.
  using Live = std::set<std::pair<int64_t, size_t>>;
  Live live;
  // Where each live buffer sits in `live` (erasing by position saves a
  // search per end: a third of the time with thousands live).
  std::vector<Live::iterator> where(buffers.size());
  for (const Event &ev : makeEvents(buffers)) {
    std::pair<int64_t, size_t> key(offsets[ev.index], ev.index);
    if (ev.kind == 0) {
      live.erase(where[ev.index]);
      continue;
    }
    const Buffer &b = buffers[ev.index];
    auto it = live.lower_bound(key);
    if (it != live.end() && it->first < key.first + b.size)
      return "buffers " + idOf(b) + " and " + idOf(buffers[it->second]) +
             " are live at the same time and overlap in memory";
    if (it != live.begin()) {
      auto prev = std::prev(it);
      if (prev->first + buffers[prev->second].size > key.first)
        return "buffers " + idOf(buffers[prev->second]) + " and " + idOf(b) +
               " are live at the same time and overlap in memory";
    }
    where[ev.index] = live.insert(it, key);
  }
  return std::nullopt;
}

namespace {

Expected<Problem> buildProblem(const std::vector<Buffer> &buffers,
                               int64_t alignment) {
  Problem p;
  int64_t minTime = std::numeric_limits<int64_t>::max(),
          maxTime = std::numeric_limits<int64_t>::min();
  for (size_t i = 0; i < buffers.size(); ++i) {
    const Buffer &b = buffers[i];
    if (b.size == 0)
      continue;
    int64_t align = std::max(b.alignment, alignment);
    std::optional<int64_t> padded = alignTo(b.size, align);
    if (!padded)
      return Error{"buffer " + idOf(b) + ": size " + std::to_string(b.size) +
                   " overflows when rounded up to alignment " +
                   std::to_string(align)};
    p.input.push_back(static_cast<int32_t>(i));
    p.size.push_back(*padded);
    p.align.push_back(align);
    // end > start was validated; the difference may still overflow.
    std::optional<int64_t> len = checkedSub(b.end, b.start);
    p.length.push_back(len ? *len : std::numeric_limits<int64_t>::max());
    minTime = std::min(minTime, b.start);
    maxTime = std::max(maxTime, b.end);
  }
  if (p.input.size() >=
      static_cast<size_t>(std::numeric_limits<int32_t>::max() / 2))
    return Error{"too many buffers"};
  size_t m = p.input.size();
  p.start.resize(m);
  p.end.resize(m);
  p.numTimes = 0;
  if (m > 0) {
    // Compress the times to ranks with one sort of the 2m endpoints. When
    // (time - min, endpoint) fits in 64 bits (always in practice), a radix
    // sort of packed keys; otherwise a comparison sort.
    uint64_t range =
        static_cast<uint64_t>(maxTime) - static_cast<uint64_t>(minTime);
    int endpointBits = 1;
    while ((uint64_t(1) << endpointBits) < 2 * m)
      ++endpointBits;
    int rangeBits = 0;
    while (rangeBits < 64 && (range >> rangeBits) != 0)
      ++rangeBits;
    auto timeOf = [&](size_t e) {
      const Buffer &b = buffers[p.input[e >> 1]];
      return (e & 1) ? b.end : b.start;
    };
    auto assign = [&](size_t e, int32_t rank) {
      ((e & 1) ? p.end : p.start)[e >> 1] = rank;
    };
    if (rangeBits + endpointBits <= 64) {
      std::vector<uint64_t> keys(2 * m);
      for (size_t e = 0; e < 2 * m; ++e)
        keys[e] =
            ((static_cast<uint64_t>(timeOf(e)) - static_cast<uint64_t>(minTime))
             << endpointBits) |
            e;
      radixSort(keys);
      uint64_t mask = (uint64_t(1) << endpointBits) - 1, prev = 0;
      int32_t rank = -1;
      for (size_t k = 0; k < keys.size(); ++k) {
        uint64_t t = keys[k] >> endpointBits;
        if (k == 0 || t != prev)
          ++rank;
        prev = t;
        assign(keys[k] & mask, rank);
      }
      p.numTimes = rank + 1;
    } else {
      std::vector<std::pair<int64_t, uint32_t>> keys(2 * m);
      for (size_t e = 0; e < 2 * m; ++e)
        keys[e] = {timeOf(e), static_cast<uint32_t>(e)};
      std::sort(keys.begin(), keys.end());
      int32_t rank = -1;
      for (size_t k = 0; k < keys.size(); ++k) {
        if (k == 0 || keys[k].first != keys[k - 1].first)
          ++rank;
        assign(keys[k].second, rank);
      }
      p.numTimes = rank + 1;
    }
  }
  // Max-live bound on the compressed times: ends before starts at the same
  // point since lifetimes are half-open.
  std::vector<int64_t> starting(p.numTimes + 1, 0), ending(p.numTimes + 1, 0);
  // The overflow messages name a buffer live at that time, and the time.
  auto liveSumOverflow = [&](size_t k, int64_t time) {
    return Error{"buffer " + idOf(buffers[p.input[k]]) +
                 ": the sum of the sizes of buffers live at time " +
                 std::to_string(time) + " overflows int64"};
  };
  for (size_t k = 0; k < p.input.size(); ++k) {
    if (!addInPlace(starting[p.start[k]], p.size[k]))
      return liveSumOverflow(k, buffers[p.input[k]].start);
    // All buffers ending at t are live just before it: an overflow here is
    // an overflow of that live sum.
    if (!addInPlace(ending[p.end[k]], p.size[k]))
      return liveSumOverflow(k, buffers[p.input[k]].end - 1);
  }
  int64_t live = 0, best = 0;
  for (int32_t t = 0; t < p.numTimes; ++t) {
    live -= ending[t];
    if (!addInPlace(live, starting[t])) {
      // A buffer starting at t (one does: the live sum only grows there).
      size_t k = 0;
      while (p.start[k] != t)
        ++k;
      return liveSumOverflow(k, buffers[p.input[k]].start);
    }
    best = std::max(best, live);
  }
  p.lowerBound = best;
  return p;
}

/// Bump allocation in input order: no reuse at all.
bool placeNaive(const Problem &p, Placement &out) {
  out.offsets.assign(p.numBuffers(), 0);
  int64_t top = 0;
  for (int32_t i = 0; i < p.numBuffers(); ++i) {
    std::optional<int64_t> off = alignTo(top, p.align[i]);
    if (!off)
      return false;
    out.offsets[i] = *off;
    std::optional<int64_t> next = checkedAdd(*off, p.size[i]);
    if (!next)
      return false;
    top = *next;
  }
  out.arena = top;
  return true;
}

/// Applies PlanOptions::stagger to `plan` (offsets parallel to the input,
/// arenaSize the unstaggered arena). Returns false on overflow.
bool staggerPlan(const Problem &p, int64_t stagger, Plan &plan) {
  // Alignments are powers of two, so the largest is a multiple of the others.
  int64_t maxAlign = 1;
  for (int64_t align : p.align)
    maxAlign = std::max(maxAlign, align);
  std::optional<int64_t> aligned = alignTo(stagger, maxAlign);
  if (!aligned)
    return false;
  int64_t step = *aligned;
  if (step % kStaggerPeriod == 0)
    return true;
  int64_t arena = 0;
  for (int32_t k = 0; k < p.numBuffers(); ++k) {
    int64_t &offset = plan.offsets[p.input[k]];
    std::optional<int64_t> shift = checkedMul(offset / kStaggerPeriod, step);
    std::optional<int64_t> moved =
        shift ? checkedAdd(offset, *shift) : std::nullopt;
    std::optional<int64_t> end =
        moved ? checkedAdd(*moved, p.size[k]) : std::nullopt;
    if (!end)
      return false;
    offset = *moved;
    arena = std::max(arena, *end);
  }
  plan.staggerBytes = arena - plan.arenaSize;
  plan.arenaSize = arena;
  return true;
}

} // namespace

void mplan::detail::radixSort(std::vector<uint64_t> &keys) {
  radixSortBy(keys, [](uint64_t key) { return key; });
}

Expected<Plan> mplan::planBuffers(const std::vector<Buffer> &buffers,
                                  const PlanOptions &options) {
  Clock::time_point begin = Clock::now();
  const std::vector<std::string> &names = strategyNames();
  if (std::find(names.begin(), names.end(), options.strategy) == names.end()) {
    std::string msg = "unknown strategy '" + options.strategy + "' (one of:";
    for (const std::string &n : names)
      msg += " " + n;
    return Error{msg + ")"};
  }
  if (!isPowerOf2(options.alignment))
    return Error{"alignment " + std::to_string(options.alignment) +
                 " is not a power of two"};
  if (options.capacity < 0)
    return Error{"the capacity must be non-negative"};
  if (!(options.timeLimitSeconds >= 0))
    return Error{"the time limit must be non-negative"};
  if (!(options.graceSeconds >= 0))
    return Error{"the grace period must be non-negative"};
  if (options.stagger < 0 || options.stagger % options.alignment != 0)
    return Error{"stagger " + std::to_string(options.stagger) +
                 " is not a non-negative multiple of the alignment " +
                 std::to_string(options.alignment)};
  if (std::optional<std::string> err = validateBuffers(buffers))
    return Error{*err};
  Expected<Problem> problemOr = buildProblem(buffers, options.alignment);
  if (!problemOr)
    return Error{problemOr.error()};
  const Problem &p = *problemOr;

  Placement placement;
  std::string name = options.strategy;
  PortfolioLog log;
  SearchStats stats;
  bool proven = false;
  bool ok = true;
  const std::string &s = options.strategy;
  // Every strategy gives up graceSeconds past the time limit (the portfolio
  // runs its fastest member even when the limit leaves no time for it): an
  // input too large for that is an error, not a hang.
  Clock::time_point hardDeadline =
      deadlineAfter(begin, options.timeLimitSeconds + options.graceSeconds);
  auto outOfTime = [&](const std::string &what) {
    char grace[32];
    std::snprintf(grace, sizeof(grace), "%g", options.graceSeconds);
    return Error{"strategy '" + s + "': no plan within the time limit: " +
                 std::to_string(p.numBuffers()) + " buffers take " + what +
                 " more than the limit plus " + grace +
                 " s; raise the time limit"};
  };
  if (s == "naive") {
    ok = placeNaive(p, placement);
  } else if (s == "linear-scan" || s == "time-best-fit") {
    // Start order: the free-list sweep gives placeGreedy's plan in O(n log L).
    PlaceStatus status = placeSweep(p, makeOrder(p, Order::Start),
                                    s == "linear-scan" ? Fit::First : Fit::Best,
                                    placement, hardDeadline);
    if (status == PlaceStatus::OutOfTime)
      return outOfTime("this strategy");
    ok = status == PlaceStatus::Done;
  } else if (s == "greedy-by-size" || s == "greedy-by-breadth") {
    OverlapIndex index(p);
    Order order = s == "greedy-by-size" ? Order::Size : Order::Breadth;
    PlaceStatus status = placeGreedy(p, index, makeOrder(p, order), Fit::Best,
                                     placement, hardDeadline);
    if (status == PlaceStatus::OutOfTime)
      return outOfTime("this strategy (n x live set)");
    ok = status == PlaceStatus::Done;
  } else {
    std::string winner;
    // The same members for `portfolio` and `best` under one time limit, so
    // `best` is never worse; `best` then runs the members the portfolio's
    // budget left out that fit the rest of its limit (so it is never worse
    // than a strategy offered by name that finishes within the limit).
    PortfolioBudget budget;
    budget.seconds = portfolioBudget(options.timeLimitSeconds);
    if (s == "best")
      budget.extraSeconds =
          std::min(options.timeLimitSeconds, kMaxBudgetSeconds);
    budget.limitSeconds = options.timeLimitSeconds;
    budget.finishTier1 = s == "best";
    budget.goalBytes = std::max(p.lowerBound, options.capacity);
    budget.hardDeadline = hardDeadline;
    PlaceStatus status = runPortfolio(p, placement, winner, budget, &log);
    if (status == PlaceStatus::OutOfTime)
      return outOfTime("the time-ordered best fit, the portfolio's fastest "
                       "member,");
    ok = status == PlaceStatus::Done;
    name = "portfolio(" + winner + ")";
    if (ok && s == "best") {
      name = "best(" + winner + ")";
      if (placement.arena > p.lowerBound) {
        int64_t before = placement.arena;
        // Keep a small reserve for building the result.
        Clock::time_point deadline =
            deadlineAfter(begin, options.timeLimitSeconds) -
            std::chrono::milliseconds(2);
        Clock::time_point searchBegin = Clock::now();
        proven = searchExact(p, placement, deadline, options.capacity, &stats);
        stats.seconds =
            std::chrono::duration<double>(Clock::now() - searchBegin).count();
        if (placement.arena < before)
          name = "best(search)";
        // Instances too large for the exact search: randomized lifetime-aware
        // sweeps from the peak for half of the time left, peak repair for at
        // most a quarter of the rest (it stops after 256 failed tries), then
        // re-rolls of the worse side until the deadline.
        before = placement.arena;
        int64_t goal = std::max(p.lowerBound, options.capacity);
        Clock::time_point now = Clock::now();
        if (!proven && placement.arena > goal && now < deadline) {
          unsigned threads =
              std::max(1u, std::min(2u, std::thread::hardware_concurrency()));
          bool swept = improveBySweeps(p, placement, now + (deadline - now) / 2,
                                       threads);
          now = Clock::now();
          bool repaired = placement.arena > goal &&
                          repairPeak(p, placement, now + (deadline - now) / 4,
                                     options.capacity);
          swept |= placement.arena > goal &&
                   rerollSides(p, placement, deadline, threads);
          if (placement.arena < before)
            name = "best(" + std::string(swept ? "sweeps" : winner) +
                   (repaired ? "+repair)" : ")");
        }
      }
    }
  }
  if (!ok)
    return Error{"strategy '" + s + "': an offset overflows int64"};

  Plan plan;
  plan.offsets.assign(buffers.size(), 0);
  for (int32_t k = 0; k < p.numBuffers(); ++k)
    plan.offsets[p.input[k]] = placement.offsets[k];
  plan.arenaSize = placement.arena;
  if (options.stagger > 0 && !staggerPlan(p, options.stagger, plan))
    return Error{"stagger " + std::to_string(options.stagger) +
                 ": an offset overflows int64"};
  plan.lowerBound = p.lowerBound;
  plan.strategy = name;
  plan.skipped = std::move(log.skipped);
  plan.members = std::move(log.members);
  plan.search = std::move(stats);
  if (s == "best")
    plan.goalBytes = std::max(p.lowerBound, options.capacity);
  plan.provenOptimal =
      proven || plan.arenaSize - plan.staggerBytes == plan.lowerBound;
  plan.seconds = std::chrono::duration<double>(Clock::now() - begin).count();
  return plan;
}
