//===- MPlanOps.h - mplan dialect operations --------------------*- C++ -*-===//

#ifndef MPLAN_DIALECT_MPLAN_IR_MPLANOPS_H
#define MPLAN_DIALECT_MPLAN_IR_MPLANOPS_H

#include "mlir/Bytecode/BytecodeOpInterface.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/OpDefinition.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "mlir/Interfaces/ViewLikeInterface.h"
#include "mplan/Dialect/MPlan/IR/MPlanDialect.h"

#include <optional>
#include <string>

#define GET_OP_CLASSES
#include "mplan/Dialect/MPlan/IR/MPlanOps.h.inc"

namespace mlir {
namespace mplan {

/// How one element of a memref is laid out once lowered to LLVM: `size` is
/// the distance between consecutive elements (LLVM's allocation size, never
/// less) and `alignment` the alignment its address needs (LLVM's ABI
/// alignment, never less).
struct ElementLayout {
  int64_t size;
  int64_t alignment;
};

/// The layout of an element of type `type`, or failure for an element type
/// without a fixed size. Integers and floats take their store size rounded up
/// to a power of two, aligned to that (`i24` takes 4 bytes, `f80` 16);
/// `index` is `i64`; a complex number is two parts aligned as one. A 1-D
/// vector packs its elements at their bit width and takes its store size
/// rounded up to a power of two, aligned to that (`vector<3xf32>` takes 16
/// bytes, `vector<8xi1>` 1); an n-D vector is an array of its innermost 1-D
/// vector (`vector<5x3xf32>` takes 5 x 16 = 80 bytes, aligned to 16).
FailureOr<ElementLayout> getElementLayout(Type type);

/// The `size` of getElementLayout.
FailureOr<int64_t> getElementByteSize(Type type);

/// Returns the number of bytes spanned by a statically shaped memref with a
/// static strided layout, from its first element to one past its last
/// addressable element, or failure if the layout is not static or the size
/// overflows. An empty memref spans 0 bytes.
FailureOr<int64_t> getMemRefByteSize(MemRefType type);

/// Whether `type` has the identity layout (MemRefLayoutAttrInterface::
/// isIdentity), without building the affine map of a strided layout: only a
/// one-dimensional `strided<[1]>` at offset 0 is the identity.
bool hasIdentityLayout(MemRefType type);

/// MemRefType::getStridesAndOffset, without building and simplifying the
/// affine expression of an identity layout over a static shape (row-major
/// strides, offset 0): the planner asks this of every buffer and view.
LogicalResult getStridesAndOffset(MemRefType type,
                                  SmallVectorImpl<int64_t> &strides,
                                  int64_t &offset);

/// Checks that `result` is a valid type for an mplan.view of a `source` at
/// `byteOffset` bytes (same element type and memory space, static strided
/// layouts, layout offsets that agree with the byte offset, every element
/// inside the source); returns why not, or std::nullopt if it is.
std::optional<std::string> checkViewTypes(MemRefType source, int64_t byteOffset,
                                          MemRefType result);

/// The planner buffer (an mplan.alloc_tensor result) that `value` is, or that
/// the mplan.view defining `value` views; null otherwise.
Value getViewRoot(Value value);

/// Patterns that turn memref view-like ops (subview, expand_shape,
/// collapse_shape, reinterpret_cast, cast, memref.view) of planner buffers
/// into one mplan.view of the buffer with exactly the same result type.
/// Together with ViewOp's folder (view of view, identity view) and the
/// removal of dead pure ops, they reduce every static view chain on a
/// planner buffer to one mplan.view of it.
void populateViewFoldingPatterns(RewritePatternSet &patterns);

} // namespace mplan
} // namespace mlir

#endif // MPLAN_DIALECT_MPLAN_IR_MPLANOPS_H
