#!/usr/bin/env python3
"""Generates the large adversarial inputs of test/Hardening (issue 16) on stdout.

  gen-adversarial.py csv N          N buffers, MiniMalloc CSV, heavy overlap
  gen-adversarial.py ops N          one function with about N ops (N/4 buffers)
  gen-adversarial.py nested N       buffers in regions nested N deep (scf.if)
  gen-adversarial.py loops N        buffers in scf.for loops nested N deep
  gen-adversarial.py blocks N       one function with N blocks, back edges and
                                    a buffer per block (cf.br / cf.cond_br)
  gen-adversarial.py viewchain N    a heap arena and a chain of N memref.cast /
                                    arith.select views of one of its buffers,
                                    loaded and stored at its end (lowered IR)
  gen-adversarial.py dynamic N      N run-time sized buffers (sizes from an
                                    argument), all live at once

Deterministic (fixed seed), no dependencies beyond the standard library. The
tests keep N small enough for CI (1e5 buffers / ops); docs/hardening.md gives
the 1e6 runs as manual commands.
"""

import random
import sys


def gen_csv(n, out):
    rng = random.Random(16)
    out.write("id,lower,upper,size\n")
    lines = []
    for i in range(n):
        lo = rng.randrange(0, 2 * n)
        length = 1 + int(rng.expovariate(1 / 64.0))
        size = rng.choice((0, 1, 1, 8, 64, 512, 4096, rng.randrange(1, 1 << 20)))
        lines.append(f"{i},{lo},{lo + length},{size}\n")
    out.write("".join(lines))


def gen_ops(n, out):
    # Chains of small elementwise steps: alloc, fill, copy, dealloc of the
    # previous buffer: four ops per buffer.
    out.write("func.func @many_ops(%arg0: memref<16xf32>) {\n")
    out.write("  %cst = arith.constant 1.0 : f32\n")
    out.write("  %b0 = memref.alloc() : memref<16xf32>\n")
    out.write("  memref.copy %arg0, %b0 : memref<16xf32> to memref<16xf32>\n")
    lines = []
    for i in range(1, max(1, n // 4)):
        lines.append(f"  %b{i} = memref.alloc() : memref<16xf32>\n"
                     f"  linalg.fill ins(%cst : f32) outs(%b{i} : memref<16xf32>)\n"
                     f"  memref.copy %b{i - 1}, %b{i} : memref<16xf32> to memref<16xf32>\n"
                     f"  memref.dealloc %b{i - 1} : memref<16xf32>\n")
    out.write("".join(lines))
    last = max(0, n // 4 - 1)
    out.write(f"  memref.copy %b{last}, %arg0 : memref<16xf32> to memref<16xf32>\n")
    out.write(f"  memref.dealloc %b{last} : memref<16xf32>\n")
    out.write("  return\n}\n")


def gen_nested(n, out):
    out.write("func.func @nested(%arg0: memref<8xf32>, %c: i1) {\n")
    out.write("  %outer = memref.alloc() : memref<8xf32>\n")
    out.write("  memref.copy %arg0, %outer : memref<8xf32> to memref<8xf32>\n")
    for d in range(n):
        pad = "  " * (d + 1)
        out.write(f"{pad}scf.if %c {{\n")
        if d % 100 == 0:
            out.write(f"{pad}  %n{d} = memref.alloc() : memref<8xf32>\n")
            out.write(f"{pad}  memref.copy %outer, %n{d} : memref<8xf32> to memref<8xf32>\n")
            out.write(f"{pad}  memref.copy %n{d}, %arg0 : memref<8xf32> to memref<8xf32>\n")
            out.write(f"{pad}  memref.dealloc %n{d} : memref<8xf32>\n")
    for d in reversed(range(n)):
        out.write("  " * (d + 1) + "}\n")
    out.write("  memref.dealloc %outer : memref<8xf32>\n")
    out.write("  return\n}\n")


def gen_loops(n, out):
    out.write("func.func @loops(%arg0: memref<8xf32>, %lb: index, %ub: index, %st: index) {\n")
    for d in range(n):
        pad = "  " * (d + 1)
        out.write(f"{pad}scf.for %i{d} = %lb to %ub step %st {{\n")
    pad = "  " * (n + 1)
    out.write(f"{pad}%t = memref.alloc() : memref<8xf32>\n")
    out.write(f"{pad}memref.copy %arg0, %t : memref<8xf32> to memref<8xf32>\n")
    out.write(f"{pad}%u = memref.alloc() : memref<8xf32>\n")
    out.write(f"{pad}memref.copy %t, %u : memref<8xf32> to memref<8xf32>\n")
    out.write(f"{pad}memref.copy %u, %arg0 : memref<8xf32> to memref<8xf32>\n")
    out.write(f"{pad}memref.dealloc %t : memref<8xf32>\n")
    out.write(f"{pad}memref.dealloc %u : memref<8xf32>\n")
    for d in reversed(range(n)):
        out.write("  " * (d + 1) + "}\n")
    out.write("  return\n}\n")


def gen_blocks(n, out):
    # Block k allocates a buffer, copies it out and frees it, then either
    # jumps back to block k/2 (a back edge) or goes on to block k+1.
    rng = random.Random(16)
    out.write("func.func @blocks(%arg0: memref<8xf32>, %c: i1) {\n")
    out.write("  %keep = memref.alloc() : memref<8xf32>\n")
    out.write("  memref.copy %arg0, %keep : memref<8xf32> to memref<8xf32>\n")
    out.write("  cf.br ^bb1\n")
    lines = []
    for k in range(1, n + 1):
        lines.append(f"^bb{k}:\n"
                     f"  %m{k} = memref.alloc() : memref<8xf32>\n"
                     f"  memref.copy %keep, %m{k} : memref<8xf32> to memref<8xf32>\n"
                     f"  memref.copy %m{k}, %arg0 : memref<8xf32> to memref<8xf32>\n"
                     f"  memref.dealloc %m{k} : memref<8xf32>\n")
        nxt = f"^bb{k + 1}" if k < n else "^bbexit"
        back = f"^bb{rng.randrange(1, k + 1)}"
        lines.append(f"  cf.cond_br %c, {back}, {nxt}\n")
    out.write("".join(lines))
    out.write("^bbexit:\n  memref.dealloc %keep : memref<8xf32>\n  return\n}\n")


def gen_viewchain(n, out):
    # What convert-mplan-to-memref emits (an arena and a planned buffer), then a
    # chain of n views of the buffer, alternately a memref.cast and an
    # arith.select of the previous view with itself.
    out.write("func.func @viewchain(%arg0: memref<4xf32>, %c: i1) {\n"
              "  %c0 = arith.constant 0 : index\n"
              "  %arena = memref.alloc() {alignment = 64 : i64, mplan.arena} : memref<32xi8>\n"
              "  %v0 = memref.view %arena[%c0][] : memref<32xi8> to memref<4xf32>\n")
    lines = []
    for k in range(1, n + 1):
        if k % 2:
            lines.append(f"  %v{k} = memref.cast %v{k - 1} : memref<4xf32> to memref<4xf32>\n")
        else:
            lines.append(f"  %v{k} = arith.select %c, %v{k - 1}, %v{k - 1} : memref<4xf32>\n")
    out.write("".join(lines))
    out.write(f"  %x = memref.load %arg0[%c0] : memref<4xf32>\n"
              f"  memref.store %x, %v{n}[%c0] : memref<4xf32>\n"
              f"  memref.dealloc %arena : memref<32xi8>\n  return\n}}\n")


def gen_dynamic(n, out):
    # Each buffer is filled, then all are read at the end: every pair is live
    # at once, so a symbolic plan orders all of them.
    out.write("func.func @dynamic(%n: index, %out: memref<?xf32>) {\n"
              "  %c0 = arith.constant 0 : index\n"
              "  %cst = arith.constant 1.0 : f32\n")
    lines = []
    for i in range(n):
        lines.append(f"  %b{i} = memref.alloc(%n) : memref<?xf32>\n"
                     f"  linalg.fill ins(%cst : f32) outs(%b{i} : memref<?xf32>)\n")
    lines.append("  %s0 = arith.constant 0.0 : f32\n")
    for i in range(n):
        lines.append(f"  %x{i} = memref.load %b{i}[%c0] : memref<?xf32>\n"
                     f"  %s{i + 1} = arith.addf %s{i}, %x{i} : f32\n")
    lines.append(f"  memref.store %s{n}, %out[%c0] : memref<?xf32>\n")
    for i in range(n):
        lines.append(f"  memref.dealloc %b{i} : memref<?xf32>\n")
    out.write("".join(lines))
    out.write("  return\n}\n")


def main():
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    kind, n = sys.argv[1], int(sys.argv[2])
    gens = {"csv": gen_csv, "ops": gen_ops, "nested": gen_nested, "loops": gen_loops,
            "blocks": gen_blocks, "viewchain": gen_viewchain, "dynamic": gen_dynamic}
    if kind not in gens:
        sys.exit(__doc__)
    gens[kind](n, sys.stdout)


if __name__ == "__main__":
    main()
