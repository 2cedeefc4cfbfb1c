/* 8-bit integer dots accumulated in s32 (s8/u8 operands, as quantized
 * models and JAX's preferred_element_type=int32 produce) through sgemm,
 * exactly: the operands are converted to f32, and the contraction is split
 * into chunks short enough that every partial sum of a chunk is an integer
 * of magnitude at most 2^24, which f32 holds exactly whatever order BLAS
 * sums in. Each chunk's result is converted back and added in u32
 * arithmetic, so the s32 result wraps on overflow exactly as XLA's s32
 * accumulation does. */
#include <cblas.h>
#include <string.h>

#include "cpu/cpu_internal.h"

static int64_t max_abs(ElemType t) { return t == T_U8 ? 255 : 128; }

static void to_f32(const RVal *v, int64_t off, int64_t n, float *dst) {
  if (v->lit.type == T_U8) {
    const uint8_t *s = (const uint8_t *)v->lit.data + off;
    for (int64_t i = 0; i < n; i++) dst[i] = (float)s[i];
  } else {
    const int8_t *s = (const int8_t *)v->lit.data + off;
    for (int64_t i = 0; i < n; i++) dst[i] = (float)s[i];
  }
}

cxla_status gemm_int8(const GemmPlan *p, RVal *a, RVal *b, RVal *o) {
  int64_t M = p->m, N = p->n, K = p->k;
  /* chunk: the largest power of two with chunk * |a|max * |b|max <= 2^24 */
  int64_t prod = max_abs(a->lit.type) * max_abs(b->lit.type), chunk = 1;
  while (chunk * 2 * prod <= ((int64_t)1 << 24)) chunk *= 2;
  float *A = cxla_malloc((size_t)(M * K) * sizeof *A), *B = cxla_malloc((size_t)(K * N) * sizeof *B);
  float *C = cxla_malloc((size_t)(M * N) * sizeof *C);
  if (!A || !B || !C) {
    cxla_free(A);
    cxla_free(B);
    cxla_free(C);
    return cxla_oom();
  }
  int lda = p->trans_a ? (int)M : (int)K, ldb = p->trans_b ? (int)K : (int)N;
  enum CBLAS_TRANSPOSE ta = p->trans_a ? CblasTrans : CblasNoTrans, tb = p->trans_b ? CblasTrans : CblasNoTrans;
  for (int64_t bi = 0; bi < p->batch; bi++) {
    to_f32(a, bi * M * K, M * K, A);
    to_f32(b, bi * K * N, K * N, B);
    uint32_t *out = (uint32_t *)o->lit.data + bi * M * N;
    for (int64_t k0 = 0; k0 < K; k0 += chunk) {
      int kc = (int)(K - k0 < chunk ? K - k0 : chunk);
      /* chunk k0: columns k0.. of A (rows when stored K x M), likewise B */
      const float *Ak = p->trans_a ? A + k0 * M : A + k0;
      const float *Bk = p->trans_b ? B + k0 : B + k0 * N;
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
