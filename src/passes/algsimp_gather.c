/* Gather rules of the algebraic simplifier (both exact):
 *
 *   - whole operand: every slice size equals the operand's dimension, so
 *     every start index clamps to 0 and each gathered slice is the whole
 *     operand: broadcast(reshape(operand)) over the batch dimensions
 *     (XLA's simplifier; jax.jit of jnp.take on a [1, N] array loses its
 *     gather this way);
 *   - one index: a gather with a single index vector (a constant one
 *     included) is a dynamic-slice at that index, reshaped; a constant
 *     index then becomes a slice (algsimp_shapes.c). This is XLA's
 *     GatherExpander in its kEliminateSimpleGathers mode, which XLA:CPU
 *     runs in the same simplification loop. Gathers with several index
 *     vectors (jnp.take with a constant index array) stay, as in XLA.
 *
 * Gathers with batching dimensions are left alone. */
#include <string.h>

#include "passes/algsimp.h"

static bool in_list(const I64List *l, int64_t v) {
  for (int i = 0; i < l->n; i++)
    if (l->v[i] == v) return true;
  return false;
}

/* reshape x to (rank, dims) with in's element type and layout style. */
static Instr *reshape_to(Simp *s, const Shape *like, Instr *x, int rank, const int64_t *dims) {
  Shape *sh = simp_shape(s, like, rank, dims);
  if (!sh) return NULL;
  sh->type = x->shape->type;
  return simp_new(s, OP_RESHAPE, sh, 1, &x);
}

static cxla_status whole_operand(Simp *s, Instr *in, Instr **out) {
  Instr *x = in->operands[0];
  const GatherDims *g = &in->gather;
  int r = x->shape->rank;
  if (in->slice_sizes.n != r) return NULL;
  for (int i = 0; i < r; i++)
    if (in->slice_sizes.v[i] != x->shape->dims[i]) return NULL;
  int64_t kept[64];
  int nk = 0;
  for (int i = 0; i < r; i++)
    if (!in_list(&g->collapsed_slice_dims, i)) kept[nk++] = x->shape->dims[i];
  if (nk != g->offset_dims.n) return NULL;
  Instr *v = x;
  if (nk != r && !(v = reshape_to(s, in->shape, x, nk, kept))) return cxla_oom();
  if (in->shape->rank == nk) {
    /* no batch dimensions: the operand itself (reshaped) */
    if (v == x && !shape_equal(x->shape, in->shape, true)) {
      if (!(v = reshape_to(s, in->shape, x, nk, kept))) return cxla_oom();
    }
    *out = v;
    return NULL;
  }
  Instr *b = simp_new(s, OP_BROADCAST, in->shape, 1, &v);
  if (!b) return cxla_oom();
  bool ok = true;
  b->dimensions = simp_list(s, g->offset_dims.v, g->offset_dims.n, &ok);
  b->attrs |= A_DIMENSIONS;
  if (!ok) return cxla_oom();
  *out = b;
  return NULL;
}

static cxla_status one_index(Simp *s, Instr *in, Instr **out) {
  Instr *x = in->operands[0], *idx = in->operands[1];
  const GatherDims *g = &in->gather;
  int r = x->shape->rank, ir = idx->shape->rank;
  int64_t ivd = g->index_vector_dim;
  if (in->slice_sizes.n != r || ivd < 0 || ivd > ir || !type_is_int(idx->shape->type)) return NULL;
  int64_t count = 1;
  for (int i = 0; i < ir; i++)
    if (i != ivd) count *= idx->shape->dims[i];
  int64_t ncomp = ivd == ir ? 1 : idx->shape->dims[ivd];
  if (count != 1 || ncomp != g->start_index_map.n) return NULL;
  /* the index vector as ncomp scalars */
  Instr *starts[64];
  Instr *zero = NULL;
  for (int d = 0; d < r; d++) starts[d] = NULL;
  for (int k = 0; k < ncomp; k++) {
    Instr *comp = idx;
    if (ivd < ir) {
      int64_t dims[64];
      memcpy(dims, idx->shape->dims, (size_t)ir * sizeof dims[0]);
      dims[ivd] = 1;
      Shape *sh = simp_shape(s, idx->shape, ir, dims);
      if (!sh || !(comp = simp_new(s, OP_SLICE, sh, 1, &idx))) return cxla_oom();
      if (!(comp->slice = arena_array(&s->m->arena, (size_t)ir, sizeof(SliceDim))))
        return cxla_oom();
      for (int i = 0; i < ir; i++) comp->slice[i] = (SliceDim){0, idx->shape->dims[i], 1};
      comp->slice[ivd] = (SliceDim){k, k + 1, 1};
      comp->attrs |= A_SLICE;
    }
    if (!(comp = reshape_to(s, idx->shape, comp, 0, NULL))) return cxla_oom();
    int64_t d = g->start_index_map.v[k];
    if (d < 0 || d >= r || starts[d]) return NULL;
    starts[d] = comp;
  }
  for (int d = 0; d < r; d++) {
    if (starts[d]) continue;
    if (!zero && !(zero = simp_scalar(s, idx->shape->type, 0, 0))) return cxla_oom();
    starts[d] = zero;
  }
  Instr *ops[65];
  ops[0] = x;
  for (int d = 0; d < r; d++) ops[1 + d] = starts[d];
  Shape *dsh = simp_shape(s, in->shape, r, in->slice_sizes.v);
  if (!dsh) return cxla_oom();
  dsh->type = x->shape->type;
  Instr *ds = simp_new(s, OP_DYNAMIC_SLICE, dsh, 1 + r, ops);
  if (!ds) return cxla_oom();
  bool ok = true;
  ds->slice_sizes = simp_list(s, in->slice_sizes.v, r, &ok);
  ds->attrs |= A_DYN_SLICE_SIZES;
  if (!ok) return cxla_oom();
  if (!(*out = simp_new(s, OP_RESHAPE, in->shape, 1, &ds))) return cxla_oom();
  return NULL;
}

cxla_status algsimp_gather(Simp *s, Instr *in, Instr **out) {
  if (in->op != OP_GATHER || in->noperands != 2 || !type_is_array(in->shape->type)) return NULL;
  const GatherDims *g = &in->gather;
  if (g->operand_batching_dims.n || g->start_indices_batching_dims.n) return NULL;
  if (in->operands[0]->shape->rank > 63 || in->operands[1]->shape->rank > 63) return NULL;
  TRY(whole_operand(s, in, out));
  if (!*out) TRY(one_index(s, in, out));
  return NULL;
}
