/* The StableHLO/MLIR text reader, core: characters, SSA names, types,
 * attributes, the generic op form, regions and blocks, the module and
 * func.func, attribute aliases and the trailing dialect_resources section.
 * Pretty (custom) op forms are in text_pretty.c. Produces the normalized
 * tree described in mlir.h. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ir/ir.h"
#include "ir/numeric.h"
#include "stablehlo/text_internal.h"

/* ---- errors and positions ------------------------------------------------ */

MlirPos tx_pos_at(P *p, size_t off) {
  if (off > p->n) off = p->n;
  if (!p->nlines) { /* line 1 starts at 0 */
    p->line_starts = cxla_malloc(64 * sizeof(size_t));
    if (p->line_starts) {
      p->line_starts[0] = 0;
      p->nlines = 1;
      p->caplines = 64;
    }
  }
  for (; p->scanned < off && p->line_starts; p->scanned++) {
    if (p->s[p->scanned] != '\n') continue;
    if (p->nlines == p->caplines) {
      size_t *nl = cxla_realloc(p->line_starts, p->caplines * 2 * sizeof(size_t));
      if (!nl) break; /* positions past here are approximate; the OOM shows elsewhere */
      p->line_starts = nl;
      p->caplines *= 2;
    }
    p->line_starts[p->nlines++] = p->scanned + 1;
  }
  /* the last line start <= off (binary search: lines are in order) */
  size_t lo = 0, hi = p->nlines;
  while (hi - lo > 1) {
    size_t mid = lo + (hi - lo) / 2;
    if (p->line_starts[mid] <= off) lo = mid;
    else hi = mid;
  }
  size_t ls = p->nlines ? p->line_starts[lo] : 0;
  MlirPos pos = {(int32_t)(lo + 1 > INT32_MAX ? INT32_MAX : lo + 1),
                 (int32_t)(off - ls + 1 > INT32_MAX ? INT32_MAX : off - ls + 1), (int64_t)off, NULL};
  return pos;
}

static bool perr_v(P *p, size_t off, const char *fmt, va_list ap) {
  if (p->err) return false;
  MlirPos pos = tx_pos_at(p, off);
  char *msg = cxla_vformat(fmt, ap);
  StrBuf b;
  sb_init(&b);
  mlir_pos_print(&b, p->m->filename, pos);
  sb_printf(&b, ": %s", msg ? msg : "out of memory");
  cxla_free(msg);
  /* The offending line with a caret under the column (cut to 160 chars). */
  size_t ls = off, le = off;
  while (ls > 0 && p->s[ls - 1] != '\n') ls--;
  while (le < p->n && p->s[le] != '\n') le++;
  size_t from = ls;
  if (off - ls > 120) from = off - 80;
  size_t to = le;
  if (to - from > 160) to = from + 160;
  sb_puts(&b, "\n  ");
  for (size_t k = from; k < to; k++) {
    unsigned char c = (unsigned char)p->s[k];
    sb_putc(&b, (c < 32 && c != '\t') || c == 127 ? '?' : (char)c);
  }
  sb_puts(&b, "\n  ");
  for (size_t k = from; k < off && k < to; k++) sb_putc(&b, p->s[k] == '\t' ? '\t' : ' ');
  sb_putc(&b, '^');
  char *s = sb_take(&b);
  if (!s) {
    p->err = cxla_oom();
    return false;
  }
  p->err = cxla_status_make(CXLA_INVALID_ARGUMENT, "%s", s);
  cxla_free(s);
  return false;
}

bool tx_perr(P *p, const char *fmt, ...) {
  tx_ws(p);
  va_list ap;
  va_start(ap, fmt);
  perr_v(p, p->i, fmt, ap);
  va_end(ap);
  return false;
}

bool tx_perr_at(P *p, size_t off, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  perr_v(p, off, fmt, ap);
  va_end(ap);
  return false;
}

bool tx_oom(P *p) {
  if (!p->err) p->err = cxla_oom();
  return false;
}

bool tx_pv_push(P *p, PtrVec *v, void *x) {
  if (v->n == v->cap) {
    int nc = v->cap ? v->cap * 2 : 8;
    void **nv = arena_array(p->a, (size_t)nc, sizeof(void *));
    if (!nv) return tx_oom(p);
    if (v->n) memcpy(nv, v->v, (size_t)v->n * sizeof(void *));
    v->v = nv;
    v->cap = nc;
  }
  v->v[v->n++] = x;
  return true;
}

/* ---- characters ------------------------------------------------------------- */

static inline char cur(P *p) { return p->i < p->n ? p->s[p->i] : '\0'; }
static inline char at(P *p, size_t k) { return p->i + k < p->n ? p->s[p->i + k] : '\0'; }
static inline bool at_end(P *p) { return p->i >= p->n; }
static bool is_digit(char c) { return c >= '0' && c <= '9'; }
static bool is_alpha(char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_'; }
bool tx_is_ident_char(char c) { return is_alpha(c) || is_digit(c) || c == '$' || c == '.'; }

void tx_ws(P *p) {
  while (p->i < p->n) {
    char c = p->s[p->i];
    if (c == ' ' || c == '\t' || c == '\n' || c == '\r') {
      p->i++;
    } else if (c == '/' && at(p, 1) == '/') {
      while (p->i < p->n && p->s[p->i] != '\n') p->i++;
    } else {
      break;
    }
  }
}

bool tx_peek(P *p, char c) {
  tx_ws(p);
  return !at_end(p) && cur(p) == c;
}

bool tx_peek_str(P *p, const char *s) {
  tx_ws(p);
  size_t l = strlen(s);
  return p->n - p->i >= l && memcmp(p->s + p->i, s, l) == 0;
}

bool tx_eat(P *p, char c) {
  if (tx_peek(p, c)) {
    p->i++;
    return true;
  }
  return false;
}

static const char *describe_here(P *p, char *buf, size_t cap) {
  tx_ws(p);
  if (at_end(p)) return "end of input";
  size_t k = 0;
  buf[k++] = '\'';
  char c0 = cur(p);
  if (tx_is_ident_char(c0) || c0 == '%' || c0 == '@' || c0 == '#' || c0 == '!' || c0 == '-') {
    size_t j = p->i;
    do {
      buf[k++] = p->s[j++];
    } while (j < p->n && k < cap - 6 && tx_is_ident_char(p->s[j]));
  } else {
    unsigned char c = (unsigned char)c0;
    if (c < 32 || c >= 127) {
      snprintf(buf, cap, "byte 0x%02x", c);
      return buf;
    }
    buf[k++] = (char)c;
  }
  buf[k++] = '\'';
  buf[k] = 0;
  return buf;
}

bool tx_expect(P *p, char c, const char *what) {
  if (tx_eat(p, c)) return true;
  char buf[64];
  return tx_perr(p, "expected '%c'%s%s, found %s", c, what ? " " : "", what ? what : "",
              describe_here(p, buf, sizeof buf));
}

bool tx_eat_kw(P *p, const char *kw) {
  tx_ws(p);
  size_t l = strlen(kw);
  if (p->n - p->i >= l && memcmp(p->s + p->i, kw, l) == 0 &&
      !(p->i + l < p->n && tx_is_ident_char(p->s[p->i + l]))) {
    p->i += l;
    return true;
  }
  return false;
}

bool tx_expect_kw(P *p, const char *kw) {
  if (tx_eat_kw(p, kw)) return true;
  char buf[64];
  return tx_perr(p, "expected '%s', found %s", kw, describe_here(p, buf, sizeof buf));
}

bool tx_eat_arrow(P *p) {
  if (tx_peek_str(p, "->")) {
    p->i += 2;
    return true;
  }
  return false;
}

bool tx_ident(P *p, const char **s, size_t *len) {
  tx_ws(p);
  if (!is_alpha(cur(p))) return false;
  size_t st = p->i;
  while (p->i < p->n && tx_is_ident_char(p->s[p->i])) p->i++;
  *s = p->s + st;
  *len = p->i - st;
  return true;
}

static bool sv_eq(const char *s, size_t n, const char *lit) {
  return strlen(lit) == n && memcmp(s, lit, n) == 0;
}

/* Reads the hexadecimal digits after a "0x" (p at the first digit) into
 * *out; st is where the literal began, for errors. */
static bool read_hex_digits(P *p, size_t st, uint64_t *out) {
  uint64_t v = 0;
  int nd = 0;
  for (;; nd++) {
    char c = cur(p);
    int d = is_digit(c) ? c - '0' : (c >= 'a' && c <= 'f') ? c - 'a' + 10
                                 : (c >= 'A' && c <= 'F') ? c - 'A' + 10 : -1;
    if (d < 0) break;
    if (v >> 60) return tx_perr_at(p, st, "hexadecimal literal out of range");
    v = v * 16 + (uint64_t)d;
    p->i++;
  }
  if (!nd) return tx_perr_at(p, st, "expected hexadecimal digits");
  *out = v;
  return true;
}

bool tx_parse_i64(P *p, int64_t *out) {
  tx_ws(p);
  size_t st = p->i;
  bool neg = false;
  if (cur(p) == '-') {
    neg = true;
    p->i++;
  }
  if (!is_digit(cur(p))) {
    p->i = st;
    char buf[64];
    return tx_perr(p, "expected an integer, found %s", describe_here(p, buf, sizeof buf));
  }
  uint64_t v = 0;
  bool hex = cur(p) == '0' && (at(p, 1) == 'x' || at(p, 1) == 'X');
  if (hex) {
    p->i += 2;
    if (!read_hex_digits(p, st, &v)) return false;
  } else {
    while (is_digit(cur(p))) {
      unsigned d = (unsigned)(cur(p) - '0');
      if (v > (UINT64_MAX - d) / 10) return tx_perr_at(p, st, "integer literal out of range");
      v = v * 10 + d;
      p->i++;
    }
  }
  if (neg) {
    if (v > (uint64_t)INT64_MAX + 1) return tx_perr_at(p, st, "integer literal out of range");
    *out = (int64_t)(0 - v);
  } else {
    *out = (int64_t)v; /* values past INT64_MAX keep their bit pattern (ui64) */
  }
  return true;
}

/* Skips a balanced <...>, (...), [...] or {...} group starting at the
 * opening character (strings inside are skipped whole). */
static bool skip_balanced(P *p) {
  char stack[MAX_DEPTH];
  int d = 0;
  size_t st = p->i;
  do {
    if (at_end(p)) return tx_perr_at(p, st, "unbalanced brackets (no closing bracket)");
    char c = cur(p);
    if (c == '"') {
      p->i++;
      while (!at_end(p) && cur(p) != '"') {
        if (cur(p) == '\\') p->i++;
        p->i++;
      }
      if (at_end(p)) return tx_perr_at(p, st, "unterminated string");
      p->i++;
      continue;
    }
    if (c == '<' || c == '(' || c == '[' || c == '{') {
      if (d == MAX_DEPTH) return tx_perr_at(p, p->i, "nesting too deep");
      stack[d++] = c == '<' ? '>' : c == '(' ? ')' : c == '[' ? ']' : '}';
    } else if (c == '>' || c == ')' || c == ']' || c == '}') {
      /* "->" inside a group is an arrow, not a closing bracket. */
      if (c == '>' && p->i > 0 && p->s[p->i - 1] == '-') {
        p->i++;
        continue;
      }
      if (d == 0 || stack[d - 1] != c) return tx_perr_at(p, p->i, "unbalanced '%c'", c);
      d--;
    }
    p->i++;
  } while (d > 0);
  return true;
}

/* A balanced <...> group (sdy's shardings and meshes) kept as MA_OPAQUE. */
bool tx_opaque_group(P *p, MlirAttr **out) {
  tx_ws(p);
  size_t st = p->i;
  if (cur(p) != '<') return tx_perr(p, "expected '<'");
  if (!skip_balanced(p)) return false;
  MlirAttr *a = tx_attr_new(p, MA_OPAQUE);
  if (!a) return false;
  a->len = p->i - st;
  a->str = arena_strndup(p->a, p->s + st, a->len);
  if (!a->str) return tx_oom(p);
  *out = a;
  return true;
}

bool tx_parse_trailing_loc(P *p) {
  if (tx_eat_kw(p, "loc")) {
    if (!tx_peek(p, '(')) return tx_perr(p, "expected '(' after 'loc'");
    return skip_balanced(p);
  }
  return true;
}

/* ---- SSA names --------------------------------------------------------------- */

static uint64_t hash_name(const char *s, size_t n) {
  uint64_t h = 1469598103934665603ull;
  for (size_t k = 0; k < n; k++) h = (h ^ (unsigned char)s[k]) * 1099511628211ull;
  return h;
}

static size_t table_slot(P *p, const char *s, size_t n) {
  size_t mask = p->tcap - 1;
  size_t k = (size_t)hash_name(s, n) & mask;
  while (p->tnames[k] && !(p->tlens[k] == n && memcmp(p->tnames[k], s, n) == 0))
    k = (k + 1) & mask;
  return k;
}

static bool table_grow(P *p) {
  size_t oc = p->tcap, nc = oc ? oc * 2 : 256;
  int *nt = cxla_malloc(nc * sizeof(int));
  const char **nn = cxla_calloc(nc, sizeof(char *));
  size_t *nl = cxla_calloc(nc, sizeof(size_t));
  if (!nt || !nn || !nl) {
    cxla_free(nt);
    cxla_free(nn);
    cxla_free(nl);
    return tx_oom(p);
  }
  int *ot = p->table;
  const char **on = p->tnames;
  size_t *ol = p->tlens;
  p->table = nt;
  p->tnames = nn;
  p->tlens = nl;
  p->tcap = nc;
  for (size_t k = 0; k < nc; k++) nt[k] = -1;
  for (size_t k = 0; k < oc; k++) {
    if (!on[k]) continue;
    size_t s = table_slot(p, on[k], ol[k]);
    nn[s] = on[k];
    nl[s] = ol[k];
    nt[s] = ot[k];
  }
  cxla_free(ot);
  cxla_free((void *)on);
  cxla_free(ol);
  return true;
}

int tx_scope_mark(P *p) { return p->nstack; }

void tx_scope_pop(P *p, int mark) {
  while (p->nstack > mark) {
    ScopeEntry *e = &p->stack[--p->nstack];
    size_t s = table_slot(p, e->name, e->len);
    p->table[s] = e->prev;
  }
}

bool tx_define_name(P *p, const char *name, size_t len, MlirValue **vals, int n, size_t off) {
  if ((p->tused + 1) * 2 > p->tcap && !table_grow(p)) return false;
  size_t s = table_slot(p, name, len);
  int prev = p->tnames[s] ? p->table[s] : -1;
  if (prev >= p->iso_base)
    return tx_perr_at(p, off, "redefinition of SSA value '%%%.*s'", (int)len, name);
  if (p->nstack == p->capstack) {
    int nc = p->capstack ? p->capstack * 2 : 256;
    ScopeEntry *ns = cxla_realloc(p->stack, (size_t)nc * sizeof *ns);
    if (!ns) return tx_oom(p);
    p->stack = ns;
    p->capstack = nc;
  }
  if (!p->tnames[s]) {
    p->tnames[s] = name;
    p->tlens[s] = len;
    p->tused++;
  }
  ScopeEntry *e = &p->stack[p->nstack];
  e->name = name;
  e->len = len;
  e->vals = vals;
  e->nvals = n;
  e->prev = prev;
  p->table[s] = p->nstack++;
  return true;
}

static bool value_name(P *p, const char **name, size_t *len) {
  tx_ws(p);
  if (cur(p) != '%') return false;
  size_t st = ++p->i;
  while (p->i < p->n && (is_alpha(p->s[p->i]) || is_digit(p->s[p->i]) || p->s[p->i] == '$' ||
                         p->s[p->i] == '.' || p->s[p->i] == '-'))
    p->i++;
  *name = p->s + st;
  *len = p->i - st;
  return *len > 0;
}

bool tx_parse_def_name(P *p, const char **name, size_t *len) {
  size_t st = p->i;
  if (!value_name(p, name, len)) {
    p->i = st;
    char buf[64];
    return tx_perr(p, "expected a value name (%%...), found %s", describe_here(p, buf, sizeof buf));
  }
  return true;
}

bool tx_parse_use(P *p, MlirValue **out) {
  tx_ws(p);
  size_t st = p->i;
  const char *name;
  size_t len;
  if (!value_name(p, &name, &len)) {
    p->i = st;
    char buf[64];
    return tx_perr(p, "expected an operand (%%...), found %s", describe_here(p, buf, sizeof buf));
  }
  int64_t k = 0;
  bool has_k = false;
  if (cur(p) == '#') {
    p->i++;
    if (!is_digit(cur(p))) return tx_perr(p, "expected a result number after '#'");
    if (!tx_parse_i64(p, &k)) return false;
    has_k = true;
  }
  int idx = -1;
  if (p->tcap) {
    size_t s = table_slot(p, name, len);
    if (p->tnames[s]) idx = p->table[s];
  }
  if (idx < p->iso_base)
    return tx_perr_at(p, st, "use of undefined value '%%%.*s'", (int)len, name);
  ScopeEntry *e = &p->stack[idx];
  if (k < 0 || k >= e->nvals)
    return tx_perr_at(p, st, "'%%%.*s' has %d result(s); #%lld is out of range", (int)len, name,
                   e->nvals, (long long)k);
  if (!has_k && e->nvals != 1)
    return tx_perr_at(p, st, "'%%%.*s' names %d results: use %%%.*s#N", (int)len, name, e->nvals,
                   (int)len, name);
  *out = e->vals[k];
  return true;
}

/* ---- types --------------------------------------------------------------------- */

MlirType *tx_type_new(P *p, MlirTypeKind k) {
  MlirType *t = arena_alloc(p->a, sizeof *t);
  if (!t) {
    tx_oom(p);
    return NULL;
  }
  t->kind = k;
  return t;
}

MlirType *tx_type_elem(P *p, cxla_type e) {
  MlirType *t = tx_type_new(p, MLT_ELEM);
  if (t) t->elem = e;
  return t;
}

MlirType *tx_type_tensor_like(P *p, const MlirType *like, MlirType *element) {
  MlirType *t = tx_type_new(p, MLT_TENSOR);
  if (!t) return NULL;
  t->element = element;
  t->rank = like->rank;
  t->dims = like->dims;
  t->bounds = like->bounds;
  return t;
}

static uint64_t hash_name(const char *s, size_t n);

/* The alias table's slot for a name (is_type tells #name from !name). */
static size_t alias_slot(const P *p, const char *s, size_t n, bool is_type) {
  size_t mask = p->acap - 1;
  size_t k = (size_t)(hash_name(s, n) ^ (is_type ? 0x9E3779B97F4A7C15ull : 0)) & mask;
  while (p->atab[k] >= 0) {
    const Alias *a = &p->aliases[p->atab[k]];
    if (a->is_type == is_type && a->len == n && memcmp(a->name, s, n) == 0) break;
    k = (k + 1) & mask;
  }
  return k;
}

static Alias *find_alias(P *p, const char *s, size_t n, bool is_type) {
  if (!p->acap) return NULL;
  int i = p->atab[alias_slot(p, s, n, is_type)];
  return i >= 0 ? &p->aliases[i] : NULL;
}

/* Indexes alias number i (rebuilding the table when it fills). */
static bool alias_index(P *p, int i) {
  if ((size_t)(p->naliases + 1) * 2 > p->acap) {
    size_t nc = p->acap ? p->acap * 2 : 64;
    int *nt = cxla_malloc(nc * sizeof(int));
    if (!nt) return tx_oom(p);
    cxla_free(p->atab);
    p->atab = nt;
    p->acap = nc;
    for (size_t k = 0; k < nc; k++) nt[k] = -1;
    for (int k = 0; k < p->naliases; k++) {
      if (k == i) continue;
      const Alias *a = &p->aliases[k];
      nt[alias_slot(p, a->name, a->len, a->is_type)] = k;
    }
  }
  const Alias *a = &p->aliases[i];
  p->atab[alias_slot(p, a->name, a->len, a->is_type)] = i; /* a redefinition wins */
  return true;
}

/* Element type spellings: i1, iN, siN, uiN, f16, bf16, f32, f64, f8E4M3FN... */
static bool elem_from_name(const char *s, size_t n, cxla_type *out) {
  char buf[32];
  if (n == 0 || n >= sizeof buf) return false;
  if (sv_eq(s, n, "i1")) {
    *out = CXLA_PRED;
    return true;
  }
  size_t k = 0;
  bool uns = false;
  if (s[0] == 'i') {
    k = 1;
  } else if (n > 2 && s[0] == 's' && s[1] == 'i') {
    k = 2;
  } else if (n > 2 && s[0] == 'u' && s[1] == 'i') {
    k = 2;
    uns = true;
  }
  if (k) {
    for (size_t j = k; j < n; j++)
      if (!is_digit(s[j])) return false;
    snprintf(buf, sizeof buf, "%c%.*s", uns ? 'u' : 's', (int)(n - k), s + k);
    return type_from_name(buf, strlen(buf), out) && *out != CXLA_PRED;
  }
  if (s[0] != 'f' && s[0] != 'b') return false;
  for (size_t j = 0; j < n; j++) buf[j] = (s[j] >= 'A' && s[j] <= 'Z') ? (char)(s[j] + 32) : s[j];
  buf[n] = 0;
  if (!type_from_name(buf, n, out)) return false;
  return type_is_float(*out);
}

static bool parse_bounds(P *p, MlirType *t) {
  /* [?, 4] or ?, 4 up to '>' */
  bool br = tx_eat(p, '[');
  int64_t *b = arena_array(p->a, (size_t)(t->rank ? t->rank : 1), sizeof(int64_t));
  if (!b) return tx_oom(p);
  int k = 0;
  if (!(br ? tx_peek(p, ']') : tx_peek(p, '>'))) {
    do {
      if (k >= t->rank) return tx_perr(p, "more bounds than dimensions (%d)", t->rank);
      if (tx_eat(p, '?')) b[k++] = MLIR_DYNAMIC;
      else if (!tx_parse_i64(p, &b[k++])) return false;
    } while (tx_eat(p, ','));
  }
  if (br && !tx_expect(p, ']', "after bounds")) return false;
  if (k != t->rank) return tx_perr(p, "%d bounds for %d dimensions", k, t->rank);
  t->bounds = b;
  return true;
}

static bool parse_tensor_type(P *p, MlirType **out) {
  /* after "tensor<" */
  if (tx_eat(p, '*')) {
    if (!tx_expect(p, 'x', "after '*'")) return false;
    MlirType *t = tx_type_new(p, MLT_UNRANKED);
    if (!t || !tx_parse_type(p, &t->element)) return false;
    *out = t;
    return tx_expect(p, '>', "closing the tensor type");
  }
  int64_t dims[64];
  int rank = 0;
  tx_ws(p);
  while (is_digit(cur(p)) || cur(p) == '?') {
    if (rank == 64) return tx_perr(p, "tensor rank over 64");
    if (cur(p) == '?') {
      p->i++;
      dims[rank++] = MLIR_DYNAMIC;
    } else {
      size_t st = p->i;
      int64_t d = 0;
      while (is_digit(cur(p))) {
        if (d > (INT64_MAX - 9) / 10) return tx_perr_at(p, st, "dimension too large");
        d = d * 10 + (cur(p) - '0');
        p->i++;
      }
      dims[rank++] = d;
    }
    if (cur(p) != 'x') return tx_perr(p, "expected 'x' after a dimension");
    p->i++;
    tx_ws(p);
  }
  MlirType *t = tx_type_new(p, MLT_TENSOR);
  if (!t) return false;
  t->rank = rank;
  t->dims = arena_i64dup(p->a, dims, (size_t)rank);
  if (rank && !t->dims) return tx_oom(p);
  if (!tx_parse_type(p, &t->element)) return false;
  if (t->element->kind != MLT_ELEM && t->element->kind != MLT_INDEX &&
      t->element->kind != MLT_OTHER)
    return tx_perr(p, "a tensor's element type must be an integer, float, complex or index type");
  if (tx_eat(p, ',')) {
    /* encoding: #stablehlo.bounds<...> / #stablehlo.type_extensions<bounds = [...]> */
    tx_ws(p);
    if (tx_peek_str(p, "#stablehlo.bounds<")) {
      p->i += strlen("#stablehlo.bounds<");
      if (!parse_bounds(p, t) || !tx_expect(p, '>', "closing #stablehlo.bounds")) return false;
    } else if (tx_peek_str(p, "#stablehlo.type_extensions<")) {
      p->i += strlen("#stablehlo.type_extensions<");
      if (!tx_expect_kw(p, "bounds") || !tx_expect(p, '=', NULL) || !parse_bounds(p, t) ||
          !tx_expect(p, '>', "closing #stablehlo.type_extensions"))
        return false;
    } else {
      MlirAttr *enc;
      if (!tx_parse_attr(p, &enc)) return false; /* other encodings are ignored */
    }
  }
  *out = t;
  return tx_expect(p, '>', "closing the tensor type");
}

bool tx_parse_type_list_paren(P *p, PtrVec *v) {
  if (!tx_expect(p, '(', "opening a type list")) return false;
  if (tx_eat(p, ')')) return true;
  do {
    MlirType *t;
    if (!tx_parse_type(p, &t) || !tx_pv_push(p, v, t)) return false;
  } while (tx_eat(p, ','));
  return tx_expect(p, ')', "closing the type list");
}

bool tx_parse_type(P *p, MlirType **out) {
  tx_ws(p);
  if (++p->depth > MAX_DEPTH) return tx_perr(p, "types nested too deeply");
  bool ok = false;
  size_t st = p->i;
  const char *s;
  size_t n;
  if (cur(p) == '(') {
    PtrVec ins = {0}, outs = {0};
    if (!tx_parse_type_list_paren(p, &ins)) goto done;
    if (!tx_eat_arrow(p)) {
      tx_perr(p, "expected '->' in a function type");
      goto done;
    }
    if (tx_peek(p, '(')) {
      if (!tx_parse_type_list_paren(p, &outs)) goto done;
    } else {
      MlirType *r;
      if (!tx_parse_type(p, &r) || !tx_pv_push(p, &outs, r)) goto done;
    }
    MlirType *t = tx_type_new(p, MLT_FUNCTION);
    if (!t) goto done;
    t->n = ins.n;
    t->types = (MlirType **)ins.v;
    t->nresults = outs.n;
    t->results = (MlirType **)outs.v;
    *out = t;
    ok = true;
  } else if (cur(p) == '!') {
    p->i++;
    if (!tx_ident(p, &s, &n)) {
      tx_perr(p, "expected a type name after '!'");
      goto done;
    }
    if (sv_eq(s, n, "stablehlo.token") || sv_eq(s, n, "mhlo.token")) {
      *out = tx_type_new(p, MLT_TOKEN);
      ok = *out != NULL;
      goto done;
    }
    Alias *al = find_alias(p, s, n, true);
    if (al) {
      *out = al->value;
      ok = true;
      goto done;
    }
    if (cur(p) == '<' && !skip_balanced(p)) goto done;
    MlirType *t = tx_type_new(p, MLT_OTHER);
    if (!t || !(t->text = arena_strndup(p->a, p->s + st, p->i - st))) {
      tx_oom(p);
      goto done;
    }
    *out = t;
    ok = true;
  } else if (tx_ident(p, &s, &n)) {
    cxla_type e;
    if (sv_eq(s, n, "tensor")) {
      ok = tx_expect(p, '<', "after 'tensor'") && parse_tensor_type(p, out);
    } else if (sv_eq(s, n, "tuple")) {
      PtrVec el = {0};
      if (!tx_expect(p, '<', "after 'tuple'")) goto done;
      if (!tx_peek(p, '>')) {
        do {
          MlirType *t;
          if (!tx_parse_type(p, &t) || !tx_pv_push(p, &el, t)) goto done;
        } while (tx_eat(p, ','));
      }
      if (!tx_expect(p, '>', "closing the tuple type")) goto done;
      MlirType *t = tx_type_new(p, MLT_TUPLE);
      if (!t) goto done;
      t->n = el.n;
      t->types = (MlirType **)el.v;
      *out = t;
      ok = true;
    } else if (sv_eq(s, n, "complex")) {
      MlirType *inner;
      if (!tx_expect(p, '<', "after 'complex'") || !tx_parse_type(p, &inner)) goto done;
      if (inner->kind != MLT_ELEM || (inner->elem != CXLA_F32 && inner->elem != CXLA_F64)) {
        tx_perr_at(p, st, "only complex<f32> and complex<f64> are supported");
        goto done;
      }
      if (!tx_expect(p, '>', "closing the complex type")) goto done;
      *out = tx_type_elem(p, inner->elem == CXLA_F32 ? CXLA_C64 : CXLA_C128);
      ok = *out != NULL;
    } else if (sv_eq(s, n, "index")) {
      ok = (*out = tx_type_new(p, MLT_INDEX)) != NULL;
    } else if (sv_eq(s, n, "none")) {
      ok = (*out = tx_type_new(p, MLT_NONE)) != NULL;
    } else if (elem_from_name(s, n, &e)) {
      ok = (*out = tx_type_elem(p, e)) != NULL;
    } else if (sv_eq(s, n, "vector") || sv_eq(s, n, "memref")) {
      if (cur(p) == '<' && !skip_balanced(p)) goto done;
      MlirType *t = tx_type_new(p, MLT_OTHER);
      if (!t || !(t->text = arena_strndup(p->a, p->s + st, p->i - st))) {
        tx_oom(p);
        goto done;
      }
      *out = t;
      ok = true;
    } else {
      tx_perr_at(p, st, "unknown type '%.*s'", (int)n, s);
    }
  } else {
    char buf[64];
    tx_perr(p, "expected a type, found %s", describe_here(p, buf, sizeof buf));
  }
done:
  p->depth--;
  return ok && !p->err;
}

/* ---- attributes -------------------------------------------------------------- */

MlirAttr *tx_attr_new(P *p, MlirAttrKind k) {
  MlirAttr *a = arena_alloc(p->a, sizeof *a);
  if (!a) {
    tx_oom(p);
    return NULL;
  }
  a->kind = k;
  a->pos = tx_pos_at(p, p->i);
  return a;
}

MlirAttr *tx_attr_int(P *p, int64_t v, cxla_type t) {
  MlirAttr *a = tx_attr_new(p, MA_INT);
  if (!a) return NULL;
  a->i = v;
  a->type = tx_type_elem(p, t);
  return a->type ? a : NULL;
}

MlirAttr *tx_attr_bool(P *p, bool v) {
  MlirAttr *a = tx_attr_new(p, MA_BOOL);
  if (a) a->i = v;
  return a;
}

static MlirAttr *attr_dense_array(P *p, const int64_t *v, int n, cxla_type t) {
  MlirAttr *a = tx_attr_new(p, MA_DENSE_ARRAY);
  if (!a) return NULL;
  a->array_elem = t;
  a->n = n;
  if (n) {
    a->ints = arena_i64dup(p->a, v, (size_t)n);
    if (!a->ints) {
      tx_oom(p);
      return NULL;
    }
  }
  return a;
}

MlirAttr *tx_attr_i64_array(P *p, const int64_t *v, int n) {
  return attr_dense_array(p, v, n, CXLA_S64);
}
MlirAttr *tx_attr_bool_array(P *p, const int64_t *v, int n) {
  return attr_dense_array(p, v, n, CXLA_PRED);
}

static const char *const enum_cases[][8] = {
    [ME_COMPARISON_DIRECTION] = {"EQ", "NE", "GE", "GT", "LE", "LT", NULL},
    [ME_COMPARISON_TYPE] = {"NOTYPE", "FLOAT", "TOTALORDER", "SIGNED", "UNSIGNED", NULL},
    [ME_PRECISION] = {"DEFAULT", "HIGH", "HIGHEST", NULL},
    [ME_FFT_TYPE] = {"FFT", "IFFT", "RFFT", "IRFFT", NULL},
    [ME_RNG_DISTRIBUTION] = {"UNIFORM", "NORMAL", NULL},
    [ME_RNG_ALGORITHM] = {"DEFAULT", "THREE_FRY", "PHILOX", NULL},
    [ME_TRANSPOSE] = {"TRANSPOSE_INVALID", "NO_TRANSPOSE", "TRANSPOSE", "ADJOINT", NULL},
    [ME_RESULT_ACCURACY_MODE] = {"DEFAULT", "HIGHEST", "TOLERANCE", NULL},
    [ME_OTHER] = {NULL},
};

MlirAttr *tx_attr_enum(P *p, MlirEnumKind k, const char *name, size_t len) {
  MlirAttr *a = tx_attr_new(p, MA_ENUM);
  if (!a) return NULL;
  a->ekind = k;
  a->str = arena_strndup(p->a, name, len);
  a->len = len;
  if (!a->str) {
    tx_oom(p);
    return NULL;
  }
  return a;
}

static bool enum_kind_from(const char *s, size_t n, MlirEnumKind *k) {
  static const struct {
    const char *name;
    MlirEnumKind k;
  } kinds[] = {
      {"comparison_direction", ME_COMPARISON_DIRECTION},
      {"comparison_type", ME_COMPARISON_TYPE},
      {"precision", ME_PRECISION},
      {"fft_type", ME_FFT_TYPE},
      {"rng_distribution", ME_RNG_DISTRIBUTION},
      {"rng_algorithm", ME_RNG_ALGORITHM},
      {"transpose", ME_TRANSPOSE},
      {"result_accuracy_mode", ME_RESULT_ACCURACY_MODE},
  };
  for (size_t j = 0; j < sizeof kinds / sizeof kinds[0]; j++)
    if (sv_eq(s, n, kinds[j].name)) {
      *k = kinds[j].k;
      return true;
    }
  return false;
}

bool tx_parse_enum_case(P *p, MlirEnumKind k, MlirAttr **out) {
  const char *s;
  size_t n;
  tx_ws(p);
  size_t st = p->i;
  if (!tx_ident(p, &s, &n)) {
    char buf[64];
    return tx_perr(p, "expected a %s value, found %s", mlir_enum_kind_name(k),
                describe_here(p, buf, sizeof buf));
  }
  if (k != ME_OTHER) {
    bool found = false;
    for (int j = 0; enum_cases[k][j]; j++)
      if (sv_eq(s, n, enum_cases[k][j])) found = true;
    if (!found)
      return tx_perr_at(p, st, "unknown %s '%.*s'", mlir_enum_kind_name(k), (int)n, s);
  }
  *out = tx_attr_enum(p, k, s, n);
  return *out != NULL;
}

static bool parse_string_lit(P *p, const char **out, size_t *outlen) {
  tx_ws(p);
  size_t st = p->i;
  if (cur(p) != '"') return tx_perr(p, "expected a string");
  p->i++;
  StrBuf b;
  sb_init(&b);
  for (;;) {
    if (at_end(p)) {
      sb_free(&b);
      return tx_perr_at(p, st, "unterminated string");
    }
    char c = cur(p);
    if (c == '"') {
      p->i++;
      break;
    }
    if (c == '\\') {
      char d = at(p, 1);
      int h1 = -1, h2 = -1;
      char e1 = at(p, 1), e2 = at(p, 2);
      h1 = is_digit(e1) ? e1 - '0' : (e1 >= 'a' && e1 <= 'f') ? e1 - 'a' + 10
                                   : (e1 >= 'A' && e1 <= 'F') ? e1 - 'A' + 10 : -1;
      h2 = is_digit(e2) ? e2 - '0' : (e2 >= 'a' && e2 <= 'f') ? e2 - 'a' + 10
                                   : (e2 >= 'A' && e2 <= 'F') ? e2 - 'A' + 10 : -1;
      if (h1 >= 0 && h2 >= 0) {
        sb_putc(&b, (char)(h1 * 16 + h2));
        p->i += 3;
      } else if (d == 'n') {
        sb_putc(&b, '\n');
        p->i += 2;
      } else if (d == 't') {
        sb_putc(&b, '\t');
        p->i += 2;
      } else if (d == '"' || d == '\\') {
        sb_putc(&b, d);
        p->i += 2;
      } else {
        sb_free(&b);
        return tx_perr_at(p, p->i, "unknown escape in string");
      }
      continue;
    }
    sb_putc(&b, c);
    p->i++;
  }
  if (b.oom) {
    sb_free(&b);
    return tx_oom(p);
  }
  size_t len = b.len;
  char *s = arena_strndup(p->a, b.data ? b.data : "", len);
  sb_free(&b);
  if (!s) return tx_oom(p);
  *out = s;
  *outlen = len;
  return true;
}

/* A number lexeme: integer (decimal or 0x hex) or float. */
typedef struct Num {
  bool is_float, is_hex, neg;
  uint64_t u;  /* integer magnitude or hex bits */
  double f;
} Num;

static bool parse_num(P *p, Num *out) {
  tx_ws(p);
  size_t st = p->i;
  memset(out, 0, sizeof *out);
  if (cur(p) == '-') {
    out->neg = true;
    p->i++;
  } else if (cur(p) == '+') {
    p->i++;
  }
  if (cur(p) == '0' && (at(p, 1) == 'x' || at(p, 1) == 'X')) {
    p->i += 2;
    uint64_t v = 0;
    if (!read_hex_digits(p, st, &v)) return false;
    out->is_hex = true;
    out->u = v;
    return true;
  }
  if (!is_digit(cur(p))) {
    /* inf / nan spellings */
    const char *s;
    size_t n;
    size_t save = p->i;
    if (tx_ident(p, &s, &n) && (sv_eq(s, n, "inf") || sv_eq(s, n, "nan"))) {
      out->is_float = true;
      out->f = sv_eq(s, n, "inf") ? (out->neg ? -1.0 / 0.0 : 1.0 / 0.0) : 0.0 / 0.0;
      return true;
    }
    p->i = save;
    p->i = st;
    char buf[64];
    return tx_perr(p, "expected a number, found %s", describe_here(p, buf, sizeof buf));
  }
  size_t ds = p->i;
  while (is_digit(cur(p))) p->i++;
  if (cur(p) == '.' || cur(p) == 'e' || cur(p) == 'E') {
    if (cur(p) == '.') {
      p->i++;
      while (is_digit(cur(p))) p->i++;
    }
    if (cur(p) == 'e' || cur(p) == 'E') {
      p->i++;
      if (cur(p) == '+' || cur(p) == '-') p->i++;
      if (!is_digit(cur(p))) return tx_perr_at(p, st, "malformed float exponent");
      while (is_digit(cur(p))) p->i++;
    }
    char buf[80];
    size_t l = p->i - st;
    if (l >= sizeof buf) return tx_perr_at(p, st, "float literal too long");
    memcpy(buf, p->s + st, l);
    buf[l] = 0;
    out->is_float = true;
    out->f = strtod(buf, NULL);
    return true;
  }
  uint64_t v = 0;
  for (size_t k = ds; k < p->i; k++) {
    unsigned d = (unsigned)(p->s[k] - '0');
    if (v > (UINT64_MAX - d) / 10) return tx_perr_at(p, st, "integer literal out of range");
    v = v * 10 + d;
  }
  out->u = v;
  return true;
}

static double num_f64(const Num *n) {
  if (n->is_float) return n->f;
  double v = (double)n->u;
  return n->neg ? -v : v;
}

/* Writes one element of scalar type t from a literal into dst. */
static bool store_elem(P *p, size_t off, const MlirType *t, const Num *re, const Num *im,
                       bool is_bool, bool bval, uint8_t *dst) {
  if (t->kind == MLT_INDEX) {
    int64_t v = is_bool ? bval : re->neg ? (int64_t)(0 - re->u) : (int64_t)re->u;
    memcpy(dst, &v, 8);
    return true;
  }
  if (t->kind != MLT_ELEM) return tx_perr_at(p, off, "unsupported element type in dense<...>");
  cxla_type e = t->elem;
  if (type_kind(e) == TK_PRED) {
    if (is_bool) dst[0] = bval;
    else if (!re->is_float) dst[0] = re->u != 0;
    else return tx_perr_at(p, off, "expected true or false for an i1 element");
    return true;
  }
  if (is_bool) return tx_perr_at(p, off, "true/false given for a non-i1 element");
  if (type_is_int(e)) {
    if (re->is_float) return tx_perr_at(p, off, "float literal for an integer element");
    int bits = type_bits(e);
    uint64_t v = re->neg ? 0 - re->u : re->u;
    int bytes = type_bytes(e);
    if (bits < 8) {
      int64_t sv = (int64_t)(v << (64 - bits));
      sv = type_kind(e) == TK_SINT ? sv >> (64 - bits) : (int64_t)((uint64_t)sv >> (64 - bits));
      dst[0] = (uint8_t)sv;
      return true;
    }
    for (int k = 0; k < bytes; k++) dst[k] = (uint8_t)(v >> (8 * k));
    return true;
  }
  if (type_is_complex(e)) {
    if (!im) return tx_perr_at(p, off, "expected (re, im) for a complex element");
    if (e == CXLA_C64) {
      float a = re->is_hex ? 0 : (float)num_f64(re), b = im->is_hex ? 0 : (float)num_f64(im);
      uint32_t ab = (uint32_t)re->u, bb = (uint32_t)im->u;
      if (re->is_hex) memcpy(&a, &ab, 4);
      if (im->is_hex) memcpy(&b, &bb, 4);
      memcpy(dst, &a, 4);
      memcpy(dst + 4, &b, 4);
    } else {
      double a = num_f64(re), b = num_f64(im);
      if (re->is_hex) memcpy(&a, &re->u, 8);
      if (im->is_hex) memcpy(&b, &im->u, 8);
      memcpy(dst, &a, 8);
      memcpy(dst + 8, &b, 8);
    }
    return true;
  }
  if (im) return tx_perr_at(p, off, "(re, im) given for a non-complex element");
  int bytes = type_bytes(e);
  if (re->is_hex) {
    for (int k = 0; k < bytes; k++) dst[k] = (uint8_t)(re->u >> (8 * k));
    return true;
  }
  double v = num_f64(re);
  if (e == CXLA_F64) {
    memcpy(dst, &v, 8);
  } else if (e == CXLA_F32) {
    float f = (float)v;
    memcpy(dst, &f, 4);
  } else {
    uint32_t bits = minifloat_encode(e, v);
    for (int k = 0; k < bytes; k++) dst[k] = (uint8_t)(bits >> (8 * k));
  }
  return true;
}

typedef struct DenseLit {
  size_t off;
  bool is_bool, bval, has_im;
  Num re, im;
} DenseLit;

typedef struct DenseVec {
  DenseLit *v;
  size_t n, cap;
} DenseVec;

static bool dv_push(P *p, DenseVec *d, const DenseLit *x) {
  if (d->n == d->cap) {
    size_t nc = d->cap ? d->cap * 2 : 64;
    DenseLit *nv = cxla_realloc(d->v, nc * sizeof *nv);
    if (!nv) return tx_oom(p);
    d->v = nv;
    d->cap = nc;
  }
  d->v[d->n++] = *x;
  return true;
}

static bool dense_scalar(P *p, DenseLit *l) {
  tx_ws(p);
  memset(l, 0, sizeof *l);
  l->off = p->i;
  if (tx_eat_kw(p, "true") || tx_eat_kw(p, "false")) {
    l->is_bool = true;
    l->bval = p->s[l->off] == 't';
    return true;
  }
  if (tx_eat(p, '(')) {
    l->has_im = true;
    return parse_num(p, &l->re) && tx_expect(p, ',', "in a complex literal") &&
           parse_num(p, &l->im) && tx_expect(p, ')', "closing a complex literal");
  }
  return parse_num(p, &l->re);
}

static bool dense_nested(P *p, DenseVec *d, int depth) {
  if (depth > 64) return tx_perr(p, "dense literal nested too deeply");
  if (tx_eat(p, '[')) {
    if (tx_eat(p, ']')) return true;
    do {
      if (!dense_nested(p, d, depth + 1)) return false;
    } while (tx_eat(p, ','));
    return tx_expect(p, ']', "in a dense literal");
  }
  DenseLit l;
  return dense_scalar(p, &l) && dv_push(p, d, &l);
}

static int hexval(char c) {
  return is_digit(c) ? c - '0' : (c >= 'a' && c <= 'f') ? c - 'a' + 10
                               : (c >= 'A' && c <= 'F') ? c - 'A' + 10 : -1;
}

/* Decodes "0x...." (the quotes already stripped: s/n) into bytes. */
static bool decode_hex(P *p, size_t off, const char *s, size_t n, uint8_t **out, size_t *nb) {
  if (n < 2 || s[0] != '0' || (s[1] != 'x' && s[1] != 'X') || (n % 2))
    return tx_perr_at(p, off, "expected a hexadecimal blob \"0x...\" of whole bytes");
  size_t len = (n - 2) / 2;
  uint8_t *b = arena_alloc(p->a, len ? len : 1);
  if (!b) return tx_oom(p);
  for (size_t k = 0; k < len; k++) {
    int h = hexval(s[2 + 2 * k]), l = hexval(s[3 + 2 * k]);
    if (h < 0 || l < 0) return tx_perr_at(p, off, "bad hexadecimal digit in blob");
    b[k] = (uint8_t)(h * 16 + l);
  }
  *out = b;
  *nb = len;
  return true;
}

/* The normalized form: a tensor of more than one element whose elements are
 * all equal (bit for bit) is a splat holding one element, as MLIR stores it. */
static void dense_normalize_splat(MlirAttr *a) {
  int64_t ne = mlir_type_elems(a->type);
  size_t eb = (size_t)mlir_elem_bytes(a->type->element);
  if (a->splat || ne <= 1 || !eb || a->nbytes != (size_t)ne * eb) return;
  for (size_t k = eb; k < a->nbytes; k += eb)
    if (memcmp(a->data, a->data + k, eb) != 0) return;
  a->splat = true;
  a->nbytes = eb;
}

/* Fills a dense attribute from raw MLIR storage bytes: i1 may come bit-packed. */
static bool dense_from_raw(P *p, size_t off, MlirAttr *a, const uint8_t *raw, size_t nb) {
  int64_t ne = mlir_type_elems(a->type);
  int eb = mlir_elem_bytes(a->type->element);
  if (ne < 0 || eb <= 0) return tx_perr_at(p, off, "dense data needs a static tensor type");
  bool is_i1 = a->type->element->kind == MLT_ELEM && a->type->element->elem == CXLA_PRED;
  if ((uint64_t)nb == (uint64_t)eb && ne != 1) {
    a->splat = true;
    a->data = raw;
    a->nbytes = nb;
    if (is_i1) ((uint8_t *)raw)[0] = raw[0] != 0;
    return true;
  }
  if (is_i1 && (uint64_t)nb == ((uint64_t)ne + 7) / 8 && (uint64_t)nb != (uint64_t)ne) {
    uint8_t *u = arena_alloc(p->a, (size_t)ne);
    if (!u) return tx_oom(p);
    for (int64_t k = 0; k < ne; k++) u[k] = (raw[k / 8] >> (k % 8)) & 1;
    a->data = u;
    a->nbytes = (size_t)ne;
    dense_normalize_splat(a);
    return true;
  }
  if ((uint64_t)nb != (uint64_t)ne * (uint64_t)eb)
    return tx_perr_at(p, off, "dense data has %zu bytes; the type needs %lld", nb,
                   (long long)ne * eb);
  if (is_i1)
    for (size_t k = 0; k < nb; k++) ((uint8_t *)raw)[k] = raw[k] != 0;
  a->data = raw;
  a->nbytes = nb;
  dense_normalize_splat(a);
  return true;
}

static bool parse_dense(P *p, MlirAttr **out) {
  /* after "dense<" */
  size_t st = p->i;
  MlirAttr *a = tx_attr_new(p, MA_DENSE);
  if (!a) return false;
  DenseVec d = {0};
  const char *hex = NULL;
  size_t hexlen = 0;
  bool ok = false;
  if (tx_peek(p, '"')) {
    if (!parse_string_lit(p, &hex, &hexlen)) goto done;
  } else if (!tx_peek(p, '>')) {
    if (!dense_nested(p, &d, 0)) goto done;
  }
  if (!tx_expect(p, '>', "closing dense<...>") || !tx_expect(p, ':', "before the dense type") ||
      !tx_parse_type(p, &a->type))
    goto done;
  if (a->type->kind != MLT_TENSOR) {
    tx_perr_at(p, st, "dense<...> needs a ranked tensor type");
    goto done;
  }
  int64_t ne = mlir_type_elems(a->type);
  int eb = mlir_elem_bytes(a->type->element);
  if (ne < 0 || eb <= 0) {
    tx_perr_at(p, st, "dense<...> needs a static tensor of integers, floats or complex numbers");
    goto done;
  }
  if (hex) {
    /* The string is the raw bytes "0x..." (the escapes were decoded). */
    uint8_t *raw;
    size_t nb;
    if (!decode_hex(p, st, hex, hexlen, &raw, &nb) || !dense_from_raw(p, st, a, raw, nb))
      goto done;
    ok = true;
    goto done;
  }
  if (d.n == 0 && ne != 0) {
    tx_perr_at(p, st, "empty dense literal for a tensor of %lld elements", (long long)ne);
    goto done;
  }
  if (d.n != 1 && (int64_t)d.n != ne) {
    tx_perr_at(p, st, "dense literal has %zu elements; the type has %lld", d.n, (long long)ne);
    goto done;
  }
  a->splat = d.n == 1 && ne != 1;
  a->nbytes = d.n * (size_t)eb;
  uint8_t *buf = arena_alloc(p->a, a->nbytes ? a->nbytes : 1);
  if (!buf) {
    tx_oom(p);
    goto done;
  }
  for (size_t k = 0; k < d.n; k++) {
    DenseLit *l = &d.v[k];
    if (!store_elem(p, l->off, a->type->element, &l->re, l->has_im ? &l->im : NULL, l->is_bool,
                    l->bval, buf + k * (size_t)eb))
      goto done;
  }
  a->data = buf;
  dense_normalize_splat(a);
  ok = true;
done:
  cxla_free(d.v);
  if (ok) *out = a;
  return ok;
}

static bool parse_dense_resource(P *p, MlirAttr **out) {
  /* after "dense_resource<" */
  size_t st = p->i;
  MlirAttr *a = tx_attr_new(p, MA_DENSE);
  if (!a) return false;
  tx_ws(p);
  size_t ns = p->i;
  while (!at_end(p) && (tx_is_ident_char(cur(p)) || cur(p) == '-')) p->i++;
  size_t nl = p->i - ns;
  if (!nl) return tx_perr(p, "expected a resource name");
  if (!tx_expect(p, '>', "closing dense_resource<...>") || !tx_expect(p, ':', "before the type") ||
      !tx_parse_type(p, &a->type))
    return false;
  if (a->type->kind != MLT_TENSOR || mlir_type_elems(a->type) < 0 ||
      mlir_elem_bytes(a->type->element) <= 0)
    return tx_perr_at(p, st, "dense_resource<...> needs a static tensor of numbers");
  if (p->npend == p->cappend) {
    int nc = p->cappend ? p->cappend * 2 : 16;
    PendingResource *np = cxla_realloc(p->pend, (size_t)nc * sizeof *np);
    if (!np) return tx_oom(p);
    p->pend = np;
    p->cappend = nc;
  }
  PendingResource *r = &p->pend[p->npend++];
  r->attr = a;
  r->name = p->s + ns;
  r->len = nl;
  r->pos = tx_pos_at(p, st);
  *out = a;
  return true;
}

static bool parse_dense_array(P *p, MlirAttr **out) {
  /* after "array<" */
  MlirType *t;
  if (!tx_parse_type(p, &t)) return false;
  if (t->kind != MLT_ELEM || type_is_complex(t->elem))
    return tx_perr(p, "array<...> holds integers, i1 or floats");
  MlirAttr *a = tx_attr_new(p, MA_DENSE_ARRAY);
  if (!a) return false;
  a->array_elem = t->elem;
  int64_t *iv = NULL;
  double *fv = NULL;
  int n = 0, cap = 0;
  if (tx_eat(p, ':')) {
    do {
      if (n == cap) {
        int nc = cap ? cap * 2 : 16;
        int64_t *ni = arena_array(p->a, (size_t)nc, sizeof(int64_t));
        double *nf = arena_array(p->a, (size_t)nc, sizeof(double));
        if (!ni || !nf) return tx_oom(p);
        if (n) {
          memcpy(ni, iv, (size_t)n * sizeof *ni);
          memcpy(nf, fv, (size_t)n * sizeof *nf);
        }
        iv = ni;
        fv = nf;
        cap = nc;
      }
      DenseLit l;
      if (!dense_scalar(p, &l)) return false;
      if (l.has_im) return tx_perr_at(p, l.off, "complex value in array<...>");
      if (l.is_bool) {
        iv[n] = l.bval;
        fv[n] = l.bval;
      } else {
        iv[n] = l.re.neg ? (int64_t)(0 - l.re.u) : (int64_t)l.re.u;
        fv[n] = num_f64(&l.re);
        if (l.re.is_hex && type_is_float(t->elem)) {
          uint64_t bits = l.re.u;
          if (t->elem == CXLA_F32) {
            float f;
            uint32_t b32 = (uint32_t)bits;
            memcpy(&f, &b32, 4);
            fv[n] = f;
          } else if (t->elem == CXLA_F64) {
            memcpy(&fv[n], &bits, 8);
          } else {
            fv[n] = minifloat_decode(t->elem, (uint32_t)bits);
          }
        }
      }
      n++;
    } while (tx_eat(p, ','));
  }
  if (!tx_expect(p, '>', "closing array<...>")) return false;
  a->n = n;
  if (type_is_float(t->elem)) a->floats = fv;
  else a->ints = iv;
  *out = a;
  return true;
}

static bool i64s_from_attr(P *p, MlirAttr *v, MlirI64s *out, const char *field) {
  if (v->kind == MA_DENSE_ARRAY && v->ints) {
    out->n = v->n;
    out->v = v->ints;
    return true;
  }
  if (v->kind != MA_ARRAY) return tx_perr(p, "expected a list of integers for '%s'", field);
  out->n = v->n;
  out->v = arena_array(p->a, (size_t)(v->n ? v->n : 1), sizeof(int64_t));
  if (!out->v) return tx_oom(p);
  for (int k = 0; k < v->n; k++) {
    if (v->elems[k]->kind != MA_INT) return tx_perr(p, "expected integers in '%s'", field);
    out->v[k] = v->elems[k]->i;
  }
  return true;
}

/* `name = attr, ...` up to '>' (not consumed) into a dict attribute. */
static bool parse_fields(P *p, PtrVec *names, PtrVec *vals) {
  if (tx_peek(p, '>')) return true;
  do {
    const char *s;
    size_t n;
    if (!tx_ident(p, &s, &n)) return tx_perr(p, "expected a field name");
    char *name = arena_strndup(p->a, s, n);
    MlirAttr *v;
    if (!name || !tx_expect(p, '=', "after a field name") || !tx_parse_attr(p, &v)) return p->err ? false : tx_oom(p);
    if (!tx_pv_push(p, names, name) || !tx_pv_push(p, vals, v)) return false;
  } while (tx_eat(p, ','));
  return true;
}

static MlirAttr *field(PtrVec *names, PtrVec *vals, const char *name) {
  for (int k = 0; k < names->n; k++)
    if (strcmp(names->v[k], name) == 0) return vals->v[k];
  return NULL;
}

static bool field_i64s(P *p, PtrVec *nm, PtrVec *vl, const char *name, MlirI64s *out) {
  MlirAttr *v = field(nm, vl, name);
  if (!v) {
    out->n = 0;
    out->v = NULL;
    return true;
  }
  return i64s_from_attr(p, v, out, name);
}

static bool field_i64(P *p, PtrVec *nm, PtrVec *vl, const char *name, int64_t *out, int64_t def) {
  MlirAttr *v = field(nm, vl, name);
  if (!v) {
    *out = def;
    return true;
  }
  if (v->kind != MA_INT) return tx_perr(p, "expected an integer for '%s'", name);
  *out = v->i;
  return true;
}

/* [b, 0, 1, f]: one bracket list of conv dimension letters. */
static bool conv_list(P *p, const char *letters, int64_t *a, int64_t *b, MlirI64s *sp) {
  int64_t spatial[64];
  int ns = 0, pos = 0;
  *a = -1;
  *b = -1;
  if (!tx_expect(p, '[', "in convolution dimension numbers")) return false;
  if (!tx_peek(p, ']')) {
    do {
      tx_ws(p);
      if (pos >= 64) return tx_perr(p, "too many convolution dimensions");
      if (is_digit(cur(p))) {
        int64_t k;
        if (!tx_parse_i64(p, &k)) return false;
        if (k < 0 || k >= 64) return tx_perr(p, "bad spatial dimension %lld", (long long)k);
        while (ns <= k) spatial[ns++] = -1;
        if (spatial[k] != -1) return tx_perr(p, "spatial dimension %lld repeated", (long long)k);
        spatial[k] = pos;
      } else if (cur(p) == letters[0] || cur(p) == letters[1]) {
        int64_t *dst = cur(p) == letters[0] ? a : b;
        if (*dst != -1) return tx_perr(p, "dimension '%c' repeated", cur(p));
        *dst = pos;
        p->i++;
      } else {
        return tx_perr(p, "expected '%c', '%c' or a spatial dimension number", letters[0], letters[1]);
      }
      pos++;
    } while (tx_eat(p, ','));
  }
  if (!tx_expect(p, ']', "in convolution dimension numbers")) return false;
  if (*a < 0 || *b < 0) return tx_perr(p, "missing '%c' or '%c' dimension", letters[0], letters[1]);
  for (int k = 0; k < ns; k++)
    if (spatial[k] < 0) return tx_perr(p, "spatial dimension %d missing", k);
  sp->n = ns;
  sp->v = arena_i64dup(p->a, spatial, (size_t)ns);
  if (ns && !sp->v) return tx_oom(p);
  return true;
}

bool tx_parse_conv_dims(P *p, MlirConvDims *c);
bool tx_parse_conv_dims(P *p, MlirConvDims *c) {
  if (!conv_list(p, "bf", &c->in_batch, &c->in_feature, &c->in_spatial)) return false;
  tx_ws(p);
  if (cur(p) != 'x') return tx_perr(p, "expected 'x' between convolution dimension lists");
  p->i++;
  if (!conv_list(p, "io", &c->k_in_feature, &c->k_out_feature, &c->k_spatial)) return false;
  if (!tx_eat_arrow(p)) return tx_perr(p, "expected '->' in convolution dimension numbers");
  if (!conv_list(p, "bf", &c->out_batch, &c->out_feature, &c->out_spatial)) return false;
  if (c->in_spatial.n != c->k_spatial.n || c->in_spatial.n != c->out_spatial.n)
    return tx_perr(p, "convolution dimension lists have different spatial ranks");
  return true;
}

static bool parse_stablehlo_struct(P *p, const char *s, size_t n, size_t st, MlirAttr **out) {
  /* s names the attribute after '#' ("stablehlo.dot" ...); '<' consumed. */
  MlirAttr *a = tx_attr_new(p, MA_DOT);
  if (!a) return false;
  if (sv_eq(s, n, "stablehlo.conv")) {
    a->kind = MA_CONV;
    if (tx_eat_kw(p, "raw")) {
      PtrVec nm = {0}, vl = {0};
      MlirConvDims *c = &a->conv;
      if (!parse_fields(p, &nm, &vl) ||
          !field_i64(p, &nm, &vl, "input_batch_dimension", &c->in_batch, 0) ||
          !field_i64(p, &nm, &vl, "input_feature_dimension", &c->in_feature, 0) ||
          !field_i64s(p, &nm, &vl, "input_spatial_dimensions", &c->in_spatial) ||
          !field_i64(p, &nm, &vl, "kernel_input_feature_dimension", &c->k_in_feature, 0) ||
          !field_i64(p, &nm, &vl, "kernel_output_feature_dimension", &c->k_out_feature, 0) ||
          !field_i64s(p, &nm, &vl, "kernel_spatial_dimensions", &c->k_spatial) ||
          !field_i64(p, &nm, &vl, "output_batch_dimension", &c->out_batch, 0) ||
          !field_i64(p, &nm, &vl, "output_feature_dimension", &c->out_feature, 0) ||
          !field_i64s(p, &nm, &vl, "output_spatial_dimensions", &c->out_spatial))
        return false;
    } else if (!tx_parse_conv_dims(p, &a->conv)) {
      return false;
    }
  } else {
    PtrVec nm = {0}, vl = {0};
    if (!parse_fields(p, &nm, &vl)) return false;
    if (sv_eq(s, n, "stablehlo.dot")) {
      MlirDotDims *d = &a->dot;
      if (!field_i64s(p, &nm, &vl, "lhs_batching_dimensions", &d->lhs_batch) ||
          !field_i64s(p, &nm, &vl, "rhs_batching_dimensions", &d->rhs_batch) ||
          !field_i64s(p, &nm, &vl, "lhs_contracting_dimensions", &d->lhs_contract) ||
          !field_i64s(p, &nm, &vl, "rhs_contracting_dimensions", &d->rhs_contract))
        return false;
    } else if (sv_eq(s, n, "stablehlo.gather")) {
      a->kind = MA_GATHER;
      MlirGatherDims *g = &a->gather;
      if (!field_i64s(p, &nm, &vl, "offset_dims", &g->offset_dims) ||
          !field_i64s(p, &nm, &vl, "collapsed_slice_dims", &g->collapsed_slice_dims) ||
          !field_i64s(p, &nm, &vl, "operand_batching_dims", &g->operand_batching_dims) ||
          !field_i64s(p, &nm, &vl, "start_indices_batching_dims",
                      &g->start_indices_batching_dims) ||
          !field_i64s(p, &nm, &vl, "start_index_map", &g->start_index_map) ||
          !field_i64(p, &nm, &vl, "index_vector_dim", &g->index_vector_dim, 0))
        return false;
    } else if (sv_eq(s, n, "stablehlo.scatter")) {
      a->kind = MA_SCATTER;
      MlirScatterDims *g = &a->scatter;
      if (!field_i64s(p, &nm, &vl, "update_window_dims", &g->update_window_dims) ||
          !field_i64s(p, &nm, &vl, "inserted_window_dims", &g->inserted_window_dims) ||
          !field_i64s(p, &nm, &vl, "input_batching_dims", &g->input_batching_dims) ||
          !field_i64s(p, &nm, &vl, "scatter_indices_batching_dims",
                      &g->scatter_indices_batching_dims) ||
          !field_i64s(p, &nm, &vl, "scatter_dims_to_operand_dims",
                      &g->scatter_dims_to_operand_dims) ||
          !field_i64(p, &nm, &vl, "index_vector_dim", &g->index_vector_dim, 0))
        return false;
    } else if (sv_eq(s, n, "stablehlo.output_operand_alias")) {
      a->kind = MA_OUTPUT_OPERAND_ALIAS;
      if (!field_i64s(p, &nm, &vl, "output_tuple_indices", &a->alias.output_tuple_indices) ||
          !field_i64(p, &nm, &vl, "operand_index", &a->alias.operand_index, 0) ||
          !field_i64s(p, &nm, &vl, "operand_tuple_indices", &a->alias.operand_tuple_indices))
        return false;
    } else if (sv_eq(s, n, "stablehlo.channel_handle")) {
      a->kind = MA_CHANNEL_HANDLE;
      if (!field_i64(p, &nm, &vl, "handle", &a->channel.handle, 0) ||
          !field_i64(p, &nm, &vl, "type", &a->channel.type, 0))
        return false;
    } else if (sv_eq(s, n, "stablehlo.dot_algorithm")) {
      a->kind = MA_DOT_ALGORITHM;
      MlirDotAlgorithm *g = &a->algorithm;
      MlirAttr *t;
      if ((t = field(&nm, &vl, "lhs_precision_type")) && t->kind == MA_TYPE) g->lhs_precision_type = t->type;
      if ((t = field(&nm, &vl, "rhs_precision_type")) && t->kind == MA_TYPE) g->rhs_precision_type = t->type;
      if ((t = field(&nm, &vl, "accumulation_type")) && t->kind == MA_TYPE) g->accumulation_type = t->type;
      if ((t = field(&nm, &vl, "allow_imprecise_accumulation")) && t->kind == MA_BOOL)
        g->allow_imprecise_accumulation = t->i;
      if (!field_i64(p, &nm, &vl, "lhs_component_count", &g->lhs_component_count, 1) ||
          !field_i64(p, &nm, &vl, "rhs_component_count", &g->rhs_component_count, 1) ||
          !field_i64(p, &nm, &vl, "num_primitive_operations", &g->num_primitive_operations, 1))
        return false;
    } else if (sv_eq(s, n, "stablehlo.result_accuracy")) {
      a->kind = MA_RESULT_ACCURACY;
      MlirAttr *t;
      if ((t = field(&nm, &vl, "atol")) && t->kind == MA_FLOAT) a->accuracy.atol = t->f;
      if ((t = field(&nm, &vl, "rtol")) && t->kind == MA_FLOAT) a->accuracy.rtol = t->f;
      if ((t = field(&nm, &vl, "ulps")) && t->kind == MA_INT) a->accuracy.ulps = t->i;
      a->accuracy.mode = "DEFAULT";
      if ((t = field(&nm, &vl, "mode")) && t->kind == MA_ENUM) a->accuracy.mode = t->str;
    } else {
      return tx_perr_at(p, st, "unknown attribute '#%.*s'", (int)n, s);
    }
  }
  if (!tx_expect(p, '>', "closing the attribute")) return false;
  *out = a;
  return true;
}

static bool parse_hash_attr(P *p, MlirAttr **out) {
  /* at '#' */
  size_t st = p->i;
  p->i++;
  const char *s;
  size_t n;
  if (!tx_ident(p, &s, &n)) return tx_perr(p, "expected an attribute name after '#'");
  if (cur(p) != '<') {
    Alias *al = find_alias(p, s, n, false);
    if (!al) return tx_perr_at(p, st, "undefined attribute alias '#%.*s'", (int)n, s);
    *out = al->value;
    return true;
  }
  if (sv_eq(s, n, "stablehlo") || sv_eq(s, n, "chlo") || sv_eq(s, n, "mhlo")) {
    p->i++;
    const char *k;
    size_t kn;
    MlirEnumKind ek;
    if (!tx_ident(p, &k, &kn)) return tx_perr(p, "expected an enum kind");
    if (!enum_kind_from(k, kn, &ek)) {
      if (sv_eq(s, n, "stablehlo")) return tx_perr_at(p, st, "unknown stablehlo enum '%.*s'", (int)kn, k);
      ek = ME_OTHER;
    }
    if (!tx_parse_enum_case(p, ek, out)) return false;
    return tx_expect(p, '>', "closing the enum attribute");
  }
  if (n > 10 && memcmp(s, "stablehlo.", 10) == 0 && !sv_eq(s, n, "stablehlo.bounds") &&
      !sv_eq(s, n, "stablehlo.type_extensions")) {
    p->i++;
    return parse_stablehlo_struct(p, s, n, st, out);
  }
  /* Other dialects (sdy, mhlo, ...): kept as text. */
  if (!skip_balanced(p)) return false;
  MlirAttr *a = tx_attr_new(p, MA_OPAQUE);
  if (!a) return false;
  a->len = p->i - st;
  a->str = arena_strndup(p->a, p->s + st, a->len);
  if (!a->str) return tx_oom(p);
  *out = a;
  return true;
}

static int cmp_cstr(const void *a, const void *b) {
  return strcmp(*(const char *const *)a, *(const char *const *)b);
}

bool tx_parse_attr_dict(P *p, PtrVec *names, PtrVec *values) {
  if (!tx_expect(p, '{', "opening an attribute dictionary")) return false;
  if (tx_eat(p, '}')) return true;
  do {
    tx_ws(p);
    const char *s;
    size_t n;
    size_t st = p->i;
    if (cur(p) == '"') {
      if (!parse_string_lit(p, &s, &n)) return false;
    } else if (!tx_ident(p, &s, &n)) {
      char buf[64];
      return tx_perr(p, "expected an attribute name, found %s", describe_here(p, buf, sizeof buf));
    }
    char *name = arena_strndup(p->a, s, n);
    if (!name) return tx_oom(p);
    /* small dictionaries are checked for repeats here, big ones at the end */
    for (int k = 0; names->n <= 16 && k < names->n; k++)
      if (strcmp(names->v[k], name) == 0)
        return tx_perr_at(p, st, "attribute '%s' given twice", name);
    MlirAttr *v;
    if (tx_eat(p, '=')) {
      if (!tx_parse_attr(p, &v)) return false;
    } else {
      v = tx_attr_new(p, MA_UNIT);
      if (!v) return false;
    }
    if (!tx_pv_push(p, names, name) || !tx_pv_push(p, values, v)) return false;
  } while (tx_eat(p, ','));
  if (names->n > 16) { /* N log N: sort a copy of the names, compare neighbours */
    const char **sorted = cxla_malloc((size_t)names->n * sizeof *sorted);
    if (!sorted) return tx_oom(p);
    memcpy(sorted, names->v, (size_t)names->n * sizeof *sorted);
    qsort(sorted, (size_t)names->n, sizeof *sorted, cmp_cstr);
    const char *dup = NULL;
    for (int k = 1; k < names->n && !dup; k++)
      if (strcmp(sorted[k - 1], sorted[k]) == 0) dup = sorted[k];
    cxla_free(sorted);
    if (dup) return tx_perr(p, "attribute '%s' given twice in this dictionary", dup);
  }
  return tx_expect(p, '}', "closing the attribute dictionary");
}

static bool parse_attr_inner(P *p, MlirAttr **out) {
  tx_ws(p);
  size_t st = p->i;
  char c = cur(p);
  if (c == '"') {
    MlirAttr *a = tx_attr_new(p, MA_STRING);
    if (!a || !parse_string_lit(p, &a->str, &a->len)) return false;
    if (tx_eat(p, ':')) { /* a typed string: "..." : type */
      MlirType *t;
      if (!tx_parse_type(p, &t)) return false;
    }
    *out = a;
    return true;
  }
  if (c == '[') {
    p->i++;
    PtrVec el = {0};
    if (!tx_peek(p, ']')) {
      do {
        MlirAttr *e;
        if (!tx_parse_attr(p, &e) || !tx_pv_push(p, &el, e)) return false;
      } while (tx_eat(p, ','));
    }
    if (!tx_expect(p, ']', "closing the array")) return false;
    MlirAttr *a = tx_attr_new(p, MA_ARRAY);
    if (!a) return false;
    a->pos = tx_pos_at(p, st);
    a->n = el.n;
    a->elems = (MlirAttr **)el.v;
    *out = a;
    return true;
  }
  if (c == '{') {
    PtrVec nm = {0}, vl = {0};
    if (!tx_parse_attr_dict(p, &nm, &vl)) return false;
    MlirAttr *a = tx_attr_new(p, MA_DICT);
    if (!a) return false;
    a->n = nm.n;
    a->entries = arena_array(p->a, (size_t)(nm.n ? nm.n : 1), sizeof(MlirNamedAttr));
    if (!a->entries) return tx_oom(p);
    for (int k = 0; k < nm.n; k++) {
      a->entries[k].name = nm.v[k];
      a->entries[k].value = vl.v[k];
    }
    *out = a;
    return true;
  }
  if (c == '@') {
    p->i++;
    MlirAttr *a = tx_attr_new(p, MA_SYMBOL_REF);
    if (!a) return false;
    if (cur(p) == '"') {
      if (!parse_string_lit(p, &a->str, &a->len)) return false;
    } else {
      size_t ns = p->i;
      while (!at_end(p) && (tx_is_ident_char(cur(p)) || cur(p) == '-')) p->i++;
      if (p->i == ns) return tx_perr(p, "expected a symbol name after '@'");
      a->len = p->i - ns;
      a->str = arena_strndup(p->a, p->s + ns, a->len);
      if (!a->str) return tx_oom(p);
    }
    while (tx_peek_str(p, "::@")) { /* nested reference: keep the root */
      p->i += 3;
      while (!at_end(p) && tx_is_ident_char(cur(p))) p->i++;
    }
    *out = a;
    return true;
  }
  if (c == '#') return parse_hash_attr(p, out);
  if (c == '-' || c == '+' || is_digit(c)) {
    Num num;
    if (!parse_num(p, &num)) return false;
    MlirType *t = NULL;
    if (tx_eat(p, ':') && !tx_parse_type(p, &t)) return false;
    bool is_float = num.is_float || (t && t->kind == MLT_ELEM && type_is_float(t->elem));
    MlirAttr *a = tx_attr_new(p, is_float ? MA_FLOAT : MA_INT);
    if (!a) return false;
    a->pos = tx_pos_at(p, st);
    if (is_float) {
      a->f = num_f64(&num);
      if (num.is_hex && t && t->kind == MLT_ELEM) {
        uint8_t b[16] = {0};
        if (!store_elem(p, st, t, &num, NULL, false, false, b)) return false;
        if (t->elem == CXLA_F64) memcpy(&a->f, b, 8);
        else if (t->elem == CXLA_F32) {
          float f;
          memcpy(&f, b, 4);
          a->f = f;
        } else {
          a->f = minifloat_decode(t->elem, (uint32_t)num.u);
        }
      }
      a->type = t ? t : tx_type_elem(p, CXLA_F64);
    } else {
      a->i = num.neg ? (int64_t)(0 - num.u) : (int64_t)num.u;
      a->type = t ? t : tx_type_elem(p, CXLA_S64);
      if (t && t->kind == MLT_ELEM && t->elem == CXLA_PRED) {
        a->kind = MA_BOOL;
        a->i = a->i != 0;
      }
    }
    if (!a->type) return false;
    *out = a;
    return true;
  }
  const char *s;
  size_t n;
  size_t save = p->i;
  if (tx_ident(p, &s, &n)) {
    if (sv_eq(s, n, "unit")) return (*out = tx_attr_new(p, MA_UNIT)) != NULL;
    if (sv_eq(s, n, "true") || sv_eq(s, n, "false")) {
      *out = tx_attr_bool(p, s[0] == 't');
      if (*out && tx_eat(p, ':')) { /* true : i1 */
        MlirType *t;
        if (!tx_parse_type(p, &t)) return false;
      }
      return *out != NULL;
    }
    if (sv_eq(s, n, "inf") || sv_eq(s, n, "nan")) {
      p->i = save;
      Num num;
      MlirType *t = NULL;
      if (!parse_num(p, &num) || (tx_eat(p, ':') && !tx_parse_type(p, &t))) return false;
      MlirAttr *a = tx_attr_new(p, MA_FLOAT);
      if (!a) return false;
      a->f = num.f;
      a->type = t ? t : tx_type_elem(p, CXLA_F64);
      *out = a;
      return a->type != NULL;
    }
    if (sv_eq(s, n, "dense") && cur(p) == '<') {
      p->i++;
      return parse_dense(p, out);
    }
    if (sv_eq(s, n, "dense_resource") && cur(p) == '<') {
      p->i++;
      return parse_dense_resource(p, out);
    }
    if (sv_eq(s, n, "array") && cur(p) == '<') {
      p->i++;
      return parse_dense_array(p, out);
    }
    if ((sv_eq(s, n, "loc") || sv_eq(s, n, "affine_map") || sv_eq(s, n, "sparse") ||
         sv_eq(s, n, "distinct") || sv_eq(s, n, "strided")) &&
        (cur(p) == '(' || cur(p) == '<' || cur(p) == '[')) {
      if (!skip_balanced(p)) return false;
      if (sv_eq(s, n, "distinct") && cur(p) == '<' && !skip_balanced(p)) return false;
      MlirAttr *a = tx_attr_new(p, MA_OPAQUE);
      if (!a) return false;
      a->len = p->i - st;
      a->str = arena_strndup(p->a, p->s + st, a->len);
      *out = a;
      return a->str ? true : tx_oom(p);
    }
    p->i = save; /* a type used as an attribute */
  }
  MlirType *t;
  if (c == '(' || c == '!' || is_alpha(c)) {
    if (!tx_parse_type(p, &t)) return false;
    MlirAttr *a = tx_attr_new(p, MA_TYPE);
    if (!a) return false;
    a->type = t;
    *out = a;
    return true;
  }
  char buf[64];
  return tx_perr(p, "expected an attribute, found %s", describe_here(p, buf, sizeof buf));
}

bool tx_parse_attr(P *p, MlirAttr **out) {
  if (++p->depth > MAX_DEPTH) {
    p->depth--;
    return tx_perr(p, "attributes nested too deeply");
  }
  tx_ws(p);
  size_t st = p->i;
  bool ok = parse_attr_inner(p, out);
  p->depth--;
  if (ok) (*out)->pos = tx_pos_at(p, st);
  return ok && !p->err;
}

bool tx_parse_i64_list(P *p, MlirI64s *out) {
  int64_t buf[64];
  int64_t *v = buf;
  int n = 0, cap = 64;
  if (!tx_expect(p, '[', "opening a list of integers")) return false;
  if (!tx_peek(p, ']')) {
    do {
      if (n == cap) {
        int64_t *nv = arena_array(p->a, (size_t)cap * 2, sizeof(int64_t));
        if (!nv) return tx_oom(p);
        memcpy(nv, v, (size_t)n * sizeof *nv);
        v = nv;
        cap *= 2;
      }
      if (!tx_parse_i64(p, &v[n++])) return false;
    } while (tx_eat(p, ','));
  }
  if (!tx_expect(p, ']', "closing a list of integers")) return false;
  out->n = n;
  out->v = n ? arena_i64dup(p->a, v, (size_t)n) : NULL;
  if (n && !out->v) return tx_oom(p);
  return true;
}

/* ---- ops, blocks, regions ------------------------------------------------------ */

bool tx_opb_attr(P *p, OpB *b, const char *name, MlirAttr *v) {
  if (!v) return false;
  for (int k = 0; k < b->anames.n; k++)
    if (strcmp(b->anames.v[k], name) == 0) return tx_perr(p, "attribute '%s' given twice", name);
  return tx_pv_push(p, &b->anames, (void *)name) && tx_pv_push(p, &b->avals, v);
}

MlirBlock *tx_block_new(P *p, MlirRegion *parent, size_t off) {
  MlirBlock *blk = arena_alloc(p->a, sizeof *blk);
  if (!blk) {
    tx_oom(p);
    return NULL;
  }
  blk->parent = parent;
  blk->pos = tx_pos_at(p, off);
  return blk;
}

bool tx_block_set_args(P *p, MlirBlock *blk, const EntryArg *args, int n) {
  blk->nargs = n;
  if (!n) return true;
  blk->args = arena_array(p->a, (size_t)n, sizeof(MlirValue));
  if (!blk->args) return tx_oom(p);
  for (int k = 0; k < n; k++) {
    MlirValue *v = &blk->args[k];
    v->type = args[k].type;
    v->block = blk;
    v->index = k;
    if (args[k].name) {
      MlirValue **one = arena_alloc(p->a, sizeof *one);
      if (!one) return tx_oom(p);
      one[0] = v;
      if (!tx_define_name(p, args[k].name, args[k].len, one, 1, args[k].off)) return false;
    }
  }
  return true;
}

MlirRegion *tx_region_new(P *p, MlirOp *parent) {
  MlirRegion *r = arena_alloc(p->a, sizeof *r);
  MlirBlock *blk = r ? tx_block_new(p, r, p->i) : NULL;
  r = blk ? r : NULL;
  if (r) r->blocks = arena_alloc(p->a, sizeof(MlirBlock *));
  if (!r || !r->blocks) {
    tx_oom(p);
    return NULL;
  }
  r->parent = parent;
  r->nblocks = 1;
  r->blocks[0] = blk;
  return r;
}

/* A growable list of entry arguments (cxla heap). */
typedef struct ArgVec {
  EntryArg *v;
  int n, cap;
} ArgVec;

static bool av_push(P *p, ArgVec *v, EntryArg a) {
  if (v->n == v->cap) {
    int nc = v->cap ? v->cap * 2 : 8;
    EntryArg *nv = arena_array(p->a, (size_t)nc, sizeof *nv);
    if (!nv) return tx_oom(p);
    if (v->n) memcpy(nv, v->v, (size_t)v->n * sizeof *nv);
    v->v = nv;
    v->cap = nc;
  }
  v->v[v->n++] = a;
  return true;
}

static bool parse_operation(P *p, MlirBlock *blk, PtrVec *ops);

bool tx_parse_block_body(P *p, MlirBlock *blk) {
  PtrVec ops = {0};
  while (!tx_peek(p, '}') && !tx_peek(p, '^')) {
    if (at_end(p)) return tx_perr(p, "expected '}' closing a region");
    if (!parse_operation(p, blk, &ops)) return false;
  }
  blk->nops = ops.n;
  blk->ops = (MlirOp **)ops.v;
  return true;
}

static bool block_label_args(P *p, MlirBlock *blk) {
  /* at '^' */
  p->i++;
  while (!at_end(p) && (tx_is_ident_char(cur(p)) || cur(p) == '-')) p->i++;
  ArgVec av = {0};
  if (tx_eat(p, '(')) {
    if (!tx_peek(p, ')')) {
      do {
        EntryArg ea;
        tx_ws(p);
        ea.off = p->i;
        if (!tx_parse_def_name(p, &ea.name, &ea.len) || !tx_expect(p, ':', "after a block argument") ||
            !tx_parse_type(p, &ea.type) || !tx_parse_trailing_loc(p) || !av_push(p, &av, ea))
          return false;
      } while (tx_eat(p, ','));
    }
    if (!tx_expect(p, ')', "closing the block arguments")) return false;
  }
  if (!tx_expect(p, ':', "after the block label")) return false;
  return tx_block_set_args(p, blk, av.v, av.n);
}

bool tx_parse_region(P *p, MlirOp *parent, MlirRegion **out, const EntryArg *args, int nargs,
                  bool has_entry) {
  tx_ws(p);
  size_t st = p->i;
  if (!tx_expect(p, '{', "opening a region")) return false;
  if (++p->depth > MAX_DEPTH) {
    p->depth--;
    return tx_perr_at(p, st, "regions nested too deeply");
  }
  MlirRegion *r = arena_alloc(p->a, sizeof *r);
  if (!r) {
    p->depth--;
    return tx_oom(p);
  }
  r->parent = parent;
  int mark = tx_scope_mark(p);
  PtrVec blocks = {0};
  bool ok = false;
  if (tx_peek(p, '}')) {
    p->i++;
    if (has_entry) {
      tx_perr_at(p, st, "empty region where a body was expected");
      goto done;
    }
    ok = true;
    goto done;
  }
  for (int bi = 0;; bi++) {
    MlirBlock *blk = tx_block_new(p, r, p->i);
    if (!blk || !tx_pv_push(p, &blocks, blk)) goto done;
    if (tx_peek(p, '^')) {
      if (bi == 0 && has_entry) {
        tx_perr(p, "this region's arguments are given by the op; no block label expected");
        goto done;
      }
      if (!block_label_args(p, blk)) goto done;
    } else if (bi == 0 && has_entry) {
      if (!tx_block_set_args(p, blk, args, nargs)) goto done;
    } else if (bi > 0) {
      tx_perr(p, "expected a block label (^bb...)");
      goto done;
    }
    if (!tx_parse_block_body(p, blk)) goto done;
    if (tx_eat(p, '}')) break;
  }
  ok = true;
done:
  p->depth--;
  if (ok) {
    r->nblocks = blocks.n;
    r->blocks = (MlirBlock **)blocks.v;
    *out = r;
  }
  tx_scope_pop(p, mark);
  return ok && !p->err;
}

bool tx_parse_functional_type(P *p, PtrVec *ins, PtrVec *outs) {
  MlirType *t;
  if (!tx_parse_type(p, &t)) return false;
  if (t->kind == MLT_FUNCTION) {
    for (int k = 0; k < t->n; k++)
      if (!tx_pv_push(p, ins, t->types[k])) return false;
    for (int k = 0; k < t->nresults; k++)
      if (!tx_pv_push(p, outs, t->results[k])) return false;
    return true;
  }
  /* "T -> R" (chlo) or a bare type */
  if (!tx_pv_push(p, ins, t)) return false;
  if (tx_eat_arrow(p)) {
    if (tx_peek(p, '(')) return tx_parse_type_list_paren(p, outs);
    MlirType *r;
    return tx_parse_type(p, &r) && tx_pv_push(p, outs, r);
  }
  return true;
}

static bool parse_generic_rest(P *p, OpB *b) {
  /* after the quoted name: (operands) [<{props}>] [(regions)] [{attrs}] : type */
  if (!tx_expect(p, '(', "opening the operand list")) return false;
  if (!tx_peek(p, ')')) {
    do {
      MlirValue *v;
      if (!tx_parse_use(p, &v) || !tx_pv_push(p, &b->operands, v)) return false;
    } while (tx_eat(p, ','));
  }
  if (!tx_expect(p, ')', "closing the operand list")) return false;
  if (tx_peek(p, '[')) return tx_perr(p, "block successors are not supported");
  if (tx_peek_str(p, "<{")) {
    p->i++;
    if (!tx_parse_attr_dict(p, &b->anames, &b->avals) || !tx_expect(p, '>', "closing the properties"))
      return false;
  }
  if (tx_eat(p, '(')) {
    do {
      MlirRegion *r;
      if (!tx_parse_region(p, b->op, &r, NULL, 0, false) || !tx_pv_push(p, &b->regions, r))
        return false;
    } while (tx_eat(p, ','));
    if (!tx_expect(p, ')', "closing the region list")) return false;
  }
  if (tx_peek(p, '{') && !tx_parse_attr_dict(p, &b->anames, &b->avals)) return false;
  if (!tx_expect(p, ':', "before the op's type")) return false;
  tx_ws(p);
  size_t off = p->i;
  MlirType *ft;
  if (!tx_parse_type(p, &ft)) return false;
  if (ft->kind != MLT_FUNCTION) return tx_perr_at(p, off, "expected a function type (...) -> (...)");
  if (ft->n != b->operands.n)
    return tx_perr_at(p, off, "the type lists %d operand(s); the op has %d", ft->n, b->operands.n);
  for (int k = 0; k < ft->nresults; k++)
    if (!tx_pv_push(p, &b->rtypes, ft->results[k])) return false;
  return true;
}

static const char *canonical_name(P *p, const char *s, size_t n) {
  if (sv_eq(s, n, "module")) return "builtin.module";
  if (sv_eq(s, n, "return")) return "func.return";
  if (sv_eq(s, n, "call")) return "func.call";
  if (sv_eq(s, n, "func")) return "func.func";
  char *r = arena_strndup(p->a, s, n);
  if (!r) tx_oom(p);
  return r;
}

static bool parse_operation(P *p, MlirBlock *blk, PtrVec *ops) {
  tx_ws(p);
  size_t st = p->i;
  if (++p->depth > MAX_DEPTH) {
    p->depth--;
    return tx_perr(p, "operations nested too deeply");
  }
  /* results */
  struct {
    const char *name;
    size_t len;
    int count;
    size_t off;
  } rn[16];
  int nrn = 0, nres = 0;
  bool ok = false;
  if (tx_peek(p, '%')) {
    do {
      if (nrn == 16) {
        tx_perr(p, "too many result names");
        goto out;
      }
      tx_ws(p);
      rn[nrn].off = p->i;
      if (!tx_parse_def_name(p, &rn[nrn].name, &rn[nrn].len)) goto out;
      rn[nrn].count = 1;
      if (cur(p) == ':') {
        p->i++;
        int64_t c;
        if (!tx_parse_i64(p, &c)) goto out;
        if (c < 1 || c > 100000) {
          tx_perr_at(p, rn[nrn].off, "bad result count %lld", (long long)c);
          goto out;
        }
        rn[nrn].count = (int)c;
      }
      nres += rn[nrn].count;
      nrn++;
    } while (tx_eat(p, ','));
    if (!tx_expect(p, '=', "after the result names")) goto out;
  }
  tx_ws(p);
  size_t name_off = p->i;
  MlirOp *op = arena_alloc(p->a, sizeof *op);
  if (!op) {
    tx_oom(p);
    goto out;
  }
  op->pos = tx_pos_at(p, name_off);
  op->parent = blk;
  OpB b;
  memset(&b, 0, sizeof b);
  b.op = op;
  b.nres_expected = nrn ? nres : 0;
  if (cur(p) == '"') {
    const char *s;
    size_t n;
    if (!parse_string_lit(p, &s, &n)) goto out;
    op->name = canonical_name(p, s, n);
    if (!op->name || !parse_generic_rest(p, &b)) goto out;
  } else {
    const char *s;
    size_t n;
    if (!tx_ident(p, &s, &n)) {
      char buf[64];
      tx_perr(p, "expected an operation, found %s", describe_here(p, buf, sizeof buf));
      goto out;
    }
    op->name = canonical_name(p, s, n);
    if (!op->name) goto out;
    bool handled = false;
    if (!tx_parse_pretty_op(p, op->name, &b, &handled)) goto out;
    if (!handled) {
      tx_perr_at(p, name_off, "unknown operation '%s' (or no custom form for it: use the generic "
                           "\"%s\"(...) form)", op->name, op->name);
      goto out;
    }
  }
  if (!tx_parse_trailing_loc(p)) goto out;
  if (nrn && b.rtypes.n != nres) {
    tx_perr_at(p, st, "%d result name(s) for %d result(s)", nres, b.rtypes.n);
    goto out;
  }
  op->noperands = b.operands.n;
  op->operands = (MlirValue **)b.operands.v;
  op->nattrs = b.anames.n;
  if (op->nattrs) {
    op->attrs = arena_array(p->a, (size_t)op->nattrs, sizeof(MlirNamedAttr));
    if (!op->attrs) {
      tx_oom(p);
      goto out;
    }
    for (int k = 0; k < op->nattrs; k++) {
      op->attrs[k].name = b.anames.v[k];
      op->attrs[k].value = b.avals.v[k];
    }
  }
  op->nregions = b.regions.n;
  if (op->nregions) {
    op->regions = arena_array(p->a, (size_t)op->nregions, sizeof(MlirRegion));
    if (!op->regions) {
      tx_oom(p);
      goto out;
    }
    for (int k = 0; k < op->nregions; k++) {
      MlirRegion *r = b.regions.v[k];
      op->regions[k] = *r;
      for (int j = 0; j < r->nblocks; j++) r->blocks[j]->parent = &op->regions[k];
    }
  }
  op->nresults = b.rtypes.n;
  if (op->nresults) {
    op->results = arena_array(p->a, (size_t)op->nresults, sizeof(MlirValue));
    if (!op->results) {
      tx_oom(p);
      goto out;
    }
    for (int k = 0; k < op->nresults; k++) {
      op->results[k].type = b.rtypes.v[k];
      op->results[k].owner = op;
      op->results[k].index = k;
    }
  }
  int base = 0;
  for (int k = 0; k < nrn; k++) {
    MlirValue **vals = arena_array(p->a, (size_t)rn[k].count, sizeof(MlirValue *));
    if (!vals) {
      tx_oom(p);
      goto out;
    }
    for (int j = 0; j < rn[k].count; j++) vals[j] = &op->results[base + j];
    base += rn[k].count;
    if (!tx_define_name(p, rn[k].name, rn[k].len, vals, rn[k].count, rn[k].off)) goto out;
  }
  ok = tx_pv_push(p, ops, op);
out:
  p->depth--;
  return ok && !p->err;
}

/* ---- func.func and module (their custom forms) ------------------------------------ */

static MlirAttr *attr_string(P *p, const char *s, size_t n) {
  MlirAttr *a = tx_attr_new(p, MA_STRING);
  if (!a) return NULL;
  a->str = arena_strndup(p->a, s, n);
  a->len = n;
  if (!a->str) {
    tx_oom(p);
    return NULL;
  }
  return a;
}

static MlirAttr *dict_from(P *p, PtrVec *nm, PtrVec *vl) {
  MlirAttr *a = tx_attr_new(p, MA_DICT);
  if (!a) return NULL;
  a->n = nm->n;
  a->entries = arena_array(p->a, (size_t)(nm->n ? nm->n : 1), sizeof(MlirNamedAttr));
  if (!a->entries) {
    tx_oom(p);
    return NULL;
  }
  for (int k = 0; k < nm->n; k++) {
    a->entries[k].name = nm->v[k];
    a->entries[k].value = vl->v[k];
  }
  return a;
}

bool tx_parse_func_op(P *p, OpB *b);
bool tx_parse_func_op(P *p, OpB *b) {
  /* func.func [visibility] @name(%a: T {attrs}, ...) [-> results] [attributes {...}] {body} */
  const char *s;
  size_t n;
  size_t save = p->i;
  if (tx_ident(p, &s, &n)) {
    if (sv_eq(s, n, "public") || sv_eq(s, n, "private") || sv_eq(s, n, "nested")) {
      if (!tx_opb_attr(p, b, "sym_visibility", attr_string(p, s, n))) return false;
    } else {
      p->i = save;
    }
  }
  tx_ws(p);
  if (cur(p) != '@') return tx_perr(p, "expected the function's @name");
  MlirAttr *sym;
  if (!tx_parse_attr(p, &sym)) return false;
  sym->kind = MA_STRING;
  if (!tx_opb_attr(p, b, "sym_name", sym)) return false;
  if (!tx_expect(p, '(', "opening the function's arguments")) return false;
  int mark = tx_scope_mark(p);
  int old_iso = p->iso_base;
  p->iso_base = p->nstack; /* func.func is isolated from above */
  PtrVec argattrs = {0}, restypes = {0}, resattrs = {0};
  ArgVec argv = {0};
  bool any_arg_attr = false, any_res_attr = false, ok = false;
  if (!tx_peek(p, ')')) {
    do {
      EntryArg ea;
      tx_ws(p);
      ea.off = p->i;
      if (!tx_parse_def_name(p, &ea.name, &ea.len) || !tx_expect(p, ':', "after an argument name") ||
          !tx_parse_type(p, &ea.type))
        goto done;
      PtrVec nm = {0}, vl = {0};
      if (tx_peek(p, '{')) {
        if (!tx_parse_attr_dict(p, &nm, &vl)) goto done;
        any_arg_attr = true;
      }
      MlirAttr *d = dict_from(p, &nm, &vl);
      if (!d || !tx_pv_push(p, &argattrs, d) || !tx_parse_trailing_loc(p) || !av_push(p, &argv, ea))
        goto done;
    } while (tx_eat(p, ','));
  }
  if (!tx_expect(p, ')', "closing the function's arguments")) goto done;
  if (tx_eat_arrow(p)) {
    bool paren = tx_eat(p, '(');
    if (!paren || !tx_peek(p, ')')) {
      do {
        MlirType *t;
        if (!tx_parse_type(p, &t) || !tx_pv_push(p, &restypes, t)) goto done;
        PtrVec nm = {0}, vl = {0};
        if (paren && tx_peek(p, '{')) {
          if (!tx_parse_attr_dict(p, &nm, &vl)) goto done;
          any_res_attr = true;
        }
        MlirAttr *d = dict_from(p, &nm, &vl);
        if (!d || !tx_pv_push(p, &resattrs, d) || !tx_parse_trailing_loc(p)) goto done;
      } while (paren && tx_eat(p, ','));
    }
    if (paren && !tx_expect(p, ')', "closing the function's results")) goto done;
  }
  if (tx_eat_kw(p, "attributes") && !tx_parse_attr_dict(p, &b->anames, &b->avals)) goto done;
  MlirType *ft = tx_type_new(p, MLT_FUNCTION);
  if (!ft) goto done;
  ft->n = argv.n;
  ft->types = arena_array(p->a, (size_t)(argv.n ? argv.n : 1), sizeof(MlirType *));
  if (!ft->types) {
    tx_oom(p);
    goto done;
  }
  for (int k = 0; k < argv.n; k++) ft->types[k] = argv.v[k].type;
  ft->nresults = restypes.n;
  ft->results = (MlirType **)restypes.v;
  MlirAttr *fta = tx_attr_new(p, MA_TYPE);
  if (!fta) goto done;
  fta->type = ft;
  if (!tx_opb_attr(p, b, "function_type", fta)) goto done;
  if (any_arg_attr) {
    MlirAttr *a = tx_attr_new(p, MA_ARRAY);
    if (!a) goto done;
    a->n = argattrs.n;
    a->elems = (MlirAttr **)argattrs.v;
    if (!tx_opb_attr(p, b, "arg_attrs", a)) goto done;
  }
  if (any_res_attr) {
    MlirAttr *a = tx_attr_new(p, MA_ARRAY);
    if (!a) goto done;
    a->n = resattrs.n;
    a->elems = (MlirAttr **)resattrs.v;
    if (!tx_opb_attr(p, b, "res_attrs", a)) goto done;
  }
  if (tx_peek(p, '{')) {
    MlirRegion *r;
    if (!tx_parse_region(p, b->op, &r, argv.v, argv.n, true) ||
        !tx_pv_push(p, &b->regions, r))
      goto done;
  }
  ok = true;
done:
  tx_scope_pop(p, mark);
  p->iso_base = old_iso;
  return ok && !p->err;
}

bool tx_parse_module_op(P *p, OpB *b);
bool tx_parse_module_op(P *p, OpB *b) {
  tx_ws(p);
  if (cur(p) == '@') {
    MlirAttr *sym;
    if (!tx_parse_attr(p, &sym)) return false;
    sym->kind = MA_STRING;
    if (!tx_opb_attr(p, b, "sym_name", sym)) return false;
  }
  if (tx_eat_kw(p, "attributes") && !tx_parse_attr_dict(p, &b->anames, &b->avals)) return false;
  int old_iso = p->iso_base;
  p->iso_base = p->nstack;
  MlirRegion *r;
  bool ok = tx_parse_region(p, b->op, &r, NULL, 0, false) && tx_pv_push(p, &b->regions, r);
  p->iso_base = old_iso;
  return ok;
}

/* ---- top level -------------------------------------------------------------------- */

static bool parse_alias_def(P *p) {
  /* #name = attr  |  !name = type */
  bool is_type = cur(p) == '!';
  p->i++;
  const char *s;
  size_t n;
  if (!tx_ident(p, &s, &n)) return tx_perr(p, "expected an alias name");
  if (!tx_expect(p, '=', "after the alias name")) return false;
  void *v;
  if (is_type) {
    MlirType *t;
    if (!tx_parse_type(p, &t)) return false;
    v = t;
  } else {
    MlirAttr *a;
    if (!tx_parse_attr(p, &a)) return false;
    v = a;
  }
  if (p->naliases == p->capaliases) {
    int nc = p->capaliases ? p->capaliases * 2 : 16;
    Alias *na = cxla_realloc(p->aliases, (size_t)nc * sizeof *na);
    if (!na) return tx_oom(p);
    p->aliases = na;
    p->capaliases = nc;
  }
  Alias *al = &p->aliases[p->naliases++];
  al->name = s;
  al->len = n;
  al->is_type = is_type;
  al->value = v;
  return alias_index(p, p->naliases - 1);
}

static bool parse_resources(P *p) {
  /* after "{-#": name: { dialect: { key: "0x..." , ... } , ... } ... "#-}" */
  for (;;) {
    if (tx_peek_str(p, "#-}")) {
      p->i += 3;
      return true;
    }
    const char *s;
    size_t n;
    if (!tx_ident(p, &s, &n)) return tx_perr(p, "expected a resource section name or '#-}'");
    if (!tx_expect(p, ':', "after the resource section name")) return false;
    if (!sv_eq(s, n, "dialect_resources")) {
      if (!tx_peek(p, '{')) return tx_perr(p, "expected '{'");
      if (!skip_balanced(p)) return false;
    } else {
      if (!tx_expect(p, '{', NULL)) return false;
      while (!tx_eat(p, '}')) {
        const char *d;
        size_t dn;
        if (!tx_ident(p, &d, &dn)) return tx_perr(p, "expected a dialect name");
        if (!tx_expect(p, ':', NULL) || !tx_expect(p, '{', NULL)) return false;
        while (!tx_eat(p, '}')) {
          tx_ws(p);
          size_t ks = p->i;
          while (!at_end(p) && (tx_is_ident_char(cur(p)) || cur(p) == '-')) p->i++;
          size_t kl = p->i - ks;
          if (!kl) return tx_perr(p, "expected a resource key");
          if (!tx_expect(p, ':', NULL)) return false;
          tx_ws(p);
          size_t vo = p->i;
          const char *hex;
          size_t hl;
          if (!parse_string_lit(p, &hex, &hl)) return false;
          bool used = false;
          uint8_t *raw = NULL;
          size_t nb = 0;
          for (int k = 0; k < p->npend; k++) {
            PendingResource *r = &p->pend[k];
            if (r->len != kl || memcmp(r->name, p->s + ks, kl) != 0) continue;
            if (!raw) {
              if (!decode_hex(p, vo, hex, hl, &raw, &nb)) return false;
              if (nb < 4) return tx_perr_at(p, vo, "resource blob shorter than its alignment word");
            }
            used = true;
            uint8_t *data = arena_alloc(p->a, nb - 4 ? nb - 4 : 1);
            if (!data) return tx_oom(p);
            memcpy(data, raw + 4, nb - 4);
            if (!dense_from_raw(p, vo, r->attr, data, nb - 4)) return false;
            r->name = NULL;
            r->len = 0;
          }
          (void)used;
          if (!tx_eat(p, ',')) {
            if (!tx_peek(p, '}')) return tx_perr(p, "expected ',' or '}'");
          }
        }
        if (!tx_eat(p, ',') && !tx_peek(p, '}')) return tx_perr(p, "expected ',' or '}'");
      }
    }
    tx_eat(p, ',');
  }
}

static void p_free(P *p) {
  cxla_free(p->line_starts);
  cxla_free(p->stack);
  cxla_free(p->table);
  cxla_free((void *)p->tnames);
  cxla_free(p->tlens);
  cxla_free(p->pend);
  cxla_free(p->aliases);
  cxla_free(p->atab);
}

cxla_status mlir_parse_text(const char *text, size_t len, const char *filename, MlirModule **out) {
  *out = NULL;
  MlirModule *m = mlir_module_new(filename);
  if (!m) return cxla_oom();
  P p;
  memset(&p, 0, sizeof p);
  p.s = text;
  p.n = len;
  p.m = m;
  p.a = &m->arena;
  /* A UTF-8 byte order mark is skipped. */
  if (len >= 3 && memcmp(text, "\xEF\xBB\xBF", 3) == 0) p.i = 3;
  MlirBlock *top = tx_block_new(&p, NULL, p.i);
  PtrVec ops = {0};
  for (;;) {
    tx_ws(&p);
    if (at_end(&p) || p.err) break;
    char c = cur(&p);
    if ((c == '#' || c == '!') && p.i + 1 < p.n && is_alpha(p.s[p.i + 1])) {
      /* an alias definition if "= ..." follows the name */
      if (!parse_alias_def(&p)) break;
      continue;
    }
    if (tx_peek_str(&p, "{-#")) {
      p.i += 3;
      if (!parse_resources(&p)) break;
      continue;
    }
    if (!top || !parse_operation(&p, top, &ops)) break;
  }
  if (!p.err && p.n == 0) tx_perr(&p, "empty input: expected a module");
  MlirOp *mod = NULL;
  if (!p.err) {
    if (ops.n == 1 && strcmp(((MlirOp *)ops.v[0])->name, "builtin.module") == 0) {
      mod = ops.v[0];
      mod->parent = NULL;
    } else if (ops.n == 0) {
      tx_perr(&p, "no operations in the input");
    } else {
      /* Top-level ops without a module: an implicit builtin.module. */
      mod = arena_alloc(p.a, sizeof *mod);
      MlirRegion *r = mod ? arena_alloc(p.a, sizeof *r) : NULL;
      if (!r) {
        tx_oom(&p);
      } else {
        mod->name = "builtin.module";
        mod->pos = tx_pos_at(&p, 0);
        mod->nregions = 1;
        mod->regions = r;
        r->parent = mod;
        r->nblocks = 1;
        r->blocks = arena_alloc(p.a, sizeof(MlirBlock *));
        if (!r->blocks) {
          tx_oom(&p);
        } else {
          r->blocks[0] = top;
          top->parent = r;
          top->nops = ops.n;
          top->ops = (MlirOp **)ops.v;
        }
      }
    }
  }
  for (int k = 0; !p.err && k < p.npend; k++) {
    if (p.pend[k].name) {
      MlirPos pos = p.pend[k].pos;
      size_t off = (size_t)pos.offset;
      tx_perr_at(&p, off, "dense_resource '%.*s' is not in the file's dialect_resources section",
              (int)p.pend[k].len, p.pend[k].name);
    }
  }
  cxla_status st = p.err;
  p_free(&p);
  if (st) {
    mlir_module_free(m);
    return st;
  }
  m->op = mod;
  *out = m;
  return NULL;
}
