/* The backend registry: a static const table, compiled backends first (the
 * first is the default), the reference interpreter last. A backend built
 * only on some machines (e.g. "cpu" with LLVM) adds its line under its own
 * #if. */
#include <string.h>

#include "runtime/backend.h"

static const Backend *const registry[] = {
    &cpu_backend,
    &interp_backend,
};

int rt_backend_count(void) { return (int)(sizeof registry / sizeof registry[0]); }

const Backend *rt_backend_at(int i) {
  return i >= 0 && i < rt_backend_count() ? registry[i] : NULL;
}

const Backend *rt_backend_find(const char *name) {
  if (!name) return NULL;
  for (int i = 0; i < rt_backend_count(); i++)
    if (strcmp(registry[i]->name, name) == 0) return registry[i];
  return NULL;
}

int cxla_backend_count(void) { return rt_backend_count(); }

const char *cxla_backend_name(int i) {
  const Backend *b = rt_backend_at(i);
  return b ? b->name : NULL;
}

const char *cxla_backend_default(void) {
  for (int i = 0; i < rt_backend_count(); i++)
    if (registry[i]->compiled) return registry[i]->name;
  return "interp";
}
