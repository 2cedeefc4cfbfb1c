/* The CPU backend's column reductions (src/codegen/cg.c: reduces over the
 * leading dims swept in memory order into output accumulators) against the
 * interpreter. The interpreter sums f32 and narrower floats in double
 * (its accumulation domains) where the backend sums in the element type,
 * so floats agree to a relative 1e-5 of the largest result (f16: 1e-2),
 * NaNs in the same places; integers exactly. Covers several reduced and kept dims, non-identity
 * init values, max with NaNs, integer and f16 types, an elementwise
 * epilogue in a fusion, and shapes the sweep must leave alone. */
#include <stdint.h>
#include <stdlib.h>

#include "harness.h"
#include "cpu_vs_interp.h"

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

int main(void) {
  RUN(sum_over_leading_dims);
  RUN(max_with_nans_and_other_types);
  RUN(fusion_with_epilogue);
  RUN(shapes_left_to_the_per_element_loop);
  return test_summary(__FILE__);
}
