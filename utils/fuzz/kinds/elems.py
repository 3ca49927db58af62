"""Kind `elems`: n-D and 1-D vector element types (memref.load/store, vector.load/store), i1, i4,
i8..i64, f16, f64 buffers side by side, some with an alignment attribute."""
from ..builder import fconst, MemrefProgram, nelems
from ..kind import MemrefKind, Cfg


# Element types of the `elems` kind: (type, lanes shape or None, scalar type).
ELEM_TYPES = [("f32", None, "f32"), ("f64", None, "f64"), ("f16", None, "f16"), ("i1", None, "i1"),
              ("i4", None, "i4"), ("i8", None, "i8"), ("i16", None, "i16"), ("i64", None, "i64"),
              ("vector<4xf32>", (4,), "f32"), ("vector<3xf64>", (3,), "f64"),
              ("vector<5x3xf32>", (5, 3), "f32"), ("vector<2x2xf64>", (2, 2), "f64"),
              ("vector<7xi8>", (7,), "i8"), ("vector<3xi4>", (3,), "i4"), ("vector<2x3xi1>", (2, 3), "i1"),
              ("vector<8xf16>", (8,), "f16"), ("vector<32xf32>", (32,), "f32"),
              ("vector<5x3xf32>", (5, 3), "f32"), ("vector<3x7xf16>", (3, 7), "f16"),
              ("vector<3xf32>", (3,), "f32")]


def abi_align(lanes, st):
    """LLVM's ABI alignment on x86-64 of an element (scalar, or an n-D vector: an array of its
    innermost 1-D vector, whose alignment is its size rounded up to a power of two)."""
    bits = int(st[1:]) if st[1:].isdigit() else 64
    if lanes is None:
        return max(1, (bits + 7) // 8)
    size = (lanes[-1] * bits + 7) // 8
    return 1 << max(0, (size - 1).bit_length())


class Program(MemrefProgram):
    def elem_fill(self, f, b, et, lanes, st, k):
        """b[i] = value(i, k) for every element (scf.for over the memref)."""
        r = self.r
        lo, hi, one = f.idx(0), f.idx(b.n), f.idx(1)
        iv = f.fresh("i")
        f.emit(f"scf.for {iv} = {lo} to {hi} step {one} {{")
        ii, m, v0, s0 = f.fresh("ii"), f.fresh("m"), f.fresh("v"), f.fresh("s")
        f.emit(f"  {ii} = arith.index_cast {iv} : index to i32")
        f.emit(f"  {m} = arith.constant {r.choice([3, 5, 7])} : i32")
        f.emit(f"  {v0} = arith.muli {ii}, {m} : i32")
        f.emit(f"  {s0} = arith.constant {k} : i32")
        v1, p, v2, h = f.fresh("v"), f.fresh("p"), f.fresh("v"), f.fresh("h")
        f.emit(f"  {v1} = arith.addi {v0}, {s0} : i32")
        f.emit(f"  {p} = arith.constant 23 : i32")
        f.emit(f"  {v2} = arith.remsi {v1}, {p} : i32")
        f.emit(f"  {h} = arith.constant 11 : i32")
        v3 = f.fresh("v")
        f.emit(f"  {v3} = arith.subi {v2}, {h} : i32")
        sc = f.fresh("sc")
        if st.startswith("i"):
            if st == "i32":
                f.emit(f"  {sc} = arith.addi {v3}, {h} : i32")
            elif st == "i64":
                f.emit(f"  {sc} = arith.extsi {v3} : i32 to i64")
            else:
                f.emit(f"  {sc} = arith.trunci {v3} : i32 to {st}")
        else:
            f.emit(f"  {sc} = arith.sitofp {v3} : i32 to {st}")
        if lanes is None:
            val = sc
        else:
            vt = f"vector<{'x'.join(map(str, lanes))}x{st}>"
            bc, cst, val = f.fresh("bc"), f.fresh("lc"), f.fresh("vv")
            f.emit(f"  {bc} = vector.broadcast {sc} : {st} to {vt}")
            nl = nelems(lanes)
            vals = [(j * 3 + k) % 5 - 2 for j in range(nl)]
            if st.startswith("i"):
                if st == "i1":
                    vals = [v & 1 for v in vals]
                flat = [str(v) for v in vals]
                op = "arith.addi" if st != "i1" else "arith.xori"
            else:
                flat = [fconst(v * 0.5) for v in vals]
                op = "arith.addf"

            def nest(xs, shape):
                if len(shape) == 1:
                    return "[" + ", ".join(xs) + "]"
                step = nelems(shape[1:])
                return "[" + ", ".join(nest(xs[i * step:(i + 1) * step], shape[1:])
                                       for i in range(shape[0])) + "]"
            dense = nest(flat, list(lanes))
            f.emit(f"  {cst} = arith.constant dense<{dense}> : {vt}")
            f.emit(f"  {val} = {op} {bc}, {cst} : {vt}")
        if lanes is not None and len(lanes) == 1 and r.random() < 0.5:
            f.emit(f"  vector.store {val}, {b.name}[{iv}] : {b.ty}, {et}")
        else:
            f.emit(f"  memref.store {val}, {b.name}[{iv}] : {b.ty}")
        f.emit("}")

    def elem_read(self, f, b, et, lanes, st, out):
        """out[i] = f32 summary of element i (weighted lane sum for vectors)."""
        lo, hi, one = f.idx(0), f.idx(b.n), f.idx(1)
        iv = f.fresh("i")
        f.emit(f"scf.for {iv} = {lo} to {hi} step {one} {{")
        ld = f.fresh("ld")
        if lanes is not None and len(lanes) == 1 and self.r.random() < 0.5:
            f.emit(f"  {ld} = vector.load {b.name}[{iv}] : {b.ty}, {et}")
        else:
            f.emit(f"  {ld} = memref.load {b.name}[{iv}] : {b.ty}")
        vt = et if lanes is not None else st
        ft = (f"vector<{'x'.join(map(str, lanes))}xf32>" if lanes is not None else "f32")
        cv = f.fresh("cv")
        if st == "f32":
            f.emit(f"  {cv} = arith.addf {ld}, {ld} : {ft}")
        elif st == "f64":
            f.emit(f"  {cv} = arith.truncf {ld} : {vt} to {ft}")
        elif st == "f16":
            f.emit(f"  {cv} = arith.extf {ld} : {vt} to {ft}")
        else:
            it = ft.replace("f32", "i32")
            w = f.fresh("w")
            if st == "i64":
                f.emit(f"  {w} = arith.trunci {ld} : {vt} to {it}")
            elif st == "i32":
                w = ld
            else:
                f.emit(f"  {w} = arith.{'extui' if st == 'i1' else 'extsi'} {ld} : {vt} to {it}")
            f.emit(f"  {cv} = arith.sitofp {w} : {it} to {ft}")
        if lanes is None:
            res = cv
        else:
            # Weighted lane sum, row by row (no vector.shape_cast: its lowering leaves ub.poison).
            rows = [None] if len(lanes) == 1 else list(range(lanes[0]))
            w = lanes[-1]
            rt = f"vector<{w}xf32>"
            res = None
            for ri, row in enumerate(rows):
                if row is None:
                    rv = cv
                else:
                    rv = f.fresh("row")
                    f.emit(f"  {rv} = vector.extract {cv}[{row}] : {rt} from {ft}")
                wt, pr, red = f.fresh("wt"), f.fresh("pr"), f.fresh("red")
                f.emit(f"  {wt} = arith.constant dense<[{', '.join(fconst(ri * w + j + 1) for j in range(w))}]> : {rt}")
                f.emit(f"  {pr} = arith.mulf {rv}, {wt} : {rt}")
                f.emit(f"  {red} = vector.reduction <add>, {pr} : {rt} into f32")
                if res is None:
                    res = red
                else:
                    acc = f.fresh("acc")
                    f.emit(f"  {acc} = arith.addf {res}, {red} : f32")
                    res = acc
        f.emit(f"  memref.store {res}, {out.name}[{iv}] : {out.ty}")
        f.emit("}")

    def generate(self):
        r = self.r
        f = self.f0()
        x = self.add_in(8)
        del x
        nb = r.randint(2, 6)
        specs = [r.choice(ELEM_TYPES) for _ in range(nb)]
        if not any(s[1] is not None for s in specs):
            specs[0] = r.choice([t for t in ELEM_TYPES if t[1] is not None])
        events = []   # (step, 'alloc'|'read', k)
        for k in range(nb):
            s = r.randint(0, 2 * nb)
            e = s + r.randint(1, 2 * nb)
            events += [(s, 0, k), (e, 1, k)]
        bufs = {}
        for _, what, k in sorted(events):
            et, lanes, st = specs[k]
            if what == 0:
                cnt = r.randint(1, 12 if lanes is None or nelems(lanes) < 16 else 3)
                # An alignment attribute below the element's ABI alignment would make the
                # baseline's own vector accesses misaligned: only ones at or above it.
                align = r.choice([None, None, None] + [a for a in (8, 16, 32, 64, 128, 256)
                                                       if a >= abi_align(lanes, st)])
                b = f.alloc(cnt, et, align=align)
                self.elem_fill(f, b, et, lanes, st, r.randint(0, 22))
                bufs[k] = b
            else:
                b = bufs[k]
                self.elem_read(f, b, et, lanes, st, self.add_out(f, b.n))
                f.dealloc(b)
        f.emit("return")
        self.funcs.append(f.text(self.f0_sig()))


class _Kind(MemrefKind):
    name = "elems"
    order = 60
    summary = __doc__
    program_class = Program

    def extra_runs(self, ctx, rc_, runs):
        # Alignment options below what the elements need, with the arenas that do not come
        # from malloc (stack, global, a slice of the caller's).
        return [Cfg(rc_.choice([a for a in ctx.arenas if a != "heap"] or ctx.arenas),
                    f"strategy={rc_.choice(ctx.strategies)} alignment={rc_.choice([1, 2, 4, 8])}",
                    rc_.random() < 0.25)]


KIND = _Kind()
