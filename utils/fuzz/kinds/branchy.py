"""Kind `branchy` (issue 12): a branchy @model in linalg on tensors built with
bench/sequence/gen.py's Program (matmul "convolutions", ReLU/pool maps, sums, tensor.concat):
Inception-style blocks emitted breadth first, random DAGs (RandWire-like), DenseNet-like
concatenations, or one of that benchmark's own generators (inception, randwire, darts, nasnet,
densenet, unet) at a small scale and a drawn seed; with chains of elementwise ops on one
activation (in-place candidates, inputs dying there or read later). Planned with
`sequence=best inplace=true` under every arena kind (arena within 1.02 x the program-order
bound) and once with `sequence=greedy` and a drawn strategy, arena and inplace."""
import os
import random

from ..builder import Val, tty
from ..kind import Cfg, TensorKind
from ..paths import INIT_FN, ROOT
from ..tensor_builder import check_lines, init_lines


# ---- branchy graphs (issue 12): sequencing and in-place candidates -------------------------
_SEQGEN = []


def seqgen():
    """bench/sequence/gen.py (the sequencing benchmark's generators), imported once."""
    if not _SEQGEN:
        import importlib.util
        spec = importlib.util.spec_from_file_location(
            "mplan_sequence_gen", os.path.join(ROOT, "bench", "sequence", "gen.py"))
        mod = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(mod)
        _SEQGEN.append(mod)
    return _SEQGEN[0]


EW_BODIES = ["%m = arith.addf %a, %half : f32", "%m = arith.mulf %a, %half : f32",
             "%m = math.absf %a : f32", "%m = arith.subf %zero, %a : f32",
             "%m = arith.maximumf %a, %zero : f32", "%m = arith.minimumf %a, %half : f32"]


def branchy_program(seed):
    """A branchy linalg-on-tensors @model (bench/sequence/gen.py's Program: matmul "convs",
    ReLU/pool maps, sums, concats) with chains of elementwise ops on one activation, and a
    @main that fills the input and prints a checksum of the output."""
    sg = seqgen()
    r = random.Random(f"branchy:{seed}")

    class P(sg.Program):
        def ew_(self, x):
            """An elementwise op on x (an in-place candidate where x dies here)."""
            val, rows, ch = x
            e, o = self.fresh("e"), self.fresh("u")
            t = self.ty(rows, ch)
            self.emit(f"{e} = tensor.empty() : {t}")
            self.emit(f"{o} = linalg.generic {{indexing_maps = [#id, #id], iterator_types = "
                      f"[\"parallel\", \"parallel\"]}} ins({val} : {t}) outs({e} : {t}) {{")
            self.emit(f"^bb0(%a: f32, %o: f32):\n    {r.choice(EW_BODIES)}\n    linalg.yield %m : f32")
            self.emit(f"}} -> {t}")
            return (o, rows, ch)

        def chain(self, x, lo=1, hi=4):
            for _ in range(r.randint(lo, hi)):
                k = r.random()
                x = self.ew_(x) if k < 0.6 else self.map_(x[0], x[1], x[2], r.choice(["relu", "pool"]))
            return x

    def maybe_chain(p, x):
        return p.chain(x) if r.random() < 0.5 else x

    def inception(p, x):
        branches = []
        for _ in range(r.randint(2, 4)):
            layers = []
            for _ in range(r.randint(1, 3)):
                k = r.random()
                if k < 0.5:
                    layers.append(lambda v, c=r.randint(3, 16): p.conv(v, c, relu=r.random() < 0.7))
                elif k < 0.7:
                    layers.append(p.pool)
                else:
                    layers.append(lambda v: p.chain(v, 1, 3))
            branches.append(layers)
        return maybe_chain(p, p.concat(sg.breadth_first(p, branches, x)))

    def dag(p, x):
        c = x[2]
        out = []
        for v in range(r.randint(4, 12)):
            preds = r.sample(range(v), min(v, r.randint(1, 3))) if v else []
            ins = [out[u] for u in preds] or [x]
            k = r.random()
            if k < 0.4:
                y = p.conv(p.add(ins), c, relu=r.random() < 0.6)
            elif k < 0.7:
                y = p.chain(p.add(ins), 1, 3)
            elif k < 0.85:
                y = p.conv(p.concat(ins), c)
            else:
                y = p.add(ins + [p.pool(ins[0])])
            out.append(y)
        sinks = out[-r.randint(1, min(3, len(out))):]
        return maybe_chain(p, p.add(sinks) if r.random() < 0.6 else p.concat(sinks))

    def dense(p, x):
        feats = [x]
        g = r.randint(2, 8)
        for _ in range(r.randint(2, 5)):
            y = p.conv(p.concat(feats), r.randint(2, 4) * g)
            y = p.conv(y, g)
            feats.append(maybe_chain(p, y))
        return p.concat(feats)

    style = r.choice(["bench", "inception", "dag", "dense", "mixed", "mixed"])
    if style == "bench":
        name = r.choice(sorted(sg.KINDS))
        scale = r.choice([0.08, 0.1, 0.12, 0.15])
        if name == "unet":
            # Its three 4x row poolings need a side that is a multiple of 8 (0.15 gives 9).
            scale = min(scale, 0.125)
        p, inp, out = sg.KINDS[name](scale, r.randint(0, 99))
        body = p.text(inp, out, False)
    else:
        rows, c = r.choice([1, 2, 4, 6, 9, 12, 16, 25]), r.randint(2, 16)
        p = P(f"fuzz branchy {style}, seed {seed}")
        x = inp = ("%x", rows, c)
        segs = [style] if style != "mixed" else [r.choice(["inception", "dag", "dense"])
                                                 for _ in range(r.randint(2, 3))]
        for sgm in segs:
            if sgm == "dag" and x[2] != c:
                x = p.conv(x, c)
            x = {"inception": inception, "dag": dag, "dense": dense}[sgm](p, x)
            if x[2] > 96:
                x = p.conv(x, c)
        if r.random() < 0.3:
            x = p.chain(x)
        out = x
        body = p.text(inp, out, False)
    name = p.name
    shape_in, shape_out = (inp[1], inp[2]), (out[1], out[2])
    lines = [f"// mplan fuzz program, kind branchy, seed {seed} ({name}); generated by "
             f"utils/fuzz_pipeline.py --kinds branchy --gen {seed}"]
    lines += body.rstrip("\n").split("\n")[1:] + [""]
    lines += INIT_FN.rstrip("\n").split("\n") + [""]
    lines.append("func.func private @printMemrefF32(tensor<*xf32>)")
    lines.append("")
    init, args = init_lines([Val("%x", shape_in)])
    lines += ["func.func @main() {"] + init
    lines.append(f"  %y = call @model({args[0]}) : ({tty(shape_in)}) -> {tty(shape_out)}")
    lines += check_lines(0, "%y", shape_out, "0")
    lines += ["  return", "}"]
    return "\n".join(lines) + "\n"


class _Kind(TensorKind):
    name = "branchy"
    order = 110
    summary = __doc__

    def generate(self, seed):
        return branchy_program(seed)

    def plan(self, ctx):
        # Sequencing and in-place under every arena kind (arena within 1.02 x the bound of
        # program order), then greedy sequencing with a drawn strategy and arena.
        rc_, arenas, strategies = ctx.rng("cfg"), ctx.arenas, ctx.strategies
        runs = [Cfg(a, "sequence=best inplace=true", check_arena=True) for a in arenas]
        runs.append(Cfg(rc_.choice(arenas), f"strategy={rc_.choice(strategies)} sequence=greedy "
                                            f"inplace={rc_.choice(['true', 'false'])}"))
        for c in runs:
            ctx.planned(c)


KIND = _Kind()
