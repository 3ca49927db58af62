"""Kind `parallel`: func.call inside scf.parallel / scf.forall (arena=argument), lowered with OpenMP;
the callee waits at a barrier so the iterations really overlap."""
from ..builder import ID1, MBuf, MemrefProgram, MF, mty, svty
from ..kind import MemrefKind


class Program(MemrefProgram):
    def generate(self):
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


class _Kind(MemrefKind):
    name = "parallel"
    order = 70
    summary = __doc__
    program_class = Program

    def batch_key(self, prog, seed, args):
        # OMP_NUM_THREADS is the program's number of iterations (its barrier waits for them all).
        prog.text()          # generates the program (and par_threads)
        return prog.par_threads


KIND = _Kind()
