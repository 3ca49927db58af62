#!/usr/bin/python3
"""The memory observer on every bundled model under every arena kind.

For each model of models/ (or those named), bufferized as utils/mplan_pipelines.py does
(One-Shot Bufferize; with --out-params also upstream's buffer-results-to-out-params with hoisted
allocations, as bench/e2e/run.py does), planned once with --mplan-plan-pipeline, then per arena
kind lowered with --mplan-instrument and run under mlir-runner with libmplan_runtime.so. Prints
one line per (model, arena): the observer's planned-buffer and error counts, and whether the
program's output (observer lines dropped, addresses masked) equals the unplanned program's.
A correct plan must show 0 errors and the same output everywhere (issue 30, item 4).

Usage: utils/observe-zoo.py [--build build] [--models a,b] [--arenas heap,stack]
                            [--out-params] [--plan-options STR]
Exit status 1 if any run reports an observer error, fails or prints something else.
"""
import argparse
import json
import os
import re
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(ROOT, "utils"))
from mplan_pipelines import BUFFERIZE, LLVM_BIN, commands, frontend, runner_libs  # noqa: E402

ARENAS = ["heap", "stack", "global", "argument", "shared-global"]
OUT_PARAMS = ('--buffer-results-to-out-params="hoist-static-allocs hoist-dynamic-allocs '
              'modify-public-functions"')


def sh(cmd, env=None):
    """stdout of the shell pipeline `cmd` (pipefail), or None with its stderr shown."""
    p = subprocess.run(["bash", "-o", "pipefail", "-c", cmd], capture_output=True, text=True,
                       env=env)
    if p.returncode:
        sys.stderr.write(p.stderr[-2000:])
        return None
    return p.stdout


def mask(out):
    return re.sub(r"base@ = 0x[0-9a-fA-F]+", "base@ = <addr>", out)


def main():
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--build", default=os.path.join(ROOT, "build"))
    ap.add_argument("--models", default="")
    ap.add_argument("--arenas", default=",".join(ARENAS))
    ap.add_argument("--out-params", action="store_true")
    ap.add_argument("--plan-options", default="")
    a = ap.parse_args()
    mplan_opt = os.path.join(a.build, "bin", "mplan-opt")
    runtime = os.path.join(a.build, "lib", "libmplan_runtime.so")
    models = a.models.split(",") if a.models else sorted(
        f[:-5] for f in os.listdir(os.path.join(ROOT, "models")) if f.endswith(".mlir"))
    opt = os.path.join(LLVM_BIN, "mlir-opt")
    run = (f"{os.path.join(LLVM_BIN, 'mlir-runner')} -e main -entry-point-result=void "
           f"-shared-libs={runner_libs()},{runtime}")
    extra = f" {OUT_PARAMS}" if a.out_params else ""
    plan = "--mplan-plan-pipeline" + (f'="{a.plan_options}"' if a.plan_options else "")
    bad = 0
    with tempfile.TemporaryDirectory() as tmp:
        for model in models:
            src = os.path.join(ROOT, "models", model + ".mlir")
            comp, base_run = commands("baseline", src)
            if a.out_params:
                comp = comp.replace(BUFFERIZE, BUFFERIZE + extra)
            bufferized = os.path.join(tmp, model + ".buf.mlir")
            if sh(f"{frontend(src, opt)} | {opt} {BUFFERIZE}{extra} -o {bufferized}") is None:
                # buffer-results-to-out-params rejects dynamically shaped results.
                print(f"{model}: skipped, upstream's bufferization fails", flush=True)
                continue
            base = sh(f"{comp} | {base_run}")
            planned = os.path.join(tmp, model + ".plan.mlir")
            if base is None or sh(f"{mplan_opt} {bufferized} {plan} -o {planned}") is None:
                print(f"{model}: the baseline or planning failed", flush=True)
                bad += 1
                continue
            for arena in a.arenas.split(","):
                js = os.path.join(tmp, f"{model}.{arena}.json")
                env = dict(os.environ, MPLAN_RT_OUTPUT="none", MPLAN_RT_JSON=js)
                out = sh(f'{mplan_opt} {planned} --convert-mplan-to-memref="arena={arena}" '
                         f"--mplan-instrument --mplan-to-llvm 2>/dev/null | {run}", env)
                if out is None or not os.path.exists(js):
                    print(f"{model} {arena}: the run failed", flush=True)
                    bad += 1
                    continue
                data = json.load(open(js))
                buffers = data["planned_buffers"]
                same = mask(out) == mask(base)
                print(f"{model} {arena}: planned buffers {buffers}, errors {data['errors']}, "
                      f"output {'identical' if same else 'DIFFERS'}", flush=True)
                bad += data["errors"] != 0 or not same
    print(f"{bad} failing run(s)")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
