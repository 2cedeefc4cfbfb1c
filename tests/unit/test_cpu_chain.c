/* GEMM chains (src/cpu/compile.c: plan_chains, exec.c: run_chain):
 * S = dot(A1, B1), P = a row kernel over S (softmax, here with a scale and
 * an added mask read at the global row), C = dot(P, B2), run block of
 * rows by block of rows. Checked against the reference interpreter
 * (floats to a relative 1e-5 of the largest result, NaN where NaN) over
 * odd sizes (blocks that do not divide the rows, rows not a multiple of
 * the kernel's 6), transposed B1 and B2, a batch of 64 or more (one
 * kernel row spans a whole matrix), NaN arguments, and a causal mask
 * (P's rows end in zeros, which the second product skips unless B2 holds
 * an infinity or NaN: 0 * NaN must stay NaN); a causal mask built in
 * the kernel from iotas (the chain's band: S computed only up to each
 * block's last row's band), in the forms that have one and those that
 * must not; and where the chain must not form: S or P read elsewhere, S
 * too small to matter, a product BLAS would run. */
#include <math.h>
#include <stdlib.h>

#include "cpu_vs_interp.h"
#include "harness.h"
#include "runtime/threadpool.h"
#include "cpu/cpu_internal.h"
#include "cpu/fgemm.h"
#include "interp/interp.h"
#include "verify/verify.h"

/* Arguments uniform in [-2, 2); with nan, every 101st element a NaN; with
 * causal, the mask (parameter 3, [M,N]) -1e9 where column > row, so that
 * every row of P ends in zeros (exp underflows): the second product then
 * stops at each block's last non-zero column (when B2 is finite). */
typedef struct ArgsCtx {
  const HloModule *m;
  bool nan, causal;
} ArgsCtx;

static double arg_value(void *ctx, int param, int64_t e, double u) {
  const ArgsCtx *a = ctx;
  if (a->causal && param == 3) {
    int64_t n = a->m->entry->params[param]->shape->dims[1];
    return e % n > e / n ? -1e9 : u * 4 - 2;
  }
  return a->nan && e % 101 == 7 ? NAN : u * 4 - 2;
}

static cxla_status make_args(const HloModule *m, bool nan, bool causal, Literal ***out) {
  ArgsCtx a = {m, nan, causal};
  return cpu_vs_interp_args_fn(m, 0x9E3779B97F4A7C15ull, arg_value, &a, out);
}

static const Step *step_named(const CpuExecutable *x, const char *name) {
  const Program *p = x->entry;
  for (int i = 0; i < p->nsteps; i++)
    if (p->steps[i].in && strcmp(p->steps[i].in->name, name) == 0) return &p->steps[i];
  return NULL;
}

/* Runs text on both backends and compares; *chained: whether dot "c"
 * runs the chain of dot "s" and fusion "p"; *band: whether that chain
 * has a band (Step.chain_band; -1: no chain), its offset in *band_d. */
static bool run_case_full(const char *name, const char *text, bool nan, bool causal, bool *chained, int *band,
                          int64_t *band_d) {
  cxla_module *m = NULL;
  Literal **args = NULL, *want = NULL, *got = NULL;
  CpuExecutable *x = NULL;
  bool ok = false;
  *chained = false;
  *band = -1;
  *band_d = 0;
  cxla_status s = cxla_module_parse(text, strlen(text), name, &m);
  if (!s) s = verify_module(m);
  if (!s) s = make_args(m, nan, causal, &args);
  if (!s) s = cxla_interp_run(m, args, m->entry->nparams, &want);
  if (!s) s = cpu_compile(m, NULL, &x);
  if (!s) s = cpu_execute(x, args, m->entry->nparams, &got);
  /* a chain on 3 threads (blocks split over them): the same bits */
  RtPool *pool = NULL;
  Literal *got3 = NULL;
  if (!s) s = rt_pool_create(3, &pool);
  if (!s) {
    CpuExecOptions o = {.pool = pool};
    s = cpu_execute_opts(x, args, m->entry->nparams, &o, &got3);
  }
  const Step *c = x ? step_named(x, "c") : NULL;
  if (!s && c && c->chain &&
      (got3->nelems != got->nelems || memcmp(got3->data, got->data, (size_t)got->nelems * 4) != 0))
    s = ERR(INTERNAL, "the chain on 3 threads gives other bits than on 1");
  literal_free(got3);
  if (pool) rt_pool_destroy(pool);
  if (s) {
    fprintf(stderr, "%s: %s\n", name, cxla_status_message(s));
  } else {
    const Step *d = step_named(x, "s"), *f = step_named(x, "p");
    *chained = c && d && f && c->chain && d->chained && f->chained;
    *band = c && c->chain ? c->chain_band : -1;
    *band_d = c && c->chain ? c->chain_band_d : 0;
    ok = cpu_vs_interp_close(name, want, got, false);
  }
  cxla_status_free(s);
  if (args)
    for (int i = 0; i < m->entry->nparams; i++) literal_free(args[i]);
  cxla_free(args);
  literal_free(want);
  literal_free(got);
  cpu_executable_destroy(x);
  cxla_module_destroy(m);
  return ok;
}

static bool run_case(const char *name, const char *text, bool nan, bool causal, bool *chained) {
  int band;
  int64_t d;
  return run_case_full(name, text, nan, causal, chained, &band, &d);
}

/* The module: batch B, S [B,M,N] = q [B,M,K] x k (B1: [B,K,N], or [B,N,K]
 * with tb1), P = softmax(S * 0.125 + mask[M,N]) over N, C [B,M,N2] = P x v
 * (B2: [B,N,N2], or [B,N2,N] with tb2). extra: a second use of S (or of
 * P) in the result tuple. */
static char *module_text(int B, int M, int N, int K, int N2, bool tb1, bool tb2, int extra) {
  char *t = malloc(8192);
  if (!t) return NULL;
  char k_dims[64], v_dims[64], root[256];
  snprintf(k_dims, sizeof k_dims, "%d,%d,%d", B, tb1 ? N : K, tb1 ? K : N);
  snprintf(v_dims, sizeof v_dims, "%d,%d,%d", B, tb2 ? N2 : N, tb2 ? N : N2);
  if (extra == 0)
    snprintf(root, sizeof root, "  ROOT c = f32[%d,%d,%d] dot(p, v), lhs_batch_dims={0}, lhs_contracting_dims={2},"
             " rhs_batch_dims={0}, rhs_contracting_dims={%d}\n", B, M, N2, tb2 ? 2 : 1);
  else
    snprintf(root, sizeof root, "  c = f32[%d,%d,%d] dot(p, v), lhs_batch_dims={0}, lhs_contracting_dims={2},"
             " rhs_batch_dims={0}, rhs_contracting_dims={%d}\n  ROOT r = (f32[%d,%d,%d], f32[%d,%d,%d]) tuple(c, %s)\n",
             B, M, N2, tb2 ? 2 : 1, B, M, N2, B, M, N, extra == 1 ? "s" : "p");
  snprintf(t, 8192,
           "HloModule m\n\n"
           "mx {\n  a = f32[] parameter(0)\n  b = f32[] parameter(1)\n  ROOT r = f32[] maximum(a, b)\n}\n\n"
           "add {\n  a = f32[] parameter(0)\n  b = f32[] parameter(1)\n  ROOT r = f32[] add(a, b)\n}\n\n"
           "soft {\n  x = f32[%d,%d,%d] parameter(0)\n  mk = f32[%d,%d] parameter(1)\n"
           "  e8 = f32[] constant(0.125)\n  e8b = f32[%d,%d,%d] broadcast(e8), dimensions={}\n"
           "  xs = f32[%d,%d,%d] multiply(x, e8b)\n  mb = f32[%d,%d,%d] broadcast(mk), dimensions={1,2}\n"
           "  y = f32[%d,%d,%d] add(xs, mb)\n  ninf = f32[] constant(-inf)\n"
           "  m = f32[%d,%d] reduce(y, ninf), dimensions={2}, to_apply=mx\n"
           "  mbb = f32[%d,%d,%d] broadcast(m), dimensions={0,1}\n  d = f32[%d,%d,%d] subtract(y, mbb)\n"
           "  ex = f32[%d,%d,%d] exponential(d)\n  z = f32[] constant(0)\n"
           "  sm = f32[%d,%d] reduce(ex, z), dimensions={2}, to_apply=add\n"
           "  smb = f32[%d,%d,%d] broadcast(sm), dimensions={0,1}\n"
           "  ROOT o = f32[%d,%d,%d] divide(ex, smb)\n}\n\n"
           "ENTRY e {\n  q = f32[%d,%d,%d] parameter(0)\n  k = f32[%s] parameter(1)\n"
           "  v = f32[%s] parameter(2)\n  mask = f32[%d,%d] parameter(3)\n"
           "  s = f32[%d,%d,%d] dot(q, k), lhs_batch_dims={0}, lhs_contracting_dims={2},"
           " rhs_batch_dims={0}, rhs_contracting_dims={%d}\n"
           "  p = f32[%d,%d,%d] fusion(s, mask), kind=kInput, calls=soft\n%s}\n",
           B, M, N, M, N, B, M, N, B, M, N, B, M, N, B, M, N, B, M, B, M, N, B, M, N, B, M, N, B, M, B, M, N, B, M,
           N, B, M, K, k_dims, v_dims, M, N, B, M, N, tb1 ? 2 : 1, B, M, N, root);
  return t;
}

TEST(chains) {
  if (!f32_gemm_small_available()) { /* the chain runs on fgemm.c's kernel only */
    SKIP("this CPU lacks AVX-512F and AVX2");
    return;
  }
  /* B, M, N, K, N2: blocks of 131 rows over 203 (N = 1000), 6 doesn't
   * divide M; a batch of 64 (one kernel row per matrix); attention-like */
  const int shapes[][5] = {{2, 203, 1000, 37, 29}, {64, 5, 1000, 9, 3}, {3, 256, 512, 64, 64}};
  for (int si = 0; si < 3; si++)
    for (int tb = 0; tb < 4; tb++)
      for (int mode = 0; mode < 4; mode++) {
        bool nan = mode & 1, causal = mode >> 1;
        const int *d = shapes[si];
        char *t = module_text(d[0], d[1], d[2], d[3], d[4], tb & 1, tb >> 1, 0);
        char name[96];
        snprintf(name, sizeof name, "B%d M%d N%d K%d N2 %d tb1=%d tb2=%d nan=%d causal=%d", d[0], d[1], d[2], d[3],
                 d[4], tb & 1, tb >> 1, nan, causal);
        bool ch = false;
        CHECK(t && run_case(name, t, nan, causal, &ch));
        CHECK(ch);
        free(t);
      }
}

TEST(chains_must_not_form) {
  bool ch = true;
  /* S read elsewhere too; P read elsewhere too; S under 1 MiB */
  for (int extra = 1; extra <= 2; extra++) {
    char *t = module_text(2, 203, 1000, 37, 29, false, false, extra);
    CHECK(t && run_case(extra == 1 ? "S twice" : "P twice", t, false, false, &ch));
    CHECK(!ch);
    free(t);
  }
  char *t = module_text(2, 64, 256, 16, 8, false, false, 0);
  CHECK(t && run_case("small", t, false, false, &ch));
  CHECK(!ch);
  free(t);
  /* the second product contracts 2100 > 2048: BLAS's shape, not the
   * kernel's (fgemm.h: f32_gemm_kernel_fits) */
  t = module_text(2, 203, 2100, 37, 29, false, false, 0);
  CHECK(t && run_case("BLAS shapes", t, false, false, &ch));
  CHECK(!ch);
  free(t);
}

/* A kernel with jnp.tril's mask built in (gpt2_block_1024's attention):
 * y = select(cmp(iota a, iota b), S * 0.125, -1e9), then softmax; cmp is
 * wrapped in select(cmp, true, false) when wrap. sfalse: S on the
 * select's false side instead. */
static char *masked_text(int B, int M, int N, int K, int N2, bool tb1, const char *cmp, int ia, int ib, bool wrap,
                         bool sfalse) {
  char *t = malloc(8192);
  if (!t) return NULL;
  char k_dims[64], pred[512];
  snprintf(k_dims, sizeof k_dims, "%d,%d,%d", B, tb1 ? N : K, tb1 ? K : N);
  if (wrap)
    snprintf(pred, sizeof pred,
             "  c0 = pred[%d,%d] compare(ia, ib), direction=%s\n  tt = pred[] constant(true)\n"
             "  ttb = pred[%d,%d] broadcast(tt), dimensions={}\n  ff = pred[] constant(false)\n"
             "  ffb = pred[%d,%d] broadcast(ff), dimensions={}\n  c = pred[%d,%d] select(c0, ttb, ffb)\n",
             M, N, cmp, M, N, M, N, M, N);
  else
    snprintf(pred, sizeof pred, "  c = pred[%d,%d] compare(ia, ib), direction=%s\n", M, N, cmp);
  snprintf(t, 8192,
           "HloModule m\n\n"
           "mx {\n  a = f32[] parameter(0)\n  b = f32[] parameter(1)\n  ROOT r = f32[] maximum(a, b)\n}\n\n"
           "add {\n  a = f32[] parameter(0)\n  b = f32[] parameter(1)\n  ROOT r = f32[] add(a, b)\n}\n\n"
           "soft {\n  x = f32[%d,%d,%d] parameter(0)\n"
           "  e8 = f32[] constant(0.125)\n  e8b = f32[%d,%d,%d] broadcast(e8), dimensions={}\n"
           "  xs = f32[%d,%d,%d] multiply(x, e8b)\n"
           "  ia = s32[%d,%d] iota(), iota_dimension=%d\n  ib = s32[%d,%d] iota(), iota_dimension=%d\n%s"
           "  cb = pred[%d,%d,%d] broadcast(c), dimensions={1,2}\n"
           "  big = f32[] constant(-1e9)\n  bigb = f32[%d,%d,%d] broadcast(big), dimensions={}\n"
           "  y = f32[%d,%d,%d] select(cb, %s)\n  ninf = f32[] constant(-inf)\n"
           "  m = f32[%d,%d] reduce(y, ninf), dimensions={2}, to_apply=mx\n"
           "  mbb = f32[%d,%d,%d] broadcast(m), dimensions={0,1}\n  d = f32[%d,%d,%d] subtract(y, mbb)\n"
           "  ex = f32[%d,%d,%d] exponential(d)\n  z = f32[] constant(0)\n"
           "  sm = f32[%d,%d] reduce(ex, z), dimensions={2}, to_apply=add\n"
           "  smb = f32[%d,%d,%d] broadcast(sm), dimensions={0,1}\n"
           "  ROOT o = f32[%d,%d,%d] divide(ex, smb)\n}\n\n"
           "ENTRY e {\n  q = f32[%d,%d,%d] parameter(0)\n  k = f32[%s] parameter(1)\n"
           "  v = f32[%d,%d,%d] parameter(2)\n"
           "  s = f32[%d,%d,%d] dot(q, k), lhs_batch_dims={0}, lhs_contracting_dims={2},"
           " rhs_batch_dims={0}, rhs_contracting_dims={%d}\n"
           "  p = f32[%d,%d,%d] fusion(s), kind=kInput, calls=soft\n"
           "  ROOT c = f32[%d,%d,%d] dot(p, v), lhs_batch_dims={0}, lhs_contracting_dims={2},"
           " rhs_batch_dims={0}, rhs_contracting_dims={1}\n}\n",
           B, M, N, B, M, N, B, M, N, M, N, ia, M, N, ib, pred, B, M, N, B, M, N, B, M, N,
           sfalse ? "bigb, xs" : "xs, bigb", B, M, B, M, N, B, M, N, B, M, N, B, M, B, M, N, B, M, N, B, M, K,
           k_dims, B, N, N2, B, M, N, tb1 ? 2 : 1, B, M, N, B, M, N2);
  return t;
}

/* The rows per block of the chain that dot "c" of text runs (0: none). */
static int64_t chain_rows_of(const char *text) {
  cxla_module *m = NULL;
  CpuExecutable *x = NULL;
  int64_t rows = 0;
  cxla_status s = cxla_module_parse(text, strlen(text), "rows", &m);
  if (!s) s = verify_module(m);
  if (!s) s = cpu_compile(m, NULL, &x);
  const Step *c = !s ? step_named(x, "c") : NULL;
  if (c && c->chain) rows = c->chain_rows;
  cxla_status_free(s);
  cpu_executable_destroy(x);
  cxla_module_destroy(m);
  return rows;
}

/* The causal band (compile.c: chain_band): where the kernel's mask keeps
 * only columns j <= i + d, the chain computes S's rows no further (the
 * results the interpreter's, bit for bit on 1 and 3 threads); masks that
 * keep other columns, or S on the select's false side, get no band. */
TEST(chain_bands) {
  if (!f32_gemm_small_available()) {
    SKIP("this CPU lacks AVX-512F and AVX2");
    return;
  }
  typedef struct {
    const char *cmp;
    int ia, ib;
    bool wrap, sfalse, band;
    int d;
  } Form;
  const Form forms[] = {
      {"GE", 0, 1, true, false, true, 0},   /* i >= j, as jnp.tril builds it */
      {"GE", 0, 1, false, false, true, 0},  /* the compare itself */
      {"GT", 0, 1, false, false, true, -1}, /* i > j: row 0 all masked */
      {"LE", 1, 0, true, false, true, 0},   /* j <= i */
      {"LT", 1, 0, false, false, true, -1}, /* j < i */
      {"EQ", 0, 1, false, false, true, 0},  /* the diagonal only */
      {"GE", 1, 0, false, false, false, 0}, /* j >= i: the upper triangle */
      {"NE", 0, 1, false, false, false, 0}, /* all but the diagonal */
      {"GE", 0, 1, true, true, false, 0},   /* S where the mask is false */
  };
  const int shapes[][5] = {{2, 203, 1000, 37, 29}, {3, 256, 512, 64, 64}};
  for (int si = 0; si < 2; si++)
    for (size_t fi = 0; fi < sizeof forms / sizeof forms[0]; fi++)
      for (int mode = 0; mode < 4; mode++) {
        bool tb1 = mode & 1, nan = mode >> 1;
        const int *d = shapes[si];
        const Form *f = &forms[fi];
        char *t = masked_text(d[0], d[1], d[2], d[3], d[4], tb1, f->cmp, f->ia, f->ib, f->wrap, f->sfalse);
        char name[128];
        snprintf(name, sizeof name, "B%d M%d N%d %s(iota %d, iota %d)%s%s tb1=%d nan=%d", d[0], d[1], d[2], f->cmp,
                 f->ia, f->ib, f->wrap ? " wrapped" : "", f->sfalse ? " S on false" : "", tb1, nan);
        bool ch = false;
        int band = -1;
        int64_t bd = 0;
        CHECK(t && run_case_full(name, t, nan, false, &ch, &band, &bd));
        CHECK(ch);
        CHECK(band == f->band);
        if (f->band) CHECK(bd == f->d);
        free(t);
      }
  /* 7 matrices of 4 blocks each: on 3 threads, slices of 3 blocks that
   * cross from one matrix to the next (each slice packs B1 once per
   * matrix it reaches and keeps S's columns past the band from block to
   * block); B2 of 64 columns, its own packed panel. And 520 rows, in
   * blocks of at most 64 under a band (9, the last of 8 rows). */
  const int more[][5] = {{7, 256, 256, 64, 64}, {2, 520, 520, 40, 24}};
  for (int mode = 0; mode < 8; mode++) {
    bool tb1 = mode & 1, nan = mode >> 1 & 1;
    const int *d = more[mode >> 2];
    char *t = masked_text(d[0], d[1], d[2], d[3], d[4], tb1, "GE", 0, 1, true, false);
    char name[128];
    snprintf(name, sizeof name, "B%d M%d N%d tril tb1=%d nan=%d", d[0], d[1], d[2], tb1, nan);
    bool ch = false;
    int band = -1;
    int64_t bd = 0;
    CHECK(t && run_case_full(name, t, nan, false, &ch, &band, &bd));
    CHECK(ch && band == 1 && bd == 0);
    if (mode >> 2) CHECK(chain_rows_of(t) == 64);
    free(t);
  }
}

int main(void) {
  RUN(chains);
  RUN(chain_bands);
  RUN(chains_must_not_form);
  return test_summary(__FILE__);
}
