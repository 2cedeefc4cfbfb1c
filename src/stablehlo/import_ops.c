/* StableHLO -> HLO: one handler per StableHLO op (see import.c for while,
 * case/if, calls and composites). */
#include <stdio.h>
#include <string.h>

#include "stablehlo/import_internal.h"

static cxla_status result_shape(Scope *s, const MlirOp *op, Shape **out) {
  if (op->nresults == 1) return imp_shape(s->imp, op, op->results[0].type, out);
  Arena *a = &s->imp->hm->arena;
  Shape **el = arena_array(a, (size_t)(op->nresults ? op->nresults : 1), sizeof(Shape *));
  IMP_NN(el);
  for (int k = 0; k < op->nresults; k++) TRY(imp_shape(s->imp, op, op->results[k].type, &el[k]));
  *out = shape_new_tuple(a, op->nresults, el);
  IMP_NN(*out);
  return NULL;
}

/* The op's result shape, all its operands, no attributes. */
static cxla_status simple(Scope *s, const MlirOp *op, Instr **ops, Opcode hop, Instr **out) {
  Shape *sh;
  TRY(result_shape(s, op, &sh));
  *out = ib(s, hop, sh, imp_nops(s->imp, op), ops);
  IMP_NN(*out);
  return NULL;
}

#define SIMPLE(fname, HOP)                                                  \
  static cxla_status fname(Scope *s, const MlirOp *op, Instr **ops, Instr **out) { \
    return simple(s, op, ops, OP_##HOP, out);                               \
  }

SIMPLE(h_abs, ABS)
SIMPLE(h_cbrt, CBRT)
SIMPLE(h_ceil, CEIL)
SIMPLE(h_cos, COS)
SIMPLE(h_clz, CLZ)
SIMPLE(h_exp, EXP)
SIMPLE(h_expm1, EXPM1)
SIMPLE(h_floor, FLOOR)
SIMPLE(h_imag, IMAG)
SIMPLE(h_is_finite, IS_FINITE)
SIMPLE(h_log, LOG)
SIMPLE(h_log1p, LOG1P)
SIMPLE(h_logistic, LOGISTIC)
SIMPLE(h_negate, NEGATE)
SIMPLE(h_not, NOT)
SIMPLE(h_popcnt, POPCNT)
SIMPLE(h_real, REAL)
SIMPLE(h_rafz, ROUND_NEAREST_AFZ)
SIMPLE(h_reven, ROUND_NEAREST_EVEN)
SIMPLE(h_rsqrt, RSQRT)
SIMPLE(h_sign, SIGN)
SIMPLE(h_sin, SIN)
SIMPLE(h_sqrt, SQRT)
SIMPLE(h_tan, TAN)
SIMPLE(h_tanh, TANH)
SIMPLE(h_add, ADD)
SIMPLE(h_and, AND)
SIMPLE(h_atan2, ATAN2)
SIMPLE(h_divide, DIVIDE)
SIMPLE(h_max, MAXIMUM)
SIMPLE(h_min, MINIMUM)
SIMPLE(h_mul, MULTIPLY)
SIMPLE(h_or, OR)
SIMPLE(h_pow, POWER)
SIMPLE(h_rem, REMAINDER)
SIMPLE(h_shl, SHIFT_LEFT)
SIMPLE(h_sra, SHIFT_RIGHT_ARITHMETIC)
SIMPLE(h_srl, SHIFT_RIGHT_LOGICAL)
SIMPLE(h_sub, SUBTRACT)
SIMPLE(h_xor, XOR)
SIMPLE(h_complex, COMPLEX)
SIMPLE(h_convert, CONVERT)
SIMPLE(h_bitcast_convert, BITCAST_CONVERT)
SIMPLE(h_reshape, RESHAPE)
SIMPLE(h_clamp, CLAMP)
SIMPLE(h_dus, DYNAMIC_UPDATE_SLICE)
SIMPLE(h_after_all, AFTER_ALL)
SIMPLE(h_replica_id, REPLICA_ID)
SIMPLE(h_partition_id, PARTITION_ID)

static cxla_status h_tuple(Scope *s, const MlirOp *op, Instr **ops, Instr **out) {
  *out = ib_tuple(s, op->noperands, ops);
  IMP_NN(*out);
  return NULL;
}

static cxla_status h_gte(Scope *s, const MlirOp *op, Instr **ops, Instr **out) {
  int64_t i;
  TRY(attr_int(s->imp, op, "index", true, 0, &i));
  if (op->noperands != 1 || ops[0]->shape->type != T_TUPLE || i < 0 || i >= ops[0]->shape->ntuple)
    return imp_err(s->imp, op, CXLA_INVALID_ARGUMENT, "bad tuple index %lld", (long long)i);
  *out = ib_gte(s, ops[0], (int)i);
  IMP_NN(*out);
  return NULL;
}

static cxla_status h_select(Scope *s, const MlirOp *op, Instr **ops, Instr **out) {
  if (op->noperands != 3) return imp_err(s->imp, op, CXLA_INVALID_ARGUMENT, "select takes 3 operands");
  Shape *sh;
  TRY(result_shape(s, op, &sh));
  Instr *pred = ops[0];
  if (pred->shape->rank == 0 && sh->rank > 0) { /* a scalar predicate selects whole arrays */
    Shape *ps = shape_with_type(s, sh, T_PRED);
    IMP_NN(ps);
    pred = ib(s, OP_BROADCAST, ps, 1, &pred);
    IMP_NN(pred);
    pred->attrs |= A_DIMENSIONS;
  }
  Instr *o[3] = {pred, ops[1], ops[2]};
  *out = ib(s, OP_SELECT, sh, 3, o);
  IMP_NN(*out);
  return NULL;
}

static cxla_status dense_literal(Imp *im, const MlirOp *op, const MlirAttr *v, Literal **out) {
  Shape *sh;
  TRY(imp_shape(im, op, v->type, &sh));
  Literal *l = NULL;
  TRY(literal_create(sh->type, sh->rank, sh->dims, &l));
  size_t eb = (size_t)type_bytes(sh->type);
  int src_eb = mlir_elem_bytes(v->type->element);
  if ((size_t)src_eb != eb) {
    literal_free(l);
    return imp_err(im, op, CXLA_INTERNAL, "constant element size");
  }
  if (v->splat) {
    if (v->nbytes < eb) {
      literal_free(l);
      return imp_err(im, op, CXLA_INVALID_ARGUMENT, "short splat");
    }
    for (int64_t k = 0; k < l->nelems; k++) memcpy((uint8_t *)l->data + (size_t)k * eb, v->data, eb);
  } else {
    if (v->nbytes != (size_t)l->nelems * eb) {
      literal_free(l);
      return imp_err(im, op, CXLA_INVALID_ARGUMENT, "constant has %zu bytes, expected %lld",
                     v->nbytes, (long long)l->nelems * (long long)eb);
    }
    if (v->nbytes) memcpy(l->data, v->data, v->nbytes);
  }
  *out = l;
  return NULL;
}

static cxla_status h_constant(Scope *s, const MlirOp *op, Instr **ops, Instr **out) {
  const MlirAttr *v = mlir_op_attr(op, "value");
  if (!v || v->kind != MA_DENSE)
    return imp_err(s->imp, op, CXLA_UNIMPLEMENTED, "constant value must be dense<...>");
  if (v->splat && v->type->rank > 0) {
    /* A splat is one scalar broadcast: its size is not materialised. */
    MlirType scalar = *v->type;
    scalar.rank = 0;
    MlirAttr sv = *v;
    sv.type = &scalar;
    sv.splat = false;
    Literal *l = NULL;
    TRY(dense_literal(s->imp, op, &sv, &l));
    TRY(module_own_literal(s->imp->hm, l));
    Shape *ss, *sh;
    TRY(imp_shape(s->imp, op, &scalar, &ss));
    TRY(imp_shape(s->imp, op, v->type, &sh));
    Instr *c = ib(s, OP_CONSTANT, ss, 0, NULL);
    IMP_NN(c);
    c->literal = l;
    *out = ib(s, OP_BROADCAST, sh, 1, &c);
    IMP_NN(*out);
    (*out)->attrs |= A_DIMENSIONS;
    return NULL;
  }
  Literal *l = NULL;
  TRY(dense_literal(s->imp, op, v, &l));
  TRY(module_own_literal(s->imp->hm, l));
  Shape *sh;
  TRY(imp_shape(s->imp, op, v->type, &sh));
  *out = ib(s, OP_CONSTANT, sh, 0, NULL);
  IMP_NN(*out);
  (*out)->literal = l;
  return NULL;
}

static cxla_status h_iota(Scope *s, const MlirOp *op, Instr **ops, Instr **out) {
  TRY(simple(s, op, ops, OP_IOTA, out));
  TRY(attr_int(s->imp, op, "iota_dimension", true, 0, &(*out)->index));
  (*out)->attrs |= A_IOTA_DIM;
  return NULL;
}

static cxla_status h_compare(Scope *s, const MlirOp *op, Instr **ops, Instr **out) {
  const MlirAttr *d = attr_of(op, "comparison_direction", MA_ENUM);
  if (!d) return imp_err(s->imp, op, CXLA_INVALID_ARGUMENT, "missing comparison_direction");
  static const char *const dirs[] = {"", "EQ", "NE", "LT", "LE", "GT", "GE"};
  CmpDir dir = CMP_NONE;
  for (int k = 1; k <= 6; k++)
    if (!strcmp(d->str, dirs[k])) dir = (CmpDir)k;
  if (dir == CMP_NONE) return imp_err(s->imp, op, CXLA_INVALID_ARGUMENT, "bad direction");
  TRY(simple(s, op, ops, OP_COMPARE, out));
  (*out)->cmp_dir = dir;
  const MlirAttr *t = attr_of(op, "compare_type", MA_ENUM);
  (*out)->cmp_type = t && !strcmp(t->str, "TOTALORDER") ? CMPT_TOTALORDER : CMPT_DEFAULT;
  (*out)->attrs |= A_COMPARE;
  return NULL;
}

static cxla_status with_dims(Scope *s, const MlirOp *op, Instr **ops, Opcode hop,
                             const char *attr, Instr **out) {
  TRY(simple(s, op, ops, hop, out));
  TRY(attr_i64s(s->imp, op, attr, true, &(*out)->dimensions));
  (*out)->attrs |= A_DIMENSIONS;
  return NULL;
}

/* StableHLO's broadcast_in_dim may stretch size-1 dimensions; HLO's
 * broadcast may not: those dimensions are reshaped away first (as XLA's
 * converter does). */
static cxla_status h_broadcast_in_dim(Scope *s, const MlirOp *op, Instr **ops, Instr **out) {
  Imp *im = s->imp;
  I64List d;
  TRY(attr_i64s(im, op, "broadcast_dimensions", true, &d));
  Shape *rs;
  TRY(result_shape(s, op, &rs));
  if (op->noperands != 1) return imp_err(im, op, CXLA_INVALID_ARGUMENT, "expected 1 operand");
  return imp_broadcast_in_dim(s, op, ops[0], rs, d, out);
}

cxla_status imp_broadcast_in_dim(Scope *s, const MlirOp *op, Instr *x, Shape *rs, I64List d,
                                 Instr **out) {
  Imp *im = s->imp;
  const Shape *xs = x->shape;
  if (d.n != xs->rank || rs->type == T_TUPLE)
    return imp_err(im, op, CXLA_INVALID_ARGUMENT, "broadcast_dimensions must have %d entries",
                   xs->rank);
  int keep = 0;
  for (int k = 0; k < d.n; k++) {
    if (d.v[k] < 0 || d.v[k] >= rs->rank)
      return imp_err(im, op, CXLA_INVALID_ARGUMENT, "broadcast dimension out of range");
    if (!(xs->dims[k] == 1 && rs->dims[d.v[k]] != 1)) keep++;
  }
  if (keep != d.n) {
    int64_t *nd = arena_array(&im->hm->arena, (size_t)(keep ? keep : 1), sizeof(int64_t));
    int64_t *nm = arena_array(&im->hm->arena, (size_t)(keep ? keep : 1), sizeof(int64_t));
    IMP_NN(nd);
    IMP_NN(nm);
    int j = 0;
    for (int k = 0; k < d.n; k++)
      if (!(xs->dims[k] == 1 && rs->dims[d.v[k]] != 1)) {
        nd[j] = xs->dims[k];
        nm[j++] = d.v[k];
      }
    Shape *ss = shape_new(&im->hm->arena, xs->type, keep, nd);
    IMP_NN(ss);
    TRY(shape_set_default_layout(&im->hm->arena, ss));
    x = ib(s, OP_RESHAPE, ss, 1, &x);
    IMP_NN(x);
    d.n = keep;
    d.v = nm;
  }
  *out = ib(s, OP_BROADCAST, rs, 1, &x);
  IMP_NN(*out);
  (*out)->dimensions = d;
  (*out)->attrs |= A_DIMENSIONS;
  return NULL;
}
static cxla_status h_transpose(Scope *s, const MlirOp *op, Instr **ops, Instr **out) {
  return with_dims(s, op, ops, OP_TRANSPOSE, "permutation", out);
}
static cxla_status h_reverse(Scope *s, const MlirOp *op, Instr **ops, Instr **out) {
  return with_dims(s, op, ops, OP_REVERSE, "dimensions", out);
}

static cxla_status one_dim(Scope *s, const MlirOp *op, Instr *in, const char *attr) {
  int64_t d;
  TRY(attr_int(s->imp, op, attr, true, 0, &d));
  in->dimensions.n = 1;
  in->dimensions.v = arena_i64dup(&s->imp->hm->arena, &d, 1);
  IMP_NN(in->dimensions.v);
  in->attrs |= A_DIMENSIONS;
  return NULL;
}

static cxla_status h_concatenate(Scope *s, const MlirOp *op, Instr **ops, Instr **out) {
  TRY(simple(s, op, ops, OP_CONCATENATE, out));
  return one_dim(s, op, *out, "dimension");
}

static cxla_status h_slice(Scope *s, const MlirOp *op, Instr **ops, Instr **out) {
  I64List st, li, sd;
  TRY(attr_i64s(s->imp, op, "start_indices", true, &st));
  TRY(attr_i64s(s->imp, op, "limit_indices", true, &li));
  TRY(attr_i64s(s->imp, op, "strides", false, &sd));
  if (li.n != st.n || (sd.v && sd.n != st.n))
    return imp_err(s->imp, op, CXLA_INVALID_ARGUMENT, "slice lists differ in length");
  TRY(simple(s, op, ops, OP_SLICE, out));
  SliceDim *d = arena_array(&s->imp->hm->arena, (size_t)(st.n ? st.n : 1), sizeof *d);
  IMP_NN(d);
  for (int k = 0; k < st.n; k++) {
    d[k].start = st.v[k];
    d[k].limit = li.v[k];
    d[k].stride = sd.v ? sd.v[k] : 1;
  }
  (*out)->slice = d;
  (*out)->attrs |= A_SLICE;
  return NULL;
}

static cxla_status h_dynamic_slice(Scope *s, const MlirOp *op, Instr **ops, Instr **out) {
  TRY(simple(s, op, ops, OP_DYNAMIC_SLICE, out));
  TRY(attr_i64s(s->imp, op, "slice_sizes", true, &(*out)->slice_sizes));
  (*out)->attrs |= A_DYN_SLICE_SIZES;
  return NULL;
}

static cxla_status h_pad(Scope *s, const MlirOp *op, Instr **ops, Instr **out) {
  I64List lo, hi, in;
  TRY(attr_i64s(s->imp, op, "edge_padding_low", true, &lo));
  TRY(attr_i64s(s->imp, op, "edge_padding_high", true, &hi));
  TRY(attr_i64s(s->imp, op, "interior_padding", true, &in));
  if (hi.n != lo.n || in.n != lo.n)
    return imp_err(s->imp, op, CXLA_INVALID_ARGUMENT, "padding lists differ in length");
  TRY(simple(s, op, ops, OP_PAD, out));
  PadDim *d = arena_array(&s->imp->hm->arena, (size_t)(lo.n ? lo.n : 1), sizeof *d);
  IMP_NN(d);
  for (int k = 0; k < lo.n; k++) d[k] = (PadDim){lo.v[k], hi.v[k], in.v[k]};
  (*out)->padding = d;
  (*out)->attrs |= A_PADDING;
  return NULL;
}

static cxla_status h_reduce_precision(Scope *s, const MlirOp *op, Instr **ops, Instr **out) {
  TRY(simple(s, op, ops, OP_REDUCE_PRECISION, out));
  TRY(attr_int(s->imp, op, "exponent_bits", true, 0, &(*out)->exponent_bits));
  TRY(attr_int(s->imp, op, "mantissa_bits", true, 0, &(*out)->mantissa_bits));
  (*out)->attrs |= A_REDUCE_PRECISION;
  return NULL;
}

static cxla_status h_fft(Scope *s, const MlirOp *op, Instr **ops, Instr **out) {
  const MlirAttr *t = attr_of(op, "fft_type", MA_ENUM);
  if (!t) return imp_err(s->imp, op, CXLA_INVALID_ARGUMENT, "missing fft_type");
  FftType ft = !strcmp(t->str, "FFT") ? FFT_FFT : !strcmp(t->str, "IFFT") ? FFT_IFFT
             : !strcmp(t->str, "RFFT") ? FFT_RFFT : !strcmp(t->str, "IRFFT") ? FFT_IRFFT : FFT_NONE;
  if (ft == FFT_NONE) return imp_err(s->imp, op, CXLA_INVALID_ARGUMENT, "bad fft_type");
  TRY(simple(s, op, ops, OP_FFT, out));
  (*out)->fft_type = ft;
  TRY(attr_i64s(s->imp, op, "fft_length", true, &(*out)->fft_length));
  (*out)->attrs |= A_FFT;
  return NULL;
}

static cxla_status copy_list(Scope *s, const MlirI64s *src, I64List *dst) {
  dst->n = src->n;
  dst->v = src->n ? arena_i64dup(&s->imp->hm->arena, src->v, (size_t)src->n) : NULL;
  if (src->n && !dst->v) return cxla_oom();
  return NULL;
}

static cxla_status h_dot_general(Scope *s, const MlirOp *op, Instr **ops, Instr **out) {
  const MlirAttr *d = attr_of(op, "dot_dimension_numbers", MA_DOT);
  if (!d) return imp_err(s->imp, op, CXLA_INVALID_ARGUMENT, "missing dot_dimension_numbers");
  TRY(simple(s, op, ops, OP_DOT, out));
  TRY(copy_list(s, &d->dot.lhs_batch, &(*out)->dot.lhs_batch));
  TRY(copy_list(s, &d->dot.rhs_batch, &(*out)->dot.rhs_batch));
  TRY(copy_list(s, &d->dot.lhs_contract, &(*out)->dot.lhs_contract));
  TRY(copy_list(s, &d->dot.rhs_contract, &(*out)->dot.rhs_contract));
  (*out)->attrs |= A_DOT_DIMS;
  return NULL;
}

static cxla_status h_dot(Scope *s, const MlirOp *op, Instr **ops, Instr **out) {
  if (op->noperands != 2) return imp_err(s->imp, op, CXLA_INVALID_ARGUMENT, "dot takes 2 operands");
  TRY(simple(s, op, ops, OP_DOT, out));
  int64_t lc = ops[0]->shape->rank - 1, rc = 0;
  MlirI64s l = {1, &lc}, r = {1, &rc};
  TRY(copy_list(s, &l, &(*out)->dot.lhs_contract));
  TRY(copy_list(s, &r, &(*out)->dot.rhs_contract));
  (*out)->attrs |= A_DOT_DIMS;
  return NULL;
}

/* window fields shared by convolution, reduce_window, select_and_scatter */
static cxla_status window(Scope *s, const MlirOp *op, int n, const int64_t *sizes,
                          const char *strides, const char *lhs, const char *rhs,
                          const char *rev, Instr *in) {
  Imp *im = s->imp;
  I64List st, ld, rd, pad, rv;
  TRY(attr_i64s(im, op, strides, false, &st));
  TRY(attr_i64s(im, op, lhs ? lhs : "", false, &ld));
  TRY(attr_i64s(im, op, rhs ? rhs : "", false, &rd));
  TRY(attr_i64s(im, op, "padding", false, &pad));
  if (im->ov.op == op && im->ov.padding) pad = *im->ov.padding;
  rv.n = 0;
  rv.v = NULL;
  const MlirAttr *ra = rev ? mlir_op_attr(op, rev) : NULL;
  if (ra && ra->kind == MA_DENSE_ARRAY && !ra->floats) {
    rv.n = ra->n;
    rv.v = ra->ints;
  }
  if ((st.v && st.n != n) || (ld.v && ld.n != n) || (rd.v && rd.n != n) ||
      (pad.v && pad.n != 2 * n) || (rv.v && rv.n != n))
    return imp_err(im, op, CXLA_INVALID_ARGUMENT, "window attributes must have %d entries", n);
  WindowDim *w = arena_array(&im->hm->arena, (size_t)(n ? n : 1), sizeof *w);
  IMP_NN(w);
  for (int k = 0; k < n; k++) {
    w[k].size = sizes[k];
    w[k].stride = st.v ? st.v[k] : 1;
    w[k].pad_lo = pad.v ? pad.v[2 * k] : 0;
    w[k].pad_hi = pad.v ? pad.v[2 * k + 1] : 0;
    w[k].lhs_dilate = ld.v ? ld.v[k] : 1;
    w[k].rhs_dilate = rd.v ? rd.v[k] : 1;
    w[k].reversal = rv.v ? rv.v[k] != 0 : false;
  }
  in->window = w;
  in->nwindow = n;
  in->attrs |= A_WINDOW;
  return NULL;
}

static cxla_status h_convolution(Scope *s, const MlirOp *op, Instr **ops, Instr **out) {
  Imp *im = s->imp;
  const MlirAttr *d = attr_of(op, "dimension_numbers", MA_CONV);
  if (!d || imp_nops(im, op) != 2)
    return imp_err(im, op, CXLA_INVALID_ARGUMENT, "convolution needs 2 operands and dimension_numbers");
  const MlirConvDims *c = &d->conv;
  int ns = c->in_spatial.n;
  if (c->k_spatial.n != ns || c->out_spatial.n != ns)
    return imp_err(im, op, CXLA_INVALID_ARGUMENT, "spatial ranks differ");
  const Shape *ks = ops[1]->shape;
  int64_t *sizes = arena_array(&im->hm->arena, (size_t)(ns ? ns : 1), sizeof(int64_t));
  IMP_NN(sizes);
  for (int k = 0; k < ns; k++) {
    if (c->k_spatial.v[k] < 0 || c->k_spatial.v[k] >= ks->rank)
      return imp_err(im, op, CXLA_INVALID_ARGUMENT, "kernel spatial dimension out of range");
    sizes[k] = ks->dims[c->k_spatial.v[k]];
  }
  TRY(simple(s, op, ops, OP_CONVOLUTION, out));
  Instr *in = *out;
  TRY(window(s, op, ns, sizes, "window_strides", "lhs_dilation", "rhs_dilation",
             "window_reversal", in));
  Arena *a = &im->hm->arena;
  ConvDims *cd = &in->conv;
  cd->nspatial = ns;
  cd->in_batch = c->in_batch;
  cd->in_feature = c->in_feature;
  cd->k_in = c->k_in_feature;
  cd->k_out = c->k_out_feature;
  cd->out_batch = c->out_batch;
  cd->out_feature = c->out_feature;
  cd->in_spatial = arena_i64dup(a, c->in_spatial.v, (size_t)ns);
  cd->k_spatial = arena_i64dup(a, c->k_spatial.v, (size_t)ns);
  cd->out_spatial = arena_i64dup(a, c->out_spatial.v, (size_t)ns);
  if (ns && (!cd->in_spatial || !cd->k_spatial || !cd->out_spatial)) return cxla_oom();
  in->attrs |= A_CONV_DIMS;
  TRY(attr_int(im, op, "feature_group_count", false, 1, &in->feature_group_count));
  TRY(attr_int(im, op, "batch_group_count", false, 1, &in->batch_group_count));
  in->attrs |= A_GROUPS;
  return NULL;
}

static cxla_status region_called(Scope *s, const MlirOp *op, Instr *in, int nr) {
  if (op->nregions != nr)
    return imp_err(s->imp, op, CXLA_INVALID_ARGUMENT, "expected %d region(s)", nr);
  Computation *cs[2];
  for (int k = 0; k < nr; k++) TRY(imp_region_comp(s->imp, op, &op->regions[k], &cs[k]));
  if (!set_called(s, in, nr, cs)) return cxla_oom();
  return NULL;
}

static cxla_status h_reduce(Scope *s, const MlirOp *op, Instr **ops, Instr **out) {
  TRY(simple(s, op, ops, OP_REDUCE, out));
  TRY(attr_i64s(s->imp, op, "dimensions", true, &(*out)->dimensions));
  (*out)->attrs |= A_DIMENSIONS;
  return region_called(s, op, *out, 1);
}

static cxla_status h_reduce_window(Scope *s, const MlirOp *op, Instr **ops, Instr **out) {
  I64List wd;
  TRY(attr_i64s(s->imp, op, "window_dimensions", true, &wd));
  TRY(simple(s, op, ops, OP_REDUCE_WINDOW, out));
  TRY(window(s, op, wd.n, wd.v, "window_strides", "base_dilations", "window_dilations", NULL,
             *out));
  return region_called(s, op, *out, 1);
}

static cxla_status h_select_and_scatter(Scope *s, const MlirOp *op, Instr **ops, Instr **out) {
  I64List wd;
  TRY(attr_i64s(s->imp, op, "window_dimensions", true, &wd));
  TRY(simple(s, op, ops, OP_SELECT_AND_SCATTER, out));
  TRY(window(s, op, wd.n, wd.v, "window_strides", NULL, NULL, NULL, *out));
  return region_called(s, op, *out, 2);
}

static cxla_status h_sort(Scope *s, const MlirOp *op, Instr **ops, Instr **out) {
  if (op->noperands < 1) return imp_err(s->imp, op, CXLA_INVALID_ARGUMENT, "no operands");
  TRY(simple(s, op, ops, OP_SORT, out));
  int64_t d;
  TRY(attr_int(s->imp, op, "dimension", false, -1, &d));
  if (d < 0) d += ops[0]->shape->rank;
  (*out)->dimensions.n = 1;
  (*out)->dimensions.v = arena_i64dup(&s->imp->hm->arena, &d, 1);
  IMP_NN((*out)->dimensions.v);
  (*out)->attrs |= A_DIMENSIONS;
  (*out)->is_stable = attr_bool_or(op, "is_stable", false);
  if ((*out)->is_stable) (*out)->attrs |= A_IS_STABLE;
  return region_called(s, op, *out, 1);
}

static cxla_status h_gather(Scope *s, const MlirOp *op, Instr **ops, Instr **out) {
  const MlirAttr *d = attr_of(op, "dimension_numbers", MA_GATHER);
  if (!d) return imp_err(s->imp, op, CXLA_INVALID_ARGUMENT, "missing dimension_numbers");
  TRY(simple(s, op, ops, OP_GATHER, out));
  GatherDims *g = &(*out)->gather;
  TRY(copy_list(s, &d->gather.offset_dims, &g->offset_dims));
  TRY(copy_list(s, &d->gather.collapsed_slice_dims, &g->collapsed_slice_dims));
  TRY(copy_list(s, &d->gather.start_index_map, &g->start_index_map));
  TRY(copy_list(s, &d->gather.operand_batching_dims, &g->operand_batching_dims));
  TRY(copy_list(s, &d->gather.start_indices_batching_dims, &g->start_indices_batching_dims));
  g->index_vector_dim = d->gather.index_vector_dim;
  (*out)->attrs |= A_GATHER_DIMS;
  if (s->imp->ov.op == op && s->imp->ov.slice_sizes)
    (*out)->slice_sizes = *s->imp->ov.slice_sizes;
  else
    TRY(attr_i64s(s->imp, op, "slice_sizes", true, &(*out)->slice_sizes));
  (*out)->attrs |= A_SLICE_SIZES;
  (*out)->indices_are_sorted = attr_bool_or(op, "indices_are_sorted", false);
  if ((*out)->indices_are_sorted) (*out)->attrs |= A_INDICES_SORTED;
  return NULL;
}

static cxla_status h_scatter(Scope *s, const MlirOp *op, Instr **ops, Instr **out) {
  const MlirAttr *d = attr_of(op, "scatter_dimension_numbers", MA_SCATTER);
  if (!d) return imp_err(s->imp, op, CXLA_INVALID_ARGUMENT, "missing scatter_dimension_numbers");
  TRY(simple(s, op, ops, OP_SCATTER, out));
  ScatterDims *g = &(*out)->scatter;
  TRY(copy_list(s, &d->scatter.update_window_dims, &g->update_window_dims));
  TRY(copy_list(s, &d->scatter.inserted_window_dims, &g->inserted_window_dims));
  TRY(copy_list(s, &d->scatter.scatter_dims_to_operand_dims, &g->scatter_dims_to_operand_dims));
  TRY(copy_list(s, &d->scatter.input_batching_dims, &g->input_batching_dims));
  TRY(copy_list(s, &d->scatter.scatter_indices_batching_dims, &g->scatter_indices_batching_dims));
  g->index_vector_dim = d->scatter.index_vector_dim;
  (*out)->attrs |= A_SCATTER_DIMS;
  (*out)->indices_are_sorted = attr_bool_or(op, "indices_are_sorted", false);
  if ((*out)->indices_are_sorted) (*out)->attrs |= A_INDICES_SORTED;
  (*out)->unique_indices = attr_bool_or(op, "unique_indices", false);
  if ((*out)->unique_indices) (*out)->attrs |= A_UNIQUE_INDICES;
  return region_called(s, op, *out, 1);
}

static cxla_status h_map(Scope *s, const MlirOp *op, Instr **ops, Instr **out) {
  TRY(with_dims(s, op, ops, OP_MAP, "dimensions", out));
  return region_called(s, op, *out, 1);
}

static cxla_status h_opt_barrier(Scope *s, const MlirOp *op, Instr **ops, Instr **out) {
  Instr *t = ib_tuple(s, op->noperands, ops);
  IMP_NN(t);
  Instr *b = ib(s, OP_OPT_BARRIER, t->shape, 1, &t);
  IMP_NN(b);
  if (op->nresults == 1) {
    *out = ib_gte(s, b, 0);
    IMP_NN(*out);
  } else {
    *out = b;
  }
  return NULL;
}

static cxla_status h_rng_bit_generator(Scope *s, const MlirOp *op, Instr **ops, Instr **out) {
  TRY(simple(s, op, ops, OP_RNG_BIT_GENERATOR, out));
  const MlirAttr *a = attr_of(op, "rng_algorithm", MA_ENUM);
  (*out)->rng_alg = !a || !strcmp(a->str, "DEFAULT") ? RNGA_DEFAULT
                  : !strcmp(a->str, "THREE_FRY")     ? RNGA_THREE_FRY
                                                     : RNGA_PHILOX;
  (*out)->attrs |= A_RNG;
  return NULL;
}

static cxla_status h_rng(Scope *s, const MlirOp *op, Instr **ops, Instr **out) {
  if (op->noperands < 2) return imp_err(s->imp, op, CXLA_INVALID_ARGUMENT, "expected 3 operands");
  Shape *sh;
  TRY(result_shape(s, op, &sh));
  *out = ib(s, OP_RNG, sh, 2, ops); /* the shape operand is the result type */
  IMP_NN(*out);
  const MlirAttr *a = attr_of(op, "rng_distribution", MA_ENUM);
  (*out)->rng_dist = a && !strcmp(a->str, "NORMAL") ? RNG_NORMAL : RNG_UNIFORM;
  (*out)->attrs |= A_RNG;
  return NULL;
}

static cxla_status h_cholesky(Scope *s, const MlirOp *op, Instr **ops, Instr **out) {
  TRY(simple(s, op, ops, OP_CHOLESKY, out));
  (*out)->chol_lower = attr_bool_or(op, "lower", false);
  (*out)->attrs |= A_CHOLESKY;
  return NULL;
}

static cxla_status h_triangular_solve(Scope *s, const MlirOp *op, Instr **ops, Instr **out) {
  TRY(simple(s, op, ops, OP_TRIANGULAR_SOLVE, out));
  Instr *in = *out;
  in->tri_left_side = attr_bool_or(op, "left_side", false);
  in->tri_lower = attr_bool_or(op, "lower", false);
  in->tri_unit_diagonal = attr_bool_or(op, "unit_diagonal", false);
  const MlirAttr *t = attr_of(op, "transpose_a", MA_ENUM);
  in->tri_transpose = !t || !strcmp(t->str, "NO_TRANSPOSE") ? TRI_NO_TRANSPOSE
                    : !strcmp(t->str, "TRANSPOSE")          ? TRI_TRANSPOSE
                                                            : TRI_ADJOINT;
  in->attrs |= A_TRIANGULAR;
  return NULL;
}

static cxla_status raw_number(Scope *s, const MlirOp *op, Instr *in, const char *name) {
  const MlirAttr *a = mlir_op_attr(op, name);
  if (!a) return imp_err(s->imp, op, CXLA_INVALID_ARGUMENT, "missing attribute '%s'", name);
  char buf[64];
  if (a->kind == MA_FLOAT) snprintf(buf, sizeof buf, "%.17g", a->f);
  else if (a->kind == MA_INT) snprintf(buf, sizeof buf, "%lld", (long long)a->i);
  else return imp_err(s->imp, op, CXLA_INVALID_ARGUMENT, "attribute '%s' must be a number", name);
  return instr_add_raw(s->imp->hm, in, name, buf);
}

static cxla_status batch_norm(Scope *s, const MlirOp *op, Instr **ops, Opcode hop, Instr **out) {
  TRY(simple(s, op, ops, hop, out));
  TRY(raw_number(s, op, *out, "epsilon"));
  return raw_number(s, op, *out, "feature_index");
}
static cxla_status h_bn_inference(Scope *s, const MlirOp *op, Instr **ops, Instr **out) {
  return batch_norm(s, op, ops, OP_BATCH_NORM_INFERENCE, out);
}
static cxla_status h_bn_training(Scope *s, const MlirOp *op, Instr **ops, Instr **out) {
  return batch_norm(s, op, ops, OP_BATCH_NORM_TRAINING, out);
}
static cxla_status h_bn_grad(Scope *s, const MlirOp *op, Instr **ops, Instr **out) {
  return batch_norm(s, op, ops, OP_BATCH_NORM_GRAD, out);
}

/* backend_config as the HLO text form "{key = 76 : ui8, ...}" the LAPACK
 * custom calls read. */
static void config_text(StrBuf *b, const MlirAttr *d) {
  sb_putc(b, '{');
  for (int k = 0; k < d->n; k++) {
    const MlirAttr *v = d->entries[k].value;
    sb_printf(b, "%s%s = ", k ? ", " : "", d->entries[k].name);
    if (v->kind == MA_INT) {
      sb_printf(b, "%lld", (long long)v->i);
      if (v->type) {
        sb_puts(b, " : ");
        mlir_type_print(b, v->type);
      }
    } else if (v->kind == MA_BOOL) {
      sb_puts(b, v->i ? "true" : "false");
    } else if (v->kind == MA_FLOAT) {
      sb_printf(b, "%.17g", v->f);
    } else if (v->kind == MA_STRING) {
      sb_printf(b, "\"%s\"", v->str);
    } else {
      sb_puts(b, "?");
    }
  }
  sb_putc(b, '}');
}

/* custom_call @ApproxTopK (lax.approx_max_k / approx_min_k): operands
 * are N arrays and their N init values, called_computations the sort
 * comparator, mhlo.backend_config {reduction_dim, top_k, ...}. On a CPU it
 * is exact, as XLA's translation makes it: the N arrays sorted together
 * along reduction_dim by the comparator, each sliced to its result's size
 * there (top_k, or the approximate-reduction size JAX computed). */
cxla_status imp_approx_top_k(Scope *s, const MlirOp *op, Instr **ops, Instr **out) {
  Imp *im = s->imp;
  int n = imp_nops(im, op) / 2;
  if (n < 1 || imp_nops(im, op) != 2 * n || op->nresults != n)
    return imp_err(im, op, CXLA_INVALID_ARGUMENT,
                   "ApproxTopK takes N arrays and N init values and has N results");
  const MlirAttr *cc = attr_of(op, "called_computations", MA_ARRAY);
  if (!cc || cc->n != 1 || cc->elems[0]->kind != MA_SYMBOL_REF)
    return imp_err(im, op, CXLA_INVALID_ARGUMENT, "ApproxTopK needs one called computation (the comparator)");
  const MlirAttr *bc = attr_of(op, "mhlo.backend_config", MA_DICT);
  const MlirAttr *rd = bc ? mlir_dict_get(bc, "reduction_dim") : NULL;
  if (!rd || rd->kind != MA_INT) return imp_err(im, op, CXLA_INVALID_ARGUMENT, "ApproxTopK needs reduction_dim in mhlo.backend_config");
  const Shape *in0 = ops[0]->shape;
  int64_t dim = rd->i < 0 ? rd->i + in0->rank : rd->i;
  if (dim < 0 || dim >= in0->rank)
    return imp_err(im, op, CXLA_INVALID_ARGUMENT, "ApproxTopK reduction_dim %lld out of range",
                   (long long)rd->i);
  Computation *cmp;
  TRY(imp_func(im, op, cc->elems[0]->str, &cmp));
  Arena *a = &im->hm->arena;
  Shape *rs;
  TRY(result_shape(s, op, &rs));
  Shape *ss;
  if (n == 1) {
    ss = ops[0]->shape;
  } else {
    Shape **el = arena_array(a, (size_t)n, sizeof(Shape *));
    IMP_NN(el);
    for (int k = 0; k < n; k++) el[k] = ops[k]->shape;
    ss = shape_new_tuple(a, n, el);
    IMP_NN(ss);
  }
  Instr *sorted = ib(s, OP_SORT, ss, n, ops);
  IMP_NN(sorted);
  sorted->dimensions.n = 1;
  sorted->dimensions.v = arena_i64dup(a, &dim, 1);
  IMP_NN(sorted->dimensions.v);
  sorted->attrs |= A_DIMENSIONS;
  if (!set_called(s, sorted, 1, &cmp)) return cxla_oom();
  Instr **parts = arena_array(a, (size_t)n, sizeof(Instr *));
  IMP_NN(parts);
  for (int k = 0; k < n; k++) {
    const Shape *want = n == 1 ? rs : rs->tuple[k];
    const Shape *have = ops[k]->shape;
    if (want->rank != have->rank)
      return imp_err(im, op, CXLA_INVALID_ARGUMENT, "ApproxTopK result %d has rank %d, its operand %d",
                     k, want->rank, have->rank);
    Instr *v = n == 1 ? sorted : ib_gte(s, sorted, k);
    IMP_NN(v);
    SliceDim *d = arena_array(a, (size_t)(have->rank ? have->rank : 1), sizeof *d);
    IMP_NN(d);
    for (int j = 0; j < have->rank; j++) {
      if (want->dims[j] > have->dims[j] || (j != dim && want->dims[j] != have->dims[j]))
        return imp_err(im, op, CXLA_INVALID_ARGUMENT, "ApproxTopK result %d does not fit its operand", k);
      d[j] = (SliceDim){0, want->dims[j], 1};
    }
    Shape *sh = shape_clone(a, want);
    IMP_NN(sh);
    parts[k] = ib(s, OP_SLICE, sh, 1, &v);
    IMP_NN(parts[k]);
    parts[k]->slice = d;
    parts[k]->attrs |= A_SLICE;
  }
  *out = n == 1 ? parts[0] : ib_tuple(s, n, parts);
  IMP_NN(*out);
  return NULL;
}

static cxla_status h_custom_call(Scope *s, const MlirOp *op, Instr **ops, Instr **out) {
  const MlirAttr *t = attr_of(op, "call_target_name", MA_STRING);
  if (!t) return imp_err(s->imp, op, CXLA_INVALID_ARGUMENT, "missing call_target_name");
  ImpFn dyn = imp_dynamic_custom_call(t->str);
  if (dyn) return dyn(s, op, ops, out);
  if (mlir_op_attr(op, "indices_of_shape_operands"))
    TRY(imp_custom_call_shape_operands(s, op, ops));
  if (!strcmp(t->str, "ApproxTopK")) return imp_approx_top_k(s, op, ops, out);
  /* Sharding annotations are identities on one device. */
  if ((!strcmp(t->str, "Sharding") || !strcmp(t->str, "SPMDFullToShardShape") ||
       !strcmp(t->str, "SPMDShardToFullShape")) &&
      op->noperands == 1 && op->nresults == 1) {
    *out = ops[0];
    return NULL;
  }
  TRY(simple(s, op, ops, OP_CUSTOM_CALL, out));
  Instr *in = *out;
  in->custom_call_target = arena_strdup(&s->imp->hm->arena, t->str);
  IMP_NN(in->custom_call_target);
  in->attrs |= A_CUSTOM_CALL;
  const MlirAttr *se = attr_of(op, "has_side_effect", MA_BOOL);
  in->has_side_effect = se && se->i;
  if (in->has_side_effect) in->attrs |= A_SIDE_EFFECT;
  const MlirAttr *bc = mlir_op_attr(op, "mhlo.backend_config");
  if (!bc || bc->kind != MA_DICT) bc = mlir_op_attr(op, "backend_config");
  if (bc && (bc->kind == MA_DICT || (bc->kind == MA_STRING && bc->len))) {
    StrBuf b;
    sb_init(&b);
    if (bc->kind == MA_DICT) config_text(&b, bc);
    else sb_puts(&b, bc->str);
    char *txt = sb_take(&b);
    IMP_NN(txt);
    cxla_status st = instr_add_raw(s->imp->hm, in, "backend_config", txt);
    cxla_free(txt);
    TRY(st);
  }
  return NULL;
}

/* all_reduce etc. on one device (replica groups of one): the identity. */
static cxla_status h_identity(Scope *s, const MlirOp *op, Instr **ops, Instr **out) {
  if (op->noperands == 1) {
    *out = ops[0];
    return NULL;
  }
  *out = ib_tuple(s, op->noperands, ops);
  IMP_NN(*out);
  return NULL;
}

/* all_gather, reduce_scatter, all_to_all, collective_broadcast on one
 * device: each result is its operand (a group of one gathers, scatters and
 * exchanges nothing). A result of another type than its operand's means
 * a group of several devices, which cxla does not have. */
static cxla_status h_collective_identity(Scope *s, const MlirOp *op, Instr **ops, Instr **out) {
  if (op->nresults != op->noperands)
    return imp_err(s->imp, op, CXLA_UNIMPLEMENTED, "%d results of %d operands", op->nresults, op->noperands);
  for (int k = 0; k < op->noperands; k++) {
    Shape *r;
    TRY(imp_shape(s->imp, op, op->results[k].type, &r));
    if (!shape_same_dims(r, ops[k]->shape) || r->type != ops[k]->shape->type)
      return imp_err(s->imp, op, CXLA_UNIMPLEMENTED,
                     "a collective over a group of several devices (cxla runs on one)");
  }
  return h_identity(s, op, ops, out);
}

/* collective_permute on one device: the operand where a pair sends device
 * 0 to itself; else zeros, as XLA gives a device that receives nothing. */
static cxla_status h_collective_permute(Scope *s, const MlirOp *op, Instr **ops, Instr **out) {
  I64List pairs;
  TRY(attr_i64s(s->imp, op, "source_target_pairs", true, &pairs));
  for (int k = 0; k + 1 < pairs.n; k += 2)
    if (pairs.v[k] == 0 && pairs.v[k + 1] == 0) return h_collective_identity(s, op, ops, out);
  if (op->noperands != 1 || op->nresults != 1)
    return imp_err(s->imp, op, CXLA_UNIMPLEMENTED, "collective_permute of %d operands", op->noperands);
  *out = ib_const_i(s, ops[0]->shape->type, 0, ops[0]->shape);
  IMP_NN(*out);
  return NULL;
}

static cxla_status h_get_dimension_size(Scope *s, const MlirOp *op, Instr **ops, Instr **out) {
  TRY(simple(s, op, ops, OP_GET_DIMENSION_SIZE, out));
  return one_dim(s, op, *out, "dimension");
}

static const struct {
  const char *name;
  ImpFn fn;
} table[] = {
    {"abs", h_abs}, {"cbrt", h_cbrt}, {"ceil", h_ceil}, {"cosine", h_cos},
    {"count_leading_zeros", h_clz}, {"exponential", h_exp}, {"exponential_minus_one", h_expm1},
    {"floor", h_floor}, {"imag", h_imag}, {"is_finite", h_is_finite}, {"log", h_log},
    {"log_plus_one", h_log1p}, {"logistic", h_logistic}, {"negate", h_negate}, {"not", h_not},
    {"popcnt", h_popcnt}, {"real", h_real}, {"round_nearest_afz", h_rafz},
    {"round_nearest_even", h_reven}, {"rsqrt", h_rsqrt}, {"sign", h_sign}, {"sine", h_sin},
    {"sqrt", h_sqrt}, {"tan", h_tan}, {"tanh", h_tanh}, {"add", h_add}, {"and", h_and},
    {"atan2", h_atan2}, {"divide", h_divide}, {"maximum", h_max}, {"minimum", h_min},
    {"multiply", h_mul}, {"or", h_or}, {"power", h_pow}, {"remainder", h_rem},
    {"shift_left", h_shl}, {"shift_right_arithmetic", h_sra}, {"shift_right_logical", h_srl},
    {"subtract", h_sub}, {"xor", h_xor}, {"complex", h_complex}, {"convert", h_convert},
    {"bitcast_convert", h_bitcast_convert}, {"reshape", h_reshape}, {"clamp", h_clamp},
    {"dynamic_update_slice", h_dus}, {"after_all", h_after_all}, {"create_token", h_after_all},
    {"replica_id", h_replica_id}, {"partition_id", h_partition_id}, {"tuple", h_tuple},
    {"get_tuple_element", h_gte}, {"select", h_select}, {"constant", h_constant},
    {"iota", h_iota}, {"compare", h_compare}, {"broadcast_in_dim", h_broadcast_in_dim},
    {"transpose", h_transpose}, {"reverse", h_reverse}, {"concatenate", h_concatenate},
    {"slice", h_slice}, {"dynamic_slice", h_dynamic_slice}, {"pad", h_pad},
    {"reduce_precision", h_reduce_precision}, {"fft", h_fft}, {"dot_general", h_dot_general},
    {"dot", h_dot}, {"convolution", h_convolution}, {"reduce", h_reduce},
    {"reduce_window", h_reduce_window}, {"select_and_scatter", h_select_and_scatter},
    {"sort", h_sort}, {"gather", h_gather}, {"scatter", h_scatter}, {"map", h_map},
    {"optimization_barrier", h_opt_barrier}, {"rng_bit_generator", h_rng_bit_generator},
    {"rng", h_rng}, {"cholesky", h_cholesky}, {"triangular_solve", h_triangular_solve},
    {"batch_norm_inference", h_bn_inference}, {"batch_norm_training", h_bn_training},
    {"batch_norm_grad", h_bn_grad}, {"custom_call", h_custom_call},
    {"all_reduce", h_identity}, {"all_gather", h_collective_identity},
    {"reduce_scatter", h_collective_identity}, {"all_to_all", h_collective_identity},
    {"collective_broadcast", h_collective_identity}, {"collective_permute", h_collective_permute},
    {"get_dimension_size", h_get_dimension_size},
};

ImpFn imp_ops_lookup(const char *name) {
  if (strncmp(name, "stablehlo.", 10)) return NULL;
  for (size_t k = 0; k < sizeof table / sizeof table[0]; k++)
    if (!strcmp(name + 10, table[k].name)) return table[k].fn;
  return NULL;
}
