//===- UpperBounds.h - Constant upper bounds of dynamic sizes ---*- C++ -*-===//
//
// Constant upper bounds of the dynamic sizes of buffers, so that a bounded
// dynamic buffer can be planned at its upper-bound size in the static arena.
//
// Sources, tried in this order for each dynamic size:
//   1. The IR alone: MLIR's value-bounds machinery (ValueBoundsOpInterface,
//      ValueBoundsConstraintSet::computeConstantBound) sees constants,
//      `affine.min` clamps, loop bounds, arithmetic, `memref.dim` /
//      `tensor.dim` of values with static or bounded dimensions.
//   2. Bounds the user states on the function's arguments:
//      `{mplan.upper_bound = N : i64}` on an index argument (the argument is
//      at most N) and `{mplan.dim_upper_bounds = array<i64: ...>}` on a
//      ranked memref or tensor argument (one entry per dimension: a bound
//      N > 0 for a dynamic dimension, -1 for a dimension without one, always
//      -1 for a static dimension). They are added as constraints of the same
//      constraint set whenever the analysis reaches the argument (or the
//      dimension of it), so arithmetic on bounded arguments is bounded
//      exactly as the constraint system can bound it: no monotonicity is
//      assumed.
//   3. A bound for every argument the function states once:
//      `{mplan.arg_upper_bound = N : i64}` on the function bounds every index
//      argument and every dynamic dimension of a ranked memref or tensor
//      argument that has no bound of its own (no attribute, or -1 in its
//      `mplan.dim_upper_bounds`).
//   4. The same for every function of a pipeline: the `arg-upper-bound=N`
//      option of mplan-capture-buffers / mplan-plan / mplan-plan-pipeline
//      (passed here as `defaultArgBound`), which the attributes override.
//
// Bounds are inclusive and exact: sizes are taken as integers, not as
// wrapping 64-bit values, and a bound that does not fit in int64 is no bound
// (the buffer is sized at run time or left unplanned with the reason), never
// a smaller one. Stating a bound is a promise about every call: a run
// that violates it writes past the buffer's slot.
//
//===----------------------------------------------------------------------===//

#ifndef MPLAN_ANALYSIS_UPPERBOUNDS_H
#define MPLAN_ANALYSIS_UPPERBOUNDS_H

#include "mlir/IR/DialectRegistry.h"
#include "mlir/IR/Value.h"
#include "mlir/Interfaces/FunctionInterfaces.h"
#include "mlir/Support/LLVM.h"
#include "llvm/ADT/StringRef.h"

#include <optional>
#include <string>

namespace mlir {
namespace mplan {

/// Argument attribute: an index argument is at most this (an i64 > 0).
constexpr llvm::StringLiteral kUpperBoundAttr = "mplan.upper_bound";
/// Argument attribute: per dimension of a ranked memref or tensor argument,
/// its upper bound (> 0) or -1 (none; the only value for static dimensions).
constexpr llvm::StringLiteral kDimUpperBoundsAttr = "mplan.dim_upper_bounds";
/// Function attribute: every index argument and every dynamic dimension of a
/// ranked memref or tensor argument without a bound of its own is at most
/// this (an i64 > 0).
constexpr llvm::StringLiteral kArgUpperBoundAttr = "mplan.arg_upper_bound";
/// What made a captured dynamic buffer plannable (a string on its
/// mplan.alloc_tensor, copied into the plan report's `bound`).
constexpr llvm::StringLiteral kBoundSourceAttr = "mplan.bound";
/// Default cap on the byte size of a buffer at its upper bound: a larger
/// derived bound counts as no bound (1 GiB).
constexpr int64_t kDefaultMaxBoundBytes = int64_t(1) << 30;

/// An inclusive constant upper bound of a dynamic size and where it came
/// from ("derived from the IR", "mplan.upper_bound 1024 of %arg1", ...).
struct SizeUpperBound {
  int64_t value = 0;
  std::string source;
  /// Whether the bound relies on a bound the user stated (a promise a run may
  /// break) rather than on the IR alone (a fact).
  bool stated = false;
};

/// Checks the bound attributes on the arguments of `func`: kUpperBoundAttr
/// only on index arguments, as an integer > 0; kDimUpperBoundsAttr only on
/// ranked memref or tensor arguments, as an i64 array with one entry per
/// dimension, -1 for static dimensions and -1 or > 0 for dynamic ones;
/// kArgUpperBoundAttr on the function as an i64 > 0. Emits an error at the
/// argument (or the function) otherwise.
LogicalResult verifyUpperBoundAttrs(FunctionOpInterface func);

/// The smallest constant upper bound of the index value `size` that the IR
/// and the bounds stated on the arguments of the function holding it imply,
/// or std::nullopt. The IR alone is tried first; the source names the user
/// bounds the result relied on. `defaultArgBound` (> 0; 0: none) bounds
/// every argument that neither its own attribute nor the function's
/// kArgUpperBoundAttr bounds (the pipeline's arg-upper-bound option).
///
/// The bound is computed exactly (the constraint system's arbitrary-precision
/// integers); one that does not fit in int64 is no bound: std::nullopt, with
/// `overflow` (if given) holding the bound and its sources
/// ("9223372036854775808 (mplan.upper_bound ... of %arg0)"); it stays empty
/// when there is no bound at all. A stated bound N makes its argument lie in
/// [0, N] (a size's range). A bound is given only where the machine's values
/// are the system's: no value on the way may wrap (each result of arithmetic
/// that wraps modulo 2^64, and each compound term of an affine map, has an
/// exact range inside int64's given that the other values lie in it), and no
/// unsigned `scf.for` (upstream models its induction variable as signed).
std::optional<SizeUpperBound>
computeSizeUpperBound(Value size, int64_t defaultArgBound = 0,
                      std::string *overflow = nullptr);

/// The largest constant lower bound of the index value `value` that the IR
/// implies, or with `withStated` also the bounds stated on the arguments of
/// the function holding it (each such argument then lies in [0, its bound]),
/// computed as computeSizeUpperBound's; std::nullopt if there is none.
std::optional<int64_t> computeLowerBound(Value value, bool withStated);

/// Registers the ValueBoundsOpInterface external models the analysis needs
/// (arith, affine, memref, scf, tensor) in `registry`; call it from the
/// getDependentDialects of a pass that uses computeSizeUpperBound.
void registerUpperBoundInterfaces(DialectRegistry &registry);

} // namespace mplan
} // namespace mlir

#endif // MPLAN_ANALYSIS_UPPERBOUNDS_H
