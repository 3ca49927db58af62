#!/usr/bin/env python3
"""Runs the shell blocks of README.md and docs/*.md that are marked runnable,
as a user on a fresh Debian 12 would after `make build`, so the docs cannot
drift from the tools.

A block is runnable when the line before its opening fence is
`<!-- runnable -->`:

    <!-- runnable -->
    ```sh
    build/bin/mplan-plan in.csv -o out.csv
    ```

Each runnable block runs on its own with `bash -e -o pipefail`, in a fresh
directory that holds the repository's top-level entries (as symlinks, with
`build` pointing at --build) and with Debian's default PATH, on which the LLVM
tools are not. Every shell block, runnable or not, is also checked for LLVM
tools called without a path (`mlir-opt` instead of
`/usr/lib/llvm-22/bin/mlir-opt` or `$LLVM/mlir-opt`): Debian does not put them
on PATH.

Prints one line per block and `N passed, N failed`; exits non-zero on a
failure.
"""

import argparse
import glob
import os
import re
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
MARKER = "<!-- runnable -->"
FENCE = re.compile(r"^```(sh|bash|shell)\s*$")
#: Debian 12's default PATH for root.
DEBIAN_PATH = "/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin"
#: LLVM tools Debian installs only under /usr/lib/llvm-22/bin.
BARE_TOOL = re.compile(r"(?<![\w/.$-])(mlir-opt|mlir-runner|mlir-translate|FileCheck|lit)"
                       r"(?![\w.-])")


def shell_blocks(path):
    """(first line number, runnable, text) of every shell block of `path`."""
    blocks = []
    with open(path, encoding="utf-8") as f:
        lines = f.read().splitlines()
    i = 0
    while i < len(lines):
        if FENCE.match(lines[i]):
            runnable = i > 0 and lines[i - 1].strip() == MARKER
            start = i + 1
            i += 1
            while i < len(lines) and not lines[i].startswith("```"):
                i += 1
            blocks.append((start + 1, runnable, "\n".join(lines[start:i]) + "\n"))
        i += 1
    return blocks


def bare_tools(text):
    """The LLVM tools `text` calls without a path (comments ignored)."""
    found = []
    for line in text.splitlines():
        code = line.split(" #", 1)[0] if not line.lstrip().startswith("#") else ""
        # Quoted option values (pass names in pipelines) are not commands.
        code = re.sub(r'"[^"]*"', '""', code)
        found += BARE_TOOL.findall(code)
    return found


def run_block(text, build, timeout):
    with tempfile.TemporaryDirectory(prefix="mplan-doc-") as work:
        for entry in os.listdir(ROOT):
            if entry in (".git", "build"):
                continue
            os.symlink(os.path.join(ROOT, entry), os.path.join(work, entry))
        os.symlink(build, os.path.join(work, "build"))
        env = {"PATH": DEBIAN_PATH, "HOME": os.environ.get("HOME", "/root"),
               "LANG": "C.UTF-8", "TMPDIR": work}
        try:
            proc = subprocess.run(["bash", "-e", "-o", "pipefail", "-c", text], cwd=work,
                                  env=env, capture_output=True, text=True, timeout=timeout)
        except subprocess.TimeoutExpired:
            return False, f"timed out after {timeout} s"
        return proc.returncode == 0, (proc.stdout + proc.stderr)[-3000:]


def main():
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--build", default=os.path.join(ROOT, "build"))
    parser.add_argument("--timeout", type=float, default=300)
    parser.add_argument("files", nargs="*",
                        help="Markdown files (default: README.md and docs/*.md)")
    args = parser.parse_args()
    build = os.path.abspath(args.build)
    files = args.files or [os.path.join(ROOT, "README.md")] + sorted(
        glob.glob(os.path.join(ROOT, "docs", "*.md")))
    passed = failed = 0
    for path in files:
        name = os.path.relpath(path, ROOT)
        for line, runnable, text in shell_blocks(path):
            tools = bare_tools(text)
            if tools:
                failed += 1
                print(f"FAIL {name}:{line}: calls {', '.join(sorted(set(tools)))} without a "
                      f"path (use /usr/lib/llvm-22/bin/ or a variable set in the block)")
                continue
            if not runnable:
                continue
            ok, output = run_block(text, build, args.timeout)
            if ok:
                passed += 1
                print(f"PASS {name}:{line}")
            else:
                failed += 1
                print(f"FAIL {name}:{line}:\n{text}--- output:\n{output}")
    print(f"{passed} passed, {failed} failed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
