/* fusion_util.h: what the fusion passes (fusion.c, multi_output_fusion.c)
 * share: opcode classes (which ops are cheap, which may be fused), which
 * computations run as code (also used by layout_assignment.c), and the
 * mechanics of fused computations (creating one next to its caller, adding
 * and removing parameters, naming and kind).
 *
 * A fusion instruction F in computation P calls a fused computation FC:
 * FC's parameter i is F's operand i, FC's root is F's value. Everything
 * created here lives in the module arena (see ir.h); nothing needs freeing
 * except returned statuses. */
#ifndef CXLA_PASSES_FUSION_UTIL_H
#define CXLA_PASSES_FUSION_UTIL_H

#include "ir/ir.h"

/* Largest fused computation the passes build: instructions other than
 * parameters, and parameters. */
#define FUSION_MAX_INSTRS 64
#define FUSION_MAX_PARAMS 32

/* ---- opcode classes ---- */

/* Expensive to compute per element (transcendentals, float division, dot,
 * reduce, ...): never duplicated, never recomputed per use. Modelled on
 * XLA:CPU's CpuInstructionFusion::IsExpensive. */
bool fusion_is_expensive(const Instr *in);

/* Elementwise in the strict sense (one output element from the operands'
 * elements at the same index; no called computations). */
bool fusion_is_elementwise(const Instr *in);

/* May be computed inside a loop fusion (XLA's CanBeLoopFused plus copy):
 * elementwise, broadcast, reshape, transpose, slice, pad, concatenate, iota,
 * dynamic-slice, dynamic-update-slice, gather, reverse, bitcast, copy,
 * constants, single-output reduce. */
bool fusion_is_loop_fusible(const Instr *in);

/* dot or convolution: the heads of output fusions. */
static inline bool fusion_is_output_head(const Instr *in) {
  return in->op == OP_DOT || in->op == OP_CONVOLUTION;
}

/* The instruction takes part in control dependencies (has predecessors or
 * is one): the passes leave such instructions alone. */
bool fusion_in_control_dep(const Computation *c, const Instr *in);

/* ---- computations ---- */

/* Whether the passes may fuse inside c: the entry and computations that
 * are only called by call/while/conditional/async wrappers. Fused
 * computations and applied ones (reducers, comparators, scatter combiners,
 * map bodies) are left alone. */
bool fusion_is_context(const HloModule *m, const Computation *c);

/* Number of instructions of m that call c. */
int fusion_caller_count(const HloModule *m, const Computation *c);

/* A new empty computation named `name` (made unique), marked is_fusion and
 * placed just before `caller` in m->comps (callees come before callers).
 * NULL on OOM. */
Computation *fusion_new_computation(HloModule *m, const Computation *caller, const char *name);

/* Appends a parameter of shape `s` (cloned) to fc, numbered fc->nparams.
 * Its name is a placeholder until fusion_finish names it. NULL on OOM. */
Instr *fusion_add_param(Computation *fc, const Shape *s);

/* Removes parameter number i from fc (it must have no users left) and
 * renumbers the later ones; removes operand i of fusion f to match. */
void fusion_remove_param(Instr *f, Computation *fc, int i);

/* Inserts operand x into fusion f at position pos (-1: at the end), with a
 * matching parameter in its computation (later ones renumbered); returns
 * that parameter, NULL on OOM. */
Instr *fusion_insert_operand(Instr *f, Instr *x, int pos);

/* Index of x among f's operands, or -1. */
int fusion_operand_index(const Instr *f, const Instr *x);

/* Removes in from c's instruction list (it must have no users) and
 * renumbers. */
void fusion_drop_instr(Computation *c, Instr *in);

/* The first N >= from for which neither instruction fusion.N (in c) nor
 * computation fused_computation.N (in m) exists. */
int fusion_fresh_tag(const HloModule *m, const Computation *c, int from);

/* A name for a new instruction in c: `base` if unused there, else base.N. */
const char *fusion_unique_name(Computation *c, const char *base);

/* The kind a fused computation deserves: kOutput if it contains a dot or
 * convolution, kInput if it contains a reduce (a reduction with its
 * elementwise producers, and possibly a reshape or elementwise epilogue),
 * kLoop otherwise. */
FusionKind fusion_kind_of(const Computation *fc);

/* Non-parameter instructions of fc. */
static inline int fusion_size(const Computation *fc) { return fc->ninstrs - fc->nparams; }

/* Names fc's parameters param_<i>.<tag> (XLA's spelling), keeping names
 * unique inside fc, and restores its post order. */
cxla_status fusion_finish(Computation *fc, const char *tag);

#endif
