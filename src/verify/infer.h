/* infer.h: internals of cxla's shape inference (see verify.h).
 *
 * A ShapeRule infers the shape of one instruction. shape_inference.c maps
 * every opcode to its rule; the rules are spread over one file per op
 * family (infer_*.c). This header also holds the small helpers they share:
 * error construction, shape construction from the arena, dimension-list
 * checks and callee-signature checks.
 *
 * Every Shape and string made here comes from the caller's arena; nothing
 * needs freeing except returned statuses. */
#ifndef CXLA_VERIFY_INFER_H
#define CXLA_VERIFY_INFER_H

#include "verify/verify.h"

typedef cxla_status (*ShapeRule)(Arena *a, const Instr *in, Shape **out);

/* ---- helpers (infer_util.c) ---- */

/* The shape of operand i. */
#define OPSHAPE(in, i) ((in)->operands[i]->shape)

/* An INVALID_ARGUMENT status with a printf message. */
cxla_status verr(const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 1, 2)))
#endif
    ;

/* Text of a shape without layout ("f32[2,3]", "(f32[], s32[4])") or of a
 * dimension list ("{0,2}"), in the arena; "?" if memory runs out. */
const char *shape_str(Arena *a, const Shape *s);
const char *list_str(Arena *a, const int64_t *v, int n);

/* Fresh array shape / tuple shape / copy in the arena; OOM status on
 * failure. dims may be NULL for rank 0. */
cxla_status make_array(Arena *a, ElemType t, int rank, const int64_t *dims, Shape **out);
cxla_status make_tuple(Arena *a, int n, Shape *const *elems, Shape **out);
cxla_status copy_shape(Arena *a, const Shape *s, Shape **out);
/* A copy of s with element type t (s must be an array). */
cxla_status retype(Arena *a, const Shape *s, ElemType t, Shape **out);

bool shape_is_array(const Shape *s);
bool shape_is_scalar(const Shape *s);
bool same_dims(const Shape *a, const Shape *b);   /* arrays: rank and dims */
bool is_token(const Shape *s);
/* XLA's "signed" element types: signed integers and floating point. */
bool type_is_signed(ElemType t);

/* "operand i must be an array" unless it is one. */
cxla_status expect_array_operand(Arena *a, const Instr *in, int i);
/* Checks every operand is an array. */
cxla_status expect_array_operands(Arena *a, const Instr *in, int from, int to);
/* At least / exactly n operands. */
cxla_status expect_min_operands(const Instr *in, int n);
cxla_status expect_operands(const Instr *in, int n);
/* The attribute bits `bits` are set (what names them in the message). */
cxla_status expect_attr(const Instr *in, uint32_t bits, const char *what);

/* Checks a list of dimension numbers: each in [0, rank); with
 * DL_UNIQUE no repeats, with DL_SORTED strictly increasing. `what` names the
 * list in messages ("dimensions", "lhs_batch_dims"). */
enum { DL_UNIQUE = 1, DL_SORTED = 2 };
cxla_status check_dim_list(Arena *a, const int64_t *v, int n, int rank, const char *what,
                           unsigned flags);
bool list_has(const int64_t *v, int n, int64_t x);

/* Callee `idx` of `in` (its called array must have exactly `ncalled`
 * entries), checked to be complete (root and every parameter present) and,
 * when nparams >= 0, to take exactly nparams parameters. */
cxla_status get_callee(const Instr *in, int ncalled, int idx, int nparams,
                       const Computation **out);
/* The shape of a callee's parameter i / result. */
static inline const Shape *callee_param(const Computation *c, int i) {
  return c->params[i]->shape;
}
static inline const Shape *callee_result(const Computation *c) { return c->root->shape; }

/* Checks a reducer computation for N inputs (reduce, reduce-window,
 * scatter, select-and-scatter's scatter): 2N scalar parameters, result a
 * scalar (N == 1) or a tuple of N scalars, accumulator i, parameter i,
 * parameter N+i and init value i all of element type types[i]. `name` names
 * the computation's role in messages. */
cxla_status check_reducer(Arena *a, const Computation *c, int n, const ElemType *types,
                          const char *name);

/* The output shape of a window over `base` (reduce-window,
 * select-and-scatter, convolution's spatial dims): in->nwindow must equal
 * rank; sizes, strides and dilations positive; arithmetic overflow checked.
 * dims_out receives rank entries. */
cxla_status window_output_dims(const Instr *in, int rank, const int64_t *base,
                               int64_t *dims_out);

/* ---- the rules, by family ---- */

/* infer_elementwise.c */
cxla_status infer_unary(Arena *, const Instr *, Shape **);
cxla_status infer_binary(Arena *, const Instr *, Shape **);
cxla_status infer_compare(Arena *, const Instr *, Shape **);
cxla_status infer_select(Arena *, const Instr *, Shape **);
cxla_status infer_clamp(Arena *, const Instr *, Shape **);
cxla_status infer_convert(Arena *, const Instr *, Shape **);
cxla_status infer_bitcast_convert(Arena *, const Instr *, Shape **);
cxla_status infer_stochastic_convert(Arena *, const Instr *, Shape **);
cxla_status infer_reduce_precision(Arena *, const Instr *, Shape **);

/* infer_shape_ops.c */
cxla_status infer_broadcast(Arena *, const Instr *, Shape **);
cxla_status infer_reshape(Arena *, const Instr *, Shape **);
cxla_status infer_dynamic_reshape(Arena *, const Instr *, Shape **);
cxla_status infer_transpose(Arena *, const Instr *, Shape **);
cxla_status infer_slice(Arena *, const Instr *, Shape **);
cxla_status infer_concatenate(Arena *, const Instr *, Shape **);
cxla_status infer_pad(Arena *, const Instr *, Shape **);
cxla_status infer_reverse(Arena *, const Instr *, Shape **);
cxla_status infer_iota(Arena *, const Instr *, Shape **);
cxla_status infer_dynamic_slice(Arena *, const Instr *, Shape **);
cxla_status infer_dynamic_update_slice(Arena *, const Instr *, Shape **);
cxla_status infer_bitcast(Arena *, const Instr *, Shape **);
cxla_status infer_same_as_operand(Arena *, const Instr *, Shape **);
cxla_status infer_get_dimension_size(Arena *, const Instr *, Shape **);
cxla_status infer_set_dimension_size(Arena *, const Instr *, Shape **);

/* infer_tuple.c */
cxla_status infer_tuple(Arena *, const Instr *, Shape **);
cxla_status infer_get_tuple_element(Arena *, const Instr *, Shape **);
cxla_status infer_constant(Arena *, const Instr *, Shape **);
cxla_status infer_parameter(Arena *, const Instr *, Shape **);
cxla_status infer_after_all(Arena *, const Instr *, Shape **);
cxla_status infer_add_dependency(Arena *, const Instr *, Shape **);

/* infer_dot_conv.c */
cxla_status infer_dot(Arena *, const Instr *, Shape **);
cxla_status infer_convolution(Arena *, const Instr *, Shape **);

/* infer_gather.c */
cxla_status infer_gather(Arena *, const Instr *, Shape **);
cxla_status infer_scatter(Arena *, const Instr *, Shape **);

/* infer_reduce.c */
cxla_status infer_reduce(Arena *, const Instr *, Shape **);
cxla_status infer_reduce_window(Arena *, const Instr *, Shape **);
cxla_status infer_select_and_scatter(Arena *, const Instr *, Shape **);
cxla_status infer_sort(Arena *, const Instr *, Shape **);
cxla_status infer_topk(Arena *, const Instr *, Shape **);

/* infer_control.c */
cxla_status infer_call(Arena *, const Instr *, Shape **);
cxla_status infer_fusion(Arena *, const Instr *, Shape **);
cxla_status infer_map(Arena *, const Instr *, Shape **);
cxla_status infer_while(Arena *, const Instr *, Shape **);
cxla_status infer_conditional(Arena *, const Instr *, Shape **);

/* infer_linalg.c */
cxla_status infer_fft(Arena *, const Instr *, Shape **);
cxla_status infer_cholesky(Arena *, const Instr *, Shape **);
cxla_status infer_triangular_solve(Arena *, const Instr *, Shape **);
cxla_status infer_batch_norm_training(Arena *, const Instr *, Shape **);
cxla_status infer_batch_norm_inference(Arena *, const Instr *, Shape **);
cxla_status infer_batch_norm_grad(Arena *, const Instr *, Shape **);

/* infer_misc.c: random numbers, collectives, ids, declared-shape ops */
cxla_status infer_rng(Arena *, const Instr *, Shape **);
cxla_status infer_rng_bit_generator(Arena *, const Instr *, Shape **);
cxla_status infer_rng_get_and_update_state(Arena *, const Instr *, Shape **);
cxla_status infer_u32_scalar(Arena *, const Instr *, Shape **);
cxla_status infer_all_reduce(Arena *, const Instr *, Shape **);
cxla_status infer_all_gather(Arena *, const Instr *, Shape **);
cxla_status infer_reduce_scatter(Arena *, const Instr *, Shape **);
cxla_status infer_collective_permute(Arena *, const Instr *, Shape **);
cxla_status infer_collective_broadcast(Arena *, const Instr *, Shape **);
cxla_status infer_custom_call(Arena *, const Instr *, Shape **);
cxla_status infer_declared(Arena *, const Instr *, Shape **);

#endif
