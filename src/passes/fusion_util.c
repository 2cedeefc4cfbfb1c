/* Helpers shared by the fusion passes. See fusion_util.h. */
#include "passes/fusion_util.h"

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
  case OP_ABS: case OP_SIGN: case OP_COS: case OP_SIN: case OP_TAN:
    return type_is_complex(in->shape->type);
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

bool fusion_is_loop_fusible(const Instr *in) {
  if (!type_is_array(in->shape->type)) return false;
  if (fusion_is_elementwise(in)) return true;
  switch (in->op) {
  case OP_BITCAST: case OP_BROADCAST: case OP_CONCATENATE: case OP_DYNAMIC_SLICE:
  case OP_DYNAMIC_UPDATE_SLICE: case OP_GATHER: case OP_IOTA: case OP_PAD: case OP_RESHAPE:
  case OP_REVERSE: case OP_SLICE: case OP_TRANSPOSE: case OP_COPY: case OP_CONSTANT:
    return true;
  case OP_REDUCE:
    /* Single-output reduce: one input, one init value, an array result. */
    return in->noperands == 2 && in->ncalled == 1;
  default:
    return false;
  }
}

bool fusion_in_control_dep(const Computation *c, const Instr *in) {
  if (in->ncontrol_preds) return true;
  for (int i = 0; i < c->ninstrs; i++)
    for (int k = 0; k < c->instrs[i]->ncontrol_preds; k++)
      if (c->instrs[i]->control_preds[k] == in) return true;
  return false;
}

/* ---- computations ---- */

int fusion_caller_count(const HloModule *m, const Computation *c) {
  int n = 0;
  for (int i = 0; i < m->ncomps; i++)
    for (int k = 0; k < m->comps[i]->ninstrs; k++) {
      const Instr *in = m->comps[i]->instrs[k];
      for (int q = 0; q < in->ncalled; q++) n += in->called[q] == c;
    }
  return n;
}

bool fusion_is_context(const HloModule *m, const Computation *c) {
  if (c == m->entry) return true;
  if (c->is_fusion) return false;
  int callers = 0;
  for (int i = 0; i < m->ncomps; i++)
    for (int k = 0; k < m->comps[i]->ninstrs; k++) {
      const Instr *in = m->comps[i]->instrs[k];
      for (int q = 0; q < in->ncalled; q++) {
        if (in->called[q] != c) continue;
        if (in->op != OP_CALL && in->op != OP_WHILE && in->op != OP_CONDITIONAL) return false;
        callers++;
      }
    }
  return callers > 0;
}

Computation *fusion_new_computation(HloModule *m, const Computation *caller, const char *name) {
  const char *uniq = module_unique_comp_name(m, name);
  if (!uniq) return NULL;
  Computation *fc = module_add_computation(m, uniq);
  if (!fc) return NULL;
  fc->is_fusion = true;
  /* module_add_computation appended fc; move it just before its caller. */
  int at = -1;
  for (int i = 0; i < m->ncomps; i++)
    if (m->comps[i] == caller) at = i;
  if (at >= 0) {
    memmove(&m->comps[at + 1], &m->comps[at], (size_t)(m->ncomps - 1 - at) * sizeof(Computation *));
    m->comps[at] = fc;
  }
  return fc;
}

Instr *fusion_add_param(Computation *fc, const Shape *s) {
  Arena *a = &fc->module->arena;
  Shape *sh = shape_clone(a, s);
  if (!sh) return NULL;
  char buf[64];
  snprintf(buf, sizeof buf, "param_tmp.%d", fc->nparams);
  const char *name = fusion_unique_name(fc, buf);
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

int fusion_fresh_tag(const HloModule *m, const Computation *c, int from) {
  char a[64], b[64];
  for (int n = from > 0 ? from : 1;; n++) {
    snprintf(a, sizeof a, "fusion.%d", n);
    snprintf(b, sizeof b, "fused_computation.%d", n);
    if (!comp_find_instr(c, a) && !module_find_computation(m, b)) return n;
  }
}

const char *fusion_unique_name(Computation *c, const char *base) {
  Arena *a = &c->module->arena;
  if (!comp_find_instr(c, base)) return arena_strdup(a, base);
  char buf[256];
  for (int i = 1;; i++) {
    snprintf(buf, sizeof buf, "%.200s.%d", base, i);
    if (!comp_find_instr(c, buf)) return arena_strdup(a, buf);
  }
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
  for (int i = 0; i < fc->nparams; i++) {
    char buf[160];
    snprintf(buf, sizeof buf, "param_%d.%.100s", i, tag);
    const char *name = fusion_unique_name(fc, buf);
    if (!name) return cxla_oom();
    fc->params[i]->name = name;
  }
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
