/* Tests for the fusion passes ("fusion", "multi-output-fusion"): small HLO
 * modules in, the fused module's structure checked (how many fusions, of
 * which kind, holding which ops), the values compared before and after on
 * the interpreter; cases where fusion must not happen; and the whole
 * corpus, which must verify and compute the same values after fusion.
 *
 *   test_pass_fusion [corpus-dir]     (default tests/corpus)
 *
 * Expected structures follow XLA's fusion rules (InstructionFusion /
 * CpuInstructionFusion): what fuses is worked out by hand below. */
#include "harness.h"
#include "pass_check.h"
#include "passes/fusion_util.h"

static const char *corpus_dir = "tests/corpus";

/* The fused computation of fusion f. */
static const Computation *callee(const Instr *f) { return f ? f->called[0] : NULL; }

/* Invariants every fused module keeps: fused computations hold no op that
 * must never be fused and stay within the size limits (`limits`: when the
 * passes made all of them; XLA's own may be bigger); the entry keeps its
 * parameters. */
static void check_invariants_of(const HloModule *m, int entry_params, bool limits) {
  CHECK(m->entry->nparams == entry_params);
  for (int i = 0; i < m->ncomps; i++) {
    const Computation *c = m->comps[i];
    if (!c->is_fusion) continue;
    CHECK(!limits || fusion_size(c) <= FUSION_MAX_INSTRS);
    CHECK(!limits || c->nparams <= FUSION_MAX_PARAMS);
    for (int k = 0; k < c->ninstrs; k++) {
      Opcode op = c->instrs[k]->op;
      CHECK(op != OP_WHILE && op != OP_CALL && op != OP_CONDITIONAL && op != OP_CUSTOM_CALL &&
            op != OP_SORT && op != OP_RNG && op != OP_RNG_BIT_GENERATOR && op != OP_FUSION);
      CHECK(op != OP_TUPLE || c->instrs[k] == c->root);
    }
  }
}

static void check_invariants(const HloModule *m, int entry_params) {
  check_invariants_of(m, entry_params, true);
}

#define ADD_COMP                                                                              \
  "add {\n  a = f32[] parameter(0)\n  b = f32[] parameter(1)\n  ROOT s = f32[] add(a, b)\n}\n\n"

/* add -> multiply -> maximum(x, 0): one kLoop fusion holding all three, the
 * zero and its broadcast; no intermediate value is left in the entry. */
TEST(loop_fusion_chain) {
  const char *text =
      "HloModule chain\n\n"
      "ENTRY e {\n"
      "  x = f32[4,8] parameter(0)\n"
      "  y = f32[4,8] parameter(1)\n"
      "  a = f32[4,8] add(x, y)\n"
      "  m = f32[4,8] multiply(a, y)\n"
      "  zero = f32[] constant(0)\n"
      "  z = f32[4,8] broadcast(zero), dimensions={}\n"
      "  ROOT r = f32[4,8] maximum(m, z)\n"
      "}\n";
  HloModule *m = pc_optimize_checked(text, "fusion");
  if (!m) return;
  const Computation *e = m->entry;
  CHECK(e->ninstrs == 3); /* x, y, the fusion */
  Instr *f = pc_find(e, OP_FUSION, 0);
  CHECK(f && f == e->root && f->fusion_kind == FUSION_LOOP);
  const Computation *fc = callee(f);
  if (fc) {
    CHECK(fc->is_fusion);
    CHECK(fusion_size(fc) == 5);
    CHECK(pc_count(fc, OP_ADD) == 1 && pc_count(fc, OP_MULTIPLY) == 1);
    CHECK(pc_count(fc, OP_MAXIMUM) == 1 && pc_count(fc, OP_BROADCAST) == 1);
    CHECK(pc_count(fc, OP_CONSTANT) == 1 && fc->nparams == 2);
  }
  /* XLA's spelling, operands in program order. */
  char *t = pc_text(m);
  CHECK(t && strstr(t, "%fusion.1 = f32[4,8] fusion(%x, %y), kind=kLoop, "
                       "calls=%fused_computation.1"));
  CHECK(t && strstr(t, "%fused_computation.1 (param_0.1: f32[4,8], param_1.1: f32[4,8])"));
  cxla_free_string(t);
  check_invariants(m, 2);
  module_destroy(m);
}

/* reduce(exp(x)): one kInput fusion with the exp, the init constant and the
 * reduce. */
TEST(input_fusion_reduce_of_exp) {
  const char *text =
      "HloModule red\n\n" ADD_COMP
      "ENTRY e {\n"
      "  x = f32[4,8] parameter(0)\n"
      "  ex = f32[4,8] exponential(x)\n"
      "  z = f32[] constant(0)\n"
      "  ROOT r = f32[4] reduce(ex, z), dimensions={1}, to_apply=add\n"
      "}\n";
  HloModule *m = pc_optimize_checked(text, "fusion");
  if (!m) return;
  Instr *f = m->entry->root;
  CHECK(m->entry->ninstrs == 2 && f->op == OP_FUSION && f->fusion_kind == FUSION_INPUT);
  const Computation *fc = callee(f);
  CHECK(fc->root->op == OP_REDUCE && pc_count(fc, OP_EXP) == 1 && pc_count(fc, OP_CONSTANT) == 1);
  CHECK(fc->nparams == 1 && f->operands[0]->op == OP_PARAMETER);
  check_invariants(m, 1);
  module_destroy(m);
}

static const char *kDotBiasRelu =
    "HloModule dbr\n\n"
    "ENTRY e {\n"
    "  x = f32[4,8] parameter(0)\n"
    "  w = f32[8,16] parameter(1)\n"
    "  b = f32[16] parameter(2)\n"
    "  d = f32[4,16] dot(x, w), lhs_contracting_dims={1}, rhs_contracting_dims={0}\n"
    "  bb = f32[4,16] broadcast(b), dimensions={1}\n"
    "  s = f32[4,16] add(d, bb)\n"
    "  zero = f32[] constant(0)\n"
    "  zb = f32[4,16] broadcast(zero), dimensions={}\n"
    "  ROOT r = f32[4,16] maximum(s, zb)\n"
    "}\n";

/* dot + bias add + relu: one kOutput fusion; the dot's operands stay
 * outside (a GEMM reads them), the epilogue is fused. */
TEST(output_fusion_dot_bias_relu) {
  HloModule *m = pc_optimize_checked(kDotBiasRelu, "fusion");
  if (!m) return;
  const Computation *e = m->entry;
  CHECK(pc_count(e, OP_FUSION) == 1 && pc_count(e, OP_DOT) == 0 && e->ninstrs == 4);
  Instr *f = e->root;
  CHECK(f->op == OP_FUSION && f->fusion_kind == FUSION_OUTPUT);
  const Computation *fc = callee(f);
  CHECK(pc_count(fc, OP_DOT) == 1 && pc_count(fc, OP_ADD) == 1 && pc_count(fc, OP_MAXIMUM) == 1);
  CHECK(pc_count(fc, OP_BROADCAST) == 2 && fc->nparams == 3);
  Instr *dot = pc_find(fc, OP_DOT, 0);
  CHECK(dot->operands[0]->op == OP_PARAMETER && dot->operands[1]->op == OP_PARAMETER);
  check_invariants(m, 3);
  module_destroy(m);
}

/* The dot's result is also returned: no output fusion (it would have to be
 * computed twice or written out anyway). */
TEST(no_output_fusion_when_dot_has_two_users) {
  const char *text =
      "HloModule dbr2\n\n"
      "ENTRY e {\n"
      "  x = f32[4,8] parameter(0)\n"
      "  w = f32[8,16] parameter(1)\n"
      "  d = f32[4,16] dot(x, w), lhs_contracting_dims={1}, rhs_contracting_dims={0}\n"
      "  zero = f32[] constant(0)\n"
      "  zb = f32[4,16] broadcast(zero), dimensions={}\n"
      "  r = f32[4,16] maximum(d, zb)\n"
      "  ROOT t = (f32[4,16], f32[4,16]) tuple(r, d)\n"
      "}\n";
  HloModule *m = pc_optimize_checked(text, "fusion");
  if (!m) return;
  CHECK(pc_count(m->entry, OP_DOT) == 1);
  CHECK(pc_count_module(m, OP_DOT) == 1);
  Instr *f = pc_find(m->entry, OP_FUSION, 0);
  CHECK(f && f->fusion_kind == FUSION_LOOP);
  module_destroy(m);
}

/* exp(x) read by two consumers: the expensive exp is not duplicated into
 * both; the cheap broadcast of a scalar is (into each consumer's fusion). */
TEST(expensive_producer_not_duplicated) {
  const char *text =
      "HloModule dup\n\n"
      "ENTRY e {\n"
      "  x = f32[4,8] parameter(0)\n"
      "  ex = f32[4,8] exponential(x)\n"
      "  one = f32[] constant(1)\n"
      "  ob = f32[4,8] broadcast(one), dimensions={}\n"
      "  a = f32[4,8] add(ex, ob)\n"
      "  m = f32[4,8] multiply(ex, ob)\n"
      "  ROOT t = (f32[4,8], f32[4,8]) tuple(a, m)\n"
      "}\n";
  HloModule *m = pc_optimize_checked(text, "fusion");
  if (!m) return;
  CHECK(pc_count_module(m, OP_EXP) == 1);
  CHECK(pc_count(m->entry, OP_EXP) == 1);
  CHECK(pc_count(m->entry, OP_FUSION) == 2);
  CHECK(pc_count(m->entry, OP_BROADCAST) == 0);
  CHECK(pc_count_module(m, OP_BROADCAST) == 2); /* one copy per consumer */
  check_invariants(m, 1);
  module_destroy(m);
}

/* An expensive producer is not fused into a consumer that reads each of its
 * elements many times (through a broadcast): exp(x[4]) broadcast to [4,8]
 * would be computed 8 times per element. */
TEST(expensive_producer_not_fused_into_reuse) {
  const char *text =
      "HloModule reuse\n\n"
      "ENTRY e {\n"
      "  x = f32[4] parameter(0)\n"
      "  y = f32[4,8] parameter(1)\n"
      "  ex = f32[4] exponential(x)\n"
      "  b = f32[4,8] broadcast(ex), dimensions={0}\n"
      "  ROOT r = f32[4,8] add(b, y)\n"
      "}\n";
  HloModule *m = pc_optimize_checked(text, "fusion");
  if (!m) return;
  CHECK(pc_count(m->entry, OP_EXP) == 1);
  Instr *f = m->entry->root;
  CHECK(f->op == OP_FUSION && pc_count(callee(f), OP_BROADCAST) == 1);
  module_destroy(m);
}

/* Parameters, tuples, custom-calls, sort, rng and while are never fused;
 * elementwise work around them still is. */
TEST(never_fused_ops) {
  const char *text =
      "HloModule nf\n\n"
      "lt {\n  a = f32[] parameter(0)\n  b = f32[] parameter(1)\n"
      "  ROOT c = pred[] compare(a, b), direction=LT\n}\n\n"
      "ENTRY e {\n"
      "  x = f32[8] parameter(0)\n"
      "  n = f32[8] negate(x)\n"
      "  s = f32[8] sort(n), dimensions={0}, to_apply=lt\n"
      "  a = f32[8] abs(s)\n"
      "  lo = f32[] constant(0)\n"
      "  hi = f32[] constant(1)\n"
      "  u = f32[8] rng(lo, hi), distribution=rng_uniform\n"
      "  cc = f32[8] custom-call(a), custom_call_target=\"foo\"\n"
      "  ad = f32[8] add(cc, u)\n"
      "  ROOT t = (f32[8], f32[8]) tuple(ad, a)\n"
      "}\n";
  HloModule *m = pc_parse(text);
  if (!m || !pc_run(m, "fusion")) {
    if (m) module_destroy(m);
    return;
  }
  const Computation *e = m->entry;
  CHECK(pc_count(e, OP_SORT) == 1 && pc_count(e, OP_RNG) == 1);
  CHECK(pc_count(e, OP_CUSTOM_CALL) == 1 && pc_count(e, OP_PARAMETER) == 1);
  CHECK(e->root->op == OP_TUPLE);
  check_invariants(m, 1);
  module_destroy(m);
}

/* A chain of n adds of y; the root is v<n>. */
static char *add_chain(int n) {
  size_t cap = (size_t)n * 48 + 256;
  char *text = malloc(cap);
  size_t len = (size_t)snprintf(text, cap,
                                "HloModule big\n\nENTRY e {\n  y = f32[4] parameter(0)\n"
                                "  v0 = f32[4] negate(y)\n");
  for (int i = 1; i <= n; i++)
    len += (size_t)snprintf(text + len, cap - len, "  %sv%d = f32[4] add(v%d, y)\n",
                            i == n ? "ROOT " : "", i, i - 1);
  snprintf(text + len, cap - len, "}\n");
  return text;
}

/* A chain of 150 adds is one fusion (no fixed 64-instruction cap: XLA's
 * cost model counts evaluations, and an elementwise chain evaluates each
 * op once); a chain longer than FUSION_MAX_INSTRS is cut at that size;
 * nothing is lost or duplicated. */
TEST(fusion_size_limit) {
  char *text = add_chain(150);
  HloModule *m = pc_optimize_checked(text, "fusion");
  free(text);
  if (!m) return;
  CHECK(pc_count_module(m, OP_ADD) == 150);
  CHECK(pc_count(m->entry, OP_FUSION) == 1);
  CHECK(pc_count(m->entry, OP_ADD) == 0);
  check_invariants(m, 1);
  module_destroy(m);
  int n = FUSION_MAX_INSTRS + 100;
  text = add_chain(n);
  m = pc_optimize_checked(text, "fusion");
  free(text);
  if (!m) return;
  CHECK(pc_count_module(m, OP_ADD) == n);
  CHECK(pc_count(m->entry, OP_FUSION) == 2);
  CHECK(pc_count(m->entry, OP_ADD) == 0);
  check_invariants(m, 1);
  module_destroy(m);
}

/* A chain of n unary ops `op` of y (f32[4]); the root is v<n>. */
static char *unary_chain(const char *op, int n) {
  size_t cap = (size_t)n * 48 + 256;
  char *text = malloc(cap);
  size_t len = (size_t)snprintf(text, cap, "HloModule big\n\nENTRY e {\n  v0 = f32[4] parameter(0)\n");
  for (int i = 1; i <= n; i++)
    len += (size_t)snprintf(text + len, cap - len, "  %sv%d = f32[4] %s(v%d)\n", i == n ? "ROOT " : "", i, op,
                            i - 1);
  snprintf(text + len, cap - len, "}\n");
  return text;
}

/* Transcendental functions weigh more than their count
 * (fusion_code_weight): a chain of 60 sines is cut into fusions of at most
 * FUSION_MAX_WEIGHT (21 sines: three fusions), 60 tanh into two, where 60
 * negations stay one; nothing is lost and the values are the same. */
TEST(fusion_weight_limit) {
  const struct { const char *op; Opcode code; int weight, fusions; } cases[] = {
      {"sine", OP_SIN, 24, 3}, {"tanh", OP_TANH, 12, 2}, {"negate", OP_NEGATE, 1, 1}};
  for (int k = 0; k < 3; k++) {
    char *text = unary_chain(cases[k].op, 60);
    HloModule *m = pc_optimize_checked(text, "fusion");
    free(text);
    if (!m) return;
    CHECK(pc_count_module(m, cases[k].code) == 60);
    CHECK(pc_count(m->entry, OP_FUSION) == cases[k].fusions);
    int total = 0;
    for (int i = 0; i < m->entry->ninstrs; i++) {
      const Instr *in = m->entry->instrs[i];
      if (in->op != OP_FUSION) continue;
      int w = fusion_code_weight(in);
      CHECK(w <= FUSION_MAX_WEIGHT);
      total += w;
    }
    /* each op weighs its own, the fused parameters 1 each */
    CHECK(total == 60 * cases[k].weight + cases[k].fusions);
    check_invariants(m, 1);
    module_destroy(m);
  }
}

/* A root tuple of 41 operands (the last one the first again) whose 40
 * producers each become a fusion: every slot, the repeated one too, reads
 * its producer's fusion afterwards (fusion_replace_near rewrites a wide
 * user's slots looking outward from its last rewrite), and the values are
 * the same. */
/* A module of parameter y, 40 producers n0..n39 from `body` (a printf
 * format of one producer's lines, its number given 6 times) and a root
 * tuple of 41 operands, n0..n39 then n0 again (malloc'ed). */
static char *wide_tuple_module(const char *body) {
  size_t cap = 8192, len = 0;
  char *text = malloc(cap);
  len += (size_t)snprintf(text + len, cap - len, "HloModule wide\n\nENTRY e {\n  y = f32[4] parameter(0)\n");
  for (int i = 0; i < 40; i++) len += (size_t)snprintf(text + len, cap - len, body, i, i, i, i, i, i);
  len += (size_t)snprintf(text + len, cap - len, "  ROOT t = (");
  for (int i = 0; i <= 40; i++) len += (size_t)snprintf(text + len, cap - len, "%sf32[4]", i ? ", " : "");
  len += (size_t)snprintf(text + len, cap - len, ") tuple(");
  for (int i = 0; i <= 40; i++) len += (size_t)snprintf(text + len, cap - len, "%sn%d", i ? ", " : "", i % 40);
  snprintf(text + len, cap - len, ")\n}\n");
  return text;
}

TEST(wide_tuple_operands_rewritten) {
  char *text = wide_tuple_module("  a%d = f32[4] multiply(y, y)\n  n%d = f32[4] negate(a%d)\n");
  HloModule *m = pc_optimize_checked(text, "fusion");
  free(text);
  if (!m) return;
  const Instr *t = m->entry->root;
  CHECK(t->op == OP_TUPLE && t->noperands == 41);
  CHECK(pc_count(m->entry, OP_FUSION) == 40);
  CHECK(pc_count(m->entry, OP_NEGATE) == 0 && pc_count(m->entry, OP_MULTIPLY) == 0);
  for (int k = 0; k < t->noperands; k++) CHECK(t->operands[k]->op == OP_FUSION);
  CHECK(t->operands[40] == t->operands[0]);
  check_invariants(m, 1);
  module_destroy(m);
}

/* The same root tuple after multi-output fusion: its 40 sibling fusions
 * (each reads y) merge, and every slot, the repeated one too, reads a
 * get-tuple-element of a merged fusion afterwards, each its own result
 * (multi_output_fusion.c point_users, with fusion_replace_near). */
TEST(wide_tuple_operands_rewritten_by_siblings) {
  char *text = wide_tuple_module("  c%d = f32[] constant(%d)\n  b%d = f32[4] broadcast(c%d), dimensions={}\n"
                                 "  n%d = f32[4] multiply(y, b%d)\n");
  HloModule *m = pc_optimize_checked(text, "fusion,multi-output-fusion");
  free(text);
  if (!m) return;
  const Instr *t = m->entry->root;
  CHECK(t->op == OP_TUPLE && t->noperands == 41);
  CHECK(pc_count(m->entry, OP_MULTIPLY) == 0);
  CHECK(pc_count(m->entry, OP_FUSION) < 40); /* merged */
  for (int k = 0; k < t->noperands; k++) {
    const Instr *g = t->operands[k];
    CHECK(g->op == OP_GET_TUPLE_ELEMENT && g->operands[0]->op == OP_FUSION);
    for (int j = 0; j < k && k < 40; j++)
      CHECK(!(t->operands[j]->operands[0] == g->operands[0] && t->operands[j]->index == g->index));
  }
  CHECK(t->operands[40] == t->operands[0]);
  check_invariants(m, 1);
  module_destroy(m);
}

/* Two reductions of the same input become one multi-output fusion (a tuple
 * of both results, read back with get-tuple-element). */
TEST(multi_output_fusion_siblings) {
  const char *text =
      "HloModule mof\n\n" ADD_COMP
      "ENTRY e {\n"
      "  x = f32[8,16] parameter(0)\n"
      "  z = f32[] constant(0)\n"
      "  r1 = f32[8] reduce(x, z), dimensions={1}, to_apply=add\n"
      "  sq = f32[8,16] multiply(x, x)\n"
      "  r2 = f32[8] reduce(sq, z), dimensions={1}, to_apply=add\n"
      "  ROOT t = (f32[8], f32[8]) tuple(r1, r2)\n"
      "}\n";
  HloModule *m = pc_optimize_checked(text, "fusion,multi-output-fusion");
  if (!m) return;
  const Computation *e = m->entry;
  CHECK(pc_count(e, OP_FUSION) == 1 && pc_count(e, OP_REDUCE) == 0);
  CHECK(pc_count(e, OP_GET_TUPLE_ELEMENT) == 2);
  Instr *f = pc_find(e, OP_FUSION, 0);
  CHECK(f->shape->type == T_TUPLE && f->fusion_kind == FUSION_INPUT && f->noperands == 1);
  const Computation *fc = callee(f);
  CHECK(fc->root->op == OP_TUPLE && pc_count(fc, OP_REDUCE) == 2 && fc->nparams == 1);
  /* The tuple keeps program order: r1 first. */
  Instr *g0 = pc_find(e, OP_GET_TUPLE_ELEMENT, 0), *g1 = pc_find(e, OP_GET_TUPLE_ELEMENT, 1);
  CHECK(e->root->operands[0] == (g0->index == 0 ? g0 : g1));
  check_invariants(m, 1);
  module_destroy(m);
}

/* A merge makes new paths: after a and b (siblings over s1) become one
 * fusion, u (a's user) reads it, so c (which reads u) depends on x (b's
 * operand). c and x, siblings over s2 in the same sweep, must then stay
 * apart: x comes after c in the order the sweep started with, which made
 * the pass answer "no path" at once and merge them into a cycle (JAX's
 * hyp2f1 derivative: "cycle through instruction"). */
TEST(multi_output_fusion_path_made_by_a_merge) {
  const char *text =
      "HloModule cyc\n\n"
      "%fa (p0: f32[8]) -> f32[8] {\n  %p0 = f32[8]{0} parameter(0)\n  ROOT %r = f32[8]{0} sine(%p0)\n}\n\n"
      "%fu (p0: f32[8]) -> f32[8] {\n  %p0 = f32[8]{0} parameter(0)\n  ROOT %r = f32[8]{0} multiply(%p0, %p0)\n}\n\n"
      "%fc (p0: f32[8], p1: f32[8]) -> f32[8] {\n  %p0 = f32[8]{0} parameter(0)\n  %p1 = f32[8]{0} parameter(1)\n"
      "  ROOT %r = f32[8]{0} add(%p0, %p1)\n}\n\n"
      "%fx (p0: f32[8]) -> f32[8] {\n  %p0 = f32[8]{0} parameter(0)\n  ROOT %r = f32[8]{0} cosine(%p0)\n}\n\n"
      "%fb (p0: f32[8], p1: f32[8]) -> f32[8] {\n  %p0 = f32[8]{0} parameter(0)\n  %p1 = f32[8]{0} parameter(1)\n"
      "  ROOT %r = f32[8]{0} subtract(%p0, %p1)\n}\n\n"
      "ENTRY %main (p: f32[8]) -> (f32[8], f32[8], f32[8], f32[8]) {\n"
      "  %p = f32[8]{0} parameter(0)\n"
      "  %s1 = f32[8]{0} exponential(%p)\n"
      "  %s2 = f32[8]{0} log(%p)\n"
      "  %a = f32[8]{0} fusion(%s1), kind=kLoop, calls=%fa\n"
      "  %u = f32[8]{0} fusion(%a), kind=kLoop, calls=%fu\n"
      "  %c = f32[8]{0} fusion(%u, %s2), kind=kLoop, calls=%fc\n"
      "  %x = f32[8]{0} fusion(%s2), kind=kLoop, calls=%fx\n"
      "  %b = f32[8]{0} fusion(%s1, %x), kind=kLoop, calls=%fb\n"
      "  ROOT %t = (f32[8]{0}, f32[8]{0}, f32[8]{0}, f32[8]{0}) tuple(%u, %c, %x, %b)\n"
      "}\n";
  HloModule *m = pc_optimize_checked(text, "multi-output-fusion");
  if (!m) return;
  /* a and b merged (the first sweep); c and x merged only after a later
   * sweep could see the path, or not at all: no cycle either way */
  const Computation *e = m->entry;
  CHECK(pc_count(e, OP_FUSION) < 5);
  check_invariants(m, 1);
  module_destroy(m);
}

/* Three sibling fusions of p, merged in two sweeps (a and b, then that
 * pair and c): the earlier side of each merge lends its computation
 * (multi_output_fusion.c adopt: a group grows in place) and the other
 * side's instructions move into it (absorb), so the one fusion left calls
 * one of the three original computations, holding the three original
 * sine, cosine and tanh, with p as its one parameter, and the other two
 * computations are gone; the values are the module's. */
TEST(multi_output_fusion_grows_in_place) {
  const char *text =
      "HloModule grow\n\n"
      "%fa (p0: f32[8]) -> f32[8] {\n  %p0 = f32[8]{0} parameter(0)\n  ROOT %r = f32[8]{0} sine(%p0)\n}\n\n"
      "%fb (p0: f32[8]) -> f32[8] {\n  %p0 = f32[8]{0} parameter(0)\n  ROOT %r = f32[8]{0} cosine(%p0)\n}\n\n"
      "%fc (p0: f32[8]) -> f32[8] {\n  %p0 = f32[8]{0} parameter(0)\n  ROOT %r = f32[8]{0} tanh(%p0)\n}\n\n"
      "ENTRY %main (p: f32[8]) -> (f32[8], f32[8], f32[8]) {\n"
      "  %p = f32[8]{0} parameter(0)\n"
      "  %a = f32[8]{0} fusion(%p), kind=kLoop, calls=%fa\n"
      "  %b = f32[8]{0} fusion(%p), kind=kLoop, calls=%fb\n"
      "  %c = f32[8]{0} fusion(%p), kind=kLoop, calls=%fc\n"
      "  ROOT %t = (f32[8]{0}, f32[8]{0}, f32[8]{0}) tuple(%a, %b, %c)\n"
      "}\n";
  HloModule *before, *m;
  if (!pc_parse_two(text, &before, &m)) return;
  const Computation *orig[3] = {module_find_computation(m, "fa"), module_find_computation(m, "fb"),
                                 module_find_computation(m, "fc")};
  CHECK(orig[0] && orig[1] && orig[2]);
  const Instr *roots[3] = {orig[0] ? orig[0]->root : NULL, orig[1] ? orig[1]->root : NULL,
                           orig[2] ? orig[2]->root : NULL};
  CHECK(pc_run(m, "multi-output-fusion"));
  const Instr *f = pc_find(m->entry, OP_FUSION, 0);
  CHECK(pc_count(m->entry, OP_FUSION) == 1 && f);
  int lent = 0, kept = 0;
  for (int i = 0; i < 3; i++) {
    lent += f && callee(f) == orig[i];
    for (int k = 0; k < m->ncomps; k++) kept += m->comps[k] == orig[i];
  }
  CHECK(lent == 1 && kept == 1);
  if (f) CHECK(callee(f)->root->op == OP_TUPLE && callee(f)->root->noperands == 3 && callee(f)->nparams == 1);
  /* the other sides' instructions were moved in, not copied: the three
   * sine, cosine and tanh are the original instructions */
  for (int i = 0; i < 3 && f; i++) {
    bool in = false;
    for (int k = 0; k < callee(f)->ninstrs; k++) in |= callee(f)->instrs[k] == roots[i];
    CHECK(in && roots[i] && roots[i]->parent == callee(f));
  }
  CHECK(pc_same_values(before, m));
  module_destroy(before);
  module_destroy(m);
}

/* Siblings that must stay apart: r2 reads r1 (merging would make a cycle),
 * and r3 iterates over a different index space. */
TEST(multi_output_fusion_negative) {
  const char *text =
      "HloModule mofneg\n\n" ADD_COMP
      "ENTRY e {\n"
      "  x = f32[8,16] parameter(0)\n"
      "  z = f32[] constant(0)\n"
      "  r1 = f32[8] reduce(x, z), dimensions={1}, to_apply=add\n"
      "  b = f32[8,16] broadcast(r1), dimensions={0}\n"
      "  d = f32[8,16] subtract(x, b)\n"
      "  r2 = f32[8] reduce(d, z), dimensions={1}, to_apply=add\n"
      "  xt = f32[16,8] transpose(x), dimensions={1,0}\n"
      "  r3 = f32[16] reduce(xt, z), dimensions={1}, to_apply=add\n"
      "  ROOT t = (f32[8], f32[16]) tuple(r2, r3)\n"
      "}\n";
  HloModule *m = pc_optimize_checked(text, "fusion,multi-output-fusion");
  if (!m) return;
  for (int i = 0; i < m->entry->ninstrs; i++)
    CHECK(m->entry->instrs[i]->shape->type != T_TUPLE || m->entry->instrs[i] == m->entry->root);
  CHECK(pc_count_module(m, OP_REDUCE) == 3);
  module_destroy(m);
}

/* A module that already holds XLA's fusions (kLoop, and a kCustom one)
 * keeps them, and stays valid. */
TEST(existing_fusions_kept) {
  const char *text =
      "HloModule pre\n\n"
      "fc1 {\n  p0 = f32[8] parameter(0)\n  ROOT n = f32[8] negate(p0)\n}\n\n"
      "fc2 {\n  p0 = f32[8] parameter(0)\n  p1 = f32[8] parameter(1)\n"
      "  ROOT m = f32[8] multiply(p0, p1)\n}\n\n"
      "ENTRY e {\n"
      "  x = f32[8] parameter(0)\n"
      "  f1 = f32[8] fusion(x), kind=kLoop, calls=fc1\n"
      "  a = f32[8] add(f1, x)\n"
      "  f2 = f32[8] fusion(a, x), kind=kCustom, calls=fc2\n"
      "  ROOT s = f32[8] subtract(f2, x)\n"
      "}\n";
  HloModule *m = pc_optimize_checked(text, "fusion,multi-output-fusion");
  if (!m) return;
  CHECK(pc_named(m->entry, "f1") && pc_named(m->entry, "f2"));
  CHECK(pc_named(m->entry, "f1")->called[0] == module_find_computation(m, "fc1"));
  CHECK(pc_named(m->entry, "f2")->fusion_kind == FUSION_CUSTOM);
  CHECK(module_find_computation(m, "fc2")->ninstrs == 3);
  module_destroy(m);
}

/* Fusion inside a while body; the condition (and the reducer) are left
 * alone. */
TEST(fusion_in_while_body) {
  const char *text =
      "HloModule loop\n\n"
      "cond {\n  p = (s32[], f32[4]) parameter(0)\n  i = s32[] get-tuple-element(p), index=0\n"
      "  k = s32[] constant(3)\n  ROOT lt = pred[] compare(i, k), direction=LT\n}\n\n"
      "body {\n  p = (s32[], f32[4]) parameter(0)\n  i = s32[] get-tuple-element(p), index=0\n"
      "  v = f32[4] get-tuple-element(p), index=1\n  one = s32[] constant(1)\n"
      "  i1 = s32[] add(i, one)\n  h = f32[] constant(0.5)\n"
      "  hb = f32[4] broadcast(h), dimensions={}\n  m = f32[4] multiply(v, hb)\n"
      "  a = f32[4] add(m, v)\n  ROOT t = (s32[], f32[4]) tuple(i1, a)\n}\n\n"
      "ENTRY e {\n  x = f32[4] parameter(0)\n  z = s32[] constant(0)\n"
      "  t = (s32[], f32[4]) tuple(z, x)\n"
      "  w = (s32[], f32[4]) while(t), condition=cond, body=body\n"
      "  ROOT r = f32[4] get-tuple-element(w), index=1\n}\n";
  HloModule *m = pc_optimize_checked(text, "fusion");
  if (!m) return;
  const Computation *body = module_find_computation(m, "body");
  CHECK(body && pc_count(body, OP_FUSION) == 1 && pc_count(body, OP_MULTIPLY) == 0);
  CHECK(pc_count(module_find_computation(m, "cond"), OP_FUSION) == 0);
  module_destroy(m);
}

/* ---- row fusion (multi-output-fusion's row merges) ---- */

#define MAX_COMP \
  "mx {\n  a = f32[] parameter(0)\n  b = f32[] parameter(1)\n  ROOT m = f32[] maximum(a, b)\n}\n\n"

static const char kSoftmax[] =
    "HloModule sm\n\n" ADD_COMP MAX_COMP
    "ENTRY e {\n"
    "  x = f32[8,16] parameter(0)\n  ninf = f32[] constant(-inf)\n"
    "  m = f32[8] reduce(x, ninf), dimensions={1}, to_apply=mx\n"
    "  mb = f32[8,16] broadcast(m), dimensions={0}\n  d = f32[8,16] subtract(x, mb)\n"
    "  ex = f32[8,16] exponential(d)\n  z = f32[] constant(0)\n"
    "  s = f32[8] reduce(ex, z), dimensions={1}, to_apply=add\n"
    "  sb = f32[8,16] broadcast(s), dimensions={0}\n  ROOT o = f32[8,16] divide(ex, sb)\n"
    "}\n";

/* The single fusion left in the entry, whose computation is a row kernel
 * with nred reduces, or NULL. */
static const Computation *one_row_kernel(const HloModule *m, int nred) {
  const Computation *e = m->entry;
  if (pc_count(e, OP_FUSION) != 1 || pc_count(e, OP_REDUCE) != 0 || e->root->op != OP_FUSION) return NULL;
  const Computation *fc = callee(e->root);
  if (fc->root->op == OP_TUPLE || pc_count(fc, OP_REDUCE) != nred) return NULL;
  return comp_row_reductions(fc, e->root->shape, NULL, 0) == 1 ? fc : NULL;
}

/* softmax: the max, the exp loop fusion and the sum all end in the
 * divide's fusion, one row kernel; layer norm likewise (its variance's
 * input fusion, the mean read by both) */
TEST(row_fusion_softmax_layernorm) {
  HloModule *m = pc_optimize_checked(kSoftmax, "fusion,multi-output-fusion,dce");
  if (!m) return;
  CHECK(one_row_kernel(m, 2) != NULL);
  CHECK(m->entry->root->noperands == 1);
  check_invariants(m, 1);
  module_destroy(m);
  const char *ln =
      "HloModule ln\n\n" ADD_COMP
      "ENTRY e {\n"
      "  x = f32[8,16] parameter(0)\n  g = f32[16] parameter(1)\n  z = f32[] constant(0)\n"
      "  s = f32[8] reduce(x, z), dimensions={1}, to_apply=add\n"
      "  n = f32[] constant(0.0625)\n  nb = f32[8] broadcast(n), dimensions={}\n"
      "  mean = f32[8] multiply(s, nb)\n  mb = f32[8,16] broadcast(mean), dimensions={0}\n"
      "  d = f32[8,16] subtract(x, mb)\n  sq = f32[8,16] multiply(d, d)\n"
      "  v = f32[8] reduce(sq, z), dimensions={1}, to_apply=add\n  vm = f32[8] multiply(v, nb)\n"
      "  r = f32[8] rsqrt(vm)\n  rb = f32[8,16] broadcast(r), dimensions={0}\n"
      "  y = f32[8,16] multiply(d, rb)\n  gb = f32[8,16] broadcast(g), dimensions={1}\n"
      "  ROOT o = f32[8,16] multiply(y, gb)\n"
      "}\n";
  m = pc_optimize_checked(ln, "fusion,multi-output-fusion,dce");
  if (!m) return;
  CHECK(one_row_kernel(m, 2) != NULL);
  check_invariants(m, 2);
  module_destroy(m);
}

/* Not merged: a row reduce that another instruction reads too (the
 * root tuple), one read along the columns (broadcast dimensions={1} on a
 * square array), and a column reduction. */
TEST(row_fusion_negative) {
  const char *shared =
      "HloModule rs\n\n" ADD_COMP
      "ENTRY e {\n  x = f32[8,16] parameter(0)\n  z = f32[] constant(0)\n"
      "  s = f32[8] reduce(x, z), dimensions={1}, to_apply=add\n"
      "  sb = f32[8,16] broadcast(s), dimensions={0}\n  d = f32[8,16] subtract(x, sb)\n"
      "  ROOT t = (f32[8,16], f32[8]) tuple(d, s)\n}\n";
  HloModule *m = pc_optimize_checked(shared, "fusion,multi-output-fusion,dce");
  if (!m) return;
  CHECK(pc_count(m->entry, OP_REDUCE) + pc_count(m->entry, OP_FUSION) >= 2);
  module_destroy(m);
  const char *columns =
      "HloModule rc\n\n" ADD_COMP
      "ENTRY e {\n  x = f32[16,16] parameter(0)\n  z = f32[] constant(0)\n"
      "  s = f32[16] reduce(x, z), dimensions={1}, to_apply=add\n"
      "  sb = f32[16,16] broadcast(s), dimensions={1}\n  ROOT d = f32[16,16] subtract(x, sb)\n}\n";
  m = pc_optimize_checked(columns, "fusion,multi-output-fusion,dce");
  if (!m) return;
  CHECK(pc_count(m->entry, OP_REDUCE) == 1);
  module_destroy(m);
  const char *colred =
      "HloModule cr\n\n" ADD_COMP
      "ENTRY e {\n  x = f32[8,16] parameter(0)\n  z = f32[] constant(0)\n"
      "  s = f32[16] reduce(x, z), dimensions={0}, to_apply=add\n"
      "  sb = f32[8,16] broadcast(s), dimensions={1}\n  ROOT d = f32[8,16] subtract(x, sb)\n}\n";
  m = pc_optimize_checked(colred, "fusion,multi-output-fusion,dce");
  if (!m) return;
  CHECK(pc_count(m->entry, OP_REDUCE) == 1);
  module_destroy(m);
}

/* Out of memory at every allocation of the fusion passes: an error, never
 * a crash or a leak. */
TEST(out_of_memory) {
  pc_oom_sweep(kDotBiasRelu, "fusion,multi-output-fusion");
  const char *text =
      "HloModule mof\n\n" ADD_COMP
      "ENTRY e {\n"
      "  x = f32[8,16] parameter(0)\n"
      "  z = f32[] constant(0)\n"
      "  ex = f32[8,16] exponential(x)\n"
      "  r1 = f32[8] reduce(ex, z), dimensions={1}, to_apply=add\n"
      "  sq = f32[8,16] multiply(x, x)\n"
      "  r2 = f32[8] reduce(sq, z), dimensions={1}, to_apply=add\n"
      "  ROOT t = (f32[8], f32[8]) tuple(r1, r2)\n"
      "}\n";
  pc_oom_sweep(text, "fusion,multi-output-fusion");
  pc_oom_sweep(kSoftmax, "fusion,multi-output-fusion");
}

/* ---- the corpus ---- */

typedef struct ModelCount {
  const char *name;
  int kinds[5];
} ModelCount;

static ModelCount models[8];
static int nmodels;

static void count_fusions(const char *name, const HloModule *m) {
  check_invariants_of(m, m->entry->nparams, strstr(name, "/module.hlo") != NULL);
  if (strncmp(name, "model_", 6) != 0 || !strstr(name, "/module.hlo") || nmodels == 8) return;
  ModelCount *mc = &models[nmodels++];
  memset(mc, 0, sizeof *mc);
  mc->name = strdup(name);
  for (int i = 0; i < m->ncomps; i++)
    for (int k = 0; k < m->comps[i]->ninstrs; k++) {
      const Instr *in = m->comps[i]->instrs[k];
      if (in->op == OP_FUSION && in->fusion_kind >= 0 && in->fusion_kind < 5)
        mc->kinds[in->fusion_kind]++;
    }
}

TEST(corpus_fusion) {
  PcCorpusStats st;
  if (!pc_corpus(corpus_dir, "fusion,multi-output-fusion", count_fusions, &st)) {
    SKIP("corpus %s not found", corpus_dir);
    return;
  }
  printf("  corpus: %d modules fused and verified of %d; values compared on %d, skipped on %d\n",
         st.verified, st.modules, st.compared, st.skipped);
  for (int i = 0; i < nmodels; i++) {
    printf("  %-40s kLoop=%d kInput=%d kOutput=%d\n", models[i].name, models[i].kinds[FUSION_LOOP],
           models[i].kinds[FUSION_INPUT], models[i].kinds[FUSION_OUTPUT]);
    free((void *)models[i].name);
  }
  CHECK(st.modules > 0 && st.verified == st.modules);
}

int main(int argc, char **argv) {
  if (argc > 1) corpus_dir = argv[1];
  RUN(loop_fusion_chain);
  RUN(input_fusion_reduce_of_exp);
  RUN(output_fusion_dot_bias_relu);
  RUN(no_output_fusion_when_dot_has_two_users);
  RUN(expensive_producer_not_duplicated);
  RUN(expensive_producer_not_fused_into_reuse);
  RUN(never_fused_ops);
  RUN(fusion_size_limit);
  RUN(fusion_weight_limit);
  RUN(wide_tuple_operands_rewritten);
  RUN(wide_tuple_operands_rewritten_by_siblings);
  RUN(multi_output_fusion_siblings);
  RUN(multi_output_fusion_grows_in_place);
  RUN(multi_output_fusion_path_made_by_a_merge);
  RUN(multi_output_fusion_negative);
  RUN(existing_fusions_kept);
  RUN(fusion_in_while_body);
  RUN(row_fusion_softmax_layernorm);
  RUN(row_fusion_negative);
  RUN(out_of_memory);
  RUN(corpus_fusion);
  printf("  values compared in %d module pairs, skipped in %d (interpreter lacks an op)\n",
         pc_value_checks, pc_value_skips);
  return test_summary("test_pass_fusion");
}
