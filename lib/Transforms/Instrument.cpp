//===- Instrument.cpp - Calls into the mplan memory observer --------------===//
//
// Inserts calls into libmplan_runtime.so (runtime/mplan_runtime.h): function
// entry/exit, every memref.alloc/alloca/dealloc, every arena and every planned
// buffer region from its definition to its last use.
//
// Planned buffers are the `memref.view` ops `convert-mplan-to-memref` tagged
// with `mplan.buffer_id`. Their end of life is recomputed here from the IR
// (forward alias closure: view-like ops, casts, region results and block
// arguments they flow into), independently of the live range the planner
// recorded, so a plan that is wrong for the program actually run is caught at
// run time. A buffer whose aliases reach another block of its region (CFG)
// stays live until its function returns (conservative).
//
//===----------------------------------------------------------------------===//

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mplan/Transforms/Passes.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/SymbolTable.h"
#include "mlir/Interfaces/ControlFlowInterfaces.h"
#include "mlir/Interfaces/DataLayoutInterfaces.h"
#include "mlir/Interfaces/ViewLikeInterface.h"
#include "llvm/ADT/SetVector.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/Support/Path.h"

namespace mlir {
namespace mplan {
#define GEN_PASS_DEF_MPLANINSTRUMENT
#include "mplan/Transforms/Passes.h.inc"
} // namespace mplan
} // namespace mlir

using namespace mlir;
using namespace mlir::mplan;

namespace {
/// Allocation kinds, as in runtime/mplan_runtime.h.
enum RtKind : int64_t { Heap = 0, Stack = 1, Static = 2, Argument = 3 };

constexpr llvm::StringLiteral kArenaAttr = "mplan.arena";
constexpr llvm::StringLiteral kBufferIdAttr = "mplan.buffer_id";
constexpr llvm::StringLiteral kLiveAttr = "mplan.live";
constexpr llvm::StringLiteral kStringTable = "__mplan_rt_strings";

/// The NUL-terminated strings the instrumented code passes to the runtime,
/// laid out in one constant global.
class StringTable {
public:
  int64_t get(StringRef s) {
    auto [it, inserted] = offsets.try_emplace(s, bytes.size());
    if (inserted) {
      bytes.append(s.begin(), s.end());
      bytes.push_back('\0');
    }
    return it->second;
  }
  ArrayRef<char> getBytes() const { return bytes; }

private:
  llvm::StringMap<int64_t> offsets;
  SmallVector<char> bytes;
};

struct MPlanInstrumentPass
    : public mlir::mplan::impl::MPlanInstrumentBase<MPlanInstrumentPass> {
  using Base::Base;
  void runOnOperation() override;
};
} // namespace

/// `file:line:col` (file without directories) for a location, or its printed
/// form.
static std::string describeLoc(Location loc) {
  if (auto file = dyn_cast<FileLineColLoc>(loc))
    return (llvm::sys::path::filename(file.getFilename().getValue()) + ":" +
            Twine(file.getLine()) + ":" + Twine(file.getColumn()))
        .str();
  if (auto name = dyn_cast<NameLoc>(loc))
    return (name.getName().getValue() + "@" + describeLoc(name.getChildLoc()))
        .str();
  if (auto callSite = dyn_cast<CallSiteLoc>(loc))
    return describeLoc(callSite.getCallee());
  if (auto fused = dyn_cast<FusedLoc>(loc))
    if (!fused.getLocations().empty())
      return describeLoc(fused.getLocations().front());
  std::string s;
  llvm::raw_string_ostream os(s);
  loc.print(os);
  return s;
}

static std::string siteName(Operation *op) {
  return describeLoc(op->getLoc()) + " " + op->getName().getStringRef().str();
}

/// The byte size of one element of `type` (data layout of `op`'s scope).
static int64_t elementBytes(Operation *op, Type type) {
  DataLayout layout = DataLayout::closest(op);
  llvm::TypeSize size = layout.getTypeSize(type);
  return size.isScalable() ? 0 : static_cast<int64_t>(size.getFixedValue());
}

/// The byte size of `value` (a memref of identity layout): static or computed
/// with memref.dim.
static Value buildByteSize(OpBuilder &b, Location loc, Operation *scope,
                           Value value) {
  auto type = cast<MemRefType>(value.getType());
  int64_t elementSize = elementBytes(scope, type.getElementType());
  int64_t staticProduct = elementSize;
  for (int64_t dim : type.getShape())
    if (!ShapedType::isDynamic(dim))
      staticProduct *= dim;
  Value size = arith::ConstantIndexOp::create(b, loc, staticProduct);
  for (auto [i, dim] : llvm::enumerate(type.getShape())) {
    if (!ShapedType::isDynamic(dim))
      continue;
    Value d = memref::DimOp::create(b, loc, value, i);
    size = arith::MulIOp::create(b, loc, size, d);
  }
  return size;
}

/// `value` and every memref value derived from it that may alias it.
static void forwardAliases(Value value, llvm::SetVector<Value> &aliases) {
  SmallVector<Value> worklist{value};
  aliases.insert(value);
  auto add = [&](Value v) {
    if (isa<BaseMemRefType>(v.getType()) && aliases.insert(v))
      worklist.push_back(v);
  };
  while (!worklist.empty()) {
    Value v = worklist.pop_back_val();
    for (OpOperand &use : v.getUses()) {
      Operation *user = use.getOwner();
      if (isa<memref::DeallocOp>(user))
        continue;
      // Terminators forward the value to region results / successors.
      if (user->hasTrait<OpTrait::IsTerminator>()) {
        if (auto branch = dyn_cast<BranchOpInterface>(user)) {
          for (auto [i, succ] : llvm::enumerate(user->getSuccessors())) {
            SuccessorOperands ops = branch.getSuccessorOperands(i);
            for (unsigned j = 0; j < ops.size(); ++j)
              if (ops[j] == v)
                add(succ->getArgument(ops.getProducedOperandCount() + j));
          }
        }
        if (Operation *parent = user->getParentOp())
          if (!isa<FunctionOpInterface>(parent))
            for (Value r : parent->getResults())
              add(r);
        continue;
      }
      // Ops with regions may forward operands to block arguments.
      for (Region &region : user->getRegions())
        for (Block &block : region)
          for (BlockArgument arg : block.getArguments())
            add(arg);
      // An arena passed to a function of the module: the callee's planned
      // buffers never escape it, so no result aliases the arena.
      if (auto call = dyn_cast<func::CallOp>(user)) {
        auto callee = SymbolTable::lookupNearestSymbolFrom<func::FuncOp>(
            call, call.getCalleeAttr());
        unsigned index = use.getOperandNumber();
        if (callee && index < callee.getNumArguments() &&
            callee.getArgAttr(index, kArenaAttr))
          continue;
      }
      // Results of anything taking the buffer (views, casts, selects, ...),
      // except allocations, which are new buffers.
      if (isa<memref::AllocOp, memref::AllocaOp,
              memref::ExtractAlignedPointerAsIndexOp>(user))
        continue;
      for (Value r : user->getResults())
        add(r);
    }
  }
}

/// Where the region of planned buffer `view` ends: the op after which to
/// insert the end call (`after` = true) or before which (`after` = false).
/// Returns failure when the buffer lives until the function returns.
static FailureOr<std::pair<Operation *, bool>> findEnd(Operation *view) {
  llvm::SetVector<Value> aliases;
  forwardAliases(view->getResult(0), aliases);
  Block *block = view->getBlock();
  Operation *last = view;
  for (Value alias : aliases) {
    for (OpOperand &use : alias.getUses()) {
      Operation *ancestor = block->findAncestorOpInBlock(*use.getOwner());
      if (!ancestor)
        return failure(); // used in another block: live until the exit
      if (last->isBeforeInBlock(ancestor))
        last = ancestor;
    }
    if (auto arg = dyn_cast<BlockArgument>(alias))
      if (!block->findAncestorOpInBlock(*arg.getOwner()->getParentOp()) &&
          arg.getOwner() != block)
        return failure();
  }
  if (last->hasTrait<OpTrait::IsTerminator>()) {
    if (last->hasTrait<OpTrait::ReturnLike>() && last != view)
      return std::make_pair(last, false);
    return failure();
  }
  return std::make_pair(last, true);
}

void MPlanInstrumentPass::runOnOperation() {
  ModuleOp module = getOperation();
  MLIRContext *ctx = &getContext();
  if (module.lookupSymbol(kStringTable)) {
    module.emitError("mplan-instrument: the module is already instrumented "
                     "(it defines @")
        << kStringTable << ")";
    return signalPassFailure();
  }
  OpBuilder b(ctx);
  Type indexType = b.getIndexType();

  // The runtime's entry points.
  struct Decl {
    const char *name;
    unsigned numArgs;
  };
  const Decl decls[] = {
      {"mplan_rt_enter", 1},        {"mplan_rt_exit", 1},
      {"mplan_rt_alloc", 4},        {"mplan_rt_free", 2},
      {"mplan_rt_region_begin", 8}, {"mplan_rt_region_end", 2}};
  for (const Decl &decl : decls) {
    if (Operation *existing = module.lookupSymbol(decl.name)) {
      auto func = dyn_cast<func::FuncOp>(existing);
      if (!func || !func.isExternal() ||
          func.getNumArguments() != decl.numArgs) {
        existing->emitOpError("clashes with the mplan runtime function '")
            << decl.name << "'";
        return signalPassFailure();
      }
    }
  }

  SmallVector<func::FuncOp> funcs;
  for (auto func : module.getOps<func::FuncOp>())
    if (!func.isExternal())
      funcs.push_back(func);

  // Phase 1: decide every site before inserting anything (the inserted ops
  // would otherwise count as uses).
  StringTable strings;
  struct RegionEnd {
    Operation *view;
    Operation *at;
    bool after;
  };
  struct FuncPlan {
    func::FuncOp func;
    SmallVector<Operation *> ops; // allocs, allocas, deallocs, arenas, views
    SmallVector<RegionEnd> ends;
  };
  SmallVector<FuncPlan> plans;
  for (func::FuncOp func : funcs) {
    FuncPlan plan{func, {}, {}};
    strings.get(func.getSymName());
    func.walk([&](Operation *op) {
      bool wanted =
          isa<memref::AllocOp, memref::AllocaOp, memref::DeallocOp>(op) ||
          (isa<memref::GetGlobalOp>(op) && op->hasAttr(kArenaAttr)) ||
          (isa<memref::ViewOp>(op) && op->hasAttr(kBufferIdAttr));
      if (!wanted)
        return;
      plan.ops.push_back(op);
      strings.get(siteName(op));
      if (isa<memref::ViewOp>(op)) {
        FailureOr<std::pair<Operation *, bool>> end = findEnd(op);
        if (succeeded(end))
          plan.ends.push_back({op, end->first, end->second});
      }
    });
    for (BlockArgument arg : func.getArguments())
      if (func.getArgAttr(arg.getArgNumber(), kArenaAttr))
        strings.get(describeLoc(arg.getLoc()) + " arena argument");
    plans.push_back(std::move(plan));
  }

  // The string table.
  ArrayRef<char> bytes = strings.getBytes();
  auto tableType = MemRefType::get({static_cast<int64_t>(bytes.size())},
                                   b.getIntegerType(8));
  auto tensorType =
      RankedTensorType::get(tableType.getShape(), b.getIntegerType(8));
  SmallVector<int8_t> data(bytes.begin(), bytes.end());
  b.setInsertionPointToStart(module.getBody());
  memref::GlobalOp::create(
      b, module.getLoc(), kStringTable, b.getStringAttr("private"), tableType,
      DenseElementsAttr::get(tensorType, ArrayRef<int8_t>(data)),
      /*constant=*/true, /*alignment=*/IntegerAttr());
  for (const Decl &decl : decls) {
    if (module.lookupSymbol(decl.name))
      continue;
    SmallVector<Type> args(decl.numArgs, indexType);
    auto func = func::FuncOp::create(b, module.getLoc(), decl.name,
                                     b.getFunctionType(args, {}));
    func.setPrivate();
  }

  // Phase 2: insert the calls.
  for (FuncPlan &plan : plans) {
    func::FuncOp func = plan.func;
    Block &entry = func.getBody().front();
    b.setInsertionPointToStart(&entry);
    Location loc = func.getLoc();
    Value table = memref::GetGlobalOp::create(b, loc, tableType, kStringTable);
    Value tableBase =
        memref::ExtractAlignedPointerAsIndexOp::create(b, loc, table);
    auto str = [&](StringRef s) -> Value {
      Value offset = arith::ConstantIndexOp::create(b, loc, strings.get(s));
      return arith::AddIOp::create(b, loc, tableBase, offset);
    };
    auto constant = [&](int64_t v) -> Value {
      return arith::ConstantIndexOp::create(b, loc, v);
    };
    auto call = [&](StringRef name, ValueRange args) {
      func::CallOp::create(b, loc, name, TypeRange(), args);
    };
    auto pointer = [&](Value memref) -> Value {
      return memref::ExtractAlignedPointerAsIndexOp::create(b, loc, memref);
    };

    Value name = str(func.getSymName());
    call("mplan_rt_enter", {name});
    for (BlockArgument arg : func.getArguments()) {
      if (!func.getArgAttr(arg.getArgNumber(), kArenaAttr) ||
          !isa<MemRefType>(arg.getType()))
        continue;
      call("mplan_rt_alloc",
           {str(describeLoc(arg.getLoc()) + " arena argument"), pointer(arg),
            buildByteSize(b, loc, func, arg), constant(Argument)});
    }
    SmallVector<Operation *> returns;
    for (Block &block : func.getBody())
      if (block.mightHaveTerminator() &&
          isa<func::ReturnOp>(block.getTerminator()))
        returns.push_back(block.getTerminator());
    for (Operation *ret : returns) {
      b.setInsertionPoint(ret);
      loc = ret->getLoc();
      call("mplan_rt_exit", {str(func.getSymName())});
    }

    // Pointers of planned buffers' arenas, for their end calls.
    llvm::DenseMap<Operation *, Value> arenaPointers;
    // Where each begin call was inserted (the op after it).
    llvm::DenseMap<Operation *, Block::iterator> beginCalls;
    for (Operation *op : plan.ops) {
      loc = op->getLoc();
      std::string site = siteName(op);
      if (auto dealloc = dyn_cast<memref::DeallocOp>(op)) {
        b.setInsertionPoint(op);
        call("mplan_rt_free", {str(site), pointer(dealloc.getMemref())});
        continue;
      }
      b.setInsertionPointAfter(op);
      Value result = op->getResult(0);
      if (auto view = dyn_cast<memref::ViewOp>(op)) {
        auto id = op->getAttrOfType<IntegerAttr>(kBufferIdAttr);
        int64_t start = -1, end = -1;
        if (auto live = op->getAttrOfType<DenseI64ArrayAttr>(kLiveAttr);
            live && live.size() == 2) {
          start = live[0];
          end = live[1];
        }
        Value arenaPtr = pointer(view.getSource());
        arenaPointers[op] = arenaPtr;
        beginCalls[op] = b.getInsertionPoint();
        call("mplan_rt_region_begin",
             {str(site), constant(id ? id.getInt() : -1), arenaPtr,
              buildByteSize(b, loc, func, view.getSource()),
              view.getByteShift(), buildByteSize(b, loc, func, result),
              constant(start), constant(end)});
        continue;
      }
      int64_t kind = isa<memref::AllocaOp>(op)      ? Stack
                     : isa<memref::GetGlobalOp>(op) ? Static
                                                    : Heap;
      if (!cast<MemRefType>(result.getType()).getLayout().isIdentity() &&
          kind != Static) {
        op->emitWarning("mplan-instrument: allocation with a non-identity "
                        "layout is counted by its shape only");
      }
      call("mplan_rt_alloc",
           {str(site), pointer(result), buildByteSize(b, loc, func, result),
            constant(kind)});
    }
    for (RegionEnd &end : plan.ends) {
      if (end.at == end.view)
        b.setInsertionPoint(end.view->getBlock(), beginCalls.lookup(end.view));
      else if (end.after)
        b.setInsertionPointAfter(end.at);
      else
        b.setInsertionPoint(end.at);
      loc = end.view->getLoc();
      auto id = end.view->getAttrOfType<IntegerAttr>(kBufferIdAttr);
      call("mplan_rt_region_end",
           {constant(id ? id.getInt() : -1), arenaPointers.lookup(end.view)});
    }
  }
}
