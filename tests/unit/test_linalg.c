/* Unit tests for src/interp/linalg.c: cholesky, triangular-solve, the
 * batch-norm ops and the LAPACK custom-call targets. Expected values are
 * worked out by hand in the comments; for factorizations whose output is not
 * unique (signs of eigen/singular vectors), the tests check the unique
 * quantities (reconstruction, orthonormality, values). */
#include <stdlib.h>

#include "harness.h"
#include "math_oom.h"
#include "interp/interp.h"

static HloModule *M;
static Computation *C;

static void setup(void) {
  CHECK_OK(module_create("t", &M));
  C = module_add_computation(M, "main");
}

static Shape *shp(ElemType t, int rank, const int64_t *d) { return shape_new(&M->arena, t, rank, d); }

static Shape *tup(int n, Shape *a, Shape *b, Shape *c, Shape *d, Shape *e) {
  Shape *el[5] = {a, b, c, d, e};
  return shape_new_tuple(&M->arena, n, el);
}

static Instr *param(Shape *s) { return comp_add_instr(C, OP_PARAMETER, s, 0, NULL, NULL); }

static Instr *custom(const char *target, const char *cfg, Shape *out, int nops, Instr **ops) {
  Instr *c = comp_add_instr(C, OP_CUSTOM_CALL, out, nops, ops, "cc");
  c->attrs |= A_CUSTOM_CALL;
  c->custom_call_target = arena_strdup(&M->arena, target);
  if (cfg) CHECK_OK(instr_add_raw(M, c, "backend_config", cfg));
  return c;
}

static Literal *lit(ElemType t, int rank, const int64_t *dims, const double *v) {
  Literal *l;
  CHECK_OK(literal_create(t, rank, dims, &l));
  for (int64_t i = 0; i < l->nelems; i++) literal_set_f64(l, i, v[i]);
  return l;
}

static Literal *eval(Instr *in, int n, Literal **ops) {
  Interp ip = {0};
  Literal *o = NULL;
  (void)n;
  CHECK_OK(interp_linalg(&ip, in, ops, &o));
  return o;
}

static bool near(double a, double b, double tol) { return fabs(a - b) <= tol; }

static void check_vals(const Literal *o, const double *want, int n, double tol) {
  CHECK(o != NULL);
  if (!o) return;
  CHECK(o->nelems == n);
  for (int i = 0; i < n && i < o->nelems; i++)
    if (!near(literal_get_f64(o, i), want[i], tol)) {
      fprintf(stderr, "  element %d: got %.10g want %.10g\n", i, literal_get_f64(o, i), want[i]);
      CHECK(near(literal_get_f64(o, i), want[i], tol));
    }
}

static void free_all(Literal **l, int n) {
  for (int i = 0; i < n; i++) literal_free(l[i]);
}

/* ---- HLO cholesky ---- */

/* [[4,2],[2,3]] = L L^T with L = [[2,0],[1,sqrt2]]; upper: L^T. */
TEST(cholesky_lower_upper) {
  setup();
  int64_t d[2] = {2, 2};
  Instr *p = param(shp(T_F32, 2, d));
  Instr *c = comp_add_instr(C, OP_CHOLESKY, shp(T_F32, 2, d), 1, &p, "chol");
  c->attrs |= A_CHOLESKY;
  c->chol_lower = true;
  double a[4] = {4, 2, 2, 3};
  Literal *x = lit(T_F32, 2, d, a);
  Literal *o = eval(c, 1, &x);
  double wl[4] = {2, 0, 1, sqrt(2.0)}, wu[4] = {2, 1, 0, sqrt(2.0)};
  check_vals(o, wl, 4, 1e-6);
  literal_free(o);
  c->chol_lower = false;
  o = eval(c, 1, &x);
  check_vals(o, wu, 4, 1e-6);
  literal_free(o);
  literal_free(x);
  module_destroy(M);
}

/* A batch of two: the first not positive definite ([[1,2],[2,1]] has
 * eigenvalue -1) gives all NaN; the second factors normally. */
TEST(cholesky_batch_not_pd) {
  setup();
  int64_t d[3] = {2, 2, 2};
  Instr *p = param(shp(T_F64, 3, d));
  Instr *c = comp_add_instr(C, OP_CHOLESKY, shp(T_F64, 3, d), 1, &p, "chol");
  c->chol_lower = true;
  double a[8] = {1, 2, 2, 1, 9, 0, 0, 16};
  Literal *x = lit(T_F64, 3, d, a);
  Literal *o = eval(c, 1, &x);
  if (o) {
    for (int i = 0; i < 4; i++) CHECK(isnan(literal_get_f64(o, i)));
    CHECK(literal_get_f64(o, 4) == 3 && literal_get_f64(o, 5) == 0);
    CHECK(literal_get_f64(o, 6) == 0 && literal_get_f64(o, 7) == 4);
  }
  literal_free(o);
  literal_free(x);
  module_destroy(M);
}

/* ---- potrf ---- */

/* LAPACK potrf('L') writes L into the lower triangle and leaves the strict
 * upper triangle as it was (99). Non-PD [[1,2],[2,1]]: info = 2. */
TEST(potrf) {
  setup();
  int64_t d[2] = {2, 2};
  Instr *p = param(shp(T_F32, 2, d));
  Instr *c = custom("lapack_spotrf_ffi", "{uplo = 76 : ui8}",
                    tup(2, shp(T_F32, 2, d), shp(T_S32, 0, NULL), NULL, NULL, NULL), 1, &p);
  double a[4] = {4, 99, 2, 3};
  Literal *x = lit(T_F32, 2, d, a);
  Literal *o = eval(c, 1, &x);
  double w[4] = {2, 99, 1, sqrt(2.0)};
  if (o) {
    check_vals(o->tuple[0], w, 4, 1e-6);
    CHECK(literal_get_i64(o->tuple[1], 0) == 0);
  }
  literal_free(o);
  double bad[4] = {1, 2, 2, 1};
  Literal *y = lit(T_F32, 2, d, bad);
  o = eval(c, 1, &y);
  if (o) CHECK(literal_get_i64(o->tuple[1], 0) == 2);
  literal_free(o);
  /* uplo 'U' (85): U = [[2,1],[0,sqrt2]] from the upper triangle; the
   * strict lower triangle (77) stays. */
  Instr *cu = custom("lapack_spotrf_ffi", "{uplo = 85 : ui8}", c->shape, 1, &p);
  double au[4] = {4, 2, 77, 3};
  Literal *z = lit(T_F32, 2, d, au);
  o = eval(cu, 1, &z);
  double wu[4] = {2, 1, 77, sqrt(2.0)};
  if (o) check_vals(o->tuple[0], wu, 4, 1e-6);
  literal_free(o);
  Literal *all[3] = {x, y, z};
  free_all(all, 3);
  module_destroy(M);
}

/* ---- triangular solve ---- */

static Literal *solve(const char *cfg, const double *a, int64_t am, const double *b, int64_t br,
                      int64_t bc) {
  int64_t ad[2] = {am, am}, bd[2] = {br, bc};
  Instr *ops[2] = {param(shp(T_F32, 2, ad)), param(shp(T_F32, 2, bd))};
  Instr *c = custom("lapack_strsm_ffi", cfg, shp(T_F32, 2, bd), 2, ops);
  Literal *l[2] = {lit(T_F32, 2, ad, a), lit(T_F32, 2, bd, b)};
  Literal *o = eval(c, 2, l);
  free_all(l, 2);
  return o;
}

TEST(trsm_variants) {
  setup();
  double A[4] = {2, 0, 1, 1}, b[2] = {4, 5};
  /* lower, left: 2 x0 = 4, x0 + x1 = 5 -> (2, 3) */
  Literal *o = solve("{diag = 78 : ui8, side = 76 : ui8, trans_x = 78 : ui8, uplo = 76 : ui8}",
                     A, 2, b, 2, 1);
  double w1[2] = {2, 3};
  check_vals(o, w1, 2, 1e-6);
  literal_free(o);
  /* A^T = [[2,1],[0,1]]: x1 = 5, x0 = (4 - 5)/2 = -0.5 */
  o = solve("{diag = 78 : ui8, side = 76 : ui8, trans_x = 84 : ui8, uplo = 76 : ui8}", A, 2, b,
            2, 1);
  double w2[2] = {-0.5, 5};
  check_vals(o, w2, 2, 1e-6);
  literal_free(o);
  /* right side, x A = b (1x2): (2 x0 + x1, x1) = (4, 5) -> (-0.5, 5) */
  o = solve("{diag = 78 : ui8, side = 82 : ui8, trans_x = 78 : ui8, uplo = 76 : ui8}", A, 2, b,
            1, 2);
  check_vals(o, w2, 2, 1e-6);
  literal_free(o);
  /* unit diagonal ignores 7 and 9: [[1,0],[1,1]] x = (4,5) -> (4, 1) */
  double U[4] = {7, 0, 1, 9}, w3[2] = {4, 1};
  o = solve("{diag = 85 : ui8, side = 76 : ui8, trans_x = 78 : ui8, uplo = 76 : ui8}", U, 2, b,
            2, 1);
  check_vals(o, w3, 2, 1e-6);
  literal_free(o);
  /* upper ignores the 100 below: [[2,3],[0,4]] x = (4,5): x1 = 1.25,
   * x0 = (4 - 3.75)/2 = 0.125 */
  double Up[4] = {2, 3, 100, 4}, w4[2] = {0.125, 1.25};
  o = solve("{diag = 78 : ui8, side = 76 : ui8, trans_x = 78 : ui8, uplo = 85 : ui8}", Up, 2, b,
            2, 1);
  check_vals(o, w4, 2, 1e-6);
  literal_free(o);
  module_destroy(M);
}

/* HLO triangular-solve, complex ADJOINT: A = [[2,0],[i,1]] lower, A^H =
 * [[2,-i],[0,1]]; A^H x = (2, 1): x1 = 1, x0 = (2 + i)/2 = 1 + 0.5i. And a
 * right-side solve with two right-hand-side rows. */
TEST(triangular_solve_hlo) {
  setup();
  int64_t ad[2] = {2, 2}, bd[2] = {2, 1};
  Instr *ops[2] = {param(shp(T_C64, 2, ad)), param(shp(T_C64, 2, bd))};
  Instr *t = comp_add_instr(C, OP_TRIANGULAR_SOLVE, shp(T_C64, 2, bd), 2, ops, "ts");
  t->attrs |= A_TRIANGULAR;
  t->tri_left_side = true;
  t->tri_lower = true;
  t->tri_transpose = TRI_ADJOINT;
  Literal *l[2];
  CHECK_OK(literal_create(T_C64, 2, ad, &l[0]));
  CHECK_OK(literal_create(T_C64, 2, bd, &l[1]));
  float *a = l[0]->data, *b = l[1]->data;
  a[0] = 2, a[4] = 0, a[5] = 1, a[6] = 1; /* (0,0)=2, (1,0)=i, (1,1)=1 */
  b[0] = 2, b[2] = 1;
  Literal *o = eval(t, 2, l);
  if (o) {
    float *x = o->data;
    CHECK(near(x[0], 1, 1e-6) && near(x[1], 0.5, 1e-6) && near(x[2], 1, 1e-6) && near(x[3], 0, 1e-6));
  }
  literal_free(o);
  free_all(l, 2);
  /* Real, right side, upper, no transpose: X [[2,1],[0,4]] = B, rows of B
   * (2, 5) and (4, 6): x = (1, (5-1)/4 = 1) and (2, (6-2)/4 = 1). */
  int64_t b2[2] = {2, 2};
  Instr *ops2[2] = {param(shp(T_F64, 2, ad)), param(shp(T_F64, 2, b2))};
  Instr *t2 = comp_add_instr(C, OP_TRIANGULAR_SOLVE, shp(T_F64, 2, b2), 2, ops2, "ts2");
  t2->tri_left_side = false;
  t2->tri_lower = false;
  t2->tri_transpose = TRI_NO_TRANSPOSE;
  double A2[4] = {2, 1, 0, 4}, B2[4] = {2, 5, 4, 6}, W2[4] = {1, 1, 2, 1};
  Literal *l2[2] = {lit(T_F64, 2, ad, A2), lit(T_F64, 2, b2, B2)};
  o = eval(t2, 2, l2);
  check_vals(o, W2, 4, 1e-12);
  literal_free(o);
  free_all(l2, 2);
  /* f16 and bf16 (before float-normalization widens them): the same
   * system, lower, left side: [[2,0],[1,4]] x = (2, 9): x = (1, 2),
   * exact in both */
  for (int k = 0; k < 2; k++) {
    ElemType t = k ? T_BF16 : T_F16;
    Instr *ops3[2] = {param(shp(t, 2, ad)), param(shp(t, 2, bd))};
    Instr *t3 = comp_add_instr(C, OP_TRIANGULAR_SOLVE, shp(t, 2, bd), 2, ops3, "ts3");
    t3->tri_left_side = true;
    t3->tri_lower = true;
    t3->tri_transpose = TRI_NO_TRANSPOSE;
    double A3[4] = {2, 0, 1, 4}, B3[2] = {2, 9}, W3[2] = {1, 2};
    Literal *l3[2] = {lit(t, 2, ad, A3), lit(t, 2, bd, B3)};
    o = eval(t3, 2, l3);
    CHECK(o && o->type == t);
    check_vals(o, W3, 2, 0);
    literal_free(o);
    free_all(l3, 2);
  }
  module_destroy(M);
}

/* ---- getrf ---- */

static Literal *getrf(const double *a, int64_t m, int64_t n) {
  int64_t d[2] = {m, n}, k = m < n ? m : n;
  Instr *p = param(shp(T_F64, 2, d));
  Instr *c = custom("lapack_dgetrf_ffi", "{}",
                    tup(3, shp(T_F64, 2, d), shp(T_S32, 1, &k), shp(T_S32, 0, NULL), NULL, NULL),
                    1, &p);
  Literal *x = lit(T_F64, 2, d, a);
  Literal *o = eval(c, 1, &x);
  literal_free(x);
  return o;
}

TEST(getrf_pivots) {
  setup();
  /* [[1,2],[3,4]]: pivot row 2 (|3| > |1|): swap, l = 1/3, u22 = 2 - 4/3. */
  double a[4] = {1, 2, 3, 4}, w[4] = {3, 4, 1.0 / 3, 2.0 / 3};
  Literal *o = getrf(a, 2, 2);
  if (o) {
    check_vals(o->tuple[0], w, 4, 1e-15);
    CHECK(literal_get_i64(o->tuple[1], 0) == 2 && literal_get_i64(o->tuple[1], 1) == 2);
    CHECK(literal_get_i64(o->tuple[2], 0) == 0);
  }
  literal_free(o);
  /* Tie |2| == |-2|: LAPACK keeps the first; l = -1, u22 = 5 + 1 = 6. */
  double t[4] = {2, 1, -2, 5}, wt[4] = {2, 1, -1, 6};
  o = getrf(t, 2, 2);
  if (o) {
    check_vals(o->tuple[0], wt, 4, 1e-15);
    CHECK(literal_get_i64(o->tuple[1], 0) == 1 && literal_get_i64(o->tuple[1], 1) == 2);
  }
  literal_free(o);
  /* All zero: no swaps, info = 1 (the first zero pivot). */
  double z[4] = {0, 0, 0, 0};
  o = getrf(z, 2, 2);
  if (o) {
    CHECK(literal_get_i64(o->tuple[1], 0) == 1 && literal_get_i64(o->tuple[1], 1) == 2);
    CHECK(literal_get_i64(o->tuple[2], 0) == 1);
  }
  literal_free(o);
  /* 3x2 tall: column 0 = (1, 5, 2): pivot row 2 (5); rows become (5,6),
   * (1,2), (2,3) with multipliers 0.2 and 0.4; updated column 1 below the
   * pivot: 2 - 0.2*6 = 0.8 and 3 - 0.4*6 = 0.6; pivot 0.8 stays (row 2
   * of the swapped matrix); multiplier 0.6/0.8 = 0.75. */
  double g[6] = {1, 2, 5, 6, 2, 3}, wg[6] = {5, 6, 0.2, 0.8, 0.4, 0.75};
  o = getrf(g, 3, 2);
  if (o) {
    check_vals(o->tuple[0], wg, 6, 1e-15);
    CHECK(literal_get_i64(o->tuple[1], 0) == 2 && literal_get_i64(o->tuple[1], 1) == 2);
  }
  literal_free(o);
  module_destroy(M);
}

/* ---- geqrf / orgqr ---- */

/* (3,4)^T: alpha 3, xnorm 4, beta = -5, tau = (beta-alpha)/beta = 1.6,
 * v = 4/(3+5) = 0.5; Q's column = H e1 = (1 - 1.6, -1.6*0.5) = (-0.6, -0.8). */
TEST(geqrf_orgqr_by_hand) {
  setup();
  int64_t d[2] = {2, 1}, k = 1;
  Instr *p = param(shp(T_F32, 2, d));
  Instr *g = custom("lapack_sgeqrf_ffi", "{}",
                    tup(2, shp(T_F32, 2, d), shp(T_F32, 1, &k), NULL, NULL, NULL), 1, &p);
  double a[2] = {3, 4};
  Literal *x = lit(T_F32, 2, d, a);
  Literal *o = eval(g, 1, &x);
  double wa[2] = {-5, 0.5}, wt[1] = {1.6};
  if (o) {
    check_vals(o->tuple[0], wa, 2, 1e-6);
    check_vals(o->tuple[1], wt, 1, 1e-6);
    Instr *ops[2] = {param(shp(T_F32, 2, d)), param(shp(T_F32, 1, &k))};
    Instr *q = custom("lapack_sorgqr_ffi", "{}", shp(T_F32, 2, d), 2, ops);
    Literal *qo = eval(q, 2, o->tuple);
    double wq[2] = {-0.6, -0.8};
    check_vals(qo, wq, 2, 1e-6);
    literal_free(qo);
  }
  literal_free(o);
  literal_free(x);
  module_destroy(M);
}

/* QR of a 4x3 matrix: Q^T Q = I, R upper triangular, Q R = A. */
TEST(qr_reconstructs) {
  setup();
  int64_t d[2] = {4, 3}, k = 3;
  Instr *p = param(shp(T_F64, 2, d));
  Instr *g = custom("lapack_dgeqrf_ffi", "{}",
                    tup(2, shp(T_F64, 2, d), shp(T_F64, 1, &k), NULL, NULL, NULL), 1, &p);
  double a[12] = {1, -2, 3, 4, 0, -1, 2, 2, 5, -3, 1, 1};
  Literal *x = lit(T_F64, 2, d, a);
  Literal *o = eval(g, 1, &x);
  if (o) {
    Instr *ops[2] = {param(shp(T_F64, 2, d)), param(shp(T_F64, 1, &k))};
    Instr *q = custom("lapack_dorgqr_ffi", "{}", shp(T_F64, 2, d), 2, ops);
    Literal *qo = eval(q, 2, o->tuple);
    if (qo) {
      const double *Q = qo->data, *R = o->tuple[0]->data;
      for (int i = 0; i < 3; i++)
        for (int j = 0; j < 3; j++) {
          double s = 0;
          for (int r = 0; r < 4; r++) s += Q[r * 3 + i] * Q[r * 3 + j];
          CHECK(near(s, i == j, 1e-12));
        }
      for (int i = 0; i < 4; i++)
        for (int j = 0; j < 3; j++) {
          double s = 0;
          for (int r = 0; r <= j && r < 3; r++) s += Q[i * 3 + r] * R[r * 3 + j];
          CHECK(near(s, a[i * 3 + j], 1e-12));
        }
    }
    literal_free(qo);
  }
  literal_free(o);
  literal_free(x);
  module_destroy(M);
}

/* ---- syevd ---- */

/* [[2,1],[1,2]]: eigenvalues 1, 3 (ascending); eigenvectors (1,-1)/sqrt2
 * and (1,1)/sqrt2 up to sign. The upper triangle (99) is not read with
 * uplo = L. */
TEST(syevd_2x2) {
  setup();
  int64_t d[2] = {2, 2}, n = 2;
  Instr *p = param(shp(T_F32, 2, d));
  Instr *c = custom("lapack_ssyevd_ffi", "{mode = 86 : ui8, uplo = 76 : ui8}",
                    tup(3, shp(T_F32, 2, d), shp(T_F32, 1, &n), shp(T_S32, 0, NULL), NULL, NULL),
                    1, &p);
  double a[4] = {2, 99, 1, 2};
  Literal *x = lit(T_F32, 2, d, a);
  Literal *o = eval(c, 1, &x);
  double w[2] = {1, 3};
  if (o) {
    check_vals(o->tuple[1], w, 2, 1e-6);
    const float *v = o->tuple[0]->data;
    double h = sqrt(0.5);
    CHECK(near(fabs(v[0]), h, 1e-6) && near(fabs(v[2]), h, 1e-6) && v[0] * v[2] < 0);
    CHECK(near(fabs(v[1]), h, 1e-6) && near(fabs(v[3]), h, 1e-6) && v[1] * v[3] > 0);
    CHECK(literal_get_i64(o->tuple[2], 0) == 0);
  }
  literal_free(o);
  literal_free(x);
  module_destroy(M);
}

/* A 4x4 symmetric matrix: V diag(w) V^T = A, V^T V = I, w ascending. */
TEST(syevd_reconstructs) {
  setup();
  int64_t d[2] = {4, 4}, n = 4;
  Instr *p = param(shp(T_F64, 2, d));
  Instr *c = custom("lapack_dsyevd_ffi", "{mode = 86 : ui8, uplo = 85 : ui8}",
                    tup(3, shp(T_F64, 2, d), shp(T_F64, 1, &n), shp(T_S32, 0, NULL), NULL, NULL),
                    1, &p);
  double a[16] = {4, 1, -2, 2, 1, 2, 0, 1, -2, 0, 3, -2, 2, 1, -2, -1};
  Literal *x = lit(T_F64, 2, d, a);
  Literal *o = eval(c, 1, &x);
  if (o) {
    const double *V = o->tuple[0]->data, *w = o->tuple[1]->data;
    for (int i = 0; i < 3; i++) CHECK(w[i] <= w[i + 1]);
    for (int i = 0; i < 4; i++)
      for (int j = 0; j < 4; j++) {
        double s = 0, e = 0;
        for (int k = 0; k < 4; k++) {
          s += V[i * 4 + k] * w[k] * V[j * 4 + k];
          e += V[k * 4 + i] * V[k * 4 + j];
        }
        CHECK(near(s, a[i * 4 + j], 1e-12));
        CHECK(near(e, i == j, 1e-12));
      }
    /* trace = sum of eigenvalues = 4 + 2 + 3 - 1 = 8 */
    CHECK(near(w[0] + w[1] + w[2] + w[3], 8, 1e-12));
  }
  literal_free(o);
  literal_free(x);
  module_destroy(M);
}

/* ---- gesdd ---- */

/* Checks U diag(s) Vt = A (m x n), orthonormal U columns and Vt rows. */
static void check_svd(const Literal *o, const double *a, int64_t m, int64_t n, int64_t uc,
                      int64_t vr) {
  const double *s = o->tuple[1]->data, *U = o->tuple[2]->data, *Vt = o->tuple[3]->data;
  int64_t k = m < n ? m : n;
  for (int64_t i = 0; i + 1 < k; i++) CHECK(s[i] >= s[i + 1]);
  for (int64_t i = 0; i < m; i++)
    for (int64_t j = 0; j < n; j++) {
      double v = 0;
      for (int64_t r = 0; r < k; r++) v += U[i * uc + r] * s[r] * Vt[r * n + j];
      CHECK(near(v, a[i * n + j], 1e-12));
    }
  for (int64_t i = 0; i < uc; i++)
    for (int64_t j = 0; j < uc; j++) {
      double v = 0;
      for (int64_t r = 0; r < m; r++) v += U[r * uc + i] * U[r * uc + j];
      CHECK(near(v, i == j, 1e-12));
    }
  for (int64_t i = 0; i < vr; i++)
    for (int64_t j = 0; j < vr; j++) {
      double v = 0;
      for (int64_t r = 0; r < n; r++) v += Vt[i * n + r] * Vt[j * n + r];
      CHECK(near(v, i == j, 1e-12));
    }
  CHECK(literal_get_i64(o->tuple[4], 0) == 0);
}

static Literal *gesdd(const double *a, int64_t m, int64_t n, char mode) {
  int64_t d[2] = {m, n}, k = m < n ? m : n;
  bool full = mode == 'A';
  int64_t ud[2] = {m, full ? m : k}, vd[2] = {full ? n : k, n};
  Instr *p = param(shp(T_F64, 2, d));
  char cfg[32];
  snprintf(cfg, sizeof cfg, "{mode = %d : ui8}", mode);
  Instr *c = custom("lapack_dgesdd_ffi", cfg,
                    tup(5, shp(T_F64, 2, d), shp(T_F64, 1, &k), shp(T_F64, 2, ud),
                        shp(T_F64, 2, vd), shp(T_S32, 0, NULL)),
                    1, &p);
  Literal *x = lit(T_F64, 2, d, a);
  Literal *o = eval(c, 1, &x);
  literal_free(x);
  return o;
}

TEST(gesdd_by_hand) {
  setup();
  /* diag(3, 4): singular values 4, 3 (descending). */
  double a[4] = {3, 0, 0, 4}, w[2] = {4, 3};
  Literal *o = gesdd(a, 2, 2, 'S');
  if (o) {
    check_vals(o->tuple[1], w, 2, 1e-15);
    check_svd(o, a, 2, 2, 2, 2);
  }
  literal_free(o);
  /* Wide 2x3 [[1,0,0],[0,2,0]], full: s = (2, 1); U 2x2, Vt 3x3. */
  double b[6] = {1, 0, 0, 0, 2, 0}, wb[2] = {2, 1};
  o = gesdd(b, 2, 3, 'A');
  if (o) {
    check_vals(o->tuple[1], wb, 2, 1e-15);
    check_svd(o, b, 2, 3, 2, 3);
  }
  literal_free(o);
  module_destroy(M);
}

/* A rank-deficient tall 4x3 (third column = first + second), full and
 * economy: reconstruction and orthonormality hold, the last value is 0. */
TEST(gesdd_rank_deficient) {
  setup();
  double a[12] = {1, 2, 3, -1, 0, -1, 2, 1, 3, 0, 4, 4};
  Literal *o = gesdd(a, 4, 3, 'A');
  if (o) {
    check_svd(o, a, 4, 3, 4, 3);
    CHECK(near(((double *)o->tuple[1]->data)[2], 0, 1e-12));
  }
  literal_free(o);
  o = gesdd(a, 4, 3, 'S');
  if (o) check_svd(o, a, 4, 3, 3, 3);
  literal_free(o);
  /* mode 'N': singular values only; s^2 sums to ||A||_F^2 = 1+4+9+1+0+1+4+1+9+0+16+16 = 62. */
  o = gesdd(a, 4, 3, 'N');
  if (o) {
    const double *s = o->tuple[1]->data;
    CHECK(near(s[0] * s[0] + s[1] * s[1] + s[2] * s[2], 62, 1e-11));
  }
  literal_free(o);
  module_destroy(M);
}

/* ---- complex variants ---- */

/* A c128 literal from interleaved (re, im) pairs. */
static Literal *clit(int rank, const int64_t *dims, const double *v) {
  Literal *l;
  CHECK_OK(literal_create(T_C128, rank, dims, &l));
  memcpy(l->data, v, (size_t)l->nelems * 2 * sizeof(double));
  return l;
}

typedef struct { double re, im; } Z;
static Z zat(const Literal *l, int64_t i) {
  Z z = {((double *)l->data)[2 * i], ((double *)l->data)[2 * i + 1]};
  return z;
}
static Z zmul(Z a, Z b) { Z z = {a.re * b.re - a.im * b.im, a.re * b.im + a.im * b.re}; return z; }
static Z zconj(Z a) { Z z = {a.re, -a.im}; return z; }
static bool znear(Z a, double re, double im, double tol) {
  return near(a.re, re, tol) && near(a.im, im, tol);
}

/* Hermitian PD [[4, 2i], [-2i, 3]] = L L^H with L = [[2, 0], [-i, sqrt2]]. */
TEST(zpotrf) {
  setup();
  int64_t d[2] = {2, 2};
  Instr *p = param(shp(T_C128, 2, d));
  Instr *c = custom("lapack_zpotrf_ffi", "{uplo = 76 : ui8}",
                    tup(2, shp(T_C128, 2, d), shp(T_S32, 0, NULL), NULL, NULL, NULL), 1, &p);
  double a[8] = {4, 0, 0, 2, 0, -2, 3, 0};
  Literal *x = clit(2, d, a), *o = eval(c, 1, &x);
  if (o) {
    CHECK(znear(zat(o->tuple[0], 0), 2, 0, 1e-15));
    CHECK(znear(zat(o->tuple[0], 2), 0, -1, 1e-15));
    CHECK(znear(zat(o->tuple[0], 3), sqrt(2.0), 0, 1e-15));
  }
  literal_free(o);
  literal_free(x);
  module_destroy(M);
}

/* LAPACK's izamax compares |re| + |im|: in column (1+i, 1.5) it picks 1+i
 * (2 > 1.5) although |1.5| > |1+i|. l = 1.5/(1+i) = 0.75 - 0.75i,
 * u22 = 3 - 2l = 1.5 + 1.5i. */
TEST(zgetrf_pivot_metric) {
  setup();
  int64_t d[2] = {2, 2}, k = 2;
  Instr *p = param(shp(T_C128, 2, d));
  Instr *c = custom("lapack_zgetrf_ffi", "{}",
                    tup(3, shp(T_C128, 2, d), shp(T_S32, 1, &k), shp(T_S32, 0, NULL), NULL, NULL),
                    1, &p);
  double a[8] = {1, 1, 2, 0, 1.5, 0, 3, 0};
  Literal *x = clit(2, d, a), *o = eval(c, 1, &x);
  if (o) {
    CHECK(literal_get_i64(o->tuple[1], 0) == 1 && literal_get_i64(o->tuple[1], 1) == 2);
    CHECK(znear(zat(o->tuple[0], 2), 0.75, -0.75, 1e-15));
    CHECK(znear(zat(o->tuple[0], 3), 1.5, 1.5, 1e-15));
  }
  literal_free(o);
  literal_free(x);
  module_destroy(M);
}

/* Complex QR of a 3x2 matrix: Q^H Q = I and Q R = A; heevd of
 * [[2, i], [-i, 2]] has eigenvalues 1, 3 and V diag(w) V^H = A; complex SVD
 * of the same 3x2 matrix reconstructs it with orthonormal U, V. */
TEST(complex_qr_eigh_svd) {
  setup();
  int64_t d[2] = {3, 2}, k = 2, s2[2] = {2, 2};
  double a[12] = {1, 2, 0, -1, 3, 0, 1, 1, -2, 1, 0.5, 4};
  Literal *x = clit(2, d, a);
  Instr *p = param(shp(T_C128, 2, d));
  Instr *g = custom("lapack_zgeqrf_ffi", "{}",
                    tup(2, shp(T_C128, 2, d), shp(T_C128, 1, &k), NULL, NULL, NULL), 1, &p);
  Literal *qr = eval(g, 1, &x);
  if (qr) {
    Instr *ops[2] = {param(shp(T_C128, 2, d)), param(shp(T_C128, 1, &k))};
    Instr *q = custom("lapack_zungqr_ffi", "{}", shp(T_C128, 2, d), 2, ops);
    Literal *qo = eval(q, 2, qr->tuple);
    if (qo) {
      for (int i = 0; i < 2; i++)
        for (int j = 0; j < 2; j++) {
          Z s = {0, 0};
          for (int r = 0; r < 3; r++) {
            Z t = zmul(zconj(zat(qo, r * 2 + i)), zat(qo, r * 2 + j));
            s.re += t.re, s.im += t.im;
          }
          CHECK(znear(s, i == j, 0, 1e-14));
        }
      for (int i = 0; i < 3; i++)
        for (int j = 0; j < 2; j++) {
          Z s = {0, 0};
          for (int r = 0; r <= j; r++) {
            Z t = zmul(zat(qo, i * 2 + r), zat(qr->tuple[0], r * 2 + j));
            s.re += t.re, s.im += t.im;
          }
          CHECK(znear(s, a[2 * (i * 2 + j)], a[2 * (i * 2 + j) + 1], 1e-14));
        }
    }
    literal_free(qo);
  }
  literal_free(qr);

  Instr *ph = param(shp(T_C128, 2, s2));
  Instr *e = custom("lapack_zheevd_ffi", "{mode = 86 : ui8, uplo = 76 : ui8}",
                    tup(3, shp(T_C128, 2, s2), shp(T_F64, 1, &k), shp(T_S32, 0, NULL), NULL, NULL),
                    1, &ph);
  double h[8] = {2, 0, 99, 99, 0, -1, 2, 0}; /* upper (99) is not read */
  double hf[8] = {2, 0, 0, 1, 0, -1, 2, 0};
  Literal *hx = clit(2, s2, h), *eo = eval(e, 1, &hx);
  if (eo) {
    const double *w = eo->tuple[1]->data;
    CHECK(near(w[0], 1, 1e-14) && near(w[1], 3, 1e-14));
    for (int i = 0; i < 2; i++)
      for (int j = 0; j < 2; j++) {
        Z s = {0, 0};
        for (int r = 0; r < 2; r++) {
          Z t = zmul(zat(eo->tuple[0], i * 2 + r), zconj(zat(eo->tuple[0], j * 2 + r)));
          s.re += t.re * w[r], s.im += t.im * w[r];
        }
        CHECK(znear(s, hf[2 * (i * 2 + j)], hf[2 * (i * 2 + j) + 1], 1e-14));
      }
  }
  literal_free(eo);
  literal_free(hx);

  int64_t u2[2] = {3, 3};
  Instr *sv = custom("lapack_zgesdd_ffi", "{mode = 65 : ui8}",
                     tup(5, shp(T_C128, 2, d), shp(T_F64, 1, &k), shp(T_C128, 2, u2),
                         shp(T_C128, 2, s2), shp(T_S32, 0, NULL)),
                     1, &p);
  Literal *so = eval(sv, 1, &x);
  if (so) {
    const double *sg = so->tuple[1]->data;
    CHECK(sg[0] >= sg[1] && sg[1] > 0);
    for (int i = 0; i < 3; i++)
      for (int j = 0; j < 2; j++) {
        Z s = {0, 0};
        for (int r = 0; r < 2; r++) {
          Z t = zmul(zat(so->tuple[2], i * 3 + r), zat(so->tuple[3], r * 2 + j));
          s.re += t.re * sg[r], s.im += t.im * sg[r];
        }
        CHECK(znear(s, a[2 * (i * 2 + j)], a[2 * (i * 2 + j) + 1], 1e-13));
      }
    for (int i = 0; i < 3; i++)
      for (int j = 0; j < 3; j++) {
        Z s = {0, 0};
        for (int r = 0; r < 3; r++) {
          Z t = zmul(zconj(zat(so->tuple[2], r * 3 + i)), zat(so->tuple[2], r * 3 + j));
          s.re += t.re, s.im += t.im;
        }
        CHECK(znear(s, i == j, 0, 1e-13));
      }
  }
  literal_free(so);
  literal_free(x);
  module_destroy(M);
}

/* ---- batch norm ---- */

static Instr *bn(Opcode op, int nops, Shape *out, Shape *const *ins, const char *eps) {
  Instr *ops[5];
  for (int i = 0; i < nops; i++) ops[i] = param(ins[i]);
  Instr *b = comp_add_instr(C, op, out, nops, ops, "bn");
  CHECK_OK(instr_add_raw(M, b, "epsilon", eps));
  CHECK_OK(instr_add_raw(M, b, "feature_index", "1"));
  return b;
}

/* x = [[1,10],[3,30]], features along dim 1: mean (2, 20), var (1, 100);
 * normalized (-1, 1) per feature; scale (1, 2), offset (0, 5):
 * feature 0 -> (-1, 1), feature 1 -> (3, 7). */
TEST(batch_norm_training) {
  setup();
  int64_t d[2] = {2, 2}, c = 2;
  Shape *xs = shp(T_F32, 2, d), *vs = shp(T_F32, 1, &c);
  Shape *ins[3] = {xs, vs, vs};
  Instr *b = bn(OP_BATCH_NORM_TRAINING, 3, tup(3, xs, vs, vs, NULL, NULL), ins, "0");
  double x[4] = {1, 10, 3, 30}, sc[2] = {1, 2}, of[2] = {0, 5};
  Literal *l[3] = {lit(T_F32, 2, d, x), lit(T_F32, 1, &c, sc), lit(T_F32, 1, &c, of)};
  Literal *o = eval(b, 3, l);
  double wy[4] = {-1, 3, 1, 7}, wm[2] = {2, 20}, wv[2] = {1, 100};
  if (o) {
    check_vals(o->tuple[0], wy, 4, 1e-6);
    check_vals(o->tuple[1], wm, 2, 1e-6);
    check_vals(o->tuple[2], wv, 2, 1e-6);
  }
  literal_free(o);
  free_all(l, 3);
  module_destroy(M);
}

/* mean 0, var (3, 0), epsilon 1: x = (2, 4) / (2, 1) = (1, 4). */
TEST(batch_norm_inference) {
  setup();
  int64_t d[2] = {1, 2}, c = 2;
  Shape *xs = shp(T_F32, 2, d), *vs = shp(T_F32, 1, &c);
  Shape *ins[5] = {xs, vs, vs, vs, vs};
  Instr *b = bn(OP_BATCH_NORM_INFERENCE, 5, xs, ins, "1");
  double x[2] = {2, 4}, one[2] = {1, 1}, zero[2] = {0, 0}, var[2] = {3, 0};
  Literal *l[5] = {lit(T_F32, 2, d, x), lit(T_F32, 1, &c, one), lit(T_F32, 1, &c, zero),
                   lit(T_F32, 1, &c, zero), lit(T_F32, 1, &c, var)};
  Literal *o = eval(b, 5, l);
  double w[2] = {1, 4};
  check_vals(o, w, 2, 1e-6);
  literal_free(o);
  free_all(l, 5);
  module_destroy(M);
}

/* x = (0,1,2) as [3,1], mean 1, var 1, eps 0, scale 1, dy = (1,0,0):
 * xhat = (-1,0,1); grad_offset = 1; grad_scale = sum dy*xhat = -1;
 * grad_x = dy - 1/3 - xhat*(-1)/3 = (1/3, -1/3, 0). */
TEST(batch_norm_grad) {
  setup();
  int64_t d[2] = {3, 1}, c = 1;
  Shape *xs = shp(T_F64, 2, d), *vs = shp(T_F64, 1, &c);
  Shape *ins[5] = {xs, vs, vs, vs, xs};
  Instr *b = bn(OP_BATCH_NORM_GRAD, 5, tup(3, xs, vs, vs, NULL, NULL), ins, "0");
  double x[3] = {0, 1, 2}, one[1] = {1}, dy[3] = {1, 0, 0};
  Literal *l[5] = {lit(T_F64, 2, d, x), lit(T_F64, 1, &c, one), lit(T_F64, 1, &c, one),
                   lit(T_F64, 1, &c, one), lit(T_F64, 2, d, dy)};
  Literal *o = eval(b, 5, l);
  double wx[3] = {1.0 / 3, -1.0 / 3, 0}, ws[1] = {-1}, wo[1] = {1};
  if (o) {
    check_vals(o->tuple[0], wx, 3, 1e-15);
    check_vals(o->tuple[1], ws, 1, 1e-15);
    check_vals(o->tuple[2], wo, 1, 1e-15);
  }
  literal_free(o);
  free_all(l, 5);
  module_destroy(M);
}

/* ---- errors ---- */

/* TensorFlow's "Eigh" ("LOWER,SORT,MAX_ITER,TOL"): [[2, 1], [1, 2]] has
 * eigenvalues 1 and 3 (ascending) with eigenvectors (1, -1)/sqrt2 and
 * (1, 1)/sqrt2 up to sign; LOWER=0 reads the upper triangle (the lower one
 * holds junk here). */
TEST(tf_eigh) {
  setup();
  int64_t d[2] = {2, 2}, d1 = 2;
  Instr *p = param(shp(T_F64, 2, d));
  Literal *x = lit(T_F64, 2, d, (double[4]){2, 1, 99, 2});
  Instr *c = custom("Eigh", "\"0,1,100,1e-06\"",
                    tup(2, shp(T_F64, 2, d), shp(T_F64, 1, &d1), NULL, NULL, NULL), 1, &p);
  Literal *o = eval(c, 1, &x);
  if (o && o->ntuple == 2) {
    check_vals(o->tuple[1], (double[2]){1, 3}, 2, 1e-14);
    const double *v = o->tuple[0]->data, r = sqrt(0.5);
    /* columns: v[:,0] ~ (1, -1)/sqrt2, v[:,1] ~ (1, 1)/sqrt2 */
    CHECK(near(fabs(v[0]), r, 1e-14) && near(v[2], -v[0], 1e-14));
    CHECK(near(fabs(v[1]), r, 1e-14) && near(v[3], v[1], 1e-14));
  } else {
    CHECK(!"Eigh returns (eigenvectors, eigenvalues)");
  }
  literal_free(o);
  literal_free(x);
  module_destroy(M);
}

/* ---- lapack_?geev_ffi, ?gees, ?gehrd, ?sytrd ---- */

/* A real 3x3 with a complex pair: LAPACK (scipy.linalg.lapack.dgeev) gives
 * 1.743218519469071 +- 2.7696000187946352i and 0.5135629610618551. The
 * pair must be adjacent, exactly conjugate, positive imaginary part first;
 * each right eigenvector satisfies A v = w v, has unit norm and a real
 * largest component; left ones u^H A = w u^H. */
TEST(geev_real_pairs) {
  setup();
  int64_t d[2] = {3, 3}, k = 3;
  Instr *p = param(shp(T_F64, 2, d));
  Shape *w = shp(T_F64, 1, &k), *v = shp(T_C128, 2, d), *i0 = shp(T_S32, 0, NULL);
  Instr *c = custom("lapack_dgeev_ffi", "{compute_left = 86 : ui8, compute_right = 86 : ui8}",
                    tup(5, w, w, v, v, i0), 1, &p);
  double a[9] = {1, 2, 3, -4, 1, 0.5, 0, 1, 2};
  Literal *x = lit(T_F64, 2, d, a), *o = eval(c, 1, &x);
  if (o) {
    CHECK(literal_get_i64(o->tuple[4], 0) == 0);
    int pair = -1, real = -1;
    for (int i = 0; i < 3; i++) {
      double wr = literal_get_f64(o->tuple[0], i), wi = literal_get_f64(o->tuple[1], i);
      if (near(wr, 1.743218519469071, 1e-13) && near(wi, 2.7696000187946352, 1e-13)) pair = i;
      if (near(wr, 0.5135629610618551, 1e-13) && wi == 0) real = i;
    }
    CHECK(pair >= 0 && pair < 2 && real >= 0 && real != pair && real != pair + 1);
    if (pair >= 0 && pair < 2) {
      CHECK(literal_get_f64(o->tuple[0], pair + 1) == literal_get_f64(o->tuple[0], pair));
      CHECK(literal_get_f64(o->tuple[1], pair + 1) == -literal_get_f64(o->tuple[1], pair));
    }
    for (int side = 0; side < 2; side++) {
      const Literal *V = o->tuple[2 + side];
      for (int j = 0; j < 3; j++) {
        Z lam = {literal_get_f64(o->tuple[0], j), literal_get_f64(o->tuple[1], j)};
        double nrm = 0, big = -1;
        int m = 0;
        for (int i = 0; i < 3; i++) {
          Z e = zat(V, i * 3 + j);
          nrm += e.re * e.re + e.im * e.im;
          if (e.re * e.re + e.im * e.im > big) big = e.re * e.re + e.im * e.im, m = i;
        }
        CHECK(near(nrm, 1, 1e-13) && near(zat(V, m * 3 + j).im, 0, 1e-15));
        for (int i = 0; i < 3; i++) {
          /* right: (A v)_i - w v_i; left: (u^H A)_i - w u^H_i */
          Z r = {0, 0};
          for (int t = 0; t < 3; t++) {
            Z e = side ? zat(V, t * 3 + j) : zconj(zat(V, t * 3 + j));
            double av = side ? a[i * 3 + t] : a[t * 3 + i];
            r.re += av * e.re, r.im += av * e.im;
          }
          Z vi = side ? zat(V, i * 3 + j) : zconj(zat(V, i * 3 + j)), lv = zmul(lam, vi);
          CHECK(znear(r, lv.re, lv.im, 1e-13));
        }
      }
    }
  }
  literal_free(o);
  literal_free(x);
  module_destroy(M);
}

/* Complex geev (eigenvalues from numpy.linalg.eigvals), right vectors only
 * (left ones zero); NaN input does not converge: info > 0, NaN values. */
TEST(zgeev_and_nan) {
  setup();
  int64_t d[2] = {3, 3}, k = 3;
  Instr *p = param(shp(T_C128, 2, d));
  Shape *w = shp(T_C128, 1, &k), *v = shp(T_C128, 2, d), *i0 = shp(T_S32, 0, NULL);
  Instr *c = custom("lapack_zgeev_ffi", "{compute_left = 78 : ui8, compute_right = 86 : ui8}",
                    tup(4, w, v, v, i0, NULL), 1, &p);
  double a[18] = {1, 1, 2, 0, 0, 0.5, 0, 0, 0, -1, 1, 0, 2, 0, 1, -1, 3, 0};
  double want[6] = {3.464823533585717,    0.04115403933419004, 0.6596529754514276,
                    1.0869197265545638,   -0.12447650903714318, -1.1280737658887532};
  Literal *x = clit(2, d, a), *o = eval(c, 1, &x);
  if (o) {
    CHECK(literal_get_i64(o->tuple[3], 0) == 0);
    for (int e = 0; e < 3; e++) {
      int found = 0;
      for (int i = 0; i < 3; i++) found += znear(zat(o->tuple[0], i), want[2 * e], want[2 * e + 1], 1e-13);
      CHECK(found == 1);
    }
    for (int i = 0; i < 9; i++) CHECK(znear(zat(o->tuple[1], i), 0, 0, 0));
    for (int j = 0; j < 3; j++)
      for (int i = 0; i < 3; i++) {
        Z r = {0, 0};
        for (int t = 0; t < 3; t++) {
          Z av = {a[2 * (i * 3 + t)], a[2 * (i * 3 + t) + 1]}, pr = zmul(av, zat(o->tuple[2], t * 3 + j));
          r.re += pr.re, r.im += pr.im;
        }
        Z lv = zmul(zat(o->tuple[0], j), zat(o->tuple[2], i * 3 + j));
        CHECK(znear(r, lv.re, lv.im, 1e-13));
      }
  }
  literal_free(o);
  literal_free(x);
  a[4] = NAN;
  x = clit(2, d, a), o = eval(c, 1, &x);
  if (o) {
    CHECK(literal_get_i64(o->tuple[3], 0) > 0);
    CHECK(isnan(zat(o->tuple[0], 0).re));
  }
  literal_free(o);
  literal_free(x);
  module_destroy(M);
}

/* zgees: t upper triangular, vs unitary, vs t vs^H = a, w = diag(t). */
TEST(zgees) {
  setup();
  int64_t d[2] = {3, 3}, k = 3;
  Instr *p = param(shp(T_C128, 2, d));
  Shape *m = shp(T_C128, 2, d), *w = shp(T_C128, 1, &k), *i0 = shp(T_S32, 0, NULL);
  Instr *c = custom("lapack_zgees_ffi", "{mode = 86 : ui8, sort = 78 : ui8}", tup(5, m, m, w, i0, i0), 1, &p);
  double a[18] = {1, 1, 2, 0, 0, 0.5, 0, 0, 0, -1, 1, 0, 2, 0, 1, -1, 3, 0};
  Literal *x = clit(2, d, a), *o = eval(c, 1, &x);
  if (o) {
    const Literal *T = o->tuple[0], *Q = o->tuple[1];
    CHECK(literal_get_i64(o->tuple[4], 0) == 0);
    for (int i = 0; i < 3; i++) {
      Z ti = zat(T, i * 3 + i);
      CHECK(znear(zat(o->tuple[2], i), ti.re, ti.im, 0));
      for (int j = 0; j < i; j++) CHECK(znear(zat(T, i * 3 + j), 0, 0, 0));
    }
    for (int i = 0; i < 3; i++)
      for (int j = 0; j < 3; j++) {
        Z r = {0, 0}, g = {0, 0}; /* (Q T Q^H)_ij and (Q^H Q)_ij */
        for (int s = 0; s < 3; s++) {
          Z qs = zmul(zconj(zat(Q, s * 3 + i)), zat(Q, s * 3 + j));
          g.re += qs.re, g.im += qs.im;
          for (int t = 0; t < 3; t++) {
            Z e = zmul(zmul(zat(Q, i * 3 + s), zat(T, s * 3 + t)), zconj(zat(Q, j * 3 + t)));
            r.re += e.re, r.im += e.im;
          }
        }
        CHECK(znear(r, a[2 * (i * 3 + j)], a[2 * (i * 3 + j) + 1], 1e-13));
        CHECK(znear(g, i == j, 0, 1e-14));
      }
  }
  literal_free(o);
  literal_free(x);
  Instr *pr = param(shp(T_F64, 2, d));
  Shape *mr = shp(T_F64, 2, d), *wr = shp(T_F64, 1, &k);
  Shape *el[6] = {mr, mr, wr, wr, i0, i0};
  c = custom("lapack_dgees_ffi", "{mode = 86 : ui8, sort = 78 : ui8}", shape_new_tuple(&M->arena, 6, el), 1,
             &pr);
  /* dgees: the eigenvalues of dgeev_real_pairs' matrix; t quasi-triangular
   * with one standardized 2x2 block (equal diagonal, b c < 0), z
   * orthogonal, z t z^T = a. */
  double ar[9] = {1, 2, 3, -4, 1, 0.5, 0, 1, 2};
  x = lit(T_F64, 2, d, ar), o = eval(c, 1, &x);
  if (o) {
    const Literal *T = o->tuple[0], *Q = o->tuple[1];
    CHECK(literal_get_i64(o->tuple[5], 0) == 0);
    int blocks = 0;
    for (int i = 0; i < 3; i++)
      for (int j = 0; j < i; j++) {
        double t = literal_get_f64(T, i * 3 + j);
        if (j + 1 < i) CHECK(t == 0);
        if (j + 1 == i && t != 0) {
          blocks++;
          CHECK(literal_get_f64(T, j * 3 + j) == literal_get_f64(T, i * 3 + i));
          CHECK(t * literal_get_f64(T, j * 3 + i) < 0);
          CHECK(near(literal_get_f64(o->tuple[2], j), 1.743218519469071, 1e-13));
          CHECK(near(literal_get_f64(o->tuple[3], j), 2.7696000187946352, 1e-13));
          CHECK(near(literal_get_f64(o->tuple[3], i), -2.7696000187946352, 1e-13));
        }
      }
    CHECK(blocks == 1);
    for (int i = 0; i < 3; i++)
      for (int j = 0; j < 3; j++) {
        double r = 0, g = 0;
        for (int s = 0; s < 3; s++) {
          g += literal_get_f64(Q, s * 3 + i) * literal_get_f64(Q, s * 3 + j);
          for (int t = 0; t < 3; t++)
            r += literal_get_f64(Q, i * 3 + s) * literal_get_f64(T, s * 3 + t) * literal_get_f64(Q, j * 3 + t);
        }
        CHECK(near(r, ar[i * 3 + j], 1e-13) && near(g, i == j, 1e-14));
      }
  }
  literal_free(o);
  literal_free(x);
  module_destroy(M);
}

/* dgehrd and dsytrd (both triangles of a nonsymmetric input: only the
 * uplo one is read) against scipy.linalg.lapack.dgehrd / dsytrd. */
TEST(gehrd_sytrd) {
  setup();
  int64_t d[2] = {4, 4}, k = 3, d3[2] = {3, 3}, k2 = 2, k3 = 3;
  Instr *p = param(shp(T_F64, 2, d));
  Shape *i0 = shp(T_S32, 0, NULL);
  Instr *c = custom("lapack_dgehrd_ffi", "{high = 4 : i32, low = 1 : i32}",
                    tup(3, shp(T_F64, 2, d), shp(T_F64, 1, &k), i0, NULL, NULL), 1, &p);
  double a[16] = {4, 1, -2, 2, 1, 2, 0, 1, -2, 0, 3, -2, 2, 1, -2, -1};
  double want_h[16] = {4, -3, 0, 0, -3, 3.3333333333333330, -1.6666666666666663, 0,
                       -0.5, -1.6666666666666665, -1.3199999999999996, 0.90666666666666718,
                       0.5, 0.49999999999999989, 0.90666666666666718, 1.9866666666666655};
  double want_tau[3] = {1.3333333333333333, 1.6, 0};
  Literal *x = lit(T_F64, 2, d, a), *o = eval(c, 1, &x);
  if (o) {
    check_vals(o->tuple[0], want_h, 16, 1e-14);
    check_vals(o->tuple[1], want_tau, 3, 1e-14);
    CHECK(literal_get_i64(o->tuple[2], 0) == 0);
  }
  literal_free(o);
  literal_free(x);
  double b[9] = {4, 1, -2, 3, 2, 0, -2, 5, 3};
  double want_c[2][9] = {{4, 1, -2, -3.6055512754639896, -2.3076923076923075, 0, -0.3027756377319946,
                          -1.4615384615384617, 7.307692307692307},
                         {2, 1, -1, 3, 4, -2, -2, 5, 3}};
  double want_d[2][3] = {{4, -2.3076923076923075, 7.307692307692307}, {2, 4, 3}};
  double want_e[2][2] = {{-3.6055512754639896, -1.4615384615384617}, {1, -2}};
  double want_t[2][2] = {{1.8320502943378436, 0}, {0, 1}};
  const char *cfg[2] = {"{uplo = 76 : ui8}", "{uplo = 85 : ui8}"};
  for (int u = 0; u < 2; u++) {
    Instr *q = param(shp(T_F64, 2, d3));
    Shape *dv = shp(T_F64, 1, &k3), *ev = shp(T_F64, 1, &k2);
    c = custom("lapack_dsytrd_ffi", cfg[u], tup(5, shp(T_F64, 2, d3), dv, ev, ev, i0), 1, &q);
    x = lit(T_F64, 2, d3, b), o = eval(c, 1, &x);
    if (o) {
      check_vals(o->tuple[0], want_c[u], 9, 1e-14);
      check_vals(o->tuple[1], want_d[u], 3, 1e-14);
      check_vals(o->tuple[2], want_e[u], 2, 1e-14);
      check_vals(o->tuple[3], want_t[u], 2, 1e-14);
      CHECK(literal_get_i64(o->tuple[4], 0) == 0);
    }
    literal_free(o);
    literal_free(x);
  }
  module_destroy(M);
}

/* dormqr (left, transpose: Q^T c) and dgeqp3 against
 * scipy.linalg.lapack.dormqr / dgeqp3. */
TEST(ormqr_geqp3) {
  setup();
  int64_t ad[2] = {4, 3}, k = 3, cd[2] = {4, 2};
  double qr[12] = {-5, -1.6, 3.5999999999999996, 0.1111111111111111, -1.8547236990991407,
                   -0.9489284041902578, -0.2222222222222222, 0.16203156021793122, -1.771873269655855,
                   0.2222222222222222, 0.11840767862079589, -0.28769758392302686};
  double tau[3] = {1.8, 1.9225692818516396, 1.8471145165546132}, c[8] = {1, 2, 3, 4, 5, 6, 7, 8};
  double want[8] = {-2.1999999999999993, -3.200000000000001, -5.650437315860172, -6.944430594301432,
                    -0.8793741412366094, -1.6537483850121317, 6.816102937842068, 7.668115805072326};
  Instr *p[3] = {param(shp(T_F64, 2, ad)), param(shp(T_F64, 1, &k)), param(shp(T_F64, 2, cd))};
  Instr *cc = custom("lapack_dormqr_ffi", "{left = true, transpose = true}", shp(T_F64, 2, cd), 3, p);
  Literal *ops[3] = {lit(T_F64, 2, ad, qr), lit(T_F64, 1, &k, tau), lit(T_F64, 2, cd, c)};
  Literal *o = eval(cc, 3, ops);
  check_vals(o, want, 8, 1e-13);
  literal_free(o);
  free_all(ops, 3);
  int64_t d[2] = {3, 3};
  Instr *q[2] = {param(shp(T_F64, 2, d)), param(shp(T_S32, 1, &k))};
  cc = custom("lapack_dgeqp3_ffi", "{}", tup(3, shp(T_F64, 2, d), shp(T_S32, 1, &k), shp(T_F64, 1, &k), NULL, NULL),
              2, q);
  double a[9] = {1, 5, 2, 0, 3, 1, 2, 4, 7}, jz[3] = {0, 0, 0};
  double want_a[9] = {-7.348469228349535, -5.5793933030061265, -2.177324215807269,
                      0.10696938456699066, -4.344003956072133, -0.19609831401306904,
                      0.7487856919689346, -0.6312762826988263, -0.4698986172574785};
  double want_p[3] = {3, 2, 1}, want_t[3] = {1.2721655269759087, 1.4300937172660042, 0};
  Literal *qo[2] = {lit(T_F64, 2, d, a), lit(T_S32, 1, &k, jz)};
  o = eval(cc, 2, qo);
  if (o) {
    check_vals(o->tuple[0], want_a, 9, 1e-13);
    check_vals(o->tuple[1], want_p, 3, 0);
    check_vals(o->tuple[2], want_t, 3, 1e-13);
  }
  literal_free(o);
  free_all(qo, 2);
  module_destroy(M);
}

/* tridiagonal_solve_perturbed_ffi: a regular system (numpy.linalg.solve
 * gives x) and a singular one ([[1, 1], [1, 1]]), whose solution is finite. */
TEST(tridiagonal_perturbed) {
  setup();
  int64_t vd[1] = {3}, bd[2] = {3, 1};
  Instr *p[4] = {param(shp(T_F64, 1, vd)), param(shp(T_F64, 1, vd)), param(shp(T_F64, 1, vd)),
                 param(shp(T_F64, 2, bd))};
  Instr *c = custom("tridiagonal_solve_perturbed_ffi", "{}", shp(T_F64, 2, bd), 4, p);
  double dl[3] = {0, 0.5, 4}, d[3] = {2, 3, 1}, du[3] = {1, -1, 0}, b[3] = {1, 2, 3};
  double want[3] = {0.14814814814814814, 0.7037037037037037, 0.18518518518518517};
  Literal *ops[4] = {lit(T_F64, 1, vd, dl), lit(T_F64, 1, vd, d), lit(T_F64, 1, vd, du),
                     lit(T_F64, 2, bd, b)};
  Literal *o = eval(c, 4, ops);
  check_vals(o, want, 3, 1e-14);
  literal_free(o);
  free_all(ops, 4);
  int64_t v2[1] = {2}, b2[2] = {2, 1};
  Instr *q[4] = {param(shp(T_F32, 1, v2)), param(shp(T_F32, 1, v2)), param(shp(T_F32, 1, v2)),
                 param(shp(T_F32, 2, b2))};
  c = custom("tridiagonal_solve_perturbed_ffi", "{}", shp(T_F32, 2, b2), 4, q);
  Literal *s[4] = {lit(T_F32, 1, v2, (double[2]){0, 1}), lit(T_F32, 1, v2, (double[2]){1, 1}),
                   lit(T_F32, 1, v2, (double[2]){1, 0}), lit(T_F32, 2, b2, (double[2]){1, 1})};
  o = eval(c, 4, s);
  if (o)
    for (int i = 0; i < 2; i++) CHECK(isfinite(literal_get_f64(o, i)));
  literal_free(o);
  free_all(s, 4);
  module_destroy(M);
}

TEST(unsupported_targets) {
  setup();
  int64_t d[2] = {2, 2};
  Instr *p = param(shp(T_F32, 2, d));
  Literal *x = lit(T_F32, 2, d, (double[4]){1, 0, 0, 1});
  Interp ip = {0};
  Literal *o = NULL;
  Instr *c = custom("lapack_sgeqp4_ffi", NULL, shp(T_F32, 2, d), 1, &p);
  CHECK_ERR(interp_linalg(&ip, c, &x, &o), "unsupported custom-call target 'lapack_sgeqp4_ffi'");
  c = custom("my_kernel", NULL, shp(T_F32, 2, d), 1, &p);
  cxla_status s = interp_linalg(&ip, c, &x, &o);
  CHECK(cxla_status_code_of(s) == CXLA_UNIMPLEMENTED);
  CHECK(strstr(cxla_status_message(s), "unsupported custom-call target 'my_kernel'") != NULL);
  cxla_status_free(s);
  literal_free(x);
  module_destroy(M);
}

/* Every target and op under allocation failure: clean OOM statuses only. */
TEST(out_of_memory) {
  setup();
  int64_t d[2] = {3, 3}, k = 3, d2[2] = {3, 2};
  Shape *m = shp(T_F64, 2, d), *v = shp(T_F64, 1, &k), *i0 = shp(T_S32, 0, NULL);
  Shape *iv = shp(T_S32, 1, &k);
  Instr *p = param(m);
  Instr *pp[2] = {p, param(v)}, *pb[2] = {p, param(shp(T_F64, 2, d2))};
  const char *tri = "{diag = 78 : ui8, side = 76 : ui8, trans_x = 84 : ui8, uplo = 76 : ui8}";
  Instr *calls[8] = {
      custom("lapack_dpotrf_ffi", "{uplo = 85 : ui8}", tup(2, m, i0, NULL, NULL, NULL), 1, &p),
      custom("lapack_dgetrf_ffi", "{}", tup(3, m, iv, i0, NULL, NULL), 1, &p),
      custom("lapack_dgeqrf_ffi", "{}", tup(2, m, v, NULL, NULL, NULL), 1, &p),
      custom("lapack_dorgqr_ffi", "{}", m, 2, pp),
      custom("lapack_dsyevd_ffi", "{mode = 86 : ui8, uplo = 76 : ui8}",
             tup(3, m, v, i0, NULL, NULL), 1, &p),
      custom("lapack_dgesdd_ffi", "{mode = 65 : ui8}", tup(5, m, v, m, m, i0), 1, &p),
      custom("lapack_dtrsm_ffi", tri, shp(T_F64, 2, d2), 2, pb),
      comp_add_instr(C, OP_CHOLESKY, m, 1, &p, "chol")};
  double a[9] = {4, 1, 0, 1, 3, 1, 0, 1, 2}, t[3] = {1, 0.5, 0}, b[6] = {1, 2, 3, 4, 5, 6};
  Literal *ops[2] = {lit(T_F64, 2, d, a), lit(T_F64, 1, &k, t)};
  Literal *opb[2] = {ops[0], lit(T_F64, 2, d2, b)}, *o;
  Interp ip = {0};
  int fails;
  for (int i = 0; i < 8; i++) {
    OOM_SWEEP(o, interp_linalg(&ip, calls[i], i == 6 ? opb : ops, &o), fails);
    CHECK(fails >= 1);
  }
  literal_free(ops[0]);
  literal_free(ops[1]);
  literal_free(opb[1]);
  /* batch-norm-training */
  int64_t xd[2] = {2, 2}, c = 2;
  Shape *xs = shp(T_F32, 2, xd), *vs = shp(T_F32, 1, &c);
  Shape *ins[3] = {xs, vs, vs};
  Instr *bt = bn(OP_BATCH_NORM_TRAINING, 3, tup(3, xs, vs, vs, NULL, NULL), ins, "0.001");
  double x[4] = {1, 10, 3, 30}, sc[2] = {1, 2}, of[2] = {0, 5};
  Literal *l[3] = {lit(T_F32, 2, xd, x), lit(T_F32, 1, &c, sc), lit(T_F32, 1, &c, of)};
  OOM_SWEEP(o, interp_linalg(&ip, bt, l, &o), fails);
  CHECK(fails >= 3);
  free_all(l, 3);
  module_destroy(M);
}

/* ---- lapack_?gtsv_ffi: tridiagonal solve ----
 * Expected values from scipy.linalg.lapack.dgtsv / zgtsv (LAPACK in f64) on
 * the same systems, handed dl[1:] and du[:-1] as jaxlib does; the solutions
 * also equal jax.lax.linalg.tridiagonal_solve's on XLA:CPU. */
static Literal *gtsv_run(const char *target, ElemType t, int rank, const int64_t *vd,
                         const int64_t *bd, Literal **ops) {
  Instr *p[4];
  for (int i = 0; i < 4; i++) p[i] = param(shp(t, i == 3 ? rank + 1 : rank, i == 3 ? bd : vd));
  Shape *v = shp(t, rank, vd);
  Shape *el[5] = {v, v, v, shp(t, rank + 1, bd), shp(T_S32, rank - 1, vd)};
  Instr *c = custom(target, "{}", shape_new_tuple(&M->arena, 5, el), 4, p);
  return eval(c, 4, ops);
}

TEST(gtsv_pivoting_f64_f32) {
  int64_t vd[1] = {5}, bd[2] = {5, 2};
  double dl[] = {0, 3, -1, 0.5, 4}, d[] = {1, 2, 0.25, 5, -1}, du[] = {2, -1, 3, 1.5, 0};
  double b[] = {1, 0, 2, 1, -1, 3, 0.5, -2, 4, 1};
  double want_dl[] = {0, -1, 0, 1.5, 4};
  double want_d[] = {3, 1.3333333333333335, 0.5, 4, -1.9999999999999996};
  double want_du[] = {2, 0.3333333333333333, 5, -1, 0};
  double want_x[] = {-2.9687500000000013, 4.468750000000001,  1.9843750000000007,
                     -2.2343750000000004, -6.937500000000003, 7.937500000000003,
                     0.9062500000000001,  -0.4062500000000001, -0.3749999999999996,
                     -2.6250000000000004};
  const char *targets[2] = {"lapack_dgtsv_ffi", "lapack_sgtsv_ffi"};
  ElemType types[2] = {T_F64, T_F32};
  double tols[2] = {1e-14, 1e-5};
  for (int k = 0; k < 2; k++) {
    setup();
    Literal *ops[4] = {lit(types[k], 1, vd, dl), lit(types[k], 1, vd, d), lit(types[k], 1, vd, du),
                       lit(types[k], 2, bd, b)};
    Literal *o = gtsv_run(targets[k], types[k], 1, vd, bd, ops);
    if (o) {
      check_vals(o->tuple[0], want_dl, 5, tols[k]);
      check_vals(o->tuple[1], want_d, 5, tols[k]);
      check_vals(o->tuple[2], want_du, 5, tols[k]);
      check_vals(o->tuple[3], want_x, 10, tols[k]);
      CHECK(o->tuple[4]->rank == 0 && literal_get_i64(o->tuple[4], 0) == 0);
    }
    literal_free(o);
    free_all(ops, 4);
    module_destroy(M);
  }
}

/* A batch of two: [[1, 1], [1, 1]] is singular (LAPACK stops with info = 2,
 * d = [1, 0], b = [1, 2]); diag(2, 4) + du[0] = 1 gives x = [0.5, 2]. */
TEST(gtsv_batch_and_singular) {
  setup();
  int64_t vd[2] = {2, 2}, bd[3] = {2, 2, 1};
  double dl[] = {0, 1, 0, 0}, d[] = {1, 1, 2, 4}, du[] = {1, 0, 1, 0}, b[] = {1, 3, 3, 8};
  Literal *ops[4] = {lit(T_F64, 2, vd, dl), lit(T_F64, 2, vd, d), lit(T_F64, 2, vd, du),
                     lit(T_F64, 3, bd, b)};
  Literal *o = gtsv_run("lapack_dgtsv_ffi", T_F64, 2, vd, bd, ops);
  if (o) {
    double want_dl[] = {0, 1, 0, 0}, want_d[] = {1, 0, 2, 4}, want_du[] = {1, 0, 1, 0};
    double want_x[] = {1, 2, 0.5, 2};
    check_vals(o->tuple[0], want_dl, 4, 0);
    check_vals(o->tuple[1], want_d, 4, 0);
    check_vals(o->tuple[2], want_du, 4, 0);
    check_vals(o->tuple[3], want_x, 4, 0);
    CHECK(literal_get_i64(o->tuple[4], 0) == 2 && literal_get_i64(o->tuple[4], 1) == 0);
  }
  literal_free(o);
  free_all(ops, 4);
  module_destroy(M);
}

/* zgtsv pivots on |re| + |im|: at k = 0, |i| = 1 < |1 + 2i| = 3 swaps. */
TEST(gtsv_complex) {
  setup();
  int64_t vd[1] = {4}, bd[2] = {4, 1};
  double dl[] = {0, 0, 1, 2, 0, 0.5, 2, -1}, d[] = {0, 1, 1, 0, -2, 0.5, 3, 0};
  double du[] = {1, -1, 2, 0, 0.25, 1, 0, 0}, b[] = {1, 0, 0, 2, 1, -1, 0.5, 0};
  Literal *ops[4] = {clit(1, vd, dl), clit(1, vd, d), clit(1, vd, du), clit(2, bd, b)};
  Literal *o = gtsv_run("lapack_zgtsv_ffi", T_C128, 1, vd, bd, ops);
  if (o) {
    double want_dl[] = {0, 0, 2, 0, 0, 0, 2, -1};
    double want_d[] = {1, 2, 0.6, -1.2, 2, -1, 3.3500000000000005, 1.8000000000000003};
    double want_du[] = {1, 0, -0.8, -0.4, 3, 0, 0, 0};
    double want_x[] = {0.2247191011235957,  -0.02621722846441945, 0.599250936329588,
                       0.37453183520599237, -0.4382022471910113, 0.6011235955056179,
                       0.25842696629213485, -0.5468164794007491};
    const double *want[4] = {want_dl, want_d, want_du, want_x};
    for (int t = 0; t < 4; t++)
      for (int i = 0; i < 4; i++) {
        Z z = zat(o->tuple[t], i);
        CHECK(znear(z, want[t][2 * i], want[t][2 * i + 1], 1e-14));
      }
    CHECK(literal_get_i64(o->tuple[4], 0) == 0);
  }
  literal_free(o);
  free_all(ops, 4);
  module_destroy(M);
}

int main(void) {
  RUN(cholesky_lower_upper);
  RUN(cholesky_batch_not_pd);
  RUN(potrf);
  RUN(trsm_variants);
  RUN(triangular_solve_hlo);
  RUN(getrf_pivots);
  RUN(geqrf_orgqr_by_hand);
  RUN(qr_reconstructs);
  RUN(syevd_2x2);
  RUN(syevd_reconstructs);
  RUN(gesdd_by_hand);
  RUN(gesdd_rank_deficient);
  RUN(zpotrf);
  RUN(zgetrf_pivot_metric);
  RUN(complex_qr_eigh_svd);
  RUN(batch_norm_training);
  RUN(batch_norm_inference);
  RUN(batch_norm_grad);
  RUN(tf_eigh);
  RUN(gtsv_pivoting_f64_f32);
  RUN(gtsv_batch_and_singular);
  RUN(gtsv_complex);
  RUN(geev_real_pairs);
  RUN(zgeev_and_nan);
  RUN(zgees);
  RUN(gehrd_sytrd);
  RUN(ormqr_geqp3);
  RUN(tridiagonal_perturbed);
  RUN(unsupported_targets);
  RUN(out_of_memory);
  return test_summary("test_linalg");
}
