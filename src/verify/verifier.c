/* The module verifier: structural checks, then shape inference on every
 * instruction, then the entry computation layout. See verify.h.
 *
 * Order matters for safety: every shape in the module is validated (and
 * every pointer the rules follow is checked) before any rule runs, because
 * rules read operand shapes and callee signatures from anywhere in the
 * module. */
#include <stdlib.h>
#include <string.h>

#include "verify/entry_layout.h"
#include "verify/infer.h"

#define MAX_RANK 64
#define MAX_TUPLE_DEPTH 64

/* ---- error context ---- */

static cxla_status at_instr(cxla_status s, const Instr *in) {
  return cxla_status_annotate(s, "verify: computation %%%s, instruction %%%s (%s)",
                              in->parent && in->parent->name ? in->parent->name : "?",
                              in->name ? in->name : "?", op_name(in->op));
}

static cxla_status at_comp(cxla_status s, const Computation *c) {
  return cxla_status_annotate(s, "verify: computation %%%s", c->name ? c->name : "?");
}

/* ---- shapes ---- */

static cxla_status check_layout(const Shape *s) {
  if (!s->has_layout || s->rank == 0) return NULL;
  if (!s->minor_to_major) return verr("layout of %d dimensions is missing", s->rank);
  bool seen[MAX_RANK] = {false};
  for (int i = 0; i < s->rank; i++) {
    int64_t d = s->minor_to_major[i];
    if (d < 0 || d >= s->rank || seen[d])
      return verr("layout is not a permutation of the %d dimensions", s->rank);
    seen[d] = true;
  }
  return NULL;
}

/* A shape is well formed: known type, sane rank, non-negative dims,
 * layout a permutation, tuple elements present, within the size limit. */
static cxla_status check_shape_rec(const Shape *s, int depth) {
  if (!s) return verr("shape is missing");
  if ((unsigned)s->type >= T_COUNT) return verr("shape has an invalid element type");
  if (s->type == T_TUPLE) {
    if (depth > MAX_TUPLE_DEPTH) return verr("tuple nesting too deep");
    if (s->ntuple < 0 || (s->ntuple > 0 && !s->tuple)) return verr("tuple shape is malformed");
    for (int i = 0; i < s->ntuple; i++) TRY(check_shape_rec(s->tuple[i], depth + 1));
    return NULL;
  }
  if (s->rank < 0 || s->rank > MAX_RANK)
    return verr("rank %d is outside cxla's limit of 0..%d", s->rank, MAX_RANK);
  if (!type_is_array(s->type) && s->rank != 0) return verr("%s shapes have no dimensions", type_name(s->type));
  if (s->rank > 0 && !s->dims) return verr("shape dims are missing");
  for (int i = 0; i < s->rank; i++)
    if (s->dims[i] < 0) return verr("dimension %d has negative size %lld", i, (long long)s->dims[i]);
  return check_layout(s);
}

static cxla_status check_shape(const Shape *s) {
  TRY(check_shape_rec(s, 0));
  return shape_check_size(s);
}

/* ---- structure ---- */

/* The module's computations by address -> position, built once, so that
 * no check scans the computation list. */
static bool module_has(const PtrIndex *index, const Computation *c) {
  return ptrindex_get(index, c) >= 0;
}

/* Instructions: present, owned by c, numbered by position. */
static cxla_status check_instr_list(const Computation *c) {
  if (c->ninstrs < 1 || !c->instrs) return verr("computation has no instructions");
  for (int i = 0; i < c->ninstrs; i++) {
    const Instr *in = c->instrs[i];
    if (!in) return verr("instruction %d is missing", i);
    if (!in->name) return verr("instruction %d has no name", i);
    if (in->parent != c) return verr("instruction %%%s does not belong to it", in->name);
    if (in->id != i)
      return verr("instruction %%%s has id %d but is at position %d (ids out of date)", in->name,
                  in->id, i);
    if ((unsigned)in->op >= OP_COUNT) return verr("instruction %%%s has an invalid opcode", in->name);
  }
  const Instr *r = c->root;
  if (!r) return verr("computation has no root instruction");
  if (r->parent != c || r->id < 0 || r->id >= c->ninstrs || c->instrs[r->id] != r)
    return verr("root instruction is not one of its instructions");
  return NULL;
}

/* No two instructions of c share a name (operands are resolved by name in
 * HLO text). A hash set: the verifier runs between passes, so it stays
 * linear. */
static cxla_status check_unique_names(Arena *a, const Computation *c) {
  (void)a;
  NameMap seen = {0};
  cxla_status s = namemap_reserve(&seen, (size_t)c->ninstrs) ? NULL : cxla_oom();
  for (int i = 0; i < c->ninstrs && !s; i++) {
    const char *nm = c->instrs[i]->name;
    bool dup;
    if (!namemap_put_first(&seen, nm, c->instrs[i], &dup)) s = cxla_oom();
    else if (dup) s = verr("two instructions are named %%%s", nm);
  }
  namemap_free(&seen);
  return s;
}

/* Parameters are numbered 0..n-1, each exactly once, and params[] lists
 * them by number. */
static cxla_status check_params(const Computation *c) {
  if (c->nparams < 0 || (c->nparams > 0 && !c->params)) return verr("parameter list is malformed");
  for (int i = 0; i < c->nparams; i++) {
    const Instr *p = c->params[i];
    if (!p) return verr("parameter %d is missing", i);
    if (p->parent != c || p->op != OP_PARAMETER || p->id < 0 || p->id >= c->ninstrs ||
        c->instrs[p->id] != p)
      return verr("parameter %d is not one of its parameter instructions", i);
    if (p->param_number != i)
      return verr("parameter %%%s has number %lld but is listed as parameter %d", p->name,
                  (long long)p->param_number, i);
  }
  for (int i = 0; i < c->ninstrs; i++) {
    const Instr *in = c->instrs[i];
    if (in->op != OP_PARAMETER) continue;
    int64_t n = in->param_number;
    if (n < 0 || n >= c->nparams)
      return verr("parameter %%%s has number %lld, outside 0..%d", in->name, (long long)n,
                  c->nparams - 1);
    if (c->params[n] != in)
      return verr("parameter number %lld is used twice (%%%s and %%%s)", (long long)n, in->name,
                  c->params[n]->name);
  }
  return NULL;
}

/* Operands exist, live in the same computation and come earlier; called
 * computations belong to the module; control predecessors are siblings. */
static cxla_status check_instr_links(const HloModule *m, const PtrIndex *index, const Computation *c,
                                     const Instr *in) {
  if (in->noperands < 0 || (in->noperands > 0 && !in->operands))
    return verr("operand list is malformed");
  for (int i = 0; i < in->noperands; i++) {
    const Instr *op = in->operands[i];
    if (!op) return verr("operand %d is missing", i);
    if (op->parent != c)
      return verr("operand %d (%%%s) belongs to computation %%%s, not %%%s", i,
                  op->name ? op->name : "?", op->parent && op->parent->name ? op->parent->name : "?",
                  c->name);
    if (op->id < 0 || op->id >= in->id || c->instrs[op->id] != op)
      return verr("operand %d (%%%s) is used before it is defined", i, op->name);
    if (!op->shape) return verr("operand %d (%%%s) has no shape", i, op->name);
  }
  if (in->ncalled < 0 || (in->ncalled > 0 && !in->called)) return verr("called list is malformed");
  for (int i = 0; i < in->ncalled; i++) {
    const Computation *cc = in->called[i];
    if (!cc) return verr("called computation %d is missing", i);
    if (!module_has(index, cc)) return verr("called computation %d is not in the module", i);
    if (cc == m->entry) return verr("calls the entry computation");
  }
  if (in->ncontrol_preds < 0 || (in->ncontrol_preds > 0 && !in->control_preds))
    return verr("control-predecessors list is malformed");
  for (int i = 0; i < in->ncontrol_preds; i++)
    if (!in->control_preds[i] || in->control_preds[i]->parent != c)
      return verr("control predecessor %d is not in the same computation", i);
  return NULL;
}

static cxla_status check_computation(Arena *a, const HloModule *m, const PtrIndex *index,
                                     const Computation *c) {
  if (!c->name) return verr("verify: a computation has no name");
  cxla_status s = check_instr_list(c);
  if (!s) s = check_params(c);
  if (!s) s = check_unique_names(a, c);
  if (s) return at_comp(s, c);
  for (int i = 0; i < c->ninstrs; i++) {
    const Instr *in = c->instrs[i];
    s = check_instr_links(m, index, c, in);
    if (!s) s = check_shape(in->shape);
    if (s) return at_instr(s, in);
  }
  return NULL;
}

/* No computation calls itself, directly or through others: a DFS over the
 * call graph with colours (0 new, 1 on the stack, 2 done). */
static cxla_status check_acyclic(const PtrIndex *index, const Computation *c, char *colour) {
  int ci = ptrindex_get(index, c);
  if (colour[ci] == 2) return NULL;
  if (colour[ci] == 1) return verr("verify: computation %%%s calls itself (recursion)", c->name);
  colour[ci] = 1;
  for (int i = 0; i < c->ninstrs; i++) {
    const Instr *in = c->instrs[i];
    for (int k = 0; k < in->ncalled; k++) TRY(check_acyclic(index, in->called[k], colour));
  }
  colour[ci] = 2;
  return NULL;
}

static cxla_status check_structure_in(Arena *a, const HloModule *m, PtrIndex *index) {
  if (m->ncomps < 1 || !m->comps) return verr("verify: module has no computations");
  if (!m->entry) return verr("verify: module has no entry computation");
  for (int i = 0; i < m->ncomps; i++) {
    const Computation *c = m->comps[i];
    if (!c) return verr("verify: computation %d is missing", i);
    if (c->module != m) return at_comp(verr("belongs to another module"), c);
    if (module_has(index, c)) return at_comp(verr("is listed twice"), c);
    if (!ptrindex_set(index, c, i)) return cxla_oom();
    if (c->is_entry && c != m->entry)
      return at_comp(verr("is marked entry but is not the module's entry computation"), c);
  }
  if (!module_has(index, m->entry))
    return verr("verify: the entry computation is not in the module");
  for (int i = 0; i < m->ncomps; i++) TRY(check_computation(a, m, index, m->comps[i]));
  char *colour = arena_alloc(a, (size_t)m->ncomps);
  if (!colour) return cxla_oom();
  for (int i = 0; i < m->ncomps; i++) TRY(check_acyclic(index, m->comps[i], colour));
  return NULL;
}

static cxla_status check_structure(Arena *a, const HloModule *m) {
  PtrIndex index = {0};
  cxla_status s = check_structure_in(a, m, &index);
  ptrindex_free(&index);
  return s;
}

/* ---- shapes of instructions ---- */

static cxla_status check_instr_shape(Arena *a, const Instr *in) {
  Shape *inferred;
  cxla_status s = infer_shape(a, in, &inferred);
  if (s) return at_instr(s, in);
  if (!shape_compatible(inferred, in->shape))
    return at_instr(verr("expected shape %s, got %s", shape_str(a, inferred), shape_str(a, in->shape)), in);
  return NULL;
}

cxla_status verify_module(const HloModule *m) {
  if (!m) return verr("verify: no module");
  Arena a;
  arena_init(&a);
  cxla_status s = check_structure(&a, m);
  for (int i = 0; !s && i < m->ncomps; i++) {
    const Computation *c = m->comps[i];
    for (int k = 0; !s && k < c->ninstrs; k++) s = check_instr_shape(&a, c->instrs[k]);
  }
  if (!s) s = check_entry_layout(&a, m);
  if (!s) s = check_io_alias(&a, m);
  arena_destroy(&a);
  return s;
}

cxla_status cxla_module_verify(const cxla_module *m) { return verify_module(m); }
