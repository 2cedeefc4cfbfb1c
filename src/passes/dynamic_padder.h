/* dynamic_padder.h: bounded dynamic shapes made static, as XLA's
 * DynamicPadder does before it compiles.
 *
 * TensorFlow's bridge writes programs whose sizes depend on data with
 * bounded dynamic dimensions: tf.where and tf.boolean_mask give an
 * s64[<=8,1] through set-dimension-size (the data is the bound's worth,
 * the first `size` rows hold the values), tf.shape and tf.reduce_mean read
 * the size back with get-dimension-size, and XLA's optimized text hands a
 * dynamic result out through the custom call "SliceToDynamic". Every array
 * keeps its bound's worth of storage; the pass tracks, for each
 * dimension of each value, the s32[] instruction holding its size, and
 * rewrites what reads the padding so that it cannot change a result:
 *   - set-dimension-size and SliceToDynamic become their data operand;
 *     get-dimension-size becomes the size (a constant where static);
 *   - reduce and reduce-window over a dynamic dimension read their init
 *     value in the padding; dot and convolution a zero in a dynamic
 *     contracting (input feature, spatial) dimension; pad the pad value,
 *     so that the edge padding follows the data;
 *   - scatter's updates in the padding of its scatter dimensions get an
 *     index out of bounds (skipped, as XLA skips them);
 *   - reverse shifts the data back to the start; concatenate along a
 *     dynamic dimension places each operand after the previous one's size;
 *     sort along one orders the padding last;
 *   - sizes follow the data through elementwise ops, broadcast, transpose,
 *     reshape (a dynamic dimension that stays one dimension, or the
 *     leading one of those merged or split; merged after another one, and
 *     dynamic-reshape, gather the data into place), slice and
 *     dynamic-slice of a whole dimension (a part is static), gather,
 *     tuples, DynamicConvolutionForward (VALID; SAME: with a stride, the
 *     data written at the padding its size gives, as for pooling),
 *     DynamicReduceWindowSamePadding (SAME pooling: the data written at
 *     the padding its size gives, then pooled without padding), and the
 *     gradients: DynamicConvolutionInputGrad and KernelGrad (a
 *     convolution whose input, dilated or not, is placed at the padding
 *     the size gives), DynamicSelectAndScatterSamePadding (max pooling's:
 *     x reads the lowest value past its size, is placed likewise, and the
 *     result is cut back); a dynamic-reshape that only adds or removes
 *     dims of size 1 leaves the data where it lies, as XLA does;
 *   - a conditional whose branches give dynamic results: each branch
 *     returns tuple(result, sizes...), its users read them apart; a
 *     branch whose parameter type has dynamic dims takes
 *     tuple(operand, sizes...) (its one caller hands them in, the bound
 *     for an operand static there);
 *   - a while loop whose body's parameter type has dynamic dims: the
 *     state tuple gets one s32[] element per such dim (loop, body's
 *     parameter and root, condition's parameter).
 * Calls are inlined first. A dynamic dimension reaching any other op (a
 * custom call, a branch whose parameter type is static) is an
 * UNIMPLEMENTED error naming the op, never a silent wrong answer.
 *
 * The entry's dynamic results, in one of two forms:
 *   - dynamic_padder_run (the runtime, before the optimizer): the root
 *     becomes tuple(old root, sizes...), one s32[] leaf per dynamic
 *     dimension of a result leaf, and `out` says which. The runtime trims
 *     each result to its sizes after running (the values past them are
 *     padding). Afterwards no shape in the module is dynamic.
 *   - pass_dynamic_padder (passes.h; the pipeline's first pass, so what
 *     `cxla opt` and cxla_module_optimize print): each dynamic result
 *     leaf becomes SliceToDynamic(data, one size per dim), as in XLA's
 *     optimized HLO; those custom calls (and the root tuple over them)
 *     are the only dynamic shapes left, the result type is kept, and the
 *     text runs again through dynamic_padder_run.
 * Linear in the module: each instruction is visited once. */
#ifndef CXLA_DYNAMIC_PADDER_H
#define CXLA_DYNAMIC_PADDER_H

#include "ir/ir.h"

typedef struct DynamicResults {
  int nresults;   /* leaves of the entry's result as it was; 0: no dynamic result (root unchanged) */
  int *dims_at;   /* nresults + 1 offsets into size_leaf: leaf i's dims are [dims_at[i], dims_at[i+1]) */
  int *size_leaf; /* per dim of a result leaf: the leaf of the new result holding its size, or -1 */
} DynamicResults;

/* Whether any shape in m has a dynamic dimension or any instruction is a
 * set-dimension-size or SliceToDynamic: one scan. */
bool dynamic_padder_needed(const HloModule *m);

/* Rewrites m as above; out (owned by the caller: dynamic_results_free)
 * describes the result. On error m may be partly rewritten. */
cxla_status dynamic_padder_run(HloModule *m, DynamicResults *out);

void dynamic_results_free(DynamicResults *r);

#endif
