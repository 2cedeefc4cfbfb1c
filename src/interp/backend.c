/* The reference interpreter as a runtime backend ("interp"): compile keeps
 * nothing (the runtime already owns the optimized module); execute wraps the
 * argument arrays as borrowed literals, interprets the entry computation and
 * copies the result's array leaves into the result arrays. */
#include <string.h>

#include "interp/interp.h"
#include "runtime/backend.h"

static cxla_status interp_compile(const BackendCompileInput *in, BackendProgram *out) {
  memset(out, 0, sizeof *out);
  if (!in->module || !in->module->entry)
    return ERR(INVALID_ARGUMENT, "interp: module has no entry computation");
  return NULL;
}

/* Copies the array leaves of v, depth-first, into results[*k...]. */
static cxla_status copy_leaves(const Literal *v, const RtArray *results, int n, int *k) {
  if (v->type == T_TUPLE) {
    for (int i = 0; i < v->ntuple; i++) TRY(copy_leaves(v->tuple[i], results, n, k));
    return NULL;
  }
  if (!type_is_array(v->type)) return NULL;
  if (*k >= n) return ERR(INTERNAL, "interp: the result has more array leaves than expected");
  const RtArray *r = &results[(*k)++];
  size_t bytes = (size_t)v->nelems * (size_t)type_bytes(v->type);
  if (v->type != r->type || bytes != r->size)
    return ERR(INTERNAL, "interp: result %d does not have the expected shape", *k - 1);
  if (bytes) memcpy(r->data, v->data, bytes);
  return NULL;
}

static cxla_status interp_execute(const BackendExecuteArgs *a) {
  const HloModule *m = a->module;
  TRY(rt_check(a->control));
  Literal *views = cxla_calloc((size_t)a->nargs + 1, sizeof(Literal));
  Literal **args = cxla_calloc((size_t)a->nargs + 1, sizeof(Literal *));
  cxla_status s = NULL;
  if (!views || !args) {
    s = cxla_oom();
    goto out;
  }
  for (int i = 0; i < a->nargs; i++) {
    const RtArray *x = &a->args[i];
    int64_t n = 1;
    for (int d = 0; d < x->rank; d++) n *= x->dims[d];
    /* A borrowed view: the interpreter never writes or frees arguments. */
    views[i] = (Literal){.type = x->type, .rank = x->rank, .dims = (int64_t *)x->dims,
                         .nelems = n, .data = x->data};
    args[i] = &views[i];
  }
  Interp ip = {.module = m, .rng_state = 0x853c49e6748fea9bull, .control = a->control,
               .host_callback = a->host_callback, .host_callback_arg = a->host_callback_arg};
  Literal *result = NULL;
  s = interp_check_and_call(&ip, args, a->nargs, &result);
  if (!s) {
    int k = 0;
    s = copy_leaves(result, a->results, a->nresults, &k);
    if (!s && k != a->nresults)
      s = ERR(INTERNAL, "interp: the result has %d array leaves, expected %d", k, a->nresults);
  }
  literal_free(result);
out:
  cxla_free(views);
  cxla_free(args);
  return s;
}

static void interp_program_destroy(void *client_state, void *program) {}

const Backend interp_backend = {
    .name = "interp",
    .compiled = false,
    .compile = interp_compile,
    .execute = interp_execute,
    .program_destroy = interp_program_destroy,
    .max_threads = 1,
};
