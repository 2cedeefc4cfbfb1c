/* reduce-splitter: a reduce of a large array to a scalar becomes two
 * reduces, the first over all but the leading dims (one partial result
 * per leading index), the second over those partials (pass
 * "reduce-splitter", the cpu backend's pipeline only: PassContext.split_reduces).
 *
 *   %r = f32[] reduce(f32[32,56,56,64] %x, %zero), dimensions={0,1,2,3}
 *     -> %p = f32[32] reduce(%x, %zero), dimensions={1,2,3}
 *        %r = f32[] reduce(%p, %zero), dimensions={0}
 *
 * Why: a reduce to a scalar is one output element, computed by one
 * thread; the first reduce has a row per partial, which the backend
 * splits over its threads (fusion keeps it apart from the second:
 * fusion.c's reduces_further), and the second is a few dozen elements.
 * The partition depends on the shape only, never on the thread count, so
 * every run gives the same bits.
 *
 * Which reduces: one input of at least kMinElems elements, physically
 * row-major (shape_physically_row_major: partials over contiguous rows), a
 * reducer computation that is a bare add, maximum or minimum of its
 * parameters, and
 *   - maximum / minimum of floats or integers, any init: both are
 *     associative and idempotent (the init folded in per partial and
 *     again changes nothing; the interpreter's NaN rule, the first NaN in
 *     index order, holds too, partials being in index order);
 *   - integer add with init 0: exact in any grouping (wrapping);
 *   - f32 / f64 add with an init of zero: the sum reassociates, as the
 *     compiled reduce loops already do (elemental.c: reassoc), so never
 *     in exact mode (PassContext.exact).
 * The leading dims kept: the fewest whose product reaches kParts (fewer
 * when the shape has no such prefix below its last dim), at most kMaxParts
 * partials and at least kMinPerPart elements each.
 *
 * Column reductions (the reduced dims a leading run 0 .. nr-1, kept dims
 * after it: sums over the batch, batch-norm statistics over N, H, W) split
 * the same way, over the first reduced dim:
 *
 *   %r = f32[4096] reduce(f32[4096,4096] %x, %zero), dimensions={0}
 *     -> %b = f32[16,256,4096] bitcast(%x)
 *        %p = f32[16,4096] reduce(%b, %zero), dimensions={1}
 *        %r = f32[4096] reduce(%p, %zero), dimensions={0}
 *
 * (no bitcast where the partials are the first dim whole: [N, H, W, C]
 * over N, H, W -> [N, C] over H and W). The sweep of one column reduce
 * (cg.c's emit_column_reduce) splits its threads over the kept columns:
 * each reads a strip of every input row, short runs of memory far apart
 * (with few columns, as batch-norm's 64 channels, only one or two
 * strips); a partial is a contiguous block of whole rows, streamed by one
 * thread into accumulators that stay in its cache. Measured (two threads,
 * the same moment): f32[4096,4096] over dim 0 1.09 -> 0.88 ms (a sum
 * over dim 1, contiguous rows: 0.90); f32[32,56,56,64] over N, H, W 0.23
 * -> 0.155 ms. Split where the kept row's accumulators take at most
 * kColMaxRowBytes and each partial covers kColMinRows rows or more: P
 * partials, P the first reduced dim when it is at most kMaxColParts (and
 * other dims are reduced too), else its largest divisor up to kParts.
 *
 * Sums over short columns (fewer than 16 kept elements after the reduced
 * run, as RGB channels) fold positions of the run into rows of whole
 * vectors first (short_columns, below); after a column split, its
 * partials do.
 *
 * One walk over every non-fusion computation, linear in its size. */
#include "ir/rewrite.h"
#include "passes/algsimp.h"
#include "passes/passes.h"

/* inputs smaller than this stay one reduce */
#define kMinElems ((int64_t)1 << 16)
/* partials wanted: enough for the threads to balance */
#define kParts 16
#define kMaxParts 4096
#define kMinPerPart 1024
/* column reductions: the kept elements' bytes at most, the rows a
 * partial reduces at least, and the most partials without a bitcast */
#define kColMaxRowBytes ((int64_t)64 << 10)
#define kColMinRows 64
#define kMaxColParts 64

/* Whether reducer f with init value `init` over elements of type t may be
 * split into partials (see the header). */
static bool splittable(Opcode f, const Instr *init, ElemType t, bool exact) {
  bool integral = type_is_int(t);
  switch (f) {
  case OP_MAXIMUM: case OP_MINIMUM: return integral || t == T_F32 || t == T_F64;
  case OP_ADD:
    if (integral) return is_int_value(init, 0);
    return !exact && (t == T_F32 || t == T_F64) &&
           (is_float_value(init, 0.0, false) || is_float_value(init, 0.0, true));
  default: return false;
  }
}

/* How many leading dims of s the partials keep (0: no split). */
static int leading_dims(const Shape *s) {
  int64_t n = shape_elems(s), parts = 1;
  int k = 0;
  while (k < s->rank - 1 && parts < kParts && parts * s->dims[k] <= kMaxParts) parts *= s->dims[k++];
  if (parts < 2 || n / parts < kMinPerPart) return 0;
  return k;
}

typedef struct Split {
  HloModule *m;
  bool exact;
} Split;

/* The partials of column reduce `in` of x (reduced dims 0 .. nr-1):
 * *parts of them over x's dim 0, or 0 where it stays whole. */
static int64_t column_parts(const Instr *in, const Shape *xs) {
  int nr = in->dimensions.n;
  if (nr < 1 || nr >= xs->rank) return 0;
  for (int k = 0; k < nr; k++)
    if (in->dimensions.v[k] != k) return 0;
  int64_t rows = 1, row_bytes = type_bits(xs->type) / 8;
  for (int d = 0; d < xs->rank; d++) {
    if (d < nr) rows *= xs->dims[d];
    else row_bytes *= xs->dims[d];
  }
  if (row_bytes < 1 || row_bytes > kColMaxRowBytes) return 0;
  int64_t d0 = xs->dims[0];
  if (nr >= 2 && d0 >= 2 && d0 <= kMaxColParts && rows / d0 >= kColMinRows) return d0;
  for (int64_t p = kParts; p >= 2; p--)
    if (d0 % p == 0 && d0 / p >= 2 && rows / p >= kColMinRows) return p;
  return 0;
}

/* A new reduce of x by in's reducer over dims[0 .. n) with init `init`,
 * of shape s. */
static Instr *add_reduce(Arena *a, Instr *in, Shape *s, Instr *x, Instr *init, const int64_t *dims, int n) {
  Instr *ops[2] = {x, init};
  Instr *q = comp_add_instr(in->parent, OP_REDUCE, s, 2, ops, NULL);
  if (!q) return NULL;
  q->dimensions.n = n;
  q->dimensions.v = arena_i64dup(a, dims, (size_t)n);
  q->called = arena_array(a, 1, sizeof(Computation *));
  if (!q->dimensions.v || !q->called) return NULL;
  q->called[0] = in->called[0];
  q->ncalled = 1;
  q->attrs |= A_DIMENSIONS;
  return q;
}

/* Short columns: a sum over a run of dims b .. b+nr-1 whose kept dims
 * after it hold K < 16 elements (per-channel sums of RGB images, [N, H,
 * W, 3] over H and W) swept K lanes wide, or element by element where K
 * is under 8. g = 16 / gcd(K, 16) consecutive positions of the run's last
 * dim (L of them, a multiple of g) become one row of g K elements, summed
 * as a column of vectors, then the g partials of each kept element:
 *
 *   %r = f32[32,3] reduce(f32[32,224,224,3] %x), dimensions={1,2}
 *     -> %y = f32[32,224,14,48] bitcast(%x)
 *        %p = f32[32,48] reduce(%y), dimensions={1,2}
 *        %q = f32[32,16,3] bitcast(%p)
 *        %r = f32[32,3] reduce(%q), dimensions={1}
 *
 * Sums only (reassociated: float sums never in exact mode); max and min
 * keep their order (the first NaN). f32[32,224,224,3] over H and W: 1.1
 * -> 0.10 ms. *out: the new reduce, or NULL where it does not apply. */
static int64_t gcd64(int64_t a, int64_t b) {
  while (b) {
    int64_t t = a % b;
    a = b;
    b = t;
  }
  return a;
}

static cxla_status short_columns(Split *sp, Instr *in, Instr **out) {
  Instr *x = in->operands[0], *init = in->operands[1];
  const Shape *xs = x->shape;
  int nr = in->dimensions.n, rank = xs->rank;
  if (nr < 1 || in->shape->rank < 1 || rank > 60) return NULL; /* a sum: the caller's test */
  int b = (int)in->dimensions.v[0];
  for (int k = 0; k < nr; k++)
    if (in->dimensions.v[k] != b + k) return NULL;
  int last = b + nr - 1;
  if (last + 1 >= rank) return NULL; /* no kept dim after the run: a row */
  int64_t K = 1;
  for (int d = last + 1; d < rank; d++) K *= xs->dims[d];
  int64_t g = 16 / gcd64(K, 16), L = xs->dims[last];
  if (K < 1 || K >= 16 || L % g || L < g) return NULL;
  Arena *a = &sp->m->arena;
  /* y: [outer, run..., L / g, g K] */
  int64_t dims[64], red[64], one[1] = {b};
  int n = 0;
  for (int d = 0; d < last; d++) dims[n++] = xs->dims[d];
  dims[n++] = L / g;
  dims[n++] = g * K;
  Shape *ys = shape_new(a, xs->type, n, dims);
  Instr *y, *src = x;
  /* a bitcast of a bitcast is one (the column split's, above) */
  if (src->op == OP_BITCAST && src->noperands == 1 && shape_physically_row_major(src->operands[0]->shape))
    src = src->operands[0];
  if (!ys || shape_set_default_layout(a, ys) || !(y = comp_add_instr(in->parent, OP_BITCAST, ys, 1, &src, NULL)))
    return cxla_oom();
  /* p: [outer, g K] */
  int np = 0;
  for (int d = 0; d < b; d++) dims[np++] = xs->dims[d];
  dims[np++] = g * K;
  for (int k = 0; k < nr; k++) red[k] = b + k;
  Shape *ps = shape_new(a, xs->type, np, dims);
  Instr *p;
  if (!ps || shape_set_default_layout(a, ps) || !(p = add_reduce(a, in, ps, y, init, red, nr))) return cxla_oom();
  /* q: [outer, g, kept...] */
  int nq = 0;
  for (int d = 0; d < b; d++) dims[nq++] = xs->dims[d];
  dims[nq++] = g;
  for (int d = last + 1; d < rank; d++) dims[nq++] = xs->dims[d];
  Shape *qs = shape_new(a, xs->type, nq, dims), *rs = shape_clone(a, in->shape);
  Instr *q;
  if (!qs || !rs || shape_set_default_layout(a, qs) || !(q = comp_add_instr(in->parent, OP_BITCAST, qs, 1, &p, NULL)))
    return cxla_oom();
  if (!(*out = add_reduce(a, in, rs, q, init, one, 1))) return cxla_oom();
  return NULL;
}

static cxla_status split_rule(Instr *in, void *arg, Instr **out) {
  Split *sp = arg;
  *out = NULL;
  if (in->op != OP_REDUCE || in->noperands != 2 || in->ncalled != 1 || in->ncontrol_preds) return NULL;
  Instr *x = in->operands[0], *init = in->operands[1];
  const Shape *xs = x->shape;
  if (!type_is_array(in->shape->type) || xs->rank > 64) return NULL;
  if (xs->dynamic || xs->layout_tail || !shape_physically_row_major(xs) || shape_elems(xs) < kMinElems)
    return NULL;
  bool sums = splittable(OP_ADD, init, xs->type, sp->exact) && simp_reducer_op(in->called[0]) == OP_ADD;
  if (sums && in->shape->rank >= 1 && in->dimensions.n >= 1 && in->dimensions.v[0] >= 1) {
    /* outer dims: the sweep's rows (b = 0 splits over dim 0 first, below) */
    TRY(short_columns(sp, in, out));
    if (*out) return NULL;
  }
  bool scalar = in->shape->rank == 0 && in->dimensions.n == xs->rank;
  int64_t parts = scalar ? 0 : column_parts(in, xs);
  if (!scalar && parts == 0) return NULL;
  if (!splittable(simp_reducer_op(in->called[0]), init, xs->type, sp->exact)) return NULL;
  Arena *a = &sp->m->arena;
  int64_t inner[64], outer[64];
  Instr *p;
  if (scalar) {
    int k = leading_dims(xs);
    if (k < 1) return NULL;
    Shape *ps = shape_new(a, xs->type, k, xs->dims);
    if (!ps || shape_set_default_layout(a, ps)) return cxla_oom();
    for (int d = k; d < xs->rank; d++) inner[d - k] = d;
    for (int d = 0; d < k; d++) outer[d] = d;
    if (!(p = add_reduce(a, in, ps, x, init, inner, xs->rank - k))) return cxla_oom();
    Shape *rs = shape_clone(a, in->shape);
    if (!rs || !(*out = add_reduce(a, in, rs, p, init, outer, k))) return cxla_oom();
    return NULL;
  }
  /* column: x as [parts, dims[0] / parts, dims 1 ...] unless parts is
   * dims[0]; partials [parts, kept dims] */
  int nr = in->dimensions.n, rank = xs->rank;
  Instr *y = x;
  int64_t dims[65];
  if (parts != xs->dims[0]) {
    dims[0] = parts;
    dims[1] = xs->dims[0] / parts;
    for (int d = 1; d < rank; d++) dims[d + 1] = xs->dims[d];
    Shape *bs = shape_new(a, xs->type, rank + 1, dims);
    if (!bs || shape_set_default_layout(a, bs) || !(y = comp_add_instr(in->parent, OP_BITCAST, bs, 1, &x, NULL)))
      return cxla_oom();
    nr++;
  }
  /* y's dim 0 is the partials', dims 1 .. nr-1 reduced, the rest kept */
  const Shape *ys = y->shape;
  dims[0] = parts;
  for (int d = nr; d < ys->rank; d++) dims[d - nr + 1] = ys->dims[d];
  Shape *ps = shape_new(a, xs->type, ys->rank - nr + 1, dims), *rs = shape_clone(a, in->shape);
  if (!ps || !rs || shape_set_default_layout(a, ps)) return cxla_oom();
  for (int d = 1; d < nr; d++) inner[d - 1] = d;
  outer[0] = 0;
  if (!(p = add_reduce(a, in, ps, y, init, inner, nr - 1))) return cxla_oom();
  Instr *p2 = NULL;
  if (sums) TRY(short_columns(sp, p, &p2)); /* the partials' columns short */
  if (!(*out = add_reduce(a, in, rs, p2 ? p2 : p, init, outer, 1))) return cxla_oom();
  return NULL;
}

cxla_status pass_reduce_splitter(HloModule *m, const PassContext *ctx, bool *changed) {
  *changed = false;
  Split sp = {m, ctx && ctx->exact};
  for (int i = 0; i < m->ncomps; i++)
    if (!m->comps[i]->is_fusion) TRY(pass_rewrite_comp(m->comps[i], split_rule, &sp, changed));
  return NULL;
}
