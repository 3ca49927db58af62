"""Kind `argslice`: memref.copy from a (strided) view of a function argument into a local buffer, read
later; in between sometimes a write to the argument (store, through a view, linalg.fill, a
copy, a callee), to another argument that @main aliases to it, or to the local buffer; the
arguments are copied out at the end (issue-20 runs)."""
from ..builder import MBuf, MemrefProgram, MF, mty
from ..kind import Issue20Kind


class Program(MemrefProgram):
    def generate(self):
        """A memref.copy from a view of a function argument into a local buffer (mplan turns it
        into a view of the argument when legal), then reads of the local buffer, with writes
        in between sometimes: to the argument (directly, through a view, or in a callee), to
        another argument that @main makes an alias of it, or to the local buffer itself."""
        r = self.r
        f = self.f0()
        n = r.randint(8, 40)
        xs = [self.add_in(n) for _ in range(r.randint(1, 3))]
        alias = len(xs) >= 2 and r.random() < 0.4
        callees = set()

        def view(a, off, k, st):
            if off == 0 and k == n and st == 1:
                return a
            v = f.fresh("sv")
            ty = f"memref<{k}xf32, strided<[{st}], offset: {off}>>"
            f.emit(f"{v} = memref.subview {a.name}[{off}] [{k}] [{st}] : {a.ty} to {ty}")
            return MBuf(v, k, ty=ty)

        def write(b):
            """Writes part of argument b (1-D, n elements)."""
            k = r.random()
            if k < 0.3:
                f.emit(f"memref.store {f.cf(r.choice([9.0, -7.5, 100.0]))}, {b.name}[{f.idx(r.randrange(n))}] : {b.ty}")
            elif k < 0.55:
                kk = r.randint(1, n)
                s = f.sub(b, r.randint(0, n - kk), kk)
                f.ew(s, [s])
            elif k < 0.75:
                kk = r.randint(1, n)
                t = f.alloc(kk)
                f.iota(t)
                f.copy(t, f.sub(b, r.randint(0, n - kk), kk))
                f.dealloc(t)
            elif k < 0.85:
                kk = r.randint(1, n)
                s = f.sub(b, r.randint(0, n - kk), kk)
                f.emit(f"linalg.fill ins({f.cf(r.choice([0.5, -1.0]))} : f32) outs({s.name} : {s.ty})")
            else:
                callees.add("poke")
                f.emit(f"call @poke({b.name}, {f.idx(r.randrange(n))}, {f.cf(r.choice([3.0, -2.5]))}) : "
                       f"({b.ty}, index, f32) -> ()")

        pending = []

        def read(l):
            """Reads l: mostly into a local buffer copied out once l is dead (a write to an
            output, an argument, while l lives would keep the copy anyway)."""
            k = r.random()
            if k < 0.75:
                t = f.alloc(l.n)
                if k < 0.6:
                    f.ew(t, [l])
                else:
                    f.copy(l, t)
                pending.append(t)
                return
            o = self.add_out(f, l.n)
            if k < 0.9:
                f.copy(l, o)
            else:
                callees.add("peek")
                lc = f.fresh("lc")
                f.emit(f"{lc} = memref.cast {l.name} : {l.ty} to memref<?xf32>")
                oc = f.fresh("oc")
                f.emit(f"{oc} = memref.cast {o.name} : {o.ty} to memref<?xf32>")
                f.emit(f"call @peek({lc}, {oc}) : (memref<?xf32>, memref<?xf32>) -> ()")

        for _ in range(r.randint(1, 3)):
            a = r.choice(xs)
            st = 2 if r.random() < 0.2 else 1
            if st == 1 and r.random() < 0.15:
                k, off = n, 0
            else:
                k = r.randint(1, min(16, (n - 1) // st + 1))
                off = r.randint(0, n - ((k - 1) * st + 1))
            if r.random() < 0.3:
                write(a)                     # before the copy: no hazard
            sv = view(a, off, k, st)
            loc = f.alloc(k)
            f.copy(sv, loc)
            if r.random() < 0.3:
                read(loc)
            hazard = r.choice(["none", "none", "arg", "arg", "other", "callee", "local", "after"])
            if hazard == "arg":
                write(a)
            elif hazard == "other":
                write(r.choice([b for b in xs if b is not a] or xs))
            elif hazard == "callee":
                callees.add("poke")
                f.emit(f"call @poke({a.name}, {f.idx(r.randint(off, off + (k - 1) * st))}, "
                       f"{f.cf(-4.0)}) : ({a.ty}, index, f32) -> ()")
            elif hazard == "local":
                if r.random() < 0.5:
                    f.ew(loc, [loc])
                else:
                    f.emit(f"memref.store {f.cf(42.0)}, {loc.name}[{f.idx(r.randrange(k))}] : {loc.ty}")
            read(loc)
            if hazard == "after" or r.random() < 0.3:
                write(a)                     # after the last read: the view is legal
            f.dealloc(loc)
            for t in pending:
                f.copy(t, self.add_out(f, t.n))
                f.dealloc(t)
            pending.clear()
        for b in xs:
            f.copy(b, self.add_out(f, n))
        f.emit("return")
        self.funcs.append(f.text(self.f0_sig()))
        if "poke" in callees:
            g = MF(self, "poke")
            g.emit(f"memref.store %v, %m[%i] : {mty(n)}")
            g.emit("return")
            self.funcs.append(g.text(f"%m: {mty(n)}, %i: index, %v: f32"))
        if "peek" in callees:
            g = MF(self, "peek")
            g.emit("memref.copy %m, %o : memref<?xf32> to memref<?xf32>")
            g.emit("return")
            self.funcs.append(g.text("%m: memref<?xf32>, %o: memref<?xf32>"))
        if alias:
            def calls(names):
                # The second argument is the first one's buffer: writing it writes the first.
                args = [nm for nm, _ in names]
                args[1] = args[0]
                return [f"call @f0({', '.join(args)}) : ({', '.join(t for _, t in names)}) -> ()"]
            self.calls = calls


class _Kind(Issue20Kind):
    name = "argslice"
    order = 130
    summary = __doc__
    program_class = Program


KIND = _Kind()
