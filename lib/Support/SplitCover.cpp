//===- SplitCover.cpp - Least-cost live-range splits under a capacity -----===//
//
// Branch and bound over the covering rows: each row asks that the candidates
// covering it free at least its need (the bytes above the target at a
// stretch of points with one set of covering candidates, or at a taken
// candidate's own late point). The search branches on the row still short
// with the fewest candidates open, over them by cost per byte (take the k-th,
// exclude the ones before it), and prunes a node where a short row cannot be
// covered or its cheapest completion does not beat the best. Taking a
// candidate takes its prerequisites with it.
//
//===----------------------------------------------------------------------===//

#include "mplan/Support/SplitCover.h"

#include "mplan/Support/CheckedMath.h"

#include <algorithm>
#include <limits>

using namespace mplan;

namespace {
struct Row {
  int64_t need = 0;
  std::vector<size_t> candidates;
  /// A late row counts only while its owner is taken (npos: a point row).
  size_t owner = static_cast<size_t>(-1);
};

class Search {
public:
  Search(const CoverProblem &problem, int64_t workLimit, int64_t &work)
      : problem(problem), workLimit(workLimit), work(work) {}

  std::optional<CoverResult> run();

private:
  bool buildRows();
  void dfs(int64_t cost);
  /// Whether `c` may still be taken (with its prerequisites).
  bool isOpen(size_t c) const {
    if (taken[c] || bans[c])
      return false;
    size_t p = prerequisiteOf(c);
    return p == static_cast<size_t>(-1) || taken[p] || !bans[p];
  }
  void take(size_t c, std::vector<size_t> &banned);
  /// Takes `c` with its prerequisites not taken yet (those first), listing
  /// them in `took` and what they ban in `banned` (both empty before); false,
  /// with nothing taken, when one of them is banned.
  bool takeWithPrerequisites(size_t c, std::vector<size_t> &took,
                             std::vector<size_t> &banned);
  void untake(std::vector<size_t> &took, std::vector<size_t> &banned);
  /// The cost of `c` with its prerequisites not taken yet.
  int64_t costWithPrerequisites(size_t c) const;
  /// The prerequisite of `c`, or npos.
  size_t prerequisiteOf(size_t c) const {
    int64_t p = problem.candidates[c].prerequisite;
    return p < 0 ? static_cast<size_t>(-1) : static_cast<size_t>(p);
  }
  bool active(const Row &row) const {
    return row.owner == static_cast<size_t>(-1) || taken[row.owner];
  }

  /// Solves the rows of one component (`rows`) within `limit`.
  bool solveComponent();

  const CoverProblem &problem;
  int64_t workLimit;
  int64_t &work;
  /// The steps the current component may take up to.
  int64_t limit = 0;
  /// Every row, then those of the component being solved.
  std::vector<Row> allRows, rows;
  std::vector<std::vector<size_t>> groupMembers;
  /// The candidates each one conflicts with.
  std::vector<std::vector<size_t>> conflictsOf;
  std::vector<std::vector<size_t>> rowsOf;
  std::vector<int64_t> covered;
  std::vector<char> taken;
  std::vector<int> bans;
  int64_t best = std::numeric_limits<int64_t>::max();
  std::vector<size_t> bestSet;
  bool outOfWork = false;
  /// The candidates taken on the current branch: the search recurses once
  /// per taken candidate, and stops as out of work past kMaxDepth (a cover
  /// of that many splits would overflow the stack first).
  size_t depth = 0;
  static constexpr size_t kMaxDepth = 10000;
};
} // namespace

bool Search::buildRows() {
  const std::vector<CoverCandidate> &cands = problem.candidates;
  size_t n = problem.live.size();
  std::vector<std::vector<size_t>> startsAt(n + 1), endsAt(n + 1);
  for (size_t c = 0; c < cands.size(); ++c) {
    const CoverCandidate &cand = cands[c];
    if (cand.bytes <= 0 || cand.cost < 0 || cand.from < 0 ||
        cand.from >= cand.to)
      continue;
    size_t from = std::min<size_t>(cand.from, n);
    size_t to = std::min<size_t>(cand.to, n);
    startsAt[from].push_back(c);
    endsAt[to].push_back(c);
  }
  // Point rows: one per stretch of points with one set of covering
  // candidates, needing the most any of its points is above the target.
  std::vector<size_t> activeSet;
  Row current;
  bool open = false;
  auto close = [&] {
    if (open && current.need > 0) {
      current.candidates = activeSet;
      allRows.push_back(current);
    }
    open = false;
    current = Row();
  };
  for (size_t i = 0; i < n; ++i) {
    if (!startsAt[i].empty() || !endsAt[i].empty()) {
      close();
      for (size_t c : endsAt[i])
        activeSet.erase(std::find(activeSet.begin(), activeSet.end(), c));
      activeSet.insert(activeSet.end(), startsAt[i].begin(), startsAt[i].end());
      work += static_cast<int64_t>(activeSet.size());
    }
    open = true;
    current.need = std::max(current.need, problem.live[i] - problem.target);
    ++work;
    if (work > workLimit)
      return false;
  }
  close();
  // Late rows: a taken candidate's own point right before its `to`.
  for (size_t c = 0; c < cands.size(); ++c) {
    int64_t need = cands[c].lateBytes - problem.target;
    if (need <= 0)
      continue;
    Row late;
    late.need = need;
    late.owner = c;
    for (size_t d = 0; d < cands.size(); ++d)
      if (d != c && cands[d].bytes > 0 &&
          lowersLatePoint(cands[d], cands[c].to))
        late.candidates.push_back(d);
    work += static_cast<int64_t>(cands.size());
    allRows.push_back(std::move(late));
    if (work > workLimit)
      return false;
  }
  return true;
}

void Search::take(size_t c, std::vector<size_t> &banned) {
  taken[c] = 1;
  for (size_t r : rowsOf[c])
    covered[r] += problem.candidates[c].bytes;
  for (size_t d : conflictsOf[c]) {
    ++bans[d];
    banned.push_back(d);
  }
  int64_t group = problem.candidates[c].group;
  if (group < 0)
    return;
  for (size_t d : groupMembers[group])
    if (d != c) {
      ++bans[d];
      banned.push_back(d);
    }
}

bool Search::takeWithPrerequisites(size_t c, std::vector<size_t> &took,
                                   std::vector<size_t> &banned) {
  std::vector<size_t> chain;
  for (size_t d = c; d != static_cast<size_t>(-1) && !taken[d];
       d = prerequisiteOf(d)) {
    if (std::find(chain.begin(), chain.end(), d) != chain.end())
      return false;
    chain.push_back(d);
  }
  for (auto it = chain.rbegin(); it != chain.rend(); ++it) {
    if (bans[*it]) {
      untake(took, banned);
      return false;
    }
    take(*it, banned);
    took.push_back(*it);
  }
  return true;
}

int64_t Search::costWithPrerequisites(size_t c) const {
  int64_t cost = 0;
  size_t steps = 0;
  for (size_t d = c; d != static_cast<size_t>(-1) && !taken[d] &&
                     steps <= problem.candidates.size();
       d = prerequisiteOf(d), ++steps)
    cost = checkedAdd(cost, problem.candidates[d].cost)
               .value_or(std::numeric_limits<int64_t>::max());
  return cost;
}

void Search::untake(std::vector<size_t> &took, std::vector<size_t> &banned) {
  for (size_t c : took) {
    taken[c] = 0;
    for (size_t r : rowsOf[c])
      covered[r] -= problem.candidates[c].bytes;
  }
  took.clear();
  for (size_t d : banned)
    --bans[d];
  banned.clear();
}

/// Every row is looked at in every node: a candidate taken for one row may
/// make a late row count.
void Search::dfs(int64_t cost) {
  if (outOfWork || cost >= best)
    return;
  if (++work > limit || depth > kMaxDepth) {
    outOfWork = true;
    return;
  }
  // Every row still short must be coverable by its open candidates, and
  // its cheapest completion must beat the best; the search branches on the
  // one with the fewest open candidates (then the largest residual).
  const Row *row = nullptr;
  size_t rowIndex = 0, fewest = std::numeric_limits<size_t>::max();
  int64_t residual = 0;
  for (size_t r = 0; r < rows.size(); ++r) {
    ++work;
    if (!active(rows[r]) || covered[r] >= rows[r].need)
      continue;
    int64_t need = rows[r].need - covered[r];
    int64_t room = 0;
    size_t count = 0;
    double ratio = std::numeric_limits<double>::max();
    for (size_t c : rows[r].candidates) {
      ++work;
      if (!isOpen(c))
        continue;
      ++count;
      const CoverCandidate &cand = problem.candidates[c];
      room = checkedAdd(room, cand.bytes)
                 .value_or(std::numeric_limits<int64_t>::max());
      ratio = std::min(ratio, static_cast<double>(cand.cost) /
                                  static_cast<double>(cand.bytes));
    }
    if (room < need ||
        static_cast<double>(cost) + ratio * static_cast<double>(need) >=
            static_cast<double>(best))
      return;
    if (count < fewest || (count == fewest && need > residual)) {
      fewest = count;
      row = &rows[r];
      rowIndex = r;
      residual = need;
    }
  }
  if (!row) {
    best = cost;
    bestSet.clear();
    for (size_t c = 0; c < taken.size(); ++c)
      if (taken[c])
        bestSet.push_back(c);
    return;
  }
  // Its open candidates, cheapest per byte first.
  std::vector<size_t> open;
  for (size_t c : row->candidates)
    if (isOpen(c))
      open.push_back(c);
  std::stable_sort(open.begin(), open.end(), [&](size_t a, size_t b) {
    const CoverCandidate &x = problem.candidates[a];
    const CoverCandidate &y = problem.candidates[b];
    double lhs = static_cast<double>(costWithPrerequisites(a)) /
                 static_cast<double>(std::min(x.bytes, residual));
    double rhs = static_cast<double>(costWithPrerequisites(b)) /
                 static_cast<double>(std::min(y.bytes, residual));
    if (lhs != rhs)
      return lhs < rhs;
    return x.to - x.from > y.to - y.from;
  });
  std::vector<size_t> excluded, banned, took;
  for (size_t c : open) {
    if (bans[c])
      continue;
    int64_t added = costWithPrerequisites(c);
    if (!takeWithPrerequisites(c, took, banned))
      continue;
    ++depth;
    dfs(checkedAdd(cost, added).value_or(std::numeric_limits<int64_t>::max()));
    --depth;
    untake(took, banned);
    if (outOfWork)
      break;
    // The next branches leave this one out.
    ++bans[c];
    excluded.push_back(c);
  }
  for (size_t c : excluded)
    --bans[c];
}

bool Search::solveComponent() {
  best = std::numeric_limits<int64_t>::max();
  bestSet.clear();
  outOfWork = false;
  covered.assign(rows.size(), 0);
  for (size_t r = 0; r < rows.size(); ++r)
    for (size_t c : rows[r].candidates)
      rowsOf[c].push_back(r);
  dfs(0);
  return best != std::numeric_limits<int64_t>::max();
}

std::optional<CoverResult> Search::run() {
  if (!buildRows())
    return std::nullopt;
  size_t n = problem.candidates.size();
  taken.assign(n, 0);
  bans.assign(n, 0);
  rowsOf.assign(n, {});
  int64_t numGroups = 0;
  for (const CoverCandidate &cand : problem.candidates)
    numGroups = std::max(numGroups, cand.group + 1);
  groupMembers.assign(static_cast<size_t>(numGroups), {});
  for (size_t c = 0; c < n; ++c)
    if (problem.candidates[c].group >= 0)
      groupMembers[problem.candidates[c].group].push_back(c);
  // Rows that share a candidate (or a group, or a late row's owner) are
  // solved together; the components apart, so a program of many independent
  // peaks is many small searches, not one deep one.
  std::vector<size_t> parent(n);
  for (size_t c = 0; c < n; ++c)
    parent[c] = c;
  auto find = [&](size_t c) {
    while (parent[c] != c)
      c = parent[c] = parent[parent[c]];
    return c;
  };
  auto unite = [&](size_t a, size_t b) { parent[find(a)] = find(b); };
  for (const Row &row : allRows) {
    work += static_cast<int64_t>(row.candidates.size());
    if (row.candidates.empty()) {
      // A point nothing frees is above the target: no cover. A late row
      // nothing lowers: its owner can never be taken.
      if (row.owner == static_cast<size_t>(-1))
        return std::nullopt;
      ++bans[row.owner];
      continue;
    }
    for (size_t c : row.candidates)
      unite(c, row.candidates.front());
    if (row.owner != static_cast<size_t>(-1))
      unite(row.owner, row.candidates.front());
  }
  // A candidate goes with its prerequisite; one naming no other candidate is
  // never taken.
  for (size_t c = 0; c < n; ++c) {
    int64_t p = problem.candidates[c].prerequisite;
    if (p < 0)
      continue;
    if (static_cast<size_t>(p) >= n || static_cast<size_t>(p) == c)
      ++bans[c];
    else
      unite(c, static_cast<size_t>(p));
  }
  conflictsOf.assign(n, {});
  for (const auto &[a, b] : problem.conflicts)
    if (a < n && b < n && a != b) {
      conflictsOf[a].push_back(b);
      conflictsOf[b].push_back(a);
      unite(a, b);
    }
  for (const std::vector<size_t> &members : groupMembers)
    for (size_t c : members)
      unite(c, members.front());
  std::vector<std::vector<size_t>> components;
  std::vector<size_t> componentOf(n, static_cast<size_t>(-1));
  for (size_t r = 0; r < allRows.size(); ++r) {
    if (allRows[r].candidates.empty())
      continue;
    size_t root = find(allRows[r].candidates.front());
    if (componentOf[root] == static_cast<size_t>(-1)) {
      componentOf[root] = components.size();
      components.emplace_back();
    }
    components[componentOf[root]].push_back(r);
  }
  CoverResult result;
  result.optimal = true;
  for (size_t k = 0; k < components.size(); ++k) {
    if (work > workLimit)
      return std::nullopt;
    // An even share of what is left.
    limit =
        work + (workLimit - work) / static_cast<int64_t>(components.size() - k);
    rows.clear();
    for (size_t r : components[k])
      rows.push_back(allRows[r]);
    if (!solveComponent())
      return std::nullopt;
    result.chosen.insert(result.chosen.end(), bestSet.begin(), bestSet.end());
    result.cost = checkedAdd(result.cost, best)
                      .value_or(std::numeric_limits<int64_t>::max());
    result.optimal &= !outOfWork;
  }
  std::sort(result.chosen.begin(), result.chosen.end());
  return result;
}

std::optional<CoverResult> mplan::solveSplitCover(const CoverProblem &problem,
                                                  int64_t workLimit,
                                                  int64_t &work) {
  Search search(problem, workLimit, work);
  return search.run();
}
