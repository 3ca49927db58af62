//===- MPlanOps.cpp - mplan dialect operations ----------------------------===//

#include "mplan/Dialect/MPlan/IR/MPlanOps.h"

#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/Matchers.h"
#include "mlir/IR/OpImplementation.h"
#include "mlir/IR/PatternMatch.h"
#include "mplan/Support/CheckedMath.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/Support/MathExtras.h"

using namespace mlir;
using namespace mlir::mplan;

//===----------------------------------------------------------------------===//
// Size helpers
//===----------------------------------------------------------------------===//

/// The store size in bytes of `bits` bits, and its natural alignment (the
/// store size rounded up to a power of two), as LLVM's data layout gives them
/// for integers, floats and fixed-size vectors without an explicit entry.
static ElementLayout getNaturalLayout(int64_t bits) {
  int64_t store = std::max<int64_t>(1, llvm::divideCeil(bits, 8));
  int64_t alignment = int64_t(llvm::PowerOf2Ceil(store));
  return {int64_t(llvm::alignTo(store, alignment)), alignment};
}

FailureOr<ElementLayout> mlir::mplan::getElementLayout(Type type) {
  // No element is larger than this: sizes stay far from overflow.
  constexpr int64_t kMaxBits = int64_t(1) << 50;
  if (type.isIndex())
    return getNaturalLayout(64);
  // MLIR caps integer widths at 2^24 bits: a scalar never overflows.
  if (type.isIntOrFloat())
    return getNaturalLayout(type.getIntOrFloatBitWidth());
  if (auto complex = dyn_cast<ComplexType>(type)) {
    // {T, T}: two parts, aligned as one.
    FailureOr<ElementLayout> part = getElementLayout(complex.getElementType());
    if (failed(part))
      return failure();
    return ElementLayout{2 * part->size, part->alignment};
  }
  if (auto vector = dyn_cast<VectorType>(type)) {
    // An n-D vector lowers to nested arrays of its innermost 1-D vector
    // (vector<5x3xf32> is [5 x <3 x float>]); a 1-D vector packs its elements
    // at their bit width (vector<8xi1> takes one byte).
    Type element = vector.getElementType();
    if (vector.isScalable() || !(element.isIndex() || element.isIntOrFloat()))
      return failure();
    int64_t bits = element.isIndex() ? 64 : element.getIntOrFloatBitWidth();
    ArrayRef<int64_t> shape = vector.getShape();
    int64_t inner = shape.empty() ? 1 : shape.back();
    std::optional<int64_t> innerBits = ::mplan::checkedMul(inner, bits);
    if (!innerBits || *innerBits > kMaxBits)
      return failure();
    ElementLayout layout = getNaturalLayout(*innerBits);
    int64_t outer = 1;
    for (int64_t dim : shape.drop_back()) {
      std::optional<int64_t> next = ::mplan::checkedMul(outer, dim);
      if (!next || *next > kMaxBits)
        return failure();
      outer = *next;
    }
    std::optional<int64_t> size = ::mplan::checkedMul(outer, layout.size);
    if (!size || *size > kMaxBits)
      return failure();
    return ElementLayout{*size, layout.alignment};
  }
  return failure();
}

FailureOr<int64_t> mlir::mplan::getElementByteSize(Type type) {
  FailureOr<ElementLayout> layout = getElementLayout(type);
  if (failed(layout))
    return failure();
  return layout->size;
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
  if (!type.hasStaticShape())
    return failure();
  // Fast path for the identity layout (every planner buffer): row-major
  // strides, offset 0. MemRefType::getStridesAndOffset would build and
  // simplify an affine expression for it, which dominates verification.
  if (hasIdentityLayout(type)) {
    ElementSpan span;
    int64_t stride = 1;
    for (int64_t dim : llvm::reverse(type.getShape())) {
      if (dim == 0) {
        span.empty = true;
        continue;
      }
      std::optional<int64_t> reach = ::mplan::checkedMul(dim - 1, stride);
      std::optional<int64_t> next =
          reach ? ::mplan::checkedAdd(span.max, *reach) : std::nullopt;
      std::optional<int64_t> nextStride = ::mplan::checkedMul(stride, dim);
      if (!next || !nextStride)
        return failure();
      span.max = *next;
      stride = *nextStride;
    }
    return span;
  }
  SmallVector<int64_t> strides;
  int64_t offset;
  if (failed(type.getStridesAndOffset(strides, offset)) ||
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
    std::optional<int64_t> reach = ::mplan::checkedMul(dim - 1, stride);
    if (!reach)
      return failure();
    std::optional<int64_t> next =
        ::mplan::checkedAdd(*reach < 0 ? span.min : span.max, *reach);
    if (!next)
      return failure();
    (*reach < 0 ? span.min : span.max) = *next;
  }
  return span;
}

bool mlir::mplan::hasIdentityLayout(MemRefType type) {
  if (auto strided = dyn_cast<StridedLayoutAttr>(type.getLayout()))
    return strided.getOffset() == 0 &&
           strided.getStrides() == ArrayRef<int64_t>{1};
  return type.getLayout().isIdentity();
}

LogicalResult mlir::mplan::getStridesAndOffset(
    MemRefType type, SmallVectorImpl<int64_t> &strides, int64_t &offset) {
  ArrayRef<int64_t> shape = type.getShape();
  if (hasIdentityLayout(type) && llvm::all_of(shape, [](int64_t dim) {
        return !ShapedType::isDynamic(dim) && dim > 0;
      })) {
    // Appended, as MemRefType::getStridesAndOffset does.
    SmallVector<int64_t> rowMajor(shape.size(), 1);
    int64_t stride = 1;
    for (size_t i = shape.size(); i-- > 0;) {
      rowMajor[i] = stride;
      if (!::mplan::mulInPlace(stride, shape[i]))
        return type.getStridesAndOffset(strides, offset);
    }
    llvm::append_range(strides, rowMajor);
    offset = 0;
    return success();
  }
  return type.getStridesAndOffset(strides, offset);
}

FailureOr<int64_t> mlir::mplan::getMemRefByteSize(MemRefType type) {
  FailureOr<int64_t> elementSize = getElementByteSize(type.getElementType());
  FailureOr<ElementSpan> span = getElementSpan(type);
  if (failed(elementSize) || failed(span))
    return failure();
  if (span->empty)
    return int64_t(0);
  std::optional<int64_t> count =
      ::mplan::checkedAdd(span->max, 1); // min is 0 for non-negative strides
  if (span->min != 0 || !count)
    return failure();
  std::optional<int64_t> bytes = ::mplan::checkedMul(*count, *elementSize);
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

/// Checks the id, live range and alignment a planner buffer op carries.
static LogicalResult verifyBufferAttrs(Operation *op, int64_t id,
                                       std::optional<int64_t> start,
                                       std::optional<int64_t> end,
                                       int64_t alignment) {
  if (id < 0)
    return op->emitOpError("id must be non-negative, got ") << id;
  if (start.has_value() != end.has_value())
    return op->emitOpError("expects both 'start' and 'end' or neither");
  if (start && (*start < 0 || *end <= *start))
    return op->emitOpError("live range [")
           << *start << ", " << *end << ") must be non-empty and non-negative";
  if (alignment <= 0 || !llvm::isPowerOf2_64(alignment))
    return op->emitOpError("alignment must be a positive power of two, got ")
           << alignment;
  return success();
}

LogicalResult AllocSlabOp::verify() {
  std::optional<int64_t> capacity = getCapacity();
  if (!capacity)
    return success();
  if (getType().getSize() > *capacity)
    return emitOpError("size ")
           << getType().getSize() << " exceeds its capacity of " << *capacity
           << " bytes";
  for (Operation *user : getResult().getUsers())
    if (isa<AllocDynamicOp>(user))
      return emitOpError("has a capacity and holds a run-time sized buffer, "
                         "which would grow it at run time");
  return success();
}

LogicalResult AllocTensorOp::verify() {
  int64_t alignment = getAlignment().value_or(1);
  if (failed(
          verifyBufferAttrs(*this, getId(), getStart(), getEnd(), alignment)))
    return failure();
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
  if (getMemref().getType().getMemorySpace() != slabType.getMemorySpace())
    return emitOpError("memory space of the buffer differs from the slab's");
  int64_t offset = *getOffset();
  if (offset < 0)
    return emitOpError("offset must be non-negative, got ") << offset;
  if (offset % alignment != 0)
    return emitOpError("offset ")
           << offset << " is not a multiple of the alignment " << alignment;
  // The element's own alignment holds whatever the attribute says.
  int64_t elementAlignment =
      getElementLayout(getMemref().getType().getElementType())->alignment;
  if (offset % elementAlignment != 0)
    return emitOpError("offset ")
           << offset << " is not a multiple of the element alignment "
           << elementAlignment;
  if (std::max(alignment, elementAlignment) > slabType.getAlignment())
    return emitOpError("alignment ")
           << std::max(alignment, elementAlignment)
           << " exceeds the slab's alignment " << slabType.getAlignment();
  std::optional<int64_t> endByte = ::mplan::checkedAdd(offset, *size);
  if (!endByte || *endByte > slabType.getSize())
    return emitOpError("bytes [")
           << offset << ", " << offset << " + " << *size
           << ") do not fit in a slab of " << slabType.getSize() << " bytes";
  return success();
}

//===----------------------------------------------------------------------===//
// AllocDynamicOp
//===----------------------------------------------------------------------===//

int64_t AllocDynamicOp::getEffectiveAlignment() {
  FailureOr<ElementLayout> layout =
      getElementLayout(getMemref().getType().getElementType());
  return std::max<int64_t>(getAlignment().value_or(1),
                           succeeded(layout) ? layout->alignment : 1);
}

FailureOr<int64_t> AllocDynamicOp::getStaticByteFactor() {
  // The bytes of the type with every dynamic dimension 1.
  MemRefType type = getMemref().getType();
  SmallVector<int64_t> unitShape(type.getShape());
  for (int64_t &dim : unitShape)
    if (ShapedType::isDynamic(dim))
      dim = 1;
  return getMemRefByteSize(MemRefType::get(unitShape, type.getElementType()));
}

LogicalResult AllocDynamicOp::verify() {
  if (failed(verifyBufferAttrs(*this, getId(), getStart(), getEnd(),
                               getAlignment().value_or(1))))
    return failure();
  MemRefType type = getMemref().getType();
  if (getSizes().size() != static_cast<size_t>(type.getNumDynamicDims()))
    return emitOpError("expects one size per dynamic dimension (")
           << type.getNumDynamicDims() << "), got " << getSizes().size();
  if (failed(getElementLayout(type.getElementType())))
    return emitOpError("element type ")
           << type.getElementType() << " has no fixed byte size";
  if (failed(getStaticByteFactor()))
    return emitOpError("the byte size of its static dimensions overflows "
                       "int64");
  if (static_cast<bool>(getSlab()) != static_cast<bool>(getAbove()))
    return emitOpError("expects a slab and an 'above' list together");
  if (!getSlab())
    return success();
  auto slabType = cast<SlabType>(getSlab().getType());
  if (type.getMemorySpace() != slabType.getMemorySpace())
    return emitOpError("memory space of the buffer differs from the slab's");
  if (getEffectiveAlignment() > slabType.getAlignment())
    return emitOpError("alignment ")
           << getEffectiveAlignment() << " exceeds the slab's alignment "
           << slabType.getAlignment();
  llvm::SmallDenseSet<int64_t> seen;
  for (int64_t id : getAboveAttr().asArrayRef()) {
    if (id == getId())
      return emitOpError("is listed above itself (id ") << id << ")";
    if (!seen.insert(id).second)
      return emitOpError("lists id ") << id << " twice in 'above'";
  }
  return success();
}

//===----------------------------------------------------------------------===//
// ViewOp
//===----------------------------------------------------------------------===//

Value ViewOp::getViewSource() { return getSource(); }

std::optional<std::string> mlir::mplan::checkViewTypes(MemRefType sourceType,
                                                       int64_t byteOffset,
                                                       MemRefType resultType) {
  auto describe = [](auto &&...parts) {
    std::string text;
    llvm::raw_string_ostream os(text);
    (os << ... << parts);
    return text;
  };
  if (sourceType.getElementType() != resultType.getElementType())
    return describe("element type '", resultType.getElementType(),
                    "' differs from the source's element type '",
                    sourceType.getElementType(), "'");
  if (sourceType.getMemorySpace() != resultType.getMemorySpace())
    return describe("memory space differs from the source's");
  FailureOr<ElementSpan> source = getElementSpan(sourceType);
  if (failed(source))
    return describe("source type '", sourceType,
                    "' must have a static strided layout");
  FailureOr<ElementSpan> result = getElementSpan(resultType);
  if (failed(result))
    return describe("result type '", resultType,
                    "' must have a static strided layout");
  FailureOr<int64_t> elementSize =
      getElementByteSize(sourceType.getElementType());
  if (failed(elementSize) || *elementSize == 0)
    return describe("element type has no fixed non-zero byte size");

  if (byteOffset % *elementSize != 0)
    return describe("byte offset ", byteOffset,
                    " is not a multiple of the element size ", *elementSize);
  std::optional<int64_t> expectedOffset =
      ::mplan::checkedAdd(source->offset, byteOffset / *elementSize);
  if (!expectedOffset || *expectedOffset != result->offset)
    return describe("result layout offset ", result->offset,
                    " must equal the source's layout offset ", source->offset,
                    " plus the byte offset ", byteOffset, " in elements");
  if (result->empty)
    return std::nullopt;
  if (source->empty)
    return describe("views elements of an empty source");
  // Every addressable element of the view must be an element of the source.
  std::optional<int64_t> lo = ::mplan::checkedAdd(result->offset, result->min);
  std::optional<int64_t> hi = ::mplan::checkedAdd(result->offset, result->max);
  if (!lo || !hi || *lo < source->offset + source->min ||
      *hi > source->offset + source->max)
    return describe("view addresses elements outside its source's bytes");
  return std::nullopt;
}

LogicalResult ViewOp::verify() {
  if (std::optional<std::string> error = checkViewTypes(
          getSource().getType(), getByteOffset(), getResult().getType()))
    return emitOpError(*error);
  return success();
}

OpFoldResult ViewOp::fold(FoldAdaptor) {
  // A view that reproduces its source is the source.
  if (getByteOffset() == 0 && getSource().getType() == getResult().getType())
    return getSource();
  // A view of a view is one view of the root.
  if (auto parent = getSource().getDefiningOp<ViewOp>()) {
    std::optional<int64_t> offset =
        ::mplan::checkedAdd(parent.getByteOffset(), getByteOffset());
    if (!offset)
      return {};
    getSourceMutable().assign(parent.getSource());
    setByteOffset(*offset);
    return getResult();
  }
  return {};
}

//===----------------------------------------------------------------------===//
// View canonicalization: memref view chains on planner buffers to mplan.view
//===----------------------------------------------------------------------===//

Value mlir::mplan::getViewRoot(Value value) {
  if (value.getDefiningOp<AllocTensorOp>())
    return value;
  if (auto view = value.getDefiningOp<ViewOp>())
    if (view.getSource().getDefiningOp<AllocTensorOp>())
      return view.getSource();
  return {};
}

/// Replaces `op`, a view-like op of `source` whose result has type
/// `resultType` and whose layout offset is relative to the base of `source`'s
/// underlying allocation, by one mplan.view of the planner buffer that
/// `source` views. The result type is kept exactly, so no user changes.
static LogicalResult replaceByRootView(Operation *op, Value source,
                                       MemRefType resultType,
                                       PatternRewriter &rewriter) {
  Value root = getViewRoot(source);
  if (!root)
    return rewriter.notifyMatchFailure(op, "source is not a planner buffer");
  auto rootType = cast<MemRefType>(root.getType());
  SmallVector<int64_t> strides;
  int64_t offset, rootOffset;
  if (failed(getStridesAndOffset(resultType, strides, offset)) ||
      ShapedType::isDynamic(offset) ||
      failed(getStridesAndOffset(rootType, strides, rootOffset)) ||
      ShapedType::isDynamic(rootOffset))
    return rewriter.notifyMatchFailure(op, "dynamic layout offset");
  FailureOr<int64_t> elementSize =
      getElementByteSize(rootType.getElementType());
  if (failed(elementSize))
    return rewriter.notifyMatchFailure(op, "element without a byte size");
  std::optional<int64_t> elements = ::mplan::checkedSub(offset, rootOffset);
  std::optional<int64_t> byteOffset =
      elements ? ::mplan::checkedMul(*elements, *elementSize) : std::nullopt;
  if (!byteOffset || checkViewTypes(rootType, *byteOffset, resultType))
    return rewriter.notifyMatchFailure(op, "not a static view of the root");
  rewriter.replaceOpWithNewOp<ViewOp>(op, resultType, root, *byteOffset);
  return success();
}

namespace {
/// subview, expand_shape, collapse_shape, reinterpret_cast and cast: the
/// result's layout offset is relative to the base of the source's
/// allocation, so the op is a view of the root at that offset.
template <typename OpTy>
struct FoldViewLikeIntoRootView : public OpRewritePattern<OpTy> {
  using OpRewritePattern<OpTy>::OpRewritePattern;
  LogicalResult matchAndRewrite(OpTy op,
                                PatternRewriter &rewriter) const override {
    auto resultType = dyn_cast<MemRefType>(op->getResult(0).getType());
    if (!resultType)
      return failure();
    return replaceByRootView(op, op->getOperand(0), resultType, rewriter);
  }
};

/// memref.view starts a new base at its byte shift: it is a view of the root
/// with the same type only when the shift is zero and the element type does
/// not change (an mplan.view never reinterprets elements).
struct FoldMemRefViewIntoRootView : public OpRewritePattern<memref::ViewOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(memref::ViewOp op,
                                PatternRewriter &rewriter) const override {
    if (!op.getSizes().empty() || !matchPattern(op.getByteShift(), m_Zero()))
      return rewriter.notifyMatchFailure(op, "non-zero or dynamic shift");
    return replaceByRootView(op, op.getSource(), op.getType(), rewriter);
  }
};
} // namespace

void mlir::mplan::populateViewFoldingPatterns(RewritePatternSet &patterns) {
  MLIRContext *ctx = patterns.getContext();
  patterns.add<FoldViewLikeIntoRootView<memref::SubViewOp>,
               FoldViewLikeIntoRootView<memref::ExpandShapeOp>,
               FoldViewLikeIntoRootView<memref::CollapseShapeOp>,
               FoldViewLikeIntoRootView<memref::ReinterpretCastOp>,
               FoldViewLikeIntoRootView<memref::CastOp>,
               FoldMemRefViewIntoRootView>(ctx);
}

void ViewOp::getCanonicalizationPatterns(RewritePatternSet &results,
                                         MLIRContext *context) {
  populateViewFoldingPatterns(results);
}

#define GET_OP_CLASSES
#include "mplan/Dialect/MPlan/IR/MPlanOps.cpp.inc"
