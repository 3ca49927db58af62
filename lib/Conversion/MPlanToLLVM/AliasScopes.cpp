//===- AliasScopes.cpp - alias scopes for arena buffers -------------------===//
//
// Every planned buffer is a view of one arena pointer, so LLVM no longer sees
// the separate objects that per-buffer allocations gave it. These two passes
// give it the facts back as scoped noalias metadata:
//
//   * mplan-tag-buffer-accesses (memref level, after loops are lowered to cf)
//     finds, for every memory access, the places it may touch: byte ranges of
//     the function's arenas, or "outside every arena"; it records them in the
//     op's location, which upstream's lowering patterns copy to the LLVM ops
//     they create (they drop attributes);
//   * mplan-buffer-alias-scopes (LLVM level) turns the places of each function
//     into alias scopes of one domain, gives each access the scopes of its
//     places and, as noalias, the scopes of the places that can never share a
//     byte with them, and removes the marks.
//
// The criterion is disjoint bytes, never disjoint live ranges: buffers that
// reuse bytes at different times are not noalias.
//
//===----------------------------------------------------------------------===//

#include "mplan/Conversion/Passes.h"

#include "mplan/Analysis/PointsTo.h"
#include "mplan/Dialect/MPlan/IR/MPlanOps.h"

#include "mlir/Dialect/SCF/IR/SCF.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/IR/AttrTypeSubElements.h"
#include "mlir/IR/Matchers.h"
#include "mlir/Interfaces/LoopLikeInterface.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "mlir/Interfaces/ViewLikeInterface.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/MapVector.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/TypeSwitch.h"
#include "llvm/Support/CheckedArithmetic.h"
#include "llvm/Support/FormatVariadic.h"

#include <map>

namespace mlir {
namespace mplan {
#define GEN_PASS_DEF_MPLANTAGBUFFERACCESSES
#define GEN_PASS_DEF_MPLANBUFFERALIASSCOPES
#include "mplan/Conversion/Passes.h.inc"
} // namespace mplan
} // namespace mlir

using namespace mlir;

static constexpr llvm::StringLiteral kArenaAttr = "mplan.arena";
static constexpr llvm::StringLiteral kAccessKey = "mplan.access";
static constexpr llvm::StringLiteral kHideKey = "mplan.hide_provenance";

namespace {
/// A place a memory access may touch: bytes [begin, end) of arena `arena`, or
/// anything outside the function's arenas (`arena` == kOutside).
struct Place {
  static constexpr int64_t kOutside = -1;
  int64_t arena = kOutside;
  int64_t begin = 0;
  int64_t end = 0;

  bool isOutside() const { return arena == kOutside; }
  /// Whether no byte of `this` can be a byte of `other`.
  bool isDisjointFrom(const Place &other) const {
    if (isOutside() || other.isOutside())
      return !(isOutside() && other.isOutside());
    return arena != other.arena || end <= other.begin || other.end <= begin;
  }
  bool operator==(const Place &other) const {
    return arena == other.arena && begin == other.begin && end == other.end;
  }
  bool operator<(const Place &other) const {
    return std::tie(arena, begin, end) <
           std::tie(other.arena, other.begin, other.end);
  }
};

/// The places of a memref value; `known` is false when the value may point
/// anywhere (then `places` is empty).
struct Places {
  bool known = false;
  SmallVector<Place, 1> places;

  static Places unknown() { return {}; }
  static Places of(Place place) { return {true, {place}}; }
};

/// The places of the memref values of one function, in terms of its
/// arenas: what the points-to analysis (mplan/Analysis/PointsTo.h) says each
/// value may point into, an arena's bytes where it knows them exactly.
class PlaceFinder {
public:
  explicit PlaceFinder(func::FuncOp func) : func(func), pointsTo(func) {
    Block &entry = func.getBody().front();
    // The arena argument (arena=argument): other arguments are outside it
    // only under the caller's obligation, stated by `llvm.noalias`.
    argumentsAreOutside = true;
    for (BlockArgument arg : entry.getArguments()) {
      if (!func.getArgAttr(arg.getArgNumber(), kArenaAttr))
        continue;
      addArena(arg);
      if (!func.getArgAttr(arg.getArgNumber(),
                           LLVM::LLVMDialect::getNoAliasAttrName()))
        argumentsAreOutside = false;
    }
    // Arenas allocated once per call, and global arenas (by symbol: every
    // memref.get_global of one is the same bytes).
    func.walk([&](Operation *op) {
      if (!op->hasAttr(kArenaAttr) || op->getNumResults() != 1)
        return;
      if (auto get = dyn_cast<memref::GetGlobalOp>(op)) {
        arenaGlobals.try_emplace(get.getNameAttr(), -1);
        arenaOps.push_back(op);
        return;
      }
      if (isa<memref::AllocOp, memref::AllocaOp>(op) &&
          op->getBlock() == &entry && isFreedOnlyAtExit(op->getResult(0))) {
        addArena(op->getResult(0));
        arenaOps.push_back(op);
      }
    });
    // Global arenas are numbered after the allocated ones.
    for (Operation *op : arenaOps)
      if (auto get = dyn_cast<memref::GetGlobalOp>(op)) {
        int64_t &number = arenaGlobals[get.getNameAttr()];
        if (number < 0)
          number = numArenas++;
      }
  }

  bool hasArenas() const { return numArenas != 0; }

  /// The ops that make the function's arenas: its arena allocations and every
  /// `memref.get_global` of an arena global (not the arena argument).
  ArrayRef<Operation *> getArenaOps() const { return arenaOps; }

  /// Whether the allocation `alloc` stays allocated until the function
  /// returns: every `memref.dealloc` of it is followed, in a block that
  /// returns, by nothing that may allocate. Only then is every other
  /// allocation of the call a different object (a callee's arena allocated
  /// around a call, freed right after it, is not such an arena).
  static bool isFreedOnlyAtExit(Value alloc) {
    for (Operation *user : alloc.getUsers()) {
      if (!isa<memref::DeallocOp>(user))
        continue;
      Operation *terminator = user->getBlock()->getTerminator();
      if (!terminator || !terminator->hasTrait<OpTrait::ReturnLike>())
        return false;
      for (Operation *after = user->getNextNode(); after != terminator;
           after = after->getNextNode()) {
        WalkResult mayAllocate = after->walk([](Operation *nested) {
          if (isa<memref::DeallocOp>(nested) ||
              nested->hasTrait<OpTrait::HasRecursiveMemoryEffects>())
            return WalkResult::advance();
          auto effects = dyn_cast<MemoryEffectOpInterface>(nested);
          if (!effects || effects.hasEffect<MemoryEffects::Allocate>())
            return WalkResult::interrupt();
          return WalkResult::advance();
        });
        if (mayAllocate.wasInterrupted())
          return false;
      }
    }
    return true;
  }

  /// The places of memref `value`: an arena's bytes where the analysis
  /// knows them exactly, the whole arena where it does not, "outside every
  /// arena" for the function's other allocations, non-arena globals and (when
  /// the caller promises it) arguments; unknown when it may point to memory
  /// the analysis cannot name.
  Places get(Value value) const {
    Places result;
    result.known = true;
    for (const mplan::PointsToTarget &target : pointsTo.getTargets(value)) {
      std::optional<Place> place = toPlace(target);
      if (!place)
        return Places::unknown();
      if (!llvm::is_contained(result.places, *place))
        result.places.push_back(*place);
    }
    return result;
  }

private:
  void addArena(Value arena) { arenaOf[arena] = numArenas++; }

  static int64_t arenaSize(const mplan::MemoryPlace &place) {
    return place.size >= 0 ? place.size : std::numeric_limits<int64_t>::max();
  }

  std::optional<Place> toPlace(const mplan::PointsToTarget &target) const {
    using Kind = mplan::MemoryPlace::Kind;
    const mplan::MemoryPlace &place = pointsTo.getPlace(target.place);
    std::optional<int64_t> arena;
    if (place.value)
      if (auto it = arenaOf.find(place.value); it != arenaOf.end())
        arena = it->second;
    if (place.kind == Kind::Global)
      if (auto it = arenaGlobals.find(place.symbol); it != arenaGlobals.end())
        arena = it->second;
    if (arena) {
      if (target.exact)
        return Place{*arena, target.begin, target.end};
      return Place{*arena, 0, arenaSize(place)};
    }
    switch (place.kind) {
    case Kind::Allocation:
    case Kind::Global:
      // Every other allocation is a different object from the arenas (which
      // stay allocated for the whole call), and so is every other global.
      return Place{};
    case Kind::Argument:
      if (argumentsAreOutside)
        return Place{};
      return std::nullopt;
    case Kind::Unknown:
      return std::nullopt;
    }
    return std::nullopt;
  }

  func::FuncOp func;
  mplan::PointsToAnalysis pointsTo;
  int64_t numArenas = 0;
  bool argumentsAreOutside = true;
  /// Arena numbers of arena allocations and the arena argument, and of
  /// global arenas by symbol.
  llvm::DenseMap<Value, int64_t> arenaOf;
  llvm::DenseMap<Attribute, int64_t> arenaGlobals;
  SmallVector<Operation *> arenaOps;
};

/// The places of a mark, or failure if `attr` is not one.
static FailureOr<SmallVector<Place>> decodeMark(Attribute attr) {
  auto dict = dyn_cast_if_present<DictionaryAttr>(attr);
  auto list = dict ? dict.getAs<ArrayAttr>(kAccessKey) : ArrayAttr();
  if (!list)
    return failure();
  SmallVector<Place> places;
  for (Attribute element : list) {
    auto triple = dyn_cast<DenseI64ArrayAttr>(element);
    if (!triple || triple.size() != 3)
      return failure();
    places.push_back({triple[0], triple[1], triple[2]});
  }
  return places;
}

/// The mark of `loc` if it is a marked location.
static FailureOr<SmallVector<Place>> getMark(Location loc) {
  auto fused = dyn_cast<FusedLoc>(loc);
  if (!fused)
    return failure();
  return decodeMark(fused.getMetadata());
}

/// Whether `attr` is the mark of an arena whose pointer LLVM must not trace
/// back to its allocation (`{mplan.hide_provenance}`).
static bool isHideMark(Attribute attr) {
  auto dict = dyn_cast_if_present<DictionaryAttr>(attr);
  return dict && dict.contains(kHideKey);
}

/// The locations a mark wraps, without its metadata.
static Location unwrap(FusedLoc fused) {
  ArrayRef<Location> inner = fused.getLocations();
  if (inner.size() == 1)
    return inner.front();
  return FusedLoc::get(fused.getContext(), inner);
}

/// Removes every mark (access places and hidden provenance) from the
/// locations of `root`'s ops and block arguments (at any depth of a
/// location).
static void removeMarks(Operation *root) {
  AttrTypeReplacer replacer;
  replacer.addReplacement([](FusedLoc fused) -> std::optional<Attribute> {
    if (failed(decodeMark(fused.getMetadata())) &&
        !isHideMark(fused.getMetadata()))
      return std::nullopt;
    return unwrap(fused);
  });
  replacer.recursivelyReplaceElementsIn(root, /*replaceAttrs=*/false,
                                        /*replaceLocs=*/true,
                                        /*replaceTypes=*/false);
}

/// `loc` without the access mark of mplan-tag-buffer-accesses at its top.
static Location stripMark(Location loc) {
  auto fused = dyn_cast<FusedLoc>(loc);
  if (!fused || failed(decodeMark(fused.getMetadata())))
    return loc;
  return unwrap(fused);
}

/// Whether `value` is the same in every iteration of `loop`: defined outside
/// it, or computed in it by pure ops from such values (a few levels deep).
static bool isLoopInvariant(Value value, LoopLikeOpInterface loop,
                            unsigned depth = 0) {
  if (loop.isDefinedOutsideOfLoop(value))
    return true;
  Operation *def = value.getDefiningOp();
  if (!def || depth >= 8 || def->getNumRegions() != 0 || !isPure(def))
    return false;
  return llvm::all_of(def->getOperands(), [&](Value operand) {
    return isLoopInvariant(operand, loop, depth + 1);
  });
}

/// How many elements the index `value` advances by per iteration of `loop`
/// (0 if it does not change), if that is a known constant.
static std::optional<int64_t> getIndexStep(Value value, scf::ForOp loop,
                                           unsigned depth = 0) {
  if (value == loop.getInductionVar()) {
    APInt step;
    if (!matchPattern(loop.getStep(), m_ConstantInt(&step)) ||
        step.getSignificantBits() > 32)
      return std::nullopt;
    return step.getSExtValue();
  }
  if (isLoopInvariant(value, loop))
    return 0;
  Operation *def = value.getDefiningOp();
  if (!def || depth >= 8)
    return std::nullopt;
  auto step = [&](Value operand) {
    return getIndexStep(operand, loop, depth + 1);
  };
  if (isa<arith::IndexCastOp, arith::IndexCastUIOp>(def))
    return step(def->getOperand(0));
  if (isa<arith::AddIOp, arith::SubIOp>(def)) {
    std::optional<int64_t> lhs = step(def->getOperand(0));
    std::optional<int64_t> rhs = step(def->getOperand(1));
    if (!lhs || !rhs)
      return std::nullopt;
    return isa<arith::AddIOp>(def) ? *lhs + *rhs : *lhs - *rhs;
  }
  if (isa<arith::MulIOp>(def)) {
    for (unsigned i = 0; i < 2; ++i) {
      APInt factor;
      if (!matchPattern(def->getOperand(i), m_ConstantInt(&factor)) ||
          factor.getSignificantBits() > 32)
        continue;
      std::optional<int64_t> other = step(def->getOperand(1 - i));
      if (!other)
        return std::nullopt;
      return *other * factor.getSExtValue();
    }
  }
  return std::nullopt;
}

/// The bytes a `memref.load` in the body of `loop` walks over in the whole
/// loop when it advances by at least a cache line per iteration (a strided
/// operand: a matmul's column, a conv's filter) and the loop has a constant
/// trip count, else 0.
static int64_t getStridedSpan(memref::LoadOp load, scf::ForOp loop) {
  constexpr int64_t kCacheLine = 64;
  MemRefType type = load.getMemRefType();
  SmallVector<int64_t> strides;
  int64_t offset;
  if (failed(type.getStridesAndOffset(strides, offset)) ||
      !type.getElementType().isIntOrFloat())
    return 0;
  int64_t step = 0;
  for (auto [index, stride] : llvm::zip(load.getIndices(), strides)) {
    std::optional<int64_t> indexStep = getIndexStep(index, loop);
    if (!indexStep)
      return 0;
    if (*indexStep == 0)
      continue;
    if (ShapedType::isDynamic(stride))
      return 0;
    step += *indexStep * stride;
  }
  int64_t bytes =
      std::abs(step) * std::max<int64_t>(1, type.getElementTypeBitWidth() / 8);
  if (bytes < kCacheLine)
    return 0;
  std::optional<APInt> trips = loop.getStaticTripCount();
  if (!trips || trips->getActiveBits() > 31)
    return 0;
  return bytes * trips->getZExtValue();
}

/// The loads and stores of scalar floating-point accumulators of loops whose
/// strided operand misses L1: a `memref.store` of a float directly in the
/// body of an `scf.for`, at a memref and indices that are the same in every
/// iteration, the `memref.load`s of the same memref at the same indices
/// before it in its block, and a load in that block that advances by at
/// least a cache line per iteration over more than `kL1Bytes` in the loop
/// (the reduction loops of `convert-linalg-to-loops`: a matmul's column of a
/// wide matrix, a conv's filter with many channels). Whether the register
/// accumulator is faster there depends on the machine (docs/design.md,
/// "Alias scopes"); stored every iteration, the loop is the unplanned one.
static llvm::DenseSet<Operation *> findFloatAccumulators(func::FuncOp func) {
  constexpr int64_t kL1Bytes = 32 * 1024;
  llvm::DenseSet<Operation *> found;
  func.walk([&](memref::StoreOp store) {
    auto loop = dyn_cast<scf::ForOp>(store->getParentOp());
    if (!loop || !isa<FloatType>(store.getValueToStore().getType()) ||
        !isLoopInvariant(store.getMemRef(), loop) ||
        !llvm::all_of(store.getIndices(), [&](Value index) {
          return isLoopInvariant(index, loop);
        }))
      return;
    SmallVector<Operation *> loads;
    bool strided = false;
    for (Operation &op : *store->getBlock()) {
      if (&op == store.getOperation())
        break;
      auto load = dyn_cast<memref::LoadOp>(op);
      if (!load)
        continue;
      if (load.getMemRef() == store.getMemRef() &&
          load.getIndices() == store.getIndices())
        loads.push_back(load);
      else if (getStridedSpan(load, loop) > kL1Bytes)
        strided = true;
    }
    if (loads.empty() || !strided)
      return;
    found.insert(loads.begin(), loads.end());
    found.insert(store);
  });
  return found;
}

static bool mayCarryScopes(Operation *op) {
  return isa<LLVM::LoadOp, LLVM::StoreOp, LLVM::MemcpyOp, LLVM::MemmoveOp,
             LLVM::MemsetOp, LLVM::AtomicRMWOp, LLVM::AtomicCmpXchgOp>(op);
}

/// The pointers an LLVM access that may carry scopes reads or writes through.
static SmallVector<Value, 2> getAccessedPointers(Operation *op) {
  return TypeSwitch<Operation *, SmallVector<Value, 2>>(op)
      .Case([](LLVM::LoadOp load) {
        return SmallVector<Value, 2>{load.getAddr()};
      })
      .Case([](LLVM::StoreOp store) {
        return SmallVector<Value, 2>{store.getAddr()};
      })
      .Case([](LLVM::MemcpyOp copy) {
        return SmallVector<Value, 2>{copy.getDst(), copy.getSrc()};
      })
      .Case([](LLVM::MemmoveOp move) {
        return SmallVector<Value, 2>{move.getDst(), move.getSrc()};
      })
      .Case([](LLVM::MemsetOp set) {
        return SmallVector<Value, 2>{set.getDst()};
      })
      .Case([](LLVM::AtomicRMWOp rmw) {
        return SmallVector<Value, 2>{rmw.getPtr()};
      })
      .Case([](LLVM::AtomicCmpXchgOp cmpxchg) {
        return SmallVector<Value, 2>{cmpxchg.getPtr()};
      })
      .Default([](Operation *) { return SmallVector<Value, 2>{}; });
}

/// The ranked memref whose (allocated or aligned) pointer `pointer` was
/// offset from, as the LLVM lowering of vector ops computes addresses while
/// memref ops are not yet lowered: `getelementptr`s of an `extractvalue`
/// [0] or [1] of the `unrealized_conversion_cast` of the memref to its
/// descriptor. Null for any other pointer.
static Value getMemRefOfPointer(Value pointer) {
  while (auto gep = pointer.getDefiningOp<LLVM::GEPOp>())
    pointer = gep.getBase();
  auto extract = pointer.getDefiningOp<LLVM::ExtractValueOp>();
  if (!extract || extract.getPosition().size() != 1 ||
      extract.getPosition().front() > 1)
    return {};
  auto cast =
      extract.getContainer().getDefiningOp<UnrealizedConversionCastOp>();
  if (!cast || cast.getNumOperands() != 1 || cast.getNumResults() != 1 ||
      !isa<MemRefType>(cast.getOperand(0).getType()))
    return {};
  return cast.getOperand(0);
}

struct MPlanTagBufferAccessesPass
    : public mlir::mplan::impl::MPlanTagBufferAccessesBase<
          MPlanTagBufferAccessesPass> {
  using Base::Base;

  /// Unmarked, an accumulator is still kept in a register when LLVM proves
  /// it apart from the loop's other operands by itself: an accumulator in a
  /// stack arena (an `alloca`) or a global arena (a global that never
  /// escapes) cannot be a function argument's memory. Marks the ops that
  /// make the arenas holding `accumulators` (allocations and every
  /// `memref.get_global` of an arena global) so that
  /// mplan-buffer-alias-scopes passes their pointer through an opaque copy,
  /// as the `ptrtoint`/`inttoptr` alignment of a heap arena already does.
  /// The scoped accesses keep every noalias fact through their scopes.
  void hideArenasOf(const llvm::DenseSet<Operation *> &accumulators,
                    PlaceFinder &finder) {
    llvm::SmallDenseSet<int64_t> hidden;
    for (Operation *op : accumulators) {
      Value memref = isa<memref::StoreOp>(op)
                         ? cast<memref::StoreOp>(op).getMemRef()
                         : cast<memref::LoadOp>(op).getMemRef();
      for (const Place &place : finder.get(memref).places)
        if (!place.isOutside())
          hidden.insert(place.arena);
    }
    if (hidden.empty())
      return;
    MLIRContext *ctx = &getContext();
    auto mark = DictionaryAttr::get(
        ctx,
        {NamedAttribute(StringAttr::get(ctx, kHideKey), UnitAttr::get(ctx))});
    for (Operation *op : finder.getArenaOps()) {
      const Places &found = finder.get(op->getResult(0));
      if (found.known && found.places.size() == 1 &&
          hidden.contains(found.places.front().arena))
        op->setLoc(FusedLoc::get(ctx, {op->getLoc()}, mark));
    }
  }

  void runOnOperation() override {
    func::FuncOp func = getOperation();
    if (refresh) {
      refreshMarks(func);
      return;
    }
    // Marks only this pass made reach mplan-buffer-alias-scopes.
    removeMarks(func);
    if (func.isExternal())
      return;
    PlaceFinder finder(func);
    if (!finder.hasArenas())
      return;
    // Scoped, LLVM keeps such an accumulator in a register for the whole
    // loop (LICM); when the loop's strided loads miss L1, whether that is
    // faster than storing it every iteration, as the unplanned program does,
    // depends on the machine (docs/design.md, "Alias scopes"), so it keeps
    // the unplanned program's loop. Unmarked accesses claim nothing.
    llvm::DenseSet<Operation *> accumulators;
    if (!scopeFloatAccumulators)
      accumulators = findFloatAccumulators(func);
    hideArenasOf(accumulators, finder);
    func.walk([&](Operation *op) {
      if (accumulators.contains(op))
        return;
      if (std::optional<SmallVector<Place>> places = getPlaces(op, finder))
        setMark(op, *places);
    });
  }

  /// The places `op` may access, from what its memory effects name (or, for
  /// an LLVM access lowered from a vector op, the memref its pointer was
  /// taken from); none when it accesses no memref or memory the analysis
  /// cannot name.
  static std::optional<SmallVector<Place>>
  getPlaces(Operation *op, const PlaceFinder &finder) {
    SmallVector<Value> memrefs;
    if (mayCarryScopes(op)) {
      for (Value pointer : getAccessedPointers(op)) {
        Value memref = getMemRefOfPointer(pointer);
        if (!memref)
          return std::nullopt;
        memrefs.push_back(memref);
      }
    } else if (auto effecting = dyn_cast<MemoryEffectOpInterface>(op)) {
      SmallVector<MemoryEffects::EffectInstance> effects;
      effecting.getEffects(effects);
      for (const MemoryEffects::EffectInstance &effect : effects) {
        if (!isa<MemoryEffects::Read, MemoryEffects::Write>(effect.getEffect()))
          continue;
        Value value = effect.getValue();
        if (!value || !isa<BaseMemRefType>(value.getType()))
          return std::nullopt; // An access to memory we cannot name.
        memrefs.push_back(value);
      }
    }
    SmallVector<Place> places;
    for (Value memref : memrefs) {
      const Places &found = finder.get(memref);
      if (!found.known)
        return std::nullopt;
      for (const Place &place : found.places)
        if (!llvm::is_contained(places, place))
          places.push_back(place);
    }
    if (places.empty())
      return std::nullopt;
    llvm::sort(places);
    return places;
  }

  /// Marks `op` with `places` (replacing a mark it has).
  void setMark(Operation *op, ArrayRef<Place> places) {
    MLIRContext *ctx = &getContext();
    SmallVector<Attribute> encoded;
    for (const Place &place : places)
      encoded.push_back(
          DenseI64ArrayAttr::get(ctx, {place.arena, place.begin, place.end}));
    auto tag = DictionaryAttr::get(
        ctx, {NamedAttribute(StringAttr::get(ctx, kAccessKey),
                             ArrayAttr::get(ctx, encoded))});
    op->setLoc(FusedLoc::get(ctx, {stripMark(op->getLoc())}, tag));
  }

  /// Recomputes the mark of every marked op of `func` from the IR as it is
  /// now, and removes the marks it can no longer derive.
  void refreshMarks(func::FuncOp func) {
    if (func.isExternal())
      return;
    PlaceFinder finder(func);
    func.walk([&](Operation *op) {
      if (failed(getMark(op->getLoc())))
        return;
      std::optional<SmallVector<Place>> places;
      if (finder.hasArenas())
        places = getPlaces(op, finder);
      if (places)
        setMark(op, *places);
      else
        op->setLoc(stripMark(op->getLoc()));
    });
  }
};

struct MPlanBufferAliasScopesPass
    : public mlir::mplan::impl::MPlanBufferAliasScopesBase<
          MPlanBufferAliasScopesPass> {
  using Base::Base;

  void runOnOperation() override {
    getOperation()->walk([&](LLVM::LLVMFuncOp func) {
      hideProvenance(func);
      annotate(func);
    });
    removeMarks(getOperation());
  }

  /// Passes the pointer of every arena that mplan-tag-buffer-accesses marked
  /// hidden (an `llvm.alloca`, `llvm.mlir.addressof` or allocation call
  /// lowered from it) through an empty inline assembly statement that
  /// returns its operand: the same address, but LLVM can no longer trace the
  /// accesses based on it to a stack slot or global that no argument points
  /// into.
  ///
  /// ```mlir
  /// %0 = llvm.alloca %c x i8 {alignment = 64 : i64} : (i64) -> !llvm.ptr
  /// // becomes
  /// %0 = llvm.alloca %c x i8 {alignment = 64 : i64} : (i64) -> !llvm.ptr
  /// %1 = llvm.inline_asm "", "=r,0" %0 : (!llvm.ptr) -> !llvm.ptr
  /// // and every other use of %0 uses %1
  /// ```
  void hideProvenance(LLVM::LLVMFuncOp func) {
    SmallVector<Operation *> arenas;
    func.walk([&](Operation *op) {
      auto fused = dyn_cast<FusedLoc>(op->getLoc());
      if (fused && isHideMark(fused.getMetadata()) &&
          isa<LLVM::AllocaOp, LLVM::AddressOfOp, LLVM::CallOp>(op) &&
          op->getNumResults() == 1 &&
          isa<LLVM::LLVMPointerType>(op->getResult(0).getType()))
        arenas.push_back(op);
    });
    for (Operation *op : arenas) {
      OpBuilder builder(op->getContext());
      builder.setInsertionPointAfter(op);
      Value pointer = op->getResult(0);
      auto copy = LLVM::InlineAsmOp::create(
          builder, op->getLoc(), pointer.getType(), ValueRange{pointer},
          /*asm_string=*/"", /*constraints=*/"=r,0",
          /*has_side_effects=*/false, /*is_align_stack=*/false,
          LLVM::tailcallkind::TailCallKind::None,
          /*asm_dialect=*/LLVM::AsmDialectAttr(),
          /*operand_attrs=*/ArrayAttr());
      pointer.replaceAllUsesExcept(copy.getResult(0), copy);
    }
  }

  void annotate(LLVM::LLVMFuncOp func) {
    // The marked accesses and their places, in program order.
    SmallVector<std::pair<LLVM::AliasAnalysisOpInterface, SmallVector<Place>>>
        accesses;
    llvm::MapVector<std::tuple<int64_t, int64_t, int64_t>, unsigned> index;
    SmallVector<Place> places;
    func.walk([&](LLVM::AliasAnalysisOpInterface op) {
      if (!mayCarryScopes(op) || op.getAliasScopesOrNull() ||
          op.getNoAliasScopesOrNull())
        return;
      FailureOr<SmallVector<Place>> mark = getMark(op->getLoc());
      if (failed(mark))
        return;
      for (const Place &place : *mark) {
        auto key = std::make_tuple(place.arena, place.begin, place.end);
        if (index.insert({key, places.size()}).second)
          places.push_back(place);
      }
      accesses.emplace_back(op, std::move(*mark));
    });
    if (accesses.empty())
      return;

    MLIRContext *ctx = func.getContext();
    auto domain = LLVM::AliasScopeDomainAttr::get(
        ctx,
        StringAttr::get(ctx, "mplan arena buffers of @" + func.getSymName()));
    SmallVector<LLVM::AliasScopeAttr> scopes;
    for (const Place &place : places) {
      std::string name =
          place.isOutside() ? std::string("outside the arenas")
                            : llvm::formatv("arena {0} bytes [{1}, {2})",
                                            place.arena, place.begin, place.end)
                                  .str();
      scopes.push_back(
          LLVM::AliasScopeAttr::get(domain, StringAttr::get(ctx, name)));
    }
    // The outside scope is listed first in every noalias list.
    SmallVector<unsigned> order;
    for (bool outside : {true, false})
      for (unsigned i = 0, e = places.size(); i < e; ++i)
        if (places[i].isOutside() == outside)
          order.push_back(i);

    // Accesses with the same places share their lists.
    std::map<SmallVector<Place>, std::pair<ArrayAttr, ArrayAttr>> lists;
    for (auto &[op, mark] : accesses) {
      auto [it, inserted] = lists.try_emplace(mark);
      if (inserted) {
        SmallVector<Attribute> own, disjoint;
        for (const Place &place : mark)
          own.push_back(scopes[index.lookup(
              std::make_tuple(place.arena, place.begin, place.end))]);
        for (unsigned i : order) {
          if (disjoint.size() >= maxNoAliasScopes)
            break;
          if (llvm::all_of(mark, [&](const Place &place) {
                return place.isDisjointFrom(places[i]);
              }))
            disjoint.push_back(scopes[i]);
        }
        it->second = {ArrayAttr::get(ctx, own),
                      disjoint.empty() ? ArrayAttr()
                                       : ArrayAttr::get(ctx, disjoint)};
      }
      op.setAliasScopes(it->second.first);
      if (it->second.second)
        op.setNoAliasScopes(it->second.second);
    }
  }
};
} // namespace
