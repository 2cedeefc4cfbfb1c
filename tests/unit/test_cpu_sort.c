/* The cpu backend's sort (src/cpu/sort.c): the radix sort of comparators
 * that are a plain order on one operand, against the interpreter (and, for
 * rows too long for it, against the backend's own comparator path: the
 * same comparator wrapped so that it is not recognized), bit for bit, on 1
 * and 3 threads. Data: duplicates, NaNs of both signs and several
 * payloads, both zeros, subnormals (which DAZ reads as zeros), infinities,
 * integer extremes; long rows also values spread over many binades (or
 * random integer bits), values that share their top 16 bits (where the
 * MSD split must leave the row to the LSD passes) and three heavy values
 * among spread ones (buckets of one key, small buckets between them). Each module also checks whether the radix sort fired
 * (CpuCompileStats.nradix): comparators that are not a plain order (two
 * keys, LE, a non-zero canonicalization constant, FLOAT order of
 * canonicalized values, keys of other operands' parameters) must not. */
#include <stdint.h>
#include <stdlib.h>

#include "harness.h"
#include "cpu/cpu.h"
#include "interp/interp.h"
#include "runtime/threadpool.h"
#include "verify/verify.h"

static RtPool *pool;

/* The raw bits of a float type: sign, exponent mask, top mantissa bit. */
static bool float_bits(ElemType t, uint64_t *s, uint64_t *e, uint64_t *mt) {
  switch (t) {
  case T_F16: *s = 0x8000, *e = 0x7c00, *mt = 0x200; return true;
  case T_BF16: *s = 0x8000, *e = 0x7f80, *mt = 0x40; return true;
  case T_F32: *s = 0x80000000u, *e = 0x7f800000u, *mt = 0x400000u; return true;
  case T_F64: *s = 1ull << 63, *e = 0x7ffull << 52, *mt = 1ull << 51; return true;
  default: return false;
  }
}

/* Distributions of test data (fill). */
typedef enum {
  D_DUPS,   /* many duplicates and, one element in 6, a special value */
  D_SPREAD, /* floats: values over many binades; integers: random bits */
  D_NARROW, /* every key with the same top 16 bits */
  D_HEAVY,  /* three values 30% each, the rest spread */
  D_EQUAL,  /* one value throughout */
  D_ZEROS,  /* floats: +0, -0, subnormals of both signs, NaNs (when nans), a few +-1 */
  D_UP,     /* ascending (floats from -inf to +inf, NaNs at the end when nans) */
  D_DOWN,   /* descending */
  D_FEW,    /* four values */
} Dist;

/* Deterministic data of distribution d; in D_DUPS, NaNs only when nans,
 * and with seeds above 1000, no zeros, subnormals or NaNs (elements and
 * keys then map one to one). */
static void fill(Literal *l, uint64_t seed, bool nans, Dist d) {
  bool plain = seed > 1000;
  uint64_t x = seed * 2654435761u + 88172645463325252ull, s = 0, e = 0, mt = 0;
  int es = type_bytes(l->type);
  bool fl = float_bits(l->type, &s, &e, &mt);
  for (int64_t i = 0; i < l->nelems; i++) {
    x ^= x << 13, x ^= x >> 7, x ^= x << 17;
    uint64_t r = x >> 16;
    int64_t rank = d == D_DOWN ? l->nelems - 1 - i : i;
    if (d == D_EQUAL) {
      if (fl) literal_set_f64(l, i, -3.75);
      else literal_set_i64(l, i, 5);
    } else if (d == D_ZEROS && fl) {
      /* +0, -0, subnormals of both signs; NaNs of several payloads */
      const uint64_t sp[] = {0, s, 1, s | 1, s | (mt >> 1), mt >> 3, e | mt, s | e | 1};
      if (r % 16 == 0) literal_set_f64(l, i, r & 32 ? 1.0 : -1.0);
      else memcpy((char *)l->data + i * es, &sp[r % (nans ? 8 : 6)], (size_t)es);
    } else if ((d == D_UP || d == D_DOWN) && fl) {
      int64_t m = l->nelems;
      if (rank == 0) literal_set_f64(l, i, -INFINITY);
      else if (rank == m - 1 && nans) memcpy((char *)l->data + i * es, &(uint64_t){e | mt}, (size_t)es);
      else if (rank == m - 1 || (rank == m - 2 && nans)) literal_set_f64(l, i, INFINITY);
      else literal_set_f64(l, i, (double)(rank - m / 2) * 0.5);
    } else if (d == D_UP || d == D_DOWN) {
      literal_set_i64(l, i, rank - 100);
    } else if (d == D_FEW) {
      const double v[] = {2.5, -1.0, 0.0, 7.0};
      if (fl) literal_set_f64(l, i, v[r % 4]);
      else literal_set_i64(l, i, (int64_t)(r % 4) * 3 - 4);
    } else if (l->type == T_PRED) {
      ((uint8_t *)l->data)[i] = r & 1;
    } else if (d == D_NARROW) {
      /* f32 / f64: 1 + k ulp; integers: small non-negative */
      if (fl) literal_set_f64(l, i, 1.0 + (double)(r % 65536) * (l->type == T_F64 ? 0x1p-52 : 0x1p-23));
      else literal_set_i64(l, i, (int64_t)(r % 60000));
    } else if (d == D_HEAVY && r % 10 < 9) {
      const double v[] = {1.5, -2.25, 100.0};
      if (fl) literal_set_f64(l, i, v[r % 3]);
      else literal_set_i64(l, i, (int64_t)(r % 3) * 1000003 - 7);
    } else if (d != D_DUPS) {
      if (fl) {
        literal_set_f64(l, i, (double)((int64_t)(r % 4000001) - 2000000) * 0.37e-3);
      } else {
        uint64_t b = x;
        memcpy((char *)l->data + i * es, &b, (size_t)es);
      }
    } else if (r % 6 == 0 && fl && !plain) {
      const uint64_t sp[] = {0, s, 1, s | (mt >> 1), e, s | e, e | mt, s | e | mt, e | 1, s | e | (mt >> 2)};
      int nsp = nans ? 10 : 6;
      uint64_t b = sp[(r / 6) % (uint64_t)nsp];
      memcpy((char *)l->data + i * es, &b, (size_t)es);
    } else if (r % 6 == 0 && !fl) {
      int w = type_bits(l->type);
      bool sgn = type_kind(l->type) == TK_SINT;
      uint64_t top = w == 64 ? ~0ull : (1ull << w) - 1;
      const uint64_t sp[] = {0, top, 1, sgn ? top >> 1 : top, sgn ? (top >> 1) + 1 : 0};
      uint64_t b = sp[(r / 6) % 5];
      memcpy((char *)l->data + i * es, &b, (size_t)es);
    } else if (fl) {
      literal_set_f64(l, i, (double)(int64_t)(r % 401) / 4.0 - 50.125);
    } else {
      literal_set_i64(l, i, (int64_t)(r % 301) - 150);
    }
  }
}

static bool same_bytes(const Literal *a, const Literal *b) {
  if (a->type != b->type || a->ntuple != b->ntuple || a->nelems != b->nelems) return false;
  if (a->type == T_TUPLE) {
    for (int i = 0; i < a->ntuple; i++)
      if (!same_bytes(a->tuple[i], b->tuple[i])) return false;
    return true;
  }
  return a->nelems == 0 || !memcmp(a->data, b->data, (size_t)a->nelems * (size_t)type_bytes(a->type));
}

static cxla_status parse(const char *text, cxla_module **m) {
  cxla_status s = cxla_module_parse(text, strlen(text), "sort", m);
  return s ? s : verify_module(*m);
}

/* Runs a compiled module on 1, 2 and 3 threads (radix -1: a reference,
 * no radix sort, on one thread); all results must be
 * `want` (or the first becomes it when want is NULL). */
static bool run_cpu(const char *name, const cxla_module *m, Literal **args, int radix, Literal **want) {
  CpuExecutable *x = NULL;
  cxla_status s = cpu_compile(m, NULL, &x);
  bool ok = !s, ref = false;
  if (radix < 0) radix = 0, ref = true;
  if (ok && cpu_executable_stats(x)->nradix != radix) {
    fprintf(stderr, "%s: %d radix sorts, expected %d\n", name, cpu_executable_stats(x)->nradix, radix);
    ok = false;
  }
  for (int threads = 1; ok && threads <= (ref ? 1 : 3); threads++) {
    Literal *got = NULL;
    CpuExecOptions o = {.pool = pool, .num_threads = threads};
    s = cpu_execute_opts(x, args, m->entry->nparams, &o, &got);
    if (s) break;
    if (!*want) {
      *want = got;
      continue;
    }
    if (!same_bytes(*want, got)) {
      fprintf(stderr, "%s: %d threads: results differ\n", name, threads);
      ok = false;
    }
    literal_free(got);
  }
  if (s) fprintf(stderr, "%s: %s\n", name, cxla_status_message(s));
  cxla_status_free(s);
  cpu_executable_destroy(x);
  return ok && !s;
}

/* The arguments of m's entry (*out, n of them: free_args), filled. */
static cxla_status make_args(const cxla_module *m, uint64_t seed, bool nans, Dist d, Literal ***out) {
  int n = m->entry->nparams;
  Literal **a = cxla_calloc((size_t)n, sizeof *a);
  *out = a;
  if (!a) return cxla_oom();
  for (int i = 0; i < n; i++) {
    TRY(literal_create_for_shape(m->entry->params[i]->shape, &a[i]));
    fill(a[i], seed + (uint64_t)i, nans, d);
  }
  return NULL;
}

static void free_args(const cxla_module *m, Literal **a) {
  for (int i = 0; a && i < m->entry->nparams; i++) literal_free(a[i]);
  cxla_free(a);
}

/* The cpu backend against the interpreter; radix: sorts expected to take
 * the radix sort. */
static bool check_dist(const char *name, const char *text, int radix, bool nans, uint64_t seed, Dist d) {
  cxla_module *m = NULL;
  Literal *want = NULL;
  Literal **args = NULL;
  cxla_status s = parse(text, &m);
  if (!s) s = make_args(m, seed, nans, d, &args);
  if (!s) s = cxla_interp_run(m, args, m->entry->nparams, &want);
  bool ok = !s && run_cpu(name, m, args, radix, &want);
  if (s) fprintf(stderr, "%s: %s\n", name, cxla_status_message(s));
  cxla_status_free(s);
  literal_free(want);
  if (m) free_args(m, args);
  cxla_module_destroy(m);
  return ok;
}

static bool check_seed(const char *name, const char *text, int radix, bool nans, uint64_t seed) {
  return check_dist(name, text, radix, nans, seed, D_DUPS);
}

static bool check(const char *name, const char *text, int radix, bool nans) {
  return check_seed(name, text, radix, nans, 7) && check_seed(name, text, radix, nans, 1001);
}

/* Long rows: the radix sort against the comparator path (reference: the
 * same comparator with its result and'ed with true, not recognized). */
static bool check_long_seed(const char *name, const char *text, const char *ref_text, uint64_t seed, Dist d) {
  cxla_module *m = NULL, *r = NULL;
  Literal *want = NULL, **args = NULL;
  cxla_status s = parse(text, &m);
  if (!s) s = parse(ref_text, &r);
  if (!s) s = make_args(m, seed, true, d, &args);
  bool ok = !s && run_cpu(name, r, args, -1, &want) && run_cpu(name, m, args, 1, &want);
  if (s) fprintf(stderr, "%s: %s\n", name, cxla_status_message(s));
  cxla_status_free(s);
  literal_free(want);
  if (m) free_args(m, args);
  cxla_module_destroy(m);
  cxla_module_destroy(r);
  return ok;
}

/* With and without zeros and NaNs, and the other distributions. */
static bool check_long(const char *name, const char *text, const char *ref_text) {
  return check_long_seed(name, text, ref_text, 11, D_DUPS) && check_long_seed(name, text, ref_text, 1001, D_DUPS) &&
         check_long_seed(name, text, ref_text, 5, D_SPREAD) && check_long_seed(name, text, ref_text, 6, D_NARROW) &&
         check_long_seed(name, text, ref_text, 7, D_HEAVY);
}

/* JAX's comparator for floats: NaNs as N, zeros as +0, total order. */
static char *canon_module(const char *t, const char *shape, int dim, const char *dir, bool swap, const char *zero,
                          const char *nan, const char *cmp_type, bool wrap) {
  static char buf[4096];
  snprintf(buf, sizeof buf,
           "HloModule m\ncmp {\n  a = %s[] parameter(%d)\n  b = %s[] parameter(%d)\n"
           "  nan = %s[] constant(%s)\n  z = %s[] constant(%s)\n"
           "  na = pred[] compare(a, a), direction=NE\n  ea = pred[] compare(a, z), direction=EQ\n"
           "  sa = %s[] select(ea, z, a)\n  ca = %s[] select(na, nan, sa)\n"
           "  nb = pred[] compare(b, b), direction=NE\n  eb = pred[] compare(z, b), direction=EQ\n"
           "  sb = %s[] select(nb, nan, b)\n  cb = %s[] select(eb, z, sb)\n"
           "  %s = pred[] compare(ca, cb), direction=%s, type=%s\n%s}\n"
           "ENTRY e {\n  x = %s%s parameter(0)\n  ROOT s = %s%s sort(x), dimensions={%d}, is_stable=true, "
           "to_apply=cmp\n}\n",
           t, swap ? 1 : 0, t, swap ? 0 : 1, t, nan, t, zero, t, t, t, t, wrap ? "l" : "ROOT l", dir, cmp_type,
           wrap ? "  tr = pred[] constant(true)\n  ROOT w = pred[] and(l, tr)\n" : "", t, shape, t, shape, dim);
  return buf;
}

/* compare(p0, p1) on one operand. */
static char *plain_module(const char *t, const char *shape, int dim, const char *dir, const char *type_attr,
                          bool wrap) {
  static char buf[2048];
  snprintf(buf, sizeof buf,
           "HloModule m\ncmp {\n  a = %s[] parameter(0)\n  b = %s[] parameter(1)\n"
           "  %s = pred[] compare(a, b), direction=%s%s\n%s}\n"
           "ENTRY e {\n  x = %s%s parameter(0)\n  ROOT s = %s%s sort(x), dimensions={%d}, is_stable=true, "
           "to_apply=cmp\n}\n",
           t, t, wrap ? "l" : "ROOT l", dir, type_attr,
           wrap ? "  tr = pred[] constant(true)\n  ROOT w = pred[] and(l, tr)\n" : "", t, shape, t, shape, dim);
  return buf;
}

TEST(jax_float_comparator) {
  const char *types[] = {"f32", "f64", "bf16", "f16"};
  for (int i = 0; i < 4; i++) {
    const char *t = types[i];
    CHECK(check(t, canon_module(t, "[1000]", 0, "LT", false, "0", "nan", "TOTALORDER", false), 1, true));
    CHECK(check(t, canon_module(t, "[3,333]", 1, "GT", false, "0", "nan", "TOTALORDER", false), 1, true));
    CHECK(check(t, canon_module(t, "[77,4]", 0, "LT", true, "-0", "-nan", "TOTALORDER", false), 1, true));
  }
  /* rows of 1 and 2, short rows (insertion sort) and an empty one */
  CHECK(check("len1", canon_module("f32", "[5,1]", 1, "LT", false, "0", "nan", "TOTALORDER", false), 1, true));
  CHECK(check("len2", canon_module("f32", "[9,2]", 1, "LT", false, "0", "nan", "TOTALORDER", false), 1, true));
  CHECK(check("len2dim0", canon_module("f32", "[2,9]", 0, "GT", false, "0", "nan", "TOTALORDER", false), 1, true));
  CHECK(check("len31", canon_module("f64", "[4,31]", 1, "LT", false, "0", "nan", "TOTALORDER", false), 1, true));
  CHECK(check("empty", canon_module("f32", "[3,0]", 1, "LT", false, "0", "nan", "TOTALORDER", false), 1, true));
  /* NaNs as -inf: still a plain order */
  CHECK(check("consts", canon_module("f32", "[500]", 0, "LT", false, "0", "-inf", "TOTALORDER", false), 1, true));
}

TEST(plain_orders) {
  const char *ints[] = {"s8", "u8", "s16", "u16", "s32", "u32", "s64", "u64", "pred"};
  for (int i = 0; i < 9; i++) {
    CHECK(check(ints[i], plain_module(ints[i], "[4,300]", 1, "LT", "", false), 1, false));
    CHECK(check(ints[i], plain_module(ints[i], "[300,2]", 0, "GT", "", false), 1, false));
  }
  CHECK(check("s32_signed", plain_module("s32", "[600]", 0, "LT", ", type=SIGNED", false), 1, false));
  CHECK(check("u64_unsigned", plain_module("u64", "[600]", 0, "GT", ", type=UNSIGNED", false), 1, false));
  /* IEEE order: -0 = +0 = subnormals under DAZ (not f16); rows with NaNs
   * take the comparator */
  const char *floats[] = {"f32", "f64", "bf16", "f16"};
  for (int i = 0; i < 4; i++) {
    CHECK(check(floats[i], plain_module(floats[i], "[3,500]", 1, "LT", "", false), 1, false));
    CHECK(check(floats[i], plain_module(floats[i], "[500,3]", 0, "GT", ", type=FLOAT", false), 1, false));
    CHECK(check(floats[i], plain_module(floats[i], "[3,500]", 1, "LT", "", false), 1, true));
    CHECK(check(floats[i], plain_module(floats[i], "[3,500]", 1, "GT", ", type=TOTALORDER", false), 1, true));
  }
}

TEST(several_operands) {
  /* argsort: f32 keys, s32 positions */
  CHECK(check("argsort",
              "HloModule m\ncmp {\n  a = f32[] parameter(0)\n  b = f32[] parameter(1)\n"
              "  i = s32[] parameter(2)\n  j = s32[] parameter(3)\n"
              "  ROOT l = pred[] compare(a, b), direction=LT, type=TOTALORDER\n}\n"
              "ENTRY e {\n  x = f32[4,700] parameter(0)\n  io = s32[4,700] iota(), iota_dimension=1\n"
              "  ROOT s = (f32[4,700], s32[4,700]) sort(x, io), dimensions={1}, is_stable=true, to_apply=cmp\n}\n",
              1, true));
  /* the key is the second operand; payloads of 1, 8 and 16 bytes; sorted along dim 0 */
  CHECK(check("key_second",
              "HloModule m\ncmp {\n  a = u8[] parameter(0)\n  b = u8[] parameter(1)\n"
              "  c = s32[] parameter(2)\n  d = s32[] parameter(3)\n  e = f64[] parameter(4)\n"
              "  f = f64[] parameter(5)\n  g = c64[] parameter(6)\n  h = c64[] parameter(7)\n"
              "  ROOT l = pred[] compare(d, c), direction=LT\n}\n"
              "ENTRY e {\n  x = u8[600,3] parameter(0)\n  k = s32[600,3] parameter(1)\n"
              "  v = f64[600,3] parameter(2)\n  w = c64[600,3] parameter(3)\n"
              "  ROOT s = (u8[600,3], s32[600,3], f64[600,3], c64[600,3]) sort(x, k, v, w), dimensions={0}, "
              "to_apply=cmp\n}\n",
              1, false));
}

TEST(not_recognized) {
  /* two keys (lexicographic) */
  CHECK(check("two_keys",
              "HloModule m\ncmp {\n  a = s32[] parameter(0)\n  b = s32[] parameter(1)\n"
              "  c = s32[] parameter(2)\n  d = s32[] parameter(3)\n"
              "  l1 = pred[] compare(a, b), direction=LT\n  e1 = pred[] compare(a, b), direction=EQ\n"
              "  l2 = pred[] compare(c, d), direction=LT\n  a2 = pred[] and(e1, l2)\n"
              "  ROOT o = pred[] or(l1, a2)\n}\n"
              "ENTRY e {\n  x = s32[300] parameter(0)\n  y = s32[300] parameter(1)\n"
              "  ROOT s = (s32[300], s32[300]) sort(x, y), dimensions={0}, is_stable=true, to_apply=cmp\n}\n",
              0, false));
  /* LE is not a strict order */
  CHECK(check("le", plain_module("s32", "[300]", 0, "LE", "", false), 0, false));
  /* elements of two operands compared */
  CHECK(check("cross",
              "HloModule m\ncmp {\n  a = s32[] parameter(0)\n  b = s32[] parameter(1)\n"
              "  c = s32[] parameter(2)\n  d = s32[] parameter(3)\n  ROOT l = pred[] compare(a, d), direction=LT\n}\n"
              "ENTRY e {\n  x = s32[300] parameter(0)\n  y = s32[300] parameter(1)\n"
              "  ROOT s = (s32[300], s32[300]) sort(x, y), dimensions={0}, is_stable=true, to_apply=cmp\n}\n",
              0, false));
  /* canonicalization to a non-zero value test, FLOAT order of canonical
   * values, a wrapped comparator */
  CHECK(check("eq_one", canon_module("f32", "[400]", 0, "LT", false, "1", "nan", "TOTALORDER", false), 0, true));
  CHECK(check("float_order", canon_module("f32", "[400]", 0, "LT", false, "0", "nan", "FLOAT", false), 0, false));
  CHECK(check("wrapped", canon_module("f32", "[400]", 0, "LT", false, "0", "nan", "TOTALORDER", true), 0, true));
  /* a transformed key: abs */
  CHECK(check("abs",
              "HloModule m\ncmp {\n  a = f32[] parameter(0)\n  b = f32[] parameter(1)\n"
              "  x = f32[] abs(a)\n  y = f32[] abs(b)\n  ROOT l = pred[] compare(x, y), direction=LT\n}\n"
              "ENTRY e {\n  x = f32[300] parameter(0)\n  ROOT s = f32[300] sort(x), dimensions={0}, to_apply=cmp\n}\n",
              0, false));
}

/* argsort (sort of x and an iota) along dim 1 of shape [rows, len], LT
 * on the f32 keys, TOTALORDER; wrap: the comparator not recognized. */
static char *argsort_module(int rows, int len, bool wrap) {
  static char buf[2048];
  snprintf(buf, sizeof buf,
           "HloModule m\ncmp {\n  a = f32[] parameter(0)\n  b = f32[] parameter(1)\n"
           "  i = s32[] parameter(2)\n  j = s32[] parameter(3)\n"
           "  %s = pred[] compare(a, b), direction=LT, type=TOTALORDER\n%s}\n"
           "ENTRY e {\n  x = f32[%d,%d] parameter(0)\n  io = s32[%d,%d] iota(), iota_dimension=1\n"
           "  ROOT s = (f32[%d,%d], s32[%d,%d]) sort(x, io), dimensions={1}, is_stable=true, to_apply=cmp\n}\n",
           wrap ? "l" : "ROOT l", wrap ? "  tr = pred[] constant(true)\n  ROOT w = pred[] and(l, tr)\n" : "", rows,
           len, rows, len, rows, len, rows, len);
  return buf;
}

TEST(long_rows) {
  /* one long row: every thread sorts a chunk of each pass (11-bit digits) */
  char a[4096], b[4096];
  snprintf(a, sizeof a, "%s", canon_module("f32", "[1000003]", 0, "LT", false, "0", "nan", "TOTALORDER", false));
  snprintf(b, sizeof b, "%s", canon_module("f32", "[1000003]", 0, "LT", false, "0", "nan", "TOTALORDER", true));
  CHECK(check_long("f32_1000003", a, b));
  snprintf(a, sizeof a, "%s", canon_module("f64", "[2,300001]", 1, "GT", false, "0", "nan", "TOTALORDER", false));
  snprintf(b, sizeof b, "%s", canon_module("f64", "[2,300001]", 1, "GT", false, "0", "nan", "TOTALORDER", true));
  CHECK(check_long("f64_2x300001", a, b));
  snprintf(a, sizeof a, "%s", plain_module("s32", "[140000,2]", 0, "LT", "", false));
  snprintf(b, sizeof b, "%s", plain_module("s32", "[140000,2]", 0, "LT", "", true));
  CHECK(check_long("s32_dim0", a, b));
  snprintf(a, sizeof a, "%s", plain_module("bf16", "[300000]", 0, "LT", "", false));
  snprintf(b, sizeof b, "%s", plain_module("bf16", "[300000]", 0, "LT", "", true));
  CHECK(check_long("bf16_nan_rows", a, b));
  /* the MSD split: 32 and 64-bit integer keys; indices carried; long rows
   * over the threads, each split on one */
  snprintf(a, sizeof a, "%s", plain_module("u32", "[200000]", 0, "LT", "", false));
  snprintf(b, sizeof b, "%s", plain_module("u32", "[200000]", 0, "LT", "", true));
  CHECK(check_long("u32_msd", a, b));
  snprintf(a, sizeof a, "%s", plain_module("s64", "[150000]", 0, "GT", "", false));
  snprintf(b, sizeof b, "%s", plain_module("s64", "[150000]", 0, "GT", "", true));
  CHECK(check_long("s64_msd", a, b));
  snprintf(a, sizeof a, "%s", argsort_module(1, 400000, false));
  snprintf(b, sizeof b, "%s", argsort_module(1, 400000, true));
  CHECK(check_long("argsort_msd", a, b));
  snprintf(a, sizeof a, "%s", argsort_module(4, 140000, false));
  snprintf(b, sizeof b, "%s", argsort_module(4, 140000, true));
  CHECK(check_long("argsort_rows_msd", a, b));
  snprintf(a, sizeof a, "%s", canon_module("f32", "[4,140000]", 1, "GT", false, "0", "nan", "TOTALORDER", false));
  snprintf(b, sizeof b, "%s", canon_module("f32", "[4,140000]", 1, "GT", false, "0", "nan", "TOTALORDER", true));
  CHECK(check_long("f32_rows_msd", a, b));
  /* NaNs merged with -inf: each run of equal keys gets its elements back
   * in their order */
  snprintf(a, sizeof a, "%s", canon_module("f32", "[300000]", 0, "LT", false, "0", "-inf", "TOTALORDER", false));
  snprintf(b, sizeof b, "%s", canon_module("f32", "[300000]", 0, "LT", false, "0", "-inf", "TOTALORDER", true));
  CHECK(check_long("f32_nan_as_inf_msd", a, b));
  /* many rows over the threads */
  snprintf(a, sizeof a, "%s", plain_module("u16", "[64,5000]", 1, "GT", "", false));
  snprintf(b, sizeof b, "%s", plain_module("u16", "[64,5000]", 1, "GT", "", true));
  CHECK(check_long("u16_rows", a, b));
}

/* text with its ", is_stable=true" dropped: the same sort, unstable */
static char *unstable(const char *text) {
  static char buf[4096];
  const char *flag = ", is_stable=true", *at = strstr(text, flag);
  int n = at ? (int)(at - text) : (int)strlen(text);
  snprintf(buf, sizeof buf, "%.*s%s", n, text, at ? at + strlen(flag) : "");
  return buf;
}

/* is_stable=false: std::sort's order of equal keys (base/stdsort_impl.h,
 * which test_stdsort checks against libstdc++), by the plan's keys or, in
 * rows with NaNs the keys cannot order and for comparators not recognized,
 * by calling the comparator; the interpreter always calls it. Equal keys
 * with different payloads (an iota, both zeros, NaN payloads) show the
 * order. */
TEST(unstable_orders) {
  CHECK(check("argsort", unstable(argsort_module(4, 700, false)), 1, true));
  CHECK(check("argsort_called", unstable(argsort_module(3, 500, true)), 0, true));
  CHECK(check("jax_f32", unstable(canon_module("f32", "[3,333]", 1, "GT", false, "0", "nan", "TOTALORDER", false)), 1,
              true));
  CHECK(check("key_second_of_three",
              "HloModule m\ncmp {\n  a = bf16[] parameter(0)\n  b = bf16[] parameter(1)\n"
              "  c = f32[] parameter(2)\n  d = f32[] parameter(3)\n  e = s32[] parameter(4)\n  f = s32[] parameter(5)\n"
              "  ROOT l = pred[] compare(c, d), direction=GT\n}\n"
              "ENTRY e {\n  x = bf16[300,3] parameter(0)\n  k = f32[300,3] parameter(1)\n"
              "  io = s32[300,3] iota(), iota_dimension=0\n"
              "  ROOT s = (bf16[300,3], f32[300,3], s32[300,3]) sort(x, k, io), dimensions={0}, to_apply=cmp\n}\n",
              1, true));
  /* one operand: IEEE order ties -0, +0 and subnormals (NaNs: the comparator) */
  for (int nans = 0; nans < 2; nans++) {
    CHECK(check_dist("f32_zeros", unstable(plain_module("f32", "[3,500]", 1, "LT", "", false)), 1, nans, 7, D_ZEROS));
    CHECK(check_dist("bf16_zeros", unstable(plain_module("bf16", "[500,3]", 0, "GT", ", type=FLOAT", false)), 1, nans,
                     8, D_ZEROS));
  }
  /* NaNs but no zeros or subnormals (made 1): such rows still call the comparator */
  CHECK(check("f32_nans",
              "HloModule m\ncmp {\n  a = f32[] parameter(0)\n  b = f32[] parameter(1)\n"
              "  ROOT l = pred[] compare(a, b), direction=LT\n}\n"
              "ENTRY e {\n  x = f32[4,300] parameter(0)\n  z = f32[] constant(0)\n  zb = f32[4,300] broadcast(z)\n"
              "  one = f32[] constant(1)\n  ob = f32[4,300] broadcast(one)\n"
              "  q = pred[4,300] compare(x, zb), direction=EQ\n  y = f32[4,300] select(q, ob, x)\n"
              "  ROOT s = f32[4,300] sort(y), dimensions={1}, to_apply=cmp\n}\n",
              1, true));
  /* two keys: the comparator */
  CHECK(check("two_keys",
              "HloModule m\ncmp {\n  a = s32[] parameter(0)\n  b = s32[] parameter(1)\n"
              "  c = s32[] parameter(2)\n  d = s32[] parameter(3)\n  e = f32[] parameter(4)\n  f = f32[] parameter(5)\n"
              "  l1 = pred[] compare(a, b), direction=LT\n  e1 = pred[] compare(a, b), direction=EQ\n"
              "  l2 = pred[] compare(c, d), direction=LT\n  a2 = pred[] and(e1, l2)\n"
              "  ROOT o = pred[] or(l1, a2)\n}\n"
              "ENTRY e {\n  x = s32[2,300] parameter(0)\n  y = s32[2,300] parameter(1)\n  z = f32[2,300] parameter(2)\n"
              "  ROOT s = (s32[2,300], s32[2,300], f32[2,300]) sort(x, y, z), dimensions={1}, to_apply=cmp\n}\n",
              0, false));
}

/* The AVX-512 sort of 32-bit keys (and, with CXLA_CPU_SORT_ISA=base, the
 * radix sort it replaces) against the interpreter: row lengths around the
 * vector widths and the network sizes up to 2000, rows of one value, of
 * zeros of both signs, subnormals and NaNs, sorted and reversed rows, few
 * values; ascending and descending; f32 (JAX's comparator), s32, u32. */
TEST(vector_sort) {
  const int lens[] = {0, 1, 2, 3, 15, 16, 17, 31, 33, 47, 63, 64, 65, 127, 129, 200, 255, 256, 257, 300,
                      511, 513, 777, 1023, 1025, 1500, 1999, 2000};
  const Dist dists[] = {D_DUPS, D_EQUAL, D_ZEROS, D_UP, D_DOWN, D_FEW, D_SPREAD};
  const char *caps[] = {NULL, "base"};
  char shape[32], name[96];
  for (int c = 0; c < 2; c++) {
    if (caps[c]) setenv("CXLA_CPU_SORT_ISA", caps[c], 1);
    for (size_t i = 0; i < sizeof lens / sizeof *lens; i++) {
      snprintf(shape, sizeof shape, "[%d]", lens[i]);
      /* three distributions a length, in turn */
      for (size_t j = 0; j < 3; j++) {
        size_t k = (3 * i + j) % (sizeof dists / sizeof *dists);
        snprintf(name, sizeof name, "f32 len %d dist %d%s", lens[i], (int)dists[k], caps[c] ? " base" : "");
        bool nans = (i + j) % 2 == 0;
        CHECK(check_dist(name, canon_module("f32", shape, 0, i % 3 ? "LT" : "GT", false, "0", "nan", "TOTALORDER", false),
                         1, nans, 7 + i, dists[k]));
      }
      if (i % 4 == 1) {
        snprintf(name, sizeof name, "s32/u32 len %d%s", lens[i], caps[c] ? " base" : "");
        CHECK(check_dist(name, plain_module("s32", shape, 0, "LT", "", false), 1, false, 3 + i, D_SPREAD));
        CHECK(check_dist(name, plain_module("u32", shape, 0, "GT", "", false), 1, false, 5 + i, D_DUPS));
        CHECK(check_dist(name, plain_module("s32", shape, 0, "GT", "", false), 1, false, 9 + i, D_FEW));
        /* IEEE order: rows with NaNs take the comparator */
        CHECK(check_dist(name, plain_module("f32", shape, 0, "LT", "", false), 1, i % 8 == 1, 11 + i, D_ZEROS));
      }
    }
    /* rows of several lengths over the threads */
    snprintf(name, sizeof name, "f32 rows%s", caps[c] ? " base" : "");
    CHECK(check_dist(name, canon_module("f32", "[37,301]", 1, "LT", false, "0", "nan", "TOTALORDER", false), 1, true, 3,
                     D_ZEROS));
    /* long rows split over the threads: zeros, one value, sorted */
    const Dist ld[] = {D_ZEROS, D_EQUAL, D_DOWN};
    for (int k = 0; k < 3; k++) {
      snprintf(name, sizeof name, "f32 long dist %d%s", (int)ld[k], caps[c] ? " base" : "");
      CHECK(check_dist(name, canon_module("f32", "[200003]", 0, k % 2 ? "GT" : "LT", false, "0", "nan", "TOTALORDER", false),
                       1, true, 21, ld[k]));
    }
    unsetenv("CXLA_CPU_SORT_ISA");
  }
}

int main(void) {
  if (rt_pool_create(3, &pool)) return 1;
  RUN(jax_float_comparator);
  RUN(plain_orders);
  RUN(several_operands);
  RUN(not_recognized);
  RUN(unstable_orders);
  RUN(long_rows);
  RUN(vector_sort);
  /* the radix sorts the vector sort replaces */
  setenv("CXLA_CPU_SORT_ISA", "base", 1);
  RUN(long_rows);
  unsetenv("CXLA_CPU_SORT_ISA");
  rt_pool_destroy(pool);
  return test_summary(__FILE__);
}
