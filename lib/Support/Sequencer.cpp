//===- Sequencer.cpp - Memory-aware operation order -----------------------===//
//
// Decomposition at cut nodes, then per component: list schedulers, an exact
// dynamic program over scheduled-node sets (SERENITY, MLSys 2020), beam
// search, and exact re-solving of windows around the peak. See
// docs/planner.md ("Sequencing").
//
//===----------------------------------------------------------------------===//

#include "mplan/Support/Sequencer.h"
#include "mplan/Support/CheckedMath.h"

#include <algorithm>
#include <array>
#include <chrono>
#include <cstring>
#include <functional>
#include <limits>
#include <numeric>
#include <queue>
#include <random>
#include <tuple>
#include <type_traits>
#include <unordered_map>

using namespace mplan;

namespace {

using Clock = std::chrono::steady_clock;

/// A sequencing problem on a contiguous part of a schedule: local nodes
/// 0..k-1 (a topological order), local buffers with flags saying whether they
/// were started before the part (a user earlier) and stay live after it (a
/// user later), and `base` bytes live throughout without a user inside.
struct Component {
  int32_t k = 0;
  std::vector<std::vector<int32_t>> preds, succs;
  std::vector<std::vector<int32_t>> uses; ///< per node, distinct buffers
  std::vector<int64_t> nodeBytes;
  std::vector<int64_t> size;
  std::vector<std::vector<int32_t>> users; ///< per buffer, distinct nodes
  std::vector<uint8_t> liveIn, liveOut;
  int64_t base = 0;

  int32_t numBuffers() const { return static_cast<int32_t>(size.size()); }
  int64_t initialLive() const {
    int64_t live = 0;
    for (int32_t b = 0; b < numBuffers(); ++b)
      if (liveIn[b])
        live += size[b];
    return live;
  }
};

/// Live bytes while each node of `order` runs (local, without `base`).
std::vector<int64_t> profile(const Component &c,
                             const std::vector<int32_t> &order) {
  std::vector<int32_t> remaining(c.numBuffers());
  for (int32_t b = 0; b < c.numBuffers(); ++b)
    remaining[b] = static_cast<int32_t>(c.users[b].size());
  int64_t live = c.initialLive();
  std::vector<int64_t> steps;
  steps.reserve(order.size());
  for (int32_t v : order) {
    for (int32_t b : c.uses[v])
      if (!c.liveIn[b] &&
          remaining[b] == static_cast<int32_t>(c.users[b].size()))
        live += c.size[b];
    steps.push_back(live + c.nodeBytes[v]);
    for (int32_t b : c.uses[v])
      if (--remaining[b] == 0 && !c.liveOut[b])
        live -= c.size[b];
  }
  return steps;
}

int64_t peakOf(const Component &c, const std::vector<int32_t> &order) {
  int64_t peak = 0;
  for (int64_t step : profile(c, order))
    peak = std::max(peak, step);
  return peak;
}

/// Components up to this many nodes get lowerBoundOf's reachability
/// bound (two bitsets of k bits per node); larger ones the simple one.
constexpr int32_t kMaxReachBoundNodes = 4096;

/// A lower bound on every order's peak. A buffer is live while a node runs
/// in every order if the node uses it, or if one of its users must run
/// before the node (an ancestor; or it is live on entry) and one after it
/// (a descendant; or it stays live on exit): the bound is the most such
/// bytes of any node (with its own bytes). Components of more than
/// kMaxReachBoundNodes nodes count, for the worst node, only what it uses
/// and what is live throughout.
int64_t lowerBoundOf(const Component &c) {
  int64_t through = 0;
  for (int32_t b = 0; b < c.numBuffers(); ++b)
    if (c.liveIn[b] && c.liveOut[b])
      through += c.size[b];
  int64_t worst = 0;
  if (c.k > kMaxReachBoundNodes) {
    for (int32_t v = 0; v < c.k; ++v) {
      int64_t bytes = c.nodeBytes[v];
      for (int32_t b : c.uses[v])
        if (!(c.liveIn[b] && c.liveOut[b]))
          bytes += c.size[b];
      worst = std::max(worst, bytes);
    }
    return through + worst;
  }
  // Ancestors and descendants of every node (nodes are numbered in a
  // topological order), as bitsets of `words` words.
  size_t words = (static_cast<size_t>(c.k) + 63) / 64;
  std::vector<uint64_t> anc(c.k * words, 0), desc(c.k * words, 0);
  for (int32_t v = 0; v < c.k; ++v)
    for (int32_t p : c.preds[v]) {
      for (size_t w = 0; w < words; ++w)
        anc[v * words + w] |= anc[p * words + w];
      anc[v * words + (p >> 6)] |= uint64_t(1) << (p & 63);
    }
  for (int32_t v = c.k - 1; v >= 0; --v)
    for (int32_t s : c.succs[v]) {
      for (size_t w = 0; w < words; ++w)
        desc[v * words + w] |= desc[s * words + w];
      desc[v * words + (s >> 6)] |= uint64_t(1) << (s & 63);
    }
  std::vector<int64_t> bytes(c.nodeBytes.begin(), c.nodeBytes.end());
  std::vector<uint64_t> after(words), before(words);
  for (int32_t b = 0; b < c.numBuffers(); ++b) {
    if (c.liveIn[b] && c.liveOut[b])
      continue;
    // Nodes after one of its users (or all: live on entry), and before one
    // of them (or all: live on exit).
    std::fill(after.begin(), after.end(), c.liveIn[b] ? ~uint64_t(0) : 0);
    std::fill(before.begin(), before.end(), c.liveOut[b] ? ~uint64_t(0) : 0);
    for (int32_t u : c.users[b])
      for (size_t w = 0; w < words; ++w) {
        after[w] |= desc[u * words + w];
        before[w] |= anc[u * words + w];
      }
    for (int32_t u : c.users[b]) {
      after[u >> 6] |= uint64_t(1) << (u & 63);
      before[u >> 6] |= uint64_t(1) << (u & 63);
    }
    for (size_t w = 0; w < words; ++w)
      for (uint64_t m = after[w] & before[w]; m; m &= m - 1) {
        size_t v = w * 64 + static_cast<size_t>(__builtin_ctzll(m));
        if (v < static_cast<size_t>(c.k))
          bytes[v] += c.size[b];
      }
  }
  for (int64_t nodeBytes : bytes)
    worst = std::max(worst, nodeBytes);
  return through + worst;
}

/// The part [lo, hi) of `order` (a schedule of `parent`) as a component of
/// its own. `first`/`last` give each parent buffer's first and last position
/// in `order`; `liveBefore` the parent-local bytes live before position lo.
Component makeSub(const Component &parent, const std::vector<int32_t> &order,
                  const std::vector<int32_t> &first,
                  const std::vector<int32_t> &last, int32_t lo, int32_t hi,
                  int64_t liveBefore, std::vector<int32_t> &nodeMap,
                  std::vector<int32_t> &bufferMap) {
  Component sub;
  sub.k = hi - lo;
  sub.preds.resize(sub.k);
  sub.succs.resize(sub.k);
  sub.uses.resize(sub.k);
  sub.nodeBytes.resize(sub.k);
  for (int32_t i = lo; i < hi; ++i)
    nodeMap[order[i]] = i - lo;
  std::vector<int32_t> touched;
  for (int32_t i = lo; i < hi; ++i) {
    int32_t v = order[i], local = i - lo;
    sub.nodeBytes[local] = parent.nodeBytes[v];
    for (int32_t p : parent.preds[v])
      if (nodeMap[p] >= 0) {
        sub.preds[local].push_back(nodeMap[p]);
        sub.succs[nodeMap[p]].push_back(local);
      }
    for (int32_t b : parent.uses[v]) {
      if (bufferMap[b] < 0) {
        bufferMap[b] = sub.numBuffers();
        touched.push_back(b);
        sub.size.push_back(parent.size[b]);
        sub.users.emplace_back();
        sub.liveIn.push_back(parent.liveIn[b] || first[b] < lo);
        sub.liveOut.push_back(parent.liveOut[b] || last[b] >= hi);
      }
      sub.uses[local].push_back(bufferMap[b]);
      sub.users[bufferMap[b]].push_back(local);
    }
  }
  sub.base = parent.base + liveBefore;
  for (int32_t b : touched) {
    if (sub.liveIn[bufferMap[b]])
      sub.base -= parent.size[b];
    bufferMap[b] = -1;
  }
  for (int32_t i = lo; i < hi; ++i)
    nodeMap[order[i]] = -1;
  return sub;
}

/// Positions of each buffer's first and last user in `order`, and the bytes
/// live before each position.
struct OrderInfo {
  std::vector<int32_t> first, last;
  std::vector<int64_t> liveBefore;
};

OrderInfo orderInfo(const Component &c, const std::vector<int32_t> &order) {
  OrderInfo info;
  info.first.assign(c.numBuffers(), std::numeric_limits<int32_t>::max());
  info.last.assign(c.numBuffers(), -1);
  for (int32_t i = 0; i < static_cast<int32_t>(order.size()); ++i)
    for (int32_t b : c.uses[order[i]]) {
      info.first[b] = std::min(info.first[b], i);
      info.last[b] = i;
    }
  std::vector<int64_t> delta(order.size() + 1, 0);
  for (int32_t b = 0; b < c.numBuffers(); ++b) {
    int32_t from = c.liveIn[b] ? 0 : info.first[b] + 1;
    int32_t to =
        c.liveOut[b] ? static_cast<int32_t>(order.size()) : info.last[b] + 1;
    if (from < to) {
      delta[from] += c.size[b];
      delta[to] -= c.size[b];
    }
  }
  info.liveBefore.resize(order.size() + 1);
  int64_t live = 0;
  for (size_t i = 0; i <= order.size(); ++i) {
    live += delta[i];
    info.liveBefore[i] = live;
  }
  return info;
}

/// The budget of a search: units of work (deterministic) and, only if the
/// caller set one, a wall-clock deadline (a safety net). A search spends
/// units as it goes and stops once exhausted(); a part of a search gets a
/// sub-budget, whose spending its parent adds up with charge().
class Budget {
public:
  Budget(int64_t work, std::optional<Clock::time_point> end)
      : limit(std::max<int64_t>(work, 0)), end(end) {}

  /// Spends `units`; returns false once the budget is exhausted.
  bool spend(int64_t units) {
    used += units;
    return !exhausted();
  }
  bool exhausted() {
    if (hit)
      return true;
    if (used >= limit)
      hit = true;
    // The clock is read every 256 calls only.
    else if (end && (++calls & 255) == 0 && Clock::now() >= *end)
      hit = true;
    return hit;
  }
  int64_t remaining() const { return std::max<int64_t>(limit - used, 0); }
  /// A budget of `fraction` of what is left, with the same deadline.
  Budget sub(double fraction) const {
    // The product may round up past int64_t (remaining() near 2^63): the
    // whole remaining budget then, never an out-of-range conversion.
    double part =
        static_cast<double>(remaining()) * std::clamp(fraction, 0.0, 1.0);
    int64_t limit = part >= 0x1p63 ? remaining() : static_cast<int64_t>(part);
    return Budget(std::min(limit, remaining()), end);
  }
  /// Adds what `part`, a sub-budget, spent.
  void charge(const Budget &part) {
    used += part.used;
    stopped |= part.hit || part.stopped;
  }
  /// True if this budget or a part of it ran out during a search.
  bool ranOut() const { return hit || stopped; }
  int64_t spent() const { return used; }

private:
  int64_t limit, used = 0;
  std::optional<Clock::time_point> end;
  uint32_t calls = 0;
  bool hit = false, stopped = false;
};

//===----------------------------------------------------------------------===//
// List scheduling
//===----------------------------------------------------------------------===//

enum class GreedyKey {
  /// Least (allocated - freed) bytes first, then program order.
  Delta,
  /// Least bytes allocated by the step (the step's peak) first.
  StepPeak,
  /// Least (allocated - freed) first, then the most recently readied node:
  /// finishes one branch before starting the next (depth first).
  DeltaDepthFirst,
};

std::vector<int32_t> listSchedule(const Component &c, GreedyKey keyKind) {
  std::vector<int32_t> remaining(c.numBuffers()), missing(c.k);
  std::vector<int64_t> alloc(c.k, 0), freed(c.k, 0);
  for (int32_t b = 0; b < c.numBuffers(); ++b) {
    remaining[b] = static_cast<int32_t>(c.users[b].size());
    for (int32_t u : c.users[b]) {
      if (!c.liveIn[b])
        alloc[u] += c.size[b];
      if (remaining[b] == 1 && !c.liveOut[b])
        freed[u] += c.size[b];
    }
  }
  // (key, tie, node, stamp): smallest first.
  using Entry = std::tuple<int64_t, int64_t, int64_t, int32_t, uint32_t>;
  std::priority_queue<Entry, std::vector<Entry>, std::greater<Entry>> queue;
  std::vector<uint32_t> stamp(c.k, 0);
  std::vector<uint8_t> ready(c.k, 0), done(c.k, 0);
  int64_t clock = 0;
  std::vector<int64_t> readyTime(c.k, 0);
  auto push = [&](int32_t v) {
    int64_t delta = alloc[v] - freed[v];
    Entry e;
    switch (keyKind) {
    case GreedyKey::Delta:
      e = {delta, v, 0, v, ++stamp[v]};
      break;
    case GreedyKey::StepPeak:
      e = {alloc[v] + c.nodeBytes[v], delta, v, v, ++stamp[v]};
      break;
    case GreedyKey::DeltaDepthFirst:
      e = {delta, -readyTime[v], v, v, ++stamp[v]};
      break;
    }
    queue.push(e);
  };
  for (int32_t v = 0; v < c.k; ++v) {
    missing[v] = static_cast<int32_t>(c.preds[v].size());
    if (missing[v] == 0) {
      ready[v] = 1;
      push(v);
    }
  }
  std::vector<int32_t> order;
  order.reserve(c.k);
  while (!queue.empty()) {
    auto [k1, k2, k3, v, s] = queue.top();
    queue.pop();
    if (done[v] || s != stamp[v])
      continue;
    done[v] = 1;
    order.push_back(v);
    for (int32_t b : c.uses[v]) {
      bool started = c.liveIn[b] ||
                     remaining[b] != static_cast<int32_t>(c.users[b].size());
      --remaining[b];
      if (!started && !c.liveIn[b])
        for (int32_t u : c.users[b])
          if (!done[u]) {
            alloc[u] -= c.size[b];
            if (ready[u])
              push(u);
          }
      if (remaining[b] == 1 && !c.liveOut[b])
        for (int32_t u : c.users[b])
          if (!done[u]) {
            freed[u] += c.size[b];
            if (ready[u])
              push(u);
          }
    }
    ++clock;
    for (int32_t s2 : c.succs[v])
      if (--missing[s2] == 0) {
        ready[s2] = 1;
        readyTime[s2] = clock;
        push(s2);
      }
  }
  return order;
}

//===----------------------------------------------------------------------===//
// Exact search over scheduled-node sets
//===----------------------------------------------------------------------===//

template <int W> struct Mask {
  std::array<uint64_t, W> w{};
  void set(int32_t i) { w[i >> 6] |= uint64_t(1) << (i & 63); }
  bool test(int32_t i) const { return (w[i >> 6] >> (i & 63)) & 1; }
  bool intersects(const Mask &o) const {
    for (int i = 0; i < W; ++i)
      if (w[i] & o.w[i])
        return true;
    return false;
  }
  /// True if every bit of this mask is in `o`.
  bool subsetOf(const Mask &o) const {
    for (int i = 0; i < W; ++i)
      if (w[i] & ~o.w[i])
        return false;
    return true;
  }
  bool operator==(const Mask &o) const { return w == o.w; }
};

template <int W> struct MaskHash {
  size_t operator()(const Mask<W> &m) const {
    uint64_t h = 0x9e3779b97f4a7c15ULL;
    for (uint64_t x : m.w) {
      h ^= x + 0x9e3779b97f4a7c15ULL + (h << 6) + (h >> 2);
      h *= 0xbf58476d1ce4e5b9ULL;
    }
    return static_cast<size_t>(h ^ (h >> 31));
  }
};

/// Per node the mask of its predecessors, per buffer the mask of its users.
template <int W> struct ComponentMasks {
  std::vector<Mask<W>> preds, users;
  explicit ComponentMasks(const Component &c)
      : preds(c.k), users(c.numBuffers()) {
    for (int32_t v = 0; v < c.k; ++v)
      for (int32_t p : c.preds[v])
        preds[v].set(p);
    for (int32_t b = 0; b < c.numBuffers(); ++b)
      for (int32_t u : c.users[b])
        users[b].set(u);
  }
  /// Running ready node `v` after `set`, with `live` bytes live: the bytes
  /// live while it runs and those it frees.
  std::pair<int64_t, int64_t> run(const Component &c, const Mask<W> &set,
                                  int64_t live, int32_t v) const {
    Mask<W> after = set;
    after.set(v);
    int64_t step = live + c.nodeBytes[v], freedBytes = 0;
    for (int32_t b : c.uses[v]) {
      if (!c.liveIn[b] && !users[b].intersects(set))
        step += c.size[b];
      if (!c.liveOut[b] && users[b].subsetOf(after))
        freedBytes += c.size[b];
    }
    return {step, freedBytes};
  }
};

enum class ExactStatus { Improved, NoBetter, Aborted };

/// Minimises the peak of `c` over all topological orders with a dynamic
/// program over downward-closed sets of scheduled nodes, layer by layer (the
/// live bytes after a set depend only on the set). States whose peak reaches
/// `upper` are pruned: Improved fills `order` with an order whose peak is
/// below `upper` and minimal; NoBetter proves none is below `upper`.
template <int W>
ExactStatus exactSearchW(const Component &c, int64_t upper, int64_t maxStates,
                         Budget &budget, std::vector<int32_t> &order) {
  struct State {
    Mask<W> set;
    int64_t peak, live;
    int32_t parent, node;
  };
  ComponentMasks<W> masks(c);
  const std::vector<Mask<W>> &predMask = masks.preds;
  std::vector<State> states;
  states.push_back({Mask<W>(), 0, c.initialLive(), -1, -1});
  std::vector<int32_t> layer{0};
  std::unordered_map<Mask<W>, int32_t, MaskHash<W>> next;
  for (int32_t depth = 0; depth < c.k; ++depth) {
    next.clear();
    std::vector<int32_t> nextLayer;
    for (int32_t si : layer) {
      // Every state looks at each of the k nodes, and at the buffers of
      // each ready one (two mask operations of W words each).
      if (!budget.spend(c.k))
        return ExactStatus::Aborted;
      const Mask<W> set = states[si].set;
      int64_t live = states[si].live, peak = states[si].peak;
      for (int32_t v = 0; v < c.k; ++v) {
        if (set.test(v) || !predMask[v].subsetOf(set))
          continue;
        budget.spend(2 * W * static_cast<int64_t>(c.uses[v].size()));
        Mask<W> after = set;
        after.set(v);
        auto [step, freedBytes] = masks.run(c, set, live, v);
        int64_t newPeak = std::max(peak, step);
        if (newPeak >= upper)
          continue;
        int64_t newLive = step - c.nodeBytes[v] - freedBytes;
        auto [it, inserted] =
            next.try_emplace(after, static_cast<int32_t>(states.size()));
        if (inserted) {
          if (static_cast<int64_t>(states.size()) >= maxStates)
            return ExactStatus::Aborted;
          states.push_back({after, newPeak, newLive, si, v});
          nextLayer.push_back(it->second);
        } else if (newPeak < states[it->second].peak) {
          states[it->second].peak = newPeak;
          states[it->second].parent = si;
          states[it->second].node = v;
        }
      }
    }
    if (nextLayer.empty())
      return ExactStatus::NoBetter;
    layer = std::move(nextLayer);
  }
  // One full set is left: the whole component.
  int32_t si = layer.front();
  order.assign(c.k, -1);
  for (int32_t i = c.k - 1; i >= 0; --i) {
    order[i] = states[si].node;
    si = states[si].parent;
  }
  return ExactStatus::Improved;
}

/// What the depth-first search found.
struct DepthFirstResult {
  /// An order below `upper` was found (the least one found is in `order`).
  bool found = false;
  /// The search ended before it had looked at every set it had to: the
  /// order found is not proven optimal.
  bool aborted = false;
};

/// Branch and bound over the same downward-closed sets as exactSearchW,
/// depth first: the ready nodes are tried by least step peak, then least
/// live bytes after, and with the dominance rule (below the best order
/// found so far) a node that frees what it allocates is the only one tried.
/// Each set is searched again only when reached with a lower peak than
/// before. It finds good orders early, so an aborted search still returns
/// the least it found; a finished one proves it optimal (or none below
/// `upper`).
template <int W>
DepthFirstResult depthFirstSearchW(const Component &c, int64_t upper,
                                   int64_t maxStates, Budget &budget,
                                   std::vector<int32_t> &order) {
  ComponentMasks<W> masks(c);
  const std::vector<Mask<W>> &predMask = masks.preds;
  struct Move {
    int32_t node;
    int64_t step, live;
  };
  // The least peak each set was searched from.
  std::unordered_map<Mask<W>, int64_t, MaskHash<W>> searched;
  std::vector<std::vector<Move>> movesAt(c.k);
  std::vector<int32_t> path;
  path.reserve(c.k);
  DepthFirstResult result;
  int64_t best = upper;
  std::function<void(const Mask<W> &, int64_t, int64_t)> visit =
      [&](const Mask<W> &set, int64_t live, int64_t peak) {
        int32_t depth = static_cast<int32_t>(path.size());
        if (depth == c.k) {
          best = peak;
          order = path;
          result.found = true;
          return;
        }
        auto [it, inserted] = searched.try_emplace(set, peak);
        if (!inserted) {
          if (it->second <= peak)
            return;
          it->second = peak;
        } else if (static_cast<int64_t>(searched.size()) > maxStates) {
          result.aborted = true;
          return;
        }
        std::vector<Move> &moves = movesAt[depth];
        moves.clear();
        int64_t looked = 0;
        // The dominance rule's node: the first ready one that frees what it
        // allocates at a step below the best order found so far.
        int32_t forced = -1;
        for (int32_t v = 0; v < c.k; ++v) {
          ++looked;
          if (set.test(v) || !predMask[v].subsetOf(set))
            continue;
          looked += 2 * W * static_cast<int64_t>(c.uses[v].size());
          auto [step, freedBytes] = masks.run(c, set, live, v);
          if (step >= best)
            continue;
          int64_t newLive = step - c.nodeBytes[v] - freedBytes;
          if (forced < 0 && newLive <= live)
            forced = static_cast<int32_t>(moves.size());
          moves.push_back({v, step, newLive});
        }
        if (!budget.spend(looked)) {
          result.aborted = true;
          return;
        }
        auto tryMove = [&](const Move &move) {
          Mask<W> after = set;
          after.set(move.node);
          path.push_back(move.node);
          visit(after, move.live, std::max(peak, move.step));
          path.pop_back();
        };
        // Any order below the best one is found after the rule's node too
        // (moved first, it raises no later step), as long as its step stays
        // below the best order: when orders found below its subtree bring
        // the best down to its step, the other nodes are tried as well.
        if (forced >= 0) {
          Move move = moves[forced];
          tryMove(move);
          if (result.aborted || move.step < best)
            return;
          moves.erase(moves.begin() + forced);
        }
        std::sort(moves.begin(), moves.end(), [](const Move &a, const Move &b) {
          return std::tie(a.step, a.live, a.node) <
                 std::tie(b.step, b.live, b.node);
        });
        // The vector of this depth is reused deeper down: iterate a copy.
        std::vector<Move> tried = moves;
        for (const Move &move : tried) {
          if (move.step >= best)
            break;
          tryMove(move);
          if (result.aborted)
            return;
        }
      };
  visit(Mask<W>(), c.initialLive(), 0);
  return result;
}

constexpr int32_t kMaxExactNodes = 256;

/// Calls `search` with the mask width (in 64-bit words) that holds `c`'s
/// nodes, or returns `tooLarge` above kMaxExactNodes.
template <typename Result, typename Search>
Result withMaskWidth(const Component &c, Result tooLarge, Search search) {
  if (c.k <= 64)
    return search(std::integral_constant<int, 1>());
  if (c.k <= 128)
    return search(std::integral_constant<int, 2>());
  if (c.k <= kMaxExactNodes)
    return search(std::integral_constant<int, 4>());
  return tooLarge;
}

DepthFirstResult depthFirstSearch(const Component &c, int64_t upper,
                                  int64_t maxStates, Budget &budget,
                                  std::vector<int32_t> &order) {
  DepthFirstResult tooLarge;
  tooLarge.aborted = true;
  return withMaskWidth(c, tooLarge, [&](auto width) {
    return depthFirstSearchW<decltype(width)::value>(c, upper, maxStates,
                                                     budget, order);
  });
}

ExactStatus exactSearch(const Component &c, int64_t upper, int64_t maxStates,
                        Budget &budget, std::vector<int32_t> &order) {
  return withMaskWidth(c, ExactStatus::Aborted, [&](auto width) {
    return exactSearchW<decltype(width)::value>(c, upper, maxStates, budget,
                                                order);
  });
}

//===----------------------------------------------------------------------===//
// Beam search
//===----------------------------------------------------------------------===//

/// Beam search over partial schedules: every step, each of the `width` kept
/// schedules is extended by its most promising ready nodes (least step peak,
/// then least live bytes after), and the `width` best distinct scheduled
/// sets (same set, same live bytes: the lower peak wins) survive, ranked by
/// peak so far, then live bytes. Returns an empty order once `budget` is
/// exhausted.
std::vector<int32_t> beamSearch(const Component &c, int width, Budget &budget) {
  struct BeamState {
    std::vector<int32_t> remaining, missing, ready;
    int64_t live = 0, peak = 0;
    uint64_t hash = 0;
    int32_t history = -1;
  };
  struct Child {
    int64_t peak, live;
    uint64_t hash;
    int32_t parent, node;
  };
  std::mt19937_64 rng(12345);
  std::vector<uint64_t> zobrist(c.k);
  for (uint64_t &z : zobrist)
    z = rng();
  std::vector<std::pair<int32_t, int32_t>> history; // (parent, node)
  std::vector<BeamState> beam(1);
  beam[0].remaining.resize(c.numBuffers());
  for (int32_t b = 0; b < c.numBuffers(); ++b)
    beam[0].remaining[b] = static_cast<int32_t>(c.users[b].size());
  beam[0].missing.resize(c.k);
  for (int32_t v = 0; v < c.k; ++v) {
    beam[0].missing[v] = static_cast<int32_t>(c.preds[v].size());
    if (beam[0].missing[v] == 0)
      beam[0].ready.push_back(v);
  }
  beam[0].live = c.initialLive();
  constexpr int kExpand = 4;
  std::vector<Child> children, candidates;
  for (int32_t depth = 0; depth < c.k; ++depth) {
    children.clear();
    for (int32_t si = 0; si < static_cast<int32_t>(beam.size()); ++si) {
      const BeamState &s = beam[si];
      candidates.clear();
      for (int32_t v : s.ready) {
        int64_t step = s.live + c.nodeBytes[v], freedBytes = 0;
        for (int32_t b : c.uses[v]) {
          int32_t all = static_cast<int32_t>(c.users[b].size());
          if (!c.liveIn[b] && s.remaining[b] == all)
            step += c.size[b];
          if (!c.liveOut[b] && s.remaining[b] == 1)
            freedBytes += c.size[b];
        }
        candidates.push_back({std::max(s.peak, step),
                              step - c.nodeBytes[v] - freedBytes,
                              s.hash ^ zobrist[v], si, v});
      }
      auto better = [](const Child &a, const Child &b) {
        return std::tie(a.peak, a.live, a.node) <
               std::tie(b.peak, b.live, b.node);
      };
      size_t keep = std::min<size_t>(kExpand, candidates.size());
      std::partial_sort(candidates.begin(), candidates.begin() + keep,
                        candidates.end(), better);
      children.insert(children.end(), candidates.begin(),
                      candidates.begin() + keep);
    }
    std::sort(children.begin(), children.end(),
              [](const Child &a, const Child &b) {
                return std::tie(a.peak, a.live, a.hash) <
                       std::tie(b.peak, b.live, b.hash);
              });
    std::vector<BeamState> nextBeam;
    std::vector<uint64_t> seen;
    for (const Child &child : children) {
      if (static_cast<int>(nextBeam.size()) >= width)
        break;
      if (std::find(seen.begin(), seen.end(), child.hash) != seen.end())
        continue;
      seen.push_back(child.hash);
      BeamState s = beam[child.parent];
      int32_t v = child.node;
      for (int32_t b : c.uses[v])
        --s.remaining[b];
      s.ready.erase(std::find(s.ready.begin(), s.ready.end(), v));
      for (int32_t succ : c.succs[v])
        if (--s.missing[succ] == 0)
          s.ready.push_back(succ);
      s.live = child.live;
      s.peak = child.peak;
      s.hash = child.hash;
      history.emplace_back(s.history, v);
      s.history = static_cast<int32_t>(history.size()) - 1;
      nextBeam.push_back(std::move(s));
    }
    beam = std::move(nextBeam);
    // Each candidate looked at, and each kept state's copy (its counters).
    int64_t copied = static_cast<int64_t>(beam.size()) * (c.k + c.numBuffers());
    if (!budget.spend(static_cast<int64_t>(children.size()) + copied / 16))
      return {};
  }
  std::vector<int32_t> order(c.k);
  int32_t h = beam.front().history;
  for (int32_t i = c.k - 1; i >= 0; --i) {
    order[i] = history[h].second;
    h = history[h].first;
  }
  return order;
}

//===----------------------------------------------------------------------===//
// Solving one component
//===----------------------------------------------------------------------===//

struct Solver {
  const SequenceOptions &options;
  /// The budget of the component being solved.
  Budget *budget = nullptr;
  bool useExact, useSearch;
  int64_t maxStates;

  /// Largest component beam search runs on (it copies a state per child).
  static constexpr int32_t kMaxBeamNodes = 4000;
  /// Nodes per window re-solved exactly around the peak.
  static constexpr int32_t kWindow = 14;
  /// Units a window round costs per node of the component (the profile,
  /// the positions and the window's problem are rebuilt; measured against
  /// the exact search's units).
  static constexpr int64_t kRoundCost = 32;

  struct Result {
    std::vector<int32_t> order;
    int64_t peak = 0;
    bool proven = false;
    bool exact = false;
    /// A search stopped at the budget (or the exact search's state limit).
    bool cut = false;
  };

  void consider(const Component &c, std::vector<int32_t> order,
                Result &best) const {
    if (order.size() != static_cast<size_t>(c.k))
      return;
    int64_t peak = peakOf(c, order);
    if (peak < best.peak) {
      best.peak = peak;
      best.order = std::move(order);
    }
  }

  Result solve(const Component &c) const {
    Result best;
    best.order.resize(c.k);
    std::iota(best.order.begin(), best.order.end(), 0);
    best.peak = peakOf(c, best.order);
    int64_t lower = lowerBoundOf(c);
    if (c.k <= 1 || best.peak <= lower) {
      best.proven = true;
      return best;
    }
    for (GreedyKey key :
         {GreedyKey::Delta, GreedyKey::DeltaDepthFirst, GreedyKey::StepPeak})
      consider(c, listSchedule(c, key), best);
    if (best.peak <= lower) {
      best.proven = true;
      return best;
    }
    if (!useSearch)
      return best;
    // Beam search first: its order bounds the exact search, which prunes
    // every partial order that already reaches it.
    if (c.k <= kMaxBeamNodes && !budget->exhausted())
      consider(c, beamSearch(c, options.beamWidth, *budget), best);
    if (useExact && c.k <= kMaxExactNodes) {
      // Most of the budget, leaving some for the windows should it fail.
      Budget exactBudget = budget->sub(0.7);
      std::vector<int32_t> order;
      bool finished;
      if (options.dominance) {
        DepthFirstResult found =
            depthFirstSearch(c, best.peak, maxStates, exactBudget, order);
        if (found.found) {
          best.order = std::move(order);
          best.peak = peakOf(c, best.order);
        }
        finished = !found.aborted;
      } else {
        ExactStatus status =
            exactSearch(c, best.peak, maxStates, exactBudget, order);
        if (status == ExactStatus::Improved) {
          best.order = std::move(order);
          best.peak = peakOf(c, best.order);
        }
        finished = status != ExactStatus::Aborted;
      }
      budget->charge(exactBudget);
      if (finished) {
        best.proven = best.exact = true;
        return best;
      }
      best.cut = true;
    }
    improveWindows(c, best);
    best.cut |= budget->ranOut();
    return best;
  }

  /// Re-solves windows of kWindow consecutive nodes around the positions
  /// where `best` peaks, exactly (a large-neighbourhood search). Each
  /// improvement leaves every position of its window below the peak, so the
  /// number of positions at the peak drops every round; it stops at the
  /// first peak position no window around it can lower, or when the budget
  /// is exhausted.
  void improveWindows(const Component &c, Result &best) const {
    int32_t n = c.k;
    if (n <= 2)
      return;
    std::vector<int32_t> nodeMap(n, -1), bufferMap(c.numBuffers(), -1);
    int32_t window = std::min(kWindow, n);
    // A round rebuilds the profile and the window's problem: a few passes
    // over the order (kRoundCost).
    while (budget->spend(kRoundCost * static_cast<int64_t>(n))) {
      std::vector<int64_t> steps = profile(c, best.order);
      int64_t peak = *std::max_element(steps.begin(), steps.end());
      int32_t p = static_cast<int32_t>(
          std::find(steps.begin(), steps.end(), peak) - steps.begin());
      OrderInfo info = orderInfo(c, best.order);
      bool improved = false;
      for (int32_t lo : {p - window / 2, p - window + 1, p}) {
        lo = std::clamp(lo, 0, n - window);
        Component sub =
            makeSub(c, best.order, info.first, info.last, lo, lo + window,
                    info.liveBefore[lo], nodeMap, bufferMap);
        int64_t windowPeak =
            *std::max_element(steps.begin() + lo, steps.begin() + lo + window);
        std::vector<int32_t> order;
        if (exactSearch(sub, windowPeak + c.base - sub.base, maxStates, *budget,
                        order) != ExactStatus::Improved)
          continue;
        std::vector<int32_t> old(best.order.begin() + lo,
                                 best.order.begin() + lo + window);
        for (int32_t i = 0; i < window; ++i)
          best.order[lo + i] = old[order[i]];
        improved = true;
        break;
      }
      if (!improved)
        break;
    }
    best.peak = peakOf(c, best.order);
  }
};

/// The whole graph as a component (every buffer starts and ends inside).
Expected<Component> buildComponent(const SequenceGraph &graph) {
  Component c;
  int32_t n = graph.numNodes;
  if (n < 0)
    return Error{"negative node count"};
  if (!graph.predecessors.empty() &&
      graph.predecessors.size() != static_cast<size_t>(n))
    return Error{"predecessors has " +
                 std::to_string(graph.predecessors.size()) + " entries for " +
                 std::to_string(n) + " nodes"};
  if (!graph.nodeBytes.empty() &&
      graph.nodeBytes.size() != static_cast<size_t>(n))
    return Error{"nodeBytes has " + std::to_string(graph.nodeBytes.size()) +
                 " entries for " + std::to_string(n) + " nodes"};
  c.k = n;
  c.preds.resize(n);
  c.succs.resize(n);
  c.uses.resize(n);
  c.nodeBytes.assign(n, 0);
  int64_t maxNodeBytes = 0;
  for (int32_t v = 0; v < n; ++v) {
    if (!graph.nodeBytes.empty()) {
      if (graph.nodeBytes[v] < 0)
        return Error{"node " + std::to_string(v) + " has negative bytes"};
      c.nodeBytes[v] = graph.nodeBytes[v];
      maxNodeBytes = std::max(maxNodeBytes, c.nodeBytes[v]);
    }
    if (graph.predecessors.empty())
      continue;
    std::vector<int32_t> preds = graph.predecessors[v];
    for (int32_t p : preds)
      if (p < 0 || p >= v)
        return Error{"node " + std::to_string(v) + " has predecessor " +
                     std::to_string(p) +
                     " (predecessors must come earlier in program order)"};
    std::sort(preds.begin(), preds.end());
    preds.erase(std::unique(preds.begin(), preds.end()), preds.end());
    for (int32_t p : preds)
      c.succs[p].push_back(v);
    c.preds[v] = std::move(preds);
  }
  int64_t total = maxNodeBytes;
  for (size_t b = 0; b < graph.buffers.size(); ++b) {
    const SequenceBuffer &buffer = graph.buffers[b];
    if (buffer.size < 0)
      return Error{"buffer " + std::to_string(b) + " has negative size"};
    if (!addInPlace(total, buffer.size))
      return Error{"the buffer sizes overflow int64"};
    std::vector<int32_t> users = buffer.users;
    for (int32_t u : users)
      if (u < 0 || u >= n)
        return Error{"buffer " + std::to_string(b) + " has user " +
                     std::to_string(u) + " out of range"};
    std::sort(users.begin(), users.end());
    users.erase(std::unique(users.begin(), users.end()), users.end());
    if (users.empty() || buffer.size == 0)
      continue;
    int32_t id = c.numBuffers();
    for (int32_t u : users)
      c.uses[u].push_back(id);
    c.size.push_back(buffer.size);
    c.users.push_back(std::move(users));
  }
  c.liveIn.assign(c.numBuffers(), 0);
  c.liveOut.assign(c.numBuffers(), 0);
  return c;
}

/// Node i of program order is a cut when every earlier node precedes it and
/// every later node follows it: then every topological order runs the same
/// set of nodes before it. By induction over program order, all nodes before
/// i reach i iff each has a successor at or before i, and i reaches all
/// nodes after it iff each has a predecessor at or after i; two linear
/// sweeps.
std::vector<uint8_t> findCuts(const Component &c) {
  int32_t n = c.k;
  std::vector<uint8_t> cut(n, 0);
  std::vector<int32_t> suffixMinMaxPred(n + 1,
                                        std::numeric_limits<int32_t>::max());
  for (int32_t v = n - 1; v >= 0; --v) {
    int32_t maxPred = c.preds[v].empty() ? -1 : c.preds[v].back();
    suffixMinMaxPred[v] = std::min(suffixMinMaxPred[v + 1], maxPred);
  }
  int32_t prefixMaxMinSucc = -1;
  for (int32_t v = 0; v < n; ++v) {
    if (prefixMaxMinSucc <= v && suffixMinMaxPred[v + 1] >= v)
      cut[v] = 1;
    int32_t minSucc = c.succs[v].empty() ? std::numeric_limits<int32_t>::max()
                                         : *std::min_element(c.succs[v].begin(),
                                                             c.succs[v].end());
    prefixMaxMinSucc = std::max(prefixMaxMinSucc, minSucc);
  }
  return cut;
}

/// Splits the run [lo, hi) of program order (nodes outside it are ordered
/// against all of it) at every gap where each earlier node of the run
/// precedes each later one, so every order runs the same nodes before the
/// gap. With a(q) the first node of the run that is not an ancestor of q
/// (ancestor sets as bitsets, so only runs of up to kMaxGapSplitNodes), the
/// gap before g is such a cut iff a(q) >= g for every q >= g.
constexpr int32_t kMaxGapSplitNodes = 4096;

void splitAtGaps(const Component &c, int32_t lo, int32_t hi,
                 std::vector<std::pair<int32_t, int32_t>> &ranges) {
  int32_t k = hi - lo;
  if (k <= 2 || k > kMaxGapSplitNodes) {
    ranges.emplace_back(lo, hi);
    return;
  }
  int32_t words = (k + 63) / 64;
  std::vector<uint64_t> ancestors(static_cast<size_t>(k) * words, 0);
  std::vector<int32_t> firstMissing(k);
  for (int32_t q = 0; q < k; ++q) {
    uint64_t *mine = &ancestors[static_cast<size_t>(q) * words];
    for (int32_t p : c.preds[lo + q]) {
      if (p < lo)
        continue;
      const uint64_t *theirs = &ancestors[static_cast<size_t>(p - lo) * words];
      for (int32_t w = 0; w < words; ++w)
        mine[w] |= theirs[w];
      mine[(p - lo) >> 6] |= uint64_t(1) << ((p - lo) & 63);
    }
    int32_t first = q;
    for (int32_t w = 0; w * 64 < q; ++w)
      if (~mine[w]) {
        first = std::min(q, w * 64 + __builtin_ctzll(~mine[w]));
        break;
      }
    firstMissing[q] = first;
  }
  int32_t suffixMin = std::numeric_limits<int32_t>::max();
  std::vector<uint8_t> cutBefore(k + 1, 0);
  for (int32_t g = k - 1; g > 0; --g) {
    suffixMin = std::min(suffixMin, firstMissing[g]);
    cutBefore[g] = suffixMin >= g;
  }
  int32_t start = 0;
  for (int32_t g = 1; g <= k; ++g)
    if (g == k || cutBefore[g]) {
      ranges.emplace_back(lo + start, lo + g);
      start = g;
    }
}

} // namespace

const std::vector<std::string> &mplan::sequenceModes() {
  static const std::vector<std::string> names = {"program", "greedy", "best",
                                                 "exact"};
  return names;
}

std::optional<int64_t> mplan::schedulePeak(const SequenceGraph &graph,
                                           const std::vector<int32_t> &order) {
  Expected<Component> c = buildComponent(graph);
  if (!c || order.size() != static_cast<size_t>(c->k))
    return std::nullopt;
  std::vector<uint8_t> done(c->k, 0);
  for (int32_t v : order) {
    if (v < 0 || v >= c->k || done[v])
      return std::nullopt;
    for (int32_t p : c->preds[v])
      if (!done[p])
        return std::nullopt;
    done[v] = 1;
  }
  return peakOf(*c, order);
}

Expected<Sequence> mplan::sequenceGraph(const SequenceGraph &graph,
                                        const SequenceOptions &options) {
  auto startTime = Clock::now();
  const std::vector<std::string> &modes = sequenceModes();
  if (std::find(modes.begin(), modes.end(), options.mode) == modes.end())
    return Error{"unknown sequencing mode '" + options.mode +
                 "'; expected program, greedy, best or exact"};
  if (options.beamWidth < 1)
    return Error{"beam width must be at least 1"};
  if (options.workLimit < 0)
    return Error{"the work limit must not be negative"};
  if (!(options.timeLimitSeconds >= 0))
    return Error{"the time limit must not be negative"};
  Expected<Component> built = buildComponent(graph);
  if (!built)
    return Error{built.error()};
  const Component &whole = *built;
  int32_t n = whole.k;

  Sequence result;
  result.order.resize(n);
  std::iota(result.order.begin(), result.order.end(), 0);
  result.programPeak = result.peak = peakOf(whole, result.order);
  auto finish = [&]() -> Expected<Sequence> {
    result.seconds =
        std::chrono::duration<double>(Clock::now() - startTime).count();
    return result;
  };
  if (options.mode == "program")
    return finish();
  // Without nodes the empty order is the only one.
  if (n == 0) {
    result.provenOptimal = true;
    return finish();
  }

  // Components: maximal runs of program order between cut nodes (a cut node
  // alone is a component with one order), split further at cut gaps.
  std::vector<uint8_t> cut = findCuts(whole);
  std::vector<std::pair<int32_t, int32_t>> ranges;
  for (int32_t v = 0; v < n;) {
    int32_t end = v + 1;
    if (!cut[v])
      while (end < n && !cut[end])
        ++end;
    splitAtGaps(whole, v, end, ranges);
    v = end;
  }
  result.numComponents = static_cast<int64_t>(ranges.size());
  OrderInfo info = orderInfo(whole, result.order);
  std::vector<int64_t> steps = profile(whole, result.order);
  // The components that peak highest get the time budget first.
  std::vector<std::pair<int64_t, int32_t>> byPeak;
  for (int32_t i = 0; i < static_cast<int32_t>(ranges.size()); ++i) {
    auto [lo, hi] = ranges[i];
    result.largestComponent =
        std::max<int64_t>(result.largestComponent, hi - lo);
    if (hi - lo > 1)
      byPeak.emplace_back(
          -*std::max_element(steps.begin() + lo, steps.begin() + hi), i);
  }
  std::sort(byPeak.begin(), byPeak.end());

  // Every component gets the list schedulers; the searches share the work
  // budget, each component (highest peak first) at most half of what is
  // left unless it is the last.
  bool exactMode = options.mode == "exact";
  int64_t workLimit = options.workLimit;
  if (exactMode && !mulInPlace(workLimit, SequenceOptions::kExactWorkFactor))
    workLimit = std::numeric_limits<int64_t>::max();
  std::optional<Clock::time_point> end;
  if (options.timeLimitSeconds > 0)
    end = startTime + std::chrono::duration_cast<Clock::duration>(
                          std::chrono::duration<double>(
                              std::min(options.timeLimitSeconds, 1e9)));
  Budget budget(workLimit, end);
  bool search = options.mode != "greedy";
  Solver solver{options, nullptr, search, search,
                exactMode ? int64_t(20000000) : options.maxExactStates};
  std::vector<int32_t> nodeMap(n, -1), bufferMap(whole.numBuffers(), -1);
  std::vector<int32_t> order = result.order;
  // Proven per component: a cut node alone, or solved to optimality.
  std::vector<uint8_t> proven(ranges.size(), 1);
  std::vector<int64_t> componentPeak(ranges.size(), 0);
  for (int32_t i = 0; i < static_cast<int32_t>(ranges.size()); ++i)
    componentPeak[i] = steps[ranges[i].first];
  size_t left = byPeak.size();
  for (auto [negPeak, i] : byPeak) {
    auto [lo, hi] = ranges[i];
    componentPeak[i] = -negPeak;
    proven[i] = 0;
    Budget slice = budget.sub(left-- > 1 ? 0.5 : 1.0);
    solver.budget = &slice;
    solver.useSearch = search && !budget.exhausted();
    Component sub = makeSub(whole, result.order, info.first, info.last, lo, hi,
                            info.liveBefore[lo], nodeMap, bufferMap);
    Solver::Result solved = solver.solve(sub);
    budget.charge(slice);
    result.budgetExhausted |=
        solved.cut || (search && !solver.useSearch && !solved.proven);
    for (int32_t j = 0; j < hi - lo; ++j)
      order[lo + j] = result.order[lo + solved.order[j]];
    componentPeak[i] = sub.base + solved.peak;
    proven[i] = solved.proven;
    result.numExactComponents += solved.exact;
  }
  result.work = budget.spent();
  int64_t peak = peakOf(whole, order);
  if (peak < result.programPeak) {
    result.order = std::move(order);
    result.peak = peak;
  }
  // The peak is optimal if a component reaching it is solved optimally:
  // every order runs that component's nodes between the same cuts.
  for (size_t i = 0; i < ranges.size(); ++i)
    if (proven[i] && componentPeak[i] >= result.peak)
      result.provenOptimal = true;
  return finish();
}
