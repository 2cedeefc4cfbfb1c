/* Unit tests for the fft evaluator (src/interp/fft.c) against DFTs worked
 * out by hand. */
#include <stdlib.h>

#include "harness.h"
#include "math_oom.h"
#include "interp/interp.h"

static HloModule *M;
static Computation *C;

static Instr *mk_fft(FftType ft, ElemType it, int rank, const int64_t *idims, ElemType ot,
                     const int64_t *odims, int L, const int64_t *len) {
  CHECK_OK(module_create("t", &M));
  C = module_add_computation(M, "main");
  Instr *p = comp_add_instr(C, OP_PARAMETER, shape_new(&M->arena, it, rank, idims), 0, NULL, NULL);
  Instr *f = comp_add_instr(C, OP_FFT, shape_new(&M->arena, ot, rank, odims), 1, &p, "fft");
  f->attrs |= A_FFT;
  f->fft_type = ft;
  f->fft_length.n = L;
  f->fft_length.v = arena_i64dup(&M->arena, len, (size_t)L);
  return f;
}

/* Complex literal from interleaved (re, im) values, or real from values. */
static Literal *lit(ElemType t, int rank, const int64_t *dims, const double *v) {
  Literal *l;
  CHECK_OK(literal_create(t, rank, dims, &l));
  bool cx = t == T_C64 || t == T_C128;
  for (int64_t i = 0; i < l->nelems * (cx ? 2 : 1); i++) {
    if (t == T_C64) ((float *)l->data)[i] = (float)v[i];
    else if (t == T_C128 || t == T_F64) ((double *)l->data)[i] = v[i];
    else ((float *)l->data)[i] = (float)v[i];
  }
  return l;
}

/* Runs f on x and checks n scalars (interleaved for complex) within tol. */
static void expect(Instr *f, Literal *x, const double *want, int n, double tol) {
  Interp ip = {0};
  Literal *o = NULL;
  CHECK_OK(interp_fft(&ip, f, &x, &o));
  if (o) {
    CHECK(o->type == f->shape->type);
    bool dbl = o->type == T_C128 || o->type == T_F64;
    for (int i = 0; i < n; i++) {
      double g = dbl ? ((double *)o->data)[i] : ((float *)o->data)[i];
      if (fabs(g - want[i]) > tol) {
        fprintf(stderr, "  scalar %d: got %.17g want %.17g\n", i, g, want[i]);
        CHECK(fabs(g - want[i]) <= tol);
      }
    }
  }
  literal_free(o);
  literal_free(x);
  module_destroy(M);
}

TEST(fft_impulse) {
  int64_t d[1] = {4}, n[1] = {4};
  Instr *f = mk_fft(FFT_FFT, T_C64, 1, d, T_C64, d, 1, n);
  double x[8] = {1, 0, 0, 0, 0, 0, 0, 0}, w[8] = {1, 0, 1, 0, 1, 0, 1, 0};
  expect(f, lit(T_C64, 1, d, x), w, 8, 0);
}

/* DFT of (1,2,3,4) = (10, -2+2i, -2, -2-2i). */
TEST(fft_1234_c128) {
  int64_t d[1] = {4}, n[1] = {4};
  Instr *f = mk_fft(FFT_FFT, T_C128, 1, d, T_C128, d, 1, n);
  double x[8] = {1, 0, 2, 0, 3, 0, 4, 0}, w[8] = {10, 0, -2, 2, -2, 0, -2, -2};
  expect(f, lit(T_C128, 1, d, x), w, 8, 1e-14);
}

TEST(ifft_1234) {
  int64_t d[1] = {4}, n[1] = {4};
  Instr *f = mk_fft(FFT_IFFT, T_C64, 1, d, T_C64, d, 1, n);
  double x[8] = {10, 0, -2, 2, -2, 0, -2, -2}, w[8] = {1, 0, 2, 0, 3, 0, 4, 0};
  expect(f, lit(T_C64, 1, d, x), w, 8, 1e-6);
}

/* Batched: each row of a [2,4] array transformed separately. */
TEST(fft_batched_rows) {
  int64_t d[2] = {2, 4}, n[1] = {4};
  Instr *f = mk_fft(FFT_FFT, T_C128, 2, d, T_C128, d, 1, n);
  double x[16] = {1, 0, 0, 0, 0, 0, 0, 0, 1, 0, 2, 0, 3, 0, 4, 0};
  double w[16] = {1, 0, 1, 0, 1, 0, 1, 0, 10, 0, -2, 2, -2, 0, -2, -2};
  expect(f, lit(T_C128, 2, d, x), w, 16, 1e-14);
}

/* 2-D: [[1,2],[3,4]] -> [[10,-2],[-4,0]]. */
TEST(fft_2d) {
  int64_t d[2] = {2, 2}, n[2] = {2, 2};
  Instr *f = mk_fft(FFT_FFT, T_C128, 2, d, T_C128, d, 2, n);
  double x[8] = {1, 0, 2, 0, 3, 0, 4, 0}, w[8] = {10, 0, -2, 0, -4, 0, 0, 0};
  expect(f, lit(T_C128, 2, d, x), w, 8, 1e-14);
}

/* RFFT of (1,2,3,4): the first 3 DFT entries 10, -2+2i, -2. */
TEST(rfft_even) {
  int64_t d[1] = {4}, od[1] = {3}, n[1] = {4};
  Instr *f = mk_fft(FFT_RFFT, T_F32, 1, d, T_C64, od, 1, n);
  double x[4] = {1, 2, 3, 4}, w[6] = {10, 0, -2, 2, -2, 0};
  expect(f, lit(T_F32, 1, d, x), w, 6, 1e-6);
}

/* RFFT of (1,2,3) (odd, not a power of two): 6 and
 * 1 + 2 e^{-2pi i/3} + 3 e^{-4 pi i/3} = -1.5 + i sqrt(3)/2. */
TEST(rfft_odd_f64) {
  int64_t d[1] = {3}, od[1] = {2}, n[1] = {3};
  Instr *f = mk_fft(FFT_RFFT, T_F64, 1, d, T_C128, od, 1, n);
  double x[3] = {1, 2, 3}, w[4] = {6, 0, -1.5, sqrt(3.0) / 2};
  expect(f, lit(T_F64, 1, d, x), w, 4, 1e-14);
}

/* IRFFT inverts RFFT: (10, -2+2i, -2) -> (1,2,3,4). The imaginary parts of
 * the DC and Nyquist entries do not matter (added 5i and 7i). */
TEST(irfft_even) {
  int64_t d[1] = {3}, od[1] = {4}, n[1] = {4};
  Instr *f = mk_fft(FFT_IRFFT, T_C64, 1, d, T_F32, od, 1, n);
  double x[6] = {10, 5, -2, 2, -2, 7}, w[4] = {1, 2, 3, 4};
  expect(f, lit(T_C64, 1, d, x), w, 4, 1e-6);
}

TEST(irfft_odd) {
  int64_t d[1] = {2}, od[1] = {3}, n[1] = {3};
  Instr *f = mk_fft(FFT_IRFFT, T_C128, 1, d, T_F64, od, 1, n);
  double x[4] = {6, 0, -1.5, sqrt(3.0) / 2}, w[3] = {1, 2, 3};
  expect(f, lit(T_C128, 1, d, x), w, 3, 1e-14);
}

/* 2-D RFFT of [[1,2],[3,4]] (n = 2x2): last dim keeps 2/2+1 = 2 entries,
 * the full 2-D DFT [[10,-2],[-4,0]]; and 2-D IRFFT maps it back. */
TEST(rfft_irfft_2d) {
  int64_t d[2] = {2, 2}, n[2] = {2, 2};
  Instr *f = mk_fft(FFT_RFFT, T_F64, 2, d, T_C128, d, 2, n);
  double x[4] = {1, 2, 3, 4}, w[8] = {10, 0, -2, 0, -4, 0, 0, 0};
  expect(f, lit(T_F64, 2, d, x), w, 8, 1e-14);
  f = mk_fft(FFT_IRFFT, T_C128, 2, d, T_F64, d, 2, n);
  expect(f, lit(T_C128, 2, d, w), x, 4, 1e-14);
}

/* 2-D IRFFT with last fft_length 3 (last dim 2 entries) and first dim 2:
 * the spectrum of [[1,2,3],[0,0,0]]: rows of RFFT are (6, -1.5+0.866i) for
 * row 0 and 0 for row 1; the outer DFT over 2 rows gives the same values in
 * both rows. */
TEST(irfft_2d_odd) {
  int64_t d[2] = {2, 2}, od[2] = {2, 3}, n[2] = {2, 3};
  Instr *f = mk_fft(FFT_IRFFT, T_C128, 2, d, T_F64, od, 2, n);
  double s = sqrt(3.0) / 2;
  double x[8] = {6, 0, -1.5, s, 6, 0, -1.5, s}, w[6] = {1, 2, 3, 0, 0, 0};
  expect(f, lit(T_C128, 2, d, x), w, 6, 1e-14);
}

/* A shifted impulse x[1] = 1 has X[k] = e^{-2 pi i k / n}: checked for a
 * power of two past the direct-sum size (radix-2 path, n = 128) and for a
 * length with a large prime factor (Bluestein path, n = 2*67 = 134). */
static void shifted_impulse(int64_t n) {
  int64_t d[1] = {n}, len[1] = {n};
  Instr *f = mk_fft(FFT_FFT, T_C128, 1, d, T_C128, d, 1, len);
  double *x = calloc((size_t)(2 * n), sizeof(double)), *w = calloc((size_t)(2 * n), sizeof(double));
  x[2] = 1;
  for (int64_t k = 0; k < n; k++) {
    w[2 * k] = cos(2 * M_PI * (double)k / (double)n);
    w[2 * k + 1] = -sin(2 * M_PI * (double)k / (double)n);
  }
  expect(f, lit(T_C128, 1, d, x), w, (int)(2 * n), 1e-13);
  free(x);
  free(w);
}

TEST(fft_long_pow2) { shifted_impulse(128); }
TEST(fft_long_bluestein) { shifted_impulse(134); }

/* IFFT(FFT(x)) = x and IRFFT(RFFT(y)) = y for a long odd length (Bluestein
 * in every direction): x[t] = t mod 7 - 3 (a real signal). */
TEST(round_trip_long) {
  int64_t n = 131, d[1] = {n}, m = n / 2 + 1, hd[1] = {m}, len[1] = {n};
  double *x = calloc((size_t)n, sizeof(double));
  for (int64_t t = 0; t < n; t++) x[t] = (double)(t % 7) - 3;
  Instr *f = mk_fft(FFT_RFFT, T_F64, 1, d, T_C128, hd, 1, len);
  Literal *in = lit(T_F64, 1, d, x), *spec = NULL, *back = NULL;
  Interp ip = {0};
  CHECK_OK(interp_fft(&ip, f, &in, &spec));
  module_destroy(M);
  if (spec) {
    f = mk_fft(FFT_IRFFT, T_C128, 1, hd, T_F64, d, 1, len);
    CHECK_OK(interp_fft(&ip, f, &spec, &back));
    module_destroy(M);
  }
  if (back)
    for (int64_t t = 0; t < n; t++) CHECK(fabs(((double *)back->data)[t] - x[t]) < 1e-12);
  /* The DC entry is sum x: 131 = 18*7 + 5, full periods of (-3..3) sum to
   * 0 and the tail (-3,-2,-1,0,1) to -5. */
  if (spec) CHECK(fabs(((double *)spec->data)[0] + 5) < 1e-12);
  literal_free(in);
  literal_free(spec);
  literal_free(back);
  free(x);
}

TEST(errors) {
  int64_t d[1] = {4}, od[1] = {4}, n[1] = {5};
  Instr *f = mk_fft(FFT_FFT, T_C64, 1, d, T_C64, od, 1, n);
  Literal *x;
  CHECK_OK(literal_create(T_C64, 1, d, &x));
  Interp ip = {0};
  Literal *o = NULL;
  CHECK_ERR(interp_fft(&ip, f, &x, &o), "fft_length");
  f->fft_length.v[0] = 4;
  f->fft_type = FFT_RFFT;
  CHECK_ERR(interp_fft(&ip, f, &x, &o), "operand type");
  literal_free(x);
  module_destroy(M);
}

/* OOM sweeps over a 2-D FFT whose second axis takes the Bluestein path
 * and over an IRFFT. */
TEST(out_of_memory) {
  int64_t d[2] = {2, 70}, n[2] = {2, 70}, hd[2] = {2, 36};
  Literal *x, *o;
  CHECK_OK(literal_create(T_C64, 2, d, &x));
  Interp ip = {0};
  int fails;
  Instr *f = mk_fft(FFT_FFT, T_C64, 2, d, T_C64, d, 2, n);
  OOM_SWEEP(o, interp_fft(&ip, f, &x, &o), fails);
  CHECK(fails >= 3);
  module_destroy(M);
  literal_free(x);
  CHECK_OK(literal_create(T_C64, 2, hd, &x));
  f = mk_fft(FFT_IRFFT, T_C64, 2, hd, T_F32, d, 2, n);
  OOM_SWEEP(o, interp_fft(&ip, f, &x, &o), fails);
  CHECK(fails >= 3);
  module_destroy(M);
  literal_free(x);
}

/* ---- NaN and infinity: which parts they reach, as on XLA:CPU (DUCC) ----
 * Expected values printed by jax 0.10.2 on CPU (jnp.fft.fft / rfft under
 * jit). The +-1 and +-i twiddles rotate without multiplying, so a NaN or
 * infinite real part reaches only some parts of some outputs. */
static void expect_special(Instr *f, Literal *x, const double *want, int n) {
  Interp ip = {0};
  Literal *o = NULL;
  CHECK_OK(interp_fft(&ip, f, &x, &o));
  if (o) {
    bool dbl = o->type == T_C128 || o->type == T_F64;
    for (int i = 0; i < n; i++) {
      double g = dbl ? ((double *)o->data)[i] : ((float *)o->data)[i];
      bool ok = isnan(want[i]) ? isnan(g) : isinf(want[i]) ? g == want[i]
                                                            : fabs(g - want[i]) <= 1e-5;
      if (!ok) fprintf(stderr, "  scalar %d: got %.9g want %.9g\n", i, g, want[i]);
      CHECK(ok);
    }
  }
  literal_free(o);
  literal_free(x);
  module_destroy(M);
}

TEST(fft_nan_and_inf_reach) {
  int64_t d4[1] = {4}, d8[1] = {8}, d5[1] = {5};
  /* [0, NaN, 2, 3] -> [NaN + 0i, -2 + NaN i, NaN + 0i, -2 + NaN i] */
  double x4[8] = {0, 0, NAN, 0, 2, 0, 3, 0};
  double w4[8] = {NAN, 0, -2, NAN, NAN, 0, -2, NAN};
  expect_special(mk_fft(FFT_FFT, T_C64, 1, d4, T_C64, d4, 1, d4), lit(T_C64, 1, d4, x4), w4, 8);
  expect_special(mk_fft(FFT_FFT, T_C128, 1, d4, T_C128, d4, 1, d4), lit(T_C128, 1, d4, x4), w4,
                 8);
  /* [0, NaN, 2, ..., 7]: X2 and X6 use only +-1, +-i: -4 + NaN i. */
  double x8[16] = {0, 0, NAN, 0, 2, 0, 3, 0, 4, 0, 5, 0, 6, 0, 7, 0};
  double w8[16] = {NAN, 0, NAN, NAN, -4, NAN, NAN, NAN, NAN, 0, NAN, NAN, -4, NAN, NAN, NAN};
  expect_special(mk_fft(FFT_FFT, T_C64, 1, d8, T_C64, d8, 1, d8), lit(T_C64, 1, d8, x8), w8, 16);
  /* Length 5: NaN everywhere but X0's imaginary part. */
  double x5[10] = {0, 0, NAN, 0, 2, 0, 3, 0, 4, 0};
  double w5[10] = {NAN, 0, NAN, NAN, NAN, NAN, NAN, NAN, NAN, NAN};
  expect_special(mk_fft(FFT_FFT, T_C64, 1, d5, T_C64, d5, 1, d5), lit(T_C64, 1, d5, x5), w5, 10);
  /* [1, 2, inf, 4] -> [inf, -inf + 2i, inf, -inf - 2i] */
  double xi[8] = {1, 0, 2, 0, INFINITY, 0, 4, 0};
  double wi[8] = {INFINITY, 0, -INFINITY, 2, INFINITY, 0, -INFINITY, -2};
  expect_special(mk_fft(FFT_FFT, T_C64, 1, d4, T_C64, d4, 1, d4), lit(T_C64, 1, d4, xi), wi, 8);
  /* [1, 2 + NaN i, 3, 4] -> [10 + NaN i, NaN + 2i, -2 + NaN i, NaN - 2i] */
  double xn[8] = {1, 0, 2, NAN, 3, 0, 4, 0};
  double wn[8] = {10, NAN, NAN, 2, -2, NAN, NAN, -2};
  expect_special(mk_fft(FFT_FFT, T_C64, 1, d4, T_C64, d4, 1, d4), lit(T_C64, 1, d4, xn), wn, 8);
  /* rfft [1, 2, NaN, 4, 5, 6] -> [NaN + 0i, NaN + NaN i, NaN + NaN i, NaN + 0i] */
  int64_t d6[1] = {6}, o6[1] = {4};
  double xr[6] = {1, 2, NAN, 4, 5, 6};
  double wr[8] = {NAN, 0, NAN, NAN, NAN, NAN, NAN, 0};
  expect_special(mk_fft(FFT_RFFT, T_F32, 1, d6, T_C64, o6, 1, d6), lit(T_F32, 1, d6, xr), wr, 8);
}

int main(void) {
  RUN(fft_impulse);
  RUN(fft_nan_and_inf_reach);
  RUN(fft_1234_c128);
  RUN(ifft_1234);
  RUN(fft_batched_rows);
  RUN(fft_2d);
  RUN(rfft_even);
  RUN(rfft_odd_f64);
  RUN(irfft_even);
  RUN(irfft_odd);
  RUN(rfft_irfft_2d);
  RUN(irfft_2d_odd);
  RUN(fft_long_pow2);
  RUN(fft_long_bluestein);
  RUN(round_trip_long);
  RUN(errors);
  RUN(out_of_memory);
  return test_summary("test_fft");
}
