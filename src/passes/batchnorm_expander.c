/* batchnorm-expander: batch-norm-training, -inference and -grad become
 * elementwise ops, broadcasts and add-reductions, with the formulas and
 * op structure of XLA's BatchNormExpander (x has rank R, feature dim f, C
 * features, N = elements per feature, eps the epsilon attribute rounded to
 * float and converted to x's type; "bcast(v)" broadcasts a [C] vector along
 * dim f, "sum(v)" reduces every dim but f with add from 0):
 *
 *   training:  mean = sum(x) / N,  var = sum(x*x) / N - mean*mean,
 *              y = (x - bcast(mean)) * rsqrt(bcast(var) + eps) * bcast(scale)
 *                  + bcast(offset);               result (y, mean, var)
 *   inference: k = scale * rsqrt(var + eps),  b = offset - mean * k,
 *              y = x * bcast(k) + bcast(b)
 *   grad:      d = x - bcast(mean),  gscale = sum(dy*d) * rsqrt(var + eps),
 *              gbeta = sum(dy),
 *              gx = bcast(scale) * rsqrt(bcast(var) + eps) / N *
 *                   (dy*N - bcast(gbeta) - d*bcast(sum(dy*d)) / (bcast(var) + eps))
 *                                                  result (gx, gscale, gbeta)
 *
 * N is a constant here (XLA multiplies get-dimension-size values so that
 * dynamic shapes work; cxla expands only static shapes). The expansion
 * rounds at every op, so it matches XLA:CPU (which always expands these
 * ops) rather than cxla's interpreter (which computes in double): not part
 * of the value-preserving default pipeline. */
#include <stdlib.h>
#include <string.h>

#include "ir/rewrite.h"
#include "passes/expander_util.h"
#include "passes/passes.h"

enum { kMaxRank = 16 };

typedef struct Bn {
  Computation *c;
  Instr *x;
  const Shape *xs;
  ElemType t;
  int64_t f;               /* feature dim */
  int64_t fdim[1];         /* {f}: broadcast map of a [C] vector */
  int64_t red[kMaxRank];   /* the dims reduced: all but f */
  int nred;
  double n, eps;
} Bn;

static bool raw_double(const Instr *in, const char *name, double *v) {
  const char *s = instr_raw(in, name);
  if (!s) return false;
  char *end;
  *v = strtod(s, &end);
  return end != s;
}

static bool bn_setup(Computation *c, Instr *in, Bn *b) {
  memset(b, 0, sizeof *b);
  if (in->noperands != (in->op == OP_BATCH_NORM_TRAINING ? 3 : 5)) return false;
  b->c = c;
  b->x = in->operands[0];
  b->xs = b->x->shape;
  b->t = b->xs->type;
  double fi, eps;
  if (!type_is_float(b->t) || b->xs->rank > kMaxRank || b->xs->dynamic) return false;
  if (!raw_double(in, "feature_index", &fi) || !raw_double(in, "epsilon", &eps)) return false;
  if (fi < 0 || fi >= b->xs->rank || fi != (double)(int64_t)fi) return false;
  b->f = (int64_t)fi;
  b->fdim[0] = b->f;
  b->eps = (double)(float)eps;
  b->n = 1;
  for (int i = 0; i < b->xs->rank; i++)
    if (i != b->f) {
      b->red[b->nred++] = i;
      b->n *= (double)b->xs->dims[i];
    }
  return true;
}

/* A [C] vector broadcast along the feature dim to x's dims. */
static Instr *fb(Bn *b, Instr *v) {
  return v ? eu_broadcast(b->c, v, b->xs->rank, b->xs->dims, 1, b->fdim) : NULL;
}

/* A scalar broadcast to like's dims. */
static Instr *sb(Bn *b, Instr *s, const Instr *like) {
  return s ? eu_broadcast(b->c, s, like->shape->rank, like->shape->dims, 0, NULL) : NULL;
}

static Instr *bin(Bn *b, Opcode op, Instr *x, Instr *y) {
  return x && y ? eu_binary(b->c, op, x, y) : NULL;
}

static Instr *sum(Bn *b, Instr *v, Instr *zero) {
  return v && zero ? eu_reduce_add(b->c, v, zero, b->nred, b->red) : NULL;
}

static Instr *tuple3(Computation *c, Instr *a, Instr *x, Instr *y) {
  if (!a || !x || !y) return NULL;
  Instr *ops[3] = {a, x, y};
  Shape *el[3] = {a->shape, x->shape, y->shape};
  Shape *s = shape_new_tuple(&c->module->arena, 3, el);
  return s ? comp_add_instr(c, OP_TUPLE, s, 3, ops, NULL) : NULL;
}

static Instr *expand_training(Bn *b, Instr *in) {
  Instr *scale = in->operands[1], *offset = in->operands[2];
  Instr *zero = eu_scalar(b->c, b->t, 0);
  Instr *eps = sb(b, eu_scalar(b->c, b->t, b->eps), b->x);
  Instr *count = eu_scalar(b->c, b->t, b->n);
  Instr *scale_b = fb(b, scale), *offset_b = fb(b, offset);
  Instr *sq = bin(b, OP_MULTIPLY, b->x, b->x);
  Instr *s = sum(b, b->x, zero), *s2 = sum(b, sq, zero);
  Instr *mean = bin(b, OP_DIVIDE, s, sb(b, count, s));
  Instr *mean_b = fb(b, mean);
  Instr *sqmean = bin(b, OP_DIVIDE, s2, sb(b, count, s2));
  Instr *var = bin(b, OP_SUBTRACT, sqmean, bin(b, OP_MULTIPLY, mean, mean));
  Instr *rs = bin(b, OP_ADD, fb(b, var), eps);
  rs = rs ? eu_unary(b->c, OP_RSQRT, rs) : NULL;
  Instr *y = bin(b, OP_MULTIPLY, bin(b, OP_SUBTRACT, b->x, mean_b), rs);
  y = bin(b, OP_ADD, bin(b, OP_MULTIPLY, y, scale_b), offset_b);
  return tuple3(b->c, y, mean, var);
}

static Instr *expand_inference(Bn *b, Instr *in) {
  Instr *scale = in->operands[1], *offset = in->operands[2];
  Instr *mean = in->operands[3], *var = in->operands[4];
  Instr *eps = sb(b, eu_scalar(b->c, b->t, b->eps), scale);
  Instr *rs = bin(b, OP_ADD, var, eps);
  rs = rs ? eu_unary(b->c, OP_RSQRT, rs) : NULL;
  Instr *k = bin(b, OP_MULTIPLY, scale, rs);
  Instr *shift = bin(b, OP_SUBTRACT, offset, bin(b, OP_MULTIPLY, mean, k));
  return bin(b, OP_ADD, bin(b, OP_MULTIPLY, b->x, fb(b, k)), fb(b, shift));
}

static Instr *expand_grad(Bn *b, Instr *in) {
  Instr *scale = in->operands[1], *mean = in->operands[2];
  Instr *var = in->operands[3], *dy = in->operands[4];
  Instr *count = eu_scalar(b->c, b->t, b->n);
  Instr *zero = eu_scalar(b->c, b->t, 0);
  Instr *eps_s = eu_scalar(b->c, b->t, b->eps);
  Instr *eps_x = sb(b, eps_s, b->x), *eps_f = sb(b, eps_s, scale);
  Instr *scale_b = fb(b, scale), *var_b = fb(b, var), *mean_b = fb(b, mean);
  Instr *rs_b = bin(b, OP_ADD, var_b, eps_x);
  rs_b = rs_b ? eu_unary(b->c, OP_RSQRT, rs_b) : NULL;
  Instr *rs = bin(b, OP_ADD, var, eps_f);
  rs = rs ? eu_unary(b->c, OP_RSQRT, rs) : NULL;
  Instr *d = bin(b, OP_SUBTRACT, b->x, mean_b);
  Instr *dyd = bin(b, OP_MULTIPLY, dy, d);
  Instr *sdyd = sum(b, dyd, zero);
  Instr *gbeta = sum(b, dy, zero);
  Instr *gscale = bin(b, OP_MULTIPLY, sdyd, rs);
  Instr *i2 = fb(b, gbeta), *i3 = fb(b, sdyd);
  Instr *i4 = bin(b, OP_MULTIPLY, i3, d);
  Instr *i5 = bin(b, OP_DIVIDE, i4, bin(b, OP_ADD, var_b, eps_x));
  Instr *k = bin(b, OP_MULTIPLY, scale_b, rs_b);
  k = bin(b, OP_DIVIDE, k, sb(b, count, b->x));
  Instr *i1 = bin(b, OP_MULTIPLY, dy, sb(b, count, b->x));
  Instr *i6 = bin(b, OP_SUBTRACT, bin(b, OP_SUBTRACT, i1, i2), i5);
  Instr *gx = bin(b, OP_MULTIPLY, k, i6);
  return tuple3(b->c, gx, gscale, gbeta);
}

cxla_status pass_batchnorm_expander(HloModule *m, const PassContext *ctx, bool *changed) {
  (void)ctx;
  *changed = false;
  for (int ci = 0; ci < m->ncomps; ci++) {
    Computation *c = m->comps[ci];
    if (c->is_fusion) continue;
    bool here = false;
    int n = c->ninstrs;
    for (int i = 0; i < n; i++) {
      Instr *in = c->instrs[i];
      if (in->op != OP_BATCH_NORM_TRAINING && in->op != OP_BATCH_NORM_INFERENCE &&
          in->op != OP_BATCH_NORM_GRAD)
        continue;
      Bn b;
      if (!bn_setup(c, in, &b)) continue;
      Instr *r = in->op == OP_BATCH_NORM_TRAINING    ? expand_training(&b, in)
                 : in->op == OP_BATCH_NORM_INFERENCE ? expand_inference(&b, in)
                                                     : expand_grad(&b, in);
      if (!r) return cxla_oom();
      comp_replace_uses(c, in, r);
      here = true;
    }
    if (!here) continue;
    TRY(comp_sort(c));
    comp_prune(c);
    *changed = true;
  }
  return NULL;
}
