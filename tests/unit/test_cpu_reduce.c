/* The CPU backend's column reductions (src/codegen/cg.c: reduces over the
 * leading dims swept in memory order into output accumulators) against the
 * interpreter. The interpreter sums f32 and narrower floats in double
 * (its accumulation domains) where the backend sums in the element type,
 * so floats agree to a relative 1e-5 of the largest result (f16: 1e-2),
 * NaNs in the same places; integers exactly. Covers several reduced and kept dims, non-identity
 * init values, max with NaNs, integer and f16 types, an elementwise
 * epilogue in a fusion, and shapes the sweep must leave alone. And the
 * sweep's short block loops stay rolled (vectorized loops counted in the
 * optimized IR). */
#include <ftw.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "harness.h"
#include "cpu_vs_interp.h"
#include "verify/verify.h"

static bool check_same(const char *name, const char *text) { return cpu_vs_interp(name, text, false); }

#define ADD_F32 "add {\n  a = f32[] parameter(0)\n  b = f32[] parameter(1)\n  ROOT r = f32[] add(a, b)\n}\n\n"

TEST(sum_over_leading_dims) {
  CHECK(check_same("one_dim", "HloModule m\n\n" ADD_F32
                              "ENTRY e {\n  x = f32[37,40] parameter(0)\n  z = f32[] constant(0)\n"
                              "  ROOT r = f32[40] reduce(x, z), dimensions={0}, to_apply=add\n}\n"));
  CHECK(check_same("two_dims", "HloModule m\n\n" ADD_F32
                               "ENTRY e {\n  x = f32[3,5,4,33] parameter(0)\n  z = f32[] constant(1.5)\n"
                               "  ROOT r = f32[4,33] reduce(x, z), dimensions={0,1}, to_apply=add\n}\n"));
  CHECK(check_same("param_init", "HloModule m\n\n" ADD_F32
                                 "ENTRY e {\n  x = f32[9,64] parameter(0)\n  z = f32[] parameter(1)\n"
                                 "  ROOT r = f32[64] reduce(x, z), dimensions={0}, to_apply=add\n}\n"));
}

TEST(max_with_nans_and_other_types) {
  CHECK(check_same("max", "HloModule m\n\n"
                          "mx {\n  a = f32[] parameter(0)\n  b = f32[] parameter(1)\n  ROOT r = f32[] maximum(a, b)\n}\n\n"
                          "ENTRY e {\n  x = f32[21,48] parameter(0)\n  z = f32[] constant(-inf)\n"
                          "  ROOT r = f32[48] reduce(x, z), dimensions={0}, to_apply=mx\n}\n"));
  CHECK(check_same("s32", "HloModule m\n\n"
                          "add {\n  a = s32[] parameter(0)\n  b = s32[] parameter(1)\n  ROOT r = s32[] add(a, b)\n}\n\n"
                          "ENTRY e {\n  x = s32[30,17] parameter(0)\n  z = s32[] constant(7)\n"
                          "  ROOT r = s32[17] reduce(x, z), dimensions={0}, to_apply=add\n}\n"));
  CHECK(check_same("f16", "HloModule m\n\n"
                          "add {\n  a = f16[] parameter(0)\n  b = f16[] parameter(1)\n  ROOT r = f16[] add(a, b)\n}\n\n"
                          "ENTRY e {\n  x = f16[12,40] parameter(0)\n  z = f16[] constant(0)\n"
                          "  ROOT r = f16[40] reduce(x, z), dimensions={0}, to_apply=add\n}\n"));
}

TEST(fusion_with_epilogue) {
  CHECK(check_same("epilogue", "HloModule m\n\n" ADD_F32
                               "fused {\n  p0 = f32[8,6,64] parameter(0)\n  p1 = f32[6,64] parameter(1)\n"
                               "  sq = f32[8,6,64] multiply(p0, p0)\n  z = f32[] constant(0)\n"
                               "  r = f32[6,64] reduce(sq, z), dimensions={0}, to_apply=add\n"
                               "  c = f32[] constant(0.125)\n  cb = f32[6,64] broadcast(c), dimensions={}\n"
                               "  m = f32[6,64] multiply(r, cb)\n  a = f32[6,64] add(m, p1)\n"
                               "  ROOT s = f32[6,64] sqrt(a)\n}\n\n"
                               "ENTRY e {\n  x = f32[8,6,64] parameter(0)\n  y = f32[6,64] parameter(1)\n"
                               "  ROOT f = f32[6,64] fusion(x, y), kind=kInput, calls=fused\n}\n"));
  /* kept dims before the reduced one (an average over a sequence) */
  CHECK(check_same("outer_epilogue", "HloModule m\n\n" ADD_F32
                                     "fused {\n  p0 = f32[5,9,40] parameter(0)\n  p1 = f32[5,40] parameter(1)\n"
                                     "  sq = f32[5,9,40] multiply(p0, p0)\n  z = f32[] constant(0)\n"
                                     "  r = f32[5,40] reduce(sq, z), dimensions={1}, to_apply=add\n"
                                     "  c = f32[] constant(0.25)\n  cb = f32[5,40] broadcast(c), dimensions={}\n"
                                     "  m = f32[5,40] multiply(r, cb)\n  a = f32[5,40] add(m, p1)\n"
                                     "  ROOT s = f32[5,40] sqrt(a)\n}\n\n"
                                     "ENTRY e {\n  x = f32[5,9,40] parameter(0)\n  y = f32[5,40] parameter(1)\n"
                                     "  ROOT f = f32[5,40] fusion(x, y), kind=kInput, calls=fused\n}\n"));
}

TEST(shapes_left_to_the_per_element_loop) {
  /* reduced dim innermost (a row reduction), kept dim too short, a
   * transposing epilogue: all must still agree */
  CHECK(check_same("rows", "HloModule m\n\n" ADD_F32
                           "ENTRY e {\n  x = f32[40,37] parameter(0)\n  z = f32[] constant(0)\n"
                           "  ROOT r = f32[40] reduce(x, z), dimensions={1}, to_apply=add\n}\n"));
  CHECK(check_same("short", "HloModule m\n\n" ADD_F32
                            "ENTRY e {\n  x = f32[40,5] parameter(0)\n  z = f32[] constant(0)\n"
                            "  ROOT r = f32[5] reduce(x, z), dimensions={0}, to_apply=add\n}\n"));
  CHECK(check_same("transposed_epilogue", "HloModule m\n\n" ADD_F32
                                          "fused {\n  p0 = f32[8,16,16] parameter(0)\n  z = f32[] constant(0)\n"
                                          "  r = f32[16,16] reduce(p0, z), dimensions={0}, to_apply=add\n"
                                          "  ROOT t = f32[16,16] transpose(r), dimensions={1,0}\n}\n\n"
                                          "ENTRY e {\n  x = f32[8,16,16] parameter(0)\n"
                                          "  ROOT f = f32[16,16] fusion(x), kind=kInput, calls=fused\n}\n"));
  CHECK(check_same("empty_reduced", "HloModule m\n\n" ADD_F32
                                    "ENTRY e {\n  x = f32[0,40] parameter(0)\n  z = f32[] constant(2)\n"
                                    "  ROOT r = f32[40] reduce(x, z), dimensions={0}, to_apply=add\n}\n"));
}

/* Multi-output fusions whose root is a tuple of column reduces (batch-norm
 * statistics: sum, sum of squares, ... over N, H, W per channel) sweep
 * their input once for all of them: sums (NaNs masked, so that they are
 * numbers), a max with NaNs, a non-identity
 * init, an s32 count next to f32 sums, two reduced and two kept dims. The
 * tuple is taken apart in the entry (the comparison reads one array).
 * Tuples the sweep must leave to the per-element loop still agree: a
 * column and a row reduce, an output that is no reduce, reduces over
 * inputs of different dims. */
#define MAX_F32 "mx {\n  a = f32[] parameter(0)\n  b = f32[] parameter(1)\n  ROOT r = f32[] maximum(a, b)\n}\n\n"
#define ADD_S32 "adds {\n  a = s32[] parameter(0)\n  b = s32[] parameter(1)\n  ROOT r = s32[] add(a, b)\n}\n\n"

TEST(tuple_of_column_reduces) {
  CHECK(check_same("bn_stats", "HloModule m\n\n" ADD_F32 MAX_F32 ADD_S32
                               "fused {\n  p0 = f32[4,6,7,40] parameter(0)\n  p1 = f32[40] parameter(1)\n"
                               "  b = f32[4,6,7,40] broadcast(p1), dimensions={3}\n"
                               "  z = f32[] constant(0)\n  zb = f32[4,6,7,40] broadcast(z), dimensions={}\n"
                               "  ok = pred[4,6,7,40] compare(p0, p0), direction=EQ\n"
                               "  cl = f32[4,6,7,40] select(ok, p0, zb)\n"
                               "  d = f32[4,6,7,40] subtract(cl, b)\n  sq = f32[4,6,7,40] multiply(d, d)\n"
                               "  one = f32[] constant(1)\n  ninf = f32[] constant(-inf)\n"
                               "  c = s32[4,6,7,40] convert(cl)\n  zi = s32[] constant(3)\n"
                               "  s = f32[40] reduce(d, z), dimensions={0,1,2}, to_apply=add\n"
                               "  q = f32[40] reduce(sq, one), dimensions={0,1,2}, to_apply=add\n"
                               "  m = f32[40] reduce(p0, ninf), dimensions={0,1,2}, to_apply=mx\n"
                               "  n = s32[40] reduce(c, zi), dimensions={0,1,2}, to_apply=adds\n"
                               "  ROOT t = (f32[40], f32[40], f32[40], s32[40]) tuple(s, q, m, n)\n}\n\n"
                               "ENTRY e {\n  x = f32[4,6,7,40] parameter(0)\n  y = f32[40] parameter(1)\n"
                               "  f = (f32[40], f32[40], f32[40], s32[40]) fusion(x, y), kind=kInput, calls=fused\n"
                               "  g0 = f32[40] get-tuple-element(f), index=0\n  g1 = f32[40] get-tuple-element(f), index=1\n"
                               "  g2 = f32[40] get-tuple-element(f), index=2\n  g3 = s32[40] get-tuple-element(f), index=3\n"
                               "  g3f = f32[40] convert(g3)\n"
                               "  ROOT r = f32[160] concatenate(g0, g1, g2, g3f), dimensions={0}\n}\n"));
  CHECK(check_same("two_kept_dims", "HloModule m\n\n" ADD_F32
                                    "fused {\n  p0 = f32[5,3,4,16] parameter(0)\n  p1 = f32[5,3,4,16] parameter(1)\n"
                                    "  z = f32[] constant(0)\n  zb = f32[5,3,4,16] broadcast(z), dimensions={}\n"
                                    "  ok = pred[5,3,4,16] compare(p0, p0), direction=EQ\n"
                                    "  cl = f32[5,3,4,16] select(ok, p0, zb)\n  pr = f32[5,3,4,16] multiply(cl, cl)\n"
                                    "  a = f32[4,16] reduce(cl, z), dimensions={0,1}, to_apply=add\n"
                                    "  b = f32[4,16] reduce(pr, z), dimensions={0,1}, to_apply=add\n"
                                    "  ROOT t = (f32[4,16], f32[4,16]) tuple(a, b)\n}\n\n"
                                    "ENTRY e {\n  x = f32[5,3,4,16] parameter(0)\n  y = f32[5,3,4,16] parameter(1)\n"
                                    "  f = (f32[4,16], f32[4,16]) fusion(x, y), kind=kInput, calls=fused\n"
                                    "  g0 = f32[4,16] get-tuple-element(f), index=0\n"
                                    "  g1 = f32[4,16] get-tuple-element(f), index=1\n"
                                    "  ROOT r = f32[8,16] concatenate(g0, g1), dimensions={0}\n}\n"));
  /* kept dims before the reduced ones: per-image statistics */
  CHECK(check_same("outer_stats", "HloModule m\n\n" ADD_F32
                                  "fused {\n  p0 = f32[3,5,7,24] parameter(0)\n  z = f32[] constant(0)\n"
                                  "  zb = f32[3,5,7,24] broadcast(z), dimensions={}\n"
                                  "  ok = pred[3,5,7,24] compare(p0, p0), direction=EQ\n"
                                  "  cl = f32[3,5,7,24] select(ok, p0, zb)\n  pr = f32[3,5,7,24] multiply(cl, cl)\n"
                                  "  a = f32[3,24] reduce(cl, z), dimensions={1,2}, to_apply=add\n"
                                  "  b = f32[3,24] reduce(pr, z), dimensions={1,2}, to_apply=add\n"
                                  "  ROOT t = (f32[3,24], f32[3,24]) tuple(a, b)\n}\n\n"
                                  "ENTRY e {\n  x = f32[3,5,7,24] parameter(0)\n"
                                  "  f = (f32[3,24], f32[3,24]) fusion(x), kind=kInput, calls=fused\n"
                                  "  g0 = f32[3,24] get-tuple-element(f), index=0\n"
                                  "  g1 = f32[3,24] get-tuple-element(f), index=1\n"
                                  "  ROOT r = f32[6,24] concatenate(g0, g1), dimensions={0}\n}\n"));
  /* left to the per-element loop */
  CHECK(check_same("column_and_row", "HloModule m\n\n" ADD_F32
                                     "fused {\n  p0 = f32[40,40] parameter(0)\n  z = f32[] constant(0)\n"
                                     "  a = f32[40] reduce(p0, z), dimensions={0}, to_apply=add\n"
                                     "  b = f32[40] reduce(p0, z), dimensions={1}, to_apply=add\n"
                                     "  ROOT t = (f32[40], f32[40]) tuple(a, b)\n}\n\n"
                                     "ENTRY e {\n  x = f32[40,40] parameter(0)\n"
                                     "  f = (f32[40], f32[40]) fusion(x), kind=kInput, calls=fused\n"
                                     "  g0 = f32[40] get-tuple-element(f), index=0\n"
                                     "  g1 = f32[40] get-tuple-element(f), index=1\n"
                                     "  ROOT r = f32[80] concatenate(g0, g1), dimensions={0}\n}\n"));
  CHECK(check_same("not_a_reduce", "HloModule m\n\n" ADD_F32
                                   "fused {\n  p0 = f32[9,40] parameter(0)\n  p1 = f32[40] parameter(1)\n"
                                   "  z = f32[] constant(0)\n"
                                   "  a = f32[40] reduce(p0, z), dimensions={0}, to_apply=add\n"
                                   "  b = f32[40] negate(p1)\n"
                                   "  ROOT t = (f32[40], f32[40]) tuple(a, b)\n}\n\n"
                                   "ENTRY e {\n  x = f32[9,40] parameter(0)\n  y = f32[40] parameter(1)\n"
                                   "  f = (f32[40], f32[40]) fusion(x, y), kind=kInput, calls=fused\n"
                                   "  g0 = f32[40] get-tuple-element(f), index=0\n"
                                   "  g1 = f32[40] get-tuple-element(f), index=1\n"
                                   "  ROOT r = f32[80] concatenate(g0, g1), dimensions={0}\n}\n"));
  CHECK(check_same("different_inputs", "HloModule m\n\n" ADD_F32
                                       "fused {\n  p0 = f32[9,40] parameter(0)\n  p1 = f32[3,5,40] parameter(1)\n"
                                       "  z = f32[] constant(0)\n"
                                       "  a = f32[40] reduce(p0, z), dimensions={0}, to_apply=add\n"
                                       "  b = f32[40] reduce(p1, z), dimensions={0,1}, to_apply=add\n"
                                       "  ROOT t = (f32[40], f32[40]) tuple(a, b)\n}\n\n"
                                       "ENTRY e {\n  x = f32[9,40] parameter(0)\n  y = f32[3,5,40] parameter(1)\n"
                                       "  f = (f32[40], f32[40]) fusion(x, y), kind=kInput, calls=fused\n"
                                       "  g0 = f32[40] get-tuple-element(f), index=0\n"
                                       "  g1 = f32[40] get-tuple-element(f), index=1\n"
                                       "  ROOT r = f32[80] concatenate(g0, g1), dimensions={0}\n}\n"));
  CHECK(check_same("different_outer_dims", "HloModule m\n\n" ADD_F32
                                           "fused {\n  p0 = f32[6,5,40] parameter(0)\n  z = f32[] constant(0)\n"
                                           "  a = f32[6,40] reduce(p0, z), dimensions={1}, to_apply=add\n"
                                           "  b = f32[40] reduce(p0, z), dimensions={0,1}, to_apply=add\n"
                                           "  ROOT t = (f32[6,40], f32[40]) tuple(a, b)\n}\n\n"
                                           "ENTRY e {\n  x = f32[6,5,40] parameter(0)\n"
                                           "  f = (f32[6,40], f32[40]) fusion(x), kind=kInput, calls=fused\n"
                                           "  g0 = f32[6,40] get-tuple-element(f), index=0\n"
                                           "  g1 = f32[40] get-tuple-element(f), index=1\n"
                                           "  g1r = f32[1,40] reshape(g1)\n"
                                           "  ROOT r = f32[7,40] concatenate(g0, g1r), dimensions={0}\n}\n"));
}

/* Float max/min reductions (elemental.c's reduce_minmax: integer keys in
 * IEEE total order, vectorized, and the sequential loop again when a NaN
 * was seen) must equal the interpreter's bit for bit: rows with and
 * without NaNs (every 17th argument element), -0 next to +0, subnormals
 * (flushed) and negative NaNs (the bits of small integers), f64, min,
 * operands swapped, a NaN or non-identity init, several reduced dims and
 * one in the middle; and reductions it must leave to the generic loop
 * (f16, integers, a computation that is not a bare max, a variadic
 * argmax) still agree. */
static bool check_exact(const char *name, const char *text) { return cpu_vs_interp(name, text, true); }

#define MINMAX(NAME, T, OP, A, B) \
  NAME " {\n  a = " T "[] parameter(0)\n  b = " T "[] parameter(1)\n  ROOT r = " T "[] " OP "(" A ", " B ")\n}\n\n"

TEST(max_min_vectorized_exact) {
  CHECK(check_exact("max_rows", "HloModule m\n\n" MINMAX("mx", "f32", "maximum", "a", "b")
                                "ENTRY e {\n  x = f32[64,10] parameter(0)\n  z = f32[] constant(-inf)\n"
                                "  ROOT r = f32[64] reduce(x, z), dimensions={1}, to_apply=mx\n}\n"));
  CHECK(check_exact("min_rows_swapped", "HloModule m\n\n" MINMAX("mn", "f32", "minimum", "b", "a")
                                        "ENTRY e {\n  x = f32[64,10] parameter(0)\n  z = f32[] constant(inf)\n"
                                        "  ROOT r = f32[64] reduce(x, z), dimensions={1}, to_apply=mn\n}\n"));
  CHECK(check_exact("max_long_rows", "HloModule m\n\n" MINMAX("mx", "f32", "maximum", "a", "b")
                                     "ENTRY e {\n  x = f32[8,1000] parameter(0)\n  z = f32[] constant(-inf)\n"
                                     "  ROOT r = f32[8] reduce(x, z), dimensions={1}, to_apply=mx\n}\n"));
  /* bits of small integers: subnormals of both signs' neighbours, zeros,
   * negative NaNs; and integers scaled into the exponent field */
  for (int shift = 0; shift <= 23; shift += 23) {
    char text[1024];
    snprintf(text, sizeof text,
             "HloModule m\n\n" MINMAX("mx", "f32", "maximum", "a", "b") MINMAX("mn", "f32", "minimum", "a", "b")
             "ENTRY e {\n  p = s32[96,3] parameter(0)\n  k = s32[] constant(%d)\n"
             "  kb = s32[96,3] broadcast(k), dimensions={}\n  q = s32[96,3] shift-left(p, kb)\n"
             "  x = f32[96,3] bitcast-convert(q)\n  z = f32[] constant(-inf)\n  zi = f32[] constant(inf)\n"
             "  r = f32[96] reduce(x, z), dimensions={1}, to_apply=mx\n"
             "  s = f32[96] reduce(x, zi), dimensions={1}, to_apply=mn\n"
             "  r1 = f32[1,96] reshape(r)\n  s1 = f32[1,96] reshape(s)\n"
             "  ROOT t = f32[2,96] concatenate(r1, s1), dimensions={0}\n}\n",
             shift);
    CHECK(check_exact(shift ? "max_min_exponents" : "max_min_subnormals", text));
  }
  CHECK(check_exact("f64_min_middle_dims", "HloModule m\n\n" MINMAX("mn", "f64", "minimum", "a", "b")
                                           "ENTRY e {\n  x = f64[3,4,5,6] parameter(0)\n  z = f64[] constant(7)\n"
                                           "  ROOT r = f64[3,6] reduce(x, z), dimensions={1,2}, to_apply=mn\n}\n"));
  CHECK(check_exact("param_init", "HloModule m\n\n" MINMAX("mx", "f32", "maximum", "a", "b")
                                  "ENTRY e {\n  x = f32[40,12] parameter(0)\n  z = f32[] parameter(1)\n"
                                  "  ROOT r = f32[40] reduce(x, z), dimensions={1}, to_apply=mx\n}\n"));
  CHECK(check_exact("nan_init", "HloModule m\n\n" MINMAX("mx", "f32", "maximum", "a", "b")
                                "ENTRY e {\n  x = f32[40,12] parameter(0)\n  z = f32[] constant(nan)\n"
                                "  ROOT r = f32[40] reduce(x, z), dimensions={1}, to_apply=mx\n}\n"));
  CHECK(check_exact("in_fusion", "HloModule m\n\n" MINMAX("mx", "f32", "maximum", "a", "b")
                                 "fused {\n  p0 = f32[33,20] parameter(0)\n  n = f32[33,20] negate(p0)\n"
                                 "  z = f32[] constant(-inf)\n"
                                 "  ROOT r = f32[33] reduce(n, z), dimensions={1}, to_apply=mx\n}\n\n"
                                 "ENTRY e {\n  x = f32[33,20] parameter(0)\n"
                                 "  ROOT f = f32[33] fusion(x), kind=kInput, calls=fused\n}\n"));
  /* left to the generic loop */
  CHECK(check_exact("f16_max", "HloModule m\n\n" MINMAX("mx", "f16", "maximum", "a", "b")
                               "ENTRY e {\n  x = f16[40,12] parameter(0)\n  z = f16[] constant(-inf)\n"
                               "  ROOT r = f16[40] reduce(x, z), dimensions={1}, to_apply=mx\n}\n"));
  CHECK(check_exact("s32_max", "HloModule m\n\n" MINMAX("mx", "s32", "maximum", "a", "b")
                               "ENTRY e {\n  x = s32[40,12] parameter(0)\n  z = s32[] constant(-100)\n"
                               "  ROOT r = s32[40] reduce(x, z), dimensions={1}, to_apply=mx\n}\n"));
  CHECK(check_exact("not_bare_max", "HloModule m\n\n"
                                    "mx {\n  a = f32[] parameter(0)\n  b = f32[] parameter(1)\n  c = f32[] constant(-5)\n"
                                    "  m = f32[] maximum(a, c)\n  ROOT r = f32[] maximum(m, b)\n}\n\n"
                                    "ENTRY e {\n  x = f32[40,12] parameter(0)\n  z = f32[] constant(-inf)\n"
                                    "  ROOT r = f32[40] reduce(x, z), dimensions={1}, to_apply=mx\n}\n"));
  CHECK(check_exact("max_of_a_with_a", "HloModule m\n\n" MINMAX("mx", "f32", "maximum", "a", "a")
                                       "ENTRY e {\n  x = f32[40,12] parameter(0)\n  z = f32[] constant(-inf)\n"
                                       "  ROOT r = f32[40] reduce(x, z), dimensions={1}, to_apply=mx\n}\n"));
  CHECK(check_exact("argmax", "HloModule m\n\n"
                              "am {\n  a = f32[] parameter(0)\n  i = s32[] parameter(1)\n"
                              "  b = f32[] parameter(2)\n  j = s32[] parameter(3)\n"
                              "  g = pred[] compare(a, b), direction=GE\n  v = f32[] maximum(a, b)\n"
                              "  k = s32[] select(g, i, j)\n  ROOT t = (f32[], s32[]) tuple(v, k)\n}\n\n"
                              "ENTRY e {\n  x = f32[40,12] parameter(0)\n  io = s32[40,12] iota(), iota_dimension=1\n"
                              "  z = f32[] constant(-inf)\n  zi = s32[] constant(0)\n"
                              "  r = (f32[40], s32[40]) reduce(x, io, z, zi), dimensions={1}, to_apply=am\n"
                              "  ROOT g = s32[40] get-tuple-element(r), index=1\n}\n"));
}

/* Rows whose extremum is a zero or a subnormal (reduce_minmax: the float
 * max in any order leaves a zero's sign open, and reads subnormals as
 * zero; the sign then comes from the elements' sign bits): the bits of a
 * u32[9,256] argument (a module large enough to be vectorized), a filler (-1 for max, 1 for min) and specials at two
 * places that move along the row. Max: -0 and a negative subnormal give
 * -0; a positive subnormal or +0 beside them +0; min mirrored; a row of
 * the filler alone, one of infinities, NaNs of both signs (the sequential
 * loop). Bit for bit the interpreter's, which flushes the chosen value. */
static double special_bits(void *ctx, int param, int64_t e, double u) {
  static const uint32_t sp[9][2] = {
      {0x80000000u, 0x80000005u}, {0x00000003u, 0x80000000u}, {0x80000001u, 0x80000001u},
      {0x00000000u, 0x80000000u}, {0x80000000u, 0x80000000u}, {0, 0},
      {0xff800000u, 0x7f800000u}, {0x7fc00000u, 0x80000000u}, {0xffc00001u, 0x00000002u}};
  (void)param, (void)u;
  bool is_max = *(const bool *)ctx;
  int r = (int)(e / 256), i = (int)(e % 256);
  uint32_t flip = is_max ? 0 : 0x80000000u; /* min: the specials' signs flipped */
  uint32_t v = is_max ? 0xbf800000u : 0x3f800000u;
  if (r != 5 && i == (r * 29) % 256) v = sp[r][0] ^ flip;
  if (r != 5 && i == (r * 29 + 133) % 256) v = sp[r][1] ^ flip;
  return (double)v;
}

TEST(max_min_zero_and_subnormal_rows) {
  static const char k_max[] = "HloModule m\n\n" MINMAX("f", "f32", "maximum", "a", "b")
      "ENTRY e {\n  c = u32[9,256] parameter(0)\n  x = f32[9,256] bitcast-convert(c)\n  z = f32[] constant(-inf)\n"
      "  ROOT r = f32[9] reduce(x, z), dimensions={1}, to_apply=f\n}\n";
  static const char k_min[] = "HloModule m\n\n" MINMAX("f", "f32", "minimum", "a", "b")
      "ENTRY e {\n  c = u32[9,256] parameter(0)\n  x = f32[9,256] bitcast-convert(c)\n  z = f32[] constant(inf)\n"
      "  ROOT r = f32[9] reduce(x, z), dimensions={1}, to_apply=f\n}\n";
  bool is_max = true;
  CHECK(cpu_vs_interp_fn("max_zero_rows", k_max, true, special_bits, &is_max));
  is_max = false;
  CHECK(cpu_vs_interp_fn("min_zero_rows", k_min, true, special_bits, &is_max));
}

/* jnp.argmax / argmin's reduce over rows (elemental.c reduce_argminmax:
 * the extreme, then its first position, both vectorized; the fold itself
 * where a NaN or nothing past the init turns up) against the
 * interpreter's fold, bit for bit: ties (small integers, -0 next to +0:
 * the first of equal values wins, its own bits), NaNs in some rows (the
 * first NaN), rows of nothing but the init value, a NaN init, f64, s32
 * and u32 values (signed and unsigned order), s64 indices, an iota not
 * broadcast, the reducer's or / and operands swapped; and reduces it must
 * leave to the fold (a >= reducer, a column argmax) agreeing too; variadic
 * column reduces swept in order. */
static double arg_value(void *ctx, int param, int64_t e, double u) {
  int kind = *(const int *)ctx;
  (void)param;
  if (kind == 2) return -INFINITY;
  if (kind == 1 && e % 97 == 5 && (e / 97) % 3 == 0) return NAN;
  double v = floor(u * 9) - 4;
  return v == 0 && e % 2 ? -0.0 : v;
}

static const char *argred(const char *vt, const char *kt, const char *dir, bool nan_test, bool swap,
                          const char *init, const char *shape, const char *rows, int nested_iota) {
  static char buf[2048];
  char keep[256], iota[256];
  if (nan_test)
    snprintf(keep, sizeof keep,
             "  c = pred[] compare(a, b), direction=%s\n  ne = pred[] compare(a, a), direction=NE\n"
             "  k = pred[] or(%s)\n", dir, swap ? "ne, c" : "c, ne");
  else
    snprintf(keep, sizeof keep, "  k = pred[] compare(a, b), direction=%s\n", dir);
  if (nested_iota)
    snprintf(iota, sizeof iota, "  io = %s[%d] iota(), iota_dimension=0\n  ix = %s%s broadcast(io), dimensions={1}\n",
             kt, nested_iota, kt, shape);
  else
    snprintf(iota, sizeof iota, "  ix = %s%s iota(), iota_dimension=1\n", kt, shape);
  snprintf(buf, sizeof buf,
           "HloModule m\n\nam {\n  a = %s[] parameter(0)\n  i = %s[] parameter(1)\n  b = %s[] parameter(2)\n"
           "  j = %s[] parameter(3)\n%s  v = %s[] select(k, a, b)\n  eq = pred[] compare(a, b), direction=EQ\n"
           "  lt = pred[] compare(i, j), direction=LT\n  an = pred[] and(%s)\n  o = pred[] or(%s)\n"
           "  x = %s[] select(o, i, j)\n  ROOT t = (%s[], %s[]) tuple(v, x)\n}\n\n"
           "ENTRY e {\n  p = %s%s parameter(0)\n%s  z = %s[] constant(%s)\n  zi = %s[] constant(0)\n"
           "  ROOT r = (%s%s, %s%s) reduce(p, ix, z, zi), dimensions={1}, to_apply=am\n}\n",
           vt, kt, vt, kt, keep, vt, swap ? "lt, eq" : "eq, lt", swap ? "an, k" : "k, an", kt, vt, kt, vt, shape, iota,
           vt, init, kt, vt, rows, kt, rows);
  return buf;
}

TEST(argmax_argmin_exact) {
  int kinds[] = {0, 1, 2};
  for (int ki = 0; ki < 3; ki++) {
    int *k = &kinds[ki];
    CHECK(cpu_vs_interp_fn("argmax_f32", argred("f32", "s32", "GT", true, false, "-inf", "[7,33]", "[7]", 0), true,
                           arg_value, k));
    CHECK(cpu_vs_interp_fn("argmin_f32", argred("f32", "s32", "LT", true, true, "inf", "[5,100]", "[5]", 100), true,
                           arg_value, k));
    CHECK(cpu_vs_interp_fn("argmax_f64_s64", argred("f64", "s64", "GT", true, false, "-inf", "[3,64]", "[3]", 64), true,
                           arg_value, k));
    CHECK(cpu_vs_interp_fn("argmax_nan_init", argred("f32", "s32", "GT", true, false, "nan", "[4,20]", "[4]", 0),
                           true, arg_value, k));
    CHECK(cpu_vs_interp_fn("argmax_s32", argred("s32", "s32", "GT", false, false, "-2147483648", "[6,40]", "[6]", 0),
                           true, arg_value, k));
    CHECK(cpu_vs_interp_fn("argmin_u32", argred("u32", "u32", "LT", false, true, "4294967295", "[4,50]", "[4]", 50),
                           true, arg_value, k));
  }
  /* left to the fold: a >= reducer; a column argmax */
  CHECK(check_exact("argmax_ge", "HloModule m\n\n"
                                 "am {\n  a = f32[] parameter(0)\n  i = s32[] parameter(1)\n  b = f32[] parameter(2)\n"
                                 "  j = s32[] parameter(3)\n  g = pred[] compare(a, b), direction=GE\n"
                                 "  v = f32[] select(g, a, b)\n  k = s32[] select(g, i, j)\n"
                                 "  ROOT t = (f32[], s32[]) tuple(v, k)\n}\n\n"
                                 "ENTRY e {\n  a = f32[6,40] parameter(0)\n  ix = s32[6,40] iota(), iota_dimension=1\n"
                                 "  z = f32[] constant(-inf)\n  zi = s32[] constant(0)\n"
                                 "  ROOT r = (f32[6], s32[6]) reduce(a, ix, z, zi), dimensions={1}, to_apply=am\n}\n"));
  int zero = 0;
  const char *col = argred("f32", "s32", "GT", true, false, "-inf", "[33,7]", "[7]", 0);
  char text[2048];
  snprintf(text, sizeof text, "%s", col);
  /* the same reducer over dim 0 with an iota along it */
  char *p = strstr(text, "iota_dimension=1");
  if (p) p[15] = '0';
  p = strstr(text, "dimensions={1}, to_apply");
  if (p) p[12] = '0';
  p = strstr(text, "(f32[7], s32[7]) reduce");
  CHECK(p != NULL);
  CHECK(cpu_vs_interp_fn("argmax_column", text, true, arg_value, &zero));
  /* variadic column reduces swept (cg.c emit_column_reduce, one
   * accumulator per output, folded in order): a >= reducer over dim 0
   * (blocks of 8 rows and 5 after them) and over the middle dim, on one
   * thread and split over two */
  static const char *const shapes[][3] = {{"[37,40]", "{0}", "[40]"}, {"[3,21,24]", "{1}", "[3,24]"}};
  for (int i = 0; i < 2; i++) {
    char t2[1024];
    snprintf(t2, sizeof t2,
             "HloModule m\n\nam {\n  a = f32[] parameter(0)\n  i = s32[] parameter(1)\n  b = f32[] parameter(2)\n"
             "  j = s32[] parameter(3)\n  g = pred[] compare(a, b), direction=GE\n  v = f32[] select(g, a, b)\n"
             "  k = s32[] select(g, i, j)\n  ROOT t = (f32[], s32[]) tuple(v, k)\n}\n\n"
             "ENTRY e {\n  a = f32%s parameter(0)\n  ix = s32%s iota(), iota_dimension=%c\n"
             "  z = f32[] constant(-inf)\n  zi = s32[] constant(-1)\n"
             "  ROOT r = (f32%s, s32%s) reduce(a, ix, z, zi), dimensions=%s, to_apply=am\n}\n",
             shapes[i][0], shapes[i][0], shapes[i][1][1], shapes[i][2], shapes[i][2], shapes[i][1]);
    CHECK(cpu_vs_interp_fn("argmax_sweep", t2, true, arg_value, &kinds[1]));
    CHECK(cpu_vs_interp_split("argmax_sweep", t2, false, NULL));
    CHECK(cpu_vs_interp_split("argmax_sweep", t2, true, NULL));
  }
}

/* The sweep combines each accumulator with 8 input lines per pass
 * (cg.c: CG_SWEEP_UNROLL), then with the rest one at a time, in the
 * order of the per-element loop: f64 sums (the interpreter sums f64 in
 * order too), integer sums and NaN-propagating max/min equal the
 * interpreter's bit for bit, with the innermost reduced dim a multiple of
 * 8, not one, under 8, several reduced dims, kept dims before the reduced
 * ones (one or two; one outer position; none to reduce); on one thread and
 * split into one-row slices over 2 threads. */
#define ADD_T(T) "add {\n  a = " T "[] parameter(0)\n  b = " T "[] parameter(1)\n  ROOT r = " T "[] add(a, b)\n}\n\n"
TEST(unrolled_sweep_exact) {
  static const char *const shapes[][4] = {
      /* input, reduced dims, output, whether the kernel has rows enough
       * to split (2 slices of at least 128 bytes of each input line) */
      {"[37,80]", "{0}", "[80]", "y"},     {"[16,24]", "{0}", "[24]", ""},
      {"[5,9]", "{0}", "[9]", ""},         {"[3,19,24]", "{0,1}", "[24]", ""},
      {"[4,13,6,17]", "{0,1}", "[6,17]", "y"}, {"[5,2,13,4,40]", "{0,1,2}", "[4,40]", "y"},
      {"[1,8]", "{0}", "[8]", ""},         {"[8,72]", "{0}", "[72]", "y"},
      /* outer kept dims before the reduced ones: each outer position a
       * sweep of its own, the rows the outer positions */
      {"[3,37,80]", "{1}", "[3,80]", "y"}, {"[2,3,5,9,24]", "{2,3}", "[2,3,24]", "y"},
      {"[1,13,40]", "{1}", "[1,40]", ""},  {"[4,0,16]", "{1}", "[4,16]", ""},
  };
  static const char *const types[][3] = {
      /* type, computation, init */
      {"f64", ADD_T("f64"), "0.25"},
      {"s32", ADD_T("s32"), "7"},
      {"f32", MINMAX("add", "f32", "maximum", "a", "b"), "-inf"},
      {"f64", MINMAX("add", "f64", "minimum", "b", "a"), "inf"},
  };
  for (size_t i = 0; i < sizeof shapes / sizeof shapes[0]; i++)
    for (size_t t = 0; t < sizeof types / sizeof types[0]; t++) {
      char text[1024], name[64];
      snprintf(text, sizeof text,
               "HloModule m\n\n%s"
               "ENTRY e {\n  x = %s%s parameter(0)\n  z = %s[] constant(%s)\n"
               "  ROOT r = %s%s reduce(x, z), dimensions=%s, to_apply=add\n}\n",
               types[t][1], types[t][0], shapes[i][0], types[t][0], types[t][2], types[t][0], shapes[i][2],
               shapes[i][1]);
      snprintf(name, sizeof name, "sweep_%s_%s", types[t][0], shapes[i][0]);
      CHECK(check_exact(name, text));
      CHECK(cpu_vs_interp_split(name, text, false, NULL));
      if (shapes[i][3][0]) CHECK(cpu_vs_interp_split(name, text, true, NULL));
    }
  /* a tuple of f64 sums over one input (one sweep for both) */
  CHECK(check_exact("sweep_tuple_f64", "HloModule m\n\n" ADD_T("f64")
                                       "fused {\n  p0 = f64[21,3,40] parameter(0)\n  z = f64[] constant(0)\n"
                                       "  sq = f64[21,3,40] multiply(p0, p0)\n"
                                       "  r = f64[3,40] reduce(p0, z), dimensions={0}, to_apply=add\n"
                                       "  s = f64[3,40] reduce(sq, z), dimensions={0}, to_apply=add\n"
                                       "  ROOT t = (f64[3,40], f64[3,40]) tuple(r, s)\n}\n\n"
                                       "ENTRY e {\n  x = f64[21,3,40] parameter(0)\n"
                                       "  ROOT f = (f64[3,40], f64[3,40]) fusion(x), kind=kInput, calls=fused\n}\n"));
}

static int rm_entry(const char *path, const struct stat *st, int flag, struct FTW *f) {
  (void)st, (void)flag, (void)f;
  return remove(path);
}

/* The vectorized loops (blocks named vector.body...) of text's optimized
 * LLVM IR, or -1. */
static int vector_loops(const char *text) {
  char dir[] = "/tmp/cxla_reduce_XXXXXX";
  if (!mkdtemp(dir)) return -1;
  cxla_module *m = NULL;
  CpuExecutable *x = NULL;
  CpuCompileOptions co = {.struct_size = sizeof co, .dump_dir = dir};
  cxla_status s = cxla_module_parse(text, strlen(text), "rolled", &m);
  if (!s) s = verify_module(m);
  if (!s) s = cpu_compile(m, &co, &x);
  int n = -1;
  char path[256], line[4096];
  snprintf(path, sizeof path, "%s/llvm_after_opt.ll", dir);
  FILE *f = s ? NULL : fopen(path, "r");
  if (f) {
    n = 0;
    while (fgets(line, sizeof line, f)) n += !strncmp(line, "vector.body", 11);
    fclose(f);
  }
  cxla_status_free(s);
  cpu_executable_destroy(x);
  cxla_module_destroy(m);
  nftw(dir, rm_entry, 8, FTW_DEPTH | FTW_PHYS);
  return n;
}

/* Sums over 15 rows: one block of 8, then 7 rows one at a time, each
 * pass's block loop rolled: the accumulators' initial loop and one
 * kept-position loop a pass vectorized, 3 vectorized loops (at most 6
 * allowed: an epilogue each); unrolled in full, the passes made 9. The
 * sums are the interpreter's. */
TEST(short_block_loops_rolled) {
  const char *text = "HloModule m\n\n" ADD_F32
                     "ENTRY e {\n  x = f32[15,4096] parameter(0)\n  z = f32[] constant(0)\n"
                     "  ROOT r = f32[4096] reduce(x, z), dimensions={0}, to_apply=add\n}\n";
  int n = vector_loops(text);
  CHECK(n >= 1 && n <= 6);
  if (n < 1 || n > 6) fprintf(stderr, "  %d vectorized loops, 1 to 6 expected\n", n);
  CHECK(check_same("rolled_15_rows", text));
}

int main(void) {
  RUN(sum_over_leading_dims);
  RUN(max_with_nans_and_other_types);
  RUN(fusion_with_epilogue);
  RUN(shapes_left_to_the_per_element_loop);
  RUN(tuple_of_column_reduces);
  RUN(max_min_vectorized_exact);
  RUN(max_min_zero_and_subnormal_rows);
  RUN(argmax_argmin_exact);
  RUN(unrolled_sweep_exact);
  RUN(short_block_loops_rolled);
  return test_summary(__FILE__);
}
