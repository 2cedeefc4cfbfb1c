/* pass_helpers.h: shared scaffolding for the optimizer pass tests
 * (tests/unit/test_pass_*.c). Include after harness.h.
 *
 *   HloModule *m = pt_parse(text);              parse + verify (NULL on error)
 *   pt_run(m, "dce,cse")                        run passes with verification on
 *   char *t = pt_print(m);                      text (free with cxla_free_string)
 *   pt_count(m, "add")                          instructions with that opcode,
 *                                               over all computations
 *   pt_same_values(text, m, seeds)              the module before (text) and
 *                                               after (m) agree on inputs
 *                                               made from each seed
 */
#ifndef CXLA_PASS_HELPERS_H
#define CXLA_PASS_HELPERS_H

#include <stdlib.h>
#include <string.h>

#include "interp/interp.h"
#include "ir/rewrite.h"
#include "passes/passes.h"
#include "testing/compare.h"
#include "verify/verify.h"

static inline HloModule *pt_parse(const char *text) {
  HloModule *m = NULL;
  CHECK_OK(cxla_module_parse(text, strlen(text), "test.hlo", &m));
  if (m) {
    cxla_status s = verify_module(m);
    if (s) {
      CHECK_OK(s);
      module_destroy(m);
      return NULL;
    }
  }
  return m;
}

/* Runs the comma-separated passes (NULL: the default pipeline) with the
 * verifier on after every pass. Returns the status's code (CXLA_OK = 0). */
static inline int pt_run(HloModule *m, const char *csv) {
  PipelineOptions o = {true, NULL, 1};
  cxla_status s;
  if (!csv) {
    s = pipeline_run(m, NULL, 0, &o);
  } else {
    char buf[512];
    const char *names[32];
    int n = 0;
    snprintf(buf, sizeof buf, "%s", csv);
    for (char *tok = strtok(buf, ","); tok && n < 32; tok = strtok(NULL, ",")) names[n++] = tok;
    s = pipeline_run(m, names, n, &o);
  }
  int code = (int)cxla_status_code_of(s);
  CHECK_OK(s);
  return code;
}

static inline char *pt_print(const HloModule *m) {
  char *t = NULL;
  CHECK_OK(cxla_module_print(m, &t));
  return t;
}

static inline int pt_count(const HloModule *m, const char *opname) {
  int n = 0;
  for (int c = 0; c < m->ncomps; c++)
    for (int i = 0; i < m->comps[c]->ninstrs; i++)
      if (strcmp(op_name(m->comps[c]->instrs[i]->op), opname) == 0) n++;
  return n;
}

/* Occurrences of a substring. */
static inline int pt_occurs(const char *text, const char *needle) {
  int n = 0;
  for (const char *p = text; (p = strstr(p, needle)); p += strlen(needle)) n++;
  return n;
}

/* The root's opcode name of the entry computation. */
static inline const char *pt_root_op(const HloModule *m) {
  return m && m->entry && m->entry->root ? op_name(m->entry->root->op) : "?";
}

/* ---- values before and after ---- */

static inline uint64_t pt_rand(uint64_t *s) {
  *s ^= *s << 13;
  *s ^= *s >> 7;
  *s ^= *s << 17;
  return *s;
}

/* Fills an array literal: every other element is a special value (zeros
 * of both signs, infinities, NaN, integer extremes), cycling with the
 * element index and the seed so that small arrays meet all of them over a
 * few seeds; the rest are small random numbers. No subnormals: XLA:CPU's
 * flush-to-zero makes x*1 and x differ there, the one place where the
 * simplifier's IEEE-exact rules and the FTZ model part (as in XLA itself). */
static inline void pt_fill_seeded(Literal *l, uint64_t *seed, int k) {
  if (l->type == T_TUPLE) {
    for (int i = 0; i < l->ntuple; i++) pt_fill_seeded(l->tuple[i], seed, k + i);
    return;
  }
  if (!type_is_array(l->type)) return;
  for (int64_t i = 0; i < l->nelems; i++) {
    uint64_t r = pt_rand(seed);
    bool special = ((i + k) & 1) == 0;
    int pick = (int)((uint64_t)(i / 2 + 3 * k + (int64_t)(*seed % 5)) % 8);
    if (type_is_float(l->type) || type_is_complex(l->type)) {
      static const double sp[8] = {-0.0, 0.0, INFINITY, NAN, 1.0, -INFINITY, -1.0, 0.5};
      double v = special ? sp[pick] : (double)((int64_t)((r >> 8) % 2001) - 1000) / 128.0;
      literal_set_f64(l, i, v);
      if (type_is_complex(l->type)) {
        double im = special ? sp[(pick + 3) % 8] : (double)((int64_t)((r >> 24) % 201) - 100) / 16.0;
        if (l->type == T_C64) ((float *)l->data)[2 * i + 1] = (float)im;
        else ((double *)l->data)[2 * i + 1] = im;
      }
    } else if (l->type == T_PRED) {
      literal_set_i64(l, i, (int64_t)(r >> 9) & 1);
    } else {
      int64_t v = (int64_t)((r >> 8) % 17) - 8;
      if (special) {
        int bits = type_bits(l->type);
        bool sgn = type_kind(l->type) == TK_SINT;
        int64_t max = bits >= 64 ? INT64_MAX : sgn ? ((int64_t)1 << (bits - 1)) - 1
                                                   : (int64_t)((1ull << bits) - 1);
        int64_t min = sgn ? (bits >= 64 ? INT64_MIN : -((int64_t)1 << (bits - 1))) : 0;
        static const int64_t small[4] = {0, 1, -1, 2};
        v = pick < 2 ? max : pick < 4 ? min : small[pick - 4];
      }
      literal_set_i64(l, i, v);
    }
  }
}

static inline void pt_fill(Literal *l, uint64_t *seed) { pt_fill_seeded(l, seed, (int)(*seed % 7)); }

/* Equal values: bitwise, except that any NaN equals any NaN (IEEE leaves a
 * NaN result's sign and payload open). */
static inline bool pt_literal_same(const Literal *a, const Literal *b) {
  if (a->type != b->type || a->rank != b->rank || a->ntuple != b->ntuple) return false;
  if (a->type == T_TUPLE) {
    for (int i = 0; i < a->ntuple; i++)
      if (!pt_literal_same(a->tuple[i], b->tuple[i])) return false;
    return true;
  }
  for (int i = 0; i < a->rank; i++)
    if (a->dims[i] != b->dims[i]) return false;
  if (!type_is_array(a->type)) return true;
  int w = type_bytes(a->type);
  bool flt = type_is_float(a->type) || type_is_complex(a->type);
  for (int64_t i = 0; i < a->nelems; i++) {
    const unsigned char *x = (const unsigned char *)a->data + i * w;
    const unsigned char *y = (const unsigned char *)b->data + i * w;
    if (memcmp(x, y, (size_t)w) == 0) continue;
    if (!flt) return false;
    if (type_is_complex(a->type)) {
      double xr, xi, yr, yi;
      if (a->type == T_C64) {
        xr = ((const float *)x)[0]; xi = ((const float *)x)[1];
        yr = ((const float *)y)[0]; yi = ((const float *)y)[1];
      } else {
        xr = ((const double *)x)[0]; xi = ((const double *)x)[1];
        yr = ((const double *)y)[0]; yi = ((const double *)y)[1];
      }
      bool re = (isnan(xr) && isnan(yr)) || (xr == yr && signbit(xr) == signbit(yr));
      bool im = (isnan(xi) && isnan(yi)) || (xi == yi && signbit(xi) == signbit(yi));
      if (!re || !im) return false;
      continue;
    }
    if (!(isnan(literal_get_f64(a, i)) && isnan(literal_get_f64(b, i)))) return false;
  }
  return true;
}

/* Runs the entry of `before` (HLO text) and of `after` on the same inputs
 * for each seed; 1 if all agree, 0 if a value differs, -1 if the module
 * cannot run (the interpreter refuses either side, e.g. an elided
 * constant). Prints the first difference. */
/* Whether every leaf of a and b agrees within the corpus' float rule
 * (runtime/compare.h) at rtol, atol. */
static inline bool pt_literal_close(Literal *a, Literal *b, double rtol, double atol) {
  Literal **la = NULL, **lb = NULL;
  int na = 0, nb = 0;
  cxla_status s1 = literal_flatten(a, &la, &na), s2 = literal_flatten(b, &lb, &nb);
  bool ok = !s1 && !s2 && na == nb;
  for (int i = 0; ok && i < na; i++) {
    CompareReport r;
    ok = compare_literals(la[i], lb[i], rtol, atol, &r);
  }
  cxla_status_free(s1);
  cxla_status_free(s2);
  cxla_free(la);
  cxla_free(lb);
  return ok;
}

static inline int pt_values_within(const char *before_text, const HloModule *after, int nseeds,
                                   double rtol, double atol);

static inline int pt_values_agree(const char *before_text, const HloModule *after, int nseeds) {
  return pt_values_within(before_text, after, nseeds, -1, -1);
}

/* pt_values_agree with a tolerance: rtol < 0 asks for the same bits, else
 * the corpus' float rule at rtol, atol (for rewrites that XLA makes and
 * that round differently, such as x / c -> x * (1 / c)). */
static inline int pt_values_within(const char *before_text, const HloModule *after, int nseeds,
                                   double rtol, double atol) {
  HloModule *before = NULL;
  cxla_status s = cxla_module_parse(before_text, strlen(before_text), "before.hlo", &before);
  if (s) {
    cxla_status_free(s);
    return -1;
  }
  int result = 1;
  const Computation *e = before->entry;
  for (int seed = 1; seed <= nseeds && result == 1; seed++) {
    uint64_t st = 0x9e3779b97f4a7c15ull * (uint64_t)seed;
    Literal *args[64] = {0};
    int n = e->nparams < 64 ? e->nparams : 64;
    for (int i = 0; i < n && result == 1; i++) {
      cxla_status cs = literal_create_for_shape(e->params[i]->shape, &args[i]);
      if (cs) {
        cxla_status_free(cs);
        result = -1;
      } else {
        pt_fill(args[i], &st);
      }
    }
    Literal *x = NULL, *y = NULL;
    if (result == 1) {
      cxla_status a = cxla_interp_run(before, args, n, &x);
      cxla_status b = cxla_interp_run(after, args, n, &y);
      if (a || b) {
        if (!a || !b) {
          fprintf(stderr, "  only one side runs: before: %s / after: %s\n",
                  a ? cxla_status_message(a) : "ok", b ? cxla_status_message(b) : "ok");
          result = 0;
        } else {
          result = -1;
        }
      } else if (rtol < 0 ? !pt_literal_same(x, y) : !pt_literal_close(y, x, rtol, atol)) {
        fprintf(stderr, "  values differ (seed %d)\n", seed);
        result = 0;
      }
      cxla_status_free(a);
      cxla_status_free(b);
    }
    literal_free(x);
    literal_free(y);
    for (int i = 0; i < n; i++) literal_free(args[i]);
  }
  module_destroy(before);
  return result;
}

/* The usual pass test: parse, run the passes (verified), check that the
 * values agree with the original on 4 seeds. The caller owns the module. */
static inline HloModule *pt_opt(const char *text, const char *passes) {
  HloModule *m = pt_parse(text);
  if (!m) return NULL;
  pt_run(m, passes);
  int v = pt_values_agree(text, m, 4);
  if (v == 0) fprintf(stderr, "%s: values changed by %s\n", harness_current, passes ? passes : "the pipeline");
  CHECK(v != 0);
  return m;
}

#endif
