"""Kind `realloc`: memref.realloc that grows and shrinks planned buffers (static, sometimes dynamic)."""
from ..builder import MBuf, MemrefProgram, svty
from ..kind import MemrefKind


class Program(MemrefProgram):
    def realloc(self, f, cur, b, line, alloc):
        """Emits `line` (a memref.realloc of cur into b); the baseline gets alloc, copy of the
        common prefix, dealloc of cur instead."""
        f.emit(line)
        m = min(cur.n, b.n)
        i = f.ind
        self.expand[i + line] = [
            i + alloc,
            f"{i}{b.name}_src = memref.subview {cur.name}[0] [{m}] [1] : {cur.ty} to {svty(m, 0)}",
            f"{i}{b.name}_dst = memref.subview {b.name}[0] [{m}] [1] : {b.ty} to {svty(m, 0)}",
            f"{i}memref.copy {b.name}_src, {b.name}_dst : {svty(m, 0)} to {svty(m, 0)}",
            f"{i}memref.dealloc {cur.name} : {cur.ty}"]

    def generate(self):
        r = self.r
        f = self.f0()
        n0 = r.randint(4, 32)
        x = self.add_in(max(n0, 8))
        a = f.alloc(n0)
        f.ew(a, [f.sub(x, 0, n0)])
        keep = []
        if r.random() < 0.5:
            p = f.alloc(r.randint(4, 32))
            f.iota(p)
            keep.append(p)
        cur = a
        for _ in range(r.randint(1, 2)):
            n1 = r.choice([r.randint(1, max(1, cur.n - 1)), r.randint(cur.n + 1, cur.n + 40)])
            b = MBuf(f.fresh("re"), n1)
            self.realloc(f, cur, b, f"{b.name} = memref.realloc {cur.name} : {cur.ty} to {b.ty}",
                         f"{b.name} = memref.alloc() : {b.ty}")
            if n1 > cur.n:
                f.iota(f.sub(b, cur.n, n1 - cur.n))
            if r.random() < 0.7:
                c = f.alloc(r.randint(1, 48))
                f.iota(c)
                m = min(c.n, n1)
                d = f.alloc(m)
                f.ew(d, [f.sub(b, 0, m), f.sub(c, 0, m)])
                f.dealloc(c)
                f.copy(d, self.add_out(f, m))
                f.dealloc(d)
            f.copy(b, self.add_out(f, n1))
            cur = b
        if r.random() < 0.3:
            # A dynamically sized realloc.
            nd = r.randint(1, 50)
            cn = f.idx(nd)
            b = MBuf(f.fresh("re"), nd, ty="memref<?xf32>")
            self.realloc(f, cur, b, f"{b.name} = memref.realloc {cur.name}({cn}) : {cur.ty} to memref<?xf32>",
                         f"{b.name} = memref.alloc({cn}) : memref<?xf32>")
            o = self.add_out(f, nd)
            m = min(nd, cur.n)
            sv = f.fresh("sv")
            f.emit(f"{sv} = memref.subview {b.name}[0] [{m}] [1] : memref<?xf32> to {svty(m, 0)}")
            f.copy(MBuf(sv, m, ty=svty(m, 0)), f.sub(o, 0, m))
            cur = b
        e = f.alloc(r.randint(1, 40))
        f.iota(e)
        f.copy(e, self.add_out(f, e.n))
        f.dealloc(e)
        f.dealloc(cur)
        for p in keep:
            f.copy(p, self.add_out(f, p.n))
            f.dealloc(p)
        f.emit("return")
        self.funcs.append(f.text(self.f0_sig()))


class _Kind(MemrefKind):
    name = "realloc"
    order = 40
    summary = __doc__
    program_class = Program


KIND = _Kind()
