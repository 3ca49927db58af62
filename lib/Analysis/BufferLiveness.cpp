//===- BufferLiveness.cpp - Live ranges of planned buffers ----------------===//

#include "mplan/Analysis/BufferLiveness.h"

#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/Interfaces/CallInterfaces.h"
#include "mlir/Interfaces/ControlFlowInterfaces.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "llvm/ADT/SmallPtrSet.h"

#include <limits>

using namespace mlir;
using namespace mlir::mplan;

BufferLiveness::BufferLiveness(Operation *funcOp) : funcOp(funcOp) {
  Region &body = funcOp->getRegion(0);
  for (Block &block : body)
    for (Operation &op : block)
      indices[&op] = numIndices++;
}

int64_t BufferLiveness::getIndex(Operation *op) const {
  Region *body = &funcOp->getRegion(0);
  Operation *ancestor = body->findAncestorOpInRegion(*op);
  if (!ancestor)
    return -1;
  return indices.lookup(ancestor);
}

static bool isMemRef(Value value) {
  return isa<BaseMemRefType>(value.getType());
}

void BufferLiveness::getAliases(Value buffer,
                                SmallVectorImpl<Value> &aliases) const {
  llvm::SmallPtrSet<Value, 16> seen;
  SmallVector<Value> worklist;
  auto push = [&](Value value) {
    if (isMemRef(value) && seen.insert(value).second) {
      worklist.push_back(value);
      aliases.push_back(value);
    }
  };
  push(buffer);
  while (!worklist.empty()) {
    Value value = worklist.pop_back_val();
    for (OpOperand &use : value.getUses()) {
      Operation *user = use.getOwner();
      // Any memref an op produces from the buffer may alias it (views, casts,
      // selects, results of region ops).
      for (Value result : user->getResults())
        push(result);
      // A buffer passed into a region op may be seen through the block
      // arguments of its regions (loop-carried values).
      for (Region &region : user->getRegions())
        for (Block &block : region)
          for (BlockArgument arg : block.getArguments())
            push(arg);
      // A terminator forwards the buffer to successor block arguments, to the
      // results of its parent op and to the arguments of sibling regions.
      if (user->hasTrait<OpTrait::IsTerminator>()) {
        for (Block *successor : user->getSuccessors())
          for (BlockArgument arg : successor->getArguments())
            push(arg);
        Operation *parent = user->getParentOp();
        if (parent && parent != funcOp) {
          for (Value result : parent->getResults())
            push(result);
          for (Region &region : parent->getRegions())
            for (Block &block : region)
              for (BlockArgument arg : block.getArguments())
                push(arg);
        }
      }
    }
  }
}

LiveRange BufferLiveness::getLiveRange(Value buffer) const {
  // The buffer's bytes matter only from its first use to its last: the
  // allocation itself touches no memory.
  int64_t defIndex = 0;
  if (Operation *def = buffer.getDefiningOp())
    defIndex = getIndex(def);
  int64_t first = std::numeric_limits<int64_t>::max();
  int64_t last = std::numeric_limits<int64_t>::min();
  SmallVector<Value> aliases;
  getAliases(buffer, aliases);
  for (Value alias : aliases)
    for (Operation *user : alias.getUsers()) {
      int64_t index = getIndex(user);
      first = std::min(first, index);
      last = std::max(last, index);
    }
  if (first > last)
    return LiveRange{defIndex, defIndex + 1};
  return LiveRange{first, last + 1};
}

/// Why the use of a buffer by `user` keeps the buffer from being planned.
static std::optional<std::string> getCaptureReason(Operation *user,
                                                   Operation *funcOp,
                                                   OpOperand &use) {
  if (user->getParentOp() == funcOp &&
      user->hasTrait<OpTrait::ReturnLike>())
    return std::string("escapes via return");
  if (auto call = dyn_cast<CallOpInterface>(user)) {
    std::string reason = "passed to a call";
    if (auto symbol = dyn_cast_if_present<SymbolRefAttr>(
            call.getCallableForCallee()))
      reason += " to " + symbol.getLeafReference().str();
    return reason;
  }
  if (auto store = dyn_cast<memref::StoreOp>(user))
    if (store.getValueToStore() == use.get())
      return std::string("stored to memory");
  if (isa<memref::ExtractAlignedPointerAsIndexOp>(user))
    return std::string("its address is taken by '") +
           user->getName().getStringRef().str() + "'";
  // Terminators and region ops only forward the buffer; the aliases they
  // create are followed by getAliases.
  if (user->hasTrait<OpTrait::IsTerminator>() ||
      isa<RegionBranchOpInterface>(user))
    return std::nullopt;
  if (!isa<MemoryEffectOpInterface>(user) &&
      !user->hasTrait<OpTrait::HasRecursiveMemoryEffects>())
    return std::string("captured by '") +
           user->getName().getStringRef().str() +
           "', whose memory effects are unknown";
  // A non-memref, non-integer result computed from the buffer may carry its
  // address (for example a cast to an LLVM pointer or struct).
  for (Value result : user->getResults())
    if (!isa<BaseMemRefType>(result.getType()) &&
        !result.getType().isIntOrIndexOrFloat())
      return std::string("converted by '") +
             user->getName().getStringRef().str() + "' to " +
             [&] {
               std::string text;
               llvm::raw_string_ostream os(text);
               os << result.getType();
               return text;
             }();
  return std::nullopt;
}

std::optional<std::string>
BufferLiveness::getUnplannableReason(Value buffer) const {
  Region &body = funcOp->getRegion(0);
  if (!body.hasOneBlock())
    return std::string("function has multiple blocks");
  Operation *def = buffer.getDefiningOp();
  if (!def || def->getBlock() != &body.front())
    return std::string("allocated inside a nested region");
  SmallVector<Value> aliases;
  getAliases(buffer, aliases);
  for (Value alias : aliases)
    for (OpOperand &use : alias.getUses())
      if (std::optional<std::string> reason =
              getCaptureReason(use.getOwner(), funcOp, use))
        return reason;
  return std::nullopt;
}
