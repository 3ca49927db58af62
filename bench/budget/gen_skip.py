#!/usr/bin/python3
"""A function of skip blocks for the budget benchmark's scale check.

Each block computes x = exp(arg), then b = |x|, c = -b, e = b * c (the peak:
the running sum, x, b, c and e live at once), d = x + e and s = s + d: x is
read before and after the peak and its writer reads only the argument, so a
capacity of 90 % of the bound (4 of 5 buffers) is met by rematerializing x in
every block. With --shared, x is computed once before the blocks and read by
the first and the fourth op of every block (one buffer split at every gap).
Writes memref IR (no bufferization needed) of about N ops.

Usage: gen_skip.py N [--shared] [-o OUT.mlir]   (standard library only)
"""

import argparse
import sys


def main():
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("n", type=int, help="approximate number of ops")
    ap.add_argument("--shared", action="store_true",
                    help="one x before the blocks, read in every block")
    ap.add_argument("-o", "--output", default="-")
    args = ap.parse_args()
    t = "memref<8x16xf32>"
    lines = [f"func.func @skip(%arg0: {t}, %out: {t}) {{"]
    if args.shared:
        lines += [f"  %a0 = memref.alloc() : {t}",
                  f"  linalg.map {{ math.exp }} ins(%arg0 : {t}) outs(%a0 : {t})"]
    lines += [f"  %s0 = memref.alloc() : {t}",
              f"  linalg.map {{ math.absf }} ins(%arg0 : {t}) outs(%s0 : {t})"]
    ops, k = 2, 0
    while ops < args.n:
        k += 1
        x = "%a0" if args.shared else f"%a{k}"
        block = [("b", "math.absf", x), ("c", "arith.negf", f"%b{k}"),
                 ("e", "arith.mulf", f"%b{k}, %c{k}"), ("d", "arith.addf", f"{x}, %e{k}"),
                 ("s", "arith.addf", f"%s{k - 1}, %d{k}")]
        if not args.shared:
            block.insert(0, ("a", "math.exp", "%arg0"))
        for name, body, ins in block:
            types = ", ".join([t] * (ins.count(",") + 1))
            lines.append(f"  %{name}{k} = memref.alloc() : {t}")
            lines.append(f"  linalg.map {{ {body} }} ins({ins} : {types}) outs(%{name}{k} : {t})")
        ops += 4 * len(block)  # an allocation and a map of a payload op and a yield each
    lines += [f"  memref.copy %s{k}, %out : {t} to {t}", "  return", "}"]
    out = sys.stdout if args.output == "-" else open(args.output, "w")
    out.write("\n".join(lines) + "\n")


if __name__ == "__main__":
    main()
