/* Unit tests for the dot evaluator (src/interp/dot.c). Instructions are built
 * by hand; every expected value is worked out by hand in the comments. */
#include <stdlib.h>

#include "harness.h"
#include "math_oom.h"
#include "interp/interp.h"
#include "ir/numeric.h"

typedef struct Fix {
  HloModule *m;
  Computation *c;
} Fix;

static Fix fix_new(void) {
  Fix f = {0};
  CHECK_OK(module_create("t", &f.m));
  f.c = module_add_computation(f.m, "main");
  return f;
}

static Instr *param(Fix *f, int n, ElemType t, int rank, const int64_t *dims) {
  Instr *p = comp_add_instr(f->c, OP_PARAMETER, shape_new(&f->m->arena, t, rank, dims), 0, NULL,
                            NULL);
  p->param_number = n;
  return p;
}

static I64List list(Fix *f, int n, const int64_t *v) {
  I64List l = {n, arena_i64dup(&f->m->arena, v, (size_t)n)};
  return l;
}

/* A dot instruction with the given dims on two fresh parameters. */
static Instr *mk_dot(Fix *f, ElemType lt, int lr, const int64_t *ld, ElemType rt, int rr,
                     const int64_t *rdims, ElemType ot, int orank, const int64_t *od, int nb,
                     const int64_t *lb, const int64_t *rb, int nc, const int64_t *lc,
                     const int64_t *rc) {
  Instr *ops[2] = {param(f, 0, lt, lr, ld), param(f, 1, rt, rr, rdims)};
  Instr *d = comp_add_instr(f->c, OP_DOT, shape_new(&f->m->arena, ot, orank, od), 2, ops, "dot");
  d->attrs |= A_DOT_DIMS;
  d->dot.lhs_batch = list(f, nb, lb);
  d->dot.rhs_batch = list(f, nb, rb);
  d->dot.lhs_contract = list(f, nc, lc);
  d->dot.rhs_contract = list(f, nc, rc);
  return d;
}

static Literal *lit_f(ElemType t, int rank, const int64_t *dims, const double *v) {
  Literal *l;
  CHECK_OK(literal_create(t, rank, dims, &l));
  for (int64_t i = 0; i < l->nelems; i++) literal_set_f64(l, i, v[i]);
  return l;
}

static Literal *lit_i(ElemType t, int rank, const int64_t *dims, const int64_t *v) {
  Literal *l;
  CHECK_OK(literal_create(t, rank, dims, &l));
  for (int64_t i = 0; i < l->nelems; i++) literal_set_i64(l, i, v[i]);
  return l;
}

static Literal *run(const Instr *in, Literal *a, Literal *b) {
  Interp ip = {0};
  Literal *ops[2] = {a, b}, *out = NULL;
  CHECK_OK(interp_dot(&ip, in, ops, &out));
  return out;
}

TEST(matmul_2x3_3x2) {
  Fix f = fix_new();
  int64_t ld[2] = {2, 3}, rd[2] = {3, 2}, od[2] = {2, 2}, c1[1] = {1}, c0[1] = {0};
  Instr *d = mk_dot(&f, T_F32, 2, ld, T_F32, 2, rd, T_F32, 2, od, 0, NULL, NULL, 1, c1, c0);
  double a[6] = {1, 2, 3, 4, 5, 6}, b[6] = {7, 8, 9, 10, 11, 12};
  Literal *la = lit_f(T_F32, 2, ld, a), *lb = lit_f(T_F32, 2, rd, b);
  Literal *o = run(d, la, lb);
  /* [1 2 3;4 5 6] x [7 8;9 10;11 12] = [58 64;139 154] */
  if (o) {
    const float *r = o->data;
    CHECK(o->type == T_F32 && o->rank == 2 && o->dims[0] == 2 && o->dims[1] == 2);
    CHECK(r[0] == 58 && r[1] == 64 && r[2] == 139 && r[3] == 154);
  }
  literal_free(o);
  literal_free(la);
  literal_free(lb);
  module_destroy(f.m);
}

/* Batch dimension in the middle, contraction first on the lhs and last on
 * the rhs: lhs[k][b][m], rhs[n][b][k] -> out[b][m][n]. */
TEST(batch_and_odd_contraction_positions) {
  Fix f = fix_new();
  int64_t ld[3] = {2, 2, 1}, rd[3] = {2, 2, 2}, od[3] = {2, 1, 2};
  int64_t lb[1] = {1}, rb[1] = {1}, lc[1] = {0}, rc[1] = {2};
  Instr *d = mk_dot(&f, T_F32, 3, ld, T_F32, 3, rd, T_F32, 3, od, 1, lb, rb, 1, lc, rc);
  /* lhs[k][b]: b0 = (1, 2), b1 = (3, 4) over k. */
  double a[4] = {1, 3, 2, 4};
  /* rhs[n][b][k]: n0b0 (5,6) n0b1 (7,8) n1b0 (1,0) n1b1 (0,1) */
  double b[8] = {5, 6, 7, 8, 1, 0, 0, 1};
  Literal *la = lit_f(T_F32, 3, ld, a), *lb2 = lit_f(T_F32, 3, rd, b);
  Literal *o = run(d, la, lb2);
  /* b0: n0 = 1*5+2*6 = 17, n1 = 1; b1: n0 = 3*7+4*8 = 53, n1 = 4 */
  if (o) {
    const float *r = o->data;
    CHECK(r[0] == 17 && r[1] == 1 && r[2] == 53 && r[3] == 4);
  }
  literal_free(o);
  literal_free(la);
  literal_free(lb2);
  module_destroy(f.m);
}

/* Two contracting dims given in swapped order on the rhs, plus free dims on
 * both sides: lhs[m][k1][k2] . rhs[k2][k1] contracting (1,2) with (1,0). */
TEST(two_contracting_dims) {
  Fix f = fix_new();
  int64_t ld[3] = {2, 2, 2}, rd[2] = {2, 2}, od[1] = {2};
  int64_t lc[2] = {1, 2}, rc[2] = {1, 0};
  Instr *d = mk_dot(&f, T_F64, 3, ld, T_F64, 2, rd, T_F64, 1, od, 0, NULL, NULL, 2, lc, rc);
  double a[8] = {1, 2, 3, 4, 5, 6, 7, 8}; /* lhs[m][k1][k2] */
  double b[4] = {1, 10, 100, 1000};       /* rhs[k2][k1] */
  Literal *la = lit_f(T_F64, 3, ld, a), *lb = lit_f(T_F64, 2, rd, b);
  Literal *o = run(d, la, lb);
  /* out[m] = sum_{k1,k2} lhs[m][k1][k2] * rhs[k2][k1]
   * m=0: l000*r00 + l001*r10 + l010*r01 + l011*r11 = 1*1 + 2*100 + 3*10 + 4*1000 = 4231
   * m=1: 5*1 + 6*100 + 7*10 + 8*1000 = 8675 */
  if (o) {
    const double *r = o->data;
    CHECK(r[0] == 4231 && r[1] == 8675);
  }
  literal_free(o);
  literal_free(la);
  literal_free(lb);
  module_destroy(f.m);
}

/* No contraction: an outer product, lhs free dims before rhs free dims. */
TEST(outer_product) {
  Fix f = fix_new();
  int64_t ld[1] = {2}, rd[1] = {3}, od[2] = {2, 3};
  Instr *d = mk_dot(&f, T_S32, 1, ld, T_S32, 1, rd, T_S32, 2, od, 0, NULL, NULL, 0, NULL, NULL);
  int64_t a[2] = {2, -3}, b[3] = {1, 2, 5};
  Literal *la = lit_i(T_S32, 1, ld, a), *lb = lit_i(T_S32, 1, rd, b);
  Literal *o = run(d, la, lb);
  if (o) {
    const int32_t *r = o->data;
    CHECK(r[0] == 2 && r[1] == 4 && r[2] == 10 && r[3] == -3 && r[4] == -6 && r[5] == -15);
  }
  literal_free(o);
  literal_free(la);
  literal_free(lb);
  module_destroy(f.m);
}

/* s8 x s8 -> s32 multiplies in s32: 100*100 + 100*100 = 20000. The same dot
 * into s8 wraps: 20000 mod 256 = 32. u8: 200*2 = 400 mod 256 = 144. */
/* XLA:CPU runs with FTZ/DAZ: a subnormal input reads as 0 and a subnormal
 * result is written as 0, like multiply: {2^-149} . {1} = 0, and
 * {2^-63} . {2^-63} = 2^-126 (normal) stays, {2^-70} . {2^-70} = 2^-140
 * (subnormal) flushes, {2^-140} . {2^30} = 0 since the input reads as 0. */
TEST(subnormals_flush_like_xla_cpu) {
  Fix f = fix_new();
  int64_t d1[1] = {1};
  Instr *d = mk_dot(&f, T_F32, 1, d1, T_F32, 1, d1, T_F32, 0, NULL, 0, NULL, NULL, 1,
                    (int64_t[]){0}, (int64_t[]){0});
  double cases[4][3] = {{0x1p-149, 1, 0}, {0x1p-63, 0x1p-63, 0x1p-126}, {0x1p-70, 0x1p-70, 0},
                        {0x1p-140, 0x1p30, 0} /* DAZ: the normal 2^-110 is never formed */};
  for (int k = 0; k < 4; k++) {
    Literal *la = lit_f(T_F32, 1, d1, &cases[k][0]), *lb = lit_f(T_F32, 1, d1, &cases[k][1]);
    Literal *o = run(d, la, lb);
    if (o) CHECK(*(const float *)o->data == (float)cases[k][2]);
    literal_free(o);
    literal_free(la);
    literal_free(lb);
  }
  module_destroy(f.m);
}

TEST(int_matmul_widening_and_wrapping) {
  Fix f = fix_new();
  int64_t ld[2] = {1, 2}, rd[2] = {2, 1}, od[2] = {1, 1}, c1[1] = {1}, c0[1] = {0};
  Instr *d32 = mk_dot(&f, T_S8, 2, ld, T_S8, 2, rd, T_S32, 2, od, 0, NULL, NULL, 1, c1, c0);
  Instr *d8 = mk_dot(&f, T_S8, 2, ld, T_S8, 2, rd, T_S8, 2, od, 0, NULL, NULL, 1, c1, c0);
  int64_t a[2] = {100, 100}, b[2] = {100, 100};
  Literal *la = lit_i(T_S8, 2, ld, a), *lb = lit_i(T_S8, 2, rd, b);
  Literal *o = run(d32, la, lb);
  if (o) CHECK(o->type == T_S32 && ((int32_t *)o->data)[0] == 20000);
  literal_free(o);
  o = run(d8, la, lb);
  if (o) CHECK(o->type == T_S8 && ((int8_t *)o->data)[0] == 32);
  literal_free(o);
  /* Negative s8 operands sign-extend: -2 * 3 + (-128) * (-1) = 122. */
  int64_t a2[2] = {-2, -128}, b2[2] = {3, -1};
  Literal *la2 = lit_i(T_S8, 2, ld, a2), *lb2 = lit_i(T_S8, 2, rd, b2);
  o = run(d32, la2, lb2);
  if (o) CHECK(((int32_t *)o->data)[0] == 122);
  literal_free(o);
  int64_t u1[1] = {1}, u0[1] = {0}, vd[2] = {1, 1};
  Instr *du = mk_dot(&f, T_U8, 2, vd, T_U8, 2, vd, T_U8, 2, vd, 0, NULL, NULL, 1, u1, u0);
  int64_t x[1] = {200}, y[1] = {2};
  Literal *lx = lit_i(T_U8, 2, vd, x), *ly = lit_i(T_U8, 2, vd, y);
  o = run(du, lx, ly);
  if (o) CHECK(((uint8_t *)o->data)[0] == 144);
  literal_free(o);
  literal_free(la);
  literal_free(lb);
  literal_free(la2);
  literal_free(lb2);
  literal_free(lx);
  literal_free(ly);
  module_destroy(f.m);
}

/* bf16 accumulates in (at least) f32 and rounds once: 1 + 2^-8 + 2^-8 is
 * 1 + 2^-7 = 1.0078125, representable in bf16 (bits 0x3F81). Summing in
 * bf16 would give 1 (each 1 + 2^-8 is a tie that rounds to even). */
TEST(bf16_accumulates_wide) {
  Fix f = fix_new();
  int64_t ld[2] = {1, 3}, rd[2] = {3, 1}, od[2] = {1, 1}, c1[1] = {1}, c0[1] = {0};
  Instr *d = mk_dot(&f, T_BF16, 2, ld, T_BF16, 2, rd, T_BF16, 2, od, 0, NULL, NULL, 1, c1, c0);
  Instr *d32 = mk_dot(&f, T_BF16, 2, ld, T_BF16, 2, rd, T_F32, 2, od, 0, NULL, NULL, 1, c1, c0);
  double a[3] = {1, 1.0 / 256, 1.0 / 256}, b[3] = {1, 1, 1};
  Literal *la = lit_f(T_BF16, 2, ld, a), *lb = lit_f(T_BF16, 2, rd, b);
  Literal *o = run(d, la, lb);
  if (o) CHECK(o->type == T_BF16 && ((uint16_t *)o->data)[0] == 0x3F81);
  literal_free(o);
  o = run(d32, la, lb);
  if (o) CHECK(o->type == T_F32 && ((float *)o->data)[0] == 1.0078125f);
  literal_free(o);
  literal_free(la);
  literal_free(lb);
  module_destroy(f.m);
}

/* f16 operands with an f16 result: 2048 + 1 + 1 = 2050 exactly, while
 * sequential f16 sums would lose each +1 (spacing 2 at 2048). */
TEST(f16_accumulates_wide) {
  Fix f = fix_new();
  int64_t ld[2] = {1, 3}, rd[2] = {3, 1}, od[2] = {1, 1}, c1[1] = {1}, c0[1] = {0};
  Instr *d = mk_dot(&f, T_F16, 2, ld, T_F16, 2, rd, T_F16, 2, od, 0, NULL, NULL, 1, c1, c0);
  double a[3] = {2048, 1, 1}, b[3] = {1, 1, 1};
  Literal *la = lit_f(T_F16, 2, ld, a), *lb = lit_f(T_F16, 2, rd, b);
  Literal *o = run(d, la, lb);
  if (o) CHECK(literal_get_f64(o, 0) == 2050);
  literal_free(o);
  literal_free(la);
  literal_free(lb);
  module_destroy(f.m);
}

/* (1+2i)(2) + (3-i)(i) = 2+4i + 3i+1 = 3+7i */
TEST(complex_dot) {
  Fix f = fix_new();
  int64_t ld[1] = {2}, od[1] = {0}, c0[1] = {0};
  Instr *d = mk_dot(&f, T_C64, 1, ld, T_C64, 1, ld, T_C64, 0, od, 0, NULL, NULL, 1, c0, c0);
  Literal *la, *lb;
  CHECK_OK(literal_create(T_C64, 1, ld, &la));
  CHECK_OK(literal_create(T_C64, 1, ld, &lb));
  float *pa = la->data, *pb = lb->data;
  pa[0] = 1, pa[1] = 2, pa[2] = 3, pa[3] = -1;
  pb[0] = 2, pb[1] = 0, pb[2] = 0, pb[3] = 1;
  Literal *o = run(d, la, lb);
  if (o) CHECK(((float *)o->data)[0] == 3 && ((float *)o->data)[1] == 7);
  literal_free(o);
  literal_free(la);
  literal_free(lb);
  module_destroy(f.m);
}

/* pred dot: OR over k of (l AND r). */
TEST(pred_dot) {
  Fix f = fix_new();
  int64_t ld[2] = {2, 2}, od[2] = {2, 2}, c1[1] = {1}, c0[1] = {0};
  Instr *d = mk_dot(&f, T_PRED, 2, ld, T_PRED, 2, ld, T_PRED, 2, od, 0, NULL, NULL, 1, c1, c0);
  int64_t a[4] = {1, 0, 0, 0}, b[4] = {0, 1, 1, 1};
  Literal *la = lit_i(T_PRED, 2, ld, a), *lb = lit_i(T_PRED, 2, ld, b);
  Literal *o = run(d, la, lb);
  /* row0 = (1,0): out[0][j] = b[0][j] = (0,1); row1 = (0,0): (0,0) */
  if (o) {
    const uint8_t *r = o->data;
    CHECK(r[0] == 0 && r[1] == 1 && r[2] == 0 && r[3] == 0);
  }
  literal_free(o);
  literal_free(la);
  literal_free(lb);
  module_destroy(f.m);
}

/* An f32 x f32 -> f32 256x256x256 dot of ones and twos: every entry 512. */
TEST(matmul_256) {
  Fix f = fix_new();
  int64_t d2[2] = {256, 256}, c1[1] = {1}, c0[1] = {0};
  Instr *d = mk_dot(&f, T_F32, 2, d2, T_F32, 2, d2, T_F32, 2, d2, 0, NULL, NULL, 1, c1, c0);
  Literal *la, *lb;
  CHECK_OK(literal_create(T_F32, 2, d2, &la));
  CHECK_OK(literal_create(T_F32, 2, d2, &lb));
  for (int i = 0; i < 65536; i++) ((float *)la->data)[i] = 1, ((float *)lb->data)[i] = 2;
  Literal *o = run(d, la, lb);
  if (o) {
    int bad = 0;
    for (int i = 0; i < 65536; i++) bad += ((float *)o->data)[i] != 512;
    CHECK(bad == 0);
  }
  literal_free(o);
  literal_free(la);
  literal_free(lb);
  module_destroy(f.m);
}

TEST(errors) {
  Fix f = fix_new();
  int64_t ld[2] = {2, 3}, rd[2] = {4, 2}, od[2] = {2, 2}, c1[1] = {1}, c0[1] = {0};
  Instr *d = mk_dot(&f, T_F32, 2, ld, T_F32, 2, rd, T_F32, 2, od, 0, NULL, NULL, 1, c1, c0);
  Literal *la, *lb, *o = NULL;
  CHECK_OK(literal_create(T_F32, 2, ld, &la));
  CHECK_OK(literal_create(T_F32, 2, rd, &lb));
  Interp ip = {0};
  Literal *ops[2] = {la, lb};
  CHECK_ERR(interp_dot(&ip, d, ops, &o), "contracting dimension sizes differ");
  int64_t bad[1] = {5};
  Instr *d2 = mk_dot(&f, T_F32, 2, ld, T_F32, 2, rd, T_F32, 2, od, 0, NULL, NULL, 1, bad, c0);
  CHECK_ERR(interp_dot(&ip, d2, ops, &o), "out of range");
  Instr *rg = comp_add_instr(f.c, OP_RAGGED_DOT, d->shape, 2, d->operands, "rd");
  CHECK_ERR(interp_dot(&ip, rg, ops, &o), "ragged-dot");
  cxla_status s = interp_dot(&ip, rg, ops, &o);
  CHECK(cxla_status_code_of(s) == CXLA_UNIMPLEMENTED);
  cxla_status_free(s);
  literal_free(la);
  literal_free(lb);
  module_destroy(f.m);
}

/* Every allocation failure inside the evaluator is a clean OOM status. */
TEST(out_of_memory) {
  Fix f = fix_new();
  int64_t ld[3] = {2, 2, 1}, rd[3] = {2, 2, 2}, od[3] = {2, 1, 2};
  int64_t lb[1] = {1}, rb[1] = {1}, lc[1] = {0}, rc[1] = {2};
  Instr *d = mk_dot(&f, T_BF16, 3, ld, T_BF16, 3, rd, T_F32, 3, od, 1, lb, rb, 1, lc, rc);
  double a[4] = {1, 3, 2, 4}, b[8] = {5, 6, 7, 8, 1, 0, 0, 1};
  Literal *ops[2] = {lit_f(T_BF16, 3, ld, a), lit_f(T_BF16, 3, rd, b)}, *o;
  Interp ip = {0};
  int fails;
  OOM_SWEEP(o, interp_dot(&ip, d, ops, &o), fails);
  CHECK(fails >= 3); /* result, two packed operands */
  literal_free(ops[0]);
  literal_free(ops[1]);
  module_destroy(f.m);
}

int main(void) {
  RUN(matmul_2x3_3x2);
  RUN(batch_and_odd_contraction_positions);
  RUN(two_contracting_dims);
  RUN(outer_product);
  RUN(subnormals_flush_like_xla_cpu);
  RUN(int_matmul_widening_and_wrapping);
  RUN(bf16_accumulates_wide);
  RUN(f16_accumulates_wide);
  RUN(complex_dot);
  RUN(pred_dot);
  RUN(matmul_256);
  RUN(errors);
  RUN(out_of_memory);
  return test_summary("test_dot");
}
