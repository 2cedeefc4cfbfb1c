/* Replays the HLO inputs the fuzzers found problems with (the *.hlo files
 * of tests/fuzz-regressions/, or of $CXLA_FUZZ_REGRESSIONS) without
 * libFuzzer: each must parse or fail cleanly with a located error, and when
 * it parses, print -> parse -> print must reach a fixed point. (argv[1] is
 * the corpus directory tests/run.sh gives every unit test; unused here.)
 * Run under `make SAN=1` for the sanitizer checks the fuzzer made. */
#include <dirent.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "harness.h"

static const char *dir = "tests/fuzz-regressions";
static int replayed;

static char *read_file(const char *path, size_t *len) {
  FILE *f = fopen(path, "rb");
  if (!f) return NULL;
  size_t cap = 4096, n = 0, r;
  char *buf = malloc(cap);
  while (buf && (r = fread(buf + n, 1, cap - n, f)) > 0) {
    n += r;
    if (n == cap) buf = realloc(buf, cap *= 2);
  }
  fclose(f);
  *len = n;
  return buf;
}

static void replay(const char *path) {
  size_t len;
  char *text = read_file(path, &len);
  CHECK(text != NULL);
  if (!text) return;
  replayed++;
  cxla_module *m = NULL;
  cxla_status s = cxla_module_parse(text, len, "fuzz", &m);
  if (s) {
    bool located = cxla_status_code_of(s) != CXLA_INVALID_ARGUMENT ||
                   strstr(cxla_status_message(s), "fuzz:") != NULL;
    if (!located) fprintf(stderr, "%s: error without location: %s\n", path, cxla_status_message(s));
    CHECK(located);
    cxla_status_free(s);
    free(text);
    return;
  }
  char *t1 = NULL, *t2 = NULL;
  cxla_module *m2 = NULL;
  CHECK_OK(cxla_module_print(m, &t1));
  if (t1) {
    s = cxla_module_parse(t1, strlen(t1), "printed", &m2);
    if (s) fprintf(stderr, "%s: printed text does not parse: %s\n", path, cxla_status_message(s));
    CHECK(s == NULL);
    cxla_status_free(s);
  }
  if (m2) CHECK_OK(cxla_module_print(m2, &t2));
  bool same = t1 && t2 && strcmp(t1, t2) == 0;
  if (!same) fprintf(stderr, "%s: round trip is not a fixed point\n", path);
  CHECK(same);
  cxla_free_string(t1);
  cxla_free_string(t2);
  cxla_module_destroy(m);
  cxla_module_destroy(m2);
  free(text);
}

TEST(fuzz_regressions) {
  DIR *d = opendir(dir);
  if (!d) {
    SKIP("%s not found (nothing to replay)", dir);
    return;
  }
  struct dirent *e;
  while ((e = readdir(d))) {
    size_t n = strlen(e->d_name);
    if (e->d_name[0] == '.' || n < 4 || strcmp(e->d_name + n - 4, ".hlo") != 0) continue;
    char path[4096];
    snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
    replay(path);
  }
  closedir(d);
  printf("replayed %d fuzz regression inputs\n", replayed);
  if (replayed == 0) SKIP("no .hlo inputs under %s", dir);
}

int main(void) {
  const char *env = getenv("CXLA_FUZZ_REGRESSIONS");
  if (env && *env) dir = env;
  RUN(fuzz_regressions);
  return test_summary(__FILE__);
}
