#!/usr/bin/env python3
"""Runs the plan pipeline over MLIR files nobody here wrote (issue 16).

    utils/run-third-party.py DIR [--mplan-opt build/bin/mplan-opt] [--timeout 60]

Every *.mlir under DIR is split at `// -----`; each piece that allocates
buffers (memref.alloc / memref.alloca) and parses on its own (unknown
dialects allowed) goes through

    mplan-opt --allow-unregistered-dialect --mplan-plan-pipeline="report=..."
              --mplan-verify-plan --convert-mplan-to-memref

Outcomes: ok (planned; the report's buffers and unplanned reasons are
tallied), rejected (a located error, e.g. a malformed mplan attribute),
wrong-plan (mplan-verify-plan or convert-mplan-to-memref's plan check fails),
crash (signal, assertion, sanitizer report, stack dump) and hang (timeout).
Nothing is copied: the directory is read in place. Exits 1 if any piece
crashed, hung or got a wrong plan. Point --mplan-opt at build-asan/bin/mplan-opt
(make sanitize) to run the same corpus under ASan and UBSan.
"""

import argparse
import collections
import json
import os
import re
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
CRASH_MARKERS = ("PLEASE submit a bug report", "Stack dump:", "Assertion", "ERROR: AddressSanitizer",
                 "runtime error:", "ERROR: LeakSanitizer", "UNREACHABLE executed")
VERIFY_PLAN_MARKERS = ("share", "overlap")


def pieces(path):
    with open(path, encoding="utf-8", errors="replace") as f:
        text = f.read()
    chunk, start = [], 1
    for lineno, line in enumerate(text.splitlines(keepends=True), 1):
        if re.match(r"^//\s*-----\s*$", line):
            yield start, "".join(chunk)
            chunk, start = [], lineno + 1
        else:
            chunk.append(line)
    yield start, "".join(chunk)


def run(cmd, timeout):
    try:
        proc = subprocess.run(cmd, capture_output=True, text=True, errors="replace",
                              timeout=timeout)
        return proc.returncode, proc.stderr
    except subprocess.TimeoutExpired:
        return None, ""


def first_error(stderr):
    for line in stderr.splitlines():
        m = re.search(r"error: (.*)", line)
        if m:
            return re.sub(r"\d+", "N", m.group(1))[:120]
    return stderr.strip().splitlines()[0][:120] if stderr.strip() else "(no message)"


def main():
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("dir")
    parser.add_argument("--mplan-opt", default=os.path.join(ROOT, "build", "bin", "mplan-opt"))
    parser.add_argument("--timeout", type=float, default=60)
    parser.add_argument("--pipeline", default="mplan-plan-pipeline{time-limit=0.05 report=%s}")
    parser.add_argument("--keep", help="copy crashing / hanging / wrong-plan pieces here")
    parser.add_argument("-v", "--verbose", action="store_true")
    args = parser.parse_args()

    counts = collections.Counter()
    reasons = collections.Counter()
    rejections = collections.Counter()
    problems = []
    planned_buffers = 0
    start = time.time()
    with tempfile.TemporaryDirectory(prefix="mplan-third-party-") as tmp:
        src = os.path.join(tmp, "piece.mlir")
        report = os.path.join(tmp, "report.json")
        for dirpath, _, files in sorted(os.walk(args.dir)):
            for name in sorted(files):
                if not name.endswith(".mlir"):
                    continue
                path = os.path.join(dirpath, name)
                counts["files"] += 1
                for line, text in pieces(path):
                    if not re.search(r"memref\.alloca?\b", text):
                        continue
                    counts["pieces with buffers"] += 1
                    with open(src, "w") as f:
                        f.write(text)
                    where = f"{os.path.relpath(path, args.dir)}:{line}"
                    rc, err = run([args.mplan_opt, "--allow-unregistered-dialect", src,
                                   "-o", os.devnull], args.timeout)
                    if rc != 0:
                        # Upstream's own parser and verifier: not ours to judge,
                        # unless it crashed or hung there too.
                        if rc is None or rc < 0 or any(m in err for m in CRASH_MARKERS):
                            problems.append(("crash-in-parser", where, err[-2000:]))
                        counts["not parsed (dialect, syntax or verifier of MLIR 22)"] += 1
                        continue
                    counts["parsed"] += 1
                    if os.path.exists(report):
                        os.remove(report)
                    cmd = [args.mplan_opt, "--allow-unregistered-dialect", src,
                           "--pass-pipeline=builtin.module(" + (args.pipeline % report) +
                           ",func.func(mplan-verify-plan),convert-mplan-to-memref)",
                           "-o", os.devnull]
                    rc, err = run(cmd, args.timeout)
                    if rc is None:
                        kind = "hang"
                    elif rc < 0 or any(m in err for m in CRASH_MARKERS):
                        kind = "crash"
                    elif rc != 0 and "verify" in err and any(m in err for m in VERIFY_PLAN_MARKERS):
                        kind = "wrong-plan"
                    elif rc != 0:
                        kind = "rejected"
                        rejections[first_error(err)] += 1
                    else:
                        kind = "ok"
                    counts[kind] += 1
                    if kind in ("hang", "crash", "wrong-plan"):
                        problems.append((kind, where, err[-2000:]))
                        if args.keep:
                            os.makedirs(args.keep, exist_ok=True)
                            keep = os.path.join(args.keep, where.replace("/", "_").replace(":", "_L"))
                            with open(keep, "w") as f:
                                f.write(text)
                    if kind == "ok" and os.path.exists(report):
                        with open(report) as f:
                            data = json.load(f)
                        for fn in data.get("functions", []):
                            planned_buffers += len(fn.get("buffers", []))
                            for u in fn.get("unmanaged", []):
                                reasons[re.sub(r"'[^']*'", "'OP'", u.get("reason", "?"))] += 1
                    if args.verbose:
                        print(f"{kind:10} {where}", flush=True)
    print(f"third-party corpus: {args.dir} ({time.time() - start:.0f} s, {args.mplan_opt})")
    for key in ("files", "pieces with buffers", "not parsed (dialect, syntax or verifier of MLIR 22)",
                "parsed", "ok", "rejected", "wrong-plan", "crash", "hang"):
        print(f"  {key:55} {counts[key]}")
    print(f"  {'buffers planned':55} {planned_buffers}")
    print(f"  {'buffers left unplanned':55} {sum(reasons.values())}")
    for reason, n in reasons.most_common():
        print(f"    {n:6}  {reason}")
    if rejections:
        print("  rejected with (first error of each piece):")
        for msg, n in rejections.most_common(20):
            print(f"    {n:6}  {msg}")
    for kind, where, err in problems:
        print(f"\n{kind.upper()}: {where}\n{err}")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
