/* cpu_vs_interp.c: the differential check of cpu_vs_interp.h, compiled
 * once and linked into the unit tests that use it. */
#include "cpu_vs_interp.h"

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cxla/cxla.h"
#include "interp/interp.h"
#include "runtime/threadpool.h"
#include "verify/verify.h"

cxla_status cpu_vs_interp_args_fn(const HloModule *m, uint64_t seed,
                                  double (*value)(void *ctx, int param, int64_t e, double u), void *ctx,
                                  Literal ***out) {
  const Computation *c = m->entry;
  Literal **a = cxla_calloc((size_t)(c->nparams ? c->nparams : 1), sizeof *a);
  if (!a) return cxla_oom();
  uint64_t x = seed;
  for (int i = 0; i < c->nparams; i++) {
    cxla_status s = literal_create_for_shape(c->params[i]->shape, &a[i]);
    if (s) {
      for (int k = 0; k < i; k++) literal_free(a[k]);
      cxla_free(a);
      return s;
    }
    for (int64_t e = 0; e < a[i]->nelems; e++) {
      x ^= x << 13, x ^= x >> 7, x ^= x << 17;
      literal_set_f64(a[i], e, value(ctx, i, e, (double)(x >> 11) / 9007199254740992.0));
    }
  }
  *out = a;
  return NULL;
}

/* cpu_vs_interp_args' values: [-100, 100), NaNs and -0 at fixed places. */
static double default_value(void *ctx, int param, int64_t e, double u) {
  (void)ctx, (void)param;
  if (e % 17 == 16) return NAN;
  if (e % 13 == 12) return -0.0;
  return u * 200 - 100;
}

cxla_status cpu_vs_interp_args(const HloModule *m, Literal ***out) {
  return cpu_vs_interp_args_fn(m, 88172645463325252ull, default_value, NULL, out);
}

void cpu_vs_interp_free_args(const HloModule *m, Literal **args) {
  if (args)
    for (int i = 0; i < m->entry->nparams; i++) literal_free(args[i]);
  cxla_free(args);
}

bool cpu_vs_interp(const char *name, const char *text, bool exact) {
  return cpu_vs_interp_inplace(name, text, exact, NULL);
}

/* Element i of l as a double; complex values as their parts in turn. */
static double part(const Literal *l, int64_t i) {
  if (l->type == T_C64) return ((const float *)l->data)[i];
  if (l->type == T_C128) return ((const double *)l->data)[i];
  return literal_get_f64(l, i);
}

bool cpu_vs_interp_close(const char *name, const Literal *want, const Literal *got, bool exact) {
  if (want->type == T_TUPLE || got->type == T_TUPLE) {
    if (want->type != got->type || want->ntuple != got->ntuple) {
      fprintf(stderr, "%s: the result's tuple structure differs\n", name);
      return false;
    }
    bool ok = true;
    for (int i = 0; i < want->ntuple; i++) ok &= cpu_vs_interp_close(name, want->tuple[i], got->tuple[i], exact);
    return ok;
  }
  if (want->type != got->type || want->nelems != got->nelems) {
    fprintf(stderr, "%s: the result's type or size differs\n", name);
    return false;
  }
  bool is_float = type_kind(want->type) == TK_FLOAT || type_is_complex(want->type);
  int64_t n = want->nelems * (type_is_complex(want->type) ? 2 : 1), bad = 0;
  double tol = want->type == T_F16 ? 1e-2 : 1e-5, mx = 0;
  for (int64_t i = 0; i < n; i++) {
    double w = part(want, i);
    if (isfinite(w) && fabs(w) > mx) mx = fabs(w);
  }
  for (int64_t i = 0; i < n; i++) {
    double w = part(want, i), g = part(got, i);
    bool same = isnan(w) ? isnan(g)
                : exact ? !isnan(g) && !memcmp(&w, &g, sizeof w)
                : is_float ? w == g || (!isnan(g) && fabs(w - g) <= tol * mx) : w == g;
    if (!same && bad++ < 5) fprintf(stderr, "%s: element %lld: want %.17g got %.17g\n", name, (long long)i, w, g);
  }
  return bad == 0;
}

bool cpu_vs_interp_threads_agree(const char *name, const Literal *want, const Literal *one, const Literal *two,
                                 bool exact) {
  if (!literal_equal(one, two)) {
    fprintf(stderr, "%s: 1 and 2 threads differ\n", name);
    return false;
  }
  return literal_equal(want, one) || cpu_vs_interp_close(name, want, one, exact);
}

cxla_status cpu_vs_interp_run_cpu(const HloModule *m, Literal **args, int threads, CpuCompileStats *st,
                                  Literal **out) {
  CpuExecutable *x = NULL;
  RtPool *pool = NULL;
  cxla_status s = cpu_compile(m, NULL, &x);
  if (!s && threads > 1) s = rt_pool_create(threads, &pool);
  CpuExecOptions o = {.pool = pool, .num_threads = threads};
  if (!s) s = cpu_execute_opts(x, args, m->entry->nparams, &o, out);
  if (!s && st) *st = *cpu_executable_stats(x);
  cpu_executable_destroy(x);
  rt_pool_destroy(pool);
  return s;
}

/* cpu_vs_interp_inplace on the arguments of `value` (default_value when
 * NULL). */
static bool vs_interp(const char *name, const char *text, bool exact, int64_t *inplace,
                      double (*value)(void *ctx, int param, int64_t e, double u), void *ctx) {
  cxla_module *m = NULL;
  Literal **args = NULL, *want = NULL, *got = NULL;
  CpuExecutable *x = NULL;
  bool ok = false;
  cxla_status s = cxla_module_parse(text, strlen(text), name, &m);
  if (!s) s = verify_module(m);
  if (!s) s = value ? cpu_vs_interp_args_fn(m, 7, value, ctx, &args) : cpu_vs_interp_args(m, &args);
  if (!s) s = cxla_interp_run(m, args, m->entry->nparams, &want);
  if (!s) s = cpu_compile(m, NULL, &x);
  CpuExecOptions o = {.kernels_inplace = inplace};
  if (inplace) *inplace = 0;
  if (!s) s = cpu_execute_opts(x, args, m->entry->nparams, &o, &got);
  if (s) {
    fprintf(stderr, "%s: %s\n", name, cxla_status_message(s));
  } else {
    ok = cpu_vs_interp_close(name, want, got, exact);
  }
  cxla_status_free(s);
  cpu_vs_interp_free_args(m, args);
  literal_free(want);
  literal_free(got);
  cpu_executable_destroy(x);
  cxla_module_destroy(m);
  return ok;
}

bool cpu_vs_interp_inplace(const char *name, const char *text, bool exact, int64_t *inplace) {
  return vs_interp(name, text, exact, inplace, NULL, NULL);
}

bool cpu_vs_interp_fn(const char *name, const char *text, bool exact,
                      double (*value)(void *ctx, int param, int64_t e, double u), void *ctx) {
  return vs_interp(name, text, exact, NULL, value, ctx);
}

bool cpu_vs_interp_split(const char *name, const char *text, bool split, const Literal *want_in) {
  if (split) setenv("CXLA_CPU_GRAIN", "1", 1);
  cxla_module *m = NULL;
  Literal **args = NULL, *want = NULL, *got = NULL;
  CpuExecutable *x = NULL;
  RtPool *pool = NULL;
  int64_t nsplit = 0;
  cxla_status s = cxla_module_parse(text, strlen(text), name, &m);
  if (!s) s = verify_module(m);
  if (!s) s = cpu_vs_interp_args(m, &args);
  if (!s && !want_in) s = cxla_interp_run(m, args, m->entry->nparams, &want);
  const Literal *w = want_in ? want_in : want;
  if (!s) s = cpu_compile(m, NULL, &x);
  if (!s && split) s = rt_pool_create(2, &pool);
  CpuExecOptions o = {.pool = pool, .num_threads = split ? 2 : 1, .kernels_split = &nsplit};
  if (!s) s = cpu_execute_opts(x, args, m->entry->nparams, &o, &got);
  bool ok = !s && (!split || nsplit > 0) && literal_equal(w, got);
  if (s) fprintf(stderr, "%s: %s\n", name, cxla_status_message(s));
  else if (!ok)
    fprintf(stderr, "%s: %s run differs (%lld splits)\n", name, split ? "split" : "1-thread", (long long)nsplit);
  cxla_status_free(s);
  cpu_vs_interp_free_args(m, args);
  literal_free(want);
  literal_free(got);
  cpu_executable_destroy(x);
  rt_pool_destroy(pool);
  cxla_module_destroy(m);
  if (split) unsetenv("CXLA_CPU_GRAIN");
  return ok;
}
