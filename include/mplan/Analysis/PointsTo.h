//===- PointsTo.h - Where may a memref value point? -------------*- C++ -*-===//
//
// The one answer mplan's rewrites and lowerings give to "may these two
// values share bytes?": for every memref value of a function, the set of
// places it may point into, with the bytes of each place it may address when
// they are known exactly.
//
// Places. A place is one memory object: an allocation of the function (any
// result an op declares a `MemoryEffects::Allocate` effect on: memref.alloc,
// memref.alloca, mplan.alloc_tensor, mplan.alloc_slab, bufferization.clone,
// memref.realloc, ...), a memref argument of the function's entry block, a
// global (`memref.get_global`, one place per symbol), or `unknown`: memory
// the function did not allocate and cannot name (loaded from a memref of
// memrefs, returned by a call, produced by an op the analysis does not know).
//
// Targets. A value points into a place at a byte range: `exact` when the
// analysis knows every byte the value can address (a planned buffer at its
// offset, a `memref.view` at a constant shift, a subview or reinterpret_cast
// with a static layout over a base whose position is known), otherwise the
// whole place. `base` is where the value's aligned pointer lies in the
// place, when known: a reinterpret_cast or a subview re-derives its extent
// from that pointer, so an exact range is computed from `base` and the
// result's own layout, never inherited from the source's range.
//
// Transfer. Along the flow edges of forEachPointerFlow (below), which
// BufferLiveness follows too for a buffer's aliases. Interfaces first, a
// conservative default for the rest:
//  * ViewLikeOpInterface results point where their source does (re-ranged as
//    above); `memref.extract_strided_metadata`'s base buffer keeps the base
//    and spans the whole place;
//  * `arith.select` (and any op the analysis does not know) joins its
//    operands; RegionBranchOpInterface entry operands and region terminators
//    flow into successor region arguments and op results; BranchOpInterface
//    forwarded operands into successor block arguments;
//  * CallOpInterface results point to `unknown` and to every memref operand
//    the callee may keep (operands without `mplan.nocapture`);
//  * results of any other op: `unknown` plus every memref operand's targets.
// The propagation is sparse (a value is revisited only when an operand it
// depends on changes) and joins only grow, so it terminates on loops: two
// different known bases for one place widen to the whole place.
//
// Escapes. An allocation escapes when a value pointing into it has a use the
// use-def chains do not explain (BufferLiveness::getHiddenAccessReason:
// stored, address taken, kept by a callee, captured by an op with unknown
// effects, ...): `unknown` may then point into it.
//
// Aliasing. Two targets may share bytes when they are in one place and their
// ranges overlap; distinct allocations never do (unless escaped, against
// `unknown`); arguments may alias each other, every global and `unknown`;
// distinct globals never do.
//
// Updates. Rewrites keep the analysis valid in place: notifyOpInserted for a
// new op (its results get the targets of the op's transfer),
// notifyValueReplaced before a replaceAllUsesWith (the users of the new value
// are re-evaluated). Targets only grow under updates: stale entries stay
// conservative.
//
//===----------------------------------------------------------------------===//

#ifndef MPLAN_ANALYSIS_POINTSTO_H
#define MPLAN_ANALYSIS_POINTSTO_H

#include "mplan/Analysis/OpKindCache.h"

#include "mlir/IR/Operation.h"
#include "mlir/IR/Value.h"
#include "mlir/Pass/AnalysisManager.h"
#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/ADT/SmallVector.h"

#include <limits>
#include <vector>

namespace mlir {
namespace mplan {

/// One memory object a function's memref values may point into.
struct MemoryPlace {
  enum class Kind : uint8_t { Unknown, Allocation, Argument, Global };
  Kind kind = Kind::Unknown;
  /// The allocating result or the argument (null for globals and unknown).
  Value value;
  /// The symbol of a global.
  Attribute symbol;
  /// Size in bytes when known, else -1.
  int64_t size = -1;
  /// An allocation whose address code outside the use-def chains may hold.
  bool escaped = false;

  bool isAllocation() const { return kind == Kind::Allocation; }
};

/// Where a value may point inside one place.
struct PointsToTarget {
  static constexpr int64_t kUnknownBase = std::numeric_limits<int64_t>::min();
  /// Byte offset of the value's aligned pointer from the place's start, or
  /// kUnknownBase.
  int64_t base = kUnknownBase;
  /// When `exact`, the value addresses only bytes [begin, end) of the place;
  /// otherwise any byte of it.
  int64_t begin = 0;
  int64_t end = 0;
  unsigned place = 0;
  bool exact = false;

  bool hasBase() const { return base != kUnknownBase; }
  bool operator==(const PointsToTarget &other) const {
    return place == other.place && base == other.base && exact == other.exact &&
           (!exact || (begin == other.begin && end == other.end));
  }
};

/// The flow step of the analysis, the one statement in mplan of how a
/// pointer (a memref or an `!mplan.slab`) value propagates: calls `fn` on
/// every pointer value that `use`'s owner may make point where the value of
/// `use` points (the transfer of the file comment, without the byte
/// ranges): the successor argument a branch forwards it to, the successor
/// inputs a region branch or region terminator forwards it to, every
/// successor argument, result and region argument of the parent of a
/// terminator that says nothing (nothing for a function's return), the
/// results of a call that may keep it (not listed in `mplan.nocapture`),
/// nothing for a `memref.load` or the condition of an `arith.select`, and
/// every result and entry-block region argument of any other op (views,
/// casts, selects, planned buffers, unknown ops). `funcOp` is the function
/// whose return ends the flow. Each value may be given more than once.
/// The points-to analysis propagates its targets along these edges;
/// BufferLiveness's alias sets are their forward closure from a buffer.
void forEachPointerFlow(OpOperand &use, Operation *funcOp,
                        function_ref<void(Value)> fn);

class PointsToAnalysis {
public:
  /// The id of the `unknown` place.
  static constexpr unsigned kUnknownPlace = 0;

  /// Analyzes `funcOp` (an op with one region, usually a function). The walk
  /// that builds the analysis hands every op it visits (in post-order,
  /// `funcOp` excepted) to `visit` if given: a caller that needs ops of some
  /// kinds lists them without a walk of its own.
  explicit PointsToAnalysis(Operation *funcOp,
                            function_ref<void(Operation *)> visit = {});
  PointsToAnalysis(Operation *funcOp, AnalysisManager &)
      : PointsToAnalysis(funcOp) {}

  Operation *getFunction() const { return funcOp; }

  /// The places `value` may point into. Any value the analysis does not
  /// track (a memref created after it ran and not announced, a pointer of
  /// another type such as `!llvm.ptr`, an integer) may point to `unknown`
  /// memory: a memory effect on it may touch anything the function did not
  /// keep to itself.
  ArrayRef<PointsToTarget> getTargets(Value value) const;

  const MemoryPlace &getPlace(unsigned id) const { return places[id]; }
  unsigned getNumPlaces() const { return places.size(); }
  /// The place an allocating result or an entry argument is, if any.
  std::optional<unsigned> lookupPlace(Value value) const;

  /// The values that may point into place `place` (each once, in no
  /// particular order).
  SmallVector<Value> getPointersTo(unsigned place) const;

  /// Whether some byte `a` may address may also be addressed by `b`.
  bool mayAlias(Value a, Value b) const;
  /// Whether two targets may share a byte.
  bool mayOverlap(const PointsToTarget &a, const PointsToTarget &b) const;
  /// Whether `value` may point into memory other than the function's own
  /// allocations that never escape: an argument, a global, unknown memory or
  /// an escaped allocation.
  bool mayPointOutsideLocals(Value value) const;
  /// Whether `value` may point into allocation place `place`.
  bool mayPointInto(Value value, unsigned place) const;
  /// The single allocation `value` points into (any range), or std::nullopt
  /// if it may point elsewhere too.
  std::optional<unsigned> getOnlyAllocation(Value value) const;

  //===--------------------------------------------------------------------===//
  // In-place updates
  //===--------------------------------------------------------------------===//

  /// `op` was just inserted (with the ops nested in it): its results get the
  /// targets its transfer gives, its allocations become places.
  void notifyOpInserted(Operation *op);
  /// Call BEFORE `from.replaceAllUsesWith(to)`: the values computed from
  /// `from` also get the targets computed from `to`. When `from` is an
  /// allocation that goes away (copy elision, in-place reuse), every value
  /// pointing into it points, from then on, into where `to` points instead,
  /// at the same bytes relative to `to`'s pointer: target lists do not grow
  /// with the number of merges.
  void notifyValueReplaced(Value from, Value to);
  /// Call BEFORE erasing `op`: forgets its values and those of the ops
  /// nested in it (its places stay, without a value).
  void notifyOpErased(Operation *op);
  /// Call BEFORE erasing allocation `from`, after `from.replaceAllUsesWith(
  /// to)`: `to`, an allocating result of the same type created in `from`'s
  /// place (capture's memref.alloc to mplan.alloc_tensor), becomes the
  /// place `from` was, with its targets and everything pointing into it.
  /// Returns false, changing nothing, if `from` is no place of its own or
  /// the types differ.
  bool notifyAllocationReplaced(Value from, Value to);

  /// Whether an update since the analysis was built may have left it more
  /// conservative than a fresh analysis of the function would be: a value
  /// that got more targets, an allocation merged into another, an erased op
  /// that may have been what made a place escape. While false, every query
  /// answers as a fresh analysis would.
  bool isWidened() const { return widened; }

  bool isInvalidated(const AnalysisManager::PreservedAnalyses &pa) {
    return !pa.isPreserved<PointsToAnalysis>();
  }

private:
  /// Most pointers have one target: one inline keeps `targetsOf` small (it
  /// is looked up at every use the rewrites touch).
  using TargetList = SmallVector<PointsToTarget, 1>;

  unsigned addPlace(MemoryPlace place);
  /// Makes `value` (an argument or an allocating result) a place of `kind`
  /// of its own and points it at its start.
  void addValuePlace(MemoryPlace::Kind kind, Value value);
  /// Joins `targets` into `value`'s; queues `value` if they grew.
  void join(Value value, ArrayRef<PointsToTarget> targets);
  void joinOne(TargetList &list, const PointsToTarget &target, bool &changed);
  /// Seeds the sources of `op` (allocations, globals, unknown results).
  void seed(Operation *op);
  /// Re-evaluates what `use`'s owner makes of a change of `use`'s value.
  void visitUse(OpOperand &use);
  /// The targets `to` gets from `targets`, the targets of `use`'s value,
  /// along the flow edge forEachPointerFlow gives from `use` to `to`.
  TargetList transfer(OpOperand &use, Value to,
                      ArrayRef<PointsToTarget> targets) const;
  /// The targets of view-like result `result` from its source's `targets`.
  TargetList transferView(Operation *op, Value result,
                          ArrayRef<PointsToTarget> targets) const;
  void propagate();
  void markEscaped(ArrayRef<PointsToTarget> targets);

  Operation *funcOp;
  /// The interfaces of the function's ops (getHiddenAccessReason).
  OpKindCache kinds;
  std::vector<MemoryPlace> places;
  llvm::DenseMap<Value, unsigned> placeOf;
  llvm::DenseMap<Value, TargetList> targetsOf;
  /// The values whose targets name each place, indexed by place (may hold
  /// forgotten values).
  std::vector<SmallVector<Value, 2>> pointersTo;
  SmallVector<Value> worklist;
  /// The values on the worklist.
  llvm::DenseSet<Value> queued;
  /// Set once the constructor's propagation is done: joins after that are
  /// updates.
  bool built = false;
  bool widened = false;
};

} // namespace mplan
} // namespace mlir

#endif // MPLAN_ANALYSIS_POINTSTO_H
