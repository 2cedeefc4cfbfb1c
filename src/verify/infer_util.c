/* Helpers shared by the shape rules: errors, shape construction, dimension
 * list checks, callee signatures, window arithmetic. See infer.h. */
#include <stdarg.h>
#include <string.h>

#include "verify/infer.h"

cxla_status verr(const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  char *msg = cxla_vformat(fmt, ap);
  va_end(ap);
  if (!msg) return cxla_oom();
  cxla_status s = cxla_status_make(CXLA_INVALID_ARGUMENT, "%s", msg);
  cxla_free(msg);
  return s;
}

/* Copies a StrBuf's text into the arena and frees the buffer. */
static const char *sb_to_arena(Arena *a, StrBuf *b) {
  char *s = sb_take(b);
  if (!s) return "?";
  const char *r = arena_strdup(a, s);
  cxla_free(s);
  return r ? r : "?";
}

const char *shape_str(Arena *a, const Shape *s) {
  StrBuf b;
  sb_init(&b);
  shape_print(&b, s, false);
  return sb_to_arena(a, &b);
}

const char *list_str(Arena *a, const int64_t *v, int n) {
  StrBuf b;
  sb_init(&b);
  sb_putc(&b, '{');
  for (int i = 0; i < n; i++) sb_printf(&b, i ? ",%lld" : "%lld", (long long)v[i]);
  sb_putc(&b, '}');
  return sb_to_arena(a, &b);
}

cxla_status make_array(Arena *a, ElemType t, int rank, const int64_t *dims, Shape **out) {
  *out = shape_new(a, t, rank, dims);
  return *out ? NULL : cxla_oom();
}

cxla_status make_tuple(Arena *a, int n, Shape *const *elems, Shape **out) {
  *out = shape_new_tuple(a, n, elems);
  return *out ? NULL : cxla_oom();
}

cxla_status copy_shape(Arena *a, const Shape *s, Shape **out) {
  *out = shape_clone(a, s);
  return *out ? NULL : cxla_oom();
}

cxla_status retype(Arena *a, const Shape *s, ElemType t, Shape **out) {
  TRY(copy_shape(a, s, out));
  (*out)->type = t;
  return NULL;
}

bool shape_is_array(const Shape *s) { return type_is_array(s->type); }

bool shape_is_scalar(const Shape *s) { return shape_is_array(s) && s->rank == 0; }

bool same_dims(const Shape *a, const Shape *b) {
  if (a->rank != b->rank) return false;
  for (int i = 0; i < a->rank; i++)
    if (a->dims[i] != b->dims[i]) return false;
  return true;
}

bool is_token(const Shape *s) { return s->type == T_TOKEN; }

bool type_is_signed(ElemType t) { return type_kind(t) == TK_SINT || type_is_float(t); }

cxla_status expect_array_operand(Arena *a, const Instr *in, int i) {
  if (!shape_is_array(OPSHAPE(in, i)))
    return verr("operand %d must be an array, got %s", i, shape_str(a, OPSHAPE(in, i)));
  return NULL;
}

cxla_status expect_array_operands(Arena *a, const Instr *in, int from, int to) {
  for (int i = from; i < to; i++) TRY(expect_array_operand(a, in, i));
  return NULL;
}

cxla_status expect_min_operands(const Instr *in, int n) {
  if (in->noperands < n)
    return verr("expected at least %d operand%s, got %d", n, n == 1 ? "" : "s", in->noperands);
  return NULL;
}

cxla_status expect_operands(const Instr *in, int n) {
  if (in->noperands != n)
    return verr("expected %d operand%s, got %d", n, n == 1 ? "" : "s", in->noperands);
  return NULL;
}

cxla_status expect_attr(const Instr *in, uint32_t bits, const char *what) {
  if ((in->attrs & bits) != bits) return verr("missing attribute %s", what);
  return NULL;
}

bool list_has(const int64_t *v, int n, int64_t x) {
  for (int i = 0; i < n; i++)
    if (v[i] == x) return true;
  return false;
}

cxla_status check_dim_list(Arena *a, const int64_t *v, int n, int rank, const char *what,
                           unsigned flags) {
  if (n < 0 || (n > 0 && !v)) return verr("%s: malformed list", what);
  for (int i = 0; i < n; i++) {
    if (v[i] < 0 || v[i] >= rank)
      return verr("%s=%s: dimension %lld out of range for rank %d", what, list_str(a, v, n),
                  (long long)v[i], rank);
    if ((flags & DL_SORTED) && i > 0 && v[i - 1] >= v[i])
      return verr("%s=%s must be strictly increasing", what, list_str(a, v, n));
    if ((flags & DL_UNIQUE) && list_has(v, i, v[i]))
      return verr("%s=%s repeats dimension %lld", what, list_str(a, v, n), (long long)v[i]);
  }
  return NULL;
}

cxla_status get_callee(const Instr *in, int ncalled, int idx, int nparams,
                       const Computation **out) {
  *out = NULL;
  if (in->ncalled != ncalled)
    return verr("expected %d called computation%s, got %d", ncalled, ncalled == 1 ? "" : "s",
                in->ncalled);
  const Computation *c = in->called[idx];
  if (!c) return verr("called computation %d is missing", idx);
  if (!c->root) return verr("called computation %%%s has no root", c->name);
  for (int i = 0; i < c->nparams; i++)
    if (!c->params[i]) return verr("called computation %%%s lacks parameter %d", c->name, i);
  if (nparams >= 0 && c->nparams != nparams)
    return verr("called computation %%%s must take %d parameter%s, takes %d", c->name, nparams,
                nparams == 1 ? "" : "s", c->nparams);
  *out = c;
  return NULL;
}

cxla_status check_reducer(Arena *a, const Computation *c, int n, const ElemType *types,
                          const char *name) {
  if (c->nparams != 2 * n)
    return verr("%s %%%s must take %d parameters, takes %d", name, c->name, 2 * n, c->nparams);
  const Shape *res = callee_result(c);
  if (n == 1 ? !shape_is_scalar(res) : (res->type != T_TUPLE || res->ntuple != n))
    return verr("%s %%%s must return %s, returns %s", name, c->name,
                n == 1 ? "a scalar" : "a tuple of scalars, one per input", shape_str(a, res));
  for (int i = 0; i < n; i++) {
    const Shape *acc = n == 1 ? res : res->tuple[i];
    if (!shape_is_scalar(acc) || acc->type != types[i])
      return verr("%s %%%s: result %d is %s, expected %s[]", name, c->name, i,
                  shape_str(a, acc), type_name(types[i]));
    for (int k = 0; k < 2; k++) {
      const Shape *p = callee_param(c, i + k * n);
      if (!shape_is_scalar(p) || p->type != types[i])
        return verr("%s %%%s: parameter %d is %s, expected %s[]", name, c->name, i + k * n,
                    shape_str(a, p), type_name(types[i]));
    }
  }
  return NULL;
}

/* (bound-1)*dilation+1 for bound > 0, else 0 (XLA's DilatedBound). */
static bool dilated(int64_t bound, int64_t dilation, int64_t *out) {
  if (bound <= 0) {
    *out = 0;
    return true;
  }
  int64_t t;
  return mul_i64(bound - 1, dilation, &t) && add_i64(t, 1, out);
}

cxla_status window_output_dims(const Instr *in, int rank, const int64_t *base,
                               int64_t *dims_out) {
  if (!(in->attrs & A_WINDOW) && rank > 0) return verr("missing attribute window");
  int nwin = (in->attrs & A_WINDOW) ? in->nwindow : 0;
  if (nwin != rank)
    return verr("window has %d dimensions, expected %d", nwin, rank);
  if (rank > 0 && !in->window) return verr("window: malformed");
  for (int i = 0; i < rank; i++) {
    const WindowDim *w = &in->window[i];
    if (w->size <= 0) return verr("window dimension %d has non-positive size %lld", i, (long long)w->size);
    if (w->stride <= 0)
      return verr("window dimension %d has non-positive stride %lld", i, (long long)w->stride);
    if (w->lhs_dilate < 1 || w->rhs_dilate < 1)
      return verr("window dimension %d has a dilation factor below 1", i);
    int64_t base_d, padded, win_d;
    if (!dilated(base[i], w->lhs_dilate, &base_d) || !add_i64(base_d, w->pad_lo, &padded) ||
        !add_i64(padded, w->pad_hi, &padded) || !dilated(w->size, w->rhs_dilate, &win_d))
      return verr("window dimension %d: sizes overflow", i);
    /* XLA's StridedBound: how many windows fit. */
    dims_out[i] = win_d > padded ? 0 : (padded - win_d) / w->stride + 1;
  }
  return NULL;
}
