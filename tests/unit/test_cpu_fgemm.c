/* The f32 GEMM kernel of small and batched products (fgemm.c):
 *   - the kernel called directly against the plain loop it promises,
 *     bit for bit: each element the fused multiply-add chain over
 *     k = 0, 1, ... from +0 (fmaf here), over odd sizes (m, n, k = 1,
 *     around the 6-row and 64-column blocks and the 128-step chunks),
 *     both transpositions, batches, on one thread and on a pool of 3
 *     (also a product of few panels, its rows split into blocks),
 *     with NaN, infinities and 0 x inf (which must give NaN: no zero
 *     factor is skipped); skipped where the CPU lacks AVX-512 and AVX2;
 *     run again on the AVX2 kernels (CXLA_CPU_GEMM_ISA=avx2);
 *   - products whose A outgrows L2, run in units of several panels, and
 *     B that is its own packed panel (64 columns), bit for bit too;
 *   - strided A, B and C (F32Gemm.lda, ldb, ldc: a column prefix of
 *     wider matrices), other columns of C untouched;
 *   - f32_gemm_blas, BLAS and (non-finite operands) the plain loop;
 *   - the BLAS path's operand scan over threads (rval_all_finite_on);
 *   - which products it takes (f32_gemm_kernel_fits) and which it must
 *     not (large ones stay on BLAS);
 *   - whole programs on the cpu backend against the interpreter: dots
 *     the kernel runs (batch dims, transposed operands, non-default
 *     layouts, NaN) and ones it must not run (too large, f64), each
 *     with the routing checked on the dot's plan. */
#include <math.h>
#include <stdlib.h>

#include "harness.h"
#include "cpu/cpu_internal.h"
#include "cpu/fgemm.h"
#include "cpu/gemm_big.h"
#include "cpu_vs_interp.h"
#include "interp/interp.h"
#include "verify/verify.h"

static uint64_t rng = 0x243F6A8885A308D3ull;

static float next_value(int special) {
  rng ^= rng << 13, rng ^= rng >> 7, rng ^= rng << 17;
  uint64_t r = rng >> 11;
  if (special && r % 97 == 3) return r % 2 ? NAN : (r % 4 == 1 ? INFINITY : -INFINITY);
  if (r % 29 == 7) return 0.0f;
  return (float)((double)(r % 1000000) / 250000.0 - 2.0);
}

/* The plain loop the kernel promises: each element the fmaf chain over
 * k = 0, 1, ... from +0. On x86-64 CPUs with FMA the chain is built for
 * them (fmaf one instruction, the same single rounding): the library
 * call, from code built without AVX, took three minutes of the test
 * under the sanitizers against two seconds without. */
#define REFERENCE_BODY                                                                         \
  int64_t M = g->m, N = g->n, K = g->k;                                                        \
  for (int64_t bi = 0; bi < g->batch; bi++)                                                    \
    for (int64_t i = 0; i < M; i++)                                                            \
      for (int64_t j = 0; j < N; j++) {                                                        \
        float acc = 0.0f;                                                                      \
        for (int64_t k = 0; k < K; k++) {                                                      \
          float x = a[bi * M * K + (g->trans_a ? k * M + i : i * K + k)];                       \
          float y = b[bi * K * N + (g->trans_b ? j * K + k : k * N + j)];                       \
          acc = fmaf(x, y, acc);                                                               \
        }                                                                                      \
        c[bi * M * N + i * N + j] = acc;                                                       \
      }

#if defined(__x86_64__) && defined(__GNUC__)
__attribute__((target("fma"))) static void reference_fma(const F32Gemm *g, const float *a, const float *b,
                                                         float *c) {
  REFERENCE_BODY
}
#endif

static void reference(const F32Gemm *g, const float *a, const float *b, float *c) {
#if defined(__x86_64__) && defined(__GNUC__)
  if (__builtin_cpu_supports("fma")) {
    reference_fma(g, a, b, c);
    return;
  }
#endif
  REFERENCE_BODY
}
#undef REFERENCE_BODY

static bool same_bits(float x, float y) { return isnan(x) ? isnan(y) : !memcmp(&x, &y, sizeof x); }

/* The threads a product runs on: all of pool's, or 1 without one. */
static int threads_of(const RtPool *pool) { return pool ? rt_pool_size(pool) : 1; }

/* Runs one shape; special: NaN and infinities among the operands;
 * inf_zero: a[0][0] = inf with row 0 of B (column 0 of op(B)) all zero. */
/* How run_shape_as runs the product. */
enum { VIA_KERNEL, VIA_PACKED, VIA_BIG, VIA_BIG_PACKED };

static bool run_shape_via(int64_t batch, int64_t m, int64_t n, int64_t k, bool ta, bool tb, bool special,
                          bool inf_zero, RtPool *pool, int via) {
  bool prepacked = via == VIA_PACKED || via == VIA_BIG_PACKED;
  F32Gemm g = {.batch = batch, .m = m, .n = n, .k = k, .trans_a = ta, .trans_b = tb};
  int64_t na = batch * m * k, nb = batch * k * n, nc = batch * m * n;
  float *a = malloc((size_t)na * sizeof *a), *b = malloc((size_t)nb * sizeof *b);
  float *want = malloc((size_t)nc * sizeof *want), *got = malloc((size_t)nc * sizeof *got);
  for (int64_t i = 0; i < na; i++) a[i] = next_value(special);
  for (int64_t i = 0; i < nb; i++) b[i] = next_value(special);
  if (inf_zero) {
    a[0] = INFINITY; /* A[0][0], whichever way A is stored */
    for (int64_t j = 0; j < n; j++) b[tb ? j * k : j] = 0.0f; /* op(B)[0][j] */
  }
  for (int64_t i = 0; i < nc; i++) got[i] = 12345.0f;
  reference(&g, a, b, want);
  cxla_status s = NULL;
  float *pb = NULL;
  if (prepacked) {
    /* the packed form over a canvas of 12345s: every float of it written */
    int64_t np = f32_gemm_packed_floats(&g);
    pb = malloc((size_t)(np > 0 ? np : 1) * sizeof *pb);
    for (int64_t i = 0; i < np; i++) pb[i] = 12345.0f;
    s = f32_gemm_pack_b(&g, b, pb, pool, threads_of(pool));
    /* B's own storage gone: the product reads only the packed form */
    for (int64_t i = 0; i < nb; i++) b[i] = -777.0f;
    if (!s && via == VIA_PACKED) s = f32_gemm_kernel_packed(&g, a, pb, got, pool, threads_of(pool));
    if (!s && via == VIA_BIG_PACKED) s = f32_gemm_kernel_big_packed(&g, a, pb, got, pool, threads_of(pool));
  } else if (via == VIA_BIG) {
    s = f32_gemm_kernel_big(&g, a, b, got, pool, threads_of(pool));
  } else {
    s = f32_gemm_kernel(&g, a, b, got, pool, threads_of(pool));
  }
  free(pb);
  bool ok = !s;
  static const char *const names[] = {"f32_gemm_kernel", "f32_gemm_kernel_packed", "f32_gemm_kernel_big",
                                      "f32_gemm_kernel_big_packed"};
  if (s) fprintf(stderr, "%s: %s\n", names[via], cxla_status_message(s));
  cxla_status_free(s);
  int64_t bad = 0;
  for (int64_t i = 0; ok && i < nc; i++)
    if (!same_bits(want[i], got[i]) && bad++ < 3)
      fprintf(stderr, "b=%lld m=%lld n=%lld k=%lld ta=%d tb=%d via %s: element %lld: want %.9g got %.9g\n",
              (long long)batch, (long long)m, (long long)n, (long long)k, ta, tb, names[via], (long long)i, want[i],
              got[i]);
  if (ok && inf_zero && !isnan(got[0])) {
    fprintf(stderr, "inf x 0 gave %g, want NaN\n", got[0]);
    bad++;
  }
  free(a);
  free(b);
  free(want);
  free(got);
  return ok && bad == 0;
}

static bool run_shape_as(int64_t batch, int64_t m, int64_t n, int64_t k, bool ta, bool tb, bool special,
                         bool inf_zero, RtPool *pool, bool prepacked) {
  return run_shape_via(batch, m, n, k, ta, tb, special, inf_zero, pool, prepacked ? VIA_PACKED : VIA_KERNEL);
}

static bool run_shape(int64_t batch, int64_t m, int64_t n, int64_t k, bool ta, bool tb, bool special,
                      bool inf_zero, RtPool *pool) {
  return run_shape_as(batch, m, n, k, ta, tb, special, inf_zero, pool, false);
}

TEST(kernel_matches_plain_loop) {
  if (!f32_gemm_small_available()) {
    SKIP("this CPU lacks AVX-512F and AVX2");
    return;
  }
  RtPool *pool = NULL;
  CHECK_OK(rt_pool_create(3, &pool));
  static const int64_t ms[] = {1, 2, 5, 6, 7, 13, 32};
  static const int64_t ns[] = {1, 15, 16, 17, 64, 65, 130};
  static const int64_t ks[] = {1, 3, 128, 129, 300};
  int cases = 0;
  for (size_t mi = 0; mi < sizeof ms / sizeof *ms; mi++)
    for (size_t ni = 0; ni < sizeof ns / sizeof *ns; ni++)
      for (size_t ki = 0; ki < sizeof ks / sizeof *ks; ki++) {
        int t = cases++ % 4;
        bool ta = t & 1, tb = t >> 1 & 1;
        CHECK(run_shape(cases % 3 == 0 ? 3 : 1, ms[mi], ns[ni], ks[ki], ta, tb, cases % 5 == 0, false,
                        cases % 2 ? pool : NULL));
      }
  /* every transposition on a batch large enough to split over threads */
  for (int t = 0; t < 4; t++) CHECK(run_shape(8, 40, 100, 70, t & 1, t >> 1, false, false, pool));
  /* hundreds of rows, K past a 128-step block, non-finite values (4
   * panels for 3 threads: the rows are split into blocks of 72, 72, 56) */
  for (int t = 0; t < 4; t++) CHECK(run_shape(2, 200, 70, 150, t & 1, t >> 1, t == 3, false, pool));
  /* one panel: rows split into blocks of 30, 30, 30 and 7 (a 6-row tile
   * and a 1-row one), special values, and 0 x inf in the first block */
  for (int t = 0; t < 4; t++) {
    CHECK(run_shape(1, 97, 64, 300, t & 1, t >> 1, false, false, pool));
    CHECK(run_shape(1, 97, 50, 300, t & 1, t >> 1, t == 2, t != 2, pool));
  }
  /* a classifier's head: one panel of 10 columns (the one-vector
   * kernels), its weight gradient (A transposed) and its input gradient */
  for (int t = 0; t < 2; t++) {
    CHECK(run_shape(1, 256, 10, 512, false, t, t == 1, false, pool));
    CHECK(run_shape(1, 512, 10, 256, true, false, false, false, t ? pool : NULL));
    CHECK(run_shape(1, 256, 512, 10, false, true, false, false, t ? pool : NULL));
  }
  /* A stored transposed whose columns fall in few L1 sets (rows 512
   * and 2048 bytes apart): transposed into scratch first, 16 x 16
   * blocks and the steps past the last whole one (K = 33, 100); batches;
   * B transposed too; special values */
  for (int t = 0; t < 4; t++) {
    CHECK(run_shape(t == 1 ? 3 : 1, 128, 70, 100, true, t & 1, t == 2, t == 3, t ? pool : NULL));
    CHECK(run_shape(2, 512, 40, 33, true, t >> 1, false, false, pool));
  }
  /* 0 x inf is NaN, in place (m <= 6: B read in place) and packed */
  for (int t = 0; t < 4; t++) {
    CHECK(run_shape(1, 3, 20, 9, t & 1, t >> 1, false, true, NULL));
    CHECK(run_shape(1, 20, 20, 9, t & 1, t >> 1, false, true, pool));
  }
  /* B transposed is packed 16 columns by 16 steps at a time (a register
   * transpose): K at and around multiples of 16, panels of 16, 33 and 48
   * columns (16-column groups full, partial, empty), packed once and not */
  static const int64_t tks[] = {15, 16, 17, 32, 47};
  static const int64_t tns[] = {16, 33, 48};
  for (size_t ki = 0; ki < sizeof tks / sizeof *tks; ki++)
    for (size_t ni = 0; ni < sizeof tns / sizeof *tns; ni++) {
      CHECK(run_shape_via(1, 13, tns[ni], tks[ki], ki & 1, true, ni == 1, false, ki & 1 ? pool : NULL, VIA_KERNEL));
      CHECK(run_shape_via(2, 7, tns[ni], tks[ki], false, true, false, ni == 2, pool, VIA_PACKED));
    }
  /* the few-row, wide or deep products f32_gemm_kernel_fits takes past
   * m n k = 2^27 (odd sizes of them: 131 rows, panels cut at n, k past
   * 1024 and not a multiple of the 128-step blocks), one thread and 3 */
  for (int t = 0; t < 4; t++) {
    CHECK(run_shape(1, 131, 1100, 37, t & 1, t >> 1, t == 1, false, t & 1 ? pool : NULL));
    CHECK(run_shape(1, 133, 70, 1500, t & 1, t >> 1, t == 3, false, t & 1 ? NULL : pool));
  }
  /* k = 0: zeros; empty products: nothing written */
  F32Gemm g0 = {.batch = 2, .m = 3, .n = 4, .k = 0};
  float c[24];
  for (int i = 0; i < 24; i++) c[i] = 7;
  CHECK_OK(f32_gemm_kernel(&g0, NULL, NULL, c, pool, 3));
  for (int i = 0; i < 24; i++) CHECK(c[i] == 0 && !signbit(c[i]));
  rt_pool_destroy(pool);
}

/* Products whose A is past 1 MiB run in units of several panels (each
 * unit packs its panels, then runs every panel per 128-step block):
 * the same plain loop, bit for bit. One thread (2 units wanted: 5
 * panels in units of 3 and 2, the last panel 44 columns) and a pool of
 * 3 (6 units wanted: 13 panels in units of 3, the last of one panel of
 * 12 columns); K not a multiple of 128; every transposition; NaN,
 * infinities and 0 x inf. Also B that is its own panel (64 columns,
 * not transposed: read in place, never packed) over many rows. */
TEST(panel_groups_match_plain_loop) {
  if (!f32_gemm_small_available()) {
    SKIP("this CPU lacks AVX-512F and AVX2");
    return;
  }
  RtPool *pool = NULL;
  CHECK_OK(rt_pool_create(3, &pool));
  for (int t = 0; t < 4; t++) {
    CHECK(run_shape(1, 250, 300, 1100, t & 1, t >> 1, t == 1, t == 2, NULL));
    CHECK(run_shape(1, 200, 780, 1401, t & 1, t >> 1, t == 3, t == 0, pool));
  }
  for (int t = 0; t < 2; t++) {
    CHECK(run_shape(1, 131, 64, 700, t, false, t == 1, t == 0, t ? pool : NULL));
    CHECK(run_shape(3, 40, 64, 129, t, false, false, false, t ? NULL : pool));
  }
  rt_pool_destroy(pool);
}

/* f32_gemm_kernel_big (B packed once, slice by slice, rows of C in
 * blocks with their part of A packed in 6-row tiles, steps in blocks of
 * up to 2048): the same plain loop, bit for bit. Odd sizes: partial
 * tiles (m not a multiple of 6, m < 6), panels cut at n (n < 16, n not a
 * multiple of 16 or 64), K past the 128-step blocks and past a 2048-step
 * block (2100: A packed twice per block of rows, C accumulated over both);
 * every transposition (B transposed is packed panel by panel, else row by
 * row); one thread and a pool of 3 (blocks of rows: 97 rows on 3 threads
 * in 3 blocks of 5 or 6 tiles, the last of 31 rows); batches; NaN, infinities and
 * 0 x inf; k = 0 (zeros); empty products (nothing written). */
TEST(big_matches_plain_loop) {
  if (!f32_gemm_kernel_available()) {
    SKIP("this CPU lacks AVX-512F");
    return;
  }
  RtPool *pool = NULL;
  CHECK_OK(rt_pool_create(3, &pool));
  static const int64_t ms[] = {1, 5, 6, 13, 97};
  static const int64_t ns[] = {1, 15, 17, 64, 130};
  static const int64_t ks[] = {1, 3, 129, 300};
  int cases = 0;
  for (size_t mi = 0; mi < sizeof ms / sizeof *ms; mi++)
    for (size_t ni = 0; ni < sizeof ns / sizeof *ns; ni++)
      for (size_t ki = 0; ki < sizeof ks / sizeof *ks; ki++) {
        int t = cases++ % 4;
        CHECK(run_shape_via(cases % 7 == 0 ? 2 : 1, ms[mi], ns[ni], ks[ki], t & 1, t >> 1 & 1, cases % 5 == 0,
                            false, cases % 2 ? pool : NULL, VIA_BIG));
      }
  for (int t = 0; t < 4; t++) {
    bool ta = t & 1, tb = t >> 1;
    CHECK(run_shape_via(1, 37, 70, 2100, ta, tb, t == 1, false, pool, VIA_BIG));
    CHECK(run_shape_via(2, 8, 33, 2060, ta, tb, false, false, NULL, VIA_BIG));
    CHECK(run_shape_via(1, 200, 131, 260, ta, tb, t == 2, t == 3, pool, VIA_BIG));
    CHECK(run_shape_via(1, 20, 20, 9, ta, tb, false, true, NULL, VIA_BIG));
  }
  /* B packed a slice at a time where a block of rows first needs it
   * (threads no more than the processors): two threads, 2 blocks of
   * rows (tiles 11 and 11, the last partial)
   * starting at panels 0 and 2 of 5 (the last of 44 columns), each
   * packing what it reaches first and waiting for, or reading, what the
   * other packed; 2100 steps (each panel in slices of two blocks of
   * steps); two batch elements (the slices packed again for the second) */
  RtPool *pool2 = NULL;
  CHECK_OK(rt_pool_create(2, &pool2));
  for (int t = 0; t < 4; t++)
    CHECK(run_shape_via(t == 3 ? 2 : 1, 130, 300, t < 2 ? 2100 : 300, t & 1, t >> 1 & 1, t == 2, false, pool2, VIA_BIG));
  rt_pool_destroy(pool2);
  /* more threads than the machine's processors: B packed whole, over the
   * threads, before the products (a thread waiting for a slice could
   * wait for its packer to be scheduled) */
  RtPool *over = NULL;
  CHECK_OK(rt_pool_create(rt_pool_cpus(pool) + 1, &over));
  for (int t = 0; t < 4; t++)
    CHECK(run_shape_via(t == 1 ? 2 : 1, 130, 300, t < 2 ? 2100 : 300, t & 1, t >> 1 & 1, t == 3, false, over,
                        VIA_BIG));
  rt_pool_destroy(over);
  /* B packed beforehand (f32_gemm_pack_b, B's storage then overwritten):
   * the same panels, bit for bit the same; batches (each element's
   * panels after the last's), K past a 2048-step block, partial panels */
  for (int t = 0; t < 4; t++) {
    bool ta = t & 1, tb = t >> 1;
    CHECK(run_shape_via(t == 2 ? 2 : 1, 97, 130, 300, ta, tb, t == 1, t == 3, t & 1 ? pool : NULL, VIA_BIG_PACKED));
    CHECK(run_shape_via(1, 37, 70, 2100, ta, tb, t == 0, false, pool, VIA_BIG_PACKED));
    CHECK(run_shape_via(1, 13, 17, 129, ta, tb, false, t == 2, NULL, VIA_BIG_PACKED));
  }
  F32Gemm g0 = {.batch = 2, .m = 3, .n = 4, .k = 0};
  float c[24];
  for (int i = 0; i < 24; i++) c[i] = 7;
  CHECK_OK(f32_gemm_kernel_big(&g0, NULL, NULL, c, pool, 3));
  for (int i = 0; i < 24; i++) CHECK(c[i] == 0 && !signbit(c[i]));
  F32Gemm ge = {.batch = 1, .m = 0, .n = 4, .k = 5};
  CHECK_OK(f32_gemm_kernel_big(&ge, NULL, NULL, c, pool, 3));
  ge.m = 3, ge.n = 0;
  CHECK_OK(f32_gemm_kernel_big(&ge, NULL, NULL, c, pool, 3));
  rt_pool_destroy(pool);
}

/* The blocks of rows of the big path (gemm_big_blocks): for the f32,
 * f64 and bf16 pair types' sizes, rows from 256 to 4096, steps at and
 * past a block of steps, 1 to 8 threads: a multiple of the threads
 * (each thread's share the same: the pool's runs then hold nb / th
 * blocks each, test_runtime_pool runs_share_evenly), at least as many as
 * the threads, each block's packed A at most a_bytes and one tile (the
 * tiles dealt out evenly), or one block per tile where there are fewer. */
TEST(big_blocks_per_thread) {
  /* the three types' sizes (fgemm.c, dgemm.c, bgemm.c: bf16 pairs as
   * 32-bit elements) */
  static const GemmBigType types[] = {{.esize = 4, .mr = 6, .kb = 2048, .a_bytes = 1 << 20},
                                      {.esize = 8, .mr = 6, .kb = 1024, .a_bytes = 1 << 19},
                                      {.esize = 4, .mr = 6, .kb = 1024, .a_bytes = 1 << 19}};
  static const int64_t ks[] = {256, 768, 1024, 2048, 4096};
  static const int64_t ths[] = {1, 2, 3, 4, 8};
  int64_t checked = 0, bad = 0;
  for (size_t ti = 0; ti < 3; ti++)
    for (int64_t m = 256; m <= 4096; m += 94)
      for (size_t ki = 0; ki < 5; ki++)
        for (size_t hi = 0; hi < 5; hi++) {
          const GemmBigType *t = &types[ti];
          int64_t th = ths[hi], k = ks[ki], tiles = (m + 5) / 6;
          int64_t nb = gemm_big_blocks(t, m, k, th);
          int64_t kb = k < t->kb ? k : t->kb, rows = (tiles + nb - 1) / nb * 6;
          bool ok = nb >= 1 && nb <= tiles && (nb % th == 0 || nb == tiles) && (nb >= th || nb == tiles) &&
                    (rows - 6) * kb * t->esize <= t->a_bytes;
          if (!ok && bad++ < 5)
            fprintf(stderr, "type %zu m %lld k %lld th %lld: %lld blocks of %lld rows\n", ti, (long long)m,
                    (long long)k, (long long)th, (long long)nb, (long long)rows);
          checked++;
        }
  CHECK(bad == 0 && checked == 3 * 41 * 5 * 5);
}

/* Which products gemm_float sends to f32_gemm_kernel_big: past the
 * small kernel, every side >= 256, n and k <= 4096 (the bench's 1024^3
 * and 2048^3, gpt2's 1024 x 768 x 3072 and 1024 x 3072 x 768,
 * programs_vs_interpreter's "big" cases; n or k = 4097 stay on BLAS). */
TEST(big_takes_large_products) {
  bool av = f32_gemm_kernel_available();
  F32Gemm g = {.batch = 1, .m = 1024, .n = 1024, .k = 1024};
  CHECK(f32_gemm_big_fits(&g) == av && !f32_gemm_kernel_fits(&g));
  g = (F32Gemm){.batch = 1, .m = 520, .n = 515, .k = 600};
  CHECK(f32_gemm_big_fits(&g) == av && !f32_gemm_kernel_fits(&g));
  g = (F32Gemm){.batch = 1, .m = 2048, .n = 2048, .k = 2048};
  CHECK(f32_gemm_big_fits(&g) == av && !f32_gemm_kernel_fits(&g));
  g = (F32Gemm){.batch = 1, .m = 2048, .n = 2048, .k = 4096};
  CHECK(f32_gemm_big_fits(&g) == av);
  g = (F32Gemm){.batch = 1, .m = 2048, .n = 2048, .k = 4097};
  CHECK(!f32_gemm_big_fits(&g));
  g = (F32Gemm){.batch = 1, .m = 1024, .n = 4097, .k = 768};
  CHECK(!f32_gemm_big_fits(&g));
  g = (F32Gemm){.batch = 1, .m = 4096, .n = 255, .k = 1024};
  CHECK(!f32_gemm_big_fits(&g));
  g = (F32Gemm){.batch = 1, .m = 1024, .n = 3072, .k = 768};
  CHECK(f32_gemm_big_fits(&g) == av);
  g = (F32Gemm){.batch = 1, .m = 4096, .n = 768, .k = 768};
  CHECK(f32_gemm_big_fits(&g) == av);
}

/* B packed once (f32_gemm_pack_b) and read packed
 * (f32_gemm_kernel_packed): the same plain loop, bit for bit, over the
 * same odd sizes (m <= 6 too, where the unpacked kernel reads B in place;
 * panels cut at n; K past the 128-step blocks), both transpositions,
 * batches, one thread and a pool of 3 (rows split into blocks sharing a
 * panel), NaN, infinities and 0 x inf. The packed form is written over a
 * canvas and B's storage overwritten before the product: it reads only the
 * packed form. */
TEST(packed_b_matches_plain_loop) {
  if (!f32_gemm_small_available()) {
    SKIP("this CPU lacks AVX-512F and AVX2");
    return;
  }
  RtPool *pool = NULL;
  CHECK_OK(rt_pool_create(3, &pool));
  static const int64_t ms[] = {1, 5, 6, 7, 32};
  static const int64_t ns[] = {1, 17, 64, 65, 130};
  static const int64_t ks[] = {1, 128, 129, 300};
  int cases = 0;
  for (size_t mi = 0; mi < sizeof ms / sizeof *ms; mi++)
    for (size_t ni = 0; ni < sizeof ns / sizeof *ns; ni++)
      for (size_t ki = 0; ki < sizeof ks / sizeof *ks; ki++) {
        int t = cases++ % 4;
        CHECK(run_shape_as(cases % 3 == 0 ? 3 : 1, ms[mi], ns[ni], ks[ki], t & 1, t >> 1 & 1, cases % 5 == 0,
                           false, cases % 2 ? pool : NULL, true));
      }
  for (int t = 0; t < 4; t++) {
    CHECK(run_shape_as(8, 40, 100, 70, t & 1, t >> 1, false, false, pool, true));
    CHECK(run_shape_as(1, 97, 64, 300, t & 1, t >> 1, t == 2, false, pool, true));
    CHECK(run_shape_as(1, 3, 20, 9, t & 1, t >> 1, false, true, NULL, true));
    CHECK(run_shape_as(1, 20, 20, 9, t & 1, t >> 1, false, true, pool, true));
  }
  /* the packed size: every panel 64 columns wide, per batch element */
  F32Gemm g = {.batch = 3, .m = 5, .n = 65, .k = 7};
  CHECK(f32_gemm_packed_floats(&g) == 3 * 2 * 7 * 64);
  rt_pool_destroy(pool);
}

/* The executor keeps B packed on its value (RVal.packed, routines.c:
 * packed_b): not on the first product that reads it, on the second of
 * the same geometry, then read from there; a product of another geometry
 * packs for itself and leaves it; the results are the unpacked kernel's,
 * bit for bit; rval_drop_packed forgets it. */
TEST(packed_b_kept_on_the_value) {
  if (!f32_gemm_small_available()) {
    SKIP("this CPU lacks AVX-512F and AVX2");
    return;
  }
  RtPool *pool = NULL;
  CHECK_OK(rt_pool_create(2, &pool));
  ExecCtx cx = {.pool = pool, .nthreads = 2};
  int64_t ad[2] = {32, 100}, bd[2] = {100, 130}, cd[2] = {32, 130}, td[2] = {130, 32};
  RVal *a = NULL, *b = NULL, *c = NULL, *ct = NULL;
  CHECK_OK(rval_array(T_F32, 2, ad, &a));
  CHECK_OK(rval_array(T_F32, 2, bd, &b));
  CHECK_OK(rval_array(T_F32, 2, cd, &c));
  CHECK_OK(rval_array(T_F32, 2, td, &ct));
  if (!a || !b || !c || !ct) return;
  float *want = malloc(32 * 130 * sizeof *want);
  for (int64_t i = 0; i < 32 * 100; i++) ((float *)a->lit.data)[i] = next_value(1);
  for (int64_t i = 0; i < 100 * 130; i++) ((float *)b->lit.data)[i] = next_value(1);
  F32Gemm g = {.batch = 1, .m = 32, .n = 130, .k = 100};
  CHECK_OK(f32_gemm_kernel(&g, a->lit.data, b->lit.data, want, NULL, 1));
  GemmPlan p = {.batch = 1, .m = 32, .n = 130, .k = 100};
  for (int round = 0; round < 3; round++) {
    memset(c->lit.data, 0, 32 * 130 * sizeof(float));
    CHECK_OK(gemm_run_into(&cx, &p, a, b, c));
    CHECK((b->packed != NULL) == (round > 0));
    for (int64_t i = 0; i < 32 * 130; i++) CHECK(same_bits(want[i], ((float *)c->lit.data)[i]));
  }
  /* C^T = B^T A^T: b as the lhs, a transposed as B (another value, another
   * geometry): b's packed form stays as it was */
  float *kept = b->packed ? b->packed->data : NULL;
  GemmPlan pt = {.batch = 1, .m = 130, .n = 32, .k = 100, .trans_a = true, .trans_b = true};
  CHECK_OK(gemm_run_into(&cx, &pt, b, a, ct));
  CHECK(b->packed && b->packed->data == kept && !a->packed);
  for (int64_t i = 0; i < 32; i++)
    for (int64_t j = 0; j < 130; j++) CHECK(same_bits(want[i * 130 + j], ((float *)ct->lit.data)[j * 32 + i]));
  /* a product of another geometry with b as B (its first 50 rows read as
   * a 50 x 130 B): packs for itself, b's form unchanged */
  GemmPlan ph = {.batch = 1, .m = 32, .n = 130, .k = 50};
  RVal *a50 = NULL;
  int64_t a50d[2] = {32, 50};
  CHECK_OK(rval_array(T_F32, 2, a50d, &a50));
  if (a50) {
    for (int64_t i = 0; i < 32 * 50; i++) ((float *)a50->lit.data)[i] = next_value(0);
    F32Gemm gh = {.batch = 1, .m = 32, .n = 130, .k = 50};
    CHECK_OK(f32_gemm_kernel(&gh, a50->lit.data, b->lit.data, want, NULL, 1));
    for (int round = 0; round < 2; round++) {
      CHECK_OK(gemm_run_into(&cx, &ph, a50, b, c));
      CHECK(b->packed && b->packed->data == kept);
      for (int64_t i = 0; i < 32 * 130; i++) CHECK(same_bits(want[i], ((float *)c->lit.data)[i]));
    }
  }
  rval_drop_packed(b);
  CHECK(!b->packed && !b->packed_seen);
  free(want);
  rval_unref(a50);
  rval_unref(a);
  rval_unref(b);
  rval_unref(c);
  rval_unref(ct);
  rt_pool_destroy(pool);
}

/* Arguments uniform in [-1, 1) (no NaN: a loop's state would be NaN
 * throughout). */
static double unit_value(void *ctx, int param, int64_t e, double u) {
  (void)ctx, (void)param, (void)e;
  return u * 2 - 1;
}

/* A while loop on the cpu backend against the interpreter (floats to a
 * relative 1e-5 of the largest result; an array result), on one thread
 * and on a pool of 3;
 * *inplace: the kernel outputs written over an operand (1 thread). */
static bool loop_case(const char *name, const char *text, int64_t *inplace) {
  cxla_module *m = NULL;
  Literal **args = NULL, *want = NULL, *got[2] = {0};
  CpuExecutable *x = NULL;
  RtPool *pool = NULL;
  bool ok = false;
  cxla_status s = cxla_module_parse(text, strlen(text), name, &m);
  if (!s) s = verify_module(m);
  if (!s) s = cpu_vs_interp_args_fn(m, 0x51ED2701ull, unit_value, NULL, &args);
  if (!s) s = cxla_interp_run(m, args, m->entry->nparams, &want);
  if (!s) s = cpu_compile(m, NULL, &x);
  *inplace = 0;
  CpuExecOptions o1 = {.kernels_inplace = inplace};
  if (!s) s = cpu_execute_opts(x, args, m->entry->nparams, &o1, &got[0]);
  if (!s) s = rt_pool_create(3, &pool);
  CpuExecOptions o3 = {.pool = pool};
  if (!s) s = cpu_execute_opts(x, args, m->entry->nparams, &o3, &got[1]);
  if (s) {
    fprintf(stderr, "%s: %s\n", name, cxla_status_message(s));
  } else {
    ok = true;
    double mx = 0;
    for (int64_t i = 0; i < want->nelems; i++) {
      double w = literal_get_f64(want, i);
      if (isfinite(w) && fabs(w) > mx) mx = fabs(w);
    }
    ok = want->type != T_TUPLE && want->nelems > 0;
    for (int r = 0; r < 2 && ok; r++) {
      ok = want->nelems == got[r]->nelems && want->type == got[r]->type;
      int64_t bad = 0;
      for (int64_t i = 0; ok && i < want->nelems; i++) {
        double w = literal_get_f64(want, i), g = literal_get_f64(got[r], i);
        if (!(isnan(w) ? isnan(g) : !isnan(g) && fabs(w - g) <= 1e-5 * mx) && bad++ < 5)
          fprintf(stderr, "%s (%d threads): element %lld: want %.9g got %.9g\n", name, r ? 3 : 1, (long long)i, w,
                  g);
      }
      ok &= bad == 0;
    }
  }
  cxla_status_free(s);
  cpu_vs_interp_free_args(m, args);
  literal_free(want);
  literal_free(got[0]);
  literal_free(got[1]);
  if (pool) rt_pool_destroy(pool);
  cpu_executable_destroy(x);
  cxla_module_destroy(m);
  return ok;
}

/* An RNN-like loop: its weight w (passed through unchanged) is B of a
 * dot every trip (packed on the second trip, then read packed), and u is
 * B of two dots per trip and then updated in place (row i set to a row of
 * this trip's sums by a dynamic-update-slice in u's buffer): its packed
 * form, made by the second dot, must be dropped with the write, or the
 * next trip would read the old u. */
TEST(loop_weights_packed_once) {
  static const char *text =
      "HloModule m\n"
      "body {\n"
      "  p = (s32[], f32[8,40]{1,0}, f32[40,70]{1,0}, f32[40,70]{1,0}) parameter(0)\n"
      "  i = s32[] get-tuple-element(p), index=0\n"
      "  h = f32[8,40]{1,0} get-tuple-element(p), index=1\n"
      "  w = f32[40,70]{1,0} get-tuple-element(p), index=2\n"
      "  u = f32[40,70]{1,0} get-tuple-element(p), index=3\n"
      "  one = s32[] constant(1)\n"
      "  i1 = s32[] add(i, one)\n"
      "  d1 = f32[8,70]{1,0} dot(h, w), lhs_contracting_dims={1}, rhs_contracting_dims={0}\n"
      "  d2 = f32[8,70]{1,0} dot(h, u), lhs_contracting_dims={1}, rhs_contracting_dims={0}\n"
      "  hs = f32[8,40]{1,0} sine(h)\n"
      "  d3 = f32[8,70]{1,0} dot(hs, u), lhs_contracting_dims={1}, rhs_contracting_dims={0}\n"
      "  s1 = f32[8,70]{1,0} add(d1, d2)\n"
      "  s2 = f32[8,70]{1,0} add(s1, d3)\n"
      "  t = f32[8,40]{1,0} slice(s2), slice={[0:8], [0:40]}\n"
      "  h1 = f32[8,40]{1,0} tanh(t)\n"
      "  row = f32[1,70]{1,0} slice(s2), slice={[1:2], [0:70]}\n"
      "  zero = s32[] constant(0)\n"
      "  u1 = f32[40,70]{1,0} dynamic-update-slice(u, row, i, zero)\n"
      "  ROOT r = (s32[], f32[8,40]{1,0}, f32[40,70]{1,0}, f32[40,70]{1,0}) tuple(i1, h1, w, u1)\n"
      "}\n"
      "cond {\n"
      "  p = (s32[], f32[8,40]{1,0}, f32[40,70]{1,0}, f32[40,70]{1,0}) parameter(0)\n"
      "  i = s32[] get-tuple-element(p), index=0\n"
      "  n = s32[] constant(12)\n"
      "  ROOT lt = pred[] compare(i, n), direction=LT\n"
      "}\n"
      "ENTRY e {\n"
      "  h0 = f32[8,40]{1,0} parameter(0)\n"
      "  w0 = f32[40,70]{1,0} parameter(1)\n"
      "  u0 = f32[40,70]{1,0} parameter(2)\n"
      "  z = s32[] constant(0)\n"
      "  t = (s32[], f32[8,40]{1,0}, f32[40,70]{1,0}, f32[40,70]{1,0}) tuple(z, h0, w0, u0)\n"
      "  wl = (s32[], f32[8,40]{1,0}, f32[40,70]{1,0}, f32[40,70]{1,0}) while(t), condition=cond, body=body\n"
      "  ROOT uN = f32[40,70]{1,0} get-tuple-element(wl), index=3\n"
      "}\n";
  int64_t inplace = 0;
  CHECK(loop_case("loop weights", text, &inplace));
  /* u's update ran in place (at least once per trip after the first) */
  CHECK(inplace >= 10);
}

/* f32_gemm_blas: the plain loop (finite false) sums in order, bit for
 * bit as written here; BLAS (finite true) to a relative 1e-5. */
TEST(blas_and_plain_loop) {
  F32Gemm g = {.batch = 2, .m = 9, .n = 11, .k = 13, .trans_a = true, .trans_b = true};
  float a[2 * 9 * 13], b[2 * 13 * 11], want[2 * 9 * 11], got[2 * 9 * 11];
  for (int special = 0; special < 2; special++) {
    for (size_t i = 0; i < sizeof a / sizeof *a; i++) a[i] = next_value(special);
    for (size_t i = 0; i < sizeof b / sizeof *b; i++) b[i] = next_value(special);
    for (int64_t bi = 0; bi < 2; bi++)
      for (int64_t i = 0; i < 9; i++)
        for (int64_t j = 0; j < 11; j++) {
          float acc = 0;
          for (int64_t k = 0; k < 13; k++) acc += a[bi * 117 + k * 9 + i] * b[bi * 143 + j * 13 + k];
          want[bi * 99 + i * 11 + j] = acc;
        }
    CHECK_OK(f32_gemm_blas(&g, a, b, got, !special, NULL, 1));
    for (int i = 0; i < 198; i++)
      CHECK(special ? same_bits(want[i], got[i]) : fabsf(want[i] - got[i]) <= 1e-5f * (1 + fabsf(want[i])) * 13);
  }
}

/* rval_all_finite_on: the BLAS path's operand scan, sliced over a pool
 * for large arrays: one NaN or infinity anywhere (first, last, the middle
 * of a later slice) is found; every type; the answer is kept. */
TEST(finite_scan_over_threads) {
  RtPool *pool = NULL;
  CHECK_OK(rt_pool_create(3, &pool));
  static const ElemType types[] = {T_F32, T_F64, T_C64, T_C128};
  for (int ti = 0; ti < 4; ti++) {
    ElemType t = types[ti];
    int64_t dims[1] = {(1 << 20) + 37}, n2 = type_is_complex(t) ? 2 : 1, n = dims[0] * n2;
    bool wide = t == T_F64 || t == T_C128;
    int64_t where[4] = {-1, 0, n - 1, n / 2 + 3};
    for (int w = 0; w < 4; w++)
      for (int bad = 0; bad < 2; bad++) {
        RVal *v = NULL;
        CHECK_OK(rval_array(t, 1, dims, &v));
        if (!v) continue;
        for (int64_t i = 0; i < n; i++) {
          if (wide) ((double *)v->lit.data)[i] = (double)(i % 100) - 50.5;
          else ((float *)v->lit.data)[i] = (float)(i % 100) - 50.5f;
        }
        double x = bad ? INFINITY : NAN;
        if (where[w] >= 0) {
          if (wide) ((double *)v->lit.data)[where[w]] = x;
          else ((float *)v->lit.data)[where[w]] = (float)x;
        }
        bool want = where[w] < 0;
        CHECK(rval_all_finite_on(v, n2, pool, 3) == want);
        CHECK(rval_all_finite_on(v, n2, pool, 3) == want); /* kept */
        rval_unref(v);
      }
  }
  rt_pool_destroy(pool);
}

TEST(kernel_takes_small_products_only) {
  F32Gemm small = {.batch = 32, .m = 256, .n = 256, .k = 256}, lstm = {.batch = 1, .m = 32, .n = 1024, .k = 256};
  F32Gemm big = {.batch = 1, .m = 1024, .n = 1024, .k = 1024}, tall = {.batch = 1, .m = 2048, .n = 4, .k = 4};
  F32Gemm deep = {.batch = 1, .m = 4, .n = 4, .k = 4096};
  bool avail = f32_gemm_small_available(), big_avail = f32_gemm_kernel_available();
  CHECK(f32_gemm_kernel_fits(&small) == avail);
  CHECK(f32_gemm_kernel_fits(&lstm) == avail);
  CHECK(!f32_gemm_kernel_fits(&big));
  CHECK(!f32_gemm_kernel_fits(&tall));
  CHECK(!f32_gemm_kernel_fits(&deep));
  /* 128 to 256 rows, k <= 2048, any n: a transformer MLP's products at
   * 256 tokens (m n k 2^28) and wider; not 257 rows, not k 2049, not 127
   * rows past 2^27 */
  F32Gemm mlp_up = {.batch = 1, .m = 256, .n = 2048, .k = 512}, mlp_down = {.batch = 1, .m = 256, .n = 512, .k = 2048};
  F32Gemm wide = {.batch = 4, .m = 128, .n = 100000, .k = 2048, .trans_b = true};
  F32Gemm deep_few = {.batch = 1, .m = 200, .n = 512, .k = 2048};
  CHECK(f32_gemm_kernel_fits(&mlp_up) == avail);
  CHECK(f32_gemm_kernel_fits(&wide) == avail);
  CHECK(f32_gemm_kernel_fits(&deep_few) == avail);
  /* ... except those of k >= 1024 that the big path takes (256 rows,
   * n <= 4096): the MLP's down projection 256 x 512 x 2048 (its A, the
   * 2 MiB of activations, packed once per block of rows there), and
   * 256 x 1024 x 1024; k 1023 stays */
  CHECK(f32_gemm_kernel_fits(&mlp_down) == (avail && !big_avail));
  CHECK(f32_gemm_big_fits(&mlp_down) == big_avail);
  F32Gemm k1024 = {.batch = 1, .m = 256, .n = 1024, .k = 1024}, k1023 = {.batch = 1, .m = 256, .n = 1024, .k = 1023};
  CHECK(f32_gemm_kernel_fits(&k1024) == (avail && !big_avail));
  CHECK(f32_gemm_kernel_fits(&k1023) == avail);
  mlp_up.m = 257;
  mlp_down.k = 2049;
  wide.m = 127;
  CHECK(!f32_gemm_kernel_fits(&mlp_up));
  CHECK(!f32_gemm_kernel_fits(&mlp_down));
  CHECK(!f32_gemm_kernel_fits(&wide));
}

/* The plan of the dot named "d" in text, as the kernel would see it:
 * *fits receives whether the kernel runs it (f32 only). */
static bool dot_fits(const char *text, bool *fits) {
  cxla_module *m = NULL;
  *fits = false;
  cxla_status s = cxla_module_parse(text, strlen(text), "plan", &m);
  bool ok = !s;
  cxla_status_free(s);
  if (!ok) return false;
  const Instr *d = NULL;
  for (int i = 0; i < m->entry->ninstrs; i++)
    if (strcmp(m->entry->instrs[i]->name, "d") == 0) d = m->entry->instrs[i];
  GemmPlan p;
  ok = d && gemm_plan(d, &p);
  if (ok) {
    F32Gemm g = {.batch = p.batch, .m = p.m, .n = p.n, .k = p.k, .trans_a = p.trans_a, .trans_b = p.trans_b};
    *fits = d->shape->type == T_F32 && f32_gemm_kernel_fits(&g);
  }
  cxla_module_destroy(m);
  return ok;
}

static bool program_case(const char *name, const char *text, bool want_fits) {
  bool fits;
  if (!dot_fits(text, &fits)) {
    fprintf(stderr, "%s: no GEMM plan for dot d\n", name);
    return false;
  }
  if (fits != (want_fits && f32_gemm_small_available())) {
    fprintf(stderr, "%s: kernel %s, want %s\n", name, fits ? "takes it" : "does not", want_fits ? "yes" : "no");
    return false;
  }
  return cpu_vs_interp(name, text, false);
}

TEST(programs_vs_interpreter) {
  /* batched, A transposed, B read in place (m <= 6) */
  CHECK(program_case("batch ta",
                     "HloModule m\nENTRY e {\n  a = f32[3,9,5]{2,1,0} parameter(0)\n  b = f32[3,9,70]{2,1,0} parameter(1)\n"
                     "  ROOT d = f32[3,5,70]{2,1,0} dot(a, b), lhs_batch_dims={0}, rhs_batch_dims={0}, "
                     "lhs_contracting_dims={1}, rhs_contracting_dims={1}\n}\n",
                     true));
  /* B transposed, several row blocks */
  CHECK(program_case("tb",
                     "HloModule m\nENTRY e {\n  a = f32[37,130]{1,0} parameter(0)\n  b = f32[67,130]{1,0} parameter(1)\n"
                     "  ROOT d = f32[37,67]{1,0} dot(a, b), lhs_contracting_dims={1}, rhs_contracting_dims={1}\n}\n",
                     true));
  /* non-default layouts of the operands and of the result */
  CHECK(program_case("layouts",
                     "HloModule m\nENTRY e {\n  a = f32[2,20,33]{1,2,0} parameter(0)\n  b = f32[2,33,17]{0,1,2} parameter(1)\n"
                     "  ROOT d = f32[2,20,17]{1,0,2} dot(a, b), lhs_batch_dims={0}, rhs_batch_dims={0}, "
                     "lhs_contracting_dims={2}, rhs_contracting_dims={1}\n}\n",
                     true));
  /* m = 1, k = 1 */
  CHECK(program_case("m1",
                     "HloModule m\nENTRY e {\n  a = f32[1,300]{1,0} parameter(0)\n  b = f32[300,90]{1,0} parameter(1)\n"
                     "  ROOT d = f32[1,90]{1,0} dot(a, b), lhs_contracting_dims={1}, rhs_contracting_dims={0}\n}\n",
                     true));
  CHECK(program_case("k1",
                     "HloModule m\nENTRY e {\n  a = f32[40,1]{1,0} parameter(0)\n  b = f32[1,50]{1,0} parameter(1)\n"
                     "  ROOT d = f32[40,50]{1,0} dot(a, b), lhs_contracting_dims={1}, rhs_contracting_dims={0}\n}\n",
                     true));
  /* past the small kernel, on f32_gemm_kernel_big: B in rows and
   * transposed (interpreter: plain f32 sums, within the tolerance) */
  CHECK(program_case("big",
                     "HloModule m\nENTRY e {\n  a = f32[520,600]{1,0} parameter(0)\n  b = f32[600,515]{1,0} parameter(1)\n"
                     "  ROOT d = f32[520,515]{1,0} dot(a, b), lhs_contracting_dims={1}, rhs_contracting_dims={0}\n}\n",
                     false));
  CHECK(program_case("big tb",
                     "HloModule m\nENTRY e {\n  a = f32[600,520]{1,0} parameter(0)\n  b = f32[515,600]{1,0} parameter(1)\n"
                     "  ROOT d = f32[520,515]{1,0} dot(a, b), lhs_contracting_dims={0}, rhs_contracting_dims={1}\n}\n",
                     false));
  /* few rows, past m n k = 2^27: k 2047 (B transposed), n 2100 */
  CHECK(program_case("deep tb",
                     "HloModule m\nENTRY e {\n  a = f32[139,2047]{1,0} parameter(0)\n"
                     "  b = f32[500,2047]{1,0} parameter(1)\n"
                     "  ROOT d = f32[139,500]{1,0} dot(a, b), lhs_contracting_dims={1}, rhs_contracting_dims={1}\n}\n",
                     true));
  CHECK(program_case("wide",
                     "HloModule m\nENTRY e {\n  a = f32[256,520]{1,0} parameter(0)\n"
                     "  b = f32[520,2100]{1,0} parameter(1)\n"
                     "  ROOT d = f32[256,2100]{1,0} dot(a, b), lhs_contracting_dims={1}, rhs_contracting_dims={0}\n}\n",
                     true));
  /* must not run it: too many rows (BLAS), f64 */
  CHECK(program_case("tall",
                     "HloModule m\nENTRY e {\n  a = f32[1100,3]{1,0} parameter(0)\n  b = f32[3,5]{1,0} parameter(1)\n"
                     "  ROOT d = f32[1100,5]{1,0} dot(a, b), lhs_contracting_dims={1}, rhs_contracting_dims={0}\n}\n",
                     false));
  CHECK(program_case("f64",
                     "HloModule m\nENTRY e {\n  a = f64[7,9]{1,0} parameter(0)\n  b = f64[9,5]{1,0} parameter(1)\n"
                     "  ROOT d = f64[7,5]{1,0} dot(a, b), lhs_contracting_dims={1}, rhs_contracting_dims={0}\n}\n",
                     false));
}

/* Strided A, B and C (F32Gemm.lda, ldb, ldc): the first k of lda
 * columns of A (lda 0: dense) times the first n of ldb columns of B into
 * the first n of ldc columns of C, bit for bit the dense product of those
 * columns, every other element of C untouched; batches m lda, k ldb and
 * m ldc apart; transposed A and B (lda, ldb ignored: their rows are the
 * columns); m <= 6 (B read in place) and more (packed); k = 0. Through
 * f32_gemm_kernel, or f32_gemm_kernel_big when big. */
static bool run_strided_via(int64_t batch, int64_t m, int64_t n, int64_t k, int64_t lda, int64_t ldb, int64_t ldc,
                            bool ta, bool tb, RtPool *pool, bool big) {
  F32Gemm g = {.batch = batch, .m = m, .n = n, .k = k, .trans_a = ta, .trans_b = tb, .ldb = ldb, .ldc = ldc,
               .lda = lda};
  F32Gemm dense = {.batch = 1, .m = m, .n = n, .k = k, .trans_a = ta, .trans_b = tb};
  int64_t bstride = tb ? n * k : k * ldb, arow = lda && !ta ? lda : k, astride = m * arow;
  float *a = malloc((size_t)(batch * astride + 1) * sizeof *a), *b = malloc((size_t)(batch * bstride + 1) * sizeof *b);
  float *ad = malloc((size_t)(m * k + 1) * sizeof *ad);
  float *bd = malloc((size_t)(k * n + 1) * sizeof *bd), *want = malloc((size_t)(m * n + 1) * sizeof *want);
  float *got = malloc((size_t)(batch * m * ldc) * sizeof *got);
  for (int64_t i = 0; i < batch * astride; i++) a[i] = next_value(0);
  for (int64_t i = 0; i < batch * bstride; i++) b[i] = next_value(0);
  for (int64_t i = 0; i < batch * m * ldc; i++) got[i] = 12345.0f;
  cxla_status s = big ? f32_gemm_kernel_big(&g, a, b, got, pool, threads_of(pool)) : f32_gemm_kernel(&g, a, b, got, pool, threads_of(pool));
  bool ok = !s;
  cxla_status_free(s);
  int64_t bad = 0;
  for (int64_t bi = 0; ok && bi < batch; bi++) {
    /* this element's B as a dense k x n (or n x k) matrix */
    for (int64_t r = 0; r < (tb ? n * k : k); r++)
      if (tb) bd[r] = b[bi * bstride + r];
      else
        for (int64_t j = 0; j < n; j++) bd[r * n + j] = b[bi * bstride + r * ldb + j];
    /* and its A as a dense m x k (or k x m) matrix */
    for (int64_t r = 0; r < (ta ? k : m); r++)
      for (int64_t c = 0; c < (ta ? m : k); c++) ad[r * (ta ? m : k) + c] = a[bi * astride + r * (ta ? m : arow) + c];
    reference(&dense, ad, bd, want);
    for (int64_t i = 0; i < m; i++)
      for (int64_t j = 0; j < ldc; j++) {
        float w = j < n ? want[i * n + j] : 12345.0f, v = got[(bi * m + i) * ldc + j];
        if (!same_bits(w, v) && bad++ < 3)
          fprintf(stderr, "strided b=%lld m=%lld n=%lld k=%lld ldb=%lld ldc=%lld: C[%lld][%lld] want %.9g got %.9g\n",
                  (long long)batch, (long long)m, (long long)n, (long long)k, (long long)ldb, (long long)ldc,
                  (long long)i, (long long)j, w, v);
      }
  }
  free(a);
  free(ad);
  free(b);
  free(bd);
  free(want);
  free(got);
  return ok && bad == 0;
}

/* The small products' kernel, and the large ones' where the CPU runs
 * it (AVX-512). */
static bool run_strided(int64_t batch, int64_t m, int64_t n, int64_t k, int64_t ldb, int64_t ldc, bool ta, bool tb,
                        RtPool *pool) {
  return run_strided_via(batch, m, n, k, 0, ldb, ldc, ta, tb, pool, false) &&
         (!f32_gemm_kernel_available() || run_strided_via(batch, m, n, k, 0, ldb, ldc, ta, tb, pool, true));
}

static bool run_strided_a(int64_t batch, int64_t m, int64_t n, int64_t k, int64_t lda, int64_t ldb, int64_t ldc,
                          bool ta, bool tb, RtPool *pool) {
  return run_strided_via(batch, m, n, k, lda, ldb, ldc, ta, tb, pool, false) &&
         (!f32_gemm_kernel_available() || run_strided_via(batch, m, n, k, lda, ldb, ldc, ta, tb, pool, true));
}

TEST(kernel_strided_b_and_c) {
  if (!f32_gemm_small_available()) {
    SKIP("this CPU lacks AVX-512F and AVX2");
    return;
  }
  RtPool *pool = NULL;
  CHECK_OK(rt_pool_create(3, &pool));
  for (int t = 0; t < 4; t++) {
    bool ta = t & 1, tb = t >> 1;
    CHECK(run_strided(1, 128, 300, 64, 1000, 1000, ta, tb, NULL)); /* a chain's band of S */
    CHECK(run_strided(2, 37, 65, 129, 130, 70, ta, tb, pool));
    CHECK(run_strided(3, 5, 17, 9, 40, 17, ta, tb, pool)); /* B in place */
    CHECK(run_strided(1, 7, 1, 3, 64, 5, ta, tb, NULL));
    CHECK(run_strided(2, 6, 20, 0, 30, 33, ta, tb, NULL)); /* k = 0: zeros in the first n columns only */
    /* strided A: a chain's block of P cut to its non-zero columns */
    CHECK(run_strided_a(1, 128, 64, 300, 1024, 64, 64, ta, tb, NULL));
    CHECK(run_strided_a(2, 37, 65, 129, 131, 130, 70, ta, tb, pool));
    CHECK(run_strided_a(3, 5, 17, 9, 12, 40, 17, ta, tb, pool)); /* B in place */
    CHECK(run_strided_a(2, 6, 20, 0, 7, 30, 33, ta, tb, NULL));
  }
  rt_pool_destroy(pool);
}

/* The small products' tests again on the AVX2 kernels
 * (CXLA_CPU_GEMM_ISA=avx2; the same kernels where the CPU has no
 * AVX-512): bit for bit the same plain loops. */
#define AVX2_TOO(name)                        \
  TEST(name##_avx2) {                         \
    setenv("CXLA_CPU_GEMM_ISA", "avx2", 1);   \
    name();                                   \
    unsetenv("CXLA_CPU_GEMM_ISA");            \
  }
AVX2_TOO(kernel_matches_plain_loop)
AVX2_TOO(panel_groups_match_plain_loop)
AVX2_TOO(packed_b_matches_plain_loop)
AVX2_TOO(packed_b_kept_on_the_value)
AVX2_TOO(loop_weights_packed_once)
AVX2_TOO(kernel_strided_b_and_c)
AVX2_TOO(programs_vs_interpreter)

int main(void) {
  RUN(kernel_matches_plain_loop);
  RUN(panel_groups_match_plain_loop);
  RUN(big_matches_plain_loop);
  RUN(big_takes_large_products);
  RUN(big_blocks_per_thread);
  RUN(packed_b_matches_plain_loop);
  RUN(packed_b_kept_on_the_value);
  RUN(loop_weights_packed_once);
  RUN(kernel_strided_b_and_c);
  RUN(blas_and_plain_loop);
  RUN(finite_scan_over_threads);
  RUN(kernel_takes_small_products_only);
  RUN(programs_vs_interpreter);
  RUN(kernel_matches_plain_loop_avx2);
  RUN(panel_groups_match_plain_loop_avx2);
  RUN(packed_b_matches_plain_loop_avx2);
  RUN(packed_b_kept_on_the_value_avx2);
  RUN(loop_weights_packed_once_avx2);
  RUN(kernel_strided_b_and_c_avx2);
  RUN(programs_vs_interpreter_avx2);
  return test_summary(__FILE__);
}
