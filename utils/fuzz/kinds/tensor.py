"""Kind `tensor` (the original generator): a small random program in linalg on tensors
(elementwise linalg.generic chains, matmul, tensor.pad, tensor.concat, insert_slice into
tensor.empty, extract_slice, expand/collapse_shape, linalg.transpose, linalg.fill, reductions,
scf.for loops carrying tensors, scf.if selecting between tensors, calls between functions,
writes into function arguments, occasional i32/f64/f16 segments) with a `@main` that fills the
inputs deterministically and prints a checksum and the output. Arena `heap` for every seed
(arena within 1.02 x lower_bound_bytes); every --every-arena-th seed also `stack`, `global` and
`argument` (default options); with --variants, every --every-arena-th seed (offset 2) also
`heap` with the non-default plan options in VARIANTS. Every program also gets one run planned
from the baseline's own input form, the bufferized program after upstream's ownership-based
deallocation, lowered (DEALLOC of utils/mplan_pipelines.py: `memref.dealloc`s under `scf.if`,
`extract_strided_metadata`, clones), an arena kind and sequence=/inplace= drawn per group of
seeds."""
from ..kind import Cfg, TensorKind, seq_opts
from ..paths import mp
from ..tensor_builder import Program

# Non-default planning options tried with --variants (every --every-arena-th seed, offset 2).
VARIANTS = ["peak-guard=all", "views-and-copies=false", "strategy=linear-scan", "strategy=naive alignment=16"]


class _Kind(TensorKind):
    name = "tensor"
    order = 10
    summary = __doc__

    def generate(self, seed):
        return Program(seed).generate()

    def batch_key(self, prog, seed, args):
        # The runs depend on the seed (every --every-arena-th, --variants): programs with the
        # same runs batch.
        return (seed % args.every_arena == 0, bool(args.variants) and seed % args.every_arena == 2)

    def plan(self, ctx):
        seed, args = ctx.seed, ctx.args
        runs = [Cfg("heap", check_lb=True)]
        if seed % args.every_arena == 0:
            runs += [Cfg("stack"), Cfg("global"), Cfg("argument")]
        if args.variants and seed % args.every_arena == 2:
            runs += [Cfg("heap", v) for v in VARIANTS]
        # (A stream of its own: the runs above stay those of earlier versions.)
        rd = ctx.rng("dealloc")
        runs.append(Cfg(rd.choice(ctx.arenas), seq_opts(rd), pre=mp.DEALLOC))
        for c in runs:
            ctx.planned(c)


KIND = _Kind()
