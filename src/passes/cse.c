/* Common subexpression elimination: within each computation, an
 * instruction identical to an earlier one (same opcode, operands, shape with
 * layout, typed and raw attributes, called computations; constants by
 * value) is replaced by that earlier one.
 *
 * Called computations are equal when they are the same computation or
 * structurally identical (JAX gives every reduce its own copy of the same
 * reducer); such duplicates, when only applied by reduce-like
 * instructions, are first merged into one computation. The raw attribute `metadata` is ignored, as XLA's Identical()
 * ignores it: it names the source line, not the value.
 *
 * Never merged: parameters, side-effecting instructions, rng, collectives
 * and async ops, anything producing or consuming tokens, instructions with
 * control predecessors, elided constants. */
#include <stdint.h>
#include <string.h>

#include "ir/rewrite.h"
#include "passes/passes.h"

/* How deep structural comparison of called computations may recurse. */
enum { CSE_MAX_COMP_DEPTH = 8 };

static bool list_eq(const I64List *a, const I64List *b) {
  if (a->n != b->n) return false;
  for (int i = 0; i < a->n; i++)
    if (a->v[i] != b->v[i]) return false;
  return true;
}

static bool str_eq(const char *a, const char *b) {
  if (!a || !b) return a == b;
  return strcmp(a, b) == 0;
}

static bool window_eq(const Instr *a, const Instr *b) {
  if (a->nwindow != b->nwindow) return false;
  for (int i = 0; i < a->nwindow; i++) {
    const WindowDim *x = &a->window[i], *y = &b->window[i];
    if (x->size != y->size || x->stride != y->stride || x->pad_lo != y->pad_lo ||
        x->pad_hi != y->pad_hi || x->lhs_dilate != y->lhs_dilate ||
        x->rhs_dilate != y->rhs_dilate || x->reversal != y->reversal)
      return false;
  }
  return true;
}

static bool conv_eq(const ConvDims *a, const ConvDims *b) {
  if (a->nspatial != b->nspatial || a->in_batch != b->in_batch ||
      a->in_feature != b->in_feature || a->k_in != b->k_in || a->k_out != b->k_out ||
      a->out_batch != b->out_batch || a->out_feature != b->out_feature)
    return false;
  for (int i = 0; i < a->nspatial; i++)
    if (a->in_spatial[i] != b->in_spatial[i] || a->k_spatial[i] != b->k_spatial[i] ||
        a->out_spatial[i] != b->out_spatial[i])
      return false;
  return true;
}

static bool dot_eq(const DotDims *a, const DotDims *b) {
  return list_eq(&a->lhs_batch, &b->lhs_batch) && list_eq(&a->rhs_batch, &b->rhs_batch) &&
         list_eq(&a->lhs_contract, &b->lhs_contract) &&
         list_eq(&a->rhs_contract, &b->rhs_contract);
}

static bool gather_eq(const GatherDims *a, const GatherDims *b) {
  return list_eq(&a->offset_dims, &b->offset_dims) &&
         list_eq(&a->collapsed_slice_dims, &b->collapsed_slice_dims) &&
         list_eq(&a->start_index_map, &b->start_index_map) &&
         list_eq(&a->operand_batching_dims, &b->operand_batching_dims) &&
         list_eq(&a->start_indices_batching_dims, &b->start_indices_batching_dims) &&
         a->index_vector_dim == b->index_vector_dim;
}

static bool scatter_eq(const ScatterDims *a, const ScatterDims *b) {
  return list_eq(&a->update_window_dims, &b->update_window_dims) &&
         list_eq(&a->inserted_window_dims, &b->inserted_window_dims) &&
         list_eq(&a->scatter_dims_to_operand_dims, &b->scatter_dims_to_operand_dims) &&
         list_eq(&a->input_batching_dims, &b->input_batching_dims) &&
         list_eq(&a->scatter_indices_batching_dims, &b->scatter_indices_batching_dims) &&
         a->index_vector_dim == b->index_vector_dim;
}

/* Per-dimension arrays (slice, padding) have one entry per dimension of the
 * result (equal shapes are checked first). */
static bool slices_eq(const Instr *a, const Instr *b) {
  if (!a->slice || !b->slice) return a->slice == b->slice;
  for (int i = 0; i < a->shape->rank; i++)
    if (a->slice[i].start != b->slice[i].start || a->slice[i].limit != b->slice[i].limit ||
        a->slice[i].stride != b->slice[i].stride)
      return false;
  return true;
}

static bool padding_eq(const Instr *a, const Instr *b) {
  if (!a->padding || !b->padding) return a->padding == b->padding;
  for (int i = 0; i < a->shape->rank; i++)
    if (a->padding[i].lo != b->padding[i].lo || a->padding[i].hi != b->padding[i].hi ||
        a->padding[i].interior != b->padding[i].interior)
      return false;
  return true;
}

/* Raw attributes in order, `metadata` skipped. */
static bool raw_eq(const Instr *a, const Instr *b) {
  int i = 0, j = 0;
  for (;;) {
    while (i < a->nraw && strcmp(a->raw[i].name, "metadata") == 0) i++;
    while (j < b->nraw && strcmp(b->raw[j].name, "metadata") == 0) j++;
    if (i == a->nraw || j == b->nraw) return i == a->nraw && j == b->nraw;
    if (strcmp(a->raw[i].name, b->raw[j].name) != 0 || strcmp(a->raw[i].value, b->raw[j].value) != 0)
      return false;
    i++;
    j++;
  }
}

static bool literal_same(const Literal *a, const Literal *b) {
  if (!a || !b) return a == b;
  if (a->unknown || b->unknown) return false;
  return literal_equal(a, b);
}

/* Everything but operands and called computations. */
static bool attrs_eq(const Instr *a, const Instr *b) {
  if (a->op != b->op || a->noperands != b->noperands || a->ncalled != b->ncalled ||
      a->attrs != b->attrs || !shape_equal(a->shape, b->shape, true))
    return false;
  if (a->op == OP_PARAMETER && a->param_number != b->param_number) return false;
  if (!literal_same(a->literal, b->literal)) return false;
  return list_eq(&a->dimensions, &b->dimensions) && a->index == b->index && slices_eq(a, b) &&
         padding_eq(a, b) && window_eq(a, b) && conv_eq(&a->conv, &b->conv) &&
         dot_eq(&a->dot, &b->dot) && gather_eq(&a->gather, &b->gather) &&
         scatter_eq(&a->scatter, &b->scatter) && list_eq(&a->slice_sizes, &b->slice_sizes) &&
         a->cmp_dir == b->cmp_dir && a->cmp_type == b->cmp_type &&
         a->feature_group_count == b->feature_group_count &&
         a->batch_group_count == b->batch_group_count && a->exponent_bits == b->exponent_bits &&
         a->mantissa_bits == b->mantissa_bits && a->fft_type == b->fft_type &&
         list_eq(&a->fft_length, &b->fft_length) && a->rng_dist == b->rng_dist &&
         a->rng_alg == b->rng_alg && str_eq(a->custom_call_target, b->custom_call_target) &&
         a->is_stable == b->is_stable && a->tri_left_side == b->tri_left_side &&
         a->tri_lower == b->tri_lower && a->tri_unit_diagonal == b->tri_unit_diagonal &&
         a->tri_transpose == b->tri_transpose && a->chol_lower == b->chol_lower &&
         a->fusion_kind == b->fusion_kind && a->topk_k == b->topk_k &&
         a->topk_largest == b->topk_largest && a->indices_are_sorted == b->indices_are_sorted &&
         a->unique_indices == b->unique_indices &&
         a->ncontrol_preds == 0 && b->ncontrol_preds == 0 && raw_eq(a, b);
}

static bool comp_identical(const Computation *a, const Computation *b, int depth);

static bool called_eq(const Instr *a, const Instr *b, int depth) {
  for (int i = 0; i < a->ncalled; i++)
    if (!comp_identical(a->called[i], b->called[i], depth + 1)) return false;
  return true;
}

/* Structural equality: the same instructions in the same order, operands
 * at the same positions. Ids must be current (the pass renumbers first). */
static bool comp_identical(const Computation *a, const Computation *b, int depth) {
  if (a == b) return true;
  if (!a || !b || depth > CSE_MAX_COMP_DEPTH) return false;
  if (a->ninstrs != b->ninstrs || a->nparams != b->nparams || !a->root || !b->root ||
      a->root->id != b->root->id)
    return false;
  for (int i = 0; i < a->ninstrs; i++) {
    const Instr *x = a->instrs[i], *y = b->instrs[i];
    if (x->id != i || y->id != i) return false;
    if (!attrs_eq(x, y) || !called_eq(x, y, depth)) return false;
    for (int k = 0; k < x->noperands; k++)
      if (x->operands[k]->id != y->operands[k]->id) return false;
  }
  return true;
}

static bool instr_identical(const Instr *a, const Instr *b) {
  if (!attrs_eq(a, b)) return false;
  for (int k = 0; k < a->noperands; k++)
    if (a->operands[k] != b->operands[k]) return false;
  return called_eq(a, b, 0);
}

static bool shape_has_token(const Shape *s) {
  if (s->type == T_TOKEN) return true;
  for (int i = 0; i < s->ntuple; i++)
    if (shape_has_token(s->tuple[i])) return true;
  return false;
}

static bool can_merge(const Instr *in) {
  if (in->op == OP_PARAMETER || in->op == OP_RNG || in->op == OP_OPT_BARRIER ||
      in->ncontrol_preds > 0 || pass_has_side_effect(in))
    return false;
  if (op_info(in->op)->flags & (OPF_COLL | OPF_ASYNC)) return false;
  if (in->literal && in->literal->unknown) return false;
  if (shape_has_token(in->shape)) return false;
  for (int k = 0; k < in->noperands; k++)
    if (shape_has_token(in->operands[k]->shape)) return false;
  return true;
}

static uint64_t mix(uint64_t h, uint64_t v) {
  h ^= v + 0x9e3779b97f4a7c15ull + (h << 6) + (h >> 2);
  return h;
}

/* The first bytes of a constant's value. */
static uint64_t mix_literal(uint64_t h, const Literal *l) {
  if (l && l->data) {
    size_t n = (size_t)l->nelems * (size_t)type_bytes(l->type);
    const unsigned char *p = l->data;
    for (size_t i = 0; i < n && i < 64; i++) h = mix(h, p[i]);
  }
  return h;
}

/* A hash consistent with comp_identical (it looks at less): sizes, and per
 * instruction its opcode, shape and operand positions. */
static uint64_t comp_hash(const Computation *c) {
  uint64_t h = mix(mix(1469598103934665603ull, (uint64_t)c->ninstrs), (uint64_t)c->nparams);
  if (c->root) h = mix(h, (uint64_t)c->root->id);
  for (int i = 0; i < c->ninstrs; i++) {
    const Instr *x = c->instrs[i];
    h = mix(mix(h, (uint64_t)x->op), (uint64_t)x->shape->type);
    for (int d = 0; d < x->shape->rank; d++) h = mix(h, (uint64_t)x->shape->dims[d]);
    for (int k = 0; k < x->noperands; k++) h = mix(h, (uint64_t)x->operands[k]->id);
    h = mix_literal(h, x->literal);
  }
  return h;
}

/* A hash consistent with instr_identical: only fields it compares. */
static uint64_t instr_hash(const Instr *in) {
  uint64_t h = mix(1469598103934665603ull, (uint64_t)in->op);
  h = mix(h, (uint64_t)in->shape->type);
  for (int i = 0; i < in->shape->rank; i++) h = mix(h, (uint64_t)in->shape->dims[i]);
  for (int k = 0; k < in->noperands; k++) h = mix(h, (uint64_t)(uintptr_t)in->operands[k]);
  for (int i = 0; i < in->dimensions.n; i++) h = mix(h, (uint64_t)in->dimensions.v[i]);
  h = mix(h, (uint64_t)in->index);
  h = mix_literal(h, in->literal);
  /* Called computations by structure (fusions that differ only inside
   * must not all land in one bucket). */
  for (int i = 0; i < in->ncalled; i++) h = mix(h, in->called[i] ? comp_hash(in->called[i]) : 0);
  return h;
}

/* Open-addressing set of the instructions kept so far. */
typedef struct Table {
  size_t cap;
  Instr **slot;
  uint64_t *hash;
} Table;

static Instr *table_find_or_add(Table *t, Instr *in, uint64_t h) {
  size_t mask = t->cap - 1;
  for (size_t i = (size_t)h & mask;; i = (i + 1) & mask) {
    if (!t->slot[i]) {
      t->slot[i] = in;
      t->hash[i] = h;
      return in;
    }
    if (t->hash[i] == h && instr_identical(t->slot[i], in)) return t->slot[i];
  }
}

static cxla_status cse_computation(Computation *c, bool *changed) {
  bool merged = false;
  int n = c->ninstrs;
  Table t = {0};
  t.cap = 16;
  while (t.cap < (size_t)n * 2) t.cap *= 2;
  t.slot = cxla_calloc(t.cap, sizeof(Instr *));
  t.hash = cxla_calloc(t.cap, sizeof(uint64_t));
  Instr **canon = cxla_calloc((size_t)n + 1, sizeof(Instr *));
  if (!t.slot || !t.hash || !canon) {
    cxla_free(t.slot);
    cxla_free(t.hash);
    cxla_free(canon);
    return cxla_oom();
  }
  /* Post order: operands are canonical before their users are hashed. */
  for (int i = 0; i < n; i++) {
    Instr *in = c->instrs[i];
    for (int k = 0; k < in->noperands; k++) {
      Instr *op = in->operands[k];
      if (op->parent == c && canon[op->id] && canon[op->id] != op) {
        in->operands[k] = canon[op->id];
        merged = true;
      }
    }
    for (int k = 0; k < in->ncontrol_preds; k++) {
      Instr *p = in->control_preds[k];
      if (p->parent == c && canon[p->id]) in->control_preds[k] = canon[p->id];
    }
    canon[i] = can_merge(in) ? table_find_or_add(&t, in, instr_hash(in)) : in;
  }
  if (c->root && canon[c->root->id] != c->root) {
    c->root = canon[c->root->id];
    merged = true;
  }
  cxla_free(t.slot);
  cxla_free(t.hash);
  cxla_free(canon);
  /* Drop the merged duplicates (and whatever else is dead here). */
  if (merged) {
    *changed = true;
    comp_prune(c);
  }
  return NULL;
}

/* Opcodes that apply a computation inside themselves (a reducer, a
 * comparator): their callees may be shared, unlike those of call, while,
 * conditional (flattened: one call site each) and fusion (one fusion
 * instruction per fused computation). */
static bool applier(Opcode op) {
  switch (op) {
  case OP_REDUCE: case OP_REDUCE_WINDOW: case OP_SCATTER: case OP_SORT: case OP_MAP:
  case OP_SELECT_AND_SCATTER: case OP_ALL_REDUCE: case OP_REDUCE_SCATTER:
    return true;
  default:
    return false;
  }
}

/* Structurally identical applied computations (JAX emits one reducer per
 * reduce) become one: callers are redirected to the first, and the others
 * are dropped. Computation.scratch holds index + 1 while this runs; one
 * walk finds which computations are only applied, and a hash table of the
 * computations kept so far finds the first identical one. */
static cxla_status dedup_computations(HloModule *m, bool *changed) {
  int n = m->ncomps;
  Computation **to = cxla_calloc((size_t)n + 1, sizeof *to);
  bool *ok = cxla_calloc((size_t)n + 1, sizeof *ok);
  size_t cap = 16;
  while (cap < (size_t)n * 2) cap *= 2;
  int *slot = cxla_malloc(cap * sizeof(int));      /* first kept computation of a hash */
  int *chain = cxla_malloc(((size_t)n + 1) * sizeof(int)); /* next kept one, same slot */
  uint64_t *hash = cxla_malloc(((size_t)n + 1) * sizeof(uint64_t));
  if (!to || !ok || !slot || !chain || !hash) {
    cxla_free(to);
    cxla_free(ok);
    cxla_free(slot);
    cxla_free(chain);
    cxla_free(hash);
    return cxla_oom();
  }
  for (int i = 0; i < n; i++) {
    m->comps[i]->scratch = (void *)(intptr_t)(i + 1);
    ok[i] = m->comps[i] != m->entry;
  }
  for (int i = 0; i < n; i++)
    for (int k = 0; k < m->comps[i]->ninstrs; k++) {
      const Instr *in = m->comps[i]->instrs[k];
      if (applier(in->op)) continue;
      for (int q = 0; q < in->ncalled; q++) {
        intptr_t j = (intptr_t)in->called[q]->scratch - 1;
        if (j >= 0 && j < n && m->comps[j] == in->called[q]) ok[j] = false;
      }
    }
  for (size_t i = 0; i < cap; i++) slot[i] = -1;
  bool any = false;
  for (int i = 0; i < n; i++) {
    if (!ok[i]) continue;
    hash[i] = comp_hash(m->comps[i]);
    size_t mask = cap - 1, at = (size_t)hash[i] & mask;
    /* Open addressing over hash values; each slot chains the kept
     * computations with that hash in index order. */
    while (slot[at] >= 0 && hash[slot[at]] != hash[i]) at = (at + 1) & mask;
    int last = -1;
    for (int j = slot[at]; j >= 0 && !to[i]; last = j, j = chain[j])
      if (comp_identical(m->comps[i], m->comps[j], 0)) to[i] = m->comps[j];
    if (to[i]) {
      any = true;
      continue;
    }
    chain[i] = -1;
    if (last < 0) slot[at] = i;
    else chain[last] = i;
  }
  if (any) {
    for (int i = 0; i < n; i++)
      for (int k = 0; k < m->comps[i]->ninstrs; k++) {
        Instr *in = m->comps[i]->instrs[k];
        for (int q = 0; q < in->ncalled; q++) {
          intptr_t j = (intptr_t)in->called[q]->scratch - 1;
          if (j >= 0 && j < n && m->comps[j] == in->called[q] && to[j]) in->called[q] = to[j];
        }
      }
  }
  for (int i = 0; i < n; i++) m->comps[i]->scratch = NULL;
  if (any) {
    module_prune_computations(m);
    *changed = true;
  }
  cxla_free(to);
  cxla_free(ok);
  cxla_free(slot);
  cxla_free(chain);
  cxla_free(hash);
  return NULL;
}

cxla_status pass_cse(HloModule *m, const PassContext *ctx, bool *changed) {
  (void)ctx;
  *changed = false;
  for (int i = 0; i < m->ncomps; i++) comp_renumber(m->comps[i]);
  TRY(dedup_computations(m, changed));
  for (int i = 0; i < m->ncomps; i++) TRY(cse_computation(m->comps[i], changed));
  return NULL;
}
