//===- PlanBuffers.h - The buffers a function's planner sees ----*- C++ -*-===//
//
// What mplan-plan-buffers hands the planner library for one function, for the
// passes that reason about the same max-live bound before planning
// (sequencing, in-place reuse).
//
//===----------------------------------------------------------------------===//

#ifndef MPLAN_TRANSFORMS_PLANBUFFERS_H
#define MPLAN_TRANSFORMS_PLANBUFFERS_H

#include "mplan/Dialect/MPlan/IR/MPlanOps.h"
#include "mplan/Support/Planner.h"
#include "mplan/Transforms/Passes.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"

#include <limits>
#include <vector>

namespace mlir {
namespace mplan {
class BufferLiveness;
class PointsToAnalysis;

/// The unplanned buffers of one memory space of a function, as the planner
/// sees them.
struct SlabBuffers {
  Attribute memorySpace; ///< null for the default space
  SmallVector<AllocTensorOp> ops;
  /// Parallel to `ops`: id, live range, byte size and alignment (at least
  /// the element's ABI alignment).
  std::vector<::mplan::Buffer> buffers;
  /// The slab's alignment: the option's and every buffer's.
  int64_t alignment = 1;
};

/// The unplanned mplan.alloc_tensor ops of `func`, grouped by memory space
/// in order of first appearance, with their live ranges from `liveness`.
/// Fails, with an error at the op, if one of them cannot be planned.
FailureOr<SmallVector<SlabBuffers>>
collectSlabBuffers(func::FuncOp func, const BufferLiveness &liveness,
                   int64_t alignment);

/// The memory space `space` as the report and `capacity` keys print it:
/// empty for the default space.
std::string formatMemorySpace(Attribute space);

/// The max-live bound of each slab of `func` (collectSlabBuffers' order) with
/// the live ranges of `liveness`, named as formatMemorySpace names its space
/// (two slabs may share a name: `1` and `1 : i32`); std::nullopt for a bound
/// that overflows int64 (no bound). Fails where collectSlabBuffers fails.
FailureOr<SmallVector<std::pair<std::string, std::optional<int64_t>>>>
computeSpaceBounds(func::FuncOp func, const BufferLiveness &liveness,
                   int64_t alignment);

/// The op floor of `slab`: the most bytes of its buffers one op touches
/// itself (the planned buffers its memref operands and results surely point
/// into: the points-to analysis names one allocation; only the ops that
/// define or use an alias of them in `liveness` are looked at), and the op
/// (among equals the first in post-order: nested ops before the ops that
/// hold them). Every plan of every order keeps
/// those buffers live at once, so no reordering, recomputation or offload
/// brings the space below it; only tiling the op does. With `alignment` > 1,
/// each buffer counts at its size padded as the planner's bound pads it (to the
/// larger of its own and `alignment`), so that the floor compares with that
/// bound. The search stops at the first op that touches `enough` bytes or
/// more (the op floor is then at least `enough`, and that op is the one
/// returned): a caller that compares the floor with a bound asks no more.
std::pair<int64_t, Operation *>
computeOpFloor(const SlabBuffers &slab, const PointsToAnalysis &pointsTo,
               const BufferLiveness &liveness, int64_t alignment = 1,
               int64_t enough = std::numeric_limits<int64_t>::max());

/// The key formatMemorySpace gives the memory space an option names:
/// `default`, an integer memory space, or a `#gpu.address_space` keyword
/// (`global`, `workgroup`, `private`); std::nullopt if it names none.
std::optional<std::string> parseMemorySpaceKey(StringRef space);

/// Runs the planner on `buffers` with the strategy, time limit, alignment and
/// stagger of `options` and `capacity` (0: none); fails with an error at
/// `func` if it cannot plan them.
FailureOr<::mplan::Plan> runPlanner(func::FuncOp func,
                                    const std::vector<::mplan::Buffer> &buffers,
                                    const MPlanPlanBuffersOptions &options,
                                    int64_t capacity);

/// The max-live bound of `func`'s default-space buffers as they are now
/// (what the plan report calls `lower_bound_bytes`), recorded as the
/// function's `mplan.lower_bound_program_order` attribute unless an earlier
/// step (sequencing) already recorded one; returns the recorded bound. The
/// passes that lower the bound call it before they change anything.
std::optional<int64_t> recordProgramOrderBound(func::FuncOp func,
                                               const BufferLiveness &liveness,
                                               int64_t alignment);
/// The same with the slabs a step already collected (collectSlabBuffers of
/// `func` as it is now).
std::optional<int64_t> recordProgramOrderBound(func::FuncOp func,
                                               ArrayRef<SlabBuffers> slabs,
                                               int64_t alignment);

} // namespace mplan
} // namespace mlir

#endif // MPLAN_TRANSFORMS_PLANBUFFERS_H
