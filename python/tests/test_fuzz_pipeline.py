"""utils/fuzz_pipeline.py and its package utils/fuzz: kinds, programs and the planned runs."""

import json
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


def fake_sh(wrong_unobserved, perturbed_changes=False):
    """A stand-in for runner.sh: every command succeeds; the lowered planned program prints the
    reference's output, or (wrong_unobserved) a wrong one unless it is observed or lowered
    without alias scopes; the baseline under MALLOC_PERTURB_ prints another output when
    perturbed_changes. Records the commands (a run under MALLOC_PERTURB_ as "PERTURB")."""
    log = []

    def sh(cmd, inp=None, timeout=120, env=None):
        if env and "MALLOC_PERTURB_" in env:
            log.append("PERTURB")
            return 0, "changed\n" if perturbed_changes else "same\n", ""
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


def test_tensor_programs_are_also_planned_after_upstreams_deallocation(tmp_path, monkeypatch):
    # One run per program plans the baseline's own input form: the bufferized program after
    # ownership-based deallocation, lowered; the other runs plan the bufferized program.
    sh, log = fake_sh(False)
    monkeypatch.setattr(runner, "sh", sh)
    res = runner.run_seed(1, FakeArgs(tmp_path), "tensor")
    assert res.outcome == "ok", res.fails
    plans = [c for c in log if "--mplan-plan-pipeline" in c and "--mplan-to-llvm" not in c]
    dealloc = [c for c in plans if "--ownership-based-buffer-deallocation" in c]
    assert len(dealloc) == 1 and len(plans) == res.runs >= 2
    assert dealloc[0].index("--bufferization-lower-deallocations") < dealloc[0].index("mplan-opt")


def test_merge_programs_of_odd_seeds_merge_through_execute_region_too():
    # Odd seeds only: the programs of even seeds stay those the docs cite.
    k = kinds.get("merge")
    odd = [k.program(s).text() for s in range(1, 40, 2)]
    assert any("scf.execute_region" in t for t in odd)
    assert not any("scf.execute_region" in k.program(s).text() for s in range(0, 40, 2))


def test_a_wrong_output_of_the_lowered_program_is_a_failure_named_by_its_cause(tmp_path, monkeypatch):
    sh, _ = fake_sh(True)
    monkeypatch.setattr(runner, "sh", sh)
    res = runner.run_seed(1, FakeArgs(tmp_path), "views")
    assert res.outcome == "fail"
    assert {m for _, m in res.fails} == {
        "output differs from baseline (not with alias-scopes=false: the alias scopes)"}
    assert all("(observed)" not in what for what, _ in res.fails)


@pytest.mark.parametrize("kind", ["views", "tensor"])
def test_the_baseline_runs_under_malloc_perturb_only_to_judge_a_failure(tmp_path, monkeypatch, kind):
    # A passing program skips the perturbed run; a failing one gets it, and a baseline whose
    # output then changes makes the program a generator bug, not a failure.
    sh, log = fake_sh(False)
    monkeypatch.setattr(runner, "sh", sh)
    assert runner.run_seed(1, FakeArgs(tmp_path), kind).outcome == "ok"
    assert "PERTURB" not in log
    for changes, outcome in ((False, "fail"), (True, "generator")):
        sh, log = fake_sh(True, perturbed_changes=changes)
        monkeypatch.setattr(runner, "sh", sh)
        res = runner.run_seed(1, FakeArgs(tmp_path), kind)
        assert log.count("PERTURB") == 1 and res.outcome == outcome, (res.fails, res.generator)


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


# ---- batches (utils/fuzz/batch.py, runner.run_batch) -----------------------------------------

from fuzz import batch  # noqa: E402


def test_combine_renames_programs_apart_and_keeps_one_copy_of_the_helpers():
    for kind, helper in [("escape", "fz_check"), ("branchy", "mplan_init_sin")]:
        text = batch.combine([runner.generate(s, kind) for s in range(3)])
        defs = re.findall(r"^(?:func\.func|memref\.global)\b[^@\n]*@([\w$.]+)", text, re.M)
        assert len(defs) == len(set(defs)), "a symbol defined twice"
        for i in range(3):
            assert f"call @fzb{i}_main() : () -> ()" in text
            assert f"func.func private @fzb{i}_main()" in text
        assert defs.count(helper) == 1 and defs.count("main") == 1
        aliases = re.findall(r"^#([\w$.]+) =", text, re.M)
        assert len(aliases) == len(set(aliases)) and all(a.startswith("fzb") for a in aliases)
        p = subprocess.run([str(MLIR_BIN / "mlir-opt"), "-o", "/dev/null"], input=text,
                           capture_output=True, text=True)
        assert p.returncode == 0, p.stderr
    assert re.search(r"^memref\.global .*@fzb\d_fz_box", batch.combine(
        [runner.generate(s, "escape") for s in range(5, 8)]), re.M)


def test_split_and_complete():
    out = "fz-batch-program 0\nA\nfz-batch-program 1\nB\nC\n"
    assert batch.split(out)[0] == "A" and batch.split(out)[1] == "B\nC\n"
    assert batch.complete(out, 2)
    assert not batch.complete(out, 3)                                   # a program missing
    assert not batch.complete("fz-batch-program 0\nA\nfz-batch-program 1\n", 2)   # one silent
    assert not batch.complete("fz-batch-program 1\nB\nfz-batch-program 0\nA\n", 2)


def _run_upstream(text, tmp_path, name):
    """The memref-level program text lowered upstream and run: its output."""
    src = tmp_path / name
    src.write_text(text)
    lower = runner.mp.LOWER_TO_LLVM
    run = runner.mp.commands("baseline", "/dev/null", str(MLIR_BIN))[1]
    p = subprocess.run(["bash", "-o", "pipefail", "-c",
                        f"{MLIR_BIN}/mlir-opt {src} --convert-bufferization-to-memref | "
                        f"{MLIR_BIN}/mlir-opt {lower} | {run}"], capture_output=True, text=True)
    assert p.returncode == 0, p.stderr
    return runner.norm(p.stdout)


def test_a_batch_prints_every_programs_output_as_it_prints_alone(tmp_path):
    """The batch's output, cut at its separators, is each program's own output: no program
    is lost or changed by the renaming."""
    progs = [kinds.get(k).program(s) for k, s in [("merge", 0), ("merge", 4), ("views", 1), ("escape", 2)]]
    alone = [_run_upstream(p.baseline_text(), tmp_path, f"p{i}.mlir") for i, p in enumerate(progs)]
    out = _run_upstream(batch.combine([p.baseline_text() for p in progs]), tmp_path, "b.mlir")
    parts = batch.split(out)
    assert batch.complete(out, len(progs))
    for i, a in enumerate(alone):
        assert a.strip() and parts[i].strip() == a.strip(), i


class BatchArgs(FakeArgs):
    keep = False
    batch = 4


def fake_programs_sh(drop=None, bad_report=None):
    """A stand-in for runner.sh that 'runs' a program file: the output of program i of a batch
    (or of a program alone) is 'out <its @f0's first line>'; plan/convert, lowering and runner
    pass the file's name along. drop: (i, "base" | "plain" | "observed" | "all") that execution
    (every one) of a batch loses program i's output; bad_report: the seed whose @f0 the plan report says raised its bound."""
    log = []

    def outputs(path, what):
        text = open(path).read()
        mains = re.findall(r"call @fzb(\d+)_main\(\)", text)
        if not mains:
            f0 = re.search(r"func\.func @f0\(([^\n]*)", text).group(1)
            return f"out {f0}\n"
        out = ""
        for i in map(int, mains):
            f0 = re.search(rf"func\.func @fzb{i}_f0\(([^\n]*)", text).group(1)
            out += f"fz-batch-program {i}\n"
            if drop not in [(i, what), (i, "all")]:
                out += f"out {f0}\n"
        return out

    def sh(cmd, inp=None, timeout=120, env=None):
        log.append(cmd)
        src = re.search(r"(\S+seed-\d+(?:-batch)?(?:-base|-int)?\.mlir)", cmd)
        rep = re.search(r"report=(\S+?)[\s\"]", cmd)
        if rep:
            fns = []
            text = open(src.group(1)).read()
            seeds = re.findall(r"kind \w+, seed (\d+)", text)
            for i, s in enumerate(seeds):
                name = f"fzb{i}_f0" if "fzb0_main" in text else "f0"
                bad = bad_report is not None and int(s) == bad_report
                fns.append({"name": name, "lower_bound_bytes": 64 if bad else 8,
                            "lower_bound_program_order_bytes": 8, "arena_bytes": 8})
            with open(rep.group(1), "w") as f:
                f.write(json.dumps({"functions": fns}))
        if src and "mplan-plan-pipeline" in cmd:
            return 0, f"MID {src.group(1)}", ""
        if src and "mlir-runner" not in cmd:
            return 0, f"LL base {src.group(1)}", ""
        if "--mplan-to-llvm" in cmd:
            return 0, ("LL observed " if "--mplan-instrument" in cmd else "LL plain ") + inp.split()[1], ""
        if "mlir-runner" in cmd:
            _, what, path = inp.split()
            err = "mplan-rt: planned buffers 2, errors 0\n" if "libmplan_runtime" in cmd else ""
            return 0, outputs(path, what), err
        return 0, "", ""
    return sh, log


def _batch(tmp_path, monkeypatch, seeds, **kw):
    sh, log = fake_programs_sh(**kw)
    monkeypatch.setattr(runner, "sh", sh)
    k = kinds.get("merge")
    return runner.run_batch(seeds, [k.program(s) for s in seeds], BatchArgs(tmp_path), "merge"), log


def test_a_clean_batch_counts_every_program_ok_with_one_run_per_planned_run(tmp_path, monkeypatch):
    res, log = _batch(tmp_path, monkeypatch, [0, 1, 2, 3])
    assert [r.outcome for r in res] == ["ok"] * 4 and all(r.batch == 4 for r in res)
    plans = [c for c in log if "mplan-plan-pipeline" in c]
    assert len(plans) == res[0].runs and all("-batch.mlir" in c for c in plans)
    # the runs a program gets in the batch are the runs it gets alone (drawn per group)
    _, alone = _batch(tmp_path, monkeypatch, [2])
    opts = lambda l: [re.sub(r"report=\S+", "", c.split("--mplan-plan-pipeline")[1]) for c in l
                      if "mplan-plan-pipeline" in c]
    solo_sh, solo_log = fake_programs_sh()
    monkeypatch.setattr(runner, "sh", solo_sh)
    assert runner.run_seed(2, BatchArgs(tmp_path), "merge").outcome == "ok"
    assert opts(solo_log) == opts(plans)


@pytest.mark.parametrize("where", ["base", "plain", "observed", "all"])
def test_a_batch_that_loses_a_programs_output_is_a_failure(tmp_path, monkeypatch, where):
    """Lost from the planned program's output, from the reference's, or from every output
    (they agree then: only the separators and the programs' outputs show it)."""
    res, log = _batch(tmp_path, monkeypatch, [0, 1, 2, 3], drop=(2, where))
    assert any(r.outcome == "fail" for r in res)
    assert "fails, no program alone" in res[0].fails[0][1]
    # every program was run alone after the batch failed
    assert all(any(f"seed-{s}.mlir" in c for c in log) for s in [0, 1, 2, 3])


def test_a_report_check_of_one_program_in_a_batch_names_its_seed(tmp_path, monkeypatch):
    res, _ = _batch(tmp_path, monkeypatch, [0, 1, 2, 3], bad_report=2)
    assert [r.outcome for r in res] == ["ok", "ok", "fail", "ok"]
    assert all("raised the bound" in m for _, m in res[2].fails)
    assert all(r.batch == 0 for r in res)            # each counted from its run alone


def test_bounds_passes_sizes_within_the_stated_bounds():
    """Kind `bounds`: @main never passes an index argument a size above its mplan.upper_bound
    (seed 340 passed 13 to a bound of 8: the observer rightly stopped the planned run)."""
    for seed in range(0, 600):
        text = runner.generate(seed, "bounds")
        sig = re.search(r"func\.func @f0\((.*)\) ", text).group(1)
        bounds = [int(m.group(1)) if m.group(1) else None for m in
                  re.finditer(r"%n\d+: index(?: \{mplan\.upper_bound = (\d+) : i64\})?", sig)]
        for ci, k, v in re.findall(r"%v(\d+)_(\d+) = arith\.constant (\d+) : index", text):
            ub = bounds[int(k)]
            assert ub is None or int(v) <= ub, (seed, ci, k, v, ub)


# ---- capacity runs (utils/fuzz/capacity.py, kind budget, --capacity; issue 33) -------------

from fuzz import capacity  # noqa: E402


def fake_capacity_sh(bound=1000, floor=500, other_error=False):
    """A stand-in for runner.sh: planning without a capacity reports an arena of `bound`
    bytes; a capacity below `floor` is the planner's capacity error with the op floor's note
    (other_error: any capacity gets an error that is not the capacity's); a capacity at or
    above it plans (arena = the capacity) with one rematerialization and one offload recorded
    in the planned IR; every execution prints the reference's output."""
    log = []

    def sh(cmd, inp=None, timeout=120, env=None):
        log.append(cmd)
        if "mplan-plan-pipeline" in cmd:
            src = re.search(r"(\S+seed-\d+\.mlir)", cmd).group(1)
            cap = re.search(r"capacity=default:(\d+)", cmd)
            cap = int(cap.group(1)) if cap else None
            if cap is not None and other_error:
                return 1, "", f"{src}:3:1: error: 'mplan.alloc_tensor' op something else\n"
            if cap is not None and cap < floor:
                return 1, "", (f"{src}:3:1: error: memory space 'default' of function 'f0' needs "
                               f"{floor} bytes (strategy best), above its capacity of {cap} bytes; "
                               f"the max-live lower bound is {floor} bytes\n"
                               f"{src}:9:3: note: the op floor is {floor} bytes: this op touches "
                               "that many bytes\n")
            rep = re.search(r"report=(\S+?)[\s\"]", cmd).group(1)
            arena = bound if cap is None else min(cap, bound)
            opted = open(src).read().count("{mplan.unplanned}")     # @main's, kept
            with open(rep, "w") as f:
                json.dump({"functions": [{"name": "f0", "arena_bytes": arena,
                                          "lower_bound_bytes": arena},
                                         {"name": "main", "arena_bytes": 0, "unmanaged": [
                                             {"loc": "", "reason": "opted out (mplan.unplanned)"}
                                         ] * opted}]}, f)
            splits = ' attributes {mplan.splits = [{kind = "remat"}, {kind = "offload"}]}'
            return 0, "MID" + (splits if cap is not None else "") + "\n" + (
                "%a = memref.alloc() {mplan.unplanned} : memref<4xf32>\n" * opted), ""
        if "--mplan-to-llvm" in cmd:
            return 0, "LL", ""
        if "mlir-runner" in cmd:
            return 0, "same\n", ("mplan-rt: planned buffers 2, errors 0\n"
                                 if "libmplan_runtime" in cmd else "")
        return 0, "", ""
    return sh, log


def _capacities(log):
    return [int(c) for cmd in log if "mplan-plan-pipeline" in cmd
            for c in re.findall(r"capacity=default:(\d+)", cmd)]


def test_capacity_runs_plan_below_the_uncapped_arena_with_the_levers(tmp_path, monkeypatch):
    """Kind budget: a probe without a capacity (B = 1000), one at capacity 1 (the op floor,
    500, from its note), then RUNS runs with capacities between the floor and B, or below the
    floor (a capacity error, expected), each with its own arena kind; the splits of the
    planned IR are counted."""
    below = levers = 0
    for seed in range(12):
        sh, log = fake_capacity_sh()
        monkeypatch.setattr(runner, "sh", sh)
        res = runner.run_seed(seed, FakeArgs(tmp_path), "budget")
        assert res.outcome == "ok", res.fails
        caps = _capacities(log)
        assert caps[0] == 1, caps      # the floor's probe comes first
        runs = caps[1:]
        assert len(runs) == capacity.RUNS and all(250 <= c <= 1000 for c in runs), runs
        assert len(res.expected) == sum(c < 500 for c in runs)
        assert res.splits == {"remat": sum(c >= 500 for c in runs),
                              "offload": sum(c >= 500 for c in runs)}
        assert (res.cap_bound, res.cap_floor) == (1000, 500)
        plans = [c for c in log if "capacity=default:" in c and "capacity=default:1\"" not in c
                 and "capacity=default:1 " not in c]
        arenas = [re.search(r"arena=(\S+?)\"", c).group(1) for c in plans]
        assert len(set(arenas)) == len(arenas), arenas
        below += any(c < 500 for c in runs)
        levers += sum("offload=default:1" in c or "remat=false" in c for c in plans)
    assert below and levers


def test_a_capacity_run_that_fails_for_another_reason_is_a_failure(tmp_path, monkeypatch):
    sh, _ = fake_capacity_sh(other_error=True)
    monkeypatch.setattr(runner, "sh", sh)
    res = runner.run_seed(0, FakeArgs(tmp_path), "budget")
    assert res.outcome == "fail"
    assert all("rejected for another reason" in m or "plan/convert" in m for _, m in res.fails)


def test_a_capacity_below_the_floor_that_plans_is_a_failure(tmp_path, monkeypatch):
    """The floor's probe says 500, the planner then plans every capacity (floor 0 in the
    fake): a run below 500 must have been an error."""
    def floor_lies(sh):
        def sh2(cmd, inp=None, timeout=120, env=None):
            if "capacity=default:1\"" in cmd or "capacity=default:1 " in cmd:
                return 1, "", (re.search(r"(\S+seed-\d+\.mlir)", cmd).group(1) +
                               ":3:1: error: memory space 'default' of function 'f0' needs 500 "
                               "bytes, above its capacity of 1 bytes\nx: note: the op floor is "
                               "500 bytes: y\n")
            return sh(cmd, inp, timeout, env)
        return sh2
    failed = False
    for seed in range(12):
        sh, log = fake_capacity_sh(floor=0)
        monkeypatch.setattr(runner, "sh", floor_lies(sh))
        res = runner.run_seed(seed, FakeArgs(tmp_path), "budget")
        if any(c < 500 for c in _capacities(log)[1:]):
            assert any("below the op floor 500 planned" in m for _, m in res.fails), res.fails
            failed = True
    assert failed


def test_capacity_mode_makes_mains_buffers_unplanned(monkeypatch):
    """--capacity: @main's inputs and outputs are opted out (its call touches them all and
    would set every capacity's floor); the opted-out count includes them."""
    monkeypatch.setattr(runner.MemrefProgram, "main_unplanned", True)
    prog = kinds.get("escape").program(0)
    text = prog.text()
    main = text[text.index("func.func @main"):]
    n = len(prog.ins) + len(prog.outs)
    assert len(re.findall(r"memref\.alloc\(\) \{mplan\.unplanned\}", main)) == n
    assert prog.n_unplanned == n
    assert "mplan.unplanned" in runner.generate(0, "budget")


def test_budget_programs_get_rematerialized_and_offloaded(mplan_opt, tmp_path):
    """The generator of kind budget makes both levers fire: planned at 70 % of its uncapped
    arena with offload=default:1, seeds 0-9 record rematerializations and offloads."""
    found = {"remat": 0, "offload": 0}
    for seed in range(10):
        src = tmp_path / f"b{seed}.mlir"
        src.write_text(runner.generate(seed, "budget"))
        rep = tmp_path / "r.json"
        subprocess.run([str(mplan_opt), str(src), f"--mplan-plan-pipeline=report={rep}", "-o",
                        "/dev/null"], check=True)
        b = max(fn["arena_bytes"] for fn in json.loads(rep.read_text())["functions"])
        p = subprocess.run([str(mplan_opt), str(src), "--mplan-plan-pipeline=capacity=default:"
                            f"{b * 7 // 10} offload=default:1", "--mplan-verify-plan"],
                           capture_output=True, text=True)
        for k in capacity.SPLIT_RE.findall(p.stdout):
            found[k] += 1
    assert found["remat"] >= 1 and found["offload"] >= 1, found


def test_capacity_mode_runs_a_handful_of_seeds(build, tmp_path):
    """utils/fuzz_pipeline.py --capacity on a few programs of kind budget and tensor, for real:
    no failure, and the summary counts the splits (whether these two split depends on the
    build: test_budget_programs_get_rematerialized_and_offloaded asks for splits)."""
    p = subprocess.run([sys.executable, str(REPO / "utils" / "fuzz_pipeline.py"), "--capacity",
                        "--kinds", "budget,tensor", "--seeds", "6,7", "--build", str(build),
                        "--out", str(tmp_path), "--quiet"], capture_output=True, text=True)
    assert p.returncode == 0, p.stdout + p.stderr
    m = re.search(r"capacity runs: (\d+) programs .* remat (\d+), offload (\d+)", p.stdout)
    assert m and int(m.group(1)) == 2, p.stdout


def test_a_capacity_run_that_plans_for_long_is_a_failure():
    """Planning under a capacity may take SLOW_CPU seconds of CPU, or SLOW_FACTOR times the
    uncapped plan's when that is more (budget seed 95047 took 10 s: thousands of
    rematerializations of two buffers in turn)."""
    res = runner.Result("budget")
    res.cap_cpu = 0.05
    assert capacity.too_slow(res, 4.9) is None
    assert "took 9.3 s of CPU (without a capacity 0.05 s)" in capacity.too_slow(res, 9.3)
    res.cap_cpu = 1.0
    assert capacity.too_slow(res, 19.0) is None and capacity.too_slow(res, 21.0)


def _summary_with_jobs(jobs, tmp_path, monkeypatch, capsys):
    """runner.main over 48 seeds of two kinds (one batched, one alone) with run_unit faked:
    seed 13 fails, seed 20 is rejected. Returns the summary without its time."""
    def fake_unit(kind_name, part, args):
        out = []
        for s, _ in part:
            r = runner.Result(kind_name, s)
            r.runs = 2
            if s == 13:
                r.fails.append(("heap", f"output differs (seed {s})"))
            if s == 20:
                r.rejects.append(("heap", "unsupported"))
            r.batch = len(part) if len(part) > 1 else 0
            out.append(r)
        return out
    monkeypatch.setattr(runner, "run_unit", fake_unit)
    monkeypatch.setattr(sys, "argv", ["fuzz_pipeline.py", "--seeds", "0:48", "--kinds", "merge,budget",
                                      "--quiet", "--out", str(tmp_path), "--jobs", str(jobs)])
    rc = runner.main()
    out = capsys.readouterr().out
    return rc, re.sub(r"\(\d+ s\)", "", out)


def test_jobs_run_every_unit_once_and_give_the_summary_of_one_job(tmp_path, monkeypatch, capsys):
    one = _summary_with_jobs(1, tmp_path, monkeypatch, capsys)
    two = _summary_with_jobs(2, tmp_path, monkeypatch, capsys)
    assert one[0] == two[0] == 1
    assert "48 seeds run (96 planned runs), 1 failed" in one[1]
    lines = lambda out: sorted(out[1].splitlines())
    assert lines(one) == lines(two)


def test_a_timeout_counts_only_when_it_recurs_with_longer_timeouts(tmp_path, monkeypatch):
    calls = []

    def fake_seed(seed, args, kind_name="tensor", prog=None):
        calls.append(runner.TIMEOUT_SCALE[0])
        r = runner.Result(kind_name, seed)
        if seed == 1 or len(calls) == 1:     # seed 1 always hangs; seed 0 only at first
            r.fails.append(("heap", f"planned run timed out ({runner.RUN_TIMEOUT} s)"))
        return r
    monkeypatch.setattr(runner, "run_seed", fake_seed)
    assert runner.run_one(0, None, "merge").outcome == "ok"
    assert calls == [1, runner.RETRY_TIMEOUT_SCALE] and runner.TIMEOUT_SCALE[0] == 1
    calls.clear()
    hung = runner.run_one(1, None, "merge")
    assert hung.outcome == "fail" and "timed out again" in hung.fails[-1][1]


def test_a_program_stopped_by_sigterm_from_outside_is_left_out(monkeypatch):
    # `timeout` ending a campaign signals the whole process group: the program running then
    # (its mlir-runner killed by SIGTERM) is no failure, and not counted (seed 968174).
    with pytest.raises(runner.Interrupted):
        runner.sh("kill -TERM $$")
    assert runner.sh("exit 3")[0] == 3

    def fake_seed(seed, args, kind_name="tensor", prog=None):
        runner.sh("kill -TERM $$")
    monkeypatch.setattr(runner, "run_seed", fake_seed)
    assert runner.run_unit("merge", [(0, None)], None) == []
