#!/usr/bin/python3
"""Synthetic linalg-on-tensors functions for the compile-time benchmark.

Writes one function `@synthetic` whose body repeats four motifs over small
tensors until the *bufferized* function has about N operations (nested ops
included):
  chain    - elementwise linalg.generic ops, each on the previous result
  diamond  - two branches from one value, joined by an add
  views    - expand_shape / collapse_shape / extract_slice / insert_slice
  loops    - scf.for nested in scf.for carrying a tensor, with a body op
The output is the tensor program; bufferize it with upstream One-Shot
Bufferize to get the memref program mplan plans.

Usage: gen_synthetic.py N [-o OUT.mlir] [--seed S]   (standard library only)
"""
import argparse
import random
import sys

T = "tensor<8x16xf32>"
# Bufferized ops per motif (alloc + generic + its body ops, views, loops):
# measured with -print-op-stats; used to size the program.
OPS_PER_MOTIF = {"chain": 5, "diamond": 15, "views": 10, "loops": 14}

HEADER = """#id = affine_map<(d0, d1) -> (d0, d1)>
"""


def unary(out, x, fn, name, init=None):
    body = {
        "exp": "%e = math.exp %a : f32",
        "neg": "%e = arith.negf %a : f32",
        "scale": "%c = arith.constant 0.5 : f32\n      %e = arith.mulf %a, %c : f32",
    }[fn]
    if init is None:
        out.append(f"    %{name}_init = tensor.empty() : {T}")
        init = name + "_init"
    out.append(f"""    %{name} = linalg.generic {{indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}} ins(%{x} : {T}) outs(%{init} : {T}) {{
    ^bb0(%a: f32, %o: f32):
      {body}
      linalg.yield %e : f32
    }} -> {T}""")


def binary(out, x, y, name):
    out.append(f"""    %{name}_init = tensor.empty() : {T}
    %{name} = linalg.generic {{indexing_maps = [#id, #id, #id], iterator_types = ["parallel", "parallel"]}} ins(%{x}, %{y} : {T}, {T}) outs(%{name}_init : {T}) {{
    ^bb0(%a: f32, %b: f32, %o: f32):
      %e = arith.addf %a, %b : f32
      linalg.yield %e : f32
    }} -> {T}""")


def generate(n_ops, seed=1):
    rng = random.Random(seed)
    out = [HEADER, f"func.func @synthetic(%arg0: {T}) -> {T} {{",
           "    %c0 = arith.constant 0 : index",
           "    %c1 = arith.constant 1 : index",
           "    %c2 = arith.constant 2 : index"]
    cur = "arg0"
    k = 0
    total = 4
    motifs = list(OPS_PER_MOTIF)
    while total < n_ops:
        m = motifs[k % len(motifs)] if rng.random() < 0.75 else rng.choice(motifs)
        p = f"v{k}"
        if m == "chain":
            unary(out, cur, rng.choice(["exp", "neg", "scale"]), p)
            cur = p
        elif m == "diamond":
            unary(out, cur, "scale", p + "_l")
            unary(out, cur, "neg", p + "_r")
            binary(out, p + "_l", p + "_r", p)
            cur = p
        elif m == "views":
            out.append(f"""    %{p}_e = tensor.expand_shape %{cur} [[0, 1], [2]] output_shape [2, 4, 16] : {T} into tensor<2x4x16xf32>
    %{p}_c = tensor.collapse_shape %{p}_e [[0, 1], [2]] : tensor<2x4x16xf32> into {T}
    %{p}_s = tensor.extract_slice %{p}_c[0, 0] [4, 16] [1, 1] : {T} to tensor<4x16xf32>""")
            unary(out, cur, "scale", p + "_u")
            out.append(f"""    %{p} = tensor.insert_slice %{p}_s into %{p}_u[4, 0] [4, 16] [1, 1] : tensor<4x16xf32> into {T}""")
            cur = p
        else:  # loops
            out.append(f"""    %{p} = scf.for %i{k} = %c0 to %c2 step %c1 iter_args(%t{k} = %{cur}) -> ({T}) {{
      %{p}_in = scf.for %j{k} = %c0 to %c2 step %c1 iter_args(%u{k} = %t{k}) -> ({T}) {{""")
            body = []
            # A temporary allocated in the body (planned per iteration), then
            # written in place into the carried tensor.
            unary(body, f"u{k}", "neg", p + "_tmp")
            unary(body, p + "_tmp", "exp", p + "_b", init=f"u{k}")
            out.extend("    " + line for line in "\n".join(body).split("\n"))
            out.append(f"""        scf.yield %{p}_b : {T}
      }}
      scf.yield %{p}_in : {T}
    }}""")
            cur = p
        total += OPS_PER_MOTIF[m]
        k += 1
    out.append(f"    return %{cur} : {T}")
    out.append("}")
    return "\n".join(out) + "\n"


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("n", type=int, help="approximate number of ops after bufferization")
    ap.add_argument("-o", "--output", default="-")
    ap.add_argument("--seed", type=int, default=1)
    a = ap.parse_args()
    text = generate(a.n, a.seed)
    if a.output == "-":
        sys.stdout.write(text)
    else:
        with open(a.output, "w") as f:
            f.write(text)
    return 0


if __name__ == "__main__":
    sys.exit(main())
