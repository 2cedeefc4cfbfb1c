/* expander_util.h: small instruction builders shared by the passes that
 * build instructions (the expanders, float normalization, the while-loop
 * simplifier, the top-k rewriter).
 *
 * Every builder appends one instruction to computation c (comp_add_instr),
 * with its shape and attributes filled in, and returns it; NULL means out
 * of memory. Shapes and attribute arrays come from the module arena;
 * constants' literals are owned by the module. */
#ifndef CXLA_EXPANDER_UTIL_H
#define CXLA_EXPANDER_UTIL_H

#include "ir/ir.h"

/* A scalar constant of type t holding v (rounded to t). */
Instr *eu_scalar(Computation *c, ElemType t, double v);
/* broadcast(x) to dims `to` (type of x), operand dim i -> result dim map[i]. */
Instr *eu_broadcast(Computation *c, Instr *x, int rank, const int64_t *to, int nmap,
                    const int64_t *map);
/* A scalar broadcast to like's dims, or the scalar itself when like is a
 * scalar (XLA's MakeScalarLike). */
Instr *eu_scalar_like(Computation *c, const Instr *like, double v);
/* get-tuple-element(t), index=i. */
Instr *eu_gte(Computation *c, Instr *t, int64_t i);
/* transpose(x), dimensions=perm (rank of x entries). */
Instr *eu_transpose(Computation *c, Instr *x, const int64_t *perm);
/* Elementwise ops; the result has a's shape. */
Instr *eu_unary(Computation *c, Opcode op, Instr *a);
Instr *eu_binary(Computation *c, Opcode op, Instr *a, Instr *b);
/* reduce(x, init) over dims with the scalar add computation of x's type;
 * the result keeps x's other dims. */
Instr *eu_reduce_add(Computation *c, Instr *x, Instr *init, int ndims, const int64_t *dims);
/* The module's scalar add computation for type t ("scalar_add_computation"
 * + type), created first in the module's list when absent. */
Computation *eu_scalar_add(HloModule *m, ElemType t);

#endif
