//===- MPlanTypes.td - mplan dialect types -----------------*- tablegen -*-===//

#ifndef MPLAN_DIALECT_MPLAN_IR_MPLANTYPES_TD
#define MPLAN_DIALECT_MPLAN_IR_MPLANTYPES_TD

include "mplan/Dialect/MPlan/IR/MPlanBase.td"

def MPlan_SlabType : MPlan_Type<"Slab", "slab"> {
  let summary = "an arena of bytes that planned buffers live in";
  let description = [{
    `!mplan.slab<SIZE, ALIGN>` is an arena of `SIZE` bytes whose first byte is
    aligned to `ALIGN` bytes (a power of two). Every planned
    `mplan.alloc_tensor` names a slab and a byte offset inside it.

    Example:
    ```mlir
    %slab = mplan.alloc_slab : !mplan.slab<4096, 64>
    ```
  }];
  let parameters = (ins "int64_t":$size, "int64_t":$alignment);
  let assemblyFormat = "`<` $size `,` $alignment `>`";
  let genVerifyDecl = 1;
}

#endif // MPLAN_DIALECT_MPLAN_IR_MPLANTYPES_TD
