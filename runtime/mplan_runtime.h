/*===- mplan_runtime.h - mplan memory observer runtime ------------*- C -*-===*
 *
 * The C runtime that programs instrumented by `mplan-opt --mplan-instrument`
 * call. Every argument is a 64-bit integer (pointers and sizes are passed as
 * MLIR `index`, names as the address of a NUL-terminated string), so the
 * functions can be declared as plain `func.func private` in MLIR.
 *
 * Environment:
 *   MPLAN_RT_OUTPUT   where the summary goes: "stderr" (default), "stdout",
 *                     "none" or a file path (appended to)
 *   MPLAN_RT_VERBOSE  "1": the summary also lists every allocation site and
 *                     every planned buffer placement
 *   MPLAN_RT_JSON     path: write the summary as JSON at exit
 *   MPLAN_RT_ABORT    "1": abort at the first error instead of at exit
 * A run in which an error was found (two live planned buffers overlap, a
 * planned buffer outside its arena, a checked free of a pointer that is not a
 * live heap buffer) ends with exit status 3 after the summary. A dynamic size
 * above the upper bound its buffer was planned at ends the run at once
 * (continuing would write past the buffer's slot), with the same summary and
 * exit status.
 *
 *===----------------------------------------------------------------------===*/

#ifndef MPLAN_RUNTIME_H
#define MPLAN_RUNTIME_H

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Arena/allocation kinds of mplan_rt_alloc. */
enum {
  MPLAN_RT_HEAP = 0,    /* malloc'ed, freed by mplan_rt_free */
  MPLAN_RT_STACK = 1,   /* alloca: released when the function returns */
  MPLAN_RT_STATIC = 2,  /* a global arena: in use while the function runs */
  MPLAN_RT_ARGUMENT = 3 /* an arena passed by the caller: no new bytes */
};

/* Function entry and exit; `name` is the function's name. */
void mplan_rt_enter(int64_t name);
void mplan_rt_exit(int64_t name);
/* A new buffer of `bytes` bytes at `ptr`, created at `site`. */
void mplan_rt_alloc(int64_t site, int64_t ptr, int64_t bytes, int64_t kind);
/* The heap buffer at `ptr` is freed at `site`; an error if it is not live. */
void mplan_rt_free(int64_t site, int64_t ptr);
/* The buffer at `ptr`, which may have been allocated where the observer does
 * not see (an external function), is freed at `site`: forgotten if recorded,
 * counted as an untracked free otherwise. */
void mplan_rt_free_untracked(int64_t site, int64_t ptr);
/* Planned buffer `id` starts living at byte `offset` of the arena at `arena`
 * (`arena_bytes` long), `bytes` long; the planner's live range was
 * [start, end) (-1, -1 when unknown); `space` names the arena's memory space
 * ("default", "1", "#gpu.address_space<workgroup>"; 0: default). The summary
 * gives the peak of live planned bytes per memory space. */
void mplan_rt_region_begin(int64_t site, int64_t id, int64_t arena,
                           int64_t arena_bytes, int64_t offset, int64_t bytes,
                           int64_t start, int64_t end, int64_t space);
/* Planned buffer `id` of `arena` (0: of any arena) is dead: its last use has
 * run, or the path taken leads to no use. Nothing when it is not live. */
void mplan_rt_region_end(int64_t id, int64_t arena);
/* Dimension `dim` of planned buffer `id` (-1: unknown), planned at its upper
 * bound `bound`, has the run-time size `size`: above the bound (or negative),
 * an error naming the buffer, the size, the bound and `source` (the bound's
 * origin, the buffer's mplan.bound text), and the run ends (exit status 3
 * after the summary). Created at `site`. */
void mplan_rt_check_bound(int64_t site, int64_t id, int64_t dim, int64_t size,
                          int64_t bound, int64_t source);
/* Prints the summary now (it is also printed at exit). */
void mplan_rt_print_summary(void);

#ifdef __cplusplus
}
#endif

#endif /* MPLAN_RUNTIME_H */
