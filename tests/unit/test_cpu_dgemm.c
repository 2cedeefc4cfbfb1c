/* The f64 GEMM kernel of large products (dgemm.c):
 *   - f64_gemm_kernel_big called directly against the plain loop it
 *     promises, bit for bit: each element the fused multiply-add chain
 *     over k = 0, 1, ... from +0 (fma here), over odd sizes (partial
 *     6-row tiles, panels cut at n around the 8- and 32-column blocks,
 *     K past the 128-step slices and past a 1024-step block), every
 *     transposition, batches, strided A, B and C, one thread and pools
 *     of 2 and 3 (blocks of rows ending in partial tiles), NaN, infinities and 0 x inf (NaN: no zero factor skipped),
 *     k = 0 (zeros) and empty products; skipped where the CPU lacks
 *     AVX-512;
 *   - which products it takes (f64_gemm_big_fits);
 *   - whole programs on the cpu backend against the interpreter, on the
 *     kernel and off it. */
#include <math.h>
#include <stdlib.h>

#include "harness.h"
#include "cpu/fgemm.h"
#include "cpu_vs_interp.h"

static uint64_t rng = 0x9E3779B97F4A7C15ull;

static double next_value(int special) {
  rng ^= rng << 13, rng ^= rng >> 7, rng ^= rng << 17;
  uint64_t r = rng >> 11;
  if (special && r % 97 == 3) return r % 2 ? NAN : (r % 4 == 1 ? INFINITY : -INFINITY);
  if (r % 29 == 7) return 0.0;
  return (double)(r % 100000007) / 25000000.0 - 2.0;
}

static bool same_bits(double x, double y) { return isnan(x) ? isnan(y) : !memcmp(&x, &y, sizeof x); }

/* The plain loop: each element the fma chain over k from +0 (A's rows
 * la apart, B's lb, C's lc). On x86-64 CPUs with FMA the chain is built
 * for them (fma one instruction, the same single rounding): the library
 * call from code built without AVX took 25 s of the test under the
 * sanitizers against 0.3 s without. */
typedef struct Ref {
  int64_t batch, m, n, k, la, lb, lc;
  bool ta, tb;
} Ref;

#define REFERENCE_BODY                                                                              \
  for (int64_t bi = 0; bi < r->batch; bi++)                                                         \
    for (int64_t i = 0; i < r->m; i++)                                                              \
      for (int64_t j = 0; j < r->n; j++) {                                                          \
        double acc = 0.0;                                                                           \
        for (int64_t q = 0; q < r->k; q++) {                                                        \
          double x = r->ta ? a[bi * r->m * r->k + q * r->m + i] : a[bi * r->m * r->la + i * r->la + q]; \
          double y = r->tb ? b[bi * r->k * r->n + j * r->k + q] : b[bi * r->k * r->lb + q * r->lb + j]; \
          acc = fma(x, y, acc);                                                                     \
        }                                                                                           \
        c[bi * r->m * r->lc + i * r->lc + j] = acc;                                                 \
      }

#if defined(__x86_64__) && defined(__GNUC__)
__attribute__((target("fma"))) static void reference_fma(const Ref *r, const double *a, const double *b, double *c) {
  REFERENCE_BODY
}
#endif

static void reference(const Ref *r, const double *a, const double *b, double *c) {
#if defined(__x86_64__) && defined(__GNUC__)
  if (__builtin_cpu_supports("fma")) {
    reference_fma(r, a, b, c);
    return;
  }
#endif
  REFERENCE_BODY
}
#undef REFERENCE_BODY

/* One product of batch elements m x k times k x n, A's rows lda apart
 * and B's ldb, C's ldc (0: dense); special: NaN and infinities among the
 * operands; inf_zero: A's first element inf with op(B)'s first column
 * zero (C[0][0] must be NaN). */
static bool run_shape(int64_t batch, int64_t m, int64_t n, int64_t k, int64_t lda, int64_t ldb, int64_t ldc, bool ta,
                      bool tb, bool special, bool inf_zero, RtPool *pool, int nthreads) {
  F32Gemm g = {.batch = batch, .m = m, .n = n, .k = k, .trans_a = ta, .trans_b = tb, .lda = lda, .ldb = ldb, .ldc = ldc};
  int64_t la = lda && !ta ? lda : k, lb = ldb && !tb ? ldb : n, lc = ldc ? ldc : n;
  int64_t na = batch * m * la, nb = batch * k * lb, nc = batch * m * lc;
  double *a = malloc((size_t)na * sizeof *a), *b = malloc((size_t)nb * sizeof *b);
  double *want = malloc((size_t)nc * sizeof *want), *got = malloc((size_t)nc * sizeof *got);
  for (int64_t i = 0; i < na; i++) a[i] = next_value(special);
  for (int64_t i = 0; i < nb; i++) b[i] = next_value(special);
  for (int64_t i = 0; i < nc; i++) want[i] = got[i] = 42.5;
  if (inf_zero) {
    a[0] = INFINITY;
    for (int64_t q = 0; q < k; q++) b[tb ? q : q * lb] = 0.0;
  }
  Ref r = {batch, m, n, k, la, lb, lc, ta, tb};
  reference(&r, a, b, want);
  cxla_status s = f64_gemm_kernel_big(&g, a, b, got, pool, nthreads);
  bool ok = !s;
  int bad = 0;
  for (int64_t i = 0; ok && i < nc; i++)
    if (!same_bits(want[i], got[i]) && bad++ < 3)
      fprintf(stderr, "f64 big %lldx%lldx%lldx%lld ta %d tb %d threads %d [%lld]: want %.17g got %.17g\n",
              (long long)batch, (long long)m, (long long)n, (long long)k, ta, tb, nthreads, (long long)i, want[i],
              got[i]);
  if (inf_zero && !isnan(got[0])) bad++;
  cxla_status_free(s);
  free(a), free(b), free(want), free(got);
  return ok && !bad;
}

TEST(big_matches_plain_loop) {
  if (!f32_gemm_kernel_available()) {
    SKIP("this CPU lacks AVX-512F");
    return;
  }
  /* the caller alone, a pool of 2 (the benchmarks' threads) and of 3 */
  RtPool *pool2 = NULL, *pool = NULL;
  CHECK_OK(rt_pool_create(2, &pool2));
  CHECK_OK(rt_pool_create(3, &pool));
  RtPool *pools[3] = {NULL, pool2, pool};
  static const int64_t ms[] = {1, 5, 6, 13, 97};
  static const int64_t ns[] = {1, 7, 9, 33, 70};
  static const int64_t ks[] = {1, 3, 129, 300};
  int cases = 0;
  for (size_t mi = 0; mi < sizeof ms / sizeof *ms; mi++)
    for (size_t ni = 0; ni < sizeof ns / sizeof *ns; ni++)
      for (size_t ki = 0; ki < sizeof ks / sizeof *ks; ki++) {
        int t = cases++ % 4, th = cases % 3 + 1;
        CHECK(run_shape(cases % 7 == 0 ? 2 : 1, ms[mi], ns[ni], ks[ki], 0, 0, 0, t & 1, t >> 1 & 1, cases % 5 == 0,
                        false, pools[th - 1], th));
      }
  for (int t = 0; t < 4; t++) {
    bool ta = t & 1, tb = t >> 1;
    CHECK(run_shape(1, 37, 70, 1100, 0, 0, 0, ta, tb, t == 1, false, pool, 3));
    CHECK(run_shape(2, 8, 33, 1030, 0, 0, 0, ta, tb, false, false, NULL, 1));
    CHECK(run_shape(1, 263, 257, 300, 0, 0, 0, ta, tb, t == 2, t == 3, pool, 3));
    CHECK(run_shape(1, 20, 20, 9, 0, 0, 0, ta, tb, false, true, NULL, 1));
    /* strided A, B, C: other columns of C keep their 42.5 */
    CHECK(run_shape(2, 29, 41, 131, 140, 50, 45, ta, tb, t == 0, false, pool, 3));
    CHECK(run_shape(1, 61, 45, 140, 150, 60, 50, ta, tb, false, false, pool2, 2));
  }
  /* The blocks of rows on 2 threads: equal, a multiple of 2 in number,
   * their last tiles partial (520 rows: 4 blocks of 130 = 21 tiles of 6
   * and one of 4; 250 rows: blocks of 63; 1030 steps: two blocks of steps),
   * with every side past the panels (n 300: 9 panels of 32 and one of
   * 12), k = 1, and n a whole number of panels. */
  CHECK(run_shape(1, 520, 300, 260, 0, 0, 0, false, false, false, false, pool2, 2));
  CHECK(run_shape(1, 250, 70, 1030, 0, 0, 0, false, false, true, false, pool2, 2));
  CHECK(run_shape(1, 300, 300, 1, 0, 0, 0, false, false, false, false, pool2, 2));
  CHECK(run_shape(1, 300, 256, 64, 0, 0, 0, false, false, false, false, pool2, 2));
  CHECK(run_shape(2, 131, 97, 77, 0, 0, 0, true, true, false, false, pool2, 2));
  CHECK(run_shape(1, 520, 300, 260, 0, 0, 0, false, false, false, false, NULL, 1));
  F32Gemm g0 = {.batch = 2, .m = 3, .n = 4, .k = 0};
  double c[24];
  for (int i = 0; i < 24; i++) c[i] = 7;
  CHECK_OK(f64_gemm_kernel_big(&g0, NULL, NULL, c, pool, 3));
  for (int i = 0; i < 24; i++) CHECK(c[i] == 0 && !signbit(c[i]));
  F32Gemm ge = {.batch = 1, .m = 0, .n = 4, .k = 5};
  CHECK_OK(f64_gemm_kernel_big(&ge, NULL, NULL, c, pool, 3));
  ge.m = 3, ge.n = 0;
  CHECK_OK(f64_gemm_kernel_big(&ge, NULL, NULL, c, pool, 3));
  rt_pool_destroy(pool);
  rt_pool_destroy(pool2);
}

/* Which f64 products gemm_float sends to the kernel: every side >= 256,
 * n and k <= 1024, no transposed or strided operand (those stay on BLAS). */
TEST(big_takes_large_products) {
  bool av = f32_gemm_kernel_available();
  F32Gemm g = {.batch = 1, .m = 1024, .n = 1024, .k = 1024};
  CHECK(f64_gemm_big_fits(&g) == av);
  g = (F32Gemm){.batch = 1, .m = 4096, .n = 256, .k = 256};
  CHECK(f64_gemm_big_fits(&g) == av);
  g = (F32Gemm){.batch = 1, .m = 1024, .n = 1024, .k = 1024, .trans_a = true};
  CHECK(!f64_gemm_big_fits(&g));
  g = (F32Gemm){.batch = 1, .m = 1024, .n = 1024, .k = 1024, .trans_b = true};
  CHECK(!f64_gemm_big_fits(&g));
  g = (F32Gemm){.batch = 1, .m = 255, .n = 1024, .k = 1024};
  CHECK(!f64_gemm_big_fits(&g));
  g = (F32Gemm){.batch = 1, .m = 1024, .n = 1025, .k = 1024};
  CHECK(!f64_gemm_big_fits(&g));
  g = (F32Gemm){.batch = 1, .m = 1024, .n = 1024, .k = 1025};
  CHECK(!f64_gemm_big_fits(&g));
}

/* Whole programs against the interpreter (its plain f64 sums, within
 * cpu_vs_interp's tolerance): on the kernel (odd sizes, partial tiles and
 * panels; NaN and inf handled by cpu_vs_interp's operands) and beside it
 * (B transposed: BLAS). */
TEST(programs_vs_interpreter) {
  CHECK(cpu_vs_interp("f64 big",
                      "HloModule m\nENTRY e {\n  a = f64[263,301]{1,0} parameter(0)\n  b = f64[301,259]{1,0} parameter(1)\n"
                      "  ROOT d = f64[263,259]{1,0} dot(a, b), lhs_contracting_dims={1}, rhs_contracting_dims={0}\n}\n",
                      false));
  CHECK(cpu_vs_interp("f64 big batch",
                      "HloModule m\nENTRY e {\n  a = f64[2,256,257]{2,1,0} parameter(0)\n"
                      "  b = f64[2,257,260]{2,1,0} parameter(1)\n"
                      "  ROOT d = f64[2,256,260]{2,1,0} dot(a, b), lhs_batch_dims={0}, rhs_batch_dims={0}, "
                      "lhs_contracting_dims={2}, rhs_contracting_dims={1}\n}\n",
                      false));
  CHECK(cpu_vs_interp("f64 big tb",
                      "HloModule m\nENTRY e {\n  a = f64[270,300]{1,0} parameter(0)\n  b = f64[280,300]{1,0} parameter(1)\n"
                      "  ROOT d = f64[270,280]{1,0} dot(a, b), lhs_contracting_dims={1}, rhs_contracting_dims={1}\n}\n",
                      false));
}

int main(void) {
  RUN(big_matches_plain_loop);
  RUN(big_takes_large_products);
  RUN(programs_vs_interpreter);
  return test_summary(__FILE__);
}
