//===- MPlanToMemRef.cpp - Lower mplan to the memref dialect --------------===//
//
// Lowers slabs to `memref<Nxi8, SPACE>` arenas in the slab's own memory space
// (heap, stack, global or a function argument), planned buffers to
// `memref.view` of their arena (so every buffer stays in its space), mplan
// views to `memref.reinterpret_cast` and slab releases to `memref.dealloc` or
// nothing.
//
// Before anything changes, the plan is checked against the IR as it is
// (verifyPlan, the check of --mplan-verify-plan; option verify-plan): a pass
// run between planning and lowering may have reordered two buffers that
// share bytes.
//
// The ops this pass creates carry discardable attributes that
// `--mplan-instrument` reads:
//   * `mplan.arena` (unit) on the op (or function argument) providing an
//     arena;
//   * `mplan.buffer_id` (i64) and `mplan.live` (array<i64: start, end>) on the
//     `memref.view` of every planned buffer.
//
// Where the requested kind would be wrong, a slab gets a heap arena instead,
// with a remark at the slab:
//   * arena=stack: a slab larger than `stack-limit` bytes, or one not at the
//     entry of a function (or memref.alloca_scope) body -- an alloca in a loop
//     body grows the stack on every iteration, whatever the loop's traits say,
//     since upstream lowers scf loops without stacksave/stackrestore;
//   * arena=global: a slab of a function in a call-graph cycle (recursion:
//     nested activations would share the global), of a function that may run
//     in several instances at once (reachable from a call inside a region op
//     whose regions may run concurrently), or nested in such a region op.
//     Calls through pointers (func.call_indirect) and calls of external
//     functions may call any function whose address is taken, so these count
//     as edges of the call graph.
//
// arena=argument: every function named in `functions=` (default: every
// function with a default-memory-space slab but `main` and but those used
// other than by direct calls, which get a remark) takes its
// default-space arena as a trailing `memref<Nxi8>` parameter; its slabs in
// other memory spaces keep a heap arena in their space (a caller has in
// general no arena in that space to slice from, and spaces such as GPU
// workgroup memory are not the caller's to hand on). Its callers in the
// module pass memory:
//   * a caller with a default-space slab gets one more planned buffer, of the
//     callee's arena size, live exactly at the call, placed first-fit (at a
//     multiple of the callee's arena alignment) in the caller's plan around
//     the caller's existing buffers (which keep their offsets); the caller's
//     slab grows if no gap fits and takes the callee's alignment if larger.
//     Callees are processed before their callers (call-graph post-order), so
//     a caller's own arena size includes the arenas of the callees it calls;
//   * a caller without a default-space slab, a call inside a recursive cycle
//     (whose callee arena size is not known yet), or a call nested in a
//     region op whose regions may run concurrently (scf.parallel,
//     scf.forall, omp.*, ...: every iteration would get the same slice)
//     allocates the callee's arena on the heap right before the call and
//     frees it right after, inside the iteration.
//
// arena=shared-global: one global per memory space for the whole module. In
// the default space, a function whose slab is at its top level, that is
// called from another function with a slab, is not `main` or recursive and
// is used only by direct calls nests in its callers' arenas with the
// machinery of arena=argument; a public one keeps its signature as a wrapper
// around its arena-taking body, `__mplan_body_<name>`, which the calls in the
// module call. The other slabs, and the calls of nesting
// functions from callers without a slab, are the users of offset 0 of the
// global. Each user has a holder (the function whose frame keeps it active)
// and an inside (the call-graph nodes that run while it is active: the
// function and whatever it reaches; for a call, the callee and whatever it
// reaches). A user whose holder is inside another user gets a heap arena;
// since "inside" is closed under the call graph and a cycle would be
// recursion, the users left never run at once, and the global is as large
// as the largest of them. Hazards as for arena=global.
//
//===----------------------------------------------------------------------===//

#include "mplan/Analysis/BufferLiveness.h"
#include "mplan/Analysis/EntryValues.h"
#include "mplan/Analysis/PlanVerifier.h"
#include "mplan/Conversion/Passes.h"
#include "mplan/Dialect/MPlan/IR/MPlanOps.h"
#include "mplan/Support/CheckedMath.h"
#include "mplan/Transforms/OptionErrors.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/Dominance.h"
#include "mlir/IR/SymbolTable.h"
#include "mlir/Interfaces/CallInterfaces.h"
#include "mlir/Interfaces/FunctionInterfaces.h"
#include "llvm/ADT/BitVector.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/MapVector.h"
#include "llvm/ADT/SetVector.h"
#include "llvm/ADT/StringSet.h"

#include <algorithm>

namespace mlir {
namespace mplan {
#define GEN_PASS_DEF_CONVERTMPLANTOMEMREF
#include "mplan/Conversion/Passes.h.inc"
} // namespace mplan
} // namespace mlir

using namespace mlir;
using namespace mlir::mplan;

static constexpr llvm::StringLiteral kArenaAttr = "mplan.arena";
static constexpr llvm::StringLiteral kArenaSizeAttr = "mplan.arena_size";
static constexpr llvm::StringLiteral kArenaAlignAttr = "mplan.arena_alignment";
static constexpr llvm::StringLiteral kBufferIdAttr = "mplan.buffer_id";
static constexpr llvm::StringLiteral kLiveAttr = "mplan.live";

namespace {
enum class ArenaKind { Heap, Stack, Global, Argument, SharedGlobal };

/// What a function taking its arena from the caller needs.
struct ArgumentArena {
  int64_t size = 0;
  int64_t alignment = 1;
  bool final = false; ///< set once all the function's own calls are handled
  /// The slab holds run-time sized buffers: the arena is a `memref<?xi8>`
  /// whose size `<name>_arena_size` computes from the function's arguments,
  /// and `size` is its static part.
  bool runtimeSized = false;
};

/// The functions a global arena would be wrong for, and why.
struct GlobalArenaHazards {
  /// Functions in a call-graph cycle.
  llvm::DenseSet<Operation *> recursive;
  /// Functions that may run in several instances at once, with the region op
  /// (holding a call) that makes them so.
  llvm::DenseMap<Operation *, Operation *> concurrent;
};

struct ConvertMPlanToMemRefPass
    : public mlir::mplan::impl::ConvertMPlanToMemRefBase<
          ConvertMPlanToMemRefPass> {
  using Base::Base;

  void runOnOperation() override;

private:
  /// The kind of arena `slab` gets when `requested` is asked for: heap, with
  /// a remark at the slab, where the requested kind would be wrong.
  ArenaKind chooseArenaKind(AllocSlabOp slab, ArenaKind requested,
                            const GlobalArenaHazards &hazards);

  /// Creates the `memref<Nxi8, SPACE>` value of kind `kind` that backs
  /// `slab`.
  Value createArena(OpBuilder &builder, AllocSlabOp slab, ArenaKind kind,
                    SymbolTableCollection &tables);

  /// arena=argument: chooses the functions, makes room for callee arenas in
  /// the callers' plans, passes them at every call site and rewrites the
  /// signatures. Slabs of the chosen functions are mapped to their new
  /// argument in `arenas`.
  LogicalResult lowerArgumentArenas(ModuleOp module, SymbolTable &symbols,
                                    llvm::DenseMap<Value, Value> &arenas);

  /// arena=shared-global: nests callee arenas in their callers' as
  /// arena=argument does, gives every other slab the module's shared global
  /// (per memory space) from offset 0 or, where two users could be active at
  /// once, a heap arena; maps the slabs it handles in `arenas`.
  LogicalResult lowerSharedGlobalArenas(ModuleOp module, SymbolTable &symbols,
                                        llvm::DenseMap<Value, Value> &arenas);

  /// The byte offset of every run-time sized buffer, computed by the
  /// symbolic plan right before its slab.
  llvm::DenseMap<Operation *, Value> dynamicOffsets;
};
} // namespace

static FailureOr<ArenaKind> parseArenaKind(StringRef name) {
  return llvm::StringSwitch<FailureOr<ArenaKind>>(name)
      .Case("heap", ArenaKind::Heap)
      .Case("stack", ArenaKind::Stack)
      .Case("global", ArenaKind::Global)
      .Case("argument", ArenaKind::Argument)
      .Case("shared-global", ArenaKind::SharedGlobal)
      .Default(failure());
}

static MemRefType getArenaType(MLIRContext *ctx, int64_t size,
                               Attribute memorySpace = {}) {
  return MemRefType::get({size}, IntegerType::get(ctx, 8),
                         MemRefLayoutAttrInterface(), memorySpace);
}

/// The run-time sized buffers placed in `slab`.
static SmallVector<AllocDynamicOp> getDynamicBuffers(AllocSlabOp slab) {
  SmallVector<AllocDynamicOp> ops;
  for (Operation *user : slab->getUsers())
    if (auto op = dyn_cast<AllocDynamicOp>(user))
      ops.push_back(op);
  // Users come in no particular order: program order keeps the output stable.
  llvm::sort(ops, [](AllocDynamicOp a, AllocDynamicOp b) {
    return a.getId() < b.getId();
  });
  return ops;
}

/// The run-time sized buffers of `slab` in an order where every buffer comes
/// after the buffers it is placed above: depth-first over `above` from each
/// buffer in program order, iteratively (a chain of `above` may be as long as
/// the number of buffers). Fails with an error at a buffer if `above` names a
/// buffer that is not a run-time sized buffer of the slab or has a cycle
/// (verify-plan checks it too, with live ranges).
static FailureOr<SmallVector<AllocDynamicOp>>
getSymbolicPlanOrder(AllocSlabOp slab) {
  SmallVector<AllocDynamicOp> ops = getDynamicBuffers(slab);
  llvm::DenseMap<int64_t, AllocDynamicOp> byId;
  for (AllocDynamicOp op : ops)
    byId[op.getId()] = op;
  SmallVector<AllocDynamicOp> sorted;
  // 0: unvisited, 1: on the stack, 2: done.
  llvm::DenseMap<Operation *, int> state;
  SmallVector<std::pair<AllocDynamicOp, unsigned>> stack; // op, next entry
  for (AllocDynamicOp root : ops) {
    if (state[root] != 0)
      continue;
    state[root] = 1;
    stack.push_back({root, 0});
    while (!stack.empty()) {
      auto &[op, next] = stack.back();
      ArrayRef<int64_t> above = op.getAboveAttr().asArrayRef();
      if (next == above.size()) {
        state[op] = 2;
        sorted.push_back(op);
        stack.pop_back();
        continue;
      }
      int64_t id = above[next++];
      AllocDynamicOp below = byId.lookup(id);
      if (!below)
        return op.emitOpError("is placed above id ")
               << id << ", which is no run-time sized buffer of its slab";
      int &mark = state[below];
      if (mark == 1)
        return below.emitOpError("is placed above itself through 'above'");
      if (mark == 0) {
        mark = 1;
        stack.push_back({below, 0});
      }
    }
  }
  return sorted;
}

/// Checks that the sizes of the run-time sized buffers of `slab` are
/// computed before it and that `above` is well formed
/// (getSymbolicPlanOrder).
static LogicalResult checkSymbolicPlan(AllocSlabOp slab,
                                       DominanceInfo &dominance) {
  // The plan is evaluated where the slab is allocated.
  for (AllocDynamicOp op : getDynamicBuffers(slab))
    for (Value size : op.getSizes())
      if (!dominance.properlyDominates(size, slab))
        return op.emitOpError("has a size that is not computed before its "
                              "slab is allocated");
  return getSymbolicPlanOrder(slab);
}

/// Evaluates the symbolic plan of the run-time sized buffers of `slab` (
/// checked by checkSymbolicPlan) at `builder`'s insertion point, right before
/// the slab (or, with `sizes` mapping the buffers' sizes to values there,
/// elsewhere): sets the byte offset of each in `offsets` and returns the
/// arena's byte size, max(static size, every buffer's end).
static Value buildSymbolicPlan(OpBuilder &builder, AllocSlabOp slab,
                               llvm::DenseMap<Operation *, Value> &offsets,
                               const IRMapping &sizes = IRMapping()) {
  Location loc = slab.getLoc();
  // Checked by checkSymbolicPlan before anything changed.
  SmallVector<AllocDynamicOp> ops = *getSymbolicPlanOrder(slab);
  llvm::DenseMap<int64_t, AllocDynamicOp> byId;
  for (AllocDynamicOp op : ops)
    byId[op.getId()] = op;
  Value base =
      arith::ConstantIndexOp::create(builder, loc, slab.getType().getSize());
  Value total = base;
  llvm::DenseMap<Operation *, Value> ends;
  auto alignUp = [&](Value value, int64_t alignment) -> Value {
    if (alignment <= 1)
      return value;
    Value mask = arith::ConstantIndexOp::create(builder, loc, alignment - 1);
    Value sum = arith::AddIOp::create(builder, loc, value, mask);
    Value notMask = arith::ConstantIndexOp::create(builder, loc, -alignment);
    return arith::AndIOp::create(builder, loc, sum, notMask);
  };
  // Every buffer's offset follows the ends of the buffers below it, which
  // come earlier in `ops`.
  auto place = [&](AllocDynamicOp op) {
    Value offset = base;
    for (int64_t id : op.getAboveAttr().asArrayRef())
      offset = arith::MaxUIOp::create(builder, loc, offset,
                                      ends.lookup(byId.lookup(id)));
    offset = alignUp(offset, op.getEffectiveAlignment());
    Value bytes =
        arith::ConstantIndexOp::create(builder, loc, *op.getStaticByteFactor());
    for (Value size : op.getSizes())
      bytes = arith::MulIOp::create(builder, loc, bytes,
                                    sizes.lookupOrDefault(size));
    Value end = arith::AddIOp::create(builder, loc, offset, bytes);
    offsets[op] = offset;
    ends[op] = end;
  };
  // In program order, each buffer right after the buffers below it that are
  // not placed yet: `ops` is the depth-first post-order from the buffers in
  // program order, so those are the next ones in it.
  auto next = ops.begin();
  for (AllocDynamicOp op : getDynamicBuffers(slab)) {
    while (!ends.count(op))
      place(*next++);
    total = arith::MaxUIOp::create(builder, loc, total, ends.lookup(op));
  }
  return total;
}

/// The outermost region op holding `op`, inside its function, whose regions
/// may run concurrently (see BufferLiveness::isSequentialRegionOp), or null.
static Operation *getConcurrentAncestor(Operation *op) {
  Operation *found = nullptr;
  for (Operation *parent = op->getParentOp();
       parent && !isa<FunctionOpInterface>(parent);
       parent = parent->getParentOp())
    if (!BufferLiveness::isSequentialRegionOp(parent))
      found = parent;
  return found;
}

namespace {
/// The call graph of a module: a node per function with a body and one
/// "unknown" node, with edges for every CallOpInterface op: to its callee if
/// that is a function with a body, else (indirect calls, external functions)
/// to the unknown node, which calls every function whose address is taken (a
/// symbol use that is not a call's callee).
struct CallGraph {
  SmallVector<Operation *> funcs;
  llvm::DenseMap<Operation *, unsigned> nodeOf;
  unsigned unknown = 0;
  std::vector<SmallVector<unsigned>> edges;
  /// Calls nested in a region op whose regions may run concurrently: callee
  /// node and that region op.
  SmallVector<std::pair<unsigned, Operation *>> concurrentCalls;

  unsigned getNumNodes() const { return funcs.size() + 1; }

  /// The nodes reachable from `node` through one or more edges, plus `node`
  /// itself if `inclusive`.
  llvm::BitVector getReachable(unsigned node, bool inclusive) const {
    llvm::BitVector reached(getNumNodes());
    SmallVector<unsigned> queue(edges[node].begin(), edges[node].end());
    while (!queue.empty()) {
      unsigned next = queue.pop_back_val();
      if (reached.test(next))
        continue;
      reached.set(next);
      llvm::append_range(queue, edges[next]);
    }
    if (inclusive)
      reached.set(node);
    return reached;
  }
};
} // namespace

static CallGraph buildCallGraph(ModuleOp module) {
  CallGraph graph;
  module.walk([&](FunctionOpInterface func) {
    if (func.isExternal())
      return;
    graph.nodeOf[func] = graph.funcs.size();
    graph.funcs.push_back(func);
  });
  const unsigned unknown = graph.unknown = graph.funcs.size();
  auto &nodeOf = graph.nodeOf;
  auto &edges = graph.edges;
  edges.resize(graph.getNumNodes());

  SymbolTableCollection tables;
  module.walk([&](Operation *op) {
    auto caller = op->getParentOfType<FunctionOpInterface>();
    auto callerIt = caller ? nodeOf.find(caller) : nodeOf.end();
    SymbolRefAttr calleeRef;
    if (auto call = dyn_cast<CallOpInterface>(op);
        call && callerIt != nodeOf.end()) {
      calleeRef =
          dyn_cast_if_present<SymbolRefAttr>(call.getCallableForCallee());
      auto calleeIt = nodeOf.find(call.resolveCallableInTable(&tables));
      unsigned callee = calleeIt != nodeOf.end() ? calleeIt->second : unknown;
      edges[callerIt->second].push_back(callee);
      if (Operation *region = getConcurrentAncestor(op))
        graph.concurrentCalls.push_back({callee, region});
    }
    // Any other reference to a function takes its address.
    op->getAttrDictionary().walk([&](SymbolRefAttr ref) {
      if (ref == calleeRef) {
        calleeRef = {}; // only the callee operand itself is a call
        return;
      }
      auto it = nodeOf.find(tables.lookupNearestSymbolFrom(op, ref));
      if (it != nodeOf.end())
        edges[unknown].push_back(it->second);
    });
  });
  return graph;
}

/// Finds the functions of `module` that a global arena would be wrong for,
/// over its call graph. Recursive: in a strongly connected component
/// (Tarjan) with a cycle. Concurrent: reachable from a call inside a region
/// op that may run concurrently.
static GlobalArenaHazards findGlobalArenaHazards(const CallGraph &graph) {
  ArrayRef<Operation *> funcs = graph.funcs;
  const auto &edges = graph.edges;

  // Tarjan's strongly connected components, iteratively.
  const unsigned numNodes = funcs.size() + 1;
  constexpr unsigned kUnvisited = ~0u;
  std::vector<unsigned> index(numNodes, kUnvisited), lowLink(numNodes),
      component(numNodes, kUnvisited), componentSize;
  std::vector<bool> onStack(numNodes, false);
  SmallVector<unsigned> stack;
  SmallVector<std::pair<unsigned, unsigned>> work; // node, next edge
  unsigned nextIndex = 0;
  for (unsigned root = 0; root < numNodes; ++root) {
    if (index[root] != kUnvisited)
      continue;
    work.push_back({root, 0});
    while (!work.empty()) {
      auto &[node, edge] = work.back();
      if (edge == 0 && index[node] == kUnvisited) {
        index[node] = lowLink[node] = nextIndex++;
        stack.push_back(node);
        onStack[node] = true;
      }
      if (edge < edges[node].size()) {
        unsigned next = edges[node][edge++];
        if (index[next] == kUnvisited)
          work.push_back({next, 0});
        else if (onStack[next])
          lowLink[node] = std::min(lowLink[node], index[next]);
        continue;
      }
      unsigned done = node;
      work.pop_back();
      if (!work.empty())
        lowLink[work.back().first] =
            std::min(lowLink[work.back().first], lowLink[done]);
      if (lowLink[done] != index[done])
        continue;
      unsigned id = componentSize.size();
      componentSize.push_back(0);
      unsigned member;
      do {
        member = stack.pop_back_val();
        onStack[member] = false;
        component[member] = id;
        ++componentSize[id];
      } while (member != done);
    }
  }

  GlobalArenaHazards hazards;
  for (unsigned node = 0; node < funcs.size(); ++node)
    if (componentSize[component[node]] > 1 ||
        llvm::is_contained(edges[node], node))
      hazards.recursive.insert(funcs[node]);

  // Reachability from the calls inside concurrent regions.
  std::vector<Operation *> reachedVia(numNodes, nullptr);
  SmallVector<unsigned> queue;
  for (auto [callee, region] : graph.concurrentCalls)
    if (!reachedVia[callee]) {
      reachedVia[callee] = region;
      queue.push_back(callee);
    }
  while (!queue.empty()) {
    unsigned node = queue.pop_back_val();
    for (unsigned next : edges[node])
      if (!reachedVia[next]) {
        reachedVia[next] = reachedVia[node];
        queue.push_back(next);
      }
  }
  for (unsigned node = 0; node < funcs.size(); ++node)
    if (reachedVia[node])
      hazards.concurrent[funcs[node]] = reachedVia[node];
  return hazards;
}

ArenaKind
ConvertMPlanToMemRefPass::chooseArenaKind(AllocSlabOp slab, ArenaKind requested,
                                          const GlobalArenaHazards &hazards) {
  auto func = slab->getParentOfType<FunctionOpInterface>();
  // (arena=argument: the slabs of the functions taking their arena from the
  // caller never come here, the others are on the heap anyway.)
  if (requested != ArenaKind::Heap && requested != ArenaKind::Argument &&
      !getDynamicBuffers(slab).empty()) {
    mlir::emitRemark(slab.getLoc(),
                     "slab holds run-time sized buffers (mplan.alloc_dynamic), "
                     "so its size is known only when the function runs; "
                     "allocated on the heap instead");
    return ArenaKind::Heap;
  }
  switch (requested) {
  case ArenaKind::Heap:
  case ArenaKind::Argument: // slabs not passed by the caller: the heap
    return ArenaKind::Heap;
  case ArenaKind::SharedGlobal: // lowerSharedGlobalArenas handles func.func
    mlir::emitRemark(slab.getLoc(),
                     "slab outside a func.func gets no shared global arena; "
                     "allocated on the heap instead");
    return ArenaKind::Heap;
  case ArenaKind::Stack: {
    int64_t size = slab.getType().getSize();
    if (size > stackLimit) {
      mlir::emitRemark(slab.getLoc(), "stack arena of ")
          << size << " bytes exceeds stack-limit=" << stackLimit.getValue()
          << "; allocated on the heap instead";
      return ArenaKind::Heap;
    }
    Operation *parent = slab->getParentOp();
    if (!isa<FunctionOpInterface, memref::AllocaScopeOp>(parent) ||
        !slab->getBlock()->isEntryBlock()) {
      mlir::emitRemark(slab.getLoc(),
                       "slab is not at the entry of a function or "
                       "memref.alloca_scope body (inside ")
          << parent->getName()
          << "), where a stack arena could be allocated again on every "
             "iteration without being freed; allocated on the heap instead";
      return ArenaKind::Heap;
    }
    return ArenaKind::Stack;
  }
  case ArenaKind::Global: {
    if (!func) {
      mlir::emitRemark(slab.getLoc(),
                       "slab outside a function gets no global arena; "
                       "allocated on the heap instead");
      return ArenaKind::Heap;
    }
    if (hazards.recursive.contains(func)) {
      mlir::emitRemark(slab.getLoc(), "function '")
          << func.getName()
          << "' is in a call-graph cycle (recursive), so its activations "
             "would share a global arena; allocated on the heap instead";
      return ArenaKind::Heap;
    }
    Operation *region = getConcurrentAncestor(slab);
    if (!region)
      region = hazards.concurrent.lookup(func);
    if (region) {
      mlir::emitRemark(slab.getLoc(), "function '")
          << func.getName() << "' may run in several instances at once (from "
          << region->getName() << " in function '"
          << region->getParentOfType<FunctionOpInterface>().getName()
          << "'), which would share a global arena; allocated on the heap "
             "instead";
      return ArenaKind::Heap;
    }
    return ArenaKind::Global;
  }
  }
  llvm_unreachable("unknown arena kind");
}

/// `__mplan_arena_<function>` for the default memory space, else
/// `__mplan_arena_<function>_<space>` with the space's spelling reduced to
/// [A-Za-z0-9_] (`1`, `gpu_address_space_workgroup`).
static std::string getGlobalArenaName(StringRef base, Attribute memorySpace) {
  std::string name = ("__mplan_arena_" + base).str();
  if (!memorySpace)
    return name;
  std::string spelling;
  if (auto integer = dyn_cast<IntegerAttr>(memorySpace)) {
    spelling = std::to_string(integer.getInt());
  } else {
    llvm::raw_string_ostream os(spelling);
    memorySpace.print(os);
  }
  name += '_';
  for (char c : spelling) {
    if (llvm::isAlnum(c))
      name += c;
    else if (name.back() != '_')
      name += '_';
  }
  while (name.back() == '_')
    name.pop_back();
  return name;
}

Value ConvertMPlanToMemRefPass::createArena(OpBuilder &builder,
                                            AllocSlabOp slab, ArenaKind kind,
                                            SymbolTableCollection &tables) {
  SlabType slabType = slab.getType();
  MemRefType arenaType = getArenaType(builder.getContext(), slabType.getSize(),
                                      slabType.getMemorySpace());
  IntegerAttr alignment = builder.getI64IntegerAttr(slabType.getAlignment());
  Location loc = slab.getLoc();
  Operation *arena = nullptr;
  if (!getDynamicBuffers(slab).empty()) {
    // chooseArenaKind puts every slab with run-time sized buffers on the
    // heap; the symbolic plan is evaluated once callee arenas have found
    // their room in the static part (arena=argument, shared-global).
    Value size = buildSymbolicPlan(builder, slab, dynamicOffsets);
    arena = memref::AllocOp::create(builder, loc,
                                    getArenaType(builder.getContext(),
                                                 ShapedType::kDynamic,
                                                 slabType.getMemorySpace()),
                                    ValueRange{size}, alignment);
    arena->setAttr(kArenaAttr, builder.getUnitAttr());
    return arena->getResult(0);
  }
  switch (kind) {
  case ArenaKind::Heap:
  case ArenaKind::Argument:     // chooseArenaKind never returns it
  case ArenaKind::SharedGlobal: // nor this one
    arena = memref::AllocOp::create(builder, loc, arenaType, ValueRange(),
                                    alignment);
    break;
  case ArenaKind::Stack:
    arena = memref::AllocaOp::create(builder, loc, arenaType, ValueRange(),
                                     alignment);
    break;
  case ArenaKind::Global: {
    // chooseArenaKind only returns Global for a slab inside a function.
    auto func = slab->getParentOfType<FunctionOpInterface>();
    Operation *tableOp =
        SymbolTable::getNearestSymbolTable(func->getParentOp());
    OpBuilder detached(builder.getContext());
    auto global = memref::GlobalOp::create(
        detached, loc,
        getGlobalArenaName(func.getName(), slabType.getMemorySpace()),
        builder.getStringAttr("private"), arenaType, builder.getUnitAttr(),
        /*constant=*/false, alignment);
    // Before the function if it is a child of the table, renamed on a clash
    // (with a user symbol or another space's global).
    tables.getSymbolTable(tableOp).insert(global, func->getParentOp() == tableOp
                                                      ? Block::iterator(func)
                                                      : Block::iterator());
    arena = memref::GetGlobalOp::create(builder, loc, arenaType,
                                        global.getSymName());
    break;
  }
  }
  arena->setAttr(kArenaAttr, builder.getUnitAttr());
  return arena->getResult(0);
}

/// The slab of `func` in `memorySpace`, or null if it has none. Fails (with a
/// diagnostic naming `mode`) on more than one.
static FailureOr<AllocSlabOp>
getSpaceSlab(func::FuncOp func, Attribute memorySpace, StringRef mode) {
  AllocSlabOp slab;
  WalkResult result = func.walk([&](AllocSlabOp op) {
    if (op.getType().getMemorySpace() != memorySpace)
      return WalkResult::advance();
    if (slab) {
      InFlightDiagnostic diag = op.emitOpError("is the second ");
      if (memorySpace)
        diag << "memory-space " << memorySpace;
      else
        diag << "default-memory-space";
      diag << " slab of function '" << func.getSymName() << "'; arena=" << mode
           << " needs at most one per function";
      return WalkResult::interrupt();
    }
    slab = op;
    return WalkResult::advance();
  });
  if (result.wasInterrupted())
    return failure();
  return slab;
}

static int64_t alignTo(int64_t value, int64_t alignment) {
  return (value + alignment - 1) / alignment * alignment;
}

namespace {
/// A buffer of a caller's plan, as far as placing new buffers is concerned.
struct Placed {
  LiveRange live;
  int64_t offset;
  int64_t size;
};

/// Why a call of a function taking its arena from the caller gets no slice of
/// the caller's arena.
enum class DeferReason {
  /// Nested in a region op whose regions may run concurrently.
  Concurrent,
  /// The caller has no default-memory-space slab.
  NoSlab,
  /// The caller's slab does not dominate the call (it is nested in a region
  /// the call is outside of, or comes after it).
  NotCovered,
  /// The callee is in a call-graph cycle with the caller: its arena size was
  /// not final when the caller was processed.
  NotFinal,
  /// The callee's arena size is known only when it is called.
  RuntimeSized,
};

struct DeferredCall {
  func::CallOp call;
  DeferReason reason;
};
} // namespace

/// The lowest offset, a multiple of `alignment`, at which `size` bytes live
/// during `live` do not overlap any buffer of `placed` live at the same time.
static int64_t firstFit(ArrayRef<Placed> placed, LiveRange live, int64_t size,
                        int64_t alignment) {
  SmallVector<std::pair<int64_t, int64_t>> busy;
  for (const Placed &p : placed)
    if (p.live.overlaps(live) && p.size > 0)
      busy.push_back({p.offset, p.offset + p.size});
  llvm::sort(busy);
  int64_t offset = 0;
  for (auto [begin, end] : busy) {
    if (offset + size <= begin)
      break;
    offset = std::max(offset, alignTo(end, alignment));
  }
  return offset;
}

/// Fails with an error at `call` if `slab`, the arena of its caller, `size`
/// bytes so far, has a capacity (mplan-plan-buffers' capacity=) that nesting
/// the `calleeSize` bytes of `callee`'s arena in it, ending at byte `end`
/// (nullopt: past int64), would exceed: the caller's arena as a whole is what
/// occupies the memory space (the default one: only default-space arenas
/// nest).
static LogicalResult checkNestedCapacity(AllocSlabOp slab, int64_t size,
                                         func::CallOp call, func::FuncOp callee,
                                         int64_t calleeSize,
                                         std::optional<int64_t> end) {
  std::optional<int64_t> capacity = slab.getCapacity();
  if (!capacity || (end && *end <= *capacity))
    return success();
  InFlightDiagnostic diag =
      call.emitError("the arena of '")
      << slab->getParentOfType<func::FuncOp>().getSymName() << "' (" << size
      << " bytes) would need ";
  if (end)
    diag << std::max(size, *end);
  else
    diag << "more than 2^63";
  return diag << " bytes to hold the arena of '" << callee.getSymName() << "' ("
              << calleeSize << " bytes) at this call, above the "
              << "capacity of " << *capacity
              << " bytes of memory space 'default'";
}

/// Whether `slab` is allocated before `op` runs and in a region holding it.
static bool slabCovers(AllocSlabOp slab, Operation *op) {
  Operation *ancestor = slab->getBlock()->findAncestorOpInBlock(*op);
  return ancestor && slab->isBeforeInBlock(ancestor);
}

/// Makes room for the arenas of `argFuncs` (functions taking their
/// default-memory-space arena from the caller) in their callers' plans:
/// functions are processed callees first; every call of such a function from
/// a caller whose default-space slab (`slabs`) covers the call gets one more
/// planned buffer of the caller, live exactly at the call, placed first-fit,
/// and passed as a trailing operand; the caller's slab grows to hold it.
/// Fills in the arena size and alignment of `argFuncs`. Calls that get no
/// slice are appended to `deferred` with the reason, operands unchanged.
/// Fails with an error at the call if a slice would grow a slab with a
/// capacity past it.
static LogicalResult
nestCalleeArenas(ModuleOp module, SymbolTable &symbols,
                 const llvm::MapVector<func::FuncOp, AllocSlabOp> &slabs,
                 llvm::MapVector<func::FuncOp, ArgumentArena> &argFuncs,
                 SmallVectorImpl<DeferredCall> &deferred) {
  MLIRContext *ctx = module.getContext();

  // Call-graph post-order over the functions with a body, so that a callee's
  // arena size is final before its callers make room for it.
  llvm::SetVector<func::FuncOp> order;
  llvm::DenseSet<func::FuncOp> onStack;
  std::function<void(func::FuncOp)> visit = [&](func::FuncOp func) {
    if (order.contains(func) || onStack.contains(func))
      return;
    onStack.insert(func);
    func.walk([&](func::CallOp call) {
      auto callee = symbols.lookup<func::FuncOp>(call.getCallee());
      if (callee && !callee.isExternal())
        visit(callee);
    });
    onStack.erase(func);
    order.insert(func);
  };
  for (auto func : module.getOps<func::FuncOp>())
    if (!func.isExternal())
      visit(func);

  OpBuilder builder(ctx);
  for (func::FuncOp func : order) {
    // The calls of this function that must pass an arena.
    SmallVector<func::CallOp> calls;
    func.walk([&](func::CallOp call) {
      auto callee = symbols.lookup<func::FuncOp>(call.getCallee());
      if (callee && argFuncs.count(callee))
        calls.push_back(call);
    });

    AllocSlabOp slab = slabs.lookup(func);
    std::optional<BufferLiveness> liveness;
    SmallVector<Placed> placed;
    int64_t nextId = 0;
    SmallVector<std::pair<func::CallOp, AllocTensorOp>> slices;
    int64_t grown = slab ? slab.getType().getSize() : 0;
    if (slab && !calls.empty()) {
      liveness.emplace(func);
      for (Operation *user : slab->getUsers()) {
        if (auto dynamic = dyn_cast<AllocDynamicOp>(user))
          nextId = std::max(nextId, dynamic.getId() + 1);
        auto tensor = dyn_cast<AllocTensorOp>(user);
        if (!tensor)
          continue;
        nextId = std::max(nextId, tensor.getId() + 1);
        LiveRange live = liveness->getLiveRange(tensor.getResult());
        if (tensor.getStart()) { // keep whatever the planner assumed, too
          live.start = std::min(live.start, *tensor.getStart());
          live.end = std::max(live.end, *tensor.getEnd());
        }
        FailureOr<int64_t> size = tensor.getByteSize();
        placed.push_back(
            {live, *tensor.getOffset(), succeeded(size) ? *size : 0});
      }
    }

    for (func::CallOp call : calls) {
      auto callee = symbols.lookup<func::FuncOp>(call.getCallee());
      const ArgumentArena &info = argFuncs[callee];
      // Concurrent iterations must not share one slice.
      if (getConcurrentAncestor(call)) {
        deferred.push_back({call, DeferReason::Concurrent});
        continue;
      }
      if (!slab) {
        deferred.push_back({call, DeferReason::NoSlab});
        continue;
      }
      if (!slabCovers(slab, call)) {
        deferred.push_back({call, DeferReason::NotCovered});
        continue;
      }
      if (!info.final) {
        deferred.push_back({call, DeferReason::NotFinal});
        continue;
      }
      if (info.runtimeSized) {
        deferred.push_back({call, DeferReason::RuntimeSized});
        continue;
      }
      builder.setInsertionPoint(call);
      int64_t index = liveness->getIndex(call);
      LiveRange live{index, index + 1};
      int64_t offset = firstFit(placed, live, info.size, info.alignment);
      std::optional<int64_t> end = ::mplan::checkedAdd(offset, info.size);
      if (failed(
              checkNestedCapacity(slab, grown, call, callee, info.size, end)))
        return failure();
      if (end)
        grown = std::max(grown, *end);
      placed.push_back({live, offset, info.size});
      auto tensor = AllocTensorOp::create(
          builder, call.getLoc(), getArenaType(ctx, info.size),
          builder.getI64IntegerAttr(nextId++),
          builder.getI64IntegerAttr(live.start),
          builder.getI64IntegerAttr(live.end), slab.getResult(),
          builder.getI64IntegerAttr(offset),
          builder.getI64IntegerAttr(info.alignment));
      slices.push_back({call, tensor});
      call->insertOperands(call->getNumOperands(), tensor.getResult());
    }

    // Grow the slab to hold the slices.
    if (slab && !slices.empty()) {
      SlabType type = slab.getType();
      int64_t size = type.getSize();
      int64_t alignment = type.getAlignment();
      for (const Placed &p : placed)
        size = std::max(size, p.offset + p.size);
      for (auto &[call, tensor] : slices)
        alignment = std::max(alignment, tensor.getAlignment().value_or(1));
      slab.getResult().setType(
          SlabType::get(ctx, size, alignment, type.getMemorySpace()));
    }

    auto it = argFuncs.find(func);
    if (it != argFuncs.end()) {
      it->second.size = slab.getType().getSize();
      it->second.alignment = slab.getType().getAlignment();
      it->second.final = true;
      it->second.runtimeSized = !getDynamicBuffers(slab).empty();
    }
  }
  return success();
}

/// The name of the function that computes the arena size of `func`.
static std::string getArenaSizeName(func::FuncOp func) {
  return (func.getSymName() + "_arena_size").str();
}

/// Passes `call` an arena of `info`'s size (computed by the callee's
/// `_arena_size` function from the call's operands when it is run-time
/// sized) allocated on the heap right before it and freed right after.
static void allocateArenaAroundCall(OpBuilder &builder, func::CallOp call,
                                    func::FuncOp callee,
                                    const ArgumentArena &info) {
  builder.setInsertionPoint(call);
  Location loc = call.getLoc();
  memref::AllocOp alloc;
  IntegerAttr alignment = builder.getI64IntegerAttr(info.alignment);
  if (info.runtimeSized) {
    auto size =
        func::CallOp::create(builder, loc, getArenaSizeName(callee),
                             builder.getIndexType(), call.getOperands());
    alloc = memref::AllocOp::create(
        builder, loc, getArenaType(builder.getContext(), ShapedType::kDynamic),
        size.getResults(), alignment);
  } else {
    alloc = memref::AllocOp::create(
        builder, loc, getArenaType(builder.getContext(), info.size),
        ValueRange(), alignment);
  }
  alloc->setAttr(kArenaAttr, builder.getUnitAttr());
  builder.setInsertionPointAfter(call);
  memref::DeallocOp::create(builder, loc, alloc.getResult());
  call->insertOperands(call->getNumOperands(), alloc.getResult());
}

/// Rewrites the signatures of `argFuncs`: the default-memory-space slab
/// becomes a trailing argument (mapped to it in `arenas`; `llvm.noalias` if
/// `noAlias`), with a `<name>_arena_size() -> index` companion.
static LogicalResult
addArenaArguments(SymbolTable &symbols,
                  const llvm::MapVector<func::FuncOp, AllocSlabOp> &slabs,
                  const llvm::MapVector<func::FuncOp, ArgumentArena> &argFuncs,
                  llvm::DenseMap<Value, Value> &arenas, bool noAlias,
                  llvm::DenseMap<Operation *, Value> &dynamicOffsets) {
  for (const auto &argFunc : argFuncs) {
    func::FuncOp func = argFunc.first;
    const ArgumentArena &info = argFunc.second;
    MLIRContext *ctx = func.getContext();
    OpBuilder builder(ctx);
    AllocSlabOp slab = slabs.lookup(func);
    MemRefType arenaType =
        getArenaType(ctx, info.runtimeSized ? ShapedType::kDynamic : info.size);
    Block &entry = func.getBody().front();
    SmallVector<Type> argTypes(func.getArgumentTypes());
    unsigned argIndex = func.getNumArguments();
    if (failed(func.insertArgument(argIndex, arenaType,
                                   DictionaryAttr::get(ctx), slab.getLoc())))
      return mlir::emitError(func.getLoc(),
                             "convert-mplan-to-memref: cannot add the arena "
                             "argument");
    func.setArgAttr(argIndex, kArenaAttr, UnitAttr::get(ctx));
    if (noAlias)
      func.setArgAttr(argIndex, LLVM::LLVMDialect::getNoAliasAttrName(),
                      UnitAttr::get(ctx));
    // A run-time sized arena has no static size: only the size function
    // knows it.
    if (!info.runtimeSized)
      func->setAttr(kArenaSizeAttr, builder.getI64IntegerAttr(info.size));
    func->setAttr(kArenaAlignAttr, builder.getI64IntegerAttr(info.alignment));
    builder.setInsertionPointToStart(&entry);
    // memref.assume_alignment takes an i32: a larger (power-of-two) arena
    // alignment is assumed as 2^30, which it implies.
    int64_t assumedAlignment = std::min<int64_t>(info.alignment, 1 << 30);
    auto assumed = memref::AssumeAlignmentOp::create(
        builder, slab.getLoc(), entry.getArgument(argIndex),
        builder.getI32IntegerAttr(static_cast<int32_t>(assumedAlignment)));
    arenas[slab.getResult()] = assumed.getResult();

    // The offsets of run-time sized buffers, computed in the function.
    if (info.runtimeSized) {
      builder.setInsertionPoint(slab);
      buildSymbolicPlan(builder, slab, dynamicOffsets);
    }

    // `<name>_arena_size() -> index`, or, for a run-time sized arena,
    // `<name>_arena_size(<the function's arguments>) -> index`: the same
    // symbolic plan, on sizes recomputed from the arguments.
    std::string sizeName = getArenaSizeName(func);
    if (symbols.lookup(sizeName))
      return mlir::emitError(func.getLoc(),
                             "convert-mplan-to-memref: cannot create '")
             << sizeName << "': a symbol of that name exists";
    builder.setInsertionPointAfter(func);
    auto sizeFunc = func::FuncOp::create(
        builder, func.getLoc(), sizeName,
        builder.getFunctionType(info.runtimeSized ? TypeRange(argTypes)
                                                  : TypeRange(),
                                {builder.getIndexType()}));
    sizeFunc.setVisibility(func.getVisibility());
    Block *body = sizeFunc.addEntryBlock();
    builder.setInsertionPointToStart(body);
    Value size;
    if (info.runtimeSized) {
      IRMapping mapping;
      for (unsigned i = 0; i < argTypes.size(); ++i)
        mapping.map(entry.getArgument(i), body->getArgument(i));
      for (AllocDynamicOp op : getDynamicBuffers(slab))
        cloneAtEntry(builder, op.getSizes(), mapping);
      llvm::DenseMap<Operation *, Value> unused;
      size = buildSymbolicPlan(builder, slab, unused, mapping);
    } else {
      size = arith::ConstantIndexOp::create(builder, func.getLoc(), info.size);
    }
    func::ReturnOp::create(builder, func.getLoc(), size);
    symbols.insert(sizeFunc);
  }
  return success();
}

LogicalResult ConvertMPlanToMemRefPass::lowerArgumentArenas(
    ModuleOp module, SymbolTable &symbols,
    llvm::DenseMap<Value, Value> &arenas) {
  // The functions with a body, and their default-memory-space slab.
  llvm::MapVector<func::FuncOp, AllocSlabOp> slabs;
  for (auto func : module.getOps<func::FuncOp>()) {
    if (func.isExternal())
      continue;
    FailureOr<AllocSlabOp> slab = getSpaceSlab(func, {}, "argument");
    if (failed(slab))
      return failure();
    slabs[func] = *slab;
  }

  // The functions that take their arena from the caller.
  llvm::MapVector<func::FuncOp, ArgumentArena> argFuncs;
  if (functions.empty()) {
    // `main` is the program's entry point: whatever runs it (mlir-runner, a
    // C runtime) passes no arena, so by default it keeps a heap arena and
    // hands slices of it to the functions it calls.
    for (auto [func, slab] : slabs)
      if (slab && func.getSymName() != "main")
        argFuncs[func] = {};
  } else {
    for (const std::string &name : functions) {
      auto func = symbols.lookup<func::FuncOp>(name);
      if (!func)
        // About this module (a nested module may lack it while another
        // has it): reported at each, not only at the first module.
        return emitOptionError(
            getDiagnosticLoc(module), getArgument(), "functions",
            "'" + name + "' is not a function of this module");
      if (func.isExternal())
        return emitOptionError(func.getLoc(), getArgument(), "functions",
                               "function '" + name + "' has no body");
      if (!slabs.lookup(func))
        return emitOptionError(
            func.getLoc(), getArgument(), "functions",
            "function '" + name +
                "' has no planned buffers in the default memory space (no "
                "mplan.alloc_slab without a memory space); plan it first");
      argFuncs[func] = {};
    }
  }

  // Every use of such a function must be a func.call we can rewrite. By
  // default, a function used otherwise (its address taken by func.constant,
  // say) is left out with a remark; one named in functions= is an error.
  SmallVector<func::FuncOp> leftOut;
  for (auto &[func, info] : argFuncs) {
    std::optional<SymbolTable::UseRange> uses =
        SymbolTable::getSymbolUses(func, module);
    if (!uses)
      return mlir::emitError(func.getLoc(),
                             "convert-mplan-to-memref: cannot enumerate the "
                             "uses of function '")
             << func.getSymName() << "'";
    for (const SymbolTable::SymbolUse &use : *uses) {
      auto call = dyn_cast<func::CallOp>(use.getUser());
      if (call && call->getParentOfType<func::FuncOp>())
        continue;
      if (!functions.empty())
        return use.getUser()->emitOpError("uses function '")
               << func.getSymName()
               << "', which takes its arena from the caller (arena=argument); "
                  "only direct func.call ops inside func.func can pass it";
      mlir::emitRemark(use.getUser()->getLoc(), "function '")
          << func.getSymName()
          << "' keeps its own heap arena (arena=argument): this use of it is "
             "not a direct func.call inside a func.func, which could not pass "
             "an arena";
      leftOut.push_back(func);
      break;
    }
  }
  for (func::FuncOp func : leftOut)
    argFuncs.erase(func);
  if (argFuncs.empty())
    return success();

  // Calls from a function without a slab, calls inside a recursive cycle
  // (the callee's size was not final when its caller was processed) and
  // calls that may run concurrently with each other: the callee's arena
  // comes from the heap, around the call.
  SmallVector<DeferredCall> deferred;
  if (failed(nestCalleeArenas(module, symbols, slabs, argFuncs, deferred)))
    return failure();
  OpBuilder builder(module.getContext());
  for (DeferredCall d : deferred) {
    auto callee = symbols.lookup<func::FuncOp>(d.call.getCallee());
    allocateArenaAroundCall(builder, d.call, callee, argFuncs[callee]);
  }
  return addArenaArguments(symbols, slabs, argFuncs, arenas, arenaNoAlias,
                           dynamicOffsets);
}

namespace {
/// A user of the shared global arena from offset 0: a function with a slab
/// (`slab`), active while it runs, or a call (`call`) of a function taking
/// its arena from the caller, from a caller without a slab, active while the
/// call runs.
struct SharedUser {
  AllocSlabOp slab;
  func::CallOp call;
  /// The function whose frame holds the arena while the user is active.
  unsigned holder;
  /// The functions that run while the user is active.
  llvm::BitVector inside;
  int64_t size = 0;
  int64_t alignment = 1;
  /// The user it may run inside of, if any (then it gets a heap arena).
  int inUserOf = -1;

  std::string describe() {
    if (slab)
      return ("'" + slab->getParentOfType<func::FuncOp>().getSymName() + "'")
          .str();
    return ("the call of '" + call.getCallee() + "' in '" +
            call->getParentOfType<func::FuncOp>().getSymName() + "'")
        .str();
  }
};
} // namespace

/// arena=shared-global: keeps the signature of `func`, a public function of
/// `module` that is about to take its arena from its callers, all of them
/// direct func.call ops in the module. `func` becomes the private
/// `__mplan_body_<name>`, which those calls call, and a new public `<name>`
/// with the original signature and attributes calls it for callers outside
/// the module (mlir-runner -e, C): a caller without a slab, which passes the
/// shared global's first bytes (or a heap arena).
static void wrapPublicFunction(ModuleOp module, func::FuncOp func,
                               SymbolTable &symbols) {
  SmallVector<func::CallOp> calls;
  if (std::optional<SymbolTable::UseRange> uses =
          SymbolTable::getSymbolUses(func, module))
    for (const SymbolTable::SymbolUse &use : *uses)
      calls.push_back(cast<func::CallOp>(use.getUser()));

  OpBuilder builder(func.getContext());
  builder.setInsertionPoint(func);
  Location loc = func.getLoc();
  auto wrapper = func::FuncOp::create(builder, loc, func.getSymName(),
                                      func.getFunctionType());
  wrapper->setAttrs(func->getAttrDictionary());
  symbols.remove(func);
  SymbolTable::setSymbolName(func, ("__mplan_body_" + func.getSymName()).str());
  func.setPrivate();
  // The body's signature gains the arena: no C interface for it.
  func->removeAttr(LLVM::LLVMDialect::getEmitCWrapperAttrName());
  StringAttr bodyName = symbols.insert(func);
  symbols.insert(wrapper);

  Block *entry = wrapper.addEntryBlock();
  builder.setInsertionPointToStart(entry);
  auto call = func::CallOp::create(builder, loc, func, entry->getArguments());
  func::ReturnOp::create(builder, loc, call.getResults());
  for (func::CallOp inModule : calls)
    inModule.setCallee(bodyName);
  mlir::emitRemark(wrapper.getLoc(), "public function '")
      << wrapper.getSymName() << "' keeps its signature: it calls '"
      << bodyName.getValue()
      << "', which takes its arena from the caller, as the calls in the "
         "module now do";
}

LogicalResult ConvertMPlanToMemRefPass::lowerSharedGlobalArenas(
    ModuleOp module, SymbolTable &symbols,
    llvm::DenseMap<Value, Value> &arenas) {
  MLIRContext *ctx = module.getContext();
  CallGraph graph = buildCallGraph(module);
  GlobalArenaHazards hazards = findGlobalArenaHazards(graph);

  // The slabs of every function with a body, per memory space: the default
  // space first, then in order of appearance.
  llvm::MapVector<Attribute, llvm::MapVector<func::FuncOp, AllocSlabOp>>
      bySpace;
  bySpace[Attribute()];
  for (auto func : module.getOps<func::FuncOp>()) {
    if (func.isExternal())
      continue;
    llvm::SetVector<Attribute> spaces;
    func.walk([&](AllocSlabOp slab) {
      spaces.insert(slab.getType().getMemorySpace());
    });
    for (Attribute space : spaces) {
      FailureOr<AllocSlabOp> slab = getSpaceSlab(func, space, "shared-global");
      if (failed(slab))
        return failure();
      bySpace[space][func] = *slab;
    }
  }

  // Default memory space: a function whose slab is at the function's top
  // level, that is not recursive, not `main` (the program's entry point),
  // used only by direct func.call ops inside func.func, and called from
  // another function with a default-space slab nests in its callers' arenas.
  const llvm::MapVector<func::FuncOp, AllocSlabOp> &defaultSlabs =
      bySpace[Attribute()];
  llvm::MapVector<func::FuncOp, ArgumentArena> argFuncs;
  for (auto [func, slab] : defaultSlabs) {
    if (slab->getParentOp() != func.getOperation() ||
        func.getSymName() == "main" || hazards.recursive.contains(func) ||
        !getDynamicBuffers(slab).empty())
      continue;
    std::optional<SymbolTable::UseRange> uses =
        SymbolTable::getSymbolUses(func, module);
    if (!uses)
      continue;
    bool direct = true, fromSlab = false;
    for (const SymbolTable::SymbolUse &use : *uses) {
      auto call = dyn_cast<func::CallOp>(use.getUser());
      auto caller = call ? call->getParentOfType<func::FuncOp>() : nullptr;
      if (!caller) {
        direct = false;
        break;
      }
      if (caller != func && defaultSlabs.lookup(caller))
        fromSlab = true;
    }
    if (direct && fromSlab)
      argFuncs[func] = {};
  }
  // A public function is an entry point of the module (mlir-runner -e, a C
  // caller): it keeps its signature as a wrapper around its arena-taking
  // body, and the call graph gains the wrappers.
  bool wrapped = false;
  for (auto &argFunc : argFuncs)
    if (argFunc.first.isPublic()) {
      wrapPublicFunction(module, argFunc.first, symbols);
      wrapped = true;
    }
  if (wrapped) {
    graph = buildCallGraph(module);
    hazards = findGlobalArenaHazards(graph);
  }
  SmallVector<DeferredCall> deferred;
  if (failed(
          nestCalleeArenas(module, symbols, defaultSlabs, argFuncs, deferred)))
    return failure();

  OpBuilder builder(ctx);
  SymbolTableCollection tables;
  auto heapAroundCall = [&](func::CallOp call, const Twine &why) {
    auto callee = symbols.lookup<func::FuncOp>(call.getCallee());
    mlir::emitRemark(call.getLoc(), "the arena of '")
        << callee.getSymName()
        << "' is allocated on the heap around this call: " << why;
    allocateArenaAroundCall(builder, call, callee, argFuncs[callee]);
  };

  for (auto &[space, slabs] : bySpace) {
    // The would-be users of offset 0.
    SmallVector<SharedUser> users;
    for (auto [func, slab] : slabs) {
      if (!space && argFuncs.count(func))
        continue;
      // Recursion and concurrency as for arena=global.
      if (chooseArenaKind(slab, ArenaKind::Global, hazards) !=
          ArenaKind::Global) {
        builder.setInsertionPoint(slab);
        arenas[slab.getResult()] =
            createArena(builder, slab, ArenaKind::Heap, tables);
        continue;
      }
      unsigned node = graph.nodeOf.lookup(func);
      SlabType type = slab.getType();
      users.push_back({slab,
                       {},
                       node,
                       graph.getReachable(node, true),
                       type.getSize(),
                       type.getAlignment()});
    }
    if (!space) {
      for (DeferredCall d : deferred) {
        auto caller = d.call->getParentOfType<func::FuncOp>();
        switch (d.reason) {
        case DeferReason::Concurrent:
          heapAroundCall(
              d.call,
              "it is nested in " +
                  getConcurrentAncestor(d.call)->getName().getStringRef() +
                  ", whose regions may run at once");
          continue;
        case DeferReason::NotCovered:
          heapAroundCall(d.call, "the caller's slab does not dominate it");
          continue;
        case DeferReason::RuntimeSized:
          heapAroundCall(d.call, "its size is known only when it is called");
          continue;
        case DeferReason::NotFinal:
          heapAroundCall(d.call,
                         "the callee and the caller are in a call-graph "
                         "cycle (recursive)");
          continue;
        case DeferReason::NoSlab:
          break;
        }
        if (hazards.recursive.contains(caller)) {
          heapAroundCall(d.call, "the caller '" + caller.getSymName() +
                                     "' has no slab and is in a call-graph "
                                     "cycle (recursive)");
          continue;
        }
        if (Operation *region = hazards.concurrent.lookup(caller)) {
          heapAroundCall(
              d.call,
              "the caller '" + caller.getSymName() +
                  "' has no slab and may run in several instances at "
                  "once (from " +
                  region->getName().getStringRef() + " in function '" +
                  region->getParentOfType<FunctionOpInterface>().getName() +
                  "')");
          continue;
        }
        auto callee = symbols.lookup<func::FuncOp>(d.call.getCallee());
        const ArgumentArena &info = argFuncs[callee];
        users.push_back({{},
                         d.call,
                         graph.nodeOf.lookup(caller),
                         graph.getReachable(graph.nodeOf.lookup(callee), true),
                         info.size,
                         info.alignment});
      }
    }
    if (users.empty())
      continue;

    // A user that may run while another one is active (its holder runs
    // inside the other's activity) gets a heap arena instead. The relation
    // is acyclic (a cycle would be recursion), and transitive, so whatever
    // is left is pairwise exclusive.
    for (unsigned i = 0, e = users.size(); i < e; ++i)
      for (unsigned j = 0; j < e; ++j)
        if (i != j && users[j].inside.test(users[i].holder)) {
          users[i].inUserOf = j;
          break;
        }

    int64_t size = 0, alignment = 1, sum = 0;
    SmallVector<std::string> names;
    for (SharedUser &user : users)
      if (user.inUserOf < 0) {
        size = std::max(size, user.size);
        alignment = std::max(alignment, user.alignment);
        sum += user.size;
        names.push_back(user.describe());
      }

    MemRefType globalType = getArenaType(ctx, size, space);
    OpBuilder detached(ctx);
    auto global = memref::GlobalOp::create(
        detached, module.getLoc(), getGlobalArenaName("shared", space),
        builder.getStringAttr("private"), globalType, builder.getUnitAttr(),
        /*constant=*/false, builder.getI64IntegerAttr(alignment));
    symbols.insert(global, module.getBody()->begin());

    for (SharedUser &user : users) {
      if (user.inUserOf >= 0) {
        std::string why = " may run while " + users[user.inUserOf].describe() +
                          " uses the shared global arena from offset 0 "
                          "(reachable through calls from it)";
        if (user.call) {
          heapAroundCall(
              user.call,
              "the caller '" +
                  user.call->getParentOfType<func::FuncOp>().getSymName() +
                  "'" + why);
        } else {
          mlir::emitRemark(user.slab.getLoc(), "function ")
              << user.describe() << why << "; allocated on the heap instead";
          builder.setInsertionPoint(user.slab);
          arenas[user.slab.getResult()] =
              createArena(builder, user.slab, ArenaKind::Heap, tables);
        }
        continue;
      }
      Operation *at =
          user.slab ? user.slab.getOperation() : user.call.getOperation();
      builder.setInsertionPoint(at);
      auto get = memref::GetGlobalOp::create(builder, at->getLoc(), globalType,
                                             global.getSymName());
      if (user.slab) {
        get->setAttr(kArenaAttr, builder.getUnitAttr());
        arenas[user.slab.getResult()] = get.getResult();
        continue;
      }
      // The callee's arena is the first `user.size` bytes.
      Value zero = arith::ConstantIndexOp::create(builder, at->getLoc(), 0);
      auto slice = memref::ViewOp::create(builder, at->getLoc(),
                                          getArenaType(ctx, user.size, space),
                                          get.getResult(), zero, ValueRange());
      user.call->insertOperands(user.call->getNumOperands(), slice.getResult());
    }

    // At the module's location, without the module printed after it.
    InFlightDiagnostic remark =
        mlir::emitRemark(module.getLoc(), "arena=shared-global: one ");
    if (space)
      remark << "memory-space " << space << " ";
    remark << "arena '" << global.getSymName() << "' of " << size
           << " bytes from offset 0 for " << names.size() << " user"
           << (names.size() == 1 ? "" : "s") << " (" << llvm::join(names, ", ")
           << "), instead of their sum, " << sum << " bytes; not re-entrant";
  }
  return addArenaArguments(symbols, defaultSlabs, argFuncs, arenas,
                           arenaNoAlias, dynamicOffsets);
}

void ConvertMPlanToMemRefPass::runOnOperation() {
  ModuleOp module = getOperation();
  FailureOr<ArenaKind> kind = parseArenaKind(arena);
  if (failed(kind)) {
    (void)emitOptionError(module, getArgument(), "arena",
                          "unknown arena kind '" + arena +
                              "'; expected heap, stack, global, argument or "
                              "shared-global");
    return signalPassFailure();
  }
  if (*kind != ArenaKind::Argument && !functions.empty()) {
    (void)emitOptionError(
        module, getArgument(), "functions",
        "only meaningful with arena=argument (got arena=" + arena + ")");
    return signalPassFailure();
  }
  if (stackLimit < 0) {
    (void)emitOptionError(module, getArgument(), "stack-limit",
                          "must be non-negative, got " +
                              Twine(stackLimit.getValue()));
    return signalPassFailure();
  }

  // Unplanned buffers have lost their deallocs to the slab's release: they
  // cannot be lowered on their own.
  WalkResult invalid = module.walk([&](Operation *op) {
    if (auto tensor = dyn_cast<AllocTensorOp>(op)) {
      if (tensor.isPlanned())
        return WalkResult::advance();
      op->emitOpError("is not planned; run mplan-plan-buffers first");
      return WalkResult::interrupt();
    }
    if (auto dynamic = dyn_cast<AllocDynamicOp>(op)) {
      if (dynamic.isPlanned())
        return WalkResult::advance();
      op->emitOpError("is not planned; run mplan-plan-buffers first");
      return WalkResult::interrupt();
    }
    if (auto slab = dyn_cast<AllocSlabOp>(op)) {
      for (Operation *user : slab->getUsers()) {
        if (isa<AllocTensorOp, AllocDynamicOp, ReleaseSlabOp>(user))
          continue;
        user->emitOpError("uses an mplan slab in a way "
                          "convert-mplan-to-memref cannot lower");
        return WalkResult::interrupt();
      }
    }
    return WalkResult::advance();
  });
  if (invalid.wasInterrupted())
    return signalPassFailure();

  // The plan must still hold for the IR as it is now.
  if (verifyPlan) {
    WalkResult broken = module.walk([&](FunctionOpInterface func) {
      if (func.isExternal() ||
          succeeded(mlir::mplan::verifyPlan(func.getOperation())))
        return WalkResult::advance();
      return WalkResult::interrupt();
    });
    if (broken.wasInterrupted())
      return signalPassFailure();
  }

  SymbolTable symbols(module);
  OpBuilder builder(&getContext());
  DominanceInfo dominance(module);
  WalkResult symbolic = module.walk([&](AllocSlabOp slab) {
    return failed(checkSymbolicPlan(slab, dominance)) ? WalkResult::interrupt()
                                                      : WalkResult::advance();
  });
  if (symbolic.wasInterrupted())
    return signalPassFailure();
  llvm::DenseMap<Value, Value> arenas;
  if (*kind == ArenaKind::Argument &&
      failed(lowerArgumentArenas(module, symbols, arenas)))
    return signalPassFailure();
  if (*kind == ArenaKind::SharedGlobal &&
      failed(lowerSharedGlobalArenas(module, symbols, arenas)))
    return signalPassFailure();

  GlobalArenaHazards hazards;
  if (*kind == ArenaKind::Global)
    hazards = findGlobalArenaHazards(buildCallGraph(module));
  SymbolTableCollection tables;
  module.walk([&](AllocSlabOp slab) {
    if (arenas.count(slab.getResult()))
      return;
    builder.setInsertionPoint(slab);
    arenas[slab.getResult()] = createArena(
        builder, slab, chooseArenaKind(slab, *kind, hazards), tables);
  });

  module.walk([&](Operation *op) {
    // A planned buffer becomes a view of its arena, marked for the observer.
    auto replaceWithView = [&](Operation *buffer, Value slab, Value offset,
                               ValueRange sizes, int64_t id,
                               std::optional<int64_t> start,
                               std::optional<int64_t> end) {
      auto view = memref::ViewOp::create(
          builder, buffer->getLoc(),
          cast<MemRefType>(buffer->getResult(0).getType()), arenas.lookup(slab),
          offset, sizes);
      view->setAttr(kBufferIdAttr, builder.getI64IntegerAttr(id));
      if (start)
        view->setAttr(kLiveAttr, builder.getDenseI64ArrayAttr({*start, *end}));
      buffer->replaceAllUsesWith(view);
      buffer->erase();
    };
    if (auto tensor = dyn_cast<AllocTensorOp>(op)) {
      builder.setInsertionPoint(tensor);
      Value offset = arith::ConstantIndexOp::create(builder, tensor.getLoc(),
                                                    *tensor.getOffset());
      replaceWithView(tensor, tensor.getSlab(), offset, ValueRange(),
                      tensor.getId(), tensor.getStart(), tensor.getEnd());
      return;
    }
    if (auto dynamic = dyn_cast<AllocDynamicOp>(op)) {
      builder.setInsertionPoint(dynamic);
      replaceWithView(dynamic, dynamic.getSlab(),
                      dynamicOffsets.lookup(dynamic), dynamic.getSizes(),
                      dynamic.getId(), dynamic.getStart(), dynamic.getEnd());
      return;
    }
    if (auto view = dyn_cast<ViewOp>(op)) {
      builder.setInsertionPoint(view);
      MemRefType type = view.getType();
      auto [strides, offset] = type.getStridesAndOffset();
      Value cast = memref::ReinterpretCastOp::create(
          builder, view.getLoc(), type, view.getSource(), offset,
          type.getShape(), strides);
      view.replaceAllUsesWith(cast);
      view.erase();
      return;
    }
    if (auto release = dyn_cast<ReleaseSlabOp>(op)) {
      Value arena = arenas.lookup(release.getSlab());
      if (arena.getDefiningOp<memref::AllocOp>()) {
        builder.setInsertionPoint(release);
        memref::DeallocOp::create(builder, release.getLoc(), arena);
      }
      release.erase();
    }
  });
  module.walk([&](AllocSlabOp slab) { slab.erase(); });
}
