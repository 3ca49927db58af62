//===- MPlanDialect.cpp - mplan dialect -----------------------------------===//

#include "mplan/Dialect/MPlan/IR/MPlanDialect.h"
#include "mplan/Dialect/MPlan/IR/MPlanOps.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/DialectImplementation.h"
#include "llvm/ADT/TypeSwitch.h"

using namespace mlir;
using namespace mlir::mplan;

#include "mplan/Dialect/MPlan/IR/MPlanOpsDialect.cpp.inc"

#define GET_TYPEDEF_CLASSES
#include "mplan/Dialect/MPlan/IR/MPlanOpsTypes.cpp.inc"

void MPlanDialect::initialize() {
  addOperations<
#define GET_OP_LIST
#include "mplan/Dialect/MPlan/IR/MPlanOps.cpp.inc"
      >();
  addTypes<
#define GET_TYPEDEF_LIST
#include "mplan/Dialect/MPlan/IR/MPlanOpsTypes.cpp.inc"
      >();
}

LogicalResult SlabType::verify(function_ref<InFlightDiagnostic()> emitError,
                               int64_t size, int64_t alignment,
                               Attribute memorySpace) {
  if (size < 0)
    return emitError() << "slab size must be non-negative, got " << size;
  if (alignment <= 0 || !llvm::isPowerOf2_64(alignment))
    return emitError() << "slab alignment must be a positive power of two, got "
                       << alignment;
  return success();
}
