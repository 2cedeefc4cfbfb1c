/* reduce.c: reduce, reduce-window and select-and-scatter, with the
 * evaluation order of XLA's HloEvaluator:
 *
 *  - reduce: each output element starts at its init value and folds the
 *    input elements it covers in row-major order of the reduced index space.
 *    A single-input reduction whose reducer is a scalar add of its two
 *    parameters on a floating type accumulates in double and rounds once at
 *    the end (the evaluator's "fast add"); other reducers step in the element
 *    type. Variadic reducers get 2N scalars (N accumulators, then N inputs).
 *  - reduce-window: per output element, the window positions in row-major
 *    order; positions that fall into padding or into the holes of base
 *    dilation are skipped (they contribute nothing; the init value is folded
 *    in once, at the start).
 *  - select-and-scatter: per source element (row-major), the first valid
 *    window position is the initial pick and a later one replaces it when
 *    select(picked, current) is false; the output starts at the init value
 *    and output[picked] = scatter(source, output[picked]).
 *
 * Reducers recognised by scalar_fn_of (and comparators by compare_fn_of) run
 * natively; anything else goes through interp_call. */
#include <string.h>

#include "interp/data_common.h"
#include "interp/ew_scalar.h"

#define BAD(...) interp_error(in, CXLA_INVALID_ARGUMENT, __VA_ARGS__)
#define MAX_VARIADIC 64

/* ---- outputs ------------------------------------------------------------------ */

/* Creates the n result arrays of the instruction's shape (its tuple elements,
 * or the array itself when n == 1 and the shape is not a tuple). */
static cxla_status make_outputs(const Instr *in, int n, Literal **res) {
  const Shape *s = in->shape;
  memset(res, 0, (size_t)n * sizeof *res);
  bool tuple = s->type == T_TUPLE;
  if (tuple ? s->ntuple != n : n != 1) return BAD("result shape does not have %d arrays", n);
  for (int i = 0; i < n; i++) {
    const Shape *e = tuple ? s->tuple[i] : s;
    cxla_status st = NULL;
    if (e->type == T_TUPLE || !type_is_array(e->type)) st = BAD("result %d is not an array", i);
    if (!st) st = check_rank(in, e->rank);
    if (!st) st = literal_create(e->type, e->rank, e->dims, &res[i]);
    if (st) {
      for (int j = 0; j < i; j++) literal_free(res[j]);
      memset(res, 0, (size_t)n * sizeof *res);
      return st;
    }
  }
  return NULL;
}

/* Hands the outputs to *out (as a tuple when the shape is one). */
static cxla_status finish_outputs(const Instr *in, int n, Literal **res, Literal **out) {
  if (in->shape->type != T_TUPLE) {
    *out = res[0];
    return NULL;
  }
  return literal_create_tuple(n, res, out);
}

static void free_outputs(int n, Literal **res) {
  for (int i = 0; i < n; i++) literal_free(res[i]);
}

static void *elem_ptr(const Literal *l, int64_t i) {
  return (char *)l->data + i * type_bytes(l->type);
}

/* Checks inputs[0..n) are arrays of one shape and inits[0..n) scalars of the
 * matching result types. */
static cxla_status check_inputs(const Instr *in, int n, Literal *const *inputs, Literal *const *inits,
                                Literal *const *res) {
  for (int i = 0; i < n; i++) {
    TRY(check_array(in, inputs[i], "input"));
    TRY(check_array(in, inits[i], "init value"));
    if (inputs[i]->rank != inputs[0]->rank) return BAD("inputs differ in rank");
    for (int d = 0; d < inputs[0]->rank; d++)
      if (inputs[i]->dims[d] != inputs[0]->dims[d]) return BAD("inputs differ in shape");
    if (inits[i]->nelems != 1 || inits[i]->type != res[i]->type)
      return BAD("init value %d must be a scalar of the result type", i);
    if (res[i]->rank != res[0]->rank) return BAD("results differ in rank");
    for (int d = 0; d < res[0]->rank; d++)
      if (res[i]->dims[d] != res[0]->dims[d]) return BAD("results differ in shape");
  }
  return NULL;
}

/* ---- one reduction step ------------------------------------------------------ */

/* How one accumulator update is done: natively (op on the element type) or
 * by calling the computation on 2N scalars. */
typedef struct Step {
  int n;
  bool native;
  Opcode op;
  bool swapped;
  ElemType type;
  ScalarCall call;
  ElemType res_types[MAX_VARIADIC];
} Step;

static cxla_status step_init(Step *st, Interp *ip, const Instr *in, const Computation *comp, int n,
                             Literal *const *inputs, Literal *const *res) {
  memset(st, 0, sizeof *st);
  st->n = n;
  ScalarFn f = comp ? scalar_fn_of(comp) : (ScalarFn){OP_COUNT, false};
  if (n == 1 && inputs[0]->type == res[0]->type && f.op != OP_COUNT &&
      binop_supported(f.op, res[0]->type)) {
    st->native = true;
    st->op = f.op;
    st->swapped = f.swapped;
    st->type = res[0]->type;
    return NULL;
  }
  ElemType types[2 * MAX_VARIADIC];
  for (int i = 0; i < n; i++) {
    types[i] = st->res_types[i] = res[i]->type;
    types[n + i] = inputs[i]->type;
  }
  return scall_init(&st->call, ip, in, comp, 2 * n, types);
}

/* acc[i] = reducer(acc..., x...) where acc[i] and x[i] point at elements. */
static cxla_status step_run(Step *st, void *const *acc, const void *const *x) {
  if (st->native) {
    if (st->swapped) binop_apply(st->op, st->type, acc[0], x[0], acc[0]);
    else binop_apply(st->op, st->type, acc[0], acc[0], x[0]);
    return NULL;
  }
  for (int i = 0; i < st->n; i++) {
    memcpy(scall_arg(&st->call, i), acc[i], (size_t)type_bytes(st->res_types[i]));
    memcpy(scall_arg(&st->call, st->n + i), x[i], (size_t)type_bytes(st->call.args[st->n + i]->type));
  }
  return scall_run(&st->call, st->n, st->res_types, acc);
}

static void step_free(Step *st) {
  if (!st->native) scall_free(&st->call);
}

/* The evaluator's IsScalarAdd: root is add of two distinct scalar
 * parameters. */
static bool is_scalar_add(const Computation *c) {
  if (!c || !c->root || c->nparams != 2) return false;
  const Instr *r = c->root;
  if (r->op != OP_ADD || r->noperands != 2) return false;
  const Instr *a = r->operands[0], *b = r->operands[1];
  return a->op == OP_PARAMETER && b->op == OP_PARAMETER && a != b && a->shape->rank == 0 &&
         b->shape->rank == 0;
}

/* ---- reduce --------------------------------------------------------------------- */

/* Visits every input element in row-major order together with the offset of
 * the output element it reduces into. */
#define FOR_EACH_INPUT(rank, dims, ostride, nelems, i, o, BODY)               \
  do {                                                                        \
    int64_t idx_[DATA_MAX_RANK] = {0};                                        \
    int64_t o = 0;                                                            \
    for (int64_t i = 0; i < (nelems); i++) {                                  \
      BODY;                                                                   \
      for (int d_ = (rank) - 1; d_ >= 0; d_--) {                              \
        o += (ostride)[d_];                                                   \
        if (++idx_[d_] < (dims)[d_]) break;                                   \
        o -= (ostride)[d_] * (dims)[d_];                                      \
        idx_[d_] = 0;                                                         \
      }                                                                       \
    }                                                                         \
  } while (0)

/* The evaluator's fast add: accumulate in double, round once at the end.
 * Inputs are read as XLA:CPU's hardware reads them (DAZ) and the result is
 * flushed like any of its float results (FTZ), as the elementwise add does. */
static cxla_status reduce_fast_add(const Literal *x, Literal *r, const int64_t *ostride) {
  double *acc = cxla_malloc((size_t)(r->nelems ? r->nelems : 1) * sizeof(double));
  if (!acc) return cxla_oom();
  ElemType t = r->type;
  for (int64_t o = 0; o < r->nelems; o++) acc[o] = ew_daz(t, ew_load_float(t, r->data, o));
  if (t == T_F32) {
    const float *xs = x->data;
    FOR_EACH_INPUT(x->rank, x->dims, ostride, x->nelems, i, o, acc[o] += ew_daz(t, xs[i]));
  } else {
    FOR_EACH_INPUT(x->rank, x->dims, ostride, x->nelems, i, o, acc[o] += ew_daz(t, ew_load_float(t, x->data, i)));
  }
  for (int64_t o = 0; o < r->nelems; o++) ew_store_float(t, r->data, o, ew_ftz(t, acc[o]));
  cxla_free(acc);
  return NULL;
}

static cxla_status eval_reduce(Interp *ip, const Instr *in, Literal *const *ops, Literal **out) {
  if (in->noperands < 2 || in->noperands % 2) return BAD("reduce needs N inputs and N init values");
  int n = in->noperands / 2;
  if (n > MAX_VARIADIC) return interp_error(in, CXLA_UNIMPLEMENTED, "more than %d reduce inputs", MAX_VARIADIC);
  if (in->ncalled < 1) return BAD("reduce without a reducer");
  Literal *res[MAX_VARIADIC];
  TRY(make_outputs(in, n, res));
  cxla_status s = check_inputs(in, n, ops, ops + n, res);
  const Literal *x0 = ops[0];
  int rank = x0->rank;
  bool red[DATA_MAX_RANK] = {false};
  for (int k = 0; !s && k < in->dimensions.n; k++) {
    int64_t d = in->dimensions.v[k];
    if (d < 0 || d >= rank || red[d]) s = BAD("bad reduce dimension %lld", (long long)d);
    else red[d] = true;
  }
  /* Output strides of the kept dimensions; 0 for the reduced ones. */
  int64_t ostride[DATA_MAX_RANK], rstride[DATA_MAX_RANK];
  if (!s) {
    row_major_strides(res[0]->rank, res[0]->dims, rstride);
    int k = 0;
    for (int d = 0; d < rank && !s; d++) {
      if (red[d]) {
        ostride[d] = 0;
        continue;
      }
      if (k >= res[0]->rank || res[0]->dims[k] != x0->dims[d]) s = BAD("result shape mismatches");
      else ostride[d] = rstride[k++];
    }
    if (!s && k != res[0]->rank) s = BAD("result rank mismatches");
  }
  if (s) {
    free_outputs(n, res);
    return s;
  }
  for (int i = 0; i < n; i++)
    fill_elems(res[i]->data, res[i]->nelems, ops[n + i]->data, type_bytes(res[i]->type));

  const Computation *comp = in->called[0];
  if (n == 1 && in->shape->type != T_TUPLE && type_is_float(res[0]->type) && x0->type == res[0]->type &&
      is_scalar_add(comp)) {
    s = reduce_fast_add(x0, res[0], ostride);
  } else {
    Step st;
    s = step_init(&st, ip, in, comp, n, ops, res);
    if (!s) {
      void *acc[MAX_VARIADIC];
      const void *xv[MAX_VARIADIC];
      FOR_EACH_INPUT(rank, x0->dims, ostride, x0->nelems, i, o, {
        if (s) break;
        for (int j = 0; j < n; j++) {
          acc[j] = elem_ptr(res[j], o);
          xv[j] = elem_ptr(ops[j], i);
        }
        s = step_run(&st, acc, xv);
      });
      step_free(&st);
    }
  }
  if (s) {
    free_outputs(n, res);
    return s;
  }
  return finish_outputs(in, n, res, out);
}

/* ---- windows ----------------------------------------------------------------------- */

static cxla_status check_window(const Instr *in, int rank) {
  if (in->nwindow != rank || (rank > 0 && !in->window))
    return BAD("window has %d dimensions, expected %d", in->nwindow, rank);
  for (int d = 0; d < rank; d++) {
    const WindowDim *w = &in->window[d];
    if (w->size < 0 || w->stride < 1 || w->lhs_dilate < 1 || w->rhs_dilate < 1)
      return BAD("invalid window in dimension %d", d);
  }
  return NULL;
}

/* The window's dims into wdims and its element count into *wcount; false
 * when the count overflows (window sizes are only bounded by the padded
 * input, which may be huge when the output is empty or strided). */
static bool window_dims(const Instr *in, int rank, int64_t *wdims, int64_t *wcount) {
  *wcount = 1;
  for (int d = 0; d < rank; d++) {
    wdims[d] = in->window[d].size;
    if (!mul_i64(*wcount, wdims[d], wcount)) return false;
  }
  return true;
}

/* The input offset that window position w of output (window count) index o
 * reads, or -1 when it falls into padding or a base-dilation hole. */
static int64_t window_source(const Instr *in, int rank, const int64_t *dims, const int64_t *stride,
                             const int64_t *o, const int64_t *w) {
  int64_t off = 0;
  for (int d = 0; d < rank; d++) {
    const WindowDim *wd = &in->window[d];
    /* The position in the padded input fits; minus pad_lo it may not
     * (pad_lo near INT64_MIN), and then it lies past the input. */
    int64_t p;
    if (__builtin_sub_overflow(o[d] * wd->stride + w[d] * wd->rhs_dilate, wd->pad_lo, &p))
      return -1;
    if (p < 0 || p % wd->lhs_dilate) return -1;
    p /= wd->lhs_dilate;
    if (p >= dims[d]) return -1;
    off += p * stride[d];
  }
  return off;
}

static cxla_status eval_reduce_window(Interp *ip, const Instr *in, Literal *const *ops, Literal **out) {
  if (in->noperands < 2 || in->noperands % 2) return BAD("reduce-window needs N inputs and N init values");
  int n = in->noperands / 2;
  if (n > MAX_VARIADIC) return interp_error(in, CXLA_UNIMPLEMENTED, "more than %d inputs", MAX_VARIADIC);
  if (in->ncalled < 1) return BAD("reduce-window without a reducer");
  Literal *res[MAX_VARIADIC];
  TRY(make_outputs(in, n, res));
  cxla_status s = check_inputs(in, n, ops, ops + n, res);
  const Literal *x0 = ops[0];
  int rank = x0->rank;
  if (!s && res[0]->rank != rank) s = BAD("result rank differs from the input's");
  if (!s) s = check_window(in, rank);
  Step st;
  if (!s) s = step_init(&st, ip, in, in->called[0], n, ops, res);
  if (s) {
    free_outputs(n, res);
    return s;
  }
  int64_t xstride[DATA_MAX_RANK], wdims[DATA_MAX_RANK], oidx[DATA_MAX_RANK] = {0},
                                                       widx[DATA_MAX_RANK] = {0};
  row_major_strides(rank, x0->dims, xstride);
  int64_t wcount;
  if (!window_dims(in, rank, wdims, &wcount) && res[0]->nelems > 0)
    s = interp_error(in, CXLA_RESOURCE_EXHAUSTED, "window has more than 2^63 elements");
  void *acc[MAX_VARIADIC];
  const void *xv[MAX_VARIADIC];
  for (int64_t o = 0; o < res[0]->nelems && !s; o++, idx_next(rank, res[0]->dims, oidx)) {
    for (int j = 0; j < n; j++) {
      acc[j] = elem_ptr(res[j], o);
      memcpy(acc[j], ops[n + j]->data, (size_t)type_bytes(res[j]->type));
    }
    for (int64_t k = 0; k < wcount && !s; k++, idx_next(rank, wdims, widx)) {
      int64_t src = window_source(in, rank, x0->dims, xstride, oidx, widx);
      if (src < 0) continue;
      for (int j = 0; j < n; j++) xv[j] = elem_ptr(ops[j], src);
      s = step_run(&st, acc, xv);
    }
  }
  step_free(&st);
  if (s) {
    free_outputs(n, res);
    return s;
  }
  return finish_outputs(in, n, res, out);
}

/* ---- select-and-scatter ------------------------------------------------------------ */

/* select(picked, current) -> pred: true keeps the picked element. Runs
 * natively when the computation is a bare compare of its two parameters. */
typedef struct Selector {
  CompareFn cmp;
  ScalarCall call;
  ElemType type;
} Selector;

static cxla_status selector_init(Selector *sel, Interp *ip, const Instr *in, const Computation *select,
                                 ElemType t) {
  memset(sel, 0, sizeof *sel);
  sel->type = t;
  sel->cmp = compare_fn_of(select);
  bool params01 = (sel->cmp.lhs_param == 0 && sel->cmp.rhs_param == 1) ||
                  (sel->cmp.lhs_param == 1 && sel->cmp.rhs_param == 0);
  if (sel->cmp.ok && select->nparams == 2 && params01) return NULL;
  sel->cmp.ok = false;
  ElemType types[2] = {t, t};
  return scall_init(&sel->call, ip, in, select, 2, types);
}

static cxla_status selector_keeps(Selector *sel, const void *picked, const void *cur, bool *keep) {
  if (sel->cmp.ok) {
    const void *a = sel->cmp.lhs_param == 0 ? picked : cur;
    const void *b = sel->cmp.lhs_param == 0 ? cur : picked;
    *keep = elem_compare(sel->cmp.dir, sel->cmp.type, sel->type, a, b);
    return NULL;
  }
  size_t es = (size_t)type_bytes(sel->type);
  memcpy(scall_arg(&sel->call, 0), picked, es);
  memcpy(scall_arg(&sel->call, 1), cur, es);
  return scall_run_pred(&sel->call, keep);
}

static void selector_free(Selector *sel) {
  if (!sel->cmp.ok) scall_free(&sel->call);
}

/* scatter(source, current) -> new current, natively when scalar_fn_of
 * recognises it. */
static cxla_status scatterer_init(Step *st, Interp *ip, const Instr *in, const Computation *scatter,
                                  ElemType src_t, ElemType t) {
  memset(st, 0, sizeof *st);
  st->n = 1;
  st->type = t;
  st->res_types[0] = t;
  ScalarFn f = scatter ? scalar_fn_of(scatter) : (ScalarFn){OP_COUNT, false};
  if (src_t == t && f.op != OP_COUNT && binop_supported(f.op, t)) {
    st->native = true;
    st->op = f.op;
    st->swapped = f.swapped;
    return NULL;
  }
  ElemType types[2] = {src_t, t};
  return scall_init(&st->call, ip, in, scatter, 2, types);
}

static cxla_status scatterer_run(Step *st, void *cur, const void *src) {
  if (st->native) {
    /* root op(p0, p1) = op(source, current); swapped: op(current, source) */
    if (st->swapped) binop_apply(st->op, st->type, cur, cur, src);
    else binop_apply(st->op, st->type, cur, src, cur);
    return NULL;
  }
  memcpy(scall_arg(&st->call, 0), src, (size_t)type_bytes(st->call.args[0]->type));
  memcpy(scall_arg(&st->call, 1), cur, (size_t)type_bytes(st->type));
  void *outs[1] = {cur};
  return scall_run(&st->call, 1, st->res_types, outs);
}

/* Checks the operands and makes the result: the operand's shape, every
 * element the init value. */
static cxla_status sas_result(const Instr *in, Literal *const *ops, Literal **out) {
  const Literal *x = ops[0], *src = ops[1], *init = ops[2];
  TRY(check_array(in, x, "operand"));
  TRY(check_array(in, src, "source"));
  TRY(check_array(in, init, "init value"));
  if (src->rank != x->rank || init->nelems != 1 || init->type != x->type || in->shape->type != x->type)
    return BAD("source rank, init value or result type mismatches the operand");
  TRY(check_window(in, x->rank));
  if (in->shape->rank != x->rank) return BAD("result shape differs from the operand's");
  for (int d = 0; d < x->rank; d++)
    if (in->shape->dims[d] != x->dims[d]) return BAD("result shape differs from the operand's");
  TRY(literal_create(x->type, x->rank, x->dims, out));
  fill_elems((*out)->data, (*out)->nelems, init->data, type_bytes(x->type));
  return NULL;
}

/* The operand offset the select computation picks in the window of source
 * index sidx, or -1 when the window holds no operand element. The first
 * valid element is the initial pick; a later one replaces the pick when
 * select(pick, it) is false. */
static cxla_status sas_pick(const Instr *in, Selector *sel, const Literal *x, const int64_t *xstride,
                            const int64_t *sidx, const int64_t *wdims, int64_t wcount, int64_t *picked) {
  int64_t widx[DATA_MAX_RANK] = {0};
  int es = type_bytes(x->type);
  *picked = -1;
  for (int64_t k = 0; k < wcount; k++, idx_next(x->rank, wdims, widx)) {
    int64_t off = window_source(in, x->rank, x->dims, xstride, sidx, widx);
    if (off < 0) continue;
    if (*picked < 0) {
      *picked = off;
      continue;
    }
    bool keep;
    TRY(selector_keeps(sel, (char *)x->data + *picked * es, (char *)x->data + off * es, &keep));
    if (!keep) *picked = off;
  }
  return NULL;
}

static cxla_status eval_select_and_scatter(Interp *ip, const Instr *in, Literal *const *ops, Literal **out) {
  if (in->noperands != 3) return BAD("select-and-scatter needs operand, source and init value");
  if (in->ncalled < 2) return BAD("select-and-scatter needs select and scatter computations");
  const Literal *x = ops[0], *src = ops[1];
  Literal *r;
  TRY(sas_result(in, ops, &r));
  Selector sel;
  Step st;
  cxla_status s = selector_init(&sel, ip, in, in->called[0], x->type);
  if (s) {
    literal_free(r);
    return s;
  }
  s = scatterer_init(&st, ip, in, in->called[1], src->type, r->type);
  if (s) {
    selector_free(&sel);
    literal_free(r);
    return s;
  }
  int rank = x->rank;
  int64_t xstride[DATA_MAX_RANK], wdims[DATA_MAX_RANK], sidx[DATA_MAX_RANK] = {0};
  row_major_strides(rank, x->dims, xstride);
  int64_t wcount;
  if (!window_dims(in, rank, wdims, &wcount) && src->nelems > 0)
    s = interp_error(in, CXLA_RESOURCE_EXHAUSTED, "window has more than 2^63 elements");
  for (int64_t si = 0; si < src->nelems && !s; si++, idx_next(rank, src->dims, sidx)) {
    int64_t picked;
    s = sas_pick(in, &sel, x, xstride, sidx, wdims, wcount, &picked);
    if (!s && picked >= 0) s = scatterer_run(&st, elem_ptr(r, picked), elem_ptr(src, si));
  }
  selector_free(&sel);
  step_free(&st);
  if (s) {
    literal_free(r);
    return s;
  }
  *out = r;
  return NULL;
}

cxla_status interp_reduce(Interp *ip, const Instr *in, Literal *const *ops, Literal **out) {
  *out = NULL;
  switch (in->op) {
  case OP_REDUCE: return eval_reduce(ip, in, ops, out);
  case OP_REDUCE_WINDOW: return eval_reduce_window(ip, in, ops, out);
  case OP_SELECT_AND_SCATTER: return eval_select_and_scatter(ip, in, ops, out);
  default: return interp_error(in, CXLA_UNIMPLEMENTED, "not a reduction");
  }
}
