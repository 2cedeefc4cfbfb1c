/* Buffers: dense arrays on a device, owned or borrowed from the host
 * (include/cxla/runtime.h). */
#include <string.h>

#include "runtime/runtime_internal.h"

/* Checks type and dims; *out_bytes receives the data size. */
static cxla_status check_array(ElemType t, int rank, const int64_t *dims, int64_t *out_nelems,
                               size_t *out_bytes) {
  if (t < 0 || t >= CXLA_TYPE_COUNT || !type_is_array(t))
    return ERR(INVALID_ARGUMENT, "a buffer holds an array type, not %s", cxla_type_name(t));
  if (rank < 0 || rank > 1024) return ERR(INVALID_ARGUMENT, "bad rank %d", rank);
  if (rank && !dims) return ERR(INVALID_ARGUMENT, "dims missing for rank %d", rank);
  int64_t n = 1, bytes;
  for (int d = 0; d < rank; d++) {
    if (dims[d] < 0) return ERR(INVALID_ARGUMENT, "dimension %d is negative (%lld)", d,
                                (long long)dims[d]);
    if (!mul_i64(n, dims[d], &n)) return ERR(RESOURCE_EXHAUSTED, "buffer too large");
  }
  if (!mul_i64(n, type_bytes(t), &bytes) || bytes > CXLA_MAX_ARRAY_BYTES)
    return ERR(RESOURCE_EXHAUSTED, "buffer too large");
  *out_nelems = n;
  *out_bytes = (size_t)bytes;
  return NULL;
}

/* A buffer struct with its dims and minor_to_major after it in one block,
 * and `extra` bytes more (zeroed). */
static cxla_status buffer_new(cxla_client *c, ElemType t, int rank, const int64_t *dims, void *data,
                              size_t size, bool borrowed, size_t extra, cxla_buffer **out) {
  *out = NULL;
  cxla_buffer *b = cxla_calloc(1, sizeof *b + (2 * (size_t)rank + 1) * sizeof(int64_t) + extra);
  if (!b) return cxla_oom();
  int64_t *d = (int64_t *)(b + 1);
  b->type = t;
  b->rank = rank;
  b->dims = d;
  b->minor_to_major = d + rank;
  b->nelems = 1;
  for (int i = 0; i < rank; i++) {
    d[i] = dims[i];
    b->minor_to_major[i] = rank - 1 - i;
    b->nelems *= dims[i];
  }
  b->data = data;
  b->size = size;
  b->borrowed = borrowed;
  rt_client_retain(c);
  b->client = c;
  *out = b;
  return NULL;
}

cxla_status rt_buffer_wrap(cxla_client *c, ElemType t, int rank, const int64_t *dims,
                           void *data, size_t size, bool borrowed, cxla_buffer **out) {
  return buffer_new(c, t, rank, dims, data, size, borrowed, 0, out);
}

cxla_status rt_buffer_new_small(cxla_client *c, ElemType t, int rank, const int64_t *dims,
                                size_t size, cxla_buffer **out) {
  *out = NULL;
  if (size > RT_SMALL_BYTES) return ERR(INTERNAL, "rt_buffer_new_small: %zu bytes", size);
  /* the data at the first aligned address after the dims */
  TRY(buffer_new(c, t, rank, dims, NULL, size, false, RT_SMALL_BYTES + CXLA_BUFFER_ALIGNMENT, out));
  cxla_buffer *b = *out;
  uintptr_t end = (uintptr_t)(b->minor_to_major + rank + 1);
  b->data = (void *)((end + CXLA_BUFFER_ALIGNMENT - 1) & ~(uintptr_t)(CXLA_BUFFER_ALIGNMENT - 1));
  b->inline_data = true;
  return NULL;
}

cxla_status cxla_buffer_from_host(cxla_client *client, cxla_device *device,
                                  const cxla_host_buffer *host, cxla_buffer **out_buffer,
                                  cxla_event **out_done) {
  if (out_done) *out_done = NULL;
  if (!out_buffer) return ERR(INVALID_ARGUMENT, "cxla_buffer_from_host: out_buffer is NULL");
  *out_buffer = NULL;
  if (!client || !host) return ERR(INVALID_ARGUMENT, "cxla_buffer_from_host: client or host is NULL");
  if (device && device->client != client)
    return ERR(INVALID_ARGUMENT, "the device belongs to another client");
  cxla_host_buffer h;
  TRY(rt_read_options(host, sizeof h, RT_HOST_BUFFER_V1, &h, "cxla_host_buffer"));
  int64_t nelems = 0;
  size_t bytes = 0;
  TRY(check_array(h.type, h.rank, h.dims, &nelems, &bytes));
  if (h.size != bytes)
    return ERR(INVALID_ARGUMENT, "host data of %zu bytes for %s[%d dims] of %zu bytes", h.size,
               cxla_type_name(h.type), h.rank, bytes);
  if (bytes && !h.data) return ERR(INVALID_ARGUMENT, "host data is NULL");
  if (h.minor_to_major) {
    for (int i = 0; i < h.rank; i++)
      if (h.minor_to_major[i] != h.rank - 1 - i)
        return ERR(UNIMPLEMENTED, "only row-major device layouts {%d,...,0} are supported",
                   h.rank - 1);
  }
  void *data;
  bool borrowed = h.semantics == CXLA_HOST_BORROW;
  if (h.semantics != CXLA_HOST_COPY && !borrowed)
    return ERR(INVALID_ARGUMENT, "unknown host buffer semantics %d", (int)h.semantics);
  if (borrowed) {
    if ((uintptr_t)h.data % CXLA_BUFFER_ALIGNMENT)
      return ERR(INVALID_ARGUMENT, "borrowed host memory must be %d-byte aligned",
                 CXLA_BUFFER_ALIGNMENT);
    data = (void *)h.data; /* immutable by contract: executions only read arguments */
  } else {
    data = rt_alloc(&client->host, bytes);
    if (!data) return ERR(RESOURCE_EXHAUSTED, "cannot allocate a buffer of %zu bytes", bytes);
    if (bytes) memcpy(data, h.data, bytes);
  }
  cxla_status s = rt_buffer_wrap(client, h.type, h.rank, h.dims, data, bytes, borrowed, out_buffer);
  if (s) {
    if (!borrowed) rt_free(&client->host, data, bytes);
    return s;
  }
  if (borrowed) {
    (*out_buffer)->release = h.release;
    (*out_buffer)->release_arg = h.release_arg;
  }
  if ((s = rt_event_ready(NULL, out_done))) {
    cxla_buffer_destroy(*out_buffer);
    *out_buffer = NULL;
  }
  return s;
}

cxla_status cxla_buffer_from_literal(cxla_client *client, cxla_device *device,
                                     const cxla_literal *literal, cxla_buffer **out_buffer) {
  if (!out_buffer) return ERR(INVALID_ARGUMENT, "cxla_buffer_from_literal: out_buffer is NULL");
  *out_buffer = NULL;
  if (!literal) return ERR(INVALID_ARGUMENT, "cxla_buffer_from_literal: literal is NULL");
  if (literal->type == T_TUPLE || !type_is_array(literal->type))
    return ERR(INVALID_ARGUMENT, "a buffer holds an array, not a %s literal",
               cxla_type_name(literal->type));
  if (literal->unknown)
    return ERR(FAILED_PRECONDITION, "the literal's value is elided ({...})");
  cxla_host_buffer h = CXLA_STRUCT_INIT(cxla_host_buffer);
  h.type = literal->type;
  h.rank = literal->rank;
  h.dims = literal->dims;
  h.data = literal->data;
  h.size = (size_t)literal->nelems * (size_t)type_bytes(literal->type);
  h.semantics = CXLA_HOST_COPY;
  return cxla_buffer_from_host(client, device, &h, out_buffer, NULL);
}

void cxla_buffer_destroy(cxla_buffer *b) {
  if (!b) return;
  if (b->borrowed) {
    if (b->release) b->release(b->release_arg);
  } else if (!b->inline_data) {
    rt_free(&b->client->host, b->data, b->size);
  }
  cxla_client *c = b->client;
  cxla_free(b); /* and its dims, in the same block */
  rt_client_release(c);
}

cxla_type cxla_buffer_type(const cxla_buffer *b) { return b ? b->type : CXLA_TYPE_COUNT; }
int cxla_buffer_rank(const cxla_buffer *b) { return b ? b->rank : 0; }
const int64_t *cxla_buffer_dims(const cxla_buffer *b) { return b ? b->dims : NULL; }
const int64_t *cxla_buffer_minor_to_major(const cxla_buffer *b) {
  return b ? b->minor_to_major : NULL;
}
int64_t cxla_buffer_element_count(const cxla_buffer *b) { return b ? b->nelems : 0; }
size_t cxla_buffer_size(const cxla_buffer *b) { return b ? b->size : 0; }
cxla_device *cxla_buffer_device(const cxla_buffer *b) { return b ? &b->client->device : NULL; }
int cxla_buffer_is_borrowed(const cxla_buffer *b) { return b ? b->borrowed : 0; }
/* The caller may write through the pointer between executions: the
 * buffer's kept finiteness is given up for good (see exposed). */
void *cxla_buffer_data(cxla_buffer *b) {
  if (!b) return NULL;
  __atomic_store_n(&b->exposed, 1, __ATOMIC_RELAXED);
  return b->data;
}

cxla_status cxla_buffer_ready_event(cxla_buffer *b, cxla_event **out_event) {
  if (!out_event) return ERR(INVALID_ARGUMENT, "cxla_buffer_ready_event: out_event is NULL");
  *out_event = NULL;
  if (!b) return ERR(INVALID_ARGUMENT, "cxla_buffer_ready_event: buffer is NULL");
  return rt_event_ready(NULL, out_event);
}

cxla_status cxla_buffer_to_host(cxla_buffer *b, void *dst, size_t size, cxla_event **out_done) {
  if (out_done) *out_done = NULL;
  if (!b) return ERR(INVALID_ARGUMENT, "cxla_buffer_to_host: buffer is NULL");
  if (size != b->size)
    return ERR(INVALID_ARGUMENT, "destination of %zu bytes for a buffer of %zu bytes", size,
               b->size);
  if (size && !dst) return ERR(INVALID_ARGUMENT, "cxla_buffer_to_host: dst is NULL");
  if (size) memcpy(dst, b->data, size);
  return rt_event_ready(NULL, out_done);
}

cxla_status cxla_buffer_to_literal(cxla_buffer *b, cxla_literal **out_literal) {
  if (!out_literal) return ERR(INVALID_ARGUMENT, "cxla_buffer_to_literal: out_literal is NULL");
  *out_literal = NULL;
  if (!b) return ERR(INVALID_ARGUMENT, "cxla_buffer_to_literal: buffer is NULL");
  Literal *l;
  TRY(literal_create(b->type, b->rank, b->dims, &l));
  if (b->size) memcpy(l->data, b->data, b->size);
  *out_literal = l;
  return NULL;
}
