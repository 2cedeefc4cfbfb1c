/* Finding case directories and reading the expected-failure list. */
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "base/base.h"
#include "common.h"
#include "conform.h"

/* Deeper trees than this are surely a symlink loop. */
#define MAX_DEPTH 24

static cxla_status push(PathList *l, const char *p) {
  if (l->n == l->cap) {
    int cap = l->cap ? l->cap * 2 : 64;
    char **np = cxla_realloc(l->paths, (size_t)cap * sizeof *np);
    if (!np) return cxla_oom();
    l->paths = np;
    l->cap = cap;
  }
  char *copy = cxla_strdup(p);
  if (!copy) return cxla_oom();
  l->paths[l->n++] = copy;
  return NULL;
}

static bool is_dir(const char *p) {
  struct stat sb;
  return stat(p, &sb) == 0 && S_ISDIR(sb.st_mode);
}

static bool has_case_json(const char *dir) {
  char *p = cxla_format("%s/case.json", dir);
  if (!p) return false;
  struct stat sb;
  bool ok = stat(p, &sb) == 0 && S_ISREG(sb.st_mode);
  cxla_free(p);
  return ok;
}

static bool ends_with(const char *s, const char *suffix) {
  size_t a = strlen(s), b = strlen(suffix);
  return a >= b && strcmp(s + a - b, suffix) == 0;
}

static cxla_status walk(const char *dir, int depth, PathList *out) {
  if (has_case_json(dir)) return push(out, dir);
  if (depth > MAX_DEPTH) return NULL;
  DIR *d = opendir(dir);
  if (!d) return ERR(IO, "%s: %s", dir, strerror(errno));
  cxla_status s = NULL;
  struct dirent *e;
  while (!s && (e = readdir(d))) {
    /* Hidden entries, and gen.py's "<case>.tmp" directories that are still
     * being written. */
    if (e->d_name[0] == '.' || ends_with(e->d_name, ".tmp")) continue;
    char *child = cxla_format("%s/%s", dir, e->d_name);
    if (!child) {
      s = cxla_oom();
      break;
    }
    if (is_dir(child)) s = walk(child, depth + 1, out);
    cxla_free(child);
  }
  closedir(d);
  return s;
}

cxla_status find_cases(const char *root, PathList *out) {
  size_t n = strlen(root);
  while (n > 1 && root[n - 1] == '/') n--; /* "corpus/" -> "corpus" */
  char *r = cxla_strndup(root, n);
  if (!r) return cxla_oom();
  cxla_status s = is_dir(r) ? walk(r, 0, out)
                            : ERR(NOT_FOUND, "%s: no such directory", root);
  cxla_free(r);
  return s;
}

static int cmp_str(const void *a, const void *b) {
  return strcmp(*(char *const *)a, *(char *const *)b);
}

void path_list_sort(PathList *l) {
  if (l->n < 2) return;
  qsort(l->paths, (size_t)l->n, sizeof *l->paths, cmp_str);
  int k = 1;
  for (int i = 1; i < l->n; i++) {
    if (strcmp(l->paths[i], l->paths[k - 1]) == 0) cxla_free(l->paths[i]);
    else l->paths[k++] = l->paths[i];
  }
  l->n = k;
}

void path_list_free(PathList *l) {
  for (int i = 0; i < l->n; i++) cxla_free(l->paths[i]);
  cxla_free(l->paths);
  memset(l, 0, sizeof *l);
}

/* ---- expected failures ------------------------------------------------------------- */

static cxla_status add_expect(ExpectList *l, const char *key, size_t klen, const char *reason,
                              size_t rlen, int line) {
  const char *colon = memchr(key, ':', klen);
  size_t nlen = colon ? (size_t)(colon - key) : klen;
  const char *which = NULL;
  if (colon) {
    size_t wlen = klen - nlen - 1;
    if (wlen == 6 && memcmp(colon + 1, "module", 6) == 0) which = "module";
    else if (wlen == 9 && memcmp(colon + 1, "optimized", 9) == 0) which = "optimized";
    else if (wlen == 4 && memcmp(colon + 1, "mlir", 4) == 0) which = "mlir";
    else if (wlen == 6 && memcmp(colon + 1, "mlirbc", 6) == 0) which = "mlirbc";
    else
      return ERR(INVALID_ARGUMENT, "%s:%d: '%.*s': the suffix must be :module, :optimized, :mlir or :mlirbc",
                 l->file, line, (int)klen, key);
  }
  if (nlen == 0) return ERR(INVALID_ARGUMENT, "%s:%d: missing case name", l->file, line);
  if (l->n == l->cap) {
    int cap = l->cap ? l->cap * 2 : 16;
    Expect *ni = cxla_realloc(l->items, (size_t)cap * sizeof *ni);
    if (!ni) return cxla_oom();
    l->items = ni;
    l->cap = cap;
  }
  Expect *e = &l->items[l->n];
  memset(e, 0, sizeof *e);
  e->name = cxla_strndup(key, nlen);
  e->which = which ? cxla_strdup(which) : NULL;
  e->reason = cxla_strndup(reason, rlen);
  e->line = line;
  l->n++; /* counted even if a copy failed, so that expect_list_free frees it */
  if (!e->name || (which && !e->which) || !e->reason) return cxla_oom();
  return NULL;
}

static cxla_status parse_expect_text(ExpectList *l, const char *text) {
  int line = 0;
  for (const char *p = text; *p;) {
    line++;
    const char *end = strchr(p, '\n');
    if (!end) end = p + strlen(p);
    const char *q = p;
    while (q < end && (*q == ' ' || *q == '\t')) q++;
    if (q < end && *q != '#' && *q != '\r') {
      const char *k = q;
      while (q < end && *q != ' ' && *q != '\t' && *q != '\r') q++;
      size_t klen = (size_t)(q - k);
      while (q < end && (*q == ' ' || *q == '\t')) q++;
      const char *r = q, *re = end;
      while (re > r && (re[-1] == ' ' || re[-1] == '\t' || re[-1] == '\r')) re--;
      TRY(add_expect(l, k, klen, r, (size_t)(re - r), line));
      for (int i = 0; i < l->n - 1; i++) {
        Expect *a = &l->items[i], *b = &l->items[l->n - 1];
        bool same_which = (!a->which && !b->which) ||
                          (a->which && b->which && strcmp(a->which, b->which) == 0);
        if (strcmp(a->name, b->name) == 0 && same_which)
          return ERR(INVALID_ARGUMENT, "%s:%d: '%s' is already listed on line %d", l->file, line,
                     b->name, a->line);
      }
    }
    p = *end ? end + 1 : end;
  }
  return NULL;
}

cxla_status expect_list_load(const char *path, ExpectList *out) {
  memset(out, 0, sizeof *out);
  out->file = path;
  char *text;
  size_t len;
  TRY(read_text_file(path, &text, &len));
  if (memchr(text, 0, len)) {
    cxla_free(text);
    return ERR(INVALID_ARGUMENT, "%s: binary file", path);
  }
  cxla_status s = parse_expect_text(out, text);
  cxla_free(text);
  if (s) expect_list_free(out);
  return s;
}

Expect *expect_list_find(ExpectList *l, const char *name, const char *which) {
  Expect *both = NULL;
  for (int i = 0; i < l->n; i++) {
    Expect *e = &l->items[i];
    if (strcmp(e->name, name) != 0) continue;
    if (e->which && strcmp(e->which, which) == 0) return e; /* the specific entry wins */
    if (!e->which) both = e;
  }
  return both;
}

void expect_list_free(ExpectList *l) {
  for (int i = 0; i < l->n; i++) {
    cxla_free(l->items[i].name);
    cxla_free(l->items[i].which);
    cxla_free(l->items[i].reason);
  }
  cxla_free(l->items);
  l->items = NULL;
  l->n = l->cap = 0;
}
