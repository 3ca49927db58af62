//===- MPlanOps.cpp - mplan dialect operations ----------------------------===//

#include "mplan/Dialect/MPlan/IR/MPlanOps.h"

#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/OpImplementation.h"
#include "llvm/Support/CheckedArithmetic.h"
#include "llvm/Support/MathExtras.h"

using namespace mlir;
using namespace mlir::mplan;

//===----------------------------------------------------------------------===//
// Size helpers
//===----------------------------------------------------------------------===//

FailureOr<int64_t> mlir::mplan::getElementByteSize(Type type) {
  if (type.isIndex())
    return int64_t(8);
  if (type.isIntOrFloat())
    return int64_t(llvm::divideCeil(type.getIntOrFloatBitWidth(), 8));
  if (auto complex = dyn_cast<ComplexType>(type)) {
    FailureOr<int64_t> part = getElementByteSize(complex.getElementType());
    if (failed(part))
      return failure();
    return 2 * *part;
  }
  if (auto vector = dyn_cast<VectorType>(type)) {
    if (vector.isScalable())
      return failure();
    FailureOr<int64_t> part = getElementByteSize(vector.getElementType());
    if (failed(part))
      return failure();
    std::optional<int64_t> total = llvm::checkedMul<int64_t>(
        *part, static_cast<int64_t>(vector.getNumElements()));
    if (!total)
      return failure();
    return *total;
  }
  return failure();
}

namespace {
/// The range of element indices (relative to the layout offset) that a
/// statically shaped, statically strided memref can address: [min, max].
/// `empty` is set for a memref with no elements.
struct ElementSpan {
  int64_t offset = 0;
  int64_t min = 0;
  int64_t max = 0;
  bool empty = false;
};
} // namespace

static FailureOr<ElementSpan> getElementSpan(MemRefType type) {
  SmallVector<int64_t> strides;
  int64_t offset;
  if (!type.hasStaticShape() ||
      failed(type.getStridesAndOffset(strides, offset)) ||
      ShapedType::isDynamic(offset) ||
      llvm::any_of(strides, ShapedType::isDynamic))
    return failure();
  ElementSpan span;
  span.offset = offset;
  for (auto [dim, stride] : llvm::zip_equal(type.getShape(), strides)) {
    if (dim == 0) {
      span.empty = true;
      continue;
    }
    std::optional<int64_t> reach = llvm::checkedMul<int64_t>(dim - 1, stride);
    if (!reach)
      return failure();
    std::optional<int64_t> next =
        llvm::checkedAdd<int64_t>(*reach < 0 ? span.min : span.max, *reach);
    if (!next)
      return failure();
    (*reach < 0 ? span.min : span.max) = *next;
  }
  return span;
}

FailureOr<int64_t> mlir::mplan::getMemRefByteSize(MemRefType type) {
  FailureOr<int64_t> elementSize = getElementByteSize(type.getElementType());
  FailureOr<ElementSpan> span = getElementSpan(type);
  if (failed(elementSize) || failed(span))
    return failure();
  if (span->empty)
    return int64_t(0);
  std::optional<int64_t> count = llvm::checkedAdd<int64_t>(
      span->max, 1); // min is 0 for non-negative strides
  if (span->min != 0 || !count)
    return failure();
  std::optional<int64_t> bytes = llvm::checkedMul<int64_t>(*count, *elementSize);
  if (!bytes)
    return failure();
  return *bytes;
}

//===----------------------------------------------------------------------===//
// AllocTensorOp
//===----------------------------------------------------------------------===//

FailureOr<int64_t> AllocTensorOp::getByteSize() {
  return getMemRefByteSize(getMemref().getType());
}

LogicalResult AllocTensorOp::verify() {
  if (getId() < 0)
    return emitOpError("id must be non-negative, got ") << getId();
  if (getStart().has_value() != getEnd().has_value())
    return emitOpError("expects both 'start' and 'end' or neither");
  if (getStart() && (*getStart() < 0 || *getEnd() <= *getStart()))
    return emitOpError("live range [")
           << *getStart() << ", " << *getEnd()
           << ") must be non-empty and non-negative";
  int64_t alignment = getAlignment().value_or(1);
  if (alignment <= 0 || !llvm::isPowerOf2_64(alignment))
    return emitOpError("alignment must be a positive power of two, got ")
           << alignment;
  FailureOr<int64_t> size = getByteSize();
  if (failed(size))
    return emitOpError("element type ")
           << getMemref().getType().getElementType()
           << " has no fixed byte size or the buffer size overflows";
  if (static_cast<bool>(getSlab()) != getOffset().has_value())
    return emitOpError("expects a slab and an offset together");
  if (!getSlab())
    return success();

  auto slabType = cast<SlabType>(getSlab().getType());
  int64_t offset = *getOffset();
  if (offset < 0)
    return emitOpError("offset must be non-negative, got ") << offset;
  if (offset % alignment != 0)
    return emitOpError("offset ")
           << offset << " is not a multiple of the alignment " << alignment;
  if (alignment > slabType.getAlignment())
    return emitOpError("alignment ")
           << alignment << " exceeds the slab's alignment "
           << slabType.getAlignment();
  int64_t elementSize =
      *getElementByteSize(getMemref().getType().getElementType());
  if (elementSize != 0 && offset % elementSize != 0 &&
      llvm::isPowerOf2_64(elementSize))
    return emitOpError("offset ")
           << offset << " is not a multiple of the element size "
           << elementSize;
  std::optional<int64_t> endByte = llvm::checkedAdd<int64_t>(offset, *size);
  if (!endByte || *endByte > slabType.getSize())
    return emitOpError("bytes [")
           << offset << ", " << offset << " + " << *size
           << ") do not fit in a slab of " << slabType.getSize() << " bytes";
  return success();
}

//===----------------------------------------------------------------------===//
// ViewOp
//===----------------------------------------------------------------------===//

Value ViewOp::getViewSource() { return getSource(); }

LogicalResult ViewOp::verify() {
  MemRefType sourceType = getSource().getType();
  MemRefType resultType = getResult().getType();
  if (sourceType.getElementType() != resultType.getElementType())
    return emitOpError("element type ")
           << resultType.getElementType()
           << " differs from the source's element type "
           << sourceType.getElementType();
  if (sourceType.getMemorySpace() != resultType.getMemorySpace())
    return emitOpError("memory space differs from the source's");
  FailureOr<ElementSpan> source = getElementSpan(sourceType);
  if (failed(source))
    return emitOpError("source type ")
           << sourceType << " must have a static strided layout";
  FailureOr<ElementSpan> result = getElementSpan(resultType);
  if (failed(result))
    return emitOpError("result type ")
           << resultType << " must have a static strided layout";
  FailureOr<int64_t> elementSize =
      getElementByteSize(sourceType.getElementType());
  if (failed(elementSize) || *elementSize == 0)
    return emitOpError("element type has no fixed non-zero byte size");

  int64_t byteOffset = getByteOffset();
  if (byteOffset % *elementSize != 0)
    return emitOpError("byte offset ")
           << byteOffset << " is not a multiple of the element size "
           << *elementSize;
  std::optional<int64_t> expectedOffset =
      llvm::checkedAdd<int64_t>(source->offset, byteOffset / *elementSize);
  if (!expectedOffset || *expectedOffset != result->offset)
    return emitOpError("result layout offset ")
           << result->offset << " must equal the source's layout offset "
           << source->offset << " plus the byte offset " << byteOffset
           << " in elements";
  if (result->empty)
    return success();
  if (source->empty)
    return emitOpError("views elements of an empty source");
  // Every addressable element of the view must be an element of the source.
  std::optional<int64_t> lo = llvm::checkedAdd<int64_t>(result->offset, result->min);
  std::optional<int64_t> hi = llvm::checkedAdd<int64_t>(result->offset, result->max);
  if (!lo || !hi || *lo < source->offset + source->min ||
      *hi > source->offset + source->max)
    return emitOpError("view addresses elements outside its source's bytes");
  return success();
}

OpFoldResult ViewOp::fold(FoldAdaptor) {
  // A view that reproduces its source is the source.
  if (getByteOffset() == 0 && getSource().getType() == getResult().getType())
    return getSource();
  // A view of a view is one view of the root.
  if (auto parent = getSource().getDefiningOp<ViewOp>()) {
    std::optional<int64_t> offset =
        llvm::checkedAdd<int64_t>(parent.getByteOffset(), getByteOffset());
    if (!offset)
      return {};
    getSourceMutable().assign(parent.getSource());
    setByteOffset(*offset);
    return getResult();
  }
  return {};
}

#define GET_OP_CLASSES
#include "mplan/Dialect/MPlan/IR/MPlanOps.cpp.inc"
