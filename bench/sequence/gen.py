#!/usr/bin/env python3
"""Branchy linalg-on-tensors programs for the sequencing benchmark.

Every activation is a 2-D tensor<ROWS x CHANNELS x f32> (ROWS = height x width of
the feature map), so buffer sizes are those of the cited networks while every op
stays a plain linalg op: a convolution is `linalg.matmul` with a constant weight
(the output has the size of the real k x k convolution's output) followed by a
ReLU `linalg.generic` (two buffers, as after One-Shot Bufferize of conv + ReLU),
a sum is an elementwise `linalg.generic`, a concatenation `tensor.concat` along
the channels (written in place by mplan-elide-copies) and a pooling an
elementwise op (same size) or a strided row map (down/up sampling in the U-Net).

Programs (shapes from the papers / torchvision):
  inception  Inception-v3 Mixed_5b/5c/5d (Szegedy et al., "Rethinking the
             Inception Architecture", CVPR 2016; torchvision inception_v3):
             35x35, 192/256/288 channels in, emitted breadth first (all branch
             heads, then the second layer of every branch, ...).
  randwire   a RandWire-WS(N=32, K=4, P=0.75) stage (Xie et al., "Exploring
             Randomly Wired Neural Networks", ICCV 2019; small regime, C=78 at
             28x28): node = sum of inputs, ReLU-conv; emitted in node id order.
  darts      a stack of DARTS-V2 normal cells (Liu et al., "DARTS", ICLR 2019;
             CIFAR, C=36, 32x32): sep_conv_3x3 = two convs, dil_conv = one,
             skip = identity; emitted breadth first.
  nasnet     NASNet-A normal cells (Zoph et al., CVPR 2018; C=44, 32x32):
             five blocks of two ops (sep convs, avg pools, identity) summed,
             concatenated; emitted breadth first.
  darts-reduce, nasnet-reduce
             the reduction cells of the same searches: the ops on the cell's
             inputs have stride 2 (a strided row map halves both sides, then the
             op), channels double; DARTS-V2's max pools and skips, NASNet-A's
             sep 7x7/5x5/3x3 convs, max and avg pools; a normal cell follows
             each reduction cell, all emitted breadth first.
  densenet   DenseNet-121 dense block 1 (Huang et al., CVPR 2017): 56x56, 64
             channels in, growth 32, bottleneck 128, 6 layers.
  unet       a small U-Net (Ronneberger et al., MICCAI 2015) at 64x64 with
             32/64/128/256 channels: the control (little to gain).
Each kind takes a seed for variants not seen while developing (`--seed`).
"""

import argparse
import random
import sys


class Program:
    def __init__(self, name):
        self.name = name
        self.lines = []
        self.counter = 0
        self.consts = {}

    def fresh(self, prefix):
        self.counter += 1
        return f"%{prefix}{self.counter}"

    def emit(self, line):
        self.lines.append("  " + line)

    @staticmethod
    def ty(rows, ch):
        return f"tensor<{rows}x{ch}xf32>"

    def conv(self, x, cout, relu=True):
        """k x k convolution as matmul by a constant weight, then ReLU."""
        val, rows, cin = x
        w = self.fresh("w")
        scale = 1.0 / cin * (1 + (self.counter % 5) * 0.25)
        self.emit(f"{w} = arith.constant dense<{scale:.6e}> : tensor<{cin}x{cout}xf32>")
        e = self.fresh("e")
        self.emit(f"{e} = tensor.empty() : {self.ty(rows, cout)}")
        f = self.fresh("f")
        self.emit(f"{f} = linalg.fill ins(%zero : f32) outs({e} : {self.ty(rows, cout)}) -> {self.ty(rows, cout)}")
        m = self.fresh("mm")
        self.emit(f"{m} = linalg.matmul ins({val}, {w} : {self.ty(rows, cin)}, tensor<{cin}x{cout}xf32>) "
                  f"outs({f} : {self.ty(rows, cout)}) -> {self.ty(rows, cout)}")
        if not relu:
            return (m, rows, cout)
        return self.map_(m, rows, cout, "relu")

    def map_(self, val, rows, ch, kind):
        e = self.fresh("e")
        self.emit(f"{e} = tensor.empty() : {self.ty(rows, ch)}")
        r = self.fresh("r")
        body = {"relu": "%m = arith.maximumf %a, %zero : f32",
                "pool": "%m = arith.mulf %a, %half : f32"}[kind]
        self.emit(f"{r} = linalg.generic {{indexing_maps = [#id, #id], iterator_types = "
                  f"[\"parallel\", \"parallel\"]}} ins({val} : {self.ty(rows, ch)}) "
                  f"outs({e} : {self.ty(rows, ch)}) {{")
        self.emit(f"^bb0(%a: f32, %o: f32):\n    {body}\n    linalg.yield %m : f32")
        self.emit(f"}} -> {self.ty(rows, ch)}")
        return (r, rows, ch)

    def pool(self, x):
        return self.map_(x[0], x[1], x[2], "pool")

    def add(self, xs):
        if len(xs) == 1:
            return xs[0]
        rows, ch = xs[0][1], xs[0][2]
        e = self.fresh("e")
        self.emit(f"{e} = tensor.empty() : {self.ty(rows, ch)}")
        r = self.fresh("s")
        args = ", ".join(f"%a{i}: f32" for i in range(len(xs)))
        maps = ", ".join(["#id"] * (len(xs) + 1))
        self.emit(f"{r} = linalg.generic {{indexing_maps = [{maps}], iterator_types = "
                  f"[\"parallel\", \"parallel\"]}} ins({', '.join(x[0] for x in xs)} : "
                  f"{', '.join(self.ty(rows, ch) for _ in xs)}) outs({e} : {self.ty(rows, ch)}) {{")
        body = [f"^bb0({args}, %o: f32):"]
        acc = "%a0"
        for i in range(1, len(xs)):
            body.append(f"    %t{i} = arith.addf {acc}, %a{i} : f32")
            acc = f"%t{i}"
        body.append(f"    linalg.yield {acc} : f32")
        self.emit("\n".join(body))
        self.emit(f"}} -> {self.ty(rows, ch)}")
        return (r, rows, ch)

    def concat(self, xs):
        if len(xs) == 1:
            return xs[0]
        rows = xs[0][1]
        ch = sum(x[2] for x in xs)
        r = self.fresh("cat")
        self.emit(f"{r} = tensor.concat dim(1) {', '.join(x[0] for x in xs)} : "
                  f"({', '.join(self.ty(rows, x[2]) for x in xs)}) -> {self.ty(rows, ch)}")
        return (r, rows, ch)

    def resample(self, x, factor, down):
        """Rows / factor (down) or rows * factor (up): strided row maps."""
        val, rows, ch = x
        out_rows = rows // factor if down else rows * factor
        e = self.fresh("e")
        self.emit(f"{e} = tensor.empty() : {self.ty(out_rows, ch)}")
        r = self.fresh("rs")
        in_map = (f"affine_map<(d0, d1) -> (d0 * {factor}, d1)>" if down
                  else f"affine_map<(d0, d1) -> (d0 floordiv {factor}, d1)>")
        self.emit(f"{r} = linalg.generic {{indexing_maps = [{in_map}, #id], iterator_types = "
                  f"[\"parallel\", \"parallel\"]}} ins({val} : {self.ty(rows, ch)}) "
                  f"outs({e} : {self.ty(out_rows, ch)}) {{")
        self.emit("^bb0(%a: f32, %o: f32):\n    linalg.yield %a : f32")
        self.emit(f"}} -> {self.ty(out_rows, ch)}")
        return (r, out_rows, ch)

    def text(self, inp, out, with_main):
        rows, ch = inp[1], inp[2]
        head = [f"// {self.name}: generated by bench/sequence/gen.py; do not edit by hand.",
                "#id = affine_map<(d0, d1) -> (d0, d1)>", "",
                f"func.func @model(%x: {self.ty(rows, ch)}) -> {self.ty(out[1], out[2])} {{",
                "  %zero = arith.constant 0.0 : f32", "  %half = arith.constant 0.5 : f32"]
        tail = [f"  return {out[0]} : {self.ty(out[1], out[2])}", "}"]
        text = "\n".join(head + self.lines + tail) + "\n"
        if with_main:
            text += MAIN.format(rows=rows, ch=ch, orows=out[1], och=out[2])
        return text


MAIN = """
func.func @fill2d(%n: index, %m: index) -> tensor<?x?xf32> {{
  %t = tensor.empty(%n, %m) : tensor<?x?xf32>
  %r = linalg.generic {{indexing_maps = [#id], iterator_types = ["parallel", "parallel"]}}
      outs(%t : tensor<?x?xf32>) {{
  ^bb0(%o: f32):
    %i = linalg.index 0 : index
    %j = linalg.index 1 : index
    %c7 = arith.constant 7 : index
    %i7 = arith.muli %i, %c7 : index
    %k = arith.addi %i7, %j : index
    %ki = arith.index_cast %k : index to i64
    %kf = arith.sitofp %ki : i64 to f32
    %s = math.sin %kf : f32
    linalg.yield %s : f32
  }} -> tensor<?x?xf32>
  return %r : tensor<?x?xf32>
}}

func.func private @printMemrefF32(tensor<*xf32>)

func.func @main() {{
  %n = arith.constant {rows} : index
  %m = arith.constant {ch} : index
  %d = call @fill2d(%n, %m) : (index, index) -> tensor<?x?xf32>
  %x = tensor.cast %d : tensor<?x?xf32> to tensor<{rows}x{ch}xf32>
  %y = call @model(%x) : (tensor<{rows}x{ch}xf32>) -> tensor<{orows}x{och}xf32>
  %u = tensor.cast %y : tensor<{orows}x{och}xf32> to tensor<*xf32>
  call @printMemrefF32(%u) : (tensor<*xf32>) -> ()
  return
}}
"""


def breadth_first(p, branches, x):
    """Each branch is a list of layer functions; emits layer 0 of every
    branch, then layer 1, ...; returns the branch outputs."""
    cur = [x] * len(branches)
    for depth in range(max(len(b) for b in branches)):
        for i, b in enumerate(branches):
            if depth < len(b):
                cur[i] = b[depth](cur[i])
    return cur


def conv_to(p, c):
    return lambda v: p.conv(v, c)


def inception(scale, seed, blocks=3):
    rng = random.Random(seed)
    hw = max(4, int(35 * scale))
    rows = hw * hw
    p = Program(f"Inception-v3 Mixed_5b-5d, {hw}x{hw}, breadth first (seed {seed})")
    x = ("%x", rows, 192 if scale >= 1 else max(8, int(192 * scale)))
    inp = x
    for proj in ([32, 64, 64] * blocks)[:blocks]:
        s = scale if scale < 1 else 1
        c = lambda n: max(4, int(n * s * rng.uniform(0.8, 1.2) if seed else n * s))
        branches = [[conv_to(p, c(64))],
                    [conv_to(p, c(48)), conv_to(p, c(64))],
                    [conv_to(p, c(64)), conv_to(p, c(96)), conv_to(p, c(96))],
                    [p.pool, conv_to(p, c(proj))]]
        x = p.concat(breadth_first(p, branches, x))
    return p, inp, x


def randwire(scale, seed):
    """Watts-Strogatz graph, nodes in id order, edges low id -> high id."""
    rng = random.Random(1000 + seed)
    n, k, prob = 32, 4, 0.75
    edges = set()
    for i in range(n):
        for j in range(1, k // 2 + 1):
            edges.add((i, (i + j) % n))
    rewired = set()
    for (a, b) in sorted(edges):
        if rng.random() < prob:
            c = rng.randrange(n)
            while c == a or (a, c) in rewired or (c, a) in rewired:
                c = rng.randrange(n)
            b = c
        rewired.add((a, b))
    dag = {(min(a, b), max(a, b)) for (a, b) in rewired}
    hw = max(4, int(28 * scale))
    ch = max(8, int(78 * min(scale, 1)))
    p = Program(f"RandWire-WS(32,4,0.75) stage, C={ch}, {hw}x{hw} (seed {seed})")
    x = ("%x", hw * hw, ch)
    inp = x
    preds = {v: sorted(a for (a, b) in dag if b == v) for v in range(n)}
    succs = {v: [b for (a, b) in dag if a == v] for v in range(n)}
    out = {}
    for v in range(n):
        ins = [out[u] for u in preds[v]] or [x]
        out[v] = p.conv(p.add(ins), ch)
    sinks = [out[v] for v in range(n) if not succs[v]]
    return p, inp, p.add(sinks)


def darts(scale, seed, cells=3):
    rng = random.Random(2000 + seed)
    hw = max(4, int(32 * scale))
    c = max(8, int(36 * min(scale, 1)))
    p = Program(f"DARTS-V2 normal cells x{cells}, C={c}, {hw}x{hw} (seed {seed})")
    rows = hw * hw
    x = ("%x", rows, c)
    inp = x
    s0, s1 = x, x
    # DARTS-V2 normal genotype; seeded variants draw ops and inputs at random.
    geno = [("sep", 0), ("sep", 1), ("sep", 0), ("sep", 1), ("sep", 1), ("skip", 0),
            ("skip", 0), ("dil", 2)]
    for cell in range(cells):
        if seed:
            geno = [(rng.choice(["sep", "sep", "dil", "skip"]), rng.randrange(2 + i // 2))
                    for i in range(8)]
        states = [p.conv(s0, c), p.conv(s1, c)]
        for node in range(4):
            ops = geno[2 * node:2 * node + 2]
            branches = []
            for (op, src) in ops:
                if op == "sep":
                    branches.append([conv_to(p, c), conv_to(p, c), conv_to(p, c), conv_to(p, c)])
                elif op == "dil":
                    branches.append([conv_to(p, c), conv_to(p, c)])
                else:
                    branches.append([])
            # Breadth first over the two ops of the node.
            cur = [states[src] for (op, src) in ops]
            for depth in range(max(len(b) for b in branches)):
                for i, b in enumerate(branches):
                    if depth < len(b):
                        cur[i] = b[depth](cur[i])
            states.append(p.add(cur))
        s0, s1 = s1, p.conv(p.concat(states[2:]), c)
    return p, inp, s1


def nasnet(scale, seed, cells=2):
    rng = random.Random(3000 + seed)
    hw = max(4, int(32 * scale))
    c = max(8, int(44 * min(scale, 1)))
    p = Program(f"NASNet-A normal cells x{cells}, C={c}, {hw}x{hw} (seed {seed})")
    x = ("%x", hw * hw, c)
    inp = x
    s0, s1 = x, x
    # NASNet-A normal cell: (op, input) pairs per block; h = prev, hp = prev-prev.
    blocks = [(("sep5", 1), ("sep3", 0)), (("sep5", 0), ("sep3", 0)), (("avg", 1), ("id", 0)),
              (("avg", 0), ("avg", 0)), (("sep3", 1), ("id", 1))]
    for cell in range(cells):
        if seed:
            blocks = [((rng.choice(["sep3", "sep5", "avg", "id"]), rng.randrange(2)),
                       (rng.choice(["sep3", "sep5", "avg", "id"]), rng.randrange(2)))
                      for _ in range(5)]
        h0, h1 = p.conv(s0, c), p.conv(s1, c)
        states = [h0, h1]
        branches, srcs = [], []
        for blk in blocks:
            for (op, src) in blk:
                srcs.append(states[src])
                branches.append({"sep3": [conv_to(p, c)] * 2, "sep5": [conv_to(p, c)] * 4,
                                 "avg": [p.pool], "id": []}[op])
        cur = list(srcs)
        for depth in range(max(len(b) for b in branches)):
            for i, b in enumerate(branches):
                if depth < len(b):
                    cur[i] = b[depth](cur[i])
        sums = [p.add([cur[2 * i], cur[2 * i + 1]]) for i in range(5)]
        s0, s1 = s1, p.concat(sums + [h0])
        s1 = p.conv(s1, c)
    return p, inp, s1


def _cell_breadth_first(p, ops, states):
    """Runs `ops` ((layers, source) pairs: `layers` a list of functions,
    `source` an index into `states`, inputs first) breadth first; returns
    their outputs."""
    cur = [states[src] for (_, src) in ops]
    for depth in range(max(len(layers) for (layers, _) in ops) if ops else 0):
        for i, (layers, _) in enumerate(ops):
            if depth < len(layers):
                cur[i] = layers[depth](cur[i])
    return cur


def _down(p):
    return lambda v: p.resample(v, 4, down=True)


def _reduction_ops(p, pairs, c, conv_layers):
    """The layers of each (op, source) of a reduction cell's block: stride 2 on
    the cell's inputs (sources 0 and 1), then `conv_layers[op]` convolutions,
    a pool (max, avg) or nothing (identity)."""
    ops = []
    for (op, src) in pairs:
        stride = [_down(p)] if src < 2 else []
        if op in conv_layers:
            layers = stride + [conv_to(p, c)] * conv_layers[op]
        elif op in ("max", "avg"):
            layers = stride + [p.pool]
        else:
            layers = stride
        ops.append((layers, src))
    return ops


def darts_reduce(scale, seed, cells=2):
    """DARTS-V2 reduction cells (Liu et al., ICLR 2019), each followed by a
    normal cell: reduce = [max_pool(0), max_pool(1)], [skip(2), max_pool(1)],
    [max_pool(0), skip(2)], [skip(2), max_pool(1)], concat of nodes 2-5."""
    rng = random.Random(5000 + seed)
    hw = max(8, int(32 * scale))
    c = max(8, int(36 * min(scale, 1)))
    p = Program(f"DARTS-V2 reduction + normal cells x{cells}, C={c}, {hw}x{hw} (seed {seed})")
    x = ("%x", hw * hw, c)
    s0, s1 = x, x
    geno = [("max", 0), ("max", 1), ("skip", 2), ("max", 1), ("max", 0), ("skip", 2),
            ("skip", 2), ("max", 1)]
    for cell in range(cells):
        c *= 2
        if seed:
            geno = [(rng.choice(["max", "avg", "sep", "skip"]), rng.randrange(2 + i // 2))
                    for i in range(8)]
        states = [p.conv(s0, c), p.conv(s1, c)]
        for node in range(4):
            ops = _reduction_ops(p, geno[2 * node:2 * node + 2], c, {"sep": 4})
            states.append(p.add(_cell_breadth_first(p, ops, states)))
        red = p.conv(p.concat(states[2:]), c)
        # A normal cell on the reduced maps (both inputs: the reduction's
        # output; the earlier state is at the old resolution).
        s0 = red
        n_states = [p.conv(red, c), p.conv(red, c)]
        ops = [([conv_to(p, c)] * 4, 0), ([conv_to(p, c)] * 4, 1), ([], 0), ([conv_to(p, c)] * 2, 1)]
        outs = _cell_breadth_first(p, ops, n_states)
        s1 = p.conv(p.concat([p.add(outs[0:2]), p.add(outs[2:4])]), c)
    return p, x, s1


def nasnet_reduce(scale, seed, cells=2):
    """NASNet-A reduction cells (Zoph et al., CVPR 2018), each followed by a
    normal cell: sep7(h0)+sep5(h1), max(h1)+sep7(h0), avg(h1)+sep5(h0),
    max(h1)+sep3(b1), avg(b1)+id(b2), concat of b2-b5; stride 2 on the
    cell's inputs."""
    rng = random.Random(6000 + seed)
    hw = max(8, int(32 * scale))
    c = max(8, int(44 * min(scale, 1)))
    p = Program(f"NASNet-A reduction + normal cells x{cells}, C={c}, {hw}x{hw} (seed {seed})")
    x = ("%x", hw * hw, c)
    s0, s1 = x, x
    layers_of = {"sep3": 2, "sep5": 4, "sep7": 6}
    blocks = [(("sep7", 0), ("sep5", 1)), (("max", 1), ("sep7", 0)), (("avg", 1), ("sep5", 0)),
              (("max", 1), ("sep3", 2)), (("avg", 2), ("id", 3))]
    for cell in range(cells):
        c *= 2
        if seed:
            blocks = [tuple((rng.choice(["sep3", "sep5", "sep7", "max", "avg", "id"]),
                             rng.randrange(2 + i)) for _ in range(2)) for i in range(5)]
        states = [p.conv(s0, c), p.conv(s1, c)]
        # Blocks on the inputs first (breadth first over all of them), then
        # the ones on earlier blocks in order.
        for blk in blocks:
            ops = _reduction_ops(p, blk, c, layers_of)
            states.append(p.add(_cell_breadth_first(p, ops, states)))
        red = p.conv(p.concat(states[3:]), c)
        s0 = red
        h0, h1 = p.conv(red, c), p.conv(red, c)
        n_states = [h0, h1]
        ops = [([conv_to(p, c)] * 4, 1), ([conv_to(p, c)] * 2, 0), ([p.pool], 1), ([], 0),
               ([conv_to(p, c)] * 2, 1), ([], 1)]
        outs = _cell_breadth_first(p, ops, n_states)
        sums = [p.add(outs[2 * i:2 * i + 2]) for i in range(3)]
        s1 = p.conv(p.concat(sums + [h0]), c)
    return p, x, s1


def densenet(scale, seed, layers=6):
    rng = random.Random(4000 + seed)
    hw = max(4, int(56 * scale))
    k = 32 if not seed else rng.choice([12, 24, 32, 48])
    c0 = max(8, int(64 * min(scale, 1)))
    p = Program(f"DenseNet-121 block 1, growth {k}, {hw}x{hw} (seed {seed})")
    x = ("%x", hw * hw, c0)
    feats = [x]
    for _ in range(layers):
        cat = p.concat(feats)
        feats.append(p.conv(p.conv(cat, 4 * k), k))
    return p, x, p.concat(feats)


def unet(scale, seed):
    hw = max(8, int(64 * scale))
    widths = [32, 64, 128, 256] if not seed else [16 * (seed % 3 + 1) * 2 ** i for i in range(4)]
    p = Program(f"U-Net, {hw}x{hw}, widths {widths} (seed {seed})")
    x = ("%x", hw * hw, 3)
    inp = x
    skips = []
    cur = x
    for i, w in enumerate(widths):
        cur = p.conv(p.conv(cur, w), w)
        if i < len(widths) - 1:
            skips.append(cur)
            cur = p.resample(cur, 4, down=True)
    for w, skip in zip(reversed(widths[:-1]), reversed(skips)):
        cur = p.resample(cur, 4, down=False)
        cur = p.conv(p.conv(p.concat([p.conv(cur, w), skip]), w), w)
    return p, inp, p.conv(cur, 2)


KINDS = {"inception": inception, "randwire": randwire, "darts": darts,
         "nasnet": nasnet, "darts-reduce": darts_reduce, "nasnet-reduce": nasnet_reduce,
         "densenet": densenet, "unet": unet}


def generate(kind, scale=1.0, seed=0, with_main=False, blocks=None):
    extra = {} if blocks is None else {"blocks": blocks}
    p, inp, out = KINDS[kind](scale, seed, **extra)
    return p.name, p.text(inp, out, with_main)


def main():
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("kind", choices=sorted(KINDS))
    ap.add_argument("--scale", type=float, default=1.0,
                    help="feature-map side (and, below 1, channels) relative to the paper")
    ap.add_argument("--seed", type=int, default=0, help="0: the published cell; else a variant")
    ap.add_argument("--main", action="store_true", help="add @main that runs and prints @model")
    args = ap.parse_args()
    sys.stdout.write(generate(args.kind, args.scale, args.seed, args.main)[1])


if __name__ == "__main__":
    main()
