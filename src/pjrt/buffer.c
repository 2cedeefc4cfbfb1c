/* PJRT buffers over cxla_buffer: from host (byte strides, every dtype), to
 * host, delete, ready events, copies between devices and memories. */
#include <stdlib.h>
#include <string.h>

#include "pjrt/pjrt_internal.h"

/* ---- element types ---- */

static const struct {
  PJRT_Buffer_Type p;
  cxla_type c;
} type_map[] = {
    {PJRT_Buffer_Type_PRED, CXLA_PRED},
    {PJRT_Buffer_Type_S2, CXLA_S2},
    {PJRT_Buffer_Type_S4, CXLA_S4},
    {PJRT_Buffer_Type_S8, CXLA_S8},
    {PJRT_Buffer_Type_S16, CXLA_S16},
    {PJRT_Buffer_Type_S32, CXLA_S32},
    {PJRT_Buffer_Type_S64, CXLA_S64},
    {PJRT_Buffer_Type_U2, CXLA_U2},
    {PJRT_Buffer_Type_U4, CXLA_U4},
    {PJRT_Buffer_Type_U8, CXLA_U8},
    {PJRT_Buffer_Type_U16, CXLA_U16},
    {PJRT_Buffer_Type_U32, CXLA_U32},
    {PJRT_Buffer_Type_U64, CXLA_U64},
    {PJRT_Buffer_Type_F16, CXLA_F16},
    {PJRT_Buffer_Type_BF16, CXLA_BF16},
    {PJRT_Buffer_Type_F32, CXLA_F32},
    {PJRT_Buffer_Type_F64, CXLA_F64},
    {PJRT_Buffer_Type_C64, CXLA_C64},
    {PJRT_Buffer_Type_C128, CXLA_C128},
    {PJRT_Buffer_Type_F8E5M2, CXLA_F8E5M2},
    {PJRT_Buffer_Type_F8E4M3FN, CXLA_F8E4M3FN},
    {PJRT_Buffer_Type_F8E4M3B11FNUZ, CXLA_F8E4M3B11FNUZ},
    {PJRT_Buffer_Type_F8E5M2FNUZ, CXLA_F8E5M2FNUZ},
    {PJRT_Buffer_Type_F8E4M3FNUZ, CXLA_F8E4M3FNUZ},
    {PJRT_Buffer_Type_F8E4M3, CXLA_F8E4M3},
    {PJRT_Buffer_Type_F8E3M4, CXLA_F8E3M4},
    {PJRT_Buffer_Type_F8E8M0FNU, CXLA_F8E8M0FNU},
    {PJRT_Buffer_Type_F4E2M1FN, CXLA_F4E2M1FN},
    {PJRT_Buffer_Type_TOKEN, CXLA_TOKEN}, /* results only: from host is refused */
};
#define NTYPES (sizeof type_map / sizeof type_map[0])

int pj_type_to_cxla(PJRT_Buffer_Type t, cxla_type *out) {
  for (size_t i = 0; i < NTYPES; i++)
    if (type_map[i].p == t) {
      *out = type_map[i].c;
      return 1;
    }
  return 0;
}

PJRT_Buffer_Type pj_type_from_cxla(cxla_type t) {
  for (size_t i = 0; i < NTYPES; i++)
    if (type_map[i].c == t) return type_map[i].p;
  return PJRT_Buffer_Type_INVALID;
}

/* ---- sub-byte integers ---- */

/* PJRT (XLA, ml_dtypes) keeps an unpacked s2/s4/u2/u4 element in the low
 * bits of its byte, the high bits zero; cxla keeps the value itself (s4 -1
 * is 0xff). Bits of a sub-byte integer type, or 0. */
static int subbyte_bits(cxla_type t) {
  switch (t) {
  case CXLA_S2: case CXLA_U2: return 2;
  case CXLA_S4: case CXLA_U4: return 4;
  default: return 0;
  }
}

/* PJRT's bytes to cxla's: sign-extends (s2/s4) or masks (u2/u4) the low bits. */
static void subbyte_from_pjrt(unsigned char *p, size_t n, cxla_type t) {
  int bits = subbyte_bits(t);
  unsigned mask = (1u << bits) - 1, sign = 1u << (bits - 1);
  int is_signed = t == CXLA_S2 || t == CXLA_S4;
  for (size_t i = 0; i < n; i++) {
    unsigned v = p[i] & mask;
    if (is_signed && (v & sign)) v |= ~mask;
    p[i] = (unsigned char)v;
  }
}

/* cxla's bytes to PJRT's: the low bits only. */
static void subbyte_to_pjrt(unsigned char *p, size_t n, cxla_type t) {
  unsigned mask = (1u << subbyte_bits(t)) - 1;
  for (size_t i = 0; i < n; i++) p[i] = (unsigned char)(p[i] & mask);
}

/* ---- buffer objects ---- */

PJRT_Buffer *pj_buffer_wrap(PJRT_Client *client, cxla_buffer *b) {
  return pj_buffer_wrap_in(client, b, &client->mems[PJ_MEM_DEVICE]);
}

PJRT_Buffer *pj_buffer_wrap_in(PJRT_Client *client, cxla_buffer *b, pj_memory *mem) {
  int rank = cxla_buffer_rank(b);
  PJRT_Buffer *pb = malloc(sizeof *pb + (size_t)rank * sizeof(int64_t));
  if (!pb) return NULL;
  pb->client = client;
  pb->mem = mem;
  atomic_init(&pb->ext_refs, 0);
  atomic_init(&pb->held, NULL);
  atomic_init(&pb->b, b);
  pb->type = pj_type_from_cxla(cxla_buffer_type(b));
  pb->rank = rank;
  if (rank) memcpy(pb->dims, cxla_buffer_dims(b), (size_t)rank * sizeof(int64_t));
  return pb;
}

static PJRT_Error *deleted_error(const char *what) {
  return pj_err(PJRT_Error_Code_FAILED_PRECONDITION, "%s: the buffer has been deleted or donated",
                what);
}

/* Gathers a strided host array into dense row-major order. */
static void gather(char *dst, const char *src, int rank, const int64_t *dims,
                   const int64_t *strides, size_t esize) {
  if (rank == 0) {
    memcpy(dst, src, esize);
    return;
  }
  int64_t n = 1;
  for (int i = 0; i < rank; i++) n *= dims[i];
  if (n == 0) return;
  int64_t idx[64] = {0};
  for (int64_t k = 0; k < n; k++) {
    int64_t off = 0;
    for (int i = 0; i < rank; i++) off += idx[i] * strides[i];
    memcpy(dst + (size_t)k * esize, src + off, esize);
    for (int i = rank - 1; i >= 0; i--) {
      if (++idx[i] < dims[i]) break;
      idx[i] = 0;
    }
  }
}

static int is_row_major(const int64_t *m2m, size_t n) {
  for (size_t i = 0; i < n; i++)
    if (m2m[i] != (int64_t)(n - 1 - i)) return 0;
  return 1;
}

PJRT_Error *pj_Client_BufferFromHostBuffer(PJRT_Client_BufferFromHostBuffer_Args *a) {
  PJ_CHECK_ARGS(PJRT_Client_BufferFromHostBuffer_Args, a);
  a->buffer = NULL;
  a->done_with_host_buffer = NULL;
  cxla_type t;
  if (!pj_type_to_cxla(a->type, &t))
    return pj_err(PJRT_Error_Code_UNIMPLEMENTED, "cxla buffers cannot hold PJRT element type %d",
                  (int)a->type);
  if (a->num_dims > 64) return pj_err(PJRT_Error_Code_INVALID_ARGUMENT, "rank %zu is too large", a->num_dims);
  /* a->memory: the memory a sharding's memory kind names */
  pj_memory *mem = a->memory ? (pj_memory *)a->memory : &a->client->mems[PJ_MEM_DEVICE];
  if (mem->client != a->client)
    return pj_err(PJRT_Error_Code_INVALID_ARGUMENT, "PJRT_Client_BufferFromHostBuffer: a memory of another client");
  if (a->device_layout) {
    const PJRT_Buffer_MemoryLayout *l = a->device_layout;
    if (l->type != PJRT_Buffer_MemoryLayout_Type_Tiled ||
        !is_row_major(l->tiled.minor_to_major, l->tiled.minor_to_major_size) || l->tiled.num_tiles)
      return pj_err(PJRT_Error_Code_UNIMPLEMENTED,
                    "cxla keeps buffers in the row-major layout only");
  }
  size_t esize = (size_t)cxla_type_size(t);
  int rank = (int)a->num_dims;
  size_t n = 1;
  for (int i = 0; i < rank; i++) {
    if (a->dims[i] < 0) return pj_err(PJRT_Error_Code_INVALID_ARGUMENT, "negative dimension");
    n *= (size_t)a->dims[i];
  }
  size_t size = n * esize;
  const void *data = a->data;
  char *dense = NULL;
  if (a->byte_strides && a->num_byte_strides == a->num_dims && n > 0) {
    /* Dense row-major strides need no gather. */
    int dense_strides = 1;
    int64_t expect = (int64_t)esize;
    for (int i = rank - 1; i >= 0; i--) {
      if (a->dims[i] != 1 && a->byte_strides[i] != expect) dense_strides = 0;
      expect *= a->dims[i];
    }
    if (!dense_strides) {
      dense = malloc(size);
      if (!dense) return pj_err(PJRT_Error_Code_RESOURCE_EXHAUSTED, "out of memory (%zu bytes)", size);
      gather(dense, a->data, rank, a->dims, a->byte_strides, esize);
      data = dense;
    }
  }
  if (subbyte_bits(t) && size) {
    if (!dense) {
      dense = malloc(size);
      if (!dense) return pj_err(PJRT_Error_Code_RESOURCE_EXHAUSTED, "out of memory (%zu bytes)", size);
      memcpy(dense, a->data, size);
      data = dense;
    }
    subbyte_from_pjrt((unsigned char *)dense, size, t);
  }
  cxla_host_buffer h = CXLA_STRUCT_INIT(cxla_host_buffer);
  h.type = t;
  h.rank = rank;
  h.dims = a->dims;
  h.data = data;
  h.size = size;
  h.semantics = CXLA_HOST_COPY; /* copied during the call, whatever was asked */
  cxla_buffer *b = NULL;
  PJRT_Client *c = a->client;
  cxla_device *dev = a->device ? a->device->dev : c->device.dev;
  cxla_status s = cxla_buffer_from_host(c->c, dev, &h, &b, NULL);
  free(dense);
  if (s) return pj_status(s);
  PJRT_Buffer *pb = pj_buffer_wrap_in(c, b, mem);
  PJRT_Event *ev = pj_event_ready();
  if (!pb || !ev) {
    free(pb);
    free(ev);
    cxla_buffer_destroy(b);
    return pj_err(PJRT_Error_Code_RESOURCE_EXHAUSTED, "out of memory");
  }
  a->buffer = pb;
  a->done_with_host_buffer = ev;
  return NULL;
}

PJRT_Error *pj_Buffer_Destroy(PJRT_Buffer_Destroy_Args *a) {
  PJ_CHECK_ARGS(PJRT_Buffer_Destroy_Args, a);
  if (a->buffer) {
    cxla_buffer_destroy(atomic_exchange(&a->buffer->b, NULL));
    cxla_buffer_destroy(atomic_exchange(&a->buffer->held, NULL));
    free(a->buffer);
  }
  return NULL;
}

void pj_buffer_release(PJRT_Buffer *pb) {
  cxla_buffer *b = atomic_exchange(&pb->b, NULL);
  if (!b) return;
  if (atomic_load(&pb->ext_refs) == 0) {
    cxla_buffer_destroy(b);
    return;
  }
  /* an external reference reads it: freed with the last one, which may
   * have been dropped meanwhile */
  atomic_store(&pb->held, b);
  if (atomic_load(&pb->ext_refs) == 0) cxla_buffer_destroy(atomic_exchange(&pb->held, NULL));
}

PJRT_Error *pj_Buffer_Delete(PJRT_Buffer_Delete_Args *a) {
  PJ_CHECK_ARGS(PJRT_Buffer_Delete_Args, a);
  pj_buffer_release(a->buffer);
  return NULL;
}

PJRT_Error *pj_Buffer_IsDeleted(PJRT_Buffer_IsDeleted_Args *a) {
  PJ_CHECK_ARGS(PJRT_Buffer_IsDeleted_Args, a);
  a->is_deleted = atomic_load(&a->buffer->b) == NULL;
  return NULL;
}

PJRT_Error *pj_Buffer_ElementType(PJRT_Buffer_ElementType_Args *a) {
  PJ_CHECK_ARGS(PJRT_Buffer_ElementType_Args, a);
  a->type = a->buffer->type;
  return NULL;
}

PJRT_Error *pj_Buffer_Dimensions(PJRT_Buffer_Dimensions_Args *a) {
  PJ_CHECK_ARGS(PJRT_Buffer_Dimensions_Args, a);
  a->dims = a->buffer->dims;
  a->num_dims = (size_t)a->buffer->rank;
  return NULL;
}

PJRT_Error *pj_Buffer_UnpaddedDimensions(PJRT_Buffer_UnpaddedDimensions_Args *a) {
  PJ_CHECK_ARGS(PJRT_Buffer_UnpaddedDimensions_Args, a);
  a->unpadded_dims = a->buffer->dims;
  a->num_dims = (size_t)a->buffer->rank;
  return NULL;
}

PJRT_Error *pj_Buffer_DynamicDimensionIndices(PJRT_Buffer_DynamicDimensionIndices_Args *a) {
  PJ_CHECK_ARGS(PJRT_Buffer_DynamicDimensionIndices_Args, a);
  a->dynamic_dim_indices = NULL;
  a->num_dynamic_dims = 0;
  return NULL;
}

/* The descending (row-major) minor-to-major orders, rank 0..64. */
static const int64_t *row_major_m2m(int rank) {
  static const int64_t m2m[64] = {63, 62, 61, 60, 59, 58, 57, 56, 55, 54, 53, 52, 51, 50, 49, 48,
                                  47, 46, 45, 44, 43, 42, 41, 40, 39, 38, 37, 36, 35, 34, 33, 32,
                                  31, 30, 29, 28, 27, 26, 25, 24, 23, 22, 21, 20, 19, 18, 17, 16,
                                  15, 14, 13, 12, 11, 10, 9,  8,  7,  6,  5,  4,  3,  2,  1,  0};
  return m2m + 64 - rank;
}

PJRT_Error *pj_Buffer_GetMemoryLayout(PJRT_Buffer_GetMemoryLayout_Args *a) {
  PJ_CHECK_ARGS(PJRT_Buffer_GetMemoryLayout_Args, a);
  memset(&a->layout, 0, sizeof a->layout);
  a->layout.struct_size = PJRT_Buffer_MemoryLayout_STRUCT_SIZE;
  a->layout.type = PJRT_Buffer_MemoryLayout_Type_Tiled;
  a->layout.tiled.struct_size = PJRT_Buffer_MemoryLayout_Tiled_STRUCT_SIZE;
  a->layout.tiled.minor_to_major = row_major_m2m(a->buffer->rank);
  a->layout.tiled.minor_to_major_size = (size_t)a->buffer->rank;
  return NULL;
}

PJRT_Error *pj_Buffer_OnDeviceSizeInBytes(PJRT_Buffer_OnDeviceSizeInBytes_Args *a) {
  PJ_CHECK_ARGS(PJRT_Buffer_OnDeviceSizeInBytes_Args, a);
  cxla_buffer *b = atomic_load(&a->buffer->b);
  if (!b) return deleted_error("PJRT_Buffer_OnDeviceSizeInBytes");
  a->on_device_size_in_bytes = cxla_buffer_size(b);
  return NULL;
}

PJRT_Error *pj_Buffer_Device(PJRT_Buffer_Device_Args *a) {
  PJ_CHECK_ARGS(PJRT_Buffer_Device_Args, a);
  a->device = &a->buffer->client->device;
  return NULL;
}

PJRT_Error *pj_Buffer_Memory(PJRT_Buffer_Memory_Args *a) {
  PJ_CHECK_ARGS(PJRT_Buffer_Memory_Args, a);
  a->memory = &a->buffer->mem->base;
  return NULL;
}

/* A copy of src's data in a new buffer in memory mem. */
static PJRT_Error *copy_buffer(PJRT_Buffer *src, pj_memory *mem, PJRT_Buffer **out) {
  *out = NULL;
  cxla_buffer *b = atomic_load(&src->b);
  if (!b) return deleted_error("copying a buffer");
  cxla_host_buffer h = CXLA_STRUCT_INIT(cxla_host_buffer);
  h.type = cxla_buffer_type(b);
  h.rank = cxla_buffer_rank(b);
  h.dims = cxla_buffer_dims(b);
  h.size = cxla_buffer_size(b);
  h.semantics = CXLA_HOST_COPY;
  cxla_event *ready = NULL;
  cxla_status s = cxla_buffer_ready_event(b, &ready);
  if (!s) s = cxla_event_await(ready);
  cxla_event_destroy(ready);
  if (s) return pj_status(s);
  h.data = cxla_buffer_data(b); /* host memory, row-major dense */
  cxla_buffer *nb = NULL;
  s = cxla_buffer_from_host(src->client->c, src->client->device.dev, &h, &nb, NULL);
  if (s) return pj_status(s);
  *out = pj_buffer_wrap_in(src->client, nb, mem);
  if (!*out) {
    cxla_buffer_destroy(nb);
    return pj_err(PJRT_Error_Code_RESOURCE_EXHAUSTED, "out of memory");
  }
  return NULL;
}

PJRT_Error *pj_Buffer_CopyToDevice(PJRT_Buffer_CopyToDevice_Args *a) {
  PJ_CHECK_ARGS(PJRT_Buffer_CopyToDevice_Args, a);
  if (a->dst_device && a->dst_device->client != a->buffer->client)
    return pj_err(PJRT_Error_Code_UNIMPLEMENTED, "copies between cxla clients");
  return copy_buffer(a->buffer, &a->buffer->client->mems[PJ_MEM_DEVICE], &a->dst_buffer);
}

PJRT_Error *pj_Buffer_CopyToMemory(PJRT_Buffer_CopyToMemory_Args *a) {
  PJ_CHECK_ARGS(PJRT_Buffer_CopyToMemory_Args, a);
  if (a->dst_memory && ((pj_memory *)a->dst_memory)->client != a->buffer->client)
    return pj_err(PJRT_Error_Code_UNIMPLEMENTED, "copies between cxla clients");
  pj_memory *mem = a->dst_memory ? (pj_memory *)a->dst_memory : &a->buffer->client->mems[PJ_MEM_DEVICE];
  return copy_buffer(a->buffer, mem, &a->dst_buffer);
}

PJRT_Error *pj_Buffer_ToHostBuffer(PJRT_Buffer_ToHostBuffer_Args *a) {
  PJ_CHECK_ARGS(PJRT_Buffer_ToHostBuffer_Args, a);
  a->event = NULL;
  cxla_buffer *b = atomic_load(&a->src->b);
  if (!b) return deleted_error("PJRT_Buffer_ToHostBuffer");
  size_t size = cxla_buffer_size(b);
  if (a->host_layout) {
    const PJRT_Buffer_MemoryLayout *l = a->host_layout;
    int ok = 0;
    if (l->type == PJRT_Buffer_MemoryLayout_Type_Tiled)
      ok = is_row_major(l->tiled.minor_to_major, l->tiled.minor_to_major_size) && !l->tiled.num_tiles;
    if (!ok)
      return pj_err(PJRT_Error_Code_UNIMPLEMENTED,
                    "cxla copies to host in the row-major layout only");
  }
  if (!a->dst) {
    a->dst_size = size;
    return NULL;
  }
  if (a->dst_size < size)
    return pj_err(PJRT_Error_Code_INVALID_ARGUMENT, "destination has %zu bytes, the buffer %zu",
                  a->dst_size, size);
  cxla_event *done = NULL;
  cxla_status s = cxla_buffer_to_host(b, a->dst, size, &done);
  if (s) return pj_status(s);
  /* The copy is complete when cxla_buffer_to_host returns. */
  if (subbyte_bits(cxla_buffer_type(b))) subbyte_to_pjrt(a->dst, size, cxla_buffer_type(b));
  a->event = pj_event_wrap(done);
  if (!a->event) return pj_err(PJRT_Error_Code_RESOURCE_EXHAUSTED, "out of memory");
  return NULL;
}

PJRT_Error *pj_Buffer_CopyRawToHost(PJRT_Buffer_CopyRawToHost_Args *a) {
  PJ_CHECK_ARGS(PJRT_Buffer_CopyRawToHost_Args, a);
  a->event = NULL;
  cxla_buffer *b = atomic_load(&a->buffer->b);
  if (!b) return deleted_error("PJRT_Buffer_CopyRawToHost");
  size_t size = cxla_buffer_size(b);
  if (a->offset < 0 || a->transfer_size < 0 || (size_t)a->offset > size ||
      (size_t)a->transfer_size > size - (size_t)a->offset)
    return pj_err(PJRT_Error_Code_OUT_OF_RANGE, "raw copy [%lld, +%lld) outside a %zu-byte buffer",
                  (long long)a->offset, (long long)a->transfer_size, size);
  cxla_event *ready = NULL;
  cxla_status s = cxla_buffer_ready_event(b, &ready);
  if (!s) s = cxla_event_await(ready);
  cxla_event_destroy(ready);
  if (s) return pj_status(s);
  memcpy(a->dst, (char *)cxla_buffer_data(b) + a->offset, (size_t)a->transfer_size);
  if (subbyte_bits(cxla_buffer_type(b))) subbyte_to_pjrt(a->dst, (size_t)a->transfer_size, cxla_buffer_type(b));
  a->event = pj_event_ready();
  return NULL;
}

PJRT_Error *pj_Buffer_IsOnCpu(PJRT_Buffer_IsOnCpu_Args *a) {
  PJ_CHECK_ARGS(PJRT_Buffer_IsOnCpu_Args, a);
  a->is_on_cpu = true;
  return NULL;
}

PJRT_Error *pj_Buffer_ReadyEvent(PJRT_Buffer_ReadyEvent_Args *a) {
  PJ_CHECK_ARGS(PJRT_Buffer_ReadyEvent_Args, a);
  a->event = NULL;
  cxla_buffer *b = atomic_load(&a->buffer->b);
  if (!b) return deleted_error("PJRT_Buffer_ReadyEvent");
  cxla_event *ev = NULL;
  cxla_status s = cxla_buffer_ready_event(b, &ev);
  if (s) return pj_status(s);
  a->event = pj_event_wrap(ev);
  if (!a->event) return pj_err(PJRT_Error_Code_RESOURCE_EXHAUSTED, "out of memory");
  return NULL;
}

PJRT_Error *pj_Buffer_UnsafePointer(PJRT_Buffer_UnsafePointer_Args *a) {
  PJ_CHECK_ARGS(PJRT_Buffer_UnsafePointer_Args, a);
  cxla_buffer *b = atomic_load(&a->buffer->b);
  if (!b) return deleted_error("PJRT_Buffer_UnsafePointer");
  a->buffer_pointer = (uintptr_t)cxla_buffer_data(b);
  return NULL;
}

PJRT_Error *pj_Buffer_OpaqueDeviceMemoryDataPointer(PJRT_Buffer_OpaqueDeviceMemoryDataPointer_Args *a) {
  PJ_CHECK_ARGS(PJRT_Buffer_OpaqueDeviceMemoryDataPointer_Args, a);
  cxla_buffer *b = atomic_load(&a->buffer->b);
  if (!b) return deleted_error("PJRT_Buffer_OpaqueDeviceMemoryDataPointer");
  a->device_memory_ptr = cxla_buffer_data(b);
  return NULL;
}

/* External references (DLPack, numpy views): cxla never moves buffer
 * data, and while one is held a deleted (or donated) buffer's memory
 * stays (pj_buffer_release), freed when the last is dropped. */
PJRT_Error *pj_Buffer_IncreaseExternalReferenceCount(PJRT_Buffer_IncreaseExternalReferenceCount_Args *a) {
  PJ_CHECK_ARGS(PJRT_Buffer_IncreaseExternalReferenceCount_Args, a);
  if (!atomic_load(&a->buffer->b)) return deleted_error("PJRT_Buffer_IncreaseExternalReferenceCount");
  atomic_fetch_add(&a->buffer->ext_refs, 1);
  return NULL;
}

PJRT_Error *pj_Buffer_DecreaseExternalReferenceCount(PJRT_Buffer_DecreaseExternalReferenceCount_Args *a) {
  PJ_CHECK_ARGS(PJRT_Buffer_DecreaseExternalReferenceCount_Args, a);
  int n = atomic_load(&a->buffer->ext_refs);
  do {
    if (n <= 0)
      return pj_err(PJRT_Error_Code_FAILED_PRECONDITION,
                    "PJRT_Buffer_DecreaseExternalReferenceCount: the buffer has no external reference");
  } while (!atomic_compare_exchange_weak(&a->buffer->ext_refs, &n, n - 1));
  if (n == 1) cxla_buffer_destroy(atomic_exchange(&a->buffer->held, NULL));
  return NULL;
}

