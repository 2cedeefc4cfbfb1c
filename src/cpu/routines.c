/* Runtime routines: dots through OpenBLAS's CBLAS (here), and the ops the
 * emitter does not compile, each a routine on the executor's raw buffers:
 *   rt_fft.c      fft (planned at compile time)
 *   rt_linalg.c   cholesky, triangular-solve, the LAPACK custom-calls
 *   rt_topk.c     topk, custom-call "TopK"
 *   rt_rng.c      rng, rng-get-and-update-state
 *   rt_window.c   depthwise convolution, NHWC pooling (reduce-window max /
 *                 add, select-and-scatter), scans (whole-prefix
 *                 reduce-windows); the others stay compiled kernels
 *   rt_control.c  one-replica collectives, replica-id/partition-id, async
 *                 and copy start/done (async-start's computation compiled),
 *                 get/set-dimension-size, dynamic-reshape, annotating
 *                 custom-calls
 * These still run on the interpreter's evaluators over the executor's
 * buffers (Literal views, no copies in), named here so none is a silent
 * fallback: host callbacks (custom-call "cxla_host_callback", a call out
 * to the embedder: interp/host_callback.c), sort with a comparator the
 * emitter cannot compile (sort otherwise runs sort.c with the compiled
 * comparator), and the LAPACK
 * custom-calls that rt_linalg.c does not have yet (interp_linalg_target:
 * gehrd, sytrd/hetrd, ormqr/unmqr, geqp3 and jaxlib's
 * tridiagonal_solve_perturbed). Scatter,
 * select-and-scatter and rng-bit-generator are compiled kernels
 * (src/codegen).
 * batch-norm-* are a compile error: the batchnorm-expander pass of the
 * default pipeline rewrites them before they reach a backend. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "cpu/cpu_internal.h"
#include "cpu/fgemm.h"
#include "cpu/intdot.h"
#include "interp/interp.h"

enum { RT_NONE, RT_INTERP, RT_FFT, RT_LINALG, RT_TOPK, RT_RNG, RT_CONTROL, RT_WINDOW };

typedef cxla_status (*Family)(Interp *, const Instr *, Literal *const *, Literal **);

/* The interpreted ones. */
static Family family_of(Opcode op) {
  switch (op) {
  case OP_SORT: return interp_sort;
  default: return NULL;
  }
}

/* The LAPACK custom-calls only the interpreter has (jaxlib's target names:
 * lapack_<t><routine>_ffi). */
static bool interp_linalg_target(const char *t) {
  if (!t) return false;
  if (strcmp(t, "tridiagonal_solve_perturbed_ffi") == 0) return true;
  if (strncmp(t, "lapack_", 7) != 0 || strlen(t) < 9) return false;
  static const char *const routines[] = {"gehrd", "sytrd", "hetrd", "ormqr", "unmqr", "geqp3"};
  for (size_t i = 0; i < sizeof routines / sizeof routines[0]; i++)
    if (strncmp(t + 8, routines[i], strlen(routines[i])) == 0) return true;
  return false;
}

static Family family_for(const Instr *in) {
  if (in->op == OP_CUSTOM_CALL && interp_linalg_target(in->custom_call_target)) return interp_linalg;
  if (interp_is_host_callback(in)) return interp_host_callback;
  return family_of(in->op);
}

static int kind_of(const Instr *in) {
  if (family_of(in->op)) return RT_INTERP;
  if (rt_window_supported(in)) return RT_WINDOW;
  switch (in->op) {
  case OP_FFT: return RT_FFT;
  case OP_CHOLESKY: case OP_TRIANGULAR_SOLVE: return RT_LINALG;
  case OP_TOPK: return RT_TOPK;
  case OP_RNG: case OP_RNG_GET_AND_UPDATE_STATE: return RT_RNG;
  case OP_CUSTOM_CALL:
    if (in->custom_call_target && strcmp(in->custom_call_target, "TopK") == 0) return RT_TOPK;
    if (rt_identity_target(in->custom_call_target)) return RT_CONTROL;
    if (rt_linalg_supported(in)) return RT_LINALG;
    return interp_linalg_target(in->custom_call_target) || interp_is_host_callback(in) ? RT_INTERP
                                                                                       : RT_NONE;
  case OP_ALL_REDUCE: case OP_ALL_GATHER: case OP_ALL_TO_ALL: case OP_COLLECTIVE_PERMUTE:
  case OP_COLLECTIVE_BROADCAST: case OP_REDUCE_SCATTER: case OP_REPLICA_ID: case OP_PARTITION_ID:
  case OP_ALL_REDUCE_START: case OP_ALL_REDUCE_DONE: case OP_ALL_GATHER_START: case OP_ALL_GATHER_DONE:
  case OP_COLLECTIVE_PERMUTE_START: case OP_COLLECTIVE_PERMUTE_DONE: case OP_ASYNC_START:
  case OP_ASYNC_UPDATE: case OP_ASYNC_DONE: case OP_COPY_START: case OP_COPY_DONE:
  case OP_GET_DIMENSION_SIZE: case OP_SET_DIMENSION_SIZE: case OP_DYNAMIC_RESHAPE:
    return RT_CONTROL;
  default: return RT_NONE;
  }
}

bool routine_supported(const Instr *in) { return kind_of(in) != RT_NONE; }


bool routine_writes_leaf(const Step *st) { return st->kind == ST_ROUTINE && st->routine == RT_WINDOW; }

cxla_status routine_prepare(Step *st, const Instr *in) {
  st->routine = kind_of(in);
  switch (st->routine) {
  case RT_FFT:
    st->plan_free = rt_fft_free;
    return rt_fft_plan(in, &st->plan);
  case RT_TOPK: {
    int64_t k;
    bool largest;
    return rt_topk_check(in, &k, &largest);
  }
  case RT_RNG: return rt_rng_check(in);
  case RT_CONTROL: return rt_control_check(in);
  case RT_LINALG: return rt_linalg_check(in);
  case RT_WINDOW:
    st->plan_free = cxla_free;
    return rt_window_plan(in, &st->plan);
  case RT_INTERP: return interp_is_host_callback(in) ? interp_host_callback_check(in) : NULL;
  default:
    if (in->op == OP_BATCH_NORM_TRAINING || in->op == OP_BATCH_NORM_INFERENCE || in->op == OP_BATCH_NORM_GRAD)
      return ERR(UNIMPLEMENTED,
                 "cpu backend: cannot compile %s %%%s: the default pipeline's batchnorm-expander pass rewrites it",
                 op_name(in->op), in->name);
    if (in->op == OP_CUSTOM_CALL)
      return ERR(UNIMPLEMENTED, "cpu backend: cannot compile custom-call %%%s: unsupported target '%s'", in->name,
                 in->custom_call_target ? in->custom_call_target : "");
    return ERR(UNIMPLEMENTED, "cpu backend: cannot compile %s %%%s", op_name(in->op), in->name);
  }
}

static cxla_status run_interp(const ExecCtx *cx, const Instr *in, RVal *const *ops, RVal **out) {
  Family f = family_for(in);
  if (!f) return ERR(INTERNAL, "cpu backend: no routine for %s", op_name(in->op));
  Literal *small[16] = {0}, **lits = small;
  if (in->noperands > 16 && !(lits = cxla_calloc((size_t)in->noperands, sizeof *lits))) return cxla_oom();
  for (int k = 0; k < in->noperands; k++) lits[k] = &ops[k]->lit;
  Interp ip = {.module = cx->x->module, .rng_state = 0x853c49e6748fea9bull, .control = cx->control,
               .host_callback = cx->host_callback, .host_callback_arg = cx->host_callback_arg};
  Literal *r = NULL;
  cxla_status s = f(&ip, in, lits, &r);
  if (lits != small) cxla_free(lits);
  if (s) return s;
  return rval_from_literal(r, out);
}

cxla_status routine_run(const ExecCtx *cx, const Step *st, RVal *const *ops, RVal **out) {
  const Instr *in = st->in;
  switch (st->routine) {
  case RT_INTERP: return run_interp(cx, in, ops, out);
  case RT_FFT: return rt_fft_run(st->plan, ops, out);
  case RT_LINALG: return rt_linalg_run(in, ops, out);
  case RT_TOPK: return rt_topk_run(in, ops, out);
  case RT_RNG: return rt_rng_run(in, cx->rng_state, ops, out);
  case RT_CONTROL: return rt_control_run(cx, st, ops, out);
  case RT_WINDOW: return rt_window_run(cx, st, ops, out);
  default: return ERR(INTERNAL, "cpu backend: no routine for %s", op_name(in->op));
  }
}

/* ---- dots through CBLAS ---- */

static bool has(const I64List *l, int64_t d) {
  for (int i = 0; i < l->n; i++)
    if (l->v[i] == d) return true;
  return false;
}

/* Classifies an operand's non-batch dims: all free dims then all
 * contracting ones ("FC", *fc = true) or the reverse; contracting dims in
 * increasing order in the dimension list. */
static bool operand_form(const Shape *s, const I64List *batch, const I64List *contract, bool *free_first,
                         int64_t *free_n, int64_t *con_n) {
  int nb = batch->n;
  for (int i = 0; i < nb; i++)
    if (batch->v[i] != i) return false;
  for (int i = 1; i < contract->n; i++)
    if (contract->v[i] <= contract->v[i - 1]) return false;
  int first_kind = -1, switches = 0, prev = -1;
  *free_n = 1;
  *con_n = 1;
  for (int d = nb; d < s->rank; d++) {
    int kind = has(contract, d) ? 1 : 0;
    if (kind) *con_n *= s->dims[d];
    else *free_n *= s->dims[d];
    if (first_kind < 0) first_kind = kind;
    if (prev >= 0 && kind != prev) switches++;
    prev = kind;
  }
  if (switches > 1) return false;
  *free_first = first_kind != 1;
  return true;
}

bool gemm_plan(const Instr *in, GemmPlan *p) {
  ElemType t = in->shape->type;
  const Shape *a = in->operands[0]->shape, *b = in->operands[1]->shape;
  /* 8-bit integers accumulated in s32: exact through sgemm (intdot.c) */
  bool int8 = t == T_S32 && (a->type == T_S8 || a->type == T_U8) && (b->type == T_S8 || b->type == T_U8);
  /* bf16 accumulated in f32 (intdot.c) */
  bool bf16 = (t == T_F32 || t == T_BF16) && a->type == T_BF16 && b->type == T_BF16;
  if (!int8 && !bf16 && t != T_F32 && t != T_F64 && t != T_C64 && t != T_C128) return false;
  if (!int8 && !bf16 && (a->type != t || b->type != t)) return false;
  const DotDims *dd = &in->dot;
  if (dd->lhs_batch.n != dd->rhs_batch.n || dd->lhs_contract.n != dd->rhs_contract.n) return false;
  bool af, bf;
  int64_t m, ka, n, kb;
  if (!operand_form(a, &dd->lhs_batch, &dd->lhs_contract, &af, &m, &ka)) return false;
  if (!operand_form(b, &dd->rhs_batch, &dd->rhs_contract, &bf, &n, &kb)) return false;
  /* the paired contracting dims must have equal sizes in order */
  for (int i = 0; i < dd->lhs_contract.n; i++)
    if (a->dims[dd->lhs_contract.v[i]] != b->dims[dd->rhs_contract.v[i]]) return false;
  if (m > 0x7fffffff || n > 0x7fffffff || ka > 0x7fffffff) return false;
  p->batch = 1;
  for (int i = 0; i < dd->lhs_batch.n; i++) p->batch *= a->dims[i];
  p->m = m;
  p->n = n;
  p->k = ka;
  p->trans_a = !af;  /* lhs stored K x M */
  p->trans_b = bf;   /* rhs stored N x K */
  return true;
}

/* Whether an operand holds an infinity or NaN: BLAS kernels may skip zero
 * factors (0 * inf must give NaN), so such operands take the plain loop.
 * Checked on the exponent bits, a block at a time without early exits, so
 * that the compiler vectorizes it (it runs before every GEMM). */
#define FINITE_SCAN(UT, EXP)                                                \
  do {                                                                      \
    const UT *u = (const UT *)l->data + lo;                                 \
    int64_t i = 0, n = hi - lo;                                             \
    for (; i + 256 <= n; i += 256) {                                        \
      UT bad = 0;                                                           \
      for (int k = 0; k < 256; k++) bad |= (UT)((u[i + k] & EXP) == EXP);   \
      if (bad) return false;                                                \
    }                                                                       \
    for (; i < n; i++)                                                      \
      if ((u[i] & EXP) == EXP) return false;                                \
  } while (0)

/* Scalars [lo, hi) of l (complex: 2 per element). */
static bool finite_scan(const Literal *l, int64_t lo, int64_t hi) {
  if (l->type == T_F32 || l->type == T_C64) FINITE_SCAN(uint32_t, UINT32_C(0x7f800000));
  else FINITE_SCAN(uint64_t, UINT64_C(0x7ff0000000000000));
  return true;
}

typedef struct ScanJob {
  const Literal *l;
  int bad;
} ScanJob;

static cxla_status scan_slice(void *arg, int64_t lo, int64_t hi) {
  ScanJob *j = arg;
  if (!__atomic_load_n(&j->bad, __ATOMIC_RELAXED) && !finite_scan(j->l, lo, hi))
    __atomic_store_n(&j->bad, 1, __ATOMIC_RELAXED);
  return NULL;
}

/* Values are immutable but for kernels writing in place (which reset
 * v->finite), so the answer is kept; constants are shared by concurrent
 * executions, hence the atomics (every writer stores the same answer).
 * Large arrays are scanned in slices over the pool's threads. */
bool rval_all_finite_on(RVal *v, int64_t n2, RtPool *pool, int nthreads) {
  int known = __atomic_load_n(&v->finite, __ATOMIC_RELAXED);
  if (known) return known == 1;
  ScanJob j = {.l = &v->lit};
  cxla_status s = rt_pool_parallel_for(pool, v->lit.nelems * n2, 1 << 18, nthreads, scan_slice, &j);
  if (s) { /* cannot happen (the slices never fail): scan here */
    cxla_status_free(s);
    j.bad = !finite_scan(&v->lit, 0, v->lit.nelems * n2);
  }
  __atomic_store_n(&v->finite, j.bad ? 2 : 1, __ATOMIC_RELAXED);
  return !j.bad;
}

bool rval_all_finite(RVal *v, int64_t n2) { return rval_all_finite_on(v, n2, NULL, 1); }

/* C = op(A) op(B) in plain loops, summing in order in the element type
 * (complex as pairs). */
#define GEMM_LOOP(T, CPLX)                                                                    \
  do {                                                                                        \
    const T *A = (const T *)a->lit.data + bi * p->m * p->k * (CPLX + 1);                      \
    const T *B = (const T *)b->lit.data + bi * p->k * p->n * (CPLX + 1);                      \
    T *C = (T *)o->lit.data + bi * p->m * p->n * (CPLX + 1);                                  \
    for (int64_t i = 0; i < p->m; i++)                                                        \
      for (int64_t j = 0; j < p->n; j++) {                                                    \
        T re = 0, im = 0;                                                                     \
        for (int64_t kk = 0; kk < p->k; kk++) {                                               \
          int64_t ia = p->trans_a ? kk * p->m + i : i * p->k + kk;                            \
          int64_t ib = p->trans_b ? j * p->k + kk : kk * p->n + j;                            \
          if (CPLX) {                                                                         \
            T ar = A[2 * ia], ai = A[2 * ia + 1], br = B[2 * ib], bim = B[2 * ib + 1];        \
            re += ar * br - ai * bim;                                                         \
            im += ar * bim + ai * br;                                                         \
          } else {                                                                            \
            re += A[ia] * B[ib];                                                              \
          }                                                                                   \
        }                                                                                     \
        if (CPLX) {                                                                           \
          C[2 * (i * p->n + j)] = re;                                                         \
          C[2 * (i * p->n + j) + 1] = im;                                                     \
        } else {                                                                              \
          C[i * p->n + j] = re;                                                               \
        }                                                                                     \
      }                                                                                       \
  } while (0)

/* A bf16 operand widened to f32 (exactly). */
static cxla_status widen(RVal *v, RVal **out) {
  TRY(rval_array(T_F32, v->lit.rank, v->lit.dims, out));
  const uint16_t *src = v->lit.data;
  uint32_t *dst = (*out)->lit.data;
  for (int64_t i = 0; i < v->lit.nelems; i++) dst[i] = (uint32_t)src[i] << 16;
  return NULL;
}

static cxla_status gemm_float(const ExecCtx *cx, const GemmPlan *p, RVal *a, RVal *b, RVal *o);

cxla_status gemm_run(const ExecCtx *cx, const Instr *in, const GemmPlan *p, RVal *a, RVal *b, RVal **out) {
  const Shape *s = in->shape;
  TRY(rval_array_x(cx, s->type, s->rank, s->dims, out));
  return gemm_run_into(cx, p, a, b, *out);
}

cxla_status gemm_run_into(const ExecCtx *cx, const GemmPlan *p, RVal *a, RVal *b, RVal *o) {
  ElemType t = o->lit.type;
  size_t es = (size_t)type_bytes(t);
  if (p->m == 0 || p->n == 0 || p->batch == 0) return NULL;
  if (p->k == 0) {
    memset(o->lit.data, 0, (size_t)(p->batch * p->m * p->n) * es);
    return NULL;
  }
  if (t == T_S32) return gemm_int8(p, a, b, o, cx->pool, cx->nthreads);
  bool abf = a->lit.type == T_BF16, bbf = b->lit.type == T_BF16;
  if (abf && bbf) {
    AmxGemm g = {.batch = p->batch, .m = p->m, .n = p->n, .k = p->k, .trans_a = p->trans_a, .trans_b = p->trans_b,
                 .a = AMX_BF16, .b = AMX_BF16, .out_bf16 = t == T_BF16};
    return bf16_gemm(&g, a->lit.data, b->lit.data, o->lit.data, BF16_AUTO, cx->pool, cx->nthreads);
  }
  if (!abf && !bbf) return gemm_float(cx, p, a, b, o);
  /* one bf16 operand (its convert skipped), the other f32 */
  RVal *w = NULL;
  cxla_status st = widen(abf ? a : b, &w);
  if (!st) st = gemm_float(cx, p, abf ? w : a, abf ? b : w, o);
  rval_unref(w);
  return st;
}

/* The largest B kept packed on its value (RVal.packed): 16 MiB. */
enum { kMaxPackedFloats = 1 << 22 };

static uint64_t packed_geometry(const F32Gemm *g) {
  uint64_t h = 1469598103934665603ull;
  int64_t v[4] = {g->batch, g->k, g->n, g->trans_b};
  for (int i = 0; i < 4; i++) h = (h ^ (uint64_t)v[i]) * 1099511628211ull;
  return h | 1; /* never 0, "none seen" */
}

/* b's packed form as the B of g (RVal.packed), or NULL (then the kernel
 * packs its panels itself): made the second time in a row that a product
 * of g's geometry reads b, so that a value read once costs no copy and a
 * loop's weight is packed once for all its trips. Values may be shared by
 * concurrent executions (constants): the form is published with a
 * compare-and-swap, a loser frees its own; a form of another geometry
 * stays (the product packs as usual). */
static const float *packed_b(const ExecCtx *cx, const F32Gemm *g, RVal *b) {
  RvPacked *p = __atomic_load_n(&b->packed, __ATOMIC_ACQUIRE);
  if (p)
    return p->batch == g->batch && p->k == g->k && p->n == g->n && p->trans_b == g->trans_b ? p->data : NULL;
  int64_t nf = f32_gemm_packed_floats(g);
  if (nf <= 0 || nf > kMaxPackedFloats) return NULL;
  uint64_t key = packed_geometry(g);
  if (__atomic_exchange_n(&b->packed_seen, key, __ATOMIC_RELAXED) != key) return NULL;
  RvPacked *n = cxla_calloc(1, sizeof *n);
  float *data = n ? aligned_alloc(64, ((size_t)nf * sizeof(float) + 63) & ~(size_t)63) : NULL;
  if (!data || f32_gemm_pack_b(g, b->lit.data, data, cx->pool, cx->nthreads)) {
    /* no memory (or no kernel): the product packs as it would anyway */
    free(data);
    cxla_free(n);
    return NULL;
  }
  *n = (RvPacked){.batch = g->batch, .k = g->k, .n = g->n, .trans_b = g->trans_b, .data = data};
  RvPacked *none = NULL;
  if (__atomic_compare_exchange_n(&b->packed, &none, n, false, __ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE)) return data;
  free(data);
  cxla_free(n);
  return packed_b(cx, g, b);
}

/* f32/f64/c64/c128 through BLAS (plain loops when an operand is not
 * finite), small and batched f32 products on our own kernel, and large
 * ones too where f32_gemm_big_fits (fgemm.c: no operand scan needed; B's
 * cached packed form, packed_b, read there too), and
 * large f64 ones where f64_gemm_big_fits (dgemm.c); o
 * is the allocated result. */
static cxla_status gemm_float(const ExecCtx *cx, const GemmPlan *p, RVal *a, RVal *b, RVal *o) {
  ElemType t = o->lit.type;
  if (t == T_F32) {
    F32Gemm g = {.batch = p->batch, .m = p->m, .n = p->n, .k = p->k, .trans_a = p->trans_a, .trans_b = p->trans_b};
    if (f32_gemm_kernel_fits(&g)) {
      const float *pb = packed_b(cx, &g, b);
      if (pb) return f32_gemm_kernel_packed(&g, a->lit.data, pb, o->lit.data, cx->pool, cx->nthreads);
      return f32_gemm_kernel(&g, a->lit.data, b->lit.data, o->lit.data, cx->pool, cx->nthreads);
    }
    /* A tall product (A not transposed, one batch element) whose blocks
     * of 1024 rows fit the kernel runs block after block on it: rows of C
     * depend only on the same rows of A, and each element's sum is the
     * kernel's whatever the blocking (a scan's input projection hoisted
     * out of its loop, [steps * batch, k] x [k, n]). Each block packs all
     * of B again: with smaller blocks (a wider B) that costs more than
     * BLAS saves (1024^3: 16-17 -> 19 cpu-ms in 128-row blocks). */
    F32Gemm blk = g;
    blk.m = 1024;
    if (!p->trans_a && p->batch == 1 && f32_gemm_kernel_fits(&blk)) {
      const float *A = a->lit.data;
      float *C = o->lit.data;
      for (int64_t i = 0; i < p->m; i += blk.m) {
        F32Gemm part = blk;
        part.m = p->m - i < blk.m ? p->m - i : blk.m;
        TRY(f32_gemm_kernel(&part, A + i * p->k, b->lit.data, C + i * p->n, cx->pool, cx->nthreads));
      }
      return NULL;
    }
    if (f32_gemm_big_fits(&g)) {
      const float *pb = packed_b(cx, &g, b);
      if (pb) return f32_gemm_kernel_big_packed(&g, a->lit.data, pb, o->lit.data, cx->pool, cx->nthreads);
      return f32_gemm_kernel_big(&g, a->lit.data, b->lit.data, o->lit.data, cx->pool, cx->nthreads);
    }
    return f32_gemm_blas(&g, a->lit.data, b->lit.data, o->lit.data,
                         rval_all_finite_on(a, 1, cx->pool, cx->nthreads) &&
                             rval_all_finite_on(b, 1, cx->pool, cx->nthreads),
                         cx->pool, cx->nthreads);
  }
  if (t == T_F64) {
    F32Gemm g = {.batch = p->batch, .m = p->m, .n = p->n, .k = p->k, .trans_a = p->trans_a, .trans_b = p->trans_b};
    if (f64_gemm_big_fits(&g))
      return f64_gemm_kernel_big(&g, a->lit.data, b->lit.data, o->lit.data, cx->pool, cx->nthreads);
  }
  int64_t n2 = type_is_complex(t) ? 2 : 1;
  if (!rval_all_finite_on(a, n2, cx->pool, cx->nthreads) || !rval_all_finite_on(b, n2, cx->pool, cx->nthreads)) {
    for (int64_t bi = 0; bi < p->batch; bi++) {
      switch (t) {
      case T_F64: GEMM_LOOP(double, 0); break;
      case T_C64: GEMM_LOOP(float, 1); break;
      default: GEMM_LOOP(double, 1); break;
      }
    }
    return NULL;
  }
  CpuBlasGemm g = {.type = t, .trans_a = p->trans_a, .trans_b = p->trans_b, .batch = p->batch,
                   .m = (int)p->m, .n = (int)p->n, .k = (int)p->k, .a = a->lit.data, .b = b->lit.data,
                   .c = o->lit.data, .lda = p->trans_a ? (int)p->m : (int)p->k,
                   .ldb = p->trans_b ? (int)p->k : (int)p->n, .ldc = (int)p->n, .stride_a = p->m * p->k,
                   .stride_b = p->k * p->n, .stride_c = p->m * p->n};
  return cpu_blas_gemm(&g, cx->pool, cx->nthreads);
}
