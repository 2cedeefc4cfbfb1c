/* Clients, devices, events and the backend registry's public face
 * (include/cxla/runtime.h). */
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "runtime/disk_cache.h"
#include "runtime/runtime_internal.h"

cxla_status rt_read_options(const void *user, size_t full, size_t min_size, void *dst,
                            const char *what) {
  memset(dst, 0, full);
  if (user) {
    size_t n = *(const size_t *)user;
    if (n < min_size)
      return ERR(INVALID_ARGUMENT,
                 "%s.struct_size is %zu, smaller than any version of the struct (%zu); "
                 "set it to sizeof(%s)", what, n, min_size, what);
    memcpy(dst, user, n < full ? n : full);
  }
  *(size_t *)dst = full;
  return NULL;
}

/* The default thread count: $CXLA_NUM_THREADS when set and not empty,
 * else the online cores. The variable must be a whole number from 1 to
 * 4096 written in decimal digits only; anything else is an error naming
 * it (a mistyped setting is reported, not silently replaced). */
cxla_status rt_default_threads(const char *env, int *out) {
  *out = 1;
  if (env && *env) {
    long v = 0;
    const char *p = env;
    for (; *p >= '0' && *p <= '9' && v <= 4096; p++) v = v * 10 + (*p - '0');
    if (*p || v < 1 || v > 4096)
      return ERR(INVALID_ARGUMENT,
                 "CXLA_NUM_THREADS='%.40s' is not a whole number from 1 to 4096 "
                 "(unset it for one thread per core)", env);
    *out = (int)v;
    return NULL;
  }
  long n = sysconf(_SC_NPROCESSORS_ONLN);
  *out = n > 0 && n <= 4096 ? (int)n : 1;
  return NULL;
}

cxla_status cxla_client_create(const cxla_client_options *options, cxla_client **out_client) {
  if (!out_client) return ERR(INVALID_ARGUMENT, "cxla_client_create: out_client is NULL");
  *out_client = NULL;
  cxla_client_options o;
  TRY(rt_read_options(options, sizeof o, RT_CLIENT_OPTIONS_V1, &o, "cxla_client_options"));
  const char *name = o.backend ? o.backend : cxla_backend_default();
  const Backend *b = rt_backend_find(name);
  if (!b) {
    StrBuf known;
    sb_init(&known);
    for (int i = 0; i < rt_backend_count(); i++)
      sb_printf(&known, "%s%s", i ? ", " : "", rt_backend_at(i)->name);
    cxla_status s = known.oom ? cxla_oom()
                              : ERR(NOT_FOUND, "no backend named '%s' (this cxla has: %s)",
                                    name, known.data ? known.data : "");
    sb_free(&known);
    return s;
  }
  if (o.num_threads < 0 || o.num_threads > 4096)
    return ERR(INVALID_ARGUMENT, "num_threads must be 0 (default) to 4096, got %d",
               o.num_threads);
  if (o.allocator && (!o.allocator->alloc || !o.allocator->free))
    return ERR(INVALID_ARGUMENT, "the allocator needs both alloc and free");
  int threads = o.num_threads;
  if (!threads) TRY(rt_default_threads(getenv("CXLA_NUM_THREADS"), &threads));
  cxla_client *c = cxla_calloc(1, sizeof *c);
  if (!c) return cxla_oom();
  atomic_init(&c->refs, 1);
  c->backend = b;
  rt_host_init(&c->host, o.allocator);
  c->num_threads = threads;
  c->host_callback = o.host_callback;
  c->host_callback_arg = o.host_callback_arg;
  if (b->max_threads > 0 && c->num_threads > b->max_threads) c->num_threads = b->max_threads;
  c->device = (cxla_device){c, 0};
  const char *cache = getenv("CXLA_CACHE");
  c->cache_on = !(cache && strcmp(cache, "0") == 0);
  if (b->program_serialize && b->program_deserialize && b->target_id)
    c->disk_dir = rt_disk_cache_dir(); /* NULL (no disk cache) also on OOM */
  pthread_mutex_init(&c->cache_mu, NULL);
  if (b->max_threads != 1 && c->num_threads > 1) {
    cxla_status s = rt_pool_create(c->num_threads, &c->pool);
    if (s) {
      pthread_mutex_destroy(&c->cache_mu);
      cxla_free(c->disk_dir);
      rt_host_destroy(&c->host);
      cxla_free(c);
      return s;
    }
  }
  if (b->client_create) {
    BackendClientOptions bo = {.num_threads = c->num_threads, .host = &c->host, .pool = c->pool};
    cxla_status s = b->client_create(&bo, &c->state);
    if (s) {
      rt_pool_destroy(c->pool);
      pthread_mutex_destroy(&c->cache_mu);
      cxla_free(c->disk_dir);
      rt_host_destroy(&c->host);
      cxla_free(c);
      return cxla_status_annotate(s, "backend %s", b->name);
    }
  }
  *out_client = c;
  return NULL;
}

void rt_client_retain(cxla_client *c) { atomic_fetch_add(&c->refs, 1); }

void rt_client_release(cxla_client *c) {
  if (!c) return;
  if (atomic_fetch_sub(&c->refs, 1) != 1) return;
  /* The cache's programs hold no client reference; they go first, while
   * the backend's client state is still there. */
  rt_cache_clear(c);
  pthread_mutex_destroy(&c->cache_mu);
  cxla_free(c->disk_dir);
  if (c->backend->client_destroy) c->backend->client_destroy(c->state);
  rt_pool_destroy(c->pool);
  rt_host_destroy(&c->host);
  cxla_free(c);
}

void cxla_client_destroy(cxla_client *client) { rt_client_release(client); }

const char *cxla_client_backend(const cxla_client *client) {
  return client ? client->backend->name : NULL;
}

int cxla_client_compiles(const cxla_client *client) {
  return client ? client->backend->compiled : 0;
}

const char *cxla_client_version(const cxla_client *client) { return CXLA_VERSION; }

int cxla_client_num_threads(const cxla_client *client) {
  return client ? client->num_threads : 0;
}

int cxla_client_device_count(const cxla_client *client) { return client ? 1 : 0; }

cxla_device *cxla_client_device(const cxla_client *client, int i) {
  return client && i == 0 ? (cxla_device *)&client->device : NULL;
}

int cxla_device_id(const cxla_device *device) { return device ? device->id : -1; }

const char *cxla_device_kind(const cxla_device *device) { return "cpu"; }

/* ---- events ---- */

static cxla_status status_copy(cxla_status s) {
  return s ? cxla_status_make(cxla_status_code_of(s), "%s", cxla_status_message(s)) : NULL;
}

cxla_status rt_event_ready(cxla_status s, cxla_event **out) {
  if (!out) return NULL;
  *out = NULL;
  cxla_event *e = cxla_calloc(1, sizeof *e);
  if (!e) return cxla_oom();
  e->error = status_copy(s);
  *out = e;
  return NULL;
}

cxla_status cxla_event_await(cxla_event *event) {
  if (!event) return ERR(INVALID_ARGUMENT, "cxla_event_await: event is NULL");
  return status_copy(event->error);
}

int cxla_event_is_ready(const cxla_event *event) { return 1; }

cxla_status cxla_event_on_ready(cxla_event *event, void (*fn)(cxla_status, void *), void *arg) {
  if (!event || !fn) return ERR(INVALID_ARGUMENT, "cxla_event_on_ready: event or fn is NULL");
  fn(status_copy(event->error), arg);
  return NULL;
}

void cxla_event_destroy(cxla_event *event) {
  if (!event) return;
  cxla_status_free(event->error);
  cxla_free(event);
}
