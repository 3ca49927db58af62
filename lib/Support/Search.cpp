//===- Search.cpp - Exact branch-and-bound search for `best` --------------===//
//
// Exact searches after MiniMalloc (M. D. Moffitt, "MiniMalloc: A Lightweight
// Memory Allocator for Hardware-Accelerated Machine Learning", ASPLOS 2023).
//
// ComponentSearch is MiniMalloc's algorithm: canonical placements in
// non-decreasing (minimum offset, preorder rank) order, each buffer at the
// lowest offset its placed neighbours allow; gap dominance (no candidate at
// or above the lowest top an unplaced buffer could reach) and hatless
// pruning; incremental section inference (floor, raised to the lowest
// minimum offset of the section's unplaced buffers, + unplaced sizes <=
// capacity); dynamic temporal decomposition, each split-off partition ranked
// again on the totals left (as MiniMalloc does: its search tree is the same,
// node for node).
//
// HoleSearch is the earlier hole-directed search of this file: it branches
// on which buffer sits at the floor of the lowest section with unplaced
// buffers (or none), with per-threshold section inference and sibling
// nogoods.
//
// RestartingSolver runs both as one portfolio: MiniMalloc's round robin over
// its three preorders plus one hole-directed run per round, every member
// with the same budget of work (elementary steps) per round, doubling per
// round; a preorder's search continues across rounds instead of restarting,
// and the members run in parallel threads with the outcome of the turns.
// searchExact drives the targets: the capacity the caller gave (after one
// short round at the max-live bound), or the bound and then capacities
// between the best lower bound and the best plan. All budgets count work,
// so results do not depend on timing unless the deadline stops a search.
//
//===----------------------------------------------------------------------===//

#include "PlannerImpl.h"

#include "mplan/Support/CheckedMath.h"

#include <algorithm>
#include <atomic>
#include <limits>
#include <memory>
#include <mutex>
#include <numeric>
#include <thread>
#include <tuple>

using namespace mplan;
using namespace mplan::detail;

namespace {

constexpr int64_t kInf = std::numeric_limits<int64_t>::max();

/// ceil(log2(n)) for n >= 1 (0 for n <= 1).
uint64_t log2Ceil(uint64_t n) {
  uint64_t bits = 0;
  while ((uint64_t(1) << bits) < n)
    ++bits;
  return bits;
}

/// The static layout of one independent part of the problem (buffers between
/// two consecutive cuts), shared by the exact searches: per-member sizes,
/// alignments and sections relative to the part's first time point, the
/// buffers overlapping each one in time, the buffers live in each section (in
/// member order; HoleSearch reorders them) and, for identical buffers, the
/// previous twin.
struct ComponentLayout {
  ComponentLayout(const Problem &p, const std::vector<int32_t> &memberList)
      : members(memberList) {
    m = static_cast<int32_t>(members.size());
    int32_t t0 = std::numeric_limits<int32_t>::max(), t1 = 0;
    for (int32_t g : members) {
      t0 = std::min(t0, p.start[g]);
      t1 = std::max(t1, p.end[g]);
    }
    numSections = t1 - t0;
    size.resize(m);
    align.resize(m);
    first.resize(m);
    last.resize(m);
    for (int32_t k = 0; k < m; ++k) {
      int32_t g = members[k];
      size[k] = p.size[g];
      align[k] = p.align[g];
      first[k] = p.start[g] - t0;
      last[k] = p.end[g] - t0;
    }
    // Neighbours: buffers overlapping in time (components are small).
    adjBegin.assign(m + 1, 0);
    for (int32_t a = 0; a < m; ++a) {
      adjBegin[a] = static_cast<int32_t>(adjItems.size());
      for (int32_t b = 0; b < m; ++b)
        if (a != b && first[a] < last[b] && first[b] < last[a])
          adjItems.push_back(b);
    }
    adjBegin[m] = static_cast<int32_t>(adjItems.size());
    // Buffers live in each section.
    coverBegin.assign(numSections + 1, 0);
    for (int32_t k = 0; k < m; ++k)
      for (int32_t t = first[k]; t < last[k]; ++t)
        ++coverBegin[t + 1];
    for (int32_t t = 0; t < numSections; ++t)
      coverBegin[t + 1] += coverBegin[t];
    coverItems.resize(coverBegin[numSections]);
    std::vector<int32_t> fill(coverBegin.begin(), coverBegin.end() - 1);
    for (int32_t k = 0; k < m; ++k)
      for (int32_t t = first[k]; t < last[k]; ++t)
        coverItems[fill[t]++] = k;
    // Identical buffers are interchangeable: only one order is searched.
    twinPrev.assign(m, -1);
    for (int32_t a = 0; a < m; ++a)
      for (int32_t b = a - 1; b >= 0; --b)
        if (first[a] == first[b] && last[a] == last[b] && size[a] == size[b] &&
            align[a] == align[b]) {
          twinPrev[a] = b;
          break;
        }
  }

  /// The sum of the sizes of the buffers live in each section.
  std::vector<int64_t> sectionTotals() const {
    std::vector<int64_t> totals(numSections, 0);
    for (int32_t k = 0; k < m; ++k)
      for (int32_t t = first[k]; t < last[k]; ++t)
        totals[t] += size[k];
    return totals;
  }

  std::vector<int32_t> members;
  int32_t m = 0;
  int32_t numSections = 0;
  std::vector<int64_t> size, align;
  std::vector<int32_t> first, last;
  std::vector<int32_t> adjBegin, adjItems, twinPrev;
  std::vector<int32_t> coverBegin, coverItems;
};

/// Exact search over one independent part of the problem, MiniMalloc-style.
class ComponentSearch : private ComponentLayout {
public:
  enum class Status { Found, Infeasible, OutOfBudget };

  ComponentSearch(const Problem &p, const std::vector<int32_t> &memberList)
      : ComponentLayout(p, memberList), problem(p) {}

  /// Searches for a placement with every padded top <= capacity, taking at
  /// most `workBudget` steps (each placement costs the sections and
  /// neighbours it updates, so failing placements count too) and stopping at
  /// `deadline`. `heuristicIn` selects the static preorder that breaks ties
  /// between equal lowest offsets. Adds its counts to `stats`.
  Status solve(int64_t capacity, int heuristicIn, uint64_t workBudget,
               Clock::time_point deadlineIn, SearchStats &stats,
               const std::atomic<uint64_t> *limitIn = nullptr) {
    deadline = deadlineIn;
    limit = limitIn;
    cap = capacity;
    budget = workBudget;
    stopped = false;
    nodes = work = 0;
    statsOut = &stats;
    heuristic = heuristicIn;
    floor.assign(numSections, 0);
    total = sectionTotals();
    cuts.assign(numSections, 0);
    for (int32_t k = 0; k < m; ++k)
      for (int32_t t = first[k]; t + 1 < last[k]; ++t)
        ++cuts[t];
    minOff.assign(m, 0);
    off.assign(m, -1);
    trail.clear();
    levels.assign(2 * m + 4, {});
    stamp.assign(numSections, 0);
    stampNow = 0;
    for (int32_t k = 0; k < m; ++k)
      if (size[k] > cap)
        return Status::Infeasible;
    for (int32_t s = 0; s < numSections; ++s)
      if (total[s] > cap)
        return Status::Infeasible;
    std::vector<Item> all;
    for (int32_t k = 0; k < m; ++k)
      all.push_back({0, 0, k});
    preorder(all);
    Status st = dfs(all, 0, numSections, 0, -1, 0);
    stats.nodes += nodes;
    stats.work += work;
    return st;
  }

  /// The plan of the last successful solve(), per member.
  const std::vector<int64_t> &offsets() const { return off; }
  int64_t arena() const {
    int64_t a = 0;
    for (int32_t k = 0; k < m; ++k)
      a = std::max(a, off[k] + size[k]);
    return a;
  }
  const std::vector<int32_t> &memberIds() const { return members; }
  size_t numMembers() const { return members.size(); }
  /// The work of the last solve() so far.
  uint64_t workCount() const { return work; }
  /// What one node costs at least (its partition and sections are scanned).
  uint64_t stepsPerNode() const { return m + numSections; }

private:
  /// An unplaced buffer in a node's candidate order: by lowest offset, then
  /// by static rank.
  struct Item {
    int64_t offset;
    int32_t rank;
    int32_t k;
    bool operator<(const Item &o) const {
      return offset != o.offset ? offset < o.offset : rank < o.rank;
    }
  };

  void save(int64_t &slot) { trail.emplace_back(&slot, slot); }
  void undoTo(size_t mark) {
    while (trail.size() > mark) {
      *trail.back().first = trail.back().second;
      trail.pop_back();
    }
  }

  /// Sorts the unplaced `items` of a partition into the static preorder of
  /// `heuristic` (MiniMalloc's "WAT", "TAW", "TWA": W lifetime, A area, T
  /// the largest unplaced total over the buffer's sections; all decreasing,
  /// ties by index) and numbers them by it. As in MiniMalloc, a partition
  /// split off during the search is ranked on the totals left at that point.
  void preorder(std::vector<Item> &items) {
    auto key = [&](int32_t k) {
      long double w = static_cast<long double>(problem.length[members[k]]);
      long double a = w * static_cast<long double>(size[k]);
      int64_t most = 0;
      work += last[k] - first[k];
      for (int32_t s = first[k]; s < last[k]; ++s)
        most = std::max(most, total[s]);
      long double t = static_cast<long double>(most);
      switch (heuristic % 3) {
      case 0:
        return std::make_tuple(-w, -a, -t, k);
      case 1:
        return std::make_tuple(-t, -a, -w, k);
      default:
        return std::make_tuple(-t, -w, -a, k);
      }
    };
    std::vector<std::pair<
        std::tuple<long double, long double, long double, int32_t>, int32_t>>
        keyed;
    keyed.reserve(items.size());
    for (const Item &it : items)
      keyed.emplace_back(key(it.k), it.k);
    std::sort(keyed.begin(), keyed.end());
    for (size_t r = 0; r < keyed.size(); ++r)
      items[r] = {minOff[keyed[r].second], static_cast<int32_t>(r),
                  keyed[r].second};
    // The search expects them by (lowest offset, rank).
    std::sort(items.begin(), items.end());
    work += 4 * items.size() * (1 + log2Ceil(items.size()));
  }

  /// Places `b` at `at`; every change goes on the trail. Returns false when
  /// an affected section provably cannot be completed under the capacity.
  bool place(int32_t b, int64_t at, bool &hatless) {
    int64_t top = at + size[b];
    work += (last[b] - first[b]) + (adjBegin[b + 1] - adjBegin[b]);
    save(off[b]);
    off[b] = at;
    bool ok = top <= cap;
    for (int32_t s = first[b]; s < last[b]; ++s) {
      save(floor[s]);
      floor[s] = top;
      save(total[s]);
      total[s] -= size[b];
      if (top > cap - total[s])
        ok = false;
      if (s + 1 < last[b]) {
        save(cuts[s]);
        --cuts[s];
      }
    }
    ++stampNow;
    for (int32_t k = adjBegin[b], ke = adjBegin[b + 1]; k < ke; ++k) {
      int32_t c = adjItems[k];
      if (off[c] >= 0)
        continue;
      hatless = false;
      if (minOff[c] >= top)
        continue;
      int64_t mask = align[c] - 1;
      save(minOff[c]);
      minOff[c] = (top + mask) & ~mask;
      if (minOff[c] > cap - size[c])
        ok = false;
      // Only a section whose floor is below c's new lowest offset can rise.
      for (int32_t s = first[c]; s < last[c]; ++s)
        if (stamp[s] != stampNow && minOff[c] > floor[s]) {
          stamp[s] = stampNow;
          touched.push_back(s);
        }
    }
    // A section's floor is at least the lowest offset of its unplaced
    // buffers; inference: floor + unplaced sizes fit under the capacity.
    for (int32_t s : touched) {
      int64_t lowest = kInf, fl = floor[s];
      int32_t k = coverBegin[s], ke = coverBegin[s + 1];
      for (; k < ke; ++k) {
        int32_t c = coverItems[k];
        if (off[c] < 0 && minOff[c] < lowest) {
          lowest = minOff[c];
          if (lowest <= fl)
            break; // no rise
        }
      }
      work += (k < ke ? k + 1 : ke) - coverBegin[s]; // entries scanned
      if (lowest != kInf && lowest > fl) {
        save(floor[s]);
        floor[s] = lowest;
      }
      if (floor[s] > cap - total[s])
        ok = false;
    }
    touched.clear();
    return ok;
  }

  /// Every section of [lo, hi) still fits: offsets only grow along a path,
  /// so each section's floor is at least `at`.
  bool check(int32_t lo, int32_t hi, int64_t at) const {
    for (int32_t s = lo; s < hi; ++s)
      if (std::max(at, floor[s]) > cap - total[s])
        return false;
    return true;
  }

  /// Solves the unplaced buffers in `parent` (a partition spanning sections
  /// [lo, hi)); placements are canonical: non-decreasing (offset, rank)
  /// after (lastOff, lastRank).
  Status dfs(const std::vector<Item> &parent, int32_t lo, int32_t hi,
             int64_t lastOff, int32_t lastRank, int depth) {
    ++nodes;
    work += parent.size() + (hi - lo);
    if (work > budget ||
        (limit && work > limit->load(std::memory_order_relaxed)) ||
        ((nodes & 15) == 0 && Clock::now() > deadline)) {
      stopped = true;
      return Status::OutOfBudget;
    }
    // Each level places one buffer, so depth <= m (levels is never resized
    // during a search: callers hold references into it).
    std::vector<Item> &order = levels[depth];
    order.clear();
    for (const Item &it : parent)
      if (off[it.k] < 0)
        order.push_back({minOff[it.k], it.rank, it.k});
    if (order.empty())
      return Status::Found;
    // The parent's order is nearly sorted: insertion sort.
    for (size_t i = 1; i < order.size(); ++i) {
      Item x = order[i];
      size_t j = i;
      while (j > 0 && x < order[j - 1]) {
        order[j] = order[j - 1];
        --j;
      }
      work += i - j;
      order[j] = x;
    }
    // Dominance: placing a buffer at or above the lowest top any unplaced
    // buffer can reach leaves a gap that buffer could fill instead.
    int64_t minHeight = kInf;
    for (const Item &it : order)
      minHeight = std::min(minHeight, it.offset + size[it.k]);
    // Inference is incremental: place() checks floor + unplaced sizes on the
    // sections it changes. What remains is that every later buffer sits at
    // or above the candidate's offset: offset + unplaced sizes must fit in
    // every section. Totals only shrink, so with the node's largest total
    // most candidates pass without a scan.
    int64_t largestTotal = 0;
    for (int32_t s = lo; s < hi; ++s)
      largestTotal = std::max(largestTotal, total[s]);
    for (size_t i = 0; i < order.size(); ++i) {
      Item it = order[i];
      if (it.offset >= minHeight)
        break;
      if (it.offset < lastOff || (it.offset == lastOff && it.rank < lastRank))
        continue;
      if (it.offset + size[it.k] > cap)
        continue;
      int32_t b = it.k;
      if (twinPrev[b] >= 0 && off[twinPrev[b]] < 0)
        continue;
      size_t mark = trail.size();
      Status st = Status::Infeasible;
      bool hatless = true;
      if (place(b, it.offset, hatless) &&
          (it.offset <= cap - largestTotal || check(lo, hi, it.offset)))
        st = decompose(order, lo, hi, it, b, depth);
      else
        ++statsOut->cutoffs;
      if (st == Status::Found)
        return st;
      undoTo(mark);
      if (st == Status::OutOfBudget)
        return st;
      // Nothing unplaced overlaps `b`: it constrains no other buffer, so if
      // the rest fails with `b` here it fails with `b` anywhere higher and
      // with any other buffer here (MiniMalloc's hatless pruning).
      if (hatless)
        break;
    }
    ++statsOut->backtracks;
    return Status::Infeasible;
  }

  /// After placing `b`: if some section boundary inside its lifetime is no
  /// longer crossed by an unplaced buffer, the parts are independent and are
  /// solved one after the other (each restarting the canonical order).
  Status decompose(const std::vector<Item> &order, int32_t lo, int32_t hi,
                   const Item &placedItem, int32_t b, int depth) {
    std::vector<int32_t> cutpoints;
    for (int32_t s = std::max(first[b], lo); s + 1 < last[b] && s + 1 < hi; ++s)
      if (cuts[s] == 0)
        cutpoints.push_back(s + 1);
    if (cutpoints.empty())
      return dfs(order, lo, hi, placedItem.offset, placedItem.rank, depth + 1);
    ++statsOut->decompositions;
    cutpoints.insert(cutpoints.begin(), lo);
    cutpoints.push_back(hi);
    std::vector<Item> sub;
    for (size_t c = 1; c < cutpoints.size(); ++c) {
      int32_t sLo = cutpoints[c - 1], sHi = cutpoints[c];
      sub.clear();
      work += order.size();
      for (const Item &it : order)
        if (off[it.k] < 0 && first[it.k] < sHi && sLo < last[it.k])
          sub.push_back(it);
      if (sub.empty())
        continue;
      preorder(sub);
      Status st = dfs(sub, sLo, sHi, 0, -1, depth + 1);
      if (st != Status::Found)
        return st; // the caller undoes the parts already placed
    }
    return Status::Found;
  }

  const Problem &problem;

  // Search state; every mutable slot is restored through the trail.
  Clock::time_point deadline;
  int64_t cap = 0;
  uint64_t budget = 0, nodes = 0, work = 0;
  SearchStats *statsOut = nullptr;
  const std::atomic<uint64_t> *limit = nullptr; ///< lowered by other threads
  bool stopped = false;
  int heuristic = 0;
  std::vector<int64_t> floor, total, cuts, minOff, off;
  std::vector<std::pair<int64_t *, int64_t>> trail;
  std::vector<std::vector<Item>> levels;
  std::vector<int32_t> stamp, touched;
  int32_t stampNow = 0;
};

/// How a search run picks among the lowest sections and orders candidates.
struct SearchConfig {
  /// 0: least slack first, 1: leftmost, 2: fewest candidates first.
  int holeRule = 2;
  /// Candidate order: 0 size, 1 lifetime, 2 area (all decreasing).
  int candidateOrder = 0;
};

/// The hole-directed search (see docs/planner.md): one member of the restart
/// portfolio; its runs either succeed within a few million steps or not at
/// all, and it solves some instances the canonical search finds hard.
class HoleSearch : private ComponentLayout {
public:
  enum class Status { Found, Infeasible, OutOfBudget };

  HoleSearch(const Problem &p, const std::vector<int32_t> &memberList)
      : ComponentLayout(p, memberList), problem(p) {}

  /// Searches for a placement with every padded top <= capacity, taking at
  /// most `workBudget` steps and stopping at `deadline`. Adds its counts to
  /// `stats`.
  Status solve(int64_t capacity, const SearchConfig &config,
               uint64_t workBudget, Clock::time_point deadlineIn,
               SearchStats &stats,
               const std::atomic<uint64_t> *limitIn = nullptr) {
    deadline = deadlineIn;
    limit = limitIn;
    cap = capacity;
    holeRule = config.holeRule;
    budget = workBudget;
    stopped = false;
    deadEnd = false;
    nodes = 0;
    work = 0;
    // Candidate order within each section's list.
    std::vector<int32_t> rank(m);
    {
      std::vector<int32_t> perm(m);
      std::iota(perm.begin(), perm.end(), 0);
      auto key = [&](int32_t k) {
        long double len = static_cast<long double>(problem.length[members[k]]);
        long double sz = static_cast<long double>(size[k]);
        long double primary = config.candidateOrder == 0   ? sz
                              : config.candidateOrder == 1 ? len
                                                           : len * sz;
        long double secondary = config.candidateOrder == 0 ? len : sz;
        return std::make_tuple(-primary, -secondary, first[k], k);
      };
      std::sort(perm.begin(), perm.end(),
                [&](int32_t a, int32_t b) { return key(a) < key(b); });
      for (int32_t r = 0; r < m; ++r)
        rank[perm[r]] = r;
      std::vector<int32_t> fill(coverBegin.begin(), coverBegin.end() - 1);
      for (int32_t r = 0; r < m; ++r) {
        int32_t k = perm[r];
        for (int32_t t = first[k]; t < last[k]; ++t)
          coverItems[fill[t]++] = k;
      }
    }
    floor.assign(numSections, 0);
    rem = sectionTotals();
    pos.assign(m, 0);
    off.assign(m, -1);
    placed.assign(m, 0);
    maxTop = 0;
    trail.clear();
    for (int32_t k = 0; k < m; ++k)
      if (size[k] > cap)
        return Status::Infeasible;
    bool found = dfs(0, numSections);
    stats.nodes += nodes;
    stats.holeNodes += nodes;
    stats.work += work;
    if (found)
      return Status::Found;
    return stopped ? Status::OutOfBudget : Status::Infeasible;
  }

  /// The plan of the last successful solve(), per member.
  const std::vector<int64_t> &offsets() const { return off; }
  int64_t arena() const { return maxTop; }
  const std::vector<int32_t> &memberIds() const { return members; }

private:
  void save(int64_t &slot) { trail.emplace_back(&slot, slot); }
  void undoTo(size_t mark) {
    while (trail.size() > mark) {
      *trail.back().first = trail.back().second;
      trail.pop_back();
    }
  }

  /// Raises the lowest position of unplaced `c` to `level` (aligned);
  /// flags a dead end when `c` can no longer fit under the capacity.
  void raisePosition(int32_t c, int64_t level) {
    int64_t mask = align[c] - 1;
    int64_t aligned = level >= kInf - mask ? kInf : (level + mask) & ~mask;
    if (aligned > pos[c]) {
      save(pos[c]);
      pos[c] = aligned;
      if (aligned > cap - size[c])
        deadEnd = true;
    }
  }

  /// Places `b` at its position; every change goes on the trail.
  void place(int32_t b) {
    int64_t at = pos[b];
    int64_t top = at + size[b];
    if (top > maxTop) {
      save(maxTop);
      maxTop = top;
    }
    for (int32_t s = first[b]; s < last[b]; ++s) {
      save(floor[s]);
      floor[s] = top;
      save(rem[s]);
      rem[s] -= size[b];
    }
    for (int32_t k = adjBegin[b], ke = adjBegin[b + 1]; k < ke; ++k) {
      int32_t c = adjItems[k];
      if (!placed[c])
        raisePosition(c, top);
    }
    save(placed[b]);
    placed[b] = 1;
    off[b] = at;
  }

  /// The lowest offset unplaced buffer `c` can take if not its current
  /// position: in a compacted plan it then rests on an unplaced neighbour.
  int64_t nextPosition(int32_t c) const {
    int64_t next = kInf;
    for (int32_t k = adjBegin[c], ke = adjBegin[c + 1]; k < ke; ++k) {
      int32_t d = adjItems[k];
      if (!placed[d])
        next = std::min(next, pos[d] + size[d]);
    }
    if (next == kInf)
      return kInf;
    int64_t mask = align[c] - 1;
    return std::max((next + mask) & ~mask, pos[c] + 1);
  }

  /// Solves sections [lo, hi): true when every buffer live there is placed
  /// (the placement is kept), false on failure (state restored) or when
  /// out of budget (`stopped`).
  bool dfs(int32_t lo, int32_t hi) {
    ++nodes;
    work += hi - lo;
    if (work > budget ||
        (limit && work > limit->load(std::memory_order_relaxed)) ||
        ((nodes & 15) == 0 && Clock::now() > deadline)) {
      stopped = true;
      return false;
    }
    if (maxTop > cap || deadEnd)
      return false;
    // Section inference; split into runs of sections with unplaced buffers
    // (no unplaced buffer crosses a fully placed section, so runs are
    // independent).
    int32_t runs = 0, runLo = -1;
    int32_t hole = -1;
    int64_t holeFloor = kInf, holeKey = kInf;
    for (int32_t s = lo; s < hi; ++s) {
      if (rem[s] == 0)
        continue;
      if (s == lo || rem[s - 1] == 0) {
        ++runs;
        if (runs == 1)
          runLo = s;
      }
      int64_t slack = cap - floor[s] - rem[s];
      if (slack < 0)
        return false;
      {
        // For every threshold p, the unplaced buffers of the section whose
        // position is at least p fit between p and the capacity.
        scratch.clear();
        for (int32_t k = coverBegin[s], ke = coverBegin[s + 1]; k < ke; ++k)
          if (!placed[coverItems[k]])
            scratch.emplace_back(pos[coverItems[k]], size[coverItems[k]]);
        std::sort(scratch.begin(), scratch.end());
        // The scan and the sort, in the canonical search's steps.
        work += coverBegin[s + 1] - coverBegin[s] +
                scratch.size() * (2 + log2Ceil(scratch.size()));
        int64_t above = 0;
        for (size_t k = scratch.size(); k-- > 0;) {
          above += scratch[k].second;
          if (scratch[k].first > cap - above)
            return false;
        }
      }
      if (floor[s] > holeFloor)
        continue;
      int64_t key = slack;
      if (holeRule == 1) {
        key = s;
      } else if (holeRule == 2) {
        int64_t count = 0;
        for (int32_t k = coverBegin[s], ke = coverBegin[s + 1]; k < ke; ++k)
          if (!placed[coverItems[k]] && pos[coverItems[k]] == floor[s])
            ++count;
        key = count * (int64_t(1) << 40) + std::min(slack, int64_t(1) << 39);
      }
      if (floor[s] < holeFloor || key < holeKey) {
        hole = s;
        holeFloor = floor[s];
        holeKey = key;
      }
    }
    if (runs == 0)
      return true;
    if (runs > 1) {
      // Temporal decomposition: solve the runs one after the other; a
      // failure in one cannot be repaired by another.
      size_t mark = trail.size();
      int32_t s = runLo;
      while (s < hi) {
        int32_t e = s;
        while (e < hi && rem[e] != 0)
          ++e;
        if (!dfs(s, e)) {
          undoTo(mark);
          return false;
        }
        s = e;
        while (s < hi && rem[s] == 0)
          ++s;
      }
      return true;
    }
    // Branch 1: some buffer live in the hole's section sits at its floor.
    for (int32_t k = coverBegin[hole], ke = coverBegin[hole + 1]; k < ke; ++k) {
      int32_t b = coverItems[k];
      if (placed[b] || pos[b] != holeFloor || pos[b] + size[b] > cap)
        continue;
      if (twinPrev[b] >= 0 && !placed[twinPrev[b]])
        continue;
      size_t mark = trail.size();
      place(b);
      if (dfs(lo, hi))
        return true;
      undoTo(mark);
      deadEnd = false;
      if (stopped)
        return false;
      // Every completion with `b` at this floor has been explored: in the
      // remaining branches it sits higher, on a neighbour still unplaced.
      raisePosition(b, nextPosition(b));
      if (deadEnd) {
        deadEnd = false;
        return false;
      }
    }
    // Branch 2: nothing ever sits at the hole's floor; raise it to the
    // lowest offset any of its buffers can still take.
    int64_t level = kInf;
    for (int32_t k = coverBegin[hole], ke = coverBegin[hole + 1]; k < ke; ++k) {
      int32_t c = coverItems[k];
      if (!placed[c])
        level = std::min(level, pos[c] > holeFloor ? pos[c] : nextPosition(c));
    }
    if (level == kInf || level > cap - rem[hole])
      return false;
    size_t mark = trail.size();
    save(floor[hole]);
    floor[hole] = level;
    for (int32_t k = coverBegin[hole], ke = coverBegin[hole + 1]; k < ke; ++k) {
      int32_t c = coverItems[k];
      if (!placed[c])
        raisePosition(c, level);
    }
    if (dfs(lo, hi))
      return true;
    undoTo(mark);
    deadEnd = false;
    return false;
  }

  const Problem &problem;

  // Search state; every mutable slot is restored through the trail.
  Clock::time_point deadline;
  int64_t cap = 0;
  int holeRule = 0;
  const std::atomic<uint64_t> *limit = nullptr; ///< lowered by other threads
  uint64_t budget = 0, nodes = 0, work = 0;
  bool stopped = false, deadEnd = false;
  std::vector<std::pair<int64_t, int64_t>> scratch;
  std::vector<int64_t> floor, rem, pos, off, placed;
  int64_t maxTop = 0;
  std::vector<std::pair<int64_t *, int64_t>> trail;
};

/// Splits the buffers at time points no lifetime crosses.
std::vector<std::vector<int32_t>> splitComponents(const Problem &p) {
  std::vector<int32_t> crossing(p.numTimes + 1, 0);
  for (int32_t i = 0; i < p.numBuffers(); ++i) {
    ++crossing[p.start[i] + 1];
    --crossing[p.end[i]];
  }
  std::vector<int32_t> componentOfTime(p.numTimes, 0);
  int32_t c = 0, running = 0;
  for (int32_t t = 0; t < p.numTimes; ++t) {
    running += crossing[t];
    if (t > 0 && running == 0)
      ++c;
    componentOfTime[t] = c;
  }
  std::vector<std::vector<int32_t>> components(c + 1);
  for (int32_t i = 0; i < p.numBuffers(); ++i)
    components[componentOfTime[p.start[i]]].push_back(i);
  components.erase(std::remove_if(components.begin(), components.end(),
                                  [](const auto &v) { return v.empty(); }),
                   components.end());
  return components;
}

} // namespace

namespace {
/// Adds the counters of `from` to `to`.
void addCounts(SearchStats &to, const SearchStats &from) {
  to.nodes += from.nodes;
  to.holeNodes += from.holeNodes;
  to.backtracks += from.backtracks;
  to.cutoffs += from.cutoffs;
  to.decompositions += from.decompositions;
  to.restarts += from.restarts;
  to.work += from.work;
}

/// Solves one component at one capacity with a portfolio after MiniMalloc's
/// round robin. In round r (r = 1, 2, ...) the members take turns in the
/// order hole-directed, WAT, TAW, TWA, each allowed A(r) = 2^(r-1) A(1)
/// steps of work (A(1): MiniMalloc's first budget of 2 n nodes, at the
/// n + sections steps a node costs at least): the hole-directed search as a
/// fresh run with one of its six configurations (they take turns by round),
/// each canonical preorder as its one depth-first search continued up to a
/// total of A(r) (restarting it with the same deterministic preorder would only
/// repeat the nodes it visited). The outcome is the one of the first member, in
/// (round, turn) order, that solves or refutes the capacity.
///
/// The members run in parallel threads instead of turns, each on its own
/// schedule, and a member that finishes lowers the others' limits to what
/// could still beat it in that order (the rounds before its own, and its own
/// round for members that come before it in a round); when all stopped, the
/// first outcome in that order wins. The result is that of the turns, the
/// same on every run; budgets count work, not time (only the deadline
/// depends on timing). The counters (SearchStats) may vary a little: a
/// member may run past its final limit before another member lowers it.
class RestartingSolver {
public:
  RestartingSolver(const Problem &p, const std::vector<int32_t> &members)
      : holes(p, members) {
    for (int h = 0; h < kPreorders; ++h)
      searches.push_back(std::make_unique<ComponentSearch>(p, members));
  }

  /// Stops at `deadline`, or after `maxRounds` rounds (a short try: the
  /// canonical search only).
  ComponentSearch::Status solve(int64_t capacity, Clock::time_point deadline,
                                SearchStats &stats, int maxRounds = 0) {
    const SearchConfig *configs = kConfigs;
    static const char *const preorders[] = {"WAT", "TAW", "TWA"};
    auto allowance = [&](int round) { return roundBudget(round); };
    auto roundOf = [&](uint64_t work) {
      int round = 1;
      while (allowance(round) < work)
        ++round;
      return round;
    };
    auto holeSolved = [&](const SearchConfig &config, int round) {
      offs = holes.offsets();
      arenaSize = holes.arena();
      return "hole-directed (rule " + std::to_string(config.holeRule) +
             ", order " + std::to_string(config.candidateOrder) + ") round " +
             std::to_string(round);
    };
    auto asStatus = [](HoleSearch::Status hs) {
      return hs == HoleSearch::Status::Found ? ComponentSearch::Status::Found
             : hs == HoleSearch::Status::Infeasible
                 ? ComponentSearch::Status::Infeasible
                 : ComponentSearch::Status::OutOfBudget;
    };
    // The first rounds, while cheap, take their turns on this thread, each
    // preorder's search restarted with the larger budget every round: it
    // revisits the nodes of the previous rounds, which costs less than
    // threads there, and the outcome is the same. Small components end here.
    int startRound = 1;
    {
      ComponentSearch &search = *searches[0];
      for (; (maxRounds == 0 || startRound <= maxRounds) &&
             allowance(startRound) < kThreadedSteps;
           ++startRound) {
        int round = startRound;
        for (int turn = maxRounds > 0 ? 1 : 0; turn <= kPreorders; ++turn) {
          if (Clock::now() >= deadline)
            return ComponentSearch::Status::OutOfBudget;
          ++stats.restarts;
          if (turn == 0) {
            const SearchConfig &config = configs[(round - 1) % 6];
            ComponentSearch::Status st = asStatus(holes.solve(
                capacity, config, allowance(round), deadline, stats));
            if (st == ComponentSearch::Status::Found)
              stats.solvedBy = holeSolved(config, round);
            if (st != ComponentSearch::Status::OutOfBudget)
              return st;
            continue;
          }
          ComponentSearch::Status st = search.solve(
              capacity, turn - 1, allowance(round), deadline, stats);
          if (st == ComponentSearch::Status::Found) {
            offs = search.offsets();
            arenaSize = search.arena();
            stats.solvedBy = std::string("canonical ") + preorders[turn - 1] +
                             " round " + std::to_string(round);
          }
          if (st != ComponentSearch::Status::OutOfBudget)
            return st;
        }
      }
      if (maxRounds > 0 && startRound > maxRounds)
        return ComponentSearch::Status::OutOfBudget;
    }
    // The best outcome so far as (round, turn): turn 0 is the hole-directed
    // run, 1 + h canonical preorder h.
    std::mutex mutex;
    std::pair<int, int> best = {std::numeric_limits<int>::max(), 0};
    ComponentSearch::Status outcome = ComponentSearch::Status::OutOfBudget;
    std::atomic<uint64_t> limits[kPreorders];
    std::atomic<uint64_t> holeLimit{UINT64_MAX};
    std::atomic<int> holeRound{0}; // the round of the running hole run
    std::atomic<int> holeRounds{
        maxRounds > 0 ? 0 : std::numeric_limits<int>::max()};
    for (std::atomic<uint64_t> &l : limits)
      l = maxRounds > 0 ? allowance(maxRounds) : UINT64_MAX;
    // Records an outcome of turn `turn` in `round`; lowers the others'
    // limits. Returns true if it is the best so far.
    auto record = [&](int round, int turn, ComponentSearch::Status status) {
      std::lock_guard<std::mutex> lock(mutex);
      if (std::make_pair(round, turn) >= best)
        return false;
      best = {round, turn};
      outcome = status;
      for (int h = 0; h < kPreorders; ++h)
        limits[h] = std::min<uint64_t>(
            limits[h], allowance(1 + h < turn ? round : round - 1));
      // The hole-directed runs come first in a round.
      holeRounds = std::min(holeRounds.load(), round);
      if (holeRound > round)
        holeLimit = 0;
      return true;
    };
    std::vector<SearchStats> own(kPreorders);
    std::vector<std::thread> threads;
    for (int h = 0; h < kPreorders; ++h)
      threads.emplace_back([&, h] {
        ++own[h].restarts;
        ComponentSearch &search = *searches[h];
        ComponentSearch::Status status =
            search.solve(capacity, h, UINT64_MAX, deadline, own[h], &limits[h]);
        if (status != ComponentSearch::Status::OutOfBudget &&
            record(roundOf(search.workCount()), 1 + h, status) &&
            status == ComponentSearch::Status::Found)
          own[h].solvedBy = std::string("canonical ") + preorders[h] +
                            " round " +
                            std::to_string(roundOf(search.workCount()));
      });
    // The hole-directed runs on this thread.
    SearchStats holeStats;
    for (int round = startRound; round <= holeRounds && Clock::now() < deadline;
         ++round) {
      const SearchConfig &config = configs[(round - 1) % 6];
      holeRound = round;
      if (round > holeRounds)
        break;
      ++holeStats.restarts;
      HoleSearch::Status hs = holes.solve(capacity, config, allowance(round),
                                          deadline, holeStats, &holeLimit);
      if (hs == HoleSearch::Status::OutOfBudget)
        continue;
      if (record(round, 0, asStatus(hs)) && hs == HoleSearch::Status::Found)
        holeStats.solvedBy = holeSolved(config, round);
      break;
    }
    for (std::thread &t : threads)
      t.join();
    addCounts(stats, holeStats);
    for (const SearchStats &o : own)
      addCounts(stats, o);
    if (outcome == ComponentSearch::Status::Found) {
      if (best.second == 0) {
        stats.solvedBy = holeStats.solvedBy; // offs set by holeSolved
      } else {
        const ComponentSearch &winner = *searches[best.second - 1];
        offs = winner.offsets();
        arenaSize = winner.arena();
        stats.solvedBy = own[best.second - 1].solvedBy;
      }
    }
    return outcome;
  }

  /// The hole-directed search alone at `capacity`: its configurations take
  /// turns by round with the budgets of solve(), up to round `maxRound` (0:
  /// until the deadline). Among all members it gets a quarter of the
  /// machine; alone it has a core. On Found, offsets() and arena() hold the
  /// plan; `round` is the round that found it.
  ComponentSearch::Status solveHoles(int64_t capacity, int maxRound,
                                     Clock::time_point deadline,
                                     SearchStats &stats, int &round) {
    for (round = 1;
         (maxRound == 0 || round <= maxRound) && Clock::now() < deadline;
         ++round) {
      const SearchConfig &config = kConfigs[(round - 1) % 6];
      ++stats.restarts;
      HoleSearch::Status hs =
          holes.solve(capacity, config, roundBudget(round), deadline, stats);
      if (hs == HoleSearch::Status::OutOfBudget)
        continue;
      if (hs == HoleSearch::Status::Infeasible)
        return ComponentSearch::Status::Infeasible;
      offs = holes.offsets();
      arenaSize = holes.arena();
      stats.solvedBy = "hole-directed alone (rule " +
                       std::to_string(config.holeRule) + ", order " +
                       std::to_string(config.candidateOrder) + ") round " +
                       std::to_string(round);
      return ComponentSearch::Status::Found;
    }
    return ComponentSearch::Status::OutOfBudget;
  }

  const std::vector<int64_t> &offsets() const { return offs; }
  int64_t arena() const { return arenaSize; }
  const std::vector<int32_t> &memberIds() const {
    return searches[0]->memberIds();
  }

private:
  /// The budget of each member in round `round`. MiniMalloc starts at 2n
  /// nodes per preorder; a node scans its partition and sections, so the
  /// first round allows that many steps per node.
  uint64_t roundBudget(int round) const {
    const ComponentSearch &layout = *searches[0];
    uint64_t first =
        2 * layout.stepsPerNode() * std::max<uint64_t>(layout.numMembers(), 64);
    return round <= 0 ? 0 : round >= 40 ? UINT64_MAX / 2 : first << (round - 1);
  }

  static constexpr SearchConfig kConfigs[] = {{2, 0}, {2, 1}, {0, 0},
                                              {2, 2}, {1, 0}, {0, 1}};
  static constexpr int kPreorders = 3;
  /// Rounds whose budget is below this many steps (about half a
  /// millisecond) run on the calling thread.
  static constexpr uint64_t kThreadedSteps = uint64_t(1) << 17;
  std::vector<std::unique_ptr<ComponentSearch>> searches;
  HoleSearch holes;
  std::vector<int64_t> offs;
  int64_t arenaSize = 0;
};
} // namespace

bool mplan::detail::searchExact(const Problem &p, Placement &incumbent,
                                Clock::time_point deadline, int64_t capacity,
                                SearchStats *statsOut) {
  SearchStats scratchStats;
  SearchStats &stats = statsOut ? *statsOut : scratchStats;
  if (incumbent.arena <= p.lowerBound)
    return true;
  // A plan within the given capacity is good enough.
  bool hasCapacity = capacity > 0;
  if (hasCapacity && incumbent.arena <= capacity)
    return false;
  if (Clock::now() >= deadline)
    return false;
  // Only components whose part of the incumbent exceeds the target matter.
  struct Part {
    std::vector<int32_t> members;
    int64_t arena = 0;
    std::unique_ptr<RestartingSolver> solver;
  };
  std::vector<Part> parts;
  for (std::vector<int32_t> &members : splitComponents(p)) {
    int64_t arena = 0;
    for (int32_t i : members)
      arena = std::max(arena, incumbent.offsets[i] + p.size[i]);
    parts.push_back({std::move(members), arena, nullptr});
  }
  auto arenaOf = [&] {
    int64_t a = 0;
    for (const Part &part : parts)
      a = std::max(a, part.arena);
    return a;
  };
  // Tries to fit every part into `capacity`. Returns Found if all fit,
  // Infeasible if one provably does not, OutOfBudget otherwise; the parts that
  // fit keep their new plans.
  auto tryCapacity = [&](int64_t capacity, Clock::time_point until,
                         int maxRounds = 0) {
    ++stats.targets;
    for (Part &part : parts) {
      if (part.arena <= capacity)
        continue;
      if (!part.solver) {
        // Exact search is for instances of the size MiniMalloc targets.
        if (part.members.size() > 4000)
          return ComponentSearch::Status::OutOfBudget;
        part.solver = std::make_unique<RestartingSolver>(p, part.members);
      }
      ComponentSearch::Status st =
          part.solver->solve(capacity, until, stats, maxRounds);
      if (st != ComponentSearch::Status::Found)
        return st;
      const RestartingSolver &s = *part.solver;
      for (size_t j = 0; j < s.memberIds().size(); ++j)
        incumbent.offsets[s.memberIds()[j]] = s.offsets()[j];
      part.arena = s.arena();
    }
    return ComponentSearch::Status::Found;
  };

  // The hole-directed search alone (RestartingSolver::solveHoles) at
  // `capacity`, each part up to round `maxRound` (0: until `until`); sets
  // `maxRound` to the largest round that found a part's plan.
  auto tryHoles = [&](int64_t capacity, Clock::time_point until,
                      int &maxRound) {
    ++stats.targets;
    int limit = maxRound, found = 0;
    for (Part &part : parts) {
      if (part.arena <= capacity)
        continue;
      if (part.members.size() > 4000)
        return ComponentSearch::Status::OutOfBudget;
      if (!part.solver)
        part.solver = std::make_unique<RestartingSolver>(p, part.members);
      int round = 0;
      ComponentSearch::Status st =
          part.solver->solveHoles(capacity, limit, until, stats, round);
      if (st != ComponentSearch::Status::Found)
        return st;
      found = std::max(found, round);
      const RestartingSolver &s = *part.solver;
      for (size_t j = 0; j < s.memberIds().size(); ++j)
        incumbent.offsets[s.memberIds()[j]] = s.offsets()[j];
      part.arena = s.arena();
    }
    maxRound = found;
    return ComponentSearch::Status::Found;
  };

  Clock::time_point begin = Clock::now();
  // Compacting any plan (every buffer moved down until it rests on another
  // one or on 0, aligned) makes every offset and the arena multiples of the
  // gcd of all sizes and alignments: only capacities that are multiples of
  // it need to be tried (the bound is one, a sum of sizes).
  int64_t grain = 0;
  for (int32_t i = 0; i < p.numBuffers(); ++i)
    grain = std::gcd(grain, std::gcd(p.size[i], p.align[i]));
  grain = std::max<int64_t>(grain, 1);
  auto roundDown = [&](int64_t bytes) { return bytes / grain * grain; };
  // 1. The lower bound itself (a plan there is optimal), or the capacity the
  //    caller asked for, with the whole budget.
  int64_t lo = p.lowerBound; // every capacity below `lo` is infeasible
  int64_t target = hasCapacity ? std::max(lo, roundDown(capacity)) : lo;
  ComponentSearch::Status st = ComponentSearch::Status::OutOfBudget;
  if (target > lo) {
    // One short round at the bound first (the canonical preorders at the
    // first budget): tight capacities prune far more, and a plan there fits
    // the capacity too.
    st = tryCapacity(lo, deadline, 1);
    if (st == ComponentSearch::Status::Found) {
      incumbent.arena = arenaOf();
      return true;
    }
    if (st == ComponentSearch::Status::Infeasible)
      lo = lo + grain;
  }
  st = tryCapacity(target,
                   hasCapacity ? deadline : begin + (deadline - begin) / 2);
  if (st == ComponentSearch::Status::Found && target > lo) {
    incumbent.arena = arenaOf();
    return false;
  }
  if (st == ComponentSearch::Status::Infeasible)
    lo = target + grain;
  // 2. Between the best lower bound and the best plan, in turns: steps down
  //    from the best plan, each with an eighth of the time left and growing
  //    while they succeed (loose capacities have many solutions and are
  //    quick); after a step ran out of time, deep targets between the soft
  //    low end and the best plan (a third of the way down after a deep
  //    target was reached, else in the middle), each with a third of the
  //    time left, tried by the hole-directed search alone (among all members
  //    it gets a quarter of the machine, alone a core; after it reached a
  //    target, up to the round that did, so that a miss costs no more than a
  //    hit) or by all members. The way that reached a deep target goes on
  //    and tries once more after its first miss; after both ways missed,
  //    steps again.
  enum Mode { Step, Holes, All };
  auto other = [](Mode m) { return m == Holes ? All : Holes; };
  int64_t guess = lo; // soft low end: deep targets at or below it ran out
  int64_t step = 0;
  Mode mode = Step, hitBy = Step;
  Mode queued[2];     // the deep tries after a miss
  int numQueued = 0;  // ... taken from the back
  bool fresh = false; // no miss since the last deep target was reached
  int holeRounds = 0; // the round of the last plan of the holes alone
  bool opening = true;
  while (st != ComponentSearch::Status::Found && Clock::now() < deadline) {
    int64_t hi = arenaOf();
    if (lo >= hi || guess >= hi)
      break;
    if (opening) {
      // First an aggressive target a quarter of the way up from the soft low
      // end with all members and a third of the time left: from a greedy
      // plan, plans there are often found at once and shrink `hi` a lot.
      opening = false;
      int64_t capacity =
          roundDown(std::clamp(guess + (hi - guess) / 4, lo, hi - 1));
      Clock::time_point now = Clock::now();
      ComponentSearch::Status s =
          tryCapacity(capacity, now + (deadline - now) / 3);
      if (s == ComponentSearch::Status::Infeasible)
        lo = capacity + grain;
      else if (s == ComponentSearch::Status::OutOfBudget)
        guess = capacity + grain;
      continue;
    }
    if (step == 0)
      step = std::max<int64_t>(grain, (hi - lo) / 32);
    int64_t down = mode == Step ? std::min(step, hi - guess - (hi - guess) / 4)
                   : fresh      ? (hi - guess) / 3
                                : (hi - guess) / 2;
    // lo is a multiple of the grain, so this stays in [lo, hi).
    int64_t capacity = roundDown(std::clamp(hi - down, lo, hi - 1));
    Clock::time_point now = Clock::now();
    // The holes alone after a hit are bounded by its round instead.
    Clock::time_point until =
        mode == Holes && holeRounds > 0
            ? deadline
            : now + (deadline - now) / (mode == Step ? 8 : 3);
    int rounds = holeRounds;
    ComponentSearch::Status s = mode == Holes
                                    ? tryHoles(capacity, until, rounds)
                                    : tryCapacity(capacity, until);
    if (s == ComponentSearch::Status::Infeasible) {
      lo = capacity + grain;
      continue;
    }
    if (s == ComponentSearch::Status::Found) {
      if (arenaOf() <= guess) // below the soft low end: it was too high
        guess = lo;
      if (mode == Step) {
        step *= 2;
      } else {
        fresh = true;
        hitBy = mode;
        numQueued = 0;
        if (mode == Holes)
          holeRounds = rounds;
      }
      continue;
    }
    if (mode == Step) {
      Mode first = hitBy == All ? All : Holes;
      queued[1] = first;
      queued[0] = other(first);
      numQueued = 2;
    } else {
      guess = std::max(guess, capacity + grain);
      if (fresh) {
        queued[1] = mode;
        queued[0] = other(mode);
        numQueued = 2;
        fresh = false;
      }
    }
    mode = numQueued > 0 ? queued[--numQueued] : Step;
    if (mode == Step)
      step = 0;
  }
  incumbent.arena = arenaOf();
  return incumbent.arena <= lo;
}
