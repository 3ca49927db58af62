"""Kind `escape`: a buffer escapes (memref.store into a memref of memrefs, in a box argument,
extract_aligned_pointer_as_index, kept by a callee in a memref.global, returned by a callee,
linalg.yield into an outs memref<1xmemref<..>>, directly or in a callee) next to a memref.copy
out of a subview of it, later writes through the escape path (directly or in a callee), and a
copy into a subview of it."""
from ..builder import ID1, MBuf, MemrefProgram, MF, mty
from ..kind import MemrefKind


class Program(MemrefProgram):
    def generate(self):
        r = self.r
        n = r.randint(8, 40)
        f = self.f0()
        x = self.add_in(n)
        mode = r.choice(["store", "store-arg", "addr", "global", "return", "yield", "yield-callee",
                         "store-callee"])
        self.escape_mode = mode
        pre = []
        for _ in range(r.randint(0, 2)):
            p = f.alloc(r.randint(4, 32))
            f.iota(p)
            pre.append(p)
        y = f.alloc(n)
        f.ew(y, [x])
        boxty = mty(1, y.ty)
        path = {}
        c0 = f.idx(0)
        if mode in ("store", "yield", "yield-callee", "store-callee"):
            box = f.alloc(1, y.ty)
            path["box"] = box
        if mode == "store-arg":
            self.extra_args.append(("%box", boxty))
            self.main_setup.append(f"%box = memref.alloc() : {boxty}")
            path["box"] = MBuf("%e0", 1, y.ty, ty=boxty)
        if mode in ("store", "store-arg"):
            f.emit(f"memref.store {y.name}, {path['box'].name}[{c0}] : {boxty}")
        elif mode == "yield":
            f.emit(f"linalg.generic {{indexing_maps = [{ID1}], iterator_types = [\"parallel\"]}} "
                   f"outs({path['box'].name} : {boxty}) {{")
            f.emit(f"^bb0(%_o: {y.ty}):")
            f.emit(f"  linalg.yield {y.name} : {y.ty}")
            f.emit("}")
        elif mode in ("yield-callee", "store-callee"):
            g = MF(self, "keep_in_box")
            if mode == "yield-callee":
                g.emit(f"linalg.generic {{indexing_maps = [{ID1}], iterator_types = [\"parallel\"]}} "
                       f"outs(%box : {boxty}) {{")
                g.emit(f"^bb0(%_o: {y.ty}):")
                g.emit(f"  linalg.yield %v : {y.ty}")
                g.emit("}")
            else:
                g.emit("%c0 = arith.constant 0 : index")
                g.emit(f"memref.store %v, %box[%c0] : {boxty}")
            g.emit("return")
            self.funcs.append(g.text(f"%v: {y.ty}, %box: {boxty}"))
            f.emit(f"call @keep_in_box({y.name}, {path['box'].name}) : ({y.ty}, {boxty}) -> ()")
        elif mode == "addr":
            p = f.fresh("p")
            f.emit(f"{p} = memref.extract_aligned_pointer_as_index {y.name} : {y.ty} -> index")
            pi = f.fresh("pi")
            f.emit(f"{pi} = arith.index_cast {p} : index to i64")
            path["addr"] = pi
        elif mode == "global":
            self.decls.append(f"memref.global \"private\" @fz_box : {boxty} = uninitialized")
            g = MF(self, "keep_global")
            g.emit("%c0 = arith.constant 0 : index")
            g.emit(f"%g = memref.get_global @fz_box : {boxty}")
            g.emit(f"memref.store %v, %g[%c0] : {boxty}")
            g.emit("return")
            self.funcs.append(g.text(f"%v: {y.ty}"))
            f.emit(f"call @keep_global({y.name}) : ({y.ty}) -> ()")
            path["global"] = boxty
        elif mode == "return":
            g = MF(self, "pass_through")
            g.emit(f"return %v : {y.ty}")
            self.funcs.append(g.text(f"%v: {y.ty}", y.ty))
            y2 = f.fresh("ret")
            f.emit(f"{y2} = call @pass_through({y.name}) : ({y.ty}) -> {y.ty}")
            path["ret"] = y2
        poke_callee = r.random() < 0.3 and ("box" in path or "global" in path)
        if poke_callee:
            g = MF(self, "poke")
            g.emit("%c0 = arith.constant 0 : index")
            if "global" in path:
                g.emit(f"%g = memref.get_global @fz_box : {boxty}")
                g.emit(f"%e = memref.load %g[%c0] : {boxty}")
                sig = "%i: index, %v: f32"
            else:
                g.emit(f"%e = memref.load %box[%c0] : {boxty}")
                sig = f"%box: {boxty}, %i: index, %v: f32"
            g.emit(f"memref.store %v, %e[%i] : {y.ty}")
            g.emit("return")
            self.funcs.append(g.text(sig))

        def reach():
            """The escaped buffer as seen through its escape path (a memref value)."""
            if "box" in path:
                e = f.fresh("ld")
                f.emit(f"{e} = memref.load {path['box'].name}[{f.idx(0)}] : {boxty}")
                return MBuf(e, n)
            if "global" in path:
                g, e = f.fresh("gb"), f.fresh("ld")
                f.emit(f"{g} = memref.get_global @fz_box : {boxty}")
                f.emit(f"{e} = memref.load {g}[{f.idx(0)}] : {boxty}")
                return MBuf(e, n)
            if "ret" in path:
                return MBuf(path["ret"], n)
            return None

        def poke(i, v):
            """y[i] = v through the escape path."""
            cv = f.cf(v)
            ci = f.idx(i)
            if "addr" in path:
                pt, q = f.fresh("ptr"), f.fresh("q")
                f.emit(f"{pt} = llvm.inttoptr {path['addr']} : i64 to !llvm.ptr")
                f.emit(f"{q} = llvm.getelementptr {pt}[{i}] : (!llvm.ptr) -> !llvm.ptr, f32")
                f.emit(f"llvm.store {cv}, {q} : f32, !llvm.ptr")
            elif poke_callee:
                if "global" in path:
                    f.emit(f"call @poke({ci}, {cv}) : (index, f32) -> ()")
                else:
                    f.emit(f"call @poke({path['box'].name}, {ci}, {cv}) : ({boxty}, index, f32) -> ()")
            else:
                e = reach()
                f.emit(f"memref.store {cv}, {e.name}[{ci}] : {e.ty}")

        def snap(off, k):
            """Copies y[off, off + k) as seen through the escape path into a new output."""
            o = self.add_out(f, k)
            if "addr" in path:
                pt = f.fresh("ptr")
                f.emit(f"{pt} = llvm.inttoptr {path['addr']} : i64 to !llvm.ptr")
                lo, hi, one = f.idx(0), f.idx(k), f.idx(1)
                iv = f.fresh("i")
                f.emit(f"scf.for {iv} = {lo} to {hi} step {one} {{")
                j, ji, q, v = f.fresh("j"), f.fresh("ji"), f.fresh("q"), f.fresh("lv")
                f.emit(f"  {j} = arith.addi {iv}, {f.idx(off)} : index")
                f.emit(f"  {ji} = arith.index_cast {j} : index to i64")
                f.emit(f"  {q} = llvm.getelementptr {pt}[{ji}] : (!llvm.ptr, i64) -> !llvm.ptr, f32")
                f.emit(f"  {v} = llvm.load {q} : !llvm.ptr -> f32")
                f.emit(f"  memref.store {v}, {o.name}[{iv}] : {o.ty}")
                f.emit("}")
            else:
                f.copy(f.sub(reach(), off, k), o)
        # Direction 1: a copy out of a subview of y must freeze the value.
        k = r.randint(1, min(12, n))
        off = r.randint(0, n - k)
        c = f.alloc(k)
        f.copy(f.sub(y, off, k), c)
        for _ in range(r.randint(1, 3)):
            poke(r.randint(off, off + k - 1), r.choice([9.0, -7.5, 100.0, 0.0]))
        mid = []
        for _ in range(r.randint(0, 2)):
            z = f.alloc(k)
            if r.random() < 0.3:
                f.iota(z)
                f.ew(z, [c, z])
            else:
                f.ew(z, [c])
            mid.append(z)
        f.copy(c, self.add_out(f, k))
        for z in mid:
            f.copy(z, self.add_out(f, k))
            f.dealloc(z)
        f.dealloc(c)
        # Direction 2: a copy into a subview of y must not be computed in place early.
        if r.random() < 0.7:
            k2 = r.randint(1, min(12, n))
            off2 = r.randint(0, n - k2)
            a = f.alloc(k2)
            f.ew(a, [f.sub(x, off2, k2)])
            snap(off2, k2)
            f.copy(a, f.sub(y, off2, k2))
            f.dealloc(a)
        for p in pre:
            f.copy(p, self.add_out(f, p.n))
            f.dealloc(p)
        snap(0, n)
        f.emit("return")
        self.funcs.append(f.text(self.f0_sig()))


class _Kind(MemrefKind):
    name = "escape"
    order = 30
    summary = __doc__
    program_class = Program


KIND = _Kind()
