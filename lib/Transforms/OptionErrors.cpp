//===- OptionErrors.cpp - Errors about pass option values -----------------===//

#include "mplan/Transforms/OptionErrors.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/Interfaces/FunctionInterfaces.h"

using namespace mlir;

Location mlir::mplan::getDiagnosticLoc(Operation *op) {
  auto module = dyn_cast<ModuleOp>(op);
  if (!module)
    return op->getLoc();
  Block &body = *module.getBody();
  Operation *firstFunction = nullptr;
  for (Operation &nested : body)
    if (auto function = dyn_cast<FunctionOpInterface>(nested)) {
      if (!function.isExternal())
        return nested.getLoc();
      if (!firstFunction)
        firstFunction = &nested;
    }
  if (firstFunction)
    return firstFunction->getLoc();
  return body.empty() ? module.getLoc() : body.front().getLoc();
}

/// Whether `op` is the first op of its kind in its block (or in none).
static bool isFirstOfItsKind(Operation *op) {
  Block *block = op->getBlock();
  if (!block)
    return true;
  for (Operation &sibling : *block)
    if (sibling.getName() == op->getName())
      return &sibling == op;
  return true;
}

mplan::OptionError mlir::mplan::emitOptionError(Operation *op, StringRef pass,
                                                StringRef option,
                                                const Twine &message) {
  if (!isFirstOfItsKind(op))
    return InFlightDiagnostic();
  return emitOptionError(getDiagnosticLoc(op), pass, option, message);
}

InFlightDiagnostic mlir::mplan::emitOptionError(Location loc, StringRef pass,
                                                StringRef option,
                                                const Twine &message) {
  return mlir::emitError(loc)
         << "--" << pass << " option '" << option << "': " << message;
}
