#!/usr/bin/env python3
"""Write the benchmark cases: real HLO from JAX, in the corpus's case format.

Usage (from the repository root, inside bench/.venv, see bench/README.md):

    python bench/gen.py                  # write every case under bench/cases/
    python bench/gen.py --only matmul    # only cases whose name matches a regex
    python bench/gen.py --quick          # only the cases of `make bench-quick`
    python bench/gen.py --list           # list the cases (name, group, description)

Each case is bench/cases/<case>/{module.hlo, optimized.hlo, case.json}, as in
tests/corpus/ (see tools/corpus/README.md) but WITHOUT args/ and results/:
the arguments are made at run time by bench/run.py from a seed, following
each argument's "gen" entry in case.json, and the results are never stored.

run.py imports this file to get the same JAX functions back (CASES, build
specs); it checks that lowering them again gives the module.hlo on disk, so
the two sides always run the same program.
"""

import os
import sys

# Before jax is imported: one host device, CPU only, f64 allowed (the f64
# matmul). Unlike the corpus we do NOT force single-threaded Eigen: the
# benchmark measures XLA:CPU as users get it.
os.environ.setdefault("XLA_FLAGS", "--xla_force_host_platform_device_count=1")
os.environ["JAX_PLATFORMS"] = "cpu"
os.environ["JAX_ENABLE_X64"] = "1"
os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "2")

import argparse
import functools
import hashlib
import json
import re
import shutil

import numpy as np
import ml_dtypes

import jax
import jax.numpy as jnp
from jax import lax
import jaxlib

jax.config.update("jax_enable_x64", True)
jax.config.update("jax_platforms", "cpu")
# Source paths in HLO metadata relative to the repository, so that the text
# does not depend on where the checkout is.
jax.config.update("jax_hlo_source_file_canonicalization_regex",
                  r"^.*/(?=bench/gen\.py$)")

HERE = os.path.dirname(os.path.abspath(__file__))
DEFAULT_OUT = os.path.join(HERE, "cases")
SOURCE = "jax %s / jaxlib %s" % (jax.__version__, jaxlib.__version__)

HLO_NAME = {
    "bool": "pred", "int8": "s8", "int16": "s16", "int32": "s32", "int64": "s64",
    "uint8": "u8", "uint16": "u16", "uint32": "u32", "uint64": "u64",
    "float16": "f16", "bfloat16": "bf16", "float32": "f32", "float64": "f64",
    "complex64": "c64", "complex128": "c128",
}
NP_DTYPE = {v: k for k, v in HLO_NAME.items()}


def hlo_dtype(dt):
    return HLO_NAME[np.dtype(dt).name]


def np_dtype(name):
    """numpy dtype for an HLO type name (bf16 through ml_dtypes)."""
    return np.dtype(ml_dtypes.bfloat16) if name == "bf16" else np.dtype(NP_DTYPE[name])


# ---------------------------------------------------------------------------
# argument specs: what run.py makes from the seed
# ---------------------------------------------------------------------------

class A:
    """One argument: shape, dtype and how run.py fills it.

    dist "normal": normal(0, scale); "randint": integers in [lo, hi);
    "key": a raw threefry key, two uint32 words."""

    def __init__(self, shape, dtype="f32", dist="normal", scale=1.0, lo=0, hi=0):
        self.shape = tuple(int(d) for d in shape)
        self.dtype = dtype
        self.dist = dist
        self.scale = float(scale)
        self.lo, self.hi = int(lo), int(hi)

    def gen(self):
        if self.dist == "normal":
            return {"dist": "normal", "scale": self.scale}
        if self.dist == "randint":
            return {"dist": "randint", "lo": self.lo, "hi": self.hi}
        return {"dist": self.dist}

    def struct(self):
        return jax.ShapeDtypeStruct(self.shape, np_dtype(self.dtype))


def make_arg(spec, rng):
    """The numpy array for one case.json argument spec, from rng (run.py)."""
    shape, dt, g = tuple(spec["shape"]), spec["dtype"], spec["gen"]
    if g["dist"] == "normal":
        x = rng.standard_normal(shape, dtype=np.float64 if dt == "f64" else np.float32)
        return np.asarray(x * np.asarray(g["scale"], x.dtype)).astype(np_dtype(dt))
    if g["dist"] == "randint":
        return rng.integers(g["lo"], g["hi"], size=shape, dtype=np.int64).astype(np_dtype(dt))
    if g["dist"] == "key":
        return rng.integers(0, 2**32, size=shape, dtype=np.uint64).astype(np.uint32)
    raise ValueError("unknown argument distribution %r" % g["dist"])


# ---------------------------------------------------------------------------
# registry
# ---------------------------------------------------------------------------

CASES = {}
GROUPS = ("classic", "memory", "compute", "model", "gather")


class Case:
    def __init__(self, name, group, description, build, quick):
        self.name, self.group, self.description = name, group, description
        self.build, self.quick = build, quick

    def spec(self):
        """(function, nested list of A) -- the function takes the args as given."""
        return self.build()


def case(name, group, description, quick=False):
    assert re.fullmatch(r"[a-z][a-z0-9_]*", name), name
    assert name not in CASES and group in GROUPS, name

    def deco(build):
        CASES[name] = Case(name, group, description, build, quick)
        return build
    return deco


M16 = 16 * 1024 * 1024
M1 = 1024 * 1024

# ---------------------------------------------------------------------------
# classic
# ---------------------------------------------------------------------------


@case("gelu_tanh_16m", "classic", "jax.nn.gelu(approximate=True) on f32[16M]")
def _():
    return (lambda x: jax.nn.gelu(x, approximate=True)), [A((M16,))]


@case("sin_sq_16m", "classic", "jnp.sin(x)**2 on f32[16M]")
def _():
    return (lambda x: jnp.sin(x) ** 2), [A((M16,))]


def _matmul(n, dt):
    return (lambda a, b: a @ b), [A((n, n), dt), A((n, n), dt)]


@case("matmul_f32_1024", "classic", "f32[1024,1024] @ f32[1024,1024]")
def _():
    return _matmul(1024, "f32")

# ---------------------------------------------------------------------------
# memory-bound
# ---------------------------------------------------------------------------


@case("chain6_16m", "memory",
      "6-op elementwise chain on f32[16M] x2: max((x*y + x)*0.5 - y, 0)**2 "
      "(mul, add, mul, sub, max, mul)")
def _():
    def f(x, y):
        t = (x * y + x) * 0.5 - y
        t = jnp.maximum(t, 0.0)
        return t * t
    return f, [A((M16,)), A((M16,))]


@case("softmax_4096", "memory", "jax.nn.softmax over the last axis of f32[4096,4096]")
def _():
    return (lambda x: jax.nn.softmax(x, axis=-1)), [A((4096, 4096))]


def _layer_norm(x, g, b, eps=1e-5):
    mu = jnp.mean(x, -1, keepdims=True)
    var = jnp.mean(jnp.square(x - mu), -1, keepdims=True)
    return (x - mu) * lax.rsqrt(var + eps) * g + b


@case("layernorm_4096", "memory", "layer norm (mean, variance, scale, shift) over rows of "
      "f32[4096,4096]")
def _():
    return _layer_norm, [A((4096, 4096)), A((4096,)), A((4096,))]


@case("reduce_rows_4096", "memory", "sum over axis 1 of f32[4096,4096] (one sum per row)")
def _():
    return (lambda x: jnp.sum(x, axis=1)), [A((4096, 4096))]


@case("reduce_cols_4096", "memory", "sum over axis 0 of f32[4096,4096] (one sum per column)")
def _():
    return (lambda x: jnp.sum(x, axis=0)), [A((4096, 4096))]


@case("transpose_4096", "memory", "transpose of f32[4096,4096]")
def _():
    return (lambda x: x.T), [A((4096, 4096))]


@case("cumsum_1m", "memory", "jnp.cumsum of f32[1M]; XLA:CPU gets it as a reduce-window "
      "whose window spans the whole array (quadratic work), a known XLA weakness")
def _():
    return jnp.cumsum, [A((M1,))]


@case("sort_1m", "memory", "jnp.sort of f32[1M]")
def _():
    return jnp.sort, [A((M1,))]


@case("random_normal_1m", "memory", "jax.random.normal(key, (1M,), f32) with the threefry "
      "PRNG; the key is a raw u32[2]")
def _():
    return (lambda k: jax.random.normal(k, (M1,), jnp.float32)), [A((2,), "u32", "key")]

# ---------------------------------------------------------------------------
# compute-bound
# ---------------------------------------------------------------------------


@case("matmul_f32_256", "compute", "f32[256,256] @ f32[256,256]", quick=True)
def _():
    return _matmul(256, "f32")


@case("matmul_f32_2048", "compute", "f32[2048,2048] @ f32[2048,2048]")
def _():
    return _matmul(2048, "f32")


@case("matmul_f64_1024", "compute", "f64[1024,1024] @ f64[1024,1024]")
def _():
    return _matmul(1024, "f64")


@case("matmul_bf16_1024", "compute", "bf16[1024,1024] @ bf16[1024,1024] -> bf16")
def _():
    return _matmul(1024, "bf16")


@case("matmul_s8_1024", "compute", "int8 x int8 -> int32 matmul: s8[1024,1024] @ "
      "s8[1024,1024], lax.dot with preferred_element_type=int32")
def _():
    return ((lambda a, b: lax.dot(a, b, preferred_element_type=jnp.int32)),
            [A((1024, 1024), "s8", "randint", lo=-128, hi=128)] * 2)


@case("matmul_bf16_f32acc_1024", "compute", "bf16[1024,1024] @ bf16[1024,1024] -> f32 "
      "(lax.dot with preferred_element_type=float32: f32 accumulation)")
def _():
    return ((lambda a, b: lax.dot(a, b, preferred_element_type=jnp.float32)),
            [A((1024, 1024), "bf16")] * 2)


@case("bmm_f32_32x256", "compute", "batched matmul f32[32,256,256] @ f32[32,256,256]")
def _():
    return jnp.matmul, [A((32, 256, 256)), A((32, 256, 256))]


_CONV_SCALE = 1.0 / np.sqrt(9 * 64)


def _conv(x, w, strides=(1, 1), dn=("NHWC", "HWIO", "NHWC"), groups=1):
    return lax.conv_general_dilated(x, w, strides, "SAME", dimension_numbers=dn,
                                    feature_group_count=groups)


@case("conv_resnet_nhwc", "compute", "ResNet stage conv: 3x3, 64->64 channels, SAME, "
      "batch 8 of 56x56, NHWC input, HWIO kernel")
def _():
    return _conv, [A((8, 56, 56, 64)), A((3, 3, 64, 64), scale=_CONV_SCALE)]


@case("conv_resnet_nchw", "compute", "the same conv as conv_resnet_nhwc in NCHW layout "
      "(OIHW kernel)")
def _():
    dn = ("NCHW", "OIHW", "NCHW")
    return (lambda x, w: _conv(x, w, dn=dn)), [A((8, 64, 56, 56)),
                                               A((64, 64, 3, 3), scale=_CONV_SCALE)]


@case("conv_depthwise", "compute", "depthwise 3x3 conv (feature_group_count=128), "
      "batch 8 of 56x56x128, NHWC")
def _():
    return (lambda x, w: _conv(x, w, groups=128)), [A((8, 56, 56, 128)),
                                                   A((3, 3, 1, 128), scale=1 / 3)]


@case("conv_transpose", "compute", "transposed conv = gradient of a stride-2 3x3 conv "
      "(64->128 channels) w.r.t. its input: f32[8,28,28,128] -> f32[8,56,56,64], NHWC")
def _():
    def f(g, w):
        return lax.conv_transpose(g, w, (2, 2), "SAME",
                                  dimension_numbers=("NHWC", "HWIO", "NHWC"),
                                  transpose_kernel=True)
    return f, [A((8, 28, 28, 128)), A((3, 3, 64, 128), scale=_CONV_SCALE)]


def _maxpool(x):
    return lax.reduce_window(x, -jnp.inf, lax.max, (1, 2, 2, 1), (1, 2, 2, 1), "VALID")


@case("maxpool", "compute", "2x2/2 max pooling of f32[8,112,112,64] (reduce-window max)")
def _():
    return _maxpool, [A((8, 112, 112, 64))]


@case("maxpool_grad", "compute", "gradient of 2x2/2 max pooling of f32[8,112,112,64] "
      "(select-and-scatter)")
def _():
    def f(x, g):
        return jax.vjp(_maxpool, x)[1](g)[0]
    return f, [A((8, 112, 112, 64)), A((8, 56, 56, 64))]

# ---------------------------------------------------------------------------
# models
# ---------------------------------------------------------------------------


def _dense_params(sizes):
    out = []
    for i, o in zip(sizes[:-1], sizes[1:]):
        out += [A((i, o), scale=1 / np.sqrt(i)), A((o,), scale=0.1)]
    return out


def _xent(logits, y, classes):
    return -jnp.mean(jnp.sum(jax.nn.one_hot(y, classes, dtype=logits.dtype) *
                             jax.nn.log_softmax(logits), axis=-1))


def _sgd_step(loss_fn, lr):
    def f(params, *data):
        loss, g = jax.value_and_grad(loss_fn)(params, *data)
        return loss, [p - lr * gp for p, gp in zip(params, g)]
    return f


@case("mlp_train_step", "model", "MLP training step 784-512-512-10 (relu), batch 256: "
      "softmax cross-entropy, grads, SGD; returns loss and new params", quick=True)
def _():
    def loss_fn(params, x, y):
        h = x
        for i in range(0, len(params) - 2, 2):
            h = jax.nn.relu(h @ params[i] + params[i + 1])
        return _xent(h @ params[-2] + params[-1], y, 10)
    return _sgd_step(loss_fn, 0.1), [_dense_params([784, 512, 512, 10]), A((256, 784)),
                                     A((256,), "s32", "randint", lo=0, hi=10)]


@case("cnn_train_step", "model", "small CNN training step, batch 32 of 28x28x1: conv3x3 "
      "1->16 + relu, maxpool, conv3x3 16->32 + relu, maxpool, dense 1568->10, "
      "cross-entropy, SGD")
def _():
    def loss_fn(params, x, y):
        w1, b1, w2, b2, wd, bd = params
        h = _maxpool(jax.nn.relu(_conv(x, w1) + b1))
        h = _maxpool(jax.nn.relu(_conv(h, w2) + b2))
        return _xent(h.reshape(h.shape[0], -1) @ wd + bd, y, 10)
    params = [A((3, 3, 1, 16), scale=1 / 3), A((16,), scale=0.1),
              A((3, 3, 16, 32), scale=1 / 12), A((32,), scale=0.1),
              A((1568, 10), scale=1 / np.sqrt(1568)), A((10,), scale=0.1)]
    return _sgd_step(loss_fn, 0.05), [params, A((32, 28, 28, 1)),
                                      A((32,), "s32", "randint", lo=0, hi=10)]


_TS, _TD, _TH, _TF = 256, 512, 8, 2048  # seq, width, heads, ffn


def _transformer_block(p, x):
    g1, b1, wq, wk, wv, wo, g2, b2, w1, c1, w2, c2 = p
    S, D = x.shape
    hd = D // _TH
    h = _layer_norm(x, g1, b1)
    q = (h @ wq).reshape(S, _TH, hd)
    k = (h @ wk).reshape(S, _TH, hd)
    v = (h @ wv).reshape(S, _TH, hd)
    s = jnp.einsum("qhd,khd->hqk", q, k) / np.float32(np.sqrt(hd))
    s = jnp.where(jnp.tril(jnp.ones((S, S), jnp.bool_)), s, -1e9)
    o = jnp.einsum("hqk,khd->qhd", jax.nn.softmax(s, axis=-1), v).reshape(S, D)
    x = x + o @ wo
    h = _layer_norm(x, g2, b2)
    return x + jax.nn.gelu(h @ w1 + c1) @ w2 + c2


def _transformer_params():
    D, F = _TD, _TF
    w = functools.partial(A, scale=1 / np.sqrt(D))
    return ([A((D,), scale=0.1), A((D,), scale=0.1), w((D, D)), w((D, D)), w((D, D)), w((D, D)),
             A((D,), scale=0.1), A((D,), scale=0.1), w((D, F)), A((F,), scale=0.1),
             A((F, D), scale=1 / np.sqrt(F)), A((D,), scale=0.1)])


@case("transformer_fwd", "model", "pre-LN transformer block forward: causal self-attention "
      "(seq 256, width 512, 8 heads), layer norms, GELU MLP 512->2048->512")
def _():
    return _transformer_block, [_transformer_params(), A((_TS, _TD))]


@case("transformer_fwd_bwd", "model", "the transformer block forward and backward: loss = "
      "mean square of its output; returns loss and the gradients of all parameters")
def _():
    def f(p, x):
        return jax.value_and_grad(lambda p: jnp.mean(_transformer_block(p, x) ** 2))(p)
    return f, [_transformer_params(), A((_TS, _TD))]


@case("rnn_scan_100", "model", "RNN as lax.scan over 100 steps of small ops: "
      "h = tanh(x_t Wx + h Wh + b), batch 8, input 16, hidden 32", quick=True)
def _():
    def f(xs, h0, wx, wh, b):
        def step(h, x):
            h = jnp.tanh(x @ wx + h @ wh + b)
            return h, jnp.sum(h)
        return lax.scan(step, h0, xs)
    return f, [A((100, 8, 16)), A((8, 32)), A((16, 32), scale=0.25), A((32, 32), scale=0.18),
               A((32,), scale=0.1)]


@case("tiny_scalar3", "model", "a tiny function of three scalar ops: sin(a*b + c) on f32 "
      "scalars (measures per-call overhead)", quick=True)
def _():
    return (lambda a, b, c: jnp.sin(a * b + c)), [A(()), A(()), A(())]


# Models users run (issue 12): ResNet-18 basic block, LSTM, GPT-2-small block,
# VAE training step, Adam update; the torch/numpy peers in bench/peers.py
# mirror these functions one by one.

_RB_N, _RB_HW, _RB_C = 32, 56, 64  # batch, spatial, channels of ResNet-18's first stage


def _batch_norm(x, g, b, eps=1e-5):
    mu = jnp.mean(x, (0, 1, 2))
    var = jnp.mean(jnp.square(x - mu), (0, 1, 2))
    return (x - mu) * lax.rsqrt(var + eps) * g + b


def _resnet_block(p, x):
    w1, g1, b1, w2, g2, b2 = p
    h = jax.nn.relu(_batch_norm(_conv(x, w1), g1, b1))
    h = _batch_norm(_conv(h, w2), g2, b2)
    return jax.nn.relu(h + x)


def _resnet_block_args():
    C = _RB_C
    return [[A((3, 3, C, C), scale=_CONV_SCALE), A((C,), scale=0.1),
             A((C,), scale=0.1), A((3, 3, C, C), scale=_CONV_SCALE),
             A((C,), scale=0.1), A((C,), scale=0.1)],
            A((_RB_N, _RB_HW, _RB_HW, C))]


@case("resnet_block_fwd", "model", "ResNet-18 basic block forward, batch 32 of 56x56x64 "
      "NHWC: conv3x3, batch norm (batch statistics), relu, conv3x3, batch norm, + input, relu")
def _():
    return _resnet_block, _resnet_block_args()


@case("resnet_block_fwd_bwd", "model", "the ResNet-18 basic block forward and backward: "
      "loss = mean square of its output; returns loss, the parameters' and the input's "
      "gradients")
def _():
    def f(p, x):
        return jax.value_and_grad(lambda p, x: jnp.mean(_resnet_block(p, x) ** 2),
                                  argnums=(0, 1))(p, x)
    return f, _resnet_block_args()


_LS_T, _LS_B, _LS_I, _LS_H = 256, 32, 128, 256  # steps, batch, input, hidden


@case("lstm_256", "model", "LSTM over 256 steps as lax.scan: batch 32, input 128, hidden "
      "256, gates i,f,g,o from one [x,h] @ W matmul; returns the outputs and the last state")
def _():
    def f(xs, h0, c0, wx, wh, b):
        def step(hc, x):
            h, c = hc
            z = x @ wx + h @ wh + b
            i, fg, g, o = jnp.split(z, 4, axis=-1)
            c = jax.nn.sigmoid(fg) * c + jax.nn.sigmoid(i) * jnp.tanh(g)
            h = jax.nn.sigmoid(o) * jnp.tanh(c)
            return (h, c), h
        (h, c), ys = lax.scan(step, (h0, c0), xs)
        return ys, h, c
    H = _LS_H
    return f, [A((_LS_T, _LS_B, _LS_I)), A((_LS_B, H)), A((_LS_B, H)),
               A((_LS_I, 4 * H), scale=1 / np.sqrt(_LS_I)), A((H, 4 * H), scale=1 / np.sqrt(H)),
               A((4 * H,), scale=0.1)]


_G2_S, _G2_D, _G2_H = 1024, 768, 12  # GPT-2 small: width 768, 12 heads, ffn 3072


def _gpt2_block(p, x):
    g1, b1, wqkv, bqkv, wo, bo, g2, b2, w1, c1, w2, c2 = p
    S, D = x.shape
    hd = D // _G2_H
    h = _layer_norm(x, g1, b1)
    q, k, v = jnp.split(h @ wqkv + bqkv, 3, axis=-1)
    q, k, v = (t.reshape(S, _G2_H, hd) for t in (q, k, v))
    s = jnp.einsum("qhd,khd->hqk", q, k) / np.float32(np.sqrt(hd))
    s = jnp.where(jnp.tril(jnp.ones((S, S), jnp.bool_)), s, -1e9)
    o = jnp.einsum("hqk,khd->qhd", jax.nn.softmax(s, axis=-1), v).reshape(S, D)
    x = x + o @ wo + bo
    h = _layer_norm(x, g2, b2)
    return x + jax.nn.gelu(h @ w1 + c1, approximate=True) @ w2 + c2


@case("gpt2_block_1024", "model", "GPT-2-small transformer block forward at sequence 1024: "
      "width 768, 12 heads, fused QKV projection, causal softmax attention, tanh-GELU MLP "
      "768->3072->768, pre-LN")
def _():
    D, F = _G2_D, 4 * _G2_D
    w = functools.partial(A, scale=1 / np.sqrt(D))
    v = functools.partial(A, scale=0.1)
    return _gpt2_block, [[v((D,)), v((D,)), w((D, 3 * D)), v((3 * D,)), w((D, D)), v((D,)),
                          v((D,)), v((D,)), w((D, F)), v((F,)), A((F, D), scale=1 / np.sqrt(F)),
                          v((D,))], A((_G2_S, D))]


_VAE = (784, 512, 32, 128)  # input, hidden, latent, batch


def _vae_loss(p, x, eps):
    we1, be1, wmu, bmu, wlv, blv, wd1, bd1, wd2, bd2 = p
    h = jax.nn.relu(x @ we1 + be1)
    mu, logvar = h @ wmu + bmu, h @ wlv + blv
    z = mu + jnp.exp(0.5 * logvar) * eps
    logits = jax.nn.relu(z @ wd1 + bd1) @ wd2 + bd2
    # Bernoulli likelihood (binary cross-entropy with logits) + KL to N(0, 1).
    rec = jnp.sum(jnp.maximum(logits, 0) - logits * x + jnp.log1p(jnp.exp(-jnp.abs(logits))),
                  axis=-1)
    kl = -0.5 * jnp.sum(1 + logvar - mu ** 2 - jnp.exp(logvar), axis=-1)
    return jnp.mean(rec + kl)


@case("vae_train_step", "model", "VAE training step, batch 128: encoder 784-512-(32 mean, "
      "32 log-variance), reparameterized sample (eps given), decoder 32-512-784, BCE-with-"
      "logits + KL loss, grads, SGD; returns loss and new params")
def _():
    I, H, Z, B = _VAE
    params = [A((I, H), scale=1 / np.sqrt(I)), A((H,), scale=0.1),
              A((H, Z), scale=1 / np.sqrt(H)), A((Z,), scale=0.1),
              A((H, Z), scale=0.1 / np.sqrt(H)), A((Z,), scale=0.1),
              A((Z, H), scale=1 / np.sqrt(Z)), A((H,), scale=0.1),
              A((H, I), scale=1 / np.sqrt(H)), A((I,), scale=0.1)]
    return _sgd_step(_vae_loss, 1e-3), [params, A((B, I), "f32", "randint", lo=0, hi=2),
                                        A((B, Z))]


_ADAM_N = 10 * 1000 * 1000


def _adam(p, g, m, v, t, lr=1e-3, b1=0.9, b2=0.999, eps=1e-8):
    m = b1 * m + (1 - b1) * g
    v = b2 * v + (1 - b2) * g * g
    mhat = m / (1 - b1 ** t)
    vhat = v / (1 - b2 ** t)
    return p - lr * mhat / (jnp.sqrt(vhat) + eps), m, v


@case("adam_10m", "memory", "Adam update over 10M f32 parameters: params, grads, first and "
      "second moments, step count t (f32 scalar); returns new params and moments")
def _():
    n = _ADAM_N
    return _adam, [A((n,)), A((n,)), A((n,), scale=0.1), A((n,), "f32", "randint", lo=0, hi=2),
                   A((), "f32", "randint", lo=1, hi=100)]


# ---------------------------------------------------------------------------
# gather / scatter
# ---------------------------------------------------------------------------

_VOCAB, _EMB, _NIDS = 32768, 512, 4096


@case("gather_embedding", "gather", "embedding lookup: table f32[32768,512], 4096 ids "
      "(jnp.take along axis 0)", quick=True)
def _():
    return (lambda t, ids: jnp.take(t, ids, axis=0)), [
        A((_VOCAB, _EMB)), A((_NIDS,), "s32", "randint", lo=0, hi=_VOCAB)]


@case("scatter_add_embedding", "gather", "the embedding lookup's gradient: scatter-add of "
      "f32[4096,512] rows into zeros f32[32768,512] at 4096 ids (repeats allowed)")
def _():
    def f(ids, g):
        return jnp.zeros((_VOCAB, _EMB), g.dtype).at[ids].add(g)
    return f, [A((_NIDS,), "s32", "randint", lo=0, hi=_VOCAB), A((_NIDS, _EMB))]


# ---------------------------------------------------------------------------
# lowering and writing
# ---------------------------------------------------------------------------

def lower(c):
    """(jitted function, flat arg specs, jax Lowered) for case c."""
    fn, args = c.spec()
    structs = jax.tree_util.tree_map(lambda a: a.struct(), args)

    # The module is named after the case (HloModule jit_<case>).
    @functools.wraps(fn)
    def named(*a):
        return fn(*a)
    named.__name__ = named.__qualname__ = c.name

    jitted = jax.jit(named, keep_unused=True)
    lowered = jitted.lower(*structs)
    return jitted, jax.tree_util.tree_leaves(args), lowered


def module_text(lowered):
    return lowered.as_text(dialect="hlo")


def sha256(text):
    return hashlib.sha256(text.encode()).hexdigest()


def write_case(c, out_root):
    _, flat, lowered = lower(c)
    text = module_text(lowered)
    compiled = lowered.compile()
    outs = jax.tree_util.tree_leaves(lowered.out_info)
    meta = {
        "name": c.name, "group": c.group, "description": c.description, "quick": c.quick,
        "source": SOURCE,
        "args": [{"dtype": a.dtype, "shape": list(a.shape), "gen": a.gen()} for a in flat],
        "results": [{"dtype": hlo_dtype(o.dtype), "shape": list(o.shape)} for o in outs],
        "module_sha256": sha256(text),
        "notes": "no args/ or results/: bench/run.py makes the arguments from a seed "
                 "(see 'gen') and compares cxla against XLA at run time",
    }
    final = os.path.join(out_root, c.name)
    tmp = final + ".tmp"
    shutil.rmtree(tmp, ignore_errors=True)
    os.makedirs(tmp)
    with open(os.path.join(tmp, "module.hlo"), "w") as fh:
        fh.write(text)
    with open(os.path.join(tmp, "optimized.hlo"), "w") as fh:
        fh.write(compiled.as_text())
    with open(os.path.join(tmp, "case.json"), "w") as fh:
        json.dump(meta, fh, indent=2, sort_keys=True)
        fh.write("\n")
    shutil.rmtree(final, ignore_errors=True)
    os.rename(tmp, final)


def select(only=None, quick=False, names=None):
    """The cases to use, in sorted order: by regex, quick flag or exact names."""
    if names:
        unknown = [n for n in names if n not in CASES]
        if unknown:
            raise SystemExit("unknown case(s): %s (see --list)" % ", ".join(unknown))
        return [CASES[n] for n in sorted(names)]
    out = []
    for name in sorted(CASES):
        if only and not re.search(only, name):
            continue
        if quick and not CASES[name].quick:
            continue
        out.append(CASES[name])
    return out


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--only", help="regex: only cases whose name matches (re.search)")
    ap.add_argument("--cases", help="comma-separated case names")
    ap.add_argument("--quick", action="store_true", help="only the quick cases")
    ap.add_argument("--out", default=DEFAULT_OUT, help="output directory (default bench/cases)")
    ap.add_argument("--list", action="store_true", help="list the cases and exit")
    o = ap.parse_args(argv)
    cases = select(o.only, o.quick, o.cases.split(",") if o.cases else None)
    if o.list:
        for c in cases:
            print("%-24s %-8s %s%s" % (c.name, c.group, c.description,
                                       " [quick]" if c.quick else ""))
        return 0
    os.makedirs(o.out, exist_ok=True)
    for c in cases:
        write_case(c, o.out)
        print("wrote %s" % os.path.join(os.path.relpath(o.out), c.name))
    return 0


if __name__ == "__main__":
    sys.exit(main())
