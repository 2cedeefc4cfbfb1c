/* sort.c: sort and topk.
 *
 * sort permutes all its operands together along dimensions[0], ordering by
 * the comparator computation, which gets 2N scalars (operand k's lhs and rhs
 * elements as parameters 2k and 2k+1) and returns pred "lhs < rhs". As
 * XLA:CPU: is_stable=true by a merge sort (std::stable_sort's result),
 * is_stable=false by std::sort's own introsort (base/stdsort_impl.h), whose
 * order of the elements the comparator cannot tell apart is XLA's.
 *
 * topk returns the k largest (or smallest) elements along the last dimension
 * and their s32 indices, in XLA's total order (NaN above +Inf), ties broken
 * by lower index first. */
#include <string.h>

#include "interp/data_common.h"

#define BAD(...) interp_error(in, CXLA_INVALID_ARGUMENT, __VA_ARGS__)
#define MAX_OPERANDS 64

/* A "less than" on the positions of one row of the operands. */
typedef struct Less {
  int n;
  Literal *const *ops;
  int64_t base, stride; /* element offset of the row's start, step along it */
  /* fast path: compare(op[key][lhs], op[key][rhs]) */
  bool fast;
  int key;
  bool swap;
  CmpDir dir;
  CmpType type;
  /* topk: total order, descending when `largest` */
  bool topk, largest;
  ScalarCall call;
} Less;

static const void *row_elem(const Less *c, int k, int64_t pos) {
  const Literal *l = c->ops[k];
  return (const char *)l->data + (c->base + pos * c->stride) * type_bytes(l->type);
}

static cxla_status less_run(Less *c, int64_t a, int64_t b, bool *out) {
  if (c->topk) {
    int r = elem_total_cmp(c->ops[0]->type, row_elem(c, 0, a), row_elem(c, 0, b));
    *out = c->largest ? r > 0 : r < 0;
    return NULL;
  }
  if (c->fast) {
    const void *x = row_elem(c, c->key, a), *y = row_elem(c, c->key, b);
    *out = c->swap ? elem_compare(c->dir, c->type, c->ops[c->key]->type, y, x)
                   : elem_compare(c->dir, c->type, c->ops[c->key]->type, x, y);
    return NULL;
  }
  for (int k = 0; k < c->n; k++) {
    size_t es = (size_t)type_bytes(c->ops[k]->type);
    memcpy(scall_arg(&c->call, 2 * k), row_elem(c, k, a), es);
    memcpy(scall_arg(&c->call, 2 * k + 1), row_elem(c, k, b), es);
  }
  return scall_run_pred(&c->call, out);
}

/* Stable bottom-up merge sort of perm[0..m) (tmp has room for m). An
 * element from the right run goes first only if it is strictly less. */
static cxla_status merge_sort(Less *c, int64_t *perm, int64_t *tmp, int64_t m) {
  for (int64_t width = 1; width < m; width *= 2) {
    for (int64_t lo = 0; lo < m; lo += 2 * width) {
      int64_t mid = lo + width < m ? lo + width : m;
      int64_t hi = lo + 2 * width < m ? lo + 2 * width : m;
      int64_t i = lo, j = mid, t = lo;
      while (i < mid && j < hi) {
        bool right_first;
        TRY(less_run(c, perm[j], perm[i], &right_first));
        tmp[t++] = right_first ? perm[j++] : perm[i++];
      }
      while (i < mid) tmp[t++] = perm[i++];
      while (j < hi) tmp[t++] = perm[j++];
    }
    memcpy(perm, tmp, (size_t)m * sizeof *perm);
  }
  return NULL;
}

/* std::sort of perm[0..m) by less_run; the first error stops the
 * comparisons (each later one answers false) and is returned. */
typedef struct StdLess {
  Less *c;
  cxla_status err;
} StdLess;

static bool std_less(void *ctx, int64_t a, int64_t b) {
  StdLess *s = ctx;
  bool r = false;
  if (!s->err) s->err = less_run(s->c, a, b, &r);
  return r;
}

#define STDSORT_NAME std_sort_perm
#define STDSORT_T int64_t
#define STDSORT_LESS(ctx, x, y) std_less(ctx, x, y)
#include "base/stdsort_impl.h"

static cxla_status unstable_sort(Less *c, int64_t *perm, int64_t m) {
  StdLess s = {c, NULL};
  std_sort_perm(perm, m, &s);
  return s.err;
}

/* Sets up the comparator of a sort over n operands. */
static cxla_status less_init(Less *c, Interp *ip, const Instr *in, int n, Literal *const *ops) {
  memset(c, 0, sizeof *c);
  c->n = n;
  c->ops = ops;
  const Computation *comp = in->called[0];
  CompareFn f = compare_fn_of(comp);
  if (f.ok && comp->nparams == 2 * n && f.lhs_param / 2 == f.rhs_param / 2 &&
      f.lhs_param != f.rhs_param && f.lhs_param >= 0 && f.lhs_param < 2 * n &&
      f.rhs_param >= 0 && f.rhs_param < 2 * n) {
    c->fast = true;
    c->key = (int)(f.lhs_param / 2);
    c->swap = f.lhs_param % 2 == 1;
    c->dir = f.dir;
    c->type = f.type;
    return NULL;
  }
  ElemType types[2 * MAX_OPERANDS];
  for (int k = 0; k < n; k++) types[2 * k] = types[2 * k + 1] = ops[k]->type;
  return scall_init(&c->call, ip, in, comp, 2 * n, types);
}

static void less_free(Less *c) {
  if (!c->fast && !c->topk) scall_free(&c->call);
}

/* Outer/inner extents of a row-wise walk along dimension d. */
static void row_geometry(const Literal *l, int64_t d, int64_t *outer, int64_t *len, int64_t *inner) {
  *outer = 1;
  *inner = 1;
  for (int i = 0; i < l->rank; i++) {
    if (i < d) *outer *= l->dims[i];
    else if (i > d) *inner *= l->dims[i];
  }
  *len = l->dims[d];
}

static cxla_status eval_sort(Interp *ip, const Instr *in, Literal *const *ops, Literal **out) {
  int n = in->noperands;
  if (n < 1) return BAD("sort needs operands");
  if (n > MAX_OPERANDS) return interp_error(in, CXLA_UNIMPLEMENTED, "more than %d sort operands", MAX_OPERANDS);
  if (in->ncalled < 1) return BAD("sort without a comparator");
  for (int k = 0; k < n; k++) {
    TRY(check_array(in, ops[k], "operand"));
    if (ops[k]->rank != ops[0]->rank) return BAD("sort operands differ in rank");
    for (int d = 0; d < ops[0]->rank; d++)
      if (ops[k]->dims[d] != ops[0]->dims[d]) return BAD("sort operands differ in shape");
  }
  const Shape *s = in->shape;
  bool tuple = s->type == T_TUPLE;
  if (tuple ? s->ntuple != n : n != 1) return BAD("result shape does not match the operands");
  for (int k = 0; k < n; k++) {
    const Shape *e = tuple ? s->tuple[k] : s;
    if (e->type != ops[k]->type) return BAD("result %d has the wrong type", k);
  }
  int64_t dim = in->dimensions.n == 1 ? in->dimensions.v[0] : -1;
  if (ops[0]->rank == 0) dim = 0;
  else if (dim < 0 || dim >= ops[0]->rank) return BAD("bad sort dimension");

  Literal *res[MAX_OPERANDS] = {NULL};
  cxla_status st = NULL;
  for (int k = 0; k < n && !st; k++) st = literal_clone(ops[k], &res[k]);
  int64_t outer = 1, len = 1, inner = 1;
  if (ops[0]->rank > 0) row_geometry(ops[0], dim, &outer, &len, &inner);
  int64_t *perm = NULL, *tmp = NULL;
  Less c;
  bool have_less = false;
  if (!st && len > 1 && ops[0]->nelems > 0) {
    perm = cxla_malloc((size_t)len * sizeof *perm);
    tmp = cxla_malloc((size_t)len * sizeof *tmp);
    if (!perm || !tmp) st = cxla_oom();
    if (!st) st = less_init(&c, ip, in, n, ops);
    have_less = !st;
    for (int64_t o = 0; o < outer && !st; o++) {
      for (int64_t j = 0; j < inner && !st; j++) {
        c.base = o * len * inner + j;
        c.stride = inner;
        for (int64_t p = 0; p < len; p++) perm[p] = p;
        st = in->is_stable ? merge_sort(&c, perm, tmp, len) : unstable_sort(&c, perm, len);
        for (int k = 0; k < n && !st; k++) {
          int es = type_bytes(ops[k]->type);
          char *dst = (char *)res[k]->data + c.base * es;
          const char *src = (const char *)ops[k]->data + c.base * es;
          for (int64_t p = 0; p < len; p++)
            memcpy(dst + p * inner * es, src + perm[p] * inner * es, (size_t)es);
        }
      }
    }
  }
  if (have_less) less_free(&c);
  cxla_free(perm);
  cxla_free(tmp);
  if (st) {
    for (int k = 0; k < n; k++) literal_free(res[k]);
    return st;
  }
  if (!tuple) {
    *out = res[0];
    return NULL;
  }
  return literal_create_tuple(n, res, out);
}

static cxla_status eval_topk(const Instr *in, Literal *const *ops, Literal **out) {
  if (in->noperands != 1) return BAD("topk takes one operand");
  const Literal *x = ops[0];
  TRY(check_array(in, x, "operand"));
  if (x->rank < 1) return BAD("topk needs an operand of rank >= 1");
  const Shape *s = in->shape;
  if (s->type != T_TUPLE || s->ntuple != 2) return BAD("topk result must be a (values, indices) tuple");
  const Shape *vs = s->tuple[0], *is = s->tuple[1];
  int64_t len = x->dims[x->rank - 1], k = in->topk_k;
  if (k < 0 || k > len) return BAD("k = %lld out of range", (long long)k);
  if (vs->type != x->type || vs->rank != x->rank || is->rank != x->rank || !type_is_int(is->type))
    return BAD("topk result shapes mismatch");
  for (int d = 0; d < x->rank; d++) {
    int64_t want = d == x->rank - 1 ? k : x->dims[d];
    if (vs->dims[d] != want || is->dims[d] != want) return BAD("topk result shapes mismatch");
  }
  Literal *res[2] = {NULL, NULL};
  TRY(literal_create(vs->type, vs->rank, vs->dims, &res[0]));
  cxla_status st = literal_create(is->type, is->rank, is->dims, &res[1]);
  int64_t rows = len ? x->nelems / len : 0;
  int64_t *perm = NULL, *tmp = NULL;
  if (!st && len > 0) {
    perm = cxla_malloc((size_t)len * sizeof *perm);
    tmp = cxla_malloc((size_t)len * sizeof *tmp);
    if (!perm || !tmp) st = cxla_oom();
  }
  Less c;
  memset(&c, 0, sizeof c);
  c.n = 1;
  c.ops = ops;
  c.topk = true;
  c.largest = in->topk_largest;
  c.stride = 1;
  int es = type_bytes(x->type);
  for (int64_t r = 0; r < rows && !st; r++) {
    c.base = r * len;
    for (int64_t p = 0; p < len; p++) perm[p] = p;
    st = merge_sort(&c, perm, tmp, len);
    for (int64_t p = 0; p < k && !st; p++) {
      memcpy((char *)res[0]->data + (r * k + p) * es, (const char *)x->data + (r * len + perm[p]) * es,
             (size_t)es);
      literal_set_i64(res[1], r * k + p, perm[p]);
    }
  }
  cxla_free(perm);
  cxla_free(tmp);
  if (st) {
    literal_free(res[0]);
    literal_free(res[1]);
    return st;
  }
  return literal_create_tuple(2, res, out);
}

cxla_status interp_sort(Interp *ip, const Instr *in, Literal *const *ops, Literal **out) {
  *out = NULL;
  switch (in->op) {
  case OP_SORT: return eval_sort(ip, in, ops, out);
  case OP_TOPK: return eval_topk(in, ops, out);
  default: return interp_error(in, CXLA_UNIMPLEMENTED, "not a sort");
  }
}
