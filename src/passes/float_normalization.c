/* float-normalization: the ops XLA:CPU has no kernel for in a narrow float
 * type run in f32 between converts, as its BFloat16Normalization and
 * ChangeOpDataType(F16 -> F32, dots and convolutions) passes leave them
 * (checked on jax.jit output):
 *
 *   - dots, convolutions, cholesky and triangular-solve with an f16 or
 *     bf16 operand or result: the operands are converted to f32, the op
 *     runs in f32 and its result is converted back (a result that is
 *     already f32 stays; XLA:CPU's expanders solve an f16 triangular
 *     system in f32 likewise);
 *   - bf16 elementwise ops (all but convert and bitcast-convert): the bf16
 *     operands are converted to f32 and a bf16 result is converted back,
 *     so add, exp, tanh, compare, select, ... compute in f32 and round
 *     once. f16 elementwise ops stay f16, as XLA:CPU keeps them;
 *   - contractions on the f8 types likewise run in f32 (XLA goes through
 *     f16, which holds every f8 value exactly), and an iota of an f8 type
 *     counts in f32 and converts once.
 *
 *   - reduce, reduce-window, sort and scatter with a bf16 operand or
 *     result: the bf16 operands (init values included) are converted to
 *     f32, the op runs in f32 and its bf16 results are converted back; it
 *     calls a copy of its reducer/comparator (NAME.clone) whose bf16
 *     parameters are f32 and whose every bf16 op computes in f32 then
 *     rounds to bf16 and back (convert pairs), so each step rounds as the
 *     bf16 op did (XLA:CPU's FloatNormalization output, e.g. jnp.max,
 *     jnp.sort, .at[].add on bf16). Reducers that call further
 *     computations stay as written.
 *
 * Not yet: map and select-and-scatter on bf16, and bf16 data movement
 * (reshape, broadcast, slice, ...), which XLA normalizes too but whose
 * values do not change. Rounding: an f32 op then one rounding to bf16 is what XLA:CPU
 * computes; a dot accumulates in f32 (not in the narrow type), so values
 * may change in the last place: never in exact mode. */
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <stdlib.h>

#include "ir/rewrite.h"
#include "passes/expander_util.h"
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

/* A reducer copy made by the pass and the computation it was made from. */
typedef struct Copy {
  const Computation *src;
  Computation *clone;
  int seq; /* made seq-th */
} Copy;

typedef struct Norm {
  HloModule *m;
  bool exact;
  Copy *copies; /* in the order made */
  int ncopies, cap;
} Norm;

/* ---- ops that call a reducer or comparator ---- */

static bool has_bf16(const Shape *s, int depth) {
  if (depth > 64) return false;
  if (s->type != T_TUPLE) return s->type == T_BF16;
  for (int i = 0; i < s->ntuple; i++)
    if (has_bf16(s->tuple[i], depth + 1)) return true;
  return false;
}

/* Changes the bf16 leaves of s (a shape of our own) to f32. */
static void widen_leaves(Shape *s, int depth) {
  if (depth > 64) return;
  if (s->type == T_BF16) s->type = T_F32;
  if (s->type == T_TUPLE)
    for (int i = 0; i < s->ntuple; i++) widen_leaves(s->tuple[i], depth + 1);
}

/* f32 -> bf16 -> f32: the rounding a bf16 op makes. */
static Instr *round_trip(HloModule *m, Computation *c, Instr *x) {
  Instr *n = convert(m, c, x, T_BF16);
  return n ? convert(m, c, n, T_F32) : NULL;
}

/* Builds into c the f32 form of src's instruction s (its operands mapped
 * in map): sets *out, or leaves it NULL when s is not one this handles. */
static cxla_status widen_instr(HloModule *m, Computation *c, const Instr *s, Instr **map,
                               Instr **out) {
  *out = NULL;
  if (s->ncalled || s->noperands > 16 || s->ncontrol_preds) return NULL;
  Instr *ops[16];
  bool keep_narrow = s->op == OP_CONVERT || s->op == OP_BITCAST_CONVERT;
  for (int k = 0; k < s->noperands; k++) {
    Instr *o = map[s->operands[k]->id];
    /* converts read the bf16 value itself (exact: it is a bf16 value) */
    if (keep_narrow && s->operands[k]->shape->type == T_BF16 && !(o = convert(m, c, o, T_BF16)))
      return cxla_oom();
    ops[k] = o;
  }
  Instr *r = instr_clone(c, s, s->noperands, ops, s->op == OP_PARAMETER ? s->name : NULL);
  if (!r) return cxla_oom();
  bool bf16 = s->shape->type == T_BF16;
  if (keep_narrow || s->op == OP_CONSTANT) {
    *out = bf16 ? convert(m, c, r, T_F32) : r;
  } else if (s->op == OP_PARAMETER || s->op == OP_TUPLE || s->op == OP_GET_TUPLE_ELEMENT) {
    widen_leaves(r->shape, 0);
    *out = r;
  } else if (s->shape->type == T_TUPLE) {
    return NULL; /* a tuple from anything else: not handled */
  } else {
    if (bf16) r->shape->type = T_F32;
    *out = bf16 ? round_trip(m, c, r) : r;
  }
  return *out ? NULL : cxla_oom();
}

/* Whether widen_instr handles every instruction of src. */
static bool widenable(const Computation *src) {
  for (int i = 0; i < src->ninstrs; i++) {
    const Instr *s = src->instrs[i];
    if (s->ncalled || s->id != i || s->noperands > 16 || s->ncontrol_preds) return false;
    if (s->shape->type == T_TUPLE && s->op != OP_PARAMETER && s->op != OP_TUPLE &&
        s->op != OP_GET_TUPLE_ELEMENT)
      return false;
  }
  return src->root != NULL;
}

/* A copy of computation src whose bf16 parameters and results are f32 and
 * whose bf16 ops compute in f32 and round to bf16 (see the top), appended
 * to the module and recorded in w->copies. NULL in *out: src holds
 * something this does not handle. */
static cxla_status widen_computation(Norm *w, const Computation *src, Computation **out) {
  HloModule *m = w->m;
  *out = NULL;
  if (!widenable(src)) return NULL;
  if (w->ncopies == w->cap) {
    int nc = w->cap ? 2 * w->cap : 8;
    Copy *g = cxla_realloc(w->copies, (size_t)nc * sizeof *g);
    if (!g) return cxla_oom();
    w->copies = g;
    w->cap = nc;
  }
  char base[256];
  snprintf(base, sizeof base, "%.240s.clone", src->name);
  const char *name = module_unique_comp_name(m, base);
  Computation *c = name ? module_add_computation(m, name) : NULL;
  Instr **map = cxla_calloc((size_t)src->ninstrs + 1, sizeof(Instr *));
  Instr **params = arena_array(&m->arena, (size_t)src->nparams + 1, sizeof(Instr *));
  if (!c || !map || !params) {
    cxla_free(map);
    return cxla_oom();
  }
  cxla_status st = NULL;
  bool ok = true;
  for (int i = 0; i < src->ninstrs && ok && !st; i++) {
    st = widen_instr(m, c, src->instrs[i], map, &map[i]);
    ok = map[i] != NULL;
  }
  for (int i = 0; i < src->nparams && ok && !st; i++) {
    params[i] = src->params[i] ? map[src->params[i]->id] : NULL;
    ok = params[i] != NULL;
  }
  Instr *root = ok && !st ? map[src->root->id] : NULL;
  cxla_free(map);
  if (st) return st;
  if (!ok) return ERR(INTERNAL, "float-normalization: cannot widen %s", src->name);
  c->root = root;
  c->params = params;
  c->nparams = src->nparams;
  w->copies[w->ncopies] = (Copy){src, c, w->ncopies};
  w->ncopies++;
  *out = c;
  return NULL;
}

static bool calls_reducer(Opcode op) {
  return op == OP_REDUCE || op == OP_REDUCE_WINDOW || op == OP_SORT || op == OP_SCATTER;
}

/* A reduce, reduce-window, sort or scatter on bf16 -> the same op in f32. */
static cxla_status widen_reducer_op(Norm *w, Instr *in, Instr **out) {
  HloModule *m = w->m;
  Computation *c = in->parent;
  bool any = has_bf16(in->shape, 0);
  for (int k = 0; k < in->noperands; k++) any |= has_bf16(in->operands[k]->shape, 0);
  if (!any || in->ncalled != 1 || in->ncontrol_preds) return NULL;
  for (int k = 0; k < in->noperands; k++)
    if (in->operands[k]->shape->type == T_TUPLE) return NULL;
  Computation *wc;
  TRY(widen_computation(w, in->called[0], &wc));
  if (!wc) return NULL;
  Instr **ops = arena_array(&m->arena, (size_t)in->noperands + 1, sizeof(Instr *));
  if (!ops) return cxla_oom();
  for (int k = 0; k < in->noperands; k++) {
    Instr *x = in->operands[k];
    ops[k] = x->shape->type == T_BF16 ? convert(m, c, x, T_F32) : x;
    if (!ops[k]) return cxla_oom();
  }
  Instr *wide = instr_clone(c, in, in->noperands, ops, NULL);
  if (!wide) return cxla_oom();
  wide->called[0] = wc;
  widen_leaves(wide->shape, 0);
  if (in->shape->type != T_TUPLE) {
    *out = in->shape->type == T_BF16 ? convert(m, c, wide, T_BF16) : wide;
    return *out ? NULL : cxla_oom();
  }
  int n = in->shape->ntuple;
  Instr **elems = arena_array(&m->arena, (size_t)n + 1, sizeof(Instr *));
  if (!elems) return cxla_oom();
  for (int i = 0; i < n; i++) {
    Instr *g = eu_gte(c, wide, i);
    elems[i] = g && in->shape->tuple[i]->type == T_BF16 ? convert(m, c, g, T_BF16) : g;
    if (!elems[i]) return cxla_oom();
  }
  Shape *ts = shape_clone(&m->arena, in->shape);
  *out = ts ? comp_add_instr(c, OP_TUPLE, ts, n, elems, NULL) : NULL;
  return *out ? NULL : cxla_oom();
}

/* ---- the rule ---- */

static cxla_status rule(Instr *in, void *arg, Instr **out) {
  Norm *w = arg;
  if (w->exact) return NULL;
  if (calls_reducer(in->op)) return widen_reducer_op(w, in, out);
  if (!type_is_array(in->shape->type) || in->ncalled) return NULL;
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
  /* contractions and the linear-algebra ops: every narrow float widened */
  bool whole = in->op == OP_DOT || in->op == OP_CONVOLUTION || in->op == OP_CHOLESKY ||
               in->op == OP_TRIANGULAR_SOLVE;
  bool ew = (op_info(in->op)->flags & OPF_EW) && in->op != OP_CONVERT &&
            in->op != OP_BITCAST_CONVERT && in->op != OP_MAP;
  if (!whole && !ew) return NULL;
  /* which type is narrow here: f16 or bf16 for those, bf16 only for
   * elementwise ops */
  bool any = whole ? narrow(rt) : rt == T_BF16;
  for (int i = 0; i < in->noperands; i++) {
    ElemType t = in->operands[i]->shape->type;
    any |= whole ? narrow(t) : t == T_BF16;
    if (whole && !(type_is_float(t))) return NULL;
  }
  if (!any || in->noperands > 16) return NULL;
  Instr *ops[16];
  for (int i = 0; i < in->noperands; i++) {
    Instr *x = in->operands[i];
    bool up = whole ? narrow(x->shape->type) : x->shape->type == T_BF16;
    ops[i] = up ? convert(w->m, in->parent, x, T_F32) : x;
    if (!ops[i]) return cxla_oom();
  }
  Instr *wide = instr_clone(in->parent, in, in->noperands, ops, NULL);
  if (!wide) return cxla_oom();
  wide->ncontrol_preds = 0;
  wide->control_preds = NULL;
  bool down = whole ? narrow(rt) : rt == T_BF16;
  if (down) wide->shape->type = T_F32;
  *out = down ? convert(w->m, in->parent, wide, rt) : wide;
  return *out ? NULL : cxla_oom();
}

static int cmp_ptr(const void *a, const void *b) {
  uintptr_t x = (uintptr_t)*(const void *const *)a, y = (uintptr_t)*(const void *const *)b;
  return (x > y) - (x < y);
}

/* Copies by source (stable: in the order made for one source). */
static int cmp_copy(const void *a, const void *b) {
  const Copy *x = a, *y = b;
  int c = cmp_ptr(&x->src, &y->src);
  return c ? c : (x->seq > y->seq) - (x->seq < y->seq);
}

/* Puts every copy right after its source (the source comes before its
 * callers, and so does the copy): the module prints as it parses, and a
 * second run finds it unchanged. The copies are the last m->ncomps - n
 * computations. */
static cxla_status place_copies(Norm *w, int n) {
  HloModule *m = w->m;
  if (w->ncopies == 0 || m->ncomps != n + w->ncopies) return NULL;
  Computation **out = cxla_malloc((size_t)m->ncomps * sizeof *out);
  if (!out) return cxla_oom();
  qsort(w->copies, (size_t)w->ncopies, sizeof *w->copies, cmp_copy);
  int j = 0;
  for (int i = 0; i < n; i++) {
    out[j++] = m->comps[i];
    Copy key = {m->comps[i], NULL, 0};
    int lo = 0, hi = w->ncopies; /* first copy of comps[i] */
    while (lo < hi) {
      int mid = (lo + hi) / 2;
      if (cmp_ptr(&w->copies[mid].src, &key.src) < 0) lo = mid + 1;
      else hi = mid;
    }
    for (int k = lo; k < w->ncopies && w->copies[k].src == key.src; k++)
      out[j++] = w->copies[k].clone;
  }
  if (j == m->ncomps) memcpy(m->comps, out, (size_t)j * sizeof *out);
  cxla_free(out);
  return NULL;
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
  Norm w = {.m = m};
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
  int ncomps = m->ncomps; /* the f32 reducers added as it goes are f32 already */
  for (int i = 0; i < ncomps && !st; i++) {
    const Computation *c = m->comps[i];
    if (!bsearch(&c, skip, n, sizeof *skip, cmp_ptr))
      st = pass_rewrite_comp(m->comps[i], rule, &w, changed);
  }
  if (!st) st = place_copies(&w, ncomps);
  cxla_free(w.copies);
  cxla_free(skip);
  return st;
}
