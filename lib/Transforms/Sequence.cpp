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
#include "mplan/Support/CheckedMath.h"
#include "mplan/Support/Sequencer.h"
#include "mplan/Transforms/PlanBuffers.h"
#include "mplan/Transforms/Passes.h"

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

/// The sequencing problem of `block` (the function body): one node per op,
/// the graph's edges, and per buffer of `slab` its padded size and the nodes
/// that use it (through any alias, uses in nested ops charged to their
/// ancestor). A buffer allocated inside an op's regions lives within that
/// op's span: the peak of those buffers is the op's `nodeBytes`.
static std::optional<::mplan::SequenceGraph>
buildProblem(const DependenceGraph &graph, const SlabBuffers &slab,
             const BufferLiveness &liveness, int64_t alignment) {
  ::mplan::SequenceGraph problem;
  problem.numNodes = graph.size();
  problem.predecessors.resize(graph.size());
  for (int32_t v = 0; v < graph.size(); ++v)
    problem.predecessors[v].assign(graph.getPredecessors(v).begin(),
                                   graph.getPredecessors(v).end());
  // Per node, the (index, +/-size) events of the buffers nested in it.
  llvm::DenseMap<int32_t, std::vector<std::pair<int64_t, int64_t>>> nested;
  for (auto [constOp, buffer] : llvm::zip_equal(slab.ops, slab.buffers)) {
    AllocTensorOp op = constOp;
    std::optional<int64_t> size = ::mplan::alignTo(
        buffer.size, std::max(buffer.alignment, alignment));
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
    problem.buffers.push_back(std::move(entry));
  }
  if (!nested.empty()) {
    problem.nodeBytes.assign(graph.size(), 0);
    for (auto &[node, events] : nested) {
      // Ends sort before starts at the same index ([start, end) ranges).
      llvm::sort(events);
      int64_t live = 0, peak = 0;
      for (auto [index, delta] : events) {
        live += delta;
        peak = std::max(peak, live);
      }
      problem.nodeBytes[node] = peak;
    }
  }
  return problem;
}

FailureOr<bool>
mlir::mplan::sequenceFunction(func::FuncOp func,
                              const MPlanSequenceOptions &options) {
  const std::vector<std::string> &modes = ::mplan::sequenceModes();
  if (!llvm::is_contained(modes, options.mode))
    return func.emitError("mplan-sequence: unknown mode '")
           << options.mode << "'; expected program, greedy, best or exact";
  if (options.alignment <= 0 || !llvm::isPowerOf2_64(options.alignment))
    return func.emitError("mplan-sequence: 'alignment' must be a positive "
                          "power of two, got ")
           << options.alignment;
  // Blocks of a CFG are left alone (their ops' live ranges depend on the
  // block layout, not only on the order within a block).
  if (options.mode == "program" || func.isExternal() ||
      !func.getBody().hasOneBlock())
    return false;
  Block &body = func.getBody().front();

  BufferLiveness liveness(func);
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
      ::mplan::lowerBound(slab->buffers, options.alignment);
  if (!programBound)
    return false;
  func->setAttr(kLowerBoundProgramOrderAttr,
                IntegerAttr::get(IntegerType::get(func.getContext(), 64),
                                 *programBound));

  DependenceGraph graph(body, liveness);
  std::optional<::mplan::SequenceGraph> problem =
      buildProblem(graph, *slab, liveness, options.alignment);
  if (!problem)
    return false;
  ::mplan::SequenceOptions sequenceOptions;
  sequenceOptions.mode = options.mode;
  sequenceOptions.timeLimitSeconds = options.timeLimit;
  ::mplan::Expected<::mplan::Sequence> sequence =
      ::mplan::sequenceGraph(*problem, sequenceOptions);
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

  // Ops that use no buffer and touch no memory (constants, allocations,
  // views) cost nothing wherever they run: they go right before their first
  // user in the new order, as close to it as they were.
  std::vector<bool> free(graph.size(), true), placed(graph.size(), false);
  for (const ::mplan::SequenceBuffer &buffer : problem->buffers)
    for (int32_t user : buffer.users)
      free[user] = false;
  for (int32_t v = 0; v < graph.size(); ++v)
    if (graph.accessesMemory(v) ||
        (!problem->nodeBytes.empty() && problem->nodeBytes[v] > 0) ||
        v == graph.size() - 1)
      free[v] = false;
  std::vector<int32_t> order;
  order.reserve(graph.size());
  SmallVector<std::pair<int32_t, unsigned>> stack;
  for (int32_t node : sequence->order) {
    if (free[node])
      continue;
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
  reorder(llvm::map_range(order, [&](int32_t node) {
    return graph.getOps()[node];
  }));
  // One fresh analysis checks the bound the planner will see; should it be
  // above program order's, the program order comes back.
  BufferLiveness after(func);
  std::optional<int64_t> newBound = boundOf(*slab, after, options.alignment);
  if (!newBound || *newBound > *programBound) {
    reorder(graph.getOps());
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
    FailureOr<bool> changed =
        sequenceFunction(getOperation(), {mode, timeLimit, alignment});
    if (failed(changed))
      return signalPassFailure();
    if (!*changed)
      markAllAnalysesPreserved();
  }
};
} // namespace
