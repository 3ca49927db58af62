//===- BufferLiveness.cpp - Live ranges and aliases of buffers ------------===//
//
// See the header for the model. Everything here is linear in the ops and uses
// it visits: the numbering is one pre-order walk, each root's alias closure is
// one forward walk over the uses of the values that may alias it, and its
// range and reason are one pass over those uses (plus, in multi-block
// regions, one reachability walk over the region's blocks).
//
//===----------------------------------------------------------------------===//

#include "mplan/Analysis/BufferLiveness.h"
#include "mplan/Analysis/PointsTo.h"
#include "mplan/Dialect/MPlan/IR/MPlanOps.h"

#include "mlir/Dialect/Bufferization/IR/Bufferization.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/Interfaces/CallInterfaces.h"
#include "mlir/Interfaces/ControlFlowInterfaces.h"
#include "mlir/Interfaces/DestinationStyleOpInterface.h"
#include "mlir/Interfaces/FunctionInterfaces.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/SetVector.h"
#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/ADT/StringSwitch.h"

#include <limits>

using namespace mlir;
using namespace mlir::mplan;

//===----------------------------------------------------------------------===//
// Helpers
//===----------------------------------------------------------------------===//

static bool isMemRef(Value value) {
  return isa<BaseMemRefType>(value.getType());
}

/// True if `op` declares an effect of kind `EffectTy` on `value`.
template <typename EffectTy>
static bool hasEffectOn(Operation *op, Value value) {
  auto iface = dyn_cast<MemoryEffectOpInterface>(op);
  if (!iface)
    return false;
  SmallVector<SideEffects::EffectInstance<MemoryEffects::Effect>> effects;
  iface.getEffectsOnValue(value, effects);
  return llvm::any_of(effects, [](const auto &effect) {
    return isa<EffectTy>(effect.getEffect());
  });
}

bool BufferLiveness::isAllocatedResult(Value value) {
  auto result = dyn_cast<OpResult>(value);
  return result &&
         hasEffectOn<MemoryEffects::Allocate>(result.getOwner(), value);
}

/// True for the ops whose results the analysis treats as roots.
static bool isRootOp(Operation *op) {
  return isa<memref::AllocOp, AllocTensorOp, AllocDynamicOp>(op);
}

bool BufferLiveness::isSequentialRegionOp(Operation *op) {
  return isa<FunctionOpInterface>(op) ||
         llvm::StringSwitch<bool>(op->getName().getStringRef())
             .Cases({"scf.for", "scf.while", "scf.if", "scf.index_switch",
                     "scf.execute_region", "affine.for", "affine.if",
                     "memref.alloca_scope"},
                    true)
             .Default(false);
}

/// Region ops whose region instances may run concurrently.
static bool isParallelRegionOp(Operation *op) {
  StringRef name = op->getName().getStringRef();
  return name == "scf.parallel" || name == "scf.forall" ||
         name == "affine.parallel" || name.starts_with("omp.") ||
         name.starts_with("acc.") || name.starts_with("gpu.");
}

/// Whether OpenACC op `op` has an `async` clause: a property whose name
/// starts with "async" that is set (`async`, `asyncOnly`,
/// `asyncOperandsDeviceType`, ...).
static bool hasAsyncClause(Operation *op) {
  auto properties =
      dyn_cast_if_present<DictionaryAttr>(op->getPropertiesAsAttribute());
  if (!properties)
    return false;
  return llvm::any_of(properties, [](NamedAttribute entry) {
    if (!entry.getName().strref().starts_with("async"))
      return false;
    if (auto array = dyn_cast<ArrayAttr>(entry.getValue()))
      return !array.empty();
    if (auto flag = dyn_cast<BoolAttr>(entry.getValue()))
      return flag.getValue();
    return static_cast<bool>(entry.getValue());
  });
}

/// Ops that may run, or whose regions may run, after the op itself returns:
/// the async dialect's, OpenMP tasks, OpenACC ops with an `async` clause
/// (until an `acc.wait`), and ops that return a
/// `!gpu.async.token` (an asynchronous gpu.launch, gpu.launch_func,
/// gpu.memcpy, ...: their work may run until the token is waited on; only
/// gpu ops make them).
static bool isDeferredOp(Operation *op) {
  StringRef name = op->getName().getStringRef();
  if (name.starts_with("async.") || name == "omp.task" ||
      name == "omp.taskloop")
    return true;
  if (name.starts_with("acc."))
    return hasAsyncClause(op);
  return name.starts_with("gpu.") &&
         llvm::any_of(op->getResultTypes(), [](Type type) {
           return type.getAbstractType().getName() == "gpu.async_token";
         });
}

static std::string opName(Operation *op) {
  return "'" + op->getName().getStringRef().str() + "'";
}

bool BufferLiveness::isDeallocUse(OpOperand &use) {
  Operation *user = use.getOwner();
  if (isa<memref::DeallocOp>(user))
    return true;
  if (auto dealloc = dyn_cast<bufferization::DeallocOp>(user))
    return use.getOperandNumber() <
           dealloc.getMemrefs().getBeginOperandIndex() +
               dealloc.getMemrefs().size();
  if (auto metadata = dyn_cast<memref::ExtractStridedMetadataOp>(user)) {
    for (Value result : metadata->getResults())
      if (result != metadata.getBaseBuffer() && !result.use_empty())
        return false;
    if (metadata.getBaseBuffer().use_empty())
      return false;
    for (OpOperand &baseUse : metadata.getBaseBuffer().getUses())
      if (!isDeallocUse(baseUse))
        return false;
    return true;
  }
  return false;
}

/// The op that frees the buffer of a deallocation use (isDeallocUse): the
/// user, or for an extract_strided_metadata feeding deallocations the first of
/// them.
static Operation *getDeallocatingOp(OpOperand &use) {
  auto metadata = dyn_cast<memref::ExtractStridedMetadataOp>(use.getOwner());
  if (!metadata)
    return use.getOwner();
  return getDeallocatingOp(*metadata.getBaseBuffer().getUses().begin());
}

bool BufferLiveness::isNoCaptureUse(OpOperand &use) {
  auto noCapture = use.getOwner()->getAttrOfType<DenseI64ArrayAttr>(
      BufferLiveness::kNoCaptureAttr);
  return noCapture && isa<CallOpInterface>(use.getOwner()) &&
         llvm::is_contained(noCapture.asArrayRef(),
                            int64_t(use.getOperandNumber()));
}

/// True if `value` designates exactly the bytes of `root` or a part of them:
/// it is `root` or obtained from it through ops with one memref operand.
static bool derivesOnlyFrom(Value value, Value root) {
  while (value != root) {
    Operation *def = value.getDefiningOp();
    if (!def)
      return false;
    Value source;
    for (Value operand : def->getOperands()) {
      if (!isMemRef(operand))
        continue;
      if (source)
        return false;
      source = operand;
    }
    if (!source)
      return false;
    value = source;
  }
  return true;
}

//===----------------------------------------------------------------------===//
// Construction and numbering
//===----------------------------------------------------------------------===//

BufferLiveness::BufferLiveness(Operation *funcOp) : funcOp(funcOp) {
  if (funcOp->getNumRegions() == 0)
    return;
  // One walk numbers the ops and finds the roots.
  SmallVector<Value> found;
  numberRegion(funcOp->getRegion(0), &found);
  for (Value root : found)
    addRoot(root);
  gaps.emplace();
}

void BufferLiveness::numberRegion(Region &region,
                                  SmallVectorImpl<Value> *found) {
  for (Block &block : region)
    for (Operation &op : block) {
      int64_t index = numIndices++;
      if (found && isRootOp(&op))
        found->push_back(op.getResult(0));
      for (Region &nested : op.getRegions())
        numberRegion(nested, found);
      indices[&op] = {static_cast<int32_t>(index),
                      static_cast<int32_t>(numIndices - 1)};
    }
}

int64_t BufferLiveness::getIndex(Operation *op) const {
  auto it = indices.find(op);
  if (it != indices.end())
    return it->second.first;
  if (!op || op == funcOp || !funcOp->isProperAncestor(op))
    return -1;
  for (Operation *next = op->getNextNode(); next; next = next->getNextNode()) {
    auto found = indices.find(next);
    if (found != indices.end())
      return found->second.first;
  }
  Operation *parent = op->getParentOp();
  if (parent == funcOp)
    return numIndices;
  return getSubtreeEnd(parent);
}

int64_t BufferLiveness::getSubtreeEnd(Operation *op) const {
  auto it = indices.find(op);
  if (it != indices.end())
    return it->second.second;
  return getIndex(op);
}

void BufferLiveness::numberOp(Operation *op, int64_t index) {
  auto packed = static_cast<int32_t>(index);
  op->walk([&](Operation *nested) { indices[nested] = {packed, packed}; });
}

//===----------------------------------------------------------------------===//
// Aliases
//===----------------------------------------------------------------------===//

/// Calls `fn` on every memref that `use`'s owner may make point where the
/// value of `use` does (the points-to analysis's flow step,
/// forEachPointerFlow), except results the op allocates: a new buffer (a
/// root, or a buffer the analysis does not track) is not an alias.
static void forEachAliasFlow(OpOperand &use, Operation *funcOp,
                             function_ref<void(Value)> fn) {
  forEachPointerFlow(use, funcOp, [&](Value flow) {
    if (isMemRef(flow) && !BufferLiveness::isAllocatedResult(flow))
      fn(flow);
  });
}

void BufferLiveness::computeClosure(Value value, Operation *funcOp,
                                    SmallVectorImpl<Value> &closure) {
  if (!isMemRef(value))
    return;
  llvm::SmallPtrSet<Value, 16> seen;
  SmallVector<Value> worklist;
  auto push = [&](Value alias) {
    if (seen.insert(alias).second) {
      worklist.push_back(alias);
      closure.push_back(alias);
    }
  };
  push(value);
  while (!worklist.empty()) {
    Value current = worklist.pop_back_val();
    for (OpOperand &use : current.getUses())
      forEachAliasFlow(use, funcOp, push);
  }
}

void BufferLiveness::addAlias(unsigned rootId, Value value) {
  SmallVector<Value, 1> &owners = rootsOf[value];
  Value root = roots[rootId].root;
  if (llvm::is_contained(owners, root))
    return;
  owners.push_back(root);
  roots[rootId].aliases.push_back(value);
}

ArrayRef<Value> BufferLiveness::getRootsOf(Value value) const {
  auto it = rootsOf.find(value);
  if (it == rootsOf.end())
    return {};
  return it->second;
}

Value BufferLiveness::getRoot(Value value) const {
  ArrayRef<Value> owners = getRootsOf(value);
  return owners.size() == 1 ? owners.front() : Value();
}

ArrayRef<Value> BufferLiveness::getAliases(Value root) const {
  auto it = rootIndex.find(root);
  if (it == rootIndex.end())
    return {};
  return roots[it->second].aliases;
}

void BufferLiveness::getAliases(Value buffer,
                                SmallVectorImpl<Value> &aliases) const {
  auto it = rootIndex.find(buffer);
  if (it != rootIndex.end()) {
    llvm::append_range(aliases, roots[it->second].aliases);
    return;
  }
  computeClosure(buffer, aliases);
}

SmallVector<Value> BufferLiveness::getRoots() const {
  SmallVector<Value> result;
  for (const RootInfo &info : roots)
    if (!info.erased)
      result.push_back(info.root);
  return result;
}

/// Whether `a` comes before `b` (a different op of the same function) in a
/// pre-order walk: an op before the ops nested in it, those before its next
/// sibling.
static bool isBeforeInPreOrder(Operation *a, Operation *b) {
  if (a->isProperAncestor(b))
    return true;
  if (b->isProperAncestor(a))
    return false;
  // The ancestors of each, outermost first, up to where they part.
  SmallVector<Operation *> chainA, chainB;
  for (Operation *op = a; op; op = op->getParentOp())
    chainA.push_back(op);
  for (Operation *op = b; op; op = op->getParentOp())
    chainB.push_back(op);
  while (chainA.size() > 1 && chainB.size() > 1 &&
         chainA.back() == chainB.back()) {
    chainA.pop_back();
    chainB.pop_back();
  }
  Operation *x = chainA.back(), *y = chainB.back();
  if (x->getBlock() == y->getBlock())
    return x->isBeforeInBlock(y);
  Region *rx = x->getParentRegion(), *ry = y->getParentRegion();
  if (rx != ry)
    return rx->getRegionNumber() < ry->getRegionNumber();
  for (Block &block : *rx) {
    if (&block == x->getBlock())
      return true;
    if (&block == y->getBlock())
      return false;
  }
  return false;
}

bool BufferLiveness::isBefore(Operation *a, Operation *b) const {
  if (a == b)
    return false;
  // Numbered ops have distinct indices; ops inserted since the numbering
  // share their next sibling's, and their places in the IR decide.
  int64_t i = getIndex(a), j = getIndex(b);
  return i != j ? i < j : isBeforeInPreOrder(a, b);
}

SmallVector<Value> BufferLiveness::getRootsInProgramOrder() const {
  // Each root's index, looked up once.
  SmallVector<std::pair<int64_t, Value>> keyed;
  keyed.reserve(roots.size());
  for (const RootInfo &info : roots)
    if (!info.erased) {
      Operation *def = info.root.getDefiningOp();
      keyed.emplace_back(def ? getIndex(def) : -1, info.root);
    }
  llvm::stable_sort(keyed, [&](const auto &x, const auto &y) {
    if (x.first != y.first)
      return x.first < y.first;
    Operation *a = x.second.getDefiningOp(), *b = y.second.getDefiningOp();
    return a && b && a != b && isBeforeInPreOrder(a, b);
  });
  return llvm::map_to_vector(keyed, [](const auto &x) { return x.second; });
}

//===----------------------------------------------------------------------===//
// Ranges
//===----------------------------------------------------------------------===//

std::optional<LiveRange> BufferLiveness::chargeUse(Region *region,
                                                   Operation *user) const {
  Operation *ancestor = region->findAncestorOpInRegion(*user);
  if (!ancestor)
    return std::nullopt;
  return LiveRange{getIndex(ancestor), getSubtreeEnd(ancestor) + 1};
}

/// The region a value is defined in.
static Region *getDefRegion(Value value) { return value.getParentRegion(); }

LiveRange BufferLiveness::computeRange(Value def, ArrayRef<Value> aliases,
                                       bool *deallocated, bool *used) const {
  Region *region = getDefRegion(def);
  Operation *defOp = def.getDefiningOp();
  int64_t defIndex = defOp ? getIndex(defOp)
                           : (def.getParentBlock()->empty()
                                  ? 0
                                  : getIndex(&def.getParentBlock()->front()));
  if (!region)
    return {defIndex, defIndex + 1};

  if (region->hasOneBlock()) {
    int64_t lo = std::numeric_limits<int64_t>::max();
    int64_t hi = std::numeric_limits<int64_t>::min();
    for (Value alias : aliases)
      for (OpOperand &use : alias.getUses()) {
        if (isDeallocUse(use)) {
          if (deallocated)
            *deallocated = true;
          continue;
        }
        std::optional<LiveRange> span = chargeUse(region, use.getOwner());
        if (!span)
          continue;
        lo = std::min(lo, span->start);
        hi = std::max(hi, span->end);
      }
    if (lo > hi)
      return {defIndex, defIndex + 1};
    if (used)
      *used = true;
    return {lo, hi};
  }

  // Multi-block region: the blocks on a path from the definition to a use
  // that does not pass through the definition again.
  Block *defBlock = def.getParentBlock();
  llvm::DenseMap<Block *, LiveRange> useSpans;
  for (Value alias : aliases)
    for (OpOperand &use : alias.getUses()) {
      if (isDeallocUse(use)) {
        if (deallocated)
          *deallocated = true;
        continue;
      }
      Operation *ancestor = region->findAncestorOpInRegion(*use.getOwner());
      if (!ancestor)
        continue;
      LiveRange span{getIndex(ancestor), getSubtreeEnd(ancestor) + 1};
      auto [it, inserted] = useSpans.try_emplace(ancestor->getBlock(), span);
      if (!inserted)
        it->second = it->second.merge(span);
    }
  if (useSpans.empty())
    return {defIndex, defIndex + 1};
  if (used)
    *used = true;

  // Backward from the uses, not through the definition: the blocks that reach
  // a use. A block on a path from the definition to one of them reaches that
  // use too, so the forward search from the definition stays inside this set:
  // both cost the size of the live region, not of the whole region (a region
  // of many blocks with back edges would otherwise make every buffer cost
  // every block).
  llvm::DenseSet<Block *> backward;
  SmallVector<Block *> worklist;
  for (auto &entry : useSpans)
    if (backward.insert(entry.first).second)
      worklist.push_back(entry.first);
  while (!worklist.empty()) {
    Block *block = worklist.pop_back_val();
    if (block == defBlock)
      continue;
    for (Block *predecessor : block->getPredecessors())
      if (backward.insert(predecessor).second)
        worklist.push_back(predecessor);
  }
  // Forward from the definition, inside `backward`: the live blocks.
  llvm::SetVector<Block *> live;
  for (Block *successor : defBlock->getSuccessors())
    if (successor != defBlock && backward.contains(successor) &&
        live.insert(successor))
      worklist.push_back(successor);
  while (!worklist.empty()) {
    Block *block = worklist.pop_back_val();
    for (Block *successor : block->getSuccessors())
      if (successor != defBlock && backward.contains(successor) &&
          live.insert(successor))
        worklist.push_back(successor);
  }
  auto isLive = [&](Block *block) { return live.contains(block); };
  auto liveOut = [&](Block *block) {
    return llvm::any_of(block->getSuccessors(), isLive);
  };

  int64_t lo = std::numeric_limits<int64_t>::max();
  int64_t hi = std::numeric_limits<int64_t>::min();
  auto include = [&](LiveRange span) {
    lo = std::min(lo, span.start);
    hi = std::max(hi, span.end);
  };
  auto visit = [&](Block &block) {
    if (block.empty())
      return;
    int64_t blockStart = getIndex(&block.front());
    int64_t blockEnd = getSubtreeEnd(&block.back()) + 1;
    auto useSpan = useSpans.find(&block);
    bool hasUse = useSpan != useSpans.end();
    if (&block == defBlock) {
      // From the first use in the block (or its terminator when the buffer
      // is only used in later blocks) to the end of the block or last use.
      int64_t first = hasUse ? useSpan->second.start : blockEnd - 1;
      if (liveOut(&block))
        include({first, blockEnd});
      else if (hasUse)
        include(useSpan->second);
      return;
    }
    if (liveOut(&block))
      include({blockStart, blockEnd});
    else if (hasUse)
      include({blockStart, useSpan->second.end});
  };
  visit(*defBlock);
  for (Block *block : live)
    visit(*block);
  if (lo > hi)
    return {defIndex, defIndex + 1};
  return {lo, hi};
}

//===----------------------------------------------------------------------===//
// Escapes and captures
//===----------------------------------------------------------------------===//

/// What `op` declares (MemoryEffectOpInterface) that a use of `value` by it
/// cares about, from one query of its effects: whether it writes a memref
/// whose elements are memrefs (other than `value`: a buffer written there is
/// stored to memory), and whether it frees `value`.
struct DeclaredEffects {
  bool writesMemRefElements = false;
  bool frees = false;
};
static DeclaredEffects
getDeclaredEffects(Operation *op, const OpKindCache::Kind &kind, Value value) {
  DeclaredEffects result;
  if (!kind.memoryEffects)
    return result;
  // A destination-style op (linalg, ...) reads its inputs and writes its
  // inits, and frees nothing: unless one of its operands holds memrefs, its
  // effects (costly to list for linalg ops, asked for every operand of every
  // op) say nothing here.
  if (kind.destinationStyle &&
      llvm::none_of(op->getOperandTypes(), [](Type type) {
        auto memref = dyn_cast<BaseMemRefType>(type);
        return memref && isa<BaseMemRefType>(memref.getElementType());
      }))
    return result;
  SmallVector<MemoryEffects::EffectInstance> effects;
  cast<MemoryEffectOpInterface>(op).getEffects(effects);
  for (const MemoryEffects::EffectInstance &e : effects) {
    Value on = e.getValue();
    if (on == value && isa<MemoryEffects::Free>(e.getEffect()))
      result.frees = true;
    if (!on || on == value || !isa<MemoryEffects::Write>(e.getEffect()))
      continue;
    auto type = dyn_cast<BaseMemRefType>(on.getType());
    result.writesMemRefElements |=
        type && isa<BaseMemRefType>(type.getElementType());
  }
  return result;
}

std::optional<std::string>
BufferLiveness::getHiddenAccessReason(OpOperand &use, Operation *funcOp,
                                      OpKindCache *kinds) {
  Operation *user = use.getOwner();
  auto kindOf = [&](Operation *op) {
    return kinds ? kinds->get(op) : OpKindCache::compute(op);
  };
  OpKindCache::Kind kind = kindOf(user);
  for (Operation *ancestor = user->getParentOp();
       ancestor && ancestor != funcOp; ancestor = ancestor->getParentOp())
    if (isDeferredOp(ancestor))
      return "used inside " + opName(ancestor) +
             ", whose region may run after it returns";
  if (isDeferredOp(user))
    return "passed to " + opName(user) + ", which may run after it returns";
  if (kind.call) {
    auto call = cast<CallOpInterface>(user);
    // The callee only uses the buffer while it runs (mplan-mark-calls).
    if (isNoCaptureUse(use))
      return std::nullopt;
    std::string reason = kPassedToCallReason.str();
    if (auto symbol =
            dyn_cast_if_present<SymbolRefAttr>(call.getCallableForCallee()))
      reason += " to " + symbol.getLeafReference().str();
    return reason;
  }
  if (auto store = dyn_cast<memref::StoreOp>(user))
    if (store.getValueToStore() == use.get())
      return std::string("stored to memory");
  DeclaredEffects effects = getDeclaredEffects(user, kind, use.get());
  if (effects.writesMemRefElements)
    return "may be stored to memory by " + opName(user);
  if (isa<memref::ExtractAlignedPointerAsIndexOp>(user))
    return "its address is taken by " + opName(user);
  if (isa<bufferization::DeallocOp>(user))
    return std::nullopt; // a retained value: only compared by address
  // A use that ends the buffer's storage other than a plain deallocation
  // (memref.realloc): the bytes may move or be freed under the plan.
  if (effects.frees && !isDeallocUse(use))
    return "freed or reallocated by " + opName(user);
  // Only the last op of a block can be its terminator (the trait is the
  // costlier question).
  Block *block = user->getBlock();
  if (block && user == &block->back() &&
      user->hasTrait<OpTrait::IsTerminator>()) {
    // Branches and the terminators of region ops that model their control
    // flow forward the buffer; the aliases they create are followed by the
    // closure. Any other terminator hands it to its parent op, which may
    // store it (`linalg.yield` into a memref of memrefs).
    Operation *parent = user->getParentOp();
    if (user->getNumSuccessors() != 0 || parent == funcOp ||
        (parent && kindOf(parent).regionBranch))
      return std::nullopt;
    return "yielded to " + opName(parent) + ", which may store it";
  }
  if (kind.regionBranch)
    return std::nullopt;
  if (!kind.memoryEffects &&
      !user->hasTrait<OpTrait::HasRecursiveMemoryEffects>())
    return "captured by " + opName(user) + ", whose memory effects are unknown";
  // A non-memref result computed from the buffer other than a scalar or a
  // vector may carry its address (a cast to an LLVM pointer, a tensor, ...).
  for (Value result : user->getResults()) {
    Type type = result.getType();
    if (isa<BaseMemRefType, VectorType, ComplexType>(type) ||
        type.isIntOrIndexOrFloat())
      continue;
    std::string text;
    llvm::raw_string_ostream os(text);
    os << "converted by " << opName(user) << " to " << type;
    return text;
  }
  return std::nullopt;
}

/// Why the use of a buffer by `use`'s owner keeps the buffer from being
/// planned, or std::nullopt if the use is understood.
std::optional<std::string>
BufferLiveness::getCaptureReason(OpOperand &use, Operation *funcOp,
                                 OpKindCache *kinds) {
  Operation *user = use.getOwner();
  if (user->getParentOp() == funcOp && user->hasTrait<OpTrait::ReturnLike>())
    return std::string("escapes via return");
  return BufferLiveness::getHiddenAccessReason(use, funcOp, kinds);
}

std::optional<std::string>
BufferLiveness::computeReason(Value def, ArrayRef<Value> aliases) const {
  Region *region = getDefRegion(def);
  Block *defBlock = def.getParentBlock();
  if (!region || !defBlock)
    return std::string("not defined in a block");
  Operation *defOp = def.getDefiningOp();
  if (!defOp)
    return std::string("function argument");
  if (isOptedOut(defOp))
    return kOptedOutReason.str();

  // Where the buffer is allocated.
  for (Operation *ancestor = defOp->getParentOp();
       ancestor && ancestor != funcOp; ancestor = ancestor->getParentOp()) {
    if (isParallelRegionOp(ancestor))
      return "allocated inside " + opName(ancestor) +
             ", whose iterations may run concurrently";
    if (isDeferredOp(ancestor))
      return "allocated inside " + opName(ancestor) +
             ", whose region may run after it returns";
    if (!isSequentialRegionOp(ancestor))
      return "allocated inside " + opName(ancestor) +
             ", whose region semantics the analysis does not model";
  }

  // Is the definition's block part of a CFG cycle in its region?
  std::optional<bool> inCycle;
  auto defBlockInCycle = [&] {
    if (inCycle)
      return *inCycle;
    llvm::SmallPtrSet<Block *, 16> seen;
    SmallVector<Block *> worklist(defBlock->getSuccessors().begin(),
                                  defBlock->getSuccessors().end());
    inCycle = false;
    while (!worklist.empty()) {
      Block *block = worklist.pop_back_val();
      if (block == defBlock) {
        inCycle = true;
        break;
      }
      if (seen.insert(block).second)
        llvm::append_range(worklist, block->getSuccessors());
    }
    return *inCycle;
  };

  std::optional<std::string> reason;
  for (Value alias : aliases) {
    // Aliases must stay inside the region the buffer is allocated in, and not
    // be carried from one iteration of it to the next.
    if (auto arg = dyn_cast<BlockArgument>(alias)) {
      Block *owner = arg.getOwner();
      if (owner == defBlock)
        return std::string("carried across loop iterations");
      if (!region->isAncestor(owner->getParent()))
        return std::string("carried out of the region it is allocated in");
      if (owner->getParent() == region && defBlockInCycle())
        return std::string("may live across a back edge of its block");
    } else if (Operation *aliasDef = alias.getDefiningOp()) {
      if (!region->isAncestor(aliasDef->getParentRegion()))
        return std::string("yielded out of the region it is allocated in");
    }
    for (OpOperand &use : alias.getUses()) {
      if (isDeallocUse(use)) {
        if (!derivesOnlyFrom(use.get(), def))
          return "deallocated by " + opName(getDeallocatingOp(use)) +
                 " through a value that may alias other buffers";
        continue;
      }
      if (!region->findAncestorOpInRegion(*use.getOwner()))
        return std::string("used outside the region it is allocated in");
      if (std::optional<std::string> found =
              getCaptureReason(use, funcOp, &kinds)) {
        if (*found == "escapes via return")
          return found;
        if (!reason)
          reason = std::move(found);
      }
    }
  }
  return reason;
}

std::optional<std::string>
BufferLiveness::getArgumentCaptureReason(BlockArgument arg) {
  Operation *funcOp = arg.getOwner()->getParentOp();
  SmallVector<Value> closure;
  computeClosure(arg, funcOp, closure);
  for (Value alias : closure)
    for (OpOperand &use : alias.getUses()) {
      if (isDeallocUse(use))
        return "deallocated by " + opName(getDeallocatingOp(use));
      if (std::optional<std::string> reason = getCaptureReason(use, funcOp))
        return reason;
    }
  return std::nullopt;
}

//===----------------------------------------------------------------------===//
// Roots
//===----------------------------------------------------------------------===//

void BufferLiveness::addRoot(Value root) {
  if (rootIndex.count(root))
    return;
  unsigned id = roots.size();
  roots.push_back(RootInfo{root, {}, {}, std::nullopt, false});
  rootIndex[root] = id;
  analyzeRoot(roots[id]);
}

void BufferLiveness::analyzeRoot(RootInfo &info) {
  unsigned id = rootIndex.lookup(info.root);
  for (Value alias : info.aliases) {
    auto it = rootsOf.find(alias);
    if (it == rootsOf.end())
      continue;
    llvm::erase(it->second, info.root);
    if (it->second.empty())
      rootsOf.erase(it);
  }
  info.aliases.clear();
  SmallVector<Value> closure;
  computeClosure(info.root, closure);
  for (Value alias : closure)
    addAlias(id, alias);
  RootInfo &fresh = roots[id];
  fresh.reason = computeReason(fresh.root, fresh.aliases);
  fresh.range = computeRange(fresh.root, fresh.aliases, &fresh.deallocated);
}

bool BufferLiveness::mayBeDeallocated(Value root) const {
  auto it = rootIndex.find(root);
  return it == rootIndex.end() || roots[it->second].deallocated;
}

void BufferLiveness::notifyDeallocsErased(Value root) {
  auto it = rootIndex.find(root);
  if (it != rootIndex.end())
    roots[it->second].deallocated = false;
}

LiveRange BufferLiveness::getLiveRange(Value root) const {
  auto it = rootIndex.find(root);
  if (it != rootIndex.end())
    return roots[it->second].range;
  SmallVector<Value> closure;
  computeClosure(root, closure);
  return computeRange(root, closure);
}

std::optional<std::string>
BufferLiveness::getUnplannableReason(Value root) const {
  auto it = rootIndex.find(root);
  if (it != rootIndex.end())
    return roots[it->second].reason;
  SmallVector<Value> closure;
  computeClosure(root, closure);
  return computeReason(root, closure);
}

//===----------------------------------------------------------------------===//
// In-place updates
//===----------------------------------------------------------------------===//

void BufferLiveness::markStaleIfMultiBlock(unsigned id) {
  Region *region = getDefRegion(roots[id].root);
  if (gaps && region && !region->hasOneBlock())
    markStale(id);
}

void BufferLiveness::markDeallocDependents(Value value) {
  while (auto metadata =
             value.getDefiningOp<memref::ExtractStridedMetadataOp>()) {
    for (Value owner : getRootsOf(metadata.getSource()))
      markStale(rootIndex.lookup(owner));
    value = metadata.getSource();
  }
}

bool BufferLiveness::shareIndexWithNext(Operation *op) {
  Operation *next = op->getNextNode();
  if (!gaps || !next || op->getNumRegions() != 0 || indices.count(op) ||
      !indices.count(next) || replacedBy.count(next) || replacing.count(next))
    return false;
  replacedBy[next] = op;
  replacing[op] = next;
  return true;
}

void BufferLiveness::notifyOpInserted(Operation *op) {
  // A new root's range is its uses' once it has some, not its definition's:
  // a fresh analysis would not count the definition (renumber walks).
  // Otherwise the op's uses and results widen ranges to their hull, which
  // is what a fresh analysis gives.
  if (isRootOp(op) || !shareIndexWithNext(op))
    invalidateGaps();
  numberOp(op, getIndex(op));
  if (isRootOp(op)) {
    addRoot(op->getResult(0));
    return;
  }
  // The op uses its memref operands (and its nested ops use theirs).
  op->walk([&](Operation *nested) {
    for (OpOperand &operand : nested->getOpOperands()) {
      markDeallocDependents(operand.get());
      ArrayRef<Value> owners = getRootsOf(operand.get());
      if (owners.empty())
        continue;
      SmallVector<Value, 2> ownerCopy(owners.begin(), owners.end());
      for (Value owner : ownerCopy) {
        unsigned id = rootIndex.lookup(owner);
        RootInfo &info = roots[id];
        Region *region = getDefRegion(owner);
        if (std::optional<LiveRange> span = chargeUse(region, nested))
          info.range = info.range.merge(*span);
        markStaleIfMultiBlock(id);
        if (!info.reason)
          if (std::optional<std::string> reason =
                  getCaptureReason(operand, funcOp, &kinds))
            info.reason = reason;
      }
    }
  });
  // What it makes of its operands (its views, casts, ...) aliases the
  // operands' roots.
  for (OpOperand &operand : op->getOpOperands()) {
    ArrayRef<Value> owners = getRootsOf(operand.get());
    if (owners.empty())
      continue;
    SmallVector<Value, 2> flows;
    forEachAliasFlow(operand, funcOp, [&](Value flow) {
      if (!llvm::is_contained(flows, flow))
        flows.push_back(flow);
    });
    // addAlias may grow the owner list `owners` points into: copy it.
    SmallVector<Value, 2> ownerCopy(owners.begin(), owners.end());
    for (Value flow : flows)
      extendRoots(ownerCopy, flow);
  }
}

void BufferLiveness::extendRoots(ArrayRef<Value> owners, Value value) {
  SmallVector<Value> closure;
  computeClosure(value, closure);
  for (Value owner : owners) {
    unsigned id = rootIndex.lookup(owner);
    for (Value alias : closure)
      addAlias(id, alias);
    RootInfo &info = roots[id];
    // Only uses widen the range: without any, computeRange gives the
    // definition's index, which a fresh analysis of the uses would not count.
    bool used = false;
    LiveRange range = computeRange(owner, closure, &info.deallocated, &used);
    if (used)
      info.range = info.range.merge(range);
    markStaleIfMultiBlock(id);
    if (!info.reason)
      info.reason = computeReason(owner, closure);
  }
}

void BufferLiveness::notifyReplaced(Value from, Value to) {
  if (from == to)
    return;
  // `to`'s roots gain `from`'s uses: their ranges widen to the hull, as a
  // fresh analysis gives them (the numbering stays exact up to gaps). The
  // roots of `from` that are not `to`'s lose those uses.
  ArrayRef<Value> owners = getRootsOf(to);
  // Alias sets are closed under the forward closure: if `from` is an alias
  // of every root of `to` already (a view replaced by another view of the
  // same buffer), they cover its closure, its uses and its reasons.
  markDeallocDependents(from);
  markDeallocDependents(to);
  ArrayRef<Value> fromOwners = getRootsOf(from);
  for (Value owner : fromOwners)
    if (!llvm::is_contained(owners, owner))
      markStale(rootIndex.lookup(owner));
  if (owners.empty() || llvm::all_of(owners, [&](Value owner) {
        return llvm::is_contained(fromOwners, owner);
      }))
    return;
  // addAlias may grow the owner lists `owners` points into: copy them.
  SmallVector<Value, 2> ownerCopy(owners.begin(), owners.end());
  extendRoots(ownerCopy, from);
}

void BufferLiveness::notifyRootReplaced(Value from, Value to) {
  auto it = rootIndex.find(from);
  if (from == to || it == rootIndex.end() || rootIndex.count(to)) {
    invalidateGaps();
    if (Operation *toOp = to.getDefiningOp())
      notifyOpInserted(toOp);
    return;
  }
  unsigned id = it->second;
  rootIndex.erase(it);
  rootIndex[to] = id;
  // `to` takes over `from`'s uses and range; right before `from`'s op, it
  // takes its index too (the numbering stays exact up to gaps).
  Operation *toOp = to.getDefiningOp();
  if (!toOp || toOp->getNextNode() != from.getDefiningOp() ||
      !shareIndexWithNext(toOp))
    invalidateGaps();
  if (toOp)
    numberOp(toOp, getIndex(toOp));
  RootInfo &info = roots[id];
  info.root = to;
  for (Value &alias : info.aliases) {
    auto owners = rootsOf.find(alias);
    if (owners != rootsOf.end())
      for (Value &owner : owners->second)
        if (owner == from)
          owner = to;
    if (alias == from) {
      // `from` now has no uses; `to` aliases in its place.
      SmallVector<Value, 1> moved = std::move(rootsOf[from]);
      rootsOf.erase(from);
      rootsOf[to] = std::move(moved);
      alias = to;
    }
  }
}

void BufferLiveness::notifyOpErased(Operation *op) {
  // The numbering stays exact up to the erased indices (an op replaced by
  // the op inserted before it leaves no gap: that op has its index). An
  // erased use at an end of a range may have been what made it: that range
  // is recomputed by renumber.
  if (gaps) {
    WalkResult walked = op->walk([&](Operation *nested) {
      auto it = indices.find(nested);
      if (it == indices.end())
        return WalkResult::interrupt();
      for (Value operand : nested->getOperands()) {
        markDeallocDependents(operand);
        for (Value owner : getRootsOf(operand)) {
          unsigned id = rootIndex.lookup(owner);
          Region *region = getDefRegion(owner);
          std::optional<LiveRange> span = chargeUse(region, nested);
          if (!span || !region->hasOneBlock() ||
              span->start <= roots[id].range.start ||
              span->end >= roots[id].range.end)
            markStale(id);
        }
      }
      if (auto other = replacedBy.find(nested); other != replacedBy.end()) {
        replacing.erase(other->second);
        replacedBy.erase(other);
      } else if (auto other = replacing.find(nested);
                 other != replacing.end()) {
        replacedBy.erase(other->second);
        replacing.erase(other);
      } else {
        gaps->push_back(it->second.first);
      }
      return WalkResult::advance();
    });
    if (walked.wasInterrupted())
      invalidateGaps();
  }
  auto forget = [&](Value value) {
    auto root = rootIndex.find(value);
    if (root != rootIndex.end()) {
      RootInfo &info = roots[root->second];
      for (Value alias : info.aliases) {
        auto it = rootsOf.find(alias);
        if (it == rootsOf.end())
          continue;
        llvm::erase(it->second, value);
        if (it->second.empty())
          rootsOf.erase(it);
      }
      info.aliases.clear();
      info.erased = true;
      rootIndex.erase(root);
    }
    auto it = rootsOf.find(value);
    if (it == rootsOf.end())
      return;
    for (Value owner : it->second) {
      auto ownerIt = rootIndex.find(owner);
      if (ownerIt != rootIndex.end())
        llvm::erase(roots[ownerIt->second].aliases, value);
    }
    rootsOf.erase(it);
  };
  op->walk([&](Operation *nested) {
    for (Value result : nested->getResults())
      forget(result);
    for (Region &region : nested->getRegions())
      for (Block &block : region)
        for (BlockArgument arg : block.getArguments())
          forget(arg);
    indices.erase(nested);
  });
}

void BufferLiveness::notifyOpMoved(Operation *op) {
  invalidateGaps();
  op->walk([&](Operation *nested) { indices.erase(nested); });
  int64_t index = getIndex(op);
  numberOp(op, index);
  op->walk([&](Operation *nested) {
    for (Value operand : nested->getOperands())
      for (Value owner : getRootsOf(operand)) {
        RootInfo &info = roots[rootIndex.lookup(owner)];
        if (std::optional<LiveRange> span =
                chargeUse(getDefRegion(owner), nested))
          info.range = info.range.merge(*span);
      }
  });
}

void BufferLiveness::extendLiveRange(Value root, LiveRange range) {
  invalidateGaps();
  auto it = rootIndex.find(root);
  if (it != rootIndex.end())
    roots[it->second].range = roots[it->second].range.merge(range);
}

void BufferLiveness::mergeInto(Value from, Value into) {
  auto fromIt = rootIndex.find(from);
  auto intoIt = rootIndex.find(into);
  if (fromIt == rootIndex.end() || intoIt == rootIndex.end() ||
      fromIt->second == intoIt->second)
    return;
  unsigned intoId = intoIt->second;
  SmallVector<Value> fromAliases(roots[fromIt->second].aliases.begin(),
                                 roots[fromIt->second].aliases.end());
  LiveRange fromRange = roots[fromIt->second].range;
  for (Value alias : fromAliases)
    addAlias(intoId, alias);
  roots[intoId].range = roots[intoId].range.merge(fromRange);
  // The hull is exact only of exact ranges in one block.
  if (roots[fromIt->second].stale)
    markStale(intoId);
  markStaleIfMultiBlock(intoId);
  roots[intoId].deallocated |= roots[fromIt->second].deallocated;
  if (!roots[intoId].reason)
    roots[intoId].reason = roots[fromIt->second].reason;
}

void BufferLiveness::renumber() {
  // An inserted op still sharing an index with the op it was to replace
  // leaves two ops with one index: number afresh.
  if (gaps && (!replacedBy.empty() || llvm::any_of(*gaps, [&](int64_t index) {
        return index < 0 || index >= numIndices;
      })))
    invalidateGaps();
  if (gaps) {
    // Every op keeps its place in pre-order; the ops before it that were
    // erased no longer count. closed[i]: the erased indices up to i.
    std::vector<int64_t> closed(static_cast<size_t>(numIndices) + 1, 0);
    for (int64_t index : *gaps)
      ++closed[index];
    for (size_t i = 1; i < closed.size(); ++i)
      closed[i] += closed[i - 1];
    auto closedUpTo = [&](int64_t index) {
      return index < 0 ? 0 : closed[std::min<size_t>(index, closed.size() - 1)];
    };
    for (auto &entry : indices) {
      auto &[index, subtreeEnd] = entry.second;
      index -= closedUpTo(index);
      subtreeEnd -= closedUpTo(subtreeEnd);
    }
    // A range starts at an op or at the first op of a block, which may be
    // one of those erased (the next op takes its index), and ends one past
    // the subtree of its last op.
    for (RootInfo &info : roots)
      if (!info.erased) {
        info.range.start -= closedUpTo(info.range.start - 1);
        info.range.end -= closedUpTo(info.range.end - 1);
      }
    numIndices -= static_cast<int64_t>(gaps->size());
    gaps->clear();
    // The ranges an update may have left other than exact, from the uses.
    for (unsigned id : staleRoots) {
      RootInfo &info = roots[id];
      info.stale = false;
      if (!info.erased)
        info.range = computeRange(info.root, info.aliases, &info.deallocated);
    }
    staleRoots.clear();
    return;
  }
  indices.clear();
  numIndices = 0;
  if (funcOp->getNumRegions() != 0)
    numberRegion(funcOp->getRegion(0));
  for (RootInfo &info : roots)
    if (!info.erased)
      info.range = computeRange(info.root, info.aliases, &info.deallocated);
  invalidateGaps();
  gaps.emplace();
}

void BufferLiveness::recomputeLiveRange(Value root) {
  invalidateGaps();
  auto it = rootIndex.find(root);
  if (it != rootIndex.end())
    analyzeRoot(roots[it->second]);
}
