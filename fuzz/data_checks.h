/* data_checks.h: what the .npy and JSON fuzzers (fuzz/fuzz_npy.c,
 * fuzz/fuzz_json.c) check on one input, shared, header-only, with their CI
 * replay (tests/unit/test_data_fuzz_replay.c) so that both judge an input
 * alike. Each check returns NULL when the input was handled correctly
 * (accepted and well-formed, or refused with a proper status) and a static
 * description of the broken invariant otherwise; sanitizers report the rest.
 *
 * Both need a scratch directory (the .npy reader and case_load read files):
 * `dir` must exist and be writable; the checks create files in it.
 *
 * Ownership: the checks borrow data; everything they create they free. */
#ifndef CXLA_FUZZ_DATA_CHECKS_H
#define CXLA_FUZZ_DATA_CHECKS_H

#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

#include "cxla/cxla.h"
#include "ir/ir.h"
#include "testing/case.h"
#include "testing/json.h"
#include "testing/npy.h"

static inline int mkdir_p(const char *d) { return mkdir(d, 0700) == 0 || errno == EEXIST ? 0 : -1; }

static inline bool dc_write_file(const char *path, const uint8_t *data, size_t size) {
  FILE *f = fopen(path, "wb");
  if (!f) return false;
  bool ok = fwrite(data, 1, size, f) == size;
  return fclose(f) == 0 && ok;
}

/* ---- .npy ---- */

/* A literal as literal.c promises it: an array type, sane dims, nelems their
 * product, data present, sub-byte values in range. */
static inline const char *dc_literal_ok(const Literal *l) {
  if (!l) return "a successful read returned no literal";
  if ((unsigned)l->type >= T_COUNT || !type_is_array(l->type)) return "literal of a non-array type";
  if (l->rank < 0 || (l->rank > 0 && !l->dims)) return "literal with a bad rank";
  int64_t n = 1;
  for (int i = 0; i < l->rank; i++) {
    if (l->dims[i] < 0) return "literal with a negative dimension";
    if (!mul_i64(n, l->dims[i], &n)) return "literal whose element count overflows";
  }
  if (n != l->nelems) return "literal whose nelems is not the product of its dims";
  if (n > 0 && !l->data) return "literal without data";
  const uint8_t *b = l->data;
  int bits = type_bits(l->type);
  for (int64_t i = 0; i < n && (l->type == T_PRED || bits < 8); i++) {
    int v = l->type == T_S2 || l->type == T_S4 ? (int)(int8_t)b[i] : (int)b[i];
    int lo = 0, hi = l->type == T_PRED ? 1 : (1 << bits) - 1;
    if (l->type == T_S2 || l->type == T_S4) lo = -(1 << (bits - 1)), hi = (1 << (bits - 1)) - 1;
    if (v < lo || v > hi) return "sub-byte element out of its type's range";
  }
  return NULL;
}

/* Writes the input as dir/in.npy and reads it as stored and as each
 * reinterpreting type; whatever reads must be well-formed, write back to
 * dir/out.npy and read back identical. */
static inline const char *check_npy(const uint8_t *data, size_t size, const char *dir) {
  static const cxla_type as_types[] = {CXLA_TYPE_COUNT, CXLA_BF16, CXLA_F16, CXLA_F8E4M3FN,
                                       CXLA_F8E5M2,     CXLA_F4E2M1FN, CXLA_S4, CXLA_U2,
                                       CXLA_F32};
  char in[256], out[256];
  snprintf(in, sizeof in, "%s/in.npy", dir);
  snprintf(out, sizeof out, "%s/out.npy", dir);
  if (!dc_write_file(in, data, size)) return NULL; /* scratch space trouble: not cxla's */
  const char *bug = NULL;
  for (size_t k = 0; !bug && k < sizeof as_types / sizeof as_types[0]; k++) {
    cxla_type as = as_types[k];
    Literal *l = NULL, *l2 = NULL;
    cxla_status s = cxla_npy_read(in, as, &l);
    if (s) {
      if (cxla_status_code_of(s) == CXLA_INTERNAL) bug = "reader returned INTERNAL";
      if (l) bug = "failed read left a literal behind";
      cxla_status_free(s);
      continue;
    }
    bug = dc_literal_ok(l);
    if (!bug && as != CXLA_TYPE_COUNT && l->type != as) bug = "read as a type, got another";
    if (!bug) {
      s = cxla_npy_write(out, l);
      if (s) {
        bug = "a literal that was read cannot be written";
        cxla_status_free(s);
      }
    }
    if (!bug) {
      s = cxla_npy_read(out, as == CXLA_TYPE_COUNT ? l->type : as, &l2);
      if (s) {
        bug = "what was written does not read back";
        cxla_status_free(s);
      } else if (!literal_equal(l, l2)) {
        bug = "what was written reads back different";
      }
    }
    literal_free(l);
    literal_free(l2);
  }
  return bug;
}

/* ---- JSON ---- */

static inline const char *dc_json_value_ok(const JsonValue *v, int depth) {
  if (!v) return "missing JSON value";
  if (depth > JSON_MAX_DEPTH + 1) return "JSON nesting beyond JSON_MAX_DEPTH";
  switch (v->kind) {
  case JSON_NULL:
  case JSON_BOOL:
    return NULL;
  case JSON_NUMBER: {
    if (!isfinite(v->number)) return "non-finite JSON number";
    int64_t i;
    if (json_as_i64(v, &i) && ((double)i != v->number || i > ((int64_t)1 << 53) ||
                               i < -((int64_t)1 << 53)))
      return "json_as_i64 gave a different integer";
    return NULL;
  }
  case JSON_STRING:
    if (!v->str || v->str[v->len] != 0) return "JSON string not NUL-terminated at len";
    return NULL;
  case JSON_ARRAY:
  case JSON_OBJECT:
    if (v->n < 0 || (v->n > 0 && !v->items)) return "JSON container without items";
    if (v->kind == JSON_OBJECT && v->n > 0 && !v->keys) return "JSON object without keys";
    for (int i = 0; i < v->n; i++) {
      if (v->kind == JSON_OBJECT && !v->keys[i]) return "JSON object key missing";
      const char *b = dc_json_value_ok(v->items[i], depth + 1);
      if (b) return b;
    }
    return NULL;
  default:
    return "JSON value of an unknown kind";
  }
}

static inline const char *dc_case_ok(const Case *c) {
  if (!c->name || !c->description || !c->source) return "case without name/description/source";
  if (c->nargs < 0 || c->nresults < 0) return "case with a negative tensor count";
  for (int r = 0; r < 2; r++) {
    const CaseTensor *ts = r ? c->results : c->args;
    int n = r ? c->nresults : c->nargs;
    if (n > 0 && !ts) return "case tensors missing";
    for (int i = 0; i < n; i++) {
      const CaseTensor *t = &ts[i];
      if (!t->path) return "case tensor without a path";
      if ((unsigned)t->type >= T_COUNT || !type_is_array(t->type)) return "case tensor of a non-array type";
      if (t->rank < 0 || (t->rank > 0 && !t->dims)) return "case tensor with a bad rank";
      for (int d = 0; d < t->rank; d++)
        if (t->dims[d] < 0) return "case tensor with a negative dimension";
      if (!isfinite(t->rtol) || !isfinite(t->atol)) return "case tolerance not finite";
    }
  }
  return NULL;
}

/* Parses the input as JSON (errors: located INVALID_ARGUMENT), walks what
 * parses, and loads it as dir/case.json. */
static inline const char *check_json(const uint8_t *data, size_t size, const char *dir) {
  JsonDoc *doc = NULL;
  cxla_status s = json_parse((const char *)data, size, "fuzz", &doc);
  const char *bug = NULL;
  if (s) {
    cxla_status_code code = cxla_status_code_of(s);
    if (doc) bug = "failed parse left a document behind";
    else if (code == CXLA_INVALID_ARGUMENT && strncmp(cxla_status_message(s), "fuzz:", 5) != 0)
      bug = "JSON error without a location";
    else if (code != CXLA_INVALID_ARGUMENT && code != CXLA_RESOURCE_EXHAUSTED)
      bug = "JSON parser returned an unexpected status code";
    cxla_status_free(s);
    return bug;
  }
  bug = doc ? dc_json_value_ok(doc->root, 0) : "successful parse returned no document";
  json_free(doc);
  if (bug) return bug;
  char path[256];
  snprintf(path, sizeof path, "%s/case.json", dir);
  if (!dc_write_file(path, data, size)) return NULL;
  Case *c = NULL;
  s = case_load(dir, &c);
  if (s) {
    if (cxla_status_code_of(s) == CXLA_INTERNAL) bug = "case_load returned INTERNAL";
    if (c) bug = "failed case_load left a case behind";
    cxla_status_free(s);
    return bug;
  }
  bug = c ? dc_case_ok(c) : "case_load returned no case";
  case_free(c);
  return bug;
}

#endif
