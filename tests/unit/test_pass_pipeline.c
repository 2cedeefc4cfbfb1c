/* Tests of the pass registry and the pipeline driver: named runs, the
 * default pipeline, verification between passes, dumps and reports, and the
 * whole corpus through the default pipeline.
 *
 *   test_pass_pipeline [corpus-dir]     (default tests/corpus) */
#include <dirent.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "harness.h"
#include "pass_helpers.h"
#include "testing/case.h"
#include "testing/compare.h"

static const char *corpus_dir = "tests/corpus";

static const char *kDead =
    "HloModule dumpme\n"
    "ENTRY e {\n"
    "  p = f32[4] parameter(0)\n"
    "  dead = f32[4] negate(p)\n"
    "  ROOT r = f32[4] abs(p)\n"
    "}\n";

TEST(registry_lists_passes_once) {
  int n;
  const Pass *p = pass_registry(&n);
  CHECK(n >= 7);
  for (int i = 0; i < n; i++) {
    CHECK(p[i].name && p[i].run && p[i].summary && p[i].summary[0]);
    CHECK(pass_find(p[i].name) == &p[i]);
    for (int j = 0; j < i; j++) CHECK(strcmp(p[i].name, p[j].name) != 0);
  }
  const char *mine[] = {"dce", "cse", "call-inliner", "tuple-simplifier", "flatten-call-graph",
                        "constant-folding", "algsimp"};
  for (size_t i = 0; i < sizeof mine / sizeof mine[0]; i++) CHECK(pass_find(mine[i]) != NULL);
  CHECK(pass_find("no-such-pass") == NULL);
}

TEST(unknown_pass_is_refused_before_running_anything) {
  HloModule *m = pt_parse(kDead);
  if (!m) return;
  const char *names[] = {"dce", "bogus"};
  CHECK_ERR(pipeline_run(m, names, 2, NULL), "unknown pass 'bogus'");
  CHECK(comp_find_instr(m->entry, "dead") != NULL); /* dce did not run */
  module_destroy(m);
}

TEST(named_passes_run) {
  HloModule *m = pt_parse(kDead);
  if (!m) return;
  pt_run(m, "dce");
  CHECK(comp_find_instr(m->entry, "dead") == NULL);
  CHECK(m->entry->ninstrs == 2);
  module_destroy(m);
}

/* A pass that changes the root's declared shape: the verifier must blame it. */
static cxla_status breaker(HloModule *m, const PassContext *ctx, bool *changed) {
  (void)ctx;
  Shape *s = shape_new(&m->arena, T_S32, 1, (int64_t[]){4});
  if (!s) return cxla_oom();
  m->entry->root->shape = s;
  *changed = true;
  return NULL;
}

static cxla_status failing(HloModule *m, const PassContext *ctx, bool *changed) {
  (void)m;
  (void)ctx;
  *changed = false;
  return ERR(INTERNAL, "something went wrong");
}

static int report_runs;
static cxla_status reporter(HloModule *m, const PassContext *ctx, bool *changed) {
  (void)m;
  *changed = false;
  report_runs++;
  if (!ctx->report) return NULL; /* no dump: nobody reads reports */
  *ctx->report = cxla_strdup("BufferAssignment: 3 buffers\n");
  return *ctx->report ? NULL : cxla_oom();
}

static int null_reports;
static cxla_status report_sink(HloModule *m, const PassContext *ctx, bool *changed) {
  (void)m;
  *changed = false;
  null_reports += ctx->report == NULL;
  return NULL;
}

TEST(verifier_names_the_pass_that_broke_the_module) {
  HloModule *m = pt_parse(kDead);
  if (!m) return;
  Pass b = {"breaker", breaker, "breaks things"};
  const Pass *list[] = {&b};
  PipelineOptions o = {true, NULL, 1};
  CHECK_ERR(pipeline_run_list(m, list, 1, &o), "pass breaker broke the module: verify:");
  module_destroy(m);
  /* Without verification the pipeline does not notice. */
  m = pt_parse(kDead);
  if (!m) return;
  o.verify = false;
  CHECK_OK(pipeline_run_list(m, list, 1, &o));
  module_destroy(m);
}

TEST(pass_errors_name_the_pass) {
  HloModule *m = pt_parse(kDead);
  if (!m) return;
  Pass f = {"failing", failing, "fails"};
  const Pass *list[] = {&f};
  CHECK_ERR(pipeline_run_list(m, list, 1, NULL), "pass failing: something went wrong");
  module_destroy(m);
}

TEST(input_that_does_not_verify_is_refused) {
  HloModule *m = pt_parse(kDead);
  if (!m) return;
  m->entry->root->shape = shape_new(&m->arena, T_S32, 0, NULL);
  PipelineOptions o = {true, NULL, 1};
  CHECK_ERR(pipeline_run(m, NULL, 0, &o), "does not verify before optimization");
  module_destroy(m);
}

static bool file_exists(const char *dir, const char *name) {
  char path[1024];
  snprintf(path, sizeof path, "%s/%s", dir, name);
  struct stat st;
  return stat(path, &st) == 0 && S_ISREG(st.st_mode);
}

static char *read_all(const char *dir, const char *name) {
  char path[1024];
  snprintf(path, sizeof path, "%s/%s", dir, name);
  FILE *f = fopen(path, "rb");
  if (!f) return NULL;
  static char buf[1 << 16];
  size_t n = fread(buf, 1, sizeof buf - 1, f);
  buf[n] = '\0';
  fclose(f);
  return buf;
}

static void remove_tree(const char *dir) {
  DIR *d = opendir(dir);
  if (!d) return;
  struct dirent *e;
  while ((e = readdir(d))) {
    if (e->d_name[0] == '.') continue;
    char path[1024];
    snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
    struct stat st;
    if (stat(path, &st) == 0 && S_ISDIR(st.st_mode)) remove_tree(path);
    else unlink(path);
  }
  closedir(d);
  rmdir(dir);
}

TEST(dumps_follow_xla_naming) {
  char tmpl[] = "/tmp/cxla_dumpXXXXXX";
  char *root = mkdtemp(tmpl);
  CHECK(root != NULL);
  if (!root) return;
  char dir[512];
  snprintf(dir, sizeof dir, "%s/a/b", root); /* created on demand, like mkdir -p */
  HloModule *m = pt_parse(kDead);
  if (m) {
    Pass rep = {"reporter", reporter, "leaves a report"};
    const Pass *list[] = {pass_find("cse"), pass_find("dce"), pass_find("dce"), &rep};
    PipelineOptions o = {true, dir, 7};
    report_runs = 0;
    CHECK_OK(pipeline_run_list(m, list, 4, &o));
    CHECK(report_runs == 1);
    CHECK(file_exists(dir, "module_0007.dumpme.before_optimizations.txt"));
    CHECK(!file_exists(dir, "module_0007.dumpme.0001.after_cse.txt")); /* no change */
    CHECK(file_exists(dir, "module_0007.dumpme.0002.after_dce.txt"));
    CHECK(!file_exists(dir, "module_0007.dumpme.0003.after_dce.txt"));
    CHECK(file_exists(dir, "module_0007.dumpme.after_optimizations.txt"));
    const char *before = read_all(dir, "module_0007.dumpme.before_optimizations.txt");
    CHECK(before && strstr(before, "negate"));
    const char *after = read_all(dir, "module_0007.dumpme.0002.after_dce.txt");
    CHECK(after && !strstr(after, "negate") && strstr(after, "abs"));
    const char *rep_text = read_all(dir, "module_0007.dumpme.buffer-assignment.txt");
    CHECK(rep_text && strcmp(rep_text, "BufferAssignment: 3 buffers\n") == 0);
    module_destroy(m);
  }
  /* A dump path that is a file is an error, not a crash. */
  char file[600];
  snprintf(file, sizeof file, "%s/a/b/module_0007.dumpme.before_optimizations.txt", root);
  m = pt_parse(kDead);
  if (m) {
    PipelineOptions o = {false, file, 1};
    cxla_status s = pipeline_run(m, NULL, 0, &o);
    CHECK(cxla_status_code_of(s) == CXLA_IO);
    cxla_status_free(s);
    module_destroy(m);
  }
  remove_tree(root);
}

TEST(report_without_dump_dir_is_freed) {
  HloModule *m = pt_parse(kDead);
  if (!m) return;
  Pass rep = {"reporter", reporter, "leaves a report"};
  const Pass *list[] = {&rep, &rep};
  report_runs = 0;
  CHECK_OK(pipeline_run_list(m, list, 2, NULL));
  CHECK(report_runs == 2); /* leak-checked under SAN=1 */
  module_destroy(m);
}

/* Without a dump directory passes get no report sink, so buffer
 * assignment (which only reports) is skipped: the runtime plans once. */
TEST(no_report_sink_without_dump_dir) {
  HloModule *m = pt_parse(kDead);
  if (!m) return;
  Pass sink = {"sink", report_sink, "looks at the report sink"};
  const Pass *list[] = {&sink};
  null_reports = 0;
  CHECK_OK(pipeline_run_list(m, list, 1, NULL));
  CHECK(null_reports == 1);
  module_destroy(m);
}

TEST(fresh_names_do_not_collide) {
  HloModule *m = pt_parse(
      "HloModule n\n"
      "ENTRY e {\n"
      "  p = f32[] parameter(0)\n"
      "  negate.40 = f32[] negate(p)\n"
      "  ROOT add.7 = f32[] add(negate.40, p)\n"
      "}\n");
  if (!m) return;
  /* the parser's names raised the module's counter (module_note_name) */
  Instr *in = comp_add_instr(m->entry, OP_NEGATE, m->entry->root->shape, 1, &m->entry->params[0],
                             NULL);
  CHECK(in && strcmp(in->name, "negate.41") == 0);
  module_destroy(m);
}

TEST(default_pipeline_simplifies_and_verifies) {
  HloModule *m = pt_parse(
      "HloModule d\n"
      "f {\n"
      "  a = f32[4] parameter(0)\n"
      "  ROOT n = f32[4] negate(a)\n"
      "}\n"
      "ENTRY e {\n"
      "  p = f32[4] parameter(0)\n"
      "  c1 = f32[4] call(p), to_apply=f\n"
      "  c2 = f32[4] call(p), to_apply=f\n"
      "  t = (f32[4], f32[4]) tuple(c1, c2)\n"
      "  g0 = f32[4] get-tuple-element(t), index=0\n"
      "  g1 = f32[4] get-tuple-element(t), index=1\n"
      "  ROOT r = f32[4] add(g0, g1)\n"
      "}\n");
  if (!m) return;
  pt_run(m, NULL);
  /* Inlined (f is gone), tuples gone, the two negates merged; then the
   * negate and the add fuse into one loop fusion: the entry is the
   * parameter and the fusion. */
  CHECK(module_find_computation(m, "f") == NULL);
  CHECK(pt_count(m, "negate") == 1);
  CHECK(pt_count(m, "tuple") == 0 && pt_count(m, "call") == 0);
  CHECK(m->ncomps == 2 && pt_count(m, "fusion") == 1);
  CHECK(m->entry->ninstrs == 2);
  module_destroy(m);
}

/* Out of memory at every allocation in turn: the pipeline fails cleanly
 * (a status, no crash, no leak under SAN=1) until it has enough. */
TEST(out_of_memory_sweep) {
  static const char *text =
      "HloModule oom\n"
      "sum {\n  a = s32[] parameter(0)\n  b = s32[] parameter(1)\n  ROOT s = s32[] add(a, b)\n}\n"
      "sum2 {\n  a = s32[] parameter(0)\n  b = s32[] parameter(1)\n  ROOT s = s32[] add(a, b)\n}\n"
      "f {\n  x = s32[4] parameter(0)\n  one = s32[] constant(1)\n"
      "  b = s32[4] broadcast(one), dimensions={}\n  ROOT m = s32[4] multiply(x, b)\n}\n"
      "ENTRY e {\n  p = s32[4] parameter(0)\n  c = s32[4] call(p), to_apply=f\n"
      "  k = s32[4] constant({1, 2, 3, 4})\n  n = s32[4] negate(k)\n"
      "  t = (s32[4], s32[4]) tuple(c, n)\n  g = s32[4] get-tuple-element(t), index=1\n"
      "  a = s32[4] add(c, g)\n  z = s32[] constant(0)\n"
      "  r1 = s32[] reduce(a, z), dimensions={0}, to_apply=sum\n"
      "  r2 = s32[] reduce(a, z), dimensions={0}, to_apply=sum2\n"
      "  ROOT r = s32[] add(r1, r2)\n}\n";
  bool finished = false;
  for (long n = 1; n < 100000 && !finished; n++) {
    HloModule *m = pt_parse(text);
    if (!m) return;
    PipelineOptions o = {true, NULL, 1};
    cxla_fail_alloc_at(n);
    cxla_status s = pipeline_run(m, NULL, 0, &o);
    cxla_fail_alloc_at(0);
    if (!s) finished = true;
    cxla_status_free(s);
    if (finished) CHECK(m->entry->ninstrs < 10);
    module_destroy(m);
  }
  CHECK(finished);
}

/* Random modules through the whole pipeline: see test_random_diff.c. */

/* The value check itself notices a changed result. */
TEST(value_check_detects_differences) {
  HloModule *m = pt_parse(kDead);
  if (!m) return;
  CHECK(pt_values_agree(kDead, m, 2) == 1);
  m->entry->root->op = OP_NEGATE; /* abs -> negate: differs on positive inputs */
  CHECK(pt_values_agree(kDead, m, 2) == 0);
  module_destroy(m);
}

/* ---- the corpus: every module survives the default pipeline verified ---- */

static int cmp_str(const void *a, const void *b) {
  return strcmp(*(char *const *)a, *(char *const *)b);
}

TEST(corpus_default_pipeline_verifies) {
  DIR *d = opendir(corpus_dir);
  if (!d) {
    SKIP("corpus directory %s not found", corpus_dir);
    return;
  }
  char *names[1024];
  int n = 0;
  struct dirent *e;
  while ((e = readdir(d)) && n < 1024)
    if (e->d_name[0] != '.') names[n++] = strdup(e->d_name);
  closedir(d);
  if (n == 0) {
    SKIP("no cases under %s", corpus_dir);
    return;
  }
  qsort(names, (size_t)n, sizeof names[0], cmp_str);
  int ok = 0, total = 0, before = 0, after = 0, agree = 0, unrunnable = 0, rounded = 0;
  for (int i = 0; i < n; i++) {
    char path[1024];
    snprintf(path, sizeof path, "%s/%s/module.hlo", corpus_dir, names[i]);
    HloModule *m = NULL;
    cxla_status s = cxla_module_parse_file(path, &m);
    char *text = NULL;
    if (!s) s = cxla_module_print(m, &text);
    if (s) {
      cxla_status_free(s);
      module_destroy(m);
      free(names[i]);
      continue;
    }
    total++;
    if (getenv("PT_VERBOSE")) fprintf(stderr, "%s\n", names[i]);
    int b = module_instr_count(m);
    PipelineOptions o = {true, NULL, 1};
    s = pipeline_run(m, NULL, 0, &o);
    if (s) {
      fprintf(stderr, "%s: %s\n", names[i], cxla_status_message(s));
      cxla_status_free(s);
      CHECK(!"corpus module fails the pipeline");
    } else {
      ok++;
      before += b;
      after += module_instr_count(m);
      /* Values on generated inputs (not for loops: with made-up inputs a
       * loop may never end): within 1e-5 of the original's (XLA's own
       * rewrites round differently: x / c, dot strength reduction, float
       * scans, reduces over size-1 dimensions), and bit for bit with the
       * exact pipeline (pipeline_run_exact). */
      /* The default pipeline's expanders of ops XLA always expands
       * (qr-expander, batchnorm-expander) round at every op of the
       * expansion: those modules' values are checked against XLA's by the
       * conformance test, not here. */
      bool expands = strstr(text, " batch-norm-") || strstr(text, "custom_call_target=\"Qr\"") ||
                     strstr(text, "\"ProductOfElementaryHouseholderReflectors\"");
      bool loops = strstr(text, " while(") != NULL || expands;
      int v = loops ? -1 : pt_values_within(text, m, 2, 1e-5, 1e-6);
      if (v == 1) {
        HloModule *e = NULL;
        cxla_status es = cxla_module_parse_file(path, &e);
        if (!es) es = pipeline_run_exact(e, NULL, 0, &o);
        CHECK_OK(es);
        if (!es && pt_values_agree(text, e, 2) == 0) {
          fprintf(stderr, "%s: the exact pipeline changed the values\n", names[i]);
          v = 0;
        }
        if (!es && pt_values_agree(text, m, 2) != 1) rounded++;
        module_destroy(e);
      }
      if (v == 1) agree++;
      if (v < 0) unrunnable++;
      if (v == 0) {
        fprintf(stderr, "%s: the pipeline changed the values\n", names[i]);
        CHECK(!"the pipeline changed a corpus module's values");
      }
    }
    cxla_free_string(text);
    module_destroy(m);
    free(names[i]);
  }
  printf("corpus: %d/%d modules optimized and verified; instructions %d -> %d; "
         "values agree on %d (%d of them within 1e-5, bit for bit in exact mode; %d not runnable)\n",
         ok, total, before, after, agree, rounded, unrunnable);
}

/* ---- the corpus against XLA's results, with and without the pipeline ---- */

/* Runs module m on the case's arguments; 1 if every result matches XLA's
 * within the case's tolerances, 0 if not, -1 if it cannot run. *value gets
 * the result (caller frees). */
static int conform(Case *k, const HloModule *m, Literal **value) {
  *value = NULL;
  Literal *args[64] = {0};
  int n = k->nargs < 64 ? k->nargs : 64;
  int ok = 1;
  for (int i = 0; i < n && ok == 1; i++) {
    cxla_status s = case_load_tensor(&k->args[i], &args[i]);
    if (s) ok = -1;
    cxla_status_free(s);
  }
  if (ok == 1) {
    cxla_status s = cxla_interp_run(m, args, n, value);
    if (s) ok = -1;
    cxla_status_free(s);
  }
  Literal **leaves = NULL;
  int nleaves = 0;
  if (ok == 1) {
    cxla_status s = literal_flatten(*value, &leaves, &nleaves);
    if (s || nleaves != k->nresults) ok = 0;
    cxla_status_free(s);
  }
  for (int i = 0; i < nleaves && ok == 1; i++) {
    Literal *want = NULL;
    cxla_status s = case_load_tensor(&k->results[i], &want);
    CompareReport r;
    if (s || !compare_literals(leaves[i], want, k->results[i].rtol, k->results[i].atol, &r))
      ok = 0;
    cxla_status_free(s);
    literal_free(want);
  }
  cxla_free(leaves);
  for (int i = 0; i < n; i++) literal_free(args[i]);
  return ok;
}

TEST(corpus_conformance_with_and_without_pipeline) {
  DIR *d = opendir(corpus_dir);
  if (!d) {
    SKIP("corpus directory %s not found", corpus_dir);
    return;
  }
  char *names[1024];
  int n = 0;
  struct dirent *e;
  while ((e = readdir(d)) && n < 1024)
    if (e->d_name[0] != '.') names[n++] = strdup(e->d_name);
  closedir(d);
  if (n == 0) {
    SKIP("no cases under %s", corpus_dir);
    return;
  }
  qsort(names, (size_t)n, sizeof names[0], cmp_str);
  int raw_ok = 0, opt_ok = 0, same = 0, total = 0;
  for (int i = 0; i < n; i++) {
    char dir[1024];
    snprintf(dir, sizeof dir, "%s/%s", corpus_dir, names[i]);
    Case *k = NULL;
    HloModule *raw = NULL, *opt = NULL;
    cxla_status s = case_load(dir, &k);
    if (!s) s = cxla_module_parse_file(case_hlo_path(k, "module"), &raw);
    if (!s) s = cxla_module_parse_file(case_hlo_path(k, "module"), &opt);
    if (!s) s = pipeline_run(opt, NULL, 0, NULL);
    if (s) {
      fprintf(stderr, "%s: %s\n", names[i], cxla_status_message(s));
      cxla_status_free(s);
    } else {
      total++;
      if (getenv("PT_VERBOSE")) fprintf(stderr, "%s\n", names[i]);
      Literal *a, *b;
      int ra = conform(k, raw, &a), rb = conform(k, opt, &b);
      raw_ok += ra == 1;
      opt_ok += rb == 1;
      if (a && b && pt_literal_same(a, b)) same++;
      else if (a || b) fprintf(stderr, "%s: results with and without the pipeline differ\n", names[i]);
      if (ra == 1 && rb != 1) {
        fprintf(stderr, "%s: conforms without the pipeline, not with it\n", names[i]);
        CHECK(!"the pipeline broke a conforming case");
      }
      literal_free(a);
      literal_free(b);
    }
    module_destroy(raw);
    module_destroy(opt);
    case_free(k);
    free(names[i]);
  }
  printf("corpus conformance: %d/%d without the pipeline, %d/%d with it; %d identical results\n",
         raw_ok, total, opt_ok, total, same);
}

int main(int argc, char **argv) {
  if (argc > 1) corpus_dir = argv[1];
  RUN(registry_lists_passes_once);
  RUN(unknown_pass_is_refused_before_running_anything);
  RUN(named_passes_run);
  RUN(verifier_names_the_pass_that_broke_the_module);
  RUN(pass_errors_name_the_pass);
  RUN(input_that_does_not_verify_is_refused);
  RUN(dumps_follow_xla_naming);
  RUN(report_without_dump_dir_is_freed);
  RUN(no_report_sink_without_dump_dir);
  RUN(fresh_names_do_not_collide);
  RUN(default_pipeline_simplifies_and_verifies);
  RUN(value_check_detects_differences);
  RUN(out_of_memory_sweep);
  RUN(corpus_default_pipeline_verifies);
  RUN(corpus_conformance_with_and_without_pipeline);
  return test_summary("test_pass_pipeline");
}
