/* rt_fft.c: the fft op as a runtime routine on raw buffers, planned at
 * compile time (src/interp/fft.c defines the semantics: FFT, IFFT, RFFT,
 * IRFFT over the last 1 to 3 dims, IFFT and IRFFT scaled by 1/n per axis,
 * IRFFT reading entries 0..n/2 of the last dim as a Hermitian spectrum with
 * the imaginary parts of entries 0 and n/2 ignored).
 *
 * Lines are transformed in double precision and rounded once to the result
 * type. A line of length n whose prime factors are all <= 64 runs a
 * mixed-radix decimation-in-time Cooley-Tukey (radix 4 and 2 butterflies,
 * a direct radix-p pass for the other factors; lines of up to 64 that are
 * not powers of two are one direct pass, as in the interpreter); longer
 * prime factors run Bluestein's chirp-z as a power-of-two convolution. Twiddles come from
 * exact integer angles (multiples of pi/2 exactly +-1, +-i), and a
 * multiplication by a twiddle with a zero part is a scaling or rotation,
 * as in XLA:CPU's DUCC, so a NaN stays in the parts it reaches there. */
#include <math.h>
#include <string.h>

#include "cpu/cpu_internal.h"

typedef struct Cx {
  double re, im;
} Cx;

static inline Cx cadd(Cx a, Cx b) { return (Cx){a.re + b.re, a.im + b.im}; }
static inline Cx csub(Cx a, Cx b) { return (Cx){a.re - b.re, a.im - b.im}; }

/* a * w, a rotation or scaling when w has a zero part */
static inline Cx twmul(Cx a, Cx w) {
  if (w.im == 0) return (Cx){a.re * w.re, a.im * w.re};
  if (w.re == 0) return (Cx){-a.im * w.im, a.re * w.im};
  return (Cx){a.re * w.re - a.im * w.im, a.re * w.im + a.im * w.re};
}

/* a * (sign i) */
static inline Cx rot(Cx a, int sign) { return sign > 0 ? (Cx){-a.im, a.re} : (Cx){a.im, -a.re}; }

/* e^{sign 2 pi i j / n} for 0 <= j < n, from the angle reduced to within
 * an eighth of a turn of a multiple of a quarter turn. */
static Cx twiddle(int sign, int64_t j, int64_t n) {
  /* j/n turns = q/4 + r/(4n) turns, |r| <= n/2 */
  int64_t q = (4 * j + n / 2) / n, r = 4 * j - q * n;
  double a = (M_PI / 2) * (double)r / (double)n, c = r ? cos(a) : 1, s = r ? sin(a) : 0;
  Cx z;
  switch (q & 3) {
  case 0: z = (Cx){c, s}; break;
  case 1: z = (Cx){-s, c}; break;
  case 2: z = (Cx){-c, -s}; break;
  default: z = (Cx){s, -c}; break;
  }
  z.im *= sign;
  if (z.re == 0) z.re = 0; /* no -0 */
  if (z.im == 0) z.im = 0;
  return z;
}

#define MAX_RADIX 64
#define MAX_FACTORS 64

typedef struct Line Line;
struct Line {
  int64_t n;
  int sign;
  int nf;
  int64_t fac[2 * MAX_FACTORS]; /* (radix, remaining length) pairs */
  Cx *tw;                       /* n twiddles */
  /* Bluestein: */
  int64_t m;
  Cx *chirp, *bhat;
  Line *sub;                    /* forward transform of length m */
};

static void line_free(Line *l) {
  if (!l) return;
  cxla_free(l->tw);
  cxla_free(l->chirp);
  cxla_free(l->bhat);
  line_free(l->sub);
  cxla_free(l);
}

static Cx *cx_alloc(int64_t n) { return cxla_malloc((size_t)(n > 0 ? n : 1) * sizeof(Cx)); }

static bool is_pow2(int64_t n) { return n > 0 && (n & (n - 1)) == 0; }

/* Factors n into radices (4s first, then 2, 3, 5, ...); false if a prime
 * factor exceeds MAX_RADIX. Short lines that are not powers of two are one
 * radix-n pass, the direct sum, whose NaN placement the interpreter's
 * (which sums them directly) shares. */
static bool factor(Line *l, int64_t n) {
  l->nf = 0;
  if (n <= MAX_RADIX && !is_pow2(n)) {
    l->fac[0] = n;
    l->fac[1] = 1;
    l->nf = 1;
    return true;
  }
  int64_t rest = n;
  int64_t p = 4;
  while (rest > 1) {
    while (rest % p) {
      p = p == 4 ? 2 : p == 2 ? 3 : p + 2;
      if (p > MAX_RADIX || p * p > rest) p = rest;
    }
    if (p > MAX_RADIX || l->nf >= MAX_FACTORS) return false;
    rest /= p;
    l->fac[2 * l->nf] = p;
    l->fac[2 * l->nf + 1] = rest;
    l->nf++;
  }
  return true;
}

static void transform(const Line *l, Cx *line, Cx *scratch);

static cxla_status line_make(int64_t n, int sign, Line **out) {
  *out = NULL;
  Line *l = cxla_calloc(1, sizeof *l);
  if (!l) return cxla_oom();
  l->n = n;
  l->sign = sign;
  if (n <= 1 || factor(l, n)) {
    if (!(l->tw = cx_alloc(n))) goto oom;
    for (int64_t j = 0; j < n; j++) l->tw[j] = twiddle(sign, j, n);
    *out = l;
    return NULL;
  }
  /* Bluestein: X_k = c_k sum_t (x_t c_t) conj(c_{k-t}), c_k = e^{sign pi i k^2 / n} */
  int64_t m = 1;
  while (m < 2 * n - 1) m <<= 1;
  l->m = m;
  l->chirp = cx_alloc(n);
  l->bhat = cx_alloc(m);
  Cx *scratch = cx_alloc(m);
  cxla_status s = l->chirp && l->bhat && scratch ? line_make(m, -1, &l->sub) : cxla_oom();
  if (s) {
    cxla_free(scratch);
    line_free(l);
    return s;
  }
  /* k^2 mod 2n keeps the angle exact: e^{sign 2 pi i (k^2 mod 2n) / 2n} */
  for (int64_t k = 0, sq = 0; k < n; k++) {
    l->chirp[k] = twiddle(sign, sq, 2 * n);
    sq = (sq + 2 * k + 1) % (2 * n); /* (k+1)^2 mod 2n */
  }
  memset(l->bhat, 0, (size_t)m * sizeof(Cx));
  for (int64_t t = 0; t < n; t++) {
    Cx c = {l->chirp[t].re, -l->chirp[t].im};
    l->bhat[t] = c;
    if (t) l->bhat[m - t] = c;
  }
  transform(l->sub, l->bhat, scratch);
  for (int64_t j = 0; j < m; j++) {
    l->bhat[j].re /= (double)m;
    l->bhat[j].im /= (double)m;
  }
  cxla_free(scratch);
  *out = l;
  return NULL;
oom:
  line_free(l);
  return cxla_oom();
}

/* One decimation-in-time level: out holds p transforms of length m (the
 * subsequences in[q + p j]); combines them into one of length p m. */
static void butterfly(const Line *l, Cx *out, int64_t fstride, int64_t p, int64_t m) {
  const Cx *tw = l->tw;
  int sign = l->sign;
  if (p == 2) {
    for (int64_t u = 0; u < m; u++) {
      Cx a = out[u], t = twmul(out[u + m], tw[fstride * u]);
      out[u] = cadd(a, t);
      out[u + m] = csub(a, t);
    }
    return;
  }
  if (p == 4) {
    for (int64_t u = 0; u < m; u++) {
      Cx s0 = out[u], s1 = twmul(out[u + m], tw[fstride * u]);
      Cx s2 = twmul(out[u + 2 * m], tw[2 * fstride * u]), s3 = twmul(out[u + 3 * m], tw[3 * fstride * u]);
      Cx a = cadd(s0, s2), b = csub(s0, s2), c = cadd(s1, s3), d = rot(csub(s1, s3), sign);
      out[u] = cadd(a, c);
      out[u + m] = cadd(b, d);
      out[u + 2 * m] = csub(a, c);
      out[u + 3 * m] = csub(b, d);
    }
    return;
  }
  Cx s[MAX_RADIX];
  int64_t step = fstride * m; /* tw[step * r] = e^{sign 2 pi i r / p} */
  for (int64_t u = 0; u < m; u++) {
    for (int64_t q = 0; q < p; q++) s[q] = twmul(out[u + q * m], tw[fstride * q * u]);
    for (int64_t k = 0; k < p; k++) {
      Cx acc = s[0];
      int64_t r = 0;
      for (int64_t q = 1; q < p; q++) {
        r += k;
        if (r >= p) r -= p;
        acc = cadd(acc, twmul(s[q], tw[step * r]));
      }
      out[u + k * m] = acc;
    }
  }
}

static void rec(const Line *l, Cx *out, const Cx *in, int64_t fstride, const int64_t *f) {
  int64_t p = f[0], m = f[1];
  if (m == 1) {
    for (int64_t q = 0; q < p; q++) out[q] = in[q * fstride];
  } else {
    for (int64_t q = 0; q < p; q++) rec(l, out + q * m, in + q * fstride, fstride * p, f + 2);
  }
  butterfly(l, out, fstride, p, m);
}

/* line[k] <- sum_t line[t] e^{sign 2 pi i k t / n}; scratch holds n (or,
 * for Bluestein, 2 m) values. */
static void transform(const Line *l, Cx *line, Cx *scratch) {
  int64_t n = l->n;
  if (n <= 1) return;
  if (!l->sub) {
    rec(l, scratch, line, 1, l->fac);
    memcpy(line, scratch, (size_t)n * sizeof(Cx));
    return;
  }
  int64_t m = l->m;
  Cx *w = scratch, *s2 = scratch + m;
  for (int64_t t = 0; t < n; t++) w[t] = twmul(line[t], l->chirp[t]);
  memset(w + n, 0, (size_t)(m - n) * sizeof(Cx));
  transform(l->sub, w, s2);
  /* inverse transform as conj(forward(conj)) */
  for (int64_t j = 0; j < m; j++) {
    Cx v = twmul(w[j], l->bhat[j]);
    w[j] = (Cx){v.re, -v.im};
  }
  transform(l->sub, w, s2);
  for (int64_t k = 0; k < n; k++) line[k] = twmul((Cx){w[k].re, -w[k].im}, l->chirp[k]);
}

static int64_t scratch_len(const Line *l) { return l->sub ? 2 * l->m + scratch_len(l->sub) : l->n; }

/* ---- the op ---- */

typedef struct FftPlan {
  FftType type;
  int rank, L;
  int64_t in_dims[8], out_dims[8];
  ElemType in_t, out_t;
  Line *line[3]; /* per transformed axis (the last: for IRFFT the c2r one) */
  int64_t scratch;
} FftPlan;

void rt_fft_free(void *p) {
  FftPlan *f = p;
  if (!f) return;
  for (int i = 0; i < 3; i++) line_free(f->line[i]);
  cxla_free(f);
}

static cxla_status bad(const Instr *in, const char *what) {
  return ERR(INVALID_ARGUMENT, "fft %%%s: %s", in->name, what);
}

cxla_status rt_fft_plan(const Instr *in, void **out) {
  *out = NULL;
  if (in->noperands != 1) return bad(in, "takes 1 operand");
  const Shape *x = in->operands[0]->shape, *rs = in->shape;
  int L = in->fft_length.n, r = x->rank;
  FftType ft = in->fft_type;
  if (!type_is_array(x->type) || x->type == T_TUPLE || L < 1 || L > 3 || L > r || r > 8)
    return bad(in, "fft_length needs 1 to 3 entries, at most the operand's rank");
  bool real_in = ft == FFT_RFFT;
  bool ok_in = real_in ? (x->type == T_F32 || x->type == T_F64) : (x->type == T_C64 || x->type == T_C128);
  if (!ok_in || ft == FFT_NONE) return bad(in, "operand type does not fit the fft_type");
  ElemType want = ft == FFT_RFFT    ? (x->type == T_F64 ? T_C128 : T_C64)
                  : ft == FFT_IRFFT ? (x->type == T_C128 ? T_F64 : T_F32)
                                    : x->type;
  if (rs->type != want || rs->rank != r) return bad(in, "result type or rank does not fit");
  FftPlan *p = cxla_calloc(1, sizeof *p);
  if (!p) return cxla_oom();
  p->type = ft;
  p->rank = r;
  p->L = L;
  p->in_t = x->type;
  p->out_t = rs->type;
  for (int i = 0; i < r; i++) {
    int64_t iw = x->dims[i], ow = x->dims[i];
    if (i >= r - L) {
      int64_t n = in->fft_length.v[i - (r - L)];
      iw = ow = n;
      if (i == r - 1 && ft == FFT_RFFT) ow = n / 2 + 1;
      if (i == r - 1 && ft == FFT_IRFFT) iw = n / 2 + 1;
      if (n < 0 || x->dims[i] != iw || rs->dims[i] != ow) {
        rt_fft_free(p);
        return bad(in, "dimensions do not fit fft_length");
      }
    }
    p->in_dims[i] = x->dims[i];
    p->out_dims[i] = rs->dims[i];
  }
  int sign = ft == FFT_FFT || ft == FFT_RFFT ? -1 : +1;
  for (int a = 0; a < L; a++) {
    int64_t n = in->fft_length.v[a];
    cxla_status s = line_make(n, sign, &p->line[a]);
    if (s) {
      rt_fft_free(p);
      return s;
    }
    int64_t sl = scratch_len(p->line[a]);
    if (sl > p->scratch) p->scratch = sl;
  }
  *out = p;
  return NULL;
}

/* Transforms axis ax of w (complex, dims[rank]) in place, times scale. */
static void do_axis(const Line *l, Cx *w, int rank, const int64_t *dims, int ax, double scale, Cx *line,
                    Cx *scratch) {
  int64_t n = dims[ax], outer = 1, inner = 1;
  if (n == 0) return;
  for (int i = 0; i < ax; i++) outer *= dims[i];
  for (int i = ax + 1; i < rank; i++) inner *= dims[i];
  for (int64_t o = 0; o < outer; o++)
    for (int64_t k = 0; k < inner; k++) {
      Cx *base = w + o * n * inner + k;
      Cx *ln = inner == 1 ? base : line;
      if (inner != 1)
        for (int64_t t = 0; t < n; t++) ln[t] = base[t * inner];
      transform(l, ln, scratch);
      for (int64_t t = 0; t < n; t++) {
        base[t * inner].re = ln[t].re * scale;
        base[t * inner].im = ln[t].im * scale;
      }
    }
}

static void load(const FftPlan *p, const void *src, Cx *w, int64_t n) {
  switch (p->in_t) {
  case T_F32: for (int64_t i = 0; i < n; i++) w[i] = (Cx){((const float *)src)[i], 0}; break;
  case T_F64: for (int64_t i = 0; i < n; i++) w[i] = (Cx){((const double *)src)[i], 0}; break;
  case T_C64:
    for (int64_t i = 0; i < n; i++) w[i] = (Cx){((const float *)src)[2 * i], ((const float *)src)[2 * i + 1]};
    break;
  default:
    for (int64_t i = 0; i < n; i++) w[i] = (Cx){((const double *)src)[2 * i], ((const double *)src)[2 * i + 1]};
    break;
  }
}

static void store_cx(ElemType t, void *dst, int64_t i, Cx v) {
  if (t == T_C64) {
    ((float *)dst)[2 * i] = (float)v.re;
    ((float *)dst)[2 * i + 1] = (float)v.im;
  } else {
    ((double *)dst)[2 * i] = v.re;
    ((double *)dst)[2 * i + 1] = v.im;
  }
}

cxla_status rt_fft_run(const void *plan, RVal *const *ops, RVal **out) {
  const FftPlan *p = plan;
  *out = NULL;
  RVal *r;
  TRY(rval_array(p->out_t, p->rank, p->out_dims, &r));
  int64_t nin = 1, nout = 1;
  for (int i = 0; i < p->rank; i++) nin *= p->in_dims[i], nout *= p->out_dims[i];
  if (nin == 0 || nout == 0) {
    memset(r->lit.data, 0, (size_t)nout * (size_t)type_bytes(p->out_t));
    *out = r;
    return NULL;
  }
  int rank = p->rank, L = p->L;
  int64_t maxn = 1;
  for (int a = 0; a < L; a++) {
    int64_t n = p->line[a]->n;
    if (n > maxn) maxn = n;
  }
  Cx *w = cx_alloc(nin), *line = cx_alloc(maxn), *scratch = cx_alloc(p->scratch);
  if (!w || !line || !scratch) {
    cxla_free(w);
    cxla_free(line);
    cxla_free(scratch);
    rval_unref(r);
    return cxla_oom();
  }
  load(p, ops[0]->lit.data, w, nin);
  if (p->type != FFT_IRFFT) {
    for (int a = 0; a < L; a++) {
      int ax = rank - L + a;
      double scale = p->type == FFT_IFFT ? 1.0 / (double)p->in_dims[ax] : 1.0;
      do_axis(p->line[a], w, rank, p->in_dims, ax, scale, line, scratch);
    }
    /* RFFT keeps the first n/2+1 entries of each last-dim line */
    int64_t n = p->in_dims[rank - 1], m = p->out_dims[rank - 1], lines = nin / n;
    for (int64_t l = 0; l < lines; l++)
      for (int64_t k = 0; k < m; k++) store_cx(p->out_t, r->lit.data, l * m + k, w[l * n + k]);
  } else {
    for (int a = 0; a < L - 1; a++) {
      int ax = rank - L + a;
      do_axis(p->line[a], w, rank, p->in_dims, ax, 1.0 / (double)p->in_dims[ax], line, scratch);
    }
    /* the last dim: Hermitian extension, inverse transform, real part / n */
    const Line *ll = p->line[L - 1];
    int64_t m = p->in_dims[rank - 1], n = p->out_dims[rank - 1], lines = nin / m;
    for (int64_t l = 0; l < lines; l++) {
      const Cx *h = w + l * m;
      for (int64_t k = 0; k < n; k++)
        line[k] = 2 * k <= n ? h[k] : (Cx){h[n - k].re, -h[n - k].im};
      line[0].im = 0;
      if (n % 2 == 0) line[n / 2].im = 0;
      transform(ll, line, scratch);
      for (int64_t t = 0; t < n; t++) {
        double v = line[t].re / (double)n;
        if (p->out_t == T_F32) ((float *)r->lit.data)[l * n + t] = (float)v;
        else ((double *)r->lit.data)[l * n + t] = v;
      }
    }
  }
  cxla_free(w);
  cxla_free(line);
  cxla_free(scratch);
  *out = r;
  return NULL;
}
