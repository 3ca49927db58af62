#!/usr/bin/python3
"""Generate mplan's bundled linalg-on-tensors model programs (models/*.mlir).

Standard library only. Every generated file has:
  * `func.func @model(%x, %w0, %w1, ...) -> tensor<...>`: the network, written in
    linalg named ops / linalg.generic / tensor ops on tensors, so after One-Shot
    Bufferize it has one buffer per intermediate value (what mplan plans);
  * `@mplan_init_hash` / `@mplan_init_sin`: deterministic 1-D initializers (linalg.generic over
    linalg.index; a hash `((i*7919 + seed) mod 101)/50 - 1` for weights, `sin(i*0.37 +
    seed)` for inputs), so weights are computed at run time instead of stored as huge
    dense constants;
  * `func.func @main()`: builds the input and weights, calls @model once, and prints
    the output shape, sum, sum of squares, an index-weighted sum, an exact bit-level
    hash (sum of bitcast(x_i) * (i mod 31 + 1) in wrapping i32 arithmetic), and then
    either the full output (<= 2048 elements) or its first 64 elements via
    printMemrefF32 (whose "base@ = 0x..." address must be normalised before diffing).

Models with a dynamic size (decoder_step, cnn_dynamic_batch) have a `@run(%n)` that builds the
inputs at size n and calls @model, and a `@main` that calls @run at several sizes; they state
their bound with `mplan.arg_upper_bound`, or no bound with --no-bound (then written as
NAME_unbounded.mlir).

Usage:  /usr/bin/python3 models/gen_models.py [--out-dir models] [--list] [--no-bound] [NAME ...]
Shapes and their sources are documented in models/README.md.
"""

import argparse
import math
import os
import sys

F32 = "f32"
# Shapes are tuples of ints (static dimensions) and strings (dynamic ones: the SSA index value
# of the size, e.g. "%dyn"). DYN in the shape given to Model.input stands for the model's
# dynamic size (Model.dyn, the input's dimension 0).
DYN = "?"


def is_dyn(d):
    return isinstance(d, str)


def numel(shape):
    """The element count of a shape: an int, or the size value of its one dynamic dimension
    when every other dimension is 1."""
    dyn = [d for d in shape if is_dyn(d)]
    if not dyn:
        return math.prod(shape)
    assert len(dyn) == 1 and math.prod(d for d in shape if not is_dyn(d)) == 1, shape
    return dyn[0]


def tty(shape):
    if not shape:
        return "tensor<f32>"
    return "tensor<" + "x".join("?" if is_dyn(d) else str(d) for d in shape) + "xf32>"


def dims(r):
    return ", ".join(f"d{i}" for i in range(r))


def amap(r, res):
    return f"affine_map<({dims(r)}) -> ({', '.join(res)})>"


def ident(r):
    return amap(r, [f"d{i}" for i in range(r)])


def fconst(v):
    """An f32 literal MLIR accepts (always with a decimal point or exponent)."""
    if v == float("-inf"):
        return "0xFF800000"
    r = repr(float(v))
    if "e" in r or "E" in r:
        m, e = r.lower().split("e")
        if "." not in m:
            m += ".0"
        return f"{m}e{e}"
    return r


class Model:
    """Builds the body of @model as SSA text. Values are (name, shape) tuples."""

    def __init__(self, name, description):
        self.name = name
        self.description = description
        self.lines = []
        self.params = []  # (ssa, shape, kind, scale, offset)
        self.n = 0
        self.consts = {}
        self.dyn = None    # SSA index value of the dynamic size (shapes with DYN)
        self.bound = None  # its upper bound, stated as mplan.arg_upper_bound (None: none)

    # ---------------------------------------------------------------- basics
    def fresh(self, hint="t"):
        self.n += 1
        return f"%{hint}_{self.n}"

    def emit(self, s):
        self.lines.append("  " + s)

    def const(self, v):
        key = fconst(v)
        if key not in self.consts:
            self.consts[key] = f"%cst{len(self.consts)}"
        return self.consts[key]

    def input(self, shape, kind="sin"):
        ssa = f"%arg{len(self.params)}"
        if DYN in shape:
            assert list(shape).index(DYN) == 0 and shape.count(DYN) == 1, shape
            shape = ("%dyn",) + tuple(shape[1:])
        self.params.append((ssa, tuple(shape), kind, 1.0, 0.0))
        if shape and shape[0] == "%dyn" and self.dyn is None:
            self.dyn = "%dyn"
            self.emit("%c0_dyn = arith.constant 0 : index")
            self.emit(f"%dyn = tensor.dim {ssa}, %c0_dyn : {tty(shape)}")
        return (ssa, tuple(shape))

    @staticmethod
    def sizes(shape):
        """The dynamic size operands of a value of `shape` (tensor.empty)."""
        return ", ".join(d for d in shape if is_dyn(d))

    def param(self, shape, scale, offset=0.0):
        ssa = f"%arg{len(self.params)}"
        self.params.append((ssa, tuple(shape), "hash", float(scale), float(offset)))
        return (ssa, tuple(shape))

    def empty(self, shape):
        e = self.fresh("e")
        self.emit(f"{e} = tensor.empty({self.sizes(shape)}) : {tty(shape)}")
        return e

    def filled(self, shape, value):
        e = self.empty(shape)
        f = self.fresh("f")
        self.emit(f"{f} = linalg.fill ins({self.const(value)} : f32) outs({e} : {tty(shape)}) -> {tty(shape)}")
        return f

    def generic(self, ins, out_shape, out_map, iters, body, init=None):
        """ins: list of (value, map). body(args, out) -> (lines, yielded)."""
        r = self.fresh()
        outs = init if init is not None else self.empty(out_shape)
        maps = ", ".join([m for _, m in ins] + [out_map])
        it = ", ".join(f'"{i}"' for i in iters)
        names = [f"%in{i}" for i in range(len(ins))]
        blk = ", ".join(f"{a}: f32" for a in names + ["%out"])
        ins_s = ""
        if ins:
            ins_s = "ins(" + ", ".join(v[0] for v, _ in ins) + " : " + ", ".join(tty(v[1]) for v, _ in ins) + ") "
        self.emit(f"{r} = linalg.generic {{indexing_maps = [{maps}], iterator_types = [{it}]}} "
                  f"{ins_s}outs({outs} : {tty(out_shape)}) {{")
        self.emit(f"^bb0({blk}):")
        body_lines, y = body(names, "%out")
        for l in body_lines:
            self.emit("  " + l)
        self.emit(f"  linalg.yield {y} : f32")
        self.emit(f"}} -> {tty(out_shape)}")
        return (r, tuple(out_shape))

    # ------------------------------------------------------- elementwise ops
    def unary(self, x, fn):
        r = len(x[1])
        return self.generic([(x, ident(r))], x[1], ident(r), ["parallel"] * r, lambda a, o: fn(a[0]))

    def binary(self, a, b, fn, b_map=None):
        r = len(a[1])
        return self.generic([(a, ident(r)), (b, b_map or ident(r))], a[1], ident(r), ["parallel"] * r,
                            lambda n, o: fn(n[0], n[1]))

    @staticmethod
    def act_lines(v, act):
        if act is None or act == "none":
            return [], v
        if act == "relu":
            return ["%z = arith.constant 0.0 : f32",
                    f"%p = arith.cmpf ogt, {v}, %z : f32",
                    f"%r = arith.select %p, {v}, %z : f32"], "%r"
        if act == "relu6":
            return ["%z = arith.constant 0.0 : f32",
                    "%six = arith.constant 6.0 : f32",
                    f"%p = arith.cmpf ogt, {v}, %z : f32",
                    f"%a = arith.select %p, {v}, %z : f32",
                    "%q = arith.cmpf olt, %a, %six : f32",
                    "%r = arith.select %q, %a, %six : f32"], "%r"
        if act == "gelu_erf":  # BERT: 0.5 x (1 + erf(x / sqrt 2))
            return ["%h = arith.constant 0.5 : f32",
                    "%one = arith.constant 1.0 : f32",
                    "%is2 = arith.constant 0.707106769 : f32",
                    f"%s = arith.mulf {v}, %is2 : f32",
                    "%e = math.erf %s : f32",
                    "%e1 = arith.addf %e, %one : f32",
                    f"%hx = arith.mulf {v}, %h : f32",
                    "%r = arith.mulf %hx, %e1 : f32"], "%r"
        if act == "gelu_tanh":  # GPT-2: 0.5 x (1 + tanh(sqrt(2/pi) (x + 0.044715 x^3)))
            return ["%h = arith.constant 0.5 : f32",
                    "%one = arith.constant 1.0 : f32",
                    "%k = arith.constant 0.797884583 : f32",
                    "%c = arith.constant 0.044715 : f32",
                    f"%x2 = arith.mulf {v}, {v} : f32",
                    f"%x3 = arith.mulf %x2, {v} : f32",
                    "%cx3 = arith.mulf %x3, %c : f32",
                    f"%in = arith.addf {v}, %cx3 : f32",
                    "%kin = arith.mulf %in, %k : f32",
                    "%t = math.tanh %kin : f32",
                    "%t1 = arith.addf %t, %one : f32",
                    f"%hx = arith.mulf {v}, %h : f32",
                    "%r = arith.mulf %hx, %t1 : f32"], "%r"
        raise ValueError(act)

    def act(self, x, act):
        if act is None:
            return x
        return self.unary(x, lambda v: self.act_lines(v, act))

    def bias_act(self, x, b, act=None):
        """x[..., C] + b[C], then activation (BN folded into conv weight + bias)."""
        r = len(x[1])

        def body(n, o):
            lines = [f"%sum0 = arith.addf {n[0]}, {n[1]} : f32"]
            al, y = self.act_lines("%sum0", act)
            return lines + al, y
        return self.generic([(x, ident(r)), (b, amap(r, [f"d{r-1}"]))], x[1], ident(r), ["parallel"] * r, body)

    def add(self, a, b, act=None):
        def body(n, o):
            al, y = self.act_lines("%sum0", act)
            return [f"%sum0 = arith.addf {n[0]}, {n[1]} : f32"] + al, y
        r = len(a[1])
        return self.generic([(a, ident(r)), (b, ident(r))], a[1], ident(r), ["parallel"] * r, body)

    def scale(self, x, s):
        return self.unary(x, lambda v: ([f"%k = arith.constant {fconst(s)} : f32",
                                         f"%r = arith.mulf {v}, %k : f32"], "%r"))

    # ------------------------------------------------------- tensor / shape
    def pad(self, x, lo, hi, value=0.0):
        """lo/hi: per-dimension padding lists."""
        if not any(lo) and not any(hi):
            return x
        assert not any(is_dyn(d) and (l or h) for d, l, h in zip(x[1], lo, hi)), x[1]
        shape = tuple(d if is_dyn(d) else d + l + h for d, l, h in zip(x[1], lo, hi))
        r = self.fresh("pad")
        c = self.const(value)
        idx = ", ".join(f"%i{i}: index" for i in range(len(shape)))
        self.emit(f"{r} = tensor.pad {x[0]} low[{', '.join(map(str, lo))}] high[{', '.join(map(str, hi))}] {{")
        self.emit(f"^bb0({idx}):")
        self.emit(f"  tensor.yield {c} : f32")
        self.emit(f"}} : {tty(x[1])} to {tty(shape)}")
        return (r, shape)

    def pad_hw(self, x, ph, pw=None, value=0.0):
        pw = ph if pw is None else pw
        ph = ph if isinstance(ph, tuple) else (ph, ph)
        pw = pw if isinstance(pw, tuple) else (pw, pw)
        return self.pad(x, [0, ph[0], pw[0], 0], [0, ph[1], pw[1], 0], value)

    def concat(self, parts, axis):
        shape = list(parts[0][1])
        shape[axis] = sum(p[1][axis] for p in parts)
        shape = tuple(shape)
        cur = self.empty(shape)
        off = 0
        for p in parts:
            r = self.fresh("cat")
            offs = [0] * len(shape)
            offs[axis] = off
            self.emit(f"{r} = tensor.insert_slice {p[0]} into {cur}[{', '.join(map(str, offs))}] "
                      f"[{', '.join(map(str, p[1]))}] [{', '.join(['1'] * len(shape))}] : "
                      f"{tty(p[1])} into {tty(shape)}")
            cur = r
            off += p[1][axis]
        return (cur, shape)

    def extract(self, x, offs, sizes):
        r = self.fresh("sl")
        self.emit(f"{r} = tensor.extract_slice {x[0]}[{', '.join(map(str, offs))}] "
                  f"[{', '.join(map(str, sizes))}] [{', '.join(['1'] * len(sizes))}] : "
                  f"{tty(x[1])} to {tty(sizes)}")
        return (r, tuple(sizes))

    def expand(self, x, reassoc, shape):
        r = self.fresh("ex")
        ra = ", ".join("[" + ", ".join(map(str, g)) + "]" for g in reassoc)
        out = ", ".join(map(str, shape))
        self.emit(f"{r} = tensor.expand_shape {x[0]} [{ra}] output_shape [{out}] : "
                  f"{tty(x[1])} into {tty(shape)}")
        return (r, tuple(shape))

    def collapse(self, x, reassoc):
        shape = tuple(numel([x[1][i] for i in g]) for g in reassoc)
        r = self.fresh("co")
        ra = ", ".join("[" + ", ".join(map(str, g)) + "]" for g in reassoc)
        self.emit(f"{r} = tensor.collapse_shape {x[0]} [{ra}] : {tty(x[1])} into {tty(shape)}")
        return (r, shape)

    def transpose(self, x, perm):
        shape = tuple(x[1][p] for p in perm)
        e = self.empty(shape)
        r = self.fresh("tr")
        self.emit(f"{r} = linalg.transpose ins({x[0]} : {tty(x[1])}) outs({e} : {tty(shape)}) "
                  f"permutation = [{', '.join(map(str, perm))}]")
        return (r, shape)

    # ----------------------------------------------------------- CNN layers
    @staticmethod
    def out_dim(n, k, s):
        return (n - k) // s + 1

    def conv(self, x, cout, k, stride=1, pad=None, act="relu", bias=True, gain=1.0):
        """NHWC conv (+ folded-BN bias + activation). pad=None means k//2 on each side."""
        kh, kw = (k, k) if isinstance(k, int) else k
        if pad is None:
            pad = (kh // 2, kw // 2)
        xp = self.pad_hw(x, pad[0], pad[1])
        n, h, w, c = xp[1]
        oh, ow = self.out_dim(h, kh, stride), self.out_dim(w, kw, stride)
        wt = self.param((kh, kw, c, cout), gain * math.sqrt(6.0 / (kh * kw * c)))
        oshape = (n, oh, ow, cout)
        init = self.filled(oshape, 0.0)
        r = self.fresh("conv")
        self.emit(f"{r} = linalg.conv_2d_nhwc_hwcf {{dilations = dense<1> : tensor<2xi64>, "
                  f"strides = dense<{stride}> : tensor<2xi64>}} ins({xp[0]}, {wt[0]} : {tty(xp[1])}, {tty(wt[1])}) "
                  f"outs({init} : {tty(oshape)}) -> {tty(oshape)}")
        y = (r, oshape)
        if bias:
            b = self.param((cout,), 0.1)
            return self.bias_act(y, b, act)
        return self.act(y, act)

    def dwconv(self, x, k=3, stride=1, act="relu6"):
        xp = self.pad_hw(x, k // 2)
        n, h, w, c = xp[1]
        oh, ow = self.out_dim(h, k, stride), self.out_dim(w, k, stride)
        wt = self.param((k, k, c), math.sqrt(6.0 / (k * k)))
        oshape = (n, oh, ow, c)
        init = self.filled(oshape, 0.0)
        r = self.fresh("dw")
        self.emit(f"{r} = linalg.depthwise_conv_2d_nhwc_hwc {{dilations = dense<1> : tensor<2xi64>, "
                  f"strides = dense<{stride}> : tensor<2xi64>}} ins({xp[0]}, {wt[0]} : {tty(xp[1])}, {tty(wt[1])}) "
                  f"outs({init} : {tty(oshape)}) -> {tty(oshape)}")
        b = self.param((c,), 0.1)
        return self.bias_act((r, oshape), b, act)

    def pool(self, x, k, stride, pad=0, kind="max"):
        """Max or average pooling (average counts padding, like count_include_pad=True)."""
        pv = float("-inf") if kind == "max" else 0.0
        xp = self.pad_hw(x, pad, pad, value=pv)
        n, h, w, c = xp[1]
        oshape = (n, self.out_dim(h, k, stride), self.out_dim(w, k, stride), c)
        init = self.filled(oshape, pv)
        win = self.empty((k, k))
        r = self.fresh("pool")
        op = "linalg.pooling_nhwc_max" if kind == "max" else "linalg.pooling_nhwc_sum"
        self.emit(f"{r} = {op} {{dilations = dense<1> : tensor<2xi64>, strides = dense<{stride}> : tensor<2xi64>}} "
                  f"ins({xp[0]}, {win} : {tty(xp[1])}, {tty((k, k))}) outs({init} : {tty(oshape)}) -> {tty(oshape)}")
        y = (r, oshape)
        if kind == "avg":
            y = self.scale(y, 1.0 / (k * k))
        return y

    def global_avgpool(self, x):
        n, h, w, c = x[1]
        y = self.pool(x, h, 1, 0, "avg") if h == w else None
        assert y is not None
        return self.collapse(y, [[0], [1, 2, 3]])  # (n, c)

    # ---------------------------------------------------- dense / attention
    def matmul(self, a, b):
        m, k = a[1]
        k2, n = b[1]
        assert k == k2, (a[1], b[1])
        init = self.filled((m, n), 0.0)
        r = self.fresh("mm")
        self.emit(f"{r} = linalg.matmul ins({a[0]}, {b[0]} : {tty(a[1])}, {tty(b[1])}) "
                  f"outs({init} : {tty((m, n))}) -> {tty((m, n))}")
        return (r, (m, n))

    def batch_matmul(self, a, b):
        bt, m, k = a[1]
        _, k2, n = b[1]
        assert k == k2
        init = self.filled((bt, m, n), 0.0)
        r = self.fresh("bmm")
        self.emit(f"{r} = linalg.batch_matmul ins({a[0]}, {b[0]} : {tty(a[1])}, {tty(b[1])}) "
                  f"outs({init} : {tty((bt, m, n))}) -> {tty((bt, m, n))}")
        return (r, (bt, m, n))

    def dense(self, x, nout, act=None, gain=1.0):
        k = x[1][1]
        w = self.param((k, nout), gain * math.sqrt(6.0 / k))
        b = self.param((nout,), 0.1)
        return self.bias_act(self.matmul(x, w), b, act)

    def reduce_last(self, x, init_value, combine):
        """Reduce the last dimension: combine(acc, v) -> (lines, result)."""
        r = len(x[1])
        oshape = x[1][:-1]
        init = self.filled(oshape, init_value)
        return self.generic([(x, ident(r))], oshape, amap(r, [f"d{i}" for i in range(r - 1)]),
                            ["parallel"] * (r - 1) + ["reduction"], lambda n, o: combine(o, n[0]), init=init)

    def softmax_last(self, x):
        r = len(x[1])
        bmap = amap(r, [f"d{i}" for i in range(r - 1)])
        mx = self.reduce_last(x, float("-inf"), lambda acc, v: (
            [f"%p = arith.cmpf ogt, {v}, {acc} : f32", f"%m = arith.select %p, {v}, {acc} : f32"], "%m"))
        ex = self.generic([(x, ident(r)), (mx, bmap)], x[1], ident(r), ["parallel"] * r,
                          lambda n, o: ([f"%d = arith.subf {n[0]}, {n[1]} : f32", "%e = math.exp %d : f32"], "%e"))
        sm = self.reduce_last(ex, 0.0, lambda acc, v: ([f"%s = arith.addf {acc}, {v} : f32"], "%s"))
        return self.generic([(ex, ident(r)), (sm, bmap)], x[1], ident(r), ["parallel"] * r,
                            lambda n, o: ([f"%q = arith.divf {n[0]}, {n[1]} : f32"], "%q"))

    def layernorm(self, x, eps=1e-5):
        s, d = x[1]
        g = self.param((d,), 0.2, 1.0)
        b = self.param((d,), 0.1)
        rmap = amap(2, ["d0"])
        mean = self.reduce_last(x, 0.0, lambda acc, v: ([f"%s = arith.addf {acc}, {v} : f32"], "%s"))
        mean = self.scale(mean, 1.0 / d)
        cen = self.generic([(x, ident(2)), (mean, rmap)], x[1], ident(2), ["parallel"] * 2,
                           lambda n, o: ([f"%c = arith.subf {n[0]}, {n[1]} : f32"], "%c"))
        var = self.reduce_last(cen, 0.0, lambda acc, v: (
            [f"%q = arith.mulf {v}, {v} : f32", f"%s = arith.addf {acc}, %q : f32"], "%s"))
        rstd = self.unary(var, lambda v: ([f"%n = arith.constant {fconst(1.0 / d)} : f32",
                                           f"%eps = arith.constant {fconst(eps)} : f32",
                                           "%one = arith.constant 1.0 : f32",
                                           f"%m = arith.mulf {v}, %n : f32",
                                           "%a = arith.addf %m, %eps : f32",
                                           "%sq = math.sqrt %a : f32",
                                           "%r = arith.divf %one, %sq : f32"], "%r"))
        return self.generic([(cen, ident(2)), (rstd, rmap), (g, amap(2, ["d1"])), (b, amap(2, ["d1"]))],
                            x[1], ident(2), ["parallel"] * 2,
                            lambda n, o: ([f"%a = arith.mulf {n[0]}, {n[1]} : f32",
                                           f"%b = arith.mulf %a, {n[2]} : f32",
                                           f"%c = arith.addf %b, {n[3]} : f32"], "%c"))

    def heads(self, x, h, perm):
        """(S, D) -> (S, h, dh) -> transpose by perm."""
        s, d = x[1]
        e = self.expand(x, [[0], [1, 2]], (s, h, d // h))
        return self.transpose(e, perm)

    def mha(self, q, k, v, h, causal=False):
        """q, k, v: (S, D). Returns the concatenated heads (S, D) before the output projection."""
        s, d = q[1]
        dh = d // h
        qh = self.heads(q, h, [1, 0, 2])   # (h, S, dh)
        kt = self.heads(k, h, [1, 2, 0])   # (h, dh, S)
        vh = self.heads(v, h, [1, 0, 2])   # (h, S, dh)
        sc = self.batch_matmul(qh, kt)     # (h, S, S)
        inv = 1.0 / math.sqrt(dh)
        if causal:
            def body(n, o):
                return (["%i = linalg.index 1 : index", "%j = linalg.index 2 : index",
                         f"%k = arith.constant {fconst(inv)} : f32",
                         "%neg = arith.constant -1.0e+09 : f32",
                         f"%m = arith.mulf {n[0]}, %k : f32",
                         "%p = arith.cmpi ugt, %j, %i : index",
                         "%r = arith.select %p, %neg, %m : f32"], "%r")
            sc = self.generic([(sc, ident(3))], sc[1], ident(3), ["parallel"] * 3, body)
        else:
            sc = self.scale(sc, inv)
        p = self.softmax_last(sc)
        ctx = self.batch_matmul(p, vh)     # (h, S, dh)
        ctx = self.transpose(ctx, [1, 0, 2])  # (S, h, dh)
        return self.collapse(ctx, [[0], [1, 2]])

    # -------------------------------------------------------------- output
    def to_mlir(self, result):
        out = []
        sig = ", ".join(f"{p[0]}: {tty(p[1])}" for p in self.params)
        attrs = f" attributes {{mplan.arg_upper_bound = {self.bound} : i64}}" if self.bound else ""
        out.append(f"func.func @model({sig}) -> {tty(result[1])}{attrs} {{")
        for v, name in sorted(self.consts.items(), key=lambda kv: int(kv[1][4:])):
            out.append(f"  {name} = arith.constant {v} : f32")
        out.extend(self.lines)
        out.append(f"  return {result[0]} : {tty(result[1])}")
        out.append("}")
        return out


INIT_FN = """\
// Deterministic 1-D initializers; the value is offset + scale * v(i) with
//   @mplan_init_hash: v(i) = ((i*7919 + seed) mod 101) / 50 - 1   (weights)
//   @mplan_init_sin:  v(i) = sin(i*0.37 + seed)                   (inputs)
func.func @mplan_init_hash(%n: index, %seed: index, %scale: f32, %offset: f32) -> tensor<?xf32> {
  %e = tensor.empty(%n) : tensor<?xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} outs(%e : tensor<?xf32>) {
  ^bb0(%out: f32):
    %i = linalg.index 0 : index
    %m = arith.constant 7919 : index
    %p = arith.constant 101 : index
    %im = arith.muli %i, %m : index
    %is = arith.addi %im, %seed : index
    %h = arith.remui %is, %p : index
    %hi = arith.index_cast %h : index to i64
    %hf = arith.sitofp %hi : i64 to f32
    %c50 = arith.constant 0.02 : f32
    %one = arith.constant 1.0 : f32
    %hs = arith.mulf %hf, %c50 : f32
    %v = arith.subf %hs, %one : f32
    %vs = arith.mulf %v, %scale : f32
    %vo = arith.addf %vs, %offset : f32
    linalg.yield %vo : f32
  } -> tensor<?xf32>
  return %r : tensor<?xf32>
}

func.func @mplan_init_sin(%n: index, %seed: index, %scale: f32, %offset: f32) -> tensor<?xf32> {
  %e = tensor.empty(%n) : tensor<?xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} outs(%e : tensor<?xf32>) {
  ^bb0(%out: f32):
    %i = linalg.index 0 : index
    %ii = arith.index_cast %i : index to i64
    %if = arith.sitofp %ii : i64 to f32
    %sd = arith.index_cast %seed : index to i64
    %sf = arith.sitofp %sd : i64 to f32
    %c37 = arith.constant 0.37 : f32
    %a = arith.mulf %if, %c37 : f32
    %a2 = arith.addf %a, %sf : f32
    %v = math.sin %a2 : f32
    %vs = arith.mulf %v, %scale : f32
    %vo = arith.addf %vs, %offset : f32
    linalg.yield %vo : f32
  } -> tensor<?xf32>
  return %r : tensor<?xf32>
}
"""


def add_model_arg(out, call_args, i, flat, flat_type, shape, sizes):
    """Appends to `call_args` argument `i` of @model, of `shape`, made of the 1-D `flat` (of
    type `flat_type`) by a tensor.expand_shape to `sizes` (ints or SSA index values)."""
    if len(shape) == 1:
        call_args.append((flat, shape))
        return
    w = f"%w{i}"
    out.append(f"  {w} = tensor.expand_shape {flat} [[{', '.join(str(j) for j in range(len(shape)))}]] "
               f"output_shape [{', '.join(map(str, sizes))}] : {flat_type} into {tty(shape)}")
    call_args.append((w, shape))


def call_model(out, call_args, res_shape):
    out.append(f"  %res = call @model({', '.join(a for a, _ in call_args)}) : "
               f"({', '.join(tty(s) for _, s in call_args)}) -> {tty(res_shape)}")


def main_fn(m, result, full_print_limit=2048, slice_len=64):
    out = ["func.func @main() {"]
    call_args = []
    idx_consts = {}

    def ic(v):
        if v not in idx_consts:
            name = f"%ci{len(idx_consts)}"
            idx_consts[v] = name
            out.append(f"  {name} = arith.constant {v} : index")
        return idx_consts[v]

    for i, (ssa, shape, kind, scale, offset) in enumerate(m.params):
        n = math.prod(shape)
        seed = 17 + 31 * i
        d = f"%raw{i}"
        c = f"%flat{i}"
        out.append(f"  {d} = call @mplan_init_{kind}({ic(n)}, {ic(seed)}, "
                   f"{fconst_s(out, f'%sc{i}', scale)}, {fconst_s(out, f'%of{i}', offset)}) : "
                   f"(index, index, f32, f32) -> tensor<?xf32>")
        out.append(f"  {c} = tensor.cast {d} : tensor<?xf32> to tensor<{n}xf32>")
        add_model_arg(out, call_args, i, c, f"tensor<{n}xf32>", shape, shape)
    res_shape = result[1]
    call_model(out, call_args, res_shape)
    n = math.prod(res_shape)
    r = len(res_shape)
    if r > 1:
        out.append(f"  %flat = tensor.collapse_shape %res [[{', '.join(str(j) for j in range(r))}]] : "
                   f"{tty(res_shape)} into tensor<{n}xf32>")
    else:
        out.append("  %flat = tensor.cast %res : " + tty(res_shape) + f" to tensor<{n}xf32>")
    out += checksum_lines(n, f"model {m.name} output {'x'.join(map(str, res_shape))}")
    if n <= full_print_limit:
        out.append(f"  %pr = tensor.cast %res : {tty(res_shape)} to tensor<*xf32>")
    else:
        out.append(f"  %head = tensor.extract_slice %flat[0] [{slice_len}] [1] : tensor<{n}xf32> to tensor<{slice_len}xf32>")
        out.append(f"  %pr = tensor.cast %head : tensor<{slice_len}xf32> to tensor<*xf32>")
    out.append("  call @printMemrefF32(%pr) : (tensor<*xf32>) -> ()")
    out.append('  vector.print str "\\n"')
    out.append("  return")
    out.append("}")
    return out


def checksum_lines(n, title):
    """Prints `title`, then the sum, sum of squares, weighted sum by (i mod 13 + 1) and bit hash
    of %flat (n elements, "?" if dynamic)."""
    return [
        "  %z = arith.constant 0.0 : f32",
        "  %zi = arith.constant 0 : i32",
        "  %r0 = tensor.empty() : tensor<f32>",
        "  %acc0 = linalg.fill ins(%z : f32) outs(%r0 : tensor<f32>) -> tensor<f32>",
        "  %r1 = tensor.empty() : tensor<f32>",
        "  %acc1 = linalg.fill ins(%z : f32) outs(%r1 : tensor<f32>) -> tensor<f32>",
        "  %r2 = tensor.empty() : tensor<f32>",
        "  %acc2 = linalg.fill ins(%z : f32) outs(%r2 : tensor<f32>) -> tensor<f32>",
        "  %r3 = tensor.empty() : tensor<i32>",
        "  %acc3 = linalg.fill ins(%zi : i32) outs(%r3 : tensor<i32>) -> tensor<i32>",
        "  %red:4 = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> ()>, "
        "affine_map<(d0) -> ()>, affine_map<(d0) -> ()>, affine_map<(d0) -> ()>], "
        "iterator_types = [\"reduction\"]} ins(%flat : tensor<" + str(n) + "xf32>) "
        "outs(%acc0, %acc1, %acc2, %acc3 : tensor<f32>, tensor<f32>, tensor<f32>, tensor<i32>) {",
        "  ^bb0(%x: f32, %s: f32, %q: f32, %w: f32, %h: i32):",
        "    %i = linalg.index 0 : index",
        "    %c13 = arith.constant 13 : index",
        "    %c31 = arith.constant 31 : index",
        "    %c1 = arith.constant 1 : index",
        "    %i13 = arith.remui %i, %c13 : index",
        "    %i13p = arith.addi %i13, %c1 : index",
        "    %i13i = arith.index_cast %i13p : index to i64",
        "    %wt = arith.sitofp %i13i : i64 to f32",
        "    %i31 = arith.remui %i, %c31 : index",
        "    %i31p = arith.addi %i31, %c1 : index",
        "    %hw = arith.index_cast %i31p : index to i32",
        "    %s2 = arith.addf %s, %x : f32",
        "    %xx = arith.mulf %x, %x : f32",
        "    %q2 = arith.addf %q, %xx : f32",
        "    %xw = arith.mulf %x, %wt : f32",
        "    %wacc = arith.addf %w, %xw : f32",
        "    %bits = arith.bitcast %x : f32 to i32",
        "    %bm = arith.muli %bits, %hw : i32",
        "    %h2 = arith.addi %h, %bm : i32",
        "    linalg.yield %s2, %q2, %wacc, %h2 : f32, f32, f32, i32",
        "  } -> (tensor<f32>, tensor<f32>, tensor<f32>, tensor<i32>)",
        "  %vsum = tensor.extract %red#0[] : tensor<f32>",
        "  %vsq = tensor.extract %red#1[] : tensor<f32>",
        "  %vw = tensor.extract %red#2[] : tensor<f32>",
        "  %vh = tensor.extract %red#3[] : tensor<i32>",
        f"  vector.print str \"{title}\\n\"",
        "  vector.print str \"sum \"",
        "  vector.print %vsum : f32",
        "  vector.print str \"sumsq \"",
        "  vector.print %vsq : f32",
        "  vector.print str \"wsum \"",
        "  vector.print %vw : f32",
        "  vector.print str \"hash \"",
        "  vector.print %vh : i32",
    ]


def fconst_s(out, name, v):
    out.append(f"  {name} = arith.constant {fconst(v)} : f32")
    return name


def dynamic_run_fns(m, result, sizes):
    """For a model with one dynamic size: `@run(%n)` builds the inputs and weights with the
    dynamic size %n, calls @model and prints the checksums and the output; `@main` calls
    @run once per size of `sizes`. @run carries the model's bound (if any) too, so that its
    own buffers of size %n are bounded."""
    attrs = f" attributes {{mplan.arg_upper_bound = {m.bound} : i64}}" if m.bound else ""
    out = [f"func.func @run(%n: index){attrs} {{"]
    call_args = []
    for i, (ssa, shape, kind, scale, offset) in enumerate(m.params):
        seed = 17 + 31 * i
        rest = math.prod(d for d in shape if not is_dyn(d))
        count = f"%count{i}"
        out.append(f"  %rest{i} = arith.constant {rest} : index")
        if any(is_dyn(d) for d in shape):
            out.append(f"  {count} = arith.muli %n, %rest{i} : index")
        else:
            count = f"%rest{i}"
        out.append(f"  %seed{i} = arith.constant {seed} : index")
        d = f"%raw{i}"
        out.append(f"  {d} = call @mplan_init_{kind}({count}, %seed{i}, "
                   f"{fconst_s(out, f'%sc{i}', scale)}, {fconst_s(out, f'%of{i}', offset)}) : "
                   f"(index, index, f32, f32) -> tensor<?xf32>")
        # The shape at this call: the dynamic size is %n.
        call_shape = tuple("%n" if is_dyn(dim) else dim for dim in shape)
        flat = f"tensor<{numel(call_shape) if not any(map(is_dyn, call_shape)) else '?'}xf32>"
        if flat != "tensor<?xf32>":
            out.append(f"  %flat{i} = tensor.cast {d} : tensor<?xf32> to {flat}")
            d = f"%flat{i}"
        add_model_arg(out, call_args, i, d, flat, shape, call_shape)
    res_shape = result[1]
    call_model(out, call_args, res_shape)
    r = len(res_shape)
    dynamic = any(map(is_dyn, res_shape))
    n = "?" if dynamic else math.prod(res_shape)
    out.append(f"  %flat = tensor.collapse_shape %res [[{', '.join(str(j) for j in range(r))}]] : "
               f"{tty(res_shape)} into tensor<{n}xf32>")
    shape_text = "x".join("N" if is_dyn(d) else str(d) for d in res_shape)
    out.append(f"  vector.print str \"model {m.name} dynamic size N\\n\"")
    out.append("  %ni = arith.index_cast %n : index to i64")
    out.append("  vector.print %ni : i64")
    out += checksum_lines(n, f"output {shape_text}")
    out.append(f"  %pr = tensor.cast %res : {tty(res_shape)} to tensor<*xf32>")
    out.append("  call @printMemrefF32(%pr) : (tensor<*xf32>) -> ()")
    out.append('  vector.print str "\\n"')
    out.append("  return")
    out.append("}")
    out.append("")
    out.append("func.func @main() {")
    for size in sizes:
        out.append(f"  %n{size} = arith.constant {size} : index")
        out.append(f"  call @run(%n{size}) : (index) -> ()")
    out.append("  return")
    out.append("}")
    return out


def render(m, result, header):
    lines = ["// " + l if l else "//" for l in header.strip().split("\n")]
    lines.append("// Generated by models/gen_models.py; do not edit by hand.")
    lines.append(f"// @model has {len(m.params)} arguments (input + weights).")
    if m.dyn:
        lines.append("// Dynamic shapes: @main calls @run(N) for N in " + ", ".join(map(str, m.run_sizes)) +
                     (f"; N <= {m.bound} (mplan.arg_upper_bound on @model and @run)." if m.bound
                      else "; no bound is stated (generated with --no-bound)."))
    lines.append("")
    lines += m.to_mlir(result)
    lines.append("")
    lines += INIT_FN.rstrip("\n").split("\n")
    lines.append("")
    lines.append("func.func private @printMemrefF32(tensor<*xf32>)")
    lines.append("")
    if m.dyn:
        lines += dynamic_run_fns(m, result, m.run_sizes)
    else:
        lines += main_fn(m, result)
    return "\n".join(lines) + "\n"


# =====================================================================
# Integration-test programs (issue 2): small and fast.
# =====================================================================

def mlp():
    m = Model("mlp", "4-layer MLP 256-512-256-128-10, batch 16, ReLU")
    x = m.input((16, 256))
    for n in (512, 256, 128):
        x = m.dense(x, n, "relu")
    return m, m.dense(x, 10)


def basic_block(m, x, cout, stride):
    """ResNet basic block (He et al. 2016, Fig. 2 left / Table 1 for 18 & 34 layers)."""
    y = m.conv(x, cout, 3, stride, act="relu")
    y = m.conv(y, cout, 3, 1, act=None, gain=0.5)
    sc = x
    if stride != 1 or x[1][3] != cout:
        sc = m.conv(x, cout, 1, stride, pad=(0, 0), act=None)
    return m.add(y, sc, act="relu")


def resnet_block():
    m = Model("resnet_block", "stem + 3 residual basic blocks on 1x16x16x8")
    x = m.input((1, 16, 16, 8))
    x = m.conv(x, 16, 3, 1)
    x = basic_block(m, x, 16, 1)
    x = basic_block(m, x, 32, 2)
    x = basic_block(m, x, 32, 1)
    return m, x


def inception_like(m, x, c1, c5r, c5, c3r, c3, cp):
    b1 = m.conv(x, c1, 1, pad=(0, 0))
    b5 = m.conv(m.conv(x, c5r, 1, pad=(0, 0)), c5, 5)
    b3 = m.conv(m.conv(m.conv(x, c3r, 1, pad=(0, 0)), c3, 3), c3, 3)
    bp = m.conv(m.pool(x, 3, 1, 1, "avg"), cp, 1, pad=(0, 0))
    return m.concat([b1, b5, b3, bp], 3)


def inception():
    m = Model("inception", "two small Inception-A-style modules with a max pool between")
    x = m.input((1, 16, 16, 16))
    x = inception_like(m, x, 16, 12, 16, 16, 24, 8)  # -> 64 channels
    x = m.pool(x, 3, 2, 1, "max")                   # 8x8
    x = inception_like(m, x, 24, 16, 24, 24, 32, 16)  # -> 96 channels
    return m, x


def encoder_layer(m, x, heads, ffn, act, post_ln=True, causal=False, fused_qkv=False):
    s, d = x[1]
    if post_ln:
        h = x
    else:
        h = m.layernorm(x)
    if fused_qkv:
        qkv = m.dense(h, 3 * d)  # GPT-2 c_attn
        q = m.extract(qkv, [0, 0], [s, d])
        k = m.extract(qkv, [0, d], [s, d])
        v = m.extract(qkv, [0, 2 * d], [s, d])
    else:
        q, k, v = m.dense(h, d), m.dense(h, d), m.dense(h, d)
    a = m.dense(m.mha(q, k, v, heads, causal), d, gain=0.5)
    x = m.add(x, a)
    if post_ln:
        x = m.layernorm(x)
        f = m.dense(m.dense(x, ffn, act), d, gain=0.5)
        return m.layernorm(m.add(x, f))
    f = m.dense(m.dense(m.layernorm(x), ffn, act), d, gain=0.5)
    return m.add(x, f)


def attention():
    m = Model("attention", "encoder block: 4-head self-attention, residual, layernorm, FFN; S=16, D=64")
    x = m.input((16, 64))
    return m, encoder_layer(m, x, 4, 128, "gelu_erf")


# =====================================================================
# Model zoo (issue 6).
# =====================================================================

def mobilenetv2():
    # Sandler et al. 2018, Table 2: (t, c, n, s); width 1.0; input 96x96 (one of the paper's
    # resolutions, Fig. 5 / Table 6 sweep 96..224).
    m = Model("mobilenetv2", "MobileNetV2 1.0 at 96x96")
    x = m.input((1, 96, 96, 3))
    x = m.conv(x, 32, 3, 2, act="relu6")
    cfg = [(1, 16, 1, 1), (6, 24, 2, 2), (6, 32, 3, 2), (6, 64, 4, 2), (6, 96, 3, 1), (6, 160, 3, 2), (6, 320, 1, 1)]
    for t, c, n, s in cfg:
        for i in range(n):
            stride = s if i == 0 else 1
            cin = x[1][3]
            y = x
            if t != 1:
                y = m.conv(y, cin * t, 1, pad=(0, 0), act="relu6")
            y = m.dwconv(y, 3, stride, act="relu6")
            y = m.conv(y, c, 1, pad=(0, 0), act=None, gain=0.5)
            x = m.add(x, y) if (stride == 1 and cin == c) else y
    x = m.conv(x, 1280, 1, pad=(0, 0), act="relu6")
    x = m.global_avgpool(x)
    return m, m.dense(x, 1000)


def resnet(name, blocks, bottleneck, res):
    m = Model(name, f"{name} at {res}x{res}")
    x = m.input((1, res, res, 3))
    x = m.conv(x, 64, 7, 2, pad=(3, 3))
    x = m.pool(x, 3, 2, 1, "max")
    for stage, (n, w) in enumerate(zip(blocks, (64, 128, 256, 512))):
        for i in range(n):
            stride = 2 if (i == 0 and stage > 0) else 1
            if not bottleneck:
                x = basic_block(m, x, w, stride)
            else:  # torchvision v1.5: stride on the 3x3 conv
                y = m.conv(x, w, 1, pad=(0, 0))
                y = m.conv(y, w, 3, stride)
                y = m.conv(y, 4 * w, 1, pad=(0, 0), act=None, gain=0.5)
                sc = x
                if stride != 1 or x[1][3] != 4 * w:
                    sc = m.conv(x, 4 * w, 1, stride, pad=(0, 0), act=None)
                x = m.add(y, sc, act="relu")
    x = m.global_avgpool(x)
    return m, m.dense(x, 1000)


def resnet18():
    return resnet("resnet18", (2, 2, 2, 2), False, 64)


def resnet50():
    return resnet("resnet50", (3, 4, 6, 3), True, 64)


def inception_v3_module():
    # Szegedy et al. 2016 (Inception-v3), Fig. 5 module as in the reference implementation's
    # Mixed_5b: input 35x35x192; branches 1x1:64 | 1x1:48 -> 5x5:64 | 1x1:64 -> 3x3:96 -> 3x3:96 |
    # avgpool 3x3 -> 1x1:32; concat -> 35x35x256.
    m = Model("inception_v3_module", "Inception-v3 Mixed_5b (Inception-A) at 35x35x192")
    x = m.input((1, 35, 35, 192))
    return m, inception_like(m, x, 64, 48, 64, 64, 96, 32)


def bert_layer():
    # Devlin et al. 2019, BERT-base: L=12, H=768, A=12, FFN 4H=3072, GELU (erf), post-LN.
    m = Model("bert_layer", "BERT-base encoder layer, sequence 32")
    x = m.input((32, 768))
    return m, encoder_layer(m, x, 12, 3072, "gelu_erf")


def decoder_layer():
    # GPT-2 small (Radford et al. 2019; Vaswani et al. 2017 decoder): d_model 768, 12 heads,
    # FFN 3072, pre-LN, fused QKV projection, causal mask, GELU (tanh approximation).
    m = Model("decoder_layer", "GPT-2 small decoder layer, sequence 32, causal")
    x = m.input((32, 768))
    return m, encoder_layer(m, x, 12, 3072, "gelu_tanh", post_ln=False, causal=True, fused_qkv=True)


def pad_concat_cnn():
    # DenseNet-like (Huang et al. 2017): every layer pads its input explicitly and its output is
    # concatenated onto the running feature map (tensor.insert_slice into tensor.empty).
    m = Model("pad_concat_cnn", "DenseNet-style: 3 dense blocks x 4 layers, growth 12, 1x32x32x3")
    x = m.input((1, 32, 32, 3))
    x = m.conv(x, 24, 3)
    growth = 12
    for blk in range(3):
        for _ in range(4):
            y = m.conv(x, 4 * growth, 1, pad=(0, 0))  # bottleneck 1x1
            y = m.conv(y, growth, 3)                  # padded 3x3
            x = m.concat([x, y], 3)
        if blk < 2:
            c = x[1][3] // 2
            x = m.conv(x, c, 1, pad=(0, 0))
            x = m.pool(x, 2, 2, 0, "avg")
    x = m.global_avgpool(x)
    return m, m.dense(x, 10)


# =====================================================================
# Dynamic shapes (issue 15): one dynamic size, bounded with mplan.arg_upper_bound unless the
# generator runs with --no-bound.
# =====================================================================

# The bound the dynamic models state (None with --no-bound).
DYNAMIC_BOUND = {"decoder_step": 128, "cnn_dynamic_batch": 8}
STATE_BOUNDS = True


def append_row(m, cache, row, grown=None):
    """cache (L, D) ++ row (1, D) -> (L + 1, D), written with tensor.insert_slice; `grown` is
    the value L + 1 if an earlier append computed it."""
    size, d = cache[1]
    if grown is None:
        grown = m.fresh("len")
        one = m.fresh("c1")
        m.emit(f"{one} = arith.constant 1 : index")
        m.emit(f"{grown} = arith.addi {size}, {one} : index")
    shape = (grown, d)
    e = m.empty(shape)
    a = m.fresh("kv")
    m.emit(f"{a} = tensor.insert_slice {cache[0]} into {e}[0, 0] [{size}, {d}] [1, 1] : "
           f"{tty(cache[1])} into {tty(shape)}")
    b = m.fresh("kv")
    m.emit(f"{b} = tensor.insert_slice {row[0]} into {a}[{size}, 0] [1, {d}] [1, 1] : "
           f"{tty(row[1])} into {tty(shape)}")
    return (b, shape)


def decoder_step():
    # One token of autoregressive decoding in a GPT-2-style pre-LN decoder layer (Radford et
    # al. 2019) with a KV cache: the new token's key and value are appended to the caches of
    # dynamic length L (the previous tokens' projected keys and values), the single-token
    # query attends over all L + 1 of them (4 heads), then output projection, residual, FFN.
    d, heads, ffn = 128, 4, 512
    dh = d // heads
    bound = DYNAMIC_BOUND["decoder_step"] if STATE_BOUNDS else None
    m = Model("decoder_step", f"decoder step with a KV cache of dynamic length L (<= 128), "
              f"1 token, D={d}, {heads} heads, FFN {ffn}")
    m.bound, m.run_sizes = bound, (1, 17, 128)
    k_cache = m.input((DYN, d))
    v_cache = m.input((DYN, d))
    x = m.input((1, d))
    h = m.layernorm(x)
    q, k, v = m.dense(h, d), m.dense(h, d), m.dense(h, d)
    keys = append_row(m, k_cache, k)    # (L + 1, D)
    values = append_row(m, v_cache, v, keys[1][0])
    qh = m.heads(q, heads, [1, 0, 2])        # (h, 1, dh)
    kt = m.heads(keys, heads, [1, 2, 0])     # (h, dh, L + 1)
    vh = m.heads(values, heads, [1, 0, 2])   # (h, L + 1, dh)
    p = m.softmax_last(m.scale(m.batch_matmul(qh, kt), 1.0 / math.sqrt(dh)))  # (h, 1, L + 1)
    ctx = m.transpose(m.batch_matmul(p, vh), [1, 0, 2])                        # (1, h, dh)
    a = m.dense(m.collapse(ctx, [[0], [1, 2]]), d, gain=0.5)
    x = m.add(x, a)
    f = m.dense(m.dense(m.layernorm(x), ffn, "gelu_tanh"), d, gain=0.5)
    return m, m.add(x, f)


def cnn_dynamic_batch():
    # A small VGG-style CNN (Simonyan & Zisserman 2015) on 16x16x3 images with a dynamic batch
    # N (<= 8): three 3x3 convolutions with ReLU, two max pools, global average pool, classifier.
    bound = DYNAMIC_BOUND["cnn_dynamic_batch"] if STATE_BOUNDS else None
    m = Model("cnn_dynamic_batch", "CNN on Nx16x16x3 with a dynamic batch N (<= 8): "
              "conv 8, pool, conv 16, pool, conv 32, global average pool, dense 10")
    m.bound, m.run_sizes = bound, (1, 3, 8)
    x = m.input((DYN, 16, 16, 3))
    x = m.pool(m.conv(x, 8, 3), 2, 2)
    x = m.pool(m.conv(x, 16, 3), 2, 2)
    x = m.global_avgpool(m.conv(x, 32, 3))
    return m, m.dense(x, 10)


MODELS = {
    "mlp": mlp,
    "resnet_block": resnet_block,
    "inception": inception,
    "attention": attention,
    "mobilenetv2": mobilenetv2,
    "resnet18": resnet18,
    "resnet50": resnet50,
    "inception_v3_module": inception_v3_module,
    "bert_layer": bert_layer,
    "decoder_layer": decoder_layer,
    "pad_concat_cnn": pad_concat_cnn,
    "decoder_step": decoder_step,
    "cnn_dynamic_batch": cnn_dynamic_batch,
}


def write_models(models, names, out_dir, note):
    """Renders models[n]() -> (model, result) for each name into out_dir/n.mlir; exit status."""
    for n in names:
        if n not in models:
            print(f"unknown model {n!r}; known: {', '.join(models)}", file=sys.stderr)
            return 1
        m, res = models[n]()
        text = render(m, res, f"{n}: {m.description}\n{note}")
        path = os.path.join(out_dir, n + ".mlir")
        with open(path, "w") as f:
            f.write(text)
        print(f"{path}: {len(text)} bytes, {len(m.params)} model arguments")
    return 0


def arg_parser(doc):
    """--out-dir (default: models/), --list, and model names."""
    ap = argparse.ArgumentParser(description=doc, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--out-dir", default=os.path.dirname(os.path.abspath(__file__)))
    ap.add_argument("--list", action="store_true")
    ap.add_argument("names", nargs="*")
    return ap


def main():
    ap = arg_parser(__doc__)
    ap.add_argument("--no-bound", action="store_true",
                    help="models with dynamic shapes state no bound (mplan.arg_upper_bound); "
                         "their files are named NAME_unbounded.mlir")
    a = ap.parse_args()
    if a.list:
        print("\n".join(MODELS))
        return 0
    if a.no_bound:
        global STATE_BOUNDS
        STATE_BOUNDS = False
        dynamic = {n + "_unbounded": MODELS[n] for n in DYNAMIC_BOUND}
        names = [n + "_unbounded" for n in (a.names or DYNAMIC_BOUND)]
        return write_models(dynamic, names, a.out_dir,
                            "See models/README.md for the source of the shapes.")
    return write_models(MODELS, a.names or list(MODELS), a.out_dir,
                        "See models/README.md for the source of the shapes.")



if __name__ == "__main__":
    sys.exit(main())
