/* StableHLO -> HLO: the module, functions, regions and their implicit
 * captures, values, and the builders the op handlers share.
 *
 * Functions become computations (the public "main" the entry); func.call a
 * call. Regions of reduce/sort/scatter/... become computations whose
 * parameters are the block arguments. while/case/if regions may use values
 * of the enclosing function ("implicit captures"): as XLA's converter does,
 * a while loop carries them as extra tuple elements, and each branch of a
 * conditional receives its captures as one tuple parameter. Ops with
 * several results become one tuple-shaped instruction and a
 * get-tuple-element per result. */
#include <stdarg.h>
#include <stdio.h>
#include <ctype.h>
#include <string.h>

#include "ir/rewrite.h"
#include "stablehlo/import_internal.h"

/* ---- pointer map ------------------------------------------------------------ */

static size_t pm_slot(const PtrMap *m, const void *k) {
  size_t h = (size_t)(((uintptr_t)k >> 4) * 0x9E3779B97F4A7C15ull);
  size_t i = h & (m->cap - 1);
  while (m->keys[i] && m->keys[i] != k) i = (i + 1) & (m->cap - 1);
  return i;
}

void *pm_get(const PtrMap *m, const void *k) {
  if (!m->cap) return NULL;
  size_t i = pm_slot(m, k);
  return m->keys[i] ? m->vals[i] : NULL;
}

bool pm_put(PtrMap *m, const void *k, void *v) {
  if ((m->used + 1) * 2 > m->cap) {
    size_t oc = m->cap, nc = oc ? oc * 2 : 64;
    const void **nk = cxla_calloc(nc, sizeof *nk);
    void **nv = cxla_calloc(nc, sizeof *nv);
    if (!nk || !nv) {
      cxla_free((void *)nk);
      cxla_free(nv);
      return false;
    }
    const void **ok = m->keys;
    void **ov = m->vals;
    m->keys = nk;
    m->vals = nv;
    m->cap = nc;
    for (size_t i = 0; i < oc; i++)
      if (ok[i]) {
        size_t j = pm_slot(m, ok[i]);
        nk[j] = ok[i];
        nv[j] = ov[i];
      }
    cxla_free((void *)ok);
    cxla_free(ov);
  }
  size_t i = pm_slot(m, k);
  if (!m->keys[i]) {
    m->keys[i] = k;
    m->used++;
  }
  m->vals[i] = v;
  return true;
}

void pm_free(PtrMap *m) {
  cxla_free((void *)m->keys);
  cxla_free(m->vals);
  memset(m, 0, sizeof *m);
}

/* ---- errors, attributes ---------------------------------------------------------- */

cxla_status imp_err(Imp *im, const MlirOp *op, cxla_status_code code, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  char *msg = cxla_vformat(fmt, ap);
  va_end(ap);
  if (!msg) return cxla_oom();
  MlirPos pos = {0, 0, 0, NULL};
  if (op) pos = op->pos;
  cxla_status s = op ? mlir_error_at(code, im->mm, pos, "'%s': %s", op->name, msg)
                     : cxla_status_make(code, "%s", msg);
  cxla_free(msg);
  return s;
}

const MlirAttr *attr_of(const MlirOp *op, const char *name, MlirAttrKind k) {
  const MlirAttr *a = mlir_op_attr(op, name);
  return a && a->kind == k ? a : NULL;
}

cxla_status attr_i64s(Imp *im, const MlirOp *op, const char *name, bool required, I64List *out) {
  out->n = 0;
  out->v = NULL;
  const MlirAttr *a = mlir_op_attr(op, name);
  if (!a) {
    if (required) return imp_err(im, op, CXLA_INVALID_ARGUMENT, "missing attribute '%s'", name);
    return NULL;
  }
  Arena *ar = &im->hm->arena;
  if (a->kind == MA_DENSE_ARRAY && !a->floats) {
    out->n = a->n;
    out->v = arena_i64dup(ar, a->ints, (size_t)a->n);
  } else if (a->kind == MA_ARRAY) {
    out->n = a->n;
    out->v = arena_array(ar, (size_t)(a->n ? a->n : 1), sizeof(int64_t));
    if (!out->v) return cxla_oom();
    for (int k = 0; k < a->n; k++) {
      if (a->elems[k]->kind != MA_INT)
        return imp_err(im, op, CXLA_INVALID_ARGUMENT, "'%s' must hold integers", name);
      out->v[k] = a->elems[k]->i;
    }
  } else if (a->kind == MA_DENSE && a->type->element->kind != MLT_OTHER &&
             (a->type->element->kind == MLT_INDEX || type_is_int(a->type->element->elem))) {
    int64_t n = mlir_type_elems(a->type);
    int eb = mlir_elem_bytes(a->type->element);
    if (n < 0 || n > (1 << 20)) return imp_err(im, op, CXLA_INVALID_ARGUMENT, "bad '%s'", name);
    out->n = (int)n;
    out->v = arena_array(ar, (size_t)(n ? n : 1), sizeof(int64_t));
    if (!out->v) return cxla_oom();
    for (int64_t k = 0; k < n; k++) {
      const uint8_t *p = a->data + (a->splat ? 0 : (size_t)k * (size_t)eb);
      int64_t v = 0;
      if (eb == 8) memcpy(&v, p, 8);
      else if (eb == 4) {
        int32_t x;
        memcpy(&x, p, 4);
        v = x;
      } else if (eb == 2) {
        int16_t x;
        memcpy(&x, p, 2);
        v = x;
      } else {
        v = (int8_t)p[0];
      }
      out->v[k] = v;
    }
  } else {
    return imp_err(im, op, CXLA_INVALID_ARGUMENT, "attribute '%s' is not a list of integers",
                   name);
  }
  if (out->n && !out->v) return cxla_oom();
  return NULL;
}

cxla_status attr_int(Imp *im, const MlirOp *op, const char *name, bool required, int64_t def,
                     int64_t *out) {
  const MlirAttr *a = mlir_op_attr(op, name);
  *out = def;
  if (!a) {
    if (required) return imp_err(im, op, CXLA_INVALID_ARGUMENT, "missing attribute '%s'", name);
    return NULL;
  }
  if (a->kind != MA_INT && a->kind != MA_BOOL)
    return imp_err(im, op, CXLA_INVALID_ARGUMENT, "attribute '%s' must be an integer", name);
  *out = a->i;
  return NULL;
}

bool attr_bool_or(const MlirOp *op, const char *name, bool def) {
  const MlirAttr *a = mlir_op_attr(op, name);
  if (a && (a->kind == MA_BOOL || a->kind == MA_INT)) return a->i != 0;
  return def;
}

/* ---- shapes ---------------------------------------------------------------------- */

cxla_status imp_shape(Imp *im, const MlirOp *op, const MlirType *t, Shape **out) {
  Arena *a = &im->hm->arena;
  if (op && im->ov.op == op && im->ov.shapes)
    for (int k = 0; k < op->nresults; k++)
      if (op->results[k].type == t && im->ov.shapes[k]) {
        *out = shape_clone(a, im->ov.shapes[k]);
        IMP_NN(*out);
        return NULL;
      }
  switch (t->kind) {
  case MLT_TENSOR: {
    const MlirType *e = t->element;
    ElemType et;
    if (e->kind == MLT_ELEM) et = e->elem;
    else if (e->kind == MLT_INDEX) et = T_S64;
    else return imp_err(im, op, CXLA_UNIMPLEMENTED, "unsupported element type");
    Shape *s = shape_new(a, et, t->rank, t->dims);
    IMP_NN(s);
    for (int k = 0; k < t->rank; k++) {
      if (t->dims[k] == MLIR_DYNAMIC) {
        int64_t bnd = t->bounds ? t->bounds[k] : MLIR_DYNAMIC;
        if (bnd == MLIR_DYNAMIC && im->refine) {
          s->dims[k] = -1; /* provisional: import_refine.c infers it */
          continue;
        }
        if (bnd == MLIR_DYNAMIC)
          return imp_err(im, op, CXLA_UNIMPLEMENTED,
                         "dynamic dimension %d without a bound: only static shapes and bounded "
                         "dynamic dimensions (#stablehlo.bounds) are supported", k);
        if (!s->dynamic) {
          s->dynamic = arena_array(a, (size_t)t->rank, sizeof(bool));
          IMP_NN(s->dynamic);
        }
        s->dims[k] = bnd;
        s->dynamic[k] = true;
      }
    }
    TRY(shape_set_default_layout(a, s));
    *out = s;
    return NULL;
  }
  case MLT_ELEM: /* a scalar element type used as a shape */
    *out = shape_new(a, t->elem, 0, NULL);
    IMP_NN(*out);
    return NULL;
  case MLT_TOKEN:
    *out = shape_new(a, T_TOKEN, 0, NULL);
    IMP_NN(*out);
    return NULL;
  case MLT_TUPLE: {
    Shape **el = arena_array(a, (size_t)(t->n ? t->n : 1), sizeof(Shape *));
    IMP_NN(el);
    for (int k = 0; k < t->n; k++) TRY(imp_shape(im, op, t->types[k], &el[k]));
    *out = shape_new_tuple(a, t->n, el);
    IMP_NN(*out);
    return NULL;
  }
  case MLT_UNRANKED:
    return imp_err(im, op, CXLA_UNIMPLEMENTED, "unranked tensors are not supported");
  default: {
    StrBuf b;
    sb_init(&b);
    mlir_type_print(&b, t);
    char *s = sb_take(&b);
    cxla_status st = imp_err(im, op, CXLA_UNIMPLEMENTED, "unsupported type %s", s ? s : "?");
    cxla_free(s);
    return st;
  }
  }
}

/* ---- builders -------------------------------------------------------------------- */

Instr *ib(Scope *s, Opcode op, Shape *shape, int n, Instr *const *ops) {
  return comp_add_instr(s->c, op, shape, n, ops, NULL);
}
Instr *ib1(Scope *s, Opcode op, Instr *a) { return a ? ib(s, op, a->shape, 1, &a) : NULL; }
Instr *ib2(Scope *s, Opcode op, Instr *a, Instr *b) {
  if (!a || !b) return NULL;
  Instr *ops[2] = {a, b};
  return ib(s, op, a->shape, 2, ops);
}

Shape *shape_with_type(Scope *s, const Shape *like, ElemType t) {
  Shape *sh = shape_clone(&s->imp->hm->arena, like);
  if (sh) sh->type = t;
  return sh;
}

Instr *ib_cmp(Scope *s, CmpDir d, Instr *a, Instr *b) {
  if (!a || !b) return NULL;
  Shape *sh = shape_with_type(s, a->shape, T_PRED);
  Instr *ops[2] = {a, b};
  Instr *in = sh ? ib(s, OP_COMPARE, sh, 2, ops) : NULL;
  if (in) {
    in->cmp_dir = d;
    in->attrs |= A_COMPARE;
  }
  return in;
}

Instr *ib_select(Scope *s, Instr *p, Instr *a, Instr *b) {
  if (!p || !a || !b) return NULL;
  Instr *ops[3] = {p, a, b};
  return ib(s, OP_SELECT, a->shape, 3, ops);
}

Instr *ib_convert(Scope *s, Instr *a, ElemType t) {
  if (!a) return NULL;
  if (a->shape->type == t) return a;
  Shape *sh = shape_with_type(s, a->shape, t);
  return sh ? ib(s, OP_CONVERT, sh, 1, &a) : NULL;
}

static Instr *const_scalar(Scope *s, ElemType t, double v, int64_t iv, bool use_int) {
  Literal *l;
  if (literal_create(t, 0, NULL, &l)) return NULL;
  if (use_int) literal_set_i64(l, 0, iv);
  else literal_set_f64(l, 0, v);
  if (module_own_literal(s->imp->hm, l)) return NULL;
  Shape *sh = shape_new(&s->imp->hm->arena, t, 0, NULL);
  Instr *in = sh ? ib(s, OP_CONSTANT, sh, 0, NULL) : NULL;
  if (in) in->literal = l;
  return in;
}

static Instr *bcast_to(Scope *s, Instr *scalar, const Shape *like) {
  if (!scalar || !like || like->rank == 0) return scalar;
  Shape *sh = shape_with_type(s, like, scalar->shape->type);
  Instr *in = sh ? ib(s, OP_BROADCAST, sh, 1, &scalar) : NULL;
  if (in) in->attrs |= A_DIMENSIONS;
  return in;
}

Instr *ib_const(Scope *s, ElemType t, double v, const Shape *like) {
  return bcast_to(s, const_scalar(s, t, v, 0, false), like);
}

Instr *ib_const_i(Scope *s, ElemType t, int64_t v, const Shape *like) {
  return bcast_to(s, const_scalar(s, t, 0, v, true), like);
}

Instr *ib_gte(Scope *s, Instr *t, int i) {
  if (!t || t->shape->type != T_TUPLE || i >= t->shape->ntuple) return NULL;
  Instr *in = ib(s, OP_GET_TUPLE_ELEMENT, t->shape->tuple[i], 1, &t);
  if (in) {
    in->index = i;
    in->attrs |= A_INDEX;
  }
  return in;
}

Instr *ib_tuple(Scope *s, int n, Instr *const *ops) {
  Shape **el = arena_array(&s->imp->hm->arena, (size_t)(n ? n : 1), sizeof(Shape *));
  if (!el) return NULL;
  for (int k = 0; k < n; k++) el[k] = ops[k]->shape;
  Shape *sh = shape_new_tuple(&s->imp->hm->arena, n, el);
  return sh ? ib(s, OP_TUPLE, sh, n, ops) : NULL;
}

bool set_called(Scope *s, Instr *in, int n, Computation *const *cs) {
  in->called = arena_array(&s->imp->hm->arena, (size_t)n, sizeof(Computation *));
  if (!in->called) return false;
  memcpy(in->called, cs, (size_t)n * sizeof(Computation *));
  in->ncalled = n;
  return true;
}

/* ---- values and captures ----------------------------------------------------------- */

static cxla_status imp_op(Scope *s, const MlirOp *op);

cxla_status imp_value(Scope *s, const MlirOp *op, const MlirValue *v, Instr **out) {
  Instr *in = pm_get(&s->vals, v);
  if (!in && v->owner && !strcmp(v->owner->name, "stablehlo.constant")) {
    /* A constant from outside a reduce/sort/scatter/... body: materialized
     * again inside it (as XLA's converter sinks constants). */
    TRY(imp_op(s, v->owner));
    in = pm_get(&s->vals, v);
  }
  if (!in)
    return imp_err(s->imp, op, CXLA_INVALID_ARGUMENT,
                   "uses a value defined outside its region (only while, case and if regions "
                   "may use outer values)");
  *out = in;
  return NULL;
}

/* Values used inside the regions of op that are defined outside them, in
 * order of first use. */
typedef struct ValVec {
  const MlirValue **v;
  int n, cap;
} ValVec;

static bool vv_push(ValVec *vv, const MlirValue *x) {
  if (vv->n == vv->cap) {
    int nc = vv->cap ? vv->cap * 2 : 16;
    const MlirValue **nv = cxla_realloc((void *)vv->v, (size_t)nc * sizeof *nv);
    if (!nv) return false;
    vv->v = nv;
    vv->cap = nc;
  }
  vv->v[vv->n++] = x;
  return true;
}

static bool free_walk_region(const MlirRegion *r, PtrMap *defs, PtrMap *seen, ValVec *out);

static bool free_walk_op(const MlirOp *o, PtrMap *defs, PtrMap *seen, ValVec *out) {
  for (int k = 0; k < o->noperands; k++) {
    const MlirValue *v = o->operands[k];
    if (pm_get(defs, v) || pm_get(seen, v)) continue;
    if (!pm_put(seen, v, (void *)v) || !vv_push(out, v)) return false;
  }
  for (int k = 0; k < o->nregions; k++)
    if (!free_walk_region(&o->regions[k], defs, seen, out)) return false;
  for (int k = 0; k < o->nresults; k++)
    if (!pm_put(defs, &o->results[k], &o->results[k])) return false;
  return true;
}

static bool free_walk_region(const MlirRegion *r, PtrMap *defs, PtrMap *seen, ValVec *out) {
  for (int b = 0; b < r->nblocks; b++) {
    const MlirBlock *blk = r->blocks[b];
    for (int k = 0; k < blk->nargs; k++)
      if (!pm_put(defs, &blk->args[k], &blk->args[k])) return false;
  }
  for (int b = 0; b < r->nblocks; b++) {
    const MlirBlock *blk = r->blocks[b];
    for (int k = 0; k < blk->nops; k++)
      if (!free_walk_op(blk->ops[k], defs, seen, out)) return false;
  }
  return true;
}

/* Free values of regions [r0, r0 + nr) of op. */
static cxla_status free_values(const MlirOp *op, int r0, int nr, ValVec *out) {
  PtrMap defs = {0}, seen = {0};
  bool ok = true;
  for (int k = r0; ok && k < r0 + nr; k++) ok = free_walk_region(&op->regions[k], &defs, &seen, out);
  pm_free(&defs);
  pm_free(&seen);
  return ok ? NULL : cxla_oom();
}

/* ---- blocks and regions --------------------------------------------------------------- */

static bool is_terminator(const MlirOp *op) {
  return !strcmp(op->name, "stablehlo.return") || !strcmp(op->name, "func.return") ||
         !strcmp(op->name, "mhlo.return");
}

cxla_status imp_block(Scope *s, const MlirBlock *b, Instr ***rets, int *nrets) {
  *rets = NULL;
  *nrets = 0;
  for (int k = 0; k < b->nops; k++) {
    const MlirOp *op = b->ops[k];
    if (is_terminator(op)) {
      if (k != b->nops - 1)
        return imp_err(s->imp, op, CXLA_INVALID_ARGUMENT, "return before the end of its block");
      Instr **r = arena_array(&s->imp->hm->arena, (size_t)(op->noperands ? op->noperands : 1),
                              sizeof(Instr *));
      IMP_NN(r);
      for (int j = 0; j < op->noperands; j++) TRY(imp_value(s, op, op->operands[j], &r[j]));
      *rets = r;
      *nrets = op->noperands;
      return NULL;
    }
    TRY(imp_op(s, op));
  }
  return imp_err(s->imp, b->nops ? b->ops[b->nops - 1] : NULL, CXLA_INVALID_ARGUMENT,
                 "block without a return");
}

static Computation *new_comp(Imp *im, const char *base) {
  char buf[160];
  snprintf(buf, sizeof buf, "%s.%d", base, ++im->nregions);
  return module_add_computation(im->hm, buf);
}

static cxla_status finish_root(Scope *s, Instr **rets, int n) {
  if (n == 1) {
    s->c->root = rets[0];
  } else {
    s->c->root = ib_tuple(s, n, rets);
    IMP_NN(s->c->root);
  }
  return NULL;
}

/* The entry's parameter k with the caller's shape in place of "?" dims. */
static cxla_status entry_param_shape(Imp *im, const MlirOp *op, int k, Shape *sh) {
  const cxla_arg_shape *a = &im->args[k];
  if (sh->type == T_TUPLE || sh->rank != a->rank)
    return imp_err(im, op, CXLA_INVALID_ARGUMENT,
                   "argument %d has rank %d, but the parameter has rank %d", k, a->rank,
                   sh->type == T_TUPLE ? -1 : sh->rank);
  for (int d = 0; d < sh->rank; d++) {
    if (a->dims[d] < 0)
      return imp_err(im, op, CXLA_INVALID_ARGUMENT, "argument %d: negative dimension", k);
    if (sh->dims[d] >= 0 && !(sh->dynamic && sh->dynamic[d]) && sh->dims[d] != a->dims[d])
      return imp_err(im, op, CXLA_INVALID_ARGUMENT,
                     "argument %d has size %lld in dimension %d, but the parameter has %lld", k,
                     (long long)a->dims[d], d, (long long)sh->dims[d]);
    if (sh->dims[d] < 0) sh->dims[d] = a->dims[d];
  }
  return NULL;
}

static cxla_status add_params(Scope *s, const MlirOp *op, const MlirBlock *blk, bool entry) {
  Computation *c = s->c;
  Imp *im = s->imp;
  if (entry && im->refine && im->nargs >= 0 && im->nargs != blk->nargs)
    return imp_err(im, op, CXLA_INVALID_ARGUMENT, "%d argument shapes given for %d parameters",
                   im->nargs, blk->nargs);
  c->nparams = blk->nargs;
  c->params = arena_array(&s->imp->hm->arena, (size_t)(blk->nargs ? blk->nargs : 1),
                          sizeof(Instr *));
  IMP_NN(c->params);
  for (int k = 0; k < blk->nargs; k++) {
    Shape *sh;
    TRY(imp_shape(s->imp, op, blk->args[k].type, &sh));
    if (entry && im->refine && im->nargs >= 0) TRY(entry_param_shape(im, op, k, sh));
    if (imp_shape_provisional(sh))
      return imp_err(im, op, CXLA_INVALID_ARGUMENT,
                     "parameter %d has dynamic dimensions (\"?\"): the program must be "
                     "specialized to its arguments' shapes (cxla_module_parse_refined; cxla "
                     "run and conform take them from the arguments)", k);
    Instr *p = ib(s, OP_PARAMETER, sh, 0, NULL);
    IMP_NN(p);
    p->param_number = k;
    c->params[k] = p;
    if (!pm_put(&s->vals, &blk->args[k], p)) return cxla_oom();
  }
  return NULL;
}

cxla_status imp_region_comp(Imp *im, const MlirOp *op, const MlirRegion *r, Computation **out) {
  if (r->nblocks != 1)
    return imp_err(im, op, CXLA_UNIMPLEMENTED, "regions must have exactly one block");
  Scope s = {im, new_comp(im, "region"), {0}};
  if (!s.c) return cxla_oom();
  cxla_status st = add_params(&s, op, r->blocks[0], false);
  Instr **rets;
  int n;
  if (!st) st = imp_block(&s, r->blocks[0], &rets, &n);
  if (!st) st = finish_root(&s, rets, n);
  pm_free(&s.vals);
  if (!st) *out = s.c;
  return st;
}

/* ---- while and conditionals (regions with captures) ---------------------------------- */

/* A computation with one tuple parameter: elements 0..nargs-1 are the
 * block's arguments, then the captures. Returns the scope's GTE map. */
static cxla_status captured_comp(Imp *im, const MlirOp *op, const MlirBlock *blk,
                                 Shape *param_shape, const ValVec *caps, int nargs,
                                 const char *base, Scope *s) {
  s->imp = im;
  s->c = new_comp(im, base);
  IMP_NN(s->c);
  Instr *p = ib(s, OP_PARAMETER, param_shape, 0, NULL);
  IMP_NN(p);
  s->c->nparams = 1;
  s->c->params = arena_alloc(&im->hm->arena, sizeof(Instr *));
  IMP_NN(s->c->params);
  s->c->params[0] = p;
  for (int k = 0; k < nargs; k++) {
    Instr *g = ib_gte(s, p, k);
    IMP_NN(g);
    if (!pm_put(&s->vals, &blk->args[k], g)) return cxla_oom();
  }
  for (int k = 0; k < caps->n; k++) {
    Instr *g = ib_gte(s, p, nargs + k);
    IMP_NN(g);
    if (!pm_put(&s->vals, caps->v[k], g)) return cxla_oom();
  }
  (void)op;
  return NULL;
}

/* Refinement: inside a region, value v (a capture, or a loop-carried value
 * the body passes on unchanged) is the constant c it has outside, so that
 * sizes computed from it there fold (JAX threads its dimension variables
 * through loops and branches). Small constants only: sizes, not data. */
enum { IMP_SINK_MAX_ELEMS = 64 };
static cxla_status sink_constant(Scope *sc, const MlirValue *v, const Instr *c) {
  if (c->op != OP_CONSTANT || !c->literal || c->literal->unknown || c->shape->type == T_TUPLE ||
      shape_elems(c->shape) > IMP_SINK_MAX_ELEMS)
    return NULL;
  Literal *l;
  TRY(literal_clone(c->literal, &l));
  TRY(module_own_literal(sc->imp->hm, l));
  Shape *sh = shape_clone(&sc->imp->hm->arena, c->shape);
  IMP_NN(sh);
  Instr *in = ib(sc, OP_CONSTANT, sh, 0, NULL);
  IMP_NN(in);
  in->literal = l;
  return pm_put(&sc->vals, v, in) ? NULL : cxla_oom();
}

static cxla_status sink_loop_constants(Scope *cs, Scope *bs, const MlirBlock *cb,
                                       const MlirBlock *bb, Instr **init, int n,
                                       const ValVec *caps) {
  const MlirOp *ret = bb->nops ? bb->ops[bb->nops - 1] : NULL;
  for (int k = 0; ret && is_terminator(ret) && ret->noperands == n && k < n; k++)
    if (ret->operands[k] == &bb->args[k]) {
      TRY(sink_constant(cs, &cb->args[k], init[k]));
      TRY(sink_constant(bs, &bb->args[k], init[k]));
    }
  for (int k = 0; k < caps->n; k++) {
    TRY(sink_constant(cs, caps->v[k], init[n + k]));
    TRY(sink_constant(bs, caps->v[k], init[n + k]));
  }
  return NULL;
}

static cxla_status imp_while(Scope *s, const MlirOp *op, Instr **ops, Instr **out) {
  Imp *im = s->imp;
  if (op->nregions != 2 || op->regions[0].nblocks != 1 || op->regions[1].nblocks != 1)
    return imp_err(im, op, CXLA_INVALID_ARGUMENT, "expected cond and body regions");
  ValVec caps = {0};
  cxla_status st = free_values(op, 0, 2, &caps);
  int n = op->noperands, total = n + caps.n;
  Instr **init = NULL;
  Shape *tsh = NULL;
  Scope cs = {0}, bs = {0};
  if (st) goto done;
  init = arena_array(&im->hm->arena, (size_t)(total ? total : 1), sizeof(Instr *));
  if (!init) {
    st = cxla_oom();
    goto done;
  }
  for (int k = 0; k < n; k++) init[k] = ops[k];
  for (int k = 0; k < caps.n && !st; k++) st = imp_value(s, op, caps.v[k], &init[n + k]);
  if (st) goto done;
  Instr *tup = ib_tuple(s, total, init);
  if (!tup) {
    st = cxla_oom();
    goto done;
  }
  tsh = tup->shape;
  const MlirBlock *cb = op->regions[0].blocks[0], *bb = op->regions[1].blocks[0];
  if (cb->nargs != n || bb->nargs != n) {
    st = imp_err(im, op, CXLA_INVALID_ARGUMENT, "regions take %d arguments", n);
    goto done;
  }
  Instr **rets;
  int nr;
  if ((st = captured_comp(im, op, cb, tsh, &caps, n, "region", &cs))) goto done;
  if ((st = captured_comp(im, op, bb, tsh, &caps, n, "region", &bs))) goto done;
  if (im->refine && (st = sink_loop_constants(&cs, &bs, cb, bb, init, n, &caps))) goto done;
  if ((st = imp_block(&cs, cb, &rets, &nr))) goto done;
  if (nr != 1) {
    st = imp_err(im, op, CXLA_INVALID_ARGUMENT, "cond must return one predicate");
    goto done;
  }
  cs.c->root = rets[0];
  if ((st = imp_block(&bs, bb, &rets, &nr))) goto done;
  if (nr != n) {
    st = imp_err(im, op, CXLA_INVALID_ARGUMENT, "body returns %d values for %d", nr, n);
    goto done;
  }
  {
    Instr **all = arena_array(&im->hm->arena, (size_t)(total ? total : 1), sizeof(Instr *));
    if (!all) {
      st = cxla_oom();
      goto done;
    }
    for (int k = 0; k < n; k++) all[k] = rets[k];
    for (int k = 0; k < caps.n; k++) all[n + k] = pm_get(&bs.vals, caps.v[k]);
    bs.c->root = ib_tuple(&bs, total, all);
    if (!bs.c->root) {
      st = cxla_oom();
      goto done;
    }
  }
  Instr *w = ib(s, OP_WHILE, tsh, 1, &tup);
  Computation *cc[2] = {cs.c, bs.c};
  if (!w || !set_called(s, w, 2, cc)) {
    st = cxla_oom();
    goto done;
  }
  if (caps.n == 0) {
    *out = w;
  } else {
    /* results: the first n elements */
    Instr **el = arena_array(&im->hm->arena, (size_t)(n ? n : 1), sizeof(Instr *));
    if (!el) {
      st = cxla_oom();
      goto done;
    }
    for (int k = 0; k < n; k++)
      if (!(el[k] = ib_gte(s, w, k))) st = cxla_oom();
    if (!st) *out = n == 1 ? el[0] : ib_tuple(s, n, el);
    if (!st && !*out) st = cxla_oom();
  }
  if (!st && caps.n == 0 && n == 1) *out = ib_gte(s, w, 0);
done:
  cxla_free((void *)caps.v);
  pm_free(&cs.vals);
  pm_free(&bs.vals);
  return st;
}

/* case(index) / if(pred): one computation per branch, each with a tuple
 * parameter of its own captures. */
static cxla_status imp_cond(Scope *s, const MlirOp *op, Instr **ops, Instr **out) {
  Imp *im = s->imp;
  int nb = op->nregions;
  if (nb < 1 || op->noperands != 1)
    return imp_err(im, op, CXLA_INVALID_ARGUMENT, "expected one operand and branches");
  Instr **operands = arena_array(&im->hm->arena, (size_t)nb + 1, sizeof(Instr *));
  Computation **comps = arena_array(&im->hm->arena, (size_t)nb, sizeof(Computation *));
  IMP_NN(operands);
  IMP_NN(comps);
  operands[0] = ops[0];
  bool is_if = !strcmp(op->name, "stablehlo.if");
  if (!is_if && ops[0]->shape->type != T_S32) {
    operands[0] = ib_convert(s, ops[0], T_S32);
    IMP_NN(operands[0]);
  }
  Shape *rsh = NULL;
  cxla_status st = NULL;
  for (int r = 0; r < nb && !st; r++) {
    /* if: regions are (true, false) = HLO's (true, false) order */
    if (op->regions[r].nblocks != 1) {
      st = imp_err(im, op, CXLA_INVALID_ARGUMENT, "branch %d must have one block", r);
      break;
    }
    ValVec caps = {0};
    Scope bs = {0};
    st = free_values(op, r, 1, &caps);
    Instr **cv = NULL;
    if (!st) {
      cv = arena_array(&im->hm->arena, (size_t)(caps.n ? caps.n : 1), sizeof(Instr *));
      if (!cv) st = cxla_oom();
    }
    for (int k = 0; !st && k < caps.n; k++) st = imp_value(s, op, caps.v[k], &cv[k]);
    Instr *arg = NULL;
    if (!st && !(arg = ib_tuple(s, caps.n, cv))) st = cxla_oom();
    if (!st) st = captured_comp(im, op, op->regions[r].blocks[0], arg->shape, &caps, 0, "region", &bs);
    for (int k = 0; !st && im->refine && k < caps.n; k++) st = sink_constant(&bs, caps.v[k], cv[k]);
    Instr **rets;
    int nr;
    if (!st) st = imp_block(&bs, op->regions[r].blocks[0], &rets, &nr);
    if (!st) st = finish_root(&bs, rets, nr);
    if (!st) {
      comps[r] = bs.c;
      operands[r + 1] = arg;
      rsh = bs.c->root->shape;
    }
    cxla_free((void *)caps.v);
    pm_free(&bs.vals);
  }
  if (st) return st;
  Instr *c = ib(s, OP_CONDITIONAL, rsh, nb + 1, operands);
  IMP_NN(c);
  if (!set_called(s, c, nb, comps)) return cxla_oom();
  *out = c;
  return NULL;
}

/* ---- functions ---------------------------------------------------------------------- */

static cxla_status import_func_body(Imp *im, FuncInfo *f) {
  MlirOp *op = f->op;
  if (op->nregions != 1 || op->regions[0].nblocks != 1)
    return imp_err(im, op, CXLA_INVALID_ARGUMENT, "function '%s' has no body", f->name);
  /* HLO names are [A-Za-z0-9_.-]: JAX's "<lambda>" becomes "_lambda_"
   * (with a ".N" suffix if that name is taken). */
  char name[160];
  snprintf(name, sizeof name, "%s", f->name);
  bool changed = false;
  for (char *p = name; *p; p++)
    if (!(isalnum((unsigned char)*p) || *p == '_' || *p == '.' || *p == '-')) *p = '_', changed = true;
  /* a taken name gets the least free ".N" (module_unique_comp_name: O(1),
   * where a scan of the computations per N tried made a thousand
   * functions named "<lambda>" cost 10^9 string compares) */
  const char *uniq = changed ? module_unique_comp_name(im->hm, name) : name;
  Scope s = {im, uniq ? module_add_computation(im->hm, uniq) : NULL, {0}};
  if (!s.c) return cxla_oom();
  f->comp = s.c;
  const MlirBlock *blk = op->regions[0].blocks[0];
  cxla_status st = add_params(&s, op, blk, f == im->entry);
  Instr **rets;
  int n;
  if (!st) st = imp_block(&s, blk, &rets, &n);
  if (!st) st = finish_root(&s, rets, n);
  pm_free(&s.vals);
  return st;
}

cxla_status imp_func(Imp *im, const MlirOp *at, const char *name, Computation **out) {
  for (int k = 0; k < im->nfuncs; k++) {
    FuncInfo *f = &im->funcs[k];
    if (strcmp(f->name, name)) continue;
    if (f->state == 1)
      return imp_err(im, at, CXLA_UNIMPLEMENTED, "recursive call of '%s'", name);
    if (f->state == 0) {
      if (im->call_depth >= 200)
        return imp_err(im, at, CXLA_UNIMPLEMENTED, "calls nested more than 200 deep");
      f->state = 1;
      im->call_depth++;
      cxla_status st = import_func_body(im, f);
      im->call_depth--;
      TRY(st);
      f->state = 2;
    }
    *out = f->comp;
    return NULL;
  }
  return imp_err(im, at, CXLA_NOT_FOUND, "no function '@%s'", name);
}

/* Refinement specializes a function at each call: its body is imported in
 * place, its parameters the call's operands (which may be constants: JAX
 * passes the dimension variables). */
static cxla_status inline_call(Scope *s, const MlirOp *op, FuncInfo *f, Instr **ops,
                               Instr **out) {
  Imp *im = s->imp;
  if (f->op->nregions != 1 || f->op->regions[0].nblocks != 1)
    return imp_err(im, op, CXLA_INVALID_ARGUMENT, "function '%s' has no body", f->name);
  const MlirBlock *blk = f->op->regions[0].blocks[0];
  if (blk->nargs != op->noperands)
    return imp_err(im, op, CXLA_INVALID_ARGUMENT, "'@%s' takes %d arguments, given %d", f->name,
                   blk->nargs, op->noperands);
  if (f->inlining || f->state == 1)
    return imp_err(im, op, CXLA_UNIMPLEMENTED, "recursive call of '%s'", f->name);
  if (im->call_depth >= 200)
    return imp_err(im, op, CXLA_UNIMPLEMENTED, "calls nested more than 200 deep");
  Scope is = {im, s->c, {0}};
  cxla_status st = NULL;
  for (int k = 0; !st && k < blk->nargs; k++)
    if (!pm_put(&is.vals, &blk->args[k], ops[k])) st = cxla_oom();
  Instr **rets = NULL;
  int n = 0;
  f->inlining++;
  im->call_depth++;
  if (!st) st = imp_block(&is, blk, &rets, &n);
  im->call_depth--;
  f->inlining--;
  pm_free(&is.vals);
  TRY(st);
  *out = n == 1 ? rets[0] : ib_tuple(s, n, rets);
  IMP_NN(*out);
  return NULL;
}

static cxla_status imp_call(Scope *s, const MlirOp *op, Instr **ops, Instr **out) {
  const MlirAttr *callee = mlir_op_attr(op, !strcmp(op->name, "stablehlo.composite")
                                                ? "decomposition" : "callee");
  if (!callee || callee->kind != MA_SYMBOL_REF)
    return imp_err(s->imp, op, CXLA_INVALID_ARGUMENT, "missing callee");
  /* Refinement inlines every call: a function with "?" in its signature
   * is specialized at each call, and one called with the dimension
   * variables (divmod, say) computes a size that must fold. */
  if (s->imp->refine)
    for (int k = 0; k < s->imp->nfuncs; k++)
      if (!strcmp(s->imp->funcs[k].name, callee->str))
        return inline_call(s, op, &s->imp->funcs[k], ops, out);
  Computation *c;
  TRY(imp_func(s->imp, op, callee->str, &c));
  if (c->nparams != op->noperands)
    return imp_err(s->imp, op, CXLA_INVALID_ARGUMENT, "'@%s' takes %d arguments, given %d",
                   callee->str, c->nparams, op->noperands);
  Instr *in = ib(s, OP_CALL, c->root->shape, op->noperands, ops);
  IMP_NN(in);
  if (!set_called(s, in, 1, &c)) return cxla_oom();
  *out = in;
  return NULL;
}

/* ---- one op ------------------------------------------------------------------------ */

static cxla_status imp_op(Scope *s, const MlirOp *op) {
  Imp *im = s->imp;
  const char *name = op->name;
  Instr **ops = arena_array(&im->hm->arena, (size_t)(op->noperands ? op->noperands : 1),
                            sizeof(Instr *));
  IMP_NN(ops);
  for (int k = 0; k < op->noperands; k++) TRY(imp_value(s, op, op->operands[k], &ops[k]));
  Instr *res = NULL;
  ImpFn fn = NULL;
  if (!strcmp(name, "stablehlo.while")) fn = imp_while;
  else if (!strcmp(name, "stablehlo.case") || !strcmp(name, "stablehlo.if")) fn = imp_cond;
  else if (!strcmp(name, "func.call") || !strcmp(name, "stablehlo.composite")) fn = imp_call;
  else if (!strncmp(name, "chlo.", 5)) fn = imp_chlo_lookup(name);
  else fn = imp_ops_lookup(name);
  if (!fn) fn = imp_dynamic_lookup(name);
  if (!fn) {
    if (!strncmp(name, "sdy.", 4)) {
      /* Shardy on one device: sharding constraints and the like are
       * identities; other ops (sdy.mesh at module level) are skipped. */
      if (op->nresults == 0) return NULL;
      if (op->nresults == op->noperands) {
        for (int k = 0; k < op->nresults; k++)
          if (!pm_put(&s->vals, &op->results[k], ops[k])) return cxla_oom();
        return NULL;
      }
    }
    return imp_err(im, op, CXLA_UNIMPLEMENTED, "operation not supported by the importer");
  }
  if (!strncmp(name, "chlo.", 5) && op->noperands != imp_chlo_arity(name))
    return imp_err(im, op, CXLA_INVALID_ARGUMENT, "expected %d operand(s)", imp_chlo_arity(name));
  /* Refinement: see import_refine.c. The overrides belong to this op's
   * handler; ops it imports on the way (bodies, callees) keep their own. */
  int first = s->c->ninstrs;
  ImpOverride saved = im->ov;
  im->ov = (ImpOverride){0};
  cxla_status st = NULL;
  if (im->refine) {
    if (++im->nops > IMP_MAX_REFINED_OPS)
      st = imp_err(im, op, CXLA_RESOURCE_EXHAUSTED,
                   "more than %d ops after inlining the functions refinement specializes",
                   IMP_MAX_REFINED_OPS);
    if (!st) st = imp_refine_before(s, op, ops);
  }
  if (!st) st = fn(s, op, ops, &res);
  im->ov = saved;
  TRY(st);
  if (im->refine && fn != imp_call) TRY(imp_refine_after(s, op, first));
  if (op->nresults == 1) {
    if (!res) return imp_err(im, op, CXLA_INTERNAL, "no result");
    if (!pm_put(&s->vals, &op->results[0], res)) return cxla_oom();
  } else if (op->nresults > 1) {
    if (!res || res->shape->type != T_TUPLE || res->shape->ntuple != op->nresults)
      return imp_err(im, op, CXLA_INTERNAL, "expected a tuple of %d results", op->nresults);
    Instr *direct = res->op == OP_TUPLE ? res : NULL;
    for (int k = 0; k < op->nresults; k++) {
      Instr *g = direct ? direct->operands[k] : ib_gte(s, res, k);
      IMP_NN(g);
      if (!pm_put(&s->vals, &op->results[k], g)) return cxla_oom();
    }
  }
  return NULL;
}

/* Reorders the computations in post order from the entry: callees before
 * callers, the entry last (what the printer and the passes expect). */
static cxla_status order_comps(HloModule *hm) {
  int n = hm->ncomps;
  Computation **order = cxla_malloc((size_t)(n ? n : 1) * sizeof *order);
  /* explicit DFS stack of (computation, next instruction, next callee) */
  struct Fr {
    Computation *c;
    int i, j;
  } *stack = cxla_malloc((size_t)(n ? n : 1) * sizeof *stack);
  PtrMap seen = {0};
  cxla_status st = NULL;
  int no = 0, sp = 0;
  if (!order || !stack) st = cxla_oom();
  if (!st) {
    stack[sp++] = (struct Fr){hm->entry, 0, 0};
    if (!pm_put(&seen, hm->entry, hm->entry)) st = cxla_oom();
  }
  while (!st && sp > 0) {
    struct Fr *f = &stack[sp - 1];
    Computation *next = NULL;
    while (f->i < f->c->ninstrs && !next) {
      Instr *in = f->c->instrs[f->i];
      if (f->j < in->ncalled) {
        Computation *cc = in->called[f->j++];
        if (!pm_get(&seen, cc)) next = cc;
      } else {
        f->i++;
        f->j = 0;
      }
    }
    if (next) {
      if (sp == n || !pm_put(&seen, next, next)) {
        st = sp == n ? cxla_status_make(CXLA_INTERNAL, "computation graph") : cxla_oom();
        break;
      }
      stack[sp++] = (struct Fr){next, 0, 0};
    } else {
      order[no++] = f->c;
      sp--;
    }
  }
  if (!st) {
    /* computations nothing calls (none expected) keep their place at the front */
    int k = 0;
    Computation **all = cxla_malloc((size_t)(n ? n : 1) * sizeof *all);
    if (!all) st = cxla_oom();
    for (int i = 0; !st && i < n; i++)
      if (!pm_get(&seen, hm->comps[i])) all[k++] = hm->comps[i];
    for (int i = 0; !st && i < no; i++) all[k++] = order[i];
    if (!st) memcpy(hm->comps, all, (size_t)n * sizeof *all);
    cxla_free(all);
  }
  cxla_free(order);
  cxla_free(stack);
  pm_free(&seen);
  return st;
}

/* Donation: JAX marks an entry argument whose buffer may hold result N
 * with the argument attribute tf.aliasing_output = N; that is HLO's
 * input_output_alias { {N}: (arg, {}, may-alias) } ({} for a lone, untupled
 * result). Without any, the module has no input_output_alias. */
static cxla_status import_donation(Imp *im, cxla_module *hm, const MlirOp *fn, const Computation *ec) {
  const MlirAttr *aa = attr_of(fn, "arg_attrs", MA_ARRAY);
  if (!aa) return NULL;
  int count = 0;
  for (int k = 0; k < aa->n && k < ec->nparams; k++) {
    const MlirAttr *v = aa->elems[k]->kind == MA_DICT ? mlir_dict_get(aa->elems[k], "tf.aliasing_output") : NULL;
    if (v && v->kind == MA_INT) count++;
  }
  if (!count) return NULL;
  IoAlias *al = arena_array(&hm->arena, (size_t)count, sizeof *al);
  if (!al) return cxla_oom();
  bool tuple = ec->root->shape->type == T_TUPLE;
  int n = 0;
  for (int k = 0; k < aa->n && k < ec->nparams; k++) {
    const MlirAttr *v = aa->elems[k]->kind == MA_DICT ? mlir_dict_get(aa->elems[k], "tf.aliasing_output") : NULL;
    if (!v || v->kind != MA_INT) continue;
    if (v->i < 0 || (tuple ? v->i >= ec->root->shape->ntuple : v->i != 0))
      return imp_err(im, fn, CXLA_INVALID_ARGUMENT, "argument %d: tf.aliasing_output %lld names no result", k, (long long)v->i);
    memset(&al[n], 0, sizeof al[n]);
    if (tuple) {
      al[n].output_index.v = arena_alloc(&hm->arena, sizeof(int64_t));
      if (!al[n].output_index.v) return cxla_oom();
      al[n].output_index.v[0] = v->i;
      al[n].output_index.n = 1;
    }
    al[n].param_number = k;
    al[n].kind = ALIAS_MAY;
    n++;
  }
  hm->has_io_alias = true;
  hm->nio_alias = n;
  hm->io_alias = al;
  return NULL;
}

/* Memory kinds: JAX marks an entry argument or result that lives in host
 * memory with mhlo.memory_kind = "pinned_host" or "unpinned_host" (from a
 * sharding's memory_kind); XLA keeps that as the memory space of its
 * layout in entry_computation_layout, S(5) and S(6) (PJRT's
 * ParameterMemoryKinds / OutputMemoryKinds read it back). "device" and
 * no attribute: the default space. */
static cxla_status memory_kind_tail(Imp *im, const MlirOp *fn, const MlirAttr *dict, Shape *s) {
  const MlirAttr *v = dict && dict->kind == MA_DICT ? mlir_dict_get(dict, "mhlo.memory_kind") : NULL;
  if (!v) return NULL;
  if (v->kind != MA_STRING) return imp_err(im, fn, CXLA_INVALID_ARGUMENT, "mhlo.memory_kind is not a string");
  const char *tail = !strcmp(v->str, "pinned_host") ? "S(5)" : !strcmp(v->str, "unpinned_host") ? "S(6)" : NULL;
  if (!tail && strcmp(v->str, "device"))
    return imp_err(im, fn, CXLA_UNIMPLEMENTED, "memory kind \"%s\" (cxla has device, pinned_host and unpinned_host)",
                   v->str);
  if (!tail || !type_is_array(s->type)) return NULL;
  TRY(shape_set_default_layout(&im->hm->arena, s));
  return (s->layout_tail = arena_strdup(&im->hm->arena, tail)) ? NULL : cxla_oom();
}

static cxla_status import_memory_kinds(Imp *im, const MlirOp *fn, EntryLayout *el) {
  const MlirAttr *aa = attr_of(fn, "arg_attrs", MA_ARRAY), *ra = attr_of(fn, "res_attrs", MA_ARRAY);
  for (int k = 0; aa && k < aa->n && k < el->nparams; k++) TRY(memory_kind_tail(im, fn, aa->elems[k], el->params[k]));
  /* one result: the root itself; several: the root tuple's elements */
  bool tuple = ra && ra->n > 1 && el->result->type == T_TUPLE;
  for (int k = 0; ra && k < ra->n && (tuple ? k < el->result->ntuple : k < 1); k++)
    TRY(memory_kind_tail(im, fn, ra->elems[k], tuple ? el->result->tuple[k] : el->result));
  return NULL;
}

/* ---- the module ----------------------------------------------------------------------- */

cxla_status shlo_import(MlirModule *mm, HloModule **out) {
  return shlo_import_refined(mm, NULL, -1, out);
}

cxla_status shlo_import_refined(MlirModule *mm, const cxla_arg_shape *args, int nargs,
                                HloModule **out) {
  *out = NULL;
  if (!mm || !mm->op || strcmp(mm->op->name, "builtin.module") || mm->op->nregions != 1 ||
      mm->op->regions[0].nblocks != 1)
    return cxla_status_make(CXLA_INVALID_ARGUMENT, "%s: expected a builtin.module with one block",
                            mm && mm->filename ? mm->filename : "<input>");
  const MlirAttr *sym = attr_of(mm->op, "sym_name", MA_STRING);
  HloModule *hm;
  TRY(module_create(sym ? sym->str : "module", &hm));
  Imp im = {.mm = mm, .hm = hm, .args = args, .nargs = nargs};
  im.refine = imp_module_needs_refine(mm);
  const MlirBlock *top = mm->op->regions[0].blocks[0];
  cxla_status st = NULL;
  im.funcs = cxla_calloc((size_t)(top->nops ? top->nops : 1), sizeof(FuncInfo));
  if (!im.funcs) st = cxla_oom();
  FuncInfo *entry = NULL;
  for (int k = 0; !st && k < top->nops; k++) {
    MlirOp *op = top->ops[k];
    if (strcmp(op->name, "func.func")) {
      if (!strncmp(op->name, "sdy.", 4)) continue; /* sdy.mesh: one device */
      st = imp_err(&im, op, CXLA_UNIMPLEMENTED, "unexpected top-level operation");
      break;
    }
    const MlirAttr *n = attr_of(op, "sym_name", MA_STRING);
    if (!n) {
      st = imp_err(&im, op, CXLA_INVALID_ARGUMENT, "function without a name");
      break;
    }
    FuncInfo *f = &im.funcs[im.nfuncs++];
    f->op = op;
    f->name = n->str;
    const MlirAttr *vis = attr_of(op, "sym_visibility", MA_STRING);
    bool pub = !vis || strcmp(vis->str, "private") != 0;
    if (!strcmp(f->name, "main") || (pub && !entry)) entry = f;
  }
  if (!st && !entry) st = cxla_status_make(CXLA_INVALID_ARGUMENT, "%s: no public function (main)",
                                          mm->filename ? mm->filename : "<input>");
  Computation *ec = NULL;
  im.entry = entry;
  if (!st) st = imp_func(&im, entry->op, entry->name, &ec);
  if (!st) {
    ec->is_entry = true;
    hm->entry = ec;
    st = order_comps(hm);
  }
  if (!st) {
    /* The entry computation layout JAX's modules have: the parameters' and
     * the result's shapes with their default layouts. */
    EntryLayout *el = arena_alloc(&hm->arena, sizeof *el);
    Shape **ps = el ? arena_array(&hm->arena, (size_t)(ec->nparams ? ec->nparams : 1),
                                  sizeof(Shape *)) : NULL;
    if (!ps) st = cxla_oom();
    for (int k = 0; !st && k < ec->nparams; k++)
      if (!(ps[k] = shape_clone(&hm->arena, ec->params[k]->shape))) st = cxla_oom();
    if (!st && !(el->result = shape_clone(&hm->arena, ec->root->shape))) st = cxla_oom();
    if (!st) st = shape_set_default_layout(&hm->arena, el->result);
    if (!st) {
      el->nparams = ec->nparams;
      el->params = ps;
      hm->entry_layout = el;
    }
  }
  if (!st) st = import_memory_kinds(&im, entry->op, hm->entry_layout);
  if (!st) st = import_donation(&im, hm, entry->op, ec);
  if (!st) st = module_mark_side_effects(hm);
  cxla_free(im.funcs);
  if (st) {
    module_destroy(hm);
    return st;
  }
  *out = hm;
  return NULL;
}
