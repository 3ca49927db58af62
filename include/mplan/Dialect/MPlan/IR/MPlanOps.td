//===- MPlanOps.td - mplan dialect operations --------------*- tablegen -*-===//

#ifndef MPLAN_DIALECT_MPLAN_IR_MPLANOPS_TD
#define MPLAN_DIALECT_MPLAN_IR_MPLANOPS_TD

include "mplan/Dialect/MPlan/IR/MPlanBase.td"
include "mplan/Dialect/MPlan/IR/MPlanTypes.td"
include "mlir/Interfaces/SideEffectInterfaces.td"
include "mlir/Interfaces/ViewLikeInterface.td"
include "mlir/IR/CommonAttrConstraints.td"

def MPlan_StaticMemRef : Type<
    And<[AnyStaticShapeMemRef.predicate,
         CPred<"::llvm::isa<::mlir::MemRefType>($_self) && "
               "::llvm::cast<::mlir::MemRefType>($_self).getLayout()"
               ".isIdentity()">]>,
    "statically shaped memref with identity layout", "::mlir::MemRefType">;

def MPlan_StridedMemRef : Type<AnyStaticShapeMemRef.predicate,
    "statically shaped memref", "::mlir::MemRefType">;

//===----------------------------------------------------------------------===//
// AllocSlabOp
//===----------------------------------------------------------------------===//

def MPlan_AllocSlabOp : MPlan_Op<"alloc_slab"> {
  let summary = "allocate the arena that planned buffers live in";
  let description = [{
    Creates an arena of the size and alignment given by the result type. Each
    `mplan.alloc_slab` must be released by `mplan.release_slab` on every path
    out of its block; `--convert-mplan-to-memref` decides where the bytes come
    from (heap, stack, a global or a function argument). A slab that run-time
    sized buffers (`mplan.alloc_dynamic`) are planned in holds more than its
    type's size: room for them follows the type's bytes, and the slab's size
    is computed from their symbolic plan when it is allocated.

    ```mlir
    %slab = mplan.alloc_slab : !mplan.slab<4096, 64>
    ```

    `capacity` (set by `mplan-plan-buffers` when its memory space has a
    `capacity=`) is the most bytes the arena may take, callee arenas nested
    in it by `--convert-mplan-to-memref` included: the type's size is at most
    the capacity, and such a slab holds no run-time sized buffers (they would
    grow it at run time).

    ```mlir
    %slab = mplan.alloc_slab {capacity = 8192 : i64} : !mplan.slab<4096, 64>
    ```
  }];
  let arguments = (ins OptionalAttr<ConfinedAttr<I64Attr,
                                                 [IntPositive]>>:$capacity);
  let results = (outs Res<MPlan_SlabType, "the new arena",
                          [MemAlloc<DefaultResource, 0, FullEffect>]>:$slab);
  let assemblyFormat = "attr-dict `:` type($slab)";
  let hasVerifier = 1;
}

//===----------------------------------------------------------------------===//
// ReleaseSlabOp
//===----------------------------------------------------------------------===//

def MPlan_ReleaseSlabOp : MPlan_Op<"release_slab"> {
  let summary = "end the lifetime of an arena";
  let description = [{
    Ends the arena's lifetime; no buffer placed in it may be used afterwards.
    The op frees memory, so it is never moved or removed by canonicalization,
    CSE or DCE.

    ```mlir
    mplan.release_slab %slab : !mplan.slab<4096, 64>
    ```
  }];
  let arguments = (ins Arg<MPlan_SlabType, "the arena to release",
                           [MemFree<DefaultResource, 0, FullEffect>]>:$slab);
  let assemblyFormat = "$slab attr-dict `:` type($slab)";
}

//===----------------------------------------------------------------------===//
// AllocTensorOp
//===----------------------------------------------------------------------===//

def MPlan_AllocTensorOp : MPlan_Op<"alloc_tensor"> {
  let summary = "a statically shaped buffer known to the planner";
  let description = [{
    A statically shaped buffer with a planner `id`. The optional live range
    `live [start, end)` is expressed in the enclosing function's op numbering:
    `start` is inclusive and `end` exclusive.

    *Unplanned* (no slab operand), the op is an allocation waiting for a plan.
    *Planned*, the buffer occupies the bytes `[offset, offset + size)` of the
    slab, where `size` is the byte size of the result type; `offset` is a
    multiple of the buffer's `alignment` (default 1) and of the element's ABI
    alignment, neither exceeds the slab's alignment, and the buffer is in the
    slab's memory space.

    ```mlir
    // Unplanned.
    %a = mplan.alloc_tensor id(0) live [1, 4) -> memref<16xf32>
    // Planned at byte 64 of %slab.
    %b = mplan.alloc_tensor id(1) live [2, 6) at %slab[64]
        : !mplan.slab<128, 64> -> memref<4x4xf32>
    ```
  }];
  let arguments = (ins MPlan_I64Attr:$id,
                       OptionalAttr<MPlan_I64Attr>:$start,
                       OptionalAttr<MPlan_I64Attr>:$end,
                       Optional<MPlan_SlabType>:$slab,
                       OptionalAttr<MPlan_I64Attr>:$offset,
                       OptionalAttr<MPlan_I64Attr>:$alignment);
  let results = (outs Res<MPlan_StaticMemRef, "the buffer",
                          [MemAlloc<DefaultResource, 0, FullEffect>]>:$memref);
  let assemblyFormat = [{
    `id` `(` $id `)` (`live` ` ` `[` $start^ `,` $end `)`)?
    (`at` $slab^ `[` $offset `]` `:` type($slab))? attr-dict
    `->` type($memref)
  }];
  let hasVerifier = 1;
  let extraClassDeclaration = [{
    /// True when the buffer has a slab and an offset.
    bool isPlanned() { return getSlab() != nullptr; }
    /// The byte size of the buffer, or failure if it is not representable.
    ::mlir::FailureOr<int64_t> getByteSize();
  }];
}

//===----------------------------------------------------------------------===//
// AllocDynamicOp
//===----------------------------------------------------------------------===//

def MPlan_DynamicMemRef : Type<
    And<[AnyRankedOrUnrankedMemRef.predicate,
         CPred<"::llvm::isa<::mlir::MemRefType>($_self) && "
               "::llvm::cast<::mlir::MemRefType>($_self).getLayout()"
               ".isIdentity()">]>,
    "ranked memref with identity layout", "::mlir::MemRefType">;

def MPlan_AllocDynamicOp : MPlan_Op<"alloc_dynamic",
    [AttrSizedOperandSegments]> {
  let summary = "a buffer whose size is known only at run time";
  let description = [{
    A buffer with dynamic dimensions (one `sizes` operand per `?` of the
    result type, in order) and a planner `id`, whose dimensions have no
    compile-time upper bound. Its byte size is the element size times the
    product of its dimensions. The optional live range `live [start, end)` is
    in the enclosing function's op numbering, as for `mplan.alloc_tensor`.

    *Unplanned* (no slab operand), the op is an allocation waiting for a plan.
    *Planned*, the buffer lives in the slab's room for dynamically sized
    buffers, which follows the slab type's static bytes, and its place is
    decided at run time by a *symbolic plan*: when the slab is allocated,
    every planned `mplan.alloc_dynamic` of it gets the offset

    ```
    offset(b) = align(max(S, end(a) for every buffer a in above(b)), alignment(b))
    end(a)    = offset(a) + bytes(a)
    ```

    where `S` is the slab type's size and `above` lists the ids of buffers
    of the same slab, and the slab holds `max(S, end(b))` bytes over all of
    them. The `above` relation must be acyclic; two dynamic buffers whose live
    ranges overlap must be ordered by it (directly or through others), which
    keeps them apart whatever their run-time sizes. Every `sizes` operand of
    a planned buffer is therefore computed before its slab is allocated.

    ```mlir
    // Unplanned.
    %a = mplan.alloc_dynamic id(3) (%n) -> memref<?x64xf32>
    // Planned: above buffer 2 in %slab.
    %b = mplan.alloc_dynamic id(4) (%n) live [5, 9) in %slab above [2]
        : !mplan.slab<4096, 64> -> memref<?x64xf32>
    ```
  }];
  let arguments = (ins MPlan_I64Attr:$id,
                       Variadic<Index>:$sizes,
                       OptionalAttr<MPlan_I64Attr>:$start,
                       OptionalAttr<MPlan_I64Attr>:$end,
                       Optional<MPlan_SlabType>:$slab,
                       OptionalAttr<DenseI64ArrayAttr>:$above,
                       OptionalAttr<MPlan_I64Attr>:$alignment);
  let results = (outs Res<MPlan_DynamicMemRef, "the buffer",
                          [MemAlloc<DefaultResource, 0, FullEffect>]>:$memref);
  let assemblyFormat = [{
    `id` `(` $id `)` `(` $sizes `)` (`live` ` ` `[` $start^ `,` $end `)`)?
    (`in` $slab^ `above` $above `:` type($slab))? attr-dict
    `->` type($memref)
  }];
  let hasVerifier = 1;
  let extraClassDeclaration = [{
    /// True when the buffer has a slab.
    bool isPlanned() { return getSlab() != nullptr; }
    /// The alignment of the buffer: the attribute, and at least the
    /// element's ABI alignment.
    int64_t getEffectiveAlignment();
    /// The element size times the static dimensions: the byte size is this
    /// times every `sizes` operand. Failure if it overflows int64 (the
    /// verifier rejects that).
    ::mlir::FailureOr<int64_t> getStaticByteFactor();
  }];
}

//===----------------------------------------------------------------------===//
// ViewOp
//===----------------------------------------------------------------------===//

def MPlan_ViewOp : MPlan_Op<"view", [
    Pure, DeclareOpInterfaceMethods<ViewLikeOpInterface>]> {
  let summary = "an aliasing reinterpretation of a root buffer";
  let description = [{
    Reinterprets the bytes of `source`, starting `byte_offset` bytes after the
    source's first element, as a statically shaped, statically strided memref
    of the same element type. The view never copies: it aliases its source,
    and its uses extend the source's live range. The result's layout offset
    (in elements, relative to the same base as the source) equals the
    source's layout offset plus `byte_offset / element size`, and every
    element the view can address lies within the source's elements.

    A view of a view folds into one view of the root; a view that reproduces
    its source folds away. Canonicalization also turns static memref view
    chains (`subview`, `expand_shape`, `collapse_shape`, `reinterpret_cast`,
    `cast`, zero-shift `memref.view`) on an `mplan.alloc_tensor` into one
    `mplan.view` of it with exactly the same result type.

    ```mlir
    %v = mplan.view %a[64] : memref<64xf32> to memref<4x4xf32, strided<[4, 1], offset: 16>>
    ```
  }];
  let arguments = (ins MPlan_StridedMemRef:$source, MPlan_I64Attr:$byte_offset);
  let results = (outs MPlan_StridedMemRef:$result);
  let assemblyFormat = [{
    $source `[` $byte_offset `]` attr-dict `:` type($source) `to` type($result)
  }];
  let hasVerifier = 1;
  let hasFolder = 1;
  let hasCanonicalizer = 1;
}

#endif // MPLAN_DIALECT_MPLAN_IR_MPLANOPS_TD
