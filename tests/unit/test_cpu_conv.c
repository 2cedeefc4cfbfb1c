/* The CPU backend's convolutions through im2col + BLAS (src/cpu/conv.c)
 * against the interpreter (src/interp/conv.c, the definition): dim_labels
 * orders, strides, padding (negative too), lhs and rhs dilation, window
 * reversal, feature groups, 1-3 spatial dims, f32 and f64, non-finite
 * operands, inside an output fusion. Each module must take the GEMM path
 * (the compile statistics count it) and agree with the interpreter within
 * a tolerance for the different summation order. */
#include <stdint.h>
#include <stdlib.h>

#include "harness.h"
#include "cpu/cpu.h"
#include "cpu/cpu_internal.h"
#include "interp/interp.h"
#include "runtime/threadpool.h"
#include "verify/verify.h"

/* Deterministic arguments in [-1, 1) (xorshift), one per entry parameter. */
static cxla_status make_args(const HloModule *m, uint64_t seed, Literal ***out) {
  const Computation *c = m->entry;
  Literal **a = cxla_calloc((size_t)(c->nparams ? c->nparams : 1), sizeof *a);
  if (!a) return cxla_oom();
  uint64_t x = seed * 0x9E3779B97F4A7C15ull + 1;
  for (int i = 0; i < c->nparams; i++) {
    cxla_status s = literal_create_for_shape(c->params[i]->shape, &a[i]);
    if (s) {
      for (int k = 0; k < i; k++) literal_free(a[k]);
      cxla_free(a);
      return s;
    }
    for (int64_t e = 0; e < a[i]->nelems; e++) {
      x ^= x << 13, x ^= x >> 7, x ^= x << 17;
      double v = (double)(x >> 11) / 9007199254740992.0 * 2 - 1;
      literal_set_f64(a[i], e, v);
    }
  }
  *out = a;
  return NULL;
}

/* |got - want| <= tol * (1 + max |want|) elementwise; NaN matches NaN. */
static bool agree(const Literal *want, const Literal *got, double tol) {
  if (want->nelems != got->nelems || want->type != got->type) return false;
  double mx = 0;
  for (int64_t i = 0; i < want->nelems; i++) {
    double w = literal_get_f64(want, i);
    if (isfinite(w) && fabs(w) > mx) mx = fabs(w);
  }
  for (int64_t i = 0; i < want->nelems; i++) {
    double w = literal_get_f64(want, i), g = literal_get_f64(got, i);
    if (isnan(w) || isnan(g)) {
      if (isnan(w) != isnan(g)) {
        fprintf(stderr, "  element %lld: %g vs %g\n", (long long)i, w, g);
        return false;
      }
      continue;
    }
    if (w == g) continue;
    if (!(fabs(w - g) <= tol * (1 + mx))) {
      fprintf(stderr, "  element %lld: want %.9g got %.9g\n", (long long)i, w, g);
      return false;
    }
  }
  return true;
}

/* Runs `text` on both backends, the cpu one on the calling thread and on
 * a pool of 3 threads (the im2col blocks, padded copies and per-position
 * GEMMs split over it); poison: first argument element set to this value
 * (NaN / inf) when nonzero. Expects `gemm_convs` convolutions to take the
 * GEMM path, of them shift_convs the shifted and phased_convs the phased
 * one, and direct_convs to run on the direct kernel (dconv.c) where the
 * machine has AVX-512, and wgrad_convs (unless negative) on the direct
 * weight-gradient kernel (wgrad.c). */
static bool check_conv_isa(const char *name, const char *text, int gemm_convs, int shift_convs,
                           int phased_convs, int direct_convs, int wgrad_convs, double poison) {
  cxla_module *m = NULL;
  Literal **args = NULL, *want = NULL, *got = NULL, *got_pool = NULL;
  CpuExecutable *x = NULL;
  RtPool *pool = NULL;
  bool ok = false;
  cxla_status s = cxla_module_parse(text, strlen(text), name, &m);
  if (!s) s = verify_module(m);
  if (!s) s = make_args(m, 7, &args);
  if (!s) s = rt_pool_create(3, &pool);
  if (!s && poison != 0) {
    if (args[0]->type == T_F32) ((float *)args[0]->data)[0] = (float)poison;
    else ((double *)args[0]->data)[0] = poison;
  }
  if (!s) s = cxla_interp_run(m, args, m->entry->nparams, &want);
  if (!s) s = cpu_compile(m, NULL, &x);
  /* pooled first: no buffer a previous run left its results in */
  if (!s) {
    CpuExecOptions o = {.pool = pool};
    s = cpu_execute_opts(x, args, m->entry->nparams, &o, &got_pool);
  }
  if (!s) s = cpu_execute(x, args, m->entry->nparams, &got);
  if (s) {
    fprintf(stderr, "%s: %s\n", name, cxla_status_message(s));
  } else {
    /* bf16: the emitter may round partial sums to bf16, the interpreter not */
    double tol = want->type == T_F64 ? 1e-12 : want->type == T_BF16 ? 5e-2 : 1e-5;
    ok = agree(want, got, tol);
    if (!ok) fprintf(stderr, "%s: results differ\n", name);
    if (!agree(want, got_pool, tol)) {
      fprintf(stderr, "%s: results on 3 threads differ\n", name);
      ok = false;
    }
    if (cpu_executable_stats(x)->nconvs != gemm_convs) {
      fprintf(stderr, "%s: %d GEMM convolutions, expected %d\n", name, cpu_executable_stats(x)->nconvs,
              gemm_convs);
      ok = false;
    }
    if (cpu_executable_stats(x)->nconvs_shift != shift_convs) {
      fprintf(stderr, "%s: %d shifted-GEMM convolutions, expected %d\n", name,
              cpu_executable_stats(x)->nconvs_shift, shift_convs);
      ok = false;
    }
    /* the direct kernel needs AVX-512 or AVX2: elsewhere none is expected */
    int want_direct = dconv_available() ? direct_convs : 0;
    if (cpu_executable_stats(x)->nconvs_direct != want_direct) {
      fprintf(stderr, "%s: %d direct convolutions, expected %d\n", name, cpu_executable_stats(x)->nconvs_direct,
              want_direct);
      ok = false;
    }
    if (cpu_executable_stats(x)->nconvs_phased != phased_convs) {
      fprintf(stderr, "%s: %d phased convolutions, expected %d\n", name, cpu_executable_stats(x)->nconvs_phased,
              phased_convs);
      ok = false;
    }
    if (wgrad_convs >= 0 && cpu_executable_stats(x)->nconvs_wgrad != wgrad_convs) {
      fprintf(stderr, "%s: %d direct weight-gradient convolutions, expected %d\n", name,
              cpu_executable_stats(x)->nconvs_wgrad, wgrad_convs);
      ok = false;
    }
  }
  cxla_status_free(s);
  if (args)
    for (int i = 0; i < m->entry->nparams; i++) literal_free(args[i]);
  cxla_free(args);
  literal_free(want);
  literal_free(got);
  literal_free(got_pool);
  rt_pool_destroy(pool);
  cpu_executable_destroy(x);
  cxla_module_destroy(m);
  return ok;
}

/* check_conv_isa on the machine's best direct kernels, then on the AVX2
 * ones (CXLA_CPU_CONV_ISA=avx2: the same where the CPU has no AVX-512). */
static bool check_conv_all(const char *name, const char *text, int gemm_convs, int shift_convs,
                           int phased_convs, int direct_convs, int wgrad_convs, double poison) {
  if (!check_conv_isa(name, text, gemm_convs, shift_convs, phased_convs, direct_convs, wgrad_convs, poison))
    return false;
  setenv("CXLA_CPU_CONV_ISA", "avx2", 1);
  bool ok = check_conv_isa(name, text, gemm_convs, shift_convs, phased_convs, direct_convs, wgrad_convs, poison);
  unsetenv("CXLA_CPU_CONV_ISA");
  if (!ok) fprintf(stderr, "%s: with CXLA_CPU_CONV_ISA=avx2\n", name);
  return ok;
}

/* check_conv_all not counting the direct weight-gradient kernel. */
static bool check_conv_paths(const char *name, const char *text, int gemm_convs, int shift_convs,
                             int phased_convs, int direct_convs, double poison) {
  return check_conv_all(name, text, gemm_convs, shift_convs, phased_convs, direct_convs, -1, poison);
}

/* check_conv_all for weight-gradient (shifted) convolutions, which never
 * take the forward direct kernel. */
static bool check_conv_wgrad(const char *name, const char *text, int gemm_convs, int shift_convs,
                             int phased_convs, int wgrad_convs, double poison) {
  return check_conv_all(name, text, gemm_convs, shift_convs, phased_convs, 0, wgrad_convs, poison);
}

/* check_conv_paths with no convolution expected on the shifted or phased
 * paths. */
static bool check_conv(const char *name, const char *text, int gemm_convs, int direct_convs, double poison) {
  return check_conv_paths(name, text, gemm_convs, 0, 0, direct_convs, poison);
}

#define CONV_MODULE(T, XS, KS, OS, ATTRS)                                                       \
  "HloModule m\n\nENTRY e {\n  x = " T XS " parameter(0)\n  k = " T KS " parameter(1)\n"        \
  "  ROOT c = " T OS " convolution(x, k), " ATTRS "\n}\n"

TEST(nhwc_same_padding) {
  CHECK(check_conv("nhwc", CONV_MODULE("f32", "[2,6,7,8]", "[3,3,8,16]", "[2,6,7,16]",
                                       "window={size=3x3 pad=1_1x1_1}, dim_labels=b01f_01io->b01f"),
                   1, 1, 0));
  CHECK(check_conv("nhwc_f64", CONV_MODULE("f64", "[2,6,7,8]", "[3,3,8,16]", "[2,6,7,16]",
                                           "window={size=3x3 pad=1_1x1_1}, dim_labels=b01f_01io->b01f"),
                   1, 0, 0));
}

TEST(nchw_and_other_label_orders) {
  CHECK(check_conv("nchw", CONV_MODULE("f32", "[2,8,6,7]", "[16,8,3,3]", "[2,16,6,7]",
                                       "window={size=3x3 pad=1_1x1_1}, dim_labels=bf01_oi01->bf01"),
                   1, 1, 0));
  /* features between the spatial dims: a strided repack of the input */
  CHECK(check_conv("b0f1", CONV_MODULE("f32", "[2,6,8,7]", "[16,8,3,3]", "[2,6,7,16]",
                                       "window={size=3x3 pad=1_1x1_1}, dim_labels=b0f1_oi01->b01f"),
                   1, 1, 0));
  /* NCHW with more positions per image than a block: several blocks per
   * image, the output written transposed by the GEMM */
  CHECK(check_conv("nchw_blocks", CONV_MODULE("f64", "[2,4,30,40]", "[8,4,3,3]", "[2,8,30,40]",
                                              "window={size=3x3 pad=1_1x1_1}, dim_labels=bf01_oi01->bf01"),
                   1, 0, 0));
  /* output with features outermost: written transposed */
  CHECK(check_conv("to_fb01", CONV_MODULE("f32", "[2,6,7,8]", "[3,3,8,16]", "[16,2,6,7]",
                                          "window={size=3x3 pad=1_1x1_1}, dim_labels=b01f_01io->fb01"),
                   1, 1, 0));
  /* kernel with output features first, spatial dims swapped in the input */
  CHECK(check_conv("swapped", CONV_MODULE("f32", "[4,7,6,8]", "[16,3,2,8]", "[4,6,6,16]",
                                          "window={size=3x2 pad=1_1x0_0}, dim_labels=b10f_o01i->b01f"),
                   1, 1, 0));
}

TEST(strides_padding_dilation_reversal) {
  CHECK(check_conv("stride2", CONV_MODULE("f32", "[4,9,9,8]", "[3,3,8,16]", "[4,4,4,16]",
                                          "window={size=3x3 stride=2x2 pad=0_0x0_1}, dim_labels=b01f_01io->b01f"),
                   1, 1, 0));
  CHECK(check_conv("negative_pad", CONV_MODULE("f32", "[2,9,9,8]", "[3,3,8,16]", "[2,6,8,16]",
                                               "window={size=3x3 pad=-1_0x0_1}, dim_labels=b01f_01io->b01f"),
                   1, 1, 0));
  /* lhs dilation with stride: im2col over the dilated input */
  CHECK(check_conv("lhs_dilate_stride", CONV_MODULE("f32", "[4,9,9,16]", "[3,3,16,16]", "[4,9,9,16]",
                                                    "window={size=3x3 stride=2x2 pad=1_2x1_2 lhs_dilate=2x2}, "
                                                    "dim_labels=b01f_01io->b01f"),
                   1, 0, 0));
  CHECK(check_conv("rhs_dilate", CONV_MODULE("f64", "[4,9,9,16]", "[3,3,16,16]", "[4,5,9,16]",
                                             "window={size=3x3 pad=0_0x2_2 rhs_dilate=2x2}, "
                                             "dim_labels=b01f_01io->b01f"),
                   1, 0, 0));
}

TEST(groups_and_ranks) {
  CHECK(check_conv("groups2", CONV_MODULE("f32", "[2,6,6,16]", "[3,3,8,16]", "[2,6,6,16]",
                                          "window={size=3x3 pad=1_1x1_1}, dim_labels=b01f_01io->b01f, "
                                          "feature_group_count=2"),
                   1, 0, 0));
  CHECK(check_conv("conv1d", CONV_MODULE("f32", "[4,40,16]", "[5,16,12]", "[4,36,12]",
                                         "window={size=5}, dim_labels=b0f_0io->b0f"),
                   1, 0, 0));
  CHECK(check_conv("conv3d", CONV_MODULE("f32", "[1,5,6,7,4]", "[2,3,3,4,8]", "[1,4,6,7,8]",
                                         "window={size=2x3x3 pad=0_0x1_1x1_1}, dim_labels=b012f_012io->b012f"),
                   1, 0, 0));
  /* a window wider than im2col's offset table (32 taps), strided */
  CHECK(check_conv("wide_window", CONV_MODULE("f32", "[2,100,4]", "[40,4,8]", "[2,31,8]",
                                              "window={size=40 stride=2}, dim_labels=b0f_0io->b0f"),
                   1, 0, 0));
  /* 1x1: the input is the GEMM's left matrix */
  CHECK(check_conv("pointwise", CONV_MODULE("f32", "[4,6,7,16]", "[1,1,16,32]", "[4,6,7,32]",
                                            "window={size=1x1}, dim_labels=b01f_01io->b01f"),
                   1, 1, 0));
}

TEST(non_finite_operands) {
  CHECK(check_conv("nan", CONV_MODULE("f32", "[2,6,7,8]", "[3,3,8,16]", "[2,6,7,16]",
                                      "window={size=3x3 pad=1_1x1_1}, dim_labels=b01f_01io->b01f"),
                   1, 1, NAN));
  CHECK(check_conv("inf", CONV_MODULE("f64", "[2,6,7,8]", "[3,3,8,16]", "[2,6,7,16]",
                                      "window={size=3x3 pad=1_1x1_1}, dim_labels=b01f_01io->b01f"),
                   1, 0, INFINITY));
}

TEST(small_and_depthwise_stay_with_the_emitter) {
  /* depthwise: one input feature per group, not a GEMM */
  CHECK(check_conv("depthwise", CONV_MODULE("f32", "[2,6,6,8]", "[3,3,1,8]", "[2,6,6,8]",
                                            "window={size=3x3 pad=1_1x1_1}, dim_labels=b01f_01io->b01f, "
                                            "feature_group_count=8"),
                   0, 0, 0));
  CHECK(check_conv("tiny", CONV_MODULE("f32", "[1,3,3,1]", "[2,2,1,1]", "[1,2,2,1]",
                                       "window={size=2x2}, dim_labels=b01f_01io->b01f"),
                   0, 0, 0));
}

/* The weight-gradient form (window nearly the whole input, few output
 * positions, the batch contracted): one GEMM per output position over
 * zero-padded copies. */
TEST(weight_gradient_shifted_gemms) {
  CHECK(check_conv_paths("wgrad", CONV_MODULE("f32", "[3,12,12,5]", "[3,12,12,8]", "[3,3,5,8]",
                                              "window={size=12x12 pad=1_1x1_1}, dim_labels=f01b_i01o->01bf"),
                         1, 1, 0, 0, 0));
  /* asymmetric padding, f64, output features not innermost (scattered) */
  CHECK(check_conv_paths("wgrad_f64", CONV_MODULE("f64", "[3,16,11,4]", "[3,16,11,8]", "[4,8,3,2]",
                                                  "window={size=16x11 pad=0_2x1_0}, dim_labels=f01b_i01o->bf01"),
                         1, 1, 0, 0, 0));
  /* 1-D, operands with batch / output features not innermost */
  CHECK(check_conv_paths("wgrad_1d", CONV_MODULE("f32", "[16,5,100]", "[6,16,98]", "[3,5,6]",
                                                 "window={size=98}, dim_labels=fb0_oi0->0bf"),
                         1, 1, 0, 0, 0));
  CHECK(check_conv_paths("wgrad_nan", CONV_MODULE("f32", "[3,12,12,5]", "[3,12,12,8]", "[3,3,5,8]",
                                                  "window={size=12x12 pad=1_1x1_1}, dim_labels=f01b_i01o->01bf"),
                         1, 1, 0, 0, NAN));
}

/* Where the shifted path must not fire: strides, dilation, reversal,
 * negative padding, feature groups, small windows (ordinary convolutions
 * are covered above with none expected). */
TEST(weight_gradient_shifted_gemms_not_taken) {
  CHECK(check_conv_paths("wgrad_stride", CONV_MODULE("f32", "[3,13,13,5]", "[3,12,12,8]", "[2,2,5,8]",
                                                     "window={size=12x12 stride=2x1 pad=1_1x0_0}, "
                                                     "dim_labels=f01b_i01o->01bf"),
                         1, 0, 0, 0, 0));
  CHECK(check_conv_paths("wgrad_rhs_dilate", CONV_MODULE("f32", "[3,25,25,5]", "[3,12,12,8]", "[3,3,5,8]",
                                                         "window={size=12x12 pad=0_0x0_0 rhs_dilate=2x2}, "
                                                         "dim_labels=f01b_i01o->01bf"),
                         1, 0, 0, 0, 0));
  CHECK(check_conv_paths("wgrad_reversed", CONV_MODULE("f32", "[3,12,12,5]", "[3,12,12,8]", "[3,3,5,8]",
                                                       "window={size=12x12 pad=1_1x1_1 rhs_reversal=1x0}, "
                                                       "dim_labels=f01b_i01o->01bf"),
                         1, 0, 0, 0, 0));
  CHECK(check_conv_paths("wgrad_negative_pad", CONV_MODULE("f32", "[3,14,14,5]", "[3,12,12,8]", "[2,3,5,8]",
                                                           "window={size=12x12 pad=-1_0x0_0}, "
                                                           "dim_labels=f01b_i01o->01bf"),
                         1, 0, 0, 0, 0));
  CHECK(check_conv_paths("wgrad_groups", CONV_MODULE("f32", "[6,12,12,5]", "[3,12,12,8]", "[3,3,5,8]",
                                                     "window={size=12x12 pad=1_1x1_1}, dim_labels=f01b_i01o->01bf, "
                                                     "feature_group_count=2"),
                         1, 0, 0, 0, 0));
  /* padding worth more than half the window: im2col */
  CHECK(check_conv_paths("wgrad_wide_pad", CONV_MODULE("f32", "[3,6,6,5]", "[3,6,6,8]", "[5,5,5,8]",
                                                       "window={size=6x6 pad=2_2x2_2}, dim_labels=f01b_i01o->01bf"),
                         1, 0, 0, 0, 0));
}

/* The direct weight-gradient kernel (src/cpu/wgrad.c), taken by f32
 * window-sum convolutions whose rhs output features are contiguous on a
 * CPU with AVX-512F or AVX2 (elsewhere: the shifted GEMMs, same results;
 * each case also capped at AVX2, check_conv_all):
 * output features not a multiple of 16 or of 64 (masked lanes, two
 * blocks), lhs batch sizes that leave a narrower last tile, one output
 * batch, padding on one side only or none, windows whose edge rows read
 * only padding, few and many rhs rows (one chunk, two, sixteen), 1-D, the lhs
 * batch outermost, the output features not innermost. Each on one thread
 * and on three. */
#define WG(n) (wgrad_available() ? (n) : 0)
TEST(weight_gradient_direct_kernel) {
  CHECK(check_conv_wgrad("wg_o70_b13", CONV_MODULE("f32", "[3,10,9,13]", "[3,10,9,70]", "[3,3,13,70]",
                                                   "window={size=10x9 pad=1_1x1_1}, dim_labels=f01b_i01o->01bf"),
                         1, 1, 0, WG(1), 0));
  CHECK(check_conv_wgrad("wg_o40_b20", CONV_MODULE("f32", "[2,8,8,20]", "[2,8,8,40]", "[3,2,20,40]",
                                                   "window={size=8x8 pad=2_0x0_1}, dim_labels=f01b_i01o->01bf"),
                         1, 1, 0, WG(1), 0));
  CHECK(check_conv_wgrad("wg_o20_b1", CONV_MODULE("f32", "[12,12,12,1]", "[12,12,12,20]", "[3,3,1,20]",
                                                  "window={size=12x12 pad=1_1x1_1}, dim_labels=f01b_i01o->01bf"),
                         1, 1, 0, WG(1), 0));
  /* a batch of 2 and 16 output features: the window columns summed in 4
   * sets (11 columns, clipped by the padding: sets left short) */
  CHECK(check_conv_wgrad("wg_o16_b2", CONV_MODULE("f32", "[5,11,11,2]", "[5,11,11,16]", "[3,3,2,16]",
                                                  "window={size=11x11 pad=1_1x1_1}, dim_labels=f01b_i01o->01bf"),
                         1, 1, 0, WG(1), 0));
  CHECK(check_conv_wgrad("wg_o64_b64_no_pad", CONV_MODULE("f32", "[4,6,6,64]", "[4,5,5,64]", "[2,2,64,64]",
                                                          "window={size=5x5}, dim_labels=f01b_i01o->01bf"),
                         1, 1, 0, WG(1), 0));
  CHECK(check_conv_wgrad("wg_o16_b7_f1", CONV_MODULE("f32", "[1,9,9,7]", "[1,9,9,16]", "[3,3,7,16]",
                                                     "window={size=9x9 pad=1_1x1_1}, dim_labels=f01b_i01o->01bf"),
                         1, 1, 0, WG(1), 0));
  CHECK(check_conv_wgrad("wg_1d", CONV_MODULE("f32", "[2,100,5]", "[2,98,24]", "[3,5,24]",
                                              "window={size=98}, dim_labels=f0b_i0o->0bf"),
                         1, 1, 0, WG(1), 0));
  CHECK(check_conv_wgrad("wg_1d_one_row", CONV_MODULE("f32", "[1,300,5]", "[1,296,24]", "[5,5,24]",
                                                      "window={size=296}, dim_labels=f0b_i0o->0bf"),
                         1, 1, 0, WG(1), 0));
  CHECK(check_conv_wgrad("wg_batch_outer_out_nchw", CONV_MODULE("f32", "[6,12,12,3]", "[3,12,12,24]", "[6,24,3,3]",
                                                                "window={size=12x12 pad=1_1x1_1}, "
                                                                "dim_labels=b01f_i01o->bf01"),
                         1, 1, 0, WG(1), 0));
  /* few accumulators per position (lhs batch x output vectors <= 2): the
   * position tiles, over a zero-padded lhs: 12 positions per tile and a
   * partial last one (4 x 4 outputs), two vectors of features with
   * masked lanes, 1-D, padding on one side only; and non-finite values
   * in the rhs (no scan first): where they meet the padding the
   * interpreter skips the tap, the kernel's 0 x inf gives NaN, and the
   * result is computed again on the direct loop */
  CHECK(check_conv_wgrad("wp_o16_b1_4x4", CONV_MODULE("f32", "[2,20,20,1]", "[2,20,20,16]", "[4,4,1,16]",
                                                      "window={size=20x20 pad=1_2x1_2}, dim_labels=f01b_i01o->01bf"),
                         1, 1, 0, WG(1), 0));
  CHECK(check_conv_wgrad("wp_o24_b1_pad_lo", CONV_MODULE("f32", "[8,10,9,1]", "[8,10,9,24]", "[3,2,1,24]",
                                                         "window={size=10x9 pad=2_0x0_1}, dim_labels=f01b_i01o->01bf"),
                         1, 1, 0, WG(1), 0));
  CHECK(check_conv_wgrad("wp_1d", CONV_MODULE("f32", "[20,40,1]", "[20,36,30]", "[5,1,30]",
                                              "window={size=36}, dim_labels=f0b_i0o->0bf"),
                         1, 1, 0, WG(1), 0));
  /* (the rhs the first parameter: the one poisoned) */
  static const char rhs_first[] = "HloModule m\n\nENTRY e {\n  k = f32[8,10,9,16] parameter(0)\n"
                                  "  x = f32[8,10,9,1] parameter(1)\n  ROOT c = f32[3,3,1,16] convolution(x, k), "
                                  "window={size=10x9 pad=1_1x1_1}, dim_labels=f01b_i01o->01bf\n}\n";
  CHECK(check_conv_wgrad("wp_rhs_inf", rhs_first, 1, 1, 0, WG(1), INFINITY));
  CHECK(check_conv_wgrad("wp_rhs_nan", rhs_first, 1, 1, 0, WG(1), NAN));
  /* the shifted GEMMs: f64, rhs output features not innermost */
  CHECK(check_conv_wgrad("wg_f64", CONV_MODULE("f64", "[3,12,12,5]", "[3,12,12,8]", "[3,3,5,8]",
                                               "window={size=12x12 pad=1_1x1_1}, dim_labels=f01b_i01o->01bf"),
                         1, 1, 0, 0, 0));
  CHECK(check_conv_wgrad("wg_rhs_o_outer", CONV_MODULE("f32", "[3,12,12,5]", "[8,12,12,3]", "[3,3,5,8]",
                                                       "window={size=12x12 pad=1_1x1_1}, dim_labels=f01b_o01i->01bf"),
                         1, 1, 0, 0, 0));
  /* non-finite operands: the direct loop */
  CHECK(check_conv_wgrad("wg_inf", CONV_MODULE("f32", "[3,10,9,13]", "[3,10,9,70]", "[3,3,13,70]",
                                               "window={size=10x9 pad=1_1x1_1}, dim_labels=f01b_i01o->01bf"),
                         1, 1, 0, WG(1), INFINITY));
}

/* Transposed convolutions (lhs dilation, stride 1): one convolution per
 * output phase over the undilated input. */
/* The weight-gradient kernel's AVX2 tiles keep the AVX-512 tiling and
 * each element's order of sums: results bit for bit the same (on a CPU
 * with AVX-512, the only one that has both): main tiles of full 64-feature
 * blocks, masked lanes and narrow last tiles, the 4 sets of window
 * columns, and the position tiles. */
static cxla_status run_cpu(const char *text, Literal **out) {
  cxla_module *m = NULL;
  Literal **args = NULL;
  CpuExecutable *x = NULL;
  cxla_status s = cxla_module_parse(text, strlen(text), "isa", &m);
  if (!s) s = verify_module(m);
  if (!s) s = make_args(m, 11, &args);
  if (!s) s = cpu_compile(m, NULL, &x);
  if (!s) s = cpu_execute(x, args, m->entry->nparams, out);
  if (args)
    for (int i = 0; i < m->entry->nparams; i++) literal_free(args[i]);
  cxla_free(args);
  cpu_executable_destroy(x);
  cxla_module_destroy(m);
  return s;
}

TEST(weight_gradient_isas_agree) {
  if (!__builtin_cpu_supports("avx512f")) {
    SKIP("this CPU lacks AVX-512: one set of tiles to run");
    return;
  }
  static const char *const mods[][4] = {
      {"[3,10,9,13]", "[3,10,9,70]", "[3,3,13,70]", "window={size=10x9 pad=1_1x1_1}, dim_labels=f01b_i01o->01bf"},
      {"[4,6,6,64]", "[4,5,5,64]", "[2,2,64,64]", "window={size=5x5}, dim_labels=f01b_i01o->01bf"},
      {"[5,11,11,2]", "[5,11,11,16]", "[3,3,2,16]", "window={size=11x11 pad=1_1x1_1}, dim_labels=f01b_i01o->01bf"},
      {"[2,20,20,1]", "[2,20,20,16]", "[4,4,1,16]", "window={size=20x20 pad=1_2x1_2}, dim_labels=f01b_i01o->01bf"},
      {"[8,10,9,1]", "[8,10,9,24]", "[3,2,1,24]", "window={size=10x9 pad=2_0x0_1}, dim_labels=f01b_i01o->01bf"},
  };
  for (size_t i = 0; i < sizeof mods / sizeof mods[0]; i++) {
    char text[1024];
    snprintf(text, sizeof text,
             "HloModule m\n\nENTRY e {\n  x = f32%s parameter(0)\n  k = f32%s parameter(1)\n"
             "  ROOT c = f32%s convolution(x, k), %s\n}\n",
             mods[i][0], mods[i][1], mods[i][2], mods[i][3]);
    Literal *a = NULL, *b = NULL;
    CHECK_OK(run_cpu(text, &a));
    setenv("CXLA_CPU_CONV_ISA", "avx2", 1);
    CHECK_OK(run_cpu(text, &b));
    unsetenv("CXLA_CPU_CONV_ISA");
    bool same = a && b && a->nelems == b->nelems && !memcmp(a->data, b->data, (size_t)a->nelems * sizeof(float));
    if (!same) fprintf(stderr, "weight gradient %zu: AVX-512 and AVX2 results differ\n", i);
    CHECK(same);
    literal_free(a);
    literal_free(b);
  }
}

TEST(transposed_by_phase) {
  /* reversed window, asymmetric padding */
  CHECK(check_conv_paths("lhs_dilate", CONV_MODULE("f32", "[2,5,5,8]", "[3,3,8,16]", "[2,10,10,16]",
                                                   "window={size=3x3 pad=1_2x1_2 lhs_dilate=2x2 rhs_reversal=1x1}, "
                                                   "dim_labels=b01f_01io->b01f"),
                         1, 0, 1, 1, 0));
  /* as jax's conv_transpose: pad 2_1, outputs of every phase */
  CHECK(check_conv_paths("conv_transpose", CONV_MODULE("f32", "[2,6,7,12]", "[3,3,12,8]", "[2,12,14,8]",
                                                       "window={size=3x3 pad=2_1x2_1 lhs_dilate=2x2}, "
                                                       "dim_labels=b01f_01io->b01f"),
                         1, 0, 1, 0, 0));
  /* dilation 3 in one dim only, a 2-wide window: phases without taps are
   * zeros; NCHW input and kernel, features outermost in the output; f64 */
  CHECK(check_conv_paths("lhs_dilate3", CONV_MODULE("f64", "[2,8,5,6]", "[16,8,2,3]", "[16,2,12,6]",
                                                    "window={size=2x3 pad=0_0x1_1 lhs_dilate=3x1}, "
                                                    "dim_labels=bf01_oi01->fb01"),
                         1, 0, 1, 0, 0));
  /* negative padding, dilation larger than the window, feature groups */
  CHECK(check_conv_paths("lhs_dilate_neg", CONV_MODULE("f32", "[2,6,6,16]", "[2,2,8,16]", "[2,16,15,16]",
                                                       "window={size=2x2 pad=-1_2x0_0 lhs_dilate=3x3}, "
                                                       "dim_labels=b01f_01io->b01f, feature_group_count=2"),
                         1, 0, 1, 0, 0));
  CHECK(check_conv_paths("lhs_dilate_nan", CONV_MODULE("f32", "[2,6,7,12]", "[3,3,12,8]", "[2,12,14,8]",
                                                       "window={size=3x3 pad=2_1x2_1 lhs_dilate=2x2}, "
                                                       "dim_labels=b01f_01io->b01f"),
                         1, 0, 1, 0, NAN));
  /* must not fire: rhs dilation with lhs dilation */
  CHECK(check_conv_paths("lhs_rhs_dilate", CONV_MODULE("f32", "[2,6,7,12]", "[3,3,12,8]", "[2,9,9,8]",
                                                       "window={size=3x3 pad=0_0x0_0 lhs_dilate=2x2 rhs_dilate=1x2}, "
                                                       "dim_labels=b01f_01io->b01f"),
                         1, 0, 0, 0, 0));
}

/* The direct kernel (dconv.c): strips of up to 6..12 output pixels x 1-4
 * vectors of 16 output features, input features in chunks, pixels in
 * padding reading zeros. Feature counts not multiples of 16 (a partial
 * last vector), several blocks of 64 features, several chunks. */
TEST(direct_feature_counts) {
  CHECK(check_conv("d_c3_o20", CONV_MODULE("f32", "[2,9,11,3]", "[3,3,3,20]", "[2,9,11,20]",
                                           "window={size=3x3 pad=1_1x1_1}, dim_labels=b01f_01io->b01f"),
                   1, 1, 0));
  /* 80 = 64 + 16, 200 = 3 x 64 + 8 (a half-empty last vector) */
  CHECK(check_conv("d_o80", CONV_MODULE("f32", "[2,5,13,16]", "[3,3,16,80]", "[2,5,13,80]",
                                        "window={size=3x3 pad=1_1x1_1}, dim_labels=b01f_01io->b01f"),
                   1, 1, 0));
  CHECK(check_conv("d_o200", CONV_MODULE("f32", "[1,4,9,5]", "[2,2,5,200]", "[1,3,8,200]",
                                         "window={size=2x2}, dim_labels=b01f_01io->b01f"),
                   1, 1, 0));
  /* 67 input features: chunks of 14 and a remainder; rows of 57 and 1
   * output pixels */
  CHECK(check_conv("d_c67", CONV_MODULE("f32", "[2,4,57,67]", "[3,3,67,48]", "[2,4,57,48]",
                                        "window={size=3x3 pad=1_1x1_1}, dim_labels=b01f_01io->b01f"),
                   1, 1, 0));
  /* one input feature (an image's first layer): a tap is one product */
  CHECK(check_conv("d_c1", CONV_MODULE("f32", "[8,28,28,1]", "[3,3,1,16]", "[8,28,28,16]",
                                       "window={size=3x3 pad=1_1x1_1}, dim_labels=b01f_01io->b01f"),
                   1, 1, 0));
  CHECK(check_conv("d_c1_nchw_o20", CONV_MODULE("f32", "[3,1,12,13]", "[20,1,3,3]", "[3,20,12,13]",
                                                "window={size=3x3 pad=1_1x1_1}, dim_labels=bf01_oi01->bf01"),
                   1, 1, 0));
  CHECK(check_conv("d_w1", CONV_MODULE("f32", "[5,7,1,32]", "[3,1,32,32]", "[5,7,1,32]",
                                       "window={size=3x1 pad=1_1x0_0}, dim_labels=b01f_01io->b01f"),
                   1, 1, 0));
}

/* One input feature with the output features contiguous (dconv.c:
 * c1_run, blocks of 8 pixels x 16 features): features not a multiple of
 * 16 (20: a partial vector; 40: three vectors), rows not a multiple of 8
 * pixels, strides with dilation and reversal, padding wider than the
 * window (pixels and whole rows in padding), negative padding, 1-D (a
 * 9-tap window: im2col's 8 columns at least), and a 5x5 window. */
TEST(direct_one_feature) {
  CHECK(check_conv("c1_o20", CONV_MODULE("f32", "[3,13,19,1]", "[3,3,1,20]", "[3,13,19,20]",
                                         "window={size=3x3 pad=1_1x1_1}, dim_labels=b01f_01io->b01f"),
                   1, 1, 0));
  CHECK(check_conv("c1_o40_s2", CONV_MODULE("f32", "[2,17,23,1]", "[3,3,1,40]", "[2,8,12,40]",
                                            "window={size=3x3 stride=2x2 pad=0_1x1_1}, dim_labels=b01f_01io->b01f"),
                   1, 1, 0));
  CHECK(check_conv("c1_dilate_rev",
                   CONV_MODULE("f32", "[8,17,29,1]", "[3,3,1,32]", "[8,5,12,32]",
                               "window={size=3x3 stride=3x2 pad=1_0x0_1 rhs_dilate=2x3 rhs_reversal=1x1}, "
                               "dim_labels=b01f_01io->b01f"),
                   1, 1, 0));
  CHECK(check_conv("c1_widepad", CONV_MODULE("f32", "[2,6,10,1]", "[3,3,1,32]", "[2,12,26,32]",
                                             "window={size=3x3 pad=4_4x9_9}, dim_labels=b01f_01io->b01f"),
                   1, 1, 0));
  CHECK(check_conv("c1_negpad", CONV_MODULE("f32", "[2,12,20,1]", "[5,5,1,32]", "[2,6,16,32]",
                                            "window={size=5x5 pad=-1_-1x0_0}, dim_labels=b01f_01io->b01f"),
                   1, 1, 0));
  CHECK(check_conv("c1_1d", CONV_MODULE("f32", "[8,200,1]", "[9,1,32]", "[8,100,32]",
                                        "window={size=9 stride=2 pad=4_4}, dim_labels=b0f_0io->b0f"),
                   1, 1, 0));
}

TEST(direct_windows) {
  /* a ResNet stem: 7x7 stride 2 pad 3, 3 input features */
  CHECK(check_conv("d_stem", CONV_MODULE("f32", "[2,23,23,3]", "[7,7,3,64]", "[2,12,12,64]",
                                         "window={size=7x7 stride=2x2 pad=3_3x3_3}, dim_labels=b01f_01io->b01f"),
                   1, 1, 0));
  /* 1x1 stride 2 (a downsampling shortcut) and 1x1 stride 1 */
  CHECK(check_conv("d_1x1_s2", CONV_MODULE("f32", "[2,14,14,32]", "[1,1,32,64]", "[2,7,7,64]",
                                           "window={size=1x1 stride=2x2}, dim_labels=b01f_01io->b01f"),
                   1, 1, 0));
  CHECK(check_conv("d_1x1", CONV_MODULE("f32", "[2,14,14,32]", "[1,1,32,64]", "[2,14,14,64]",
                                        "window={size=1x1}, dim_labels=b01f_01io->b01f"),
                   1, 1, 0));
  /* negative padding in both dims, asymmetric positive padding */
  CHECK(check_conv("d_negpad", CONV_MODULE("f32", "[2,12,15,16]", "[3,3,16,32]", "[2,8,14,32]",
                                           "window={size=3x3 pad=-1_-1x0_1}, dim_labels=b01f_01io->b01f"),
                   1, 1, 0));
  /* padding wider than the window: whole strips and rows of zeros */
  CHECK(check_conv("d_widepad", CONV_MODULE("f32", "[1,3,3,8]", "[3,3,8,16]", "[1,9,17,16]",
                                            "window={size=3x3 pad=4_4x8_8}, dim_labels=b01f_01io->b01f"),
                   1, 1, 0));
  /* window dilation, strides 3x2, reversal in one dim */
  CHECK(check_conv("d_dilate", CONV_MODULE("f32", "[2,17,19,16]", "[3,3,16,32]", "[2,5,7,32]",
                                           "window={size=3x3 stride=3x2 pad=1_0x0_1 rhs_dilate=2x3 "
                                           "rhs_reversal=0x1}, dim_labels=b01f_01io->b01f"),
                   1, 1, 0));
  /* 1-D, strided, padded */
  CHECK(check_conv("d_1d", CONV_MODULE("f32", "[3,50,24]", "[5,24,32]", "[3,25,32]",
                                       "window={size=5 stride=2 pad=2_2}, dim_labels=b0f_0io->b0f"),
                   1, 1, 0));
}

TEST(direct_layouts_and_gradients) {
  /* NCHW in and out (the input repacked, the output scattered) */
  CHECK(check_conv("d_nchw", CONV_MODULE("f32", "[2,24,10,9]", "[40,24,3,3]", "[2,40,10,9]",
                                         "window={size=3x3 pad=1_1x1_1}, dim_labels=bf01_oi01->bf01"),
                   1, 1, 0));
  /* the input gradient of a 3x3 convolution as JAX emits it: reversed
   * window, kernel features swapped */
  CHECK(check_conv("d_dgrad", CONV_MODULE("f32", "[2,8,8,32]", "[3,3,16,32]", "[2,8,8,16]",
                                          "window={size=3x3 pad=1_1x1_1 rhs_reversal=1x1}, "
                                          "dim_labels=b01f_01oi->b01f"),
                   1, 1, 0));
  /* the input gradient of a stride-2 convolution: transposed, by phase */
  CHECK(check_conv_paths("d_dgrad_s2", CONV_MODULE("f32", "[2,7,7,64]", "[3,3,32,64]", "[2,14,14,32]",
                                                   "window={size=3x3 pad=1_2x1_2 lhs_dilate=2x2 rhs_reversal=1x1}, "
                                                   "dim_labels=b01f_01oi->b01f"),
                         1, 0, 1, 1, 0));
  CHECK(check_conv_paths("d_transpose", CONV_MODULE("f32", "[2,6,7,64]", "[3,3,64,64]", "[2,12,14,64]",
                                                    "window={size=3x3 pad=2_1x2_1 lhs_dilate=2x2}, "
                                                    "dim_labels=b01f_01io->b01f"),
                         1, 0, 1, 1, 0));
  CHECK(check_conv("d_nan", CONV_MODULE("f32", "[2,6,7,16]", "[3,3,16,16]", "[2,6,7,16]",
                                        "window={size=3x3 pad=1_1x1_1}, dim_labels=b01f_01io->b01f"),
                   1, 1, NAN));
}

/* How many convolutions of `text` the backend computes by Winograd
 * (counted where the machine has AVX-512 or AVX2, else none). */
static bool wino_count(const char *name, const char *text, int want) {
  cxla_module *m = NULL;
  CpuExecutable *x = NULL;
  cxla_status s = cxla_module_parse(text, strlen(text), name, &m);
  if (!s) s = cpu_compile(m, NULL, &x);
  bool ok = !s;
  if (s) fprintf(stderr, "%s: %s\n", name, cxla_status_message(s));
  if (!dconv_available()) want = 0;
  if (ok && cpu_executable_stats(x)->nconvs_winograd != want) {
    fprintf(stderr, "%s: %d Winograd convolutions, expected %d\n", name, cpu_executable_stats(x)->nconvs_winograd,
            want);
    ok = false;
  }
  cxla_status_free(s);
  cpu_executable_destroy(x);
  cxla_module_destroy(m);
  return ok;
}

/* Winograd F(2x2, 3x3) for 3x3 windows with unit stride: odd output
 * extents (half tiles), padding reaching past the input, several passes
 * of tiles along a row, feature counts not multiples of 16, several
 * blocks of 64 output features, NCHW, reversal. */
#define WINO(NAME, T, XS, KS, OS, ATTRS, N)                          \
  do {                                                               \
    const char *t_ = CONV_MODULE(T, XS, KS, OS, ATTRS);              \
    CHECK(check_conv(NAME, t_, 1, 1, 0));                            \
    CHECK(wino_count(NAME, t_, N));                                  \
  } while (0)
#define B01F "dim_labels=b01f_01io->b01f"

TEST(winograd) {
  WINO("w_odd", "f32", "[2,9,29,16]", "[3,3,16,32]", "[2,9,29,32]", "window={size=3x3 pad=1_1x1_1}, " B01F, 1);
  WINO("w_valid", "f32", "[1,8,30,37]", "[3,3,37,20]", "[1,6,28,20]", "window={size=3x3}, " B01F, 1);
  WINO("w_pad2", "f32", "[2,5,6,16]", "[3,3,16,144]", "[2,9,8,144]", "window={size=3x3 pad=3_3x2_2}, " B01F, 1);
  WINO("w_negpad", "f32", "[2,12,15,16]", "[3,3,16,32]", "[2,8,14,32]", "window={size=3x3 pad=-1_-1x0_1}, " B01F, 1);
  WINO("w_nchw", "f32", "[2,24,10,9]", "[40,24,3,3]", "[2,40,10,9]",
       "window={size=3x3 pad=1_1x1_1}, dim_labels=bf01_oi01->bf01", 1);
  /* features outer (NCHW) in and out: input rows staged channels-last
   * and outputs transposed in 16 x 16 blocks, partial in features (20),
   * columns (19, 40) and tile rows (odd heights); one layout each way */
  WINO("w_nchw_edges", "f32", "[3,20,11,19]", "[20,20,3,3]", "[3,20,11,19]",
       "window={size=3x3 pad=1_1x1_1}, dim_labels=bf01_oi01->bf01", 1);
  WINO("w_nchw_wide", "f32", "[2,16,7,40]", "[33,16,3,3]", "[2,33,7,40]",
       "window={size=3x3 pad=0_2x1_1}, dim_labels=bf01_oi01->bf01", 1);
  WINO("w_nchw_negpad", "f32", "[2,17,12,21]", "[16,17,3,3]", "[2,16,9,22]",
       "window={size=3x3 pad=-1_0x2_1}, dim_labels=bf01_oi01->bf01", 1);
  WINO("w_nchw_to_nhwc", "f32", "[2,32,9,18]", "[3,3,32,24]", "[2,9,18,24]",
       "window={size=3x3 pad=1_1x1_1}, dim_labels=bf01_01io->b01f", 1);
  WINO("w_nhwc_to_nchw", "f32", "[2,9,18,32]", "[3,3,32,24]", "[2,24,9,18]",
       "window={size=3x3 pad=1_1x1_1}, dim_labels=b01f_01io->bf01", 1);
  WINO("w_dgrad", "f32", "[2,8,8,32]", "[3,3,16,32]", "[2,8,8,16]",
       "window={size=3x3 pad=1_1x1_1 rhs_reversal=1x1}, dim_labels=b01f_01oi->b01f", 1);
  /* not by Winograd: stride, dilation, fewer than 16 input features,
   * other windows */
  WINO("w_stride", "f32", "[2,9,9,16]", "[3,3,16,32]", "[2,4,4,32]", "window={size=3x3 stride=2x2}, " B01F, 0);
  WINO("w_dilate", "f32", "[2,9,9,16]", "[3,3,16,32]", "[2,5,5,32]", "window={size=3x3 rhs_dilate=2x2}, " B01F, 0);
  WINO("w_c8", "f32", "[2,9,9,8]", "[3,3,8,32]", "[2,7,7,32]", "window={size=3x3}, " B01F, 0);
  WINO("w_5x5", "f32", "[2,9,9,16]", "[5,5,16,32]", "[2,5,5,32]", "window={size=5x5}, " B01F, 0);
  WINO("w_3x1", "f32", "[2,9,9,16]", "[3,1,16,32]", "[2,7,9,32]", "window={size=3x1}, " B01F, 0);
}

/* Where the direct kernel must not run: feature groups, batch groups,
 * f64, bf16, 3 spatial dims, under 16 output features,
 * lhs dilation with a stride, a window larger than the output. */
TEST(direct_not_taken) {
  CHECK(check_conv("nd_groups", CONV_MODULE("f32", "[2,6,6,32]", "[3,3,16,32]", "[2,6,6,32]",
                                            "window={size=3x3 pad=1_1x1_1}, dim_labels=b01f_01io->b01f, "
                                            "feature_group_count=2"),
                   1, 0, 0));
  CHECK(check_conv("nd_batch_groups", CONV_MODULE("f32", "[4,6,6,16]", "[3,3,16,32]", "[2,4,4,32]",
                                                  "window={size=3x3}, dim_labels=b01f_01io->b01f, "
                                                  "batch_group_count=2"),
                   0, 0, 0));
  CHECK(check_conv("nd_f64", CONV_MODULE("f64", "[2,6,6,16]", "[3,3,16,32]", "[2,6,6,32]",
                                         "window={size=3x3 pad=1_1x1_1}, dim_labels=b01f_01io->b01f"),
                   1, 0, 0));
  CHECK(check_conv("nd_bf16", CONV_MODULE("bf16", "[2,6,6,16]", "[3,3,16,32]", "[2,6,6,32]",
                                          "window={size=3x3 pad=1_1x1_1}, dim_labels=b01f_01io->b01f"),
                   0, 0, 0));
  CHECK(check_conv("nd_3d", CONV_MODULE("f32", "[1,4,5,6,16]", "[2,3,3,16,16]", "[1,3,5,6,16]",
                                        "window={size=2x3x3 pad=0_0x1_1x1_1}, dim_labels=b012f_012io->b012f"),
                   1, 0, 0));
  CHECK(check_conv("nd_o8", CONV_MODULE("f32", "[2,6,6,32]", "[3,3,32,8]", "[2,6,6,8]",
                                        "window={size=3x3 pad=1_1x1_1}, dim_labels=b01f_01io->b01f"),
                   1, 0, 0));
  CHECK(check_conv("nd_lhs_stride", CONV_MODULE("f32", "[2,9,9,16]", "[3,3,16,16]", "[2,9,9,16]",
                                                "window={size=3x3 stride=2x2 pad=1_2x1_2 lhs_dilate=2x2}, "
                                                "dim_labels=b01f_01io->b01f"),
                   1, 0, 0));
  CHECK(check_conv("nd_big_window", CONV_MODULE("f32", "[2,12,12,16]", "[10,10,16,32]", "[2,5,5,32]",
                                                "window={size=10x10 pad=1_1x1_1 stride=1x1}, "
                                                "dim_labels=b01f_01io->b01f"),
                   1, 0, 0));
}

TEST(in_an_output_fusion) {
  const char *text =
      "HloModule m\n\n"
      "fused {\n"
      "  p0 = f32[2,6,7,8] parameter(0)\n"
      "  p1 = f32[3,3,8,16] parameter(1)\n"
      "  p2 = f32[16] parameter(2)\n"
      "  c = f32[2,6,7,16] convolution(p0, p1), window={size=3x3 pad=1_1x1_1}, dim_labels=b01f_01io->b01f\n"
      "  b = f32[2,6,7,16] broadcast(p2), dimensions={3}\n"
      "  a = f32[2,6,7,16] add(c, b)\n"
      "  z = f32[] constant(0)\n"
      "  zb = f32[2,6,7,16] broadcast(z), dimensions={}\n"
      "  ROOT r = f32[2,6,7,16] maximum(a, zb)\n"
      "}\n\n"
      "ENTRY e {\n"
      "  x = f32[2,6,7,8] parameter(0)\n"
      "  k = f32[3,3,8,16] parameter(1)\n"
      "  bias = f32[16] parameter(2)\n"
      "  ROOT f = f32[2,6,7,16] fusion(x, k, bias), kind=kOutput, calls=fused\n"
      "}\n";
  CHECK(check_conv("output_fusion", text, 1, 1, 0));
}

int main(void) {
  RUN(nhwc_same_padding);
  RUN(nchw_and_other_label_orders);
  RUN(strides_padding_dilation_reversal);
  RUN(groups_and_ranks);
  RUN(non_finite_operands);
  RUN(small_and_depthwise_stay_with_the_emitter);
  RUN(weight_gradient_shifted_gemms);
  RUN(weight_gradient_shifted_gemms_not_taken);
  RUN(weight_gradient_direct_kernel);
  RUN(weight_gradient_isas_agree);
  RUN(transposed_by_phase);
  RUN(in_an_output_fusion);
  RUN(direct_feature_counts);
  RUN(direct_one_feature);
  RUN(direct_windows);
  RUN(direct_layouts_and_gradients);
  RUN(direct_not_taken);
  RUN(winograd);
  return test_summary(__FILE__);
}
