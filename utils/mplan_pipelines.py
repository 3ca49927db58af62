#!/usr/bin/python3
"""The exact shell pipelines mplan is measured with, as reusable commands.

  baseline: upstream One-Shot Bufferize + ownership-based deallocation, upstream lowering,
            mlir-runner (what a user gets today without mplan).
  planned:  One-Shot Bufferize (no deallocation) | mplan-opt --mplan-plan-pipeline
            --convert-mplan-to-memref="arena=heap" --mplan-to-llvm | mlir-runner.
  bufferized: only the bufferization step of `baseline` without deallocation (what the planner
            sees); with --count-allocs prints the number of memref.alloc in each function.

Usage:
  utils/mplan_pipelines.py baseline models/mlp.mlir
  utils/mplan_pipelines.py planned  models/mlp.mlir [--mplan-opt build/bin/mplan-opt] [--arena heap]
  utils/mplan_pipelines.py {baseline,planned} FILE --print-cmd     # show the shell pipeline only
  utils/mplan_pipelines.py bufferized FILE [--count-allocs]
Options: --llvm-bin DIR (default /usr/lib/llvm-22/bin, or $MPLAN_LLVM_BIN), --raw (keep
printMemref's "base@ = 0x..." addresses; by default they are replaced by "base@ = <addr>" so two
runs diff cleanly), --time (print wall time of the run step on stderr), --plan-options STR
(extra options for --mplan-plan-pipeline, e.g. 'strategy=best report=plan.json').
Exit status is the pipeline's (set -o pipefail).
"""
import argparse
import os
import re
import shlex
import subprocess
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
LLVM_BIN = os.environ.get("MPLAN_LLVM_BIN", "/usr/lib/llvm-22/bin")
LLVM_LIB = os.path.join(os.path.dirname(LLVM_BIN), "lib")

BUFFERIZE = ('--one-shot-bufferize="bufferize-function-boundaries '
             'function-boundary-type-conversion=identity-layout-map"')
# Programs in the TOSA dialect are lowered to linalg on tensors first (upstream's passes).
TOSA_TO_LINALG = ('--pass-pipeline=builtin.module(func.func(tosa-to-linalg-named,'
                  'tosa-to-linalg,tosa-to-arith,tosa-to-tensor))')
DEALLOC = ("--ownership-based-buffer-deallocation --canonicalize "
           "--buffer-deallocation-simplification --bufferization-lower-deallocations "
           "--convert-bufferization-to-memref")
LOWER_TO_LLVM = ('--pass-pipeline="builtin.module(func.func(convert-linalg-to-loops),'
                 'expand-strided-metadata,lower-affine,convert-scf-to-cf,convert-vector-to-llvm,'
                 'finalize-memref-to-llvm,convert-math-to-llvm,convert-math-to-libm,'
                 'convert-arith-to-llvm,convert-index-to-llvm,convert-func-to-llvm,'
                 'convert-cf-to-llvm,reconcile-unrealized-casts)"')


def is_tosa(src_text):
    """Whether a program uses TOSA ops (it then needs TOSA_TO_LINALG before bufferizing)."""
    return re.search(r"\btosa\.", src_text) is not None


def frontend(src, opt):
    """The shell command that turns the program at `src` into linalg on tensors (TOSA lowered,
    anything else passed through): what every pipeline below bufferizes."""
    s = shlex.quote(src)
    with open(src) as f:
        if is_tosa(f.read()):
            return f"{opt} {s} {shlex.quote(TOSA_TO_LINALG)}"
    return f"cat {s}"


def runner_libs(llvm_lib=LLVM_LIB):
    return ",".join(os.path.join(llvm_lib, l) for l in ("libmlir_c_runner_utils.so", "libmlir_runner_utils.so"))


def commands(mode, src, llvm_bin=LLVM_BIN, mplan_opt=None, arena="heap", plan_options=""):
    """Returns (compile_pipeline, run_command) as shell strings."""
    opt = os.path.join(llvm_bin, "mlir-opt")
    run = (f"{os.path.join(llvm_bin, 'mlir-runner')} -e main -entry-point-result=void "
           f"-shared-libs={runner_libs(os.path.join(os.path.dirname(llvm_bin), 'lib'))}")
    front = frontend(src, opt)
    if mode == "baseline":
        comp = f"{front} | {opt} {BUFFERIZE} {DEALLOC} | {opt} {LOWER_TO_LLVM}"
    elif mode == "planned":
        mplan_opt = mplan_opt or os.path.join(ROOT, "build", "bin", "mplan-opt")
        plan = "--mplan-plan-pipeline" + (f'="{plan_options}"' if plan_options else "")
        comp = (f"{front} | {opt} {BUFFERIZE} | {shlex.quote(mplan_opt)} {plan} "
                f'--convert-mplan-to-memref="arena={arena}" --mplan-to-llvm')
    elif mode == "bufferized":
        comp = f"{front} | {opt} {BUFFERIZE}"
        run = None
    else:
        raise ValueError(mode)
    return comp, run


ELEM_BYTES = {"f16": 2, "bf16": 2, "f32": 4, "f64": 8, "i1": 1, "i8": 1, "i16": 2, "i32": 4,
              "i64": 8, "index": 8}


def count_allocs(ir):
    """{function: [number of memref.alloc/alloca, bytes of the statically shaped ones]}."""
    counts, cur = {}, None
    for line in ir.splitlines():
        m = re.match(r"\s*func\.func\s+(?:private\s+)?@([\w$.]+)", line)
        if m:
            cur = m.group(1)
            counts.setdefault(cur, [0, 0])
        elif cur and re.search(r"=\s*memref\.alloca?\b", line):
            counts[cur][0] += 1
            t = re.search(r":\s*memref<([0-9x]*)(f16|bf16|f32|f64|i1|i8|i16|i32|i64|index)[,>]", line)
            if t:
                n = 1
                for d in t.group(1).split("x")[:-1]:
                    n *= int(d)
                counts[cur][1] += n * ELEM_BYTES[t.group(2)]
    return counts


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("mode", choices=["baseline", "planned", "bufferized"])
    ap.add_argument("file")
    ap.add_argument("--mplan-opt", default=os.path.join(ROOT, "build", "bin", "mplan-opt"))
    ap.add_argument("--llvm-bin", default=LLVM_BIN)
    ap.add_argument("--arena", default="heap")
    ap.add_argument("--plan-options", default="")
    ap.add_argument("--print-cmd", action="store_true")
    ap.add_argument("--raw", action="store_true")
    ap.add_argument("--time", action="store_true")
    ap.add_argument("--count-allocs", action="store_true")
    a = ap.parse_args()
    comp, run = commands(a.mode, a.file, a.llvm_bin, a.mplan_opt, a.arena, a.plan_options)
    if a.print_cmd:
        print(comp + (f" | {run}" if run else ""))
        return 0
    if a.mode == "bufferized":
        p = subprocess.run(["bash", "-o", "pipefail", "-c", comp], capture_output=True, text=True)
        if p.returncode:
            sys.stderr.write(p.stderr)
            return p.returncode
        if a.count_allocs:
            for fn, (n, b) in count_allocs(p.stdout).items():
                print(f"{fn} allocs={n} static_bytes={b}")
        else:
            sys.stdout.write(p.stdout)
        return 0
    c = subprocess.run(["bash", "-o", "pipefail", "-c", comp], stdout=subprocess.PIPE, text=True)
    if c.returncode:
        return c.returncode
    t0 = time.monotonic()
    r = subprocess.run(["bash", "-c", run], input=c.stdout, stdout=subprocess.PIPE, text=True)
    dt = time.monotonic() - t0
    out = r.stdout if a.raw else re.sub(r"base@ = 0x[0-9a-fA-F]+", "base@ = <addr>", r.stdout)
    sys.stdout.write(out)
    if a.time:
        sys.stderr.write(f"run time {dt:.3f} s\n")
    return r.returncode


if __name__ == "__main__":
    sys.exit(main())
