/* Unit tests for the fft evaluator (src/interp/fft.c) against DFTs worked
 * out by hand. */
#include <stdlib.h>

#include "harness.h"
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

int main(void) {
  RUN(fft_impulse);
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
  RUN(errors);
  return test_summary("test_fft");
}
