/* The compiled CPU backend as a runtime backend ("cpu"): compile turns the
 * runtime's optimized module into a CpuExecutable; execute runs it on the
 * argument arrays (borrowed, no copies); kernels that compute a result
 * array leaf write it into the result arrays the runtime allocated
 * (Step.leaf1), and the other leaves are copied there. */
#include <stdlib.h>
#include <string.h>

#include "cpu/cache.h"
#include "cpu/cpu_internal.h"
#include "runtime/backend.h"
#include "runtime/disk_cache.h"

/* Per client: what the disk cache needs. */
typedef struct CpuClient {
  int opt_level;     /* LLVM's: $CXLA_CPU_OPT, else 0 (cpu_compile picks) */
  char *target_id;   /* cache.c */
  bool keep_object;  /* a disk cache is on: keep object files to store */
} CpuClient;

static cxla_status cpu_client_create(const BackendClientOptions *options, void **out_state) {
  (void)options;
  CpuClient *c = cxla_calloc(1, sizeof *c);
  if (!c) return cxla_oom();
  const char *opt = getenv("CXLA_CPU_OPT");
  c->opt_level = opt ? atoi(opt) : 0;
  if (c->opt_level < 0 || c->opt_level > 3) c->opt_level = 0;
  char *dir = rt_disk_cache_dir();
  c->keep_object = dir != NULL;
  cxla_free(dir);
  cxla_status s = cpu_target_id_make(c->opt_level, &c->target_id);
  if (s) {
    cxla_free(c);
    return s;
  }
  *out_state = c;
  return NULL;
}

static void cpu_client_destroy(void *state) {
  CpuClient *c = state;
  if (!c) return;
  cxla_free(c->target_id);
  cxla_free(c);
}

static void report(const CpuExecutable *x, BackendProgram *out) {
  const CpuCompileStats *st = cpu_executable_stats(x);
  out->codegen_seconds = st->codegen_s;
  out->llvm_seconds = st->llvm_s;
}

static cxla_status cpu_backend_compile(const BackendCompileInput *in, BackendProgram *out) {
  memset(out, 0, sizeof *out);
  if (!in->module || !in->module->entry)
    return ERR(INVALID_ARGUMENT, "cpu: module has no entry computation");
  const CpuClient *c = in->client_state;
  CpuCompileOptions o = {sizeof o, c ? c->opt_level : 0, in->options ? in->options->dump_dir : NULL,
                         c && c->keep_object, in->num_threads};
  CpuExecutable *x;
  TRY(cpu_compile(in->module, &o, &x));
  out->impl = x;
  report(x, out);
  return NULL;
}

static const char *cpu_backend_target_id(void *client_state) {
  const CpuClient *c = client_state;
  return c->target_id;
}

static cxla_status cpu_backend_serialize(void *client_state, void *program, void **out,
                                         size_t *len) {
  (void)client_state;
  return cpu_program_serialize(program, out, len);
}

static cxla_status cpu_backend_deserialize(const BackendCompileInput *in, const void *data,
                                           size_t len, BackendProgram *out) {
  memset(out, 0, sizeof *out);
  CpuExecutable *x;
  TRY(cpu_program_deserialize(in->module, data, len, &x));
  out->impl = x;
  report(x, out);
  return NULL;
}

static cxla_status copy_leaves(const ExecCtx *cx, const RVal *v, const RtArray *results, int n, int *k) {
  if (v->lit.type == T_TUPLE) {
    for (int i = 0; i < v->lit.ntuple; i++) TRY(copy_leaves(cx, v->elems[i], results, n, k));
    return NULL;
  }
  if (!type_is_array(v->lit.type)) return NULL;
  if (*k >= n) return ERR(INTERNAL, "cpu: the result has more array leaves than expected");
  const RtArray *r = &results[(*k)++];
  size_t bytes = (size_t)v->lit.nelems * (size_t)type_bytes(v->lit.type);
  if (v->lit.type != r->type || bytes != r->size)
    return ERR(INTERNAL, "cpu: result %d does not have the expected shape", *k - 1);
  if (r->data == v->lit.data) return NULL; /* written in place */
  return exec_copy(cx, r->data, v->lit.data, bytes);
}

static cxla_status cpu_backend_execute(const BackendExecuteArgs *a) {
  CpuExecutable *x = a->program;
  uint64_t rng_state = 0x853c49e6748fea9bull; /* where the interpreter's starts */
  int step_threads = 1;
  /* the execution's threads, never more than the pool has (1 without one) */
  int threads = rt_pool_size(a->pool);
  if (a->num_threads > 0 && a->num_threads < threads) threads = a->num_threads;
  TRY(rt_check(a->control));
  RVal *small[8] = {0}, **args = small;
  if (a->nargs > 8 && !(args = cxla_calloc((size_t)a->nargs, sizeof *args))) return cxla_oom();
  ExecCtx cx = {.x = x, .control = a->control, .host = a->host, .rng_state = &rng_state, .pool = a->pool,
                .nthreads = threads, .nsplit = NULL, .cache = rv_cache_take(x),
                .results = a->results, .nresults = a->nresults,
                .profile = a->profile, .profile_arg = a->profile_arg, .step_threads = a->profile ? &step_threads : NULL,
                .host_callback = a->host_callback, .host_callback_arg = a->host_callback_arg};
  cxla_status s = NULL;
  for (int i = 0; i < a->nargs && !s; i++) {
    const RtArray *r = &a->args[i];
    if (r->type == T_TOKEN) { /* a token is an empty tuple here, as after-all makes it */
      s = rval_tuple(0, NULL, &args[i]);
      continue;
    }
    Literal view = {.type = r->type, .rank = r->rank, .dims = (int64_t *)r->dims, .data = r->data};
    s = rval_borrow_x(&cx, &view, &args[i]);
    /* what an earlier execution found out about this buffer (rval_all_finite) */
    if (!s && r->finite && args[i]->lit.type != T_TUPLE)
      args[i]->finite = __atomic_load_n(r->finite, __ATOMIC_RELAXED);
  }
  RVal *result = NULL;
  bool blas = cpu_uses_blas(x);
  if (blas) cpu_blas_enter();
  if (!s) s = exec_program(&cx, x->entry, args, a->nargs, &result);
  if (blas) cpu_blas_leave();
  if (!s) {
    int k = 0;
    s = copy_leaves(&cx, result, a->results, a->nresults, &k);
    if (!s && k != a->nresults)
      s = ERR(INTERNAL, "cpu: the result has %d array leaves, expected %d", k, a->nresults);
  }
  rval_unref(result);
  /* and what this one found, for the next (arguments are never written) */
  for (int i = 0; i < a->nargs; i++) {
    const RtArray *r = &a->args[i];
    int f = args[i] ? __atomic_load_n(&args[i]->finite, __ATOMIC_RELAXED) : 0;
    if (r->finite && f) __atomic_store_n(r->finite, f, __ATOMIC_RELAXED);
  }
  for (int i = 0; i < a->nargs; i++) rval_unref(args[i]);
  if (args != small) cxla_free(args);
  rv_cache_give(x, cx.cache);
  return s;
}

static void cpu_backend_program_destroy(void *client_state, void *program) {
  (void)client_state;
  cpu_executable_destroy(program);
}

const Backend cpu_backend = {
    .name = "cpu",
    .compiled = true,
    .client_create = cpu_client_create,
    .client_destroy = cpu_client_destroy,
    .compile = cpu_backend_compile,
    .execute = cpu_backend_execute,
    .program_destroy = cpu_backend_program_destroy,
    .max_threads = 0,
    .target_id = cpu_backend_target_id,
    .program_serialize = cpu_backend_serialize,
    .program_deserialize = cpu_backend_deserialize,
    .keeps_scans = true,
};
