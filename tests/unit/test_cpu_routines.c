/* The cpu backend's runtime routines (src/cpu/rt_*.c) against the
 * reference interpreter: fft, the LAPACK custom-calls, cholesky,
 * triangular-solve, topk, rng, and the control routines (one-replica
 * collectives, async/copy wrappers, dimension sizes), each on every element
 * type it takes, batch shapes (none, several, size 0, size 1) and edge
 * cases (singular and non-positive-definite matrices, odd FFT lengths, NaN
 * rows). Factorizations that are unique are compared element by element;
 * eigen- and singular vectors (unique only up to phases) through what is
 * unique: the values, the reconstruction of the input and orthonormality.
 * Also: ops no routine runs are compile errors that name them. */
#include <stdlib.h>

#include "harness.h"
#include "cpu/cpu.h"
#include "passes/pass.h"
#include "verify/verify.h"

/* ---- arguments ---- */

enum { K_RAND, K_HPD, K_HERM, K_DOM, K_NANROW, K_POS };

static uint64_t g_rng;
static double urand(void) {
  uint64_t z = (g_rng += 0x9E3779B97F4A7C15ull);
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  z ^= z >> 31;
  return (double)(z >> 11) * 0x1p-52 - 1.0; /* [-1, 1) */
}

static void put(Literal *l, int64_t i, double re, double im) {
  switch (l->type) {
  case T_C64: ((float *)l->data)[2 * i] = (float)re, ((float *)l->data)[2 * i + 1] = (float)im; break;
  case T_C128: ((double *)l->data)[2 * i] = re, ((double *)l->data)[2 * i + 1] = im; break;
  default: literal_set_f64(l, i, re); break;
  }
}

static void get(const Literal *l, int64_t i, double *re, double *im) {
  switch (l->type) {
  case T_C64: *re = ((float *)l->data)[2 * i], *im = ((float *)l->data)[2 * i + 1]; break;
  case T_C128: *re = ((double *)l->data)[2 * i], *im = ((double *)l->data)[2 * i + 1]; break;
  default: *re = literal_get_f64(l, i), *im = 0; break;
  }
}

/* An argument of type t and dims: K_RAND uniform; per trailing n x n
 * matrix K_HPD A A^H + n I, K_HERM (A + A^H) / 2, K_DOM random with 4 on
 * the diagonal; K_NANROW random with a NaN in row 0; K_POS 4 + |x|. */
static Literal *arg(ElemType t, int rank, const int64_t *dims, int kind, uint64_t seed) {
  Literal *l = NULL;
  if (literal_create(t, rank, dims, &l)) return NULL;
  g_rng = seed * 7919 + 17;
  bool cplx = type_is_complex(t);
  int64_t n = rank >= 1 ? dims[rank - 1] : 1, total = l->nelems;
  if (kind == K_RAND || kind == K_NANROW || kind == K_POS || rank < 2) {
    for (int64_t i = 0; i < total; i++) put(l, i, urand(), cplx ? urand() : 0);
    if (kind == K_NANROW && total > 1) put(l, total > 3 ? 2 : 1, NAN, 0);
    if (kind == K_POS)
      for (int64_t i = 0; i < total; i++) put(l, i, 4 + fabs(urand()), 0);
    return l;
  }
  int64_t nn = n * n, batch = nn ? total / nn : 0;
  double *a = calloc((size_t)(2 * nn + 2), sizeof(double));
  for (int64_t b = 0; b < batch; b++) {
    for (int64_t i = 0; i < nn; i++) a[2 * i] = urand(), a[2 * i + 1] = cplx ? urand() : 0;
    for (int64_t i = 0; i < n; i++)
      for (int64_t j = 0; j < n; j++) {
        double re = 0, im = 0;
        if (kind == K_HPD) {
          for (int64_t k = 0; k < n; k++) { /* sum_k a_ik conj(a_jk) */
            double xr = a[2 * (i * n + k)], xi = a[2 * (i * n + k) + 1];
            double yr = a[2 * (j * n + k)], yi = -a[2 * (j * n + k) + 1];
            re += xr * yr - xi * yi;
            im += xr * yi + xi * yr;
          }
          if (i == j) re += (double)n, im = 0;
        } else if (kind == K_HERM) {
          re = (a[2 * (i * n + j)] + a[2 * (j * n + i)]) / 2;
          im = (a[2 * (i * n + j) + 1] - a[2 * (j * n + i) + 1]) / 2;
          if (i == j) im = 0;
        } else {
          re = a[2 * (i * n + j)] + (i == j ? 4 : 0), im = a[2 * (i * n + j) + 1];
        }
        put(l, b * nn + i * n + j, re, im);
      }
  }
  free(a);
  return l;
}

/* ---- running ---- */

/* Runs text on the interpreter and the cpu backend (after the default
 * pipeline). Returns an error message (static) or NULL. */
static const char *run_both(const char *text, Literal **args, int nargs, Literal **want, Literal **got) {
  static char msg[600];
  *want = *got = NULL;
  cxla_module *m = NULL;
  CpuExecutable *x = NULL;
  cxla_status st = cxla_module_parse(text, strlen(text), "t", &m);
  const char *what = "parse";
  if (!st) what = "verify", st = verify_module(m);
  PipelineOptions o = {.verify = true, .module_number = 1};
  if (!st) what = "pipeline", st = pipeline_run(m, NULL, 0, &o);
  if (!st) what = "interp", st = cxla_interp_run(m, args, nargs, want);
  if (!st) what = "cpu compile", st = cpu_compile(m, NULL, &x);
  if (!st) what = "cpu run", st = cpu_execute(x, args, nargs, got);
  const char *r = NULL;
  if (st) {
    snprintf(msg, sizeof msg, "%s: %s", what, cxla_status_message(st));
    r = msg;
  }
  cxla_status_free(st);
  cpu_executable_destroy(x);
  cxla_module_destroy(m);
  return r;
}

static void free_args(Literal **a, int n) {
  for (int i = 0; i < n; i++) literal_free(a[i]);
}

/* Element-wise: integers exact; floats |w - g| <= tol * (|w| + scale),
 * scale the largest finite |w| of the array; NaN where NaN (per part). */
static bool close_lit(const Literal *w, const Literal *g, double tol, char *why) {
  if (w->type != g->type || w->ntuple != g->ntuple || w->nelems != g->nelems) {
    sprintf(why, "shapes differ");
    return false;
  }
  if (w->type == T_TUPLE) {
    for (int i = 0; i < w->ntuple; i++)
      if (!close_lit(w->tuple[i], g->tuple[i], tol, why)) {
        sprintf(why + strlen(why), " (element %d)", i);
        return false;
      }
    return true;
  }
  TypeKind k = type_kind(w->type);
  if (k != TK_FLOAT && k != TK_COMPLEX) {
    bool same = !w->nelems || memcmp(w->data, g->data, (size_t)w->nelems * (size_t)type_bytes(w->type)) == 0;
    if (!same) sprintf(why, "integers differ");
    return same;
  }
  double scale = 0;
  for (int64_t i = 0; i < w->nelems; i++) {
    double re, im;
    get(w, i, &re, &im);
    if (isfinite(re)) scale = fmax(scale, fabs(re));
    if (isfinite(im)) scale = fmax(scale, fabs(im));
  }
  for (int64_t i = 0; i < w->nelems; i++) {
    double a[2], b[2];
    get(w, i, &a[0], &a[1]);
    get(g, i, &b[0], &b[1]);
    for (int c = 0; c < 2; c++) {
      bool ok = isnan(a[c]) ? isnan(b[c]) : isinf(a[c]) ? a[c] == b[c] : fabs(a[c] - b[c]) <= tol * (fabs(a[c]) + scale);
      if (!ok) {
        sprintf(why, "at %lld part %d: want %.9g got %.9g", (long long)i, c, a[c], b[c]);
        return false;
      }
    }
  }
  return true;
}

static double tol_of(ElemType t) { return t == T_F64 || t == T_C128 ? 1e-10 : 5e-5; }

/* Runs and compares everything element by element. */
static bool same_as_interp(const char *name, const char *text, Literal **args, int nargs, double tol) {
  Literal *want, *got;
  const char *err = run_both(text, args, nargs, &want, &got);
  char why[300] = "";
  bool ok = !err && close_lit(want, got, tol, why);
  if (!ok) printf("  %s: %s\n", name, err ? err : why);
  literal_free(want);
  literal_free(got);
  free_args(args, nargs);
  return ok;
}

static const char *tname(ElemType t) { return type_name(t); }
static const char *const kPre = "sdcz";
static const ElemType kTypes[4] = {T_F32, T_F64, T_C64, T_C128};
static ElemType real_of(ElemType t) { return t == T_C64 ? T_F32 : t == T_C128 ? T_F64 : t; }

/* "[2,3,4]" */
static const char *dims_text(int rank, const int64_t *d) {
  static char buf[16][64];
  static int k;
  char *b = buf[k++ & 15];
  int n = sprintf(b, "[");
  for (int i = 0; i < rank; i++) n += sprintf(b + n, "%s%lld", i ? "," : "", (long long)d[i]);
  sprintf(b + n, "]");
  return b;
}

/* batch prefixes: none, [3], [0], [1] */
static const int kNb[4] = {0, 1, 1, 1};
static const int64_t kB[4] = {0, 3, 0, 1};

static int mk_dims(int bi, int64_t r, int64_t c, int64_t *d) {
  int k = 0;
  if (kNb[bi]) d[k++] = kB[bi];
  d[k++] = r;
  d[k++] = c;
  return k;
}

/* ---- cholesky, potrf ---- */

TEST(cholesky_and_potrf) {
  int checked = 0;
  for (int ti = 0; ti < 4; ti++)
    for (int bi = 0; bi < 4; bi++)
      for (int lower = 0; lower < 2; lower++) {
        ElemType t = kTypes[ti];
        int64_t d[3];
        int r = mk_dims(bi, 5, 5, d);
        char text[1024], name[64];
        snprintf(text, sizeof text,
                 "HloModule m\nENTRY e {\n  a = %s%s parameter(0)\n  ROOT c = %s%s cholesky(a), lower=%s\n}\n",
                 tname(t), dims_text(r, d), tname(t), dims_text(r, d), lower ? "true" : "false");
        snprintf(name, sizeof name, "cholesky %s b%d l%d", tname(t), bi, lower);
        Literal *a[1] = {arg(t, r, d, K_HPD, 1 + ti + bi)};
        CHECK(same_as_interp(name, text, a, 1, tol_of(t)));
        /* not positive definite: all NaN, as the interpreter */
        a[0] = arg(t, r, d, K_HERM, 2 + ti);
        if (a[0]->nelems) put(a[0], 0, -1, 0);
        CHECK(same_as_interp(name, text, a, 1, tol_of(t)));
        /* the custom-call: factor and info */
        int64_t bd[1] = {kB[bi]};
        snprintf(text, sizeof text,
                 "HloModule m\nENTRY e {\n  a = %s%s parameter(0)\n  ROOT c = (%s%s, s32%s) custom-call(a), "
                 "custom_call_target=\"lapack_%cpotrf_ffi\", backend_config={uplo = %d : ui8}\n}\n",
                 tname(t), dims_text(r, d), tname(t), dims_text(r, d), dims_text(kNb[bi], bd), kPre[ti],
                 lower ? 'L' : 'U');
        a[0] = arg(t, r, d, K_HPD, 3 + bi);
        CHECK(same_as_interp(name, text, a, 1, tol_of(t)));
        checked += 3;
      }
  /* the info of a matrix whose third leading minor is not positive definite */
  const char *t3 = "HloModule m\nENTRY e {\n  a = f64[2,4,4] parameter(0)\n  ROOT c = (f64[2,4,4], s32[2]) "
                   "custom-call(a), custom_call_target=\"lapack_dpotrf_ffi\", backend_config={uplo = 76 : ui8}\n}\n";
  int64_t d[3] = {2, 4, 4};
  Literal *a = arg(T_F64, 3, d, K_HPD, 9), *want, *got;
  put(a, 16 + 2 * 4 + 2, -50, 0);
  const char *err = run_both(t3, &a, 1, &want, &got);
  CHECK(!err);
  if (!err) {
    CHECK(((int32_t *)got->tuple[1]->data)[0] == 0 && ((int32_t *)got->tuple[1]->data)[1] == 3);
    CHECK(memcmp(want->tuple[1]->data, got->tuple[1]->data, 8) == 0);
  }
  literal_free(a);
  literal_free(want);
  literal_free(got);
  CHECK(checked == 96);
}

/* ---- triangular solves ---- */

TEST(triangular_solve_and_trsm) {
  int checked = 0;
  static const char *const tr[3] = {"NO_TRANSPOSE", "TRANSPOSE", "ADJOINT"};
  static const char trc[3] = {'N', 'T', 'C'};
  for (int ti = 0; ti < 4; ti++)
    for (int bi = 0; bi < 4; bi++)
      for (int v = 0; v < 24; v++) {
        int left = v & 1, lower = (v >> 1) & 1, unit = (v >> 2) & 1, trans = v >> 3;
        ElemType t = kTypes[ti];
        int64_t da[3], db[3];
        int r = mk_dims(bi, 4, 4, da);
        mk_dims(bi, left ? 4 : 3, left ? 3 : 4, db);
        char text[1200], name[80];
        snprintf(name, sizeof name, "trisolve %s b%d v%d", tname(t), bi, v);
        snprintf(text, sizeof text,
                 "HloModule m\nENTRY e {\n  a = %s%s parameter(0)\n  b = %s%s parameter(1)\n  ROOT x = %s%s "
                 "triangular-solve(a, b), left_side=%s, lower=%s, unit_diagonal=%s, transpose_a=%s\n}\n",
                 tname(t), dims_text(r, da), tname(t), dims_text(r, db), tname(t), dims_text(r, db),
                 left ? "true" : "false", lower ? "true" : "false", unit ? "true" : "false", tr[trans]);
        Literal *a[2] = {arg(t, r, da, K_DOM, 5 + v), arg(t, r, db, K_RAND, 6 + v)};
        CHECK(same_as_interp(name, text, a, 2, tol_of(t)));
        snprintf(text, sizeof text,
                 "HloModule m\nENTRY e {\n  a = %s%s parameter(0)\n  b = %s%s parameter(1)\n  ROOT x = %s%s "
                 "custom-call(a, b), custom_call_target=\"lapack_%ctrsm_ffi\", backend_config={diag = %d : ui8, "
                 "side = %d : ui8, trans_x = %d : ui8, uplo = %d : ui8}\n}\n",
                 tname(t), dims_text(r, da), tname(t), dims_text(r, db), tname(t), dims_text(r, db), kPre[ti],
                 unit ? 'U' : 'N', left ? 'L' : 'R', trc[trans], lower ? 'L' : 'U');
        a[0] = arg(t, r, da, K_DOM, 7 + v);
        a[1] = arg(t, r, db, K_RAND, 8 + v);
        CHECK(same_as_interp(name, text, a, 2, tol_of(t)));
        checked += 2;
      }
  CHECK(checked == 768);
}

/* ---- LU ---- */

TEST(getrf) {
  int checked = 0;
  static const int64_t shapes[][2] = {{5, 5}, {6, 4}, {3, 7}, {1, 1}, {0, 0}};
  for (int ti = 0; ti < 4; ti++)
    for (int bi = 0; bi < 4; bi++)
      for (int si = 0; si < 5; si++) {
        ElemType t = kTypes[ti];
        int64_t d[3], k = shapes[si][0] < shapes[si][1] ? shapes[si][0] : shapes[si][1];
        int r = mk_dims(bi, shapes[si][0], shapes[si][1], d);
        int64_t pd[2], id[1] = {kB[bi]};
        int pr = 0;
        if (kNb[bi]) pd[pr++] = kB[bi];
        pd[pr++] = k;
        char text[1024], name[64];
        snprintf(name, sizeof name, "getrf %s b%d s%d", tname(t), bi, si);
        snprintf(text, sizeof text,
                 "HloModule m\nENTRY e {\n  a = %s%s parameter(0)\n  ROOT c = (%s%s, s32%s, s32%s) custom-call(a), "
                 "custom_call_target=\"lapack_%cgetrf_ffi\"\n}\n",
                 tname(t), dims_text(r, d), tname(t), dims_text(r, d), dims_text(pr, pd), dims_text(kNb[bi], id),
                 kPre[ti]);
        Literal *a[1] = {arg(t, r, d, K_RAND, 11 + si)};
        CHECK(same_as_interp(name, text, a, 1, tol_of(t)));
        /* singular: a zero column; the same info */
        a[0] = arg(t, r, d, K_RAND, 12 + si);
        int64_t rows = shapes[si][0], cols = shapes[si][1];
        if (cols > 1)
          for (int64_t b = 0; b < a[0]->nelems / (rows * cols); b++)
            for (int64_t i = 0; i < rows; i++) put(a[0], b * rows * cols + i * cols + 1, 0, 0);
        CHECK(same_as_interp(name, text, a, 1, tol_of(t)));
        checked += 2;
      }
  CHECK(checked == 160);
}

/* ---- QR: geqrf, then orgqr on its result ---- */

TEST(geqrf_orgqr) {
  int checked = 0;
  static const int64_t shapes[][2] = {{6, 4}, {4, 4}, {3, 5}, {1, 1}};
  for (int ti = 0; ti < 4; ti++)
    for (int bi = 0; bi < 4; bi++)
      for (int si = 0; si < 4; si++) {
        ElemType t = kTypes[ti];
        int64_t m = shapes[si][0], n = shapes[si][1], k = m < n ? m : n;
        int64_t d[3], td[2], qd[3];
        int r = mk_dims(bi, m, n, d), tr = 0;
        mk_dims(bi, m, k, qd);
        if (kNb[bi]) td[tr++] = kB[bi];
        td[tr++] = k;
        char text[1600], name[64];
        snprintf(name, sizeof name, "qr %s b%d s%d", tname(t), bi, si);
        /* q from the first k columns (orgqr needs n <= m) */
        snprintf(text, sizeof text,
                 "HloModule m\nENTRY e {\n  a = %s%s parameter(0)\n  qr = (%s%s, %s%s) custom-call(a), "
                 "custom_call_target=\"lapack_%cgeqrf_ffi\"\n  f = %s%s get-tuple-element(qr), index=0\n"
                 "  tau = %s%s get-tuple-element(qr), index=1\n  fk = %s%s slice(f), slice={%s[0:%lld], [0:%lld]}\n"
                 "  q = %s%s custom-call(fk, tau), custom_call_target=\"lapack_%c%s_ffi\"\n"
                 "  ROOT t = (%s%s, %s%s, %s%s) tuple(f, tau, q)\n}\n",
                 tname(t), dims_text(r, d), tname(t), dims_text(r, d), tname(t), dims_text(tr, td), kPre[ti],
                 tname(t), dims_text(r, d), tname(t), dims_text(tr, td), tname(t), dims_text(r, qd),
                 kNb[bi] ? (bi == 1 ? "[0:3], " : bi == 2 ? "[0:0], " : "[0:1], ") : "", (long long)m, (long long)k,
                 tname(t), dims_text(r, qd), kPre[ti], ti >= 2 ? "ungqr" : "orgqr", tname(t), dims_text(r, d),
                 tname(t), dims_text(tr, td), tname(t), dims_text(r, qd));
        Literal *a[1] = {arg(t, r, d, K_RAND, 21 + si)};
        CHECK(same_as_interp(name, text, a, 1, tol_of(t) * 10));
        checked++;
      }
  CHECK(checked == 64);
}

/* ---- eigh and svd: unique parts ---- */

/* max |(X - U diag(s) V^H)_ij| over one matrix: u rows x kk (stride us),
 * vh kk x cols (stride vs) */
static double recon_err(const Literal *x, int64_t xo, int64_t rows, int64_t cols, const Literal *u, int64_t uo,
                        int64_t us, const Literal *s, int64_t so, const Literal *vh, int64_t vo, int64_t vs,
                        int64_t kk) {
  double err = 0;
  for (int64_t i = 0; i < rows; i++)
    for (int64_t j = 0; j < cols; j++) {
      double re = 0, im = 0;
      for (int64_t k = 0; k < kk; k++) {
        double ur, ui, vr, vi, sr, si;
        get(u, uo + i * us + k, &ur, &ui);
        get(vh, vo + k * vs + j, &vr, &vi);
        get(s, so + k, &sr, &si);
        re += sr * (ur * vr - ui * vi);
        im += sr * (ur * vi + ui * vr);
      }
      double xr, xi;
      get(x, xo + i * cols + j, &xr, &xi);
      err = fmax(err, fmax(fabs(xr - re), fabs(xi - im)));
    }
  return err;
}

/* max |(Q^H Q - I)_ij| for the n columns of q (rows x n, row-major) */
static double orth_err(const Literal *q, int64_t qo, int64_t rows, int64_t n, bool rows_orth) {
  double err = 0;
  for (int64_t a = 0; a < n; a++)
    for (int64_t b = 0; b < n; b++) {
      double re = 0, im = 0;
      for (int64_t i = 0; i < rows; i++) {
        double ar, ai, br, bi;
        if (rows_orth) { /* rows of a n x rows matrix */
          get(q, qo + a * rows + i, &ar, &ai);
          get(q, qo + b * rows + i, &br, &bi);
        } else {
          get(q, qo + i * n + a, &ar, &ai);
          get(q, qo + i * n + b, &br, &bi);
        }
        re += ar * br + ai * bi;
        im += ar * bi - ai * br;
      }
      err = fmax(err, fmax(fabs(re - (a == b)), fabs(im)));
    }
  return err;
}

TEST(syevd_heevd_eigh) {
  int checked = 0;
  for (int ti = 0; ti < 4; ti++)
    for (int bi = 0; bi < 4; bi++)
      for (int form = 0; form < 3; form++) { /* lower, upper, TF's Eigh */
        ElemType t = kTypes[ti];
        int64_t n = 6, d[3], wd[2], id[1] = {kB[bi]};
        int r = mk_dims(bi, n, n, d), wr = 0;
        if (kNb[bi]) wd[wr++] = kB[bi];
        wd[wr++] = n;
        char text[1024], name[64];
        snprintf(name, sizeof name, "eigh %s b%d f%d", tname(t), bi, form);
        if (form < 2)
          snprintf(text, sizeof text,
                   "HloModule m\nENTRY e {\n  a = %s%s parameter(0)\n  ROOT c = (%s%s, %s%s, s32%s) custom-call(a), "
                   "custom_call_target=\"lapack_%c%s_ffi\", backend_config={mode = 86 : ui8, uplo = %d : ui8}\n}\n",
                   tname(t), dims_text(r, d), tname(t), dims_text(r, d), tname(real_of(t)), dims_text(wr, wd),
                   dims_text(kNb[bi], id), kPre[ti], ti >= 2 ? "heevd" : "syevd", form ? 'U' : 'L');
        else
          snprintf(text, sizeof text,
                   "HloModule m\nENTRY e {\n  a = %s%s parameter(0)\n  ROOT c = (%s%s, %s%s) custom-call(a), "
                   "custom_call_target=\"Eigh\", backend_config=\"1,1,100,1e-6\"\n}\n",
                   tname(t), dims_text(r, d), tname(t), dims_text(r, d), tname(real_of(t)), dims_text(wr, wd));
        Literal *a = arg(t, r, d, K_HERM, 31 + bi), *want, *got;
        const char *err = run_both(text, &a, 1, &want, &got);
        if (err) printf("  %s: %s\n", name, err);
        CHECK(!err);
        if (!err) {
          char why[300] = "";
          bool ok = close_lit(want->tuple[1], got->tuple[1], tol_of(t) * 10, why);
          if (form < 2) ok = ok && close_lit(want->tuple[2], got->tuple[2], 0, why);
          if (!ok) printf("  %s: %s\n", name, why);
          CHECK(ok);
          double tol = t == T_F64 || t == T_C128 ? 1e-12 : 1e-5;
          int64_t batch = a->nelems / (n * n);
          for (int64_t b = 0; b < batch; b++) {
            /* V diag(w) V^H: vh is the conjugate transpose of V, built here */
            Literal *vh = NULL;
            CHECK_OK(literal_create(t, 2, (int64_t[]){n, n}, &vh));
            for (int64_t i = 0; i < n; i++)
              for (int64_t j = 0; j < n; j++) {
                double re, im;
                get(got->tuple[0], b * n * n + j * n + i, &re, &im);
                put(vh, i * n + j, re, -im);
              }
            double e = recon_err(a, b * n * n, n, n, got->tuple[0], b * n * n, n, got->tuple[1], b * n, vh, 0, n, n);
            double o = orth_err(got->tuple[0], b * n * n, n, n, false);
            if (e > tol * 20 || o > tol * 10) printf("  %s: reconstruction %g, orthonormality %g\n", name, e, o);
            CHECK(e <= tol * 20 && o <= tol * 10);
            literal_free(vh);
          }
        }
        literal_free(a);
        literal_free(want);
        literal_free(got);
        checked++;
      }
  CHECK(checked == 48);
}

/* A wide matrix (2 x 400000, jnp.linalg.pinv's shape in JAX's tests) in
 * mode 'S': U is 2 x 2 and V^T 2 x 400000, well within LAPACK's 32-bit
 * indices; the backend refused any side past 46340 (as if U were the
 * square of it). Rows 3 e_0 and 2 e_1 + e_2: singular values 3 and
 * sqrt(5), and U S V^T gives the matrix back. Only the cpu backend: the
 * interpreter's svd works on the square of the long side. */
TEST(gesdd_wide) {
  const int64_t n = 400000;
  char text[512];
  snprintf(text, sizeof text,
           "HloModule m\nENTRY e {\n  a = f32[2,%lld] parameter(0)\n  ROOT c = (f32[2,%lld], f32[2], f32[2,2], "
           "f32[2,%lld], s32[]) custom-call(a), custom_call_target=\"lapack_sgesdd_ffi\", backend_config={mode = 83 "
           ": ui8}\n}\n",
           (long long)n, (long long)n, (long long)n);
  Literal *a = NULL, *got = NULL;
  CHECK_OK(literal_create(T_F32, 2, (int64_t[]){2, n}, &a));
  if (!a) return;
  float *x = a->data;
  x[0] = 3;
  x[n + 1] = 2;
  x[n + 2] = 1;
  cxla_module *m = NULL;
  CpuExecutable *e = NULL;
  CHECK_OK(cxla_module_parse(text, strlen(text), "wide", &m));
  if (m) CHECK_OK(cpu_compile(m, NULL, &e));
  if (e) CHECK_OK(cpu_execute(e, &a, 1, &got));
  if (got) {
    const float *s = got->tuple[1]->data, *u = got->tuple[2]->data, *vt = got->tuple[3]->data;
    CHECK(fabs(s[0] - 3) < 1e-5 && fabs(s[1] - sqrt(5.0)) < 1e-5);
    CHECK(*(const int32_t *)got->tuple[4]->data == 0);
    double err = 0;
    for (int i = 0; i < 2; i++)
      for (int64_t j = 0; j < 4; j++) {
        double r = u[i * 2] * s[0] * vt[j] + u[i * 2 + 1] * s[1] * vt[n + j];
        err = fmax(err, fabs(r - x[i * n + j]));
      }
    if (err > 1e-5) printf("  wide svd: reconstruction error %g\n", err);
    CHECK(err <= 1e-5);
  }
  literal_free(a);
  literal_free(got);
  cpu_executable_destroy(e);
  cxla_module_destroy(m);
}

TEST(gesdd_gesvd) {
  int checked = 0;
  static const int64_t shapes[][2] = {{6, 4}, {3, 5}, {4, 4}, {1, 1}};
  static const char modes[3] = {'A', 'S', 'N'};
  for (int ti = 0; ti < 4; ti++)
    for (int bi = 0; bi < 4; bi++)
      for (int si = 0; si < 4; si++)
        for (int mi = 0; mi < 3; mi++)
          for (int gv = 0; gv < 2; gv++) {
            ElemType t = kTypes[ti];
            int64_t m = shapes[si][0], n = shapes[si][1], k = m < n ? m : n;
            int64_t uc = modes[mi] == 'A' ? m : k, vr = modes[mi] == 'A' ? n : k;
            int64_t d[3], sd[2], ud[3], vd[3], id[1] = {kB[bi]};
            int r = mk_dims(bi, m, n, d), sr = 0;
            mk_dims(bi, m, uc, ud);
            mk_dims(bi, vr, n, vd);
            if (kNb[bi]) sd[sr++] = kB[bi];
            sd[sr++] = k;
            char text[1024], name[64];
            snprintf(name, sizeof name, "svd %s b%d s%d %c %s", tname(t), bi, si, modes[mi], gv ? "gesvd" : "gesdd");
            snprintf(text, sizeof text,
                     "HloModule m\nENTRY e {\n  a = %s%s parameter(0)\n  ROOT c = (%s%s, %s%s, %s%s, %s%s, s32%s) "
                     "custom-call(a), custom_call_target=\"lapack_%c%s_ffi\", backend_config={mode = %d : ui8}\n}\n",
                     tname(t), dims_text(r, d), tname(t), dims_text(r, d), tname(real_of(t)), dims_text(sr, sd),
                     tname(t), dims_text(r, ud), tname(t), dims_text(r, vd), dims_text(kNb[bi], id), kPre[ti],
                     gv ? "gesvd" : "gesdd", modes[mi]);
            Literal *a = arg(t, r, d, K_RAND, 41 + si + mi), *want, *got;
            const char *err = run_both(text, &a, 1, &want, &got);
            if (err) printf("  %s: %s\n", name, err);
            CHECK(!err);
            if (!err) {
              char why[300] = "";
              bool ok = close_lit(want->tuple[0], got->tuple[0], 0, why) &&
                        close_lit(want->tuple[1], got->tuple[1], tol_of(t) * 10, why) &&
                        close_lit(want->tuple[4], got->tuple[4], 0, why);
              if (!ok) printf("  %s: %s\n", name, why);
              CHECK(ok);
              double tol = t == T_F64 || t == T_C128 ? 1e-12 : 1e-5;
              int64_t batch = a->nelems / (m * n);
              for (int64_t b = 0; b < batch && modes[mi] != 'N'; b++) {
                double e = recon_err(a, b * m * n, m, n, got->tuple[2], b * m * uc, uc, got->tuple[1], b * k,
                                     got->tuple[3], b * vr * n, n, k);
                double ou = orth_err(got->tuple[2], b * m * uc, m, uc, false);
                double ov = orth_err(got->tuple[3], b * vr * n, n, vr, true);
                if (e > tol * 20 || ou > tol * 10 || ov > tol * 10)
                  printf("  %s: reconstruction %g, orthonormality %g %g\n", name, e, ou, ov);
                CHECK(e <= tol * 20 && ou <= tol * 10 && ov <= tol * 10);
              }
            }
            literal_free(a);
            literal_free(want);
            literal_free(got);
            checked++;
          }
  CHECK(checked == 384);
}

/* ---- tridiagonal solve ---- */

TEST(gtsv) {
  int checked = 0;
  for (int ti = 0; ti < 4; ti++)
    for (int bi = 0; bi < 4; bi++)
      for (int sing = 0; sing < 2; sing++) {
        ElemType t = kTypes[ti];
        int64_t n = 7, nrhs = 3, vd[2], bd[3], id[1] = {kB[bi]};
        int vr = 0, br = 0;
        if (kNb[bi]) vd[vr++] = kB[bi], bd[br++] = kB[bi];
        vd[vr++] = n;
        bd[br++] = n;
        bd[br++] = nrhs;
        char text[1200], name[64], vt[64], btx[64];
        snprintf(vt, sizeof vt, "%s%s", tname(t), dims_text(vr, vd));
        snprintf(btx, sizeof btx, "%s%s", tname(t), dims_text(br, bd));
        snprintf(name, sizeof name, "gtsv %s b%d s%d", tname(t), bi, sing);
        snprintf(text, sizeof text,
                 "HloModule m\nENTRY e {\n  dl = %s parameter(0)\n  d = %s parameter(1)\n  du = %s parameter(2)\n"
                 "  b = %s parameter(3)\n  ROOT c = (%s, %s, %s, %s, s32%s) custom-call(dl, d, du, b), "
                 "custom_call_target=\"lapack_%cgtsv_ffi\"\n}\n",
                 vt, vt, vt, btx, vt, vt, vt, btx, dims_text(kNb[bi], id), kPre[ti]);
        Literal *a[4] = {arg(t, vr, vd, K_RAND, 51), arg(t, vr, vd, K_POS, 52), arg(t, vr, vd, K_RAND, 53),
                         arg(t, br, bd, K_RAND, 54)};
        for (int64_t b = 0; b < a[1]->nelems / n; b++) {
          put(a[0], b * n, 0, 0);
          put(a[2], b * n + n - 1, 0, 0);
          if (sing) { /* a zero row: U(k, k) = 0 at the last step */
            put(a[0], b * n + n - 1, 0, 0);
            put(a[1], b * n + n - 1, 0, 0);
          }
        }
        CHECK(same_as_interp(name, text, a, 4, tol_of(t) * 10));
        checked++;
      }
  CHECK(checked == 32);
}

/* ---- fft ---- */

TEST(fft_all_kinds) {
  static const int64_t lens[] = {1, 2, 7, 8, 12, 15, 16, 97, 128, 210};
  static const char *const kinds[] = {"FFT", "IFFT", "RFFT", "IRFFT"};
  int checked = 0;
  for (size_t li = 0; li < sizeof lens / sizeof lens[0]; li++)
    for (int ki = 0; ki < 4; ki++)
      for (int dbl = 0; dbl < 2; dbl++)
        for (int nan = 0; nan < 2; nan++) {
          int64_t n = lens[li], h = n / 2 + 1;
          bool real_in = ki == 2, real_out = ki == 3;
          ElemType ct = dbl ? T_C128 : T_C64, rt = dbl ? T_F64 : T_F32;
          ElemType it = real_in ? rt : ct, ot = real_out ? rt : ct;
          int64_t in_n = ki == 3 ? h : n, out_n = ki == 2 ? h : n;
          int64_t din[2] = {3, in_n}, dout[2] = {3, out_n};
          char text[512], name[64];
          snprintf(name, sizeof name, "fft %s n=%lld %s%s", kinds[ki], (long long)n, tname(it), nan ? " NaN" : "");
          snprintf(text, sizeof text,
                   "HloModule m\nENTRY e {\n  a = %s%s parameter(0)\n  ROOT f = %s%s fft(a), fft_type=%s, "
                   "fft_length={%lld}\n}\n",
                   tname(it), dims_text(2, din), tname(ot), dims_text(2, dout), kinds[ki], (long long)n);
          /* NaN placement is compared where the interpreter's and the
           * transform's agree: up to 64 (both sum directly or, for powers
           * of two, rotate alike) and longer powers of two */
          bool nan_ok = n <= 64 || n == 128;
          if (nan && !nan_ok) continue;
          Literal *a[1] = {arg(it, 2, din, nan ? K_NANROW : K_RAND, 61 + li)};
          CHECK(same_as_interp(name, text, a, 1, dbl ? 1e-12 : 2e-6));
          checked++;
        }
  /* 2-d and 3-d transforms, a batch of size 0 */
  static const char *const multi[] = {
      "HloModule m\nENTRY e {\n  a = c64[2,6,5] parameter(0)\n  ROOT f = c64[2,6,5] fft(a), fft_type=FFT, fft_length={6,5}\n}\n",
      "HloModule m\nENTRY e {\n  a = c128[3,4,7] parameter(0)\n  ROOT f = c128[3,4,7] fft(a), fft_type=IFFT, fft_length={3,4,7}\n}\n",
      "HloModule m\nENTRY e {\n  a = f32[2,9,12] parameter(0)\n  ROOT f = c64[2,9,7] fft(a), fft_type=RFFT, fft_length={9,12}\n}\n",
      "HloModule m\nENTRY e {\n  a = c128[5,3,6] parameter(0)\n  ROOT f = f64[5,3,10] fft(a), fft_type=IRFFT, fft_length={3,10}\n}\n",
      "HloModule m\nENTRY e {\n  a = c64[0,8] parameter(0)\n  ROOT f = c64[0,8] fft(a), fft_type=FFT, fft_length={8}\n}\n",
      "HloModule m\nENTRY e {\n  a = f32[4,11] parameter(0)\n  ROOT f = c64[4,6] fft(a), fft_type=RFFT, fft_length={11}\n}\n",
      /* long lines: a prime (Bluestein), a power of two, 3^2 * 5 * 59 (a generic radix) */
      "HloModule m\nENTRY e {\n  a = c64[2,1009] parameter(0)\n  ROOT f = c64[2,1009] fft(a), fft_type=FFT, fft_length={1009}\n}\n",
      "HloModule m\nENTRY e {\n  a = c128[1,4096] parameter(0)\n  ROOT f = c128[1,4096] fft(a), fft_type=IFFT, fft_length={4096}\n}\n",
      "HloModule m\nENTRY e {\n  a = c128[1,2655] parameter(0)\n  ROOT f = c128[1,2655] fft(a), fft_type=FFT, fft_length={2655}\n}\n",
  };
  for (size_t i = 0; i < sizeof multi / sizeof multi[0]; i++) {
    cxla_module *m = NULL;
    CHECK_OK(cxla_module_parse(multi[i], strlen(multi[i]), "f", &m));
    if (!m) continue;
    const Shape *ps = m->entry->params[0]->shape;
    Literal *a[1] = {arg(ps->type, ps->rank, ps->dims, K_RAND, 70 + i)};
    bool dbl = ps->type == T_C128 || ps->type == T_F64;
    cxla_module_destroy(m);
    char name[32];
    snprintf(name, sizeof name, "fft multi %zu", i);
    CHECK(same_as_interp(name, multi[i], a, 1, dbl ? 1e-12 : 1e-6));
    checked++;
  }
  CHECK(checked == 153);
}

/* ---- topk ---- */

TEST(topk) {
  static const char *const types[] = {"f32", "f64", "bf16", "f16", "s32", "u8", "s64"};
  int checked = 0;
  for (size_t ti = 0; ti < sizeof types / sizeof types[0]; ti++)
    for (int k = 0; k <= 9; k += 3)
      for (int largest = 0; largest < 2; largest++) {
        char text[1024], name[64];
        const char *t = types[ti];
        snprintf(name, sizeof name, "topk %s k=%d %d", t, k, largest);
        snprintf(text, sizeof text,
                 "HloModule m\nENTRY e {\n  a = %s[4,9] parameter(0)\n  ROOT r = (%s[4,%d], s32[4,%d]) topk(a), k=%d, "
                 "largest=%s\n}\n",
                 t, t, k, k, k, largest ? "true" : "false");
        int64_t d[2] = {4, 9};
        ElemType et = T_F32;
        for (int e = 0; e < T_COUNT; e++)
          if (strcmp(type_name((ElemType)e), t) == 0) et = (ElemType)e;
        Literal *a = NULL;
        CHECK_OK(literal_create(et, 2, d, &a));
        if (!a) continue;
        g_rng = 99 + ti;
        for (int64_t i = 0; i < 36; i++) literal_set_f64(a, i, floor(urand() * 4 + 4)); /* ties */
        if (type_is_float(et)) { /* NaNs of both signs, infinities, signed zeros */
          literal_set_f64(a, 1, NAN);
          literal_set_f64(a, 2, -NAN);
          literal_set_f64(a, 3, INFINITY);
          literal_set_f64(a, 4, -INFINITY);
          literal_set_f64(a, 5, -0.0);
          literal_set_f64(a, 6, 0.0);
          literal_set_f64(a, 12, NAN);
        }
        CHECK(same_as_interp(name, text, &a, 1, 0));
        checked++;
      }
  /* XLA:CPU's TopK custom-call: the comparator gives the order */
  const char *cc = "HloModule m\ngt {\n  a = f32[] parameter(0)\n  b = f32[] parameter(1)\n  ROOT c = pred[] "
                   "compare(a, b), direction=GT\n}\nENTRY e {\n  x = f32[4,7] parameter(0)\n  ROOT r = (f32[4,3], s32[4,3]) "
                   "custom-call(x), custom_call_target=\"TopK\", to_apply=gt\n}\n";
  int64_t d[2] = {4, 7};
  Literal *a = arg(T_F32, 2, d, K_NANROW, 5);
  CHECK(same_as_interp("TopK custom-call", cc, &a, 1, 0));
  CHECK(checked == 56);
}

/* ---- rng, control routines ---- */

TEST(rng_and_control) {
  static const char *const mods[] = {
      /* rng: the interpreter's generator, state carried from op to op */
      "HloModule m\nENTRY e {\n  a = f32[] parameter(0)\n  b = f32[] parameter(1)\n  r = f32[5,3] rng(a, b), "
      "distribution=rng_uniform\n  s = f32[7] rng(a, b), distribution=rng_normal\n  ROOT t = (f32[5,3], f32[7]) tuple(r, s)\n}\n",
      "HloModule m\nENTRY e {\n  a = s32[] constant(-3)\n  b = s32[] constant(100)\n  ROOT r = s32[11] rng(a, b), "
      "distribution=rng_uniform\n}\n",
      "HloModule m\nENTRY e {\n  s = u64[2] rng-get-and-update-state(), delta=16\n  t = u64[2] rng-get-and-update-state(), "
      "delta=5\n  ROOT r = (u64[2], u64[2]) tuple(s, t)\n}\n",
      /* one-replica collectives */
      "HloModule m\nadd {\n  x = f32[] parameter(0)\n  y = f32[] parameter(1)\n  ROOT s = f32[] add(x, y)\n}\nENTRY e {\n"
      "  a = f32[4] parameter(0)\n  b = f32[] parameter(1)\n  r = f32[4] all-reduce(a), to_apply=add, replica_groups={}\n"
      "  p = f32[4] collective-permute(a), source_target_pairs={{0,1},{1,0}}\n"
      "  q = f32[4] collective-permute(a), source_target_pairs={{0,0}}\n  i = u32[] replica-id()\n"
      "  j = u32[] partition-id()\n  ROOT t = (f32[4], f32[4], f32[4], u32[], u32[]) tuple(r, p, q, i, j)\n}\n",
      /* async wrappers: the computation compiled; copy-start/done */
      "HloModule m\nsq {\n  x = f32[3] parameter(0)\n  ROOT y = f32[3] multiply(x, x)\n}\nENTRY e {\n"
      "  a = f32[3] parameter(0)\n  b = f32[] parameter(1)\n  s = ((f32[3]), f32[3], s32[]) async-start(a), calls=sq\n"
      "  d = f32[3] async-done(s)\n  c = (f32[3], f32[3], u32[]) copy-start(a)\n  e = f32[3] copy-done(c)\n"
      "  ROOT t = (f32[3], f32[3]) tuple(d, e)\n}\n",
      /* dimension sizes */
      "HloModule m\nENTRY e {\n  a = f32[3,5] parameter(0)\n  b = f32[] parameter(1)\n  s = s32[] get-dimension-size(a), "
      "dimensions={1}\n  ROOT t = (s32[], f32[3,5]) tuple(s, a)\n}\n",
      /* an annotating custom-call */
      "HloModule m\nENTRY e {\n  a = f32[2,3] parameter(0)\n  b = f32[] parameter(1)\n  ROOT s = f32[2,3] custom-call(a), "
      "custom_call_target=\"Sharding\", sharding={replicated}\n}\n",
  };
  for (size_t i = 0; i < sizeof mods / sizeof mods[0]; i++) {
    cxla_module *m = NULL;
    CHECK_OK(cxla_module_parse(mods[i], strlen(mods[i]), "c", &m));
    if (!m) continue;
    Literal *a[2] = {NULL, NULL};
    int na = m->entry->nparams;
    for (int k = 0; k < na; k++) {
      const Shape *ps = m->entry->params[k]->shape;
      a[k] = arg(ps->type, ps->rank, ps->dims, K_RAND, 80 + i * 2 + k);
    }
    if (na == 2 && i == 0) literal_set_f64(a[1], 0, 2.5); /* b > a for uniform */
    cxla_module_destroy(m);
    char name[32];
    snprintf(name, sizeof name, "control %zu", i);
    CHECK(same_as_interp(name, mods[i], a, na, 0));
  }
}

/* ---- compile errors ---- */

static cxla_status compile_text(const char *text) {
  cxla_module *m = NULL;
  cxla_status st = cxla_module_parse(text, strlen(text), "u", &m);
  CpuExecutable *x = NULL;
  if (!st) st = cpu_compile(m, NULL, &x);
  cpu_executable_destroy(x);
  cxla_module_destroy(m);
  return st;
}

TEST(unsupported_are_compile_errors) {
  CHECK_ERR(compile_text("HloModule m\nENTRY e {\n  a = f32[4] parameter(0)\n  ROOT r = f32[4] custom-call(a), "
                         "custom_call_target=\"no_such_target\"\n}\n"),
            "no_such_target");
  CHECK_ERR(compile_text("HloModule m\nENTRY e {\n  a = f32[3,3] parameter(0)\n  ROOT r = (f32[3,3], s32[]) "
                         "custom-call(a), custom_call_target=\"lapack_dpotrf_ffi\"\n}\n"),
            "lapack_dpotrf_ffi");
  /* a LAPACK target whose result does not fit its operand: refused when compiled */
  CHECK_ERR(compile_text("HloModule m\nENTRY e {\n  a = f32[3,3] parameter(0)\n  ROOT r = (f32[3,3], s32[2]) "
                         "custom-call(a), custom_call_target=\"lapack_spotrf_ffi\"\n}\n"),
            "result element 1");
  CHECK_ERR(compile_text("HloModule m\nENTRY e {\n  x = f32[2,3] parameter(0)\n  s = f32[3] parameter(1)\n"
                         "  o = f32[3] parameter(2)\n  ROOT r = (f32[2,3], f32[3], f32[3]) batch-norm-training(x, s, o), "
                         "epsilon=0.001, feature_index=1\n}\n"),
            "batchnorm-expander");
  CHECK_ERR(compile_text("HloModule m\nENTRY e {\n  a = c64[4,6] parameter(0)\n  ROOT f = c64[4,6] fft(a), "
                         "fft_type=FFT, fft_length={5}\n}\n"),
            "fft_length");
  CHECK_ERR(compile_text("HloModule m\nadd {\n  x = f32[] parameter(0)\n  y = f32[] parameter(1)\n  ROOT s = f32[] "
                         "add(x, y)\n}\nENTRY e {\n  a = f32[4] parameter(0)\n  ROOT g = f32[8] all-gather(a), "
                         "dimensions={0}, replica_groups={{0,1}}\n}\n"),
            "several replicas");
}

/* lapack_?gees_ffi on LAPACK's ?gees, as XLA:CPU (whose Schur form, not
 * unique, scipy.linalg.schur shares): for each type a 6x6 with complex
 * pairs, in mode 'V' and 'N'. T is (quasi-)upper triangular (real: 2x2
 * blocks on the diagonal for the pairs, wi of opposite signs on them),
 * VS orthonormal, VS T VS^H gives A back, w (wr + i wi) the diagonal,
 * sdim and info 0; in mode 'N' T is the same and VS zeros. */
TEST(gees_lapack) {
  enum { N = 6 };
  int checked = 0;
  for (int ti = 0; ti < 4; ti++)
    for (int mi = 0; mi < 2; mi++) {
      ElemType t = kTypes[ti];
      bool cx = type_is_complex(t);
      char text[1024], name[64];
      snprintf(name, sizeof name, "gees %s %c", tname(t), mi ? 'N' : 'V');
      snprintf(text, sizeof text,
               "HloModule m\nENTRY e {\n  a = %s[%d,%d] parameter(0)\n  ROOT c = (%s[%d,%d], %s[%d,%d], %s[%d]%s, "
               "s32[], s32[]) custom-call(a), custom_call_target=\"lapack_%cgees_ffi\", "
               "backend_config={mode = %d : ui8, sort = 78 : ui8}\n}\n",
               tname(t), N, N, tname(t), N, N, tname(t), N, N, tname(t), N, cx ? "" : (t == T_F32 ? ", f32[6]" : ", f64[6]"),
               "sdcz"[ti], mi ? 'N' : 'V');
      Literal *a = NULL, *got = NULL;
      CHECK_OK(literal_create(t, 2, (int64_t[]){N, N}, &a));
      if (!a) return;
      for (int i = 0; i < N * N; i++) put(a, i, sin(1.7 * i + ti) * 3, cx ? cos(0.9 * i) : 0);
      cxla_module *m = NULL;
      CpuExecutable *e = NULL;
      CHECK_OK(cxla_module_parse(text, strlen(text), name, &m));
      if (m) CHECK_OK(cpu_compile(m, NULL, &e));
      if (e) CHECK_OK(cpu_execute(e, &a, 1, &got));
      if (got) {
        const Literal *T = got->tuple[0], *V = got->tuple[1];
        int nr = cx ? 5 : 6;
        CHECK(*(const int32_t *)got->tuple[nr - 2]->data == 0 && *(const int32_t *)got->tuple[nr - 1]->data == 0);
        double tol = t == T_F64 || t == T_C128 ? 1e-12 : 1e-5, lower = 0, werr = 0, rec = 0;
        int blocks = 0;
        for (int i = 0; i < N; i++)
          for (int j = 0; j < i; j++) {
            double re, im;
            get(T, i * N + j, &re, &im);
            if (j == i - 1 && !cx && re != 0) blocks++;
            else lower = fmax(lower, hypot(re, im));
          }
        for (int i = 0; i < N; i++) {
          double tr, ti_, wr, wi;
          get(T, i * N + i, &tr, &ti_);
          get(got->tuple[2], i, &wr, &wi);
          if (!cx) get(got->tuple[3], i, &wi, &ti_), ti_ = 0;
          werr = fmax(werr, cx ? hypot(wr - tr, wi - ti_) : fabs(wr - tr));
        }
        if (mi == 0) {
          /* (V T V^H)[i][j] against a */
          for (int i = 0; i < N; i++)
            for (int j = 0; j < N; j++) {
              double sr = 0, si = 0;
              for (int k = 0; k < N; k++)
                for (int l = 0; l < N; l++) {
                  double vr, vi, tr, ti2, ur, ui;
                  get(V, i * N + k, &vr, &vi);
                  get(T, k * N + l, &tr, &ti2);
                  get(V, j * N + l, &ur, &ui);
                  ui = -ui; /* conj */
                  double pr = vr * tr - vi * ti2, pi = vr * ti2 + vi * tr;
                  sr += pr * ur - pi * ui, si += pr * ui + pi * ur;
                }
              double ar, ai;
              get(a, i * N + j, &ar, &ai);
              rec = fmax(rec, hypot(sr - ar, si - ai));
            }
        } else {
          for (int i = 0; i < N * N; i++) {
            double vr, vi;
            get(V, i, &vr, &vi);
            rec = fmax(rec, hypot(vr, vi));
          }
        }
        double o = mi == 0 ? orth_err(V, 0, N, N, false) : 0;
        bool ok = lower == 0 && werr <= tol * 10 && rec <= tol * 50 && o <= tol * 10 && (cx || blocks >= 1);
        if (!ok)
          printf("  %s: below %g, w %g, reconstruction %g, orthonormality %g, 2x2 blocks %d\n", name, lower, werr,
                 rec, o, blocks);
        CHECK(ok);
        checked++;
      }
      literal_free(a);
      literal_free(got);
      cpu_executable_destroy(e);
      cxla_module_destroy(m);
    }
  CHECK(checked == 8);
}

/* lapack_?geev_ffi on LAPACK's ?geev, as jaxlib's kernel calls it (the
 * eigenvalue order and the vectors are the routine's: tests/harness has
 * XLA:CPU's for some). For each type a 6x6 with complex eigenvalues, with
 * left and right vectors, either, or none: info 0; a real matrix's pairs
 * adjacent, exactly conjugate, their vectors conjugate; each vector asked
 * for of unit norm with its largest component real, A v = w v (right) and
 * u^H A = w u^H (left); those not asked for zeros. A NaN or infinite
 * entry: info -4, everything zero. */
TEST(geev_lapack) {
  enum { N = 6 };
  int checked = 0;
  for (int ti = 0; ti < 4; ti++)
    for (int mode = 0; mode < 4; mode++) {
      ElemType t = kTypes[ti];
      bool cx = type_is_complex(t), left = mode & 1, right = mode & 2;
      const char *ct = t == T_F32 || t == T_C64 ? "c64" : "c128";
      char text[1024], name[64], wtype[32];
      snprintf(name, sizeof name, "geev %s %c%c", tname(t), left ? 'V' : 'N', right ? 'V' : 'N');
      snprintf(wtype, sizeof wtype, "%s[%d]%s%s[%d]", tname(t), N, cx ? "" : ", ", cx ? "" : tname(t), N);
      if (cx) wtype[strlen(wtype) - 3] = 0;
      snprintf(text, sizeof text,
               "HloModule m\nENTRY e {\n  a = %s[%d,%d] parameter(0)\n  ROOT c = (%s[%d]%s%s, %s[%d,%d], %s[%d,%d], "
               "s32[]) custom-call(a), custom_call_target=\"lapack_%cgeev_ffi\", "
               "backend_config={compute_left = %d : ui8, compute_right = %d : ui8}\n}\n",
               tname(t), N, N, tname(t), N, cx ? "" : ", ", cx ? "" : (t == T_F32 ? "f32[6]" : "f64[6]"), ct, N, N, ct,
               N, N, "sdcz"[ti], left ? 'V' : 'N', right ? 'V' : 'N');
      cxla_module *m = NULL;
      CpuExecutable *e = NULL;
      CHECK_OK(cxla_module_parse(text, strlen(text), name, &m));
      if (m) CHECK_OK(cpu_compile(m, NULL, &e));
      for (int nan = 0; nan < 3 && e; nan++) {
        Literal *a = NULL, *got = NULL;
        CHECK_OK(literal_create(t, 2, (int64_t[]){N, N}, &a));
        if (!a) break;
        /* a skew-symmetric band (rotations) gives complex pairs */
        for (int i = 0; i < N * N; i++)
          put(a, i, sin(1.3 * i + ti) * 2 + (i % N == i / N + 1 ? 3 : i % N + 1 == i / N ? -3 : 0),
              cx ? cos(0.7 * i) : 0);
        if (nan) put(a, 7, nan == 1 ? NAN : INFINITY, 0);
        CHECK_OK(cpu_execute(e, &a, 1, &got));
        if (got) {
          int o = cx ? 0 : 1;
          const Literal *VL = got->tuple[1 + o], *VR = got->tuple[2 + o];
          int32_t info = *(const int32_t *)got->tuple[3 + o]->data;
          double tol = t == T_F64 || t == T_C128 ? 1e-12 : 2e-5, res = 0, nrm = 0, big_im = 0, zero = 0;
          int pairs = 0;
          bool pairs_ok = true;
          double w[N][2];
          for (int i = 0; i < N; i++) {
            get(got->tuple[0], i, &w[i][0], &w[i][1]);
            if (!cx) w[i][1] = literal_get_f64(got->tuple[1], i);
          }
          if (nan) {
            for (int i = 0; i < N; i++) zero = fmax(zero, hypot(w[i][0], w[i][1]));
          } else if (!cx) {
            for (int i = 0; i < N; i++) {
              if (w[i][1] == 0) continue;
              bool ok = w[i][1] > 0 && i + 1 < N && w[i + 1][0] == w[i][0] && w[i + 1][1] == -w[i][1];
              for (int side = 0; ok && side < 2; side++) {
                const Literal *V = side ? VR : VL;
                if (!(side ? right : left)) continue;
                for (int r = 0; r < N; r++) {
                  double ar, ai, br, bi;
                  get(V, r * N + i, &ar, &ai);
                  get(V, r * N + i + 1, &br, &bi);
                  ok = ok && ar == br && ai == -bi;
                }
              }
              pairs_ok = pairs_ok && ok;
              pairs++;
              i++;
            }
          }
          for (int side = 0; side < 2; side++) {
            const Literal *V = side ? VR : VL;
            bool asked = (side ? right : left) && !nan;
            for (int j = 0; j < N; j++) {
              double n2 = 0, big = -1, bim = 0;
              for (int i = 0; i < N; i++) {
                double vr, vi;
                get(V, i * N + j, &vr, &vi);
                if (!asked) zero = fmax(zero, hypot(vr, vi));
                n2 += vr * vr + vi * vi;
                if (vr * vr + vi * vi > big) big = vr * vr + vi * vi, bim = vi;
              }
              if (!asked) continue;
              nrm = fmax(nrm, fabs(sqrt(n2) - 1));
              big_im = fmax(big_im, fabs(bim));
              /* right: sum_k A[i][k] v[k] - w v[i]; left: sum_k conj(u[k]) A[k][i] - w conj(u[i]) */
              for (int i = 0; i < N; i++) {
                double sr = 0, si = 0;
                for (int k = 0; k < N; k++) {
                  double ar, ai, vr, vi;
                  get(a, side ? i * N + k : k * N + i, &ar, &ai);
                  get(V, k * N + j, &vr, &vi);
                  if (!side) vi = -vi;
                  sr += ar * vr - ai * vi, si += ar * vi + ai * vr;
                }
                double vr, vi;
                get(V, i * N + j, &vr, &vi);
                if (!side) vi = -vi;
                sr -= w[j][0] * vr - w[j][1] * vi, si -= w[j][0] * vi + w[j][1] * vr;
                res = fmax(res, hypot(sr, si));
              }
            }
          }
          bool ok = nan ? info == -4 && zero == 0
                        : info == 0 && zero == 0 && pairs_ok && (cx || pairs >= 1) && nrm <= tol * 10 &&
                              big_im <= tol && res <= tol * 50;
          if (!ok)
            printf("  %s%s: info %d, not asked %g, pairs %d (%s), norm %g, largest im %g, residual %g\n", name,
                   nan == 1 ? " NaN" : nan ? " inf" : "", info, zero, pairs, pairs_ok ? "ok" : "bad", nrm, big_im, res);
          CHECK(ok);
          checked++;
        }
        literal_free(a);
        literal_free(got);
      }
      cpu_executable_destroy(e);
      cxla_module_destroy(m);
    }
  CHECK(checked == 48);
}

/* The LAPACK custom-calls rt_linalg.c does not have run the interpreter's
 * routines on the executor's buffers (named in routines.c): the cpu
 * backend compiles them and gives the interpreter's results. */
TEST(interpreted_lapack_targets) {
  static const char *const mods[][2] = {
      {"dgehrd", "HloModule m\nENTRY e {\n  a = f64[3,3] parameter(0)\n"
                 "  ROOT r = (f64[3,3], f64[2], s32[]) custom-call(a), "
                 "custom_call_target=\"lapack_dgehrd_ffi\", "
                 "backend_config={high = 3 : i32, low = 1 : i32}, api_version=API_VERSION_TYPED_FFI\n}\n"},
  };
  double a[9] = {1, 2, 3, -4, 1, 0.5, 0, 1, 2};
  int64_t d[2] = {3, 3};
  for (size_t i = 0; i < sizeof mods / sizeof mods[0]; i++) {
    Literal *x[1] = {NULL}; /* same_as_interp frees the argument */
    if (literal_create(T_F64, 2, d, &x[0])) {
      CHECK(false);
      return;
    }
    memcpy(x[0]->data, a, sizeof a);
    CHECK(compile_text(mods[i][1]) == NULL);
    CHECK(same_as_interp(mods[i][0], mods[i][1], x, 1, 1e-10));
  }
}

int main(void) {
  RUN(unsupported_are_compile_errors);
  RUN(cholesky_and_potrf);
  RUN(triangular_solve_and_trsm);
  RUN(getrf);
  RUN(geqrf_orgqr);
  RUN(syevd_heevd_eigh);
  RUN(gesdd_gesvd);
  RUN(gesdd_wide);
  RUN(gees_lapack);
  RUN(geev_lapack);
  RUN(gtsv);
  RUN(fft_all_kinds);
  RUN(topk);
  RUN(rng_and_control);
  RUN(interpreted_lapack_targets);
  return test_summary(__FILE__);
}
