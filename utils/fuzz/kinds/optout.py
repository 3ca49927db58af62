"""Kind `optout`: memref.alloc/alloca {mplan.unplanned} next to planned buffers: copies out of and
into (views of) them, writes through views, a "DMA" callee writing them while a copy is
live; the planned memref IR must keep every opted-out allocation and the report list each
as opted out (issue-20 runs)."""
from ..builder import MBuf, MemrefProgram, MF
from ..kind import Issue20Kind


class Program(MemrefProgram):
    def generate(self):
        """Buffers with a unit `mplan.unplanned` (memref.alloc or memref.alloca) next to planned
        ones: views of them, copies into and out of them with the opted-out buffer written while
        the copy is live (directly, through a view, or by a "DMA" callee), so any elided copy
        shows in the output."""
        r = self.r
        f = self.f0()
        n = r.randint(8, 32)
        x = self.add_in(n)
        self.n_unplanned = 0
        dma = [False]

        def unplanned(m):
            op = "memref.alloca" if r.random() < 0.3 else "memref.alloc"
            b = MBuf(f.fresh("u"), m)
            attrs = (["alignment = 64 : i64"] if r.random() < 0.3 else []) + ["mplan.unplanned"]
            f.emit(f"{b.name} = {op}() {{{', '.join(attrs)}}} : {b.ty}")
            b.op = op
            self.n_unplanned += 1
            return b

        def fill(b):
            if b.n <= n and r.random() < 0.5:
                f.ew(b, [f.sub(x, 0, b.n)])
            else:
                f.iota(b)

        def clobber(u):
            """Writes all or part of the opted-out buffer u."""
            k = r.random()
            if k < 0.35:
                dma[0] = True
                c = f.fresh("uc")
                f.emit(f"{c} = memref.cast {u.name} : {u.ty} to memref<?xf32>")
                f.emit(f"call @dma({c}, {f.cf(r.choice([1.0, -0.5]))}) : (memref<?xf32>, f32) -> ()")
            elif k < 0.6:
                kk = r.randint(1, u.n)
                s = f.sub(u, r.randint(0, u.n - kk), kk)
                f.ew(s, [s])
            elif k < 0.8:
                f.iota(u)
            else:
                f.emit(f"memref.store {f.cf(77.0)}, {u.name}[{f.idx(r.randrange(u.n))}] : {u.ty}")

        def free(u):
            if u.op == "memref.alloc":
                f.dealloc(u)

        keep = []
        if r.random() < 0.6:
            p = f.alloc(r.randint(4, 40))
            f.iota(p)
            keep.append(p)
        for _ in range(r.randint(1, 3)):
            pat = r.choice(["out", "in", "view", "through"])
            m = r.randint(4, 32)
            u = unplanned(m)
            fill(u)
            if pat == "out":
                # A copy out of (a view of) u: must stay a copy, u changes while it is live.
                k = r.randint(1, m)
                loc = f.alloc(k)
                f.copy(f.sub(u, r.randint(0, m - k), k), loc)
                clobber(u)
                f.copy(loc, self.add_out(f, k))
                f.dealloc(loc)
            elif pat == "in":
                # A copy into a view of u: its source must not be computed in u early.
                k = r.randint(1, min(m, n))
                off = r.randint(0, m - k)
                src = f.alloc(k)
                f.ew(src, [f.sub(x, 0, k)])
                f.copy(f.sub(u, off, k), self.add_out(f, k))    # u's old values read first
                f.copy(src, f.sub(u, off, k))
                if r.random() < 0.4:
                    f.copy(src, self.add_out(f, k))
                f.dealloc(src)
            elif pat == "view":
                # Views of u (subview, cast) read into planned buffers, writes through a view.
                k = r.randint(1, m)
                v = f.sub(u, r.randint(0, m - k), k)
                a = f.alloc(k)
                f.ew(a, [v])
                f.ew(v, [v, a])
                c = f.fresh("uc")
                f.emit(f"{c} = memref.cast {u.name} : {u.ty} to memref<?xf32>")
                b = MBuf(f.fresh("b"), m)
                f.emit(f"{b.name} = memref.alloc() : {b.ty}")
                f.emit(f"memref.copy {c}, {b.name} : memref<?xf32> to {b.ty}")
                clobber(u)
                f.copy(a, self.add_out(f, k))
                f.copy(b, self.add_out(f, m))
                f.dealloc(a)
                f.dealloc(b)
            else:
                # planned -> u -> planned, u rewritten in between.
                a = f.alloc(m)
                f.ew(a, [u])
                f.copy(a, u)
                f.dealloc(a)
                b = f.alloc(m)
                f.copy(u, b)
                clobber(u)
                f.ew(b, [b, u])
                f.copy(b, self.add_out(f, m))
                f.dealloc(b)
            f.copy(u, self.add_out(f, m))
            free(u)
        for p in keep:
            f.copy(p, self.add_out(f, p.n))
            f.dealloc(p)
        f.emit("return")
        self.funcs.append(f.text(self.f0_sig()))
        if dma[0]:
            g = MF(self, "dma")
            for l in ["%c0 = arith.constant 0 : index", "%c1 = arith.constant 1 : index",
                      "%h = arith.constant 0.5 : f32", "%n = memref.dim %m, %c0 : memref<?xf32>",
                      "scf.for %i = %c0 to %n step %c1 {",
                      "  %v = memref.load %m[%i] : memref<?xf32>",
                      "  %w = arith.mulf %v, %h : f32", "  %s = arith.addf %w, %k : f32",
                      "  memref.store %s, %m[%i] : memref<?xf32>", "}", "return"]:
                g.emit(l)
            self.funcs.append(g.text("%m: memref<?xf32>, %k: f32"))


class _Kind(Issue20Kind):
    name = "optout"
    order = 140
    summary = __doc__
    program_class = Program


KIND = _Kind()
