#!/usr/bin/env python3
"""Budget benchmark: capacities below the bound, met by mplan's levers or not.

For every bundled model (models/*.mlir, bufferized with upstream One-Shot Bufferize),
B is the default pipeline's arena (`mplan-opt --mplan-plan-pipeline`, no capacity), the
most of any function's. Then, for each capacity of 100, 90, 80, 70 and 60 % of B
(`capacity=default:C`, the pipeline otherwise at its defaults, so sequencing, in-place
reuse and rematerialization act above the capacity) and again with
`offload=default:1` (buffers may go to memory space 1 between their uses), prints one
markdown row: met or not (the arena reached, or the lowest bound reached when the
capacity error names it), the splits made (r: rematerializations, o: offloads), the
extra work in % of the program's work (the report's `split_work` / `program_work`),
the bytes moved by offloads, the op floor of the default space, and the mplan-plan pass
time (`--mlir-timing`, median of three runs).

Usage: run.py [--mplan-opt PATH] [--mlir-opt PATH] [--models a,b] [--runs N]
"""

import argparse
import json
import os
import re
import statistics
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
BUFFERIZE = ("--one-shot-bufferize=bufferize-function-boundaries "
             "function-boundary-type-conversion=identity-layout-map")
MODELS = ["mlp", "attention", "resnet_block", "inception", "pad_concat_cnn",
          "decoder_step", "bert_layer", "decoder_layer", "resnet18", "mobilenetv2"]


def plan(mplan_opt, path, options, report, runs):
    """Runs the pipeline `runs` times; returns (ok, report functions, stderr,
    median pass seconds)."""
    times, result = [], None
    for _ in range(runs):
        if os.path.exists(report):
            os.remove(report)
        proc = subprocess.run(
            [mplan_opt, path, f"--mplan-plan-pipeline={options} report={report}",
             "--mlir-timing", "-o", os.devnull],
            capture_output=True, text=True)
        match = re.search(r"([0-9.]+) \(\s*[0-9.]+%\)\s+MPlanPlan", proc.stderr)
        if match:
            times.append(float(match.group(1)))
        result = proc
    functions = []
    if result.returncode == 0 and os.path.exists(report):
        with open(report) as f:
            functions = json.load(f)["functions"]
    return (result.returncode == 0, functions, result.stderr,
            statistics.median(times) if times else float("nan"))


def main():
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--mplan-opt", default=os.path.join(ROOT, "build", "bin", "mplan-opt"))
    parser.add_argument("--mlir-opt", default="/usr/lib/llvm-22/bin/mlir-opt")
    parser.add_argument("--models", default=",".join(MODELS))
    parser.add_argument("--runs", type=int, default=3)
    args = parser.parse_args()
    print("| model | B (bytes) | op floor | capacity | levers | met | arena / lowest bound "
          "| splits | extra work | bytes moved | mplan-plan s |")
    print("|---|---:|---:|---:|---|---|---:|---|---:|---:|---:|")
    with tempfile.TemporaryDirectory() as tmp:
        for model in args.models.split(","):
            src = os.path.join(ROOT, "models", model + ".mlir")
            path = os.path.join(tmp, model + ".mlir")
            subprocess.run([args.mlir_opt, src, BUFFERIZE, "-o", path], check=True)
            report = os.path.join(tmp, model + ".json")
            ok, functions, err, _ = plan(args.mplan_opt, path, "", report, 1)
            if not ok:
                print(f"| {model} | failed: {err.strip().splitlines()[0]} |")
                continue
            bound = max(f["arena_bytes"] for f in functions)
            for percent in (100, 90, 80, 70, 60):
                capacity = bound * percent // 100
                for levers in ("", "offload=default:1"):
                    options = f"capacity=default:{capacity} {levers}".strip()
                    ok, functions, err, seconds = plan(args.mplan_opt, path, options,
                                                       report, args.runs)
                    floor = "-"
                    if ok:
                        top = max(functions, key=lambda f: f["arena_bytes"])
                        reached = str(top["arena_bytes"])
                        floor = str(max(f.get("op_floor_bytes", 0) for f in functions))
                        splits = [s for f in functions for s in f.get("splits", [])]
                        remats = sum(s["kind"] == "remat" for s in splits)
                        offloads = len(splits) - remats
                        work = sum(f.get("split_work", 0) for f in functions)
                        program = sum(f.get("program_work", 0) for f in functions
                                      if f.get("splits"))
                        extra = f"{100.0 * work / program:.1f} %" if program else "0 %"
                        moved = str(sum(f.get("split_bytes_moved", 0) for f in functions))
                        split_text = f"{remats}r {offloads}o"
                    else:
                        needs = re.search(r"needs (\d+) bytes", err)
                        reached = needs.group(1) if needs else "error"
                        found = re.search(r"the op floor is (\d+) bytes", err)
                        floor = found.group(1) if found else "-"
                        split_text, extra, moved = "-", "-", "-"
                    met = "yes" if ok else "no"
                    if not ok and floor.isdigit() and capacity < int(floor):
                        met = "no: below the op floor"
                    print(f"| {model} | {bound:,} | {floor} | {percent} % ({capacity:,}) "
                          f"| {levers or 'default'} | {met} | {reached} "
                          f"| {split_text} | {extra} | {moved} | {seconds:.3f} |", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
