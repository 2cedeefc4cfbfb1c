/* float-normalization: the ops XLA:CPU has no kernel for in a narrow float
 * type run in f32 between converts, as its BFloat16Normalization and
 * ChangeOpDataType(F16 -> F32, dots and convolutions) passes leave them
 * (checked on jax.jit output):
 *
 *   - dots and convolutions with an f16 or bf16 operand or result: the
 *     operands are converted to f32, the op runs in f32 and its result is
 *     converted back (a result that is already f32 stays);
 *   - bf16 elementwise ops (all but convert and bitcast-convert): the bf16
 *     operands are converted to f32 and a bf16 result is converted back,
 *     so add, exp, tanh, compare, select, ... compute in f32 and round
 *     once. f16 elementwise ops stay f16, as XLA:CPU keeps them;
 *   - contractions on the f8 types likewise run in f32 (XLA goes through
 *     f16, which holds every f8 value exactly), and an iota of an f8 type
 *     counts in f32 and converts once.
 *
 * Not yet: reduce, reduce-window, sort, scatter and map on bf16 (XLA also
 * rewrites their reducer computations), and bf16 data movement (reshape,
 * broadcast, slice, ...), which XLA normalizes too but whose values do not
 * change. Rounding: an f32 op then one rounding to bf16 is what XLA:CPU
 * computes; a dot accumulates in f32 (not in the narrow type), so values
 * may change in the last place: never in exact mode. */
#include <stdint.h>
#include <stdlib.h>

#include "ir/rewrite.h"
#include "passes/passes.h"

/* For contractions: every float narrower than f32 (f16, bf16, the f8 and
 * f4 types: each is exact in f32). */
static bool narrow(ElemType t) { return type_is_float(t) && t != T_F32 && t != T_F64; }

/* Float types the CPU emitter computes inline. */
static bool native(ElemType t) { return t == T_F16 || t == T_BF16 || t == T_F32 || t == T_F64; }

static Instr *convert(HloModule *m, Computation *c, Instr *x, ElemType t) {
  Shape *s = shape_clone(&m->arena, x->shape);
  if (!s) return NULL;
  s->type = t;
  return comp_add_instr(c, OP_CONVERT, s, 1, &x, NULL);
}

typedef struct Norm {
  HloModule *m;
  bool exact;
} Norm;

static cxla_status rule(Instr *in, void *arg, Instr **out) {
  Norm *w = arg;
  if (w->exact || !type_is_array(in->shape->type) || in->ncalled) return NULL;
  ElemType rt = in->shape->type;
  if (in->op == OP_IOTA && type_is_float(rt) && !native(rt)) {
    /* an f8/f4 iota: counted exactly in f32 (f64 past 2^24), rounded once */
    Instr *wide = instr_clone(in->parent, in, 0, NULL, NULL);
    if (!wide) return cxla_oom();
    wide->ncontrol_preds = 0;
    wide->control_preds = NULL;
    wide->shape->type = in->shape->dims[in->index] > (1 << 24) ? T_F64 : T_F32;
    *out = convert(w->m, in->parent, wide, rt);
    return *out ? NULL : cxla_oom();
  }
  bool contraction = in->op == OP_DOT || in->op == OP_CONVOLUTION;
  bool ew = (op_info(in->op)->flags & OPF_EW) && in->op != OP_CONVERT &&
            in->op != OP_BITCAST_CONVERT && in->op != OP_MAP;
  if (!contraction && !ew) return NULL;
  /* which type is narrow here: f16 or bf16 for contractions, bf16 only for
   * elementwise ops */
  bool any = contraction ? narrow(rt) : rt == T_BF16;
  for (int i = 0; i < in->noperands; i++) {
    ElemType t = in->operands[i]->shape->type;
    any |= contraction ? narrow(t) : t == T_BF16;
    if (contraction && !(type_is_float(t))) return NULL;
  }
  if (!any || in->noperands > 16) return NULL;
  Instr *ops[16];
  for (int i = 0; i < in->noperands; i++) {
    Instr *x = in->operands[i];
    bool up = contraction ? narrow(x->shape->type) : x->shape->type == T_BF16;
    ops[i] = up ? convert(w->m, in->parent, x, T_F32) : x;
    if (!ops[i]) return cxla_oom();
  }
  Instr *wide = instr_clone(in->parent, in, in->noperands, ops, NULL);
  if (!wide) return cxla_oom();
  wide->ncontrol_preds = 0;
  wide->control_preds = NULL;
  bool down = contraction ? narrow(rt) : rt == T_BF16;
  if (down) wide->shape->type = T_F32;
  *out = down ? convert(w->m, in->parent, wide, rt) : wide;
  return *out ? NULL : cxla_oom();
}

static int cmp_ptr(const void *a, const void *b) {
  uintptr_t x = (uintptr_t)*(const void *const *)a, y = (uintptr_t)*(const void *const *)b;
  return (x > y) - (x < y);
}

/* Whether instruction in calls its computations as scalar reducers or
 * comparators (left to the instruction's own normalization, not done). */
static bool calls_scalar_fn(const Instr *in) {
  switch (in->op) {
  case OP_REDUCE: case OP_REDUCE_WINDOW: case OP_SCATTER: case OP_SORT: case OP_MAP:
  case OP_SELECT_AND_SCATTER: case OP_ALL_REDUCE: case OP_REDUCE_SCATTER:
    return true;
  default:
    return false;
  }
}

cxla_status pass_float_normalization(HloModule *m, const PassContext *ctx, bool *changed) {
  *changed = false;
  if (ctx && ctx->exact) return NULL;
  pass_reserve_names(m);
  Norm w = {m, false};
  /* computations called as reducers/comparators stay as written: collect
   * them (sorted, for lookups) */
  size_t n = 0, cap = 16;
  const Computation **skip = cxla_malloc(cap * sizeof *skip);
  if (!skip) return cxla_oom();
  for (int i = 0; i < m->ncomps; i++)
    for (int k = 0; k < m->comps[i]->ninstrs; k++) {
      const Instr *in = m->comps[i]->instrs[k];
      if (!calls_scalar_fn(in)) continue;
      for (int j = 0; j < in->ncalled; j++) {
        if (n == cap) {
          const Computation **g = cxla_realloc(skip, 2 * cap * sizeof *skip);
          if (!g) {
            cxla_free(skip);
            return cxla_oom();
          }
          skip = g;
          cap *= 2;
        }
        skip[n++] = in->called[j];
      }
    }
  qsort(skip, n, sizeof *skip, cmp_ptr);
  cxla_status st = NULL;
  for (int i = 0; i < m->ncomps && !st; i++) {
    const Computation *c = m->comps[i];
    if (!bsearch(&c, skip, n, sizeof *skip, cmp_ptr))
      st = pass_rewrite_comp(m->comps[i], rule, &w, changed);
  }
  cxla_free(skip);
  return st;
}
