/* Result comparison: the corpus rule |got - want| <= atol + rtol*|want|,
 * NaN/Inf handling, exact integers, complex parts, small float types, the
 * mismatch report, element printing and tuple flattening. Every expected
 * value below is worked out by hand (see the comments). */
#include <math.h>
#include <string.h>

#include "harness.h"
#include "ir/ir.h"
#include "testing/compare.h"

static Literal *vec(ElemType t, int64_t n) {
  Literal *l = NULL;
  CHECK_OK(literal_create(t, 1, &n, &l));
  return l;
}

TEST(float_rule) {
  CHECK(compare_float(NAN, NAN, 0, 0));
  CHECK(compare_float(-NAN, NAN, 0, 0)); /* any NaN meets any NaN */
  CHECK(!compare_float(NAN, 1, 1e9, 1e9));
  CHECK(!compare_float(1, NAN, 1e9, 1e9));
  CHECK(compare_float(INFINITY, INFINITY, 0, 0));
  CHECK(compare_float(-INFINITY, -INFINITY, 0, 0));
  CHECK(!compare_float(-INFINITY, INFINITY, 1e9, 1e9));
  CHECK(!compare_float(INFINITY, 1e308, 1, 1)); /* no tolerance makes inf finite */
  CHECK(!compare_float(1e308, INFINITY, 1, 1));
  /* want 100, rtol 0.01, atol 0.5: limit 0.5 + 1 = 1.5 (exact in binary). */
  CHECK(compare_float(101.5, 100, 0.01, 0.5));
  CHECK(compare_float(98.5, 100, 0.01, 0.5));
  CHECK(!compare_float(101.51, 100, 0.01, 0.5));
  CHECK(!compare_float(98.49, 100, 0.01, 0.5));
  /* Zero tolerance is exact equality; signed zeros are equal. */
  CHECK(compare_float(1.0, 1.0, 0, 0));
  CHECK(!compare_float(nextafter(1.0, 2.0), 1.0, 0, 0));
  CHECK(compare_float(-0.0, 0.0, 0, 0));
  /* rtol scales |want|, not |got|: the rule is asymmetric. */
  CHECK(!compare_float(1e-7, 0, 1, 0));
  CHECK(compare_float(0, 1e-7, 1, 0));
  /* The difference of two huge values overflows to inf: a mismatch. */
  CHECK(!compare_float(1.7e308, -1.7e308, 1, 0));
}

TEST(f32_arrays_report_first_mismatch) {
  int64_t dims[2] = {2, 3};
  Literal *g = NULL, *w = NULL;
  CHECK_OK(literal_create(T_F32, 2, dims, &g));
  CHECK_OK(literal_create(T_F32, 2, dims, &w));
  if (!g || !w) return;
  for (int i = 0; i < 6; i++) ((float *)w->data)[i] = ((float *)g->data)[i] = (float)i;
  CompareReport r;
  CHECK(compare_literals(g, w, 0, 0, &r));
  CHECK(r.mismatches == 0 && r.first == -1 && r.detail[0] == 0);
  ((float *)g->data)[1] = 1.5f;   /* [0,1]: want 1 */
  ((float *)g->data)[5] = 5.25f;  /* [1,2]: want 5 */
  CHECK(!compare_literals(g, w, 0, 0.1, &r));
  CHECK(r.mismatches == 2 && r.first == 1);
  CHECK(strcmp(r.detail, "2 of 6 elements differ; first at [0,1]: got 1.5, want 1") == 0);
  /* atol 0.3 covers 0.25 but not 0.5 */
  CHECK(!compare_literals(g, w, 0, 0.3, &r));
  CHECK(r.mismatches == 1 && r.first == 1);
  CHECK(compare_literals(g, w, 0, 0.5, &r));
  /* NaN where NaN is expected matches; NaN elsewhere does not. */
  ((float *)g->data)[2] = NAN;
  ((float *)w->data)[2] = NAN;
  CHECK(compare_literals(g, w, 0, 0.5, &r));
  ((float *)w->data)[3] = -INFINITY;
  CHECK(!compare_literals(g, w, 0, 0.5, &r));
  CHECK(strstr(r.detail, "first at [1,0]: got 3, want -inf") != NULL);
  literal_free(g);
  literal_free(w);
}

TEST(integers_and_pred_exact) {
  Literal *g = vec(T_S32, 3), *w = vec(T_S32, 3);
  if (!g || !w) return;
  ((int32_t *)g->data)[2] = 1;
  ((int32_t *)w->data)[2] = 2;
  CompareReport r;
  CHECK(!compare_literals(g, w, 1, 100, &r)); /* tolerances do not apply */
  CHECK(r.mismatches == 1 && strstr(r.detail, "first at [2]: got 1, want 2"));
  literal_free(g);
  literal_free(w);

  g = vec(T_U64, 1);
  w = vec(T_U64, 1);
  ((uint64_t *)g->data)[0] = UINT64_MAX - 1;
  ((uint64_t *)w->data)[0] = UINT64_MAX;
  CHECK(!compare_literals(g, w, 0, 0, &r));
  CHECK(strstr(r.detail, "got 18446744073709551614, want 18446744073709551615") != NULL);
  literal_free(g);
  literal_free(w);

  g = vec(T_PRED, 2);
  w = vec(T_PRED, 2);
  ((uint8_t *)w->data)[1] = 1;
  CHECK(!compare_literals(g, w, 0, 0, &r));
  CHECK(strstr(r.detail, "got false, want true") != NULL);
  ((uint8_t *)g->data)[1] = 1;
  CHECK(compare_literals(g, w, 0, 0, &r));
  literal_free(g);
  literal_free(w);
}

TEST(type_and_shape_mismatch) {
  Literal *g = vec(T_F64, 2), *w = vec(T_F32, 2);
  CompareReport r;
  CHECK(!compare_literals(g, w, 1, 1, &r));
  CHECK(r.mismatches == -1 && strcmp(r.detail, "got f64[2], want f32[2]") == 0);
  literal_free(g);
  literal_free(w);
  int64_t d23[2] = {2, 3}, d32[2] = {3, 2};
  CHECK_OK(literal_create(T_F32, 2, d23, &g));
  CHECK_OK(literal_create(T_F32, 2, d32, &w));
  CHECK(!compare_literals(g, w, 1, 1, &r));
  CHECK(strcmp(r.detail, "got f32[2,3], want f32[3,2]") == 0);
  literal_free(g);
  literal_free(w);
}

TEST(complex_parts_separately) {
  Literal *g = vec(T_C64, 1), *w = vec(T_C64, 1);
  float *gd = g->data, *wd = w->data;
  wd[0] = 1; wd[1] = 2;
  gd[0] = 1; gd[1] = 2.5f;
  CompareReport r;
  CHECK(!compare_literals(g, w, 0, 0.1, &r)); /* imaginary part off by 0.5 */
  CHECK(strstr(r.detail, "got (1, 2.5), want (1, 2)") != NULL);
  gd[1] = 2.0625f; /* off by 0.0625 <= 0.1 */
  CHECK(compare_literals(g, w, 0, 0.1, &r));
  gd[0] = 1.5f; /* now the real part is off */
  CHECK(!compare_literals(g, w, 0, 0.1, &r));
  gd[0] = 1; gd[1] = NAN; wd[1] = NAN;
  CHECK(compare_literals(g, w, 0, 0.1, &r));
  literal_free(g);
  literal_free(w);
  g = vec(T_C128, 1);
  w = vec(T_C128, 1);
  ((double *)w->data)[0] = INFINITY;
  ((double *)g->data)[0] = INFINITY;
  CHECK(compare_literals(g, w, 0, 0, &r));
  ((double *)g->data)[1] = 1e-300; /* imag 1e-300 vs 0, atol 0 */
  CHECK(!compare_literals(g, w, 0, 0, &r));
  literal_free(g);
  literal_free(w);
}

TEST(small_float_types) {
  /* bf16 near 1 has spacing 2^-7: 0x3f81 = 1.0078125. */
  Literal *g = vec(T_BF16, 1), *w = vec(T_BF16, 1);
  ((uint16_t *)w->data)[0] = 0x3f80;
  ((uint16_t *)g->data)[0] = 0x3f81;
  CompareReport r;
  CHECK(compare_literals(g, w, 0.01, 0, &r));
  CHECK(!compare_literals(g, w, 0.001, 0, &r));
  /* shortest text that reads back as the same bf16: "1.01" */
  CHECK(strstr(r.detail, "got 1.01, want 1") != NULL);
  literal_free(g);
  literal_free(w);
  /* f16: NaN 0x7e00 meets NaN 0x7c01; +inf 0x7c00 is not -inf 0xfc00. */
  g = vec(T_F16, 2);
  w = vec(T_F16, 2);
  ((uint16_t *)g->data)[0] = 0x7e00;
  ((uint16_t *)w->data)[0] = 0x7c01;
  ((uint16_t *)g->data)[1] = 0x7c00;
  ((uint16_t *)w->data)[1] = 0xfc00;
  CHECK(!compare_literals(g, w, 1, 1, &r));
  CHECK(r.mismatches == 1 && r.first == 1 && strstr(r.detail, "got inf, want -inf"));
  literal_free(g);
  literal_free(w);
  /* f8e4m3fn: 0x38 = 1.0, 0x39 = 1.125 (3 mantissa bits). */
  g = vec(T_F8E4M3FN, 1);
  w = vec(T_F8E4M3FN, 1);
  ((uint8_t *)w->data)[0] = 0x38;
  ((uint8_t *)g->data)[0] = 0x39;
  CHECK(!compare_literals(g, w, 0.1, 0, &r));
  CHECK(compare_literals(g, w, 0.2, 0, &r));
  CHECK(strcmp(r.detail, "") == 0);
  literal_free(g);
  literal_free(w);
}

TEST(format_helpers) {
  char buf[64];
  int64_t dims[3] = {2, 3, 4};
  format_index(3, dims, 23, buf, sizeof buf); /* 23 = 1*12 + 2*4 + 3 */
  CHECK(strcmp(buf, "[1,2,3]") == 0);
  format_index(3, dims, 0, buf, sizeof buf);
  CHECK(strcmp(buf, "[0,0,0]") == 0);
  format_index(0, NULL, 0, buf, sizeof buf);
  CHECK(strcmp(buf, "[]") == 0);
  format_shape(T_BF16, 3, dims, buf, sizeof buf);
  CHECK(strcmp(buf, "bf16[2,3,4]") == 0);
  format_shape(T_F32, 0, NULL, buf, sizeof buf);
  CHECK(strcmp(buf, "f32[]") == 0);

  Literal *f = vec(T_F32, 3);
  ((float *)f->data)[0] = 0.1f;
  ((float *)f->data)[1] = 1.0f / 3.0f;
  ((float *)f->data)[2] = -1e30f;
  literal_format_element(f, 0, buf, sizeof buf);
  CHECK(strcmp(buf, "0.1") == 0);
  literal_format_element(f, 1, buf, sizeof buf);
  CHECK(strcmp(buf, "0.33333334") == 0); /* 8 digits: within half an f32 ulp (2^-26) */
  literal_format_element(f, 2, buf, sizeof buf);
  CHECK(strcmp(buf, "-1e+30") == 0);
  literal_free(f);
  Literal *d = vec(T_F64, 1);
  ((double *)d->data)[0] = 1.0 / 3.0;
  literal_format_element(d, 0, buf, sizeof buf);
  CHECK(strcmp(buf, "0.3333333333333333") == 0); /* 16 digits round-trip */
  literal_free(d);
  Literal *s = vec(T_S8, 1);
  ((int8_t *)s->data)[0] = -5;
  literal_format_element(s, 0, buf, sizeof buf);
  CHECK(strcmp(buf, "-5") == 0);
  literal_free(s);
}

TEST(flatten_tuples) {
  Literal *a = vec(T_F32, 1), *b = vec(T_S32, 2), *c = vec(T_PRED, 3);
  Literal *inner = NULL, *empty = NULL, *outer = NULL;
  Literal *bc[2] = {b, c};
  CHECK_OK(literal_create_tuple(2, bc, &inner));
  CHECK_OK(literal_create_tuple(0, NULL, &empty));
  Literal *top[3] = {a, inner, empty};
  CHECK_OK(literal_create_tuple(3, top, &outer));
  Literal **leaves = NULL;
  int n = 0;
  CHECK_OK(literal_flatten(outer, &leaves, &n));
  CHECK(n == 3 && leaves[0] == a && leaves[1] == b && leaves[2] == c);
  cxla_free(leaves);
  CHECK_OK(literal_flatten(a, &leaves, &n));
  CHECK(n == 1 && leaves[0] == a);
  cxla_free(leaves);
  CompareReport r;
  CHECK(!compare_literals(outer, outer, 0, 0, &r) && r.mismatches == -1);
  literal_free(outer);
}

int main(void) {
  RUN(float_rule);
  RUN(f32_arrays_report_first_mismatch);
  RUN(integers_and_pred_exact);
  RUN(type_and_shape_mismatch);
  RUN(complex_parts_separately);
  RUN(small_float_types);
  RUN(format_helpers);
  RUN(flatten_tuples);
  return test_summary("test_compare");
}
