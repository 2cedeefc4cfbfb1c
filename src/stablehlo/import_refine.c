/* Shape refinement: importing StableHLO programs with dynamic dimensions.
 *
 * jax.export with symbolic shapes (and TensorFlow's XlaCallModule, which
 * runs such exports) writes programs whose types have "?" dimensions: the
 * entry's parameters are tensor<?x4xf32>, the dimension variables are
 * computed from get_dimension_size and passed to the real body as scalars,
 * shapes that depend on them are built by dynamic ops
 * (dynamic_broadcast_in_dim(x, [b, 4]), dynamic_iota, real_dynamic_slice,
 * custom_call @stablehlo.dynamic_top_k ...), and custom_call
 * @shape_assertion checks the arguments' shapes. XLA compiles them after
 * StableHLO's refine-shapes pass has specialized them to the shapes of the
 * arguments at hand; cxla does the same while importing (Imp.refine, set
 * when the program has any of these):
 *
 *   - the entry's parameters take the caller's shapes (import.c);
 *   - a "?" in a result type is a provisional -1 in the HLO shape, which is
 *     inferred from the operands once the op's instructions are built
 *     (imp_refine_after, with the verifier's shape inference); elementwise
 *     ops get theirs before their handler runs (imp_refine_before), so that
 *     decompositions (CHLO) build constants of the right shape;
 *   - small integer computations on constants are folded as they are
 *     imported, get_dimension_size of a static dimension included, so that
 *     the dimension arithmetic is a constant where a dynamic op needs it;
 *   - functions with "?" in their signature are inlined at each call
 *     (import.c), so the dimension variables passed to them are constants;
 *   - the dynamic ops become their static counterparts (below), with the
 *     shapes, paddings, sizes and k read from those constants;
 *   - a shape assertion whose predicate folds to true disappears; false is
 *     an error with JAX's message, its {0}, {1}... filled in.
 *
 * A size that is not a constant after all this depends on the program's
 * data: an UNIMPLEMENTED error (cxla compiles static shapes). */
#include <stdio.h>
#include <string.h>

#include "passes/passes.h"
#include "stablehlo/import_internal.h"
#include "verify/verify.h"

/* ---- which programs -------------------------------------------------------------- */

bool imp_type_dynamic(const MlirType *t) {
  if (!t) return false;
  if (t->kind == MLT_TUPLE) {
    for (int k = 0; k < t->n; k++)
      if (imp_type_dynamic(t->types[k])) return true;
    return false;
  }
  if (t->kind != MLT_TENSOR) return false;
  for (int k = 0; k < t->rank; k++)
    if (t->dims[k] == MLIR_DYNAMIC && (!t->bounds || t->bounds[k] == MLIR_DYNAMIC)) return true;
  return false;
}

bool imp_shape_provisional(const Shape *s) {
  if (s->type == T_TUPLE) {
    for (int k = 0; k < s->ntuple; k++)
      if (imp_shape_provisional(s->tuple[k])) return true;
    return false;
  }
  for (int k = 0; k < s->rank; k++)
    if (s->dims[k] < 0) return true;
  return false;
}

static const char *const dynamic_ops[] = {
    "stablehlo.dynamic_broadcast_in_dim", "stablehlo.dynamic_reshape", "stablehlo.dynamic_iota",
    "stablehlo.dynamic_pad", "stablehlo.real_dynamic_slice", "stablehlo.dynamic_gather",
    "stablehlo.dynamic_conv", NULL};

static bool refine_target(const char *t) {
  return !strcmp(t, "shape_assertion") || !strncmp(t, "stablehlo.dynamic_", 18);
}

static bool op_needs_refine(const MlirOp *op) {
  for (int k = 0; dynamic_ops[k]; k++)
    if (!strcmp(op->name, dynamic_ops[k])) return true;
  if (!strcmp(op->name, "stablehlo.custom_call")) {
    const MlirAttr *t = attr_of(op, "call_target_name", MA_STRING);
    if (t && refine_target(t->str)) return true;
  }
  for (int k = 0; k < op->nresults; k++)
    if (imp_type_dynamic(op->results[k].type)) return true;
  for (int r = 0; r < op->nregions; r++)
    for (int b = 0; b < op->regions[r].nblocks; b++) {
      const MlirBlock *blk = op->regions[r].blocks[b];
      for (int k = 0; k < blk->nargs; k++)
        if (imp_type_dynamic(blk->args[k].type)) return true;
      for (int k = 0; k < blk->nops; k++)
        if (op_needs_refine(blk->ops[k])) return true;
    }
  return false;
}

bool imp_module_needs_refine(const MlirModule *mm) {
  return mm && mm->op && op_needs_refine(mm->op);
}

/* Op's handler sees these result shapes (NULL entries: its types') and
 * nops operands (0: all); padding and slice sizes set stay. */
static void override(Imp *im, const MlirOp *op, Shape **shapes, int nops) {
  im->ov.op = op;
  im->ov.shapes = shapes;
  im->ov.nops = nops;
}

/* ---- before and after each op's handler --------------------------------------------- */

static bool elementwise(const char *name) {
  static const char *const names[] = {
      "abs", "cbrt", "ceil", "cosine", "count_leading_zeros", "exponential",
      "exponential_minus_one", "floor", "imag", "is_finite", "log", "log_plus_one", "logistic",
      "negate", "not", "popcnt", "real", "round_nearest_afz", "round_nearest_even", "rsqrt",
      "sign", "sine", "sqrt", "tan", "tanh", "add", "and", "atan2", "divide", "maximum",
      "minimum", "multiply", "or", "power", "remainder", "shift_left", "shift_right_arithmetic",
      "shift_right_logical", "subtract", "xor", "complex", "convert", "bitcast_convert", "clamp",
      "select", "compare", "reduce_precision", "map", "dynamic_update_slice", NULL};
  if (!strncmp(name, "chlo.", 5)) return strcmp(name, "chlo.top_k") != 0;
  if (strncmp(name, "stablehlo.", 10)) return false;
  for (int k = 0; names[k]; k++)
    if (!strcmp(name + 10, names[k])) return true;
  return false;
}

/* A reshape to a type with one "?": that dimension from the element count. */
static cxla_status pre_reshape(Scope *s, const MlirOp *op, Instr **ops) {
  Imp *im = s->imp;
  if (op->noperands != 1 || op->nresults != 1 || !imp_type_dynamic(op->results[0].type))
    return NULL;
  Shape *sh;
  TRY(imp_shape(im, op, op->results[0].type, &sh));
  const Shape *xs = ops[0]->shape;
  if (sh->type == T_TUPLE || xs->type == T_TUPLE || imp_shape_provisional(xs)) return NULL;
  int unknown = -1;
  int64_t known = 1;
  for (int d = 0; d < sh->rank; d++) {
    if (sh->dims[d] >= 0) {
      known *= sh->dims[d];
    } else if (unknown >= 0) {
      return NULL; /* two "?": left to inference, which reports it */
    } else {
      unknown = d;
    }
  }
  int64_t n = shape_elems(xs);
  if (unknown < 0 || known <= 0 || n % known)
    return imp_err(im, op, CXLA_INVALID_ARGUMENT, "cannot reshape %lld elements to this type",
                   (long long)n);
  sh->dims[unknown] = n / known;
  Shape **ov = arena_array(&im->hm->arena, 1, sizeof(Shape *));
  IMP_NN(ov);
  ov[0] = sh;
  override(im, op, ov, 0);
  return NULL;
}

cxla_status imp_refine_before(Scope *s, const MlirOp *op, Instr **ops) {
  Imp *im = s->imp;
  if (!strcmp(op->name, "stablehlo.reshape")) return pre_reshape(s, op, ops);
  if (!elementwise(op->name) || op->nresults < 1) return NULL;
  bool any = false;
  for (int k = 0; k < op->nresults; k++) any |= imp_type_dynamic(op->results[k].type);
  if (!any) return NULL;
  Shape **ov = arena_array(&im->hm->arena, (size_t)op->nresults, sizeof(Shape *));
  IMP_NN(ov);
  for (int k = 0; k < op->nresults; k++) {
    if (!imp_type_dynamic(op->results[k].type)) continue;
    Shape *sh;
    TRY(imp_shape(im, op, op->results[k].type, &sh));
    const Shape *from = NULL;
    for (int j = 0; j < op->noperands && !from; j++) {
      const Shape *os = ops[j]->shape;
      if (os->type != T_TUPLE && os->rank == sh->rank && !imp_shape_provisional(os)) from = os;
    }
    if (!from || sh->type == T_TUPLE) continue;
    for (int d = 0; d < sh->rank; d++) {
      if (sh->dims[d] < 0) sh->dims[d] = from->dims[d];
      else if (!(sh->dynamic && sh->dynamic[d]) && sh->dims[d] != from->dims[d])
        return imp_err(im, op, CXLA_INVALID_ARGUMENT,
                       "result dimension %d is %lld, but the operands have %lld", d,
                       (long long)sh->dims[d], (long long)from->dims[d]);
    }
    ov[k] = sh;
  }
  override(im, op, ov, 0);
  return NULL;
}

/* Turns in into a constant holding v (its operands stay, unused). */
static void become_constant(Instr *in, Literal *v) {
  in->op = OP_CONSTANT;
  in->noperands = 0;
  in->operands = NULL;
  in->ncalled = 0;
  in->called = NULL;
  in->attrs = 0;
  in->literal = v;
}

enum { FOLD_MAX_ELEMS = 64 };

/* Folds dimension arithmetic: an integer or predicate result of at most
 * FOLD_MAX_ELEMS elements computed from constants, and get_dimension_size
 * of a static dimension. */
static cxla_status fold(Imp *im, Instr *in) {
  const Shape *sh = in->shape;
  if (in->op == OP_CONSTANT || in->op == OP_PARAMETER || sh->type == T_TUPLE || sh->dynamic ||
      !(type_is_int(sh->type) || sh->type == T_PRED) || shape_elems(sh) > FOLD_MAX_ELEMS)
    return NULL;
  if (in->op == OP_GET_DIMENSION_SIZE) {
    const Shape *xs = in->noperands == 1 ? in->operands[0]->shape : NULL;
    int64_t d = in->dimensions.n == 1 ? in->dimensions.v[0] : -1;
    if (!xs || xs->type == T_TUPLE || d < 0 || d >= xs->rank || xs->dims[d] < 0 ||
        (xs->dynamic && xs->dynamic[d]) || sh->rank != 0)
      return NULL;
    Literal *v;
    TRY(literal_create(sh->type, 0, NULL, &v));
    literal_set_i64(v, 0, xs->dims[d]);
    TRY(module_own_literal(im->hm, v));
    become_constant(in, v);
    return NULL;
  }
  switch (in->op) {
  case OP_RNG: case OP_RNG_BIT_GENERATOR: case OP_CUSTOM_CALL: case OP_WHILE:
  case OP_CONDITIONAL: case OP_CALL: case OP_FUSION: case OP_SET_DIMENSION_SIZE:
  case OP_AFTER_ALL: case OP_ADD_DEPENDENCY: case OP_OPT_BARRIER:
    return NULL;
  default:
    break;
  }
  if (in->noperands < 1 || pass_has_side_effect(in) ||
      (op_info(in->op)->flags & (OPF_COLL | OPF_ASYNC)))
    return NULL;
  Literal *v;
  TRY(pass_fold_constant_operands(im->hm, in, &v));
  if (!v) return NULL;
  TRY(module_own_literal(im->hm, v));
  become_constant(in, v);
  return NULL;
}

cxla_status imp_refine_after(Scope *s, const MlirOp *op, int first) {
  Imp *im = s->imp;
  Arena *a = &im->hm->arena;
  Computation *c = s->c;
  for (int i = first; i < c->ninstrs; i++) {
    Instr *in = c->instrs[i];
    if (imp_shape_provisional(in->shape)) {
      Shape *sh = NULL;
      cxla_status st = infer_shape(a, in, &sh);
      if (st) {
        cxla_status e = imp_err(im, op, CXLA_INVALID_ARGUMENT, "refining shapes: %s",
                                cxla_status_message(st));
        cxla_status_free(st);
        return e;
      }
      if (!sh || imp_shape_provisional(sh))
        return imp_err(im, op, CXLA_UNIMPLEMENTED,
                       "the shape of this result is not known when compiling (cxla refines "
                       "\"?\" dimensions from the arguments' shapes and constant dimension "
                       "computations)");
      Shape *cl = shape_clone(a, sh);
      IMP_NN(cl);
      TRY(shape_set_default_layout(a, cl));
      in->shape = cl;
    }
    TRY(fold(im, in));
  }
  return NULL;
}

/* ---- reading sizes from constants ---------------------------------------------------- */

/* The values of operand idx, which must have folded to an integer
 * constant. */
static cxla_status const_ints(Scope *s, const MlirOp *op, Instr **ops, int idx, I64List *out) {
  Imp *im = s->imp;
  if (idx >= op->noperands)
    return imp_err(im, op, CXLA_INVALID_ARGUMENT, "expected at least %d operands", idx + 1);
  const Instr *in = ops[idx];
  if (in->op != OP_CONSTANT || !in->literal || in->literal->unknown ||
      in->shape->type == T_TUPLE || !type_is_int(in->shape->type))
    return imp_err(im, op, CXLA_UNIMPLEMENTED,
                   "operand %d (a shape, size or index list) is not known when compiling: cxla "
                   "compiles static shapes, refined from the arguments' shapes, and this one "
                   "depends on the program's data", idx);
  int64_t n = shape_elems(in->shape);
  out->n = (int)n;
  out->v = arena_array(&im->hm->arena, (size_t)(n ? n : 1), sizeof(int64_t));
  IMP_NN(out->v);
  for (int64_t k = 0; k < n; k++) out->v[k] = literal_get_i64(in->literal, k);
  return NULL;
}

/* Result k's shape: its type's, with `dims` (n of them) where the type has
 * "?" and checked against it elsewhere. */
static cxla_status result_dims(Scope *s, const MlirOp *op, int k, const int64_t *dims, int n,
                               Shape **out) {
  Imp *im = s->imp;
  Shape *sh;
  TRY(imp_shape(im, op, op->results[k].type, &sh));
  if (sh->type == T_TUPLE || sh->rank != n)
    return imp_err(im, op, CXLA_INVALID_ARGUMENT, "%d sizes given for result %d of rank %d", n,
                   k, sh->type == T_TUPLE ? -1 : sh->rank);
  for (int d = 0; d < n; d++) {
    if (dims[d] < 0)
      return imp_err(im, op, CXLA_INVALID_ARGUMENT, "result %d: negative size %lld in dimension %d",
                     k, (long long)dims[d], d);
    if (sh->dims[d] < 0 || (sh->dynamic && sh->dynamic[d])) {
      sh->dims[d] = dims[d];
      if (sh->dynamic) sh->dynamic[d] = false;
    } else if (sh->dims[d] != dims[d])
      return imp_err(im, op, CXLA_INVALID_ARGUMENT,
                     "result %d: size %lld in dimension %d, but its type says %lld", k,
                     (long long)dims[d], d, (long long)sh->dims[d]);
  }
  if (sh->dynamic) {
    bool any = false;
    for (int d = 0; d < n; d++) any |= sh->dynamic[d];
    if (!any) sh->dynamic = NULL;
  }
  *out = sh;
  return NULL;
}

/* Result 0 from shape operand idx; a static result type needs no constant. */
static cxla_status shaped_result(Scope *s, const MlirOp *op, Instr **ops, int idx, Shape **out) {
  if (op->nresults != 1)
    return imp_err(s->imp, op, CXLA_INVALID_ARGUMENT, "expected one result");
  if (!imp_type_dynamic(op->results[0].type))
    return imp_shape(s->imp, op, op->results[0].type, out);
  I64List d;
  TRY(const_ints(s, op, ops, idx, &d));
  return result_dims(s, op, 0, d.v, d.n, out);
}

static cxla_status expect_nops(Scope *s, const MlirOp *op, int n) {
  if (op->noperands != n)
    return imp_err(s->imp, op, CXLA_INVALID_ARGUMENT, "expected %d operands", n);
  return NULL;
}

/* ---- the dynamic ops ------------------------------------------------------------------- */

static cxla_status d_broadcast_in_dim(Scope *s, const MlirOp *op, Instr **ops, Instr **out) {
  TRY(expect_nops(s, op, 2));
  I64List d;
  TRY(attr_i64s(s->imp, op, "broadcast_dimensions", true, &d));
  Shape *rs;
  TRY(shaped_result(s, op, ops, 1, &rs));
  return imp_broadcast_in_dim(s, op, ops[0], rs, d, out);
}

static cxla_status d_reshape(Scope *s, const MlirOp *op, Instr **ops, Instr **out) {
  TRY(expect_nops(s, op, 2));
  Shape *rs;
  TRY(shaped_result(s, op, ops, 1, &rs));
  *out = ib(s, OP_RESHAPE, rs, 1, ops);
  IMP_NN(*out);
  return NULL;
}

static cxla_status d_iota(Scope *s, const MlirOp *op, Instr **ops, Instr **out) {
  TRY(expect_nops(s, op, 1));
  Shape *rs;
  TRY(shaped_result(s, op, ops, 0, &rs));
  *out = ib(s, OP_IOTA, rs, 0, NULL);
  IMP_NN(*out);
  TRY(attr_int(s->imp, op, "iota_dimension", true, 0, &(*out)->index));
  (*out)->attrs |= A_IOTA_DIM;
  return NULL;
}

/* Operands first..first+2: three lists of operand 0's rank (*r), and an
 * array of *r result sizes to fill. */
static cxla_status three_lists(Scope *s, const MlirOp *op, Instr **ops, int first, I64List l[3],
                               int *r, int64_t **dims) {
  for (int k = 0; k < 3; k++) TRY(const_ints(s, op, ops, first + k, &l[k]));
  const Shape *xs = ops[0]->shape;
  *r = xs->type == T_TUPLE ? -1 : xs->rank;
  if (l[0].n != *r || l[1].n != *r || l[2].n != *r)
    return imp_err(s->imp, op, CXLA_INVALID_ARGUMENT, "index lists must have %d entries", *r);
  *dims = arena_array(&s->imp->hm->arena, (size_t)(*r ? *r : 1), sizeof(int64_t));
  IMP_NN(*dims);
  return NULL;
}

/* dynamic_pad(operand, value, low, high, interior) */
static cxla_status d_pad(Scope *s, const MlirOp *op, Instr **ops, Instr **out) {
  Imp *im = s->imp;
  TRY(expect_nops(s, op, 5));
  I64List l[3];
  int r;
  int64_t *dims;
  TRY(three_lists(s, op, ops, 2, l, &r, &dims));
  const I64List lo = l[0], hi = l[1], in = l[2];
  const Shape *xs = ops[0]->shape;
  PadDim *pd = arena_array(&im->hm->arena, (size_t)(r ? r : 1), sizeof *pd);
  IMP_NN(pd);
  for (int k = 0; k < r; k++) {
    if (in.v[k] < 0)
      return imp_err(im, op, CXLA_INVALID_ARGUMENT, "negative interior padding");
    pd[k] = (PadDim){lo.v[k], hi.v[k], in.v[k]};
    int64_t x = xs->dims[k];
    dims[k] = lo.v[k] + hi.v[k] + x + (x > 0 ? (x - 1) * in.v[k] : 0);
  }
  Shape *rs;
  TRY(result_dims(s, op, 0, dims, r, &rs));
  *out = ib(s, OP_PAD, rs, 2, ops);
  IMP_NN(*out);
  (*out)->padding = pd;
  (*out)->attrs |= A_PADDING;
  return NULL;
}

/* real_dynamic_slice(operand, start, limit, strides) */
static cxla_status d_slice(Scope *s, const MlirOp *op, Instr **ops, Instr **out) {
  Imp *im = s->imp;
  TRY(expect_nops(s, op, 4));
  I64List l[3];
  int r;
  int64_t *dims;
  TRY(three_lists(s, op, ops, 1, l, &r, &dims));
  const I64List st = l[0], li = l[1], sd = l[2];
  const Shape *xs = ops[0]->shape;
  SliceDim *sl = arena_array(&im->hm->arena, (size_t)(r ? r : 1), sizeof *sl);
  IMP_NN(sl);
  for (int k = 0; k < r; k++) {
    if (st.v[k] < 0 || st.v[k] > li.v[k] || li.v[k] > xs->dims[k] || sd.v[k] < 1)
      return imp_err(im, op, CXLA_INVALID_ARGUMENT,
                     "slice [%lld:%lld:%lld] out of dimension %d of size %lld",
                     (long long)st.v[k], (long long)li.v[k], (long long)sd.v[k], k,
                     (long long)xs->dims[k]);
    sl[k] = (SliceDim){st.v[k], li.v[k], sd.v[k]};
    dims[k] = (li.v[k] - st.v[k] + sd.v[k] - 1) / sd.v[k];
  }
  Shape *rs;
  TRY(result_dims(s, op, 0, dims, r, &rs));
  *out = ib(s, OP_SLICE, rs, 1, ops);
  IMP_NN(*out);
  (*out)->slice = sl;
  (*out)->attrs |= A_SLICE;
  return NULL;
}

/* Calls the static handler `name` with the first nops operands; the
 * result shapes are ov's (NULL, or NULL entries: provisional, inferred). */
static cxla_status as_static(Scope *s, const MlirOp *op, Instr **ops, const char *name, int nops,
                             Shape **ov, Instr **out) {
  Imp *im = s->imp;
  ImpFn fn = imp_ops_lookup(name);
  if (!fn) return imp_err(im, op, CXLA_INTERNAL, "no handler %s", name);
  override(im, op, ov, nops);
  return fn(s, op, ops, out);
}

/* dynamic_gather(operand, start_indices, slice_sizes) */
static cxla_status d_gather(Scope *s, const MlirOp *op, Instr **ops, Instr **out) {
  TRY(expect_nops(s, op, 3));
  I64List *ss = arena_alloc(&s->imp->hm->arena, sizeof *ss);
  IMP_NN(ss);
  TRY(const_ints(s, op, ops, 2, ss));
  s->imp->ov.slice_sizes = ss;
  return as_static(s, op, ops, "stablehlo.gather", 2, NULL, out);
}

/* dynamic_conv(lhs, rhs, padding[N][2]) */
static cxla_status d_conv(Scope *s, const MlirOp *op, Instr **ops, Instr **out) {
  TRY(expect_nops(s, op, 3));
  I64List *pad = arena_alloc(&s->imp->hm->arena, sizeof *pad);
  IMP_NN(pad);
  TRY(const_ints(s, op, ops, 2, pad));
  s->imp->ov.padding = pad;
  return as_static(s, op, ops, "stablehlo.convolution", 2, NULL, out);
}

static const struct {
  const char *name;
  ImpFn fn;
} dyn_table[] = {
    {"stablehlo.dynamic_broadcast_in_dim", d_broadcast_in_dim},
    {"stablehlo.dynamic_reshape", d_reshape},
    {"stablehlo.dynamic_iota", d_iota},
    {"stablehlo.dynamic_pad", d_pad},
    {"stablehlo.real_dynamic_slice", d_slice},
    {"stablehlo.dynamic_gather", d_gather},
    {"stablehlo.dynamic_conv", d_conv},
};

ImpFn imp_dynamic_lookup(const char *name) {
  for (size_t k = 0; k < sizeof dyn_table / sizeof dyn_table[0]; k++)
    if (!strcmp(name, dyn_table[k].name)) return dyn_table[k].fn;
  return NULL;
}

/* ---- custom calls -------------------------------------------------------------------- */

/* @stablehlo.dynamic_top_k(operand, k): lax.top_k with k a dimension
 * expression. */
static cxla_status cc_top_k(Scope *s, const MlirOp *op, Instr **ops, Instr **out) {
  Imp *im = s->imp;
  TRY(expect_nops(s, op, 2));
  if (op->nresults != 2) return imp_err(im, op, CXLA_INVALID_ARGUMENT, "top_k has 2 results");
  I64List k;
  TRY(const_ints(s, op, ops, 1, &k));
  const Shape *xs = ops[0]->shape;
  if (k.n != 1 || xs->type == T_TUPLE || xs->rank < 1 || k.v[0] < 0 ||
      k.v[0] > xs->dims[xs->rank - 1])
    return imp_err(im, op, CXLA_INVALID_ARGUMENT, "k must be a scalar in [0, %lld]",
                   xs->type == T_TUPLE || xs->rank < 1 ? 0LL : (long long)xs->dims[xs->rank - 1]);
  int64_t *dims = arena_i64dup(&im->hm->arena, xs->dims, (size_t)xs->rank);
  IMP_NN(dims);
  dims[xs->rank - 1] = k.v[0];
  Shape *el[2];
  TRY(result_dims(s, op, 0, dims, xs->rank, &el[0]));
  TRY(result_dims(s, op, 1, dims, xs->rank, &el[1]));
  Shape *sh = shape_new_tuple(&im->hm->arena, 2, el);
  IMP_NN(sh);
  *out = ib(s, OP_TOPK, sh, 1, ops);
  IMP_NN(*out);
  (*out)->topk_k = k.v[0];
  (*out)->topk_largest = true;
  (*out)->attrs |= A_TOPK;
  return NULL;
}

/* @stablehlo.dynamic_approx_top_k(arrays..., inits..., k, shapes...):
 * ApproxTopK with its results' shapes in the operands named by
 * indices_of_shape_operands. */
static cxla_status cc_approx_top_k(Scope *s, const MlirOp *op, Instr **ops, Instr **out) {
  Imp *im = s->imp;
  int n = op->nresults;
  I64List idx;
  TRY(attr_i64s(im, op, "indices_of_shape_operands", true, &idx));
  if (n < 1 || idx.n != n || op->noperands < 2 * n)
    return imp_err(im, op, CXLA_INVALID_ARGUMENT,
                   "expected N arrays, N init values and N result shapes");
  Shape **ov = arena_array(&im->hm->arena, (size_t)n, sizeof(Shape *));
  IMP_NN(ov);
  for (int k = 0; k < n; k++) {
    if (idx.v[k] < 2 * n || idx.v[k] >= op->noperands)
      return imp_err(im, op, CXLA_INVALID_ARGUMENT, "shape operand index %lld out of range",
                     (long long)idx.v[k]);
    I64List d;
    TRY(const_ints(s, op, ops, (int)idx.v[k], &d));
    TRY(result_dims(s, op, k, d.v, d.n, &ov[k]));
  }
  override(im, op, ov, 2 * n);
  return imp_approx_top_k(s, op, ops, out);
}

/* @stablehlo.dynamic_rng_bit_generator(state, shape) */
static cxla_status cc_rng_bit_generator(Scope *s, const MlirOp *op, Instr **ops, Instr **out) {
  Imp *im = s->imp;
  TRY(expect_nops(s, op, 2));
  if (op->nresults != 2)
    return imp_err(im, op, CXLA_INVALID_ARGUMENT, "expected 2 results (state, bits)");
  Shape **ov = arena_array(&im->hm->arena, 2, sizeof(Shape *));
  IMP_NN(ov);
  TRY(imp_shape(im, op, op->results[0].type, &ov[0]));
  I64List d;
  TRY(const_ints(s, op, ops, 1, &d));
  TRY(result_dims(s, op, 1, d.v, d.n, &ov[1]));
  return as_static(s, op, ops, "stablehlo.rng_bit_generator", 1, ov, out);
}

/* @stablehlo.dynamic_reduce_window(inputs..., inits..., window_dimensions,
 * window_strides, base_dilations, window_dilations, padding[N][2]) with
 * called_computations = [reducer]: a reduce_window. */
static cxla_status cc_reduce_window(Scope *s, const MlirOp *op, Instr **ops, Instr **out) {
  Imp *im = s->imp;
  int n = (op->noperands - 5) / 2;
  if (n < 1 || op->noperands != 2 * n + 5 || op->nresults != n)
    return imp_err(im, op, CXLA_INVALID_ARGUMENT,
                   "expected N inputs, N init values and 5 window operands, N results");
  const MlirAttr *cc = attr_of(op, "called_computations", MA_ARRAY);
  if (!cc || cc->n != 1 || cc->elems[0]->kind != MA_SYMBOL_REF)
    return imp_err(im, op, CXLA_INVALID_ARGUMENT, "expected one called computation (the reducer)");
  I64List w[5];
  for (int k = 0; k < 5; k++) TRY(const_ints(s, op, ops, 2 * n + k, &w[k]));
  const Shape *xs = ops[0]->shape;
  int r = xs->type == T_TUPLE ? -1 : xs->rank;
  if (w[0].n != r || w[1].n != r || w[2].n != r || w[3].n != r || w[4].n != 2 * r)
    return imp_err(im, op, CXLA_INVALID_ARGUMENT, "window operands must have %d entries", r);
  Computation *body;
  TRY(imp_func(im, op, cc->elems[0]->str, &body));
  WindowDim *wd = arena_array(&im->hm->arena, (size_t)(r ? r : 1), sizeof *wd);
  IMP_NN(wd);
  for (int k = 0; k < r; k++)
    wd[k] = (WindowDim){.size = w[0].v[k], .stride = w[1].v[k], .pad_lo = w[4].v[2 * k],
                        .pad_hi = w[4].v[2 * k + 1], .lhs_dilate = w[2].v[k],
                        .rhs_dilate = w[3].v[k]};
  /* Provisional result shapes: inferred from the window afterwards. */
  Shape *sh;
  if (n == 1) {
    TRY(imp_shape(im, op, op->results[0].type, &sh));
  } else {
    Shape **el = arena_array(&im->hm->arena, (size_t)n, sizeof(Shape *));
    IMP_NN(el);
    for (int k = 0; k < n; k++) TRY(imp_shape(im, op, op->results[k].type, &el[k]));
    sh = shape_new_tuple(&im->hm->arena, n, el);
    IMP_NN(sh);
  }
  *out = ib(s, OP_REDUCE_WINDOW, sh, 2 * n, ops);
  IMP_NN(*out);
  (*out)->window = wd;
  (*out)->nwindow = r;
  (*out)->attrs |= A_WINDOW;
  if (!set_called(s, *out, 1, &body)) return cxla_oom();
  return NULL;
}

/* @shape_assertion(pred, inputs...) {error_message}: checked when
 * compiling; the message's {k} is input k's value. */
static cxla_status cc_shape_assertion(Scope *s, const MlirOp *op, Instr **ops, Instr **out) {
  Imp *im = s->imp;
  *out = NULL;
  if (op->noperands < 1 || op->nresults != 0)
    return imp_err(im, op, CXLA_INVALID_ARGUMENT, "shape_assertion takes a predicate and has no results");
  const Instr *p = ops[0];
  if (p->op != OP_CONSTANT || !p->literal || p->literal->unknown || p->shape->type != T_PRED ||
      p->shape->rank != 0)
    return imp_err(im, op, CXLA_UNIMPLEMENTED,
                   "shape_assertion whose predicate is not known when compiling");
  if (literal_get_i64(p->literal, 0)) return NULL;
  const MlirAttr *m = attr_of(op, "error_message", MA_STRING);
  StrBuf b;
  sb_init(&b);
  for (const char *c = m ? m->str : "shape assertion failed"; *c; c++) {
    int k = 0;
    const char *e = c + 1;
    while (*e >= '0' && *e <= '9' && k < 1000) k = k * 10 + (*e++ - '0');
    if (*c == '{' && e > c + 1 && *e == '}' && k + 1 < op->noperands) {
      const Instr *v = ops[k + 1];
      if (v->op == OP_CONSTANT && v->literal && !v->literal->unknown && v->shape->rank == 0 &&
          type_is_int(v->shape->type))
        sb_printf(&b, "%lld", (long long)literal_get_i64(v->literal, 0));
      else
        sb_puts(&b, "?");
      c = e;
      continue;
    }
    sb_putc(&b, *c);
  }
  char *msg = sb_take(&b);
  cxla_status st = imp_err(im, op, CXLA_INVALID_ARGUMENT, "%s", msg ? msg : "shape assertion failed");
  cxla_free(msg);
  return st;
}

cxla_status imp_custom_call_shape_operands(Scope *s, const MlirOp *op, Instr **ops) {
  Imp *im = s->imp;
  I64List idx;
  TRY(attr_i64s(im, op, "indices_of_shape_operands", true, &idx));
  int m = op->noperands - idx.n;
  if (idx.n != op->nresults || m < 0)
    return imp_err(im, op, CXLA_INVALID_ARGUMENT, "indices_of_shape_operands must name one "
                   "operand for each of the %d results", op->nresults);
  Shape **ov = arena_array(&im->hm->arena, (size_t)(idx.n ? idx.n : 1), sizeof(Shape *));
  IMP_NN(ov);
  for (int k = 0; k < idx.n; k++) {
    if (idx.v[k] != m + k)
      return imp_err(im, op, CXLA_UNIMPLEMENTED,
                     "shape operands must follow the others, in the order of the results");
    I64List d;
    TRY(const_ints(s, op, ops, m + k, &d));
    TRY(result_dims(s, op, k, d.v, d.n, &ov[k]));
  }
  override(im, op, ov, m);
  return NULL;
}

ImpFn imp_dynamic_custom_call(const char *target) {
  if (!strcmp(target, "stablehlo.dynamic_top_k")) return cc_top_k;
  if (!strcmp(target, "stablehlo.dynamic_approx_top_k")) return cc_approx_top_k;
  if (!strcmp(target, "stablehlo.dynamic_rng_bit_generator")) return cc_rng_bit_generator;
  if (!strcmp(target, "stablehlo.dynamic_reduce_window")) return cc_reduce_window;
  if (!strcmp(target, "shape_assertion")) return cc_shape_assertion;
  return NULL;
}
