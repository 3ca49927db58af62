"""What a program kind is: a generator and the planned runs its programs get.

A kind is one module in utils/fuzz/kinds/ that defines KIND, an instance of a Kind subclass:

  name     the name --kinds takes
  order    its place in the default kind list (seed s gets kinds[s % len(kinds)], so a kind's
           place decides which seeds it gets; new kinds take a number above the others)
  level    "memref": the program is bufferized memref IR with its own deallocs, lowered upstream
           as it is for the reference; "tensor": linalg on tensors, One-Shot Bufferize first
  program(seed)  an object with text() (the program) and, at the memref level, the attributes
           of builder.MemrefProgram the runner reads (needs, arenas, observe, ...)
  plan(ctx)      the planned runs: ctx.planned(Cfg(...)) for each (see runner.Context)

  batched  whether its programs run in batches (runner.run_batch); a batched kind draws its
           runs per group of CFG_GROUP seeds (runner.Context.rng), so that the programs of a
           batch share them and a program alone gets the runs it gets in a batch
  batch_key(prog, seed, args)  programs of one kind with equal keys may share a batch (default
           (): any two; None: this one runs alone)

Every planned run is also executed observed (--mplan-instrument and the runtime library) unless
the fuzzer runs with --no-observer; Cfg.observe says a kind asks for it even then.
"""
import re


class Cfg:
    """One planned run: arena kind, plan options, observer on/off, passes before the lowering
    (mid) and, for tensor kinds, upstream passes on the bufferized program before planning (pre);
    capacity (bytes of the default space) with what must happen (expect: "reject" below the
    reference's lower bound, "plan" at or above its arena, None in between); check_arena: the
    arena must stay within 1.02 x the program-order bound; check_lb: within 1.02 x
    lower_bound_bytes."""

    def __init__(self, arena="heap", opts="", observe=False, mid="", capacity=None, expect=None,
                 check_arena=False, check_lb=False, pre=""):
        self.arena, self.opts, self.observe, self.mid = arena, opts.strip(), observe, mid
        self.capacity, self.expect, self.check_arena = capacity, expect, check_arena
        self.check_lb, self.pre = check_lb, pre

    @property
    def seq_inplace(self):
        """Sequencing and in-place reuse both on (both are on by default)."""
        return (re.search(r"\bsequence=program\b", self.opts) is None and
                re.search(r"\binplace=false\b", self.opts) is None)

    def __str__(self):
        s = self.arena + (f" [{self.opts}]" if self.opts else "")
        if self.capacity is not None:
            s += f" capacity=default:{self.capacity} ({self.expect or 'either'})"
        if self.pre:
            s += " +pre-passes"
        if self.mid:
            s += " +mid-passes"
        if self.observe:
            s += " +observer"
        return s


# Passes run between planning and convert-mplan-to-memref in some `options` runs: the plan must
# survive them or be rejected by the lowering with a located error (issue 19, defect 12).
MID_PASSES = "--canonicalize --cse --loop-invariant-code-motion"


def seq_opts(rs):
    """sequence= and inplace= drawn from rs (issue 12); a third of the time neither, so that the
    defaults (peak-guard=all and its rounds, issue 32) run on every kind."""
    if rs.random() < 1 / 3:
        return ""
    seq = rs.choices(["program", "greedy", "best", "exact"], [1, 3, 4, 1])[0]
    return f"sequence={seq} inplace={'true' if rs.random() < 0.75 else 'false'}"


def random_cfgs(rc, strategies, arenas, n, forced=None, observe=False, mid=False, seq_rc=None):
    """n runs with options drawn from rc; with seq_rc, sequence= and inplace= are drawn from it
    (a stream of its own, so the other draws stay those of earlier versions)."""
    out = []
    for _ in range(n):
        opts = [f"strategy={rc.choice(strategies)}"]
        if rc.random() < 0.85:
            opts.append(f"alignment={1 << rc.randint(0, 12)}")
        if rc.random() < 0.15:
            opts.append(rc.choice(["peak-guard=views", "peak-guard=none", "views-and-copies=false"]))
        if seq_rc is not None:
            opts.append(seq_opts(seq_rc))
        arena = forced[0] if forced and rc.random() < 0.6 else rc.choice(arenas)
        out.append(Cfg(arena, " ".join(opts), observe or rc.random() < 0.25,
                       MID_PASSES if mid and rc.random() < 0.2 else ""))
    return out


def other_arena(ctx, rc_):
    """A run with the default options and an arena kind other than heap, drawn from rc_."""
    return Cfg(rc_.choice([a for a in ctx.arenas if a != "heap"] or ctx.arenas))


class TextProgram:
    """A program given as text (the tensor-level kinds)."""

    def __init__(self, text):
        self._text = text

    def text(self):
        return self._text


class Kind:
    name = None
    order = 0
    level = "memref"
    summary = ""
    batched = True

    def batch_key(self, prog, seed, args):
        """Programs of this kind with equal keys may share a batch; None: never batched."""
        return () if self.batched else None

    def program(self, seed):
        raise NotImplementedError

    def plan(self, ctx):
        raise NotImplementedError


class TensorKind(Kind):
    """A kind in linalg on tensors: generate(seed) returns the program's text."""
    level = "tensor"

    def generate(self, seed):
        raise NotImplementedError

    def program(self, seed):
        return TextProgram(self.generate(seed))


class MemrefKind(Kind):
    """A memref-level kind: program_class is a builder.MemrefProgram subclass whose generate()
    fills the program. The default runs: the arenas the program asks for (heap if none), heap,
    two drawn (strategy, alignment, arena, sequence/inplace), plus extra_runs()."""
    level = "memref"
    program_class = None

    def program(self, seed):
        return self.program_class(self.name, seed)

    def extra_runs(self, ctx, rc_, runs):
        """Runs added after the default ones (rc_: the stream they were drawn from)."""
        return []

    def plan(self, ctx):
        prog = ctx.prog
        rc_ = ctx.rng("cfg")
        forced = prog.arenas or ["heap"]
        runs = [Cfg(a, "", prog.observe) for a in forced]
        if prog.arenas:
            runs.append(Cfg("heap", "", prog.observe))
        runs += random_cfgs(rc_, ctx.strategies, ctx.arenas, 2, prog.arenas, prog.observe,
                            seq_rc=ctx.rng("seq"))
        runs += self.extra_runs(ctx, rc_, runs)
        for c in runs:
            ctx.planned(c)


class Issue20Kind(MemrefKind):
    """The runs of issue 20 (see runner.Context.issue20_runs). Never batched: the capacity run
    takes its capacity from the program's own reference report."""

    batched = False

    def plan(self, ctx):
        ctx.issue20_runs()
