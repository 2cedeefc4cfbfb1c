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
  const char *msg; /* NUL-terminated; stored right after the struct */
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
/* The client's memories, one per memory kind JAX knows for a CPU: all of
 * them host memory to cxla, the kind only a buffer's label (where a
 * sharding's memory_kind puts it, and what an executable's parameter and
 * result memory spaces say: cxla_executable_result_memory_space). */
enum { PJ_MEM_DEVICE, PJ_MEM_PINNED_HOST, PJ_MEM_UNPINNED_HOST, PJ_NMEM };
typedef struct pj_memory {
  PJRT_Memory base;
  PJRT_Client *client;
  int id;            /* PJ_MEM_*: PJRT_Memory_Id and _Kind_Id */
  const char *kind;  /* "device", "pinned_host", "unpinned_host" */
  const char *debug; /* CxlaMemory(id=N, kind=K) */
} pj_memory;
/* The PJ_MEM_* index of a cxla_memory_space (the device's for any other
 * value), and each memory's kind by index. */
int pj_memory_index(int space);
extern const char *const pj_memory_kinds[PJ_NMEM];
/* The client's memory of a cxla_memory_space. */
pj_memory *pj_memory_of_space(PJRT_Client *c, int space);

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
  pj_memory mems[PJ_NMEM];
  PJRT_TopologyDescription topo;
  PJRT_Device *devices[1];
  PJRT_Memory *memories[PJ_NMEM];
  PJRT_DeviceDescription *descs[1];
  char version[96];
  char debug[64];
};

/* ---- buffers ---- */
struct PJRT_Buffer {
  PJRT_Client *client;
  pj_memory *mem; /* the memory it is labelled with (pj_memory) */
  _Atomic(cxla_buffer *) b; /* NULL once deleted (or donated) */
  /* External references (a NumPy view of the data, DLPack): while any is
   * held, a deleted buffer's memory stays in `held`, freed when the last
   * is dropped (or the handle destroyed); a buffer with one is not
   * consumed by donation (XLA:CPU's behaviour). */
  atomic_int ext_refs;
  _Atomic(cxla_buffer *) held;
  PJRT_Buffer_Type type;
  int rank;
  int64_t dims[]; /* rank entries */
};
/* A PJRT buffer owning b, in the device memory (_in: in mem). */
PJRT_Buffer *pj_buffer_wrap(PJRT_Client *client, cxla_buffer *b);
PJRT_Buffer *pj_buffer_wrap_in(PJRT_Client *client, cxla_buffer *b, pj_memory *mem);
/* Deletes pb's buffer (donated or deleted): freed now, or when its last
 * external reference is dropped. */
void pj_buffer_release(PJRT_Buffer *pb);

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
  const char **param_kinds, **result_kinds; /* memory kinds (pj_memory.kind) */
  size_t *param_kind_sizes, *result_kind_sizes;
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

/* The slots, pj_<slot name> (plugin.c, buffer.c, executable.c). */
void pj_Error_Destroy(PJRT_Error_Destroy_Args *a);
void pj_Error_Message(PJRT_Error_Message_Args *a);
PJRT_Error *pj_Error_GetCode(PJRT_Error_GetCode_Args *a);
PJRT_Error *pj_Plugin_Initialize(PJRT_Plugin_Initialize_Args *a);
PJRT_Error *pj_Plugin_Attributes(PJRT_Plugin_Attributes_Args *a);
PJRT_Error *pj_Event_Destroy(PJRT_Event_Destroy_Args *a);
PJRT_Error *pj_Event_IsReady(PJRT_Event_IsReady_Args *a);
PJRT_Error *pj_Event_Error(PJRT_Event_Error_Args *a);
PJRT_Error *pj_Event_Await(PJRT_Event_Await_Args *a);
PJRT_Error *pj_Event_OnReady(PJRT_Event_OnReady_Args *a);
PJRT_Error *pj_Client_Create(PJRT_Client_Create_Args *a);
PJRT_Error *pj_Client_Destroy(PJRT_Client_Destroy_Args *a);
PJRT_Error *pj_Client_PlatformName(PJRT_Client_PlatformName_Args *a);
PJRT_Error *pj_Client_ProcessIndex(PJRT_Client_ProcessIndex_Args *a);
PJRT_Error *pj_Client_PlatformVersion(PJRT_Client_PlatformVersion_Args *a);
PJRT_Error *pj_Client_Devices(PJRT_Client_Devices_Args *a);
PJRT_Error *pj_Client_AddressableDevices(PJRT_Client_AddressableDevices_Args *a);
PJRT_Error *pj_Client_LookupDevice(PJRT_Client_LookupDevice_Args *a);
PJRT_Error *pj_Client_LookupAddressableDevice(PJRT_Client_LookupAddressableDevice_Args *a);
PJRT_Error *pj_Client_AddressableMemories(PJRT_Client_AddressableMemories_Args *a);
PJRT_Error *pj_Client_Compile(PJRT_Client_Compile_Args *a);
PJRT_Error *pj_Client_DefaultDeviceAssignment(PJRT_Client_DefaultDeviceAssignment_Args *a);
PJRT_Error *pj_Client_BufferFromHostBuffer(PJRT_Client_BufferFromHostBuffer_Args *a);
PJRT_Error *pj_DeviceDescription_Id(PJRT_DeviceDescription_Id_Args *a);
PJRT_Error *pj_DeviceDescription_ProcessIndex(PJRT_DeviceDescription_ProcessIndex_Args *a);
PJRT_Error *pj_DeviceDescription_Attributes(PJRT_DeviceDescription_Attributes_Args *a);
PJRT_Error *pj_DeviceDescription_Kind(PJRT_DeviceDescription_Kind_Args *a);
PJRT_Error *pj_DeviceDescription_DebugString(PJRT_DeviceDescription_DebugString_Args *a);
PJRT_Error *pj_DeviceDescription_ToString(PJRT_DeviceDescription_ToString_Args *a);
PJRT_Error *pj_Device_GetDescription(PJRT_Device_GetDescription_Args *a);
PJRT_Error *pj_Device_IsAddressable(PJRT_Device_IsAddressable_Args *a);
PJRT_Error *pj_Device_LocalHardwareId(PJRT_Device_LocalHardwareId_Args *a);
PJRT_Error *pj_Device_AddressableMemories(PJRT_Device_AddressableMemories_Args *a);
PJRT_Error *pj_Device_DefaultMemory(PJRT_Device_DefaultMemory_Args *a);
PJRT_Error *pj_Memory_Id(PJRT_Memory_Id_Args *a);
PJRT_Error *pj_Memory_Kind(PJRT_Memory_Kind_Args *a);
PJRT_Error *pj_Memory_DebugString(PJRT_Memory_DebugString_Args *a);
PJRT_Error *pj_Memory_ToString(PJRT_Memory_ToString_Args *a);
PJRT_Error *pj_Memory_AddressableByDevices(PJRT_Memory_AddressableByDevices_Args *a);
PJRT_Error *pj_Executable_Destroy(PJRT_Executable_Destroy_Args *a);
PJRT_Error *pj_Executable_Name(PJRT_Executable_Name_Args *a);
PJRT_Error *pj_Executable_NumReplicas(PJRT_Executable_NumReplicas_Args *a);
PJRT_Error *pj_Executable_NumPartitions(PJRT_Executable_NumPartitions_Args *a);
PJRT_Error *pj_Executable_NumOutputs(PJRT_Executable_NumOutputs_Args *a);
PJRT_Error *pj_Executable_GetCostAnalysis(PJRT_Executable_GetCostAnalysis_Args *a);
PJRT_Error *pj_Executable_OutputMemoryKinds(PJRT_Executable_OutputMemoryKinds_Args *a);
PJRT_Error *pj_Executable_OptimizedProgram(PJRT_Executable_OptimizedProgram_Args *a);
PJRT_Error *pj_Executable_Serialize(PJRT_Executable_Serialize_Args *a);
PJRT_Error *pj_LoadedExecutable_Destroy(PJRT_LoadedExecutable_Destroy_Args *a);
PJRT_Error *pj_LoadedExecutable_GetExecutable(PJRT_LoadedExecutable_GetExecutable_Args *a);
PJRT_Error *pj_LoadedExecutable_Delete(PJRT_LoadedExecutable_Delete_Args *a);
PJRT_Error *pj_LoadedExecutable_IsDeleted(PJRT_LoadedExecutable_IsDeleted_Args *a);
PJRT_Error *pj_LoadedExecutable_Execute(PJRT_LoadedExecutable_Execute_Args *a);
PJRT_Error *pj_Executable_DeserializeAndLoad(PJRT_Executable_DeserializeAndLoad_Args *a);
PJRT_Error *pj_LoadedExecutable_Fingerprint(PJRT_LoadedExecutable_Fingerprint_Args *a);
PJRT_Error *pj_Buffer_Destroy(PJRT_Buffer_Destroy_Args *a);
PJRT_Error *pj_Buffer_ElementType(PJRT_Buffer_ElementType_Args *a);
PJRT_Error *pj_Buffer_Dimensions(PJRT_Buffer_Dimensions_Args *a);
PJRT_Error *pj_Buffer_UnpaddedDimensions(PJRT_Buffer_UnpaddedDimensions_Args *a);
PJRT_Error *pj_Buffer_DynamicDimensionIndices(PJRT_Buffer_DynamicDimensionIndices_Args *a);
PJRT_Error *pj_Buffer_GetMemoryLayout(PJRT_Buffer_GetMemoryLayout_Args *a);
PJRT_Error *pj_Buffer_OnDeviceSizeInBytes(PJRT_Buffer_OnDeviceSizeInBytes_Args *a);
PJRT_Error *pj_Buffer_Device(PJRT_Buffer_Device_Args *a);
PJRT_Error *pj_Buffer_Memory(PJRT_Buffer_Memory_Args *a);
PJRT_Error *pj_Buffer_Delete(PJRT_Buffer_Delete_Args *a);
PJRT_Error *pj_Buffer_IsDeleted(PJRT_Buffer_IsDeleted_Args *a);
PJRT_Error *pj_Buffer_CopyToDevice(PJRT_Buffer_CopyToDevice_Args *a);
PJRT_Error *pj_Buffer_ToHostBuffer(PJRT_Buffer_ToHostBuffer_Args *a);
PJRT_Error *pj_Buffer_IsOnCpu(PJRT_Buffer_IsOnCpu_Args *a);
PJRT_Error *pj_Buffer_ReadyEvent(PJRT_Buffer_ReadyEvent_Args *a);
PJRT_Error *pj_Buffer_UnsafePointer(PJRT_Buffer_UnsafePointer_Args *a);
PJRT_Error *pj_TopologyDescription_Destroy(PJRT_TopologyDescription_Destroy_Args *a);
PJRT_Error *pj_TopologyDescription_PlatformName(PJRT_TopologyDescription_PlatformName_Args *a);
PJRT_Error *pj_TopologyDescription_Serialize(PJRT_TopologyDescription_Serialize_Args *a);
PJRT_Error *pj_TopologyDescription_Attributes(PJRT_TopologyDescription_Attributes_Args *a);
PJRT_Error *pj_Executable_OutputElementTypes(PJRT_Executable_OutputElementTypes_Args *a);
PJRT_Error *pj_Executable_OutputDimensions(PJRT_Executable_OutputDimensions_Args *a);
PJRT_Error *pj_Buffer_CopyToMemory(PJRT_Buffer_CopyToMemory_Args *a);
PJRT_Error *pj_Executable_Fingerprint(PJRT_Executable_Fingerprint_Args *a);
PJRT_Error *pj_Client_TopologyDescription(PJRT_Client_TopologyDescription_Args *a);
PJRT_Error *pj_Memory_Kind_Id(PJRT_Memory_Kind_Id_Args *a);
PJRT_Error *pj_ExecuteContext_Create(PJRT_ExecuteContext_Create_Args *a);
PJRT_Error *pj_ExecuteContext_Destroy(PJRT_ExecuteContext_Destroy_Args *a);
PJRT_Error *pj_Buffer_CopyRawToHost(PJRT_Buffer_CopyRawToHost_Args *a);
PJRT_Error *pj_Executable_GetCompileOptions(PJRT_Executable_GetCompileOptions_Args *a);
PJRT_Error *pj_Error_ForEachPayload(PJRT_Error_ForEachPayload_Args *a);
PJRT_Error *pj_TopologyDescription_Fingerprint(PJRT_TopologyDescription_Fingerprint_Args *a);
PJRT_Error *pj_Executable_ParameterMemoryKinds(PJRT_Executable_ParameterMemoryKinds_Args *a);
PJRT_Error *pj_Buffer_IncreaseExternalReferenceCount(PJRT_Buffer_IncreaseExternalReferenceCount_Args *a);
PJRT_Error *pj_Buffer_DecreaseExternalReferenceCount(PJRT_Buffer_DecreaseExternalReferenceCount_Args *a);
PJRT_Error *pj_Buffer_OpaqueDeviceMemoryDataPointer(PJRT_Buffer_OpaqueDeviceMemoryDataPointer_Args *a);
PJRT_Error *pj_Executable_SizeOfGeneratedCodeInBytes(PJRT_Executable_SizeOfGeneratedCodeInBytes_Args *a);
PJRT_Error *pj_LoadedExecutable_AddressableDevices(PJRT_LoadedExecutable_AddressableDevices_Args *a);
PJRT_Error *pj_Executable_GetCompiledMemoryStats(PJRT_Executable_GetCompiledMemoryStats_Args *a);
PJRT_Error *pj_LoadedExecutable_GetDeviceAssignment(PJRT_LoadedExecutable_GetDeviceAssignment_Args *a);
PJRT_Error *pj_TopologyDescription_PlatformVersion(PJRT_TopologyDescription_PlatformVersion_Args *a);
PJRT_Error *pj_TopologyDescription_GetDeviceDescriptions(PJRT_TopologyDescription_GetDeviceDescriptions_Args *a);
extern const PJRT_Layouts_Extension pj_layouts_extension;

#endif
