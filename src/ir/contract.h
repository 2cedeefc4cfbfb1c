/* contract.h: where a multiply and an add run as one fused multiply-add.
 *
 * XLA:CPU compiles with LLVM's floating-point contraction allowed (its
 * target options always allow FMA fusion), so in a fused loop an f32 or
 * f64 add or subtract whose operand is a multiply nothing else reads runs
 * as one FMA, rounding once. Mostly that moves a result by an ulp; before
 * a ceil or a compare it can move a whole step: TensorFlow's bilinear
 * resize computes ceil((i + 0.5) * 0.333333343 - 1.5), which is 0 for
 * i = 4 with two roundings and 1 with one, and reads other pixels. Both
 * backends follow the one rule below for the instructions of fused
 * computations that contract (Computation.contract: those the fusion
 * passes make, except in exact mode, and those read from text), so that
 * they agree with each other and with XLA:CPU; elsewhere (and with the
 * optimizer off: no fusions) every op rounds as HLO says. The rule sees
 * our fusion decisions; where XLA fuses otherwise, or LLVM transforms a
 * loop before it would contract (seen: one coordinate of a resize
 * rounding once, the other twice, in one XLA fusion), XLA's result can
 * still differ.
 *
 * The rule is LLVM's (its DAG combiner with fusion allowed, not
 * aggressive), for a multiply m of the instruction's own type that this
 * instruction reads once and nothing else reads (nor is it the root):
 *   add(m(a, b), c), add(c, m(a, b))  ->  fma(a, b, c)
 *   subtract(m(a, b), c)              ->  fma(a, b, -c)
 *   subtract(c, m(a, b))              ->  fma(-a, b, c)
 * and where both operands qualify, operand 0 is the one fused. */
#ifndef CXLA_CONTRACT_H
#define CXLA_CONTRACT_H

#include "ir/ir.h"

/* One entry per instruction of c (by id; ids current): the operand (0 or
 * 1) holding the multiply fused into it, or -1. All -1 unless c contracts
 * (Computation.contract). *out is the caller's (cxla_free). Linear in c. */
cxla_status comp_fma_plan(const Computation *c, signed char **out);

#endif
