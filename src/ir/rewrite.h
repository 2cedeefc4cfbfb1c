/* rewrite.h: the few IR mutations every pass needs.
 *
 * Passes change a module in place. New instructions are appended to their
 * computation (comp_add_instr); once a pass has rewired operands, it calls
 * comp_sort to restore a valid post order, and comp_prune to drop what is no
 * longer reachable. Dropped instructions stay in the module arena (freed with
 * the module); nothing here frees memory. */
#ifndef CXLA_REWRITE_H
#define CXLA_REWRITE_H

#include "ir/ir.h"

/* Every use of `from` in c (operands, the root, control predecessors)
 * becomes a use of `to`. Returns the number of operand slots rewritten. */
int comp_replace_uses(Computation *c, const Instr *from, Instr *to);

/* Every instruction name of c -> the instruction (the first of equal
 * names, as comp_find_instr finds it), for passes that look names up
 * while they add instructions (they keep it up to date themselves). */
cxla_status comp_index_names(const Computation *c, NameMap *out);

/* Users of every instruction of c, computed once (build after the last
 * structural change; it is not updated by later edits). */
typedef struct Users {
  int n;            /* number of instructions covered (c->ninstrs) */
  int *count;       /* count[id]: number of distinct users of instr id */
  Instr ***list;    /* list[id][k]: the k-th user (a run of `flat`) */
  Instr **flat;     /* every instruction's users, run after run */
} Users;
cxla_status users_build(const Computation *c, Users *out);
void users_free(Users *u);

/* Restores a post order (operands and control predecessors before users),
 * keeping the existing order where it is already valid, and renumbers ids.
 * Fails with INVALID_ARGUMENT on a cycle. */
cxla_status comp_sort(Computation *c);

/* Removes instructions that the root does not reach, keeping parameters
 * and instructions with side effects (OPF_SIDE, custom-calls that declare
 * custom_call_has_side_effect, and whatever calls a computation with
 * side_effects: a loop or branch that prints). Returns how many were
 * removed. */
int comp_prune(Computation *c);

/* Marks an instruction that was replaced (its uses redirected) as gone,
 * even if it calls a computation with side effects (a call just inlined,
 * whose copy now has them): its calls no longer count as side effects, so
 * the next comp_prune removes it. */
void instr_retire(Instr *in);

/* Whether in must run though nothing reads it: a side-effecting opcode,
 * a custom-call declaring custom_call_has_side_effect, or a call of a
 * computation with side_effects (unless retired). */
bool instr_has_side_effect(const Instr *in);

/* Sets Computation.side_effects of every computation of m: one walk of the
 * call graph, each computation visited once (the parsers run it on what
 * they read, the pass pipeline before every pass). Out of memory: every
 * flag set (which is safe) and the status says so. */
cxla_status module_mark_side_effects(HloModule *m);

/* Removes computations the entry does not reach through called computations
 * (what no remaining instruction calls; the entry always stays). One walk.
 * Returns how many were removed. */
int module_prune_computations(HloModule *m);

/* Gives `in` every attribute of src (opcode-specific fields, lists, raw
 * attributes, called computations, literal pointer: shared, not copied, so
 * src must be of the same module), keeping in's own identity: name, shape,
 * operands, parent, id; no scratch and no control predecessors. */
void instr_copy_attrs(Instr *in, const Instr *src);

/* Copies src (operands replaced by `ops`, nops of them) into computation
 * dst: same opcode, shape (cloned into the arena), attributes, literal
 * (cloned and owned by the module), raw attributes and called computations.
 * name NULL: a fresh name. NULL on OOM. */
Instr *instr_clone(Computation *dst, const Instr *src, int nops, Instr *const *ops,
                   const char *name);

/* A deep copy of computation src inside the same module, named `name`
 * (NULL: src's name + ".clone" made unique). NULL on OOM. */
Computation *comp_clone(HloModule *m, const Computation *src, const char *name);

/* A computation name not yet used in m, derived from `base`. */
const char *module_unique_comp_name(HloModule *m, const char *base);

/* Counts instructions over all computations of m (fusion bodies included). */
int module_instr_count(const HloModule *m);

#endif
