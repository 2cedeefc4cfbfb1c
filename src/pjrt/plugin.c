/* The PJRT plugin: GetPjrtApi, errors, events, the client, its device and
 * memory, the topology. Buffers are in buffer.c, executables in
 * executable.c, the layouts extension in layouts.c. src/pjrt/README.md
 * lists what each PJRT_Api slot does and why. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pjrt/pjrt_internal.h"

/* ---- errors ------------------------------------------------------------- */

static void err_destroy_fn(PJRT_Error *e) { free(e); }
static void err_message_fn(const PJRT_Error *e, const char **m, size_t *n) {
  const pj_error *pe = (const pj_error *)e;
  *m = pe->msg;
  *n = pe->len;
}
static PJRT_Error_Code err_code_fn(const PJRT_Error *e) { return ((const pj_error *)e)->code; }
static void err_payload_fn(const PJRT_Error *e, PJRT_Error_PayloadVisitor v, void *arg) {
  (void)e, (void)v, (void)arg; /* cxla errors carry no payloads */
}

static const PJRT_Error_FunctionTable err_vtable = {
    .struct_size = PJRT_Error_FunctionTable_STRUCT_SIZE,
    .instance_size = sizeof(pj_error),
    .destroy = err_destroy_fn,
    .message = err_message_fn,
    .get_code = err_code_fn,
    .for_each_payload = err_payload_fn,
};

/* A static error for when the message cannot be allocated; destroy ignores it. */
static void err_static_destroy(PJRT_Error *e) { (void)e; }
static const PJRT_Error_FunctionTable err_static_vtable = {
    .struct_size = PJRT_Error_FunctionTable_STRUCT_SIZE,
    .instance_size = sizeof(pj_error),
    .destroy = err_static_destroy,
    .message = err_message_fn,
    .get_code = err_code_fn,
    .for_each_payload = err_payload_fn,
};
static const pj_error err_oom = {{&err_static_vtable}, PJRT_Error_Code_RESOURCE_EXHAUSTED, 13,
                           "out of memory"};

static PJRT_Error *err_from_text(PJRT_Error_Code code, const char *text) {
  size_t n = strlen(text);
  pj_error *e = malloc(sizeof *e + n + 1);
  if (!e) return (PJRT_Error *)&err_oom.base; /* never written: destroy ignores it */
  char *m = (char *)(e + 1);
  memcpy(m, text, n + 1);
  e->base.vtable = &err_vtable;
  e->code = code;
  e->len = n;
  e->msg = m;
  return &e->base;
}

PJRT_Error *pj_err(PJRT_Error_Code code, const char *fmt, ...) {
  char buf[1024];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(buf, sizeof buf, fmt, ap);
  va_end(ap);
  return err_from_text(code, buf);
}

PJRT_Error *pj_status(cxla_status s) {
  if (!s) return NULL;
  cxla_status_code c = cxla_status_code_of(s);
  /* cxla's codes are PJRT's numbers; CXLA_IO has no PJRT code. */
  PJRT_Error_Code code = (c >= 1 && c <= 16) ? (PJRT_Error_Code)c : PJRT_Error_Code_UNKNOWN;
  PJRT_Error *e = err_from_text(code, cxla_status_message(s));
  cxla_status_free(s);
  return e;
}

void pj_Error_Destroy(PJRT_Error_Destroy_Args *a) {
  if (a && a->error && a->error->vtable && a->error->vtable->destroy)
    a->error->vtable->destroy(a->error);
}

void pj_Error_Message(PJRT_Error_Message_Args *a) {
  if (!a) return;
  a->message = "";
  a->message_size = 0;
  if (a->error && a->error->vtable && a->error->vtable->message)
    a->error->vtable->message(a->error, &a->message, &a->message_size);
}

PJRT_Error *pj_Error_GetCode(PJRT_Error_GetCode_Args *a) {
  PJ_CHECK_ARGS(PJRT_Error_GetCode_Args, a);
  a->code = a->error ? a->error->vtable->get_code(a->error) : PJRT_Error_Code_OK;
  return NULL;
}

PJRT_Error *pj_Error_ForEachPayload(PJRT_Error_ForEachPayload_Args *a) {
  PJ_CHECK_ARGS(PJRT_Error_ForEachPayload_Args, a);
  if (a->error && a->error->vtable->for_each_payload)
    a->error->vtable->for_each_payload(a->error, a->visitor, a->user_arg);
  return NULL;
}

/* ---- plugin ------------------------------------------------------------- */

PJRT_Error *pj_Plugin_Initialize(PJRT_Plugin_Initialize_Args *a) {
  (void)a;
  return NULL;
}

static const int64_t shlo_current[3] = PJ_STABLEHLO_CURRENT;
static const int64_t shlo_minimum[3] = PJ_STABLEHLO_MINIMUM;
#define NV_I64LIST(n, arr)                                                          \
  {.struct_size = PJRT_NamedValue_STRUCT_SIZE, .name = n, .name_size = sizeof n - 1, \
   .type = PJRT_NamedValue_kInt64List, .int64_array_value = arr, .value_size = 3}
static const PJRT_NamedValue plugin_attributes[] = {
    NV_I64LIST("stablehlo_current_version", shlo_current),
    NV_I64LIST("stablehlo_minimum_version", shlo_minimum),
    {.struct_size = PJRT_NamedValue_STRUCT_SIZE, .name = "xla_version", .name_size = 11,
     .type = PJRT_NamedValue_kInt64, .int64_value = 2, .value_size = 1},
};

PJRT_Error *pj_Plugin_Attributes(PJRT_Plugin_Attributes_Args *a) {
  PJ_CHECK_ARGS(PJRT_Plugin_Attributes_Args, a);
  a->attributes = plugin_attributes;
  a->num_attributes = sizeof plugin_attributes / sizeof plugin_attributes[0];
  return NULL;
}

/* ---- events ------------------------------------------------------------- */

PJRT_Event *pj_event_ready(void) { return calloc(1, sizeof(PJRT_Event)); }

PJRT_Event *pj_event_wrap(cxla_event *ev) {
  PJRT_Event *e = calloc(1, sizeof *e);
  if (!e) {
    cxla_event_destroy(ev);
    return NULL;
  }
  e->ev = ev;
  return e;
}

static PJRT_Error *event_error(PJRT_Event *e) {
  if (e->ev) return pj_status(cxla_event_await(e->ev));
  if (e->code) return err_from_text(e->code, e->msg ? e->msg : "");
  return NULL;
}

PJRT_Error *pj_Event_Destroy(PJRT_Event_Destroy_Args *a) {
  PJ_CHECK_ARGS(PJRT_Event_Destroy_Args, a);
  if (a->event) {
    cxla_event_destroy(a->event->ev);
    free(a->event->msg);
    free(a->event);
  }
  return NULL;
}

PJRT_Error *pj_Event_IsReady(PJRT_Event_IsReady_Args *a) {
  PJ_CHECK_ARGS(PJRT_Event_IsReady_Args, a);
  a->is_ready = !a->event->ev || cxla_event_is_ready(a->event->ev);
  return NULL;
}

PJRT_Error *pj_Event_Error(PJRT_Event_Error_Args *a) {
  PJ_CHECK_ARGS(PJRT_Event_Error_Args, a);
  return event_error(a->event);
}

PJRT_Error *pj_Event_Await(PJRT_Event_Await_Args *a) {
  PJ_CHECK_ARGS(PJRT_Event_Await_Args, a);
  return event_error(a->event);
}

typedef struct {
  PJRT_Event_OnReadyCallback cb;
  void *arg;
} on_ready_ctx;

static void on_ready_tramp(cxla_status s, void *arg) {
  on_ready_ctx c = *(on_ready_ctx *)arg;
  free(arg);
  c.cb(pj_status(s), c.arg);
}

PJRT_Error *pj_Event_OnReady(PJRT_Event_OnReady_Args *a) {
  PJ_CHECK_ARGS(PJRT_Event_OnReady_Args, a);
  if (!a->event->ev) {
    a->callback(event_error(a->event), a->user_arg);
    return NULL;
  }
  on_ready_ctx *c = malloc(sizeof *c);
  if (!c) return pj_err(PJRT_Error_Code_RESOURCE_EXHAUSTED, "out of memory");
  c->cb = a->callback;
  c->arg = a->user_arg;
  cxla_status s = cxla_event_on_ready(a->event->ev, on_ready_tramp, c);
  if (s) free(c);
  return pj_status(s);
}

/* ---- client ------------------------------------------------------------- */

PJRT_Error *pj_Client_Create(PJRT_Client_Create_Args *a) {
  PJ_CHECK_ARGS(PJRT_Client_Create_Args, a);
  a->client = NULL;
  cxla_client_options o = CXLA_STRUCT_INIT(cxla_client_options);
  /* $CXLA_PJRT_BACKEND picks the backend ("cpu", "interp"); default: the
   * library's default (the first compiled backend, else interp). */
  o.backend = getenv("CXLA_PJRT_BACKEND");
  if (o.backend && !*o.backend) o.backend = NULL;
  /* "host_callback" (int64): the address of a cxla_host_callback_fn,
   * which custom-calls "cxla_host_callback" call (python/jax_cxla passes
   * its trampoline to JAX's host callbacks); its argument is NULL. */
  for (size_t i = 0; i < a->num_options; i++) {
    const PJRT_NamedValue *v = &a->create_options[i];
    if (v->name_size == 13 && memcmp(v->name, "host_callback", 13) == 0) {
      if (v->type != PJRT_NamedValue_kInt64)
        return pj_err(PJRT_Error_Code_INVALID_ARGUMENT, "option host_callback must be an int64 (an address)");
      o.host_callback = (cxla_host_callback_fn)(uintptr_t)v->int64_value;
    }
  }
  PJRT_Client *c = calloc(1, sizeof *c);
  if (!c) return pj_err(PJRT_Error_Code_RESOURCE_EXHAUSTED, "out of memory");
  cxla_status s = cxla_client_create(&o, &c->c);
  if (s) {
    free(c);
    return pj_status(s);
  }
  if (cxla_client_device_count(c->c) < 1) {
    cxla_client_destroy(c->c);
    free(c);
    return pj_err(PJRT_Error_Code_INTERNAL, "cxla client has no device");
  }
  c->device.client = c;
  c->device.dev = cxla_client_device(c->c, 0);
  c->desc.client = c;
  static const char *const debug[PJ_NMEM] = {"CxlaMemory(id=0, kind=device)", "CxlaMemory(id=1, kind=pinned_host)",
                                              "CxlaMemory(id=2, kind=unpinned_host)"};
  for (int k = 0; k < PJ_NMEM; k++) {
    c->mems[k] = (pj_memory){.client = c, .id = k, .kind = pj_memory_kinds[k], .debug = debug[k]};
    c->memories[k] = &c->mems[k].base;
  }
  c->topo.client = c;
  c->devices[0] = &c->device;
  c->descs[0] = &c->desc;
  snprintf(c->version, sizeof c->version, "cxla %s (%s backend)", cxla_client_version(c->c),
           cxla_client_backend(c->c));
  snprintf(c->debug, sizeof c->debug, "CxlaDevice(id=0)");
  a->client = c;
  return NULL;
}

PJRT_Error *pj_Client_Destroy(PJRT_Client_Destroy_Args *a) {
  PJ_CHECK_ARGS(PJRT_Client_Destroy_Args, a);
  if (a->client) {
    /* Buffers and executables keep the cxla client alive (reference
     * counted); they also point at this struct, which PJRT requires to
     * outlive them, so it is freed here as PJRT allows. */
    cxla_client_destroy(a->client->c);
    free(a->client);
  }
  return NULL;
}

PJRT_Error *pj_Client_PlatformName(PJRT_Client_PlatformName_Args *a) {
  PJ_CHECK_ARGS(PJRT_Client_PlatformName_Args, a);
  a->platform_name = PJ_PLATFORM;
  a->platform_name_size = strlen(PJ_PLATFORM);
  return NULL;
}

PJRT_Error *pj_Client_ProcessIndex(PJRT_Client_ProcessIndex_Args *a) {
  PJ_CHECK_ARGS(PJRT_Client_ProcessIndex_Args, a);
  a->process_index = 0;
  return NULL;
}

PJRT_Error *pj_Client_PlatformVersion(PJRT_Client_PlatformVersion_Args *a) {
  PJ_CHECK_ARGS(PJRT_Client_PlatformVersion_Args, a);
  a->platform_version = a->client->version;
  a->platform_version_size = strlen(a->client->version);
  return NULL;
}

PJRT_Error *pj_Client_Devices(PJRT_Client_Devices_Args *a) {
  PJ_CHECK_ARGS(PJRT_Client_Devices_Args, a);
  a->devices = a->client->devices;
  a->num_devices = 1;
  return NULL;
}

PJRT_Error *pj_Client_AddressableDevices(PJRT_Client_AddressableDevices_Args *a) {
  PJ_CHECK_ARGS(PJRT_Client_AddressableDevices_Args, a);
  a->addressable_devices = a->client->devices;
  a->num_addressable_devices = 1;
  return NULL;
}

PJRT_Error *pj_Client_LookupDevice(PJRT_Client_LookupDevice_Args *a) {
  PJ_CHECK_ARGS(PJRT_Client_LookupDevice_Args, a);
  if (a->id != 0) return pj_err(PJRT_Error_Code_INVALID_ARGUMENT, "no cxla device with id %d", a->id);
  a->device = &a->client->device;
  return NULL;
}

PJRT_Error *pj_Client_LookupAddressableDevice(PJRT_Client_LookupAddressableDevice_Args *a) {
  PJ_CHECK_ARGS(PJRT_Client_LookupAddressableDevice_Args, a);
  if (a->local_hardware_id != 0)
    return pj_err(PJRT_Error_Code_INVALID_ARGUMENT, "no cxla device with local hardware id %d",
                  a->local_hardware_id);
  a->addressable_device = &a->client->device;
  return NULL;
}

PJRT_Error *pj_Client_AddressableMemories(PJRT_Client_AddressableMemories_Args *a) {
  PJ_CHECK_ARGS(PJRT_Client_AddressableMemories_Args, a);
  a->addressable_memories = a->client->memories;
  a->num_addressable_memories = PJ_NMEM;
  return NULL;
}

PJRT_Error *pj_Client_DefaultDeviceAssignment(PJRT_Client_DefaultDeviceAssignment_Args *a) {
  PJ_CHECK_ARGS(PJRT_Client_DefaultDeviceAssignment_Args, a);
  if (a->num_replicas * a->num_partitions != 1)
    return pj_err(PJRT_Error_Code_INVALID_ARGUMENT,
                  "cxla has one device: %d replicas x %d partitions cannot be assigned",
                  a->num_replicas, a->num_partitions);
  if (a->default_assignment_size < 1)
    return pj_err(PJRT_Error_Code_INVALID_ARGUMENT, "default_assignment_size is 0");
  a->default_assignment[0] = 0;
  return NULL;
}

PJRT_Error *pj_Client_TopologyDescription(PJRT_Client_TopologyDescription_Args *a) {
  PJ_CHECK_ARGS(PJRT_Client_TopologyDescription_Args, a);
  a->topology = &a->client->topo;
  return NULL;
}

/* ---- device description, device, memory ---------------------------------- */

PJRT_Error *pj_DeviceDescription_Id(PJRT_DeviceDescription_Id_Args *a) {
  PJ_CHECK_ARGS(PJRT_DeviceDescription_Id_Args, a);
  a->id = 0;
  return NULL;
}

PJRT_Error *pj_DeviceDescription_ProcessIndex(PJRT_DeviceDescription_ProcessIndex_Args *a) {
  PJ_CHECK_ARGS(PJRT_DeviceDescription_ProcessIndex_Args, a);
  a->process_index = 0;
  return NULL;
}

PJRT_Error *pj_DeviceDescription_Attributes(PJRT_DeviceDescription_Attributes_Args *a) {
  PJ_CHECK_ARGS(PJRT_DeviceDescription_Attributes_Args, a);
  a->attributes = NULL;
  a->num_attributes = 0;
  return NULL;
}

PJRT_Error *pj_DeviceDescription_Kind(PJRT_DeviceDescription_Kind_Args *a) {
  PJ_CHECK_ARGS(PJRT_DeviceDescription_Kind_Args, a);
  const char *k = cxla_device_kind(a->device_description->client->device.dev);
  a->device_kind = k;
  a->device_kind_size = strlen(k);
  return NULL;
}

PJRT_Error *pj_DeviceDescription_DebugString(PJRT_DeviceDescription_DebugString_Args *a) {
  PJ_CHECK_ARGS(PJRT_DeviceDescription_DebugString_Args, a);
  a->debug_string = a->device_description->client->debug;
  a->debug_string_size = strlen(a->debug_string);
  return NULL;
}

PJRT_Error *pj_DeviceDescription_ToString(PJRT_DeviceDescription_ToString_Args *a) {
  PJ_CHECK_ARGS(PJRT_DeviceDescription_ToString_Args, a);
  a->to_string = a->device_description->client->debug;
  a->to_string_size = strlen(a->to_string);
  return NULL;
}

PJRT_Error *pj_Device_GetDescription(PJRT_Device_GetDescription_Args *a) {
  PJ_CHECK_ARGS(PJRT_Device_GetDescription_Args, a);
  a->device_description = &a->device->client->desc;
  return NULL;
}

PJRT_Error *pj_Device_IsAddressable(PJRT_Device_IsAddressable_Args *a) {
  PJ_CHECK_ARGS(PJRT_Device_IsAddressable_Args, a);
  a->is_addressable = true;
  return NULL;
}

PJRT_Error *pj_Device_LocalHardwareId(PJRT_Device_LocalHardwareId_Args *a) {
  PJ_CHECK_ARGS(PJRT_Device_LocalHardwareId_Args, a);
  a->local_hardware_id = 0;
  return NULL;
}

PJRT_Error *pj_Device_AddressableMemories(PJRT_Device_AddressableMemories_Args *a) {
  PJ_CHECK_ARGS(PJRT_Device_AddressableMemories_Args, a);
  a->memories = a->device->client->memories;
  a->num_memories = PJ_NMEM;
  return NULL;
}

PJRT_Error *pj_Device_DefaultMemory(PJRT_Device_DefaultMemory_Args *a) {
  PJ_CHECK_ARGS(PJRT_Device_DefaultMemory_Args, a);
  a->memory = &a->device->client->mems[PJ_MEM_DEVICE].base;
  return NULL;
}

const char *const pj_memory_kinds[PJ_NMEM] = {"device", "pinned_host", "unpinned_host"};

int pj_memory_index(int space) {
  return space == CXLA_MEMORY_PINNED_HOST     ? PJ_MEM_PINNED_HOST
         : space == CXLA_MEMORY_UNPINNED_HOST ? PJ_MEM_UNPINNED_HOST
                                              : PJ_MEM_DEVICE;
}

pj_memory *pj_memory_of_space(PJRT_Client *c, int space) { return &c->mems[pj_memory_index(space)]; }

PJRT_Error *pj_Memory_Id(PJRT_Memory_Id_Args *a) {
  PJ_CHECK_ARGS(PJRT_Memory_Id_Args, a);
  a->id = ((pj_memory *)a->memory)->id;
  return NULL;
}

PJRT_Error *pj_Memory_Kind(PJRT_Memory_Kind_Args *a) {
  PJ_CHECK_ARGS(PJRT_Memory_Kind_Args, a);
  a->kind = ((pj_memory *)a->memory)->kind;
  a->kind_size = strlen(a->kind);
  return NULL;
}

PJRT_Error *pj_Memory_Kind_Id(PJRT_Memory_Kind_Id_Args *a) {
  PJ_CHECK_ARGS(PJRT_Memory_Kind_Id_Args, a);
  a->kind_id = ((pj_memory *)a->memory)->id;
  return NULL;
}

PJRT_Error *pj_Memory_DebugString(PJRT_Memory_DebugString_Args *a) {
  PJ_CHECK_ARGS(PJRT_Memory_DebugString_Args, a);
  a->debug_string = ((pj_memory *)a->memory)->debug;
  a->debug_string_size = strlen(a->debug_string);
  return NULL;
}

PJRT_Error *pj_Memory_ToString(PJRT_Memory_ToString_Args *a) {
  PJ_CHECK_ARGS(PJRT_Memory_ToString_Args, a);
  a->to_string = ((pj_memory *)a->memory)->debug;
  a->to_string_size = strlen(a->to_string);
  return NULL;
}

PJRT_Error *pj_Memory_AddressableByDevices(PJRT_Memory_AddressableByDevices_Args *a) {
  PJ_CHECK_ARGS(PJRT_Memory_AddressableByDevices_Args, a);
  a->devices = ((pj_memory *)a->memory)->client->devices;
  a->num_devices = 1;
  return NULL;
}

/* ---- topology (the client's; not owned by the caller) ---------------------- */

PJRT_Error *pj_TopologyDescription_Destroy(PJRT_TopologyDescription_Destroy_Args *a) {
  PJ_CHECK_ARGS(PJRT_TopologyDescription_Destroy_Args, a);
  return NULL; /* the client's own topology lives with the client */
}

PJRT_Error *pj_TopologyDescription_PlatformName(PJRT_TopologyDescription_PlatformName_Args *a) {
  PJ_CHECK_ARGS(PJRT_TopologyDescription_PlatformName_Args, a);
  a->platform_name = PJ_PLATFORM;
  a->platform_name_size = strlen(PJ_PLATFORM);
  return NULL;
}

PJRT_Error *pj_TopologyDescription_PlatformVersion(PJRT_TopologyDescription_PlatformVersion_Args *a) {
  PJ_CHECK_ARGS(PJRT_TopologyDescription_PlatformVersion_Args, a);
  a->platform_version = a->topology->client->version;
  a->platform_version_size = strlen(a->platform_version);
  return NULL;
}

PJRT_Error *pj_TopologyDescription_GetDeviceDescriptions(PJRT_TopologyDescription_GetDeviceDescriptions_Args *a) {
  PJ_CHECK_ARGS(PJRT_TopologyDescription_GetDeviceDescriptions_Args, a);
  a->descriptions = a->topology->client->descs;
  a->num_descriptions = 1;
  return NULL;
}

static void topo_serialized_free(PJRT_SerializedTopology *t) { (void)t; }

PJRT_Error *pj_TopologyDescription_Serialize(PJRT_TopologyDescription_Serialize_Args *a) {
  PJ_CHECK_ARGS(PJRT_TopologyDescription_Serialize_Args, a);
  a->serialized_bytes = a->topology->client->version;
  a->serialized_bytes_size = strlen(a->topology->client->version);
  a->serialized_topology = NULL;
  a->serialized_topology_deleter = topo_serialized_free;
  return NULL;
}

PJRT_Error *pj_TopologyDescription_Attributes(PJRT_TopologyDescription_Attributes_Args *a) {
  PJ_CHECK_ARGS(PJRT_TopologyDescription_Attributes_Args, a);
  a->attributes = NULL;
  a->num_attributes = 0;
  return NULL;
}

PJRT_Error *pj_TopologyDescription_Fingerprint(PJRT_TopologyDescription_Fingerprint_Args *a) {
  PJ_CHECK_ARGS(PJRT_TopologyDescription_Fingerprint_Args, a);
  uint64_t h = 1469598103934665603ull; /* FNV-1a of the platform version */
  for (const char *p = a->topology->client->version; *p; p++) h = (h ^ (uint8_t)*p) * 1099511628211ull;
  a->fingerprint = h;
  return NULL;
}

PJRT_Error *pj_ExecuteContext_Create(PJRT_ExecuteContext_Create_Args *a) {
  PJ_CHECK_ARGS(PJRT_ExecuteContext_Create_Args, a);
  /* An empty context: cxla has no FFI user data to carry. */
  a->context = malloc(1);
  if (!a->context) return pj_err(PJRT_Error_Code_RESOURCE_EXHAUSTED, "out of memory");
  return NULL;
}

PJRT_Error *pj_ExecuteContext_Destroy(PJRT_ExecuteContext_Destroy_Args *a) {
  PJ_CHECK_ARGS(PJRT_ExecuteContext_Destroy_Args, a);
  free(a->context);
  return NULL;
}

/* ---- slots cxla does not implement: UNIMPLEMENTED, never NULL ------------- */

#define UNIMPL(name)                                                               \
  static PJRT_Error *unimpl_##name(name##_Args *a) {                               \
    (void)a;                                                                       \
    return pj_err(PJRT_Error_Code_UNIMPLEMENTED, #name " is not implemented by cxla"); \
  }
UNIMPL(PJRT_Device_MemoryStats)
UNIMPL(PJRT_CopyToDeviceStream_Destroy)
UNIMPL(PJRT_CopyToDeviceStream_AddChunk)
UNIMPL(PJRT_CopyToDeviceStream_TotalBytes)
UNIMPL(PJRT_CopyToDeviceStream_GranuleSize)
UNIMPL(PJRT_CopyToDeviceStream_CurrentBytes)
/* A topology without a client (ahead-of-time compilation for a machine
 * described by name): the words JAX looks for in the error of a plugin
 * without one ("topology not implemented"), which its AOT helpers then
 * report as unsupported. */
static PJRT_Error *unimpl_PJRT_TopologyDescription_Create(PJRT_TopologyDescription_Create_Args *a) {
  (void)a;
  return pj_err(PJRT_Error_Code_UNIMPLEMENTED,
                "PJRT_TopologyDescription_Create: topology not implemented by cxla (a client's own topology "
                "is PJRT_Client_TopologyDescription)");
}
UNIMPL(PJRT_TopologyDescription_Deserialize)
UNIMPL(PJRT_Compile)
UNIMPL(PJRT_Client_CreateViewOfDeviceBuffer)
UNIMPL(PJRT_AsyncHostToDeviceTransferManager_Destroy)
UNIMPL(PJRT_AsyncHostToDeviceTransferManager_TransferData)
UNIMPL(PJRT_Client_CreateBuffersForAsyncHostToDevice)
UNIMPL(PJRT_AsyncHostToDeviceTransferManager_RetrieveBuffer)
UNIMPL(PJRT_AsyncHostToDeviceTransferManager_Device)
UNIMPL(PJRT_AsyncHostToDeviceTransferManager_BufferCount)
UNIMPL(PJRT_AsyncHostToDeviceTransferManager_BufferSize)
UNIMPL(PJRT_AsyncHostToDeviceTransferManager_SetBufferError)
UNIMPL(PJRT_AsyncHostToDeviceTransferManager_AddMetadata)
UNIMPL(PJRT_AsyncHostToDeviceTransferManager_TransferLiteral)
UNIMPL(PJRT_Client_DmaMap)
UNIMPL(PJRT_Client_DmaUnmap)
UNIMPL(PJRT_Client_CreateUninitializedBuffer)
UNIMPL(PJRT_Client_UpdateGlobalProcessInfo)
UNIMPL(PJRT_Client_CreateAliasBuffer)
UNIMPL(PJRT_Client_FulfillAliasBuffer)
UNIMPL(PJRT_Client_CreateErrorBuffer)
UNIMPL(PJRT_Buffer_CopyRawToHostFuture)
UNIMPL(PJRT_Device_PoisonExecution)
UNIMPL(PJRT_Device_CreateAsyncTrackingEvent)
UNIMPL(PJRT_AsyncTrackingEvent_Destroy)
UNIMPL(PJRT_Buffer_DonateWithControlDependency)

/* ---- the API table ---------------------------------------------------------- */

static const PJRT_Api api = {
    .struct_size = PJRT_Api_STRUCT_SIZE,
    /* Never written through: the extension is read-only like the table. */
    .extension_start = (PJRT_Extension_Base *)&pj_layouts_extension.base,
    .pjrt_api_version = {.struct_size = PJRT_Api_Version_STRUCT_SIZE,
                         .major_version = PJRT_API_MAJOR,
                         .minor_version = PJRT_API_MINOR},
    .PJRT_Error_Destroy = pj_Error_Destroy,
    .PJRT_Error_Message = pj_Error_Message,
    .PJRT_Error_GetCode = pj_Error_GetCode,
    .PJRT_Plugin_Initialize = pj_Plugin_Initialize,
    .PJRT_Plugin_Attributes = pj_Plugin_Attributes,
    .PJRT_Event_Destroy = pj_Event_Destroy,
    .PJRT_Event_IsReady = pj_Event_IsReady,
    .PJRT_Event_Error = pj_Event_Error,
    .PJRT_Event_Await = pj_Event_Await,
    .PJRT_Event_OnReady = pj_Event_OnReady,
    .PJRT_Client_Create = pj_Client_Create,
    .PJRT_Client_Destroy = pj_Client_Destroy,
    .PJRT_Client_PlatformName = pj_Client_PlatformName,
    .PJRT_Client_ProcessIndex = pj_Client_ProcessIndex,
    .PJRT_Client_PlatformVersion = pj_Client_PlatformVersion,
    .PJRT_Client_Devices = pj_Client_Devices,
    .PJRT_Client_AddressableDevices = pj_Client_AddressableDevices,
    .PJRT_Client_LookupDevice = pj_Client_LookupDevice,
    .PJRT_Client_LookupAddressableDevice = pj_Client_LookupAddressableDevice,
    .PJRT_Client_AddressableMemories = pj_Client_AddressableMemories,
    .PJRT_Client_Compile = pj_Client_Compile,
    .PJRT_Client_DefaultDeviceAssignment = pj_Client_DefaultDeviceAssignment,
    .PJRT_Client_BufferFromHostBuffer = pj_Client_BufferFromHostBuffer,
    .PJRT_DeviceDescription_Id = pj_DeviceDescription_Id,
    .PJRT_DeviceDescription_ProcessIndex = pj_DeviceDescription_ProcessIndex,
    .PJRT_DeviceDescription_Attributes = pj_DeviceDescription_Attributes,
    .PJRT_DeviceDescription_Kind = pj_DeviceDescription_Kind,
    .PJRT_DeviceDescription_DebugString = pj_DeviceDescription_DebugString,
    .PJRT_DeviceDescription_ToString = pj_DeviceDescription_ToString,
    .PJRT_Device_GetDescription = pj_Device_GetDescription,
    .PJRT_Device_IsAddressable = pj_Device_IsAddressable,
    .PJRT_Device_LocalHardwareId = pj_Device_LocalHardwareId,
    .PJRT_Device_AddressableMemories = pj_Device_AddressableMemories,
    .PJRT_Device_DefaultMemory = pj_Device_DefaultMemory,
    .PJRT_Device_MemoryStats = unimpl_PJRT_Device_MemoryStats,
    .PJRT_Memory_Id = pj_Memory_Id,
    .PJRT_Memory_Kind = pj_Memory_Kind,
    .PJRT_Memory_DebugString = pj_Memory_DebugString,
    .PJRT_Memory_ToString = pj_Memory_ToString,
    .PJRT_Memory_AddressableByDevices = pj_Memory_AddressableByDevices,
    .PJRT_Executable_Destroy = pj_Executable_Destroy,
    .PJRT_Executable_Name = pj_Executable_Name,
    .PJRT_Executable_NumReplicas = pj_Executable_NumReplicas,
    .PJRT_Executable_NumPartitions = pj_Executable_NumPartitions,
    .PJRT_Executable_NumOutputs = pj_Executable_NumOutputs,
    .PJRT_Executable_SizeOfGeneratedCodeInBytes = pj_Executable_SizeOfGeneratedCodeInBytes,
    .PJRT_Executable_GetCostAnalysis = pj_Executable_GetCostAnalysis,
    .PJRT_Executable_OutputMemoryKinds = pj_Executable_OutputMemoryKinds,
    .PJRT_Executable_OptimizedProgram = pj_Executable_OptimizedProgram,
    .PJRT_Executable_Serialize = pj_Executable_Serialize,
    .PJRT_LoadedExecutable_Destroy = pj_LoadedExecutable_Destroy,
    .PJRT_LoadedExecutable_GetExecutable = pj_LoadedExecutable_GetExecutable,
    .PJRT_LoadedExecutable_AddressableDevices = pj_LoadedExecutable_AddressableDevices,
    .PJRT_LoadedExecutable_Delete = pj_LoadedExecutable_Delete,
    .PJRT_LoadedExecutable_IsDeleted = pj_LoadedExecutable_IsDeleted,
    .PJRT_LoadedExecutable_Execute = pj_LoadedExecutable_Execute,
    .PJRT_Executable_DeserializeAndLoad = pj_Executable_DeserializeAndLoad,
    .PJRT_LoadedExecutable_Fingerprint = pj_LoadedExecutable_Fingerprint,
    .PJRT_Buffer_Destroy = pj_Buffer_Destroy,
    .PJRT_Buffer_ElementType = pj_Buffer_ElementType,
    .PJRT_Buffer_Dimensions = pj_Buffer_Dimensions,
    .PJRT_Buffer_UnpaddedDimensions = pj_Buffer_UnpaddedDimensions,
    .PJRT_Buffer_DynamicDimensionIndices = pj_Buffer_DynamicDimensionIndices,
    .PJRT_Buffer_GetMemoryLayout = pj_Buffer_GetMemoryLayout,
    .PJRT_Buffer_OnDeviceSizeInBytes = pj_Buffer_OnDeviceSizeInBytes,
    .PJRT_Buffer_Device = pj_Buffer_Device,
    .PJRT_Buffer_Memory = pj_Buffer_Memory,
    .PJRT_Buffer_Delete = pj_Buffer_Delete,
    .PJRT_Buffer_IsDeleted = pj_Buffer_IsDeleted,
    .PJRT_Buffer_CopyToDevice = pj_Buffer_CopyToDevice,
    .PJRT_Buffer_ToHostBuffer = pj_Buffer_ToHostBuffer,
    .PJRT_Buffer_IsOnCpu = pj_Buffer_IsOnCpu,
    .PJRT_Buffer_ReadyEvent = pj_Buffer_ReadyEvent,
    .PJRT_Buffer_UnsafePointer = pj_Buffer_UnsafePointer,
    .PJRT_Buffer_IncreaseExternalReferenceCount = pj_Buffer_IncreaseExternalReferenceCount,
    .PJRT_Buffer_DecreaseExternalReferenceCount = pj_Buffer_DecreaseExternalReferenceCount,
    .PJRT_Buffer_OpaqueDeviceMemoryDataPointer = pj_Buffer_OpaqueDeviceMemoryDataPointer,
    .PJRT_CopyToDeviceStream_Destroy = unimpl_PJRT_CopyToDeviceStream_Destroy,
    .PJRT_CopyToDeviceStream_AddChunk = unimpl_PJRT_CopyToDeviceStream_AddChunk,
    .PJRT_CopyToDeviceStream_TotalBytes = unimpl_PJRT_CopyToDeviceStream_TotalBytes,
    .PJRT_CopyToDeviceStream_GranuleSize = unimpl_PJRT_CopyToDeviceStream_GranuleSize,
    .PJRT_CopyToDeviceStream_CurrentBytes = unimpl_PJRT_CopyToDeviceStream_CurrentBytes,
    .PJRT_TopologyDescription_Create = unimpl_PJRT_TopologyDescription_Create,
    .PJRT_TopologyDescription_Destroy = pj_TopologyDescription_Destroy,
    .PJRT_TopologyDescription_PlatformName = pj_TopologyDescription_PlatformName,
    .PJRT_TopologyDescription_PlatformVersion = pj_TopologyDescription_PlatformVersion,
    .PJRT_TopologyDescription_GetDeviceDescriptions = pj_TopologyDescription_GetDeviceDescriptions,
    .PJRT_TopologyDescription_Serialize = pj_TopologyDescription_Serialize,
    .PJRT_TopologyDescription_Attributes = pj_TopologyDescription_Attributes,
    .PJRT_Compile = unimpl_PJRT_Compile,
    .PJRT_Executable_OutputElementTypes = pj_Executable_OutputElementTypes,
    .PJRT_Executable_OutputDimensions = pj_Executable_OutputDimensions,
    .PJRT_Buffer_CopyToMemory = pj_Buffer_CopyToMemory,
    .PJRT_Client_CreateViewOfDeviceBuffer = unimpl_PJRT_Client_CreateViewOfDeviceBuffer,
    .PJRT_Executable_Fingerprint = pj_Executable_Fingerprint,
    .PJRT_Client_TopologyDescription = pj_Client_TopologyDescription,
    .PJRT_Executable_GetCompiledMemoryStats = pj_Executable_GetCompiledMemoryStats,
    .PJRT_Memory_Kind_Id = pj_Memory_Kind_Id,
    .PJRT_ExecuteContext_Create = pj_ExecuteContext_Create,
    .PJRT_ExecuteContext_Destroy = pj_ExecuteContext_Destroy,
    .PJRT_Buffer_CopyRawToHost = pj_Buffer_CopyRawToHost,
    .PJRT_AsyncHostToDeviceTransferManager_Destroy = unimpl_PJRT_AsyncHostToDeviceTransferManager_Destroy,
    .PJRT_AsyncHostToDeviceTransferManager_TransferData = unimpl_PJRT_AsyncHostToDeviceTransferManager_TransferData,
    .PJRT_Client_CreateBuffersForAsyncHostToDevice = unimpl_PJRT_Client_CreateBuffersForAsyncHostToDevice,
    .PJRT_AsyncHostToDeviceTransferManager_RetrieveBuffer = unimpl_PJRT_AsyncHostToDeviceTransferManager_RetrieveBuffer,
    .PJRT_AsyncHostToDeviceTransferManager_Device = unimpl_PJRT_AsyncHostToDeviceTransferManager_Device,
    .PJRT_AsyncHostToDeviceTransferManager_BufferCount = unimpl_PJRT_AsyncHostToDeviceTransferManager_BufferCount,
    .PJRT_AsyncHostToDeviceTransferManager_BufferSize = unimpl_PJRT_AsyncHostToDeviceTransferManager_BufferSize,
    .PJRT_AsyncHostToDeviceTransferManager_SetBufferError = unimpl_PJRT_AsyncHostToDeviceTransferManager_SetBufferError,
    .PJRT_AsyncHostToDeviceTransferManager_AddMetadata = unimpl_PJRT_AsyncHostToDeviceTransferManager_AddMetadata,
    .PJRT_Client_DmaMap = unimpl_PJRT_Client_DmaMap,
    .PJRT_Client_DmaUnmap = unimpl_PJRT_Client_DmaUnmap,
    .PJRT_Client_CreateUninitializedBuffer = unimpl_PJRT_Client_CreateUninitializedBuffer,
    .PJRT_Client_UpdateGlobalProcessInfo = unimpl_PJRT_Client_UpdateGlobalProcessInfo,
    .PJRT_TopologyDescription_Deserialize = unimpl_PJRT_TopologyDescription_Deserialize,
    .PJRT_Client_CreateAliasBuffer = unimpl_PJRT_Client_CreateAliasBuffer,
    .PJRT_Client_FulfillAliasBuffer = unimpl_PJRT_Client_FulfillAliasBuffer,
    .PJRT_LoadedExecutable_GetDeviceAssignment = pj_LoadedExecutable_GetDeviceAssignment,
    .PJRT_Client_CreateErrorBuffer = unimpl_PJRT_Client_CreateErrorBuffer,
    .PJRT_AsyncHostToDeviceTransferManager_TransferLiteral = unimpl_PJRT_AsyncHostToDeviceTransferManager_TransferLiteral,
    .PJRT_Buffer_CopyRawToHostFuture = unimpl_PJRT_Buffer_CopyRawToHostFuture,
    .PJRT_Device_PoisonExecution = unimpl_PJRT_Device_PoisonExecution,
    .PJRT_Device_CreateAsyncTrackingEvent = unimpl_PJRT_Device_CreateAsyncTrackingEvent,
    .PJRT_AsyncTrackingEvent_Destroy = unimpl_PJRT_AsyncTrackingEvent_Destroy,
    .PJRT_Executable_GetCompileOptions = pj_Executable_GetCompileOptions,
    .PJRT_Buffer_DonateWithControlDependency = unimpl_PJRT_Buffer_DonateWithControlDependency,
    /* PJRT_Event_Create: NULL (see README.md) */
    /* PJRT_Event_Set: NULL (see README.md) */
    /* PJRT_Device_GetAttributes: NULL (see README.md) */
    /* PJRT_Client_Load: NULL (see README.md) */
    /* PJRT_LoadedExecutable_AddressableDeviceLogicalIds: NULL (see README.md) */
    /* PJRT_Buffer_Bitcast: NULL (see README.md) */
    .PJRT_Error_ForEachPayload = pj_Error_ForEachPayload,
    .PJRT_TopologyDescription_Fingerprint = pj_TopologyDescription_Fingerprint,
    .PJRT_Executable_ParameterMemoryKinds = pj_Executable_ParameterMemoryKinds,
    /* PJRT_Device_ClearMemoryStats: NULL (see README.md) */
    /* PJRT_TopologyDescription_GetMemorySpaceKindIds: NULL (see README.md) */
};

__attribute__((visibility("default"))) const PJRT_Api *GetPjrtApi(void) { return &api; }
