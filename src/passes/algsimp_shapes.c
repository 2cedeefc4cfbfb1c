/* Data-movement rules of the algebraic simplifier: reshape, transpose,
 * broadcast, slice, pad, concatenate, reverse, copy, bitcast, dynamic-slice,
 * dynamic-update-slice. They only move values around, so they are exact as
 * long as every element lands where it did before. */
#include <string.h>

#include "passes/algsimp.h"

static bool same_dims(const Shape *a, const Shape *b) { return shape_compatible(a, b); }

/* broadcast(scalar) re-shaped, transposed or sliced is a broadcast of the
 * same scalar to the new shape. */
static cxla_status scalar_broadcast_to(Simp *s, Instr *in, Instr *x, Instr **out) {
  if (x->op != OP_BROADCAST || x->operands[0]->shape->rank != 0) return NULL;
  Instr *b = simp_new(s, OP_BROADCAST, in->shape, 1, &x->operands[0]);
  if (!b) return cxla_oom();
  b->attrs |= A_DIMENSIONS;
  *out = b;
  return NULL;
}

/* reshape(x) to x's own dims -> x; reshape(reshape(y)) -> reshape(y);
 * reshape(broadcast(scalar)) -> broadcast(scalar). */
static cxla_status rule_reshape(Simp *s, Instr *in, Instr **out) {
  Instr *x = in->operands[0];
  if (same_dims(x->shape, in->shape)) return (*out = x), NULL;
  if (x->op == OP_RESHAPE) {
    if (same_dims(x->operands[0]->shape, in->shape)) return (*out = x->operands[0]), NULL;
    if (!(*out = simp_new(s, OP_RESHAPE, in->shape, 1, &x->operands[0]))) return cxla_oom();
    return NULL;
  }
  return scalar_broadcast_to(s, in, x, out);
}

static bool is_identity_perm(const I64List *p) {
  for (int i = 0; i < p->n; i++)
    if (p->v[i] != i) return false;
  return true;
}

/* transpose by the identity -> x; transpose(transpose(y, p1), p2) ->
 * transpose(y, q) with q[i] = p1[p2[i]] (or y if q is the identity). */
static cxla_status rule_transpose(Simp *s, Instr *in, Instr **out) {
  Instr *x = in->operands[0];
  const I64List *p2 = &in->dimensions;
  if (p2->n != in->shape->rank) return NULL;
  if (is_identity_perm(p2)) return (*out = x), NULL;
  if (x->op == OP_TRANSPOSE && x->dimensions.n == p2->n) {
    int64_t q[64];
    if (p2->n > 64) return NULL;
    for (int i = 0; i < p2->n; i++) q[i] = x->dimensions.v[p2->v[i]];
    Instr *y = x->operands[0];
    I64List ql = {p2->n, q};
    if (is_identity_perm(&ql)) return (*out = y), NULL;
    Instr *t = simp_new(s, OP_TRANSPOSE, in->shape, 1, &y);
    bool ok = true;
    if (!t || !((t->dimensions = simp_list(s, q, p2->n, &ok)), ok)) return cxla_oom();
    t->attrs |= A_DIMENSIONS;
    *out = t;
    return NULL;
  }
  return scalar_broadcast_to(s, in, x, out);
}

/* broadcast to x's own dims with dimensions {0..r-1} -> x;
 * broadcast(broadcast(y, d1), d2) -> broadcast(y, d2[d1[j]]). */
static cxla_status rule_broadcast(Simp *s, Instr *in, Instr **out) {
  Instr *x = in->operands[0];
  const I64List *d2 = &in->dimensions;
  if (d2->n != x->shape->rank) return NULL;
  if (same_dims(x->shape, in->shape) && is_identity_perm(d2)) return (*out = x), NULL;
  if (x->op != OP_BROADCAST) return NULL;
  Instr *y = x->operands[0];
  const I64List *d1 = &x->dimensions;
  if (d1->n != y->shape->rank || d1->n > 64) return NULL;
  int64_t d[64];
  for (int j = 0; j < d1->n; j++) d[j] = d2->v[d1->v[j]];
  Instr *b = simp_new(s, OP_BROADCAST, in->shape, 1, &y);
  bool ok = true;
  if (!b || !((b->dimensions = simp_list(s, d, d1->n, &ok)), ok)) return cxla_oom();
  b->attrs |= A_DIMENSIONS;
  *out = b;
  return NULL;
}

static Instr *new_slice(Simp *s, const Shape *shape, Instr *x, const SliceDim *dims) {
  Instr *sl = simp_new(s, OP_SLICE, shape, 1, &x);
  if (!sl) return NULL;
  int r = shape->rank;
  if (r) {
    sl->slice = arena_array(&s->m->arena, (size_t)r, sizeof(SliceDim));
    if (!sl->slice) return NULL;
    memcpy(sl->slice, dims, (size_t)r * sizeof(SliceDim));
  }
  sl->attrs |= A_SLICE;
  return sl;
}

/* The last index a slice dimension reads, +1: the tightest limit. */
static int64_t tight_limit(int64_t start, int64_t stride, int64_t n) {
  return n == 0 ? start : start + (n - 1) * stride + 1;
}

/* slice of a concatenate that reads one operand only -> a slice of it. */
static cxla_status slice_of_concat(Simp *s, Instr *in, Instr *x, Instr **out) {
  int r = in->shape->rank;
  if (x->dimensions.n != 1 || r > 64) return NULL;
  int64_t d = x->dimensions.v[0];
  if (d < 0 || d >= r) return NULL;
  const SliceDim *sd = &in->slice[d];
  int64_t n = in->shape->dims[d];
  if (n == 0) return NULL;
  int64_t first = sd->start, last = sd->start + (n - 1) * sd->stride;
  int64_t off = 0;
  for (int k = 0; k < x->noperands; k++) {
    Instr *op = x->operands[k];
    int64_t size = op->shape->dims[d];
    if (first >= off && last < off + size) {
      SliceDim dims[64];
      memcpy(dims, in->slice, (size_t)r * sizeof(SliceDim));
      dims[d].start = first - off;
      dims[d].limit = tight_limit(first - off, sd->stride, n);
      if (!(*out = new_slice(s, in->shape, op, dims))) return cxla_oom();
      return NULL;
    }
    off += size;
  }
  return NULL;
}

static bool slice_is_full(const SliceDim *sd, const Shape *operand, const Shape *result) {
  if (operand->rank != result->rank) return false;
  for (int i = 0; i < result->rank; i++)
    if (sd[i].start != 0 || sd[i].stride != 1 || result->dims[i] != operand->dims[i]) return false;
  return true;
}

/* slice of the full range -> x; slice(slice(y)) -> one slice;
 * slice(broadcast(scalar)) -> broadcast(scalar); slice of a concatenate
 * inside one operand -> slice of that operand. */
static cxla_status rule_slice(Simp *s, Instr *in, Instr **out) {
  Instr *x = in->operands[0];
  int r = in->shape->rank;
  if (!in->slice || x->shape->rank != r || r > 64) return NULL;
  if (slice_is_full(in->slice, x->shape, in->shape)) return (*out = x), NULL;
  if (x->op == OP_SLICE && x->slice) {
    SliceDim dims[64];
    for (int i = 0; i < r; i++) {
      const SliceDim *a = &x->slice[i], *b = &in->slice[i];
      dims[i].start = a->start + b->start * a->stride;
      dims[i].stride = a->stride * b->stride;
      dims[i].limit = tight_limit(dims[i].start, dims[i].stride, in->shape->dims[i]);
    }
    if (!(*out = new_slice(s, in->shape, x->operands[0], dims))) return cxla_oom();
    return NULL;
  }
  if (x->op == OP_CONCATENATE) return slice_of_concat(s, in, x, out);
  return scalar_broadcast_to(s, in, x, out);
}

/* pad with no padding at all -> x. */
static cxla_status rule_pad(Simp *s, Instr *in, Instr **out) {
  (void)s;
  if (!in->padding) return NULL;
  for (int i = 0; i < in->shape->rank; i++)
    if (in->padding[i].lo || in->padding[i].hi || in->padding[i].interior) return NULL;
  *out = in->operands[0];
  return NULL;
}

/* Two slices of the same operand, identical except that along dimension d
 * the second continues where the first ends (stride 1 there). */
static bool adjacent_slices(const Instr *a, const Instr *b, int64_t d) {
  if (a->op != OP_SLICE || b->op != OP_SLICE || !a->slice || !b->slice) return false;
  if (a->operands[0] != b->operands[0]) return false;
  for (int i = 0; i < a->shape->rank; i++) {
    const SliceDim *x = &a->slice[i], *y = &b->slice[i];
    if (i == d) {
      if (x->stride != 1 || y->stride != 1 || x->limit != y->start) return false;
    } else if (x->start != y->start || x->limit != y->limit || x->stride != y->stride) {
      return false;
    }
  }
  return true;
}

/* concatenate of one operand -> it; zero-sized operands dropped; runs of
 * adjacent slices of the same operand merged into one slice. */
static cxla_status rule_concatenate(Simp *s, Instr *in, Instr **out) {
  if (in->noperands == 1) return (*out = in->operands[0]), NULL;
  if (in->dimensions.n != 1) return NULL;
  int64_t d = in->dimensions.v[0];
  int r = in->shape->rank;
  if (d < 0 || d >= r || r > 64) return NULL;
  Instr **ops = cxla_malloc((size_t)in->noperands * sizeof(Instr *));
  if (!ops) return cxla_oom();
  int n = 0;
  bool edited = false;
  cxla_status st = NULL;
  for (int k = 0; k < in->noperands && !st; k++) {
    Instr *op = in->operands[k];
    if (op->shape->dims[d] == 0) {
      edited = true;
      continue;
    }
    if (n > 0 && adjacent_slices(ops[n - 1], op, d)) {
      /* Merge with the previous slice (which may be a merge already). */
      const Instr *prev = ops[n - 1];
      SliceDim dims[64];
      memcpy(dims, prev->slice, (size_t)r * sizeof(SliceDim));
      dims[d].limit = op->slice[d].limit;
      int64_t sd[64];
      memcpy(sd, prev->shape->dims, (size_t)r * sizeof(int64_t));
      sd[d] = prev->shape->dims[d] + op->shape->dims[d];
      Shape *sh = simp_shape(s, prev->shape, r, sd);
      Instr *m = sh ? new_slice(s, sh, prev->operands[0], dims) : NULL;
      if (!m) st = cxla_oom();
      ops[n - 1] = m;
      edited = true;
      continue;
    }
    ops[n++] = op;
  }
  if (!st && edited && n > 0) {
    if (n == 1 && ops[0]->op != OP_SLICE) {
      *out = ops[0]; /* the walk checks the shape */
    } else if (n == 1) {
      /* Rebuild the merged slice with the concatenate's exact shape (or
       * take its operand when it reads all of it). */
      Instr *src = ops[0]->operands[0];
      if (slice_is_full(ops[0]->slice, src->shape, in->shape)) *out = src;
      else if (!(*out = new_slice(s, in->shape, src, ops[0]->slice))) st = cxla_oom();
    } else if (n > 1) {
      Instr *c = simp_new(s, OP_CONCATENATE, in->shape, n, ops);
      bool ok = true;
      if (!c || !((c->dimensions = simp_list(s, &d, 1, &ok)), ok)) st = cxla_oom();
      else c->attrs |= A_DIMENSIONS, *out = c;
    }
  }
  cxla_free(ops);
  return st;
}

/* reverse over no dimension (or only size-1 ones) -> x;
 * reverse(reverse(y, D), D) -> y. */
static cxla_status rule_reverse(Simp *s, Instr *in, Instr **out) {
  (void)s;
  Instr *x = in->operands[0];
  bool trivial = true;
  for (int i = 0; i < in->dimensions.n; i++) {
    int64_t d = in->dimensions.v[i];
    if (d < 0 || d >= in->shape->rank) return NULL;
    if (in->shape->dims[d] != 1) trivial = false;
  }
  if (trivial) return (*out = x), NULL;
  if (x->op == OP_REVERSE && x->dimensions.n == in->dimensions.n) {
    /* Same set of dimensions (each listed once in a valid reverse). */
    for (int i = 0; i < in->dimensions.n; i++) {
      bool found = false;
      for (int j = 0; j < x->dimensions.n; j++) found |= x->dimensions.v[j] == in->dimensions.v[i];
      if (!found) return NULL;
    }
    *out = x->operands[0];
  }
  return NULL;
}

/* copy/bitcast with the operand's exact shape -> the operand (the walk
 * checks layouts); copy(copy(y)) -> copy(y); bitcast(bitcast(y)) ->
 * bitcast(y) (the bytes never change). */
static cxla_status rule_copy_bitcast(Simp *s, Instr *in, Instr **out) {
  Instr *x = in->operands[0];
  if (shape_equal(x->shape, in->shape, true)) return (*out = x), NULL;
  if (x->op == in->op) {
    Instr *y = x->operands[0];
    if (shape_equal(y->shape, in->shape, true)) return (*out = y), NULL;
    if (!(*out = simp_new(s, in->op, in->shape, 1, &y))) return cxla_oom();
  }
  return NULL;
}

/* dynamic-slice of the whole operand -> x; with constant start indices ->
 * slice, the starts clamped into range exactly as dynamic-slice does. */
static cxla_status rule_dynamic_slice(Simp *s, Instr *in, Instr **out) {
  Instr *x = in->operands[0];
  int r = x->shape->rank;
  if (in->noperands != 1 + r || r > 64 || in->shape->rank != r) return NULL;
  if (same_dims(x->shape, in->shape)) return (*out = x), NULL;
  SliceDim dims[64];
  for (int i = 0; i < r; i++) {
    const Instr *si = in->operands[1 + i];
    if (si->shape->rank != 0 || si->op != OP_CONSTANT || !as_uniform(si)) return NULL;
    int64_t v = literal_get_i64(si->literal, 0);
    int64_t size = in->shape->dims[i], hi = x->shape->dims[i] - size;
    if (type_kind(si->shape->type) == TK_UINT && v < 0) v = hi; /* u64 past 2^63 */
    int64_t start = v < 0 ? 0 : v > hi ? hi : v;
    dims[i] = (SliceDim){start, start + size, 1};
  }
  if (!(*out = new_slice(s, in->shape, x, dims))) return cxla_oom();
  return NULL;
}

/* dynamic-update-slice whose update covers the whole operand -> update
 * (every start index is clamped to 0). */
static cxla_status rule_dynamic_update_slice(Simp *s, Instr *in, Instr **out) {
  (void)s;
  if (in->noperands < 2) return NULL;
  Instr *upd = in->operands[1];
  if (same_dims(upd->shape, in->shape)) *out = upd;
  return NULL;
}

cxla_status algsimp_shapes(Simp *s, Instr *in, Instr **out) {
  if (!type_is_array(in->shape->type) || in->noperands < 1) return NULL;
  switch (in->op) {
  case OP_RESHAPE: return rule_reshape(s, in, out);
  case OP_TRANSPOSE: return rule_transpose(s, in, out);
  case OP_BROADCAST: return rule_broadcast(s, in, out);
  case OP_SLICE: return rule_slice(s, in, out);
  case OP_PAD: return rule_pad(s, in, out);
  case OP_CONCATENATE: return rule_concatenate(s, in, out);
  case OP_REVERSE: return rule_reverse(s, in, out);
  case OP_COPY: case OP_BITCAST: return rule_copy_bitcast(s, in, out);
  case OP_DYNAMIC_SLICE: return rule_dynamic_slice(s, in, out);
  case OP_DYNAMIC_UPDATE_SLICE: return rule_dynamic_update_slice(s, in, out);
  default: return NULL;
  }
}
