//===- OpKindCache.cpp - Interfaces of op kinds, memoized -----------------===//

#include "mplan/Analysis/OpKindCache.h"

#include "mlir/Interfaces/CallInterfaces.h"
#include "mlir/Interfaces/ControlFlowInterfaces.h"
#include "mlir/Interfaces/DestinationStyleOpInterface.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

using namespace mlir;
using namespace mlir::mplan;

OpKindCache::Kind OpKindCache::compute(Operation *op) {
  Kind kind;
  kind.call = isa<CallOpInterface>(op);
  kind.memoryEffects = isa<MemoryEffectOpInterface>(op);
  kind.destinationStyle = isa<DestinationStyleOpInterface>(op);
  kind.regionBranch = isa<RegionBranchOpInterface>(op);
  return kind;
}

const OpKindCache::Kind &OpKindCache::get(Operation *op) {
  auto [it, inserted] = kinds.try_emplace(op->getName());
  if (inserted)
    it->second = compute(op);
  return it->second;
}
