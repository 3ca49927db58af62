#!/usr/bin/python3
"""End-to-end benchmark: upstream MLIR's unplanned path vs mplan, every arena kind.

For every model of the zoo (models/*.mlir) this program builds native programs:
  baseline  one-shot-bufferize + buffer-results-to-out-params + ownership-based
            deallocation (upstream, BRIEF section 6), lowered by mplan-to-llvm
  heap      the same bufferization, then mplan-plan-pipeline and arena=heap
  stack     ... arena=stack (a heap arena above the 1 MiB stack limit)
  global    ... arena=global
  argument  ... arena=argument functions=model (@main hands @model its arena)
  shared-global ... arena=shared-global (one global arena for @model and what it calls)
(--variants narrows the planned ones) and measures, per call of @model:
  * allocations (heap allocation calls), frees and peak bytes above entry, counted by the
    memory observer (--mplan-instrument + libmplan_runtime.so) in the same way for all;
  * allocation calls visible in the lowered @model (llvm.call @malloc/@aligned_alloc);
  * identical output: the uninstrumented programs' stdout (addresses masked, under
    mlir-runner), each calling only its own version of @model, must be equal, and every run of
    a timed program (below) must print the same as its planned side's (aa: the baseline's);
  * compile time: CPU seconds of `clang -O3 -march=native -c` (--opt-level) on the LLVM IR
    of each of those single-model programs, and the loops of @model that its loop vectorizer
    rejected for "unsafe dependent memory operations" (optimization records);
  * wall time of the @model call, paired inside one process: the program of a planned
    variant also holds the baseline's @model (the source gets a copy of @model and of what it
    calls, renamed `__base`; after one bufferization the planned pipeline's versions of the
    copies are replaced by the baseline pipeline's), and @main times blocks of `iters` calls
    (~15 ms) in ABBA order (planned, base, base, planned), `samples` times (25; for models
    of over ~40 ms a call, as many as fit ~4 s, at least 2). A run's ratio is
    the median over its samples of planned / base; a model's ratio the median over rounds
    (separate processes, the order of the variants and aa rotated). The A/A control (aa) is
    the same program with the baseline on both sides: its ratio shows the noise floor. The
    timed programs are built with optimisation, as a downstream compiler would (mlir-runner's
    default, no -O flag, optimises less): compiled once ahead of time by clang -O3
    -march=native (--opt-level; the LLVM pipeline and host target of `mlir-runner -O3`,
    whose JIT would recompile at every start) and linked with the runner libraries; they take
    `iters` and `samples` on their command line, `iters` calibrated by single calls of the
    A/A program. @model and @model__base are `noinline` in them: both sides are calls, as
    a runtime calls a compiled model (otherwise LLVM inlines whichever is below its threshold
    into the timing loop, and the pair compares inlined with called code).
Returned buffers become caller-provided out-params (upstream buffer-results-to-out-params)
in all programs, so @model's allocations are its intermediates only.

Usage: bench/e2e/run.py [--build build] [--rounds 5] [--opt-level 3] [--models a,b]
                        [--variants heap,stack,global,argument,shared-global] [--plan-options stagger=128]
                        [--lower-options alias-scopes=false] [--compile-only]
                        [--markdown out.md] [--json out.json]
"""
import argparse
import json
import os
import platform
import re
import resource
import statistics
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, os.path.join(ROOT, "utils"))
from mplan_pipelines import TOSA_TO_LINALG, is_tosa  # noqa: E402
LLVM = "/usr/lib/llvm-22"
BUFFERIZE = ["--one-shot-bufferize=bufferize-function-boundaries "
             "function-boundary-type-conversion=identity-layout-map",
             "--buffer-results-to-out-params=hoist-static-allocs hoist-dynamic-allocs "
             "modify-public-functions"]
DEALLOC = ["--ownership-based-buffer-deallocation", "--canonicalize",
           "--buffer-deallocation-simplification", "--bufferization-lower-deallocations",
           "--convert-bufferization-to-memref"]
RUNNER_LIBS = [f"{LLVM}/lib/libmlir_c_runner_utils.so", f"{LLVM}/lib/libmlir_runner_utils.so"]
PLANNED = ["heap", "stack", "global", "argument", "shared-global"]  # --variants narrows this
# convert-mplan-to-memref's options per planned variant: `argument` hands @model its arena from
# its caller (@main, which nests it in its own arena); `shared-global` gives @model and the
# planned functions it calls one global arena (@main is the baseline's, unplanned).
ARENA_OPTIONS = {"heap": "arena=heap", "stack": "arena=stack", "global": "arena=global",
                 "argument": "arena=argument functions=model",
                 "shared-global": "arena=shared-global"}
LOWER_OPTIONS = ""  # --lower-options: passed to mplan-to-llvm for every program
VARIANTS = ["baseline"] + PLANNED  # programs counted, compared and compiled
PAIRS = PLANNED + ["aa"]  # timed programs: planned vs baseline, and baseline vs itself
BLOCK_SECONDS = 0.015  # one timed block of `iters` calls
RUN_SECONDS = 4.0  # timed blocks per run, within the sample bounds below (1-s models: 2)
MIN_SAMPLES, MAX_SAMPLES = 2, 25
# The timed programs' entry: @main (renamed) and their command line (iterations, samples).
STUB = """#include <stdint.h>
#include <stdlib.h>
void mplan_bench_main(void);
static char **bench_argv;
int64_t mplan_bench_arg(int64_t i) { return atoll(bench_argv[i]); }
int main(int argc, char **argv) { (void)argc; bench_argv = argv; mplan_bench_main(); return 0; }
"""


def sh(cmd, stdin=None, env=None, check=True):
    p = subprocess.run(cmd, input=stdin, capture_output=True, text=True, env=env)
    if check and p.returncode != 0:
        sys.exit(f"command failed ({p.returncode}): {' '.join(cmd)}\n{p.stderr[-3000:]}")
    return p


def add_timing(src, iterations=None, samples=1, blocks=("model",)):
    """After the `call @model` of @main, `samples` times: for each function named in `blocks`
    (in that order), an rtclock-timed loop of `iterations` calls of it with @model's arguments,
    printing one `mplan-bench-<function> <seconds>` line. Without `iterations` the program
    reads both numbers from its command line (a native program of `build`)."""
    m = re.search(r"^(\s*)(%\w+) = call @model\((.*)\) : (.*)$", src, re.M)
    if not m:
        sys.exit("no `%x = call @model(...)` line in @main")
    ind, _, args, sig = m.groups()
    loop = f"\n{ind}%__c0 = arith.constant 0 : index\n{ind}%__c1 = arith.constant 1 : index\n"
    decl = "\nfunc.func private @rtclock() -> f64\n"
    if iterations is None:
        loop += (f"{ind}%__c2 = arith.constant 2 : index\n"
                 f"{ind}%__n = func.call @mplan_bench_arg(%__c1) : (index) -> index\n"
                 f"{ind}%__s = func.call @mplan_bench_arg(%__c2) : (index) -> index\n")
        decl += "func.func private @mplan_bench_arg(index) -> index\n"
    else:
        loop += (f"{ind}%__n = arith.constant {iterations} : index\n"
                 f"{ind}%__s = arith.constant {samples} : index\n")
    loop += f"{ind}scf.for %__j = %__c0 to %__s step %__c1 {{\n"
    for k, fn in enumerate(blocks):
        loop += (f"{ind}  %__t0_{k} = func.call @rtclock() : () -> f64\n"
                 f"{ind}  scf.for %__i{k} = %__c0 to %__n step %__c1 {{\n"
                 f"{ind}    %__r{k} = func.call @{fn}({args}) : {sig}\n{ind}  }}\n"
                 f"{ind}  %__t1_{k} = func.call @rtclock() : () -> f64\n"
                 f"{ind}  %__dt{k} = arith.subf %__t1_{k}, %__t0_{k} : f64\n"
                 f"{ind}  vector.print str \"mplan-bench-{fn} \"\n"
                 f"{ind}  vector.print %__dt{k} : f64\n")
    return src[:m.end()] + loop + f"{ind}}}\n" + src[m.end():] + decl


def functions(text, ind):
    """name -> text of each func.func at indentation `ind` ("" in a model's source, two
    spaces in a printed module): a one-line declaration or a definition through its `}`."""
    pat = (rf"^{ind}func\.func [^\n]*?@([\w$.]+)\("
           rf"(?:[^\n]*? \{{\n.*?^{ind}\}}\n|[^\n]*\n)")
    return {m.group(1): m.group(0) for m in re.finditer(pat, text, re.S | re.M)}


def with_base_copy(src):
    """`src` plus a copy of @model and of every function defined in `src` that it reaches
    through `call @f(`, renamed `f__base` (calls among them too): the baseline side of the
    paired programs."""
    funcs = functions(src, "")
    reach, todo = set(), ["model"]
    while todo:
        f = todo.pop()
        if f in reach or f not in funcs or funcs[f].count("\n") < 2:  # declarations stay shared
            continue
        reach.add(f)
        todo += re.findall(r"call @([\w$.]+)\(", funcs[f])
    if "model" not in reach or any(f + "__base" in funcs for f in reach):
        sys.exit("no @model definition in the source, or a `__base` name already taken")
    ref = re.compile(r"@(%s)(?![\w$.])" % "|".join(re.escape(f) for f in sorted(reach)))
    return src + "".join(ref.sub(r"@\1__base", funcs[f]) for f in sorted(reach))


def pair_module(bufferized, planned, base, base_main):
    """The planned module with the baseline pipeline's versions (`base`) of the `__base`
    functions (and of @main if `base_main`), plus what else `base` defines that `planned` lacks
    (e.g. a dealloc helper or a global). All three modules are printed without attribute aliases
    (--mlir-print-local-scope), so text can move between them. A symbol both define differently
    is an error unless it is a function of `bufferized` (@main, @model: each module keeps its
    own)."""
    def symbols(text):
        ops = re.finditer(r"^  (?!func\.func )[a-z][\w.]* [^\n]*?@([\w$.]+)[^\n]*\n", text, re.M)
        return {**functions(text, "  "), **{m.group(1): m.group(0) for m in ops}}
    inputs, pf, bf = functions(bufferized, "  "), symbols(planned), symbols(base)
    extra = ""
    for name, text in bf.items():
        if name not in pf:
            extra += text
        elif (name.endswith("__base") or (base_main and name == "main")) and name in inputs:
            planned = planned.replace(pf[name], text)
        elif pf[name] != text and name not in inputs:
            sys.exit(f"@{name}: the planned and the baseline pipelines define it differently")
    end = planned.rindex("}")
    return planned[:end] + extra + planned[end:]


PLAN_OPTIONS = ""  # --plan-options: passed to mplan-plan-pipeline


def plan_pipeline():
    return f"--mplan-plan-pipeline={PLAN_OPTIONS}" if PLAN_OPTIONS else "--mplan-plan-pipeline"


def to_memref(variant):
    return f"--convert-mplan-to-memref={ARENA_OPTIONS[variant]}"


def to_llvm():
    return f"--mplan-to-llvm={LOWER_OPTIONS}" if LOWER_OPTIONS else "--mplan-to-llvm"


def bufferize(src, *flags):
    """`src` (TOSA first lowered to linalg) after the common bufferization."""
    if is_tosa(src):
        src = sh([f"{LLVM}/bin/mlir-opt", TOSA_TO_LINALG], stdin=src).stdout
    return sh([f"{LLVM}/bin/mlir-opt", *BUFFERIZE, *flags], stdin=src).stdout


def lower(variant, src, mplan_opt, instrument):
    buf = bufferize(src)
    inst = ["--mplan-instrument"] if instrument else []
    if variant == "baseline":
        mem = sh([f"{LLVM}/bin/mlir-opt", *DEALLOC], stdin=buf).stdout
    else:
        mem = sh([mplan_opt, plan_pipeline(), to_memref(variant)], stdin=buf).stdout
    llvm = sh([mplan_opt, *inst, to_llvm()], stdin=mem).stdout
    return mem, llvm


def lower_pairs(src, mplan_opt):
    """The paired programs of `src` (with its `__base` copy and timing): one per planned
    variant (the planned @model against the baseline's @model__base) and aa (the baseline on
    both sides), from one bufferization. The timing harness @main is the baseline's in every
    program but `argument` (whose @model takes its arena from @main's planned heap arena), so
    the weights and inputs both sides read sit in the same kind of memory (separate `malloc`s)
    whatever @model's arena kind: with @main's own buffers in a global arena (.bss), a globally
    planned @model was 1.03x its baseline on bert_layer and 1.00x with the same @main's arena on
    the heap (docs/benchmarks.md)."""
    scope = "--mlir-print-local-scope"
    buf = bufferize(src, scope)
    base = sh([f"{LLVM}/bin/mlir-opt", *DEALLOC, scope], stdin=buf).stdout
    mems = {"aa": base}
    for v in PLANNED:
        planned = sh([mplan_opt, plan_pipeline(), to_memref(v), scope], stdin=buf).stdout
        mems[v] = pair_module(buf, planned, base, base_main=(v != "argument"))
    return {p: sh([mplan_opt, to_llvm()], stdin=mems[p]).stdout for p in PAIRS}


def model_body(ir, prefix):
    m = re.search(prefix + r" @model\(.*?\n  \}\n", ir, re.S)
    return m.group(0) if m else ""


def compile_seconds(llvm_ir, opt):
    """CPU seconds (user + system: steadier than wall time on a loaded machine) of
    `clang -O<opt> -march=native -c` on the LLVM IR of `llvm_ir` (a
    program's lowered module), translation not included, and how many loops of @model the loop
    vectorizer rejected for "unsafe dependent memory operations" (its optimization records,
    saved for that pass only: the one compile serves both)."""
    ll = sh([f"{LLVM}/bin/mlir-translate", "--mlir-to-llvmir"], stdin=llvm_ir).stdout
    with tempfile.TemporaryDirectory() as tmp:
        open(os.path.join(tmp, "p.ll"), "w").write(ll)
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        sh([f"{LLVM}/bin/clang", f"-O{opt}", "-march=native", "-Wno-override-module", "-c",
                os.path.join(tmp, "p.ll"), "-o", os.path.join(tmp, "p.o"),
                "-fsave-optimization-record=yaml", "-foptimization-record-passes=loop-vectorize",
                "-foptimization-record-file=" + os.path.join(tmp, "p.yaml")])
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        seconds = (after.ru_utime + after.ru_stime) - (before.ru_utime + before.ru_stime)
        records = open(os.path.join(tmp, "p.yaml")).read().split("\n--- ")
        unsafe = sum(1 for r in records
                     if re.search(r"Function: +(model|__mplan_body_model)\n", r) and
                     "unsafe dependent memory operations" in r)
        return seconds, unsafe


def build(llvm_ir, exe, opt):
    """`exe`: the lowered program compiled ahead of time by clang -O<opt> -march=native (the
    LLVM pipeline and host target of `mlir-runner -O<opt>`), run as `exe ITERATIONS SAMPLES`."""
    ll = sh([f"{LLVM}/bin/mlir-translate", "--mlir-to-llvmir"], stdin=llvm_ir).stdout
    ll, n = re.subn(r"^define void @main\(\)", "define void @mplan_bench_main()", ll, flags=re.M)
    if n != 1:
        sys.exit("no `define void @main()` in the translated program")
    # Both sides stay calls, as a runtime calls a compiled model across its ABI: LLVM's
    # inliner otherwise takes a @model below its threshold into the timing loop and leaves the
    # other side called (mlp with in-place reuse under arena=stack or global: the planned side
    # inlined, timed 1.02-1.04x of the called baseline while executing 13 % fewer instructions).
    for fn in ("model", "model__base"):
        ll, n = re.subn(r"^(define [^\n]*@" + fn + r"\([^\n]*?)( \{)$", r"\1 noinline\2", ll,
                        flags=re.M)
        if n != 1:
            sys.exit(f"no single `define ... @{fn}(...)` in the translated program")
    open(exe + ".ll", "w").write(ll)
    open(exe + ".c", "w").write(STUB)
    sh([f"{LLVM}/bin/clang", f"-O{opt}", "-march=native", "-Wno-override-module", exe + ".ll",
        exe + ".c", "-o", exe, *RUNNER_LIBS, f"-Wl,-rpath,{LLVM}/lib", "-lm"])


def jit(llvm_ir, libs, env=None):
    return run([f"{LLVM}/bin/mlir-runner", "-e", "main", "-entry-point-result=void",
                "-shared-libs=" + ",".join(libs)], llvm_ir, env)


def run(cmd, stdin=None, env=None):
    """stdout (addresses and timing lines masked) and {function: [seconds of each block]}."""
    p = sh(cmd, stdin=stdin, env=env)
    out = re.sub(r"base@ = 0x[0-9a-fA-F]+", "base@ = ADDR", p.stdout)
    secs = {}
    for fn, t in re.findall(r"mplan-bench-([\w$.]+) ([0-9.eE+-]+)", out):
        secs.setdefault(fn, []).append(float(t))
    out = re.sub(r"mplan-bench-[^\n]*\n", "", out)
    return out, secs


def bench_model(name, args, mplan_opt, runtime):
    src = open(os.path.join(ROOT, "models", name + ".mlir")).read()
    res = {"model": name}
    # Observer counts (3 calls of @model).
    counted = add_timing(src, 2)
    for v in VARIANTS:
        mem, llvm = lower(v, counted, mplan_opt, instrument=True)
        with tempfile.NamedTemporaryFile(suffix=".json") as js:
            env = dict(os.environ, MPLAN_RT_OUTPUT="none", MPLAN_RT_JSON=js.name)
            jit(llvm, RUNNER_LIBS + [runtime], env=env)
            data = json.load(open(js.name))
        # Under shared-global @model is a wrapper that calls its body with the global arena.
        fs = {x["name"]: x for x in data["functions"]}
        f = fs.get("model") or fs["__mplan_body_model"]
        res[v] = {"allocs_per_call": f["heap_allocs"] / f["calls"],
                  "frees_per_call": f["heap_frees"] / f["calls"],
                  "static_per_call": f["static_arenas"] / f["calls"],
                  "peak": f["peak_above_entry"], "errors": data["errors"]}
        if v != "baseline":
            # An arena op (`{..., mplan.arena} : memref<Nxi8>`), argument
            # (`memref<Nxi8> {llvm.noalias, mplan.arena}`) or, under shared-global, the view
            # of the shared arena @model hands its body (`memref<Sxi8> to memref<Nxi8>`).
            arena = re.search(r"mplan\.arena\} : memref<(\d+)xi8>|"
                              r"memref<(\d+)xi8> \{(?:llvm\.noalias, )?mplan\.arena\}|"
                              r"memref<\d+xi8> to memref<(\d+)xi8>",
                              model_body(mem, "func.func"))
            res[v]["arena"] = int(next(g for g in arena.groups() if g)) if arena else 0
            # Arenas of run-time sized buffers: a heap allocation per call whatever the kind.
            res[v]["runtime_arenas"] = len(re.findall(
                r"memref\.alloc\([^)]+\) \{[^}]*mplan\.arena\}", model_body(mem, "func.func")))
        _, plain = lower(v, counted, mplan_opt, instrument=False)
        body = model_body(plain, "llvm.func")
        res[v]["ir_allocs"] = len(re.findall(r"llvm\.call @(malloc|aligned_alloc)\(", body))
    # Output identity: one program a variant holding only that variant's @model; the same
    # programs' compile time at -O<opt>.
    singles = {v: lower(v, src, mplan_opt, False)[1] for v in VARIANTS}
    outs = {v: jit(singles[v], RUNNER_LIBS)[0] for v in VARIANTS}
    res["identical"] = all(outs[v] == outs["baseline"] for v in VARIANTS)
    for v in VARIANTS:
        res[v]["compile"], res[v]["unsafe_loops"] = compile_seconds(singles[v], args.opt_level)
    # Timing: paired programs, compiled once; a sample is 4 blocks (ABBA) of `iters` calls,
    # ~15 ms each (calibrated by single calls of the A/A program); samples as many as fit
    # RUN_SECONDS of blocks a run, within [MIN_SAMPLES, MAX_SAMPLES].
    abba = ("model", "model__base", "model__base", "model")
    progs = lower_pairs(add_timing(with_base_copy(src), blocks=abba), mplan_opt)
    tmp = tempfile.TemporaryDirectory()
    exes = {p: os.path.join(tmp.name, p) for p in PAIRS}
    for p in PAIRS:
        build(progs[p], exes[p], args.opt_level)
    t1 = max(min(run([exes["aa"], "1", "3"])[1]["model__base"]), 1e-7)
    iters = max(1, min(10000, round(BLOCK_SECONDS / t1)))
    samples = max(MIN_SAMPLES, min(MAX_SAMPLES, int(RUN_SECONDS / (4 * iters * t1))))
    runs = {p: [] for p in PAIRS}
    for r in range(args.rounds):
        for p in PAIRS[r % len(PAIRS):] + PAIRS[:r % len(PAIRS)]:
            out, secs = run([exes[p], str(iters), str(samples)])
            # @main prints the result of its own call of @model (the planned one; aa: base).
            if out != outs["baseline" if p == "aa" else p]:
                sys.exit(f"{name}/{p}: the paired program's output differs from the single one's")
            a, b = secs["model"], secs["model__base"]
            plan = [x + y for x, y in zip(a[0::2], a[1::2])]
            base = [x + y for x, y in zip(b[0::2], b[1::2])]
            runs[p].append({"ratio": statistics.median(x / y for x, y in zip(plan, base)),
                            "time": statistics.median(plan) / (2 * iters),
                            "base": statistics.median(base) / (2 * iters)})
    tmp.cleanup()
    res["iters"], res["samples"], res["calibration_call"] = iters, samples, t1
    res["baseline"]["time"] = statistics.median(x["base"] for p in PAIRS for x in runs[p])
    res["aa"] = {}
    for p in PAIRS:
        res[p]["time"] = statistics.median(x["time"] for x in runs[p])
        res[p]["ratios"] = [x["ratio"] for x in runs[p]]
        res[p]["ratio"] = statistics.median(res[p]["ratios"])
    return res


def fmt_bytes(n):
    return f"{n / 1024:,.0f} KiB" if n >= 10240 else f"{n:,} B"


def table(results):
    """One row a model; the planned variants in PLANNED order."""
    names = " / ".join(["base"] + PLANNED)
    lines = [f"| model | allocs/call {names} | malloc sites in lowered @model {names} | "
             "peak base | arena | arena / base peak | time base (ms) | "
             + " | ".join(f"{v} / base" for v in PLANNED) + " | A/A (base / base) | "
             f"compile base (s) | compile {' / '.join(PLANNED)} ÷ base | "
             f"unsafe-dependence loops {names} | output identical |",
             "|" + "---|" * (11 + len(PLANNED))]
    for r in results:
        b, first = r["baseline"], r[PLANNED[0]]
        ratio = first["arena"] / b["peak"] if b["peak"] else 0
        row = [f"`{r['model']}`",
               " / ".join(f"{r[v]['allocs_per_call']:g}" for v in VARIANTS),
               " / ".join(str(r[v]["ir_allocs"]) for v in VARIANTS),
               fmt_bytes(b["peak"]), fmt_bytes(first["arena"]), f"{ratio:.2f}",
               f"{b['time'] * 1e3:.2f}", *(f"{r[v]['ratio']:.2f}" for v in PLANNED),
               f"{r['aa']['ratio']:.2f}", f"{b['compile']:.1f}",
               " / ".join(f"{r[v]['compile'] / b['compile']:.2f}" for v in PLANNED),
               " / ".join(str(r[v]["unsafe_loops"]) for v in VARIANTS),
               "yes" if r["identical"] else "**no**"]
        lines.append("| " + " | ".join(row) + " |")
    return "\n".join(lines)


def compile_only(names, args, mplan_opt):
    """--compile-only: per model, the CPU seconds of clang on each variant's single-model
    program and the loops of @model rejected for unsafe dependent memory operations."""
    names_v = " / ".join(["base"] + PLANNED)
    lines = [f"| model | compile base (s) | compile {' / '.join(PLANNED)} ÷ base | "
             f"unsafe-dependence loops {names_v} |", "|---|---|---|---|"]
    print(f"lowered with `{to_llvm()}`; `clang -O{args.opt_level} -march=native -c`, CPU "
          "seconds\n", flush=True)
    print("\n".join(lines), flush=True)
    for name in names:
        src = open(os.path.join(ROOT, "models", name + ".mlir")).read()
        got = {v: compile_seconds(lower(v, src, mplan_opt, False)[1], args.opt_level)
               for v in VARIANTS}
        base = got["baseline"][0]
        line = (f"| `{name}` | {base:.1f} | "
                + " / ".join(f"{got[v][0] / base:.2f}" for v in PLANNED) + " | "
                + " / ".join(str(got[v][1]) for v in VARIANTS) + " |")
        lines.append(line)
        print(line, flush=True)
    if args.markdown:
        open(args.markdown, "w").write("\n".join(lines) + "\n")
    return 0


def main():
    global PLAN_OPTIONS, LOWER_OPTIONS, PLANNED, VARIANTS, PAIRS
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--build", default=os.path.join(ROOT, "build"))
    ap.add_argument("--rounds", type=int, default=5)
    ap.add_argument("--opt-level", type=int, default=3, choices=range(4))
    ap.add_argument("--models", default="")
    ap.add_argument("--plan-options", default="",
                    help="options of mplan-plan-pipeline for the planned programs, e.g. stagger=128")
    ap.add_argument("--variants", default=",".join(PLANNED),
                    help="planned variants (arena kinds) to build and time, e.g. heap,global")
    ap.add_argument("--lower-options", default="",
                    help="options of mplan-to-llvm for every program, e.g. alias-scopes=false")
    ap.add_argument("--compile-only", action="store_true",
                    help="only the compile times and unsafe-dependence loops of the single-model "
                         "programs (a table of its own)")
    ap.add_argument("--json", default="")
    ap.add_argument("--markdown", default="")
    args = ap.parse_args()
    PLAN_OPTIONS, LOWER_OPTIONS = args.plan_options, args.lower_options
    PLANNED = args.variants.split(",")
    if not PLANNED or any(v not in ARENA_OPTIONS for v in PLANNED):
        sys.exit(f"--variants: a comma list of {', '.join(ARENA_OPTIONS)}")
    VARIANTS, PAIRS = ["baseline"] + PLANNED, PLANNED + ["aa"]
    mplan_opt = os.path.join(args.build, "bin", "mplan-opt")
    runtime = os.path.join(args.build, "lib", "libmplan_runtime.so")
    for f in (mplan_opt, runtime):
        if not os.path.exists(f):
            sys.exit(f"missing {f}: build first (make build)")
    # By default the zoo and the reduced external-style models (the full-size ones take
    # minutes of JIT compilation per run; name them with --models).
    names = args.models.split(",") if args.models else sorted(
        f[:-5] for f in os.listdir(os.path.join(ROOT, "models"))
        if f.endswith(".mlir") and (not f.startswith("ext_") or f.endswith("_small.mlir")))
    if not args.models:
        # A dynamically shaped @model result cannot become an out-param
        # (buffer-results-to-out-params), so those models (cnn_dynamic_batch) are left out.
        dynamic = [n for n in names if re.search(
            r"^func\.func @model\(.*\) -> tensor<\?",
            open(os.path.join(ROOT, "models", n + ".mlir")).read(), re.M)]
        if dynamic:
            print(f"left out (dynamically shaped @model result): {', '.join(dynamic)}",
                  file=sys.stderr)
        names = [n for n in names if n not in dynamic]
    if args.compile_only:
        return compile_only(names, args, mplan_opt)
    results = []
    start = time.time()
    for name in names:
        t = time.time()
        r = bench_model(name, args, mplan_opt, runtime)
        results.append(r)
        print(f"{name}: {time.time() - t:.0f} s {table([r]).splitlines()[-1]}", file=sys.stderr,
              flush=True)
    cpu = "unknown"
    try:
        cpu = next(l.split(":", 1)[1].strip() for l in open("/proc/cpuinfo") if l.startswith("model name"))
    except (OSError, StopIteration):
        pass
    samples = "-".join(str(n) for n in sorted({min(r["samples"] for r in results),
                                                max(r["samples"] for r in results)}))
    header = (f"Machine: {cpu}, {os.cpu_count()} cores, {platform.system()} {platform.release()}; "
              f"MLIR 22 (`{LLVM}`); timing: in-process paired ABBA blocks (planned, base, base, "
              f"planned; ~{BLOCK_SECONDS * 1e3:.0f} ms each), `clang -O{args.opt_level} "
              f"-march=native` (compiled once), "
              f"{args.rounds} rounds (processes), {samples} samples a run; "
              f"ratio = median over rounds of a run's median planned / base; "
              f"planned with `--mplan-plan-pipeline{'=' + PLAN_OPTIONS if PLAN_OPTIONS else ''}`, "
              f"lowered with `{to_llvm()}`; compile: `clang -O{args.opt_level} -march=native -c` "
              f"of each single-model program's LLVM IR, CPU seconds; "
              f"total {time.time() - start:.0f} s.")
    md = header + "\n\n" + table(results) + "\n"
    print(md)
    if args.markdown:
        open(args.markdown, "w").write(md)
    if args.json:
        json.dump(results, open(args.json, "w"), indent=1)
    # heap: the static arena (if any) is the one allocation of a call; global, argument,
    # shared-global: none; plus, under every kind, one per arena of run-time sized buffers.
    def expected(r, v):
        static = 1 if v == "heap" and r[v]["arena"] > 0 else 0
        return static + r[v].get("runtime_arenas", 0)
    bad = [r["model"] for r in results if not r["identical"] or
           any(r[v]["allocs_per_call"] != expected(r, v)
               for v in ("heap", "global", "argument", "shared-global") if v in PLANNED) or
           any(r[v]["errors"] for v in VARIANTS)]
    if bad:
        print("bars not met on: " + ", ".join(bad), file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
