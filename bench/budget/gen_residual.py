#!/usr/bin/env python3
"""Residual chains: memref-level programs for the budget's exact search
(bench/budget/exact.py --files), written for this project by a reviewer.

`gen_residual.py SEED` prints a module with a function @f(%x, %y) and a @main
that fills %x, calls @f and prints %y (16 floats, for mlir-runner). @f keeps a
running accumulator %acc (64 bytes) and builds K = 3..9 values %x0.. (64 bytes
each) from %x or from an earlier value by an elementwise op, some with a view
of 8 elements; each is accumulated right away. Then NP = 3..7 peaks: a
temporary of 128 to 384 bytes is filled, one value is copied into its first
16 elements and accumulated, and the temporary is freed; after each peak 1 to 3
of the values are accumulated again (through the view into a view of %acc, or
whole), and with probability 0.3 a new value is made from two long-lived ones
(a subtraction). At the end about half of the values are accumulated once more.
So every value lives from its definition to its last read across several
peaks, with gaps between its reads: what rematerialization (each value's
writer reads %x or other values) and offload can free, and where a
recomputation reads a value that another split frees.
"""

import random
import sys

G = ('{indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], '
     'iterator_types = ["parallel"]}')
G3 = ('{indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>, '
      'affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]}')
T = "memref<16xf32>"
A8 = "memref<8xf32, strided<[1], offset: 4>>"


def generate(seed):
    """The program of `seed`, as text."""
    r = random.Random(seed)
    k_values, n_peaks = r.randint(3, 9), r.randint(3, 7)
    lines = []
    e = lines.append
    cnt = [0]

    def fresh(prefix):
        cnt[0] += 1
        return f"%{prefix}{cnt[0]}"

    def ew(ins, out, ty_in, ty_out, a, b):
        e(f"  linalg.generic {G} ins({ins} : {ty_in}) outs({out} : {ty_out}) {{\n"
          f"  ^bb0(%i: f32, %o: f32):\n    %ca = arith.constant {a:.3f} : f32\n"
          f"    %cb = arith.constant {b:.3f} : f32\n    %m = arith.mulf %i, %ca : f32\n"
          f"    %s = arith.addf %m, %cb : f32\n    linalg.yield %s : f32\n  }}")

    def acc(src, ty, into, into_ty):
        e(f"  linalg.generic {G} ins({src} : {ty}) outs({into} : {into_ty}) {{\n"
          f"  ^bb0(%i: f32, %o: f32):\n    %h = arith.constant 0.5 : f32\n"
          f"    %m = arith.mulf %o, %h : f32\n    %s = arith.addf %i, %m : f32\n"
          f"    linalg.yield %s : f32\n  }}")

    e(f"func.func @f(%x: {T}, %y: {T}) {{")
    e(f"  %acc = memref.alloc() : {T}")
    e("  %z = arith.constant 0.0 : f32")
    e(f"  linalg.fill ins(%z : f32) outs(%acc : {T})")
    xs, views = [], {}
    for k in range(k_values):
        b = f"%x{k}"
        e(f"  {b} = memref.alloc() : {T}")
        src = "%x" if k == 0 or r.random() < 0.3 else r.choice(xs)
        ew(src, b, T, T, r.choice([0.5, 1.5, -1.0, 2.0]), float(k))
        xs.append(b)
        if r.random() < 0.4:
            v, o = fresh("v"), r.randint(0, 8)
            vt = f"memref<8xf32, strided<[1], offset: {o}>>"
            e(f"  {v} = memref.subview {b}[{o}] [8] [1] : {T} to {vt}")
            views[b] = (v, vt)
        acc(b, T, "%acc", T)
    e(f"  %acc8 = memref.subview %acc[4] [8] [1] : {T} to {A8}")
    for p in range(n_peaks):
        n = r.choice([32, 48, 64, 96])
        t = fresh("t")
        e(f"  {t} = memref.alloc() : memref<{n}xf32>")
        e(f"  linalg.fill ins(%z : f32) outs({t} : memref<{n}xf32>)")
        tv = fresh("tv")
        e(f"  {tv} = memref.subview {t}[0] [16] [1] : memref<{n}xf32> to "
          "memref<16xf32, strided<[1]>>")
        ew(r.choice(xs), tv, T, "memref<16xf32, strided<[1]>>", 1.0, float(p))
        acc(tv, "memref<16xf32, strided<[1]>>", "%acc", T)
        e(f"  memref.dealloc {t} : memref<{n}xf32>")
        for _ in range(r.randint(1, 3)):
            b = r.choice(xs)
            if b in views and r.random() < 0.5:
                v, vt = views[b]
                acc(v, vt, "%acc8", A8)
            else:
                acc(b, T, "%acc", T)
        if r.random() < 0.3:
            # A new value from two long-lived ones.
            nb = f"%x{len(xs)}"
            e(f"  {nb} = memref.alloc() : {T}")
            a1, a2 = r.choice(xs), r.choice(xs)
            e(f"  linalg.generic {G3} ins({a1}, {a2} : {T}, {T}) outs({nb} : {T}) {{\n"
              "  ^bb0(%i: f32, %j: f32, %o: f32):\n    %s = arith.subf %i, %j : f32\n"
              "    linalg.yield %s : f32\n  }")
            xs.append(nb)
    for b in xs:
        if r.random() < 0.5:
            acc(b, T, "%acc", T)
    e(f"  memref.copy %acc, %y : {T} to {T}")
    for b in xs:
        e(f"  memref.dealloc {b} : {T}")
    e(f"  memref.dealloc %acc : {T}")
    e("  return\n}")
    e(f"""func.func @main() {{
  %x = memref.alloc() {{mplan.unplanned}} : {T}
  %y = memref.alloc() {{mplan.unplanned}} : {T}
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c16 = arith.constant 16 : index
  scf.for %i = %c0 to %c16 step %c1 {{
    %ii = arith.index_cast %i : index to i32
    %f = arith.sitofp %ii : i32 to f32
    %q = arith.constant 0.25 : f32
    %v = arith.mulf %f, %q : f32
    memref.store %v, %x[%i] : {T}
  }}
  call @f(%x, %y) : ({T}, {T}) -> ()
  scf.for %i = %c0 to %c16 step %c1 {{
    %v = memref.load %y[%i] : {T}
    vector.print %v : f32
  }}
  memref.dealloc %x : {T}
  memref.dealloc %y : {T}
  return
}}""")
    return "\n".join(lines)


if __name__ == "__main__":
    if len(sys.argv) != 2:
        sys.exit("usage: gen_residual.py SEED")
    print(generate(int(sys.argv[1])))
