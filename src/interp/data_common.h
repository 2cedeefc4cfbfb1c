/* data_common.h: helpers shared by the data-movement evaluators of the
 * reference interpreter (shape_ops.c, reduce.c, sort.c, gather.c).
 *
 *  - multi-index iteration and strided element copies (byte-wise by
 *    type_bytes, so every element type works);
 *  - reading integer index values (dynamic-slice starts, gather indices);
 *  - scalar arithmetic on raw element bytes for the fast paths of reducers
 *    and scatter combiners recognised by scalar_fn_of (the elementwise
 *    evaluator's own kernels, ew_scalar.h, so both paths agree);
 *  - comparisons (compare's semantics, and total order) for the sort,
 *    select and topk fast paths;
 *  - ScalarCall: calling a scalar computation (reducer, comparator,
 *    combiner) with reusable argument literals: as a straight-line
 *    program of elementwise ops on single elements where it is one, else
 *    through interp_call.
 *
 * Nothing here allocates except ScalarCall (which owns its argument literals
 * and its straight-line program until scall_free). */
#ifndef CXLA_INTERP_DATA_COMMON_H
#define CXLA_INTERP_DATA_COMMON_H

#include "interp/interp.h"

/* The evaluators keep multi-indices on the stack; ranks beyond this are
 * refused with UNIMPLEMENTED (XLA programs stay far below it). */
#define DATA_MAX_RANK 64

/* Advances idx (row-major: last dimension fastest) within dims; returns
 * false after the last index (idx is then all zeros again). */
static inline bool idx_next(int rank, const int64_t *dims, int64_t *idx) {
  for (int d = rank - 1; d >= 0; d--) {
    if (++idx[d] < dims[d]) return true;
    idx[d] = 0;
  }
  return false;
}

/* Copies the block of elements with extent dims: for every index i,
 * dst[sum i*dstride] = src[sum i*sstride] (strides in elements, may be 0 or
 * negative; dst/src point at the block's first element). */
void strided_copy(int rank, const int64_t *dims, char *dst, const int64_t *dstride,
                  const char *src, const int64_t *sstride, int esize);

/* Writes n copies of the element at val to dst. */
void fill_elems(char *dst, int64_t n, const void *val, int esize);

/* An integer index element as int64; unsigned values above INT64_MAX
 * saturate to INT64_MAX (they are out of range either way). */
int64_t index_value(const Literal *l, int64_t i);

/* Checks that a rank fits DATA_MAX_RANK. */
cxla_status check_rank(const Instr *in, int rank);

/* Checks that an operand value is an array of the rank/type its instruction
 * expects (guards against malformed IR reaching the evaluators). */
cxla_status check_array(const Instr *in, const Literal *l, const char *what);

/* ---- scalar arithmetic ---------------------------------------------------- */

/* True if binop_apply can run op on elements of type t (the binary ops the
 * elementwise evaluator defines on t). */
bool binop_supported(Opcode op, ElemType t);
/* out = op(a, b) on one element of type t (out may alias a or b), with
 * exactly the semantics of the elementwise op (ew_scalar_binary: maximum/
 * minimum are IEEE 754-2019's, integers wrap, XLA:CPU's FTZ/DAZ). */
void binop_apply(Opcode op, ElemType t, void *out, const void *a, const void *b);

/* Three-way comparison in XLA's total order (floats: -NaN < -Inf < ... <
 * -0 < +0 < ... < +Inf < +NaN, on the stored values; integers by value;
 * complex lexicographic). */
int elem_total_cmp(ElemType t, const void *a, const void *b);
/* The result of `compare(a, b), direction=dir, type=ct` on one element, as
 * the elementwise compare computes it. */
bool elem_compare(CmpDir dir, CmpType ct, ElemType t, const void *a, const void *b);

/* A computation whose root is compare(parameter(p), parameter(q)) with
 * scalar parameters: the comparison a fast path can run directly. */
typedef struct CompareFn {
  bool ok;
  int64_t lhs_param, rhs_param;
  CmpDir dir;
  CmpType type;
} CompareFn;
CompareFn compare_fn_of(const Computation *c);

/* ---- calling scalar computations ------------------------------------------ */

typedef struct ScalarCall {
  Interp *ip;
  const Instr *in; /* for error messages */
  const Computation *comp;
  int nargs;
  Literal **args; /* nargs scalar literals, owned */
  /* A computation of scalar parameters, constants and elementwise ops
   * (a reducer, a comparator) runs as a straight-line program: its live
   * instructions in post order, each op on one element per operand
   * (ew_scalar_eval, the array ops' own semantics) into its slot of
   * SCALL_SLOT bytes; nprog 0 where it is anything else (interp_call).
   * slots and ops are owned. */
  int nprog;
  const Instr **prog;
  unsigned char *slots;   /* comp->ninstrs slots, constants filled */
  const void **ops;       /* per program step, 3 operand pointers */
  int nlive;              /* instructions a call evaluates */
  uint64_t work;          /* and their work (interp_charge) */
} ScalarCall;
#define SCALL_SLOT 16

/* Prepares calls of comp with nargs scalar arguments of the given types. */
cxla_status scall_init(ScalarCall *sc, Interp *ip, const Instr *in, const Computation *comp,
                       int nargs, const ElemType *arg_types);
/* The storage of argument i (write the element's bytes there). */
static inline void *scall_arg(ScalarCall *sc, int i) { return sc->args[i]->data; }
/* Runs the computation; its result must be nres scalars (a tuple of them, or
 * one array when nres == 1) of the types res_types; their bytes are copied to
 * outs[i]. */
cxla_status scall_run(ScalarCall *sc, int nres, const ElemType *res_types, void *const *outs);
/* Runs a computation returning a pred scalar (comparators, select). */
cxla_status scall_run_pred(ScalarCall *sc, bool *out);
void scall_free(ScalarCall *sc);

#endif
