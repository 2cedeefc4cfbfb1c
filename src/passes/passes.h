/* passes.h: the entry point of every optimizer pass (one file each, see
 * pass.h for the PassFn contract) and the few helpers they share.
 *
 * One line per pass; the registry in pipeline.c names them. */
#ifndef CXLA_PASSES_H
#define CXLA_PASSES_H

#include "passes/pass.h"

cxla_status pass_dce(HloModule *m, const PassContext *ctx, bool *changed);
cxla_status pass_cse(HloModule *m, const PassContext *ctx, bool *changed);
cxla_status pass_call_inliner(HloModule *m, const PassContext *ctx, bool *changed);
/* dynamic_padder.c in the form the pipeline runs: dynamic results handed
 * out through SliceToDynamic custom calls at the root, as XLA's optimized
 * HLO does (the runtime runs dynamic_padder_run before the pipeline). */
cxla_status pass_dynamic_padder(HloModule *m, const PassContext *ctx, bool *changed);
cxla_status pass_tuple_simplify(HloModule *m, const PassContext *ctx, bool *changed);
cxla_status pass_flatten_call_graph(HloModule *m, const PassContext *ctx, bool *changed);
cxla_status pass_constant_folding(HloModule *m, const PassContext *ctx, bool *changed);
/* Constant folding's evaluator: runs `in` alone in the reference interpreter
 * on its operands' literals (every operand a constant). *value (owned by the
 * caller) is NULL when the interpreter cannot run it; only resource
 * exhaustion is an error. */
cxla_status pass_evaluate_instr(HloModule *m, const Instr *in, Literal **value);
/* The value of `in` when every operand is a constant of known value and the
 * interpreter gives a literal of in's shape; else *value is NULL. */
cxla_status pass_fold_constant_operands(HloModule *m, const Instr *in, Literal **value);
cxla_status pass_algsimp(HloModule *m, const PassContext *ctx, bool *changed);
cxla_status pass_layout_assignment(HloModule *m, const PassContext *ctx, bool *changed);
cxla_status pass_fusion(HloModule *m, const PassContext *ctx, bool *changed);
cxla_status pass_multi_output_fusion(HloModule *m, const PassContext *ctx, bool *changed);
cxla_status pass_while_loop_simplify(HloModule *m, const PassContext *ctx, bool *changed);
cxla_status pass_batchnorm_expander(HloModule *m, const PassContext *ctx, bool *changed);
cxla_status pass_logistic_expander(HloModule *m, const PassContext *ctx, bool *changed);
cxla_status pass_qr_expander(HloModule *m, const PassContext *ctx, bool *changed);
cxla_status pass_buffer_assignment(HloModule *m, const PassContext *ctx, bool *changed);
cxla_status pass_dot_canonicalize(HloModule *m, const PassContext *ctx, bool *changed);
cxla_status pass_reduce_window_rewriter(HloModule *m, const PassContext *ctx, bool *changed);
cxla_status pass_zero_sized_elimination(HloModule *m, const PassContext *ctx, bool *changed);
cxla_status pass_conditional_simplifier(HloModule *m, const PassContext *ctx, bool *changed);
cxla_status pass_while_loop_constant_sinking(HloModule *m, const PassContext *ctx,
                                             bool *changed);
cxla_status pass_sort_simplifier(HloModule *m, const PassContext *ctx, bool *changed);
cxla_status pass_topk_rewriter(HloModule *m, const PassContext *ctx, bool *changed);
cxla_status pass_reshape_mover(HloModule *m, const PassContext *ctx, bool *changed);
cxla_status pass_float_normalization(HloModule *m, const PassContext *ctx, bool *changed);
cxla_status pass_reshape_to_bitcast(HloModule *m, const PassContext *ctx, bool *changed);
cxla_status pass_opt_barrier_expander(HloModule *m, const PassContext *ctx, bool *changed);
cxla_status pass_reduce_splitter(HloModule *m, const PassContext *ctx, bool *changed);
cxla_status pass_slice_views(HloModule *m, const PassContext *ctx, bool *changed);

/* Whether a dot operand of shape s with these batch and contracting
 * dimensions is in dot-canonicalize's canonical form (one contracting
 * dimension, at most one free one, batch dimensions first). Rewrites that
 * run after dot-canonicalize keep canonical operands canonical, so that the
 * pipeline reaches a fixed point. */
bool dot_operand_canonical(const Shape *s, const I64List *batch, const I64List *contract);

/* Like pipeline_run with names, but with the passes given directly (tests
 * run passes of their own through it, e.g. one that breaks the module). */
cxla_status pipeline_run_list(HloModule *m, const Pass *const *passes, int n,
                              const PipelineOptions *opts);

/* ---- helpers shared by the passes (pass_util.c) ---- */

/* Default PassContext.fold_limit_bytes: constants up to 1 MiB may be made
 * by folding. */
#define PASS_DEFAULT_FOLD_LIMIT ((int64_t)1 << 20)

/* Replaces `call` (a call instruction of c) by a copy of its callee's
 * instructions (call_inliner.c); the caller re-sorts and prunes c. */
cxla_status pass_inline_call(Computation *c, Instr *call);

/* Whether an instruction must never be removed, merged or duplicated
 * (side-effecting opcodes, custom-calls declaring side effects). */
bool pass_has_side_effect(const Instr *in);

/* A rewrite rule for pass_rewrite_comp: looks at `in` (whose operands are
 * already rewritten) and sets *out to
 *   NULL  nothing to do,
 *   in    changed in place (attributes or operands edited),
 *   other the replacement for every use of `in` (an existing instruction
 *         or a new one appended to in's computation; it must have exactly
 *         in's shape, layout included, or it is ignored).
 * Errors (out of memory) stop the walk. */
typedef cxla_status (*RewriteFn)(Instr *in, void *arg, Instr **out);

/* Visits c's instructions once in post order, applying fn and redirecting
 * users (operands, control predecessors, the root) to replacements; then
 * restores the post order and drops what became dead. *changed is set when
 * anything changed (never cleared). */
cxla_status pass_rewrite_comp(Computation *c, RewriteFn fn, void *arg, bool *changed);

#endif
