//===- BufferLiveness.h - Live ranges and aliases of buffers ----*- C++ -*-===//
//
// The analysis every mplan pass plans with: a numbering of a function's
// operations in evaluation order ("sequenced SSA"), the alias closure of every
// buffer, why a buffer cannot be planned (escapes, captures, concurrency) and
// its live range [start, end) over the numbering.
//
// Numbering. Every operation of the function, at any nesting depth, gets a
// pre-order index: an op's index is smaller than the indices of the ops nested
// in its regions, which are smaller than the index of its next sibling. An op
// with regions therefore spans [getIndex(op), getSubtreeEnd(op)].
//
// Roots. A root is a `memref.alloc`, `mplan.alloc_tensor` or
// `mplan.alloc_dynamic` result of the function. Its aliases are every memref
// value that may designate the same bytes: the forward closure of the root
// along the flow edges of the points-to analysis (forEachPointerFlow in
// PointsTo.h, the one statement of how memref values propagate: views and
// casts, `arith.select`, region branch and branch operands into exactly the
// successor inputs they are forwarded to, calls that may keep it, unknown
// ops' results and region arguments). Results of ops that allocate
// (bufferization.clone, memref.alloc, ...) are new buffers, not aliases.
//
// Live ranges. Let R be the region holding the root's definition and use(x)
// the ancestor of a use x in R. A use charges the whole span of use(x) (a use
// inside a loop keeps the buffer live for the whole loop; a buffer allocated
// inside a loop body is live within one iteration: its range lies inside the
// loop's span). In a single-block R the range is
// [min span start, max span end + 1) over all uses of all aliases, i.e. from
// first use to last use + 1. In a multi-block R every block on a path from the
// definition to a use (not through the definition again) contributes its
// span, so every program point where the buffer is live lies in its range.
// Deallocations (`memref.dealloc`, `bufferization.dealloc` operands and the
// `extract_strided_metadata` feeding them) are not uses: they disappear when
// the buffer is planned.
//
// Unmanaged buffers. getUnplannableReason gives the first reason found:
// returned from the function, or a hidden access (getHiddenAccessReason:
// passed to a call that may keep it, stored, also into a memref of memrefs or
// by a terminator that yields it to an op that may store it, address taken,
// captured by an op whose memory effects are unknown, converted to a
// non-memref value, freed or reallocated other than by a deallocation),
// carried across a loop iteration or out of the region it is allocated in,
// allocated inside a parallel loop body, deallocated through a value that may
// alias other buffers, ...
//
// In-place updates. Passes that rewrite IR (fold views, elide copies) keep the
// analysis valid by calling the notify* methods; each costs time proportional
// to the values and uses it touches, never a whole-function walk. Ranges only
// grow under updates (conservative); recomputeLiveRange(root) shrinks one root
// back to its exact range.
//
//===----------------------------------------------------------------------===//

#ifndef MPLAN_ANALYSIS_BUFFERLIVENESS_H
#define MPLAN_ANALYSIS_BUFFERLIVENESS_H

#include "mplan/Analysis/OpKindCache.h"

#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/Operation.h"
#include "mlir/IR/Value.h"
#include "mlir/Pass/AnalysisManager.h"
#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/SmallVector.h"
#include <optional>
#include <string>

namespace mlir {
namespace mplan {

/// A half-open interval [start, end) of op indices.
struct LiveRange {
  int64_t start = 0;
  int64_t end = 0;
  bool overlaps(const LiveRange &other) const {
    return start < other.end && other.start < end;
  }
  /// The smallest range containing both.
  LiveRange merge(const LiveRange &other) const {
    return {std::min(start, other.start), std::max(end, other.end)};
  }
  bool operator==(const LiveRange &other) const {
    return start == other.start && end == other.end;
  }
};

/// Sequencing, aliases, escapes and live ranges of the buffers of one
/// function. Usable as an MLIR analysis (`getAnalysis<BufferLiveness>()` on a
/// function-like op) or standalone.
class BufferLiveness {
public:
  /// Analyzes `funcOp`, an operation with one region (a function). Linear in
  /// the number of ops plus the total size of the roots' alias closures.
  explicit BufferLiveness(Operation *funcOp);
  BufferLiveness(Operation *funcOp, AnalysisManager &)
      : BufferLiveness(funcOp) {}

  Operation *getFunction() const { return funcOp; }

  //===--------------------------------------------------------------------===//
  // Numbering
  //===--------------------------------------------------------------------===//

  /// The pre-order index of `op`. An op inserted after the analysis ran and
  /// not announced with notifyOpInserted gets the index of its next numbered
  /// sibling (or its parent's subtree end). -1 if `op` is not in the function.
  int64_t getIndex(Operation *op) const;
  /// The largest index of `op` and the ops nested in it.
  int64_t getSubtreeEnd(Operation *op) const;
  /// The number of indices used by the numbering (one past the largest).
  int64_t getNumIndices() const { return numIndices; }
  /// Whether `a` comes before `b` in program order (pre-order: an op before
  /// the ops nested in it); by their indices, and for ops that share one
  /// (inserted since the numbering) by their places in the IR.
  bool isBefore(Operation *a, Operation *b) const;

  //===--------------------------------------------------------------------===//
  // Roots and aliases
  //===--------------------------------------------------------------------===//

  /// The buffers the analysis tracks (memref.alloc, mplan.alloc_tensor and
  /// mplan.alloc_dynamic results), in the order the analysis met them (the
  /// function's, then the order they were announced); erased roots are
  /// dropped.
  SmallVector<Value> getRoots() const;
  /// getRoots() in program order (the pre-order of their defining ops): what
  /// a walk of the function would list, without walking it.
  SmallVector<Value> getRootsInProgramOrder() const;
  bool isRoot(Value value) const { return rootIndex.count(value); }

  /// The roots `value` may alias (empty for function arguments and buffers
  /// the analysis does not track).
  ArrayRef<Value> getRootsOf(Value value) const;
  /// The unique root `value` may alias, or null if none or several.
  Value getRoot(Value value) const;

  /// `root` and every value that may alias it (root first). Empty if `root`
  /// is not a root.
  ArrayRef<Value> getAliases(Value root) const;
  /// Legacy form: appends the aliases of `buffer` (a root) to `aliases`. For
  /// a non-root value, appends the value and its forward alias closure.
  void getAliases(Value buffer, SmallVectorImpl<Value> &aliases) const;

  /// True if `value` is a fresh allocation made by its defining op (an
  /// `Allocate` effect on it): a new buffer, never an alias of the op's
  /// operands.
  static bool isAllocatedResult(Value value);

  /// True if `use` only deallocates (memref.dealloc, a bufferization.dealloc
  /// memref operand, or an extract_strided_metadata feeding only those).
  static bool isDeallocUse(OpOperand &use);

  //===--------------------------------------------------------------------===//
  // Live ranges and escapes
  //===--------------------------------------------------------------------===//

  /// The live range of `root` over the numbering. For a non-root value,
  /// computes the range of the value and its forward aliases on the fly.
  LiveRange getLiveRange(Value root) const;

  /// Why `root` must not be given a planned slot, or std::nullopt if it can.
  /// For a non-root value, analyzes it on the fly.
  std::optional<std::string> getUnplannableReason(Value root) const;

  /// Whether an alias of root `root` may have a use that frees it
  /// (isDeallocUse): false only if none of the uses the analysis saw did
  /// (true for a value that is no root).
  bool mayBeDeallocated(Value root) const;
  /// Records that every use of root `root`'s aliases that freed it was
  /// erased (capture takes its deallocations over): mayBeDeallocated is
  /// false from now on, until a use that frees it is announced.
  void notifyDeallocsErased(Value root);

  /// Why the function may keep, free or hand on the memref argument `arg`
  /// past its return (through a return, a store, a call, a deallocation,
  /// ...), or std::nullopt if it only reads and writes it while it runs.
  /// Follows the same flow edges as the aliases of a root; needs no
  /// analysis of the function (no instance).
  static std::optional<std::string> getArgumentCaptureReason(BlockArgument arg);

  /// Why `use` lets the bytes of the buffer it uses be read, written, kept or
  /// freed in ways the use-def chains of `funcOp` do not show: stored to
  /// memory (also into a memref of memrefs, or yielded to an op that may
  /// store it), address taken, passed to a call that may keep it, captured
  /// by an op with unknown effects, converted to a non-memref value, freed
  /// or reallocated other than by a deallocation, used by a region that may
  /// run later. std::nullopt if the use is understood. A return is not a
  /// hidden access: the caller sees the bytes only after the function ends.
  /// Every rewrite that relies on seeing all accesses to a buffer (copy
  /// elision, in-place reuse) must refuse a buffer with such a use.
  /// `kinds`, if given, answers which interfaces the ops implement.
  static std::optional<std::string>
  getHiddenAccessReason(OpOperand &use, Operation *funcOp,
                        OpKindCache *kinds = nullptr);
  /// How getHiddenAccessReason's reason for a call operand that the call's
  /// kNoCaptureAttr does not list starts (" to F" follows for a direct call).
  static constexpr llvm::StringLiteral kPassedToCallReason = "passed to a call";

  /// getHiddenAccessReason, and "escapes via return" for a return from
  /// `funcOp`: why `use` lets the buffer's bytes be used past what `funcOp`'s
  /// use-def chains show (what keeps capture from planning a buffer, apart
  /// from where it is allocated).
  static std::optional<std::string>
  getCaptureReason(OpOperand &use, Operation *funcOp,
                   OpKindCache *kinds = nullptr);

  /// The unit attribute that opts a memref.alloc (or memref.alloca) out of
  /// planning: it keeps its own allocation, is reported as "opted out
  /// (mplan.unplanned)", and no view or copy rewrite touches it. (Left
  /// unplanned for a reason of its own, a buffer gets the same attribute name
  /// holding the reason as a string.)
  static constexpr llvm::StringLiteral kUnplannedAttr = "mplan.unplanned";
  static constexpr llvm::StringLiteral kOptedOutReason =
      "opted out (mplan.unplanned)";
  /// True if `op` carries the opt-out unit attribute.
  static bool isOptedOut(Operation *op) {
    return op && op->hasAttrOfType<UnitAttr>(kUnplannedAttr);
  }

  /// True for region ops known to run each instance of their regions one at
  /// a time, on the thread running the op, before the op returns (functions,
  /// scf.for/while/if/index_switch/execute_region, affine.for/if,
  /// memref.alloca_scope). Any other region op (scf.parallel, scf.forall,
  /// affine.parallel, omp/acc/gpu/async ops, linalg bodies, unknown ops) may
  /// run two instances of a region at once, or after it returned: the one
  /// predicate the analysis and the lowering use for concurrency.
  static bool isSequentialRegionOp(Operation *op);

  /// The attribute on a call op listing the operands (by operand number) its
  /// callee does not capture (see getArgumentCaptureReason): a buffer passed
  /// there is used by the call and free again when it returns.
  static constexpr llvm::StringLiteral kNoCaptureAttr = "mplan.nocapture";
  /// True if `use` is an operand of a call that lists it in kNoCaptureAttr:
  /// the callee neither keeps it nor returns it.
  static bool isNoCaptureUse(OpOperand &use);

  //===--------------------------------------------------------------------===//
  // In-place updates (call them while rewriting; each is local)
  //===--------------------------------------------------------------------===//

  /// `op` (and the ops nested in it) was just inserted: numbers it like its
  /// next numbered sibling, adds what the flow edges from its operands reach
  /// (its views, casts, ...) to the operands' roots and extends those roots'
  /// ranges by the op. An op with an allocating result becomes a new root if
  /// it is a memref.alloc or mplan.alloc_tensor.
  void notifyOpInserted(Operation *op);

  /// Call BEFORE `from.replaceAllUsesWith(to)`: every root of `to` gains the
  /// forward alias closure of `from` and the uses of `from`'s closure extend
  /// its live range (the copy-elision case: a buffer replaced by a view of
  /// another). Roots of `from` keep their (now conservative) ranges.
  void notifyReplaced(Value from, Value to);

  /// `to`'s op was just inserted right before `from`'s op and
  /// `from.replaceAllUsesWith(to)` done: `to` takes over `from`'s numbering,
  /// aliases, range and reason (they are the same uses), in time proportional
  /// to its aliases. Call BEFORE erasing `from`'s op (capturing a
  /// memref.alloc as an mplan.alloc_tensor, re-creating a root with new
  /// attributes).
  void notifyRootReplaced(Value from, Value to);

  /// Call BEFORE erasing `op`: forgets `op`, the ops nested in it and their
  /// results (an erased root disappears). Ranges are not shrunk.
  void notifyOpErased(Operation *op);

  /// `op` was moved: renumbers it (and its nested ops) like its new next
  /// sibling and extends the ranges of the roots of its memref operands.
  void notifyOpMoved(Operation *op);

  /// Extends `root`'s live range to cover `range` as well.
  void extendLiveRange(Value root, LiveRange range);
  /// Makes `into` also cover everything `from` covers (aliases and range);
  /// `from` stays a root until its op is erased. The range becomes the hull
  /// of both, which is what a fresh analysis gives the union of their uses
  /// (both are defined in one block): an exact liveness stays exact.
  void mergeInto(Value from, Value into);
  /// Recomputes `root`'s aliases, reason and range from its current uses
  /// (cost proportional to its alias closure).
  void recomputeLiveRange(Value root);
  /// Numbers the function afresh (one walk) and recomputes every root's
  /// range from the current uses of its aliases: after a series of in-place
  /// updates the numbering has no gaps and the ranges are exact again, as a
  /// fresh analysis gives them, without redoing the alias closures and
  /// reasons (linear in the ops plus the aliases' uses). When the only
  /// updates since the numbering was exact were merges and erasures of ops
  /// that use no buffer (in-place reuse), the ranges are exact up to the
  /// erased ops' indices: those are closed up instead (no walk).
  void renumber();

  /// Analysis invalidation: kept unless the pass says otherwise.
  bool isInvalidated(const AnalysisManager::PreservedAnalyses &pa) {
    return !pa.isPreserved<BufferLiveness>();
  }

private:
  struct RootInfo {
    Value root;
    SmallVector<Value, 4> aliases;
    LiveRange range;
    std::optional<std::string> reason;
    bool erased = false;
    /// Whether a use of an alias was seen to free the buffer
    /// (isDeallocUse); reset only by notifyDeallocsErased.
    bool deallocated = false;
    /// Whether renumber recomputes the range (staleRoots).
    bool stale = false;
  };

  /// Numbers the ops of `region` from numIndices on; appends the roots
  /// their ops define to `found` (if given), in pre-order.
  void numberRegion(Region &region, SmallVectorImpl<Value> *found = nullptr);
  void numberOp(Operation *op, int64_t index);
  void addRoot(Value root);
  void analyzeRoot(RootInfo &info);
  void addAlias(unsigned rootId, Value value);
  void computeClosure(Value value, SmallVectorImpl<Value> &closure) const {
    computeClosure(value, funcOp, closure);
  }
  static void computeClosure(Value value, Operation *funcOp,
                             SmallVectorImpl<Value> &closure);
  /// Every root in `owners` gains the forward alias closure of `value`: its
  /// aliases, the live range its uses span and, if it had none, its reason.
  void extendRoots(ArrayRef<Value> owners, Value value);
  /// The live range of `def` with aliases `aliases`; sets `*deallocated`
  /// (if given) when one of their uses frees it, and `*used` (if given) when
  /// they have a use the range counts (without one, the range is the
  /// definition's index).
  LiveRange computeRange(Value def, ArrayRef<Value> aliases,
                         bool *deallocated = nullptr,
                         bool *used = nullptr) const;
  std::optional<std::string> computeReason(Value def,
                                           ArrayRef<Value> aliases) const;
  std::optional<LiveRange> chargeUse(Region *region, Operation *user) const;

  Operation *funcOp;
  /// The interfaces of the function's ops (getHiddenAccessReason).
  mutable OpKindCache kinds;
  /// Pre-order index and subtree end of every numbered op, 32 bits each: the
  /// table has an entry per op of the function, the largest the analysis
  /// keeps, and half its bytes miss the caches less on large functions (a
  /// function of 2^31 ops would take far more memory than a machine has).
  llvm::DenseMap<Operation *, std::pair<int32_t, int32_t>> indices;
  int64_t numIndices = 0;
  /// The indices of the ops erased since the numbering was exact, while
  /// every update since kept it exact up to them (renumber closes them up);
  /// std::nullopt after any other update. The updates that keep it so:
  /// merges, replacements of a value, erasures, and an op inserted right
  /// before an op it replaces (it shares that op's index until the op is
  /// erased: `replacedBy`, `replacing`).
  std::optional<SmallVector<int64_t>> gaps;
  /// While the numbering is exact up to gaps: each op that an op inserted
  /// right before it shares its index with, and the other way round.
  llvm::DenseMap<Operation *, Operation *> replacedBy, replacing;
  /// While the numbering is exact up to gaps: the roots whose ranges
  /// renumber recomputes from their uses (RootInfo::stale), those an update
  /// may have left other than a fresh analysis gives them: an erased op used
  /// them at an end of their range, a replaced value left them, a merged
  /// root's range was stale, or they live in a region of several blocks
  /// (where a use adds whole blocks, not its own span).
  SmallVector<unsigned> staleRoots;
  void markStale(unsigned id) {
    if (gaps && !roots[id].stale) {
      roots[id].stale = true;
      staleRoots.push_back(id);
    }
  }
  /// Marks `id` stale if its region has several blocks (no hull update is
  /// exact there).
  void markStaleIfMultiBlock(unsigned id);
  /// A use of `value` appeared or went: if `value` comes from a
  /// memref.extract_strided_metadata, whether that op's use of its source
  /// counts in a range depends on its results' uses (isDeallocUse), so the
  /// source's roots are marked stale.
  void markDeallocDependents(Value value);
  /// An update other than those: renumber() walks the function.
  void invalidateGaps() {
    gaps.reset();
    replacedBy.clear();
    replacing.clear();
    for (unsigned id : staleRoots)
      roots[id].stale = false;
    staleRoots.clear();
  }
  /// `op`, not numbered yet and without regions, was inserted right before
  /// the op it replaces: it takes that op's index (see `gaps`). Returns
  /// false, changing nothing, if it is not such an op.
  bool shareIndexWithNext(Operation *op);
  std::vector<RootInfo> roots;
  llvm::DenseMap<Value, unsigned> rootIndex;
  llvm::DenseMap<Value, SmallVector<Value, 1>> rootsOf;
};

/// Another name for the same analysis, for passes that only use aliases.
using BufferAliasAnalysis = BufferLiveness;

} // namespace mplan
} // namespace mlir

#endif // MPLAN_ANALYSIS_BUFFERLIVENESS_H
