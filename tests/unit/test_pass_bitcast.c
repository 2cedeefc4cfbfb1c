/* Tests for "reshape-to-bitcast": a reshape whose operand and result are
 * both row-major in memory (size-1 dims aside) becomes a bitcast; any other
 * reshape stays. Values are compared before and after on the interpreter
 * (which honours layouts in bitcasts), so a wrong rewrite fails twice: by
 * structure and by value. Then the corpus after layout assignment and the
 * rewrite must verify and compute the same values.
 *
 *   test_pass_bitcast [corpus-dir]     (default tests/corpus) */
#include "harness.h"
#include "pass_check.h"

static const char *corpus_dir = "tests/corpus";

/* Runs the pass on a one-reshape module and returns the op the root ended
 * with (OP_COUNT on failure). */
static Opcode root_after(const char *text) {
  HloModule *m = pc_optimize_checked(text, "reshape-to-bitcast");
  if (!m) return OP_COUNT;
  Opcode op = m->entry->root->op;
  module_destroy(m);
  return op;
}

/* The dot_batch pattern: f32[3,4,5] -> f32[12,5], both row-major. */
TEST(row_major_reshape_becomes_bitcast) {
  CHECK(root_after("HloModule m\n\nENTRY e {\n"
                   "  a = f32[3,4,5]{2,1,0} parameter(0)\n"
                   "  ROOT r = f32[12,5]{1,0} reshape(a)\n}\n") == OP_BITCAST);
  /* Without layouts (row-major by default) too, and adding size-1 dims. */
  CHECK(root_after("HloModule m\n\nENTRY e {\n"
                   "  a = s32[6] parameter(0)\n"
                   "  ROOT r = s32[1,2,1,3] reshape(a)\n}\n") == OP_BITCAST);
}

/* Size-1 dims may sit anywhere in the layout: f32[4,1,5]{1,2,0} keeps its
 * bytes in row-major order of the non-trivial dims. */
TEST(degenerate_dims_ignored) {
  CHECK(root_after("HloModule m\n\nENTRY e {\n"
                   "  a = f32[4,1,5]{1,2,0} parameter(0)\n"
                   "  ROOT r = f32[20]{0} reshape(a)\n}\n") == OP_BITCAST);
}

/* A column-major operand or result moves bytes: the reshape stays. */
TEST(non_row_major_stays_reshape) {
  CHECK(root_after("HloModule m\n\nENTRY e {\n"
                   "  a = f32[3,4]{0,1} parameter(0)\n"
                   "  ROOT r = f32[12]{0} reshape(a)\n}\n") == OP_RESHAPE);
  CHECK(root_after("HloModule m\n\nENTRY e {\n"
                   "  a = f32[12]{0} parameter(0)\n"
                   "  ROOT r = f32[3,4]{0,1} reshape(a)\n}\n") == OP_RESHAPE);
  CHECK(root_after("HloModule m\n\nENTRY e {\n"
                   "  a = f32[2,3,4]{2,0,1} parameter(0)\n"
                   "  ROOT r = f32[6,4]{1,0} reshape(a)\n}\n") == OP_RESHAPE);
}

/* A reshape of a bitcast becomes one bitcast of the original value (the
 * simplifier would fold the chain on a second run otherwise); a reshape
 * back to the original shape and layout is the original value itself. */
TEST(bitcast_chains_collapse) {
  HloModule *m = pc_optimize_checked("HloModule m\n\nENTRY e {\n"
                                     "  a = f32[4,6]{1,0} parameter(0)\n"
                                     "  t = f32[6,4]{0,1} bitcast(a)\n"
                                     "  c = f32[6,4]{1,0} copy(t)\n"
                                     "  r = f32[24]{0} reshape(c)\n"
                                     "  ROOT r2 = f32[2,12]{1,0} reshape(r)\n}\n",
                                     "reshape-to-bitcast");
  if (m) {
    const Instr *root = m->entry->root;
    CHECK(root->op == OP_BITCAST && root->operands[0]->op == OP_COPY);
    CHECK(pc_count(m->entry, OP_BITCAST) == 2 && pc_count(m->entry, OP_RESHAPE) == 0);
    module_destroy(m);
  }
  m = pc_optimize_checked("HloModule m\n\nENTRY e {\n"
                          "  a = f32[4,6]{1,0} parameter(0)\n"
                          "  r = f32[24]{0} reshape(a)\n"
                          "  n = f32[24]{0} negate(r)\n"
                          "  ROOT b = f32[4,6]{1,0} reshape(n)\n}\n",
                          "reshape-to-bitcast");
  if (m) {
    CHECK(pc_count(m->entry, OP_BITCAST) == 2);
    module_destroy(m);
  }
  m = pc_optimize_checked("HloModule m\n\nENTRY e {\n"
                          "  a = f32[4,6]{1,0} parameter(0)\n"
                          "  r = f32[24]{0} reshape(a)\n"
                          "  b = f32[4,6]{1,0} reshape(r)\n"
                          "  ROOT n = f32[4,6]{1,0} negate(b)\n}\n",
                          "reshape-to-bitcast");
  if (m) {
    const Instr *root = m->entry->root;
    CHECK(root->op == OP_NEGATE && root->operands[0]->op == OP_PARAMETER);
    CHECK(pc_count(m->entry, OP_BITCAST) == 0 && pc_count(m->entry, OP_RESHAPE) == 0);
    module_destroy(m);
  }
}

/* Fused computations keep their reshapes (they cost nothing there). */
TEST(fused_computations_untouched) {
  const char *text = "HloModule m\n\n"
                     "fc {\n  p = f32[2,3]{1,0} parameter(0)\n"
                     "  ROOT r = f32[6]{0} reshape(p)\n}\n\n"
                     "ENTRY e {\n  a = f32[2,3]{1,0} parameter(0)\n"
                     "  ROOT f = f32[6]{0} fusion(a), kind=kLoop, calls=fc\n}\n";
  HloModule *m = pc_optimize_checked(text, "reshape-to-bitcast");
  if (!m) return;
  const Computation *fc = m->entry->root->called[0];
  CHECK(pc_count(fc, OP_RESHAPE) == 1 && pc_count(fc, OP_BITCAST) == 0);
  module_destroy(m);
}

TEST(corpus_layout_then_bitcast) {
  PcCorpusStats st;
  if (!pc_corpus(corpus_dir, "layout-assignment,reshape-to-bitcast", NULL, &st)) {
    printf("  corpus %s not found: skipped\n", corpus_dir);
    return;
  }
  printf("  corpus: %d modules verified of %d; values compared on %d, skipped on %d\n",
         st.verified, st.modules, st.compared, st.skipped);
  CHECK(st.modules > 0 && st.verified == st.modules);
}

int main(int argc, char **argv) {
  if (argc > 1) corpus_dir = argv[1];
  RUN(row_major_reshape_becomes_bitcast);
  RUN(degenerate_dims_ignored);
  RUN(non_row_major_stays_reshape);
  RUN(bitcast_chains_collapse);
  RUN(fused_computations_untouched);
  RUN(corpus_layout_then_bitcast);
  return test_summary("test_pass_bitcast");
}
