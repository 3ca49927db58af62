"""Kind `branchres` (issue 20): tensor scf.if / scf.index_switch (nested too) whose branches
compute 1-2 results in tensors of their own (One-Shot Bufferize: memref.alloc + memref.cast
yielded from every branch), sometimes an outer value or one buffer for two results; @f0
switches on a selector argument and @main calls it for every outcome (issue-20 runs)."""
from ..builder import MAX_ELEMS, Val, nelems, tty
from ..kind import TensorKind
from ..tensor_builder import Func, Program, check_lines, init_lines


# ---- branch results (issue 20): tensor scf.if / scf.index_switch ------------------------------
# One-Shot Bufferize turns a tensor scf.if / scf.index_switch whose branches compute their
# results into `memref.alloc` + `memref.cast` yielded from every branch; mplan plans one buffer
# for all branches. @f0 takes a selector `%sel: index`; construct j switches on
# (sel / stride_j) mod b_j, and @main calls @f0 once per selector value 0 .. P-1, so every
# branch of every construct runs.
MAX_OUTCOMES = 12


class BFunc(Func):
    """A tensor function with branch constructs on a selector argument (top level only)."""
    OPS = Func.OPS + [("op_branch", 9)]
    BRANCH_OPS = ["op_unary", "op_binary", "op_matmul", "op_concat", "op_pad", "op_insert_empty",
                  "op_extract", "op_reduce", "op_fill_combine", "op_branch", "op_for", "op_if"]

    def __init__(self, prog, name, arg_shapes, depth):
        super().__init__(prog, name, arg_shapes, depth)
        self.nest = 0

    def selector(self, b):
        """An index value in [0, b) taken from %sel; every value occurs for sel in [0, P)."""
        p = self.prog
        if p.outcomes * b <= MAX_OUTCOMES:
            stride = p.outcomes
            p.outcomes *= b
        else:
            stride = 1
        cs, cb, q, d = self.fresh("i"), self.fresh("i"), self.fresh("q"), self.fresh("d")
        self.emit(f"{cs} = arith.constant {stride} : index")
        self.emit(f"{cb} = arith.constant {b} : index")
        self.emit(f"{q} = arith.divui %sel, {cs} : index")
        self.emit(f"{d} = arith.remui {q}, {cb} : index")
        return d

    def branch_value(self, shape):
        """A value of `shape` for a branch to yield: mostly computed into a buffer of its own."""
        r = self.r
        same = [v for v in self.pool if v.shape == shape and v.et == "f32"]
        w = r.random()
        if w < 0.55 and same:
            xs = [r.choice(same)] + ([r.choice(same)] if r.random() < 0.4 else [])
            return self.ew(xs)
        if w < 0.65:
            return self.fill(shape, r.choice([0.5, -2, 3]))
        if w < 0.75 and same:
            return r.choice(same)            # an outer value or an argument: not hoisted
        if w < 0.85 and same and max(shape) >= 2:
            x = r.choice(same)
            sub = tuple(r.randint(1, d) for d in shape)
            return self.insert(self.ew([self.extract(x, sub)]), self.fill(shape, 0.25))
        return self.iota(shape)

    def op_branch(self):
        r = self.r
        if self.nest >= 2 or self.depth:
            return None
        switch = r.random() < 0.45
        b = r.randint(3, 4) if switch else 2
        d = self.selector(b)
        nres = 1 if r.random() < 0.7 else 2
        shapes = []
        for _ in range(nres):
            v = self.pick(lambda v: v.et == "f32" and len(v.shape) >= 1)
            shapes.append(v.shape if v is not None and r.random() < 0.8 else self.prog.rand_shape())
        tys = [tty(s) for s in shapes]
        n = self.fresh("br")
        lhs = n + (f":{nres}" if nres > 1 else "")
        if switch:
            self.emit(f"{lhs} = scf.index_switch {d} -> {', '.join(tys)}")
        else:
            one, cond = self.fresh("i"), self.fresh("cond")
            self.emit(f"{one} = arith.constant 1 : index")
            self.emit(f"{cond} = arith.cmpi eq, {d}, {one} : index")
            self.emit(f"{lhs} = scf.if {cond} -> ({', '.join(tys)}) {{")
        saved, ind = self.pool, self.ind
        self.nest += 1
        for k in range(b):
            if switch:
                self.ind = ind
                self.emit(f"case {k} {{" if k < b - 1 else "default {")
            elif k:
                self.ind = ind
                self.emit("} else {")
            self.ind = ind + "  "
            self.pool = list(saved)
            for _ in range(r.randint(0, 3)):
                v = getattr(self, r.choice(self.BRANCH_OPS))()
                if v is not None and nelems(v.shape) <= MAX_ELEMS:
                    self.pool.append(v)
            ys = []
            for s in shapes:
                if ys and s == shapes[0] and r.random() < 0.2:
                    ys.append(ys[0])       # the same buffer for two results
                else:
                    ys.append(self.branch_value(s))
            self.emit(f"scf.yield {', '.join(y.name for y in ys)} : {', '.join(tys)}")
            if switch:
                self.ind = ind
                self.emit("}")
        self.nest -= 1
        self.ind = ind
        if not switch:
            self.emit("}")
        self.pool = saved
        outs = [Val(n if nres == 1 else f"{n}#{i}", s) for i, s in enumerate(shapes)]
        for v in outs[:-1]:
            self.pool.append(v)
        return outs[-1]

    def body(self, nops, writes_arg=False):
        # At least one construct, then the usual mix (branches weighted up).
        for _ in range(self.r.randint(1, 2)):
            v = self.op_branch()
            if v is not None:
                self.pool.append(v)
        super().body(nops, writes_arg)

    def text(self):
        out = super().text()
        out[0] = out[0].replace(") -> (", (", " if self.args else "") + "%sel: index) -> (", 1)
        return out


class BProgram(Program):
    def __init__(self, seed):
        super().__init__(f"branchres:{seed}")
        self.seed = seed
        self.outcomes = 1

    def new_func(self, arg_shapes, depth, writes_arg=False):
        if depth:
            return super().new_func(arg_shapes, depth, writes_arg)
        f = BFunc(self, f"f{len(self.funcs)}", arg_shapes, depth)
        self.funcs.append(f)
        f.body(self.r.randint(3, 10), writes_arg)
        return f

    def main(self, top):
        out, args = init_lines(top.args)
        out.insert(0, "func.func @main() {")
        rs = top.results
        rty = ", ".join(v.ty for v in rs)
        for s in range(self.outcomes):
            out.append(f"  %sel{s} = arith.constant {s} : index")
            out.append(f"  %res{s}:{len(rs)} = call @{top.name}({', '.join(args + [f'%sel{s}'])}) : "
                       f"({', '.join([a.ty for a in top.args] + ['index'])}) -> ({rty})")
            for j, v in enumerate(rs):
                out += check_lines(f"{s}_{j}", f"%res{s}#{j}", v.shape, f"{s}.{j}")
        out.append("  return")
        out.append("}")
        return out


class _Kind(TensorKind):
    name = "branchres"
    order = 120
    summary = __doc__

    def generate(self, seed):
        return BProgram(seed).generate()

    batched = False      # issue-20 runs: the capacity comes from the program's own report

    def plan(self, ctx):
        ctx.issue20_runs()


KIND = _Kind()
