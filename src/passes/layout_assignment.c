/* layout_assignment.c: layout assignment (pass "layout-assignment"), in the
 * spirit of XLA's LayoutAssignment / CpuLayoutAssignment.
 *
 * Every array shape gets a layout (minor_to_major). Each computation that
 * runs as code (the entry, call/while/conditional bodies) is laid out in
 * three phases:
 *
 *  A. forward, in post order, each instruction's layout is chosen from its
 *     operands': entry parameters take the module's entry_computation_layout
 *     (others keep their layout, or row-major); elementwise ops and
 *     same-rank data movement (slice, pad, reverse, concatenate,
 *     dynamic-(update-)slice) follow their first operand whose layout is
 *     decided; reduce keeps its input's order of the dims it keeps;
 *     convolutions lay out their result batch-major, feature-minor (NHWC
 *     physically, whatever the logical dim_labels; a filter gradient's,
 *     kernel-shaped, row-major); a transpose takes the
 *     layout that keeps its operand's bytes where they are and becomes a
 *     bitcast (the transpose costs nothing; a copy appears only where a user
 *     needs another layout, as XLA turns transposes into copies and
 *     bitcasts); dot, reshape and everything else produce row-major results.
 *     Broadcasts, iotas and constants (and elementwise ops of only those)
 *     are "free": no operand decides their layout.
 *  B. backward, free instructions take the layout their first user wants,
 *     so a bias broadcast added to an NHWC convolution result is laid out
 *     like it.
 *  C. every operand whose layout is not what its user needs gets a copy
 *     with the needed layout (one copy per value and layout). Needs:
 *     elementwise and same-rank data movement want their own layout;
 *     reshape wants row-major (then it is a bitcast); dot accepts row-major
 *     operands or matrices whose two non-batch dims are the minor ones in
 *     either order (a transposed GEMM operand), batch dims major; a
 *     convolution wants NHWC input and HWIO kernel physically (a filter
 *     gradient: its lhs batch and rhs output features minor); bitcasts and
 *     custom-calls keep their operands' original layouts; while, call,
 *     conditional and fusion operands must match the callee's parameters;
 *     the entry result must match entry_computation_layout, a while body's
 *     result its parameter, a conditional branch's result row-major.
 *
 * Values never change: the interpreter computes logical values and honours
 * layouts only in bitcast, and the only bitcasts this pass creates are
 * transposes whose result layout is exactly their operand's bytes
 * reinterpreted. Fused and applied computations (reducers, comparators)
 * only have missing layouts filled in with row-major.
 *
 * Memory: new shapes and instructions come from the module arena; scratch
 * arrays are heap memory freed before returning. */
#include <stdio.h>
#include <string.h>

#include "ir/rewrite.h"
#include "passes/fusion_util.h"
#include "passes/passes.h"

/* ---- layouts on shapes ---- */

/* minor_to_major[k] of s, row-major when s has no layout. */
static int64_t m2m(const Shape *s, int k) {
  return s->has_layout && s->minor_to_major ? s->minor_to_major[k] : s->rank - 1 - k;
}

static bool is_row_major(const Shape *s) {
  for (int k = 0; k < s->rank; k++)
    if (m2m(s, k) != s->rank - 1 - k) return false;
  return true;
}

/* Same layouts (missing ones read as row-major), tuples element by element. */
static bool lay_eq(const Shape *a, const Shape *b) {
  if (a->type == T_TUPLE || b->type == T_TUPLE) {
    if (a->type != b->type || a->ntuple != b->ntuple) return false;
    for (int i = 0; i < a->ntuple; i++)
      if (!lay_eq(a->tuple[i], b->tuple[i])) return false;
    return true;
  }
  if (!type_is_array(a->type) || a->rank != b->rank) return true;
  for (int k = 0; k < a->rank; k++)
    if (m2m(a, k) != m2m(b, k)) return false;
  return true;
}

/* Every array in s has a layout. */
static bool fully_laid_out(const Shape *s) {
  if (s->type == T_TUPLE) {
    for (int i = 0; i < s->ntuple; i++)
      if (!fully_laid_out(s->tuple[i])) return false;
    return true;
  }
  return !type_is_array(s->type) || s->has_layout;
}

/* Sets array shape s (owned) to layout m (rank entries). */
static bool set_layout(Arena *a, Shape *s, const int64_t *m) {
  s->has_layout = true;
  s->layout_tail = NULL;
  if (s->rank == 0) return true;
  if (!s->minor_to_major && !(s->minor_to_major = arena_array(a, (size_t)s->rank, sizeof(int64_t))))
    return false;
  memcpy(s->minor_to_major, m, (size_t)s->rank * sizeof(int64_t));
  return true;
}

/* A copy of s whose arrays take from's layouts where from has an array of
 * the same rank at the same place, row-major elsewhere. NULL on OOM. */
static Shape *lay_like(Arena *a, const Shape *s, const Shape *from) {
  Shape *r = shape_clone(a, s);
  if (!r) return NULL;
  if (s->type == T_TUPLE) {
    for (int i = 0; i < s->ntuple; i++) {
      const Shape *f = from && from->type == T_TUPLE && i < from->ntuple ? from->tuple[i] : NULL;
      if (!(r->tuple[i] = lay_like(a, s->tuple[i], f))) return NULL;
    }
    return r;
  }
  if (!type_is_array(s->type)) return r;
  int64_t m[64];
  if (s->rank > 64) return shape_set_default_layout(a, r) ? NULL : r;
  bool use = from && type_is_array(from->type) && from->type != T_TUPLE && from->rank == s->rank;
  for (int k = 0; k < s->rank; k++) m[k] = use ? m2m(from, k) : s->rank - 1 - k;
  return set_layout(a, r, m) ? r : NULL;
}

static Shape *lay_default(Arena *a, const Shape *s) { return lay_like(a, s, NULL); }
/* s's own layouts, row-major where it has none. */
static Shape *lay_keep(Arena *a, const Shape *s) {
  Shape *r = shape_clone(a, s);
  if (!r) return NULL;
  if (s->type == T_TUPLE) {
    for (int i = 0; i < s->ntuple; i++)
      if (!(r->tuple[i] = lay_keep(a, s->tuple[i]))) return NULL;
    return r;
  }
  if (type_is_array(s->type) && !s->has_layout && shape_set_default_layout(a, r)) return NULL;
  return r;
}

/* An array shape like s with layout m. */
static Shape *lay_with(Arena *a, const Shape *s, const int64_t *m) {
  Shape *r = shape_clone(a, s);
  return r && set_layout(a, r, m) ? r : NULL;
}

/* ---- per-computation state ---- */

typedef struct Lay {
  HloModule *m;
  Arena *a;
  Computation *c;
  int n;                    /* instructions when the pass started on c */
  Shape **L;                /* chosen shape (with layouts) by instruction id */
  unsigned char *free_;     /* layout decided by users (phase B) */
  unsigned char *bitcast;   /* transpose that becomes a bitcast */
  const Shape *root_need;   /* layout the root must have, or NULL */
  const EntryLayout *entry; /* for the entry computation, or NULL */
  bool changed;
} Lay;

#define OOM_IF(x) do { if (!(x)) return cxla_oom(); } while (0)

static bool ew_like(const Instr *in) {
  return (op_info(in->op)->flags & OPF_EW) != 0;
}

/* Same-rank data movement whose result follows its operand's layout. */
static bool preserving(const Instr *in) {
  switch (in->op) {
  case OP_SLICE: case OP_PAD: case OP_REVERSE: case OP_DYNAMIC_SLICE:
  case OP_DYNAMIC_UPDATE_SLICE: case OP_CONCATENATE:
    return true;
  default:
    return false;
  }
}

/* m = minor, the spatial dims (the last one first), major. */
static void m2m_around_spatial(int64_t *m, int64_t minor, const int64_t *spatial, int ns, int64_t major) {
  int k = 0;
  m[k++] = minor;
  for (int i = ns - 1; i >= 0; i--) m[k++] = spatial[i];
  m[k] = major;
}

/* Convolution layouts, minor to major: NHWC input and result, HWIO kernel. */
static void conv_input_m2m(const ConvDims *d, int64_t *m) {
  m2m_around_spatial(m, d->in_feature, d->in_spatial, d->nspatial, d->in_batch);
}
static void conv_kernel_m2m(const ConvDims *d, int64_t *m) {
  int ns = d->nspatial, k = 0;
  m[k++] = d->k_out;
  m[k++] = d->k_in;
  for (int i = ns - 1; i >= 0; i--) m[k++] = d->k_spatial[i];
}
static void conv_output_m2m(const ConvDims *d, int64_t *m) {
  m2m_around_spatial(m, d->out_feature, d->out_spatial, d->nspatial, d->out_batch);
}

/* Whether a convolution is a filter gradient (the form XLA gives a
 * convolution's weight gradient: stride 1, no dilation, reversal or
 * groups, the window covering most of the padded input, more than one
 * output position; the CPU backend's weight-gradient kernel, src/cpu/
 * wgrad.c, runs it). Its lhs "batch" is what the kernel broadcasts, one
 * element per accumulator row, and its rhs output features are what it
 * loads as vectors: it wants them minor (for the usual NHWC activations and
 * gradients, their own layout: no copies). Mirrors the backend's test
 * (conv.c, shift_ok). */
static bool conv_is_filter_grad(const Instr *u) {
  const ConvDims *d = &u->conv;
  int ns = d->nspatial;
  if (ns < 1 || u->nwindow != ns || u->feature_group_count != 1 || u->batch_group_count != 1) return false;
  const Shape *x = u->operands[0]->shape, *k = u->operands[1]->shape;
  double S = 1, KS = 1, OS = 1;
  for (int i = 0; i < ns; i++) {
    const WindowDim *w = &u->window[i];
    int64_t in = x->dims[d->in_spatial[i]], kk = k->dims[d->k_spatial[i]], out = u->shape->dims[d->out_spatial[i]];
    if (w->stride != 1 || w->lhs_dilate != 1 || w->rhs_dilate != 1 || w->reversal || w->pad_lo < 0 ||
        w->pad_hi < 0 || out != in + w->pad_lo + w->pad_hi - kk + 1)
      return false;
    S *= (double)(in + w->pad_lo + w->pad_hi);
    KS *= (double)kk;
    OS *= (double)out;
  }
  return OS > 1 && 2 * S <= 3 * KS;
}

/* A filter gradient's operands, minor to major: the lhs batch, the
 * spatial dims, its features; the rhs output features, the spatial dims,
 * its input features. */
static void wgrad_input_m2m(const ConvDims *d, int64_t *m) {
  m2m_around_spatial(m, d->in_batch, d->in_spatial, d->nspatial, d->in_feature);
}
static void wgrad_kernel_m2m(const ConvDims *d, int64_t *m) {
  m2m_around_spatial(m, d->k_out, d->k_spatial, d->nspatial, d->k_in);
}

/* Whether a dot can read operand k in layout s without a copy: row-major,
 * or a matrix (two non-batch dims) in either order with the batch dims
 * major, in order. */
static bool dot_operand_ok(const Instr *dot, int k, const Shape *s) {
  if (is_row_major(s)) return true;
  const I64List *batch = k == 0 ? &dot->dot.lhs_batch : &dot->dot.rhs_batch;
  if (s->rank - batch->n != 2) return false;
  for (int i = 0; i < batch->n; i++)
    if (m2m(s, s->rank - 1 - i) != batch->v[i]) return false;
  return true;
}

/* The layout user u needs for its operand k, or NULL if any will do. May
 * allocate (OOM reads as "any", caught when the copy is made). */
static const Shape *need(Lay *st, const Instr *u, int k) {
  const Instr *x = u->operands[k];
  const Shape *xs = st->L[x->id] ? st->L[x->id] : x->shape;
  Arena *a = st->a;
  int64_t m[64];
  switch (u->op) {
  case OP_RESHAPE:
    return is_row_major(xs) ? NULL : lay_default(a, x->shape);
  case OP_DOT:
    return dot_operand_ok(u, k, xs) ? NULL : lay_default(a, x->shape);
  case OP_CONVOLUTION:
    if (k > 1 || x->shape->rank != u->conv.nspatial + 2 || x->shape->rank > 64) return NULL;
    if (conv_is_filter_grad(u)) {
      if (k == 0) wgrad_input_m2m(&u->conv, m);
      else wgrad_kernel_m2m(&u->conv, m);
    } else if (k == 0) {
      conv_input_m2m(&u->conv, m);
    } else {
      conv_kernel_m2m(&u->conv, m);
    }
    return lay_with(a, x->shape, m);
  case OP_BITCAST:
    /* Transposes made bitcasts read their operand as laid out; original
     * bitcasts need the operand layout they were written against. */
    return st->bitcast[u->id] ? NULL : lay_keep(a, x->shape);
  case OP_CUSTOM_CALL:
    return lay_keep(a, x->shape);
  case OP_WHILE:
    return u->ncalled == 2 ? u->called[1]->params[0]->shape : NULL;
  case OP_CALL: case OP_FUSION:
    return u->ncalled >= 1 && k < u->called[0]->nparams ? u->called[0]->params[k]->shape : NULL;
  case OP_CONDITIONAL:
    return k >= 1 && k - 1 < u->ncalled && u->called[k - 1]->nparams == 1
               ? u->called[k - 1]->params[0]->shape
               : NULL;
  default:
    break;
  }
  if ((ew_like(u) || preserving(u)) && type_is_array(x->shape->type) &&
      x->shape->rank == u->shape->rank && type_is_array(u->shape->type))
    return st->L[u->id];
  return NULL;
}

/* ---- phase A ---- */

/* First operand of in with in's rank whose layout is decided, or NULL. */
static const Instr *leader(const Lay *st, const Instr *in) {
  for (int k = 0; k < in->noperands; k++) {
    const Instr *x = in->operands[k];
    if (type_is_array(x->shape->type) && x->shape->rank == in->shape->rank && !st->free_[x->id])
      return x;
  }
  return NULL;
}

/* The layout of a reduce result: the input's order of the kept dims. */
static Shape *reduce_layout(Arena *a, const Instr *in, const Shape *input) {
  int64_t m[64], keep_index[64];
  int r = input->rank, j = 0;
  if (r > 64) return lay_default(a, in->shape);
  for (int d = 0, out = 0; d < r; d++) {
    bool reduced = false;
    for (int i = 0; i < in->dimensions.n; i++) reduced |= in->dimensions.v[i] == d;
    keep_index[d] = reduced ? -1 : out++;
  }
  for (int k = 0; k < r; k++)
    if (keep_index[m2m(input, k)] >= 0) m[j++] = keep_index[m2m(input, k)];
  if (in->shape->type != T_TUPLE) return in->shape->rank == j ? lay_with(a, in->shape, m) : lay_default(a, in->shape);
  Shape *s = shape_clone(a, in->shape);
  if (!s) return NULL;
  for (int i = 0; i < s->ntuple; i++)
    if (s->tuple[i]->rank == j && !set_layout(a, s->tuple[i], m)) return NULL;
  return s;
}

/* The layout that lets transpose `in` keep its operand's bytes: result dim
 * i is operand dim perm[i], so operand dim d is result dim inv[d]. */
static Shape *transpose_layout(Arena *a, const Instr *in, const Shape *x) {
  int64_t inv[64], m[64];
  int r = x->rank;
  if (r > 64 || in->dimensions.n != r) return NULL;
  for (int i = 0; i < r; i++) inv[in->dimensions.v[i]] = i;
  for (int k = 0; k < r; k++) m[k] = inv[m2m(x, k)];
  return lay_with(a, in->shape, m);
}

static cxla_status choose(Lay *st, Instr *in) {
  Arena *a = st->a;
  int id = in->id;
  Shape **L = &st->L[id];
  const Instr *x0 = in->noperands ? in->operands[0] : NULL;
  switch (in->op) {
  case OP_PARAMETER:
    if (st->entry && in->param_number < st->entry->nparams)
      *L = lay_like(a, in->shape, st->entry->params[in->param_number]);
    else
      *L = lay_keep(a, in->shape);
    break;
  case OP_CONSTANT: case OP_IOTA: case OP_BROADCAST:
    st->free_[id] = 1;
    *L = lay_default(a, in->shape);
    break;
  case OP_TRANSPOSE:
    if (!st->free_[x0->id] && type_is_array(in->shape->type) &&
        (*L = transpose_layout(a, in, st->L[x0->id]))) {
      st->bitcast[id] = 1;
      break;
    }
    *L = lay_default(a, in->shape);
    break;
  case OP_REDUCE:
    *L = x0 && !st->free_[x0->id] && type_is_array(x0->shape->type)
             ? reduce_layout(a, in, st->L[x0->id])
             : lay_default(a, in->shape);
    break;
  case OP_CONVOLUTION: {
    int64_t m[64];
    if (in->shape->rank != in->conv.nspatial + 2 || in->shape->rank > 64) {
      *L = lay_default(a, in->shape);
      break;
    }
    if (conv_is_filter_grad(in)) {
      /* a kernel-shaped result the kernel writes through any strides:
       * row-major, as its users (the optimizer's update) read it */
      *L = lay_default(a, in->shape);
      break;
    }
    conv_output_m2m(&in->conv, m);
    *L = lay_with(a, in->shape, m);
    break;
  }
  case OP_GET_TUPLE_ELEMENT: {
    const Shape *t = st->L[x0->id];
    *L = t->type == T_TUPLE && in->index >= 0 && in->index < t->ntuple
             ? lay_like(a, in->shape, t->tuple[in->index])
             : lay_keep(a, in->shape);
    break;
  }
  case OP_TUPLE: {
    Shape **el = arena_array(a, (size_t)in->noperands + 1, sizeof(Shape *));
    OOM_IF(el);
    for (int k = 0; k < in->noperands; k++) el[k] = st->L[in->operands[k]->id];
    *L = shape_new_tuple(a, in->noperands, el);
    break;
  }
  case OP_WHILE:
    *L = in->ncalled == 2 ? lay_like(a, in->shape, in->called[1]->params[0]->shape)
                          : lay_keep(a, in->shape);
    break;
  case OP_CALL: case OP_FUSION:
    *L = in->ncalled >= 1 && in->called[0]->root ? lay_like(a, in->shape, in->called[0]->root->shape)
                                                 : lay_keep(a, in->shape);
    break;
  case OP_CONDITIONAL:
    *L = lay_default(a, in->shape);
    break;
  default:
    if (ew_like(in) || preserving(in)) {
      const Instr *lead = leader(st, in);
      if (lead) {
        *L = lay_like(a, in->shape, st->L[lead->id]);
      } else {
        st->free_[id] = 1;
        *L = lay_default(a, in->shape);
      }
    } else if (in->op == OP_DOT || in->op == OP_RESHAPE) {
      *L = lay_default(a, in->shape);
    } else {
      *L = lay_keep(a, in->shape);
    }
    break;
  }
  OOM_IF(*L);
  return NULL;
}

/* ---- phase B ---- */

static cxla_status settle_free(Lay *st) {
  Users u;
  TRY(users_build(st->c, &u));
  for (int i = st->n - 1; i >= 0; i--) {
    if (!st->free_[i]) continue;
    Instr *in = st->c->instrs[i];
    const Shape *want = in == st->c->root ? st->root_need : NULL;
    for (int j = 0; j < u.count[i] && !want; j++) {
      const Instr *user = u.list[i][j];
      for (int k = 0; k < user->noperands && !want; k++)
        if (user->operands[k] == in) want = need(st, user, k);
    }
    if (want && !(st->L[i] = lay_like(st->a, in->shape, want))) {
      users_free(&u);
      return cxla_oom();
    }
  }
  users_free(&u);
  return NULL;
}

/* ---- phase C ---- */

typedef struct Conformed {
  Instr *x, *y; /* y: x with layout `as` */
  const Shape *as;
  int next;     /* the entry before it for the same x, or -1 */
} Conformed;

/* What phase C has made in a computation: the conformed values, found by
 * x (its latest entry, the rest chained by next), and the computation's
 * names (indexed when the first is needed) with, per base name, the
 * suffix to try next. Each copy costs O(1) (before: a scan of every copy
 * made, and one of the computation per name tried, took 16 s for 1000
 * copies of 1000 values). */
enum { NAME_GTE, NAME_TUPLE, NAME_COPY };
typedef struct Copies {
  Conformed *v;
  int n, cap;
  PtrIndex latest;
  NameMap names;
  bool named;
  int next_suffix[3]; /* by NAME_*: 0 is the base itself */
} Copies;

static void copies_free(Copies *cp) {
  cxla_free(cp->v);
  ptrindex_free(&cp->latest);
  namemap_free(&cp->names);
}

/* A name for a new instruction in c: base, else base.N for the least N
 * no instruction there has (as XLA's name uniquer); NULL on OOM. */
static const char *copy_name(Lay *st, Copies *cp, int which) {
  static const char *const bases[] = {"get-tuple-element", "tuple", "copy"};
  if (!cp->named) {
    cxla_status s = comp_index_names(st->c, &cp->names);
    if (s) {
      cxla_status_free(s);
      return NULL;
    }
    cp->named = true;
  }
  const char *base = bases[which];
  char buf[64];
  for (int i = cp->next_suffix[which];; i++) {
    const char *want = base;
    if (i) {
      snprintf(buf, sizeof buf, "%s.%d", base, i);
      want = buf;
    }
    if (namemap_get(&cp->names, want, strlen(want))) continue;
    cp->next_suffix[which] = i + 1;
    const char *name = arena_strdup(st->a, want);
    return name && namemap_set(&cp->names, name, (void *)name) ? name : NULL;
  }
}

/* x (already laid out) with the layouts of `as`: copies of arrays, tuples
 * taken apart and rebuilt. */
static cxla_status conform(Lay *st, Copies *cp, Instr *x, const Shape *as, Instr **out) {
  if (lay_eq(x->shape, as)) {
    *out = x;
    return NULL;
  }
  for (int i = ptrindex_get(&cp->latest, x); i >= 0; i = cp->v[i].next)
    if (lay_eq(cp->v[i].as, as)) {
      *out = cp->v[i].y;
      return NULL;
    }
  Computation *c = st->c;
  Arena *a = st->a;
  Instr *y;
  if (x->shape->type == T_TUPLE) {
    int n = x->shape->ntuple;
    Instr **el = arena_array(a, (size_t)n + 1, sizeof(Instr *));
    Shape **sh = arena_array(a, (size_t)n + 1, sizeof(Shape *));
    OOM_IF(el && sh);
    for (int i = 0; i < n; i++) {
      Shape *gs = shape_clone(a, x->shape->tuple[i]);
      const char *name = copy_name(st, cp, NAME_GTE);
      Instr *g = gs && name ? comp_add_instr(c, OP_GET_TUPLE_ELEMENT, gs, 1, &x, name) : NULL;
      OOM_IF(g);
      g->attrs = A_INDEX;
      g->index = i;
      TRY(conform(st, cp, g, as->tuple[i], &el[i]));
      sh[i] = el[i]->shape;
    }
    Shape *ts = shape_new_tuple(a, n, sh);
    const char *name = copy_name(st, cp, NAME_TUPLE);
    y = ts && name ? comp_add_instr(c, OP_TUPLE, ts, n, el, name) : NULL;
  } else {
    Shape *s = lay_like(a, x->shape, as);
    const char *name = copy_name(st, cp, NAME_COPY);
    y = s && name ? comp_add_instr(c, OP_COPY, s, 1, &x, name) : NULL;
  }
  OOM_IF(y);
  if (cp->n == cp->cap) {
    int nc = cp->cap ? cp->cap * 2 : 8;
    Conformed *v = cxla_realloc(cp->v, (size_t)nc * sizeof *v);
    OOM_IF(v);
    cp->v = v;
    cp->cap = nc;
  }
  cp->v[cp->n] = (Conformed){x, y, as, ptrindex_get(&cp->latest, x)};
  OOM_IF(ptrindex_set(&cp->latest, x, cp->n));
  cp->n++;
  st->changed = true;
  *out = y;
  return NULL;
}

typedef struct Need {
  Instr *user;
  int k;
  const Shape *as;
} Need;

static cxla_status apply(Lay *st) {
  Computation *c = st->c;
  /* The needs are worked out against the original shapes (bitcasts and
   * custom-calls keep what they were written against), before any shape
   * changes. */
  int cap = 0;
  for (int i = 0; i < st->n; i++) cap += c->instrs[i]->noperands;
  Need *needs = cxla_malloc((size_t)cap * sizeof(Need) + 1);
  OOM_IF(needs);
  int nn = 0;
  for (int i = 0; i < st->n; i++) {
    Instr *u = c->instrs[i];
    for (int k = 0; k < u->noperands; k++) {
      const Shape *as = need(st, u, k);
      if (as && !lay_eq(st->L[u->operands[k]->id], as)) needs[nn++] = (Need){u, k, as};
    }
  }
  for (int i = 0; i < st->n; i++) {
    Instr *in = c->instrs[i];
    if (!shape_equal(in->shape, st->L[i], true) || !fully_laid_out(in->shape)) st->changed = true;
    in->shape = st->L[i];
    if (st->bitcast[i]) {
      in->op = OP_BITCAST;
      in->attrs &= ~(uint32_t)A_DIMENSIONS;
      in->dimensions.n = 0;
      in->dimensions.v = NULL;
      st->changed = true;
    }
  }
  Copies cp = {0};
  cxla_status s = NULL;
  for (int i = 0; i < nn && !s; i++) {
    Instr *y;
    s = conform(st, &cp, needs[i].user->operands[needs[i].k], needs[i].as, &y);
    if (!s) needs[i].user->operands[needs[i].k] = y;
  }
  if (!s && st->root_need && c->root) {
    Instr *y;
    s = conform(st, &cp, c->root, st->root_need, &y);
    if (!s) c->root = y;
  }
  copies_free(&cp);
  cxla_free(needs);
  return s ? s : comp_sort(c);
}

/* ---- driving ---- */

static cxla_status lay_out(Lay *st) {
  Computation *c = st->c;
  comp_renumber(c);
  st->n = c->ninstrs;
  st->L = cxla_calloc((size_t)st->n + 1, sizeof(Shape *));
  st->free_ = cxla_calloc((size_t)st->n + 1, 1);
  st->bitcast = cxla_calloc((size_t)st->n + 1, 1);
  cxla_status s = st->L && st->free_ && st->bitcast ? NULL : cxla_oom();
  for (int i = 0; i < st->n && !s; i++) s = choose(st, c->instrs[i]);
  if (!s) s = settle_free(st);
  if (!s) s = apply(st);
  cxla_free(st->L);
  cxla_free(st->free_);
  cxla_free(st->bitcast);
  return s;
}

/* Fused and applied computations: fill in missing layouts only. */
static cxla_status fill_missing(HloModule *m, Computation *c, bool *changed) {
  for (int i = 0; i < c->ninstrs; i++) {
    Instr *in = c->instrs[i];
    if (fully_laid_out(in->shape)) continue;
    OOM_IF(in->shape = lay_keep(&m->arena, in->shape));
    *changed = true;
  }
  return NULL;
}

/* The layout a computation's root must have: the entry's result layout
 * (row-major without an entry_computation_layout);
 * a while body's parameter layout; row-major for conditional branches. */
enum { NEED_NONE, NEED_BODY, NEED_BRANCH };

/* For every computation, how it is called, found in one walk: NEED_BODY
 * when it is a while body, NEED_BRANCH a conditional branch (the last such
 * call in module order decides). kind[i] for m->comps[i]. */
static cxla_status call_kinds(const HloModule *m, unsigned char *kind) {
  PtrIndex index = {0};
  for (int i = 0; i < m->ncomps; i++) {
    kind[i] = NEED_NONE;
    if (!ptrindex_set(&index, m->comps[i], i)) {
      ptrindex_free(&index);
      return cxla_oom();
    }
  }
  for (int i = 0; i < m->ncomps; i++)
    for (int k = 0; k < m->comps[i]->ninstrs; k++) {
      const Instr *in = m->comps[i]->instrs[k];
      if (in->op == OP_WHILE && in->ncalled == 2) {
        int j = ptrindex_get(&index, in->called[1]);
        if (j >= 0) kind[j] = NEED_BODY;
      }
      if (in->op == OP_CONDITIONAL)
        for (int q = 0; q < in->ncalled; q++) {
          int j = ptrindex_get(&index, in->called[q]);
          if (j >= 0) kind[j] = NEED_BRANCH;
        }
    }
  ptrindex_free(&index);
  return NULL;
}

static cxla_status root_need(HloModule *m, Computation *c, int kind, const EntryLayout *el,
                             const Shape **out) {
  *out = NULL;
  if (c == m->entry) {
    OOM_IF(*out = lay_like(&m->arena, c->root->shape, el ? el->result : NULL));
    return NULL;
  }
  if (kind == NEED_BODY) *out = c->params[0]->shape;
  if (kind == NEED_BRANCH) OOM_IF(*out = lay_default(&m->arena, c->root->shape));
  return NULL;
}

/* A while's condition and body see the loop state in one layout: the
 * body parameter's (its own, or row-major). */
static cxla_status align_while_params(HloModule *m, bool *changed) {
  for (int i = 0; i < m->ncomps; i++)
    for (int k = 0; k < m->comps[i]->ninstrs; k++) {
      const Instr *in = m->comps[i]->instrs[k];
      if (in->op != OP_WHILE || in->ncalled != 2) continue;
      Computation *cond = in->called[0], *body = in->called[1];
      if (body->nparams != 1 || cond->nparams != 1) continue;
      Instr *bp = body->params[0], *cp = cond->params[0];
      if (!fully_laid_out(bp->shape)) {
        OOM_IF(bp->shape = lay_keep(&m->arena, bp->shape));
        *changed = true;
      }
      if (!shape_equal(cp->shape, bp->shape, true)) {
        OOM_IF(cp->shape = lay_like(&m->arena, cp->shape, bp->shape));
        *changed = true;
      }
    }
  return NULL;
}

cxla_status pass_layout_assignment(HloModule *m, const PassContext *ctx, bool *changed) {
  (void)ctx;
  *changed = false;
  /* The entry layout as the reader gave it; one that does not match the
   * entry computation's parameter count is ignored (the verifier reports
   * it). */
  const EntryLayout *el = m->entry_layout;
  if (el && (!m->entry || el->nparams != m->entry->nparams)) el = NULL;
  TRY(align_while_params(m, changed));
  /* Callees come before callers in m->comps, so a computation's callees
   * are laid out before it reads their parameter and root layouts. */
  int n = m->ncomps;
  bool *context = cxla_malloc((size_t)n * sizeof(bool) + 1);
  unsigned char *kind = cxla_malloc((size_t)n + 1);
  if (!context || !kind) {
    cxla_free(context);
    cxla_free(kind);
    return cxla_oom();
  }
  cxla_status s = fusion_context_flags(m, context);
  if (!s) s = call_kinds(m, kind);
  for (int i = 0; i < n && !s; i++) {
    Computation *c = m->comps[i];
    if (!c->root) continue;
    if (!context[i]) {
      s = fill_missing(m, c, changed);
      continue;
    }
    Lay st = {.m = m, .a = &m->arena, .c = c};
    s = root_need(m, c, kind[i], el, &st.root_need);
    st.entry = c == m->entry ? el : NULL;
    if (!s) s = lay_out(&st);
    *changed |= st.changed;
  }
  cxla_free(context);
  cxla_free(kind);
  return s;
}
