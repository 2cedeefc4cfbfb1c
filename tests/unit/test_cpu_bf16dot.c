/* The CPU backend's bf16 x bf16 dots accumulated in f32 (intdot.h's
 * bf16_gemm: the AMX tile kernels of amx.c and the AVX512-BF16 kernel
 * of bgemm.c, each skipped where the CPU lacks
 * them, and the widen + sgemm fallback) against the interpreter: through
 * the compiled program (the dot's GEMM step), through each kernel
 * directly (forced), and through the optimized program, where the
 * bf16 -> f32 converts feeding a GEMM are skipped (the GEMM reads bf16)
 * and where they must not be (a convert with other users, a fusion
 * parameter read by more than the dot, a dot too small for a GEMM).
 * f32 and bf16 results, transposed operand storage, batches, edge tiles
 * (sizes 1, 3, 17, 33, ...), contractions not a multiple of 32, NaN and
 * infinity operands.
 *
 * Tolerance: the kernels sum in their own order in f32, the interpreter
 * in its own: element (i, j) may differ by 2K 2^-24 sum_k |a_ik b_kj|
 * (computed by the interpreter on |a|, |b|), and a bf16 result by one
 * bf16 rounding (an ulp: 2^-7 of its value) more. NaN where NaN. */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>

#include "harness.h"
#include "cpu/cpu.h"
#include "cpu/intdot.h"
#include "interp/interp.h"
#include "passes/passes.h"
#include "verify/verify.h"

static RtPool *pool; /* two threads: products of two row blocks or more split */

static float bf(uint16_t v) {
  uint32_t u = (uint32_t)v << 16;
  float f;
  memcpy(&f, &u, 4);
  return f;
}

/* Element i of a result (f32 or bf16 storage) as a double. */
static double elem(const void *c, bool is_bf16, int64_t i) {
  return is_bf16 ? bf(((const uint16_t *)c)[i]) : ((const float *)c)[i];
}

/* Whether got (n elements) is within tolerance of want; sumabs: the
 * interpreter's result on |a|, |b|. */
static bool close_to(const char *what, const Literal *want, const Literal *sumabs, const void *got, int64_t k) {
  bool is_bf16 = want->type == T_BF16;
  for (int64_t i = 0; i < want->nelems; i++) {
    double w = literal_get_f64(want, i), g = elem(got, is_bf16, i), s = literal_get_f64(sumabs, i);
    double tol = 2.0 * (double)k * ldexp(fabs(s), -24) + (is_bf16 ? ldexp(fabs(w), -7) : 0);
    bool ok = isnan(w) ? isnan(g) : !isnan(g) && (w == g || fabs(w - g) <= tol);
    if (!ok) {
      fprintf(stderr, "%s: element %lld: want %.9g got %.9g (tolerance %.3g)\n", what, (long long)i, w, g, tol);
      return false;
    }
  }
  return true;
}

/* close_to over results (tuples element by element). */
static bool close_results(const char *what, const Literal *want, const Literal *sumabs, const Literal *got, int64_t k) {
  if (want->type == T_TUPLE || got->type == T_TUPLE) {
    bool ok = want->type == got->type && want->ntuple == got->ntuple && sumabs->ntuple == want->ntuple;
    for (int i = 0; ok && i < want->ntuple; i++) ok = close_results(what, want->tuple[i], sumabs->tuple[i], got->tuple[i], k);
    if (!ok) fprintf(stderr, "%s: tuple results differ\n", what);
    return ok;
  }
  return want->type == got->type && want->nelems == got->nelems && close_to(what, want, sumabs, got->data, k);
}

/* f32 to bf16, to nearest even (NaN: any NaN). */
static uint16_t round_bf16(float f) {
  uint32_t u;
  memcpy(&u, &f, 4);
  if (isnan(f)) return 0x7fc0;
  return (uint16_t)((u + 0x7fffu + ((u >> 16) & 1)) >> 16);
}

/* A bf16 result is the kernel's f32 result rounded once, to nearest even:
 * runs kernel kern both ways and compares exactly. */
static bool check_rounding(const char *what, const AmxGemm *g, const Literal *const *args, Bf16Kernel kern) {
  AmxGemm gf = *g;
  gf.out_bf16 = false;
  int64_t n = g->batch * g->m * g->n;
  float *f = malloc((size_t)n * 4 + 4);
  uint16_t *h = malloc((size_t)n * 2 + 2);
  bool ok = f && h && !bf16_gemm(&gf, args[0]->data, args[1]->data, f, kern, pool, 0) &&
            !bf16_gemm(g, args[0]->data, args[1]->data, h, kern, pool, 0);
  for (int64_t i = 0; ok && i < n; i++) {
    uint16_t want = round_bf16(f[i]);
    if (want == h[i] || (isnan(f[i]) && (h[i] & 0x7fff) > 0x7f80)) continue;
    fprintf(stderr, "%s: element %lld: f32 %.9g rounds to 0x%04x, got 0x%04x\n", what, (long long)i, f[i], want, h[i]);
    ok = false;
  }
  free(f);
  free(h);
  return ok;
}

/* special: 0 random values in [-4, 4); 1 as 0 with a NaN in a; 2 as 0
 * with +inf in a and zeros in b's first row (inf x 0). */
static void fill(Literal *l, uint64_t *r, int special, bool is_a) {
  uint16_t *d = l->data;
  for (int64_t e = 0; e < l->nelems; e++) {
    *r ^= *r << 13, *r ^= *r >> 7, *r ^= *r << 17;
    float f = (float)((double)(*r >> 11) / 9007199254740992.0 * 8 - 4);
    uint32_t u;
    memcpy(&u, &f, 4);
    d[e] = (uint16_t)(u >> 16);
  }
  if (special == 1 && is_a) d[l->nelems / 3] = 0x7fc0;
  if (special == 2 && is_a) d[l->nelems / 2] = 0x7f80;
  if (special == 2 && !is_a)
    for (int64_t e = 0; e < l->nelems && e < 64; e++) d[e] = 0;
}

static Literal *abs_copy(const Literal *l) {
  Literal *c = NULL;
  if (literal_create_for_shape(&(Shape){.type = l->type, .rank = l->rank, .dims = (int64_t *)l->dims}, &c)) return NULL;
  const uint16_t *s = l->data;
  uint16_t *d = c->data;
  for (int64_t e = 0; e < l->nelems; e++) d[e] = s[e] & 0x7fff;
  return c;
}

/* Runs `text` (optimized by the default pipeline when optimize) on the
 * interpreter and the cpu backend, and each forced kernel on g (NULL:
 * none); whether all agree. nbf16_direct >= 0: the converts the program
 * must skip; nrounded >= 0: the rounded products it must run as GEMM
 * steps of bf16 results (then with no kernel at all when 1). */
static bool check_n(const char *name, const char *text, int special, const AmxGemm *g, bool optimize,
                    int nbf16_direct, int nrounded) {
  cxla_module *m = NULL;
  Literal *args[2] = {0}, *abs_args[2] = {0}, *want = NULL, *sumabs = NULL, *got = NULL;
  CpuExecutable *x = NULL;
  bool ok = false;
  cxla_status s = cxla_module_parse(text, strlen(text), name, &m);
  if (!s) s = verify_module(m);
  if (!s && optimize) {
    PipelineOptions o = {.verify = true, .module_number = 1};
    s = pipeline_run(m, NULL, 0, &o);
  }
  uint64_t r = 0x9E3779B97F4A7C15ull;
  for (int i = 0; i < 2 && !s; i++) {
    s = literal_create_for_shape(m->entry->params[i]->shape, &args[i]);
    if (s) break;
    fill(args[i], &r, special, i == 0);
    if (!(abs_args[i] = abs_copy(args[i]))) s = cxla_oom();
  }
  if (!s) s = cxla_interp_run(m, args, 2, &want);
  if (!s) s = cxla_interp_run(m, abs_args, 2, &sumabs);
  if (!s) s = cpu_compile(m, NULL, &x);
  if (!s) {
    CpuExecOptions eo = {.pool = pool};
    s = cpu_execute_opts(x, args, 2, &eo, &got);
  }
  if (s) {
    fprintf(stderr, "%s: %s\n", name, cxla_status_message(s));
    goto out;
  }
  int64_t k = m->entry->params[0]->shape->dims[m->entry->params[0]->shape->rank - 1];
  if (g) k = g->k;
  if (optimize) k = 4096; /* a bound on every contraction of these modules */
  ok = close_results(name, want, sumabs, got, k);
  if (nbf16_direct >= 0 && cpu_executable_stats(x)->nbf16_direct != nbf16_direct) {
    fprintf(stderr, "%s: %d converts skipped, want %d\n", name, cpu_executable_stats(x)->nbf16_direct, nbf16_direct);
    ok = false;
  }
  const CpuCompileStats *cs = cpu_executable_stats(x);
  if (nrounded >= 0 && (cs->nbf16_rounded != nrounded || (nrounded == 1 && cs->nkernels != 0))) {
    fprintf(stderr, "%s: %d rounded products and %d kernels, want %d and no kernel\n", name, cs->nbf16_rounded,
            cs->nkernels, nrounded);
    ok = false;
  }
  for (int kern = BF16_SGEMM; g && kern <= BF16_AVX512; kern++) {
    if (kern == BF16_AMX && !amx_available(false)) continue;
    if (kern == BF16_AVX512 && !bf16_gemm_avx512_available()) continue;
    void *c = malloc((size_t)want->nelems * 4 + 4);
    cxla_status ks = c ? bf16_gemm(g, args[0]->data, args[1]->data, c, (Bf16Kernel)kern, pool, 0) : NULL;
    char what[160];
    snprintf(what, sizeof what, "%s (%s kernel)", name, kern == BF16_AMX ? "amx" : kern == BF16_AVX512 ? "avx512-bf16" : "sgemm");
    if (!c || ks) {
      fprintf(stderr, "%s: %s\n", what, ks ? cxla_status_message(ks) : "out of memory");
      ok = false;
    } else {
      ok = close_to(what, want, sumabs, c, k) && ok;
      if (g->out_bf16) ok = check_rounding(what, g, (const Literal *const *)args, (Bf16Kernel)kern) && ok;
    }
    cxla_status_free(ks);
    free(c);
  }
out:
  cxla_status_free(s);
  for (int i = 0; i < 2; i++) {
    literal_free(args[i]);
    literal_free(abs_args[i]);
  }
  literal_free(want);
  literal_free(sumabs);
  literal_free(got);
  cpu_executable_destroy(x);
  cxla_module_destroy(m);
  return ok;
}

static bool check(const char *name, const char *text, int special, const AmxGemm *g, bool optimize,
                  int nbf16_direct) {
  return check_n(name, text, special, g, optimize, nbf16_direct, -1);
}

/* bf16[batch.., m, k] (k x m when trans_a) x bf16[batch.., k, n] (n x k
 * when trans_b) -> out[batch.., m, n] ("f32" or "bf16"), unoptimized: the
 * dot is one GEMM step; every kernel forced too. */
static bool check_gen(const char *out, int64_t batch, int64_t m, int64_t n, int64_t k, bool trans_a, bool trans_b,
                      int special) {
  char name[128], text[1024], bd[32] = "", bdims[96] = "";
  int off = batch > 1 ? 1 : 0;
  if (batch > 1) {
    snprintf(bd, sizeof bd, "%lld,", (long long)batch);
    snprintf(bdims, sizeof bdims, "lhs_batch_dims={0}, rhs_batch_dims={0}, ");
  }
  snprintf(name, sizeof name, "bf16%s x bf16%s -> %s b%lld m%lld n%lld k%lld special%d", trans_a ? "^T" : "",
           trans_b ? "^T" : "", out, (long long)batch, (long long)m, (long long)n, (long long)k, special);
  snprintf(text, sizeof text,
           "HloModule m\n\nENTRY e {\n  a = bf16[%s%lld,%lld] parameter(0)\n  b = bf16[%s%lld,%lld] parameter(1)\n"
           "  ROOT d = %s[%s%lld,%lld] dot(a, b), %slhs_contracting_dims={%d}, rhs_contracting_dims={%d}\n}\n",
           bd, (long long)(trans_a ? k : m), (long long)(trans_a ? m : k), bd, (long long)(trans_b ? n : k),
           (long long)(trans_b ? k : n), out, bd, (long long)m, (long long)n, bdims, off + (trans_a ? 0 : 1),
           off + (trans_b ? 1 : 0));
  AmxGemm g = {.batch = batch, .m = m, .n = n, .k = k, .trans_a = trans_a, .trans_b = trans_b, .a = AMX_BF16,
               .b = AMX_BF16, .out_bf16 = strcmp(out, "bf16") == 0};
  return check(name, text, special, &g, false, -1);
}

TEST(kernels_layouts_and_results) {
  for (int l = 0; l < 4; l++) {
    CHECK(check_gen("f32", 1, 3, 17, 65, l & 1, l & 2, 0));
    CHECK(check_gen("bf16", 1, 65, 3, 17, l & 1, l & 2, 0));
    CHECK(check_gen("f32", 2, 33, 70, 40, l & 1, l & 2, 0));
    CHECK(check_gen("bf16", 3, 17, 33, 100, l & 1, l & 2, 0));
  }
}

/* below, at and past a tile (16 rows, 32 contraction steps), the 2 x 2
 * block (32) and a work item (128 rows); long contractions */
TEST(kernels_edge_sizes) {
  static const int64_t sizes[][3] = {{1, 1, 1},    {1, 1, 33},    {16, 16, 32},   {32, 32, 64},  {31, 33, 31},
                                     {129, 65, 97}, {128, 96, 1},  {5, 200, 2000}, {200, 5, 513}, {257, 130, 300}};
  for (size_t i = 0; i < sizeof sizes / sizeof sizes[0]; i++) {
    CHECK(check_gen("f32", 1, sizes[i][0], sizes[i][1], sizes[i][2], false, false, 0));
    CHECK(check_gen("bf16", 1, sizes[i][0], sizes[i][1], sizes[i][2], i % 2, i % 3 == 0, 0));
  }
  CHECK(check_gen("f32", 4, 40, 50, 60, true, true, 0));
  /* past the AVX512-BF16 kernel's block of 2 x 2048 steps: two blocks,
   * the second accumulating onto the first (odd: a zero step padded) */
  CHECK(check_gen("f32", 1, 13, 70, 4099, false, false, 0));
  CHECK(check_gen("bf16", 2, 7, 65, 4200, false, true, 0));
  /* a row-major lhs of whole contraction blocks: whole 32-row pairs read
   * in place, the rows past them packed; several items; batches */
  CHECK(check_gen("bf16", 1, 70, 40, 96, false, false, 0));
  CHECK(check_gen("bf16", 1, 300, 33, 64, false, true, 0));
  CHECK(check_gen("bf16", 3, 64, 40, 128, false, false, 0));
  /* a row-major rhs of whole 32-column panel pairs, packed by
   * contraction blocks: K odd and past a block, batches, one row */
  CHECK(check_gen("bf16", 1, 70, 64, 97, false, false, 0));
  CHECK(check_gen("bf16", 3, 40, 96, 64, true, false, 0));
  CHECK(check_gen("bf16", 1, 1, 32, 1, false, false, 0));
}

/* NaN and inf x 0 give NaN on every path (the fallback's plain loop) */
TEST(kernels_non_finite) {
  for (int special = 1; special <= 2; special++) {
    CHECK(check_gen("f32", 1, 40, 40, 64, false, false, special));
    CHECK(check_gen("bf16", 1, 17, 33, 45, true, false, special));
    CHECK(check_gen("bf16", 1, 80, 33, 64, false, false, special));
    CHECK(check_gen("bf16", 1, 20, 64, 45, false, false, special));
  }
}

#define MOD(BODY) "HloModule m\n\nENTRY e {\n" BODY "}\n"

/* optimized programs: the converts the GEMMs read through, and those
 * that must stay */
TEST(optimized_converts) {
  /* bf16 result: the dot in an output fusion, both converts skipped */
  CHECK(check("bf16_result", MOD("  a = bf16[64,96] parameter(0)\n  b = bf16[96,80] parameter(1)\n"
                                 "  d = bf16[64,80] dot(a, b), lhs_contracting_dims={1}, rhs_contracting_dims={0}\n"
                                 "  ROOT r = bf16[64,80] tanh(d)\n"),
              0, NULL, true, 2));
  /* bf16 result of the dot itself: fusion(convert(dot)) is one GEMM step
   * rounding its sums (no kernel); lhs and rhs as the fusion's second
   * and first parameters too; a row count that leaves a partial tile;
   * NaN */
  CHECK(check_n("bf16_dot", MOD("  a = bf16[300,96] parameter(0)\n  b = bf16[96,80] parameter(1)\n"
                                "  ROOT d = bf16[300,80] dot(a, b), lhs_contracting_dims={1}, rhs_contracting_dims={0}\n"),
                1, NULL, true, 2, 1));
  CHECK(check_n("bf16_dot_batched_t", MOD("  a = bf16[2,64,96] parameter(0)\n  b = bf16[2,80,96] parameter(1)\n"
                                          "  ROOT d = bf16[2,80,64] dot(b, a), lhs_batch_dims={0}, lhs_contracting_dims={2}, "
                                          "rhs_batch_dims={0}, rhs_contracting_dims={2}\n"),
                0, NULL, true, 2, 1));
  /* as a fusion whose dot reads its parameters swapped (an XLA dump's
   * optimized module), not optimized again */
  CHECK(check_n("bf16_dot_fusion_swapped",
                "HloModule m\n\nfc {\n  p0 = f32[96,80] parameter(0)\n  p1 = f32[70,96] parameter(1)\n"
                "  d = f32[70,80] dot(p1, p0), lhs_contracting_dims={1}, rhs_contracting_dims={0}\n"
                "  ROOT r = bf16[70,80] convert(d)\n}\n\nENTRY e {\n  a = bf16[70,96] parameter(0)\n"
                "  b = bf16[96,80] parameter(1)\n  ca = f32[70,96] convert(a)\n  cb = f32[96,80] convert(b)\n"
                "  ROOT f = bf16[70,80] fusion(cb, ca), kind=kOutput, calls=fc\n}\n",
                0, NULL, false, 2, 1));
  /* the rounded product one of the results: still the GEMM step */
  CHECK(check_n("bf16_dot_then_add", MOD("  a = bf16[64,96] parameter(0)\n  b = bf16[96,80] parameter(1)\n"
                                         "  d = bf16[64,80] dot(a, b), lhs_contracting_dims={1}, rhs_contracting_dims={0}\n"
                                         "  ROOT s = (bf16[64,80], bf16[64,96]) tuple(d, a)\n"),
                0, NULL, true, 2, 1));
  /* f32 result: a plain GEMM step */
  CHECK(check("f32_result", MOD("  a = bf16[2,64,96] parameter(0)\n  b = bf16[2,80,96] parameter(1)\n"
                                "  ROOT d = f32[2,64,80] dot(a, b), lhs_batch_dims={0}, lhs_contracting_dims={2}, "
                                "rhs_batch_dims={0}, rhs_contracting_dims={2}\n"),
              1, NULL, true, 2));
  /* a convert that is also the program's result stays */
  CHECK(check("convert_also_result", MOD("  a = bf16[64,96] parameter(0)\n  b = bf16[96,80] parameter(1)\n"
                                         "  ca = f32[64,96] convert(a)\n  cb = f32[96,80] convert(b)\n"
                                         "  d = f32[64,80] dot(ca, cb), lhs_contracting_dims={1}, rhs_contracting_dims={0}\n"
                                         "  ROOT t = (f32[64,80], f32[64,96]) tuple(d, ca)\n"),
              0, NULL, true, 1));
  /* a fusion parameter read by the dot and the add: its convert stays */
  CHECK(check("param_read_twice", MOD("  a = bf16[64,64] parameter(0)\n  b = bf16[64,64] parameter(1)\n"
                                      "  ca = f32[64,64] convert(a)\n  cb = f32[64,64] convert(b)\n"
                                      "  d = f32[64,64] dot(ca, cb), lhs_contracting_dims={1}, rhs_contracting_dims={0}\n"
                                      "  ROOT s = f32[64,64] add(d, ca)\n"),
              2, NULL, true, 1));
  /* a dot too small for a GEMM is the kernel's: nothing skipped */
  CHECK(check("small_dot", MOD("  a = bf16[8,8] parameter(0)\n  b = bf16[8,8] parameter(1)\n"
                               "  d = f32[8,8] dot(a, b), lhs_contracting_dims={1}, rhs_contracting_dims={0}\n"
                               "  ROOT s = f32[8,8] tanh(d)\n"),
              0, NULL, true, 0));
}

int main(void) {
  if (rt_pool_create(2, &pool)) return 1;
  RUN(kernels_layouts_and_results);
  RUN(kernels_edge_sizes);
  RUN(kernels_non_finite);
  RUN(optimized_converts);
  if (!amx_available(false)) printf("  AMX kernel: skipped: this CPU lacks AMX\n");
  if (!bf16_gemm_avx512_available()) printf("  AVX512-BF16 kernel: skipped: this CPU lacks AVX512-BF16\n");
  rt_pool_destroy(pool);
  return test_summary(__FILE__);
}
