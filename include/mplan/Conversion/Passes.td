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
      functions named by `functions` (when empty: all functions with a slab
      but `main`, the program's entry point, which nothing can hand an arena);
      the function gets `mplan.arena_size` / `mplan.arena_alignment`
      attributes, its argument `mplan.arena`, a `memref.assume_alignment`
      (callers must pass memory aligned to `mplan.arena_alignment`) and a
      companion `<name>_arena_size() -> index` function. Functions not named
      keep a heap arena. Call sites in the module pass memory: functions are
      processed callees first (call-graph post-order); a caller with a slab
      gets the callee's arena as one more planned buffer, live exactly at the
      call and placed first-fit around its buffers (which keep their offsets;
      the caller's slab grows if no gap fits, so its own arena size includes
      its callees'); a caller without a slab, or a call inside a recursive
      cycle, allocates the callee's arena on the heap around the call. Every
      use of such a function must be a direct `func.call`. An entry point run
      by `mlir-runner` must not be named (it cannot receive an arena).

    The ops created carry `mplan.arena` (arena providers) and
    `mplan.buffer_id` / `mplan.live` (planned buffers' `memref.view`), which
    `--mplan-instrument` reads.
  }];
  let dependentDialects = ["::mlir::memref::MemRefDialect",
                           "::mlir::arith::ArithDialect",
                           "::mlir::func::FuncDialect"];
  let options = [
    Option<"arena", "arena", "std::string", /*default=*/"\"heap\"",
           "Where the arena lives: heap, stack, global or argument">,
    ListOption<"functions", "functions", "std::string",
               "With arena=argument: the functions that take their arena "
               "from the caller (default: all functions with a slab but main)">,
  ];
}

def ConvertMPlanArenasToLLVM : Pass<"convert-mplan-arenas-to-llvm", "ModuleOp"> {
  let summary = "Allocate heap arenas with aligned_alloc";
  let description = [{
    Lowers every `memref.alloc` marked `mplan.arena` (a heap arena made by
    `convert-mplan-to-memref`) to the LLVM dialect with upstream's
    `aligned_alloc` lowering and leaves every other op to
    `finalize-memref-to-llvm`. Upstream's default lowering of an aligned
    `memref.alloc` over-allocates with `malloc` and aligns the pointer
    through `ptrtoint`/`inttoptr`, after which LLVM no longer knows that the
    arena is a fresh object: every planned buffer may then alias the
    function's arguments, which blocks vectorization of loops that write an
    argument. A function allocates its arena once per call, so the cost of
    `aligned_alloc` does not matter. Run by `mplan-to-llvm="aligned-arenas"`;
    not by default, because what LLVM then does is not always faster (see
    docs/benchmarks.md).
  }];
  let dependentDialects = ["::mlir::LLVM::LLVMDialect"];
}

#endif // MPLAN_CONVERSION_PASSES_TD
