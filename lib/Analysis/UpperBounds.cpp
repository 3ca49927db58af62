//===- UpperBounds.cpp - Constant upper bounds of dynamic sizes -----------===//
//
// See UpperBounds.h. The IR is asked first with upstream's default stop
// condition (stop as soon as a constant bound is known). Only if that fails is
// the constraint set built again with the users' bounds: the stop condition,
// called once for every value (or shaped value's dimension) the set reaches,
// adds `arg <= N` / `dim(arg, d) <= N` when it reaches a function argument
// that carries a bound, and never stops the traversal. An argument's bound is
// its own attribute's, else the function's mplan.arg_upper_bound, else the
// pipeline's arg-upper-bound option.
//
//===----------------------------------------------------------------------===//

#include "mplan/Analysis/UpperBounds.h"

#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Affine/IR/ValueBoundsOpInterfaceImpl.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Arith/IR/ValueBoundsOpInterfaceImpl.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/MemRef/IR/ValueBoundsOpInterfaceImpl.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/SCF/IR/ValueBoundsOpInterfaceImpl.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/Tensor/IR/ValueBoundsOpInterfaceImpl.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/SymbolTable.h"
#include "mlir/Interfaces/ValueBoundsOpInterface.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/raw_ostream.h"

#include <limits>

using namespace mlir;
using namespace mlir::mplan;

/// The location to report a problem with argument `index` of `func` at.
static Location getArgLoc(FunctionOpInterface func, unsigned index) {
  if (func.isExternal())
    return func.getLoc();
  return func.getArgument(index).getLoc();
}

LogicalResult mlir::mplan::verifyUpperBoundAttrs(FunctionOpInterface func) {
  // Misplaced bounds would be ignored: errors, like their invalid values.
  StringRef funcName = SymbolTable::getSymbolName(func).getValue();
  for (StringLiteral name : {kUpperBoundAttr, kDimUpperBoundsAttr})
    if (func->hasAttr(name))
      return emitError(func.getLoc())
             << "function @" << funcName << " carries '" << name
             << "', which bounds an argument; put it on the argument, or '"
             << kArgUpperBoundAttr
             << "' on the function for every argument without a bound";
  for (unsigned index = 0, e = func.getNumResults(); index < e; ++index)
    for (StringLiteral name :
         {kUpperBoundAttr, kDimUpperBoundsAttr, kArgUpperBoundAttr})
      if (func.getResultAttr(index, name))
        return emitError(func.getLoc())
               << "result #" << index << " of @" << funcName << " carries '"
               << name << "', which bounds function arguments only";
  for (unsigned index = 0, e = func.getNumArguments(); index < e; ++index)
    if (func.getArgAttr(index, kArgUpperBoundAttr))
      return emitError(getArgLoc(func, index))
             << "argument #" << index << " carries '" << kArgUpperBoundAttr
             << "', which is a function attribute; bound the argument with '"
             << kUpperBoundAttr << "' (index) or '" << kDimUpperBoundsAttr
             << "' (memref, tensor)";
  if (Attribute attr = func->getAttr(kArgUpperBoundAttr)) {
    auto emit = [&]() {
      return emitError(func.getLoc())
             << "function @" << funcName << " carries '" << kArgUpperBoundAttr
             << "', ";
    };
    auto value = dyn_cast<IntegerAttr>(attr);
    if (!value || !value.getType().isInteger(64))
      return emit() << "which must be an i64 integer; got " << attr;
    if (value.getInt() <= 0)
      return emit() << "which must be a positive bound; got " << value.getInt();
  }
  ArrayRef<Type> argTypes = func.getArgumentTypes();
  for (unsigned index = 0, e = argTypes.size(); index < e; ++index) {
    Type type = argTypes[index];
    if (Attribute attr = func.getArgAttr(index, kUpperBoundAttr)) {
      auto emit = [&]() {
        return emitError(getArgLoc(func, index))
               << "argument #" << index << " carries '" << kUpperBoundAttr
               << "', ";
      };
      if (!type.isIndex())
        return emit() << "which bounds an argument of type 'index'; the "
                         "argument has type "
                      << type;
      auto value = dyn_cast<IntegerAttr>(attr);
      if (!value || !value.getType().isInteger(64))
        return emit() << "which must be an i64 integer; got " << attr;
      if (value.getInt() <= 0)
        return emit() << "which must be a positive bound; got "
                      << value.getInt();
    }
    if (Attribute attr = func.getArgAttr(index, kDimUpperBoundsAttr)) {
      auto emit = [&]() {
        return emitError(getArgLoc(func, index))
               << "argument #" << index << " carries '" << kDimUpperBoundsAttr
               << "', ";
      };
      auto shaped = dyn_cast<ShapedType>(type);
      if (!shaped || !isa<MemRefType, RankedTensorType>(type))
        return emit() << "which bounds the dimensions of a ranked memref or "
                         "tensor argument; the argument has type "
                      << type;
      auto bounds = dyn_cast<DenseI64ArrayAttr>(attr);
      if (!bounds)
        return emit() << "which must be an array<i64: ...>; got " << attr;
      if (bounds.size() != shaped.getRank())
        return emit() << "which needs one entry per dimension ("
                      << shaped.getRank() << "); got " << bounds.size();
      for (auto [dim, bound] : llvm::enumerate(bounds.asArrayRef())) {
        if (!shaped.isDynamicDim(dim) && bound != -1)
          return emit() << "whose entry " << bound
                        << " bounds static dimension " << dim << " of " << type
                        << "; use -1 there";
        if (shaped.isDynamicDim(dim) && bound != -1 && bound <= 0)
          return emit() << "whose entry for dimension " << dim
                        << " must be a positive bound or -1 (none); got "
                        << bound;
      }
    }
  }
  return success();
}

/// The bound the user states for `value` (dimension `dim` of a shaped value,
/// or the value itself), a function argument, and a description of it: the
/// argument's own attribute, else the function's kArgUpperBoundAttr, else
/// `defaultArgBound` (> 0; 0: none) for an index argument or a dynamic
/// dimension of a ranked memref or tensor argument.
static std::optional<SizeUpperBound>
getUserBound(Value value, std::optional<int64_t> dim, int64_t defaultArgBound) {
  auto arg = dyn_cast<BlockArgument>(value);
  if (!arg || !arg.getOwner()->isEntryBlock())
    return std::nullopt;
  auto func =
      dyn_cast_if_present<FunctionOpInterface>(arg.getOwner()->getParentOp());
  if (!func)
    return std::nullopt;
  unsigned index = arg.getArgNumber();
  std::string text;
  llvm::raw_string_ostream os(text);
  if (!dim) {
    if (!arg.getType().isIndex())
      return std::nullopt;
    auto attr = func.getArgAttrOfType<IntegerAttr>(index, kUpperBoundAttr);
    if (attr && attr.getInt() > 0) {
      os << kUpperBoundAttr << " " << attr.getInt() << " of %arg" << index;
      return SizeUpperBound{attr.getInt(), text};
    }
  } else {
    auto shaped = dyn_cast<ShapedType>(arg.getType());
    if (!shaped || !isa<MemRefType, RankedTensorType>(shaped) || *dim < 0 ||
        *dim >= shaped.getRank() || !shaped.isDynamicDim(*dim))
      return std::nullopt;
    auto attr =
        func.getArgAttrOfType<DenseI64ArrayAttr>(index, kDimUpperBoundsAttr);
    if (attr && *dim < attr.size() && attr[*dim] > 0) {
      os << kDimUpperBoundsAttr << " " << attr[*dim] << " of dimension " << *dim
         << " of %arg" << index;
      return SizeUpperBound{attr[*dim], text};
    }
  }
  // One bound for every argument without its own: the function's, else the
  // pipeline's.
  int64_t bound = defaultArgBound;
  auto funcAttr = func->getAttrOfType<IntegerAttr>(kArgUpperBoundAttr);
  if (funcAttr && funcAttr.getInt() > 0) {
    bound = funcAttr.getInt();
    os << kArgUpperBoundAttr << " " << bound << " of @"
       << SymbolTable::getSymbolName(func).getValue();
  } else if (bound > 0) {
    os << "arg-upper-bound=" << bound;
  } else {
    return std::nullopt;
  }
  os << " for ";
  if (dim)
    os << "dimension " << *dim << " of ";
  os << "%arg" << index;
  return SizeUpperBound{bound, text};
}

/// Whether dimension `dim` of `value` is a product or a sum that may leave
/// int64's range: of a collapse_shape, a group of source dimensions one of
/// which is dynamic and whose other dimensions are not all 1; a dynamic
/// dimension of a tensor.pad (low + source + high) or a tensor.concat (the
/// inputs' sum along its dimension).
static bool isWrappingDim(Value value, int64_t dim) {
  auto isProduct = [&](ShapedType source,
                       ArrayRef<ReassociationIndices> groups) {
    if (dim < 0 || dim >= static_cast<int64_t>(groups.size()))
      return false;
    unsigned dynamic = 0;
    bool scaled = false;
    for (int64_t index : groups[dim]) {
      if (source.isDynamicDim(index))
        ++dynamic;
      else if (source.getDimSize(index) != 1)
        scaled = true;
    }
    return dynamic > 1 || (dynamic == 1 && scaled);
  };
  if (auto collapse = value.getDefiningOp<memref::CollapseShapeOp>())
    return isProduct(collapse.getSrcType(), collapse.getReassociationIndices());
  if (auto collapse = value.getDefiningOp<tensor::CollapseShapeOp>())
    return isProduct(collapse.getSrcType(), collapse.getReassociationIndices());
  auto type = cast<ShapedType>(value.getType());
  if (isa_and_present<tensor::PadOp, tensor::ConcatOp>(value.getDefiningOp()))
    return dim >= 0 && dim < type.getRank() && type.isDynamicDim(dim);
  return false;
}

namespace {
/// A value-bounds constraint set that reads the bound it computes exactly.
/// Upstream's computeConstantBound narrows the bound to int64_t without a
/// check (getConstantBound64), so a bound of 2^63 (`%n + 1` with `%n` at most
/// 2^63 - 1) comes back as -2^63; the constraint system itself computes with
/// arbitrary-precision integers, and so does this.
class ExactBound : public ValueBoundsConstraintSet {
public:
  /// Without a stop condition, the traversal stops as soon as the variable
  /// (column 0) has a constant bound of `type`, as upstream's default does.
  ExactBound(MLIRContext *ctx, const StopConditionFn &stop,
             presburger::BoundType type = presburger::BoundType::UB)
      : ValueBoundsConstraintSet(
            ctx, stop ? stop
                      : [this](Value, std::optional<int64_t>,
                               ValueBoundsConstraintSet &) {
                          return cstr.getConstantBound(this->type, 0)
                              .has_value();
                        }),
        type(type) {}
  /// The closed constant bound of `value`, or std::nullopt (also when the
  /// bound might not hold at run time: see holdsAtRunTime).
  std::optional<llvm::DynamicAPInt> compute(Value value) {
    int64_t pos = insert(Variable(value), /*isSymbol=*/false);
    processWorklist();
    std::optional<llvm::DynamicAPInt> bound = cstr.getConstantBound(type, pos);
    // A bound outside int64 is no bound anyway (narrowBound says why).
    if (!bound ||
        (*bound >= std::numeric_limits<int64_t>::min() &&
         *bound <= std::numeric_limits<int64_t>::max() && !holdsAtRunTime()))
      return std::nullopt;
    return bound;
  }

private:
  /// Whether the constraint system's integers are the machine's on every
  /// run. They are arbitrary-precision, while index arithmetic wraps modulo
  /// 2^64 (`10 - 2 * n` is at most 10 to the system and 12 when `2 * n`
  /// wraps), and upstream models an unsigned `scf.for`'s induction variable
  /// as signed (`0 <= i < -1`: no value, any bound). So: no induction
  /// variable of an unsigned loop, and every value computed by arithmetic
  /// that may wrap (an arith add, sub, mul, shift or signed division, an
  /// affine.apply, any modelled op not known not to; every compound term of
  /// an affine map, each as a column of its own) has an
  /// exact range inside int64's, given that every other value lies in it as
  /// the machine's values do; so do the negated dividend of every affine
  /// ceildiv (lower-affine computes one of a non-positive value as
  /// `0 - ((0 - a) floordiv b)`) and `ub - 1 + step` of every `scf.for` whose
  /// induction variable is on the way (lowered, the loop steps `iv + step`,
  /// which must not wrap below `ub`); and no dimension of a collapse_shape
  /// that multiplies a dynamic dimension, nor a dynamic one of a pad or a
  /// concat, which sum (isWrappingDim). Then, value by
  /// value in program order, nothing wraps, and the system's values are the
  /// machine's. Call after the bound is read: it adds columns.
  bool holdsAtRunTime() {
    const int64_t lowest = std::numeric_limits<int64_t>::min();
    const int64_t highest = std::numeric_limits<int64_t>::max();
    llvm::SmallDenseSet<int64_t> checked;
    // The compound terms of the affine ops' maps, as columns.
    SmallVector<std::pair<AffineMap, ValueDimList>> terms, negated, lastSteps;
    for (const std::optional<ValueDim> &valueDim : positionToValueDim) {
      if (!valueDim)
        continue;
      Value value = valueDim->first;
      // A dimension of a collapse_shape is the product of its group's source
      // dimensions, which may wrap (4 x 2^62 of an empty memref) where the
      // system takes it as a size (at least 0): not the machine's value. So
      // may a pad's or a concat's sum (2^62 + 2^62 of an empty tensor).
      if (valueDim->second != kIndexValue &&
          isWrappingDim(value, valueDim->second))
        return false;
      if (auto arg = dyn_cast<BlockArgument>(value)) {
        auto loop = dyn_cast<scf::ForOp>(arg.getOwner()->getParentOp());
        if (loop && arg == loop.getInductionVar()) {
          if (loop.getUnsignedCmp())
            return false;
          // Lowered, the loop steps `iv + step` and compares: when that
          // wraps, it runs an iteration at a value below the lower bound.
          // ub - 1 + step must stay in int64.
          ValueDimList bounds = {{loop.getUpperBound(), std::nullopt},
                                 {loop.getStep(), std::nullopt}};
          MLIRContext *ctx = value.getContext();
          AffineExpr next =
              getAffineSymbolExpr(0, ctx) + getAffineSymbolExpr(1, ctx) - 1;
          lastSteps.push_back({AffineMap::get(0, 2, next), std::move(bounds)});
        }
      }
      AffineMap map;
      ValueRange operands;
      if (auto apply = value.getDefiningOp<affine::AffineApplyOp>())
        map = apply.getAffineMap(), operands = apply.getMapOperands();
      else if (auto min = value.getDefiningOp<affine::AffineMinOp>())
        map = min.getAffineMap(), operands = min.getMapOperands();
      else if (auto max = value.getDefiningOp<affine::AffineMaxOp>())
        map = max.getAffineMap(), operands = max.getMapOperands();
      if (!map)
        continue;
      ValueDimList list;
      for (Value operand : operands)
        list.push_back({operand, std::nullopt});
      auto asMap = [&](AffineExpr expr) {
        return AffineMap::get(map.getNumDims(), map.getNumSymbols(), expr);
      };
      for (AffineExpr result : map.getResults())
        result.walk([&](AffineExpr term) {
          auto binary = dyn_cast<AffineBinaryOpExpr>(term);
          if (!binary)
            return;
          terms.push_back({asMap(term), list});
          // lower-affine computes a ceildiv of a non-positive dividend as
          // -((0 - a) floordiv b): 0 - a wraps at INT64_MIN.
          if (binary.getKind() == AffineExprKind::CeilDiv)
            negated.push_back({asMap(-binary.getLHS()), list});
        });
    }
    for (auto &[map, list] : terms)
      checked.insert(insert(map, list, /*isSymbol=*/false));
    for (auto &[map, list] : negated)
      checked.insert(insert(map, list, /*isSymbol=*/false));
    for (auto &[map, list] : lastSteps)
      checked.insert(insert(map, list, /*isSymbol=*/false));
    FlatLinearConstraints machine = cstr;
    for (auto [pos, valueDim] : llvm::enumerate(positionToValueDim)) {
      if (!valueDim || checked.contains(pos))
        continue;
      auto [value, dim] = *valueDim;
      // Checked: the index results of modelled ops that may compute out of
      // int64's range (add, sub, mul, shifts, signed divisions, affine.apply,
      // and any op the list below does not know). Not checked: block
      // arguments and opaque ops (machine values the system knows nothing
      // else of), ops that cannot leave their operands' range (constants,
      // selects, min and max, unsigned division, remainders, sign
      // extension, dims; an affine min or max is one of its checked terms).
      Operation *op = value.getDefiningOp();
      if (dim == kIndexValue && op && isa<ValueBoundsOpInterface>(op) &&
          !isa<arith::ConstantOp, arith::SelectOp, arith::MinSIOp,
               arith::MaxSIOp, arith::MinUIOp, arith::MaxUIOp, arith::DivUIOp,
               arith::RemSIOp, arith::RemUIOp, arith::ExtSIOp,
               affine::AffineMinOp, affine::AffineMaxOp, memref::DimOp,
               tensor::DimOp>(op)) {
        checked.insert(pos);
        continue;
      }
      // A machine value.
      machine.addBound(presburger::BoundType::LB, pos,
                       dim == kIndexValue ? lowest : 0);
      machine.addBound(presburger::BoundType::UB, pos, highest);
    }
    for (int64_t pos : checked) {
      std::optional<llvm::DynamicAPInt> low =
          machine.getConstantBound(presburger::BoundType::LB, pos);
      std::optional<llvm::DynamicAPInt> high =
          machine.getConstantBound(presburger::BoundType::UB, pos);
      if (!low || !high || *low < lowest || *high > highest)
        return false;
    }
    return true;
  }

  presburger::BoundType type;
};
} // namespace

/// `bound` as an int64_t, or std::nullopt (with the bound's text in
/// `overflow`, if given, naming `sources`) when it does not fit.
static std::optional<int64_t> narrowBound(const llvm::DynamicAPInt &bound,
                                          StringRef sources,
                                          std::string *overflow) {
  if (bound <= std::numeric_limits<int64_t>::max() &&
      bound >= std::numeric_limits<int64_t>::min())
    return static_cast<int64_t>(bound);
  if (overflow) {
    overflow->clear();
    llvm::raw_string_ostream os(*overflow);
    bound.print(os);
    os << " (" << sources << ")";
  }
  return std::nullopt;
}

/// The bound of `type` of `value` with the bounds stated on the function's
/// arguments (or `defaultArgBound`) added, and their sources in `used`
/// (empty when the traversal reached no bounded argument).
static std::optional<llvm::DynamicAPInt>
computeWithUserBounds(Value value, presburger::BoundType type,
                      int64_t defaultArgBound,
                      SmallVectorImpl<std::string> &used) {
  auto addUserBounds = [&](Value reached, std::optional<int64_t> dim,
                           ValueBoundsConstraintSet &cstr) {
    if (std::optional<SizeUpperBound> bound =
            getUserBound(reached, dim, defaultArgBound)) {
      // A stated bound bounds a size: the value lies in [0, N] (check-bounds
      // checks it unsigned, so a negative value fails it too).
      if (dim) {
        cstr.bound(reached)[*dim] <= bound->value;
      } else {
        cstr.bound(reached) <= bound->value;
        cstr.bound(reached) >= 0;
      }
      used.push_back(std::move(bound->source));
    }
    // Never stop: the bound may need values further up.
    return false;
  };
  return ExactBound(value.getContext(), addUserBounds, type).compute(value);
}

std::optional<SizeUpperBound>
mlir::mplan::computeSizeUpperBound(Value size, int64_t defaultArgBound,
                                   std::string *overflow) {
  if (overflow)
    overflow->clear();
  std::optional<llvm::DynamicAPInt> fromIR =
      ExactBound(size.getContext(), nullptr).compute(size);
  if (fromIR)
    if (std::optional<int64_t> bound =
            narrowBound(*fromIR, "derived from the IR", overflow))
      return SizeUpperBound{*bound, "derived from the IR"};

  // The bounds the user states can only lower a bound the IR implies (they
  // add constraints): try them also when that one does not fit.
  SmallVector<std::string> used;
  std::optional<llvm::DynamicAPInt> withUser = computeWithUserBounds(
      size, presburger::BoundType::UB, defaultArgBound, used);
  if (!withUser || used.empty())
    return std::nullopt;
  std::string sources = llvm::join(used, ", ");
  std::optional<int64_t> bound = narrowBound(*withUser, sources, overflow);
  if (!bound)
    return std::nullopt;
  return SizeUpperBound{*bound, std::move(sources), /*stated=*/true};
}

std::optional<int64_t> mlir::mplan::computeLowerBound(Value value,
                                                      bool withStated) {
  std::optional<llvm::DynamicAPInt> bound =
      ExactBound(value.getContext(), nullptr, presburger::BoundType::LB)
          .compute(value);
  SmallVector<std::string> used;
  if (!bound && withStated)
    bound = computeWithUserBounds(value, presburger::BoundType::LB,
                                  /*defaultArgBound=*/0, used);
  if (!bound || *bound > std::numeric_limits<int64_t>::max() ||
      *bound < std::numeric_limits<int64_t>::min())
    return std::nullopt;
  return static_cast<int64_t>(*bound);
}

void mlir::mplan::registerUpperBoundInterfaces(DialectRegistry &registry) {
  affine::registerValueBoundsOpInterfaceExternalModels(registry);
  arith::registerValueBoundsOpInterfaceExternalModels(registry);
  memref::registerValueBoundsOpInterfaceExternalModels(registry);
  scf::registerValueBoundsOpInterfaceExternalModels(registry);
  tensor::registerValueBoundsOpInterfaceExternalModels(registry);
}
