/* identical.c: structural equality of instructions and computations
 * (ir.h), for CSE and for the cpu backend's identical kernels: the same
 * opcodes, shapes with layouts, typed and raw attributes (`metadata`
 * skipped: it names the source line, as XLA's Identical() ignores it),
 * constants by value (an elided constant equals nothing), and called
 * computations the same computation or structurally identical, to a
 * bounded depth. */
#include <stdint.h>
#include <string.h>

#include "ir/ir.h"

/* How deep the comparison of called computations may recurse. */
enum { MAX_COMP_DEPTH = 8 };

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

/* The group of dimension numbers a's opcode (= b's) holds. */
static bool dims_eq(const Instr *a, const Instr *b) {
  switch (op_dims_kind(a->op)) {
  case DIMS_CONV: return conv_eq(&a->conv, &b->conv);
  case DIMS_DOT: return dot_eq(&a->dot, &b->dot);
  case DIMS_GATHER: return gather_eq(&a->gather, &b->gather);
  case DIMS_SCATTER: return scatter_eq(&a->scatter, &b->scatter);
  case DIMS_NONE: break;
  }
  return true;
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
bool instr_attrs_identical(const Instr *a, const Instr *b) {
  if (a->op != b->op || a->noperands != b->noperands || a->ncalled != b->ncalled ||
      a->attrs != b->attrs || !shape_equal(a->shape, b->shape, true))
    return false;
  if (a->op == OP_PARAMETER && a->param_number != b->param_number) return false;
  if (!literal_same(a->literal, b->literal)) return false;
  return list_eq(&a->dimensions, &b->dimensions) && a->index == b->index && slices_eq(a, b) &&
         padding_eq(a, b) && window_eq(a, b) && dims_eq(a, b) && list_eq(&a->slice_sizes, &b->slice_sizes) &&
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
         a->unique_indices == b->unique_indices && a->has_side_effect == b->has_side_effect &&
         a->ncontrol_preds == 0 && b->ncontrol_preds == 0 && raw_eq(a, b);
}

static bool comp_same(const Computation *a, const Computation *b, int depth);

static bool called_same(const Instr *a, const Instr *b, int depth) {
  for (int i = 0; i < a->ncalled; i++)
    if (!comp_same(a->called[i], b->called[i], depth + 1)) return false;
  return true;
}

static bool comp_same(const Computation *a, const Computation *b, int depth) {
  if (a == b) return true;
  if (!a || !b || depth > MAX_COMP_DEPTH) return false;
  if (a->ninstrs != b->ninstrs || a->nparams != b->nparams || !a->root || !b->root ||
      a->root->id != b->root->id)
    return false;
  for (int i = 0; i < a->ninstrs; i++) {
    const Instr *x = a->instrs[i], *y = b->instrs[i];
    if (x->id != i || y->id != i) return false;
    if (!instr_attrs_identical(x, y) || !called_same(x, y, depth)) return false;
    for (int k = 0; k < x->noperands; k++)
      if (x->operands[k]->id != y->operands[k]->id) return false;
  }
  return true;
}

bool instr_called_identical(const Instr *a, const Instr *b) {
  return a->ncalled == b->ncalled && called_same(a, b, 0);
}

bool comp_identical(const Computation *a, const Computation *b) { return comp_same(a, b, 0); }

uint64_t ir_hash_mix(uint64_t h, uint64_t v) {
  h ^= v + 0x9e3779b97f4a7c15ull + (h << 6) + (h >> 2);
  return h;
}

/* A constant's value: its size, first 1 KiB and last 64 bytes. */
static uint64_t mix_literal(uint64_t h, const Literal *l) {
  if (!l || !l->data) return h;
  size_t n = (size_t)l->nelems * (size_t)type_bytes(l->type);
  const unsigned char *p = l->data;
  h = ir_hash_mix(h, (uint64_t)n);
  for (size_t i = 0; i < n && i < 1024; i++) h = ir_hash_mix(h, p[i]);
  for (size_t i = n > 1024 + 64 ? n - 64 : n; i < n; i++) h = ir_hash_mix(h, p[i]);
  return h;
}

static uint64_t mix_list(uint64_t h, const I64List *l) {
  h = ir_hash_mix(h, (uint64_t)l->n);
  for (int i = 0; i < l->n; i++) h = ir_hash_mix(h, (uint64_t)l->v[i]);
  return h;
}

/* What instr_attrs_identical compares that tells instructions of one
 * opcode and shape apart most often (slices at different offsets, dots
 * of different dims, constants): equal hashes are then rare but for
 * identical instructions, and a table of them stays linear. */
static uint64_t mix_attrs(uint64_t h, const Instr *in) {
  const Shape *s = in->shape;
  h = ir_hash_mix(ir_hash_mix(h, (uint64_t)in->op), (uint64_t)s->type);
  for (int d = 0; d < s->rank; d++) h = ir_hash_mix(h, (uint64_t)s->dims[d]);
  if (s->has_layout)
    for (int d = 0; d < s->rank; d++) h = ir_hash_mix(h, (uint64_t)s->minor_to_major[d] + 64);
  h = mix_list(h, &in->dimensions);
  h = ir_hash_mix(ir_hash_mix(h, (uint64_t)in->index), in->op == OP_PARAMETER ? (uint64_t)in->param_number : 0);
  h = mix_literal(h, in->literal);
  int rank = type_is_array(s->type) ? s->rank : 0;
  if (in->slice)
    for (int d = 0; d < rank; d++)
      h = ir_hash_mix(ir_hash_mix(ir_hash_mix(h, (uint64_t)in->slice[d].start), (uint64_t)in->slice[d].limit),
                      (uint64_t)in->slice[d].stride);
  if (in->padding)
    for (int d = 0; d < rank; d++)
      h = ir_hash_mix(ir_hash_mix(ir_hash_mix(h, (uint64_t)in->padding[d].lo), (uint64_t)in->padding[d].hi),
                      (uint64_t)in->padding[d].interior);
  for (int d = 0; d < in->nwindow; d++) {
    const WindowDim *w = &in->window[d];
    h = ir_hash_mix(ir_hash_mix(ir_hash_mix(h, (uint64_t)w->size), (uint64_t)w->stride), (uint64_t)w->pad_lo);
    h = ir_hash_mix(ir_hash_mix(ir_hash_mix(h, (uint64_t)w->pad_hi), (uint64_t)w->lhs_dilate),
                    (uint64_t)w->rhs_dilate);
  }
  if (op_dims_kind(in->op) == DIMS_DOT) {
    h = mix_list(mix_list(h, &in->dot.lhs_contract), &in->dot.rhs_contract);
    h = mix_list(mix_list(h, &in->dot.lhs_batch), &in->dot.rhs_batch);
  }
  h = mix_list(h, &in->slice_sizes);
  return ir_hash_mix(ir_hash_mix(h, (uint64_t)in->cmp_dir), (uint64_t)in->fusion_kind);
}

uint64_t comp_structure_hash(const Computation *c) {
  uint64_t h = ir_hash_mix(ir_hash_mix(1469598103934665603ull, (uint64_t)c->ninstrs), (uint64_t)c->nparams);
  if (c->root) h = ir_hash_mix(h, (uint64_t)c->root->id);
  for (int i = 0; i < c->ninstrs; i++) {
    const Instr *x = c->instrs[i];
    h = mix_attrs(h, x);
    for (int k = 0; k < x->noperands; k++) h = ir_hash_mix(h, (uint64_t)x->operands[k]->id);
  }
  return h;
}

uint64_t instr_attrs_hash(const Instr *in) {
  uint64_t h = mix_attrs(1469598103934665603ull, in);
  /* called computations by structure (fusions that differ only inside
   * must not all land in one bucket) */
  for (int i = 0; i < in->ncalled; i++) h = ir_hash_mix(h, in->called[i] ? comp_structure_hash(in->called[i]) : 0);
  return h;
}
