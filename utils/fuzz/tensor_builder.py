"""The tensor-level builder: random programs in linalg on tensors (Func: one function's body of
random ops; Program: functions calling each other and a @main that fills the inputs and prints a
checksum, a bit hash and the output of every result). The kinds `tensor`, `options` and
`branchres` build on it; One-Shot Bufferize turns them into what mplan plans."""
import random

from .builder import MAX_DIM, MAX_ELEMS, Val, fconst, idmap, nelems, tty
from .paths import INIT_FN


class Func:
    def __init__(self, prog, name, arg_shapes, depth):
        self.prog, self.name, self.depth = prog, name, depth
        self.r = prog.r
        self.lines = []
        self.n = 0
        self.args = [Val(f"%arg{i}", s) for i, s in enumerate(arg_shapes)]
        self.pool = list(self.args)
        self.ind = "  "
        self.loops = 0

    def fresh(self, h="v"):
        self.n += 1
        return f"%{h}{self.n}"

    def emit(self, s):
        self.lines.append(self.ind + s)

    def cst(self, v, et="f32"):
        n = self.fresh("c")
        if et.startswith("i"):
            self.emit(f"{n} = arith.constant {int(v)} : {et}")
        else:
            self.emit(f"{n} = arith.constant {fconst(v)} : {et}")
        return n

    def empty(self, shape, et="f32"):
        n = self.fresh("e")
        self.emit(f"{n} = tensor.empty() : {tty(shape, et)}")
        return Val(n, shape, et)

    def fill(self, shape, v, et="f32"):
        e = self.empty(shape, et)
        c = self.cst(v, et)
        n = self.fresh("f")
        self.emit(f"{n} = linalg.fill ins({c} : {et}) outs({e.name} : {e.ty}) -> {e.ty}")
        return Val(n, shape, et)

    def generic(self, ins, out_shape, out_et, body, maps=None, iters=None, init=None):
        """ins: list of Val; body(args, out) -> list of lines ending with the yielded value."""
        r = len(out_shape)
        maps = maps or [idmap(r)] * (len(ins) + 1)
        iters = iters or ["parallel"] * r
        init = init or self.empty(out_shape, out_et)
        n = self.fresh("g")
        ins_s = (f" ins({', '.join(v.name for v in ins)} : {', '.join(v.ty for v in ins)})"
                 if ins else "")
        self.emit(f"{n} = linalg.generic {{indexing_maps = [{', '.join(maps)}], iterator_types = "
                  f"[{', '.join(chr(34) + i + chr(34) for i in iters)}]}}{ins_s} outs({init.name} : "
                  f"{init.ty}) {{")
        bargs = [f"%b{i}" for i in range(len(ins))]
        self.emit("^bb0(" + ", ".join(f"{a}: {v.et}" for a, v in zip(bargs, ins)) +
                  (", " if ins else "") + f"%bo: {out_et}):")
        blines, res = body(bargs, "%bo")
        for l in blines:
            self.emit("  " + l)
        self.emit(f"  linalg.yield {res} : {out_et}")
        self.emit(f"}} -> {tty(out_shape, out_et)}")
        return Val(n, out_shape, out_et)

    # ---- elementwise bodies -------------------------------------------------------------
    def fbody(self, et, nin):
        """A random elementwise body over `nin` inputs of float type et."""
        r = self.r
        ops = []
        k = [0]

        def t():
            k[0] += 1
            return f"%t{k[0]}"

        def body(args, out):
            cur = args[0]
            lines = []
            for a in args[1:]:
                v = t()
                op = r.choice(["addf", "subf", "mulf", "maximumf", "minimumf"])
                lines.append(f"{v} = arith.{op} {cur}, {a} : {et}")
                cur = v
            for _ in range(r.randint(1, 3)):
                v = t()
                kind = r.randint(0, 4)
                if kind == 0:
                    c = t()
                    lines.append(f"{c} = arith.constant {fconst(r.choice([0.5, 0.75, -0.5, 1.25]))} : {et}")
                    lines.append(f"{v} = arith.mulf {cur}, {c} : {et}")
                elif kind == 1:
                    c = t()
                    lines.append(f"{c} = arith.constant {fconst(r.choice([0.125, -0.25, 1.0]))} : {et}")
                    lines.append(f"{v} = arith.addf {cur}, {c} : {et}")
                elif kind == 2:
                    c = t()
                    lines.append(f"{c} = arith.constant 0.0 : {et}")
                    lines.append(f"{v} = arith.maximumf {cur}, {c} : {et}")
                elif kind == 3:
                    # bounded: x / (1 + |x|)
                    a, o, d = t(), t(), t()
                    lines.append(f"{a} = math.absf {cur} : {et}")
                    lines.append(f"{o} = arith.constant 1.0 : {et}")
                    lines.append(f"{d} = arith.addf {a}, {o} : {et}")
                    lines.append(f"{v} = arith.divf {cur}, {d} : {et}")
                else:
                    lines.append(f"{v} = arith.negf {cur} : {et}")
                cur = v
            return lines, cur
        return body

    def ibody(self, nin):
        r = self.r

        def body(args, out):
            lines, cur, k = [], args[0], 0
            for a in args[1:]:
                k += 1
                lines.append(f"%t{k} = arith.{r.choice(['addi', 'subi', 'xori', 'maxsi'])} {cur}, {a} : i32")
                cur = f"%t{k}"
            k += 1
            lines.append(f"%t{k} = arith.constant {r.choice([3, 5, 7])} : i32")
            lines.append(f"%t{k + 1} = arith.{r.choice(['muli', 'addi', 'andi'])} {cur}, %t{k} : i32")
            k += 2
            lines.append(f"%t{k} = arith.constant 1023 : i32")
            lines.append(f"%t{k + 1} = arith.remsi %t{k - 1}, %t{k} : i32")
            return lines, f"%t{k + 1}"
        return body

    def ew(self, xs):
        et = xs[0].et
        body = self.ibody(len(xs)) if et == "i32" else self.fbody(et, len(xs))
        return self.generic(xs, xs[0].shape, et, body)

    def convert(self, x, et):
        """Elementwise type conversion between f32 and et."""
        src, dst = x.et, et
        if src == dst:
            return x

        def body(args, out):
            a = args[0]
            if src == "f32" and dst == "i32":
                return [f"%c = arith.constant 16.0 : f32", f"%m = arith.mulf {a}, %c : f32",
                        f"%r = arith.fptosi %m : f32 to i32"], "%r"
            if src == "i32":
                return [f"%r0 = arith.sitofp {a} : i32 to f32", "%c = arith.constant 6.25e-02 : f32",
                        "%r = arith.mulf %r0, %c : f32"], "%r"
            w = {"f16": 16, "f32": 32, "f64": 64}
            op = "extf" if w[dst] > w[src] else "truncf"
            return [f"%r = arith.{op} {a} : {src} to {dst}"], "%r"
        return self.generic([x], x.shape, dst, body)

    # ---- random ops ---------------------------------------------------------------------
    def pick(self, pred=lambda v: True):
        c = [v for v in self.pool if pred(v)]
        return self.r.choice(c) if c else None

    def same_shape(self, x):
        return [v for v in self.pool if v.shape == x.shape and v.et == x.et]

    def iota(self, shape, et="f32"):
        """A tensor whose values depend on the indices (no inputs)."""
        r = len(shape)
        mul = self.r.choice([0.01, 0.03, -0.02])

        def body(args, out):
            lines = ["%i0 = arith.constant 0 : index"]
            acc = "%i0"
            for d in range(r):
                lines.append(f"%x{d} = linalg.index {d} : index")
                lines.append(f"%k{d} = arith.constant {7 + 3 * d} : index")
                lines.append(f"%y{d} = arith.muli %x{d}, %k{d} : index")
                lines.append(f"%a{d} = arith.addi {acc}, %y{d} : index")
                acc = f"%a{d}"
            lines += [f"%ii = arith.index_cast {acc} : index to i64",
                      f"%fi = arith.sitofp %ii : i64 to {et}",
                      f"%m = arith.constant {fconst(mul)} : {et}",
                      f"%r = arith.mulf %fi, %m : {et}"]
            return lines, "%r"
        return self.generic([], shape, et, body)

    def op_unary(self):
        x = self.pick()
        return self.ew([x])

    def op_binary(self):
        x = self.pick()
        ys = self.same_shape(x)
        y = self.r.choice(ys) if ys and self.r.random() < 0.8 else (
            self.iota(x.shape, x.et) if x.et != "i32" else x)
        return self.ew([x, y])

    def op_matmul(self):
        x = self.pick(lambda v: len(v.shape) == 2 and v.et != "f16")
        if x is None:
            return None
        m, k = x.shape
        cands = [v for v in self.pool if len(v.shape) == 2 and v.shape[0] == k and v.et == x.et]
        if cands and self.r.random() < 0.6:
            b = self.r.choice(cands)
        else:
            nn = self.r.randint(2, 16)
            b = self.iota((k, nn), x.et) if x.et != "i32" else self.fill((k, nn), 1, "i32")
        n = b.shape[1]
        if m * n > MAX_ELEMS:
            return None
        z = self.fill((m, n), 0, x.et)
        name = self.fresh("mm")
        self.emit(f"{name} = linalg.matmul ins({x.name}, {b.name} : {x.ty}, {b.ty}) outs({z.name} : {z.ty}) -> {z.ty}")
        return Val(name, (m, n), x.et)

    def op_pad(self):
        x = self.pick(lambda v: len(v.shape) >= 1)
        lo = [self.r.randint(0, 2) for _ in x.shape]
        hi = [self.r.randint(0, 2) for _ in x.shape]
        shape = tuple(d + a + b for d, a, b in zip(x.shape, lo, hi))
        if nelems(shape) > MAX_ELEMS:
            return None
        c = self.cst(self.r.choice([0, 1, -1]), x.et)
        n = self.fresh("pad")
        idx = ", ".join(f"%p{i}: index" for i in range(len(x.shape)))
        self.emit(f"{n} = tensor.pad {x.name} low[{', '.join(map(str, lo))}] high[{', '.join(map(str, hi))}] {{")
        self.emit(f"^bb0({idx}):")
        self.emit(f"  tensor.yield {c} : {x.et}")
        self.emit(f"}} : {x.ty} to {tty(shape, x.et)}")
        return Val(n, shape, x.et)

    def op_concat(self):
        x = self.pick(lambda v: len(v.shape) >= 1)
        d = self.r.randrange(len(x.shape))
        parts = [x]
        for _ in range(self.r.randint(1, 2)):
            cands = [v for v in self.pool if v.et == x.et and len(v.shape) == len(x.shape) and
                     all(a == b for i, (a, b) in enumerate(zip(v.shape, x.shape)) if i != d)]
            parts.append(self.r.choice(cands))
        shape = list(x.shape)
        shape[d] = sum(p.shape[d] for p in parts)
        if nelems(shape) > MAX_ELEMS:
            return None
        n = self.fresh("cat")
        self.emit(f"{n} = tensor.concat dim({d}) {', '.join(p.name for p in parts)} : "
                  f"({', '.join(p.ty for p in parts)}) -> {tty(shape, x.et)}")
        return Val(n, shape, x.et)

    def insert(self, x, dst, offs=None):
        if offs is None:
            offs = [self.r.randint(0, D - d) for d, D in zip(x.shape, dst.shape)]
        n = self.fresh("ins")
        self.emit(f"{n} = tensor.insert_slice {x.name} into {dst.name}[{', '.join(map(str, offs))}] "
                  f"[{', '.join(map(str, x.shape))}] [{', '.join('1' for _ in x.shape)}] : {x.ty} into {dst.ty}")
        return Val(n, dst.shape, dst.et)

    def op_insert_empty(self):
        x = self.pick(lambda v: len(v.shape) >= 1)
        shape = tuple(d + self.r.randint(0, 3) for d in x.shape)
        if nelems(shape) > MAX_ELEMS:
            return None
        if shape == x.shape or self.r.random() < 0.7:
            dst = self.fill(shape, self.r.choice([0, 2]), x.et)
        else:
            # Unfilled destination is only allowed when the slice covers it.
            dst = self.empty(x.shape, x.et)
        return self.insert(x, dst)

    def op_insert_two(self):
        """Two slices into one empty tensor, covering it (concat by hand)."""
        x = self.pick(lambda v: len(v.shape) >= 1)
        d = self.r.randrange(len(x.shape))
        shape = list(x.shape)
        shape[d] *= 2
        if nelems(shape) > MAX_ELEMS:
            return None
        y = self.ew([x])
        dst = self.empty(shape, x.et)
        offs2 = [0] * len(shape)
        offs2[d] = x.shape[d]
        return self.insert(y, self.insert(x, dst, [0] * len(shape)), offs2)

    def op_insert_into(self):
        """insert_slice of a small tensor into an existing (non-argument) value."""
        x = self.pick(lambda v: len(v.shape) >= 1 and max(v.shape) >= 2)
        if x is None:
            return None
        sub = tuple(self.r.randint(1, d) for d in x.shape)
        src = self.fill(sub, 3, x.et) if self.r.random() < 0.5 else self.extract(x, sub)
        return self.insert(src, x)

    def extract(self, x, sub, strides=None):
        strides = strides or [1] * len(sub)
        offs = [self.r.randint(0, D - ((s - 1) * st + 1)) for s, D, st in zip(sub, x.shape, strides)]
        n = self.fresh("ex")
        self.emit(f"{n} = tensor.extract_slice {x.name}[{', '.join(map(str, offs))}] "
                  f"[{', '.join(map(str, sub))}] [{', '.join(map(str, strides))}] : {x.ty} to {tty(sub, x.et)}")
        return Val(n, sub, x.et)

    def op_extract(self):
        x = self.pick(lambda v: len(v.shape) >= 1 and max(v.shape) >= 2)
        if x is None:
            return None
        strides = [self.r.choice([1, 1, 2]) if d >= 3 else 1 for d in x.shape]
        sub = tuple(self.r.randint(1, (d - 1) // st + 1) for d, st in zip(x.shape, strides))
        return self.extract(x, sub, strides)

    def op_expand(self):
        x = self.pick(lambda v: 1 <= len(v.shape) <= 2 and any(d % 2 == 0 for d in v.shape))
        if x is None:
            return None
        ds = [i for i, d in enumerate(x.shape) if d % 2 == 0]
        d = self.r.choice(ds)
        shape, reassoc, j = [], [], 0
        for i, s in enumerate(x.shape):
            if i == d:
                shape += [2, s // 2]
                reassoc.append([j, j + 1])
                j += 2
            else:
                shape.append(s)
                reassoc.append([j])
                j += 1
        n = self.fresh("xp")
        self.emit(f"{n} = tensor.expand_shape {x.name} {reassoc} output_shape [{', '.join(map(str, shape))}] : "
                  f"{x.ty} into {tty(shape, x.et)}")
        return Val(n, shape, x.et)

    def op_collapse(self):
        x = self.pick(lambda v: len(v.shape) >= 2)
        if x is None:
            return None
        d = self.r.randrange(len(x.shape) - 1)
        shape, reassoc, j = [], [], 0
        i = 0
        while i < len(x.shape):
            if i == d:
                shape.append(x.shape[i] * x.shape[i + 1])
                reassoc.append([i, i + 1])
                i += 2
            else:
                shape.append(x.shape[i])
                reassoc.append([i])
                i += 1
        n = self.fresh("cl")
        self.emit(f"{n} = tensor.collapse_shape {x.name} {reassoc} : {x.ty} into {tty(shape, x.et)}")
        return Val(n, shape, x.et)

    def op_transpose(self):
        x = self.pick(lambda v: len(v.shape) >= 2)
        if x is None:
            return None
        perm = list(range(len(x.shape)))
        while perm == sorted(perm):
            self.r.shuffle(perm)
        shape = tuple(x.shape[p] for p in perm)
        e = self.empty(shape, x.et)
        n = self.fresh("tr")
        self.emit(f"{n} = linalg.transpose ins({x.name} : {x.ty}) outs({e.name} : {e.ty}) permutation = {perm}")
        return Val(n, shape, x.et)

    def op_reduce(self):
        x = self.pick(lambda v: len(v.shape) >= 2 and v.et in ("f32", "f64"))
        if x is None:
            return None
        r = len(x.shape)
        d = self.r.randrange(r)
        oshape = tuple(s for i, s in enumerate(x.shape) if i != d)
        init = self.fill(oshape, 0, x.et)
        dims = ", ".join(f"d{i}" for i in range(r))
        omap = f"affine_map<({dims}) -> ({', '.join(f'd{i}' for i in range(r) if i != d)})>"
        iters = ["reduction" if i == d else "parallel" for i in range(r)]
        op = self.r.choice(["addf", "maximumf"])
        et = x.et
        return self.generic([x], oshape, et, lambda a, o: ([f"%s = arith.{op} {a[0]}, {o} : {et}"], "%s"),
                            maps=[idmap(r), omap], iters=iters, init=init)

    def op_dynamic(self, x=None):
        """Elementwise op on a dynamically shaped view of x (unplannable buffers)."""
        x = x or self.pick(lambda v: v.et == "f32" and len(v.shape) >= 1)
        if x is None:
            return None
        d0 = self.fresh("i")
        dd = self.fresh("dim")
        dty = "tensor<?" + "".join(f"x{d}" for d in x.shape[1:]) + "xf32>"
        c = self.fresh("dyn")
        self.emit(f"{d0} = arith.constant 0 : index")
        self.emit(f"{c} = tensor.cast {x.name} : {x.ty} to {dty}")
        self.emit(f"{dd} = tensor.dim {c}, {d0} : {dty}")
        e = self.fresh("e")
        self.emit(f"{e} = tensor.empty({dd}) : {dty}")
        g = self.fresh("g")
        r = len(x.shape)
        self.emit(f"{g} = linalg.generic {{indexing_maps = [{idmap(r)}, {idmap(r)}], iterator_types = "
                  f"[{', '.join(chr(34) + 'parallel' + chr(34) for _ in range(r))}]}} ins({c} : {dty}) "
                  f"outs({e} : {dty}) {{")
        self.emit("^bb0(%b0: f32, %bo: f32):")
        lines, res = self.fbody("f32", 1)(["%b0"], "%bo")
        for l in lines:
            self.emit("  " + l)
        self.emit(f"  linalg.yield {res} : f32")
        self.emit(f"}} -> {dty}")
        n = self.fresh("st")
        self.emit(f"{n} = tensor.cast {g} : {dty} to {x.ty}")
        return Val(n, x.shape, "f32")

    def op_broadcast(self):
        x = self.pick(lambda v: 1 <= len(v.shape) <= 2)
        if x is None:
            return None
        d = self.r.randint(0, len(x.shape))
        k = self.r.randint(2, 4)
        shape = list(x.shape)
        shape.insert(d, k)
        if nelems(shape) > MAX_ELEMS:
            return None
        e = self.empty(shape, x.et)
        n = self.fresh("bc")
        self.emit(f"{n} = linalg.broadcast ins({x.name} : {x.ty}) outs({e.name} : {e.ty}) dimensions = [{d}]")
        return Val(n, shape, x.et)

    def op_fill_combine(self):
        x = self.pick()
        f = self.fill(x.shape, self.r.choice([0.5, 2, -1]) if x.et != "i32" else 3, x.et)
        return self.ew([x, f])

    def op_typed(self):
        """A segment in i32, f64 or f16, converted back to f32."""
        x = self.pick(lambda v: v.et == "f32")
        if x is None:
            return None
        et = self.r.choice(["i32", "f64", "f16"])
        y = self.convert(x, et)
        self.pool.append(y)
        for _ in range(self.r.randint(1, 3)):
            y = self.r.choice([self.op_unary, self.op_binary, self.op_matmul])() or y
            self.pool.append(y)
        y = self.pick(lambda v: v.et == et)
        return self.convert(y, "f32")

    def for_header(self, x, ub):
        """Emits `scf.for 0 to ub` carrying x; returns (induction variable, iter_arg, result)."""
        c0, c1, cn = self.fresh("i"), self.fresh("i"), self.fresh("i")
        self.emit(f"{c0} = arith.constant 0 : index")
        self.emit(f"{c1} = arith.constant 1 : index")
        self.emit(f"{cn} = arith.constant {ub} : index")
        iv, it, n = self.fresh("iv"), self.fresh("it"), self.fresh("for")
        self.emit(f"{n} = scf.for {iv} = {c0} to {cn} step {c1} iter_args({it} = {x.name}) -> ({x.ty}) {{")
        return iv, it, n

    def op_for(self):
        x = self.pick(lambda v: v.et in ("f32", "f64"))
        if x is None:
            return None
        iv, it, n = self.for_header(x, self.r.randint(1, 4))
        saved_pool, saved_ind = self.pool, self.ind
        self.ind += "  "
        cur = Val(it, x.shape, x.et)
        self.pool = [cur] + [v for v in saved_pool]
        et = x.et
        # An index-dependent step, so iterations differ.
        ivf = self.fresh("ivf")
        ivi = self.fresh("ivi")
        self.emit(f"{ivi} = arith.index_cast {iv} : index to i64")
        self.emit(f"{ivf} = arith.sitofp {ivi} : i64 to {et}")
        y = self.generic([cur], x.shape, et,
                         lambda a, o: ([f"%m = arith.constant 0.5 : {et}", f"%h = arith.mulf {a[0]}, %m : {et}",
                                        f"%s = arith.addf %h, {ivf} : {et}"], "%s"))
        self.pool.append(y)
        self.loops += 1
        for _ in range(self.r.randint(0, 3)):
            k = self.r.randint(0, 5)
            if k == 4:
                # A call or a nested loop in the body; its result is combined with y if the
                # shapes agree.
                v = self.op_call() if self.r.random() < 0.5 else (
                    self.op_for() if self.loops < 2 else None)
                if v is not None:
                    self.pool.append(v)
                    if v.shape == y.shape and v.et == y.et:
                        y = self.ew([y, v])
                continue
            if k == 5:
                y = self.op_dynamic(y) if y.et == "f32" else y
                continue
            if k == 0:
                y = self.ew([y])
            elif k == 1 and len(y.shape) >= 1 and max(y.shape) >= 2:
                sub = tuple(self.r.randint(1, d) for d in y.shape)
                s = self.ew([self.extract(y, sub)])
                y = self.insert(s, y)
            elif k == 2:
                ys = [v for v in self.same_shape(y)]
                y = self.ew([y, self.r.choice(ys)])
            else:
                t = self.op_transpose() if len(y.shape) == 2 and y.shape[0] == y.shape[1] else None
                if t is not None and t.shape == y.shape and t.et == y.et:
                    y = self.ew([y, t])
            self.pool.append(y)
        # One-Shot Bufferize needs the yielded tensor equivalent to the iter_arg: the last op
        # writes into it (outs or insert_slice destination).
        if self.r.random() < 0.7 or not y.shape:
            y = self.generic([y], x.shape, et, self.fbody(et, 1), init=cur)
        else:
            y = self.insert(self.ew([y]), cur)
        self.loops -= 1
        self.emit(f"scf.yield {y.name} : {y.ty}")
        self.ind = saved_ind
        self.emit(f"}}")
        self.pool = saved_pool
        return Val(n, x.shape, x.et)

    def op_if(self):
        x = self.pick(lambda v: v.et == "f32" and len(v.shape) >= 1)
        if x is None:
            return None
        z = self.fresh("i")
        self.emit(f"{z} = arith.constant 0 : index")
        e = self.fresh("elt")
        self.emit(f"{e} = tensor.extract {x.name}[{', '.join(z for _ in x.shape)}] : {x.ty}")
        c0 = self.cst(0.0)
        cond = self.fresh("cond")
        self.emit(f"{cond} = arith.cmpf {self.r.choice(['ogt', 'olt'])}, {e}, {c0} : f32")
        n = self.fresh("if")
        self.emit(f"{n} = scf.if {cond} -> ({x.ty}) {{")
        saved, ind = self.pool, self.ind
        self.ind += "  "
        for branch in range(2):
            if branch:
                self.emit("} else {")
            self.pool = list(saved)
            k = self.r.randint(0, 3)
            if k == 0:
                y = self.ew([x])
            elif k == 1:
                y = x  # yield the operand itself
            elif k == 2:
                y = self.fill(x.shape, 1.5)
            else:
                sub = tuple(self.r.randint(1, d) for d in x.shape)
                y = self.insert(self.ew([self.extract(x, sub)]), x)
            self.emit(f"scf.yield {y.name} : {y.ty}")
        self.ind = ind
        self.emit("}")
        self.pool = saved
        return Val(n, x.shape, x.et)

    def op_call(self):
        if self.depth >= 2:
            return None
        nargs = self.r.randint(1, 2)
        args = [self.pick(lambda v: v.et == "f32") for _ in range(nargs)]
        if any(a is None for a in args):
            return None
        writes = self.r.random() < 0.4
        callee = self.prog.new_func([a.shape for a in args], self.depth + 1, writes_arg=writes)
        res = self.fresh("call")
        rs = callee.results
        rty = ", ".join(v.ty for v in rs)
        self.emit(f"{res}{':' + str(len(rs)) if len(rs) > 1 else ''} = func.call @{callee.name}("
                  f"{', '.join(a.name for a in args)}) : ({', '.join(a.ty for a in args)}) -> "
                  f"{'(' + rty + ')' if len(rs) > 1 else rty}")
        out = [Val(res if len(rs) == 1 else f"{res}#{i}", v.shape, v.et) for i, v in enumerate(rs)]
        for v in out[:-1]:
            self.pool.append(v)
        return out[-1]

    OPS = [("op_unary", 4), ("op_binary", 5), ("op_matmul", 3), ("op_pad", 2), ("op_concat", 2),
           ("op_insert_empty", 2), ("op_insert_two", 1), ("op_insert_into", 2), ("op_extract", 3),
           ("op_expand", 2), ("op_collapse", 2), ("op_transpose", 2), ("op_reduce", 2),
           ("op_fill_combine", 1), ("op_typed", 1), ("op_for", 2), ("op_if", 2), ("op_call", 2),
           ("op_dynamic", 1), ("op_broadcast", 1)]

    def body(self, nops, writes_arg=False):
        names = [o for o, _ in self.OPS]
        weights = [w for _, w in self.OPS]
        for _ in range(nops):
            op = self.r.choices(names, weights)[0]
            if self.depth >= 1 and op == "op_call":
                op = "op_unary"
            v = getattr(self, op)()
            if v is not None:
                if nelems(v.shape) > MAX_ELEMS or any(d > 4 * MAX_DIM for d in v.shape):
                    continue
                self.pool.append(v)
        results = []
        nres = 2 if self.depth >= 1 and self.r.random() < 0.3 else 1
        cands = [v for v in self.pool if v.et == "f32" and len(v.shape) >= 1 and v not in self.args]
        if not cands:
            cands = [self.ew([self.pick(lambda v: v.et == "f32")])]
        last = [v for v in cands][-1]
        results.append(last)
        if nres == 2:
            k = self.r.randint(0, 3)
            if k == 0 and self.depth >= 1:
                results.insert(0, self.args[0])  # an argument returned unchanged
            elif k == 1 and max(self.args[0].shape) >= 2:
                a = self.args[0]
                results.insert(0, self.extract(a, tuple(self.r.randint(1, d) for d in a.shape)))
            else:
                results.insert(0, self.r.choice(cands))  # possibly the same value twice
        if writes_arg and self.r.random() < 0.3:
            # Write into the first argument from a loop carrying it.
            a = self.args[0]
            iv, it, n = self.for_header(a, self.r.randint(1, 3))
            ind = self.ind
            self.ind += "  "
            cur = Val(it, a.shape)
            sub = tuple(self.r.randint(1, d) for d in a.shape)
            t = self.ew([self.extract(cur, sub)])
            y = self.insert(t, cur)
            self.emit(f"scf.yield {y.name} : {y.ty}")
            self.ind = ind
            self.emit("}")
            results.insert(0, Val(n, a.shape))
        elif writes_arg:
            # Write into the first argument and return it.
            a = self.args[0]
            src = [v for v in self.pool if v.et == "f32" and len(v.shape) == len(a.shape) and
                   all(s <= d for s, d in zip(v.shape, a.shape)) and v is not a]
            s = self.r.choice(src) if src else self.fill(a.shape, 0.25)
            if not src:
                self.pool.append(s)
            results.insert(0, self.insert(s, a))
        self.results = results

    def text(self):
        sig = ", ".join(f"{a.name}: {a.ty}" for a in self.args)
        rty = ", ".join(v.ty for v in self.results)
        out = [f"func.func @{self.name}({sig}) -> ({rty}) {{"]
        out += self.lines
        out.append(f"  return {', '.join(v.name for v in self.results)} : {rty}")
        out.append("}")
        return out


def init_lines(vals):
    """Lines of a @main that fill one f32 tensor per Val of vals deterministically; returns
    (lines, names)."""
    out, args = [], []
    for i, a in enumerate(vals):
        n = nelems(a.shape)
        out.append(f"  %n{i} = arith.constant {n} : index")
        out.append(f"  %seed{i} = arith.constant {17 + 31 * i} : index")
        out.append(f"  %k{i} = arith.constant 1.0 : f32")
        out.append(f"  %o{i} = arith.constant 0.0 : f32")
        out.append(f"  %raw{i} = call @mplan_init_sin(%n{i}, %seed{i}, %k{i}, %o{i}) : "
                   f"(index, index, f32, f32) -> tensor<?xf32>")
        out.append(f"  %flat{i} = tensor.cast %raw{i} : tensor<?xf32> to tensor<{n}xf32>")
        if len(a.shape) == 1:
            args.append(f"%flat{i}")
        else:
            out.append(f"  %in{i} = tensor.expand_shape %flat{i} [{list(range(len(a.shape)))}] "
                       f"output_shape [{', '.join(map(str, a.shape))}] : tensor<{n}xf32> into {a.ty}")
            args.append(f"%in{i}")
    return out, args


def check_lines(j, val, shape, label):
    """Lines of a @main (tensor level) that print the sum and a position-weighted bit hash of the
    f32 tensor `val` (and the values themselves when small); j makes the names unique."""
    n = nelems(shape)
    ty = tty(shape)
    out = []
    if len(shape) > 1:
        out.append(f"  %rf{j} = tensor.collapse_shape {val} [{list(range(len(shape)))}] : "
                   f"{ty} into tensor<{n}xf32>")
    else:
        out.append(f"  %rf{j} = tensor.cast {val} : {ty} to tensor<{n}xf32>")
    out += [
        f"  %z{j} = arith.constant 0.0 : f32",
        f"  %zi{j} = arith.constant 0 : i32",
        f"  %a{j} = tensor.empty() : tensor<f32>",
        f"  %af{j} = linalg.fill ins(%z{j} : f32) outs(%a{j} : tensor<f32>) -> tensor<f32>",
        f"  %b{j} = tensor.empty() : tensor<i32>",
        f"  %bf{j} = linalg.fill ins(%zi{j} : i32) outs(%b{j} : tensor<i32>) -> tensor<i32>",
        f"  %red{j}:2 = linalg.generic {{indexing_maps = [affine_map<(d0) -> (d0)>, "
        f"affine_map<(d0) -> ()>, affine_map<(d0) -> ()>], iterator_types = [\"reduction\"]}} "
        f"ins(%rf{j} : tensor<{n}xf32>) outs(%af{j}, %bf{j} : tensor<f32>, tensor<i32>) {{",
        "  ^bb0(%x: f32, %s: f32, %h: i32):",
        "    %i = linalg.index 0 : index",
        "    %c31 = arith.constant 31 : index",
        "    %c1 = arith.constant 1 : index",
        "    %i31 = arith.remui %i, %c31 : index",
        "    %i31p = arith.addi %i31, %c1 : index",
        "    %hw = arith.index_cast %i31p : index to i32",
        "    %s2 = arith.addf %s, %x : f32",
        "    %bits = arith.bitcast %x : f32 to i32",
        "    %bm = arith.muli %bits, %hw : i32",
        "    %h2 = arith.addi %h, %bm : i32",
        "    linalg.yield %s2, %h2 : f32, i32",
        "  } -> (tensor<f32>, tensor<i32>)",
        f"  %vs{j} = tensor.extract %red{j}#0[] : tensor<f32>",
        f"  %vh{j} = tensor.extract %red{j}#1[] : tensor<i32>",
        f"  vector.print str \"result {label} {'x'.join(map(str, shape))} sum \"",
        f"  vector.print %vs{j} : f32",
        "  vector.print str \"hash \"",
        f"  vector.print %vh{j} : i32",
    ]
    if n <= 256:
        out.append(f"  %pr{j} = tensor.cast %rf{j} : tensor<{n}xf32> to tensor<*xf32>")
        out.append(f"  call @printMemrefF32(%pr{j}) : (tensor<*xf32>) -> ()")
    return out


class Program:
    def __init__(self, seed):
        self.r = random.Random(seed)
        self.seed = seed
        self.funcs = []

    def new_func(self, arg_shapes, depth, writes_arg=False):
        f = Func(self, f"f{len(self.funcs)}", arg_shapes, depth)
        self.funcs.append(f)
        if depth:
            nops = self.r.randint(2, 6)
        else:
            nops = self.r.randint(12, 30) if self.r.random() < 0.25 else self.r.randint(4, 12)
        f.body(nops, writes_arg)
        return f

    def rand_shape(self):
        rank = self.r.choice([1, 2, 2, 2, 3])
        while True:
            s = tuple(self.r.randint(1, 12) for _ in range(rank))
            if nelems(s) <= 512:
                return s

    def generate(self):
        nin = self.r.randint(1, 3)
        shapes = [self.rand_shape() for _ in range(nin)]
        if nin >= 2 and self.r.random() < 0.5:
            shapes[1] = shapes[0]
        top = self.new_func(shapes, 0)
        lines = [f"// mplan fuzz program, seed {self.seed}; generated by utils/fuzz_pipeline.py", ""]
        for f in self.funcs:
            lines += f.text()
            lines.append("")
        lines += INIT_FN.rstrip("\n").split("\n")
        lines.append("")
        lines.append("func.func private @printMemrefF32(tensor<*xf32>)")
        lines.append("")
        lines += self.main(top)
        return "\n".join(lines) + "\n"

    def main(self, top):
        out, args = init_lines(top.args)
        out.insert(0, "func.func @main() {")
        rs = top.results
        rty = ", ".join(v.ty for v in rs)
        out.append(f"  %res:{len(rs)} = call @{top.name}({', '.join(args)}) : "
                   f"({', '.join(a.ty for a in top.args)}) -> ({rty})")
        for j, v in enumerate(rs):
            out += check_lines(j, f"%res#{j}", v.shape, str(j))
        out.append("  return")
        out.append("}")
        return out
