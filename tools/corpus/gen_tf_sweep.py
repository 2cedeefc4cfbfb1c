#!/usr/bin/env python3
"""TensorFlow programs for sweeps: many TF ops compiled by XLA, as cases.

TensorFlow lowers its ops to HLO through its own kernels (tf2xla), not
JAX's lowering, so its programs have idioms of their own (segment sums,
image resizes, stateless random ops, strided slices with masks,
space_to_batch, cumulative ops, TF's rounding and division rules). This
writes each function below, jit-compiled (tf.function(jit_compile=True)),
as a case directory in the corpus format through gen_tf.py's writer:
module.hlo (stage 'hlo'), optimized.hlo, case.json, args/, results/ (what
TensorFlow on XLA:CPU computes; no numpy self-check), for

    /tmp/tfvenv/bin/python tools/corpus/gen_tf_sweep.py --out /tmp/tfs
    build/cxla conform /tmp/tfs --which both --backend cpu     (and interp)

(tensorflow-cpu in a venv of its own: see gen_tf.py). --only REGEX picks
cases by name; --list lists them.

On 2026-12-07 (tensorflow-cpu 2.21, 139 cases, the second batch with
Keras layers, attention and its gradients, training steps, CTC, DCT/MFCC,
quantization): 138 agree on both backends from module.hlo and
optimized.hlo (the constants TensorFlow's HLO text elides, {...}, are
written out from the serialized module: gen_tf.expand_constants; Keras
layers' variables are saved as the parameters XLA takes after the
arguments, and the ones a training step assigns as the results XLA gives
after the function's). TensorFlow's
bilinear resize computes ceil((i + 0.5) * scale - 1.5), where XLA:CPU
contracts the multiply and the add into one FMA; cxla does as well
(src/ir/contract.h), which tfs_resize_v1_align_corners and
tfs_resize_upscale need. tfs_image_quality (ssim_multiscale of two
16 -> 48 resizes whose coordinates CSE shares) still differs: there
XLA:CPU's coordinates round once along one axis and twice along the other
(LLVM's choices inside a fusion XLA forms otherwise), which no rule over
the HLO reproduces.
"""
import os
import re
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import gen_tf as GT  # noqa: E402  (sets TensorFlow's environment first)
import numpy as np  # noqa: E402
import tensorflow as tf  # noqa: E402

GT.HLO_NAME.update({"float16": "f16", "bfloat16": "bf16", "complex128": "c128", "int8": "s8",
                    "int16": "s16", "uint8": "u8", "uint16": "u16", "uint32": "u32",
                    "uint64": "u64"})
for k in ("s8", "s16", "s32", "s64", "u8", "u16", "u32", "u64", "pred"):
    GT.TOL[k] = (0.0, 0.0)
GT.TOL.update({"f16": (5e-3, 5e-3), "bf16": (3e-2, 3e-2), "c128": (1e-10, 1e-11)})

F32, F64, I32 = np.float32, np.float64, np.int32
CASES = []


def rnd(seed, shape, dtype=F32, lo=None, hi=None):
    rs = np.random.RandomState(seed)
    if np.dtype(dtype).kind in "iu":
        return rs.randint(0 if lo is None else lo, 10 if hi is None else hi, size=shape).astype(dtype)
    if np.dtype(dtype).kind == "b":
        return rs.rand(*shape) < 0.5
    if lo is not None:
        return rs.uniform(lo, hi, size=shape).astype(dtype)
    a = rs.standard_normal(shape)
    if np.dtype(dtype).kind == "c":
        a = a + 1j * rs.standard_normal(shape)
    return a.astype(dtype)


def case(name, fn, *args):
    n = len(args)  # tf.function binds positional parameters: a wrapper of the arity
    w = {1: lambda a: fn(a), 2: lambda a, b: fn(a, b), 3: lambda a, b, c: fn(a, b, c),
         4: lambda a, b, c, d: fn(a, b, c, d)}[n]
    CASES.append(GT.Case("tfs_" + name, "TensorFlow sweep: " + name, w, list(args), None))


# ---- elementwise -------------------------------------------------------------------
X = rnd(1, (4, 5))
P = rnd(2, (4, 5), lo=0.1, hi=3.0)
U = rnd(3, (4, 5), lo=-0.9, hi=0.9)
for nm in ("abs", "acos", "asin", "atan", "atanh", "ceil", "cos", "cosh", "erf", "erfc", "erfinv",
           "exp", "expm1", "floor", "reciprocal", "rint", "round", "sigmoid", "sign", "sin", "sinh",
           "softplus", "softsign", "square", "tan", "tanh", "log_sigmoid", "ndtri",
           "bessel_i0e", "bessel_i1e", "is_nan", "is_finite"):
    case("math_" + nm, getattr(tf.math, nm), U if nm in ("acos", "asin", "atanh", "erfinv") else
         (rnd(4, (4, 5), lo=0.05, hi=0.95) if nm == "ndtri" else X))
for nm in ("log", "log1p", "sqrt", "rsqrt", "lgamma", "digamma", "acosh", "asinh"):
    case("math_" + nm, getattr(tf.math, nm), P + (1.0 if nm == "acosh" else 0.0))
MATH2 = {"truncatediv": tf.truncatediv, "truncatemod": tf.truncatemod}
for nm in ("atan2", "floordiv", "floormod", "maximum", "minimum", "pow", "squared_difference",
           "truncatediv", "truncatemod", "xdivy", "xlogy", "xlog1py", "igamma", "igammac",
           "zeta", "nextafter", "divide_no_nan", "multiply_no_nan"):
    a, b = (P, rnd(5, (4, 5), lo=0.1, hi=3.0)) if nm in ("pow", "igamma", "igammac", "xlogy",
                                                          "xlog1py") else (X, rnd(5, (4, 5)))
    if nm == "zeta":
        a, b = P + 1.5, P
    case("math_" + nm, MATH2.get(nm) or getattr(tf.math, nm), a, b)
XI = rnd(6, (4, 5), I32, -20, 20)
YI = rnd(7, (4, 5), I32, 1, 7) * np.where(rnd(8, (4, 5), I32, 0, 2) > 0, 1, -1).astype(I32)
for nm in ("floordiv", "floormod", "truncatediv", "truncatemod", "maximum", "multiply"):
    case("int_" + nm, MATH2.get(nm) or getattr(tf.math, nm), XI, YI)
case("bitwise", lambda a, b: [tf.bitwise.bitwise_and(a, b), tf.bitwise.bitwise_or(a, b),
                              tf.bitwise.bitwise_xor(a, b), tf.bitwise.invert(a),
                              tf.bitwise.left_shift(a, b % 8), tf.bitwise.right_shift(a, b % 8)],
     XI, np.abs(YI))
case("betainc", tf.math.betainc, P, rnd(9, (4, 5), lo=0.5, hi=2.0), rnd(10, (4, 5), lo=0.0, hi=1.0))
case("clip_relu6_elu_selu_gelu", lambda x: [tf.clip_by_value(x, -0.5, 0.7), tf.nn.relu6(x * 4),
                                            tf.nn.elu(x), tf.nn.selu(x), tf.nn.gelu(x),
                                            tf.nn.gelu(x, approximate=True), tf.nn.leaky_relu(x),
                                            tf.nn.silu(x)], X)
case("f16_math", lambda x: [tf.exp(x), tf.tanh(x), x * x + 1, tf.math.rsqrt(tf.abs(x) + 1)],
     rnd(11, (3, 4), np.float16))
case("f64_math", lambda x: [tf.math.lgamma(tf.abs(x) + 0.5), tf.math.erf(x), tf.math.log1p(tf.abs(x))],
     rnd(12, (3, 4), F64))
case("complex_math", lambda z: [tf.math.abs(z), tf.math.angle(z), tf.math.conj(z), tf.exp(z),
                                tf.math.log(z), tf.sqrt(z), z * z, tf.math.real(z), tf.math.imag(z)],
     rnd(13, (3, 4), np.complex64))
case("casts", lambda x: [tf.cast(x * 100, tf.int32), tf.cast(x * 100, tf.uint8), tf.cast(x, tf.float16),
                         tf.cast(x, tf.bfloat16), tf.cast(x > 0, tf.float32), tf.cast(x * 1e3, tf.int8),
                         tf.bitcast(x, tf.int32)], X)

# ---- reductions and scans ------------------------------------------------------------
R = rnd(14, (3, 4, 5))
case("reduce_all_kinds", lambda x: [tf.reduce_sum(x, 1), tf.reduce_prod(x, [0, 2]), tf.reduce_max(x, -1),
                                    tf.reduce_min(x), tf.reduce_mean(x, 0), tf.reduce_logsumexp(x, 2),
                                    tf.math.reduce_std(x, 1), tf.math.reduce_variance(x, 0),
                                    tf.reduce_any(x > 1, 1),
                                    tf.reduce_all(x > -2, 0)], R)
case("argmax_argmin", lambda x: [tf.argmax(x, 1), tf.argmin(x, 2, output_type=tf.int32)], R)
case("cumulative", lambda x: [tf.cumsum(x, 1), tf.cumsum(x, 2, exclusive=True), tf.cumsum(x, 0, reverse=True),
                              tf.math.cumprod(x, 1), tf.math.cumprod(x, 2, exclusive=True, reverse=True),
                              tf.math.cumulative_logsumexp(x, 1)], R)
case("segment_ops", lambda x, i: [tf.math.unsorted_segment_sum(x, i, 4), tf.math.unsorted_segment_max(x, i, 4),
                                  tf.math.unsorted_segment_min(x, i, 4), tf.math.unsorted_segment_prod(x, i, 4),
                                  tf.math.unsorted_segment_mean(x, i, 4)],
     rnd(15, (6, 3)), rnd(16, (6,), I32, 0, 4))
case("moments_l2norm", lambda x: list(tf.nn.moments(x, [0, 1])) + [tf.nn.l2_normalize(x, -1),
                                                                     tf.linalg.global_norm([x])], R)

# ---- shapes and data movement --------------------------------------------------------
A = rnd(17, (4, 6, 5))
case("strided_slice", lambda x: [x[1:3, ::2, -1], x[..., 1:4], x[:, tf.newaxis, 2], x[::-1, ::-2],
                                 x[-3:, 4:0:-2, :], tf.strided_slice(x, [0, 1, 0], [4, 5, 5], [2, 2, 3])], A)
case("concat_stack_split_tile", lambda x: [tf.concat([x, x * 2], 1), tf.stack([x, -x], 2),
                                           *tf.split(x, [1, 2, 3], axis=1), tf.tile(x, [1, 2, 1]),
                                           *tf.unstack(x[:2], axis=0)], A)
case("pad_modes", lambda x: [tf.pad(x, [[1, 2], [0, 1], [2, 0]]), tf.pad(x, [[1, 1], [2, 2], [0, 0]], "REFLECT"),
                             tf.pad(x, [[1, 1], [2, 2], [0, 1]], "SYMMETRIC"),
                             tf.pad(x, [[0, 1], [1, 0], [0, 0]], constant_values=3.5)], A)
case("reverse_roll_transpose", lambda x: [tf.reverse(x, [0, 2]), tf.roll(x, shift=[2, -1], axis=[1, 2]),
                                          tf.transpose(x, [2, 0, 1]), tf.reshape(x, [-1, 10]),
                                          tf.expand_dims(x, 1), tf.squeeze(x[:, :1, :], 1),
                                          tf.broadcast_to(x[:1], [3, 6, 5])], A)
case("gather_kinds", lambda x, i: [tf.gather(x, i, axis=1), tf.gather(x, i % 4, axis=0),
                                   tf.gather(x, tf.reshape(i[:4], [4, 1]), batch_dims=1, axis=1),
                                   tf.gather_nd(x, tf.stack([i % 4, i % 6], -1)),
                                   tf.gather_nd(x, tf.reshape(i[:4] % 4, [2, 2, 1]))],
     A, rnd(18, (5,), I32, 0, 6))
case("scatter_kinds", lambda x, i, u: [tf.tensor_scatter_nd_update(x, i, u), tf.tensor_scatter_nd_add(x, i, u),
                                       tf.tensor_scatter_nd_max(x, i, u), tf.tensor_scatter_nd_min(x, i, u),
                                       tf.scatter_nd(i, u, [4, 6])],
     rnd(19, (4, 6)), np.array([[0, 1], [3, 5], [0, 1], [2, 2]], I32), rnd(20, (4,)))
case("one_hot_where_select", lambda x, i: [tf.one_hot(i, 7, on_value=2.0, off_value=-1.0),
                                           tf.where(x > 0, x, x * 0.1), tf.where(x > 0.5, 1.0, 0.0),
                                           tf.sequence_mask(i, 8)], X, rnd(21, (4, 5), I32, 0, 7))
case("range_linspace_eye_fill", lambda x: [tf.cast(tf.range(3, 20, 4), tf.float32) * x[0, 0],
                                           tf.linspace(0.0, 1.0, 7) + x[0, 0],
                                           tf.eye(4, 3) * x[0, 0], tf.fill([2, 3], x[0, 0]),
                                           tf.zeros_like(x) + tf.ones_like(x)], X)
case("sort_topk_search", lambda x, s: [tf.sort(x, -1), tf.sort(x, 0, direction="DESCENDING"),
                                       tf.argsort(x, -1, stable=True), *tf.math.top_k(x, 3),
                                       tf.searchsorted(s, x), tf.searchsorted(s, x, side="right")],
     rnd(22, (4, 8)), np.sort(rnd(23, (4, 5)), -1))
case("space_batch_depth", lambda x: [tf.nn.space_to_depth(x, 2), tf.nn.depth_to_space(tf.nn.space_to_depth(x, 2), 2),
                                     tf.space_to_batch_nd(x, [2, 2], [[0, 0], [1, 1]]),
                                     tf.batch_to_space(tf.space_to_batch_nd(x, [2, 2], [[0, 0], [0, 0]]), [2, 2], [[0, 0], [0, 0]])],
     rnd(24, (2, 4, 6, 3)))
case("matrix_diag_band", lambda x: [tf.linalg.band_part(x, 1, 0), tf.linalg.diag_part(x), tf.linalg.diag(x[:, 0]),
                                    tf.linalg.set_diag(x, x[:, :, 0]), tf.linalg.trace(x),
                                    tf.linalg.matrix_transpose(x), tf.linalg.diag(x[:, 0], k=1)],
     rnd(25, (2, 4, 4)))
case("reverse_sequence", lambda x, l: [tf.reverse_sequence(x, l, seq_axis=1, batch_axis=0)],
     rnd(26, (3, 5)), np.array([2, 5, 0], np.int64))
case("extract_patches", lambda x: [tf.image.extract_patches(x, [1, 3, 3, 1], [1, 2, 2, 1], [1, 1, 1, 1], "VALID"),
                                   tf.image.extract_patches(x, [1, 2, 2, 1], [1, 1, 1, 1], [1, 2, 2, 1], "SAME")],
     rnd(27, (2, 7, 7, 2)))

# ---- linear algebra ------------------------------------------------------------------
M = rnd(28, (3, 4))
case("matmul_kinds", lambda a, b, c: [tf.matmul(a, b), tf.matmul(a, a, transpose_b=True),
                                      tf.matmul(a, a, transpose_a=True), tf.einsum("ij,jk->ik", a, b),
                                      tf.einsum("bij,bkj->bik", c, c), tf.tensordot(a, b, 1),
                                      tf.linalg.matvec(a, b[:, 0]), tf.matmul(c, c, adjoint_b=True)],
     M, rnd(29, (4, 2)), rnd(30, (2, 3, 4)))
case("matmul_int_f64_c64", lambda a, b, c: [tf.matmul(a, a, transpose_b=True), tf.matmul(b, b, transpose_a=True),
                                            tf.matmul(c, c, adjoint_b=True)],
     rnd(31, (3, 4), I32, -5, 5), rnd(32, (3, 4), F64), rnd(33, (3, 4), np.complex64))
SPD = (lambda a: (a @ np.swapaxes(a, -1, -2) + 4 * np.eye(4)).astype(F32))(rnd(34, (2, 4, 4), F64))
case("cholesky_solves", lambda a, b: [tf.linalg.cholesky(a), tf.linalg.cholesky_solve(tf.linalg.cholesky(a), b),
                                      tf.linalg.triangular_solve(tf.linalg.band_part(a, -1, 0), b),
                                      tf.linalg.triangular_solve(tf.linalg.band_part(a, 0, -1), b, lower=False, adjoint=True)],
     SPD, rnd(35, (2, 4, 2)))
case("lu_inv_solve", lambda a, b: [tf.linalg.inv(a), tf.linalg.solve(a, b),
                                   tf.linalg.lstsq(a, b, fast=True)], SPD, rnd(36, (2, 4, 2)))
case("eigvalsh_svdvals", lambda a, b: [tf.linalg.eigvalsh(a), tf.linalg.svd(b, compute_uv=False),
                                       tf.linalg.norm(b)],
     SPD, rnd(37, (3, 5, 4)))

# ---- neural network ops ----------------------------------------------------------------
IMG = rnd(38, (2, 9, 9, 3))
case("conv2d_kinds", lambda x, k, d: [tf.nn.conv2d(x, k, 1, "SAME"), tf.nn.conv2d(x, k, [1, 2, 2, 1], "VALID"),
                                      tf.nn.conv2d(x, k, 1, "SAME", dilations=2),
                                      tf.nn.depthwise_conv2d(x, d, [1, 1, 1, 1], "SAME"),
                                      tf.nn.depthwise_conv2d(x, d, [1, 2, 2, 1], "VALID"),
                                      tf.nn.separable_conv2d(x, d, tf.ones([1, 1, 6, 4]), [1, 1, 1, 1], "SAME"),
                                      tf.nn.conv2d_transpose(x, tf.transpose(k, [0, 1, 3, 2])[..., :3, :],
                                                             [2, 18, 18, 3], 2, "SAME")],
     IMG, rnd(39, (3, 3, 3, 4)), rnd(40, (3, 3, 3, 2)))
case("conv1d_conv3d", lambda x, k, y, k3: [tf.nn.conv1d(x, k, 2, "SAME"), tf.nn.conv3d(y, k3, [1, 1, 2, 1, 1], "SAME")],
     rnd(41, (2, 10, 3)), rnd(42, (3, 3, 5)), rnd(43, (1, 4, 6, 5, 2)), rnd(44, (2, 3, 3, 2, 3)))
case("pooling", lambda x: [tf.nn.max_pool2d(x, 3, 2, "SAME"), tf.nn.avg_pool2d(x, 3, 2, "SAME"),
                           tf.nn.avg_pool2d(x, 2, 2, "VALID"), tf.nn.max_pool2d(x, [2, 3], [1, 2], "VALID"),
                           tf.nn.avg_pool1d(x[:, 0], 3, 1, "SAME"), tf.nn.pool(x, [2, 2], "MAX", strides=[2, 2], padding="SAME")],
     IMG)
case("pooling_grads", lambda x: tf.gradients(tf.reduce_sum(tf.nn.max_pool2d(x, 3, 2, "SAME") ** 2) +
                                             tf.reduce_sum(tf.nn.avg_pool2d(x, 3, 2, "SAME") ** 2), x), IMG)
case("softmax_losses", lambda x, l, p: [tf.nn.softmax(x), tf.nn.log_softmax(x, 0),
                                        tf.nn.sparse_softmax_cross_entropy_with_logits(l, x),
                                        tf.nn.softmax_cross_entropy_with_logits(p, x),
                                        tf.nn.sigmoid_cross_entropy_with_logits(p, x),
                                        tf.nn.weighted_cross_entropy_with_logits(p, x, 2.0)],
     X, rnd(45, (4,), I32, 0, 5), rnd(46, (4, 5), lo=0.0, hi=1.0))
case("batch_norm_lrn_bias", lambda x, m, v: [tf.nn.batch_normalization(x, m, v, 0.1, 1.5, 1e-3),
                                             tf.nn.local_response_normalization(x, 2, 1.0, 0.5, 0.75),
                                             tf.nn.bias_add(x, m)],
     IMG, rnd(47, (3,)), rnd(48, (3,), lo=0.5, hi=2.0))
case("in_top_k_and_ctc_free", lambda x, t: [tf.math.in_top_k(t, x, 2)], X, rnd(49, (4,), I32, 0, 5))
case("mlp_grad", lambda x, w1, w2: tf.gradients(tf.reduce_mean(tf.nn.relu(x @ w1) @ w2 ** 2), [w1, w2]),
     rnd(50, (8, 6)), rnd(51, (6, 5)), rnd(52, (5, 3)))
case("conv_grad", lambda x, k: tf.gradients(tf.reduce_sum(tf.nn.conv2d(x, k, [1, 2, 2, 1], "SAME") ** 2), [x, k]),
     IMG, rnd(53, (3, 3, 3, 4)))
case("lstm_cell_steps", lambda x, w, h0: tf.scan(lambda h, xt: tf.tanh(tf.concat([xt, h], -1) @ w), x, h0),
     rnd(54, (5, 2, 3)), rnd(55, (7, 4)) * 0.5, np.zeros((2, 4), F32))
case("while_loop", lambda x: tf.while_loop(lambda i, v: i < 5, lambda i, v: (i + 1, v * 0.9 + tf.sin(v)),
                                           (tf.constant(0), x))[1], X)
case("cond_case", lambda x: [tf.cond(tf.reduce_sum(x) > 0, lambda: x * 2, lambda: -x),
                             tf.switch_case(tf.cast(tf.reduce_sum(tf.abs(x)), tf.int32) % 3,
                                            [lambda: x, lambda: x + 1, lambda: x * x])], X)

# ---- images --------------------------------------------------------------------------
for method in ("bilinear", "nearest"):
    case("resize_" + method, lambda x, m=method: [tf.image.resize(x, [13, 6], method=m),
                                                  tf.image.resize(x, [4, 4], method=m)], IMG)
case("resize_v1_align_corners", lambda x: [tf.compat.v1.image.resize_bilinear(x, [13, 6], align_corners=True),
                                           tf.compat.v1.image.resize_nearest_neighbor(x, [13, 6], half_pixel_centers=True),
                                           tf.compat.v1.image.resize_bilinear(x, [5, 17], half_pixel_centers=True)], IMG)
case("image_color_flip", lambda x: [tf.image.rgb_to_hsv(tf.abs(x)), tf.image.hsv_to_rgb(tf.abs(x) % 1.0),
                                    tf.image.adjust_contrast(x, 1.7), tf.image.flip_left_right(x),
                                    tf.image.rot90(x, 3), tf.image.rgb_to_grayscale(x),
                                    tf.image.adjust_saturation(tf.abs(x), 0.5), tf.image.per_image_standardization(x)],
     IMG)
case("non_max_suppression_padded", lambda b, s: tf.image.non_max_suppression_padded(b, s, 4, pad_to_max_output_size=True)[0],
     np.sort(rnd(56, (8, 4), lo=0.0, hi=1.0).reshape(8, 2, 2), 1).reshape(8, 4), rnd(57, (8,), lo=0.0, hi=1.0))

# ---- random (stateless) and signal -----------------------------------------------------
case("stateless_random", lambda s: [tf.random.stateless_normal([3, 4], s), tf.random.stateless_uniform([5], s),
                                    tf.random.stateless_uniform([2, 3], s, minval=0, maxval=10, dtype=tf.int32),
                                    tf.random.stateless_truncated_normal([4], s),
                                    tf.random.stateless_normal([3], s, alg="threefry"),
                                    tf.random.stateless_uniform([3], s, alg="philox")],
     np.array([7, 11], np.int64))
case("stateless_dropout", lambda x, s: [tf.nn.experimental.stateless_dropout(x, 0.3, s)],
     X, np.array([3, 5], np.int64))
case("fft_kinds", lambda x, z: [tf.signal.fft(z), tf.signal.ifft2d(z), tf.signal.rfft(x), tf.signal.irfft(tf.signal.rfft(x)),
                                tf.signal.rfft2d(x), tf.signal.fft3d(tf.reshape(z, [2, 2, 5]))], rnd(58, (4, 8)),
     rnd(59, (4, 5), np.complex64))
case("stft_frame", lambda x: [tf.abs(tf.signal.stft(x, 16, 8, 16)), tf.signal.frame(x, 5, 3)], rnd(60, (2, 64)))


# ---- second batch (s34): Keras layers, more linear algebra, images, signal, gradients ----
tf.keras.utils.set_random_seed(0)
SEQ = rnd(61, (2, 7, 8))


def _keras(layer, *shape_args, **call_kwargs):
    """A Keras layer built once (its weights fixed by the seed above) and
    called inside the jit-compiled function."""
    lay = layer
    return lambda x: lay(x, **call_kwargs)


_mha = tf.keras.layers.MultiHeadAttention(num_heads=2, key_dim=4)
_mha(SEQ, SEQ)
case("keras_mha", lambda x: [_mha(x, x), _mha(x, x[:, :5], use_causal_mask=False)], SEQ)
_mha_c = tf.keras.layers.MultiHeadAttention(num_heads=2, key_dim=3, value_dim=5, dropout=0.0)
_mha_c(SEQ, SEQ)
case("keras_mha_causal", lambda x: _mha_c(x, x, use_causal_mask=True), SEQ)
_ln = tf.keras.layers.LayerNormalization(axis=-1, epsilon=1e-5)
_bn = tf.keras.layers.BatchNormalization(momentum=0.5)
_ln(SEQ)
_bn(SEQ)
case("keras_norms", lambda x: [_ln(x), _bn(x, training=False)], SEQ)
_gru = tf.keras.layers.Bidirectional(tf.keras.layers.GRU(5, return_sequences=True))
_lstm = tf.keras.layers.LSTM(4, return_state=True)
_rnn = tf.keras.layers.SimpleRNN(3, go_backwards=True)
_gru(SEQ)
_lstm(SEQ)
_rnn(SEQ)
case("keras_rnns", lambda x: [_gru(x), *_lstm(x), _rnn(x)], SEQ)
_ct = tf.keras.layers.Conv2DTranspose(4, 3, strides=2, padding="valid")
_ct2 = tf.keras.layers.Conv2DTranspose(2, (2, 3), strides=(2, 1), padding="same", output_padding=(1, 0))
_c3t = tf.keras.layers.Conv3DTranspose(2, 2, strides=2)
_ct(IMG)
_ct2(IMG)
_c3t(rnd(62, (1, 3, 4, 3, 2)))
case("keras_conv_transpose", lambda x, y: [_ct(x), _ct2(x), _c3t(y)], IMG, rnd(62, (1, 3, 4, 3, 2)))
_cc = tf.keras.layers.Conv1D(3, 3, padding="causal", dilation_rate=2)
_up = tf.keras.layers.UpSampling2D(2, interpolation="bilinear")
_emb = tf.keras.layers.Embedding(10, 4)
_prelu = tf.keras.layers.PReLU(alpha_initializer=tf.keras.initializers.Constant(0.3))
for _lay, _in in ((_cc, SEQ), (_up, IMG), (_emb, np.array([[1, 2]])), (_prelu, SEQ)):
    _lay(_in)
case("keras_misc", lambda x, img, ids: [_cc(x), _up(img), _emb(ids), tf.keras.layers.GlobalMaxPool1D()(x),
                                        tf.keras.layers.Cropping2D(((1, 2), (0, 3)))(img),
                                        tf.keras.layers.ZeroPadding2D(((1, 0), (2, 1)))(img),
                                        tf.keras.layers.AveragePooling3D(2)(img[None]), _prelu(x * -0.5)],
     SEQ, IMG, rnd(63, (2, 5), I32, 0, 10))
case("keras_attention_grad", lambda x: tf.gradients(tf.reduce_sum(_mha(x, x) ** 2) + tf.reduce_sum(_ln(x) * x),
                                                    [x] + _mha.trainable_variables), SEQ)

# training steps: the variables the step assigns come back after its results
_mlp = tf.keras.Sequential([tf.keras.layers.Dense(8, activation="relu"), tf.keras.layers.Dense(3)])
_mlp.build((None, 5))
_adam = tf.keras.optimizers.Adam(0.01)
_adam.build(_mlp.trainable_variables)


def _mlp_step(x, y):
    with tf.GradientTape() as tape:
        loss = tf.reduce_mean(tf.keras.losses.sparse_categorical_crossentropy(y, _mlp(x), from_logits=True))
    _adam.apply_gradients(zip(tape.gradient(loss, _mlp.trainable_variables), _mlp.trainable_variables))
    return loss


_cnn = tf.keras.Sequential([tf.keras.layers.Conv2D(4, 3, padding="same"), tf.keras.layers.BatchNormalization(),
                            tf.keras.layers.ReLU(), tf.keras.layers.GlobalAveragePooling2D(), tf.keras.layers.Dense(2)])
_cnn.build((None, 6, 6, 3))
_sgd = tf.keras.optimizers.SGD(0.05, momentum=0.9)
_sgd.build(_cnn.trainable_variables)


def _cnn_step(x, y):
    with tf.GradientTape() as tape:
        loss = tf.reduce_mean((_cnn(x, training=True) - y) ** 2)
    _sgd.apply_gradients(zip(tape.gradient(loss, _cnn.trainable_variables), _cnn.trainable_variables))
    return loss


case("keras_train_step_adam", _mlp_step, rnd(90, (16, 5)), rnd(91, (16,), I32, 0, 3))
case("keras_train_step_cnn_bn_sgd", _cnn_step, rnd(92, (4, 6, 6, 3)), rnd(93, (4, 2)))

# linear algebra, second batch
case("linalg_more", lambda a, b: [tf.linalg.expm(a * 0.3), tf.linalg.pinv(b), tf.linalg.matrix_rank(b),
                                  tf.linalg.norm(b, ord=1, axis=[-2, -1]), tf.linalg.norm(b, ord=np.inf, axis=[-2, -1]),
                                  tf.linalg.cross(b[..., :3], b[..., 1:4])],
     SPD, rnd(64, (3, 5, 4)))
case("linalg_qr_lu", lambda a, b: [*tf.linalg.qr(b), *tf.linalg.qr(b, full_matrices=True),
                                   tf.linalg.lstsq(b[0], b[1, :, :2], l2_regularizer=0.1)],
     SPD, rnd(65, (3, 5, 4)))
case("tridiagonal", lambda d, r: [tf.linalg.tridiagonal_solve(d, r, partial_pivoting=False),
                                  tf.linalg.tridiagonal_matmul(d, r)],
     (lambda d: d + np.array([0, 4, 0], F32)[:, None])(rnd(66, (3, 6))), rnd(67, (6, 2)))
case("einsum_kinds", lambda a, b, c: [tf.einsum("bij,bjk->bki", a, b), tf.einsum("ii->i", c), tf.einsum("ij->", c),
                                      tf.einsum("bij,bij->b", a, a), tf.einsum("i,j->ij", c[0], c[1]),
                                      tf.einsum("...ij,...jk->...ik", a, b), tf.einsum("bii->bi", a[:, :, :3])],
     rnd(68, (2, 3, 4)), rnd(69, (2, 4, 5)), rnd(70, (4, 4)))

# images, second batch
case("resize_upscale", lambda x: [tf.image.resize(x, [27, 18]), tf.image.resize(x, [27, 18], method="nearest"),
                                  tf.compat.v1.image.resize_bilinear(x, [18, 27], align_corners=True)], IMG)
case("image_more", lambda x: [tf.image.sobel_edges(x), *tf.image.image_gradients(x), tf.image.total_variation(x),
                                 tf.image.resize_with_pad(x, 12, 7), tf.image.central_crop(x, 0.5),
                                 tf.image.adjust_gamma(tf.abs(x), 0.7, 1.2), tf.image.adjust_hue(tf.abs(x) % 1.0, 0.2),
                                 tf.image.rgb_to_yiq(x), tf.image.yuv_to_rgb(tf.image.rgb_to_yuv(x))],
     IMG)
case("image_quality", lambda a, b: [tf.image.psnr(a, b, 1.0), tf.image.ssim(a, b, 1.0, filter_size=5),
                                    tf.image.ssim_multiscale(tf.image.resize(a, [48, 48]), tf.image.resize(b, [48, 48]),
                                                             1.0, power_factors=(0.5, 0.5), filter_size=3)],
     rnd(71, (2, 16, 16, 3), lo=0.0, hi=1.0), rnd(72, (2, 16, 16, 3), lo=0.0, hi=1.0))

# signal, second batch
case("signal_more", lambda x: [tf.signal.dct(x, 2), tf.signal.dct(x, 2, norm="ortho"), tf.signal.idct(x, 2, norm="ortho"),
                               tf.signal.dct(x, 3), tf.signal.dct(x, 1), tf.signal.overlap_and_add(tf.reshape(x, [2, 8, 8]), 4),
                               tf.signal.hann_window(9) + x[0, 0], tf.signal.hamming_window(8, periodic=False) + x[0, 0],
                               tf.signal.inverse_stft(tf.signal.stft(x, 16, 8, 16), 16, 8, 16)],
     rnd(73, (2, 64)))
case("mfcc", lambda x: tf.signal.mfccs_from_log_mel_spectrograms(tf.math.log(tf.tensordot(
    tf.abs(tf.signal.stft(x, 32, 16, 32)), tf.signal.linear_to_mel_weight_matrix(8, 17, 8000, 20.0, 4000.0), 1) + 1e-6))[..., :5],
     rnd(74, (2, 256)))

# neural network ops, second batch
case("nn_more", lambda x: [tf.nn.atrous_conv2d(x, tf.ones([3, 3, 3, 2]) * 0.1, 2, "SAME"),
                              tf.nn.atrous_conv2d_transpose(x, tf.ones([3, 3, 2, 3]) * 0.1, [2, 9, 9, 2], 2, "SAME"),
                              tf.nn.crelu(x), tf.nn.log_poisson_loss(tf.abs(x), x),
                              tf.nn.l2_loss(x)],
     IMG)
case("pool3d_conv3d_transpose", lambda x: [tf.nn.max_pool3d(x, 2, 1, "SAME"), tf.nn.avg_pool3d(x, [1, 2, 2], 2, "VALID"),
                                           tf.nn.conv3d_transpose(x, tf.ones([2, 2, 2, 3, 2]) * 0.1, [1, 8, 12, 10, 3],
                                                                  [1, 2, 2, 2, 1], "SAME")],
     rnd(43, (1, 4, 6, 5, 2)))
case("ctc_loss", lambda lg, lab: tf.nn.ctc_loss(lab, lg, label_length=[3, 2], logit_length=[6, 5],
                                                 logits_time_major=False, blank_index=0),
     rnd(76, (2, 6, 5)), np.array([[1, 2, 2], [3, 1, 0]], I32))
case("quantization", lambda x: [tf.quantization.fake_quant_with_min_max_args(x, -1.0, 1.5, num_bits=8),
                                tf.quantization.fake_quant_with_min_max_vars(x, -0.7, 2.0, num_bits=4, narrow_range=True),
                                tf.quantization.quantize_and_dequantize_v2(x, -1.0, 1.0, range_given=True),
                                tf.quantization.fake_quant_with_min_max_vars_per_channel(x, [-1.0] * 5, [1.0] * 5)],
     X)
I7 = rnd(77, (4, 5), I32, 0, 7)  # bincount's input: TensorFlow wants it a compile-time constant
case("math_more", lambda x, i=I7: [tf.math.polyval([1.0, -2.0, 0.5], x), tf.math.count_nonzero(x > 0.3, 1),
                                tf.math.bincount(i, minlength=7, maxlength=7), tf.math.bincount(i, weights=x, minlength=7,
                                                                                               maxlength=7),
                                tf.math.confusion_matrix(tf.reshape(i, [-1]) % 4, tf.reshape(i, [-1]) // 2, 4),
                                tf.math.unsorted_segment_sqrt_n(x, i[:, 0] % 3, 3),
                                tf.math.cumulative_logsumexp(x, 1, reverse=True),
                                tf.math.approx_max_k(x, 2)[0]], X)
case("grads_more", lambda x, k, d, idx: tf.gradients(
    tf.reduce_sum(tf.nn.conv2d_transpose(x, k, [2, 18, 18, 4], 2, "SAME") ** 2)
    + tf.reduce_sum(tf.nn.depthwise_conv2d(x, d, [1, 1, 1, 1], "SAME") ** 2)
    + tf.reduce_sum(tf.image.resize(x, [13, 6]) ** 2) + tf.reduce_sum(tf.gather(x, idx, axis=1) ** 3)
    + tf.reduce_sum(tf.math.top_k(tf.reshape(x, [2, -1]), 5)[0]) + tf.reduce_sum(tf.cumsum(x, 2) ** 2)
    + tf.reduce_sum(tf.math.unsorted_segment_max(tf.reshape(x, [-1, 3]), tf.range(162) % 7, 7))
    + tf.reduce_sum(tf.sort(x, 1) * tf.range(9.0)[:, None, None]), [x, k, d]),
     IMG, rnd(78, (3, 3, 4, 3)), rnd(79, (3, 3, 3, 2)), np.array([0, 8, 3, 3], I32))

def main(argv=None):
    return GT.sweep_main(CASES, __doc__, argv)


if __name__ == "__main__":
    sys.exit(main())
