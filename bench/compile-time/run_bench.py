#!/usr/bin/python3
"""Compile-time benchmark: mplan-plan-pipeline vs upstream One-Shot Bufferize.

For each size N (default 10k, 100k, 200k ops):
  1. gen_synthetic.py writes a linalg-on-tensors function of about N ops
     (after bufferization): chains, diamonds, nested loops, many views;
  2. times upstream `mlir-opt --one-shot-bufferize=...` on it (parse, bufferize,
     print), median of R runs; its output is the bufferized program;
  3. times the whole `mplan-opt --mplan-plan-pipeline` on the bufferized
     program (parse, passes, print), median of R runs;
  4. runs mplan-opt once more with --mlir-timing and sums the mplan passes.
Prints a Markdown table; with --update-doc FILE replaces the "## Compile time"
section of FILE (docs/benchmarks.md) with it.

Usage: bench/compile-time/run_bench.py [--mplan-opt build/bin/mplan-opt]
         [--sizes 10000,100000,200000] [--repeat 3] [--update-doc docs/benchmarks.md]
"""
import argparse
import os
import platform
import re
import statistics
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, HERE)
import gen_synthetic  # noqa: E402

BUFFERIZE = ("--one-shot-bufferize=bufferize-function-boundaries "
             "function-boundary-type-conversion=identity-layout-map")


def timed(cmd, repeat):
    times = []
    for _ in range(repeat):
        t0 = time.perf_counter()
        p = subprocess.run(cmd, capture_output=True, text=True)
        times.append(time.perf_counter() - t0)
        if p.returncode:
            sys.stderr.write(p.stderr[-4000:])
            raise SystemExit(f"failed: {' '.join(cmd)}")
    return statistics.median(times)


def count_ops(mlir_opt, path):
    p = subprocess.run([mlir_opt, path, "--print-op-stats", "-o", "/dev/null"],
                       capture_output=True, text=True, check=True)
    return sum(int(m.group(1)) for m in re.finditer(r",\s*(\d+)\s*$", p.stderr, re.M))


def parse_pass_timing(stderr):
    """The MPlan* pass lines of an `--mlir-timing` tree report, in seconds.

    Only lines naming an `MPlan*` pass count: the `'func.func' Pipeline` line
    that contains the nested function passes, analysis lines `(A) ...`, Parser,
    Output and Total are skipped, so nothing is counted twice. With a
    multi-threaded report (`----User Time----  ----Wall Time----`) the wall
    column (the last one) is used.
    """
    passes = {}
    for line in stderr.splitlines():
        m = re.match(r"^\s*((?:[0-9.]+\s+\(\s*[0-9.]+%\)\s+)+)(\S.*?)\s*$", line)
        if not m or not m.group(2).startswith("MPlan"):
            continue
        wall = float(re.findall(r"([0-9.]+)\s+\(", m.group(1))[-1])
        passes[m.group(2)] = passes.get(m.group(2), 0.0) + wall
    return passes


def mplan_pass_seconds(mplan_opt, path, options, repeat=1, verify=True):
    """Median over `repeat` runs of the summed MPlan* pass times; with
    verify=False the runs use --verify-each=0 (the verifier MLIR runs after
    every pass is then not charged to the passes)."""
    totals, per_pass = [], []
    for _ in range(repeat):
        cmd = [mplan_opt, path, f"--mplan-plan-pipeline={options}", "--mlir-timing", "-o", "/dev/null"]
        if not verify:
            cmd.insert(-2, "--verify-each=0")
        p = subprocess.run(cmd, capture_output=True, text=True, check=True)
        passes = parse_pass_timing(p.stderr)
        totals.append(sum(passes.values()))
        per_pass.append(passes)
    mid = sorted(range(len(totals)), key=lambda i: totals[i])[len(totals) // 2]
    return totals[mid], per_pass[mid]


def load_average():
    try:
        return os.getloadavg()[0]
    except OSError:
        return float("nan")


def machine():
    cpu = platform.processor() or platform.machine()
    try:
        with open("/proc/cpuinfo") as f:
            for line in f:
                if line.startswith("model name"):
                    cpu = line.split(":", 1)[1].strip()
                    break
    except OSError:
        pass
    return f"{cpu}, {os.cpu_count()} cores, {platform.system()} {platform.release()}"


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--mplan-opt", default=os.path.join(ROOT, "build", "bin", "mplan-opt"))
    ap.add_argument("--mlir-opt", default="/usr/lib/llvm-22/bin/mlir-opt")
    ap.add_argument("--sizes", default="10000,100000,200000")
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--plan-options", default="")
    ap.add_argument("--update-doc")
    a = ap.parse_args()
    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        for n in [int(s) for s in a.sizes.split(",")]:
            src = os.path.join(tmp, f"syn{n}.mlir")
            buf = os.path.join(tmp, f"syn{n}.buf.mlir")
            out = os.path.join(tmp, f"syn{n}.planned.mlir")
            with open(src, "w") as f:
                f.write(gen_synthetic.generate(n))
            t_buf = timed([a.mlir_opt, src, BUFFERIZE, "-o", buf], a.repeat)
            ops = count_ops(a.mlir_opt, buf)
            plan_opt = f"--mplan-plan-pipeline={a.plan_options}" if a.plan_options else "--mplan-plan-pipeline"
            t_plan = timed([a.mplan_opt, buf, plan_opt, "-o", out], a.repeat)
            t_parse = timed([a.mplan_opt, buf, "-o", out], a.repeat)
            t_passes, passes = mplan_pass_seconds(a.mplan_opt, buf, a.plan_options, a.repeat)
            t_noverify, _ = mplan_pass_seconds(a.mplan_opt, buf, a.plan_options, a.repeat, verify=False)
            load = load_average()
            rows.append((n, ops, t_buf, t_parse, t_plan, t_passes, passes, t_noverify, load))
            print(f"n={n} ops={ops} load={load:.1f} bufferize={t_buf:.2f}s parse+print={t_parse:.2f}s "
                  f"plan-pipeline={t_plan:.2f}s mplan-passes={t_passes:.3f}s (no verifier {t_noverify:.3f}s) "
                  + " ".join(f"{k}={v:.3f}" for k, v in sorted(passes.items())), file=sys.stderr)
    lines = [
        "## Compile time",
        "",
        "Synthetic functions from `bench/compile-time/gen_synthetic.py` (chains, diamonds, nested",
        "`scf.for` loops with per-iteration temporaries, expand/collapse/extract/insert views),",
        "measured with",
        "",
        "```",
        "bench/compile-time/run_bench.py --mplan-opt build/bin/mplan-opt --repeat " + str(a.repeat),
        "```",
        "",
        f"Machine: {machine()}. Wall times are medians of {a.repeat} runs and",
        "include parsing and printing; *mplan passes* is the sum of the `MPlan*` pass lines of",
        "`--mlir-timing` (`mplan-mark-calls` and `mplan-plan`, which captures, folds views, elides",
        "copies and plans; nested `Pipeline` lines and analysis lines are not added), which includes",
        "the verifier MLIR runs after every pass that changed the IR; *without verifier* is the same",
        "with `--verify-each=0`. Load is the 1-minute load average after the size's runs.",
        "",
        "| ops (bufferized) | load | upstream one-shot-bufferize | mplan-opt parse+print only | whole `mplan-opt --mplan-plan-pipeline` | mplan passes | without verifier | per pass |",
        "|---:|---:|---:|---:|---:|---:|---:|---|",
    ]
    for n, ops, t_buf, t_parse, t_plan, t_passes, passes, t_noverify, load in rows:
        split = ", ".join(f"{name} {secs:.3f}" for name, secs in sorted(passes.items()))
        lines.append(f"| {ops:,} | {load:.1f} | {t_buf:.2f} s | {t_parse:.2f} s | {t_plan:.2f} s | "
                     f"{t_passes:.3f} s | {t_noverify:.3f} s | {split} |")
    sizes = {r[0]: r for r in rows}
    if 100000 in sizes and 200000 in sizes:
        r1, r2 = sizes[100000], sizes[200000]
        lines += ["",
                  f"Scaling 200k/100k: whole run {r2[4] / r1[4]:.2f}x, mplan passes {r2[5] / max(r1[5], 1e-9):.2f}x "
                  f"(without verifier {r2[7] / max(r1[7], 1e-9):.2f}x) "
                  f"(ops {r2[1] / r1[1]:.2f}x)."]
    lines.append("")
    table = "\n".join(lines)
    print(table)
    if a.update_doc:
        text = open(a.update_doc).read() if os.path.exists(a.update_doc) else "# Benchmarks\n"
        pat = re.compile(r"^## Compile time\n.*?(?=^## |\Z)", re.M | re.S)
        text = pat.sub(lambda _: table + "\n", text) if pat.search(text) else text.rstrip("\n") + "\n\n" + table
        with open(a.update_doc, "w") as f:
            f.write(text)
    return 0


if __name__ == "__main__":
    sys.exit(main())
