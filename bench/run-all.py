#!/usr/bin/env python3
"""`make bench`: runs every mplan benchmark program and prints their tables.

The benchmarks are programs, not timed tests. Each prints markdown tables that
go into docs/benchmarks.md together with the command and the machine:
  planner       build/bin/mplan-plan-bench (MiniMalloc instances, DNN-shaped and
                random instances, every strategy)
  compile-time  bench/compile-time/run_bench.py (mplan-plan-pipeline vs upstream
                One-Shot Bufferize on synthetic functions of 10k-200k ops)
  views         bench/views/run.py (views and copies removed, arena with and without the
                views-and-copies passes and the peak guard, on the model zoo)
  e2e           bench/e2e/run.py (upstream baseline vs mplan heap/global on the
                model zoo: allocations, peak, arena, paired wall time)
  sequence      bench/sequence/run.py (max-live bound in program order vs after
                mplan-sequence greedy/best/exact on generated branchy programs; 100k-op
                scaling)
  budget        bench/budget/run.py (capacities of 100-60 % of the default bound on the
                model zoo: met or not, splits, extra work, bytes moved, pass time)
  budget-exact  bench/budget/exact.py (the same capacities: mplan's splits against the
                least-cost ones, an integer program solved by CBC)
"""

import argparse
import os
import platform
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
PYTHON = "/usr/bin/python3"


def machine():
    """One line naming the machine; each benchmark prints its own details."""
    return (f"{platform.node()}, {os.cpu_count()} cores, {platform.system()} "
            f"{platform.release()}, load {os.getloadavg()[0]:.2f}")


def main():
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--build", default=os.path.join(ROOT, "build"))
    parser.add_argument("--only", action="append",
                        choices=["planner", "compile-time", "views", "e2e", "sequence",
                                 "budget", "budget-exact"])
    args = parser.parse_args()
    build = os.path.abspath(args.build)
    benches = {
        "planner": [os.path.join(build, "bin", "mplan-plan-bench"), "--minimalloc",
                    os.path.join(os.path.dirname(ROOT), "shared", "benchmarks", "minimalloc")],
        "compile-time": [PYTHON, os.path.join(ROOT, "bench", "compile-time", "run_bench.py"),
                         "--mplan-opt", os.path.join(build, "bin", "mplan-opt")],
        "views": [PYTHON, os.path.join(ROOT, "bench", "views", "run.py"),
                  "--mplan-opt", os.path.join(build, "bin", "mplan-opt")],
        "e2e": [PYTHON, os.path.join(ROOT, "bench", "e2e", "run.py"), "--build", build],
        "sequence": [PYTHON, os.path.join(ROOT, "bench", "sequence", "run.py"),
                     "--mplan-opt", os.path.join(build, "bin", "mplan-opt")],
        "budget": [PYTHON, os.path.join(ROOT, "bench", "budget", "run.py"),
                   "--mplan-opt", os.path.join(build, "bin", "mplan-opt")],
        "budget-exact": [PYTHON, os.path.join(ROOT, "bench", "budget", "exact.py"),
                         "--mplan-opt", os.path.join(build, "bin", "mplan-opt")],
    }
    print(f"# mplan benchmarks\nmachine: {machine()}\n", flush=True)
    failed = []
    for name, cmd in benches.items():
        if args.only and name not in args.only:
            continue
        print(f"## {name}\n$ {' '.join(cmd)}\n", flush=True)
        if subprocess.run(cmd).returncode != 0:
            failed.append(name)
    if failed:
        print("failed: " + ", ".join(failed), file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
