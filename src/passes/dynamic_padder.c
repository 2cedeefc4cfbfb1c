/* The dynamic padder: bounded dynamic dimensions made static (see
 * dynamic_padder.h for what it does to each op).
 *
 * One walk over each computation in post order. For an instruction of the
 * original module, size[id] is NULL when every dimension of its value is
 * static, else one entry per dimension of its leaves (depth first): the
 * s32[] instruction holding that dimension's size, or NULL. repl[id] is
 * what its users read instead of it (set-dimension-size: its data), or
 * NULL. An instruction's operands are looked up before they are replaced:
 * the sizes belong to the value the original operand named. */
#include "passes/dynamic_padder.h"

#include <stdio.h>
#include <string.h>

#include "ir/rewrite.h"
#include "passes/expander_util.h"
#include "passes/passes.h"
#include "verify/verify.h"

struct Pad {
  HloModule *m;
  Computation *c;
  Arena a;        /* the walk's own memory */
  int n;          /* instructions of c before the walk */
  Instr ***size;  /* size[id] */
  Instr **repl;   /* repl[id] */
  int **offs;     /* offs[id]: for a tuple, each element's first dim in its flat list (made once) */
  struct SliceList *keep; /* the keep form's SliceToDynamic results (NULL: the expose form) */
};

/* A SliceToDynamic made for the entry's result in the keep form: its
 * shape's dynamic flags, set once every other shape's are cleared. */
typedef struct SliceMark {
  Instr *call;
  bool *dyn;      /* rank flags, in the module arena */
} SliceMark;

typedef struct SliceList {
  SliceMark *v;   /* cxla_realloc'd */
  int n;
} SliceList;

static cxla_status unsupported(const Instr *in, const char *why) {
  return ERR(UNIMPLEMENTED,
             "%%%s (%s): %s; cxla's dynamic padder (TensorFlow's bounded dynamic shapes) does not "
             "handle it", in->name, op_name(in->op), why);
}

typedef struct Pad Pad;
static cxla_status pad_conv(Pad *P, Instr *in, Instr **xs, Instr **ks, Instr **osz);
static cxla_status check_built(Pad *P, const Instr *from, const Instr *built);

static bool is_custom(const Instr *in, const char *target) {
  return in->op == OP_CUSTOM_CALL && in->custom_call_target &&
         strcmp(in->custom_call_target, target) == 0;
}

/* TensorFlow's custom calls over dynamic dims, which the pass turns into
 * HLO ops (a static operand included): SAME pooling and convolutions and
 * their gradients. */
static bool is_tf_dynamic_op(const Instr *in) {
  return is_custom(in, "DynamicConvolutionForward") || is_custom(in, "DynamicReduceWindowSamePadding") ||
         is_custom(in, "DynamicConvolutionInputGrad") || is_custom(in, "DynamicConvolutionKernelGrad") ||
         is_custom(in, "DynamicSelectAndScatterSamePadding");
}

/* Dimensions of all leaves of s, depth first. */
static int flat_dims(const Shape *s) {
  if (s->type != T_TUPLE) return type_is_array(s->type) ? s->rank : 0;
  int n = 0;
  for (int i = 0; i < s->ntuple; i++) n += flat_dims(s->tuple[i]);
  return n;
}

static bool shape_dynamic(const Shape *s) {
  if (s->type == T_TUPLE) {
    for (int i = 0; i < s->ntuple; i++)
      if (shape_dynamic(s->tuple[i])) return true;
    return false;
  }
  for (int d = 0; s->dynamic && d < s->rank; d++)
    if (s->dynamic[d]) return true;
  return false;
}

static void clear_dynamic(Shape *s) {
  if (!s) return;
  if (s->type == T_TUPLE)
    for (int i = 0; i < s->ntuple; i++) clear_dynamic(s->tuple[i]);
  s->dynamic = NULL;
}

bool dynamic_padder_needed(const HloModule *m) {
  for (int ci = 0; ci < m->ncomps; ci++) {
    const Computation *c = m->comps[ci];
    for (int i = 0; i < c->ninstrs; i++) {
      const Instr *in = c->instrs[i];
      if (in->op == OP_SET_DIMENSION_SIZE || in->op == OP_DYNAMIC_RESHAPE ||
          is_custom(in, "SliceToDynamic") || is_tf_dynamic_op(in) ||
          shape_dynamic(in->shape))
        return true;
    }
  }
  return false;
}

/* ---- builders (each appends to P->c; NULL: out of memory) ---- */

static Shape *new_shape(Pad *P, ElemType t, int rank, const int64_t *dims) {
  Shape *s = shape_new(&P->m->arena, t, rank, dims);
  if (s && shape_set_default_layout(&P->m->arena, s)) return NULL; /* only OOM */
  return s;
}

static Instr *k_s32(Pad *P, int64_t v) { return eu_scalar(P->c, T_S32, (double)v); }

static Instr *bin(Pad *P, Opcode op, Instr *a, Instr *b) {
  return a && b ? eu_binary(P->c, op, a, b) : NULL;
}

/* The size of dimension d of a value whose sizes are sz (NULL: static). */
static Instr *size_of(Pad *P, Instr **sz, int d, int64_t bound) {
  return sz && sz[d] ? sz[d] : k_s32(P, bound);
}

static Instr *bcast(Pad *P, Instr *scalar, int rank, const int64_t *dims) {
  return scalar ? eu_broadcast(P->c, scalar, rank, dims, 0, NULL) : NULL;
}

static Instr *iota(Pad *P, int rank, const int64_t *dims, int d) {
  Shape *s = new_shape(P, T_S32, rank, dims);
  Instr *in = s ? comp_add_instr(P->c, OP_IOTA, s, 0, NULL, NULL) : NULL;
  if (!in) return NULL;
  in->attrs |= A_IOTA_DIM;
  in->index = d;
  return in;
}

static Instr *cmp(Pad *P, Instr *a, Instr *b, CmpDir dir) {
  if (!a || !b) return NULL;
  Shape *s = new_shape(P, T_PRED, a->shape->rank, a->shape->dims);
  Instr *ops[2] = {a, b};
  Instr *in = s ? comp_add_instr(P->c, OP_COMPARE, s, 2, ops, NULL) : NULL;
  if (!in) return NULL;
  in->attrs |= A_COMPARE;
  in->cmp_dir = dir;
  return in;
}

static Instr *sel(Pad *P, Instr *p, Instr *a, Instr *b) {
  if (!p || !a || !b) return NULL;
  Instr *ops[3] = {p, a, b};
  Shape *s = shape_clone(&P->m->arena, a->shape);
  return s ? comp_add_instr(P->c, OP_SELECT, s, 3, ops, NULL) : NULL;
}

/* pred: iota along d < size, over dims (the valid part of dimension d). */
static Instr *valid(Pad *P, int rank, const int64_t *dims, int d, Instr *size) {
  return cmp(P, iota(P, rank, dims, d), bcast(P, size, rank, dims), CMP_LT);
}

/* x with fill (a scalar of x's type) past size along d. */
static Instr *mask(Pad *P, Instr *x, int d, Instr *size, Instr *fill) {
  const Shape *s = x->shape;
  return sel(P, valid(P, s->rank, s->dims, d, size), x, bcast(P, fill, s->rank, s->dims));
}

/* x with fill past every dynamic size in sz (dims where want[d]; want
 * NULL: all). */
static Instr *mask_all(Pad *P, Instr *x, Instr **sz, const bool *want, Instr *fill) {
  for (int d = 0; x && sz && d < x->shape->rank; d++)
    if (sz[d] && (!want || want[d])) x = mask(P, x, d, sz[d], fill);
  return x;
}

static Instr *zero_of(Pad *P, ElemType t) { return eu_scalar(P->c, t, 0.0); }

/* get-tuple-element(t), index k. */
static Instr *gte(Pad *P, Instr *t, int k) {
  Shape *s = shape_clone(&P->m->arena, t->shape->tuple[k]);
  Instr *g = s ? comp_add_instr(P->c, OP_GET_TUPLE_ELEMENT, s, 1, &t, NULL) : NULL;
  if (g) {
    g->attrs |= A_INDEX;
    g->index = k;
  }
  return g;
}

/* ---- the walk ---- */

/* What Computation.scratch holds during the run (its first field says
 * which). */
enum { SCRATCH_ROOT_SIZES = 1, SCRATCH_LOOP_STATE, SCRATCH_BRANCH_PARAM };

/* A computation whose root has dynamic sizes: its root's sizes, for the
 * one instruction that calls it (a conditional). */
typedef struct RootSizes {
  int kind;       /* SCRATCH_ROOT_SIZES */
  int n;          /* flat dims of the root */
  Instr **sz;     /* n entries, NULL where static */
  int callers;    /* instructions that call the computation */
} RootSizes;

/* The dims of a parameter's type, depth first: which are dynamic. */
typedef struct DimTable {
  int k;          /* dynamic dims */
  int *flat;      /* k entries: each dynamic dim's place among the nd */
  int nd;         /* flat dims */
  bool *is_dyn;   /* nd entries */
  int64_t *bound; /* nd entries: the dims' bounds */
} DimTable;

/* A while loop whose state has dynamic dims (its body's parameter type
 * says which): the state tuple gets one s32[] element per dynamic dim
 * after its own n, in the loop, its body (parameter and root) and its
 * condition (parameter). Shared by body and condition. */
typedef struct LoopState {
  int kind;       /* SCRATCH_LOOP_STATE */
  int n;          /* elements of the state as written */
  DimTable t;
  Shape *ext;     /* tuple(state elements..., s32[] x t.k) */
  Computation *body;
} LoopState;

/* A conditional's branch whose parameter type has dynamic dims: its
 * parameter becomes tuple(parameter as written, s32[] x t.k), and its one
 * caller hands it the operand's sizes (the bound where it has none). */
typedef struct BranchParam {
  int kind;        /* SCRATCH_BRANCH_PARAM */
  DimTable t;
  Shape *ext;
  RootSizes *root; /* its root's sizes once walked; NULL: static */
} BranchParam;

static RootSizes *root_sizes(const Computation *c) {
  if (!c || !c->scratch) return NULL;
  int kind = *(int *)c->scratch;
  if (kind == SCRATCH_BRANCH_PARAM) return ((BranchParam *)c->scratch)->root;
  return kind == SCRATCH_ROOT_SIZES ? c->scratch : NULL;
}

static BranchParam *branch_param(const Computation *c) {
  return c && c->scratch && *(int *)c->scratch == SCRATCH_BRANCH_PARAM ? c->scratch : NULL;
}

/* Whether a computation in calls gives a result of dynamic size. */
static bool calls_dynamic(const Instr *in) {
  for (int k = 0; k < in->ncalled; k++)
    if (root_sizes(in->called[k])) return true;
  return false;
}

static bool calls_branch_param(const Instr *in) {
  for (int k = 0; k < in->ncalled; k++)
    if (branch_param(in->called[k])) return true;
  return false;
}

static LoopState *loop_state(const Computation *c) {
  return c && c->scratch && *(int *)c->scratch == SCRATCH_LOOP_STATE ? c->scratch : NULL;
}

/* The bounds of every dim of s's leaves, depth first, into out[*at..]
 * (tuple nesting is bounded by the readers). */
static void flat_bounds(const Shape *s, int64_t *out, int *at) {
  if (s->type == T_TUPLE) {
    for (int i = 0; i < s->ntuple; i++) flat_bounds(s->tuple[i], out, at);
    return;
  }
  for (int d = 0; type_is_array(s->type) && d < s->rank; d++) out[(*at)++] = s->dims[d];
}

/* A conditional whose branches give dynamic results: each branch returns
 * tuple(result, sizes...) (a branch where a dim is static gives its
 * bound), and the users read element 0 and the sizes from the rest. */
static cxla_status pad_conditional(Pad *P, Instr *in, Instr **osz, Instr **out) {
  HloModule *m = P->m;
  int nd = flat_dims(in->shape), nb = in->ncalled;
  int *which = arena_array(&P->a, (size_t)nd + 1, sizeof(int));
  int64_t *bound = arena_array(&P->a, (size_t)nd + 1, sizeof(int64_t));
  if (!which || !bound) return cxla_oom();
  int k = 0;
  for (int e = 0; e < nd; e++) {
    bool dyn = false;
    for (int b = 0; b < nb; b++) {
      const RootSizes *r = root_sizes(in->called[b]);
      if (!r) continue;
      if (r->callers != 1) return unsupported(in, "a branch with dynamic results that other instructions call too");
      if (r->n != nd) return unsupported(in, "a branch whose result does not match");
      dyn |= r->sz[e] != NULL;
    }
    which[e] = dyn ? k++ : -1;
  }
  int at = 0;
  flat_bounds(in->shape, bound, &at);
  Shape **leaves = arena_array(&m->arena, (size_t)k + 2, sizeof(Shape *));
  if (!leaves) return cxla_oom();
  leaves[0] = in->shape;
  for (int j = 0; j < k; j++)
    if (!(leaves[1 + j] = new_shape(P, T_S32, 0, NULL))) return cxla_oom();
  Shape *ts = shape_new_tuple(&m->arena, k + 1, leaves);
  if (!ts) return cxla_oom();
  Computation *save = P->c;
  for (int b = 0; b < nb; b++) {
    Computation *f = in->called[b];
    const RootSizes *r = root_sizes(f);
    Instr **ops = arena_array(&P->a, (size_t)k + 2, sizeof(Instr *));
    if (!ops) return cxla_oom();
    P->c = f;
    ops[0] = f->root;
    for (int e = 0; e < nd; e++)
      if (which[e] >= 0 && !(ops[1 + which[e]] = r && r->sz[e] ? r->sz[e] : k_s32(P, bound[e]))) {
        P->c = save;
        return cxla_oom();
      }
    Shape *bs = shape_clone(&m->arena, ts);
    Instr *t = bs ? comp_add_instr(f, OP_TUPLE, bs, k + 1, ops, NULL) : NULL;
    P->c = save;
    if (!t) return cxla_oom();
    f->root = t;
    if (branch_param(f))
      branch_param(f)->root = NULL;
    else
      f->scratch = NULL;
  }
  Shape *cs = shape_clone(&m->arena, ts);
  Instr *nc = cs ? instr_clone(P->c, in, in->noperands, in->operands, NULL) : NULL;
  if (!nc) return cxla_oom();
  nc->shape = cs;
  Instr *res = gte(P, nc, 0);
  if (!res) return cxla_oom();
  for (int e = 0; e < nd; e++)
    if (which[e] >= 0 && !(osz[e] = gte(P, nc, 1 + which[e]))) return cxla_oom();
  instr_retire(in);
  *out = res;
  return NULL;
}

static Instr **new_sizes(Pad *P, const Shape *s) {
  int n = flat_dims(s);
  Instr **v = arena_array(&P->a, (size_t)(n ? n : 1), sizeof *v);
  if (v) memset(v, 0, (size_t)(n ? n : 1) * sizeof *v);
  return v;
}

static bool any_size(Instr **sz, int n) {
  for (int i = 0; sz && i < n; i++)
    if (sz[i]) return true;
  return false;
}

/* The sizes of operand value o (an instruction of c, before replacement). */
static Instr **sizes_of(Pad *P, const Instr *o) {
  return o->id >= 0 && o->id < P->n && P->c->instrs[o->id] == o ? P->size[o->id] : NULL;
}

static Instr *resolve(Pad *P, Instr *o) {
  return o->id >= 0 && o->id < P->n && P->c->instrs[o->id] == o && P->repl[o->id] ? P->repl[o->id] : o;
}

/* Offset of tuple element k's first dim in the flat list of tuple t's
 * dims: prefix sums made once per tuple, so that many
 * get-tuple-elements of a wide tuple cost one pass over it. -1: OOM. */
static int leaf_offset(Pad *P, const Instr *t, int k) {
  const Shape *s = t->shape;
  bool mine = t->id >= 0 && t->id < P->n && P->c->instrs[t->id] == t;
  int *o = mine ? P->offs[t->id] : NULL;
  if (!o) {
    if (!(o = arena_array(&P->a, (size_t)s->ntuple + 1, sizeof(int)))) return -1;
    o[0] = 0;
    for (int i = 0; i < s->ntuple; i++) o[i + 1] = o[i] + flat_dims(s->tuple[i]);
    if (mine) P->offs[t->id] = o;
  }
  return k >= 0 && k <= s->ntuple ? o[k] : 0;
}

/* A reshape of a value whose data is not where the reshape would read
 * it: each element of the result (in its bounds) gathered from its
 * position in x's padded data. The result's element at index o (under
 * its sizes osz) is the L-th of the logical array, L = row-major rank of
 * o under osz; L's digits under x's sizes isz are its index in x, whose
 * position in x's bounds is read. Elements past the sizes read whatever
 * (their index is clamped): they are padding. */
static Instr *reshape_gather(Pad *P, Instr *x, Instr **isz, const Shape *out, Instr **osz) {
  const Shape *xs = x->shape;
  int ro = out->rank;
  int64_t total = shape_elems(xs);
  if (total > INT32_MAX || shape_elems(out) > INT32_MAX) return NULL; /* the caller refuses it */
  Shape *fs = new_shape(P, xs->type, 1, &total);
  Instr *flat = fs ? comp_add_instr(P->c, OP_RESHAPE, fs, 1, &x, NULL) : NULL;
  Instr *L = NULL;
  for (int j = 0; j < ro && flat; j++) {
    Instr *io = iota(P, ro, out->dims, j);
    Instr *sz = bcast(P, size_of(P, osz, j, out->dims[j]), ro, out->dims);
    L = L ? bin(P, OP_ADD, bin(P, OP_MULTIPLY, L, sz), io) : io;
  }
  if (!L) L = bcast(P, k_s32(P, 0), ro, out->dims);
  Instr *src = NULL;
  int64_t stride = 1;
  for (int d = xs->rank - 1; d >= 0 && L; d--) {
    Instr *sz = bcast(P, size_of(P, isz, d, xs->dims[d]), ro, out->dims);
    Instr *digit = d ? bin(P, OP_REMAINDER, L, sz) : L;
    if (d) L = bin(P, OP_DIVIDE, L, sz);
    Instr *part = stride == 1 ? digit : bin(P, OP_MULTIPLY, digit, bcast(P, k_s32(P, stride), ro, out->dims));
    src = src ? bin(P, OP_ADD, src, part) : part;
    stride *= xs->dims[d];
  }
  if (!src) src = L;
  if (!flat || !src) return NULL;
  Shape *gs = new_shape(P, xs->type, ro, out->dims);
  Instr *ops[2] = {flat, src};
  Instr *g = gs ? comp_add_instr(P->c, OP_GATHER, gs, 2, ops, NULL) : NULL;
  if (!g) return NULL;
  Arena *a = &P->m->arena;
  int64_t zero = 0, one = 1;
  g->attrs |= A_GATHER_DIMS | A_SLICE_SIZES;
  g->gather.collapsed_slice_dims = (I64List){1, arena_i64dup(a, &zero, 1)};
  g->gather.start_index_map = (I64List){1, arena_i64dup(a, &zero, 1)};
  g->gather.index_vector_dim = ro;
  g->slice_sizes = (I64List){1, arena_i64dup(a, &one, 1)};
  if (!g->gather.collapsed_slice_dims.v || !g->gather.start_index_map.v || !g->slice_sizes.v) return NULL;
  return g;
}

static bool too_big(const Instr *in) {
  return shape_elems(in->operands[0]->shape) > INT32_MAX || shape_elems(in->shape) > INT32_MAX;
}

/* Reshape: maps in's dynamic dims onto out's. Dims of size 1 are set
 * aside; the rest fall into groups of equal products. Where a dynamic dim
 * is the first of its group's input dims, the data stays where it is: the
 * group's first output dim takes its size, scaled by the rest of the
 * group's dims. A group of several input dims merged into one output dim
 * with a dynamic dim after the first takes the product of the sizes, and
 * the data is gathered into place (*out). */
static cxla_status pad_reshape(Pad *P, Instr *in, Instr **isz, Instr **osz, Instr **out) {
  bool gather = false;
  const Shape *x = in->operands[0]->shape, *y = in->shape;
  int ri = x->rank, ro = y->rank;
  int *ii = arena_array(&P->a, (size_t)ri + 1, sizeof(int));
  int *oo = arena_array(&P->a, (size_t)ro + 1, sizeof(int));
  if (!ii || !oo) return cxla_oom();
  int ni = 0, no = 0;
  for (int d = 0; d < ri; d++) {
    if (x->dims[d] == 0) return unsupported(in, "a reshape of an empty array with a dynamic dimension");
    if (x->dims[d] != 1) ii[ni++] = d; /* (a dynamic dim of bound 1 reads as static) */
  }
  for (int d = 0; d < ro; d++)
    if (y->dims[d] != 1) oo[no++] = d;
  int i = 0, j = 0;
  while (i < ni && j < no) {
    int i0 = i, j0 = j;
    int64_t pi = x->dims[ii[i++]], po = y->dims[oo[j++]];
    while (pi != po) {
      if (pi < po && i < ni) pi *= x->dims[ii[i++]];
      else if (po < pi && j < no) po *= y->dims[oo[j++]];
      else return unsupported(in, "a reshape whose dimensions do not group");
    }
    bool later = false;
    for (int k = i0 + 1; k < i; k++) later |= isz[ii[k]] != NULL;
    if (later) {
      if (j - j0 != 1) return unsupported(in, "a reshape that splits dimensions merged with a dynamic one");
      Instr *p = NULL;
      for (int k = i0; k < i; k++) p = p ? bin(P, OP_MULTIPLY, p, size_of(P, isz, ii[k], x->dims[ii[k]]))
                                         : size_of(P, isz, ii[k], x->dims[ii[k]]);
      if (!p) return cxla_oom();
      osz[oo[j0]] = p;
      gather = true;
      continue;
    }
    Instr *s = isz[ii[i0]];
    if (!s) continue;
    int64_t rest_in = 1, rest_out = 1;
    for (int k = i0 + 1; k < i; k++) rest_in *= x->dims[ii[k]];
    for (int k = j0 + 1; k < j; k++) rest_out *= y->dims[oo[k]];
    if (rest_in > 1) s = bin(P, OP_MULTIPLY, s, k_s32(P, rest_in));
    if (rest_out > 1) s = bin(P, OP_DIVIDE, s, k_s32(P, rest_out));
    if (!s) return cxla_oom();
    osz[oo[j0]] = s;
  }
  if (gather && !(*out = reshape_gather(P, in->operands[0], isz, in->shape, osz)))
    return too_big(in) ? unsupported(in, "more than 2^31 elements") : cxla_oom();
  return NULL;
}

/* dynamic-reshape(x, size_0, ..., size_r-1): the sizes given, the data
 * gathered into place (left where it lies when only dims of size 1 come
 * or go). */
static cxla_status pad_dynamic_reshape(Pad *P, Instr *in, Instr **isz, Instr **osz, Instr **out) {
  int ro = in->shape->rank;
  if (in->noperands != 1 + ro) return unsupported(in, "not one size operand a dimension");
  /* the sizes of the dims the result type calls dynamic (the others are
   * their bounds, as TensorFlow passes them) */
  for (int d = 0; d < ro; d++)
    if (in->shape->dynamic && in->shape->dynamic[d]) osz[d] = in->operands[1 + d];
  /* dims only added or removed where of size 1: the data stays where it
   * is, as XLA leaves it, and a size larger than the operand's reads what
   * lies past it (TensorFlow's AvgPoolGrad reads the row the pad of -1
   * left there) */
  const Shape *x = in->operands[0]->shape;
  int i = 0, j = 0;
  bool same = true;
  while (same) {
    while (i < x->rank && x->dims[i] == 1) i++;
    while (j < ro && in->shape->dims[j] == 1) j++;
    if (i == x->rank || j == ro) break;
    same = x->dims[i++] == in->shape->dims[j++];
  }
  while (i < x->rank && x->dims[i] == 1) i++;
  while (j < ro && in->shape->dims[j] == 1) j++;
  if (same && i == x->rank && j == ro) {
    Shape *rs = shape_clone(&P->m->arena, in->shape);
    Instr *r = rs ? comp_add_instr(P->c, OP_RESHAPE, rs, 1, &in->operands[0], NULL) : NULL;
    return (*out = r) ? NULL : cxla_oom();
  }
  if (!(*out = reshape_gather(P, in->operands[0], isz, in->shape, osz)))
    return too_big(in) ? unsupported(in, "more than 2^31 elements") : cxla_oom();
  return NULL;
}

/* The computations a custom call names in called_computations={%f, %g}
 * (kept as text by the reader): up to max into out; how many were found
 * (a name that names none ends the list). */
static int custom_callees(Pad *P, const Instr *in, Computation **out, int max) {
  int n = 0;
  for (; n < in->ncalled && n < max; n++) out[n] = in->called[n];
  if (n) return n;
  const char *v = instr_raw(in, "called_computations");
  while (v && n < max) {
    while (*v == '{' || *v == ' ' || *v == '%' || *v == ',') v++;
    size_t len = strcspn(v, "}, ");
    char name[256];
    if (len == 0 || len >= sizeof name) break;
    memcpy(name, v, len);
    name[len] = '\0';
    if (!(out[n] = module_find_computation(P->m, name))) break;
    n++;
    v += len;
  }
  return n;
}

/* The one computation a custom call names, or NULL. */
static Computation *custom_callee(Pad *P, const Instr *in) {
  Computation *f[2] = {NULL, NULL};
  return custom_callees(P, in, f, 2) == 1 ? f[0] : NULL;
}

/* x padded with fill by pd (a rank array in the module arena, giving
 * dims pdims), then the part of dims sdims from starts (one s32[] a dim):
 * what moves data by a size known at run time. NULL: out of memory. */
static Instr *pad_and_cut(Pad *P, Instr *x, Instr *fill, PadDim *pd, const int64_t *pdims, Instr *const *starts,
                          const int64_t *sdims) {
  int rank = x->shape->rank;
  Shape *ps = new_shape(P, x->shape->type, rank, pdims), *ss = new_shape(P, x->shape->type, rank, sdims);
  Instr **ops = arena_array(&P->a, (size_t)rank + 2, sizeof(Instr *));
  int64_t *sizes = arena_i64dup(&P->m->arena, sdims, (size_t)rank);
  Instr *pops[2] = {x, fill};
  Instr *padded = ps && ss && ops && sizes ? comp_add_instr(P->c, OP_PAD, ps, 2, pops, NULL) : NULL;
  if (!padded) return NULL;
  padded->attrs |= A_PADDING;
  padded->padding = pd;
  ops[0] = padded;
  memcpy(&ops[1], starts, (size_t)rank * sizeof *ops);
  Instr *ds = comp_add_instr(P->c, OP_DYNAMIC_SLICE, ss, rank + 1, ops, NULL);
  if (!ds) return NULL;
  ds->slice_sizes.v = sizes;
  ds->slice_sizes.n = rank;
  ds->attrs |= A_DYN_SLICE_SIZES;
  return ds;
}

/* ---- SAME padding over dynamic dims (pooling, strided convolutions) ----
 *
 * The padding before the data depends on the size s: out = ceil(s /
 * stride), total = max((out - 1) * stride + window - s, 0), lo = total / 2.
 * The data (its padding read as the op's identity) is written at lo into
 * a buffer of the identity one window longer than the bound, the op runs
 * without padding, and its result is cut to the bounds. */

/* lo for a dim of size `size` (an s32[] instruction); *out_size gets out. */
static Instr *same_pad_lo(Pad *P, Instr *size, int64_t stride, int64_t window, Instr **out_size) {
  Instr *st = k_s32(P, stride);
  Instr *o = bin(P, OP_DIVIDE, bin(P, OP_ADD, size, k_s32(P, stride - 1)), st);
  Instr *tot = bin(P, OP_ADD, bin(P, OP_MULTIPLY, bin(P, OP_SUBTRACT, o, k_s32(P, 1)), st), k_s32(P, window));
  tot = bin(P, OP_MAXIMUM, bin(P, OP_SUBTRACT, tot, size), k_s32(P, 0));
  *out_size = o;
  return bin(P, OP_DIVIDE, tot, k_s32(P, 2));
}

/* x written at starts (one s32[] a dim) into an array of dims filled
 * with fill (a scalar). */
static Instr *place(Pad *P, Instr *x, Instr *fill, const int64_t *dims, Instr *const *starts) {
  int rank = x->shape->rank;
  Instr **ops = arena_array(&P->a, (size_t)rank + 2, sizeof(Instr *));
  Shape *s = new_shape(P, x->shape->type, rank, dims);
  if (!ops || !s || !(ops[0] = bcast(P, fill, rank, dims))) return NULL;
  ops[1] = x;
  memcpy(&ops[2], starts, (size_t)rank * sizeof *ops);
  return comp_add_instr(P->c, OP_DYNAMIC_UPDATE_SLICE, s, rank + 2, ops, NULL);
}

/* The leading dims[d] elements of each dim of y. */
static Instr *leading(Pad *P, Instr *y, const int64_t *dims) {
  int rank = y->shape->rank;
  SliceDim *sl = arena_array(&P->m->arena, (size_t)rank + 1, sizeof(SliceDim));
  Shape *s = new_shape(P, y->shape->type, rank, dims);
  Instr *r = sl && s ? comp_add_instr(P->c, OP_SLICE, s, 1, &y, NULL) : NULL;
  if (!r) return NULL;
  for (int d = 0; d < rank; d++) sl[d] = (SliceDim){0, dims[d], 1};
  r->attrs |= A_SLICE;
  r->slice = sl;
  return r;
}

/* DynamicReduceWindowSamePadding(x, init) (TensorFlow's pooling over a
 * dynamic dim, SAME padding), as above with init as the identity. */
static cxla_status pad_dynamic_reduce_window(Pad *P, Instr *in, Instr **xs, Instr **osz, Instr **out) {
  Computation *f = custom_callee(P, in);
  if (in->noperands != 2 || !f || in->shape->type == T_TUPLE)
    return unsupported(in, "not one operand, one init value and one reducer");
  Instr *x = in->operands[0], *init = in->operands[1];
  const Shape *sx = x->shape, *sy = in->shape;
  int rank = sx->rank;
  if (in->nwindow != rank || sy->rank != rank || init->shape->rank != 0 || init->shape->type != sx->type)
    return unsupported(in, "a window, init value or result that does not fit its operand");
  int64_t *bdims = arena_array(&P->a, (size_t)rank + 1, sizeof(int64_t));
  int64_t *rdims = arena_array(&P->a, (size_t)rank + 1, sizeof(int64_t));
  Instr **starts = arena_array(&P->a, (size_t)rank + 1, sizeof(Instr *));
  WindowDim *w = arena_array(&P->m->arena, (size_t)rank + 1, sizeof(WindowDim));
  if (!bdims || !starts || !w || !rdims) return cxla_oom();
  for (int d = 0; d < rank; d++) {
    const WindowDim *wd = &in->window[d];
    if (wd->lhs_dilate != 1 || wd->rhs_dilate != 1 || wd->stride < 1 || wd->size < 1)
      return unsupported(in, "a dilated window");
    bdims[d] = sx->dims[d] + wd->size;
    w[d] = (WindowDim){wd->size, wd->stride, 0, 0, 1, 1, false};
    rdims[d] = sx->dims[d] / wd->stride + 1;
    if (rdims[d] < sy->dims[d]) return unsupported(in, "a result larger than SAME padding gives");
    Instr *o = NULL;
    if (!(starts[d] = same_pad_lo(P, size_of(P, xs, d, sx->dims[d]), wd->stride, wd->size, &o)))
      return cxla_oom();
    if (xs && xs[d]) {
      osz[d] = o;
      if (!(x = mask(P, x, d, xs[d], init))) return cxla_oom();
    }
  }
  Instr *buf = place(P, x, init, bdims, starts);
  Shape *rs = buf ? new_shape(P, sx->type, rank, rdims) : NULL;
  Instr *rops[2] = {buf, init};
  Instr *rw = rs ? comp_add_instr(P->c, OP_REDUCE_WINDOW, rs, 2, rops, NULL) : NULL;
  if (!rw || !(rw->called = arena_array(&P->m->arena, 1, sizeof(Computation *)))) return cxla_oom();
  rw->attrs |= A_WINDOW;
  rw->nwindow = rank;
  rw->window = w;
  rw->called[0] = f;
  rw->ncalled = 1;
  TRY(check_built(P, in, rw));
  return (*out = leading(P, rw, sy->dims)) ? NULL : cxla_oom();
}

/* DynamicConvolutionForward with SAME padding and a stride, as above with
 * zeros. c: the convolution (window without padding) still reading x. */
static cxla_status pad_same_strided_conv(Pad *P, Instr *c, Instr **xs, Instr **ks, Instr **osz, Instr **out) {
  const ConvDims *cd = &c->conv;
  Instr *x = c->operands[0];
  const Shape *sx = x->shape, *sy = c->shape;
  int rank = sx->rank, ns = cd->nspatial;
  int64_t *bdims = arena_i64dup(&P->a, sx->dims, (size_t)rank);
  int64_t *cdims = arena_i64dup(&P->a, sy->dims, (size_t)rank);
  Instr **starts = arena_array(&P->a, (size_t)rank + 1, sizeof(Instr *));
  Instr **xs2 = arena_array(&P->a, (size_t)rank + 1, sizeof(Instr *));
  WindowDim *w = arena_array(&P->m->arena, (size_t)ns + 1, sizeof(WindowDim));
  Instr **spatial_out = arena_array(&P->a, (size_t)ns + 1, sizeof(Instr *));
  Instr *zero = k_s32(P, 0);
  if (!bdims || !cdims || !starts || !xs2 || !w || !spatial_out || !zero) return cxla_oom();
  for (int d = 0; d < rank; d++) {
    starts[d] = zero;
    xs2[d] = xs ? xs[d] : NULL;
  }
  for (int s = 0; s < ns; s++) {
    int d = (int)cd->in_spatial[s];
    WindowDim wd = c->window[s];
    int64_t eff = (wd.size - 1) * wd.rhs_dilate + 1;
    wd.pad_lo = wd.pad_hi = 0;
    w[s] = wd;
    bdims[d] = sx->dims[d] + eff;
    cdims[cd->out_spatial[s]] = sx->dims[d] / wd.stride + 1;
    if (cdims[cd->out_spatial[s]] < sy->dims[cd->out_spatial[s]])
      return unsupported(c, "a result larger than SAME padding gives");
    Instr *o = NULL;
    if (!(starts[d] = same_pad_lo(P, size_of(P, xs, d, sx->dims[d]), wd.stride, eff, &o))) return cxla_oom();
    spatial_out[s] = xs && xs[d] ? o : NULL;
    if (xs && xs[d] && !(x = mask(P, x, d, xs[d], zero_of(P, sx->type)))) return cxla_oom();
    xs2[d] = NULL; /* the spatial sizes are handled here */
  }
  Instr *buf = place(P, x, zero_of(P, sx->type), bdims, starts);
  Shape *cs = buf ? new_shape(P, sy->type, rank, cdims) : NULL;
  if (!cs) return cxla_oom();
  c->operands[0] = buf;
  c->shape = cs;
  c->window = w;
  TRY(pad_conv(P, c, xs2, ks, osz));
  for (int s = 0; s < ns; s++)
    if (spatial_out[s]) osz[cd->out_spatial[s]] = spatial_out[s];
  return (*out = leading(P, c, sy->dims)) ? NULL : cxla_oom();
}

/* Whether the op built for TensorFlow's custom call `from` has the shape
 * its operands and attributes give (a custom call's attributes are not
 * verified): else the call is refused. */
static cxla_status check_built(Pad *P, const Instr *from, const Instr *built) {
  Shape *sh = NULL;
  cxla_status s = infer_shape(&P->a, built, &sh);
  bool ok = !s && sh && shape_compatible(sh, built->shape);
  if (s && cxla_status_code_of(s) == CXLA_RESOURCE_EXHAUSTED) return s;
  cxla_status_free(s);
  return ok ? NULL : unsupported(from, "attributes that do not fit its operands");
}

/* Whether n window dims are ones TensorFlow writes: sizes, strides and
 * dilations positive (a custom call's window is not verified). */
static bool window_ok(const WindowDim *w, int n) {
  for (int i = 0; i < n; i++)
    if (w[i].size < 1 || w[i].stride < 1 || w[i].lhs_dilate < 1 || w[i].rhs_dilate < 1) return false;
  return true;
}

/* A convolution of lhs and rhs with the attributes (window, dim_labels,
 * ...) of TensorFlow's convolution custom call `in`, whose dim_labels must
 * fit them (a custom call's attributes are not verified). */
static cxla_status conv_of_custom(Pad *P, const Instr *in, Instr *lhs, Instr *rhs, Instr **out) {
  if (!(in->attrs & A_CONV_DIMS)) return unsupported(in, "a convolution without dim_labels");
  if (!window_ok(in->window, in->nwindow)) return unsupported(in, "a window TensorFlow does not write");
  const ConvDims *cd = &in->conv;
  int rx = lhs->shape->rank, rk = rhs->shape->rank, ry = in->shape->rank;
  bool fits = cd->nspatial == rx - 2 && cd->nspatial == rk - 2 && cd->nspatial == ry - 2 &&
              in->nwindow == cd->nspatial && cd->in_batch < rx && cd->in_feature < rx &&
              cd->k_in < rk && cd->k_out < rk && cd->out_batch < ry && cd->out_feature < ry &&
              cd->in_batch >= 0 && cd->in_feature >= 0 && cd->k_in >= 0 && cd->k_out >= 0 &&
              cd->out_batch >= 0 && cd->out_feature >= 0;
  for (int s = 0; fits && s < cd->nspatial; s++)
    fits = cd->in_spatial[s] >= 0 && cd->in_spatial[s] < rx && cd->k_spatial[s] >= 0 &&
           cd->k_spatial[s] < rk && cd->out_spatial[s] >= 0 && cd->out_spatial[s] < ry;
  if (!fits) return unsupported(in, "dim_labels or a window that do not fit its operands");
  Instr *ops[2] = {lhs, rhs};
  Shape *sh = shape_clone(&P->m->arena, in->shape);
  Instr *c = sh ? comp_add_instr(P->c, OP_CONVOLUTION, sh, 2, ops, NULL) : NULL;
  if (!c) return cxla_oom();
  instr_copy_attrs(c, in);
  c->op = OP_CONVOLUTION;
  c->nraw = 0;
  c->raw = NULL;
  c->custom_call_target = NULL;
  c->attrs &= ~(uint32_t)A_CUSTOM_CALL;
  WindowDim *w = arena_array(&P->m->arena, (size_t)c->nwindow + 1, sizeof *w);
  if (!w) return cxla_oom();
  memcpy(w, c->window, (size_t)c->nwindow * sizeof *w); /* the callers change it */
  c->window = w;
  *out = c;
  return NULL;
}

/* ---- the gradients of SAME pooling and convolutions over dynamic dims ----
 *
 * Their padding depends on the size too, and the input may be dilated
 * (the input gradient's is, by the stride): x, its padding already
 * reading fill, is padded by the dilated window below and by the window's
 * static padding above (interior: the dilation), then cut from
 * window - before[s] to the length the static padding gives; the window
 * then pads and dilates nothing. ns window dims, dims[s] the dim of x each
 * applies to; w changed in place; before[s] NULL: static. The op `from`
 * is refused where its static padding cuts more than the data. */
static cxla_status dyn_window_input(Pad *P, const Instr *from, Instr *x, Instr *fill, int ns,
                                    const int64_t *dims, WindowDim *w, Instr **before, Instr **out) {
  const Shape *sx = x->shape;
  int rank = sx->rank;
  PadDim *pd = arena_array(&P->m->arena, (size_t)rank + 1, sizeof(PadDim));
  int64_t *pdims = arena_i64dup(&P->a, sx->dims, (size_t)rank);
  int64_t *sdims = arena_i64dup(&P->a, sx->dims, (size_t)rank);
  Instr **starts = arena_array(&P->a, (size_t)rank + 1, sizeof(Instr *));
  Instr *zero = k_s32(P, 0);
  if (!pd || !pdims || !sdims || !starts || !zero) return cxla_oom();
  memset(pd, 0, (size_t)rank * sizeof *pd);
  for (int d = 0; d < rank; d++) starts[d] = zero;
  for (int s = 0; s < ns; s++) {
    if (!before[s]) continue;
    int d = (int)dims[s];
    int64_t eff = (w[s].size - 1) * w[s].rhs_dilate + 1, n = sx->dims[d];
    int64_t dil = n ? (n - 1) * w[s].lhs_dilate + 1 : 0;
    pd[d] = (PadDim){eff, w[s].pad_lo + w[s].pad_hi, n ? w[s].lhs_dilate - 1 : 0};
    pdims[d] = eff + dil + pd[d].hi;
    sdims[d] = w[s].pad_lo + dil + w[s].pad_hi;
    if (sdims[d] < 0) return unsupported(from, "a window whose padding cuts more than the data");
    if (!(starts[d] = bin(P, OP_SUBTRACT, k_s32(P, eff), before[s]))) return cxla_oom();
    w[s].pad_lo = w[s].pad_hi = 0;
    w[s].lhs_dilate = 1;
  }
  return (*out = pad_and_cut(P, x, fill, pd, pdims, starts, sdims)) ? NULL : cxla_oom();
}

/* Whether a TensorFlow convolution custom call's padding_type is SAME
 * (*same) or VALID; false: neither. */
static bool padding_same(const Instr *in, bool *same) {
  const char *pt = instr_raw(in, "padding_type");
  *same = pt && strstr(pt, "SAME");
  return pt && (*same || strstr(pt, "VALID"));
}

/* DynamicConvolutionInputGrad(input_sizes, grad, kernel): the gradient of
 * a convolution's input, a convolution of grad (dilated by the stride)
 * with the kernel; the result's spatial sizes are input_sizes' elements,
 * and with SAME padding the padding before is window - 1 - the forward
 * one at that size. */
static cxla_status pad_conv_input_grad(Pad *P, Instr *in, Instr **gs, Instr **osz, Instr **out) {
  bool same;
  if (!padding_same(in, &same)) return unsupported(in, "a padding_type other than VALID or SAME");
  if (in->noperands != 3) return unsupported(in, "not input sizes, a gradient and a kernel");
  Instr *sizes = in->operands[0], *g = in->operands[1], *c = NULL;
  TRY(conv_of_custom(P, in, g, in->operands[2], &c));
  const ConvDims *cd = &c->conv;
  int ns = cd->nspatial, rank = in->shape->rank;
  if (sizes->shape->rank != 1 || sizes->shape->dims[0] != rank || !type_is_int(sizes->shape->type))
    return unsupported(in, "input sizes that are not one integer a dim of the result");
  Instr **before = arena_array(&P->a, (size_t)ns + 1, sizeof(Instr *));
  if (!before) return cxla_oom();
  for (int s = 0; s < ns; s++) {
    int d = (int)cd->in_spatial[s], o = (int)cd->out_spatial[s];
    before[s] = NULL;
    if (!gs || !gs[d]) continue;
    if (!(g = mask(P, g, d, gs[d], zero_of(P, g->shape->type)))) return cxla_oom();
    /* the result's size: input_sizes[o], as an s32[] */
    int64_t one = 1;
    ElemType it = sizes->shape->type;
    Shape *s1 = new_shape(P, it, 1, &one), *r0 = new_shape(P, it, 0, NULL), *s0 = new_shape(P, T_S32, 0, NULL);
    Instr *sl = s1 ? comp_add_instr(P->c, OP_SLICE, s1, 1, &sizes, NULL) : NULL;
    SliceDim *sd = sl ? arena_alloc(&P->m->arena, sizeof *sd) : NULL;
    if (!sd || !r0 || !s0) return cxla_oom();
    *sd = (SliceDim){o, o + 1, 1};
    sl->attrs |= A_SLICE;
    sl->slice = sd;
    Instr *n = comp_add_instr(P->c, OP_RESHAPE, r0, 1, &sl, NULL);
    if (n && it != T_S32) n = comp_add_instr(P->c, OP_CONVERT, s0, 1, &n, NULL);
    if (!n) return cxla_oom();
    osz[o] = n;
    const WindowDim *wd = &c->window[s];
    int64_t eff = (wd->size - 1) * wd->rhs_dilate + 1;
    Instr *fo = NULL, *fwd = same_pad_lo(P, n, wd->lhs_dilate, eff, &fo);
    if (!(before[s] = bin(P, OP_SUBTRACT, k_s32(P, eff - 1), fwd))) return cxla_oom();
  }
  if (same) TRY(dyn_window_input(P, in, g, zero_of(P, g->shape->type), ns, cd->in_spatial, c->window, before, &g));
  c->operands[0] = g;
  TRY(check_built(P, in, c));
  *out = c;
  return NULL;
}

/* DynamicConvolutionKernelGrad(activations, grad): the gradient of a
 * convolution's kernel, a convolution of the activations with grad
 * (dilated by the stride); with SAME padding the activations are placed
 * at the forward padding their size gives. The result is static. */
static cxla_status pad_conv_kernel_grad(Pad *P, Instr *in, Instr **xs, Instr **gs, Instr **out) {
  bool same;
  if (!padding_same(in, &same)) return unsupported(in, "a padding_type other than VALID or SAME");
  if (in->noperands != 2) return unsupported(in, "not activations and a gradient");
  Instr *x = in->operands[0], *g = in->operands[1], *c = NULL;
  TRY(conv_of_custom(P, in, x, g, &c));
  const ConvDims *cd = &c->conv;
  int ns = cd->nspatial;
  Instr **before = arena_array(&P->a, (size_t)ns + 1, sizeof(Instr *));
  if (!before) return cxla_oom();
  for (int s = 0; s < ns; s++) {
    int d = (int)cd->in_spatial[s], k = (int)cd->k_spatial[s];
    before[s] = NULL;
    if (xs && xs[d] && !(x = mask(P, x, d, xs[d], zero_of(P, x->shape->type)))) return cxla_oom();
    if (gs && gs[k] && !(g = mask(P, g, k, gs[k], zero_of(P, g->shape->type)))) return cxla_oom();
    if (!(xs && xs[d]) != !(gs && gs[k])) return unsupported(in, "one of its operands dynamic in a spatial dim, not both");
    if (!(xs && xs[d])) continue;
    /* the forward convolution: the kernel's size is the result's, its
     * dilation this window's stride, its stride this window's dilation */
    const WindowDim *wd = &c->window[s];
    int64_t eff = (in->shape->dims[cd->out_spatial[s]] - 1) * wd->stride + 1;
    Instr *fo = NULL;
    if (!(before[s] = same_pad_lo(P, xs[d], wd->rhs_dilate, eff, &fo))) return cxla_oom();
  }
  if (xs && xs[cd->in_feature] && !(x = mask(P, x, (int)cd->in_feature, xs[cd->in_feature], zero_of(P, x->shape->type))))
    return cxla_oom();
  if (same) TRY(dyn_window_input(P, in, x, zero_of(P, x->shape->type), ns, cd->in_spatial, c->window, before, &x));
  c->operands[0] = x;
  c->operands[1] = g;
  TRY(check_built(P, in, c));
  *out = c;
  return NULL;
}

/* DynamicSelectAndScatterSamePadding(x, source, init) (the gradient of
 * SAME max pooling): x reads the lowest value past its sizes (never
 * selected by a `>=` select), source the init value; x is placed at the
 * padding its size gives, selected and scattered without padding, and
 * the result cut back from there. */
static cxla_status pad_dynamic_select_and_scatter(Pad *P, Instr *in, Instr **xs, Instr **ss, Instr **osz,
                                                  Instr **out) {
  Computation *f[3] = {NULL, NULL, NULL};
  if (in->noperands != 3 || custom_callees(P, in, f, 3) != 2 || in->shape->type == T_TUPLE)
    return unsupported(in, "not an operand, a source, an init value, a select and a scatter");
  const Instr *sr = f[0]->root;
  if (f[0]->nparams != 2 || sr->op != OP_COMPARE || sr->noperands != 2 || sr->operands[0] != f[0]->params[0] ||
      sr->operands[1] != f[0]->params[1] || sr->cmp_dir != CMP_GE)
    return unsupported(in, "a select other than >=");
  Instr *x = in->operands[0], *src = in->operands[1], *init = in->operands[2];
  const Shape *sx = x->shape;
  int rank = sx->rank;
  if (in->nwindow != rank || src->shape->rank != rank || init->shape->rank != 0 || !shape_compatible(in->shape, sx))
    return unsupported(in, "a window, source, init value or result that does not fit its operand");
  if (!type_is_float(sx->type) || init->shape->type != sx->type || src->shape->type != sx->type)
    return unsupported(in, "an operand, source or init value that is not of one floating-point type");
  if (!window_ok(in->window, rank)) return unsupported(in, "a window TensorFlow does not write");
  Instr *low = eu_scalar(P->c, sx->type, -__builtin_inf());
  WindowDim *w = arena_array(&P->m->arena, (size_t)rank + 1, sizeof(WindowDim));
  Instr **before = arena_array(&P->a, (size_t)rank + 1, sizeof(Instr *));
  int64_t *dims = arena_array(&P->a, (size_t)rank + 1, sizeof(int64_t));
  if (!low || !w || !before || !dims) return cxla_oom();
  memcpy(w, in->window, (size_t)rank * sizeof *w);
  for (int d = 0; d < rank; d++) {
    dims[d] = d;
    before[d] = NULL;
    if (w[d].lhs_dilate != 1 || w[d].rhs_dilate != 1) return unsupported(in, "a dilated window");
    if (xs) osz[d] = xs[d];
    if (!xs || !xs[d] || (w[d].size == 1 && w[d].stride == 1 && !w[d].pad_lo && !w[d].pad_hi)) continue;
    if (!(x = mask(P, x, d, xs[d], low))) return cxla_oom();
    if (ss && ss[d] && !(src = mask(P, src, d, ss[d], init))) return cxla_oom();
    Instr *o = NULL;
    if (!(before[d] = same_pad_lo(P, xs[d], w[d].stride, w[d].size, &o))) return cxla_oom();
  }
  WindowDim *w0 = arena_array(&P->a, (size_t)rank + 1, sizeof(WindowDim));
  if (!w0) return cxla_oom();
  memcpy(w0, w, (size_t)rank * sizeof *w);
  Instr *xp = NULL;
  TRY(dyn_window_input(P, in, x, low, rank, dims, w, before, &xp));
  Shape *xps = shape_clone(&P->m->arena, xp->shape);
  Instr *sops[3] = {xp, src, init};
  Instr *sas = xps ? comp_add_instr(P->c, OP_SELECT_AND_SCATTER, xps, 3, sops, NULL) : NULL;
  if (!sas || !(sas->called = arena_array(&P->m->arena, 2, sizeof(Computation *)))) return cxla_oom();
  sas->attrs |= A_WINDOW;
  sas->nwindow = rank;
  sas->window = w;
  sas->called[0] = f[0];
  sas->called[1] = f[1];
  sas->ncalled = 2;
  TRY(check_built(P, in, sas));
  /* back from where x was placed: padded above so that the slice stays in */
  PadDim *pd = arena_array(&P->m->arena, (size_t)rank + 1, sizeof(PadDim));
  int64_t *pdims = arena_i64dup(&P->a, xps->dims, (size_t)rank);
  Instr **starts = arena_array(&P->a, (size_t)rank + 1, sizeof(Instr *));
  Instr *zero = k_s32(P, 0);
  if (!pd || !pdims || !starts || !zero) return cxla_oom();
  memset(pd, 0, (size_t)rank * sizeof *pd);
  for (int d = 0; d < rank; d++) {
    starts[d] = before[d] ? before[d] : zero;
    if (before[d]) {
      pd[d].hi = w0[d].size;
      pdims[d] += w0[d].size;
    }
  }
  return (*out = pad_and_cut(P, sas, init, pd, pdims, starts, in->shape->dims)) ? NULL : cxla_oom();
}

/* DynamicConvolutionForward (TensorFlow's convolution over dynamic spatial
 * dims): a convolution whose output size follows the input's, padded
 * VALID or SAME (with stride 1 the padding does not depend on the size;
 * with a stride, pad_same_strided_conv). The input reads zeros past its
 * sizes. */
static cxla_status pad_dynamic_conv(Pad *P, Instr *in, Instr **xs, Instr **ks, Instr **osz, Instr **out) {
  const char *pt = instr_raw(in, "padding_type");
  bool same = pt && strstr(pt, "SAME");
  if (!pt || (!same && !strstr(pt, "VALID"))) return unsupported(in, "a padding_type other than VALID or SAME");
  if (!(in->attrs & A_CONV_DIMS) || in->noperands != 2) return unsupported(in, "not a convolution of two operands");
  Instr *c = NULL;
  TRY(conv_of_custom(P, in, in->operands[0], in->operands[1], &c));
  bool strided = false;
  for (int s = 0; s < c->nwindow; s++) {
    if (c->window[s].lhs_dilate != 1) return unsupported(in, "an input-dilated window");
    strided |= c->window[s].stride != 1;
  }
  if (same && strided) {
    TRY(pad_same_strided_conv(P, c, xs, ks, osz, out));
    return check_built(P, in, c);
  }
  if (same) {
    WindowDim *w = arena_array(&P->m->arena, (size_t)c->nwindow + 1, sizeof *w);
    if (!w) return cxla_oom();
    memcpy(w, c->window, (size_t)c->nwindow * sizeof *w);
    for (int s = 0; s < c->nwindow; s++) { /* stride 1: the padding does not depend on the size */
      int64_t eff = (w[s].size - 1) * w[s].rhs_dilate + 1;
      w[s].pad_lo = (eff - 1) / 2;
      w[s].pad_hi = eff - 1 - w[s].pad_lo;
    }
    c->window = w;
  }
  TRY(pad_conv(P, c, xs, ks, osz));
  TRY(check_built(P, in, c));
  *out = c;
  return NULL;
}

/* reduce: padding reads the init value; kept dims keep their sizes. */
static cxla_status pad_reduce(Pad *P, Instr *in, Instr ***osz_ops, Instr **osz) {
  int n = in->noperands / 2;
  const Shape *x = in->operands[0]->shape;
  bool *reduced = arena_array(&P->a, (size_t)x->rank + 1, sizeof(bool));
  if (!reduced) return cxla_oom();
  memset(reduced, 0, (size_t)x->rank + 1);
  for (int k = 0; k < in->dimensions.n; k++)
    if (in->dimensions.v[k] >= 0 && in->dimensions.v[k] < x->rank) reduced[in->dimensions.v[k]] = true;
  for (int k = 0; k < n; k++) {
    Instr **sz = osz_ops[k];
    if (!sz) continue;
    Instr *v = mask_all(P, in->operands[k], sz, reduced, in->operands[n + k]);
    if (!v) return cxla_oom();
    in->operands[k] = v;
  }
  /* kept dims, in order, for each result leaf */
  int nleaves = in->shape->type == T_TUPLE ? in->shape->ntuple : 1;
  for (int k = 0; k < n; k++) {
    Instr **sz = osz_ops[k];
    for (int d = 0, o = 0; sz && d < x->rank; d++) {
      if (reduced[d]) continue;
      for (int l = 0; l < nleaves; l++)
        if (sz[d]) osz[l * (x->rank - in->dimensions.n) + o] = sz[d];
      o++;
    }
  }
  return NULL;
}

/* Output size of a window along a dynamic dim (base dilation 1):
 * (size + lo + hi - ((w - 1) * wd + 1)) / stride + 1. */
static Instr *window_out(Pad *P, Instr *size, const WindowDim *w) {
  int64_t eff = (w->size - 1) * w->rhs_dilate + 1;
  Instr *t = bin(P, OP_ADD, size, k_s32(P, w->pad_lo + w->pad_hi - eff));
  t = bin(P, OP_DIVIDE, t, k_s32(P, w->stride));
  return bin(P, OP_ADD, t, k_s32(P, 1));
}

static bool window_identity(const WindowDim *w) {
  return w->size == 1 && w->stride == 1 && w->pad_lo == 0 && w->pad_hi == 0 &&
         w->lhs_dilate == 1 && w->rhs_dilate == 1;
}

static cxla_status pad_reduce_window(Pad *P, Instr *in, Instr ***osz_ops, Instr **osz) {
  int n = in->noperands / 2;
  int rank = in->operands[0]->shape->rank;
  if (in->nwindow != rank) return unsupported(in, "a window of another rank");
  for (int k = 0; k < n; k++) {
    Instr **sz = osz_ops[k];
    for (int d = 0; sz && d < rank; d++) {
      if (!sz[d]) continue;
      const WindowDim *w = &in->window[d];
      if (w->lhs_dilate != 1) return unsupported(in, "a base-dilated window over a dynamic dimension");
      Instr *v = window_identity(w) ? in->operands[k] : mask(P, in->operands[k], d, sz[d], in->operands[n + k]);
      Instr *o = window_identity(w) ? sz[d] : window_out(P, sz[d], w);
      if (!v || !o) return cxla_oom();
      in->operands[k] = v;
      int nleaves = in->shape->type == T_TUPLE ? in->shape->ntuple : 1;
      for (int l = 0; l < nleaves; l++) osz[l * rank + d] = o;
    }
  }
  return NULL;
}

static cxla_status pad_dot(Pad *P, Instr *in, Instr **ls, Instr **rs, Instr **osz) {
  const DotDims *dd = &in->dot;
  for (int side = 0; side < 2; side++) {
    Instr **sz = side ? rs : ls;
    const I64List *con = side ? &dd->rhs_contract : &dd->lhs_contract;
    Instr *x = in->operands[side];
    for (int k = 0; sz && k < con->n; k++) {
      int d = (int)con->v[k];
      if (!sz[d]) continue;
      if (!(x = mask(P, x, d, sz[d], zero_of(P, x->shape->type)))) return cxla_oom();
    }
    in->operands[side] = x;
  }
  /* result: batch dims, lhs free dims, rhs free dims */
  int o = 0;
  for (int k = 0; k < dd->lhs_batch.n; k++, o++) {
    Instr *s = ls ? ls[dd->lhs_batch.v[k]] : NULL;
    if (!s && rs) s = rs[dd->rhs_batch.v[k]];
    osz[o] = s;
  }
  for (int side = 0; side < 2; side++) {
    Instr **sz = side ? rs : ls;
    const I64List *bat = side ? &dd->rhs_batch : &dd->lhs_batch;
    const I64List *con = side ? &dd->rhs_contract : &dd->lhs_contract;
    int rank = in->operands[side]->shape->rank;
    for (int d = 0; d < rank; d++) {
      bool other = false;
      for (int k = 0; k < bat->n; k++) other |= bat->v[k] == d;
      for (int k = 0; k < con->n; k++) other |= con->v[k] == d;
      if (other) continue;
      osz[o++] = sz ? sz[d] : NULL;
    }
  }
  return NULL;
}

static cxla_status pad_conv(Pad *P, Instr *in, Instr **xs, Instr **ks, Instr **osz) {
  const ConvDims *cd = &in->conv;
  Instr *x = in->operands[0], *k = in->operands[1];
  if (xs && xs[cd->in_feature]) {
    if (in->feature_group_count != 1) return unsupported(in, "a grouped convolution over dynamic features");
    x = mask(P, x, (int)cd->in_feature, xs[cd->in_feature], zero_of(P, x->shape->type));
  }
  if (ks && ks[cd->k_in]) k = mask(P, k, (int)cd->k_in, ks[cd->k_in], zero_of(P, k->shape->type));
  if (ks) {
    for (int s = 0; s < cd->nspatial; s++)
      if (ks[cd->k_spatial[s]]) return unsupported(in, "a kernel of dynamic spatial size");
    if (ks[cd->k_out]) osz[cd->out_feature] = ks[cd->k_out];
  }
  if (xs) {
    if (xs[cd->in_batch]) {
      if (in->batch_group_count != 1) return unsupported(in, "batch groups over a dynamic batch");
      osz[cd->out_batch] = xs[cd->in_batch];
    }
    for (int s = 0; s < cd->nspatial; s++) {
      int d = (int)cd->in_spatial[s];
      if (!xs[d]) continue;
      if (s >= in->nwindow || in->window[s].lhs_dilate != 1)
        return unsupported(in, "a transposed (input-dilated) convolution over a dynamic dimension");
      x = mask(P, x, d, xs[d], zero_of(P, x->shape->type));
      if (!(osz[cd->out_spatial[s]] = window_out(P, xs[d], &in->window[s]))) return cxla_oom();
    }
  }
  if (!x || !k) return cxla_oom();
  in->operands[0] = x;
  in->operands[1] = k;
  return NULL;
}

static cxla_status pad_gather(Pad *P, Instr *in, Instr **xs, Instr **is, Instr **osz) {
  const GatherDims *g = &in->gather;
  const Shape *x = in->operands[0]->shape, *ix = in->operands[1]->shape;
  int ro = in->shape->rank;
  bool *is_off = arena_array(&P->a, (size_t)ro + 1, sizeof(bool));
  if (!is_off) return cxla_oom();
  memset(is_off, 0, (size_t)ro + 1);
  for (int k = 0; k < g->offset_dims.n; k++)
    if (g->offset_dims.v[k] >= 0 && g->offset_dims.v[k] < ro) is_off[g->offset_dims.v[k]] = true;
  /* batch dims: the indices' dims but index_vector_dim, in order */
  int id = 0;
  for (int o = 0; o < ro; o++) {
    if (is_off[o]) continue;
    if (id == g->index_vector_dim) id++;
    if (is && id < ix->rank) osz[o] = is[id];
    id++;
  }
  /* offset dims: operand dims not collapsed nor batching, in order */
  int xd = 0;
  for (int o = 0; o < ro; o++) {
    if (!is_off[o]) continue;
    for (;;) {
      bool skip = false;
      for (int k = 0; k < g->collapsed_slice_dims.n; k++) skip |= g->collapsed_slice_dims.v[k] == xd;
      for (int k = 0; k < g->operand_batching_dims.n; k++) skip |= g->operand_batching_dims.v[k] == xd;
      if (!skip || xd >= x->rank) break;
      xd++;
    }
    if (xs && xd < x->rank && xs[xd] && in->slice_sizes.n > xd && in->slice_sizes.v[xd] == x->dims[xd])
      osz[o] = xs[xd];
    xd++;
  }
  return NULL;
}

/* scatter: updates in the padding of the scatter dims get an index past
 * every bound, so that they are skipped. */
static cxla_status pad_scatter(Pad *P, Instr *in, Instr ***szs, Instr **osz) {
  int n = (in->noperands - 1) / 2;
  const ScatterDims *sd = &in->scatter;
  Instr *idx = in->operands[n];
  const Shape *is = idx->shape;
  const Shape *u = in->operands[n + 1]->shape;
  Instr **isz = szs[n], **usz = szs[n + 1];
  /* the updates' scatter dims (not window dims) pair with the indices'
   * dims but index_vector_dim, in order */
  int id = 0;
  for (int ud = 0; ud < u->rank; ud++) {
    bool win = false;
    for (int k = 0; k < sd->update_window_dims.n; k++) win |= sd->update_window_dims.v[k] == ud;
    if (win) continue;
    if (id == sd->index_vector_dim) id++;
    Instr *s = isz && id < is->rank ? isz[id] : NULL;
    if (!s && usz) s = usz[ud];
    if (s && id < is->rank) {
      int64_t big = type_bits(is->type) >= 32 ? INT32_MAX : (1 << (type_bits(is->type) - 1)) - 1;
      if (type_kind(is->type) == TK_UINT) big = type_bits(is->type) >= 32 ? INT32_MAX : (1 << type_bits(is->type)) - 1;
      Instr *fill = eu_scalar(P->c, is->type, (double)big);
      if (!fill || !(idx = mask(P, idx, id, s, fill))) return cxla_oom();
    }
    id++;
  }
  in->operands[n] = idx;
  int rank = in->operands[0]->shape->rank;
  for (int k = 0; k < n; k++)
    for (int d = 0; szs[k] && d < rank; d++)
      if (szs[k][d]) osz[(in->shape->type == T_TUPLE ? k * rank : 0) + d] = szs[k][d];
  return NULL;
}

/* concatenate along a dynamic dim: each operand written after the sizes
 * of the ones before it (dynamic-update-slice into zeros; the bounds add
 * up, so no write is clamped). */
static cxla_status pad_concat(Pad *P, Instr *in, Instr ***szs, Instr **osz, Instr **out) {
  int d = (int)in->dimensions.v[0];
  const Shape *s = in->shape;
  int rank = s->rank;
  for (int k = 0; k < in->noperands; k++)
    for (int e = 0; szs[k] && e < rank; e++)
      if (e != d && szs[k][e] && !osz[e]) osz[e] = szs[k][e];
  bool dyn = false;
  for (int k = 0; k < in->noperands; k++) dyn |= szs[k] && szs[k][d];
  if (!dyn) return NULL;
  Instr *acc = bcast(P, zero_of(P, s->type), rank, s->dims);
  Instr *off = k_s32(P, 0);
  Instr *zero = k_s32(P, 0);
  for (int k = 0; k < in->noperands && acc; k++) {
    Instr *x = in->operands[k];
    Instr **ops = arena_array(&P->a, (size_t)rank + 2, sizeof(Instr *));
    Shape *sh = shape_clone(&P->m->arena, acc->shape);
    if (!ops || !sh) return cxla_oom();
    ops[0] = acc;
    ops[1] = x;
    for (int e = 0; e < rank; e++) ops[2 + e] = e == d ? off : zero;
    acc = comp_add_instr(P->c, OP_DYNAMIC_UPDATE_SLICE, sh, rank + 2, ops, NULL);
    off = bin(P, OP_ADD, off, size_of(P, szs[k], d, x->shape->dims[d]));
  }
  if (!acc || !off) return cxla_oom();
  osz[d] = off;
  *out = acc;
  return NULL;
}

/* reverse of a dynamic dim: the data ends up at the end; moved back by a
 * dynamic-slice of the reversal padded by the bound. */
static cxla_status pad_reverse(Pad *P, Instr *in, Instr **xs, Instr **out) {
  const Shape *s = in->shape;
  int rank = s->rank;
  Instr *cur = in;
  for (int k = 0; k < in->dimensions.n; k++) {
    int d = (int)in->dimensions.v[k];
    if (!xs[d]) continue;
    int64_t *dims = arena_i64dup(&P->a, s->dims, (size_t)rank);
    PadDim *pd = arena_array(&P->m->arena, (size_t)rank, sizeof(PadDim));
    Instr **starts = arena_array(&P->a, (size_t)rank + 1, sizeof(Instr *));
    if (!dims || !pd || !starts) return cxla_oom();
    memset(pd, 0, (size_t)rank * sizeof *pd);
    pd[d].hi = s->dims[d];
    dims[d] *= 2;
    Instr *zero = k_s32(P, 0), *fill = zero_of(P, s->type);
    Instr *start = bin(P, OP_SUBTRACT, k_s32(P, s->dims[d]), xs[d]);
    if (!zero || !fill || !start) return cxla_oom();
    for (int e = 0; e < rank; e++) starts[e] = e == d ? start : zero;
    if (!(cur = pad_and_cut(P, cur, fill, pd, dims, starts, s->dims))) return cxla_oom();
  }
  *out = cur;
  return NULL;
}

/* sort along a dynamic dim: one more operand, pred "is padding", and a
 * comparator that puts padding last and otherwise asks the original. */
static cxla_status pad_sort(Pad *P, Instr *in, Instr **sz, Instr **out) {
  int d = (int)in->dimensions.v[0];
  if (!sz || !sz[d]) return NULL;
  Computation *orig = in->called[0];
  if (!orig || orig->nparams != 2 * in->noperands) return unsupported(in, "a sort whose comparator does not match");
  for (int i = 0; i < orig->ninstrs; i++)
    if (orig->instrs[i]->ncalled) return unsupported(in, "a comparator that calls other computations");
  HloModule *m = P->m;
  const Shape *x = in->operands[0]->shape;
  Instr *is_pad = cmp(P, iota(P, x->rank, x->dims, d), bcast(P, sz[d], x->rank, x->dims), CMP_GE);
  Computation *f = comp_clone(m, orig, NULL);
  if (!is_pad || !f) return cxla_oom();
  /* callees first: the clone goes to the front (it calls nothing) */
  memmove(&m->comps[1], &m->comps[0], (size_t)(m->ncomps - 1) * sizeof(Computation *));
  m->comps[0] = f;
  int np = f->nparams;
  Instr **params = arena_array(&m->arena, (size_t)np + 2, sizeof(Instr *));
  if (!params) return cxla_oom();
  memcpy(params, f->params, (size_t)np * sizeof *params);
  for (int k = 0; k < 2; k++) {
    Shape *ps = new_shape(P, T_PRED, 0, NULL);
    char name[48];
    snprintf(name, sizeof name, "is_padding.%s", k ? "rhs" : "lhs");
    Instr *p = ps ? comp_add_instr(f, OP_PARAMETER, ps, 0, NULL, name) : NULL;
    if (!p) return cxla_oom();
    p->param_number = np + k;
    params[np + k] = p;
  }
  f->params = params;
  f->nparams = np + 2;
  Computation *save = P->c;
  P->c = f;
  Instr *ne = cmp(P, params[np], params[np + 1], CMP_NE);
  Instr *lhs_first = params[np + 1]; /* differing: lhs goes first when rhs is padding */
  Instr *root = sel(P, ne, lhs_first, f->root);
  P->c = save;
  if (!root) return cxla_oom();
  f->root = root;
  comp_renumber(f);
  /* the new sort */
  int n = in->noperands;
  Instr **ops = arena_array(&P->a, (size_t)n + 1, sizeof(Instr *));
  Shape **leaves = arena_array(&m->arena, (size_t)n + 1, sizeof(Shape *));
  if (!ops || !leaves) return cxla_oom();
  for (int k = 0; k < n; k++) {
    ops[k] = in->operands[k];
    leaves[k] = shape_clone(&m->arena, in->operands[k]->shape);
    if (!leaves[k]) return cxla_oom();
  }
  ops[n] = is_pad;
  leaves[n] = is_pad->shape;
  Shape *ts = shape_new_tuple(&m->arena, n + 1, leaves);
  Instr *ns = ts ? instr_clone(P->c, in, n + 1, ops, NULL) : NULL;
  if (!ns) return cxla_oom();
  ns->shape = ts;
  ns->called[0] = f;
  /* what the old sort's users read: its one array, or a tuple of them */
  Instr **gtes = arena_array(&P->a, (size_t)n, sizeof(Instr *));
  if (!gtes) return cxla_oom();
  for (int k = 0; k < n; k++)
    if (!(gtes[k] = gte(P, ns, k))) return cxla_oom();
  if (in->shape->type != T_TUPLE) {
    *out = gtes[0];
    return NULL;
  }
  Shape *os = shape_clone(&m->arena, in->shape);
  *out = os ? comp_add_instr(P->c, OP_TUPLE, os, n, gtes, NULL) : NULL;
  return *out ? NULL : cxla_oom();
}

/* pad: the operand's padding reads the pad value, so that edge padding
 * follows the data; size = lo + size + hi + interior * (size - 1). */
static cxla_status pad_pad(Pad *P, Instr *in, Instr **xs, Instr **osz) {
  Instr *x = in->operands[0];
  for (int d = 0; d < x->shape->rank; d++) {
    if (!xs[d]) continue;
    const PadDim *pd = &in->padding[d];
    if (!(x = mask(P, x, d, xs[d], in->operands[1]))) return cxla_oom();
    Instr *s = bin(P, OP_ADD, xs[d], k_s32(P, pd->lo + pd->hi - pd->interior));
    s = bin(P, OP_ADD, s, bin(P, OP_MULTIPLY, xs[d], k_s32(P, pd->interior)));
    /* an empty operand takes no interior padding */
    s = sel(P, cmp(P, xs[d], k_s32(P, 0), CMP_GT), s, k_s32(P, pd->lo + pd->hi));
    if (!s) return cxla_oom();
    osz[d] = s;
  }
  in->operands[0] = x;
  return NULL;
}

static bool slice_whole(const Instr *in, int d) {
  const SliceDim *s = &in->slice[d];
  return s->start == 0 && s->stride == 1 && s->limit == in->operands[0]->shape->dims[d];
}

/* One instruction of the walk: its operands' sizes in ops_sz (before
 * their replacement), its own into osz; *out what users read instead. */
static cxla_status visit(Pad *P, Instr *in, Instr ***ops_sz, Instr **osz, Instr **out) {
  int nops = in->noperands;
  Instr **s0 = nops ? ops_sz[0] : NULL;
  switch (in->op) {
  case OP_SET_DIMENSION_SIZE: {
    int d = in->dimensions.n == 1 ? (int)in->dimensions.v[0] : -1;
    if (d < 0 || d >= in->shape->rank) return unsupported(in, "no single dimension");
    for (int e = 0; s0 && e < in->shape->rank; e++) osz[e] = s0[e];
    /* a constant size: XLA's type then calls the dim static (TensorFlow's
     * top_k of k == n); static it is where it is the bound */
    const Instr *n = in->operands[1];
    bool full = !(in->shape->dynamic && in->shape->dynamic[d]) && n->op == OP_CONSTANT && n->literal &&
                !n->literal->unknown && n->literal->nelems == 1 &&
                literal_get_i64(n->literal, 0) == in->shape->dims[d];
    osz[d] = full ? NULL : in->operands[1];
    *out = in->operands[0];
    return NULL;
  }
  case OP_GET_DIMENSION_SIZE: {
    int d = in->dimensions.n == 1 ? (int)in->dimensions.v[0] : -1;
    const Shape *x = in->operands[0]->shape;
    if (d < 0 || d >= x->rank) return unsupported(in, "no single dimension");
    Instr *s = size_of(P, s0, d, x->dims[d]);
    if (!s) return cxla_oom();
    if (s->shape->type != in->shape->type) {
      Shape *cs = new_shape(P, in->shape->type, 0, NULL);
      if (!cs || !(s = comp_add_instr(P->c, OP_CONVERT, cs, 1, &s, NULL))) return cxla_oom();
    }
    *out = s;
    return NULL;
  }
  case OP_CUSTOM_CALL:
    if (is_custom(in, "SliceToDynamic")) {
      /* SliceToDynamic(data, size_0, ..., size_r-1): the sizes of every dim */
      if (nops != 1 + in->shape->rank) return unsupported(in, "SliceToDynamic takes the data and one size a dimension");
      /* (a custom call's shape is not verified) */
      if (!shape_compatible(in->shape, in->operands[0]->shape))
        return unsupported(in, "SliceToDynamic whose data does not have its type and bounds");
      for (int d = 0; d < in->shape->rank; d++)
        if (in->operands[1 + d]->shape->type != T_S32 || in->operands[1 + d]->shape->rank != 0)
          return unsupported(in, "SliceToDynamic whose sizes are not s32[] values");
      for (int d = 0; d < in->shape->rank; d++)
        if (in->shape->dynamic && in->shape->dynamic[d]) osz[d] = in->operands[1 + d];
      *out = in->operands[0];
      return NULL;
    }
    if (is_custom(in, "DynamicConvolutionForward")) return pad_dynamic_conv(P, in, s0, ops_sz[1], osz, out);
    if (is_custom(in, "DynamicReduceWindowSamePadding")) return pad_dynamic_reduce_window(P, in, s0, osz, out);
    if (is_custom(in, "DynamicConvolutionInputGrad")) return pad_conv_input_grad(P, in, ops_sz[1], osz, out);
    if (is_custom(in, "DynamicConvolutionKernelGrad")) return pad_conv_kernel_grad(P, in, s0, ops_sz[1], out);
    if (is_custom(in, "DynamicSelectAndScatterSamePadding"))
      return pad_dynamic_select_and_scatter(P, in, s0, ops_sz[1], osz, out);
    break;
  case OP_TUPLE: {
    int off = 0;
    for (int k = 0; k < nops; k++) {
      int nd = flat_dims(in->operands[k]->shape);
      for (int e = 0; ops_sz[k] && e < nd; e++) osz[off + e] = ops_sz[k][e];
      off += nd;
    }
    return NULL;
  }
  case OP_GET_TUPLE_ELEMENT: {
    int off = leaf_offset(P, in->operands[0], (int)in->index);
    if (off < 0) return cxla_oom();
    int nd = flat_dims(in->shape);
    for (int e = 0; s0 && e < nd; e++) osz[e] = s0[off + e];
    return NULL;
  }
  case OP_OPT_BARRIER: case OP_COPY: case OP_BITCAST_CONVERT: case OP_MAP:
  case OP_DYNAMIC_UPDATE_SLICE: case OP_ADD_DEPENDENCY:
    for (int e = 0; s0 && e < flat_dims(in->shape) && e < flat_dims(in->operands[0]->shape); e++)
      osz[e] = s0[e];
    if (in->op == OP_MAP)
      for (int k = 1; k < nops; k++)
        for (int e = 0; ops_sz[k] && e < in->shape->rank; e++)
          if (!osz[e]) osz[e] = ops_sz[k][e];
    return NULL;
  case OP_BROADCAST:
    for (int k = 0; s0 && k < in->dimensions.n; k++) osz[in->dimensions.v[k]] = s0[k];
    return NULL;
  case OP_TRANSPOSE:
    for (int k = 0; s0 && k < in->dimensions.n; k++) osz[k] = s0[in->dimensions.v[k]];
    return NULL;
  case OP_RESHAPE: case OP_BITCAST:
    return s0 ? pad_reshape(P, in, s0, osz, out) : NULL;
  case OP_DYNAMIC_RESHAPE:
    return pad_dynamic_reshape(P, in, s0, osz, out);
  case OP_SLICE:
    for (int d = 0; s0 && d < in->shape->rank; d++)
      if (s0[d] && slice_whole(in, d)) osz[d] = s0[d];
    return NULL;
  case OP_DYNAMIC_SLICE:
    for (int d = 0; s0 && d < in->shape->rank; d++)
      if (s0[d] && in->slice_sizes.v[d] == in->operands[0]->shape->dims[d]) osz[d] = s0[d];
    return NULL;
  case OP_REDUCE: return pad_reduce(P, in, ops_sz, osz);
  case OP_REDUCE_WINDOW: return pad_reduce_window(P, in, ops_sz, osz);
  case OP_DOT: return pad_dot(P, in, s0, ops_sz[1], osz);
  case OP_CONVOLUTION: return pad_conv(P, in, s0, ops_sz[1], osz);
  case OP_GATHER: return pad_gather(P, in, s0, ops_sz[1], osz);
  case OP_SCATTER: return pad_scatter(P, in, ops_sz, osz);
  case OP_CONCATENATE: return pad_concat(P, in, ops_sz, osz, out);
  case OP_PAD: return s0 ? pad_pad(P, in, s0, osz) : NULL;
  case OP_REVERSE:
    for (int d = 0; s0 && d < in->shape->rank; d++) osz[d] = s0[d];
    return s0 ? pad_reverse(P, in, s0, out) : NULL;
  case OP_SORT: {
    int rank = in->operands[0]->shape->rank;
    int nleaves = in->shape->type == T_TUPLE ? in->shape->ntuple : 1;
    for (int k = 0; k < nops; k++)
      for (int d = 0; ops_sz[k] && d < rank; d++)
        if (ops_sz[k][d] && !osz[d]) osz[d] = ops_sz[k][d];
    for (int l = 1; l < nleaves; l++) memcpy(&osz[l * rank], osz, (size_t)rank * sizeof *osz);
    return pad_sort(P, in, osz, out);
  }
  default:
    break;
  }
  if (op_info(in->op)->flags & OPF_EW) {
    for (int k = 0; k < nops; k++)
      if (in->operands[k]->shape->rank == in->shape->rank)
        for (int d = 0; ops_sz[k] && d < in->shape->rank; d++)
          if (ops_sz[k][d] && !osz[d]) osz[d] = ops_sz[k][d];
    return NULL;
  }
  return unsupported(in, "a dynamic dimension reaches it");
}

/* tuple(t's first n elements, then sizes: sz at each ls->t.flat dim, or the
 * bound where sz has none), of shape ls->ext. */
static Instr *extend_state(Pad *P, const LoopState *ls, Instr *t, Instr **sz) {
  Instr **ops = arena_array(&P->a, (size_t)(ls->n + ls->t.k) + 1, sizeof(Instr *));
  if (!ops) return NULL;
  for (int i = 0; i < ls->n; i++)
    if (!(ops[i] = gte(P, t, i))) return NULL;
  for (int j = 0; j < ls->t.k; j++) {
    int e = ls->t.flat[j];
    if (!(ops[ls->n + j] = sz && sz[e] ? sz[e] : k_s32(P, ls->t.bound[e]))) return NULL;
  }
  Shape *s = shape_clone(&P->m->arena, ls->ext);
  return s ? comp_add_instr(P->c, OP_TUPLE, s, ls->n + ls->t.k, ops, NULL) : NULL;
}

/* A loop's body or condition: its parameter becomes the extended state,
 * and the state's dynamic dims take their sizes from the new elements. */
static cxla_status loop_param_sizes(Pad *P, const LoopState *ls) {
  Computation *c = P->c;
  if (c->nparams != 1 || !c->params[0]) return unsupported(c->root, "a loop computation without its one parameter");
  Instr *p = c->params[0];
  int nd = flat_dims(p->shape);
  Instr **sz = new_sizes(P, p->shape);
  Shape *s = shape_clone(&P->m->arena, ls->ext);
  if (!sz || !s) return cxla_oom();
  p->shape = s;
  for (int j = 0; j < ls->t.k; j++) {
    Instr *g = gte(P, p, ls->n + j);
    if (!g) return cxla_oom();
    if (ls->t.flat[j] < nd) sz[ls->t.flat[j]] = g;
  }
  P->size[p->id] = sz;
  return NULL;
}

/* The loop: its init extended with the init's sizes (the bounds where it
 * has none), the loop of the extended state, its users reading the
 * state's elements (a tuple of them) and its sizes from the rest. */
static cxla_status pad_while(Pad *P, Instr *in, const LoopState *ls, Instr **init_sz, Instr **osz, Instr **out) {
  if (in->noperands != 1 || in->shape->type != T_TUPLE || in->shape->ntuple != ls->n)
    return unsupported(in, "a loop whose state does not match its body's");
  for (int e = 0; init_sz && e < ls->t.nd; e++)
    if (init_sz[e] && !ls->t.is_dyn[e]) return unsupported(in, "a loop state dim its type calls static is dynamic");
  Instr *init = extend_state(P, ls, in->operands[0], init_sz);
  Shape *s = init ? shape_clone(&P->m->arena, ls->ext) : NULL;
  if (!s) return cxla_oom();
  in->operands[0] = init;
  Shape *old = in->shape;
  in->shape = s;
  Instr **ops = arena_array(&P->a, (size_t)ls->n + 1, sizeof(Instr *));
  if (!ops) return cxla_oom();
  for (int i = 0; i < ls->n; i++)
    if (!(ops[i] = gte(P, in, i))) return cxla_oom();
  Shape *os = shape_clone(&P->m->arena, old);
  Instr *res = os ? comp_add_instr(P->c, OP_TUPLE, os, ls->n, ops, NULL) : NULL;
  if (!res) return cxla_oom();
  for (int j = 0; j < ls->t.k; j++)
    if (!(osz[ls->t.flat[j]] = gte(P, in, ls->n + j))) return cxla_oom();
  *out = res;
  return NULL;
}

/* A branch: its parameter becomes tuple(parameter, sizes...); its users
 * read element 0 and the dynamic dims' sizes from the rest. */
static cxla_status branch_param_sizes(Pad *P, const BranchParam *bp) {
  Instr *p = P->c->params[0];
  Instr **sz = new_sizes(P, p->shape);
  Shape *s = shape_clone(&P->m->arena, bp->ext);
  if (!sz || !s) return cxla_oom();
  p->shape = s;
  Instr *data = gte(P, p, 0);
  if (!data) return cxla_oom();
  for (int j = 0; j < bp->t.k; j++)
    if (!(sz[bp->t.flat[j]] = gte(P, p, 1 + j))) return cxla_oom();
  P->size[p->id] = sz;
  P->repl[p->id] = data;
  return NULL;
}

/* A conditional's operands for branches with a dynamic parameter become
 * tuple(operand, sizes...) (the bound where the operand is static); a
 * dynamic operand for a branch whose parameter type calls it static is
 * refused. ops_sz: the operands' sizes. */
static cxla_status pad_branch_operands(Pad *P, Instr *in, Instr ***ops_sz) {
  for (int b = 0; b < in->ncalled && 1 + b < in->noperands; b++) {
    const BranchParam *bp = branch_param(in->called[b]);
    Instr *o = in->operands[1 + b], **sz = ops_sz[1 + b];
    int nd = flat_dims(o->shape);
    if (!bp) {
      if (any_size(sz, nd)) return unsupported(in, "a dynamic operand for a branch whose parameter type is static");
      continue;
    }
    if (nd != bp->t.nd) return unsupported(in, "a branch operand that does not match its parameter");
    for (int e = 0; sz && e < nd; e++)
      if (sz[e] && !bp->t.is_dyn[e]) return unsupported(in, "a branch operand dim its parameter type calls static is dynamic");
    Instr **ops = arena_array(&P->a, (size_t)bp->t.k + 2, sizeof(Instr *));
    if (!ops) return cxla_oom();
    ops[0] = o;
    for (int j = 0; j < bp->t.k; j++) {
      int e = bp->t.flat[j];
      if (!(ops[1 + j] = sz && sz[e] ? sz[e] : k_s32(P, bp->t.bound[e]))) return cxla_oom();
    }
    Shape *s = shape_clone(&P->m->arena, bp->ext);
    Instr *t = s ? comp_add_instr(P->c, OP_TUPLE, s, bp->t.k + 1, ops, NULL) : NULL;
    if (!t) return cxla_oom();
    in->operands[1 + b] = t;
  }
  return NULL;
}

static cxla_status walk(Pad *P) {
  Computation *c = P->c;
  comp_renumber(c);
  int n = P->n = c->ninstrs;
  P->size = arena_array(&P->a, (size_t)n + 1, sizeof *P->size);
  P->repl = arena_array(&P->a, (size_t)n + 1, sizeof *P->repl);
  P->offs = arena_array(&P->a, (size_t)n + 1, sizeof *P->offs);
  if (!P->size || !P->repl || !P->offs) return cxla_oom();
  memset(P->offs, 0, ((size_t)n + 1) * sizeof *P->offs);
  memset(P->size, 0, ((size_t)n + 1) * sizeof *P->size);
  memset(P->repl, 0, ((size_t)n + 1) * sizeof *P->repl);
  LoopState *ls = loop_state(c);
  if (ls) TRY(loop_param_sizes(P, ls));
  if (branch_param(c)) TRY(branch_param_sizes(P, branch_param(c)));
  for (int i = 0; i < n; i++) {
    Instr *in = c->instrs[i];
    int nops = in->noperands;
    Instr ***ops_sz = arena_array(&P->a, (size_t)nops + 1, sizeof *ops_sz);
    if (!ops_sz) return cxla_oom();
    bool dyn = false;
    for (int k = 0; k < nops; k++) {
      ops_sz[k] = sizes_of(P, in->operands[k]);
      dyn |= ops_sz[k] != NULL;
      in->operands[k] = resolve(P, in->operands[k]);
    }
    for (int k = 0; k < in->ncontrol_preds; k++) in->control_preds[k] = resolve(P, in->control_preds[k]);
    if (in->op == OP_WHILE && in->ncalled == 2 && loop_state(in->called[1])) {
      Instr **osz = new_sizes(P, in->shape);
      Instr *out = NULL;
      if (!osz) return cxla_oom();
      TRY(pad_while(P, in, loop_state(in->called[1]), ops_sz[0], osz, &out));
      P->repl[i] = out;
      if (any_size(osz, flat_dims(in->shape))) P->size[i] = osz;
      continue;
    }
    if (in->op != OP_CONDITIONAL && (calls_dynamic(in) || calls_branch_param(in)))
      return unsupported(in, calls_dynamic(in) ? "a computation it calls gives a result of dynamic size"
                                               : "a computation it calls has a dynamic parameter");
    if (in->op == OP_CONDITIONAL && (dyn || calls_branch_param(in)))
      TRY(pad_branch_operands(P, in, ops_sz));
    if (in->op == OP_CONDITIONAL && calls_dynamic(in)) {
      Instr **osz = new_sizes(P, in->shape);
      Instr *out = NULL;
      if (!osz) return cxla_oom();
      TRY(pad_conditional(P, in, osz, &out));
      P->repl[i] = out;
      if (any_size(osz, flat_dims(in->shape))) P->size[i] = osz;
      continue;
    }
    if (in->op == OP_CONDITIONAL) continue;
    if (!dyn && in->op != OP_SET_DIMENSION_SIZE && in->op != OP_GET_DIMENSION_SIZE &&
        in->op != OP_DYNAMIC_RESHAPE && !is_custom(in, "SliceToDynamic") && !is_tf_dynamic_op(in))
      continue;
    if (dyn && in->ncalled && in->op != OP_REDUCE && in->op != OP_REDUCE_WINDOW &&
        in->op != OP_SCATTER && in->op != OP_SORT && in->op != OP_MAP && !is_tf_dynamic_op(in))
      return unsupported(in, "a dynamic dimension flows into a computation it calls");
    Instr **osz = new_sizes(P, in->shape);
    if (!osz) return cxla_oom();
    Instr *out = NULL;
    TRY(visit(P, in, ops_sz, osz, &out));
    if (out) {
      P->repl[i] = out;
      if (out->id >= 0 && out->id < n && c->instrs[out->id] == out && P->repl[out->id])
        P->repl[i] = P->repl[out->id];
    }
    if (any_size(osz, flat_dims(in->shape))) P->size[i] = osz;
  }
  return NULL;
}

/* The ranks of s's leaves, depth first (tuple nesting is bounded by
 * the readers). */
static void leaf_ranks(const Shape *s, int *ranks, int *n) {
  if (s->type == T_TUPLE) {
    for (int i = 0; i < s->ntuple; i++) leaf_ranks(s->tuple[i], ranks, n);
    return;
  }
  ranks[(*n)++] = type_is_array(s->type) ? s->rank : 0;
}

static int count_leaves(const Shape *s) {
  if (s->type != T_TUPLE) return 1;
  int n = 0;
  for (int i = 0; i < s->ntuple; i++) n += count_leaves(s->tuple[i]);
  return n;
}

/* Entry: the root as tuple(root, sizes...), out filled. */
static cxla_status expose_results(Pad *P, Instr **root_sz, DynamicResults *out) {
  Computation *c = P->c;
  Instr *root = c->root;
  const Shape *rs = root->shape;
  int ndims = flat_dims(rs), nleaves = count_leaves(rs), nsz = 0;
  for (int e = 0; e < ndims; e++) nsz += root_sz[e] != NULL;
  int *ranks = arena_array(&P->a, (size_t)nleaves + 1, sizeof(int));
  if (!ranks) return cxla_oom();
  int nl = 0;
  leaf_ranks(rs, ranks, &nl);
  out->nresults = nleaves;
  out->dims_at = cxla_calloc((size_t)nleaves + 1, sizeof(int));
  out->size_leaf = cxla_calloc((size_t)ndims + 1, sizeof(int));
  if (!out->dims_at || !out->size_leaf) return cxla_oom();
  for (int l = 0; l < nleaves; l++) out->dims_at[l + 1] = out->dims_at[l] + ranks[l];
  Instr **ops = arena_array(&P->a, (size_t)nsz + 1, sizeof(Instr *));
  Shape **shapes = arena_array(&P->m->arena, (size_t)nsz + 1, sizeof(Shape *));
  if (!ops || !shapes) return cxla_oom();
  ops[0] = root;
  shapes[0] = root->shape;
  int k = 1;
  for (int e = 0; e < ndims; e++) {
    out->size_leaf[e] = -1;
    if (!root_sz[e]) continue;
    out->size_leaf[e] = nleaves + k - 1;
    ops[k] = root_sz[e];
    shapes[k++] = root_sz[e]->shape;
  }
  Shape *ts = shape_new_tuple(&P->m->arena, k, shapes);
  Instr *t = ts ? comp_add_instr(c, OP_TUPLE, ts, k, ops, NULL) : NULL;
  if (!t) return cxla_oom();
  c->root = t;
  if (P->m->entry_layout) {
    Shape *l = shape_clone(&P->m->arena, ts);
    if (!l) return cxla_oom();
    clear_dynamic(l);
    TRY(shape_set_default_layout(&P->m->arena, l));
    P->m->entry_layout->result = l;
  }
  return NULL;
}

/* The keep form's result (dynamic_padder_run with out NULL): each leaf of
 * value v with a dynamic dim becomes SliceToDynamic(leaf, size per dim),
 * as XLA's optimized HLO hands one out; recorded in P->keep, whose
 * shapes are marked dynamic once the module's flags are cleared. sz: v's
 * flat sizes from *e (tuple nesting is bounded by the readers). NULL: out
 * of memory. */
static Instr *slice_leaves(Pad *P, Instr *v, Instr **sz, int *e) {
  const Shape *s = v->shape;
  if (s->type == T_TUPLE) {
    Instr **ops = arena_array(&P->a, (size_t)s->ntuple + 1, sizeof(Instr *));
    Shape **el = arena_array(&P->m->arena, (size_t)s->ntuple + 1, sizeof(Shape *));
    if (!ops || !el) return NULL;
    bool any = false;
    for (int i = 0; i < s->ntuple; i++) {
      Instr *g = gte(P, v, i);
      if (!g || !(ops[i] = slice_leaves(P, g, sz, e))) return NULL;
      any |= ops[i] != g;
      el[i] = ops[i]->shape;
    }
    if (!any) return v;
    Shape *ts = shape_new_tuple(&P->m->arena, s->ntuple, el);
    return ts ? comp_add_instr(P->c, OP_TUPLE, ts, s->ntuple, ops, NULL) : NULL;
  }
  int r = type_is_array(s->type) ? s->rank : 0, at = *e;
  *e += r;
  if (!any_size(sz + at, r)) return v;
  SliceList *k = P->keep;
  Instr **ops = arena_array(&P->a, (size_t)r + 2, sizeof(Instr *));
  bool *dyn = arena_array(&P->m->arena, (size_t)r + 1, sizeof(bool));
  Shape *cs = shape_clone(&P->m->arena, s);
  SliceMark *mk = cxla_realloc(k->v, ((size_t)k->n + 1) * sizeof *mk);
  if (mk) k->v = mk;
  if (!ops || !dyn || !cs || !mk) return NULL;
  ops[0] = v;
  for (int d = 0; d < r; d++) {
    dyn[d] = sz[at + d] != NULL;
    if (!(ops[1 + d] = dyn[d] ? sz[at + d] : k_s32(P, s->dims[d]))) return NULL;
  }
  Instr *c = comp_add_instr(P->c, OP_CUSTOM_CALL, cs, r + 1, ops, NULL);
  if (!c || !(c->custom_call_target = arena_strdup(&P->m->arena, "SliceToDynamic"))) return NULL;
  c->attrs |= A_CUSTOM_CALL;
  k->v[k->n++] = (SliceMark){c, dyn};
  return c;
}

void dynamic_results_free(DynamicResults *r) {
  if (!r) return;
  cxla_free(r->dims_at);
  cxla_free(r->size_leaf);
  memset(r, 0, sizeof *r);
}

static int count_dynamic(const Shape *s) {
  if (s->type == T_TUPLE) {
    int k = 0;
    for (int i = 0; i < s->ntuple; i++) k += count_dynamic(s->tuple[i]);
    return k;
  }
  int k = 0;
  for (int d = 0; s->dynamic && type_is_array(s->type) && d < s->rank; d++) k += s->dynamic[d];
  return k;
}

static void fill_dims(const Shape *s, DimTable *t, int *e, int *j) {
  if (s->type == T_TUPLE) {
    for (int i = 0; i < s->ntuple; i++) fill_dims(s->tuple[i], t, e, j);
    return;
  }
  for (int d = 0; type_is_array(s->type) && d < s->rank; d++, (*e)++) {
    t->bound[*e] = s->dims[d];
    t->is_dyn[*e] = s->dynamic && s->dynamic[d];
    if (t->is_dyn[*e]) t->flat[(*j)++] = *e;
  }
}

/* The table of s's dims (tuple nesting is bounded by the readers), in
 * the module arena. */
static cxla_status dim_table(HloModule *m, const Shape *s, DimTable *t) {
  t->nd = flat_dims(s);
  t->k = count_dynamic(s);
  t->flat = arena_array(&m->arena, (size_t)t->k + 1, sizeof(int));
  t->bound = arena_array(&m->arena, (size_t)t->nd + 1, sizeof(int64_t));
  t->is_dyn = arena_array(&m->arena, (size_t)t->nd + 1, sizeof(bool));
  if (!t->flat || !t->bound || !t->is_dyn) return cxla_oom();
  int e = 0, j = 0;
  fill_dims(s, t, &e, &j);
  return NULL;
}

/* tuple(el[0..n), s32[] x k), in the module arena; NULL: out of memory. */
static Shape *with_sizes(HloModule *m, Shape *const *el, int n, int k) {
  Shape **all = arena_array(&m->arena, (size_t)(n + k) + 1, sizeof(Shape *));
  if (!all) return NULL;
  for (int i = 0; i < n; i++) all[i] = el[i];
  for (int j = 0; j < k; j++)
    if (!(all[n + j] = shape_new(&m->arena, T_S32, 0, NULL)) || shape_set_default_layout(&m->arena, all[n + j]))
      return NULL;
  return shape_new_tuple(&m->arena, n + k, all);
}

/* The LoopState of while loop `in` (its body's parameter type has dynamic
 * dims), in the module arena, added to *loops. */
static cxla_status new_loop_state(HloModule *m, Instr *in, const int *cond_calls, const int *body_calls,
                                  LoopState ***loops, int *nloops) {
  Shape *st = in->called[1]->params[0]->shape;
  if (!cond_calls || !body_calls || *cond_calls != 1 || *body_calls != 1)
    return unsupported(in, "a loop with dynamic state whose body or condition other instructions call too");
  if (st->type != T_TUPLE) return unsupported(in, "a loop with dynamic state that is not a tuple");
  for (int i = 0; i < st->ntuple; i++)
    if (st->tuple[i]->type == T_TUPLE) return unsupported(in, "a loop with dynamic state of nested tuples");
  LoopState *ls = arena_alloc(&m->arena, sizeof *ls);
  if (!ls) return cxla_oom();
  *ls = (LoopState){.kind = SCRATCH_LOOP_STATE, .n = st->ntuple, .body = in->called[1]};
  TRY(dim_table(m, st, &ls->t));
  ls->ext = with_sizes(m, st->tuple, st->ntuple, ls->t.k);
  LoopState **grown = cxla_realloc(*loops, ((size_t)*nloops + 1) * sizeof *grown);
  if (!ls->ext || !grown) return cxla_oom();
  grown[(*nloops)++] = ls;
  *loops = grown;
  return NULL;
}

/* The BranchParam of branch f of conditional `in` (f's parameter type has
 * dynamic dims), in the module arena; its scratch is set by the caller. */
static cxla_status new_branch_param(HloModule *m, const Instr *in, Computation *f, int calls,
                                    BranchParam **out) {
  if (calls != 1) return unsupported(in, "a branch with a dynamic parameter that other instructions call too");
  BranchParam *bp = arena_alloc(&m->arena, sizeof *bp);
  if (!bp) return cxla_oom();
  *bp = (BranchParam){.kind = SCRATCH_BRANCH_PARAM};
  TRY(dim_table(m, f->params[0]->shape, &bp->t));
  if (!(bp->ext = with_sizes(m, &f->params[0]->shape, 1, bp->t.k))) return cxla_oom();
  *out = bp;
  return NULL;
}

/* dst's leaves take src's dynamic flags (the same tuple structure). */
static void copy_dynamic(Shape *dst, const Shape *src) {
  if (dst->type == T_TUPLE && src->type == T_TUPLE) {
    for (int i = 0; i < dst->ntuple && i < src->ntuple; i++) copy_dynamic(dst->tuple[i], src->tuple[i]);
    return;
  }
  if (dst->type != T_TUPLE && src->type != T_TUPLE && dst->rank == src->rank) dst->dynamic = src->dynamic;
}

/* The pass; out: the expose form (dynamic_padder_run), keep: the keep
 * form (pass_dynamic_padder), exactly one of them. */
static cxla_status run(HloModule *m, DynamicResults *out, SliceList *keep) {
  /* calls first: a dynamic value may flow through one */
  PassContext ctx = {0};
  bool changed = false;
  TRY(pass_call_inliner(m, &ctx, &changed));
  cxla_status s = NULL;
  /* how many calls each computation has (a conditional's branch hands
   * sizes out only to its one caller): counted through scratch, which
   * then holds each computation's RootSizes */
  int *callers = cxla_calloc((size_t)m->ncomps + 1, sizeof *callers);
  if (!callers) return cxla_oom();
  for (int ci = 0; ci < m->ncomps; ci++) m->comps[ci]->scratch = &callers[ci];
  for (int ci = 0; ci < m->ncomps; ci++) {
    Computation *c = m->comps[ci];
    for (int i = 0; i < c->ninstrs; i++)
      for (int k = 0; k < c->instrs[i]->ncalled; k++)
        if (c->instrs[i]->called[k] && c->instrs[i]->called[k]->scratch)
          ++*(int *)c->instrs[i]->called[k]->scratch;
  }
  /* loops whose body's parameter type has dynamic dims, branches whose
   * parameter type has */
  int nloops = 0, nbranches = 0;
  LoopState **loops = NULL;
  BranchParam **branches = NULL;
  Computation **branch_of = NULL;
  for (int ci = 0; ci < m->ncomps && !s; ci++) {
    Computation *c = m->comps[ci];
    for (int i = 0; i < c->ninstrs && !s; i++) {
      Instr *in = c->instrs[i];
      for (int b = 0; in->op == OP_CONDITIONAL && b < in->ncalled && !s; b++) {
        Computation *f = in->called[b];
        if (!f || f->nparams != 1 || !f->params[0] || !shape_dynamic(f->params[0]->shape)) continue;
        BranchParam **grown = cxla_realloc(branches, ((size_t)nbranches + 1) * sizeof *grown);
        if (grown) branches = grown;
        Computation **grown_of = grown ? cxla_realloc(branch_of, ((size_t)nbranches + 1) * sizeof *grown_of) : NULL;
        if (grown_of) branch_of = grown_of;
        s = grown && grown_of ? new_branch_param(m, in, f, *(int *)f->scratch, &branches[nbranches]) : cxla_oom();
        if (!s) branch_of[nbranches++] = f;
      }
      if (in->op != OP_WHILE || in->ncalled != 2 || !in->called[0] || !in->called[1]) continue;
      Computation *cond = in->called[0], *body = in->called[1];
      if (body->nparams != 1 || !body->params[0] || !shape_dynamic(body->params[0]->shape)) continue;
      s = new_loop_state(m, in, (int *)cond->scratch, (int *)body->scratch, &loops, &nloops);
    }
  }
  for (int ci = 0; ci < m->ncomps; ci++) m->comps[ci]->scratch = NULL;
  for (int i = 0; i < nloops; i++) loops[i]->body->scratch = loops[i];
  for (int i = 0; i < nbranches; i++) branch_of[i]->scratch = branches[i];
  cxla_free(branches);
  cxla_free(branch_of);
  for (int ci = 0; ci < m->ncomps; ci++) /* the conditions: the loops' other callee */
    for (int i = 0; i < m->comps[ci]->ninstrs; i++) {
      Instr *in = m->comps[ci]->instrs[i];
      if (in->op == OP_WHILE && in->ncalled == 2 && in->called[0] && loop_state(in->called[1]))
        in->called[0]->scratch = in->called[1]->scratch;
    }
  cxla_free(loops);
  if (s) {
    cxla_free(callers);
    return s;
  }
  int ncomps = m->ncomps; /* sort comparators added by the walk need no walk */
  Computation **comps = cxla_calloc((size_t)ncomps + 1, sizeof *comps);
  if (!comps) return cxla_oom();
  memcpy(comps, m->comps, (size_t)ncomps * sizeof *comps);
  for (int ci = 0; ci < ncomps && !s; ci++) {
    Pad P = {.m = m, .c = comps[ci], .keep = keep};
    arena_init(&P.a);
    s = walk(&P);
    Computation *c = comps[ci];
    if (!s) {
      Instr *r = c->root;
      Instr **root_sz = r->id >= 0 && r->id < P.n && c->instrs[r->id] == r ? P.size[r->id] : NULL;
      c->root = resolve(&P, r);
      LoopState *ls = loop_state(c);
      if (ls && ls->body == c) {
        /* the body returns the extended state: the sizes its result has */
        for (int e = 0; root_sz && e < ls->t.nd && !s; e++)
          if (root_sz[e] && !ls->t.is_dyn[e]) s = unsupported(r, "a loop state dim its type calls static is dynamic");
        Instr *t = s ? NULL : extend_state(&P, ls, c->root, root_sz);
        if (!s && !t) s = cxla_oom();
        if (!s) c->root = t;
      } else if (ls) {
        /* a condition: its root is a pred */
      } else if (root_sz && !c->is_entry) {
        /* for the caller: a conditional hands the sizes on (pad_conditional) */
        int nd = flat_dims(c->root->shape);
        RootSizes *rsz = arena_alloc(&m->arena, sizeof *rsz);
        Instr **copy = arena_array(&m->arena, (size_t)nd + 1, sizeof *copy);
        if (!rsz || !copy) {
          s = cxla_oom();
        } else {
          memcpy(copy, root_sz, (size_t)nd * sizeof *copy);
          *rsz = (RootSizes){SCRATCH_ROOT_SIZES, nd, copy, callers[ci]};
          if (branch_param(c))
            branch_param(c)->root = rsz;
          else
            c->scratch = rsz;
        }
      } else if (root_sz && keep) {
        int e = 0;
        Instr *t = slice_leaves(&P, c->root, root_sz, &e);
        if (!t) s = cxla_oom();
        else c->root = t;
      } else if (root_sz) {
        s = expose_results(&P, root_sz, out);
      }
    }
    /* pruned at the end: a branch's sizes are unused until its caller */
    if (!s) s = comp_sort(c);
    arena_destroy(&P.a);
  }
  cxla_free(comps);
  cxla_free(callers);
  for (int ci = 0; ci < m->ncomps; ci++) m->comps[ci]->scratch = NULL;
  if (s) return s;
  for (int ci = 0; ci < m->ncomps; ci++) {
    Computation *c = m->comps[ci];
    TRY(comp_sort(c));
    comp_prune(c);
    for (int i = 0; i < c->ninstrs; i++) clear_dynamic(c->instrs[i]->shape);
  }
  if (m->entry_layout) {
    for (int i = 0; i < m->entry_layout->nparams; i++) clear_dynamic(m->entry_layout->params[i]);
    clear_dynamic(m->entry_layout->result);
  }
  /* the keep form's results are dynamic again (a tuple built over them
   * shares their shapes) */
  for (int i = 0; keep && i < keep->n; i++) keep->v[i].call->shape->dynamic = keep->v[i].dyn;
  if (keep && keep->n && m->entry && m->entry_layout) copy_dynamic(m->entry_layout->result, m->entry->root->shape);
  return module_mark_side_effects(m);
}

cxla_status dynamic_padder_run(HloModule *m, DynamicResults *out) {
  memset(out, 0, sizeof *out);
  return dynamic_padder_needed(m) ? run(m, out, NULL) : NULL;
}

cxla_status pass_dynamic_padder(HloModule *m, const PassContext *ctx, bool *changed) {
  (void)ctx;
  *changed = false;
  if (!dynamic_padder_needed(m)) return NULL;
  SliceList keep = {0};
  cxla_status s = run(m, NULL, &keep);
  cxla_free(keep.v);
  *changed = true;
  return s;
}
