/* Result comparison and element printing; see compare.h. */
#include "testing/compare.h"

#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ir/numeric.h"

bool compare_float(double got, double want, double rtol, double atol) {
  if (isnan(got) || isnan(want)) return isnan(got) && isnan(want);
  if (isinf(got) || isinf(want)) return got == want;
  /* The difference of two huge finite values may overflow to +inf, which
   * then correctly fails the test. */
  return fabs(got - want) <= atol + rtol * fabs(want);
}

/* Element i of a float or complex array as double(s). */
static void get_parts(const Literal *l, int64_t i, double *re, double *im) {
  const unsigned char *p = (const unsigned char *)l->data + i * type_bytes(l->type);
  *im = 0;
  switch (l->type) {
  case T_C64: {
    float f[2];
    memcpy(f, p, sizeof f);
    *re = f[0];
    *im = f[1];
    return;
  }
  case T_C128: {
    double d[2];
    memcpy(d, p, sizeof d);
    *re = d[0];
    *im = d[1];
    return;
  }
  default: *re = literal_get_f64(l, i); return;
  }
}

static bool element_matches(const Literal *g, const Literal *w, int64_t i, double rtol,
                            double atol) {
  ElemType t = w->type;
  if (type_is_float(t) || type_is_complex(t)) {
    double gr, gi, wr, wi;
    get_parts(g, i, &gr, &gi);
    get_parts(w, i, &wr, &wi);
    return compare_float(gr, wr, rtol, atol) && compare_float(gi, wi, rtol, atol);
  }
  /* Integers and pred: exact. Storage is canonical (pred 0/1, s2/s4
   * sign-extended), so equal values have equal bytes. */
  size_t sz = (size_t)type_bytes(t);
  return memcmp((const char *)g->data + i * (int64_t)sz, (const char *)w->data + i * (int64_t)sz,
                sz) == 0;
}

void format_shape(ElemType t, int rank, const int64_t *dims, char *buf, size_t n) {
  size_t used = (size_t)snprintf(buf, n, "%s[", type_name(t));
  for (int i = 0; i < rank && used < n; i++)
    used += (size_t)snprintf(buf + used, n - used, "%s%lld", i ? "," : "", (long long)dims[i]);
  if (used < n) snprintf(buf + used, n - used, "]");
}

void format_index(int rank, const int64_t *dims, int64_t flat, char *buf, size_t n) {
  int64_t idx[64];
  if (rank > 64) rank = 64;
  for (int d = rank - 1; d >= 0; d--) {
    idx[d] = dims[d] ? flat % dims[d] : 0;
    flat = dims[d] ? flat / dims[d] : 0;
  }
  size_t used = (size_t)snprintf(buf, n, "[");
  for (int d = 0; d < rank && used < n; d++)
    used += (size_t)snprintf(buf + used, n - used, "%s%lld", d ? "," : "", (long long)idx[d]);
  if (used < n) snprintf(buf + used, n - used, "]");
}

/* The shortest %g form of v that reads back as the same value of type t. */
static void format_float(ElemType t, double v, char *buf, size_t n) {
  if (isnan(v)) {
    snprintf(buf, n, "nan");
    return;
  }
  if (isinf(v)) {
    snprintf(buf, n, v < 0 ? "-inf" : "inf");
    return;
  }
  for (int prec = 1; prec <= 17; prec++) {
    snprintf(buf, n, "%.*g", prec, v);
    double back = strtod(buf, NULL);
    if (round_to_type(t == T_C64 ? T_F32 : t == T_C128 ? T_F64 : t, back) == v) return;
  }
}

void literal_format_element(const Literal *l, int64_t i, char *buf, size_t n) {
  if (!n) return;
  ElemType t = l->type;
  const unsigned char *p = (const unsigned char *)l->data + i * type_bytes(t);
  if (t == T_PRED) {
    snprintf(buf, n, "%s", *p ? "true" : "false");
  } else if (t == T_U64) {
    uint64_t u;
    memcpy(&u, p, sizeof u);
    snprintf(buf, n, "%" PRIu64, u);
  } else if (type_is_int(t)) {
    snprintf(buf, n, "%lld", (long long)literal_get_i64(l, i));
  } else if (type_is_complex(t)) {
    double re, im;
    get_parts(l, i, &re, &im);
    char a[40], b[40];
    format_float(t, re, a, sizeof a);
    format_float(t, im, b, sizeof b);
    snprintf(buf, n, "(%s, %s)", a, b);
  } else if (type_is_float(t)) {
    format_float(t, literal_get_f64(l, i), buf, n);
  } else {
    snprintf(buf, n, "?");
  }
}

bool compare_literals(const Literal *got, const Literal *want, double rtol, double atol,
                      CompareReport *r) {
  r->mismatches = 0;
  r->first = -1;
  r->detail[0] = 0;
  if (got->type == T_TUPLE || want->type == T_TUPLE) {
    r->mismatches = -1;
    snprintf(r->detail, sizeof r->detail, "cannot compare tuples element-wise");
    return false;
  }
  bool same_dims = got->rank == want->rank;
  for (int d = 0; same_dims && d < got->rank; d++) same_dims = got->dims[d] == want->dims[d];
  if (got->type != want->type || !same_dims) {
    char g[200], w[200];
    format_shape(got->type, got->rank, got->dims, g, sizeof g);
    format_shape(want->type, want->rank, want->dims, w, sizeof w);
    r->mismatches = -1;
    snprintf(r->detail, sizeof r->detail, "got %s, want %s", g, w);
    return false;
  }
  if (got->unknown || !type_is_array(got->type)) {
    r->mismatches = -1;
    snprintf(r->detail, sizeof r->detail, "got a value without data");
    return false;
  }
  for (int64_t i = 0; i < want->nelems; i++) {
    if (element_matches(got, want, i, rtol, atol)) continue;
    if (r->first < 0) r->first = i;
    r->mismatches++;
  }
  if (!r->mismatches) return true;
  char idx[200], g[100], w[100];
  format_index(want->rank, want->dims, r->first, idx, sizeof idx);
  literal_format_element(got, r->first, g, sizeof g);
  literal_format_element(want, r->first, w, sizeof w);
  snprintf(r->detail, sizeof r->detail, "%lld of %lld elements differ; first at %s: got %s, want %s",
           (long long)r->mismatches, (long long)want->nelems, idx, g, w);
  return false;
}

static int count_leaves(const Literal *l) {
  if (l->type != T_TUPLE) return 1;
  int n = 0;
  for (int i = 0; i < l->ntuple; i++) n += count_leaves(l->tuple[i]);
  return n;
}

static void fill_leaves(Literal *l, Literal **out, int *k) {
  if (l->type != T_TUPLE) {
    out[(*k)++] = l;
    return;
  }
  for (int i = 0; i < l->ntuple; i++) fill_leaves(l->tuple[i], out, k);
}

cxla_status literal_flatten(Literal *l, Literal ***out, int *n) {
  *out = NULL;
  *n = 0;
  int count = count_leaves(l);
  Literal **arr = cxla_calloc((size_t)(count ? count : 1), sizeof *arr);
  if (!arr) return cxla_oom();
  int k = 0;
  fill_leaves(l, arr, &k);
  *out = arr;
  *n = count;
  return NULL;
}
