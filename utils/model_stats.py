#!/usr/bin/python3
"""Counts for one function of a model before and after mplan's plan pipeline.

  utils/model_stats.py BUFFERIZED.mlir [--func model] [--mplan-opt build/bin/mplan-opt]
                       [--plan-options 'strategy=best']

BUFFERIZED is One-Shot Bufferize's output. The script runs
`mplan-opt --mplan-plan-pipeline="report=..." --mplan-verify-plan` on it and prints, for the
function: buffers (memref.alloc), view ops (memref.subview/expand_shape/collapse_shape/
reinterpret_cast/cast/view), copies (memref.copy, linalg.copy) before and after (after: views are
mplan.view plus the memref view ops left, e.g. of arguments), the planned buffers (and the sum of their sizes), the arena, the
report's max-live lower bound and their ratio, and the unmanaged buffers by reason.
Exit status 1 if mplan-opt fails.
"""
import argparse
import collections
import json
import os
import re
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
VIEW = re.compile(r"=\s*memref\.(subview|expand_shape|collapse_shape|reinterpret_cast|cast|view)\b")
COPY = re.compile(r"^\s*(memref\.copy|linalg\.copy)\b")


def function_lines(ir, keep):
    """The lines of every func.func whose name satisfies `keep` (each up to the next
    top-level func.func)."""
    out, inside = [], False
    for line in ir.splitlines():
        m = re.match(r"\s*func\.func\s+(?:private\s+)?@([\w$.]+)", line)
        if m:
            inside = keep(m.group(1))
        if inside:
            out.append(line)
    return out


def function_body(ir, name):
    """The lines of func.func @name (up to the next top-level func.func)."""
    return function_lines(ir, lambda n: n == name)


def counts(lines):
    return {
        "allocs": sum(1 for l in lines if re.search(r"=\s*memref\.alloc\b", l)),
        "views": sum(1 for l in lines if VIEW.search(l) or re.search(r"=\s*mplan\.view\b", l)),
        "copies": sum(1 for l in lines if COPY.match(l)),
    }


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("file")
    ap.add_argument("--func", default="model")
    ap.add_argument("--mplan-opt", default=os.path.join(ROOT, "build", "bin", "mplan-opt"))
    ap.add_argument("--plan-options", default="")
    a = ap.parse_args()
    with open(a.file) as f:
        before = counts(function_body(f.read(), a.func))
    with tempfile.TemporaryDirectory() as tmp:
        report = os.path.join(tmp, "report.json")
        opts = " ".join(o for o in (f"report={report}", a.plan_options) if o)
        p = subprocess.run([a.mplan_opt, a.file, f"--mplan-plan-pipeline={opts}", "--mplan-verify-plan"],
                           capture_output=True, text=True)
        if p.returncode:
            sys.stderr.write(p.stderr)
            return 1
        after = counts(function_body(p.stdout, a.func))
        with open(report) as f:
            fn = next(f for f in json.load(f)["functions"] if f["name"] == a.func)
    arena, bound = fn["arena_bytes"], fn["lower_bound_bytes"]
    reasons = collections.Counter(u["reason"] for u in fn["unmanaged"])
    print(f"function @{a.func}: buffers {before['allocs']}, views {before['views']} -> {after['views']}, "
          f"copies {before['copies']} -> {after['copies']}, planned {len(fn['buffers'])} "
          f"({sum(b['size'] for b in fn['buffers'])} B in all), "
          f"arena {arena} B, bound {bound} B, ratio {arena / bound if bound else 1.0:.4f}, "
          f"unmanaged {dict(reasons) or 'none'}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
