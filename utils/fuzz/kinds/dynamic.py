"""Kind `dynamic`: dynamically shaped buffers (issue 15): 1-3 functions with index and memref<?xf32> /
memref<?x4xf32> arguments called at several sizes; unbounded, bounded (mplan.upper_bound,
mplan.dim_upper_bounds, mplan.arg_upper_bound, affine.min) and not plannable sizes; see
the generator's docstring."""
from ..builder import MBuf, MemrefProgram, MF, mty
from ..kind import Cfg, MemrefKind, random_cfgs


class Program(MemrefProgram):
    def generate(self):
        """Functions with index and memref<?x..> arguments, called from @main at several sizes
        (0, 1, small, large, the stated bound), allocating dynamically shaped buffers whose sizes
        are unbounded (arguments, memref.dim of arguments or of another dynamic alloc, arithmetic
        on them), bounded (affine.min clamps, mplan.upper_bound / mplan.dim_upper_bounds /
        mplan.arg_upper_bound; the runs add arg-upper-bound=N) or not plannable (memref.load,
        a loop induction variable), next to static ones; in scf.for bodies and scf.if branches,
        through subviews, collapse/expand_shape, casts, arith.select, memref.copy, linalg.fill,
        generic and map; one returned (unmanaged). Every buffer's sum and weighted sum goes to
        an output @main prints, so an overlap shows."""
        r = self.r
        self.arenas = []
        self.dyn_max_arg = 1          # largest size an argument without a bound attribute gets
        self.dyn_returns = []         # functions returning a buffer they allocate
        F32S = "memref<?xf32, strided<[1]>>"
        # The dynamic dimensions of the allocated types: a memref.dim of one sizes another buffer.
        DYN_DIMS = {"memref<?xf32>": [0], "memref<?x4xf32>": [0], "memref<3x?xf32>": [1],
                    "memref<?x?xf32>": [0, 1]}
        main = []
        descs = []                    # earlier functions, for calls between them
        nid = [0]
        nfun = r.randint(1, 3)
        for fi in range(nfun):
            fname = f"d{fi}"
            f = MF(self, fname)
            fattr = r.choice([None, None, None, r.choice([4, 16, 64, 300])])
            # index arguments: (name, own bound or None)
            idx_args = []
            for k in range(r.randint(1, 3)):
                ob = r.choice([4, 16, 64, 300]) if r.random() < 0.3 else None
                idx_args.append((f"%n{k}", ob))
            # memref arguments: (name, rank-2 (?x4) or 1-D, own bound on dimension 0)
            mem_args = []
            for k in range(r.choice([0, 1, 1, 2])):
                ob = r.choice([4, 16, 64]) if r.random() < 0.3 else None
                mem_args.append((f"%a{k}", r.random() < 0.35, ob))
            use_sz = r.random() < 0.4
            # Only run-time sized buffers sized by index arguments (no static buffer, no
            # size computed in the function): nothing is inserted at the entry block's start
            # before planning reaches them (a slab, clones of sizes).
            only_args = r.random() < 0.2
            ret = r.random() < 0.3
            slots = [0]
            f.emit("%c0 = arith.constant 0 : index")
            f.emit("%c1 = arith.constant 1 : index")
            f.emit("%zf = arith.constant 0.0 : f32")

            class B:
                def __init__(s, flat, fty, root=None, rty=None, local=True, rows=None, dyn=True):
                    s.flat, s.fty, s.root, s.rty = flat, fty, root, rty
                    s.local, s.rows, s.dyn = local, rows, dyn

            def dim(b):
                d = f.fresh("d")
                f.emit(f"{d} = memref.dim {b.flat}, %c0 : {b.fty}")
                return d

            def minui(vals):
                cur = vals[0]
                for v in vals[1:]:
                    m = f.fresh("mn")
                    f.emit(f"{m} = arith.minui {cur}, {v} : index")
                    cur = m
                return cur

            def sub(b, m):
                s = f.fresh("sv")
                f.emit(f"{s} = memref.subview {b.flat}[0] [{m}] [1] : {b.fty} to {F32S}")
                return MBuf(s, 0, ty=F32S)

            def checksum(b):
                """out[slot] += sum(b), out[slot+1] += sum(b[i] * (i mod 7 + 1))."""
                sl = slots[0]
                slots[0] += 2
                n = dim(b)
                s, h, i = f.fresh("cs"), f.fresh("ch"), f.fresh("ci")
                res = f.fresh("cr")
                f.emit(f"{res}:2 = scf.for {i} = %c0 to {n} step %c1 iter_args({s} = %zf, {h} = %zf) "
                       f"-> (f32, f32) {{")
                x, s2, w, w1, wi, wf, xw, h2 = (f.fresh("cx") for _ in range(8))
                for l in [f"{x} = memref.load {b.flat}[{i}] : {b.fty}", f"{s2} = arith.addf {s}, {x} : f32",
                          f"{w} = arith.remui {i}, {c7()} : index",
                          f"{w1} = arith.addi {w}, %c1 : index", f"{wi} = arith.index_cast {w1} : index to i32",
                          f"{wf} = arith.sitofp {wi} : i32 to f32", f"{xw} = arith.mulf {x}, {wf} : f32",
                          f"{h2} = arith.addf {h}, {xw} : f32", f"scf.yield {s2}, {h2} : f32, f32"]:
                    f.emit("  " + l)
                f.emit("}")
                for j, v in ((0, f"{res}#0"), (1, f"{res}#1")):
                    p, o, q = f.fresh("cp"), f.fresh("co"), f.fresh("cq")
                    f.emit(f"{p} = arith.constant {sl + j} : index")
                    f.emit(f"{o} = memref.load %out[{p}] : OUT_TY")
                    f.emit(f"{q} = arith.addf {o}, {v} : f32")
                    f.emit(f"memref.store {q}, %out[{p}] : OUT_TY")

            c7s = []

            def c7():
                if not c7s:
                    f.lines.insert(0, f.ind + "%c7 = arith.constant 7 : index")
                    c7s.append(1)
                return "%c7"

            def argdim(name, two):
                d = f.fresh("ad")
                f.emit(f"{d} = memref.dim {name}, %c0 : {'memref<?x4xf32>' if two else 'memref<?xf32>'}")
                return d

            def size(live, iv=None, allow_np=True):
                """An index value for a dynamic size; (value, how)."""
                if only_args:
                    return r.choice(idx_args)[0], "arg"
                opts = ["arg", "arg", "arith", "clamp"]
                if mem_args:
                    opts += ["argdim", "argdim"]
                roots = [b for b in live if b.local and b.dyn and b.root and b.rty in DYN_DIMS]
                if roots:
                    opts.append("allocdim")
                if allow_np and use_sz:
                    opts += ["load", "load"]
                if allow_np and iv:
                    opts += ["iv", "iv", "iv"]
                how = r.choice(opts)

                def base():
                    if mem_args and r.random() < 0.3:
                        a = r.choice(mem_args)
                        return argdim(a[0], a[1])
                    return r.choice(idx_args)[0]
                if how == "arg":
                    return r.choice(idx_args)[0], how
                if how == "argdim":
                    a = r.choice(mem_args)
                    return argdim(a[0], a[1]), how
                if how in ("allocdim", "load", "iv", "clamp"):
                    if how == "allocdim":
                        b = r.choice(roots)
                        rhs = f"memref.dim {b.root}, {f.idx(r.choice(DYN_DIMS[b.rty]))} : {b.rty}"
                    elif how == "load":
                        rhs = f"memref.load %sz[{f.idx(r.randrange(4))}] : memref<4xindex>"
                    elif how == "iv":
                        rhs = f"arith.addi {iv}, {r.choice(['%c0', '%c1'])} : index"
                    else:
                        rhs = f"affine.min affine_map<(d0) -> (d0, {r.choice([1, 5, 17, 40])})>({base()})"
                    d = f.fresh("sz")
                    f.emit(f"{d} = {rhs}")
                    return d, how
                a, d = base(), f.fresh("ar")
                k = r.randrange(6)
                if k == 0:
                    f.emit(f"{d} = affine.apply affine_map<(d0) -> (d0 * 2 + 1)>({a})")
                elif k == 1:
                    f.emit(f"{d} = arith.addi {a}, {f.idx(r.randint(1, 9))} : index")
                elif k == 2:
                    f.emit(f"{d} = arith.muli {a}, {f.idx(r.choice([2, 3]))} : index")
                elif k == 3:
                    f.emit(f"{d} = arith.maxui {a}, {base()} : index")
                elif k == 4:
                    f.emit(f"{d} = arith.divui {a}, {f.idx(2)} : index")
                else:
                    b2, c = base(), f.fresh("cmp")
                    f.emit(f"{c} = arith.cmpi ult, {a}, {b2} : index")
                    f.emit(f"{d} = arith.select {c}, {a}, {b2} : index")
                return d, how

            def init(b):
                k = r.random()
                if k < 0.7:
                    f.iota(MBuf(b.flat, 0, ty=b.fty))
                else:
                    f.emit(f"linalg.fill ins({f.cf(r.choice([0.5, -1.25, 3.0]))} : f32) "
                           f"outs({b.flat} : {b.fty})")

            def alloc(live, iv=None):
                shape = r.choices(["1d", "x4", "3x", "2d", "static", "e4"], [5, 2, 1, 1, 2, 1])[0]
                if only_args:
                    shape = "1d"
                if shape == "static":
                    k = r.randint(1, 64)
                    m = f.fresh("st")
                    ty = mty(k)
                    f.emit(f"{m} = memref.alloc() : {ty}")
                    if r.random() < 0.5:
                        c = f.fresh("sc")
                        f.emit(f"{c} = memref.cast {m} : {ty} to memref<?xf32>")
                        b = B(c, "memref<?xf32>", m, ty, dyn=False)
                    else:
                        b = B(m, ty, m, ty, dyn=False)
                    init(b)
                    return b
                s, _ = size(live, iv)
                m = f.fresh("dm")
                if shape == "1d":
                    f.emit(f"{m} = memref.alloc({s}) : memref<?xf32>")
                    b = B(m, "memref<?xf32>", m, "memref<?xf32>")
                elif shape == "e4":
                    s4 = f.fresh("s4")
                    f.emit(f"{s4} = arith.muli {s}, {f.idx(4)} : index")
                    f.emit(f"{m} = memref.alloc({s4}) : memref<?xf32>")
                    b = B(m, "memref<?xf32>", m, "memref<?xf32>", rows=s)
                else:
                    if shape == "2d":
                        s2 = f.fresh("cl")
                        f.emit(f"{s2} = affine.min affine_map<(d0) -> (d0, 6)>({size(live, iv)[0]})")
                        rty, ops = "memref<?x?xf32>", f"{s}, {s2}"
                    else:
                        rty, ops = ("memref<?x4xf32>" if shape == "x4" else "memref<3x?xf32>"), s
                    f.emit(f"{m} = memref.alloc({ops}) : {rty}")
                    c = f.fresh("cs")
                    f.emit(f"{c} = memref.collapse_shape {m} [[0, 1]] : {rty} into memref<?xf32>")
                    b = B(c, "memref<?xf32>", m, rty)
                init(b)
                return b

            def free(b):
                checksum(b)
                f.emit(f"memref.dealloc {b.root} : {b.rty}")

            def step(live, mine, iv, depth):
                nest = 2 if depth < 2 else 0
                k = r.choices(["alloc", "ew", "map", "copy", "select", "view", "free", "for", "if",
                               "ifres", "pingpong", "call"],
                              [4, 3, 2, 2, 1, 1, 1, nest, nest, 1, 1,
                               1 if descs and not only_args else 0])[0]
                if k == "alloc" or not live:
                    b = alloc(live, iv)
                    live.append(b)
                    mine.append(b)
                    if live[:-1] and r.random() < 0.6:
                        k = "ew"
                    else:
                        return
                if k in ("ew", "map"):
                    dst = r.choice(live)
                    srcs = [r.choice(live) for _ in range(r.randint(1, 2))]
                    m = minui([dim(x) for x in [dst] + srcs])
                    ds, ss = sub(dst, m), [sub(x, m) for x in srcs]
                    if k == "ew":
                        f.ew(ds, ss)
                    else:
                        op = (r.choice(["arith.addf", "arith.subf", "arith.mulf", "arith.maximumf"])
                              if len(ss) == 2 else "arith.negf")
                        f.emit(f"linalg.map {{ {op} }} ins({', '.join(x.name for x in ss)} : "
                               f"{', '.join(x.ty for x in ss)}) outs({ds.name} : {ds.ty})")
                elif k == "copy":
                    a, b = r.sample(live, 2) if len(live) > 1 else (live[0], None)
                    if b is None:
                        return
                    m = minui([dim(a), dim(b)])
                    f.emit(f"memref.copy {sub(a, m).name}, {sub(b, m).name} : {F32S} to {F32S}")
                elif k == "select":
                    cands = [b for b in live if b.fty == "memref<?xf32>"]
                    if len(cands) < 2:
                        return
                    a, b = r.sample(cands, 2)
                    c, s = f.fresh("cmp"), f.fresh("sel")
                    f.emit(f"{c} = arith.cmpi ult, {dim(a)}, {dim(b)} : index")
                    f.emit(f"{s} = arith.select {c}, {a.flat}, {b.flat} : memref<?xf32>")
                    sb = B(s, "memref<?xf32>")
                    if r.random() < 0.5:
                        f.iota(MBuf(s, 0, ty=sb.fty))
                    else:
                        o = r.choice(live)
                        m = minui([dim(sb), dim(o)])
                        f.ew(sub(sb, m), [sub(o, m), sub(sb, m)])
                elif k == "view":
                    b = r.choice(live)
                    if b.rows is not None and r.random() < 0.7:
                        e = f.fresh("ex")
                        f.emit(f"{e} = memref.expand_shape {b.root} [[0, 1]] output_shape [{b.rows}, 4] : "
                               f"memref<?xf32> into memref<?x4xf32>")
                        if r.random() < 0.5:
                            col = f.fresh("col")
                            cty = "memref<?x2xf32, strided<[4, 1], offset: 1>>"
                            f.emit(f"{col} = memref.subview {e}[0, 1] [{b.rows}, 2] [1, 1] : "
                                   f"memref<?x4xf32> to {cty}")
                            f.emit(f"linalg.fill ins({f.cf(r.choice([2.5, -0.5]))} : f32) outs({col} : {cty})")
                        else:
                            cc = f.fresh("cc")
                            f.emit(f"{cc} = memref.cast {e} : memref<?x4xf32> to memref<?x?xf32>")
                            f.emit(f"linalg.fill ins({f.cf(r.choice([1.5, -2.0]))} : f32) "
                                   f"outs({cc} : memref<?x?xf32>)")
                    else:
                        # a strided view [1, n) of b, written elementwise from itself
                        n = dim(b)
                        n1, s = f.fresh("n1"), f.fresh("vv")
                        f.emit(f"{n1} = arith.maxui {n}, %c1 : index")
                        m = f.fresh("m1")
                        f.emit(f"{m} = arith.subi {n1}, %c1 : index")
                        ty = "memref<?xf32, strided<[1], offset: ?>>"
                        f.emit(f"{s} = memref.subview {b.flat}[%c1] [{m}] [1] : {b.fty} to {ty}")
                        sv = MBuf(s, 0, ty=ty)
                        f.ew(sv, [sv])
                elif k == "free":
                    if mine:
                        b = r.choice(mine)
                        mine.remove(b)
                        live.remove(b)
                        free(b)
                elif k == "for":
                    # An argument as the trip count only outside loops (two nested loops of up
                    # to 1500 trips each would take too long).
                    unb = iv is None and r.random() < 0.5
                    ub = r.choice(idx_args)[0] if unb else f.idx(r.randint(1, 3))
                    v = f.fresh("i")
                    f.emit(f"scf.for {v} = %c0 to {ub} step %c1 {{")
                    block(list(live), v, depth + 1)
                    f.emit("}")
                elif k == "if":
                    c = f.fresh("cmp")
                    f.emit(f"{c} = arith.cmpi ult, {r.choice(idx_args)[0]}, {f.idx(r.choice([1, 2, 8, 40]))} : index")
                    f.emit(f"scf.if {c} {{")
                    block(list(live), iv, depth + 1)
                    if r.random() < 0.6:
                        f.emit("} else {")
                        block(list(live), iv, depth + 1)
                    f.emit("}")

                elif k == "ifres":
                    # scf.if yielding a buffer allocated in each branch (sizes of their own)
                    c, v = f.fresh("cmp"), f.fresh("ifr")
                    f.emit(f"{c} = arith.cmpi ult, {r.choice(idx_args)[0]}, {f.idx(r.choice([1, 2, 8, 40]))} : index")
                    f.emit(f"{v} = scf.if {c} -> (memref<?xf32>) {{")
                    for br in range(2):
                        if br:
                            f.emit("} else {")
                        f.ind += "  "
                        sz, _ = size(live, iv)
                        m = f.fresh("bm")
                        f.emit(f"{m} = memref.alloc({sz}) : memref<?xf32>")
                        f.iota(MBuf(m, 0, ty="memref<?xf32>"))
                        f.emit(f"scf.yield {m} : memref<?xf32>")
                        f.ind = f.ind[:-2]
                    f.emit("}")
                    b = B(v, "memref<?xf32>", v, "memref<?xf32>")
                    live.append(b)
                    mine.append(b)
                elif k == "pingpong":
                    # two buffers swapped through scf.for iter_args, one written from the other
                    cands = [b for b in live if b.fty == "memref<?xf32>"]
                    if len(cands) < 2:
                        return
                    a, b = r.sample(cands, 2)
                    p, q, res = f.fresh("pp"), f.fresh("pq"), f.fresh("pr")
                    f.emit(f"{res}:2 = scf.for {f.fresh('j')} = %c0 to {f.idx(r.randint(1, 4))} step %c1 "
                           f"iter_args({p} = {a.flat}, {q} = {b.flat}) -> (memref<?xf32>, memref<?xf32>) {{")
                    f.ind += "  "
                    pb, qb = B(p, "memref<?xf32>"), B(q, "memref<?xf32>")
                    m = minui([dim(pb), dim(qb)])
                    f.ew(sub(qb, m), [sub(pb, m), sub(qb, m)])
                    f.emit(f"scf.yield {q}, {p} : memref<?xf32>, memref<?xf32>")
                    f.ind = f.ind[:-2]
                    f.emit("}")
                elif k == "call":
                    call_earlier(live, iv)

            def call_earlier(live, iv):
                """A call of an earlier function with sizes of this one, clamped to its bounds
                (or to a constant that arg-upper-bound=N covers); its buffers are passed to a
                call, so unmanaged here."""
                d = r.choice(descs)
                args, tys, after = [], [], []

                def clamped(bound):
                    c = bound or r.choice([9, 64])
                    if not bound:
                        self.dyn_max_arg = max(self.dyn_max_arg, c)
                    v, cl = size(live, iv)[0], f.fresh("cc")
                    f.emit(f"{cl} = affine.min affine_map<(d0) -> (d0, {c})>({v})")
                    return cl
                for _, ob in d["idx"]:
                    args.append(clamped(ob or d["fattr"]))
                    tys.append("index")
                for _, two, ob in d["mem"]:
                    rows = clamped(ob or d["fattr"])
                    ty = "memref<?x4xf32>" if two else "memref<?xf32>"
                    m = f.fresh("cm")
                    f.emit(f"{m} = memref.alloc({rows}) : {ty}")
                    fl = m
                    if two:
                        fl = f.fresh("cmf")
                        f.emit(f"{fl} = memref.collapse_shape {m} [[0, 1]] : {ty} into memref<?xf32>")
                    b = B(fl, "memref<?xf32>", m, ty)
                    f.iota(MBuf(fl, 0, ty=b.fty))
                    args.append(m)
                    tys.append(ty)
                    after.append(b)
                if d["sz"]:
                    m = f.fresh("csz")
                    f.emit(f"{m} = memref.alloc() : memref<4xindex>")
                    for j in range(4):
                        f.emit(f"memref.store {f.idx(r.choice([0, 1, r.randint(2, 300)]))}, {m}[{f.idx(j)}] : memref<4xindex>")
                    args.append(m)
                    tys.append("memref<4xindex>")
                    after.append(B(None, None, m, "memref<4xindex>"))
                o = f.fresh("co")
                f.emit(f"{o} = memref.alloc() : {d['oty']}")
                f.emit(f"linalg.fill ins(%zf : f32) outs({o} : {d['oty']})")
                args.append(o)
                tys.append(d["oty"])
                after.append(B(o, d["oty"], o, d["oty"]))
                rv = f.fresh("crv") if d["ret"] else None
                f.emit((f"{rv} = " if rv else "") + f"func.call @{d['name']}({', '.join(args)}) : "
                       f"({', '.join(tys)}) -> ({d['ret']})")
                if rv:
                    after.append(B(rv, "memref<?xf32>", rv, "memref<?xf32>"))
                for b in after:
                    if b.flat:
                        checksum(b)
                    f.emit(f"memref.dealloc {b.root} : {b.rty}")

            def block(live, iv, depth):
                old = f.ind
                if depth:
                    f.ind += "  "
                mine = []
                for _ in range(r.randint(2, 6) if depth else r.randint(4, 10)):
                    step(live, mine, iv, depth)
                if depth and not mine:
                    b = alloc(live, iv)
                    live.append(b)
                    mine.append(b)
                    if len(live) > 1:
                        o = r.choice(live[:-1])
                        m = minui([dim(b), dim(o)])
                        f.ew(sub(o, m), [sub(b, m), sub(o, m)])
                for b in mine[::-1]:
                    free(b)
                    live.remove(b)
                f.ind = old
                return mine

            live = []
            for nm, two, _ in mem_args:
                if two:
                    c = f.fresh("ac")
                    f.emit(f"{c} = memref.collapse_shape {nm} [[0, 1]] : memref<?x4xf32> into memref<?xf32>")
                    live.append(B(c, "memref<?xf32>", nm, "memref<?x4xf32>", local=False))
                else:
                    live.append(B(nm, "memref<?xf32>", nm, "memref<?xf32>", local=False))
            # Sometimes a run-time sized buffer is the entry block's first op: rewrites that
            # insert at the block's start must not hold on to it (allocateOutsideSlab did).
            firsts = []
            if r.random() < 0.3:
                for _ in range(r.choice([1, 2])):
                    fb = f.fresh("dm")
                    f.emit(f"{fb} = memref.alloc({r.choice(idx_args)[0]}) : memref<?xf32>")
                    firsts.append((f.lines[-1], B(fb, "memref<?xf32>", fb, "memref<?xf32>")))
                    init(firsts[-1][1])
                    live.append(firsts[-1][1])
            block(live, None, 0)
            for line, b in reversed(firsts):
                free(b)
                live.remove(b)
                f.lines.remove(line)
                f.lines.insert(0, line)
            rets = ""
            if ret:
                s, _ = size(live, None)
                m = f.fresh("rt")
                f.emit(f"{m} = memref.alloc({s}) : memref<?xf32>")
                f.iota(MBuf(m, 0, ty="memref<?xf32>"))
                if live:
                    o = r.choice(live)
                    rb = B(m, "memref<?xf32>")
                    mm = minui([dim(o), dim(rb)])
                    f.ew(sub(rb, mm), [sub(o, mm)])
                f.emit(f"return {m} : memref<?xf32>")
                self.dyn_returns.append(fname)
                rets = "memref<?xf32>"
            else:
                f.emit("return")
            nout = max(2, slots[0])
            oty = mty(nout)
            f.lines = [l.replace("OUT_TY", oty) for l in f.lines]
            sig = []
            for nm, ob in idx_args:
                sig.append(f"{nm}: index" + (f" {{mplan.upper_bound = {ob} : i64}}" if ob else ""))
            for nm, two, ob in mem_args:
                ty = "memref<?x4xf32>" if two else "memref<?xf32>"
                at = (f" {{mplan.dim_upper_bounds = array<i64: {ob}{', -1' if two else ''}>}}" if ob else "")
                sig.append(f"{nm}: {ty}{at}")
            if use_sz:
                sig.append("%sz: memref<4xindex>")
            sig.append(f"%out: {oty}")
            text = f.text(", ".join(sig), rets)
            if fattr:
                text[0] = text[0][:-2] + f" attributes {{mplan.arg_upper_bound = {fattr} : i64}} {{"
            self.funcs.append(text)
            descs.append(dict(name=fname, idx=idx_args, mem=mem_args, fattr=fattr, sz=use_sz,
                              oty=oty, ret=rets))

            # @main calls it at several sizes, within every stated bound.
            def val(bound):
                if bound:
                    return r.choice([0, 1, bound, bound, r.randint(0, bound)])
                v = r.choice([0, 1, r.randint(2, 9), r.randint(10, 64), r.randint(100, 1500)])
                self.dyn_max_arg = max(self.dyn_max_arg, v)
                return v
            for ci in range(r.randint(2, 4)):
                p = f"%f{fi}c{ci}"
                args, tys, post = [], [], []
                for k, (nm, ob) in enumerate(idx_args):
                    main.append(f"{p}n{k} = arith.constant {val(ob or fattr)} : index")
                    args.append(f"{p}n{k}")
                    tys.append("index")
                for k, (nm, two, ob) in enumerate(mem_args):
                    rows = val(ob or fattr)
                    ty = "memref<?x4xf32>" if two else "memref<?xf32>"
                    main.append(f"{p}r{k} = arith.constant {rows} : index")
                    main.append(f"{p}a{k} = memref.alloc({p}r{k}) : {ty}")
                    fl = f"{p}a{k}"
                    if two:
                        fl = f"{p}af{k}"
                        main.append(f"{fl} = memref.collapse_shape {p}a{k} [[0, 1]] : {ty} into memref<?xf32>")
                    main.append(f"{p}s{k} = arith.constant {3 + 5 * k + ci} : index")
                    main.append(f"call @fz_init({fl}, {p}s{k}) : (memref<?xf32>, index) -> ()")
                    args.append(f"{p}a{k}")
                    tys.append(ty)
                    post.append((fl, f"{p}a{k}", ty))
                if use_sz:
                    main.append(f"{p}sz = memref.alloc() : memref<4xindex>")
                    for j in range(4):
                        main.append(f"{p}szv{j} = arith.constant {r.choice([0, 1, r.randint(2, 300)])} : index")
                        main.append(f"{p}szi{j} = arith.constant {j} : index")
                        main.append(f"memref.store {p}szv{j}, {p}sz[{p}szi{j}] : memref<4xindex>")
                    args.append(f"{p}sz")
                    tys.append("memref<4xindex>")
                main.append(f"{p}o = memref.alloc() : {oty}")
                main.append(f"{p}z = arith.constant 0.0 : f32")
                main.append(f"linalg.fill ins({p}z : f32) outs({p}o : {oty})")
                args.append(f"{p}o")
                tys.append(oty)
                call = f"call @{fname}({', '.join(args)}) : ({', '.join(tys)}) -> ({rets})"
                main.append((f"{p}ret = " if ret else "") + call)

                def check(v, ty):
                    nid[0] += 1
                    c = f"{p}k{nid[0]}"
                    main.append(f"{c} = memref.cast {v} : {ty} to memref<?xf32>" if ty != "memref<?xf32>"
                                else f"{c} = memref.cast {v} : memref<?xf32> to memref<?xf32>")
                    main.append(f"{c}i = arith.constant {nid[0]} : index")
                    main.append(f"call @fz_check({c}, {c}i) : (memref<?xf32>, index) -> ()")
                check(f"{p}o", oty)
                if ret:
                    check(f"{p}ret", "memref<?xf32>")
                    main.append(f"memref.dealloc {p}ret : memref<?xf32>")
                for fl, root, ty in post:
                    check(fl, "memref<?xf32>")
                    main.append(f"memref.dealloc {root} : {ty}")
                if use_sz:
                    main.append(f"memref.dealloc {p}sz : memref<4xindex>")
                main.append(f"memref.dealloc {p}o : {oty}")
        self.calls = lambda names: main


def dynamic_cfgs(prog, rc_, strategies, arenas, seq_rc):
    """The runs of the `dynamic` kind: default options under every arena kind; check-bounds=true;
    arg-upper-bound=N (N at or above every size @main passes to an argument without a bound
    attribute); max-bound-bytes small (bounded buffers become run-time sized or unplanned); a
    capacity every static buffer fits (run-time sized ones allocated outside the slab); one
    more (the observer on even with --no-observer); one run with drawn options."""
    runs = [Cfg(a, "") for a in arenas]
    n = prog.dyn_max_arg + rc_.choice([0, 0, 1, 7, 100])
    aub = f"arg-upper-bound={n}"
    runs.append(Cfg(rc_.choice(arenas), "check-bounds=true"))
    runs.append(Cfg(rc_.choice(arenas), aub + (" check-bounds=true" if rc_.random() < 0.5 else "")))
    runs.append(Cfg(rc_.choice(arenas), f"max-bound-bytes={rc_.choice([0, 16, 64, 256, 1024])}" +
                    (" " + aub if rc_.random() < 0.5 else "") +
                    (" check-bounds=true" if rc_.random() < 0.5 else "")))
    # A capacity the static buffers always fit: the run-time sized ones get their own
    # allocations outside the capped slab.
    runs.append(Cfg(rc_.choice(arenas), "capacity=default:1073741824"))
    runs.append(Cfg(rc_.choice(arenas), " ".join(o for o in ["check-bounds=true" if rc_.random() < 0.7 else "",
                                                             aub if rc_.random() < 0.4 else ""] if o), True))
    for c in random_cfgs(rc_, strategies, arenas, 1, seq_rc=seq_rc):
        if rc_.random() < 0.5:
            c.opts += " check-bounds=true"
        if rc_.random() < 0.3:
            c.opts += " " + aub
        runs.append(c)
    return runs


class _Kind(MemrefKind):
    name = "dynamic"
    order = 150
    summary = __doc__
    program_class = Program

    # Never batched: arg-upper-bound= is drawn from the program's own largest size, and the
    # report must list the program's returned buffers.
    batched = False

    def plan(self, ctx):
        prog, res = ctx.prog, ctx.res
        for c in dynamic_cfgs(prog, ctx.rng("cfg"), ctx.strategies, ctx.arenas, ctx.rng("seq")):
            before = len(res.fails) + len(res.rejects)
            rep = ctx.planned(c)
            fns = {fn.get("name"): fn for fn in (rep or {}).get("functions", [])}
            for name in prog.dyn_returns if rep and len(res.fails) + len(res.rejects) == before else []:
                if not any(u.get("reason") == "escapes via return" for u in fns.get(name, {}).get("unmanaged", [])):
                    res.fails.append((str(c), f"@{name}'s returned buffer is not reported unmanaged "
                                              "(escapes via return)"))


KIND = _Kind()
