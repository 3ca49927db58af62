"""Kind `options`: the programs of kind `tensor`, planned three times with options drawn per
seed (every strategy `mplan-opt --help` lists, alignment= 1..4096, every arena kind, sometimes
peak-guard/views-and-copies, or canonicalize/cse/licm between planning and
convert-mplan-to-memref; sequence=program|greedy|best|exact and inplace=true|false from a
stream of their own, as in every drawn run of the memref kinds)."""
from ..kind import TensorKind, random_cfgs
from ..tensor_builder import Program


class _Kind(TensorKind):
    name = "options"
    order = 20
    summary = __doc__

    def generate(self, seed):
        return Program(seed).generate()

    def plan(self, ctx):
        for c in random_cfgs(ctx.rng("cfg"), ctx.strategies, ctx.arenas, 3, mid=True, seq_rc=ctx.rng("seq")):
            ctx.planned(c)


KIND = _Kind()
