/* Running modules through the runtime API; see backend_run.h. */
#include "backend_run.h"

#include <stdio.h>
#include <string.h>

#include "base/base.h"
#include "common.h"

int take_backend_option(const char *cmd, int argc, char **argv, int *i, BackendChoice *b) {
  const char *v = NULL;
  bool missing = false;
  if (take_value(argc, argv, i, "backend", &v, &missing)) {
    if (missing || !*v) return usage_error(cmd, "--backend needs a name");
    for (int k = 0; k < cxla_backend_count(); k++)
      if (strcmp(cxla_backend_name(k), v) == 0) {
        b->name = cxla_backend_name(k);
        return 0;
      }
    char list[256] = "";
    for (int k = 0; k < cxla_backend_count(); k++)
      snprintf(list + strlen(list), sizeof list - strlen(list), "%s%s", k ? ", " : "",
               cxla_backend_name(k));
    return usage_error(cmd, "unknown backend '%s' (available: %s)", v, list);
  }
  if (take_value(argc, argv, i, "threads", &v, &missing)) {
    unsigned long long n = 0;
    if (missing || !parse_u64(v, &n) || n < 1 || n > 4096)
      return usage_error(cmd, "--threads needs a number from 1 to 4096");
    b->threads = (int)n;
    return 0;
  }
  return -1;
}

cxla_status backend_client(const BackendChoice *b, cxla_client **out) {
  cxla_client_options o = CXLA_STRUCT_INIT(cxla_client_options);
  o.backend = b->name;
  o.num_threads = b->threads;
  return cxla_client_create(&o, out);
}

cxla_status buffers_from_literals(cxla_client *c, cxla_literal *const *args, int nargs,
                                  cxla_buffer ***out) {
  *out = cxla_calloc((size_t)nargs + 1, sizeof(cxla_buffer *));
  if (!*out) return cxla_oom();
  for (int i = 0; i < nargs; i++) {
    cxla_status s;
    if (cxla_literal_type(args[i]) == CXLA_TOKEN) { /* a token parameter takes any empty buffer */
      static const int64_t zero[1] = {0};
      cxla_host_buffer h = CXLA_STRUCT_INIT(cxla_host_buffer);
      h.type = CXLA_PRED;
      h.rank = 1;
      h.dims = zero;
      s = cxla_buffer_from_host(c, NULL, &h, &(*out)[i], NULL);
    } else {
      s = cxla_buffer_from_literal(c, NULL, args[i], &(*out)[i]);
    }
    if (s) {
      free_buffers(*out, nargs);
      *out = NULL;
      return cxla_status_annotate(s, "argument %d", i);
    }
  }
  return NULL;
}

void free_buffers(cxla_buffer **b, int n) {
  if (!b) return;
  for (int i = 0; i < n; i++) cxla_buffer_destroy(b[i]);
  cxla_free(b);
}

void free_leaves(cxla_literal **leaves, int n) {
  if (!leaves) return;
  for (int i = 0; i < n; i++) cxla_literal_destroy(leaves[i]);
  cxla_free(leaves);
}

cxla_status execute_to_literals(cxla_executable *e, cxla_buffer *const *args, int nargs,
                                double timeout_s, cxla_literal ***out_leaves, int *out_n) {
  *out_leaves = NULL;
  *out_n = 0;
  int n = cxla_executable_num_results(e);
  cxla_buffer **res = cxla_calloc((size_t)n + 1, sizeof *res);
  cxla_literal **leaves = cxla_calloc((size_t)n + 1, sizeof *leaves);
  cxla_status s = res && leaves ? NULL : cxla_oom();
  cxla_execute_options xo = CXLA_STRUCT_INIT(cxla_execute_options);
  xo.timeout_seconds = timeout_s;
  if (!s) s = cxla_executable_execute(e, args, nargs, &xo, res, NULL);
  /* the array results (token results, of ordered effects, are dropped) */
  int k = 0;
  for (int i = 0; i < n && !s; i++)
    if (cxla_buffer_type(res[i]) != CXLA_TOKEN) s = cxla_buffer_to_literal(res[i], &leaves[k++]);
  if (res) free_buffers(res, n);
  if (s) {
    if (leaves) free_leaves(leaves, n);
    return s;
  }
  *out_leaves = leaves;
  *out_n = k;
  return NULL;
}

cxla_status run_on_backend(cxla_client *c, const cxla_module *m,
                           const cxla_compile_options *co, cxla_literal *const *args,
                           int nargs, double timeout_s, cxla_literal ***out_leaves,
                           int *out_n) {
  *out_leaves = NULL;
  *out_n = 0;
  cxla_executable *e = NULL;
  TRY(cxla_client_compile(c, m, co, &e));
  cxla_buffer **bufs = NULL;
  cxla_status s = buffers_from_literals(c, args, nargs, &bufs);
  if (!s) s = execute_to_literals(e, bufs, nargs, timeout_s, out_leaves, out_n);
  free_buffers(bufs, nargs);
  cxla_executable_destroy(e);
  return s;
}
