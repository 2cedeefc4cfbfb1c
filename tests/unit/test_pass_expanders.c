/* Tests of the expanders (logistic_expander.c, batchnorm_expander.c,
 * qr_expander.c): the
 * expanded module has none of the expanded ops, has the structure XLA's
 * expanders emit, verifies, and computes the same values as the
 * interpreter's direct evaluation (within rounding: the expansion rounds at
 * every op) and, where it is small enough to do by hand, exactly the values
 * the formula gives. */
#include <math.h>
#include <stdlib.h>

#include "harness.h"
#include "../gen/random_hlo.c"
#include "passes/passes.h"
#include "verify/verify.h"

static HloModule *parse(const char *text) {
  cxla_module *m = NULL;
  cxla_status st = cxla_module_parse(text, strlen(text), "test", &m);
  if (!st) st = verify_module(m);
  if (st) {
    fprintf(stderr, "%s: %s\n", harness_current, cxla_status_message(st));
    CHECK(!"the test module parses and verifies");
    cxla_status_free(st);
    module_destroy(m);
    return NULL;
  }
  return m;
}

static int count_op(const HloModule *m, Opcode op) {
  int n = 0;
  for (int i = 0; i < m->ncomps; i++)
    for (int j = 0; j < m->comps[i]->ninstrs; j++) n += m->comps[i]->instrs[j]->op == op;
  return n;
}

static Literal *array(ElemType t, int rank, const int64_t *dims, const double *v) {
  Literal *l = NULL;
  cxla_status st = literal_create(t, rank, dims, &l);
  if (st) {
    cxla_status_free(st);
    return NULL;
  }
  for (int64_t i = 0; i < l->nelems; i++) literal_set_f64(l, i, v[i]);
  return l;
}

/* Largest |a-b| / max(1, |b|) over two results of the same shape. */
static double max_rel_diff(const Literal *a, const Literal *b) {
  if (!a || !b) return INFINITY;
  if (a->type == T_TUPLE) {
    double d = 0;
    for (int i = 0; i < a->ntuple && i < b->ntuple; i++) d = fmax(d, max_rel_diff(a->tuple[i], b->tuple[i]));
    return a->ntuple == b->ntuple ? d : INFINITY;
  }
  if (a->nelems != b->nelems) return INFINITY;
  double d = 0;
  for (int64_t i = 0; i < a->nelems; i++) {
    double x = literal_get_f64(a, i), y = literal_get_f64(b, i);
    if (isnan(x) && isnan(y)) continue;
    d = fmax(d, fabs(x - y) / fmax(1.0, fabs(y)));
  }
  return d;
}

/* Runs the named pass through the pipeline (verifying after it); returns
 * whether the printed module changed, and checks that the printed result
 * parses and verifies again. */
static bool run_named(HloModule *m, const char *pass) {
  char *before = NULL, *after = NULL;
  CHECK_OK(cxla_module_print(m, &before));
  PipelineOptions o = {.verify = true, .module_number = 1};
  CHECK_OK(pipeline_run(m, &pass, 1, &o));
  CHECK_OK(cxla_module_print(m, &after));
  bool changed = before && after && strcmp(before, after) != 0;
  cxla_module *again = NULL;
  cxla_status st = after ? cxla_module_parse(after, strlen(after), "round trip", &again) : NULL;
  if (!st && again) st = verify_module(again);
  if (st) fprintf(stderr, "%s: %s\n", harness_current, cxla_status_message(st));
  CHECK(!st);
  cxla_status_free(st);
  module_destroy(again);
  cxla_free(before);
  cxla_free(after);
  return changed;
}

/* Runs `pass` on text; returns the module and the results before and
 * after (the caller frees them). */
static HloModule *expand(const char *text, const char *pass, Literal **args, int nargs,
                         Literal **before, Literal **after) {
  *before = *after = NULL;
  HloModule *m = parse(text);
  if (!m) return NULL;
  CHECK_OK(cxla_interp_run(m, args, nargs, before));
  CHECK(run_named(m, pass));
  CHECK_OK(cxla_interp_run(m, args, nargs, after));
  return m;
}

/* ---- logistic -------------------------------------------------------------------- */

/* The expansion, op by op in f32 as the interpreter evaluates each op
 * (exp in double, rounded once to f32). */
static float logistic_expanded(float x) {
  float e = (float)exp((double)-x);
  float den = 1.0f + e;
  return 1.0f / den;
}

TEST(logistic_f32_array) {
  const char *t = "HloModule m\n"
                  "ENTRY e {\n"
                  "  p = f32[6] parameter(0)\n"
                  "  ROOT l = f32[6] logistic(p)\n"
                  "}\n";
  double in[6] = {0, 1, -1, 3.5, -20, 0.125};
  int64_t d = 6;
  Literal *arg = array(T_F32, 1, &d, in), *before, *after;
  HloModule *m = expand(t, "logistic-expander", &arg, 1, &before, &after);
  if (m) {
    CHECK(count_op(m, OP_LOGISTIC) == 0);
    /* XLA's shape: one broadcast constant 1 used by the add and the divide */
    CHECK(count_op(m, OP_CONSTANT) == 1 && count_op(m, OP_BROADCAST) == 1);
    CHECK(count_op(m, OP_NEGATE) == 1 && count_op(m, OP_EXP) == 1);
    CHECK(count_op(m, OP_ADD) == 1 && count_op(m, OP_DIVIDE) == 1);
    const Instr *root = m->entry->root;
    CHECK(root->op == OP_DIVIDE && root->operands[0]->op == OP_BROADCAST &&
          root->operands[1]->op == OP_ADD && root->operands[1]->operands[0] == root->operands[0]);
    const float *v = after ? after->data : NULL;
    for (int i = 0; v && i < 6; i++) CHECK(v[i] == logistic_expanded((float)in[i]));
    CHECK(max_rel_diff(after, before) < 4e-7); /* a few ulp from the direct op */
  }
  literal_free(arg);
  literal_free(before);
  literal_free(after);
  module_destroy(m);
}

/* A scalar operand needs no broadcast; f64 works the same way. */
TEST(logistic_f64_scalar) {
  const char *t = "HloModule m\n"
                  "ENTRY e {\n"
                  "  p = f64[] parameter(0)\n"
                  "  n = f64[] negate(p)\n"
                  "  ROOT l = f64[] logistic(n)\n"
                  "}\n";
  double in = 0.75;
  Literal *arg = array(T_F64, 0, NULL, &in), *before, *after;
  HloModule *m = expand(t, "logistic-expander", &arg, 1, &before, &after);
  if (m) {
    CHECK(count_op(m, OP_LOGISTIC) == 0 && count_op(m, OP_BROADCAST) == 0);
    double expect = 1.0 / (1.0 + exp(0.75));
    CHECK(after && literal_get_f64(after, 0) == expect);
  }
  literal_free(arg);
  literal_free(before);
  literal_free(after);
  module_destroy(m);
}

/* Nothing to expand: the pass reports no change. */
TEST(logistic_absent_no_change) {
  HloModule *m = parse("HloModule m\nENTRY e {\n  p = f32[2] parameter(0)\n  ROOT t = f32[2] tanh(p)\n}\n");
  if (!m) return;
  CHECK(!run_named(m, "logistic-expander"));
  module_destroy(m);
}

/* ---- batch norm --------------------------------------------------------------------- */

/* x = [[1,2],[3,4]], features along dim 1: feature 0 holds {1,3} (mean 2,
 * E[x^2] = 5, var 5 - 4 = 1), feature 1 holds {2,4} (mean 3, E[x^2] = 10,
 * var 10 - 9 = 1). With scale 1, offset 0, epsilon 0, y = (x - mean) * rsqrt(1):
 * [[-1,-1],[1,1]]. All of it exact in f32. */
TEST(batchnorm_training_by_hand) {
  const char *t = "HloModule m\n"
                  "ENTRY e {\n"
                  "  x = f32[2,2] parameter(0)\n"
                  "  s = f32[2] parameter(1)\n"
                  "  o = f32[2] parameter(2)\n"
                  "  ROOT bn = (f32[2,2], f32[2], f32[2]) batch-norm-training(x, s, o), epsilon=0, feature_index=1\n"
                  "}\n";
  double xv[4] = {1, 2, 3, 4}, sv[2] = {1, 1}, ov[2] = {0, 0};
  int64_t d2[2] = {2, 2}, d1 = 2;
  Literal *args[3] = {array(T_F32, 2, d2, xv), array(T_F32, 1, &d1, sv), array(T_F32, 1, &d1, ov)};
  Literal *before, *after;
  HloModule *m = expand(t, "batchnorm-expander", args, 3, &before, &after);
  if (m) {
    CHECK(count_op(m, OP_BATCH_NORM_TRAINING) == 0);
    CHECK(count_op(m, OP_REDUCE) == 2); /* sum x, sum x*x */
    CHECK(count_op(m, OP_RSQRT) == 1);
    CHECK(m->entry->root->op == OP_TUPLE);
    if (after && after->ntuple == 3) {
      const float *y = after->tuple[0]->data, *mean = after->tuple[1]->data, *var = after->tuple[2]->data;
      CHECK(y[0] == -1 && y[1] == -1 && y[2] == 1 && y[3] == 1);
      CHECK(mean[0] == 2 && mean[1] == 3 && var[0] == 1 && var[1] == 1);
    }
    CHECK(max_rel_diff(after, before) == 0);
  }
  for (int i = 0; i < 3; i++) literal_free(args[i]);
  literal_free(before);
  literal_free(after);
  module_destroy(m);
}

/* Random data over a rank-4 NHWC-like operand (feature dim 3) and a rank-3
 * operand with the feature dim in the middle: the expansion agrees with
 * the interpreter's double-precision evaluation to f32 rounding. */
TEST(batchnorm_training_inference_grad_random) {
  const char *t =
      "HloModule m\n"
      "ENTRY e {\n"
      "  x = f32[2,3,3,4] parameter(0)\n"
      "  s = f32[4] parameter(1)\n"
      "  o = f32[4] parameter(2)\n"
      "  mu = f32[4] parameter(3)\n"
      "  va = f32[4] parameter(4)\n"
      "  dy = f32[2,3,3,4] parameter(5)\n"
      "  tr = (f32[2,3,3,4], f32[4], f32[4]) batch-norm-training(x, s, o), epsilon=0.001, feature_index=3\n"
      "  inf = f32[2,3,3,4] batch-norm-inference(x, s, o, mu, va), epsilon=0.001, feature_index=3\n"
      "  gr = (f32[2,3,3,4], f32[4], f32[4]) batch-norm-grad(x, s, mu, va, dy), epsilon=0.001, feature_index=3\n"
      "  x3 = f32[3,4,6] reshape(dy)\n"
      "  s5 = f32[1,4,1] slice(x3), slice={[0:1], [0:4], [0:1]}\n"
      "  s5r = f32[4] reshape(s5)\n"
      "  tr3 = (f32[3,4,6], f32[4], f32[4]) batch-norm-training(x3, s5r, s5r), epsilon=0.01, feature_index=1\n"
      "  ROOT all = ((f32[2,3,3,4], f32[4], f32[4]), f32[2,3,3,4], (f32[2,3,3,4], f32[4], f32[4]), (f32[3,4,6], f32[4], f32[4])) tuple(tr, inf, gr, tr3)\n"
      "}\n";
  HloModule *probe = parse(t);
  if (!probe) return;
  Literal **args;
  int nargs;
  CHECK_OK(random_args(probe, 11, &args, &nargs));
  /* finite values, positive variances */
  for (int i = 0; i < nargs; i++)
    for (int64_t k = 0; k < args[i]->nelems; k++) {
      double v = literal_get_f64(args[i], k);
      if (!isfinite(v) || fabs(v) > 10) v = 0.5;
      if (i == 4) v = fabs(v) + 0.25;
      literal_set_f64(args[i], k, v);
    }
  module_destroy(probe);
  Literal *before, *after;
  HloModule *m = expand(t, "batchnorm-expander", args, nargs, &before, &after);
  if (m) {
    CHECK(count_op(m, OP_BATCH_NORM_TRAINING) == 0 && count_op(m, OP_BATCH_NORM_INFERENCE) == 0 &&
          count_op(m, OP_BATCH_NORM_GRAD) == 0);
    double d = max_rel_diff(after, before);
    CHECK(d < 2e-5);
    if (d >= 2e-5) fprintf(stderr, "  max relative difference %g\n", d);
  }
  random_args_free(args, nargs);
  literal_free(before);
  literal_free(after);
  module_destroy(m);
}

/* inference by hand: k = scale * rsqrt(var + eps) = 2 * rsqrt(4) = 1,
 * shift = offset - mean * k = 1 - 3 = -2, y = x * 1 - 2. */
TEST(batchnorm_inference_by_hand) {
  const char *t = "HloModule m\n"
                  "ENTRY e {\n"
                  "  x = f32[3,1] parameter(0)\n"
                  "  c = f32[1] parameter(1)\n"
                  "  ROOT bn = f32[3,1] batch-norm-inference(x, c, c, c, c), epsilon=1, feature_index=1\n"
                  "}\n";
  /* scale = offset = mean = var = c; pick c = 3: k = 3 * rsqrt(4) = 1.5,
   * shift = 3 - 3 * 1.5 = -1.5, y = 1.5 x - 1.5 */
  double xv[3] = {1, 2, -3}, cv = 3;
  int64_t d2[2] = {3, 1}, d1 = 1;
  Literal *args[2] = {array(T_F32, 2, d2, xv), array(T_F32, 1, &d1, &cv)};
  Literal *before, *after;
  HloModule *m = expand(t, "batchnorm-expander", args, 2, &before, &after);
  if (m) {
    CHECK(count_op(m, OP_BATCH_NORM_INFERENCE) == 0 && count_op(m, OP_REDUCE) == 0);
    const float *y = after ? after->data : NULL;
    CHECK(y && y[0] == 0 && y[1] == 1.5f && y[2] == -6);
  }
  for (int i = 0; i < 2; i++) literal_free(args[i]);
  literal_free(before);
  literal_free(after);
  module_destroy(m);
}

/* Nothing to expand: no change. */
TEST(batchnorm_absent_no_change) {
  HloModule *m = parse("HloModule m\nENTRY e {\n  p = f32[2] parameter(0)\n  ROOT t = f32[2] negate(p)\n}\n");
  if (!m) return;
  CHECK(!run_named(m, "batchnorm-expander"));
  module_destroy(m);
}

/* ---- qr ------------------------------------------------------------------------ */

/* QR of [[3, 1], [4, 2], [0, 0]] by hand: column 0 has alpha = 3,
 * sigma = 16, mu = 5, beta = -5 (alpha > 0), tau = (beta - alpha) / beta
 * = 1.6, v = (1, 4 / (3 + 5)) = (1, 0.5, 0). The reflector maps column 1
 * (1, 2, 0) to (1, 2, 0) - 1.6 (1 + 1) (1, 0.5, 0) = (-2.2, 0.4, 0); column 1
 * then has alpha = 0.4, sigma = 0, so tau = 0 and beta = 0.4. */
TEST(qr_by_hand) {
  const char *t = "HloModule m\n"
                  "ENTRY e {\n"
                  "  a = f64[3,2] parameter(0)\n"
                  "  ROOT qr = (f64[3,2], f64[2]) custom-call(a), custom_call_target=\"Qr\"\n"
                  "}\n";
  double av[6] = {3, 1, 4, 2, 0, 0};
  int64_t d[2] = {3, 2};
  Literal *arg = array(T_F64, 2, d, av), *before, *after;
  HloModule *m = expand(t, "qr-expander", &arg, 1, &before, &after);
  if (m) {
    CHECK(count_op(m, OP_CUSTOM_CALL) == 0 && count_op(m, OP_WHILE) == 1);
    CHECK(after && after->type == T_TUPLE && after->ntuple == 2);
    if (after && after->ntuple == 2) {
      const double *r = after->tuple[0]->data, *tau = after->tuple[1]->data;
      const double want_r[6] = {-5, -2.2, 0.5, 0.4, 0, 0}, want_tau[2] = {1.6, 0};
      for (int i = 0; i < 6; i++) CHECK(fabs(r[i] - want_r[i]) < 1e-15);
      for (int i = 0; i < 2; i++) CHECK(fabs(tau[i] - want_tau[i]) < 1e-15);
    }
    /* the interpreter's direct geqrf agrees */
    CHECK(max_rel_diff(after, before) < 1e-14);
  }
  literal_free(arg);
  literal_free(before);
  literal_free(after);
  module_destroy(m);
}

/* TensorFlow's QR as it emits it: Qr, then the product of its reflectors
 * (batched, tall, f32), against the interpreter's direct geqrf / orgqr in
 * double; Q^T Q = I and Q R = A checked from the expanded results. */
TEST(qr_and_product_batched) {
  const char *t =
      "HloModule m\n"
      "ENTRY e {\n"
      "  a = f32[2,4,3] parameter(0)\n"
      "  qr = (f32[2,4,3], f32[2,3]) custom-call(a), custom_call_target=\"Qr\"\n"
      "  r = f32[2,4,3] get-tuple-element(qr), index=0\n"
      "  taus = f32[2,3] get-tuple-element(qr), index=1\n"
      "  q = f32[2,4,3] custom-call(r, taus), "
      "custom_call_target=\"ProductOfElementaryHouseholderReflectors\"\n"
      "  ROOT out = (f32[2,4,3], f32[2,4,3]) tuple(q, r)\n"
      "}\n";
  double av[24];
  for (int i = 0; i < 24; i++) av[i] = sin(1.0 + 3.7 * i) * (i % 5 + 1);
  int64_t d[3] = {2, 4, 3};
  Literal *arg = array(T_F32, 3, d, av), *before, *after;
  HloModule *m = expand(t, "qr-expander", &arg, 1, &before, &after);
  if (m) {
    CHECK(count_op(m, OP_CUSTOM_CALL) == 0 && count_op(m, OP_WHILE) == 2);
    CHECK(max_rel_diff(after, before) < 1e-5);
    if (after && after->ntuple == 2) {
      const float *q = after->tuple[0]->data, *r = after->tuple[1]->data;
      double worst = 0;
      for (int b = 0; b < 2; b++)
        for (int i = 0; i < 4; i++)
          for (int j = 0; j < 3; j++) {
            double qr = 0, qtq = 0;
            for (int k = 0; k < 3; k++)
              if (k <= j) qr += q[b * 12 + i * 3 + k] * r[b * 12 + k * 3 + j];
            if (i < 3) {
              for (int k = 0; k < 4; k++) qtq += q[b * 12 + k * 3 + i] * q[b * 12 + k * 3 + j];
              worst = fmax(worst, fabs(qtq - (i == j)));
            }
            worst = fmax(worst, fabs(qr - av[b * 12 + i * 3 + j]) / 5);
          }
      CHECK(worst < 1e-5);
    }
  }
  literal_free(arg);
  literal_free(before);
  literal_free(after);
  module_destroy(m);
}

/* Complex QR (c128, tall, with a reflector product) against the
 * interpreter's direct zgeqrf / zungqr: the expansion conjugates where XLA
 * does (tau in the factorization, v^H in every product). */
TEST(qr_complex) {
  const char *t =
      "HloModule m\n"
      "ENTRY e {\n"
      "  a = c128[4,3] parameter(0)\n"
      "  qr = (c128[4,3], c128[3]) custom-call(a), custom_call_target=\"Qr\"\n"
      "  r = c128[4,3] get-tuple-element(qr), index=0\n"
      "  taus = c128[3] get-tuple-element(qr), index=1\n"
      "  q = c128[4,3] custom-call(r, taus), "
      "custom_call_target=\"ProductOfElementaryHouseholderReflectors\"\n"
      "  ROOT out = (c128[4,3], c128[4,3], c128[3]) tuple(q, r, taus)\n"
      "}\n";
  int64_t d[2] = {4, 3};
  Literal *arg = NULL, *before, *after;
  CHECK_OK(literal_create(T_C128, 2, d, &arg));
  if (!arg) return;
  double *z = arg->data;
  for (int i = 0; i < 24; i++) z[i] = cos(0.7 + 2.3 * i) * (1 + i % 3);
  z[1] = 0; /* a real first pivot, and a complex one after */
  HloModule *m = expand(t, "qr-expander", &arg, 1, &before, &after);
  if (m) {
    CHECK(count_op(m, OP_CUSTOM_CALL) == 0 && count_op(m, OP_WHILE) == 2);
    /* max_rel_diff compares real parts; compare the imaginary parts too */
    double worst = 0;
    for (int k = 0; after && before && k < 3; k++) {
      const double *x = after->tuple[k]->data, *y = before->tuple[k]->data;
      for (int64_t i = 0; i < 2 * after->tuple[k]->nelems; i++)
        worst = fmax(worst, fabs(x[i] - y[i]));
    }
    CHECK(after && before && worst < 1e-12);
  }
  literal_free(arg);
  literal_free(before);
  literal_free(after);
  module_destroy(m);
}

/* Other custom-calls, and a product whose reflectors do not fit (n > m),
 * stay as they are. */
TEST(qr_leaves_others) {
  HloModule *m = parse("HloModule m\nENTRY e {\n  a = f32[2,2] parameter(0)\n"
                       "  ROOT qr = (f32[2,2], f32[2]) custom-call(a), custom_call_target=\"Qrx\"\n}\n");
  if (m) {
    CHECK(!run_named(m, "qr-expander"));
    module_destroy(m);
  }
  m = parse("HloModule m\nENTRY e {\n  a = f32[2,3] parameter(0)\n  t = f32[2] parameter(1)\n"
            "  ROOT q = f32[2,3] custom-call(a, t), "
            "custom_call_target=\"ProductOfElementaryHouseholderReflectors\"\n}\n");
  if (m) {
    CHECK(!run_named(m, "qr-expander"));
    module_destroy(m);
  }
}

int main(void) {
  RUN(logistic_f32_array);
  RUN(logistic_f64_scalar);
  RUN(logistic_absent_no_change);
  RUN(batchnorm_training_by_hand);
  RUN(batchnorm_training_inference_grad_random);
  RUN(batchnorm_inference_by_hand);
  RUN(batchnorm_absent_no_change);
  RUN(qr_by_hand);
  RUN(qr_and_product_batched);
  RUN(qr_complex);
  RUN(qr_leaves_others);
  return test_summary(__FILE__);
}
