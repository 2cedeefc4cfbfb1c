/* Out of memory in the rewrites that follow XLA:CPU's pipeline: with the
 * n-th allocation failing, for every n, each pass either finishes (and the
 * module verifies) or reports RESOURCE_EXHAUSTED; never a crash or a leak
 * (run under SAN=1 for the leaks). */
#include "harness.h"
#include "pass_check.h"

#define M(body) "HloModule t\nENTRY e {\n" body "}\n"
#define SUM "s {\n  a = f32[] parameter(0)\n  b = f32[] parameter(1)\n  ROOT r = f32[] add(a, b)\n}\n"

TEST(algsimp_rules) {
  pc_oom_sweep(M("  x = f32[8] parameter(0)\n  c = f32[] constant(3)\n"
                 "  b = f32[8] broadcast(c), dimensions={}\n  q = f32[8] divide(x, b)\n"
                 "  y = bf16[8] parameter(1)\n  cb = bf16[] constant(3)\n"
                 "  bb = bf16[8] broadcast(cb), dimensions={}\n  qb = bf16[8] divide(y, bb)\n"
                 "  d = f32[] dot(q, x), lhs_contracting_dims={0}, rhs_contracting_dims={0}\n"
                 "  u = f32[8,1] reshape(x)\n  v = f32[1,8] reshape(q)\n"
                 "  o = f32[8,8] dot(u, v), lhs_contracting_dims={1}, rhs_contracting_dims={0}\n"
                 "  i = s32[1,1] constant({{2}})\n"
                 "  g = f32[1,8] gather(o, i), offset_dims={1}, collapsed_slice_dims={0}, "
                 "start_index_map={0}, index_vector_dim=1, slice_sizes={1,8}\n"
                 "  ROOT t = (f32[], f32[1,8], bf16[8]) tuple(d, g, qb)\n"),
               "algsimp");
  pc_oom_sweep("HloModule t\n" SUM
               "ENTRY e {\n  x = f32[3] parameter(0)\n  b = f32[5,3] broadcast(x), dimensions={1}\n"
               "  z = f32[] constant(1)\n  ROOT r = f32[3] reduce(b, z), dimensions={0}, to_apply=s\n}\n",
               "algsimp");
  pc_oom_sweep(M("  x = f32[1,8,8,3] parameter(0)\n  k = f32[3,3,3,4] parameter(1)\n"
                 "  z = f32[] constant(0)\n  p = f32[1,11,10,3] pad(x, z), padding=0_0x1_2x1_1x0_0\n"
                 "  ROOT c = f32[1,9,8,4] convolution(p, k), window={size=3x3}, dim_labels=b01f_01io->b01f\n"),
               "algsimp");
}

TEST(reduce_window_rewriter) {
  pc_oom_sweep("HloModule t\n" SUM
               "ENTRY e {\n  x = f32[3,300] parameter(0)\n  z = f32[] constant(0)\n"
               "  ROOT r = f32[3,300] reduce-window(x, z), window={size=1x300 pad=0_0x299_0}, to_apply=s\n}\n",
               "reduce-window-rewriter");
}

TEST(control_and_data_passes) {
  pc_oom_sweep("HloModule c\n"
               "t {\n  p = f32[4] parameter(0)\n  ROOT r = f32[4] negate(p)\n}\n"
               "f {\n  p = f32[4] parameter(0)\n  ROOT r = f32[4] exponential(p)\n}\n"
               "ENTRY e {\n  x = f32[4] parameter(0)\n  c = pred[] constant(true)\n"
               "  ROOT r = f32[4] conditional(c, x, x), true_computation=t, false_computation=f\n}\n",
               "conditional-simplifier");
  pc_oom_sweep("HloModule w\n"
               "cond {\n  p = (s32[], f32[4]) parameter(0)\n  i = s32[] get-tuple-element(p), index=0\n"
               "  n = s32[] constant(3)\n  ROOT lt = pred[] compare(i, n), direction=LT\n}\n"
               "body {\n  p = (s32[], f32[4]) parameter(0)\n  i = s32[] get-tuple-element(p), index=0\n"
               "  k = f32[4] get-tuple-element(p), index=1\n  e = f32[4] exponential(k)\n"
               "  ROOT t = (s32[], f32[4]) tuple(i, k)\n}\n"
               "ENTRY e {\n  z = s32[] constant(0)\n  k = f32[4] constant({1, 2, 3, 4})\n"
               "  t = (s32[], f32[4]) tuple(z, k)\n"
               "  ROOT w = (s32[], f32[4]) while(t), condition=cond, body=body\n}\n",
               "while-loop-constant-sinking");
  pc_oom_sweep("HloModule s\n"
               "cmp {\n  a = f32[] parameter(0)\n  b = f32[] parameter(1)\n  c = s32[] parameter(2)\n"
               "  d = s32[] parameter(3)\n  ROOT lt = pred[] compare(a, b), direction=LT\n}\n"
               "ENTRY e {\n  k = f32[8] parameter(0)\n  v = s32[8] parameter(1)\n"
               "  s = (f32[8], s32[8]) sort(k, v), dimensions={0}, to_apply=cmp\n"
               "  ROOT g = f32[8] get-tuple-element(s), index=0\n}\n",
               "sort-simplifier");
  pc_oom_sweep(M("  x = f32[3,0] parameter(0)\n  ROOT y = f32[3,0] exponential(x)\n"),
               "zero-sized-hlo-elimination");
  pc_oom_sweep(M("  a = f32[4,6] parameter(0)\n  b = f32[4,6] parameter(1)\n"
                 "  ta = f32[6,4] transpose(a), dimensions={1,0}\n"
                 "  tb = f32[6,4] transpose(b), dimensions={1,0}\n  ROOT s = f32[6,4] add(ta, tb)\n"),
               "reshape-mover");
  pc_oom_sweep(M("  x = bf16[4,4] parameter(0)\n  a = bf16[4,4] add(x, x)\n"
                 "  ROOT d = bf16[4,4] dot(a, x), lhs_contracting_dims={1}, rhs_contracting_dims={0}\n"),
               "float-normalization");
}

int main(void) {
  RUN(algsimp_rules);
  RUN(reduce_window_rewriter);
  RUN(control_and_data_passes);
  return test_summary("test_pass_oom_rewrites");
}
