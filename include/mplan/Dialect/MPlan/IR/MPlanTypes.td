//===- MPlanTypes.td - mplan dialect types -----------------*- tablegen -*-===//

#ifndef MPLAN_DIALECT_MPLAN_IR_MPLANTYPES_TD
#define MPLAN_DIALECT_MPLAN_IR_MPLANTYPES_TD

include "mplan/Dialect/MPlan/IR/MPlanBase.td"

def MPlan_SlabType : MPlan_Type<"Slab", "slab"> {
  let summary = "an arena of bytes that planned buffers live in";
  let description = [{
    `!mplan.slab<SIZE, ALIGN>` is an arena of `SIZE` bytes whose first byte is
    aligned to `ALIGN` bytes (a power of two), in the default memory space;
    when run-time sized buffers (`mplan.alloc_dynamic`) are planned in it,
    `SIZE` is its static part and they follow it.
    `!mplan.slab<SIZE, ALIGN, SPACE>` is one in memory space `SPACE` (the
    memory space attribute of a memref type: an integer, or a dialect
    attribute such as `#gpu.address_space<workgroup>`). Every planned
    `mplan.alloc_tensor` names a slab and a byte offset inside it, and lives
    in the slab's memory space.

    Example:
    ```mlir
    %slab = mplan.alloc_slab : !mplan.slab<4096, 64>
    %shared = mplan.alloc_slab : !mplan.slab<1024, 16, #gpu.address_space<workgroup>>
    ```
  }];
  let parameters = (ins "int64_t":$size, "int64_t":$alignment,
                        OptionalParameter<"::mlir::Attribute">:$memorySpace);
  let assemblyFormat = "`<` $size `,` $alignment (`,` $memorySpace^)? `>`";
  let skipDefaultBuilders = 1;
  let builders = [
    TypeBuilder<(ins "int64_t":$size, "int64_t":$alignment,
                     CArg<"::mlir::Attribute", "{}">:$memorySpace), [{
      // Memory space 0 is the default space, as for memref types.
      if (auto integer = ::llvm::dyn_cast_if_present<::mlir::IntegerAttr>(
              memorySpace); integer && integer.getValue().isZero())
        memorySpace = {};
      return $_get($_ctxt, size, alignment, memorySpace);
    }]>
  ];
  let genVerifyDecl = 1;
}

#endif // MPLAN_DIALECT_MPLAN_IR_MPLANTYPES_TD
