/* rt_topk.c: topk (and XLA:CPU's "TopK" custom-call) on raw buffers: the k
 * largest (or smallest) elements of each row along the last dim with their
 * indices, in XLA's total order (-NaN < -Inf < ... < -0 < +0 < ... < +Inf <
 * +NaN, NaNs of one sign equal), ties to the lower index (the interpreter's
 * stable sort). Each element becomes a 128-bit key whose unsigned order is
 * that total order, then a stable merge sort of the row's positions. */
#include <math.h>
#include <string.h>

#include "cpu/cpu_internal.h"

typedef struct Key {
  uint64_t hi, lo;
} Key;

static uint64_t float_key(double d) {
  if (isnan(d)) return signbit(d) ? 0 : UINT64_MAX;
  uint64_t b;
  memcpy(&b, &d, 8);
  return (b >> 63) ? ~b : b | (1ull << 63);
}

static Key key_of(const Literal *l, int64_t i) {
  Key k = {0, 0};
  switch (type_kind(l->type)) {
  case TK_FLOAT: k.hi = float_key(literal_get_f64(l, i)); break;
  case TK_COMPLEX:
    if (l->type == T_C64) {
      k.hi = float_key(((const float *)l->data)[2 * i]);
      k.lo = float_key(((const float *)l->data)[2 * i + 1]);
    } else {
      k.hi = float_key(((const double *)l->data)[2 * i]);
      k.lo = float_key(((const double *)l->data)[2 * i + 1]);
    }
    break;
  case TK_SINT: k.hi = (uint64_t)literal_get_i64(l, i) ^ (1ull << 63); break;
  default: k.hi = (uint64_t)literal_get_i64(l, i); break;
  }
  return k;
}

/* whether position a goes before b */
static inline bool before(const Key *key, int64_t a, int64_t b, bool largest) {
  const Key *x = &key[a], *y = &key[b];
  if (x->hi != y->hi) return largest ? x->hi > y->hi : x->hi < y->hi;
  if (x->lo != y->lo) return largest ? x->lo > y->lo : x->lo < y->lo;
  return false;
}

static void merge_sort(const Key *key, bool largest, int64_t *perm, int64_t *tmp, int64_t m) {
  for (int64_t w = 1; w < m; w *= 2) {
    for (int64_t lo = 0; lo < m; lo += 2 * w) {
      int64_t mid = lo + w < m ? lo + w : m, hi = lo + 2 * w < m ? lo + 2 * w : m;
      int64_t i = lo, j = mid, o = lo;
      while (i < mid && j < hi) tmp[o++] = before(key, perm[j], perm[i], largest) ? perm[j++] : perm[i++];
      while (i < mid) tmp[o++] = perm[i++];
      while (j < hi) tmp[o++] = perm[j++];
    }
    memcpy(perm, tmp, (size_t)m * sizeof *perm);
  }
}

/* The (k, largest) a topk or "TopK" custom-call asks for; an error if its
 * shapes do not fit. */
cxla_status rt_topk_check(const Instr *in, int64_t *k_out, bool *largest) {
  const Shape *x = in->noperands == 1 ? in->operands[0]->shape : NULL, *s = in->shape;
  if (!x || !type_is_array(x->type) || x->type == T_TUPLE || x->rank < 1 || s->type != T_TUPLE ||
      s->ntuple != 2)
    return ERR(INVALID_ARGUMENT, "topk %%%s: needs one array operand and a (values, indices) result", in->name);
  const Shape *vs = s->tuple[0], *is = s->tuple[1];
  int64_t len = x->dims[x->rank - 1], k;
  if (in->op == OP_TOPK) {
    k = in->topk_k;
    *largest = in->topk_largest;
  } else {
    k = vs->rank >= 1 ? vs->dims[vs->rank - 1] : -1;
    *largest = true;
    const Instr *r = in->ncalled >= 1 && in->called[0] ? in->called[0]->root : NULL;
    if (r && r->op == OP_COMPARE && (r->cmp_dir == CMP_LT || r->cmp_dir == CMP_LE)) *largest = false;
  }
  if (k < 0 || k > len) return ERR(INVALID_ARGUMENT, "topk %%%s: k = %lld out of range", in->name, (long long)k);
  if (vs->type != x->type || vs->rank != x->rank || is->rank != x->rank || !type_is_int(is->type))
    return ERR(INVALID_ARGUMENT, "topk %%%s: result shapes do not fit", in->name);
  for (int d = 0; d < x->rank; d++) {
    int64_t w = d == x->rank - 1 ? k : x->dims[d];
    if (vs->dims[d] != w || is->dims[d] != w)
      return ERR(INVALID_ARGUMENT, "topk %%%s: result shapes do not fit", in->name);
  }
  *k_out = k;
  return NULL;
}

cxla_status rt_topk_run(const Instr *in, RVal *const *ops, RVal **out) {
  *out = NULL;
  int64_t k;
  bool largest;
  TRY(rt_topk_check(in, &k, &largest));
  const Literal *x = &ops[0]->lit;
  const Shape *vs = in->shape->tuple[0], *is = in->shape->tuple[1];
  RVal *el[2] = {NULL, NULL};
  TRY(rval_array(vs->type, vs->rank, vs->dims, &el[0]));
  cxla_status st = rval_array(is->type, is->rank, is->dims, &el[1]);
  int64_t len = x->dims[x->rank - 1], rows = len ? x->nelems / len : 0;
  int64_t *perm = NULL, *tmp = NULL;
  Key *key = NULL;
  if (!st && len > 0 && k > 0) {
    perm = cxla_malloc((size_t)len * sizeof *perm);
    tmp = cxla_malloc((size_t)len * sizeof *tmp);
    key = cxla_malloc((size_t)len * sizeof *key);
    if (!perm || !tmp || !key) st = cxla_oom();
  }
  size_t es = (size_t)type_bytes(x->type);
  for (int64_t r = 0; r < rows && k > 0 && !st; r++) {
    for (int64_t p = 0; p < len; p++) {
      perm[p] = p;
      key[p] = key_of(x, r * len + p);
    }
    merge_sort(key, largest, perm, tmp, len);
    for (int64_t p = 0; p < k; p++) {
      memcpy((char *)el[0]->lit.data + (size_t)(r * k + p) * es, (const char *)x->data + (size_t)(r * len + perm[p]) * es,
             es);
      literal_set_i64(&el[1]->lit, r * k + p, perm[p]);
    }
  }
  cxla_free(perm);
  cxla_free(tmp);
  cxla_free(key);
  if (st) {
    rval_unref(el[0]);
    rval_unref(el[1]);
    return st;
  }
  return rval_tuple(2, el, out);
}
