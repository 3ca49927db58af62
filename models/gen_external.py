#!/usr/bin/python3
"""Generate "external-style" model programs: written the way other frontends emit them.

models/gen_models.py writes linalg-on-tensors the way we would write it. The programs here mimic
what other tools produce, so the planner is exercised on IR nobody here shaped for it:

  * ext_resnet18_tosa: ResNet-18 in the `tosa` dialect as a TOSA exporter (torch-to-tosa, TFLite)
    emits it: tosa.conv2d NHWC/OHWI with explicit zero points and pads trimmed so the output size
    divides (a tosa.slice before 1x1 stride-2 convs), batch norm as tosa.mul + tosa.add by
    per-channel tosa.const, tosa.clamp for ReLU, tosa.max_pool2d, tosa.avg_pool2d, tosa.reshape
    and tosa.matmul for the classifier. Lower it with
      mlir-opt --pass-pipeline="builtin.module(func.func(tosa-to-linalg-named,tosa-to-linalg,
                                tosa-to-arith,tosa-to-tensor))"
    before One-Shot Bufferize.
  * ext_bert_torch: a BERT encoder in torch-mlir's style: embedding gather as a linalg.generic
    with tensor.extract, every nn.Linear as a weight transpose (linalg.generic or linalg.transpose)
    + broadcast + linalg.batch_matmul + bias generic on rank-3 [1, S, H] tensors, heads through
    tensor.expand_shape/collapse_shape and permuting generics, softmax and layernorm as chains of
    generic reductions, GELU through math.erf.
  * ext_llm_decode: one decode step of a 28-layer Llama-style LLM (hidden 64, 4 heads, KV cache
    length 16): weights stacked per kind ([layers, ...], sliced per layer), the KV caches are
    function arguments updated in place with tensor.insert_slice (One-Shot Bufferize turns them
    into memref.copy into subviews of the arguments), rotary embedding through extract_slice and
    tensor.concat (keys) / insert_slice into tensor.empty (queries), RMSNorm, SwiGLU, causal mask
    from linalg.index.

Every file reuses gen_models.py's @main (deterministic inputs, checksum print) and initializers.
Usage:  /usr/bin/python3 models/gen_external.py [--out-dir models] [--small] [--list] [NAME ...]
`--small` writes the reduced variants the integration tests run (suffix `_small`).
"""

import math
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from gen_models import Model, amap, arg_parser, fconst, ident, tty, write_models  # noqa: E402


def dense_list(n, seed, scale, offset=0.0):
    """Deterministic per-channel constants, printed as a dense<[...]> literal."""
    return "[" + ", ".join(fconst(offset + scale * (((i * 37 + seed) % 23) / 11.0 - 1.0))
                           for i in range(n)) + "]"


# =====================================================================
# TOSA
# =====================================================================
class TosaModel(Model):
    """Emits tosa ops; weights of convolutions and the classifier are @model arguments."""

    def __init__(self, name, description):
        super().__init__(name, description)
        self.seed = 0
        self.emit('%zp = "tosa.const"() {values = dense<0.0> : tensor<1xf32>} : () -> tensor<1xf32>')
        self.emit('%shift = "tosa.const"() {values = dense<0> : tensor<1xi8>} : () -> tensor<1xi8>')

    def tconst(self, shape, values):
        self.seed += 1
        r = self.fresh("c")
        self.emit(f'{r} = "tosa.const"() {{values = dense<{values}> : {tty(shape)}}} : () -> {tty(shape)}')
        return (r, tuple(shape))

    def chan_const(self, c, scale, offset=0.0):
        return self.tconst((1, 1, 1, c), "[[[" + dense_list(c, self.seed * 7 + 3, scale, offset) + "]]]")

    def shape_const(self, shape):
        r = self.fresh("s")
        self.emit(f"{r} = tosa.const_shape {{values = dense<[{', '.join(map(str, shape))}]> : "
                  f"tensor<{len(shape)}xindex>}} : () -> !tosa.shape<{len(shape)}>")
        return r

    def slice(self, x, start, size):
        r = self.fresh("sl")
        s, z = self.shape_const(start), self.shape_const(size)
        self.emit(f"{r} = tosa.slice {x[0]}, {s}, {z} : ({tty(x[1])}, !tosa.shape<{len(start)}>, "
                  f"!tosa.shape<{len(size)}>) -> {tty(size)}")
        return (r, tuple(size))

    def reshape(self, x, shape):
        r = self.fresh("rs")
        s = self.shape_const(shape)
        self.emit(f"{r} = tosa.reshape {x[0]}, {s} : ({tty(x[1])}, !tosa.shape<{len(shape)}>) -> {tty(shape)}")
        return (r, tuple(shape))

    def binop(self, op, a, b, extra=""):
        r = self.fresh(op)
        shape = tuple(max(p, q) for p, q in zip(a[1], b[1]))
        ops = f"{a[0]}, {b[0]}" + (", %shift" if op == "mul" else "")
        types = f"{tty(a[1])}, {tty(b[1])}" + (", tensor<1xi8>" if op == "mul" else "")
        self.emit(f"{r} = tosa.{op} {ops} : ({types}) -> {tty(shape)}")
        return (r, shape)

    def relu(self, x):
        r = self.fresh("relu")
        self.emit(f"{r} = tosa.clamp {x[0]} {{max_val = 3.40282347E+38 : f32, min_val = 0.0 : f32}} : "
                  f"({tty(x[1])}) -> {tty(x[1])}")
        return (r, x[1])

    @staticmethod
    def tosa_pads(h, k, stride, p):
        """torch padding p on both sides, the bottom trimmed until the output size divides."""
        rem = (h - 1 + 2 * p - (k - 1)) % stride
        return p, p - rem, rem

    def conv_bn(self, x, cout, k, stride, p, relu=True, gain=1.0):
        n, h, w, c = x[1]
        top, bottom, rem = self.tosa_pads(h, k, stride, p)
        if bottom < 0:  # torch-to-tosa slices the input instead of a negative pad
            x = self.slice(x, [0, 0, 0, 0], [n, h - rem, w - rem, c])
            n, h, w, c = x[1]
            top, bottom, _ = self.tosa_pads(h, k, stride, p)
        oh = (h - 1 + top + bottom - (k - 1)) // stride + 1
        ow = (w - 1 + top + bottom - (k - 1)) // stride + 1
        wt = self.param((cout, k, k, c), gain * math.sqrt(6.0 / (k * k * c)))
        self.seed += 1
        b = self.tconst((cout,), dense_list(cout, self.seed, 0.05))
        oshape = (n, oh, ow, cout)
        r = self.fresh("conv")
        self.emit(f"{r} = tosa.conv2d {x[0]}, {wt[0]}, {b[0]}, %zp, %zp {{acc_type = f32, "
                  f"dilation = array<i64: 1, 1>, pad = array<i64: {top}, {bottom}, {top}, {bottom}>, "
                  f"stride = array<i64: {stride}, {stride}>}} : ({tty(x[1])}, {tty(wt[1])}, "
                  f"{tty(b[1])}, tensor<1xf32>, tensor<1xf32>) -> {tty(oshape)}")
        y = (r, oshape)
        # Batch norm (inference), not folded: x * scale + shift per channel.
        y = self.binop("mul", y, self.chan_const(cout, 0.1, 1.0))
        y = self.binop("add", y, self.chan_const(cout, 0.05))
        return self.relu(y) if relu else y

    def max_pool(self, x, k, stride, p):
        n, h, w, c = x[1]
        top, bottom, _ = self.tosa_pads(h, k, stride, p)
        oh = (h - 1 + top + bottom - (k - 1)) // stride + 1
        oshape = (n, oh, oh, c)
        r = self.fresh("mp")
        self.emit(f"{r} = tosa.max_pool2d {x[0]} {{kernel = array<i64: {k}, {k}>, "
                  f"pad = array<i64: {top}, {bottom}, {top}, {bottom}>, stride = array<i64: {stride}, {stride}>}} : "
                  f"({tty(x[1])}) -> {tty(oshape)}")
        return (r, oshape)

    def global_avg_pool(self, x):
        n, h, w, c = x[1]
        oshape = (n, 1, 1, c)
        r = self.fresh("ap")
        self.emit(f"{r} = tosa.avg_pool2d {x[0]}, %zp, %zp {{acc_type = f32, kernel = array<i64: {h}, {w}>, "
                  f"pad = array<i64: 0, 0, 0, 0>, stride = array<i64: 1, 1>}} : "
                  f"({tty(x[1])}, tensor<1xf32>, tensor<1xf32>) -> {tty(oshape)}")
        return (r, oshape)

    def fully_connected(self, x, nout):
        """[1, K] -> tosa.matmul [1, 1, K] x [1, K, N] + bias -> [1, N]."""
        k = x[1][1]
        a = self.reshape(x, (1, 1, k))
        w = self.param((1, k, nout), math.sqrt(6.0 / k))
        r = self.fresh("fc")
        self.emit(f"{r} = tosa.matmul {a[0]}, {w[0]}, %zp, %zp : ({tty(a[1])}, {tty(w[1])}, "
                  f"tensor<1xf32>, tensor<1xf32>) -> {tty((1, 1, nout))}")
        self.seed += 1
        b = self.tconst((1, 1, nout), "[[" + dense_list(nout, self.seed, 0.1) + "]]")
        y = self.binop("add", (r, (1, 1, nout)), b)
        return self.reshape(y, (1, nout))


def resnet18_tosa(res=64, widths=(64, 128, 256, 512), blocks=(2, 2, 2, 2), classes=1000,
                  name="ext_resnet18_tosa"):
    m = TosaModel(name, f"ResNet-18 (widths {widths}) in TOSA at {res}x{res}")
    x = m.input((1, res, res, 3))
    x = m.conv_bn(x, widths[0], 7, 2, 3)
    x = m.max_pool(x, 3, 2, 1)
    for stage, (nb, w) in enumerate(zip(blocks, widths)):
        for i in range(nb):
            stride = 2 if (i == 0 and stage > 0) else 1
            y = m.conv_bn(x, w, 3, stride, 1)
            y = m.conv_bn(y, w, 3, 1, 1, relu=False, gain=0.5)
            sc = x
            if stride != 1 or x[1][3] != w:
                sc = m.conv_bn(x, w, 1, stride, 0, relu=False)
            x = m.relu(m.binop("add", y, sc))
    x = m.global_avg_pool(x)
    x = m.reshape(x, (1, x[1][3]))
    return m, m.fully_connected(x, classes)


# =====================================================================
# torch-mlir-style linalg (shared by the BERT and the LLM programs)
# =====================================================================
class TorchStyleModel(Model):
    def transpose_generic(self, x, perm):
        """torch-mlir's aten.permute / aten.t: a copying linalg.generic with a permuted input map."""
        r = len(x[1])
        shape = tuple(x[1][p] for p in perm)
        inv = [0] * r
        for i, p in enumerate(perm):
            inv[p] = i
        imap = amap(r, [f"d{inv[i]}" for i in range(r)])
        return self.generic([(x, imap)], shape, ident(r), ["parallel"] * r, lambda n, o: ([], n[0]))

    def broadcast_batch(self, w):
        """[K, N] -> [1, K, N] through a broadcasting generic (torch-mlir's aten.broadcast_to)."""
        k, n = w[1]
        return self.generic([(w, amap(3, ["d1", "d2"]))], (1, k, n), ident(3), ["parallel"] * 3,
                            lambda a, o: ([], a[0]))

    def linear3(self, x, w, b=None, named_transpose=False):
        """nn.Linear on [1, S, K] with a weight [N, K]: transpose, broadcast, batch_matmul, bias."""
        wt = self.transpose(w, [1, 0]) if named_transpose else self.transpose_generic(w, [1, 0])
        y = self.batch_matmul(x, self.broadcast_batch(wt))
        if b is None:
            return y
        return self.generic([(y, ident(3)), (b, amap(3, ["d2"]))], y[1], ident(3), ["parallel"] * 3,
                            lambda n, o: ([f"%a = arith.addf {n[0]}, {n[1]} : f32"], "%a"))

    def reduce_inner(self, x, init_value, combine, keep=True):
        """Reduction of the last dimension into a [..., 1] (keepdim) result."""
        r = len(x[1])
        oshape = x[1][:-1] + (1,) if keep else x[1][:-1]
        init = self.filled(oshape, init_value)
        omap = amap(r, [f"d{i}" for i in range(r - 1)] + (["0"] if keep else []))
        return self.generic([(x, ident(r))], oshape, omap, ["parallel"] * (r - 1) + ["reduction"],
                            lambda n, o: combine(o, n[0]), init=init)

    def bcast_last(self, x, y, fn):
        """x [..., D] op y [..., 1] broadcast along the last dimension."""
        r = len(x[1])
        ymap = amap(r, [f"d{i}" for i in range(r - 1)] + ["0"])
        return self.generic([(x, ident(r)), (y, ymap)], x[1], ident(r), ["parallel"] * r,
                            lambda n, o: fn(n[0], n[1]))

    def softmax_torch(self, x):
        mx = self.reduce_inner(x, float("-inf"), lambda acc, v: (
            [f"%m = arith.maximumf {v}, {acc} : f32"], "%m"))
        ex = self.bcast_last(x, mx, lambda a, b: ([f"%d = arith.subf {a}, {b} : f32", "%e = math.exp %d : f32"], "%e"))
        sm = self.reduce_inner(ex, 0.0, lambda acc, v: ([f"%s = arith.addf {v}, {acc} : f32"], "%s"))
        return self.bcast_last(ex, sm, lambda a, b: ([f"%q = arith.divf {a}, {b} : f32"], "%q"))

    def layernorm_torch(self, x, eps=1e-12):
        d = x[1][-1]
        r = len(x[1])
        g = self.param((d,), 0.2, 1.0)
        b = self.param((d,), 0.1)
        s = self.reduce_inner(x, 0.0, lambda acc, v: ([f"%s = arith.addf {v}, {acc} : f32"], "%s"))
        mean = self.unary(s, lambda v: ([f"%n = arith.constant {fconst(float(d))} : f32",
                                         f"%q = arith.divf {v}, %n : f32"], "%q"))
        cen = self.bcast_last(x, mean, lambda a, b: ([f"%c = arith.subf {a}, {b} : f32"], "%c"))
        rstd = self.rsqrt_mean_square(cen, eps)
        nrm = self.bcast_last(cen, rstd, lambda a, b: ([f"%m = arith.mulf {a}, {b} : f32"], "%m"))
        last = amap(r, [f"d{r - 1}"])
        return self.generic([(nrm, ident(r)), (g, last), (b, last)], x[1], ident(r), ["parallel"] * r,
                            lambda n, o: ([f"%a = arith.mulf {n[0]}, {n[1]} : f32",
                                           f"%c = arith.addf %a, {n[2]} : f32"], "%c"))

    def rsqrt_mean_square(self, x, eps):
        """1 / sqrt(mean(x^2, last dim) + eps), kept as [..., 1]."""
        d = x[1][-1]
        sq = self.reduce_inner(x, 0.0, lambda acc, v: (
            [f"%q = arith.mulf {v}, {v} : f32", f"%s = arith.addf %q, {acc} : f32"], "%s"))
        return self.unary(sq, lambda v: ([f"%n = arith.constant {fconst(float(d))} : f32",
                                          f"%eps = arith.constant {fconst(eps)} : f32",
                                          f"%m = arith.divf {v}, %n : f32",
                                          "%a = arith.addf %m, %eps : f32",
                                          "%r = math.rsqrt %a : f32"], "%r"))

    def rmsnorm(self, x, g, eps=1e-6):
        rs = self.rsqrt_mean_square(x, eps)
        r = len(x[1])
        return self.generic([(x, ident(r)), (rs, amap(r, [f"d{i}" for i in range(r - 1)] + ["0"])),
                             (g, amap(r, [f"d{r - 1}"]))], x[1], ident(r), ["parallel"] * r,
                            lambda n, o: ([f"%a = arith.mulf {n[0]}, {n[1]} : f32",
                                           f"%b = arith.mulf %a, {n[2]} : f32"], "%b"))

    def concat_op(self, parts, axis):
        shape = list(parts[0][1])
        shape[axis] = sum(p[1][axis] for p in parts)
        r = self.fresh("cc")
        self.emit(f"{r} = tensor.concat dim({axis}) {', '.join(p[0] for p in parts)} : "
                  f"({', '.join(tty(p[1]) for p in parts)}) -> {tty(shape)}")
        return (r, tuple(shape))

    def insert(self, src, dst, offs):
        r = self.fresh("ins")
        self.emit(f"{r} = tensor.insert_slice {src[0]} into {dst[0]}[{', '.join(map(str, offs))}] "
                  f"[{', '.join(map(str, src[1]))}] [{', '.join(['1'] * len(src[1]))}] : "
                  f"{tty(src[1])} into {tty(dst[1])}")
        return (r, dst[1])

    def slice_reduce(self, x, index):
        """x[index] of a stacked [L, ...] tensor, rank-reduced (a subview after bufferization)."""
        rest = x[1][1:]
        r = self.fresh("ly")
        self.emit(f"{r} = tensor.extract_slice {x[0]}[{index}{', 0' * len(rest)}] "
                  f"[1, {', '.join(map(str, rest))}] [{', '.join(['1'] * len(x[1]))}] : "
                  f"{tty(x[1])} to {tty(rest)}")
        return (r, tuple(rest))


def bert_torch(layers=4, seq=32, hidden=128, heads=4, ffn=512, vocab=512, name="ext_bert_torch"):
    m = TorchStyleModel(name, f"BERT encoder ({layers} layers, hidden {hidden}, {heads} heads, "
                              f"FFN {ffn}, sequence {seq}) in torch-mlir's linalg style")
    dh = hidden // heads
    word = m.param((vocab, hidden), 0.5)
    pos = m.param((seq * 2, hidden), 0.1)
    mask = m.input((1, 1, 1, seq))  # additive attention mask
    ids = m.fresh("ids")
    m.emit(f"{ids} = arith.constant dense<[[{', '.join(str((i * 131 + 7) % vocab) for i in range(seq))}]]> : "
           f"tensor<1x{seq}xi64>")
    # Embedding: gather by tensor.extract inside a generic (torch-mlir's aten.embedding).
    e = m.empty((1, seq, hidden))
    g = m.fresh("emb")
    m.emit(f"{g} = linalg.generic {{indexing_maps = [{amap(3, ['d0', 'd1'])}, {ident(3)}], "
           f"iterator_types = [\"parallel\", \"parallel\", \"parallel\"]}} ins({ids} : tensor<1x{seq}xi64>) "
           f"outs({e} : {tty((1, seq, hidden))}) {{")
    m.emit("^bb0(%id: i64, %out: f32):")
    m.emit("  %ix = arith.index_cast %id : i64 to index")
    m.emit("  %d = linalg.index 2 : index")
    m.emit(f"  %v = tensor.extract {word[0]}[%ix, %d] : {tty(word[1])}")
    m.emit("  linalg.yield %v : f32")
    m.emit(f"}} -> {tty((1, seq, hidden))}")
    x = (g, (1, seq, hidden))
    p = m.extract(pos, [0, 0], [seq, hidden])
    x = m.generic([(x, ident(3)), (p, amap(3, ["d1", "d2"]))], x[1], ident(3), ["parallel"] * 3,
                  lambda n, o: ([f"%a = arith.addf {n[0]}, {n[1]} : f32"], "%a"))
    x = m.layernorm_torch(x)
    for _ in range(layers):
        def proj(v, nout, named=False):
            w = m.param((nout, v[1][2]), math.sqrt(6.0 / v[1][2]))
            b = m.param((nout,), 0.05)
            return m.linear3(v, w, b, named_transpose=named)
        q = proj(x, hidden, True)
        k = proj(x, hidden, True)
        v = proj(x, hidden)

        def split(t):  # [1, S, H] -> [1, A, S, dh] -> [A, S, dh]
            t = m.expand(t, [[0], [1], [2, 3]], (1, seq, heads, dh))
            return m.collapse(m.transpose_generic(t, [0, 2, 1, 3]), [[0, 1], [2], [3]])
        qh, vh = split(q), split(v)
        kt = m.expand(k, [[0], [1], [2, 3]], (1, seq, heads, dh))
        kt = m.collapse(m.transpose_generic(kt, [0, 2, 3, 1]), [[0, 1], [2], [3]])  # [A, dh, S]
        sc = m.expand(m.batch_matmul(qh, kt), [[0, 1], [2], [3]], (1, heads, seq, seq))
        inv = fconst(math.sqrt(dh))
        sc = m.generic([(sc, ident(4)), (mask, amap(4, ["0", "0", "0", "d3"]))], sc[1], ident(4),
                       ["parallel"] * 4, lambda n, o: ([f"%k = arith.constant {inv} : f32",
                                                        f"%d = arith.divf {n[0]}, %k : f32",
                                                        f"%a = arith.addf %d, {n[1]} : f32"], "%a"))
        pr = m.collapse(m.softmax_torch(sc), [[0, 1], [2], [3]])
        ctx = m.expand(m.batch_matmul(pr, vh), [[0, 1], [2], [3]], (1, heads, seq, dh))
        ctx = m.collapse(m.transpose_generic(ctx, [0, 2, 1, 3]), [[0], [1], [2, 3]])
        o = proj(ctx, hidden)
        x = m.layernorm_torch(m.generic([(o, ident(3)), (x, ident(3))], x[1], ident(3), ["parallel"] * 3,
                                        lambda n, o_: ([f"%a = arith.addf {n[0]}, {n[1]} : f32"], "%a")))
        h = m.act(proj(x, ffn), "gelu_erf")
        h = proj(h, hidden)
        x = m.layernorm_torch(m.generic([(h, ident(3)), (x, ident(3))], x[1], ident(3), ["parallel"] * 3,
                                        lambda n, o_: ([f"%a = arith.addf {n[0]}, {n[1]} : f32"], "%a")))
    return m, x


def llm_decode(layers=28, hidden=64, heads=4, ffn=128, cache=16, pos=9, vocab=256, name="ext_llm_decode"):
    m = TorchStyleModel(name, f"decode step of a {layers}-layer Llama-style LLM (hidden {hidden}, {heads} heads, "
                              f"SwiGLU {ffn}, KV cache {cache}, position {pos}); KV caches are arguments "
                              f"updated in place")
    dh = hidden // heads
    half = dh // 2
    x = m.input((1, hidden))
    wq = m.param((layers, hidden, hidden), math.sqrt(6.0 / hidden))
    wk = m.param((layers, hidden, hidden), math.sqrt(6.0 / hidden))
    wv = m.param((layers, hidden, hidden), math.sqrt(6.0 / hidden))
    wo = m.param((layers, hidden, hidden), 0.5 * math.sqrt(6.0 / hidden))
    wg = m.param((layers, hidden, ffn), math.sqrt(6.0 / hidden))
    wu = m.param((layers, hidden, ffn), math.sqrt(6.0 / hidden))
    wd = m.param((layers, ffn, hidden), 0.5 * math.sqrt(6.0 / ffn))
    n1 = m.param((layers, hidden), 0.2, 1.0)
    n2 = m.param((layers, hidden), 0.2, 1.0)
    nf = m.param((hidden,), 0.2, 1.0)
    head = m.param((hidden, vocab), math.sqrt(6.0 / hidden))
    cos = m.input((dh,))
    sin = m.input((dh,))
    caches = [(m.input((heads, cache, dh)), m.input((heads, cache, dh))) for _ in range(layers)]
    bmap = amap(2, ["d1"])

    def rope(t, use_concat):
        """t [heads, dh] -> t * cos + rotate_half(t) * sin."""
        lo = m.extract(t, [0, 0], [heads, half])
        hi = m.extract(t, [0, half], [heads, half])
        neg = m.unary(hi, lambda v: ([f"%n = arith.negf {v} : f32"], "%n"))
        if use_concat:
            rot = m.concat_op([neg, lo], 1)
        else:
            rot = m.insert(lo, m.insert(neg, (m.empty((heads, dh)), (heads, dh)), [0, 0]), [0, half])
        return m.generic([(t, ident(2)), (rot, ident(2)), (cos, bmap), (sin, bmap)], t[1], ident(2),
                         ["parallel"] * 2, lambda n, o: ([f"%a = arith.mulf {n[0]}, {n[2]} : f32",
                                                         f"%b = arith.mulf {n[1]}, {n[3]} : f32",
                                                         f"%c = arith.addf %a, %b : f32"], "%c"))

    def heads_of(t):  # [1, hidden] -> [heads, dh] (two reshapes, as exporters emit)
        t = m.expand(t, [[0], [1, 2]], (1, heads, dh))
        return m.collapse(t, [[0, 1], [2]])

    inv = fconst(1.0 / math.sqrt(dh))
    for l in range(layers):
        kc, vc = caches[l]
        xn = m.rmsnorm(x, m.slice_reduce(n1, l))
        q = rope(heads_of(m.matmul(xn, m.slice_reduce(wq, l))), False)
        k = rope(heads_of(m.matmul(xn, m.slice_reduce(wk, l))), True)
        v = heads_of(m.matmul(xn, m.slice_reduce(wv, l)))
        kc = m.insert(m.expand(k, [[0], [1, 2]], (heads, 1, dh)), kc, [0, pos, 0])
        vc = m.insert(m.expand(v, [[0], [1, 2]], (heads, 1, dh)), vc, [0, pos, 0])
        kt = m.transpose(kc, [0, 2, 1])                        # [heads, dh, cache]
        sc = m.batch_matmul(m.expand(q, [[0], [1, 2]], (heads, 1, dh)), kt)  # [heads, 1, cache]
        sc = m.generic([(sc, ident(3))], sc[1], ident(3), ["parallel"] * 3, lambda n, o: (
            ["%t = linalg.index 2 : index", f"%p = arith.constant {pos} : index",
             f"%k = arith.constant {inv} : f32", "%ninf = arith.constant 0xFF800000 : f32",
             f"%s = arith.mulf {n[0]}, %k : f32", "%c = arith.cmpi ugt, %t, %p : index",
             "%r = arith.select %c, %ninf, %s : f32"], "%r"))
        pr = m.softmax_torch(sc)
        ctx = m.batch_matmul(pr, vc)                                 # [heads, 1, dh]
        ctx = m.expand(m.collapse(ctx, [[0, 1, 2]]), [[0, 1]], (1, hidden))
        x = m.add(x, m.matmul(ctx, m.slice_reduce(wo, l)))
        xn = m.rmsnorm(x, m.slice_reduce(n2, l))
        gt = m.matmul(xn, m.slice_reduce(wg, l))
        up = m.matmul(xn, m.slice_reduce(wu, l))
        sw = m.binary(gt, up, lambda a, b: ([f"%n = arith.negf {a} : f32", "%e = math.exp %n : f32",
                                             "%one = arith.constant 1.0 : f32", "%d = arith.addf %e, %one : f32",
                                             f"%s = arith.divf {a}, %d : f32", f"%r = arith.mulf %s, {b} : f32"],
                                            "%r"))
        x = m.add(x, m.matmul(sw, m.slice_reduce(wd, l)))
    x = m.rmsnorm(x, nf)
    return m, m.matmul(x, head)


MODELS = {
    "ext_resnet18_tosa": (resnet18_tosa, dict(res=32, widths=(8, 16, 16, 32), classes=10)),
    "ext_bert_torch": (bert_torch, dict(layers=1, seq=8, hidden=32, heads=2, ffn=64, vocab=64)),
    "ext_llm_decode": (llm_decode, dict(layers=3, hidden=32, heads=2, ffn=64, cache=8, pos=5, vocab=32)),
}


def main():
    ap = arg_parser(__doc__)
    ap.add_argument("--small", action="store_true", help="the reduced variants (suffix _small)")
    a = ap.parse_args()
    if a.list:
        print("\n".join(MODELS))
        return 0
    suffix = "_small" if a.small else ""
    models = {}
    for n, (fn, small) in MODELS.items():
        kwargs = dict(small, name=n + suffix) if a.small else {}
        models[n + suffix] = lambda fn=fn, kwargs=kwargs: fn(**kwargs)
    return write_models(models, [n + suffix for n in a.names or MODELS], a.out_dir,
                        "Generated by models/gen_external.py (external-style program); see its docstring.")


if __name__ == "__main__":
    sys.exit(main())
