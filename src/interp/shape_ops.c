/* shape_ops.c: the reference semantics of the data-movement ops that only
 * rearrange elements: constant, iota, broadcast, reshape, transpose, slice,
 * concatenate, pad, reverse, copy, bitcast, tuple, get-tuple-element,
 * dynamic-slice, dynamic-update-slice, get/set-dimension-size,
 * dynamic-reshape.
 *
 * Values are logical row-major literals, so every op but bitcast ignores
 * layouts. Element copies are byte-wise (type_bytes), so every element type
 * works. Malformed attributes (bad permutations, slices out of range, ...)
 * give INVALID_ARGUMENT, never an out-of-bounds access. */
#include <string.h>

#include "interp/data_common.h"

#define BAD(...) interp_error(in, CXLA_INVALID_ARGUMENT, __VA_ARGS__)

/* A fresh array literal of the instruction's shape. */
static cxla_status new_array(const Instr *in, Literal **out) {
  const Shape *s = in->shape;
  if (s->type == T_TUPLE || !type_is_array(s->type)) return BAD("result is not an array");
  TRY(check_rank(in, s->rank));
  return literal_create(s->type, s->rank, s->dims, out);
}

/* The result array, checked to have the operand's element type. */
static cxla_status new_array_like(const Instr *in, const Literal *op, Literal **out) {
  if (in->shape->type != op->type)
    return BAD("result type %s differs from operand type %s", type_name(in->shape->type),
               type_name(op->type));
  return new_array(in, out);
}

static cxla_status eval_constant(const Instr *in, Literal **out) {
  if (!in->literal) return BAD("constant without a value");
  if (in->literal->unknown)
    return interp_error(in, CXLA_FAILED_PRECONDITION, "constant has elided contents {...}");
  return literal_clone(in->literal, out);
}

static cxla_status eval_iota(const Instr *in, Literal **out) {
  TRY(new_array(in, out));
  Literal *r = *out;
  int64_t d = in->index;
  if (d < 0 || d >= r->rank) {
    literal_free(r);
    *out = NULL;
    return BAD("iota_dimension %lld out of range", (long long)d);
  }
  int64_t strides[DATA_MAX_RANK];
  row_major_strides(r->rank, r->dims, strides);
  for (int64_t i = 0; i < r->nelems; i++) literal_set_i64(r, i, (i / strides[d]) % r->dims[d]);
  return NULL;
}

static cxla_status eval_broadcast(const Instr *in, const Literal *op, Literal **out) {
  TRY(check_array(in, op, "operand"));
  const Shape *s = in->shape;
  if (in->dimensions.n != op->rank) return BAD("broadcast dimensions do not match operand rank");
  int64_t sstride[DATA_MAX_RANK] = {0}, opstride[DATA_MAX_RANK], dstride[DATA_MAX_RANK];
  row_major_strides(op->rank, op->dims, opstride);
  for (int i = 0; i < op->rank; i++) {
    int64_t d = in->dimensions.v[i];
    if (d < 0 || d >= s->rank || s->dims[d] != op->dims[i])
      return BAD("broadcast dimension %d maps to a mismatching output dimension", i);
    if (i > 0 && d <= in->dimensions.v[i - 1]) return BAD("broadcast dimensions not increasing");
  }
  TRY(new_array_like(in, op, out));
  Literal *r = *out;
  for (int i = 0; i < op->rank; i++) sstride[in->dimensions.v[i]] = opstride[i];
  row_major_strides(r->rank, r->dims, dstride);
  if (r->nelems)
    strided_copy(r->rank, r->dims, r->data, dstride, op->data, sstride, type_bytes(r->type));
  return NULL;
}

/* reshape, dynamic-reshape: same elements in the same row-major order. */
static cxla_status eval_reshape(const Instr *in, const Literal *op, Literal **out) {
  TRY(check_array(in, op, "operand"));
  TRY(new_array_like(in, op, out));
  if ((*out)->nelems != op->nelems) {
    literal_free(*out);
    *out = NULL;
    return BAD("reshape changes the element count");
  }
  if (op->nelems) memcpy((*out)->data, op->data, (size_t)(op->nelems * type_bytes(op->type)));
  return NULL;
}

static cxla_status eval_transpose(const Instr *in, const Literal *op, Literal **out) {
  TRY(check_array(in, op, "operand"));
  const Shape *s = in->shape;
  if (in->dimensions.n != op->rank || s->rank != op->rank)
    return BAD("transpose permutation has the wrong length");
  bool seen[DATA_MAX_RANK] = {false};
  for (int i = 0; i < op->rank; i++) {
    int64_t p = in->dimensions.v[i];
    if (p < 0 || p >= op->rank || seen[p]) return BAD("transpose dimensions are not a permutation");
    seen[p] = true;
  }
  for (int i = 0; i < op->rank; i++)
    if (s->dims[i] != op->dims[in->dimensions.v[i]]) return BAD("transpose result dimension %d mismatches", i);
  TRY(new_array_like(in, op, out));
  Literal *r = *out;
  int64_t opstride[DATA_MAX_RANK], sstride[DATA_MAX_RANK], dstride[DATA_MAX_RANK];
  row_major_strides(op->rank, op->dims, opstride);
  row_major_strides(r->rank, r->dims, dstride);
  for (int i = 0; i < r->rank; i++) sstride[i] = opstride[in->dimensions.v[i]];
  if (r->nelems)
    strided_copy(r->rank, r->dims, r->data, dstride, op->data, sstride, type_bytes(r->type));
  return NULL;
}

static cxla_status eval_slice(const Instr *in, const Literal *op, Literal **out) {
  TRY(check_array(in, op, "operand"));
  const Shape *s = in->shape;
  if (!in->slice || s->rank != op->rank) return BAD("slice attribute missing or of the wrong rank");
  int64_t opstride[DATA_MAX_RANK], sstride[DATA_MAX_RANK], dstride[DATA_MAX_RANK];
  row_major_strides(op->rank, op->dims, opstride);
  int64_t offset = 0;
  for (int i = 0; i < op->rank; i++) {
    SliceDim sd = in->slice[i];
    if (sd.stride < 1 || sd.start < 0 || sd.start > sd.limit || sd.limit > op->dims[i])
      return BAD("slice [%lld:%lld:%lld] is invalid for dimension %d of size %lld",
                 (long long)sd.start, (long long)sd.limit, (long long)sd.stride, i,
                 (long long)op->dims[i]);
    int64_t len = sd.limit - sd.start; /* ceil(len / stride) without overflow */
    if (s->dims[i] != len / sd.stride + (len % sd.stride != 0))
      return BAD("slice result dimension %d mismatches", i);
    offset += sd.start * opstride[i];
    /* A stride only matters when it is taken (then it is < len, and the
     * product stays inside the operand); a single element may come with
     * any stride. */
    sstride[i] = s->dims[i] > 1 ? sd.stride * opstride[i] : 0;
  }
  TRY(new_array_like(in, op, out));
  Literal *r = *out;
  int es = type_bytes(r->type);
  row_major_strides(r->rank, r->dims, dstride);
  if (r->nelems)
    strided_copy(r->rank, r->dims, r->data, dstride, (const char *)op->data + offset * es, sstride, es);
  return NULL;
}

static cxla_status eval_concatenate(const Instr *in, Literal *const *ops, Literal **out) {
  const Shape *s = in->shape;
  if (in->dimensions.n != 1 || in->noperands < 1) return BAD("concatenate needs one dimension");
  int64_t dim = in->dimensions.v[0];
  if (dim < 0 || dim >= s->rank) return BAD("concatenate dimension out of range");
  int64_t total = 0;
  for (int k = 0; k < in->noperands; k++) {
    const Literal *op = ops[k];
    TRY(check_array(in, op, "operand"));
    if (op->rank != s->rank || op->type != s->type) return BAD("operand %d has the wrong rank or type", k);
    for (int i = 0; i < s->rank; i++)
      if (i != dim && op->dims[i] != s->dims[i]) return BAD("operand %d mismatches in dimension %d", k, i);
    total += op->dims[dim];
  }
  if (total != s->dims[dim]) return BAD("concatenated size mismatches the result");
  TRY(new_array(in, out));
  Literal *r = *out;
  int es = type_bytes(r->type);
  int64_t dstride[DATA_MAX_RANK], sstride[DATA_MAX_RANK];
  row_major_strides(r->rank, r->dims, dstride);
  int64_t at = 0;
  for (int k = 0; k < in->noperands; k++) {
    const Literal *op = ops[k];
    row_major_strides(op->rank, op->dims, sstride);
    if (op->nelems)
      strided_copy(op->rank, op->dims, (char *)r->data + at * dstride[dim] * es, dstride, op->data,
                   sstride, es);
    at += op->dims[dim];
  }
  return NULL;
}

/* The distance between consecutive operand elements in the result along a
 * dimension of n elements. With n <= 1 the interior padding is never used,
 * and the verifier does not bound it then (interior + 1 may overflow). */
static int64_t pad_step(const PadDim *p, int64_t n) { return n > 1 ? p->interior + 1 : 1; }

/* pad: out[lo + i*(interior+1)] = op[i] where that lands inside the result;
 * everything else is the padding value. Negative lo/hi crop. */
static cxla_status eval_pad(const Instr *in, Literal *const *ops, Literal **out) {
  const Literal *op = ops[0], *pv = ops[1];
  TRY(check_array(in, op, "operand"));
  TRY(check_array(in, pv, "padding value"));
  const Shape *s = in->shape;
  if (!in->padding || s->rank != op->rank) return BAD("padding attribute missing or of the wrong rank");
  if (pv->nelems != 1 || pv->type != op->type) return BAD("padding value must be a scalar of the operand type");
  int64_t cnt[DATA_MAX_RANK], first[DATA_MAX_RANK];
  bool empty = false;
  for (int i = 0; i < op->rank; i++) {
    PadDim p = in->padding[i];
    if (p.interior < 0) return BAD("negative interior padding");
    int64_t n = op->dims[i], step = pad_step(&p, n);
    /* In the verifier's order, which checked it for overflow. */
    int64_t want = (n > 0 ? (n - 1) * p.interior : 0) + n + p.lo + p.hi;
    if (want != s->dims[i] || want < 0) return BAD("pad result dimension %d mismatches", i);
    /* Operand indices j in [j0, j1) whose destination lo + j*step is in
     * [0, dims). lo and hi may be near the int64 limits (they only have to
     * sum with the rest to a valid size), so: j0 = ceil(-lo / step) as
     * floor((-lo - 1) / step) + 1 (at most n), and dims - lo clamped where
     * it overflows (lo that negative leaves every j < n below the top). */
    int64_t j0 = 0;
    if (p.lo < 0) {
      int64_t q = (-(p.lo + 1)) / step;
      j0 = q >= n ? n : q + 1;
    }
    int64_t room, j1 = n; /* exclusive */
    if (__builtin_sub_overflow(s->dims[i], p.lo, &room)) room = INT64_MAX;
    if (room <= 0) j1 = 0;
    else if ((room - 1) / step + 1 < j1) j1 = (room - 1) / step + 1;
    first[i] = j0;
    cnt[i] = j1 > j0 ? j1 - j0 : 0;
    if (cnt[i] == 0) empty = true;
  }
  TRY(new_array_like(in, op, out));
  Literal *r = *out;
  int es = type_bytes(r->type);
  fill_elems(r->data, r->nelems, pv->data, es);
  if (empty || r->nelems == 0) return NULL;
  int64_t opstride[DATA_MAX_RANK], rstride[DATA_MAX_RANK], dstride[DATA_MAX_RANK];
  row_major_strides(op->rank, op->dims, opstride);
  row_major_strides(r->rank, r->dims, rstride);
  int64_t soff = 0, doff = 0;
  for (int i = 0; i < op->rank; i++) {
    PadDim p = in->padding[i];
    soff += first[i] * opstride[i];
    int64_t step = pad_step(&p, op->dims[i]);
    doff += (p.lo + first[i] * step) * rstride[i];
    dstride[i] = step * rstride[i];
  }
  strided_copy(op->rank, cnt, (char *)r->data + doff * es, dstride, (const char *)op->data + soff * es,
               opstride, es);
  return NULL;
}

static cxla_status eval_reverse(const Instr *in, const Literal *op, Literal **out) {
  TRY(check_array(in, op, "operand"));
  int64_t sstride[DATA_MAX_RANK], dstride[DATA_MAX_RANK];
  row_major_strides(op->rank, op->dims, sstride);
  int64_t offset = 0;
  bool seen[DATA_MAX_RANK] = {false};
  for (int k = 0; k < in->dimensions.n; k++) {
    int64_t d = in->dimensions.v[k];
    if (d < 0 || d >= op->rank || seen[d]) return BAD("reverse dimension %lld invalid", (long long)d);
    seen[d] = true;
    if (op->dims[d] > 0) offset += (op->dims[d] - 1) * sstride[d];
    sstride[d] = -sstride[d];
  }
  TRY(new_array_like(in, op, out));
  Literal *r = *out;
  if (r->nelems != op->nelems) {
    literal_free(r);
    *out = NULL;
    return BAD("reverse changes the shape");
  }
  int es = type_bytes(r->type);
  row_major_strides(r->rank, r->dims, dstride);
  if (r->nelems)
    strided_copy(r->rank, r->dims, r->data, dstride, (const char *)op->data + offset * es, sstride, es);
  return NULL;
}

/* ---- bitcast ---------------------------------------------------------------------- */

/* The strides of a layout: element i's physical position is sum idx*strides.
 * Default layout {rank-1,...,0} when the shape has none. */
static cxla_status layout_strides(const Instr *in, const Shape *s, int rank, const int64_t *dims,
                                  int64_t *strides) {
  bool has = s && s->has_layout && s->minor_to_major && s->rank == rank;
  bool seen[DATA_MAX_RANK] = {false};
  int64_t acc = 1;
  for (int k = 0; k < rank; k++) {
    int64_t d = has ? s->minor_to_major[k] : rank - 1 - k;
    if (d < 0 || d >= rank || seen[d]) return BAD("layout is not a permutation");
    seen[d] = true;
    strides[d] = acc;
    acc *= dims[d];
  }
  return NULL;
}

static bool is_row_major(int rank, const int64_t *dims, const int64_t *strides) {
  int64_t rm[DATA_MAX_RANK];
  row_major_strides(rank, dims, rm);
  for (int i = 0; i < rank; i++)
    if (dims[i] > 1 && rm[i] != strides[i]) return false;
  return true;
}

/* bitcast keeps the physical bytes: lay the operand out in memory by its
 * layout, then read that memory back through the result's shape and layout. */
static cxla_status eval_bitcast(const Instr *in, const Literal *op, Literal **out) {
  TRY(check_array(in, op, "operand"));
  TRY(new_array(in, out));
  Literal *r = *out;
  int ies = type_bytes(op->type), oes = type_bytes(r->type);
  cxla_status s = NULL;
  if (r->nelems * oes != op->nelems * ies) {
    s = BAD("bitcast changes the byte size");
  } else if (ies != oes || (op->type != r->type && (type_bits(op->type) < 8 || type_bits(r->type) < 8))) {
    s = interp_error(in, CXLA_UNIMPLEMENTED, "bitcast between %s and %s", type_name(op->type),
                     type_name(r->type));
  }
  int64_t ps_in[DATA_MAX_RANK], ps_out[DATA_MAX_RANK], rm_in[DATA_MAX_RANK], rm_out[DATA_MAX_RANK];
  if (!s) s = layout_strides(in, in->operands[0]->shape, op->rank, op->dims, ps_in);
  if (!s) s = layout_strides(in, in->shape, r->rank, r->dims, ps_out);
  if (s) {
    literal_free(r);
    *out = NULL;
    return s;
  }
  size_t bytes = (size_t)(op->nelems * ies);
  if (bytes == 0) return NULL;
  bool in_rm = is_row_major(op->rank, op->dims, ps_in), out_rm = is_row_major(r->rank, r->dims, ps_out);
  if (in_rm && out_rm) {
    memcpy(r->data, op->data, bytes);
    return NULL;
  }
  char *phys = op->data;
  if (!in_rm) {
    phys = cxla_malloc(bytes);
    if (!phys) {
      literal_free(r);
      *out = NULL;
      return cxla_oom();
    }
    row_major_strides(op->rank, op->dims, rm_in);
    strided_copy(op->rank, op->dims, phys, ps_in, op->data, rm_in, ies);
  }
  row_major_strides(r->rank, r->dims, rm_out);
  strided_copy(r->rank, r->dims, r->data, rm_out, phys, ps_out, oes);
  if (phys != op->data) cxla_free(phys);
  return NULL;
}

/* ---- tuples ------------------------------------------------------------------------ */

static cxla_status eval_gte(const Instr *in, const Literal *op, Literal **out) {
  if (!op || op->type != T_TUPLE) return BAD("operand is not a tuple");
  if (in->index < 0 || in->index >= op->ntuple)
    return BAD("tuple index %lld out of range (%d elements)", (long long)in->index, op->ntuple);
  return literal_clone(op->tuple[in->index], out);
}

/* ---- dynamic slicing ------------------------------------------------------------- */

/* Start indices of a dynamic-(update-)slice, from operands first..: one
 * integer scalar per dimension (or, in old HLO, one vector of them), each
 * clamped to [0, dims[i] - sizes[i]] as XLA does. */
static cxla_status read_starts(const Instr *in, Literal *const *ops, int first, int rank,
                               const int64_t *dims, const int64_t *sizes, int64_t *starts) {
  int n = in->noperands - first;
  const Literal *vec = NULL;
  if (n == 1 && ops[first] && ops[first]->rank == 1 && rank != 0) vec = ops[first];
  else if (n != rank) return BAD("expected %d start indices, got %d", rank, n);
  if (vec) {
    TRY(check_array(in, vec, "start index vector"));
    if (!type_is_int(vec->type) || vec->dims[0] != rank) return BAD("bad start index vector");
  }
  for (int i = 0; i < rank; i++) {
    int64_t v;
    if (vec) {
      v = index_value(vec, i);
    } else {
      const Literal *l = ops[first + i];
      TRY(check_array(in, l, "start index"));
      if (!type_is_int(l->type) || l->nelems != 1) return BAD("start index %d is not an integer scalar", i);
      v = index_value(l, 0);
    }
    if (sizes[i] < 0 || sizes[i] > dims[i]) return BAD("slice size exceeds dimension %d", i);
    int64_t hi = dims[i] - sizes[i];
    starts[i] = v < 0 ? 0 : v > hi ? hi : v;
  }
  return NULL;
}

static cxla_status eval_dynamic_slice(const Instr *in, Literal *const *ops, Literal **out) {
  const Literal *op = ops[0];
  TRY(check_array(in, op, "operand"));
  const Shape *s = in->shape;
  if (s->rank != op->rank) return BAD("result rank differs from the operand's");
  int64_t starts[DATA_MAX_RANK];
  TRY(read_starts(in, ops, 1, op->rank, op->dims, s->dims, starts));
  TRY(new_array_like(in, op, out));
  Literal *r = *out;
  int es = type_bytes(r->type);
  int64_t sstride[DATA_MAX_RANK], dstride[DATA_MAX_RANK], off = 0;
  row_major_strides(op->rank, op->dims, sstride);
  row_major_strides(r->rank, r->dims, dstride);
  for (int i = 0; i < op->rank; i++) off += starts[i] * sstride[i];
  if (r->nelems)
    strided_copy(r->rank, r->dims, r->data, dstride, (const char *)op->data + off * es, sstride, es);
  return NULL;
}

static cxla_status eval_dynamic_update_slice(const Instr *in, Literal *const *ops, Literal **out) {
  const Literal *op = ops[0], *up = ops[1];
  TRY(check_array(in, op, "operand"));
  TRY(check_array(in, up, "update"));
  if (up->rank != op->rank || up->type != op->type) return BAD("update rank or type differs from the operand's");
  int64_t starts[DATA_MAX_RANK];
  TRY(read_starts(in, ops, 2, op->rank, op->dims, up->dims, starts));
  TRY(new_array_like(in, op, out));
  Literal *r = *out;
  if (r->nelems != op->nelems) {
    literal_free(r);
    *out = NULL;
    return BAD("result shape differs from the operand's");
  }
  int es = type_bytes(r->type);
  if (op->nelems) memcpy(r->data, op->data, (size_t)(op->nelems * es));
  int64_t rstride[DATA_MAX_RANK], ustride[DATA_MAX_RANK], off = 0;
  row_major_strides(r->rank, r->dims, rstride);
  row_major_strides(up->rank, up->dims, ustride);
  for (int i = 0; i < r->rank; i++) off += starts[i] * rstride[i];
  if (up->nelems)
    strided_copy(up->rank, up->dims, (char *)r->data + off * es, rstride, up->data, ustride, es);
  return NULL;
}

static cxla_status eval_get_dimension_size(const Instr *in, const Literal *op, Literal **out) {
  TRY(check_array(in, op, "operand"));
  if (in->dimensions.n != 1 || in->dimensions.v[0] < 0 || in->dimensions.v[0] >= op->rank)
    return BAD("bad dimension");
  TRY(new_array(in, out));
  if ((*out)->nelems != 1 || !type_is_int((*out)->type)) {
    literal_free(*out);
    *out = NULL;
    return BAD("result must be an integer scalar");
  }
  literal_set_i64(*out, 0, op->dims[in->dimensions.v[0]]);
  return NULL;
}

/* ---- dispatch --------------------------------------------------------------------- */

static bool operand_count_ok(const Instr *in) {
  switch (in->op) {
  case OP_CONSTANT: case OP_IOTA: return true;
  case OP_TUPLE: return true;
  case OP_CONCATENATE: return in->noperands >= 1;
  case OP_PAD: case OP_SET_DIMENSION_SIZE: return in->noperands == 2;
  case OP_DYNAMIC_SLICE: return in->noperands >= 1;
  case OP_DYNAMIC_UPDATE_SLICE: return in->noperands >= 2;
  case OP_DYNAMIC_RESHAPE: return in->noperands >= 1;
  default: return in->noperands == 1;
  }
}

cxla_status interp_shape_op(Interp *ip, const Instr *in, Literal *const *ops, Literal **out) {
  (void)ip;
  *out = NULL;
  if (!operand_count_ok(in)) return BAD("wrong number of operands (%d)", in->noperands);
  switch (in->op) {
  case OP_CONSTANT: return eval_constant(in, out);
  case OP_IOTA: return eval_iota(in, out);
  case OP_BROADCAST: return eval_broadcast(in, ops[0], out);
  case OP_RESHAPE: case OP_DYNAMIC_RESHAPE: return eval_reshape(in, ops[0], out);
  case OP_TRANSPOSE: return eval_transpose(in, ops[0], out);
  case OP_SLICE: return eval_slice(in, ops[0], out);
  case OP_CONCATENATE: return eval_concatenate(in, ops, out);
  case OP_PAD: return eval_pad(in, ops, out);
  case OP_REVERSE: return eval_reverse(in, ops[0], out);
  case OP_COPY: return literal_clone(ops[0], out);
  case OP_BITCAST: return eval_bitcast(in, ops[0], out);
  case OP_TUPLE: return literal_tuple_of_clones(ops, in->noperands, out);
  case OP_GET_TUPLE_ELEMENT: return eval_gte(in, ops[0], out);
  case OP_DYNAMIC_SLICE: return eval_dynamic_slice(in, ops, out);
  case OP_DYNAMIC_UPDATE_SLICE: return eval_dynamic_update_slice(in, ops, out);
  case OP_GET_DIMENSION_SIZE: return eval_get_dimension_size(in, ops[0], out);
  case OP_SET_DIMENSION_SIZE: return literal_clone(ops[0], out); /* static shapes: identity */
  default: return interp_error(in, CXLA_UNIMPLEMENTED, "not a shape op");
  }
}
