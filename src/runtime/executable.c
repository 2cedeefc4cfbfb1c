/* Compilation and execution (include/cxla/runtime.h): the part every
 * backend shares -- copying, verifying and optimizing the module, planning
 * its buffers, checking arguments, allocating results and the arena -- around
 * the backend's compile and execute (backend.h). */
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "passes/dynamic_padder.h"
#include "passes/pass.h"
#include "runtime/disk_cache.h"
#include "runtime/runtime_internal.h"
#include "base/fpenv.h"

typedef struct RtShape {
  ElemType type;
  int rank;
  const int64_t *dims;   /* borrowed from the module */
  size_t bytes;
  int memory_space;      /* cxla_memory_space: the entry layout's S(n) */
} RtShape;

/* What compiling produced, shared by every executable of the same program
 * (the client's compile cache hands it out again). Read-only once made. */
struct RtCompiled {
  atomic_int refs;
  cxla_client *client;   /* not a reference: every holder holds one */
  HloModule *module;     /* optimized; owned */
  BufferPlan plan;
  BackendProgram program;
  char *hlo_text;
  char fingerprint[33];
  int nparams, nresults;
  RtShape *params, *results;  /* token leaves included (type T_TOKEN, no bytes) */
  /* Bounded dynamic results (dynamic_padder.h): the caller sees the first
   * nvisible results, each trimmed to its sizes, which the last
   * nresults - nvisible leaves hold. No dynamic result: nvisible ==
   * nresults, dyn empty. */
  int nvisible;
  DynamicResults dyn;
  int narrays;                /* the results that are arrays: the backend's */
  double plan_s, backend_s;
};

struct cxla_executable {
  cxla_client *client;   /* a reference */
  RtCompiled *c;         /* a reference */
  cxla_compile_options options; /* dump_dir not kept (NULL) */
  double optimize_s;
  bool cache_hit;        /* c came from the client's cache */
};

static double now_s(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}


/* The default pipeline, or with the scans kept for a backend that runs
 * them (b NULL: none). */
static cxla_status optimize_for(const Backend *b, cxla_module *m, const cxla_compile_options *options) {
  cxla_compile_options o;
  TRY(rt_read_options(options, sizeof o, RT_COMPILE_OPTIONS_V1, &o, "cxla_compile_options"));
  PipelineOptions po = {.verify = o.verify_passes != 0, .dump_dir = o.dump_dir,
                        .module_number = 1};
  return b && b->keeps_scans ? pipeline_run_keep_scans(m, &po) : pipeline_run(m, NULL, 0, &po);
}

static cxla_status module_optimize(cxla_module *m, const cxla_compile_options *options) {
  if (!m) return ERR(INVALID_ARGUMENT, "cxla_module_optimize: module is NULL");
  return optimize_for(NULL, m, options);
}

cxla_status cxla_module_optimize(cxla_module *m, const cxla_compile_options *options) {
  unsigned fp = fpenv_default_enter();
  cxla_status s = module_optimize(m, options);
  fpenv_leave(fp);
  return s;
}

static cxla_status client_optimize(cxla_client *c, cxla_module *m, const cxla_compile_options *options) {
  if (!c || !m) return ERR(INVALID_ARGUMENT, "cxla_client_optimize: client or module is NULL");
  return optimize_for(c->backend, m, options);
}

cxla_status cxla_client_optimize(cxla_client *c, cxla_module *m, const cxla_compile_options *options) {
  unsigned fp = fpenv_default_enter();
  cxla_status s = client_optimize(c, m, options);
  fpenv_leave(fp);
  return s;
}

/* ---- fingerprints: two 64-bit FNV-1a hashes (different offsets) ---- */

typedef struct Fnv {
  uint64_t a, b;
} Fnv;

static void fnv_bytes(Fnv *h, const void *p, size_t n) {
  const unsigned char *c = p;
  for (size_t i = 0; i < n; i++) {
    h->a = (h->a ^ c[i]) * 0x100000001b3ull;
    h->b = (h->b ^ c[i]) * 0x100000001b3ull;
  }
}

static void fnv_str(Fnv *h, const char *s) { fnv_bytes(h, s, strlen(s) + 1); }

/* ---- shapes ---- */

/* The leaves of a parameter or result: arrays and tokens (JAX's ordered
 * effects pass tokens in and out of the entry computation); a token leaf
 * has rank 0 and no bytes. */
static bool is_leaf(const Shape *s) { return type_is_array(s->type) || s->type == T_TOKEN; }

static void count_leaves(const Shape *s, int *n, int *narrays) {
  if (s->type == T_TUPLE) {
    for (int i = 0; i < s->ntuple; i++) count_leaves(s->tuple[i], n, narrays);
  } else if (is_leaf(s)) {
    (*n)++;
    *narrays += s->type != T_TOKEN;
  }
}

/* The memory space of a leaf's layout: S(n) in its layout's tail (XLA's
 * "{0:S(5)}"), else the default, 0. */
static int layout_memory_space(const Shape *s) {
  const char *t = s && s->has_layout && s->layout_tail ? strstr(s->layout_tail, "S(") : NULL;
  if (!t) return CXLA_MEMORY_DEVICE;
  long v = strtol(t + 2, NULL, 10);
  return v == CXLA_MEMORY_PINNED_HOST || v == CXLA_MEMORY_UNPINNED_HOST ? (int)v : CXLA_MEMORY_DEVICE;
}

/* The leaves of s into out[*k ..], depth-first; each leaf's memory space
 * from its shape in l, s's shape in the entry layout (the same tree;
 * NULL: none, the default space). */
static void collect_leaves(const Shape *s, const Shape *l, RtShape *out, int *k) {
  if (s->type == T_TUPLE) {
    bool same = l && l->type == T_TUPLE && l->ntuple == s->ntuple;
    for (int i = 0; i < s->ntuple; i++) collect_leaves(s->tuple[i], same ? l->tuple[i] : NULL, out, k);
  } else if (s->type == T_TOKEN) {
    out[(*k)++] = (RtShape){T_TOKEN, 0, NULL, 0, CXLA_MEMORY_DEVICE};
  } else if (type_is_array(s->type)) {
    int space = l && l->type == s->type ? layout_memory_space(l) : CXLA_MEMORY_DEVICE;
    out[(*k)++] = (RtShape){s->type, s->rank, s->dims,
                            (size_t)shape_elems(s) * (size_t)type_bytes(s->type), space};
  }
}

static cxla_status describe_io(cxla_executable *e) {
  const Computation *c = e->c->module->entry;
  const EntryLayout *el = e->c->module->entry_layout;
  e->c->nparams = c->nparams;
  e->c->params = cxla_calloc((size_t)c->nparams + 1, sizeof(RtShape));
  if (!e->c->params) return cxla_oom();
  for (int i = 0; i < c->nparams; i++) {
    const Instr *p = c->params ? c->params[i] : NULL;
    if (!p) return ERR(INVALID_ARGUMENT, "entry computation %%%s has no parameter %d", c->name, i);
    if (!is_leaf(p->shape))
      return ERR(UNIMPLEMENTED,
                 "entry parameter %d (%%%s) is not an array or a token; the runtime takes "
                 "array and token parameters only", i, p->name);
    TRY(shape_check_size(p->shape));
    int k = 0;
    collect_leaves(p->shape, el && i < el->nparams ? el->params[i] : NULL, &e->c->params[i], &k);
  }
  int n = 0;
  count_leaves(c->root->shape, &n, &e->c->narrays);
  e->c->nresults = n;
  e->c->nvisible = e->c->dyn.nresults ? e->c->dyn.nresults : n;
  if (e->c->nvisible > n) return ERR(INTERNAL, "the dynamic padder lost results");
  e->c->results = cxla_calloc((size_t)n + 1, sizeof(RtShape));
  if (!e->c->results) return cxla_oom();
  int k = 0;
  collect_leaves(c->root->shape, el ? el->result : NULL, e->c->results, &k);
  for (int i = 0; i < n; i++)
    if (e->c->results[i].bytes > (size_t)CXLA_MAX_ARRAY_BYTES)
      return ERR(RESOURCE_EXHAUSTED, "result %d is too large", i);
  return NULL;
}

void rt_compiled_retain(RtCompiled *c) { atomic_fetch_add(&c->refs, 1); }

void rt_compiled_release(RtCompiled *c) {
  if (!c || atomic_fetch_sub(&c->refs, 1) != 1) return;
  if (c->program.impl) c->client->backend->program_destroy(c->client->state, c->program.impl);
  buffer_plan_free(&c->plan);
  if (c->module) module_destroy(c->module);
  cxla_free(c->hlo_text);
  cxla_free(c->params);
  cxla_free(c->results);
  dynamic_results_free(&c->dyn);
  cxla_free(c);
}

void cxla_executable_destroy(cxla_executable *e) {
  if (!e) return;
  rt_compiled_release(e->c);
  cxla_client *c = e->client;
  cxla_free(e);
  rt_client_release(c);
}

/* The fingerprint of a text of kind `kind` under this backend: the key
 * of the compile caches. The compile options that change the program made
 * from a source text go into its kind (today: no_optimize; dump_dir and
 * verify_passes do not change the program). An "optimized" text is what
 * the backend compiles, however it was reached: a module optimized here
 * and its printed text compiled without the optimizer (a serialized
 * executable loaded) are one program, with one fingerprint (and one disk
 * cache entry). */
static void fingerprint_dyn(const char *backend, const char *kind, const char *text,
                            const DynamicResults *dyn, char out[33]) {
  Fnv h = {0xcbf29ce484222325ull, 0x84222325cbf29ce4ull};
  fnv_str(&h, CXLA_VERSION);
  fnv_str(&h, backend);
  fnv_str(&h, kind);
  fnv_str(&h, text);
  if (dyn && dyn->nresults) { /* which leaves are sizes is part of the program */
    fnv_bytes(&h, dyn->dims_at, ((size_t)dyn->nresults + 1) * sizeof(int));
    fnv_bytes(&h, dyn->size_leaf, (size_t)dyn->dims_at[dyn->nresults] * sizeof(int));
  }
  snprintf(out, 33, "%016llx%016llx", (unsigned long long)h.a, (unsigned long long)h.b);
}

static void fingerprint(const char *backend, const char *kind, const char *text, char out[33]) {
  fingerprint_dyn(backend, kind, text, NULL, out);
}

/* Optimizes the executable's private module and plans it: everything up
 * to the backend. Without optimization the module's text is the source
 * text, which is taken (*source_text set to NULL) rather than printed
 * again: the module is parsed from it, so it names the module as well. */
static cxla_status prepare(cxla_executable *e, char **source_text, const char *name) {
  TRY(cxla_module_parse(*source_text, strlen(*source_text), name, &e->c->module));
  TRY(cxla_module_verify(e->c->module));
  /* bounded dynamic shapes are made static whatever the backend or the
   * options: no backend runs them as they are */
  if (dynamic_padder_needed(e->c->module)) {
    TRY(cxla_status_annotate(dynamic_padder_run(e->c->module, &e->c->dyn), "dynamic padder"));
    TRY(cxla_status_annotate(cxla_module_verify(e->c->module), "after the dynamic padder"));
  }
  if (!e->options.no_optimize) {
    double t0 = now_s();
    TRY(optimize_for(e->client->backend, e->c->module, &e->options));
    e->optimize_s = now_s() - t0;
    TRY(cxla_status_annotate(cxla_module_verify(e->c->module), "after optimization"));
  }
  if (!e->c->module->entry) return ERR(INVALID_ARGUMENT, "the module has no entry computation");
  for (int i = 0; i < e->c->module->ncomps; i++) comp_renumber(e->c->module->comps[i]);
  TRY(describe_io(e));
  if (e->options.no_optimize) {
    e->c->hlo_text = *source_text;
    *source_text = NULL;
  } else {
    TRY(cxla_module_print(e->c->module, &e->c->hlo_text));
  }
  fingerprint_dyn(e->client->backend->name, "optimized", e->c->hlo_text, &e->c->dyn,
                  e->c->fingerprint);
  return NULL;
}

/* The backend's compile, through the disk cache when the backend supports
 * it (see Backend.program_serialize): a hit deserializes; a miss compiles
 * and stores. The disk cache never makes a compile fail: an unreadable,
 * damaged or undeserializable entry means compiling, a failed store is
 * ignored. */
static cxla_status disk_compile(cxla_executable *e, const Backend *b,
                                const BackendCompileInput *in) {
  BackendProgram *out = &e->c->program;
  const char *dir = e->client->disk_dir;
  if (!dir || !e->client->cache_on || e->options.dump_dir) return b->compile(in, out);
  char key[33];
  fingerprint(b->target_id(e->client->state), "disk", e->c->fingerprint, key);
  void *data = NULL;
  size_t len = 0;
  cxla_status s = rt_disk_cache_get(dir, key, &data, &len);
  if (!s) {
    s = b->program_deserialize(in, data, len, out);
    cxla_free(data);
    if (!s) {
      out->cache_hit = true;
      return NULL;
    }
    memset(out, 0, sizeof *out);
  }
  cxla_status_free(s);
  TRY(b->compile(in, out));
  data = NULL;
  s = b->program_serialize(e->client->state, out->impl, &data, &len);
  if (!s) s = rt_disk_cache_put(dir, key, data, len, rt_disk_cache_max_bytes());
  cxla_status_free(s);
  cxla_free(data);
  return NULL;
}

/* The backend's part: supports, compile. */
static cxla_status generate(cxla_executable *e) {
  const Backend *b = e->client->backend;
  double t0 = now_s();
  TRY(buffer_assign(e->c->module, &e->c->plan));
  e->c->plan_s = now_s() - t0;
  if (b->supports) TRY(cxla_status_annotate(b->supports(e->client->state, e->c->module),
                                            "backend %s", b->name));
  BackendCompileInput in = {.client_state = e->client->state,
                            .module = e->c->module,
                            .plan = &e->c->plan,
                            .options = &e->options,
                            .num_threads = e->client->num_threads,
                            .host = &e->client->host};
  t0 = now_s();
  cxla_status s = disk_compile(e, b, &in);
  e->c->backend_s = now_s() - t0;
  if (s) {
    memset(&e->c->program, 0, sizeof e->c->program);
    return cxla_status_annotate(s, "backend %s", b->name);
  }
  if (e->c->program.arena_bytes < 0 || e->c->program.arena_bytes > CXLA_MAX_ARRAY_BYTES)
    return ERR(INTERNAL, "backend %s asks for an arena of %lld bytes", b->name,
               (long long)e->c->program.arena_bytes);
  return NULL;
}

/* Compiles, through the client's cache: the module as given (its text,
 * the backend, the options) is looked up first; then, after optimization,
 * the optimized module; a miss on both runs the backend, and the result is
 * cached under both keys. Dumps (dump_dir) bypass the lookups, so that
 * they are written. */
static cxla_status compile(cxla_executable *e, const cxla_module *module) {
  cxla_client *cl = e->client;
  char *text = NULL;
  TRY(cxla_module_print(module, &text));
  char source_key[33];
  fingerprint(cl->backend->name, e->options.no_optimize ? "source, not optimized" : "source", text, source_key);
  bool lookup = e->options.dump_dir == NULL;
  if (lookup && (e->c = rt_cache_find(cl, source_key))) {
    cxla_free(text);
    e->cache_hit = true;
    return NULL;
  }
  if (!(e->c = cxla_calloc(1, sizeof *e->c))) {
    cxla_free(text);
    return cxla_oom();
  }
  atomic_init(&e->c->refs, 1);
  e->c->client = cl;
  cxla_status s = prepare(e, &text, module->name);
  cxla_free(text);
  TRY(s);
  RtCompiled *hit = lookup ? rt_cache_find(cl, e->c->fingerprint) : NULL;
  if (hit) {
    rt_compiled_release(e->c);
    e->c = hit;
    e->cache_hit = true;
  } else {
    TRY(generate(e));
    rt_cache_add(cl, e->c->fingerprint, e->c);
  }
  rt_cache_add(cl, source_key, e->c);
  return NULL;
}

static cxla_status client_compile(cxla_client *client, const cxla_module *module,
                                  const cxla_compile_options *options, cxla_executable **out_executable) {
  if (!out_executable) return ERR(INVALID_ARGUMENT, "cxla_client_compile: out_executable is NULL");
  *out_executable = NULL;
  if (!client || !module) return ERR(INVALID_ARGUMENT, "cxla_client_compile: client or module is NULL");
  cxla_executable *e = cxla_calloc(1, sizeof *e);
  if (!e) return cxla_oom();
  cxla_status s = rt_read_options(options, sizeof e->options, RT_COMPILE_OPTIONS_V1, &e->options,
                                  "cxla_compile_options");
  if (s) {
    cxla_free(e);
    return s;
  }
  rt_client_retain(client);
  e->client = client;
  s = compile(e, module);
  e->options.dump_dir = NULL; /* the caller's string */
  if (s) {
    cxla_executable_destroy(e);
    return s;
  }
  *out_executable = e;
  return NULL;
}

cxla_status cxla_client_compile(cxla_client *client, const cxla_module *module,
                                const cxla_compile_options *options,
                                cxla_executable **out_executable) {
  unsigned fp = fpenv_default_enter();
  cxla_status s = client_compile(client, module, options, out_executable);
  fpenv_leave(fp);
  return s;
}

const char *cxla_executable_name(const cxla_executable *e) {
  if (!e) return NULL;
  return e->c->module->entry && e->c->module->entry->name ? e->c->module->entry->name : e->c->module->name;
}
const char *cxla_executable_fingerprint(const cxla_executable *e) {
  return e ? e->c->fingerprint : NULL;
}
cxla_client *cxla_executable_client(const cxla_executable *e) { return e ? e->client : NULL; }
int cxla_executable_num_parameters(const cxla_executable *e) { return e ? e->c->nparams : 0; }
int cxla_executable_num_results(const cxla_executable *e) { return e ? e->c->nvisible : 0; }
const char *cxla_executable_hlo_text(const cxla_executable *e) { return e ? e->c->hlo_text : NULL; }
int64_t cxla_executable_temp_bytes(const cxla_executable *e) {
  return e ? e->c->program.arena_bytes : 0;
}

cxla_status cxla_executable_compile_stats(const cxla_executable *e, cxla_compile_stats *out) {
  if (!e || !out) return ERR(INVALID_ARGUMENT, "cxla_executable_compile_stats: NULL argument");
  size_t n = out->struct_size;
  if (n < RT_SIZE_UPTO(cxla_compile_stats, cache_hit))
    return ERR(INVALID_ARGUMENT, "cxla_compile_stats.struct_size is %zu; set it to sizeof", n);
  cxla_compile_stats st = {.struct_size = n,
                           .optimize_seconds = e->optimize_s,
                           .plan_seconds = e->cache_hit ? 0 : e->c->plan_s,
                           .backend_seconds = e->cache_hit ? 0 : e->c->backend_s,
                           .codegen_seconds = e->cache_hit ? 0 : e->c->program.codegen_seconds,
                           .llvm_seconds = e->cache_hit ? 0 : e->c->program.llvm_seconds,
                           .cache_hit = e->cache_hit || e->c->program.cache_hit};
  memcpy(out, &st, n < sizeof st ? n : sizeof st);
  return NULL;
}

static cxla_status shape_out(const RtShape *v, int n, int i, const char *what, cxla_type *t,
                             int *rank, const int64_t **dims) {
  if (t) *t = CXLA_TYPE_COUNT;
  if (rank) *rank = 0;
  if (dims) *dims = NULL;
  if (i < 0 || i >= n)
    return ERR(OUT_OF_RANGE, "%s %d out of range (the executable has %d)", what, i, n);
  if (t) *t = v[i].type;
  if (rank) *rank = v[i].rank;
  if (dims) *dims = v[i].dims;
  return NULL;
}

cxla_status cxla_executable_parameter(const cxla_executable *e, int i, cxla_type *out_type,
                                      int *out_rank, const int64_t **out_dims) {
  if (!e) return ERR(INVALID_ARGUMENT, "executable is NULL");
  return shape_out(e->c->params, e->c->nparams, i, "parameter", out_type, out_rank, out_dims);
}

cxla_status cxla_executable_result(const cxla_executable *e, int i, cxla_type *out_type,
                                   int *out_rank, const int64_t **out_dims) {
  if (!e) return ERR(INVALID_ARGUMENT, "executable is NULL");
  return shape_out(e->c->results, e->c->nvisible, i, "result", out_type, out_rank, out_dims);
}

int cxla_executable_parameter_memory_space(const cxla_executable *e, int i) {
  return e && i >= 0 && i < e->c->nparams ? e->c->params[i].memory_space : -1;
}

int cxla_executable_result_memory_space(const cxla_executable *e, int i) {
  return e && i >= 0 && i < e->c->nvisible ? e->c->results[i].memory_space : -1;
}

/* ---- execution ---- */

static void shape_text(StrBuf *b, ElemType t, int rank, const int64_t *dims) {
  sb_printf(b, "%s[", cxla_type_name(t));
  for (int d = 0; d < rank; d++) sb_printf(b, "%s%lld", d ? "," : "", (long long)dims[d]);
  sb_putc(b, ']');
}

static cxla_status check_args(const cxla_executable *e, cxla_buffer *const *args, int nargs) {
  if (nargs != e->c->nparams)
    return ERR(INVALID_ARGUMENT, "%s takes %d arguments, got %d", cxla_executable_name(e),
               e->c->nparams, nargs);
  for (int i = 0; i < nargs; i++) {
    const cxla_buffer *a = args[i];
    const RtShape *p = &e->c->params[i];
    if (!a) return ERR(INVALID_ARGUMENT, "argument %d is NULL", i);
    if (a->client != e->client)
      return ERR(INVALID_ARGUMENT, "argument %d belongs to another client", i);
    /* a token parameter takes a token, or any buffer without data (JAX's
     * first token of an effect is a pred[0]) */
    if (p->type == T_TOKEN && a->size == 0) continue;
    bool same = a->type == p->type && a->rank == p->rank;
    for (int d = 0; same && d < p->rank; d++) same = a->dims[d] == p->dims[d];
    if (!same) {
      StrBuf want, got;
      sb_init(&want);
      sb_init(&got);
      shape_text(&want, p->type, p->rank, p->dims);
      shape_text(&got, a->type, a->rank, a->dims);
      cxla_status s = want.oom || got.oom
                          ? cxla_oom()
                          : ERR(INVALID_ARGUMENT, "argument %d: expected %s, got %s", i,
                                want.data, got.data);
      sb_free(&want);
      sb_free(&got);
      return s;
    }
  }
  return NULL;
}

static cxla_status execute(cxla_executable *e, cxla_buffer *const *args, int nargs,
                           const cxla_execute_options *o, cxla_buffer **out_results) {
  TRY(check_args(e, args, nargs));
  if (!(o->timeout_seconds >= 0)) return ERR(INVALID_ARGUMENT, "timeout_seconds must be >= 0");
  if (o->num_threads < 0) return ERR(INVALID_ARGUMENT, "num_threads must be >= 0");
  cxla_client *c = e->client;
  const RtHost *host = &c->host;
  /* the arguments' and results' views: on the stack for the usual few (a
   * small program's call is a few hundred nanoseconds; an allocation is
   * tens of them) */
  RtArray small[16];
  size_t nio = (size_t)nargs + (size_t)e->c->narrays;
  RtArray *io = nio <= sizeof small / sizeof small[0] ? small : cxla_calloc(nio + 1, sizeof(RtArray));
  if (!io) return cxla_oom();
  if (io == small) memset(small, 0, nio * sizeof *small); /* results not allocated: data NULL */
  RtArray *in = io, *res = io + nargs;
  for (int i = 0; i < nargs; i++)
    in[i] = e->c->params[i].type == T_TOKEN
                ? (RtArray){T_TOKEN, 0, NULL, NULL, 0, NULL}
                : (RtArray){args[i]->type, args[i]->rank, args[i]->dims, args[i]->data,
                            args[i]->size,
                            __atomic_load_n(&args[i]->exposed, __ATOMIC_RELAXED) ? NULL
                                                                                 : &args[i]->finite};
  cxla_status s = NULL;
  /* a token result's buffer, and a small result's, made now (a small
   * one's data in the struct's block, the default allocator only); other
   * results' data from the host's allocator, wrapped afterwards. res[]
   * holds the array results only: the backend's. */
  for (int i = 0, j = 0; i < e->c->nresults && !s; i++) {
    const RtShape *r = &e->c->results[i];
    void *p = NULL;
    if (r->type == T_TOKEN) {
      s = rt_buffer_wrap(c, T_TOKEN, 0, NULL, NULL, 0, false, &out_results[i]);
      continue;
    }
    if (host->small_inline && r->bytes <= RT_SMALL_BYTES) {
      s = rt_buffer_new_small(c, r->type, r->rank, r->dims, r->bytes, &out_results[i]);
      if (!s) p = out_results[i]->data;
    } else if (!(p = rt_alloc(host, r->bytes))) {
      s = ERR(RESOURCE_EXHAUSTED, "cannot allocate result %d (%zu bytes)", i, r->bytes);
    }
    res[j++] = (RtArray){r->type, r->rank, r->dims, p, r->bytes, NULL};
  }
  void *arena = NULL;
  size_t arena_bytes = (size_t)e->c->program.arena_bytes;
  if (!s && arena_bytes && !(arena = rt_alloc(host, arena_bytes)))
    s = ERR(RESOURCE_EXHAUSTED, "cannot allocate the arena of temporaries (%zu bytes)",
            arena_bytes);
  RtControl control;
  rt_control_init(&control, o->cancel, o->timeout_seconds);
  int threads = o->num_threads ? o->num_threads : c->num_threads;
  if (c->backend->max_threads > 0 && threads > c->backend->max_threads)
    threads = c->backend->max_threads;
  if (!s) {
    BackendExecuteArgs a = {.client_state = c->state,
                            .program = e->c->program.impl,
                            .module = e->c->module,
                            .plan = &e->c->plan,
                            .nargs = nargs,
                            .args = in,
                            .nresults = e->c->narrays,
                            .results = res,
                            .arena = arena,
                            .arena_bytes = (int64_t)arena_bytes,
                            .control = &control,
                            .num_threads = threads,
                            .host = host,
                            .pool = c->pool,
                            .profile = o->profile,
                            .profile_arg = o->profile_arg,
                            .host_callback = c->host_callback,
                            .host_callback_arg = c->host_callback_arg};
    s = c->backend->execute(&a);
  }
  rt_free(host, arena, arena_bytes);
  for (int i = 0, j = 0; i < e->c->nresults; i++) {
    if (e->c->results[i].type == T_TOKEN) {
      if (s) {
        cxla_buffer_destroy(out_results[i]);
        out_results[i] = NULL;
      }
      continue;
    }
    RtArray *r = &res[j++];
    if (!s && !out_results[i])
      s = rt_buffer_wrap(c, r->type, r->rank, r->dims, r->data, r->size, false, &out_results[i]);
    if (s) {
      /* a buffer made already frees its data; else the data alone */
      if (!out_results[i]) rt_free(host, r->data, r->size);
      cxla_buffer_destroy(out_results[i]);
      out_results[i] = NULL;
    }
  }
  if (io != small) cxla_free(io);
  return s;
}

/* Result i of a program with dynamic results, cut to the sizes the
 * program computed (the leaves named by dyn.size_leaf): a new buffer
 * holding the leading part of each dimension, or b itself where every
 * size is its bound. Takes b. */
static cxla_status trim_result(cxla_executable *e, int i, cxla_buffer *b, cxla_buffer *const *all,
                               cxla_buffer **out) {
  const DynamicResults *dr = &e->c->dyn;
  int rank = b->rank;
  int64_t small[8], *dims = rank <= 8 ? small : cxla_calloc((size_t)rank, sizeof *dims);
  if (!dims) {
    cxla_buffer_destroy(b);
    return cxla_oom();
  }
  bool cut = false;
  int64_t n = 1;
  for (int d = 0; d < rank; d++) {
    int at = dr->dims_at[i] + d;
    int leaf = at < dr->dims_at[i + 1] ? dr->size_leaf[at] : -1;
    dims[d] = b->dims[d];
    if (leaf >= 0 && all[leaf] && all[leaf]->type == T_S32 && all[leaf]->data) {
      int32_t v;
      memcpy(&v, all[leaf]->data, sizeof v);
      dims[d] = v < 0 ? 0 : v > b->dims[d] ? b->dims[d] : v;
    }
    cut |= dims[d] != b->dims[d];
    n *= dims[d];
  }
  cxla_status s = NULL;
  if (!cut) {
    *out = b;
  } else {
    /* row-major: copy the rows of the innermost dim that stay, each a
     * prefix of the old row */
    size_t esz = (size_t)type_bytes(b->type), bytes = (size_t)n * esz;
    char *data = rt_alloc(&e->client->host, bytes);
    if (!data) {
      s = ERR(RESOURCE_EXHAUSTED, "cannot allocate result %d (%zu bytes)", i, bytes);
    } else {
      int64_t inner = rank ? dims[rank - 1] : 1, rows = inner ? n / inner : 0;
      for (int64_t r = 0; r < rows; r++) {
        /* the old position of the new row r: its index digits in the old strides */
        int64_t rem = r, src = 0, stride = rank ? b->dims[rank - 1] : 1;
        for (int d = rank - 2; d >= 0; d--) {
          src += (rem % dims[d]) * stride;
          rem /= dims[d];
          stride *= b->dims[d];
        }
        memcpy(data + (size_t)(r * inner) * esz, (const char *)b->data + (size_t)src * esz,
               (size_t)inner * esz);
      }
      s = rt_buffer_wrap(e->client, b->type, rank, dims, data, bytes, false, out);
      if (s) rt_free(&e->client->host, data, bytes);
    }
    cxla_buffer_destroy(b);
  }
  if (dims != small) cxla_free(dims);
  return s;
}

/* execute, for a program with dynamic results: every leaf first, then
 * the visible ones trimmed and the sizes dropped. */
static cxla_status execute_visible(cxla_executable *e, cxla_buffer *const *args, int nargs,
                                   const cxla_execute_options *o, cxla_buffer **out_results) {
  int n = e->c->nresults, nv = e->c->nvisible;
  if (nv == n) return execute(e, args, nargs, o, out_results);
  cxla_buffer **all = cxla_calloc((size_t)n + 1, sizeof *all);
  if (!all) return cxla_oom();
  cxla_status s = execute(e, args, nargs, o, all);
  for (int i = 0; i < nv && !s; i++) {
    cxla_buffer *b = all[i];
    all[i] = NULL;
    s = b->type == T_TOKEN ? (out_results[i] = b, NULL) : trim_result(e, i, b, all, &out_results[i]);
  }
  for (int i = 0; i < n; i++) cxla_buffer_destroy(all[i]);
  if (s)
    for (int i = 0; i < nv; i++) {
      cxla_buffer_destroy(out_results[i]);
      out_results[i] = NULL;
    }
  cxla_free(all);
  return s;
}

static cxla_status executable_execute(cxla_executable *e, cxla_buffer *const *args, int nargs,
                                      const cxla_execute_options *options, cxla_buffer **out_results,
                                      cxla_event **out_done) {
  if (out_done) *out_done = NULL;
  if (!e) return ERR(INVALID_ARGUMENT, "cxla_executable_execute: executable is NULL");
  if (e->c->nvisible && !out_results)
    return ERR(INVALID_ARGUMENT, "cxla_executable_execute: out_results is NULL");
  for (int i = 0; i < e->c->nvisible; i++) out_results[i] = NULL;
  if (nargs && !args) return ERR(INVALID_ARGUMENT, "cxla_executable_execute: args is NULL");
  cxla_execute_options o;
  TRY(rt_read_options(options, sizeof o, RT_EXECUTE_OPTIONS_V1, &o, "cxla_execute_options"));
  cxla_status s = execute_visible(e, args, nargs, &o, out_results);
  cxla_status es = rt_event_ready(s, out_done);
  if (es && !s) {
    for (int i = 0; i < e->c->nvisible; i++) {
      cxla_buffer_destroy(out_results[i]);
      out_results[i] = NULL;
    }
    return es;
  }
  cxla_status_free(es);
  return s;
}

cxla_status cxla_executable_execute(cxla_executable *e, cxla_buffer *const *args, int nargs,
                                    const cxla_execute_options *options,
                                    cxla_buffer **out_results, cxla_event **out_done) {
  unsigned fp = fpenv_default_enter();
  cxla_status s = executable_execute(e, args, nargs, options, out_results, out_done);
  fpenv_leave(fp);
  return s;
}
