/* Helpers shared by the fusion passes. See fusion_util.h. */
#include "passes/fusion_util.h"

#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "ir/rewrite.h"

/* ---- opcode classes ---- */

/* Bit width of an element for bitcast-convert (pred takes a byte). */
static int convert_bits(ElemType t) { return t == T_PRED ? 8 : type_bits(t); }

bool fusion_is_elementwise(const Instr *in) {
  /* A bitcast-convert between types of one width maps each element to one
   * element (XLA's IsElementwise); between widths it adds or drops a dim. */
  if (in->op == OP_BITCAST_CONVERT)
    return in->noperands == 1 && type_is_array(in->shape->type) &&
           in->shape->rank == in->operands[0]->shape->rank &&
           convert_bits(in->shape->type) == convert_bits(in->operands[0]->shape->type);
  unsigned f = op_info(in->op)->flags;
  return (f & OPF_EW) && !(f & OPF_CTRL) && in->ncalled == 0;
}

/* Integer division by a constant compiles to multiplies and shifts: cheap.
 * Anything else divided is expensive. */
static bool cheap_integer_division(const Instr *in) {
  if (!type_is_int(in->shape->type) || in->noperands != 2) return false;
  const Instr *d = in->operands[1];
  if (d->op == OP_BROADCAST && d->noperands == 1) d = d->operands[0];
  return d->op == OP_CONSTANT && shape_elems(d->shape) == 1;
}

int fusion_code_weight(const Instr *in) {
  if (in->op == OP_FUSION && in->ncalled == 1 && in->called[0]) {
    const Computation *fc = in->called[0];
    int w = 0;
    for (int i = 0; i < fc->ninstrs; i++) w += fusion_code_weight(fc->instrs[i]);
    return w;
  }
  switch (in->op) {
  case OP_COS: case OP_SIN: case OP_TAN: return 24;
  case OP_EXP: case OP_EXPM1: case OP_LOG: case OP_LOG1P: case OP_LOGISTIC: case OP_TANH:
  case OP_ERF: case OP_ATAN2: case OP_POWER: case OP_CBRT:
    return 12;
  default: return 1;
  }
}

bool fusion_is_expensive(const Instr *in) {
  switch (in->op) {
  /* Cheap: a few machine instructions per element, or pure data movement. */
  case OP_ADD: case OP_AND: case OP_BITCAST: case OP_BITCAST_CONVERT: case OP_BROADCAST:
  case OP_CEIL: case OP_CLAMP: case OP_CLZ: case OP_COMPARE: case OP_COMPLEX:
  case OP_CONCATENATE: case OP_CONSTANT: case OP_COPY: case OP_DYNAMIC_RESHAPE:
  case OP_DYNAMIC_SLICE: case OP_DYNAMIC_UPDATE_SLICE: case OP_FLOOR:
  case OP_GET_TUPLE_ELEMENT: case OP_IMAG: case OP_IOTA: case OP_IS_FINITE: case OP_MAXIMUM:
  case OP_MINIMUM: case OP_MULTIPLY: case OP_MULHI: case OP_NEGATE: case OP_NOT: case OP_OR:
  case OP_PAD: case OP_POPCNT: case OP_REAL: case OP_REDUCE_PRECISION: case OP_RESHAPE:
  case OP_REVERSE: case OP_ROUND_NEAREST_AFZ: case OP_ROUND_NEAREST_EVEN: case OP_SELECT:
  case OP_SHIFT_LEFT: case OP_SHIFT_RIGHT_ARITHMETIC: case OP_SHIFT_RIGHT_LOGICAL:
  case OP_SLICE: case OP_STOCHASTIC_CONVERT: case OP_SUBTRACT: case OP_TRANSPOSE:
  case OP_TUPLE: case OP_XOR:
    return false;
  /* Cheap for real numbers only. */
  case OP_ABS: case OP_SIGN:
    return type_is_complex(in->shape->type);
  /* XLA calls these cheap for real numbers too; cxla's emitter evaluates
   * each with a range reduction and a polynomial (and, for large f32
   * arguments, an exact pass): tens of instructions per element. Copied
   * into every fusion that read them, a chain of sines a reduction reads
   * at each step compiled in O(N^2) (gen_scale `comps`). */
  case OP_COS: case OP_SIN: case OP_TAN:
    return true;
  /* f32 -> bf16 rounds with NaN checks; other conversions are cheap. */
  case OP_CONVERT:
    return in->shape->type == T_BF16 && in->noperands == 1 &&
           in->operands[0]->shape->type == T_F32;
  case OP_DIVIDE: case OP_REMAINDER:
    return !cheap_integer_division(in);
  default:
    /* Transcendentals, pow, sqrt, and everything that is not elementwise
     * arithmetic (dot, convolution, reduce, gather, calls, ...). */
    return true;
  }
}

/* A reduce with one input per init value and a result per input: arrays
 * (single-output) or a tuple of arrays (a variadic reduce, e.g. argmax's
 * value and index). */
static bool fusible_reduce(const Instr *in) {
  int n = in->noperands / 2;
  if (in->ncalled != 1 || n < 1 || in->noperands != 2 * n) return false;
  if (n == 1) return type_is_array(in->shape->type);
  if (in->shape->type != T_TUPLE || in->shape->ntuple != n) return false;
  for (int i = 0; i < n; i++)
    if (!type_is_array(in->shape->tuple[i]->type)) return false;
  return true;
}

bool fusion_is_loop_fusible(const Instr *in) {
  if (in->op == OP_REDUCE) return fusible_reduce(in);
  if (!type_is_array(in->shape->type)) return false;
  if (fusion_is_elementwise(in)) return true;
  switch (in->op) {
  case OP_BITCAST: case OP_BROADCAST: case OP_CONCATENATE: case OP_DYNAMIC_SLICE:
  case OP_DYNAMIC_UPDATE_SLICE: case OP_GATHER: case OP_IOTA: case OP_PAD: case OP_RESHAPE:
  case OP_REVERSE: case OP_SLICE: case OP_TRANSPOSE: case OP_COPY: case OP_CONSTANT:
    return true;
  default:
    return false;
  }
}

/* ---- computations ---- */

/* Per computation, for one pass: callers, and whether every caller is a
 * call/while/conditional. */
typedef struct FusionCompInfo {
  Computation *comp;
  const Computation *place_before; /* new computations: their caller */
  int callers;
  bool only_control_callers;
  bool removed;
} FusionCompInfo;

static FusionCompInfo *info_of(const FusionCtx *x, const Computation *c) {
  intptr_t i = (intptr_t)c->scratch;
  return i > 0 && i <= x->ninfo && x->info[i - 1].comp == c ? &x->info[i - 1] : NULL;
}

static FusionCompInfo *add_info(FusionCtx *x, Computation *c) {
  if (x->ninfo == x->cap) {
    int nc = x->cap ? x->cap * 2 : 64;
    FusionCompInfo *ni = cxla_realloc(x->info, (size_t)nc * sizeof *ni);
    if (!ni) return NULL;
    x->info = ni;
    x->cap = nc;
  }
  FusionCompInfo *f = &x->info[x->ninfo++];
  memset(f, 0, sizeof *f);
  f->comp = c;
  f->only_control_callers = true;
  c->scratch = (void *)(intptr_t)x->ninfo;
  return f;
}

void fusion_ctx_free(FusionCtx *x) {
  for (int i = 0; i < x->ninfo; i++) x->info[i].comp->scratch = NULL;
  cxla_free(x->info);
  namemap_free(&x->comp_names);
  memset(x, 0, sizeof *x);
}

cxla_status fusion_ctx_init(FusionCtx *x, HloModule *m) {
  memset(x, 0, sizeof *x);
  x->m = m;
  x->free_tag = 1;
  for (int i = 0; i < m->ncomps; i++)
    if (!add_info(x, m->comps[i]) || !namemap_set(&x->comp_names, m->comps[i]->name, m->comps[i])) {
      fusion_ctx_free(x);
      return cxla_oom();
    }
  for (int i = 0; i < m->ncomps; i++)
    for (int k = 0; k < m->comps[i]->ninstrs; k++) {
      const Instr *in = m->comps[i]->instrs[k];
      for (int q = 0; q < in->ncalled; q++) {
        FusionCompInfo *f = info_of(x, in->called[q]);
        if (!f) continue;
        f->callers++;
        if (in->op != OP_CALL && in->op != OP_WHILE && in->op != OP_CONDITIONAL)
          f->only_control_callers = false;
      }
    }
  return NULL;
}

bool fusion_ctx_is_context(const FusionCtx *x, const Computation *c) {
  if (c == x->m->entry) return true;
  if (c->is_fusion) return false;
  const FusionCompInfo *f = info_of(x, c);
  return f && f->callers > 0 && f->only_control_callers;
}

int fusion_ctx_callers(const FusionCtx *x, const Computation *c) {
  const FusionCompInfo *f = info_of(x, c);
  return f ? f->callers : 0;
}

bool fusion_ctx_has_computation(const FusionCtx *x, const char *name) {
  return namemap_get(&x->comp_names, name, strlen(name)) != NULL;
}

Computation *fusion_ctx_new_computation(FusionCtx *x, const Computation *caller,
                                        const char *name) {
  HloModule *m = x->m;
  char buf[256];
  const char *want = name;
  for (int i = 1; fusion_ctx_has_computation(x, want); i++) {
    snprintf(buf, sizeof buf, "%.200s.%d", name, i);
    want = buf;
  }
  Computation *fc = module_add_computation(m, want);
  if (!fc) return NULL;
  fc->is_fusion = true;
  fc->contract = x->contract;
  FusionCompInfo *f = add_info(x, fc);
  if (!f || !namemap_set(&x->comp_names, fc->name, fc)) return NULL;
  f->callers = 1;
  f->only_control_callers = false;
  f->place_before = caller;
  x->reorder = true;
  return fc;
}

cxla_status fusion_ctx_rename_computation(FusionCtx *x, Computation *fc, const char *name) {
  char buf[256];
  const char *want = name;
  for (int i = 1; fusion_ctx_has_computation(x, want); i++) {
    snprintf(buf, sizeof buf, "%.200s.%d", name, i);
    want = buf;
  }
  const char *copy = arena_strdup(&x->m->arena, want);
  if (!copy || !namemap_set(&x->comp_names, copy, fc) || !module_note_comp_name(x->m, copy)) return cxla_oom();
  namemap_set(&x->comp_names, fc->name, NULL); /* an existing key: cannot fail */
  fusion_ctx_note_free_name(x, fc->name);
  fc->name = copy;
  return NULL;
}

/* The N of "<prefix>N", or 0. */
static int name_tag(const char *name, const char *prefix) {
  size_t n = strlen(prefix);
  if (strncmp(name, prefix, n) != 0 || !name[n]) return 0;
  long v = 0;
  for (const char *p = name + n; *p; p++) {
    if (*p < '0' || *p > '9' || v > 100000000) return 0;
    v = v * 10 + (*p - '0');
  }
  return (int)v;
}

void fusion_ctx_note_free_name(FusionCtx *x, const char *name) {
  int t = name_tag(name, "fused_computation.");
  if (!t) t = name_tag(name, "fusion.");
  if (t > 0 && t < x->free_tag) x->free_tag = t;
}

void fusion_ctx_remove_computation(FusionCtx *x, Computation *fc) {
  FusionCompInfo *f = info_of(x, fc);
  if (f) f->removed = true;
  namemap_set(&x->comp_names, fc->name, NULL); /* an existing key: cannot fail */
  fusion_ctx_note_free_name(x, fc->name);
  x->reorder = true;
}

cxla_status fusion_ctx_finish(FusionCtx *x) {
  HloModule *m = x->m;
  if (x->reorder) {
    /* New computations go just before their caller, in creation order:
     * chain them per caller, then lay the list out again. */
    int n = m->ncomps, ni = x->ninfo;
    Computation **out = cxla_malloc((size_t)n * sizeof(Computation *) + 1);
    int *first = cxla_malloc(((size_t)ni + 1) * sizeof(int));
    int *next = cxla_malloc(((size_t)ni + 1) * sizeof(int));
    int *last = cxla_malloc(((size_t)ni + 1) * sizeof(int));
    bool ok = out && first && next && last;
    if (ok) {
      for (int i = 0; i < ni; i++) first[i] = last[i] = next[i] = -1;
      for (int i = 0; i < ni; i++) {
        const FusionCompInfo *f = &x->info[i];
        const FusionCompInfo *cf = f->place_before ? info_of(x, f->place_before) : NULL;
        if (!cf || f->removed) continue;
        int at = (int)(cf - x->info);
        if (last[at] < 0) first[at] = i;
        else next[last[at]] = i;
        last[at] = i;
      }
      int j = 0;
      for (int i = 0; i < n; i++) {
        Computation *c = m->comps[i];
        const FusionCompInfo *f = info_of(x, c);
        if (f && (f->removed || (f->place_before && info_of(x, f->place_before)))) continue;
        if (f)
          for (int k = first[f - x->info]; k >= 0; k = next[k]) out[j++] = x->info[k].comp;
        out[j++] = c;
      }
      memcpy(m->comps, out, (size_t)j * sizeof(Computation *));
      m->ncomps = j;
    }
    cxla_free(out);
    cxla_free(first);
    cxla_free(next);
    cxla_free(last);
    if (!ok) {
      fusion_ctx_free(x);
      return cxla_oom();
    }
  }
  fusion_ctx_free(x);
  return NULL;
}

cxla_status fusion_context_flags(const HloModule *m, bool *flags) {
  FusionCtx x;
  TRY(fusion_ctx_init(&x, (HloModule *)m));
  for (int i = 0; i < m->ncomps; i++) flags[i] = fusion_ctx_is_context(&x, m->comps[i]);
  fusion_ctx_free(&x);
  return NULL;
}

Instr *fusion_add_param(Computation *fc, const Shape *s) {
  Arena *a = &fc->module->arena;
  Shape *sh = shape_clone(a, s);
  if (!sh) return NULL;
  /* A placeholder no parsed name can equal ('#' is not an HLO name
   * character), so it needs no search for a free name; fusion_finish
   * names every parameter. */
  char buf[64];
  snprintf(buf, sizeof buf, "param_tmp#%d", fc->nparams);
  const char *name = arena_strdup(a, buf);
  if (!name) return NULL;
  Instr **params = arena_array(a, (size_t)fc->nparams + 1, sizeof(Instr *));
  if (!params) return NULL;
  Instr *p = comp_add_instr(fc, OP_PARAMETER, sh, 0, NULL, name);
  if (!p) return NULL;
  if (fc->nparams) memcpy(params, fc->params, (size_t)fc->nparams * sizeof(Instr *));
  p->param_number = fc->nparams;
  params[fc->nparams++] = p;
  fc->params = params;
  return p;
}

void fusion_drop_instr(Computation *c, Instr *in) {
  int j = 0;
  for (int i = 0; i < c->ninstrs; i++)
    if (c->instrs[i] != in) c->instrs[j++] = c->instrs[i];
  c->ninstrs = j;
  comp_renumber(c);
}

void fusion_remove_param(Instr *f, Computation *fc, int i) {
  fusion_drop_instr(fc, fc->params[i]);
  fusion_unlist_param(f, fc, i);
}

void fusion_unlist_param(Instr *f, Computation *fc, int i) {
  for (int k = i; k + 1 < fc->nparams; k++) {
    fc->params[k] = fc->params[k + 1];
    fc->params[k]->param_number = k;
  }
  fc->nparams--;
  for (int k = i; k + 1 < f->noperands; k++) f->operands[k] = f->operands[k + 1];
  f->noperands--;
}

Instr *fusion_insert_operand(Instr *f, Instr *x, int pos) {
  Computation *fc = f->called[0];
  Arena *a = &fc->module->arena;
  int n = f->noperands;
  if (pos < 0 || pos > n) pos = n;
  Instr **ops = arena_array(a, (size_t)n + 1, sizeof(Instr *));
  if (!ops) return NULL;
  Instr *p = fusion_add_param(fc, x->shape); /* numbered n for now */
  if (!p) return NULL;
  for (int k = 0, q = 0; k <= n; k++) ops[k] = k == pos ? x : f->operands[q++];
  f->operands = ops;
  f->noperands = n + 1;
  /* Move the new parameter from number n to number pos. */
  for (int k = n; k > pos; k--) {
    fc->params[k] = fc->params[k - 1];
    fc->params[k]->param_number = k;
  }
  fc->params[pos] = p;
  p->param_number = pos;
  return p;
}

int fusion_operand_index(const Instr *f, const Instr *x) {
  for (int i = 0; i < f->noperands; i++)
    if (f->operands[i] == x) return i;
  return -1;
}

int fusion_replace_near(Instr *in, const Instr *from, Instr *to, int want, int *near) {
  int n = in->noperands, h = *near < 0 ? 0 : *near >= n ? n - 1 : *near, found = 0;
  for (int d = 0; found < want && (h + d < n || h - 1 - d >= 0); d++) {
    if (h + d < n && in->operands[h + d] == from) {
      in->operands[h + d] = to;
      *near = h + d;
      found++;
    }
    if (found < want && h - 1 - d >= 0 && in->operands[h - 1 - d] == from) {
      in->operands[h - 1 - d] = to;
      *near = h - 1 - d;
      found++;
    }
  }
  return found;
}

int fusion_fresh_tag(const FusionCtx *x, const NameMap *names, int from) {
  char a[64], b[64];
  for (int n = from > 0 ? from : 1;; n++) {
    snprintf(a, sizeof a, "fusion.%d", n);
    snprintf(b, sizeof b, "fused_computation.%d", n);
    if (!namemap_get(names, a, strlen(a)) && !fusion_ctx_has_computation(x, b)) return n;
  }
}

const char *fusion_unique_name_in(Computation *c, const NameMap *names, const char *base) {
  Arena *a = &c->module->arena;
  if (!namemap_get(names, base, strlen(base))) return arena_strdup(a, base);
  char buf[256];
  for (int i = 1;; i++) {
    snprintf(buf, sizeof buf, "%.200s.%d", base, i);
    if (!namemap_get(names, buf, strlen(buf))) return arena_strdup(a, buf);
  }
}

cxla_status fusion_control_flags(const Computation *c, unsigned char **out) {
  unsigned char *f = cxla_calloc((size_t)c->ninstrs + 1, 1);
  if (!f) return cxla_oom();
  for (int i = 0; i < c->ninstrs; i++) {
    const Instr *in = c->instrs[i];
    if (in->ncontrol_preds) f[i] = 1;
    for (int k = 0; k < in->ncontrol_preds; k++) {
      const Instr *p = in->control_preds[k];
      if (p->parent == c && p->id >= 0 && p->id < c->ninstrs && c->instrs[p->id] == p) f[p->id] = 1;
    }
  }
  *out = f;
  return NULL;
}

FusionKind fusion_kind_of(const Computation *fc) {
  bool reduce = false;
  for (int i = 0; i < fc->ninstrs; i++) {
    if (fusion_is_output_head(fc->instrs[i])) return FUSION_OUTPUT;
    reduce |= fc->instrs[i]->op == OP_REDUCE;
  }
  return reduce ? FUSION_INPUT : FUSION_LOOP;
}

cxla_status fusion_finish(Computation *fc, const char *tag) {
  /* First move every parameter out of the way, so that renaming one to
   * param_<i>.<tag> cannot collide with another parameter's old name. */
  for (int i = 0; i < fc->nparams; i++) fc->params[i]->name = "";
  /* The names in use, indexed once (a scan per parameter would make this
   * quadratic in the fusion's size). */
  NameMap names;
  TRY(comp_index_names(fc, &names));
  for (int i = 0; i < fc->nparams; i++) {
    char buf[160];
    snprintf(buf, sizeof buf, "param_%d.%.100s", i, tag);
    const char *name = fusion_unique_name_in(fc, &names, buf);
    if (!name || !namemap_set(&names, name, fc->params[i])) {
      namemap_free(&names);
      return cxla_oom();
    }
    fc->params[i]->name = name;
    module_note_name(fc->module, name);
  }
  namemap_free(&names);
  /* Parameters first, by number (as XLA prints them), then the rest in
   * their order; comp_sort keeps an order that is already valid. */
  Instr **order = cxla_malloc((size_t)fc->ninstrs * sizeof(Instr *) + 1);
  if (!order) return cxla_oom();
  int j = 0;
  for (int i = 0; i < fc->nparams; i++) order[j++] = fc->params[i];
  for (int i = 0; i < fc->ninstrs; i++)
    if (fc->instrs[i]->op != OP_PARAMETER) order[j++] = fc->instrs[i];
  memcpy(fc->instrs, order, (size_t)j * sizeof(Instr *));
  cxla_free(order);
  return comp_sort(fc);
}
