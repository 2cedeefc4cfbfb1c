/* The CPU backend's 8-bit integer dots accumulated in s32 against the
 * interpreter, exactly: through the compiled program (the fastest kernel
 * this CPU runs) and through each kernel of src/cpu/intdot.h directly
 * (the AMX tile kernels of amx.c on two threads and the AVX512-VNNI
 * micro-kernel of intdot_vnni.c, each skipped where the CPU lacks it, and
 * the sgemm fallback over exact contraction chunks). s8 and
 * u8 operands and their mixes, contractions longer than one chunk or
 * cache block, transposed operand storage, batch dims, edge tiles (sizes
 * 1, 3, 17, 65, ...; K = 4097), extreme values (-128 / 255 everywhere),
 * and sums that wrap around s32. */
#include <stdint.h>
#include <stdlib.h>

#include "harness.h"
#include "cpu/cpu.h"
#include "cpu/intdot.h"
#include "interp/interp.h"
#include "verify/verify.h"

/* The AMX kernel's threads (two, to split every product that has two
 * row blocks or more). */
static RtPool *pool;

/* Runs kernel k on the dot's operands; whether it matches `want`. */
static bool check_kernel(const char *name, const Int8Gemm *g, Literal *const *args, const Literal *want, Int8Kernel k) {
  int32_t *c = malloc((size_t)(g->batch * g->m * g->n) * sizeof *c + 1);
  cxla_status s = c ? int8_gemm(g, args[0]->data, args[1]->data, c, k, pool, 0) : NULL;
  bool ok = c && !s && !memcmp(c, want->data, (size_t)want->nelems * sizeof *c);
  if (!ok) fprintf(stderr, "%s (%s kernel): %s\n", name, k == INT8_VNNI ? "vnni" : k == INT8_AMX ? "amx" : "sgemm",
                   s ? cxla_status_message(s) : "results differ");
  cxla_status_free(s);
  free(c);
  return ok;
}

/* fill: 0 random bytes, 1 every element -128 (s8) / 255 (u8), 2 every
 * element 127. g: the dot as an Int8Gemm, to run each kernel directly as
 * well (NULL: only the compiled program). */
static bool check_dot_gemm(const char *name, const char *text, int fill, const Int8Gemm *g) {
  cxla_module *m = NULL;
  Literal *args[2] = {0}, *want = NULL, *got = NULL;
  CpuExecutable *x = NULL;
  bool ok = false;
  cxla_status s = cxla_module_parse(text, strlen(text), name, &m);
  if (!s) s = verify_module(m);
  uint64_t r = 0x2545F4914F6CDD1Dull;
  for (int i = 0; i < 2 && !s; i++) {
    s = literal_create_for_shape(m->entry->params[i]->shape, &args[i]);
    if (s) break;
    uint8_t *d = args[i]->data;
    bool u8 = args[i]->type == T_U8;
    for (int64_t e = 0; e < args[i]->nelems; e++) {
      r ^= r << 13, r ^= r >> 7, r ^= r << 17;
      d[e] = fill == 0 ? (uint8_t)(r >> 56) : fill == 1 ? (u8 ? 255 : 0x80) : 127;
    }
  }
  if (!s) s = cxla_interp_run(m, args, 2, &want);
  if (!s) s = cpu_compile(m, NULL, &x);
  if (!s) s = cpu_execute(x, args, 2, &got);
  if (s) {
    fprintf(stderr, "%s: %s\n", name, cxla_status_message(s));
  } else {
    ok = want->nelems == got->nelems && want->type == got->type &&
         !memcmp(want->data, got->data, (size_t)want->nelems * (size_t)type_bytes(want->type));
    if (!ok) fprintf(stderr, "%s: results differ\n", name);
    if (g) {
      Int8Gemm gg = *g;
      gg.a_unsigned = args[0]->type == T_U8;
      gg.b_unsigned = args[1]->type == T_U8;
      ok = check_kernel(name, &gg, args, want, INT8_SGEMM) && ok;
      if (int8_gemm_vnni_available()) ok = check_kernel(name, &gg, args, want, INT8_VNNI) && ok;
      if (amx_available(true)) ok = check_kernel(name, &gg, args, want, INT8_AMX) && ok;
    }
  }
  cxla_status_free(s);
  literal_free(args[0]);
  literal_free(args[1]);
  literal_free(want);
  literal_free(got);
  cpu_executable_destroy(x);
  cxla_module_destroy(m);
  return ok;
}

static bool check_dot(const char *name, const char *text, int fill) { return check_dot_gemm(name, text, fill, NULL); }

/* A dot of ta[batch.., m, k] (k x m when trans_a) by tb[batch.., k, n]
 * (n x k when trans_b) -> s32[batch.., m, n], checked through every path. */
static bool check_gen(const char *ta, const char *tb, int64_t batch, int64_t m, int64_t n, int64_t k, bool trans_a,
                      bool trans_b, int fill) {
  char name[128], text[1024], bd[32] = "", bdims[96] = "";
  int off = batch > 1 ? 1 : 0;
  if (batch > 1) {
    snprintf(bd, sizeof bd, "%lld,", (long long)batch);
    snprintf(bdims, sizeof bdims, "lhs_batch_dims={0}, rhs_batch_dims={0}, ");
  }
  snprintf(name, sizeof name, "%s%s x %s%s b%lld m%lld n%lld k%lld fill%d", ta, trans_a ? "^T" : "", tb,
           trans_b ? "^T" : "", (long long)batch, (long long)m, (long long)n, (long long)k, fill);
  snprintf(text, sizeof text,
           "HloModule m\n\nENTRY e {\n  a = %s[%s%lld,%lld] parameter(0)\n  b = %s[%s%lld,%lld] parameter(1)\n"
           "  ROOT d = s32[%s%lld,%lld] dot(a, b), %slhs_contracting_dims={%d}, rhs_contracting_dims={%d}\n}\n",
           ta, bd, (long long)(trans_a ? k : m), (long long)(trans_a ? m : k), tb, bd, (long long)(trans_b ? n : k),
           (long long)(trans_b ? k : n), bd, (long long)m, (long long)n, bdims, off + (trans_a ? 0 : 1),
           off + (trans_b ? 1 : 0));
  Int8Gemm g = {.batch = batch, .m = m, .n = n, .k = k, .trans_a = trans_a, .trans_b = trans_b};
  return check_dot_gemm(name, text, fill, &g);
}

#define DOT(A, B, O, ATTRS)                                                                        \
  "HloModule m\n\nENTRY e {\n  a = " A " parameter(0)\n  b = " B " parameter(1)\n  ROOT d = " O \
  " dot(a, b), " ATTRS "\n}\n"

TEST(s8_and_u8) {
  CHECK(check_dot("s8", DOT("s8[33,1500]", "s8[1500,40]", "s32[33,40]", "lhs_contracting_dims={1}, rhs_contracting_dims={0}"), 0));
  CHECK(check_dot("u8", DOT("u8[20,600]", "u8[600,24]", "s32[20,24]", "lhs_contracting_dims={1}, rhs_contracting_dims={0}"), 0));
  CHECK(check_dot("mixed", DOT("s8[20,700]", "u8[700,24]", "s32[20,24]", "lhs_contracting_dims={1}, rhs_contracting_dims={0}"), 0));
}

TEST(layouts_and_batches) {
  CHECK(check_dot("lhs_transposed", DOT("s8[1100,17]", "s8[1100,19]", "s32[17,19]", "lhs_contracting_dims={0}, rhs_contracting_dims={0}"), 0));
  CHECK(check_dot("rhs_transposed", DOT("s8[17,1100]", "s8[19,1100]", "s32[17,19]", "lhs_contracting_dims={1}, rhs_contracting_dims={1}"), 0));
  CHECK(check_dot("batched", DOT("s8[3,16,1030]", "s8[3,1030,12]", "s32[3,16,12]",
                                 "lhs_batch_dims={0}, lhs_contracting_dims={2}, rhs_batch_dims={0}, rhs_contracting_dims={1}"), 0));
}

TEST(extremes_and_wraparound) {
  CHECK(check_dot("all_min", DOT("s8[8,3000]", "s8[3000,8]", "s32[8,8]", "lhs_contracting_dims={1}, rhs_contracting_dims={0}"), 1));
  CHECK(check_dot("u8_max", DOT("u8[8,3000]", "u8[3000,8]", "s32[8,8]", "lhs_contracting_dims={1}, rhs_contracting_dims={0}"), 1));
  /* 140000 * 127 * 127 > 2^31: the s32 sum wraps */
  CHECK(check_dot("wraps", DOT("s8[2,140000]", "s8[140000,2]", "s32[2,2]", "lhs_contracting_dims={1}, rhs_contracting_dims={0}"), 2));
}

static const char *const types[4][2] = {{"s8", "s8"}, {"s8", "u8"}, {"u8", "s8"}, {"u8", "u8"}};

/* every operand type pair and storage order, on edge sizes */
TEST(kernels_types_and_layouts) {
  for (int t = 0; t < 4; t++)
    for (int l = 0; l < 4; l++) {
      CHECK(check_gen(types[t][0], types[t][1], 1, 3, 17, 65, l & 1, l & 2, 0));
      CHECK(check_gen(types[t][0], types[t][1], 1, 65, 3, 17, l & 1, l & 2, 0));
      CHECK(check_gen(types[t][0], types[t][1], 2, 17, 70, 9, l & 1, l & 2, 0));
    }
}

/* tile and block edges: sizes below, at and past the micro-tile, the row
 * block and the contraction block, K not a multiple of 4, K = 4097 */
TEST(kernels_edge_sizes) {
  static const int64_t sizes[][3] = {{1, 1, 1},   {1, 1, 4097}, {3, 3, 3},     {17, 17, 17}, {65, 65, 65},
                                     {1, 65, 3},  {65, 1, 17},  {6, 64, 256},  {7, 65, 257}, {12, 128, 4},
                                     {5, 129, 2}, {200, 130, 600}, {7, 70, 4097}, {193, 63, 513}};
  for (size_t i = 0; i < sizeof sizes / sizeof sizes[0]; i++) {
    CHECK(check_gen("s8", "s8", 1, sizes[i][0], sizes[i][1], sizes[i][2], false, false, 0));
    CHECK(check_gen("u8", "u8", 1, sizes[i][0], sizes[i][1], sizes[i][2], i % 2, i % 3 == 0, 0));
  }
  CHECK(check_gen("u8", "s8", 3, 33, 97, 300, true, true, 0));
  CHECK(check_gen("s8", "u8", 3, 33, 97, 300, false, true, 0));
  /* a row-major lhs of whole contraction blocks (AMX: whole 32-row pairs
   * read in place, the rest packed) */
  CHECK(check_gen("s8", "s8", 1, 70, 40, 128, false, false, 0));
  CHECK(check_gen("u8", "s8", 1, 300, 33, 64, false, true, 0));
  CHECK(check_gen("s8", "u8", 3, 64, 40, 192, false, false, 0));
}

/* extremes: -128 / 255 everywhere and 127 everywhere, for every type pair,
 * past one contraction block; u8 x u8 wrapping around s32 more than once */
TEST(kernels_extremes_and_wraparound) {
  for (int t = 0; t < 4; t++)
    for (int fill = 1; fill <= 2; fill++) CHECK(check_gen(types[t][0], types[t][1], 1, 7, 33, 1029, t & 1, t & 2, fill));
  /* 70000 * 255 * 255 > 2^32 */
  CHECK(check_gen("u8", "u8", 1, 2, 3, 70000, false, false, 1));
  CHECK(check_gen("s8", "s8", 1, 3, 2, 140000, false, true, 2));
  CHECK(check_gen("s8", "s8", 1, 2, 2, 140000, true, false, 1));
}

/* products with an even number of 64-column panels, eight or more: the
 * VNNI kernel splits them over the threads by panels (each thread packing
 * its own rhs panels, for every block of contraction steps) instead of by
 * rows; a partial last panel, partial row tiles, several blocks of steps,
 * every type pair and storage order, batches and extremes */
TEST(kernels_split_by_panels) {
  for (int t = 0; t < 4; t++)
    for (int l = 0; l < 4; l++) CHECK(check_gen(types[t][0], types[t][1], 1, 13, 512, 600, l & 1, l & 2, 0));
  CHECK(check_gen("s8", "s8", 1, 70, 500, 1030, false, false, 0));
  CHECK(check_gen("u8", "u8", 2, 9, 1024, 70, true, false, 0));
  CHECK(check_gen("s8", "u8", 2, 5, 512, 1100, true, true, 0));
  for (int t = 0; t < 4; t++) CHECK(check_gen(types[t][0], types[t][1], 1, 7, 512, 1029, t & 1, t & 2, 1));
}

int main(void) {
  if (rt_pool_create(2, &pool)) return 1;
  RUN(s8_and_u8);
  RUN(layouts_and_batches);
  RUN(extremes_and_wraparound);
  RUN(kernels_types_and_layouts);
  RUN(kernels_edge_sizes);
  RUN(kernels_extremes_and_wraparound);
  RUN(kernels_split_by_panels);
  if (!int8_gemm_vnni_available()) printf("  AVX512-VNNI kernel: skipped: this CPU lacks AVX512-VNNI\n");
  if (!amx_available(true)) printf("  AMX kernel: skipped: this CPU lacks AMX\n");
  rt_pool_destroy(pool);
  return test_summary(__FILE__);
}
