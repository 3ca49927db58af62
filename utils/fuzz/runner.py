"""The runner: baselines, planned runs, their checks, the summary and the command line.

Every seed gets one program kind (--kinds, default all: seed s gets kinds[s % len(kinds)]);
a program is deterministic in (kind, seed), so a failure reproduces from the two alone. The
kinds are the modules of utils/fuzz/kinds/ (--list-kinds prints each one's summary).

The reference: tensor-level kinds go through One-Shot Bufferize and the `baseline` pipeline of
utils/mplan_pipelines.py (or, when the baseline's deallocation leaves a `bufferization.clone`
it cannot lower, the bufferized program lowered without deallocation); memref-level kinds are
lowered upstream as they are (mp.LOWER_TO_LLVM; memref.realloc and frees of non-default spaces
replaced by equivalents upstream lowers; #gpu.address_space<workgroup> as space 3). When a
program has a failure, its baseline runs once more with MALLOC_PERTURB_: an output that
changes means the program reads memory nobody wrote (a generator bug, not a failure; only a
failure needs telling apart from one, so programs that pass skip that run).

A planned run (a kind.Cfg) is mplan-plan-pipeline (the run's options and a JSON report) +
--mplan-verify-plan + convert-mplan-to-memref, an `mlir-opt` check of that memref IR when it
has gpu spaces, then --mplan-to-llvm (alias scopes on, the default) and mlir-runner -O3
(--opt-level), twice: as lowered (the program users run) and observed (--mplan-instrument,
libmplan_runtime.so). The observer is on in every run of every kind (--no-observer keeps it to
the runs a kind asks for); the runtime's calls change what LLVM may reorder (they hide the wrong
alias scopes of issue 30's first defect), hence both executions. An observer error, or a
summary that does not say `errors 0`, is a failure, and the output is compared with the
reference's all the same. Programs that run scf.parallel on OpenMP threads (kind `parallel`)
run observed on one thread (the observer keeps one call stack for the process). Every plan
report is checked: lower_bound_bytes never above lower_bound_program_order_bytes, arenas
within a capacity, the arena bounds a run asks for, opted-out buffers reported. Before the
planned runs, every program's input to planning goes once through the analyses' own check
(-test-mplan-rewrites-keep-liveness with capture and view folding, ANALYSES_CHECK): the
liveness and points-to analyses kept through the rewrites must equal fresh ones; a message of
the check or a crash is a failure.

Each run is ok, rejected (mplan-opt exits non-zero with located errors only, no crash, no
verifier-like or lowering message: an unsupported input) or a failure; the summary counts
seeds per kind and outcome (and seeds with a run planned with sequencing and in-place on) and
lists failure signatures and the rejection messages. Seeds run in turn (one process at a
time), under `nice` (the caller's niceness if it is niced); with batches (below), a group's
programs run when the group is complete, so --time-budget may be overrun by one group. With
--jobs N, N programs or batches run at a time in worker processes (each regenerates its
programs from their seeds), recorded as they finish: the same checks and the same summary,
seeds printed out of order. A program with a run that timed out runs once more with
time-outs RETRY_TIMEOUT_SCALE times longer and that run counts (a hang recurs; a run a loaded
machine starved does not). SIGTERM stops a run gracefully: no new programs, the summary of
those that ran; a program whose compiler or run was killed by it (`timeout` signals the
whole process group) is left out, not counted a failure.

Batches (--batch K, default BATCH = 8; issue 30): programs of one kind, with equal
batch_key, from one group of CFG_GROUP = 152 consecutive seeds (8 of each kind when every kind
runs), run up to K at a time as one module (batch.combine: each program's symbols renamed
apart, its @main a private @fzb<i>_main that the batch's @main calls in turn after printing
`fz-batch-program <i>`; the harness helpers once). The baseline, the observed baseline and
every planned run are then one plan, one lowering (plain and observed) and one mlir-runner
invocation for the batch, with every check of a program alone: the reference output must hold
every program's separator and output (a lost program is a failure), the planned outputs are
compared with it whole, the observer's summary of the process must say `errors 0`, the report
checks are per function (@fzb<i>_f0, ...; opted-out allocations summed), and time-outs scale
with K (a batch that times out runs once more with time-outs RETRY_TIMEOUT_SCALE times
longer, as a program alone does). A batch with any failure, rejection, expected error,
generator bug or time-out left runs each of its programs alone, and those results count (a
batch that fails while no program does alone is a failure of its first seed naming the batch's seeds). A batched kind draws its runs
per group (Context.rng), so a program alone gets exactly the runs of its batch and a failure
reproduces from (kind, seed) alone. Per kind:
  batched with their own kind: options, escape, realloc, spaces (the batch's memref IR passes
    mlir-opt with the gpu space as a whole), elems, cfg, recursion, stack, branchy, merge,
    views, bounds, pointers;
  tensor: with the seeds that get the same runs (seed % --every-arena == 0 or not; --variants);
  parallel: with programs of the same number of iterations (OMP_NUM_THREADS is that number and
    the callee's barrier waits for them all);
  alone: branchres, argslice, optout (issue-20 runs: the capacity and its expected rejection
    come from the program's own reference report), dynamic (arg-upper-bound= is drawn from
    the program's own largest size; the report must list its returned buffers) and budget
    (capacity runs, below); they draw their runs per seed.
Under arena=argument and shared-global a program's @main is a callee of the batch's @main, so
its arena nests in that one's as a callee's does; nested capacities are checked only in
capacity runs, which are of the kinds that run alone.

Capacity runs (issue 33; capacity.py says what they are): the uncapped plan's arena B and the
op floor, then runs with capacity=default:C for C between ~40 % of B and B, rematerialization
on or off, offload=default:1 or not, every arena kind; a located capacity error is an accepted
outcome, counted among the expected errors. Kind budget's programs get them; --capacity gives
them to every program instead of its kind's runs, each program alone and with @main's
inputs and outputs opted out (mplan.unplanned: @main's call touches them all, which would
make every capacity below B unreachable). The summary counts the rematerializations and
offloads the planned IR records (mplan.splits), per 100 programs.

Usage:
  utils/fuzz_pipeline.py --seeds 0:300 [--kinds escape,realloc,...] [--build build]
                        [--out /tmp/mplan-fuzz] [--variants] [--time-budget SECONDS] [--quiet]
                        [--opt-level 3] [--no-observer] [--batch 8] [--capacity]
  utils/fuzz_pipeline.py --kinds escape --gen 17      # print the program of seed 17 only
  utils/fuzz_pipeline.py --list-kinds
--build DIR takes mplan-opt from DIR/bin and the observer's runtime from DIR/lib (--mplan-opt
names mplan-opt alone; the runtime is then looked for next to it, in ../lib).
Exit status 1 if any seed failed; failing programs stay in --out as seed-N.mlir.
"""
import argparse
import json
import os
import random
import re
import resource
import signal
import subprocess
import sys
import time

from . import batch
from . import capacity
from . import kinds as kindreg
from .builder import GPU_WG, MemrefProgram
from .kind import Cfg, TextProgram, random_cfgs, seq_opts
from .paths import ROOT, mp

# Children run under `nice` unless the fuzzer already runs niced (`nice -n 5 utils/fuzz...`
# keeps its children at 5, not 15).
NICE = [] if os.nice(0) > 0 else ["nice"]


# Time-outs are multiplied by this while a batch of K programs runs (K).
TIMEOUT_SCALE = [1]


class Interrupted(Exception):
    """A command was stopped by SIGTERM from outside: `timeout` (or a caller ending a campaign)
    signals the whole process group, the running compiler or program with it. No program the
    fuzzer makes sends SIGTERM, so the unit it belongs to has no result (run_unit)."""


def sh(cmd, inp=None, timeout=120, env=None):
    timeout *= TIMEOUT_SCALE[0]
    e = None
    if env:
        e = dict(os.environ)
        e.update(env)
    p = subprocess.run(NICE + ["bash", "-o", "pipefail", "-c", cmd], input=inp, capture_output=True,
                       text=True, timeout=timeout, env=e)
    if p.returncode == -signal.SIGTERM:
        raise Interrupted(cmd)
    return p.returncode, p.stdout, p.stderr


def norm(out):
    return re.sub(r"base@ = 0x[0-9a-fA-F]+", "base@ = <addr>", out)


RUN_TIMEOUT = 30
# --batch's default: programs a batch holds at most.
BATCH = 8
# The runs of a batched kind are drawn per group of this many seeds (Context.rng): a batch
# holds programs of one group. BATCH x 19 kinds: with the kinds of issue 30, a group gives each
# batched kind one batch (kept when kind budget, which runs alone, came: the runs of earlier
# seeds stay what they were).
CFG_GROUP = 152


def runtime_lib(args):
    """The observer runtime of the build mplan-opt comes from."""
    return os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(args.mplan_opt))), "lib",
                        "libmplan_runtime.so")


OMP_LIBS = ["/usr/lib/llvm-22/lib/libomp.so", "/usr/lib/x86_64-linux-gnu/libomp.so.5",
            "/usr/lib/llvm-14/lib/libomp.so"]
# The upstream lowering (mp.LOWER_TO_LLVM) with scf.parallel lowered to OpenMP.
LOWER_TO_LLVM_OMP = mp.LOWER_TO_LLVM.replace(
    "func.func(convert-linalg-to-loops),", "func.func(convert-linalg-to-loops),convert-scf-to-openmp,").replace(
    "convert-func-to-llvm,", "convert-func-to-llvm,convert-openmp-to-llvm,")
_HELP = {}


def plan_choices(mplan_opt):
    """(strategies, arenas) as `mplan-opt --help` lists them (fallback: the documented ones)."""
    if mplan_opt not in _HELP:
        strategies = ["naive", "linear-scan", "greedy-by-size", "greedy-by-breadth", "portfolio", "best"]
        arenas = ["heap", "stack", "global", "argument"]
        try:
            h = subprocess.run([mplan_opt, "--help"], capture_output=True, text=True, timeout=60).stdout
            sec = h[h.find("--mplan-plan-pipeline "):]
            m = re.search(r"--strategy=<string>\s+- Planning strategy \(([^)]*)\)", sec)
            if m:
                strategies = [s.strip() for s in m.group(1).split(",") if s.strip()]
            sec = h[h.find("--convert-mplan-to-memref "):]
            m = re.search(r"--arena=<string>\s+- Where the arena lives: ([^\n]*)", sec)
            if m:
                arenas = [a.strip(" .") for a in re.split(r",| or ", m.group(1).split(";")[0])
                          if a.strip(" .") and " " not in a.strip(" .")]
        except (OSError, subprocess.TimeoutExpired):
            pass
        _HELP[mplan_opt] = (strategies, arenas)
    return _HELP[mplan_opt]


CRASH_RE = re.compile(r"Stack dump|PLEASE submit|Assertion .* failed|LLVM ERROR|Segmentation fault|"
                      r"UNREACHABLE|terminate called")
# Errors that mean mplan produced or accepted something wrong, never a legitimate rejection.
BROKEN_RE = re.compile(r"'mplan\.\w+' op|different memory spaces|multiple of the element size|"
                       r"share bytes|overlap|failed to legalize|not found for custom op|"
                       r"unrealized_conversion_cast|does not dominate|failed to verify|"
                       r"expects different type|type mismatch|requires the same type|"
                       r"use of value .* expects")
LOC_ERR_RE = re.compile(r"(?:seed-\d+[^:\s]*\.mlir|<stdin>):\d+:\d+: error: (.*)")


def classify_compile(rc, err):
    """('ok'|'rejected'|'fail', message) for a planning step (mplan-opt up to the memref IR)."""
    errs = [l for l in err.splitlines() if ": error:" in l or l.startswith("error:")]
    if rc == 0 and not errs:
        return "ok", ""
    first = (errs[0] if errs else err.strip().splitlines()[-1] if err.strip() else f"rc {rc}")
    if rc < 0 or rc >= 128 or CRASH_RE.search(err):
        m = CRASH_RE.search(err)
        return "fail", f"crash (rc {rc}): {m.group(0) if m else ''} {first}"
    if rc == 0:
        return "fail", f"error with exit 0: {first}"
    located = [LOC_ERR_RE.search(l) for l in errs]
    if errs and all(located) and not any(BROKEN_RE.search(l) for l in errs):
        return "rejected", located[0].group(1)
    return "fail", first


# The analyses' own check (test/lib/TestBufferLiveness.cpp): capture and view folding announce
# every change to the liveness and the points-to analysis as mplan-plan does, then copy elision
# and in-place reuse update them; the result must be what a fresh analysis of the rewritten
# function gives (every op numbered alike, every range equal, no alias or interference lost).
# A range left wider than a fresh one's costs arena bytes, a narrower one a wrong program: both
# fail here, whether or not a planned run shows it. One run per program.
ANALYSES_CHECK = '--test-mplan-rewrites-keep-liveness="capture=true fold=true"'
ANALYSES_CHECK_RE = re.compile(r"fresh (?:analysis|one)|updated analysis|renumbered analysis|"
                               r"did not converge")


def check_analyses(head, res):
    """Runs ANALYSES_CHECK on the input of planning (`head`: the command that hands it to
    mplan-opt); a crash or a message of the check is a failure, any other error is left to
    the planned runs (they reject what capture rejects)."""
    rc, _, err = sh(f"{head} {ANALYSES_CHECK} -o /dev/null")
    if rc == 0:
        return
    status, msg = classify_compile(rc, err)
    checked = [l for l in err.splitlines() if ANALYSES_CHECK_RE.search(l)]
    if checked:
        res.fails.append(("analyses check", checked[0][:300]))
    elif status == "fail" and (rc < 0 or rc >= 128 or CRASH_RE.search(err)):
        res.fails.append(("analyses check", msg[:300]))


def signature(msg):
    s = re.sub(r"\S*seed-\d+[^:\s]*\.mlir:\d+:\d+:", "LOC:", msg)
    s = re.sub(r"<stdin>:\d+:\d+", "<stdin>", s)
    s = re.sub(r"0x[0-9a-fA-F]+", "ADDR", s)
    s = re.sub(r"\d+", "N", s)
    return s.strip()[:160]


class Result:
    def __init__(self, kind, seed=0):
        self.kind, self.seed = kind, seed
        self.seq_inplace = False            # a run planned with sequencing and in-place on
        self.unplanned = 0                  # mplan.unplanned allocations in the source (optout)
        self.fails, self.rejects = [], []   # (config, message)
        # Located errors the run was meant to produce (a capacity below the lower bound): the
        # specified behaviour, so the seed stays ok; listed in the summary.
        self.expected = []
        self.generator = None               # upstream rejected the program: a generator bug
        self.runs = 0
        self.batch = 0                      # the number of programs of a batch (0: one program)
        # Capacity runs (capacity.py): splits recorded in the planned IR, the uncapped bound B
        # and the op floor (None: none found).
        self.splits = {"remat": 0, "offload": 0}
        self.cap_bound, self.cap_floor = None, None
        self.cap_cpu = None                 # CPU seconds of the uncapped probe's planning

    @property
    def outcome(self):
        if self.generator:
            return "generator"
        if self.fails:
            return "fail"
        if self.rejects:
            return "rejected"
        return "ok"


def runner_cmd(args, libs=()):
    run = mp.commands("baseline", "/dev/null", args.llvm_bin)[1]
    if args.opt_level is not None:
        # mlir-runner's own LLVM pipeline at that level, for the baseline and the planned
        # programs alike (the planned ones carry mplan's alias scopes).
        exe, rest = run.split(" ", 1)
        run = f"{exe} -O{args.opt_level} {rest}"
    if libs:
        run += "," + ",".join(libs)
    return run


# The baseline once more with glibc's malloc filling new and freed blocks with a pattern: an
# output that changes reads memory nobody wrote (or freed): a generator bug.
PERTURB = {"MALLOC_PERTURB_": "165"}


def reads_uninitialised(run, ll, base, res, env=None):
    """True (and res.generator set) if the baseline's output changes with PERTURB; run only
    for a program that has failures (a failure of a program that reads memory nobody wrote is
    the generator's)."""
    if not res.fails:
        return False
    e = dict(env or {})
    e.update(PERTURB)
    rc, out, err = sh(run, ll, timeout=60, env=e)
    if rc or norm(out) != base:
        res.generator = ("baseline output changes with MALLOC_PERTURB_ (reads uninitialised or freed "
                         f"memory): rc {rc} {err.strip()[:300]}")
        return True
    return False



def lost_program(base, res):
    """A batch's reference output must hold every program's separator and output."""
    if res.batch and not batch.complete(base, res.batch):
        res.generator = f"the batch's reference output lacks a program's output: {base[-300:]}"
        return True
    return False


class Context:
    """What a kind's plan() works with: the seed, program, result, reference output and the
    commands; planned(c) plans, lowers, runs and checks one configuration (returns the plan
    report or None)."""

    def __init__(self, seed, kind, args, res, prog, head, base, run, needs=(), env=None, libs=(),
                 pre_lower="", post_lower="", upstream=None):
        self.seed, self.kind, self.args, self.res, self.prog = seed, kind, args, res, prog
        self.head, self.base, self.run, self.needs, self.env = head, base, run, set(needs), env
        # The upstream command whose output mplan-opt reads (tensor kinds: One-Shot Bufferize),
        # for runs with passes of their own before planning (Cfg.pre).
        self.upstream = upstream
        self.libs, self.pre_lower, self.post_lower = list(libs), pre_lower, post_lower
        self.strategies, self.arenas = plan_choices(args.mplan_opt)

    def rng(self, what):
        """The random stream `what` of this seed and kind ("cfg": run options; "seq":
        sequence= and inplace=); for a batched kind, of the seed's group of CFG_GROUP seeds
        (the same whether the program runs in a batch or alone)."""
        if kindreg.get(self.kind).batched:
            return random.Random(f"{what}:{self.kind}:group{self.seed // CFG_GROUP}")
        return random.Random(f"{what}:{self.kind}:{self.seed}")

    def planned(self, c):
        return planned_memref(c, self)

    def issue20_runs(self):
        """A reference run (heap, sequence/inplace drawn) with its report, one drawn run, and half
        the time a run with capacity=default:C, C below the reference's max lower bound (with
        remat=false: must be a located error; rematerialization may meet it), between bound and
        arena (either), at or above its max arena (must plan)."""
        rc_, seq_rc = self.rng("cfg"), self.rng("seq")
        ref = Cfg("heap", seq_opts(seq_rc))
        report = self.planned(ref)
        runs = random_cfgs(rc_, self.strategies, self.arenas, 1, seq_rc=seq_rc)
        if report and report.get("functions") and rc_.random() < 0.5:
            fns = report["functions"]
            lb = max(fn.get("lower_bound_bytes", 0) for fn in fns)
            top = max(fn.get("arena_bytes", 0) for fn in fns)
            mode = rc_.choice(["below", "below", "between", "at", "above"])
            if mode == "below" and lb > 1:
                cap, expect = rc_.choice([lb - 1, rc_.randint(1, lb - 1)]), "reject"
            elif mode == "between" and top > lb:
                cap, expect = rc_.randint(max(lb, 1), top - 1), None
            elif mode == "at" and top > 0:
                cap, expect = top, "plan"
            else:
                cap, expect = top + rc_.randint(1, 4096), "plan"
            # Sequencing and in-place reuse as the reference had them (left unset, the
            # reference's defaults: sequence=program here made a capacity at the reference's
            # arena unreachable once sequence=best was the default).
            opts = ref.opts
            # Below the reference's max-live bound only a split (rematerialization, offload)
            # can meet a capacity: a run that must be rejected turns them off.
            if expect == "reject":
                opts += " remat=false"
            runs.append(Cfg(rc_.choice(self.arenas), opts, capacity=cap, expect=expect))
        for c in runs:
            self.planned(c)


def run_tensor(seed, args, src, res, kind):
    """The tensor kinds: One-Shot Bufferize, then the baseline and the kind's planned runs."""
    opt = os.path.join(args.llvm_bin, "mlir-opt")
    # The generator must produce programs upstream accepts: otherwise it's a generator bug.
    rc, buf, err = sh(f"{opt} {src} {mp.BUFFERIZE}")
    if rc:
        res.generator = f"upstream: bufferization failed: {err.strip()[:2000]}"
        return
    comp = mp.commands("baseline", src, args.llvm_bin)[0]
    run = runner_cmd(args)
    rc, ll, err = sh(comp)
    if rc == 0:
        rc, base, err = sh(run, ll)
    if rc and "bufferization.clone" in err:
        # The baseline's deallocation pipeline leaves a bufferization.clone (of an argument a
        # function returns, e.g. a callee writing into its argument) that its lowering does not
        # handle: the reference is then the bufferized program without deallocation.
        rc, ll, err = sh(f"{opt} {src} {mp.BUFFERIZE} | {opt} {mp.LOWER_TO_LLVM}")
        if rc == 0:
            rc, base, err = sh(run, ll)
    if rc:
        res.generator = f"upstream: baseline failed (rc {rc}): {err.strip()[:2000]}"
        return
    base = norm(base)
    if lost_program(base, res):
        return
    check_analyses(f"{opt} {src} {mp.BUFFERIZE} | {args.mplan_opt}", res)
    plan_runs(kind, args)(Context(seed, kind.name, args, res, None,
                                  f"{opt} {src} {mp.BUFFERIZE} | {args.mplan_opt}", base, run,
                                  upstream=f"{opt} {src} {mp.BUFFERIZE}"))
    reads_uninitialised(run, ll, base, res)


def children_cpu():
    """CPU seconds (user + system) of the finished child processes so far."""
    ru = resource.getrusage(resource.RUSAGE_CHILDREN)
    return ru.ru_utime + ru.ru_stime


def plan_runs(kind, args):
    """The planned runs of a program: its kind's, or with --capacity the capacity runs."""
    return capacity.capacity_runs if getattr(args, "capacity", False) else kind.plan


def plan_cmd(c, ctx, extra=""):
    """The command that plans the program (c's options, extra) and converts it to memref IR."""
    mpo = ctx.args.mplan_opt
    popts = [c.opts, extra]
    if c.capacity is not None:
        popts.append(f"capacity=default:{c.capacity}")
    plan = f"--mplan-plan-pipeline=\"{' '.join(o for o in popts if o)}\""
    head = ctx.head
    if c.pre:
        if ctx.upstream is None:
            raise ValueError(f"kind {ctx.kind}: a run with passes before planning needs a tensor kind")
        head = f"{ctx.upstream} {c.pre} | {mpo}"
    if c.mid:
        return (f"{head} {plan} --mplan-verify-plan | {mpo} {c.mid} | "
                f"{mpo} --convert-mplan-to-memref=\"arena={c.arena}\"")
    return f"{head} {plan} --mplan-verify-plan --convert-mplan-to-memref=\"arena={c.arena}\""


def verdict(c, ctx, mid, env):
    """What a wrong output comes from, as far as two options tell: the program lowered with
    alias-scopes=false (the alias scopes of mplan-to-llvm), then planned with
    views-and-copies=false (copies made views, views of copies)."""
    mpo, args = ctx.args.mplan_opt, ctx.args

    def output(memref_ir, lowering):
        rc, ll, _ = sh(f"{mpo} {ctx.pre_lower} {lowering} {ctx.post_lower}", memref_ir)
        if rc == 0:
            rc, out, _ = sh(runner_cmd(args, ctx.libs), ll, timeout=RUN_TIMEOUT, env=env)
        return None if rc else norm(out)
    if output(mid, "--mplan-to-llvm=\"alias-scopes=false\"") == ctx.base:
        return " (not with alias-scopes=false: the alias scopes)"
    rc, mid2, _ = sh(plan_cmd(c, ctx, "views-and-copies=false"))
    if rc == 0 and output(mid2, "--mplan-to-llvm") == ctx.base:
        return " (not with views-and-copies=false: a copy or a view)"
    return " (also with alias-scopes=false or views-and-copies=false)"


def run_planned(c, ctx, what, ll, observe, env, mid):
    """Runs one lowered planned program; records failures. An observer error does not stop
    the comparison with the reference."""
    res, args = ctx.res, ctx.args
    libs = ctx.libs + ([runtime_lib(args)] if observe else [])
    try:
        rc, out, err = sh(runner_cmd(args, libs), ll, timeout=RUN_TIMEOUT, env=env)
    except subprocess.TimeoutExpired:
        res.fails.append((what, f"planned run timed out ({RUN_TIMEOUT} s)"))
        return
    obs = [l for l in err.splitlines() if l.startswith("mplan-rt: error")]
    if obs:
        res.fails.append((what, f"observer (rc {rc}): {obs[0]}"))
    if rc and not (obs and rc == 3):
        el = [l for l in err.splitlines() if "error" in l.lower()] or err.strip().splitlines() or [""]
        res.fails.append((what, f"planned run failed (rc {rc}): {el[0][:300]}"))
        return
    if norm(out) != ctx.base:
        # (A batch's programs run alone after it fails: the verdict is theirs.)
        res.fails.append((what, "output differs from baseline" +
                          ("" if observe or res.batch else verdict(c, ctx, mid, env))))
    if observe and not obs and not re.search(r"mplan-rt: planned buffers \d+, errors 0\b", err):
        res.fails.append((what, "the observer's summary does not say `errors 0`"))


def planned_memref(c, ctx):
    """Plans (head ... plan | convert), checks the plan report and the memref IR, lowers, runs,
    compares with the reference. Returns the plan report (None if there is none)."""
    args, res, needs = ctx.args, ctx.res, ctx.needs
    mpo = args.mplan_opt
    opt = os.path.join(args.llvm_bin, "mlir-opt")
    res.runs += 1
    observe = c.observe or args.observer
    what = str(c).replace(" +observer", "")
    rep = os.path.join(args.out, f"seed-{res.seed}-run{res.runs}.json")
    step1 = plan_cmd(c, ctx, f"report={rep}")
    try:
        cpu0 = children_cpu()
        rc, mid, err = sh(step1)
        cpu = children_cpu() - cpu0
    except subprocess.TimeoutExpired:
        res.fails.append((what, "plan/convert timed out"))
        return None
    if c.capacity is not None:
        slow = capacity.too_slow(res, cpu)
        if slow:
            res.fails.append((what, slow))
    st, msg = classify_compile(rc, err)
    report = None
    if os.path.exists(rep):
        try:
            with open(rep) as f:
                report = json.load(f)
        except (OSError, ValueError) as e:
            res.fails.append((what, f"plan report unreadable: {e}"))
        os.remove(rep)
    if c.capacity is not None:
        if st == "rejected":
            # A callee's arena nested in its caller's (arena=argument, shared-global) counts
            # against the caller's capacity: a capacity that fits every function's own arena
            # may still be too small for the nest, and that is a located error.
            nested = (c.arena.split()[0].split("=")[0] in ("argument", "shared-global")
                      and "to hold the arena of" in msg)
            if c.expect == "plan" and not nested:
                res.fails.append((what, f"capacity {c.capacity} at or above the reference arena "
                                        f"rejected: {msg}"))
            elif f"capacity of {c.capacity} bytes" not in msg or "'default'" not in msg:
                res.fails.append((what, f"capacity run rejected for another reason: {msg}"))
            else:
                res.expected.append((what, "capacity below what the plan needs: " +
                                     re.sub(r"function '\w+'", "function F", msg)))
            return report
        if st == "ok" and c.expect == "reject":
            why = getattr(c, "reject_why", "below the reference lower bound")
            res.fails.append((what, f"capacity {c.capacity} {why} planned"))
            return report
    if st == "rejected":
        res.rejects.append((what, msg))
        return report
    if st == "fail":
        res.fails.append((what, f"plan/convert: {msg}"))
        return report
    if c.seq_inplace:
        res.seq_inplace = True
    if c.capacity is not None:
        capacity.count_splits(res, mid)
    check_report(c, report, res, what)
    if res.unplanned and not c.mid:
        # (the unit attribute: a buffer mplan leaves unplanned gets `mplan.unplanned = "why"`)
        kept = len(re.findall(r"memref\.alloca?\(\)[^\n]*mplan\.unplanned(?!\s*=)", mid))
        if kept != res.unplanned:
            res.fails.append((what, f"{res.unplanned} mplan.unplanned allocations in the source, "
                                    f"{kept} in the planned memref IR"))
    if "gpu" in needs:
        # The planned memref IR must be valid for upstream as it is (no memory space lost).
        rc, _, err = sh(f"{opt} -o /dev/null", mid)
        if rc:
            res.fails.append((what, f"mlir-opt rejects the planned memref IR: {err.strip()[:500]}"))
            return report
        mid = mid.replace(GPU_WG, "3")
    if "memref.memory_space_cast" in mid and "memref.memory_space_cast" not in res.src_text:
        res.fails.append((what, "planned IR casts between memory spaces (a buffer changed space)"))
    # (observed?, environment) of each execution of the planned program: as lowered (what
    # users run) and, unless the observer is off, instrumented (its calls into the runtime
    # change what LLVM may reorder: they hide some wrong alias scopes). OpenMP programs run
    # observed on one thread (the observer keeps one call stack for the process).
    execs = [(False, ctx.env)]
    if observe:
        env1 = ctx.env
        if "omp" in needs:
            env1 = dict(ctx.env or {})
            env1["OMP_NUM_THREADS"] = "1"
        execs.append((True, env1))
    for obs_on, env in execs:
        inst = "--mplan-instrument " if obs_on else ""
        rc, ll, err = sh(f"{mpo} {ctx.pre_lower} {inst}--mplan-to-llvm {ctx.post_lower}", mid)
        if rc:
            st, msg = classify_compile(rc, err)
            res.fails.append((what, f"lowering{' (observed)' if obs_on else ''}: "
                                    f"{msg if msg else err.strip()[:500]}"))
            return report
        run_planned(c, ctx, f"{what}{' (observed)' if obs_on else ''}", ll, obs_on, env, mid)
    return report


def check_report(c, data, res, what):
    """The plan report: sequencing and in-place never raise the bound (lower_bound_bytes <=
    lower_bound_program_order_bytes), a capacity holds, the arena bounds a run asks for hold,
    opted-out buffers are reported."""
    if data is None:
        if c.seq_inplace or c.capacity is not None or c.check_arena or c.check_lb:
            res.fails.append((what, "no plan report"))
        return
    opted = 0
    for fn in data.get("functions", []):
        name, a = fn.get("name"), fn.get("arena_bytes", 0)
        lb, lbp = fn.get("lower_bound_bytes"), fn.get("lower_bound_program_order_bytes")
        if lb is not None and lbp is not None and lb > lbp:
            res.fails.append((what, f"@{name} lower_bound_bytes {lb} > lower_bound_program_order_bytes "
                                    f"{lbp}: sequencing/in-place raised the bound"))
        if c.capacity is not None and a > c.capacity:
            res.fails.append((what, f"@{name} arena {a} above capacity {c.capacity}"))
        if c.check_arena and lbp is not None and a > 1.02 * lbp:
            res.fails.append((what, f"@{name} arena {a} > 1.02 x program-order bound {lbp}"))
        if c.check_lb and lb is not None and a > 1.02 * lb:
            res.fails.append((what, f"@{name} arena {a} > 1.02 x lower bound {lb}"))
        opted += sum(1 for u in fn.get("unmanaged", []) if "mplan.unplanned" in u.get("reason", ""))
    if res.unplanned and opted != res.unplanned:
        res.fails.append((what, f"{res.unplanned} mplan.unplanned allocations, {opted} reported opted out"))


def run_memref(seed, args, src, res, prog, kind):
    """Memref-level kinds: the program's own deallocs in the baseline, planned with mplan."""
    opt = os.path.join(args.llvm_bin, "mlir-opt")
    mpo = args.mplan_opt
    needs = prog.needs
    src_text = res.src_text
    libs, env, lower, pre, pre_lower, post_lower = [], None, mp.LOWER_TO_LLVM, "", "", ""
    if "omp" in needs:
        omp = [p for p in OMP_LIBS if os.path.exists(p)]
        if omp:
            libs.append(omp[0])
            env = {"OMP_NUM_THREADS": str(prog.par_threads), "OMP_WAIT_POLICY": "passive"}
            lower = LOWER_TO_LLVM_OMP
            pre = "--scf-forall-to-parallel"
            pre_lower = "--scf-forall-to-parallel --convert-scf-to-openmp"
            post_lower = "--convert-openmp-to-llvm --reconcile-unrealized-casts"
        else:
            pre = "--scf-forall-to-parallel"
    # finalize-memref-to-llvm has no mapping for #gpu.address_space: the native runs use
    # integer space 3 in its place (CPU lowering treats every space as ordinary memory).
    base_src = src.replace(".mlir", "-base.mlir")
    with open(base_src, "w") as f:
        f.write(prog.baseline_text().replace(GPU_WG, "3"))
    run = runner_cmd(args, libs)
    rc, base_ll, err = sh(f"{opt} {base_src} --convert-bufferization-to-memref {pre} | "
                          f"{opt} {lower}")
    if rc == 0:
        rc, base, err = sh(run, base_ll, timeout=60, env=env)
    if rc:
        res.generator = f"upstream: baseline failed (rc {rc}): {err.strip()[:2000]}"
        return
    base = norm(base)
    if lost_program(base, res):
        return
    res.unplanned = getattr(prog, "n_unplanned", 0)
    if prog.observe:
        # The observer on the unplanned program (its own deallocs and clones): no error.
        res.runs += 1
        obs_src = src.replace(".mlir", "-int.mlir")
        with open(obs_src, "w") as f:
            f.write(src_text.replace(GPU_WG, "3"))
        rc, ll, err = sh(f"{mpo} {obs_src} {pre_lower} --mplan-instrument --mplan-to-llvm {post_lower}")
        if rc == 0:
            rc, out, err = sh(runner_cmd(args, libs + [runtime_lib(args)]), ll, timeout=60, env=env)
        if rc:
            obs = [l for l in err.splitlines() if l.startswith("mplan-rt: error")]
            res.fails.append(("baseline +observer", obs[0] if obs else
                              f"rc {rc}: {(err.strip().splitlines() or [''])[-1][:300]}"))
        elif norm(out) != base:
            res.fails.append(("baseline +observer", "output differs from baseline"))
    check_analyses(f"{mpo} {src}", res)
    plan_runs(kind, args)(Context(seed, kind.name, args, res, prog, f"{mpo} {src}", base, run, needs,
                                  env, libs, pre_lower, post_lower))
    reads_uninitialised(run, base_ll, base, res, env)


def run_seed(seed, args, kind_name="tensor", prog=None):
    """Returns a Result (failures, rejections, outcome)."""
    kind = kindreg.get(kind_name)
    res = Result(kind_name, seed)
    src = os.path.join(args.out, f"seed-{seed}.mlir")
    prog = prog or kind.program(seed)
    text = prog.text()
    res.src_text = text
    with open(src, "w") as f:
        f.write(text)
    if kind.level == "tensor":
        run_tensor(seed, args, src, res, kind)
    else:
        run_memref(seed, args, src, res, prog, kind)
    return res


class BatchProgram:
    """The programs of a batch as one memref-level program (batch.combine): what the runner
    reads of a program (needs, arenas, observe, ...) taken from its programs."""

    def __init__(self, progs):
        self.progs = progs
        self._text = batch.combine([p.text() for p in progs])   # generates them (needs, ...)
        self.needs = set().union(*(p.needs for p in progs))
        self.arenas, self.observe = progs[0].arenas, any(p.observe for p in progs)
        self.par_threads = getattr(progs[0], "par_threads", None)
        self.n_unplanned = sum(getattr(p, "n_unplanned", 0) for p in progs)

    def text(self):
        return self._text

    def baseline_text(self):
        return batch.combine([p.baseline_text() for p in self.progs])


def run_batch(seeds, progs, args, kind_name):
    """Programs of one kind (equal batch_key, one CFG_GROUP) in one module: one baseline and
    one plan, lowering and execution per planned run for all of them. Returns one Result per
    seed: ok for each if the batch is clean (no failure, rejection, expected error or generator
    bug); otherwise every program runs alone and its own Result counts (the batch's failure is
    kept on the first seed if no program fails alone)."""
    kind = kindreg.get(kind_name)
    src = os.path.join(args.out, f"seed-{seeds[0]}-batch.mlir")
    if kind.level == "tensor":
        prog = TextProgram(batch.combine([p.text() for p in progs]))
    else:
        prog = BatchProgram(progs)
    with open(src, "w") as f:
        f.write(prog.text())

    def attempt():
        res = Result(kind_name, seeds[0])
        res.batch = len(seeds)
        res.src_text = prog.text()
        try:
            if kind.level == "tensor":
                run_tensor(seeds[0], args, src, res, kind)
            else:
                run_memref(seeds[0], args, src, res, prog, kind)
        except subprocess.TimeoutExpired as e:
            res.fails.append(("", f"timeout: {str(e.cmd)[:300]}"))
        return res

    TIMEOUT_SCALE[0] = len(seeds)
    try:
        res = retried(attempt)
    finally:
        TIMEOUT_SCALE[0] = 1
    if res.outcome == "ok" and not res.expected:
        out = []
        for s in seeds:
            r = Result(kind_name, s)
            r.runs, r.seq_inplace, r.batch = res.runs, res.seq_inplace, len(seeds)
            out.append(r)
        if not args.keep:
            remove_files(args.out, [f"seed-{seeds[0]}-batch{x}.mlir" for x in ("", "-int", "-base")])
        return out
    out = [run_one(s, args, kind_name, p) for s, p in zip(seeds, progs)]
    if res.fails or res.generator:
        if all(r.outcome not in ("fail", "generator") for r in out):
            out[0].fails.append(("batch", f"the batch of seeds {','.join(map(str, seeds))} "
                                          f"(--batch {len(seeds)}) fails, no program alone: " +
                                 "; ".join(f"{w}: {m}" for w, m in res.fails + [("", res.generator or "")]
                                           if m)[:1500]))
    elif not args.keep:
        remove_files(args.out, [f"seed-{seeds[0]}-batch{x}.mlir" for x in ("", "-int", "-base")])
    return out


# A program whose run timed out runs once more with time-outs this many times longer: a
# program that hangs hangs again, one that a loaded machine starved (a campaign at `nice 19`
# beside a build) does not.
RETRY_TIMEOUT_SCALE = 4


def timed_out(res):
    return any("timed out" in m or m.startswith("timeout:") for _, m in res.fails)


def retried(attempt):
    """attempt()'s Result, run once more with time-outs RETRY_TIMEOUT_SCALE times longer if it
    timed out (a program alone or a batch): a time-out is a failure only when it recurs."""
    res = attempt()
    if timed_out(res):
        old = TIMEOUT_SCALE[0]
        TIMEOUT_SCALE[0] = old * RETRY_TIMEOUT_SCALE
        try:
            res = attempt()
        finally:
            TIMEOUT_SCALE[0] = old
        if timed_out(res):
            res.fails.append(("", f"timed out again with time-outs {RETRY_TIMEOUT_SCALE}x longer"))
    return res


def run_one(seed, args, kind_name, prog=None):
    """One program alone (run_seed, retried when it times out)."""
    def attempt():
        try:
            return run_seed(seed, args, kind_name, prog)
        except subprocess.TimeoutExpired as e:
            res = Result(kind_name, seed)
            res.fails.append(("", f"timeout: {str(e.cmd)[:300]}"))
            return res
    return retried(attempt)


def run_unit(kind_name, part, args):
    """One unit of work: a program alone or a batch (part: [(seed, program or None)]). With
    --jobs, a worker process regenerates the programs from their seeds (a program is
    deterministic in (kind, seed)), so nothing but seeds and Results crosses processes."""
    k = kindreg.get(kind_name)
    seeds = [s for s, _ in part]
    progs = [p if p is not None else k.program(s) for s, p in part]
    try:
        if len(part) == 1:
            return [run_one(seeds[0], args, kind_name, progs[0])]
        return run_batch(seeds, progs, args, kind_name)
    except Interrupted:
        return []       # stopped from outside: not run, not counted


def _run_unit_in_worker(kind_name, seeds, args):
    return run_unit(kind_name, [(s, None) for s in seeds], args)


class Pool:
    """Runs units (run_unit) and records their Results in the caller's process: in turn when
    jobs is 1, else in that many worker processes (fork: they inherit the parent's settings,
    e.g. --capacity's), recorded as they finish. Units never share a file (every file a run
    writes is named after its first seed), and a unit is the same alone or in a pool."""

    def __init__(self, jobs, record):
        self.record, self.ex, self.futs = record, None, []
        if jobs > 1:
            import concurrent.futures
            import multiprocessing
            self.cf = concurrent.futures
            self.ex = concurrent.futures.ProcessPoolExecutor(
                jobs, mp_context=multiprocessing.get_context("fork"))
            self.jobs = jobs

    def submit(self, kind_name, part, args):
        if self.ex is None:
            for r in run_unit(kind_name, part, args):
                self.record(r)
            return
        self.futs.append(self.ex.submit(_run_unit_in_worker, kind_name, [s for s, _ in part], args))
        # Keep a few units queued per worker, no more: --time-budget stops submitting.
        while len(self.futs) > 2 * self.jobs:
            self._drain(self.cf.FIRST_COMPLETED)

    def _drain(self, when):
        done, rest = self.cf.wait(self.futs, return_when=when)
        self.futs = list(rest)
        for f in done:
            for r in f.result():
                self.record(r)

    def close(self):
        if self.ex is not None:
            if self.futs:
                self._drain(self.cf.ALL_COMPLETED)
            self.ex.shutdown()


def remove_files(d, names):
    for p in names:
        if os.path.exists(os.path.join(d, p)):
            os.remove(os.path.join(d, p))


def kind_of(seed, kinds):
    return kinds[seed % len(kinds)]


def generate(seed, kind="tensor"):
    """The program of (kind, seed) as text."""
    return kindreg.get(kind).program(seed).text()


def parse_kinds(s):
    if s in ("all", ""):
        return list(kindreg.KINDS)
    ks = [k.strip() for k in s.split(",") if k.strip()]
    bad = [k for k in ks if k not in kindreg.KINDS]
    if bad:
        raise SystemExit(f"unknown kind(s) {', '.join(bad)}; kinds: {', '.join(kindreg.KINDS)}")
    return ks


def main():
    ap = argparse.ArgumentParser(prog="utils/fuzz_pipeline.py", description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--seeds", default="0:100", help="A:B (half-open) or a comma list")
    ap.add_argument("--kinds", default="all",
                    help=f"comma list of program kinds (seed s gets kinds[s %% len]); all = {','.join(kindreg.KINDS)}")
    ap.add_argument("--gen", type=int, help="print the program of this seed and exit")
    ap.add_argument("--build", help="the build to test: mplan-opt from BUILD/bin, the observer's "
                    "runtime from BUILD/lib (default: build/ of this checkout)")
    ap.add_argument("--mplan-opt", help="mplan-opt to test (default: BUILD/bin/mplan-opt); the "
                    "runtime is looked for in its ../lib")
    ap.add_argument("--llvm-bin", default=mp.LLVM_BIN)
    ap.add_argument("--out", default="/tmp/mplan-fuzz")
    ap.add_argument("--every-arena", type=int, default=4,
                    help="tensor kind: every N-th seed also runs arena=stack, global and argument")
    ap.add_argument("--variants", action="store_true",
                    help="tensor kind: every N-th seed (offset 2) also runs heap with the VARIANTS plan options")
    ap.add_argument("--time-budget", type=float, default=0, help="stop after this many seconds")
    ap.add_argument("--keep", action="store_true", help="keep passing programs too")
    ap.add_argument("--opt-level", type=int, choices=range(4), default=3,
                    help="run every program with mlir-runner -O<N> (default 3)")
    ap.add_argument("--no-observer", dest="observer", action="store_false",
                    help="observe only the runs a kind asks to (default: every planned run)")
    ap.add_argument("--batch", type=int, default=BATCH,
                    help=f"run up to K programs of one kind in one module (default {BATCH}; 1: each alone)")
    ap.add_argument("--capacity", action="store_true",
                    help="capacity mode (issue 33): every program gets the capacity runs of "
                    "utils/fuzz/capacity.py instead of its kind's runs, each program alone")
    ap.add_argument("--jobs", "-j", type=int, default=1,
                    help="run this many programs or batches at a time, each in a worker process "
                    "(default 1: in turn)")
    ap.add_argument("--list-kinds", action="store_true", help="print every kind's summary and exit")
    ap.add_argument("--quiet", action="store_true", help="print failing seeds and the summary only")
    a = ap.parse_args()
    if a.list_kinds:
        for k in kindreg.KINDS:
            print(f"{k}:\n  " + kindreg.get(k).summary.strip().replace("\n", "\n  "))
        return 0
    if a.mplan_opt is None:
        a.mplan_opt = os.path.join(a.build or os.path.join(ROOT, "build"), "bin", "mplan-opt")
    elif a.build:
        raise SystemExit("--build and --mplan-opt: give one of them")
    which = (f" --build {a.build}" if a.build else
             "" if a.mplan_opt == os.path.join(ROOT, "build", "bin", "mplan-opt") else f" --mplan-opt {a.mplan_opt}")
    kinds = parse_kinds(a.kinds)
    if a.jobs < 1:
        raise SystemExit("--jobs must be at least 1")
    if a.capacity:
        which += " --capacity"
        a.batch = 1     # a program's capacities come from its own report
        MemrefProgram.main_unplanned = True
    if a.gen is not None:
        sys.stdout.write(generate(a.gen, kind_of(a.gen, kinds)))
        return 0
    os.makedirs(a.out, exist_ok=True)
    if ":" in a.seeds:
        lo, hi = map(int, a.seeds.split(":"))
        seeds = range(lo, hi)
    else:
        seeds = [int(s) for s in a.seeds.split(",")]
    t0 = time.monotonic()
    nrun = nruns = 0
    table = {}            # kind -> outcome -> count
    sigs = {}             # failure signature -> [count, first seed, kind, config, message]
    rejects = {}          # rejection signature -> [count, first seed, kind, message]
    expected = {}         # expected error signature -> [count, first seed, kind, message]
    nbatched = {}         # kind -> programs run in a batch
    caps = {"programs": 0, "remat": 0, "offload": 0, "with_remat": 0, "with_offload": 0}

    def record(res):
        nonlocal nrun, nruns
        if res.cap_bound:
            caps["programs"] += 1
            for k in ("remat", "offload"):
                caps[k] += res.splits[k]
                caps[f"with_{k}"] += res.splits[k] > 0
        s, kind = res.seed, res.kind
        nrun += 1
        nruns += res.runs
        oc = res.outcome
        table.setdefault(kind, {}).setdefault(oc, 0)
        table[kind][oc] += 1
        table[kind]["seq+inplace"] = table[kind].get("seq+inplace", 0) + res.seq_inplace
        nbatched[kind] = nbatched.get(kind, 0) + (res.batch > 0)
        for what, msg in res.fails + ([("", res.generator)] if res.generator else []):
            sg = signature(msg.splitlines()[0] if msg else msg)
            e = sigs.setdefault(sg, [0, s, kind, what, msg])
            e[0] += 1
        for what, msg in res.rejects:
            sg = signature(msg)
            e = rejects.setdefault(sg, [0, s, kind, msg])
            e[0] += 1
        for what, msg in res.expected:
            e = expected.setdefault(signature(msg), [0, s, kind, msg])
            e[0] += 1
        if oc in ("fail", "generator"):
            print(f"seed {s} [{kind}]: {'FAIL' if oc == 'fail' else 'GENERATOR'}  "
                  f"(repro: utils/fuzz_pipeline.py --kinds {kind} --seeds {s} --keep{which})")
            for what, msg in res.fails + ([("upstream", res.generator)] if res.generator else []):
                print(f"  {what}: " + msg.replace("\n", "\n    "))
        elif not a.quiet:
            extra = "".join(f"\n  rejected: {w}: {m}" for w, m in res.rejects)
            print(f"seed {s} [{kind}]: {oc}{' (batch)' if res.batch else ''}{extra}")
        if oc in ("ok", "rejected") and not a.keep:
            remove_files(a.out, [f"seed-{s}.mlir", f"seed-{s}-int.mlir", f"seed-{s}-base.mlir"])
        sys.stdout.flush()

    pending = {}          # (kind, group, batch key) -> [(seed, program)]
    pool = Pool(a.jobs, record)
    # SIGTERM stops submitting programs: those running finish, the summary is printed.
    stopped = []
    signal.signal(signal.SIGTERM, lambda *_: stopped.append(True))

    def out_of_time():
        return stopped or (a.time_budget and time.monotonic() - t0 > a.time_budget)

    def flush_group():
        """Runs the programs of the group gathered so far: those of one key in batches of at
        most --batch programs, as even as can be (9 programs with --batch 8: 5 and 4)."""
        for key in list(pending):
            items = pending.pop(key)
            nb = -(-len(items) // a.batch)
            for i in range(nb):
                part = items[i * len(items) // nb:(i + 1) * len(items) // nb]
                if out_of_time():
                    return
                pool.submit(key[0], part, a)

    group = None
    for s in seeds:
        if out_of_time():
            break
        kind = kind_of(s, kinds)
        k = kindreg.get(kind)
        if a.batch <= 1 or not k.batched:
            pool.submit(kind, [(s, None)], a)
            continue
        if group is not None and s // CFG_GROUP != group:
            flush_group()
        group = s // CFG_GROUP
        prog = k.program(s)
        bk = k.batch_key(prog, s, a)
        if bk is None:
            pool.submit(kind, [(s, prog)], a)
            continue
        pending.setdefault((kind, group, bk), []).append((s, prog))
    flush_group()
    pool.close()
    nfail = sum(t.get("fail", 0) + t.get("generator", 0) for t in table.values())
    if stopped:
        print("stopped by SIGTERM: the programs that were running finished")
    print(f"{nrun} seeds run ({nruns} planned runs), {nfail} failed ({time.monotonic() - t0:.0f} s)")
    outcomes = ["ok", "rejected", "fail", "generator", "seq+inplace"]
    print(f"{'kind':<10} " + " ".join(f"{o:>11}" for o in outcomes + ["batched"]))
    for k in dict.fromkeys(kinds):
        if k in table:
            print(f"{k:<10} " + " ".join(f"{table[k].get(o, 0):>11}" for o in outcomes) +
                  f" {nbatched.get(k, 0):>11}")
    print("(seq+inplace: seeds with a run planned with sequence=greedy|best|exact and inplace=true;\n"
          " batched: seeds whose program passed in a batch, not run alone)")
    if caps["programs"]:
        n = caps["programs"]
        print(f"capacity runs: {n} programs with a capacity to meet; splits in the planned IR: "
              f"remat {caps['remat']}, offload {caps['offload']} ({100 * caps['remat'] / n:.0f} and "
              f"{100 * caps['offload'] / n:.0f} per 100 programs); programs with a remat "
              f"{caps['with_remat']}, with an offload {caps['with_offload']}")
    if sigs:
        print("failure signatures (count, first seed, kind, run):")
        for sg, (n, s, k, what, msg) in sorted(sigs.items(), key=lambda x: -x[1][0]):
            print(f"  {n:>4}  seed {s} [{k}] {what}: {sg}")
    if rejects:
        print("rejections (count, first seed, kind, message):")
        for sg, (n, s, k, msg) in sorted(rejects.items(), key=lambda x: -x[1][0]):
            print(f"  {n:>4}  seed {s} [{k}]: {msg[:300]}")
    if expected:
        print("expected errors, counted as ok (count, first seed, kind, message):")
        for sg, (n, s, k, msg) in sorted(expected.items(), key=lambda x: -x[1][0]):
            print(f"  {n:>4}  seed {s} [{k}]: {msg[:300]}")
    return 1 if nfail else 0

