#!/usr/bin/env python3
"""Generate the cxla conformance corpus: real HLO from JAX plus XLA:CPU's results.

Usage (from the repository root, inside the venv described in README.md):

    python tools/corpus/gen.py                 # regenerate every case
    python tools/corpus/gen.py --only conv     # only cases whose name matches a regex
    python tools/corpus/gen.py --list          # list case names
    python tools/corpus/gen.py --out DIR       # write somewhere else (default tests/corpus)

Every case is a JAX function plus fixed-seed inputs.  For each case we write
tests/corpus/<case>/{module.hlo, optimized.hlo, module.mlir, module.mlirbc,
case.json, args/N.npy, results/N.npy} (see README.md for the format and the tolerance policy).

Besides writing the files, every case whose inputs are floating point is
re-run with all float inputs widened to f64 (c64 -> c128) and XLA's own f32
result is compared against that wider reference with HALF of the declared
tolerance.  This is a self-check that the declared tolerances leave room for
an independent implementation (different summation order, libm in double):
if XLA itself is not within half the tolerance of a more precise answer, the
tolerance is too tight.  Failures are reported at the end (and make
--strict exit non-zero).
"""

import os
import sys

# --- determinism: fix the environment before jax is imported ---------------
os.environ["XLA_FLAGS"] = " ".join([
    "--xla_force_host_platform_device_count=1",
    # Single-threaded Eigen: results must not depend on the host's core count.
    "--xla_cpu_multi_thread_eigen=false",
])
os.environ["JAX_PLATFORMS"] = "cpu"
os.environ["JAX_ENABLE_X64"] = "1"
os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "2")

import argparse
import functools
import glob
import json
import re
import shutil
import tempfile
import zlib

import numpy as np
import ml_dtypes

import jax
import jax.numpy as jnp
from jax import lax
import jaxlib

jax.config.update("jax_enable_x64", True)
jax.config.update("jax_platforms", "cpu")
# Source locations in HLO metadata: make them relative to the repository so
# the text does not depend on where the checkout lives.
jax.config.update("jax_hlo_source_file_canonicalization_regex",
                  r"^.*/(?=tools/corpus/gen\.py$)")

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(os.path.dirname(HERE))
DEFAULT_OUT = os.path.join(REPO, "tests", "corpus")
SOURCE = "jax %s / jaxlib %s" % (jax.__version__, jaxlib.__version__)

nan = float("nan")
inf = float("inf")

bf16 = ml_dtypes.bfloat16
f8e4m3fn = ml_dtypes.float8_e4m3fn
f8e5m2 = ml_dtypes.float8_e5m2

# ---------------------------------------------------------------------------
# dtype names and storage
# ---------------------------------------------------------------------------

HLO_NAME = {
    "bool": "pred",
    "int8": "s8", "int16": "s16", "int32": "s32", "int64": "s64",
    "uint8": "u8", "uint16": "u16", "uint32": "u32", "uint64": "u64",
    "float16": "f16", "bfloat16": "bf16", "float32": "f32", "float64": "f64",
    "complex64": "c64", "complex128": "c128",
    "float8_e4m3fn": "f8e4m3fn", "float8_e5m2": "f8e5m2",
}
# Types numpy lacks: stored as unsigned integers of the same width (raw bits).
RAW_STORAGE = {"bf16": np.uint16, "f8e4m3fn": np.uint8, "f8e5m2": np.uint8}
FLOATISH = {"f16", "bf16", "f32", "f64", "c64", "c128", "f8e4m3fn", "f8e5m2"}


def hlo_dtype(dt):
    return HLO_NAME[np.dtype(dt).name]


def save_array(path, arr):
    arr = np.asarray(arr)
    name = hlo_dtype(arr.dtype)
    if name in RAW_STORAGE:
        arr = arr.view(RAW_STORAGE[name])
    arr = np.array(arr, order="C", copy=True)  # (ascontiguousarray makes 0-d 1-d)
    if arr.dtype.byteorder == ">":
        arr = arr.astype(arr.dtype.newbyteorder("<"))
    with open(path, "wb") as fh:
        np.save(fh, arr, allow_pickle=False)


# ---------------------------------------------------------------------------
# tolerances
# ---------------------------------------------------------------------------
# A result matches when |got - want| <= atol + rtol * |want| elementwise
# (NaN matches NaN, +-Inf must be equal, ints/pred exact).

PRESETS = {
    # Pure data movement / exactly defined results (select, slices, sort, ...).
    "exact": {"*": (0.0, 0.0)},
    # One correctly rounded IEEE operation per element (add, mul, div, sqrt):
    # a few ulp of slack; atol covers flushing of denormal results.
    "arith": {"f64": (1e-13, 1e-300), "f32": (1e-6, 1e-37),
              "f16": (1e-3, 1e-7), "bf16": (1e-2, 1e-37),
              "c128": (1e-13, 1e-300), "c64": (1e-6, 1e-37), "*": (0.0, 0.0)},
    # Single transcendental functions (exp, log, sin, tanh, erf, ...).
    "trans": {"f64": (1e-12, 1e-15), "f32": (1e-5, 1e-6),
              "f16": (2e-3, 1e-4), "bf16": (2e-2, 1e-3),
              "c128": (1e-12, 1e-15), "c64": (1e-5, 1e-6), "*": (0.0, 0.0)},
    # Short compositions of ops / short sums (a few dozen terms).
    "compound": {"f64": (1e-12, 1e-13), "f32": (1e-5, 1e-5),
                 "f16": (5e-3, 5e-3), "bf16": (3e-2, 3e-2),
                 "c128": (1e-12, 1e-13), "c64": (1e-5, 1e-5), "*": (0.0, 0.0)},
    # Whole models, linear algebra: many roundings, moderate conditioning.
    "model": {"f64": (1e-10, 1e-11), "f32": (1e-4, 1e-4),
              "f16": (2e-2, 2e-2), "bf16": (5e-2, 5e-2),
              "c128": (1e-10, 1e-11), "c64": (1e-4, 1e-4), "*": (0.0, 0.0)},
}


def T(**kw):
    """Tolerance spec by dtype: T(f32=(rtol, atol), f64=(...)); '_' means '*'."""
    return {("*" if k == "_" else k): v for k, v in kw.items()}


def resolve_tol(spec, dt):
    if dt not in FLOATISH:
        return (0.0, 0.0)
    if spec is None:
        spec = "arith"
    if isinstance(spec, str):
        spec = PRESETS[spec]
    if isinstance(spec, tuple):
        return (float(spec[0]), float(spec[1]))
    if dt in spec:
        return tuple(float(v) for v in spec[dt])
    if "*" in spec:
        return tuple(float(v) for v in spec["*"])
    raise KeyError("no tolerance for dtype %s in %r" % (dt, spec))


def mismatches(got, want, rtol, atol):
    """Boolean mask of elements violating the corpus' match rule."""
    got = np.asarray(got)
    want = np.asarray(want)
    name = hlo_dtype(want.dtype)
    if name not in FLOATISH:
        return got != want
    wide = np.complex128 if name in ("c64", "c128") else np.float64
    g = got.astype(wide)
    w = want.astype(wide)
    gn, wn = np.isnan(g), np.isnan(w)
    gi, wi = np.isinf(g), np.isinf(w)
    bad = gn != wn
    both_inf = gi & wi & ~gn & ~wn
    bad |= (gi != wi) & ~gn & ~wn
    bad |= both_inf & (g != w)
    fin = ~gn & ~wn & ~gi & ~wi
    with np.errstate(invalid="ignore", over="ignore"):
        err = np.abs(g - w)
        lim = atol + rtol * np.abs(w)
    bad |= fin & ~(err <= lim)
    return bad


def within(got, wants, rtol, atol):
    """Match rule against one or several acceptable `wants` (elementwise: an
    element is fine when it matches any of them).  Returns (ok, diagnostics)."""
    got = np.asarray(got)
    if not isinstance(wants, (list, tuple)):
        wants = [wants]
    for w in wants:
        if np.asarray(w).shape != got.shape:
            return False, "shape %s vs %s" % (got.shape, np.asarray(w).shape)
    bad = np.ones(got.shape, bool)
    for w in wants:
        bad &= mismatches(got, w, rtol, atol)
    if bad.any():
        idx = tuple(int(i) for i in np.argwhere(bad)[0])
        return False, "%d bad, first at %s: got %r want %r" % (
            int(bad.sum()), idx, got[idx], np.asarray(wants[0])[idx])
    return True, None


# ---------------------------------------------------------------------------
# case registry
# ---------------------------------------------------------------------------

CASES = {}


class Case:
    def __init__(self, name, description, build, tol, ref, buffer_assignment, ref_skip):
        self.name = name
        self.ref_skip = set(ref_skip)
        self.description = description
        self.build = build
        self.tol = tol
        self.ref = ref
        self.buffer_assignment = buffer_assignment


def case(name, description, tol=None, ref=True, buffer_assignment=False, ref_skip=()):
    """Register a case.  The decorated builder gets a seeded numpy Generator
    and returns (function, [args...]); args are numpy arrays with explicit
    dtypes (pytrees of them are allowed; they are flattened in jax order).

    tol: preset name, (rtol, atol), dict by dtype, or a list with one spec
    per flattened result.  Integer and pred results are always exact.
    ref: compare XLA's result against an f64-widened rerun (see module doc).
    ref_skip: indices of results excluded from that comparison (results that
    depend on the precision itself, e.g. nextafter).
    """
    assert re.fullmatch(r"[a-z][a-z0-9_]*", name), name
    assert name not in CASES, name

    def deco(build):
        CASES[name] = Case(name, description, build, tol, ref, buffer_assignment, ref_skip)
        return build
    return deco


def rng_for(name):
    return np.random.default_rng(zlib.crc32(name.encode()))


def normal(rng, shape, dtype=np.float32, scale=1.0):
    return np.asarray(rng.standard_normal(shape) * scale).astype(dtype)


def uniform(rng, shape, lo, hi, dtype=np.float32):
    return rng.uniform(lo, hi, size=shape).astype(dtype)


def randint(rng, shape, lo, hi, dtype=np.int32):
    return rng.integers(lo, hi, size=shape, dtype=np.int64).astype(dtype)


def arr(values, dtype):
    return np.array(values, dtype=dtype)


def float_edges(dtype):
    """Edge values representable (or rounding to something) in dtype."""
    fi = ml_dtypes.finfo(dtype)
    vals = [nan, inf, -inf, 0.0, -0.0, 1.0, -1.0, 0.5, -0.5, 1.5, -1.5, 2.5,
            -2.5, 3.5, -0.1, 0.1, 7.0, -7.25, 100.0, -100.0,
            float(fi.smallest_subnormal), -float(fi.smallest_subnormal),
            float(fi.smallest_subnormal) * 3, float(fi.tiny), -float(fi.tiny),
            float(fi.max), -float(fi.max), float(fi.eps), 1.0 + float(fi.eps)]
    return np.array(vals, dtype=np.float64).astype(dtype)


def with_random(edges, rng, n, lo, hi):
    dt = edges.dtype
    return np.concatenate([edges, rng.uniform(lo, hi, size=n).astype(dt)])


def grid(values):
    """All ordered pairs of values, as two flat arrays."""
    v = np.asarray(values)
    a = np.repeat(v, len(v))
    b = np.tile(v, len(v))
    return a, b


# ---------------------------------------------------------------------------
# elementwise: floats
# ---------------------------------------------------------------------------

def _unary_exact_ops(x):
    return (lax.abs(x), lax.neg(x), lax.sign(x), lax.floor(x), lax.ceil(x),
            jnp.round(x),  # round-half-even
            lax.round(x, lax.RoundingMethod.AWAY_FROM_ZERO),
            lax.sqrt(x), lax.is_finite(x), jnp.trunc(x))


def _unary_exact_tol(x):
    return ["exact"] * 7 + ["arith", "exact", "exact"]


def _unary_exact_input(rng, dt):
    x = float_edges(dt)
    with np.errstate(over="ignore"):
        extra = np.array([0.49999997, 4194304.5, -4194303.5, 8388609.0, 1e10, -1e10, 2049.0],
                         np.float64).astype(dt)
    return np.concatenate([x, extra, (rng.standard_normal(24) * 8).astype(dt)])


for _dt, _nm in [(np.float32, "f32"), (np.float64, "f64")]:
    def _build(rng, _dt=_dt):
        return _unary_exact_ops, [_unary_exact_input(rng, _dt)]

    case("elementwise_%s_unary_exact" % _nm,
         "%s abs, negate, sign, floor, ceil, round (half-even and away-from-zero), "
         "sqrt, is_finite, trunc on NaN/Inf/-0/denormal/round-half edge values" % _nm,
         tol=_unary_exact_tol(None))(_build)


@case("elementwise_f16_bf16_unary_exact",
      "f16 (results 0-9) and bf16 (results 10-19): abs, negate, sign, floor, ceil, round "
      "(half-even and away-from-zero), sqrt, is_finite, trunc on edge values",
      tol=_unary_exact_tol(None) * 2)
def _(rng):
    def f(h, b):
        return _unary_exact_ops(h) + _unary_exact_ops(b)
    return f, [_unary_exact_input(rng, np.float16), _unary_exact_input(rng, bf16)]


def _f32_exp_log(x, p):
    return (lax.exp(x), lax.expm1(x), lax.log(x), lax.log1p(x), lax.logistic(x),
            lax.exp(p), lax.log(p), lax.log1p(p), lax.expm1(p * 1e-3),
            lax.exp2(x), jnp.log2(p), jnp.log10(p))


for _dt, _nm in [(np.float32, "f32"), (np.float64, "f64")]:
    def _build(rng, _dt=_dt):
        e = float_edges(_dt)
        x = with_random(e, rng, 40, -30, 30)
        p = np.concatenate([np.array([0.0, -0.0, inf, nan, -1.0, 1.0, 1e-30, 1e30],
                                     np.float64).astype(_dt),
                            np.abs(e[np.isfinite(e)]).astype(_dt),
                            uniform(rng, 40, 1e-3, 50, _dt),
                            np.exp(uniform(rng, 20, -80, 80, np.float64)).astype(_dt)])
        return _f32_exp_log, [x, p]

    case("elementwise_%s_exp_log" % _nm,
         "%s exp, expm1, log, log1p, logistic, exp2, log2, log10 incl. overflow, "
         "underflow, log of 0/negative/denormal" % _nm,
         tol="trans")(_build)


def _trig(x, y):
    return (lax.sin(x), lax.cos(x), lax.tan(x), lax.tanh(x), lax.atan2(x, y),
            jnp.arctan(x))


for _dt, _nm in [(np.float32, "f32"), (np.float64, "f64")]:
    def _build(rng, _dt=_dt):
        x = np.concatenate([np.array([nan, inf, -inf, 0.0, -0.0, 1e-30, -1e-30, 1.0, -1.0,
                                      np.pi / 2, np.pi, 3.0, 9.0, -9.0, 20.0, 1e-3],
                                     np.float64).astype(_dt),
                            uniform(rng, 48, -10, 10, _dt)])
        y = np.concatenate([np.array([1.0, 1.0, 1.0, -0.0, -1.0, 0.0, 0.0, inf, -inf,
                                      -2.0, 0.0, -3.0, inf, nan, -0.0, -1.0],
                                     np.float64).astype(_dt),
                            uniform(rng, 48, -10, 10, _dt)])
        return _trig, [x, y]

    case("elementwise_%s_trig" % _nm,
         "%s sin, cos, tan, tanh, atan2 (signed zeros, infinities), atan" % _nm,
         tol="trans")(_build)


def _special(x, u, p):
    return (lax.rsqrt(p), lax.cbrt(x), lax.erf(x), lax.erf_inv(u),
            lax.sinh(u * 10), lax.cosh(u * 10), lax.asinh(x), lax.acosh(p + 1),
            lax.atanh(u), lax.asin(u), lax.acos(u),
            lax.lgamma(p), lax.digamma(p))


@case("elementwise_f32_special",
      "f32 rsqrt, cbrt, erf, erf_inv, sinh, cosh, asinh, acosh, atanh, asin, acos, "
      "lgamma, digamma (jax expands most into HLO polynomials)",
      tol=["trans"] * 11 + [T(f32=(1e-5, 1e-5)), T(f32=(1e-5, 1e-5))])
def _(rng):
    x = np.concatenate([arr([nan, inf, -inf, 0.0, -0.0, 1e-40, 8.0, -27.0, 1e30], np.float32),
                        uniform(rng, 31, -5, 5)])
    u = np.concatenate([arr([nan, 1.0, -1.0, 0.0, -0.0, 0.999, -0.999, 1e-20, 0.5], np.float32),
                        uniform(rng, 31, -0.98, 0.98)])
    p = np.concatenate([arr([nan, inf, 0.0, 1.0, 2.0, 0.5, 1e-30, 3.5, 10.0], np.float32),
                        uniform(rng, 31, 0.05, 20)])
    return _special, [x, u, p]


def _binary_float(a, b, pa, pb):
    return (lax.add(a, b), lax.sub(a, b), lax.mul(a, b), lax.div(a, b),
            lax.max(a, b), lax.min(a, b), lax.rem(a, b), jnp.remainder(a, b),
            jnp.fmax(a, b), lax.nextafter(a, b), lax.pow(pa, pb))


def _binary_float_tol(pow_tol):
    return ["arith"] * 4 + ["exact", "exact", "arith", "arith", "exact", "exact", pow_tol]


def _binary_vals(dt, subnormal=True):
    fi = ml_dtypes.finfo(dt)
    vals = [nan, inf, -inf, 0.0, -0.0, 1.0, -1.0, 2.5, -3.0, 0.5, 7.0,
            float(fi.max), float(fi.tiny)]
    if subnormal:
        vals.append(float(fi.smallest_subnormal))
    return np.array(vals, np.float64).astype(dt)


def _binary_inputs(rng, dt):
    a, b = grid(_binary_vals(dt))
    a = np.concatenate([a, (rng.standard_normal(32) * 10).astype(dt)])
    b = np.concatenate([b, (rng.standard_normal(32) * 3).astype(dt)])
    # pow's operands: edge grid without subnormals (pow of a subnormal under
    # XLA:CPU's denormals-are-zero mode is not something to pin down).
    pa, pb = grid(_binary_vals(dt, subnormal=False))
    pa = np.concatenate([pa, np.abs(rng.standard_normal(16) * 4).astype(dt)])
    pb = np.concatenate([pb, (rng.standard_normal(16) * 3).astype(dt)])
    return [a, b, pa, pb]


_BINARY_DESC = ("add, sub, mul, div, max/min (NaN propagates), rem (fmod), jnp.remainder, "
                "fmax, nextafter over a grid of edge values (NaN, Inf, -0, denormal, max), "
                "and pow over a grid of edge values")

for _dt, _nm in [(np.float32, "f32"), (np.float64, "f64")]:
    def _build(rng, _dt=_dt):
        return _binary_float, _binary_inputs(rng, _dt)

    case("elementwise_%s_binary" % _nm, "%s %s" % (_nm, _BINARY_DESC),
         tol=_binary_float_tol("trans"), ref_skip=(9,))(_build)


@case("elementwise_f16_bf16_binary",
      "f16 (results 0-10) and bf16 (results 11-21): " + _BINARY_DESC,
      tol=_binary_float_tol("trans") * 2, ref_skip=(9, 20))
def _(rng):
    def f(a, b, pa, pb, c, d, pc, pd):
        return _binary_float(a, b, pa, pb) + _binary_float(c, d, pc, pd)
    return f, _binary_inputs(rng, np.float16) + _binary_inputs(rng, bf16)


def _compare(a, b):
    # One pred[6, n] result: rows are EQ, NE, LT, LE, GT, GE.
    return jnp.stack([a == b, a != b, a < b, a <= b, a > b, a >= b])


def _compare_vals(dt):
    sub = float(ml_dtypes.finfo(dt).smallest_subnormal)
    return np.array([nan, inf, -inf, 0.0, -0.0, 1.0, -1.0, sub, 2.0], np.float64).astype(dt)


@case("elementwise_f32_compare",
      "f32 compare over all pairs of NaN, +-Inf, +-0, denormal: one pred[6,81] result, "
      "rows EQ, NE, LT, LE, GT, GE", tol="exact")
def _(rng):
    return _compare, list(grid(_compare_vals(np.float32)))


@case("elementwise_compare_f64_f16_bf16",
      "f64, f16 and bf16 compare over all pairs of NaN, +-Inf, +-0, denormal: three "
      "pred[6,81] results (rows EQ, NE, LT, LE, GT, GE)", tol="exact")
def _(rng):
    def f(a, b, c, d, e, g):
        return _compare(a, b), _compare(c, d), _compare(e, g)
    return f, [*grid(_compare_vals(np.float64)), *grid(_compare_vals(np.float16)),
               *grid(_compare_vals(bf16))]


@case("elementwise_f32_select_clamp",
      "select, clamp (scalar and array bounds, NaN operand), jnp.where, jnp.clip",
      tol=["exact", "exact", "exact", "arith", "exact", "exact"])
def _(rng):
    def f(p, x, y, lo, hi):
        return (lax.select(p, x, y),
                lax.clamp(jnp.asarray(-1.0, x.dtype), x, jnp.asarray(1.0, x.dtype)),
                lax.clamp(lo, x, hi),
                jnp.where(x > 0, x, 0.1 * x),
                jnp.clip(x, -0.5, 2.0),
                jnp.where(p, x, 0.0))
    x = np.concatenate([arr([nan, inf, -inf, -0.0, 0.0, 1.0, -1.0], np.float32), normal(rng, 25, scale=2)])
    y = normal(rng, 32)
    p = rng.random(32) < 0.5
    lo = normal(rng, 32) - 1
    hi = lo + uniform(rng, 32, 0, 2)
    return f, [p, x, y, lo, hi]


# ---------------------------------------------------------------------------
# elementwise: integers and pred
# ---------------------------------------------------------------------------

INT_TYPES = [("s8", np.int8), ("s16", np.int16), ("s32", np.int32), ("s64", np.int64),
             ("u8", np.uint8), ("u16", np.uint16), ("u32", np.uint32), ("u64", np.uint64)]


def _int_vals(dt):
    ii = np.iinfo(dt)
    if ii.min < 0:
        v = [0, 1, -1, 2, -2, 7, -7, ii.max, ii.min, ii.max - 1, ii.min + 1, 100]
    else:
        v = [0, 1, 2, 7, 3, ii.max, ii.max - 1, ii.max // 2, ii.max // 2 + 1, 100]
    return np.array([int(t) for t in v], dtype=object).astype(dt)


def _int_case_parts(nm, dt):
    signed = np.iinfo(dt).min < 0
    bits = np.iinfo(dt).bits
    arith = ["add", "sub", "mul", "div", "rem", "max", "min", "and", "or", "xor", "not",
             "negate", "popcnt", "clz"] + (["abs", "sign"] if signed else []) + \
        ["jnp.floor_divide", "jnp.remainder", "integer_pow(a,3)"]

    def f(a, b, x, s):
        # Results are stacked per kind to keep the corpus small:
        #   0: [k, n] rows in the order of `arith` (see description)
        #   1: pred[3, n] rows a<b, a==b, a>=b
        #   2: [3, m] rows shift_left, shift_right_arithmetic, shift_right_logical
        out = [lax.add(a, b), lax.sub(a, b), lax.mul(a, b), lax.div(a, b), lax.rem(a, b),
               lax.max(a, b), lax.min(a, b), lax.bitwise_and(a, b), lax.bitwise_or(a, b),
               lax.bitwise_xor(a, b), lax.bitwise_not(a), lax.neg(a),
               lax.population_count(a), lax.clz(a)]
        if signed:
            out += [lax.abs(a), lax.sign(a)]
        out += [jnp.floor_divide(a, b), jnp.remainder(a, b), lax.integer_pow(a, 3)]
        return (jnp.stack(out), jnp.stack([a < b, a == b, a >= b]),
                jnp.stack([lax.shift_left(x, s), lax.shift_right_arithmetic(x, s),
                           lax.shift_right_logical(x, s)]))

    def build(rng):
        a, b = grid(_int_vals(dt))
        ii = np.iinfo(dt)
        xs = np.array([1, ii.max, ii.min if signed else ii.max // 3, 0x5a, 3],
                      dtype=object).astype(dt)
        sh = [0, 1, 3, bits - 1, bits, bits + 1, 2 * bits, 100]
        if signed:
            sh.append(-1)
        sh = np.array(sh, dtype=object).astype(dt)
        x, s = np.repeat(xs, len(sh)), np.tile(sh, len(xs))
        return f, [a, b, x, s]

    desc = ("%s: results %%d-%%d (args %%d-%%d): result %%d = stack of [%s] (wrapping "
            "arithmetic; div/rem by zero%s included); result %%d = stack of "
            "[a<b, a==b, a>=b]; result %%d = stack of [shift_left, shift_right_arithmetic, "
            "shift_right_logical] for shift amounts 0..2*bitwidth%s" % (
                nm, ", ".join(arith), " and MIN/-1" if signed else "",
                " and negative" if signed else ""))
    return f, build, desc


def _make_int_pair_case(bits, s_dt, u_dt):
    fs, bs, ds = _int_case_parts("s%d" % bits, s_dt)
    fu, bu, du = _int_case_parts("u%d" % bits, u_dt)

    def build(rng):
        _, a = bs(rng)
        _, b = bu(rng)

        def f(a0, a1, a2, a3, b0, b1, b2, b3):
            return fs(a0, a1, a2, a3) + fu(b0, b1, b2, b3)
        return f, a + b

    case("elementwise_int%d_ops" % bits,
         "%d-bit integer elementwise ops over all pairs of edge values (0, 1, -1, MIN, "
         "MAX, ...). %s. %s." % (bits, ds % (0, 2, 0, 3, 0, 1, 2), du % (3, 5, 4, 7, 3, 4, 5)),
         tol="exact")(build)


for _bits, _s, _u in [(8, np.int8, np.uint8), (16, np.int16, np.uint16),
                      (32, np.int32, np.uint32), (64, np.int64, np.uint64)]:
    _make_int_pair_case(_bits, _s, _u)


@case("elementwise_pred_ops",
      "pred and/or/xor/not, compare, select, converts pred<->s32/f32 and "
      "s32/f32 -> pred (nonzero, NaN is true)", tol="exact")
def _(rng):
    def f(p, q, i, x):
        return (p & q, p | q, p ^ q, ~p, p == q, p != q, p < q,
                lax.select(p, q, ~q), p.astype(jnp.int32), p.astype(jnp.float32),
                i.astype(jnp.bool_), x.astype(jnp.bool_), jnp.logical_and(i > 0, p))
    p, q = grid(np.array([False, True]))
    p = np.concatenate([p, rng.random(12) < 0.5])
    q = np.concatenate([q, rng.random(12) < 0.5])
    i = arr([0, 1, -1, 2, 0, 7, -2147483648, 0, 1, 0, 3, 0, 0, 5, 0, 9], np.int32)
    x = arr([0.0, -0.0, nan, inf, 1e-40, -1.0, 0.0, 2.0, 0.0, 0.0, 0.5, 0.0, 0.0, -inf, 1.0, 0.0], np.float32)
    return f, [p, q, i, x]


# ---------------------------------------------------------------------------
# conversions, bitcasts, reduce_precision
# ---------------------------------------------------------------------------

_F2I_TARGETS = [jnp.int8, jnp.int16, jnp.int32, jnp.int64, jnp.uint8, jnp.uint16,
                jnp.uint32, jnp.uint64]


@case("convert_float_to_int",
      "f32 -> s8/s16/s32/s64/u8/u16/u32/u64 (results 0-7) and f64 -> s32/s64/u32/u64/s8 "
      "(results 8-12) of NaN, +-Inf, out-of-range, negative and fractional values "
      "(XLA saturates; NaN -> 0)", tol="exact", ref=False)
def _(rng):
    def f(x, d):
        return (tuple(lax.convert_element_type(x, t) for t in _F2I_TARGETS) +
                tuple(lax.convert_element_type(d, t)
                      for t in (jnp.int32, jnp.int64, jnp.uint32, jnp.uint64, jnp.int8)))
    x = arr([nan, inf, -inf, 0.0, -0.0, 0.7, -0.7, 1.5, -1.5, 2.5, 127.5, 128.0, -129.0,
             255.9, 256.0, -1.0, 32767.0, 32768.0, -32769.0, 65536.0, 2147483520.0,
             2147483648.0, -2147483904.0, 4294967296.0, 9.2233720e18, 1.8446744e19,
             3e19, -3e19, 1e-40], np.float32)
    d = arr([nan, inf, -inf, -0.0, 2147483647.0, 2147483647.9, 2147483648.0, -2147483648.9,
             -2147483649.0, 4294967295.5, 4294967296.0, 9223372036854774784.0,
             9223372036854775808.0, -9223372036854775808.0, -9.3e18, 1.8446744073709550e19,
             1.8446744073709552e19, -0.99, 2.5, -2.5], np.float64)
    return f, [x, d]


@case("convert_int_to_float",
      "s32/s64/u32/u64/s8/u8 -> f32/f64/f16/bf16 incl. rounding of large values",
      tol="exact", ref=False)
def _(rng):
    def f(i32, i64, u32, u64, s8):
        c = lax.convert_element_type
        return (c(i32, jnp.float32), c(i32, jnp.float64), c(i32, jnp.float16), c(i32, bf16),
                c(i64, jnp.float32), c(i64, jnp.float64), c(u32, jnp.float32),
                c(u64, jnp.float32), c(u64, jnp.float64), c(s8, jnp.float16), c(s8, bf16))
    i32 = arr([0, 1, -1, 16777217, -16777217, 2147483647, -2147483648, 65504, 65520, 100000, 2049, 257], np.int32)
    i64 = arr([0, -1, 2 ** 53 + 1, -(2 ** 63), 2 ** 63 - 1, 2 ** 24 + 1, 12345678901, -3, 5, 9, 11, 13], np.int64)
    u32 = arr([0, 1, 4294967295, 2147483648, 16777217, 16777219, 3, 5, 7, 9, 11, 13], np.uint32)
    u64 = np.array([0, 1, 2 ** 64 - 1, 2 ** 63, 2 ** 53 + 1, 2 ** 24 + 1, 3, 5, 7, 9, 11, 13], dtype=np.uint64)
    s8 = arr([0, 1, -1, 127, -128, 3, 5, 7, 9, 11, 13, -13], np.int8)
    return f, [i32, i64, u32, u64, s8]


@case("convert_int_to_int",
      "integer narrowing (wraps), widening (sign/zero extension), signed<->unsigned",
      tol="exact")
def _(rng):
    def f(a, b, c):
        cv = lax.convert_element_type
        return (cv(a, jnp.int8), cv(a, jnp.uint8), cv(a, jnp.int16), cv(a, jnp.uint32),
                cv(a, jnp.int64), cv(a, jnp.uint64), cv(b, jnp.int32), cv(b, jnp.int64),
                cv(b, jnp.uint16), cv(c, jnp.int32), cv(c, jnp.int8), cv(c, jnp.uint32))
    a = arr([0, 1, -1, 127, 128, 255, 256, -129, 65535, 65536, -32769, 2147483647, -2147483648, 300], np.int32)
    b = arr([0, 1, 127, 128, 200, 255, 3, 4, 5, 6, 7, 8, 9, 10], np.uint8)
    c = np.array([0, 1, 2 ** 64 - 1, 2 ** 63, 2 ** 32, 2 ** 32 + 5, 255, 256, 2 ** 31, 2 ** 31 - 1, 7, 8, 9, 10], np.uint64)
    return f, [a, b, c]


@case("convert_float_to_float",
      "f32 -> f16/bf16/f8e4m3fn/f8e5m2 and f64 -> f32 (round-half-even ties, overflow, "
      "denormals), f16/bf16 -> f32, bf16 <-> f16", tol="exact", ref=False)
def _(rng):
    def f(x, d, h, b):
        cv = lax.convert_element_type
        return (cv(x, jnp.float16), cv(x, bf16), cv(x, f8e4m3fn), cv(x, f8e5m2),
                cv(d, jnp.float32), cv(h, jnp.float32), cv(b, jnp.float32),
                cv(h, bf16), cv(b, jnp.float16), cv(x, jnp.float64))
    x = np.concatenate([
        arr([nan, inf, -inf, 0.0, -0.0, 1.0, 65504.0, 65519.0, 65520.0, 1e5, 6e-8, 2.9e-8,
             3e-8, 1e-40, 1.00390625, 1.01171875, 1.0009765625, 1.00048828125, 1.00146484375,
             448.0, 464.0, 57344.0, 61440.0, 1e-3, 0.0625, 3.4e38, -2.75, 0.3333333],
            np.float32),
        normal(rng, 12, scale=10)])
    d = arr([nan, inf, 1e300, -1e300, 1e-300, 1e-46, 1.0000000596046448, 1.0000001788139343,
             3.4028235677973366e38, 3.4028236e38, 0.1, -0.0], np.float64)
    h = arr([nan, inf, -inf, 65504.0, 6e-8, -0.0, 1.0009765625, 0.1, 1e-5, 3.0], np.float16)
    b = arr([nan, inf, -inf, 3.3895314e38, 1e-40, -0.0, 1.0078125, 0.1, 1e5, 3.0], bf16)
    return f, [x, d, h, b]


@case("bitcast_convert",
      "bitcast_convert between f32/s32/u32, f64/s64, f16/u16, bf16/s16 and "
      "width-changing f32 <-> u8[...,4] / u16[...,2]", tol="exact", ref=False)
def _(rng):
    def f(x, i, d, h, b, u8):
        bc = lax.bitcast_convert_type
        return (bc(x, jnp.int32), bc(x, jnp.uint32), bc(i, jnp.float32), bc(d, jnp.int64),
                bc(h, jnp.uint16), bc(b, jnp.int16), bc(x, jnp.uint8), bc(x, jnp.uint16),
                bc(u8, jnp.float32), bc(i, bf16))
    x = arr([nan, inf, -inf, 0.0, -0.0, 1.0, -2.5, 1e-40, 3.4e38, 0.1], np.float32)
    i = arr([0, 1, -1, 0x7f800000, 0x7fc00000, 0x3f800000, -2147483648, 0x00000001, 0x7f7fffff, 12345], np.int32)
    d = arr([nan, inf, -0.0, 1.0, 1e-310, -2.5, 0.1, 1e300, 2.0, 3.0], np.float64)
    h = arr([nan, inf, -0.0, 1.0, 6e-8, -2.5, 0.1, 65504, 2.0, 3.0], np.float16)
    b = arr([nan, inf, -0.0, 1.0, 1e-40, -2.5, 0.1, 1e38, 2.0, 3.0], bf16)
    u8 = randint(rng, (10, 4), 0, 256, np.uint8)
    return f, [x, i, d, h, b, u8]


@case("reduce_precision",
      "lax.reduce_precision to (8,7)=bf16, (5,10)=f16, (4,3), (2,1) and (11,20) on f32 and f64 edge values",
      tol="exact", ref=False)
def _(rng):
    def f(x, d):
        rp = lax.reduce_precision
        return (rp(x, 8, 7), rp(x, 5, 10), rp(x, 4, 3), rp(x, 2, 1), rp(d, 11, 20), rp(d, 8, 23))
    x = np.concatenate([float_edges(np.float32),
                        arr([1.00390625, 1.01171875, 65519.0, 65520.0, 6e-8, 1e-5, 17.0, 15.5], np.float32),
                        normal(rng, 16, scale=100)])
    d = np.concatenate([float_edges(np.float64), normal(rng, 16, np.float64, scale=1e3)])
    return f, [x, d]


@case("elementwise_integer_pow",
      "lax.integer_pow with exponents -3..12 on f32 and s32, x**2, jnp.power on s32 "
      "arrays (incl. negative exponents) and f32 pow with integer-valued exponents",
      tol=["trans"] * 6 + ["exact"] * 4 + ["trans"])
def _(rng):
    def f(x, i, e, fe):
        ip = lax.integer_pow
        return (ip(x, -3), ip(x, -1), ip(x, 0), ip(x, 2), ip(x, 5), x ** 2,
                ip(i, 2), ip(i, 7), ip(i, 12), jnp.power(i, e), jnp.power(x, fe))
    x = np.concatenate([arr([nan, inf, -inf, 0.0, -0.0, 1.0, -1.0, 2.0, 1e20, -1e-20], np.float32),
                        uniform(rng, 14, -3, 3)])
    i = np.concatenate([arr([0, 1, -1, 2, -2, 3, 7, -7, 100, 46341, -46341, 65536], np.int32),
                        randint(rng, 12, -10, 10)])
    e = np.concatenate([arr([0, 1, 2, 3, 31, 32, 0, -1, -2, 5, 2, 2], np.int32),
                        randint(rng, 12, 0, 8)])
    fe = arr([2, 3, -1, 0.5, 2, 3, 4, 5, -2, 3, 1, 0] * 2, np.float32)
    return f, [x, i, e, fe]


@case("elementwise_c64_ops",
      "complex64 real/imag/complex/conj, add, mul, div, abs, exp, log, sqrt, "
      "negate, sign, compare eq",
      tol=["exact", "exact", "exact", "exact", "arith", "compound", "compound", "trans",
           "trans", "trans", "trans", "exact", "trans", "exact"])
def _(rng):
    def f(z, w, re_, im_):
        return (jnp.real(z), jnp.imag(z), lax.complex(re_, im_), jnp.conj(z), z + w, z * w,
                z / w, jnp.abs(z), jnp.exp(z), jnp.log(z), jnp.sqrt(z), -z, jnp.sign(z), z == w)
    z = (normal(rng, 16) + 1j * normal(rng, 16)).astype(np.complex64)
    w = (normal(rng, 16) + 1j * normal(rng, 16)).astype(np.complex64)
    z[0] = w[0]
    return f, [z, w, normal(rng, 16), normal(rng, 16)]


@case("elementwise_c128_ops",
      "complex128 add, mul, div, abs, exp, log, sqrt, expm1/log1p, sin/cos, pow",
      tol=["arith", "compound", "compound", "trans", "trans", "trans", "trans", "trans",
           "trans", "trans", "trans"])
def _(rng):
    def f(z, w):
        return (z + w, z * w, z / w, jnp.abs(z), jnp.exp(z), jnp.log(z), jnp.sqrt(z),
                jnp.expm1(z * 0.1), jnp.sin(z), jnp.cos(z), z ** 3)
    z = (normal(rng, 12, np.float64) + 1j * normal(rng, 12, np.float64)).astype(np.complex128)
    w = (normal(rng, 12, np.float64) + 1j * normal(rng, 12, np.float64)).astype(np.complex128)
    return f, [z, w]


# ---------------------------------------------------------------------------
# classic examples and common NN pieces
# ---------------------------------------------------------------------------

@case("classic_gelu", "jax.nn.gelu on f32[8,64]: tanh approximation (result 0) and exact erf "
      "form (result 1)", tol="trans")
def _(rng):
    return (lambda x: (jax.nn.gelu(x, approximate=True), jax.nn.gelu(x, approximate=False))), [
        normal(rng, (8, 64), scale=3)]


@case("classic_sin_squared", "jnp.sin(x) ** 2 on f32[1000]", tol="trans")
def _(rng):
    return (lambda x: jnp.sin(x) ** 2), [uniform(rng, 1000, -10, 10)]


@case("classic_matmul_256",
      "f32[256,256] @ f32[256,256] (the 1024x1024 variant lives in the benchmarks); "
      "K=256 terms per dot, inputs N(0,1)", tol=T(f32=(1e-5, 1e-4)))
def _(rng):
    return (lambda a, b: a @ b), [normal(rng, (256, 256)), normal(rng, (256, 256))]


@case("nn_softmax", "jax.nn.softmax over the last axis and axis 0 (large logits, -inf), "
      "jax.nn.log_softmax over the last axis", tol="compound")
def _(rng):
    x = normal(rng, (6, 10), scale=5)
    x[1, 3] = -inf
    x[2, :] = 80.0 + np.arange(10, dtype=np.float32)
    return (lambda x: (jax.nn.softmax(x, axis=-1), jax.nn.softmax(x, axis=0),
                       jax.nn.log_softmax(x, axis=-1))), [x]


@case("nn_logsumexp", "jax.nn.logsumexp over axes -1, 0 and all, incl. a row of -inf",
      tol="compound")
def _(rng):
    x = normal(rng, (5, 12), scale=4)
    x[3, :] = -inf
    x[4, 2] = 90.0
    return (lambda x: (jax.nn.logsumexp(x, axis=-1), jax.nn.logsumexp(x, axis=0),
                       jax.nn.logsumexp(x))), [x]


@case("nn_layer_norm", "layer norm over the last axis (mean, var, rsqrt, scale, bias), f32[8,32]",
      tol="compound")
def _(rng):
    def f(x, g, b):
        mu = jnp.mean(x, axis=-1, keepdims=True)
        var = jnp.mean((x - mu) ** 2, axis=-1, keepdims=True)
        return (x - mu) * lax.rsqrt(var + 1e-5) * g + b
    return f, [normal(rng, (8, 32), scale=2) + 3, normal(rng, 32), normal(rng, 32)]


@case("nn_mean_var", "jnp.mean, jnp.var, jnp.std over various axes of f32[4,6,8]",
      tol="compound")
def _(rng):
    def f(x):
        return (jnp.mean(x), jnp.mean(x, axis=(0, 2)), jnp.var(x, axis=1), jnp.std(x, axis=-1),
                jnp.var(x, axis=0, ddof=1))
    return f, [normal(rng, (4, 6, 8), scale=3) + 1]


@case("nn_argmax_argmin",
      "jnp.argmax/argmin over each axis with ties (first wins) and NaN (NaN wins), f32 and s32",
      tol="exact")
def _(rng):
    def f(x, i):
        return (jnp.argmax(x, axis=0), jnp.argmax(x, axis=1), jnp.argmin(x, axis=1),
                jnp.argmax(x), jnp.argmax(i, axis=1), jnp.argmin(i, axis=0),
                jnp.max(x, axis=1), jnp.min(i, axis=1))
    x = normal(rng, (5, 7))
    x[0, 2] = x[0, 5] = 9.0
    x[1, 4] = nan
    x[2, :] = 1.0
    i = randint(rng, (5, 7), -3, 3)
    return f, [x, i]


@case("nn_activations",
      "relu, relu6, silu, softplus, elu, leaky_relu, sigmoid, hard_tanh, log_sigmoid; "
      "jnp.clip, jnp.where with broadcasting, relu via jnp.maximum, NaN replacement",
      tol=["exact", "exact", "trans", "trans", "trans", "arith", "trans", "exact", "trans",
           "exact", "exact", "exact", "exact"])
def _(rng):
    def f(x, m, t):
        n = jax.nn
        return (n.relu(x), n.relu6(x), n.silu(x), n.softplus(x), n.elu(x), n.leaky_relu(x),
                n.sigmoid(x), n.hard_tanh(x), n.log_sigmoid(x),
                jnp.clip(m, -1.0, 1.0), jnp.where(m > t, m, t), jnp.maximum(m, 0.0),
                jnp.where(jnp.isnan(m), 0.0, m))
    x = np.concatenate([arr([0.0, -0.0, 30.0, -30.0, 100.0, -100.0, 6.0, 7.0], np.float32),
                        normal(rng, 56, scale=4)])
    m = normal(rng, (4, 8), scale=2)
    m[0, 0] = nan
    return f, [x, m, normal(rng, (8,))]


@case("nn_cross_entropy", "one_hot of s32 labels + log_softmax cross-entropy loss, f32[8,10]",
      tol="compound")
def _(rng):
    def f(logits, labels):
        oh = jax.nn.one_hot(labels, 10, dtype=jnp.float32)
        return -jnp.mean(jnp.sum(oh * jax.nn.log_softmax(logits), axis=-1)), oh
    return f, [normal(rng, (8, 10), scale=3), randint(rng, 8, 0, 10)]


# ---------------------------------------------------------------------------
# shapes
# ---------------------------------------------------------------------------

@case("shape_broadcast", "broadcast_to, outer-style broadcasting, scalar and size-1 dims",
      tol="arith")
def _(rng):
    def f(x, y, s, z):
        return (jnp.broadcast_to(x, (3, 4, 5)), x[:, None] + y[None, :], s * z, z + x[None, :],
                lax.broadcast_in_dim(y, (2, 4, 3), (1,)))
    return f, [normal(rng, 5), normal(rng, 4), normal(rng, ()), normal(rng, (1, 5))]


@case("shape_reshape", "reshapes incl. to/from scalars, size-1 dims and flatten; expand_dims, "
      "squeeze, newaxis indexing, ravel", tol="exact")
def _(rng):
    def f(x, s, y):
        return (x.reshape(6, 4), x.reshape(-1), x.reshape(2, 1, 12, 1), x.T.reshape(4, 6),
                s.reshape(1, 1), x.reshape(24, 1)[5:9].reshape(2, 2),
                jnp.expand_dims(y, (1, 3)), jnp.squeeze(x[:1, None]), x[None, :, None],
                jnp.ravel(y))
    return f, [normal(rng, (2, 3, 4)), normal(rng, ()), normal(rng, (3, 4))]


@case("shape_transpose", "transposes of rank 2, 3, 4 tensors with all kinds of permutations",
      tol="exact")
def _(rng):
    def f(a, b, c):
        return (a.T, jnp.transpose(b, (2, 0, 1)), jnp.transpose(b, (1, 0, 2)),
                jnp.transpose(c, (0, 3, 1, 2)), jnp.transpose(c, (3, 2, 1, 0)), jnp.swapaxes(c, 1, 3))
    return f, [normal(rng, (3, 5)), randint(rng, (2, 3, 4), -100, 100),
               normal(rng, (2, 3, 4, 5))]


@case("shape_slice_strided", "basic slices, strided slices, negative steps, lax.slice with "
      "strides, jnp.flip over one, two and all axes", tol="exact")
def _(rng):
    def f(x, v, t):
        return (x[1:4, 2:], x[::2, 1::3], x[::-1, ::-2], lax.slice(x, (0, 1), (5, 7), (2, 2)),
                v[3:], v[-4:-1], v[::-1], v[1:1], x[2], x[:, -1],
                jnp.flip(t, 0), jnp.flip(t, (1, 2)), jnp.flip(t))
    return f, [normal(rng, (6, 8)), randint(rng, 10, 0, 100), randint(rng, (2, 3, 4), -50, 50)]


@case("shape_concatenate", "concatenate along each axis, 3 operands, different sizes, stack",
      tol="exact")
def _(rng):
    def f(a, b, c, v, w):
        return (jnp.concatenate([a, b], axis=0), jnp.concatenate([a, c, a], axis=1),
                jnp.stack([v, w]), jnp.stack([v, w], axis=1), jnp.concatenate([v, w, v[:1]]))
    return f, [normal(rng, (2, 3)), normal(rng, (4, 3)), normal(rng, (2, 5)),
               normal(rng, 4), normal(rng, 4)]


@case("shape_pad", "lax.pad with negative, interior and mixed padding; jnp.pad edge/reflect/wrap",
      tol="exact")
def _(rng):
    def f(x, v):
        c = lambda val: jnp.asarray(val, x.dtype)  # noqa: E731
        return (lax.pad(x, c(0), ((1, 2, 0), (0, 1, 0))),
                lax.pad(x, c(-1), ((-1, 1, 1), (2, -2, 2))),
                lax.pad(v, c(9), ((-2, -1, 0),)),
                lax.pad(v, c(7), ((0, 0, 3),)),
                jnp.pad(x, ((1, 1), (2, 0)), mode="edge"),
                jnp.pad(x, ((2, 1), (1, 2)), mode="reflect"),
                jnp.pad(v, (3, 2), mode="wrap"))
    return f, [normal(rng, (3, 4)), normal(rng, 6)]


@case("shape_iota", "jnp.arange (s64 under x64, s32, f32), lax.broadcasted_iota, iota-based masks",
      tol="exact")
def _(rng):
    def f(x):
        return (jnp.arange(10), jnp.arange(3, 15, 3, dtype=jnp.int32),
                jnp.arange(5, dtype=jnp.float32) * 0.5,
                lax.broadcasted_iota(jnp.int32, (3, 4), 1) + x,
                jnp.tril(jnp.ones((4, 4), jnp.float32)), jnp.eye(3, dtype=jnp.int32))
    return f, [randint(rng, (3, 4), 0, 10)]


# ---------------------------------------------------------------------------
# reductions
# ---------------------------------------------------------------------------

@case("reduce_f32_axes", "sum/max/min/prod/mean of f32[4,5,6] over each axis, pairs of axes and all",
      tol=T(f32=(2e-6, 2e-6)))
def _(rng):
    def f(x):
        return (jnp.sum(x, 0), jnp.sum(x, 1), jnp.sum(x, 2), jnp.sum(x, (0, 2)), jnp.sum(x),
                jnp.max(x, 1), jnp.min(x, (0, 2)), jnp.prod(1 + 0.1 * x, 2), jnp.mean(x, (1, 2)))
    return f, [normal(rng, (4, 5, 6))]


@case("reduce_f64_f16_bf16", "sum/max/min/prod of f64[3,4,5] over axes; sum/max/mean of "
      "f16[6,16] and bf16[6,16] (as jnp emits them)", tol="compound")
def _(rng):
    def f(x, h, b):
        return (jnp.sum(x, 0), jnp.sum(x, (1, 2)), jnp.max(x, 2), jnp.min(x), jnp.prod(x, 1),
                jnp.sum(h, 1), jnp.max(h, 0), jnp.mean(h), jnp.sum(b, 0), jnp.max(b, 1),
                jnp.mean(b, 1))
    return f, [normal(rng, (3, 4, 5), np.float64), normal(rng, (6, 16), np.float16),
               normal(rng, (6, 16), bf16)]


@case("reduce_int_types",
      "every integer type s8..u64 (one arg each, in that order): one result per type = "
      "stack of [sum (same dtype, wrapping), max, min, prod] over axis 1", tol="exact")
def _(rng):
    def f(*xs):
        return tuple(jnp.stack([jnp.sum(x, axis=1, dtype=x.dtype), jnp.max(x, axis=1),
                                jnp.min(x, axis=1), jnp.prod(x, axis=1, dtype=x.dtype)])
                     for x in xs)
    xs = []
    for _, dt in INT_TYPES:
        ii = np.iinfo(dt)
        x = rng.integers(ii.min, ii.max, size=(3, 9), dtype=np.int64 if ii.min < 0 or ii.bits < 64
                         else np.uint64, endpoint=True).astype(dt)
        x[2] = np.array([1, 2, 3, 1, 2, 1, 3, 2, 1], dtype=dt)
        xs.append(x)
    return f, xs


@case("reduce_pred", "jnp.any / jnp.all over axes of a pred array", tol="exact")
def _(rng):
    def f(p):
        return jnp.any(p, 0), jnp.all(p, 1), jnp.any(p), jnp.all(p), jnp.sum(p, 1)
    p = rng.random((4, 5)) < 0.6
    p[0, :] = True
    p[:, 1] = False
    return f, [p]


@case("reduce_size0_size1",
      "reductions over empty axes (identities: 0, 1, -inf, +inf, int min/max) and size-1 axes",
      tol="exact")
def _(rng):
    def f(e, one, ei):
        return (jnp.sum(e, 1), jnp.prod(e, 1), lax.reduce_max(e, (1,)), lax.reduce_min(e, (1,)),
                lax.reduce_max(ei, (0,)), lax.reduce_min(ei, (0,)), jnp.sum(one, 1),
                jnp.argmax(one, 1), jnp.max(one, 0), jnp.sum(e))
    return f, [np.zeros((3, 0), np.float32), normal(rng, (3, 1)), np.zeros((0, 2), np.int32)]


@case("reduce_long_sum",
      "sums of 4096 f32 N(0,1) and 8192 f32 U(0,1) values, row sums of 64; tolerance scales "
      "with length (rtol 3e-5, atol 1e-4 for cancellation)", tol=T(f32=(3e-5, 1e-4)))
def _(rng):
    def f(x, y):
        return jnp.sum(x), jnp.sum(y), jnp.sum(x.reshape(64, 64), 1), jnp.mean(y)
    return f, [normal(rng, 4096), uniform(rng, 8192, 0, 1)]


# ---------------------------------------------------------------------------
# dot_general
# ---------------------------------------------------------------------------

@case("dot_odd_shapes", "matmuls with odd sizes: 3x5@5x7, 1x9@9x1, 7x1@1x6, 13x17@17x11",
      tol="compound")
def _(rng):
    def f(a, b, c, d, e, g, h, k):
        return a @ b, c @ d, e @ g, h @ k
    return f, [normal(rng, (3, 5)), normal(rng, (5, 7)), normal(rng, (1, 9)), normal(rng, (9, 1)),
               normal(rng, (7, 1)), normal(rng, (1, 6)), normal(rng, (13, 17)),
               normal(rng, (17, 11))]


@case("dot_batch", "batched matmul bij,bjk->bik and two batch dims abij,abjk->abik, "
      "broadcast batch via matmul", tol="compound")
def _(rng):
    def f(a, b, c, d, m):
        return (jnp.einsum("bij,bjk->bik", a, b), jnp.einsum("abij,abjk->abik", c, d),
                jnp.matmul(a, m))
    return f, [normal(rng, (3, 4, 5)), normal(rng, (3, 5, 2)), normal(rng, (2, 3, 4, 5)),
               normal(rng, (2, 3, 5, 3)), normal(rng, (5, 6))]


@case("dot_einsum", "einsums with unusual contraction dims: ijk,jkl->il, bij,bkj->bik, "
      "abc,cda->bd, ij,ij->, i,j->ij, bhqd,bhkd->bhqk", tol="compound")
def _(rng):
    def f(x, y, p, q, r, s, u, v, g, h):
        return (jnp.einsum("ijk,jkl->il", x, y), jnp.einsum("bij,bkj->bik", p, q),
                jnp.einsum("abc,cda->bd", r, s), jnp.einsum("ij,ij->", u, v),
                jnp.einsum("i,j->ij", u[0], v[1]), jnp.einsum("bhqd,bhkd->bhqk", g, h))
    return f, [normal(rng, (2, 3, 4)), normal(rng, (3, 4, 5)), normal(rng, (2, 3, 4)),
               normal(rng, (2, 5, 4)), normal(rng, (2, 3, 4)), normal(rng, (4, 5, 2)),
               normal(rng, (3, 4)), normal(rng, (3, 4)), normal(rng, (2, 2, 3, 4)),
               normal(rng, (2, 2, 5, 4))]


@case("dot_matvec", "matrix-vector, vector-matrix, vector-vector (inner), jnp.outer, jnp.vdot",
      tol="compound")
def _(rng):
    def f(a, v, w):
        return a @ v, w @ a, v @ v, jnp.outer(v, w), jnp.dot(w, w)
    return f, [normal(rng, (6, 8)), normal(rng, 8), normal(rng, 6)]


@case("dot_int", "s32 matmul (wrapping), s8 x s8 -> s32 (preferred_element_type), u8 matmul",
      tol="exact")
def _(rng):
    def f(a, b, c, d, e, g):
        return (a @ b, lax.dot(c, d, preferred_element_type=jnp.int32),
                lax.dot(e, g), jnp.matmul(c, d))
    a = randint(rng, (4, 6), -1000, 1000)
    a[0, 0] = 2 ** 30
    b = randint(rng, (6, 3), -1000, 1000)
    b[0, 0] = 4
    return f, [a, b, randint(rng, (5, 7), -128, 128, np.int8), randint(rng, (7, 2), -128, 128, np.int8),
               randint(rng, (3, 4), 0, 256, np.uint8), randint(rng, (4, 2), 0, 256, np.uint8)]


@case("dot_f16_bf16", "bf16 x bf16 matmul -> bf16 and with preferred_element_type=f32; "
      "f16 x f16 matmul -> f16 and batched f16 einsum",
      tol=[T(bf16=(2e-2, 5e-2)), T(f32=(2e-5, 2e-5)), T(f16=(5e-3, 1e-2)), T(f16=(5e-3, 1e-2))])
def _(rng):
    def f(a, b, c, d, e, g):
        return (a @ b, lax.dot(a, b, preferred_element_type=jnp.float32), c @ d,
                jnp.einsum("bij,bjk->bik", e, g))
    return f, [normal(rng, (8, 16), bf16), normal(rng, (16, 4), bf16),
               normal(rng, (8, 16), np.float16), normal(rng, (16, 4), np.float16),
               normal(rng, (2, 3, 8), np.float16), normal(rng, (2, 8, 5), np.float16)]


@case("dot_f64_c64", "f64 matmul and complex64 matmul", tol="compound")
def _(rng):
    def f(a, b, c, d):
        return a @ b, c @ d
    c = (normal(rng, (4, 6)) + 1j * normal(rng, (4, 6))).astype(np.complex64)
    d = (normal(rng, (6, 3)) + 1j * normal(rng, (6, 3))).astype(np.complex64)
    return f, [normal(rng, (5, 7), np.float64), normal(rng, (7, 3), np.float64), c, d]


# ---------------------------------------------------------------------------
# convolution
# ---------------------------------------------------------------------------

def _conv(x, w, strides=(1, 1), padding="SAME", lhs_dilation=None, rhs_dilation=None,
          dn=("NHWC", "HWIO", "NHWC"), groups=1, batch_groups=1):
    return lax.conv_general_dilated(x, w, strides, padding, lhs_dilation=lhs_dilation,
                                    rhs_dilation=rhs_dilation, dimension_numbers=dn,
                                    feature_group_count=groups,
                                    batch_group_count=batch_groups)


_CONV_TOL = T(f32=(1e-5, 1e-5), f64=(1e-12, 1e-12))


@case("conv2d_nhwc", "conv2d NHWC/HWIO, SAME padding, 3x3 kernel, 3->4 channels", tol=_CONV_TOL)
def _(rng):
    return (lambda x, w: _conv(x, w)), [normal(rng, (2, 6, 6, 3)), normal(rng, (3, 3, 3, 4))]


@case("conv2d_nchw", "conv2d NCHW/OIHW, VALID padding, 3x2 kernel", tol=_CONV_TOL)
def _(rng):
    return (lambda x, w: _conv(x, w, padding="VALID", dn=("NCHW", "OIHW", "NCHW"))), [
        normal(rng, (2, 3, 7, 6)), normal(rng, (4, 3, 3, 2))]


@case("conv1d", "conv1d NWC/WIO with stride 2 and SAME padding, plus NCW with VALID",
      tol=_CONV_TOL)
def _(rng):
    def f(x, w, y, v):
        return (lax.conv_general_dilated(x, w, (2,), "SAME", dimension_numbers=("NWC", "WIO", "NWC")),
                lax.conv_general_dilated(y, v, (1,), "VALID", dimension_numbers=("NCW", "OIW", "NCW")))
    return f, [normal(rng, (2, 11, 3)), normal(rng, (3, 3, 5)), normal(rng, (1, 2, 9)),
               normal(rng, (3, 2, 4))]


@case("conv3d", "conv3d NDHWC/DHWIO with SAME padding", tol=_CONV_TOL)
def _(rng):
    def f(x, w):
        return lax.conv_general_dilated(x, w, (1, 1, 1), "SAME",
                                        dimension_numbers=("NDHWC", "DHWIO", "NDHWC"))
    return f, [normal(rng, (1, 4, 5, 4, 2)), normal(rng, (3, 3, 2, 2, 3))]


@case("conv2d_strided", "conv2d with stride (2,3) and SAME, and stride 2 VALID", tol=_CONV_TOL)
def _(rng):
    def f(x, w):
        return _conv(x, w, strides=(2, 3)), _conv(x, w, strides=(2, 2), padding="VALID")
    return f, [normal(rng, (2, 9, 10, 3)), normal(rng, (3, 3, 3, 4))]


@case("conv2d_dilated",
      "atrous conv2d (rhs/kernel dilation (2,3)), conv2d with lhs (input) dilation 2 "
      "(fractionally strided) and lax.conv_transpose", tol=_CONV_TOL)
def _(rng):
    def f(x, w, y, v):
        return (_conv(x, w, rhs_dilation=(2, 3), padding="VALID"),
                _conv(y, v, lhs_dilation=(2, 2), padding=((1, 1), (2, 1))),
                lax.conv_transpose(y, v, (2, 2), "SAME", dimension_numbers=("NHWC", "HWIO", "NHWC")))
    return f, [normal(rng, (1, 9, 10, 2)), normal(rng, (3, 3, 2, 3)), normal(rng, (2, 4, 5, 3)),
               normal(rng, (3, 3, 3, 2))]


@case("conv2d_grouped", "conv2d with feature_group_count=2 (4 -> 6 channels)", tol=_CONV_TOL)
def _(rng):
    return (lambda x, w: _conv(x, w, groups=2)), [normal(rng, (2, 5, 5, 4)),
                                                   normal(rng, (3, 3, 2, 6))]


@case("conv2d_depthwise", "depthwise conv2d (feature_group_count = channels = 3, multiplier 2)",
      tol=_CONV_TOL)
def _(rng):
    return (lambda x, w: _conv(x, w, groups=3, strides=(1, 2))), [normal(rng, (2, 6, 6, 3)),
                                                                   normal(rng, (3, 3, 1, 6))]


@case("conv2d_asym_padding", "conv2d with asymmetric and negative explicit padding", tol=_CONV_TOL)
def _(rng):
    def f(x, w):
        return _conv(x, w, padding=((1, 2), (0, 3))), _conv(x, w, padding=((-1, 2), (2, -1)))
    return f, [normal(rng, (1, 6, 7, 2)), normal(rng, (3, 2, 2, 3))]


@case("conv2d_grads",
      "gradients of a strided, padded conv2d w.r.t. its input (a transposed conv, result 0) "
      "and its kernel (result 1)", tol=T(f32=(1e-5, 2e-5)))
def _(rng):
    def f(x, w, g):
        _, vjp = jax.vjp(lambda x, w: _conv(x, w, strides=(2, 2), padding=((1, 0), (0, 1))), x, w)
        return vjp(g)
    return f, [normal(rng, (2, 7, 7, 3)), normal(rng, (3, 3, 3, 4)), normal(rng, (2, 3, 3, 4))]


@case("conv2d_grouped_grads",
      "input and kernel gradients of a grouped conv (kernel grad uses batch_group_count)",
      tol=T(f32=(1e-5, 2e-5)))
def _(rng):
    def f(x, w, g):
        _, vjp = jax.vjp(lambda x, w: _conv(x, w, groups=2), x, w)
        return vjp(g)
    return f, [normal(rng, (2, 5, 5, 4)), normal(rng, (3, 3, 2, 6)), normal(rng, (2, 5, 5, 6))]


@case("conv2d_bf16_f64", "conv2d in bf16 and in f64",
      tol=[T(bf16=(3e-2, 5e-2)), "compound"])
def _(rng):
    def f(x, w, xd, wd):
        return _conv(x, w), _conv(xd, wd, padding="VALID")
    return f, [normal(rng, (1, 5, 5, 2), bf16), normal(rng, (3, 3, 2, 3), bf16),
               normal(rng, (1, 5, 5, 2), np.float64), normal(rng, (3, 3, 2, 3), np.float64)]


# ---------------------------------------------------------------------------
# pooling
# ---------------------------------------------------------------------------

def _maxpool(x, k=2, s=2, pad="VALID"):
    return lax.reduce_window(x, -jnp.inf, lax.max, (1, k, k, 1), (1, s, s, 1), pad)


def _avgpool(x, k=2, s=2, pad="VALID"):
    return lax.reduce_window(x, 0.0, lax.add, (1, k, k, 1), (1, s, s, 1), pad) / (k * k)


@case("pool_max_avg",
      "max pooling via lax.reduce_window (2x2/2 VALID, 3x3/2 SAME, 1-D window over s32) and "
      "average pooling (2x2/2 VALID, 3x3/1 SAME with padding counted, window dilation)",
      tol=["exact", "exact", "exact", "compound", "compound", "compound"])
def _(rng):
    def f(x, i):
        return (_maxpool(x), _maxpool(x, 3, 2, "SAME"),
                lax.reduce_window(i, jnp.asarray(np.iinfo(np.int32).min, i.dtype), lax.max, (3,),
                                  (1,), "VALID"),
                _avgpool(x), _avgpool(x, 3, 1, "SAME"),
                lax.reduce_window(x, jnp.asarray(0.0, x.dtype), lax.add, (1, 2, 2, 1),
                                  (1, 1, 1, 1), "VALID", window_dilation=(1, 2, 2, 1)))
    return f, [normal(rng, (2, 6, 6, 3)), randint(rng, 10, -100, 100)]


@case("pool_max_avg_grad",
      "gradients of max pooling (select-and-scatter; 2x2/2 and overlapping 3x3/2 SAME) and "
      "of average pooling (pad + reduce_window; 2x2/2 and 3x3/1 SAME)",
      tol=["arith", "arith", "compound", "compound"])
def _(rng):
    def f(x, g1, g2, g3):
        _, v1 = jax.vjp(_maxpool, x)
        _, v2 = jax.vjp(lambda x: _maxpool(x, 3, 2, "SAME"), x)
        _, v3 = jax.vjp(_avgpool, x)
        _, v4 = jax.vjp(lambda x: _avgpool(x, 3, 1, "SAME"), x)
        return v1(g1)[0], v2(g2)[0], v3(g1)[0], v4(g3)[0]
    return f, [normal(rng, (2, 6, 6, 3)), normal(rng, (2, 3, 3, 3)), normal(rng, (2, 3, 3, 3)),
               normal(rng, (2, 6, 6, 3))]


# ---------------------------------------------------------------------------
# cumulative ops, sorting
# ---------------------------------------------------------------------------

@case("cumulative", "cumsum (both axes, reverse), cumprod, cummax, cummin, cumlogsumexp on "
      "f32; cumsum (wrapping), cummax, cumprod on s32 and cumsum of pred",
      tol=T(f32=(1e-5, 1e-5)))
def _(rng):
    def f(x, i, p):
        return (jnp.cumsum(x, 0), jnp.cumsum(x, 1), lax.cumsum(x, 1, reverse=True),
                jnp.cumprod(1 + 0.1 * x, 1), lax.cummax(x, 1), lax.cummin(x, 0),
                lax.cumlogsumexp(x, 1),
                jnp.cumsum(i, dtype=jnp.int32), lax.cummax(i, 0), jnp.cumsum(p, dtype=jnp.int32),
                jnp.cumprod(i[:6] % 5, dtype=jnp.int32))
    i = randint(rng, 20, -1000, 1000)
    i[3] = 2 ** 31 - 1
    return f, [normal(rng, (5, 16)), i, rng.random(20) < 0.5]


@case("sort_f32", "jnp.sort along each axis with NaN, +-Inf, -0.0 and duplicates (stable)",
      tol="exact")
def _(rng):
    def f(x, y):
        return jnp.sort(x), jnp.sort(y, axis=0), jnp.sort(y, axis=1), jnp.sort(x, descending=True)
    x = np.concatenate([arr([nan, inf, -inf, 0.0, -0.0, 1.0, 1.0, -nan, 1e-40], np.float32),
                        normal(rng, 15)])
    return f, [x, normal(rng, (4, 6))]


@case("sort_argsort", "jnp.argsort (stable, ties keep order) on f32 and s32, descending",
      tol="exact")
def _(rng):
    def f(x, i):
        return jnp.argsort(x), jnp.argsort(i, axis=1), jnp.argsort(i, axis=0, descending=True)
    x = np.round(normal(rng, 20), 0).astype(np.float32)
    return f, [x, randint(rng, (3, 8), 0, 4)]


@case("sort_by_key", "multi-operand lax.sort: sort values by key (num_keys=1) and by two keys",
      tol="exact")
def _(rng):
    def f(k, v, k2, k1):
        a = lax.sort((k, v), num_keys=1)
        b = lax.sort((k1, k2, v), num_keys=2)
        return a + b
    k = randint(rng, 16, 0, 5)
    return f, [k, normal(rng, 16), randint(rng, 16, 0, 4), randint(rng, 16, 0, 3)]


@case("sort_int_types", "jnp.sort of u8, s64, u32, pred, f64, bf16 arrays", tol="exact")
def _(rng):
    def f(a, b, c, d, e, g):
        return jnp.sort(a), jnp.sort(b), jnp.sort(c, descending=True), jnp.sort(d), jnp.sort(e), jnp.sort(g)
    b = np.array([2 ** 63 - 1, -2 ** 63, 0, -1, 1, 5, -5, 7], np.int64)
    c = np.array([2 ** 32 - 1, 0, 2 ** 31, 1, 3, 2 ** 31 - 1, 5, 4], np.uint32)
    e = arr([nan, -0.0, 0.0, inf, -inf, 1e-310, 3.0, -2.0], np.float64)
    return f, [randint(rng, 12, 0, 256, np.uint8), b, c, rng.random(9) < 0.5, e,
               normal(rng, 10, bf16)]


@case("sort_top_k", "lax.top_k over the last axis (k=3) on f32 and s32", tol="exact")
def _(rng):
    def f(x, i):
        return lax.top_k(x, 3) + lax.top_k(i, 2)
    x = normal(rng, (4, 10))
    i = rng.permuted(np.tile(np.arange(7, dtype=np.int32), (3, 1)), axis=1)
    return f, [x, i]


# ---------------------------------------------------------------------------
# gather / scatter, dynamic slices
# ---------------------------------------------------------------------------

@case("gather_take", "x[idx] with negative indices, x[:, idx], x[idx1, idx2], x[idx, 1:3], "
      "2-D index arrays, jnp.take_along_axis", tol="exact")
def _(rng):
    def f(x, idx, i1, i2, i2d, ia):
        return (x[idx], x[:, i1], x[i1, i2], x[idx, 1:3], x[i2d], x[i2d, i2d],
                jnp.take_along_axis(x, ia, axis=1))
    return f, [normal(rng, (10, 4)), arr([0, 3, -1, 9, 3, -10], np.int32),
               arr([2, 0, 3], np.int32), arr([1, 1, 0], np.int32), randint(rng, (2, 3), 0, 4),
               randint(rng, (10, 2), 0, 4)]


@case("gather_embedding", "embedding lookup: jnp.take(table[50,16], tokens[4,6], axis=0)",
      tol="exact")
def _(rng):
    def f(t, tok):
        return jnp.take(t, tok, axis=0)
    return f, [normal(rng, (50, 16)), randint(rng, (4, 6), 0, 50)]


@case("gather_modes",
      "out-of-bounds gathers: jnp.take mode='fill' (NaN), mode='clip', default indexing "
      "(clamped), .at[].get(mode='fill', fill_value=-1)", tol="exact")
def _(rng):
    def f(x, idx, i2):
        return (jnp.take(x, idx, mode="fill", fill_value=jnp.nan), jnp.take(x, idx, mode="clip"),
                x[idx], x.at[idx].get(mode="fill", fill_value=-1.0), i2[idx % 20])
    return f, [normal(rng, 8), arr([0, 7, 8, -1, -8, -9, 100, -100, 3], np.int32),
               randint(rng, 5, -5, 5)]


@case("scatter_add", ".at[idx].add with duplicate indices, 2-D updates and jax.ops.segment_sum",
      tol="arith")
def _(rng):
    def f(x, idx, v, m, v2, seg, data):
        return (x.at[idx].add(v), m.at[:, idx[:3]].add(v2),
                jax.ops.segment_sum(data, seg, num_segments=4))
    return f, [normal(rng, 8), arr([1, 3, 1, 7, 1, 0], np.int32), normal(rng, 6),
               normal(rng, (3, 8)), normal(rng, (3, 3)), arr([0, 0, 1, 3, 3, 3, 2], np.int32),
               normal(rng, (7, 2))]


@case("scatter_set", ".at[idx].set with unique indices (incl. negative), 2-D and scalar updates",
      tol="exact")
def _(rng):
    def f(x, idx, v, m, i, j, s):
        return x.at[idx].set(v), m.at[i, j].set(s), m.at[1].set(0.0), x.at[2:5].set(v[:3])
    return f, [normal(rng, 8), arr([1, 4, -1, 0], np.int32), normal(rng, 4), normal(rng, (3, 4)),
               arr([0, 2, 1], np.int32), arr([3, 0, 1], np.int32), normal(rng, 3)]


@case("scatter_min_max_mul", ".at[idx].min / max / mul with duplicate indices, f32 and s32",
      tol=["exact", "exact", "arith", "exact", "exact"])
def _(rng):
    def f(x, idx, v, i, vi):
        return (x.at[idx].min(v), x.at[idx].max(v), x.at[idx].multiply(v),
                i.at[idx].min(vi), i.at[idx].add(vi))
    return f, [normal(rng, 6), arr([0, 2, 2, 5, 0, 2], np.int32), normal(rng, 6),
               randint(rng, 6, -10, 10), randint(rng, 6, -10, 10)]


@case("scatter_oob",
      "out-of-bounds scatter indices (incl. negative ones jax does not wrap past -n): "
      ".at[].add with mode='drop' and by default (also drop), .at[].set/.add with "
      "mode='clip', .at[].set with mode='drop'", tol="arith")
def _(rng):
    def f(x, idx, v, ic, vc):
        return (x.at[idx].add(v, mode="drop"), x.at[idx].add(v), x.at[ic].set(vc, mode="clip"),
                x.at[ic].add(vc, mode="clip"), x.at[idx].set(v, mode="drop"))
    return f, [normal(rng, 6), arr([0, 6, -7, 100, 2], np.int32), normal(rng, 5),
               arr([-100, 100, 2], np.int32), normal(rng, 3)]


@case("dynamic_slice_update",
      "lax.dynamic_slice / dynamic_update_slice with runtime s32 starts: in range, starts XLA "
      "must clamp, negative starts (jax wraps them first); x[i] with a traced i",
      tol="exact")
def _(rng):
    def f(x, u, v, i0, j0, i1, j1, i2, j2, k):
        ds = lax.dynamic_slice
        dus = lax.dynamic_update_slice
        return (ds(x, (i0, j0), (3, 4)), ds(x, (i1, j1), (3, 4)), ds(x, (i2, j2), (2, 2)),
                x[k], lax.dynamic_slice_in_dim(x, k, 2, axis=1),
                dus(x, u, (i0, j0)), dus(x, u, (i1, j1)), dus(x, u, (i2, j2)),
                lax.dynamic_update_index_in_dim(x, v, k, 0))
    s = lambda v: np.array(v, np.int32)  # noqa: E731
    return f, [normal(rng, (6, 8)), normal(rng, (2, 3)), normal(rng, 8), s(1), s(2), s(5),
               s(100), s(-2), s(-100), s(4)]


# ---------------------------------------------------------------------------
# control flow
# ---------------------------------------------------------------------------

@case("control_fori_loop", "lax.fori_loop with a static trip count (a float carry) and with a "
      "runtime trip count (an s32 carry); both lower to while loops", tol="compound")
def _(rng):
    def f(x, n):
        a = lax.fori_loop(0, 10, lambda i, c: c * 0.9 + jnp.sin(c) * i.astype(jnp.float32) * 0.01, x)
        b = lax.fori_loop(0, n, lambda i, c: c + i, jnp.int32(0))
        return a, b
    return f, [normal(rng, 8), np.array(17, np.int32)]


@case("control_scan", "lax.scan RNN: h = tanh(W h + U x_t + b), returns final carry and all h",
      tol=T(f32=(2e-5, 2e-5)))
def _(rng):
    def f(w, u, b, xs, h0):
        def step(h, x):
            h = jnp.tanh(w @ h + u @ x + b)
            return h, h
        return lax.scan(step, h0, xs)
    return f, [normal(rng, (8, 8), scale=0.3), normal(rng, (8, 4), scale=0.3), normal(rng, 8),
               normal(rng, (6, 4)), np.zeros(8, np.float32)]


@case("control_while_loop",
      "lax.while_loop: Newton iterations for sqrt (float) and Collatz step count (int)",
      tol="compound")
def _(rng):
    def f(a, n):
        def cond(s):
            x, i = s
            return (jnp.max(jnp.abs(x * x - a)) > 1e-4 * jnp.max(a)) & (i < 50)

        def body(s):
            x, i = s
            return 0.5 * (x + a / x), i + 1
        r, _ = lax.while_loop(cond, body, (a, jnp.int32(0)))

        def c2(s):
            return s[0] != 1

        def b2(s):
            v, k = s
            return jnp.where(v % 2 == 0, v // 2, 3 * v + 1), k + 1
        _, steps = lax.while_loop(c2, b2, (n, jnp.int32(0)))
        return r, steps
    return f, [uniform(rng, 6, 1, 100), np.array(27, np.int32)]


@case("control_cond_switch",
      "lax.cond on a runtime predicate and on data (both branches taken); lax.switch with 3 "
      "branches on runtime indices (in range, and out of range which jax clamps)",
      tol="trans")
def _(rng):
    def f(p, x, y, i, j, k):
        a = lax.cond(p, lambda v: jnp.sin(v), lambda v: jnp.cos(v) * 2, x)
        b = lax.cond(jnp.sum(y) > 0, lambda v: v * 3, lambda v: -v, y)
        c = lax.cond(jnp.sum(y) < 0, lambda v: v * 3, lambda v: -v, y)
        br = [lambda v: v + 1, lambda v: jnp.exp(v), lambda v: v * v]
        return a, b, c, lax.switch(i, br, x), lax.switch(j, br, x), lax.switch(k, br, x)
    y = normal(rng, 5)
    y[0] += 10
    return f, [np.array(True), normal(rng, 5), y, np.array(1, np.int32), np.array(7, np.int32),
               np.array(-3, np.int32)]


@case("control_nested_jit", "nested jax.jit functions (calls), one called twice, plus lax.map",
      tol="trans")
def _(rng):
    @jax.jit
    def inner(v, s):
        return jnp.tanh(v) * s

    @jax.jit
    def middle(v):
        return inner(v, 2.0) + inner(v * 0.5, 3.0)

    def f(x):
        return middle(x), lax.map(lambda r: jnp.sum(inner(r, 1.0)), x.reshape(4, 3))
    return f, [normal(rng, 12)]


# ---------------------------------------------------------------------------
# random numbers (threefry; key passed as uint32[2])
# ---------------------------------------------------------------------------

_KEY = np.array([0, 42], np.uint32)  # == jax.random.key_data(jax.random.PRNGKey(42))


@case("random_normal_uniform",
      "threefry under jit with the key as a uint32[2] argument: split, jax.random.normal, "
      "uniform with bounds; the split key is returned too",
      tol=[T(f32=(1e-5, 1e-5)), "arith", "exact"])
def _(rng):
    def f(key):
        k1, k2 = jax.random.split(key)
        return (jax.random.normal(k1, (4, 8), dtype=jnp.float32),
                jax.random.uniform(k2, (3, 4), minval=-2.0, maxval=5.0, dtype=jnp.float32), k1)
    return f, [_KEY.copy()]


@case("random_bernoulli_permutation",
      "dropout-style masking with jax.random.bernoulli(p=0.8), jax.random.permutation of an "
      "array's rows (threefry key as uint32[2] argument)", tol=["arith", "exact"])
def _(rng):
    def f(key, x, r):
        k1, k2 = jax.random.split(key)
        keep = jax.random.bernoulli(k1, 0.8, x.shape)
        return jnp.where(keep, x / 0.8, 0.0), jax.random.permutation(k2, r)
    return f, [np.array([1, 2], np.uint32), normal(rng, (4, 8)), randint(rng, (12, 2), 0, 100)]


# ---------------------------------------------------------------------------
# linear algebra
# ---------------------------------------------------------------------------

def _spd(rng, n, dtype=np.float32):
    b = rng.standard_normal((n, n))
    return (b @ b.T + n * np.eye(n)).astype(dtype)


_LA_TOL = T(f32=(1e-4, 1e-5), f64=(1e-10, 1e-12))


@case("linalg_cholesky", "jnp.linalg.cholesky of SPD f32[6,6] and f64[5,5]", tol=_LA_TOL)
def _(rng):
    return (lambda a, b: (jnp.linalg.cholesky(a), jnp.linalg.cholesky(b))), [
        _spd(rng, 6), _spd(rng, 5, np.float64)]


@case("linalg_triangular_solve",
      "lax.linalg.triangular_solve: left/right side, lower/upper, transpose_a, unit diagonal",
      tol=_LA_TOL)
def _(rng):
    def f(l, b, bt):
        ts = lax.linalg.triangular_solve
        return (ts(l, b, left_side=True, lower=True),
                ts(l, b, left_side=True, lower=True, transpose_a=True),
                ts(l.T, bt, left_side=False, lower=False),
                ts(l, b, left_side=True, lower=True, unit_diagonal=True))
    l = (np.tril(rng.standard_normal((5, 5)) * 0.3) + 3 * np.eye(5)).astype(np.float32)
    return f, [l, normal(rng, (5, 3)), normal(rng, (3, 5))]


@case("linalg_solve_inv_det", "jnp.linalg.solve (LU with pivoting), inv, det and slogdet of "
      "well-conditioned matrices", tol=_LA_TOL)
def _(rng):
    def f(a, b, c):
        s, ld = jnp.linalg.slogdet(c)
        return jnp.linalg.solve(a, b), jnp.linalg.inv(c), jnp.linalg.det(c), s, ld
    a = (rng.standard_normal((6, 6)) + 6 * np.eye(6)).astype(np.float32)
    c = (rng.standard_normal((5, 5)) + 4 * np.eye(5)).astype(np.float32)
    return f, [a, normal(rng, (6, 2)), c]


@case("linalg_qr",
      "jnp.linalg.qr; outputs are unique: Q@R, |R| and Q^T Q (signs of Q/R columns are not)",
      tol=_LA_TOL)
def _(rng):
    def f(a):
        q, r = jnp.linalg.qr(a)
        return q @ r, jnp.abs(r), q.T @ q
    return f, [normal(rng, (6, 4))]


@case("linalg_eigh",
      "jnp.linalg.eigh; outputs are unique: eigenvalues (ascending) and V diag(w) V^T",
      tol=_LA_TOL)
def _(rng):
    def f(a):
        w, v = jnp.linalg.eigh(a)
        return w, (v * w) @ v.T
    b = rng.standard_normal((6, 6))
    a = ((b + b.T) / 2 + np.diag(np.arange(6) * 2.0)).astype(np.float32)
    return f, [a]


@case("linalg_svd",
      "jnp.linalg.svd; outputs are unique: singular values and U diag(s) V^T, plus compute_uv=False",
      tol=_LA_TOL)
def _(rng):
    def f(a):
        u, s, vt = jnp.linalg.svd(a, full_matrices=False)
        return s, (u * s) @ vt, jnp.linalg.svd(a, compute_uv=False)
    return f, [normal(rng, (6, 4))]


# ---------------------------------------------------------------------------
# transformations
# ---------------------------------------------------------------------------

@case("transform_vmap", "jax.vmap of a per-example function (matvec, tanh, sum) with in_axes=(0, None)",
      tol="compound")
def _(rng):
    def per_example(x, w):
        return jnp.sum(jnp.tanh(w @ x)) + x[0]

    def f(xs, w):
        return jax.vmap(per_example, in_axes=(0, None))(xs, w)
    return f, [normal(rng, (8, 5)), normal(rng, (3, 5))]


@case("transform_grad", "jax.value_and_grad of a scalar function of two arguments",
      tol="compound")
def _(rng):
    def loss(x, y):
        return jnp.sum(jnp.sin(x) * jnp.log1p(y * y) / (1.0 + x * x))

    def f(x, y):
        return jax.value_and_grad(loss, argnums=(0, 1))(x, y)
    return f, [normal(rng, 10), normal(rng, 10)]


@case("transform_hessian", "jax.hessian of the Rosenbrock function and of sum(tanh(A x)^2)",
      tol="compound")
def _(rng):
    def rosen(x):
        return jnp.sum(100.0 * (x[1:] - x[:-1] ** 2) ** 2 + (1 - x[:-1]) ** 2)

    def g(x, a):
        return jnp.sum(jnp.tanh(a @ x) ** 2)

    def f(x, a):
        return jax.hessian(rosen)(x), jax.hessian(g)(x, a)
    return f, [normal(rng, 5), normal(rng, (3, 5), scale=0.5)]


@case("transform_checkpoint", "jax.grad through jax.checkpoint (rematerialisation, optimization barrier)",
      tol="compound")
def _(rng):
    @jax.checkpoint
    def block(x, w):
        return jnp.tanh(x @ w) * jnp.sin(x @ w)

    def loss(x, w1, w2):
        return jnp.sum(block(block(x, w1), w2) ** 2)

    def f(x, w1, w2):
        return jax.grad(loss, argnums=(1, 2))(x, w1, w2)
    return f, [normal(rng, (4, 6)), normal(rng, (6, 6), scale=0.4), normal(rng, (6, 6), scale=0.4)]


@case("transform_jvp", "jax.jvp and jax.linearize of an elementwise/matmul function",
      tol="compound")
def _(rng):
    def g(x):
        return jnp.exp(-x * x) @ jnp.ones((6, 3), jnp.float32) + jnp.cos(x[:, :3])

    def f(x, t):
        y, dy = jax.jvp(g, (x,), (t,))
        _, lin = jax.linearize(g, x)
        return y, dy, lin(2.0 * t)
    return f, [normal(rng, (4, 6)), normal(rng, (4, 6))]


# ---------------------------------------------------------------------------
# models
# ---------------------------------------------------------------------------

def _init(rng, shapes, scale=None):
    out = []
    for s in shapes:
        if len(s) == 1:
            out.append(normal(rng, s, scale=0.1))
        else:
            fan_in = int(np.prod(s[:-1]))
            out.append(normal(rng, s, scale=(scale or 1.0) / np.sqrt(fan_in)))
    return out


def _mlp(params, x):
    w1, b1, w2, b2, w3, b3 = params
    h = jax.nn.relu(x @ w1 + b1)
    h = jax.nn.gelu(h @ w2 + b2)
    return h @ w3 + b3


_MLP_SHAPES = [(32, 64), (64,), (64, 32), (32,), (32, 10), (10,)]


@case("model_mlp_forward", "MLP forward: 32 -> 64 (relu) -> 32 (gelu) -> 10, softmax; batch 8",
      tol="model", buffer_assignment=True)
def _(rng):
    def f(params, x):
        return jax.nn.softmax(_mlp(params, x))
    return f, [_init(rng, _MLP_SHAPES), normal(rng, (8, 32))]


@case("model_mlp_train_step",
      "MLP training step: softmax cross-entropy loss, grads, SGD update (lr 0.1); "
      "returns loss and new params", tol="model", buffer_assignment=True)
def _(rng):
    def loss_fn(params, x, y):
        logits = _mlp(params, x)
        return -jnp.mean(jnp.take_along_axis(jax.nn.log_softmax(logits), y[:, None], axis=1))

    def f(params, x, y):
        loss, g = jax.value_and_grad(loss_fn)(params, x, y)
        return loss, [p - 0.1 * gp for p, gp in zip(params, g)]
    return f, [_init(rng, _MLP_SHAPES), normal(rng, (8, 32)), randint(rng, 8, 0, 10)]


def _cnn(params, x):
    w1, b1, w2, b2, wd, bd = params
    h = jax.nn.relu(_conv(x, w1) + b1)
    h = _maxpool(h)
    h = jax.nn.relu(_conv(h, w2, strides=(2, 2)) + b2)
    h = jnp.mean(h, axis=(1, 2))
    return h @ wd + bd


@case("model_cnn_train_step",
      "small CNN training step: conv3x3(1->4)+relu, maxpool 2x2, conv3x3/2(4->8)+relu, "
      "global avg pool, dense 8->10, cross-entropy, SGD; batch 8 of 12x12x1",
      tol="model", buffer_assignment=True)
def _(rng):
    def loss_fn(params, x, y):
        logits = _cnn(params, x)
        return -jnp.mean(jnp.sum(jax.nn.one_hot(y, 10, dtype=jnp.float32) *
                                 jax.nn.log_softmax(logits), axis=-1))

    def f(params, x, y):
        loss, g = jax.value_and_grad(loss_fn)(params, x, y)
        return loss, [p - 0.05 * gp for p, gp in zip(params, g)]
    params = _init(rng, [(3, 3, 1, 4), (4,), (3, 3, 4, 8), (8,), (8, 10), (10,)])
    return f, [params, normal(rng, (8, 12, 12, 1)), randint(rng, 8, 0, 10)]


_D, _H, _F, _S, _B = 32, 4, 64, 8, 2


def _layer_norm(x, g, b):
    mu = jnp.mean(x, -1, keepdims=True)
    var = jnp.mean((x - mu) ** 2, -1, keepdims=True)
    return (x - mu) * lax.rsqrt(var + 1e-5) * g + b


def _transformer_block(p, x):
    g1, b1, wq, wk, wv, wo, g2, b2, w1, c1, w2, c2 = p
    B, S, D = x.shape
    hd = D // _H
    h = _layer_norm(x, g1, b1)
    q = (h @ wq).reshape(B, S, _H, hd)
    k = (h @ wk).reshape(B, S, _H, hd)
    v = (h @ wv).reshape(B, S, _H, hd)
    s = jnp.einsum("bqhd,bkhd->bhqk", q, k) / np.sqrt(hd).astype(np.float32)
    mask = jnp.tril(jnp.ones((S, S), jnp.bool_))
    s = jnp.where(mask, s, -1e9)
    a = jax.nn.softmax(s, axis=-1)
    o = jnp.einsum("bhqk,bkhd->bqhd", a, v).reshape(B, S, D)
    x = x + o @ wo
    h = _layer_norm(x, g2, b2)
    return x + jax.nn.gelu(h @ w1 + c1) @ w2 + c2


def _transformer_params(rng):
    p = _init(rng, [(_D, _D)] * 4 + [(_D, _F), (_F,), (_F, _D), (_D,)])
    ones = np.ones(_D, np.float32)
    zeros = np.zeros(_D, np.float32)
    return [ones + normal(rng, _D, scale=0.1), zeros + normal(rng, _D, scale=0.1)] + p[:4] + \
        [ones + normal(rng, _D, scale=0.1), zeros + normal(rng, _D, scale=0.1)] + p[4:]


@case("model_transformer_fwd",
      "pre-LN transformer block forward: 4-head causal self-attention, layer norm, GELU MLP; "
      "batch 2, seq 8, d_model 32, ffn 64", tol="model", buffer_assignment=True)
def _(rng):
    return _transformer_block, [_transformer_params(rng), normal(rng, (_B, _S, _D))]


@case("model_transformer_grad",
      "gradient of a loss (mean square of the block's output) w.r.t. all transformer block "
      "params; returns loss and grads", tol="model", buffer_assignment=True)
def _(rng):
    def f(p, x):
        return jax.value_and_grad(lambda p: jnp.mean(_transformer_block(p, x) ** 2))(p)
    return f, [_transformer_params(rng), normal(rng, (_B, _S, _D))]


# ---------------------------------------------------------------------------
# FFT
# ---------------------------------------------------------------------------

_FFT_TOL = T(f32=(1e-5, 2e-5), c64=(1e-5, 2e-5), f64=(1e-12, 1e-12), c128=(1e-12, 1e-12))


@case("fft_fft_ifft", "jnp.fft.fft and ifft of c64[16], fft along axis 0 of c64[8,3], fft of "
      "c128[12] (not a power of two)", tol=_FFT_TOL)
def _(rng):
    def f(z, m, w):
        return jnp.fft.fft(z), jnp.fft.ifft(z), jnp.fft.fft(m, axis=0), jnp.fft.fft(w)
    z = (normal(rng, 16) + 1j * normal(rng, 16)).astype(np.complex64)
    m = (normal(rng, (8, 3)) + 1j * normal(rng, (8, 3))).astype(np.complex64)
    w = (normal(rng, 12, np.float64) + 1j * normal(rng, 12, np.float64)).astype(np.complex128)
    return f, [z, m, w]


@case("fft_rfft_irfft", "jnp.fft.rfft of f32[2,16] and f64[10], irfft back (n=16)", tol=_FFT_TOL)
def _(rng):
    def f(x, z, d):
        return jnp.fft.rfft(x), jnp.fft.irfft(z, n=16), jnp.fft.rfft(d)
    z = (normal(rng, (2, 9)) + 1j * normal(rng, (2, 9))).astype(np.complex64)
    z[:, 0] = z[:, 0].real
    z[:, 8] = z[:, 8].real
    return f, [normal(rng, (2, 16)), z, normal(rng, 10, np.float64)]


@case("fft_fft2", "jnp.fft.fft2 / ifft2 of c64[4,8] and rfft2 of f32[4,6]", tol=_FFT_TOL)
def _(rng):
    def f(z, x):
        return jnp.fft.fft2(z), jnp.fft.ifft2(z), jnp.fft.rfft2(x)
    z = (normal(rng, (4, 8)) + 1j * normal(rng, (4, 8))).astype(np.complex64)
    return f, [z, normal(rng, (4, 6))]


# ---------------------------------------------------------------------------
# generation
# ---------------------------------------------------------------------------

def entry_param_count(hlo_text):
    """Count distinct parameter(N) in the ENTRY computation of HLO text."""
    lines = hlo_text.splitlines()
    start = next(i for i, l in enumerate(lines) if l.startswith("ENTRY "))
    nums = set()
    for l in lines[start + 1:]:
        if l.startswith("}"):
            break
        m = re.search(r"\sparameter\((\d+)\)", l)
        if m:
            nums.add(int(m.group(1)))
    return len(nums)


# XLA:CPU runs with the x86 MXCSR bits FTZ and DAZ set: subnormal f32/f64
# inputs read as (signed) zero and subnormal results are flushed to zero.
# (f16 is computed in f32, where f16 subnormals are normal, so it keeps them;
# bf16 is computed in f32 and so is flushed.)  The widened reference rerun
# emulates that so that the self-check compares like with like.
_FLUSH_TINY = {"f32": np.finfo(np.float32).tiny, "bf16": np.finfo(np.float32).tiny,
               "c64": np.finfo(np.float32).tiny, "f64": np.finfo(np.float64).tiny,
               "c128": np.finfo(np.float64).tiny}


def flush_subnormals(a, name):
    tiny = _FLUSH_TINY.get(name)
    if tiny is None:
        return a
    a = np.array(a, copy=True)
    if np.iscomplexobj(a):
        re_, im_ = a.real.copy(), a.imag.copy()
        re_[np.abs(re_) < tiny] *= 0
        im_[np.abs(im_) < tiny] *= 0
        return (re_ + 1j * im_).astype(a.dtype)
    with np.errstate(invalid="ignore"):
        sub = np.abs(a.astype(np.float64)) < float(tiny)
    a[sub] = a[sub] * 0  # keeps the sign of zero
    return a


# The self-check demands XLA be within tolerance/MARGIN of the f64 reference.
MARGIN = float(os.environ.get("CXLA_CORPUS_MARGIN", "2"))


DENORMAL_NOTE = (
    "Some inputs are subnormal. XLA:CPU computes with the FTZ and DAZ bits set: arithmetic, "
    "comparisons and conversions read f32/f64/bf16 subnormals as zero and flush subnormal "
    "results to zero; pure bit operations (abs, negate, select, sort, copies, bitcast) keep "
    "them. f16 is computed in f32, where its subnormals are normal, so f16 keeps them.")


def has_flushable_subnormals(a):
    name = hlo_dtype(a.dtype)
    tiny = _FLUSH_TINY.get(name)
    if tiny is None or a.size == 0:
        return False
    parts = [a.real, a.imag] if np.iscomplexobj(a) else [a]
    for p in parts:
        v = np.abs(p.astype(np.float64))
        if np.any((v > 0) & (v < float(tiny))):
            return True
    return False


def widen(a, flush):
    a = np.asarray(a)
    name = hlo_dtype(a.dtype)
    if flush and name in ("bf16", "f32", "c64"):
        a = flush_subnormals(a, name)
    if name in ("f16", "bf16", "f32"):
        return a.astype(np.float64)
    if name == "c64":
        return a.astype(np.complex128)
    return a


def buffer_assignment(lowered, name):
    """Compile once more with dumping enabled; return (text or None, summary)."""
    tmp = tempfile.mkdtemp(prefix="cxla_corpus_dump_")
    try:
        compiled = lowered.compile(compiler_options={"xla_dump_to": tmp,
                                                     "xla_dump_hlo_as_text": True})
        summary = {}
        try:
            ma = compiled.memory_analysis()
            for k in ("argument_size_in_bytes", "output_size_in_bytes", "alias_size_in_bytes",
                      "temp_size_in_bytes"):
                if hasattr(ma, k):
                    summary[k] = int(getattr(ma, k))
        except Exception:  # noqa: BLE001 - optional information
            pass
        text = None
        files = sorted(glob.glob(os.path.join(
            tmp, "*jit_%s.cpu_after_optimizations-buffer-assignment.txt" % name)))
        if files:
            with open(files[-1]) as fh:
                text = fh.read()
            temp = [int(m.group(1)) for m in
                    re.finditer(r"^allocation \d+: size (\d+), preallocated-temp", text, re.M)]
            summary["preallocated_temp_bytes"] = sum(temp)
            summary["allocations"] = len(re.findall(r"^allocation \d+:", text, re.M))
        reports = sorted(glob.glob(os.path.join(
            tmp, "*jit_%s.cpu_after_optimizations-memory-usage-report.txt" % name)))
        if reports:
            with open(reports[-1]) as fh:
                lines = [l.strip() for l in fh if l.strip().startswith("Total bytes")]
            if lines:
                summary["memory_usage_report"] = lines
        return text, summary
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


def generate(c, out_root):
    rng = rng_for(c.name)
    fn, args = c.build(rng)
    args = tuple(args)
    leaves = jax.tree_util.tree_leaves(args)
    for a in leaves:
        assert isinstance(a, np.ndarray), (c.name, type(a))
        hlo_dtype(a.dtype)

    # The jit module is named after the case (HloModule jit_<case>); wraps()
    # keeps fn's signature so parameters carry the function's argument names.
    @functools.wraps(fn)
    def named(*a):
        return fn(*a)
    named.__name__ = named.__qualname__ = c.name

    jitted = jax.jit(named, keep_unused=True)
    lowered = jitted.lower(*args)
    module_text, mlir_text = lowered.as_text(dialect="hlo"), lowered.as_text()  # HLO, StableHLO
    compiled = lowered.compile()
    optimized_text = compiled.as_text()
    out = compiled(*args)
    results = [np.asarray(r) for r in jax.tree_util.tree_leaves(out)]

    n_params = entry_param_count(module_text)
    if n_params != len(leaves):
        raise RuntimeError("%s: %d entry parameters but %d args" % (c.name, n_params, len(leaves)))

    tol = c.tol
    if isinstance(tol, list):
        if len(tol) != len(results):
            raise RuntimeError("%s: %d tolerance specs for %d results" % (c.name, len(tol), len(results)))
        tols = [resolve_tol(t, hlo_dtype(r.dtype)) for t, r in zip(tol, results)]
    else:
        tols = [resolve_tol(tol, hlo_dtype(r.dtype)) for r in results]

    problems = []
    if c.ref and any(hlo_dtype(a.dtype) in ("f16", "bf16", "f32", "c64") for a in leaves):
        try:
            refs = [jax.tree_util.tree_leaves(jax.jit(fn)(
                *jax.tree_util.tree_map(functools.partial(widen, flush=fl), args)))
                for fl in (False, True)]
        except Exception as e:  # noqa: BLE001
            refs = None
            problems.append("widened reference run failed: %s: %s" % (type(e).__name__, e))
        if refs is not None and len(refs[0]) != len(results):
            problems.append("reference has %d results" % len(refs[0]))
        elif refs is not None:
            for i, (want, (rt, at)) in enumerate(zip(results, tols)):
                if i in c.ref_skip:
                    continue
                cands = []
                for ref in refs:
                    r = np.asarray(ref[i])
                    if r.shape != want.shape:
                        break
                    with np.errstate(over="ignore", invalid="ignore"):
                        r = r.astype(want.dtype)
                    # Bit operations (abs, neg, select, sort) keep subnormals
                    # under FTZ/DAZ; arithmetic flushes them: accept either.
                    cands += [r, flush_subnormals(r, hlo_dtype(want.dtype))]
                if len(cands) != 4:
                    problems.append("result %d: reference shape %s" % (i, r.shape))
                    continue
                ok, info = within(want, cands, rt / MARGIN, at / MARGIN)
                if not ok:
                    problems.append("result %d (%s, rtol=%g atol=%g): %s" % (
                        i, hlo_dtype(want.dtype), rt, at, info))

    ba_text, ba_summary = (None, None)
    if c.buffer_assignment:
        ba_text, ba_summary = buffer_assignment(lowered, c.name)

    final = os.path.join(out_root, c.name)
    tmp = final + ".tmp"
    shutil.rmtree(tmp, ignore_errors=True)
    os.makedirs(os.path.join(tmp, "args"))
    os.makedirs(os.path.join(tmp, "results"))
    meta = {"description": c.description, "source": SOURCE, "args": [], "results": []}
    targets = sorted(set(re.findall(r'custom_call_target="([^"]*)"',
                                    module_text + optimized_text)))
    if targets:
        meta["custom_call_targets"] = targets
    if any(has_flushable_subnormals(a) for a in leaves):
        meta["notes"] = DENORMAL_NOTE
    for i, a in enumerate(leaves):
        rel = "args/%d.npy" % i
        save_array(os.path.join(tmp, rel), a)
        meta["args"].append({"file": rel, "dtype": hlo_dtype(a.dtype), "shape": list(a.shape)})
    for i, (r, (rt, at)) in enumerate(zip(results, tols)):
        rel = "results/%d.npy" % i
        save_array(os.path.join(tmp, rel), r)
        meta["results"].append({"file": rel, "dtype": hlo_dtype(r.dtype), "shape": list(r.shape),
                                "rtol": rt, "atol": at})
    for fname, data in (("module.hlo", module_text), ("optimized.hlo", optimized_text), ("module.mlir", mlir_text),
                        ("module.mlirbc", jax.export.export(jitted)(*args).mlir_module_serialized)):  # VHLO
        with open(os.path.join(tmp, fname), "wb") as fh:  # (text files in UTF-8, as before)
            fh.write(data if isinstance(data, bytes) else data.encode("utf-8"))
    if c.buffer_assignment:
        if ba_text is not None and len(ba_text.encode()) <= 300 * 1024:
            with open(os.path.join(tmp, "xla_buffer_assignment.txt"), "w") as fh:
                fh.write(ba_text)
        elif ba_text is not None:
            ba_summary["note"] = "buffer assignment text (%d bytes) not stored: over 300KB" % len(
                ba_text.encode())
        meta["xla_buffer_assignment_summary"] = ba_summary
    with open(os.path.join(tmp, "case.json"), "w") as fh:
        json.dump(meta, fh, indent=2, sort_keys=True)
        fh.write("\n")
    shutil.rmtree(final, ignore_errors=True)
    os.rename(tmp, final)
    return problems


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--only", help="regex: generate only cases whose name matches (re.search)")
    ap.add_argument("--out", default=DEFAULT_OUT, help="output directory (default tests/corpus)")
    ap.add_argument("--list", action="store_true", help="list case names and exit")
    ap.add_argument("--strict", action="store_true",
                    help="exit non-zero when a tolerance self-check fails")
    opts = ap.parse_args(argv)

    names = sorted(CASES)
    if opts.only:
        names = [n for n in names if re.search(opts.only, n)]
    if opts.list:
        print("\n".join(names))
        return 0
    os.makedirs(opts.out, exist_ok=True)
    if not opts.only:
        # Remove case directories that no longer correspond to a case (the
        # TensorFlow cases, tf_*, belong to gen_tf.py).
        for d in sorted(os.listdir(opts.out)):
            p = os.path.join(opts.out, d)
            if (d not in CASES and not d.startswith("tf_") and
                    os.path.isfile(os.path.join(p, "case.json"))):
                print("removing stale case %s" % d)
                shutil.rmtree(p)

    all_problems = {}
    failed = []
    for n in names:
        try:
            probs = generate(CASES[n], opts.out)
        except Exception as e:  # noqa: BLE001 - report and continue
            failed.append(n)
            print("FAILED %s: %s: %s" % (n, type(e).__name__, e), file=sys.stderr)
            continue
        print("%-40s %s" % (n, "ok" if not probs else "TOLERANCE CHECK: %d issue(s)" % len(probs)))
        if probs:
            all_problems[n] = probs
    for n, probs in all_problems.items():
        for p in probs:
            print("  %s: %s" % (n, p))
    print("generated %d case(s), %d failed, %d with tolerance self-check issues (%s)"
          % (len(names) - len(failed), len(failed), len(all_problems), SOURCE))
    if failed or (opts.strict and all_problems):
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
