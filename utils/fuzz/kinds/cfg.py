"""Kind `cfg`: multi-block functions (cf.br/cf.cond_br, memrefs as block arguments, cf loops,
bufferization.clone), called with several selectors; every arena kind, and the observer on
the unplanned program too. In every block, ops that rewrites erase or that die: dead subviews
(also as a buffer's first use), buffers and slices copied onto themselves, a slice of one
buffer copied into a slice of another, dead loads, extract_strided_metadata without uses or
feeding a dead view (issue 32: the liveness is kept exact up to the erased ops' indices
through capture, view folding, copy elision and in-place reuse)."""
from ..builder import MBuf, MemrefProgram, mty
from ..kind import MemrefKind, Cfg


class Program(MemrefProgram):
    def generate(self):
        r = self.r
        self.observe = True
        f = self.f0()
        n = r.randint(4, 24)
        x = self.add_in(n)
        self.extra_args.append(("%sel", "i32"))
        nout = r.randint(2, 3)
        outs = [self.add_out(f, n) for _ in range(nout)]
        both_branches = False
        a = f.alloc(n)
        f.ew(a, [x])
        b = f.alloc(n)
        f.iota(b)
        live = [a, b]
        # Buffers whose last real use comes early, or that have none: the ops below that die
        # or go, in later blocks, are what their ranges end at until the rewrites erase them.
        scratch = []
        unwritten = []     # scratch buffers never written: no copy reads them
        for _ in range(r.choice([0, 1, 1, 2])):
            sc = f.alloc(n)
            if r.random() < 0.5:
                f.ew(sc, [x])
                f.copy(sc, r.choice(outs))
            else:
                unwritten.append(sc)
            scratch.append(sc)
        nb = [0]

        def blk():
            nb[0] += 1
            return f"^bb{nb[0]}"

        def debris(pool, erasable=False):
            """Ops that rewrites erase or that die, on buffers of `pool` (live here) and the
            scratch buffers; only ops the rewrites erase if `erasable`."""
            pool = pool + scratch
            if not pool:
                return
            for _ in range(r.choice([0, 1, 1, 2, 3])):
                b = r.choice(pool)
                k = r.randint(1, n)
                off = r.randint(0, n - k)
                what = r.choice([0, 1, 2, 5] if erasable else range(6))
                if what == 0:
                    f.sub(b, off, k)
                elif what == 1:
                    f.copy(b, b)
                elif what == 2:
                    v = f.sub(b, off, k)
                    f.copy(v, v)
                elif what == 3:
                    c = r.choice(pool)
                    if c is not b and b not in unwritten:
                        f.copy(f.sub(b, off, k), f.sub(c, r.randint(0, n - k), k))
                elif what == 4:
                    f.emit(f"{f.fresh('ld')} = memref.load {b.name}[{f.idx(off)}] : {b.ty}")
                else:
                    base, o, sz, st = (f.fresh(h) for h in ("mb", "mo", "ms", "mt"))
                    f.emit(f"{base}, {o}, {sz}, {st} = memref.extract_strided_metadata {b.name} "
                           f": {b.ty} -> memref<f32>, index, index, index")
                    if r.random() < 0.5:
                        f.emit(f"{f.fresh('rc')} = memref.reinterpret_cast {base} to offset: [0], "
                               f"sizes: [{n}], strides: [1] : memref<f32> to {b.ty}")
        for seg in range(r.randint(1, 3)):
            kind = r.choice(["diamond", "diamond", "loop", "straight", "shuffled"])
            if kind == "shuffled":
                # A chain of blocks written in another order than the one they run in (a
                # block first in the text may run last), some skipped on a selector bit; each
                # with work of its own and ops that die or go, some under an scf.if.
                bit, an, zero, cond = (f.fresh(h) for h in ("bit", "an", "z", "cond"))
                f.emit(f"{bit} = arith.constant {1 << seg} : i32")
                f.emit(f"{an} = arith.andi %e0, {bit} : i32")
                f.emit(f"{zero} = arith.constant 0 : i32")
                f.emit(f"{cond} = arith.cmpi ne, {an}, {zero} : i32")
                labels = [blk() for _ in range(r.randint(2, 4))]
                cont = blk()
                f.emit(f"cf.br {labels[0]}")
                bodies, saved = [], f.lines
                for i, label in enumerate(labels):
                    f.lines = [f"{label}:"]
                    if r.random() < 0.5:
                        t = f.alloc(n)
                        f.ew(t, [r.choice(live)])
                        debris(live + [t])
                        f.copy(t, r.choice(outs))
                        f.dealloc(t)
                    else:
                        debris(live)
                    if r.random() < 0.4:
                        f.emit(f"scf.if {cond} {{")
                        f.ind += "  "
                        debris([], erasable=True)
                        f.ind = f.ind[:-2]
                        f.emit("}")
                    nxt = labels[i + 1] if i + 1 < len(labels) else cont
                    if i + 1 < len(labels) and r.random() < 0.4:
                        skip = labels[i + 2] if i + 2 < len(labels) else cont
                        f.emit(f"cf.cond_br {cond}, {nxt}, {skip}")
                    else:
                        f.emit(f"cf.br {nxt}")
                    bodies.append(f.lines)
                f.lines = saved
                for i in r.sample(range(len(labels)), len(labels)):
                    f.lines.extend(bodies[i])
                f.lines.append(f"{cont}:")
                continue
            if kind == "straight":
                t = f.alloc(n)
                if r.random() < 0.3:
                    f.sub(t, 0, r.randint(1, n))   # a dead first use
                f.ew(t, [r.choice(live)])
                debris(live + [t])
                f.copy(t, r.choice(outs))
                f.dealloc(t)
                continue
            short = None
            if kind == "diamond" and r.random() < 0.6:
                # Allocated here, last used in the branches, freed in the merge block: its
                # bytes are free for what comes after.
                short = f.alloc(n)
                f.ew(short, [r.choice(live)])
            if kind == "diamond":
                bit = f.fresh("bit")
                f.emit(f"{bit} = arith.constant {1 << seg} : i32")
                an, cond = f.fresh("an"), f.fresh("cond")
                f.emit(f"{an} = arith.andi %e0, {bit} : i32")
                zero = f.fresh("z")
                f.emit(f"{zero} = arith.constant 0 : i32")
                f.emit(f"{cond} = arith.cmpi ne, {an}, {zero} : i32")
                bt, bf, bm = blk(), blk(), blk()
                pass_arg = r.random() < 0.4
                # Each branch fills a buffer allocated before the branch (so the two are
                # disjoint) and copies it to the same output last: the branches' last blocks
                # once the fill's loop is lowered differ only in the copy's source, and the
                # LLVM lowering merges them (a copy of a block argument).
                # The output is its own (nothing else writes it) and printed after every
                # call, and the selectors take both branches.
                same_tail = None
                if not pass_arg and r.random() < 0.3:
                    same_tail = ([f.alloc(n), f.alloc(n)], self.add_out(f, n))
                    both_branches = True
                f.emit(f"cf.cond_br {cond}, {bt}, {bf}")
                for i, bb in enumerate((bt, bf)):
                    f.lines.append(f"{bb}:")
                    if same_tail:
                        t = same_tail[0][i]
                        f.ew(t, [short or r.choice(live)])
                        debris(live + [t])
                        f.copy(t, same_tail[1])
                        f.emit(f"cf.br {bm}")
                        continue
                    t = f.alloc(n)
                    f.ew(t, [short or r.choice(live)] + ([r.choice(live)] if r.random() < 0.5 else []))
                    debris(live + [t] + ([short] if short else []))
                    if r.random() < 0.3:
                        cl = f.fresh("cl")
                        f.emit(f"{cl} = bufferization.clone {t.name} : {t.ty} to {t.ty}")
                        f.ew(t, [t])
                        f.copy(MBuf(cl, n), r.choice(outs))
                        f.emit(f"memref.dealloc {cl} : {t.ty}")
                    if r.random() < 0.5:
                        f.iota(r.choice(live))
                    if pass_arg:
                        f.emit(f"cf.br {bm}({t.name} : {t.ty})")
                    else:
                        f.copy(t, r.choice(outs))
                        f.dealloc(t)
                        f.emit(f"cf.br {bm}")
                if pass_arg:
                    m = f.fresh("ba")
                    f.lines.append(f"{bm}({m}: {mty(n)}):")
                    mb = MBuf(m, n)
                    u = f.alloc(n)
                    f.ew(u, [mb, r.choice(live)])
                    f.copy(u, r.choice(outs))
                    f.dealloc(u)
                    f.dealloc(mb)
                else:
                    f.lines.append(f"{bm}:")
                debris(live + ([short] if short else []))
                if same_tail:
                    for t in same_tail[0]:
                        f.dealloc(t)
                if short:
                    f.dealloc(short)
                    t2 = f.alloc(n)
                    f.ew(t2, [r.choice(live)])
                    f.copy(t2, r.choice(outs))
                    f.dealloc(t2)
            else:
                trips = r.randint(1, 3)
                c0, hd, body, ex = f.idx(0), blk(), blk(), blk()
                iv = f.fresh("iv")
                f.emit(f"cf.br {hd}({c0} : index)")
                f.lines.append(f"{hd}({iv}: index):")
                lt, ct = f.fresh("lt"), f.idx(trips)
                f.emit(f"{lt} = arith.cmpi slt, {iv}, {ct} : index")
                f.emit(f"cf.cond_br {lt}, {body}, {ex}")
                f.lines.append(f"{body}:")
                t = f.alloc(n)
                src = r.choice(live)
                f.ew(t, [src])
                debris(live + [t])
                # In a loop's body, which is live out of itself: the erased op is no end of
                # the range it made.
                debris([], erasable=True)
                f.copy(t, src if r.random() < 0.5 else r.choice(outs))
                f.dealloc(t)
                nx = f.fresh("nx")
                f.emit(f"{nx} = arith.addi {iv}, {f.idx(1)} : index")
                f.emit(f"cf.br {hd}({nx} : index)")
                f.lines.append(f"{ex}:")
                debris(live)
            if r.random() < 0.4:
                c = f.alloc(n)
                f.ew(c, [r.choice(live)])
                live.append(c)
        for v in live[::-1]:
            if v is not x:
                f.copy(v, r.choice(outs))
                f.dealloc(v)
        for sc in scratch:
            if r.random() < 0.5:    # else leaked, as the ranges are then the uses' alone
                f.dealloc(sc)
        f.emit("return")
        self.funcs.append(f.text(self.f0_sig()))
        sels = sorted(r.sample(range(8), r.randint(2, 3)))
        if both_branches:
            sels = sorted(set(sels) | {0, 7})
        self.call_with_selectors(sels, check=both_branches)


class _Kind(MemrefKind):
    name = "cfg"
    order = 80
    summary = __doc__
    program_class = Program

    def extra_runs(self, ctx, rc_, runs):
        # Every arena kind the default runs did not draw, observed.
        return [Cfg(a, "", True) for a in ctx.arenas if a not in [c.arena for c in runs]]


KIND = _Kind()
