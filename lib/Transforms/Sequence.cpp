//===- Sequence.cpp - Order a function's ops to lower the max-live bound --===//
//
// mplan-sequence: the ops of a function body are reordered, within what the
// dependence graph allows, so that every memory space with a capacity fits it
// (a space over its capacity is lowered first) and then the max-live bound of
// the buffers the planner will place (collectSlabBuffers) in the default
// memory space is as low as the sequencer finds. The planner's live ranges
// judge every order (FunctionSequencer::judge).
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

static_assert(::mplan::SequenceOptions::kDefaultSequenceWorkLimit == 10000000,
              "the default of mplan-sequence's work-limit (Passes.td)");

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
/// One buffer of the model: its root, the op defining it, its live range in
/// program order and the bytes it weighs in the model's objective.
struct ModelBuffer {
  Operation *op;
  Value root;
  int64_t start, end, weight;
  /// Not in the objective: every buffer so marked that is disjoint from it
  /// in program order stays disjoint (an edge from its last user to the
  /// other's first user).
  bool keepDisjoint = false;
};
} // namespace

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
/// left out), and per buffer of `buffers` its weight and the nodes that use
/// it (through any alias, uses in nested ops charged to their ancestor). A
/// buffer allocated inside an op's regions lives within that op's span: the
/// peak of those buffers is the op's `nodeBytes`. Buffers marked
/// `keepDisjoint` weigh nothing; each two of them disjoint in program order
/// get an edge that keeps them so, and so, since intervals that meet
/// pairwise meet at one point, the max-live bytes of those buffers never
/// grow. Fails (with why) if a buffer is not in the graph.
static FailureOr<Problem> buildProblem(const DependenceGraph &graph,
                                       ArrayRef<ModelBuffer> buffers,
                                       const BufferLiveness &liveness,
                                       std::string &why) {
  int32_t n = graph.size();
  Problem problem;
  problem.free.assign(n, true);
  std::vector<int64_t> nodeBytes(n, 0);
  // Per node, the (index, +/-size) events of the buffers nested in it.
  llvm::DenseMap<int32_t, std::vector<std::pair<int64_t, int64_t>>> nested;
  // Per keepDisjoint buffer, the nodes that use it.
  std::vector<std::vector<int32_t>> disjoint;
  for (const ModelBuffer &buffer : buffers) {
    int32_t defNode = graph.getNode(buffer.op);
    if (defNode < 0) {
      why = "a buffer is defined outside the function body's block";
      return failure();
    }
    if (buffer.keepDisjoint) {
      std::vector<int32_t> users{defNode};
      for (Value alias : liveness.getAliases(buffer.root))
        for (OpOperand &use : alias.getUses())
          if (!BufferLiveness::isDeallocUse(use))
            if (int32_t node = graph.getNode(use.getOwner()); node >= 0)
              users.push_back(node);
      for (int32_t user : users)
        problem.free[user] = false;
      disjoint.push_back(std::move(users));
      continue;
    }
    if (graph.getOps()[defNode] != buffer.op) {
      auto &events = nested[defNode];
      events.emplace_back(buffer.start, buffer.weight);
      events.emplace_back(buffer.end, -buffer.weight);
      continue;
    }
    ::mplan::SequenceBuffer entry;
    entry.size = buffer.weight;
    for (Value alias : liveness.getAliases(buffer.root))
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
    problem.roots.push_back(buffer.root);
  }
  for (auto &[node, events] : nested) {
    // Ends sort before starts at the same index ([start, end) ranges).
    llvm::sort(events);
    int64_t live = 0, peak = 0;
    for (auto [index, delta] : events) {
      if (!::mplan::addInPlace(live, delta)) {
        why = "the bytes of the buffers nested in an op overflow int64";
        return failure();
      }
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
  // Each buffer's first and last problem node; p before q (p's last before
  // q's first) stays so.
  std::vector<std::pair<int32_t, int32_t>> spans;
  for (const std::vector<int32_t> &users : disjoint) {
    auto [lo, hi] = std::minmax_element(users.begin(), users.end());
    spans.emplace_back(id[*lo], id[*hi]);
  }
  llvm::sort(spans);
  for (size_t q = 0; q < spans.size(); ++q)
    for (size_t p = 0; p < q; ++p)
      if (spans[p].second < spans[q].first)
        problem.graph.predecessors[spans[q].first].push_back(spans[p].second);
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
  if (options.workLimit < 0)
    return emitOptionError(anchor, pass, "work-limit",
                           "must not be negative, got " +
                               Twine(options.workLimit));
  return parseCapacities(
      [&] { return emitOptionError(anchor, pass, "capacity", ""); },
      options.capacity);
}

namespace {
/// What the planner sees of one order: the bound of every memory space's
/// slab (parallel to the slabs) and the live range of every run-time sized
/// buffer.
struct PlannerView {
  SmallVector<int64_t> bounds;
  SmallVector<LiveRange> dynamicRanges;
};

/// How a model of the order treats the buffers of one slab.
enum class Role {
  /// Their live bytes are the peak the sequencer lowers.
  Objective,
  /// ModelBuffer::keepDisjoint: their max-live bytes cannot grow.
  KeepDisjoint,
  /// Not in the model: free to grow (the planner's verdict decides).
  Omit,
};

/// What ordering the body by one model gave.
struct Attempt {
  enum Kind {
    /// An order was found and taken.
    Taken,
    /// The current order is proven optimal for the objective's bound.
    Optimal,
    /// No order with a lower peak of the model was found.
    NotFound,
    /// The order found was rejected, or the model could not be built.
    Rejected,
  } kind;
  /// Why the order was not taken (Taken: empty).
  std::string reason;
  /// Taken: the order is proven optimal for the objective's bound.
  bool provenOptimal = false;
};

/// A function being sequenced: its slabs, run-time sized buffers and
/// capacities, and the planner's view of its current order.
class FunctionSequencer {
public:
  FunctionSequencer(func::FuncOp func, const MPlanSequenceOptions &options,
                    PlanAnalyses &analyses)
      : func(func), body(func.getBody().front()), options(options),
        analyses(analyses) {}

  FailureOr<bool> run();

private:
  /// Keeps program order for `reason`: records it, with a remark if asked.
  bool keep(const Twine &reason);
  /// The planner's view of the current order; std::nullopt if a bound
  /// overflows.
  std::optional<PlannerView> view(const BufferLiveness &liveness) const;
  /// Bytes over the capacities in `view`.
  int64_t excess(const PlannerView &view) const;
  /// Why the planner rejects `after` against the current order, or an
  /// empty string if it takes it.
  std::string judge(const PlannerView &after) const;
  /// The model's buffers: per slab as `roles` says (objective buffers at
  /// their padded sizes), and, with `keepDynamic`, the run-time sized ones
  /// as buffers that keep disjoint. Fails if the sizes overflow.
  FailureOr<SmallVector<ModelBuffer>> modelBuffers(ArrayRef<Role> roles,
                                                   bool keepDynamic) const;
  /// Orders the body by the model of `roles` and `keepDynamic` and takes
  /// the order if the planner does (judge); `bound` is the planner's bound
  /// of the objective in the current order. A taken order becomes the
  /// current one (`current`, `liveness`, `graph`).
  FailureOr<Attempt> attempt(ArrayRef<Role> roles, bool keepDynamic,
                             int64_t bound);
  /// Lowers each space over its capacity (Role::Objective) before anything
  /// else: first with every other space kept from growing, then with the
  /// spaces without a capacity free, then with every other space free.
  /// Returns whether an order was taken; `reason` says why a space still
  /// does not fit, unless its order is proven optimal; `optimal` is set if
  /// a space was over its capacity and every such space's order is.
  FailureOr<bool> fitCapacities(std::string &reason, bool &optimal);
  /// Orders the ops of the body as `order` (dependence-graph nodes with the
  /// free ops placed before their first users).
  void reorder(ArrayRef<Operation *> ops);

  func::FuncOp func;
  Block &body;
  const MPlanSequenceOptions &options;
  /// The function's analyses; `liveness` is theirs, of the current order.
  PlanAnalyses &analyses;
  BufferLiveness *liveness = nullptr;
  /// The dependence graph of the current order (built when a model needs
  /// it).
  std::optional<DependenceGraph> graph;
  SmallVector<SlabBuffers> slabs;
  SmallVector<AllocDynamicOp> dynamicOps;
  /// Per slab, its capacity (0: none).
  SmallVector<int64_t> capacities;
  /// The planner's view of the current order: program order until an order
  /// is taken.
  PlannerView current;
};
} // namespace

/// Records why `func` keeps program order (kSequenceKeptBecauseAttr), with
/// a remark if `emitRemarks`; returns false (the IR did not change).
static bool keepProgramOrder(func::FuncOp func, bool emitRemarks,
                             const Twine &reason) {
  std::string text = reason.str();
  func->setAttr(kSequenceKeptBecauseAttr,
                StringAttr::get(func.getContext(), text));
  if (emitRemarks)
    mlir::emitRemark(func.getLoc(), "mplan-sequence kept program order: ")
        << text;
  return false;
}

bool FunctionSequencer::keep(const Twine &reason) {
  return keepProgramOrder(func, options.emitRemarks, reason);
}

std::optional<PlannerView>
FunctionSequencer::view(const BufferLiveness &analysis) const {
  PlannerView result;
  for (const SlabBuffers &slab : slabs) {
    std::optional<int64_t> bound = boundOf(slab, analysis, options.alignment);
    if (!bound)
      return std::nullopt;
    result.bounds.push_back(*bound);
  }
  for (AllocDynamicOp op : dynamicOps)
    result.dynamicRanges.push_back(analysis.getLiveRange(op.getResult()));
  return result;
}

int64_t FunctionSequencer::excess(const PlannerView &view) const {
  int64_t total = 0;
  for (auto [bound, capacity] : llvm::zip_equal(view.bounds, capacities))
    if (capacity > 0 && bound > capacity)
      total = ::mplan::addInPlace(total, bound - capacity)
                  ? total
                  : std::numeric_limits<int64_t>::max();
  return total;
}

/// The memory space of `slab` as remarks name it.
static std::string spaceName(const SlabBuffers &slab) {
  std::string name = formatMemorySpace(slab.memorySpace);
  return name.empty() ? "default" : name;
}

// The rule, the same whatever the order of the slabs: fitting the
// capacities comes first. An order that lowers the bytes over the
// capacities is taken even if a space grows, as long as every space with a
// capacity that grows stays within it (a space without one may grow). An
// order that leaves those bytes as they were (none, without capacities) is
// taken only if no space's bound grows and one of them gets lower.
std::string FunctionSequencer::judge(const PlannerView &after) const {
  bool fitsBetter = excess(after) < excess(current);
  bool lower = false;
  for (auto [i, slab] : llvm::enumerate(slabs)) {
    int64_t old = current.bounds[i], bound = after.bounds[i];
    lower |= bound < old;
    if (bound <= old)
      continue;
    if (fitsBetter && (capacities[i] == 0 || bound <= capacities[i]))
      continue;
    return llvm::formatv("the order found raises the bound of memory space "
                         "'{0}' from {1} to {2} bytes",
                         spaceName(slab), old, bound)
        .str();
  }
  // Run-time sized buffers disjoint in program order stay disjoint (else
  // their run-time arena grows).
  auto overlap = [](LiveRange a, LiveRange b) {
    return a.start < b.end && b.start < a.end;
  };
  for (size_t i = 0; i < dynamicOps.size(); ++i)
    for (size_t j = i + 1; j < dynamicOps.size(); ++j)
      if (!overlap(current.dynamicRanges[i], current.dynamicRanges[j]) &&
          overlap(after.dynamicRanges[i], after.dynamicRanges[j]))
        return "the order found makes two run-time sized buffers that are "
               "disjoint in program order overlap";
  if (!fitsBetter && !lower)
    return "the order found does not lower the planner's bound of any "
           "memory space";
  return "";
}

FailureOr<SmallVector<ModelBuffer>>
FunctionSequencer::modelBuffers(ArrayRef<Role> roles, bool keepDynamic) const {
  SmallVector<ModelBuffer> buffers;
  int64_t total = 0;
  // The objective's buffers first, then the other spaces', then the run-time
  // sized ones.
  for (Role role : {Role::Objective, Role::KeepDisjoint}) {
    for (auto [slab, slabRole] : llvm::zip_equal(slabs, roles)) {
      if (slabRole != role)
        continue;
      for (auto [op, buffer] : llvm::zip_equal(slab.ops, slab.buffers)) {
        Operation *def = AllocTensorOp(op).getOperation();
        LiveRange range = liveness->getLiveRange(def->getResult(0));
        if (role == Role::KeepDisjoint) {
          buffers.push_back(
              {def, def->getResult(0), range.start, range.end, 0, true});
          continue;
        }
        std::optional<int64_t> size = ::mplan::alignTo(
            buffer.size, std::max(buffer.alignment, options.alignment));
        if (!size || !::mplan::addInPlace(total, *size))
          return failure();
        buffers.push_back(
            {def, def->getResult(0), range.start, range.end, *size});
      }
    }
  }
  if (!keepDynamic)
    return buffers;
  for (auto [op, range] : llvm::zip_equal(dynamicOps, current.dynamicRanges)) {
    Operation *def = AllocDynamicOp(op).getOperation();
    buffers.push_back(
        {def, def->getResult(0), range.start, range.end, 0, true});
  }
  return buffers;
}

void FunctionSequencer::reorder(ArrayRef<Operation *> ops) {
  Operation *terminator = body.getTerminator();
  for (Operation *op : ops)
    if (op != terminator)
      op->moveBefore(terminator);
}

FailureOr<Attempt> FunctionSequencer::attempt(ArrayRef<Role> roles,
                                              bool keepDynamic, int64_t bound) {
  FailureOr<SmallVector<ModelBuffer>> buffers =
      modelBuffers(roles, keepDynamic);
  if (failed(buffers))
    return Attempt{Attempt::Rejected,
                   "the sizes of the buffers to order overflow int64"};
  if (!graph)
    graph.emplace(body, *liveness, analyses.getPointsTo());
  std::string why;
  FailureOr<Problem> problem = buildProblem(*graph, *buffers, *liveness, why);
  if (failed(problem))
    return Attempt{Attempt::Rejected,
                   "the sequencing problem cannot be built: " + why};
  ::mplan::SequenceOptions sequenceOptions;
  sequenceOptions.mode = options.mode;
  sequenceOptions.timeLimitSeconds = options.timeLimit;
  sequenceOptions.workLimit = options.workLimit;
  // While a space is over its capacity, the order may be what its buffers
  // are split on next: which of the optimal orders it is matters, and the
  // full search's is the one the splits were built against.
  sequenceOptions.dominance = excess(current) == 0;
  ::mplan::Expected<::mplan::Sequence> sequence =
      ::mplan::sequenceGraph(problem->graph, sequenceOptions);
  if (!sequence)
    return mlir::emitError(func.getLoc(), "mplan-sequence: ")
           << sequence.error();
  // The model counts what the planner counts when the objective is alone in
  // it; otherwise, and anyway, the planner's live ranges judge every order
  // below.
  bool alone = llvm::count(roles, Role::Objective) == 1 &&
               llvm::count(roles, Role::KeepDisjoint) == 0 &&
               (!keepDynamic || dynamicOps.empty());
  bool modelIsPlanner = alone && sequence->programPeak == bound;
  if (sequence->peak >= sequence->programPeak) {
    if (sequence->provenOptimal && modelIsPlanner)
      return Attempt{Attempt::Optimal,
                     "program order's bound is proven optimal"};
    if (sequence->provenOptimal && !alone)
      return Attempt{Attempt::NotFound,
                     "program order is optimal for the model that keeps the "
                     "other spaces and the run-time sized buffers from "
                     "growing"};
    if (sequence->provenOptimal)
      return Attempt{
          Attempt::NotFound,
          llvm::formatv("program order is optimal for the model, whose "
                        "program-order peak {0} differs from the planner's "
                        "bound {1}",
                        sequence->programPeak, bound)
              .str()};
    return Attempt{Attempt::NotFound,
                   sequence->budgetExhausted
                       ? "the search's work budget ran out before it found "
                         "an order below program order's bound"
                       : (options.mode == "greedy"
                              ? "the list schedulers found no lower order "
                                "(sequence=greedy proves nothing)"
                              : "no order with a lower bound was found (not "
                                "proven optimal)")};
  }

  // The ops left out go right before their first user in the new order.
  const std::vector<bool> &free = problem->free;
  std::vector<bool> placed(graph->size(), false);
  SmallVector<Operation *> order;
  order.reserve(graph->size());
  SmallVector<std::pair<int32_t, unsigned>> stack;
  for (int32_t node : sequence->order) {
    node = problem->nodes[node];
    // Depth first through free predecessors, each placed before its users.
    stack.push_back({node, 0});
    while (!stack.empty()) {
      auto &[v, next] = stack.back();
      ArrayRef<int32_t> preds = graph->getPredecessors(v);
      if (next < preds.size()) {
        int32_t p = preds[next++];
        if (free[p] && !placed[p])
          stack.push_back({p, 0});
        continue;
      }
      if (!placed[v]) {
        placed[v] = true;
        order.push_back(graph->getOps()[v]);
      }
      stack.pop_back();
    }
  }
  reorder(order);
  // The planner's live ranges judge the order (a fresh liveness, the one
  // the steps after this one plan with); the current order comes back
  // unless it takes it. Aliasing did not change.
  analyses.resetLiveness();
  liveness = &analyses.getLiveness();
  std::optional<PlannerView> after = view(*liveness);
  why = after ? judge(*after)
              : "a memory space's bound overflows int64 in the order found";
  if (why.empty()) {
    current = std::move(*after);
    // Built again should another model start from this order.
    graph.reset();
    Attempt taken{Attempt::Taken, ""};
    taken.provenOptimal = sequence->provenOptimal && modelIsPlanner;
    return taken;
  }
  reorder(graph->getOps());
  analyses.resetLiveness();
  liveness = &analyses.getLiveness();
  if (alone && !modelIsPlanner)
    why += llvm::formatv(" (the model's program-order peak {0} differs "
                         "from the planner's bound {1})",
                         sequence->programPeak, bound)
               .str();
  return Attempt{Attempt::Rejected, why};
}

/// Keeps in `reason` what `attempt` says of why its model gave nothing: a
/// rejection or a model that could not be built replaces an earlier reason,
/// "nothing lower found" does not (the earlier model's rejection says more).
static void noteWhy(const Attempt &attempt, std::string &reason) {
  if (attempt.kind == Attempt::Rejected ||
      (attempt.kind != Attempt::Taken && reason.empty()))
    reason = attempt.reason;
}

FailureOr<bool> FunctionSequencer::fitCapacities(std::string &reason,
                                                 bool &optimal) {
  bool changed = false, anyOver = false, allProven = true;
  // The spaces most over their capacities first (then by name): the same
  // whatever the order in which the function allocates them (one slab per
  // space: the names differ).
  SmallVector<size_t> spaces;
  SmallVector<std::pair<int64_t, std::string>> keys;
  for (auto [i, slab] : llvm::enumerate(slabs)) {
    spaces.push_back(i);
    keys.push_back({capacities[i] > 0 ? current.bounds[i] - capacities[i] : 0,
                    formatMemorySpace(slab.memorySpace)});
  }
  llvm::sort(spaces, [&](size_t a, size_t b) {
    return keys[a].first != keys[b].first ? keys[a].first > keys[b].first
                                          : keys[a].second < keys[b].second;
  });
  for (size_t s : spaces) {
    auto over = [&] {
      return capacities[s] > 0 && current.bounds[s] > capacities[s];
    };
    if (!over())
      continue;
    anyOver = true;
    bool proven = false;
    std::string why;
    SmallVector<Role> previous;
    for (int variant = 0; variant < 3 && over(); ++variant) {
      SmallVector<Role> roles;
      for (size_t i = 0; i < slabs.size(); ++i) {
        bool free = variant == 2 || (variant == 1 && capacities[i] == 0);
        roles.push_back(i == s ? Role::Objective
                               : (free ? Role::Omit : Role::KeepDisjoint));
      }
      if (roles == previous)
        continue;
      previous = roles;
      FailureOr<Attempt> tried =
          attempt(roles, /*keepDynamic=*/true, current.bounds[s]);
      if (failed(tried))
        return failure();
      changed |= tried->kind == Attempt::Taken;
      noteWhy(*tried, why);
      proven = tried->kind == Attempt::Optimal;
      if (proven)
        break;
    }
    // No order fits where this one is proven optimal: nothing to say.
    allProven &= proven || !over();
    if (over() && !proven && reason.empty())
      reason =
          llvm::formatv("no order found fits memory space '{0}' in its "
                        "capacity of {1} bytes (its bound stays at {2} "
                        "bytes): {3}",
                        spaceName(slabs[s]), capacities[s], current.bounds[s],
                        why.empty() ? "the orders taken lower it that far "
                                      "only"
                                    : why)
              .str();
  }
  optimal = anyOver && allProven;
  return changed;
}

FailureOr<bool> FunctionSequencer::run() {
  liveness = &analyses.getExactLiveness();
  FailureOr<SmallVector<SlabBuffers>> collected =
      collectSlabBuffers(func, *liveness, options.alignment);
  if (failed(collected))
    return failure();
  slabs = std::move(*collected);
  // The run-time sized buffers the liveness tracks, in program order.
  for (Value root : liveness->getRootsInProgramOrder())
    if (auto op = root.getDefiningOp<AllocDynamicOp>())
      if (!op.isPlanned())
        dynamicOps.push_back(op);
  FailureOr<llvm::StringMap<int64_t>> parsed = parseCapacities(
      [&] { return mlir::emitError(func.getLoc(), "capacity "); },
      options.capacity);
  if (failed(parsed))
    return failure();
  for (const SlabBuffers &slab : slabs)
    capacities.push_back(parsed->lookup(formatMemorySpace(slab.memorySpace)));
  std::optional<int64_t> recorded =
      recordProgramOrderBound(func, slabs, options.alignment);
  std::optional<PlannerView> programView = view(*liveness);
  if (!recorded || !programView)
    return keep("a memory space's bound in program order overflows int64");
  current = std::move(*programView);
  if (slabs.empty())
    return false;

  // Every capacity first: a space over its capacity is the objective of its
  // own models.
  std::string capacityReason;
  bool fitOptimal = false;
  FailureOr<bool> fitted = fitCapacities(capacityReason, fitOptimal);
  if (failed(fitted))
    return failure();
  bool changed = *fitted;
  // `optimal`: the order is proven optimal for the default space; it is
  // for the objective unless a space over its capacity is not.
  auto finish = [&](bool optimal, const std::string &reason) {
    // A later run (the pipeline orders a split program again) decides
    // afresh.
    if (optimal && capacityReason.empty())
      func->setAttr(kSequenceOptimalAttr, UnitAttr::get(func.getContext()));
    else
      func->removeAttr(kSequenceOptimalAttr);
    if (changed) {
      func->removeAttr(kSequenceKeptBecauseAttr);
      return true;
    }
    if (!capacityReason.empty())
      return keep(capacityReason);
    if (reason.empty())
      return false;
    return keep(reason);
  };

  // Then the default space's bound: its model alone first; should the
  // planner reject its order because of another space or the run-time sized
  // buffers, the same model where those buffers keep disjoint.
  std::optional<size_t> defaultSlab;
  for (auto [i, slab] : llvm::enumerate(slabs))
    if (!slab.memorySpace)
      defaultSlab = i;
  // Without default-space buffers, program order stays (unless a capacity
  // was fitted), and the remark says so unless the capped spaces' orders
  // are proven optimal.
  if (!defaultSlab) {
    if (fitOptimal)
      return finish(true, "");
    return finish(false, "the function has no static buffers in the default "
                         "memory space (sequencing lowers the default "
                         "space's bound, and another space's only to fit its "
                         "capacity; other spaces are only kept from growing)");
  }
  bool otherSpaces = slabs.size() > 1 || !dynamicOps.empty();
  // The planner's bound of the default space in the current order (not the
  // recorded program-order bound: the pipeline sequences a function again
  // after splitting it, when the order is no longer the program's).
  int64_t bound = current.bounds[*defaultSlab];
  // No order takes a space below its op floor (the most bytes one op touches
  // itself, padded as the bound pads them): a bound at the floor is optimal
  // without building a model (on large functions most of sequencing's cost).
  if (computeOpFloor(slabs[*defaultSlab], analyses.getPointsTo(), *liveness,
                     options.alignment, /*enough=*/bound)
          .first >= bound)
    return finish(true, "");
  std::string reason;
  for (bool everySpace : {false, true}) {
    if (everySpace && !otherSpaces)
      continue;
    SmallVector<Role> roles(slabs.size(),
                            everySpace ? Role::KeepDisjoint : Role::Omit);
    roles[*defaultSlab] = Role::Objective;
    FailureOr<Attempt> tried = attempt(roles, everySpace, bound);
    if (failed(tried))
      return failure();
    if (tried->kind == Attempt::Taken) {
      changed = true;
      return finish(tried->provenOptimal, "");
    }
    if (tried->kind == Attempt::Optimal)
      return finish(true, "");
    noteWhy(*tried, reason);
  }
  return finish(false, reason);
}

FailureOr<bool>
mlir::mplan::sequenceFunction(func::FuncOp func,
                              const MPlanSequenceOptions &options,
                              PlanAnalyses *analyses) {
  if (options.mode == "program" || func.isExternal())
    return false;
  // Blocks of a CFG are left alone (their ops' live ranges depend on the
  // block layout, not only on the order within a block).
  if (!func.getBody().hasOneBlock())
    return keepProgramOrder(func, options.emitRemarks,
                            "the function body has more than one block (a "
                            "CFG is not reordered)");
  std::optional<PlanAnalyses> own;
  if (!analyses)
    analyses = &own.emplace(func);
  return FunctionSequencer(func, options, *analyses).run();
}

namespace {
struct MPlanSequencePass
    : public mlir::mplan::impl::MPlanSequenceBase<MPlanSequencePass> {
  using Base::Base;

  void runOnOperation() override {
    MPlanSequenceOptions options{
        mode,      timeLimit,   alignment,
        workLimit, emitRemarks, {capacity.begin(), capacity.end()}};
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
