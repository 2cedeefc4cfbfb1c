/* The CPU backend's 8-bit integer dots accumulated in s32 (src/cpu/intdot.c:
 * sgemm over contraction chunks short enough to be exact) against the
 * interpreter, exactly: s8 and u8 operands and their mixes, contractions
 * longer than one chunk, transposed operand storage, batch dims, extreme
 * values (-128 everywhere), and a sum that wraps around s32. */
#include <stdint.h>
#include <stdlib.h>

#include "harness.h"
#include "cpu/cpu.h"
#include "interp/interp.h"
#include "verify/verify.h"

/* fill: 0 random bytes, 1 every element -128 (s8) / 255 (u8), 2 every
 * element 127 */
static bool check_dot(const char *name, const char *text, int fill) {
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

int main(void) {
  RUN(s8_and_u8);
  RUN(layouts_and_batches);
  RUN(extremes_and_wraparound);
  return test_summary(__FILE__);
}
