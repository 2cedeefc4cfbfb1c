/* interp.h: the reference interpreter, cxla's executable definition of what
 * each HLO op means. It must agree with XLA bit for bit where XLA is exact.
 *
 * Values are Literals (ir.h): logical row-major arrays or tuples. Every
 * evaluator borrows its operand literals and returns a fresh result literal
 * that the caller owns. Evaluators never print, abort or exit; errors are
 * statuses naming the instruction.
 *
 * One file per family of ops:
 *   interp.c       the driver: walks a computation in order, dispatches
 *                  by opcode, frees values when their last user ran
 *   elementwise.c  unary/binary/ternary elementwise ops, compare, convert,
 *                  bitcast-convert, reduce-precision, complex/real/imag, map
 *   shape_ops.c    constant, iota, broadcast, reshape, transpose, slice,
 *                  concatenate, pad, reverse, copy, bitcast, tuple,
 *                  get-tuple-element, dynamic-slice, dynamic-update-slice,
 *                  get/set-dimension-size
 *   reduce.c       reduce, reduce-window, select-and-scatter
 *   sort.c         sort, topk
 *   gather.c       gather, scatter
 *   dot.c          dot
 *   conv.c         convolution
 *   control.c      call, fusion, while, conditional, custom-call dispatch,
 *                  opt-barrier, after-all, add-dependency, collectives on one
 *                  replica (all-reduce, all-gather, ... as identities),
 *                  replica-id, partition-id, async wrappers
 *   rng.c          rng-bit-generator (threefry, philox), rng
 *   fft.c          fft
 *   linalg.c       cholesky, triangular-solve, and the LAPACK custom-call
 *                  targets XLA:CPU emits (lapack_*), batch-norm ops
 *   host_callback.c  custom-call "cxla_host_callback": a call out to the
 *                  embedding program (cxla_client_options.host_callback) */
#ifndef CXLA_INTERP_H
#define CXLA_INTERP_H

#include "cxla/runtime.h" /* cxla_host_callback_fn */
#include "ir/ir.h"

typedef struct Interp {
  const HloModule *module;
  int depth;            /* call depth, to refuse runaway recursion */
  uint64_t rng_state;   /* for the stateful `rng` op */
  /* Optional work budget, 0 = unlimited (cxla_interp_run's behaviour).
   * Every evaluated instruction (in any computation: loop bodies and
   * conditions, reducers, comparators, ...) charges 1 + the elements of its
   * array operands and of its array result to `work`; once work exceeds
   * budget, evaluation stops with RESOURCE_EXHAUSTED. This bounds while
   * loops that never terminate and runaway call trees, which no static check
   * can rule out. It does not bound the inner work of one op (a dot's
   * contraction, a window's size): callers that need that bound it from the
   * shapes before running. */
  uint64_t budget;
  uint64_t work;
  /* Optional cancellation and deadline (runtime/backend.h): checked before
   * every few instructions; a stop ends the evaluation with its status
   * (CANCELLED, DEADLINE_EXCEEDED). NULL: never stops. */
  const struct RtControl *control;
  uint32_t since_check; /* instructions since the last clock check */
  /* What custom-calls "cxla_host_callback" call (host_callback.c), and its
   * argument; NULL: such a call is FAILED_PRECONDITION. */
  cxla_host_callback_fn host_callback;
  void *host_callback_arg;
} Interp;

/* Evaluates computation c on args (borrowed; nargs must equal c->nparams)
 * and returns its root's value (owned by the caller). */
cxla_status interp_call(Interp *ip, const Computation *c, Literal *const *args,
                        int nargs, Literal **out);

/* cxla_interp_run with a work budget (see Interp.budget; 0 = unlimited):
 * same argument checks, same result ownership. */
cxla_status interp_run_budget(const HloModule *m, Literal *const *args, int nargs,
                              uint64_t budget, Literal **out);

/* Checks args against ip->module's entry parameters (count, shapes, no
 * elided constants in the module) and evaluates the entry on them. */
cxla_status interp_check_and_call(Interp *ip, Literal *const *args, int nargs,
                                  Literal **out_result);

/* An evaluator for one instruction: ops[i] is the value of in->operands[i]. */
typedef cxla_status (*EvalFn)(Interp *ip, const Instr *in, Literal *const *ops,
                              Literal **out);

/* The family entry points (one per file above). Each handles the opcodes its
 * file lists and returns UNIMPLEMENTED naming the op for anything else. */
cxla_status interp_elementwise(Interp *, const Instr *, Literal *const *, Literal **);
/* An add or subtract of a fused computation with its multiply operand k
 * fused in (ir/contract.h): a and b are the multiply's operands, c the
 * instruction's other operand; one rounding. */
cxla_status interp_fma(const Instr *in, int k, const Literal *a, const Literal *b, const Literal *c,
                       Literal **out);
cxla_status interp_shape_op(Interp *, const Instr *, Literal *const *, Literal **);
cxla_status interp_reduce(Interp *, const Instr *, Literal *const *, Literal **);
cxla_status interp_sort(Interp *, const Instr *, Literal *const *, Literal **);
cxla_status interp_gather(Interp *, const Instr *, Literal *const *, Literal **);
cxla_status interp_dot(Interp *, const Instr *, Literal *const *, Literal **);
cxla_status interp_conv(Interp *, const Instr *, Literal *const *, Literal **);
cxla_status interp_control(Interp *, const Instr *, Literal *const *, Literal **);
cxla_status interp_rng(Interp *, const Instr *, Literal *const *, Literal **);
cxla_status interp_fft(Interp *, const Instr *, Literal *const *, Literal **);
cxla_status interp_linalg(Interp *, const Instr *, Literal *const *, Literal **);
/* custom-call "cxla_host_callback" (host_callback.c) */
bool interp_is_host_callback(const Instr *in);
cxla_status interp_host_callback_check(const Instr *in);
cxla_status interp_host_callback(Interp *, const Instr *, Literal *const *, Literal **);

/* Charges `count` instruction evaluations of `work` in all (Interp.budget's
 * units) to ip's budget and checks its control every 64 evaluations, as
 * evaluating each instruction does; the error names `in`. For evaluators
 * that run a computation's instructions without interp_call (the scalar
 * calls' straight-line programs, data_common.c). */
cxla_status interp_charge(Interp *ip, const Instr *in, uint64_t work, int count);

/* Makes the error for an instruction: "<op> %name: message". */
cxla_status interp_error(const Instr *in, cxla_status_code code, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 3, 4)))
#endif
    ;

/* ---- helpers shared by the evaluators ---- */

/* Applies a binary scalar computation (reducer, scatter combiner, comparator
 * of two values) fast when it is a single elementwise op on its two
 * parameters; returns false if it is anything else (then use interp_call). */
typedef struct ScalarFn {
  Opcode op;       /* OP_ADD, OP_MAXIMUM, ...; OP_COUNT if not recognised */
  bool swapped;    /* root is op(p1, p0) */
} ScalarFn;
ScalarFn scalar_fn_of(const Computation *c);

/* Row-major strides of dims (strides[rank-1] = 1). */
void row_major_strides(int rank, const int64_t *dims, int64_t *strides);

#endif
