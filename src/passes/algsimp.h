/* algsimp.h: internals of the algebraic simplifier (one pass, several files).
 *
 *   algsimp.c         the pass: the walk, rule dispatch by opcode, helpers
 *                     to read constants and build instructions
 *   algsimp_arith.c   elementwise rules: add, subtract, multiply, divide,
 *                     negate, not, abs, max/min, and/or/xor, shifts, power,
 *                     compare, select, convert, constant canonicalisation
 *   algsimp_shapes.c  data movement: reshape, transpose, broadcast, slice,
 *                     pad, concatenate, reverse, copy, bitcast,
 *                     dynamic-slice, dynamic-update-slice
 *   algsimp_reduce.c  reduce and dot (transposes folded; a transpose of a
 *                     dot becomes the dot of the swapped operands)
 *   algsimp_dot.c     dot strength reduction (vector dots, outer products);
 *                     a zero pad of a convolution's input into its window
 *   algsimp_gather.c  gathers of the whole operand or of one index
 *
 * Every rule is exact in IEEE arithmetic: the rewritten instruction
 * computes bit-identical values (signed zeros, infinities, integer
 * wrap-around included; a NaN stays a NaN, its sign and payload being
 * unspecified). One caveat, shared with XLA, which applies the same rules:
 * under XLA:CPU's flush-to-zero (modelled by the interpreter), removing an
 * arithmetic op (x*1 -> x, f32->f64->f32 -> x) keeps a subnormal x that the
 * op would have flushed to zero. One deliberate exception, XLA's own:
 * a float x / C (C constant) becomes x * (1 / C) (algsimp_arith.c), which
 * rounds differently in the last place; XLA:CPU computes that, so cxla
 * does too. Rules receive
 * an instruction whose operands are already simplified and return through
 * *out as RewriteFn does (passes.h): NULL, or the replacement, which must
 * have the instruction's exact shape (layout included).
 *
 * New instructions come from the module arena (fresh names); new constant
 * literals are owned by the module. */
#ifndef CXLA_ALGSIMP_H
#define CXLA_ALGSIMP_H

#include "passes/passes.h"

typedef struct Simp {
  HloModule *m;
  Computation *c;
  bool exact; /* PassContext.exact: no rule that rounds differently */
  /* uses[id]: operand slots (and the root) reading instruction id of c
   * when the walk began, for ids below nuses (c->instrs[id] the
   * instruction); NULL: unknown. Stale once rules add uses: a rule may
   * rely on it only for speed, never for correctness. */
  const int *uses;
  int nuses;
} Simp;

/* Whether `in` had exactly one use when the walk began. */
bool simp_single_use(const Simp *s, const Instr *in);

/* Rule families (one per file). */
cxla_status algsimp_arith(Simp *s, Instr *in, Instr **out);
cxla_status algsimp_shapes(Simp *s, Instr *in, Instr **out);
cxla_status algsimp_reduce(Simp *s, Instr *in, Instr **out);
cxla_status algsimp_dot(Simp *s, Instr *in, Instr **out);
cxla_status algsimp_gather(Simp *s, Instr *in, Instr **out);
cxla_status algsimp_conv(Simp *s, Instr *in, Instr **out);

/* ---- reading constants ---- */

/* The literal whose element 0 is the value of every element of in: in is
 * a constant with all elements bitwise equal, or a broadcast of one. NULL
 * otherwise (also for elided constants and empty arrays). */
const Literal *as_uniform(const Instr *in);
/* in is an integer or pred array all of whose elements equal v. */
bool is_int_value(const Instr *in, int64_t v);
/* in is a real float array (f16, bf16, f32, f64, f8...) all of whose
 * elements equal v; for v == 0, `negzero` says which zero (-0 or +0). */
bool is_float_value(const Instr *in, double v, bool negzero);
/* 1 for ints and real floats (not complex, not pred). */
bool is_one(const Instr *in);
/* The uniform pred/int value as a boolean; false if not uniform. */
bool uniform_bool(const Instr *in, bool *v);

/* Integer bounds of type t as literal_get_i64 reads them (pred: 0/1). */
int64_t simp_all_ones(ElemType t);
int64_t simp_int_min(ElemType t);
int64_t simp_int_max(ElemType t);

/* ---- building instructions ---- */

/* A new instruction in s->c with a copy of `shape`. NULL on OOM. */
Instr *simp_new(Simp *s, Opcode op, const Shape *shape, int nops, Instr *const *ops);
/* A scalar constant of type t (value f for floats, i for ints/pred). */
Instr *simp_scalar(Simp *s, ElemType t, double f, int64_t i);
/* An array of `like`'s shape (layout kept) filled with one value:
 * broadcast(scalar constant), or the scalar itself for rank 0. */
Instr *simp_filled(Simp *s, const Shape *like, double f, int64_t i);
/* A shape with new dims and in's element type, a default layout when
 * `like` has a layout. */
Shape *simp_shape(Simp *s, const Shape *like, int rank, const int64_t *dims);
/* Arena copy of an int64 list. ok is cleared on OOM. */
I64List simp_list(Simp *s, const int64_t *v, int n, bool *ok);
/* The layout of `shape` is the default (row-major) one, or absent. */
bool simp_default_layout(const Shape *shape);

/* Recognises a binary reducer computation: root = op(p0, p1) (or p1, p0
 * for commutative ops) on scalars. OP_COUNT if it is anything else. */
Opcode simp_reducer_op(const Computation *c);

#endif
