/* random_hlo.h: a generator of random valid HLO modules for differential
 * testing of the optimizer (run before and after the passes on the
 * interpreter, compare). Include after pass_helpers.h.
 *
 * Every value is an array of one shape (T[2,3], T = f32 or s32) or its
 * pred mask; operations that change the shape come in pairs that restore
 * it (reshape there and back, transpose twice, slices concatenated, ...),
 * so any two values can be combined. Constants are drawn from the values
 * the simplifier's rules look for (0, -0, 1, -1, 2, 0.5, infinities), so
 * rules fire -- and must keep the values.
 *
 * random_hlo(seed) returns the module text (cxla_free it). */
#ifndef CXLA_RANDOM_HLO_H
#define CXLA_RANDOM_HLO_H

typedef struct RGen {
  uint64_t s;
  StrBuf b;
  const char *t;   /* "f32" or "s32" */
  bool flt;
  int n;           /* values v0..v(n-1) of shape T[2,3] */
  int npred;       /* pred[2,3] masks m0.. */
  int tmp;         /* temporaries t0.. */
} RGen;

static inline int rg_pick(RGen *g, int n) { return (int)(pt_rand(&g->s) % (uint64_t)n); }
static inline int rg_val(RGen *g) { return rg_pick(g, g->n); }

/* A scalar constant from the interesting set, then broadcast: returns the
 * new value's index. */
static inline int rg_const(RGen *g) {
  static const char *const fl[] = {"0", "-0", "1", "-1", "2", "0.5", "inf", "-inf", "3", "0.25"};
  static const char *const in[] = {"0", "1", "-1", "2", "8", "-2147483648", "2147483647", "3"};
  const char *v = g->flt ? fl[rg_pick(g, 10)] : in[rg_pick(g, 8)];
  sb_printf(&g->b, "  t%d = %s[] constant(%s)\n", g->tmp, g->t, v);
  sb_printf(&g->b, "  v%d = %s[2,3] broadcast(t%d), dimensions={}\n", g->n, g->t, g->tmp);
  g->tmp++;
  return g->n++;
}

static inline void rg_binary(RGen *g, const char *op) {
  int a = rg_val(g), b = rg_pick(g, 3) == 0 ? a : rg_val(g);
  sb_printf(&g->b, "  v%d = %s[2,3] %s(v%d, v%d)\n", g->n++, g->t, op, a, b);
}

static inline void rg_unary(RGen *g, const char *op) {
  sb_printf(&g->b, "  v%d = %s[2,3] %s(v%d)\n", g->n, g->t, op, rg_val(g));
  g->n++;
}

static inline void rg_step(RGen *g) {
  static const char *const fbin[] = {"add", "subtract", "multiply", "divide", "maximum",
                                     "minimum", "power"};
  static const char *const ibin[] = {"add", "subtract", "multiply", "maximum", "minimum", "and",
                                     "or", "xor", "shift-left", "divide", "power"};
  static const char *const dirs[] = {"EQ", "NE", "LT", "LE", "GT", "GE"};
  int k = rg_pick(g, 16);
  int x = rg_val(g);
  const char *t = g->t;
  switch (k) {
  case 0: case 1: case 2:
    if (g->flt) rg_binary(g, fbin[rg_pick(g, 7)]);
    else rg_binary(g, ibin[rg_pick(g, 11)]);
    break;
  case 3: rg_const(g); break;
  case 4: rg_unary(g, rg_pick(g, 2) ? "negate" : (g->flt ? "abs" : "not")); break;
  case 5: { /* compare -> pred mask, then select */
    int y = rg_pick(g, 3) == 0 ? x : rg_val(g);
    sb_printf(&g->b, "  m%d = pred[2,3] compare(v%d, v%d), direction=%s%s\n", g->npred, x, y,
              dirs[rg_pick(g, 6)], g->flt && rg_pick(g, 3) == 0 ? ", type=TOTALORDER" : "");
    g->npred++;
    int a = rg_val(g), b = rg_pick(g, 4) == 0 ? a : rg_val(g);
    int m = rg_pick(g, g->npred);
    if (rg_pick(g, 3) == 0) {
      sb_printf(&g->b, "  m%d = pred[2,3] not(m%d)\n", g->npred, m);
      m = g->npred++;
    }
    sb_printf(&g->b, "  v%d = %s[2,3] select(m%d, v%d, v%d)\n", g->n++, t, m, a, b);
    break;
  }
  case 6: /* reshape there and back */
    sb_printf(&g->b, "  t%d = %s[6] reshape(v%d)\n", g->tmp, t, x);
    sb_printf(&g->b, "  v%d = %s[2,3] reshape(t%d)\n", g->n++, t, g->tmp++);
    break;
  case 7: /* transpose twice */
    sb_printf(&g->b, "  t%d = %s[3,2] transpose(v%d), dimensions={1,0}\n", g->tmp, t, x);
    sb_printf(&g->b, "  v%d = %s[2,3] transpose(t%d), dimensions={1,0}\n", g->n++, t, g->tmp++);
    break;
  case 8: /* split into slices and concatenate them back */
    sb_printf(&g->b, "  t%d = %s[2,1] slice(v%d), slice={[0:2], [0:1]}\n", g->tmp, t, x);
    sb_printf(&g->b, "  t%d = %s[2,2] slice(v%d), slice={[0:2], [1:3]}\n", g->tmp + 1, t, x);
    sb_printf(&g->b, "  v%d = %s[2,3] concatenate(t%d, t%d), dimensions={1}\n", g->n++, t, g->tmp,
              g->tmp + 1);
    g->tmp += 2;
    break;
  case 9: /* convert through a wider or a narrower type and back */
    sb_printf(&g->b, "  t%d = %s[2,3] convert(v%d)\n", g->tmp, g->flt ? (rg_pick(g, 2) ? "f64" : "f16")
                                                                   : (rg_pick(g, 2) ? "s64" : "s8"), x);
    sb_printf(&g->b, "  v%d = %s[2,3] convert(t%d)\n", g->n++, t, g->tmp++);
    break;
  case 10: /* reverse twice, or once */
    sb_printf(&g->b, "  t%d = %s[2,3] reverse(v%d), dimensions={1}\n", g->tmp, t, x);
    sb_printf(&g->b, "  v%d = %s[2,3] reverse(t%d), dimensions={%d}\n", g->n++, t, g->tmp++,
              rg_pick(g, 2));
    break;
  case 11: { /* dynamic-slice with constant starts, padded back */
    int i = rg_pick(g, 3) - 1, j = rg_pick(g, 4);
    sb_printf(&g->b, "  t%d = s32[] constant(%d)\n  t%d = s32[] constant(%d)\n", g->tmp, i,
              g->tmp + 1, j);
    sb_printf(&g->b, "  t%d = %s[1,2] dynamic-slice(v%d, t%d, t%d), dynamic_slice_sizes={1,2}\n",
              g->tmp + 2, t, x, g->tmp, g->tmp + 1);
    sb_printf(&g->b, "  t%d = %s[] constant(%s)\n", g->tmp + 3, t, g->flt ? "-0" : "0");
    sb_printf(&g->b, "  v%d = %s[2,3] pad(t%d, t%d), padding=1_0x0_1\n", g->n++, t, g->tmp + 2,
              g->tmp + 3);
    g->tmp += 4;
    break;
  }
  case 12: { /* reduce a dimension, broadcast back */
    static const char *const red[] = {"sum", "mx", "mn"};
    int r = rg_pick(g, 3);
    const char *init = r == 0 ? (g->flt ? (rg_pick(g, 2) ? "0" : "-0") : "0")
                       : r == 1 ? (g->flt ? "-inf" : "-2147483648")
                                : (g->flt ? "inf" : "2147483647");
    sb_printf(&g->b, "  t%d = %s[] constant(%s)\n", g->tmp, t, init);
    sb_printf(&g->b, "  t%d = %s[2] reduce(v%d, t%d), dimensions={1}, to_apply=%s\n", g->tmp + 1, t,
              x, g->tmp, red[r]);
    sb_printf(&g->b, "  v%d = %s[2,3] broadcast(t%d), dimensions={0}\n", g->n++, t, g->tmp + 1);
    g->tmp += 2;
    break;
  }
  case 13: /* a tuple taken apart */
    sb_printf(&g->b, "  t%d = (%s[2,3], %s[2,3]) tuple(v%d, v%d)\n", g->tmp, t, t, x, rg_val(g));
    sb_printf(&g->b, "  v%d = %s[2,3] get-tuple-element(t%d), index=%d\n", g->n++, t, g->tmp++,
              rg_pick(g, 2));
    break;
  case 14: /* through a called computation */
    sb_printf(&g->b, "  v%d = %s[2,3] call(v%d, v%d), to_apply=helper\n", g->n++, t, x, rg_val(g));
    break;
  default: /* a dot with a transposed operand, squared back to [2,3] via a [3,3] rhs */
    sb_printf(&g->b, "  t%d = %s[3,2] transpose(v%d), dimensions={1,0}\n", g->tmp, t, x);
    sb_printf(&g->b, "  t%d = %s[3,3] dot(t%d, v%d), lhs_contracting_dims={1}, rhs_contracting_dims={0}\n",
              g->tmp + 1, t, g->tmp, rg_val(g));
    sb_printf(&g->b, "  v%d = %s[2,3] dot(v%d, t%d), lhs_contracting_dims={1}, rhs_contracting_dims={0}\n",
              g->n++, t, rg_val(g), g->tmp + 1);
    g->tmp += 2;
    break;
  }
}

static inline char *random_hlo(uint64_t seed) {
  RGen g = {0};
  g.s = seed * 0x9e3779b97f4a7c15ull + 1;
  for (int i = 0; i < 4; i++) pt_rand(&g.s);
  g.flt = rg_pick(&g, 2);
  g.t = g.flt ? "f32" : "s32";
  sb_init(&g.b);
  const char *t = g.t;
  sb_printf(&g.b, "HloModule rnd_%llu\n\n", (unsigned long long)seed);
  const char *ops[] = {"add", "maximum", "minimum"};
  const char *names[] = {"sum", "mx", "mn"};
  for (int i = 0; i < 3; i++)
    sb_printf(&g.b, "%s {\n  a = %s[] parameter(0)\n  b = %s[] parameter(1)\n  ROOT r = %s[] %s(a, b)\n}\n\n",
              names[i], t, t, t, ops[i]);
  sb_printf(&g.b, "helper {\n  a = %s[2,3] parameter(0)\n  b = %s[2,3] parameter(1)\n"
                  "  c = %s[2,3] negate(b)\n  ROOT r = %s[2,3] add(a, c)\n}\n\n", t, t, t, t);
  sb_printf(&g.b, "ENTRY main {\n  v0 = %s[2,3] parameter(0)\n  v1 = %s[2,3] parameter(1)\n", t, t);
  g.n = 2;
  int steps = 8 + rg_pick(&g, 20);
  for (int i = 0; i < steps; i++) rg_step(&g);
  /* The last three values (and a mask if any) are the result. */
  int k = g.n >= 3 ? 3 : g.n;
  sb_printf(&g.b, "  ROOT out = (");
  for (int i = 0; i < k; i++) sb_printf(&g.b, "%s%s[2,3]", i ? ", " : "", t);
  sb_printf(&g.b, ") tuple(");
  for (int i = 0; i < k; i++) sb_printf(&g.b, "%sv%d", i ? ", " : "", g.n - k + i);
  sb_printf(&g.b, ")\n}\n");
  return sb_take(&g.b);
}

#endif
