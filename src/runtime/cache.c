/* The client's in-memory compile cache (runtime_internal.h): compiling the
 * same module with the same options twice in one process compiles once.
 * A small table with least-recently-used eviction, under the client's
 * mutex; the lookups are by 32-digit fingerprint. */
#include <stdio.h>
#include <string.h>

#include "runtime/runtime_internal.h"

RtCompiled *rt_cache_find(cxla_client *c, const char *key) {
  if (!c->cache_on) return NULL;
  RtCompiled *hit = NULL;
  pthread_mutex_lock(&c->cache_mu);
  for (int i = 0; i < c->ncache; i++)
    if (strcmp(c->cache[i].key, key) == 0) {
      hit = c->cache[i].compiled;
      c->cache[i].used = ++c->cache_clock;
      rt_compiled_retain(hit);
      break;
    }
  pthread_mutex_unlock(&c->cache_mu);
  return hit;
}

void rt_cache_add(cxla_client *c, const char *key, RtCompiled *compiled) {
  if (!c->cache_on) return;
  RtCompiled *evicted = NULL;
  pthread_mutex_lock(&c->cache_mu);
  int slot = -1;
  for (int i = 0; i < c->ncache && slot < 0; i++)
    if (strcmp(c->cache[i].key, key) == 0) slot = -2; /* there already */
  if (slot == -1) {
    if (c->ncache < RT_CACHE_ENTRIES) {
      slot = c->ncache++;
    } else {
      slot = 0;
      for (int i = 1; i < c->ncache; i++)
        if (c->cache[i].used < c->cache[slot].used) slot = i;
      evicted = c->cache[slot].compiled;
    }
    snprintf(c->cache[slot].key, sizeof c->cache[slot].key, "%s", key);
    rt_compiled_retain(compiled);
    c->cache[slot].compiled = compiled;
    c->cache[slot].used = ++c->cache_clock;
  }
  pthread_mutex_unlock(&c->cache_mu);
  rt_compiled_release(evicted); /* outside the lock: it may call the backend */
}

void rt_cache_clear(cxla_client *c) {
  for (int i = 0; i < c->ncache; i++) rt_compiled_release(c->cache[i].compiled);
  c->ncache = 0;
}
