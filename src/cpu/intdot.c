/* 8-bit integer dots accumulated in s32 (s8/u8 operands, as quantized
 * models and JAX's preferred_element_type=int32 produce), exactly, with
 * s32 wraparound as XLA's s32 accumulation.
 *
 * Where the CPU has AVX512-VNNI the packed micro-kernel of intdot_vnni.c
 * runs. Elsewhere the products go through sgemm: the operands are
 * converted to f32, and the contraction is split into chunks short enough
 * that every partial sum of a chunk is an integer of magnitude at most
 * 2^24, which f32 holds exactly whatever order BLAS sums in. Each chunk's
 * result is converted back and added in u32 arithmetic, so the s32 result
 * wraps on overflow. */
#include <cblas.h>
#include <string.h>

#include "cpu/cpu_internal.h"
#include "cpu/intdot.h"

bool int8_gemm_vnni_available(void) {
#if defined(__x86_64__) && defined(__GNUC__)
  return __builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512bw") &&
         __builtin_cpu_supports("avx512vnni");
#else
  return false;
#endif
}

static void to_f32(const void *v, bool is_unsigned, int64_t n, float *dst) {
  if (is_unsigned) {
    const uint8_t *s = v;
    for (int64_t i = 0; i < n; i++) dst[i] = (float)s[i];
  } else {
    const int8_t *s = v;
    for (int64_t i = 0; i < n; i++) dst[i] = (float)s[i];
  }
}

static cxla_status int8_gemm_sgemm(const Int8Gemm *g, const uint8_t *a, const uint8_t *b, int32_t *c) {
  int64_t M = g->m, N = g->n, K = g->k;
  /* chunk: the largest power of two with chunk * |a|max * |b|max <= 2^24 */
  int64_t prod = (g->a_unsigned ? 255 : 128) * (g->b_unsigned ? 255 : 128), chunk = 1;
  while (chunk * 2 * prod <= ((int64_t)1 << 24)) chunk *= 2;
  float *A = cxla_malloc((size_t)(M * K) * sizeof *A), *B = cxla_malloc((size_t)(K * N) * sizeof *B);
  float *C = cxla_malloc((size_t)(M * N) * sizeof *C);
  if (!A || !B || !C) {
    cxla_free(A);
    cxla_free(B);
    cxla_free(C);
    return cxla_oom();
  }
  int lda = g->trans_a ? (int)M : (int)K, ldb = g->trans_b ? (int)K : (int)N;
  enum CBLAS_TRANSPOSE ta = g->trans_a ? CblasTrans : CblasNoTrans, tb = g->trans_b ? CblasTrans : CblasNoTrans;
  for (int64_t bi = 0; bi < g->batch; bi++) {
    to_f32(a + bi * M * K, g->a_unsigned, M * K, A);
    to_f32(b + bi * K * N, g->b_unsigned, K * N, B);
    uint32_t *out = (uint32_t *)c + bi * M * N;
    for (int64_t k0 = 0; k0 < K; k0 += chunk) {
      int kc = (int)(K - k0 < chunk ? K - k0 : chunk);
      /* chunk k0: columns k0.. of A (rows when stored K x M), likewise B */
      const float *Ak = g->trans_a ? A + k0 * M : A + k0;
      const float *Bk = g->trans_b ? B + k0 : B + k0 * N;
      cblas_sgemm(CblasRowMajor, ta, tb, (int)M, (int)N, kc, 1.0f, Ak, lda, Bk, ldb, 0.0f, C, (int)N);
      if (k0 == 0)
        for (int64_t i = 0; i < M * N; i++) out[i] = (uint32_t)(int32_t)C[i];
      else
        for (int64_t i = 0; i < M * N; i++) out[i] += (uint32_t)(int32_t)C[i];
    }
  }
  cxla_free(A);
  cxla_free(B);
  cxla_free(C);
  return NULL;
}

cxla_status int8_gemm(const Int8Gemm *g, const void *a, const void *b, int32_t *c, Int8Kernel kernel) {
  if (g->batch <= 0 || g->m <= 0 || g->n <= 0) return NULL;
  if (g->k <= 0) {
    memset(c, 0, (size_t)(g->batch * g->m * g->n) * sizeof *c);
    return NULL;
  }
  if (kernel == INT8_AUTO) kernel = int8_gemm_vnni_available() ? INT8_VNNI : INT8_SGEMM;
  if (kernel == INT8_VNNI) {
    if (!int8_gemm_vnni_available()) return ERR(UNAVAILABLE, "this CPU lacks AVX512-VNNI");
    return int8_gemm_vnni(g, a, b, c);
  }
  return int8_gemm_sgemm(g, a, b, c);
}

cxla_status gemm_int8(const GemmPlan *p, RVal *a, RVal *b, RVal *o) {
  Int8Gemm g = {.batch = p->batch, .m = p->m, .n = p->n, .k = p->k, .trans_a = p->trans_a, .trans_b = p->trans_b,
                .a_unsigned = a->lit.type == T_U8, .b_unsigned = b->lit.type == T_U8};
  return int8_gemm(&g, a->lit.data, b->lit.data, o->lit.data, INT8_AUTO);
}
