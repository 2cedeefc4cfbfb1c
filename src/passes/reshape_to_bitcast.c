/* reshape-to-bitcast: layout-preserving reshapes become bitcasts (pass
 * "reshape-to-bitcast"), as XLA's layout-sensitive algebraic simplifier
 * replaces a reshape by a bitcast when ShapeUtil::ReshapeIsBitcast.
 *
 * Runs after layout assignment. A reshape reads its operand in row-major
 * (logical) order and writes its result in the same order; when both the
 * operand and the result are laid out row-major in memory, dimensions of
 * size 1 aside (they never move a byte), the result's bytes are exactly the
 * operand's and the reshape is a bitcast: no kernel, no buffer. Anything
 * else (a column-major operand, a layout with tiles) stays a reshape.
 *
 *   %r = f32[12,5]{1,0} reshape(f32[3,4,5]{2,1,0} %a)
 *     -> %r = f32[12,5]{1,0} bitcast(%a)
 *
 * Chains of bitcasts collapse into one (bitcast(bitcast(y)) -> bitcast(y),
 * as the simplifier would on a second run), and a bitcast to its operand's
 * own shape and layout is the operand.
 *
 * Every computation that runs as code is visited once (fused computations
 * keep their reshapes: inside a loop fusion a reshape costs nothing); one
 * walk, linear in the module's size. */
#include "passes/passes.h"

/* Whether s's bytes lie in row-major order, ignoring size-1 dims: walking
 * minor_to_major, the dims of size > 1 come in decreasing order. */
static bool dense_row_major(const Shape *s) {
  if (!type_is_array(s->type) || s->layout_tail) return false;
  if (!s->has_layout || !s->minor_to_major) return true;
  int64_t prev = s->rank;
  for (int k = 0; k < s->rank; k++) {
    int64_t d = s->minor_to_major[k];
    if (d < 0 || d >= s->rank) return false;
    if (s->dims[d] == 1) continue;
    if (d >= prev) return false;
    prev = d;
  }
  return true;
}

/* Whether reshape `in` keeps its operand's bytes where they are. */
static bool reshape_is_bitcast(const Instr *in) {
  if (in->op != OP_RESHAPE || in->noperands != 1 || in->ncontrol_preds) return false;
  const Shape *x = in->operands[0]->shape, *r = in->shape;
  if (x->type != r->type || x->dynamic || r->dynamic) return false;
  return dense_row_major(x) && dense_row_major(r);
}

/* The rewrite of one instruction (pass_rewrite_comp visits operands
 * first, so chains collapse in one walk). */
static cxla_status rewrite(Instr *in, void *arg, Instr **out) {
  (void)arg;
  *out = NULL;
  if (reshape_is_bitcast(in)) {
    in->op = OP_BITCAST;
    *out = in;
  }
  if (in->op != OP_BITCAST || in->noperands != 1 || in->ncontrol_preds) return NULL;
  /* bitcast(bitcast(y)) -> bitcast(y): the bytes never move. */
  Instr *x = in->operands[0];
  while (x->op == OP_BITCAST && x->noperands == 1 && !x->ncontrol_preds) x = x->operands[0];
  if (x != in->operands[0]) {
    in->operands[0] = x;
    *out = in;
  }
  /* A bitcast to the operand's own shape and layout is the operand. */
  if (shape_equal(x->shape, in->shape, true)) *out = x;
  return NULL;
}

cxla_status pass_reshape_to_bitcast(HloModule *m, const PassContext *ctx, bool *changed) {
  (void)ctx;
  *changed = false;
  for (int i = 0; i < m->ncomps; i++) {
    Computation *c = m->comps[i];
    if (!c->is_fusion) TRY(pass_rewrite_comp(c, rewrite, NULL, changed));
  }
  return NULL;
}
