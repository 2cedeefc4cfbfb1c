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
 * Everything is computed in double precision and rounded once to the
 * result type; lengths need not be powers of two (short lines use the direct
 * sum, powers of two radix-2, other lengths Bluestein's algorithm; twiddles
 * are tabulated from exact integer angles, +-1 and +-i exactly).
 *
 * NaN and infinity: multiplications by +-1 and +-i are rotations (see cmul),
 * as in DUCC, so a NaN reaches the parts of the outputs that it reaches on
 * XLA:CPU for prime and power-of-two lengths. For lengths with mixed factors
 * (12 = 3 * 4) DUCC's radix passes pass it to some outputs whose direct sum
 * uses only +-1 and +-i (jax: fft of a 12-row with one NaN is NaN + NaN i
 * everywhere but X0, whose imaginary part is 0); cxla gives those a finite
 * part. */
#include <math.h>
#include <string.h>

#include "interp/interp_math.h"

typedef struct Cx {
  double re, im;
} Cx;

/* a * b, where a factor with an exactly zero part (a twiddle of +-1 or +-i)
 * scales or rotates without the products with that zero: XLA:CPU's DUCC does
 * those rotations by swapping and negating, so a NaN or infinite real part
 * stays out of the imaginary part (the FFT of [0, NaN, 2, 3] is
 * [NaN + 0i, -2 + NaN i, NaN + 0i, -2 + NaN i], as jax on CPU gives). */
static inline Cx cmul(Cx a, Cx b) {
  if (b.im == 0) {
    Cx z = {a.re * b.re, a.im * b.re};
    return z;
  }
  if (b.re == 0) {
    Cx z = {-a.im * b.im, a.re * b.im};
    return z;
  }
  Cx z = {a.re * b.re - a.im * b.im, a.re * b.im + a.im * b.re};
  return z;
}

/* e^{sign i pi num / den}, the angle first reduced to [-pi, pi] so that the
 * table is accurate to the last bit or so. */
static Cx expi(int sign, int64_t num, int64_t den) {
  int64_t two = 2 * den;
  num %= two;
  if (num < 0) num += two;
  if (num > den) num -= two;
  if ((2 * num) % den == 0) { /* a multiple of pi/2: exactly +-1 or +-i */
    int64_t q = 2 * num / den; /* -2..2 */
    Cx z = {q == 0 ? 1.0 : (q == 2 || q == -2) ? -1.0 : 0.0,
            q == 1 ? (double)sign : q == -1 ? (double)-sign : 0.0};
    return z;
  }
  double a = M_PI * (double)num / (double)den;
  Cx z = {cos(a), sign * sin(a)};
  return z;
}

/* How one line of length n is transformed:
 *   short lines: the direct O(n^2) sum;
 *   powers of two: iterative radix-2;
 *   other lengths: Bluestein's chirp-z, a convolution done with radix-2
 *   transforms of a power-of-two length m >= 2n - 1. */
enum { LINE_DIRECT, LINE_POW2, LINE_BLUESTEIN };
#define DIRECT_MAX 64

typedef struct LinePlan {
  int64_t n, m;
  int sign, kind;
  Cx *tw;     /* n twiddles e^{sign 2 pi i j / n} (direct, pow2) */
  Cx *tmp;    /* n scratch (direct) */
  Cx *chirp;  /* n: e^{sign pi i k^2 / n} (Bluestein) */
  Cx *bhat;   /* m: forward transform of the conjugate chirp, / m */
  Cx *mtw;    /* m twiddles e^{-2 pi i j / m} */
  Cx *work;   /* m scratch */
} LinePlan;

static bool is_pow2(int64_t n) { return n > 0 && (n & (n - 1)) == 0; }

/* In-place radix-2 transform of a (length n, a power of two) with twiddles
 * tw[j] = e^{s 2 pi i j / n}; conj_tw uses their conjugates (the opposite
 * sign). */
static void fft_pow2(Cx *a, int64_t n, const Cx *tw, bool conj_tw) {
  for (int64_t i = 1, j = 0; i < n; i++) {
    int64_t bit = n >> 1;
    for (; j & bit; bit >>= 1) j ^= bit;
    j |= bit;
    if (i < j) {
      Cx t = a[i];
      a[i] = a[j];
      a[j] = t;
    }
  }
  for (int64_t len = 2; len <= n; len <<= 1) {
    int64_t step = n / len, half = len / 2;
    for (int64_t s = 0; s < n; s += len)
      for (int64_t k = 0; k < half; k++) {
        Cx w = tw[k * step];
        if (conj_tw) w.im = -w.im;
        Cx u = a[s + k], v = cmul(a[s + k + half], w);
        a[s + k].re = u.re + v.re;
        a[s + k].im = u.im + v.im;
        a[s + k + half].re = u.re - v.re;
        a[s + k + half].im = u.im - v.im;
      }
  }
}

static void plan_free(LinePlan *p) {
  cxla_free(p->tw);
  cxla_free(p->tmp);
  cxla_free(p->chirp);
  cxla_free(p->bhat);
  cxla_free(p->mtw);
  cxla_free(p->work);
}

static Cx *cx_array(int64_t n) { return cxla_calloc((size_t)(n > 0 ? n : 1), sizeof(Cx)); }

static cxla_status plan_make(LinePlan *p, int64_t n, int sign) {
  memset(p, 0, sizeof *p);
  p->n = n;
  p->sign = sign;
  p->kind = n <= DIRECT_MAX ? LINE_DIRECT : is_pow2(n) ? LINE_POW2 : LINE_BLUESTEIN;
  if (p->kind != LINE_BLUESTEIN) {
    p->tw = cx_array(n);
    p->tmp = cx_array(n);
    if (!p->tw || !p->tmp) goto oom;
    for (int64_t j = 0; j < n; j++) p->tw[j] = expi(sign, 2 * j, n);
    return NULL;
  }
  int64_t m = 1;
  while (m < 2 * n - 1) m <<= 1;
  p->m = m;
  p->chirp = cx_array(n);
  p->bhat = cx_array(m);
  p->mtw = cx_array(m);
  p->work = cx_array(m);
  if (!p->chirp || !p->bhat || !p->mtw || !p->work) goto oom;
  /* k^2 mod 2n keeps the chirp's angle exact for any k. */
  for (int64_t k = 0; k < n; k++) p->chirp[k] = expi(sign, (k * k) % (2 * n), n);
  for (int64_t j = 0; j < m; j++) p->mtw[j] = expi(-1, 2 * j, m);
  for (int64_t t = 0; t < n; t++) {
    Cx c = {p->chirp[t].re, -p->chirp[t].im};
    p->bhat[t] = c;
    if (t) p->bhat[m - t] = c;
  }
  fft_pow2(p->bhat, m, p->mtw, false);
  for (int64_t j = 0; j < m; j++) {
    p->bhat[j].re /= (double)m;
    p->bhat[j].im /= (double)m;
  }
  return NULL;
oom:
  plan_free(p);
  return cxla_oom();
}

/* line[k] <- sum_t line[t] e^{sign 2 pi i k t / n} */
static void transform_line(LinePlan *p, Cx *line) {
  int64_t n = p->n;
  if (p->kind == LINE_POW2) {
    fft_pow2(line, n, p->tw, false);
  } else if (p->kind == LINE_DIRECT) {
    for (int64_t k = 0; k < n; k++) {
      double re = 0, im = 0;
      int64_t j = 0; /* k*t mod n, kept incrementally */
      for (int64_t t = 0; t < n; t++) {
        Cx v = cmul(line[t], p->tw[j]);
        re += v.re;
        im += v.im;
        j += k;
        if (j >= n) j -= n;
      }
      p->tmp[k].re = re;
      p->tmp[k].im = im;
    }
    memcpy(line, p->tmp, (size_t)n * sizeof(Cx));
  } else {
    /* X_k = c_k sum_t (x_t c_t) conj(c_{k-t}), c_k = e^{sign pi i k^2/n}. */
    int64_t m = p->m;
    memset(p->work, 0, (size_t)m * sizeof(Cx));
    for (int64_t t = 0; t < n; t++) p->work[t] = cmul(line[t], p->chirp[t]);
    fft_pow2(p->work, m, p->mtw, false);
    for (int64_t j = 0; j < m; j++) p->work[j] = cmul(p->work[j], p->bhat[j]);
    fft_pow2(p->work, m, p->mtw, true);
    for (int64_t k = 0; k < n; k++) line[k] = cmul(p->work[k], p->chirp[k]);
  }
}

/* A transform along axis `ax` of a complex buffer with dims[rank] (in
 * place, through a line buffer). scale multiplies every result. */
static cxla_status dft_axis(Cx *buf, int rank, const int64_t *dims, int ax, int sign,
                            double scale) {
  int64_t n = dims[ax], outer = 1, inner = 1;
  if (n == 0) return NULL;
  for (int i = 0; i < ax; i++) outer *= dims[i];
  for (int i = ax + 1; i < rank; i++) inner *= dims[i];
  LinePlan p;
  TRY(plan_make(&p, n, sign));
  Cx *line = cx_array(n);
  if (!line) {
    plan_free(&p);
    return cxla_oom();
  }
  for (int64_t o = 0; o < outer; o++)
    for (int64_t in = 0; in < inner; in++) {
      Cx *base = buf + o * n * inner + in;
      for (int64_t t = 0; t < n; t++) line[t] = base[t * inner];
      transform_line(&p, line);
      for (int64_t k = 0; k < n; k++) {
        base[k * inner].re = line[k].re * scale;
        base[k * inner].im = line[k].im * scale;
      }
    }
  cxla_free(line);
  plan_free(&p);
  return NULL;
}

/* The last dim's complex-to-real inverse: src has lines of m = n/2+1
 * entries, dst lines of n reals. Each line is extended to the Hermitian
 * spectrum X[n-k] = conj(X[k]) with the imaginary parts of X[0] and (n
 * even) X[n/2] dropped, which is exactly what a C2R transform computes, and
 * inverse-transformed; the result is real. */
static cxla_status c2r_last(const Cx *src, int64_t lines, int64_t m, int64_t n, double *dst) {
  if (n == 0) return NULL;
  LinePlan p;
  TRY(plan_make(&p, n, +1));
  Cx *line = cx_array(n);
  if (!line) {
    plan_free(&p);
    return cxla_oom();
  }
  for (int64_t l = 0; l < lines; l++) {
    const Cx *h = src + l * m;
    for (int64_t k = 0; k < n; k++) {
      if (2 * k <= n) {
        line[k] = h[k];
      } else {
        line[k].re = h[n - k].re;
        line[k].im = -h[n - k].im;
      }
    }
    line[0].im = 0;
    if (n % 2 == 0) line[n / 2].im = 0;
    transform_line(&p, line);
    for (int64_t t = 0; t < n; t++) dst[l * n + t] = line[t].re / (double)n;
  }
  cxla_free(line);
  plan_free(&p);
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
