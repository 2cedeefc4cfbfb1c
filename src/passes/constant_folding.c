/* Constant folding: an instruction whose operands are all constants is
 * evaluated by the reference interpreter and replaced by a constant.
 *
 * The instruction is evaluated alone: a temporary computation (not part of
 * the module's list) holds one parameter per operand and a copy of the
 * instruction, and interp_call runs it on the operands' literals. So folding
 * gives exactly the interpreter's values, FTZ/DAZ behaviour included.
 *
 * Left alone (as XLA's constant folding leaves them):
 *   - side effects, rng, rng-bit-generator, parameters, instructions without
 *     operands (iota, replica-id: folding only makes them bigger);
 *   - broadcasts: a broadcast of a constant is the compact form;
 *   - control flow (while, conditional, call, fusion, async, custom-call),
 *     collectives, tokens, tuple results;
 *   - results larger than ctx->fold_limit_bytes;
 *   - operands that are elided constants ({...}: value unknown);
 *   - anything the interpreter refuses (its status is dropped, the
 *     instruction stays). */
#include "interp/interp.h"
#include "ir/rewrite.h"
#include "passes/passes.h"

typedef struct Fold {
  HloModule *m;
  int64_t limit;
} Fold;

static bool foldable_op(const Instr *in) {
  if (in->noperands < 1 || pass_has_side_effect(in)) return false;
  unsigned f = op_info(in->op)->flags;
  if (f & (OPF_COLL | OPF_ASYNC)) return false;
  switch (in->op) {
  case OP_BROADCAST: case OP_RNG: case OP_RNG_BIT_GENERATOR: case OP_WHILE:
  case OP_CONDITIONAL: case OP_CALL: case OP_FUSION: case OP_CUSTOM_CALL:
  case OP_AFTER_ALL: case OP_ADD_DEPENDENCY: case OP_OPT_BARRIER: case OP_DOMAIN:
  case OP_INFEED: case OP_OUTFEED: case OP_SEND: case OP_RECV: case OP_SEND_DONE:
  case OP_RECV_DONE: case OP_GET_DIMENSION_SIZE: case OP_SET_DIMENSION_SIZE:
    return false;
  default:
    return true;
  }
}

static bool small_enough(const Shape *s, int64_t limit) {
  if (!type_is_array(s->type)) return false;
  int64_t n = 1;
  for (int i = 0; i < s->rank; i++)
    if (s->dims[i] < 0 || !mul_i64(n, s->dims[i], &n)) return false;
  int64_t bytes;
  return mul_i64(n, type_bytes(s->type), &bytes) && bytes <= limit;
}

/* Evaluates in on its operands' constant literals; *value NULL when the
 * interpreter cannot. */
cxla_status pass_evaluate_instr(HloModule *m, const Instr *in, Literal **value) {
  *value = NULL;
  Computation *tmp = arena_alloc(&m->arena, sizeof *tmp);
  if (!tmp) return cxla_oom();
  tmp->name = "constant_folding.tmp";
  tmp->module = m;
  int n = in->noperands;
  Instr **params = arena_array(&m->arena, (size_t)n, sizeof(Instr *));
  Literal **args = cxla_calloc((size_t)n, sizeof(Literal *));
  if (!params || !args) {
    cxla_free(args);
    return cxla_oom();
  }
  for (int k = 0; k < n; k++) {
    params[k] = comp_add_instr(tmp, OP_PARAMETER, in->operands[k]->shape, 0, NULL, "p");
    if (!params[k]) {
      cxla_free(args);
      return cxla_oom();
    }
    params[k]->param_number = k;
    args[k] = in->operands[k]->literal;
  }
  tmp->params = params;
  tmp->nparams = n;
  tmp->root = instr_clone(tmp, in, n, params, "folded");
  if (!tmp->root) {
    cxla_free(args);
    return cxla_oom();
  }
  Interp ip = {.module = m};
  cxla_status s = interp_call(&ip, tmp, args, n, value);
  cxla_free(args);
  if (s && cxla_status_code_of(s) != CXLA_RESOURCE_EXHAUSTED) {
    /* Not runnable here (an op the interpreter lacks, a bad attribute):
     * leave the instruction for the verifier or the runtime to judge. */
    cxla_status_free(s);
    literal_free(*value);
    *value = NULL;
    return NULL;
  }
  return s;
}

cxla_status pass_fold_constant_operands(HloModule *m, const Instr *in, Literal **value) {
  *value = NULL;
  for (int k = 0; k < in->noperands; k++) {
    const Instr *op = in->operands[k];
    if (op->op != OP_CONSTANT || !op->literal || op->literal->unknown) return NULL;
  }
  Literal *v;
  TRY(pass_evaluate_instr(m, in, &v));
  if (!v) return NULL;
  bool fits = v->type == in->shape->type && !v->ntuple && v->rank == in->shape->rank;
  for (int i = 0; fits && i < v->rank; i++) fits = v->dims[i] == in->shape->dims[i];
  if (!fits) {
    literal_free(v);
    return NULL;
  }
  *value = v;
  return NULL;
}

static cxla_status fold(Instr *in, void *arg, Instr **out) {
  Fold *f = arg;
  if (!foldable_op(in) || !small_enough(in->shape, f->limit)) return NULL;
  Literal *v;
  TRY(pass_fold_constant_operands(f->m, in, &v));
  if (!v) return NULL;
  TRY(module_own_literal(f->m, v));
  Shape *sh = shape_clone(&f->m->arena, in->shape);
  Instr *c = sh ? comp_add_instr(in->parent, OP_CONSTANT, sh, 0, NULL, NULL) : NULL;
  if (!c) return cxla_oom();
  c->literal = v;
  *out = c;
  return NULL;
}

cxla_status pass_constant_folding(HloModule *m, const PassContext *ctx, bool *changed) {
  *changed = false;
  Fold f = {m, ctx && ctx->fold_limit_bytes > 0 ? ctx->fold_limit_bytes : PASS_DEFAULT_FOLD_LIMIT};
  for (int i = 0; i < m->ncomps; i++) TRY(pass_rewrite_comp(m->comps[i], fold, &f, changed));
  return NULL;
}
