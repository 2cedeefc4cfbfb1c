/* Sequential programs on the CPU backend: scans whose carried output is
 * updated one slice per iteration. A dynamic-update-slice kernel (unfused,
 * or a fusion whose root it is over parameter 0, read nowhere else) writes
 * only the update into its operand's buffer when the executor holds that
 * buffer's only reference (src/codegen/scatter.c: cg_dus_inplace; the
 * while loop hands its state to the body, src/cpu/exec.c). Checked against
 * the interpreter bit for bit: in loops (where it must fire: counted),
 * with start indices clamped at both ends, with two dynamic dims, a
 * zero-sized update, and where it must not fire (the base read again
 * later, read twice in the fusion, not parameter 0, a borrowed argument). */
#include <stdint.h>
#include <stdlib.h>

#include "harness.h"
#include "cpu_vs_interp.h"
#include "codegen_probe.h"

/* Runs text on the cpu backend and the interpreter (bits compared) and
 * returns the kernel outputs written in place, or -1 on a mismatch. */
static int64_t run_counted(const char *name, const char *text) {
  int64_t n = 0;
  return cpu_vs_interp_inplace(name, text, true, &n) ? n : -1;
}

/* A 10-step scan: h = h * 0.5 + w; ys[start(i)] = h, where the update is
 * the fusion FDUS (or an unfused dynamic-update-slice when UNFUSED). */
#define SCAN(START, DUS_BODY)                                                                     \
  "HloModule scan\n\n"                                                                            \
  "fstep {\n  q0 = f32[4,6] parameter(0)\n  q1 = f32[4,6] parameter(1)\n"                        \
  "  c = f32[] constant(0.5)\n  cb = f32[4,6] broadcast(c), dimensions={}\n"                      \
  "  m = f32[4,6] multiply(q0, cb)\n  ROOT a = f32[4,6] add(m, q1)\n}\n\n"                        \
  "fdus {\n  p0 = f32[10,4,6] parameter(0)\n  p1 = f32[4,6] parameter(1)\n"                       \
  "  p2 = s32[] parameter(2)\n  z = s32[] constant(0)\n"                                          \
  "  b = f32[1,4,6] reshape(p1)\n"                                                                \
  "  ROOT d = f32[10,4,6] dynamic-update-slice(p0, b, p2, z, z)\n}\n\n"                           \
  "body {\n  s = (s32[], f32[4,6], f32[10,4,6], f32[4,6]) parameter(0)\n"                         \
  "  i = s32[] get-tuple-element(s), index=0\n  h = f32[4,6] get-tuple-element(s), index=1\n"     \
  "  ys = f32[10,4,6] get-tuple-element(s), index=2\n  w = f32[4,6] get-tuple-element(s), index=3\n" \
  "  one = s32[] constant(1)\n  i1 = s32[] add(i, one)\n"                                         \
  "  three = s32[] constant(3)\n  five = s32[] constant(5)\n"                                     \
  "  i3 = s32[] multiply(i, three)\n  i35 = s32[] subtract(i3, five)\n"                           \
  "  hn = f32[4,6] fusion(h, w), kind=kLoop, calls=fstep\n" DUS_BODY                              \
  "  ROOT r = (s32[], f32[4,6], f32[10,4,6], f32[4,6]) tuple(i1, hn, ysn, w)\n}\n\n"              \
  "cond {\n  s = (s32[], f32[4,6], f32[10,4,6], f32[4,6]) parameter(0)\n"                         \
  "  i = s32[] get-tuple-element(s), index=0\n  n = s32[] constant(10)\n"                         \
  "  ROOT lt = pred[] compare(i, n), direction=LT\n}\n\n"                                         \
  "ENTRY e {\n  h0 = f32[4,6] parameter(0)\n  w = f32[4,6] parameter(1)\n"                        \
  "  z = s32[] constant(0)\n  zf = f32[] constant(0)\n"                                           \
  "  ys0 = f32[10,4,6] broadcast(zf), dimensions={}\n"                                            \
  "  init = (s32[], f32[4,6], f32[10,4,6], f32[4,6]) tuple(z, h0, ys0, w)\n"                      \
  "  wl = (s32[], f32[4,6], f32[10,4,6], f32[4,6]) while(init), condition=cond, body=body\n"      \
  "  ROOT ys = f32[10,4,6] get-tuple-element(wl), index=2\n}\n"

#define FUSED(IDX) "  ysn = f32[10,4,6] fusion(ys, hn, " IDX "), kind=kLoop, calls=fdus\n"
#define UNFUSED(IDX)                                                                              \
  "  hb = f32[1,4,6] reshape(hn)\n  zz = s32[] constant(0)\n"                                     \
  "  ysn = f32[10,4,6] dynamic-update-slice(ys, hb, " IDX ", zz, zz)\n"

TEST(scan_in_place) {
  /* every iteration's update lands in the carried buffer: 10 in place */
  CHECK(run_counted("fused", SCAN(0, FUSED("i"))) == 10);
  CHECK(run_counted("unfused", SCAN(0, UNFUSED("i"))) == 10);
  /* starts 3i-5: below 0 and past the end, clamped */
  CHECK(run_counted("fused_clamped", SCAN(0, FUSED("i35"))) == 10);
  CHECK(run_counted("unfused_clamped", SCAN(0, UNFUSED("i35"))) == 10);
}

/* Unfused, two dynamic dims, in a loop (in place); start (2i-3, 3i-4)
 * clamped into [0,3] x [0,4] for a [2,3] update of a [5,7] array. */
static const char *two_dims =
    "HloModule two\n\n"
    "body {\n  s = (s32[], f32[5,7], f32[2,3]) parameter(0)\n"
    "  i = s32[] get-tuple-element(s), index=0\n  a = f32[5,7] get-tuple-element(s), index=1\n"
    "  u = f32[2,3] get-tuple-element(s), index=2\n"
    "  one = s32[] constant(1)\n  i1 = s32[] add(i, one)\n"
    "  two = s32[] constant(2)\n  three = s32[] constant(3)\n  four = s32[] constant(4)\n"
    "  r0 = s32[] multiply(i, two)\n  r = s32[] subtract(r0, three)\n"
    "  c0 = s32[] multiply(i, three)\n  c = s32[] subtract(c0, four)\n"
    "  ui = f32[2,3] add(u, u)\n"
    "  an = f32[5,7] dynamic-update-slice(a, ui, r, c)\n"
    "  ROOT t = (s32[], f32[5,7], f32[2,3]) tuple(i1, an, ui)\n}\n\n"
    "cond {\n  s = (s32[], f32[5,7], f32[2,3]) parameter(0)\n"
    "  i = s32[] get-tuple-element(s), index=0\n  n = s32[] constant(6)\n"
    "  ROOT lt = pred[] compare(i, n), direction=LT\n}\n\n"
    "ENTRY e {\n  x = f32[5,7] parameter(0)\n  u = f32[2,3] parameter(1)\n"
    "  x2 = f32[5,7] negate(x)\n  z = s32[] constant(0)\n"
    "  init = (s32[], f32[5,7], f32[2,3]) tuple(z, x2, u)\n"
    "  wl = (s32[], f32[5,7], f32[2,3]) while(init), condition=cond, body=body\n"
    "  ROOT a = f32[5,7] get-tuple-element(wl), index=1\n}\n";

TEST(two_dynamic_dims) { CHECK(run_counted("two_dims", two_dims) == 6); }

/* The base read after the update: the kernel copies (no in place), and the
 * base keeps its values (both returned). */
static const char *base_read_later =
    "HloModule later\n\n"
    "fdus {\n  p0 = f32[8,5] parameter(0)\n  p1 = f32[2,5] parameter(1)\n  p2 = s32[] parameter(2)\n"
    "  z = s32[] constant(0)\n  ROOT d = f32[8,5] dynamic-update-slice(p0, p1, p2, z)\n}\n\n"
    "ENTRY e {\n  x = f32[8,5] parameter(0)\n  u = f32[2,5] parameter(1)\n"
    "  a = f32[8,5] add(x, x)\n  i = s32[] constant(3)\n"
    "  d = f32[8,5] fusion(a, u, i), kind=kLoop, calls=fdus\n"
    "  ROOT t = (f32[8,5], f32[8,5]) tuple(d, a)\n}\n";

/* The caller's argument as the base: never written. */
static const char *base_borrowed =
    "HloModule borrowed\n\n"
    "ENTRY e {\n  x = f32[8,5] parameter(0)\n  u = f32[2,5] parameter(1)\n  i = s32[] constant(7)\n"
    "  z = s32[] constant(0)\n  ROOT d = f32[8,5] dynamic-update-slice(x, u, i, z)\n}\n";

/* A zero-sized update: the result is the base. */
static const char *empty_update =
    "HloModule empty\n\n"
    "ENTRY e {\n  x = f32[8,5] parameter(0)\n  u = f32[0,5] parameter(1)\n  i = s32[] constant(2)\n"
    "  z = s32[] constant(0)\n  a = f32[8,5] add(x, x)\n"
    "  ROOT d = f32[8,5] dynamic-update-slice(a, u, i, z)\n}\n";

TEST(copies) {
  CHECK(run_counted("base_read_later", base_read_later) == 0);
  CHECK(run_counted("base_borrowed", base_borrowed) == 0);
  CHECK(run_counted("empty_update", empty_update) == 1);
}

/* Fusions the in-place form must not take: the base read twice (the
 * update reads it too), and the base not parameter 0. Compiled
 * elementwise, still right. */
static const char *base_read_twice =
    "HloModule twice\n\n"
    "fdus {\n  p0 = f32[8,5] parameter(0)\n  p1 = s32[] parameter(1)\n"
    "  z = s32[] constant(0)\n  s = f32[2,5] slice(p0), slice={[1:3], [0:5]}\n"
    "  n = f32[2,5] negate(s)\n  ROOT d = f32[8,5] dynamic-update-slice(p0, n, p1, z)\n}\n\n"
    "ENTRY e {\n  x = f32[8,5] parameter(0)\n  a = f32[8,5] add(x, x)\n  i = s32[] constant(2)\n"
    "  ROOT d = f32[8,5] fusion(a, i), kind=kLoop, calls=fdus\n}\n";

static const char *base_param1 =
    "HloModule param1\n\n"
    "fdus {\n  p0 = f32[2,5] parameter(0)\n  p1 = f32[8,5] parameter(1)\n"
    "  z = s32[] constant(0)\n  i = s32[] constant(6)\n"
    "  ROOT d = f32[8,5] dynamic-update-slice(p1, p0, i, z)\n}\n\n"
    "ENTRY e {\n  x = f32[8,5] parameter(0)\n  u = f32[2,5] parameter(1)\n  a = f32[8,5] add(x, x)\n"
    "  ROOT d = f32[8,5] fusion(u, a), kind=kLoop, calls=fdus\n}\n";

/* codegen_kernel_inplace of the entry's root of text. */
static int64_t inplace_of(const Instr *in) { return codegen_kernel_inplace(in); }
static int root_inplace(const char *text) { return (int)probe_root(text, inplace_of); }

TEST(not_in_place) {
  CHECK(root_inplace(base_read_twice) == 0);
  CHECK(root_inplace(base_param1) == 0);
  CHECK(root_inplace(base_borrowed) == 1);
  CHECK(run_counted("base_read_twice", base_read_twice) == 0);
  CHECK(run_counted("base_param1", base_param1) == 0);
}

int main(void) {
  RUN(scan_in_place);
  RUN(two_dynamic_dims);
  RUN(copies);
  RUN(not_in_place);
  return test_summary(__FILE__);
}
