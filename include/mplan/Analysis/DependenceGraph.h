//===- DependenceGraph.h - Which ops of a block must stay ordered -*- C++
//-*-===//
//
// The dependence graph over the operations of one block, for passes that
// reorder them (mplan-sequence). Node i is the i-th op of the block; an edge
// u -> v (u < v) says u must run before v in every legal order:
//
//  * SSA: v or an op nested in v's regions uses a value defined by u or by
//    an op nested in u.
//  * Memory, through buffer roots: read-after-write, write-after-read and
//    write-after-write on a common location. An op's accesses are its
//    MemoryEffectOpInterface effects, those of the ops nested in it charged
//    to it (mlir::getEffectsRecursively); a free is a write. A memref value
//    accesses every root it may alias (BufferLiveness::getRootsOf). A root
//    whose accesses the IR shows in full (no use of an alias has a
//    BufferLiveness::getHiddenAccessReason: nothing stores it, takes its
//    address or hands it to a callee that may keep it) is a location of its
//    own, planned or not (a returned buffer is one); everything else --
//    function arguments, roots with hidden accesses, non-constant globals,
//    values not derived from a root through views only (select, loop
//    arguments, loads of memrefs) -- is one location "other", which such
//    values touch in addition to their roots. Reads of constant globals
//    (`memref.global constant`, e.g. weights) order against nothing. An
//    effect on a resource other than the default one is an access to that
//    resource.
//  * Barriers: an op whose effects are unknown (no interface, e.g. calls), or
//    with an effect on the default resource that names no value or a symbol,
//    is ordered after every earlier op that accesses memory and before every
//    later one.
//  * The terminator comes after every other op.
//
// Allocations of fresh values are not accesses (SSA orders their uses), so
// allocations, views and pure ops move freely within their operands' order.
// Building the graph is linear in the ops and effects of the block (plus
// the depth of nested ops for SSA edges); the graph has O(ops + accesses)
// edges.
//
// mlir::sortTopologically / computeTopologicalSorting follow SSA edges only
// and would move a write or a deallocation above a reader of the same buffer;
// they must not be used to reorder memory operations.
//
//===----------------------------------------------------------------------===//

#ifndef MPLAN_ANALYSIS_DEPENDENCEGRAPH_H
#define MPLAN_ANALYSIS_DEPENDENCEGRAPH_H

#include "mlir/IR/Block.h"
#include "mlir/IR/Operation.h"
#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/SmallVector.h"

#include <vector>

namespace mlir {
namespace mplan {
class BufferLiveness;
class PointsToAnalysis;

class DependenceGraph {
public:
  /// Builds the graph of the ops of `block` (at any depth of the function
  /// `liveness` analyzes, up to date with the IR).
  DependenceGraph(Block &block, const BufferLiveness &liveness,
                  const PointsToAnalysis &pointsTo);

  /// The ops of the block in program order (node i is getOps()[i]).
  ArrayRef<Operation *> getOps() const { return ops; }
  int32_t size() const { return static_cast<int32_t>(ops.size()); }

  /// The nodes that must run before `node` (each smaller than `node`; sorted,
  /// without duplicates; transitive edges not removed).
  ArrayRef<int32_t> getPredecessors(int32_t node) const {
    return predecessors[node];
  }
  const std::vector<SmallVector<int32_t, 2>> &getAllPredecessors() const {
    return predecessors;
  }

  /// The node of `op`, an op of the block or nested in one, or -1.
  int32_t getNode(Operation *op) const;

  /// True if `node` is ordered against every memory access (unknown
  /// effects).
  bool isBarrier(int32_t node) const { return barrier[node]; }
  /// True if `node` reads, writes or frees memory (or is a barrier).
  bool accessesMemory(int32_t node) const { return memory[node]; }
  /// True if `node` writes (or frees) the buffer root `root` as a location
  /// of its own (not through "other").
  bool writesRoot(int32_t node, Value root) const;

  /// True if `order`, a permutation of the nodes, runs every node after its
  /// predecessors.
  bool isLegalOrder(ArrayRef<int32_t> order) const;

private:
  Block *block;
  std::vector<Operation *> ops;
  llvm::DenseMap<Operation *, int32_t> nodeOf;
  std::vector<SmallVector<int32_t, 2>> predecessors;
  std::vector<bool> barrier, memory;
  /// Per node, the locations it writes.
  std::vector<SmallVector<const void *, 2>> written;
};

} // namespace mplan
} // namespace mlir

#endif // MPLAN_ANALYSIS_DEPENDENCEGRAPH_H
