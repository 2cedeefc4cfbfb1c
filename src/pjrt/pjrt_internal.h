/* The PJRT plugin's objects (src/pjrt): a thin layer over the public
 * runtime API (include/cxla/runtime.h). Nothing here reaches inside libcxla;
 * the plugin links libcxla.a but calls only what include/cxla/ declares.
 *
 * The PJRT handles the C API leaves opaque are defined here; the two it
 * defines itself (PJRT_Error, PJRT_Memory: a vtable pointer first) are
 * wrapped, with the PJRT struct as the first member. */
#ifndef CXLA_PJRT_INTERNAL_H
#define CXLA_PJRT_INTERNAL_H

#include <stdatomic.h>
#include <stdint.h>

#include "cxla/runtime.h"
#include "xla/pjrt/c/pjrt_c_api.h"
#include "xla/pjrt/c/pjrt_c_api_layouts_extension.h"

/* The StableHLO version the reader of src/stablehlo reads: jaxlib serializes
 * programs for min(this, its own) (tests/corpus' .mlirbc files are 1.15.0). */
#define PJ_STABLEHLO_CURRENT {1, 15, 0}
#define PJ_STABLEHLO_MINIMUM {0, 9, 0}
#define PJ_PLATFORM "cxla"

/* ---- errors ---- */
typedef struct pj_error {
  PJRT_Error base;
  PJRT_Error_Code code;
  size_t len;
  char msg[];
} pj_error;

PJRT_Error *pj_err(PJRT_Error_Code code, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
/* Takes a cxla_status (NULL -> NULL) and frees it. */
PJRT_Error *pj_status(cxla_status s);
/* Checks an argument struct's size against the smallest we accept. */
#define PJ_CHECK_ARGS(type, args)                                                   \
  do {                                                                              \
    if (!(args) || (args)->struct_size < offsetof(type, extension_start) + sizeof(void *)) \
      return pj_err(PJRT_Error_Code_INVALID_ARGUMENT, #type ": bad struct_size");   \
  } while (0)

/* ---- events ---- */
struct PJRT_Event {
  cxla_event *ev;        /* NULL: ready */
  PJRT_Error_Code code;  /* when ev is NULL: 0 = success */
  char *msg;
};
PJRT_Event *pj_event_ready(void);
PJRT_Event *pj_event_wrap(cxla_event *ev); /* takes ev; NULL -> ready event */

/* ---- client, device, memory ---- */
typedef struct pj_memory {
  PJRT_Memory base;
  PJRT_Client *client;
} pj_memory;

struct PJRT_DeviceDescription {
  PJRT_Client *client;
};

struct PJRT_Device {
  PJRT_Client *client;
  cxla_device *dev;
};

struct PJRT_TopologyDescription {
  PJRT_Client *client;
};

struct PJRT_Client {
  cxla_client *c;
  PJRT_Device device;
  PJRT_DeviceDescription desc;
  pj_memory memory;
  PJRT_TopologyDescription topo;
  PJRT_Device *devices[1];
  PJRT_Memory *memories[1];
  PJRT_DeviceDescription *descs[1];
  char version[96];
  char debug[64];
};

/* ---- buffers ---- */
struct PJRT_Buffer {
  PJRT_Client *client;
  _Atomic(cxla_buffer *) b; /* NULL once deleted (or donated) */
  PJRT_Buffer_Type type;
  int rank;
  int64_t dims[]; /* rank entries */
};
PJRT_Buffer *pj_buffer_wrap(PJRT_Client *client, cxla_buffer *b);

int pj_type_to_cxla(PJRT_Buffer_Type t, cxla_type *out);
PJRT_Buffer_Type pj_type_from_cxla(cxla_type t);

/* ---- executables ---- */
/* What a compile made, shared (reference counted) by the loaded executable
 * and every PJRT_Executable handed out for it. */
typedef struct pj_exec {
  atomic_int refs;
  cxla_executable *x;
  char *compile_options; /* the serialized CompileOptionsProto we were given */
  size_t compile_options_size;
  int nparams, nresults;
  PJRT_Buffer_Type *result_types;
  size_t *result_ranks;
  int64_t *result_dims; /* concatenated */
  const char **kinds;   /* "device", max(nparams, nresults) entries */
  size_t *kind_sizes;
  int *donated; /* nparams flags: parameters the module aliases to results */
  PJRT_Layouts_MemoryLayout **param_layouts, **result_layouts; /* static layouts */
} pj_exec;
void pj_exec_unref(pj_exec *d);

struct PJRT_Executable {
  pj_exec *d;
};

struct PJRT_LoadedExecutable {
  PJRT_Client *client;
  pj_exec *d;
  atomic_int deleted;
};

/* The API's slots by area. */
void pj_fill_buffer_slots(PJRT_Api *api);
void pj_fill_executable_slots(PJRT_Api *api);
extern PJRT_Layouts_Extension pj_layouts_extension;

#endif
