"""utils/fuzz_pipeline.py and its package utils/fuzz: kinds, programs and the planned runs."""

import os
import re
import shutil
import subprocess
import sys

import pytest

from conftest import MLIR_BIN, REPO

sys.path.insert(0, str(REPO / "utils"))
from fuzz import kinds, runner  # noqa: E402

# The kinds before issue 30, in the order that decides which seeds they get.
OLD_KINDS = ["tensor", "options", "escape", "realloc", "spaces", "elems", "parallel", "cfg",
             "recursion", "stack", "branchy", "branchres", "argslice", "optout", "dynamic"]


def test_kinds_keep_their_order_and_new_ones_follow():
    assert kinds.KINDS[:len(OLD_KINDS)] == OLD_KINDS
    assert {"merge", "views", "bounds", "pointers"} <= set(kinds.KINDS[len(OLD_KINDS):])


@pytest.mark.parametrize("kind", kinds.KINDS)
def test_every_kind_generates_deterministic_programs_upstream_parses(kind):
    for seed in range(2):
        text = runner.generate(seed, kind)
        assert text == runner.generate(seed, kind)
        p = subprocess.run([str(MLIR_BIN / "mlir-opt"), "-o", "/dev/null"], input=text,
                           capture_output=True, text=True)
        assert p.returncode == 0, f"{kind} seed {seed}: {p.stderr}"


NEW_KIND = '''"""Kind `zz`: a test kind."""
from ..builder import MemrefProgram
from ..kind import MemrefKind


class Program(MemrefProgram):
    def generate(self):
        f = self.f0()
        x = self.add_in(4)
        f.copy(x, self.add_out(f, 4))
        f.emit("return")
        self.funcs.append(f.text(self.f0_sig()))


class _Kind(MemrefKind):
    name = "zz"
    order = 100000
    summary = __doc__
    program_class = Program


KIND = _Kind()
'''


def test_a_new_kind_is_one_file(tmp_path):
    (tmp_path / "utils").mkdir()
    shutil.copytree(REPO / "utils" / "fuzz", tmp_path / "utils" / "fuzz",
                    ignore=shutil.ignore_patterns("__pycache__"))
    for f in ("fuzz_pipeline.py", "mplan_pipelines.py"):
        shutil.copy(REPO / "utils" / f, tmp_path / "utils" / f)
    for d in ("models", "bench"):
        os.symlink(REPO / d, tmp_path / d)
    (tmp_path / "utils" / "fuzz" / "kinds" / "zz.py").write_text(NEW_KIND)
    entry = str(tmp_path / "utils" / "fuzz_pipeline.py")
    out = subprocess.run([sys.executable, entry, "--list-kinds"], capture_output=True, text=True,
                         check=True).stdout
    assert "zz:\n  Kind `zz`: a test kind." in out
    prog = subprocess.run([sys.executable, entry, "--kinds", "zz", "--gen", "3"], capture_output=True,
                          text=True, check=True).stdout
    assert "kind zz, seed 3" in prog and "memref.copy %x0, %y0" in prog


class FakeArgs:
    mplan_opt = "/nonexistent/bin/mplan-opt"
    llvm_bin = str(MLIR_BIN)
    every_arena = 4
    variants = False
    opt_level = 3
    observer = True

    def __init__(self, out):
        self.out = str(out)


def fake_sh(wrong_unobserved):
    """A stand-in for runner.sh: every command succeeds; the lowered planned program prints the
    reference's output, or (wrong_unobserved) a wrong one unless it is observed or lowered
    without alias scopes. Records the commands."""
    log = []

    def sh(cmd, inp=None, timeout=120, env=None):
        log.append(cmd)
        rep = re.search(r"report=(\S+?)[\s\"]", cmd)
        if rep:
            with open(rep.group(1), "w") as f:
                f.write('{"functions": []}')
        if "--mplan-to-llvm" in cmd:
            kind = ("observed" if "--mplan-instrument" in cmd else
                    "noscopes" if "alias-scopes=false" in cmd else "plain")
            return 0, f"LL-{kind}", ""
        if "mlir-runner" in cmd:
            if "-O3 " not in cmd:
                return 1, "", "not at -O3"
            if inp == "LL-observed":
                return 0, "same\n", "mplan-rt: planned buffers 2, errors 0\n"
            if inp == "LL-plain" and wrong_unobserved:
                return 0, "wrong\n", ""
            return 0, "same\n", ""
        return 0, "", ""
    return sh, log


def test_every_planned_run_executes_as_lowered_and_observed(tmp_path, monkeypatch):
    sh, log = fake_sh(False)
    monkeypatch.setattr(runner, "sh", sh)
    res = runner.run_seed(0, FakeArgs(tmp_path), "merge")
    assert res.runs >= 3 and res.outcome == "ok", res.fails
    lowered = [c for c in log if "--mplan-to-llvm" in c]
    observed = [c for c in lowered if "--mplan-instrument" in c]
    assert len(lowered) == 2 * res.runs and len(observed) == res.runs


def test_a_wrong_output_of_the_lowered_program_is_a_failure_named_by_its_cause(tmp_path, monkeypatch):
    sh, _ = fake_sh(True)
    monkeypatch.setattr(runner, "sh", sh)
    res = runner.run_seed(1, FakeArgs(tmp_path), "views")
    assert res.outcome == "fail"
    assert {m for _, m in res.fails} == {
        "output differs from baseline (not with alias-scopes=false: the alias scopes)"}
    assert all("(observed)" not in what for what, _ in res.fails)


def test_pointers_generates_each_family_and_runs_sequence_best(tmp_path, monkeypatch):
    """Kind `pointers`: seed s is family s mod 3 (copy, seq, callee); every program upstream
    parses, writes through an !llvm.ptr made from an aligned pointer (copy, seq) or hands a
    callee a subview it reaches past with a reinterpret_cast or the aligned pointer (callee);
    one planned run is sequence=best."""
    for seed in range(6):
        text = runner.generate(seed, "pointers")
        family = ["copy", "seq", "callee"][seed % 3]
        assert f"// family: {family}" in text
        p = subprocess.run([str(MLIR_BIN / "mlir-opt"), "-o", "/dev/null"], input=text,
                           capture_output=True, text=True)
        assert p.returncode == 0, f"seed {seed}: {p.stderr}"
        f0 = text[text.index("func.func @f0"):]
        f0 = f0[:f0.index("\n}\n")]
        if family == "callee":
            assert re.search(r"call @g\d+\(%sv", f0)
            assert re.search(r"memref\.(reinterpret_cast %m|extract_aligned_pointer_as_index %m)", text)
        else:
            assert "memref.extract_aligned_pointer_as_index" in f0 and "llvm.inttoptr" in f0
            assert re.search(r"llvm\.(store|load)|llvm\.intr\.memset", f0)
    for seed in range(6):
        sh, log = fake_sh(False)
        monkeypatch.setattr(runner, "sh", sh)
        res = runner.run_seed(seed, FakeArgs(tmp_path), "pointers")
        assert res.outcome == "ok", res.fails
        assert any("sequence=best" in c for c in log if "mplan-plan-pipeline" in c), seed
