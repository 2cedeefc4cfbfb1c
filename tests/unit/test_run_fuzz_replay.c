/* Replays, without libFuzzer, the inputs fuzz/fuzz_run.c found problems
 * with (tests/fuzz-regressions/run-*): each goes through parse -> verify -> (if small) interpret
 * with exactly the fuzzer's guards (fuzz/run_guard.h) and must end in a
 * status, never a broken invariant. Run under `make SAN=1` for the
 * sanitizer checks the fuzzer made.
 *
 * Also checks the guards themselves: every corpus module verifies and is
 * accepted as small, so the fuzzer's seeds reach the interpreter, and the
 * work budget stops a loop that never ends. */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "harness.h"
#include "../../fuzz/run_guard.h"

static const char *dir = "tests/fuzz-regressions";
static const char *prefix = "run-";
static const char *corpus = "tests/corpus";
static int replayed;
static bool verbose; /* a directory was given: list each file's outcome */

static char *read_all(const char *path, size_t *len) {
  FILE *f = fopen(path, "rb");
  if (!f) return NULL;
  size_t cap = 4096, n = 0, r;
  char *buf = malloc(cap);
  while (buf && (r = fread(buf + n, 1, cap - n, f)) > 0) {
    n += r;
    if (n == cap) {
      char *nb = realloc(buf, cap *= 2);
      if (!nb) free(buf);
      buf = nb;
    }
  }
  fclose(f);
  *len = n;
  return buf;
}

static RunOutcome replay_file(const char *path) {
  size_t len;
  char *data = read_all(path, &len);
  CHECK(data != NULL);
  if (!data) return RG_BUG;
  const char *bug = NULL;
  RunOutcome r = run_guarded((const uint8_t *)data, len, &bug);
  if (r == RG_BUG) fprintf(stderr, "%s: %s\n", path, bug);
  if (verbose)
    printf("%s: %s%s%s\n", path, rg_outcome_names[r], r == RG_RUN_ERROR ? ": " : "",
           r == RG_RUN_ERROR ? rg_last_error : "");
  CHECK(r != RG_BUG);
  free(data);
  return r;
}

TEST(run_regressions) {
  DIR *d = opendir(dir);
  if (!d) {
    SKIP("%s not found (nothing to replay)", dir);
    return;
  }
  int counts[RG_NOUTCOMES] = {0};
  struct dirent *e;
  while ((e = readdir(d))) {
    if (e->d_name[0] == '.' || strncmp(e->d_name, prefix, strlen(prefix)) != 0) continue;
    char path[4096];
    snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
    counts[replay_file(path)]++;
    replayed++;
  }
  closedir(d);
  if (replayed == 0) SKIP("no run-* inputs under %s", dir);
  printf("replayed %d run-* inputs:", replayed);
  for (int i = 0; i < RG_NOUTCOMES; i++) printf(" %s %d", rg_outcome_names[i], counts[i]);
  printf("\n");
}

/* The fuzzer's seeds are the corpus modules: each must pass the guards
 * (parse, verify, small) and reach the interpreter, with zero arguments. */
TEST(corpus_passes_guards) {
  DIR *d = opendir(corpus);
  if (!d) {
    SKIP("%s not found (guards not checked against it)", corpus);
    return;
  }
  int ran = 0;
  struct dirent *e;
  while ((e = readdir(d))) {
    if (e->d_name[0] == '.') continue;
    static const char *const files[] = {"module.hlo", "optimized.hlo"};
    for (int k = 0; k < 2; k++) {
      char path[4096];
      snprintf(path, sizeof path, "%s/%s/%s", corpus, e->d_name, files[k]);
      FILE *f = fopen(path, "rb");
      if (!f) continue;
      fclose(f);
      RunOutcome r = replay_file(path);
      if (r != RG_RUN_OK && r != RG_RUN_ERROR)
        fprintf(stderr, "%s: %s\n", path, rg_outcome_names[r]);
      CHECK(r == RG_RUN_OK || r == RG_RUN_ERROR);
      ran++;
    }
  }
  closedir(d);
  printf("%d corpus modules pass the guards\n", ran);
  if (ran == 0) SKIP("no corpus modules under %s", corpus);
}

/* The module of text, parsed and verified (NULL, the test failed, if not). */
static cxla_module *parse_verified(const char *text, size_t len, const char *name) {
  cxla_module *m = NULL;
  CHECK_OK(cxla_module_parse(text, len, name, &m));
  if (m) CHECK_OK(cxla_module_verify(m));
  return m;
}

/* m on the interpreter within budget stops with RESOURCE_EXHAUSTED, saying
 * so, and no result. */
static void check_budget_stops(const cxla_module *m, uint64_t budget) {
  Literal *out = NULL;
  cxla_status s = interp_run_budget(m, NULL, 0, budget, &out);
  CHECK(cxla_status_code_of(s) == CXLA_RESOURCE_EXHAUSTED);
  CHECK(s && strstr(cxla_status_message(s), "budget"));
  CHECK(out == NULL);
  cxla_status_free(s);
  literal_free(out);
}

/* A loop whose condition is always true must stop on the budget with
 * RESOURCE_EXHAUSTED, and the same module without a budget is not run here
 * (it would never return). */
TEST(budget_stops_endless_loop) {
  static const char text[] =
      "HloModule endless\n"
      "cond { p = s32[] parameter(0)\n ROOT t = pred[] constant(true) }\n"
      "body { p = s32[] parameter(0)\n one = s32[] constant(1)\n"
      " ROOT n = s32[] add(p, one) }\n"
      "ENTRY main { z = s32[] constant(0)\n"
      " ROOT w = s32[] while(z), condition=cond, body=body }\n";
  cxla_module *m = parse_verified(text, sizeof text - 1, "endless");
  if (!m) return;
  check_budget_stops(m, 1000);
  const char *bug = NULL;
  CHECK(run_guarded((const uint8_t *)text, sizeof text - 1, &bug) == RG_RUN_ERROR);
  cxla_module_destroy(m);
}

/* A loop that ends after 10 iterations runs the same with and without a
 * (large enough) budget: 10. */
TEST(budget_lets_finite_loop_finish) {
  static const char text[] =
      "HloModule ten\n"
      "cond { p = s32[] parameter(0)\n ten = s32[] constant(10)\n"
      " ROOT lt = pred[] compare(p, ten), direction=LT }\n"
      "body { p = s32[] parameter(0)\n one = s32[] constant(1)\n"
      " ROOT n = s32[] add(p, one) }\n"
      "ENTRY main { z = s32[] constant(0)\n"
      " ROOT w = s32[] while(z), condition=cond, body=body }\n";
  cxla_module *m = NULL;
  CHECK_OK(cxla_module_parse(text, sizeof text - 1, "ten", &m));
  if (!m) return;
  for (int budget = 0; budget < 2; budget++) {
    Literal *out = NULL;
    CHECK_OK(interp_run_budget(m, NULL, 0, budget ? 1000 : 0, &out));
    CHECK(out && out->type == T_S32 && *(int32_t *)out->data == 10);
    literal_free(out);
  }
  cxla_module_destroy(m);
}

/* A comparator's evaluations charge the budget too, also where it runs as
 * a straight-line program (no interp_call per comparison): a sort of 4096
 * elements makes some 40000 calls of 4 instructions, past a budget of
 * 100000; with 10^7 it finishes, sorted. */
TEST(budget_counts_comparator_calls) {
  static const char text[] =
      "HloModule sorted\n"
      "cmp { a = s32[] parameter(0)\n b = s32[] parameter(1)\n m = s32[] negate(a)\n"
      " n = s32[] negate(b)\n ROOT l = pred[] compare(m, n), direction=LT }\n"
      "ENTRY main { i = s32[4096] iota(), iota_dimension=0\n"
      " ROOT s = s32[4096] sort(i), dimensions={0}, to_apply=cmp }\n";
  cxla_module *m = parse_verified(text, sizeof text - 1, "sorted");
  if (!m) return;
  check_budget_stops(m, 100000);
  Literal *out = NULL;
  CHECK_OK(interp_run_budget(m, NULL, 0, 10000000, &out));
  CHECK(out && out->type == T_S32 && out->nelems == 4096);
  if (out && out->nelems == 4096) {
    const int32_t *v = out->data;
    CHECK(v[0] == 4095 && v[4095] == 0);
  }
  literal_free(out);
  cxla_module_destroy(m);
}

/* Arrays over the guard's limit are refused before running. */
TEST(guard_refuses_big_arrays) {
  static const char text[] =
      "HloModule big\n"
      "ENTRY main { z = f32[] constant(0)\n"
      " ROOT b = f32[1024,1024] broadcast(z), dimensions={} }\n";
  const char *bug = NULL;
  CHECK(run_guarded((const uint8_t *)text, sizeof text - 1, &bug) == RG_TOO_BIG);
}

/* A declared shape that no longer fits its attributes (slice bounds
 * changed, the declared shape and the entry layout did not follow) is
 * repaired to the inferred one, and the module then verifies. */
TEST(guard_repairs_declared_shapes) {
  static const char text[] =
      "HloModule r, entry_computation_layout={(f32[8]{0})->f32[2]{0}}\n"
      "ENTRY main { x = f32[8] parameter(0)\n"
      " s = f32[2] slice(x), slice={[1:6]}\n"
      " ROOT n = f32[2] negate(s) }\n";
  cxla_module *m = NULL;
  CHECK_OK(cxla_module_parse(text, sizeof text - 1, "r", &m));
  if (!m) return;
  cxla_status s = cxla_module_verify(m);
  CHECK(s != NULL);
  cxla_status_free(s);
  rg_repair(m);
  CHECK_OK(cxla_module_verify(m));
  CHECK(m->entry->root->shape->rank == 1 && m->entry->root->shape->dims[0] == 5);
  cxla_module_destroy(m);
  const char *bug = NULL;
  CHECK(run_guarded((const uint8_t *)text, sizeof text - 1, &bug) == RG_RUN_OK);
}

/* Argument bytes after a NUL fill the parameters: 2 + 3 = 5. */
TEST(guard_arguments_from_bytes) {
  static const char text[] =
      "HloModule args\n"
      "ENTRY main { a = s8[] parameter(0)\n b = s8[] parameter(1)\n"
      " ROOT s = s8[] add(a, b) }\n";
  char buf[sizeof text + 2];
  memcpy(buf, text, sizeof text); /* includes the NUL */
  buf[sizeof text] = 2;
  buf[sizeof text + 1] = 3;
  cxla_module *m = NULL;
  CHECK_OK(cxla_module_parse(text, sizeof text - 1, "args", &m));
  if (!m) return;
  const uint8_t *b = (const uint8_t *)buf + sizeof text;
  size_t nb = 2;
  Literal *args[2] = {NULL, NULL};
  for (int i = 0; i < 2; i++) {
    CHECK_OK(literal_create_for_shape(m->entry->params[i]->shape, &args[i]));
    if (args[i]) rg_fill(args[i], &b, &nb);
  }
  Literal *out = NULL;
  if (args[0] && args[1]) CHECK_OK(interp_run_budget(m, args, 2, RG_BUDGET, &out));
  CHECK(out && *(int8_t *)out->data == 5);
  literal_free(out);
  for (int i = 0; i < 2; i++) literal_free(args[i]);
  cxla_module_destroy(m);
  const char *bug = NULL;
  CHECK(run_guarded((const uint8_t *)buf, sizeof buf, &bug) == RG_RUN_OK);
}

/* Sub-byte argument types are normalised: s4 from 0x0F is -1, pred from 2
 * is false. */
TEST(guard_normalises_subbyte_arguments) {
  int64_t d = 2;
  Literal *l = NULL;
  CHECK_OK(literal_create(T_S4, 1, &d, &l));
  uint8_t bytes[] = {0x0F, 0x17};
  const uint8_t *b = bytes;
  size_t nb = 2;
  if (l) {
    rg_fill(l, &b, &nb);
    CHECK(((int8_t *)l->data)[0] == -1 && ((int8_t *)l->data)[1] == 7);
  }
  literal_free(l);
  l = NULL;
  CHECK_OK(literal_create(T_PRED, 1, &d, &l));
  uint8_t pb[] = {2, 3};
  b = pb;
  nb = 2;
  if (l) {
    rg_fill(l, &b, &nb);
    CHECK(((uint8_t *)l->data)[0] == 0 && ((uint8_t *)l->data)[1] == 1);
  }
  literal_free(l);
}

/* Usage: test_run_fuzz_replay [CORPUS]: tests/run.sh passes the corpus
 * directory; test_run_fuzz_replay --dir DIR instead replays every file of
 * DIR and lists each outcome (for triage). */
int main(int argc, char **argv) {
  if (argc > 2 && strcmp(argv[1], "--dir") == 0) {
    dir = argv[2];
    prefix = "";
    verbose = true;
  } else if (argc > 1) {
    corpus = argv[1];
  }
  RUN(run_regressions);
  if (!verbose) RUN(corpus_passes_guards);
  RUN(budget_stops_endless_loop);
  RUN(budget_lets_finite_loop_finish);
  RUN(budget_counts_comparator_calls);
  RUN(guard_refuses_big_arrays);
  RUN(guard_repairs_declared_shapes);
  RUN(guard_arguments_from_bytes);
  RUN(guard_normalises_subbyte_arguments);
  return test_summary(__FILE__);
}
