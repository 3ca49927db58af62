//===- MPlanOps.h - mplan dialect operations --------------------*- C++ -*-===//

#ifndef MPLAN_DIALECT_MPLAN_IR_MPLANOPS_H
#define MPLAN_DIALECT_MPLAN_IR_MPLANOPS_H

#include "mlir/Bytecode/BytecodeOpInterface.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/OpDefinition.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "mlir/Interfaces/ViewLikeInterface.h"
#include "mplan/Dialect/MPlan/IR/MPlanDialect.h"

#define GET_OP_CLASSES
#include "mplan/Dialect/MPlan/IR/MPlanOps.h.inc"

namespace mlir {
namespace mplan {

/// Returns the number of bytes one element of `type` occupies in memory
/// (integers and floats rounded up to whole bytes, `index` as 8 bytes,
/// complex and vector types as the sum of their parts), or failure for an
/// element type without a fixed size.
FailureOr<int64_t> getElementByteSize(Type type);

/// Returns the number of bytes spanned by a statically shaped memref with a
/// static strided layout, from its first element to one past its last
/// addressable element, or failure if the layout is not static or the size
/// overflows. An empty memref spans 0 bytes.
FailureOr<int64_t> getMemRefByteSize(MemRefType type);

} // namespace mplan
} // namespace mlir

#endif // MPLAN_DIALECT_MPLAN_IR_MPLANOPS_H
