//===- EntryValues.cpp - Values computable at a function's entry ----------===//

#include "mplan/Analysis/EntryValues.h"

#include "mlir/IR/Operation.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/Support/raw_ostream.h"
#include <functional>

using namespace mlir;
using namespace mlir::mplan;

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
