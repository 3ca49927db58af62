//===- EntryValues.h - Values computable at a function's entry --*- C++ -*-===//
//
// A run-time sized buffer is placed by a symbolic plan evaluated where its
// slab is allocated, at the start of the function: its sizes must be
// computable there. A value is, if it is an argument of the function's entry
// block or the result of a pure op (no regions, no memory effects,
// speculatable: `arith` arithmetic without a possible division by zero,
// `memref.dim` / `tensor.dim` of a ranked value at a constant index, ...)
// whose operands are, within a budget of ops. A `memref.dim` of a buffer
// allocated with dynamic sizes stands for the size it was allocated with, and
// one of a `memref.reinterpret_cast` (a bounded buffer's view) for its size.
//
//===----------------------------------------------------------------------===//

#ifndef MPLAN_ANALYSIS_ENTRYVALUES_H
#define MPLAN_ANALYSIS_ENTRYVALUES_H

#include "mlir/IR/Builders.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/IR/Region.h"
#include "mlir/IR/Value.h"
#include <optional>
#include <string>

namespace mlir {
namespace mplan {

/// Why `value` cannot be computed at the start of the entry block of `body`
/// (a function's region), or std::nullopt if it can, with at most `maxOps`
/// ops to recompute.
std::optional<std::string> getEntryComputeReason(Value value, Region &body,
                                                 unsigned maxOps = 64);

/// Recomputes `values` (each computable per getEntryComputeReason) at the
/// insertion point of `builder`, cloning the pure ops they are made of once
/// (`mapping` remembers the clones across calls); entry arguments are used as
/// they are. Returns the values to use there, in order.
SmallVector<Value> cloneAtEntry(OpBuilder &builder, ValueRange values,
                                IRMapping &mapping);

} // namespace mplan
} // namespace mlir

#endif // MPLAN_ANALYSIS_ENTRYVALUES_H
