/* verify.h: cxla's HLO verifier.
 *
 * Two layers:
 *
 *  - infer_shape(): the shape XLA's rules give one instruction, computed from
 *    its operands' shapes, its typed attributes and (for ops that call
 *    computations) its callees' signatures. Every rule also range-checks the
 *    attributes it reads (dimension numbers, tuple indices, window sizes,
 *    ...), so an instruction whose shape infers cleanly is safe for the
 *    interpreter to index with. One rule per opcode, found by table lookup
 *    (shape_inference.c); the rules live in one file per op family.
 *
 *  - verify_module() (cxla_module_verify() in the public API): structural
 *    checks over the whole module (roots, parameter numbering, operand
 *    order, callee counts and signatures, the entry computation layout),
 *    then infer_shape() on every instruction, comparing the inferred shape
 *    with the declared one.
 *
 * Where part of a result is free in HLO (convert's new element type,
 * reshape's and broadcast's dims, iota's shape, dot's and convolution's
 * preferred element type, custom-call and collective results, parameters),
 * inference checks the constraints and takes the free part from the declared
 * shape in->shape. Comparison of inferred and declared shapes looks at
 * element types and dims only: layouts are ignored (the verifier checks them
 * separately to be valid permutations) and bounded-dynamic flags tolerated.
 *
 * Preconditions of infer_shape: in, its operands and their shapes are
 * non-NULL and the operand shapes are valid (verify_module checks operands
 * before their users). Everything else is checked: bad attributes give an
 * INVALID_ARGUMENT status, never an out-of-bounds read.
 *
 * Ownership: infer_shape allocates *out (and any message scratch) from the
 * caller's arena `a`; *out never aliases in->shape. Error statuses belong to
 * the caller. Neither function modifies the module. */
#ifndef CXLA_VERIFY_H
#define CXLA_VERIFY_H

#include "ir/ir.h"

/* Infers in's shape into *out (NULL on error). Messages describe the
 * problem without naming the instruction ("operand 1 has type s32, expected
 * f32"); verify_module prefixes the instruction and computation. */
cxla_status infer_shape(Arena *a, const Instr *in, Shape **out);

/* Whether op has a shape rule at all, and whether that rule only accepts
 * the declared shape (custom-call, async and send/recv ops, ...). */
bool infer_has_rule(Opcode op);
bool infer_rule_is_declared(Opcode op);

/* Structural checks and shape inference over the whole module. Errors read
 * "verify: computation %c, instruction %i (op): <problem>". */
cxla_status verify_module(const HloModule *m);

#endif
