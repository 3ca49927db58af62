//===- MPlanBase.td - mplan dialect definition -------------*- tablegen -*-===//
//
// The mplan dialect: static memory planning of statically shaped buffers.
//
//===----------------------------------------------------------------------===//

#ifndef MPLAN_DIALECT_MPLAN_IR_MPLANBASE_TD
#define MPLAN_DIALECT_MPLAN_IR_MPLANBASE_TD

include "mlir/IR/OpBase.td"
include "mlir/IR/AttrTypeBase.td"
include "mlir/IR/CommonAttrConstraints.td"

def MPlan_Dialect : Dialect {
  let name = "mplan";
  let cppNamespace = "::mlir::mplan";
  let summary = "Static memory planning: slabs, planned buffers and views";
  let description = [{
    The `mplan` dialect models the result of static memory planning, in the
    lineage of PyTorch's JIT memory planner and ExecuTorch's `memory.view`.

    * An *arena* (`!mplan.slab<SIZE, ALIGN>`) is a block of `SIZE` bytes
      aligned to `ALIGN` bytes, created by `mplan.alloc_slab` and ended by
      `mplan.release_slab`.
    * A *buffer* (`mplan.alloc_tensor`) is a statically shaped memref with a
      planner id and a live range `[start, end)` over the function's op
      numbering (`start` inclusive, `end` exclusive). Unplanned, it is just a
      type, an id and a live range; planned, it also names a slab and a byte
      offset inside it.
    * A *view* (`mplan.view`) reinterprets bytes of a root buffer at a static
      byte offset with a static strided type. It never copies; its uses extend
      the live range of its root.
  }];
  let useDefaultTypePrinterParser = 1;
  let dependentDialects = ["::mlir::memref::MemRefDialect"];
}

/// A 64-bit signless integer attribute read back as a signed value (ids,
/// offsets and live-range bounds are int64_t throughout mplan).
def MPlan_I64Attr : TypedSignlessIntegerAttrBase<
    I64, "int64_t", "64-bit signless integer attribute"> {
  let convertFromStorage = "$_self.getValue().getSExtValue()";
}

class MPlan_Op<string mnemonic, list<Trait> traits = []>
    : Op<MPlan_Dialect, mnemonic, traits>;

class MPlan_Type<string name, string typeMnemonic, list<Trait> traits = []>
    : TypeDef<MPlan_Dialect, name, traits> {
  let mnemonic = typeMnemonic;
}

#endif // MPLAN_DIALECT_MPLAN_IR_MPLANBASE_TD
