//===- Sequence.cpp - Order a function's ops to lower the max-live bound --===//
//
// mplan-sequence: the ops of a function body are reordered, within what the
// dependence graph allows, so that the max-live bound of the buffers the
// planner will place (collectSlabBuffers, default memory space) is as low as
// the sequencer finds, never above program order's.
//
//===----------------------------------------------------------------------===//

#include "mplan/Analysis/BufferLiveness.h"
#include "mplan/Analysis/DependenceGraph.h"
#include "mplan/Analysis/PlanAnalyses.h"
#include "mplan/Support/CheckedMath.h"
#include "mplan/Support/Sequencer.h"
#include "mplan/Transforms/OptionErrors.h"
#include "mplan/Transforms/Passes.h"
#include "mplan/Transforms/PlanBuffers.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FormatVariadic.h"

#include <algorithm>

namespace mlir {
namespace mplan {
#define GEN_PASS_DEF_MPLANSEQUENCE
#include "mplan/Transforms/Passes.h.inc"
} // namespace mplan
} // namespace mlir

using namespace mlir;
using namespace mlir::mplan;

/// The max-live bound of `slab`'s buffers with the ranges of `liveness`.
static std::optional<int64_t> boundOf(const SlabBuffers &slab,
                                      const BufferLiveness &liveness,
                                      int64_t alignment) {
  std::vector<::mplan::Buffer> buffers = slab.buffers;
  for (auto [constOp, buffer] : llvm::zip_equal(slab.ops, buffers)) {
    AllocTensorOp op = constOp;
    LiveRange range = liveness.getLiveRange(op.getResult());
    buffer.start = range.start;
    buffer.end = range.end;
  }
  return ::mplan::lowerBound(buffers, alignment);
}

namespace {
/// The sequencing problem of a block and how its nodes map to the block's.
struct Problem {
  ::mplan::SequenceGraph graph;
  /// The dependence-graph node of each problem node.
  std::vector<int32_t> nodes;
  /// The root of each problem buffer.
  std::vector<Value> roots;
  /// Per dependence-graph node: uses no buffer and touches no memory
  /// (constants, allocations, views). Such ops are left out of the problem
  /// (they would hide the cut nodes) and placed right before their first
  /// user afterwards.
  std::vector<bool> free;
};
} // namespace

/// Leaves out of `problem` the sources that start buffers for their
/// successors: a node v without predecessors (and without nested buffers)
/// that writes every buffer it uses, uses each first in program order (so,
/// writing it, before every other user in any order), never last, and whose
/// every successor but the terminator uses all of them (a `linalg.fill` of
/// a matmul's output). Run right before its first successor s, v's step is
/// at most s's: s uses all of v's buffers and v frees none. So v goes where
/// the ops left out go (right before its first user) and the problem keeps
/// its optimum, while v no longer floats to the top of the order and hides
/// the cut nodes.
static void anchorSources(const DependenceGraph &graph, Problem &problem) {
  ::mplan::SequenceGraph &g = problem.graph;
  int32_t k = g.numNodes;
  std::vector<std::vector<int32_t>> usesOf(k), succs(k);
  for (int32_t b = 0; b < static_cast<int32_t>(g.buffers.size()); ++b) {
    llvm::sort(g.buffers[b].users);
    g.buffers[b].users.erase(
        std::unique(g.buffers[b].users.begin(), g.buffers[b].users.end()),
        g.buffers[b].users.end());
    for (int32_t u : g.buffers[b].users)
      usesOf[u].push_back(b);
  }
  for (int32_t v = 0; v < k; ++v)
    for (int32_t p : g.predecessors[v])
      succs[p].push_back(v);
  auto uses = [&](int32_t node, int32_t b) {
    return std::binary_search(g.buffers[b].users.begin(),
                              g.buffers[b].users.end(), node);
  };
  std::vector<bool> anchored(k, false);
  bool any = false;
  for (int32_t v = 0; v + 1 < k; ++v) {
    if (!g.predecessors[v].empty() || g.nodeBytes[v] != 0 || usesOf[v].empty())
      continue;
    bool ok = llvm::all_of(usesOf[v], [&](int32_t b) {
      const std::vector<int32_t> &users = g.buffers[b].users;
      return users.size() > 1 && users.front() == v &&
             graph.writesRoot(problem.nodes[v], problem.roots[b]);
    });
    ok = ok && llvm::all_of(succs[v], [&](int32_t s) {
           return s == k - 1 || llvm::all_of(usesOf[v], [&](int32_t b) {
                    return uses(s, b);
                  });
         });
    anchored[v] = ok;
    any |= ok;
  }
  if (!any)
    return;
  std::vector<int32_t> id(k, -1);
  ::mplan::SequenceGraph kept;
  std::vector<int32_t> nodes;
  for (int32_t v = 0; v < k; ++v) {
    if (anchored[v]) {
      problem.free[problem.nodes[v]] = true;
      continue;
    }
    id[v] = static_cast<int32_t>(nodes.size());
    nodes.push_back(problem.nodes[v]);
    std::vector<int32_t> preds;
    for (int32_t p : g.predecessors[v])
      if (!anchored[p])
        preds.push_back(id[p]);
    kept.predecessors.push_back(std::move(preds));
    kept.nodeBytes.push_back(g.nodeBytes[v]);
  }
  kept.numNodes = static_cast<int32_t>(nodes.size());
  for (::mplan::SequenceBuffer &buffer : g.buffers) {
    ::mplan::SequenceBuffer entry{buffer.size, {}};
    for (int32_t u : buffer.users)
      if (!anchored[u])
        entry.users.push_back(id[u]);
    kept.buffers.push_back(std::move(entry));
  }
  problem.graph = std::move(kept);
  problem.nodes = std::move(nodes);
}

/// The sequencing problem of `block` (the function body): one node per op
/// that uses a buffer or touches memory, the graph's edges (through the ops
/// left out), and per buffer of `slab` its padded size and the nodes that
/// use it (through any alias, uses in nested ops charged to their ancestor).
/// A buffer allocated inside an op's regions lives within that op's span:
/// the peak of those buffers is the op's `nodeBytes`.
static std::optional<Problem> buildProblem(const DependenceGraph &graph,
                                           const SlabBuffers &slab,
                                           const BufferLiveness &liveness,
                                           int64_t alignment) {
  int32_t n = graph.size();
  Problem problem;
  problem.free.assign(n, true);
  std::vector<int64_t> nodeBytes(n, 0);
  // Per node, the (index, +/-size) events of the buffers nested in it.
  llvm::DenseMap<int32_t, std::vector<std::pair<int64_t, int64_t>>> nested;
  for (auto [constOp, buffer] : llvm::zip_equal(slab.ops, slab.buffers)) {
    AllocTensorOp op = constOp;
    std::optional<int64_t> size =
        ::mplan::alignTo(buffer.size, std::max(buffer.alignment, alignment));
    if (!size)
      return std::nullopt;
    int32_t defNode = graph.getNode(op);
    if (defNode < 0)
      return std::nullopt;
    if (graph.getOps()[defNode] != op.getOperation()) {
      auto &events = nested[defNode];
      events.emplace_back(buffer.start, *size);
      events.emplace_back(buffer.end, -*size);
      continue;
    }
    ::mplan::SequenceBuffer entry;
    entry.size = *size;
    for (Value alias : liveness.getAliases(op.getResult()))
      for (OpOperand &use : alias.getUses())
        if (!BufferLiveness::isDeallocUse(use))
          if (int32_t node = graph.getNode(use.getOwner()); node >= 0)
            entry.users.push_back(node);
    // A buffer nobody uses is live at its definition.
    if (entry.users.empty())
      entry.users.push_back(defNode);
    for (int32_t user : entry.users)
      problem.free[user] = false;
    problem.graph.buffers.push_back(std::move(entry));
    problem.roots.push_back(op.getResult());
  }
  for (auto &[node, events] : nested) {
    // Ends sort before starts at the same index ([start, end) ranges).
    llvm::sort(events);
    int64_t live = 0, peak = 0;
    for (auto [index, delta] : events) {
      live += delta;
      peak = std::max(peak, live);
    }
    nodeBytes[node] = peak;
  }
  for (int32_t v = 0; v < n; ++v)
    if (graph.accessesMemory(v) || nodeBytes[v] > 0 || v == n - 1)
      problem.free[v] = false;

  // Problem nodes, with edges through the ops left out: a free op's
  // "predecessors" are its nearest kept ancestors.
  std::vector<int32_t> id(n, -1);
  std::vector<std::vector<int32_t>> keptAncestors(n);
  for (int32_t v = 0; v < n; ++v) {
    std::vector<int32_t> preds;
    for (int32_t p : graph.getPredecessors(v)) {
      if (!problem.free[p])
        preds.push_back(id[p]);
      else
        preds.insert(preds.end(), keptAncestors[p].begin(),
                     keptAncestors[p].end());
    }
    llvm::sort(preds);
    preds.erase(std::unique(preds.begin(), preds.end()), preds.end());
    if (problem.free[v]) {
      keptAncestors[v] = std::move(preds);
      continue;
    }
    id[v] = static_cast<int32_t>(problem.nodes.size());
    problem.nodes.push_back(v);
    problem.graph.predecessors.push_back(std::move(preds));
    problem.graph.nodeBytes.push_back(nodeBytes[v]);
  }
  problem.graph.numNodes = static_cast<int32_t>(problem.nodes.size());
  for (::mplan::SequenceBuffer &buffer : problem.graph.buffers)
    for (int32_t &user : buffer.users)
      user = id[user];
  anchorSources(graph, problem);
  return problem;
}

LogicalResult
mlir::mplan::verifySequenceOptions(Operation *anchor, StringRef pass,
                                   StringRef modeOption,
                                   const MPlanSequenceOptions &options) {
  const std::vector<std::string> &modes = ::mplan::sequenceModes();
  if (!llvm::is_contained(modes, options.mode))
    return emitOptionError(anchor, pass, modeOption,
                           "unknown mode '" + options.mode +
                               "'; expected one of: " + llvm::join(modes, " "));
  if (!(options.timeLimit >= 0))
    return emitOptionError(anchor, pass, "time-limit",
                           "must be a non-negative number of seconds, got " +
                               llvm::formatv("{0}", options.timeLimit));
  if (options.alignment <= 0 || !llvm::isPowerOf2_64(options.alignment))
    return emitOptionError(anchor, pass, "alignment",
                           "must be a positive power of two, got " +
                               Twine(options.alignment));
  return success();
}

FailureOr<bool>
mlir::mplan::sequenceFunction(func::FuncOp func,
                              const MPlanSequenceOptions &options,
                              PlanAnalyses *analyses) {
  // Blocks of a CFG are left alone (their ops' live ranges depend on the
  // block layout, not only on the order within a block).
  if (options.mode == "program" || func.isExternal() ||
      !func.getBody().hasOneBlock())
    return false;
  Block &body = func.getBody().front();

  std::optional<PlanAnalyses> own;
  if (!analyses)
    analyses = &own.emplace(func);
  BufferLiveness &liveness = analyses->getExactLiveness();
  FailureOr<SmallVector<SlabBuffers>> slabs =
      collectSlabBuffers(func, liveness, options.alignment);
  if (failed(slabs))
    return failure();
  const SlabBuffers *slab = nullptr;
  for (const SlabBuffers &candidate : *slabs)
    if (!candidate.memorySpace)
      slab = &candidate;
  if (!slab)
    return false;
  std::optional<int64_t> programBound =
      recordProgramOrderBound(func, liveness, options.alignment);
  if (!programBound)
    return false;

  PointsToAnalysis &pointsTo = analyses->getPointsTo();
  DependenceGraph graph(body, liveness, pointsTo);
  std::optional<Problem> problem =
      buildProblem(graph, *slab, liveness, options.alignment);
  if (!problem)
    return false;
  ::mplan::SequenceOptions sequenceOptions;
  sequenceOptions.mode = options.mode;
  sequenceOptions.timeLimitSeconds = options.timeLimit;
  ::mplan::Expected<::mplan::Sequence> sequence =
      ::mplan::sequenceGraph(problem->graph, sequenceOptions);
  if (!sequence)
    return func.emitError("mplan-sequence: ") << sequence.error();
  // The model must see the bound the planner sees; if it does not (an IR
  // shape the model does not cover), program order stays.
  if (sequence->programPeak != *programBound)
    return false;
  if (sequence->provenOptimal)
    func->setAttr(kSequenceOptimalAttr, UnitAttr::get(func.getContext()));
  if (sequence->peak >= sequence->programPeak)
    return false;

  // The ops left out go right before their first user in the new order.
  const std::vector<bool> &free = problem->free;
  std::vector<bool> placed(graph.size(), false);
  std::vector<int32_t> order;
  order.reserve(graph.size());
  SmallVector<std::pair<int32_t, unsigned>> stack;
  for (int32_t node : sequence->order) {
    node = problem->nodes[node];
    // Depth first through free predecessors, each placed before its users.
    stack.push_back({node, 0});
    while (!stack.empty()) {
      auto &[v, next] = stack.back();
      ArrayRef<int32_t> preds = graph.getPredecessors(v);
      if (next < preds.size()) {
        int32_t p = preds[next++];
        if (free[p] && !placed[p])
          stack.push_back({p, 0});
        continue;
      }
      if (!placed[v]) {
        placed[v] = true;
        order.push_back(v);
      }
      stack.pop_back();
    }
  }

  // Reorder: every op in its new place before the terminator.
  Operation *terminator = body.getTerminator();
  auto reorder = [&](auto &&opsInOrder) {
    for (Operation *op : opsInOrder)
      if (op != terminator)
        op->moveBefore(terminator);
  };
  reorder(llvm::map_range(order,
                          [&](int32_t node) { return graph.getOps()[node]; }));
  // One fresh liveness checks the bound the planner will see (and is the
  // one the steps after this plan with); should it be above program
  // order's, the program order comes back. Aliasing did not change.
  analyses->resetLiveness();
  std::optional<int64_t> newBound =
      boundOf(*slab, analyses->getLiveness(), options.alignment);
  if (!newBound || *newBound > *programBound) {
    reorder(graph.getOps());
    analyses->resetLiveness();
    func->removeAttr(kSequenceOptimalAttr);
    return false;
  }
  return true;
}

namespace {
struct MPlanSequencePass
    : public mlir::mplan::impl::MPlanSequenceBase<MPlanSequencePass> {
  using Base::Base;

  void runOnOperation() override {
    MPlanSequenceOptions options{mode, timeLimit, alignment};
    if (failed(verifySequenceOptions(getOperation(), getArgument(), "mode",
                                     options)))
      return signalPassFailure();
    FailureOr<bool> changed = sequenceFunction(getOperation(), options);
    if (failed(changed))
      return signalPassFailure();
    if (!*changed)
      markAllAnalysesPreserved();
  }
};
} // namespace
