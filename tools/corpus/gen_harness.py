"""Conformance cases from JAX's own primitive test harnesses.

JAX keeps a table of harnesses for every primitive, each a function with
its arguments' shapes, dtypes and parameters
(jax._src.internal_test_util.test_harnesses: about 7,500 in jax 0.10.2,
in 132 groups: scatter, dot_general, conv_general_dilated, pad, gather,
convert_element_type, the elementwise ops, linalg, sorting, ...). This
writes each selected harness as a case directory in the corpus format
(module.hlo, optimized.hlo, module.mlir, module.mlirbc, case.json, args/,
results/ with XLA:CPU's results), through gen.py's writer, so that
`cxla conform` runs them like the corpus:

    tools/corpus/.venv/bin/pip install absl-py      # test_harnesses imports it
    tools/corpus/.venv/bin/python tools/corpus/gen_harness.py --out /tmp/h --cap 40
    build/cxla conform /tmp/h --backend cpu --which all

--table lax_ops takes lax_test.py's own table instead
(lax_test_util.lax_ops(): each op at each of its dtypes, at shapes (3,),
(3, 4) and (2, 1, 4), with the table's argument generators: about 1,200
cases). --cap N keeps at most N harnesses a group, spread evenly over its sorted
names (--offset 0.5 takes the ones between: a second, disjoint sample);
--groups REGEX and --names REGEX select by group and by case name; --list
prints the selected names. Arguments come from the harness's own argument
makers, seeded with the crc32 of its full name (plus --seed N, for other
values: the case names end in _sN then), so a case regenerates the same
but for this file's line numbers in the HLO metadata (optimized.hlo,
module.mlirbc) when the file has been edited since. Tolerances: gen.py's "model" preset for groups whose XLA results
carry several roundings (special functions, linalg, contractions,
reduce-window, fft, powers), "compound" for the rest; integers exact.

Expect differences that are not bugs: svd, eig, eigh and qr (their
vectors are unique only up to sign or phase: --groups excludes them by
default; the cpu backend calls LAPACK's own ?geev, ?gees, ?syevd and
?gesdd as XLA:CPU does and matches it on eig, the interpreter's own
solvers need not) and XLA's c64 Cholesky of a matrix whose condition
number is about 1e5 (the OpenBLAS jaxlib calls, another build, sums in
another order; the f32 one matches on the cpu backend, which
calls ?potrf as jaxlib does, not on the interpreter, whose factor, in
double, is closer to the exact one). Sorts without is_stable (approx_top_k's too) match:
both backends order equal keys as XLA:CPU's std::sort does.

tests/harness/ holds the cases that once failed (tools/corpus/README.md):
regenerate them with --groups . --names "$(cat tests/harness/NAMES)", and the l_
ones with --table lax_ops --names "$(cat tests/harness/NAMES_LAX)". """
import argparse
import os
import re
import sys
import zlib

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import gen as G  # noqa: E402  (sets the XLA/JAX environment first)
import jax  # noqa: E402
import numpy as np  # noqa: E402

# source locations relative to the repository, this file's as gen.py's
jax.config.update("jax_hlo_source_file_canonicalization_regex",
                  r"^.*/(?=tools/corpus/gen(_harness)?\.py$)")

LOOSE = re.compile(
    r"lgamma|digamma|igamma|erf|bessel|regularized_incomplete_beta|cholesky|lu|triangular_solve|"
    r"tridiagonal|custom_linear_solve|fft|cumlogsumexp|random_gamma|conv|dot_general|reduce_window|"
    r"cumprod|reduce_prod|pow|cbrt|tan|expm1|log1p|atanh|acosh|asinh|logistic")
NOT_UNIQUE = r"^(?!(svd|eig|eigh|qr)$)"


def case_name(h):
    name = ("l_" if isinstance(h, LaxOpCase) else "h_") + re.sub(r"[^a-z0-9_]", "_", h.fullname.lower())
    return re.sub(r"_+", "_", name)[:150].rstrip("_")


class LaxOpCase:
    """One entry of lax_test_util.lax_ops() (lax_test.py's table of ops,
    dtypes and argument generators) at one dtype and shape, shaped like a
    harness: group_name, fullname, dyn_fun, dyn_args_maker."""

    def __init__(self, rec, dtype, shape):
        self.rec, self.dtype, self.shape = rec, dtype, shape
        self.group_name = rec.op
        self.fullname = "%s_%s_%s" % (rec.op, np.dtype(dtype).name, "x".join(map(str, shape)))
        self.dyn_fun = getattr(jax.lax, rec.op)

    def dyn_args_maker(self, rng):
        gen = self.rec.rng_factory(rng)
        return [gen(self.shape, self.dtype) for _ in range(self.rec.nargs)]


def lax_op_cases():
    from jax._src.internal_test_util import lax_test_util
    return [LaxOpCase(rec, dt, shape) for rec in lax_test_util.lax_ops() for dt in rec.dtypes
            for shape in ((3,), (3, 4), (2, 1, 4))]


def select(harnesses, groups, names, cap, offset):
    by_group = {}
    for h in harnesses:
        if re.search(groups, h.group_name):
            by_group.setdefault(h.group_name, []).append(h)
    out, seen = [], set()
    for g in sorted(by_group):
        hs = sorted(by_group[g], key=lambda h: h.fullname)
        if cap and len(hs) > cap:
            step = len(hs) / cap
            hs = [hs[min(len(hs) - 1, int((i + offset) * step))] for i in range(cap)]
        for h in hs:
            n = case_name(h)
            if n in seen:
                n += "_%d" % zlib.crc32(h.fullname.encode())
            seen.add(n)
            if names is None or re.search(names, n):
                out.append((n, h))
    return out


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--out", required=True, help="output directory")
    ap.add_argument("--groups", default=NOT_UNIQUE, help="regex over group names (default: all but svd/eig/eigh/qr)")
    ap.add_argument("--names", help="regex over case names (h_<group>_<harness>)")
    ap.add_argument("--cap", type=int, default=0, help="at most this many harnesses a group (0: all)")
    ap.add_argument("--offset", type=float, default=0.0, help="where in each step of a capped group to take one")
    ap.add_argument("--table", choices=("harnesses", "lax_ops"), default="harnesses",
                    help="the primitive harnesses (h_ cases), or lax_test_util.lax_ops() at shapes (3,), "
                    "(3, 4) and (2, 1, 4) (l_ cases; a group is an op)")
    ap.add_argument("--seed", type=int, default=0,
                    help="added to every case's seed: other argument values (the names say so: _s<N>)")
    ap.add_argument("--list", action="store_true", help="print the selected case names and exit")
    opts = ap.parse_args(argv)
    if opts.table == "lax_ops":
        table = lax_op_cases()
    else:
        from jax._src.internal_test_util import test_harnesses
        table = test_harnesses.all_harnesses

    chosen = select(table, opts.groups, opts.names, opts.cap, opts.offset)
    if opts.seed:
        chosen = [("%s_s%d" % (n, opts.seed), h) for n, h in chosen]
    if opts.list:
        print("\n".join(n for n, _ in chosen))
        return 0
    os.makedirs(opts.out, exist_ok=True)
    failed = 0
    for n, h in chosen:
        def build(rng, h=h):
            r = np.random.RandomState((zlib.crc32(h.fullname.encode()) + opts.seed) & 0x7FFFFFFF)
            return h.dyn_fun, [np.asarray(a) for a in h.dyn_args_maker(r)]
        tol = "model" if LOOSE.search(h.group_name) else "compound"
        what = "lax_test_util.lax_ops" if isinstance(h, LaxOpCase) else "JAX primitive harness"
        c = G.Case(n, "%s %s" % (what, h.fullname), build, tol, False, False, ())
        try:
            G.generate(c, opts.out)
        except Exception as e:  # noqa: BLE001 - JAX refuses some (f16 LAPACK, bool scatter-add)
            failed += 1
            print("skipped %s: %s: %s" % (n, type(e).__name__, str(e)[:200]), file=sys.stderr)
    print("generated %d case(s), %d skipped (%s)" % (len(chosen) - failed, failed, G.SOURCE))
    return 0


if __name__ == "__main__":
    sys.exit(main())
