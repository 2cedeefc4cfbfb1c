/* fft.c: the fft evaluator: FFT, IFFT, RFFT and IRFFT over the last
 * len(fft_length) dimensions (1 to 3).
 *
 *   FFT    X[k] = sum_t x[t] e^{-2 pi i k t / n}           complex -> complex
 *   IFFT   x[t] = 1/n sum_k X[k] e^{+2 pi i k t / n}       complex -> complex
 *   RFFT   the FFT of a real array, keeping the n/2+1 non-redundant
 *          entries of the last dim                          real -> complex
 *   IRFFT  the inverse of RFFT: inverse transforms along the outer dims,
 *          then a complex-to-real transform along the last dim, which reads
 *          only entries 0..n/2 and takes the spectrum as Hermitian along that
 *          dim (so the imaginary parts of entries 0 and n/2 are ignored, as
 *          XLA:CPU's DUCC library does)                    complex -> real
 *
 * Everything is computed in double precision with direct O(n^2) DFTs over
 * exactly tabulated twiddles (index j*k mod n), and rounded once to the
 * result type; lengths need not be powers of two. */
#include <math.h>
#include <string.h>

#include "interp/interp_math.h"

typedef struct Cx {
  double re, im;
} Cx;

/* e^{sign 2 pi i j / n} for j < n. */
static Cx *twiddles(int64_t n, int sign) {
  Cx *t = cxla_malloc((size_t)n * sizeof(Cx));
  if (!t) return NULL;
  for (int64_t j = 0; j < n; j++) {
    /* Reduce the angle to [-pi, pi] first for accuracy. */
    int64_t jj = 2 * j > n ? j - n : j;
    double a = 2.0 * M_PI * (double)jj / (double)n;
    t[j].re = cos(a);
    t[j].im = sign * sin(a);
  }
  return t;
}

/* One direct DFT along axis `ax` of a complex buffer with dims[rank]
 * (in place, through a line buffer). scale multiplies every result. */
static cxla_status dft_axis(Cx *buf, int rank, const int64_t *dims, int ax, int sign,
                            double scale) {
  int64_t n = dims[ax], outer = 1, inner = 1;
  if (n == 0) return NULL;
  for (int i = 0; i < ax; i++) outer *= dims[i];
  for (int i = ax + 1; i < rank; i++) inner *= dims[i];
  Cx *tw = twiddles(n, sign);
  Cx *line = cxla_malloc((size_t)n * sizeof(Cx));
  if (!tw || !line) {
    cxla_free(tw);
    cxla_free(line);
    return cxla_oom();
  }
  for (int64_t o = 0; o < outer; o++)
    for (int64_t in = 0; in < inner; in++) {
      Cx *base = buf + o * n * inner + in;
      for (int64_t t = 0; t < n; t++) line[t] = base[t * inner];
      for (int64_t k = 0; k < n; k++) {
        double re = 0, im = 0;
        int64_t j = 0; /* k*t mod n, kept incrementally */
        for (int64_t t = 0; t < n; t++) {
          re += line[t].re * tw[j].re - line[t].im * tw[j].im;
          im += line[t].re * tw[j].im + line[t].im * tw[j].re;
          j += k;
          if (j >= n) j -= n;
        }
        base[k * inner].re = re * scale;
        base[k * inner].im = im * scale;
      }
    }
  cxla_free(tw);
  cxla_free(line);
  return NULL;
}

/* The last dim's complex-to-real inverse: src has lines of m = n/2+1
 * entries, dst lines of n reals. */
static cxla_status c2r_last(const Cx *src, int64_t lines, int64_t m, int64_t n, double *dst) {
  Cx *tw = twiddles(n ? n : 1, +1);
  if (!tw) return cxla_oom();
  int64_t half = (n - 1) / 2; /* entries with a distinct mirror image */
  for (int64_t l = 0; l < lines; l++) {
    const Cx *h = src + l * m;
    for (int64_t t = 0; t < n; t++) {
      double s = h[0].re;
      int64_t j = 0;
      for (int64_t k = 1; k <= half; k++) {
        j += t;
        if (j >= n) j -= n;
        s += 2 * (h[k].re * tw[j].re - h[k].im * tw[j].im);
      }
      if (n % 2 == 0 && n > 0) s += (t % 2 ? -1 : 1) * h[n / 2].re;
      dst[l * n + t] = s / (double)n;
    }
  }
  cxla_free(tw);
  return NULL;
}

static ElemType complex_of(ElemType t) { return t == T_F64 ? T_C128 : T_C64; }
static ElemType real_of(ElemType t) { return t == T_C128 ? T_F64 : T_F32; }

/* Checks operand and result types and dims against the fft kind. */
static cxla_status fft_check(const Instr *in, const Literal *x) {
  int L = in->fft_length.n, r = x->rank;
  const Shape *rs = in->shape;
  FftType ft = in->fft_type;
  if (L < 1 || L > 3 || L > r)
    return interp_error(in, CXLA_INVALID_ARGUMENT, "fft_length has %d entries for rank %d", L, r);
  bool real_in = ft == FFT_RFFT;
  bool ok_in = real_in ? (x->type == T_F32 || x->type == T_F64)
                       : (x->type == T_C64 || x->type == T_C128);
  if (!ok_in || ft == FFT_NONE)
    return interp_error(in, CXLA_INVALID_ARGUMENT, "bad operand type %s for this fft_type",
                        type_name(x->type));
  ElemType want = ft == FFT_RFFT ? complex_of(x->type)
                : ft == FFT_IRFFT ? real_of(x->type) : x->type;
  if (rs->type != want || rs->rank != r)
    return interp_error(in, CXLA_INVALID_ARGUMENT, "result must be %s of rank %d",
                        type_name(want), r);
  for (int i = 0; i < r; i++) {
    int64_t in_want = x->dims[i], out_want = x->dims[i];
    if (i >= r - L) {
      int64_t n = in->fft_length.v[i - (r - L)];
      if (n < 0) return interp_error(in, CXLA_INVALID_ARGUMENT, "negative fft_length");
      in_want = out_want = n;
      if (i == r - 1 && ft == FFT_RFFT) out_want = n / 2 + 1;
      if (i == r - 1 && ft == FFT_IRFFT) in_want = n / 2 + 1;
    }
    if (x->dims[i] != in_want || rs->dims[i] != out_want)
      return interp_error(in, CXLA_INVALID_ARGUMENT,
                          "dimension %d: operand %lld / result %lld do not fit fft_length", i,
                          (long long)x->dims[i], (long long)rs->dims[i]);
  }
  return NULL;
}

static cxla_status fft_compute(const Instr *in, const Literal *x, Literal *res, Cx *w) {
  int L = in->fft_length.n, r = x->rank;
  FftType ft = in->fft_type;
  for (int64_t i = 0; i < x->nelems; i++) {
    double c[2];
    acc_get_cplx(x, i, x->type == T_F32 ? T_C64 : x->type == T_F64 ? T_C128 : x->type, c);
    w[i].re = c[0];
    w[i].im = c[1];
  }
  if (ft == FFT_FFT || ft == FFT_IFFT || ft == FFT_RFFT) {
    int sign = ft == FFT_IFFT ? +1 : -1;
    for (int a = r - L; a < r; a++)
      TRY(dft_axis(w, r, x->dims, a, sign, ft == FFT_IFFT ? 1.0 / (double)x->dims[a] : 1.0));
    /* Copy out; RFFT keeps the first n/2+1 entries of each last-dim line. */
    int64_t n = x->dims[r - 1], m = res->dims[r - 1], lines = n ? x->nelems / n : 0;
    for (int64_t l = 0; l < lines; l++)
      for (int64_t k = 0; k < m; k++) acc_set_cplx(res, l * m + k, w[l * n + k].re, w[l * n + k].im);
    return NULL;
  }
  /* IRFFT */
  for (int a = r - L; a < r - 1; a++)
    TRY(dft_axis(w, r, x->dims, a, +1, 1.0 / (double)x->dims[a]));
  int64_t m = x->dims[r - 1], n = res->dims[r - 1];
  int64_t lines = m ? x->nelems / m : 0;
  double *out = cxla_malloc((size_t)(res->nelems ? res->nelems : 1) * sizeof(double));
  if (!out) return cxla_oom();
  cxla_status st = c2r_last(w, lines, m, n, out);
  if (!st)
    for (int64_t i = 0; i < res->nelems; i++) literal_set_f64(res, i, out[i]);
  cxla_free(out);
  return st;
}

static cxla_status eval_fft(const Instr *in, Literal *const *ops, Literal **out) {
  if (in->noperands != 1)
    return interp_error(in, CXLA_INVALID_ARGUMENT, "fft takes 1 operand, got %d", in->noperands);
  const Literal *x = ops[0];
  if (!type_is_array(x->type))
    return interp_error(in, CXLA_INVALID_ARGUMENT, "fft operand must be an array");
  TRY(fft_check(in, x));
  Literal *res;
  TRY(literal_create_for_shape(in->shape, &res));
  if (res->nelems == 0 || x->nelems == 0) {
    *out = res;
    return NULL;
  }
  Cx *w = cxla_malloc((size_t)x->nelems * sizeof(Cx));
  cxla_status st = w ? fft_compute(in, x, res, w) : cxla_oom();
  cxla_free(w);
  if (st) {
    literal_free(res);
    return st;
  }
  *out = res;
  return NULL;
}

cxla_status interp_fft(Interp *ip, const Instr *in, Literal *const *ops, Literal **out) {
  (void)ip;
  *out = NULL;
  if (in->op == OP_FFT) return eval_fft(in, ops, out);
  return interp_error(in, CXLA_UNIMPLEMENTED, "%s is not supported by the interpreter",
                      op_name(in->op));
}
