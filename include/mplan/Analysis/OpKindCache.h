//===- OpKindCache.h - Interfaces of op kinds, memoized ---------*- C++ -*-===//
//
// The analyses ask, for every use of every buffer, which interfaces the user
// implements (BufferLiveness::getHiddenAccessReason). An interface lookup
// searches the op name's interface map; this cache answers the questions
// asked together with one table lookup per op name.
//
//===----------------------------------------------------------------------===//

#ifndef MPLAN_ANALYSIS_OPKINDCACHE_H
#define MPLAN_ANALYSIS_OPKINDCACHE_H

#include "mlir/IR/Operation.h"
#include "llvm/ADT/DenseMap.h"

namespace mlir {
namespace mplan {

/// Which of the interfaces getHiddenAccessReason asks about an op implements,
/// memoized per op name. An analysis keeps one for its lifetime (the
/// interfaces of an op name do not change meanwhile); it is not shared
/// between threads.
class OpKindCache {
public:
  struct Kind {
    bool call = false;
    bool memoryEffects = false;
    bool destinationStyle = false;
    bool regionBranch = false;
  };
  /// The kind of `op`'s name.
  const Kind &get(Operation *op);
  /// The kind of `op`'s name, looked up without a cache.
  static Kind compute(Operation *op);

private:
  llvm::DenseMap<OperationName, Kind> kinds;
};

} // namespace mplan
} // namespace mlir

#endif // MPLAN_ANALYSIS_OPKINDCACHE_H
