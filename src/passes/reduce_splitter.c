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

static cxla_status split_rule(Instr *in, void *arg, Instr **out) {
  Split *sp = arg;
  *out = NULL;
  if (in->op != OP_REDUCE || in->noperands != 2 || in->ncalled != 1 || in->ncontrol_preds) return NULL;
  Instr *x = in->operands[0], *init = in->operands[1];
  const Shape *xs = x->shape;
  if (!type_is_array(in->shape->type) || in->shape->rank != 0 || in->dimensions.n != xs->rank) return NULL;
  if (xs->dynamic || xs->layout_tail || !shape_physically_row_major(xs) || shape_elems(xs) < kMinElems)
    return NULL;
  if (!splittable(simp_reducer_op(in->called[0]), init, xs->type, sp->exact)) return NULL;
  int k = leading_dims(xs);
  if (k < 1 || xs->rank > 64) return NULL;
  Arena *a = &sp->m->arena;
  Shape *ps = shape_new(a, xs->type, k, xs->dims), *rs = shape_clone(a, in->shape);
  if (!ps || !rs || shape_set_default_layout(a, ps)) return cxla_oom();
  int64_t inner[64], outer[64];
  for (int d = k; d < xs->rank; d++) inner[d - k] = d;
  for (int d = 0; d < k; d++) outer[d] = d;
  Instr *ops[2] = {x, init};
  Instr *p = comp_add_instr(in->parent, OP_REDUCE, ps, 2, ops, NULL);
  if (!p) return cxla_oom();
  ops[0] = p;
  Instr *r = comp_add_instr(in->parent, OP_REDUCE, rs, 2, ops, NULL);
  if (!r) return cxla_oom();
  Instr *both[2] = {p, r};
  for (int i = 0; i < 2; i++) {
    Instr *q = both[i];
    int n = i == 0 ? xs->rank - k : k;
    q->dimensions.n = n;
    q->dimensions.v = arena_i64dup(a, i == 0 ? inner : outer, (size_t)n);
    q->called = arena_array(a, 1, sizeof(Computation *));
    if (!q->dimensions.v || !q->called) return cxla_oom();
    q->called[0] = in->called[0];
    q->ncalled = 1;
    q->attrs |= A_DIMENSIONS;
  }
  *out = r;
  return NULL;
}

cxla_status pass_reduce_splitter(HloModule *m, const PassContext *ctx, bool *changed) {
  *changed = false;
  Split sp = {m, ctx && ctx->exact};
  pass_reserve_names(m);
  for (int i = 0; i < m->ncomps; i++)
    if (!m->comps[i]->is_fusion) TRY(pass_rewrite_comp(m->comps[i], split_rule, &sp, changed));
  return NULL;
}
