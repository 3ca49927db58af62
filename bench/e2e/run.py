#!/usr/bin/python3
"""End-to-end benchmark: upstream MLIR's unplanned path vs mplan (arena=heap, arena=global).

For every model of the zoo (models/*.mlir) this program builds three native programs:
  baseline  one-shot-bufferize + buffer-results-to-out-params + ownership-based
            deallocation (upstream, BRIEF section 6), lowered by mplan-to-llvm
  heap      the same bufferization, then mplan-plan-pipeline and arena=heap
  global    ... arena=global
and measures, per call of @model:
  * allocations (heap allocation calls), frees and peak bytes above entry, counted by the
    memory observer (--mplan-instrument + libmplan_runtime.so) in the same way for all three;
  * allocation calls visible in the lowered @model (llvm.call @malloc/@aligned_alloc);
  * wall time of the @model call, timed inside the program (rtclock around loops of calls,
    the fastest of several samples per run), paired alternating runs (baseline, heap, global,
    rotated each round); times are medians over rounds, ratios medians of per-round ratios;
  * identical output: the uninstrumented programs' stdout (addresses masked) must be equal.
Returned buffers become caller-provided out-params (upstream buffer-results-to-out-params)
in all three programs, so @model's allocations are its intermediates only.

Usage: bench/e2e/run.py [--build build] [--rounds 5] [--models a,b] [--markdown out.md]
"""
import argparse
import json
import os
import platform
import re
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
VARIANTS = ["baseline", "heap", "global"]


def sh(cmd, stdin=None, env=None, check=True):
    p = subprocess.run(cmd, input=stdin, capture_output=True, text=True, env=env)
    if check and p.returncode != 0:
        sys.exit(f"command failed ({p.returncode}): {' '.join(cmd)}\n{p.stderr[-3000:]}")
    return p


def add_timing(src, iterations, samples=1):
    """After the `call @model` of @main, `samples` times: an rtclock-timed loop of
    `iterations` calls, each printing one `mplan-bench-seconds` line."""
    m = re.search(r"^(\s*)(%\w+) = call @model\((.*)\) : (.*)$", src, re.M)
    if not m:
        sys.exit("no `%x = call @model(...)` line in @main")
    ind, _, args, sig = m.groups()
    loop = (f"\n{ind}%__n = arith.constant {iterations} : index\n"
            f"{ind}%__s = arith.constant {samples} : index\n"
            f"{ind}%__c0 = arith.constant 0 : index\n{ind}%__c1 = arith.constant 1 : index\n"
            f"{ind}scf.for %__j = %__c0 to %__s step %__c1 {{\n"
            f"{ind}  %__t0 = func.call @rtclock() : () -> f64\n"
            f"{ind}  scf.for %__i = %__c0 to %__n step %__c1 {{\n"
            f"{ind}    %__r = func.call @model({args}) : {sig}\n{ind}  }}\n"
            f"{ind}  %__t1 = func.call @rtclock() : () -> f64\n"
            f"{ind}  %__dt = arith.subf %__t1, %__t0 : f64\n"
            f"{ind}  vector.print str \"mplan-bench-seconds \"\n{ind}  vector.print %__dt : f64\n"
            f"{ind}}}\n")
    src = src[:m.end()] + loop + src[m.end():]
    return src + "\nfunc.func private @rtclock() -> f64\n"


def lower(variant, src, mplan_opt, instrument):
    if is_tosa(src):
        src = sh([f"{LLVM}/bin/mlir-opt", TOSA_TO_LINALG], stdin=src).stdout
    buf = sh([f"{LLVM}/bin/mlir-opt", *BUFFERIZE], stdin=src).stdout
    inst = ["--mplan-instrument"] if instrument else []
    if variant == "baseline":
        mem = sh([f"{LLVM}/bin/mlir-opt", *DEALLOC], stdin=buf).stdout
    else:
        mem = sh([mplan_opt, "--mplan-plan-pipeline",
                  f"--convert-mplan-to-memref=arena={variant}"], stdin=buf).stdout
    llvm = sh([mplan_opt, *inst, "--mplan-to-llvm"], stdin=mem).stdout
    return mem, llvm


def model_body(ir, prefix):
    m = re.search(prefix + r" @model\(.*?\n  \}\n", ir, re.S)
    return m.group(0) if m else ""


def run(llvm_ir, libs, env=None):
    p = sh([f"{LLVM}/bin/mlir-runner", "-e", "main", "-entry-point-result=void",
            "-shared-libs=" + ",".join(libs)], stdin=llvm_ir, env=env)
    out = re.sub(r"base@ = 0x[0-9a-fA-F]+", "base@ = ADDR", p.stdout)
    secs = [float(x) for x in re.findall(r"mplan-bench-seconds ([0-9.eE+-]+)", out)]
    out = re.sub(r"mplan-bench-seconds [^\n]*\n", "", out)
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
            run(llvm, RUNNER_LIBS + [runtime], env=env)
            data = json.load(open(js.name))
        f = next(x for x in data["functions"] if x["name"] == "model")
        res[v] = {"allocs_per_call": f["heap_allocs"] / f["calls"],
                  "frees_per_call": f["heap_frees"] / f["calls"],
                  "static_per_call": f["static_arenas"] / f["calls"],
                  "peak": f["peak_above_entry"], "errors": data["errors"]}
        if v != "baseline":
            arena = re.search(r"mplan\.arena\} : memref<(\d+)xi8>", model_body(mem, "func.func"))
            res[v]["arena"] = int(arena.group(1)) if arena else 0
        _, plain = lower(v, counted, mplan_opt, instrument=False)
        body = model_body(plain, "llvm.func")
        res[v]["ir_allocs"] = len(re.findall(r"llvm\.call @(malloc|aligned_alloc)\(", body))
    # Timing: samples of `iters` calls (~0.1 s each, 3-9 per run, ~1 s of calls per run);
    # a run's time is its fastest sample (on a shared VM noise only adds time); rounds
    # alternate the three programs (order rotated), and each ratio is taken within a
    # round (paired), then the median over rounds.
    once = {v: lower(v, add_timing(src, 1), mplan_opt, False)[1] for v in VARIANTS}
    _, (t1,) = run(once["baseline"], RUNNER_LIBS)
    iters = max(1, min(200, int(0.1 / max(t1, 1e-6))))
    samples = max(3, min(9, int(1.0 / (iters * max(t1, 1e-6)))))
    progs = {v: lower(v, add_timing(src, iters, samples), mplan_opt, False)[1] for v in VARIANTS}
    times = {v: [] for v in VARIANTS}
    outs = {}
    for r in range(args.rounds):
        order = VARIANTS[r % 3:] + VARIANTS[:r % 3]
        for v in order:
            out, secs = run(progs[v], RUNNER_LIBS)
            times[v].append(min(secs) / iters)
            outs.setdefault(v, out)
            if out != outs[v]:
                sys.exit(f"{name}/{v}: output differs between runs")
    res["iters"], res["samples"] = iters, samples
    res["identical"] = all(outs[v] == outs["baseline"] for v in VARIANTS)
    for v in VARIANTS:
        res[v]["time"] = statistics.median(times[v])
        res[v]["ratio"] = statistics.median(t / b for t, b in zip(times[v], times["baseline"]))
    return res


def fmt_bytes(n):
    return f"{n / 1024:,.0f} KiB" if n >= 10240 else f"{n:,} B"


def table(results):
    lines = ["| model | allocs/call base / heap / global | malloc calls in lowered @model base / heap / global | "
             "peak base | arena (heap) | arena / base peak | time base (ms) | heap | global | "
             "heap / base | global / base | output identical |",
             "|---|---|---|---|---|---|---|---|---|---|---|---|"]
    for r in results:
        b, h, g = r["baseline"], r["heap"], r["global"]
        ratio = h["arena"] / b["peak"] if b["peak"] else 0
        lines.append(
            f"| `{r['model']}` | {b['allocs_per_call']:g} / {h['allocs_per_call']:g} / "
            f"{g['allocs_per_call']:g} | {b['ir_allocs']} / {h['ir_allocs']} / {g['ir_allocs']} | "
            f"{fmt_bytes(b['peak'])} | {fmt_bytes(h['arena'])} | {ratio:.2f} | "
            f"{b['time'] * 1e3:.2f} | {h['time'] * 1e3:.2f} | {g['time'] * 1e3:.2f} | "
            f"{h['ratio']:.2f} | {g['ratio']:.2f} | "
            f"{'yes' if r['identical'] else '**no**'} |")
    return "\n".join(lines)


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--build", default=os.path.join(ROOT, "build"))
    ap.add_argument("--rounds", type=int, default=5)
    ap.add_argument("--models", default="")
    ap.add_argument("--json", default="")
    ap.add_argument("--markdown", default="")
    args = ap.parse_args()
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
    results = []
    start = time.time()
    for name in names:
        t = time.time()
        r = bench_model(name, args, mplan_opt, runtime)
        results.append(r)
        print(f"{name}: {time.time() - t:.0f} s", file=sys.stderr, flush=True)
    cpu = "unknown"
    try:
        cpu = next(l.split(":", 1)[1].strip() for l in open("/proc/cpuinfo") if l.startswith("model name"))
    except (OSError, StopIteration):
        pass
    header = (f"Machine: {cpu}, {os.cpu_count()} cores, {platform.system()} {platform.release()}; "
              f"MLIR 22 (`{LLVM}`); {args.rounds} paired rounds; total {time.time() - start:.0f} s.")
    md = header + "\n\n" + table(results) + "\n"
    print(md)
    if args.markdown:
        open(args.markdown, "w").write(md)
    if args.json:
        json.dump(results, open(args.json, "w"), indent=1)
    bad = [r["model"] for r in results if not r["identical"] or
           r["heap"]["allocs_per_call"] != 1 or r["global"]["allocs_per_call"] != 0 or
           any(r[v]["errors"] for v in VARIANTS)]
    if bad:
        print("bars not met on: " + ", ".join(bad), file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
