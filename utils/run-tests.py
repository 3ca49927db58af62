#!/usr/bin/env python3
"""Runs every mplan test suite and prints one closing line with the totals.

Suites: lit (test/), GoogleTest binaries (build/unittests, build/bin/*Tests),
pytest (python/tests), the downstream embedding example and the shell blocks
of README.md and docs/*.md (utils/check-doc-blocks.py). Each suite reports
its own counts; the last line is `N passed, N failed` over all of them, and the
exit code is non-zero when anything failed.
"""

import argparse
import glob
import json
import os
import subprocess
import sys
import tempfile
import xml.etree.ElementTree as ET

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
LLVM_BIN = "/usr/lib/llvm-22/bin"


def run(cmd, **kwargs):
    print("+ " + " ".join(cmd), flush=True)
    return subprocess.run(cmd, **kwargs).returncode


def junit_counts(path):
    """(passed, failed, skipped) from a JUnit XML file."""
    tree = ET.parse(path)
    passed = failed = skipped = 0
    for case in tree.iter("testcase"):
        if case.find("failure") is not None or case.find("error") is not None:
            failed += 1
        elif case.find("skipped") is not None:
            skipped += 1
        else:
            passed += 1
    return passed, failed, skipped


def run_junit(cmd, xml, **kwargs):
    """Runs a suite that writes JUnit XML to `xml`; a non-zero exit with no
    failing case (a crash, a collection error) counts as one failure."""
    rc = run(cmd, **kwargs)
    if rc == 5 and "pytest" in cmd:  # no tests collected
        return 0, 0, 0
    if not os.path.exists(xml):
        return 0, 1, 0
    passed, failed, skipped = junit_counts(xml)
    if rc != 0 and failed == 0:
        failed = 1
    return passed, failed, skipped


def run_lit(build, tmp):
    xml = os.path.join(tmp, "lit.xml")
    return run_junit([os.path.join(LLVM_BIN, "lit"), "-sv", "--xunit-xml-output", xml,
                      os.path.join(build, "test")], xml)


def run_gtest(build, tmp):
    binaries = sorted(set(
        glob.glob(os.path.join(build, "unittests", "**", "*Tests"), recursive=True) +
        glob.glob(os.path.join(build, "bin", "*Tests"))))
    passed = failed = 0
    for binary in binaries:
        if not os.access(binary, os.X_OK) or os.path.isdir(binary):
            continue
        out = os.path.join(tmp, os.path.basename(binary) + ".json")
        rc = run([binary, "--gtest_brief=1", "--gtest_output=json:" + out])
        if not os.path.exists(out):
            failed += 1
            continue
        with open(out) as f:
            report = json.load(f)
        failures = report.get("failures", 0)
        passed += report.get("tests", 0) - failures - report.get("disabled", 0)
        failed += failures
        if rc != 0 and failures == 0:
            failed += 1
    return passed, failed, 0


def run_pytest(build, tmp):
    tests = os.path.join(ROOT, "python", "tests")
    if not os.path.isdir(tests):
        return 0, 0, 0
    xml = os.path.join(tmp, "pytest.xml")
    env = dict(os.environ)
    env["PYTHONPATH"] = os.path.join(build, "python_packages")
    env["MPLAN_BUILD_DIR"] = build
    return run_junit(["/usr/bin/python3", "-m", "pytest", "-q", "--junitxml", xml, tests],
                     xml, env=env)


def run_downstream(build, tmp):
    script = os.path.join(ROOT, "examples", "downstream", "check.sh")
    if not os.path.exists(script):
        return 0, 0, 0
    rc = run(["bash", script, build])
    return (1, 0, 0) if rc == 0 else (0, 1, 0)


def run_docs(build, tmp):
    """The runnable shell blocks of the docs, each one test."""
    proc = subprocess.run(["/usr/bin/python3", os.path.join(ROOT, "utils", "check-doc-blocks.py"),
                           "--build", build], capture_output=True, text=True)
    print("+ utils/check-doc-blocks.py --build " + build, flush=True)
    print(proc.stdout + proc.stderr, end="", flush=True)
    passed = sum(line.startswith("PASS ") for line in proc.stdout.splitlines())
    failed = sum(line.startswith("FAIL ") for line in proc.stdout.splitlines())
    if proc.returncode != 0 and failed == 0:
        failed = 1
    return passed, failed, 0


def main():
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--build", default=os.path.join(ROOT, "build"))
    parser.add_argument("--suite", action="append",
                        choices=["lit", "gtest", "pytest", "downstream", "docs"],
                        help="run only these suites (default: all)")
    args = parser.parse_args()
    build = os.path.abspath(args.build)
    suites = [("lit", run_lit), ("gtest", run_gtest), ("pytest", run_pytest),
              ("downstream", run_downstream), ("docs", run_docs)]
    totals = [0, 0, 0]
    summary = []
    with tempfile.TemporaryDirectory() as tmp:
        for name, fn in suites:
            if args.suite and name not in args.suite:
                continue
            passed, failed, skipped = fn(build, tmp)
            summary.append(f"{name}: {passed} passed, {failed} failed, {skipped} skipped")
            totals = [totals[0] + passed, totals[1] + failed, totals[2] + skipped]
    print()
    for line in summary:
        print("  " + line)
    print(f"{totals[0]} passed, {totals[1]} failed, {totals[2]} skipped")
    return 1 if totals[1] else 0


if __name__ == "__main__":
    sys.exit(main())
