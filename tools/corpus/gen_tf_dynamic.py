#!/usr/bin/env python3
"""TensorFlow programs whose sizes depend on their data, as corpus cases.

TensorFlow's XLA bridge compiles tf.where, tf.boolean_mask and the ops
built on them to bounded dynamic shapes: the mask's true elements are
gathered into an s64[<=N,1] whose size set-dimension-size records; what
follows reads it back (get-dimension-size: tf.shape, tf.size, the count of
tf.reduce_mean) and XLA's dynamic padder keeps the padding from reaching
any result. A result of dynamic size comes back cut to its size (XLA's
optimized HLO hands it out through the custom call SliceToDynamic). cxla
runs them through its own dynamic padder (src/passes/dynamic_padder.c).

Each function below, jit-compiled, is written as a case directory through
gen_tf.py's writer (module.hlo, optimized.hlo, case.json, args/, results/:
what TensorFlow on XLA:CPU computes):

    /tmp/tfvenv/bin/python tools/corpus/gen_tf_dynamic.py --out tests/tf_dynamic
    build/cxla conform tests/tf_dynamic --which both --backend cpu     (and interp)

(tensorflow-cpu in a venv of its own: see gen_tf.py.) --only REGEX picks
cases by name; --list lists them. Every mask keeps some elements and drops
some, so that sizes differ from the bounds.
"""
import os
import re
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import gen_tf as GT  # noqa: E402  (sets TensorFlow's environment first)
import numpy as np  # noqa: E402
import tensorflow as tf  # noqa: E402

GT.HLO_NAME.update({"int8": "s8", "uint8": "u8"})
for k in ("s8", "u8", "s32", "s64", "pred"):
    GT.TOL[k] = (0.0, 0.0)

# The metadata's source_file and source_line point into TensorFlow's
# installation: dropped, as they make up a third of the text.
GT.canonical = lambda text: re.sub(r' source_file="[^"]*" source_line=[0-9]+', "", text)

F32, I32 = np.float32, np.int32
CASES = []


def rnd(seed, shape, dtype=F32):
    rs = np.random.RandomState(seed)
    if np.dtype(dtype).kind in "iu":
        return rs.randint(0, 10, size=shape).astype(dtype)
    return rs.standard_normal(shape).astype(dtype)


def case(name, fn, *args):
    n = len(args)
    w = {1: lambda a: fn(a), 2: lambda a, b: fn(a, b), 3: lambda a, b, c: fn(a, b, c)}[n]
    CASES.append(GT.Case("tfd_" + name, "TensorFlow, bounded dynamic shapes: " + name, w,
                         list(args), None))


X = rnd(1, (12,))
M = rnd(2, (6, 5))
T = rnd(3, (4, 5, 3))
K = rnd(4, (10,), I32)
W = rnd(5, (5, 3))
IMG = rnd(6, (1, 6, 6, 2))
pos = lambda x: x > 0  # noqa: E731

# ---- what a mask selects ------------------------------------------------------------
case("where_1d", lambda x: tf.where(x > 0), X)
case("where_2d", lambda x: tf.where(x > 0.3), M)
case("where_3d", lambda x: tf.where(x < 0), T)
case("boolean_mask", lambda x: tf.boolean_mask(x, pos(x)), X)
case("boolean_mask_rows", lambda x: tf.boolean_mask(x, x[:, 0] > 0), M)
case("boolean_mask_axis1", lambda x: tf.boolean_mask(x, x[0, :, 0] > -0.5, axis=1), T)
case("boolean_mask_2d_mask", lambda x: tf.boolean_mask(x, x > 0), M)
case("gather_nd_where", lambda x: tf.gather_nd(x, tf.where(x > 0.5)), M)
case("where_int_values", lambda k: tf.boolean_mask(k * 3 - 1, k % 3 == 0), K)
case("masked_pair", lambda x: (tf.boolean_mask(x, pos(x)), tf.boolean_mask(-x, ~pos(x))), X)

# ---- sizes read back -----------------------------------------------------------------
case("size_shape", lambda x: (tf.size(tf.boolean_mask(x, pos(x))),
                              tf.shape(tf.boolean_mask(x, x[:, 1] > 0))), M)
case("count_nonzero_via_where", lambda x: tf.shape(tf.where(x > 0))[0] * 2, T)
case("mean_of_masked", lambda x: tf.reduce_mean(tf.boolean_mask(x, pos(x))), X)
case("mean_rows_of_masked", lambda x: tf.reduce_mean(tf.boolean_mask(x, x[:, 2] > 0), axis=0), M)
case("fill_like_masked", lambda x: tf.zeros_like(tf.boolean_mask(x, pos(x))) + 7.0, X)

# ---- reductions over the padding -------------------------------------------------------
case("reductions", lambda x: [tf.reduce_sum(tf.boolean_mask(x, pos(x))),
                              tf.reduce_max(tf.boolean_mask(x, x < 0)),
                              tf.reduce_min(tf.boolean_mask(x, x > 0.5)),
                              tf.reduce_prod(tf.boolean_mask(x, tf.abs(x) < 1))], X)
case("reduce_rows_cols", lambda x: [tf.reduce_sum(tf.boolean_mask(x, x[:, 0] > -0.5), axis=1),
                                    tf.reduce_sum(tf.boolean_mask(x, x[:, 0] > -0.5), axis=0),
                                    tf.reduce_max(tf.boolean_mask(x, x[:, 3] < 0.5), axis=0)], M)
case("argmax_argmin", lambda x: [tf.argmax(tf.boolean_mask(x, x < 0.8)),
                                 tf.argmin(tf.boolean_mask(x, x > -0.8))], X)
case("any_all", lambda x: [tf.reduce_any(tf.boolean_mask(x, pos(x)) > 1.0),
                           tf.reduce_all(tf.boolean_mask(x, pos(x)) > 0.1)], X)
case("logsumexp_softmax", lambda x: [tf.reduce_logsumexp(tf.boolean_mask(x, x > -1)),
                                     tf.nn.softmax(tf.boolean_mask(x, x > -1))], X)
case("moments", lambda x: list(tf.nn.moments(tf.boolean_mask(x, x[:, 1] > -1), axes=[0])), M)

# ---- elementwise, shapes ---------------------------------------------------------------
case("elementwise", lambda x: [tf.exp(tf.boolean_mask(x, pos(x))) * 2 - 1,
                               tf.boolean_mask(x, pos(x)) + tf.boolean_mask(x * x, pos(x))], X)
case("transpose_reshape", lambda x: [tf.transpose(tf.boolean_mask(x, x[:, 0] > 0)),
                                     tf.reshape(tf.boolean_mask(x, x[:, 0] > 0), [-1]),
                                     tf.expand_dims(tf.boolean_mask(x, x[:, 4] > 0), 1)], M)
case("reshape_split", lambda x: tf.reshape(tf.boolean_mask(tf.reshape(x, [6, 10]), x[::2, 0] > -1),
                                           [-1, 5, 2]), tf.constant(rnd(7, (12, 5))).numpy())
case("broadcast_tile", lambda x: [tf.boolean_mask(x, pos(x))[:, None] * tf.ones([1, 3]),
                                  tf.tile(tf.boolean_mask(x, pos(x)), [2])], X)
case("stack_concat", lambda x: [tf.concat([tf.boolean_mask(x, pos(x)), tf.boolean_mask(x, x < -0.5)], 0),
                                tf.concat([tf.boolean_mask(x, pos(x)), x[:3]], 0),
                                tf.stack([tf.boolean_mask(x, pos(x)), 2 * tf.boolean_mask(x, pos(x))], 1)], X)
case("concat_rows", lambda x: tf.concat([tf.boolean_mask(x, x[:, 0] > 0), tf.boolean_mask(x, x[:, 1] > 0)], 0), M)
case("reverse", lambda x: [tf.reverse(tf.boolean_mask(x, pos(x)), [0]),
                           tf.reverse(tf.boolean_mask(x, x[:, 0] > 0), [0, 1])], M)
case("pad", lambda x: [tf.pad(tf.boolean_mask(x, pos(x)), [[2, 3]], constant_values=-9.0),
                       tf.pad(tf.boolean_mask(x, pos(x)), [[1, 0]])], X)
case("slice_head", lambda x: [tf.boolean_mask(x, pos(x))[:2], tf.boolean_mask(x, x[:, 0] > -5)[:, 1:3]], M)

# ---- cumulative, sort -----------------------------------------------------------------------
# (TensorFlow 2.21's XLA:CPU gets cumulative ops over a dynamic dimension
# wrong: tf.reduce_sum(tf.cumsum(tf.boolean_mask(x, x > 0))) gives 0,
# the max of the reverse cumsum -inf; returned as they are, they crash
# it. cxla computes numpy's values: tests/unit/test_dynamic_padder.c.)
case("sort", lambda x: [tf.sort(tf.boolean_mask(x, x > -0.8)),
                        tf.sort(tf.boolean_mask(x, x > -0.8), direction="DESCENDING")], X)
case("argsort", lambda x: tf.argsort(tf.boolean_mask(x, x < 0.9)), X)
case("top_k_of_masked", lambda x: tf.math.top_k(tf.boolean_mask(x, x > -1), k=3).values, X)

# ---- contractions, gathers, scatters ---------------------------------------------------------
case("matmul_rows", lambda x, w: tf.matmul(tf.boolean_mask(x, x[:, 0] > 0), w), M, W)
case("matmul_contract", lambda x, w: tf.matmul(tf.boolean_mask(x, x[:, 0] > 0), tf.boolean_mask(x, x[:, 0] > 0),
                                             transpose_a=True), M, W)
case("gather_by_masked", lambda x, k: tf.gather(x, tf.boolean_mask(k, k < 6)), X, K)
case("segment_sum", lambda x, k: tf.math.unsorted_segment_sum(tf.boolean_mask(x[:10], k > 3),
                                                             tf.boolean_mask(k, k > 3) % 4, 4), X, K)
case("scatter_nd", lambda x: tf.scatter_nd(tf.where(x > 0.2), tf.boolean_mask(x, x > 0.2), [6, 5]), M)
case("one_hot", lambda k: tf.one_hot(tf.boolean_mask(k, k < 5), 5), K)
case("dense_layer", lambda x, w: tf.nn.relu(tf.matmul(tf.boolean_mask(x, x[:, 2] > -0.3), w) + 0.1), M, W)
case("conv_rows", lambda x: tf.nn.conv1d(tf.boolean_mask(x, x[0, :, 0] > -5, axis=1), tf.ones([2, 3, 2]), 1,
                                         "VALID"), T)

case("conv_same", lambda x: tf.nn.conv1d(tf.boolean_mask(x, x[0, :, 0] > -5, axis=1), tf.ones([3, 3, 2]), 1,
                                         "SAME"), T)

# ---- edge sizes, nesting, several dynamic dims ------------------------------------------------
case("empty_mask", lambda x: [tf.boolean_mask(x, x > 100.0), tf.reduce_sum(tf.boolean_mask(x, x > 100.0)),
                              tf.reduce_max(tf.boolean_mask(x, x > 100.0)),
                              tf.size(tf.where(x > 100.0))], X)
case("full_mask", lambda x: [tf.boolean_mask(x, x > -100.0), tf.reduce_mean(tf.boolean_mask(x, x > -100.0))], X)
case("nested_masks", lambda x: tf.boolean_mask(tf.boolean_mask(x, x > -1.0),
                                               tf.boolean_mask(x, x > -1.0) < 1.0), X)
case("mask_3d_by_2d", lambda x: [tf.boolean_mask(x, x[:, :, 0] > 0),
                                 tf.reduce_sum(tf.boolean_mask(x, x[:, :, 0] > 0), axis=0)], T)
case("where_then_reduce", lambda x: [tf.reduce_sum(tf.where(x > 0), axis=0),
                                     tf.reduce_max(tf.where(x > 0), axis=1)], M)
case("sort_rows", lambda x: [tf.sort(tf.boolean_mask(x, x[:, 0] > -0.5), axis=0),
                             tf.sort(tf.boolean_mask(x, x[:, 0] > -0.5), axis=1)], M)
case("concat_cols", lambda x: tf.concat([tf.boolean_mask(x, x[:, 0] > 0), 2 * tf.boolean_mask(x, x[:, 0] > 0)], 1), M)
case("matmul_rhs", lambda x, w: tf.matmul(tf.transpose(tf.boolean_mask(x, x[:, 1] > 0)),
                                         tf.boolean_mask(w, x[:, 1] > 0)), M, rnd(8, (6, 4)))
case("keepdims_variance_norm", lambda x: [tf.reduce_sum(tf.boolean_mask(x, x[:, 3] > 0), axis=0, keepdims=True),
                                          tf.math.reduce_variance(tf.boolean_mask(x, pos(x))),
                                          tf.norm(tf.boolean_mask(x, x[:, 3] > 0), axis=1)], M)
case("dynamic_partition", lambda x, k: tf.dynamic_partition(x[:10], k % 3, 3), X, K)
case("while_masked_sum", lambda x: tf.while_loop(lambda i, s: i < 3,
                                                 lambda i, s: (i + 1, s + tf.reduce_sum(tf.boolean_mask(x, x > tf.cast(i, tf.float32) - 1.0))),
                                                 (0, 0.0))[1], X)
case("nms", lambda b, s: tf.image.non_max_suppression(b, s, 5, iou_threshold=0.3),
     np.array([[0, 0, 1, 1], [0, 0.1, 1, 1.1], [0, -0.1, 1, 0.9], [0, 10, 1, 11], [0, 10.1, 1, 11.1],
               [0, 100, 1, 101]], F32), np.array([0.9, 0.75, 0.6, 0.95, 0.5, 0.3], F32))


# ---- sizes that make shapes; ops built on sorting -----------------------------------------------
V = np.array([3., -1., 2., -5., 7., 0.5, -2., 4., 2., 3.], F32)
case("unique", lambda x: tf.unique(x)[0], V)
case("range_of_size", lambda x: tf.range(tf.size(tf.boolean_mask(x, x > 0))), V)
case("fill_ones_of_shape", lambda x: [tf.fill(tf.shape(tf.boolean_mask(x, x > 0)), 1.5),
                                      tf.ones(tf.shape(tf.boolean_mask(x, x > 0))) * 2], V)
case("slice_of_size", lambda x: tf.slice(x, [1], [tf.size(tf.boolean_mask(x, x > 0))]), V)
case("sequence_mask", lambda x: tf.sequence_mask(tf.size(tf.boolean_mask(x, x > 0)), 10), V)
case("map_fn_rows", lambda x: tf.map_fn(lambda r: tf.reduce_sum(tf.boolean_mask(r, r > 0)),
                                        tf.reshape(x, [5, 2])), V)
case("cond_on_size", lambda x: tf.cond(tf.size(tf.boolean_mask(x, x > 0)) > 3,
                                       lambda: tf.reduce_sum(tf.boolean_mask(x, x > 0)), lambda: 0.0), V)
case("cond_gives_masked", lambda x: [tf.reduce_sum(tf.cond(x[0] > 0, lambda: tf.boolean_mask(x, x > 0),
                                                           lambda: tf.boolean_mask(x, x < 0))),
                                     tf.cond(x[1] > 0, lambda: tf.boolean_mask(x, x > 0),
                                             lambda: tf.boolean_mask(x, x < 0)),
                                     tf.cond(x[0] > 0, lambda: tf.boolean_mask(x, x > 2.5), lambda: x)], V)

# a masked tensor handed into the branches (the branch's parameter is dynamic)
case("cond_masked_operand", lambda x: [
    tf.cond(tf.size(tf.boolean_mask(x, x > 0)) > 3, lambda: tf.reduce_sum(tf.boolean_mask(x, x > 0) * 2.0),
            lambda: tf.reduce_max(tf.boolean_mask(x, x > 0))),
    tf.switch_case(tf.size(tf.boolean_mask(x, x < -1)) % 3,
                   [lambda: tf.reduce_sum(tf.boolean_mask(x, x < -1)),
                    lambda: tf.reduce_sum(tf.boolean_mask(x, x > 0)) - tf.reduce_min(tf.boolean_mask(x, x < -1)),
                    lambda: tf.reduce_max(tf.boolean_mask(x, x < -1)) + x[0]])], V)


def _cond_in_out(x):
    y, z = tf.boolean_mask(x, x > 0), tf.boolean_mask(x, x < -1)
    a = tf.cond(tf.size(y) > 3, lambda: y * 2.0, lambda: tf.sort(y))
    c = tf.cond(x[0] > 0, lambda: tf.concat([y, z], 0), lambda: tf.reverse(y, [0]))
    return [a, c, tf.reduce_sum(a) + tf.cast(tf.size(c), tf.float32)]


def _cond_rows(x):
    m = tf.boolean_mask(tf.reshape(x, [5, 2]), x[::2] > -1.5)
    s = tf.cond(x[1] < 0, lambda: tf.reduce_sum(m, axis=0), lambda: tf.reduce_max(m, axis=0))
    t = tf.cond(x[2] > 0, lambda: (m[:, ::-1], tf.reduce_sum(m)), lambda: (m * 2, 1.0))
    return [s, t[0], t[1]]


case("cond_masked_in_out", _cond_in_out, V)
case("cond_masked_in_out_neg", _cond_in_out, -V)
case("cond_masked_rows", _cond_rows, V)
case("cond_masked_rows_neg", _cond_rows, -V)
case("cond_in_loop_masked", lambda x: tf.while_loop(
    lambda i, a: i < 3, lambda i, a: (i + 1, tf.cond(tf.reduce_sum(a) > 5, lambda: a * 0.5, lambda: a + 1)),
    (0, tf.boolean_mask(x, x > 0)))[1], V)

# ---- more of what reads a masked tensor -------------------------------------------------------
E6 = rnd(9, (6, 3))
case("searchsorted", lambda x: tf.searchsorted(tf.sort(tf.boolean_mask(x, x > 0)), tf.constant([0.0, 2.5, 10.0])), V)
case("embedding_lookup", lambda x, e: tf.nn.embedding_lookup(e, tf.cast(tf.boolean_mask(tf.abs(x), tf.abs(x) < 6), tf.int32)),
     V, E6)
case("numpy_nonzero", lambda x: tf.experimental.numpy.nonzero(x > 1)[0], V)
case("std_segment_mean", lambda x: [tf.math.reduce_std(tf.boolean_mask(x, x > -3)),
                                    tf.math.unsorted_segment_mean(tf.boolean_mask(x, x > -3),
                                                                  tf.cast(tf.boolean_mask(tf.abs(x), x > -3), tf.int32) % 3, 3)], V)
case("where_select_clip", lambda x: [tf.where(tf.boolean_mask(x, x > -3) > 1, 1.0, -1.0),
                                     tf.clip_by_norm(tf.boolean_mask(x, x > -3), 2.0)], V)
case("matvec_rows", lambda e: tf.linalg.matvec(tf.boolean_mask(e, e[:, 0] > -1), tf.ones([3])), E6)
case("loss_of_masked", lambda x: tf.reduce_mean(tf.nn.sigmoid_cross_entropy_with_logits(
    labels=tf.ones_like(tf.boolean_mask(x, x > 0)), logits=tf.boolean_mask(x, x > 0))), V)
case("cumsum_inner_axis", lambda e: tf.reduce_sum(tf.cumsum(tf.boolean_mask(e, e[:, 0] > -1), axis=1), axis=1), E6)
case("tile_rows", lambda e: tf.tile(tf.boolean_mask(e, e[:, 0] > -1), [2, 1]), E6)
case("max_pool_valid", lambda e: tf.nn.max_pool1d(tf.boolean_mask(e, e[:, 0] > -1)[None], 2, 1, "VALID"), E6)
case("pool_same", lambda e: [tf.nn.max_pool1d(tf.boolean_mask(e, e[:, 0] > -1)[None], 2, 2, "SAME"),
                             tf.nn.max_pool1d(tf.boolean_mask(e, e[:, 0] > -1)[None], 3, 2, "SAME"),
                             tf.nn.avg_pool1d(tf.boolean_mask(e, e[:, 0] > -1)[None], 3, 1, "SAME")], E6)
case("pool_same_odd", lambda e: tf.nn.max_pool1d(tf.boolean_mask(e, e[:, 1] > -0.5)[None], 3, 2, "SAME"), E6)
case("conv_same_strided", lambda e: [tf.nn.conv1d(tf.boolean_mask(e, e[:, 0] > -1)[None], tf.ones([3, 3, 2]), 2, "SAME"),
                                     tf.nn.conv1d(tf.boolean_mask(e, e[:, 1] > -0.5)[None], tf.ones([3, 3, 2]), 2, "SAME"),
                                     tf.nn.conv1d(tf.boolean_mask(e, e[:, 1] > -0.5)[None], tf.ones([2, 3, 1]), 3, "SAME")], E6)
def _pool_grads(e, col, lim):
    m = tf.boolean_mask(e, e[:, col] > lim)[None]
    return [tf.gradients(tf.reduce_sum(tf.nn.max_pool1d(m, 3, 2, "SAME") ** 2), m)[0],
            tf.gradients(tf.reduce_sum(tf.nn.max_pool1d(m, 2, 2, "SAME") * 3.0), m)[0],
            tf.gradients(tf.reduce_sum(tf.nn.avg_pool1d(m, 3, 2, "SAME") ** 2), m)[0]]


def _conv_grads(e, col, lim):
    m = tf.boolean_mask(e, e[:, col] > lim)[None]
    k = tf.reshape(tf.range(18, dtype=tf.float32) / 9.0 - 1.0, [3, 3, 2])
    k2 = tf.reshape(tf.range(6, dtype=tf.float32) / 3.0 - 1.0, [2, 3, 1])
    out = []
    for kk, stride, pad in ((k, 2, "SAME"), (k, 1, "SAME"), (k2, 3, "SAME"), (k, 2, "VALID")):
        gx, gk = tf.gradients(tf.reduce_sum(tf.nn.conv1d(m, kk, stride, pad) ** 2), [m, kk])
        out += [gx, gk]
    return out


case("grad_pool_same", lambda e: _pool_grads(e, 0, -1.0), E6)
case("grad_pool_same_odd", lambda e: _pool_grads(e, 1, -0.5), E6)
case("grad_conv_same", lambda e: _conv_grads(e, 0, -1.0), E6)
case("grad_conv_same_odd", lambda e: _conv_grads(e, 1, -0.5), E6)

case("while_state_masked", lambda x: list(tf.while_loop(
    lambda i, a: i < 3, lambda i, a: (i + 1, a * 2 + tf.reduce_sum(a)), (0, tf.boolean_mask(x, x > 0)))), V)
case("while_state_rows", lambda e: tf.while_loop(
    lambda i, a, s: i < 2, lambda i, a, s: (i + 1, tf.nn.relu(a) - tf.reduce_mean(a, axis=0), s + tf.reduce_sum(a)),
    (0, tf.boolean_mask(e, e[:, 0] > -1), 0.0))[1:], E6)


def main(argv=None):
    return GT.sweep_main(CASES, __doc__, argv)


if __name__ == "__main__":
    sys.exit(main())
