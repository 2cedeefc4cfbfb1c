/* The interpreter driver: walks a computation's instructions in order,
 * dispatches each to its family's evaluator, and frees every value right
 * after its last user ran. See interp.h for the contract. */
#include <stdio.h>
#include <string.h>

#include "interp/interp.h"
#include "ir/contract.h"
#include "runtime/backend.h"
#include "base/fpenv.h"

/* Deepest nesting of computation calls (call, while body, fusion, map, ...)
 * before the interpreter refuses: a guard against runaway recursion in
 * malformed modules, far above what real programs nest. */
enum { INTERP_MAX_DEPTH = 256 };

/* One evaluator per opcode. NULL: cxla cannot run the op (infeed, send...).
 * Parameters are handled by interp_call itself. */
static const EvalFn kDispatch[] = {
    [OP_ABS] = interp_elementwise,
    [OP_ACOS] = interp_elementwise,
    [OP_ACOSH] = interp_elementwise,
    [OP_ADD] = interp_elementwise,
    [OP_ADD_DEPENDENCY] = interp_control,
    [OP_AFTER_ALL] = interp_control,
    [OP_ALL_GATHER] = interp_control,
    [OP_ALL_GATHER_DONE] = interp_control,
    [OP_ALL_GATHER_START] = interp_control,
    [OP_ALL_REDUCE] = interp_control,
    [OP_ALL_REDUCE_DONE] = interp_control,
    [OP_ALL_REDUCE_START] = interp_control,
    [OP_ALL_TO_ALL] = interp_control,
    [OP_AND] = interp_elementwise,
    [OP_ASIN] = interp_elementwise,
    [OP_ASINH] = interp_elementwise,
    [OP_ASYNC_DONE] = interp_control,
    [OP_ASYNC_START] = interp_control,
    [OP_ASYNC_UPDATE] = interp_control,
    [OP_ATAN] = interp_elementwise,
    [OP_ATAN2] = interp_elementwise,
    [OP_ATANH] = interp_elementwise,
    [OP_BATCH_NORM_GRAD] = interp_linalg,
    [OP_BATCH_NORM_INFERENCE] = interp_linalg,
    [OP_BATCH_NORM_TRAINING] = interp_linalg,
    [OP_BITCAST] = interp_shape_op,
    [OP_BITCAST_CONVERT] = interp_elementwise,
    [OP_BROADCAST] = interp_shape_op,
    [OP_CALL] = interp_control,
    [OP_CBRT] = interp_elementwise,
    [OP_CEIL] = interp_elementwise,
    [OP_CHOLESKY] = interp_linalg,
    [OP_CLAMP] = interp_elementwise,
    [OP_CLZ] = interp_elementwise,
    [OP_COLLECTIVE_BROADCAST] = interp_control,
    [OP_COLLECTIVE_PERMUTE] = interp_control,
    [OP_COLLECTIVE_PERMUTE_DONE] = interp_control,
    [OP_COLLECTIVE_PERMUTE_START] = interp_control,
    [OP_COLLECTIVE_REDUCE] = interp_control,
    [OP_COMPARE] = interp_elementwise,
    [OP_COMPLEX] = interp_elementwise,
    [OP_CONCATENATE] = interp_shape_op,
    [OP_CONDITIONAL] = interp_control,
    [OP_CONSTANT] = interp_shape_op,
    [OP_CONVERT] = interp_elementwise,
    [OP_CONVOLUTION] = interp_conv,
    [OP_COPY] = interp_shape_op,
    [OP_COPY_DONE] = interp_control,
    [OP_COPY_START] = interp_control,
    [OP_COS] = interp_elementwise,
    [OP_COSH] = interp_elementwise,
    [OP_CUSTOM_CALL] = interp_control,
    [OP_DIVIDE] = interp_elementwise,
    [OP_DOMAIN] = interp_control,
    [OP_DOT] = interp_dot,
    [OP_DYNAMIC_RESHAPE] = interp_shape_op,
    [OP_DYNAMIC_SLICE] = interp_shape_op,
    [OP_DYNAMIC_UPDATE_SLICE] = interp_shape_op,
    [OP_ERF] = interp_elementwise,
    [OP_EXP] = interp_elementwise,
    [OP_EXPM1] = interp_elementwise,
    [OP_FFT] = interp_fft,
    [OP_FLOOR] = interp_elementwise,
    [OP_FUSION] = interp_control,
    [OP_GATHER] = interp_gather,
    [OP_GET_DIMENSION_SIZE] = interp_shape_op,
    [OP_GET_TUPLE_ELEMENT] = interp_shape_op,
    [OP_IMAG] = interp_elementwise,
    [OP_INFEED] = NULL,
    [OP_IOTA] = interp_shape_op,
    [OP_IS_FINITE] = interp_elementwise,
    [OP_LOG] = interp_elementwise,
    [OP_LOG1P] = interp_elementwise,
    [OP_LOGISTIC] = interp_elementwise,
    [OP_MAP] = interp_elementwise,
    [OP_MAXIMUM] = interp_elementwise,
    [OP_MINIMUM] = interp_elementwise,
    [OP_MULHI] = interp_elementwise,
    [OP_MULTIPLY] = interp_elementwise,
    [OP_NEGATE] = interp_elementwise,
    [OP_NOT] = interp_elementwise,
    [OP_OPT_BARRIER] = interp_control,
    [OP_OR] = interp_elementwise,
    [OP_OUTFEED] = NULL,
    [OP_PAD] = interp_shape_op,
    [OP_PARAMETER] = NULL,
    [OP_PARTITION_ID] = interp_control,
    [OP_POPCNT] = interp_elementwise,
    [OP_POWER] = interp_elementwise,
    [OP_RAGGED_ALL_TO_ALL] = interp_control,
    [OP_RAGGED_DOT] = interp_dot,
    [OP_REAL] = interp_elementwise,
    [OP_RECV] = NULL,
    [OP_RECV_DONE] = NULL,
    [OP_REDUCE] = interp_reduce,
    [OP_REDUCE_PRECISION] = interp_elementwise,
    [OP_REDUCE_SCATTER] = interp_control,
    [OP_REDUCE_WINDOW] = interp_reduce,
    [OP_REMAINDER] = interp_elementwise,
    [OP_REPLICA_ID] = interp_control,
    [OP_RESHAPE] = interp_shape_op,
    [OP_REVERSE] = interp_shape_op,
    [OP_RNG] = interp_rng,
    [OP_RNG_BIT_GENERATOR] = interp_rng,
    [OP_RNG_GET_AND_UPDATE_STATE] = interp_rng,
    [OP_ROUND_NEAREST_AFZ] = interp_elementwise,
    [OP_ROUND_NEAREST_EVEN] = interp_elementwise,
    [OP_RSQRT] = interp_elementwise,
    [OP_SCALED_DOT] = interp_dot,
    [OP_SCAN] = interp_control,
    [OP_SCATTER] = interp_gather,
    [OP_SELECT] = interp_elementwise,
    [OP_SELECT_AND_SCATTER] = interp_reduce,
    [OP_SEND] = NULL,
    [OP_SEND_DONE] = NULL,
    [OP_SET_DIMENSION_SIZE] = interp_shape_op,
    [OP_SHIFT_LEFT] = interp_elementwise,
    [OP_SHIFT_RIGHT_ARITHMETIC] = interp_elementwise,
    [OP_SHIFT_RIGHT_LOGICAL] = interp_elementwise,
    [OP_SHUFFLE] = NULL,
    [OP_SIGN] = interp_elementwise,
    [OP_SIN] = interp_elementwise,
    [OP_SINH] = interp_elementwise,
    [OP_SLICE] = interp_shape_op,
    [OP_SORT] = interp_sort,
    [OP_SQRT] = interp_elementwise,
    [OP_STOCHASTIC_CONVERT] = interp_elementwise,
    [OP_SUBTRACT] = interp_elementwise,
    [OP_TAN] = interp_elementwise,
    [OP_TANH] = interp_elementwise,
    [OP_TOPK] = interp_sort,
    [OP_TRANSPOSE] = interp_shape_op,
    [OP_TRIANGULAR_SOLVE] = interp_linalg,
    [OP_TUPLE] = interp_shape_op,
    [OP_WHILE] = interp_control,
    [OP_XOR] = interp_elementwise,
};
/* XOR is the last opcode: a table ending anywhere else means ops.def gained
 * an opcode the dispatch does not list yet. */
_Static_assert(sizeof kDispatch / sizeof kDispatch[0] == OP_COUNT,
               "kDispatch must list every opcode of ops.def");

cxla_status interp_error(const Instr *in, cxla_status_code code, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  char *msg = cxla_vformat(fmt, ap);
  va_end(ap);
  cxla_status s = cxla_status_make(code, "%s %%%s: %s", op_name(in->op), in->name,
                                   msg ? msg : "(out of memory formatting the message)");
  cxla_free(msg);
  return s;
}

void row_major_strides(int rank, const int64_t *dims, int64_t *strides) {
  int64_t s = 1;
  for (int i = rank - 1; i >= 0; i--) {
    strides[i] = s;
    s *= dims[i];
  }
}

ScalarFn scalar_fn_of(const Computation *c) {
  ScalarFn none = {OP_COUNT, false};
  if (!c || c->nparams != 2 || !c->root || !c->params) return none;
  const Instr *r = c->root, *p0 = c->params[0], *p1 = c->params[1];
  if (!p0 || !p1 || r->noperands != 2 || r->op == OP_MAP) return none;
  if (!(op_info(r->op)->flags & OPF_EW) || op_info(r->op)->arity != 2) return none;
  if (p0->shape->rank != 0 || p1->shape->rank != 0 || !type_is_array(p0->shape->type))
    return none;
  if (r->operands[0] == p0 && r->operands[1] == p1) return (ScalarFn){r->op, false};
  if (r->operands[0] == p1 && r->operands[1] == p0) return (ScalarFn){r->op, true};
  return none;
}

/* Per-call bookkeeping: the value of every instruction (indexed by id), how
 * many users have yet to run, and whether the value is borrowed (a parameter:
 * the caller's, never freed here). */
typedef struct Frame {
  int n;
  Literal **vals;
  int *uses;
  unsigned char *live, *borrowed;
  signed char *fma; /* a fused computation's comp_fma_plan (ir/contract.h); else NULL */
} Frame;

static void frame_free(Frame *f) {
  if (f->vals && f->borrowed)
    for (int i = 0; i < f->n; i++)
      if (f->vals[i] && !f->borrowed[i]) literal_free(f->vals[i]);
  cxla_free(f->vals);
  cxla_free(f->uses);
  cxla_free(f->live);
  cxla_free(f->borrowed);
  cxla_free(f->fma);
}

/* What a fused multiply-add also reads: its multiply's operands (NULL:
 * none). */
static const Instr *fma_mul(const Frame *f, const Instr *in) {
  return f->fma && f->fma[in->id] >= 0 ? in->operands[f->fma[in->id]] : NULL;
}

/* Checks the computation's structure the walk relies on (ids match
 * positions, operands come earlier) and counts, for every live value, how
 * many operand slots read it. Dead instructions (not reachable from the
 * root, and without side effects: Computation.side_effects) are never
 * evaluated. */
static cxla_status frame_init(Frame *f, const Computation *c) {
  int n = c->ninstrs;
  f->n = n;
  size_t m = (size_t)(n ? n : 1);
  f->vals = cxla_calloc(m, sizeof(Literal *));
  f->uses = cxla_calloc(m, sizeof(int));
  f->live = cxla_calloc(m, 1);
  f->borrowed = cxla_calloc(m, 1);
  if (!f->vals || !f->uses || !f->live || !f->borrowed) return cxla_oom();
  if (c->contract) TRY(comp_fma_plan(c, &f->fma));
  for (int i = 0; i < n; i++)
    if (!c->instrs[i] || c->instrs[i]->id != i)
      return ERR(INTERNAL, "computation %%%s: instruction ids are stale (comp_renumber)",
                 c->name);
  const Instr *root = c->root;
  if (!root || root->id < 0 || root->id >= n || c->instrs[root->id] != root)
    return ERR(INVALID_ARGUMENT, "computation %%%s has no root instruction", c->name);
  f->live[root->id] = 1;
  f->uses[root->id] = 1; /* the result outlives the walk */
  for (int i = n - 1; i >= 0; i--) {
    const Instr *in = c->instrs[i];
    /* a custom-call with a side effect runs even when nothing reads it, and
     * so does what calls a computation with one (Computation.side_effects) */
    if (in->op == OP_CUSTOM_CALL && in->has_side_effect) f->live[i] = 1;
    for (int k = 0; k < in->ncalled && !f->live[i] && !in->retired; k++)
      if (in->called[k]->side_effects) f->live[i] = 1;
    if (!f->live[i]) continue;
    for (int k = 0; k < in->noperands; k++) {
      const Instr *op = in->operands[k];
      if (!op || op->id < 0 || op->id >= i || c->instrs[op->id] != op)
        return ERR(INVALID_ARGUMENT,
                   "computation %%%s: operand %d of %%%s is not an earlier instruction of "
                   "the same computation",
                   c->name, k, in->name);
      f->live[op->id] = 1;
      f->uses[op->id]++;
    }
    /* a fused multiply-add reads its multiply's operands too (checked as
     * the multiply's own operands when the walk reaches it) */
    const Instr *m = fma_mul(f, in);
    for (int k = 0; m && k < m->noperands; k++) {
      const Instr *op = m->operands[k];
      if (!op || op->id < 0 || op->id >= m->id || c->instrs[op->id] != op) continue;
      f->live[op->id] = 1;
      f->uses[op->id]++;
    }
  }
  return NULL;
}

static bool literal_fits_shape(const Literal *l, const Shape *s);

/* Evaluators size their loops by their operands' shapes as the verifier
 * inferred them, so a value that lacks its instruction's shape must not
 * reach a user. Where the result shape is only declared (custom-call,
 * collectives, async ops: the verifier cannot know it), a mismatch is the
 * module's error; elsewhere it is the interpreter's. */
static cxla_status check_result(const Instr *in, const Literal *out) {
  if (literal_fits_shape(out, in->shape)) return NULL;
  bool declared = in->op == OP_CUSTOM_CALL || (op_info(in->op)->flags & (OPF_COLL | OPF_ASYNC));
  if (declared)
    return interp_error(in, CXLA_INVALID_ARGUMENT,
                        "its value does not have the declared result shape");
  return interp_error(in, CXLA_INTERNAL,
                      "evaluated value does not have the instruction's shape (an interpreter "
                      "bug, or a module that was not verified)");
}

cxla_status interp_charge(Interp *ip, const Instr *in, uint64_t work, int count) {
  if (ip->control && (ip->since_check += count) >= 64) {
    ip->since_check = 0;
    cxla_status s = rt_check(ip->control);
    if (s) return cxla_status_annotate(s, "%s %%%s", op_name(in->op), in->name);
  }
  if (!ip->budget) return NULL;
  ip->work += work;
  if (ip->work <= ip->budget) return NULL;
  return interp_error(in, CXLA_RESOURCE_EXHAUSTED,
                      "work budget of %llu exhausted (a loop that does not terminate?)",
                      (unsigned long long)ip->budget);
}

/* Charges one evaluation of `in` to the optional work budget. */
static cxla_status charge(Interp *ip, const Instr *in, Literal *const *ops, const Literal *out) {
  uint64_t w = 1 + (out ? (uint64_t)out->nelems : 0);
  for (int k = 0; k < in->noperands; k++) w += (uint64_t)ops[k]->nelems;
  return interp_charge(ip, in, w, 1);
}

/* Evaluates one instruction; its operands' values are all present. */
static cxla_status eval_instr(Interp *ip, const Instr *in, Frame *f, int nargs,
                              Literal *const *args) {
  if (in->op == OP_PARAMETER) {
    if (in->param_number < 0 || in->param_number >= nargs)
      return interp_error(in, CXLA_INVALID_ARGUMENT, "parameter number %lld out of range (%d arguments)",
                          (long long)in->param_number, nargs);
    f->vals[in->id] = args[in->param_number];
    f->borrowed[in->id] = 1;
    return charge(ip, in, NULL, NULL);
  }
  EvalFn fn = (unsigned)in->op < OP_COUNT ? kDispatch[in->op] : NULL;
  if (!fn) return interp_error(in, CXLA_UNIMPLEMENTED, "the interpreter cannot run this op");
  Literal *small[8];
  Literal **ops = small;
  if (in->noperands > 8) {
    ops = cxla_calloc((size_t)in->noperands, sizeof(Literal *));
    if (!ops) return cxla_oom();
  }
  for (int k = 0; k < in->noperands; k++) ops[k] = f->vals[in->operands[k]->id];
  Literal *out = NULL;
  const Instr *m = fma_mul(f, in);
  int mk = m ? f->fma[in->id] : 0;
  cxla_status s = m ? interp_fma(in, mk, f->vals[m->operands[0]->id], f->vals[m->operands[1]->id], ops[1 - mk], &out)
                    : fn(ip, in, ops, &out);
  if (!s && !out) s = interp_error(in, CXLA_INTERNAL, "evaluator returned no value");
  if (!s) s = check_result(in, out);
  if (!s) s = charge(ip, in, ops, out);
  if (ops != small) cxla_free(ops);
  if (s) {
    literal_free(out);
    return s;
  }
  f->vals[in->id] = out;
  /* Release operands whose last user this was. */
  for (int k = 0; k < in->noperands + (m ? m->noperands : 0); k++) {
    int id = k < in->noperands ? in->operands[k]->id : m->operands[k - in->noperands]->id;
    if (--f->uses[id] == 0 && !f->borrowed[id]) {
      literal_free(f->vals[id]);
      f->vals[id] = NULL;
    }
  }
  return NULL;
}

cxla_status interp_call(Interp *ip, const Computation *c, Literal *const *args, int nargs,
                        Literal **out) {
  *out = NULL;
  if (nargs != c->nparams)
    return ERR(INVALID_ARGUMENT, "computation %%%s takes %d arguments, got %d", c->name,
               c->nparams, nargs);
  if (ip->depth >= INTERP_MAX_DEPTH)
    return ERR(RESOURCE_EXHAUSTED,
               "computation %%%s: calls nest deeper than %d levels (runaway recursion?)",
               c->name, INTERP_MAX_DEPTH);
  Frame f = {0};
  cxla_status s = frame_init(&f, c);
  ip->depth++;
  for (int i = 0; !s && i < c->ninstrs; i++)
    if (f.live[i]) s = eval_instr(ip, c->instrs[i], &f, nargs, args);
  ip->depth--;
  if (!s) {
    int r = c->root->id;
    if (f.borrowed[r]) {
      s = literal_clone(f.vals[r], out);
    } else {
      *out = f.vals[r];
      f.vals[r] = NULL;
    }
  }
  frame_free(&f);
  return s;
}

/* ---- the public entry point ---- */


static bool literal_fits_shape(const Literal *l, const Shape *s) {
  if (l->type != s->type) return false;
  if (s->type == T_TUPLE) {
    if (l->ntuple != s->ntuple) return false;
    for (int i = 0; i < s->ntuple; i++)
      if (!literal_fits_shape(l->tuple[i], s->tuple[i])) return false;
    return true;
  }
  if (s->type == T_TOKEN || s->type == T_OPAQUE) return true;
  if (l->rank != s->rank) return false;
  for (int i = 0; i < s->rank; i++)
    if (l->dims[i] != s->dims[i]) return false;
  return !l->unknown && (l->nelems == 0 || l->data);
}

static cxla_status check_argument(const Instr *param, int i, const Literal *arg) {
  if (!arg) return ERR(INVALID_ARGUMENT, "argument %d is NULL", i);
  if (literal_fits_shape(arg, param->shape)) return NULL;
  StrBuf want, got;
  sb_init(&want);
  sb_init(&got);
  shape_print(&want, param->shape, false);
  literal_print_shape(&got, arg);
  cxla_status s = (want.oom || got.oom)
                      ? cxla_oom()
                      : ERR(INVALID_ARGUMENT,
                            "argument %d does not match parameter %%%s: expected %s, got %s", i,
                            param->name, want.data, got.data);
  sb_free(&want);
  sb_free(&got);
  return s;
}

/* The interpreter cannot invent the values of constants whose text was
 * elided ("{...}"): refuse the module up front rather than half-way. */
static cxla_status check_no_elided_constants(const HloModule *m) {
  for (int c = 0; c < m->ncomps; c++) {
    const Computation *comp = m->comps[c];
    for (int i = 0; i < comp->ninstrs; i++) {
      const Instr *in = comp->instrs[i];
      if (in->op == OP_CONSTANT && in->literal && in->literal->unknown)
        return ERR(FAILED_PRECONDITION,
                   "constant %%%s has an elided value {...}; cxla cannot run it", in->name);
    }
  }
  return NULL;
}

cxla_status cxla_interp_run(const cxla_module *m, cxla_literal *const *args, int nargs,
                            cxla_literal **out_result) {
  unsigned fp = fpenv_default_enter(); /* the caller's mode is not ours (base/fpenv.h) */
  cxla_status s = interp_run_budget(m, args, nargs, 0, out_result);
  fpenv_leave(fp);
  return s;
}

cxla_status interp_run_budget(const HloModule *m, Literal *const *args, int nargs,
                              uint64_t budget, Literal **out_result) {
  *out_result = NULL;
  Interp ip = {.module = m, .depth = 0, .rng_state = 0x853c49e6748fea9bull, .budget = budget};
  return interp_check_and_call(&ip, args, nargs, out_result);
}

cxla_status interp_check_and_call(Interp *ip, Literal *const *args, int nargs,
                                  Literal **out_result) {
  *out_result = NULL;
  const HloModule *m = ip->module;
  if (!m || !m->entry) return ERR(INVALID_ARGUMENT, "module has no entry computation");
  TRY(check_no_elided_constants(m));
  const Computation *e = m->entry;
  if (nargs != e->nparams)
    return ERR(INVALID_ARGUMENT, "entry computation %%%s takes %d arguments, got %d", e->name,
               e->nparams, nargs);
  if (nargs && !args) return ERR(INVALID_ARGUMENT, "arguments missing");
  for (int i = 0; i < nargs; i++) {
    if (!e->params || !e->params[i])
      return ERR(INVALID_ARGUMENT, "entry computation %%%s has no parameter %d", e->name, i);
    TRY(check_argument(e->params[i], i, args[i]));
  }
  return interp_call(ip, e, args, nargs, out_result);
}
