"""Kind `bounds` (issue 30): run-time sized buffers whose stated upper bounds are near 2^63, so
that a bound derived from them (a size in elements or in bytes) overflows int64: index arguments
with mplan.upper_bound (2^63 - 1 and just below, 2^62, 2^61, 2^60, some small ones, some none),
a function's mplan.arg_upper_bound, a memref argument's mplan.dim_upper_bounds; buffers of n,
n + c, 2 * n, affine.apply (2 * n + 1), n * m, max(n, m), affine.min(n, C near 2^62) elements,
?x4 and ?x? shapes (collapsed to 1-D), memref.dim of the argument + 1, c - k * dim of an empty
memref<?x0xf32> argument whose dimension @main makes 0 or near 2^64 / k (k * dim wraps: the
size is c + k * m, which a bound of c computed without the wrap would not hold), c - dim of the
collapse_shape of an empty k x (2^64 / k - m) x 0 argument (the product wraps to -k * m), and
one buffer of n - t elements allocated under `scf.if n >= t` (its size wraps on the calls that
skip it: sized where the function starts, it would make the arena negative); filled with values of
their own, prefixes copied from one to another, freed in turn so others reuse their bytes, and
a weighted sum of each stored to an output. @main calls @f0 two or three times with small
sizes and prints the output after each call. Runs: heap and one other arena kind with the
default options, check-bounds=true, arg-upper-bound=N with N near 2^63 (sometimes with
check-bounds), one drawn run. An overflowing bound must mean no bound (run-time sized, or
unplanned), never a smaller one."""
from ..builder import MemrefProgram, mty
from ..kind import Cfg, MemrefKind, other_arena, random_cfgs

BIG = [2**63 - 1, 2**63 - 2, 2**63 - 8, 2**62, 2**62 + 1, 2**61, 2**61 + 3, 2**60]
SMALL = [8, 64, 1000]
F32S = "memref<?xf32, strided<[1]>>"


class Program(MemrefProgram):
    def generate(self):
        r = self.r
        f = self.f0()
        nb = r.randint(3, 6)
        out = self.add_out(f, nb)
        self.arenas = []
        fattr = r.choice(BIG) if r.random() < 0.25 else None
        idx = []                                  # (name, bound or None)
        for k in range(r.randint(1, 3)):
            b = r.random()
            idx.append((f"%n{k}", r.choice(BIG) if b < 0.6 else r.choice(SMALL) if b < 0.75 else None))
        marg = (r.choice(BIG) if r.random() < 0.7 else None) if r.random() < 0.4 else False
        # An empty memref<?x0xf32> argument whose dimension @main makes small or near 2^63 / k,
        # so that c - k * dim wraps to a small size above c (no bound, never c).
        zarg = r.random() < 0.3
        f.emit("%c0 = arith.constant 0 : index")

        def arg():
            return r.choice(idx)[0]

        def size():
            """(index value, shape): the size of a new buffer."""
            k = r.choice(["n", "n+c", "2n", "apply", "nm", "max", "min", "2d", "x4"] +
                         (["dim"] if marg is not False else []) +
                         (["wrap"] * 2 + ["cwrap"] * 2 if zarg else []))
            v = f.fresh("sz")
            if k == "n":
                return arg(), "1d"
            if k == "n+c":
                f.emit(f"{v} = arith.addi {arg()}, {f.idx(r.randint(1, 5))} : index")
            elif k == "2n":
                f.emit(f"{v} = arith.muli {arg()}, {f.idx(r.choice([2, 3, 4]))} : index")
            elif k == "apply":
                f.emit(f"{v} = affine.apply affine_map<(d0) -> (d0 * 2 + 1)>({arg()})")
            elif k == "nm":
                f.emit(f"{v} = arith.muli {arg()}, {arg()} : index")
            elif k == "max":
                f.emit(f"{v} = arith.maxui {arg()}, {arg()} : index")
            elif k == "min":
                f.emit(f"{v} = affine.min affine_map<(d0) -> (d0, {r.choice(BIG[3:])})>({arg()})")
            elif k == "wrap":
                d, t = f.fresh("zd"), f.fresh("zt")
                f.emit(f"{d} = memref.dim %zz0, %c0 : memref<?x0xf32>")
                f.emit(f"{t} = arith.muli {d}, {f.idx(zk)} : index")
                f.emit(f"{v} = arith.subi {f.idx(zc)}, {t} : index")
            elif k == "cwrap":
                # The collapsed dimension of k x (2^64 / k - m) x 0 is -k * m: c - dim is c + k * m.
                cz, d = f.fresh("zc"), f.fresh("zd")
                f.emit(f"{cz} = memref.collapse_shape %zw0 [[0, 1], [2]] : memref<?x?x0xf32> into "
                       "memref<?x0xf32>")
                f.emit(f"{d} = memref.dim {cz}, %c0 : memref<?x0xf32>")
                f.emit(f"{v} = arith.subi {f.idx(zc)}, {d} : index")
            elif k == "dim":
                d = f.fresh("ad")
                f.emit(f"{d} = memref.dim %a0, %c0 : memref<?xf32>")
                f.emit(f"{v} = arith.addi {d}, {f.idx(1)} : index")
            else:
                return arg(), k
            return v, "1d"

        # c - k * dim: dim = 0 gives c; dim = 2^64 / k - m (near 2^63 for k = 2) gives c + k * m.
        zk, zc = r.choice([2, 4, 8]), r.randint(4, 24)
        live, slot = [], [0]

        def alloc():
            s, shape = size()
            m = f.fresh("b")
            if shape == "1d":
                f.emit(f"{m} = memref.alloc({s}) : memref<?xf32>")
                root, rty, flat = m, "memref<?xf32>", m
            else:
                rty = "memref<?x?xf32>" if shape == "2d" else "memref<?x4xf32>"
                ops = f"{s}, {arg()}" if shape == "2d" else s
                f.emit(f"{m} = memref.alloc({ops}) : {rty}")
                flat = f.fresh("fl")
                f.emit(f"{flat} = memref.collapse_shape {m} [[0, 1]] : {rty} into memref<?xf32>")
                root = m
            f.emit(f"linalg.fill ins({f.cf(r.choice([0.5, 1.25, -2.0, 3.0]) + len(live))} : f32) "
                   f"outs({flat} : memref<?xf32>)")
            b = type("B", (), {})()
            b.root, b.rty, b.name, b.ty = root, rty, flat, "memref<?xf32>"
            return b

        def free(b):
            f.checksum(b, out, slot[0])
            slot[0] += 1
            f.emit(f"memref.dealloc {b.root} : {b.rty}")

        def conditional():
            """A buffer of n - t elements allocated only when n >= t: on the calls that skip it,
            n - t wraps (a size sized where the function starts would be negative)."""
            a, t = arg(), r.choice([3, 5, 13])
            c, sz, m = f.fresh("cc"), f.fresh("sz"), f.fresh("b")
            f.emit(f"{c} = arith.cmpi uge, {a}, {f.idx(t)} : index")
            f.emit(f"scf.if {c} {{")
            f.emit(f"{sz} = arith.subi {a}, {f.idx(t)} : index")
            f.emit(f"{m} = memref.alloc({sz}) : memref<?xf32>")
            f.emit(f"linalg.fill ins({f.cf(r.choice([0.5, 2.0, -1.5]))} : f32) outs({m} : memref<?xf32>)")
            b = type("B", (), {})()
            b.root, b.rty, b.name, b.ty = m, "memref<?xf32>", m, "memref<?xf32>"
            f.checksum(b, out, slot[0])
            f.emit(f"memref.dealloc {m} : memref<?xf32>")
            f.emit("} else {")
            f.emit(f"memref.store {f.cf(-7.0)}, {out.name}[{f.idx(slot[0])}] : {out.ty}")
            f.emit("}")
            slot[0] += 1

        cond_at = r.randrange(nb) if r.random() < 0.3 else -1
        for i in range(nb):
            if live and (len(live) >= 3 or r.random() < 0.35):
                free(live.pop(r.randrange(len(live))))
            if i == cond_at:
                conditional()
                continue
            b = alloc()
            if live and r.random() < 0.5:
                # A prefix of an older buffer copied into the new one.
                o = r.choice(live)
                d1, d2, m = f.fresh("d"), f.fresh("d"), f.fresh("mn")
                f.emit(f"{d1} = memref.dim {o.name}, %c0 : memref<?xf32>")
                f.emit(f"{d2} = memref.dim {b.name}, %c0 : memref<?xf32>")
                f.emit(f"{m} = arith.minui {d1}, {d2} : index")
                s1, s2 = f.fresh("sv"), f.fresh("sv")
                f.emit(f"{s1} = memref.subview {o.name}[0] [{m}] [1] : memref<?xf32> to {F32S}")
                f.emit(f"{s2} = memref.subview {b.name}[0] [{m}] [1] : memref<?xf32> to {F32S}")
                f.emit(f"memref.copy {s1}, {s2} : {F32S} to {F32S}")
            live.append(b)
        for b in live:
            free(b)
        f.emit("return")
        sig = [f"{nm}: index" + (f" {{mplan.upper_bound = {ub} : i64}}" if ub else "") for nm, ub in idx]
        if marg is not False:
            sig.append("%a0: memref<?xf32>" + (f" {{mplan.dim_upper_bounds = array<i64: {marg}>}}"
                                                if marg else ""))
        if zarg:
            # A bound of its own (2^63 - 1, true of every dimension) wins over the function's
            # and arg-upper-bound=, which @main's near-2^63 dimension would break.
            sig.append("%zz0: memref<?x0xf32> {mplan.dim_upper_bounds = array<i64: "
                       "9223372036854775807, -1>}")
            sig.append("%zw0: memref<?x?x0xf32> {mplan.dim_upper_bounds = array<i64: "
                       "9223372036854775807, 9223372036854775807, -1>}")
        sig.append(f"%y0: {out.ty}")
        text = f.text(", ".join(sig))
        if fattr:
            text[0] = text[0][:-2] + f" attributes {{mplan.arg_upper_bound = {fattr} : i64}} {{"
        self.funcs.append(text)
        calls = []
        for _ in range(r.randint(2, 3)):
            # Sizes within each argument's stated bound (a size above it breaks the program's
            # promise: the plan may hold fewer bytes).
            calls.append(([r.choice([v for v in [0, 1, 2, 3, 5, 13, 40] if ub is None or v <= ub])
                           for _, ub in idx], r.choice([0, 1, 4, 9]),
                          r.choice([0, 2**64 // zk - r.randint(1, 3)])))

        def main_calls(names):
            lines = []
            for ci, (vals, alen, zdim) in enumerate(calls):
                args, tys = [], []
                for k, v in enumerate(vals):
                    lines.append(f"%v{ci}_{k} = arith.constant {v} : index")
                    args.append(f"%v{ci}_{k}")
                    tys.append("index")
                if marg is not False:
                    lines += [f"%al{ci} = arith.constant {alen} : index",
                              f"%a{ci} = memref.alloc(%al{ci}) : memref<?xf32>",
                              f"%as{ci} = arith.constant {ci + 2} : index",
                              f"call @fz_init(%a{ci}, %as{ci}) : (memref<?xf32>, index) -> ()"]
                    args.append(f"%a{ci}")
                    tys.append("memref<?xf32>")
                if zarg:
                    # An index constant is printed signed: 2^64 / k - m is at most 2^63 - 1.
                    lines += [f"%zl{ci} = arith.constant {zdim} : index",
                              f"%ze{ci} = memref.alloc(%zl{ci}) : memref<?x0xf32>"]
                    args.append(f"%ze{ci}")
                    tys.append("memref<?x0xf32>")
                    lines += [f"%zk{ci} = arith.constant {zk} : index",
                              f"%zw{ci} = memref.alloc(%zk{ci}, %zl{ci}) : memref<?x?x0xf32>"]
                    args.append(f"%zw{ci}")
                    tys.append("memref<?x?x0xf32>")
                args.append("%out0")
                tys.append(out.ty)
                lines.append(f"call @f0({', '.join(args)}) : ({', '.join(tys)}) -> ()")
                lines += [f"%pc{ci} = memref.cast %out0 : {mty(nb)} to memref<?xf32>",
                          f"%oi{ci} = arith.constant {100 + ci} : index",
                          f"call @fz_check(%pc{ci}, %oi{ci}) : (memref<?xf32>, index) -> ()"]
                if marg is not False:
                    lines.append(f"memref.dealloc %a{ci} : memref<?xf32>")
                if zarg:
                    lines.append(f"memref.dealloc %ze{ci} : memref<?x0xf32>")
                    lines.append(f"memref.dealloc %zw{ci} : memref<?x?x0xf32>")
            return lines
        self.calls = main_calls


class _Kind(MemrefKind):
    name = "bounds"
    order = 180
    summary = __doc__
    program_class = Program

    def plan(self, ctx):
        rc_ = ctx.rng("cfg")
        aub = f"arg-upper-bound={rc_.choice(BIG)}"
        runs = [Cfg("heap"), other_arena(ctx, rc_),
                Cfg("heap", "check-bounds=true"),
                Cfg(rc_.choice(ctx.arenas), aub + (" check-bounds=true" if rc_.random() < 0.5 else ""))]
        for c in random_cfgs(rc_, ctx.strategies, ctx.arenas, 1, seq_rc=ctx.rng("seq")):
            if rc_.random() < 0.5:
                c.opts += " " + aub
            runs.append(c)
        for c in runs:
            ctx.planned(c)


KIND = _Kind()
