#!/usr/bin/env python3
"""Is the sequenced IR the same whatever the machine's load? (issue 32)

For every generated branchy program (gen.py, seed 0) plans the bufferized
program with `--mplan-plan-pipeline="sequence=MODE"` RUNS times on an idle
machine and RUNS times with two CPU-bound processes (`yes > /dev/null`) beside
it, and compares the printed IR byte for byte. The sequencer's searches stop at a
work budget, not at a time limit, so every run must print the same IR (the
planner's own searches keep their time limit: the IR is compared before
mplan-plan places the buffers, i.e. after mplan-sequence only).
Prints one line per program and exits 1 if any differs.
"""

import argparse
import hashlib
import os
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, HERE)
import gen  # noqa: E402
from run import bufferize  # noqa: E402


def digest(mplan_opt, path, mode):
    out = subprocess.run([mplan_opt, path, "--mplan-capture-buffers=fold-views=1",
                          f"--mplan-sequence=mode={mode}"], check=True,
                         capture_output=True).stdout
    return hashlib.sha256(out).hexdigest()[:16]


def main():
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--mplan-opt", default=os.path.join(ROOT, "build", "bin", "mplan-opt"))
    ap.add_argument("--mlir-opt", default="/usr/lib/llvm-22/bin/mlir-opt")
    ap.add_argument("--mode", default="best")
    ap.add_argument("--runs", type=int, default=3)
    args = ap.parse_args()
    tmp = tempfile.mkdtemp(prefix="mplan-seq-load-")
    same = True
    for kind in sorted(gen.KINDS):
        name, text = gen.generate(kind)
        path = os.path.join(tmp, f"{kind}.mlir")
        bufferize(args.mlir_opt, text, path)
        idle = {digest(args.mplan_opt, path, args.mode) for _ in range(args.runs)}
        hogs = [subprocess.Popen(["yes"], stdout=subprocess.DEVNULL) for _ in range(2)]
        try:
            loaded = {digest(args.mplan_opt, path, args.mode) for _ in range(args.runs)}
        finally:
            for hog in hogs:
                hog.kill()
                hog.wait()
        ok = len(idle | loaded) == 1
        same &= ok
        print(f"{kind}: {len(idle)} distinct idle, {len(loaded)} loaded, "
              f"{'identical' if ok else 'DIFFERENT'}", flush=True)
    return 0 if same else 1


if __name__ == "__main__":
    sys.exit(main())
