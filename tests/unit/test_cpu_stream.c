/* The CPU backend's streamed nests (src/codegen/cg.c emit_streamed:
 * elementwise kernels computing module results of 16 MiB and more write them with
 * non-temporal stores from the first 64-byte boundary of each slice)
 * against the interpreter, bit for bit: one-dimensional outputs of odd
 * lengths (slices that start inside a cache line, the elements before the
 * boundary stored plainly), f32, f16 and s8 outputs, two outputs of one
 * fusion, rows of whole cache lines and rows that are not (the plain
 * nest); on one thread and split over a pool of 2 into 8 slices. Then a
 * tanh and a sine (a speculating nest): within tolerance of the
 * interpreter, and split bit for bit as on one thread. */
#include <stdint.h>
#include <stdlib.h>

#include "harness.h"
#include "cpu_vs_interp.h"
#include "interp/interp.h"
#include "verify/verify.h"
#include "runtime/threadpool.h"

/* cpu_vs_interp_split: one thread, or a pool of 2 with every kernel
 * split into one-row slices; bit for bit against want (the interpreter's
 * when NULL). */
static bool check_run(const char *name, const char *text, bool split, const Literal *want) {
  return cpu_vs_interp_split(name, text, split, want);
}

static bool check_both(const char *name, const char *text) {
  return check_run(name, text, false, NULL) && check_run(name, text, true, NULL);
}

/* x * y + x, halved, less y, clamped at 0, squared (bench chain6) */
#define CHAIN(T, N)                                                                                   \
  "HloModule m\n\nENTRY e {\n  x = " T "[" N "] parameter(0)\n  y = " T "[" N "] parameter(1)\n"     \
  "  a = " T "[" N "] multiply(x, y)\n  b = " T "[" N "] add(a, x)\n  h = " T "[] constant(0.5)\n"    \
  "  hb = " T "[" N "] broadcast(h), dimensions={}\n  c = " T "[" N "] multiply(b, hb)\n"             \
  "  d = " T "[" N "] subtract(c, y)\n  z = " T "[] constant(0)\n  zb = " T "[" N "] broadcast(z), dimensions={}\n" \
  "  f = " T "[" N "] maximum(d, zb)\n  ROOT g = " T "[" N "] multiply(f, f)\n}\n"

TEST(one_dimensional) {
  /* 16 MiB + 60 bytes: slices of 524290 elements (not a multiple of 16) */
  CHECK(check_both("f32_odd", CHAIN("f32", "4194319")));
  CHECK(check_both("f64_odd", CHAIN("f64", "2097155")));
  CHECK(check_both("f16_out", "HloModule m\n\nENTRY e {\n  x = f32[8388617] parameter(0)\n"
                              "  y = f32[8388617] parameter(1)\n  a = f32[8388617] multiply(x, y)\n"
                              "  ROOT c = f16[8388617] convert(a)\n}\n"));
  CHECK(check_both("s8_out", "HloModule m\n\nENTRY e {\n  x = f32[16777233] parameter(0)\n"
                             "  c = s32[16777233] convert(x)\n  ROOT s = s8[16777233] convert(c)\n}\n"));
  CHECK(check_both("two_outputs", "HloModule m\n\nENTRY e {\n  x = f32[4194319] parameter(0)\n"
                                  "  y = f32[4194319] parameter(1)\n  a = f32[4194319] add(x, y)\n"
                                  "  b = f32[4194319] multiply(x, y)\n"
                                  "  ROOT t = (f32[4194319], f32[4194319]) tuple(a, b)\n}\n"));
}

TEST(rows) {
  /* rows of 8 KiB (streamed) and of 4100 bytes (not) */
  CHECK(check_both("rows_aligned", CHAIN("f32", "2049,2048")));
  CHECK(check_both("rows_odd", CHAIN("f32", "4099,1025")));
}

/* text (one f32[4194319] parameter): within tolerance of the
 * interpreter, and split bit for bit as on one thread. */
static bool check_inexact(const char *name, const char *text) {
  bool ok = cpu_vs_interp(name, text, false);
  cxla_module *m = NULL;
  Literal **args = NULL, *one = NULL;
  CpuExecutable *x = NULL;
  cxla_status s = cxla_module_parse(text, strlen(text), name, &m);
  if (!s) s = verify_module(m);
  if (!s) s = cpu_vs_interp_args(m, &args);
  if (!s) s = cpu_compile(m, NULL, &x);
  CpuExecOptions o = {.num_threads = 1};
  if (!s) s = cpu_execute_opts(x, args, 1, &o, &one);
  if (s) fprintf(stderr, "%s: %s\n", name, cxla_status_message(s));
  ok = ok && !s && check_run(name, text, true, one);
  cxla_status_free(s);
  literal_free(one);
  cpu_vs_interp_free_args(m, args);
  cpu_executable_destroy(x);
  cxla_module_destroy(m);
  return ok;
}

/* A tanh, and a sine (a speculating nest, cg.c: chunks computed again
 * without the fast path where an element needs it: arguments scaled
 * past 2^16 for some: the fallback) */
TEST(transcendental) {
  CHECK(check_inexact("tanh", "HloModule m\n\nENTRY e {\n  x = f32[4194319] parameter(0)\n"
                              "  t = f32[4194319] tanh(x)\n  ROOT r = f32[4194319] multiply(t, x)\n}\n"));
  CHECK(check_inexact("sin", "HloModule m\n\nENTRY e {\n  x = f32[4194319] parameter(0)\n"
                             "  c = f32[] constant(100000)\n  cb = f32[4194319] broadcast(c), dimensions={}\n"
                             "  y = f32[4194319] multiply(x, cb)\n  s = f32[4194319] sine(y)\n"
                             "  ROOT r = f32[4194319] multiply(s, s)\n}\n"));
}

int main(void) {
  RUN(one_dimensional);
  RUN(rows);
  RUN(transcendental);
  return test_summary(__FILE__);
}
