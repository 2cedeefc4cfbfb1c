/* Checks the module header's entry_computation_layout={(P0, P1, ...)->R}
 * against the entry computation's parameters and root: same count, same
 * element types and dims (layouts are not compared).
 *
 * The parser keeps the attribute verbatim, so this file reads the shape
 * text itself: a small recursive-descent reader for "f32[2,<=3]{1,0:T(8)}"
 * and tuples "(s32[], token[])". */
#include <string.h>

#include "verify/entry_layout.h"
#include "verify/infer.h"

typedef struct Reader {
  const char *s;
  size_t pos, len;
  Arena *a;
  int depth;
} Reader;

/* Skips blanks and the printer's comments ("/ *index=5* /" without the
 * spaces). */
static void skip_ws(Reader *r) {
  for (;;) {
    while (r->pos < r->len && (r->s[r->pos] == ' ' || r->s[r->pos] == '\n' || r->s[r->pos] == '\t'))
      r->pos++;
    if (r->pos + 1 >= r->len || r->s[r->pos] != '/' || r->s[r->pos + 1] != '*') return;
    const char *end = strstr(r->s + r->pos + 2, "*/");
    r->pos = end ? (size_t)(end - r->s) + 2 : r->len;
  }
}

static bool eat(Reader *r, char c) {
  skip_ws(r);
  if (r->pos < r->len && r->s[r->pos] == c) {
    r->pos++;
    return true;
  }
  return false;
}

static bool peek(Reader *r, char c) {
  skip_ws(r);
  return r->pos < r->len && r->s[r->pos] == c;
}

static bool read_int(Reader *r, int64_t *out) {
  skip_ws(r);
  size_t start = r->pos;
  int64_t v = 0;
  while (r->pos < r->len && r->s[r->pos] >= '0' && r->s[r->pos] <= '9') {
    if (!mul_i64(v, 10, &v) || !add_i64(v, r->s[r->pos] - '0', &v)) return false;
    r->pos++;
  }
  *out = v;
  return r->pos > start;
}

/* Skips a balanced {...} layout. */
static bool skip_layout(Reader *r) {
  int depth = 0;
  do {
    if (r->pos >= r->len) return false;
    char c = r->s[r->pos++];
    if (c == '{') depth++;
    if (c == '}') depth--;
  } while (depth > 0);
  return true;
}

static bool read_shape(Reader *r, Shape **out);

static bool read_tuple(Reader *r, Shape **out) {
  Shape *el[256];
  int n = 0;
  if (!eat(r, ')')) {
    do {
      if (n == 256 || !read_shape(r, &el[n++])) return false;
    } while (eat(r, ','));
    if (!eat(r, ')')) return false;
  }
  return (*out = shape_new_tuple(r->a, n, el)) != NULL;
}

static bool read_shape(Reader *r, Shape **out) {
  if (++r->depth > 64) return false;
  bool ok;
  if (eat(r, '(')) {
    ok = read_tuple(r, out);
  } else {
    skip_ws(r);
    size_t start = r->pos;
    while (r->pos < r->len && ((r->s[r->pos] >= 'a' && r->s[r->pos] <= 'z') ||
                               (r->s[r->pos] >= '0' && r->s[r->pos] <= '9')))
      r->pos++;
    ElemType t;
    int64_t dims[64];
    int rank = 0;
    ok = type_from_name(r->s + start, r->pos - start, &t) && eat(r, '[');
    if (ok && !eat(r, ']')) {
      do {
        if (rank == 64) return false;
        if (eat(r, '<')) eat(r, '='); /* bounded dynamic: the bound is what counts */
        ok = read_int(r, &dims[rank++]);
      } while (ok && eat(r, ','));
      ok = ok && eat(r, ']');
    }
    if (ok && peek(r, '{')) ok = skip_layout(r);
    ok = ok && (*out = shape_new(r->a, t, rank, dims)) != NULL;
  }
  r->depth--;
  return ok;
}

cxla_status check_entry_layout(Arena *a, const HloModule *m) {
  const char *text = NULL;
  for (int i = 0; i < m->nraw; i++)
    if (m->raw[i].name && strcmp(m->raw[i].name, "entry_computation_layout") == 0)
      text = m->raw[i].value;
  if (!text || !m->entry) return NULL;
  Reader r = {text, 0, strlen(text), a, 0};
  Shape *params[256], *result;
  int n = 0;
  bool ok = eat(&r, '{') && eat(&r, '(');
  if (ok && !eat(&r, ')')) {
    do {
      ok = n < 256 && read_shape(&r, &params[n++]);
    } while (ok && eat(&r, ','));
    ok = ok && eat(&r, ')');
  }
  ok = ok && eat(&r, '-') && eat(&r, '>') && read_shape(&r, &result) && eat(&r, '}');
  if (!ok) return verr("verify: entry_computation_layout %s is malformed", text);
  const Computation *e = m->entry;
  if (n != e->nparams)
    return verr("verify: entry_computation_layout has %d parameters, entry computation %%%s "
                "has %d", n, e->name, e->nparams);
  for (int i = 0; i < n; i++)
    if (!shape_compatible(params[i], e->params[i]->shape))
      return verr("verify: entry_computation_layout gives parameter %d as %s, entry "
                  "computation %%%s has %s", i, shape_str(a, params[i]), e->name,
                  shape_str(a, e->params[i]->shape));
  if (!shape_compatible(result, e->root->shape))
    return verr("verify: entry_computation_layout gives the result as %s, entry computation "
                "%%%s returns %s", shape_str(a, result), e->name, shape_str(a, e->root->shape));
  return NULL;
}
