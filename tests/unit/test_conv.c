/* Unit tests for the convolution evaluator (src/interp/conv.c). Instructions
 * are built by hand; expected values are worked out by hand in comments. */
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

/* Fills ConvDims from XLA's dim_labels text, e.g. "b01f_01io->b01f". */
static void labels(ConvDims *cd, const char *s) {
  int nsp = 0;
  for (const char *p = s; *p && *p != '_'; p++)
    if (*p >= '0' && *p <= '9') nsp++;
  cd->nspatial = nsp;
  cd->in_spatial = arena_array(&M->arena, (size_t)nsp + 1, sizeof(int64_t));
  cd->k_spatial = arena_array(&M->arena, (size_t)nsp + 1, sizeof(int64_t));
  cd->out_spatial = arena_array(&M->arena, (size_t)nsp + 1, sizeof(int64_t));
  int part = 0, pos = 0;
  for (const char *p = s; *p; p++) {
    if (*p == '_' || *p == '-') { part++; pos = 0; if (*p == '-') p++; continue; }
    int64_t i = pos++;
    if (part == 0) {
      if (*p == 'b') cd->in_batch = i;
      else if (*p == 'f') cd->in_feature = i;
      else cd->in_spatial[*p - '0'] = i;
    } else if (part == 1) {
      if (*p == 'o') cd->k_out = i;
      else if (*p == 'i') cd->k_in = i;
      else cd->k_spatial[*p - '0'] = i;
    } else {
      if (*p == 'b') cd->out_batch = i;
      else if (*p == 'f') cd->out_feature = i;
      else cd->out_spatial[*p - '0'] = i;
    }
  }
}

static Shape *shp(ElemType t, int rank, const int64_t *d) {
  return shape_new(&M->arena, t, rank, d);
}

/* A convolution with default window (stride/dilations 1, no padding) of the
 * given sizes; callers adjust in->window afterwards. */
static Instr *mk_conv(const char *lab, ElemType lt, int rank, const int64_t *ld,
                      const int64_t *kd, ElemType ot, const int64_t *od,
                      const int64_t *wsize) {
  Instr *ops[2] = {comp_add_instr(C, OP_PARAMETER, shp(lt, rank, ld), 0, NULL, NULL),
                   comp_add_instr(C, OP_PARAMETER, shp(lt, rank, kd), 0, NULL, NULL)};
  Instr *c = comp_add_instr(C, OP_CONVOLUTION, shp(ot, rank, od), 2, ops, "conv");
  c->attrs |= A_CONV_DIMS | A_WINDOW;
  labels(&c->conv, lab);
  c->nwindow = rank - 2;
  c->window = arena_array(&M->arena, (size_t)rank, sizeof(WindowDim));
  for (int i = 0; i < rank - 2; i++) {
    WindowDim *w = &c->window[i];
    w->size = wsize[i];
    w->stride = w->lhs_dilate = w->rhs_dilate = 1;
  }
  return c;
}

static Literal *lit(ElemType t, int rank, const int64_t *dims, const double *v) {
  Literal *l;
  CHECK_OK(literal_create(t, rank, dims, &l));
  for (int64_t i = 0; i < l->nelems; i++) literal_set_f64(l, i, v[i]);
  return l;
}

/* Runs the conv on fresh literals and compares with want (n values). */
static void expect(Instr *c, const double *x, const double *k, const double *want, int n) {
  Literal *a = lit(c->operands[0]->shape->type, c->operands[0]->shape->rank,
                   c->operands[0]->shape->dims, x);
  Literal *b = lit(c->operands[1]->shape->type, c->operands[1]->shape->rank,
                   c->operands[1]->shape->dims, k);
  Interp ip = {0};
  Literal *ops[2] = {a, b}, *o = NULL;
  CHECK_OK(interp_conv(&ip, c, ops, &o));
  if (o) {
    CHECK(o->nelems == n);
    for (int i = 0; i < n && i < o->nelems; i++) {
      if (literal_get_f64(o, i) != want[i]) {
        fprintf(stderr, "  element %d: got %g want %g\n", i, literal_get_f64(o, i), want[i]);
        CHECK(literal_get_f64(o, i) == want[i]);
      }
    }
  }
  literal_free(o);
  literal_free(a);
  literal_free(b);
}

/* x = 1..5, kernel (1,0,-1), stride 2, pad 1_1: padded 0 1 2 3 4 5 0,
 * windows at 0,2,4: 0-2 = -2, 2-4 = -2, 4-0 = 4. */
TEST(conv1d_stride_pad) {
  setup();
  int64_t ld[3] = {1, 5, 1}, kd[3] = {3, 1, 1}, od[3] = {1, 3, 1}, ws[1] = {3};
  Instr *c = mk_conv("b0f_0io->b0f", T_F32, 3, ld, kd, T_F32, od, ws);
  c->window[0].stride = 2;
  c->window[0].pad_lo = c->window[0].pad_hi = 1;
  double x[5] = {1, 2, 3, 4, 5}, k[3] = {1, 0, -1}, w[3] = {-2, -2, 4};
  expect(c, x, k, w, 3);
  module_destroy(M);
}

/* rhs_dilate 2 with kernel (1,1): x[i] + x[i+2] = 4, 6, 8. */
TEST(conv1d_rhs_dilation) {
  setup();
  int64_t ld[3] = {1, 5, 1}, kd[3] = {2, 1, 1}, od[3] = {1, 3, 1}, ws[1] = {2};
  Instr *c = mk_conv("b0f_0io->b0f", T_F32, 3, ld, kd, T_F32, od, ws);
  c->window[0].rhs_dilate = 2;
  double x[5] = {1, 2, 3, 4, 5}, k[2] = {1, 1}, w[3] = {4, 6, 8};
  expect(c, x, k, w, 3);
  module_destroy(M);
}

/* lhs_dilate 2: (1,2,3) -> 1 0 2 0 3, pad 1_1 -> 0 1 0 2 0 3 0; kernel
 * (1,10): 10, 1, 20, 2, 30, 3. */
TEST(conv1d_lhs_dilation) {
  setup();
  int64_t ld[3] = {1, 1, 3}, kd[3] = {1, 1, 2}, od[3] = {1, 1, 6}, ws[1] = {2};
  Instr *c = mk_conv("bf0_oi0->bf0", T_F64, 3, ld, kd, T_F64, od, ws);
  c->window[0].lhs_dilate = 2;
  c->window[0].pad_lo = c->window[0].pad_hi = 1;
  double x[3] = {1, 2, 3}, k[2] = {1, 10}, w[6] = {10, 1, 20, 2, 30, 3};
  expect(c, x, k, w, 6);
  module_destroy(M);
}

/* Negative low padding drops the first element: (1,2,3) pad -1_0 with a
 * 1-wide kernel (2) gives 4, 6. */
TEST(conv1d_negative_padding) {
  setup();
  int64_t ld[3] = {1, 3, 1}, kd[3] = {1, 1, 1}, od[3] = {1, 2, 1}, ws[1] = {1};
  Instr *c = mk_conv("b0f_0io->b0f", T_F32, 3, ld, kd, T_F32, od, ws);
  c->window[0].pad_lo = -1;
  double x[3] = {1, 2, 3}, k[1] = {2}, w[2] = {4, 6};
  expect(c, x, k, w, 2);
  module_destroy(M);
}

/* Window reversal flips the kernel: (1,10) acts as (10,1):
 * 1*10 + 2 = 12, 2*10 + 3 = 23. */
TEST(conv1d_window_reversal) {
  setup();
  int64_t ld[3] = {1, 3, 1}, kd[3] = {2, 1, 1}, od[3] = {1, 2, 1}, ws[1] = {2};
  Instr *c = mk_conv("b0f_0io->b0f", T_F32, 3, ld, kd, T_F32, od, ws);
  c->window[0].reversal = true;
  double x[3] = {1, 2, 3}, k[2] = {1, 10}, w[2] = {12, 23};
  expect(c, x, k, w, 2);
  module_destroy(M);
}

/* Two input channels (1, 2), feature_group_count 2, four outputs with
 * kernel (1,2,3,4): outputs 0,1 read channel 0 and 2,3 channel 1:
 * 1, 2, 6, 8. */
TEST(grouped_conv) {
  setup();
  int64_t ld[3] = {1, 1, 2}, kd[3] = {1, 1, 4}, od[3] = {1, 1, 4}, ws[1] = {1};
  Instr *c = mk_conv("b0f_0io->b0f", T_F32, 3, ld, kd, T_F32, od, ws);
  c->feature_group_count = 2;
  double x[2] = {1, 2}, k[4] = {1, 2, 3, 4}, w[4] = {1, 2, 6, 8};
  expect(c, x, k, w, 4);
  module_destroy(M);
}

/* Depthwise: 3 channels, each its own 2-tap filter over width 3 (x = ch*10
 * + position, kernel [w][1][ch]): out[p][ch] = x[p][ch]*k0 + x[p+1][ch]*k1.
 * ch0 k=(1,1): (0+1, 1+2) = 1, 3; ch1 k=(1,0): 10, 11; ch2 k=(0,2): 42, 44. */
TEST(depthwise_conv) {
  setup();
  int64_t ld[3] = {1, 3, 3}, kd[3] = {2, 1, 3}, od[3] = {1, 2, 3}, ws[1] = {2};
  Instr *c = mk_conv("b0f_0io->b0f", T_F32, 3, ld, kd, T_F32, od, ws);
  c->feature_group_count = 3;
  double x[9] = {0, 10, 20, 1, 11, 21, 2, 12, 22};
  double k[6] = {1, 1, 0, 1, 0, 2};
  double w[6] = {1, 10, 42, 3, 11, 44};
  expect(c, x, k, w, 6);
  module_destroy(M);
}

/* batch_group_count 2: input batches (1,2,3,4), kernel features (10, 100);
 * output batch 2; feature o reads batch group o: out[n][o] = x[n + 2o]*k[o]:
 * out[0] = (10, 300), out[1] = (20, 400). */
TEST(batch_group_count) {
  setup();
  int64_t ld[3] = {4, 1, 1}, kd[3] = {1, 1, 2}, od[3] = {2, 1, 2}, ws[1] = {1};
  Instr *c = mk_conv("b0f_0io->b0f", T_F32, 3, ld, kd, T_F32, od, ws);
  c->batch_group_count = 2;
  double x[4] = {1, 2, 3, 4}, k[2] = {10, 100}, w[4] = {10, 300, 20, 400};
  expect(c, x, k, w, 4);
  module_destroy(M);
}

/* 2-D NCHW / OIHW: input [[1,2],[3,4]]; output channel 0's kernel
 * [[1,0],[0,1]] gives 1+4 = 5, channel 1's [[0,1],[0,0]] gives 2. */
TEST(conv2d_nchw) {
  setup();
  int64_t ld[4] = {1, 1, 2, 2}, kd[4] = {2, 1, 2, 2}, od[4] = {1, 2, 1, 1}, ws[2] = {2, 2};
  Instr *c = mk_conv("bf01_oi01->bf01", T_F32, 4, ld, kd, T_F32, od, ws);
  double x[4] = {1, 2, 3, 4}, k[8] = {1, 0, 0, 1, 0, 1, 0, 0}, w[2] = {5, 2};
  expect(c, x, k, w, 2);
  module_destroy(M);
}

/* Output layout differing from the input's: input NWC [1,2,1], kernel
 * width 1 with 2 output features (1, -1); output "fb0" is [2][1][2]:
 * f0 = (x0, x1) = (3, 5), f1 = (-3, -5). */
TEST(permuted_output_layout) {
  setup();
  int64_t ld[3] = {1, 2, 1}, kd[3] = {1, 1, 2}, od[3] = {2, 1, 2}, ws[1] = {1};
  Instr *c = mk_conv("b0f_0io->fb0", T_F32, 3, ld, kd, T_F32, od, ws);
  double x[2] = {3, 5}, k[2] = {1, -1}, w[4] = {3, 5, -3, -5};
  expect(c, x, k, w, 4);
  module_destroy(M);
}

/* 3-D: 2x2x2 input of 1..8 against a 2x2x2 kernel of ones: 36. */
TEST(conv3d) {
  setup();
  int64_t ld[5] = {1, 2, 2, 2, 1}, kd[5] = {2, 2, 2, 1, 1}, od[5] = {1, 1, 1, 1, 1};
  int64_t ws[3] = {2, 2, 2};
  Instr *c = mk_conv("b012f_012io->b012f", T_F32, 5, ld, kd, T_F32, od, ws);
  double x[8] = {1, 2, 3, 4, 5, 6, 7, 8}, k[8] = {1, 1, 1, 1, 1, 1, 1, 1}, w[1] = {36};
  expect(c, x, k, w, 1);
  module_destroy(M);
}

/* s8 operands into an s32 result multiply in s32: 100*100 + 100*100. */
TEST(int_conv_widens) {
  setup();
  int64_t ld[3] = {1, 2, 1}, kd[3] = {2, 1, 1}, od[3] = {1, 1, 1}, ws[1] = {2};
  Instr *c = mk_conv("b0f_0io->b0f", T_S8, 3, ld, kd, T_S32, od, ws);
  double x[2] = {100, 100}, k[2] = {100, 100}, w[1] = {20000};
  expect(c, x, k, w, 1);
  module_destroy(M);
}

TEST(errors) {
  setup();
  int64_t ld[3] = {1, 5, 1}, kd[3] = {3, 1, 1}, od[3] = {1, 4, 1}, ws[1] = {3};
  Instr *c = mk_conv("b0f_0io->b0f", T_F32, 3, ld, kd, T_F32, od, ws);
  Literal *a, *b, *o = NULL;
  CHECK_OK(literal_create(T_F32, 3, ld, &a));
  CHECK_OK(literal_create(T_F32, 3, kd, &b));
  Interp ip = {0};
  Literal *ops[2] = {a, b};
  CHECK_ERR(interp_conv(&ip, c, ops, &o), "output spatial dim 0 is 4, expected 3");
  c->shape->dims[1] = 3;
  c->feature_group_count = 2;
  CHECK_ERR(interp_conv(&ip, c, ops, &o), "feature_group_count");
  literal_free(a);
  literal_free(b);
  module_destroy(M);
}

TEST(out_of_memory) {
  setup();
  int64_t ld[3] = {1, 3, 3}, kd[3] = {2, 1, 3}, od[3] = {1, 2, 3}, ws[1] = {2};
  Instr *c = mk_conv("b0f_0io->b0f", T_F32, 3, ld, kd, T_F32, od, ws);
  c->feature_group_count = 3;
  double x[9] = {0, 10, 20, 1, 11, 21, 2, 12, 22}, k[6] = {1, 1, 0, 1, 0, 2};
  Literal *ops[2] = {lit(T_F32, 3, ld, x), lit(T_F32, 3, kd, k)}, *o;
  Interp ip = {0};
  int fails;
  OOM_SWEEP(o, interp_conv(&ip, c, ops, &o), fails);
  CHECK(fails >= 3);
  literal_free(ops[0]);
  literal_free(ops[1]);
  module_destroy(M);
}

int main(void) {
  RUN(conv1d_stride_pad);
  RUN(conv1d_rhs_dilation);
  RUN(conv1d_lhs_dilation);
  RUN(conv1d_negative_padding);
  RUN(conv1d_window_reversal);
  RUN(grouped_conv);
  RUN(depthwise_conv);
  RUN(batch_group_count);
  RUN(conv2d_nchw);
  RUN(permuted_output_layout);
  RUN(conv3d);
  RUN(int_conv_widens);
  RUN(errors);
  RUN(out_of_memory);
  return test_summary("test_conv");
}
