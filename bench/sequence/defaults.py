#!/usr/bin/python3
"""The default plan against a reference build's plans, per function and memory space.

For every bundled model (models/*.mlir but the dynamically shaped ones) and every program of
bench/sequence/gen.py (each kind, seeds 0..SEEDS-1, at --scale), bufferized with upstream
One-Shot Bufferize, prints the max-live-sized arena (`arena_bytes` of the plan report) of
  * the reference build (--ref, e.g. a build of b5ade18) with its defaults,
  * the reference with `sequence=best inplace=true` (peak-guard=views, its default then),
  * the reference with `sequence=best inplace=true peak-guard=all`,
  * --mplan-opt with its defaults (and --options),
and flags each function and memory space where the default is above the reference's default
(ABOVE-REF-DEFAULT) or above the lower of the two reference configurations (above-ref-best).
Rows of @model are printed, and every flagged row; then the count of flagged rows and the
wall time of each configuration's whole mplan-opt runs (total, median, max; the four run in
turn on each program).

Usage: bench/sequence/defaults.py --ref OLD/bin/mplan-opt [--mplan-opt build/bin/mplan-opt]
         [--seeds 8] [--scale 0.25] [--options inplace=true]
"""
import argparse
import glob
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, HERE)
import gen  # noqa: E402
sys.path.insert(0, os.path.join(ROOT, "utils"))
from mplan_pipelines import TOSA_TO_LINALG, is_tosa  # noqa: E402

BUFFERIZE = ("--one-shot-bufferize=bufferize-function-boundaries "
             "function-boundary-type-conversion=identity-layout-map")


def arenas(binary, path, opts, seconds):
    """{(function, memory space): arena_bytes}, or None if planning failed; appends the
    run's wall time to `seconds`."""
    start = time.perf_counter()
    r = subprocess.run([binary, path, f"--mplan-plan-pipeline={opts} report=-", "-o", os.devnull],
                       capture_output=True, text=True)
    seconds.append(time.perf_counter() - start)
    if r.returncode:
        return None
    return {(f["name"], f.get("memory_space", "")): f["arena_bytes"]
            for f in json.loads(r.stdout)["functions"]}


def main():
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--ref", required=True, help="the reference build's mplan-opt")
    ap.add_argument("--mplan-opt", default=os.path.join(ROOT, "build", "bin", "mplan-opt"))
    ap.add_argument("--mlir-opt", default="/usr/lib/llvm-22/bin/mlir-opt")
    ap.add_argument("--seeds", type=int, default=8)
    ap.add_argument("--scale", type=float, default=0.25)
    ap.add_argument("--options", default="",
                    help="options of --mplan-opt's run beside its defaults (e.g. inplace=true)")
    a = ap.parse_args()
    configs = [(a.ref, ""), (a.ref, "sequence=best inplace=true"),
               (a.ref, "sequence=best inplace=true peak-guard=all"), (a.mplan_opt, a.options)]
    with tempfile.TemporaryDirectory() as tmp:
        progs = []
        for model in sorted(glob.glob(os.path.join(ROOT, "models", "*.mlir"))):
            if "dynamic" in model or "unbounded" in model:
                continue
            progs.append((os.path.basename(model)[:-5], open(model).read()))
        for kind in sorted(gen.KINDS):
            for seed in range(a.seeds):
                progs.append((f"{kind}-{seed}", gen.generate(kind, a.scale, seed)[1]))
        print("program / function:space | ref default | ref best+inplace (views) | "
              "ref best+inplace (all) | default")
        rows = above_default = above_best = 0
        times = [[] for _ in configs]
        for name, text in progs:
            src, buf = os.path.join(tmp, name + ".mlir"), os.path.join(tmp, name + ".buf.mlir")
            with open(src, "w") as f:
                f.write(text)
            if is_tosa(text):
                linalg = os.path.join(tmp, name + ".linalg.mlir")
                subprocess.run([a.mlir_opt, src, TOSA_TO_LINALG, "-o", linalg], check=True)
                src = linalg
            subprocess.run([a.mlir_opt, src, BUFFERIZE, "-o", buf], check=True)
            res = [arenas(b, buf, o, times[i]) for i, (b, o) in enumerate(configs)]
            if any(r is None for r in res):
                print(f"{name}: planning failed: {[r is None for r in res]}")
                continue
            for key in sorted(set().union(*res)):
                v = [r.get(key, 0) for r in res]
                rows += 1
                flag = ""
                if v[3] > v[0]:
                    flag += " ABOVE-REF-DEFAULT"
                    above_default += 1
                if v[3] > min(v[1], v[2]):
                    flag += " above-ref-best"
                    above_best += 1
                if key[0] == "model" or flag:
                    print(f"{name} / {key[0]}:{key[1] or 'default'} | " +
                          " | ".join(f"{x:,}" for x in v) + flag)
        print(f"{rows} functions x spaces: default above the reference's default on "
              f"{above_default}, above the lower of its best+inplace plans on {above_best}")
        # Whole mplan-opt runs, the configurations in turn per program (side by side).
        for name, t in zip(("ref default", "ref best+inplace (views)", "ref best+inplace (all)",
                            "default"), times):
            print(f"{name}: {len(t)} runs, total {sum(t):.2f} s, median {statistics.median(t):.3f} s, "
                  f"max {max(t):.2f} s")


if __name__ == "__main__":
    main()
