//===- PlanVerifier.h - Check a plan against fresh live ranges --*- C++ -*-===//
//
// The check behind `--mplan-verify-plan` and `convert-mplan-to-memref`'s
// `verify-plan` option: a plan stays valid only as long as the IR keeps the
// order it was planned in, so the live ranges are recomputed from the IR as
// it is (BufferLiveness, never the ranges recorded on the ops) and no two
// buffers of one slab that are live at the same time may share a byte.
// Buffers of different slabs (different memory spaces, different functions)
// never conflict. A planned buffer's bytes are its slab's, and its live range
// holds only for the uses the IR shows: no value that may alias it may be
// deallocated or have a use that would keep capture from planning it
// (BufferLiveness::getCaptureReason: freed, returned, passed to a call that
// `mplan.nocapture` does not list, stored, ...). Like every function pass,
// the check reads only the function it runs on. Offsets, alignments and slab
// bounds are the op verifier's.
//
//===----------------------------------------------------------------------===//

#ifndef MPLAN_ANALYSIS_PLANVERIFIER_H
#define MPLAN_ANALYSIS_PLANVERIFIER_H

#include "mlir/IR/Operation.h"
#include "mlir/Support/LLVM.h"

namespace mlir {
namespace mplan {

class BufferLiveness;

/// Checks every slab whose planned `mplan.alloc_tensor` ops are in `funcOp`
/// (an operation with one region, a function) against `liveness`, computed
/// on `funcOp` as it is now. On a conflict, emits an error at the buffer
/// that starts later ("shares bytes with buffer ID while both are live: ...")
/// with a note at the other one and fails. Sorts and sweeps the buffers of
/// each slab once: O(n log n) in the number of buffers.
LogicalResult verifyPlan(Operation *funcOp, const BufferLiveness &liveness);

/// Same, with live ranges recomputed here. Does nothing (and succeeds) for a
/// function without planned buffers.
LogicalResult verifyPlan(Operation *funcOp);

} // namespace mplan
} // namespace mlir

#endif // MPLAN_ANALYSIS_PLANVERIFIER_H
