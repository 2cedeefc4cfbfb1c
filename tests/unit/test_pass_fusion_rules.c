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

/* The fused computation of the entry's only fusion, or NULL. */
static const Computation *only_fusion(const HloModule *m) {
  if (nfusions(m->entry) != 1) return NULL;
  return pc_find(m->entry, OP_FUSION, 0)->called[0];
}

/* tanh-GELU, as jax.nn.gelu(approximate=True) writes it: every constant
 * broadcast, 20 elementwise ops. XLA fuses it into one kernel; the old
 * 64-instruction cap and a materialized broadcast cut it apart. A longer
 * polynomial (the erf of the exact GELU, 48 multiply-adds) is one fusion
 * too: its evaluations count is 1 everywhere. */
TEST(gelu_is_one_fusion) {
  const char *text =
      "HloModule gelu\n\n"
      "ENTRY e {\n"
      "  x = f32[8,64] parameter(0)\n"
      "  c3 = f32[] constant(3)\n  b3 = f32[8,64] broadcast(c3), dimensions={}\n"
      "  x3 = f32[8,64] power(x, b3)\n"
      "  k = f32[] constant(0.044715)\n  bk = f32[8,64] broadcast(k), dimensions={}\n"
      "  t1 = f32[8,64] multiply(bk, x3)\n  t2 = f32[8,64] add(x, t1)\n"
      "  s = f32[] constant(0.7978846)\n  bs = f32[8,64] broadcast(s), dimensions={}\n"
      "  t3 = f32[8,64] multiply(bs, t2)\n  t4 = f32[8,64] tanh(t3)\n"
      "  one = f32[] constant(1)\n  b1 = f32[8,64] broadcast(one), dimensions={}\n"
      "  t5 = f32[8,64] add(b1, t4)\n"
      "  h = f32[] constant(0.5)\n  bh = f32[8,64] broadcast(h), dimensions={}\n"
      "  t6 = f32[8,64] multiply(bh, t5)\n"
      "  ROOT r = f32[8,64] multiply(x, t6)\n"
      "}\n";
  HloModule *m = pc_optimize_checked(text, "fusion");
  if (!m) return;
  const Computation *fc = only_fusion(m);
  CHECK(fc && m->entry->ninstrs == 2);
  CHECK(fc && pc_count(fc, OP_BROADCAST) == 5 && pc_count(fc, OP_TANH) == 1);
  module_destroy(m);
  /* Horner's rule over 48 coefficients: 96 ops and 48 broadcasts. */
  size_t cap = 32768, len = 0;
  char *t = malloc(cap);
  len += (size_t)snprintf(t + len, cap - len,
                          "HloModule poly\n\nENTRY e {\n  x = f32[16] parameter(0)\n"
                          "  c0 = f32[] constant(0.5)\n  a0 = f32[16] broadcast(c0), dimensions={}\n");
  for (int i = 1; i <= 48; i++)
    len += (size_t)snprintf(t + len, cap - len,
                            "  m%d = f32[16] multiply(a%d, x)\n  c%d = f32[] constant(%d)\n"
                            "  k%d = f32[16] broadcast(c%d), dimensions={}\n"
                            "  %sa%d = f32[16] add(m%d, k%d)\n",
                            i, i - 1, i, i, i, i, i == 48 ? "ROOT " : "", i, i, i);
  snprintf(t + len, cap - len, "}\n");
  m = pc_optimize_checked(t, "fusion");
  free(t);
  if (!m) return;
  fc = only_fusion(m);
  CHECK(fc && fusion_size(fc) > 64 && pc_count(fc, OP_MULTIPLY) == 48);
  CHECK(pc_count(m->entry, OP_BROADCAST) == 0);
  module_destroy(m);
}

/* A cheap producer with two operands (not free to duplicate) and two
 * users that both fuse: copied into both, never materialized (XLA's
 * ComputeGloballyUnfusible lets it through). */
TEST(cheap_producer_copied_into_all_users) {
  const char *text =
      "HloModule dup\n\n"
      "ENTRY e {\n"
      "  x = f32[8] parameter(0)\n"
      "  y = f32[8] parameter(1)\n"
      "  a = f32[8] add(x, y)\n"
      "  n = f32[8] negate(a)\n"
      "  m = f32[8] multiply(a, y)\n"
      "  ROOT t = (f32[8], f32[8]) tuple(n, m)\n"
      "}\n";
  HloModule *m = pc_optimize_checked(text, "fusion");
  if (!m) return;
  CHECK(nfusions(m->entry) == 2 && pc_count(m->entry, OP_ADD) == 0);
  CHECK(pc_count_module(m, OP_ADD) == 2); /* one copy in each fusion */
  module_destroy(m);
}

/* Must not: one user of the cheap producer cannot fuse it (a sort), so
 * the producer is computed once and read by both. Nor is an expensive
 * producer with two users ever copied. */
TEST(producer_with_unfusible_user_not_copied) {
  const char *text =
      "HloModule nodup\n\n"
      "lt {\n  a = f32[] parameter(0)\n  b = f32[] parameter(1)\n"
      "  ROOT c = pred[] compare(a, b), direction=LT\n}\n\n"
      "ENTRY e {\n"
      "  x = f32[8] parameter(0)\n"
      "  y = f32[8] parameter(1)\n"
      "  a = f32[8] add(x, y)\n"
      "  s = f32[8] sort(a), dimensions={0}, to_apply=lt\n"
      "  m = f32[8] multiply(a, y)\n"
      "  n = f32[8] negate(m)\n"
      "  ROOT t = (f32[8], f32[8]) tuple(s, n)\n"
      "}\n";
  HloModule *m = pc_optimize_checked(text, "fusion");
  if (!m) return;
  CHECK(pc_count(m->entry, OP_ADD) == 1 && pc_count_module(m, OP_ADD) == 1);
  module_destroy(m);
  const char *text2 =
      "HloModule nodup2\n\n"
      "ENTRY e {\n"
      "  x = f32[8] parameter(0)\n"
      "  a = f32[8] exponential(x)\n"
      "  n = f32[8] negate(a)\n"
      "  m = f32[8] multiply(a, x)\n"
      "  ROOT t = (f32[8], f32[8]) tuple(n, m)\n"
      "}\n";
  m = pc_optimize_checked(text2, "fusion");
  if (!m) return;
  CHECK(pc_count_module(m, OP_EXP) == 1 && pc_count(m->entry, OP_EXP) == 1);
  module_destroy(m);
}

/* Code duplication: a value read through n slices is evaluated n times
 * by an elemental emitter. Up to FUSION_MAX_EVALUATIONS (15) it fuses;
 * with 16 slices it stays outside (XLA's CodeDuplicationTooHigh). */
static HloModule *slices_of_sum(int n) {
  size_t cap = 8192, len = 0;
  char *t = malloc(cap);
  len += (size_t)snprintf(t + len, cap - len,
                          "HloModule sl\n\nENTRY e {\n  x = f32[%d] parameter(0)\n"
                          "  y = f32[%d] parameter(1)\n  a = f32[%d] add(x, y)\n",
                          2 * n, 2 * n, 2 * n);
  for (int i = 0; i < n; i++)
    len += (size_t)snprintf(t + len, cap - len, "  sl%d = f32[2] slice(a), slice={[%d:%d]}\n", i,
                            2 * i, 2 * i + 2);
  len += (size_t)snprintf(t + len, cap - len, "  r0 = f32[2] negate(sl0)\n");
  for (int i = 1; i < n; i++)
    len += (size_t)snprintf(t + len, cap - len, "  %sr%d = f32[2] multiply(r%d, sl%d)\n",
                            i == n - 1 ? "ROOT " : "", i, i - 1, i);
  snprintf(t + len, cap - len, "}\n");
  HloModule *m = pc_optimize_checked(t, "fusion");
  free(t);
  return m;
}

TEST(code_duplication_limit) {
  HloModule *m = slices_of_sum(15);
  if (m) {
    const Computation *fc = only_fusion(m);
    CHECK(fc && pc_count(fc, OP_ADD) == 1 && pc_count(fc, OP_SLICE) == 15);
    module_destroy(m);
  }
  m = slices_of_sum(16);
  if (m) {
    CHECK(pc_count(m->entry, OP_ADD) == 1); /* computed once, outside */
    const Computation *fc = only_fusion(m);
    CHECK(fc && pc_count(fc, OP_SLICE) == 16 && pc_count(fc, OP_ADD) == 0);
    module_destroy(m);
  }
}

/* add(x, y) (cheap, not free to copy) read by n users, each its own
 * fusion: directly (n users of a), or through a negate with n users
 * (copied at no memory cost, each copy making a an operand of one more
 * fusion). */
static HloModule *fanout(int n, bool through_neg) {
  size_t cap = 8192, len = 0;
  char *t = malloc(cap);
  len += (size_t)snprintf(t + len, cap - len,
                          "HloModule fan\n\nENTRY e {\n  x = f32[8] parameter(0)\n"
                          "  y = f32[8] parameter(1)\n  a = f32[8] add(x, y)\n%s",
                          through_neg ? "  s = f32[8] negate(a)\n" : "");
  for (int i = 0; i < n; i++)
    len += (size_t)snprintf(t + len, cap - len,
                            "  q%d = f32[8] parameter(%d)\n  u%d = f32[8] multiply(%s, q%d)\n", i,
                            i + 2, i, through_neg ? "s" : "a", i);
  len += (size_t)snprintf(t + len, cap - len, "  ROOT t = (");
  for (int i = 0; i < n; i++) len += (size_t)snprintf(t + len, cap - len, "%sf32[8]", i ? "," : "");
  len += (size_t)snprintf(t + len, cap - len, ") tuple(");
  for (int i = 0; i < n; i++) len += (size_t)snprintf(t + len, cap - len, "%su%d", i ? "," : "", i);
  snprintf(t + len, cap - len, ")\n}\n");
  HloModule *m = pc_optimize_checked(t, "fusion");
  free(t);
  return m;
}

/* Copies are bounded (FUSION_MAX_COPIES = 12 fusions per instruction):
 * 12 users each take a copy of a, 13 users read it from memory, computed
 * once. Through the negate (free to copy, yet bounded like a: each copy
 * makes a an operand of one more fusion), 12 users take a copy of both;
 * the other two read the negate, computed once, with a, in a fusion of
 * its own. */
TEST(copies_bounded) {
  HloModule *m = fanout(12, false);
  if (m) {
    CHECK(nfusions(m->entry) == 12 && pc_count(m->entry, OP_ADD) == 0);
    CHECK(pc_count_module(m, OP_ADD) == 12);
    module_destroy(m);
  }
  m = fanout(13, false);
  if (m) {
    CHECK(pc_count(m->entry, OP_ADD) == 1 && pc_count_module(m, OP_ADD) == 1);
    module_destroy(m);
  }
  m = fanout(12, true);
  if (m) {
    CHECK(pc_count(m->entry, OP_ADD) == 0 && pc_count_module(m, OP_ADD) == 12);
    CHECK(pc_count(m->entry, OP_NEGATE) == 0 && pc_count_module(m, OP_NEGATE) == 12);
    module_destroy(m);
  }
  m = fanout(14, true);
  if (m) {
    CHECK(pc_count(m->entry, OP_ADD) == 0 && pc_count_module(m, OP_ADD) == 13);
    CHECK(pc_count(m->entry, OP_NEGATE) == 0 && pc_count_module(m, OP_NEGATE) == 13);
    module_destroy(m);
  }
}

/* A chain whose every value a reduction also reads, x' = f(-(x * x)),
 * r = sum(-(x * x)), every r a result (gen_scale's `comps` after its
 * loops are unrolled): copies of the chain into each reduction's fusion
 * are bounded. A sine (expensive in cxla: tens of instructions) is never
 * copied; the multiply and negate (free to copy) into at most
 * FUSION_MAX_COPIES fusions: not the whole prefix into every reduction's
 * fusion (40 groups: 820 of each). */
static HloModule *chain_of_reductions(int groups, const char *f) {
  size_t cap = 16384, len = 0;
  char *t = malloc(cap);
  len += (size_t)snprintf(t + len, cap - len,
                          "HloModule chain\n\nsum {\n  a = f32[] parameter(0)\n  b = f32[] parameter(1)\n"
                          "  ROOT s = f32[] add(a, b)\n}\n\nENTRY e {\n  x0 = f32[16] parameter(0)\n"
                          "  z = f32[] constant(0)\n");
  for (int g = 0; g < groups; g++)
    len += (size_t)snprintf(t + len, cap - len,
                            "  m%d = f32[16] multiply(x%d, x%d)\n  n%d = f32[16] negate(m%d)\n"
                            "  r%d = f32[] reduce(n%d, z), dimensions={0}, to_apply=sum\n  x%d = f32[16] %s(n%d)\n",
                            g, g, g, g, g, g, g, g + 1, f, g);
  len += (size_t)snprintf(t + len, cap - len, "  ROOT out = (f32[16]");
  for (int g = 0; g < groups; g++) len += (size_t)snprintf(t + len, cap - len, ", f32[]");
  len += (size_t)snprintf(t + len, cap - len, ") tuple(x%d", groups);
  for (int g = 0; g < groups; g++) len += (size_t)snprintf(t + len, cap - len, ", r%d", g);
  snprintf(t + len, cap - len, ")\n}\n");
  HloModule *m = pc_optimize_checked(t, "fusion");
  free(t);
  return m;
}

TEST(chain_of_reductions_bounded) {
  HloModule *m = chain_of_reductions(40, "sine");
  if (m) {
    CHECK(pc_count_module(m, OP_SIN) == 40);
    CHECK(pc_count_module(m, OP_MULTIPLY) <= 40 * (FUSION_MAX_COPIES + 1));
    module_destroy(m);
  }
  m = chain_of_reductions(40, "exponential");
  if (m) {
    CHECK(pc_count_module(m, OP_EXP) == 40);
    CHECK(pc_count_module(m, OP_MULTIPLY) <= 40 * (FUSION_MAX_COPIES + 1));
    module_destroy(m);
  }
  m = chain_of_reductions(40, "negate");
  if (m) {
    CHECK(pc_count_module(m, OP_MULTIPLY) <= 40 * (FUSION_MAX_COPIES + 1));
    CHECK(pc_count_module(m, OP_NEGATE) <= 2 * 40 * (FUSION_MAX_COPIES + 1));
    module_destroy(m);
  }
}

/* jnp.take's index clamp (cheap, two operands) shared by two gathers:
 * copied into both gather fusions, no kernel of its own. */
TEST(gather_index_clamp_fused) {
  const char *text =
      "HloModule take\n\n"
      "ENTRY e {\n"
      "  x = f32[10,4] parameter(0)\n"
      "  i = s32[6] parameter(1)\n"
      "  lo = s32[] constant(0)\n  blo = s32[6] broadcast(lo), dimensions={}\n"
      "  hi = s32[] constant(9)\n  bhi = s32[6] broadcast(hi), dimensions={}\n"
      "  c = s32[6] clamp(blo, i, bhi)\n"
      "  r = s32[6,1] reshape(c)\n"
      "  g1 = f32[6,4] gather(x, r), offset_dims={1}, collapsed_slice_dims={0}, "
      "start_index_map={0}, index_vector_dim=1, slice_sizes={1,4}\n"
      "  g2 = f32[6,2] gather(x, r), offset_dims={1}, collapsed_slice_dims={0}, "
      "start_index_map={0}, index_vector_dim=1, slice_sizes={1,2}\n"
      "  ROOT t = (f32[6,4], f32[6,2]) tuple(g1, g2)\n"
      "}\n";
  HloModule *m = pc_optimize_checked(text, "fusion");
  if (!m) return;
  CHECK(nfusions(m->entry) == 2 && pc_count(m->entry, OP_CLAMP) == 0);
  CHECK(pc_count_module(m, OP_CLAMP) == 2);
  module_destroy(m);
}

/* A producer copied into every user dies, and so does what only it read:
 * no fusion without users is left behind. */
TEST(no_dead_fusions) {
  const char *text =
      "HloModule dead\n\n"
      "ENTRY e {\n"
      "  x = f32[8] parameter(0)\n"
      "  y = f32[8] parameter(1)\n"
      "  a = f32[8] add(x, y)\n"
      "  b = f32[8] multiply(a, a)\n"
      "  c = f32[8] subtract(a, b)\n"
      "  d = f32[8] add(b, c)\n"
      "  ROOT r = f32[8] multiply(d, c)\n"
      "}\n";
  HloModule *m = pc_optimize_checked(text, "fusion");
  if (!m) return;
  CHECK(m->entry->ninstrs == 3 && nfusions(m->entry) == 1);
  module_destroy(m);
}

#define ARGMAX_COMP                                                            \
  "amax {\n"                                                                   \
  "  a = f32[] parameter(0)\n  ai = s32[] parameter(1)\n"                       \
  "  b = f32[] parameter(2)\n  bi = s32[] parameter(3)\n"                       \
  "  gt = pred[] compare(a, b), direction=GT\n"                                 \
  "  v = f32[] select(gt, a, b)\n  i = s32[] select(gt, ai, bi)\n"              \
  "  ROOT t = (f32[], s32[]) tuple(v, i)\n}\n\n"

/* argmax: the iota of indices fuses into the variadic reduce (XLA's
 * iota_reduce_fusion); the index is read back with get-tuple-element. And
 * must not: multi-output fusion never merges that fusion with a sibling
 * reading the same input (its results are not root tuple elements). */
TEST(variadic_reduce_takes_iota) {
  const char *text =
      "HloModule argmax\n\n" ARGMAX_COMP
      "add {\n  a = f32[] parameter(0)\n  b = f32[] parameter(1)\n"
      "  ROOT s = f32[] add(a, b)\n}\n\n"
      "ENTRY e {\n"
      "  x = f32[5,7] parameter(0)\n"
      "  io = s32[5,7] iota(), iota_dimension=1\n"
      "  ninf = f32[] constant(-inf)\n"
      "  z = s32[] constant(0)\n"
      "  r = (f32[5], s32[5]) reduce(x, io, ninf, z), dimensions={1}, to_apply=amax\n"
      "  idx = s32[5] get-tuple-element(r), index=1\n"
      "  zf = f32[] constant(0)\n"
      "  sq = f32[5,7] multiply(x, x)\n"
      "  s = f32[5] reduce(sq, zf), dimensions={1}, to_apply=add\n"
      "  ROOT t = (s32[5], f32[5]) tuple(idx, s)\n"
      "}\n";
  HloModule *m = pc_optimize_checked(text, "fusion,multi-output-fusion");
  if (!m) return;
  const Computation *e = m->entry;
  CHECK(pc_count(e, OP_IOTA) == 0 && pc_count(e, OP_REDUCE) == 0 && nfusions(e) == 2);
  const Instr *f = NULL;
  for (int i = 0; i < e->ninstrs; i++)
    if (e->instrs[i]->op == OP_FUSION && e->instrs[i]->shape->type == T_TUPLE) f = e->instrs[i];
  CHECK(f && f->called[0]->root->op == OP_REDUCE && pc_count(f->called[0], OP_IOTA) == 1);
  CHECK(f && f->fusion_kind == FUSION_INPUT);
  module_destroy(m);
}

/* The default pipeline on a tuple result whose layout differs from the
 * computation's (the entry layout asks for column-major): the layout copy
 * fuses with the elementwise op that produces the value (the tuple and
 * get-tuple-element that layout assignment conforms through are forwarded
 * first), so no copy is a kernel of its own. */
TEST(layout_copy_fuses_with_producer) {
  const char *text =
      "HloModule lc, entry_computation_layout={(f32[6,6]{1,0}, f32[6,6]{1,0})->"
      "(f32[6,6]{0,1}, f32[6,6]{1,0})}\n\n"
      "ENTRY e {\n"
      "  a = f32[6,6]{1,0} parameter(0)\n"
      "  b = f32[6,6]{1,0} parameter(1)\n"
      "  s = f32[6,6]{1,0} add(a, b)\n"
      "  n = f32[6,6]{1,0} negate(b)\n"
      "  ROOT t = (f32[6,6]{0,1}, f32[6,6]{1,0}) tuple(s, n)\n"
      "}\n";
  HloModule *before, *m;
  if (!pc_parse_two(text, &before, &m)) return;
  PipelineOptions o = {true, NULL, 1};
  cxla_status st = pipeline_run(m, NULL, 0, &o);
  CHECK(!st);
  cxla_status_free(st);
  CHECK(pc_same_values(before, m) != 0);
  CHECK(pc_count(m->entry, OP_COPY) == 0 && pc_count(m->entry, OP_ADD) == 0);
  const Computation *fc = only_fusion(m);
  CHECK(fc && pc_count(fc, OP_COPY) == 1 && pc_count(fc, OP_ADD) == 1);
  module_destroy(before);
  module_destroy(m);
}

#define ADD_COMP                                                                \
  "add {\n  a = f32[] parameter(0)\n  b = f32[] parameter(1)\n"                  \
  "  ROOT s = f32[] add(a, b)\n}\n\n"

/* exp(-x) has two users (its row sum and the root tuple) and is
 * expensive, so instruction fusion keeps it apart; producer-consumer
 * multi-output fusion computes it in the row-sum kernel, which writes both
 * (one kernel instead of two). */
TEST(producer_consumer_multi_output) {
  const char *text =
      "HloModule pc\n\n" ADD_COMP
      "ENTRY e {\n"
      "  x = f32[8,16] parameter(0)\n"
      "  n = f32[8,16] negate(x)\n"
      "  ex = f32[8,16] exponential(n)\n"
      "  z = f32[] constant(0)\n"
      "  sm = f32[8] reduce(ex, z), dimensions={1}, to_apply=add\n"
      "  ROOT t = (f32[8,16], f32[8]) tuple(ex, sm)\n"
      "}\n";
  HloModule *m = pc_optimize_checked(text, "fusion,multi-output-fusion");
  if (!m) return;
  const Computation *e = m->entry;
  CHECK(pc_count(e, OP_REDUCE) == 0 && nfusions(e) == 1);
  const Instr *mo = NULL;
  for (int i = 0; i < e->ninstrs; i++)
    if (e->instrs[i]->op == OP_FUSION && e->instrs[i]->shape->type == T_TUPLE) mo = e->instrs[i];
  CHECK(mo && mo->fusion_kind == FUSION_INPUT && pc_count(mo->called[0], OP_EXP) == 1);
  CHECK(mo && pc_count(mo->called[0], OP_REDUCE) == 1);
  CHECK(pc_count_module(m, OP_EXP) == 1);
  module_destroy(m);
}

/* Must not: the same in a space of MOF_SPLIT_SPACE elements and more
 * (f32[128,128]): the kernel of outputs of different dims would compute
 * them one after the other on one thread; exp stays a kernel of its own
 * and the row sum (a reduce) reads it. */
TEST(large_producer_consumer_not_merged) {
  const char *text =
      "HloModule pc\n\n" ADD_COMP
      "ENTRY e {\n"
      "  x = f32[128,128] parameter(0)\n"
      "  n = f32[128,128] negate(x)\n"
      "  ex = f32[128,128] exponential(n)\n"
      "  z = f32[] constant(0)\n"
      "  sm = f32[128] reduce(ex, z), dimensions={1}, to_apply=add\n"
      "  ROOT t = (f32[128,128], f32[128]) tuple(ex, sm)\n"
      "}\n";
  HloModule *m = pc_optimize_checked(text, "fusion,multi-output-fusion");
  if (!m) return;
  const Computation *e = m->entry;
  CHECK(nfusions(e) == 1 && pc_count(e, OP_REDUCE) == 1 && pc_count_module(m, OP_EXP) == 1);
  for (int i = 0; i < e->ninstrs; i++)
    if (e->instrs[i]->op == OP_FUSION) CHECK(e->instrs[i]->shape->type != T_TUPLE);
  module_destroy(m);
}

/* Softmax: the row max, exp(x - max), its row sum and the divide become
 * one row kernel (the row merges of multi-output-fusion), exp computed in
 * it. */
TEST(softmax_one_row_kernel) {
  const char *text =
      "HloModule sm\n\n" ADD_COMP
      "max {\n  a = f32[] parameter(0)\n  b = f32[] parameter(1)\n"
      "  ROOT m = f32[] maximum(a, b)\n}\n\n"
      "ENTRY e {\n"
      "  x = f32[8,16] parameter(0)\n"
      "  ninf = f32[] constant(-inf)\n"
      "  mx = f32[8] reduce(x, ninf), dimensions={1}, to_apply=max\n"
      "  bm = f32[8,16] broadcast(mx), dimensions={0}\n"
      "  d = f32[8,16] subtract(x, bm)\n"
      "  ex = f32[8,16] exponential(d)\n"
      "  z = f32[] constant(0)\n"
      "  sm = f32[8] reduce(ex, z), dimensions={1}, to_apply=add\n"
      "  bs = f32[8,16] broadcast(sm), dimensions={0}\n"
      "  ROOT r = f32[8,16] divide(ex, bs)\n"
      "}\n";
  HloModule *m = pc_optimize_checked(text, "fusion,multi-output-fusion");
  if (!m) return;
  const Computation *e = m->entry;
  CHECK(pc_count(e, OP_REDUCE) == 0 && nfusions(e) == 1 && e->root->op == OP_FUSION);
  CHECK(e->root->fusion_kind == FUSION_INPUT && pc_count(e->root->called[0], OP_REDUCE) == 2);
  CHECK(comp_row_reductions(e->root->called[0], e->root->shape, NULL, 0) == 1);
  CHECK(pc_count_module(m, OP_EXP) == 1);
  module_destroy(m);
}

/* A loss: per-row sums of log1p(x) * y, summed to a scalar. The row sums
 * (input of 64 x 128 elements, at least FUSION_MIN_SPLIT_REDUCE) stay a
 * row kernel of their own, the scalar sum a second fusion reading them;
 * with a small input (8 x 16) everything is one fusion, as before. */
#define LOSS(R, C)                                                        \
  "HloModule loss\n\n" ADD_COMP                                           \
  "ENTRY e {\n"                                                           \
  "  x = f32[" #R "," #C "] parameter(0)\n"                               \
  "  y = f32[" #R "," #C "] parameter(1)\n"                               \
  "  l = f32[" #R "," #C "] log-plus-one(x)\n"                            \
  "  p = f32[" #R "," #C "] multiply(l, y)\n"                             \
  "  z = f32[] constant(0)\n"                                             \
  "  rs = f32[" #R "] reduce(p, z), dimensions={1}, to_apply=add\n"       \
  "  h = f32[] constant(0.5)\n"                                           \
  "  hb = f32[" #R "] broadcast(h), dimensions={}\n"                      \
  "  rh = f32[" #R "] multiply(rs, hb)\n"                                 \
  "  t = f32[] reduce(rh, z), dimensions={0}, to_apply=add\n"             \
  "  ROOT r = f32[] negate(t)\n"                                          \
  "}\n"

TEST(row_sums_summed_further_stay_a_row_kernel) {
  HloModule *m = pc_optimize_checked(LOSS(64, 128), "fusion,multi-output-fusion");
  if (!m) return;
  const Computation *e = m->entry;
  CHECK(nfusions(e) == 2 && e->root->op == OP_FUSION);
  for (int i = 0; i < e->ninstrs; i++) {
    const Instr *f = e->instrs[i];
    if (f->op != OP_FUSION) continue;
    const Computation *fc = f->called[0];
    if (f == e->root) {
      /* the scalar sum reads the row sums: no reduce of the 64 x 128 input */
      CHECK(f->shape->rank == 0 && pc_count(fc, OP_REDUCE) == 1 && pc_count(fc, OP_LOG1P) == 0);
    } else {
      CHECK(f->shape->rank == 1 && f->shape->dims[0] == 64);
      CHECK(pc_count(fc, OP_REDUCE) == 1 && pc_count(fc, OP_LOG1P) == 1);
    }
  }
  module_destroy(m);
  m = pc_optimize_checked(LOSS(8, 16), "fusion,multi-output-fusion");
  if (!m) return;
  CHECK(nfusions(m->entry) == 1 && pc_count_module(m, OP_REDUCE) == 2);
  module_destroy(m);
}

/* Must not: the reduce also reads a value computed from the producer
 * outside any fusion (a sort of it): merging would make the fusion need
 * its own result. */
TEST(producer_consumer_not_merged_over_a_path) {
  const char *text =
      "HloModule pc2\n\n" ADD_COMP
      "lt {\n  a = f32[] parameter(0)\n  b = f32[] parameter(1)\n"
      "  ROOT c = pred[] compare(a, b), direction=LT\n}\n\n"
      "ENTRY e {\n"
      "  x = f32[16] parameter(0)\n"
      "  n = f32[16] negate(x)\n"
      "  ex = f32[16] exponential(n)\n"
      "  st = f32[16] sort(ex), dimensions={0}, to_apply=lt\n"
      "  a = f32[16] add(ex, st)\n"
      "  z = f32[] constant(0)\n"
      "  sm = f32[] reduce(a, z), dimensions={0}, to_apply=add\n"
      "  ROOT t = (f32[], f32[16]) tuple(sm, ex)\n"
      "}\n";
  HloModule *m = pc_optimize_checked(text, "fusion,multi-output-fusion");
  if (!m) return;
  const Computation *e = m->entry;
  CHECK(pc_count(e, OP_SORT) == 1 && nfusions(e) == 2);
  for (int i = 0; i < e->ninstrs; i++)
    if (e->instrs[i]->op == OP_FUSION) CHECK(e->instrs[i]->shape->type != T_TUPLE);
  module_destroy(m);
}

/* Siblings reading one large input (f32[256,256]: 256 KiB, at least
 * multi-output fusion's MOF_SPLIT_SPACE) merge only when they agree on
 * their reduces: the row sums stay a kernel of their own (merged with
 * the column sums, each output would be computed on its own, on one
 * thread), the two column sums merge. In a small space (64 x 64) all
 * three merge, as before. */
#define SIBLINGS(N)                                                                 \
  "HloModule sib\n\n" ADD_COMP                                                     \
  "ENTRY e {\n"                                                                     \
  "  x = f32[" #N "," #N "] parameter(0)\n"                                         \
  "  ex = f32[" #N "," #N "] exponential(x)\n"                                      \
  "  sq = f32[" #N "," #N "] multiply(x, x)\n"                                      \
  "  ab = f32[" #N "," #N "] abs(x)\n"                                              \
  "  z = f32[] constant(0)\n"                                                       \
  "  rs = f32[" #N "] reduce(ex, z), dimensions={1}, to_apply=add\n"                \
  "  cs = f32[" #N "] reduce(sq, z), dimensions={0}, to_apply=add\n"                \
  "  ca = f32[" #N "] reduce(ab, z), dimensions={0}, to_apply=add\n"                \
  "  n = f32[" #N "," #N "] negate(x)\n"                                            \
  "  ROOT t = (f32[" #N "], f32[" #N "], f32[" #N "], f32[" #N "," #N "]) tuple(rs, cs, ca, n)\n" \
  "}\n"

TEST(large_siblings_agree_on_reduces) {
  HloModule *m = pc_optimize_checked(SIBLINGS(256), "fusion,multi-output-fusion");
  if (!m) return;
  const Computation *e = m->entry;
  CHECK(nfusions(e) == 2);
  for (int i = 0; i < e->ninstrs; i++) {
    const Instr *f = e->instrs[i];
    if (f->op != OP_FUSION) continue;
    int nred = pc_count(f->called[0], OP_REDUCE);
    /* the column sums together (a tuple), the row sums */
    if (f->shape->type == T_TUPLE) CHECK(nred == 2 && pc_count(f->called[0], OP_EXP) == 0);
    else CHECK(nred == 1 && pc_count(f->called[0], OP_EXP) == 1);
  }
  module_destroy(m);
  m = pc_optimize_checked(SIBLINGS(64), "fusion,multi-output-fusion");
  if (!m) return;
  CHECK(nfusions(m->entry) == 1 && pc_count_module(m, OP_REDUCE) == 3);
  module_destroy(m);
}

int main(int argc, char **argv) {
  (void)argc;
  (void)argv;
  RUN(bitcast_convert_same_width_fuses);
  RUN(bitcast_convert_other_width_not_fused);
  RUN(gelu_is_one_fusion);
  RUN(cheap_producer_copied_into_all_users);
  RUN(producer_with_unfusible_user_not_copied);
  RUN(code_duplication_limit);
  RUN(copies_bounded);
  RUN(chain_of_reductions_bounded);
  RUN(gather_index_clamp_fused);
  RUN(no_dead_fusions);
  RUN(variadic_reduce_takes_iota);
  RUN(layout_copy_fuses_with_producer);
  RUN(producer_consumer_multi_output);
  RUN(large_producer_consumer_not_merged);
  RUN(softmax_one_row_kernel);
  RUN(row_sums_summed_further_stay_a_row_kernel);
  RUN(producer_consumer_not_merged_over_a_path);
  RUN(large_siblings_agree_on_reduces);
  return test_summary("test_pass_fusion_rules");
}
