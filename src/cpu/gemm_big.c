/* The driver of the GEMMs of large products, for every element type
 * (gemm_big.h: the layout and why). */
#include "cpu/gemm_big.h"
#include "runtime/scratch.h"

#include <sched.h>

/* Steps per block of A for a product of K steps: t->kb, or K if fewer. */
static int64_t block_steps(const GemmBigType *t, int64_t K) { return K < t->kb ? K : t->kb; }

/* Blocks of rows whose packed A is about a_bytes, at least one per
 * thread and a multiple of the threads in number (the threads finish
 * together; each block streams all of the packed B, so a product of few
 * rows gets no more blocks than threads: 256 x 512 x 2048 on two threads
 * in 2 blocks of 21-22 tiles rather than 4 of 10-11, transformer_fwd's
 * MLP down projection 1.90-2.02 -> 1.72-1.87 ms, 8 alternations of 30
 * runs), the mr-row tiles dealt out evenly over them (only the last
 * block's last tile partial): f32 1024 rows in 4 blocks of 42 or 43
 * tiles rather than 4 of 252 rows and one of 16 (one more pass over all
 * of the packed B for 16 rows, and on two threads a third block for one
 * of them) or 4 of 256 (each with a 4-row tile); f32 2048 rows (k 2048)
 * in 16 of 21 or 22 tiles. The pool deals the blocks out evenly then
 * (rt_pool_parallel_for: each thread's run of slices nb / th blocks). */
int64_t gemm_big_blocks(const GemmBigType *t, int64_t M, int64_t K, int64_t th) {
  int64_t mb_max = t->a_bytes / t->esize / block_steps(t, K);
  if (mb_max < t->mr) mb_max = t->mr;
  int64_t tiles = (M + t->mr - 1) / t->mr, nb = (M + mb_max - 1) / mb_max;
  if (nb < th) nb = th;
  nb = (nb + th - 1) / th * th;
  return nb < tiles ? nb : tiles;
}

#if defined(__x86_64__) && defined(__GNUC__)
#include <immintrin.h>

typedef struct BigJob {
  const GemmBigType *t;
  const F32Gemm *g;
  const char *a; /* this batch element's A (rows f32_gemm_a_lda apart) */
  const char *pb; /* its B, packed (when ready: as its slices are) */
  const char *b; /* its B as given (row stride ldb; n x k when trans_b) */
  int64_t ldb;
  /* NULL (B packed before), or per panel, per slice of steps (kc steps
   * of a block of kb; spk slices a block, spp a panel): 0 not packed yet,
   * 1 being packed, 2 packed */
  int *ready;
  int64_t spp, spk;
  int th; /* threads */
  char *c;
  int64_t nb, tiles, mb; /* blocks of rows; mr-row tiles in all; most rows in a block */
  unsigned csr; /* the caller's MXCSR (FTZ/DAZ) */
  RtPool *pool; /* the scratch's (rt_scratch_alloc), or NULL */
} BigJob;

/* The ready entry of panel pn's slice of steps kb0 + k0 (k0 < kb). */
static int *slice_flag(const BigJob *j, int64_t pn, int64_t kb0, int64_t k0) {
  return j->ready + pn * j->spp + kb0 / block_steps(j->t, j->g->k) * j->spk + k0 / j->t->kc;
}

/* Steps [q0, q1) of panel pn packed (flag: their ready entry): by this
 * thread if no other has begun them, else once the one packing them is
 * done (it is running: the entry went to 1 in this call's packing). */
static void need_slice(const BigJob *j, int64_t pn, int64_t q0, int64_t q1, int *flag) {
  if (__atomic_load_n(flag, __ATOMIC_ACQUIRE) == 2) return;
  int none = 0;
  if (__atomic_compare_exchange_n(flag, &none, 1, false, __ATOMIC_ACQUIRE, __ATOMIC_RELAXED)) {
    const GemmBigType *t = j->t;
    t->pack_slice(j->b, j->ldb, j->g->trans_b, j->g->n, j->g->k, pn * t->nr, q0, q1,
                  (char *)j->pb + pn * j->g->k * t->nr * t->esize);
    __atomic_store_n(flag, 2, __ATOMIC_RELEASE);
    return;
  }
  /* a few microseconds' spin (a slice's packing), then the core to others:
   * with more threads than cores the one packing may be waiting for it */
  for (int spins = 0; __atomic_load_n(flag, __ATOMIC_ACQUIRE) != 2; spins++) {
    if (spins < 4096) _mm_pause();
    else sched_yield();
  }
}

/* Rows of B as given that a slice is packed from: n rows of len bytes,
 * stride apart, from p. */
typedef struct SrcRows {
  const char *p;
  int64_t stride, len, n;
} SrcRows;

/* Steps [q0, q1) of panel pn: rows q0.. of B (its panel's columns), or
 * with B transposed the panel's rows of B^T (those steps of each). */
static SrcRows slice_source(const BigJob *j, int64_t pn, int64_t q0, int64_t q1) {
  int64_t es = j->t->esize, nr = j->t->nr, N = j->g->n, K = j->g->k, nc = N - pn * nr < nr ? N - pn * nr : nr;
  if (!j->g->trans_b)
    return (SrcRows){.p = j->b + (q0 * j->ldb + pn * nr) * es, .stride = j->ldb * es, .len = nc * es, .n = q1 - q0};
  return (SrcRows){.p = j->b + (pn * nr * K + q0) * es, .stride = K * es, .len = (q1 - q0) * es, .n = nc};
}

/* Rows [r0, r1) of s fetched into L2. */
static void fetch_rows(const SrcRows *s, int64_t r0, int64_t r1) {
  for (int64_t r = r0; r < r1 && r < s->n; r++) {
    const char *row = s->p + r * s->stride;
    for (const char *q = (const char *)((uintptr_t)row & ~(uintptr_t)63); q < row + s->len; q += 64)
      _mm_prefetch(q, _MM_HINT_T1);
  }
}

/* Blocks of rows [lo, hi): each block's A packed kb steps at a time, and
 * every panel of B passed under it kc steps at a time. With B packed
 * here as needed (j->ready), a block starts at the panel that its thread
 * is the first to reach (thread t of th at panel npanels t / th), so the
 * threads pack different panels instead of waiting on one another; the
 * order of the panels changes no element's sum. */
static cxla_status big_slice(void *arg, int64_t lo, int64_t hi) {
  const BigJob *j = arg;
  const GemmBigType *t = j->t;
  const F32Gemm *g = j->g;
  int64_t es = t->esize, oes = t->tile_out ? t->out_esize : es, mr = t->mr, nr = t->nr, kc = t->kc;
  int64_t M = g->m, N = g->n, K = g->k, ldc = g->ldc ? g->ldc : N, npanels = (N + nr - 1) / nr;
  int64_t sai = g->trans_a ? 1 : f32_gemm_a_lda(g), sak = g->trans_a ? M : 1, kb = block_steps(t, K);
  char *pa = rt_scratch_alloc(j->pool, (size_t)(j->mb * kb * es));
  char *cb = t->scratch ? rt_scratch_alloc(j->pool, (size_t)(j->mb * nr * es)) : NULL;
  if (!pa || (t->scratch && !cb)) {
    rt_scratch_free(j->pool, pa);
    rt_scratch_free(j->pool, cb);
    return cxla_oom();
  }
  unsigned old = _mm_getcsr();
  _mm_setcsr(j->csr);
  for (int64_t rb = lo; rb < hi; rb++) {
    /* block rb: tiles [rb tiles / nb, (rb + 1) tiles / nb) */
    int64_t i0 = rb * j->tiles / j->nb * mr, i1 = (rb + 1) * j->tiles / j->nb * mr;
    if (i1 > M) i1 = M;
    int64_t ntiles = (i1 - i0 + mr - 1) / mr;
    for (int64_t kb0 = 0; kb0 < K; kb0 += kb) {
      int64_t kbl = K - kb0 < kb ? K - kb0 : kb;
      t->pack_a(j->a + kb0 * sak * es, sai, sak, kbl, i0, i1, pa);
      int64_t first = j->ready ? rb * j->th / j->nb * npanels / j->th : 0;
      for (int64_t pi = 0; pi < npanels; pi++) {
        int64_t pn = (first + pi) % npanels;
        int64_t j0 = pn * nr, nc = N - j0 < nr ? N - j0 : nr;
        const char *pp = j->pb + (pn * K + kb0) * nr * es;
        char *C = j->c + j0 * oes;
        uint64_t cols = nc == 64 ? ~(uint64_t)0 : ((uint64_t)1 << nc) - 1;
        for (int64_t k0 = 0; k0 < kbl; k0 += kc) {
          int64_t kcl = kbl - k0 < kc ? kbl - k0 : kc;
          if (j->ready) need_slice(j, pn, kb0 + k0, kb0 + k0 + kcl, slice_flag(j, pn, kb0, k0));
          /* the next slice of B (these steps' next kc, else the next
           * panel's first), fetched into L2 a share per tile of rows:
           * without it each slice's first pass waits on L3 (f32 1024^3:
           * 10% slower). Not packed yet: the rows it is packed from too
           * (its own lines then come in for the stores): f32, B
           * transposed, 256 x 512 x 2048 on two threads, 1.20 -> 0.70
           * Mcycles packing a call */
          bool more = k0 + kc < kbl;
          int64_t pq = more ? pn : (pn + 1) % npanels, q0 = more ? k0 + kc : 0, nk = more ? kbl - k0 - kc : kbl;
          int64_t ql = nk < kc ? nk : kc;
          const char *nx = more || pi + 1 < npanels ? j->pb + (pq * K + kb0 + q0) * nr * es : NULL;
          SrcRows src = {0};
          if (nx && j->ready && __atomic_load_n(slice_flag(j, pq, kb0, q0), __ATOMIC_RELAXED) != 2)
            src = slice_source(j, pq, kb0 + q0, kb0 + q0 + ql);
          int64_t nlines = nx ? ql * nr * es / 64 : 0, per = (nlines + ntiles - 1) / ntiles;
          int64_t src_per = (src.n + ntiles - 1) / ntiles, done = 0;
          for (int64_t i = i0; i < i1; i += mr) {
            int64_t rows = i1 - i < mr ? i1 - i : mr;
            int64_t npf = nlines - done < per ? nlines - done : per;
            const char *pf = nx ? nx + done * 64 : NULL;
            done += npf;
            if (src.n) fetch_rows(&src, (i - i0) / mr * src_per, (i - i0) / mr * src_per + src_per);
            const char *ta = pa + ((i - i0) * kbl + k0 * mr) * es, *tb = pp + k0 * nr * es;
            char *tc = C + i * ldc * oes;
            if (!cb || (rows < mr && !t->tile_out)) {
              t->tile(rows, kcl, ta, tb, tc, ldc, tc, ldc, cols, kb0 + k0 > 0, pf, npf);
              continue;
            }
            /* the tile's partial sums in cb between the passes over the
             * slices: read from C on the first (when accumulating), C
             * written on the last (narrowed, with tile_out) */
            bool first = k0 == 0, last = k0 + kc >= kbl;
            char *ts = cb + (i - i0) * nr * es;
            (last && t->tile_out ? t->tile_out : t->tile)(rows, kcl, ta, tb, first ? tc : ts, first ? ldc : nr, last ? tc : ts, last ? ldc : nr, cols,
                    kb0 + k0 > 0, pf, npf);
          }
        }
      }
    }
  }
  _mm_setcsr(old);
  rt_scratch_free(j->pool, pa);
  rt_scratch_free(j->pool, cb);
  return NULL;
}

typedef struct PackJob {
  const GemmBigType *t;
  const char *b;
  int64_t ldb, n, k;
  bool trans;
  char *dst;
} PackJob;

static cxla_status pack_rows(void *arg, int64_t lo, int64_t hi) {
  const PackJob *p = arg;
  p->t->pack_b(p->b, p->ldb, p->n, p->k, lo, hi, p->dst);
  return NULL;
}

/* Panels [lo, hi) whole on the type's pack_slice (B packed before the
 * products). */
static cxla_status pack_panels(void *arg, int64_t lo, int64_t hi) {
  const PackJob *p = arg;
  int64_t es = p->t->esize, nr = p->t->nr;
  for (int64_t pn = lo; pn < hi; pn++)
    p->t->pack_slice(p->b, p->ldb, p->trans, p->n, p->k, pn * nr, 0, p->k, p->dst + pn * p->k * nr * es);
  return NULL;
}

/* B stored n x k: step q of the panels gathered from column q of B^T
 * (a type with pack_b, B transposed). */
static cxla_status gather_rows(void *arg, int64_t lo, int64_t hi) {
  const PackJob *p = arg;
  int64_t es = p->t->esize, nr = p->t->nr, np = (p->n + nr - 1) / nr;
  for (int64_t q = lo; q < hi; q++)
    for (int64_t pn = 0; pn < np; pn++) {
      char *d = p->dst + (pn * p->k + q) * nr * es;
      for (int64_t jj = 0; jj < nr; jj++) {
        int64_t col = pn * nr + jj;
        if (col < p->n) memcpy(d + jj * es, p->b + (col * p->k + q) * es, (size_t)es);
        else memset(d + jj * es, 0, (size_t)es);
      }
    }
  return NULL;
}

cxla_status gemm_big_run(const GemmBigType *t, const F32Gemm *g, const void *a, const void *b, const void *given,
                         void *c, RtPool *pool, int nthreads) {
  if (g->batch <= 0 || g->m <= 0 || g->n <= 0) return NULL;
  int64_t es = t->esize, oes = t->tile_out ? t->out_esize : es, M = g->m, N = g->n, K = g->k;
  if (t->tile_out && K > t->kb) return ERR(INVALID_ARGUMENT, "gemm_big_run: %lld steps for a narrowing type of %lld",
                                           (long long)K, (long long)t->kb);
  int64_t ldb = g->ldb && !g->trans_b ? g->ldb : N, ldc = g->ldc ? g->ldc : N, lda = f32_gemm_a_lda(g);
  if (K <= 0) {
    /* empty sums: +0 */
    for (int64_t r = 0; r < g->batch * M; r++) memset((char *)c + r * ldc * oes, 0, (size_t)(N * oes));
    return NULL;
  }
  int64_t np = (N + t->nr - 1) / t->nr;
  char *pb = given ? NULL : rt_scratch_alloc(pool, (size_t)(np * K * t->nr * es));
  if (!given && !pb) return cxla_oom();
  /* B packed by the blocks' passes as they first need each slice (a
   * type with pack_slice): the slice is still in the packing core's
   * caches for its own pass, and the packing overlaps the other threads'
   * arithmetic instead of a pass of its own before it. Two threads,
   * each side's median of 400 calls in one process: f32 256 x 512 x 2048
   * (B transposed) 1.79 -> 1.64 ms, B not transposed 1.64 -> 1.58,
   * 256 x 2048 x 512 (B transposed) 1.69 -> 1.57. Not with more threads
   * than processors: a thread waiting for a slice may wait for its packer
   * to be scheduled (2 cores, 8 threads: 1.93 -> 2.36 ms; 16: 2.16 ->
   * 2.69) */
  int64_t kb = block_steps(t, K), spk = (kb + t->kc - 1) / t->kc, spp = (K + kb - 1) / kb * spk;
  int64_t th = pool && nthreads > 1 ? nthreads : 1;
  int *ready = NULL;
  if (!given && t->pack_slice && th <= rt_pool_cpus(pool) &&
      !(ready = cxla_malloc((size_t)(np * spp) * sizeof(int)))) {
    rt_scratch_free(pool, pb);
    return cxla_oom();
  }
  int64_t nb = gemm_big_blocks(t, M, K, th), tiles = (M + t->mr - 1) / t->mr;
  BigJob j = {.t = t, .g = g, .pb = pb, .ldb = ldb, .ready = ready, .spp = spp, .spk = spk, .th = (int)th,
              .nb = nb, .tiles = tiles, .mb = (tiles + nb - 1) / nb * t->mr, .csr = _mm_getcsr(),
              .pool = pool};
  cxla_status s = NULL;
  for (int64_t bi = 0; bi < g->batch && !s; bi++) {
    PackJob pk = {.t = t, .b = given ? NULL : (const char *)b + bi * K * ldb * es, .ldb = ldb, .n = N, .k = K,
                  .trans = g->trans_b, .dst = pb};
    j.b = given ? NULL : pk.b;
    if (given) j.pb = (const char *)given + bi * np * K * t->nr * es;
    else if (ready) memset(ready, 0, (size_t)(np * spp) * sizeof(int));
    else if (t->pack_slice) s = rt_pool_parallel_for(pool, np, 1, nthreads, pack_panels, &pk);
    else if (!g->trans_b) s = rt_pool_parallel_for(pool, K, 64, nthreads, pack_rows, &pk);
    else s = rt_pool_parallel_for(pool, K, 64, nthreads, gather_rows, &pk);
    j.a = (const char *)a + bi * M * lda * es;
    j.c = (char *)c + bi * M * ldc * oes;
    if (!s) s = rt_pool_parallel_for(pool, nb, 1, nthreads, big_slice, &j);
  }
  rt_scratch_free(pool, pb);
  cxla_free(ready);
  return s;
}

#else

cxla_status gemm_big_run(const GemmBigType *t, const F32Gemm *g, const void *a, const void *b, const void *pb,
                         void *c, RtPool *pool, int nthreads) {
  (void)pb;
  return ERR(UNAVAILABLE, "the large-product GEMM kernels are built for x86-64 only");
}

#endif
