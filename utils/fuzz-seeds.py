#!/usr/bin/env python3
"""Writes the seed corpus of the IR fuzzer (fuzz/ir_fuzzer.cpp) into --out.

Seeds: every test/**/*.mlir split at `// -----` (comment lines dropped, as
the parser ignores them), plus the bundled models (models/*.mlir)
bufferized with upstream One-Shot Bufferize, the form mplan's pipeline
takes. Files larger than --max-bytes are skipped (libFuzzer would truncate
them). fuzz/corpus/ir holds a few hand-written seeds in the repository.
"""

import argparse
import glob
import hashlib
import os
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
MLIR_OPT = "/usr/lib/llvm-22/bin/mlir-opt"
BUFFERIZE = ("--one-shot-bufferize=bufferize-function-boundaries "
             "function-boundary-type-conversion=identity-layout-map")


def strip_comments(text):
    return "".join(line for line in text.splitlines(keepends=True)
                   if not line.lstrip().startswith("//"))


def main():
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--out", required=True)
    parser.add_argument("--max-bytes", type=int, default=16384)
    args = parser.parse_args()
    os.makedirs(args.out, exist_ok=True)
    seeds = []
    for path in sorted(glob.glob(os.path.join(ROOT, "test", "**", "*.mlir"), recursive=True)):
        with open(path, encoding="utf-8", errors="replace") as f:
            text = f.read()
        chunks = [""]
        for line in text.splitlines(keepends=True):
            if line.strip() == "// -----":
                chunks.append("")
            else:
                chunks[-1] += line
        seeds += [strip_comments(c) for c in chunks]
    for path in sorted(glob.glob(os.path.join(ROOT, "models", "*.mlir"))):
        if os.path.basename(path).startswith("ext_") and "small" not in path:
            continue
        cmd = [MLIR_OPT, path]
        if "tosa" in path:
            cmd += ["--pass-pipeline=builtin.module(func.func(tosa-to-linalg-named,"
                    "tosa-to-linalg,tosa-to-arith,tosa-to-tensor))"]
            first = subprocess.run(cmd, capture_output=True, text=True)
            if first.returncode != 0:
                continue
            proc = subprocess.run([MLIR_OPT, BUFFERIZE], input=first.stdout,
                                  capture_output=True, text=True)
        else:
            proc = subprocess.run(cmd + [BUFFERIZE], capture_output=True, text=True)
        if proc.returncode == 0:
            seeds.append(strip_comments(proc.stdout))
    written = 0
    for seed in seeds:
        data = seed.encode()
        if not data.strip() or len(data) > args.max_bytes:
            continue
        name = hashlib.sha1(data).hexdigest()
        with open(os.path.join(args.out, name), "wb") as f:
            f.write(data)
        written += 1
    print(f"fuzz-seeds: {written} seeds in {args.out} ({len(seeds) - written} skipped: "
          f"empty or larger than {args.max_bytes} bytes)")


if __name__ == "__main__":
    sys.exit(main())
