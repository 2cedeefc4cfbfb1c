/* Tests for layout assignment ("layout-assignment"): small HLO modules in,
 * the chosen layouts and inserted copies checked, the values compared
 * before and after on the interpreter; then every corpus module, which must
 * verify and compute the same values after the pass (and after layout
 * assignment followed by fusion, the pipeline's order).
 *
 *   test_pass_layout [corpus-dir]     (default tests/corpus)
 *
 * Layouts are minor_to_major lists; row-major is {rank-1, ..., 0}. */
#include <stdio.h>
#include <string.h>

#include "harness.h"
#include "pass_check.h"

static const char *corpus_dir = "tests/corpus";

static const int64_t RM2[] = {1, 0}, CM2[] = {0, 1}, RM4[] = {3, 2, 1, 0};
/* NCHW logical dims laid out NHWC physically: feature minor, then W, H, N. */
static const int64_t NHWC_OF_NCHW[] = {1, 3, 2, 0};

/* Every array shape of every instruction in c has a layout. */
static bool all_laid_out(const Computation *c) {
  for (int i = 0; i < c->ninstrs; i++) {
    const Shape *s = c->instrs[i]->shape;
    if (s->type != T_TUPLE && type_is_array(s->type) && !s->has_layout) return false;
  }
  return true;
}

/* A chain of elementwise ops without layouts comes out all row-major, with
 * nothing added. */
TEST(simple_chain_row_major) {
  const char *text =
      "HloModule chain\n\n"
      "ENTRY e {\n"
      "  x = f32[4,8] parameter(0)\n"
      "  y = f32[4,8] parameter(1)\n"
      "  a = f32[4,8] add(x, y)\n"
      "  zero = f32[] constant(0)\n"
      "  z = f32[4,8] broadcast(zero), dimensions={}\n"
      "  ROOT r = f32[4,8] maximum(a, z)\n"
      "}\n";
  HloModule *m = pc_optimize_checked(text, "layout-assignment");
  if (!m) return;
  const Computation *e = m->entry;
  CHECK(e->ninstrs == 6 && all_laid_out(e));
  for (int i = 0; i < e->ninstrs; i++) {
    const Shape *s = e->instrs[i]->shape;
    CHECK(s->rank == 0 || pc_layout_is(s, 2, RM2));
  }
  CHECK(pc_count(e, OP_COPY) == 0 && pc_count(e, OP_BITCAST) == 0);
  module_destroy(m);
}

/* A transpose feeding a dot is absorbed: it becomes a bitcast that reads
 * a's bytes as the column-major f32[4,8]{0,1}, and the dot takes that
 * operand as a transposed matrix; no data moves. */
TEST(transpose_into_dot_absorbed) {
  const char *text =
      "HloModule td\n\n"
      "ENTRY e {\n"
      "  a = f32[8,4] parameter(0)\n"
      "  b = f32[8,16] parameter(1)\n"
      "  at = f32[4,8] transpose(a), dimensions={1,0}\n"
      "  ROOT d = f32[4,16] dot(at, b), lhs_contracting_dims={1}, rhs_contracting_dims={0}\n"
      "}\n";
  HloModule *m = pc_optimize_checked(text, "layout-assignment");
  if (!m) return;
  const Computation *e = m->entry;
  CHECK(pc_count(e, OP_TRANSPOSE) == 0 && pc_count(e, OP_COPY) == 0);
  const Instr *d = e->root;
  CHECK(d->op == OP_DOT && d->operands[0]->op == OP_BITCAST);
  CHECK(pc_layout_is(d->operands[0]->shape, 2, CM2));
  CHECK(d->operands[0]->operands[0] == pc_named(e, "a"));
  CHECK(pc_layout_is(d->shape, 2, RM2));
  module_destroy(m);
}

/* A transposed value that a reshape needs row-major: the transpose is a
 * bitcast, and the data moves once, in a copy before the reshape. */
TEST(transpose_into_reshape_copies) {
  const char *text =
      "HloModule tr\n\n"
      "ENTRY e {\n"
      "  a = f32[2,3] parameter(0)\n"
      "  t = f32[3,2] transpose(a), dimensions={1,0}\n"
      "  ROOT r = f32[6] reshape(t)\n"
      "}\n";
  HloModule *m = pc_optimize_checked(text, "layout-assignment");
  if (!m) return;
  const Instr *r = m->entry->root;
  CHECK(r->op == OP_RESHAPE && r->operands[0]->op == OP_COPY);
  CHECK(pc_layout_is(r->operands[0]->shape, 2, RM2));
  CHECK(r->operands[0]->operands[0]->op == OP_BITCAST);
  CHECK(pc_count(m->entry, OP_COPY) == 1);
  module_destroy(m);
}

/* Copies that layout assignment adds take the least free names (copy,
 * copy.N: ones in the module skipped), and two users of one value in one
 * layout share its copy (Copies: an index by value and the names indexed
 * once, where a scan per copy and per name tried made 1000 copies take
 * 16 s). */
TEST(copies_named_least_free_and_shared) {
  const char *text =
      "HloModule cp\n\n"
      "ENTRY e {\n"
      "  p = f32[2,3]{0,1} parameter(0)\n"
      "  copy = f32[2,3]{0,1} negate(p)\n"
      "  copy.2 = f32[2,3]{0,1} abs(p)\n"
      "  a = f32[2,3]{0,1} add(p, copy)\n"
      "  r1 = f32[6]{0} reshape(a)\n"
      "  r2 = f32[6]{0} reshape(copy.2)\n"
      "  r3 = f32[6]{0} reshape(copy)\n"
      "  r4 = f32[3,2]{1,0} reshape(a)\n"
      "  ROOT t = (f32[6]{0}, f32[6]{0}, f32[6]{0}, f32[3,2]{1,0}) tuple(r1, r2, r3, r4)\n"
      "}\n";
  HloModule *m = pc_optimize_checked(text, "layout-assignment");
  if (!m) return;
  const char *want[][2] = {{"r1", "copy.1"}, {"r2", "copy.3"}, {"r3", "copy.4"}, {"r4", "copy.1"}};
  for (int k = 0; k < 4; k++) {
    const Instr *r = comp_find_instr(m->entry, want[k][0]);
    const Instr *x = r ? r->operands[0] : NULL;
    CHECK(x && x->op == OP_COPY && strcmp(x->name, want[k][1]) == 0);
    if (x && strcmp(x->name, want[k][1])) fprintf(stderr, "  %s reads %s, want %s\n", want[k][0], x->name, want[k][1]);
  }
  CHECK(pc_count(m->entry, OP_COPY) == 3);
  module_destroy(m);
}

/* A bitcast already in the module keeps its meaning: it was written against
 * a row-major operand, so when that operand (a transpose, now a bitcast
 * with layout {0,1}) changes layout, a copy restores row-major for it. */
TEST(existing_bitcast_keeps_meaning) {
  const char *text =
      "HloModule bc\n\n"
      "ENTRY e {\n"
      "  p = f32[2,3]{1,0} parameter(0)\n"
      "  t = f32[3,2]{1,0} transpose(p), dimensions={1,0}\n"
      "  ROOT b = f32[6]{0} bitcast(t)\n"
      "}\n";
  HloModule *m = pc_optimize_checked(text, "layout-assignment");
  if (!m) return;
  const Instr *b = m->entry->root;
  CHECK(b->op == OP_BITCAST && b->operands[0]->op == OP_COPY);
  CHECK(pc_layout_is(b->operands[0]->shape, 2, RM2));
  module_destroy(m);
}

static const char *kConvNhwc =
    "HloModule cnhwc\n\n"
    "ENTRY e {\n"
    "  x = f32[2,6,6,3] parameter(0)\n"
    "  k1 = f32[3,3,3,4] parameter(1)\n"
    "  b1 = f32[4] parameter(2)\n"
    "  k2 = f32[3,3,4,5] parameter(3)\n"
    "  c1 = f32[2,6,6,4] convolution(x, k1), window={size=3x3 pad=1_1x1_1}, "
    "dim_labels=b01f_01io->b01f\n"
    "  bb = f32[2,6,6,4] broadcast(b1), dimensions={3}\n"
    "  s = f32[2,6,6,4] add(c1, bb)\n"
    "  zero = f32[] constant(0)\n"
    "  zb = f32[2,6,6,4] broadcast(zero), dimensions={}\n"
    "  r = f32[2,6,6,4] maximum(s, zb)\n"
    "  ROOT c2 = f32[2,6,6,5] convolution(r, k2), window={size=3x3 pad=1_1x1_1}, "
    "dim_labels=b01f_01io->b01f\n"
    "}\n";

/* NHWC convolutions with a bias and relu between them: everything is
 * row-major (NHWC physically), nothing is copied or transposed. */
TEST(conv_nhwc_chain_no_copies) {
  HloModule *m = pc_optimize_checked(kConvNhwc, "layout-assignment");
  if (!m) return;
  const Computation *e = m->entry;
  CHECK(pc_count(e, OP_COPY) == 0 && pc_count(e, OP_TRANSPOSE) == 0);
  CHECK(pc_count(e, OP_BITCAST) == 0);
  for (int i = 0; i < e->ninstrs; i++) {
    const Shape *s = e->instrs[i]->shape;
    CHECK(s->rank != 4 || pc_layout_is(s, 4, RM4));
  }
  module_destroy(m);
}

/* The same network written NCHW (bf01 / oi01): the convolutions keep their
 * data NHWC physically (layout {1,3,2,0}), the bias add and relu between
 * them follow that layout, so the second convolution reads the relu
 * directly. Copies appear only where the module meets the outside: the
 * row-major NCHW input, the two OIHW kernels, the row-major result. */
TEST(conv_nchw_chain_keeps_layout) {
  const char *text =
      "HloModule cnchw\n\n"
      "ENTRY e {\n"
      "  x = f32[2,3,6,6] parameter(0)\n"
      "  k1 = f32[4,3,3,3] parameter(1)\n"
      "  b1 = f32[4] parameter(2)\n"
      "  k2 = f32[5,4,3,3] parameter(3)\n"
      "  c1 = f32[2,4,6,6] convolution(x, k1), window={size=3x3 pad=1_1x1_1}, "
      "dim_labels=bf01_oi01->bf01\n"
      "  bb = f32[2,4,6,6] broadcast(b1), dimensions={1}\n"
      "  s = f32[2,4,6,6] add(c1, bb)\n"
      "  zero = f32[] constant(0)\n"
      "  zb = f32[2,4,6,6] broadcast(zero), dimensions={}\n"
      "  r = f32[2,4,6,6] maximum(s, zb)\n"
      "  ROOT c2 = f32[2,5,6,6] convolution(r, k2), window={size=3x3 pad=1_1x1_1}, "
      "dim_labels=bf01_oi01->bf01\n"
      "}\n";
  HloModule *m = pc_optimize_checked(text, "layout-assignment");
  if (!m) return;
  const Computation *e = m->entry;
  const char *nhwc[] = {"c1", "bb", "s", "zb", "r", "c2"};
  for (int i = 0; i < 6; i++) {
    const Instr *in = pc_named(e, nhwc[i]);
    CHECK(in && pc_layout_is(in->shape, 4, NHWC_OF_NCHW));
  }
  const Instr *c2 = pc_named(e, "c2");
  CHECK(c2->operands[0] == pc_named(e, "r"));
  CHECK(pc_count(e, OP_COPY) == 4 && pc_count(e, OP_TRANSPOSE) == 0);
  CHECK(e->root->op == OP_COPY && e->root->operands[0] == c2);
  CHECK(pc_layout_is(e->root->shape, 4, RM4));
  module_destroy(m);
}

/* A ResNet block's weight gradient as JAX writes it (XLA's filter
 * gradient: the images contracted, a 56x56 window over the 56x56
 * activations padded by 1, a 3x3 output; here 10x10), reading the NHWC activations and
 * the NHWC output gradient, which the forward convolution and the
 * elementwise ops leave row-major: the filter gradient wants its lhs batch
 * (the channels) and its rhs output features (the gradient's channels)
 * minor, which is exactly that, so nothing is copied. A convolution that
 * is not a filter gradient (stride 2) over the same operands still gets
 * its NHWC copies. The values are checked on the interpreter. */
TEST(filter_gradient_reads_nhwc_without_copies) {
  const char *text =
      "HloModule wg\n\n"
      "ENTRY e {\n"
      "  x = f32[2,10,10,3] parameter(0)\n"
      "  k = f32[3,3,3,4] parameter(1)\n"
      "  g = f32[2,10,10,4] parameter(2)\n"
      "  y = f32[2,10,10,4] convolution(x, k), window={size=3x3 pad=1_1x1_1}, dim_labels=b01f_01io->b01f\n"
      "  dy = f32[2,10,10,4] multiply(y, g)\n"
      "  ROOT dk = f32[3,3,3,4] convolution(x, dy), window={size=10x10 pad=1_1x1_1}, "
      "dim_labels=f01b_i01o->01bf\n"
      "}\n";
  HloModule *m = pc_optimize_checked(text, "layout-assignment");
  if (!m) return;
  const Computation *e = m->entry;
  CHECK(pc_count(e, OP_COPY) == 0 && pc_count(e, OP_TRANSPOSE) == 0);
  const Instr *dk = e->root;
  CHECK(dk->op == OP_CONVOLUTION && dk->operands[0] == pc_named(e, "x") && dk->operands[1] == pc_named(e, "dy"));
  CHECK(pc_layout_is(pc_named(e, "x")->shape, 4, RM4) && pc_layout_is(pc_named(e, "dy")->shape, 4, RM4));
  module_destroy(m);

  /* stride 2: an ordinary convolution in f01b / i01o labels, whose NHWC
   * wants the images minor: copies of both operands */
  const char *strided =
      "HloModule wg2\n\n"
      "ENTRY e {\n"
      "  x = f32[2,6,6,3] parameter(0)\n"
      "  dy = f32[2,6,6,4] parameter(1)\n"
      "  ROOT dk = f32[2,2,3,4] convolution(x, dy), window={size=6x6 stride=2x2 pad=1_1x1_1}, "
      "dim_labels=f01b_i01o->01bf\n"
      "}\n";
  m = pc_optimize_checked(strided, "layout-assignment");
  if (!m) return;
  CHECK(pc_count(m->entry, OP_COPY) >= 2);
  module_destroy(m);
}

/* entry_computation_layout decides the parameters' and the result's
 * layouts: a column-major parameter flows through the elementwise op, and
 * the result is copied only when the layout asks for another one. */
TEST(entry_layout_honoured) {
  const char *same =
      "HloModule el, entry_computation_layout={(f32[4,8]{0,1})->f32[4,8]{0,1}}\n\n"
      "ENTRY e {\n"
      "  x = f32[4,8] parameter(0)\n"
      "  ROOT n = f32[4,8] negate(x)\n"
      "}\n";
  HloModule *m = pc_optimize_checked(same, "layout-assignment");
  if (m) {
    CHECK(pc_layout_is(m->entry->params[0]->shape, 2, CM2));
    CHECK(m->entry->root->op == OP_NEGATE && pc_layout_is(m->entry->root->shape, 2, CM2));
    CHECK(pc_count(m->entry, OP_COPY) == 0);
    module_destroy(m);
  }
  const char *other =
      "HloModule el2, entry_computation_layout={(f32[4,8]{1,0})->f32[4,8]{0,1}}\n\n"
      "ENTRY e {\n"
      "  x = f32[4,8] parameter(0)\n"
      "  ROOT n = f32[4,8] negate(x)\n"
      "}\n";
  m = pc_optimize_checked(other, "layout-assignment");
  if (m) {
    CHECK(pc_layout_is(m->entry->params[0]->shape, 2, RM2));
    CHECK(m->entry->root->op == OP_COPY && pc_layout_is(m->entry->root->shape, 2, CM2));
    CHECK(pc_layout_is(m->entry->root->operands[0]->shape, 2, RM2));
    module_destroy(m);
  }
}

/* A while loop: the state's layout is the same for the operand, the body's
 * parameter and root, the condition's parameter and the result. */
TEST(while_state_consistent) {
  const char *text =
      "HloModule loop\n\n"
      "cond {\n  p = (s32[], f32[2,3]) parameter(0)\n  i = s32[] get-tuple-element(p), index=0\n"
      "  k = s32[] constant(3)\n  ROOT lt = pred[] compare(i, k), direction=LT\n}\n\n"
      "body {\n  p = (s32[], f32[2,3]) parameter(0)\n  i = s32[] get-tuple-element(p), index=0\n"
      "  v = f32[2,3] get-tuple-element(p), index=1\n  one = s32[] constant(1)\n"
      "  i1 = s32[] add(i, one)\n  vt = f32[3,2] transpose(v), dimensions={1,0}\n"
      "  back = f32[2,3] transpose(vt), dimensions={1,0}\n  a = f32[2,3] add(back, v)\n"
      "  ROOT t = (s32[], f32[2,3]) tuple(i1, a)\n}\n\n"
      "ENTRY e {\n  x = f32[2,3] parameter(0)\n  z = s32[] constant(0)\n"
      "  t = (s32[], f32[2,3]) tuple(z, x)\n"
      "  w = (s32[], f32[2,3]) while(t), condition=cond, body=body\n"
      "  ROOT r = f32[2,3] get-tuple-element(w), index=1\n}\n";
  HloModule *m = pc_optimize_checked(text, "layout-assignment");
  if (!m) return;
  const Computation *body = module_find_computation(m, "body");
  const Computation *cond = module_find_computation(m, "cond");
  const Shape *state = body->params[0]->shape;
  CHECK(shape_equal(state, body->root->shape, true));
  CHECK(shape_equal(state, cond->params[0]->shape, true));
  const Instr *w = pc_named(m->entry, "w");
  CHECK(shape_equal(state, w->shape, true) && shape_equal(state, w->operands[0]->shape, true));
  CHECK(pc_layout_is(state->tuple[1], 2, RM2));
  /* transpose(transpose(v)) is two bitcasts back to row-major: free. */
  CHECK(pc_count(body, OP_TRANSPOSE) == 0 && pc_count(body, OP_COPY) == 0);
  module_destroy(m);
}

/* Layout assignment then fusion: the first convolution takes its bias and
 * relu as an output fusion; the second, the root, has no epilogue. */
TEST(layout_then_fusion) {
  HloModule *m = pc_optimize_checked(kConvNhwc, "layout-assignment,fusion");
  if (!m) return;
  CHECK(pc_count(m->entry, OP_CONVOLUTION) == 1 && m->entry->root->op == OP_CONVOLUTION);
  CHECK(pc_count(m->entry, OP_FUSION) == 1);
  const Instr *f = pc_find(m->entry, OP_FUSION, 0);
  CHECK(f && f->fusion_kind == FUSION_OUTPUT && m->entry->root->operands[0] == f);
  module_destroy(m);
}

/* Out of memory at every allocation of the pass: an error, never a crash
 * or a leak. */
TEST(out_of_memory) {
  pc_oom_sweep(kConvNhwc, "layout-assignment");
  const char *text =
      "HloModule el, entry_computation_layout={(f32[2,3]{0,1})->(f32[3,2]{1,0}, f32[6]{0})}\n\n"
      "ENTRY e {\n"
      "  p = f32[2,3] parameter(0)\n"
      "  t = f32[3,2] transpose(p), dimensions={1,0}\n"
      "  r = f32[6] reshape(t)\n"
      "  ROOT o = (f32[3,2], f32[6]) tuple(t, r)\n"
      "}\n";
  pc_oom_sweep(text, "layout-assignment");
}

TEST(corpus_layout) {
  static const char *const pipelines[] = {"layout-assignment",
                                          "layout-assignment,fusion,multi-output-fusion"};
  for (int i = 0; i < 2; i++) {
    PcCorpusStats st;
    if (!pc_corpus(corpus_dir, pipelines[i], NULL, &st)) {
      SKIP("corpus %s not found", corpus_dir);
      return;
    }
    printf("  corpus, %s: %d of %d modules verified; values compared on %d, skipped on %d\n",
           pipelines[i], st.verified, st.modules, st.compared, st.skipped);
    CHECK(st.modules > 0 && st.verified == st.modules);
  }
}

int main(int argc, char **argv) {
  if (argc > 1) corpus_dir = argv[1];
  RUN(simple_chain_row_major);
  RUN(transpose_into_dot_absorbed);
  RUN(transpose_into_reshape_copies);
  RUN(copies_named_least_free_and_shared);
  RUN(existing_bitcast_keeps_meaning);
  RUN(conv_nhwc_chain_no_copies);
  RUN(conv_nchw_chain_keeps_layout);
  RUN(filter_gradient_reads_nhwc_without_copies);
  RUN(entry_layout_honoured);
  RUN(while_state_consistent);
  RUN(layout_then_fusion);
  RUN(out_of_memory);
  RUN(corpus_layout);
  printf("  values compared in %d module pairs, skipped in %d (interpreter lacks an op)\n",
         pc_value_checks, pc_value_skips);
  return test_summary("test_pass_layout");
}
