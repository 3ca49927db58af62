"""Kind `budget` (issue 33): programs whose live ranges rematerialization and offload can split,
planned in capacity runs (capacity.py: capacities between ~40 % of the uncapped arena B and B,
sometimes below the op floor, with remat on or off, offload=default:1 or not, sometimes
sequence=best inplace=true, every arena kind). @f0 is one block: long-lived buffers computed
early from the function's arguments only (an elementwise op over an argument slice, an iota, a
copy of an argument, a fill then a matmul over 2-D views of the arguments, or from another
long-lived buffer that dies before the late use: a recomputation of its inputs), read early
(directly, through a subview or collapse_shape made before the peak, or merged with another by
arith.select or scf.if), then a peak of temporaries, then read late (an elementwise op, a copy,
a loop of loads, through the early views), with hazards in between: the arguments a buffer was
computed from written (memref.copy into one, an elementwise op or a fill over a slice of one, a
store), a buffer written again after its first read, a second writer over part of it, a callee
writing an argument, a buffer handed to a callee that returns a fresh buffer made from it. A recomputation that reads a written argument, or misses a write, shows in
the output."""
from ..builder import MBuf, MemrefProgram, mty
from ..kind import MemrefKind
from .. import capacity


class Program(MemrefProgram):
    main_unplanned = True

    def generate(self):
        r = self.r
        f = self.f0()
        sizes = [32, 48, 64, 96, 128]
        xs = [self.add_in(r.choice(sizes[:2] if len(self.ins) else sizes))
              for _ in range(r.randint(1, 3))]
        self.clobber_fn = False
        zero = f.cf(0.0)
        longs = []      # [MBuf, {"args": set of arg names read, "views": [MBuf]}]

        def arg_slice(k):
            x = r.choice([x for x in xs if x.n >= k] or xs)
            k = min(k, x.n)
            return f.sub(x, r.randint(0, x.n - k), k), x

        # Staged programs write their outputs at the end only, from local buffers: a write to
        # an output argument between a buffer's uses would keep every recomputation that reads
        # an argument from happening (arguments may alias).
        stage = r.random() < 0.7
        staged = []

        def out_buf(n):
            if not stage:
                return self.add_out(f, n)
            st = f.alloc(n)
            staged.append(st)
            return st

        def to_out(b):
            """Copies (a view of) b into a new output, or an elementwise op over it."""
            if r.random() < 0.5:
                f.copy(b, out_buf(b.n))
            else:
                f.ew(out_buf(b.n), [b])

        def collapse(b2, m, n):
            v = f.fresh("cv")
            f.emit(f"{v} = memref.collapse_shape {b2.name} [[0, 1]] : {b2.ty} into {mty(m * n)}")
            return MBuf(v, m * n)

        def matmul():
            """fill + matmul into a new buffer; the operands are 2-D views of argument slices
            (or of a long-lived buffer). Returns (the 1-D collapse view, the 2-D buffer, args)."""
            m, k, n = r.randint(2, 5), r.randint(2, 5), r.randint(2, 5)
            ops, args = [], set()
            for rows, cols in ((m, k), (k, n)):
                cands = [l for l in longs if l[0].n >= rows * cols]
                if cands and r.random() < 0.3:
                    l = r.choice(cands)
                    src = f.sub(l[0], 0, rows * cols)
                    args |= l[1]["args"]
                else:
                    src, x = arg_slice(rows * cols)
                    args.add(x.name)
                e = f.fresh("ev")
                off = 0
                if "offset:" in src.ty:
                    off = int(src.ty.split("offset: ")[1].split(">")[0])
                ty = (f"memref<{rows}x{cols}xf32, strided<[{cols}, 1], offset: {off}>>"
                      if off else f"memref<{rows}x{cols}xf32>")
                f.emit(f"{e} = memref.expand_shape {src.name} [[0, 1]] output_shape [{rows}, {cols}] "
                       f": {src.ty} into {ty}")
                ops.append((e, ty))
            (a, ta), (b, tb) = ops
            out = MBuf(f.fresh("mm"), m * n, ty=f"memref<{m}x{n}xf32>")
            f.emit(f"{out.name} = memref.alloc() : {out.ty}")
            f.emit(f"linalg.fill ins({zero if r.random() < 0.8 else f.cf(0.5)} : f32) "
                   f"outs({out.name} : {out.ty})")
            f.emit(f"linalg.matmul ins({a}, {b} : {ta}, {tb}) outs({out.name} : {out.ty})")
            return collapse(out, m, n), out, args

        def make_long():
            """A long-lived buffer computed from the arguments (or from another long-lived
            buffer): (1-D value, buffer to dealloc, meta)."""
            how = r.choice(["ew", "ew", "iota", "copy", "matmul", "matmul", "derived", "inplace",
                            "chain", "global"])
            k = r.choice([16, 24, 32, 48, 64, 96])
            meta = {"args": set(), "views": []}
            if how == "matmul":
                v, buf, args = matmul()
                meta["args"] = args
                meta["free"] = buf
                return v, meta
            if how == "derived" and longs:
                src = r.choice(longs)
                kk = min(k, src[0].n)
                b = f.alloc(kk)
                f.ew(b, [f.sub(src[0], 0, kk)])
                meta["args"] = set(src[1]["args"])
                return b, meta
            if how == "chain":
                # Computed from a temporary that dies right away: recomputing the buffer
                # recomputes the temporary first.
                t = f.alloc(k)
                s, x = arg_slice(k)
                if s.n == k:
                    f.ew(t, [s])
                    meta["args"].add(x.name)
                else:
                    f.iota(t)
                b = f.alloc(k)
                f.ew(b, [t])
                f.dealloc(t)
                return b, meta
            b = f.alloc(k, align=r.choice([None, None, 64]))
            if how == "global":
                # From a memref.global: a constant one, or a mutable one a hazard may write.
                g = global_value(k, r.random() < 0.5)
                if r.random() < 0.5:
                    f.copy(g, b)
                else:
                    f.ew(b, [g])
                meta["args"].add(g.name)
                return b, meta
            if how == "iota":
                f.iota(b)
            elif how == "copy":
                s, x = arg_slice(k)
                if s.n < k:
                    f.iota(b)
                    f.ew(f.sub(b, 0, s.n), [s])
                else:
                    f.copy(s, b)
                meta["args"].add(x.name)
            else:
                s, x = arg_slice(k)
                if s.n < k:
                    f.iota(b)
                    f.ew(f.sub(b, 0, s.n), [s])
                else:
                    srcs = [s]
                    if len(xs) > 1 and r.random() < 0.4:
                        s2, x2 = arg_slice(k)
                        if s2.n == k:
                            srcs.append(s2)
                            meta["args"].add(x2.name)
                    f.ew(b, srcs)
                meta["args"].add(x.name)
                if how == "inplace":
                    # A second writer that reads the buffer (part of its writer chain).
                    kk = r.randint(1, k)
                    sv = f.sub(b, r.randint(0, k - kk), kk)
                    f.ew(sv, [sv])
            return b, meta

        globals_ = []

        def global_value(k, const):
            """A memref.global of k f32 (constant or not) and its get_global in @f0."""
            name = f"@fz_g{len(globals_)}"
            vals = ", ".join(f"{(i * 5 % 17 - 8) * 0.25:.2f}" for i in range(k))
            self.decls.append(f"memref.global \"private\" {'constant ' if const else ''}{name} : "
                              f"{mty(k)} = dense<[{vals}]>")
            g = MBuf(f.fresh("gv"), k)
            f.emit(f"{g.name} = memref.get_global {name} : {g.ty}")
            globals_.append((g, const))
            return g

        def early_use(b, meta):
            """Reads b (or a view of it made now, kept for the late use too)."""
            u = r.random()
            if u < 0.35 and b.n > 2:
                kk = r.randint(1, b.n - 1)
                v = f.sub(b, r.randint(0, b.n - kk), kk)
                meta["views"].append(v)
                to_out(v)
            elif u < 0.5:
                f.checksum(b, out_buf(1), 0)
            else:
                to_out(b)

        def hazard():
            """Writes an argument (or calls a callee that may), between early and late uses."""
            mutable = [g for g, const in globals_ if not const]
            if mutable and r.random() < 0.4:
                g = r.choice(mutable)
                f.emit(f"linalg.fill ins({f.cf(-2.5)} : f32) outs({g.name} : {g.ty})")
                return
            x = r.choice(xs)
            h = r.random()
            kk = r.randint(1, x.n)
            s = f.sub(x, r.randint(0, x.n - kk), kk)
            if h < 0.3:
                t = f.alloc(kk)
                f.iota(t)
                f.copy(t, s)
                f.dealloc(t)
            elif h < 0.55:
                f.ew(s, [s])
            elif h < 0.7:
                f.emit(f"linalg.fill ins({f.cf(r.choice([2.0, -3.5]))} : f32) outs({s.name} : {s.ty})")
            elif h < 0.85:
                f.emit(f"memref.store {f.cf(42.0)}, {x.name}[{f.idx(r.randrange(x.n))}] : {x.ty}")
            else:
                self.clobber_fn = True
                c = f.fresh("xc")
                f.emit(f"{c} = memref.cast {x.name} : {x.ty} to memref<?xf32>")
                f.emit(f"call @clobber({c}) : (memref<?xf32>) -> ()")

        def peak():
            """A group of temporaries live at once (from the arguments), summed into an output."""
            k = r.choice([8, 16, 24, 32, 48])
            ts = []
            for _ in range(r.randint(2, 5)):
                t = f.alloc(k)
                if ts and r.random() < 0.6:
                    f.ew(t, [r.choice(ts)] + ([r.choice(ts)] if r.random() < 0.4 else []))
                else:
                    s, _ = arg_slice(k)
                    if s.n == k:
                        f.ew(t, [s])
                    else:
                        f.iota(t)
                ts.append(t)
            acc = out_buf(k)
            f.ew(acc, ts[-2:])
            for t in ts:
                f.dealloc(t)

        # Long-lived buffers, each read early.
        for _ in range(r.randint(1, 4)):
            b, meta = make_long()
            longs.append([b, meta])
            if r.random() < 0.8:
                early_use(b, meta)
        # Written again after the first read: never recomputed.
        if r.random() < 0.2:
            b = r.choice(longs)[0]
            f.ew(b, [b])
        # Merged values: select / scf.if between two long-lived buffers of one size.
        merged = []
        pairs = [(a, b) for a in longs for b in longs if a is not b and a[0].n == b[0].n
                 and a[0].ty == b[0].ty]
        if pairs and r.random() < 0.5:
            a, b = r.choice(pairs)
            x = xs[0]
            v = f.fresh("ld")
            c = f.fresh("cmp")
            f.emit(f"{v} = memref.load {x.name}[{f.idx(r.randrange(x.n))}] : {x.ty}")
            f.emit(f"{c} = arith.cmpf ogt, {v}, {zero} : f32")
            m = f.fresh("mg")
            if r.random() < 0.5:
                f.emit(f"{m} = arith.select {c}, {a[0].name}, {b[0].name} : {a[0].ty}")
            else:
                f.emit(f"{m} = scf.if {c} -> ({a[0].ty}) {{")
                f.emit(f"  scf.yield {a[0].name} : {a[0].ty}")
                f.emit("} else {")
                f.emit(f"  scf.yield {b[0].name} : {b[0].ty}")
                f.emit("}")
            mb = MBuf(m, a[0].n, ty=a[0].ty)
            to_out(mb)
            merged.append(mb)
        # A long-lived buffer handed to a callee that returns a fresh buffer made from it (the
        # result may alias the argument for the analysis; it is freed here).
        self.fresh_fn = False
        if longs and r.random() < 0.3:
            b = r.choice(longs)[0]
            self.fresh_fn = True
            c, res_ = f.fresh("fc"), f.fresh("fr")
            f.emit(f"{c} = memref.cast {b.name} : {b.ty} to memref<?xf32>")
            f.emit(f"{res_} = call @fresh({c}) : (memref<?xf32>) -> memref<?xf32>")
            f.checksum(MBuf(res_, b.n, ty="memref<?xf32>"), out_buf(1), 0)
            f.emit(f"memref.dealloc {res_} : memref<?xf32>")
        # Hazards and peaks, interleaved.
        for _ in range(r.randint(1, 3)):
            if r.random() < 0.3:
                hazard()
            peak()
            if longs and r.random() < 0.3:
                # A use between two peaks.
                to_out(r.choice(longs)[0])
        if r.random() < 0.2:
            hazard()
        # A derived buffer computed late from an early one that then dies (its inputs must be
        # recomputed too if it is split).
        # Late uses: every long-lived buffer, its views and the merged values.
        for b, meta in longs:
            u = r.random()
            if u < 0.2:
                f.checksum(b, out_buf(1), 0)
            elif u < 0.35 and b.n > 1:
                f.emit(f"memref.store {f.cf(1.0)}, {b.name}[{f.idx(r.randrange(b.n))}] : {b.ty}")
                to_out(b)
            else:
                to_out(b)
            for v in meta["views"]:
                to_out(v)
        for mb in merged:
            to_out(mb)
        for b, meta in longs:
            f.dealloc(meta.get("free", b))
        for st in staged:
            f.copy(st, self.add_out(f, st.n))
            f.dealloc(st)
        # In a third of the programs with two inputs of one size, @main passes one buffer for
        # both: a write to one is a write to the other (arguments may alias).
        same = [i for i in range(1, len(xs)) if xs[i].n == xs[0].n]
        if same and r.random() < 0.35:
            j = same[0]

            def calls(names):
                args = [nm for nm, _ in names]
                args[j] = args[0]
                return [f"call @f0({', '.join(args)}) : ({', '.join(t for _, t in names)}) -> ()"]
            self.calls = calls
        # The inputs as they are at the end (hazards wrote them).
        for x in xs:
            f.copy(x, self.add_out(f, x.n))
        f.emit("return")
        self.funcs.append(f.text(self.f0_sig()))
        if self.clobber_fn:
            g = self.clobber_text()
            self.funcs.append(g)
        if self.fresh_fn:
            self.funcs.append([
                "func.func private @fresh(%m: memref<?xf32>) -> memref<?xf32> {",
                "  %c0 = arith.constant 0 : index",
                "  %n = memref.dim %m, %c0 : memref<?xf32>",
                "  %r = memref.alloc(%n) : memref<?xf32>",
                "  memref.copy %m, %r : memref<?xf32> to memref<?xf32>",
                "  return %r : memref<?xf32>", "}"])

    def clobber_text(self):
        return ["func.func private @clobber(%m: memref<?xf32>) {",
                "  %c0 = arith.constant 0 : index",
                "  %v = memref.load %m[%c0] : memref<?xf32>",
                "  %h = arith.constant -1.5 : f32",
                "  %w = arith.addf %v, %h : f32",
                "  memref.store %w, %m[%c0] : memref<?xf32>",
                "  return", "}"]


class _Kind(MemrefKind):
    name = "budget"
    order = 200
    summary = __doc__
    program_class = Program
    batched = False

    def plan(self, ctx):
        capacity.capacity_runs(ctx)


KIND = _Kind()
