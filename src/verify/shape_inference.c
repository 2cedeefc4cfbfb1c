/* The opcode -> shape rule table and infer_shape(), its entry point.
 *
 * An op's shape rule is one lookup away: rules[op]. Each entry also says how
 * many computations the op calls (checked here uniformly, before the rule
 * runs) and whether its rule really infers the shape or accepts the
 * declared one. Operand counts for fixed-arity ops come from ops.def. */
#include "verify/infer.h"

enum {
  CALLS_ANY = -1,  /* any number (custom-call, async wrappers, ...) */
  CALLS_RULE = -2, /* checked by the rule (conditional) */
};

typedef struct RuleEntry {
  ShapeRule rule;
  signed char ncalled; /* 0, an exact count, CALLS_ANY or CALLS_RULE */
} RuleEntry;

#define R(op, fn) [OP_##op] = {fn, 0}
#define RC(op, fn, n) [OP_##op] = {fn, n}

static const RuleEntry rules[OP_COUNT] = {
    /* elementwise unary */
    R(ABS, infer_unary), R(ACOS, infer_unary), R(ACOSH, infer_unary), R(ASIN, infer_unary),
    R(ASINH, infer_unary), R(ATAN, infer_unary), R(ATANH, infer_unary), R(CBRT, infer_unary),
    R(CEIL, infer_unary), R(CLZ, infer_unary), R(COS, infer_unary), R(COSH, infer_unary),
    R(ERF, infer_unary), R(EXP, infer_unary), R(EXPM1, infer_unary), R(FLOOR, infer_unary),
    R(IMAG, infer_unary), R(IS_FINITE, infer_unary), R(LOG, infer_unary),
    R(LOG1P, infer_unary), R(LOGISTIC, infer_unary), R(NEGATE, infer_unary),
    R(NOT, infer_unary), R(POPCNT, infer_unary), R(REAL, infer_unary),
    R(ROUND_NEAREST_AFZ, infer_unary), R(ROUND_NEAREST_EVEN, infer_unary),
    R(RSQRT, infer_unary), R(SIGN, infer_unary), R(SIN, infer_unary), R(SINH, infer_unary),
    R(SQRT, infer_unary), R(TAN, infer_unary), R(TANH, infer_unary),
    /* elementwise binary and ternary */
    R(ADD, infer_binary), R(AND, infer_binary), R(ATAN2, infer_binary),
    R(COMPLEX, infer_binary), R(DIVIDE, infer_binary), R(MAXIMUM, infer_binary),
    R(MINIMUM, infer_binary), R(MULHI, infer_binary), R(MULTIPLY, infer_binary),
    R(OR, infer_binary), R(POWER, infer_binary), R(REMAINDER, infer_binary),
    R(SHIFT_LEFT, infer_binary), R(SHIFT_RIGHT_ARITHMETIC, infer_binary),
    R(SHIFT_RIGHT_LOGICAL, infer_binary), R(SUBTRACT, infer_binary), R(XOR, infer_binary),
    R(COMPARE, infer_compare), R(SELECT, infer_select), R(CLAMP, infer_clamp),
    R(CONVERT, infer_convert), R(BITCAST_CONVERT, infer_bitcast_convert),
    R(STOCHASTIC_CONVERT, infer_stochastic_convert),
    R(REDUCE_PRECISION, infer_reduce_precision),
    /* data movement */
    R(BROADCAST, infer_broadcast), R(RESHAPE, infer_reshape),
    R(DYNAMIC_RESHAPE, infer_dynamic_reshape), R(TRANSPOSE, infer_transpose),
    R(SLICE, infer_slice), R(CONCATENATE, infer_concatenate), R(PAD, infer_pad),
    R(REVERSE, infer_reverse), R(IOTA, infer_iota), R(DYNAMIC_SLICE, infer_dynamic_slice),
    R(DYNAMIC_UPDATE_SLICE, infer_dynamic_update_slice), R(BITCAST, infer_bitcast),
    R(COPY, infer_same_as_operand), R(DOMAIN, infer_same_as_operand),
    R(OPT_BARRIER, infer_same_as_operand), R(GET_DIMENSION_SIZE, infer_get_dimension_size),
    R(SET_DIMENSION_SIZE, infer_set_dimension_size),
    /* tuples, leaves, tokens */
    R(TUPLE, infer_tuple), R(GET_TUPLE_ELEMENT, infer_get_tuple_element),
    R(CONSTANT, infer_constant), R(PARAMETER, infer_parameter),
    R(AFTER_ALL, infer_after_all), R(ADD_DEPENDENCY, infer_add_dependency),
    /* contractions, indexing, reductions */
    R(DOT, infer_dot), R(CONVOLUTION, infer_convolution), R(GATHER, infer_gather),
    RC(SCATTER, infer_scatter, 1), RC(REDUCE, infer_reduce, 1),
    RC(REDUCE_WINDOW, infer_reduce_window, 1),
    RC(SELECT_AND_SCATTER, infer_select_and_scatter, 2), RC(SORT, infer_sort, 1),
    R(TOPK, infer_topk),
    /* control flow */
    RC(CALL, infer_call, 1), RC(FUSION, infer_fusion, 1), RC(MAP, infer_map, 1),
    RC(WHILE, infer_while, 2), RC(CONDITIONAL, infer_conditional, CALLS_RULE),
    /* linear algebra, fft */
    R(FFT, infer_fft), R(CHOLESKY, infer_cholesky), R(TRIANGULAR_SOLVE, infer_triangular_solve),
    R(BATCH_NORM_TRAINING, infer_batch_norm_training),
    R(BATCH_NORM_INFERENCE, infer_batch_norm_inference),
    R(BATCH_NORM_GRAD, infer_batch_norm_grad),
    /* random numbers, ids */
    R(RNG, infer_rng), R(RNG_BIT_GENERATOR, infer_rng_bit_generator),
    R(RNG_GET_AND_UPDATE_STATE, infer_rng_get_and_update_state),
    R(REPLICA_ID, infer_u32_scalar), R(PARTITION_ID, infer_u32_scalar),
    /* collectives */
    RC(ALL_REDUCE, infer_all_reduce, 1), RC(ALL_REDUCE_START, infer_all_reduce, 1),
    R(ALL_REDUCE_DONE, infer_same_as_operand), R(ALL_GATHER, infer_all_gather),
    RC(REDUCE_SCATTER, infer_reduce_scatter, 1),
    R(COLLECTIVE_PERMUTE, infer_collective_permute),
    R(COLLECTIVE_BROADCAST, infer_collective_broadcast),
    /* declared shape accepted */
    RC(CUSTOM_CALL, infer_custom_call, CALLS_ANY), R(ALL_GATHER_START, infer_declared),
    R(ALL_GATHER_DONE, infer_declared), R(ALL_TO_ALL, infer_declared),
    R(RAGGED_ALL_TO_ALL, infer_declared), R(COLLECTIVE_PERMUTE_START, infer_declared),
    R(COLLECTIVE_PERMUTE_DONE, infer_declared), RC(COLLECTIVE_REDUCE, infer_declared, CALLS_ANY),
    RC(ASYNC_START, infer_declared, CALLS_ANY), RC(ASYNC_UPDATE, infer_declared, CALLS_ANY),
    RC(ASYNC_DONE, infer_declared, CALLS_ANY), R(COPY_START, infer_declared),
    R(COPY_DONE, infer_declared), R(INFEED, infer_declared), R(OUTFEED, infer_declared),
    R(SEND, infer_declared), R(SEND_DONE, infer_declared), R(RECV, infer_declared),
    R(RECV_DONE, infer_declared), R(RAGGED_DOT, infer_declared),
    R(SCALED_DOT, infer_declared), RC(SCAN, infer_declared, CALLS_ANY),
    R(SHUFFLE, infer_declared),
};

#undef R
#undef RC

cxla_status infer_shape(Arena *a, const Instr *in, Shape **out) {
  *out = NULL;
  if ((unsigned)in->op >= OP_COUNT || !rules[in->op].rule)
    return ERR(UNIMPLEMENTED, "no shape rule for opcode %d", (int)in->op);
  const OpInfo *info = op_info(in->op);
  if (info->arity >= 0 && in->noperands != info->arity)
    return verr("expected %d operand%s, got %d", info->arity, info->arity == 1 ? "" : "s",
                in->noperands);
  int nc = rules[in->op].ncalled;
  if (nc >= 0 && in->ncalled != nc)
    return verr("expected %d called computation%s, got %d", nc, nc == 1 ? "" : "s", in->ncalled);
  for (int i = 0; i < in->ncalled; i++)
    if (!in->called[i]) return verr("called computation %d is missing", i);
  return rules[in->op].rule(a, in, out);
}

bool infer_rule_is_declared(Opcode op) {
  return (unsigned)op < OP_COUNT &&
         (rules[op].rule == infer_declared || rules[op].rule == infer_custom_call);
}

bool infer_has_rule(Opcode op) { return (unsigned)op < OP_COUNT && rules[op].rule; }
