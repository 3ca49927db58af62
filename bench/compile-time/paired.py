#!/usr/bin/python3
"""Paired compile-time comparison of two mplan-opt binaries (A against B).

For one size N: gen_synthetic.py writes the function, upstream One-Shot
Bufferize bufferizes it; then, RUNS times in turn, A and B run
`--mplan-plan-pipeline[=OPTIONS] --mlir-timing -o /dev/null` on the bufferized
file and upstream `mlir-opt --one-shot-bufferize --mlir-timing` runs on the
source. Prints medians: the mplan passes (sum of the MPlan* lines), parse+print
(Parser + Output lines of the same run), their ratio per run, the ratio to One-Shot
Bufferize's pass, and A/B paired run by run (pairing keeps the ratio
meaningful on a loaded machine). With --scaling, every run also times A and B
on a function of 2N ops right after the N one, and prints time(2N)/time(N) of
the mplan passes and of parse+print of the same runs (medians of the per-run
ratios).

Usage: bench/compile-time/paired.py --a build/bin/mplan-opt --b OLD/mplan-opt
         [--size 100000] [--runs 3] [--options "sequence=best inplace=true"]
         [--scaling]
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
    ap.add_argument("--scaling", action="store_true",
                    help="also time a function of twice the size, run by run")
    a = ap.parse_args()
    pipeline = "--mplan-plan-pipeline" + (f"={a.options}" if a.options else "")
    with tempfile.TemporaryDirectory() as tmp:
        sizes = [a.size, 2 * a.size] if a.scaling else [a.size]
        bufs = []
        for size in sizes:
            src = os.path.join(tmp, f"s{size}.mlir")
            buf = os.path.join(tmp, f"s{size}.buf.mlir")
            with open(src, "w") as f:
                f.write(gen_synthetic.generate(size))
            subprocess.run([a.mlir_opt, src, BUFFERIZE, "-o", buf], check=True)
            bufs.append(buf)
        src = os.path.join(tmp, f"s{a.size}.mlir")
        # rows[key][i]: (mplan passes, parse+print) of run i at each size.
        rows = {"A": [], "B": []}
        osb = []
        for _ in range(a.runs):
            for key, binary in (("A", a.a), ("B", a.b)):
                row = []
                for buf in bufs:
                    p = subprocess.run([binary, buf, pipeline, "--mlir-timing", "-o", os.devnull],
                                       capture_output=True, text=True, check=True)
                    lines = timing_lines(p.stderr)
                    mplan = sum(parse_pass_timing(p.stderr).values())
                    row.append((mplan, lines.get("Parser", 0.0) + lines.get("Output", 0.0)))
                rows[key].append(row)
            p = subprocess.run([a.mlir_opt, src, BUFFERIZE, "--mlir-timing", "-o", os.devnull],
                               capture_output=True, text=True, check=True)
            osb.append(sum(v for k, v in timing_lines(p.stderr).items() if "OneShotBufferize" in k))
    med = statistics.median
    print(f"size={a.size} options='{a.options}' runs={a.runs} load={os.getloadavg()[0]:.1f} "
          f"one-shot-bufferize pass={med(osb):.3f} s")
    for key in "AB":
        first = [row[0] for row in rows[key]]
        mplan = med(r[0] for r in first)
        print(f"  {key}: mplan passes {mplan:.3f} s, parse+print {med(r[1] for r in first):.3f} s, "
              f"mplan/(parse+print) {med(r[0] / r[1] for r in first):.2f}, "
              f"mplan/one-shot-bufferize {mplan / med(osb):.2f}")
        if a.scaling:
            print(f"     time({2 * a.size})/time({a.size}): mplan passes "
                  f"{med(row[1][0] / row[0][0] for row in rows[key]):.2f}, parse+print "
                  f"{med(row[1][1] / row[0][1] for row in rows[key]):.2f}")
    print(f"  A/B mplan passes (paired median): "
          f"{med(x[0][0] / y[0][0] for x, y in zip(rows['A'], rows['B'])):.2f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
