/* Replays, without libFuzzer, the inputs the .npy and JSON fuzzers
 * (fuzz/fuzz_npy.c, fuzz/fuzz_json.c) found problems with:
 * tests/fuzz-regressions/npy-*.npy and json-*.json, each through exactly
 * the fuzzer's checks (fuzz/data_checks.h) in a scratch directory. Run under
 * `make SAN=1` for the sanitizer checks the fuzzers made. Also checks that
 * the corpus's own .npy files and case.json files pass the same checks
 * (argv[1]: the corpus directory, as tests/run.sh gives it). */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "harness.h"
#include "../../fuzz/data_checks.h"

static const char *regressions = "tests/fuzz-regressions";
static const char *corpus = "tests/corpus";
static char scratch[64];

static uint8_t *read_all(const char *path, size_t *len) {
  FILE *f = fopen(path, "rb");
  if (!f) return NULL;
  size_t cap = 4096, n = 0, r;
  uint8_t *buf = malloc(cap);
  while (buf && (r = fread(buf + n, 1, cap - n, f)) > 0) {
    n += r;
    if (n == cap) {
      uint8_t *nb = realloc(buf, cap *= 2);
      if (!nb) free(buf);
      buf = nb;
    }
  }
  fclose(f);
  *len = n;
  return buf;
}

static bool has_suffix(const char *s, const char *suf) {
  size_t n = strlen(s), m = strlen(suf);
  return n >= m && strcmp(s + n - m, suf) == 0;
}

/* Runs the check for path's kind (npy or json); false if it broke. */
static bool replay(const char *path, bool json) {
  size_t len;
  uint8_t *data = read_all(path, &len);
  CHECK(data != NULL);
  if (!data) return false;
  const char *bug = json ? check_json(data, len, scratch) : check_npy(data, len, scratch);
  if (bug) fprintf(stderr, "%s: %s\n", path, bug);
  CHECK(bug == NULL);
  free(data);
  return bug == NULL;
}

TEST(data_regressions) {
  DIR *d = opendir(regressions);
  if (!d) {
    SKIP("%s not found (nothing to replay)", regressions);
    return;
  }
  int n = 0;
  struct dirent *e;
  while ((e = readdir(d))) {
    bool npy = !strncmp(e->d_name, "npy-", 4) && has_suffix(e->d_name, ".npy");
    bool json = !strncmp(e->d_name, "json-", 5) && has_suffix(e->d_name, ".json");
    if (!npy && !json) continue;
    char path[4096];
    snprintf(path, sizeof path, "%s/%s", regressions, e->d_name);
    replay(path, json);
    n++;
  }
  closedir(d);
  printf("replayed %d npy-*/json-* inputs\n", n);
  if (n == 0) SKIP("no npy-*/json-* inputs under %s", regressions);
}

/* The fuzzers' seeds: every case.json and .npy file of the corpus reads and
 * round-trips cleanly. */
TEST(corpus_data_passes_checks) {
  DIR *d = opendir(corpus);
  if (!d) {
    SKIP("%s not found (corpus data not checked)", corpus);
    return;
  }
  int nj = 0, nn = 0;
  struct dirent *e;
  while ((e = readdir(d))) {
    if (e->d_name[0] == '.') continue;
    char path[4096];
    snprintf(path, sizeof path, "%s/%s/case.json", corpus, e->d_name);
    if (access(path, R_OK) != 0) continue;
    nj += replay(path, true);
    static const char *const sub[] = {"args", "results"};
    for (int k = 0; k < 2; k++) {
      char sd[2048];
      snprintf(sd, sizeof sd, "%s/%s/%s", corpus, e->d_name, sub[k]);
      DIR *dd = opendir(sd);
      if (!dd) continue;
      struct dirent *f;
      while ((f = readdir(dd)))
        if (has_suffix(f->d_name, ".npy")) {
          snprintf(path, sizeof path, "%s/%s", sd, f->d_name);
          nn += replay(path, false);
        }
      closedir(dd);
    }
  }
  closedir(d);
  printf("corpus: %d case.json and %d .npy files pass the checks\n", nj, nn);
  if (nj == 0) SKIP("no case.json under %s", corpus);
}

/* The checks catch what they claim to: a located JSON error passes, a
 * literal with a sub-byte value out of range does not. */
TEST(checks_are_live) {
  static const uint8_t bad_json[] = "{\"a\": [1, 2,]}";
  CHECK(check_json(bad_json, sizeof bad_json - 1, scratch) == NULL);
  int64_t d = 1;
  Literal *l = NULL;
  CHECK_OK(literal_create(T_S4, 1, &d, &l));
  if (l) {
    ((int8_t *)l->data)[0] = 9; /* s4 holds -8..7 */
    CHECK(dc_literal_ok(l) != NULL);
    ((int8_t *)l->data)[0] = -8;
    CHECK(dc_literal_ok(l) == NULL);
  }
  literal_free(l);
}

static void remove_scratch(void) {
  static const char *const files[] = {"in.npy", "out.npy", "case.json"};
  for (int i = 0; i < 3; i++) {
    char p[128];
    snprintf(p, sizeof p, "%s/%s", scratch, files[i]);
    remove(p);
  }
  rmdir(scratch);
}

int main(int argc, char **argv) {
  if (argc > 1) corpus = argv[1];
  snprintf(scratch, sizeof scratch, "/tmp/cxla_data_replay.XXXXXX");
  if (!mkdtemp(scratch)) {
    perror("mkdtemp");
    return 1;
  }
  RUN(data_regressions);
  RUN(corpus_data_passes_checks);
  RUN(checks_are_live);
  remove_scratch();
  return test_summary(__FILE__);
}
