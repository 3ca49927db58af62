"""Kind `stack`: a few MiB-sized buffers live together (arena=stack)."""
from ..builder import MemrefProgram
from ..kind import MemrefKind


class Program(MemrefProgram):
    def generate(self):
        r = self.r
        self.arenas = ["stack"]
        f = self.f0()
        x = self.add_in(16)
        bufs = []
        for _ in range(r.randint(2, 4)):
            nb = r.choice([1 << 12, 1 << 14, 1 << 15, 1 << 16, 1 << 18, 1 << 19, 3 << 18, 1 << 20])
            b = f.alloc(nb)
            f.iota(b)
            bufs.append(b)
        for b in bufs:
            f.ew(f.sub(b, 0, 16), [x, f.sub(b, 0, 16)])
        for b in bufs:
            o = self.add_out(f, 16)
            f.copy(f.sub(b, b.n - 16, 16), o)
            o2 = self.add_out(f, 16)
            f.copy(f.sub(b, 0, 16), o2)
            f.dealloc(b)
        f.emit("return")
        self.funcs.append(f.text(self.f0_sig()))


class _Kind(MemrefKind):
    name = "stack"
    order = 100
    summary = __doc__
    program_class = Program


KIND = _Kind()
