//===- Instrument.cpp - Calls into the mplan memory observer --------------===//
//
// Inserts calls into libmplan_runtime.so (runtime/mplan_runtime.h): function
// entry/exit, every allocation and free, every arena and every planned buffer
// region from its definition to its death.
//
// Allocations and frees are found through MemoryEffectOpInterface, not by op
// name: a ranked memref result an op declares an Allocate effect on is a new
// buffer (on the stack for the automatic-allocation-scope resource, on the
// heap otherwise: memref.alloc with or without alignment, memref.alloca,
// bufferization.clone, the result of memref.realloc, ...), and a ranked
// memref operand it declares a Free effect on is freed before the op runs
// (memref.dealloc, the operand of memref.realloc, ...). An op without the
// interface allocates and frees nothing the observer can name. Upstream's
// `bufferization.dealloc` declares no effects and frees conditionally, so it
// is lowered first, as `mplan-to-llvm` would lower it (upstream's
// bufferization-lower-deallocations): the observer then sees the
// memref.dealloc ops that actually run. A free is checked (an error at run
// time when its pointer is not a live heap buffer) only when every buffer its
// operand may hold was allocated in sight: by an allocation recorded here, by
// a caller, or by a callee defined in the module. A buffer that may come from
// elsewhere (an external function, an op with unknown effects) is freed
// without the check (`mplan_rt_free_untracked`).
//
// Planned buffers are the `memref.view` ops `convert-mplan-to-memref` tagged
// with `mplan.buffer_id`. Their life is recomputed here from the IR,
// independently of the live range the planner recorded, so that a plan that
// is wrong for the program actually run is caught at run time. A buffer's
// aliases are the values derived from its view: results of view-like ops and
// casts, the successor arguments, region arguments and region results it
// flows into, and the results of a call to a function of the module that
// returns it (a clone the callee returns is a new buffer). Its region begins
// where the plan's live range begins, at its first use after the view, never
// earlier: an earlier begin makes the overlap check report buffers the plan
// rightly shares bytes between (allocations hoisted to the top of a function,
// as One-Shot Bufferize may leave them, did: a view sits where its allocation
// was). Its region ends where the buffer is dead, never later: a later end
// makes the overlap check report buffers that are never live at the same time
// (a buffer read in both branches of a cf.cond_br, kept live until the
// function returned, did). Liveness is static (a buffer is live at a point
// when a path from there reaches a use of an alias), taken in the innermost
// region that holds every use of an alias and does not carry the buffer
// around its parent op (a loop-carried buffer lives across the loop); the op
// of that region holding the view, or a use, stands for it:
// - in a single block without successors, the region begins before the first
//   use and ends after the last use (a buffer nobody uses begins and ends
//   after its view; one whose view is nested in the op that uses it, after
//   the view);
// - in a CFG, with upstream's Liveness (the buffer is live where an alias is),
//   it begins before the first use after the view in the view's block (or
//   before its terminator when the first use is in a later block), and
//   it ends after the last use in each block the buffer does not leave alive,
//   and on each edge along which it dies: at the start of the successor when
//   it is dead along every edge into it, else in a block inserted on the edge.
// A correct plan never gives the same bytes to two buffers live at one point,
// so it is never reported; a plan that does is reported at the second
// buffer's definition on every run that reaches it, whichever path the run
// takes afterwards. Where the arena value does not dominate an end, the end
// names the buffer by id only.
//
// A buffer planned at the upper bound of its dynamic sizes is used through a
// `memref.reinterpret_cast` of its view that capture tags with `mplan.bound`
// (the bounds' text): before it, a check per dynamic size against the
// source's static size at that dimension (the bound) stops the run with an
// error naming the buffer, the size, the bound and its source, before any
// byte past the buffer's slot is written.
//
//===----------------------------------------------------------------------===//

#include "mplan/Transforms/OptionErrors.h"
#include "mplan/Transforms/Passes.h"
#include "mplan/Transforms/PlanBuffers.h"

#include "mplan/Dialect/MPlan/IR/MPlanOps.h"

#include "mlir/Analysis/Liveness.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Bufferization/IR/Bufferization.h"
#include "mlir/Dialect/Bufferization/Transforms/Passes.h"
#include "mlir/Dialect/ControlFlow/IR/ControlFlowOps.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/Dominance.h"
#include "mlir/IR/SymbolTable.h"
#include "mlir/Interfaces/CallInterfaces.h"
#include "mlir/Interfaces/ControlFlowInterfaces.h"
#include "mlir/Interfaces/FunctionInterfaces.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "mlir/Interfaces/ViewLikeInterface.h"
#include "mlir/Pass/PassManager.h"
#include "llvm/ADT/SetVector.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/Support/Path.h"

#include <optional>

namespace mlir {
namespace mplan {
#define GEN_PASS_DEF_MPLANINSTRUMENT
#include "mplan/Transforms/Passes.h.inc"
} // namespace mplan
} // namespace mlir

using namespace mlir;
using namespace mlir::mplan;

namespace {
/// Allocation kinds, as in runtime/mplan_runtime.h.
enum RtKind : int64_t { Heap = 0, Stack = 1, Static = 2, Argument = 3 };

constexpr llvm::StringLiteral kArenaAttr = "mplan.arena";
constexpr llvm::StringLiteral kBufferIdAttr = "mplan.buffer_id";
constexpr llvm::StringLiteral kLiveAttr = "mplan.live";
/// On the view of a buffer planned at its upper bound (set by capture).
constexpr llvm::StringLiteral kBoundAttr = "mplan.bound";
constexpr llvm::StringLiteral kStringTable = "__mplan_rt_strings";

/// The NUL-terminated strings the instrumented code passes to the runtime,
/// laid out in one constant global.
class StringTable {
public:
  int64_t get(StringRef s) {
    auto [it, inserted] = offsets.try_emplace(s, bytes.size());
    if (inserted) {
      bytes.append(s.begin(), s.end());
      bytes.push_back('\0');
    }
    return it->second;
  }
  ArrayRef<char> getBytes() const { return bytes; }

private:
  llvm::StringMap<int64_t> offsets;
  SmallVector<char> bytes;
};

struct MPlanInstrumentPass
    : public mlir::mplan::impl::MPlanInstrumentBase<MPlanInstrumentPass> {
  using Base::Base;
  void runOnOperation() override;
};
} // namespace

/// A memory space as the observer names it: "default", or as the plan
/// report prints it (an integer, or the attribute as printed).
static std::string formatSpace(Attribute space) {
  return space ? formatMemorySpace(space) : "default";
}

/// `file:line:col` (file without directories) for a location, or its printed
/// form.
static std::string describeLoc(Location loc) {
  if (auto file = dyn_cast<FileLineColLoc>(loc))
    return (llvm::sys::path::filename(file.getFilename().getValue()) + ":" +
            Twine(file.getLine()) + ":" + Twine(file.getColumn()))
        .str();
  if (auto name = dyn_cast<NameLoc>(loc))
    return (name.getName().getValue() + "@" + describeLoc(name.getChildLoc()))
        .str();
  if (auto callSite = dyn_cast<CallSiteLoc>(loc))
    return describeLoc(callSite.getCallee());
  if (auto fused = dyn_cast<FusedLoc>(loc))
    if (!fused.getLocations().empty())
      return describeLoc(fused.getLocations().front());
  std::string s;
  llvm::raw_string_ostream os(s);
  loc.print(os);
  return s;
}

static std::string siteName(Operation *op) {
  return describeLoc(op->getLoc()) + " " + op->getName().getStringRef().str();
}

/// The byte size of one element of `type` as the LLVM lowering lays it out
/// (a memref element is a descriptor of 64-bit pointers and indices), or 0
/// when it has no fixed size.
static int64_t elementBytes(Type type) {
  if (auto memref = dyn_cast<MemRefType>(type))
    return (3 + 2 * memref.getRank()) * 8;
  if (isa<UnrankedMemRefType>(type))
    return 16;
  FailureOr<int64_t> size = getElementByteSize(type);
  return succeeded(size) ? *size : 0;
}

/// The byte size of `value` (a memref of identity layout): static or computed
/// with memref.dim.
static Value buildByteSize(OpBuilder &b, Location loc, Value value) {
  auto type = cast<MemRefType>(value.getType());
  int64_t elementSize = elementBytes(type.getElementType());
  int64_t staticProduct = elementSize;
  for (int64_t dim : type.getShape())
    if (!ShapedType::isDynamic(dim))
      staticProduct *= dim;
  Value size = arith::ConstantIndexOp::create(b, loc, staticProduct);
  for (auto [i, dim] : llvm::enumerate(type.getShape())) {
    if (!ShapedType::isDynamic(dim))
      continue;
    Value d = memref::DimOp::create(b, loc, value, i);
    size = arith::MulIOp::create(b, loc, size, d);
  }
  return size;
}

/// The buffers an op creates and frees, from its memory effects: ranked
/// memref results with an Allocate effect (and their kinds), ranked memref
/// operands with a Free effect.
struct Allocations {
  SmallVector<std::pair<Value, RtKind>> allocated;
  SmallVector<Value> freed;
};

static Allocations getAllocations(Operation *op) {
  Allocations result;
  auto effectOp = dyn_cast<MemoryEffectOpInterface>(op);
  if (!effectOp)
    return result;
  SmallVector<MemoryEffects::EffectInstance> effects;
  effectOp.getEffects(effects);
  for (const MemoryEffects::EffectInstance &effect : effects) {
    Value value = effect.getValue();
    if (!value || !isa<MemRefType>(value.getType()))
      continue;
    bool isResult = value.getDefiningOp() == op;
    if (isa<MemoryEffects::Allocate>(effect.getEffect()) && isResult &&
        llvm::none_of(result.allocated,
                      [&](auto &entry) { return entry.first == value; })) {
      RtKind kind = isa<SideEffects::AutomaticAllocationScopeResource>(
                        effect.getResource())
                        ? Stack
                        : Heap;
      result.allocated.push_back({value, kind});
    }
    if (isa<MemoryEffects::Free>(effect.getEffect()) && !isResult &&
        !llvm::is_contained(result.freed, value))
      result.freed.push_back(value);
  }
  return result;
}

static bool isAllocatedBy(Operation *op, Value value) {
  return llvm::any_of(getAllocations(op).allocated,
                      [&](auto &entry) { return entry.first == value; });
}

/// Whether every buffer `value` may hold was allocated where the observer
/// records it: by an allocation in an instrumented function, by a caller (a
/// function argument) or by a callee defined in the module. A buffer that may
/// come from an external function or an op with unknown effects may have been
/// allocated out of sight.
static bool hasObservedOrigin(Value value, SymbolTableCollection &symbols) {
  SmallVector<Value> worklist{value};
  DenseSet<Value> seen;
  auto pushMemRefs = [&](ValueRange values) {
    for (Value v : values)
      if (isa<BaseMemRefType>(v.getType()))
        worklist.push_back(v);
  };
  // What an op with regions passes to its region arguments and results: its
  // operands or what its regions yield.
  auto pushRegionInputs = [&](Operation *op) {
    pushMemRefs(op->getOperands());
    for (Region &region : op->getRegions())
      for (Block &b : region)
        if (b.mightHaveTerminator())
          pushMemRefs(b.getTerminator()->getOperands());
  };
  while (!worklist.empty()) {
    Value v = worklist.pop_back_val();
    if (!seen.insert(v).second)
      continue;
    if (auto arg = dyn_cast<BlockArgument>(v)) {
      Block *block = arg.getOwner();
      Operation *parent = block->getParentOp();
      if (block->isEntryBlock()) {
        if (isa<FunctionOpInterface>(parent))
          continue;
        pushRegionInputs(parent);
        continue;
      }
      for (BlockOperand &edge : block->getUses()) {
        auto branch = dyn_cast<BranchOpInterface>(edge.getOwner());
        if (!branch)
          return false;
        Value incoming = branch.getSuccessorOperands(
            edge.getOperandNumber())[arg.getArgNumber()];
        if (!incoming)
          return false;
        worklist.push_back(incoming);
      }
      continue;
    }
    Operation *op = v.getDefiningOp();
    if (isAllocatedBy(op, v))
      continue;
    if (auto call = dyn_cast<CallOpInterface>(op)) {
      auto callee = dyn_cast_or_null<FunctionOpInterface>(
          call.resolveCallableInTable(&symbols));
      if (!callee || callee.isExternal())
        return false;
      continue;
    }
    if (auto view = dyn_cast<ViewLikeOpInterface>(op)) {
      worklist.push_back(view.getViewSource());
      continue;
    }
    if (op->getNumRegions() != 0) {
      pushRegionInputs(op);
      continue;
    }
    if (!isMemoryEffectFree(op))
      return false;
    pushMemRefs(op->getOperands()); // casts, selects
  }
  return true;
}

namespace {
/// Which results of a function of the module may alias each of its
/// arguments (the arguments' forward aliases it returns), computed on
/// demand, so that a call's results alias what its callee returns of them
/// only (a clone or a new buffer does not).
class CalleeAliases {
public:
  /// The results of `call` that may alias its argument operand `index`: all
  /// of them for a callee outside the module or on a cycle of calls.
  SmallVector<Value> getAliasingResults(CallOpInterface call, unsigned index);

private:
  /// Per argument, the aliasing results; empty while being computed.
  DenseMap<Operation *, SmallVector<llvm::BitVector>> summaries;
  SymbolTableCollection symbols;
};
} // namespace

static void forwardAliases(Value value, llvm::SetVector<Value> &aliases,
                           CalleeAliases &callees);

SmallVector<Value> CalleeAliases::getAliasingResults(CallOpInterface call,
                                                     unsigned index) {
  SmallVector<Value> all(call->getResults());
  auto callee = dyn_cast_or_null<FunctionOpInterface>(
      call.resolveCallableInTable(&symbols));
  if (!callee || callee.isExternal() || index >= callee.getNumArguments() ||
      callee.getNumResults() != call->getNumResults())
    return all;
  if (!summaries.count(callee)) {
    summaries[callee]; // in progress
    SmallVector<llvm::BitVector> summary;
    for (BlockArgument arg : callee.getArguments()) {
      llvm::BitVector returned(callee.getNumResults());
      llvm::SetVector<Value> aliases;
      if (isa<BaseMemRefType>(arg.getType()))
        forwardAliases(arg, aliases, *this);
      for (Value alias : aliases)
        for (OpOperand &use : alias.getUses())
          if (use.getOwner()->hasTrait<OpTrait::ReturnLike>() &&
              use.getOwner()->getParentOp() == callee)
            returned.set(use.getOperandNumber());
      summary.push_back(std::move(returned));
    }
    summaries[callee] = std::move(summary);
  }
  const SmallVector<llvm::BitVector> &summary = summaries[callee];
  if (summary.empty())
    return all;
  SmallVector<Value> results;
  for (unsigned i : summary[index].set_bits())
    results.push_back(call->getResult(i));
  return results;
}

/// `value` and every memref value derived from it that may alias it.
static void forwardAliases(Value value, llvm::SetVector<Value> &aliases,
                           CalleeAliases &callees) {
  SmallVector<Value> worklist{value};
  aliases.insert(value);
  auto add = [&](Value v) {
    if (isa<BaseMemRefType>(v.getType()) && aliases.insert(v))
      worklist.push_back(v);
  };
  while (!worklist.empty()) {
    Value v = worklist.pop_back_val();
    for (OpOperand &use : v.getUses()) {
      Operation *user = use.getOwner();
      // Terminators forward the value to successor arguments, to region
      // arguments and to region results.
      if (user->hasTrait<OpTrait::IsTerminator>()) {
        if (auto branch = dyn_cast<BranchOpInterface>(user)) {
          for (auto [i, succ] : llvm::enumerate(user->getSuccessors())) {
            SuccessorOperands operands = branch.getSuccessorOperands(i);
            for (unsigned j = 0, e = operands.size(); j < e; ++j)
              if (operands[j] == v)
                add(succ->getArgument(j));
          }
        } else {
          for (Block *succ : user->getSuccessors())
            for (BlockArgument arg : succ->getArguments())
              add(arg);
        }
        if (user->getNumSuccessors() != 0 ||
            isa<FunctionOpInterface>(user->getParentOp()))
          continue;
        if (auto terminator =
                dyn_cast<RegionBranchTerminatorOpInterface>(user)) {
          SmallVector<Attribute> constants(user->getNumOperands());
          SmallVector<RegionSuccessor> successors;
          terminator.getSuccessorRegions(constants, successors);
          for (RegionSuccessor &successor : successors)
            for (auto [operand, input] :
                 llvm::zip(terminator.getSuccessorOperands(successor),
                           successor.getSuccessorInputs()))
              if (operand == v)
                add(input);
          continue;
        }
        Operation *parent = user->getParentOp();
        for (Value r : parent->getResults())
          add(r);
        for (Region &region : parent->getRegions())
          if (!region.empty())
            for (BlockArgument arg : region.front().getArguments())
              add(arg);
        continue;
      }
      // Ops with regions may forward operands to block arguments.
      for (Region &region : user->getRegions())
        for (Block &block : region)
          for (BlockArgument arg : block.getArguments())
            add(arg);
      if (auto call = dyn_cast<CallOpInterface>(user)) {
        unsigned index = use.getOperandNumber() -
                         call.getArgOperands().getBeginOperandIndex();
        for (Value r : callees.getAliasingResults(call, index))
          add(r);
        continue;
      }
      // Results of anything taking the buffer (views, casts, selects, ...),
      // except new buffers (bufferization.clone, ...).
      for (Value r : user->getResults())
        if (!isAllocatedBy(user, r))
          add(r);
    }
  }
}

namespace {
/// Where the region of a planned buffer ends: a runtime call inserted after
/// or before an op (before the first op of a block: at its start), or on a
/// CFG edge.
struct RegionEnd {
  enum Kind { AfterOp, BeforeOp, OnEdge };
  memref::ViewOp view;
  Kind kind;
  /// The op; for OnEdge, the branching terminator.
  Operation *op;
  /// OnEdge: the successor index.
  unsigned successor;
  /// Whether the view's arena value is visible (dominates) there.
  bool arenaVisible;
};

/// The life of a planned buffer in the observer: where its region begins
/// (right before `begin`, or right after the view when `begin` is null) and
/// where it ends.
struct RegionLife {
  Operation *begin = nullptr;
  SmallVector<RegionEnd> ends;
};

/// The analyses of one function that `findLife` needs; Liveness is computed
/// on first use (most planned buffers live in a single block).
class FunctionAnalyses {
public:
  explicit FunctionAnalyses(Operation *func) : func(func), dominance(func) {}
  Liveness &getLiveness() {
    if (!liveness)
      liveness.emplace(func);
    return *liveness;
  }
  DominanceInfo &getDominance() { return dominance; }

private:
  Operation *func;
  DominanceInfo dominance;
  std::optional<Liveness> liveness;
};
} // namespace

/// Where the region of planned buffer `view` begins and ends (see the file
/// comment).
static RegionLife findLife(memref::ViewOp view, FunctionAnalyses &analyses,
                           CalleeAliases &callees) {
  llvm::SetVector<Value> aliases;
  forwardAliases(view.getResult(), aliases, callees);

  // The innermost region holding every use of an alias. A region whose entry
  // block receives an alias (a loop-carried buffer) does not hold its life:
  // the buffer lives across its parent op.
  auto holdsLife = [&](Region *region) {
    for (Value alias : aliases) {
      for (OpOperand &use : alias.getUses())
        if (!region->findAncestorOpInRegion(*use.getOwner()))
          return false;
      if (auto arg = dyn_cast<BlockArgument>(alias))
        if (arg.getOwner() == &region->front())
          return false;
    }
    return true;
  };
  Region *region = view->getParentRegion();
  while (!isa<FunctionOpInterface>(region->getParentOp()) && !holdsLife(region))
    region = region->getParentOp()->getParentRegion();
  Operation *def = region->findAncestorOpInRegion(*view);
  llvm::SmallPtrSet<Operation *, 16> users;
  for (Value alias : aliases)
    for (OpOperand &use : alias.getUses())
      if (Operation *user = region->findAncestorOpInRegion(*use.getOwner()))
        users.insert(user);

  Block *defBlock = def->getBlock();
  Value arena = view.getSource();
  DominanceInfo &dominance = analyses.getDominance();
  auto at = [&](RegionEnd::Kind kind, Operation *op, unsigned successor = 0) {
    return RegionEnd{view, kind, op, successor,
                     dominance.properlyDominates(arena, op)};
  };
  auto atStart = [&](Block *block) {
    return at(RegionEnd::BeforeOp, &block->front());
  };
  // The last user in `block` (before `def` if `beforeDef`, else not before
  // it), or null.
  auto lastUser = [&](Block &block, bool beforeDef) {
    Operation *last = nullptr;
    for (Operation *user : users) {
      if (user->getBlock() != &block || user == def)
        continue;
      bool before = def->getBlock() == &block && user->isBeforeInBlock(def);
      if (before == beforeDef && (!last || last->isBeforeInBlock(user)))
        last = user;
    }
    return last;
  };
  // The first user in `def`'s block after `def`, or null.
  auto firstUserAfterDef = [&]() {
    Operation *first = nullptr;
    for (Operation *user : users)
      if (user->getBlock() == def->getBlock() && def->isBeforeInBlock(user) &&
          (!first || user->isBeforeInBlock(first)))
        first = user;
    return first;
  };
  // The region begins at the first use after the definition, as the plan's
  // live range does: right after the view when the op holding it in `region`
  // uses it (the view is nested in that op) or nothing uses it, else right
  // before the first user, or (`liveOut`: the buffer is first used in a later
  // block) before the terminator.
  auto findBegin = [&](bool liveOut) -> Operation * {
    if (def != view.getOperation() && users.contains(def))
      return nullptr;
    if (Operation *first = firstUserAfterDef())
      return first;
    return liveOut ? defBlock->getTerminator() : nullptr;
  };
  // After the last op of `block` that uses an alias or defines the buffer,
  // ignoring uses before `def` when `def` is in `block`.
  auto afterLastUse = [&](Block &block) {
    Operation *last = lastUser(block, /*beforeDef=*/false);
    if (!last && def->getBlock() == &block)
      last = def;
    if (!last)
      return atStart(&block);
    return at(last->hasTrait<OpTrait::IsTerminator>() ? RegionEnd::BeforeOp
                                                      : RegionEnd::AfterOp,
              last);
  };

  if (region->hasOneBlock() && defBlock->getNumSuccessors() == 0)
    return {findBegin(/*liveOut=*/false), {afterLastUse(*defBlock)}};

  // A CFG: the buffer is live where one of its aliases is.
  Liveness &liveness = analyses.getLiveness();
  auto liveAtStart = [&](Block *block) {
    const LivenessBlockInfo *info = liveness.getLiveness(block);
    return llvm::any_of(aliases, [&](Value alias) {
      if (auto arg = dyn_cast<BlockArgument>(alias);
          arg && arg.getOwner() == block)
        return !arg.use_empty();
      return info && info->isLiveIn(alias);
    });
  };
  // Whether the buffer is live along successor `index` of `terminator`.
  auto liveOnEdge = [&](Operation *terminator, unsigned index) {
    Block *succ = terminator->getSuccessor(index);
    const LivenessBlockInfo *info = liveness.getLiveness(succ);
    if (info && llvm::any_of(aliases, [&](Value alias) {
          return info->isLiveIn(alias);
        }))
      return true;
    auto branch = dyn_cast<BranchOpInterface>(terminator);
    if (!branch) // what it passes is unknown: live if it takes an alias
      return llvm::any_of(terminator->getOperands(),
                          [&](Value v) { return aliases.contains(v); });
    SuccessorOperands operands = branch.getSuccessorOperands(index);
    for (unsigned i = 0, e = operands.size(); i < e; ++i) {
      Value operand = operands[i]; // null when the terminator produces it
      if (operand && aliases.contains(operand) &&
          !succ->getArgument(i).use_empty())
        return true;
    }
    return false;
  };

  RegionLife life;
  SmallVector<RegionEnd> &ends = life.ends;
  llvm::SmallPtrSet<Block *, 4> endsAtStart;
  for (Block &block : *region) {
    bool live = liveAtStart(&block);
    if (&block != defBlock && !live)
      continue;
    Operation *terminator = block.getTerminator();
    SmallVector<unsigned> deadEdges;
    for (unsigned i = 0, e = terminator->getNumSuccessors(); i < e; ++i)
      if (!liveOnEdge(terminator, i))
        deadEdges.push_back(i);
    if (&block == defBlock)
      life.begin =
          findBegin(deadEdges.size() != terminator->getNumSuccessors());
    if (deadEdges.size() == terminator->getNumSuccessors()) {
      // Dead at the end of the block. When the block also redefines it (a
      // loop), the instance that came in dies after its last use before.
      if (&block == defBlock && live)
        if (Operation *lastBefore = lastUser(block, /*beforeDef=*/true))
          ends.push_back(at(RegionEnd::AfterOp, lastBefore));
      ends.push_back(afterLastUse(block));
      continue;
    }
    for (unsigned index : deadEdges) {
      Block *succ = terminator->getSuccessor(index);
      bool deadIntoSucc =
          llvm::all_of(succ->getUses(), [&](BlockOperand &edge) {
            return !liveOnEdge(edge.getOwner(), edge.getOperandNumber());
          });
      if (!deadIntoSucc)
        ends.push_back(at(RegionEnd::OnEdge, terminator, index));
      else if (endsAtStart.insert(succ).second)
        ends.push_back(atStart(succ));
    }
  }
  return life;
}

/// A new block on the CFG edge from `terminator` to its successor `index`,
/// branching on to that successor with the same arguments.
static Block *splitEdge(OpBuilder &b, Operation *terminator, unsigned index) {
  OpBuilder::InsertionGuard guard(b);
  Block *succ = terminator->getSuccessor(index);
  SmallVector<Type> types(succ->getArgumentTypes());
  SmallVector<Location> locs;
  for (BlockArgument arg : succ->getArguments())
    locs.push_back(arg.getLoc());
  Block *edge =
      b.createBlock(succ->getParent(), succ->getIterator(), types, locs);
  cf::BranchOp::create(b, terminator->getLoc(), succ, edge->getArguments());
  terminator->setSuccessor(edge, index);
  return edge;
}

void MPlanInstrumentPass::runOnOperation() {
  ModuleOp module = getOperation();
  MLIRContext *ctx = &getContext();
  if (module.lookupSymbol(kStringTable)) {
    mlir::emitError(getDiagnosticLoc(module),
                    "mplan-instrument: the module is already instrumented "
                    "(it defines @")
        << kStringTable << ")";
    return signalPassFailure();
  }
  // The observer sees buffers as the lowered program allocates them: a
  // planned buffer is a view of its arena only after convert-mplan-to-memref
  // (before, its address would be taken at its mplan op, which would count
  // as a use of it and widen its live range).
  WalkResult mplanOps = module.walk([](Operation *op) {
    if (!isa_and_present<MPlanDialect>(op->getDialect()))
      return WalkResult::advance();
    mlir::emitError(op->getLoc(), "mplan-instrument: '")
        << op->getName()
        << "' is not lowered; run convert-mplan-to-memref before "
           "mplan-instrument";
    return WalkResult::interrupt();
  });
  if (mplanOps.wasInterrupted())
    return signalPassFailure();
  OpBuilder b(ctx);
  Type indexType = b.getIndexType();

  // The runtime's entry points.
  struct Decl {
    const char *name;
    unsigned numArgs;
  };
  const Decl decls[] = {
      {"mplan_rt_enter", 1},          {"mplan_rt_exit", 1},
      {"mplan_rt_alloc", 4},          {"mplan_rt_free", 2},
      {"mplan_rt_free_untracked", 2}, {"mplan_rt_region_begin", 9},
      {"mplan_rt_region_end", 2},     {"mplan_rt_check_bound", 6}};
  for (const Decl &decl : decls) {
    if (Operation *existing = module.lookupSymbol(decl.name)) {
      auto func = dyn_cast<func::FuncOp>(existing);
      if (!func || !func.isExternal() ||
          func.getNumArguments() != decl.numArgs) {
        existing->emitOpError("clashes with the mplan runtime function '")
            << decl.name << "'";
        return signalPassFailure();
      }
    }
  }

  // bufferization.dealloc frees conditionally and declares no effects: lower
  // it as mplan-to-llvm would, so the frees that run are the ones observed.
  bool hasDeallocs = module
                         .walk([](bufferization::DeallocOp) {
                           return WalkResult::interrupt();
                         })
                         .wasInterrupted();
  if (hasDeallocs) {
    OpPassManager pm(ModuleOp::getOperationName());
    pm.addPass(bufferization::createLowerDeallocationsPass());
    if (failed(runPipeline(pm, module)))
      return signalPassFailure();
  }

  SmallVector<func::FuncOp> funcs;
  for (auto func : module.getOps<func::FuncOp>())
    if (!func.isExternal())
      funcs.push_back(func);

  // Phase 1: decide every site before inserting anything (the inserted ops
  // would otherwise count as uses).
  StringTable strings;
  SymbolTableCollection symbols;
  CalleeAliases callees;
  struct Alloc {
    Operation *op;
    Value value;
    RtKind kind;
  };
  struct Free {
    Operation *op;
    Value value;
    bool checked;
  };
  struct FuncPlan {
    func::FuncOp func;
    SmallVector<Alloc> allocs; // allocations and arenas
    SmallVector<Free> frees;
    /// Each view and where its region begins (RegionLife::begin).
    SmallVector<std::pair<memref::ViewOp, Operation *>> views;
    SmallVector<RegionEnd> ends;
    SmallVector<memref::ReinterpretCastOp> boundedViews;
  };
  SmallVector<FuncPlan, 0> plans;
  for (func::FuncOp func : funcs) {
    FuncPlan plan{func, {}, {}, {}, {}, {}};
    FunctionAnalyses analyses(func);
    strings.get(func.getSymName());
    func.walk([&](Operation *op) {
      auto view = dyn_cast<memref::ViewOp>(op);
      if (view && op->hasAttr(kBufferIdAttr)) {
        RegionLife life = findLife(view, analyses, callees);
        plan.views.push_back({view, life.begin});
        strings.get(siteName(op));
        strings.get(formatSpace(view.getSource().getType().getMemorySpace()));
        llvm::append_range(plan.ends, life.ends);
        return;
      }
      auto bounded = dyn_cast<memref::ReinterpretCastOp>(op);
      if (bounded && op->hasAttr(kBoundAttr)) {
        plan.boundedViews.push_back(bounded);
        strings.get(siteName(op));
        if (auto text = op->getAttrOfType<StringAttr>(kBoundAttr))
          strings.get(text.getValue());
        return;
      }
      if (isa<memref::GetGlobalOp>(op) && op->hasAttr(kArenaAttr)) {
        plan.allocs.push_back({op, op->getResult(0), Static});
        strings.get(siteName(op));
        return;
      }
      Allocations allocations = getAllocations(op);
      for (Value value : allocations.freed)
        plan.frees.push_back({op, value, hasObservedOrigin(value, symbols)});
      for (auto [value, kind] : allocations.allocated)
        plan.allocs.push_back({op, value, kind});
      if (!allocations.freed.empty() || !allocations.allocated.empty())
        strings.get(siteName(op));
    });
    for (BlockArgument arg : func.getArguments())
      if (func.getArgAttr(arg.getArgNumber(), kArenaAttr))
        strings.get(describeLoc(arg.getLoc()) + " arena argument");
    plans.push_back(std::move(plan));
  }

  // The string table.
  ArrayRef<char> bytes = strings.getBytes();
  auto tableType = MemRefType::get({static_cast<int64_t>(bytes.size())},
                                   b.getIntegerType(8));
  auto tensorType =
      RankedTensorType::get(tableType.getShape(), b.getIntegerType(8));
  SmallVector<int8_t> data(bytes.begin(), bytes.end());
  b.setInsertionPointToStart(module.getBody());
  memref::GlobalOp::create(
      b, module.getLoc(), kStringTable, b.getStringAttr("private"), tableType,
      DenseElementsAttr::get(tensorType, ArrayRef<int8_t>(data)),
      /*constant=*/true, /*alignment=*/IntegerAttr());
  for (const Decl &decl : decls) {
    if (module.lookupSymbol(decl.name))
      continue;
    SmallVector<Type> args(decl.numArgs, indexType);
    auto func = func::FuncOp::create(b, module.getLoc(), decl.name,
                                     b.getFunctionType(args, {}));
    func.setPrivate();
  }

  // Phase 2: insert the calls.
  for (FuncPlan &plan : plans) {
    func::FuncOp func = plan.func;
    Block &entry = func.getBody().front();
    b.setInsertionPointToStart(&entry);
    Location loc = func.getLoc();
    Value table = memref::GetGlobalOp::create(b, loc, tableType, kStringTable);
    Value tableBase =
        memref::ExtractAlignedPointerAsIndexOp::create(b, loc, table);
    auto str = [&](StringRef s) -> Value {
      Value offset = arith::ConstantIndexOp::create(b, loc, strings.get(s));
      return arith::AddIOp::create(b, loc, tableBase, offset);
    };
    auto constant = [&](int64_t v) -> Value {
      return arith::ConstantIndexOp::create(b, loc, v);
    };
    auto call = [&](StringRef name, ValueRange args) -> Operation * {
      return func::CallOp::create(b, loc, name, TypeRange(), args);
    };
    auto pointer = [&](Value memref) -> Value {
      return memref::ExtractAlignedPointerAsIndexOp::create(b, loc, memref);
    };

    Value name = str(func.getSymName());
    call("mplan_rt_enter", {name});
    for (BlockArgument arg : func.getArguments()) {
      if (!func.getArgAttr(arg.getArgNumber(), kArenaAttr) ||
          !isa<MemRefType>(arg.getType()))
        continue;
      call("mplan_rt_alloc",
           {str(describeLoc(arg.getLoc()) + " arena argument"), pointer(arg),
            buildByteSize(b, loc, arg), constant(Argument)});
    }

    for (Free &free : plan.frees) {
      b.setInsertionPoint(free.op);
      loc = free.op->getLoc();
      call(free.checked ? "mplan_rt_free" : "mplan_rt_free_untracked",
           {str(siteName(free.op)), pointer(free.value)});
    }
    for (Alloc &alloc : plan.allocs) {
      b.setInsertionPointAfter(alloc.op);
      loc = alloc.op->getLoc();
      if (isa<memref::AllocOp, memref::AllocaOp>(alloc.op) &&
          !cast<MemRefType>(alloc.value.getType()).getLayout().isIdentity()) {
        mlir::emitWarning(alloc.op->getLoc(),
                          "mplan-instrument: allocation with a "
                          "non-identity layout is counted by its shape "
                          "only");
      }
      call("mplan_rt_alloc",
           {str(siteName(alloc.op)), pointer(alloc.value),
            buildByteSize(b, loc, alloc.value), constant(alloc.kind)});
    }

    // Where each begin call right after its view was inserted (the op after
    // it), and the first begin call inserted right before an op.
    llvm::DenseMap<Operation *, Block::iterator> beginCalls;
    llvm::DenseMap<Operation *, Operation *> firstBeginBefore;
    for (auto [view, begin] : plan.views) {
      if (begin)
        b.setInsertionPoint(begin);
      else
        b.setInsertionPointAfter(view);
      loc = view.getLoc();
      auto id = view->getAttrOfType<IntegerAttr>(kBufferIdAttr);
      int64_t start = -1, end = -1;
      if (auto live = view->getAttrOfType<DenseI64ArrayAttr>(kLiveAttr);
          live && live.size() == 2) {
        start = live[0];
        end = live[1];
      }
      if (!begin)
        beginCalls[view] = b.getInsertionPoint();
      Operation *beginCall = call(
          "mplan_rt_region_begin",
          {str(siteName(view)), constant(id ? id.getInt() : -1),
           pointer(view.getSource()), buildByteSize(b, loc, view.getSource()),
           view.getByteShift(), buildByteSize(b, loc, view.getResult()),
           constant(start), constant(end),
           str(formatSpace(view.getSource().getType().getMemorySpace()))});
      if (begin)
        firstBeginBefore.try_emplace(begin, beginCall);
    }
    llvm::DenseMap<Operation *, Operation *> beginOf;
    for (auto [view, begin] : plan.views)
      beginOf[view] = begin;
    // Each dynamic size of a view of a buffer planned at its upper bound is
    // checked against the bound (the source's static size) before the view.
    for (memref::ReinterpretCastOp view : plan.boundedViews) {
      b.setInsertionPoint(view);
      loc = view.getLoc();
      auto sourceType = dyn_cast<MemRefType>(view.getSource().getType());
      auto resultType = view.getType();
      if (!sourceType || sourceType.getRank() != resultType.getRank())
        continue;
      int64_t id = -1;
      if (auto source = view.getSource().getDefiningOp<memref::ViewOp>())
        if (auto attr = source->getAttrOfType<IntegerAttr>(kBufferIdAttr))
          id = attr.getInt();
      auto text = view->getAttrOfType<StringAttr>(kBoundAttr);
      for (auto [dim, size] : llvm::enumerate(view.getMixedSizes())) {
        auto dynamicSize = dyn_cast<Value>(size);
        if (!dynamicSize || sourceType.isDynamicDim(dim))
          continue;
        call("mplan_rt_check_bound",
             {str(siteName(view)), constant(id), constant(dim), dynamicSize,
              constant(sourceType.getDimSize(dim)),
              str(text ? text.getValue() : StringRef())});
      }
    }

    // Blocks inserted on CFG edges, by (terminator, successor index).
    llvm::DenseMap<std::pair<Operation *, unsigned>, Block *> edgeBlocks;
    for (RegionEnd &end : plan.ends) {
      switch (end.kind) {
      case RegionEnd::AfterOp:
        if (end.op == end.view)
          b.setInsertionPoint(end.view->getBlock(),
                              beginCalls.lookup(end.view));
        else
          b.setInsertionPointAfter(end.op);
        break;
      case RegionEnd::BeforeOp: {
        // Before the regions that begin there, but after the buffer's own
        // begin (a buffer whose only use is a terminator).
        Operation *first = firstBeginBefore.lookup(end.op);
        b.setInsertionPoint(
            first && beginOf.lookup(end.view) != end.op ? first : end.op);
        break;
      }
      case RegionEnd::OnEdge: {
        Block *&edge = edgeBlocks[{end.op, end.successor}];
        if (!edge)
          edge = splitEdge(b, end.op, end.successor);
        b.setInsertionPoint(edge->getTerminator());
        break;
      }
      }
      loc = end.view.getLoc();
      auto id = end.view->getAttrOfType<IntegerAttr>(kBufferIdAttr);
      call("mplan_rt_region_end",
           {constant(id ? id.getInt() : -1),
            end.arenaVisible ? pointer(end.view.getSource()) : constant(0)});
    }

    // Last before each return, after the ends placed there.
    for (Block &block : func.getBody()) {
      if (!block.mightHaveTerminator() ||
          !isa<func::ReturnOp>(block.getTerminator()))
        continue;
      b.setInsertionPoint(block.getTerminator());
      loc = block.getTerminator()->getLoc();
      call("mplan_rt_exit", {str(func.getSymName())});
    }
  }
}
