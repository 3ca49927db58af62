"""Batches: K programs of one kind in one module, so that a planned run costs one plan, one
lowering (plain and observed) and one mlir-runner invocation for all of them.

combine(texts) renames the symbols each program defines apart (`@f0` of the i-th program
becomes `@fzb<i>_f0`, its `@main` a private `@fzb<i>_main`), keeps one copy of the harness
helpers every program defines identically (SHARED) and of identical external declarations,
and adds a `@main` that runs the programs in turn, printing a separator line
`fz-batch-program <i>` before each. split(output) cuts a run's output back into the programs'
outputs; complete(output, k) says whether every program printed its separator and something
after it (a program the batch lost shows there).
"""
import re

PREFIX = "fzb"
SEP = "fz-batch-program"
# Harness helpers of the builders (builder.FZ_HELPERS, tensor_builder's initialisers): one copy
# when every program of the batch defines them with the same text.
SHARED = ("fz_init", "fz_check", "mplan_init_hash", "mplan_init_sin")

_DEF_RE = re.compile(r"^(?:func\.func|memref\.global)\b[^@\n]*@([\w$.]+)", re.M)


def top_level_ops(text):
    """The module's top-level operations as text blocks (comments and blank lines dropped):
    an op starts at column 0 and ends at the line where its braces balance."""
    ops, cur, depth = [], [], 0
    for line in text.split("\n"):
        if not cur and (not line.strip() or line.lstrip().startswith("//")):
            continue
        cur.append(line)
        code = re.sub(r'"(?:[^"\\]|\\.)*"', '""', line.split("//")[0] if '"' not in line else line)
        depth += code.count("{") - code.count("}")
        if depth <= 0:
            ops.append("\n".join(cur))
            cur, depth = [], 0
    if cur:
        ops.append("\n".join(cur))
    return ops


def symbol(op):
    """The symbol an op defines (None for anything else) and whether it has a body."""
    m = _DEF_RE.match(op)
    if not m:
        return None, False
    return m.group(1), op.startswith("memref.global") or "{" in op


def combine(texts):
    """One module running every program of texts in turn (see the module's docstring)."""
    programs = [top_level_ops(t) for t in texts]
    shared = {}
    for name in SHARED:
        defs = [[op for op in ops if symbol(op)[0] == name] for ops in programs]
        if all(len(d) == 1 for d in defs) and len({d[0] for d in defs}) == 1:
            shared[name] = defs[0][0]
    head, aliases, decls, body = [], [], [], []
    for i, ops in enumerate(programs):
        first = texts[i].split("\n", 1)[0]
        body.append(f"// @{PREFIX}{i}_...: " + (first[2:].strip() if first.startswith("//") else f"program {i}"))
        # Attribute aliases (#name = ...) are renamed apart too and go first.
        alias = {m.group(1) for op in ops for m in [re.match(r"#([\w$.]+)\s*=", op)] if m}
        if alias:
            are = re.compile(r"#(" + "|".join(re.escape(n) for n in sorted(alias, key=len, reverse=True))
                             + r")\b(?![\w$.])")
            ops = [are.sub(lambda m: f"#{PREFIX}{i}_{m.group(1)}", op) for op in ops]
            aliases += [op for op in ops if op.startswith(f"#{PREFIX}{i}_")]
            ops = [op for op in ops if not op.startswith(f"#{PREFIX}{i}_")]
        defined = {symbol(op)[0] for op in ops if symbol(op)[1]} - set(shared)
        if "main" not in defined:
            raise ValueError(f"program {i} of the batch defines no @main")
        ren = re.compile(r"@(" + "|".join(re.escape(n) for n in sorted(defined, key=len, reverse=True))
                         + r")\b(?![\w$.])")
        for op in ops:
            name, has_body = symbol(op)
            if name in shared:
                continue
            if name is not None and not has_body:
                if op not in decls:
                    decls.append(op)
                continue
            op = ren.sub(lambda m: f"@{PREFIX}{i}_{m.group(1)}", op)
            if name == "main":
                op = op.replace(f"func.func @{PREFIX}{i}_main(", f"func.func private @{PREFIX}{i}_main(", 1)
            body.append(op)
    head.append(f"// mplan fuzz batch of {len(texts)} programs (utils/fuzz/batch.py)")
    main = ["func.func @main() {"]
    for i in range(len(texts)):
        main += [f'  vector.print str "{SEP} "', f"  %fzb{i} = arith.constant {i} : index",
                 f"  vector.print %fzb{i} : index", f"  call @{PREFIX}{i}_main() : () -> ()"]
    main += ["  return", "}"]
    return "\n\n".join(head + aliases + decls + list(shared.values()) + body + ["\n".join(main)]) + "\n"


def split(output):
    """{i: the output of the i-th program} of a batch's output (text before the first
    separator under key None)."""
    parts, key, cur = {}, None, []
    for line in output.split("\n"):
        m = re.fullmatch(SEP + r" (\d+)", line)
        if m:
            parts[key] = "\n".join(cur)
            key, cur = int(m.group(1)), []
        else:
            cur.append(line)
    parts[key] = "\n".join(cur)
    return parts


def complete(output, k):
    """Whether output has the separators 0 .. k-1 in order, each followed by some output."""
    seps = [int(m) for m in re.findall(r"^" + SEP + r" (\d+)$", output, re.M)]
    if seps != list(range(k)):
        return False
    parts = split(output)
    return all(parts[i].strip() for i in range(k))
