//===- Passes.td - mplan conversion passes -----------------*- tablegen -*-===//

#ifndef MPLAN_CONVERSION_PASSES_TD
#define MPLAN_CONVERSION_PASSES_TD

include "mlir/Pass/PassBase.td"

def ConvertMPlanToMemRef : Pass<"convert-mplan-to-memref", "ModuleOp"> {
  let summary = "Lower mplan slabs, buffers and views to the memref dialect";
  let description = [{
    Lowers `!mplan.slab<N, A[, SPACE]>` to an arena `memref<Nxi8, SPACE>` in
    the slab's own memory space (a function has one slab per memory space it
    allocates in), planned `mplan.alloc_tensor` to `memref.view` of its slab's
    arena (so every buffer stays in its memory space), and `mplan.view` to
    `memref.reinterpret_cast` of its source. Unplanned `mplan.alloc_tensor`
    ops are rejected.

    Before lowering, the plan is checked against the IR as it is (option
    `verify-plan`, on by default; the check of `--mplan-verify-plan`): live
    ranges are recomputed and two buffers of one slab that are live at the
    same time and share a byte fail the pass with an error at one of them --
    a pass run between planning and lowering may have reordered them. The
    check sorts and sweeps each slab's buffers once (O(n log n)).

    Where the slab's bytes come from is chosen by `arena`:

    * `heap`: one aligned `memref.alloc` per call, freed by
      `mplan.release_slab` (`memref.dealloc`) at every exit. A slab holding
      run-time sized buffers (`mplan.alloc_dynamic`) always gets a heap arena
      (with a remark for `stack`, `global` and `shared-global`): right
      before it, the symbolic plan is evaluated (each buffer's offset, the
      arena's size) and the arena is a `memref<?xi8>` of that size; the
      buffers are `memref.view`s of it at their offsets.
    * `stack`: one aligned `memref.alloca` per call, for a slab of at most
      `stack-limit` bytes at the entry of a function (or
      `memref.alloca_scope`) body. A larger slab gets a heap arena, and so
      does a slab nested in a loop or other region (an alloca there would be
      allocated again on every iteration: upstream lowers scf loops without
      restoring the stack), each with a remark at the slab. The default limit,
      1 MiB, is an eighth of the usual 8 MiB main-thread stack and the whole
      default stack of a Windows thread; secondary threads often get less
      than 8 MiB (musl 128 KiB, macOS 512 KiB, OpenMP runtimes a few MiB),
      and the arenas of a chain of calls add up.
    * `global`: a private, aligned, uninitialized `memref.global` per
      (function, memory space), named `__mplan_arena_<function>` for the
      default space and `__mplan_arena_<function>_<space>` for another one
      (e.g. `_1`, `_gpu_address_space_workgroup`). A global is not
      re-entrant, so a function that may have two activations at once gets a
      heap arena instead, with a remark at the slab: a function in a
      call-graph cycle (self or mutual recursion, found with Tarjan's
      algorithm over every `CallOpInterface` op; indirect calls and calls of
      external functions count as calls of every function whose address is
      taken), a function reachable from a call nested in a region op whose
      regions may run concurrently, and a slab nested in such an op.
    * `argument`: the default-memory-space arena becomes a trailing
      `memref<Nxi8>` parameter of the functions named by `functions` (when
      empty: all functions with a default-space slab but `main`, the
      program's entry point, which nothing can hand an arena); the function
      gets `mplan.arena_size` / `mplan.arena_alignment` attributes, its
      argument `mplan.arena` and (option `arena-noalias`, on by default)
      `llvm.noalias`, a `memref.assume_alignment` (callers must pass memory
      aligned to `mplan.arena_alignment`, and that no other argument, global
      or other pointer the function reaches during the call points into:
      `llvm.noalias` states it to LLVM, and `mplan-buffer-alias-scopes` then
      treats the other arguments as outside the arena) and a companion
      `<name>_arena_size() -> index` function. A function whose slab holds
      run-time sized buffers (`mplan.alloc_dynamic`) takes a `memref<?xi8>`
      instead, gets no `mplan.arena_size`, and its companion takes the
      function's own arguments and evaluates the same symbolic plan on them;
      its callers in the module allocate its arena on the heap around the
      call with that size. Slabs in other memory spaces,
      and the slabs of functions not named, keep a heap arena in their space.
      Call sites in the module pass memory: functions are processed callees
      first (call-graph post-order); a caller with a default-space slab gets
      the callee's arena as one more planned buffer, live exactly at the call
      and placed first-fit at a multiple of the callee's arena alignment
      around its buffers (which keep their offsets; the caller's slab grows if
      no gap fits, so its own arena size includes its callees', and takes the
      callee's alignment if larger); a caller without a default-space slab, a
      call inside a recursive cycle, or a call nested in a region op whose
      regions may run concurrently (`scf.parallel`, `scf.forall`,
      `affine.parallel`, `omp.*`, `acc.*`, `gpu.*`, `async.*`, linalg bodies,
      any region op not known to run its regions one at a time: concurrent
      iterations must not share one slice) allocates the callee's arena on
      the heap around the call, inside the iteration. Every use of such a
      function must be a direct `func.call`. An entry point run by
      `mlir-runner` must not be named (it cannot receive an arena).
    * `shared-global`: one private, aligned, uninitialized `memref.global`
      per memory space for the whole module (`__mplan_arena_shared`,
      `__mplan_arena_shared_<space>`), for a module whose entry points
      (e.g. a model's `prefill` and `decode`) never run at once. In the
      default space, a function with a slab at its top level that is called
      from another function with a slab (and is not `main`, not recursive,
      and used only by direct `func.call` ops) takes its arena as an
      argument, nested at every call site in its caller's arena exactly as
      with `argument`. Every other function with a slab, and every call of
      such a nested function from a caller without a default-space slab,
      uses the global from offset 0, so the global is the size of the
      largest of these arenas (nested callees included), not their sum;
      slabs in other memory spaces are not passed to callees, so every
      function with one uses its space's global. Two users of offset 0 must
      never be active at once: a user that may run while another one is
      active (its function is reachable, through any calls -- functions
      without a slab, indirect calls and external functions included as for
      `global` -- from the other user) gets a heap arena instead, around the
      call for a call site; so do, as for `global`, recursive functions,
      functions that may run in several instances at once and calls nested in
      a region op whose regions may run concurrently. Each such fallback is a
      remark at the slab or call, and a remark at the module gives each
      global's size and the sum of the arenas it replaces. Not re-entrant:
      the program must not run two entry points (or one twice) at the same
      time, e.g. from two threads.

    The ops created carry `mplan.arena` (arena providers) and
    `mplan.buffer_id` / `mplan.live` (planned buffers' `memref.view`), which
    `--mplan-instrument` reads.
  }];
  let dependentDialects = ["::mlir::memref::MemRefDialect",
                           "::mlir::arith::ArithDialect",
                           "::mlir::func::FuncDialect"];
  let options = [
    Option<"arena", "arena", "std::string", /*default=*/"\"heap\"",
           "Where the arena lives: heap, stack, global, argument or "
           "shared-global">,
    ListOption<"functions", "functions", "std::string",
               "With arena=argument: the functions that take their arena "
               "from the caller (default: all functions with a default-memory-space "
               "slab but main)">,
    Option<"stackLimit", "stack-limit", "int64_t", /*default=*/"1048576",
           "With arena=stack: the largest stack arena in bytes; a larger "
           "slab gets a heap arena and a remark (default 1 MiB)">,
    Option<"arenaNoAlias", "arena-noalias", "bool", /*default=*/"true",
           "With arena=argument: mark the arena argument `llvm.noalias` "
           "(callers pass memory that nothing else the function reaches "
           "during the call points into, as mplan's own call sites do)">,
    Option<"verifyPlan", "verify-plan", "bool", /*default=*/"true",
           "Check the plan against live ranges recomputed from the IR "
           "before lowering (as --mplan-verify-plan does)">,
  ];
}

def MPlanCheckLLVMMemorySpaces
    : Pass<"mplan-check-llvm-memory-spaces", "::mlir::ModuleOp"> {
  let summary = "Reject memory spaces the LLVM lowering cannot map";
  let description = [{
    Fails with an error at the first op, in pre-order, that uses a memref
    type (a result, an operand, a block argument of its regions, a type in an
    attribute such as a function's signature) whose memory space
    is not an integer, e.g. `#gpu.address_space<workgroup>`:
    `finalize-memref-to-llvm` has no LLVM address space for it, reports that
    without a location and leaves the op and unrealized casts behind while
    the pipeline succeeds. Run first by `mplan-to-llvm`; map such spaces to
    integers (as a GPU lowering's memory-space conversion does) before it.
  }];
}

def MPlanDeallocInDefaultSpace : Pass<"mplan-dealloc-in-default-space"> {
  let summary = "Free buffers of integer memory spaces through the default space";
  let description = [{
    Rewrites every `memref.dealloc` of a memref in a non-default integer
    memory space (e.g. a heap arena `memref<Nxi8, 1>` of an mplan slab in
    space 1) into a `memref.memory_space_cast` to the default space and a
    `memref.dealloc` of the cast. `finalize-memref-to-llvm` allocates such a
    buffer with `malloc` and an `addrspacecast` to its space, but passes the
    pointer to `free` without casting it back, which the LLVM verifier
    rejects. Run by `mplan-to-llvm` before `finalize-memref-to-llvm`; memory
    spaces that are not integers (e.g. `#gpu.address_space`) are left alone.
  }];
  let dependentDialects = ["::mlir::memref::MemRefDialect"];
}

def MPlanExpandStaticRealloc : Pass<"mplan-expand-static-realloc"> {
  let summary = "Lower memref.realloc between static shapes";
  let description = [{
    Rewrites every `memref.realloc` whose source and result shapes are both
    static: a realloc that does not grow becomes a
    `memref.reinterpret_cast` of its operand (the same allocation, as
    realloc(3) may keep it); one that grows allocates the new buffer, copies
    the operand into its leading elements and frees the operand. Upstream's
    `expand-realloc` builds both branches of a run-time size test, and its
    growing branch is invalid IR for a static shrink (a subview that runs
    out of bounds), so `mplan-to-llvm` runs this pass first and leaves the
    dynamically sized reallocs to `expand-realloc`.

    ```mlir
    %r = memref.realloc %a : memref<12xf32> to memref<4xf32>
    // becomes
    %r = memref.reinterpret_cast %a to offset: [0], sizes: [4], strides: [1]
        : memref<12xf32> to memref<4xf32>
    ```
  }];
  let dependentDialects = ["::mlir::memref::MemRefDialect"];
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
    not by default: the alias scopes `mplan-to-llvm` gives arena buffers
    (`mplan-tag-buffer-accesses`, `mplan-buffer-alias-scopes`) already tell
    LLVM that they do not alias the arguments, for every arena kind.
  }];
  let dependentDialects = ["::mlir::LLVM::LLVMDialect"];
}

def MPlanTagBufferAccesses : Pass<"mplan-tag-buffer-accesses",
                                  "::mlir::func::FuncOp"> {
  let summary = "Mark which arena bytes each memory access may touch";
  let description = [{
    The first half of mplan's alias scopes (the second is
    `mplan-buffer-alias-scopes`; `mplan-to-llvm` runs both). In a function
    with an arena made by `convert-mplan-to-memref` -- an op or argument
    marked `mplan.arena`: a `memref.alloc`/`memref.alloca` in the function's
    entry block (allocated once per call) that is freed only where the
    function returns, with nothing after it that may allocate, a
    `memref.get_global`, or the
    arena argument of `arena=argument` -- every op that reads or writes
    memrefs gets, in its location, the set of places it may access:

    * a byte range of an arena: a `memref.view` of the arena at a constant
      byte shift (a planned buffer) spans the bytes of its static type from
      there; views of it (`ViewLikeOpInterface`: subview, reinterpret_cast,
      cast, collapse/expand_shape, extract_strided_metadata, ...) stay
      inside it, as the planner already assumes. An access to the arena
      itself spans all of it.
    * outside every arena: a memref rooted at any other allocation, at
      another global, or at a function argument. A function argument never
      points into the function's own arena: a heap or stack arena is
      allocated after the call started, and a global arena is private to
      its function (or shared by entry points that never run at once) and
      never escapes; with `arena=argument` this holds under the caller's
      obligation that the arena argument is marked `llvm.noalias` for, and
      only then.

    An op that accesses a memref of any other origin (a block argument, a
    call result, a memref loaded from memory, ...) gets no mark. So does
    every op of a function without such an arena, and every access when the
    arena is allocated in a loop or other nested block (a new arena each
    time). The mark is a `FusedLoc` wrapping the op's location, with a
    dictionary `{mplan.access = [array<i64: arena, first byte, end>, ...]}`
    (arena -1: outside) as metadata, because upstream's lowering patterns
    give the LLVM ops they create the location of the op they replace and
    drop its attributes. Run after linalg is lowered to loops (as
    `mplan-to-llvm` does, before `scf` becomes `cf`), so that each load and
    store is marked with the one buffer it reads or writes.

    A pass that merges identical blocks (the region simplification of the
    greedy pattern driver, which `convert-vector-to-llvm` and
    `canonicalize` run) compares ops without their locations: two accesses
    of different buffers in otherwise equal blocks become one access of a
    block argument that carries the mark of one of them. With `refresh`, the
    pass recomputes the mark of every op that has one from the IR as it is
    then (an LLVM load, store or memory intrinsic that a vector op was
    lowered to by the memref it was offset from, through `getelementptr`,
    `extractvalue` and the `unrealized_conversion_cast` of the memref) and
    removes the marks it cannot derive again; `mplan-to-llvm` runs it after
    `convert-vector-to-llvm`, the last pass of its pipeline that may merge
    blocks. Run it likewise after any such pass of your own.

    Unless `scope-float-accumulators` is set, the loads and stores of a
    scalar floating-point accumulator of a strided reduction get no mark: a
    `memref.store` of a float directly in an `scf.for` body at a memref and
    indices that do not change in the loop, the `memref.load`s of the same
    element before it in its block, when another load of that block
    advances by at least 64 bytes per iteration over more than 32 KiB in a
    loop of constant trip count (the reduction loops that
    `convert-linalg-to-loops` makes of a matmul with a wide right-hand side
    or a conv with many channels). With scopes LLVM keeps such an
    accumulator in a register for the whole loop; stored every iteration,
    as without scopes, the loop is the unplanned program's. When the strided
    loads miss the L1 cache, which of the two is faster depends on the
    machine (the register version was 4-14 % slower: on an Intel Xeon when
    they hit L2, on an AMD EPYC when they go past it; docs/design.md). An
    unmarked access claims nothing, so this never affects soundness. The
    ops that make an arena holding such an accumulator (a `memref.alloc` or
    `memref.alloca` arena, every `memref.get_global` of an arena global) get
    the mark `{mplan.hide_provenance}` in their location: without scopes
    LLVM would still prove an accumulator in a stack slot or in a global
    that never escapes apart from the function's arguments, and keep it in
    a register.
  }];
  let dependentDialects = ["::mlir::memref::MemRefDialect"];
  let options = [
    Option<"scopeFloatAccumulators", "scope-float-accumulators", "bool",
           /*default=*/"false",
           "Also mark the loads and stores of scalar floating-point "
           "accumulators of loops">,
    Option<"refresh", "refresh", "bool", /*default=*/"false",
           "Only recompute the marks the ops already have from the IR as it "
           "is now (after passes that may have merged blocks)">,
  ];
}

def MPlanKeepOuterLoops : Pass<"mplan-keep-outer-loops",
                               "::mlir::func::FuncOp"> {
  let summary = "Keep LLVM from unrolling the outer loops of planned functions";
  let description = [{
    In a function with an arena (an op or argument marked `mplan.arena` by
    `convert-mplan-to-memref`), every `scf.for` that contains another loop
    gets `loop_annotation = #llvm.loop_annotation<unroll =
    #llvm.loop_unroll<disable = true>>`, which `scf-to-cf` gives its latch
    branch and the LLVM lowering turns into `llvm.loop.unroll.disable`.
    Innermost loops are left to LLVM (unrolled, vectorized, interleaved as
    it sees fit). A planned function's buffers are constant offsets from one
    pointer and, with the alias scopes, known not to overlap, so LLVM's
    full-unroll cost model sees every address fold: it fully unrolls outer
    loops around vectorized inner loops into basic blocks of thousands of
    memory operations, on which X86 SelectionDAG instruction selection
    spends minutes (docs/benchmarks.md, "Compile time"). Loops that already
    have a `loop_annotation` keep it. `mplan-to-llvm` runs it unless
    `unroll-outer-loops` is set.
  }];
  let dependentDialects = ["::mlir::LLVM::LLVMDialect"];
}

def MPlanBufferAliasScopes : Pass<"mplan-buffer-alias-scopes", "ModuleOp"> {
  let summary = "Give arena buffers alias scopes and noalias sets";
  let description = [{
    The second half of mplan's alias scopes, after the LLVM lowering: in
    each `llvm.func`, every distinct place named by the marks of
    `mplan-tag-buffer-accesses` (an arena byte range, or "outside the
    arenas") becomes an `#llvm.alias_scope` of one `#llvm.alias_scope_domain`
    for the function. Every `llvm.load`, `llvm.store`, `llvm.intr.memcpy`,
    `llvm.intr.memmove`, `llvm.intr.memset`, `llvm.atomicrmw` and
    `llvm.cmpxchg` with a mark gets the scopes of its places as
    `alias_scopes`, and as `noalias_scopes` the scopes whose bytes can never
    be the same as any of its places': another arena, outside vs. inside the
    arenas, or a byte range of the same arena that does not intersect. Two
    buffers that reuse the same bytes at different times are never declared
    noalias with each other, whatever their live ranges: scoped noalias
    lets LLVM reorder accesses across the whole function, which would move a
    later buffer's store above an earlier buffer's load of the same bytes.
    Each `noalias_scopes` list keeps at most `max-noalias-scopes` scopes
    (outside first, then in the order the places appear): a shorter list
    only claims less.

    First, the pointer made by every `llvm.alloca`, `llvm.mlir.addressof` or
    allocation call whose location has the mark `{mplan.hide_provenance}`
    goes through an empty inline assembly statement that returns its
    operand (`llvm.inline_asm "", "=r,0"`), and every other use takes that
    copy: the same address, but LLVM can no longer trace the accesses based
    on it to an object no argument points into, so the unscoped accumulators
    of the arena are stored every iteration, as with a heap arena (whose
    pointer upstream aligns through `ptrtoint`/`inttoptr`). The scoped
    accesses keep their facts through their scopes.

    Every mark is then removed from every location, so the module keeps the
    locations it had before the first half.
  }];
  let dependentDialects = ["::mlir::LLVM::LLVMDialect"];
  let options = [
    Option<"maxNoAliasScopes", "max-noalias-scopes", "unsigned",
           /*default=*/"500",
           "The longest noalias_scopes list of an access">,
  ];
}

#endif // MPLAN_CONVERSION_PASSES_TD
