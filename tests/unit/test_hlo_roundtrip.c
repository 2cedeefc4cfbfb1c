/* Round trip over the corpus: for every <dir>/<case>/{module,optimized}.hlo,
 * parse -> print -> parse -> print must reach a fixed point (the two
 * printed texts are identical) and the printed text must parse.
 *
 *   test_hlo_roundtrip [corpus-dir]     (default tests/corpus)
 *
 * A missing corpus directory is reported and skipped (the corpus is
 * generated separately). */
#include <dirent.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "harness.h"

static int files_ok, files_total;

static char *print_module(cxla_module *m) {
  char *text = NULL;
  cxla_status s = cxla_module_print(m, &text);
  if (s) {
    fprintf(stderr, "print failed: %s\n", cxla_status_message(s));
    cxla_status_free(s);
    return NULL;
  }
  return text;
}

static void report_diff(const char *path, const char *a, const char *b) {
  size_t i = 0, line = 1;
  while (a[i] && a[i] == b[i]) {
    if (a[i] == '\n') line++;
    i++;
  }
  fprintf(stderr, "%s: printed text is not a fixed point; first difference at line %zu:\n", path,
          line);
  size_t s = i;
  while (s > 0 && a[s - 1] != '\n') s--;
  fprintf(stderr, "  first:  %.200s\n", a + s);
  fprintf(stderr, "  second: %.200s\n", b + s);
}

static void check_file(const char *path) {
  files_total++;
  cxla_module *m1 = NULL, *m2 = NULL;
  char *t1 = NULL, *t2 = NULL;
  cxla_status s = cxla_module_parse_file(path, &m1);
  if (s) {
    fprintf(stderr, "%s\n", cxla_status_message(s));
    cxla_status_free(s);
    CHECK(!"corpus file parses");
    return;
  }
  t1 = print_module(m1);
  if (t1) {
    s = cxla_module_parse(t1, strlen(t1), "printed", &m2);
    if (s) {
      fprintf(stderr, "%s: printed text does not parse:\n%s\n", path, cxla_status_message(s));
      cxla_status_free(s);
    } else {
      t2 = print_module(m2);
    }
  }
  bool ok = t1 && t2 && strcmp(t1, t2) == 0;
  if (t1 && t2 && !ok) report_diff(path, t1, t2);
  CHECK(ok);
  if (ok) files_ok++;
  cxla_free_string(t1);
  cxla_free_string(t2);
  cxla_module_destroy(m1);
  cxla_module_destroy(m2);
}

static int cmp_str(const void *a, const void *b) {
  return strcmp(*(char *const *)a, *(char *const *)b);
}

static const char *corpus_dir = "tests/corpus";

TEST(corpus_round_trip) {
  DIR *d = opendir(corpus_dir);
  if (!d) {
    SKIP("corpus directory %s not found", corpus_dir);
    return;
  }
  char **names = NULL;
  size_t n = 0, cap = 0;
  struct dirent *e;
  while ((e = readdir(d))) {
    if (e->d_name[0] == '.') continue;
    if (n == cap) {
      cap = cap ? cap * 2 : 64;
      names = realloc(names, cap * sizeof *names);
    }
    names[n++] = strdup(e->d_name);
  }
  closedir(d);
  if (n == 0) {
    SKIP("no cases under %s", corpus_dir);
    free(names);
    return;
  }
  qsort(names, n, sizeof *names, cmp_str);
  for (size_t i = 0; i < n; i++) {
    static const char *const files[] = {"module.hlo", "optimized.hlo"};
    for (int f = 0; f < 2; f++) {
      char path[4096];
      struct stat st;
      snprintf(path, sizeof path, "%s/%s/%s", corpus_dir, names[i], files[f]);
      if (stat(path, &st) == 0) check_file(path);
    }
    free(names[i]);
  }
  free(names);
  printf("round trip: %d/%d corpus files reach a fixed point\n", files_ok, files_total);
}

int main(int argc, char **argv) {
  if (argc > 1) corpus_dir = argv[1];
  RUN(corpus_round_trip);
  return test_summary(__FILE__);
}
