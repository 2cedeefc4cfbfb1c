/* The algebraic simplifier: the pass, and helpers shared by its rule files.
 * See algsimp.h for the rule families and the exactness contract. */
#include <math.h>
#include <string.h>

#include "ir/rewrite.h"
#include "passes/algsimp.h"

/* ---- reading constants ---- */

static bool all_elements_equal(const Literal *l) {
  size_t w = (size_t)type_bytes(l->type);
  const unsigned char *p = l->data;
  for (int64_t i = 1; i < l->nelems; i++)
    if (memcmp(p, p + (size_t)i * w, w) != 0) return false;
  return true;
}

const Literal *as_uniform(const Instr *in) {
  if (in->op == OP_BROADCAST && in->noperands == 1) in = in->operands[0];
  if (in->op != OP_CONSTANT) return NULL;
  const Literal *l = in->literal;
  if (!l || l->unknown || l->type == T_TUPLE || !type_is_array(l->type) || l->nelems < 1 ||
      !l->data)
    return NULL;
  return all_elements_equal(l) ? l : NULL;
}

bool is_int_value(const Instr *in, int64_t v) {
  const Literal *l = as_uniform(in);
  if (!l || !(type_is_int(l->type) || l->type == T_PRED)) return false;
  return literal_get_i64(l, 0) == v;
}

bool is_float_value(const Instr *in, double v, bool negzero) {
  const Literal *l = as_uniform(in);
  if (!l || !type_is_float(l->type)) return false;
  double x = literal_get_f64(l, 0);
  if (x != v) return false;
  return x != 0 || (signbit(x) != 0) == negzero;
}

bool is_one(const Instr *in) {
  ElemType t = in->shape->type;
  if (type_is_int(t)) return is_int_value(in, 1);
  if (type_is_float(t)) return is_float_value(in, 1.0, false);
  return false;
}

bool uniform_bool(const Instr *in, bool *v) {
  const Literal *l = as_uniform(in);
  if (!l || !(type_is_int(l->type) || l->type == T_PRED)) return false;
  *v = literal_get_i64(l, 0) != 0;
  return true;
}

/* The integer with every bit of t set (as literal_get_i64 reads it). */
int64_t simp_all_ones(ElemType t) {
  if (t == T_PRED) return 1;
  if (type_kind(t) == TK_SINT) return -1;
  int bits = type_bits(t);
  return bits >= 64 ? -1 : (int64_t)((1ull << bits) - 1);
}

int64_t simp_int_min(ElemType t) {
  if (type_kind(t) == TK_UINT || t == T_PRED) return 0;
  int bits = type_bits(t);
  return bits >= 64 ? INT64_MIN : -((int64_t)1 << (bits - 1));
}

int64_t simp_int_max(ElemType t) {
  if (t == T_PRED) return 1;
  if (type_kind(t) == TK_UINT) return simp_all_ones(t);
  int bits = type_bits(t);
  return bits >= 64 ? INT64_MAX : ((int64_t)1 << (bits - 1)) - 1;
}

/* ---- building instructions ---- */

Instr *simp_new(Simp *s, Opcode op, const Shape *shape, int nops, Instr *const *ops) {
  Shape *sh = shape_clone(&s->m->arena, shape);
  if (!sh) return NULL;
  return comp_add_instr(s->c, op, sh, nops, ops, NULL);
}

Instr *simp_scalar(Simp *s, ElemType t, double f, int64_t i) {
  Literal *l;
  cxla_status st = literal_create(t, 0, NULL, &l);
  if (st) {
    cxla_status_free(st);
    return NULL;
  }
  if (type_is_float(t) || type_is_complex(t)) literal_set_f64(l, 0, f);
  else literal_set_i64(l, 0, i);
  if (module_own_literal(s->m, l)) return NULL;
  Shape *sh = shape_new(&s->m->arena, t, 0, NULL);
  if (!sh || shape_set_default_layout(&s->m->arena, sh)) return NULL;
  Instr *c = comp_add_instr(s->c, OP_CONSTANT, sh, 0, NULL, NULL);
  if (c) c->literal = l;
  return c;
}

Instr *simp_filled(Simp *s, const Shape *like, double f, int64_t i) {
  Instr *c = simp_scalar(s, like->type, f, i);
  if (!c || like->rank == 0) return c;
  Instr *b = simp_new(s, OP_BROADCAST, like, 1, &c);
  if (b) b->attrs |= A_DIMENSIONS; /* dimensions={} */
  return b;
}

Shape *simp_shape(Simp *s, const Shape *like, int rank, const int64_t *dims) {
  Shape *sh = shape_new(&s->m->arena, like->type, rank, dims);
  if (sh && like->has_layout && shape_set_default_layout(&s->m->arena, sh)) return NULL;
  return sh;
}

I64List simp_list(Simp *s, const int64_t *v, int n, bool *ok) {
  I64List l = {n, NULL};
  if (n > 0) {
    l.v = arena_i64dup(&s->m->arena, v, (size_t)n);
    if (!l.v) *ok = false;
  }
  return l;
}

bool simp_default_layout(const Shape *shape) {
  if (!shape->has_layout) return true;
  for (int i = 0; i < shape->rank; i++)
    if (shape->minor_to_major[i] != shape->rank - 1 - i) return false;
  return true;
}

Opcode simp_reducer_op(const Computation *c) {
  if (!c || c->nparams != 2 || !c->root || c->ninstrs != 3) return OP_COUNT;
  const Instr *r = c->root, *p0 = c->params[0], *p1 = c->params[1];
  if (r->noperands != 2 || !(op_info(r->op)->flags & OPF_EW) || r->ncalled) return OP_COUNT;
  if (p0->shape->rank != 0 || p1->shape->rank != 0 || r->shape->rank != 0) return OP_COUNT;
  if (r->operands[0] == p0 && r->operands[1] == p1) return r->op;
  if (r->operands[0] == p1 && r->operands[1] == p0 && (op_info(r->op)->flags & OPF_COMM))
    return r->op;
  return OP_COUNT;
}

/* ---- the pass ---- */

static cxla_status simplify(Instr *in, void *arg, Instr **out) {
  Simp *s = arg;
  if (pass_has_side_effect(in)) return NULL;
  TRY(algsimp_arith(s, in, out));
  if (!*out) TRY(algsimp_shapes(s, in, out));
  if (!*out) TRY(algsimp_dot(s, in, out));
  if (!*out) TRY(algsimp_gather(s, in, out));
  if (!*out) TRY(algsimp_conv(s, in, out));
  if (!*out) TRY(algsimp_reduce(s, in, out));
  return NULL;
}

bool simp_single_use(const Simp *s, const Instr *in) {
  return s->uses && in->id >= 0 && in->id < s->nuses && s->c->instrs[in->id] == in && s->uses[in->id] == 1;
}

cxla_status pass_algsimp(HloModule *m, const PassContext *ctx, bool *changed) {
  *changed = false;
  for (int i = 0; i < m->ncomps; i++) {
    Computation *c = m->comps[i];
    int *uses = cxla_calloc((size_t)c->ninstrs + 1, sizeof *uses);
    if (!uses) return cxla_oom();
    for (int k = 0; k < c->ninstrs; k++)
      for (int o = 0; o < c->instrs[k]->noperands; o++) {
        const Instr *op = c->instrs[k]->operands[o];
        if (op->id >= 0 && op->id < c->ninstrs) uses[op->id]++;
      }
    if (c->root && c->root->id >= 0 && c->root->id < c->ninstrs) uses[c->root->id]++;
    Simp s = {m, c, ctx && ctx->exact, uses, c->ninstrs};
    cxla_status st = pass_rewrite_comp(c, simplify, &s, changed);
    cxla_free(uses);
    TRY(st);
  }
  return NULL;
}
