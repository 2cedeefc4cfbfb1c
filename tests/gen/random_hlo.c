/* A random HLO module generator and the helpers of differential tests.
 * See random_hlo.h. Modules are written as text and parsed by the caller,
 * so the parser and the verifier see every generated construct. */
#include "random_hlo.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "base/base.h"

/* ---- random numbers (splitmix64) --------------------------------------------- */

typedef struct Rng {
  uint64_t s;
} Rng;

static uint64_t rng_next(Rng *r) {
  uint64_t z = (r->s += 0x9e3779b97f4a7c15ull);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
  return z ^ (z >> 31);
}
static int rnd(Rng *r, int n) { return n <= 0 ? 0 : (int)(rng_next(r) % (uint64_t)n); }
static bool chance(Rng *r, int pct) { return rnd(r, 100) < pct; }

/* ---- values and computations being generated ------------------------------------ */

enum { GEN_MAX_RANK = 3, GEN_MAX_VALS = 160, GEN_MAX_ELEMS = 256, GEN_MAX_DEPTH = 2 };

typedef struct GVal {
  char name[16];
  ElemType t;
  int rank;
  int64_t dims[GEN_MAX_RANK + 1];
} GVal;

typedef struct Gen {
  Rng r;
  StrBuf pre;          /* finished computations (callees, reducers) */
  int next_name;       /* module-wide instruction counter */
  int next_comp;
  unsigned reducers;   /* bit (kind * 8 + type slot): reducer emitted */
} Gen;

typedef struct GComp {
  Gen *g;
  StrBuf b;
  GVal v[GEN_MAX_VALS];
  bool used[GEN_MAX_VALS]; /* read by some instruction */
  int n;
  int depth;           /* 0: entry; nested bodies and callees deeper */
} GComp;

static const ElemType kTypes[] = {T_F32, T_F32, T_F32, T_S32, T_S32, T_PRED, T_F64};

static int type_slot(ElemType t) {
  return t == T_F32 ? 0 : t == T_F64 ? 1 : t == T_S32 ? 2 : 3;
}

static int64_t gv_elems(const GVal *v) {
  int64_t n = 1;
  for (int i = 0; i < v->rank; i++) n *= v->dims[i];
  return n;
}

static void put_shape(StrBuf *b, ElemType t, int rank, const int64_t *dims) {
  sb_printf(b, "%s[", type_name(t));
  for (int i = 0; i < rank; i++) sb_printf(b, "%s%lld", i ? "," : "", (long long)dims[i]);
  sb_putc(b, ']');
}

static void put_list(StrBuf *b, int n, const int64_t *v) {
  sb_putc(b, '{');
  for (int i = 0; i < n; i++) sb_printf(b, "%s%lld", i ? "," : "", (long long)v[i]);
  sb_putc(b, '}');
}

/* Starts the line of a new value "  vN = shape " and records the value;
 * the caller appends the rest of the line. Returns its index, or -1 when
 * the computation is full (the caller then writes nothing). */
static int begin_val(GComp *c, ElemType t, int rank, const int64_t *dims) {
  if (c->n >= GEN_MAX_VALS) return -1;
  GVal *v = &c->v[c->n];
  snprintf(v->name, sizeof v->name, "v%d", c->g->next_name++);
  v->t = t;
  v->rank = rank;
  for (int i = 0; i < rank; i++) v->dims[i] = dims[i];
  sb_printf(&c->b, "  %s = ", v->name);
  put_shape(&c->b, t, rank, dims);
  sb_putc(&c->b, ' ');
  return c->n++;
}

/* The name of value i, for use as an operand. */
static const char *nm(GComp *c, int i) {
  c->used[i] = true;
  return c->v[i].name;
}

/* ---- constants ----------------------------------------------------------------------- */

static void put_float(StrBuf *b, double x, ElemType t) {
  if (isnan(x)) sb_puts(b, signbit(x) ? "-nan" : "nan");
  else if (isinf(x)) sb_puts(b, x < 0 ? "-inf" : "inf");
  else if (x == 0) sb_puts(b, signbit(x) ? "-0" : "0");
  else sb_printf(b, t == T_F64 ? "%.17g" : "%.9g", t == T_F64 ? x : (double)(float)x);
}

static void put_scalar_value(Gen *g, StrBuf *b, ElemType t) {
  static const double specials[] = {0.0, -0.0, 1.0, -1.0, 0.5, INFINITY, -INFINITY, NAN,
                                    3.4028234663852886e38, 1e-45, 1.1754943508222875e-38,
                                    1e30, -2.5, 100.0};
  static const int64_t ispecials[] = {0, 1, -1, 2, 7, 31, 32, 33, 2147483647, -2147483647 - 1, 1000};
  if (t == T_PRED) {
    sb_puts(b, chance(&g->r, 50) ? "true" : "false");
  } else if (t == T_S32) {
    if (chance(&g->r, 30)) sb_printf(b, "%lld", (long long)ispecials[rnd(&g->r, 11)]);
    else sb_printf(b, "%d", rnd(&g->r, 41) - 20);
  } else if (chance(&g->r, 25)) {
    put_float(b, specials[rnd(&g->r, 14)], t);
  } else {
    put_float(b, (rnd(&g->r, 2001) - 1000) / 128.0, t);
  }
}

static void put_array_value(Gen *g, StrBuf *b, ElemType t, int rank, const int64_t *dims) {
  if (rank == 0) {
    put_scalar_value(g, b, t);
    return;
  }
  sb_putc(b, '{');
  for (int64_t i = 0; i < dims[0]; i++) {
    if (i) sb_puts(b, ", ");
    put_array_value(g, b, t, rank - 1, dims + 1);
  }
  sb_putc(b, '}');
}

static int gen_constant(GComp *c, ElemType t, int rank, const int64_t *dims) {
  int k = begin_val(c, t, rank, dims);
  if (k < 0) return -1;
  sb_puts(&c->b, "constant(");
  put_array_value(c->g, &c->b, t, rank, dims);
  sb_puts(&c->b, ")\n");
  return k;
}

/* A scalar constant with a given text value. */
static int gen_scalar_text(GComp *c, ElemType t, const char *text) {
  int k = begin_val(c, t, 0, NULL);
  if (k >= 0) sb_printf(&c->b, "constant(%s)\n", text);
  return k;
}

/* ---- shapes -------------------------------------------------------------------------------- */

static void random_dims(Rng *r, int *rank, int64_t *dims) {
  *rank = rnd(r, GEN_MAX_RANK + 1);
  for (int i = 0; i < *rank; i++) dims[i] = chance(r, 3) ? 0 : 1 + rnd(r, 4);
}

static ElemType random_type(Rng *r) { return kTypes[rnd(r, (int)(sizeof kTypes / sizeof kTypes[0]))]; }

/* ---- picking operands -------------------------------------------------------------------- */

/* A random value, biased to recent ones; -1 if there is none. */
static int pick(GComp *c) {
  if (c->n == 0) return -1;
  if (chance(&c->g->r, 60)) return c->n - 1 - rnd(&c->g->r, c->n < 6 ? c->n : 6);
  return rnd(&c->g->r, c->n);
}

static bool same_dims(const GVal *a, const GVal *b) {
  if (a->rank != b->rank) return false;
  for (int i = 0; i < a->rank; i++)
    if (a->dims[i] != b->dims[i]) return false;
  return true;
}

static int gen_op(GComp *c);
static int fit(GComp *c, int x, ElemType t, int rank, const int64_t *dims);

/* A value with the dims and type of x (another one when there is one). */
static int pick_like(GComp *c, int x, ElemType t) {
  int cand[GEN_MAX_VALS], nc = 0;
  for (int i = 0; i < c->n; i++)
    if (i != x && c->v[i].t == t && same_dims(&c->v[i], &c->v[x])) cand[nc++] = i;
  if (nc && chance(&c->g->r, 75)) return cand[rnd(&c->g->r, nc)];
  if (chance(&c->g->r, 40)) return gen_constant(c, t, c->v[x].rank, c->v[x].dims);
  if (t == c->v[x].t && chance(&c->g->r, 50)) return x;
  /* a scalar constant broadcast to x's dims */
  int s = gen_constant(c, t, 0, NULL);
  if (s < 0) return -1;
  if (c->v[x].rank == 0) return s;
  int k = begin_val(c, t, c->v[x].rank, c->v[x].dims);
  if (k >= 0) sb_printf(&c->b, "broadcast(%s), dimensions={}\n", nm(c, s));
  return k;
}

/* ---- the ops ------------------------------------------------------------------------------- */

static int gen_unary(GComp *c, int x) {
  static const char *const f_ops[] = {"negate", "abs", "exponential", "log", "sqrt", "rsqrt",
                                      "sine", "cosine", "tanh", "floor", "ceil", "sign",
                                      "round-nearest-even", "round-nearest-afz",
                                      "exponential-minus-one", "log-plus-one", "logistic",
                                      "cbrt", "tan", "is-finite"};
  static const char *const i_ops[] = {"negate", "abs", "sign", "not", "popcnt",
                                      "count-leading-zeros"};
  GVal v = c->v[x];
  const char *op;
  ElemType rt = v.t;
  if (v.t == T_PRED) op = "not";
  else if (v.t == T_S32) op = i_ops[rnd(&c->g->r, 6)];
  else {
    op = f_ops[rnd(&c->g->r, 20)];
    if (strcmp(op, "is-finite") == 0) rt = T_PRED;
  }
  int k = begin_val(c, rt, v.rank, v.dims);
  if (k >= 0) sb_printf(&c->b, "%s(%s)\n", op, nm(c, x));
  return k;
}

static int gen_binary(GComp *c, int x) {
  static const char *const f_ops[] = {"add", "subtract", "multiply", "divide", "maximum",
                                      "minimum", "power", "remainder", "atan2"};
  static const char *const i_ops[] = {"add", "subtract", "multiply", "divide", "remainder",
                                      "maximum", "minimum", "and", "or", "xor", "shift-left",
                                      "shift-right-arithmetic", "shift-right-logical", "power"};
  static const char *const p_ops[] = {"and", "or", "xor"};
  GVal v = c->v[x];
  int y = pick_like(c, x, v.t);
  if (y < 0) return -1;
  const char *op = v.t == T_PRED ? p_ops[rnd(&c->g->r, 3)]
                   : v.t == T_S32 ? i_ops[rnd(&c->g->r, 14)]
                                  : f_ops[rnd(&c->g->r, 9)];
  bool swap = chance(&c->g->r, 50);
  int k = begin_val(c, v.t, v.rank, v.dims);
  if (k >= 0) sb_printf(&c->b, "%s(%s, %s)\n", op, nm(c, swap ? y : x), nm(c, swap ? x : y));
  return k;
}

static int gen_compare(GComp *c, int x) {
  static const char *const dirs[] = {"EQ", "NE", "LT", "LE", "GT", "GE"};
  GVal v = c->v[x];
  int y = pick_like(c, x, v.t);
  if (y < 0) return -1;
  int k = begin_val(c, T_PRED, v.rank, v.dims);
  if (k < 0) return -1;
  sb_printf(&c->b, "compare(%s, %s), direction=%s", nm(c, x), nm(c, y), dirs[rnd(&c->g->r, 6)]);
  if (type_is_float(v.t) && chance(&c->g->r, 20)) sb_puts(&c->b, ", type=TOTALORDER");
  sb_putc(&c->b, '\n');
  return k;
}

static int gen_select(GComp *c, int x) {
  GVal v = c->v[x];
  int p = -1;
  for (int i = c->n - 1; i >= 0 && p < 0; i--)
    if (c->v[i].t == T_PRED && same_dims(&c->v[i], &v) && chance(&c->g->r, 70)) p = i;
  if (p < 0) p = gen_compare(c, x);
  int y = p < 0 ? -1 : pick_like(c, x, v.t);
  if (y < 0) return -1;
  int k = begin_val(c, v.t, v.rank, v.dims);
  if (k >= 0) sb_printf(&c->b, "select(%s, %s, %s)\n", nm(c, p), nm(c, x), nm(c, y));
  return k;
}

static int gen_clamp(GComp *c, int x) {
  GVal v = c->v[x];
  if (v.t == T_PRED) return gen_unary(c, x);
  int lo = chance(&c->g->r, 50) ? gen_constant(c, v.t, 0, NULL) : pick_like(c, x, v.t);
  int hi = lo < 0 ? -1 : chance(&c->g->r, 50) ? gen_constant(c, v.t, 0, NULL) : pick_like(c, x, v.t);
  if (hi < 0) return -1;
  /* scalar bounds with an array operand, or all the same dims */
  if (c->v[lo].rank != c->v[hi].rank || (c->v[lo].rank && c->v[lo].rank != v.rank)) return -1;
  int k = begin_val(c, v.t, v.rank, v.dims);
  if (k >= 0) sb_printf(&c->b, "clamp(%s, %s, %s)\n", nm(c, lo), nm(c, x), nm(c, hi));
  return k;
}

static int gen_convert(GComp *c, int x, ElemType t) {
  GVal v = c->v[x];
  int k = begin_val(c, t, v.rank, v.dims);
  if (k >= 0) sb_printf(&c->b, "convert(%s)\n", nm(c, x));
  return k;
}

static int gen_broadcast(GComp *c, int x) {
  GVal v = c->v[x];
  if (v.rank >= GEN_MAX_RANK) return gen_unary(c, x);
  int rank = v.rank + 1 + rnd(&c->g->r, GEN_MAX_RANK - v.rank);
  /* choose which result dims the operand's dims map to (increasing) */
  int64_t map[GEN_MAX_RANK] = {0}, dims[GEN_MAX_RANK] = {0};
  int placed = 0;
  for (int i = 0; i < rank; i++) {
    int left = v.rank - placed, slots = rank - i;
    if (left > 0 && (left == slots || chance(&c->g->r, 50))) {
      map[placed] = i;
      dims[i] = v.dims[placed++];
    } else {
      dims[i] = 1 + rnd(&c->g->r, 3);
    }
  }
  GVal tmp = {.rank = rank};
  memcpy(tmp.dims, dims, sizeof dims);
  if (gv_elems(&tmp) > GEN_MAX_ELEMS) return gen_unary(c, x);
  int k = begin_val(c, v.t, rank, dims);
  if (k < 0) return -1;
  sb_printf(&c->b, "broadcast(%s), dimensions=", nm(c, x));
  put_list(&c->b, v.rank, map);
  sb_putc(&c->b, '\n');
  return k;
}

static int gen_reshape(GComp *c, int x) {
  GVal v = c->v[x];
  int64_t n = gv_elems(&v), dims[GEN_MAX_RANK] = {0};
  int rank;
  if (n == 0) {
    rank = 1 + rnd(&c->g->r, 2);
    dims[0] = 0;
    if (rank == 2) dims[1] = 1 + rnd(&c->g->r, 3);
  } else {
    /* split n's prime factors over 1..3 dims */
    rank = 1 + rnd(&c->g->r, GEN_MAX_RANK);
    for (int i = 0; i < rank; i++) dims[i] = 1;
    int64_t m = n;
    for (int64_t p = 2; m > 1;) {
      if (m % p == 0) {
        dims[rnd(&c->g->r, rank)] *= p;
        m /= p;
      } else {
        p++;
      }
    }
  }
  int k = begin_val(c, v.t, rank, dims);
  if (k >= 0) sb_printf(&c->b, "reshape(%s)\n", nm(c, x));
  return k;
}

static int gen_transpose(GComp *c, int x) {
  GVal v = c->v[x];
  if (v.rank < 2) return gen_reshape(c, x);
  int64_t perm[GEN_MAX_RANK] = {0}, dims[GEN_MAX_RANK] = {0};
  for (int i = 0; i < v.rank; i++) perm[i] = i;
  for (int i = v.rank - 1; i > 0; i--) {
    int j = rnd(&c->g->r, i + 1);
    int64_t t = perm[i];
    perm[i] = perm[j];
    perm[j] = t;
  }
  for (int i = 0; i < v.rank; i++) dims[i] = v.dims[perm[i]];
  int k = begin_val(c, v.t, v.rank, dims);
  if (k < 0) return -1;
  sb_printf(&c->b, "transpose(%s), dimensions=", nm(c, x));
  put_list(&c->b, v.rank, perm);
  sb_putc(&c->b, '\n');
  return k;
}

static int gen_slice(GComp *c, int x) {
  GVal v = c->v[x];
  if (v.rank == 0) return gen_broadcast(c, x);
  int64_t st[GEN_MAX_RANK], lim[GEN_MAX_RANK], str[GEN_MAX_RANK], dims[GEN_MAX_RANK] = {0};
  for (int i = 0; i < v.rank; i++) {
    int64_t d = v.dims[i];
    st[i] = d ? rnd(&c->g->r, (int)d) : 0;
    lim[i] = d ? st[i] + 1 + rnd(&c->g->r, (int)(d - st[i])) : 0;
    str[i] = 1 + rnd(&c->g->r, 2);
    dims[i] = (lim[i] - st[i] + str[i] - 1) / str[i];
  }
  int k = begin_val(c, v.t, v.rank, dims);
  if (k < 0) return -1;
  sb_printf(&c->b, "slice(%s), slice={", nm(c, x));
  for (int i = 0; i < v.rank; i++)
    sb_printf(&c->b, "%s[%lld:%lld:%lld]", i ? ", " : "", (long long)st[i], (long long)lim[i],
              (long long)str[i]);
  sb_puts(&c->b, "}\n");
  return k;
}

static int gen_concat(GComp *c, int x) {
  GVal v = c->v[x];
  if (v.rank == 0) return gen_broadcast(c, x);
  int d = rnd(&c->g->r, v.rank);
  int ops[3] = {x, x, x}, nops = 2 + rnd(&c->g->r, 2);
  int64_t total = v.dims[d];
  for (int k = 1; k < nops; k++) {
    /* another value matching every dim but d, else x again */
    for (int i = c->n - 1; i >= 0; i--) {
      const GVal *o = &c->v[i];
      bool ok = o->t == v.t && o->rank == v.rank;
      for (int q = 0; q < v.rank && ok; q++) ok = q == d || o->dims[q] == v.dims[q];
      if (ok && chance(&c->g->r, 40)) {
        ops[k] = i;
        break;
      }
    }
    total += c->v[ops[k]].dims[d];
  }
  int64_t dims[GEN_MAX_RANK] = {0};
  memcpy(dims, v.dims, sizeof dims);
  dims[d] = total;
  GVal tmp = v;
  tmp.dims[d] = total;
  if (gv_elems(&tmp) > GEN_MAX_ELEMS) return gen_slice(c, x);
  int k = begin_val(c, v.t, v.rank, dims);
  if (k < 0) return -1;
  sb_puts(&c->b, "concatenate(");
  for (int i = 0; i < nops; i++) sb_printf(&c->b, "%s%s", i ? ", " : "", nm(c, ops[i]));
  sb_printf(&c->b, "), dimensions={%d}\n", d);
  return k;
}

static int gen_pad(GComp *c, int x) {
  GVal v = c->v[x];
  if (v.rank == 0) return gen_broadcast(c, x);
  int64_t lo[GEN_MAX_RANK], hi[GEN_MAX_RANK], in[GEN_MAX_RANK], dims[GEN_MAX_RANK] = {0};
  int64_t n = 1;
  for (int i = 0; i < v.rank; i++) {
    int64_t d = v.dims[i];
    lo[i] = rnd(&c->g->r, 4) - 1;
    hi[i] = rnd(&c->g->r, 4) - 1;
    in[i] = rnd(&c->g->r, 2);
    dims[i] = lo[i] + hi[i] + d + (d > 0 ? (d - 1) * in[i] : 0);
    if (dims[i] < 0) {
      lo[i] = hi[i] = 0;
      dims[i] = d + (d > 0 ? (d - 1) * in[i] : 0);
    }
    n *= dims[i];
  }
  if (n > GEN_MAX_ELEMS) return gen_slice(c, x);
  int pv = gen_constant(c, v.t, 0, NULL);
  int k = pv < 0 ? -1 : begin_val(c, v.t, v.rank, dims);
  if (k < 0) return -1;
  sb_printf(&c->b, "pad(%s, %s), padding=", nm(c, x), nm(c, pv));
  for (int i = 0; i < v.rank; i++) {
    sb_printf(&c->b, "%s%lld_%lld", i ? "x" : "", (long long)lo[i], (long long)hi[i]);
    if (in[i]) sb_printf(&c->b, "_%lld", (long long)in[i]);
  }
  sb_putc(&c->b, '\n');
  return k;
}

static int gen_reverse(GComp *c, int x) {
  GVal v = c->v[x];
  int64_t dims[GEN_MAX_RANK] = {0};
  int nd = 0;
  for (int i = 0; i < v.rank; i++)
    if (chance(&c->g->r, 60)) dims[nd++] = i;
  int k = begin_val(c, v.t, v.rank, v.dims);
  if (k < 0) return -1;
  sb_printf(&c->b, "reverse(%s), dimensions=", nm(c, x));
  put_list(&c->b, nd, dims);
  sb_putc(&c->b, '\n');
  return k;
}

/* The reducer computation for (kind, type), emitted once. */
static const char *reducer(Gen *g, int kind, ElemType t) {
  static const char *const ops[] = {"add", "maximum", "minimum", "multiply", "and", "or"};
  static char names[6][4][32];
  char *name = names[kind][type_slot(t)];
  snprintf(name, 32, "red_%s_%s", ops[kind], type_name(t));
  unsigned bit = 1u << (kind * 4 + type_slot(t));
  if (!(g->reducers & bit)) {
    g->reducers |= bit;
    const char *tn = type_name(t);
    sb_printf(&g->pre, "%s {\n  a = %s[] parameter(0)\n  b = %s[] parameter(1)\n  ROOT r = %s[] %s(a, b)\n}\n\n",
              name, tn, tn, tn, ops[kind]);
  }
  return name;
}

/* The identity of a reduction as constant text. */
static const char *identity(int kind, ElemType t) {
  switch (kind) {
  case 0: return t == T_PRED ? "false" : "0";
  case 1: return t == T_S32 ? "-2147483648" : "-inf";
  case 2: return t == T_S32 ? "2147483647" : "inf";
  case 3: return "1";
  case 4: return "true";
  default: return "false";
  }
}

static int gen_reduce_dims(GComp *c, int x, int nd, const int64_t *rdims) {
  GVal v = c->v[x];
  int kind = v.t == T_PRED ? 4 + rnd(&c->g->r, 2) : rnd(&c->g->r, 4);
  int init = gen_scalar_text(c, v.t, identity(kind, v.t));
  const char *red = reducer(c->g, kind, v.t);
  int64_t dims[GEN_MAX_RANK] = {0};
  int rank = 0;
  for (int i = 0; i < v.rank; i++) {
    bool r = false;
    for (int q = 0; q < nd; q++) r |= rdims[q] == i;
    if (!r) dims[rank++] = v.dims[i];
  }
  int k = init < 0 ? -1 : begin_val(c, v.t, rank, dims);
  if (k < 0) return -1;
  sb_printf(&c->b, "reduce(%s, %s), dimensions=", nm(c, x), nm(c, init));
  put_list(&c->b, nd, rdims);
  sb_printf(&c->b, ", to_apply=%s\n", red);
  return k;
}

static int gen_reduce(GComp *c, int x) {
  GVal v = c->v[x];
  int64_t rdims[GEN_MAX_RANK] = {0};
  int nd = 0;
  for (int i = 0; i < v.rank; i++)
    if (chance(&c->g->r, 50)) rdims[nd++] = i;
  return gen_reduce_dims(c, x, nd, rdims);
}

static void shuffle(Rng *r, int64_t *v, int n) {
  for (int i = n - 1; i > 0; i--) {
    int j = rnd(r, i + 1);
    int64_t t = v[i];
    v[i] = v[j];
    v[j] = t;
  }
}

/* An array literal of values drawn from `terms`. */
static void put_terms(Gen *g, StrBuf *b, ElemType t, int rank, const int64_t *dims,
                      const double *terms, int nterms) {
  if (rank == 0) {
    put_float(b, terms[rnd(&g->r, nterms)], t);
    return;
  }
  sb_putc(b, '{');
  for (int64_t i = 0; i < dims[0]; i++) {
    if (i) sb_puts(b, ", ");
    put_terms(g, b, t, rank - 1, dims + 1, terms, nterms);
  }
  sb_putc(b, '}');
}

/* Makes a float dot's operands ones whose sum depends on its order:
 * x -> sign(x) * C, C a constant of huge and small powers of two and small
 * integers, and *y -> sign(*y). The products are then 0 or +-C[i] (or NaN),
 * so 2^60 terms cancel exactly against each other and swallow the small
 * ones or not depending on where they fall in the sum: a rewrite of the
 * dot that changed the order of the summation shows in the results.
 * Returns the new x (-1 when the computation is full). */
static int order_sensitive(GComp *c, int x, int *y) {
  static const double kTerms[] = {1152921504606846976.0, -1152921504606846976.0, 1.0, 3.0,
                                  0.5, 1099511627776.0};
  GVal v = c->v[x];
  int sy = begin_val(c, v.t, v.rank, v.dims);
  if (sy < 0) return -1;
  sb_printf(&c->b, "sign(%s)\n", nm(c, *y));
  *y = sy;
  int sx = begin_val(c, v.t, v.rank, v.dims);
  if (sx < 0) return -1;
  sb_printf(&c->b, "sign(%s)\n", nm(c, x));
  int k = begin_val(c, v.t, v.rank, v.dims);
  if (k < 0) return -1;
  sb_puts(&c->b, "constant(");
  put_terms(c->g, &c->b, v.t, v.rank, v.dims, kTerms, 6);
  sb_puts(&c->b, ")\n");
  int m = begin_val(c, v.t, v.rank, v.dims);
  if (m >= 0) sb_printf(&c->b, "multiply(%s, %s)\n", nm(c, sx), nm(c, k));
  return m;
}

/* A general dot_general: each dim of x is a batch, contracting or free
 * dim at random; the rhs is a value like x, often transposed, so that the
 * batch and contracting dims sit anywhere on both sides; the batch and
 * contracting lists come in random order (contracting dims may then be in
 * different relative order on the two sides). */
static int gen_dot_general(GComp *c, int x) {
  GVal v = c->v[x];
  Rng *r = &c->g->r;
  int role[GEN_MAX_RANK] = {0}; /* 0 batch, 1 contracting, 2 free */
  int nb = 0, nf = 0;
  /* the result (batch + free dims of both sides) must fit GEN_MAX_RANK */
  for (int tries = 0; tries < 4 && (tries == 0 || nb + 2 * nf > GEN_MAX_RANK); tries++) {
    nb = nf = 0;
    for (int i = 0; i < v.rank; i++) {
      int w = rnd(r, 100);
      role[i] = w < 20 ? 0 : w < 75 ? 1 : 2;
      nb += role[i] == 0;
      nf += role[i] == 2;
    }
  }
  if (nb + 2 * nf > GEN_MAX_RANK) return gen_binary(c, x);
  int y = pick_like(c, x, v.t);
  if (y < 0) return -1;
  if (type_is_float(v.t) && chance(r, 60) && (x = order_sensitive(c, x, &y)) < 0) return -1;
  int64_t perm[GEN_MAX_RANK] = {0}, inv[GEN_MAX_RANK] = {0};
  for (int i = 0; i < v.rank; i++) perm[i] = i;
  if (v.rank >= 2 && chance(r, 70)) {
    shuffle(r, perm, v.rank);
    int64_t dims[GEN_MAX_RANK] = {0};
    for (int i = 0; i < v.rank; i++) dims[i] = v.dims[perm[i]];
    int t = begin_val(c, v.t, v.rank, dims);
    if (t < 0) return -1;
    sb_printf(&c->b, "transpose(%s), dimensions=", nm(c, y));
    put_list(&c->b, v.rank, perm);
    sb_putc(&c->b, '\n');
    y = t;
  }
  for (int i = 0; i < v.rank; i++) inv[perm[i]] = i;
  int64_t lb[GEN_MAX_RANK], lc[GEN_MAX_RANK], rb[GEN_MAX_RANK], rc[GEN_MAX_RANK];
  int nc = 0;
  nb = 0;
  for (int i = 0; i < v.rank; i++) {
    if (role[i] == 0) lb[nb++] = i;
    if (role[i] == 1) lc[nc++] = i;
  }
  shuffle(r, lb, nb);
  shuffle(r, lc, nc);
  for (int i = 0; i < nb; i++) rb[i] = inv[lb[i]];
  for (int i = 0; i < nc; i++) rc[i] = inv[lc[i]];
  /* result: batch (list order), lhs free, rhs free (dimension order) */
  int64_t dims[GEN_MAX_RANK] = {0};
  int rank = 0;
  for (int i = 0; i < nb; i++) dims[rank++] = v.dims[lb[i]];
  for (int i = 0; i < v.rank; i++)
    if (role[i] == 2) dims[rank++] = v.dims[i];
  for (int j = 0; j < v.rank; j++)
    if (role[perm[j]] == 2) dims[rank++] = v.dims[perm[j]];
  GVal tmp = {.rank = rank};
  memcpy(tmp.dims, dims, sizeof dims);
  if (gv_elems(&tmp) > GEN_MAX_ELEMS) return gen_binary(c, x);
  int k = begin_val(c, v.t, rank, dims);
  if (k < 0) return -1;
  sb_printf(&c->b, "dot(%s, %s), lhs_batch_dims=", nm(c, x), nm(c, y));
  put_list(&c->b, nb, lb);
  sb_puts(&c->b, ", lhs_contracting_dims=");
  put_list(&c->b, nc, lc);
  sb_puts(&c->b, ", rhs_batch_dims=");
  put_list(&c->b, nb, rb);
  sb_puts(&c->b, ", rhs_contracting_dims=");
  put_list(&c->b, nc, rc);
  sb_putc(&c->b, '\n');
  return k;
}

static int gen_dot(GComp *c, int x) {
  GVal v = c->v[x];
  if (v.t == T_PRED || v.rank == 0) return gen_binary(c, x);
  if (chance(&c->g->r, 50)) return gen_dot_general(c, x);
  int y = pick_like(c, x, v.t);
  if (y < 0) return -1;
  int cd = rnd(&c->g->r, v.rank);
  bool batch = v.rank >= 2 && cd != 0 && chance(&c->g->r, 50);
  int64_t dims[2 * GEN_MAX_RANK];
  int rank = 0;
  if (batch) dims[rank++] = v.dims[0];
  for (int side = 0; side < 2; side++)
    for (int i = batch ? 1 : 0; i < v.rank; i++)
      if (i != cd) dims[rank++] = v.dims[i];
  if (rank > GEN_MAX_RANK) return gen_binary(c, x);
  GVal tmp = {.rank = rank};
  memcpy(tmp.dims, dims, sizeof tmp.dims);
  if (gv_elems(&tmp) > GEN_MAX_ELEMS) return gen_binary(c, x);
  int k = begin_val(c, v.t, rank, dims);
  if (k < 0) return -1;
  sb_printf(&c->b, "dot(%s, %s), ", nm(c, x), nm(c, y));
  if (batch) sb_puts(&c->b, "lhs_batch_dims={0}, ");
  sb_printf(&c->b, "lhs_contracting_dims={%d}, ", cd);
  if (batch) sb_puts(&c->b, "rhs_batch_dims={0}, ");
  sb_printf(&c->b, "rhs_contracting_dims={%d}\n", cd);
  return k;
}

static int gen_iota(GComp *c) {
  int rank;
  int64_t dims[GEN_MAX_RANK] = {0};
  random_dims(&c->g->r, &rank, dims);
  if (rank == 0) {
    rank = 1;
    dims[0] = 1 + rnd(&c->g->r, 4);
  }
  ElemType t = chance(&c->g->r, 50) ? T_S32 : T_F32;
  int k = begin_val(c, t, rank, dims);
  if (k >= 0) sb_printf(&c->b, "iota(), iota_dimension=%d\n", rnd(&c->g->r, rank));
  return k;
}

/* An s32 scalar index: a constant (sometimes out of range) or a value. */
static int gen_index(GComp *c) {
  for (int i = c->n - 1; i >= 0; i--)
    if (c->v[i].t == T_S32 && c->v[i].rank == 0 && chance(&c->g->r, 30)) return i;
  char buf[16];
  snprintf(buf, sizeof buf, "%d", rnd(&c->g->r, 7) - 2);
  return gen_scalar_text(c, T_S32, buf);
}

static int gen_dynamic_slice(GComp *c, int x) {
  GVal v = c->v[x];
  if (v.rank == 0) return gen_broadcast(c, x);
  int idx[GEN_MAX_RANK];
  int64_t sizes[GEN_MAX_RANK] = {0};
  for (int i = 0; i < v.rank; i++) {
    if ((idx[i] = gen_index(c)) < 0) return -1;
    sizes[i] = v.dims[i] ? 1 + rnd(&c->g->r, (int)v.dims[i]) : 0;
  }
  int k = begin_val(c, v.t, v.rank, sizes);
  if (k < 0) return -1;
  sb_printf(&c->b, "dynamic-slice(%s", nm(c, x));
  for (int i = 0; i < v.rank; i++) sb_printf(&c->b, ", %s", nm(c, idx[i]));
  sb_puts(&c->b, "), dynamic_slice_sizes=");
  put_list(&c->b, v.rank, sizes);
  sb_putc(&c->b, '\n');
  return k;
}

static int gen_dus(GComp *c, int x) {
  GVal v = c->v[x];
  if (v.rank == 0) return gen_binary(c, x);
  int64_t udims[GEN_MAX_RANK] = {0};
  for (int i = 0; i < v.rank; i++) udims[i] = v.dims[i] ? 1 + rnd(&c->g->r, (int)v.dims[i]) : 0;
  /* the update: a matching value if there is one, else a constant */
  int u = -1;
  for (int i = c->n - 1; i >= 0 && u < 0; i--) {
    const GVal *o = &c->v[i];
    bool ok = o->t == v.t && o->rank == v.rank;
    for (int q = 0; q < v.rank && ok; q++) ok = o->dims[q] <= v.dims[q];
    if (ok && i != x && chance(&c->g->r, 50)) u = i;
  }
  if (u < 0 && (u = gen_constant(c, v.t, v.rank, udims)) < 0) return -1;
  int idx[GEN_MAX_RANK];
  for (int i = 0; i < v.rank; i++)
    if ((idx[i] = gen_index(c)) < 0) return -1;
  int k = begin_val(c, v.t, v.rank, v.dims);
  if (k < 0) return -1;
  sb_printf(&c->b, "dynamic-update-slice(%s, %s", nm(c, x), nm(c, u));
  for (int i = 0; i < v.rank; i++) sb_printf(&c->b, ", %s", nm(c, idx[i]));
  sb_puts(&c->b, ")\n");
  return k;
}

/* tuple(x, y[, z]) and one get-tuple-element of it. */
static int gen_tuple_gte(GComp *c, int x) {
  int ops[3] = {x, pick(c), pick(c)}, n = 2 + rnd(&c->g->r, 2);
  if (c->n >= GEN_MAX_VALS - 1) return -1;
  char tname[16];
  snprintf(tname, sizeof tname, "t%d", c->g->next_name++);
  sb_printf(&c->b, "  %s = (", tname);
  for (int i = 0; i < n; i++) {
    if (i) sb_puts(&c->b, ", ");
    put_shape(&c->b, c->v[ops[i]].t, c->v[ops[i]].rank, c->v[ops[i]].dims);
  }
  sb_puts(&c->b, ") tuple(");
  for (int i = 0; i < n; i++) sb_printf(&c->b, "%s%s", i ? ", " : "", nm(c, ops[i]));
  sb_puts(&c->b, ")\n");
  int j = rnd(&c->g->r, n);
  GVal e = c->v[ops[j]];
  int k = begin_val(c, e.t, e.rank, e.dims);
  if (k >= 0) sb_printf(&c->b, "get-tuple-element(%s), index=%d\n", tname, j);
  return k;
}

/* sort(x, ...) along a random dim: with 1-3 operands of x's dims (f32,
 * s32, pred), stable or not, and a comparator that is a plain LT/GT on
 * one operand (IEEE or total order: the backends' radix and keyed paths),
 * a lexicographic order on two, or LE (not a strict order); one result,
 * or a tuple read through get-tuple-element. Unstable sorts with ties
 * check that both backends leave equal keys in std::sort's order. */
static int gen_sort(GComp *c, int x) {
  Gen *g = c->g;
  GVal v = c->v[x];
  if (v.rank == 0) return gen_unary(c, x);
  static const ElemType kinds[] = {T_F32, T_S32, T_PRED};
  int ops[3] = {x, -1, -1}, n = 1 + rnd(&g->r, 3);
  for (int i = 1; i < n; i++)
    if ((ops[i] = pick_like(c, x, kinds[rnd(&g->r, 3)])) < 0) return -1;
  int id = g->next_comp++, form = rnd(&g->r, 4), a = rnd(&g->r, n), b = rnd(&g->r, n);
  static const char *const dirs[] = {"LT", "GT"};
  sb_printf(&g->pre, "cmp_%d {\n", id);
  for (int i = 0; i < 2 * n; i++)
    sb_printf(&g->pre, "  p%d = %s[] parameter(%d)\n", i, type_name(c->v[ops[i / 2]].t), i);
  const char *dir = dirs[rnd(&g->r, 2)];
  bool swap = chance(&g->r, 20), total = type_is_float(c->v[ops[a]].t) && form == 1;
  if (form == 2 && n > 1 && b != a) {
    /* key a, then key b */
    sb_printf(&g->pre,
              "  l1 = pred[] compare(p%d, p%d), direction=%s\n  e1 = pred[] compare(p%d, p%d), direction=EQ\n"
              "  l2 = pred[] compare(p%d, p%d), direction=%s\n  a2 = pred[] and(e1, l2)\n"
              "  ROOT o = pred[] or(l1, a2)\n}\n\n",
              2 * a, 2 * a + 1, dir, 2 * a, 2 * a + 1, 2 * b, 2 * b + 1, dirs[rnd(&g->r, 2)]);
  } else {
    sb_printf(&g->pre, "  ROOT l = pred[] compare(p%d, p%d), direction=%s%s\n}\n\n", 2 * a + swap, 2 * a + !swap,
              form == 3 ? "LE" : dir, total ? ", type=TOTALORDER" : "");
  }
  int64_t dim = rnd(&g->r, v.rank);
  bool stable = chance(&g->r, 50);
  char tname[16];
  if (n > 1) {
    if (c->n >= GEN_MAX_VALS - 1) return -1;
    snprintf(tname, sizeof tname, "t%d", g->next_name++);
    sb_printf(&c->b, "  %s = (", tname);
    for (int i = 0; i < n; i++) {
      if (i) sb_puts(&c->b, ", ");
      put_shape(&c->b, c->v[ops[i]].t, v.rank, v.dims);
    }
    sb_puts(&c->b, ") ");
  } else if (begin_val(c, v.t, v.rank, v.dims) < 0) {
    return -1;
  }
  sb_puts(&c->b, "sort(");
  for (int i = 0; i < n; i++) sb_printf(&c->b, "%s%s", i ? ", " : "", nm(c, ops[i]));
  sb_printf(&c->b, "), dimensions={%lld}%s, to_apply=cmp_%d\n", (long long)dim, stable ? ", is_stable=true" : "", id);
  if (n == 1) return c->n - 1;
  int j = rnd(&g->r, n);
  GVal e = c->v[ops[j]];
  int k = begin_val(c, e.t, e.rank, e.dims);
  if (k >= 0) sb_printf(&c->b, "get-tuple-element(%s), index=%d\n", tname, j);
  return k;
}

/* A value of type t and the given dims made from x: convert, then reduce
 * to a scalar and broadcast when the dims differ. */
static int fit(GComp *c, int x, ElemType t, int rank, const int64_t *dims) {
  if (x < 0) return -1;
  if (c->v[x].t != t && (x = gen_convert(c, x, t)) < 0) return -1;
  GVal target = {.t = t, .rank = rank};
  for (int i = 0; i < rank; i++) target.dims[i] = dims[i];
  if (same_dims(&c->v[x], &target)) return x;
  if (c->v[x].rank > 0) {
    int64_t all[GEN_MAX_RANK] = {0, 1, 2};
    if ((x = gen_reduce_dims(c, x, c->v[x].rank, all)) < 0) return -1;
  }
  if (rank == 0) return x;
  int k = begin_val(c, t, rank, dims);
  if (k >= 0) sb_printf(&c->b, "broadcast(%s), dimensions={}\n", nm(c, x));
  return k;
}

/* Generates `count` random ops in c; returns the last value (or -1). */
static int gen_ops(GComp *c, int count) {
  int last = c->n - 1;
  for (int i = 0; i < count; i++) {
    int k = gen_op(c);
    if (k >= 0) last = k;
  }
  return last;
}

static void gcomp_init(GComp *cc, Gen *g, int depth) {
  memset(cc, 0, sizeof *cc);
  cc->g = g;
  cc->depth = depth;
  sb_init(&cc->b);
}

/* A callee: parameters like the given values, a few ops, a result fitted to
 * the shape of value `like` of c. Appends the computation to g->pre;
 * returns its number. */
static int gen_callee(GComp *c, int nargs, const int *args, int like) {
  Gen *g = c->g;
  GComp cc;
  gcomp_init(&cc, g, c->depth + 1);
  int id = g->next_comp++;
  for (int i = 0; i < nargs; i++) {
    const GVal *a = &c->v[args[i]];
    int k = begin_val(&cc, a->t, a->rank, a->dims);
    sb_printf(&cc.b, "parameter(%d)\n", i);
    (void)k;
  }
  int last = gen_ops(&cc, 1 + rnd(&g->r, 6));
  int r = fit(&cc, last, c->v[like].t, c->v[like].rank, c->v[like].dims);
  if (r < 0) r = 0;
  sb_printf(&g->pre, "callee_%d {\n%s  ROOT ret_%d = ", id, cc.b.data ? cc.b.data : "", id);
  put_shape(&g->pre, cc.v[r].t, cc.v[r].rank, cc.v[r].dims);
  sb_printf(&g->pre, " copy(%s)\n}\n\n", nm(&cc, r));
  sb_free(&cc.b);
  return id;
}

static int gen_call(GComp *c, int x) {
  int args[2] = {x, pick(c)}, n = 1 + rnd(&c->g->r, 2);
  int id = gen_callee(c, n, args, x);
  GVal v = c->v[x];
  int k = begin_val(c, v.t, v.rank, v.dims);
  if (k < 0) return -1;
  sb_puts(&c->b, "call(");
  for (int i = 0; i < n; i++) sb_printf(&c->b, "%s%s", i ? ", " : "", nm(c, args[i]));
  sb_printf(&c->b, "), to_apply=callee_%d\n", id);
  return k;
}

/* conditional(pred, a, b) with two branches, or conditional(index, ...)
 * with three (an index out of range runs the last branch); each branch
 * takes its own operand and returns x's shape. */
static int gen_conditional(GComp *c, int x) {
  bool by_index = chance(&c->g->r, 40);
  int nb = by_index ? 3 : 2, sel = -1;
  if (by_index) {
    sel = gen_index(c);
  } else {
    for (int i = c->n - 1; i >= 0 && sel < 0; i--)
      if (c->v[i].t == T_PRED && c->v[i].rank == 0 && chance(&c->g->r, 50)) sel = i;
    if (sel < 0) sel = gen_scalar_text(c, T_PRED, chance(&c->g->r, 50) ? "true" : "false");
  }
  int ops[3], ids[3];
  for (int k = 0; k < nb; k++) {
    ops[k] = k == 0 ? x : pick(c);
    if (ops[k] < 0) return -1;
    ids[k] = gen_callee(c, 1, &ops[k], x);
  }
  GVal v = c->v[x];
  int k = sel < 0 ? -1 : begin_val(c, v.t, v.rank, v.dims);
  if (k < 0) return -1;
  sb_printf(&c->b, "conditional(%s", nm(c, sel));
  for (int i = 0; i < nb; i++) sb_printf(&c->b, ", %s", nm(c, ops[i]));
  if (by_index)
    sb_printf(&c->b, "), branch_computations={callee_%d, callee_%d, callee_%d}\n", ids[0], ids[1], ids[2]);
  else
    sb_printf(&c->b, "), true_computation=callee_%d, false_computation=callee_%d\n", ids[0], ids[1]);
  return k;
}

static void put_state_shape(StrBuf *b, const GVal *const *el, int n) {
  sb_puts(b, "(");
  for (int i = 0; i < n; i++) {
    if (i) sb_puts(b, ", ");
    put_shape(b, el[i]->t, el[i]->rank, el[i]->dims);
  }
  sb_puts(b, ")");
}

/* A counted while loop over state (counter, x[, invariant][, unused]). */
static int gen_while(GComp *c, int x) {
  Gen *g = c->g;
  int id = g->next_comp++;
  bool has_inv = chance(&g->r, 50), has_dead = chance(&g->r, 40);
  bool data_step = chance(&g->r, 20);
  int inv = has_inv ? pick(c) : -1, dead = has_dead ? pick(c) : -1;
  GVal counter = {.t = T_S32, .rank = 0};
  const GVal *el[4] = {&counter, &c->v[x], NULL, NULL};
  int n = 2;
  if (has_inv) el[n++] = &c->v[inv];
  if (has_dead) el[n++] = &c->v[dead];
  int start = chance(&g->r, 15) ? 12 : rnd(&g->r, 3), bound = rnd(&g->r, 11);
  /* the condition */
  StrBuf cs;
  sb_init(&cs);
  sb_printf(&cs, "cond_%d {\n  s = ", id);
  put_state_shape(&cs, el, n);
  sb_printf(&cs, " parameter(0)\n  i = s32[] get-tuple-element(s), index=0\n"
                 "  n = s32[] constant(%d)\n  ROOT lt = pred[] compare(i, n), direction=LT\n}\n\n",
            bound);
  /* the body */
  GComp bc;
  gcomp_init(&bc, g, c->depth + 1);
  sb_puts(&bc.b, "  s = ");
  put_state_shape(&bc.b, el, n);
  sb_puts(&bc.b, " parameter(0)\n");
  int vi = begin_val(&bc, T_S32, 0, NULL);
  sb_puts(&bc.b, "get-tuple-element(s), index=0\n");
  begin_val(&bc, el[1]->t, el[1]->rank, el[1]->dims);
  sb_puts(&bc.b, "get-tuple-element(s), index=1\n");
  int vinv = -1, vdead = -1;
  if (has_inv) {
    vinv = begin_val(&bc, el[2]->t, el[2]->rank, el[2]->dims);
    sb_puts(&bc.b, "get-tuple-element(s), index=2\n");
  }
  if (has_dead) {
    vdead = begin_val(&bc, el[n - 1]->t, el[n - 1]->rank, el[n - 1]->dims);
    sb_printf(&bc.b, "get-tuple-element(s), index=%d\n", n - 1);
  }
  int step;
  if (data_step) { /* 1 or 2 depending on the counter: not a constant step */
    int one = gen_scalar_text(&bc, T_S32, "1"), two = gen_scalar_text(&bc, T_S32, "2");
    int three = gen_scalar_text(&bc, T_S32, "3");
    int p = begin_val(&bc, T_PRED, 0, NULL);
    sb_printf(&bc.b, "compare(%s, %s), direction=LT\n", nm(&bc, vi), nm(&bc, three));
    step = begin_val(&bc, T_S32, 0, NULL);
    sb_printf(&bc.b, "select(%s, %s, %s)\n", nm(&bc, p), nm(&bc, one), nm(&bc, two));
  } else {
    step = gen_scalar_text(&bc, T_S32, "1");
  }
  int i1 = begin_val(&bc, T_S32, 0, NULL);
  sb_printf(&bc.b, "add(%s, %s)\n", nm(&bc, vi), nm(&bc, step));
  int last = gen_ops(&bc, 1 + rnd(&g->r, 6));
  int y = fit(&bc, last, el[1]->t, el[1]->rank, el[1]->dims);
  int dnew = -1;
  if (has_dead) dnew = fit(&bc, gen_unary(&bc, vdead), el[n - 1]->t, el[n - 1]->rank, el[n - 1]->dims);
  sb_printf(&g->pre, "%sbody_%d {\n%s  ROOT r = ", cs.data ? cs.data : "", id, bc.b.data ? bc.b.data : "");
  put_state_shape(&g->pre, el, n);
  sb_printf(&g->pre, " tuple(%s, %s", nm(&bc, i1), nm(&bc, y));
  if (has_inv) sb_printf(&g->pre, ", %s", nm(&bc, vinv));
  if (has_dead) sb_printf(&g->pre, ", %s", nm(&bc, dnew));
  sb_puts(&g->pre, ")\n}\n\n");
  sb_free(&cs);
  sb_free(&bc.b);
  /* the loop in c */
  char buf[16];
  snprintf(buf, sizeof buf, "%d", start);
  int i0 = gen_scalar_text(c, T_S32, buf);
  if (i0 < 0 || c->n >= GEN_MAX_VALS - 1) return -1;
  char tn[16], wn[16];
  snprintf(tn, sizeof tn, "t%d", g->next_name++);
  snprintf(wn, sizeof wn, "w%d", g->next_name++);
  sb_printf(&c->b, "  %s = ", tn);
  put_state_shape(&c->b, el, n);
  sb_printf(&c->b, " tuple(%s, %s", nm(c, i0), nm(c, x));
  if (has_inv) sb_printf(&c->b, ", %s", nm(c, inv));
  if (has_dead) sb_printf(&c->b, ", %s", nm(c, dead));
  sb_printf(&c->b, ")\n  %s = ", wn);
  put_state_shape(&c->b, el, n);
  sb_printf(&c->b, " while(%s), condition=cond_%d, body=body_%d\n", tn, id, id);
  int which = chance(&g->r, 15) ? 0 : 1;
  int k = begin_val(c, el[which]->t, el[which]->rank, el[which]->dims);
  if (k >= 0) sb_printf(&c->b, "get-tuple-element(%s), index=%d\n", wn, which);
  return k;
}

static int gen_op(GComp *c) {
  Rng *r = &c->g->r;
  int x = pick(c);
  if (x < 0 || chance(r, 5)) {
    int rank;
    int64_t dims[GEN_MAX_RANK] = {0};
    random_dims(r, &rank, dims);
    return chance(r, 50) ? gen_iota(c) : gen_constant(c, random_type(r), rank, dims);
  }
  int w = rnd(r, 100);
  if (w < 14) return gen_unary(c, x);
  if (w < 30) return gen_binary(c, x);
  if (w < 35) return gen_compare(c, x);
  if (w < 39) return gen_select(c, x);
  if (w < 41) return gen_clamp(c, x);
  if (w < 45) return gen_convert(c, x, random_type(r));
  if (w < 50) return gen_broadcast(c, x);
  if (w < 54) return gen_reshape(c, x);
  if (w < 57) return gen_transpose(c, x);
  if (w < 61) return gen_slice(c, x);
  if (w < 64) return gen_concat(c, x);
  if (w < 67) return gen_pad(c, x);
  if (w < 69) return gen_reverse(c, x);
  if (w < 75) return gen_reduce(c, x);
  if (w < 80) return gen_dot(c, x);
  if (w < 82) return gen_dynamic_slice(c, x);
  if (w < 85) return gen_dus(c, x);
  if (w < 88) return gen_tuple_gte(c, x);
  if (w < 93 && c->depth < GEN_MAX_DEPTH) return gen_while(c, x);
  if (w < 96 && c->depth < GEN_MAX_DEPTH) return gen_call(c, x);
  if (w < 98 && c->depth < GEN_MAX_DEPTH) return gen_conditional(c, x);
  if (w < 98) return gen_unary(c, x);
  return gen_sort(c, x);
}

char *random_hlo_text(uint64_t seed) {
  Gen g;
  memset(&g, 0, sizeof g);
  g.r.s = seed * 0x2545f4914f6cdd1dull + 1;
  sb_init(&g.pre);
  GComp e;
  gcomp_init(&e, &g, 0);
  int np = 1 + rnd(&g.r, 3);
  for (int i = 0; i < np; i++) {
    int rank;
    int64_t dims[GEN_MAX_RANK] = {0};
    random_dims(&g.r, &rank, dims);
    begin_val(&e, random_type(&g.r), rank, dims);
    sb_printf(&e.b, "parameter(%d)\n", i);
  }
  int last = gen_ops(&e, 5 + rnd(&g.r, 36));
  /* the result: a tuple of the last value and up to three values nothing
   * reads (so that most of the module matters) */
  int outs[4] = {last, -1, -1, -1}, no = 1;
  for (int i = e.n - 1; i >= 0 && no < 4; i--)
    if (!e.used[i] && i != last && chance(&g.r, 80)) outs[no++] = i;
  StrBuf out;
  sb_init(&out);
  sb_printf(&out, "HloModule random_%llu\n\n%s", (unsigned long long)seed, g.pre.data ? g.pre.data : "");
  sb_printf(&out, "ENTRY main {\n%s  ROOT result = (", e.b.data ? e.b.data : "");
  for (int i = 0; i < no; i++) {
    if (i) sb_puts(&out, ", ");
    put_shape(&out, e.v[outs[i]].t, e.v[outs[i]].rank, e.v[outs[i]].dims);
  }
  sb_puts(&out, ") tuple(");
  for (int i = 0; i < no; i++) sb_printf(&out, "%s%s", i ? ", " : "", nm(&e, outs[i]));
  sb_puts(&out, ")\n}\n");
  sb_free(&g.pre);
  sb_free(&e.b);
  return sb_take(&out);
}

/* ---- arguments -------------------------------------------------------------------------- */

static void fill_random(Literal *l, Rng *r) {
  static const double fspecial[] = {0.0, -0.0, INFINITY, -INFINITY, NAN, 1e30, -1e-30, 1e-40, 65504.0};
  static const int64_t ispecial[] = {0, -1, 2147483647, -2147483647 - 1, 31, 32};
  for (int64_t i = 0; i < l->nelems; i++) {
    if (l->type == T_PRED) literal_set_i64(l, i, rnd(r, 2));
    else if (type_is_int(l->type))
      literal_set_i64(l, i, chance(r, 10) ? ispecial[rnd(r, 6)] : rnd(r, 41) - 20);
    else
      literal_set_f64(l, i, chance(r, 10) ? fspecial[rnd(r, 9)] : (rnd(r, 4001) - 2000) / 500.0);
  }
}

static cxla_status make_arg(const Shape *s, Rng *r, Literal **out) {
  TRY(literal_create_for_shape(s, out));
  if (s->type == T_TUPLE) {
    for (int i = 0; i < (*out)->ntuple; i++) fill_random((*out)->tuple[i], r);
  } else if (type_is_array(s->type)) {
    fill_random(*out, r);
  }
  return NULL;
}

cxla_status random_args(const HloModule *m, uint64_t seed, Literal ***out_args, int *out_n) {
  *out_args = NULL;
  *out_n = 0;
  const Computation *e = m->entry;
  int n = e ? e->nparams : 0;
  Literal **args = cxla_calloc((size_t)n + 1, sizeof(Literal *));
  if (!args) return cxla_oom();
  Rng r = {seed ^ 0x5bd1e995u};
  for (int i = 0; i < n; i++) {
    cxla_status st = make_arg(e->params[i]->shape, &r, &args[i]);
    if (st) {
      random_args_free(args, n);
      return st;
    }
  }
  *out_args = args;
  *out_n = n;
  return NULL;
}

void random_args_free(Literal **args, int n) {
  if (!args) return;
  for (int i = 0; i < n; i++) literal_free(args[i]);
  cxla_free(args);
}

/* ---- comparing results ---------------------------------------------------------------------- */

static bool is_nan_bits(const unsigned char *p, ElemType t) {
  if (t == T_F32) {
    float f;
    memcpy(&f, p, 4);
    return isnan(f);
  }
  if (t == T_F64) {
    double d;
    memcpy(&d, p, 8);
    return isnan(d);
  }
  if (t == T_F16 || t == T_BF16) {
    uint16_t u;
    memcpy(&u, p, 2);
    return t == T_F16 ? (u & 0x7c00) == 0x7c00 && (u & 0x3ff) : (u & 0x7f80) == 0x7f80 && (u & 0x7f);
  }
  return false;
}

/* A zero or subnormal f32/f64 value: the interpreter flushes subnormal
 * inputs and results of arithmetic to zero (XLA:CPU's FTZ/DAZ), so a
 * rewrite that removes an identity op (x*1, reduce over no dims, ...)
 * legitimately turns a flushed 0 into the subnormal it no longer
 * computes on. Such pairs compare equal when their signs agree. */
static bool tiny_bits(const unsigned char *p, ElemType t, bool *neg) {
  if (t == T_F32) {
    float f;
    memcpy(&f, p, 4);
    *neg = signbit(f);
    return fpclassify(f) == FP_ZERO || fpclassify(f) == FP_SUBNORMAL;
  }
  if (t == T_F64) {
    double d;
    memcpy(&d, p, 8);
    *neg = signbit(d);
    return fpclassify(d) == FP_ZERO || fpclassify(d) == FP_SUBNORMAL;
  }
  return false;
}

static bool same_bits_at(const Literal *a, const Literal *b, StrBuf *path, char *why, size_t n) {
  if (a->type != b->type || a->rank != b->rank || a->ntuple != b->ntuple ||
      a->nelems != b->nelems) {
    snprintf(why, n, "%s: different shapes", path->data ? path->data : "{}");
    return false;
  }
  if (a->type == T_TUPLE) {
    for (int i = 0; i < a->ntuple; i++) {
      size_t keep = path->len;
      sb_printf(path, "{%d}", i);
      bool ok = same_bits_at(a->tuple[i], b->tuple[i], path, why, n);
      path->len = keep;
      if (path->data) path->data[keep] = 0;
      if (!ok) return false;
    }
    return true;
  }
  for (int i = 0; i < a->rank; i++)
    if (a->dims[i] != b->dims[i]) {
      snprintf(why, n, "%s: different dims", path->data ? path->data : "{}");
      return false;
    }
  int eb = type_bytes(a->type);
  const unsigned char *p = a->data, *q = b->data;
  for (int64_t i = 0; i < a->nelems; i++, p += eb, q += eb) {
    if (memcmp(p, q, (size_t)eb) == 0) continue;
    if (type_is_float(a->type) && is_nan_bits(p, a->type) && is_nan_bits(q, a->type)) continue;
    bool na, nb;
    if (tiny_bits(p, a->type, &na) && tiny_bits(q, a->type, &nb) && na == nb) continue;
    uint64_t x = 0, y = 0;
    memcpy(&x, p, (size_t)(eb > 8 ? 8 : eb));
    memcpy(&y, q, (size_t)(eb > 8 ? 8 : eb));
    snprintf(why, n, "%s[%lld]: 0x%llx (%g) vs 0x%llx (%g)", path->data ? path->data : "",
             (long long)i, (unsigned long long)x, literal_get_f64(a, i), (unsigned long long)y,
             literal_get_f64(b, i));
    return false;
  }
  return true;
}

bool same_bits(const Literal *a, const Literal *b, char *why, size_t why_len) {
  StrBuf path;
  sb_init(&path);
  bool ok = same_bits_at(a, b, &path, why, why_len);
  sb_free(&path);
  return ok;
}
