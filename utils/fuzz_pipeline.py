#!/usr/bin/python3
"""Randomized differential testing of the whole mplan pipeline.

Every seed gets one program kind (--kinds, default all: seed s gets kinds[s % len(kinds)]);
a program is deterministic in (kind, seed), so a failure reproduces from the two alone.

Kind `tensor` (the original generator, unchanged): a small random program in linalg on tensors
(elementwise linalg.generic chains, matmul, tensor.pad, tensor.concat, insert_slice into
tensor.empty, extract_slice, expand/collapse_shape, linalg.transpose, linalg.fill, reductions,
scf.for loops carrying tensors, scf.if selecting between tensors, calls between functions,
writes into function arguments, occasional i32/f64/f16 segments) with a `@main` that fills the
inputs deterministically and prints a checksum and the output. It runs the unplanned program
(utils/mplan_pipelines.py `baseline`) and the planned one (`planned`, with --mplan-verify-plan
and a JSON report) and reports any crash, diagnostic, output difference or arena above
1.02 x lower_bound_bytes. Arena `heap` for every seed; every --every-arena-th seed also
`stack`, `global` and `argument` (default options); with --variants, every
--every-arena-th seed (offset 2) also `heap` with the non-default plan options in VARIANTS.
The reference is the `baseline` pipeline, or the bufferized program lowered without
deallocation when the baseline's deallocation leaves a `bufferization.clone` it cannot lower.

Kind `options`: the same tensor programs, planned three times with options drawn per seed
(every strategy `mplan-opt --help` lists, alignment= 1..4096, every arena kind, sometimes
peak-guard/views-and-copies, the observer, or canonicalize/cse/licm between planning and
convert-mplan-to-memref; sequence=program|greedy|best|exact and inplace=true|false from a
stream of their own, as in every drawn run of the memref kinds).

Kind `branchy` (issue 12): a branchy @model in linalg on tensors built with
bench/sequence/gen.py's Program (matmul "convolutions", ReLU/pool maps, sums, tensor.concat):
Inception-style blocks emitted breadth first, random DAGs (RandWire-like), DenseNet-like
concatenations, or one of that benchmark's own generators (inception, randwire, darts, nasnet,
densenet, unet) at a small scale and a drawn seed; with chains of elementwise ops on one
activation (in-place candidates, inputs dying there or read later). Planned with
`sequence=best inplace=true` under every arena kind (arena within 1.02 x the program-order
bound) and once with `sequence=greedy` and a drawn strategy, arena and inplace.

Kinds of issue 20, each with a reference run (heap, sequence/inplace drawn, report), one drawn
run, and half the time a run with `capacity=default:C` set from the reference's report: C below
the largest lower_bound_bytes must be a located error naming the space and the capacity (counted
as ok and listed as an expected error), C at or above the largest arena must plan (arenas
within C), in between either:
  branchres  tensor scf.if / scf.index_switch (nested too) whose branches compute 1-2 results
             in tensors of their own (One-Shot Bufferize: memref.alloc + memref.cast yielded
             from every branch), sometimes an outer value or one buffer for two results;
             @f0 switches on a selector argument and @main calls it for every outcome
  argslice   memref.copy from a (strided) view of a function argument into a local buffer, read
             later; in between sometimes a write to the argument (store, through a view,
             linalg.fill, a copy, a callee), to another argument that @main aliases to it, or to
             the local buffer; the arguments are copied out at the end
  optout     memref.alloc/alloca {mplan.unplanned} next to planned buffers: copies out of and
             into (views of) them, writes through views, a "DMA" callee writing them while a
             copy is live; the planned memref IR must keep every opted-out allocation and the
             report list each as opted out
Every plan report is checked: lower_bound_bytes never above lower_bound_program_order_bytes.
Every baseline runs twice, the second time with MALLOC_PERTURB_: an output that changes means
the program reads memory nobody wrote (a generator bug).

The other kinds are memref-level programs (already bufferized, with their own deallocs):
  escape     a buffer escapes (memref.store into a memref of memrefs, in a box argument,
             extract_aligned_pointer_as_index, kept by a callee in a memref.global, returned by
             a callee, linalg.yield into an outs memref<1xmemref<..>>, directly or in a callee)
             next to a memref.copy out of a subview of it, later writes through the escape path
             (directly or in a callee), and a copy into a subview of it
  realloc    memref.realloc that grows and shrinks planned buffers (static, sometimes dynamic)
  spaces     buffers in the default space, integer space 1 and #gpu.address_space<workgroup>,
             memref.copy between spaces, sources rewritten after a copy
  elems      n-D and 1-D vector element types (memref.load/store, vector.load/store), i1, i4,
             i8..i64, f16, f64 buffers side by side, some with an alignment attribute
  parallel   func.call inside scf.parallel / scf.forall (arena=argument), lowered with OpenMP;
             the callee waits at a barrier so the iterations really overlap
  cfg        multi-block functions (cf.br/cf.cond_br, memrefs as block arguments, cf loops,
             bufferization.clone), called with several selectors; observer on in every run,
             every arena kind, and on the unplanned program
  recursion  self- and mutually recursive functions with a depth argument (arena=global)
  stack      a few MiB-sized buffers live together (arena=stack)
  dynamic    dynamically shaped buffers (issue 15): 1-3 functions with index and memref<?xf32> /
             memref<?x4xf32> arguments, each called from @main 2-4 times at sizes 0, 1, small,
             up to 1500, or at/below a stated bound; memref.alloc sized by arguments, memref.dim
             of arguments or of another dynamic alloc, arith/affine.apply on them (unbounded),
             affine.min clamps, mplan.upper_bound / mplan.dim_upper_bounds /
             mplan.arg_upper_bound (bounded), memref.load or an scf.for induction variable (not
             plannable), static allocs; 1-D, ?x4, 3x?, ?x? and expanded (?x4 view) buffers, in
             scf.for bodies and scf.if branches, through subviews, collapse/expand_shape,
             memref.cast, arith.select of two buffers, memref.copy between dynamic and static
             buffers, linalg.fill/generic/map, scf.if yielding a buffer allocated in each
             branch, two buffers swapped through scf.for iter_args, calls of an earlier function
             with clamped sizes; sometimes one buffer returned (must be reported unmanaged,
             `escapes via return`). Every buffer's sum and weighted sum is added to an output
             @main prints. Runs: default
             options under every arena kind, check-bounds=true, arg-upper-bound=N (N at or
             above every size passed to an argument without a bound attribute, sometimes with
             check-bounds), max-bound-bytes in 0..1024 (bounded buffers become run-time sized or
             unplanned), the observer (summary must say `errors 0`), one drawn run
The baseline lowers the program upstream as it is (mp.LOWER_TO_LLVM; memref.realloc and frees of
non-default spaces replaced by equivalents upstream lowers; #gpu.address_space<workgroup> as
space 3). The planned runs are mplan-plan-pipeline (default options, plus two drawn per seed as
above) + --mplan-verify-plan + convert-mplan-to-memref, an `mlir-opt` check of that memref IR when
it has gpu spaces, then [--mplan-instrument] --mplan-to-llvm and mlir-runner (with
libmplan_runtime.so when observed). Each run is ok, rejected (mplan-opt exits non-zero with
located errors only, no crash, no verifier-like or lowering message: an unsupported input) or a
failure; the summary counts seeds per kind and outcome (and seeds with a run planned with
sequencing and in-place on) and lists failure signatures and the rejection messages. Seeds run
sequentially (one process at a time), under `nice` (the caller's niceness if it is niced).

Usage:
  utils/fuzz_pipeline.py --seeds 0:300 [--kinds escape,realloc,...] [--mplan-opt build/bin/mplan-opt]
                        [--out /tmp/mplan-fuzz] [--variants] [--time-budget SECONDS] [--quiet]
                        [--opt-level 3]
  utils/fuzz_pipeline.py --kinds escape --gen 17      # print the program of seed 17 only
Exit status 1 if any seed failed; failing programs stay in --out as seed-N.mlir.
"""
import argparse
import json
import math
import os
import random
import re
import subprocess
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(ROOT, "utils"))
sys.path.insert(0, os.path.join(ROOT, "models"))
import mplan_pipelines as mp  # noqa: E402
from gen_models import INIT_FN  # noqa: E402

MAX_ELEMS = 2048
MAX_DIM = 24


def tty(shape, et="f32"):
    return "tensor<" + "".join(f"{d}x" for d in shape) + et + ">"


def idmap(r):
    d = ", ".join(f"d{i}" for i in range(r))
    return f"affine_map<({d}) -> ({d})>"


def fconst(v):
    return f"{v:.6e}"


class Val:
    def __init__(self, name, shape, et="f32"):
        self.name, self.shape, self.et = name, tuple(shape), et

    @property
    def ty(self):
        return tty(self.shape, self.et)


def nelems(shape):
    return math.prod(shape) if shape else 1


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


# ---- branchy graphs (issue 12): sequencing and in-place candidates -------------------------
_SEQGEN = []


def seqgen():
    """bench/sequence/gen.py (the sequencing benchmark's generators), imported once."""
    if not _SEQGEN:
        import importlib.util
        spec = importlib.util.spec_from_file_location(
            "mplan_sequence_gen", os.path.join(ROOT, "bench", "sequence", "gen.py"))
        mod = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(mod)
        _SEQGEN.append(mod)
    return _SEQGEN[0]


EW_BODIES = ["%m = arith.addf %a, %half : f32", "%m = arith.mulf %a, %half : f32",
             "%m = math.absf %a : f32", "%m = arith.subf %zero, %a : f32",
             "%m = arith.maximumf %a, %zero : f32", "%m = arith.minimumf %a, %half : f32"]


def branchy_program(seed):
    """A branchy linalg-on-tensors @model (bench/sequence/gen.py's Program: matmul "convs",
    ReLU/pool maps, sums, concats) with chains of elementwise ops on one activation, and a
    @main that fills the input and prints a checksum of the output."""
    sg = seqgen()
    r = random.Random(f"branchy:{seed}")

    class P(sg.Program):
        def ew_(self, x):
            """An elementwise op on x (an in-place candidate where x dies here)."""
            val, rows, ch = x
            e, o = self.fresh("e"), self.fresh("u")
            t = self.ty(rows, ch)
            self.emit(f"{e} = tensor.empty() : {t}")
            self.emit(f"{o} = linalg.generic {{indexing_maps = [#id, #id], iterator_types = "
                      f"[\"parallel\", \"parallel\"]}} ins({val} : {t}) outs({e} : {t}) {{")
            self.emit(f"^bb0(%a: f32, %o: f32):\n    {r.choice(EW_BODIES)}\n    linalg.yield %m : f32")
            self.emit(f"}} -> {t}")
            return (o, rows, ch)

        def chain(self, x, lo=1, hi=4):
            for _ in range(r.randint(lo, hi)):
                k = r.random()
                x = self.ew_(x) if k < 0.6 else self.map_(x[0], x[1], x[2], r.choice(["relu", "pool"]))
            return x

    def maybe_chain(p, x):
        return p.chain(x) if r.random() < 0.5 else x

    def inception(p, x):
        branches = []
        for _ in range(r.randint(2, 4)):
            layers = []
            for _ in range(r.randint(1, 3)):
                k = r.random()
                if k < 0.5:
                    layers.append(lambda v, c=r.randint(3, 16): p.conv(v, c, relu=r.random() < 0.7))
                elif k < 0.7:
                    layers.append(p.pool)
                else:
                    layers.append(lambda v: p.chain(v, 1, 3))
            branches.append(layers)
        return maybe_chain(p, p.concat(sg.breadth_first(p, branches, x)))

    def dag(p, x):
        c = x[2]
        out = []
        for v in range(r.randint(4, 12)):
            preds = r.sample(range(v), min(v, r.randint(1, 3))) if v else []
            ins = [out[u] for u in preds] or [x]
            k = r.random()
            if k < 0.4:
                y = p.conv(p.add(ins), c, relu=r.random() < 0.6)
            elif k < 0.7:
                y = p.chain(p.add(ins), 1, 3)
            elif k < 0.85:
                y = p.conv(p.concat(ins), c)
            else:
                y = p.add(ins + [p.pool(ins[0])])
            out.append(y)
        sinks = out[-r.randint(1, min(3, len(out))):]
        return maybe_chain(p, p.add(sinks) if r.random() < 0.6 else p.concat(sinks))

    def dense(p, x):
        feats = [x]
        g = r.randint(2, 8)
        for _ in range(r.randint(2, 5)):
            y = p.conv(p.concat(feats), r.randint(2, 4) * g)
            y = p.conv(y, g)
            feats.append(maybe_chain(p, y))
        return p.concat(feats)

    style = r.choice(["bench", "inception", "dag", "dense", "mixed", "mixed"])
    if style == "bench":
        name = r.choice(sorted(sg.KINDS))
        scale = r.choice([0.08, 0.1, 0.12, 0.15])
        if name == "unet":
            # Its three 4x row poolings need a side that is a multiple of 8 (0.15 gives 9).
            scale = min(scale, 0.125)
        p, inp, out = sg.KINDS[name](scale, r.randint(0, 99))
        body = p.text(inp, out, False)
    else:
        rows, c = r.choice([1, 2, 4, 6, 9, 12, 16, 25]), r.randint(2, 16)
        p = P(f"fuzz branchy {style}, seed {seed}")
        x = inp = ("%x", rows, c)
        segs = [style] if style != "mixed" else [r.choice(["inception", "dag", "dense"])
                                                 for _ in range(r.randint(2, 3))]
        for sgm in segs:
            if sgm == "dag" and x[2] != c:
                x = p.conv(x, c)
            x = {"inception": inception, "dag": dag, "dense": dense}[sgm](p, x)
            if x[2] > 96:
                x = p.conv(x, c)
        if r.random() < 0.3:
            x = p.chain(x)
        out = x
        body = p.text(inp, out, False)
    name = p.name
    shape_in, shape_out = (inp[1], inp[2]), (out[1], out[2])
    lines = [f"// mplan fuzz program, kind branchy, seed {seed} ({name}); generated by "
             f"utils/fuzz_pipeline.py --kinds branchy --gen {seed}"]
    lines += body.rstrip("\n").split("\n")[1:] + [""]
    lines += INIT_FN.rstrip("\n").split("\n") + [""]
    lines.append("func.func private @printMemrefF32(tensor<*xf32>)")
    lines.append("")
    init, args = init_lines([Val("%x", shape_in)])
    lines += ["func.func @main() {"] + init
    lines.append(f"  %y = call @model({args[0]}) : ({tty(shape_in)}) -> {tty(shape_out)}")
    lines += check_lines(0, "%y", shape_out, "0")
    lines += ["  return", "}"]
    return "\n".join(lines) + "\n"


# ---- memref-level programs (issue 19) -----------------------------------------------------
# These kinds are generated directly as bufferized memref IR with their own deallocs: the
# baseline lowers them upstream as they are, the planned pipeline plans them. Every kind is a
# function @f0 (plus helpers) called from a @main that fills the inputs, calls it and prints a
# sum and a bit hash of every output through @fz_check.

ID1 = "affine_map<(d0) -> (d0)>"
GPU_WG = "#gpu.address_space<workgroup>"
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


def mty(n, et="f32", space=None):
    dims = "".join(f"{d}x" for d in (n if isinstance(n, (tuple, list)) else (n,)))
    return f"memref<{dims}{et}{', ' + space if space else ''}>"


def svty(k, off, et="f32", space=None):
    return f"memref<{k}x{et}, strided<[1], offset: {off}>{', ' + space if space else ''}>"


class MBuf:
    def __init__(self, name, n, et="f32", space=None, ty=None):
        self.name, self.n, self.et, self.space = name, n, et, space
        self.ty = ty or mty(n, et, space)


class MF:
    """A function body at the memref level; helpers emit lines and return value names."""

    def __init__(self, prog, name):
        self.prog, self.name, self.r = prog, name, prog.r
        self.lines, self.n, self.ind = [], 0, "  "

    def fresh(self, h="v"):
        self.n += 1
        return f"%{h}{self.n}"

    def emit(self, s):
        self.lines.append(self.ind + s)

    def idx(self, v):
        n = self.fresh("ci")
        self.emit(f"{n} = arith.constant {int(v)} : index")
        return n

    def cf(self, v, et="f32"):
        n = self.fresh("cf")
        self.emit(f"{n} = arith.constant {fconst(v)} : {et}")
        return n

    def alloc(self, n, et="f32", space=None, align=None, op="memref.alloc"):
        b = MBuf(self.fresh("m"), n, et, space)
        attr = f" {{alignment = {align} : i64}}" if align else ""
        self.emit(f"{b.name} = {op}(){attr} : {b.ty}")
        return b

    def dealloc(self, b):
        if b.space and not self.prog.space_deallocs:
            return   # leaked: see gen_spaces
        line = f"memref.dealloc {b.name} : {b.ty}"
        self.emit(line)
        if b.space:
            # finalize-memref-to-llvm frees a pointer of another address space with a call
            # that does not verify: the baseline casts to the default space first.
            c = b.name + "_dflt"
            self.prog.expand[self.ind + line] = [
                f"{self.ind}{c} = memref.memory_space_cast {b.name} : {b.ty} to {mty(b.n, b.et)}",
                f"{self.ind}memref.dealloc {c} : {mty(b.n, b.et)}"]

    def sub(self, b, off, k):
        """A 1-D subview [off, off + k) of an f32 buffer."""
        if off == 0 and k == b.n and "strided" not in b.ty:
            return b
        n = self.fresh("sv")
        ty = svty(k, off, b.et, b.space)
        self.emit(f"{n} = memref.subview {b.name}[{off}] [{k}] [1] : {b.ty} to {ty}")
        return MBuf(n, k, b.et, b.space, ty)

    def copy(self, src, dst):
        self.emit(f"memref.copy {src.name}, {dst.name} : {src.ty} to {dst.ty}")

    def iota(self, dst, k=None):
        """dst[i] = ((i * a + k) mod 23 - 11) * s: exact small f32 values, no inputs."""
        r = self.r
        k = r.randint(0, 22) if k is None else k
        a, s = r.choice([3, 5, 7, 11]), r.choice([0.125, 0.25, 0.5, -0.375])
        self.emit(f"linalg.generic {{indexing_maps = [{ID1}], iterator_types = [\"parallel\"]}} "
                  f"outs({dst.name} : {dst.ty}) {{")
        self.emit("^bb0(%_o: f32):")
        for l in [
                "%_i = linalg.index 0 : index", f"%_a = arith.constant {a} : index",
                f"%_k = arith.constant {k} : index", "%_p = arith.constant 23 : index",
                "%_ia = arith.muli %_i, %_a : index", "%_ik = arith.addi %_ia, %_k : index",
                "%_im = arith.remui %_ik, %_p : index", "%_ii = arith.index_cast %_im : index to i32",
                "%_e = arith.constant 11 : i32", "%_d = arith.subi %_ii, %_e : i32",
                "%_f = arith.sitofp %_d : i32 to f32", f"%_s = arith.constant {fconst(s)} : f32",
                "%_r = arith.mulf %_f, %_s : f32"]:
            self.emit("  " + l)
        self.emit("  linalg.yield %_r : f32")
        self.emit("}")

    def ew(self, dst, srcs):
        """dst = f(srcs...) elementwise (all 1-D f32 of one length)."""
        r = self.r
        ins = (f" ins({', '.join(s.name for s in srcs)} : {', '.join(s.ty for s in srcs)})"
               if srcs else "")
        self.emit(f"linalg.generic {{indexing_maps = [{', '.join([ID1] * (len(srcs) + 1))}], "
                  f"iterator_types = [\"parallel\"]}}{ins} outs({dst.name} : {dst.ty}) {{")
        args = [f"%_b{i}" for i in range(len(srcs))]
        self.emit("^bb0(" + ", ".join(f"{a}: f32" for a in args + ["%_o"]) + "):")
        cur = args[0] if args else "%_o"
        k = 0
        for a in args[1:]:
            k += 1
            self.emit(f"  %_t{k} = arith.{r.choice(['addf', 'subf', 'mulf', 'maximumf'])} {cur}, {a} : f32")
            cur = f"%_t{k}"
        k += 1
        self.emit(f"  %_t{k}c = arith.constant {fconst(r.choice([0.5, 1.5, -0.75, 0.125]))} : f32")
        self.emit(f"  %_t{k} = arith.{r.choice(['mulf', 'addf'])} {cur}, %_t{k}c : f32")
        self.emit(f"  linalg.yield %_t{k} : f32")
        self.emit("}")

    def text(self, sig, results=""):
        out = [f"func.func @{self.name}({sig}){(' -> ' + results) if results else ''} {{"]
        out += self.lines
        out.append("}")
        return out


FZ_HELPERS = """\
// @fz_init: m[i] = ((i * 7 + seed) mod 29 - 14) / 8 (exact in f32)
func.func @fz_init(%m: memref<?xf32>, %seed: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c7 = arith.constant 7 : index
  %c29 = arith.constant 29 : index
  %n = memref.dim %m, %c0 : memref<?xf32>
  scf.for %i = %c0 to %n step %c1 {
    %a = arith.muli %i, %c7 : index
    %b = arith.addi %a, %seed : index
    %h = arith.remui %b, %c29 : index
    %hi = arith.index_cast %h : index to i32
    %c14 = arith.constant 14 : i32
    %d = arith.subi %hi, %c14 : i32
    %f = arith.sitofp %d : i32 to f32
    %s = arith.constant 0.125 : f32
    %v = arith.mulf %f, %s : f32
    memref.store %v, %m[%i] : memref<?xf32>
  }
  return
}

// @fz_check: prints the sum and a hash of the bits of m (position-weighted)
func.func @fz_check(%m: memref<?xf32>, %id: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c31 = arith.constant 31 : index
  %n = memref.dim %m, %c0 : memref<?xf32>
  %z = arith.constant 0.0 : f32
  %zi = arith.constant 0 : i32
  %r:2 = scf.for %i = %c0 to %n step %c1 iter_args(%s = %z, %h = %zi) -> (f32, i32) {
    %x = memref.load %m[%i] : memref<?xf32>
    %s2 = arith.addf %s, %x : f32
    %w = arith.remui %i, %c31 : index
    %w1 = arith.addi %w, %c1 : index
    %wi = arith.index_cast %w1 : index to i32
    %bits = arith.bitcast %x : f32 to i32
    %bm = arith.muli %bits, %wi : i32
    %h2 = arith.addi %h, %bm : i32
    scf.yield %s2, %h2 : f32, i32
  }
  vector.print str "output "
  vector.print %id : index
  vector.print str "sum "
  vector.print %r#0 : f32
  vector.print str "hash "
  vector.print %r#1 : i32
  return
}
"""


class MProg:
    """A memref-level program of one kind; deterministic in (kind, seed)."""

    def __init__(self, kind, seed):
        self.kind, self.seed = kind, seed
        self.r = random.Random(f"{kind}:{seed}")
        self.funcs = []     # text blocks (lists of lines)
        self.decls = []     # globals and declarations
        self.ins, self.outs = [], []   # sizes of @f0's f32 inputs and outputs
        self.extra_args = []           # (name in main, type) after ins and outs
        self.main_setup = []           # lines in @main before the call(s)
        self.calls = None              # lines in @main calling @f0 (default: one call)
        self.needs = set()             # "omp": lower scf.parallel with OpenMP; "gpu": gpu space
        self.arenas = []               # arena kinds this program must run with
        self.observe = False           # run every planned program with the observer
        self.expand = {}               # line -> lines replacing it in the baseline's program
        self.space_deallocs = True     # dealloc buffers of non-default memory spaces
        self._text = None

    def f0(self):
        f = MF(self, "f0")
        return f

    def f0_sig(self):
        sig = [f"%x{i}: {mty(n)}" for i, n in enumerate(self.ins)]
        sig += [f"%y{j}: {mty(n)}" for j, n in enumerate(self.outs)]
        sig += [f"%e{k}: {t}" for k, (_, t) in enumerate(self.extra_args)]
        return ", ".join(sig)

    def main(self):
        out = ["func.func @main() {"]
        names = []
        for i, n in enumerate(self.ins):
            out += [f"  %in{i} = memref.alloc() : {mty(n)}",
                    f"  %inc{i} = memref.cast %in{i} : {mty(n)} to memref<?xf32>",
                    f"  %s{i} = arith.constant {3 + 5 * i} : index",
                    f"  call @fz_init(%inc{i}, %s{i}) : (memref<?xf32>, index) -> ()"]
            names.append((f"%in{i}", mty(n)))
        for j, n in enumerate(self.outs):
            out += [f"  %out{j} = memref.alloc() : {mty(n)}",
                    f"  %z{j} = arith.constant 0.0 : f32",
                    f"  linalg.fill ins(%z{j} : f32) outs(%out{j} : {mty(n)})"]
            names.append((f"%out{j}", mty(n)))
        out += ["  " + l for l in self.main_setup]
        names += self.extra_args
        if self.calls is None:
            out.append(f"  call @f0({', '.join(n for n, _ in names)}) : "
                       f"({', '.join(t for _, t in names)}) -> ()")
        else:
            out += ["  " + l for l in self.calls(names)]
        for j, n in enumerate(self.outs):
            out += [f"  %oc{j} = memref.cast %out{j} : {mty(n)} to memref<?xf32>",
                    f"  %id{j} = arith.constant {j} : index",
                    f"  call @fz_check(%oc{j}, %id{j}) : (memref<?xf32>, index) -> ()"]
        for i, n in enumerate(self.ins):
            out.append(f"  memref.dealloc %in{i} : {mty(n)}")
        for j, n in enumerate(self.outs):
            out.append(f"  memref.dealloc %out{j} : {mty(n)}")
        out += ["  return", "}"]
        return out

    def baseline_text(self):
        """The program for the baseline: ops upstream cannot lower as they are (memref.realloc,
        whose expand-realloc makes invalid subviews when shrinking; deallocs outside the
        default memory space) replaced by equivalents."""
        return "\n".join(sum((self.expand.get(l, [l]) for l in self.text().split("\n")), [])) 

    def text(self):
        if self._text is None:
            self._text = self._gen()
        return self._text

    def _gen(self):
        getattr(self, "gen_" + self.kind)()
        lines = [f"// mplan fuzz program, kind {self.kind}, seed {self.seed}; generated by "
                 f"utils/fuzz_pipeline.py --kinds {self.kind} --gen {self.seed}", ""]
        lines += self.decls + ([""] if self.decls else [])
        for f in self.funcs:
            lines += f + [""]
        lines += FZ_HELPERS.rstrip("\n").split("\n") + [""]
        lines += self.main()
        return "\n".join(lines) + "\n"

    def add_out(self, f, n):
        self.outs.append(n)
        return MBuf(f"%y{len(self.outs) - 1}", n)

    def add_in(self, n):
        self.ins.append(n)
        return MBuf(f"%x{len(self.ins) - 1}", n)

    # ---- escape: buffers that escape next to copies out of them --------------------------
    def gen_escape(self):
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

    # ---- realloc ------------------------------------------------------------------------------
    def realloc(self, f, cur, b, line, alloc):
        """Emits `line` (a memref.realloc of cur into b); the baseline gets alloc, copy of the
        common prefix, dealloc of cur instead."""
        f.emit(line)
        m = min(cur.n, b.n)
        i = f.ind
        self.expand[i + line] = [
            i + alloc,
            f"{i}{b.name}_src = memref.subview {cur.name}[0] [{m}] [1] : {cur.ty} to {svty(m, 0)}",
            f"{i}{b.name}_dst = memref.subview {b.name}[0] [{m}] [1] : {b.ty} to {svty(m, 0)}",
            f"{i}memref.copy {b.name}_src, {b.name}_dst : {svty(m, 0)} to {svty(m, 0)}",
            f"{i}memref.dealloc {cur.name} : {cur.ty}"]

    def gen_realloc(self):
        r = self.r
        f = self.f0()
        n0 = r.randint(4, 32)
        x = self.add_in(max(n0, 8))
        a = f.alloc(n0)
        f.ew(a, [f.sub(x, 0, n0)])
        keep = []
        if r.random() < 0.5:
            p = f.alloc(r.randint(4, 32))
            f.iota(p)
            keep.append(p)
        cur = a
        for _ in range(r.randint(1, 2)):
            n1 = r.choice([r.randint(1, max(1, cur.n - 1)), r.randint(cur.n + 1, cur.n + 40)])
            b = MBuf(f.fresh("re"), n1)
            self.realloc(f, cur, b, f"{b.name} = memref.realloc {cur.name} : {cur.ty} to {b.ty}",
                         f"{b.name} = memref.alloc() : {b.ty}")
            if n1 > cur.n:
                f.iota(f.sub(b, cur.n, n1 - cur.n))
            if r.random() < 0.7:
                c = f.alloc(r.randint(1, 48))
                f.iota(c)
                m = min(c.n, n1)
                d = f.alloc(m)
                f.ew(d, [f.sub(b, 0, m), f.sub(c, 0, m)])
                f.dealloc(c)
                f.copy(d, self.add_out(f, m))
                f.dealloc(d)
            f.copy(b, self.add_out(f, n1))
            cur = b
        if r.random() < 0.3:
            # A dynamically sized realloc.
            nd = r.randint(1, 50)
            cn = f.idx(nd)
            b = MBuf(f.fresh("re"), nd, ty="memref<?xf32>")
            self.realloc(f, cur, b, f"{b.name} = memref.realloc {cur.name}({cn}) : {cur.ty} to memref<?xf32>",
                         f"{b.name} = memref.alloc({cn}) : memref<?xf32>")
            o = self.add_out(f, nd)
            m = min(nd, cur.n)
            sv = f.fresh("sv")
            f.emit(f"{sv} = memref.subview {b.name}[0] [{m}] [1] : memref<?xf32> to {svty(m, 0)}")
            f.copy(MBuf(sv, m, ty=svty(m, 0)), f.sub(o, 0, m))
            cur = b
        e = f.alloc(r.randint(1, 40))
        f.iota(e)
        f.copy(e, self.add_out(f, e.n))
        f.dealloc(e)
        f.dealloc(cur)
        for p in keep:
            f.copy(p, self.add_out(f, p.n))
            f.dealloc(p)
        f.emit("return")
        self.funcs.append(f.text(self.f0_sig()))

    # ---- memory spaces --------------------------------------------------------------------
    def gen_spaces(self):
        r = self.r
        f = self.f0()
        spaces = [None, "1"] + ([GPU_WG] if r.random() < 0.5 else [])
        # Half the programs free their buffers of non-default spaces, half leak them.
        self.space_deallocs = r.random() < 0.5
        if GPU_WG in spaces:
            self.needs.add("gpu")
        n = r.randint(4, 32)
        x = self.add_in(n)
        live = [x]
        owned = []
        for step in range(r.randint(3, 7)):
            s = r.choice(spaces)
            src = r.choice(live)
            k = r.randint(1, src.n)
            off = r.randint(0, src.n - k)
            b = f.alloc(k, space=s)
            what = r.random()
            if what < 0.5:
                f.copy(f.sub(src, off, k), b)
            elif what < 0.8:
                f.ew(b, [f.sub(src, off, k)])
            else:
                f.iota(b)
            if r.random() < 0.3 and src is not x:
                f.iota(src)   # the source changes after the copy
            live.append(b)
            owned.append(b)
            if len(owned) > 2 and r.random() < 0.3:
                d = owned.pop(r.randrange(len(owned) - 1))
                f.copy(d, self.add_out(f, d.n))
                live.remove(d)
                f.dealloc(d)
        for b in owned:
            if r.random() < 0.5:
                o = self.add_out(f, b.n)
                tmp = f.alloc(b.n, space=r.choice(spaces))
                f.copy(b, tmp)
                f.copy(tmp, o)
                f.dealloc(tmp)
            else:
                f.copy(b, self.add_out(f, b.n))
            f.dealloc(b)
        f.emit("return")
        self.funcs.append(f.text(self.f0_sig()))

    # ---- element types: n-D vectors, sub-byte integers ------------------------------------
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

    def gen_elems(self):
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

    # ---- calls inside scf.parallel (arena=argument) -----------------------------------------
    def gen_parallel(self):
        r = self.r
        self.needs.add("omp")
        self.arenas = ["argument"]
        n = r.randint(4, 32)
        p = r.randint(2, 4)
        self.par_threads = p
        forall = r.random() < 0.3
        x = self.add_in(n)
        out = self.add_out(None, p * n)
        # The callee: temporaries that depend on the iteration, a barrier (bounded spin on an
        # atomic counter) so that concurrent iterations overlap, then the temporaries are read.
        g = MF(self, "work")
        t1 = g.alloc(n)
        g.ew(t1, [MBuf("%x", n)])
        kf = g.fresh("kf")
        ki = g.fresh("ki")
        g.emit(f"{ki} = arith.index_cast %k : index to i32")
        g.emit(f"{kf} = arith.sitofp {ki} : i32 to f32")
        g.emit(f"linalg.generic {{indexing_maps = [{ID1}], iterator_types = [\"parallel\"]}} "
               f"outs({t1.name} : {t1.ty}) {{")
        g.emit("^bb0(%_o: f32):")
        g.emit(f"  %_r = arith.addf %_o, {kf} : f32")
        g.emit("  linalg.yield %_r : f32")
        g.emit("}")
        temps = [t1]
        if r.random() < 0.5:
            t2 = g.alloc(r.randint(1, n))
            g.copy(g.sub(t1, 0, t2.n), t2)
            temps.append(t2)
        g.emit("%one = arith.constant 1 : i32")
        g.emit("%old = memref.atomic_rmw addi %one, %ctr[] : (i32, memref<i32>) -> i32")
        g.emit("%zero = arith.constant 0 : i32")
        g.emit("%lim = arith.constant 20000000 : i32")
        g.emit("%w:2 = scf.while (%seen = %zero, %spins = %zero) : (i32, i32) -> (i32, i32) {")
        g.emit("  %now = memref.atomic_rmw addi %zero, %ctr[] : (i32, memref<i32>) -> i32")
        g.emit("  %more = arith.cmpi slt, %now, %want : i32")
        g.emit("  %room = arith.cmpi slt, %spins, %lim : i32")
        g.emit("  %go = arith.andi %more, %room : i1")
        g.emit("  scf.condition(%go) %now, %spins : i32, i32")
        g.emit("} do {")
        g.emit("^bb0(%a: i32, %s: i32):")
        g.emit("  %s1 = arith.addi %s, %one : i32")
        g.emit("  scf.yield %a, %s1 : i32, i32")
        g.emit("}")
        res = g.alloc(n)
        g.ew(res, [t1])
        if len(temps) > 1:
            g.ew(g.sub(res, 0, temps[1].n), [temps[1], g.sub(res, 0, temps[1].n)])
        g.copy(res, MBuf("%out", n, ty=svty(n, "?")))
        for t in temps + [res]:
            g.dealloc(t)
        g.emit("return")
        self.funcs.append(g.text(f"%x: {mty(n)}, %out: {svty(n, '?')}, %k: index, %ctr: memref<i32>, "
                                 f"%want: i32"))
        f = self.f0()
        w = f.alloc(n)
        f.ew(w, [x])
        f.emit("%c0 = arith.constant 0 : index")
        f.emit("%c1 = arith.constant 1 : index")
        f.emit(f"%cp = arith.constant {p} : index")
        f.emit(f"%want = arith.constant {p} : i32")
        f.emit(f"%cn = arith.constant {n} : index")
        if forall:
            f.emit(f"scf.forall (%i) in ({p}) {{")
        else:
            f.emit("scf.parallel (%i) = (%c0) to (%cp) step (%c1) {")
        f.emit("  %off = arith.muli %i, %cn : index")
        f.emit(f"  %o = memref.subview {out.name}[%off] [{n}] [1] : {out.ty} to {svty(n, '?')}")
        f.emit(f"  func.call @work({w.name}, %o, %i, %e0, %want) : ({mty(n)}, {svty(n, '?')}, index, "
               f"memref<i32>, i32) -> ()")
        if not forall:
            f.emit("  scf.reduce")
        f.emit("}")
        f.dealloc(w)
        f.emit("return")
        self.extra_args.append(("%ctr", "memref<i32>"))
        self.main_setup += ["%ctr = memref.alloc() : memref<i32>", "%ctr0 = arith.constant 0 : i32",
                            "memref.store %ctr0, %ctr[] : memref<i32>"]
        self.funcs.append(f.text(self.f0_sig()))

    # ---- multi-block functions (observer on) ----------------------------------------------
    def gen_cfg(self):
        r = self.r
        self.observe = True
        f = self.f0()
        n = r.randint(4, 24)
        x = self.add_in(n)
        self.extra_args.append(("%sel", "i32"))
        nout = r.randint(2, 3)
        outs = [self.add_out(f, n) for _ in range(nout)]
        a = f.alloc(n)
        f.ew(a, [x])
        b = f.alloc(n)
        f.iota(b)
        live = [a, b]
        nb = [0]

        def blk():
            nb[0] += 1
            return f"^bb{nb[0]}"
        for seg in range(r.randint(1, 3)):
            kind = r.choice(["diamond", "diamond", "loop", "straight"])
            if kind == "straight":
                t = f.alloc(n)
                f.ew(t, [r.choice(live)])
                f.copy(t, r.choice(outs))
                f.dealloc(t)
                continue
            short = None
            if kind == "diamond" and r.random() < 0.6:
                # Allocated here, last used in the branches, freed in the merge block: its
                # bytes are free for what comes after.
                short = f.alloc(n)
                f.ew(short, [r.choice(live)])
            if kind == "diamond":
                bit = f.fresh("bit")
                f.emit(f"{bit} = arith.constant {1 << seg} : i32")
                an, cond = f.fresh("an"), f.fresh("cond")
                f.emit(f"{an} = arith.andi %e0, {bit} : i32")
                zero = f.fresh("z")
                f.emit(f"{zero} = arith.constant 0 : i32")
                f.emit(f"{cond} = arith.cmpi ne, {an}, {zero} : i32")
                bt, bf, bm = blk(), blk(), blk()
                pass_arg = r.random() < 0.4
                f.emit(f"cf.cond_br {cond}, {bt}, {bf}")
                for bb in (bt, bf):
                    f.lines.append(f"{bb}:")
                    t = f.alloc(n)
                    f.ew(t, [short or r.choice(live)] + ([r.choice(live)] if r.random() < 0.5 else []))
                    if r.random() < 0.3:
                        cl = f.fresh("cl")
                        f.emit(f"{cl} = bufferization.clone {t.name} : {t.ty} to {t.ty}")
                        f.ew(t, [t])
                        f.copy(MBuf(cl, n), r.choice(outs))
                        f.emit(f"memref.dealloc {cl} : {t.ty}")
                    if r.random() < 0.5:
                        f.iota(r.choice(live))
                    if pass_arg:
                        f.emit(f"cf.br {bm}({t.name} : {t.ty})")
                    else:
                        f.copy(t, r.choice(outs))
                        f.dealloc(t)
                        f.emit(f"cf.br {bm}")
                if pass_arg:
                    m = f.fresh("ba")
                    f.lines.append(f"{bm}({m}: {mty(n)}):")
                    mb = MBuf(m, n)
                    u = f.alloc(n)
                    f.ew(u, [mb, r.choice(live)])
                    f.copy(u, r.choice(outs))
                    f.dealloc(u)
                    f.dealloc(mb)
                else:
                    f.lines.append(f"{bm}:")
                if short:
                    f.dealloc(short)
                    t2 = f.alloc(n)
                    f.ew(t2, [r.choice(live)])
                    f.copy(t2, r.choice(outs))
                    f.dealloc(t2)
            else:
                trips = r.randint(1, 3)
                c0, hd, body, ex = f.idx(0), blk(), blk(), blk()
                iv = f.fresh("iv")
                f.emit(f"cf.br {hd}({c0} : index)")
                f.lines.append(f"{hd}({iv}: index):")
                lt, ct = f.fresh("lt"), f.idx(trips)
                f.emit(f"{lt} = arith.cmpi slt, {iv}, {ct} : index")
                f.emit(f"cf.cond_br {lt}, {body}, {ex}")
                f.lines.append(f"{body}:")
                t = f.alloc(n)
                src = r.choice(live)
                f.ew(t, [src])
                f.copy(t, src if r.random() < 0.5 else r.choice(outs))
                f.dealloc(t)
                nx = f.fresh("nx")
                f.emit(f"{nx} = arith.addi {iv}, {f.idx(1)} : index")
                f.emit(f"cf.br {hd}({nx} : index)")
                f.lines.append(f"{ex}:")
            if r.random() < 0.4:
                c = f.alloc(n)
                f.ew(c, [r.choice(live)])
                live.append(c)
        for v in live[::-1]:
            if v is not x:
                f.copy(v, r.choice(outs))
                f.dealloc(v)
        f.emit("return")
        self.funcs.append(f.text(self.f0_sig()))
        sels = sorted(r.sample(range(8), r.randint(2, 3)))

        def calls(names):
            out = []
            for s in sels:
                out.append(f"%sel{s} = arith.constant {s} : i32")
                args = [nm for nm, _ in names[:-1]] + [f"%sel{s}"]
                out.append(f"call @f0({', '.join(args)}) : ({', '.join(t for _, t in names)}) -> ()")
            return out
        self.calls = calls
        self.main_setup.append("%sel = arith.constant 0 : i32")

    # ---- recursion (arena=global) ----------------------------------------------------------
    def gen_recursion(self):
        r = self.r
        self.arenas = ["global"]
        n = r.randint(4, 24)
        x = self.add_in(n)
        o = self.add_out(None, n)
        mutual = r.random() < 0.5
        names = ["rec_a", "rec_b"] if mutual else ["rec_a"]
        for i, nm in enumerate(names):
            callee = names[(i + 1) % len(names)]
            g = MF(self, nm)
            t = g.alloc(n)
            g.ew(t, [MBuf("%x", n)])
            u = g.alloc(n)
            extra = g.alloc(r.randint(1, n)) if r.random() < 0.5 else None
            if extra:
                g.iota(extra)
            g.emit("%c0 = arith.constant 0 : index")
            g.emit("%c1 = arith.constant 1 : index")
            g.emit("%more = arith.cmpi sgt, %d, %c0 : index")
            use_cf = r.random() < 0.4
            if use_cf:
                g.emit("cf.cond_br %more, ^rec, ^leaf")
                g.lines.append("^rec:")
            else:
                g.emit("scf.if %more {")
            g.emit("  %d1 = arith.subi %d, %c1 : index")
            g.emit(f"  func.call @{callee}({t.name}, {u.name}, %d1) : ({mty(n)}, {mty(n)}, index) -> ()")
            if use_cf:
                g.emit("cf.br ^join")
                g.lines.append("^leaf:")
            else:
                g.emit("} else {")
            g.emit(f"  memref.copy {t.name}, {u.name} : {mty(n)} to {mty(n)}")
            if use_cf:
                g.emit("cf.br ^join")
                g.lines.append("^join:")
            else:
                g.emit("}")
            g.ew(MBuf("%out", n), [t, u])
            if extra:
                g.ew(g.sub(MBuf("%out", n), 0, extra.n), [extra, g.sub(MBuf("%out", n), 0, extra.n)])
                g.dealloc(extra)
            g.dealloc(t)
            g.dealloc(u)
            g.emit("return")
            self.funcs.append(g.text(f"%x: {mty(n)}, %out: {mty(n)}, %d: index"))
        f = self.f0()
        depth = r.randint(1, 4)
        f.emit(f"%d = arith.constant {depth} : index")
        f.emit(f"call @rec_a({x.name}, {o.name}, %d) : ({mty(n)}, {mty(n)}, index) -> ()")
        f.emit("return")
        self.funcs.append(f.text(self.f0_sig()))

    # ---- big buffers (arena=stack, stack limit) -------------------------------------------
    def gen_stack(self):
        r = self.r
        self.arenas = ["stack"]
        f = self.f0()
        x = self.add_in(16)
        bufs = []
        for _ in range(r.randint(2, 4)):
            nb = r.choice([1 << 12, 1 << 14, 1 << 15, 1 << 16, 1 << 18, 1 << 19, 3 << 18, 1 << 20])
            b = f.alloc(nb)
            f.iota(b)
            bufs.append(b)
        for b in bufs:
            f.ew(f.sub(b, 0, 16), [x, f.sub(b, 0, 16)])
        for b in bufs:
            o = self.add_out(f, 16)
            f.copy(f.sub(b, b.n - 16, 16), o)
            o2 = self.add_out(f, 16)
            f.copy(f.sub(b, 0, 16), o2)
            f.dealloc(b)
        f.emit("return")
        self.funcs.append(f.text(self.f0_sig()))


    # ---- argument slices (issue 20): copies from views of arguments into local buffers -----
    def gen_argslice(self):
        """A memref.copy from a view of a function argument into a local buffer (mplan turns it
        into a view of the argument when legal), then reads of the local buffer, with writes
        in between sometimes: to the argument (directly, through a view, or in a callee), to
        another argument that @main makes an alias of it, or to the local buffer itself."""
        r = self.r
        f = self.f0()
        n = r.randint(8, 40)
        xs = [self.add_in(n) for _ in range(r.randint(1, 3))]
        alias = len(xs) >= 2 and r.random() < 0.4
        callees = set()

        def view(a, off, k, st):
            if off == 0 and k == n and st == 1:
                return a
            v = f.fresh("sv")
            ty = f"memref<{k}xf32, strided<[{st}], offset: {off}>>"
            f.emit(f"{v} = memref.subview {a.name}[{off}] [{k}] [{st}] : {a.ty} to {ty}")
            return MBuf(v, k, ty=ty)

        def write(b):
            """Writes part of argument b (1-D, n elements)."""
            k = r.random()
            if k < 0.3:
                f.emit(f"memref.store {f.cf(r.choice([9.0, -7.5, 100.0]))}, {b.name}[{f.idx(r.randrange(n))}] : {b.ty}")
            elif k < 0.55:
                kk = r.randint(1, n)
                s = f.sub(b, r.randint(0, n - kk), kk)
                f.ew(s, [s])
            elif k < 0.75:
                kk = r.randint(1, n)
                t = f.alloc(kk)
                f.iota(t)
                f.copy(t, f.sub(b, r.randint(0, n - kk), kk))
                f.dealloc(t)
            elif k < 0.85:
                kk = r.randint(1, n)
                s = f.sub(b, r.randint(0, n - kk), kk)
                f.emit(f"linalg.fill ins({f.cf(r.choice([0.5, -1.0]))} : f32) outs({s.name} : {s.ty})")
            else:
                callees.add("poke")
                f.emit(f"call @poke({b.name}, {f.idx(r.randrange(n))}, {f.cf(r.choice([3.0, -2.5]))}) : "
                       f"({b.ty}, index, f32) -> ()")

        pending = []

        def read(l):
            """Reads l: mostly into a local buffer copied out once l is dead (a write to an
            output, an argument, while l lives would keep the copy anyway)."""
            k = r.random()
            if k < 0.75:
                t = f.alloc(l.n)
                if k < 0.6:
                    f.ew(t, [l])
                else:
                    f.copy(l, t)
                pending.append(t)
                return
            o = self.add_out(f, l.n)
            if k < 0.9:
                f.copy(l, o)
            else:
                callees.add("peek")
                lc = f.fresh("lc")
                f.emit(f"{lc} = memref.cast {l.name} : {l.ty} to memref<?xf32>")
                oc = f.fresh("oc")
                f.emit(f"{oc} = memref.cast {o.name} : {o.ty} to memref<?xf32>")
                f.emit(f"call @peek({lc}, {oc}) : (memref<?xf32>, memref<?xf32>) -> ()")

        for _ in range(r.randint(1, 3)):
            a = r.choice(xs)
            st = 2 if r.random() < 0.2 else 1
            if st == 1 and r.random() < 0.15:
                k, off = n, 0
            else:
                k = r.randint(1, min(16, (n - 1) // st + 1))
                off = r.randint(0, n - ((k - 1) * st + 1))
            if r.random() < 0.3:
                write(a)                     # before the copy: no hazard
            sv = view(a, off, k, st)
            loc = f.alloc(k)
            f.copy(sv, loc)
            if r.random() < 0.3:
                read(loc)
            hazard = r.choice(["none", "none", "arg", "arg", "other", "callee", "local", "after"])
            if hazard == "arg":
                write(a)
            elif hazard == "other":
                write(r.choice([b for b in xs if b is not a] or xs))
            elif hazard == "callee":
                callees.add("poke")
                f.emit(f"call @poke({a.name}, {f.idx(r.randint(off, off + (k - 1) * st))}, "
                       f"{f.cf(-4.0)}) : ({a.ty}, index, f32) -> ()")
            elif hazard == "local":
                if r.random() < 0.5:
                    f.ew(loc, [loc])
                else:
                    f.emit(f"memref.store {f.cf(42.0)}, {loc.name}[{f.idx(r.randrange(k))}] : {loc.ty}")
            read(loc)
            if hazard == "after" or r.random() < 0.3:
                write(a)                     # after the last read: the view is legal
            f.dealloc(loc)
            for t in pending:
                f.copy(t, self.add_out(f, t.n))
                f.dealloc(t)
            pending.clear()
        for b in xs:
            f.copy(b, self.add_out(f, n))
        f.emit("return")
        self.funcs.append(f.text(self.f0_sig()))
        if "poke" in callees:
            g = MF(self, "poke")
            g.emit(f"memref.store %v, %m[%i] : {mty(n)}")
            g.emit("return")
            self.funcs.append(g.text(f"%m: {mty(n)}, %i: index, %v: f32"))
        if "peek" in callees:
            g = MF(self, "peek")
            g.emit("memref.copy %m, %o : memref<?xf32> to memref<?xf32>")
            g.emit("return")
            self.funcs.append(g.text("%m: memref<?xf32>, %o: memref<?xf32>"))
        if alias:
            def calls(names):
                # The second argument is the first one's buffer: writing it writes the first.
                args = [nm for nm, _ in names]
                args[1] = args[0]
                return [f"call @f0({', '.join(args)}) : ({', '.join(t for _, t in names)}) -> ()"]
            self.calls = calls

    # ---- opted-out buffers (issue 20): mplan.unplanned ---------------------------------------
    def gen_optout(self):
        """Buffers with a unit `mplan.unplanned` (memref.alloc or memref.alloca) next to planned
        ones: views of them, copies into and out of them with the opted-out buffer written while
        the copy is live (directly, through a view, or by a "DMA" callee), so any elided copy
        shows in the output."""
        r = self.r
        f = self.f0()
        n = r.randint(8, 32)
        x = self.add_in(n)
        self.n_unplanned = 0
        dma = [False]

        def unplanned(m):
            op = "memref.alloca" if r.random() < 0.3 else "memref.alloc"
            b = MBuf(f.fresh("u"), m)
            attrs = (["alignment = 64 : i64"] if r.random() < 0.3 else []) + ["mplan.unplanned"]
            f.emit(f"{b.name} = {op}() {{{', '.join(attrs)}}} : {b.ty}")
            b.op = op
            self.n_unplanned += 1
            return b

        def fill(b):
            if b.n <= n and r.random() < 0.5:
                f.ew(b, [f.sub(x, 0, b.n)])
            else:
                f.iota(b)

        def clobber(u):
            """Writes all or part of the opted-out buffer u."""
            k = r.random()
            if k < 0.35:
                dma[0] = True
                c = f.fresh("uc")
                f.emit(f"{c} = memref.cast {u.name} : {u.ty} to memref<?xf32>")
                f.emit(f"call @dma({c}, {f.cf(r.choice([1.0, -0.5]))}) : (memref<?xf32>, f32) -> ()")
            elif k < 0.6:
                kk = r.randint(1, u.n)
                s = f.sub(u, r.randint(0, u.n - kk), kk)
                f.ew(s, [s])
            elif k < 0.8:
                f.iota(u)
            else:
                f.emit(f"memref.store {f.cf(77.0)}, {u.name}[{f.idx(r.randrange(u.n))}] : {u.ty}")

        def free(u):
            if u.op == "memref.alloc":
                f.dealloc(u)

        keep = []
        if r.random() < 0.6:
            p = f.alloc(r.randint(4, 40))
            f.iota(p)
            keep.append(p)
        for _ in range(r.randint(1, 3)):
            pat = r.choice(["out", "in", "view", "through"])
            m = r.randint(4, 32)
            u = unplanned(m)
            fill(u)
            if pat == "out":
                # A copy out of (a view of) u: must stay a copy, u changes while it is live.
                k = r.randint(1, m)
                loc = f.alloc(k)
                f.copy(f.sub(u, r.randint(0, m - k), k), loc)
                clobber(u)
                f.copy(loc, self.add_out(f, k))
                f.dealloc(loc)
            elif pat == "in":
                # A copy into a view of u: its source must not be computed in u early.
                k = r.randint(1, min(m, n))
                off = r.randint(0, m - k)
                src = f.alloc(k)
                f.ew(src, [f.sub(x, 0, k)])
                f.copy(f.sub(u, off, k), self.add_out(f, k))    # u's old values read first
                f.copy(src, f.sub(u, off, k))
                if r.random() < 0.4:
                    f.copy(src, self.add_out(f, k))
                f.dealloc(src)
            elif pat == "view":
                # Views of u (subview, cast) read into planned buffers, writes through a view.
                k = r.randint(1, m)
                v = f.sub(u, r.randint(0, m - k), k)
                a = f.alloc(k)
                f.ew(a, [v])
                f.ew(v, [v, a])
                c = f.fresh("uc")
                f.emit(f"{c} = memref.cast {u.name} : {u.ty} to memref<?xf32>")
                b = MBuf(f.fresh("b"), m)
                f.emit(f"{b.name} = memref.alloc() : {b.ty}")
                f.emit(f"memref.copy {c}, {b.name} : memref<?xf32> to {b.ty}")
                clobber(u)
                f.copy(a, self.add_out(f, k))
                f.copy(b, self.add_out(f, m))
                f.dealloc(a)
                f.dealloc(b)
            else:
                # planned -> u -> planned, u rewritten in between.
                a = f.alloc(m)
                f.ew(a, [u])
                f.copy(a, u)
                f.dealloc(a)
                b = f.alloc(m)
                f.copy(u, b)
                clobber(u)
                f.ew(b, [b, u])
                f.copy(b, self.add_out(f, m))
                f.dealloc(b)
            f.copy(u, self.add_out(f, m))
            free(u)
        for p in keep:
            f.copy(p, self.add_out(f, p.n))
            f.dealloc(p)
        f.emit("return")
        self.funcs.append(f.text(self.f0_sig()))
        if dma[0]:
            g = MF(self, "dma")
            for l in ["%c0 = arith.constant 0 : index", "%c1 = arith.constant 1 : index",
                      "%h = arith.constant 0.5 : f32", "%n = memref.dim %m, %c0 : memref<?xf32>",
                      "scf.for %i = %c0 to %n step %c1 {",
                      "  %v = memref.load %m[%i] : memref<?xf32>",
                      "  %w = arith.mulf %v, %h : f32", "  %s = arith.addf %w, %k : f32",
                      "  memref.store %s, %m[%i] : memref<?xf32>", "}", "return"]:
                g.emit(l)
            self.funcs.append(g.text("%m: memref<?xf32>, %k: f32"))


    # ---- dynamic: dynamically shaped buffers (issue 15) ------------------------------------
    def gen_dynamic(self):
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
                              [4, 3, 2, 2, 1, 1, 1, nest, nest, 1, 1, 1 if descs else 0])[0]
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
            block(live, None, 0)
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

# ---- running ------------------------------------------------------------------------------
KINDS = ["tensor", "options", "escape", "realloc", "spaces", "elems", "parallel", "cfg", "recursion",
         "stack", "branchy", "branchres", "argslice", "optout", "dynamic"]
TENSOR_KINDS = ("tensor", "options", "branchy", "branchres")
# Kinds of issue 20 (branch results, argument slices, opted-out buffers): a reference run with
# a report, one drawn run, and half the time a run with a capacity set from the reference.
ISSUE20_KINDS = ("branchres", "argslice", "optout")


def kind_of(seed, kinds):
    return kinds[seed % len(kinds)]


def generate(seed, kind="tensor"):
    if kind in ("tensor", "options"):
        return Program(seed).generate()
    if kind == "branchres":
        return BProgram(seed).generate()
    if kind == "branchy":
        return branchy_program(seed)
    return MProg(kind, seed).text()


# Children run under `nice` unless the fuzzer already runs niced (`nice -n 5 utils/fuzz...`
# keeps its children at 5, not 15).
NICE = [] if os.nice(0) > 0 else ["nice"]


def sh(cmd, inp=None, timeout=120, env=None):
    e = None
    if env:
        e = dict(os.environ)
        e.update(env)
    p = subprocess.run(NICE + ["bash", "-o", "pipefail", "-c", cmd], input=inp, capture_output=True,
                       text=True, timeout=timeout, env=e)
    return p.returncode, p.stdout, p.stderr


def norm(out):
    return re.sub(r"base@ = 0x[0-9a-fA-F]+", "base@ = <addr>", out)


# Non-default planning options tried with --variants (every --every-arena-th seed, offset 2).
VARIANTS = ["peak-guard=all", "views-and-copies=false", "strategy=linear-scan", "strategy=naive alignment=16"]
# Passes run between planning and convert-mplan-to-memref in some `options` runs: the plan must
# survive them or be rejected by the lowering with a located error (issue 19, defect 12).
MID_PASSES = "--canonicalize --cse --loop-invariant-code-motion"


RUN_TIMEOUT = 30


def runtime_lib(args):
    """The observer runtime of the build that --mplan-opt comes from."""
    return os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(args.mplan_opt))), "lib",
                        "libmplan_runtime.so")
OMP_LIBS = ["/usr/lib/llvm-22/lib/libomp.so", "/usr/lib/x86_64-linux-gnu/libomp.so.5",
            "/usr/lib/llvm-14/lib/libomp.so"]
# The upstream lowering (mp.LOWER_TO_LLVM) with scf.parallel lowered to OpenMP.
LOWER_TO_LLVM_OMP = mp.LOWER_TO_LLVM.replace(
    "func.func(convert-linalg-to-loops),", "func.func(convert-linalg-to-loops),convert-scf-to-openmp,").replace(
    "convert-func-to-llvm,", "convert-func-to-llvm,convert-openmp-to-llvm,")
_HELP = {}


def plan_choices(mplan_opt):
    """(strategies, arenas) as `mplan-opt --help` lists them (fallback: the documented ones)."""
    if mplan_opt not in _HELP:
        strategies = ["naive", "linear-scan", "greedy-by-size", "greedy-by-breadth", "portfolio", "best"]
        arenas = ["heap", "stack", "global", "argument"]
        try:
            h = subprocess.run([mplan_opt, "--help"], capture_output=True, text=True, timeout=60).stdout
            sec = h[h.find("--mplan-plan-pipeline "):]
            m = re.search(r"--strategy=<string>\s+- Planning strategy \(([^)]*)\)", sec)
            if m:
                strategies = [s.strip() for s in m.group(1).split(",") if s.strip()]
            sec = h[h.find("--convert-mplan-to-memref "):]
            m = re.search(r"--arena=<string>\s+- Where the arena lives: ([^\n]*)", sec)
            if m:
                arenas = [a.strip(" .") for a in re.split(r",| or ", m.group(1).split(";")[0])
                          if a.strip(" .") and " " not in a.strip(" .")]
        except (OSError, subprocess.TimeoutExpired):
            pass
        _HELP[mplan_opt] = (strategies, arenas)
    return _HELP[mplan_opt]


class Cfg:
    """One planned run: arena kind, plan options, observer on/off, passes before the lowering;
    capacity (bytes of the default space) with what must happen (expect: "reject" below the
    reference's lower bound, "plan" at or above its arena, None in between); check_arena: the
    arena must stay within 1.02 x the program-order bound."""

    def __init__(self, arena="heap", opts="", observe=False, mid="", capacity=None, expect=None,
                 check_arena=False):
        self.arena, self.opts, self.observe, self.mid = arena, opts.strip(), observe, mid
        self.capacity, self.expect, self.check_arena = capacity, expect, check_arena

    @property
    def seq_inplace(self):
        """Sequencing and in-place reuse both on."""
        return (re.search(r"\bsequence=(greedy|best|exact)\b", self.opts) is not None and
                re.search(r"\binplace=true\b", self.opts) is not None)

    def __str__(self):
        s = self.arena + (f" [{self.opts}]" if self.opts else "")
        if self.capacity is not None:
            s += f" capacity=default:{self.capacity} ({self.expect or 'either'})"
        if self.mid:
            s += " +mid-passes"
        if self.observe:
            s += " +observer"
        return s


def seq_opts(rs):
    """sequence= and inplace= drawn from rs (issue 12)."""
    seq = rs.choices(["program", "greedy", "best", "exact"], [1, 3, 4, 1])[0]
    return f"sequence={seq} inplace={'true' if rs.random() < 0.75 else 'false'}"


def random_cfgs(rc, strategies, arenas, n, forced=None, observe=False, mid=False, seq_rc=None):
    """n runs with options drawn from rc; with seq_rc, sequence= and inplace= are drawn from it
    (a stream of its own, so the other draws stay those of earlier versions)."""
    out = []
    for _ in range(n):
        opts = [f"strategy={rc.choice(strategies)}"]
        if rc.random() < 0.85:
            opts.append(f"alignment={1 << rc.randint(0, 12)}")
        if rc.random() < 0.15:
            opts.append(rc.choice(["peak-guard=all", "peak-guard=none", "views-and-copies=false"]))
        if seq_rc is not None:
            opts.append(seq_opts(seq_rc))
        arena = forced[0] if forced and rc.random() < 0.6 else rc.choice(arenas)
        out.append(Cfg(arena, " ".join(opts), observe or rc.random() < 0.25,
                       MID_PASSES if mid and rc.random() < 0.2 else ""))
    return out


CRASH_RE = re.compile(r"Stack dump|PLEASE submit|Assertion .* failed|LLVM ERROR|Segmentation fault|"
                      r"UNREACHABLE|terminate called")
# Errors that mean mplan produced or accepted something wrong, never a legitimate rejection.
BROKEN_RE = re.compile(r"'mplan\.\w+' op|different memory spaces|multiple of the element size|"
                       r"share bytes|overlap|failed to legalize|not found for custom op|"
                       r"unrealized_conversion_cast|does not dominate|failed to verify|"
                       r"expects different type|type mismatch|requires the same type|"
                       r"use of value .* expects")
LOC_ERR_RE = re.compile(r"(?:seed-\d+[^:\s]*\.mlir|<stdin>):\d+:\d+: error: (.*)")


def classify_compile(rc, err):
    """('ok'|'rejected'|'fail', message) for a planning step (mplan-opt up to the memref IR)."""
    errs = [l for l in err.splitlines() if ": error:" in l or l.startswith("error:")]
    if rc == 0 and not errs:
        return "ok", ""
    first = (errs[0] if errs else err.strip().splitlines()[-1] if err.strip() else f"rc {rc}")
    if rc < 0 or rc >= 128 or CRASH_RE.search(err):
        m = CRASH_RE.search(err)
        return "fail", f"crash (rc {rc}): {m.group(0) if m else ''} {first}"
    if rc == 0:
        return "fail", f"error with exit 0: {first}"
    located = [LOC_ERR_RE.search(l) for l in errs]
    if errs and all(located) and not any(BROKEN_RE.search(l) for l in errs):
        return "rejected", located[0].group(1)
    return "fail", first


def signature(msg):
    s = re.sub(r"\S*seed-\d+[^:\s]*\.mlir:\d+:\d+:", "LOC:", msg)
    s = re.sub(r"<stdin>:\d+:\d+", "<stdin>", s)
    s = re.sub(r"0x[0-9a-fA-F]+", "ADDR", s)
    s = re.sub(r"\d+", "N", s)
    return s.strip()[:160]


class Result:
    def __init__(self, kind, seed=0):
        self.kind, self.seed = kind, seed
        self.seq_inplace = False            # a run planned with sequencing and in-place on
        self.unplanned = 0                  # mplan.unplanned allocations in the source (optout)
        self.fails, self.rejects = [], []   # (config, message)
        # Located errors the run was meant to produce (a capacity below the lower bound): the
        # specified behaviour, so the seed stays ok; listed in the summary.
        self.expected = []
        self.generator = None               # upstream rejected the program: a generator bug
        self.runs = 0

    @property
    def outcome(self):
        if self.generator:
            return "generator"
        if self.fails:
            return "fail"
        if self.rejects:
            return "rejected"
        return "ok"


def runner_cmd(args, libs=()):
    run = mp.commands("baseline", "/dev/null", args.llvm_bin)[1]
    if args.opt_level is not None:
        # mlir-runner's own LLVM pipeline at that level, for the baseline and the planned
        # programs alike (the planned ones carry mplan's alias scopes).
        exe, rest = run.split(" ", 1)
        run = f"{exe} -O{args.opt_level} {rest}"
    if libs:
        run += "," + ",".join(libs)
    return run


# The baseline once more with glibc's malloc filling new and freed blocks with a pattern: an
# output that changes reads memory nobody wrote (or freed): a generator bug.
PERTURB = {"MALLOC_PERTURB_": "165"}


def reads_uninitialised(run, ll, base, res, env=None):
    e = dict(env or {})
    e.update(PERTURB)
    rc, out, err = sh(run, ll, timeout=60, env=e)
    if rc or norm(out) != base:
        res.generator = ("baseline output changes with MALLOC_PERTURB_ (reads uninitialised or freed "
                         f"memory): rc {rc} {err.strip()[:300]}")
        return True
    return False


def issue20_runs(seed, kind, head, base, res, args, run, needs, env=None, libs=(), pre_lower="",
                 post_lower=""):
    """A reference run (heap, sequence/inplace drawn) with its report, one drawn run, and half
    the time a run with capacity=default:C, C below the reference's max lower bound (must be a
    located error), between bound and arena (either), at or above its max arena (must plan)."""
    strategies, arenas = plan_choices(args.mplan_opt)
    rc_ = random.Random(f"cfg:{kind}:{seed}")
    seq_rc = random.Random(f"seq:{kind}:{seed}")
    ref = Cfg("heap", seq_opts(seq_rc))
    report = planned_memref(ref, head, base, res, args, run, needs, env, libs, pre_lower, post_lower)
    runs = random_cfgs(rc_, strategies, arenas, 1, seq_rc=seq_rc)
    if report and report.get("functions") and rc_.random() < 0.5:
        fns = report["functions"]
        lb = max(fn.get("lower_bound_bytes", 0) for fn in fns)
        top = max(fn.get("arena_bytes", 0) for fn in fns)
        mode = rc_.choice(["below", "below", "between", "at", "above"])
        if mode == "below" and lb > 1:
            cap, expect = rc_.choice([lb - 1, rc_.randint(1, lb - 1)]), "reject"
        elif mode == "between" and top > lb:
            cap, expect = rc_.randint(max(lb, 1), top - 1), None
        elif mode == "at" and top > 0:
            cap, expect = top, "plan"
        else:
            cap, expect = top + rc_.randint(1, 4096), "plan"
        runs.append(Cfg(rc_.choice(arenas), ref.opts, capacity=cap, expect=expect))
    for c in runs:
        planned_memref(c, head, base, res, args, run, needs, env, libs, pre_lower, post_lower)


def run_tensor(seed, args, src, res, kind):
    """The tensor kinds: One-Shot Bufferize, then the baseline and the planned pipeline."""
    opt = os.path.join(args.llvm_bin, "mlir-opt")
    # The generator must produce programs upstream accepts: otherwise it's a generator bug.
    rc, buf, err = sh(f"{opt} {src} {mp.BUFFERIZE}")
    if rc:
        res.generator = f"upstream: bufferization failed: {err.strip()[:2000]}"
        return
    comp = mp.commands("baseline", src, args.llvm_bin)[0]
    run = runner_cmd(args)
    rc, ll, err = sh(comp)
    if rc == 0:
        rc, base, err = sh(run, ll)
    if rc and "bufferization.clone" in err:
        # The baseline's deallocation pipeline leaves a bufferization.clone (of an argument a
        # function returns, e.g. a callee writing into its argument) that its lowering does not
        # handle: the reference is then the bufferized program without deallocation.
        rc, ll, err = sh(f"{opt} {src} {mp.BUFFERIZE} | {opt} {mp.LOWER_TO_LLVM}")
        if rc == 0:
            rc, base, err = sh(run, ll)
    if rc:
        res.generator = f"upstream: baseline failed (rc {rc}): {err.strip()[:2000]}"
        return
    base = norm(base)
    if reads_uninitialised(run, ll, base, res):
        return
    mpo = args.mplan_opt
    if kind == "tensor":
        runs = [Cfg("heap")]
        if seed % args.every_arena == 0:
            runs += [Cfg("stack"), Cfg("global"), Cfg("argument")]
        if args.variants and seed % args.every_arena == 2:
            runs += [Cfg("heap", v) for v in VARIANTS]
        for c in runs:
            res.runs += 1
            what = str(c)
            rep = os.path.join(args.out, f"seed-{seed}-{c.arena}.json")
            comp = (f"{opt} {src} {mp.BUFFERIZE} | {mpo} --mplan-plan-pipeline=\"report={rep} {c.opts}\" "
                    f"--mplan-verify-plan --convert-mplan-to-memref=\"arena={c.arena}\" --mplan-to-llvm")
            rc, ll, err = sh(comp)
            if rc or err.strip():
                res.fails.append((what, f"planned compile rc {rc}: {err.strip()[:2000]}"))
                continue
            rc, out, err = sh(run, ll)
            if rc:
                res.fails.append((what, f"planned run failed (rc {rc}): {err.strip()[:2000]}"))
                continue
            if norm(out) != base:
                res.fails.append((what, "output differs from baseline"))
            if c.arena == "heap" and not c.opts:
                with open(rep) as f:
                    data = json.load(f)
                for fn in data["functions"]:
                    a, lb = fn["arena_bytes"], fn["lower_bound_bytes"]
                    if a > 1.02 * lb:
                        res.fails.append(("report", f"@{fn['name']} arena {a} > 1.02 x lower bound {lb}"))
            os.remove(rep)
        return
    strategies, arenas = plan_choices(mpo)
    head = f"{opt} {src} {mp.BUFFERIZE} | {mpo}"
    if kind in ISSUE20_KINDS:
        issue20_runs(seed, kind, head, base, res, args, run, set())
        return
    rc_ = random.Random(f"cfg:{kind}:{seed}")
    seq_rc = random.Random(f"seq:{kind}:{seed}")
    if kind == "branchy":
        # Sequencing and in-place under every arena kind (arena within 1.02 x the bound of
        # program order), then greedy sequencing with a drawn strategy and arena.
        runs = [Cfg(a, "sequence=best inplace=true", check_arena=True) for a in arenas]
        runs.append(Cfg(rc_.choice(arenas), f"strategy={rc_.choice(strategies)} sequence=greedy "
                                            f"inplace={rc_.choice(['true', 'false'])}"))
    else:
        runs = random_cfgs(rc_, strategies, arenas, 3, mid=True, seq_rc=seq_rc)
    for c in runs:
        planned_memref(c, head, base, res, args, run, set())


def planned_memref(c, head, base, res, args, run, needs, env=None, libs=(), pre_lower="",
                   post_lower=""):
    """Plans (head ... plan | convert), checks the plan report and the memref IR, lowers, runs,
    compares with base. Returns the plan report (None if there is none)."""
    mpo = args.mplan_opt
    opt = os.path.join(args.llvm_bin, "mlir-opt")
    res.runs += 1
    what = str(c)
    rep = os.path.join(args.out, f"seed-{res.seed}-run{res.runs}.json")
    popts = [c.opts, f"report={rep}"]
    if c.capacity is not None:
        popts.append(f"capacity=default:{c.capacity}")
    plan = f"--mplan-plan-pipeline=\"{' '.join(o for o in popts if o)}\""
    if c.mid:
        step1 = (f"{head} {plan} --mplan-verify-plan | {mpo} {c.mid} | "
                 f"{mpo} --convert-mplan-to-memref=\"arena={c.arena}\"")
    else:
        step1 = f"{head} {plan} --mplan-verify-plan --convert-mplan-to-memref=\"arena={c.arena}\""
    try:
        rc, mid, err = sh(step1)
    except subprocess.TimeoutExpired:
        res.fails.append((what, "plan/convert timed out"))
        return None
    st, msg = classify_compile(rc, err)
    report = None
    if os.path.exists(rep):
        try:
            with open(rep) as f:
                report = json.load(f)
        except (OSError, ValueError) as e:
            res.fails.append((what, f"plan report unreadable: {e}"))
        os.remove(rep)
    if c.capacity is not None:
        if st == "rejected":
            if c.expect == "plan":
                res.fails.append((what, f"capacity {c.capacity} at or above the reference arena "
                                        f"rejected: {msg}"))
            elif f"capacity of {c.capacity} bytes" not in msg or "'default'" not in msg:
                res.fails.append((what, f"capacity run rejected for another reason: {msg}"))
            else:
                res.expected.append((what, "capacity below what the plan needs: " +
                                     re.sub(r"function '\w+'", "function F", msg)))
            return report
        if st == "ok" and c.expect == "reject":
            res.fails.append((what, f"capacity {c.capacity} below the reference lower bound planned"))
            return report
    if st == "rejected":
        res.rejects.append((what, msg))
        return report
    if st == "fail":
        res.fails.append((what, f"plan/convert: {msg}"))
        return report
    if c.seq_inplace:
        res.seq_inplace = True
    check_report(c, report, res, what)
    if res.unplanned and not c.mid:
        kept = len(re.findall(r"memref\.alloca?\(\)[^\n]*mplan\.unplanned", mid))
        if kept != res.unplanned:
            res.fails.append((what, f"{res.unplanned} mplan.unplanned allocations in the source, "
                                    f"{kept} in the planned memref IR"))
    if "gpu" in needs:
        # The planned memref IR must be valid for upstream as it is (no memory space lost).
        rc, _, err = sh(f"{opt} -o /dev/null", mid)
        if rc:
            res.fails.append((what, f"mlir-opt rejects the planned memref IR: {err.strip()[:500]}"))
            return report
        mid = mid.replace(GPU_WG, "3")
    if "memref.memory_space_cast" in mid and "memref.memory_space_cast" not in res.src_text:
        res.fails.append((what, "planned IR casts between memory spaces (a buffer changed space)"))
    inst = "--mplan-instrument " if c.observe else ""
    rc, ll, err = sh(f"{mpo} {pre_lower} {inst}--mplan-to-llvm {post_lower}", mid)
    if rc:
        st, msg = classify_compile(rc, err)
        res.fails.append((what, f"lowering: {msg if msg else err.strip()[:500]}"))
        return report
    libs = list(libs) + ([runtime_lib(args)] if c.observe else [])
    try:
        rc, out, err = sh(runner_cmd(args, libs), ll, timeout=RUN_TIMEOUT, env=env)
    except subprocess.TimeoutExpired:
        res.fails.append((what, f"planned run timed out ({RUN_TIMEOUT} s)"))
        return report
    if rc:
        obs = [l for l in err.splitlines() if l.startswith("mplan-rt: error")]
        if obs:
            res.fails.append((what, f"observer (rc {rc}): {obs[0]}"))
        else:
            el = [l for l in err.splitlines() if "error" in l.lower()] or err.strip().splitlines() or [""]
            res.fails.append((what, f"planned run failed (rc {rc}): {el[0][:300]}"))
        return report
    if norm(out) != base:
        res.fails.append((what, "output differs from baseline"))
    if getattr(c, "obs_summary", False) and not re.search(r"mplan-rt: planned buffers \d+, errors 0\b", err):
        res.fails.append((what, "the observer's summary does not say `errors 0`"))
    return report


def check_report(c, data, res, what):
    """The plan report: sequencing and in-place never raise the bound (lower_bound_bytes <=
    lower_bound_program_order_bytes), a capacity holds, opted-out buffers are reported."""
    if data is None:
        if c.seq_inplace or c.capacity is not None or c.check_arena:
            res.fails.append((what, "no plan report"))
        return
    opted = 0
    for fn in data.get("functions", []):
        name, a = fn.get("name"), fn.get("arena_bytes", 0)
        lb, lbp = fn.get("lower_bound_bytes"), fn.get("lower_bound_program_order_bytes")
        if lb is not None and lbp is not None and lb > lbp:
            res.fails.append((what, f"@{name} lower_bound_bytes {lb} > lower_bound_program_order_bytes "
                                    f"{lbp}: sequencing/in-place raised the bound"))
        if c.capacity is not None and a > c.capacity:
            res.fails.append((what, f"@{name} arena {a} above capacity {c.capacity}"))
        if c.check_arena and lbp is not None and a > 1.02 * lbp:
            res.fails.append((what, f"@{name} arena {a} > 1.02 x program-order bound {lbp}"))
        opted += sum(1 for u in fn.get("unmanaged", []) if "mplan.unplanned" in u.get("reason", ""))
    if res.unplanned and opted != res.unplanned:
        res.fails.append((what, f"{res.unplanned} mplan.unplanned allocations, {opted} reported opted out"))


def dynamic_cfgs(prog, rc_, strategies, arenas, seq_rc):
    """The runs of the `dynamic` kind: default options under every arena kind; check-bounds=true;
    arg-upper-bound=N (N at or above every size @main passes to an argument without a bound
    attribute); max-bound-bytes small (bounded buffers become run-time sized or unplanned); the
    observer (its summary must say `errors 0`); one run with drawn options."""
    runs = [Cfg(a, "") for a in arenas]
    n = prog.dyn_max_arg + rc_.choice([0, 0, 1, 7, 100])
    aub = f"arg-upper-bound={n}"
    runs.append(Cfg(rc_.choice(arenas), "check-bounds=true"))
    runs.append(Cfg(rc_.choice(arenas), aub + (" check-bounds=true" if rc_.random() < 0.5 else "")))
    runs.append(Cfg(rc_.choice(arenas), f"max-bound-bytes={rc_.choice([0, 16, 64, 256, 1024])}" +
                    (" " + aub if rc_.random() < 0.5 else "") +
                    (" check-bounds=true" if rc_.random() < 0.5 else "")))
    obs = Cfg(rc_.choice(arenas), " ".join(o for o in ["check-bounds=true" if rc_.random() < 0.7 else "",
                                                       aub if rc_.random() < 0.4 else ""] if o), True)
    obs.obs_summary = True
    runs.append(obs)
    for c in random_cfgs(rc_, strategies, arenas, 1, seq_rc=seq_rc):
        if rc_.random() < 0.5:
            c.opts += " check-bounds=true"
        if rc_.random() < 0.3:
            c.opts += " " + aub
        c.obs_summary = c.observe
        runs.append(c)
    return runs


def run_memref(seed, args, src, res, prog):
    """Memref-level kinds: the program's own deallocs in the baseline, planned with mplan."""
    opt = os.path.join(args.llvm_bin, "mlir-opt")
    mpo = args.mplan_opt
    needs = prog.needs
    src_text = res.src_text
    libs, env, lower, pre, pre_lower, post_lower = [], None, mp.LOWER_TO_LLVM, "", "", ""
    if "omp" in needs:
        omp = [p for p in OMP_LIBS if os.path.exists(p)]
        if omp:
            libs.append(omp[0])
            env = {"OMP_NUM_THREADS": str(prog.par_threads), "OMP_WAIT_POLICY": "passive"}
            lower = LOWER_TO_LLVM_OMP
            pre = "--scf-forall-to-parallel"
            pre_lower = "--scf-forall-to-parallel --convert-scf-to-openmp"
            post_lower = "--convert-openmp-to-llvm --reconcile-unrealized-casts"
        else:
            pre = "--scf-forall-to-parallel"
    # finalize-memref-to-llvm has no mapping for #gpu.address_space: the native runs use
    # integer space 3 in its place (CPU lowering treats every space as ordinary memory).
    base_src = src.replace(".mlir", "-base.mlir")
    with open(base_src, "w") as f:
        f.write(prog.baseline_text().replace(GPU_WG, "3"))
    run = runner_cmd(args, libs)
    rc, ll, err = sh(f"{opt} {base_src} --convert-bufferization-to-memref {pre} | "
                     f"{opt} {lower}")
    if rc == 0:
        rc, base, err = sh(run, ll, timeout=60, env=env)
    if rc:
        res.generator = f"upstream: baseline failed (rc {rc}): {err.strip()[:2000]}"
        return
    base = norm(base)
    if reads_uninitialised(run, ll, base, res, env):
        return
    res.unplanned = getattr(prog, "n_unplanned", 0)
    if prog.kind in ISSUE20_KINDS:
        issue20_runs(seed, prog.kind, f"{mpo} {src}", base, res, args, run, needs, env, libs,
                     pre_lower, post_lower)
        return
    if prog.observe:
        # The observer on the unplanned program (its own deallocs and clones): no error.
        res.runs += 1
        obs_src = src.replace(".mlir", "-int.mlir")
        with open(obs_src, "w") as f:
            f.write(src_text.replace(GPU_WG, "3"))
        rc, ll, err = sh(f"{mpo} {obs_src} {pre_lower} --mplan-instrument --mplan-to-llvm {post_lower}")
        if rc == 0:
            rc, out, err = sh(runner_cmd(args, libs + [runtime_lib(args)]), ll, timeout=60, env=env)
        if rc:
            obs = [l for l in err.splitlines() if l.startswith("mplan-rt: error")]
            res.fails.append(("baseline +observer", obs[0] if obs else
                              f"rc {rc}: {(err.strip().splitlines() or [''])[-1][:300]}"))
        elif norm(out) != base:
            res.fails.append(("baseline +observer", "output differs from baseline"))
    strategies, arenas = plan_choices(mpo)
    rc_ = random.Random(f"cfg:{prog.kind}:{seed}")
    if prog.kind == "dynamic":
        for c in dynamic_cfgs(prog, rc_, strategies, arenas, random.Random(f"seq:dynamic:{seed}")):
            before = len(res.fails) + len(res.rejects)
            rep = planned_memref(c, f"{mpo} {src}", base, res, args, run, needs, env, libs, pre_lower,
                                 post_lower)
            fns = {fn.get("name"): fn for fn in (rep or {}).get("functions", [])}
            for name in prog.dyn_returns if rep and len(res.fails) + len(res.rejects) == before else []:
                if not any(u.get("reason") == "escapes via return" for u in fns.get(name, {}).get("unmanaged", [])):
                    res.fails.append((str(c), f"@{name}'s returned buffer is not reported unmanaged "
                                              "(escapes via return)"))
        return
    forced = prog.arenas or ["heap"]
    runs = [Cfg(a, "", prog.observe) for a in forced]
    if prog.arenas:
        runs.append(Cfg("heap", "", prog.observe))
    runs += random_cfgs(rc_, strategies, arenas, 2, prog.arenas, prog.observe,
                        seq_rc=random.Random(f"seq:{prog.kind}:{seed}"))
    if "omp" in prog.needs:
        # The observer keeps one call stack for the process (mplan-instrument): calls
        # running on several threads at once interleave their entries and exits on it.
        for c in runs:
            c.observe = False
    if prog.kind == "elems":
        # Alignment options below what the elements need, with the arenas that do not come
        # from malloc (stack, global, a slice of the caller's).
        runs.append(Cfg(rc_.choice([a for a in arenas if a != "heap"] or arenas),
                        f"strategy={rc_.choice(strategies)} alignment={rc_.choice([1, 2, 4, 8])}",
                        rc_.random() < 0.25))
    if prog.kind == "cfg":
        runs += [Cfg(a, "", True) for a in arenas if a not in [c.arena for c in runs]]
    for c in runs:
        planned_memref(c, f"{mpo} {src}", base, res, args, run, needs, env, libs, pre_lower, post_lower)


def run_seed(seed, args, kind="tensor"):
    """Returns a Result (failures, rejections, outcome)."""
    res = Result(kind, seed)
    src = os.path.join(args.out, f"seed-{seed}.mlir")
    prog = None
    if kind in TENSOR_KINDS:
        text = generate(seed, kind)
    else:
        prog = MProg(kind, seed)
        text = prog.text()
    res.src_text = text
    with open(src, "w") as f:
        f.write(text)
    if prog is None:
        run_tensor(seed, args, src, res, kind)
    else:
        run_memref(seed, args, src, res, prog)
    return res


def parse_kinds(s):
    if s in ("all", ""):
        return list(KINDS)
    ks = [k.strip() for k in s.split(",") if k.strip()]
    bad = [k for k in ks if k not in KINDS]
    if bad:
        raise SystemExit(f"unknown kind(s) {', '.join(bad)}; kinds: {', '.join(KINDS)}")
    return ks


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--seeds", default="0:100", help="A:B (half-open) or a comma list")
    ap.add_argument("--kinds", default="all",
                    help=f"comma list of program kinds (seed s gets kinds[s %% len]); all = {','.join(KINDS)}")
    ap.add_argument("--gen", type=int, help="print the program of this seed and exit")
    ap.add_argument("--mplan-opt", default=os.path.join(ROOT, "build", "bin", "mplan-opt"))
    ap.add_argument("--llvm-bin", default=mp.LLVM_BIN)
    ap.add_argument("--out", default="/tmp/mplan-fuzz")
    ap.add_argument("--every-arena", type=int, default=4,
                    help="tensor kind: every N-th seed also runs arena=stack, global and argument")
    ap.add_argument("--variants", action="store_true",
                    help="tensor kind: every N-th seed (offset 2) also runs heap with the VARIANTS plan options")
    ap.add_argument("--time-budget", type=float, default=0, help="stop after this many seconds")
    ap.add_argument("--keep", action="store_true", help="keep passing programs too")
    ap.add_argument("--opt-level", type=int, choices=range(4),
                    help="run every program with mlir-runner -O<N> (default: its default)")
    ap.add_argument("--quiet", action="store_true", help="print failing seeds and the summary only")
    a = ap.parse_args()
    kinds = parse_kinds(a.kinds)
    if a.gen is not None:
        sys.stdout.write(generate(a.gen, kind_of(a.gen, kinds)))
        return 0
    os.makedirs(a.out, exist_ok=True)
    if ":" in a.seeds:
        lo, hi = map(int, a.seeds.split(":"))
        seeds = range(lo, hi)
    else:
        seeds = [int(s) for s in a.seeds.split(",")]
    t0 = time.monotonic()
    nrun = nruns = 0
    table = {}            # kind -> outcome -> count
    sigs = {}             # failure signature -> [count, first seed, kind, config, message]
    rejects = {}          # rejection signature -> [count, first seed, kind, message]
    expected = {}         # expected error signature -> [count, first seed, kind, message]
    for s in seeds:
        if a.time_budget and time.monotonic() - t0 > a.time_budget:
            break
        kind = kind_of(s, kinds)
        try:
            res = run_seed(s, a, kind)
        except subprocess.TimeoutExpired as e:
            res = Result(kind)
            res.fails.append(("", f"timeout: {str(e.cmd)[:300]}"))
        nrun += 1
        nruns += res.runs
        oc = res.outcome
        table.setdefault(kind, {}).setdefault(oc, 0)
        table[kind][oc] += 1
        table[kind]["seq+inplace"] = table[kind].get("seq+inplace", 0) + res.seq_inplace
        for what, msg in res.fails + ([("", res.generator)] if res.generator else []):
            sg = signature(msg.splitlines()[0] if msg else msg)
            e = sigs.setdefault(sg, [0, s, kind, what, msg])
            e[0] += 1
        for what, msg in res.rejects:
            sg = signature(msg)
            e = rejects.setdefault(sg, [0, s, kind, msg])
            e[0] += 1
        for what, msg in res.expected:
            e = expected.setdefault(signature(msg), [0, s, kind, msg])
            e[0] += 1
        if oc in ("fail", "generator"):
            print(f"seed {s} [{kind}]: {'FAIL' if oc == 'fail' else 'GENERATOR'}  "
                  f"(repro: utils/fuzz_pipeline.py --kinds {kind} --seeds {s} --keep)")
            for what, msg in res.fails + ([("upstream", res.generator)] if res.generator else []):
                print(f"  {what}: " + msg.replace("\n", "\n    "))
        elif not a.quiet:
            extra = "".join(f"\n  rejected: {w}: {m}" for w, m in res.rejects)
            print(f"seed {s} [{kind}]: {oc}{extra}")
        if oc in ("ok", "rejected") and not a.keep:
            for p in (f"seed-{s}.mlir", f"seed-{s}-int.mlir", f"seed-{s}-base.mlir"):
                if os.path.exists(os.path.join(a.out, p)):
                    os.remove(os.path.join(a.out, p))
        sys.stdout.flush()
    nfail = sum(t.get("fail", 0) + t.get("generator", 0) for t in table.values())
    print(f"{nrun} seeds run ({nruns} planned runs), {nfail} failed ({time.monotonic() - t0:.0f} s)")
    outcomes = ["ok", "rejected", "fail", "generator", "seq+inplace"]
    print(f"{'kind':<10} " + " ".join(f"{o:>11}" for o in outcomes))
    for k in dict.fromkeys(kinds):
        if k in table:
            print(f"{k:<10} " + " ".join(f"{table[k].get(o, 0):>11}" for o in outcomes))
    print("(seq+inplace: seeds with a run planned with sequence=greedy|best|exact and inplace=true)")
    if sigs:
        print("failure signatures (count, first seed, kind, run):")
        for sg, (n, s, k, what, msg) in sorted(sigs.items(), key=lambda x: -x[1][0]):
            print(f"  {n:>4}  seed {s} [{k}] {what}: {sg}")
    if rejects:
        print("rejections (count, first seed, kind, message):")
        for sg, (n, s, k, msg) in sorted(rejects.items(), key=lambda x: -x[1][0]):
            print(f"  {n:>4}  seed {s} [{k}]: {msg[:300]}")
    if expected:
        print("expected errors, counted as ok (count, first seed, kind, message):")
        for sg, (n, s, k, msg) in sorted(expected.items(), key=lambda x: -x[1][0]):
            print(f"  {n:>4}  seed {s} [{k}]: {msg[:300]}")
    return 1 if nfail else 0


if __name__ == "__main__":
    sys.exit(main())
