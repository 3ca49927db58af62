//===- ElideCopies.cpp - Remove copies between planner buffers ------------===//
//
// Two rewrites of `copy %src, %dst` between planner buffers (unplanned
// mplan.alloc_tensor results, "roots") of one block:
//
//  * write in place (pad, concat): %src is a whole root X and %dst a static
//    region R of another root Y. X becomes R: X's producers write straight
//    into Y, X and the copy disappear.
//  * view copy to view: %dst is a whole root X and %src a static region R of
//    another root Y. X becomes a view of R.
//
// Both replace every use of X by the matching part of R, so they are legal
// only when nobody can tell X and R apart. With F the first and L the last
// access to X and C the copy (positions in the block):
//
//  write in place: no access to R through Y in [F, C) (Y's fill-like
//    initializations there are moved before F when that is legal), no write
//    to X after C, no write to R through Y in (C, L].
//  view copy: X is only written by C and only read after it, no write to R
//    through Y in (C, L].
//
// Neither rewrite touches a root whose bytes can be reached in ways the IR
// does not show (BufferLiveness::getHiddenAccessReason: stored, address
// taken, kept by a callee, ...), nor a copy between memory spaces.
//
// "Access" and "write" come from MemoryEffectOpInterface on the ops using an
// alias of a root; an op nested in a region, or one whose effects are unknown,
// counts as reading and writing at its ancestor in the roots' block. A region
// is the static strided type of the alias, in the root's elements; an alias
// not made by mplan.view (select, loop arguments, dynamic subviews...) may
// address any of the root's bytes. The accesses are collected once per
// function and updated in place by every rewrite.
//
// Fill narrowing: a linalg.fill of Y in [F, C) that overlaps R and cannot
// move before F (its value is computed in between) is replaced, when its
// target and R are dense boxes of Y, by fills of the dense boxes of its
// target outside R (at most two per dimension), at its place.
//
// Peak guard: writing in place makes Y live from X's first use, a view copy
// keeps Y live until X's last use. Each accepted rewrite must not raise the
// max-live bound (the largest sum of the arena sizes of the buffers live at
// one index of BufferLiveness's numbering), which the planner reaches on
// chain and branchy graphs: the profile is computed once per function from
// BufferLiveness, kept in a segment tree (range add, range max, O(log n)),
// and a guarded rewrite is taken only if the maximum over Y's merged range
// after it is at most the current peak; otherwise the copy stays. Which
// rewrites are guarded is the `peak-guard` option: by default view copies
// only, so that every pad and concat copy goes (its removal also saves the
// copy's time) even where the destination then lives longer; with
// `peak-guard=all` the arena never grows through copy elision as far as the
// bound goes.
//
//===----------------------------------------------------------------------===//

#include "mplan/Analysis/PlanAnalyses.h"
#include "mplan/Dialect/MPlan/IR/MPlanOps.h"
#include "mplan/Transforms/Passes.h"

#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/IR/Builders.h"
#include "mlir/Interfaces/CallInterfaces.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "mlir/Transforms/RegionUtils.h"
#include "llvm/ADT/SetVector.h"
#include "llvm/Support/MathExtras.h"

#include <limits>

namespace mlir {
namespace mplan {
#define GEN_PASS_DEF_MPLANELIDECOPIES
#include "mplan/Transforms/Passes.h.inc"
} // namespace mplan
} // namespace mlir

using namespace mlir;
using namespace mlir::mplan;

//===----------------------------------------------------------------------===//
// Regions of a root: boxes in its index space
//===----------------------------------------------------------------------===//

namespace {
/// The elements a static strided view of a root with an identity layout
/// addresses, as a box of the root's index space: root dimension i holds
/// indices {start[i] + t * step[i] : t < count[i]}.
struct Box {
  SmallVector<int64_t> start, step, count;
  /// For each dimension of the view: the root dimension it walks, or -1 for
  /// a dimension of size 1.
  SmallVector<int64_t> viewDimToRootDim;
};
} // namespace

static bool getStaticLayout(MemRefType type, SmallVectorImpl<int64_t> &strides,
                            int64_t &offset) {
  return type.hasStaticShape() &&
         succeeded(getStridesAndOffset(type, strides, offset)) &&
         !ShapedType::isDynamic(offset) &&
         llvm::none_of(strides, ShapedType::isDynamic);
}

/// Decomposes `view` (a static strided memref type whose layout offset is in
/// the elements of a root of shape `rootShape` and identity layout) into a
/// box, or fails if the view is not a box (it reshapes, or overlaps itself).
static std::optional<Box> decomposeBox(ArrayRef<int64_t> rootShape,
                                       MemRefType view) {
  SmallVector<int64_t> strides;
  int64_t offset;
  if (!getStaticLayout(view, strides, offset))
    return std::nullopt;
  int64_t rank = rootShape.size();
  SmallVector<int64_t> rootStrides(rank, 1);
  int64_t numElements = 1;
  for (int64_t i = rank - 1; i >= 0; --i) {
    if (rootShape[i] <= 0)
      return std::nullopt;
    rootStrides[i] = numElements;
    numElements *= rootShape[i];
  }
  if (offset < 0 || offset >= numElements)
    return std::nullopt;
  Box box;
  box.step.assign(rank, 1);
  box.count.assign(rank, 1);
  for (int64_t i = 0; i < rank; ++i)
    box.start.push_back((offset / rootStrides[i]) % rootShape[i]);
  SmallVector<bool> used(rank, false);
  for (auto [size, stride] : llvm::zip_equal(view.getShape(), strides)) {
    if (size == 1) {
      box.viewDimToRootDim.push_back(-1);
      continue;
    }
    if (size <= 0 || stride <= 0)
      return std::nullopt;
    // The root dimension whose stride range [s_i, s_i * d_i) holds `stride`.
    int64_t dim = -1;
    for (int64_t i = 0; i < rank; ++i)
      if (rootShape[i] > 1 && stride % rootStrides[i] == 0 &&
          stride / rootStrides[i] < rootShape[i])
        dim = i;
    if (dim < 0 || used[dim])
      return std::nullopt;
    int64_t step = stride / rootStrides[dim];
    if (box.start[dim] + (size - 1) * step >= rootShape[dim])
      return std::nullopt;
    used[dim] = true;
    box.step[dim] = step;
    box.count[dim] = size;
    box.viewDimToRootDim.push_back(dim);
  }
  return box;
}

/// The first and last element (in the root's elements) `type` addresses.
static std::optional<std::pair<int64_t, int64_t>> getSpan(MemRefType type) {
  SmallVector<int64_t> strides;
  int64_t offset;
  if (!getStaticLayout(type, strides, offset))
    return std::nullopt;
  int64_t lo = offset, hi = offset;
  for (auto [size, stride] : llvm::zip_equal(type.getShape(), strides)) {
    if (size == 0)
      return std::nullopt;
    (stride < 0 ? lo : hi) += (size - 1) * stride;
  }
  return std::make_pair(lo, hi);
}

/// Whether two index sets {a + t * m : t < n} may intersect.
static bool mayIntersect(int64_t a, int64_t m, int64_t n, int64_t b, int64_t k,
                         int64_t p) {
  int64_t aEnd = a + (n - 1) * m, bEnd = b + (p - 1) * k;
  if (aEnd < b || bEnd < a)
    return false;
  // Same step, different residue: interleaved, disjoint.
  if (n > 1 && p > 1 && m == k && (a - b) % m != 0)
    return false;
  return true;
}

/// A region of a root: the static strided type of an alias (layout offset in
/// the root's elements), or std::nullopt for "any of the root's bytes".
using Extent = std::optional<MemRefType>;

/// Whether regions `a` and `b` of a root of shape `rootShape` may overlap.
static bool mayOverlap(ArrayRef<int64_t> rootShape, const Extent &a,
                       const Extent &b) {
  if (!a || !b)
    return true;
  std::optional<Box> boxA = decomposeBox(rootShape, *a);
  std::optional<Box> boxB = decomposeBox(rootShape, *b);
  if (boxA && boxB) {
    for (size_t i = 0; i < rootShape.size(); ++i)
      if (!mayIntersect(boxA->start[i], boxA->step[i], boxA->count[i],
                        boxB->start[i], boxB->step[i], boxB->count[i]))
        return false;
    return true;
  }
  auto spanA = getSpan(*a), spanB = getSpan(*b);
  if (!spanA || !spanB)
    return true;
  return spanA->first <= spanB->second && spanB->first <= spanA->second;
}

/// A static strided type with `shape`, `strides` and `offset`, written as
/// `original` if that describes the same layout, else as an identity layout
/// when it is one.
static MemRefType makeStridedType(MemRefType original,
                                  ArrayRef<int64_t> strides, int64_t offset) {
  SmallVector<int64_t> oldStrides;
  int64_t oldOffset;
  if (getStaticLayout(original, oldStrides, oldOffset) && oldOffset == offset &&
      ArrayRef<int64_t>(oldStrides) == strides)
    return original;
  auto identity =
      MemRefType::get(original.getShape(), original.getElementType(),
                      MemRefLayoutAttrInterface(), original.getMemorySpace());
  SmallVector<int64_t> identityStrides;
  int64_t identityOffset;
  if (offset == 0 &&
      succeeded(
          getStridesAndOffset(identity, identityStrides, identityOffset)) &&
      ArrayRef<int64_t>(identityStrides) == strides)
    return identity;
  return MemRefType::get(
      original.getShape(), original.getElementType(),
      StridedLayoutAttr::get(original.getContext(), offset, strides),
      original.getMemorySpace());
}

/// `view` is a region of root X (identity layout, shape of `xType`); X is
/// about to become `region` (a region of root Y with X's shape). Returns the
/// type of the same elements as a region of Y, or std::nullopt if it is not
/// a static strided type.
static Extent composeRegion(MemRefType xType, MemRefType view,
                            MemRefType region) {
  if (view == xType)
    return region;
  std::optional<Box> box = decomposeBox(xType.getShape(), view);
  SmallVector<int64_t> regionStrides, viewStrides;
  int64_t regionOffset, viewOffset;
  if (!box || !getStaticLayout(region, regionStrides, regionOffset) ||
      !getStaticLayout(view, viewStrides, viewOffset))
    return std::nullopt;
  int64_t offset = regionOffset;
  for (auto [start, stride] : llvm::zip_equal(box->start, regionStrides))
    offset += start * stride;
  SmallVector<int64_t> strides;
  for (auto [dim, oldStride] :
       llvm::zip_equal(box->viewDimToRootDim, viewStrides))
    strides.push_back(dim < 0 ? oldStride
                              : box->step[dim] * regionStrides[dim]);
  return makeStridedType(view, strides, offset);
}

//===----------------------------------------------------------------------===//
// Accesses of roots
//===----------------------------------------------------------------------===//

namespace {
struct Access {
  /// The ancestor, in the root's block, of the op that accesses the root.
  Operation *op;
  /// The op that uses the alias (op itself or an op nested in it).
  Operation *user;
  bool read, write;
  Extent region;
};

struct RootState {
  /// The allocation: an unplanned mplan.alloc_tensor (which a rewrite may
  /// remove) or a statically shaped memref.alloc left unplanned (returned
  /// buffers: only a destination of writes in place).
  Operation *alloc;
  bool removable;
  Value value() const { return alloc->getResult(0); }
  MemRefType type() const { return cast<MemRefType>(value().getType()); }
  /// False if an alias of the root is used outside its block, or its bytes
  /// can be reached in ways the IR does not show (stored, address taken,
  /// kept by a callee: BufferLiveness::getHiddenAccessReason): the root is
  /// never rewritten.
  bool tracked = true;
  bool erased = false;
  /// Whether `tracked` and `accesses` are computed (AccessAnalysis::lookup).
  bool analyzed = false;
  SmallVector<Access> accesses;
};

struct AliasInfo {
  unsigned root;
  Extent region;
};

/// Which roots each memref value may alias, where, and who reads and writes
/// each root, for one function. A root is analyzed when a copy first asks
/// about a value pointing into it (most roots of a large function are no
/// copy's source or target); rewrites update what was analyzed.
class AccessAnalysis {
public:
  /// `pointsTo` says which values may point into each root; `allocs` are
  /// the function's unplanned mplan.alloc_tensor and memref.alloc ops, in
  /// program order.
  AccessAnalysis(func::FuncOp func, const PointsToAnalysis &pointsTo,
                 ArrayRef<Operation *> allocs);

  std::vector<RootState> roots;
  /// The root each value points into, and where; complete for the roots
  /// analyzed so far (ask lookup).
  llvm::DenseMap<Value, AliasInfo> aliasOf;

  /// The entry of `value` in aliasOf, once the root it points into (its
  /// only target, if that is a root) is analyzed; null if it has none.
  const AliasInfo *lookup(Value value);

  /// The position of `op` in its block (blocks are numbered when first
  /// asked about: positions only compare ops of one block).
  int64_t pos(Operation *op) {
    auto it = positions.find(op);
    if (it != positions.end())
      return it->second;
    renumber(op->getBlock());
    return positions.lookup(op);
  }
  /// Whether `value` is a root's own value: the only values of which a copy
  /// may take or give the whole root (CopyEliminator::getWholeRoot).
  bool isRootValue(Value value) const { return rootOf.count(value); }
  /// Whether `a` and `b` both point into one and the same place only: the
  /// only case in which lookup may place both in one root, decided without
  /// analyzing it.
  bool pointIntoOnePlace(Value a, Value b) const {
    ArrayRef<PointsToTarget> x = pointsTo.getTargets(a);
    ArrayRef<PointsToTarget> y = pointsTo.getTargets(b);
    return x.size() == 1 && y.size() == 1 && x.front().place == y.front().place;
  }
  /// Records that `op` was just moved or inserted right before its next
  /// sibling.
  void notifyPlaced(Operation *op);
  /// Forgets `value` (about to be erased).
  void forget(Value value) { aliasOf.erase(value); }

private:
  void renumber(Block *block);
  void analyzeRoot(unsigned id);

  static constexpr int64_t kGap = 1 << 12;
  /// The least gap a local renumbering leaves (notifyPlaced).
  static constexpr int64_t kMinGap = 1 << 6;
  func::FuncOp func;
  const PointsToAnalysis &pointsTo;
  /// The id of each root's value.
  llvm::DenseMap<Value, unsigned> rootOf;
  /// The interfaces of the ops that use the roots.
  OpKindCache kinds;
  llvm::DenseMap<Operation *, int64_t> positions;
};
} // namespace

AccessAnalysis::AccessAnalysis(func::FuncOp func,
                               const PointsToAnalysis &pointsTo,
                               ArrayRef<Operation *> allocs)
    : func(func), pointsTo(pointsTo) {
  for (Operation *op : allocs) {
    if (auto alloc = dyn_cast<AllocTensorOp>(op)) {
      if (!alloc.isPlanned())
        roots.push_back(RootState{alloc, true, true, false, {}});
    } else if (auto alloc = dyn_cast<memref::AllocOp>(op)) {
      // An opted-out buffer is never rewritten, as source or target.
      MemRefType type = alloc.getType();
      if (!BufferLiveness::isOptedOut(alloc) && alloc->getNumOperands() == 0 &&
          type.hasStaticShape() && hasIdentityLayout(type))
        roots.push_back(RootState{alloc, false, true, false, {}});
    }
  }
  for (auto [id, state] : llvm::enumerate(roots))
    rootOf[state.value()] = id;
}

const AliasInfo *AccessAnalysis::lookup(Value value) {
  // A value in aliasOf points into one place only, that root's.
  ArrayRef<PointsToTarget> targets = pointsTo.getTargets(value);
  if (targets.size() == 1) {
    Value place = pointsTo.getPlace(targets.front().place).value;
    auto id = place ? rootOf.find(place) : rootOf.end();
    if (id != rootOf.end() && !roots[id->second].analyzed)
      analyzeRoot(id->second);
  }
  auto it = aliasOf.find(value);
  return it == aliasOf.end() ? nullptr : &it->second;
}

void AccessAnalysis::renumber(Block *block) {
  int64_t next = 0;
  for (Operation &op : *block) {
    positions[&op] = next;
    next += kGap;
  }
}

void AccessAnalysis::notifyPlaced(Operation *op) {
  Operation *next = op->getNextNode();
  Operation *prev = op->getPrevNode();
  assert(next && "an op placed before a sibling");
  // A block not numbered yet is numbered with the op in place.
  if (!positions.count(next)) {
    renumber(op->getBlock());
    return;
  }
  int64_t hi = positions.lookup(next);
  int64_t lo = prev ? positions.lookup(prev) : hi - 2 * kGap;
  if (hi - lo >= 2) {
    positions[op] = lo + (hi - lo) / 2;
    return;
  }
  // No room between the neighbours: spread the positions of a window of ops
  // around `op` evenly over the range between the window's own neighbours,
  // doubling the window until that leaves kMinGap between consecutive ops.
  // Renumbering the whole block instead costs the block's size at each
  // insertion into a crowded spot: quadratic when a rewrite inserts many ops
  // at one place.
  Operation *first = prev, *last = next;
  int64_t size = 3; // prev, op, next
  for (int64_t want = 8;; want *= 2) {
    while (size < want) {
      Operation *before = first->getPrevNode(), *after = last->getNextNode();
      if (!before && !after)
        break;
      if (before) {
        first = before;
        ++size;
      }
      if (after && size < want) {
        last = after;
        ++size;
      }
    }
    Operation *before = first->getPrevNode(), *after = last->getNextNode();
    if (!before && !after)
      break;
    int64_t low = before ? positions.lookup(before)
                         : positions.lookup(after) - (size + 1) * kGap;
    int64_t high = after ? positions.lookup(after) : low + (size + 1) * kGap;
    int64_t step = (high - low) / (size + 1);
    if (step < kMinGap)
      continue;
    int64_t label = low;
    for (Operation *cur = first;; cur = cur->getNextNode()) {
      label += step;
      positions[cur] = label;
      if (cur == last)
        break;
    }
    return;
  }
  renumber(op->getBlock());
}

/// The read and write effects of `user` on `value`; both when unknown.
static std::pair<bool, bool> getEffectsOn(Operation *user, Value value) {
  auto iface = dyn_cast<MemoryEffectOpInterface>(user);
  if (!iface)
    return {true, true};
  // Ops with regions other than a pure linalg payload may access the value
  // from inside; be conservative.
  auto linalgOp = dyn_cast<linalg::LinalgOp>(user);
  if (user->getNumRegions() && !linalgOp)
    return {true, true};
  // A linalg op's effects without listing them all (costly, and asked for
  // every use of every copy's buffers): it reads its memref inputs, writes
  // its memref inits and reads those its payload uses.
  if (linalgOp && linalgOp.hasPureBufferSemantics()) {
    bool read = false, write = false;
    for (OpOperand &operand : user->getOpOperands()) {
      if (operand.get() != value || !isa<MemRefType>(value.getType()))
        continue;
      if (linalgOp.isDpsInput(&operand)) {
        read = true;
      } else if (linalgOp.isDpsInit(&operand)) {
        write = true;
        read |= linalgOp.payloadUsesValueFromOperand(&operand);
      }
    }
    return {read, write};
  }
  SmallVector<MemoryEffects::EffectInstance> effects;
  iface.getEffects(effects);
  bool read = false, write = false;
  for (const MemoryEffects::EffectInstance &effect : effects) {
    bool onValue = effect.getValue() == value;
    bool anywhere = !effect.getValue() && !effect.getSymbolRef();
    if (!onValue && !anywhere)
      continue;
    if (isa<MemoryEffects::Read>(effect.getEffect()))
      read = true;
    else
      write = true; // Write, Allocate and Free all change what is there.
    if (anywhere)
      read = write = true;
  }
  return {read, write};
}

/// The region of the root that `value`, a value pointing into the root
/// only, addresses when it is a static view of the root: the root itself, an
/// mplan.view of such a view, or a subview, reshape, reinterpret_cast or cast
/// (which keep their source's base) with a static strided type of one.
/// Memoized in `regions`; iterative, so a long view chain does not recurse.
static Extent getViewRegion(Value value, Value root,
                            llvm::DenseMap<Value, Extent> &regions) {
  SmallVector<Value> chain;
  Extent region;
  while (true) {
    if (auto it = regions.find(value); it != regions.end()) {
      region = it->second;
      break;
    }
    if (value == root) {
      region = cast<MemRefType>(root.getType());
      break;
    }
    Operation *def = value.getDefiningOp();
    auto view = dyn_cast_if_present<ViewLikeOpInterface>(def);
    bool keepsBase =
        isa_and_present<ViewOp, memref::SubViewOp, memref::ExpandShapeOp,
                        memref::CollapseShapeOp, memref::ReinterpretCastOp,
                        memref::CastOp>(def);
    if (!view || !keepsBase || view.getViewDest() != value ||
        def->getNumRegions() != 0 || !isMemoryEffectFree(def)) {
      region = std::nullopt;
      break;
    }
    chain.push_back(value);
    value = view.getViewSource();
  }
  // Down the chain: a static strided result type is the region (in the
  // root's elements) wherever its source's region is known.
  for (Value link : llvm::reverse(chain)) {
    auto type = dyn_cast<MemRefType>(link.getType());
    SmallVector<int64_t> strides;
    int64_t offset;
    if (!region || !type || !getStaticLayout(type, strides, offset))
      region = std::nullopt;
    else
      region = Extent(type);
    regions[link] = region;
  }
  return region;
}

void AccessAnalysis::analyzeRoot(unsigned id) {
  RootState &state = roots[id];
  state.analyzed = true;
  Block *block = state.alloc->getBlock();
  Value root = state.value();
  std::optional<unsigned> place = pointsTo.lookupPlace(root);
  if (!place || pointsTo.getPlace(*place).escaped) {
    state.tracked = false;
    return;
  }
  // The root's aliases are the values that may point into it
  // (PointsToAnalysis): a value that may also point elsewhere (another
  // root, an argument, unknown memory) leaves the root untracked.
  llvm::DenseMap<Value, Extent> regions;
  for (Value value : pointsTo.getPointersTo(*place)) {
    if (pointsTo.getTargets(value).size() != 1) {
      state.tracked = false;
      continue;
    }
    Extent region = getViewRegion(value, root, regions);
    aliasOf.try_emplace(value, AliasInfo{id, region});
    for (OpOperand &use : value.getUses()) {
      Operation *user = use.getOwner();
      Operation *ancestor = block->findAncestorOpInBlock(*user);
      if (!ancestor || BufferLiveness::getHiddenAccessReason(
                           use, func.getOperation(), &kinds)) {
        state.tracked = false;
        continue;
      }
      auto [read, write] = ancestor == user ? getEffectsOn(user, value)
                                            : std::make_pair(true, true);
      if (!read && !write)
        continue;
      // Only an op that declares its effects accesses no more than the
      // elements the value's type addresses: a call (its callee) or an op
      // the analysis cannot see into may rebuild the descriptor from the
      // pointer and reach any byte of the root.
      bool withinType =
          isa<MemoryEffectOpInterface>(user) && !isa<CallOpInterface>(user) &&
          (user->getNumRegions() == 0 || isa<linalg::LinalgOp>(user));
      state.accesses.push_back(Access{ancestor, user, read, write,
                                      withinType ? region : std::nullopt});
    }
  }
}

//===----------------------------------------------------------------------===//
// The max-live profile
//===----------------------------------------------------------------------===//

namespace {
/// The sum of the sizes of the planned buffers live at each index of the
/// function's numbering, with range add and range max in O(log n) (a segment
/// tree whose nodes hold the max of their children plus a pending add).
class PeakProfile {
public:
  explicit PeakProfile(int64_t size)
      : size(std::max<int64_t>(size, 1)), maxOf(4 * this->size, 0),
        pending(4 * this->size, 0) {}

  /// Adds `delta` to every index in [lo, hi).
  void add(int64_t lo, int64_t hi, int64_t delta) {
    lo = std::max<int64_t>(lo, 0);
    hi = std::min(hi, size);
    if (lo < hi && delta != 0)
      add(1, 0, size, lo, hi, delta);
  }
  /// The largest value in [lo, hi), or 0 if empty.
  int64_t max(int64_t lo, int64_t hi) const {
    lo = std::max<int64_t>(lo, 0);
    hi = std::min(hi, size);
    return lo < hi ? max(1, 0, size, lo, hi) : 0;
  }
  int64_t peak() const { return maxOf[1]; }

private:
  void add(size_t node, int64_t l, int64_t r, int64_t lo, int64_t hi,
           int64_t delta) {
    if (lo <= l && r <= hi) {
      maxOf[node] += delta;
      pending[node] += delta;
      return;
    }
    int64_t mid = l + (r - l) / 2;
    if (lo < mid)
      add(2 * node, l, mid, lo, hi, delta);
    if (hi > mid)
      add(2 * node + 1, mid, r, lo, hi, delta);
    maxOf[node] =
        std::max(maxOf[2 * node], maxOf[2 * node + 1]) + pending[node];
  }
  int64_t max(size_t node, int64_t l, int64_t r, int64_t lo, int64_t hi) const {
    if (lo <= l && r <= hi)
      return maxOf[node];
    int64_t mid = l + (r - l) / 2;
    int64_t result = std::numeric_limits<int64_t>::min();
    if (lo < mid)
      result = std::max(result, max(2 * node, l, mid, lo, hi));
    if (hi > mid)
      result = std::max(result, max(2 * node + 1, mid, r, lo, hi));
    return result + pending[node];
  }

  int64_t size;
  std::vector<int64_t> maxOf, pending;
};
} // namespace

//===----------------------------------------------------------------------===//
// The rewrite
//===----------------------------------------------------------------------===//

namespace {
struct CopyEliminator {
  /// `analyses` are those of `func` as it is before any rewrite; the
  /// liveness is asked for at the first candidate that needs live ranges.
  /// `allocs`: the function's allocations, as AccessAnalysis takes them.
  CopyEliminator(func::FuncOp func, PlanAnalyses &analyses, PeakGuard guard,
                 ArrayRef<Operation *> allocs)
      : func(func), analyses(analyses), pointsTo(analyses.getPointsTo()),
        analysis(func, pointsTo, allocs), guard(guard) {}

  /// Tries both rewrites on `copy`; true if the copy is gone.
  bool tryCopy(Operation *copy, Value source, Value target);

  int64_t copiesRemoved = 0;
  int64_t bytesAvoided = 0;
  int64_t viewsRemoved = 0;
  int64_t copiesKeptForPeak = 0;
  int64_t copiesKeptForBudget = 0;
  int64_t fillsNarrowed = 0;

private:
  /// The peak guard: whether merging root `x` into root `y` (y's live range
  /// grows to cover x's, x's goes) keeps the max-live profile at or below its
  /// current peak, or `guarded` is false. If so, records the merge in the
  /// profile.
  bool admitMerge(unsigned x, unsigned y, bool guarded);

  /// The root `value` is, if it is a whole tracked root of `block`.
  std::optional<unsigned> getWholeRoot(Value value, Block *block);
  /// The root and region `value` is a static region of, if any.
  std::optional<std::pair<unsigned, MemRefType>> getRegion(Value value,
                                                           Block *block);
  /// Whether every use of root `x` can take a value of type `region` (or
  /// the matching part of it) instead; fills `newViewTypes`.
  bool canRetype(unsigned x, MemRefType region, Operation *copy,
                 llvm::DenseMap<Operation *, MemRefType> &newViewTypes);
  /// Whether `access` (of root y, in the window before position `before`) is
  /// an initialization that can move before `before`.
  bool isMovableInit(unsigned y, const Access &access, Operation *before);
  /// The ops defining values that `op` (a linalg op in `before`'s block) uses
  /// and that come after `before`: constants, which can move up with `op`,
  /// or null for any other value.
  SmallVector<Operation *> getLateConstants(Operation *op, Operation *before);
  /// Whether `access` (of root y) is a linalg.fill of a dense box of y that
  /// can be narrowed to the parts of its box outside `region` (a dense box).
  bool isNarrowableFill(unsigned y, const Access &access, MemRefType region);
  /// Replaces `fill` (see isNarrowableFill) by fills of the parts of its box
  /// outside `region`, at its place.
  void narrowFill(unsigned y, linalg::FillOp fill, MemRefType region);
  /// The linalg.fill of all of `root` if it is the root's only write before
  /// position `before`.
  linalg::FillOp getOnlyFill(unsigned root, int64_t before);
  /// Replaces `copy` of root `source`, whose only write is `fill`, by the
  /// same fill of the copy's target; erases `source` if nothing reads it.
  void replaceCopyByFill(Operation *copy, unsigned source, linalg::FillOp fill);
  /// Erases `copy`, its accesses of `roots` and the views only it used.
  void eraseCopy(Operation *copy, ArrayRef<unsigned> roots);
  /// Argument slices: `copy` of `source`, a static view of a function
  /// argument, into the whole root `x`: x becomes `source` when nothing may
  /// write the argument or x while x is live. True if rewritten.
  bool tryArgumentSlice(Operation *copy, Value source, unsigned x);
  /// Replaces root `x` by `region` of root `y`, erasing `copy`.
  void merge(unsigned x, unsigned y, MemRefType region, Operation *copy,
             const llvm::DenseMap<Operation *, MemRefType> &newViewTypes,
             ArrayRef<Operation *> initsToMove, Operation *firstAccess,
             ArrayRef<Operation *> fillsToNarrow = {});

  func::FuncOp func;
  /// The function's points-to analysis and liveness, kept valid through
  /// every rewrite below (one notify API).
  PlanAnalyses &analyses;
  /// What every memref value may point to (mplan/Analysis/PointsTo.h).
  PointsToAnalysis &pointsTo;
  AccessAnalysis analysis;
  PeakGuard guard;
  /// Per root: the bytes it takes in the arena (0 if it is not planned).
  std::vector<int64_t> arenaBytes;
  std::optional<PeakProfile> profile;
  /// The function's liveness, from the first rewrite that needs live ranges
  /// on: every change of the IR is announced to it through `analyses`, and a
  /// merge of two roots is its mergeInto (the one merge mechanism of copy
  /// elision and in-place reuse), so it stays valid for the steps that
  /// follow.
  BufferLiveness *liveness = nullptr;

  /// Builds the profile (once, before the first rewrite).
  void initProfile();
  /// The live range of root `id` (empty if the liveness does not know it).
  LiveRange getRange(unsigned id) const;
  /// Announce IR changes to the analyses.
  void notifyInserted(Operation *op) { analyses.notifyOpInserted(op); }
  void notifyMoved(Operation *op) { analyses.notifyOpMoved(op); }
  void notifyErased(Operation *op) { analyses.notifyOpErased(op); }
};
} // namespace

/// The slab alignment the plan pass uses by default: the planner rounds every
/// buffer up to it.
static constexpr int64_t kSlabAlignment = 64;

/// The most accesses the legality checks of one rewrite scan (those of the
/// two roots together). A root grows by the accesses of every root merged
/// into it, so without a limit a chain of n copies into one root costs
/// O(n^2); with it, each rewrite costs O(kMaxScannedAccesses) and such a
/// root stops absorbing others (its copies stay) once it is that large.
/// Concatenation destinations of real networks have far fewer accesses.
static constexpr size_t kMaxScannedAccesses = 512;

void CopyEliminator::initProfile() {
  // Live ranges as the plan pass will compute them, computed once and kept
  // up to date from here on.
  liveness = &analyses.getLiveness();
  profile.emplace(liveness->getNumIndices() + 1);
  arenaBytes.assign(analysis.roots.size(), 0);
  for (auto [id, state] : llvm::enumerate(analysis.roots)) {
    // An erased root's allocation is gone: check before touching it.
    if (state.erased)
      continue;
    Value root = state.value();
    if (!liveness->isRoot(root))
      continue;
    auto alloc = dyn_cast<AllocTensorOp>(state.alloc);
    if (!alloc || liveness->getUnplannableReason(root))
      continue;
    FailureOr<int64_t> bytes = alloc.getByteSize();
    if (failed(bytes))
      continue;
    int64_t alignment =
        std::max<int64_t>(alloc.getAlignment().value_or(1), kSlabAlignment);
    arenaBytes[id] = llvm::alignTo(*bytes, alignment);
    LiveRange range = getRange(id);
    profile->add(range.start, range.end, arenaBytes[id]);
  }
}

LiveRange CopyEliminator::getRange(unsigned id) const {
  const RootState &state = analysis.roots[id];
  if (state.erased || !liveness->isRoot(state.value()))
    return {};
  return liveness->getLiveRange(state.value());
}

bool CopyEliminator::admitMerge(unsigned x, unsigned y, bool guarded) {
  if (!profile)
    initProfile();
  LiveRange rx = getRange(x), ry = getRange(y);
  // An empty range (a root the liveness does not know) adds nothing.
  LiveRange merged = rx.start == rx.end   ? ry
                     : ry.start == ry.end ? rx
                                          : rx.merge(ry);
  int64_t sx = arenaBytes[x], sy = arenaBytes[y];
  int64_t peak = profile->peak();
  auto apply = [&](int64_t sign) {
    profile->add(rx.start, rx.end, -sign * sx);
    if (ry.start == ry.end) {
      profile->add(merged.start, merged.end, sign * sy);
      return;
    }
    profile->add(merged.start, ry.start, sign * sy);
    profile->add(ry.end, merged.end, sign * sy);
  };
  apply(1);
  // Only [merged.start, merged.end) changed: the new peak exceeds the old one
  // iff the maximum there does.
  if (guarded && profile->max(merged.start, merged.end) > peak) {
    apply(-1);
    return false;
  }
  arenaBytes[x] = 0;
  return true;
}

std::optional<unsigned> CopyEliminator::getWholeRoot(Value value,
                                                     Block *block) {
  const AliasInfo *alias = analysis.lookup(value);
  if (!alias)
    return std::nullopt;
  RootState &state = analysis.roots[alias->root];
  if (state.erased || !state.tracked || !state.removable ||
      state.value() != value || state.alloc->getBlock() != block)
    return std::nullopt;
  return alias->root;
}

std::optional<std::pair<unsigned, MemRefType>>
CopyEliminator::getRegion(Value value, Block *block) {
  const AliasInfo *alias = analysis.lookup(value);
  if (!alias || !alias->region)
    return std::nullopt;
  RootState &state = analysis.roots[alias->root];
  if (state.erased || !state.tracked || state.alloc->getBlock() != block)
    return std::nullopt;
  return std::make_pair(alias->root, *alias->region);
}

/// Users that accept a memref operand of any strided layout.
static bool isLayoutAgnosticUse(OpOperand &use) {
  Operation *user = use.getOwner();
  if (isa<linalg::LinalgOp, memref::CopyOp, memref::LoadOp>(user))
    return true;
  if (auto store = dyn_cast<memref::StoreOp>(user))
    return use.get() == store.getMemRef();
  return false;
}

bool CopyEliminator::canRetype(
    unsigned x, MemRefType region, Operation *copy,
    llvm::DenseMap<Operation *, MemRefType> &newViewTypes) {
  Value xValue = analysis.roots[x].value();
  MemRefType xType = analysis.roots[x].type();
  for (OpOperand &use : xValue.getUses()) {
    Operation *user = use.getOwner();
    if (user == copy || isLayoutAgnosticUse(use))
      continue;
    auto view = dyn_cast<ViewOp>(user);
    if (!view)
      return false;
    Extent composed = composeRegion(xType, view.getType(), region);
    if (!composed)
      return false;
    for (OpOperand &viewUse : view.getResult().getUses())
      if (!isLayoutAgnosticUse(viewUse) && viewUse.getOwner() != copy)
        return false;
    newViewTypes[view] = *composed;
  }
  return true;
}

bool CopyEliminator::isMovableInit(unsigned y, const Access &access,
                                   Operation *before) {
  Operation *op = access.op;
  if (access.user != op)
    return false;
  auto linalgOp = dyn_cast<linalg::LinalgOp>(op);
  if (!linalgOp || op->getNumResults() != 0)
    return false;
  // It only touches Y: no memref inputs, one memref init that is Y or an
  // mplan.view of Y.
  for (OpOperand *input : linalgOp.getDpsInputOperands())
    if (isa<BaseMemRefType>(input->get().getType()))
      return false;
  if (linalgOp.getNumDpsInits() != 1)
    return false;
  Value init = linalgOp.getDpsInitOperand(0)->get();
  Value yRoot = analysis.roots[y].value();
  Operation *initView = init.getDefiningOp();
  if (init != yRoot &&
      !(initView && initView->getNumOperands() == 1 &&
        initView->getOperand(0) == yRoot && initView->getNumRegions() == 0 &&
        isMemoryEffectFree(initView)))
    return false;
  // A pure payload.
  bool pure = true;
  for (Region &region : op->getRegions())
    region.walk([&](Operation *nested) {
      if (!isMemoryEffectFree(nested))
        pure = false;
    });
  if (!pure)
    return false;
  // Everything it uses must be available before `before`, or be a constant
  // that moves there with it (upstream's pad lowering materializes the
  // padding value right before the padded buffer's fill).
  return !llvm::is_contained(getLateConstants(op, before), nullptr);
}

SmallVector<Operation *> CopyEliminator::getLateConstants(Operation *op,
                                                          Operation *before) {
  Block *block = before->getBlock();
  int64_t limit = analysis.pos(before);
  Value init = cast<linalg::LinalgOp>(op).getDpsInitOperand(0)->get();
  llvm::SetVector<Value> used(op->getOperands().begin(),
                              op->getOperands().end());
  getUsedValuesDefinedAbove(op->getRegions(), used);
  SmallVector<Operation *> late;
  for (Value value : used) {
    // Values of enclosing scopes (and block arguments) dominate the block.
    Operation *def = value.getDefiningOp();
    if (value == init || !def || def->getBlock() != block ||
        analysis.pos(def) < limit)
      continue;
    // A null entry: a value computed after `before`.
    late.push_back(def->hasTrait<OpTrait::ConstantLike>() ? def : nullptr);
  }
  return late;
}

/// The dense box (every step 1) `type` addresses in a root of `rootShape`,
/// as [begin, end) per root dimension.
static std::optional<SmallVector<std::pair<int64_t, int64_t>>>
getDenseBox(ArrayRef<int64_t> rootShape, MemRefType type) {
  std::optional<Box> box = decomposeBox(rootShape, type);
  if (!box)
    return std::nullopt;
  SmallVector<std::pair<int64_t, int64_t>> bounds;
  for (size_t i = 0; i < rootShape.size(); ++i) {
    if (box->count[i] > 1 && box->step[i] != 1)
      return std::nullopt;
    bounds.push_back({box->start[i], box->start[i] + box->count[i]});
  }
  return bounds;
}

bool CopyEliminator::isNarrowableFill(unsigned y, const Access &access,
                                      MemRefType region) {
  auto fill = dyn_cast<linalg::FillOp>(access.op);
  if (!fill || access.user != access.op || !fill.hasPureBufferSemantics() ||
      !access.region)
    return false;
  MemRefType yType = analysis.roots[y].type();
  if (access.region->getElementType() != yType.getElementType() ||
      region.getElementType() != yType.getElementType())
    return false;
  return getDenseBox(yType.getShape(), *access.region) &&
         getDenseBox(yType.getShape(), region);
}

void CopyEliminator::narrowFill(unsigned y, linalg::FillOp fill,
                                MemRefType region) {
  RootState &ys = analysis.roots[y];
  Value yRoot = ys.value();
  MemRefType yType = ys.type();
  ArrayRef<int64_t> shape = yType.getShape();
  int64_t rank = shape.size();
  auto it = llvm::find_if(ys.accesses, [&](const Access &access) {
    return access.user == fill.getOperation();
  });
  assert(it != ys.accesses.end() && "a fill of Y is an access of Y");
  auto outer = *getDenseBox(shape, *it->region);
  auto cut = *getDenseBox(shape, region);
  SmallVector<int64_t> strides(rank, 1);
  for (int64_t i = rank - 2; i >= 0; --i)
    strides[i] = strides[i + 1] * shape[i + 1];
  int64_t elementSize = *getElementByteSize(yType.getElementType());

  // The parts of `outer` outside `cut`: for each dimension d, the slabs
  // before and after the cut in d, within the cut in the dimensions before d
  // and within `outer` in those after it.
  OpBuilder builder(fill);
  Value value = fill.getInputs()[0];
  SmallVector<std::pair<int64_t, int64_t>> box(outer);
  auto emit = [&]() {
    SmallVector<int64_t> pieceShape;
    int64_t offset = 0;
    for (int64_t i = 0; i < rank; ++i) {
      if (box[i].first >= box[i].second)
        return;
      pieceShape.push_back(box[i].second - box[i].first);
      offset += box[i].first * strides[i];
    }
    auto identity =
        MemRefType::get(pieceShape, yType.getElementType(),
                        MemRefLayoutAttrInterface(), yType.getMemorySpace());
    MemRefType type = makeStridedType(identity, strides, offset);
    Value target = yRoot;
    if (type != yType) {
      target = ViewOp::create(builder, fill.getLoc(), type, yRoot,
                              offset * elementSize);
      analysis.notifyPlaced(target.getDefiningOp());
      notifyInserted(target.getDefiningOp());
    }
    analysis.aliasOf[target] = AliasInfo{y, Extent(type)};
    auto piece = linalg::FillOp::create(builder, fill.getLoc(),
                                        ValueRange{value}, ValueRange{target});
    analysis.notifyPlaced(piece);
    notifyInserted(piece);
    auto [read, write] = getEffectsOn(piece, target);
    ys.accesses.push_back(Access{piece, piece, read, write, Extent(type)});
  };
  for (int64_t d = 0; d < rank; ++d) {
    int64_t lo = std::max(outer[d].first, cut[d].first);
    int64_t hi = std::min(outer[d].second, cut[d].second);
    box[d] = {outer[d].first, lo};
    emit();
    box[d] = {hi, outer[d].second};
    emit();
    box[d] = {lo, hi};
  }

  // The fill goes, and with it its target view if nothing else uses it.
  llvm::erase_if(ys.accesses, [&](const Access &access) {
    return access.user == fill.getOperation();
  });
  Value oldTarget = fill.getOutputs()[0];
  notifyErased(fill);
  fill->erase();
  if (Operation *view = oldTarget.getDefiningOp();
      view && view != ys.alloc && view->use_empty() &&
      view->getNumRegions() == 0 && isMemoryEffectFree(view)) {
    for (Value result : view->getResults())
      analysis.forget(result);
    notifyErased(view);
    view->erase();
  }
}

void CopyEliminator::merge(
    unsigned x, unsigned y, MemRefType region, Operation *copy,
    const llvm::DenseMap<Operation *, MemRefType> &newViewTypes,
    ArrayRef<Operation *> initsToMove, Operation *firstAccess,
    ArrayRef<Operation *> fillsToNarrow) {
  RootState &xs = analysis.roots[x];
  RootState &ys = analysis.roots[y];
  Operation *xAlloc = xs.alloc, *yAlloc = ys.alloc;
  Value xRoot = xs.value(), yRoot = ys.value();
  MemRefType xType = xs.type(), yType = ys.type();
  int64_t elementSize = *getElementByteSize(xType.getElementType());
  auto layoutOffset = [](MemRefType type) {
    SmallVector<int64_t> strides;
    int64_t offset = 0;
    (void)getStridesAndOffset(type, strides, offset);
    return offset;
  };

  // Y must be defined before X's uses: allocations touch no memory, so Y's
  // moves up freely.
  if (analysis.pos(yAlloc) > analysis.pos(xAlloc)) {
    yAlloc->moveBefore(xAlloc);
    analysis.notifyPlaced(yAlloc);
    notifyMoved(yAlloc);
  }
  // The view of Y that replaces X goes right before X's first access (every
  // direct use of X is at or after it), not at X's allocation: a view is a
  // use of Y, so it would make Y live from there.
  OpBuilder builder(firstAccess);
  Value replacement = yRoot;
  if (region != yType) {
    replacement = ViewOp::create(builder, xAlloc->getLoc(), region, yRoot,
                                 layoutOffset(region) * elementSize);
    analysis.notifyPlaced(replacement.getDefiningOp());
    notifyInserted(replacement.getDefiningOp());
  }
  analysis.aliasOf[replacement] = AliasInfo{y, Extent(region)};
  // Initializations of Y that wrote the region between X's first access and
  // the copy now run before that access.
  for (Operation *init : initsToMove) {
    Value target = cast<linalg::LinalgOp>(init).getDpsInitOperand(0)->get();
    if (Operation *view = target.getDefiningOp();
        view && view != yAlloc &&
        analysis.pos(view) > analysis.pos(firstAccess)) {
      view->moveBefore(firstAccess);
      analysis.notifyPlaced(view);
      notifyMoved(view);
    }
    for (Operation *constant : getLateConstants(init, firstAccess)) {
      constant->moveBefore(firstAccess);
      analysis.notifyPlaced(constant);
      notifyMoved(constant);
    }
    init->moveBefore(firstAccess);
    analysis.notifyPlaced(init);
    notifyMoved(init);
  }
  // Initializations of Y that stay between X's first access and the copy
  // stop writing the region.
  for (Operation *fill : fillsToNarrow)
    narrowFill(y, cast<linalg::FillOp>(fill), region);

  eraseCopy(copy, {x, y});

  // X's accesses become Y's, in Y's coordinates.
  for (Access access : xs.accesses) {
    access.region = access.region ? composeRegion(xType, *access.region, region)
                                  : std::nullopt;
    ys.accesses.push_back(access);
  }
  xs.accesses.clear();

  // Every use of X takes the matching part of Y: Y covers X's aliases and
  // live range from now on, and what pointed into X points into Y there.
  analyses.notifyBufferMerged(xRoot, yRoot, replacement);
  for (OpOperand &use : llvm::make_early_inc_range(xAlloc->getUses())) {
    auto view = dyn_cast<ViewOp>(use.getOwner());
    if (!view) {
      use.set(replacement);
      continue;
    }
    MemRefType type = newViewTypes.lookup(view);
    builder.setInsertionPoint(view);
    Value newView = yRoot;
    if (type != yType) {
      newView = ViewOp::create(builder, view.getLoc(), type, yRoot,
                               layoutOffset(type) * elementSize);
      analysis.notifyPlaced(newView.getDefiningOp());
      notifyInserted(newView.getDefiningOp());
    }
    analysis.aliasOf[newView] = AliasInfo{y, Extent(type)};
    analysis.forget(view.getResult());
    pointsTo.notifyValueReplaced(view.getResult(), newView);
    view.getResult().replaceAllUsesWith(newView);
    notifyErased(view);
    view->erase();
  }
  analysis.forget(xRoot);
  notifyErased(xAlloc);
  xAlloc->erase();
  xs.erased = true;
}

linalg::FillOp CopyEliminator::getOnlyFill(unsigned root, int64_t before) {
  RootState &state = analysis.roots[root];
  linalg::FillOp fill;
  if (state.accesses.size() > kMaxScannedAccesses)
    return nullptr;
  for (const Access &access : state.accesses) {
    if (!access.write || analysis.pos(access.op) >= before)
      continue;
    auto candidate = dyn_cast<linalg::FillOp>(access.op);
    if (fill || !candidate || access.user != access.op ||
        !candidate.hasPureBufferSemantics() ||
        candidate.getOutputs()[0] != state.value())
      return nullptr;
    fill = candidate;
  }
  return fill;
}

void CopyEliminator::replaceCopyByFill(Operation *copy, unsigned source,
                                       linalg::FillOp fill) {
  OpBuilder builder(copy);
  Value target = copy->getOperand(1);
  auto newFill = linalg::FillOp::create(builder, copy->getLoc(),
                                        fill.getInputs()[0], target);
  analysis.notifyPlaced(newFill);
  notifyInserted(newFill);
  // The copy's write of the target is the new fill's.
  if (const AliasInfo *alias = analysis.lookup(target))
    for (Access &access : analysis.roots[alias->root].accesses)
      if (access.user == copy) {
        access.op = access.user = newFill;
        access.read = false;
      }
  eraseCopy(copy, {source});
  RootState &state = analysis.roots[source];
  // The fill moves down to the source's next access, so that the source is
  // not live (holding the fill's value) across the ops in between.
  Operation *next = nullptr;
  for (const Access &access : state.accesses)
    if (access.op != fill.getOperation() &&
        (!next || analysis.pos(access.op) < analysis.pos(next)))
      next = access.op;
  if (next && analysis.pos(next) > analysis.pos(fill)) {
    fill->moveBefore(next);
    analysis.notifyPlaced(fill);
    notifyMoved(fill);
  }
  // Nothing reads the source any more: it goes with its fill.
  if (next || !state.removable ||
      !llvm::all_of(state.value().getUses(), [&](OpOperand &use) {
        return use.getOwner() == fill.getOperation();
      }))
    return;
  state.accesses.clear();
  notifyErased(fill);
  fill->erase();
  analysis.forget(state.value());
  notifyErased(state.alloc);
  state.alloc->erase();
  state.erased = true;
}

void CopyEliminator::eraseCopy(Operation *copy, ArrayRef<unsigned> roots) {
  for (unsigned root : roots)
    llvm::erase_if(analysis.roots[root].accesses,
                   [&](const Access &access) { return access.user == copy; });
  // A copy of a view onto itself names the view twice: erase it once.
  llvm::SetVector<Value> copyOperands(copy->getOperands().begin(),
                                      copy->getOperands().end());
  notifyErased(copy);
  copy->erase();
  // Its views go with it if nothing else uses them (a root allocates, so it
  // is never memory-effect free).
  for (Value operand : copyOperands)
    if (Operation *view = operand.getDefiningOp())
      if (view->use_empty() && view->getNumRegions() == 0 &&
          isMemoryEffectFree(view)) {
        for (Value result : view->getResults())
          analysis.forget(result);
        notifyErased(view);
        view->erase();
        ++viewsRemoved;
      }
}

bool CopyEliminator::tryCopy(Operation *copy, Value source, Value target) {
  Block *block = copy->getBlock();
  // Writing in place removes a pad or concat copy; a view copy becomes a
  // view that extends its source.
  auto admitOrCount = [&](unsigned x, unsigned y, bool writeInPlace) {
    bool guarded =
        guard == PeakGuard::All || (guard == PeakGuard::Views && !writeInPlace);
    if (admitMerge(x, y, guarded))
      return true;
    ++copiesKeptForPeak;
    return false;
  };
  auto sourceType = dyn_cast<MemRefType>(source.getType());
  auto targetType = dyn_cast<MemRefType>(target.getType());
  // A copy between memory spaces moves data where it must be: never elided.
  if (!sourceType || !targetType || !sourceType.hasStaticShape() ||
      sourceType.getShape() != targetType.getShape() ||
      sourceType.getElementType() != targetType.getElementType() ||
      sourceType.getMemorySpace() != targetType.getMemorySpace())
    return false;
  // Every rewrite below but the removal of a region copied onto itself
  // takes or gives a whole root: a copy between views of two roots (a slice
  // of one written into a slice of another) is kept without analyzing
  // either root's accesses.
  if (source != target && !analysis.isRootValue(source) &&
      !analysis.isRootValue(target) &&
      !analysis.pointIntoOnePlace(source, target))
    return false;
  int64_t copyPos = analysis.pos(copy);
  // Merges scan the accesses of both roots: within a budget (see
  // kMaxScannedAccesses).
  auto withinBudget = [&](unsigned x, unsigned y) {
    if (analysis.roots[x].accesses.size() + analysis.roots[y].accesses.size() <=
        kMaxScannedAccesses)
      return true;
    ++copiesKeptForBudget;
    return false;
  };
  FailureOr<int64_t> elementSize =
      getElementByteSize(sourceType.getElementType());
  if (failed(elementSize))
    return false;
  int64_t bytes = sourceType.getNumElements() * *elementSize;

  // A copy of a region onto itself changes nothing (One-Shot Bufferize
  // leaves `memref.copy %v, %v` behind when CSE merges the two views of an
  // in-place insert_slice of an extract_slice).
  std::optional<std::pair<unsigned, MemRefType>> sourceRegion =
      getRegion(source, block);
  if (source == target ||
      (sourceRegion && sourceRegion == getRegion(target, block))) {
    SmallVector<unsigned, 1> roots;
    if (sourceRegion)
      roots.push_back(sourceRegion->first);
    eraseCopy(copy, roots);
    ++copiesRemoved;
    bytesAvoided += bytes;
    return true;
  }

  // A copy of a root that holds one value everywhere (written only by a
  // linalg.fill of all of it, before the copy) is that fill of the target:
  // CSE shares one zero-filled tensor between all the matmuls of a model and
  // One-Shot Bufferize copies it into each matmul's buffer. The root stops
  // being read, and goes once only its fill is left.
  // Never into an opted-out buffer (a DMA engine or another runtime may
  // expect the copy itself).
  auto mayBeOptedOut = [&](Value value) {
    for (const PointsToTarget &target : pointsTo.getTargets(value)) {
      const MemoryPlace &place = pointsTo.getPlace(target.place);
      if (place.isAllocation() && place.value &&
          BufferLiveness::isOptedOut(place.value.getDefiningOp()))
        return true;
    }
    return false;
  };
  if (std::optional<unsigned> s = getWholeRoot(source, block))
    if (linalg::FillOp fill = getOnlyFill(*s, copyPos);
        fill && !mayBeOptedOut(target)) {
      replaceCopyByFill(copy, *s, fill);
      ++copiesRemoved;
      bytesAvoided += bytes;
      return true;
    }

  // Write in place: the source (whole) becomes the target's region.
  if (std::optional<unsigned> x = getWholeRoot(source, block)) {
    if (auto region = getRegion(target, block);
        region && region->first != *x && withinBudget(*x, region->first)) {
      auto [y, regionType] = *region;
      RootState &xs = analysis.roots[*x];
      RootState &ys = analysis.roots[y];
      ArrayRef<int64_t> yShape = ys.type().getShape();
      int64_t first = copyPos, last = copyPos;
      Operation *firstAccess = copy;
      bool legal = true;
      for (const Access &access : xs.accesses) {
        int64_t p = analysis.pos(access.op);
        if (p < first) {
          first = p;
          firstAccess = access.op;
        }
        last = std::max(last, p);
        // No write to X after the copy: it would show through Y.
        if (access.user != copy && p >= copyPos && access.write)
          legal = false;
      }
      SmallVector<const Access *> inits;
      SmallVector<Operation *> narrowed;
      for (const Access &access : ys.accesses) {
        if (!legal)
          break;
        if (access.user == copy)
          continue;
        int64_t p = analysis.pos(access.op);
        if (!mayOverlap(yShape, access.region, regionType))
          continue;
        // Between X's first access and the copy the region belongs to X.
        if (p >= first && p < copyPos) {
          if (isMovableInit(y, access, firstAccess))
            inits.push_back(&access);
          else if (isNarrowableFill(y, access, regionType))
            narrowed.push_back(access.op);
          else
            legal = false;
        }
        // While X is still read after the copy, nothing rewrites the region.
        if (p > copyPos && p <= last && access.write)
          legal = false;
      }
      // An initialization moves over the accesses to Y between X's first
      // access and itself: none may touch what it writes.
      for (const Access *init : inits) {
        if (!legal)
          break;
        int64_t initPos = analysis.pos(init->op);
        for (const Access &other : ys.accesses)
          if (other.op != init->op && analysis.pos(other.op) >= first &&
              analysis.pos(other.op) < initPos &&
              mayOverlap(yShape, other.region, init->region))
            legal = false;
      }
      llvm::DenseMap<Operation *, MemRefType> newViewTypes;
      if (legal && canRetype(*x, regionType, copy, newViewTypes) &&
          admitOrCount(*x, y, /*writeInPlace=*/true)) {
        SmallVector<Operation *> initOps;
        for (const Access *init : inits)
          initOps.push_back(init->op);
        llvm::sort(initOps, [&](Operation *a, Operation *b) {
          return analysis.pos(a) < analysis.pos(b);
        });
        initOps.erase(llvm::unique(initOps), initOps.end());
        merge(*x, y, regionType, copy, newViewTypes, initOps, firstAccess,
              narrowed);
        fillsNarrowed += narrowed.size();
        ++copiesRemoved;
        bytesAvoided += bytes;
        return true;
      }
    }
  }

  // Argument slice: the target (whole) becomes the argument's bytes.
  if (std::optional<unsigned> x = getWholeRoot(target, block))
    if (tryArgumentSlice(copy, source, *x)) {
      ++copiesRemoved;
      bytesAvoided += bytes;
      return true;
    }

  // View copy to view: the target (whole) becomes the source's region.
  if (std::optional<unsigned> x = getWholeRoot(target, block)) {
    if (auto region = getRegion(source, block);
        region && region->first != *x && withinBudget(*x, region->first)) {
      auto [y, regionType] = *region;
      RootState &xs = analysis.roots[*x];
      RootState &ys = analysis.roots[y];
      ArrayRef<int64_t> yShape = ys.type().getShape();
      int64_t last = copyPos;
      bool legal = true;
      for (const Access &access : xs.accesses) {
        if (access.user == copy)
          continue;
        int64_t p = analysis.pos(access.op);
        // X holds the copy and nothing else: read only, after the copy.
        if (p <= copyPos || access.write)
          legal = false;
        last = std::max(last, p);
      }
      for (const Access &access : ys.accesses) {
        if (!legal)
          break;
        int64_t p = analysis.pos(access.op);
        if (access.user != copy && access.write && p > copyPos && p <= last &&
            mayOverlap(yShape, access.region, regionType))
          legal = false;
      }
      llvm::DenseMap<Operation *, MemRefType> newViewTypes;
      if (legal && canRetype(*x, regionType, copy, newViewTypes) &&
          admitOrCount(*x, y, /*writeInPlace=*/false)) {
        merge(*x, y, regionType, copy, newViewTypes, {}, copy);
        ++copiesRemoved;
        bytesAvoided += bytes;
        return true;
      }
    }
  }
  return false;
}

/// The function argument `value` is, or a static view of through view-like
/// ops without memory effects; null otherwise.
static BlockArgument getArgumentBase(Value value) {
  while (true) {
    if (auto arg = dyn_cast<BlockArgument>(value))
      return isa<FunctionOpInterface>(arg.getOwner()->getParentOp()) &&
                     arg.getOwner()->isEntryBlock()
                 ? arg
                 : BlockArgument();
    Operation *def = value.getDefiningOp();
    auto view = dyn_cast_if_present<ViewLikeOpInterface>(def);
    if (!view || def->getNumRegions() != 0 || !isMemoryEffectFree(def))
      return {};
    value = view.getViewSource();
  }
}

bool CopyEliminator::tryArgumentSlice(Operation *copy, Value source,
                                      unsigned x) {
  auto sourceType = dyn_cast<MemRefType>(source.getType());
  SmallVector<int64_t> strides;
  int64_t offset;
  if (!getArgumentBase(source) || !sourceType ||
      !getStaticLayout(sourceType, strides, offset))
    return false;
  RootState &xs = analysis.roots[x];
  int64_t copyPos = analysis.pos(copy);
  // X holds the copy and nothing else: read only, after the copy.
  Operation *last = copy;
  for (const Access &access : xs.accesses) {
    if (access.user == copy)
      continue;
    if (analysis.pos(access.op) <= copyPos || access.write)
      return false;
    if (analysis.pos(access.op) > analysis.pos(last))
      last = access.op;
  }
  // While X is live nothing may write the argument's bytes: a write is
  // allowed only where the points-to analysis proves its target apart from
  // `source` (arguments may alias each other, globals and unknown memory; a
  // value that may be a local buffer or the argument may be the argument).
  // The window is scanned op by op, nested ops included, within the budget.
  size_t scanned = 0;
  auto writesOnlyLocalBuffers = [&](Operation *op) {
    WalkResult result = op->walk([&](Operation *nested) {
      if (++scanned > kMaxScannedAccesses)
        return WalkResult::interrupt();
      auto iface = dyn_cast<MemoryEffectOpInterface>(nested);
      if (!iface) {
        if (nested->hasTrait<OpTrait::HasRecursiveMemoryEffects>())
          return WalkResult::advance();
        return WalkResult::interrupt();
      }
      SmallVector<MemoryEffects::EffectInstance> effects;
      iface.getEffects(effects);
      for (const MemoryEffects::EffectInstance &effect : effects) {
        if (isa<MemoryEffects::Read>(effect.getEffect()))
          continue;
        Value target = effect.getValue();
        // A fresh allocation writes no existing bytes.
        if (isa<MemoryEffects::Allocate>(effect.getEffect()) && target)
          continue;
        if (!target || pointsTo.mayAlias(target, source))
          return WalkResult::interrupt();
      }
      return WalkResult::advance();
    });
    return !result.wasInterrupted();
  };
  for (Operation *op = copy->getNextNode(); op; op = op->getNextNode()) {
    if (analysis.pos(op) > analysis.pos(last))
      break;
    if (!writesOnlyLocalBuffers(op))
      return false;
  }
  // Every use of X must accept the argument's layout.
  Value xValue = xs.value();
  for (OpOperand &use : xValue.getUses())
    if (use.getOwner() != copy && !isLayoutAgnosticUse(use))
      return false;

  // X goes: its uses read the argument's bytes in place (replaced before the
  // copy goes, which would take an otherwise unused view with it).
  pointsTo.notifyValueReplaced(xValue, source);
  xValue.replaceAllUsesExcept(source, copy);
  eraseCopy(copy, {x});
  xs.accesses.clear();
  analysis.forget(xValue);
  notifyErased(xs.alloc);
  xs.alloc->erase();
  xs.erased = true;
  return true;
}

bool mlir::mplan::isElidableCopy(Operation *op) {
  return isa<memref::CopyOp>(op) ||
         (isa<linalg::CopyOp>(op) && op->getNumResults() == 0);
}

bool mlir::mplan::isElidableAllocation(Operation *op) {
  return isa<AllocTensorOp, memref::AllocOp>(op);
}

bool mlir::mplan::elideCopiesInFunction(func::FuncOp func, PeakGuard peakGuard,
                                        PlanAnalyses &analyses,
                                        PlanStepOps *ops) {
  // One walk lists the copies and the allocations (neither has regions:
  // both lists are in program order), or they are listed already.
  SmallVector<Operation *> copies, allocs;
  if (auto listed = ops ? ops->takeCopiesAndAllocs() : std::nullopt) {
    copies = std::move(listed->first);
    allocs = std::move(listed->second);
  } else {
    func.walk([&](Operation *op) {
      if (isElidableCopy(op))
        copies.push_back(op);
      else if (isElidableAllocation(op))
        allocs.push_back(op);
    });
  }
  if (copies.empty())
    return false;
  CopyEliminator eliminator(func, analyses, peakGuard, allocs);
  for (Operation *copy : copies) {
    Value source = copy->getOperand(0), target = copy->getOperand(1);
    (void)eliminator.tryCopy(copy, source, target);
  }
  bool changed = false;
  changed |=
      addToCounterAttr(func, kCopiesRemovedAttr, eliminator.copiesRemoved);
  changed |= addToCounterAttr(func, "mplan.copy_bytes_avoided",
                              eliminator.bytesAvoided);
  changed |=
      addToCounterAttr(func, "mplan.views_removed", eliminator.viewsRemoved);
  changed |= addToCounterAttr(func, kCopiesKeptForPeakAttr,
                              eliminator.copiesKeptForPeak);
  changed |= addToCounterAttr(func, kCopiesKeptForBudgetAttr,
                              eliminator.copiesKeptForBudget);
  changed |=
      addToCounterAttr(func, "mplan.fills_narrowed", eliminator.fillsNarrowed);
  // Every rewrite is counted: no count, no change.
  return changed;
}

namespace {
struct MPlanElideCopiesPass
    : public mlir::mplan::impl::MPlanElideCopiesBase<MPlanElideCopiesPass> {
  using Base::Base;

  void runOnOperation() override {
    func::FuncOp func = getOperation();
    if (func.isExternal())
      return;
    // The liveness is only computed if some copy passes the legality checks.
    PlanAnalyses analyses(func);
    // No change, no re-verification.
    if (!elideCopiesInFunction(func, peakGuard, analyses))
      markAllAnalysesPreserved();
  }
};
} // namespace
