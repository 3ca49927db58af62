"""Capacity runs (issue 33): a program planned under a capacity below its uncapped arena, the
levers (rematerialization, offload) left to meet it, and the planned program run against the
reference like any other planned run.

Per program (kind `budget` always; every kind with --capacity, instead of its own runs):
  1. B: the program planned (plan only, default options) without a capacity: the largest
     arena_bytes of its report's functions (the default space); planned again with
     remat=false offload=default:1, the memref IR must be the same (without a capacity the
     levers change nothing);
  2. F: the op floor, from the note of the error the program gets at capacity=default:1
     ("the op floor is N bytes"; none when that plan passes or names no floor);
  3. RUNS planned runs with capacity=default:C, C drawn between max(ceil(0.4 B), F) and B (one
     in five between ceil(0.4 B) and B; one in 1 / BELOW_FLOOR between F / 2 and F - 1 when the
     run has the probe's options: it must be a located capacity error), levers drawn from LEVERS
     (remat on by default, offload=default:1, remat=false, both off), sometimes
     sequence=best inplace=true (SEQ), sometimes a drawn strategy; the arena kinds taken in turn
     from a random start, so the runs of a program use different ones.
Each run is runner.planned_memref's: --mplan-verify-plan, the lowering, the plain and observed
executions against the reference; a capacity error (a located error that names the capacity
and the default space) is an accepted outcome (counted as expected), any other error, a crash,
an arena above C in the report, a wrong output, or planning that takes more than SLOW_CPU
seconds of CPU and SLOW_FACTOR times the uncapped probe's a failure. The splits the planned IR records
(mplan.splits, `kind = "remat"` / `kind = "offload"`) are counted per run (Result.splits)."""
import json
import math
import os
import random
import re

from .kind import Cfg

# Run options that meet the capacity (weights): rematerialization is on unless remat=false.
LEVERS = [("", 3), ("offload=default:1", 3), ("remat=false offload=default:1", 2), ("remat=false", 1)]
SEQ = "sequence=best inplace=true"
RUNS = 3
BELOW_FLOOR = 0.1
LOW = 0.4
FLOOR_RE = re.compile(r"the op floor is (\d+) bytes")
SPLIT_RE = re.compile(r'kind = "(remat|offload)"')


# A capacity run's plan + convert may take at most this many CPU seconds, or SLOW_FACTOR times
# the uncapped probe's, whichever is more (the pass has a work budget; seed 95047 of kind
# budget spent 10 s of CPU rematerializing two buffers in turn, thousands of times).
SLOW_CPU = 5.0
SLOW_FACTOR = 20


def too_slow(res, cpu):
    """Why a capacity run's planning took too long (cpu: its CPU seconds), or None."""
    ref = res.cap_cpu or 0.0
    if cpu > max(SLOW_CPU, SLOW_FACTOR * ref):
        return (f"planning under the capacity took {cpu:.1f} s of CPU (without a capacity "
                f"{ref:.2f} s)")
    return None


def count_splits(res, planned_ir):
    """Adds the splits recorded in planned_ir (mplan.splits) to res.splits."""
    for k in SPLIT_RE.findall(planned_ir):
        res.splits[k] += 1


def plan_only(ctx, c):
    """Plans (no lowering, no run) with c's options and a report: (status, message, stderr,
    report or None, the memref IR). A crash or a broken error is a failure of the seed."""
    from . import runner
    rep = os.path.join(ctx.args.out, f"seed-{ctx.res.seed}-probe.json")
    cpu0 = runner.children_cpu()
    rc, out, err = runner.sh(runner.plan_cmd(c, ctx, f"report={rep}"))
    if c.capacity is None:
        ctx.res.cap_cpu = runner.children_cpu() - cpu0
    st, msg = runner.classify_compile(rc, err)
    report = None
    if os.path.exists(rep):
        try:
            with open(rep) as f:
                report = json.load(f)
        except (OSError, ValueError):
            report = None
        os.remove(rep)
    if st == "fail":
        ctx.res.fails.append((f"probe {c}", f"plan/convert: {msg}"))
    return st, msg, err, report, out


def bounds(ctx):
    """(B, F): the uncapped default-space arena (largest over the functions) and the op floor
    (None if unknown); (0, None) when the program has nothing to cap or does not plan."""
    st, msg, _, report, out = plan_only(ctx, Cfg("heap"))
    if st != "ok" or not report or not report.get("functions"):
        if st == "rejected":
            ctx.res.rejects.append(("probe heap", msg))
        return 0, None
    # Without a capacity the levers change nothing (the brief's contract).
    levers = Cfg("heap", "remat=false offload=default:1")
    if plan_only(ctx, levers)[4] != out:
        ctx.res.fails.append((f"probe {levers}", "without a capacity, remat=false "
                              "offload=default:1 changes the planned memref IR"))
    b = max(fn.get("arena_bytes", 0) for fn in report["functions"])
    if b <= 1:
        return b, None
    err = plan_only(ctx, Cfg("heap", capacity=1))[2]
    m = FLOOR_RE.search(err)
    return b, int(m.group(1)) if m else None


def capacity_runs(ctx, runs=RUNS):
    """The capacity runs of the program of ctx (see the module's docstring)."""
    res = ctx.res
    rc_ = random.Random(f"capacity:{ctx.kind}:{ctx.seed}")
    b, floor = bounds(ctx)
    res.cap_bound, res.cap_floor = b, floor
    if b <= 1:
        return
    arenas = list(ctx.arenas)
    start = rc_.randrange(len(arenas))
    lo = max(1, math.ceil(LOW * b))
    for i in range(runs):
        lever = rc_.choices([l for l, _ in LEVERS], [w for _, w in LEVERS])[0]
        opts = [lever]
        seq = rc_.random() < 0.3
        if seq:
            opts.append(SEQ)
        if rc_.random() < 0.15:
            opts.append(f"strategy={rc_.choice(ctx.strategies)}")
        expect = None
        if floor and floor > 1 and not seq and rc_.random() < BELOW_FLOOR:
            cap, expect = rc_.randint(max(1, floor // 2), floor - 1), "reject"
        elif floor and rc_.random() < 0.8:
            cap = rc_.randint(min(max(lo, floor), b), b)
        else:
            cap = rc_.randint(lo, b)
        c = Cfg(arenas[(start + i) % len(arenas)], " ".join(o for o in opts if o), capacity=cap,
                expect=expect)
        c.reject_why = f"below the op floor {floor}"
        ctx.planned(c)
