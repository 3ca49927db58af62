"""Kind `spaces`: buffers in the default space, integer space 1 and #gpu.address_space<workgroup>,
memref.copy between spaces, sources rewritten after a copy."""
from ..builder import GPU_WG, MemrefProgram
from ..kind import MemrefKind


class Program(MemrefProgram):
    def generate(self):
        r = self.r
        f = self.f0()
        spaces = [None, "1"] + ([GPU_WG] if r.random() < 0.5 else [])
        # Half the programs free their buffers of non-default spaces, half leak them.
        self.space_deallocs = r.random() < 0.5
        if GPU_WG in spaces:
            self.needs.add("gpu")
        n = r.randint(4, 32)
        x = self.add_in(n)
        live = [x]
        owned = []
        for step in range(r.randint(3, 7)):
            s = r.choice(spaces)
            src = r.choice(live)
            k = r.randint(1, src.n)
            off = r.randint(0, src.n - k)
            b = f.alloc(k, space=s)
            what = r.random()
            if what < 0.5:
                f.copy(f.sub(src, off, k), b)
            elif what < 0.8:
                f.ew(b, [f.sub(src, off, k)])
            else:
                f.iota(b)
            if r.random() < 0.3 and src is not x:
                f.iota(src)   # the source changes after the copy
            live.append(b)
            owned.append(b)
            if len(owned) > 2 and r.random() < 0.3:
                d = owned.pop(r.randrange(len(owned) - 1))
                f.copy(d, self.add_out(f, d.n))
                live.remove(d)
                f.dealloc(d)
        for b in owned:
            if r.random() < 0.5:
                o = self.add_out(f, b.n)
                tmp = f.alloc(b.n, space=r.choice(spaces))
                f.copy(b, tmp)
                f.copy(tmp, o)
                f.dealloc(tmp)
            else:
                f.copy(b, self.add_out(f, b.n))
            f.dealloc(b)
        f.emit("return")
        self.funcs.append(f.text(self.f0_sig()))


class _Kind(MemrefKind):
    name = "spaces"
    order = 50
    summary = __doc__
    program_class = Program


KIND = _Kind()
