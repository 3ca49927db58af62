#!/usr/bin/env python3
"""Sequencing benchmark: the max-live bound in program order vs after mplan-sequence.

For every generated branchy program (bench/sequence/gen.py: Inception blocks emitted
breadth first, a RandWire stage, DARTS and NASNet normal cells, a DenseNet block and a
U-Net as the control; seed 0 is the published cell, seeds 1-2 are variants not seen
while developing), bufferizes it with upstream One-Shot Bufferize and runs
`mplan-opt --mplan-plan-pipeline="sequence=MODE report=..."` for MODE = program,
greedy, best (default budget) and exact (a long budget; the optimum when the report
says `sequence_optimal`). Prints one markdown row per program: the bound in program
order, after greedy and best, the exact optimum (or "-" when not proven), the fraction
of the exact gain best reaches, the bound with best and in-place reuse (inplace=true) together,
and the whole mplan-opt time per mode.

Then the 100k-op scaling check: chains of small Inception blocks of n and 2n ops,
with `--mlir-timing` (median of three runs): time(2n)/time(n) of the sequencing step and its cost against
the rest of the mplan pipeline (mplan-plan with sequence=best minus sequence=program,
against sequence=program).
"""

import argparse
import json
import os
import re
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, HERE)
import gen  # noqa: E402

BUFFERIZE = ("--one-shot-bufferize=bufferize-function-boundaries "
             "function-boundary-type-conversion=identity-layout-map")


def bufferize(mlir_opt, text, path):
    with open(path + ".in.mlir", "w") as f:
        f.write(text)
    subprocess.run([mlir_opt, path + ".in.mlir", BUFFERIZE, "-o", path],
                   check=True)


def plan(mplan_opt, path, mode, time_limit, extra=(), inplace=False):
    report = path + f".{mode}{'.inplace' if inplace else ''}.json"
    # In-place reuse is on by default: the sequencing columns turn it off.
    opts = f"sequence={mode} inplace={'true' if inplace else 'false'} report={report}"
    if time_limit is not None:
        opts += f" time-limit={time_limit}"
    start = time.perf_counter()
    out = subprocess.run([mplan_opt, path, f"--mplan-plan-pipeline={opts}", "-o",
                          os.devnull, *extra], check=True, capture_output=True,
                         text=True)
    seconds = time.perf_counter() - start
    with open(report) as f:
        fn = next(f for f in json.load(f)["functions"] if f["name"] == "model")
    return fn, seconds, out.stderr


def pass_seconds(stderr, name="MPlanPlan"):
    """Wall time of one pass in --mlir-timing output."""
    for line in stderr.splitlines():
        if re.search(rf"\b{name}\b", line) or name.lower() in line.lower():
            m = re.match(r"\s*([0-9.]+)", line)
            if m:
                return float(m.group(1))
    return None


def main():
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--mplan-opt", default=os.path.join(ROOT, "build", "bin", "mplan-opt"))
    ap.add_argument("--mlir-opt", default="/usr/lib/llvm-22/bin/mlir-opt")
    ap.add_argument("--seeds", type=int, default=3)
    ap.add_argument("--exact-time", type=float, default=20.0)
    ap.add_argument("--scale-ops", type=int, default=100000,
                    help="ops of the scaling check's n (0: skip the check)")
    args = ap.parse_args()
    tmp = tempfile.mkdtemp(prefix="mplan-seq-")
    print("| program | ops | program order | greedy | best | exact | best/exact gain | "
          "best + in-place | time program / greedy / best / best + in-place (s) |")
    print("|---|---|---|---|---|---|---|---|---|")
    worst_fraction, never_worse = 1.0, True
    for kind in ["inception", "randwire", "darts", "nasnet", "darts-reduce", "nasnet-reduce",
                 "densenet", "unet"]:
        for seed in range(args.seeds):
            name, text = gen.generate(kind, seed=seed)
            path = os.path.join(tmp, f"{kind}{seed}.mlir")
            bufferize(args.mlir_opt, text, path)
            with open(path) as f:
                ops = sum(1 for line in f if " = " in line or line.strip().startswith(
                    ("linalg.", "memref.")))
            res = {m: plan(args.mplan_opt, path, m, None) for m in ("program", "greedy", "best")}
            exact, _, _ = plan(args.mplan_opt, path, "exact", args.exact_time)
            inplace, inplace_s, _ = plan(args.mplan_opt, path, "best", None, inplace=True)
            prog = res["program"][0]["lower_bound_bytes"]
            greedy = res["greedy"][0]["lower_bound_bytes"]
            best = res["best"][0]["lower_bound_bytes"]
            # (The report's lower_bound_program_order_bytes of a sequenced run is that of the
            # program its copy guard left after ordering, which may keep fewer copies than
            # sequence=program's: "program order" is the bound sequence=program reaches.)
            both = inplace["lower_bound_bytes"]
            never_worse &= greedy <= prog and best <= prog and both <= best
            opt = exact["lower_bound_bytes"] if exact.get("sequence_optimal") else None
            if opt is not None and opt > best:
                opt = None  # the exact run's budget ran out on another component
            lo = min(best, opt) if opt is not None else best
            if opt is not None:
                frac = 1.0 if prog == opt else (prog - best) / (prog - opt)
                worst_fraction = min(worst_fraction, frac)
                frac_s = f"{100 * frac:.0f} %"
            else:
                frac_s = "-"
            mib = lambda b: f"{b / 2**20:.2f} MiB"
            print(f"| {name} | {ops} | {mib(prog)} | {mib(greedy)} ({prog / greedy:.2f}x) | "
                  f"{mib(best)} ({prog / best:.2f}x) | "
                  f"{mib(opt) + f' ({prog / opt:.2f}x)' if opt is not None else '-'} | {frac_s} | "
                  f"{mib(both)} ({prog / both:.2f}x) | "
                  f"{res['program'][1]:.2f} / {res['greedy'][1]:.2f} / {res['best'][1]:.2f} / "
                  f"{inplace_s:.2f} |",
                  flush=True)
    print(f"\nnever worse than program order: {never_worse}; "
          f"least fraction of the proven exact gain reached by best: {100 * worst_fraction:.0f} %\n")

    if args.scale_ops <= 0:
        return
    # Scaling: chains of small Inception blocks.
    print("| ops (approx.) | mplan-plan, sequence=program (s) | sequence=best (s) | "
          "sequencing (s) | parse+print (s) |")
    print("|---|---|---|---|---|")
    per_block = None
    times = {}
    for factor in (1, 2):
        if per_block is None:
            _, text = gen.generate("inception", scale=0.12, blocks=10)
            per_block = max(1, text.count("\n") // 10)
        blocks = max(1, factor * args.scale_ops // per_block)
        _, text = gen.generate("inception", scale=0.12, blocks=blocks)
        path = os.path.join(tmp, f"scale{factor}.mlir")
        bufferize(args.mlir_opt, text, path)
        row = {}
        for mode in ("program", "best"):
            # Median of three runs (the machine is shared).
            runs = []
            for _ in range(3):
                _, _, err = plan(args.mplan_opt, path, mode, None, ["--mlir-timing"])
                runs.append(((pass_seconds(err, "MPlanPlan") or pass_seconds(err, "mplan-plan")),
                             (pass_seconds(err, "Parser") or 0) + (pass_seconds(err, "Output") or 0)))
            runs.sort()
            row[mode], row["parse"] = runs[1]
        seq = row["best"] - row["program"]
        times[factor] = seq
        print(f"| {factor * args.scale_ops} | {row['program']:.3f} | {row['best']:.3f} | "
              f"{seq:.3f} | {row['parse']:.3f} |", flush=True)
    if times[1] > 0:
        print(f"\nsequencing time(2n)/time(n) = {times[2] / times[1]:.2f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
