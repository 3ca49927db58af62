//===- Passes.td - mplan conversion passes -----------------*- tablegen -*-===//

#ifndef MPLAN_CONVERSION_PASSES_TD
#define MPLAN_CONVERSION_PASSES_TD

include "mlir/Pass/PassBase.td"

def ConvertMPlanToMemRef : Pass<"convert-mplan-to-memref", "ModuleOp"> {
  let summary = "Lower mplan slabs, buffers and views to the memref dialect";
  let description = [{
    Lowers `!mplan.slab<N, A>` to `memref<Nxi8>`, planned `mplan.alloc_tensor`
    to `memref.view` of the slab, unplanned ones to `memref.alloc`, and
    `mplan.view` to `memref.reinterpret_cast` of its source. Where the slab's
    bytes come from is chosen by `arena`:

    * `heap`: one aligned `memref.alloc` per call, freed by
      `mplan.release_slab` (`memref.dealloc`) at every exit.
    * `stack`: one aligned `memref.alloca` per call.
    * `global`: a private, aligned, uninitialized `memref.global` per function
      (not re-entrant: concurrent or recursive calls share the arena).
    * `argument`: the arena becomes a trailing `memref<Nxi8>` parameter of the
      functions named by `functions` (all functions with a slab when empty);
      the function gets an `mplan.arena_size` attribute and a companion
      `<name>_arena_size() -> index` function, and call sites in the module
      pass a slice of their own arena or a fresh allocation.
  }];
  let dependentDialects = ["::mlir::memref::MemRefDialect",
                           "::mlir::arith::ArithDialect",
                           "::mlir::func::FuncDialect"];
  let options = [
    Option<"arena", "arena", "std::string", /*default=*/"\"heap\"",
           "Where the arena lives: heap, stack, global or argument">,
    ListOption<"functions", "functions", "std::string",
               "With arena=argument: the functions that take their arena "
               "from the caller (default: all functions with a slab)">,
  ];
}

#endif // MPLAN_CONVERSION_PASSES_TD
