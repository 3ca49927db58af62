"""Kind `cfg`: multi-block functions (cf.br/cf.cond_br, memrefs as block arguments, cf loops,
bufferization.clone), called with several selectors; every arena kind, and the observer on
the unplanned program too."""
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
        nb = [0]

        def blk():
            nb[0] += 1
            return f"^bb{nb[0]}"
        for seg in range(r.randint(1, 3)):
            kind = r.choice(["diamond", "diamond", "loop", "straight"])
            if kind == "straight":
                t = f.alloc(n)
                f.ew(t, [r.choice(live)])
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
                        f.copy(t, same_tail[1])
                        f.emit(f"cf.br {bm}")
                        continue
                    t = f.alloc(n)
                    f.ew(t, [short or r.choice(live)] + ([r.choice(live)] if r.random() < 0.5 else []))
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
                f.copy(t, src if r.random() < 0.5 else r.choice(outs))
                f.dealloc(t)
                nx = f.fresh("nx")
                f.emit(f"{nx} = arith.addi {iv}, {f.idx(1)} : index")
                f.emit(f"cf.br {hd}({nx} : index)")
                f.lines.append(f"{ex}:")
            if r.random() < 0.4:
                c = f.alloc(n)
                f.ew(c, [r.choice(live)])
                live.append(c)
        for v in live[::-1]:
            if v is not x:
                f.copy(v, r.choice(outs))
                f.dealloc(v)
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
