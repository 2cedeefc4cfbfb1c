"""Shape-polymorphic cases: JAX programs exported with symbolic shapes.

jax.export(f)(ShapeDtypeStruct(symbolic_shape("b, 4"), ...)) writes a
StableHLO program whose types have "?" dimensions: the dimension variables
come from get_dimension_size, shapes that depend on them from dynamic ops
(dynamic_broadcast_in_dim, dynamic_iota, real_dynamic_slice, dynamic_gather,
dynamic_conv, custom_call @stablehlo.dynamic_top_k ...), and
custom_call @shape_assertion checks the arguments. Whoever runs it
specializes it to the arguments at hand (XLA after StableHLO's shape
refinement; cxla while importing, from the case's argument shapes). This
writes each program below as a case directory: module.mlirbc (the
artifact, exp.mlir_module_serialized), module.mlir (exp.mlir_module()),
case.json, args/ and results/ (what exp.call(*args) gives on XLA:CPU, the
program refined by JAX), for

    PYTHONPATH=<absl> bench/.venv/bin/python tools/corpus/gen_poly.py --out DIR
    build/cxla conform DIR --which mlirbc --backend cpu   (and mlir, interp)

There is no module.hlo (check.py does not apply). Each case is exported
once and run at the argument shapes listed with it (_0, _1 ... one case
directory per shape set), so one program is checked at several sizes.
tests/poly holds them all (regenerate with --out tests/poly; the b_ cases
there are JAX's own shape-polymorphic back-compat artifacts, from
gen_back_compat.py).

--harnesses writes instead JAX's primitive harnesses batched by jax.vmap
over a leading dimension of symbolic size b (vh_ cases), run at b = 3.
On 2026-12-06 (jax 0.10.2), 8 harnesses a group (823 cases): all agree on
both backends in both forms but 2 of the known classes (gen_harness.py):
approx_top_k on bf16 with ties, f32 Cholesky of an ill-conditioned 200 x
200 matrix.
"""
import argparse
import json
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import gen as G, gen_back_compat as GB  # noqa: E401,E402 (one line: line numbers are in the cases)
import numpy as np  # noqa: E402

jax = G.jax
jnp = jax.numpy
lax = jax.lax
from jax import export  # noqa: E402

# source locations relative to the repository, as gen.py's
jax.config.update("jax_hlo_source_file_canonicalization_regex",
                  r"^.*/(?=tools/corpus/gen(_harness|_poly)?\.py$)")

F32 = np.float32

CASES = []


def poly(name, specs, shapes, tol="compound", dtypes=None):
    """specs: the symbolic shape of each argument ("b, 4"); shapes: lists
    of concrete argument shapes to run at; dtypes: per argument (f32)."""

    def deco(fn):
        CASES.append((name, fn, specs, shapes, tol, dtypes or [F32] * len(specs)))
        return fn

    return deco


@poly("elementwise_reduce", ["b, 4"], [[(3, 4)], [(7, 4)]])
def _(x):
    return jnp.sum(jnp.sin(x) * 2.0, axis=0) + x.mean()


@poly("outer_broadcast", ["b", "4"], [[(3,), (4,)], [(5,), (4,)]])
def _(x, y):
    return x[:, None] * y[None, :] + 1.0


@poly("two_symbols_matmul", ["a, k", "k, b"], [[(3, 5), (5, 2)], [(4, 1), (1, 6)]])
def _(x, y):
    return jnp.tanh(x @ y)


@poly("reshape_flatten", ["b, 4"], [[(3, 4)], [(1, 4)]])
def _(x):
    return x.reshape(-1) * 2.0, x.reshape((x.shape[0] * 2, 2))


@poly("iota_arange", ["b, 3"], [[(4, 3)], [(9, 3)]])
def _(x):
    return jnp.arange(x.shape[0], dtype=F32)[:, None] * x


@poly("slices", ["b"], [[(8,)], [(5,)]], tol="exact")
def _(x):
    return x[1:], x[::2], x[: x.shape[0] - 1]


@poly("pad_concat", ["b, 2"], [[(3, 2)], [(6, 2)]], tol="exact")
def _(x):
    return jnp.pad(x, ((1, 2), (0, 1))), jnp.concatenate([x, 2 * x], axis=0)


@poly("gather_rows", ["4, b", "3"], [[(4, 5), (3,)], [(4, 2), (3,)]], tol="exact",
      dtypes=[F32, np.int32])
def _(x, i):
    return x[i], jnp.take(x, i % x.shape[1], axis=1)


@poly("top_k", ["4, b"], [[(4, 3)], [(4, 6)]], tol="exact")
def _(x):
    return lax.top_k(x, x.shape[1] - 1)


@poly("sort_cumsum_argmax", ["b, 3"], [[(5, 3)], [(2, 3)]])
def _(x):
    return jnp.sort(x, axis=0), jnp.cumsum(x, axis=0), jnp.argmax(x, axis=0)


@poly("softmax_layernorm", ["b, 16"], [[(3, 16)], [(8, 16)]])
def _(x):
    s = jax.nn.softmax(x, axis=-1)
    m = x.mean(-1, keepdims=True)
    v = ((x - m) ** 2).mean(-1, keepdims=True)
    return s, (x - m) / jnp.sqrt(v + 1e-5)


@poly("scan_rows", ["b, 4"], [[(6, 4)], [(1, 4)]])
def _(x):
    def step(c, r):
        c = jnp.tanh(c * 0.5 + r)
        return c, c.sum()

    return lax.scan(step, jnp.zeros(4, F32), x)


@poly("fori_loop_dim", ["b"], [[(3,)], [(7,)]])
def _(x):
    return lax.fori_loop(0, x.shape[0], lambda i, c: c * 0.5 + x[i], jnp.float32(0))


@poly("conv_same", ["n, 3, h, w"], [[(2, 3, 8, 8)], [(1, 3, 5, 7)]], tol="model")
def _(x):
    k = jnp.asarray(np.random.default_rng(0).normal(size=(4, 3, 3, 3)), F32)
    return lax.conv_general_dilated(x, k, (1, 1), "SAME")


@poly("conv_strided", ["n, 2, h, h"], [[(2, 2, 9, 9)], [(1, 2, 6, 6)]], tol="model")
def _(x):
    k = jnp.asarray(np.random.default_rng(1).normal(size=(3, 2, 3, 3)), F32)
    return lax.conv_general_dilated(x, k, (2, 2), "SAME")


@poly("mlp_batch", ["b, 8"], [[(5, 8)], [(32, 8)]], tol="model")
def _(x):
    r = np.random.default_rng(2)
    w1 = jnp.asarray(r.normal(size=(8, 16)) * 0.3, F32)
    w2 = jnp.asarray(r.normal(size=(16, 3)) * 0.3, F32)
    return jax.nn.relu(x @ w1 + 0.1) @ w2


@poly("grad_mlp", ["b, 4"], [[(6, 4)], [(2, 4)]], tol="model")
def _(x):
    w = jnp.asarray(np.random.default_rng(3).normal(size=(4, 2)), F32)
    return jax.grad(lambda w: jnp.sum(jnp.tanh(x @ w) ** 2))(w)


@poly("random_normal", ["b"], [[(5,)], [(3,)]], tol="model", dtypes=[np.uint32])
def _(x):
    key = jax.random.key_data(jax.random.key(0))
    return jax.random.normal(jax.random.wrap_key_data(key), (x.shape[0], 4)) + x[:, None]


@poly("divisible_reshape", ["2*b"], [[(6,)], [(10,)]])
def _(x):
    return x.reshape((2, -1)).sum(0)


@poly("where_max_broadcast", ["b, c"], [[(3, 4)], [(5, 2)]])
def _(x):
    return jnp.where(x > 0, x, 0.1 * x), jnp.maximum(x, x.max(axis=1, keepdims=True) * 0.5)


def make_args(rng, shapes, dtypes):
    out = []
    for sh, dt in zip(shapes, dtypes):
        if np.issubdtype(dt, np.integer):
            out.append(np.asarray(rng.integers(0, 4, size=sh), dt))
        else:
            out.append(np.asarray(rng.normal(size=sh), dt))
    return out


def write(case_dir, name, exp, args, results, tol):
    GB.write(case_dir, "jax.export with symbolic shapes: %s (%s)" % (
        name, "; ".join(str(a) for a in exp.in_avals)),
        {"inputs": args, "expected_outputs": results,
         "mlir_module_serialized": exp.mlir_module_serialized,
         "mlir_module_text": exp.mlir_module()},
        source="jax %s" % jax.__version__, tol=tol)


def vmap_harnesses(opts):
    """JAX's primitive harnesses (gen_harness.py's selection), each batched
    with jax.vmap over a new leading axis of symbolic size b, exported once
    and run at b = 3 (each batch element its own argument values)."""
    import zlib
    import gen_harness as GH
    from jax._src.internal_test_util import test_harnesses
    chosen = GH.select(test_harnesses.all_harnesses, opts.groups, opts.harness_names, opts.cap, 0.0)
    n = skipped = 0
    for name, h in chosen:
        seed = zlib.crc32(h.fullname.encode()) & 0x7FFFFFFF
        try:
            per = [[np.asarray(a) for a in h.dyn_args_maker(np.random.RandomState(seed + i))]
                   for i in range(3)]
            args = [np.stack([p[k] for p in per]) for k in range(len(per[0]))]
            scope = export.SymbolicScope()
            specs = [jax.ShapeDtypeStruct(export.symbolic_shape(
                ", ".join(["b"] + [str(d) for d in a.shape[1:]]), scope=scope), a.dtype) for a in args]
            exp = export.export(jax.jit(jax.vmap(h.dyn_fun)), platforms=["cpu"])(*specs)
            res = jax.tree_util.tree_leaves(exp.call(*args))
        except Exception as e:  # noqa: BLE001 - not batchable, or not exportable with b
            skipped += 1
            print("skipped %s: %s: %s" % (name, type(e).__name__, str(e)[:160]), file=sys.stderr)
            continue
        tol = "model" if GH.LOOSE.search(h.group_name) else "compound"
        write(os.path.join(opts.out, "v" + name), h.fullname, exp, args, res, tol)
        n += 1
    print("wrote %d case(s), %d skipped" % (n, skipped))
    return 0


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--out", required=True, help="output directory")
    ap.add_argument("--names", help="comma-separated case names (default: all)")
    ap.add_argument("--list", action="store_true", help="list the case names")
    ap.add_argument("--harnesses", action="store_true",
                    help="instead: JAX's primitive harnesses batched by jax.vmap over a symbolic "
                    "leading dimension (vh_ cases; --groups, --harness-names, --cap as gen_harness.py's)")
    ap.add_argument("--groups", default=r"^(?!(svd|eig|eigh|qr)$)")
    ap.add_argument("--harness-names")
    ap.add_argument("--cap", type=int, default=0)
    opts = ap.parse_args(argv)
    if opts.harnesses:
        return vmap_harnesses(opts)
    if opts.list:
        for c in CASES:
            print(c[0])
        return 0
    want = set(opts.names.split(",")) if opts.names else None
    n = 0
    for name, fn, specs, shape_sets, tol, dtypes in CASES:
        if want is not None and name not in want:
            continue
        scope = export.SymbolicScope()
        in_specs = [jax.ShapeDtypeStruct(export.symbolic_shape(s, scope=scope), dt)
                    for s, dt in zip(specs, dtypes)]
        exp = export.export(jax.jit(fn), platforms=["cpu"])(*in_specs)
        for k, shapes in enumerate(shape_sets):
            rng = np.random.default_rng(1000 + 17 * n + k)
            args = make_args(rng, shapes, dtypes)
            res = jax.tree_util.tree_leaves(exp.call(*args))
            write(os.path.join(opts.out, "p_%s_%d" % (name, k)), name, exp, args, res, tol)
            n += 1
    print("wrote %d case(s)" % n)
    return 0


if __name__ == "__main__":
    sys.exit(main())
