"""Kind `pointers` (issue 30): writes mplan cannot see as memref accesses. Every program is one
of three families (seed s gets family s mod 3, named in a comment at the top of @f0), 1-3
episodes of it:
`copy`: a memref.copy out of an input argument (the whole of it or a subview at an offset,
sometimes of a local buffer instead) into a local buffer, then a write to those bytes through
an !llvm.ptr (memref.extract_aligned_pointer_as_index of the buffer or of a view of it,
arith.index_cast, llvm.inttoptr, sometimes llvm.getelementptr by a constant element offset;
llvm.store or "llvm.intr.memset" of a few elements), sometimes outside the copied bytes or after
the last read; then the copy is read (an elementwise op, a copy, a load).
`seq`: such a pointer write to an input (or an output) followed by reads of those bytes (or a
later memref write of them), or an llvm.load through the pointer before a memref.store to the
element, next to 2-3 branches of temporaries emitted breadth first (sequencing has something to
gain by reordering them).
`callee`: a local buffer Y; a callee given a subview of Y writes (store, linalg.fill, llvm.store)
or reads an element of Y past its view through memref.reinterpret_cast of its argument (or the
aligned pointer); around the call a copy into another part of Y (of a buffer filled before
the call) or out of it (read after the call).
Planned at heap, one other arena kind, two drawn runs and sequence=best (inplace drawn); a
copy turned into a view, or a write moved past the readers of its bytes, shows in the output."""
from ..builder import MBuf, MemrefProgram, MF, svty
from ..kind import Cfg, MemrefKind, other_arena

FAMILIES = ["copy", "seq", "callee"]
MEMSET_BYTES = [0x00, 0x3F, 0x41, 0xC0]     # 0x3f3f3f3f etc.: finite f32 values


class Program(MemrefProgram):
    def generate(self):
        r = self.r
        self.family = FAMILIES[self.seed % len(FAMILIES)]    # seed s: family s mod 3
        f = self.f0()
        f.emit(f"// family: {self.family}")
        self.ncallee = 0
        n = r.randint(8, 40)
        xs = [self.add_in(n) for _ in range(r.randint(1, 2))]
        locals_ = []
        for _ in range(r.randint(1, 3)):
            getattr(self, "ep_" + self.family)(f, n, xs, locals_)
        for b in xs:
            f.copy(b, self.add_out(f, n))
        for b in locals_:
            f.copy(b, self.add_out(f, b.n))
            f.dealloc(b)
        f.emit("return")
        self.funcs.insert(0, f.text(self.f0_sig()))

    # ---- pieces -------------------------------------------------------------------------
    def pointer(self, f, b, elem):
        """An !llvm.ptr to element `elem` of the allocation b's aligned pointer points into:
        extract_aligned_pointer_as_index of b (or of a cast / subview of it: the same aligned
        pointer), index_cast, inttoptr, getelementptr when elem != 0 (sometimes by 0)."""
        r = self.r
        src = b
        k = r.random()
        if k < 0.25 and "strided" not in b.ty:
            c = f.fresh("dc")
            f.emit(f"{c} = memref.cast {b.name} : {b.ty} to memref<?xf32>")
            src = MBuf(c, b.n, ty="memref<?xf32>")
        elif k < 0.45 and b.n >= 2:
            o = r.randint(1, b.n - 1)
            src = f.sub(b, o, b.n - o)
        p, i, q = f.fresh("ap"), f.fresh("ai"), f.fresh("pt")
        f.emit(f"{p} = memref.extract_aligned_pointer_as_index {src.name} : {src.ty} -> index")
        f.emit(f"{i} = arith.index_cast {p} : index to i64")
        f.emit(f"{q} = llvm.inttoptr {i} : i64 to !llvm.ptr")
        if elem or r.random() < 0.3:
            g = f.fresh("gp")
            f.emit(f"{g} = llvm.getelementptr {q}[{elem}] : (!llvm.ptr) -> !llvm.ptr, f32")
            q = g
        return q

    def ptr_write(self, f, b, elem, room):
        """Writes element elem of b's allocation (and up to room - 1 after it with a memset)
        through an !llvm.ptr."""
        r = self.r
        q = self.pointer(f, b, elem)
        if r.random() < 0.3:
            cnt = r.randint(1, max(1, min(room, 4)))
            v, ln = f.fresh("mb"), f.fresh("ml")
            f.emit(f"{v} = llvm.mlir.constant({r.choice(MEMSET_BYTES)} : i8) : i8")
            f.emit(f"{ln} = llvm.mlir.constant({4 * cnt} : i64) : i64")
            f.emit(f'"llvm.intr.memset"({q}, {v}, {ln}) <{{isVolatile = false}}> : (!llvm.ptr, i8, i64) -> ()')
        else:
            v = f.fresh("pv")
            if r.random() < 0.5:
                f.emit(f"{v} = llvm.mlir.constant({r.choice([9.0, -6.5, 1000.0])} : f32) : f32")
            else:
                v = f.cf(r.choice([9.0, -6.5, 1000.0]))
            f.emit(f"llvm.store {v}, {q} : f32, !llvm.ptr")

    def read(self, f, b, locals_, at=None):
        """Reads all of b (1-D f32, may be a view): into a local buffer copied out at the end,
        an output, or one element (mostly `at` when given) stored to an output."""
        r = self.r
        k = r.random()
        if k < 0.5:
            t = f.alloc(b.n)
            f.ew(t, [b])
            locals_.append(t)
        elif k < 0.8:
            f.copy(b, self.add_out(f, b.n))
        else:
            o = self.add_out(f, 1)
            v = f.fresh("ld")
            f.emit(f"{v} = memref.load {b.name}[{f.idx(at if at is not None and r.random() < 0.8 else r.randrange(b.n))}] : {b.ty}")
            f.emit(f"memref.store {v}, {o.name}[{f.idx(0)}] : {o.ty}")

    def local_filled(self, f, m, xs):
        """A local buffer of m elements, every element written (iota, or from an input)."""
        r = self.r
        b = f.alloc(m)
        src = [x for x in xs if x.n >= m]
        if src and r.random() < 0.5:
            x = r.choice(src)
            s = f.sub(x, r.randint(0, x.n - m), m)
            if r.random() < 0.5:
                f.copy(s, b)
            else:
                f.ew(b, [s])
        else:
            f.iota(b)
        return b

    # ---- family copy: a copy out of an argument's bytes, a pointer write to them --------
    def ep_copy(self, f, n, xs, locals_):
        r = self.r
        if r.random() < 0.25:
            src = self.local_filled(f, n, xs)
            locals_.append(src)
        else:
            src = r.choice(xs)
        k = n if r.random() < 0.2 else r.randint(1, min(16, n))
        off = r.randint(0, n - k)
        loc = f.alloc(k)
        f.copy(f.sub(src, off, k), loc)
        when = r.choices(["inside", "outside", "after"], [6, 1, 1])[0]
        if when == "outside" and k < n:
            e = r.choice([i for i in range(n) if not off <= i < off + k])
        else:
            e = r.randint(off, off + k - 1)
        if when != "after":
            self.ptr_write(f, src, e, n - e)
        self.read(f, loc, locals_, e - off if off <= e < off + k else None)
        if when == "after":
            self.ptr_write(f, src, e, n - e)
        f.dealloc(loc)

    # ---- family seq: a pointer access that sequencing must keep in its place ------------
    def branches(self, f, src, m):
        """2-3 branches of temporaries made from src, emitted breadth first, each summed into
        an output (the better order is depth first)."""
        r = self.r
        x = f.alloc(m)
        f.ew(x, [src])
        ts = []
        for _ in range(r.randint(2, 3)):
            t = f.alloc(m)
            f.ew(t, [x])
            ts.append(t)
        f.dealloc(x)
        o = self.add_out(f, len(ts))
        for i, t in enumerate(ts):
            if r.random() < 0.5:
                u = f.alloc(m)
                f.ew(u, [t])
                f.dealloc(t)
                t = u
            f.checksum(t, o, i)
            f.dealloc(t)

    def ep_seq(self, f, n, xs, locals_):
        r = self.r
        a = r.choice(xs)
        e = r.randrange(n)
        what = r.choice(["write-read", "write-read", "write-read", "write-write", "load-write"])
        m = r.randint(64, 256)
        big = self.local_filled(f, m, [])
        if what == "write-read":
            # the pointer write, then the reads of the bytes it wrote
            self.ptr_write(f, a, e, n - e)
            s = f.sub(a, 0, n) if r.random() < 0.5 else f.sub(a, e, 1)
            self.read(f, s, locals_, e if s.n == n else 0)
            self.branches(f, big, m)
        elif what == "write-write":
            # a pointer write to an output, then a memref write of the same element
            o = self.add_out(f, n)
            f.emit(f"linalg.fill ins({f.cf(0.25)} : f32) outs({o.name} : {o.ty})")
            self.ptr_write(f, o, e, 1)
            self.branches(f, big, m)
            if r.random() < 0.5:
                f.emit(f"memref.store {f.cf(-3.0)}, {o.name}[{f.idx(e)}] : {o.ty}")
            else:
                f.copy(f.sub(a, e, 1), f.sub(o, e, 1))
        else:
            # a load through the pointer, a memref.store to that element, the loaded value used
            # after the branches
            q = self.pointer(f, a, e)
            v = f.fresh("pl")
            f.emit(f"{v} = llvm.load {q} : !llvm.ptr -> f32")
            f.emit(f"memref.store {f.cf(77.0)}, {a.name}[{f.idx(e)}] : {a.ty}")
            self.branches(f, big, m)
            o = self.add_out(f, 1)
            f.emit(f"memref.store {v}, {o.name}[{f.idx(0)}] : {o.ty}")
        f.dealloc(big)

    # ---- family callee: a callee reaching past the view it was given --------------------
    def callee(self, mty_, j, c, mode):
        """@gN(%m: a view of Y of type mty_[, %o: an output]): writes c elements of Y from
        element j (of Y's aligned pointer) or reads element j into %o[0]."""
        r = self.r
        name = f"g{self.ncallee}"
        self.ncallee += 1
        g = MF(self, name)
        sig = f"%m: {mty_}"
        if mode == "ptr":
            p, i, q, v = g.fresh("ap"), g.fresh("ai"), g.fresh("pt"), g.fresh("gp")
            g.emit(f"{p} = memref.extract_aligned_pointer_as_index %m : {mty_} -> index")
            g.emit(f"{i} = arith.index_cast {p} : index to i64")
            g.emit(f"{q} = llvm.inttoptr {i} : i64 to !llvm.ptr")
            g.emit(f"{v} = llvm.getelementptr {q}[{j}] : (!llvm.ptr) -> !llvm.ptr, f32")
            g.emit(f"llvm.store {g.cf(r.choice([9.0, -2.5]))}, {v} : f32, !llvm.ptr")
        else:
            rc, rty = g.fresh("rc"), f"memref<{c}xf32, strided<[1], offset: {j}>>"
            if r.random() < 0.3:
                # a dynamic offset: the callee's index argument
                sig += ", %j: index"
                rty = f"memref<{c}xf32, strided<[1], offset: ?>>"
                g.emit(f"{rc} = memref.reinterpret_cast %m to offset: [%j], sizes: [{c}], strides: [1] : "
                       f"{mty_} to {rty}")
            else:
                g.emit(f"{rc} = memref.reinterpret_cast %m to offset: [{j}], sizes: [{c}], strides: [1] : "
                       f"{mty_} to {rty}")
            if mode == "store":
                g.emit(f"memref.store {g.cf(r.choice([9.0, -2.5]))}, {rc}[{g.idx(0)}] : {rty}")
            elif mode == "fill":
                g.emit(f"linalg.fill ins({g.cf(r.choice([4.5, -8.0]))} : f32) outs({rc} : {rty})")
            else:
                sig += ", %o: memref<1xf32>"
                v = g.fresh("ld")
                g.emit(f"{v} = memref.load {rc}[{g.idx(0)}] : {rty}")
                g.emit(f"memref.store {v}, %o[{g.idx(0)}] : memref<1xf32>")
        g.emit("return")
        self.funcs.append(g.text(sig))
        return name, sig

    def ep_callee(self, f, n, xs, locals_):
        r = self.r
        ny = r.randint(6, 32)
        y = self.local_filled(f, ny, xs)
        # the part [h0, h0 + kh) of Y copied into or out of, the callee's view [a0, a0 + k0)
        # beside it (mostly disjoint: a view that overlaps it keeps the copy anyway), and the
        # element j the callee reaches, mostly in [h0, h0 + kh)
        kh = r.randint(1, min(12, ny - 1))
        h0 = r.randint(0, ny - kh)
        sides = [(0, h0), (h0 + kh, ny)]
        lo, hi = r.choice([sd for sd in sides if sd[1] > sd[0]])
        if r.random() < 0.15:
            lo, hi = 0, ny
        k0 = r.randint(1, hi - lo)
        a0 = r.randint(lo, hi - k0)
        outside = [i for i in range(ny) if not a0 <= i < a0 + k0]
        inhi = [i for i in outside if h0 <= i < h0 + kh]
        j = r.choice(inhi if inhi and r.random() < 0.9 else outside or [a0])
        mode = r.choice(["store", "store", "fill", "ptr", "read"])
        c = 1 if mode != "fill" else r.randint(1, ny - j)
        # the view's own type mostly (copy elision gives up on a memref.cast), else offset ?
        dyn = r.random() < 0.2
        t = f"memref<{k0}xf32, strided<[1], offset: ?>>" if dyn else svty(k0, a0)
        name, sig = self.callee(t, j, c, mode)
        shape = r.choice(["into", "into", "out", "out", "into-before"])

        def call():
            v = f.sub(y, a0, k0)
            cv = v.name
            if v.ty != t:
                cv = f.fresh("cv")
                f.emit(f"{cv} = memref.cast {v.name} : {v.ty} to {t}")
            args, tys = [cv], [t]
            if "%j: index" in sig:
                args.append(f.idx(j))
                tys.append("index")
            if "%o:" in sig:
                o = self.add_out(f, 1)
                args.append(o.name)
                tys.append(o.ty)
            f.emit(f"call @{name}({', '.join(args)}) : ({', '.join(tys)}) -> ()")

        hv = lambda: f.sub(y, h0, kh)
        if shape in ("into", "into-before"):
            # X filled (before the call), the call, X copied into Y[h0, h0 + kh)
            x = self.local_filled(f, kh, xs)
            if shape == "into-before":
                f.copy(x, hv())
                call()
            else:
                call()
                f.copy(x, hv())
            f.dealloc(x)
        else:
            # X = Y[h0, h0 + kh), the call, X read
            x = f.alloc(kh)
            f.copy(hv(), x)
            call()
            self.read(f, x, locals_)
            f.dealloc(x)
        locals_.append(y)


class _Kind(MemrefKind):
    name = "pointers"
    order = 190
    summary = __doc__
    program_class = Program

    def extra_runs(self, ctx, rc_, runs):
        return [other_arena(ctx, rc_),
                Cfg("heap", f"sequence=best inplace={'true' if rc_.random() < 0.5 else 'false'}")]


KIND = _Kind()
