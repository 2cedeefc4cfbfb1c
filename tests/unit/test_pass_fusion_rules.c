/* Tests for the fusion decisions that follow XLA:CPU's rules case by case
 * (CpuInstructionFusion, InstructionFusion, FusionNodeIndexingEvaluation):
 * each a small HLO module in, the fused structure checked, the values
 * compared before and after on the interpreter; with the cases where
 * fusion must not happen. (test_pass_fusion.c holds the basic loop, input,
 * output and multi-output fusion tests and the corpus run.) */
#include "harness.h"
#include "pass_check.h"
#include "passes/fusion_util.h"

/* Number of fusion instructions in c. */
static int nfusions(const Computation *c) { return pc_count(c, OP_FUSION); }

/* bitcast-convert between types of one width is elementwise (XLA's
 * IsElementwise): it fuses with its producer and its consumer, so the
 * nextafter pattern of jnp.nextafter is one loop fusion. */
TEST(bitcast_convert_same_width_fuses) {
  const char *text =
      "HloModule bc\n\n"
      "ENTRY e {\n"
      "  x = f32[16] parameter(0)\n"
      "  n = f32[16] negate(x)\n"
      "  i = s32[16] bitcast-convert(n)\n"
      "  one = s32[] constant(1)\n"
      "  b = s32[16] broadcast(one), dimensions={}\n"
      "  a = s32[16] add(i, b)\n"
      "  ROOT r = f32[16] bitcast-convert(a)\n"
      "}\n";
  HloModule *m = pc_optimize_checked(text, "fusion");
  if (!m) return;
  const Computation *e = m->entry;
  CHECK(e->ninstrs == 2 && e->root->op == OP_FUSION);
  if (e->root->op == OP_FUSION)
    CHECK(pc_count(e->root->called[0], OP_BITCAST_CONVERT) == 2);
  module_destroy(m);
}

/* Between widths a bitcast-convert adds or drops a dimension: not
 * elementwise, never fused. */
TEST(bitcast_convert_other_width_not_fused) {
  const char *text =
      "HloModule bc2\n\n"
      "ENTRY e {\n"
      "  x = u32[8,2] parameter(0)\n"
      "  n = u32[8,2] not(x)\n"
      "  w = u64[8] bitcast-convert(n)\n"
      "  ROOT r = u64[8] add(w, w)\n"
      "}\n";
  HloModule *m = pc_optimize_checked(text, "fusion");
  if (!m) return;
  const Computation *e = m->entry;
  CHECK(pc_count(e, OP_BITCAST_CONVERT) == 1);
  for (int i = 0; i < m->ncomps; i++)
    if (m->comps[i]->is_fusion) CHECK(pc_count(m->comps[i], OP_BITCAST_CONVERT) == 0);
  CHECK(nfusions(e) == 0);
  module_destroy(m);
}

int main(int argc, char **argv) {
  (void)argc;
  (void)argv;
  RUN(bitcast_convert_same_width_fuses);
  RUN(bitcast_convert_other_width_not_fused);
  return test_summary("test_pass_fusion_rules");
}
