#!/usr/bin/env python3
"""Programs that are not in the corpus, for the StableHLO reader's tests:

    /opt/jaxvenv/bin/python tools/corpus/stablehlo_unseen.py tests/stablehlo/unseen

writes one case directory per program (case.json, args/, results/ as in the
corpus, module.mlir = lower().as_text(), module.hlo = as_text(dialect="hlo"),
module.mlirbc = the jax.export portable artifact); results are JAX's (XLA:CPU).
tests/run.sh runs `cxla conform` on them (--which mlir and module).
"""
import os, sys, json
os.environ["JAX_PLATFORMS"]="cpu"
os.environ["XLA_FLAGS"]="--xla_force_host_platform_device_count=1 --xla_cpu_multi_thread_eigen=false"
import numpy as np, jax, jax.numpy as jnp
from jax import lax
import jax.scipy.special as jss
jax.config.update("jax_enable_x64", True)
rng = np.random.default_rng(7)
f32 = lambda *s: rng.standard_normal(s).astype(np.float32)
pos = lambda *s: (rng.random(s) * 5 + 0.1).astype(np.float32)
cases = {
  "special_fns": (lambda x, p: (jss.gammaln(p), jss.digamma(p), jss.erfinv(jnp.tanh(x)), jss.erfc(x),
                                jnp.sinh(x), jnp.cosh(x), jnp.arctan(x), jnp.arcsinh(x), jnp.arccosh(p + 1),
                                jnp.tan(x * 0.5), jnp.isinf(x / (x - x)), jnp.nextafter(x, p)),
                  (f32(6), pos(6))),
  "special_zeta": (lambda x, p: (jss.polygamma(1, p), jss.zeta(p + 1, p), jss.i1e(x)), (f32(6), pos(6))),
  "special_f64": (lambda x, p: (jss.gammaln(p), jss.digamma(p), jss.erfinv(jnp.tanh(x)), jss.erfc(x), jss.erf(x),
                                jnp.nextafter(x, p)), (f32(6).astype(np.float64), pos(6).astype(np.float64))),
  "control_capture": (lambda x, k: lax.cond(k > 0, lambda: x * k, lambda: x - k) +
                      lax.fori_loop(0, 3, lambda i, v: v + x * i, jnp.zeros_like(x)),
                      (f32(5), np.float32(1.5))),
  "switch3": (lambda x, i: lax.switch(i, [lambda v: v + 1, lambda v: v * x, lambda v: jnp.sin(v)], x),
              (f32(4), np.int32(2))),
  "misc_ops": (lambda x, y: (jnp.argmax(x, axis=1), jnp.cumsum(x, axis=0), jnp.einsum("ij,kj->ik", x, y),
                             jnp.sort(x.ravel())[::2], lax.top_k(x.ravel(), 3)[0], jnp.linalg.norm(x),
                             jax.nn.gelu(x, approximate=False), jax.nn.logsumexp(y, axis=0),
                             jnp.clip(x, -0.5, 0.5).astype(jnp.bfloat16).astype(jnp.float32), jnp.roll(x, 1, axis=1)),
               (f32(3, 4), f32(5, 4))),
  "conv_pool": (lambda x, w: (lax.conv_general_dilated(x, w, (2, 1), "SAME", rhs_dilation=(1, 2)),
                              lax.reduce_window(x, -jnp.inf, lax.max, (1, 1, 2, 2), (1, 1, 2, 2), "VALID")),
                (f32(1, 2, 6, 6), f32(3, 2, 3, 3))),
  "grad_mlp": (lambda w, x: jax.grad(lambda w: jnp.sum(jnp.tanh(x @ w) ** 2))(w), (f32(4, 3), f32(2, 4))),
  "scatter_gather": (lambda x, i: (x.at[i].add(1.0), x[i[::-1]], jnp.take_along_axis(x, jnp.argsort(x, axis=0), axis=0)),
                     (f32(6, 2), np.array([0, 3, 3, 5], np.int32))),
  "special_zeta_f64": (lambda x, p: (jss.polygamma(1, p), jss.zeta(p + 1, p), jss.polygamma(0, p),
                                     jss.polygamma(2, p), jss.i1e(x * 4)), (f32(6).astype(np.float64), pos(6).astype(np.float64))),
  "composite": (lambda x: lax.composite(lambda x: jnp.sin(x) * 2, name="my.sinx2")(x), (f32(5),)),
  "rbg_bits": (lambda k: jax.random.bits(jax.random.key(0, impl="rbg"), (4,), jnp.uint32) + k, (np.uint32(1),)),
  "scan_xs": (lambda c, xs: lax.scan(lambda c, x: (c + x, c * x), c, xs), (f32(3), f32(4, 3))),
  "cond_multi": (lambda p, x: lax.cond(p > 0, lambda: (x + 1, x * 2), lambda: (x - 1, x / 2)),
                 (np.float32(1), f32(3))),
  "sharding_constraint": (lambda x: lax.with_sharding_constraint(
      x * 2, jax.sharding.SingleDeviceSharding(jax.devices()[0])), (f32(4),)),
  "approx_topk": (lambda x, y: (lax.approx_max_k(x, 3, reduction_dimension=1, aggregate_to_topk=True),
                                lax.approx_min_k(y, 2, reduction_dimension=0, recall_target=0.9,
                                                 aggregate_to_topk=False)),
                  (f32(2, 50), f32(300, 3))),
}
out = sys.argv[1]
for name, (f, args) in cases.items():
    d = os.path.join(out, name); os.makedirs(os.path.join(d, "args"), exist_ok=True); os.makedirs(os.path.join(d, "results"), exist_ok=True)
    j = jax.jit(f)
    lo = j.lower(*args)
    open(os.path.join(d, "module.mlir"), "w").write(lo.as_text())
    open(os.path.join(d, "module.hlo"), "w").write(lo.as_text(dialect="hlo"))
    open(os.path.join(d, "module.mlirbc"), "wb").write(jax.export.export(j)(*args).mlir_module_serialized)
    res = [np.asarray(r) for r in jax.tree_util.tree_leaves(j(*args))]
    meta = {"description": "unseen program " + name, "source": "jax %s" % jax.__version__, "args": [], "results": []}
    def dt(a):
        return {"float32": "f32", "float64": "f64", "int32": "s32", "int64": "s64", "bool": "pred",
                "bfloat16": "bf16", "uint32": "u32"}[a.dtype.name]
    for i, a in enumerate(args):
        a = np.asarray(a); np.save(os.path.join(d, "args/%d.npy" % i), a)
        meta["args"].append({"file": "args/%d.npy" % i, "dtype": dt(a), "shape": list(a.shape)})
    for i, r in enumerate(res):
        np.save(os.path.join(d, "results/%d.npy" % i), r)
        tol = {"f32": (2e-5, 2e-5), "f64": (1e-12, 1e-13)}.get(dt(r), (0.0, 0.0))
        meta["results"].append({"file": "results/%d.npy" % i, "dtype": dt(r), "shape": list(r.shape), "rtol": tol[0], "atol": tol[1]})
    json.dump(meta, open(os.path.join(d, "case.json"), "w"), indent=2, sort_keys=True)
    print(name, "ok")
