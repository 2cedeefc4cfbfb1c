/* custom-call "cxla_host_callback": a call out to the program cxla is
 * embedded in (include/cxla/runtime.h, cxla_host_callback_fn), which is how
 * JAX's host callbacks (jax.debug.print, jax.pure_callback, io_callback)
 * run on cxla: python/jax_cxla lowers them to this target.
 *
 *   r = (token[], f32[3]) custom-call(token[] t, f32[3] x),
 *       custom_call_target="cxla_host_callback", backend_config={id = 7 : ui64},
 *       custom_call_has_side_effect=true
 *
 * Operands are arrays and tokens; the result is an array, a token, or a
 * tuple of arrays and tokens. The callback gets the id and the array
 * operands' data, and fills the array results (dense, row-major); tokens
 * only order the calls and carry nothing. The compiled backend runs the same
 * code on its buffers (src/cpu/routines.c). */
#include <stdlib.h>
#include <string.h>

#include "interp/interp.h"

bool interp_is_host_callback(const Instr *in) {
  return in->op == OP_CUSTOM_CALL && in->custom_call_target &&
         strcmp(in->custom_call_target, "cxla_host_callback") == 0;
}

static bool leaf_ok(const Shape *s) { return type_is_array(s->type) || s->type == T_TOKEN; }

/* The id from backend_config {id = N : ui64} (the FFI attribute form
 * jax's lowering writes), or false. */
static bool callback_id(const Instr *in, uint64_t *id) {
  const char *cfg = instr_raw(in, "backend_config");
  if (!cfg) return false;
  for (const char *p = strstr(cfg, "id"); p; p = strstr(p + 1, "id")) {
    if (p != cfg && !strchr("{ ,\"", p[-1])) continue;
    const char *q = p + 2;
    while (*q == ' ') q++;
    if (*q != '=') continue;
    q++;
    while (*q == ' ') q++;
    if (*q < '0' || *q > '9') return false;
    char *end;
    *id = strtoull(q, &end, 10);
    return true;
  }
  return false;
}

cxla_status interp_host_callback_check(const Instr *in) {
  uint64_t id;
  if (!callback_id(in, &id))
    return interp_error(in, CXLA_INVALID_ARGUMENT,
                        "a host callback needs backend_config={id = N : ui64}");
  for (int k = 0; k < in->noperands; k++)
    if (!leaf_ok(in->operands[k]->shape))
      return interp_error(in, CXLA_UNIMPLEMENTED,
                          "operand %d of a host callback is neither an array nor a token", k);
  const Shape *r = in->shape;
  if (r->type == T_TUPLE) {
    for (int i = 0; i < r->ntuple; i++)
      if (!leaf_ok(r->tuple[i]))
        return interp_error(in, CXLA_UNIMPLEMENTED,
                            "result %d of a host callback is neither an array nor a token", i);
  } else if (!leaf_ok(r)) {
    return interp_error(in, CXLA_UNIMPLEMENTED, "a host callback's result is neither an array nor a token");
  }
  return NULL;
}

cxla_status interp_host_callback(Interp *ip, const Instr *in, Literal *const *ops, Literal **out) {
  *out = NULL;
  TRY(interp_host_callback_check(in));
  if (!ip->host_callback)
    return interp_error(in, CXLA_FAILED_PRECONDITION,
                        "no host callback to call (cxla_client_options.host_callback is NULL)");
  uint64_t id = 0;
  callback_id(in, &id);
  Literal *r = NULL;
  TRY(literal_create_for_shape(in->shape, &r));
  int nres = r->type == T_TUPLE ? r->ntuple : 1;
  const void **args = cxla_calloc((size_t)in->noperands + 1, sizeof *args);
  void **res = cxla_calloc((size_t)nres + 1, sizeof *res);
  if (!args || !res) {
    cxla_free(args);
    cxla_free(res);
    literal_free(r);
    return cxla_oom();
  }
  int na = 0, nr = 0;
  for (int k = 0; k < in->noperands; k++)
    if (type_is_array(ops[k]->type)) args[na++] = ops[k]->data;
  for (int i = 0; i < nres; i++) {
    Literal *l = r->type == T_TUPLE ? r->tuple[i] : r;
    if (type_is_array(l->type)) res[nr++] = l->data;
  }
  char msg[1024] = "";
  int rc = ip->host_callback(ip->host_callback_arg, id, na, args, nr, res, msg, sizeof msg);
  cxla_free(args);
  cxla_free(res);
  if (rc != 0) {
    literal_free(r);
    msg[sizeof msg - 1] = 0;
    return interp_error(in, CXLA_UNKNOWN, "host callback %llu failed%s%s", (unsigned long long)id,
                        msg[0] ? ": " : "", msg);
  }
  *out = r;
  return NULL;
}
