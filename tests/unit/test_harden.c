/* Regression tests for the bugs the run fuzzer (fuzz/fuzz_run.c) and the
 * mutation sweep (fuzz/mutate_sweep.c) found: each module verifies, and the
 * interpreter must refuse it with a status instead of reading or writing
 * out of bounds. (The inputs themselves are in tests/fuzz-regressions/run-*
 * and replayed by test_run_fuzz_replay under the sanitizers.) */
#include <stdlib.h>
#include <string.h>

#include "harness.h"
#include "interp/interp.h"

/* Parses and verifies text (both must succeed), runs it on zero-filled
 * arguments and returns the run's status. */
static cxla_status run_text(const char *text) {
  cxla_module *m = NULL;
  cxla_status s = cxla_module_parse(text, strlen(text), "t", &m);
  if (!s) s = cxla_module_verify(m);
  if (s) {
    fprintf(stderr, "setup failed: %s\n", cxla_status_message(s));
    cxla_status_free(s);
    cxla_module_destroy(m);
    return cxla_status_make(CXLA_INTERNAL, "test setup failed");
  }
  int n = m->entry->nparams;
  Literal *args[8] = {0};
  for (int i = 0; i < n && i < 8 && !s; i++)
    s = literal_create_for_shape(m->entry->params[i]->shape, &args[i]);
  Literal *out = NULL;
  if (!s) s = cxla_interp_run(m, args, n, &out);
  literal_free(out);
  for (int i = 0; i < 8; i++) literal_free(args[i]);
  cxla_module_destroy(m);
  return s;
}

#define LAPACK(result, target, operands, params)                                  \
  "HloModule m\nENTRY e {\n" params "  ROOT r = " result " custom-call(" operands \
  "), custom_call_target=\"" target "\"\n}\n"

/* A LAPACK custom-call's result shape is whatever the module declares; the
 * routines wrote min(m,n) pivots / the whole factor into it regardless. */
TEST(lapack_result_too_small) {
  CHECK_ERR(run_text(LAPACK("(f32[3,3], s32[3], s32[])", "lapack_sgetrf_ffi", "x",
                            "  x = f32[4,3] parameter(0)\n")),
            "must have 12 elements");
  CHECK_ERR(run_text(LAPACK("(f32[2,3,3], s32[2,2], s32[2])", "lapack_sgetrf_ffi", "x",
                            "  x = f32[2,3,3] parameter(0)\n")),
            "must have 6 elements");
  CHECK_ERR(run_text(LAPACK("(f32[2,2], s32[])", "lapack_spotrf_ffi", "x",
                            "  x = f32[3,3] parameter(0)\n")),
            "must have 9 elements");
  CHECK_ERR(run_text(LAPACK("(f32[2,3,3], s32[1])", "lapack_spotrf_ffi", "x",
                            "  x = f32[2,3,3] parameter(0)\n")),
            "must have 2 elements");
  CHECK_ERR(run_text(LAPACK("(f32[4,3], f32[2])", "lapack_sgeqrf_ffi", "x",
                            "  x = f32[4,3] parameter(0)\n")),
            "must have 3 elements");
  CHECK_ERR(run_text(LAPACK("(f32[3,3], f32[2], s32[])", "lapack_ssyevd_ffi", "x",
                            "  x = f32[3,3] parameter(0)\n")),
            "must have 3 elements");
  CHECK_ERR(run_text(LAPACK("(f32[3,3], f32[2], f32[3,3], f32[3,3], s32[])", "lapack_sgesdd_ffi",
                            "x", "  x = f32[3,3] parameter(0)\n")),
            "must have 3 elements");
  /* u's batch dimension disagrees with the operand's. */
  CHECK_ERR(run_text(LAPACK("(f32[2,3,3], f32[2,3], f32[1,3,3], f32[2,3,3], s32[2])",
                            "lapack_sgesdd_ffi", "x", "  x = f32[2,3,3] parameter(0)\n")),
            "u/vt shapes");
}

/* orgqr read tau for every batch of the operand: tau's batch dims must match. */
TEST(lapack_orgqr_tau_batch) {
  CHECK_ERR(run_text(LAPACK("f32[3,4,3]", "lapack_sorgqr_ffi", "x, tau",
                            "  x = f32[3,4,3] parameter(0)\n  tau = f32[1,3] parameter(1)\n")),
            "tau's batch");
}

/* The well-formed calls still run. */
TEST(lapack_fitting_results_run) {
  CHECK_OK(run_text(LAPACK("(f32[4,3], s32[3], s32[])", "lapack_sgetrf_ffi", "x",
                           "  x = f32[4,3] parameter(0)\n")));
  CHECK_OK(run_text(LAPACK("(f32[2,3,3], f32[2,3], f32[2,3,3], f32[2,3,3], s32[2])",
                           "lapack_sgesdd_ffi", "x", "  x = f32[2,3,3] parameter(0)\n")));
}

/* A custom call whose value does not have the declared shape (trsm returns
 * b's shape) is refused before a user can index it by the declared one. */
TEST(custom_call_value_must_have_declared_shape) {
  CHECK_ERR(run_text(LAPACK("f32[2,2]", "lapack_strsm_ffi", "a, b",
                            "  a = f32[3,3] parameter(0)\n  b = f32[3,3] parameter(1)\n")),
            "declared result shape");
  CHECK_OK(run_text(LAPACK("f32[3,3]", "lapack_strsm_ffi", "a, b",
                           "  a = f32[3,3] parameter(0)\n  b = f32[3,3] parameter(1)\n")));
}

/* Window sizes are bounded only by the padded input: their product
 * overflowed int64 (UB) before the windows were walked. With an empty
 * output nothing is walked and the result is empty; otherwise the count
 * is refused. */
TEST(window_count_overflow) {
  static const char mx[] =
      "HloModule m\nmx {\n a = f32[] parameter(0)\n b = f32[] parameter(1)\n"
      " ROOT c = f32[] maximum(a, b)\n}\n";
  char text[2048];
  snprintf(text, sizeof text,
           "%sENTRY e {\n op = f32[4,6] parameter(0)\n z = f32[] constant(-inf)\n"
           " ROOT r = f32[0,3] reduce-window(op, z), window={size=9223372036854775807x3 "
           "stride=1x2 pad=0_0x1_1}, to_apply=mx\n}\n",
           mx);
  CHECK_OK(run_text(text));
  snprintf(text, sizeof text,
           "%sENTRY e {\n op = f32[1,1] parameter(0)\n z = f32[] constant(-inf)\n"
           " ROOT r = f32[1,1] reduce-window(op, z), window={size=4294967296x4294967296 "
           "stride=8589934592x8589934592 pad=0_4294967296x0_4294967296}, to_apply=mx\n}\n",
           mx);
  CHECK_ERR(run_text(text), "more than 2^63");
  snprintf(text, sizeof text,
           "HloModule m\nge {\n a = f32[] parameter(0)\n b = f32[] parameter(1)\n"
           " ROOT c = pred[] compare(a, b), direction=GE\n}\n"
           "add {\n a = f32[] parameter(0)\n b = f32[] parameter(1)\n"
           " ROOT c = f32[] add(a, b)\n}\n"
           "ENTRY e {\n op = f32[1,1] parameter(0)\n src = f32[1,1] parameter(1)\n"
           " z = f32[] constant(0)\n ROOT r = f32[1,1] select-and-scatter(op, src, z), "
           "window={size=4294967296x4294967296 stride=8589934592x8589934592 "
           "pad=0_4294967296x0_4294967296}, select=ge, scatter=add\n}\n");
  CHECK_ERR(run_text(text), "more than 2^63");
}

/* pad's interior padding is unused (and unbounded by the verifier) along a
 * dimension of one element; interior + 1 overflowed. */
TEST(pad_huge_interior_single_element) {
  static const char text[] =
      "HloModule m\nENTRY e {\n x = f32[1] parameter(0)\n z = f32[] constant(7)\n"
      " ROOT p = f32[3] pad(x, z), padding=1_1_9223372036854775807\n}\n";
  cxla_module *m = NULL;
  CHECK_OK(cxla_module_parse(text, sizeof text - 1, "t", &m));
  if (!m) return;
  CHECK_OK(cxla_module_verify(m));
  int64_t d = 1;
  Literal *x = NULL, *out = NULL;
  CHECK_OK(literal_create(T_F32, 1, &d, &x));
  if (x) {
    *(float *)x->data = 5;
    CHECK_OK(cxla_interp_run(m, &x, 1, &out));
  }
  /* [pad, x, pad] */
  CHECK(out && out->nelems == 3 && ((float *)out->data)[0] == 7 && ((float *)out->data)[1] == 5 &&
        ((float *)out->data)[2] == 7);
  literal_free(out);
  literal_free(x);
  cxla_module_destroy(m);
}

/* slice with a huge stride that takes one element: ceil((limit - start) /
 * stride) and stride * operand stride overflowed. x[1][2][1] of iota. */
TEST(slice_huge_stride) {
  static const char text[] =
      "HloModule m\nENTRY e {\n x = s32[2,4,3] iota(), iota_dimension=0\n"
      " y = s32[2,4,3] iota(), iota_dimension=1\n z = s32[2,4,3] iota(), iota_dimension=2\n"
      " c10 = s32[] constant(10)\n c100 = s32[] constant(100)\n"
      " ten = s32[2,4,3] broadcast(c10), dimensions={}\n"
      " hundred = s32[2,4,3] broadcast(c100), dimensions={}\n"
      " a = s32[2,4,3] multiply(x, hundred)\n b = s32[2,4,3] multiply(y, ten)\n"
      " ab = s32[2,4,3] add(a, b)\n v = s32[2,4,3] add(ab, z)\n"
      " ROOT s = s32[1,1,1] slice(v), slice={[1:2:2], [2:4:9223372036854775807], [1:2:2]}\n}\n";
  cxla_module *m = NULL;
  CHECK_OK(cxla_module_parse(text, sizeof text - 1, "t", &m));
  if (!m) return;
  CHECK_OK(cxla_module_verify(m));
  Literal *out = NULL;
  CHECK_OK(cxla_interp_run(m, NULL, 0, &out));
  CHECK(out && out->nelems == 1 && *(int32_t *)out->data == 121);
  literal_free(out);
  cxla_module_destroy(m);
}

/* pad with low/high padding near the int64 limits (valid: they sum with
 * the operand to a valid size): dims - 1 - lo, -lo and their quotients
 * overflowed. Results: 7 elements of [pad x pad ...], or empty. */
TEST(pad_extreme_low_high) {
  static const char *const texts[] = {
      /* lo = -1, hi = MAX: MAX x 0 x 1 result (empty) */
      "HloModule m\nENTRY e {\n x = pred[1,1,1] parameter(0)\n t = pred[] constant(true)\n"
      " ROOT p = pred[9223372036854775807,0,1] pad(x, t), "
      "padding=-1_9223372036854775807_1x0_-1_1x0_0\n}\n",
      /* lo = MIN, hi = MAX, n = 1: size 0 */
      "HloModule m\nENTRY e {\n x = f32[1] parameter(0)\n z = f32[] constant(0)\n"
      " ROOT p = f32[0] pad(x, z), padding=-9223372036854775808_9223372036854775807\n}\n",
      /* n = 2, lo = -10, hi = MAX: dims - lo overflows, result huge but the
       * other dimension is empty */
      "HloModule m\nENTRY e {\n x = f32[2,0] parameter(0)\n z = f32[] constant(0)\n"
      " ROOT p = f32[9223372036854775799,0] pad(x, z), "
      "padding=-10_9223372036854775807x0_0\n}\n",
  };
  for (int k = 0; k < 3; k++) {
    cxla_module *m = NULL;
    CHECK_OK(cxla_module_parse(texts[k], strlen(texts[k]), "t", &m));
    if (!m) continue;
    CHECK_OK(cxla_module_verify(m));
    Literal *x = NULL, *out = NULL;
    CHECK_OK(literal_create_for_shape(m->entry->params[0]->shape, &x));
    if (x) CHECK_OK(cxla_interp_run(m, &x, 1, &out));
    CHECK(out && out->nelems == 0);
    literal_free(out);
    literal_free(x);
    cxla_module_destroy(m);
  }
  /* Cropping by -3 with interior 1 from [1 2 3 4]: [1 _ 2 _ 3 _ 4] -> [_ 3 _ 4]. */
  static const char crop[] =
      "HloModule m\nENTRY e {\n x = s32[4] iota(), iota_dimension=0\n z = s32[] constant(-1)\n"
      " ROOT p = s32[4] pad(x, z), padding=-3_0_1\n}\n";
  cxla_module *m = NULL;
  CHECK_OK(cxla_module_parse(crop, sizeof crop - 1, "t", &m));
  Literal *out = NULL;
  if (m) CHECK_OK(cxla_interp_run(m, NULL, 0, &out));
  const int32_t want[4] = {-1, 2, -1, 3};
  CHECK(out && out->nelems == 4 && memcmp(out->data, want, sizeof want) == 0);
  literal_free(out);
  cxla_module_destroy(m);
}

/* Runs a regression file of tests/fuzz-regressions on zero arguments. */
static cxla_status run_file(const char *name, Literal **out) {
  char path[512];
  snprintf(path, sizeof path, "tests/fuzz-regressions/%s", name);
  cxla_module *m = NULL;
  cxla_status s = cxla_module_parse_file(path, &m);
  if (!s) s = cxla_module_verify(m);
  Literal *args[4] = {0};
  int n = m ? m->entry->nparams : 0;
  for (int i = 0; !s && i < n && i < 4; i++)
    s = literal_create_for_shape(m->entry->params[i]->shape, &args[i]);
  if (!s) s = cxla_interp_run(m, args, n, out);
  for (int i = 0; i < 4; i++) literal_free(args[i]);
  cxla_module_destroy(m);
  return s;
}

/* Windows with pad_lo = INT64_MIN (and pad_hi = INT64_MAX, so the padded
 * size is valid): position - pad_lo overflowed. Every window position then
 * lies past the input: reduce-window gives its init value, convolution
 * zeros, select-and-scatter scatters nothing. */
TEST(window_pad_lo_int64_min) {
  Literal *out = NULL;
  CHECK_OK(run_file("run-reduce-window-pad-lo-int64-min.hlo", &out));
  CHECK(out && out->nelems == 3);
  for (int i = 0; out && i < 3; i++) CHECK(isinf(((float *)out->data)[i]) && ((float *)out->data)[i] < 0);
  literal_free(out);
  out = NULL;
  static const float zeros[4] = {0, 0, 0, 0};
  CHECK_OK(run_file("run-conv-pad-lo-int64-min.hlo", &out));
  CHECK(out && out->nelems == 3 && memcmp(out->data, zeros, 3 * sizeof(float)) == 0);
  literal_free(out);
  out = NULL;
  CHECK_OK(run_file("run-select-and-scatter-pad-lo-int64-min.hlo", &out));
  CHECK(out && out->nelems == 4 && memcmp(out->data, zeros, sizeof zeros) == 0);
  literal_free(out);
}

/* dot contracting over an empty dimension with a non-empty result: the
 * packed operands have no buffer, and the kernel offset a NULL pointer
 * (UB). The result is zeros. */
TEST(dot_empty_contraction) {
  static const char *const texts[] = {
      "HloModule m\nENTRY e {\n a = f64[4,3,0] parameter(0)\n"
      " ROOT d = f64[4,3,3] dot(a, a), lhs_batch_dims={0}, lhs_contracting_dims={2}, "
      "rhs_batch_dims={0}, rhs_contracting_dims={2}\n}\n",
      "HloModule m\nENTRY e {\n a = s32[3,0] parameter(0)\n b = s32[0,2] parameter(1)\n"
      " ROOT d = s32[3,2] dot(a, b), lhs_contracting_dims={1}, rhs_contracting_dims={0}\n}\n",
      "HloModule m\nENTRY e {\n a = c64[2,0] parameter(0)\n"
      " ROOT d = c64[2,2] dot(a, a), lhs_contracting_dims={1}, rhs_contracting_dims={1}\n}\n",
  };
  static const size_t bytes[] = {36 * 8, 6 * 4, 4 * 8};
  static const unsigned char zeros[512];
  for (int k = 0; k < 3; k++) {
    cxla_module *m = NULL;
    CHECK_OK(cxla_module_parse(texts[k], strlen(texts[k]), "t", &m));
    if (!m) continue;
    CHECK_OK(cxla_module_verify(m));
    Literal *args[2] = {0}, *out = NULL;
    for (int i = 0; i < m->entry->nparams; i++)
      CHECK_OK(literal_create_for_shape(m->entry->params[i]->shape, &args[i]));
    CHECK_OK(cxla_interp_run(m, args, m->entry->nparams, &out));
    CHECK(out && (size_t)(out->nelems * type_bytes(out->type)) == bytes[k] &&
          memcmp(out->data, zeros, bytes[k]) == 0);
    literal_free(out);
    for (int i = 0; i < 2; i++) literal_free(args[i]);
    cxla_module_destroy(m);
  }
}

int main(void) {
  RUN(lapack_result_too_small);
  RUN(lapack_orgqr_tau_batch);
  RUN(lapack_fitting_results_run);
  RUN(custom_call_value_must_have_declared_shape);
  RUN(window_count_overflow);
  RUN(pad_huge_interior_single_element);
  RUN(slice_huge_stride);
  RUN(pad_extreme_low_high);
  RUN(window_pad_lo_int64_min);
  RUN(dot_empty_contraction);
  return test_summary(__FILE__);
}
