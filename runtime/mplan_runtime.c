/*===- mplan_runtime.c - mplan memory observer runtime -------------------===*
 *
 * Records, per allocation site (an op location), every heap/stack/static
 * buffer and every planned buffer region; counts allocations and frees per
 * function call; tracks the peak of live bytes; checks that no two planned
 * buffers live at the same time in the same function invocation share a byte
 * and that each lies inside its arena. See mplan_runtime.h.
 *
 *===----------------------------------------------------------------------===*/

#include "mplan_runtime.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define EXPORT __attribute__((visibility("default")))

/*--- Growable arrays -------------------------------------------------------*/

#define VEC(T)                                                                 \
  struct {                                                                     \
    T *data;                                                                   \
    size_t size, cap;                                                          \
  }
#define VEC_PUSH(v, x)                                                         \
  do {                                                                         \
    if ((v).size == (v).cap) {                                                 \
      (v).cap = (v).cap ? 2 * (v).cap : 64;                                    \
      (v).data = realloc((v).data, (v).cap * sizeof(*(v).data));               \
      if (!(v).data) {                                                         \
        fputs("mplan-rt: out of memory\n", stderr);                            \
        abort();                                                               \
      }                                                                        \
    }                                                                          \
    (v).data[(v).size++] = (x);                                                \
  } while (0)

/*--- State -----------------------------------------------------------------*/

typedef struct {
  const char *name;
  int64_t calls, heapAllocs, heapFrees, heapBytes, stackAllocs, staticArenas,
      regions;
  int64_t peakAboveEntry; /* max over calls of peak live bytes - entry */
} FunctionStats;

typedef struct {
  const char *site;
  int kind; /* MPLAN_RT_* or 4 = planned region */
  int64_t count, bytes, maxBytes;
  /* planned regions */
  int64_t id, offset, start, end, arenaBytes;
} SiteStats;

typedef struct {
  int64_t ptr, bytes;
  size_t site;
} LiveHeap;

typedef struct {
  size_t function;
  int64_t liveAtEntry, peak;
  int64_t heapAllocs, heapFrees, heapBytes, stackAllocs, staticArenas,
      regions;   /* counters at entry */
  int64_t held;  /* stack + static bytes released at exit */
  size_t region; /* first live region of this frame */
} Frame;

typedef struct {
  int64_t id, begin, end; /* absolute addresses */
  int64_t arena;
  size_t site;
  size_t space; /* index into spaces */
} LiveRegion;

/* Live planned bytes of one memory space (the planned buffers' regions). */
typedef struct {
  const char *name; /* "default", "1", "#gpu.address_space<workgroup>" */
  int64_t live, peak;
} SpaceStats;

static VEC(FunctionStats) functions;
static VEC(SiteStats) sites;
static VEC(LiveHeap) liveHeap;
static VEC(Frame) frames;
static VEC(LiveRegion) liveRegions;
static VEC(SpaceStats) spaces;

static int64_t heapAllocs, heapFrees, heapBytes, stackAllocs, stackBytes,
    staticArenas, staticBytes, argumentArenas, regions, errors, unknownFrees,
    untrackedFrees;
static int64_t liveBytes, peakBytes;

/*--- Helpers ---------------------------------------------------------------*/

static const char *str(int64_t p) {
  return p ? (const char *)(intptr_t)p : "<unknown>";
}

static size_t functionIndex(const char *name) {
  for (size_t i = 0; i < functions.size; ++i)
    if (!strcmp(functions.data[i].name, name))
      return i;
  FunctionStats f;
  memset(&f, 0, sizeof(f));
  f.name = strdup(name); /* the JIT'ed code is gone at exit */
  VEC_PUSH(functions, f);
  return functions.size - 1;
}

static size_t spaceIndex(const char *name) {
  for (size_t i = 0; i < spaces.size; ++i)
    if (!strcmp(spaces.data[i].name, name))
      return i;
  SpaceStats sp;
  memset(&sp, 0, sizeof(sp));
  sp.name = strdup(name);
  VEC_PUSH(spaces, sp);
  return spaces.size - 1;
}

/* `bytes` more (or fewer) planned bytes live in space `space`. */
static void addSpaceLive(size_t space, int64_t bytes) {
  SpaceStats *sp = &spaces.data[space];
  sp->live += bytes;
  if (sp->live > sp->peak)
    sp->peak = sp->live;
}

/* Forgets the live regions from index `first` on (their bytes leave their
 * spaces). */
static void dropRegions(size_t first) {
  for (size_t i = first; i < liveRegions.size; ++i) {
    LiveRegion *r = &liveRegions.data[i];
    addSpaceLive(r->space, -(r->end - r->begin));
  }
  liveRegions.size = first;
}

static size_t siteIndex(const char *site, int kind, int64_t id) {
  for (size_t i = 0; i < sites.size; ++i)
    if (sites.data[i].kind == kind && sites.data[i].id == id &&
        !strcmp(sites.data[i].site, site))
      return i;
  SiteStats s;
  memset(&s, 0, sizeof(s));
  s.site = strdup(site);
  s.kind = kind;
  s.id = id;
  s.start = s.end = -1;
  VEC_PUSH(sites, s);
  return sites.size - 1;
}

static void addLive(int64_t bytes) {
  liveBytes += bytes;
  if (liveBytes > peakBytes)
    peakBytes = liveBytes;
  if (frames.size && liveBytes > frames.data[frames.size - 1].peak)
    frames.data[frames.size - 1].peak = liveBytes;
}

static void error(void) {
  ++errors;
  if (getenv("MPLAN_RT_ABORT") && !strcmp(getenv("MPLAN_RT_ABORT"), "1")) {
    fflush(NULL);
    abort();
  }
}

static const char *currentFunction(void) {
  return frames.size
             ? functions.data[frames.data[frames.size - 1].function].name
             : "<no function>";
}

/*--- Events ----------------------------------------------------------------*/

EXPORT void mplan_rt_enter(int64_t name) {
  size_t f = functionIndex(str(name));
  Frame frame;
  frame.function = f;
  frame.liveAtEntry = liveBytes;
  frame.peak = liveBytes;
  frame.heapAllocs = heapAllocs;
  frame.heapFrees = heapFrees;
  frame.heapBytes = heapBytes;
  frame.stackAllocs = stackAllocs;
  frame.staticArenas = staticArenas;
  frame.regions = regions;
  frame.held = 0;
  frame.region = liveRegions.size;
  VEC_PUSH(frames, frame);
  functions.data[f].calls++;
}

EXPORT void mplan_rt_exit(int64_t name) {
  const char *n = str(name);
  if (!frames.size || strcmp(currentFunction(), n)) {
    fprintf(stderr,
            "mplan-rt: error: exit from @%s does not match the entry "
            "of @%s\n",
            n, currentFunction());
    error();
    return;
  }
  Frame frame = frames.data[--frames.size];
  FunctionStats *f = &functions.data[frame.function];
  f->heapAllocs += heapAllocs - frame.heapAllocs;
  f->heapFrees += heapFrees - frame.heapFrees;
  f->heapBytes += heapBytes - frame.heapBytes;
  f->stackAllocs += stackAllocs - frame.stackAllocs;
  f->staticArenas += staticArenas - frame.staticArenas;
  f->regions += regions - frame.regions;
  if (frame.peak - frame.liveAtEntry > f->peakAboveEntry)
    f->peakAboveEntry = frame.peak - frame.liveAtEntry;
  liveBytes -= frame.held;
  dropRegions(frame.region); /* regions die with their invocation */
  if (frames.size && frame.peak > frames.data[frames.size - 1].peak)
    frames.data[frames.size - 1].peak = frame.peak;
}

EXPORT void mplan_rt_alloc(int64_t site, int64_t ptr, int64_t bytes,
                           int64_t kind) {
  size_t si = siteIndex(str(site), (int)kind, -1);
  SiteStats *s = &sites.data[si];
  s->count++;
  s->bytes += bytes;
  if (bytes > s->maxBytes)
    s->maxBytes = bytes;
  switch (kind) {
  case MPLAN_RT_HEAP: {
    LiveHeap h = {ptr, bytes, si};
    VEC_PUSH(liveHeap, h);
    heapAllocs++;
    heapBytes += bytes;
    addLive(bytes);
    break;
  }
  case MPLAN_RT_STACK:
  case MPLAN_RT_STATIC:
    if (kind == MPLAN_RT_STACK) {
      stackAllocs++;
      stackBytes += bytes;
    } else {
      staticArenas++;
      staticBytes += bytes;
    }
    addLive(bytes);
    if (frames.size)
      frames.data[frames.size - 1].held += bytes;
    else
      liveBytes -= bytes; /* outside any instrumented function: transient */
    break;
  default:
    argumentArenas++;
    break;
  }
}

/* Forgets the live heap buffer at `ptr`; false if there is none. */
static int releaseHeap(int64_t ptr) {
  for (size_t i = liveHeap.size; i-- > 0;) {
    if (liveHeap.data[i].ptr != ptr)
      continue;
    liveBytes -= liveHeap.data[i].bytes;
    liveHeap.data[i] = liveHeap.data[--liveHeap.size];
    heapFrees++;
    return 1;
  }
  return 0;
}

EXPORT void mplan_rt_free(int64_t site, int64_t ptr) {
  if (releaseHeap(ptr))
    return;
  unknownFrees++;
  fprintf(stderr,
          "mplan-rt: error: %s: in @%s: free of 0x%" PRIx64
          ", which is not a live heap buffer\n",
          str(site), currentFunction(), ptr);
  error();
}

EXPORT void mplan_rt_free_untracked(int64_t site, int64_t ptr) {
  (void)site;
  if (!releaseHeap(ptr))
    untrackedFrees++;
}

EXPORT void mplan_rt_region_begin(int64_t site, int64_t id, int64_t arena,
                                  int64_t arenaBytes, int64_t offset,
                                  int64_t bytes, int64_t start, int64_t end,
                                  int64_t space) {
  size_t spi = spaceIndex(space ? str(space) : "default");
  size_t si = siteIndex(str(site), 4, id);
  SiteStats *s = &sites.data[si];
  s->count++;
  s->bytes = bytes;
  s->maxBytes = bytes;
  s->offset = offset;
  s->start = start;
  s->end = end;
  s->arenaBytes = arenaBytes;
  regions++;
  if (offset < 0 || bytes < 0 || offset + bytes > arenaBytes) {
    fprintf(stderr,
            "mplan-rt: error: %s: in @%s: planned buffer %" PRId64 " [%" PRId64
            ", %" PRId64 ") lies outside its %" PRId64 "-byte arena\n",
            s->site, currentFunction(), id, offset, offset + bytes, arenaBytes);
    error();
  }
  size_t first = frames.size ? frames.data[frames.size - 1].region : 0;
  int64_t begin = arena + offset, finish = arena + offset + bytes;
  for (size_t i = first; i < liveRegions.size; ++i) {
    LiveRegion *r = &liveRegions.data[i];
    if (r->id == id && r->arena == arena) { /* redefined (loop): restart */
      addSpaceLive(r->space, -(r->end - r->begin));
      addSpaceLive(spi, finish - begin);
      r->space = spi;
      r->begin = begin;
      r->end = finish;
      r->site = si;
      return;
    }
  }
  for (size_t i = first; i < liveRegions.size; ++i) {
    LiveRegion *r = &liveRegions.data[i];
    if (bytes == 0 || r->begin == r->end || r->end <= begin ||
        finish <= r->begin)
      continue;
    SiteStats *o = &sites.data[r->site];
    fprintf(stderr,
            "mplan-rt: error: %s: in @%s: planned buffer %" PRId64
            " (bytes [%" PRId64 ", %" PRId64 ") of its arena) overlaps live "
            "planned buffer %" PRId64 " (bytes [%" PRId64 ", %" PRId64
            ")) created at %s\n",
            s->site, currentFunction(), id, offset, offset + bytes, r->id,
            r->begin - r->arena, r->end - r->arena, o->site);
    error();
  }
  LiveRegion r = {id, begin, finish, arena, si, spi};
  VEC_PUSH(liveRegions, r);
  addSpaceLive(spi, finish - begin);
}

EXPORT void mplan_rt_region_end(int64_t id, int64_t arena) {
  size_t first = frames.size ? frames.data[frames.size - 1].region : 0;
  for (size_t i = liveRegions.size; i-- > first;) {
    if (liveRegions.data[i].id != id ||
        (arena && liveRegions.data[i].arena != arena))
      continue;
    addSpaceLive(liveRegions.data[i].space,
                 -(liveRegions.data[i].end - liveRegions.data[i].begin));
    memmove(&liveRegions.data[i], &liveRegions.data[i + 1],
            (liveRegions.size - i - 1) * sizeof(LiveRegion));
    liveRegions.size--;
    return;
  }
}

EXPORT void mplan_rt_check_bound(int64_t site, int64_t id, int64_t dim,
                                 int64_t size, int64_t bound, int64_t source) {
  if (size >= 0 && size <= bound)
    return;
  fprintf(stderr,
          "mplan-rt: error: %s: in @%s: planned buffer %" PRId64
          ": dimension %" PRId64 " is %" PRId64
          ", above its upper bound %" PRId64
          " (mplan.bound: %s); the run stops: the buffer does not fit its "
          "slot\n",
          str(site), currentFunction(), id, dim, size, bound, str(source));
  error();
  fflush(NULL);
  exit(3); /* the summary and the error count are printed at exit */
}

/*--- Summary ---------------------------------------------------------------*/

static const char *kindName(int kind) {
  switch (kind) {
  case MPLAN_RT_HEAP:
    return "heap";
  case MPLAN_RT_STACK:
    return "stack";
  case MPLAN_RT_STATIC:
    return "static";
  case MPLAN_RT_ARGUMENT:
    return "argument";
  default:
    return "region";
  }
}

static void jsonString(FILE *out, const char *s) {
  fputc('"', out);
  for (; *s; ++s) {
    if (*s == '"' || *s == '\\')
      fputc('\\', out);
    if ((unsigned char)*s < 0x20)
      fprintf(out, "\\u%04x", *s);
    else
      fputc(*s, out);
  }
  fputc('"', out);
}

static void printText(FILE *out) {
  int64_t liveHeapBytes = 0;
  for (size_t i = 0; i < liveHeap.size; ++i)
    liveHeapBytes += liveHeap.data[i].bytes;
  fprintf(out, "mplan-rt: ---- memory summary ----\n");
  fprintf(out,
          "mplan-rt: heap allocs %" PRId64 ", frees %" PRId64 ", bytes %" PRId64
          ", live at exit %zu (%" PRId64 " B)\n",
          heapAllocs, heapFrees, heapBytes, liveHeap.size, liveHeapBytes);
  fprintf(out,
          "mplan-rt: stack allocs %" PRId64 " (%" PRId64
          " B), static arenas %" PRId64 " (%" PRId64
          " B), argument arenas %" PRId64 "\n",
          stackAllocs, stackBytes, staticArenas, staticBytes, argumentArenas);
  if (untrackedFrees)
    fprintf(out,
            "mplan-rt: frees of buffers allocated out of sight %" PRId64 "\n",
            untrackedFrees);
  fprintf(out, "mplan-rt: peak live bytes %" PRId64 "\n", peakBytes);
  fprintf(out, "mplan-rt: planned buffers %" PRId64 ", errors %" PRId64 "\n",
          regions, errors);
  if (spaces.size) {
    fprintf(out, "mplan-rt: peak live planned bytes per memory space:");
    for (size_t i = 0; i < spaces.size; ++i)
      fprintf(out, "%s %s %" PRId64, i ? "," : "", spaces.data[i].name,
              spaces.data[i].peak);
    fprintf(out, "\n");
  }
  for (size_t i = 0; i < functions.size; ++i) {
    FunctionStats *f = &functions.data[i];
    fprintf(out,
            "mplan-rt: @%s: calls %" PRId64 ", heap allocs %" PRId64
            " (%.2f/call), frees %" PRId64 ", stack allocs %" PRId64
            ", static arenas %" PRId64 ", planned buffers %" PRId64
            ", peak %" PRId64 " B above entry\n",
            f->name, f->calls, f->heapAllocs,
            f->calls ? (double)f->heapAllocs / (double)f->calls : 0.0,
            f->heapFrees, f->stackAllocs, f->staticArenas, f->regions,
            f->peakAboveEntry);
  }
  const char *verbose = getenv("MPLAN_RT_VERBOSE");
  if (!verbose || strcmp(verbose, "1"))
    return;
  for (size_t i = 0; i < sites.size; ++i) {
    SiteStats *s = &sites.data[i];
    if (s->kind == 4)
      fprintf(out,
              "mplan-rt: site %s: planned buffer %" PRId64 " at [%" PRId64
              ", %" PRId64 ") of a %" PRId64 "-byte arena, live [%" PRId64
              ", %" PRId64 "), x%" PRId64 "\n",
              s->site, s->id, s->offset, s->offset + s->bytes, s->arenaBytes,
              s->start, s->end, s->count);
    else
      fprintf(out,
              "mplan-rt: site %s: %s alloc x%" PRId64 ", %" PRId64
              " B total, %" PRId64 " B max\n",
              s->site, kindName(s->kind), s->count, s->bytes, s->maxBytes);
  }
}

static void printJson(FILE *out) {
  fprintf(out,
          "{\"heap_allocs\": %" PRId64 ", \"heap_frees\": %" PRId64
          ", \"heap_bytes\": %" PRId64 ", \"live_at_exit\": %zu"
          ", \"stack_allocs\": %" PRId64 ", \"stack_bytes\": %" PRId64
          ", \"static_arenas\": %" PRId64 ", \"static_bytes\": %" PRId64
          ", \"argument_arenas\": %" PRId64 ", \"peak_bytes\": %" PRId64
          ", \"planned_buffers\": %" PRId64 ", \"errors\": %" PRId64
          ", \"untracked_frees\": %" PRId64 ",\n",
          heapAllocs, heapFrees, heapBytes, liveHeap.size, stackAllocs,
          stackBytes, staticArenas, staticBytes, argumentArenas, peakBytes,
          regions, errors, untrackedFrees);
  fprintf(out, " \"space_peaks\": {");
  for (size_t i = 0; i < spaces.size; ++i) {
    fprintf(out, "%s", i ? ", " : "");
    jsonString(out, spaces.data[i].name);
    fprintf(out, ": %" PRId64, spaces.data[i].peak);
  }
  fprintf(out, "},\n \"functions\": [");
  for (size_t i = 0; i < functions.size; ++i) {
    FunctionStats *f = &functions.data[i];
    fprintf(out, "%s\n  {\"name\": ", i ? "," : "");
    jsonString(out, f->name);
    fprintf(out,
            ", \"calls\": %" PRId64 ", \"heap_allocs\": %" PRId64
            ", \"heap_frees\": %" PRId64 ", \"heap_bytes\": %" PRId64
            ", \"stack_allocs\": %" PRId64 ", \"static_arenas\": %" PRId64
            ", \"planned_buffers\": %" PRId64 ", \"peak_above_entry\": %" PRId64
            "}",
            f->calls, f->heapAllocs, f->heapFrees, f->heapBytes, f->stackAllocs,
            f->staticArenas, f->regions, f->peakAboveEntry);
  }
  fprintf(out, "],\n \"sites\": [");
  for (size_t i = 0; i < sites.size; ++i) {
    SiteStats *s = &sites.data[i];
    fprintf(out, "%s\n  {\"loc\": ", i ? "," : "");
    jsonString(out, s->site);
    fprintf(out, ", \"kind\": \"%s\", \"count\": %" PRId64, kindName(s->kind),
            s->count);
    if (s->kind == 4)
      fprintf(out,
              ", \"id\": %" PRId64 ", \"offset\": %" PRId64
              ", \"size\": %" PRId64 ", \"start\": %" PRId64
              ", \"end\": %" PRId64 ", \"arena_bytes\": %" PRId64 "}",
              s->id, s->offset, s->bytes, s->start, s->end, s->arenaBytes);
    else
      fprintf(out, ", \"bytes\": %" PRId64 ", \"max_bytes\": %" PRId64 "}",
              s->bytes, s->maxBytes);
  }
  fprintf(out, "]}\n");
}

EXPORT void mplan_rt_print_summary(void) {
  fflush(stdout);
  const char *where = getenv("MPLAN_RT_OUTPUT");
  if (!where || !strcmp(where, "stderr")) {
    printText(stderr);
  } else if (!strcmp(where, "stdout")) {
    printText(stdout);
    fflush(stdout);
  } else if (strcmp(where, "none")) {
    FILE *out = fopen(where, "a");
    if (out) {
      printText(out);
      fclose(out);
    } else {
      fprintf(stderr, "mplan-rt: cannot open %s\n", where);
    }
  }
  const char *json = getenv("MPLAN_RT_JSON");
  if (json && *json) {
    FILE *out = fopen(json, "w");
    if (out) {
      printJson(out);
      fclose(out);
    } else {
      fprintf(stderr, "mplan-rt: cannot open %s\n", json);
    }
  }
}

static void atExit(void) {
  mplan_rt_print_summary();
  if (errors) {
    fprintf(stderr, "mplan-rt: %" PRId64 " error(s) found\n", errors);
    fflush(NULL);
    _exit(3);
  }
}

__attribute__((constructor)) static void init(void) { atexit(atExit); }
