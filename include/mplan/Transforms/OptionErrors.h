//===- OptionErrors.h - Errors about pass option values ---------*- C++ -*-===//
//
// How the mplan passes and pipelines report an option value they cannot use
// (an unknown strategy, an alignment that is not a power of two, a negative
// limit, ...): one error line that names the option as the user wrote it on
// the command line, at a location with a line, and without the IR printed
// after it.
//
//===----------------------------------------------------------------------===//

#ifndef MPLAN_TRANSFORMS_OPTIONERRORS_H
#define MPLAN_TRANSFORMS_OPTIONERRORS_H

#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/Operation.h"
#include "mlir/Support/LogicalResult.h"

namespace mlir {
namespace mplan {

/// Where a diagnostic about `op` as a whole goes: for a module, its first
/// function with a body (else its first function, its first op, or the
/// module itself when it is empty): the parser gives a module it creates
/// itself no line; else `op`'s own.
Location getDiagnosticLoc(Operation *op);

/// An error being reported, or not: a diagnostic to stream into when one is
/// emitted, and a failure either way. An empty InFlightDiagnostic (what a
/// function after the first gets) converts to success; this does not, so
/// every function of a function pass fails on a bad option, the first with
/// the error.
class OptionError {
public:
  OptionError(InFlightDiagnostic &&diag)
      : diag(std::move(diag)),
        // An InFlightDiagnostic is a failure exactly when it is active.
        active(failed(static_cast<LogicalResult>(this->diag))) {}
  template <typename Arg> OptionError &operator<<(Arg &&arg) & {
    if (active) // streaming into an empty diagnostic is an error
      diag << std::forward<Arg>(arg);
    return *this;
  }
  template <typename Arg> OptionError &&operator<<(Arg &&arg) && {
    return std::move(*this << std::forward<Arg>(arg));
  }
  operator LogicalResult() const { return failure(); }
  template <typename T> operator FailureOr<T>() const { return failure(); }

private:
  InFlightDiagnostic diag;
  bool active;
};

/// Emits `--PASS option 'OPTION': MESSAGE` as an error, where PASS is the
/// pass or pipeline the user named (`mplan-plan-pipeline`, not a pass it
/// runs). The location is getDiagnosticLoc(op). Unlike `op->emitError`, the op
/// is not printed as a note. So that a function pass reports an error once, not
/// once per function, the error is only emitted when `op` is the first op of
/// its kind in its block; the result is a failure either way (OptionError).
OptionError emitOptionError(Operation *op, StringRef pass, StringRef option,
                            const Twine &message);

/// The same error at `loc` (an op the option names, such as a function),
/// always emitted.
InFlightDiagnostic emitOptionError(Location loc, StringRef pass,
                                   StringRef option, const Twine &message);

} // namespace mplan
} // namespace mlir

#endif // MPLAN_TRANSFORMS_OPTIONERRORS_H
