/* sort as a runtime routine on raw buffers, calling the compiled
 * comparator: a stable bottom-up merge sort of each row's positions along
 * the sort dimension (std::stable_sort's result, as the interpreter gives),
 * then every operand permuted alike. */
#include <string.h>

#include "cpu/cpu_internal.h"

typedef struct Row {
  const Step *st;
  RVal *const *ops;
  int n;
  int64_t base, stride;
  const void *args[128];
} Row;

static bool less(Row *r, int64_t a, int64_t b) {
  for (int k = 0; k < r->n; k++) {
    size_t es = (size_t)type_bytes(r->ops[k]->lit.type);
    const char *d = r->ops[k]->lit.data;
    r->args[2 * k] = d + (size_t)(r->base + a * r->stride) * es;
    r->args[2 * k + 1] = d + (size_t)(r->base + b * r->stride) * es;
  }
  return r->st->pred(r->args) != 0;
}

static void merge_sort(Row *r, int64_t *perm, int64_t *tmp, int64_t m) {
  for (int64_t w = 1; w < m; w *= 2) {
    for (int64_t lo = 0; lo < m; lo += 2 * w) {
      int64_t mid = lo + w < m ? lo + w : m, hi = lo + 2 * w < m ? lo + 2 * w : m;
      int64_t i = lo, j = mid, o = lo;
      while (i < mid && j < hi) tmp[o++] = less(r, perm[j], perm[i]) ? perm[j++] : perm[i++];
      while (i < mid) tmp[o++] = perm[i++];
      while (j < hi) tmp[o++] = perm[j++];
    }
    memcpy(perm, tmp, (size_t)m * sizeof *perm);
  }
}

cxla_status sort_run(const Step *st, RVal *const *ops, RVal **out) {
  const Instr *in = st->in;
  int n = in->noperands;
  const Literal *l0 = &ops[0]->lit;
  int64_t d = in->dimensions.v[0];
  if (d < 0 || d >= l0->rank) return ERR(INVALID_ARGUMENT, "sort %%%s: dimension out of range", in->name);
  RVal *res[64] = {0};
  cxla_status s = NULL;
  for (int k = 0; k < n && !s; k++) {
    const Literal *l = &ops[k]->lit;
    s = rval_array(l->type, l->rank, l->dims, &res[k]);
  }
  int64_t len = l0->dims[d], stride = 1, outer = 1;
  for (int i = (int)d + 1; i < l0->rank; i++) stride *= l0->dims[i];
  for (int i = 0; i < d; i++) outer *= l0->dims[i];
  int64_t *perm = NULL, *tmp = NULL;
  if (!s && len > 0) {
    perm = cxla_malloc((size_t)len * sizeof *perm);
    tmp = cxla_malloc((size_t)len * sizeof *tmp);
    if (!perm || !tmp) s = cxla_oom();
  }
  Row r = {.st = st, .ops = ops, .n = n, .stride = stride};
  for (int64_t o = 0; !s && len > 0 && o < outer; o++)
    for (int64_t in_ = 0; in_ < stride; in_++) {
      r.base = o * len * stride + in_;
      for (int64_t i = 0; i < len; i++) perm[i] = i;
      merge_sort(&r, perm, tmp, len);
      for (int k = 0; k < n; k++) {
        size_t es = (size_t)type_bytes(ops[k]->lit.type);
        const char *src = ops[k]->lit.data;
        char *dst = res[k]->lit.data;
        for (int64_t i = 0; i < len; i++)
          memcpy(dst + (size_t)(r.base + i * stride) * es, src + (size_t)(r.base + perm[i] * stride) * es, es);
      }
    }
  cxla_free(perm);
  cxla_free(tmp);
  if (!s) {
    if (in->shape->type == T_TUPLE) {
      s = rval_tuple(n, res, out);
      for (int k = 0; k < n; k++) res[k] = NULL;
    } else {
      *out = res[0];
      res[0] = NULL;
    }
  }
  for (int k = 0; k < n; k++) rval_unref(res[k]);
  return s;
}
