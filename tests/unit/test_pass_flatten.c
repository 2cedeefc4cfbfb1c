/* Call-graph flattening: every sequential call site gets its own
 * computation; shared reducers stay shared; callees are printed before
 * their callers. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "harness.h"
#include "pass_helpers.h"

static const char *kTwoWhiles =
    "HloModule m\n"
    "add {\n"
    "  x = s32[] parameter(0)\n"
    "  y = s32[] parameter(1)\n"
    "  ROOT s = s32[] add(x, y)\n"
    "}\n"
    "cond {\n"
    "  s = s32[] parameter(0)\n"
    "  ten = s32[] constant(10)\n"
    "  ROOT lt = pred[] compare(s, ten), direction=LT\n"
    "}\n"
    "body {\n"
    "  s = s32[] parameter(0)\n"
    "  one = s32[] constant(1)\n"
    "  ROOT n = s32[] add(s, one)\n"
    "}\n"
    "ENTRY e {\n"
    "  p = s32[] parameter(0)\n"
    "  v = s32[3] parameter(1)\n"
    "  w1 = s32[] while(p), condition=cond, body=body\n"
    "  w2 = s32[] while(w1), condition=cond, body=body\n"
    "  r1 = s32[] reduce(v, w1), dimensions={0}, to_apply=add\n"
    "  r2 = s32[] reduce(v, w2), dimensions={0}, to_apply=add\n"
    "  ROOT t = (s32[], s32[]) tuple(r1, r2)\n"
    "}\n";

static int index_of(const HloModule *m, const Computation *c) {
  for (int i = 0; i < m->ncomps; i++)
    if (m->comps[i] == c) return i;
  return -1;
}

TEST(shared_while_computations_are_cloned) {
  HloModule *m = pt_parse(kTwoWhiles);
  if (!m) return;
  pt_run(m, "flatten-call-graph");
  const Instr *w1 = comp_find_instr(m->entry, "w1"), *w2 = comp_find_instr(m->entry, "w2");
  const Instr *r1 = comp_find_instr(m->entry, "r1"), *r2 = comp_find_instr(m->entry, "r2");
  CHECK(w1->called[0] != w2->called[0] && w1->called[1] != w2->called[1]);
  CHECK(r1->called[0] == r2->called[0]); /* the reducer stays shared */
  CHECK(m->ncomps == 6);
  /* Callees before callers, entry last. */
  CHECK(m->comps[m->ncomps - 1] == m->entry);
  for (int k = 0; k < 2; k++) {
    CHECK(index_of(m, w2->called[k]) < index_of(m, m->entry));
    CHECK(index_of(m, w1->called[k]) < index_of(m, m->entry));
  }
  /* Running it again finds nothing to do. */
  PassContext ctx = {PASS_DEFAULT_FOLD_LIMIT, NULL, false, false, false, false};
  bool changed = true;
  CHECK_OK(pass_flatten_call_graph(m, &ctx, &changed));
  CHECK(!changed);
  module_destroy(m);
}

TEST(nested_shared_callees_are_cloned_too) {
  HloModule *m = pt_parse(
      "HloModule m\n"
      "leaf {\n"
      "  x = f32[] parameter(0)\n"
      "  ROOT n = f32[] negate(x)\n"
      "}\n"
      "mid {\n"
      "  x = f32[] parameter(0)\n"
      "  ROOT c = f32[] call(x), to_apply=leaf\n"
      "}\n"
      "ENTRY e {\n"
      "  p = f32[] parameter(0)\n"
      "  a = f32[] call(p), to_apply=mid\n"
      "  b = f32[] call(a), to_apply=mid\n"
      "  ROOT r = f32[] add(a, b)\n"
      "}\n");
  if (!m) return;
  pt_run(m, "flatten-call-graph");
  CHECK(pt_values_agree(
            "HloModule m\n"
            "leaf {\n  x = f32[] parameter(0)\n  ROOT n = f32[] negate(x)\n}\n"
            "mid {\n  x = f32[] parameter(0)\n  ROOT c = f32[] call(x), to_apply=leaf\n}\n"
            "ENTRY e {\n  p = f32[] parameter(0)\n  a = f32[] call(p), to_apply=mid\n"
            "  b = f32[] call(a), to_apply=mid\n  ROOT r = f32[] add(a, b)\n}\n",
            m, 4) == 1);
  CHECK(m->ncomps == 5); /* mid, leaf and one clone of each */
  const Instr *a = comp_find_instr(m->entry, "a"), *b = comp_find_instr(m->entry, "b");
  CHECK(a->called[0] != b->called[0]);
  CHECK(a->called[0]->root->called[0] != b->called[0]->root->called[0]);
  char *t = pt_print(m);
  CHECK(t && strstr(t, "%mid.clone") && strstr(t, "%leaf.clone"));
  cxla_free_string(t);
  module_destroy(m);
}

TEST(single_call_sites_unchanged) {
  HloModule *m = pt_parse(
      "HloModule m\n"
      "f {\n"
      "  x = f32[] parameter(0)\n"
      "  ROOT n = f32[] negate(x)\n"
      "}\n"
      "ENTRY e {\n"
      "  p = f32[] parameter(0)\n"
      "  ROOT a = f32[] call(p), to_apply=f\n"
      "}\n");
  if (!m) return;
  PassContext ctx = {PASS_DEFAULT_FOLD_LIMIT, NULL, false, false, false, false};
  bool changed = true;
  CHECK_OK(pass_flatten_call_graph(m, &ctx, &changed));
  CHECK(!changed && m->ncomps == 2);
  module_destroy(m);
}

/* A while computation shared by N call sites: each site but the first
 * gets clones named NAME.clone, NAME.clone.1, ... (the least free suffix,
 * one already in the module skipped), each name once, at a cost per clone
 * independent of N (module_unique_comp_name's index and last suffix: a
 * scan of every computation per suffix tried made 4000 sites take 7 s). */
TEST(clone_names_are_unique_and_least_free) {
  enum { N = 300 };
  size_t cap = 64 * N + 1024, len = 0;
  char *text = malloc(cap);
  if (!text) return;
  len += (size_t)snprintf(text + len, cap - len,
                          "HloModule m\n"
                          "body.clone.2 {\n  s = s32[] parameter(0)\n  ROOT n = s32[] negate(s)\n}\n"
                          "cond {\n  s = s32[] parameter(0)\n  ten = s32[] constant(10)\n"
                          "  ROOT lt = pred[] compare(s, ten), direction=LT\n}\n"
                          "body {\n  s = s32[] parameter(0)\n  one = s32[] constant(1)\n  ROOT n = s32[] add(s, one)\n}\n"
                          "ENTRY e {\n  w0 = s32[] parameter(0)\n  c = s32[] call(w0), to_apply=body.clone.2\n");
  for (int i = 1; i <= N; i++)
    len += (size_t)snprintf(text + len, cap - len, "  w%d = s32[] while(w%d), condition=cond, body=body\n", i, i - 1);
  snprintf(text + len, cap - len, "  ROOT t = (s32[], s32[]) tuple(w%d, c)\n}\n", N);
  HloModule *m = pt_parse(text);
  free(text);
  if (!m) return;
  pt_run(m, "flatten-call-graph");
  CHECK(m->ncomps == 2 * N + 2);
  int bad = 0, clone2 = 0;
  for (int i = 0; i < m->ncomps; i++)
    for (int j = i + 1; j < m->ncomps; j++) bad += strcmp(m->comps[i]->name, m->comps[j]->name) == 0;
  for (int i = 0; i < m->ncomps; i++) clone2 += strcmp(m->comps[i]->name, "body.clone.2") == 0;
  CHECK(bad == 0 && clone2 == 1);
  /* the second site's clone is .clone, the third's .clone.1, the fourth's
   * .clone.3 (.clone.2 was taken), the last's .clone.N-1 */
  const char *want[][2] = {{"w2", "body.clone"}, {"w3", "body.clone.1"}, {"w4", "body.clone.3"},
                           {"w300", "body.clone.299"}, {"w4", "cond.clone.2"}};
  for (size_t k = 0; k < sizeof want / sizeof want[0]; k++) {
    const Instr *w = comp_find_instr(m->entry, want[k][0]);
    const char *got = w ? w->called[k == 4 ? 0 : 1]->name : "";
    CHECK(strcmp(got, want[k][1]) == 0);
    if (strcmp(got, want[k][1])) fprintf(stderr, "  %s: %s, want %s\n", want[k][0], got, want[k][1]);
  }
  module_destroy(m);
}

int main(void) {
  RUN(shared_while_computations_are_cloned);
  RUN(nested_shared_callees_are_cloned_too);
  RUN(single_call_sites_unchanged);
  RUN(clone_names_are_unique_and_least_free);
  return test_summary("test_pass_flatten");
}
