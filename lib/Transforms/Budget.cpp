//===- Budget.cpp - Meet a capacity by splitting live ranges --------------===//
//
// When a memory space has a capacity and the max-live bound of its buffers
// (after sequencing, copy elision and in-place reuse) is above it, the
// buffers live at the peak that the op at the peak does not touch are split:
// their live range [first use, last use] becomes two, one ending at the last
// use before the peak (E) and one starting at the first use after it (L), so
// that the bytes are free in between. Two levers split a buffer R:
//
//  * Rematerialization: the ops that wrote R before anything read it (its
//    writer chain: a linalg.fill then the linalg.matmul accumulating into
//    it, a linalg.generic, a memref.copy) run again right before L into a
//    fresh buffer R', which every use after the peak takes instead of R.
//    Cost: the chain's work (iterations x payload ops of a linalg op; bytes
//    of a fill or a copy).
//  * Offload (`offload=FROM:TO`): R is copied into a fresh buffer H of space
//    TO right after E and copied back into a fresh R' of its own space right
//    before L. Cost: the bytes moved (twice R's size) times `offload-cost`.
//
// Legality, every condition checked (a buffer that fails one is reported
// with the reason when the capacity is still not met):
//  * the function body is one block; R is an unplanned, plannable
//    mplan.alloc_tensor of it whose aliases are R and views of R (so the
//    uses after the peak can be moved onto R' or a view of R');
//  * rematerialization: the first op of the chain overwrites all of R
//    without reading it (a fill, a copy, or a linalg op with all-parallel
//    loops, a permutation map on R and a payload that ignores R's values);
//    every chain op is a linalg op with buffer semantics or a memref.copy
//    whose payload has no memory effects and which writes only R; nothing
//    else writes R before the peak; every other memref the chain reads
//    points only into a function argument, a global or a planned buffer
//    that is live at L anyway (its live range already reaches L: the split
//    never extends another buffer's life), never into R, and no op between
//    the chain and L may write it (points-to analysis; an op with unknown
//    effects counts as writing everything);
//  * offload: R has an identity layout and the space TO has room for it
//    (when TO has a capacity, its max-live bound plus R stays within it).
// A split never raises any space's max-live bound at any point: R and R'
// are live only where R was, the chain's inputs were live at L already, and
// the copies sit next to a use of R. It must also leave the points it
// creates (the recomputations, the copies) below the bytes at the peak it
// lowers, or it would only move the peak: so every split lowers a highest
// point of its run and the loop ends.
//
// The choice is the least-cost cover of the points above the target
// (mplan::solveSplitCover over every legal split: a recomputation excludes a
// split that frees one of its inputs at its later use, and the halves of that
// input's gap cut by the recomputation's read are candidates taken only with
// it, found as ordinary gaps once it is applied, when the cover is solved
// again), then greedy with re-evaluation, by least cost per byte freed at the
// peak, for what no split of the cover covers. Each step finds every run of
// points where a capped space is above its target, takes at the highest
// point of each a split of the cover or else the cheapest split, keeps
// those whose stretches of the program (from the first use of what they
// recompute or move to the buffer's last use) are disjoint, so that they do
// not interact, applies them and finds the peaks again. When every capped
// space's bound fits, the planner runs once per capped space: when
// fragmentation leaves its arena above the capacity, the target drops by the
// difference and the loop goes on. A space whose op floor is above its
// capacity is not split at all (no split can meet it). Each step costs a walk
// of the function; a work budget bounds the steps, so the result never
// depends on the machine's load. The pipeline runs this last, after
// sequencing and in-place reuse, which it turns on above a capacity unless the
// user set them.
//
// Everything goes through the function's one points-to analysis and one
// liveness (PlanAnalyses): the rewrites announce each op they insert, change
// or erase, and the live ranges of the split buffers are recomputed.
//
//===----------------------------------------------------------------------===//

#include "mplan/Analysis/PlanAnalyses.h"
#include "mplan/Dialect/MPlan/IR/MPlanOps.h"
#include "mplan/Support/CheckedMath.h"
#include "mplan/Support/SplitCover.h"
#include "mplan/Transforms/Passes.h"
#include "mplan/Transforms/PlanBuffers.h"

#include "mlir/AsmParser/AsmParser.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "mlir/Interfaces/ViewLikeInterface.h"

#include <limits>
#include <map>
#include <set>
#include <tuple>

using namespace mlir;
using namespace mlir::mplan;

namespace {
/// A buffer to recompute and the ops that wrote it.
struct RematStep {
  AllocTensorOp buffer;
  SmallVector<Operation *> chain;
  /// Inputs split before (their uses from the later use on read a new
  /// buffer, recomputed or copied back with the same bytes) and that new
  /// buffer, which the recomputation reads instead.
  std::vector<std::pair<Value, Value>> versions;
};

/// How many levels of inputs a rematerialization may recompute with it.
constexpr unsigned kMaxRematDepth = 8;

/// One way to split one buffer's live range around a peak.
struct Split {
  enum class Kind { Remat, Offload };
  Kind kind = Kind::Remat;
  AllocTensorOp buffer;
  /// The last use before the peak and the first use after it (ops of the
  /// function body).
  Operation *lastEarly = nullptr;
  Operation *firstLate = nullptr;
  /// Rematerialization: the buffers to recompute, each with its writer
  /// chain in program order, inputs before the buffers that read them (the
  /// split buffer last).
  SmallVector<RematStep> steps;
  /// Offload: the space the buffer is copied to (null: default space).
  Attribute toSpace;
  /// Work units (rematerialization) or weighted bytes moved (offload).
  int64_t cost = 0;
  int64_t bytes = 0;
  /// Rematerialization: the most bytes of the slab live while it runs.
  int64_t lateBytes = 0;
  /// What the split takes off the bytes above the target (Profile::relief).
  double relief = 0.0;
  /// A split of the least-cost cover (SlabState::preferred).
  bool preferred = false;
  /// Rematerialization: the planned buffers its writers read that must stay
  /// live at the later use.
  SmallVector<Value> keptRoots;
};

/// A split as the covering problem names it: its gap and its lever.
using SplitKey = std::tuple<Operation *, Operation *, int>;
static SplitKey keyOf(const Split &split) {
  return {split.lastEarly, split.firstLate, static_cast<int>(split.kind)};
}

/// The max-live bytes of one slab at each point of the current numbering:
/// live at index i, starting at i, ending right before i.
struct Profile {
  std::vector<int64_t> live, starting, ending;
  int64_t bound = 0;
  int64_t at(const std::vector<int64_t> &values, int64_t index) const {
    return index >= 0 && index < static_cast<int64_t>(values.size())
               ? values[index]
               : 0;
  }
  /// The bytes live on both sides of the boundary right before `index`.
  int64_t across(int64_t index) const {
    return at(live, index) - at(starting, index);
  }
  /// Prefix sums over the points above `target`: how many there are and by
  /// how many bytes (overCount[i], overBytes[i]: of the points before i).
  std::vector<int64_t> overCount, overBytes;
  void setTarget(int64_t target) {
    overCount.assign(live.size() + 1, 0);
    overBytes.assign(live.size() + 1, 0);
    for (size_t i = 0; i < live.size(); ++i) {
      int64_t excess = std::max<int64_t>(live[i] - target, 0);
      overCount[i + 1] = overCount[i] + (excess > 0);
      overBytes[i + 1] = ::mplan::checkedAdd(overBytes[i], excess)
                             .value_or(std::numeric_limits<int64_t>::max() / 2);
    }
  }
  /// What freeing `bytes` over the points [from, to) takes off the bytes
  /// above the target, at most: min(bytes x the points above it, their
  /// excess).
  double relief(int64_t bytes, int64_t from, int64_t to) const {
    auto clamp = [&](int64_t index) {
      return static_cast<size_t>(std::clamp<int64_t>(
          index, 0, static_cast<int64_t>(overCount.size()) - 1));
    };
    if (overCount.empty() || from >= to)
      return 0.0;
    double points = overCount[clamp(to)] - overCount[clamp(from)];
    double excess = overBytes[clamp(to)] - overBytes[clamp(from)];
    return std::min(static_cast<double>(bytes) * points, excess);
  }
};

/// What the loop knows of one capped slab at the current step.
struct SlabState {
  int64_t capacity = 0;
  /// The max-live bound the splits aim for (the capacity, lowered when the
  /// planner's arena is above the bound).
  int64_t target = 0;
  /// The bound before any split.
  std::optional<int64_t> boundBefore;
  /// The op floor is above the target: no split can meet it.
  bool belowFloor = false;
  /// The splits of the least-cost cover of the points above the target
  /// (solveSplitCover), taken first where they apply, each once; computed
  /// for the target `preferredFor`.
  std::set<SplitKey> preferred;
  std::optional<int64_t> preferredFor;
  /// The planned buffers the cover's rematerializations read: splitting one
  /// of them first would leave a recomputation reading a buffer no longer
  /// live at its later use, so their gaps are not taken together.
  DenseSet<Value> preferredInputs;
  /// The cover's recomputations that a split of the cover needs applied
  /// first (one side of the read it adds to an input's gap): once one is
  /// applied, the cover is solved again, that split now among its
  /// candidates.
  std::set<SplitKey> prerequisites;
};

/// Splits live ranges in one function until every capped space fits.
class CapacitySplitter {
public:
  CapacitySplitter(func::FuncOp func, const BudgetOptions &options,
                   const llvm::StringMap<int64_t> &capacities,
                   PlanAnalyses &analyses)
      : func(func), options(options), capacities(capacities),
        analyses(analyses), pointsTo(analyses.getPointsTo()) {}

  LogicalResult run();

private:
  /// The max-live bound of `slab` (padded as the planner pads).
  int64_t boundOf(const SlabBuffers &slab) const;
  /// The first point of greatest max-live bytes of each run of points where
  /// `slab` is above `target`.
  SmallVector<int64_t> peaksAbove(const SlabBuffers &slab,
                                  int64_t target) const;
  /// The cheapest split of a buffer of `slab` live at `peakIndex` (`live`
  /// holds their positions in `slab`, in program order), or
  /// std::nullopt, with why each buffer there could not be split.
  std::optional<Split>
  chooseAt(const SlabBuffers &slab, ArrayRef<unsigned> live, int64_t peakIndex,
           const SmallVector<SlabBuffers> &slabs, int64_t target,
           const llvm::StringMap<Attribute> &offloadTo,
           SmallVectorImpl<std::pair<AllocTensorOp, std::string>> &whyNot);
  /// The op of the function body whose span holds `index`.
  Operation *topOpAt(int64_t index) const;
  /// The profile of `slab` over `numIndices` points.
  Profile profileOf(const SlabBuffers &slab, int64_t numIndices) const;
  /// The ops of the body that use `root` (through any alias; views and
  /// deallocations are not uses), in program order, or failure with why the
  /// buffer cannot be split.
  FailureOr<SmallVector<Operation *>> getUsers(Value root, std::string &why);
  FailureOr<SmallVector<Operation *>> computeUsers(Value root,
                                                   std::string &why);
  /// Whether an op of the body strictly between `from` and `to`, other than
  /// those of `chain`, may write memory `input` points into.
  bool writtenBetween(Value input, Operation *from, Operation *to,
                      ArrayRef<Operation *> chain);
  /// The rematerialization of `split.buffer` around the peak, or failure
  /// with why not.
  LogicalResult planRemat(Split &split, const SlabBuffers &slab, int64_t target,
                          std::string &why);
  /// Appends to `steps` what recomputing `buffer` right before `firstLate`
  /// takes (its inputs that are not live there first, up to `depth`
  /// levels), adding the work to `cost`; fails with why not.
  LogicalResult collectRemat(AllocTensorOp buffer, Operation *firstLate,
                             unsigned depth, SmallVectorImpl<RematStep> &steps,
                             int64_t &cost, std::string &why);
  /// The bytes `buffer` takes in a slab (padded to its alignment).
  int64_t paddedSize(const ::mplan::Buffer &buffer) const {
    return ::mplan::alignTo(buffer.size, std::max(buffer.alignment,
                                                  options.planner.alignment))
        .value_or(std::numeric_limits<int64_t>::max() / 4);
  }
  /// The offload of `split.buffer` to `toSpace`, or failure with why not.
  LogicalResult planOffload(Split &split, Attribute toSpace,
                            const SmallVector<SlabBuffers> &slabs,
                            std::string &why);
  /// The work of one chain op (iterations x payload ops; bytes of a fill or
  /// copy), or std::nullopt if it cannot be recomputed.
  std::optional<int64_t> workOf(Operation *op) const;
  /// Applies `split`; records it for the report. `updateRoot` false: the
  /// split buffer's range is left for a later split of it in this step to
  /// recompute (a buffer split at many gaps is not rescanned for each).
  void apply(const Split &split, bool updateRoot = true);
  /// Moves every use of `root`'s aliases by an op after `peakOp` onto
  /// `newRoot` (cloning views of `root` before `peakOp`'s successor where
  /// both sides use them); appends the ops it inserted and changed.
  void redirectLateUses(Value root, Value newRoot, Operation *firstLate,
                        SmallVectorImpl<Operation *> &inserted,
                        SmallVectorImpl<Operation *> &changed,
                        SmallVectorImpl<Operation *> &erased);
  AllocTensorOp createBuffer(OpBuilder &builder, AllocTensorOp like,
                             Attribute space);
  /// Whether `value` is `root` or a view of it (one view-like op away).
  bool isDirectAlias(Value value, Value root) const;
  /// Every legal split of a buffer of `slab` between two consecutive uses
  /// whose gap holds a point above `target` (`current`: the slab's profile),
  /// with the covering problem they form (one candidate per split); false
  /// when a quarter of the work budget left did not suffice to list them all.
  bool collectCandidates(const SlabBuffers &slab, int64_t target,
                         const SmallVector<SlabBuffers> &slabs,
                         const llvm::StringMap<Attribute> &offloadTo,
                         const Profile &current, SmallVectorImpl<Split> &splits,
                         ::mplan::CoverProblem &problem);
  /// The splitting problem of `slab` as it is (kSplitProblemAttr).
  DictionaryAttr recordProblem(const SlabBuffers &slab, int64_t capacity,
                               const SmallVector<SlabBuffers> &slabs,
                               const llvm::StringMap<Attribute> &offloadTo);
  /// Solves the covering problem of `slab` at `state`'s target and keeps the
  /// splits of the least-cost cover as `state.preferred`.
  void choosePreferred(const SlabBuffers &slab, SlabState &state,
                       const SmallVector<SlabBuffers> &slabs,
                       const llvm::StringMap<Attribute> &offloadTo,
                       const Profile &current);

  func::FuncOp func;
  const BudgetOptions &options;
  const llvm::StringMap<int64_t> &capacities;
  PlanAnalyses &analyses;
  PointsToAnalysis &pointsTo;
  /// The profile of the slab whose peak is being split (this step's).
  const Profile *profile = nullptr;
  /// The splits of that slab's least-cost cover not taken yet.
  std::set<SplitKey> *preferredSet = nullptr;
  /// Take only splits of that cover.
  bool coverOnly = false;
  /// The bytes live at the peak being split: the points a split creates must
  /// stay below them, or the split only moves the peak (so every split lowers
  /// a highest point of its run, and the loop ends).
  int64_t peakBytes = 0;
  /// The ops of the body and their indices (this step's numbering).
  SmallVector<std::pair<int64_t, Operation *>> topOps;
  /// This step's answers of getUsers (why not, or the users), and the
  /// indices of the body ops that may write each input asked about.
  DenseMap<Value, std::pair<std::string, SmallVector<Operation *>>> usersCache;
  DenseMap<Value, SmallVector<int64_t>> writersCache;
  /// This step's writer chains: the leading users of a buffer that write
  /// it, and the index of the first that writes it after a read (or max).
  struct WriterChain {
    SmallVector<Operation *> leading;
    int64_t rewriteAt = 0;
  };
  DenseMap<Value, WriterChain> writersOfCache;
  /// The planned buffers collectRemat kept as inputs live at the later use.
  SmallVector<Value> keptRoots;
  /// The new buffers of each split buffer (recomputed or copied back), and
  /// the buffer of the program each new buffer holds the bytes of.
  DenseMap<Value, SmallVector<Value>> successors;
  DenseMap<Value, Value> origins, parents;
  /// How many of the ops that made a new buffer use it (the copy back, or
  /// the recomputed chain): the first writers of its bytes.
  DenseMap<Value, unsigned> makers;
  /// The buffer that holds the bytes of `root` at `index` (a split hands
  /// the uses after it to a new buffer): `root` itself when live there, a
  /// new buffer of its splits that is (transitively), or null.
  Value versionAt(Value root, int64_t index) const;
  /// Whether an op after the writers of `version` (its first users that
  /// write it) and before `until` may write it.
  bool writtenAfterWriters(Value version, Operation *until);
  int64_t nextId = 0;
  SmallVector<Attribute> records;
  /// Why each buffer at the last peak could not be split.
  SmallVector<std::pair<AllocTensorOp, std::string>> blocked;
  int64_t work = 0;
};
} // namespace

int64_t CapacitySplitter::boundOf(const SlabBuffers &slab) const {
  // An overflowing bound is no bound: above every capacity.
  return ::mplan::lowerBound(slab.buffers, options.planner.alignment)
      .value_or(std::numeric_limits<int64_t>::max());
}

Operation *CapacitySplitter::topOpAt(int64_t index) const {
  auto it = llvm::upper_bound(topOps, index, [](int64_t value, const auto &e) {
    return value < e.first;
  });
  if (it == topOps.begin())
    return nullptr;
  return std::prev(it)->second;
}

bool CapacitySplitter::isDirectAlias(Value value, Value root) const {
  if (value == root)
    return true;
  auto view = value.getDefiningOp<ViewLikeOpInterface>();
  return view && view.getViewSource() == root && view->getNumResults() == 1 &&
         view->getBlock() == root.getParentBlock() && isMemoryEffectFree(view);
}

FailureOr<SmallVector<Operation *>>
CapacitySplitter::getUsers(Value root, std::string &why) {
  // Asked again for every peak and every gap: once per step.
  auto cached = usersCache.find(root);
  if (cached != usersCache.end()) {
    if (!cached->second.first.empty()) {
      why = cached->second.first;
      return failure();
    }
    return cached->second.second;
  }
  FailureOr<SmallVector<Operation *>> users = computeUsers(root, why);
  usersCache[root] = {failed(users) ? why : std::string(),
                      failed(users) ? SmallVector<Operation *>() : *users};
  return users;
}

FailureOr<SmallVector<Operation *>>
CapacitySplitter::computeUsers(Value root, std::string &why) {
  const BufferLiveness &liveness = analyses.getLiveness();
  Block &body = func.getBody().front();
  SmallVector<Operation *> users;
  for (Value alias : liveness.getAliases(root)) {
    if (!isDirectAlias(alias, root)) {
      why = "an alias of it is not a view of it";
      return failure();
    }
    for (OpOperand &use : alias.getUses()) {
      ++work;
      if (BufferLiveness::isDeallocUse(use))
        continue;
      Operation *user = use.getOwner();
      if (alias == root && user->getNumResults() == 1 &&
          isDirectAlias(user->getResult(0), root))
        continue;
      Operation *top = body.findAncestorOpInBlock(*user);
      if (!top || top->hasTrait<OpTrait::IsTerminator>()) {
        why = "it is used by the function's terminator";
        return failure();
      }
      users.push_back(top);
    }
  }
  llvm::sort(users, [&](Operation *a, Operation *b) {
    return liveness.getIndex(a) < liveness.getIndex(b);
  });
  users.erase(llvm::unique(users), users.end());
  return users;
}

/// The byte size of a statically shaped memref type, if it has one.
static std::optional<int64_t> staticByteSize(Type type) {
  auto memref = dyn_cast<MemRefType>(type);
  if (!memref)
    return std::nullopt;
  FailureOr<int64_t> bytes = getMemRefByteSize(memref);
  return succeeded(bytes) ? std::optional<int64_t>(*bytes) : std::nullopt;
}

std::optional<int64_t> CapacitySplitter::workOf(Operation *op) const {
  if (auto copy = dyn_cast<memref::CopyOp>(op))
    return staticByteSize(copy.getTarget().getType());
  if (auto fill = dyn_cast<linalg::FillOp>(op))
    return staticByteSize(fill.getDpsInits()[0].getType());
  auto linalgOp = dyn_cast<linalg::LinalgOp>(op);
  if (!linalgOp)
    return std::nullopt;
  int64_t iterations = 1;
  for (int64_t range : linalgOp.getStaticLoopRanges()) {
    if (ShapedType::isDynamic(range))
      return std::nullopt;
    std::optional<int64_t> product = ::mplan::checkedMul(iterations, range);
    if (!product)
      return std::nullopt;
    iterations = *product;
  }
  int64_t payloadOps = 0;
  for (Operation &nested : linalgOp.getBlock()->without_terminator()) {
    (void)nested;
    ++payloadOps;
  }
  return ::mplan::checkedMul(iterations, std::max<int64_t>(payloadOps, 1));
}

/// Whether `op` may write memory that `value` points into (unknown effects:
/// yes), per the points-to analysis.
static bool mayWrite(Operation *op, Value value,
                     const PointsToAnalysis &pointsTo) {
  std::optional<SmallVector<MemoryEffects::EffectInstance>> effects =
      getEffectsRecursively(op);
  if (!effects)
    return true;
  for (const MemoryEffects::EffectInstance &effect : *effects) {
    if (!isa<MemoryEffects::Write, MemoryEffects::Free>(effect.getEffect()))
      continue;
    if (!effect.getValue() || pointsTo.mayAlias(effect.getValue(), value))
      return true;
  }
  return false;
}

bool CapacitySplitter::writtenBetween(Value input, Operation *from,
                                      Operation *to,
                                      ArrayRef<Operation *> chain) {
  const BufferLiveness &liveness = analyses.getLiveness();
  int64_t begin = liveness.getIndex(from), end = liveness.getIndex(to);
  // A short stretch is scanned; a long one asks the body's writers of the
  // input, found once per step (gaps of a long-lived buffer are many).
  constexpr int64_t kScan = 64;
  if (end - begin <= kScan || topOps.empty()) {
    for (Operation *op = from->getNextNode(); op && op != to;
         op = op->getNextNode()) {
      ++work;
      if (!llvm::is_contained(chain, op) && mayWrite(op, input, pointsTo))
        return true;
    }
    return false;
  }
  auto [entry, fresh] = writersCache.try_emplace(input);
  if (fresh)
    for (const auto &[index, op] : topOps) {
      ++work;
      if (mayWrite(op, input, pointsTo))
        entry->second.push_back(index);
    }
  const SmallVector<int64_t> &writers = entry->second;
  for (auto it = llvm::upper_bound(writers, begin);
       it != writers.end() && *it < end; ++it) {
    ++work;
    if (!llvm::any_of(
            chain, [&](Operation *op) { return liveness.getIndex(op) == *it; }))
      return true;
  }
  return false;
}

LogicalResult CapacitySplitter::collectRemat(AllocTensorOp buffer,
                                             Operation *firstLate,
                                             unsigned depth,
                                             SmallVectorImpl<RematStep> &steps,
                                             int64_t &cost, std::string &why) {
  const BufferLiveness &liveness = analyses.getLiveness();
  Value root = buffer.getResult();
  std::optional<unsigned> place = pointsTo.lookupPlace(root);
  if (!place) {
    why = "the points-to analysis does not know it";
    return failure();
  }
  FailureOr<SmallVector<Operation *>> users = getUsers(root, why);
  if (failed(users))
    return failure();
  // The writer chain: the leading users that write the buffer, before the
  // later use; a writer after the first reader, before it, fails. The
  // buffer's writers are found once per step (a buffer split at many gaps
  // asks for every one).
  int64_t lateIndex = liveness.getIndex(firstLate);
  auto [writers, fresh] = writersOfCache.try_emplace(root);
  if (fresh) {
    writers->second.rewriteAt = std::numeric_limits<int64_t>::max();
    bool read = false;
    for (Operation *user : *users) {
      ++work;
      bool writes = mayWrite(user, root, pointsTo);
      if (writes && !read)
        writers->second.leading.push_back(user);
      else if (writes) {
        writers->second.rewriteAt = liveness.getIndex(user);
        break;
      } else {
        read = true;
      }
    }
  }
  if (writers->second.rewriteAt < lateIndex) {
    why = "it is written again after it is first read";
    return failure();
  }
  SmallVector<Operation *> chain;
  for (Operation *user : writers->second.leading)
    if (liveness.getIndex(user) < lateIndex)
      chain.push_back(user);
  if (chain.empty()) {
    why = "nothing writes it before it is read";
    return failure();
  }
  // Every chain op recomputable, writing only the buffer; the first
  // overwriting all of it without reading it.
  SmallVector<Value> inputs;
  for (auto [i, op] : llvm::enumerate(chain)) {
    std::optional<int64_t> opWork = workOf(op);
    if (!opWork) {
      why = ("'" + op->getName().getStringRef() +
             "' cannot be recomputed (not a statically shaped linalg op, "
             "fill or copy)")
                .str();
      return failure();
    }
    cost = ::mplan::checkedAdd(cost, *opWork)
               .value_or(std::numeric_limits<int64_t>::max());
    if (auto linalgOp = dyn_cast<linalg::LinalgOp>(op)) {
      if (!linalgOp.hasPureBufferSemantics()) {
        why = "its writer does not have buffer semantics";
        return failure();
      }
      WalkResult payload = linalgOp.getBlock()->walk([&](Operation *nested) {
        return isMemoryEffectFree(nested) ? WalkResult::advance()
                                          : WalkResult::interrupt();
      });
      if (payload.wasInterrupted()) {
        why = "its writer's payload has memory effects";
        return failure();
      }
    }
    Value written;
    for (OpOperand &operand : op->getOpOperands()) {
      Value value = operand.get();
      if (!isa<BaseMemRefType>(value.getType()))
        continue;
      if (isDirectAlias(value, root)) {
        written = value;
        continue;
      }
      if (pointsTo.mayPointInto(value, *place)) {
        why = "its writer reaches it through another value";
        return failure();
      }
      inputs.push_back(value);
    }
    std::optional<SmallVector<MemoryEffects::EffectInstance>> effects =
        getEffectsRecursively(op);
    if (!effects) {
      why = "its writer's memory effects are unknown";
      return failure();
    }
    for (const MemoryEffects::EffectInstance &effect : *effects)
      if (isa<MemoryEffects::Write, MemoryEffects::Free>(effect.getEffect()) &&
          (!effect.getValue() || !isDirectAlias(effect.getValue(), root))) {
        why = "its writer writes other memory too";
        return failure();
      }
    if (i != 0)
      continue;
    // The first op writes every byte of the buffer and reads none.
    bool whole = written == root;
    if (auto view = written ? written.getDefiningOp<ViewOp>() : ViewOp())
      whole = view.getByteOffset() == 0 &&
              cast<MemRefType>(view.getType()).getLayout().isIdentity() &&
              staticByteSize(view.getType()) == buffer.getByteSize();
    bool overwrites = false;
    if (isa<memref::CopyOp>(op)) {
      overwrites = cast<memref::CopyOp>(op).getTarget() == written;
    } else if (auto linalgOp = dyn_cast<linalg::LinalgOp>(op)) {
      overwrites =
          linalgOp.getNumDpsInits() == 1 &&
          linalgOp.getDpsInits()[0] == written &&
          linalgOp.getNumLoops() == linalgOp.getNumParallelLoops() &&
          linalgOp.getMatchingIndexingMap(linalgOp.getDpsInitOperand(0))
              .isPermutation() &&
          !linalgOp.payloadUsesValueFromOperand(linalgOp.getDpsInitOperand(0));
    }
    // ... and reads nothing of it (the target is its only operand into it).
    overwrites &= llvm::count_if(op->getOperands(), [&](Value operand) {
                    return isDirectAlias(operand, root);
                  }) == 1;
    if (!whole || !overwrites) {
      why = "its first writer does not overwrite all of it";
      return failure();
    }
  }

  // The inputs: unchanged at the later use and alive there (never extended)
  // or recomputed in turn.
  SmallVector<Value> kept;
  std::vector<std::pair<Value, Value>> versions;
  for (Value input : inputs) {
    for (const PointsToTarget &target : pointsTo.getTargets(input)) {
      const MemoryPlace &inputPlace = pointsTo.getPlace(target.place);
      if (inputPlace.kind == MemoryPlace::Kind::Argument ||
          inputPlace.kind == MemoryPlace::Kind::Global) {
        kept.push_back(input);
        continue;
      }
      if (inputPlace.kind != MemoryPlace::Kind::Allocation) {
        why = "its writer reads memory the analysis cannot see";
        return failure();
      }
      Value inputRoot = inputPlace.value;
      auto inputAlloc =
          inputRoot ? inputRoot.getDefiningOp<AllocTensorOp>() : nullptr;
      if (inputPlace.escaped || !inputAlloc || !liveness.isRoot(inputRoot) ||
          liveness.getUnplannableReason(inputRoot)) {
        why = "an input of its writer is not a planned buffer";
        return failure();
      }
      if (liveness.getLiveRange(inputRoot).end > lateIndex) {
        kept.push_back(input);
        keptRoots.push_back(inputRoot);
        continue;
      }
      // Split before: the new buffer live at the later use holds its bytes.
      if (Value version = versionAt(inputRoot, lateIndex);
          version && isDirectAlias(input, inputRoot)) {
        if (writtenAfterWriters(version, firstLate)) {
          why = "an input of its writer may be written before its later use";
          return failure();
        }
        kept.push_back(input);
        keptRoots.push_back(version);
        versions.push_back({inputRoot, version});
        continue;
      }
      if (llvm::any_of(steps, [&](const RematStep &step) {
            return step.buffer == inputAlloc;
          }))
        continue;
      if (!isDirectAlias(input, inputRoot) ||
          inputAlloc.getType().getMemorySpace() !=
              buffer.getType().getMemorySpace()) {
        why = "an input of its writer is not live at its later use";
        return failure();
      }
      if (depth >= kMaxRematDepth) {
        why = "recomputing it needs inputs more than " +
              std::to_string(kMaxRematDepth) + " levels back";
        return failure();
      }
      // The innermost reason is the one to report.
      if (failed(
              collectRemat(inputAlloc, firstLate, depth + 1, steps, cost, why)))
        return failure();
    }
  }
  for (Value input : kept)
    if (writtenBetween(input, chain.front(), firstLate, chain)) {
      why = "an input of its writer may be written before its later use";
      return failure();
    }
  steps.push_back({buffer, std::move(chain), std::move(versions)});
  return success();
}

Value CapacitySplitter::versionAt(Value root, int64_t index) const {
  const BufferLiveness &liveness = analyses.getLiveness();
  SmallVector<Value> work{root};
  while (!work.empty()) {
    Value value = work.pop_back_val();
    LiveRange range = liveness.getLiveRange(value);
    if (range.start < index && range.end > index)
      return value;
    auto next = successors.find(value);
    if (next != successors.end())
      work.append(next->second.begin(), next->second.end());
  }
  return Value();
}

bool CapacitySplitter::writtenAfterWriters(Value version, Operation *until) {
  std::string why;
  FailureOr<SmallVector<Operation *>> users = getUsers(version, why);
  if (failed(users) || users->empty())
    return true;
  Operation *lastWriter = nullptr;
  unsigned leading = 0;
  for (Operation *user : *users) {
    if (!mayWrite(user, version, pointsTo))
      break;
    lastWriter = user;
    ++leading;
  }
  // A first writer beyond the ops that made the version (an update in place
  // or a store moved to it with the later uses) changes the bytes its
  // original's writers would recompute.
  return !lastWriter || leading > makers.lookup(version) ||
         writtenBetween(version, lastWriter, until, {});
}

LogicalResult CapacitySplitter::planRemat(Split &split, const SlabBuffers &slab,
                                          int64_t target, std::string &why) {
  int64_t cost = 0;
  SmallVector<RematStep> steps;
  keptRoots.clear();
  if (failed(
          collectRemat(split.buffer, split.firstLate, 0, steps, cost, why))) {
    // A new buffer of an earlier split (a copy back has no writer to run
    // again) holds its original's bytes: the original's writers recompute
    // them.
    // Only while no buffer between them was written after its own writers.
    auto original = origins.find(split.buffer.getResult());
    std::string whyOriginal;
    steps.clear();
    cost = 0;
    keptRoots.clear();
    if (original == origins.end())
      return failure();
    for (Value version = split.buffer.getResult(); version != original->second;
         version = parents.lookup(version))
      if (!version || writtenAfterWriters(version, split.firstLate))
        return failure();
    if (failed(collectRemat(original->second.getDefiningOp<AllocTensorOp>(),
                            split.firstLate, 0, steps, cost, whyOriginal)))
      return failure();
  }
  split.keptRoots = keptRoots;
  // The inputs recomputed on the way live from their recomputation to the
  // last recomputation that reads them, beside what is live at the later
  // use (the split buffer aside): that must stay within the target.
  // The recomputations run right before the later use, beside what is live
  // across that point (the split buffer's bytes then being the new
  // buffer's); each input recomputed on the way lives from its
  // recomputation to the last one that reads it. That must stay within the
  // target, and below the bytes at the peak, or the split only moves it.
  const BufferLiveness &liveness = analyses.getLiveness();
  int64_t lateIndex = liveness.getIndex(split.firstLate);
  int64_t base = profile->across(lateIndex);
  SmallVector<int64_t> sizes, lastReader;
  for (const RematStep &step : steps) {
    AllocTensorOp stepBuffer = step.buffer;
    ::mplan::Buffer padded;
    padded.size = *stepBuffer.getByteSize();
    padded.alignment = stepBuffer.getAlignment().value_or(1);
    sizes.push_back(paddedSize(padded));
    lastReader.push_back(sizes.size() - 1);
  }
  base -= sizes.back();
  for (auto [k, step] : llvm::enumerate(steps))
    for (Operation *op : step.chain)
      for (Value operand : op->getOperands())
        for (size_t i = 0; i < k; ++i)
          if (isDirectAlias(operand,
                            AllocTensorOp(steps[i].buffer).getResult()))
            lastReader[i] = std::max<int64_t>(lastReader[i], k);
  for (size_t k = 0; k < steps.size(); ++k) {
    int64_t live = base;
    for (size_t i = 0; i <= k; ++i)
      if (lastReader[i] >= static_cast<int64_t>(k))
        live += sizes[i];
    split.lateBytes = std::max(split.lateBytes, live);
    if (steps.size() > 1 && live > target) {
      why = "recomputing its inputs as well would raise the bound";
      return failure();
    }
    if (live >= peakBytes) {
      why = "recomputing it would only move the peak to its later use";
      return failure();
    }
  }
  split.kind = Split::Kind::Remat;
  split.steps = std::move(steps);
  split.cost = cost;
  return success();
}

LogicalResult
CapacitySplitter::planOffload(Split &split, Attribute toSpace,
                              const SmallVector<SlabBuffers> &slabs,
                              std::string &why) {
  if (!split.buffer.getType().getLayout().isIdentity()) {
    why = "it has a layout";
    return failure();
  }
  auto capacity = capacities.find(formatMemorySpace(toSpace));
  if (capacity != capacities.end()) {
    int64_t bound = 0;
    for (const SlabBuffers &slab : slabs)
      if (slab.memorySpace == toSpace)
        bound = boundOf(slab);
    if (::mplan::checkedAdd(bound, split.bytes)
            .value_or(std::numeric_limits<int64_t>::max()) > capacity->second) {
      why = "memory space '" + formatMemorySpace(toSpace) +
            "' has no room for it";
      return failure();
    }
  }
  // Copied out right after its last use before the peak and back in right
  // before its later use: both points must stay below the bytes at the
  // peak.
  const BufferLiveness &liveness = analyses.getLiveness();
  int64_t out = liveness.getSubtreeEnd(split.lastEarly) + 1;
  int64_t in = liveness.getIndex(split.firstLate);
  int64_t atOut =
      profile->at(profile->live, out - 1) - profile->at(profile->ending, out);
  if (std::max(atOut, profile->across(in)) >= peakBytes) {
    why = "moving it would only move the peak to its copies";
    return failure();
  }
  split.kind = Split::Kind::Offload;
  split.toSpace = toSpace;
  split.lateBytes = profile->across(in);
  double cost = 2.0 * static_cast<double>(split.bytes) * options.offloadCost;
  split.cost = cost >= 9.0e18 ? std::numeric_limits<int64_t>::max()
                              : static_cast<int64_t>(cost);
  return success();
}

AllocTensorOp CapacitySplitter::createBuffer(OpBuilder &builder,
                                             AllocTensorOp like,
                                             Attribute space) {
  MemRefType type = like.getType();
  type = MemRefType::get(type.getShape(), type.getElementType(),
                         type.getLayout(), space);
  return AllocTensorOp::create(
      builder, like.getLoc(), type, builder.getI64IntegerAttr(nextId++),
      /*start=*/nullptr, /*end=*/nullptr,
      /*slab=*/Value(), /*offset=*/nullptr, like.getAlignmentAttr());
}

void CapacitySplitter::redirectLateUses(Value root, Value newRoot,
                                        Operation *firstLate,
                                        SmallVectorImpl<Operation *> &inserted,
                                        SmallVectorImpl<Operation *> &changed,
                                        SmallVectorImpl<Operation *> &erased) {
  Block &body = func.getBody().front();
  auto isLate = [&](Operation *user) {
    Operation *top = body.findAncestorOpInBlock(*user);
    return top == firstLate || firstLate->isBeforeInBlock(top);
  };
  SmallVector<Value> aliases(analyses.getLiveness().getAliases(root));
  for (Value alias : aliases) {
    if (alias == root) {
      SmallVector<OpOperand *> late;
      for (OpOperand &use : root.getUses())
        if (!(use.getOwner()->getNumResults() == 1 &&
              isDirectAlias(use.getOwner()->getResult(0), root)) &&
            !BufferLiveness::isDeallocUse(use) && isLate(use.getOwner()))
          late.push_back(&use);
      for (OpOperand *use : late) {
        use->set(newRoot);
        changed.push_back(use->getOwner());
      }
      continue;
    }
    Operation *view = alias.getDefiningOp();
    if (isLate(view)) {
      // Defined after the peak: the view itself moves onto the new buffer.
      for (OpOperand &operand : view->getOpOperands())
        if (operand.get() == root)
          operand.set(newRoot);
      changed.push_back(view);
      continue;
    }
    SmallVector<OpOperand *> late;
    for (OpOperand &use : alias.getUses())
      if (!BufferLiveness::isDeallocUse(use) && isLate(use.getOwner()))
        late.push_back(&use);
    if (late.empty())
      continue;
    OpBuilder builder(firstLate);
    IRMapping mapping;
    mapping.map(root, newRoot);
    Operation *clone = builder.clone(*view, mapping);
    inserted.push_back(clone);
    for (OpOperand *use : late) {
      use->set(clone->getResult(0));
      changed.push_back(use->getOwner());
    }
    if (view->use_empty())
      erased.push_back(view);
  }
}

void CapacitySplitter::apply(const Split &split, bool updateRoot) {
  AllocTensorOp buffer = split.buffer;
  Value root = buffer.getResult();
  SmallVector<Operation *> inserted, changed, erased;
  OpBuilder builder(split.firstLate);
  Builder attrs(func.getContext());
  SmallVector<NamedAttribute> record = {
      attrs.getNamedAttr("buffer", attrs.getI64IntegerAttr(buffer.getId())),
      attrs.getNamedAttr("after", split.lastEarly->getLoc()),
      attrs.getNamedAttr("before", split.firstLate->getLoc()),
      attrs.getNamedAttr("cost", attrs.getI64IntegerAttr(split.cost)),
      attrs.getNamedAttr("bytes", attrs.getI64IntegerAttr(split.bytes))};
  AllocTensorOp fresh;
  if (split.kind == Split::Kind::Remat) {
    IRMapping mapping;
    for (const RematStep &step : split.steps) {
      AllocTensorOp stepBuffer = step.buffer;
      Value stepRoot = stepBuffer.getResult();
      AllocTensorOp copy = createBuffer(builder, stepBuffer,
                                        stepBuffer.getType().getMemorySpace());
      inserted.push_back(copy);
      mapping.map(stepRoot, copy.getResult());
      for (auto [old, version] : step.versions)
        mapping.map(old, version);
      for (Operation *op : step.chain) {
        for (Value operand : op->getOperands())
          if (!mapping.contains(operand) &&
              (llvm::any_of(split.steps,
                            [&](const RematStep &other) {
                              Value otherRoot =
                                  AllocTensorOp(other.buffer).getResult();
                              return operand != otherRoot &&
                                     isDirectAlias(operand, otherRoot);
                            }) ||
               llvm::any_of(step.versions, [&](const auto &entry) {
                 return operand != entry.first &&
                        isDirectAlias(operand, entry.first);
               })))
            inserted.push_back(
                builder.clone(*operand.getDefiningOp(), mapping));
        inserted.push_back(builder.clone(*op, mapping));
      }
      fresh = copy;
    }
    record.push_back(attrs.getNamedAttr("kind", attrs.getStringAttr("remat")));
    SmallVector<int64_t> inputs;
    for (const RematStep &step : ArrayRef(split.steps).drop_back())
      inputs.push_back(AllocTensorOp(step.buffer).getId());
    if (!inputs.empty())
      record.push_back(attrs.getNamedAttr("recomputed_inputs",
                                          attrs.getDenseI64ArrayAttr(inputs)));
  } else {
    OpBuilder after(split.lastEarly->getBlock(),
                    std::next(split.lastEarly->getIterator()));
    AllocTensorOp host = createBuffer(after, buffer, split.toSpace);
    inserted.push_back(host);
    inserted.push_back(
        memref::CopyOp::create(after, buffer.getLoc(), root, host.getResult()));
    fresh = createBuffer(builder, buffer, buffer.getType().getMemorySpace());
    inserted.push_back(fresh);
    inserted.push_back(memref::CopyOp::create(
        builder, buffer.getLoc(), host.getResult(), fresh.getResult()));
    record.push_back(
        attrs.getNamedAttr("kind", attrs.getStringAttr("offload")));
    record.push_back(attrs.getNamedAttr("offload_buffer",
                                        attrs.getI64IntegerAttr(host.getId())));
  }
  record.push_back(
      attrs.getNamedAttr("new_buffer", attrs.getI64IntegerAttr(fresh.getId())));
  successors[root].push_back(fresh.getResult());
  makers[fresh.getResult()] = llvm::count_if(inserted, [&](Operation *op) {
    return op != fresh.getOperation() &&
           llvm::any_of(op->getOperands(), [&](Value operand) {
             return isDirectAlias(operand, fresh.getResult());
           });
  });
  origins[fresh.getResult()] =
      origins.lookup(root) ? origins.lookup(root) : root;
  parents[fresh.getResult()] = root;
  redirectLateUses(root, fresh.getResult(), split.firstLate, inserted, changed,
                   erased);

  // The analyses: new ops and changed operands announced, the split
  // buffers' ranges recomputed from their uses.
  for (Operation *op : inserted)
    analyses.notifyOpInserted(op);
  for (Operation *op : changed)
    analyses.notifyOpInserted(op);
  for (Operation *op : erased) {
    analyses.notifyOpErased(op);
    op->erase();
  }
  BufferLiveness &liveness = analyses.getLiveness();
  if (updateRoot)
    liveness.recomputeLiveRange(root);
  liveness.recomputeLiveRange(fresh.getResult());
  records.push_back(attrs.getDictionaryAttr(record));
  if (options.emitRemarks) {
    InFlightDiagnostic remark = mlir::emitRemark(buffer.getLoc())
                                << "buffer " << buffer.getId() << " ("
                                << split.bytes << " bytes) ";
    if (split.kind == Split::Kind::Remat)
      remark << "rematerialized before its later use (work " << split.cost
             << ")";
    else
      remark << "offloaded to memory space '"
             << (split.toSpace ? formatMemorySpace(split.toSpace)
                               : std::string("default"))
             << "' between its uses (cost " << split.cost << ")";
    remark.attachNote(split.firstLate->getLoc()) << "its later use";
  }
}

Profile CapacitySplitter::profileOf(const SlabBuffers &slab,
                                    int64_t numIndices) const {
  Profile profile;
  size_t size = static_cast<size_t>(std::max<int64_t>(numIndices, 0)) + 1;
  profile.live.assign(size, 0);
  profile.starting.assign(size, 0);
  profile.ending.assign(size, 0);
  std::vector<int64_t> delta(size + 1, 0);
  auto clamp = [&](int64_t index) {
    return static_cast<size_t>(
        std::clamp<int64_t>(index, 0, static_cast<int64_t>(size)));
  };
  for (const ::mplan::Buffer &buffer : slab.buffers) {
    int64_t bytes = paddedSize(buffer);
    size_t start = clamp(buffer.start), end = clamp(buffer.end);
    if (start >= end)
      continue;
    delta[start] += bytes;
    delta[end] -= bytes;
    if (start < size)
      profile.starting[start] += bytes;
    if (end < size)
      profile.ending[end] += bytes;
  }
  int64_t live = 0;
  for (size_t i = 0; i < size; ++i) {
    live += delta[i];
    profile.live[i] = live;
    profile.bound = std::max(profile.bound, live);
  }
  return profile;
}

std::optional<Split> CapacitySplitter::chooseAt(
    const SlabBuffers &slab, ArrayRef<unsigned> live, int64_t peakIndex,
    const SmallVector<SlabBuffers> &slabs, int64_t target,
    const llvm::StringMap<Attribute> &offloadTo,
    SmallVectorImpl<std::pair<AllocTensorOp, std::string>> &whyNot) {
  const BufferLiveness &liveness = analyses.getLiveness();
  Operation *peakOp = topOpAt(peakIndex);
  if (!peakOp)
    return std::nullopt;
  int64_t peakTop = liveness.getIndex(peakOp);
  peakBytes = profile->at(profile->live, peakIndex);
  auto offload = offloadTo.find(formatMemorySpace(slab.memorySpace));
  std::optional<Split> best;
  for (unsigned position : live) {
    AllocTensorOp op = slab.ops[position];
    const ::mplan::Buffer &buffer = slab.buffers[position];
    if (buffer.size <= 0)
      continue;
    std::string why;
    FailureOr<SmallVector<Operation *>> users = getUsers(op.getResult(), why);
    Split split;
    split.buffer = op;
    split.bytes = buffer.size;
    if (succeeded(users)) {
      for (Operation *user : *users) {
        int64_t index = liveness.getIndex(user);
        if (index < peakTop)
          split.lastEarly = user;
        else if (index > peakTop && !split.firstLate)
          split.firstLate = user;
        else if (index == peakTop)
          why = "the op at the peak uses it";
      }
      if (why.empty() && (!split.lastEarly || !split.firstLate))
        why = "it is not used on both sides of the peak";
    }
    if (!why.empty()) {
      whyNot.push_back({op, why});
      continue;
    }
    std::optional<Split> cheapest;
    std::string whyNotHere;
    // A split of the least-cost cover goes first; the points it creates may
    // stand as high as the peak, as the cover's other splits lower them.
    for (Split::Kind kind : {Split::Kind::Remat, Split::Kind::Offload}) {
      split.kind = kind;
      if (cheapest || !preferredSet || !preferredSet->count(keyOf(split)))
        continue;
      Split chosen = split;
      std::string whyPreferred;
      int64_t savedPeak = peakBytes;
      peakBytes = std::numeric_limits<int64_t>::max();
      LogicalResult planned =
          kind == Split::Kind::Remat
              ? planRemat(chosen, slab, target, whyPreferred)
          : offload != offloadTo.end()
              ? planOffload(chosen, offload->second, slabs, whyPreferred)
              : failure();
      peakBytes = savedPeak;
      if (succeeded(planned)) {
        chosen.preferred = true;
        cheapest = std::move(chosen);
      }
    }
    split.kind = Split::Kind::Remat;
    if (!cheapest && coverOnly) {
      whyNot.push_back({op, "not a split of the cover"});
      continue;
    }
    // Otherwise the cheaper of the two levers.
    if (!cheapest) {
      if (options.remat) {
        Split remat = split;
        std::string whyRemat;
        if (succeeded(planRemat(remat, slab, target, whyRemat)))
          cheapest = remat;
        else
          whyNotHere = "not recomputable: " + whyRemat;
      } else {
        whyNotHere = "rematerialization is off";
      }
      if (offload != offloadTo.end()) {
        Split moved = split;
        std::string whyOffload;
        if (succeeded(planOffload(moved, offload->second, slabs, whyOffload))) {
          if (!cheapest || moved.cost < cheapest->cost)
            cheapest = moved;
        } else {
          whyNotHere += "; not offloadable: " + whyOffload;
        }
      } else {
        whyNotHere += "; no offload from its memory space";
      }
    }
    if (!cheapest) {
      whyNot.push_back({op, whyNotHere});
      continue;
    }
    // Least cost per byte taken off the points above the target (a split
    // whose gap spans several peaks lowers them all, as a set cover counts
    // it); then more bytes; then the earlier buffer.
    cheapest->relief = profile->relief(
        paddedSize(buffer), liveness.getSubtreeEnd(cheapest->lastEarly) + 1,
        liveness.getIndex(cheapest->firstLate));
    auto ratioBelow = [](const Split &a, const Split &b) {
      if (a.preferred != b.preferred)
        return a.preferred;
      double lhs = static_cast<double>(a.cost) / std::max(a.relief, 1.0);
      double rhs = static_cast<double>(b.cost) / std::max(b.relief, 1.0);
      if (lhs != rhs)
        return lhs < rhs;
      return a.bytes > b.bytes;
    };
    if (!best || ratioBelow(*cheapest, *best))
      best = std::move(cheapest);
  }
  return best;
}

SmallVector<int64_t> CapacitySplitter::peaksAbove(const SlabBuffers &slab,
                                                  int64_t target) const {
  SmallVector<std::pair<int64_t, int64_t>> events;
  events.reserve(2 * slab.buffers.size());
  for (const ::mplan::Buffer &buffer : slab.buffers) {
    events.push_back({buffer.start, paddedSize(buffer)});
    events.push_back({buffer.end, -paddedSize(buffer)});
  }
  llvm::sort(events);
  SmallVector<int64_t> peaks;
  int64_t live = 0, runMax = 0;
  for (size_t i = 0; i < events.size();) {
    int64_t time = events[i].first;
    for (; i < events.size() && events[i].first == time; ++i)
      live = ::mplan::checkedAdd(live, events[i].second)
                 .value_or(std::numeric_limits<int64_t>::max() / 2);
    if (live > target) {
      if (runMax == 0 || live > runMax) {
        if (runMax == 0)
          peaks.push_back(time);
        else
          peaks.back() = time;
        runMax = live;
      }
    } else {
      runMax = 0;
    }
  }
  return peaks;
}

bool CapacitySplitter::collectCandidates(
    const SlabBuffers &slab, int64_t target,
    const SmallVector<SlabBuffers> &slabs,
    const llvm::StringMap<Attribute> &offloadTo, const Profile &current,
    SmallVectorImpl<Split> &splits, ::mplan::CoverProblem &problem) {
  const BufferLiveness &liveness = analyses.getLiveness();
  const Profile *saved = profile;
  int64_t savedPeak = peakBytes;
  profile = &current;
  // Legality only: the bytes at the points a split creates are constraints
  // of the problem, not a rule of the search.
  peakBytes = std::numeric_limits<int64_t>::max();
  problem.live = current.live;
  problem.target = target;
  auto offload = offloadTo.find(formatMemorySpace(slab.memorySpace));
  // The splits themselves need the rest of the budget.
  int64_t limit = work + std::max<int64_t>(options.workLimit - work, 0) / 4;
  bool complete = true;
  for (size_t position = 0; position < slab.ops.size() && complete;
       ++position) {
    AllocTensorOp op = slab.ops[position];
    const ::mplan::Buffer &buffer = slab.buffers[position];
    if (buffer.size <= 0)
      continue;
    // Only gaps that hold a point above the target can help.
    if (current.relief(1, buffer.start, buffer.end) <= 0.0)
      continue;
    std::string why;
    FailureOr<SmallVector<Operation *>> users = getUsers(op.getResult(), why);
    if (failed(users))
      continue;
    for (size_t i = 0; i + 1 < users->size(); ++i) {
      if (work > limit) {
        complete = false;
        break;
      }
      Split split;
      split.buffer = op;
      split.bytes = buffer.size;
      split.lastEarly = (*users)[i];
      split.firstLate = (*users)[i + 1];
      int64_t from = liveness.getSubtreeEnd(split.lastEarly) + 1;
      int64_t to = liveness.getIndex(split.firstLate);
      if (current.relief(1, from, to) <= 0.0)
        continue;
      int64_t group = static_cast<int64_t>(splits.size());
      auto add = [&](Split &&chosen) {
        ::mplan::CoverCandidate candidate;
        candidate.from = from;
        candidate.to = to;
        candidate.bytes = paddedSize(buffer);
        candidate.cost = chosen.cost;
        candidate.group = group;
        candidate.lateBytes = chosen.lateBytes;
        problem.candidates.push_back(candidate);
        splits.push_back(std::move(chosen));
      };
      if (options.remat) {
        Split remat = split;
        if (succeeded(planRemat(remat, slab,
                                std::numeric_limits<int64_t>::max(), why)))
          add(std::move(remat));
      }
      if (offload != offloadTo.end()) {
        Split moved = split;
        if (succeeded(planOffload(moved, offload->second, slabs, why)))
          add(std::move(moved));
      }
    }
  }
  // A recomputation reads its kept inputs at its later use. Taken with a
  // split of such an input whose gap holds that use, it would recompute the
  // input too, at a cost the problem does not count: the two exclude each
  // other. Applied first, it cuts that gap in two at the read: a split on
  // either side (same lever) is then a candidate of its own, taken only
  // with the recomputation.
  DenseMap<Value, SmallVector<size_t>> byRoot;
  for (auto [index, split] : llvm::enumerate(splits))
    byRoot[split.buffer.getResult()].push_back(index);
  size_t numPlain = splits.size();
  std::map<std::tuple<int64_t, size_t, bool>, int64_t> halfGroups;
  for (size_t c = 0; c < numPlain && complete; ++c) {
    if (splits[c].kind != Split::Kind::Remat)
      continue;
    int64_t late = problem.candidates[c].to;
    SmallVector<Value> roots(splits[c].keptRoots);
    llvm::sort(roots, [](Value a, Value b) {
      return a.getAsOpaquePointer() < b.getAsOpaquePointer();
    });
    roots.erase(llvm::unique(roots), roots.end());
    for (Value root : roots) {
      auto other = byRoot.find(root);
      if (other == byRoot.end())
        continue;
      for (size_t d : SmallVector<size_t>(other->second)) {
        ++work;
        ::mplan::CoverCandidate whole = problem.candidates[d];
        if (d >= numPlain || whole.from > late || late >= whole.to)
          continue;
        for (bool second : {false, true}) {
          ::mplan::CoverCandidate half = whole;
          half.prerequisite = static_cast<int64_t>(c);
          (second ? half.from : half.to) = late;
          if (current.relief(1, half.from, half.to) <= 0.0)
            continue;
          Split split = splits[d];
          if (!second) {
            // Recomputed or copied back right before the recomputation
            // that reads it.
            split.firstLate = splits[c].firstLate;
            split.steps.clear();
            split.cost = split.lateBytes = 0;
            std::string why;
            if (failed(split.kind == Split::Kind::Remat
                           ? planRemat(split, slab,
                                       std::numeric_limits<int64_t>::max(), why)
                           : planOffload(split, offload->second, slabs, why)))
              continue;
            half.cost = split.cost;
            half.lateBytes = split.lateBytes;
          }
          auto [group, fresh] =
              halfGroups.try_emplace(std::make_tuple(whole.group, c, second),
                                     static_cast<int64_t>(splits.size()));
          (void)fresh;
          half.group = group->second;
          problem.candidates.push_back(half);
          splits.push_back(std::move(split));
          byRoot[root].push_back(splits.size() - 1);
        }
      }
    }
  }
  for (auto [index, split] : llvm::enumerate(splits)) {
    int64_t late = problem.candidates[index].to;
    for (Value root : split.keptRoots) {
      auto other = byRoot.find(root);
      if (other == byRoot.end())
        continue;
      for (size_t d : other->second) {
        ++work;
        if (problem.candidates[d].prerequisite != static_cast<int64_t>(index) &&
            problem.candidates[d].from <= late &&
            late < problem.candidates[d].to)
          problem.conflicts.push_back({index, d});
      }
    }
  }
  profile = saved;
  peakBytes = savedPeak;
  return complete;
}

DictionaryAttr
CapacitySplitter::recordProblem(const SlabBuffers &slab, int64_t capacity,
                                const SmallVector<SlabBuffers> &slabs,
                                const llvm::StringMap<Attribute> &offloadTo) {
  const BufferLiveness &liveness = analyses.getLiveness();
  Profile initial = profileOf(slab, liveness.getNumIndices());
  initial.setTarget(capacity);
  SmallVector<Split> splits;
  ::mplan::CoverProblem problem;
  bool complete = collectCandidates(slab, capacity, slabs, offloadTo, initial,
                                    splits, problem);
  Builder b(func.getContext());
  SmallVector<Attribute> rows;
  for (auto [split, candidate] : llvm::zip(splits, problem.candidates))
    rows.push_back(b.getDenseI64ArrayAttr(
        {static_cast<int64_t>(split.buffer.getId()),
         split.kind == Split::Kind::Remat ? 0 : 1, candidate.from, candidate.to,
         candidate.bytes, candidate.cost, candidate.lateBytes, candidate.group,
         candidate.prerequisite}));
  SmallVector<int64_t> conflicts;
  for (const auto &[a, b] : problem.conflicts) {
    conflicts.push_back(static_cast<int64_t>(a));
    conflicts.push_back(static_cast<int64_t>(b));
  }
  std::string space = formatMemorySpace(slab.memorySpace);
  return b.getDictionaryAttr(
      {b.getNamedAttr("space",
                      b.getStringAttr(space.empty() ? "default" : space)),
       b.getNamedAttr("capacity", b.getI64IntegerAttr(capacity)),
       b.getNamedAttr("complete", b.getBoolAttr(complete)),
       b.getNamedAttr("live", b.getDenseI64ArrayAttr(initial.live)),
       b.getNamedAttr("candidates", b.getArrayAttr(rows)),
       b.getNamedAttr("conflicts", b.getDenseI64ArrayAttr(conflicts))});
}

void CapacitySplitter::choosePreferred(
    const SlabBuffers &slab, SlabState &state,
    const SmallVector<SlabBuffers> &slabs,
    const llvm::StringMap<Attribute> &offloadTo, const Profile &current) {
  state.preferredFor = state.target;
  state.preferred.clear();
  state.preferredInputs.clear();
  state.prerequisites.clear();
  SmallVector<Split> splits;
  ::mplan::CoverProblem problem;
  // A cover of some of the splits could be worse than the choice per peak.
  if (!collectCandidates(slab, state.target, slabs, offloadTo, current, splits,
                         problem))
    return;
  // Half of what is left of the budget: the splits themselves need the rest.
  int64_t budget = work + (options.workLimit - work) / 2;
  std::optional<::mplan::CoverResult> cover =
      ::mplan::solveSplitCover(problem, budget, work);
  // The halves of cut gaps (listed last) make a larger search: without a
  // cover within its budget, the problem without them (and their
  // recomputations' conflicts kept) gets the next half.
  auto firstHalf = llvm::find_if(problem.candidates,
                                 [](const ::mplan::CoverCandidate &candidate) {
                                   return candidate.prerequisite >= 0;
                                 });
  if (!cover && firstHalf != problem.candidates.end()) {
    size_t numPlain = firstHalf - problem.candidates.begin();
    problem.candidates.resize(numPlain);
    llvm::erase_if(problem.conflicts, [&](const auto &pair) {
      return pair.first >= numPlain || pair.second >= numPlain;
    });
    cover = ::mplan::solveSplitCover(
        problem, work + (options.workLimit - work) / 2, work);
  }
  if (!cover)
    return;
  for (size_t index : cover->chosen) {
    const Split &split = splits[index];
    // A half of a gap cut by a recomputation's read has no ops to name yet:
    // the cover is solved again once its recomputation is applied.
    if (int64_t prerequisite = problem.candidates[index].prerequisite;
        prerequisite >= 0) {
      state.prerequisites.insert(keyOf(splits[prerequisite]));
      continue;
    }
    state.preferred.insert(keyOf(split));
    for (const RematStep &step : split.steps)
      for (Operation *op : step.chain)
        for (Value operand : op->getOperands()) {
          if (!isa<BaseMemRefType>(operand.getType()))
            continue;
          for (const PointsToTarget &target : pointsTo.getTargets(operand)) {
            const MemoryPlace &place = pointsTo.getPlace(target.place);
            if (place.kind == MemoryPlace::Kind::Allocation && place.value &&
                place.value != AllocTensorOp(step.buffer).getResult())
              state.preferredInputs.insert(place.value);
          }
        }
  }
}

LogicalResult CapacitySplitter::run() {
  if (!func.getBody().hasOneBlock())
    return success();
  Block &body = func.getBody().front();
  func.walk([&](Operation *op) {
    if (auto alloc = dyn_cast<AllocTensorOp>(op))
      nextId = std::max<int64_t>(nextId, alloc.getId() + 1);
    else if (auto alloc = dyn_cast<AllocDynamicOp>(op))
      nextId = std::max<int64_t>(nextId, alloc.getId() + 1);
  });

  // The work of the program as it is, the unit of the splits' costs.
  int64_t programWork = 0;
  for (Operation &op : body)
    if (std::optional<int64_t> opWork = workOf(&op))
      programWork = ::mplan::checkedAdd(programWork, *opWork)
                        .value_or(std::numeric_limits<int64_t>::max());

  // The spaces an offload may take buffers to.
  llvm::StringMap<Attribute> offloadTo;
  for (const auto &[from, to] : options.offload)
    offloadTo[from] = to;

  llvm::StringMap<SlabState> states;
  SmallVector<Attribute> problems;
  bool outOfWork = false;
  int64_t plannerRounds = 0;
  while (true) {
    if (work > options.workLimit) {
      outOfWork = true;
      break;
    }
    BufferLiveness &liveness = analyses.getExactLiveness();
    FailureOr<SmallVector<SlabBuffers>> slabs =
        collectSlabBuffers(func, liveness, options.planner.alignment);
    if (failed(slabs))
      return failure();
    topOps.clear();
    usersCache.clear();
    writersCache.clear();
    writersOfCache.clear();
    for (Operation &op : body)
      topOps.push_back({liveness.getIndex(&op), &op});
    work += static_cast<int64_t>(topOps.size());

    // The peak of every run of points where a capped slab is above its
    // target, in program order.
    SmallVector<std::pair<int64_t, const SlabBuffers *>> peaks;
    for (const SlabBuffers &slab : *slabs) {
      std::string key = formatMemorySpace(slab.memorySpace);
      auto capacity = capacities.find(key);
      if (capacity == capacities.end())
        continue;
      SlabState &state = states[key];
      if (!state.boundBefore) {
        state.capacity = capacity->second;
        state.target = capacity->second;
        state.boundBefore = boundOf(slab);
        state.belowFloor =
            state.boundBefore > state.target &&
            computeOpFloor(slab, pointsTo, liveness).first > state.target;
        if (options.recordProblem && *state.boundBefore > state.target)
          problems.push_back(
              recordProblem(slab, state.capacity, *slabs, offloadTo));
      }
      if (state.belowFloor)
        continue;
      for (int64_t at : peaksAbove(slab, state.target))
        peaks.push_back({at, &slab});
    }
    blocked.clear();
    if (peaks.empty()) {
      // Every bound fits: the planner's arenas must too.
      if (plannerRounds++ >= 4)
        break;
      bool lowered = false;
      for (const SlabBuffers &slab : *slabs) {
        std::string key = formatMemorySpace(slab.memorySpace);
        auto state = states.find(key);
        if (state == states.end())
          continue;
        FailureOr<::mplan::Plan> plan = runPlanner(
            func, slab.buffers, options.planner, state->second.capacity);
        if (failed(plan))
          return failure();
        if (plan->arenaSize > state->second.capacity) {
          state->second.target = std::min(
              state->second.target,
              boundOf(slab) - (plan->arenaSize - state->second.capacity));
          lowered = state->second.target > 0;
        }
      }
      if (!lowered)
        break;
      continue;
    }

    // One split per peak, for peaks whose splits touch disjoint stretches
    // of the program (the buffers a split recomputes or moves are used in
    // its stretch only, so the splits of one step are independent); the
    // next step finds the peaks again.
    llvm::stable_sort(
        peaks, [](const auto &a, const auto &b) { return a.first < b.first; });
    SmallVector<Split> batch;
    DenseMap<const SlabBuffers *, Profile> profiles;
    // While a space has a cover, only its splits are taken (the others of
    // its plan wait for them, e.g. the halves of a gap cut by a
    // recomputation); when none applies, the choice per peak.
    for (bool onlyCover : {true, false}) {
      bool anyCover = false;
      blocked.clear();
      int64_t stretchEnd = std::numeric_limits<int64_t>::min();
      // The buffers live at each peak, by one sweep per slab over the peaks
      // in order (its buffers by start; the ended ones dropped as it goes).
      struct Sweep {
        SmallVector<unsigned> byStart;
        size_t next = 0;
        SmallVector<unsigned> live;
      };
      DenseMap<const SlabBuffers *, Sweep> sweeps;
      for (const auto &peak : peaks) {
        int64_t peakIndex = peak.first;
        const SlabBuffers *slab = peak.second;
        Sweep &sweep = sweeps[slab];
        auto [entry, fresh] = profiles.try_emplace(slab);
        SlabState &state = states[formatMemorySpace(slab->memorySpace)];
        if (fresh) {
          entry->second = profileOf(*slab, liveness.getNumIndices());
          entry->second.setTarget(state.target);
          work += liveness.getNumIndices();
          // The least-cost cover, once per target.
          if (state.preferredFor != state.target)
            choosePreferred(*slab, state, *slabs, offloadTo, entry->second);
        }
        profile = &entry->second;
        preferredSet = &state.preferred;
        coverOnly = onlyCover &&
                    (!state.preferred.empty() || !state.prerequisites.empty());
        anyCover |= coverOnly;
        if (sweep.byStart.empty()) {
          sweep.byStart = llvm::to_vector(llvm::seq<unsigned>(
              0, static_cast<unsigned>(slab->buffers.size())));
          llvm::stable_sort(sweep.byStart, [&](unsigned a, unsigned b) {
            return slab->buffers[a].start < slab->buffers[b].start;
          });
        }
        for (; sweep.next < sweep.byStart.size() &&
               slab->buffers[sweep.byStart[sweep.next]].start <= peakIndex;
             ++sweep.next)
          sweep.live.push_back(sweep.byStart[sweep.next]);
        llvm::erase_if(sweep.live, [&](unsigned position) {
          return slab->buffers[position].end <= peakIndex;
        });
        work += static_cast<int64_t>(sweep.live.size());
        SmallVector<unsigned> live(sweep.live);
        // Inside the stretch of this step's last split, only another gap of
        // its buffer may join (below).
        bool inStretch = peakIndex < stretchEnd;
        if (inStretch) {
          if (batch.empty() ||
              batch.back().buffer.getType().getMemorySpace() !=
                  slab->memorySpace ||
              states[formatMemorySpace(slab->memorySpace)]
                  .preferredInputs.contains(batch.back().buffer.getResult()))
            continue;
          llvm::erase_if(live, [&](unsigned position) {
            return slab->ops[position] != batch.back().buffer;
          });
          if (live.empty())
            continue;
        }
        llvm::sort(live);
        SmallVector<std::pair<AllocTensorOp, std::string>> whyNot;
        std::optional<Split> best =
            chooseAt(*slab, live, peakIndex, *slabs,
                     states[formatMemorySpace(slab->memorySpace)].target,
                     offloadTo, whyNot);
        if (!best) {
          if (blocked.empty() && !inStretch)
            blocked = std::move(whyNot);
          continue;
        }
        // Another gap of the buffer the last split of this step splits, one of
        // the cover's: both go (applied from the later gap back, each takes
        // the uses after its own later use), whatever their stretches.
        if (inStretch) {
          // Only a split of the cover: another split of this buffer was the
          // best at this peak only among that buffer's.
          if (best->preferred && batch.back().firstLate != best->firstLate)
            batch.push_back(std::move(*best));
          continue;
        }
        LiveRange stretch = liveness.getLiveRange(best->buffer.getResult());
        for (const RematStep &step : best->steps)
          stretch = stretch.merge(
              liveness.getLiveRange(AllocTensorOp(step.buffer).getResult()));
        if (stretch.start < stretchEnd)
          continue;
        stretchEnd = stretch.end;
        batch.push_back(std::move(*best));
      }
      if (!batch.empty() || !anyCover)
        break;
    }
    if (batch.empty())
      break;
    // Later gaps first: a buffer split twice in this step hands the uses
    // after its later gap to the later new buffer before the earlier split
    // hands it the uses between the two.
    std::reverse(batch.begin(), batch.end());
    for (auto [i, split] : llvm::enumerate(batch)) {
      SlabState &state = states[formatMemorySpace(
          AllocTensorOp(split.buffer).getType().getMemorySpace())];
      if (split.preferred)
        state.preferred.erase(keyOf(split));
      if (state.prerequisites.erase(keyOf(split)))
        state.preferredFor.reset();
      apply(split, /*updateRoot=*/i + 1 == batch.size() ||
                       batch[i + 1].buffer != split.buffer);
    }
    preferredSet = nullptr;
  }

  Builder attrs(func.getContext());
  if (!problems.empty())
    func->setAttr(kSplitProblemAttr, attrs.getArrayAttr(problems));
  if (outOfWork)
    func->setAttr(kSplitWorkLimitAttr,
                  attrs.getI64IntegerAttr(options.workLimit));
  if (records.empty() && blocked.empty())
    return success();
  if (!records.empty()) {
    if (auto old = func->getAttrOfType<ArrayAttr>(kSplitsAttr))
      records.insert(records.begin(), old.begin(), old.end());
    func->setAttr(kSplitsAttr, attrs.getArrayAttr(records));
    // The program's work before the first splits (a later round's body
    // holds the earlier rounds' recomputations and copies).
    if (!func->hasAttr(kProgramWorkAttr))
      func->setAttr(kProgramWorkAttr, attrs.getI64IntegerAttr(programWork));
    SmallVector<NamedAttribute> before;
    for (const auto &entry : states)
      if (entry.second.boundBefore)
        before.push_back(attrs.getNamedAttr(
            entry.first().empty() ? "default" : entry.first(),
            attrs.getI64IntegerAttr(*entry.second.boundBefore)));
    llvm::sort(before, [](const NamedAttribute &a, const NamedAttribute &b) {
      return a.getName().strref() < b.getName().strref();
    });
    // The bounds before the first splits (a later round keeps them).
    if (!func->hasAttr(kBoundsBeforeSplitsAttr))
      func->setAttr(kBoundsBeforeSplitsAttr, attrs.getDictionaryAttr(before));
  }
  SmallVector<Attribute> reasons;
  for (auto &[op, why] : blocked)
    reasons.push_back(attrs.getDictionaryAttr(
        {attrs.getNamedAttr("buffer", attrs.getI64IntegerAttr(op.getId())),
         attrs.getNamedAttr("at", op.getLoc()),
         attrs.getNamedAttr("why", attrs.getStringAttr(why))}));
  if (!reasons.empty())
    func->setAttr(kUnsplitAttr, attrs.getArrayAttr(reasons));
  else
    func->removeAttr(kUnsplitAttr);
  return success();
}

FailureOr<SmallVector<std::pair<std::string, Attribute>>>
mlir::mplan::parseOffloads(MLIRContext *context,
                           function_ref<OptionError()> emitError,
                           ArrayRef<std::string> specs) {
  SmallVector<std::pair<std::string, Attribute>> offloads;
  for (StringRef spec : specs) {
    auto [from, to] = spec.split(':');
    std::optional<std::string> fromKey = parseMemorySpaceKey(from.trim());
    std::optional<std::string> toKey = parseMemorySpaceKey(to.trim());
    if (!spec.contains(':') || !fromKey || !toKey)
      return emitError()
             << "entry '" << spec
             << "': expected FROM:TO with each 'default', an integer memory "
                "space, or one of global, workgroup, private";
    if (*fromKey == *toKey)
      return emitError() << "entry '" << spec
                         << "': FROM and TO are the same memory space";
    for (const auto &entry : offloads)
      if (entry.first == *fromKey)
        return emitError() << "entry '" << spec << "': memory space '"
                           << from.trim() << "' has an offload already";
    Attribute space;
    if (!toKey->empty()) {
      if (toKey->front() == '#') {
        space = parseAttribute(*toKey, context);
        if (!space)
          return emitError() << "entry '" << spec << "': memory space '"
                             << *toKey << "' needs the gpu dialect loaded";
      } else {
        int64_t value = 0;
        (void)StringRef(*toKey).getAsInteger(10, value);
        space = IntegerAttr::get(IntegerType::get(context, 64), value);
      }
    }
    offloads.push_back({*fromKey, space});
  }
  return offloads;
}

int64_t mlir::mplan::capacityExcess(func::FuncOp func,
                                    const BudgetOptions &options,
                                    PlanAnalyses &analyses) {
  if (options.planner.capacity.empty())
    return 0;
  FailureOr<llvm::StringMap<int64_t>> capacities = parseCapacities(
      [&] { return mlir::emitError(func.getLoc(), "capacity "); },
      options.planner.capacity);
  if (failed(capacities))
    return 0;
  auto bounds = computeSpaceBounds(func, analyses.getExactLiveness(),
                                   options.planner.alignment);
  if (failed(bounds))
    return 0;
  int64_t excess = 0;
  for (const auto &[space, bound] : *bounds) {
    auto capacity = capacities->find(space);
    if (capacity == capacities->end())
      continue;
    if (!bound)
      return std::numeric_limits<int64_t>::max();
    if (*bound > capacity->second)
      excess = ::mplan::checkedAdd(excess, *bound - capacity->second)
                   .value_or(std::numeric_limits<int64_t>::max());
  }
  return excess;
}

bool mlir::mplan::exceedsCapacity(func::FuncOp func,
                                  const BudgetOptions &options,
                                  PlanAnalyses &analyses) {
  return capacityExcess(func, options, analyses) != 0;
}

LogicalResult mlir::mplan::meetCapacitiesInFunction(
    func::FuncOp func, const BudgetOptions &options, PlanAnalyses &analyses) {
  FailureOr<llvm::StringMap<int64_t>> capacities = parseCapacities(
      [&] { return mlir::emitError(func.getLoc(), "capacity "); },
      options.planner.capacity);
  if (failed(capacities))
    return failure();
  if (capacities->empty())
    return success();
  return CapacitySplitter(func, options, *capacities, analyses).run();
}
