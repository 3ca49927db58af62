//===- Sequencer.h - Memory-aware operation order (MLIR-free) ---*- C++ -*-===//
//
// The sequencing problem: the nodes of a DAG (operations, given in program
// order) use buffers; a buffer is live from the first of its users in the
// schedule through the last one, inclusive. Find a topological order whose
// peak of live bytes is as small as possible, and never above the peak of
// program order (which is returned when nothing is better).
//
// Like the planner, this library depends on the C++17 standard library only.
// The MLIR side (the dependence graph of a block, the buffers the planner
// sees) lives in mplan/Analysis/DependenceGraph.h and mplan-sequence. The
// algorithms and their sources are in docs/planner.md ("Sequencing").
//
//===----------------------------------------------------------------------===//

#ifndef MPLAN_SUPPORT_SEQUENCER_H
#define MPLAN_SUPPORT_SEQUENCER_H

#include "mplan/Support/Planner.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace mplan {

/// One buffer of a sequencing problem.
struct SequenceBuffer {
  /// Bytes, already padded the way the planner's lowerBound pads them.
  int64_t size = 0;
  /// The nodes that use it (any order, duplicates allowed). A buffer
  /// without users is never live.
  std::vector<int32_t> users;
};

/// A DAG of `numNodes` nodes numbered in program order: every predecessor
/// of node v is smaller than v, so 0, 1, ..., numNodes - 1 is a topological
/// order.
struct SequenceGraph {
  int32_t numNodes = 0;
  /// Per node, the nodes that must run before it (empty vector: none).
  std::vector<std::vector<int32_t>> predecessors;
  std::vector<SequenceBuffer> buffers;
  /// Per node (or empty: all 0), bytes live only while the node runs on top
  /// of the buffers it uses (e.g. the peak of the buffers allocated inside a
  /// loop body).
  std::vector<int64_t> nodeBytes;
};

struct SequenceOptions {
  /// One of sequenceModes(): `program` keeps program order; `greedy` is the
  /// best of the list schedulers; `best` solves components exactly where
  /// feasible and takes the better of the list schedulers and beam search
  /// elsewhere, within the work budget; `exact` is `best` with
  /// kExactWorkFactor times the work budget and without its state limit.
  std::string mode = "best";
  /// Deterministic budget of the searches, in units of work: one unit is
  /// one candidate node the exact, beam or window search looks at (the list
  /// schedulers always run and are not charged). Past it, the remaining
  /// components keep their list-scheduled (or program) order. The result
  /// depends on the graph, the mode and this budget only, never on the
  /// machine or its load.
  int64_t workLimit = kDefaultSequenceWorkLimit;
  /// Wall-clock safety net for the whole call; 0: none. With one, the
  /// result may depend on the machine's speed and load, so callers set it
  /// only when their user asked for a time limit.
  double timeLimitSeconds = 0;
  /// Components with more scheduled-set states than this are not solved
  /// exactly in `best` mode.
  int64_t maxExactStates = 1000000;
  /// Beam width of the beam search.
  int beamWidth = 8;
  /// The exact search: depth-first branch and bound with a dominance rule
  /// (docs/planner.md, "Sequencing": a ready node that frees at least what
  /// it allocates, at a step below the best order found, is tried alone),
  /// or, false, the breadth-first dynamic program over all sets. Both reach
  /// the optimum; the first is manyfold faster and returns the best order it
  /// found when the budget stops it, but picks another of the optimal orders
  /// than the second: callers that split the buffers of the order
  /// afterwards (a capacity the order alone does not meet) turn it off, as
  /// which optimal order they get decides what the splits can reach.
  bool dominance = true;

  /// Under a tenth of a second of search on the bench programs
  /// (docs/planner.md, "Sequencing").
  static constexpr int64_t kDefaultSequenceWorkLimit = 10000000;
  /// `exact` mode's budget, in multiples of workLimit.
  static constexpr int64_t kExactWorkFactor = 100;
};

/// A schedule and what it costs.
struct Sequence {
  /// A topological order of the nodes: order[i] is the node run i-th.
  std::vector<int32_t> order;
  int64_t programPeak = 0; ///< peak of live bytes in program order
  int64_t peak = 0;        ///< peak of `order`; never above programPeak
  /// True when `peak` is proven minimal over all topological orders.
  bool provenOptimal = false;
  /// Components (between cut nodes) of the graph, and how many of them were
  /// solved exactly.
  int64_t numComponents = 0;
  int64_t numExactComponents = 0;
  /// The largest component, in nodes.
  int64_t largestComponent = 0;
  /// The work budget (or the time limit) stopped a search before it ended;
  /// a larger budget may find a lower peak.
  bool budgetExhausted = false;
  /// Units of work spent (SequenceOptions::workLimit).
  int64_t work = 0;
  double seconds = 0;
};

/// Orders `graph` with `options.mode`. Fails (with a message) on invalid
/// input: a predecessor not smaller than its node, a user out of range, a
/// negative size, sizes whose sum overflows int64_t, an unknown mode, a
/// negative work limit or time limit.
Expected<Sequence> sequenceGraph(const SequenceGraph &graph,
                                 const SequenceOptions &options);

/// The peak of live bytes of `order`, or std::nullopt if it is not a
/// topological order of `graph` (or `graph` is invalid).
std::optional<int64_t> schedulePeak(const SequenceGraph &graph,
                                    const std::vector<int32_t> &order);

/// The mode names sequenceGraph accepts: program, greedy, best, exact.
const std::vector<std::string> &sequenceModes();

} // namespace mplan

#endif // MPLAN_SUPPORT_SEQUENCER_H
