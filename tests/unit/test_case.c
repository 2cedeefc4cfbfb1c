/* The case-directory loader: hand-made case directories (valid and broken
 * case.json files, .npy files that disagree with it) and, when the corpus
 * path is given as argv[1], every case of the corpus with all its .npy
 * files. */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "harness.h"
#include "testing/case.h"
#include "testing/npy.h"

static char tmpdir[64];
static const char *corpus;

static void write_file(const char *dir, const char *name, const char *text) {
  char path[256];
  snprintf(path, sizeof path, "%s/%s", dir, name);
  FILE *f = fopen(path, "w");
  if (!f) return;
  fputs(text, f);
  fclose(f);
}

/* A case directory tmpdir/<name> with the given case.json. */
static const char *make_case(const char *name, const char *json) {
  static char dir[128];
  snprintf(dir, sizeof dir, "%s/%s", tmpdir, name);
  mkdir(dir, 0777);
  char sub[160];
  snprintf(sub, sizeof sub, "%s/args", dir);
  mkdir(sub, 0777);
  write_file(dir, "case.json", json);
  return dir;
}

static const char valid_json[] =
    "{\"description\": \"d\", \"source\": \"s\", \"extra\": {\"ignored\": [1, 2]},\n"
    " \"args\": [{\"file\": \"args/0.npy\", \"dtype\": \"bf16\", \"shape\": [2, 3]},\n"
    "           {\"file\": \"args/1.npy\", \"dtype\": \"pred\", \"shape\": []}],\n"
    " \"results\": [{\"file\": \"results/0.npy\", \"dtype\": \"f8e4m3fn\", \"shape\": [4],\n"
    "               \"rtol\": 0.02, \"atol\": 1e-37}]}\n";

TEST(valid_case) {
  const char *dir = make_case("good", valid_json);
  Case *c = NULL;
  char withslash[160]; /* a trailing slash must not change the name */
  snprintf(withslash, sizeof withslash, "%s/", dir);
  CHECK_OK(case_load(withslash, &c));
  if (!c) return;
  CHECK(strcmp(c->name, "good") == 0);
  CHECK(strcmp(c->description, "d") == 0 && strcmp(c->source, "s") == 0);
  CHECK(c->nargs == 2 && c->nresults == 1);
  CHECK(c->args[0].type == T_BF16 && c->args[0].rank == 2 && c->args[0].dims[1] == 3);
  CHECK(c->args[1].type == T_PRED && c->args[1].rank == 0);
  CHECK(c->results[0].type == T_F8E4M3FN && c->results[0].rtol == 0.02 &&
        c->results[0].atol == 1e-37);
  char want[200];
  snprintf(want, sizeof want, "%s/args/0.npy", dir);
  CHECK(strcmp(c->args[0].path, want) == 0);
  snprintf(want, sizeof want, "%s/optimized.hlo", dir);
  const char *p = case_hlo_path(c, "optimized");
  CHECK(p && strcmp(p, want) == 0);

  /* An arg file that disagrees with case.json: bf16[2,3] wanted; write a
   * u16[3,2] file (the right storage type, the wrong shape). */
  int64_t dims[2] = {3, 2};
  Literal *l = NULL;
  CHECK_OK(literal_create(T_U16, 2, dims, &l));
  CHECK_OK(cxla_npy_write(c->args[0].path, l));
  literal_free(l);
  CHECK_ERR(case_load_tensor(&c->args[0], &l), "holds bf16[3,2] but case.json says bf16[2,3]");
  /* The right shape loads, as bf16. */
  int64_t good[2] = {2, 3};
  CHECK_OK(literal_create(T_U16, 2, good, &l));
  CHECK_OK(cxla_npy_write(c->args[0].path, l));
  literal_free(l);
  l = NULL;
  CHECK_OK(case_load_tensor(&c->args[0], &l));
  CHECK(l && l->type == T_BF16);
  literal_free(l);
  /* A file of another type entirely. */
  CHECK_OK(literal_create(T_F32, 0, NULL, &l));
  CHECK_OK(cxla_npy_write(c->args[1].path, l));
  literal_free(l);
  CHECK_ERR(case_load_tensor(&c->args[1], &l), "holds f32 data, expected pred");
  /* A missing file. */
  CHECK_ERR(case_load_tensor(&c->results[0], &l), "results/0.npy");
  case_free(c);
}

TEST(broken_cases) {
  Case *c = NULL;
  char missing[128];
  snprintf(missing, sizeof missing, "%s/nothing", tmpdir);
  cxla_status s = case_load(missing, &c);
  CHECK(cxla_status_code_of(s) == CXLA_NOT_FOUND);
  cxla_status_free(s);
  CHECK_ERR(case_load(make_case("b1", "[]"), &c), "case.json:1:1: case.json must be an object");
  CHECK_ERR(case_load(make_case("b2", "{\"args\": []}"), &c), "missing \"results\"");
  CHECK_ERR(case_load(make_case("b3", "{\"args\": {}, \"results\": []}"), &c),
            "case.json:1:10: \"args\" and \"results\" must be arrays");
  CHECK_ERR(case_load(make_case("b4", "{\"args\": [{\"file\": \"a.npy\", \"dtype\": \"float32\", "
                                      "\"shape\": []}], \"results\": []}"), &c),
            "case.json:1:38: \"dtype\" must be an HLO array type name");
  CHECK_ERR(case_load(make_case("b5", "{\"args\": [{\"file\": \"a.npy\", \"dtype\": \"f32\", "
                                      "\"shape\": [2, -1]}], \"results\": []}"), &c),
            "shape entries must be non-negative integers");
  CHECK_ERR(case_load(make_case("b6", "{\"args\": [{\"file\": \"a.npy\", \"dtype\": \"f32\", "
                                      "\"shape\": [2.5]}], \"results\": []}"), &c),
            "shape entries must be non-negative integers");
  CHECK_ERR(case_load(make_case("b7", "{\"args\": [], \"results\": [{\"file\": \"r.npy\", "
                                      "\"dtype\": \"f32\", \"shape\": [], \"rtol\": 0}]}"), &c),
            "missing \"atol\"");
  CHECK_ERR(case_load(make_case("b8", "{\"args\": [], \"results\": [{\"file\": \"r.npy\", "
                                      "\"dtype\": \"f32\", \"shape\": [], \"rtol\": -1, "
                                      "\"atol\": 0}]}"), &c),
            "\"rtol\" must be a non-negative number");
  CHECK_ERR(case_load(make_case("b9", "{\"args\": [{\"file\": \"/etc/passwd\", \"dtype\": \"f32\", "
                                      "\"shape\": []}], \"results\": []}"), &c),
            "must be relative");
  CHECK_ERR(case_load(make_case("b10", "{\"args\": [{\"dtype\": \"f32\", \"shape\": []}], "
                                       "\"results\": []}"), &c),
            "\"file\" must be a non-empty string");
  CHECK_ERR(case_load(make_case("b11", "{\"args\": [], \"results\": [],}"), &c),
            "trailing comma in object");
  CHECK_ERR(case_load(make_case("b12", "{\"args\": [{\"file\": \"a.npy\", \"dtype\": \"tuple\", "
                                       "\"shape\": []}], \"results\": []}"), &c),
            "\"dtype\" must be an HLO array type name");
  CHECK(c == NULL);
}

/* A "file" may not leave the case directory: not by "..", and not by a
 * symbolic link that points outside (case_load_tensor checks the real
 * path). Both PERMISSION_DENIED; a ".." inside a name is fine. */
TEST(files_stay_inside_the_case) {
  Case *c = NULL;
  static const char *const escapes[] = {"../../etc/passwd", "args/../../x.npy", "..",
                                        "args/..//..", "./.."};
  for (size_t i = 0; i < sizeof escapes / sizeof escapes[0]; i++) {
    char json[256], name[16];
    snprintf(json, sizeof json,
             "{\"args\": [{\"file\": \"%s\", \"dtype\": \"f32\", \"shape\": []}], "
             "\"results\": []}", escapes[i]);
    snprintf(name, sizeof name, "esc%zu", i);
    cxla_status s = case_load(make_case(name, json), &c);
    CHECK(cxla_status_code_of(s) == CXLA_PERMISSION_DENIED);
    CHECK(strstr(cxla_status_message(s), "leaves the case directory") != NULL);
    cxla_status_free(s);
    CHECK(c == NULL);
  }
  /* A name that merely contains dots loads. */
  CHECK_OK(case_load(make_case("dots", "{\"args\": [{\"file\": \"args/..a..npy\", "
                                       "\"dtype\": \"f32\", \"shape\": []}], "
                                       "\"results\": []}"), &c));
  case_free(c);
  c = NULL;
  /* A symbolic link out of the case: loads as a case, refused as a file. */
  const char *dir = make_case("link", "{\"args\": [{\"file\": \"args/0.npy\", "
                                      "\"dtype\": \"f32\", \"shape\": []}], "
                                      "\"results\": []}");
  char outside[128], link[160];
  snprintf(outside, sizeof outside, "%s/outside.npy", tmpdir);
  Literal *l = NULL;
  CHECK_OK(literal_create(T_F32, 0, NULL, &l));
  CHECK_OK(cxla_npy_write(outside, l));
  literal_free(l);
  l = NULL;
  snprintf(link, sizeof link, "%s/args/0.npy", dir);
  CHECK(symlink(outside, link) == 0);
  CHECK_OK(case_load(dir, &c));
  if (!c) return;
  cxla_status s = case_load_tensor(&c->args[0], &l);
  CHECK(cxla_status_code_of(s) == CXLA_PERMISSION_DENIED);
  CHECK(strstr(cxla_status_message(s), "outside the case directory") != NULL);
  cxla_status_free(s);
  CHECK(l == NULL);
  /* A link that stays inside is followed. */
  char inner[160];
  snprintf(inner, sizeof inner, "%s/inner.npy", dir);
  CHECK(rename(outside, inner) == 0);
  CHECK(unlink(link) == 0 && symlink("../inner.npy", link) == 0);
  CHECK_OK(case_load_tensor(&c->args[0], &l));
  literal_free(l);
  case_free(c);
}

TEST(allocation_failures) {
  const char *dir = make_case("oom", valid_json);
  for (long k = 1; k < 60; k++) {
    Case *c = NULL;
    cxla_fail_alloc_at(k);
    cxla_status s = case_load(dir, &c);
    cxla_fail_alloc_at(0);
    CHECK((s == NULL) == (c != NULL));
    cxla_status_free(s);
    case_free(c);
  }
}

/* Every case of the corpus loads, and so does every .npy file it names,
 * with the dtype and shape case.json gives. */
TEST(whole_corpus_loads) {
  if (!corpus) {
    SKIP("no corpus directory given (argv[1])");
    return;
  }
  DIR *d = opendir(corpus);
  if (!d) {
    SKIP("%s not found", corpus);
    return;
  }
  int ncases = 0;
  struct dirent *e;
  while ((e = readdir(d))) {
    if (e->d_name[0] == '.') continue;
    char dir[512], json[600];
    snprintf(dir, sizeof dir, "%s/%s", corpus, e->d_name);
    snprintf(json, sizeof json, "%s/case.json", dir);
    struct stat sb;
    if (stat(json, &sb) != 0) continue;
    Case *c = NULL;
    CHECK_OK(case_load(dir, &c));
    if (!c) continue;
    ncases++;
    for (int i = 0; i < c->nargs + c->nresults; i++) {
      const CaseTensor *t = i < c->nargs ? &c->args[i] : &c->results[i - c->nargs];
      Literal *l = NULL;
      CHECK_OK(case_load_tensor(t, &l));
      literal_free(l);
    }
    CHECK(c->nresults > 0);
    case_free(c);
  }
  closedir(d);
  printf("test_case: loaded %d corpus cases\n", ncases);
  if (ncases == 0) SKIP("no cases under %s", corpus);
}

int main(int argc, char **argv) {
  corpus = argc > 1 ? argv[1] : NULL;
  snprintf(tmpdir, sizeof tmpdir, "/tmp/cxla_test_case_XXXXXX");
  if (!mkdtemp(tmpdir)) {
    perror("mkdtemp");
    return 1;
  }
  RUN(valid_case);
  RUN(broken_cases);
  RUN(files_stay_inside_the_case);
  RUN(allocation_failures);
  RUN(whole_corpus_loads);
  char cmd[128];
  snprintf(cmd, sizeof cmd, "rm -rf %s", tmpdir);
  if (system(cmd) != 0) fprintf(stderr, "could not remove %s\n", tmpdir);
  return test_summary("test_case");
}
