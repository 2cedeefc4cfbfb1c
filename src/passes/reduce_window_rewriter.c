/* reduce-window-rewriter: scans written as reduce-windows become a
 * log-depth tree of short windows, as XLA's ReduceWindowRewriter does it
 * (XLA:CPU runs it with base length 16).
 *
 * JAX emits cumsum, cumprod, cummax, cummin and cumlogsumexp as a
 * reduce-window whose window spans the whole scanned dimension: element i
 * is the reduction of elements 0..i (window size N, low padding N - 1), or
 * of i..N-1 for a reverse scan (high padding N - 1); a low (high) padding
 * of N is the exclusive scan, one element longer. That costs N^2 / 2
 * reductions. The rewrite, for a scan of length N > B along dimension d
 * (B = 16):
 *
 *   1. transpose d to the last dimension (when it is not already);
 *   2. pad the last dimension with the init value up to K, a multiple of B;
 *   3. reshape [..., K] -> [..., K/B, B];
 *   4. scan every row of B elements (a reduce-window of size B);
 *   5. slice out each row's last element (first for a reverse scan):
 *      [..., K/B];
 *   6. exclusive scan of those (a reduce-window of size K/B with padding
 *      K/B, rewritten again by this pass when K/B > B), sliced to K/B;
 *   7. broadcast it back to [..., K/B, B] and combine it with (4) by the
 *      reducer: f(row scan, carry);
 *   8. reshape to [..., K], transpose back, slice off the padding, and for
 *      an exclusive scan pad one init value in front (behind).
 *
 * Conditions, XLA's: one input, exactly one non-trivial window dimension,
 * whose size is the operand's length N > B, stride 1, no dilation, no
 * reversal, and padding (N-1 or N, 0) or (0, N-1 or N). XLA assumes the
 * reducer associative (as reduce-window itself does) and does not check
 * the init value: it is folded into both levels. Floating-point sums are
 * reassociated, so values change in the last places: to what XLA:CPU
 * computes (PassContext.exact keeps only integer, max and min scans).
 * Variadic (multi-input) reduce-windows are left alone. With
 * PassContext.keep_scans (the cpu backend's pipeline) the scans the cpu
 * backend's scan routine takes (add / multiply / maximum / minimum on f32,
 * f64, s32, s64) stay reduce-windows: the routine computes this tree's
 * order itself (src/cpu/rt_window.c). */
#include <string.h>

#include "ir/rewrite.h"
#include "passes/algsimp.h"

enum { kBaseLength = 16 };

/* ---- building ---- */

typedef struct Rw {
  HloModule *m;
  Computation *c;
  bool layout; /* shapes carry (default) layouts */
  bool exact;  /* PassContext.exact */
  bool keep;   /* PassContext.keep_scans */
} Rw;

static Shape *mk_shape(Rw *w, ElemType t, int rank, const int64_t *dims) {
  Shape *s = shape_new(&w->m->arena, t, rank, dims);
  if (s && w->layout && shape_set_default_layout(&w->m->arena, s)) return NULL;
  return s;
}

static Instr *mk(Rw *w, Opcode op, ElemType t, int rank, const int64_t *dims, int nops,
                 Instr *const *ops) {
  Shape *s = mk_shape(w, t, rank, dims);
  return s ? comp_add_instr(w->c, op, s, nops, ops, NULL) : NULL;
}

static Instr *mk_reshape(Rw *w, Instr *x, int rank, const int64_t *dims) {
  return mk(w, OP_RESHAPE, x->shape->type, rank, dims, 1, &x);
}

/* Swaps dimensions a and b of x (a == b: x itself). */
static Instr *mk_swap(Rw *w, Instr *x, int a, int b) {
  if (a == b) return x;
  int r = x->shape->rank;
  int64_t dims[64], perm[64];
  for (int i = 0; i < r; i++) perm[i] = i;
  perm[a] = b;
  perm[b] = a;
  for (int i = 0; i < r; i++) dims[i] = x->shape->dims[perm[i]];
  Instr *t = mk(w, OP_TRANSPOSE, x->shape->type, r, dims, 1, &x);
  if (!t) return NULL;
  t->dimensions.n = r;
  t->dimensions.v = arena_i64dup(&w->m->arena, perm, (size_t)r);
  t->attrs |= A_DIMENSIONS;
  return t->dimensions.v ? t : NULL;
}

/* x sliced along dimension d to [lo, hi). */
static Instr *mk_slice(Rw *w, Instr *x, int d, int64_t lo, int64_t hi) {
  int r = x->shape->rank;
  int64_t dims[64];
  memcpy(dims, x->shape->dims, (size_t)r * sizeof dims[0]);
  dims[d] = hi - lo;
  Instr *s = mk(w, OP_SLICE, x->shape->type, r, dims, 1, &x);
  if (!s || !(s->slice = arena_array(&w->m->arena, (size_t)r, sizeof(SliceDim)))) return NULL;
  for (int i = 0; i < r; i++) s->slice[i] = (SliceDim){0, x->shape->dims[i], 1};
  s->slice[d] = (SliceDim){lo, hi, 1};
  s->attrs |= A_SLICE;
  return s;
}

/* x padded along dimension d by lo, hi with init. */
static Instr *mk_pad(Rw *w, Instr *x, Instr *init, int d, int64_t lo, int64_t hi) {
  int r = x->shape->rank;
  int64_t dims[64];
  memcpy(dims, x->shape->dims, (size_t)r * sizeof dims[0]);
  dims[d] += lo + hi;
  Instr *ops[2] = {x, init};
  Instr *p = mk(w, OP_PAD, x->shape->type, r, dims, 2, ops);
  if (!p || !(p->padding = arena_array(&w->m->arena, (size_t)r, sizeof(PadDim)))) return NULL;
  memset(p->padding, 0, (size_t)r * sizeof(PadDim));
  p->padding[d] = (PadDim){lo, hi, 0};
  p->attrs |= A_PADDING;
  return p;
}

/* A scan of x along its last dimension: a window of `size` with padding
 * lo, hi there (1 elsewhere); the result's last dimension is out_len. */
static Instr *mk_scan(Rw *w, Instr *x, Instr *init, Computation *f, int64_t size, int64_t lo,
                      int64_t hi, int64_t out_len) {
  int r = x->shape->rank;
  int64_t dims[64];
  memcpy(dims, x->shape->dims, (size_t)r * sizeof dims[0]);
  dims[r - 1] = out_len;
  Instr *ops[2] = {x, init};
  Instr *rw = mk(w, OP_REDUCE_WINDOW, x->shape->type, r, dims, 2, ops);
  if (!rw || !(rw->window = arena_array(&w->m->arena, (size_t)r, sizeof(WindowDim))) ||
      !(rw->called = arena_array(&w->m->arena, 1, sizeof(Computation *))))
    return NULL;
  for (int i = 0; i < r; i++) rw->window[i] = (WindowDim){1, 1, 0, 0, 1, 1, false};
  rw->window[r - 1] = (WindowDim){size, 1, lo, hi, 1, 1, false};
  rw->nwindow = r;
  rw->attrs |= A_WINDOW;
  rw->called[0] = f;
  rw->ncalled = 1;
  return rw;
}

/* f(a, b) elementwise: the reducer's own op when it is one binary op,
 * else a map calling it. */
static Instr *mk_combine(Rw *w, Computation *f, Instr *a, Instr *b) {
  Instr *ops[2] = {a, b};
  Opcode op = simp_reducer_op(f);
  bool swapped = op != OP_COUNT && f->root->operands[0] == f->params[1];
  if (swapped) {
    ops[0] = b;
    ops[1] = a;
  }
  if (op != OP_COUNT)
    return mk(w, op, a->shape->type, a->shape->rank, a->shape->dims, 2, ops);
  Instr *m = mk(w, OP_MAP, a->shape->type, a->shape->rank, a->shape->dims, 2, ops);
  if (!m || !(m->called = arena_array(&w->m->arena, 1, sizeof(Computation *)))) return NULL;
  m->called[0] = f;
  m->ncalled = 1;
  int r = a->shape->rank;
  int64_t all[64];
  for (int i = 0; i < r; i++) all[i] = i;
  m->dimensions.n = r;
  m->dimensions.v = r ? arena_i64dup(&w->m->arena, all, (size_t)r) : NULL;
  m->attrs |= A_DIMENSIONS;
  return (r && !m->dimensions.v) ? NULL : m;
}

/* ---- matching ---- */

static bool trivial_dim(const WindowDim *d) {
  return d->size == 1 && d->stride == 1 && d->pad_lo == 0 && d->pad_hi == 0 &&
         d->lhs_dilate == 1 && d->rhs_dilate == 1 && !d->reversal;
}

/* The scanned dimension of rw, or -1; *forward and *exclusive describe it. */
static int scan_dim(const Instr *rw, bool *forward, bool *exclusive) {
  if (rw->noperands != 2 || rw->ncalled != 1 || rw->shape->type == T_TUPLE) return -1;
  const Instr *x = rw->operands[0];
  int r = x->shape->rank;
  if (r < 1 || r > 63 || rw->nwindow != r || !rw->window) return -1;
  const Computation *f = rw->called[0];
  if (!f->root || f->root->shape->type == T_TUPLE) return -1;
  int d = -1;
  for (int i = 0; i < r; i++) {
    if (trivial_dim(&rw->window[i])) continue;
    if (d >= 0) return -1;
    d = i;
  }
  if (d < 0) return -1;
  const WindowDim *wd = &rw->window[d];
  int64_t n = x->shape->dims[d];
  if (n <= kBaseLength) return -1;
  bool fwd = (wd->pad_lo == n - 1 || wd->pad_lo == n) && wd->pad_hi == 0;
  bool rev = (wd->pad_hi == n - 1 || wd->pad_hi == n) && wd->pad_lo == 0;
  if (wd->stride != 1 || wd->size != n || (!fwd && !rev) || wd->reversal ||
      wd->lhs_dilate != 1 || wd->rhs_dilate != 1)
    return -1;
  *forward = fwd;
  *exclusive = fwd ? wd->pad_lo == n : wd->pad_hi == n;
  return d;
}

/* ---- the rewrite ---- */

static cxla_status rewrite(Rw *w, Instr *rw, int d, bool fwd, bool excl, Instr **out) {
  Instr *x = rw->operands[0], *init = rw->operands[1];
  Computation *f = rw->called[0];
  ElemType t = x->shape->type;
  int r = x->shape->rank, last = r - 1;
  int64_t n = x->shape->dims[d], b = kBaseLength;
  int64_t k = (n + b - 1) / b * b, cols = k / b;
  Instr *v = mk_swap(w, x, d, last);
  if (v && k != n) v = mk_pad(w, v, init, last, 0, k - n);
  if (!v) return cxla_oom();
  /* [..., K] -> [..., K/B, B] */
  int64_t tiled[64];
  memcpy(tiled, v->shape->dims, (size_t)r * sizeof tiled[0]);
  tiled[last] = cols;
  tiled[r] = b;
  Instr *tv = mk_reshape(w, v, r + 1, tiled);
  Instr *rows = tv ? mk_scan(w, tv, init, f, b, fwd ? b - 1 : 0, fwd ? 0 : b - 1, b) : NULL;
  /* each row's total: [..., K/B, 1] -> [..., K/B] */
  Instr *col = rows ? mk_slice(w, rows, r, fwd ? b - 1 : 0, fwd ? b : 1) : NULL;
  if (col) col = mk_reshape(w, col, r, tiled);
  /* the exclusive scan of the totals: [..., K/B + 1], sliced to K/B */
  Instr *carry = col ? mk_scan(w, col, init, f, cols, fwd ? cols : 0, fwd ? 0 : cols, cols + 1)
                     : NULL;
  if (carry) carry = mk_slice(w, carry, last, fwd ? 0 : 1, fwd ? cols : cols + 1);
  Instr *bc = carry ? mk(w, OP_BROADCAST, t, r + 1, tiled, 1, &carry) : NULL;
  if (!bc) return cxla_oom();
  int64_t map[64];
  for (int i = 0; i < r; i++) map[i] = i;
  bc->dimensions.n = r;
  bc->dimensions.v = arena_i64dup(&w->m->arena, map, (size_t)r);
  bc->attrs |= A_DIMENSIONS;
  if (!bc->dimensions.v) return cxla_oom();
  Instr *s = mk_combine(w, f, rows, bc);
  if (s) s = mk_reshape(w, s, r, v->shape->dims);
  if (s) s = mk_swap(w, s, d, last);
  if (s && k != n) s = mk_slice(w, s, d, 0, n);
  if (s && excl) s = mk_pad(w, s, init, d, fwd ? 1 : 0, fwd ? 0 : 1);
  if (!s) return cxla_oom();
  *out = s;
  return NULL;
}

static cxla_status rule(Instr *in, void *arg, Instr **out) {
  Rw *w = arg;
  if (in->op != OP_REDUCE_WINDOW) return NULL;
  bool fwd, excl;
  int d = scan_dim(in, &fwd, &excl);
  if (d < 0) return NULL;
  /* Exact mode: only where any grouping gives the same bits (integers,
   * max and min). */
  Opcode f = simp_reducer_op(in->called[0]);
  if (w->exact && !type_is_int(in->shape->type) && f != OP_MAXIMUM && f != OP_MINIMUM)
    return NULL;
  /* A backend that runs the tree itself keeps the scans it takes. */
  ElemType t = in->shape->type;
  if (w->keep && (t == T_F32 || t == T_F64 || t == T_S32 || t == T_S64) &&
      in->operands[1]->shape->type == t && in->operands[1]->shape->rank == 0 &&
      (f == OP_ADD || f == OP_MULTIPLY || f == OP_MAXIMUM || f == OP_MINIMUM))
    return NULL;
  w->layout = in->shape->has_layout;
  return rewrite(w, in, d, fwd, excl, out);
}

cxla_status pass_reduce_window_rewriter(HloModule *m, const PassContext *ctx, bool *changed) {
  *changed = false;
  for (int i = 0; i < m->ncomps; i++) {
    /* Each round shortens the new scans (step 6) B times: a few rounds. */
    for (bool again = true; again;) {
      again = false;
      Rw w = {m, m->comps[i], false, ctx && ctx->exact, ctx && ctx->keep_scans};
      TRY(pass_rewrite_comp(m->comps[i], rule, &w, &again));
      *changed |= again;
    }
  }
  return NULL;
}
