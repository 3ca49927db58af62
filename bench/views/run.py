#!/usr/bin/python3
"""Views and copies: what mplan-fold-views and mplan-elide-copies remove, and the arena.

For every program (default: models/*.mlir but the reduced `_small` ones; any linalg-on-tensors,
TOSA or already bufferized file), lowers TOSA to linalg, bufferizes it with upstream One-Shot Bufferize (skipped with --bufferized), then counts, over
every function except @main (the test driver):
  views   memref view ops (subview, expand_shape, collapse_shape, reinterpret_cast, cast, view)
          and mplan.view
  copies  memref.copy and linalg.copy
(counted by utils/model_stats.py's `counts`)
before and after `--mplan-plan-pipeline`, and reads the arena and max-live bound from the plan
report, for three configurations side by side:
  without      views-and-copies=false (capture + plan only)
  guard=all    every rewrite must keep the max-live bound (peak-guard=all)
  default      pad and concat copies always go, view copies guarded (peak-guard=views)
and checks `--mplan-verify-plan` on the default output.

Usage: bench/views/run.py [--mplan-opt build/bin/mplan-opt] [--bufferized] [FILE...]
"""
import argparse
import glob
import json
import os
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, os.path.join(ROOT, "utils"))
from mplan_pipelines import TOSA_TO_LINALG, is_tosa  # noqa: E402
from model_stats import counts, function_lines  # noqa: E402
LLVM_BIN = "/usr/lib/llvm-22/bin"
BUFFERIZE = ("--one-shot-bufferize=bufferize-function-boundaries "
             "function-boundary-type-conversion=identity-layout-map")
CONFIGS = {"without": "views-and-copies=false", "guard=all": "peak-guard=all", "default": ""}


def run(cmd, stdin):
    p = subprocess.run(cmd, input=stdin, capture_output=True, text=True)
    if p.returncode != 0:
        sys.exit(f"command failed ({p.returncode}): {' '.join(cmd)}\n{p.stderr[-3000:]}")
    return p.stdout


def model_counts(ir):
    """utils/model_stats.py's view and copy counts over every function but @main."""
    return counts(function_lines(ir, lambda name: name != "main"))


def totals(report):
    fns = [f for f in report["functions"] if f["name"] != "main"]
    return (sum(f["arena_bytes"] for f in fns), sum(f["lower_bound_bytes"] for f in fns),
            sum(len(f["buffers"]) for f in fns))


def measure(path, mplan_opt, bufferized):
    src = open(path).read()
    if is_tosa(src) and not bufferized:
        src = run([f"{LLVM_BIN}/mlir-opt", TOSA_TO_LINALG], src)
    buf = src if bufferized else run([f"{LLVM_BIN}/mlir-opt", BUFFERIZE], src)
    before = model_counts(buf)
    row = {"model": os.path.splitext(os.path.basename(path))[0],
           "views": before["views"], "copies": before["copies"]}
    for name, options in CONFIGS.items():
        with tempfile.TemporaryDirectory() as tmp:
            report = os.path.join(tmp, "plan.json")
            opts = " ".join(o for o in (options, f"report={report}") if o)
            extra = ["--mplan-verify-plan"] if name == "default" else []
            out = run([mplan_opt, f"--mplan-plan-pipeline={opts}", *extra], buf)
            arena, bound, buffers = totals(json.load(open(report)))
        after = model_counts(out)
        row[name] = {"views": after["views"], "copies": after["copies"],
                     "arena": arena, "bound": bound, "buffers": buffers}
    return row


def table(rows):
    lines = ["| model | views before | views after | copies before | copies after (guard=all) "
             "| copies after | buffers without / with | arena without | arena guard=all "
             "| arena | arena / bound |",
             "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|"]
    for r in rows:
        w, g, d = r["without"], r["guard=all"], r["default"]
        ratio = d["arena"] / d["bound"] if d["bound"] else 1.0
        lines.append(f"| {r['model']} | {r['views']} | {d['views']} | {r['copies']} | "
                     f"{g['copies']} | {d['copies']} | {w['buffers']} / {d['buffers']} | "
                     f"{w['arena']:,} | {g['arena']:,} | {d['arena']:,} | {ratio:.3f} |")
    return "\n".join(lines)


def main():
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("files", nargs="*")
    parser.add_argument("--mplan-opt", default=os.path.join(ROOT, "build", "bin", "mplan-opt"))
    parser.add_argument("--bufferized", action="store_true",
                        help="the files are bufferized already")
    args = parser.parse_args()
    # By default every model at full size (the reduced `_small` variants add nothing here).
    files = args.files or sorted(f for f in glob.glob(os.path.join(ROOT, "models", "*.mlir"))
                                 if not f.endswith("_small.mlir"))
    rows = [measure(f, args.mplan_opt, args.bufferized) for f in files]
    print(f"$ bench/views/run.py {' '.join(sys.argv[1:])}\n")
    print(table(rows))
    return 0


if __name__ == "__main__":
    sys.exit(main())
