#!/usr/bin/python3
"""Paired compile-time comparison of two mplan-opt binaries (A against B).

For one size N: gen_synthetic.py writes the function, upstream One-Shot
Bufferize bufferizes it; then, RUNS times in turn, A and B run
`--mplan-plan-pipeline[=OPTIONS] --mlir-timing -o /dev/null` on the bufferized
file and upstream `mlir-opt --one-shot-bufferize --mlir-timing` runs on the
source. Prints medians: the mplan passes (sum of the MPlan* lines), parse+print
(Parser + Output lines of the same run), their ratio per run, the ratio to One-Shot
Bufferize's pass, and A/B paired run by run (pairing keeps the ratio
meaningful on a loaded machine).

Usage: bench/compile-time/paired.py --a build/bin/mplan-opt --b OLD/mplan-opt
         [--size 100000] [--runs 3] [--options "sequence=best inplace=true"]
"""
import argparse
import os
import statistics
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import gen_synthetic  # noqa: E402
from run_bench import BUFFERIZE, parse_pass_timing  # noqa: E402


def timing_lines(stderr):
    """Every `--mlir-timing` line as name -> seconds (wall column)."""
    import re
    lines = {}
    for line in stderr.splitlines():
        m = re.match(r"^\s*([0-9.]+)\s+\(\s*[0-9.]+%\)\s+(\S.*?)\s*$", line)
        if m:
            lines[m.group(2)] = lines.get(m.group(2), 0.0) + float(m.group(1))
    return lines


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--a", required=True)
    ap.add_argument("--b", required=True)
    ap.add_argument("--mlir-opt", default="/usr/lib/llvm-22/bin/mlir-opt")
    ap.add_argument("--size", type=int, default=100000)
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--options", default="")
    a = ap.parse_args()
    pipeline = "--mplan-plan-pipeline" + (f"={a.options}" if a.options else "")
    with tempfile.TemporaryDirectory() as tmp:
        src, buf = os.path.join(tmp, "s.mlir"), os.path.join(tmp, "s.buf.mlir")
        with open(src, "w") as f:
            f.write(gen_synthetic.generate(a.size))
        subprocess.run([a.mlir_opt, src, BUFFERIZE, "-o", buf], check=True)
        rows = {"A": [], "B": []}
        osb = []
        for _ in range(a.runs):
            for key, binary in (("A", a.a), ("B", a.b)):
                p = subprocess.run([binary, buf, pipeline, "--mlir-timing", "-o", os.devnull],
                                   capture_output=True, text=True, check=True)
                lines = timing_lines(p.stderr)
                mplan = sum(parse_pass_timing(p.stderr).values())
                rows[key].append((mplan, lines.get("Parser", 0.0) + lines.get("Output", 0.0)))
            p = subprocess.run([a.mlir_opt, src, BUFFERIZE, "--mlir-timing", "-o", os.devnull],
                               capture_output=True, text=True, check=True)
            osb.append(sum(v for k, v in timing_lines(p.stderr).items() if "OneShotBufferize" in k))
    med = statistics.median
    print(f"size={a.size} options='{a.options}' runs={a.runs} load={os.getloadavg()[0]:.1f} "
          f"one-shot-bufferize pass={med(osb):.3f} s")
    for key in "AB":
        mplan = med(r[0] for r in rows[key])
        print(f"  {key}: mplan passes {mplan:.3f} s, parse+print {med(r[1] for r in rows[key]):.3f} s, "
              f"mplan/(parse+print) {med(r[0] / r[1] for r in rows[key]):.2f}, "
              f"mplan/one-shot-bufferize {mplan / med(osb):.2f}")
    print(f"  A/B mplan passes (paired median): {med(x[0] / y[0] for x, y in zip(rows['A'], rows['B'])):.2f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
