"""Kind `views` (issue 30): planned i8 buffers seen through f32 views at byte shifts
(memref.view X[s]) and through what is made of those views: memref.reinterpret_cast (to larger
sizes, at element offsets, of a subview back to its base, of a memref.cast to a dynamic shape,
to 2-D and collapsed back), memref.cast, expand_shape / collapse_shape and subviews, up to two
steps deep. Two of them that share bytes are written and read in turn (a store through one, a
store through the other, a load through the first; at constant indices or at indices @main
passes in), elementwise ops write one from the other, a copy out of one is read after a store
through the other, a copy into one is read through the other; every buffer is copied out at
the end. Planned at heap, one other arena kind and two drawn runs; what LLVM may reorder at
-O3 with mplan's alias scopes shows in the output."""
from ..builder import MBuf, MemrefProgram, mty, svty
from ..kind import MemrefKind, other_arena


class Alias:
    """A 1-D f32 view of root X: its value, type, first byte in X, number of elements and the
    byte in X its aligned pointer points to (where a reinterpret_cast of it starts from)."""

    def __init__(self, name, ty, start, n, base=None, view=None):
        self.name, self.ty, self.start, self.n = name, ty, start, n
        self.base = start if base is None else base
        self.view = view or name      # the memref.view it is made from

    @property
    def offset(self):
        """The static offset of its type (elements from the aligned pointer)."""
        return (self.start - self.base) // 4

    def elems(self):
        """The f32 elements of X (byte / 4) it covers."""
        return range(self.start // 4, self.start // 4 + self.n)


def stty(n, off):
    return f"memref<{n}xf32, strided<[1], offset: {off}>>" if off else f"memref<{n}xf32>"


class Program(MemrefProgram):
    def index(self, f, v):
        """An index value v: a constant, or (half the time) an argument @main passes, which
        LLVM cannot see through when it compares addresses."""
        if self.r.random() < 0.5:
            return f.idx(v)
        k = len(self.extra_args)
        self.extra_args.append((f"%iv{k}", "index"))
        self.main_setup.append(f"%iv{k} = arith.constant {v} : index")
        return f"%e{k}"

    def derive(self, f, a, nbytes):
        """A view made from alias a (1-D f32 at byte a.start in X of nbytes): returns an Alias."""
        r = self.r
        room = (nbytes - a.base) // 4           # elements from a's base to the end of X
        plain = "strided" not in a.ty and "?" not in a.ty
        k = r.choice(["rc", "rc", "rc-sub", "rc-cast", "rc-2d", "cast", "expand", "sub"])
        def recast(src, ty):
            """src reinterpret_cast at a drawn offset and size from a's base."""
            o = r.randint(0, room - 1)
            m = r.randint(1, room - o)
            v = f.fresh("rc")
            f.emit(f"{v} = memref.reinterpret_cast {src} to offset: [{o}], sizes: [{m}], strides: [1] : "
                   f"{ty} to {stty(m, o)}")
            return Alias(v, stty(m, o), a.base + 4 * o, m, a.base, view=a.view)
        if k == "rc":
            return recast(a.name, a.ty)
        if k == "rc-sub" and a.n >= 2 and plain:
            # a subview at an offset, cast back to its base pointer: before the subview's start
            s = r.randint(1, a.n - 1)
            sv = f.fresh("sv")
            f.emit(f"{sv} = memref.subview {a.name}[{s}] [{a.n - s}] [1] : {a.ty} to {svty(a.n - s, s)}")
            m = r.randint(1, room)
            v = f.fresh("rc")
            f.emit(f"{v} = memref.reinterpret_cast {sv} to offset: [0], sizes: [{m}], strides: [1] : "
                   f"{svty(a.n - s, s)} to {stty(m, 0)}")
            return Alias(v, stty(m, 0), a.base, m, view=a.view)
        if k == "rc-cast" and plain:
            c = f.fresh("dc")
            f.emit(f"{c} = memref.cast {a.name} : {a.ty} to memref<?xf32>")
            return recast(c, "memref<?xf32>")
        if k == "rc-2d" and room >= 2 and plain:
            rows = r.randint(1, min(4, room))
            cols = r.randint(1, room // rows)
            t, v = f.fresh("r2"), f.fresh("cl")
            f.emit(f"{t} = memref.reinterpret_cast {a.name} to offset: [0], sizes: [{rows}, {cols}], "
                   f"strides: [{cols}, 1] : {a.ty} to memref<{rows}x{cols}xf32>")
            f.emit(f"{v} = memref.collapse_shape {t} [[0, 1]] : memref<{rows}x{cols}xf32> into "
                   f"memref<{rows * cols}xf32>")
            return Alias(v, mty(rows * cols), a.base, rows * cols, view=a.view)
        if k == "cast" and plain:
            v = f.fresh("dc")
            f.emit(f"{v} = memref.cast {a.name} : {a.ty} to memref<?xf32>")
            return Alias(v, "memref<?xf32>", a.start, a.n, view=a.view)
        if k == "expand" and a.n % 2 == 0 and plain:
            e, v = f.fresh("ex"), f.fresh("cl")
            f.emit(f"{e} = memref.expand_shape {a.name} [[0, 1]] output_shape [2, {a.n // 2}] : {a.ty} "
                   f"into memref<2x{a.n // 2}xf32>")
            f.emit(f"{v} = memref.collapse_shape {e} [[0, 1]] : memref<2x{a.n // 2}xf32> into {mty(a.n)}")
            return Alias(v, mty(a.n), a.start, a.n, view=a.view)
        if a.n >= 2 and plain:
            s = r.randint(0, a.n - 1)
            m = r.randint(1, a.n - s)
            v = f.fresh("sv")
            f.emit(f"{v} = memref.subview {a.name}[{s}] [{m}] [1] : {a.ty} to {svty(m, s)}")
            return Alias(v, svty(m, s), a.start + 4 * s, m, a.base, view=a.view)
        return a

    def generate(self):
        r = self.r
        f = self.f0()
        slots = r.randint(4, 10)
        out = self.add_out(f, slots)
        used = [0]

        def slot():
            s = used[0] % slots
            used[0] += 1
            return f.idx(s)

        roots = []
        for _ in range(r.randint(1, 2)):
            nbytes = 16 * r.randint(3, 12)
            x = f.alloc(nbytes, "i8")
            full = f.fresh("full")
            f.emit(f"{full} = memref.view {x.name}[{f.idx(0)}][] : {x.ty} to {mty(nbytes // 4)}")
            f.iota(MBuf(full, nbytes // 4))
            aliases = []
            # Views at byte shifts, mostly side by side (scopes of their own), sometimes overlapping.
            cuts = sorted(r.sample(range(1, nbytes // 4), r.randint(2, 4)))
            for lo, hi in zip([0] + cuts, cuts + [nbytes // 4]):
                if r.random() < 0.2:
                    hi = r.randint(hi, nbytes // 4)
                v = f.fresh("v")
                f.emit(f"{v} = memref.view {x.name}[{f.idx(4 * lo)}][] : {x.ty} to {mty(hi - lo)}")
                aliases.append(Alias(v, mty(hi - lo), 4 * lo, hi - lo))
            for _ in range(r.randint(2, 5)):
                a = self.derive(f, r.choice(aliases), nbytes)
                if r.random() < 0.3:
                    a = self.derive(f, a, nbytes)
                aliases.append(a)
            roots.append((x, full, nbytes, aliases))

        def pair(aliases):
            """Two aliases sharing an element, and that element's index in each."""
            cands = [(a, b) for a in aliases for b in aliases
                     if a is not b and set(a.elems()) & set(b.elems())]
            # mostly two made from different memref.views (scopes of their own)
            cross = [(a, b) for a, b in cands if a.view != b.view]
            if cross and r.random() < 0.8:
                cands = cross
            if not cands:
                return None
            a, b = r.choice(cands)
            e = r.choice(sorted(set(a.elems()) & set(b.elems())))
            return a, b, e - a.start // 4, e - b.start // 4

        for _ in range(r.randint(3, 9)):
            x, full, nbytes, aliases = r.choice(roots)
            p = pair(aliases)
            if p is None:
                continue
            a, b, ia, ib = p
            what = r.choice(["store-store-load", "store-store-load", "store-load", "ew", "copy-out",
                             "copy-in"])
            if what == "store-store-load":
                i, j = self.index(f, ia), self.index(f, ib)
                f.emit(f"memref.store {f.cf(r.choice([1.0, -3.5]))}, {a.name}[{i}] : {a.ty}")
                f.emit(f"memref.store {f.cf(r.choice([2.0, 7.25]))}, {b.name}[{j}] : {b.ty}")
                v = f.fresh("ld")
                f.emit(f"{v} = memref.load {a.name}[{i}] : {a.ty}")
                f.emit(f"memref.store {v}, {out.name}[{slot()}] : {out.ty}")
            elif what == "store-load":
                i, j = self.index(f, ia), self.index(f, ib)
                v0 = f.fresh("ld")
                f.emit(f"{v0} = memref.load {b.name}[{j}] : {b.ty}")
                f.emit(f"memref.store {f.cf(r.choice([5.0, -0.5]))}, {a.name}[{i}] : {a.ty}")
                v = f.fresh("ld")
                f.emit(f"{v} = memref.load {b.name}[{j}] : {b.ty}")
                s = f.fresh("sum")
                f.emit(f"{s} = arith.addf {v0}, {v} : f32")
                f.emit(f"memref.store {s}, {out.name}[{slot()}] : {out.ty}")
            elif what == "ew":
                # b's elements from ia - ib on, written elementwise from a's (overlapping)
                m = min(a.n - ia, b.n - ib)
                k = r.randint(1, m)
                sa, ta = f.fresh("sa"), svty(k, a.offset + ia)
                f.emit(f"{sa} = memref.subview {a.name}[{ia}] [{k}] [1] : {a.ty} to {ta}")
                sb, tb = f.fresh("sb"), svty(k, b.offset + ib)
                f.emit(f"{sb} = memref.subview {b.name}[{ib}] [{k}] [1] : {b.ty} to {tb}")
                f.ew(MBuf(sb, k, ty=tb), [MBuf(sa, k, ty=ta)])
                v = f.fresh("ld")
                f.emit(f"{v} = memref.load {a.name}[{self.index(f, ia)}] : {a.ty}")
                f.emit(f"memref.store {v}, {out.name}[{slot()}] : {out.ty}")
            elif what == "copy-out":
                # a copy out of a, a store through b into the copied bytes, the copy read
                loc = f.alloc(a.n)
                f.emit(f"memref.copy {a.name}, {loc.name} : {a.ty} to {loc.ty}")
                f.emit(f"memref.store {f.cf(r.choice([11.0, -9.0]))}, {b.name}[{self.index(f, ib)}] : {b.ty}")
                v = f.fresh("ld")
                f.emit(f"{v} = memref.load {loc.name}[{self.index(f, ia)}] : {loc.ty}")
                f.emit(f"memref.store {v}, {out.name}[{slot()}] : {out.ty}")
                f.dealloc(loc)
            else:
                # a copy into a from a local buffer, read through b
                loc = f.alloc(a.n)
                f.iota(loc)
                f.emit(f"memref.copy {loc.name}, {a.name} : {loc.ty} to {a.ty}")
                f.dealloc(loc)
                v = f.fresh("ld")
                f.emit(f"{v} = memref.load {b.name}[{self.index(f, ib)}] : {b.ty}")
                f.emit(f"memref.store {v}, {out.name}[{slot()}] : {out.ty}")
        for x, full, nbytes, _ in roots:
            f.copy(MBuf(full, nbytes // 4), self.add_out(f, nbytes // 4))
            f.dealloc(x)
        f.emit("return")
        self.funcs.append(f.text(self.f0_sig()))


class _Kind(MemrefKind):
    name = "views"
    order = 170
    summary = __doc__
    program_class = Program

    def extra_runs(self, ctx, rc_, runs):
        return [other_arena(ctx, rc_)]


KIND = _Kind()
