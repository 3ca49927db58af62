//===- BufferLiveness.h - Live ranges of planned buffers --------*- C++ -*-===//
//
// Numbers the operations of a function in evaluation order and computes, for
// every buffer, the half-open range [def, last use + 1) of that numbering in
// which the buffer or anything that may alias it is used.
//
//===----------------------------------------------------------------------===//

#ifndef MPLAN_ANALYSIS_BUFFERLIVENESS_H
#define MPLAN_ANALYSIS_BUFFERLIVENESS_H

#include "mlir/IR/Operation.h"
#include "mlir/IR/Value.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/SmallVector.h"
#include <optional>
#include <string>

namespace mlir {
namespace mplan {

/// A half-open interval [start, end) of op indices.
struct LiveRange {
  int64_t start = 0;
  int64_t end = 0;
  bool overlaps(const LiveRange &other) const {
    return start < other.end && other.start < end;
  }
};

/// Live ranges of the buffers of one function.
///
/// The numbering ("sequenced SSA") gives each operation of the function's
/// body an index in program order; an operation nested in a region is
/// charged to its ancestor in the body, so a buffer used inside a loop is
/// live for the whole loop.
class BufferLiveness {
public:
  /// Analyzes `funcOp`, an operation with one region (a function).
  explicit BufferLiveness(Operation *funcOp);

  /// The index of `op`'s ancestor in the function body, or -1 if `op` is not
  /// inside the analyzed function.
  int64_t getIndex(Operation *op) const;

  /// The number of indices used by the numbering.
  int64_t getNumIndices() const { return numIndices; }

  /// The live range of `buffer`, a value defined in the function body, over
  /// all its uses and the uses of everything that may alias it.
  LiveRange getLiveRange(Value buffer) const;

  /// Why `buffer` cannot be given a planned slot (it escapes, it is captured
  /// by an op whose effects are unknown, its function has a control flow the
  /// analysis does not model, ...), or std::nullopt if it can.
  std::optional<std::string> getUnplannableReason(Value buffer) const;

  /// Appends `buffer` and every value that may alias it to `aliases`.
  void getAliases(Value buffer, SmallVectorImpl<Value> &aliases) const;

private:
  Operation *funcOp;
  llvm::DenseMap<Operation *, int64_t> indices;
  int64_t numIndices = 0;
};

} // namespace mplan
} // namespace mlir

#endif // MPLAN_ANALYSIS_BUFFERLIVENESS_H
