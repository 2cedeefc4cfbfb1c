/* sort.c: the sort op on the executor's raw buffers, two ways.
 *
 * Radix sort, when sort_plan (at compile time) recognizes the comparator,
 * by its structure, as a plain order on one operand's elements:
 *   compare(p[2k], p[2k+1]), direction LT or GT (GT, or the two parameters
 *     swapped: descending), on floats of 16/32/64 bits (FLOAT or TOTALORDER
 *     comparison), integers of 8/16/32/64 bits (SIGNED or UNSIGNED) or pred;
 *   compare(c(p[2k]), c(p[2k+1])), LT or GT, TOTALORDER, where c is JAX's
 *     float canonicalization: select(ne(x, x), N, select(eq(x, Z0), Z, x))
 *     with constants N and Z and a zero Z0 (either select outermost, or
 *     only one of them): every NaN compares as N, both zeros as Z.
 * Each element then has an unsigned key whose order is the comparator's:
 * elements the comparator cannot tell apart get equal keys, so a stable
 * LSD radix sort over the keys gives exactly the merge sort's result
 * (is_stable holds). IEEE (FLOAT) order: f32/f64/bf16 subnormals read as
 * zeros (DAZ, as compiled code and the interpreter read them), -0 = +0;
 * NaNs are unordered, so a row holding one takes the comparator path.
 * The key operand's elements are moved themselves, their key recomputed in
 * each pass; the other operands follow a u32 index carried along. Digits
 * of 8 bits, 11 for 32/64-bit keys of long rows; a digit all elements
 * share costs no pass. Rows are split over the threads; a long row alone
 * is sorted by all of them, each counting and scattering its chunk in
 * every pass.
 *
 * Long rows of 32/64-bit keys are first split (MSD) on the keys' top 16
 * bits: one pass makes the keys and counts those bits, ranges of them
 * become buckets of about 256 KiB, one pass moves the keys to their
 * buckets, and each bucket is then sorted (LSD, of the keys less the
 * bucket's lowest, in as few passes as its range needs) in the cache,
 * buckets spread over the threads. Where sort_key merges elements (NaNs,
 * zeros) a last pass puts them back in their runs, in their order; where
 * one bucket would hold more than half the row, the plain LSD passes sort
 * it.
 *
 * Rows of 32-bit keys with no other operand take, where the CPU has
 * AVX-512, a quicksort of the keys instead (vsort_row, below).
 *
 * Otherwise a stable bottom-up merge sort of each row's positions calling
 * the compiled comparator (std::stable_sort's result, as the interpreter
 * gives), then every operand permuted alike.
 *
 * is_stable=false: XLA:CPU's std::sort leaves equal keys in an order of
 * its own, which base/stdsort_impl.h reproduces (unstable_row): over
 * (key, position) pairs where the plan recognized the comparator and the
 * row has no NaN it cannot order, else calling the comparator. A sort of
 * one operand keeps the radix sort unless a row holds two different
 * elements with equal keys (-0 and +0, subnormals, NaN payloads): only
 * then can the order show. */
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cpu/cpu_internal.h"
#include "runtime/scratch.h"

/* The unroll pragmas below are requests: clang with sanitizers cannot honour
 * some of them (instrumented loops) and warns, which -Werror makes fatal. */
#if defined(__clang__)
#pragma clang diagnostic ignored "-Wpass-failed"
#endif

/* ---- the comparator's order as keys ---- */

struct SortPlan {
  int key;             /* the operand whose elements order the rows */
  int bits;            /* key width: 8, 16, 32 or 64 */
  uint64_t mask;       /* the element bits that count (pred: 1) */
  uint64_t flip;       /* integers: xor'ed in (the sign bit: signed order) */
  uint64_t out;        /* xor'ed into the key: all ones when descending */
  bool is_float;
  uint64_t sign, inf;  /* floats: the sign bit; +inf's bits */
  int sbit;            /* the sign bit's position */
  uint64_t nan_test;   /* IEEE order: ~sign (a NaN's magnitude is above inf); else 0 */
  bool merge_nan, merge_zero;
  uint64_t nan_bits, zero_bits; /* what NaNs / zeros compare as */
  uint64_t tiny;       /* magnitudes up to this read as zero (DAZ) */
  bool vec;            /* 32-bit keys, AVX-512: vsort_row sorts rows with no other operand */
};

static inline uint64_t sort_key(const SortPlan *p, uint64_t u) {
  u &= p->mask;
  if (p->is_float) {
    uint64_t mag = u & ~p->sign;
    if (p->merge_nan && mag > p->inf) u = p->nan_bits;
    else if (p->merge_zero && mag <= p->tiny) u = p->zero_bits;
    /* negative: all bits flipped; positive: the sign bit set */
    u ^= (-(u >> p->sbit) & p->mask) | p->sign;
  } else {
    u ^= p->flip;
  }
  return u ^ p->out;
}

static inline bool is_nan(const SortPlan *p, uint64_t u) { return (u & p->nan_test) > p->inf; }

/* ---- recognizing the comparator ---- */

static bool scalar_const(const Instr *c, ElemType t, uint64_t *bits) {
  if (c->op != OP_CONSTANT || c->shape->rank != 0 || !c->literal || c->literal->unknown ||
      c->literal->type != t || c->literal->nelems != 1)
    return false;
  *bits = 0;
  memcpy(bits, c->literal->data, (size_t)type_bytes(t)); /* little-endian */
  return true;
}

static bool ieee_compare(const Instr *c, CmpDir dir) {
  return c->op == OP_COMPARE && c->noperands == 2 && c->cmp_dir == dir &&
         (c->cmp_type == CMPT_DEFAULT || c->cmp_type == CMPT_FLOAT);
}

/* One side of the root compare: a parameter, or (floats) the parameter
 * canonicalized by selects. */
typedef struct Side {
  int64_t param;
  bool nan, zero;
  uint64_t nan_bits, zero_bits;
} Side;

static bool parse_side(const Instr *v, ElemType t, uint64_t tiny, uint64_t sign, Side *s) {
  memset(s, 0, sizeof *s);
  const Instr *x = v;
  for (int depth = 0; x->op == OP_SELECT && x->noperands == 3; depth++) {
    if (depth == 2) return false;
    x = x->operands[2];
  }
  if (x->op != OP_PARAMETER || x->shape->rank != 0 || x->shape->type != t) return false;
  s->param = x->param_number;
  for (; v != x; v = v->operands[2]) {
    const Instr *c = v->operands[0];
    uint64_t k;
    if (!type_is_float(t) || !scalar_const(v->operands[1], t, &k)) return false;
    if (!s->nan && ieee_compare(c, CMP_NE) && c->operands[0] == x && c->operands[1] == x) {
      s->nan = true;
      s->nan_bits = k;
      continue;
    }
    uint64_t z;
    const Instr *other = c->noperands == 2 ? (c->operands[0] == x ? c->operands[1] : c->operands[0]) : NULL;
    if (!s->zero && ieee_compare(c, CMP_EQ) && (c->operands[0] == x || c->operands[1] == x) && other != x &&
        scalar_const(other, t, &z) && (z & ~sign) <= tiny) {
      s->zero = true;
      s->zero_bits = k;
      continue;
    }
    return false;
  }
  return true;
}

/* The plan for a sort whose comparator is a plain order on one operand, or
 * false (the comparator path). */
static bool plan_for(const Instr *in, SortPlan *p) {
  memset(p, 0, sizeof *p);
  const Computation *c = in->ncalled == 1 ? in->called[0] : NULL;
  const Instr *r = c ? c->root : NULL;
  if (!r || c->nparams != 2 * in->noperands || r->op != OP_COMPARE || r->noperands != 2) return false;
  if (r->cmp_dir != CMP_LT && r->cmp_dir != CMP_GT) return false;
  ElemType t = r->operands[0]->shape->type;
  bool desc = r->cmp_dir == CMP_GT;
  switch (type_kind(t)) {
  case TK_FLOAT: {
    int b = type_bits(t);
    if (t != T_F16 && t != T_BF16 && t != T_F32 && t != T_F64) return false;
    p->bits = b;
    p->is_float = true;
    p->sign = 1ull << (b - 1);
    p->sbit = b - 1;
    p->inf = t == T_F16 ? 0x7c00 : t == T_BF16 ? 0x7f80 : t == T_F32 ? 0x7f800000 : 0x7ff0000000000000ull;
    /* DAZ: f32, f64 and bf16 (computed in f32) subnormals read as zeros */
    p->tiny = t == T_F16 ? 0 : t == T_BF16 ? 0x7f : t == T_F32 ? 0x7fffff : 0xfffffffffffffull;
    break;
  }
  case TK_SINT: case TK_UINT:
    if (type_bits(t) != 8 * type_bytes(t)) return false;
    p->bits = type_bits(t);
    if (r->cmp_type == CMPT_SIGNED || (r->cmp_type == CMPT_DEFAULT && type_kind(t) == TK_SINT))
      p->flip = 1ull << (p->bits - 1);
    else if (r->cmp_type != CMPT_UNSIGNED && r->cmp_type != CMPT_DEFAULT) return false;
    break;
  case TK_PRED:
    if (r->cmp_type != CMPT_DEFAULT && r->cmp_type != CMPT_UNSIGNED) return false;
    p->bits = 8;
    break;
  default: return false;
  }
  p->mask = t == T_PRED ? 1 : p->bits == 64 ? ~0ull : (1ull << p->bits) - 1;
  Side a, b;
  if (!parse_side(r->operands[0], t, p->tiny, p->sign, &a) || !parse_side(r->operands[1], t, p->tiny, p->sign, &b))
    return false;
  if (a.param / 2 != b.param / 2 || a.param == b.param || a.param < 0 || a.param >= c->nparams) return false;
  if (a.nan != b.nan || a.zero != b.zero || a.nan_bits != b.nan_bits || a.zero_bits != b.zero_bits) return false;
  p->key = (int)(a.param / 2);
  if (in->operands[p->key]->shape->type != t) return false;
  if (a.param % 2 == 1) desc = !desc;
  p->out = desc ? p->mask : 0;
  if (p->is_float) {
    if (a.nan || a.zero) {
      if (r->cmp_type != CMPT_TOTALORDER) return false;
      p->merge_nan = a.nan;
      p->nan_bits = a.nan_bits;
      p->merge_zero = a.zero;
      p->zero_bits = a.zero_bits;
    } else if (r->cmp_type == CMPT_DEFAULT || r->cmp_type == CMPT_FLOAT) {
      p->nan_test = ~p->sign & p->mask;
      p->merge_zero = true; /* zeros and subnormals as +0 */
    } else if (r->cmp_type != CMPT_TOTALORDER) {
      return false;
    }
  }
  return true;
}

#if defined(__x86_64__) && defined(__GNUC__)
static bool vsort_supported(void);
#endif

cxla_status sort_plan(const Instr *in, SortPlan **out) {
  *out = NULL;
  SortPlan p;
  if (!plan_for(in, &p)) return NULL;
#if defined(__x86_64__) && defined(__GNUC__)
  p.vec = p.bits == 32 && vsort_supported();
#endif
  if (!(*out = cxla_malloc(sizeof p))) return cxla_oom();
  **out = p;
  return NULL;
}

void sort_plan_free(void *p) { cxla_free(p); }

/* ---- radix sort of one row (or of one chunk of it per thread) ---- */

/* The key back to the element it was made from, where sort_key merged
 * nothing (see Radix.coded). */
static inline uint64_t sort_unkey(const SortPlan *p, uint64_t k) {
  k ^= p->out;
  if (!p->is_float) return k ^ p->flip;
  /* sign bit set: a positive element (the sign bit flipped); else all flipped */
  uint64_t t = -(k >> p->sbit) & p->mask;
  return k ^ (p->mask ^ (t & (p->mask ^ p->sign)));
}

/* Whether sort_key merges u with other elements (NaNs, zeros). */
static inline bool merges(const SortPlan *p, uint64_t u) {
  uint64_t mag = u & ~p->sign & p->mask;
  return (p->merge_nan && mag > p->inf) || (p->merge_zero && mag <= p->tiny) || p->mask == 1;
}

/* Counts the key digits of src[lo, hi): all npass digits of rb bits
 * (h: npass x 2^rb, added to), or (countk) npass digits of rb bits from
 * bit shift on, of keys or of elements (h: npass x 2^rb). Returns CNT_NAN when an element is a NaN the order cannot
 * place, CNT_MERGED when sort_key merges an element with others. */
enum { CNT_NAN = 1, CNT_MERGED = 2 };
typedef int (*CountFn)(const SortPlan *p, const void *src, int64_t lo, int64_t hi, int rb, int npass,
                       uint32_t *h);
typedef void (*CountKFn)(const SortPlan *p, bool keys, const void *src, int64_t lo, int64_t hi, int shift,
                         int rb, int npass, uint32_t *h);
/* The keys of src[lo, hi) to keys[lo, hi), and their top bits counted
 * (key >> shift; h: 2^(bits-shift) counts, added to); returns CNT_* as
 * CountFn. */
typedef int (*KeyTopFn)(const SortPlan *p, const void *src, void *keys, int64_t lo, int64_t hi, int shift,
                        uint32_t *h);
/* keys[0, n) -= base, and npass digits of rb bits of the results counted
 * (h: npass x 2^rb, added to). */
typedef void (*RebaseFn)(void *keys, int64_t n, uint64_t base, int rb, int npass, uint32_t *h);
/* Moves the keys src[lo, hi) (their positions to idst, unless NULL) to
 * dst at off[lut[key >> shift]]++. */
typedef void (*MsdFn)(const void *src, void *dst, uint32_t *idst, int64_t lo, int64_t hi, int shift,
                      const uint16_t *lut, uint32_t *off);
/* Moves src[lo, hi) (and their indices: isrc's, or their positions when
 * isrc is NULL) to dst at off[digit]++. idst NULL: no indices. The
 * elements in and out are elements or keys (mode, MV_*); keys in are the
 * keys less base, which MV_FROM_KEYS adds back. */
enum { MV_ELEMS, MV_TO_KEYS, MV_KEYS, MV_FROM_KEYS };
typedef void (*ScatterFn)(const SortPlan *p, int mode, const void *src, void *dst, const uint32_t *isrc,
                          uint32_t *idst, int64_t lo, int64_t hi, int shift, uint64_t m, uint64_t base,
                          uint32_t *off);

#if defined(__GNUC__)
#define INLINE static inline __attribute__((always_inline))
#else
#define INLINE static inline
#endif

#define RADIX_FNS(UT, W)                                                                                      \
  INLINE int count_body_##W(const SortPlan *p, const UT *src, int64_t lo, int64_t hi, const int rb,           \
                            const int npass, uint32_t *h) {                                                   \
    uint64_t m = (1ull << rb) - 1;                                                                            \
    bool nan = false, merged = false;                                                                         \
    for (int64_t i = lo; i < hi; i++) {                                                                       \
      uint64_t u = src[i];                                                                                    \
      nan |= is_nan(p, u);                                                                                    \
      merged |= merges(p, u);                                                                                 \
      uint64_t k = sort_key(p, u);                                                                            \
      for (int d = 0; d < npass; d++) h[((size_t)d << rb) + ((k >> (d * rb)) & m)]++;                         \
    }                                                                                                         \
    return (nan ? CNT_NAN : 0) | (merged ? CNT_MERGED : 0);                                                   \
  }                                                                                                           \
  static int count_##W(const SortPlan *p_, const void *src, int64_t lo, int64_t hi, int rb, int npass,        \
                       uint32_t *h) {                                                                         \
    const SortPlan pl = *p_, *p = &pl;                                                                        \
    /* the usual digit counts unrolled */                                                                     \
    if (rb == 8 && npass == W / 8) return count_body_##W(p, src, lo, hi, 8, W / 8, h);                        \
    if (rb == 11 && npass == (W + 10) / 11) return count_body_##W(p, src, lo, hi, 11, (W + 10) / 11, h);      \
    return count_body_##W(p, src, lo, hi, rb, npass, h);                                                      \
  }                                                                                                           \
  INLINE void countk_body_##W(const SortPlan *p, const bool keys, const UT *src, int64_t lo, int64_t hi,      \
                               int shift, int rb, const int npass, uint32_t *h) {                             \
    uint64_t m = (1ull << rb) - 1;                                                                            \
    for (int64_t i = lo; i < hi; i++) {                                                                       \
      uint64_t k = keys ? (uint64_t)src[i] : sort_key(p, src[i]);                                             \
      for (int d = 0; d < npass; d++) h[((size_t)d << rb) + ((k >> (shift + d * rb)) & m)]++;                 \
    }                                                                                                         \
  }                                                                                                           \
  static void countk_##W(const SortPlan *p_, bool keys, const void *src, int64_t lo, int64_t hi, int shift,   \
                         int rb, int npass, uint32_t *h) {                                                    \
    const SortPlan pl = *p_, *p = &pl;                                                                        \
    if (keys && npass == 2) countk_body_##W(p, true, src, lo, hi, shift, rb, 2, h);                           \
    else if (keys && npass == 3) countk_body_##W(p, true, src, lo, hi, shift, rb, 3, h);                      \
    else if (keys) countk_body_##W(p, true, src, lo, hi, shift, rb, npass, h);                                \
    else countk_body_##W(p, false, src, lo, hi, shift, rb, npass, h);                                         \
  }                                                                                                           \
  INLINE void keyblock_##W(const SortPlan *p, const UT *restrict src, UT *restrict keys, const int64_t n, UT *fl) { \
    const UT mask = (UT)p->mask, sign = (UT)p->sign, inf = (UT)p->inf, tiny = (UT)p->tiny;                    \
    const UT nt = (UT)p->nan_test, nb = (UT)p->nan_bits, zb = (UT)p->zero_bits, out = (UT)p->out;             \
    const UT mn = p->merge_nan ? (UT)~(UT)0 : 0, mz = p->merge_zero ? (UT)~(UT)0 : 0;                         \
    const int sb = p->sbit;                                                                                   \
    UT fn = 0, fm = 0;                                                                                        \
    for (int64_t i = 0; i < n; i++) {                                                                         \
      UT u = src[i], mag = u & (UT)~sign;                                                                     \
      UT isn = (UT)-(UT)(mag > inf) & mn, isz = (UT)-(UT)(mag <= tiny) & mz & (UT)~isn;                       \
      fn |= (UT)((u & nt) > inf);                                                                             \
      fm |= isn | isz;                                                                                        \
      u = (UT)((u & (UT)~(isn | isz)) | (nb & isn) | (zb & isz));                                             \
      keys[i] = (UT)((u ^ (((UT) - (UT)(u >> sb) & mask) | sign)) ^ out);                                     \
    }                                                                                                         \
    fl[0] |= fn;                                                                                              \
    fl[1] |= fm;                                                                                              \
  }                                                                                                           \
  static int keytop_##W(const SortPlan *p_, const void *src_, void *keys_, int64_t lo, int64_t hi, int shift, \
                        uint32_t *h) {                                                                        \
    const SortPlan pl = *p_, *p = &pl;                                                                        \
    const UT *src = src_;                                                                                     \
    UT *keys = keys_;                                                                                         \
    uint64_t nan = 0, merged = 0;                                                                             \
    for (int64_t b = lo; b < hi; b += 1024) {                                                                 \
      int64_t e = hi - b < 1024 ? hi : b + 1024;                                                              \
      if (p->is_float) {                                                                                      \
        /* sort_key and the flags without branches, in blocks of a fixed length (vectorized) */               \
        UT fl[2] = {0, 0};                                                                                    \
        if (e - b == 1024) keyblock_##W(p, src + b, keys + b, 1024, fl);                                      \
        else keyblock_##W(p, src + b, keys + b, e - b, fl);                                                   \
        nan |= fl[0] != 0;                                                                                    \
        merged |= fl[1] != 0;                                                                                 \
      } else {                                                                                                \
        for (int64_t i = b; i < e; i++) {                                                                     \
          uint64_t u = src[i];                                                                                \
          merged |= merges(p, u);                                                                             \
          keys[i] = (UT)sort_key(p, u);                                                                       \
        }                                                                                                     \
      }                                                                                                       \
      for (int64_t i = b; i < e; i++) h[(uint64_t)keys[i] >> shift]++;                                        \
    }                                                                                                         \
    return (nan ? CNT_NAN : 0) | (merged ? CNT_MERGED : 0);                                                   \
  }                                                                                                           \
  INLINE void rebase_body_##W(UT *restrict keys, int64_t n, UT base, int rb, const int npass, uint32_t *h) {  \
    uint64_t m = (1ull << rb) - 1;                                                                            \
    for (int64_t i = 0; i < n; i++) {                                                                         \
      UT k = (UT)(keys[i] - base);                                                                            \
      keys[i] = k;                                                                                            \
      for (int d = 0; d < npass; d++) h[((size_t)d << rb) + (((uint64_t)k >> (d * rb)) & m)]++;               \
    }                                                                                                         \
  }                                                                                                           \
  static void rebase_##W(void *keys, int64_t n, uint64_t base, int rb, int npass, uint32_t *h) {              \
    if (npass == 2) rebase_body_##W(keys, n, (UT)base, rb, 2, h);                                             \
    else if (npass == 3) rebase_body_##W(keys, n, (UT)base, rb, 3, h);                                        \
    else rebase_body_##W(keys, n, (UT)base, rb, npass, h);                                                    \
  }                                                                                                           \
  INLINE void msd_move_##W(const int ix, const UT *src, UT *dst, uint32_t *idst, int64_t lo, int64_t hi,     \
                           int shift, const uint16_t *lut, uint32_t *off) {                                   \
    for (int64_t i = lo; i < hi; i++) {                                                                       \
      UT k = src[i];                                                                                          \
      uint32_t o = off[lut[(uint64_t)k >> shift]]++;                                                          \
      dst[o] = k;                                                                                             \
      if (ix) idst[o] = (uint32_t)i;                                                                          \
    }                                                                                                         \
  }                                                                                                           \
  static void msd_##W(const void *src, void *dst, uint32_t *idst, int64_t lo, int64_t hi, int shift,          \
                      const uint16_t *lut, uint32_t *off) {                                                   \
    if (idst) msd_move_##W(1, src, dst, idst, lo, hi, shift, lut, off);                                       \
    else msd_move_##W(0, src, dst, idst, lo, hi, shift, lut, off);                                            \
  }                                                                                                           \
  INLINE void move_##W(const SortPlan *p, const int mode, const int ix, const UT *src, UT *dst,               \
                       const uint32_t *isrc, uint32_t *idst, int64_t lo, int64_t hi, int shift, uint64_t m,   \
                       uint64_t base, uint32_t *off) {                                                        \
    for (int64_t i = lo; i < hi; i++) {                                                                       \
      uint64_t u = src[i];                                                                                    \
      uint64_t k = mode == MV_ELEMS || mode == MV_TO_KEYS ? sort_key(p, u) : u;                               \
      uint32_t o = off[(k >> shift) & m]++;                                                                   \
      dst[o] = (UT)(mode == MV_TO_KEYS ? k : mode == MV_FROM_KEYS ? sort_unkey(p, k + base) : u);             \
      if (ix == 1) idst[o] = (uint32_t)i;                                                                     \
      if (ix == 2) idst[o] = isrc[i];                                                                         \
    }                                                                                                         \
  }                                                                                                           \
  INLINE void moves_##W(const SortPlan *p, const int mode, const UT *src, UT *dst, const uint32_t *isrc,      \
                        uint32_t *idst, int64_t lo, int64_t hi, int shift, uint64_t m, uint64_t base,         \
                        uint32_t *off) {                                                                      \
    if (!idst) move_##W(p, mode, 0, src, dst, isrc, idst, lo, hi, shift, m, base, off);                       \
    else if (!isrc) move_##W(p, mode, 1, src, dst, isrc, idst, lo, hi, shift, m, base, off);                  \
    else move_##W(p, mode, 2, src, dst, isrc, idst, lo, hi, shift, m, base, off);                             \
  }                                                                                                           \
  static void scatter_##W(const SortPlan *p_, int mode, const void *src, void *dst, const uint32_t *isrc,     \
                          uint32_t *idst, int64_t lo, int64_t hi, int shift, uint64_t m, uint64_t base,       \
                          uint32_t *off) {                                                                    \
    const SortPlan pl = *p_, *p = &pl;                                                                        \
    switch (mode) {                                                                                           \
    case MV_ELEMS: moves_##W(p, MV_ELEMS, src, dst, isrc, idst, lo, hi, shift, m, base, off); break;          \
    case MV_TO_KEYS: moves_##W(p, MV_TO_KEYS, src, dst, isrc, idst, lo, hi, shift, m, base, off); break;      \
    case MV_KEYS: moves_##W(p, MV_KEYS, src, dst, isrc, idst, lo, hi, shift, m, base, off); break;            \
    default: moves_##W(p, MV_FROM_KEYS, src, dst, isrc, idst, lo, hi, shift, m, base, off); break;            \
    }                                                                                                         \
  }

RADIX_FNS(uint8_t, 8)
RADIX_FNS(uint16_t, 16)
RADIX_FNS(uint32_t, 32)
RADIX_FNS(uint64_t, 64)

typedef struct RadixFns {
  CountFn count;
  CountKFn countk;
  ScatterFn scatter;
  KeyTopFn keytop;
  MsdFn msd;
  RebaseFn rebase;
} RadixFns;

static const RadixFns *radix_fns(int bits) {
  static const RadixFns f8 = {count_8, countk_8, scatter_8, keytop_8, msd_8, rebase_8},
                        f16 = {count_16, countk_16, scatter_16, keytop_16, msd_16, rebase_16},
                        f32 = {count_32, countk_32, scatter_32, keytop_32, msd_32, rebase_32},
                        f64 = {count_64, countk_64, scatter_64, keytop_64, msd_64, rebase_64};
  return bits == 8 ? &f8 : bits == 16 ? &f16 : bits == 32 ? &f32 : &f64;
}

static uint64_t load_bits(const void *base, int64_t i, int bytes) {
  switch (bytes) {
  case 1: return ((const uint8_t *)base)[i];
  case 2: return ((const uint16_t *)base)[i];
  case 4: return ((const uint32_t *)base)[i];
  default: return ((const uint64_t *)base)[i];
  }
}

enum { SMALL_ROW = 32, MAX_CHUNKS = 64 };

/* Digit width for a row of n elements: 11 bits (fewer passes) only where
 * the row is long enough to fill the buckets. */
static int digit_bits(int bits, int64_t n) { return bits >= 32 && n >= 65536 ? 11 : 8; }

/* One row's radix sort: src (n elements) to dst, with indices to idst
 * (NULL: none); tmp and itmp as long, h big enough for the counts of
 * nchunks chunks (radix_hist_len). nchunks > 1: the chunks' counting and
 * scattering run on the pool. */
typedef struct Radix {
  const SortPlan *p;
  const RadixFns *f;
  int64_t n;
  int nchunks, rb, npass;
  uint32_t *h;     /* nchunks x npass x 2^rb counts, then nchunks x 2^rb offsets */
  int flags[MAX_CHUNKS]; /* CNT_* per chunk */
  int mode;        /* the current pass's MV_* */
  /* the current pass */
  const void *src;
  void *dst;
  const uint32_t *isrc;
  uint32_t *idst;
  int shift;
  int phase;       /* 0: count all digits, 1: count one, 2: scatter; MSD: 3 count, 4 scatter */
  /* the MSD split (msd_row) */
  uint32_t *top;   /* nchunks x TOP_BINS counts of the keys' top bits */
  uint32_t *boff;  /* nchunks x nbs bucket offsets */
  const uint16_t *lut; /* top bits -> bucket */
  int nb;          /* buckets */
  int nbs;         /* boff's stride: nb rounded up to a cache line of
                    * offsets. Each chunk's thread increments its own;
                    * sharing a line with another chunk's, every increment
                    * moved the line between the cores (f32[1M] on a Zen 2,
                    * 22 buckets: the scatter 4.1 ms, 2.4 with 17 or 33;
                    * h's alignment varied it from one process to the next) */
} Radix;

/* Rows of keys of 32 bits and more, longer than MSD_MIN, are first split
 * on their keys' top TOP_BITS bits into buckets (consecutive ranges of
 * those bits) of about msd_bytes(), which then are sorted one by one in the
 * cache, over the threads. */
enum { TOP_BITS = 16, TOP_BINS = 1 << TOP_BITS, MSD_MIN = 1 << 17, MSD_BYTES = 1 << 18, BUCKET_RB = 12 };

/* A bucket's bytes: MSD_BYTES, or a quarter of the core's L2 where that
 * is less: a bucket's two or three arrays (A, S, B in bucket_sort) then
 * stay in it. Zen 2 (512 KiB a core), f32[1M] on two threads: the buckets'
 * sorts 3.2-3.3 ms at 256 KiB, 3.05-3.1 at 192, 2.5 at 128, 2.5-2.6 at
 * 96; the whole sort 6.2-6.4, 6.0-6.7, 5.3, 5.5 ms. */
static int64_t msd_bytes(void) {
  long l2 = -1;
#if defined(_SC_LEVEL2_CACHE_SIZE)
  l2 = sysconf(_SC_LEVEL2_CACHE_SIZE);
#endif
  return l2 >= (64 << 10) && l2 / 4 < MSD_BYTES ? l2 / 4 : MSD_BYTES;
}

static bool msd_fits(int bits, int64_t n) { return bits >= 32 && n >= MSD_MIN; }

/* In u32 units: top and boff (nchunks x TOP_BINS each), the totals,
 * bucket starts, groups and first bins (TOP_BINS + 1 each), the lut and
 * the buckets' first bins (u16) and their low bit counts (u8). */
static size_t msd_len(int nchunks) { return (size_t)(2 * nchunks + 8) * TOP_BINS; }

static size_t radix_hist_len(int nchunks, int bits, int64_t n) {
  int rb = digit_bits(bits, n), npass = (bits + rb - 1) / rb;
  size_t lsd = (size_t)nchunks * (size_t)(npass + 1) << rb;
  return msd_fits(bits, n) ? lsd + msd_len(nchunks) : lsd;
}

static void chunk_range(const Radix *r, int64_t c, int64_t *lo, int64_t *hi) {
  *lo = r->n * c / r->nchunks;
  *hi = r->n * (c + 1) / r->nchunks;
}

static cxla_status radix_chunks(void *arg, int64_t begin, int64_t end) {
  Radix *r = arg;
  size_t R = (size_t)1 << r->rb;
  uint32_t *offs = r->h + (size_t)r->nchunks * (size_t)r->npass * R;
  for (int64_t c = begin; c < end; c++) {
    int64_t lo, hi;
    chunk_range(r, c, &lo, &hi);
    if (r->phase == 0) {
      uint32_t *h = r->h + (size_t)c * (size_t)r->npass * R;
      memset(h, 0, (size_t)r->npass * R * sizeof *h);
      r->flags[c] = r->f->count(r->p, r->src, lo, hi, r->rb, r->npass, h);
    } else if (r->phase == 3) {
      uint32_t *h = r->top + (size_t)c * TOP_BINS;
      memset(h, 0, TOP_BINS * sizeof *h);
      r->flags[c] = r->f->keytop(r->p, r->src, r->dst, lo, hi, r->p->bits - TOP_BITS, h);
    } else if (r->phase == 4) {
      r->f->msd(r->src, r->dst, r->idst, lo, hi, r->p->bits - TOP_BITS, r->lut,
                r->boff + (size_t)c * (size_t)r->nbs);
    } else if (r->phase == 1) {
      memset(offs + c * R, 0, R * sizeof *offs);
      r->f->countk(r->p, r->mode != MV_ELEMS, r->src, lo, hi, r->shift, r->rb, 1, offs + c * R);
    } else {
      r->f->scatter(r->p, r->mode, r->src, r->dst, r->isrc, r->idst, lo, hi, r->shift, R - 1, 0, offs + c * R);
    }
  }
  return NULL;
}

static cxla_status radix_phase(const ExecCtx *cx, Radix *r, int phase) {
  r->phase = phase;
  if (r->nchunks == 1) return radix_chunks(r, 0, 1);
  return cx_parallel_for(cx, r->nchunks, 1, r->nchunks, radix_chunks, r);
}

/* Stable insertion sort of a short row by key. */
static bool small_sort(const SortPlan *p, const void *src, void *dst, uint32_t *idst, int64_t n) {
  uint64_t key[SMALL_ROW];
  uint32_t ord[SMALL_ROW];
  int es = p->bits / 8;
  for (int64_t i = 0; i < n; i++) {
    uint64_t u = load_bits(src, i, es);
    if (is_nan(p, u)) return false;
    key[i] = sort_key(p, u);
    int64_t j = i;
    for (; j > 0 && key[ord[j - 1]] > key[i]; j--) ord[j] = ord[j - 1];
    ord[j] = (uint32_t)i;
  }
  for (int64_t i = 0; i < n; i++) {
    memcpy((char *)dst + i * es, (const char *)src + (size_t)ord[i] * (size_t)es, (size_t)es);
    if (idst) idst[i] = ord[i];
  }
  return true;
}

static void store_bits(void *base, int64_t i, int bytes, uint64_t v) {
  switch (bytes) {
  case 1: ((uint8_t *)base)[i] = (uint8_t)v; return;
  case 2: ((uint16_t *)base)[i] = (uint16_t)v; return;
  case 4: ((uint32_t *)base)[i] = (uint32_t)v; return;
  default: ((uint64_t *)base)[i] = v; return;
  }
}

/* ---- the MSD split of long rows ---- */

/* One bucket: the keys A[0, n) (their indices in iA, unless no indices
 * are carried) sorted into B (elements; indices to iB), through S / iS, on
 * the low `low` bits of the keys less base (A's keys become those). h:
 * room for 8 << BUCKET_RB counts. */
static void bucket_sort(const SortPlan *p, const RadixFns *f, int low, uint64_t base, void *A, void *B, void *S,
                        uint32_t *iA, uint32_t *iB, uint32_t *iS, int64_t n, uint32_t *h) {
  int es = p->bits / 8;
  if (n <= SMALL_ROW) {
    uint64_t key[SMALL_ROW];
    uint32_t ord[SMALL_ROW];
    for (int64_t i = 0; i < n; i++) {
      uint64_t u = load_bits(A, i, es);
      key[i] = u;
      int64_t j = i;
      for (; j > 0 && key[ord[j - 1]] > key[i]; j--) ord[j] = ord[j - 1];
      ord[j] = (uint32_t)i;
    }
    for (int64_t i = 0; i < n; i++) {
      uint64_t u = load_bits(A, ord[i], es);
      store_bits(B, i, es, sort_unkey(p, u));
      if (iB) iB[i] = iA[ord[i]];
    }
    return;
  }
  /* digits of at most maxrb bits, as even as they come */
  int maxrb = n >= 16384 ? BUCKET_RB : n >= 2048 ? 10 : 8;
  int np = (low + maxrb - 1) / maxrb, rb = (low + np - 1) / np;
  size_t R = (size_t)1 << rb;
  memset(h, 0, (size_t)np * R * sizeof *h);
  f->rebase(A, n, base, rb, np, h);
  uint64_t k0 = load_bits(A, 0, es);
  int pass[8], npass = 0;
  for (int d = 0; d < np; d++)
    if (h[(size_t)d * R + ((k0 >> (d * rb)) & (R - 1))] != (uint32_t)n) pass[npass++] = d;
  if (npass == 0) {
    uint32_t off = 0;
    f->scatter(p, MV_FROM_KEYS, A, B, iA, iB, 0, n, 0, 0, base, &off);
    return;
  }
  /* B's lines fetched for writing first, in order (the hardware streams
   * them): the last pass's scattered stores then find them in the cache
   * rather than each waiting for its line from memory */
#if defined(__GNUC__)
  for (int64_t i = 0; i < n * es; i += 64) __builtin_prefetch((char *)B + i, 1);
#endif
  /* A -> B -> A ... -> B (odd count) or A -> S -> B -> S ... -> B */
  void *cur = A;
  uint32_t *icur = iA;
  for (int j = 0; j < npass; j++) {
    uint32_t *off = h + (size_t)pass[j] * R, run = 0;
    for (size_t b = 0; b < R; b++) {
      uint32_t k = off[b];
      off[b] = run;
      run += k;
    }
    bool to_b = (npass - 1 - j) % 2 == 0;
    void *nx = to_b ? B : npass % 2 ? A : S;
    uint32_t *inx = to_b ? iB : npass % 2 ? iA : iS;
    int mode = j == npass - 1 ? MV_FROM_KEYS : MV_KEYS;
    f->scatter(p, mode, cur, nx, icur, iB ? inx : NULL, 0, n, pass[j] * rb, R - 1, base, off);
    cur = nx;
    icur = inx;
  }
}

/* The buckets of a row, in groups of about equal size, for the threads. */
typedef struct Msd {
  const SortPlan *p;
  const RadixFns *f;
  const uint32_t *start;     /* bucket b: [start[b], start[b + 1]) */
  const uint8_t *low;        /* its keys' bits that differ, less base */
  const uint16_t *first;     /* its lowest key's top bits: base = first << (bits - TOP_BITS) */
  const uint32_t *group;     /* group g: buckets [group[g], group[g + 1]) */
  char *tmp, *dst;
  uint32_t *itmp, *idst;     /* NULL: no indices */
  int64_t maxb;              /* the largest bucket */
  RtPool *pool;              /* the scratch's (rt_scratch_alloc), or NULL */
} Msd;

static cxla_status msd_groups(void *arg, int64_t gb, int64_t ge) {
  const Msd *m = arg;
  size_t es = (size_t)m->p->bits / 8;
  void *S = rt_scratch_alloc(m->pool, (size_t)m->maxb * es);
  uint32_t *iS = m->idst ? rt_scratch_alloc(m->pool, (size_t)m->maxb * sizeof *iS) : NULL;
  uint32_t *h = cxla_malloc(((size_t)8 << BUCKET_RB) * sizeof *h);
  cxla_status s = !S || !h || (m->idst && !iS) ? cxla_oom() : NULL;
  for (int64_t g = gb; g < ge && !s; g++)
    for (uint32_t b = m->group[g]; b < m->group[g + 1]; b++) {
      int64_t lo = m->start[b], n = m->start[b + 1] - lo;
      if (n)
        bucket_sort(m->p, m->f, m->low[b], (uint64_t)m->first[b] << (m->p->bits - TOP_BITS),
                    m->tmp + (size_t)lo * es, m->dst + (size_t)lo * es, S, m->itmp ? m->itmp + lo : NULL,
                    m->idst ? m->idst + lo : NULL, iS, n, h);
    }
  rt_scratch_free(m->pool, S);
  rt_scratch_free(m->pool, iS);
  cxla_free(h);
  return s;
}

/* After the keys of src[0, n) were sorted into dst (stably) and made
 * elements again: the elements sort_key merged (NaNs, zeros, and the
 * elements whose key they take) came out as their key's element; each
 * run of them gets the elements themselves back, in src's order. */
static void unmerge(const SortPlan *p, const void *src, void *dst, int64_t n) {
  int es = p->bits / 8, ng = 0;
  uint64_t gk[2];
  int64_t at[2];
  if (p->merge_nan) gk[ng++] = sort_key(p, p->inf + 1);
  if (p->merge_zero) gk[ng++] = sort_key(p, 0);
  for (int g = 0; g < ng; g++) {
    /* the first of dst's keys not below gk[g] */
    int64_t lo = 0, hi = n;
    while (lo < hi) {
      int64_t mid = lo + (hi - lo) / 2;
      if (sort_key(p, load_bits(dst, mid, es)) < gk[g]) lo = mid + 1;
      else hi = mid;
    }
    at[g] = lo;
  }
  for (int64_t i = 0; i < n; i++) {
    uint64_t u = load_bits(src, i, es), k = sort_key(p, u);
    for (int g = 0; g < ng; g++)
      if (k == gk[g]) {
        store_bits(dst, at[g]++, es, u);
        break;
      }
  }
}

static int bit_length(uint64_t x) {
  int l = 0;
  for (; x; x >>= 1) l++;
  return l;
}

/* The MSD split of a long row (msd_fits) r, whose r->top points to room
 * for msd_len(r->nchunks) u32s: the keys made in dst and their top bits
 * counted, ranges of them made buckets of about msd_bytes(), the keys moved
 * to their buckets in tmp (positions to itmp when idst), each bucket
 * sorted into dst, the elements sort_key merges put back (unmerge). *done false: more than half the row
 * in one bucket (nothing written; the LSD passes sort it). *sorted false:
 * a NaN the order cannot place. */
static cxla_status msd_row(const ExecCtx *cx, Radix *r, void *dst, void *tmp, uint32_t *idst, uint32_t *itmp,
                           bool *sorted, bool *done) {
  const SortPlan *p = r->p;
  int nc = r->nchunks, es = p->bits / 8;
  int64_t n = r->n;
  *done = false;
  r->boff = r->top + (size_t)nc * TOP_BINS;
  uint32_t *tot = r->boff + (size_t)nc * TOP_BINS, *start = tot + TOP_BINS, *group = start + TOP_BINS + 1;
  uint32_t *binlo = group + TOP_BINS + 1; /* bucket k: bins [binlo[k], binlo[k + 1]) */
  uint16_t *lut = (uint16_t *)(binlo + TOP_BINS + 1);
  uint16_t *firsts = lut + TOP_BINS;
  uint8_t *low = (uint8_t *)(firsts + TOP_BINS);
  const void *src = r->src;
  r->dst = dst; /* the keys, made in passing */
  TRY(radix_phase(cx, r, 3));
  int flags = 0;
  for (int c = 0; c < nc; c++) flags |= r->flags[c];
  if (flags & CNT_NAN) {
    *sorted = false;
    *done = true;
    return NULL;
  }
  /* chunk by chunk: these loops over all bins are the serial part */
  memcpy(tot, r->top, TOP_BINS * sizeof *tot);
  for (int c = 1; c < nc; c++)
    for (size_t b = 0; b < TOP_BINS; b++) tot[b] += r->top[(size_t)c * TOP_BINS + b];
  /* buckets: consecutive bins, closed before one that would overfill them */
  int64_t target = msd_bytes() / (es + (idst ? 4 : 0)), acc = 0, maxb = 0, first = -1, last = -1;
  int nb = 0;
  start[0] = 0;
  binlo[0] = 0;
  for (int64_t b = 0; b <= TOP_BINS; b++) {
    if (b % 16 == 0 && b < TOP_BINS) {
      /* most bins are empty: 16 of them at once */
      uint32_t any = 0;
      for (int i = 0; i < 16; i++) any |= tot[b + i];
      if (!any) {
        for (int i = 0; i < 16; i++) lut[b + i] = (uint16_t)nb;
        b += 15;
        continue;
      }
    }
    uint32_t t = b < TOP_BINS ? tot[b] : 0;
    if (b == TOP_BINS || (t && acc && acc + t > target)) {
      /* the keys less the bucket's lowest top bits */
      low[nb] = (uint8_t)(p->bits - TOP_BITS + bit_length((uint64_t)(last - first)));
      firsts[nb] = (uint16_t)first;
      start[nb + 1] = start[nb] + (uint32_t)acc;
      if (acc > maxb) maxb = acc;
      nb++;
      binlo[nb] = (uint32_t)b;
      acc = 0;
      first = -1;
      if (b == TOP_BINS) break;
    }
    lut[b] = (uint16_t)nb;
    if (t) {
      if (first < 0) first = b;
      last = b;
      acc += t;
    }
  }
  if (2 * maxb > n) {
    r->src = src;
    return NULL;
  }
  r->nb = nb;
  r->nbs = (nb + 15) & ~15; /* at most TOP_BINS, a multiple of 16 */
  /* each chunk's count per bucket: the sum over the bucket's bins (a
   * running sum, not an increment through lut per bin: those would wait
   * on each other) */
  for (int c = 0; c < nc; c++)
    for (int k = 0; k < nb; k++) {
      const uint32_t *t = r->top + (size_t)c * TOP_BINS;
      uint32_t sum = 0;
      for (uint32_t b = binlo[k]; b < binlo[k + 1]; b++) sum += t[b];
      r->boff[(size_t)c * (size_t)r->nbs + (size_t)k] = sum;
    }
  uint32_t run = 0;
  for (int b = 0; b < nb; b++)
    for (int c = 0; c < nc; c++) {
      uint32_t k = r->boff[(size_t)c * (size_t)r->nbs + (size_t)b];
      r->boff[(size_t)c * (size_t)r->nbs + (size_t)b] = run;
      run += k;
    }
  /* the keys to tmp */
  r->lut = lut;
  r->src = dst;
  r->dst = tmp;
  r->idst = idst ? itmp : NULL;
  TRY(radix_phase(cx, r, 4));
  r->src = src;
  /* groups of about n / (4 nc) elements */
  int64_t want = n / (4 * nc) + 1, ng = 0;
  group[0] = 0;
  acc = 0;
  for (int b = 0; b < nb; b++) {
    acc += start[b + 1] - start[b];
    if (acc >= want || b == nb - 1) {
      group[++ng] = (uint32_t)b + 1;
      acc = 0;
    }
  }
  Msd m = {.p = p, .f = r->f, .start = start, .low = low, .first = firsts, .group = group, .tmp = tmp,
           .dst = dst, .itmp = idst ? itmp : NULL, .idst = idst, .maxb = maxb, .pool = cx->pool};
  *done = true;
  TRY(nc == 1 ? msd_groups(&m, 0, ng) : cx_parallel_for(cx, ng, 1, nc, msd_groups, &m));
  if (flags & CNT_MERGED) unmerge(p, src, dst, n);
  return NULL;
}

/* ---- AVX-512 sort of 32-bit keys ---- */

/* Rows of 32-bit keys and no other operand, where the CPU has AVX-512
 * (SortPlan.vec): the keys split into one bucket per thread (at most
 * VMAX_BUCKETS) on splitters from a sample (a pass counting each chunk's
 * keys below each splitter, then one moving them, compressed, to their
 * buckets; two threads: vsort_two, one pass), each bucket sorted by a quicksort of the keys (partitions out
 * of place, compressed to their two ends; pivot: the median of 16 keys)
 * down to VLEAF keys, which a bitonic network in up to 16 registers sorts,
 * writing the elements back. A quicksort is not stable, but equal keys
 * belong to elements equal bit for bit, except where sort_key merges
 * elements (NaNs, zeros): unmerge then puts those back in their input
 * order, as after the radix sort. */
#if defined(__x86_64__) && defined(__GNUC__)
#include <immintrin.h>

#define V512 __attribute__((target("avx512f,avx512bw,avx512vl,avx512dq")))
#define VIN static inline __attribute__((always_inline, target("avx512f,avx512bw,avx512vl,avx512dq")))

enum { VLEAF = 256, VMAX_BUCKETS = 8, VSAMPLE = 256 };

/* $CXLA_CPU_SORT_ISA = "base" turns the vector sort off (tests run both). */
static bool vsort_supported(void) {
  const char *cap = getenv("CXLA_CPU_SORT_ISA");
  if (cap && strcmp(cap, "base") == 0) return false;
  __builtin_cpu_init();
  return __builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512dq") &&
         __builtin_cpu_supports("avx512vl") && __builtin_cpu_supports("avx512bw");
}

/* sort_key and sort_unkey of 32-bit elements, 16 at a time: the plan's
 * constants broadcast. All zeros: keys unchanged both ways. */
typedef struct VKeys {
  __m512i nsign, inf, tiny, nt, nb, zb, sign, fl, x; /* x: flip ^ out */
  __m512i out, post;                                   /* unkey: out, then flip */
  __mmask16 mn, mz;
} VKeys;

VIN void vkeys_init(const SortPlan *p, VKeys *k) {
  k->nsign = _mm512_set1_epi32((int)(uint32_t)~p->sign);
  k->inf = _mm512_set1_epi32((int)(uint32_t)p->inf);
  k->tiny = _mm512_set1_epi32((int)(uint32_t)p->tiny);
  k->nt = _mm512_set1_epi32((int)(uint32_t)p->nan_test);
  k->nb = _mm512_set1_epi32((int)(uint32_t)p->nan_bits);
  k->zb = _mm512_set1_epi32((int)(uint32_t)p->zero_bits);
  k->sign = _mm512_set1_epi32((int)(uint32_t)p->sign);
  k->fl = _mm512_set1_epi32(p->is_float ? -1 : 0);
  k->x = _mm512_set1_epi32((int)(uint32_t)(p->flip ^ p->out));
  k->out = _mm512_set1_epi32((int)(uint32_t)p->out);
  k->post = _mm512_set1_epi32((int)(uint32_t)p->flip);
  k->mn = p->merge_nan ? 0xffff : 0;
  k->mz = p->merge_zero ? 0xffff : 0;
}

/* The keys of v; of the valid lanes, those holding a NaN the order
 * cannot place or'ed into *fn, those sort_key merges into *fm. */
VIN __m512i vkey(const VKeys *k, __m512i v, __mmask16 valid, __mmask16 *fn, __mmask16 *fm) {
  __m512i mag = _mm512_and_si512(v, k->nsign);
  __mmask16 isn = _mm512_cmpgt_epu32_mask(mag, k->inf) & k->mn;
  __mmask16 isz = _mm512_cmple_epu32_mask(mag, k->tiny) & k->mz & (__mmask16)~isn;
  *fn |= _mm512_mask_cmpgt_epu32_mask(valid, _mm512_and_si512(v, k->nt), k->inf);
  *fm |= (isn | isz) & valid;
  __m512i u = _mm512_mask_mov_epi32(_mm512_mask_mov_epi32(v, isn, k->nb), isz, k->zb);
  /* floats: negative ones all bits flipped, positive ones the sign bit */
  __m512i f = _mm512_and_si512(_mm512_or_si512(_mm512_srai_epi32(u, 31), k->sign), k->fl);
  return _mm512_xor_si512(_mm512_xor_si512(u, f), k->x);
}

VIN __m512i vunkey(const VKeys *k, __m512i v) {
  __m512i r = _mm512_xor_si512(v, k->out);
  /* floats: top bit set (a positive element): the sign bit flipped; else all bits */
  __m512i f = _mm512_and_si512(_mm512_or_si512(_mm512_andnot_si512(_mm512_srai_epi32(r, 31), _mm512_set1_epi32(-1)),
                                               k->sign),
                               k->fl);
  return _mm512_xor_si512(_mm512_xor_si512(r, f), k->post);
}

/* The first n lanes (none for n <= 0). */
VIN __mmask16 vfirst(int64_t n) { return (__mmask16)(n >= 16 ? 0xffffu : n <= 0 ? 0u : (1u << n) - 1); }

/* v with each lane swapped with lane ^ j (j: 1, 2, 4, 8). */
VIN __m512i vswap(__m512i v, int j) {
  switch (j) {
  case 1: return _mm512_shuffle_epi32(v, (_MM_PERM_ENUM)0xb1);
  case 2: return _mm512_shuffle_epi32(v, (_MM_PERM_ENUM)0x4e);
  case 4: return _mm512_shuffle_i32x4(v, v, 0xb1);
  default: return _mm512_shuffle_i32x4(v, v, 0x4e);
  }
}

/* One compare-exchange step: lanes in hi take the larger of lane and
 * lane ^ j, the others the smaller. */
VIN __m512i vstep(__m512i v, int j, __mmask16 hi) {
  __m512i q = vswap(v, j);
  return _mm512_mask_mov_epi32(_mm512_min_epu32(v, q), hi, _mm512_max_epu32(v, q));
}

/* A bitonic register sorted (the half-cleaners j = 8, 4, 2, 1). */
VIN __m512i vclean16(__m512i v) {
  v = vstep(v, 8, 0xff00);
  v = vstep(v, 4, 0xf0f0);
  v = vstep(v, 2, 0xcccc);
  return vstep(v, 1, 0xaaaa);
}

/* A register sorted (bitonic network: k = 2, 4, 8, then the k = 16 merge). */
VIN __m512i vsort16(__m512i v) {
  v = vstep(v, 1, 0x6666);
  v = vstep(v, 2, 0x3c3c);
  v = vstep(v, 1, 0x5a5a);
  v = vstep(v, 4, 0x0ff0);
  v = vstep(v, 2, 0x33cc);
  v = vstep(v, 1, 0x55aa);
  return vclean16(v);
}

VIN __m512i vrev(__m512i v) {
  return _mm512_permutexvar_epi32(_mm512_set_epi32(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15), v);
}

/* v[0, N) (N a power of two up to 16) sorted as one sequence of 16 N
 * keys: each register sorted, then runs of w registers merged pairwise
 * (the second run reversed against the first: lows and highs each
 * bitonic, then cleaned across registers and within them). */
VIN void vsortn(__m512i *v, const int N) {
#pragma GCC unroll 16
  for (int i = 0; i < N; i++) v[i] = vsort16(v[i]);
  for (int w = 1; w < N; w *= 2) {
#pragma GCC unroll 16
    for (int g = 0; g < N; g += 2 * w) {
      /* lows to the first run, highs to the second: pairs t, u = w-1-t */
#pragma GCC unroll 8
      for (int t = 0; 2 * t < w; t++) {
        int u = w - 1 - t;
        __m512i at = v[g + t], au = v[g + u], bt = vrev(v[g + w + t]), bu = vrev(v[g + w + u]);
        v[g + t] = _mm512_min_epu32(at, bu);
        v[g + w + t] = _mm512_max_epu32(at, bu);
        v[g + u] = _mm512_min_epu32(au, bt);
        v[g + w + u] = _mm512_max_epu32(au, bt);
      }
      for (int d = w / 2; d >= 1; d /= 2)
#pragma GCC unroll 16
        for (int x = g; x < g + 2 * w; x++)
          if (((x - g) & d) == 0) {
            __m512i a = v[x], b = v[x + d];
            v[x] = _mm512_min_epu32(a, b);
            v[x + d] = _mm512_max_epu32(a, b);
          }
#pragma GCC unroll 16
      for (int x = g; x < g + 2 * w; x++) v[x] = vclean16(v[x]);
    }
  }
}

/* s[0, n) (n <= 16 N) sorted through N registers (padded with the
 * largest key) to out as elements. */
VIN void vleafn(const VKeys *k, const uint32_t *s, uint32_t *out, int64_t n, const int N) {
  __m512i v[16];
#pragma GCC unroll 16
  for (int i = 0; i < N; i++) v[i] = _mm512_mask_loadu_epi32(_mm512_set1_epi32(-1), vfirst(n - 16 * i), s + 16 * i);
  vsortn(v, N);
#pragma GCC unroll 16
  for (int i = 0; i < N; i++) _mm512_mask_storeu_epi32(out + 16 * i, vfirst(n - 16 * i), vunkey(k, v[i]));
}

/* s[0, n) (n <= VLEAF) sorted to out (which may be s) as elements. */
static V512 void vleaf(const VKeys *k, const uint32_t *s, uint32_t *out, int64_t n) {
  if (n <= 16) vleafn(k, s, out, n, 1);
  else if (n <= 32) vleafn(k, s, out, n, 2);
  else if (n <= 64) vleafn(k, s, out, n, 4);
  else if (n <= 128) vleafn(k, s, out, n, 8);
  else vleafn(k, s, out, n, 16);
}

/* The keys src[0, n) (keys: the elements, made keys) to dst between *l
 * and *r: those below P (le: not above) at *l on, the others down from
 * *r; both advanced. Whole vectors: the first part stored whole (the lanes
 * past its keys fall in the gap not yet written, which holds at least the
 * 16 keys in hand), the second compressed to memory. fn, fm: as vkey. */
VIN void vpart_run(const VKeys *k, const bool keys, const uint32_t *src, int64_t n, uint32_t *dst, int64_t *pl,
                   int64_t *pr, __m512i P, const bool le, __mmask16 *fn, __mmask16 *fm) {
  int64_t l = *pl, r = *pr, i = 0;
  for (; i + 16 <= n; i += 16) {
    __m512i v = _mm512_loadu_si512(src + i);
    if (keys) v = vkey(k, v, 0xffff, fn, fm);
    __mmask16 a = le ? _mm512_cmple_epu32_mask(v, P) : _mm512_cmplt_epu32_mask(v, P);
    int ca = __builtin_popcount(a);
    _mm512_storeu_si512(dst + l, _mm512_maskz_compress_epi32(a, v));
    l += ca;
    r -= 16 - ca;
    _mm512_mask_compressstoreu_epi32(dst + r, (__mmask16)~a, v);
  }
  if (i < n) {
    __mmask16 valid = vfirst(n - i);
    __m512i v = _mm512_maskz_loadu_epi32(valid, src + i);
    if (keys) v = vkey(k, v, valid, fn, fm);
    __mmask16 a = (le ? _mm512_cmple_epu32_mask(v, P) : _mm512_cmplt_epu32_mask(v, P)) & valid;
    __mmask16 b = valid & (__mmask16)~a;
    _mm512_mask_compressstoreu_epi32(dst + l, a, v);
    l += __builtin_popcount(a);
    r -= __builtin_popcount(b);
    _mm512_mask_compressstoreu_epi32(dst + r, b, v);
  }
  *pl = l;
  *pr = r;
}

/* The keys src[0, n) to dst: those below pv (le: not above) from dst's
 * start on, the others from its end down; returns how many went first. */
static V512 int64_t vpart(const uint32_t *src, uint32_t *dst, int64_t n, uint32_t pv, bool le) {
  int64_t l = 0, r = n;
  __mmask16 f = 0;
  __m512i P = _mm512_set1_epi32((int)pv);
  if (le) vpart_run(NULL, false, src, n, dst, &l, &r, P, true, &f, &f);
  else vpart_run(NULL, false, src, n, dst, &l, &r, P, false, &f, &f);
  return l;
}

/* The median of 16 keys spread over s[0, n). */
static V512 uint32_t vpivot(const uint32_t *s, int64_t n) {
  uint32_t a[16];
  for (int i = 0; i < 16; i++) a[i] = s[(n - 1) * i / 15];
  _mm512_storeu_si512(a, vsort16(_mm512_loadu_si512(a)));
  return a[8];
}

/* Where the quicksort goes too deep: an LSD radix sort of s[0, n) (8-bit
 * digits, through a), to out as elements. */
static V512 void vradix(const VKeys *k, uint32_t *s, uint32_t *a, uint32_t *out, int64_t n) {
  for (int d = 0; d < 4; d++) {
    uint32_t h[256] = {0}, run = 0;
    for (int64_t i = 0; i < n; i++) h[(s[i] >> (8 * d)) & 255]++;
    for (int b = 0; b < 256; b++) {
      uint32_t c = h[b];
      h[b] = run;
      run += c;
    }
    for (int64_t i = 0; i < n; i++) a[h[(s[i] >> (8 * d)) & 255]++] = s[i];
    uint32_t *t = s;
    s = a;
    a = t;
  }
  for (int64_t i = 0; i < n; i += 16) {
    __mmask16 m = vfirst(n - i);
    _mm512_mask_storeu_epi32(out + i, m, vunkey(k, _mm512_maskz_loadu_epi32(m, s + i)));
  }
}

/* The keys s[0, n) sorted to out (s or a, both as long) as elements;
 * a: scratch. depth: partitions left before vradix takes over. */
static V512 void vquick(const VKeys *k, uint32_t *s, uint32_t *a, uint32_t *out, int64_t n, int depth) {
  while (n > VLEAF) {
    if (depth-- == 0) {
      vradix(k, s, a, out, n);
      return;
    }
    uint32_t pv = vpivot(s, n);
    int64_t l = vpart(s, a, n, pv, false);
    if (l == 0) {
      /* pv is the least key: its copies are done */
      int64_t e = vpart(a, s, n, pv, true);
      __m512i x = vunkey(k, _mm512_set1_epi32((int)pv));
      for (int64_t i = 0; i < e; i += 16) _mm512_mask_storeu_epi32(out + i, vfirst(e - i), x);
      s += e, a += e, out += e, n -= e;
      continue;
    }
    /* the smaller side first, the larger one in this loop; the keys are now in a */
    uint32_t *t = s;
    if (l < n - l) {
      vquick(k, a, t, out, l, depth);
      s = a + l, a = t + l, out += l, n -= l;
    } else {
      vquick(k, a + l, t + l, out + l, n - l, depth);
      s = a, a = t, n = l;
    }
  }
  vleaf(k, s, out, n);
}

/* One row: src (n elements) in buckets of keys in tmp, sorted to dst. */
typedef struct VRow {
  const SortPlan *p;
  const uint32_t *src;
  uint32_t *tmp, *dst;
  int64_t n;
  int nb;                                   /* buckets = chunks */
  uint32_t split[VMAX_BUCKETS];             /* bucket b: keys from split[b - 1] to below split[b] */
  uint32_t below[VMAX_BUCKETS][VMAX_BUCKETS]; /* chunk c: keys below split[b]; then its offset in bucket b */
  int64_t start[VMAX_BUCKETS + 1];
  int flags[VMAX_BUCKETS];                  /* CNT_* per chunk */
  int64_t part[2], mid[2];                  /* two buckets: see vsort_two */
  int phase;                                /* 0: count, 1: move, 2: sort; vsort_two: 3, 4, 5 */
} VRow;

/* Chunk [lo, hi) of the row, nb buckets (a constant where inlined):
 * phase 0 counts its keys below each splitter (to cnt), phase 1 moves
 * them to their buckets in tmp (at off, advanced). Returns CNT_*. The
 * counts and offsets are locals: in registers, not in memory the stores
 * to tmp might alias. */
VIN int vchunk(const VRow *r, const VKeys *k, int phase, int64_t lo, int64_t hi, const int nb, uint32_t *cnt,
               uint32_t *off) {
  __m512i S[VMAX_BUCKETS];
  uint32_t c[VMAX_BUCKETS] = {0}, o[VMAX_BUCKETS];
#pragma GCC unroll 8
  for (int b = 0; b < nb; b++) {
    if (b + 1 < nb) S[b] = _mm512_set1_epi32((int)r->split[b]);
    o[b] = phase ? off[b] : 0;
  }
  __mmask16 fn = 0, fm = 0;
  for (int64_t i = lo; i < hi; i += 16) {
    __mmask16 valid = vfirst(hi - i);
    __m512i v = vkey(k, _mm512_maskz_loadu_epi32(valid, r->src + i), valid, &fn, &fm);
    __mmask16 rest = valid;
#pragma GCC unroll 8
    for (int b = 0; b < nb; b++) {
      __mmask16 m = b + 1 < nb ? _mm512_mask_cmplt_epu32_mask(rest, v, S[b]) : rest;
      rest &= (__mmask16)~m;
      if (phase == 0) {
        c[b] += (uint32_t)__builtin_popcount(m);
      } else {
        _mm512_mask_compressstoreu_epi32(r->tmp + o[b], m, v);
        o[b] += (uint32_t)__builtin_popcount(m);
      }
    }
  }
#pragma GCC unroll 8
  for (int b = 0; b < nb; b++) {
    if (phase == 0) cnt[b] = c[b];
    else off[b] = o[b];
  }
  return (fn ? CNT_NAN : 0) | (fm ? CNT_MERGED : 0);
}

/* Two buckets (vsort_two), chunk or bucket c of phase 3: the chunk's
 * keys partitioned on split[0] into its own range of tmp (part[c] below);
 * 4: the bucket's keys, in its two pieces of tmp, partitioned on a pivot
 * of theirs into its range of dst (mid[c] below; -1: only copied); 5:
 * its two parts sorted, through tmp. */
static V512 void vtwo_phase(VRow *r, const VKeys *k, int64_t c) {
  int64_t h = r->n / 2, lo[2] = {0, h}, len[2] = {h, r->n - h};
  if (r->phase == 3) {
    int64_t l = 0, e = len[c];
    __mmask16 fn = 0, fm = 0;
    vpart_run(k, true, r->src + lo[c], len[c], r->tmp + lo[c], &l, &e, _mm512_set1_epi32((int)r->split[0]), false,
              &fn, &fm);
    r->part[c] = l;
    r->flags[c] = (fn ? CNT_NAN : 0) | (fm ? CNT_MERGED : 0);
    return;
  }
  int64_t s = r->start[c], m = r->start[c + 1] - s;
  if (r->phase == 5) {
    int64_t a = r->mid[c] < 0 ? m : r->mid[c];
    vquick(k, r->dst + s, r->tmp + s, r->dst + s, a, 2 * bit_length((uint64_t)m) + 8);
    vquick(k, r->dst + s + a, r->tmp + s + a, r->dst + s + a, m - a, 2 * bit_length((uint64_t)m) + 8);
    return;
  }
  /* the pieces: bucket 0 the chunks' first parts, bucket 1 their second */
  const uint32_t *p0 = r->tmp + lo[0] + (c ? r->part[0] : 0), *p1 = r->tmp + lo[1] + (c ? r->part[1] : 0);
  int64_t n0 = c ? len[0] - r->part[0] : r->part[0], n1 = c ? len[1] - r->part[1] : r->part[1];
  if (m <= VLEAF) {
    memcpy(r->dst + s, p0, (size_t)n0 * sizeof *p0);
    memcpy(r->dst + s + n0, p1, (size_t)n1 * sizeof *p1);
    r->mid[c] = -1;
    return;
  }
  uint32_t smp[16];
  for (int i = 0; i < 16; i++) {
    int64_t j = (m - 1) * i / 15;
    smp[i] = j < n0 ? p0[j] : p1[j - n0];
  }
  _mm512_storeu_si512(smp, vsort16(_mm512_loadu_si512(smp)));
  __m512i P = _mm512_set1_epi32((int)smp[8]);
  int64_t l = 0, e = m;
  __mmask16 f = 0;
  vpart_run(NULL, false, p0, n0, r->dst + s, &l, &e, P, false, &f, &f);
  vpart_run(NULL, false, p1, n1, r->dst + s, &l, &e, P, false, &f, &f);
  r->mid[c] = l;
}

static V512 cxla_status vrow_phase(void *arg, int64_t begin, int64_t end) {
  VRow *r = arg;
  VKeys k;
  vkeys_init(r->p, &k);
  int nb = r->nb;
  for (int64_t c = begin; c < end; c++) {
    int64_t lo = r->n * c / nb, hi = r->n * (c + 1) / nb;
    if (r->phase >= 3) {
      vtwo_phase(r, &k, c);
      continue;
    }
    if (r->phase == 2) {
      int64_t s = r->start[c], m = r->start[c + 1] - s;
      vquick(&k, r->tmp + s, r->dst + s, r->dst + s, m, 2 * bit_length((uint64_t)m) + 8);
      continue;
    }
    /* phase 0: below[c][b] = keys below split[b] (cumulative), phase 1: from offsets */
    uint32_t *cnt = r->below[c], cum[VMAX_BUCKETS];
    int f;
#define VCHUNK(NB)                                                                               \
  case NB:                                                                                       \
    f = r->phase ? vchunk(r, &k, 1, lo, hi, NB, cum, cnt) : vchunk(r, &k, 0, lo, hi, NB, cum, cnt); \
    break;
    switch (nb) {
      VCHUNK(1) VCHUNK(2) VCHUNK(3) VCHUNK(4) VCHUNK(5) VCHUNK(6) VCHUNK(7)
    default: f = r->phase ? vchunk(r, &k, 1, lo, hi, VMAX_BUCKETS, cum, cnt) : vchunk(r, &k, 0, lo, hi, VMAX_BUCKETS, cum, cnt);
    }
#undef VCHUNK
    if (r->phase == 0)
      for (int b = 0; b + 1 < nb; b++) cnt[b] = b ? cnt[b - 1] + cum[b] : cum[b];
    r->flags[c] = f;
  }
  return NULL;
}

static cxla_status vrow_run(const ExecCtx *cx, VRow *r, int phase) {
  r->phase = phase;
  if (r->nb == 1) return vrow_phase(r, 0, 1);
  return cx_parallel_for(cx, r->nb, 1, r->nb, vrow_phase, r);
}

/* r->split: keys of a sorted sample of the row, nb - 1 of them. */
static V512 void vsplitters(VRow *r) {
  uint32_t smp[VSAMPLE];
  for (int i = 0; i < VSAMPLE; i++) smp[i] = (uint32_t)sort_key(r->p, r->src[(r->n - 1) * i / (VSAMPLE - 1)]);
  VKeys id;
  memset(&id, 0, sizeof id);
  vleaf(&id, smp, smp, VSAMPLE);
  for (int b = 0; b + 1 < r->nb; b++) r->split[b] = smp[(b + 1) * VSAMPLE / r->nb];
}

/* Two threads, two buckets, and the source read once: each thread
 * partitions its half of the row's keys on the splitter into its half of
 * tmp (phase 3); each bucket, in two pieces, is partitioned on its own
 * pivot into its range of dst (4); then each sorts its two parts (5). */
static cxla_status vsort_two(const ExecCtx *cx, VRow *r, bool *sorted) {
  vsplitters(r);
  TRY(vrow_run(cx, r, 3));
  int flags = r->flags[0] | r->flags[1];
  if (flags & CNT_NAN) {
    *sorted = false;
    return NULL;
  }
  *sorted = true;
  r->start[0] = 0;
  r->start[1] = r->part[0] + r->part[1];
  r->start[2] = r->n;
  TRY(vrow_run(cx, r, 4));
  TRY(vrow_run(cx, r, 5));
  if (flags & CNT_MERGED) unmerge(r->p, r->src, r->dst, r->n);
  return NULL;
}

/* Sorts the 32-bit elements src[0, n) into dst through tmp on nchunks
 * threads; *sorted false: a NaN the order cannot place (dst untouched). */
static V512 cxla_status vsort_row(const ExecCtx *cx, const SortPlan *p, int nchunks, const void *src, void *dst,
                                  void *tmp, int64_t n, bool *sorted) {
  VRow r = {.p = p, .src = src, .tmp = tmp, .dst = dst, .n = n, .nb = nchunks < VMAX_BUCKETS ? nchunks : VMAX_BUCKETS};
  int nb = r.nb, flags = 0;
  if (nb > 1 && n < 4 * VSAMPLE * nb) nb = r.nb = 1;
  if (nb == 2) return vsort_two(cx, &r, sorted);
  if (nb > 1) {
    vsplitters(&r);
    TRY(vrow_run(cx, &r, 0));
    for (int c = 0; c < nb; c++) flags |= r.flags[c];
    if (flags & CNT_NAN) {
      *sorted = false;
      return NULL;
    }
    /* below[c][b] -> chunk c's count in bucket b -> its offset there */
    uint32_t cnt[VMAX_BUCKETS][VMAX_BUCKETS];
    for (int c = 0; c < nb; c++)
      for (int b = 0; b < nb; b++) {
        uint32_t hi = b + 1 < nb ? r.below[c][b] : (uint32_t)(n * (c + 1) / nb - n * c / nb);
        cnt[c][b] = hi - (b > 0 ? r.below[c][b - 1] : 0);
      }
    int64_t run = 0;
    for (int b = 0; b < nb; b++) {
      r.start[b] = run;
      for (int c = 0; c < nb; c++) {
        r.below[c][b] = (uint32_t)run;
        run += cnt[c][b];
      }
    }
    r.start[nb] = run;
  } else {
    r.below[0][0] = 0;
    r.start[0] = 0;
    r.start[1] = n;
  }
  TRY(vrow_run(cx, &r, 1));
  for (int c = 0; c < nb; c++) flags |= r.flags[c];
  if (flags & CNT_NAN) {
    *sorted = false;
    return NULL;
  }
  *sorted = true;
  TRY(vrow_run(cx, &r, 2));
  if (flags & CNT_MERGED) unmerge(p, src, dst, n);
  return NULL;
}
#endif

/* Sorts src[0, n) into dst (indices into idst when not NULL), using tmp /
 * itmp and h. *sorted false: the row holds a NaN the order cannot place
 * (nothing written). */
static cxla_status radix_row(const ExecCtx *cx, const SortPlan *p, int nchunks, const void *src, void *dst,
                             void *tmp, uint32_t *idst, uint32_t *itmp, uint32_t *h, int64_t n, bool *sorted) {
  *sorted = true;
  if (n <= SMALL_ROW) {
    *sorted = small_sort(p, src, dst, idst, n);
    return NULL;
  }
#if defined(__x86_64__) && defined(__GNUC__)
  if (p->vec && !idst) return vsort_row(cx, p, nchunks, src, dst, tmp, n, sorted);
#endif
  Radix r = {.p = p, .f = radix_fns(p->bits), .n = n, .nchunks = nchunks, .h = h, .src = src};
  r.rb = digit_bits(p->bits, n);
  r.npass = (p->bits + r.rb - 1) / r.rb;
  size_t R = (size_t)1 << r.rb;
  if (msd_fits(p->bits, n)) {
    bool done;
    r.top = h + ((size_t)nchunks * (size_t)(r.npass + 1) << r.rb);
    TRY(msd_row(cx, &r, dst, tmp, idst, itmp, sorted, &done));
    if (done) return NULL;
  }
  TRY(radix_phase(cx, &r, 0));
  int flags = 0;
  for (int c = 0; c < nchunks; c++) flags |= r.flags[c];
  if (flags & CNT_NAN) {
    *sorted = false;
    return NULL;
  }
  /* the digits that differ somewhere: the others cost no pass */
  int pass[8], npass = 0;
  uint64_t k0 = sort_key(p, load_bits(src, 0, p->bits / 8));
  for (int d = 0; d < r.npass; d++) {
    uint64_t b = (k0 >> (d * r.rb)) & (R - 1), total = 0;
    for (int c = 0; c < nchunks; c++) total += h[((size_t)c * (size_t)r.npass + (size_t)d) * R + b];
    if (total != (uint64_t)n) pass[npass++] = d;
  }
  if (npass == 0) {
    memcpy(dst, src, (size_t)n * (size_t)(p->bits / 8));
    if (idst)
      for (int64_t i = 0; i < n; i++) idst[i] = (uint32_t)i;
    return NULL;
  }
  uint32_t *offs = h + (size_t)nchunks * (size_t)r.npass * R;
  for (int j = 0; j < npass; j++) {
    int d = pass[j];
    r.shift = d * r.rb;
    /* the last pass writes dst: they alternate between dst and tmp */
    bool to_dst = (npass - 1 - j) % 2 == 0;
    r.dst = to_dst ? dst : tmp;
    r.idst = idst ? (to_dst ? idst : itmp) : NULL;
    /* several passes over elements that map one to one to keys: the first
     * makes keys, the last elements again, the others only move keys */
    r.mode = npass == 1 || (flags & CNT_MERGED) ? MV_ELEMS
             : j == 0                           ? MV_TO_KEYS
             : j == npass - 1                   ? MV_FROM_KEYS
                                                : MV_KEYS;
    if (j == 0 || nchunks == 1) {
      /* a whole row's counts do not depend on its order */
      for (int c = 0; c < nchunks; c++)
        memcpy(offs + c * R, h + ((size_t)c * (size_t)r.npass + (size_t)d) * R, R * sizeof *h);
    } else {
      TRY(radix_phase(cx, &r, 1));
    }
    uint32_t run = 0;
    for (size_t b = 0; b < R; b++)
      for (int c = 0; c < nchunks; c++) {
        uint32_t k = offs[c * R + b];
        offs[c * R + b] = run;
        run += k;
      }
    TRY(radix_phase(cx, &r, 2));
    r.src = r.dst;
    r.isrc = r.idst;
  }
  return NULL;
}

/* ---- the comparator path: merge sort calling the compiled comparator ---- */

typedef struct Row {
  const Step *st;
  RVal *const *ops;
  int n;
  int64_t base, stride;
  const void *args[128];
} Row;

static bool less(Row *r, int64_t a, int64_t b) {
  for (int k = 0; k < r->n; k++) {
    size_t es = (size_t)type_bytes(r->ops[k]->lit.type);
    const char *d = r->ops[k]->lit.data;
    r->args[2 * k] = d + (size_t)(r->base + a * r->stride) * es;
    r->args[2 * k + 1] = d + (size_t)(r->base + b * r->stride) * es;
  }
  return r->st->pred(r->args) != 0;
}

static void merge_sort(Row *r, int64_t *perm, int64_t *tmp, int64_t m) {
  for (int64_t w = 1; w < m; w *= 2) {
    for (int64_t lo = 0; lo < m; lo += 2 * w) {
      int64_t mid = lo + w < m ? lo + w : m, hi = lo + 2 * w < m ? lo + 2 * w : m;
      int64_t i = lo, j = mid, o = lo;
      while (i < mid && j < hi) tmp[o++] = less(r, perm[j], perm[i]) ? perm[j++] : perm[i++];
      while (i < mid) tmp[o++] = perm[i++];
      while (j < hi) tmp[o++] = perm[j++];
    }
    memcpy(perm, tmp, (size_t)m * sizeof *perm);
  }
}

/* ---- is_stable=false: std::sort's order (base/stdsort_impl.h) ---- */

#define STDSORT_NAME std_sort_perm
#define STDSORT_T int64_t
#define STDSORT_LESS(ctx, x, y) less(ctx, x, y)
#include "base/stdsort_impl.h"

/* An element's key beside its position: comparing keys answers as the
 * comparator does (sort_key), so std::sort over these pairs makes the
 * comparator's permutation with no call into it. */
typedef struct KeyPos {
  uint64_t key;
  int64_t pos;
} KeyPos;

#define STDSORT_NAME std_sort_keyed
#define STDSORT_T KeyPos
#define STDSORT_LESS(ctx, x, y) ((void)(ctx), (x).key < (y).key)
#include "base/stdsort_impl.h"

/* ---- rows ---- */

typedef struct SortJob {
  const ExecCtx *cx;
  const Step *st;
  const SortPlan *p;       /* NULL: the comparator path */
  RVal *const *ops;
  RVal **res;
  int n;
  int64_t len, stride;     /* a row: len elements stride apart */
  int nchunks;             /* threads per row (1: rows over threads) */
  bool unstable;           /* is_stable=false, several operands or no plan: std::sort's order */
  bool check_ties;         /* is_stable=false, one operand whose keys merge elements: std::sort's
                            * order for the rows where equal keys differ */
} SortJob;

/* dst[base + i*stride] = src[base + at(i)*stride] for i in [lo, hi). */
#define PERMUTE(T, IDX)                                                                  \
  do {                                                                                                        \
    const T *s_ = (const T *)src + base;                                                                      \
    T *d_ = (T *)dst + base;                                                                                  \
    for (int64_t i = lo; i < hi; i++) d_[i * stride] = s_[(int64_t)(IDX)[i] * stride];                        \
  } while (0)

static void permute(const RVal *s, RVal *d, int64_t base, int64_t stride, const uint32_t *i32, const int64_t *i64,
                    int64_t lo, int64_t hi) {
  const void *src = s->lit.data;
  void *dst = d->lit.data;
  size_t es = (size_t)type_bytes(s->lit.type);
  if (i32) {
    switch (es) {
    case 1: PERMUTE(uint8_t, i32); return;
    case 2: PERMUTE(uint16_t, i32); return;
    case 4: PERMUTE(uint32_t, i32); return;
    case 8: PERMUTE(uint64_t, i32); return;
    default: break;
    }
  }
  for (int64_t i = lo; i < hi; i++) {
    int64_t from = i32 ? (int64_t)i32[i] : i64[i];
    memcpy((char *)dst + (size_t)(base + i * stride) * es, (const char *)src + (size_t)(base + from * stride) * es,
           es);
  }
}

/* Per thread: scratch for one row at a time. The radix sort's arrays
 * (a row's length each) are the pool's scratch (rt_scratch_alloc), kept
 * between calls: from malloc, a sort of f32[1M] page-faulted its 4 MiB
 * temporary in again on every call, inside its MSD scatter (Zen 2:
 * that phase 4.5 ms of the sort's 8.9, 1.5 ms over pages already
 * touched). */
typedef struct Scratch {
  RtPool *pool;
  void *tmp, *in, *out;
  uint32_t *idx, *itmp, *h;
  int64_t *perm, *ptmp;
  KeyPos *kp;
} Scratch;

static void scratch_free(Scratch *s) {
  rt_scratch_free(s->pool, s->tmp);
  rt_scratch_free(s->pool, s->in);
  rt_scratch_free(s->pool, s->out);
  rt_scratch_free(s->pool, s->idx);
  rt_scratch_free(s->pool, s->itmp);
  rt_scratch_free(s->pool, s->h);
  cxla_free(s->perm);
  cxla_free(s->ptmp);
  cxla_free(s->kp);
}

static cxla_status scratch_radix(const SortJob *j, Scratch *s) {
  size_t n = (size_t)j->len, es = (size_t)j->p->bits / 8;
  s->tmp = rt_scratch_alloc(s->pool, n * es);
  s->h = rt_scratch_alloc(s->pool, radix_hist_len(j->nchunks, j->p->bits, j->len) * sizeof *s->h);
  bool ok = s->tmp && s->h;
  if (j->stride != 1) {
    s->in = rt_scratch_alloc(s->pool, n * es);
    s->out = rt_scratch_alloc(s->pool, n * es);
    ok = ok && s->in && s->out;
  }
  if (j->n > 1) {
    s->idx = rt_scratch_alloc(s->pool, n * sizeof *s->idx);
    s->itmp = rt_scratch_alloc(s->pool, n * sizeof *s->itmp);
    ok = ok && s->idx && s->itmp;
  }
  return ok ? NULL : cxla_oom();
}

static cxla_status comparator_row(const SortJob *j, Scratch *s, int64_t base) {
  if (!s->perm) {
    s->perm = cxla_malloc((size_t)j->len * sizeof *s->perm);
    s->ptmp = cxla_malloc((size_t)j->len * sizeof *s->ptmp);
    if (!s->perm || !s->ptmp) return cxla_oom();
  }
  Row r = {.st = j->st, .ops = j->ops, .n = j->n, .base = base, .stride = j->stride};
  for (int64_t i = 0; i < j->len; i++) s->perm[i] = i;
  unsigned mode = cpu_fp_mode_enter();
  merge_sort(&r, s->perm, s->ptmp, j->len);
  cpu_fp_mode_leave(mode);
  for (int k = 0; k < j->n; k++) permute(j->ops[k], j->res[k], base, j->stride, NULL, s->perm, 0, j->len);
  return NULL;
}

/* A row sorted as std::sort orders it: by the plan's keys where the row
 * has no NaN the keys cannot order, else by calling the comparator. */
static cxla_status unstable_row(const SortJob *j, Scratch *s, int64_t base) {
  int64_t n = j->len;
  if (!s->perm && !(s->perm = cxla_malloc((size_t)n * sizeof *s->perm))) return cxla_oom();
  const SortPlan *p = j->p;
  bool keyed = p != NULL;
  if (keyed) {
    if (!s->kp && !(s->kp = cxla_malloc((size_t)n * sizeof *s->kp))) return cxla_oom();
    int bytes = p->bits / 8;
    const char *src = (const char *)j->ops[p->key]->lit.data + (size_t)base * (size_t)bytes;
    for (int64_t i = 0; i < n && keyed; i++) {
      uint64_t u = load_bits(src, i * j->stride, bytes);
      keyed = !is_nan(p, u);
      s->kp[i] = (KeyPos){sort_key(p, u), i};
    }
    if (keyed) {
      std_sort_keyed(s->kp, n, NULL);
      for (int64_t i = 0; i < n; i++) s->perm[i] = s->kp[i].pos;
    }
  }
  if (!keyed) {
    Row r = {.st = j->st, .ops = j->ops, .n = j->n, .base = base, .stride = j->stride};
    for (int64_t i = 0; i < n; i++) s->perm[i] = i;
    unsigned mode = cpu_fp_mode_enter();
    std_sort_perm(s->perm, n, &r);
    cpu_fp_mode_leave(mode);
  }
  for (int k = 0; k < j->n; k++) permute(j->ops[k], j->res[k], base, j->stride, NULL, s->perm, 0, n);
  return NULL;
}

/* Whether a row of the one operand has a NaN the keys cannot order, or
 * two different elements sort_key merges (-0 and +0, subnormals, NaN
 * payloads): where it has neither, equal keys are equal elements and the
 * radix sort's order is std::sort's. */
static bool ties_differ(const SortJob *j, int64_t base) {
  const SortPlan *p = j->p;
  int bytes = p->bits / 8;
  const char *src = (const char *)j->ops[p->key]->lit.data + (size_t)base * (size_t)bytes;
  bool have_nan = false, have_zero = false;
  uint64_t nan = 0, zero = 0;
  for (int64_t i = 0; i < j->len; i++) {
    uint64_t u = load_bits(src, i * j->stride, bytes) & p->mask;
    if (is_nan(p, u)) return true;
    uint64_t mag = u & ~p->sign;
    if (p->merge_nan && mag > p->inf) {
      if (have_nan && u != nan) return true;
      have_nan = true, nan = u;
    } else if (p->merge_zero && mag <= p->tiny) {
      if (have_zero && u != zero) return true;
      have_zero = true, zero = u;
    }
  }
  return false;
}

typedef struct Gather {
  const SortJob *j;
  const uint32_t *idx;
  int64_t base;
} Gather;

static cxla_status gather_slice(void *arg, int64_t lo, int64_t hi) {
  const Gather *g = arg;
  for (int k = 0; k < g->j->n; k++)
    if (k != g->j->p->key) permute(g->j->ops[k], g->j->res[k], g->base, g->j->stride, g->idx, NULL, lo, hi);
  return NULL;
}

static cxla_status radix_row_at(const SortJob *j, Scratch *s, int64_t base) {
  const SortPlan *p = j->p;
  size_t es = (size_t)p->bits / 8;
  const char *src = (const char *)j->ops[p->key]->lit.data + (size_t)base * es;
  char *dst = (char *)j->res[p->key]->lit.data + (size_t)base * es;
  int64_t n = j->len, st = j->stride;
  if (st != 1) {
    for (int64_t i = 0; i < n; i++) memcpy((char *)s->in + (size_t)i * es, src + (size_t)(i * st) * es, es);
    src = s->in;
    dst = s->out;
  }
  bool sorted;
  TRY(radix_row(j->cx, p, j->nchunks, src, dst, s->tmp, s->idx, s->itmp, s->h, n, &sorted));
  if (!sorted) return comparator_row(j, s, base);
  if (st != 1) {
    char *o = (char *)j->res[p->key]->lit.data + (size_t)base * es;
    for (int64_t i = 0; i < n; i++) memcpy(o + (size_t)(i * st) * es, (char *)s->out + (size_t)i * es, es);
  }
  if (j->n > 1) {
    Gather g = {j, s->idx, base};
    if (j->nchunks > 1) return cx_parallel_for(j->cx, n, 65536, j->nchunks, gather_slice, &g);
    return gather_slice(&g, 0, n);
  }
  return NULL;
}

/* Rows [lo, hi) (row r: outer index r / stride, inner r % stride). */
static cxla_status sort_rows(void *arg, int64_t lo, int64_t hi) {
  const SortJob *j = arg;
  Scratch s = {.pool = j->cx->pool};
  cxla_status st = j->p && !j->unstable ? scratch_radix(j, &s) : NULL;
  for (int64_t r = lo; r < hi && !st; r++) {
    int64_t base = r / j->stride * j->len * j->stride + r % j->stride;
    st = j->unstable || (j->check_ties && ties_differ(j, base)) ? unstable_row(j, &s, base)
         : j->p                                                  ? radix_row_at(j, &s, base)
                                                                 : comparator_row(j, &s, base);
  }
  scratch_free(&s);
  return st;
}

cxla_status sort_run(const ExecCtx *cx, const Step *st, RVal *const *ops, RVal **out) {
  const Instr *in = st->in;
  int n = in->noperands;
  const Literal *l0 = &ops[0]->lit;
  int64_t d = in->dimensions.v[0];
  if (d < 0 || d >= l0->rank) return ERR(INVALID_ARGUMENT, "sort %%%s: dimension out of range", in->name);
  RVal *res[64] = {0};
  cxla_status s = NULL;
  /* results that are result leaves (Step.leaf1) in the caller's result
   * arrays (no copy afterwards) */
  for (int k = 0; k < n && !s; k++) {
    const Literal *l = &ops[k]->lit;
    s = k < 8 && st->leaf1[k] ? step_output(cx, st, k, in->shape->type == T_TUPLE ? in->shape->tuple[k] : in->shape,
                                            &res[k])
                              : rval_array_in(cx->host, l->type, l->rank, l->dims, &res[k]);
  }
  int64_t len = l0->dims[d], stride = 1, outer = 1;
  for (int i = (int)d + 1; i < l0->rank; i++) stride *= l0->dims[i];
  for (int i = 0; i < d; i++) outer *= l0->dims[i];
  int64_t rows = outer * stride;
  const SortPlan *p = st->plan;
  if (p && len > (int64_t)UINT32_MAX) p = NULL;
  /* is_stable=false: std::sort's order. With one operand, equal keys are
   * equal elements (any order is that order) unless sort_key merges some:
   * then rows are checked one by one. */
  bool unstable = !in->is_stable && (n > 1 || !p);
  SortJob j = {.cx = cx, .st = st, .p = p, .ops = ops, .res = res, .n = n, .len = len, .stride = stride,
               .nchunks = 1, .unstable = unstable,
               .check_ties = !in->is_stable && !unstable && (p->merge_nan || p->merge_zero)};
  if (!s && len > 0 && rows > 0) {
    int threads = cx->pool && cx->nthreads > 1 ? cx->nthreads : 1;
    if (threads > MAX_CHUNKS) threads = MAX_CHUNKS;
    if (p && !unstable && threads > 1 && rows < threads && len >= 65536 * threads) {
      /* few long rows: each by all threads */
      j.nchunks = threads;
      s = sort_rows(&j, 0, rows);
    } else {
      /* rows over threads, a slice at least ~64K elements */
      int64_t min_rows = len >= 65536 ? 1 : 65536 / len;
      s = threads > 1 && rows >= 2 * min_rows
              ? cx_parallel_for(cx, rows, min_rows, threads, sort_rows, &j)
              : sort_rows(&j, 0, rows);
    }
  }
  if (!s) {
    if (in->shape->type == T_TUPLE) {
      s = rval_tuple(n, res, out);
      for (int k = 0; k < n; k++) res[k] = NULL;
    } else {
      *out = res[0];
      res[0] = NULL;
    }
  }
  for (int k = 0; k < n; k++) rval_unref(res[k]);
  return s;
}
