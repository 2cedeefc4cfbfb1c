/* Control flow and the ops around it: call, fusion, while, conditional,
 * custom-call dispatch, opt-barrier, after-all, add-dependency, domain, the
 * async wrappers, copy-start/done, get-dimension-size, and collectives as
 * they behave on a single replica (cxla runs one device: all-reduce and
 * friends are identities, replica-id and partition-id are 0). */
#include <stdlib.h>
#include <string.h>

#include "interp/interp.h"

/* ---- small helpers ---- */

static cxla_status need_called(const Instr *in, int n) {
  if (in->ncalled < n)
    return interp_error(in, CXLA_INVALID_ARGUMENT, "needs %d called computation%s, has %d", n,
                        n == 1 ? "" : "s", in->ncalled);
  for (int i = 0; i < n; i++)
    if (!in->called[i])
      return interp_error(in, CXLA_INVALID_ARGUMENT, "called computation %d is missing", i);
  return NULL;
}

static cxla_status need_operands(const Instr *in, int n) {
  if (in->noperands != n)
    return interp_error(in, CXLA_INVALID_ARGUMENT, "expects %d operand%s, has %d", n,
                        n == 1 ? "" : "s", in->noperands);
  return NULL;
}

/* Replaces element i of tuple t by v (taken). */
static void tuple_put(Literal *t, int i, Literal *v) {
  literal_free(t->tuple[i]);
  t->tuple[i] = v;
}

static cxla_status tuple_element(const Instr *in, const Literal *t, int i, Literal **out) {
  if (t->type != T_TUPLE || i >= t->ntuple)
    return interp_error(in, CXLA_INVALID_ARGUMENT, "operand is not a tuple with element %d", i);
  return literal_clone(t->tuple[i], out);
}

static bool dims_equal(const Literal *l, const Shape *s) {
  if (l->type != s->type) return false;
  if (s->type == T_TUPLE) {
    if (l->ntuple != s->ntuple) return false;
    for (int i = 0; i < s->ntuple; i++)
      if (!dims_equal(l->tuple[i], s->tuple[i])) return false;
    return true;
  }
  if (l->rank != s->rank) return false;
  for (int i = 0; i < s->rank; i++)
    if (l->dims[i] != s->dims[i]) return false;
  return true;
}

/* ---- calls and loops ---- */

static cxla_status eval_call(Interp *ip, const Instr *in, Literal *const *ops, Literal **out) {
  TRY(need_called(in, 1));
  return interp_call(ip, in->called[0], ops, in->noperands, out);
}

static cxla_status read_pred(const Instr *in, const Literal *p, bool *v) {
  if (p->type != T_PRED || p->nelems != 1 || p->rank != 0)
    return interp_error(in, CXLA_INVALID_ARGUMENT, "condition must return a pred scalar");
  *v = *(const unsigned char *)p->data != 0;
  return NULL;
}

/* while: run condition (called[0]) on the state; while it says true, replace
 * the state by body (called[1]) of it. The first state is the caller's
 * operand, borrowed until the body produces an owned one. */
static cxla_status eval_while(Interp *ip, const Instr *in, Literal *const *ops, Literal **out) {
  TRY(need_operands(in, 1));
  TRY(need_called(in, 2));
  const Computation *cond = in->called[0], *body = in->called[1];
  Literal *state = ops[0];
  bool owned = false;
  cxla_status s = NULL;
  for (;;) {
    Literal *p = NULL;
    bool go = false;
    s = interp_call(ip, cond, &state, 1, &p);
    if (!s) s = read_pred(in, p, &go);
    literal_free(p);
    if (s || !go) break;
    Literal *next = NULL;
    s = interp_call(ip, body, &state, 1, &next);
    if (s) break;
    if (owned) literal_free(state);
    state = next;
    owned = true;
  }
  if (s) {
    if (owned) literal_free(state);
    return s;
  }
  if (owned) {
    *out = state;
    return NULL;
  }
  return literal_clone(state, out);
}

/* conditional: a pred selects called[0] (true) or called[1] (false); an s32
 * index selects that branch, out-of-range indices the last one. Branch b
 * gets operand b + 1. */
static cxla_status eval_conditional(Interp *ip, const Instr *in, Literal *const *ops,
                                    Literal **out) {
  int nb = in->ncalled;
  TRY(need_called(in, nb));
  if (nb < 1 || in->noperands != nb + 1)
    return interp_error(in, CXLA_INVALID_ARGUMENT, "%d branches need %d operands, has %d", nb,
                        nb + 1, in->noperands);
  const Literal *sel = ops[0];
  if (sel->rank != 0 || sel->nelems != 1)
    return interp_error(in, CXLA_INVALID_ARGUMENT, "branch selector must be a scalar");
  int b;
  if (sel->type == T_PRED) {
    if (nb != 2) return interp_error(in, CXLA_INVALID_ARGUMENT, "a pred selector needs 2 branches");
    b = *(const unsigned char *)sel->data ? 0 : 1;
  } else if (sel->type == T_S32) {
    int32_t v;
    memcpy(&v, sel->data, 4);
    b = (v < 0 || v >= nb) ? nb - 1 : v;
  } else {
    return interp_error(in, CXLA_INVALID_ARGUMENT, "branch selector must be pred or s32, is %s",
                        type_name(sel->type));
  }
  return interp_call(ip, in->called[b], &ops[b + 1], 1, out);
}

/* ---- custom-call ---- */

/* Targets that only annotate their operand for the compiler. */
static bool is_identity_target(const char *t) {
  static const char *const names[] = {"Sharding", "SPMDFullToShardShape", "SPMDShardToFullShape",
                                      "MoveToHost", "MoveToDevice", "annotate_device_placement"};
  for (size_t i = 0; i < sizeof names / sizeof names[0]; i++)
    if (strcmp(t, names[i]) == 0) return true;
  return false;
}

/* XLA:CPU rewrites topk into custom-call "TopK" whose comparator says the
 * order; run it as the topk op (sort.c). */
static cxla_status eval_topk_call(Interp *ip, const Instr *in, Literal *const *ops, Literal **out) {
  const Shape *s = in->shape;
  if (in->noperands != 1 || s->type != T_TUPLE || s->ntuple != 2 || s->tuple[0]->rank < 1)
    return interp_error(in, CXLA_INVALID_ARGUMENT, "TopK must return (values, indices)");
  Instr topk = *in;
  topk.op = OP_TOPK;
  topk.attrs |= A_TOPK;
  topk.topk_k = s->tuple[0]->dims[s->tuple[0]->rank - 1];
  topk.topk_largest = true;
  if (in->ncalled >= 1 && in->called[0] && in->called[0]->root) {
    const Instr *r = in->called[0]->root;
    if (r->op == OP_COMPARE && (r->cmp_dir == CMP_LT || r->cmp_dir == CMP_LE))
      topk.topk_largest = false;
  }
  return interp_sort(ip, &topk, ops, out);
}

static cxla_status eval_custom_call(Interp *ip, const Instr *in, Literal *const *ops,
                                    Literal **out) {
  const char *t = in->custom_call_target ? in->custom_call_target : "";
  if (is_identity_target(t) && in->noperands == 1 && dims_equal(ops[0], in->shape))
    return literal_clone(ops[0], out);
  if (strcmp(t, "TopK") == 0) return eval_topk_call(ip, in, ops, out);
  if (interp_is_host_callback(in)) return interp_host_callback(ip, in, ops, out);
  /* Everything else (the LAPACK targets) belongs to linalg.c, which answers
   * "unsupported custom-call target '...'" for targets nobody handles. */
  return interp_linalg(ip, in, ops, out);
}

/* ---- collectives on one replica ---- */

/* The value of a collective whose single-replica result is its operands:
 * one operand gives itself, several a tuple. */
static cxla_status collective_identity(const Instr *in, Literal *const *ops, Literal **out) {
  cxla_status s = in->noperands == 1 && in->shape->type != T_TUPLE
                      ? literal_clone(ops[0], out)
                      : literal_tuple_of_clones(ops, in->noperands, out);
  if (s) return s;
  if (!dims_equal(*out, in->shape)) {
    literal_free(*out);
    *out = NULL;
    return interp_error(in, CXLA_UNIMPLEMENTED,
                        "its result shape implies several replicas; cxla runs one");
  }
  return NULL;
}

/* source_target_pairs={{0,1},{1,0}}: does replica 0 send to itself? */
static bool permutes_zero_to_zero(const Instr *in) {
  const char *p = instr_raw(in, "source_target_pairs");
  if (!p) return false;
  while (*p) {
    if (*p == '{' && p[1] != '{') {
      long a, b;
      char *end;
      a = strtol(p + 1, &end, 10);
      if (end != p + 1 && *end == ',') {
        const char *q = end + 1;
        b = strtol(q, &end, 10);
        if (end != q && a == 0 && b == 0) return true;
      }
    }
    p++;
  }
  return false;
}

/* collective-permute: replica 0 receives from whoever sends to it; alone,
 * that is itself if (0,0) is a pair, else nobody, and the result is zeros. */
static cxla_status eval_collective_permute(const Instr *in, Literal *const *ops, Literal **out) {
  if (in->noperands != 1)
    return interp_error(in, CXLA_UNIMPLEMENTED, "the in-place form is not supported");
  if (permutes_zero_to_zero(in)) return collective_identity(in, ops, out);
  return literal_create_for_shape(in->shape, out);
}

static cxla_status eval_collective(const Instr *in, Literal *const *ops, Literal **out) {
  switch (in->op) {
  case OP_ALL_REDUCE:
  case OP_ALL_REDUCE_START:
  case OP_ALL_GATHER:
  case OP_REDUCE_SCATTER:
  case OP_ALL_TO_ALL:
  case OP_COLLECTIVE_BROADCAST:
    return collective_identity(in, ops, out);
  case OP_COLLECTIVE_PERMUTE:
    return eval_collective_permute(in, ops, out);
  default:
    return interp_error(in, CXLA_UNIMPLEMENTED, "collective not supported");
  }
}

/* ---- asynchronous wrappers, evaluated synchronously ---- */

/* Fills element slot of a zero-initialised start tuple with the operands
 * (a nested tuple of them, or the operand itself). */
static cxla_status put_operands(const Instr *in, Literal *t, int slot, Literal *const *ops) {
  Literal *v;
  if (t->tuple[slot]->type == T_TUPLE) TRY(literal_tuple_of_clones(ops, in->noperands, &v));
  else if (in->noperands == 1) TRY(literal_clone(ops[0], &v));
  else return interp_error(in, CXLA_INVALID_ARGUMENT, "operands do not fit the result shape");
  tuple_put(t, slot, v);
  return NULL;
}

/* The start ops return a tuple whose element 0 holds the operands and
 * element 1 the result; further elements are context (zeros here). */
static cxla_status start_tuple(const Instr *in, Literal *const *ops, Literal *result,
                               Literal **out) {
  *out = NULL;
  Literal *t = NULL;
  cxla_status s = NULL;
  if (in->shape->type != T_TUPLE || in->shape->ntuple < 2)
    s = interp_error(in, CXLA_INVALID_ARGUMENT, "result must be a tuple (operands, result, ...)");
  if (!s) s = literal_create_for_shape(in->shape, &t);
  if (!s) s = put_operands(in, t, 0, ops);
  if (s) {
    literal_free(result);
    literal_free(t);
    return s;
  }
  tuple_put(t, 1, result);
  if (!dims_equal(t, in->shape)) {
    literal_free(t);
    return interp_error(in, CXLA_INVALID_ARGUMENT, "result does not match the instruction's shape");
  }
  *out = t;
  return NULL;
}

static cxla_status eval_async_start(Interp *ip, const Instr *in, Literal *const *ops,
                                    Literal **out) {
  TRY(need_called(in, 1));
  Literal *r;
  TRY(interp_call(ip, in->called[0], ops, in->noperands, &r));
  return start_tuple(in, ops, r, out);
}

static cxla_status eval_start_collective(const Instr *in, Literal *const *ops, Literal **out) {
  Literal *r;
  Instr plain = *in;
  /* The result of the wrapped collective is element 1 of the start shape. */
  if (in->shape->type != T_TUPLE || in->shape->ntuple < 2)
    return interp_error(in, CXLA_INVALID_ARGUMENT, "result must be a tuple (operands, result, ...)");
  plain.shape = in->shape->tuple[1];
  plain.op = in->op == OP_ALL_GATHER_START ? OP_ALL_GATHER : OP_COLLECTIVE_PERMUTE;
  TRY(eval_collective(&plain, ops, &r));
  return start_tuple(in, ops, r, out);
}

/* copy-start returns (destination, source, context); copy-done the
 * destination. */
static cxla_status eval_copy_start(const Instr *in, Literal *const *ops, Literal **out) {
  TRY(need_operands(in, 1));
  if (in->shape->type != T_TUPLE || in->shape->ntuple < 2)
    return interp_error(in, CXLA_INVALID_ARGUMENT, "result must be a tuple (dest, source, ...)");
  Literal *t, *a = NULL, *b = NULL;
  TRY(literal_create_for_shape(in->shape, &t));
  cxla_status s = literal_clone(ops[0], &a);
  if (!s) s = literal_clone(ops[0], &b);
  if (s) {
    literal_free(a);
    literal_free(t);
    return s;
  }
  tuple_put(t, 0, a);
  tuple_put(t, 1, b);
  *out = t;
  return NULL;
}

/* ---- the rest ---- */

static cxla_status scalar_u32(uint32_t v, Literal **out) {
  TRY(literal_create(T_U32, 0, NULL, out));
  memcpy((*out)->data, &v, 4);
  return NULL;
}

cxla_status interp_control(Interp *ip, const Instr *in, Literal *const *ops, Literal **out) {
  *out = NULL;
  switch (in->op) {
  case OP_CALL:
  case OP_FUSION:
    return eval_call(ip, in, ops, out);
  case OP_WHILE:
    return eval_while(ip, in, ops, out);
  case OP_CONDITIONAL:
    return eval_conditional(ip, in, ops, out);
  case OP_CUSTOM_CALL:
    return eval_custom_call(ip, in, ops, out);
  case OP_OPT_BARRIER:
  case OP_DOMAIN:
  case OP_ADD_DEPENDENCY:
  case OP_ASYNC_UPDATE:
  case OP_ALL_REDUCE_DONE:
    if (in->noperands < 1) return need_operands(in, 1);
    return literal_clone(ops[0], out); /* add-dependency: operand 0, the data */
  case OP_AFTER_ALL:
    return literal_create(T_TOKEN, 0, NULL, out);
  case OP_REPLICA_ID:
  case OP_PARTITION_ID:
    return scalar_u32(0, out);
  case OP_ASYNC_START:
    return eval_async_start(ip, in, ops, out);
  case OP_ASYNC_DONE:
  case OP_ALL_GATHER_DONE:
  case OP_COLLECTIVE_PERMUTE_DONE:
    TRY(need_operands(in, 1));
    return tuple_element(in, ops[0], 1, out);
  case OP_ALL_GATHER_START:
  case OP_COLLECTIVE_PERMUTE_START:
    return eval_start_collective(in, ops, out);
  case OP_COPY_START:
    return eval_copy_start(in, ops, out);
  case OP_COPY_DONE:
    TRY(need_operands(in, 1));
    return tuple_element(in, ops[0], 0, out);
  default:
    if (op_info(in->op)->flags & OPF_COLL) return eval_collective(in, ops, out);
    return interp_error(in, CXLA_UNIMPLEMENTED, "the interpreter cannot run this op");
  }
}
