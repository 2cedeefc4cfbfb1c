/* The step profile of `cxla bench --profile` (profile.h). Steps are keyed
 * by their name and kind strings, which live as long as the executable:
 * the same instruction gives the same pointers on every run. */
#include "profile.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "base/base.h"

typedef struct Entry {
  const char *name, *op, *kind;
  double seconds, flops;
  double best;       /* the fastest single call */
  long long calls;
  int threads;
} Entry;

struct StepProfile {
  Entry *e;       /* open addressing on (name, kind) */
  size_t cap, n;
  bool on, oom;
};

cxla_status step_profile_create(StepProfile **out) {
  *out = cxla_calloc(1, sizeof **out);
  return *out ? NULL : cxla_oom();
}

void step_profile_destroy(StepProfile *p) {
  if (!p) return;
  cxla_free(p->e);
  cxla_free(p);
}

void step_profile_enable(StepProfile *p, bool on) { p->on = on; }

static size_t slot_of(const Entry *e, size_t cap, const char *name, const char *kind) {
  uintptr_t h = ((uintptr_t)name * 0x9e3779b97f4a7c15ull) ^ ((uintptr_t)kind >> 3);
  size_t i = (size_t)(h ^ (h >> 29)) & (cap - 1);
  while (e[i].name && (e[i].name != name || e[i].kind != kind)) i = (i + 1) & (cap - 1);
  return i;
}

static bool grow(StepProfile *p) {
  size_t cap = p->cap ? 2 * p->cap : 256;
  Entry *e = cxla_calloc(cap, sizeof *e);
  if (!e) return false;
  for (size_t i = 0; i < p->cap; i++)
    if (p->e[i].name) e[slot_of(e, cap, p->e[i].name, p->e[i].kind)] = p->e[i];
  cxla_free(p->e);
  p->e = e;
  p->cap = cap;
  return true;
}

void step_profile_record(void *arg, const cxla_profile_step *s) {
  StepProfile *p = arg;
  if (!p->on || p->oom || !s->name || !s->kind) return;
  if (2 * (p->n + 1) > p->cap && !grow(p)) {
    p->oom = true;
    return;
  }
  Entry *e = &p->e[slot_of(p->e, p->cap, s->name, s->kind)];
  if (!e->name) {
    *e = (Entry){.name = s->name, .op = s->op ? s->op : "?", .kind = s->kind, .best = s->seconds};
    p->n++;
  }
  e->seconds += s->seconds;
  if (s->seconds < e->best) e->best = s->seconds;
  e->flops += s->flops;
  e->calls++;
  if (s->threads > e->threads) e->threads = s->threads;
}

static int by_time(const void *a, const void *b) {
  const Entry *x = *(const Entry *const *)a, *y = *(const Entry *const *)b;
  return x->seconds < y->seconds ? 1 : x->seconds > y->seconds ? -1 : strcmp(x->name, y->name);
}

void step_profile_print(const StepProfile *p, FILE *f, int runs, double run_s, int top) {
  if (p->oom) {
    fprintf(f, "profile    out of memory while recording\n");
    return;
  }
  if (runs < 1) runs = 1;
  const Entry **v = cxla_calloc(p->n ? p->n : 1, sizeof *v);
  if (!v) {
    fprintf(f, "profile    out of memory\n");
    return;
  }
  size_t n = 0;
  double total = 0;
  for (size_t i = 0; i < p->cap; i++)
    if (p->e[i].name) {
      v[n++] = &p->e[i];
      total += p->e[i].seconds;
    }
  qsort(v, n, sizeof *v, by_time);
  double per = 1e3 / runs;
  fprintf(f, "profile    steps %.3f ms per run of the %.3f ms median run (%zu steps, %d runs)\n", total * per,
          run_s * 1e3, n, runs);
  /* totals per kind, in order of first appearance in the sorted list */
  const char *kinds[16];
  int nk = 0;
  for (size_t i = 0; i < n && nk < 16; i++) {
    bool seen = false;
    for (int k = 0; k < nk; k++) seen |= strcmp(kinds[k], v[i]->kind) == 0;
    if (!seen) kinds[nk++] = v[i]->kind;
  }
  for (int k = 0; k < nk; k++) {
    double t = 0, fl = 0;
    long long c = 0;
    for (size_t i = 0; i < n; i++)
      if (strcmp(v[i]->kind, kinds[k]) == 0) {
        t += v[i]->seconds;
        fl += v[i]->flops;
        c += v[i]->calls;
      }
    fprintf(f, "  %-15s %9.3f ms %5.1f%%  %7.1f calls", kinds[k], t * per, total > 0 ? 100 * t / total : 0,
            (double)c / runs);
    if (fl > 0 && t > 0) fprintf(f, "  %7.1f GFLOP/s", fl / t * 1e-9);
    fputc('\n', f);
  }
  /* best: the fastest call times the calls per run, the step's time on a
   * quiet machine */
  double best = 0;
  for (size_t i = 0; i < n; i++) best += v[i]->best * (double)v[i]->calls;
  fprintf(f, "  (the best calls: %.3f ms per run)\n", best * per);
  fprintf(f, "  %9s %6s %9s %7s %-15s %-14s %8s %3s  %s\n", "ms/run", "%", "best", "calls", "kind", "op", "GFLOP/s",
          "thr", "name");
  for (size_t i = 0; i < n && (int)i < top; i++) {
    const Entry *e = v[i];
    char rate[32] = "";
    if (e->flops > 0 && e->seconds > 0) snprintf(rate, sizeof rate, "%.1f", e->flops / e->seconds * 1e-9);
    fprintf(f, "  %9.3f %5.1f%% %9.3f %7.1f %-15s %-14s %8s %3d  %s\n", e->seconds * per,
            total > 0 ? 100 * e->seconds / total : 0, e->best * (double)e->calls * per, (double)e->calls / runs,
            e->kind, e->op, rate, e->threads, e->name);
  }
  cxla_free(v);
}
