/* Helpers shared by the data-movement evaluators. See data_common.h. */
#include "interp/data_common.h"

#include <math.h>
#include <string.h>

#include "interp/ew_scalar.h"

/* ---- copies ---------------------------------------------------------------- */

/* The innermost dimension, with a constant element size so that memcpy
 * becomes a plain load/store. */
#define COPY_ROW(SZ)                                                          \
  for (int64_t i = 0; i < n; i++) memcpy(dst + i * ds, src + i * ss, SZ);     \
  break;

static void copy_row(int64_t n, char *dst, int64_t ds, const char *src, int64_t ss, int esize) {
  ds *= esize;
  ss *= esize;
  if (ds == esize && ss == esize) {
    memcpy(dst, src, (size_t)(n * esize));
    return;
  }
  switch (esize) {
  case 1: COPY_ROW(1)
  case 2: COPY_ROW(2)
  case 4: COPY_ROW(4)
  case 8: COPY_ROW(8)
  case 16: COPY_ROW(16)
  default:
    for (int64_t i = 0; i < n; i++) memcpy(dst + i * ds, src + i * ss, (size_t)esize);
  }
}

void strided_copy(int rank, const int64_t *dims, char *dst, const int64_t *dstride,
                  const char *src, const int64_t *sstride, int esize) {
  if (rank == 0) {
    memcpy(dst, src, (size_t)esize);
    return;
  }
  if (rank == 1) {
    copy_row(dims[0], dst, dstride[0], src, sstride[0], esize);
    return;
  }
  for (int64_t i = 0; i < dims[0]; i++)
    strided_copy(rank - 1, dims + 1, dst + i * dstride[0] * esize, dstride + 1,
                 src + i * sstride[0] * esize, sstride + 1, esize);
}

void fill_elems(char *dst, int64_t n, const void *val, int esize) {
  if (n <= 0) return;
  memcpy(dst, val, (size_t)esize);
  /* Doubling copies: O(log n) memcpy calls. */
  int64_t done = 1;
  while (done < n) {
    int64_t k = done < n - done ? done : n - done;
    memcpy(dst + done * esize, dst, (size_t)(k * esize));
    done += k;
  }
}

int64_t index_value(const Literal *l, int64_t i) {
  if (l->type == T_U64) {
    uint64_t u;
    memcpy(&u, (const char *)l->data + i * 8, 8);
    return u > (uint64_t)INT64_MAX ? INT64_MAX : (int64_t)u;
  }
  return literal_get_i64(l, i);
}

cxla_status check_rank(const Instr *in, int rank) {
  if (rank > DATA_MAX_RANK)
    return interp_error(in, CXLA_UNIMPLEMENTED, "rank %d is above the interpreter's limit of %d",
                        rank, DATA_MAX_RANK);
  return NULL;
}

cxla_status check_array(const Instr *in, const Literal *l, const char *what) {
  if (!l || l->type == T_TUPLE || !type_is_array(l->type))
    return interp_error(in, CXLA_INVALID_ARGUMENT, "%s is not an array", what);
  if (l->unknown) return interp_error(in, CXLA_FAILED_PRECONDITION, "%s has unknown contents", what);
  return check_rank(in, l->rank);
}

/* ---- scalar arithmetic ------------------------------------------------------ */

bool binop_supported(Opcode op, ElemType t) {
  /* Probe the elementwise kernel once on zeros: it answers false for an op
   * it does not define on t (and integer division by zero is defined). */
  unsigned char a[16] = {0}, out[16];
  return type_is_array(t) && type_bytes(t) <= 16 && ew_scalar_binary(op, t, a, a, out);
}

void binop_apply(Opcode op, ElemType t, void *out, const void *a, const void *b) {
  (void)ew_scalar_binary(op, t, a, b, out);
}

/* ---- comparisons --------------------------------------------------------------- */

static int total_cmp_double(double a, double b) {
  /* Classes: -NaN < numbers < +NaN; among numbers -0 < +0. */
  int ca = isnan(a) ? (signbit(a) ? -1 : 1) : 0;
  int cb = isnan(b) ? (signbit(b) ? -1 : 1) : 0;
  if (ca != cb) return ca < cb ? -1 : 1;
  if (ca) return 0;
  if (a < b) return -1;
  if (a > b) return 1;
  int sa = signbit(a) ? 1 : 0, sb = signbit(b) ? 1 : 0;
  return sb - sa; /* -0 (sa=1) before +0 */
}

int elem_total_cmp(ElemType t, const void *a, const void *b) {
  switch (type_kind(t)) {
  case TK_FLOAT: return total_cmp_double(ew_load_float(t, a, 0), ew_load_float(t, b, 0));
  case TK_COMPLEX: {
    EwComplex x = ew_load_complex(t, a, 0), y = ew_load_complex(t, b, 0);
    int c = total_cmp_double(x.re, y.re);
    return c ? c : total_cmp_double(x.im, y.im);
  }
  case TK_UINT: {
    uint64_t x = (uint64_t)ew_load_int(t, a, 0), y = (uint64_t)ew_load_int(t, b, 0);
    return x < y ? -1 : x > y;
  }
  default: {
    int64_t x = ew_load_int(t, a, 0), y = ew_load_int(t, b, 0);
    return x < y ? -1 : x > y;
  }
  }
}

bool elem_compare(CmpDir dir, CmpType ct, ElemType t, const void *a, const void *b) {
  return ew_scalar_compare(dir, ct, t, a, b);
}

CompareFn compare_fn_of(const Computation *c) {
  CompareFn f = {0};
  const Instr *r = c ? c->root : NULL;
  if (!r || r->op != OP_COMPARE || r->noperands != 2) return f;
  const Instr *a = r->operands[0], *b = r->operands[1];
  if (a->op != OP_PARAMETER || b->op != OP_PARAMETER) return f;
  if (a->shape->rank != 0 || b->shape->rank != 0) return f;
  f.ok = true;
  f.lhs_param = a->param_number;
  f.rhs_param = b->param_number;
  f.dir = r->cmp_dir;
  f.type = r->cmp_type;
  return f;
}

/* ---- scalar calls ------------------------------------------------------------------ */

/* Whether instruction x of a scalar program holds one array element (of
 * at most SCALL_SLOT bytes). */
static bool scalar_slot(const Instr *x) {
  const Shape *sh = x->shape;
  return sh && type_is_array(sh->type) && sh->rank == 0 && type_bytes(sh->type) <= SCALL_SLOT;
}

/* Where instruction x's element is during and after a straight-line run (a
 * parameter's in its argument, the others' in their slots). */
static const void *scall_value(const ScalarCall *sc, const Instr *x) {
  return x->op == OP_PARAMETER ? sc->args[x->param_number]->data : sc->slots + (size_t)x->id * SCALL_SLOT;
}

/* Builds sc's straight-line program where its computation is one: every
 * live instruction a scalar parameter (of the argument's type), a scalar
 * constant or an elementwise op (not map) on scalars, the root one of
 * these or a tuple of them; the computation free of side effects. Leaves
 * nprog 0 otherwise (the calls then go through interp_call). Linear in the
 * computation's size. */
static cxla_status scall_compile(ScalarCall *sc, const ElemType *arg_types) {
  const Computation *c = sc->comp;
  int n = c->ninstrs;
  if (c->side_effects || n <= 0 || !c->root) return NULL;
  bool *live = cxla_calloc((size_t)n, sizeof *live);
  if (!live) return cxla_oom();
  live[c->root->id] = true;
  bool ok = true;
  int nlive = 0;
  for (int i = n - 1; i >= 0 && ok; i--) {
    if (!live[i]) continue;
    const Instr *x = c->instrs[i];
    nlive++;
    if (x->id != i) ok = false;
    else if (x == c->root && x->op == OP_TUPLE) {
      for (int k = 0; k < x->noperands; k++) ok = ok && scalar_slot(x->operands[k]);
    } else if (!scalar_slot(x)) ok = false;
    else if (x->op == OP_PARAMETER)
      ok = x->param_number >= 0 && x->param_number < sc->nargs && arg_types[x->param_number] == x->shape->type;
    else if (x->op == OP_CONSTANT)
      ok = x->literal && x->literal->type == x->shape->type && x->literal->nelems == 1 && !x->literal->unknown;
    else
      ok = (op_info(x->op)->flags & OPF_EW) && !(op_info(x->op)->flags & OPF_SIDE) && x->op != OP_MAP &&
           x->noperands <= 3 && x->ncalled == 0;
    for (int k = 0; ok && k < x->noperands; k++) {
      const Instr *o = x->operands[k];
      if (o->parent != c || o->id < 0 || o->id >= i || c->instrs[o->id] != o) ok = false;
      else live[o->id] = true;
    }
  }
  if (!ok) {
    cxla_free(live);
    return NULL;
  }
  sc->prog = cxla_malloc((size_t)nlive * sizeof *sc->prog);
  sc->ops = cxla_malloc((size_t)nlive * 3 * sizeof *sc->ops);
  sc->slots = cxla_calloc((size_t)n, SCALL_SLOT);
  if (!sc->prog || !sc->ops || !sc->slots) {
    cxla_free(live);
    return cxla_oom();
  }
  sc->nlive = nlive;
  for (int i = 0; i < n; i++) {
    const Instr *x = c->instrs[i];
    if (!live[i]) continue;
    /* what interp_call would charge: 1 for a parameter, 1 + the elements
     * of the operands and of the result for every other instruction */
    sc->work += x->op == OP_PARAMETER ? 1
                : x->op == OP_TUPLE   ? 1 + (uint64_t)x->noperands
                                      : 2 + (uint64_t)x->noperands;
    if (x->op == OP_PARAMETER || x->op == OP_TUPLE) continue;
    if (x->op == OP_CONSTANT) {
      memcpy(sc->slots + (size_t)i * SCALL_SLOT, x->literal->data, (size_t)type_bytes(x->shape->type));
      continue;
    }
    for (int k = 0; k < x->noperands; k++) sc->ops[sc->nprog * 3 + k] = scall_value(sc, x->operands[k]);
    sc->prog[sc->nprog++] = x;
  }
  cxla_free(live);
  return NULL;
}

/* Runs sc's straight-line program; false where an op is not defined on
 * its types (then interp_call reports it). */
static bool scall_run_prog(ScalarCall *sc) {
  for (int i = 0; i < sc->nprog; i++) {
    const Instr *x = sc->prog[i];
    if (!ew_scalar_eval(x, sc->ops + 3 * i, sc->slots + (size_t)x->id * SCALL_SLOT)) return false;
  }
  return true;
}

cxla_status scall_init(ScalarCall *sc, Interp *ip, const Instr *in, const Computation *comp,
                       int nargs, const ElemType *arg_types) {
  memset(sc, 0, sizeof *sc);
  sc->ip = ip;
  sc->in = in;
  sc->comp = comp;
  if (!comp) return interp_error(in, CXLA_INVALID_ARGUMENT, "missing called computation");
  if (comp->nparams != nargs)
    return interp_error(in, CXLA_INVALID_ARGUMENT, "computation %s takes %d parameters, expected %d",
                        comp->name, comp->nparams, nargs);
  sc->args = cxla_calloc((size_t)(nargs ? nargs : 1), sizeof(Literal *));
  if (!sc->args) return cxla_oom();
  sc->nargs = nargs;
  for (int i = 0; i < nargs; i++) {
    cxla_status s = literal_create(arg_types[i], 0, NULL, &sc->args[i]);
    if (s) {
      scall_free(sc);
      return s;
    }
  }
  cxla_status s = scall_compile(sc, arg_types);
  if (s) scall_free(sc);
  return s;
}

void scall_free(ScalarCall *sc) {
  if (sc->args)
    for (int i = 0; i < sc->nargs; i++) literal_free(sc->args[i]);
  cxla_free(sc->args);
  sc->args = NULL;
  sc->nargs = 0;
  cxla_free(sc->prog);
  cxla_free(sc->ops);
  cxla_free(sc->slots);
  sc->nlive = 0;
  sc->work = 0;
  sc->prog = NULL;
  sc->ops = NULL;
  sc->slots = NULL;
  sc->nprog = 0;
}

static cxla_status take_scalar(const ScalarCall *sc, const Literal *v, ElemType t, void *out) {
  if (!v || v->type != t || v->nelems != 1 || v->unknown)
    return interp_error(sc->in, CXLA_INVALID_ARGUMENT,
                        "computation %s returned a value that is not a %s scalar",
                        sc->comp->name, type_name(t));
  memcpy(out, v->data, (size_t)type_bytes(t));
  return NULL;
}

cxla_status scall_run(ScalarCall *sc, int nres, const ElemType *res_types, void *const *outs) {
  const Instr *root = sc->comp->root;
  if (sc->slots && (root->op == OP_TUPLE ? root->noperands == nres : nres == 1) && scall_run_prog(sc)) {
    for (int i = 0; i < nres; i++) {
      const Instr *v = root->op == OP_TUPLE ? root->operands[i] : root;
      if (v->shape->type != res_types[i]) {
        nres = -1;
        break;
      }
      memcpy(outs[i], scall_value(sc, v), (size_t)type_bytes(res_types[i]));
    }
    if (nres >= 0) return sc->ip ? interp_charge(sc->ip, root, sc->work, sc->nlive) : NULL;
  }
  Literal *r = NULL;
  TRY(interp_call(sc->ip, sc->comp, sc->args, sc->nargs, &r));
  cxla_status s = NULL;
  if (r->type == T_TUPLE) {
    if (r->ntuple != nres)
      s = interp_error(sc->in, CXLA_INVALID_ARGUMENT, "computation %s returned %d values, expected %d",
                       sc->comp->name, r->ntuple, nres);
    for (int i = 0; !s && i < nres; i++) s = take_scalar(sc, r->tuple[i], res_types[i], outs[i]);
  } else if (nres == 1) {
    s = take_scalar(sc, r, res_types[0], outs[0]);
  } else {
    s = interp_error(sc->in, CXLA_INVALID_ARGUMENT, "computation %s returned one value, expected %d",
                     sc->comp->name, nres);
  }
  literal_free(r);
  return s;
}

cxla_status scall_run_pred(ScalarCall *sc, bool *out) {
  uint8_t b = 0;
  void *outs[1] = {&b};
  ElemType t = T_PRED;
  TRY(scall_run(sc, 1, &t, outs));
  *out = b != 0;
  return NULL;
}
