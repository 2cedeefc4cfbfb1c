/* PJRT executables over cxla_executable: compile ("mlir": StableHLO
 * portable artifact or text; "hlo": HLO text), the executable's
 * descriptions, execute (one device, donation honoured), and the layouts
 * extension (every array row-major). */
#include <stdlib.h>
#include <string.h>

#include "pjrt/pjrt_internal.h"

/* ---- shared executable data ---- */

static PJRT_Layouts_MemoryLayout *layout_for_rank(int64_t rank);

void pj_exec_unref(pj_exec *d) {
  if (!d || atomic_fetch_sub(&d->refs, 1) != 1) return;
  cxla_executable_destroy(d->x);
  free(d->compile_options);
  free(d->result_types);
  free(d->result_ranks);
  free(d->result_dims);
  free(d->param_kinds);
  free(d->result_kinds);
  free(d->param_kind_sizes);
  free(d->result_kind_sizes);
  free(d->donated);
  free(d->param_layouts);
  free(d->result_layouts);
  free(d);
}

/* Parameters the optimized module donates: those named in the header's
 * input_output_alias={ {out}: (param, {index}, kind), ... } and
 * buffer_donor={ (param, {index}), ... }. Each "(N," inside either
 * attribute names a parameter. */
static void find_donated(const char *text, int nparams, int *donated) {
  static const char *const keys[] = {"input_output_alias={", "buffer_donor={"};
  const char *eol = strchr(text, '\n');
  for (int k = 0; k < 2; k++) {
    const char *p = strstr(text, keys[k]);
    if (!p || (eol && p > eol)) continue;
    int depth = 0;
    for (p += strlen(keys[k]) - 1; *p && *p != '\n'; p++) {
      if (*p == '{') depth++;
      else if (*p == '}' && --depth == 0) break;
      else if (*p == '(') {
        char *end;
        long v = strtol(p + 1, &end, 10);
        if (end != p + 1 && *end == ',' && v >= 0 && v < nparams) donated[v] = 1;
      }
    }
  }
}

static PJRT_Error *exec_init(pj_exec *d) {
  cxla_executable *x = d->x;
  d->nparams = cxla_executable_num_parameters(x);
  d->nresults = cxla_executable_num_results(x);
  int nr = d->nresults, np = d->nparams;
  size_t total = 0;
  for (int i = 0; i < nr; i++) {
    int rank = 0;
    cxla_status s = cxla_executable_result(x, i, NULL, &rank, NULL);
    if (s) return pj_status(s);
    total += (size_t)rank;
  }
  d->result_types = calloc((size_t)nr + 1, sizeof *d->result_types);
  d->result_ranks = calloc((size_t)nr + 1, sizeof *d->result_ranks);
  d->result_dims = calloc(total + 1, sizeof *d->result_dims);
  d->param_kinds = calloc((size_t)np + 1, sizeof *d->param_kinds);
  d->result_kinds = calloc((size_t)nr + 1, sizeof *d->result_kinds);
  d->param_kind_sizes = calloc((size_t)np + 1, sizeof *d->param_kind_sizes);
  d->result_kind_sizes = calloc((size_t)nr + 1, sizeof *d->result_kind_sizes);
  d->donated = calloc((size_t)np + 1, sizeof *d->donated);
  d->param_layouts = calloc((size_t)np + 1, sizeof *d->param_layouts);
  d->result_layouts = calloc((size_t)nr + 1, sizeof *d->result_layouts);
  if (!d->result_types || !d->result_ranks || !d->result_dims || !d->param_kinds || !d->result_kinds ||
      !d->param_kind_sizes || !d->result_kind_sizes ||
      !d->donated || !d->param_layouts || !d->result_layouts)
    return pj_err(PJRT_Error_Code_RESOURCE_EXHAUSTED, "out of memory");
  size_t at = 0;
  for (int i = 0; i < nr; i++) {
    cxla_type t;
    int rank;
    const int64_t *dims;
    cxla_status s = cxla_executable_result(x, i, &t, &rank, &dims);
    if (s) return pj_status(s);
    d->result_types[i] = pj_type_from_cxla(t);
    d->result_ranks[i] = (size_t)rank;
    d->result_layouts[i] = layout_for_rank(rank);
    if (rank) memcpy(d->result_dims + at, dims, (size_t)rank * sizeof *dims);
    at += (size_t)rank;
  }
  for (int i = 0; i < np; i++) {
    int rank = 0;
    cxla_status s = cxla_executable_parameter(x, i, NULL, &rank, NULL);
    if (s) return pj_status(s);
    d->param_layouts[i] = layout_for_rank(rank);
  }
  for (int i = 0; i < np; i++) {
    d->param_kinds[i] = pj_memory_kinds[pj_memory_index(cxla_executable_parameter_memory_space(x, i))];
    d->param_kind_sizes[i] = strlen(d->param_kinds[i]);
  }
  for (int i = 0; i < nr; i++) {
    d->result_kinds[i] = pj_memory_kinds[pj_memory_index(cxla_executable_result_memory_space(x, i))];
    d->result_kind_sizes[i] = strlen(d->result_kinds[i]);
  }
  find_donated(cxla_executable_hlo_text(x), np, d->donated);
  return NULL;
}

/* ---- compile ---- */

static int text_starts(const char *p, size_t n, const char *word) {
  while (n && (*p == ' ' || *p == '\n' || *p == '\t' || *p == '\r')) p++, n--;
  size_t w = strlen(word);
  return n >= w && !memcmp(p, word, w);
}

/* A loaded executable of module m (taken) compiled by client (as given
 * when no_optimize), keeping a copy of the serialized compile options. */
static PJRT_Error *load(PJRT_Client *client, cxla_module *m, int no_optimize, const char *options,
                        size_t options_size, PJRT_LoadedExecutable **out) {
  *out = NULL;
  pj_exec *d = calloc(1, sizeof *d);
  PJRT_LoadedExecutable *le = calloc(1, sizeof *le);
  if (!d || !le) {
    cxla_module_destroy(m);
    free(d);
    free(le);
    return pj_err(PJRT_Error_Code_RESOURCE_EXHAUSTED, "out of memory");
  }
  atomic_init(&d->refs, 1);
  cxla_compile_options co = {.struct_size = sizeof co, .no_optimize = no_optimize};
  cxla_status s = cxla_client_compile(client->c, m, &co, &d->x);
  cxla_module_destroy(m);
  PJRT_Error *e = pj_status(s);
  if (!e && options_size) {
    d->compile_options = malloc(options_size);
    if (!d->compile_options) e = pj_err(PJRT_Error_Code_RESOURCE_EXHAUSTED, "out of memory");
    else {
      memcpy(d->compile_options, options, options_size);
      d->compile_options_size = options_size;
    }
  }
  if (!e) e = exec_init(d);
  if (e) {
    pj_exec_unref(d);
    free(le);
    return e;
  }
  le->client = client;
  le->d = d;
  atomic_init(&le->deleted, 0);
  *out = le;
  return NULL;
}

PJRT_Error *pj_Client_Compile(PJRT_Client_Compile_Args *a) {
  PJ_CHECK_ARGS(PJRT_Client_Compile_Args, a);
  a->executable = NULL;
  const PJRT_Program *prog = a->program;
  if (!prog || !prog->code) return pj_err(PJRT_Error_Code_INVALID_ARGUMENT, "no program to compile");
  size_t fl = prog->format_size;
  const char *fmt = prog->format ? prog->format : "";
  int is_mlir = fl == 4 && !memcmp(fmt, "mlir", 4);
  int is_hlo = fl == 3 && !memcmp(fmt, "hlo", 3);
  if (!is_mlir && !is_hlo)
    return pj_err(PJRT_Error_Code_INVALID_ARGUMENT,
                  "program format \"%.*s\": cxla compiles \"mlir\" and \"hlo\" (text)", (int)fl, fmt);
  if (is_hlo && !text_starts(prog->code, prog->code_size, "HloModule"))
    return pj_err(PJRT_Error_Code_UNIMPLEMENTED,
                  "format \"hlo\": cxla reads HLO text (HloModule ...), not a serialized "
                  "HloModuleProto");
  /* cxla_module_parse tells HLO text, StableHLO text and MLIR bytecode
   * apart by content. */
  cxla_module *m = NULL;
  cxla_status s = cxla_module_parse(prog->code, prog->code_size, is_mlir ? "program.mlir" : "program.hlo", &m);
  if (s) return pj_status(s);
  return load(a->client, m, 0, a->compile_options, a->compile_options_size, &a->executable);
}

/* ---- serialized executables ----
 * What PJRT_Executable_Serialize writes (JAX's persistent compilation
 * cache and its AOT serialize keep it): the optimized module's HLO text
 * and the compile options given, after a magic line:
 *   "cxla-executable 1\n", u64 text bytes, the text, u64 option bytes,
 *   the options (u64 little-endian).
 * Loading compiles the text without the optimizer (it has run), to the
 * same program: the compile skips what the serialized executable already
 * did, and the backend's own compile cache may hold its code. */
static const char kSerialMagic[] = "cxla-executable 1\n";

struct PJRT_SerializedExecutable {
  size_t size;
  char bytes[];
};

static void serialized_free(PJRT_SerializedExecutable *s) { free(s); }

static void put_u64(char *p, uint64_t v) {
  for (int i = 0; i < 8; i++) p[i] = (char)(v >> (8 * i));
}

static uint64_t get_u64(const char *p) {
  uint64_t v = 0;
  for (int i = 0; i < 8; i++) v |= (uint64_t)(unsigned char)p[i] << (8 * i);
  return v;
}

PJRT_Error *pj_Executable_Serialize(PJRT_Executable_Serialize_Args *a) {
  PJ_CHECK_ARGS(PJRT_Executable_Serialize_Args, a);
  const pj_exec *d = a->executable->d;
  const char *text = cxla_executable_hlo_text(d->x);
  size_t m = sizeof kSerialMagic - 1, t = text ? strlen(text) : 0, o = d->compile_options_size;
  size_t n = m + 8 + t + 8 + o;
  PJRT_SerializedExecutable *se = malloc(sizeof *se + n);
  if (!se) return pj_err(PJRT_Error_Code_RESOURCE_EXHAUSTED, "out of memory");
  se->size = n;
  char *p = se->bytes;
  memcpy(p, kSerialMagic, m);
  put_u64(p + m, t);
  if (t) memcpy(p + m + 8, text, t);
  put_u64(p + m + 8 + t, o);
  if (o) memcpy(p + m + 16 + t, d->compile_options, o);
  a->serialized_bytes = se->bytes;
  a->serialized_bytes_size = n;
  a->serialized_executable = se;
  a->serialized_executable_deleter = serialized_free;
  return NULL;
}

PJRT_Error *pj_Executable_DeserializeAndLoad(PJRT_Executable_DeserializeAndLoad_Args *a) {
  PJ_CHECK_ARGS(PJRT_Executable_DeserializeAndLoad_Args, a);
  a->loaded_executable = NULL;
  const char *p = a->serialized_executable;
  size_t n = a->serialized_executable_size, m = sizeof kSerialMagic - 1;
  if (!p || n < m + 16 || memcmp(p, kSerialMagic, m))
    return pj_err(PJRT_Error_Code_INVALID_ARGUMENT, "not a serialized cxla executable (%zu bytes)", n);
  uint64_t t = get_u64(p + m);
  if (t > n - m - 16) return pj_err(PJRT_Error_Code_INVALID_ARGUMENT, "a serialized cxla executable cut short");
  uint64_t o = get_u64(p + m + 8 + t);
  if (o != n - m - 16 - t)
    return pj_err(PJRT_Error_Code_INVALID_ARGUMENT, "a serialized cxla executable of the wrong size");
  const char *opts = a->overridden_serialized_compile_options;
  size_t opts_size = a->overridden_serialized_compile_options_size;
  if (!opts || !opts_size) opts = p + m + 16 + t, opts_size = (size_t)o;
  cxla_module *mod = NULL;
  cxla_status s = cxla_module_parse(p + m + 8, (size_t)t, "serialized.hlo", &mod);
  if (s) return pj_status(s);
  return load(a->client, mod, 1, opts, opts_size, &a->loaded_executable);
}

/* ---- PJRT_Executable ---- */

PJRT_Error *pj_Executable_Destroy(PJRT_Executable_Destroy_Args *a) {
  PJ_CHECK_ARGS(PJRT_Executable_Destroy_Args, a);
  if (a->executable) {
    pj_exec_unref(a->executable->d);
    free(a->executable);
  }
  return NULL;
}

PJRT_Error *pj_Executable_Name(PJRT_Executable_Name_Args *a) {
  PJ_CHECK_ARGS(PJRT_Executable_Name_Args, a);
  a->executable_name = cxla_executable_name(a->executable->d->x);
  a->executable_name_size = strlen(a->executable_name);
  return NULL;
}

PJRT_Error *pj_Executable_NumReplicas(PJRT_Executable_NumReplicas_Args *a) {
  PJ_CHECK_ARGS(PJRT_Executable_NumReplicas_Args, a);
  a->num_replicas = 1;
  return NULL;
}

PJRT_Error *pj_Executable_NumPartitions(PJRT_Executable_NumPartitions_Args *a) {
  PJ_CHECK_ARGS(PJRT_Executable_NumPartitions_Args, a);
  a->num_partitions = 1;
  return NULL;
}

PJRT_Error *pj_Executable_NumOutputs(PJRT_Executable_NumOutputs_Args *a) {
  PJ_CHECK_ARGS(PJRT_Executable_NumOutputs_Args, a);
  a->num_outputs = (size_t)a->executable->d->nresults;
  return NULL;
}

PJRT_Error *pj_Executable_SizeOfGeneratedCodeInBytes(PJRT_Executable_SizeOfGeneratedCodeInBytes_Args *a) {
  PJ_CHECK_ARGS(PJRT_Executable_SizeOfGeneratedCodeInBytes_Args, a);
  a->size_in_bytes = 0;
  return NULL;
}

PJRT_Error *pj_Executable_GetCostAnalysis(PJRT_Executable_GetCostAnalysis_Args *a) {
  PJ_CHECK_ARGS(PJRT_Executable_GetCostAnalysis_Args, a);
  a->num_properties = 0;
  a->properties = NULL;
  return NULL;
}

PJRT_Error *pj_Executable_OutputMemoryKinds(PJRT_Executable_OutputMemoryKinds_Args *a) {
  PJ_CHECK_ARGS(PJRT_Executable_OutputMemoryKinds_Args, a);
  pj_exec *d = a->executable->d;
  a->num_outputs = (size_t)d->nresults;
  a->memory_kinds = d->result_kinds;
  a->memory_kind_sizes = d->result_kind_sizes;
  return NULL;
}

PJRT_Error *pj_Executable_ParameterMemoryKinds(PJRT_Executable_ParameterMemoryKinds_Args *a) {
  PJ_CHECK_ARGS(PJRT_Executable_ParameterMemoryKinds_Args, a);
  pj_exec *d = a->executable->d;
  a->num_parameters = (size_t)d->nparams;
  a->memory_kinds = d->param_kinds;
  a->memory_kind_sizes = d->param_kind_sizes;
  return NULL;
}

PJRT_Error *pj_Executable_OptimizedProgram(PJRT_Executable_OptimizedProgram_Args *a) {
  PJ_CHECK_ARGS(PJRT_Executable_OptimizedProgram_Args, a);
  return pj_err(PJRT_Error_Code_UNIMPLEMENTED,
                "cxla cannot give its optimized program as an HloModuleProto");
}

PJRT_Error *pj_Executable_OutputElementTypes(PJRT_Executable_OutputElementTypes_Args *a) {
  PJ_CHECK_ARGS(PJRT_Executable_OutputElementTypes_Args, a);
  a->output_types = a->executable->d->result_types;
  a->num_output_types = (size_t)a->executable->d->nresults;
  return NULL;
}

PJRT_Error *pj_Executable_OutputDimensions(PJRT_Executable_OutputDimensions_Args *a) {
  PJ_CHECK_ARGS(PJRT_Executable_OutputDimensions_Args, a);
  a->num_outputs = (size_t)a->executable->d->nresults;
  a->dims = a->executable->d->result_dims;
  a->dim_sizes = a->executable->d->result_ranks;
  return NULL;
}

PJRT_Error *pj_Executable_Fingerprint(PJRT_Executable_Fingerprint_Args *a) {
  PJ_CHECK_ARGS(PJRT_Executable_Fingerprint_Args, a);
  a->executable_fingerprint = cxla_executable_fingerprint(a->executable->d->x);
  a->executable_fingerprint_size = strlen(a->executable_fingerprint);
  return NULL;
}

PJRT_Error *pj_Executable_GetCompiledMemoryStats(PJRT_Executable_GetCompiledMemoryStats_Args *a) {
  PJ_CHECK_ARGS(PJRT_Executable_GetCompiledMemoryStats_Args, a);
  size_t keep = offsetof(PJRT_Executable_GetCompiledMemoryStats_Args, generated_code_size_in_bytes);
  if (a->struct_size > keep) memset((char *)a + keep, 0, a->struct_size - keep);
  a->temp_size_in_bytes = cxla_executable_temp_bytes(a->executable->d->x);
  return NULL;
}

static void options_free(PJRT_SerializedCompileOptions *o) { (void)o; }

PJRT_Error *pj_Executable_GetCompileOptions(PJRT_Executable_GetCompileOptions_Args *a) {
  PJ_CHECK_ARGS(PJRT_Executable_GetCompileOptions_Args, a);
  /* The CompileOptionsProto bytes the executable was compiled with; they
   * live as long as the executable. */
  a->serialized_bytes = a->executable->d->compile_options ? a->executable->d->compile_options : "";
  a->serialized_bytes_size = a->executable->d->compile_options_size;
  a->serialized_compile_options = NULL;
  a->serialized_compile_options_deleter = options_free;
  return NULL;
}

/* ---- PJRT_LoadedExecutable ---- */

PJRT_Error *pj_LoadedExecutable_Destroy(PJRT_LoadedExecutable_Destroy_Args *a) {
  PJ_CHECK_ARGS(PJRT_LoadedExecutable_Destroy_Args, a);
  if (a->executable) {
    pj_exec_unref(a->executable->d);
    free(a->executable);
  }
  return NULL;
}

PJRT_Error *pj_LoadedExecutable_GetExecutable(PJRT_LoadedExecutable_GetExecutable_Args *a) {
  PJ_CHECK_ARGS(PJRT_LoadedExecutable_GetExecutable_Args, a);
  PJRT_Executable *e = malloc(sizeof *e);
  if (!e) return pj_err(PJRT_Error_Code_RESOURCE_EXHAUSTED, "out of memory");
  e->d = a->loaded_executable->d;
  atomic_fetch_add(&e->d->refs, 1);
  a->executable = e;
  return NULL;
}

PJRT_Error *pj_LoadedExecutable_AddressableDevices(PJRT_LoadedExecutable_AddressableDevices_Args *a) {
  PJ_CHECK_ARGS(PJRT_LoadedExecutable_AddressableDevices_Args, a);
  a->addressable_devices = a->executable->client->devices;
  a->num_addressable_devices = 1;
  return NULL;
}

PJRT_Error *pj_LoadedExecutable_Delete(PJRT_LoadedExecutable_Delete_Args *a) {
  PJ_CHECK_ARGS(PJRT_LoadedExecutable_Delete_Args, a);
  atomic_store(&a->executable->deleted, 1);
  return NULL;
}

PJRT_Error *pj_LoadedExecutable_IsDeleted(PJRT_LoadedExecutable_IsDeleted_Args *a) {
  PJ_CHECK_ARGS(PJRT_LoadedExecutable_IsDeleted_Args, a);
  a->is_deleted = atomic_load(&a->executable->deleted) != 0;
  return NULL;
}

PJRT_Error *pj_LoadedExecutable_Fingerprint(PJRT_LoadedExecutable_Fingerprint_Args *a) {
  PJ_CHECK_ARGS(PJRT_LoadedExecutable_Fingerprint_Args, a);
  a->executable_fingerprint = cxla_executable_fingerprint(a->executable->d->x);
  a->executable_fingerprint_size = strlen(a->executable_fingerprint);
  return NULL;
}

static void assignment_free(PJRT_DeviceAssignmentSerialized *s) { (void)s; }

PJRT_Error *pj_LoadedExecutable_GetDeviceAssignment(PJRT_LoadedExecutable_GetDeviceAssignment_Args *a) {
  PJ_CHECK_ARGS(PJRT_LoadedExecutable_GetDeviceAssignment_Args, a);
  /* Empty: jaxlib then keeps no device assignment (one device). */
  a->serialized_bytes = "";
  a->serialized_bytes_size = 0;
  a->serialized_device_assignment = NULL;
  a->serialized_device_assignment_deleter = assignment_free;
  return NULL;
}

static int is_non_donatable(const PJRT_ExecuteOptions *o, int i) {
  if (!o || o->struct_size <= offsetof(PJRT_ExecuteOptions, num_non_donatable_input_indices))
    return 0;
  for (size_t k = 0; k < o->num_non_donatable_input_indices; k++)
    if (o->non_donatable_input_indices[k] == i) return 1;
  return 0;
}

PJRT_Error *pj_LoadedExecutable_Execute(PJRT_LoadedExecutable_Execute_Args *a) {
  PJ_CHECK_ARGS(PJRT_LoadedExecutable_Execute_Args, a);
  PJRT_LoadedExecutable *le = a->executable;
  pj_exec *d = le->d;
  if (atomic_load(&le->deleted))
    return pj_err(PJRT_Error_Code_FAILED_PRECONDITION, "the executable has been deleted");
  if (a->num_devices != 1)
    return pj_err(PJRT_Error_Code_INVALID_ARGUMENT, "cxla runs on one device, asked for %zu",
                  a->num_devices);
  if (a->num_args != (size_t)d->nparams)
    return pj_err(PJRT_Error_Code_INVALID_ARGUMENT, "%s takes %d arguments, got %zu",
                  cxla_executable_name(d->x), d->nparams, a->num_args);
  if (a->execute_device && a->execute_device->client != le->client)
    return pj_err(PJRT_Error_Code_INVALID_ARGUMENT, "execute_device is not this client's");
  PJRT_Buffer *const *pargs = a->argument_lists[0];
  size_t na = a->num_args, nr = (size_t)d->nresults;
  cxla_buffer **args = calloc(na + 1, sizeof *args);
  cxla_buffer **res = calloc(nr + 1, sizeof *res);
  PJRT_Buffer **outs = calloc(nr + 1, sizeof *outs);
  PJRT_Error *e = NULL;
  if (!args || !res || !outs) {
    e = pj_err(PJRT_Error_Code_RESOURCE_EXHAUSTED, "out of memory");
    goto done;
  }
  for (size_t i = 0; i < na; i++) {
    args[i] = atomic_load(&pargs[i]->b);
    if (!args[i]) {
      e = pj_err(PJRT_Error_Code_INVALID_ARGUMENT,
                 "argument %zu of %s has been deleted or donated", i, cxla_executable_name(d->x));
      goto done;
    }
  }
  /* A donated buffer passed again as another argument would be read after
   * it is consumed: an error, as on XLA. */
  for (size_t i = 0; i < na && i < (size_t)d->nparams; i++) {
    if (!d->donated[i] || is_non_donatable(a->options, (int)i)) continue;
    for (size_t j = 0; j < na; j++)
      if (j != i && args[j] == args[i]) {
        e = pj_err(PJRT_Error_Code_INVALID_ARGUMENT,
                   "Attempt to donate the same buffer twice in Execute() (arguments %zu and %zu of %s)",
                   i, j, cxla_executable_name(d->x));
        goto done;
      }
  }
  cxla_event *ev = NULL;
  cxla_status s = cxla_executable_execute(d->x, args, (int)na, NULL, res, &ev);
  if (s) {
    cxla_event_destroy(ev);
    e = pj_status(s);
    goto done;
  }
  for (size_t i = 0; i < nr; i++) {
    pj_memory *mem = pj_memory_of_space(le->client, cxla_executable_result_memory_space(d->x, (int)i));
    outs[i] = pj_buffer_wrap_in(le->client, res[i], mem);
    if (!outs[i]) {
      for (size_t j = 0; j < i; j++) free(outs[j]);
      for (size_t j = 0; j < nr; j++) cxla_buffer_destroy(res[j]);
      cxla_event_destroy(ev);
      e = pj_err(PJRT_Error_Code_RESOURCE_EXHAUSTED, "out of memory");
      goto done;
    }
  }
  /* Donation: a parameter the module aliases to a result is consumed, as
   * on XLA; the caller sees its buffer deleted. One with an external
   * reference (a NumPy view of it) is not, as on XLA:CPU: it stays. */
  for (size_t i = 0; i < na; i++)
    if (d->donated[i] && !is_non_donatable(a->options, (int)i) && atomic_load(&pargs[i]->ext_refs) == 0)
      pj_buffer_release(pargs[i]);
  for (size_t i = 0; i < nr; i++) a->output_lists[0][i] = outs[i];
  if (a->device_complete_events) {
    a->device_complete_events[0] = pj_event_wrap(ev);
    ev = NULL;
  }
  cxla_event_destroy(ev);
done:
  free(args);
  free(res);
  free(outs);
  return e;
}

/* ---- the layouts extension: every array is row-major ---- */

/* A layout is its rank; row_major_layouts[r] stands for rank r. */
struct PJRT_Layouts_MemoryLayout {
  int rank;
};
static const struct PJRT_Layouts_MemoryLayout row_major_layouts[65] = {
    {0},  {1},  {2},  {3},  {4},  {5},  {6},  {7},  {8},  {9},  {10}, {11}, {12},
    {13}, {14}, {15}, {16}, {17}, {18}, {19}, {20}, {21}, {22}, {23}, {24}, {25},
    {26}, {27}, {28}, {29}, {30}, {31}, {32}, {33}, {34}, {35}, {36}, {37}, {38},
    {39}, {40}, {41}, {42}, {43}, {44}, {45}, {46}, {47}, {48}, {49}, {50}, {51},
    {52}, {53}, {54}, {55}, {56}, {57}, {58}, {59}, {60}, {61}, {62}, {63}, {64}};

static PJRT_Layouts_MemoryLayout *layout_for_rank(int64_t rank) {
  /* Layouts are read-only; PJRT hands them out as non-const handles. */
  return rank >= 0 && rank <= 64 ? (PJRT_Layouts_MemoryLayout *)&row_major_layouts[rank] : NULL;
}

static PJRT_Error *Layouts_MemoryLayout_Destroy(PJRT_Layouts_MemoryLayout_Destroy_Args *a) {
  PJ_CHECK_ARGS(PJRT_Layouts_MemoryLayout_Destroy_Args, a);
  return NULL; /* static */
}

struct PJRT_Layouts_SerializedLayout {
  size_t n;
  char bytes[];
};
static void serialized_layout_free(PJRT_Layouts_SerializedLayout *s) { free(s); }

/* jaxlib reads a serialized layout as XLA's layout text: the descending
 * minor-to-major list "{rank-1,...,1,0}" ("{}" for scalars). */
static PJRT_Error *Layouts_MemoryLayout_Serialize(PJRT_Layouts_MemoryLayout_Serialize_Args *a) {
  PJ_CHECK_ARGS(PJRT_Layouts_MemoryLayout_Serialize_Args, a);
  int rank = a->layout->rank;
  PJRT_Layouts_SerializedLayout *s = malloc(sizeof *s + (size_t)rank * 3 + 3);
  if (!s) return pj_err(PJRT_Error_Code_RESOURCE_EXHAUSTED, "out of memory");
  s->n = 0;
  s->bytes[s->n++] = '{';
  for (int i = rank - 1; i >= 0; i--) {
    if (i != rank - 1) s->bytes[s->n++] = ',';
    if (i >= 10) s->bytes[s->n++] = (char)('0' + i / 10);
    s->bytes[s->n++] = (char)('0' + i % 10);
  }
  s->bytes[s->n++] = '}';
  a->serialized_bytes = s->bytes;
  a->serialized_bytes_size = s->n;
  a->serialized_layout = s;
  a->serialized_layout_deleter = serialized_layout_free;
  return NULL;
}

static PJRT_Error *Layouts_Client_GetDefaultLayout(
    PJRT_Layouts_PJRT_Client_GetDefaultLayout_Args *a) {
  PJ_CHECK_ARGS(PJRT_Layouts_PJRT_Client_GetDefaultLayout_Args, a);
  a->layout = layout_for_rank((int64_t)a->num_dims);
  if (!a->layout) return pj_err(PJRT_Error_Code_INVALID_ARGUMENT, "rank %zu too large", a->num_dims);
  return NULL;
}

static PJRT_Error *Layouts_Buffer_MemoryLayout(PJRT_Layouts_PJRT_Buffer_MemoryLayout_Args *a) {
  PJ_CHECK_ARGS(PJRT_Layouts_PJRT_Buffer_MemoryLayout_Args, a);
  a->layout = layout_for_rank(a->buffer->rank);
  return NULL;
}

static PJRT_Error *exec_layouts(pj_exec *d, int params, size_t *n,
                               PJRT_Layouts_MemoryLayout ***out) {
  *n = (size_t)(params ? d->nparams : d->nresults);
  *out = params ? d->param_layouts : d->result_layouts;
  return NULL;
}

static PJRT_Error *Layouts_Executable_GetOutputLayouts(
    PJRT_Layouts_PJRT_Executable_GetOutputLayouts_Args *a) {
  PJ_CHECK_ARGS(PJRT_Layouts_PJRT_Executable_GetOutputLayouts_Args, a);
  return exec_layouts(a->executable->d, 0, &a->num_outputs, &a->layouts);
}

static PJRT_Error *Layouts_Executable_GetParameterLayouts(
    PJRT_Layouts_PJRT_Executable_GetParameterLayouts_Args *a) {
  PJ_CHECK_ARGS(PJRT_Layouts_PJRT_Executable_GetParameterLayouts_Args, a);
  return exec_layouts(a->executable->d, 1, &a->num_parameters, &a->layouts);
}

const PJRT_Layouts_Extension pj_layouts_extension = {
    .base = {.struct_size = PJRT_Layouts_Extension_STRUCT_SIZE,
             .type = PJRT_Extension_Type_Layouts,
             .next = NULL},
    .PJRT_Layouts_MemoryLayout_Destroy = Layouts_MemoryLayout_Destroy,
    .PJRT_Layouts_MemoryLayout_Serialize = Layouts_MemoryLayout_Serialize,
    .PJRT_Layouts_PJRT_Client_GetDefaultLayout = Layouts_Client_GetDefaultLayout,
    .PJRT_Layouts_PJRT_Buffer_MemoryLayout = Layouts_Buffer_MemoryLayout,
    .PJRT_Layouts_PJRT_Topology_GetDefaultLayout = NULL,
    .PJRT_Layouts_PJRT_Executable_GetOutputLayouts = Layouts_Executable_GetOutputLayouts,
    .PJRT_Layouts_PJRT_Executable_GetParameterLayouts = Layouts_Executable_GetParameterLayouts,
};

