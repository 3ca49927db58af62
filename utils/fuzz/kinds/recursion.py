"""Kind `recursion`: self- and mutually recursive functions with a depth argument (arena=global)."""
from ..builder import MBuf, MemrefProgram, MF, mty
from ..kind import MemrefKind


class Program(MemrefProgram):
    def generate(self):
        r = self.r
        self.arenas = ["global"]
        n = r.randint(4, 24)
        x = self.add_in(n)
        o = self.add_out(None, n)
        mutual = r.random() < 0.5
        names = ["rec_a", "rec_b"] if mutual else ["rec_a"]
        for i, nm in enumerate(names):
            callee = names[(i + 1) % len(names)]
            g = MF(self, nm)
            t = g.alloc(n)
            g.ew(t, [MBuf("%x", n)])
            u = g.alloc(n)
            extra = g.alloc(r.randint(1, n)) if r.random() < 0.5 else None
            if extra:
                g.iota(extra)
            g.emit("%c0 = arith.constant 0 : index")
            g.emit("%c1 = arith.constant 1 : index")
            g.emit("%more = arith.cmpi sgt, %d, %c0 : index")
            use_cf = r.random() < 0.4
            if use_cf:
                g.emit("cf.cond_br %more, ^rec, ^leaf")
                g.lines.append("^rec:")
            else:
                g.emit("scf.if %more {")
            g.emit("  %d1 = arith.subi %d, %c1 : index")
            g.emit(f"  func.call @{callee}({t.name}, {u.name}, %d1) : ({mty(n)}, {mty(n)}, index) -> ()")
            if use_cf:
                g.emit("cf.br ^join")
                g.lines.append("^leaf:")
            else:
                g.emit("} else {")
            g.emit(f"  memref.copy {t.name}, {u.name} : {mty(n)} to {mty(n)}")
            if use_cf:
                g.emit("cf.br ^join")
                g.lines.append("^join:")
            else:
                g.emit("}")
            g.ew(MBuf("%out", n), [t, u])
            if extra:
                g.ew(g.sub(MBuf("%out", n), 0, extra.n), [extra, g.sub(MBuf("%out", n), 0, extra.n)])
                g.dealloc(extra)
            g.dealloc(t)
            g.dealloc(u)
            g.emit("return")
            self.funcs.append(g.text(f"%x: {mty(n)}, %out: {mty(n)}, %d: index"))
        f = self.f0()
        depth = r.randint(1, 4)
        f.emit(f"%d = arith.constant {depth} : index")
        f.emit(f"call @rec_a({x.name}, {o.name}, %d) : ({mty(n)}, {mty(n)}, index) -> ()")
        f.emit("return")
        self.funcs.append(f.text(self.f0_sig()))


class _Kind(MemrefKind):
    name = "recursion"
    order = 90
    summary = __doc__
    program_class = Program


KIND = _Kind()
