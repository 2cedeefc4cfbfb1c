/* GEMMs on Intel AMX tiles (Sapphire Rapids and later).
 *
 * A tile is 16 rows of 64 bytes. The lhs tiles are 16 rows of C by 64
 * bytes of contraction (32 bf16 / 64 bytes); the rhs tiles are in the
 * "VNNI" layout the tile unit multiplies by: row r holds, for each of 16
 * columns of C, the 4 bytes of contraction steps 4r/es .. (the 2 bf16 /
 * 4 bytes that pair with lhs row bytes 4r..4r+3). Both operands are
 * packed into such tiles, zero-padded to whole tiles (zeros add nothing
 * to a sum; padded rows and columns of C are computed and dropped):
 *   rhs: [batch][column panel of 16][contraction block][16][64], all
 *        packed first (split over the threads by panel pairs);
 *   lhs: per work item, 128 rows [row panel of 16][block][16][64]; a
 *        row-major lhs of whole blocks needs no packing for whole pairs
 *        of row panels: their tiles load from its rows in place (row
 *        stride K elements), only the rows past the last pair are packed.
 * A work item is up to 128 rows of one batch's C; the items are split
 * over the threads. For each pair of column panels the 2 x 2 micro-kernel
 * runs over the item's row-panel pairs: four 16 x 16 accumulator tiles
 * (tmm0-3) over all contraction blocks, loading two lhs tiles (tmm4-5)
 * and two rhs tiles (tmm6-7) per block for four tile products. The rhs
 * pair (K x 32 elements) stays in L1/L2 while the item's lhs rows (in L2)
 * pass under it. Whole in-range tiles of an f32 / s32 result are stored
 * straight into C; others (edges, bf16 results) go through a scratch
 * block, bf16 rounded to nearest even once.
 *
 * 8-bit products are exact and the s32 sums wrap (the tile unit adds
 * without saturation). bf16 products are exact in f32; the tile unit
 * reads bf16 subnormals as zero and flushes subnormal f32 sums, and sums
 * in its own order (the interpreter's reference sums in order: results
 * may differ in the last places). */
#include <string.h>

#include "ir/numeric.h"
#include "cpu/amx.h"
#include "cpu/intdot.h"
#include "runtime/scratch.h"

#if defined(__x86_64__) && defined(__GNUC__) && defined(__linux__)
#include <cpuid.h>
#include <immintrin.h>
#include <pthread.h>
#include <sys/syscall.h>
#include <unistd.h>

#define AMX_TGT __attribute__((target("amx-tile,amx-bf16,amx-int8,avx512f,avx512bw")))

enum { TILE = 1024, MG = 128 /* rows of a work item */, KCB = 8 /* contraction blocks of a chunk */ };

/* The process asks for permission to use tile data once (the library's
 * only one-time setup here); each thread reads the answer back from the
 * kernel on its first check and keeps it (thread-local: no shared
 * mutable state), so later checks cost no syscall. */
static pthread_once_t amx_once = PTHREAD_ONCE_INIT;
static _Thread_local signed char amx_known; /* 0: not asked yet; 1: available; -1: not */

enum { ARCH_GET_XCOMP_PERM = 0x1022, ARCH_REQ_XCOMP_PERM = 0x1023, XFEATURE_XTILEDATA = 18 };

static void amx_request(void) { (void)syscall(SYS_arch_prctl, ARCH_REQ_XCOMP_PERM, XFEATURE_XTILEDATA); }

static bool amx_cpu(void) {
  unsigned a, b, c, d;
  if (!__get_cpuid_count(7, 0, &a, &b, &c, &d)) return false;
  bool tile = d >> 24 & 1, bf16 = d >> 22 & 1, int8 = d >> 25 & 1;
  bool avx512 = (b >> 16 & 1) && (b >> 30 & 1); /* avx512f, avx512bw */
  return tile && bf16 && int8 && avx512 && __builtin_cpu_supports("avx512f");
}

static bool amx_check(void) {
  if (!amx_cpu()) return false;
  pthread_once(&amx_once, amx_request);
  unsigned long perm = 0;
  return syscall(SYS_arch_prctl, ARCH_GET_XCOMP_PERM, &perm) == 0 && (perm >> XFEATURE_XTILEDATA & 1);
}

bool amx_available(bool int8) {
  (void)int8; /* the check requires both */
  if (!amx_known) amx_known = amx_check() ? 1 : -1;
  return amx_known > 0;
}

typedef struct TileConfig {
  uint8_t palette, start_row, reserved[14];
  uint16_t colsb[16];
  uint8_t rows[16];
} TileConfig;

AMX_TGT static void tiles_configure(void) {
  TileConfig cfg;
  memset(&cfg, 0, sizeof cfg);
  cfg.palette = 1;
  for (int t = 0; t < 8; t++) {
    cfg.colsb[t] = 64;
    cfg.rows[t] = 16;
  }
  _tile_loadconfig(&cfg);
}

/* The 32 x 32 block of C at out (row stride ldo bytes) = the block at in
 * (row stride 128 bytes; NULL: zeros) + the two lhs row panels a0, a1
 * (tiles of row stride lda bytes, block kb at + kb * astep: packed
 * panels, or the lhs rows in place) times the two rhs column panels b0,
 * b1 over nkb blocks. */
#define DEFINE_KERNEL(NAME, DP)                                                                          \
  AMX_TGT static void NAME(int64_t nkb, const uint8_t *a0, const uint8_t *a1, int64_t astep, int64_t lda, \
                           const uint8_t *b0, const uint8_t *b1, const uint8_t *in, uint8_t *out,         \
                           int64_t ldo) {                                                                \
    if (in) {                                                                                            \
      _tile_loadd(0, in, 128);                                                                           \
      _tile_loadd(1, in + 64, 128);                                                                      \
      _tile_loadd(2, in + 16 * 128, 128);                                                                \
      _tile_loadd(3, in + 16 * 128 + 64, 128);                                                           \
    } else {                                                                                             \
      _tile_zero(0);                                                                                     \
      _tile_zero(1);                                                                                     \
      _tile_zero(2);                                                                                     \
      _tile_zero(3);                                                                                     \
    }                                                                                                    \
    for (int64_t kb = 0; kb < nkb; kb++) {                                                               \
      _tile_loadd(4, a0 + kb * astep, lda);                                                              \
      _tile_loadd(6, b0 + kb * TILE, 64);                                                                \
      DP(0, 4, 6);                                                                                       \
      _tile_loadd(7, b1 + kb * TILE, 64);                                                                \
      DP(1, 4, 7);                                                                                       \
      _tile_loadd(5, a1 + kb * astep, lda);                                                              \
      DP(2, 5, 6);                                                                                       \
      DP(3, 5, 7);                                                                                       \
    }                                                                                                    \
    _tile_stored(0, out, ldo);                                                                           \
    _tile_stored(1, out + 64, ldo);                                                                      \
    _tile_stored(2, out + 16 * ldo, ldo);                                                                \
    _tile_stored(3, out + 16 * ldo + 64, ldo);                                                           \
  }

#define DP_BF16(d, a, b) _tile_dpbf16ps(d, a, b)
#define DP_SS(d, a, b) _tile_dpbssd(d, a, b)
#define DP_SU(d, a, b) _tile_dpbsud(d, a, b)
#define DP_US(d, a, b) _tile_dpbusd(d, a, b)
#define DP_UU(d, a, b) _tile_dpbuud(d, a, b)
DEFINE_KERNEL(kernel_bf16, DP_BF16)
DEFINE_KERNEL(kernel_ss, DP_SS)
DEFINE_KERNEL(kernel_su, DP_SU)
DEFINE_KERNEL(kernel_us, DP_US)
DEFINE_KERNEL(kernel_uu, DP_UU)

typedef void (*Kernel)(int64_t, const uint8_t *, const uint8_t *, int64_t, int64_t, const uint8_t *,
                       const uint8_t *, const uint8_t *, uint8_t *, int64_t);

typedef struct Job {
  const AmxGemm *g;
  const uint8_t *a, *b;
  uint8_t *c;
  uint8_t *bpk;       /* packed rhs of every batch */
  int es;             /* operand element bytes: 2 (bf16) or 1 */
  int64_t kb_elems;   /* contraction steps per block: 64 / es */
  int64_t nkb, npairs; /* contraction blocks; pairs of column panels */
  int64_t items_per_batch;
  bool a_direct;      /* lhs tiles loaded from its rows in place */
  Kernel kernel;
} Job;

/* Packs column panel p of batch bi's rhs (all nkb blocks). */
AMX_TGT static void pack_b_panel(const Job *j, int64_t bi, int64_t p) {
  const AmxGemm *g = j->g;
  int64_t K = g->k, N = g->n, es = j->es, grp = 4 / es;
  const uint8_t *B = j->b + bi * K * N * es;
  uint8_t *dst = j->bpk + ((bi * 2 * j->npairs + p) * j->nkb) * TILE;
  int64_t j0 = p * 16;
  bool fullj = j0 + 16 <= N;
  for (int64_t kb = 0; kb < j->nkb; kb++)
    for (int64_t r = 0; r < 16; r++) {
      uint8_t *d = dst + kb * TILE + r * 64;
      int64_t k0 = kb * j->kb_elems + r * grp;
      if (k0 >= K || j0 >= N) {
        memset(d, 0, 64);
        continue;
      }
      if (!g->trans_b && fullj && k0 + grp <= K) {
        __m512i v;
        if (es == 2) {
          const uint16_t *s = (const uint16_t *)B + k0 * N + j0;
          __m512i lo = _mm512_cvtepu16_epi32(_mm256_loadu_si256((const __m256i *)s));
          __m512i hi = _mm512_cvtepu16_epi32(_mm256_loadu_si256((const __m256i *)(s + N)));
          v = _mm512_or_si512(lo, _mm512_slli_epi32(hi, 16));
        } else {
          const uint8_t *s = B + k0 * N + j0;
          v = _mm512_cvtepu8_epi32(_mm_loadu_si128((const __m128i *)s));
          for (int q = 1; q < 4; q++)
            v = _mm512_or_si512(v, _mm512_slli_epi32(_mm512_cvtepu8_epi32(_mm_loadu_si128((const __m128i *)(s + q * N))),
                                                     (unsigned)(8 * q)));
        }
        _mm512_storeu_si512(d, v);
        continue;
      }
      for (int64_t cc = 0; cc < 16; cc++) {
        int64_t col = j0 + cc;
        for (int64_t q = 0; q < grp; q++) {
          int64_t k = k0 + q;
          uint8_t *e = d + 4 * cc + q * es;
          if (col >= N || k >= K) memset(e, 0, (size_t)es);
          else memcpy(e, B + (g->trans_b ? col * K + k : k * N + col) * es, (size_t)es);
        }
      }
    }
}

/* Packs rows [i0, i0 + rows) of batch bi's lhs into npan row panels. */
static void pack_a(const Job *j, int64_t bi, int64_t i0, int64_t npan, uint8_t *dst) {
  const AmxGemm *g = j->g;
  int64_t M = g->m, K = g->k, es = j->es, KB = j->kb_elems;
  const uint8_t *A = j->a + bi * M * K * es;
  if (!g->trans_a) {
    for (int64_t pp = 0; pp < npan; pp++)
      for (int64_t kb = 0; kb < j->nkb; kb++)
        for (int64_t r = 0; r < 16; r++) {
          uint8_t *d = dst + ((pp * j->nkb + kb) * 16 + r) * 64;
          int64_t i = i0 + pp * 16 + r, k0 = kb * KB, n = i < M ? (K - k0 < KB ? K - k0 : KB) : 0;
          if (n > 0) memcpy(d, A + (i * K + k0) * es, (size_t)(n * es));
          memset(d + n * es, 0, (size_t)(64 - n * es));
        }
    return;
  }
  /* stored k x m: each storage row spreads over the panels' rows */
  memset(dst, 0, (size_t)(npan * j->nkb * TILE));
  int64_t rows = M - i0 < npan * 16 ? M - i0 : npan * 16;
  for (int64_t k = 0; k < K; k++) {
    const uint8_t *s = A + (k * M + i0) * es;
    int64_t kb = k / KB, off = (k % KB) * es;
    for (int64_t t = 0; t < rows; t++)
      memcpy(dst + (((t / 16) * j->nkb + kb) * 16 + t % 16) * 64 + off, s + t * es, (size_t)es);
  }
}

/* Tile rows must not straddle cache lines (a straddling tile load costs
 * several times as much): packed buffers start on a 64-byte boundary.
 * *base is what to free. */
static uint8_t *alloc64(size_t n, void **base) { return cxla_malloc_lines(n, base); }

/* Whether the rhs is row-major bf16 of whole 32-column panel pairs:
 * then it packs by contraction blocks (pack_b_rows_slice). */
static bool pack_b_by_rows(const Job *j) { return j->es == 2 && !j->g->trans_b && j->g->n % 32 == 0; }

/* Packs contraction block kb of batch bi's rhs (row-major bf16, whole
 * pairs): each pair of its rows, read once in order, interleaves into a
 * tile row of every column panel (vpermt2w). */
AMX_TGT static void pack_b_block_bf16(const Job *j, int64_t bi, int64_t kb) {
  int64_t K = j->g->k, N = j->g->n;
  const uint16_t *B = (const uint16_t *)j->b + bi * K * N;
  uint8_t *dst = j->bpk + bi * 2 * j->npairs * j->nkb * TILE + kb * TILE;
  /* lane i of the even panel takes column i / 2 of row i % 2, of the odd
   * panel column 16 + i / 2 */
  uint16_t i0[32], i1[32];
  for (int i = 0; i < 32; i++) {
    i0[i] = (uint16_t)((i % 2) * 32 + i / 2);
    i1[i] = (uint16_t)((i % 2) * 32 + 16 + i / 2);
  }
  __m512i x0 = _mm512_loadu_si512(i0), x1 = _mm512_loadu_si512(i1), z = _mm512_setzero_si512();
  for (int64_t r = 0; r < 16; r++) {
    int64_t k = kb * 32 + 2 * r;
    const uint16_t *s0 = B + k * N, *s1 = s0 + N;
    bool h0 = k < K, h1 = k + 1 < K;
    uint8_t *d = dst + r * 64;
    for (int64_t pr = 0; pr < j->npairs; pr++) {
      __m512i r0 = h0 ? _mm512_loadu_si512(s0 + 32 * pr) : z, r1 = h1 ? _mm512_loadu_si512(s1 + 32 * pr) : z;
      uint8_t *d0 = d + 2 * pr * j->nkb * TILE;
      _mm512_storeu_si512(d0, _mm512_permutex2var_epi16(r0, x0, r1));
      _mm512_storeu_si512(d0 + j->nkb * TILE, _mm512_permutex2var_epi16(r0, x1, r1));
    }
  }
}

static cxla_status pack_b_rows_slice(void *arg, int64_t lo, int64_t hi) {
  const Job *j = arg;
  for (int64_t t = lo; t < hi; t++) pack_b_block_bf16(j, t / j->nkb, t % j->nkb);
  return NULL;
}

static cxla_status pack_b_slice(void *arg, int64_t lo, int64_t hi) {
  const Job *j = arg;
  for (int64_t t = lo; t < hi; t++) {
    int64_t bi = t / j->npairs, pr = t % j->npairs;
    pack_b_panel(j, bi, 2 * pr);
    pack_b_panel(j, bi, 2 * pr + 1);
  }
  return NULL;
}

/* For each rhs panel pair, the item's C columns (up to 128 x 32, in
 * acc, L1-resident) are accumulated over chunks of KCB contraction blocks:
 * the pair's chunk (16 KiB) stays in L1 while the item's row-panel pairs
 * pass under it from L2. The last chunk stores whole in-range f32 / s32
 * tiles straight into C; the rest goes through acc. */
AMX_TGT static cxla_status compute_slice(void *arg, int64_t lo, int64_t hi) {
  const Job *j = arg;
  const AmxGemm *g = j->g;
  int64_t M = g->m, N = g->n, cs = g->out_bf16 ? 2 : 4, nkb = j->nkb;
  void *abase;
  uint8_t *apk = alloc64((size_t)(MG / 16 * nkb * TILE), &abase);
  if (!apk) return cxla_oom();
  float acc[MG * 32] __attribute__((aligned(64)));
  tiles_configure();
  for (int64_t t = lo; t < hi; t++) {
    int64_t bi = t / j->items_per_batch, i0 = t % j->items_per_batch * MG;
    int64_t rows = M - i0 < MG ? M - i0 : MG, npan = (rows + 31) / 32 * 2;
    /* whole 32-row pairs of a row-major lhs of whole blocks are read in
     * place (tiles of row stride K elements); the rest is packed */
    int64_t direct = j->a_direct ? rows / 32 * 2 : 0;
    if (direct < npan) pack_a(j, bi, i0 + direct * 16, npan - direct, apk);
    const uint8_t *A = j->a + (bi * M + i0) * g->k * j->es;
    uint8_t *C = j->c + bi * M * N * cs;
    const uint8_t *bp = j->bpk + bi * 2 * j->npairs * nkb * TILE;
    for (int64_t pr = 0; pr < j->npairs; pr++) {
      const uint8_t *b0 = bp + 2 * pr * nkb * TILE, *b1 = b0 + nkb * TILE;
      int64_t jc = pr * 32, ncols = N - jc < 32 ? N - jc : 32;
      for (int64_t k0 = 0; k0 < nkb; k0 += KCB) {
        int64_t nk = nkb - k0 < KCB ? nkb - k0 : KCB;
        bool last = k0 + nk == nkb;
        for (int64_t pp = 0; pp < npan; pp += 2) {
          const uint8_t *a0, *a1;
          int64_t astep = TILE, lda = 64;
          if (pp < direct) {
            a0 = A + (pp * 16 * g->k + k0 * j->kb_elems) * j->es;
            astep = 64;
            lda = g->k * j->es;
            a1 = a0 + 16 * lda;
          } else {
            a0 = apk + ((pp - direct) * nkb + k0) * TILE;
            a1 = a0 + nkb * TILE;
          }
          int64_t ir = i0 + pp * 16, nrows = M - ir < 32 ? M - ir : 32;
          uint8_t *blk = (uint8_t *)(acc + pp * 16 * 32);
          const uint8_t *in = k0 ? blk : NULL;
          if (last && !g->out_bf16 && nrows == 32 && ncols == 32)
            j->kernel(nk, a0, a1, astep, lda, b0 + k0 * TILE, b1 + k0 * TILE, in, C + (ir * N + jc) * 4, N * 4);
          else
            j->kernel(nk, a0, a1, astep, lda, b0 + k0 * TILE, b1 + k0 * TILE, in, blk, 128);
        }
      }
      for (int64_t pp = 0; pp < npan; pp += 2) {
        int64_t ir = i0 + pp * 16, nrows = M - ir < 32 ? M - ir : 32;
        if (!g->out_bf16 && nrows == 32 && ncols == 32) continue;
        const float *blk = acc + pp * 16 * 32;
        for (int64_t r = 0; r < nrows; r++) {
          uint8_t *crow = C + ((ir + r) * N + jc) * cs;
          if (g->out_bf16) bf16_round_avx512(blk + r * 32, (uint16_t *)crow, ncols);
          else memcpy(crow, blk + r * 32, (size_t)(ncols * 4));
        }
      }
    }
  }
  _tile_release();
  cxla_free(abase);
  return NULL;
}

cxla_status amx_gemm(const AmxGemm *g, const void *a, const void *b, void *c, RtPool *pool, int nthreads) {
  bool bf16 = g->a == AMX_BF16;
  if (bf16 != (g->b == AMX_BF16)) return ERR(INVALID_ARGUMENT, "amx gemm: bf16 with an 8-bit operand");
  if (!amx_available(!bf16)) return ERR(UNAVAILABLE, "this CPU (or the OS) lacks AMX");
  if (g->batch <= 0 || g->m <= 0 || g->n <= 0) return NULL;
  int64_t cs = bf16 && g->out_bf16 ? 2 : 4;
  if (g->k <= 0) {
    memset(c, 0, (size_t)(g->batch * g->m * g->n * cs));
    return NULL;
  }
  Job j = {.g = g, .a = a, .b = b, .c = c, .es = bf16 ? 2 : 1};
  j.kb_elems = 64 / j.es;
  j.nkb = (g->k + j.kb_elems - 1) / j.kb_elems;
  j.npairs = (g->n + 31) / 32;
  j.items_per_batch = (g->m + MG - 1) / MG;
  j.a_direct = !g->trans_a && g->k % j.kb_elems == 0;
  bool as = g->a == AMX_S8, bs = g->b == AMX_S8;
  j.kernel = bf16 ? kernel_bf16 : as ? (bs ? kernel_ss : kernel_su) : (bs ? kernel_us : kernel_uu);
  j.bpk = rt_scratch_alloc(pool, (size_t)(g->batch * 2 * j.npairs * j.nkb * TILE)); /* 64-byte aligned */
  if (!j.bpk) return cxla_oom();
  /* slices of at least ~1M multiply-adds (rhs packing: ~64K elements) */
  int64_t pair_work = 32 * g->k, item_work = MG * g->n * g->k;
  int64_t min_pack = (1 << 16) / pair_work + 1, min_item = (1 << 20) / item_work + 1;
  int64_t min_block = (1 << 16) / (32 * g->n) + 1;
  cxla_status s = pack_b_by_rows(&j) ? rt_pool_parallel_for(pool, g->batch * j.nkb, min_block, nthreads,
                                                            pack_b_rows_slice, &j)
                                      : rt_pool_parallel_for(pool, g->batch * j.npairs, min_pack, nthreads,
                                                            pack_b_slice, &j);
  if (!s) s = rt_pool_parallel_for(pool, g->batch * j.items_per_batch, min_item, nthreads, compute_slice, &j);
  rt_scratch_free(pool, j.bpk);
  return s;
}

#else

bool amx_available(bool int8) {
  (void)int8;
  return false;
}

cxla_status amx_gemm(const AmxGemm *g, const void *a, const void *b, void *c, RtPool *pool, int nthreads) {
  return ERR(UNAVAILABLE, "AMX kernels are built for x86-64 Linux only");
}

#endif
