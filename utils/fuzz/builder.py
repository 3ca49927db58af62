"""The shared builder of the fuzzer's programs: type spellings, the memref-level function
builder (MF, MBuf) and the program skeleton every memref-level kind fills (MemrefProgram:
@f0 with f32 inputs and outputs, a @main that fills the inputs, calls @f0 and prints a sum
and a bit hash of every output through @fz_check)."""
import math
import random

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




# ---- memref-level programs (issue 19) -----------------------------------------------------
# These kinds are generated directly as bufferized memref IR with their own deallocs: the
# baseline lowers them upstream as they are, the planned pipeline plans them. Every kind is a
# function @f0 (plus helpers) called from a @main that fills the inputs, calls it and prints a
# sum and a bit hash of every output through @fz_check.

ID1 = "affine_map<(d0) -> (d0)>"
GPU_WG = "#gpu.address_space<workgroup>"
# Element types of the `elems` kind: (type, lanes shape or None, scalar type).
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

    def checksum(self, b, out, slot):
        """out[slot] = sum over i of b[i] * (i mod 7 + 1), for a 1-D f32 memref b of any size
        (an inline loop: a call would make b escape)."""
        c0, c1, c7 = self.idx(0), self.idx(1), self.idx(7)
        n, z, res = self.fresh("cn"), self.fresh("cz"), self.fresh("cs")
        self.emit(f"{n} = memref.dim {b.name}, {c0} : {b.ty}")
        self.emit(f"{z} = arith.constant 0.0 : f32")
        i, acc = self.fresh("ci"), self.fresh("ca")
        self.emit(f"{res} = scf.for {i} = {c0} to {n} step {c1} iter_args({acc} = {z}) -> (f32) {{")
        x, w, w1, wi, wf, xw, a2 = (self.fresh("cx") for _ in range(7))
        for l in [f"{x} = memref.load {b.name}[{i}] : {b.ty}", f"{w} = arith.remui {i}, {c7} : index",
                  f"{w1} = arith.addi {w}, {c1} : index", f"{wi} = arith.index_cast {w1} : index to i32",
                  f"{wf} = arith.sitofp {wi} : i32 to f32", f"{xw} = arith.mulf {x}, {wf} : f32",
                  f"{a2} = arith.addf {acc}, {xw} : f32", f"scf.yield {a2} : f32"]:
            self.emit("  " + l)
        self.emit("}")
        self.emit(f"memref.store {res}, {out.name}[{self.idx(slot)}] : {out.ty}")

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



class MemrefProgram:
    """A memref-level program of one kind; deterministic in (kind, seed). A kind subclasses it
    and fills it in generate() (funcs, decls, ins, outs, ...). main_unplanned (a kind's
    class attribute, or every program's under --capacity): @main's inputs and outputs are
    `mplan.unplanned` allocations, so that @main, whose call touches them all, does not set
    every capacity's floor (counted in n_unplanned)."""

    main_unplanned = False

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
        attr = " {mplan.unplanned}" if self.main_unplanned else ""
        for i, n in enumerate(self.ins):
            out += [f"  %in{i} = memref.alloc(){attr} : {mty(n)}",
                    f"  %inc{i} = memref.cast %in{i} : {mty(n)} to memref<?xf32>",
                    f"  %s{i} = arith.constant {3 + 5 * i} : index",
                    f"  call @fz_init(%inc{i}, %s{i}) : (memref<?xf32>, index) -> ()"]
            names.append((f"%in{i}", mty(n)))
        for j, n in enumerate(self.outs):
            out += [f"  %out{j} = memref.alloc(){attr} : {mty(n)}",
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
        self.generate()
        if self.main_unplanned:
            self.n_unplanned = getattr(self, "n_unplanned", 0) + len(self.ins) + len(self.outs)
        lines = [f"// mplan fuzz program, kind {self.kind}, seed {self.seed}; generated by "
                 f"utils/fuzz_pipeline.py --kinds {self.kind} --gen {self.seed}", ""]
        lines += self.decls + ([""] if self.decls else [])
        for f in self.funcs:
            lines += f + [""]
        lines += FZ_HELPERS.rstrip("\n").split("\n") + [""]
        lines += self.main()
        return "\n".join(lines) + "\n"

    def generate(self):
        raise NotImplementedError

    def call_with_selectors(self, sels, check=False):
        """@main calls @f0 once per selector in sels (an i32, @f0's last argument; main_setup
        gets a placeholder %sel for the default argument list); with check, every output is
        printed after each call (ids 100 * (s + 1) + j)."""
        outs = list(self.outs)

        def calls(names):
            out = []
            for s in sels:
                out.append(f"%sel{s} = arith.constant {s} : i32")
                args = [nm for nm, _ in names[:-1]] + [f"%sel{s}"]
                out.append(f"call @f0({', '.join(args)}) : ({', '.join(t for _, t in names)}) -> ()")
                for j, m in enumerate(outs if check else []):
                    c = f"%pc{s}_{j}"
                    out.append(f"{c} = memref.cast %out{j} : {mty(m)} to memref<?xf32>")
                    out.append(f"{c}i = arith.constant {100 * (s + 1) + j} : index")
                    out.append(f"call @fz_check({c}, {c}i) : (memref<?xf32>, index) -> ()")
            return out
        self.calls = calls
        self.main_setup.append("%sel = arith.constant 0 : i32")

    def add_out(self, f, n):
        self.outs.append(n)
        return MBuf(f"%y{len(self.outs) - 1}", n)

    def add_in(self, n):
        self.ins.append(n)
        return MBuf(f"%x{len(self.ins) - 1}", n)
