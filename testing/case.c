/* Loading a corpus case directory; see case.h. */
#include "testing/case.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "testing/compare.h"
#include "testing/json.h"
#include "testing/npy.h"

/* Case files are small; refuse anything absurd before reading it whole. */
#define CASE_JSON_MAX_BYTES (16 << 20)

static cxla_status read_small_file(const char *path, char **out, size_t *len) {
  return cxla_read_file(path, CASE_JSON_MAX_BYTES, out, len);
}

/* Messages name the case.json position of the offending value. */
static cxla_status bad(const char *path, const JsonValue *v, const char *what) {
  return ERR(INVALID_ARGUMENT, "%s:%d:%d: %s", path, v ? v->line : 1, v ? v->col : 1, what);
}

static cxla_status read_number(const char *path, const JsonValue *obj, const char *key,
                               double *out) {
  const JsonValue *v = json_get(obj, key);
  if (!v) return ERR(INVALID_ARGUMENT, "%s:%d:%d: missing \"%s\"", path, obj->line, obj->col, key);
  if (v->kind != JSON_NUMBER || !(v->number >= 0))
    return ERR(INVALID_ARGUMENT, "%s:%d:%d: \"%s\" must be a non-negative number", path,
               v->line, v->col, key);
  *out = v->number;
  return NULL;
}

/* Whether a relative path has a ".." component (it could leave the case
 * directory; the corpus never needs one). */
static bool leaves_dir(const char *f) {
  for (const char *seg = f; *seg;) {
    size_t n = strcspn(seg, "/");
    if (n == 2 && seg[0] == '.' && seg[1] == '.') return true;
    seg += n;
    while (*seg == '/') seg++;
  }
  return false;
}

static cxla_status read_tensor(Case *c, const char *path, const JsonValue *v, bool is_result,
                               CaseTensor *t) {
  if (v->kind != JSON_OBJECT) return bad(path, v, "each arg/result must be an object");
  const JsonValue *file = json_get(v, "file"), *dtype = json_get(v, "dtype"),
                  *shape = json_get(v, "shape");
  if (!file || file->kind != JSON_STRING || file->len != strlen(file->str) || !file->len)
    return bad(path, file ? file : v, "\"file\" must be a non-empty string");
  if (file->str[0] == '/') return bad(path, file, "\"file\" must be relative to the case");
  if (leaves_dir(file->str))
    return ERR(PERMISSION_DENIED, "%s:%d:%d: \"file\" %s leaves the case directory", path,
               file->line, file->col, file->str);
  if (!dtype || dtype->kind != JSON_STRING || !type_from_name(dtype->str, dtype->len, &t->type) ||
      !type_is_array(t->type))
    return bad(path, dtype ? dtype : v, "\"dtype\" must be an HLO array type name such as \"f32\"");
  if (!shape || shape->kind != JSON_ARRAY) return bad(path, shape ? shape : v, "\"shape\" must be an array");
  if (shape->n > 64) return bad(path, shape, "\"shape\" has too many dimensions");
  t->rank = shape->n;
  t->dims = arena_array(&c->arena, (size_t)(t->rank ? t->rank : 1), sizeof(int64_t));
  char *joined = cxla_format("%s/%s", c->dir, file->str);
  t->path = joined ? arena_strdup(&c->arena, joined) : NULL;
  t->dir = c->dir;
  cxla_free(joined);
  if (!t->dims || !t->path) return cxla_oom();
  for (int i = 0; i < t->rank; i++)
    if (!json_as_i64(shape->items[i], &t->dims[i]) || t->dims[i] < 0)
      return bad(path, shape->items[i], "shape entries must be non-negative integers");
  if (is_result) {
    TRY(read_number(path, v, "rtol", &t->rtol));
    TRY(read_number(path, v, "atol", &t->atol));
  }
  return NULL;
}

static cxla_status read_tensors(Case *c, const char *path, const JsonValue *root,
                                const char *key, bool is_result, CaseTensor **out, int *n) {
  const JsonValue *arr = json_get(root, key);
  if (!arr) return ERR(INVALID_ARGUMENT, "%s: missing \"%s\"", path, key);
  if (arr->kind != JSON_ARRAY) return bad(path, arr, "\"args\" and \"results\" must be arrays");
  *n = arr->n;
  *out = arena_array(&c->arena, (size_t)(arr->n ? arr->n : 1), sizeof(CaseTensor));
  if (!*out) return cxla_oom();
  for (int i = 0; i < arr->n; i++)
    TRY(read_tensor(c, path, arr->items[i], is_result, &(*out)[i]));
  return NULL;
}

static const char *optional_string(Case *c, const JsonValue *root, const char *key) {
  const JsonValue *v = json_get(root, key);
  return arena_strdup(&c->arena, v && v->kind == JSON_STRING ? v->str : "");
}

static cxla_status fill_case(Case *c, const char *dir) {
  /* Strip trailing slashes so that the name is the last component. */
  size_t dlen = strlen(dir);
  while (dlen > 1 && dir[dlen - 1] == '/') dlen--;
  c->dir = arena_strndup(&c->arena, dir, dlen);
  if (!c->dir) return cxla_oom();
  const char *slash = strrchr(c->dir, '/');
  c->name = slash ? slash + 1 : c->dir;

  char *path = cxla_format("%s/case.json", c->dir);
  if (!path) return cxla_oom();
  char *text = NULL;
  size_t len = 0;
  JsonDoc *doc = NULL;
  cxla_status st = read_small_file(path, &text, &len);
  if (!st) st = json_parse(text, len, path, &doc);
  cxla_free(text);
  if (!st && doc->root->kind != JSON_OBJECT) st = bad(path, doc->root, "case.json must be an object");
  if (!st) {
    c->description = optional_string(c, doc->root, "description");
    c->source = optional_string(c, doc->root, "source");
    if (!c->description || !c->source) st = cxla_oom();
  }
  if (!st) st = read_tensors(c, path, doc->root, "args", false, &c->args, &c->nargs);
  if (!st) st = read_tensors(c, path, doc->root, "results", true, &c->results, &c->nresults);
  json_free(doc);
  cxla_free(path);
  return st;
}

cxla_status case_load(const char *dir, Case **out) {
  *out = NULL;
  Case *c = cxla_calloc(1, sizeof *c);
  if (!c) return cxla_oom();
  arena_init(&c->arena);
  cxla_status st = fill_case(c, dir);
  if (st) {
    case_free(c);
    return st;
  }
  *out = c;
  return NULL;
}

void case_free(Case *c) {
  if (!c) return;
  arena_destroy(&c->arena);
  cxla_free(c);
}

const char *case_hlo_path(Case *c, const char *which) {
  /* which: module (module.hlo), optimized (optimized.hlo), mlir
   * (module.mlir, StableHLO text), mlirbc (module.mlirbc, the portable
   * artifact) */
  char *p = !strcmp(which, "mlir")     ? cxla_format("%s/module.mlir", c->dir)
            : !strcmp(which, "mlirbc") ? cxla_format("%s/module.mlirbc", c->dir)
                                       : cxla_format("%s/%s.hlo", c->dir, which);
  if (!p) return NULL;
  const char *a = arena_strdup(&c->arena, p);
  cxla_free(p);
  return a;
}

/* A symbolic link inside the case may still point outside it: the file's
 * real path must lie under the directory's. Files that do not exist are
 * left to the reader to report. */
static cxla_status check_inside(const CaseTensor *t) {
  if (!t->dir) return NULL;
  char *dir = realpath(t->dir, NULL), *file = realpath(t->path, NULL);
  cxla_status s = NULL;
  if (dir && file) {
    size_t n = strlen(dir);
    bool inside = strncmp(file, dir, n) == 0 && (file[n] == '/' || (n == 1 && dir[0] == '/'));
    if (!inside)
      s = ERR(PERMISSION_DENIED, "%s: resolves to %s, outside the case directory %s", t->path,
              file, dir);
  }
  free(dir);
  free(file);
  return s;
}

cxla_status case_load_tensor(const CaseTensor *t, Literal **out) {
  *out = NULL;
  TRY(check_inside(t));
  Literal *l;
  TRY(cxla_npy_read(t->path, t->type, &l));
  bool same = l->rank == t->rank;
  for (int i = 0; same && i < t->rank; i++) same = l->dims[i] == t->dims[i];
  if (!same) {
    char got[256], want[256];
    format_shape(l->type, l->rank, l->dims, got, sizeof got);
    format_shape(t->type, t->rank, t->dims, want, sizeof want);
    literal_free(l);
    return ERR(INVALID_ARGUMENT, "%s: holds %s but case.json says %s", t->path, got, want);
  }
  *out = l;
  return NULL;
}
