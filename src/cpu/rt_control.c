/* rt_control.c: the routines that move values rather than compute them,
 * with the interpreter's single-replica semantics (src/interp/control.c):
 *
 *   all-reduce, all-gather, reduce-scatter, all-to-all, collective-
 *   broadcast, all-reduce-start   one replica: the operands themselves
 *   collective-permute            itself if (0,0) is a source-target pair,
 *                                 else zeros
 *   all-gather-start, collective-permute-start, async-start
 *                                 (operands, result, zero context...);
 *                                 async-start runs its computation as a
 *                                 compiled program (Step.sub[0])
 *   copy-start                    (operand, operand, zero context)
 *   *-done, async-update          the element the start left for them
 *   replica-id, partition-id      u32 0
 *   get-dimension-size            the static size; set-dimension-size the
 *                                 operand; dynamic-reshape a view
 *   custom-calls that only annotate ("Sharding", ...) their operand
 *
 * Values are immutable, so "the operand" is a new reference, not a copy. A
 * collective whose result shape implies several replicas is refused when
 * the program is compiled. */
#include <stdlib.h>
#include <string.h>

#include "cpu/cpu_internal.h"

bool rt_identity_target(const char *t) {
  static const char *const names[] = {"Sharding", "SPMDFullToShardShape", "SPMDShardToFullShape",
                                      "MoveToHost", "MoveToDevice", "annotate_device_placement"};
  for (size_t i = 0; t && i < sizeof names / sizeof names[0]; i++)
    if (strcmp(t, names[i]) == 0) return true;
  return false;
}

/* Whether the operands, as one value (one operand) or a tuple, have shape s. */
static bool operands_are(const Instr *in, const Shape *s) {
  if (in->noperands == 1 && shape_compatible(in->operands[0]->shape, s)) return true;
  if (s->type != T_TUPLE || s->ntuple != in->noperands) return false;
  for (int k = 0; k < in->noperands; k++)
    if (!shape_compatible(in->operands[k]->shape, s->tuple[k])) return false;
  return true;
}

/* source_target_pairs={{0,1},{1,0}}: does replica 0 send to itself? */
static bool permutes_zero_to_zero(const Instr *in) {
  const char *p = instr_raw(in, "source_target_pairs");
  for (; p && *p; p++) {
    if (*p != '{' || p[1] == '{') continue;
    char *end;
    long a = strtol(p + 1, &end, 10);
    if (end == p + 1 || *end != ',') continue;
    const char *q = end + 1;
    long b = strtol(q, &end, 10);
    if (end != q && a == 0 && b == 0) return true;
  }
  return false;
}

static bool is_collective(Opcode op) {
  return op == OP_ALL_REDUCE || op == OP_ALL_REDUCE_START || op == OP_ALL_GATHER || op == OP_REDUCE_SCATTER ||
         op == OP_ALL_TO_ALL || op == OP_COLLECTIVE_BROADCAST || op == OP_COLLECTIVE_PERMUTE;
}

/* The collective's single-replica result shape check (res: its result). */
static cxla_status check_collective(const Instr *in, Opcode op, const Shape *res) {
  if (op == OP_COLLECTIVE_PERMUTE && in->noperands != 1)
    return ERR(UNIMPLEMENTED, "cpu backend: %%%s: the in-place collective-permute is not supported", in->name);
  if (op == OP_COLLECTIVE_PERMUTE && !permutes_zero_to_zero(in)) return NULL; /* zeros of any shape */
  if (!operands_are(in, res))
    return ERR(UNIMPLEMENTED, "cpu backend: %s %%%s: its result shape implies several replicas; cxla runs one",
               op_name(in->op), in->name);
  return NULL;
}

static bool start_shape_ok(const Shape *s) { return s->type == T_TUPLE && s->ntuple >= 2; }

cxla_status rt_control_check(const Instr *in) {
  switch (in->op) {
  case OP_ALL_GATHER_START:
  case OP_COLLECTIVE_PERMUTE_START:
    if (!start_shape_ok(in->shape) || !operands_are(in, in->shape->tuple[0]))
      return ERR(INVALID_ARGUMENT, "%%%s: result must be a tuple (operands, result, ...)", in->name);
    return check_collective(in, in->op == OP_ALL_GATHER_START ? OP_ALL_GATHER : OP_COLLECTIVE_PERMUTE,
                            in->shape->tuple[1]);
  case OP_ASYNC_START:
    if (in->ncalled != 1 || !start_shape_ok(in->shape) || !operands_are(in, in->shape->tuple[0]) ||
        !shape_compatible(in->called[0]->root->shape, in->shape->tuple[1]))
      return ERR(INVALID_ARGUMENT, "%%%s: async-start needs one computation and (operands, result, ...)",
                 in->name);
    return NULL;
  case OP_COPY_START:
    if (in->noperands != 1 || !start_shape_ok(in->shape) || !shape_compatible(in->operands[0]->shape, in->shape->tuple[0]) ||
        !shape_compatible(in->operands[0]->shape, in->shape->tuple[1]))
      return ERR(INVALID_ARGUMENT, "%%%s: copy-start returns (destination, source, context)", in->name);
    return NULL;
  case OP_ASYNC_DONE:
  case OP_ALL_GATHER_DONE:
  case OP_COLLECTIVE_PERMUTE_DONE:
  case OP_COPY_DONE: {
    int e = in->op == OP_COPY_DONE ? 0 : 1;
    const Shape *s = in->noperands == 1 ? in->operands[0]->shape : NULL;
    if (!s || !start_shape_ok(s) || !shape_compatible(s->tuple[e], in->shape))
      return ERR(INVALID_ARGUMENT, "%%%s: its operand must be the start's tuple", in->name);
    return NULL;
  }
  case OP_ASYNC_UPDATE:
  case OP_ALL_REDUCE_DONE:
  case OP_SET_DIMENSION_SIZE:
    if (in->noperands < 1 || !shape_compatible(in->operands[0]->shape, in->shape))
      return ERR(INVALID_ARGUMENT, "%%%s: the result must be operand 0", in->name);
    return NULL;
  case OP_CUSTOM_CALL:
    if (in->noperands != 1 || !shape_compatible(in->operands[0]->shape, in->shape))
      return ERR(INVALID_ARGUMENT, "%%%s: the result must be the operand", in->name);
    return NULL;
  case OP_REPLICA_ID:
  case OP_PARTITION_ID:
    if (in->shape->type != T_U32 || in->shape->rank != 0)
      return ERR(INVALID_ARGUMENT, "%%%s: the result must be u32[]", in->name);
    return NULL;
  case OP_GET_DIMENSION_SIZE: {
    const Shape *s = in->noperands == 1 ? in->operands[0]->shape : NULL;
    if (!s || s->type == T_TUPLE || in->dimensions.n != 1 || in->dimensions.v[0] < 0 ||
        in->dimensions.v[0] >= s->rank || !type_is_int(in->shape->type) || shape_elems(in->shape) != 1)
      return ERR(INVALID_ARGUMENT, "%%%s: needs an array, a dimension and an integer scalar result", in->name);
    return NULL;
  }
  case OP_DYNAMIC_RESHAPE: {
    const Shape *s = in->noperands >= 1 ? in->operands[0]->shape : NULL;
    if (!s || s->type == T_TUPLE || s->type != in->shape->type || shape_elems(s) != shape_elems(in->shape))
      return ERR(UNIMPLEMENTED, "cpu backend: %%%s: a dynamic-reshape that changes the element count", in->name);
    return NULL;
  }
  default:
    if (is_collective(in->op)) return check_collective(in, in->op == OP_ALL_REDUCE_START ? OP_ALL_REDUCE : in->op, in->shape);
    return ERR(INTERNAL, "cpu backend: %%%s is not a control routine", in->name);
  }
}

static cxla_status zeros(const Shape *s, RVal **out);

/* A tuple of shape s whose first nfirst elements are first[] (taken), the
 * others zero-filled. */
static cxla_status tuple_with(const Shape *s, RVal *const *first, int nfirst, RVal **out) {
  *out = NULL;
  RVal *small[8] = {0}, **el = small;
  if (s->ntuple > 8 && !(el = cxla_calloc((size_t)s->ntuple, sizeof *el))) {
    for (int k = 0; k < nfirst; k++) rval_unref(first[k]);
    return cxla_oom();
  }
  for (int k = 0; k < nfirst && k < s->ntuple; k++) el[k] = first[k];
  cxla_status st = NULL;
  for (int i = nfirst; i < s->ntuple && !st; i++) st = zeros(s->tuple[i], &el[i]);
  if (st) {
    for (int k = 0; k < s->ntuple; k++) rval_unref(el[k]);
  } else {
    st = rval_tuple(s->ntuple, el, out);
  }
  if (el != small) cxla_free(el);
  return st;
}

/* A zero-filled value of shape s. */
static cxla_status zeros(const Shape *s, RVal **out) {
  *out = NULL;
  if (s->type == T_TUPLE) return tuple_with(s, NULL, 0, out);
  TRY(rval_array(s->type, s->rank, s->dims, out));
  memset((*out)->lit.data, 0, (size_t)(*out)->lit.nelems * (size_t)type_bytes(s->type));
  return NULL;
}

/* The operands as one value: the operand, or a tuple of them. */
static cxla_status operands_value(const Instr *in, const Shape *s, RVal *const *ops, RVal **out) {
  if (in->noperands == 1 && shape_compatible(in->operands[0]->shape, s)) {
    *out = rval_ref(ops[0]);
    return NULL;
  }
  RVal *small[8], **el = small;
  if (in->noperands > 8 && !(el = cxla_calloc((size_t)in->noperands, sizeof *el))) return cxla_oom();
  for (int k = 0; k < in->noperands; k++) el[k] = rval_ref(ops[k]);
  cxla_status st = rval_tuple(in->noperands, el, out);
  if (el != small) cxla_free(el);
  return st;
}

static cxla_status collective(const Instr *in, Opcode op, const Shape *res, RVal *const *ops, RVal **out) {
  if (op == OP_COLLECTIVE_PERMUTE && !permutes_zero_to_zero(in)) return zeros(res, out);
  return operands_value(in, res, ops, out);
}

/* (operands, result taken, zeros...) */
static cxla_status start_tuple(const Instr *in, RVal *const *ops, RVal *result, RVal **out) {
  RVal *first[2] = {NULL, result};
  cxla_status st = operands_value(in, in->shape->tuple[0], ops, &first[0]);
  if (st) {
    rval_unref(result);
    return st;
  }
  return tuple_with(in->shape, first, 2, out);
}

cxla_status rt_control_run(const ExecCtx *cx, const Step *st, RVal *const *ops, RVal **out) {
  const Instr *in = st->in;
  *out = NULL;
  switch (in->op) {
  case OP_ALL_GATHER_START:
  case OP_COLLECTIVE_PERMUTE_START: {
    RVal *r;
    TRY(collective(in, in->op == OP_ALL_GATHER_START ? OP_ALL_GATHER : OP_COLLECTIVE_PERMUTE, in->shape->tuple[1],
                   ops, &r));
    return start_tuple(in, ops, r, out);
  }
  case OP_ASYNC_START: {
    RVal *r;
    TRY(exec_program(cx, st->sub[0], ops, in->noperands, &r));
    return start_tuple(in, ops, r, out);
  }
  case OP_COPY_START:
    return start_tuple(in, ops, rval_ref(ops[0]), out);
  case OP_ASYNC_DONE:
  case OP_ALL_GATHER_DONE:
  case OP_COLLECTIVE_PERMUTE_DONE:
  case OP_COPY_DONE: {
    int e = in->op == OP_COPY_DONE ? 0 : 1;
    if (ops[0]->lit.type != T_TUPLE || ops[0]->lit.ntuple <= e)
      return ERR(INTERNAL, "%%%s: operand is not the start's tuple", in->name);
    *out = rval_ref(ops[0]->elems[e]);
    return NULL;
  }
  case OP_ASYNC_UPDATE:
  case OP_ALL_REDUCE_DONE:
  case OP_SET_DIMENSION_SIZE:
  case OP_CUSTOM_CALL:
    *out = rval_ref(ops[0]);
    return NULL;
  case OP_REPLICA_ID:
  case OP_PARTITION_ID:
    TRY(rval_array(T_U32, 0, NULL, out));
    memset((*out)->lit.data, 0, 4);
    return NULL;
  case OP_GET_DIMENSION_SIZE:
    TRY(rval_array(in->shape->type, in->shape->rank, in->shape->dims, out));
    literal_set_i64(&(*out)->lit, 0, in->operands[0]->shape->dims[in->dimensions.v[0]]);
    return NULL;
  case OP_DYNAMIC_RESHAPE:
    return rval_view(ops[0], in->shape, 0, out);
  default:
    return collective(in, in->op == OP_ALL_REDUCE_START ? OP_ALL_REDUCE : in->op, in->shape, ops, out);
  }
}
