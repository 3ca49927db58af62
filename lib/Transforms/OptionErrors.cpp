//===- OptionErrors.cpp - Errors about pass option values -----------------===//

#include "mplan/Transforms/OptionErrors.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/Interfaces/FunctionInterfaces.h"

using namespace mlir;

/// Where an option error about a pass running on `op` goes: the first
/// function of a module (or the module's first op, or the module itself when
/// it is empty), else `op`.
static Location optionErrorLoc(Operation *op) {
  auto module = dyn_cast<ModuleOp>(op);
  if (!module)
    return op->getLoc();
  Block &body = *module.getBody();
  for (Operation &nested : body)
    if (isa<FunctionOpInterface>(nested))
      return nested.getLoc();
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

InFlightDiagnostic mlir::mplan::emitOptionError(Operation *op, StringRef pass,
                                                StringRef option,
                                                const Twine &message) {
  if (!isFirstOfItsKind(op))
    return InFlightDiagnostic();
  return emitOptionError(optionErrorLoc(op), pass, option, message);
}

InFlightDiagnostic mlir::mplan::emitOptionError(Location loc, StringRef pass,
                                                StringRef option,
                                                const Twine &message) {
  return mlir::emitError(loc)
         << "--" << pass << " option '" << option << "': " << message;
}
