//===- DependenceGraph.cpp - Which ops of a block must stay ordered -------===//

#include "mplan/Analysis/DependenceGraph.h"
#include "mplan/Analysis/BufferLiveness.h"
#include "mplan/Analysis/PointsTo.h"

#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/IR/SymbolTable.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "mlir/Interfaces/ViewLikeInterface.h"
#include "llvm/ADT/SmallPtrSet.h"

using namespace mlir;
using namespace mlir::mplan;

namespace {
/// The location "everything that is not a plannable root".
char otherLocation;

/// How one node touches memory.
struct Accesses {
  bool barrier = false;
  /// Location -> written (else only read).
  llvm::SmallDenseMap<const void *, bool, 4> locations;
  void add(const void *location, bool write) {
    auto [it, inserted] = locations.try_emplace(location, write);
    if (!inserted)
      it->second |= write;
  }
};

/// Per location, the last writer and the readers since.
struct LocationState {
  int32_t lastWriter = -1;
  SmallVector<int32_t, 2> readers;
};
} // namespace

DependenceGraph::DependenceGraph(Block &block, const BufferLiveness &liveness,
                                 const PointsToAnalysis &pointsTo)
    : block(&block) {
  for (Operation &op : block) {
    nodeOf[&op] = static_cast<int32_t>(ops.size());
    ops.push_back(&op);
  }
  int32_t n = size();
  predecessors.resize(n);
  barrier.assign(n, false);
  memory.assign(n, false);
  written.resize(n);

  // Where an access may touch is what the points-to analysis says its
  // memref may point into. A root whose every access the IR shows (no
  // hidden access through any alias: planned or not, e.g. a returned
  // buffer) is a location of its own; constant globals are never written
  // and order against nothing; everything else (arguments, other globals,
  // unknown memory, other allocations) is "other".
  Operation *funcOp = liveness.getFunction();
  llvm::DenseMap<Value, bool> visible;
  llvm::DenseMap<Attribute, bool> constantGlobals;
  std::optional<SymbolTable> symbols;
  OpKindCache kinds;
  auto isVisible = [&](Value root) {
    auto [it, inserted] = visible.try_emplace(root, true);
    if (inserted)
      for (Value alias : liveness.getAliases(root))
        for (OpOperand &use : alias.getUses())
          if (BufferLiveness::getHiddenAccessReason(use, funcOp, &kinds))
            it->second = false;
    return it->second;
  };
  auto isConstantGlobal = [&](Attribute symbol) {
    auto [it, inserted] = constantGlobals.try_emplace(symbol, false);
    if (inserted) {
      Operation *table = SymbolTable::getNearestSymbolTable(funcOp);
      if (table && !symbols)
        symbols.emplace(table);
      auto global = symbols ? symbols->lookup<memref::GlobalOp>(
                                  cast<FlatSymbolRefAttr>(symbol).getValue())
                            : memref::GlobalOp();
      it->second = global && global.getConstant();
    }
    return it->second;
  };
  auto addValueAccess = [&](Accesses &accesses, Value value, bool write) {
    for (const PointsToTarget &target : pointsTo.getTargets(value)) {
      const MemoryPlace &place = pointsTo.getPlace(target.place);
      if (place.kind == MemoryPlace::Kind::Global &&
          isConstantGlobal(place.symbol))
        continue;
      if (place.isAllocation() && place.value && liveness.isRoot(place.value) &&
          isVisible(place.value))
        accesses.add(place.value.getAsOpaquePointer(), write);
      else
        accesses.add(&otherLocation, write);
    }
  };

  llvm::DenseMap<const void *, LocationState> state;
  int32_t lastBarrier = -1;
  std::vector<int32_t> sinceBarrier;
  auto addEdge = [&](int32_t from, int32_t to) {
    if (from >= 0 && from != to)
      predecessors[to].push_back(from);
  };

  for (int32_t v = 0; v < n; ++v) {
    Operation *op = ops[v];
    // SSA: values used here (also by nested ops) defined by earlier ops.
    op->walk([&](Operation *nested) {
      for (Value operand : nested->getOperands()) {
        Operation *def = operand.getDefiningOp();
        if (!def)
          continue;
        if (Operation *ancestor = block.findAncestorOpInBlock(*def))
          if (ancestor != op)
            addEdge(nodeOf.lookup(ancestor), v);
      }
    });
    if (v == n - 1 && op->hasTrait<OpTrait::IsTerminator>()) {
      for (int32_t u = 0; u < v; ++u)
        addEdge(u, v);
      break;
    }

    // Memory.
    Accesses accesses;
    std::optional<SmallVector<MemoryEffects::EffectInstance>> effects =
        getEffectsRecursively(op);
    if (!effects) {
      accesses.barrier = true;
    } else {
      for (const MemoryEffects::EffectInstance &effect : *effects) {
        bool isAlloc = isa<MemoryEffects::Allocate>(effect.getEffect());
        bool write = !isa<MemoryEffects::Read>(effect.getEffect());
        bool defaultResource =
            effect.getResource() == SideEffects::DefaultResource::get();
        if (Value value = effect.getValue()) {
          // A fresh allocation touches nothing anyone else can see.
          if (!isAlloc)
            addValueAccess(accesses, value, write);
          continue;
        }
        if (effect.getSymbolRef() || defaultResource) {
          accesses.barrier = true;
          break;
        }
        accesses.add(effect.getResource(), write);
      }
    }

    if (accesses.barrier) {
      barrier[v] = memory[v] = true;
      for (int32_t u : sinceBarrier)
        addEdge(u, v);
      addEdge(lastBarrier, v);
      sinceBarrier.clear();
      state.clear();
      lastBarrier = v;
      continue;
    }
    if (accesses.locations.empty())
      continue;
    memory[v] = true;
    addEdge(lastBarrier, v);
    sinceBarrier.push_back(v);
    for (auto [location, write] : accesses.locations) {
      if (write)
        written[v].push_back(location);
      LocationState &loc = state[location];
      addEdge(loc.lastWriter, v);
      if (!write) {
        loc.readers.push_back(v);
        continue;
      }
      for (int32_t reader : loc.readers)
        addEdge(reader, v);
      loc.readers.clear();
      loc.lastWriter = v;
    }
  }
  // Edges were added in the order of hashed locations: sorted, the graph
  // (and every order built from it) is the same in every run.
  for (SmallVector<int32_t, 2> &preds : predecessors) {
    llvm::sort(preds);
    preds.erase(std::unique(preds.begin(), preds.end()), preds.end());
  }
}

bool DependenceGraph::writesRoot(int32_t node, Value root) const {
  return llvm::is_contained(written[node], root.getAsOpaquePointer());
}

int32_t DependenceGraph::getNode(Operation *op) const {
  Operation *ancestor = block->findAncestorOpInBlock(*op);
  if (!ancestor)
    return -1;
  return nodeOf.lookup(ancestor);
}

bool DependenceGraph::isLegalOrder(ArrayRef<int32_t> order) const {
  if (order.size() != ops.size())
    return false;
  std::vector<bool> done(ops.size(), false);
  for (int32_t v : order) {
    if (v < 0 || v >= size() || done[v])
      return false;
    for (int32_t p : predecessors[v])
      if (!done[p])
        return false;
    done[v] = true;
  }
  return true;
}
