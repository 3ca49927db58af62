#!/usr/bin/env python3
"""Budget benchmark, exact side: the least extra work that meets a capacity with
the same levers, by an integer program solved with CBC, beside what mplan reaches.

For every bundled model (as bench/budget/run.py: B is the default pipeline's
arena without a capacity) or every program of --files (memref IR), and each
capacity C of --fractions x B, with the levers of LEVERS (rematerialization
alone, and with offload=default:1), the pipeline runs with
`capacity=default:C split-problem=FILE report=FILE`:
  * mplan: whether it met C (the pass succeeds; every arena is within C) and
    the cost of its splits (the report's splits: work units of the
    recomputations plus the offloads' weighted bytes);
  * exact: the splitting problem mplan wrote (per function and space above its
    capacity, before the first split: the padded bytes live at each point of
    the order that sequencing and in-place reuse chose, and every legal split
    of every buffer between two consecutive uses whose gap holds a point above
    C, with its cost, its freed points and the bytes live at the point it
    creates right before the later use), solved by CBC (coinor-cbc) as two
    integer programs: a binary per split, minimise the total cost such that at
    every point the bytes left live are at most C, at every taken split's own
    point too, and one lever per gap of a buffer. The solution is checked here,
    not taken on CBC's word.
      - relaxed: the splits of the program as it is, each priced alone. It does
        not require a recomputation's inputs to stay live where another split
        frees them (applied together, mplan would recompute them too, at a cost
        the program does not count) and it bounds the max-live bytes, not the
        planner's arena: "infeasible" proves that no rematerialization and
        offload of the listed splits meet C at that order, and its optimum is a
        lower bound on their extra work, which may be out of reach.
      - modelled: what mplan's own cover solves, each solution realizable: a
        recomputation and a split freeing one of its inputs at its later use
        exclude each other (the problem's "conflicts"), and the halves of such
        an input's gap cut by the read the recomputation adds are candidates
        taken only with it ("prerequisite"; applied first, the recomputation
        creates them). Its optimum is exact for those splits; mplan can go below
        it with splits the problem does not list (of buffers its splits create).
mplan solves the modelled problem itself (mplan::solveSplitCover, branch and
bound within a work budget), takes the cover's splits first and solves it again
once a recomputation a half needs is applied. Issue 33's bar: met whenever the
programs say it can be, mplan / exact <= 1.10.

Usage: exact.py [--mplan-opt PATH] [--mlir-opt PATH] [--cbc PATH]
                [--models a,b] [--fractions 0.9,0.8,0.7] [--time-limit 60]
Prints one markdown row per model, capacity and lever set.
"""

import argparse
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
from run import BUFFERIZE, MODELS, ROOT  # noqa: E402

LEVERS = {"remat": "", "remat+offload": "offload=default:1"}


def pipeline(mplan_opt, path, options):
    """Runs the pipeline; returns (returncode, report functions or [], problems, stderr)."""
    with tempfile.TemporaryDirectory() as tmp:
        rep, prob = os.path.join(tmp, "r.json"), os.path.join(tmp, "p.json")
        proc = subprocess.run(
            [mplan_opt, path,
             f"--mplan-plan-pipeline={options} report={rep} split-problem={prob}",
             "-o", os.devnull], capture_output=True, text=True)
        functions, problems = [], []
        if os.path.exists(rep):
            with open(rep) as f:
                functions = json.load(f)["functions"]
        if os.path.exists(prob):
            with open(prob) as f:
                problems = json.load(f)["problems"]
    return proc.returncode, functions, problems, proc.stderr


def constraints(problem, modelled):
    """The integer program of one problem: (costs, rows, exclusive groups,
    implications), rows as (coefficients {candidate: coefficient}, right-hand
    side) meaning sum >= rhs, implications (k, p) meaning x_k <= x_p; or None
    when a point no split frees is above the capacity.

    relaxed (modelled=False): the splits of the program as it is, each priced
    alone, no conflicts. modelled: every candidate mplan lists, with its
    conflicts and prerequisites (the halves of an input's gap cut by the read a
    recomputation adds, taken only with it)."""
    cap = problem["capacity_bytes"]
    everything = problem["candidates"]
    keep = [k for k, c in enumerate(everything) if modelled or "prerequisite" not in c]
    index = {k: i for i, k in enumerate(keep)}
    cands = [everything[k] for k in keep]
    live = problem["live_bytes"]
    prereq = {i: index[c["prerequisite"]] for i, c in enumerate(cands)
              if "prerequisite" in c and c["prerequisite"] in index}
    # Which candidates free each point: a sweep over the freed intervals.
    starts = {}
    for k, c in enumerate(cands):
        starts.setdefault(c["from"], []).append(k)
    rows, active = [], set()
    ends = {}
    for i, bytes_here in enumerate(live):
        for k in starts.get(i, []):
            active.add(k)
            ends.setdefault(cands[k]["to"], []).append(k)
        for k in ends.pop(i, []):
            active.discard(k)
        if bytes_here > cap:
            if not active:
                return None
            rows.append(({k: cands[k]["bytes"] for k in active}, bytes_here - cap))

    def lowers(d, to):
        # A half of a cut gap frees nothing where its recomputation reads it.
        return d["to"] > to and (d["from"] < to if "prerequisite" in d else d["from"] <= to)
    # A recomputation or a copy back runs right before the later use (point `to`):
    # the bytes live then must fit too, less what other splits free there (those
    # whose early part ended by then and whose later part starts after it).
    for k, c in enumerate(cands):
        over = c["late_bytes"] - cap
        if over <= 0:
            continue
        coef = {j: d["bytes"] for j, d in enumerate(cands) if j != k and lowers(d, c["to"])}
        coef[k] = coef.get(k, 0) - over
        rows.append((coef, 0))
    gaps = {}
    for k, c in enumerate(cands):
        gaps.setdefault(c.get("group", (c["buffer"], c["from"], c["to"])), []).append(k)
    pairs = [g for g in gaps.values() if len(g) > 1]
    if modelled:
        pairs += [[index[a], index[b]] for a, b in problem.get("conflicts", [])
                  if a in index and b in index]
    return [c["cost"] for c in cands], rows, pairs, sorted(prereq.items())


def solve(problem, cbc, time_limit, modelled):
    """('optimal', cost) | ('infeasible', None) | ('stopped', best cost or None)."""
    built = constraints(problem, modelled)
    if built is None:
        return "infeasible", None
    costs, rows, pairs, implies = built
    if not rows:
        return "optimal", 0
    with tempfile.TemporaryDirectory() as tmp:
        lp, sol = os.path.join(tmp, "m.lp"), os.path.join(tmp, "m.sol")
        with open(lp, "w") as f:
            # CBC's LP reader takes lines of limited length: ten terms a line.
            def terms(pairs):
                items = [f"{'+' if v >= 0 else '-'} {abs(v)} x{k}" for k, v in pairs]
                return "\n   ".join(" ".join(items[i:i + 10]) for i in range(0, len(items), 10))
            f.write("Minimize\n obj: " + terms(enumerate(costs)) + "\nSubject To\n")
            for r, (coef, rhs) in enumerate(rows):
                f.write(f" r{r}: {terms(coef.items())} >= {rhs}\n")
            for p, group in enumerate(pairs):
                f.write(f" g{p}: {terms((k, 1) for k in group)} <= 1\n")
            for p, (k, q) in enumerate(implies):
                f.write(f" q{p}: x{k} - x{q} <= 0\n")
            f.write("Binary\n " + "\n ".join(f"x{k}" for k in range(len(costs))) + "\nEnd\n")
        out = subprocess.run([cbc, lp, "sec", str(time_limit), "solve", "solu", sol],
                             capture_output=True, text=True).stdout
        chosen = set()
        if os.path.exists(sol):
            with open(sol) as f:
                for line in f:
                    m = re.match(r"\s*\d+\s+x(\d+)\s+([-0-9.e+]+)", line)
                    if m and float(m.group(2)) > 0.5:
                        chosen.add(int(m.group(1)))
    if "infeasible" in out.lower() and "optimal" not in out.lower():
        return "infeasible", None
    # The solution checked here, not taken on CBC's word.
    ok = all(sum(v for k, v in coef.items() if k in chosen) >= rhs for coef, rhs in rows) and \
        all(sum(1 for k in g if k in chosen) <= 1 for g in pairs) and \
        all(k not in chosen or q in chosen for k, q in implies)
    cost = sum(costs[k] for k in chosen) if ok else None
    if "Optimal solution found" in out and ok:
        return "optimal", cost
    return "stopped", cost


def exact(problems, cbc, time_limit, modelled):
    """(status, total cost or None) over the problems of one run."""
    status, total = "optimal", 0
    for p in problems:
        if not p.get("complete", True):
            return "incomplete problem", None
        st, c = solve(p, cbc, time_limit, modelled)
        if st == "infeasible":
            return st, None
        if st == "stopped":
            status = st
        total = None if c is None or total is None else total + c
    return status, total


def ratio(met, mplan_cost, cost):
    if met and cost:
        return f"{mplan_cost / cost:.2f}"
    return "1.00" if met and cost == 0 and mplan_cost == 0 else ""


def main():
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--mplan-opt", default=os.path.join(ROOT, "build", "bin", "mplan-opt"))
    ap.add_argument("--mlir-opt", default="/usr/lib/llvm-22/bin/mlir-opt")
    ap.add_argument("--cbc", default=shutil.which("cbc") or "/usr/bin/cbc")
    ap.add_argument("--models", default=",".join(MODELS))
    ap.add_argument("--files", default="",
                    help="comma list of memref-level programs (already bufferized) instead of "
                    "the models")
    ap.add_argument("--fractions", default="0.9,0.8,0.7")
    ap.add_argument("--time-limit", type=int, default=60)
    a = ap.parse_args()
    if not os.path.exists(a.cbc):
        sys.exit("exact.py: CBC not found (apt-get install coinor-cbc)")
    print("| model | C (% of B) | levers | mplan | mplan cost | relaxed | relaxed cost | "
          "mplan / relaxed | modelled | modelled cost | mplan / modelled |")
    print("|---|---:|---|---|---:|---|---:|---:|---|---:|---:|")
    with tempfile.TemporaryDirectory() as tmp:
        inputs = ([(os.path.basename(f), f) for f in a.files.split(",")] if a.files else
                  [(m, None) for m in a.models.split(",")])
        for model, buf in inputs:
            if buf is None:
                buf = os.path.join(tmp, model + ".mlir")
                subprocess.run([a.mlir_opt, os.path.join(ROOT, "models", model + ".mlir"),
                                BUFFERIZE, "-o", buf], check=True)
            rc, functions, _, err = pipeline(a.mplan_opt, buf, "")
            if rc:
                sys.exit(f"exact.py: {model} does not plan: {err.strip()[:300]}")
            bound = max(f["arena_bytes"] for f in functions)
            for frac in map(float, a.fractions.split(",")):
                cap = int(bound * frac)
                for name, opts in LEVERS.items():
                    rc, functions, problems, err = pipeline(
                        a.mplan_opt, buf, f"capacity=default:{cap} {opts}".strip())
                    met = rc == 0 and all(f["arena_bytes"] <= cap for f in functions)
                    mplan_cost = sum(s["cost"] for f in functions for s in f.get("splits", []))
                    if not problems and not met:
                        cells = ["no problem written", "", ""] * 2
                    else:
                        cells = []
                        for modelled in (False, True):
                            st, c = exact(problems, a.cbc, a.time_limit, modelled)
                            cells += [st, "" if c is None else f"{c:,}", ratio(met, mplan_cost, c)]
                    print(f"| {model} | {cap:,} ({round(100 * frac)} %) | {name} | "
                          f"{'met' if met else 'not met'} | {mplan_cost:,} | "
                          + " | ".join(cells) + " |", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
