/* The PJRT plugin (src/pjrt) through its PJRT_Api, as jaxlib drives it:
 * the version and the slots jaxlib calls unconditionally or checks for
 * NULL, plugin attributes, client/device/memory, strided host transfers,
 * compile (HLO text; errors with codes), execute with donation, deleted
 * buffers, layouts. Expected values are written out by hand. */
#include <string.h>

#include "harness.h"
#include "pjrt/pjrt_internal.h"

const PJRT_Api *GetPjrtApi(void);

static const PJRT_Api *api;

static PJRT_Error_Code code_of(PJRT_Error *e) {
  PJRT_Error_GetCode_Args a = {.struct_size = PJRT_Error_GetCode_Args_STRUCT_SIZE, .error = e};
  PJRT_Error *e2 = api->PJRT_Error_GetCode(&a);
  return e2 ? PJRT_Error_Code_INTERNAL : a.code;
}

static const char *message_of(PJRT_Error *e) {
  PJRT_Error_Message_Args a = {.struct_size = PJRT_Error_Message_Args_STRUCT_SIZE, .error = e};
  api->PJRT_Error_Message(&a);
  return a.message;
}

static void destroy_error(PJRT_Error *e) {
  PJRT_Error_Destroy_Args a = {.struct_size = PJRT_Error_Destroy_Args_STRUCT_SIZE, .error = e};
  api->PJRT_Error_Destroy(&a);
}

/* Checks e is NULL; prints and frees it otherwise. */
#define CHECK_PJ(expr)                                                   \
  do {                                                                   \
    PJRT_Error *e_ = (expr);                                             \
    if (e_) {                                                            \
      fprintf(stderr, "%s:%d: %s\n", __FILE__, __LINE__, message_of(e_)); \
      destroy_error(e_);                                                 \
      CHECK(!"PJRT error");                                              \
    }                                                                    \
  } while (0)

TEST(test_api_table) {
  CHECK(api->pjrt_api_version.major_version == 0);
  CHECK(api->pjrt_api_version.minor_version == 112);
  CHECK(api->struct_size == PJRT_Api_STRUCT_SIZE);
  /* Called by jaxlib without a NULL check. */
  CHECK(api->PJRT_Error_ForEachPayload && api->PJRT_TopologyDescription_Fingerprint &&
        api->PJRT_Buffer_CopyToDevice && api->PJRT_Buffer_CopyToMemory &&
        api->PJRT_Executable_GetCompiledMemoryStats && api->PJRT_Executable_GetCompileOptions &&
        api->PJRT_Plugin_Attributes && api->PJRT_Client_TopologyDescription &&
        api->PJRT_LoadedExecutable_GetDeviceAssignment && api->PJRT_Executable_OptimizedProgram);
  /* jaxlib aborts on their errors; NULL makes it fall back. */
  CHECK(!api->PJRT_Device_GetAttributes && !api->PJRT_LoadedExecutable_AddressableDeviceLogicalIds &&
        !api->PJRT_Event_Create && !api->PJRT_Event_Set);
  PJRT_Plugin_Attributes_Args pa = {.struct_size = PJRT_Plugin_Attributes_Args_STRUCT_SIZE};
  CHECK_PJ(api->PJRT_Plugin_Attributes(&pa));
  int found = 0;
  for (size_t i = 0; i < pa.num_attributes; i++)
    if (!strcmp(pa.attributes[i].name, "stablehlo_current_version")) {
      found = 1;
      CHECK(pa.attributes[i].type == PJRT_NamedValue_kInt64List);
      CHECK(pa.attributes[i].value_size == 3);
      CHECK(pa.attributes[i].int64_array_value[0] == 1);
    }
  CHECK(found);
}

static PJRT_Client *make_client(void) {
  PJRT_Client_Create_Args a = {.struct_size = PJRT_Client_Create_Args_STRUCT_SIZE};
  CHECK_PJ(api->PJRT_Client_Create(&a));
  return a.client;
}

static void destroy_client(PJRT_Client *c) {
  PJRT_Client_Destroy_Args a = {.struct_size = PJRT_Client_Destroy_Args_STRUCT_SIZE, .client = c};
  CHECK_PJ(api->PJRT_Client_Destroy(&a));
}

static PJRT_Buffer *from_host(PJRT_Client *c, PJRT_Buffer_Type t, const void *data, int rank,
                              const int64_t *dims, const int64_t *strides) {
  PJRT_Client_BufferFromHostBuffer_Args a = {
      .struct_size = PJRT_Client_BufferFromHostBuffer_Args_STRUCT_SIZE,
      .client = c, .data = data, .type = t, .dims = dims, .num_dims = (size_t)rank,
      .byte_strides = strides, .num_byte_strides = strides ? (size_t)rank : 0,
      .host_buffer_semantics = PJRT_HostBufferSemantics_kImmutableOnlyDuringCall};
  CHECK_PJ(api->PJRT_Client_BufferFromHostBuffer(&a));
  PJRT_Event_Destroy_Args d = {.struct_size = PJRT_Event_Destroy_Args_STRUCT_SIZE,
                               .event = a.done_with_host_buffer};
  CHECK_PJ(api->PJRT_Event_Destroy(&d));
  return a.buffer;
}

static void to_host(PJRT_Buffer *b, void *dst, size_t size) {
  PJRT_Buffer_ToHostBuffer_Args a = {.struct_size = PJRT_Buffer_ToHostBuffer_Args_STRUCT_SIZE,
                                     .src = b, .dst = dst, .dst_size = size};
  CHECK_PJ(api->PJRT_Buffer_ToHostBuffer(&a));
  PJRT_Event_Await_Args w = {.struct_size = PJRT_Event_Await_Args_STRUCT_SIZE, .event = a.event};
  CHECK_PJ(api->PJRT_Event_Await(&w));
  PJRT_Event_Destroy_Args d = {.struct_size = PJRT_Event_Destroy_Args_STRUCT_SIZE, .event = a.event};
  CHECK_PJ(api->PJRT_Event_Destroy(&d));
}

static void destroy_buffer(PJRT_Buffer *b) {
  PJRT_Buffer_Destroy_Args a = {.struct_size = PJRT_Buffer_Destroy_Args_STRUCT_SIZE, .buffer = b};
  CHECK_PJ(api->PJRT_Buffer_Destroy(&a));
}

static int is_deleted(PJRT_Buffer *b) {
  PJRT_Buffer_IsDeleted_Args a = {.struct_size = PJRT_Buffer_IsDeleted_Args_STRUCT_SIZE, .buffer = b};
  CHECK_PJ(api->PJRT_Buffer_IsDeleted(&a));
  return a.is_deleted;
}

TEST(test_client_device_memory) {
  PJRT_Client *c = make_client();
  if (!c) return;
  PJRT_Client_PlatformName_Args pn = {.struct_size = PJRT_Client_PlatformName_Args_STRUCT_SIZE, .client = c};
  CHECK_PJ(api->PJRT_Client_PlatformName(&pn));
  CHECK(pn.platform_name_size == 4 && !memcmp(pn.platform_name, "cxla", 4));
  PJRT_Client_Devices_Args dv = {.struct_size = PJRT_Client_Devices_Args_STRUCT_SIZE, .client = c};
  CHECK_PJ(api->PJRT_Client_Devices(&dv));
  CHECK(dv.num_devices == 1);
  PJRT_Device_DefaultMemory_Args dm = {.struct_size = PJRT_Device_DefaultMemory_Args_STRUCT_SIZE,
                                       .device = dv.devices[0]};
  CHECK_PJ(api->PJRT_Device_DefaultMemory(&dm));
  PJRT_Memory_Kind_Args mk = {.struct_size = PJRT_Memory_Kind_Args_STRUCT_SIZE, .memory = dm.memory};
  CHECK_PJ(api->PJRT_Memory_Kind(&mk));
  CHECK(mk.kind_size == 6 && !memcmp(mk.kind, "device", 6));
  destroy_client(c);
}

TEST(test_strided_transfer) {
  PJRT_Client *c = make_client();
  if (!c) return;
  /* Host memory holds a 3x2 row-major array; strides read its transpose,
   * the logical 2x3 array {{1,3,5},{2,4,6}}. */
  const float host[6] = {1, 2, 3, 4, 5, 6};
  const int64_t dims[2] = {2, 3}, strides[2] = {4, 8};
  PJRT_Buffer *b = from_host(c, PJRT_Buffer_Type_F32, host, 2, dims, strides);
  float out[6] = {0};
  to_host(b, out, sizeof out);
  const float want[6] = {1, 3, 5, 2, 4, 6};
  CHECK(!memcmp(out, want, sizeof want));
  /* bf16 raw bits and bool pass through unchanged. */
  const uint16_t bf[3] = {0x3f80, 0xc000, 0x7fc0};
  const int64_t d3[1] = {3};
  PJRT_Buffer *b2 = from_host(c, PJRT_Buffer_Type_BF16, bf, 1, d3, NULL);
  uint16_t bf_out[3] = {0};
  to_host(b2, bf_out, sizeof bf_out);
  CHECK(!memcmp(bf, bf_out, sizeof bf));
  destroy_buffer(b);
  destroy_buffer(b2);
  destroy_client(c);
}

static PJRT_LoadedExecutable *compile(PJRT_Client *c, const char *fmt, const char *code,
                                      PJRT_Error **err) {
  PJRT_Program p = {.struct_size = PJRT_Program_STRUCT_SIZE, .code = (char *)code,
                    .code_size = strlen(code), .format = fmt, .format_size = strlen(fmt)};
  PJRT_Client_Compile_Args a = {.struct_size = PJRT_Client_Compile_Args_STRUCT_SIZE, .client = c,
                                .program = &p};
  *err = api->PJRT_Client_Compile(&a);
  return a.executable;
}

/* The executable of le (the caller destroys it), and the destroyers. */
static PJRT_Executable *get_executable(PJRT_LoadedExecutable *le) {
  PJRT_LoadedExecutable_GetExecutable_Args ge = {
      .struct_size = PJRT_LoadedExecutable_GetExecutable_Args_STRUCT_SIZE, .loaded_executable = le};
  CHECK_PJ(api->PJRT_LoadedExecutable_GetExecutable(&ge));
  return ge.executable;
}

static void destroy_executable(PJRT_Executable *x) {
  PJRT_Executable_Destroy_Args xd = {.struct_size = PJRT_Executable_Destroy_Args_STRUCT_SIZE, .executable = x};
  CHECK_PJ(api->PJRT_Executable_Destroy(&xd));
}

static void destroy_loaded(PJRT_LoadedExecutable *le) {
  PJRT_LoadedExecutable_Destroy_Args ld = {.struct_size = PJRT_LoadedExecutable_Destroy_Args_STRUCT_SIZE,
                                           .executable = le};
  CHECK_PJ(api->PJRT_LoadedExecutable_Destroy(&ld));
}

static const char donate_hlo[] =
    "HloModule donate, input_output_alias={ {}: (0, {}, may-alias) }\n"
    "ENTRY main {\n"
    "  x = f32[3] parameter(0)\n"
    "  y = f32[3] parameter(1)\n"
    "  ROOT s = f32[3] add(x, y)\n"
    "}\n";

TEST(test_compile_execute_donate) {
  PJRT_Client *c = make_client();
  if (!c) return;
  PJRT_Error *e;
  PJRT_LoadedExecutable *le = compile(c, "hlo", donate_hlo, &e);
  CHECK_PJ(e);
  if (!le) return;
  const float xs[3] = {1, 2, 3}, ys[3] = {10, 20, 30};
  const int64_t d[1] = {3};
  PJRT_Buffer *x = from_host(c, PJRT_Buffer_Type_F32, xs, 1, d, NULL);
  PJRT_Buffer *y = from_host(c, PJRT_Buffer_Type_F32, ys, 1, d, NULL);
  PJRT_Buffer *args[2] = {x, y};
  PJRT_Buffer *const *arg_lists[1] = {args};
  PJRT_Buffer *outs[1] = {NULL};
  PJRT_Buffer **out_lists[1] = {outs};
  PJRT_Event *done[1] = {NULL};
  PJRT_ExecuteOptions opts = {.struct_size = PJRT_ExecuteOptions_STRUCT_SIZE};
  PJRT_LoadedExecutable_Execute_Args ex = {
      .struct_size = PJRT_LoadedExecutable_Execute_Args_STRUCT_SIZE, .executable = le,
      .options = &opts, .argument_lists = arg_lists, .num_devices = 1, .num_args = 2,
      .output_lists = out_lists, .device_complete_events = done};
  CHECK_PJ(api->PJRT_LoadedExecutable_Execute(&ex));
  float got[3] = {0};
  if (outs[0]) to_host(outs[0], got, sizeof got);
  CHECK(got[0] == 11 && got[1] == 22 && got[2] == 33);
  CHECK(is_deleted(x));  /* donated */
  CHECK(!is_deleted(y));
  PJRT_Event_Destroy_Args ed = {.struct_size = PJRT_Event_Destroy_Args_STRUCT_SIZE, .event = done[0]};
  CHECK_PJ(api->PJRT_Event_Destroy(&ed));
  /* Running again on the donated buffer is an error, not a crash. */
  e = api->PJRT_LoadedExecutable_Execute(&ex);
  CHECK(e && code_of(e) == PJRT_Error_Code_INVALID_ARGUMENT);
  if (e) destroy_error(e);
  /* Donating a buffer that is also another argument is an error; the
   * buffer survives. */
  args[0] = args[1] = y;
  e = api->PJRT_LoadedExecutable_Execute(&ex);
  CHECK(e && code_of(e) == PJRT_Error_Code_INVALID_ARGUMENT);
  if (e) destroy_error(e);
  CHECK(!is_deleted(y));
  /* Output description. */
  PJRT_Executable *exe = get_executable(le);
  PJRT_Executable_OutputDimensions_Args od = {
      .struct_size = PJRT_Executable_OutputDimensions_Args_STRUCT_SIZE, .executable = exe};
  CHECK_PJ(api->PJRT_Executable_OutputDimensions(&od));
  CHECK(od.num_outputs == 1 && od.dim_sizes[0] == 1 && od.dims[0] == 3);
  destroy_executable(exe);
  destroy_buffer(x);
  destroy_buffer(y);
  destroy_buffer(outs[0]);
  destroy_loaded(le);
  destroy_client(c);
}

/* Compiles `hlo` (one parameter, one array result), runs it on `arg` and
 * returns the result buffer (NULL after a reported failure). */
static PJRT_Buffer *run1(PJRT_Client *c, const char *hlo, PJRT_Buffer *arg) {
  PJRT_Error *e;
  PJRT_LoadedExecutable *le = compile(c, "hlo", hlo, &e);
  CHECK_PJ(e);
  if (!le) return NULL;
  PJRT_Buffer *args[1] = {arg};
  PJRT_Buffer *const *arg_lists[1] = {args};
  PJRT_Buffer *outs[1] = {NULL};
  PJRT_Buffer **out_lists[1] = {outs};
  PJRT_Event *done[1] = {NULL};
  PJRT_ExecuteOptions opts = {.struct_size = PJRT_ExecuteOptions_STRUCT_SIZE};
  PJRT_LoadedExecutable_Execute_Args ex = {
      .struct_size = PJRT_LoadedExecutable_Execute_Args_STRUCT_SIZE, .executable = le,
      .options = &opts, .argument_lists = arg_lists, .num_devices = 1, .num_args = 1,
      .output_lists = out_lists, .device_complete_events = done};
  CHECK_PJ(api->PJRT_LoadedExecutable_Execute(&ex));
  if (done[0]) {
    PJRT_Event_Destroy_Args ed = {.struct_size = PJRT_Event_Destroy_Args_STRUCT_SIZE, .event = done[0]};
    CHECK_PJ(api->PJRT_Event_Destroy(&ed));
  }
  destroy_loaded(le);
  return outs[0];
}

/* PJRT (XLA, ml_dtypes) keeps an s4/u4 element in the low nibble of its
 * byte: s4 -8 arrives as 0x08, -1 as 0x0f. The plugin reads the nibble
 * (ignoring the high bits) and gives results back as nibbles. */
TEST(test_sub_byte_transfer) {
  PJRT_Client *c = make_client();
  if (!c) return;
  const uint8_t s4[4] = {0x08, 0x0f, 0x07, 0xf9}; /* -8, -1, 7, -7 (high bits ignored) */
  const int64_t d[1] = {4};
  PJRT_Buffer *x = from_host(c, PJRT_Buffer_Type_S4, s4, 1, d, NULL);
  uint8_t back[4] = {0};
  if (x) to_host(x, back, sizeof back);
  const uint8_t nibbles[4] = {0x08, 0x0f, 0x07, 0x09};
  CHECK(!memcmp(back, nibbles, sizeof back));
  PJRT_Buffer *w = x ? run1(c, "HloModule w\nENTRY main {\n  x = s4[4] parameter(0)\n"
                               "  ROOT c = s8[4] convert(x)\n}\n", x) : NULL;
  int8_t wide[4] = {0};
  if (w) to_host(w, wide, sizeof wide);
  CHECK(wide[0] == -8 && wide[1] == -1 && wide[2] == 7 && wide[3] == -7);
  /* negate: 8 wraps to -8 (0x8), 1, -7 (0x9), 7 */
  PJRT_Buffer *n = x ? run1(c, "HloModule n\nENTRY main {\n  x = s4[4] parameter(0)\n"
                               "  ROOT n = s4[4] negate(x)\n}\n", x) : NULL;
  uint8_t neg[4] = {0};
  if (n) to_host(n, neg, sizeof neg);
  const uint8_t want_neg[4] = {0x08, 0x01, 0x09, 0x07};
  CHECK(!memcmp(neg, want_neg, sizeof neg));
  /* u4: the high bits are dropped, not carried */
  const uint8_t u4[2] = {0xf3, 0x0c};
  const int64_t d2[1] = {2};
  PJRT_Buffer *u = from_host(c, PJRT_Buffer_Type_U4, u4, 1, d2, NULL);
  PJRT_Buffer *uw = u ? run1(c, "HloModule u\nENTRY main {\n  x = u4[2] parameter(0)\n"
                                "  ROOT c = s32[2] convert(x)\n}\n", u) : NULL;
  int32_t uv[2] = {0};
  if (uw) to_host(uw, uv, sizeof uv);
  CHECK(uv[0] == 3 && uv[1] == 12);
  PJRT_Buffer *bufs[] = {x, w, n, u, uw};
  for (size_t i = 0; i < sizeof bufs / sizeof bufs[0]; i++)
    if (bufs[i]) destroy_buffer(bufs[i]);
  destroy_client(c);
}

TEST(test_compile_errors) {
  PJRT_Client *c = make_client();
  if (!c) return;
  PJRT_Error *e;
  CHECK(!compile(c, "hlo", "HloModule bad\nENTRY main {\n  ROOT x = f32[] frobnicate()\n}\n", &e));
  CHECK(e && code_of(e) == PJRT_Error_Code_INVALID_ARGUMENT);
  CHECK(e && strstr(message_of(e), "frobnicate"));
  if (e) destroy_error(e);
  CHECK(!compile(c, "hlo", "\x0a\x03" "abc", &e)); /* a serialized proto */
  CHECK(e && code_of(e) == PJRT_Error_Code_UNIMPLEMENTED);
  if (e) destroy_error(e);
  CHECK(!compile(c, "tpu_asm", "x", &e));
  CHECK(e && code_of(e) == PJRT_Error_Code_INVALID_ARGUMENT);
  if (e) destroy_error(e);
  destroy_client(c);
}

TEST(test_layout_text) {
  PJRT_Client *c = make_client();
  if (!c) return;
  const int64_t dims[3] = {2, 3, 4};
  PJRT_Layouts_PJRT_Client_GetDefaultLayout_Args gl = {
      .struct_size = PJRT_Layouts_PJRT_Client_GetDefaultLayout_Args_STRUCT_SIZE, .client = c,
      .type = PJRT_Buffer_Type_F32, .dims = dims, .num_dims = 3};
  CHECK_PJ(pj_layouts_extension.PJRT_Layouts_PJRT_Client_GetDefaultLayout(&gl));
  PJRT_Layouts_MemoryLayout_Serialize_Args sa = {
      .struct_size = PJRT_Layouts_MemoryLayout_Serialize_Args_STRUCT_SIZE, .layout = gl.layout};
  CHECK_PJ(pj_layouts_extension.PJRT_Layouts_MemoryLayout_Serialize(&sa));
  CHECK(sa.serialized_bytes_size == 7 && !memcmp(sa.serialized_bytes, "{2,1,0}", 7));
  sa.serialized_layout_deleter(sa.serialized_layout);
  destroy_client(c);
}

/* Runs le on (x, y) into outs[0 .. nouts) (NULL first; filled on success). */
static PJRT_Error *execute2(PJRT_LoadedExecutable *le, PJRT_Buffer *x, PJRT_Buffer *y, PJRT_Buffer **outs) {
  PJRT_Buffer *args[2] = {x, y};
  PJRT_Buffer *const *arg_lists[1] = {args};
  PJRT_Buffer **out_lists[1] = {outs};
  PJRT_ExecuteOptions opts = {.struct_size = PJRT_ExecuteOptions_STRUCT_SIZE};
  PJRT_LoadedExecutable_Execute_Args ex = {
      .struct_size = PJRT_LoadedExecutable_Execute_Args_STRUCT_SIZE, .executable = le,
      .options = &opts, .argument_lists = arg_lists, .num_devices = 1, .num_args = 2,
      .output_lists = out_lists};
  return api->PJRT_LoadedExecutable_Execute(&ex);
}

/* ---- memories ---- */

static const char *memory_kind(PJRT_Memory *m, int *id) {
  PJRT_Memory_Kind_Args k = {.struct_size = PJRT_Memory_Kind_Args_STRUCT_SIZE, .memory = m};
  CHECK_PJ(api->PJRT_Memory_Kind(&k));
  PJRT_Memory_Id_Args i = {.struct_size = PJRT_Memory_Id_Args_STRUCT_SIZE, .memory = m};
  CHECK_PJ(api->PJRT_Memory_Id(&i));
  *id = i.id;
  static char buf[32];
  snprintf(buf, sizeof buf, "%.*s", (int)k.kind_size, k.kind);
  return buf;
}

static PJRT_Memory *buffer_memory(PJRT_Buffer *b) {
  PJRT_Buffer_Memory_Args a = {.struct_size = PJRT_Buffer_Memory_Args_STRUCT_SIZE, .buffer = b};
  CHECK_PJ(api->PJRT_Buffer_Memory(&a));
  return a.memory;
}

/* A pinned_host argument to an unpinned_host result and a device one, as
 * JAX lowers shardings with memory kinds (entry_computation_layout S(5),
 * S(6)) */
static const char host_hlo[] =
    "HloModule host, entry_computation_layout={(f32[3]{0:S(5)}, f32[3]{0})->(f32[3]{0:S(6)}, f32[3]{0})}\n"
    "ENTRY main {\n"
    "  x = f32[3] parameter(0)\n"
    "  y = f32[3] parameter(1)\n"
    "  s = f32[3] add(x, y)\n"
    "  ROOT t = (f32[3], f32[3]) tuple(s, y)\n"
    "}\n";

/* The device's memories: device (its default), pinned_host and
 * unpinned_host, as XLA:CPU's; a buffer made in one is in it, and copied
 * to another is there; an executable's parameter and output memory kinds
 * are its entry layout's, and its outputs are in those memories. */
TEST(test_memories) {
  PJRT_Client *c = make_client();
  if (!c) return;
  PJRT_Client_Devices_Args dv = {.struct_size = PJRT_Client_Devices_Args_STRUCT_SIZE, .client = c};
  CHECK_PJ(api->PJRT_Client_Devices(&dv));
  PJRT_Device_AddressableMemories_Args am = {.struct_size = PJRT_Device_AddressableMemories_Args_STRUCT_SIZE,
                                             .device = dv.devices[0]};
  CHECK_PJ(api->PJRT_Device_AddressableMemories(&am));
  CHECK(am.num_memories == 3);
  if (am.num_memories != 3) return;
  static const char *const want[3] = {"device", "pinned_host", "unpinned_host"};
  for (int k = 0; k < 3; k++) {
    int id = -1;
    const char *kind = memory_kind(am.memories[k], &id);
    CHECK(!strcmp(kind, want[k]) && id == k);
  }
  PJRT_Client_AddressableMemories_Args cm = {.struct_size = PJRT_Client_AddressableMemories_Args_STRUCT_SIZE,
                                             .client = c};
  CHECK_PJ(api->PJRT_Client_AddressableMemories(&cm));
  CHECK(cm.num_addressable_memories == 3);
  /* a buffer made in pinned_host is there; its copy to unpinned_host there */
  const float xs[3] = {1, 2, 3}, ys[3] = {10, 20, 30};
  const int64_t d[1] = {3};
  PJRT_Client_BufferFromHostBuffer_Args fh = {
      .struct_size = PJRT_Client_BufferFromHostBuffer_Args_STRUCT_SIZE, .client = c, .data = xs,
      .type = PJRT_Buffer_Type_F32, .dims = d, .num_dims = 1, .memory = am.memories[1],
      .host_buffer_semantics = PJRT_HostBufferSemantics_kImmutableOnlyDuringCall};
  CHECK_PJ(api->PJRT_Client_BufferFromHostBuffer(&fh));
  PJRT_Event_Destroy_Args ed = {.struct_size = PJRT_Event_Destroy_Args_STRUCT_SIZE, .event = fh.done_with_host_buffer};
  CHECK_PJ(api->PJRT_Event_Destroy(&ed));
  PJRT_Buffer *x = fh.buffer;
  CHECK(x && buffer_memory(x) == am.memories[1]);
  PJRT_Buffer_CopyToMemory_Args cp = {.struct_size = PJRT_Buffer_CopyToMemory_Args_STRUCT_SIZE, .buffer = x,
                                      .dst_memory = am.memories[2]};
  CHECK_PJ(api->PJRT_Buffer_CopyToMemory(&cp));
  CHECK(cp.dst_buffer && buffer_memory(cp.dst_buffer) == am.memories[2]);
  float got[3] = {0};
  if (cp.dst_buffer) to_host(cp.dst_buffer, got, sizeof got);
  CHECK(got[0] == 1 && got[1] == 2 && got[2] == 3);
  PJRT_Buffer *y = from_host(c, PJRT_Buffer_Type_F32, ys, 1, d, NULL);
  CHECK(buffer_memory(y) == am.memories[0]);
  /* the executable's memory kinds and its outputs' memories */
  PJRT_Error *e;
  PJRT_LoadedExecutable *le = compile(c, "hlo", host_hlo, &e);
  CHECK_PJ(e);
  if (le) {
    PJRT_Executable *exe = get_executable(le);
    PJRT_Executable_OutputMemoryKinds_Args ok = {
        .struct_size = PJRT_Executable_OutputMemoryKinds_Args_STRUCT_SIZE, .executable = exe};
    CHECK_PJ(api->PJRT_Executable_OutputMemoryKinds(&ok));
    CHECK(ok.num_outputs == 2 && ok.memory_kind_sizes[0] == 13 && !memcmp(ok.memory_kinds[0], "unpinned_host", 13) &&
          ok.memory_kind_sizes[1] == 6 && !memcmp(ok.memory_kinds[1], "device", 6));
    PJRT_Executable_ParameterMemoryKinds_Args pk = {
        .struct_size = PJRT_Executable_ParameterMemoryKinds_Args_STRUCT_SIZE, .executable = exe};
    CHECK_PJ(api->PJRT_Executable_ParameterMemoryKinds(&pk));
    CHECK(pk.num_parameters == 2 && pk.memory_kind_sizes[0] == 11 && !memcmp(pk.memory_kinds[0], "pinned_host", 11) &&
          pk.memory_kind_sizes[1] == 6 && !memcmp(pk.memory_kinds[1], "device", 6));
    destroy_executable(exe);
    PJRT_Buffer *outs[2] = {NULL, NULL};
    CHECK_PJ(execute2(le, x, y, outs));
    CHECK(outs[0] && buffer_memory(outs[0]) == am.memories[2]);
    CHECK(outs[1] && buffer_memory(outs[1]) == am.memories[0]);
    if (outs[0]) to_host(outs[0], got, sizeof got);
    CHECK(got[0] == 11 && got[1] == 22 && got[2] == 33);
    for (int k = 0; k < 2; k++)
      if (outs[k]) destroy_buffer(outs[k]);
    destroy_loaded(le);
  }
  destroy_buffer(x);
  destroy_buffer(y);
  if (cp.dst_buffer) destroy_buffer(cp.dst_buffer);
  destroy_client(c);
}

/* An external reference (NumPy's view of a buffer, DLPack) keeps a
 * deleted buffer's memory until it is dropped (ASan sees a read of freed
 * memory otherwise); a buffer with one is not consumed by donation, as on
 * XLA:CPU; dropping more than were taken is an error. */
TEST(test_external_references) {
  PJRT_Client *c = make_client();
  if (!c) return;
  const float xs[3] = {1, 2, 3}, ys[3] = {10, 20, 30};
  const int64_t d[1] = {3};
  PJRT_Buffer *x = from_host(c, PJRT_Buffer_Type_F32, xs, 1, d, NULL);
  PJRT_Buffer_UnsafePointer_Args up = {.struct_size = PJRT_Buffer_UnsafePointer_Args_STRUCT_SIZE, .buffer = x};
  CHECK_PJ(api->PJRT_Buffer_UnsafePointer(&up));
  const float *view = (const float *)up.buffer_pointer;
  PJRT_Buffer_IncreaseExternalReferenceCount_Args inc = {
      .struct_size = PJRT_Buffer_IncreaseExternalReferenceCount_Args_STRUCT_SIZE, .buffer = x};
  CHECK_PJ(api->PJRT_Buffer_IncreaseExternalReferenceCount(&inc));
  PJRT_Buffer_Delete_Args del = {.struct_size = PJRT_Buffer_Delete_Args_STRUCT_SIZE, .buffer = x};
  CHECK_PJ(api->PJRT_Buffer_Delete(&del));
  CHECK(is_deleted(x));
  CHECK(view && view[0] == 1 && view[1] == 2 && view[2] == 3);
  PJRT_Buffer_DecreaseExternalReferenceCount_Args dec = {
      .struct_size = PJRT_Buffer_DecreaseExternalReferenceCount_Args_STRUCT_SIZE, .buffer = x};
  CHECK_PJ(api->PJRT_Buffer_DecreaseExternalReferenceCount(&dec));
  PJRT_Error *e = api->PJRT_Buffer_DecreaseExternalReferenceCount(&dec);
  CHECK(e && code_of(e) == PJRT_Error_Code_FAILED_PRECONDITION);
  if (e) destroy_error(e);
  destroy_buffer(x);
  /* donation of a buffer with an external reference: it runs, x stays */
  PJRT_LoadedExecutable *le = compile(c, "hlo", donate_hlo, &e);
  CHECK_PJ(e);
  x = from_host(c, PJRT_Buffer_Type_F32, xs, 1, d, NULL);
  PJRT_Buffer *y = from_host(c, PJRT_Buffer_Type_F32, ys, 1, d, NULL);
  inc.buffer = x;
  CHECK_PJ(api->PJRT_Buffer_IncreaseExternalReferenceCount(&inc));
  if (le) {
    PJRT_Buffer *outs[1] = {NULL};
    CHECK_PJ(execute2(le, x, y, outs));
    CHECK(!is_deleted(x) && outs[0]);
    float got[3] = {0};
    if (outs[0]) to_host(outs[0], got, sizeof got);
    CHECK(got[0] == 11 && got[1] == 22 && got[2] == 33);
    if (outs[0]) destroy_buffer(outs[0]);
    outs[0] = NULL;
    /* once it is dropped, donation consumes x */
    dec.buffer = x;
    CHECK_PJ(api->PJRT_Buffer_DecreaseExternalReferenceCount(&dec));
    CHECK_PJ(execute2(le, x, y, outs));
    CHECK(is_deleted(x) && outs[0]);
    if (outs[0]) destroy_buffer(outs[0]);
    destroy_loaded(le);
  }
  destroy_buffer(x);
  destroy_buffer(y);
  destroy_client(c);
}

/* A serialized executable (JAX's persistent cache, AOT serialize) loads
 * back as the same program: same fingerprint and results; bytes that are
 * not one, or are cut short, are INVALID_ARGUMENT. */
TEST(test_serialize_executable) {
  PJRT_Client *c = make_client();
  if (!c) return;
  PJRT_Error *e;
  PJRT_LoadedExecutable *le = compile(c, "hlo", host_hlo, &e);
  CHECK_PJ(e);
  if (!le) {
    destroy_client(c);
    return;
  }
  PJRT_Executable *exe = get_executable(le);
  PJRT_Executable_Serialize_Args sa = {.struct_size = PJRT_Executable_Serialize_Args_STRUCT_SIZE,
                                       .executable = exe};
  CHECK_PJ(api->PJRT_Executable_Serialize(&sa));
  PJRT_Executable_DeserializeAndLoad_Args da = {
      .struct_size = PJRT_Executable_DeserializeAndLoad_Args_STRUCT_SIZE, .client = c,
      .serialized_executable = sa.serialized_bytes, .serialized_executable_size = sa.serialized_bytes_size};
  CHECK_PJ(api->PJRT_Executable_DeserializeAndLoad(&da));
  PJRT_LoadedExecutable *le2 = da.loaded_executable;
  if (le2) {
    PJRT_Executable *exe2 = get_executable(le2);
    PJRT_Executable_Fingerprint_Args f1 = {.struct_size = PJRT_Executable_Fingerprint_Args_STRUCT_SIZE,
                                           .executable = exe};
    PJRT_Executable_Fingerprint_Args f2 = {.struct_size = PJRT_Executable_Fingerprint_Args_STRUCT_SIZE,
                                           .executable = exe2};
    CHECK_PJ(api->PJRT_Executable_Fingerprint(&f1));
    CHECK_PJ(api->PJRT_Executable_Fingerprint(&f2));
    CHECK(f1.executable_fingerprint_size == f2.executable_fingerprint_size &&
          !memcmp(f1.executable_fingerprint, f2.executable_fingerprint, f1.executable_fingerprint_size));
    /* its output memory kinds came back too */
    PJRT_Executable_OutputMemoryKinds_Args ok = {
        .struct_size = PJRT_Executable_OutputMemoryKinds_Args_STRUCT_SIZE, .executable = exe2};
    CHECK_PJ(api->PJRT_Executable_OutputMemoryKinds(&ok));
    CHECK(ok.num_outputs == 2 && ok.memory_kind_sizes[0] == 13 && !memcmp(ok.memory_kinds[0], "unpinned_host", 13));
    destroy_executable(exe2);
    const float xs[3] = {1, 2, 3}, ys[3] = {10, 20, 30};
    const int64_t d[1] = {3};
    PJRT_Buffer *x = from_host(c, PJRT_Buffer_Type_F32, xs, 1, d, NULL);
    PJRT_Buffer *y = from_host(c, PJRT_Buffer_Type_F32, ys, 1, d, NULL);
    PJRT_Buffer *outs[2] = {NULL, NULL};
    CHECK_PJ(execute2(le2, x, y, outs));
    float got[3] = {0};
    if (outs[0]) to_host(outs[0], got, sizeof got);
    CHECK(got[0] == 11 && got[1] == 22 && got[2] == 33);
    for (int k = 0; k < 2; k++)
      if (outs[k]) destroy_buffer(outs[k]);
    destroy_buffer(x);
    destroy_buffer(y);
    destroy_loaded(le2);
  }
  /* not a serialized executable; one cut short */
  const size_t cuts[3] = {5, sa.serialized_bytes_size / 2, sa.serialized_bytes_size - 1};
  for (int k = 0; k < 3; k++) {
    da.serialized_executable_size = cuts[k];
    da.loaded_executable = NULL;
    e = api->PJRT_Executable_DeserializeAndLoad(&da);
    CHECK(e && code_of(e) == PJRT_Error_Code_INVALID_ARGUMENT && !da.loaded_executable);
    if (e) destroy_error(e);
  }
  da.serialized_executable = "HloModule x\n";
  da.serialized_executable_size = 12;
  e = api->PJRT_Executable_DeserializeAndLoad(&da);
  CHECK(e && code_of(e) == PJRT_Error_Code_INVALID_ARGUMENT);
  if (e) destroy_error(e);
  sa.serialized_executable_deleter(sa.serialized_executable);
  destroy_executable(exe);
  destroy_loaded(le);
  destroy_client(c);
}

int main(void) {
  api = GetPjrtApi();
  RUN(test_api_table);
  RUN(test_client_device_memory);
  RUN(test_strided_transfer);
  RUN(test_compile_execute_donate);
  RUN(test_sub_byte_transfer);
  RUN(test_compile_errors);
  RUN(test_layout_text);
  RUN(test_memories);
  RUN(test_external_references);
  RUN(test_serialize_executable);
  return test_summary("test_pjrt");
}
