//===- MPlanDialect.h - mplan dialect and types -----------------*- C++ -*-===//

#ifndef MPLAN_DIALECT_MPLAN_IR_MPLANDIALECT_H
#define MPLAN_DIALECT_MPLAN_IR_MPLANDIALECT_H

#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/IR/Dialect.h"

#include "mplan/Dialect/MPlan/IR/MPlanOpsDialect.h.inc"

#define GET_TYPEDEF_CLASSES
#include "mplan/Dialect/MPlan/IR/MPlanOpsTypes.h.inc"

#endif // MPLAN_DIALECT_MPLAN_IR_MPLANDIALECT_H
