/* Low-precision dots.
 *
 * 8-bit integer dots accumulated in s32 (s8/u8 operands, as quantized
 * models and JAX's preferred_element_type=int32 produce), exactly, with
 * s32 wraparound as XLA's s32 accumulation. Where the CPU has AMX the
 * tile kernels of amx.c run (large enough products, over the pool's
 * threads); else where it has AVX512-VNNI the packed micro-kernel of
 * intdot_vnni.c. Elsewhere the products go through sgemm: the operands
 * are converted to f32, and the contraction is split into chunks short
 * enough that every partial sum of a chunk is an integer of magnitude at
 * most 2^24, which f32 holds exactly whatever order BLAS sums in. Each
 * chunk's result is converted back and added in u32 arithmetic, so the
 * s32 result wraps on overflow.
 *
 * bf16 x bf16 dots accumulated in f32 (XLA:CPU's semantics: the operands
 * widened exactly, the f32 result rounded once when the dot's type is
 * bf16): AMX tiles where the CPU has them, else AVX512-BF16's pair dot
 * products (bgemm.c), else widened to f32 and multiplied as an f32 dot
 * (fgemm.c). */
#include <cblas.h>
#include <string.h>
#if defined(__x86_64__)
#include <immintrin.h>
#endif

#include "ir/numeric.h"
#include "cpu/blas.h"
#include "cpu/cpu_internal.h"
#include "cpu/fgemm.h"
#include "cpu/intdot.h"
#include "runtime/scratch.h"

bool int8_gemm_vnni_available(void) {
#if defined(__x86_64__) && defined(__GNUC__)
  return __builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512bw") &&
         __builtin_cpu_supports("avx512vnni");
#else
  return false;
#endif
}

/* Elements [lo, hi) of an 8-bit array converted to f32 (exact). */
typedef struct ToF32 {
  const void *v;
  bool is_unsigned;
  float *dst;
} ToF32;

#if defined(__x86_64__) && defined(__GNUC__)
/* Elements [i, hi) by AVX2's widening moves, 8 bytes to 8 i32 lanes at a
 * time; returns where it stopped (fewer than 32 left). */
__attribute__((target("avx2"))) static int64_t to_f32_avx2(const uint8_t *s, bool is_unsigned, float *d, int64_t i,
                                                           int64_t hi) {
  for (; i + 32 <= hi; i += 32)
    for (int q = 0; q < 4; q++) {
      __m128i v = _mm_loadl_epi64((const __m128i *)(s + i + 8 * q));
      __m256i w = is_unsigned ? _mm256_cvtepu8_epi32(v) : _mm256_cvtepi8_epi32(v);
      _mm256_storeu_ps(d + i + 8 * q, _mm256_cvtepi32_ps(w));
    }
  return i;
}
#endif

static cxla_status to_f32_slice(void *arg, int64_t lo, int64_t hi) {
  const ToF32 *t = arg;
  const uint8_t *s = t->v;
  float *d = t->dst;
  int64_t i = lo;
#if defined(__x86_64__) && defined(__GNUC__)
  if (__builtin_cpu_supports("avx2")) i = to_f32_avx2(s, t->is_unsigned, d, i, hi);
#endif
#if defined(__x86_64__)
  /* 16 at a time: each byte into the high byte of a 16-bit lane, then of
   * a 32-bit lane, shifted down with its sign (s8) or zeros (u8) */
  for (; i + 16 <= hi; i += 16) {
    __m128i v = _mm_loadu_si128((const __m128i *)(s + i));
    __m128i h[2] = {_mm_unpacklo_epi8(v, v), _mm_unpackhi_epi8(v, v)};
    for (int q = 0; q < 2; q++) {
      __m128i w0 = _mm_unpacklo_epi16(h[q], h[q]), w1 = _mm_unpackhi_epi16(h[q], h[q]);
      w0 = t->is_unsigned ? _mm_srli_epi32(w0, 24) : _mm_srai_epi32(w0, 24);
      w1 = t->is_unsigned ? _mm_srli_epi32(w1, 24) : _mm_srai_epi32(w1, 24);
      _mm_storeu_ps(d + i + 8 * q, _mm_cvtepi32_ps(w0));
      _mm_storeu_ps(d + i + 8 * q + 4, _mm_cvtepi32_ps(w1));
    }
  }
#endif
  if (t->is_unsigned)
    for (; i < hi; i++) d[i] = (float)s[i];
  else
    for (; i < hi; i++) d[i] = (float)(int8_t)s[i];
  return NULL;
}

static cxla_status to_f32(const void *v, bool is_unsigned, int64_t n, float *dst, RtPool *pool, int nthreads) {
  ToF32 t = {.v = v, .is_unsigned = is_unsigned, .dst = dst};
  return rt_pool_parallel_for(pool, n, (int64_t)1 << 16, nthreads, to_f32_slice, &t);
}

/* Each chunk's f32 sums (exact integers) into the s32 result: stored
 * (the first chunk, whose sums are in the result's buffer: each element
 * read, then written in place) or added with wraparound. */
typedef struct AddChunk {
  const float *C;
  uint32_t *out;
  bool first;
} AddChunk;

#if defined(__x86_64__) && defined(__GNUC__)
/* Elements [i, hi) of add_chunk_slice 8 at a time (the sums are integers
 * below 2^24 in magnitude: the truncating conversion is exact); returns
 * where it stopped. */
__attribute__((target("avx2"))) static int64_t add_chunk_avx2(const AddChunk *j, int64_t i, int64_t hi) {
  for (; i + 8 <= hi; i += 8) {
    __m256i v = _mm256_cvttps_epi32(_mm256_loadu_ps(j->C + i));
    if (!j->first) v = _mm256_add_epi32(v, _mm256_loadu_si256((const __m256i *)(j->out + i)));
    _mm256_storeu_si256((__m256i *)(j->out + i), v);
  }
  return i;
}
#endif

static cxla_status add_chunk_slice(void *arg, int64_t lo, int64_t hi) {
  const AddChunk *j = arg;
  int64_t i = lo;
#if defined(__x86_64__) && defined(__GNUC__)
  if (__builtin_cpu_supports("avx2")) i = add_chunk_avx2(j, i, hi);
#endif
  if (j->first)
    for (; i < hi; i++) j->out[i] = (uint32_t)(int32_t)j->C[i];
  else
    for (; i < hi; i++) j->out[i] += (uint32_t)(int32_t)j->C[i];
  return NULL;
}

/* The sgemm route, over the pool's threads (cpu_blas_gemm splits each
 * chunk's product; the conversions split too): the exact sums whatever
 * the split, as the chunks keep every partial sum exact. The first chunk's
 * f32 sums go into the result's own buffer and become s32 in place; later
 * chunks' through a scratch. On one thread it took 28 ms for 1024^3 s8 on
 * a Zen 2 (XLA:CPU 11). */
static cxla_status int8_gemm_sgemm(const Int8Gemm *g, const uint8_t *a, const uint8_t *b, int32_t *c, RtPool *pool,
                                   int nthreads) {
  int64_t M = g->m, N = g->n, K = g->k;
  /* chunk: the largest power of two with chunk * |a|max * |b|max <= 2^24 */
  int64_t prod = (g->a_unsigned ? 255 : 128) * (g->b_unsigned ? 255 : 128), chunk = 1;
  while (chunk * 2 * prod <= ((int64_t)1 << 24)) chunk *= 2;
  float *A = rt_scratch_alloc(pool, (size_t)(M * K) * sizeof *A), *B = rt_scratch_alloc(pool, (size_t)(K * N) * sizeof *B);
  float *C = K > chunk ? rt_scratch_alloc(pool, (size_t)(M * N) * sizeof *C) : NULL;
  cxla_status st = !A || !B || (K > chunk && !C) ? cxla_oom() : NULL;
  int lda = g->trans_a ? (int)M : (int)K, ldb = g->trans_b ? (int)K : (int)N;
  for (int64_t bi = 0; bi < g->batch && !st; bi++) {
    st = to_f32(a + bi * M * K, g->a_unsigned, M * K, A, pool, nthreads);
    if (!st) st = to_f32(b + bi * K * N, g->b_unsigned, K * N, B, pool, nthreads);
    uint32_t *out = (uint32_t *)c + bi * M * N;
    for (int64_t k0 = 0; k0 < K && !st; k0 += chunk) {
      int kc = (int)(K - k0 < chunk ? K - k0 : chunk);
      /* chunk k0: columns k0.. of A (rows when stored K x M), likewise B */
      float *sums = k0 == 0 ? (float *)out : C;
      CpuBlasGemm bg = {.type = T_F32, .trans_a = g->trans_a, .trans_b = g->trans_b, .batch = 1, .m = (int)M,
                        .n = (int)N, .k = kc, .a = g->trans_a ? A + k0 * M : A + k0,
                        .b = g->trans_b ? B + k0 : B + k0 * N, .c = sums, .lda = lda, .ldb = ldb, .ldc = (int)N};
      st = cpu_blas_gemm(&bg, pool, nthreads);
      AddChunk ac = {.C = sums, .out = out, .first = k0 == 0};
      if (!st) st = rt_pool_parallel_for(pool, M * N, (int64_t)1 << 16, nthreads, add_chunk_slice, &ac);
    }
  }
  rt_scratch_free(pool, A);
  rt_scratch_free(pool, B);
  rt_scratch_free(pool, C);
  return st;
}

/* Large enough for the AMX kernel's packing and threads to pay (and at
 * least a tile of rows: thinner products leave most of each tile idle). */
static bool amx_worth(int64_t m, int64_t n, int64_t k) { return m >= 16 && m * n * k >= (int64_t)1 << 15; }

static AmxElem amx_int8(bool is_unsigned) { return is_unsigned ? AMX_U8 : AMX_S8; }

cxla_status int8_gemm(const Int8Gemm *g, const void *a, const void *b, int32_t *c, Int8Kernel kernel, RtPool *pool,
                      int nthreads) {
  if (g->batch <= 0 || g->m <= 0 || g->n <= 0) return NULL;
  if (g->k <= 0) {
    memset(c, 0, (size_t)(g->batch * g->m * g->n) * sizeof *c);
    return NULL;
  }
  if (kernel == INT8_AUTO)
    kernel = amx_worth(g->m, g->n, g->k) && amx_available(true) ? INT8_AMX
             : int8_gemm_vnni_available()                       ? INT8_VNNI
                                                                : INT8_SGEMM;
  if (kernel == INT8_AMX) {
    AmxGemm ag = {.batch = g->batch, .m = g->m, .n = g->n, .k = g->k, .trans_a = g->trans_a, .trans_b = g->trans_b,
                  .a = amx_int8(g->a_unsigned), .b = amx_int8(g->b_unsigned)};
    return amx_gemm(&ag, a, b, c, pool, nthreads);
  }
  if (kernel == INT8_VNNI) {
    if (!int8_gemm_vnni_available()) return ERR(UNAVAILABLE, "this CPU lacks AVX512-VNNI");
    return int8_gemm_vnni(g, a, b, c, pool, nthreads);
  }
  return int8_gemm_sgemm(g, a, b, c, pool, nthreads);
}

cxla_status gemm_int8(const GemmPlan *p, RVal *a, RVal *b, RVal *o, RtPool *pool, int nthreads) {
  Int8Gemm g = {.batch = p->batch, .m = p->m, .n = p->n, .k = p->k, .trans_a = p->trans_a, .trans_b = p->trans_b,
                .a_unsigned = a->lit.type == T_U8, .b_unsigned = b->lit.type == T_U8};
  return int8_gemm(&g, a->lit.data, b->lit.data, o->lit.data, INT8_AUTO, pool, nthreads);
}

/* ---- bf16 x bf16 accumulated in f32 ---- */

#if defined(__x86_64__) && defined(__GNUC__)
__attribute__((target("avx512f,avx512bw"))) void bf16_round_avx512(const float *s, uint16_t *d, int64_t n) {
  int64_t i = 0;
  for (; i + 16 <= n; i += 16)
    _mm256_storeu_si256((__m256i *)(d + i), _mm512_cvtepi32_epi16(bf16_round16(_mm512_loadu_si512(s + i))));
  for (; i < n; i++) d[i] = f32_to_bf16(s[i]);
}
#endif

/* Elements [lo, hi) of a bf16 array widened to f32 (each value the high
 * half of its f32, as bf16_to_f32), 8 at a time in SSE2 registers;
 * `bad` set where one is not finite (exponent all ones). A call to
 * bf16_to_f32 per element, on one thread, took 7 of a 1024^3 product's
 * 19 ms on a Zen 2. */
typedef struct Widen {
  const uint16_t *s;
  float *d;
  int bad;
} Widen;

static cxla_status widen_slice(void *arg, int64_t lo, int64_t hi) {
  Widen *w = arg;
  const uint16_t *s = w->s;
  float *d = w->d;
  int64_t i = lo;
  int bad = 0;
#if defined(__x86_64__)
  const __m128i zero = _mm_setzero_si128(), expo = _mm_set1_epi16(0x7f80);
  __m128i nf = zero;
  for (; i + 8 <= hi; i += 8) {
    __m128i v = _mm_loadu_si128((const __m128i *)(s + i));
    nf = _mm_or_si128(nf, _mm_cmpeq_epi16(_mm_and_si128(v, expo), expo));
    _mm_storeu_ps(d + i, _mm_castsi128_ps(_mm_unpacklo_epi16(zero, v)));
    _mm_storeu_ps(d + i + 4, _mm_castsi128_ps(_mm_unpackhi_epi16(zero, v)));
  }
  bad = _mm_movemask_epi8(nf) != 0;
#endif
  for (; i < hi; i++) {
    d[i] = bf16_to_f32(s[i]);
    bad |= (s[i] & 0x7f80) == 0x7f80;
  }
  if (bad) __atomic_store_n(&w->bad, 1, __ATOMIC_RELAXED);
  return NULL;
}

/* Widened to f32 over the pool's threads; whether every value is finite. */
static bool widen_bf16(const uint16_t *s, int64_t n, float *d, RtPool *pool, int nthreads) {
  Widen w = {.s = s, .d = d};
  cxla_status st = rt_pool_parallel_for(pool, n, (int64_t)1 << 16, nthreads, widen_slice, &w);
  cxla_status_free(st); /* slices never fail */
  return !__atomic_load_n(&w.bad, __ATOMIC_RELAXED);
}

/* Elements [lo, hi) of an f32 array rounded to bf16 (as f32_to_bf16:
 * to nearest even, NaN kept quiet), 4 at a time in SSE2 registers. */
typedef struct Narrow {
  const float *s;
  uint16_t *d;
} Narrow;

static cxla_status narrow_slice(void *arg, int64_t lo, int64_t hi) {
  const Narrow *w = arg;
  int64_t i = lo;
#if defined(__x86_64__)
  const __m128i one = _mm_set1_epi32(1), half = _mm_set1_epi32(0x7fff), absm = _mm_set1_epi32(0x7fffffff),
                inf = _mm_set1_epi32(0x7f800000), quiet = _mm_set1_epi32(0x400000);
  for (; i + 4 <= hi; i += 4) {
    __m128i u = _mm_castps_si128(_mm_loadu_ps(w->s + i));
    __m128i nan = _mm_cmpgt_epi32(_mm_and_si128(u, absm), inf);
    __m128i r = _mm_add_epi32(u, _mm_add_epi32(half, _mm_and_si128(_mm_srli_epi32(u, 16), one)));
    r = _mm_or_si128(_mm_and_si128(nan, _mm_or_si128(u, quiet)), _mm_andnot_si128(nan, r));
    /* the high halves, sign-extended so that the signed pack keeps them */
    __m128i h = _mm_packs_epi32(_mm_srai_epi32(r, 16), _mm_setzero_si128());
    _mm_storel_epi64((__m128i *)(w->d + i), h);
  }
#endif
  for (; i < hi; i++) w->d[i] = f32_to_bf16(w->s[i]);
  return NULL;
}

/* The operands widened to f32 and multiplied as an f32 dot is (fgemm.c:
 * the kernel of small products, else BLAS or, when an operand holds an
 * infinity or NaN, the plain loops). */
static cxla_status bf16_gemm_f32(const AmxGemm *g, const uint16_t *a, const uint16_t *b, void *c, RtPool *pool,
                                 int nthreads) {
  int64_t na = g->batch * g->m * g->k, nb = g->batch * g->k * g->n, nc = g->batch * g->m * g->n;
  float *A = rt_scratch_alloc(pool, (size_t)na * sizeof *A), *B = rt_scratch_alloc(pool, (size_t)nb * sizeof *B);
  float *C = g->out_bf16 ? rt_scratch_alloc(pool, (size_t)nc * sizeof *C) : c;
  cxla_status s = NULL;
  if (!A || !B || !C) {
    s = cxla_oom();
    goto done;
  }
  bool finite = widen_bf16(a, na, A, pool, nthreads);
  finite &= widen_bf16(b, nb, B, pool, nthreads);
  F32Gemm f = {.batch = g->batch, .m = g->m, .n = g->n, .k = g->k, .trans_a = g->trans_a, .trans_b = g->trans_b};
  if (f32_gemm_kernel_fits(&f)) s = f32_gemm_kernel(&f, A, B, C, pool, nthreads);
  else s = f32_gemm_blas(&f, A, B, C, finite, pool, nthreads);
  if (!s && g->out_bf16) {
    Narrow nw = {.s = C, .d = c};
    s = rt_pool_parallel_for(pool, nc, (int64_t)1 << 16, nthreads, narrow_slice, &nw);
  }
done:
  rt_scratch_free(pool, A);
  rt_scratch_free(pool, B);
  if (g->out_bf16) rt_scratch_free(pool, C);
  return s;
}

cxla_status bf16_gemm(const AmxGemm *g, const uint16_t *a, const uint16_t *b, void *c, Bf16Kernel kernel,
                      RtPool *pool, int nthreads) {
  if (g->a != AMX_BF16 || g->b != AMX_BF16) return ERR(INVALID_ARGUMENT, "bf16 gemm: operands not bf16");
  if (g->batch <= 0 || g->m <= 0 || g->n <= 0) return NULL;
  if (g->k <= 0) {
    memset(c, 0, (size_t)(g->batch * g->m * g->n) * (g->out_bf16 ? 2 : 4));
    return NULL;
  }
  if (kernel == BF16_AUTO)
    kernel = amx_available(false) ? BF16_AMX : bf16_gemm_avx512_available() ? BF16_AVX512 : BF16_SGEMM;
  if (kernel == BF16_AMX) return amx_gemm(g, a, b, c, pool, nthreads);
  if (kernel == BF16_AVX512) return bf16_gemm_avx512(g, a, b, c, pool, nthreads);
  return bf16_gemm_f32(g, a, b, c, pool, nthreads);
}
