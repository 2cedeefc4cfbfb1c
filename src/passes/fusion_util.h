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

#include "base/base.h"
#include "ir/ir.h"

/* Largest fused computation the passes build: instructions other than
 * parameters, and parameters. */
#define FUSION_MAX_INSTRS 512
#define FUSION_MAX_PARAMS 32
/* Largest code weight of a fused computation (fusion_code_weight): the
 * CPU backend emits one loop body for a kernel, and LLVM's time on a body
 * grows faster than its size (its scheduler is quadratic in a basic
 * block: a chain of 300 f32 sines in one kernel took 74 s). 512 is about
 * 20 sines or 40 tanh, whose kernels compile in under half a second;
 * cheap ops weigh 1, so FUSION_MAX_INSTRS binds first for them. */
#define FUSION_MAX_WEIGHT 512
/* Most evaluations of one fused instruction an elemental emitter may make
 * (XLA's kAllowedCodeDuplication), and the indexing users tracked per
 * instruction to count them. */
#define FUSION_MAX_EVALUATIONS 15
#define FUSION_INDEXING_CAP 16
/* Most fusions one instruction is fused into (copied into all but the
 * last) when it is not free to copy: a bound on duplicated code. XLA has
 * none, and copies of copies make a chain of N values each read by one
 * more kernel (a reduce per step) fuse into O(N^2) instructions. */
#define FUSION_MAX_COPIES 12
/* Input elements from which a reduce whose results its consumer reduces
 * further stays a kernel of its own (fusion.c: reduces_further). */
#define FUSION_MIN_SPLIT_REDUCE 4096

/* ---- opcode classes ---- */

/* Expensive to compute per element (transcendentals, float division, dot,
 * reduce, ...): never duplicated, never recomputed per use. Modelled on
 * XLA:CPU's CpuInstructionFusion::IsExpensive. */
bool fusion_is_expensive(const Instr *in);
/* How much code the CPU backend's elemental emitter makes for `in`, in
 * units of a cheap elementwise op: 24 for f32/f64 sine, cosine and
 * tangent (range reductions, polynomials and their speculative passes),
 * 12 for the other transcendental functions, 1 otherwise; and for a
 * fusion, the sum over its fused computation. */
int fusion_code_weight(const Instr *in);

/* Elementwise in the strict sense (one output element from the operands'
 * elements at the same index; no called computations). */
bool fusion_is_elementwise(const Instr *in);

/* May be computed inside a loop fusion (XLA's CanBeLoopFused plus copy):
 * elementwise, broadcast, reshape, transpose, slice, pad, concatenate, iota,
 * dynamic-slice, dynamic-update-slice, gather, reverse, bitcast, copy,
 * constants, reduce (single-output, or variadic with a tuple of arrays:
 * it can only be the root of a fusion, its users read elements of it). */
bool fusion_is_loop_fusible(const Instr *in);

/* dot or convolution: the heads of output fusions. */
static inline bool fusion_is_output_head(const Instr *in) {
  return in->op == OP_DOT || in->op == OP_CONVOLUTION;
}


/* ---- computations ---- */

/* Whether the passes may fuse inside a computation ("a context"): the entry
 * and computations that are only called by call/while/conditional. Fused
 * computations and applied ones (reducers, comparators, scatter combiners,
 * map bodies) are left alone. The passes leave instructions that take part
 * in control dependencies (fusion_control_flags) alone too. */

/* Whether each computation of m is a context, all at once: flags[i] for
 * m->comps[i]. One walk over the module. */
cxla_status fusion_context_flags(const HloModule *m, bool *flags);

/* ---- a fusion pass's view of the module ----
 *
 * Built once per pass so that no decision scans the module: computation
 * names (for fresh names), the number of callers of every computation, and
 * the fused computations the pass creates, which fusion_ctx_finish places
 * just before their caller in m->comps (callees come before callers), in
 * creation order. While the pass runs, Computation.scratch belongs to the
 * context. */
typedef struct FusionCtx {
  HloModule *m;
  NameMap comp_names;   /* name -> live computation */
  int ninfo, cap;
  struct FusionCompInfo *info; /* per computation; Computation.scratch = index + 1 */
  int free_tag;         /* every N below it has fusion.N or fused_computation.N in use
                           (a hint kept by the multi-output pass; see fusion_ctx_fresh_tag) */
  bool reorder;         /* computations were added or removed */
  bool contract;        /* new fused computations' Computation.contract (not in exact mode) */
} FusionCtx;

cxla_status fusion_ctx_init(FusionCtx *x, HloModule *m);
/* Puts new computations in place, drops removed ones, frees the context. */
cxla_status fusion_ctx_finish(FusionCtx *x);
/* Frees the context without touching the module's computation list (on
 * error paths: the module is then only good for destroying). */
void fusion_ctx_free(FusionCtx *x);
/* Whether c is a context computation (as computed at fusion_ctx_init). */
bool fusion_ctx_is_context(const FusionCtx *x, const Computation *c);
/* Number of instructions that call c. */
int fusion_ctx_callers(const FusionCtx *x, const Computation *c);
/* A new empty computation named `name` (made unique), marked is_fusion,
 * with one caller, to be placed just before `caller`. NULL on OOM. */
Computation *fusion_ctx_new_computation(FusionCtx *x, const Computation *caller,
                                        const char *name);
/* Renames fused computation fc (kept, with its caller and place) to
 * `name`, made unique as by fusion_ctx_new_computation; its old name
 * becomes free. NULL status, or OOM. */
cxla_status fusion_ctx_rename_computation(FusionCtx *x, Computation *fc, const char *name);
/* Records that a name fusion.N or fused_computation.N became free (the
 * multi-output pass looks for the lowest free N from free_tag on). */
void fusion_ctx_note_free_name(FusionCtx *x, const char *name);
/* Removes fused computation fc (its only caller is gone) from the module. */
void fusion_ctx_remove_computation(FusionCtx *x, Computation *fc);
/* Whether a computation named `name` exists. */
bool fusion_ctx_has_computation(const FusionCtx *x, const char *name);

/* Appends a parameter of shape `s` (cloned) to fc, numbered fc->nparams.
 * Its name is a placeholder until fusion_finish names it. NULL on OOM. */
Instr *fusion_add_param(Computation *fc, const Shape *s);

/* Removes parameter number i from fc (it must have no users left) and
 * renumbers the later ones; removes operand i of fusion f to match. */
void fusion_remove_param(Instr *f, Computation *fc, int i);

/* The list part of fusion_remove_param: drops parameter i from fc's
 * parameter list (renumbering the rest) and operand i from f, leaving
 * fc's instruction list to the caller. */
void fusion_unlist_param(Instr *f, Computation *fc, int i);

/* Inserts operand x into fusion f at position pos (-1: at the end), with a
 * matching parameter in its computation (later ones renumbered); returns
 * that parameter, NULL on OOM. */
Instr *fusion_insert_operand(Instr *f, Instr *x, int pos);

/* Index of x among f's operands, or -1. */
int fusion_operand_index(const Instr *f, const Instr *x);

/* Rewrites the first `want` slots of wide user `in` that read `from` to
 * read `to`, looking outward from slot *near (the one rewritten last,
 * updated); returns how many it rewrote (all of them when fewer than
 * `want`). A root tuple of T operands whose producers are replaced one by
 * one, in order or in reverse, then costs T in all rather than T^2 (a
 * scan of every operand per producer). */
int fusion_replace_near(Instr *in, const Instr *from, Instr *to, int want, int *near);

/* Removes in from c's instruction list (it must have no users) and
 * renumbers. */
void fusion_drop_instr(Computation *c, Instr *in);

/* The first N >= from for which neither instruction fusion.N (in c, whose
 * names `names` maps) nor computation fused_computation.N exists. */
int fusion_fresh_tag(const FusionCtx *x, const NameMap *names, int from);

/* A name for a new instruction in c: `base` if unused there, else base.N,
 * with c's names in `names` (kept up to date by the caller). */
const char *fusion_unique_name_in(Computation *c, const NameMap *names, const char *base);

/* Marks control dependencies: flags[id] (for c->instrs[id]) is set when the
 * instruction has control predecessors or is one. One walk over c. */
cxla_status fusion_control_flags(const Computation *c, unsigned char **out);

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
