/* Shape rules for fft, cholesky, triangular-solve and the batch-norm ops. */
#include <stdlib.h>
#include <string.h>

#include "verify/infer.h"

cxla_status infer_fft(Arena *a, const Instr *in, Shape **out) {
  TRY(expect_array_operand(a, in, 0));
  TRY(expect_attr(in, A_FFT, "fft_type/fft_length"));
  const Shape *x = OPSHAPE(in, 0);
  const I64List *len = &in->fft_length;
  int n = len->n;
  if (n < 1 || n > 3) return verr("fft_length must have 1 to 3 entries, has %d", n);
  for (int i = 0; i < n; i++)
    if (len->v[i] < 0) return verr("fft_length=%s has a negative length", list_str(a, len->v, n));
  if (x->rank < n) return verr("an FFT of rank %d needs an operand of rank >= %d, got %s", n, n, shape_str(a, x));
  const int64_t *inner = x->dims + (x->rank - n); /* the transformed dims */
  switch (in->fft_type) {
  case FFT_FFT:
  case FFT_IFFT:
    if (!type_is_complex(x->type)) return verr("operand 0 has type %s, expected complex", type_name(x->type));
    for (int i = 0; i < n; i++)
      if (inner[i] != len->v[i])
        return verr("fft_length=%s differs from the operand's inner dims %s",
                    list_str(a, len->v, n), shape_str(a, x));
    return copy_shape(a, x, out);
  case FFT_RFFT:
    if (x->type != T_F32 && x->type != T_F64)
      return verr("operand 0 has type %s, expected f32 or f64", type_name(x->type));
    for (int i = 0; i < n; i++)
      if (inner[i] != len->v[i])
        return verr("fft_length=%s differs from the operand's inner dims %s",
                    list_str(a, len->v, n), shape_str(a, x));
    TRY(retype(a, x, x->type == T_F32 ? T_C64 : T_C128, out));
    if (len->v[n - 1] != 0) (*out)->dims[x->rank - 1] = len->v[n - 1] / 2 + 1;
    return NULL;
  case FFT_IRFFT:
    if (!type_is_complex(x->type)) return verr("operand 0 has type %s, expected complex", type_name(x->type));
    for (int i = 0; i < n - 1; i++)
      if (inner[i] != len->v[i])
        return verr("fft_length=%s differs from the operand's inner dims %s",
                    list_str(a, len->v, n), shape_str(a, x));
    if ((inner[n - 1] != 0 || len->v[n - 1] != 0) && inner[n - 1] != len->v[n - 1] / 2 + 1)
      return verr("IRFFT needs an innermost dimension of fft_length/2+1 = %lld, operand is %s",
                  (long long)(len->v[n - 1] / 2 + 1), shape_str(a, x));
    TRY(retype(a, x, x->type == T_C64 ? T_F32 : T_F64, out));
    (*out)->dims[x->rank - 1] = len->v[n - 1];
    return NULL;
  default:
    return verr("invalid fft_type");
  }
}

/* A batch of square matrices of a floating or complex type. */
static cxla_status check_square(Arena *a, const Shape *x, const char *what) {
  if (!(type_is_float(x->type) || type_is_complex(x->type)))
    return verr("%s has type %s, expected floating point or complex", what, type_name(x->type));
  if (x->rank < 2) return verr("%s must have rank >= 2, got %s", what, shape_str(a, x));
  if (x->dims[x->rank - 1] != x->dims[x->rank - 2])
    return verr("%s must be square in its two minor dimensions, got %s", what, shape_str(a, x));
  return NULL;
}

cxla_status infer_cholesky(Arena *a, const Instr *in, Shape **out) {
  TRY(expect_array_operand(a, in, 0));
  TRY(check_square(a, OPSHAPE(in, 0), "operand 0"));
  return copy_shape(a, OPSHAPE(in, 0), out);
}

cxla_status infer_triangular_solve(Arena *a, const Instr *in, Shape **out) {
  TRY(expect_array_operands(a, in, 0, 2));
  const Shape *m = OPSHAPE(in, 0), *b = OPSHAPE(in, 1);
  TRY(check_square(a, m, "operand 0 (a)"));
  if (b->type != m->type)
    return verr("operand 1 has type %s, expected %s", type_name(b->type), type_name(m->type));
  if (b->rank != m->rank) return verr("operand 1 has rank %d, expected %d", b->rank, m->rank);
  for (int i = 0; i < m->rank - 2; i++)
    if (b->dims[i] != m->dims[i])
      return verr("batch dimensions differ: %s vs %s", shape_str(a, m), shape_str(a, b));
  int shared = in->tri_left_side ? b->rank - 2 : b->rank - 1;
  if (b->dims[shared] != m->dims[m->rank - 1])
    return verr("operand 1 %s does not fit a of %s (left_side=%s)", shape_str(a, b),
                shape_str(a, m), in->tri_left_side ? "true" : "false");
  if (in->tri_transpose < TRI_NO_TRANSPOSE || in->tri_transpose > TRI_ADJOINT)
    return verr("invalid transpose_a");
  return copy_shape(a, b, out);
}

/* feature_index=N, kept as a raw attribute. */
static cxla_status feature_index(const Instr *in, const Shape *x, int64_t *out) {
  const char *s = instr_raw(in, "feature_index");
  if (!s) return verr("missing attribute feature_index");
  char *end;
  long long v = strtoll(s, &end, 10);
  if (end == s || *end) return verr("feature_index=%s is not an integer", s);
  if (x->rank < 1 || v < 0 || v >= x->rank)
    return verr("feature_index=%lld out of range for rank %d", v, x->rank);
  *out = v;
  return NULL;
}

/* Operands [from, to) are vectors of the feature count, in x's type. */
static cxla_status check_feature_vectors(Arena *a, const Instr *in, int from, int to,
                                         const Shape *x, int64_t fi) {
  for (int i = from; i < to; i++) {
    const Shape *v = OPSHAPE(in, i);
    if (v->type != x->type || v->rank != 1 || v->dims[0] != x->dims[fi])
      return verr("operand %d is %s, expected %s[%lld]", i, shape_str(a, v), type_name(x->type),
                  (long long)x->dims[fi]);
  }
  return NULL;
}

/* (x, feature vector, feature vector), the training and grad results. */
static cxla_status norm_triple(Arena *a, const Shape *x, int64_t fi, Shape **out) {
  Shape *el[3];
  TRY(copy_shape(a, x, &el[0]));
  TRY(make_array(a, x->type, 1, &x->dims[fi], &el[1]));
  TRY(make_array(a, x->type, 1, &x->dims[fi], &el[2]));
  return make_tuple(a, 3, el, out);
}

static cxla_status norm_operand(Arena *a, const Instr *in, int64_t *fi) {
  TRY(expect_array_operands(a, in, 0, in->noperands));
  const Shape *x = OPSHAPE(in, 0);
  if (!type_is_float(x->type)) return verr("operand 0 has type %s, expected floating point", type_name(x->type));
  return feature_index(in, x, fi);
}

cxla_status infer_batch_norm_training(Arena *a, const Instr *in, Shape **out) {
  int64_t fi;
  TRY(norm_operand(a, in, &fi));
  TRY(check_feature_vectors(a, in, 1, 3, OPSHAPE(in, 0), fi));
  return norm_triple(a, OPSHAPE(in, 0), fi, out);
}

cxla_status infer_batch_norm_inference(Arena *a, const Instr *in, Shape **out) {
  int64_t fi;
  TRY(norm_operand(a, in, &fi));
  TRY(check_feature_vectors(a, in, 1, 5, OPSHAPE(in, 0), fi));
  return copy_shape(a, OPSHAPE(in, 0), out);
}

cxla_status infer_batch_norm_grad(Arena *a, const Instr *in, Shape **out) {
  int64_t fi;
  TRY(norm_operand(a, in, &fi));
  const Shape *x = OPSHAPE(in, 0), *grad = OPSHAPE(in, 4);
  TRY(check_feature_vectors(a, in, 1, 4, x, fi));
  if (grad->type != x->type || !same_dims(grad, x))
    return verr("operand 4 (the output gradient) is %s, expected %s", shape_str(a, grad), shape_str(a, x));
  return norm_triple(a, x, fi, out);
}
