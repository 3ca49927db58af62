//===- EntryValues.cpp - Values computable at a function's entry ----------===//

#include "mplan/Analysis/EntryValues.h"
#include "mplan/Dialect/MPlan/IR/MPlanOps.h"

#include "mlir/Dialect/MemRef/IR/MemRef.h"

#include "mlir/IR/Operation.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/Support/raw_ostream.h"
#include <functional>

using namespace mlir;
using namespace mlir::mplan;

/// The size operand that `value`, a `memref.dim` at a constant index of a
/// buffer allocated with dynamic sizes (memref.alloc, memref.alloca,
/// mplan.alloc_dynamic) or of a memref.reinterpret_cast (the view of a
/// bounded buffer planned at its bound), is equal to; null otherwise. Such a
/// dim is computable wherever that size is, although the buffer itself is not.
static Value getAllocatedSize(Value value) {
  auto dim = value.getDefiningOp<memref::DimOp>();
  std::optional<int64_t> index = dim ? dim.getConstantIndex() : std::nullopt;
  if (!index)
    return Value();
  Operation *alloc = dim.getSource().getDefiningOp();
  if (auto cast = dyn_cast_if_present<memref::ReinterpretCastOp>(alloc)) {
    SmallVector<OpFoldResult> sizes = cast.getMixedSizes();
    if (*index < 0 || *index >= static_cast<int64_t>(sizes.size()))
      return Value();
    return dyn_cast<Value>(sizes[*index]);
  }
  ValueRange sizes;
  if (auto op = dyn_cast_if_present<memref::AllocOp>(alloc))
    sizes = op.getDynamicSizes();
  else if (auto op = dyn_cast_if_present<memref::AllocaOp>(alloc))
    sizes = op.getDynamicSizes();
  else if (auto op = dyn_cast_if_present<AllocDynamicOp>(alloc))
    sizes = op.getSizes();
  else
    return Value();
  auto type = cast<MemRefType>(dim.getSource().getType());
  if (*index < 0 || *index >= type.getRank() || !type.isDynamicDim(*index))
    return Value();
  return sizes[type.getDynamicDimIndex(*index)];
}

std::optional<std::string>
mlir::mplan::getEntryComputeReason(Value value, Region &body, unsigned maxOps) {
  Block *entry = body.empty() ? nullptr : &body.front();
  llvm::DenseSet<Operation *> visited;
  SmallVector<Value> worklist{value};
  while (!worklist.empty()) {
    Value current = worklist.pop_back_val();
    if (auto arg = dyn_cast<BlockArgument>(current)) {
      if (arg.getOwner() == entry)
        continue;
      return std::string("it depends on a block argument that is not a "
                         "function argument");
    }
    if (Value size = getAllocatedSize(current)) {
      worklist.push_back(size);
      continue;
    }
    Operation *op = current.getDefiningOp();
    if (!visited.insert(op).second)
      continue;
    if (visited.size() > maxOps)
      return "it takes more than " + std::to_string(maxOps) + " ops to compute";
    if (op->getNumRegions() != 0 || !isPure(op)) {
      std::string text;
      llvm::raw_string_ostream os(text);
      os << "it depends on '" << op->getName()
         << "', which may read memory, have effects or not be speculatable";
      return text;
    }
    llvm::append_range(worklist, op->getOperands());
  }
  return std::nullopt;
}

SmallVector<Value> mlir::mplan::cloneAtEntry(OpBuilder &builder,
                                             ValueRange values,
                                             IRMapping &mapping) {
  // Post-order over the defining ops, so that operands are cloned first.
  std::function<Value(Value)> clone = [&](Value value) -> Value {
    if (Value mapped = mapping.lookupOrNull(value))
      return mapped;
    if (Value size = getAllocatedSize(value)) {
      Value copy = clone(size);
      mapping.map(value, copy);
      return copy;
    }
    Operation *op = value.getDefiningOp();
    if (!op)
      return value;
    for (Value operand : op->getOperands())
      clone(operand);
    Operation *copy = builder.clone(*op, mapping);
    (void)copy;
    return mapping.lookup(value);
  };
  SmallVector<Value> result;
  for (Value value : values)
    result.push_back(clone(value));
  return result;
}
