/* A strict JSON parser; see json.h. Recursive descent with a depth limit. */
#include "testing/json.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

typedef struct Parser {
  const char *s;
  size_t len, pos;
  int line;
  size_t line_start;   /* offset of the current line's first byte */
  const char *file;
  JsonDoc *doc;
  int depth;
} Parser;

static int col_of(const Parser *p, size_t pos) { return (int)(pos - p->line_start) + 1; }

static cxla_status error_at(const Parser *p, size_t pos, const char *msg) {
  return ERR(INVALID_ARGUMENT, "%s:%d:%d: %s", p->file, p->line, col_of(p, pos), msg);
}

static int peek(const Parser *p) { return p->pos < p->len ? (unsigned char)p->s[p->pos] : -1; }

/* Whitespace is the only place a newline can occur (strings refuse raw
 * control characters), so line counting lives here. */
static void skip_ws(Parser *p) {
  while (p->pos < p->len) {
    char c = p->s[p->pos];
    if (c == '\n') {
      p->line++;
      p->line_start = p->pos + 1;
    } else if (c != ' ' && c != '\t' && c != '\r') {
      break;
    }
    p->pos++;
  }
}

static JsonValue *new_value(Parser *p, JsonKind kind) {
  JsonValue *v = arena_alloc(&p->doc->arena, sizeof *v);
  if (!v) return NULL;
  v->kind = kind;
  v->line = p->line;
  v->col = col_of(p, p->pos);
  return v;
}

static cxla_status parse_value(Parser *p, JsonValue **out);

/* ---- literals and numbers ------------------------------------------------------ */

static cxla_status parse_word(Parser *p, const char *word, JsonValue *v) {
  size_t n = strlen(word);
  if (p->len - p->pos < n || memcmp(p->s + p->pos, word, n) != 0)
    return error_at(p, p->pos, "unexpected character");
  p->pos += n;
  (void)v;
  return NULL;
}

static bool is_digit(int c) { return c >= '0' && c <= '9'; }

static cxla_status parse_number(Parser *p, JsonValue *v) {
  size_t start = p->pos;
  if (peek(p) == '-') p->pos++;
  if (peek(p) == '0') {
    p->pos++;
    if (is_digit(peek(p))) return error_at(p, start, "leading zeros are not allowed in numbers");
  } else if (is_digit(peek(p))) {
    while (is_digit(peek(p))) p->pos++;
  } else {
    return error_at(p, start, "invalid number");
  }
  if (peek(p) == '.') {
    p->pos++;
    if (!is_digit(peek(p))) return error_at(p, p->pos, "expected a digit after '.'");
    while (is_digit(peek(p))) p->pos++;
  }
  if (peek(p) == 'e' || peek(p) == 'E') {
    p->pos++;
    if (peek(p) == '+' || peek(p) == '-') p->pos++;
    if (!is_digit(peek(p))) return error_at(p, p->pos, "expected a digit in the exponent");
    while (is_digit(peek(p))) p->pos++;
  }
  /* strtod needs a NUL-terminated copy; the grammar above already checked
   * every character. */
  size_t n = p->pos - start;
  char small[64];
  char *buf = n < sizeof small ? small : cxla_malloc(n + 1);
  if (!buf) return cxla_oom();
  memcpy(buf, p->s + start, n);
  buf[n] = 0;
  v->number = strtod(buf, NULL);
  if (buf != small) cxla_free(buf);
  if (isinf(v->number)) return error_at(p, start, "number out of range");
  return NULL;
}

/* ---- strings ------------------------------------------------------------------------ */

static int hex_val(int c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

static bool read_hex4(Parser *p, unsigned *out) {
  if (p->len - p->pos < 4) return false;
  unsigned v = 0;
  for (int i = 0; i < 4; i++) {
    int h = hex_val((unsigned char)p->s[p->pos + i]);
    if (h < 0) return false;
    v = v * 16 + (unsigned)h;
  }
  p->pos += 4;
  *out = v;
  return true;
}

static void put_utf8(StrBuf *b, unsigned cp) {
  if (cp < 0x80) {
    sb_putc(b, (char)cp);
  } else if (cp < 0x800) {
    sb_putc(b, (char)(0xc0 | (cp >> 6)));
    sb_putc(b, (char)(0x80 | (cp & 0x3f)));
  } else if (cp < 0x10000) {
    sb_putc(b, (char)(0xe0 | (cp >> 12)));
    sb_putc(b, (char)(0x80 | ((cp >> 6) & 0x3f)));
    sb_putc(b, (char)(0x80 | (cp & 0x3f)));
  } else {
    sb_putc(b, (char)(0xf0 | (cp >> 18)));
    sb_putc(b, (char)(0x80 | ((cp >> 12) & 0x3f)));
    sb_putc(b, (char)(0x80 | ((cp >> 6) & 0x3f)));
    sb_putc(b, (char)(0x80 | (cp & 0x3f)));
  }
}

/* \uXXXX, with surrogate pairs joined; p->pos is just after the 'u'. */
static cxla_status parse_unicode_escape(Parser *p, size_t esc_pos, StrBuf *b) {
  unsigned cp;
  if (!read_hex4(p, &cp)) return error_at(p, esc_pos, "bad \\u escape (need 4 hex digits)");
  if (cp >= 0xdc00 && cp <= 0xdfff) return error_at(p, esc_pos, "unpaired low surrogate");
  if (cp >= 0xd800 && cp <= 0xdbff) {
    unsigned lo;
    if (p->len - p->pos < 2 || p->s[p->pos] != '\\' || p->s[p->pos + 1] != 'u')
      return error_at(p, esc_pos, "unpaired high surrogate");
    p->pos += 2;
    if (!read_hex4(p, &lo) || lo < 0xdc00 || lo > 0xdfff)
      return error_at(p, esc_pos, "unpaired high surrogate");
    cp = 0x10000 + ((cp - 0xd800) << 10) + (lo - 0xdc00);
  }
  put_utf8(b, cp);
  return NULL;
}

/* Length of the well-formed UTF-8 sequence at s[0..n), or 0 if malformed
 * (overlong forms, surrogates and code points past U+10FFFF included). */
static size_t utf8_seq(const unsigned char *s, size_t n) {
  unsigned c = s[0];
  size_t len;
  unsigned cp;
  if (c < 0x80) return 1;
  if (c >= 0xc2 && c <= 0xdf) { len = 2; cp = c & 0x1f; }
  else if (c >= 0xe0 && c <= 0xef) { len = 3; cp = c & 0x0f; }
  else if (c >= 0xf0 && c <= 0xf4) { len = 4; cp = c & 0x07; }
  else return 0;
  if (n < len) return 0;
  for (size_t i = 1; i < len; i++) {
    if ((s[i] & 0xc0) != 0x80) return 0;
    cp = (cp << 6) | (s[i] & 0x3f);
  }
  if ((len == 3 && cp < 0x800) || (len == 4 && (cp < 0x10000 || cp > 0x10ffff))) return 0;
  if (cp >= 0xd800 && cp <= 0xdfff) return 0;
  return len;
}

static cxla_status parse_string_raw(Parser *p, const char **out, size_t *out_len) {
  size_t start = p->pos;
  p->pos++; /* the opening quote */
  StrBuf b;
  sb_init(&b);
  cxla_status st = NULL;
  for (;;) {
    int c = peek(p);
    if (c < 0) {
      st = error_at(p, start, "unterminated string");
      break;
    }
    if (c == '"') {
      p->pos++;
      break;
    }
    if (c < 0x20) {
      st = error_at(p, p->pos, "control character in string (escape it)");
      break;
    }
    if (c == '\\') {
      size_t esc = p->pos++;
      int e = peek(p);
      p->pos++;
      switch (e) {
      case '"': sb_putc(&b, '"'); break;
      case '\\': sb_putc(&b, '\\'); break;
      case '/': sb_putc(&b, '/'); break;
      case 'b': sb_putc(&b, '\b'); break;
      case 'f': sb_putc(&b, '\f'); break;
      case 'n': sb_putc(&b, '\n'); break;
      case 'r': sb_putc(&b, '\r'); break;
      case 't': sb_putc(&b, '\t'); break;
      case 'u': st = parse_unicode_escape(p, esc, &b); break;
      default: st = error_at(p, esc, "invalid escape in string"); break;
      }
      if (st) break;
      continue;
    }
    size_t n = utf8_seq((const unsigned char *)p->s + p->pos, p->len - p->pos);
    if (!n) {
      st = error_at(p, p->pos, "invalid UTF-8 in string");
      break;
    }
    sb_putn(&b, p->s + p->pos, n);
    p->pos += n;
  }
  if (!st && b.oom) st = cxla_oom();
  if (!st) {
    char *s = arena_alloc(&p->doc->arena, b.len + 1);
    if (!s) {
      st = cxla_oom();
    } else {
      if (b.len) memcpy(s, b.data, b.len);
      s[b.len] = 0;
      *out = s;
      *out_len = b.len;
    }
  }
  sb_free(&b);
  return st;
}

/* ---- arrays and objects ------------------------------------------------------------ */

/* Appends to an arena array, doubling its capacity (the old block stays in
 * the arena: at most as much waste as the final size). */
static bool grow(Parser *p, void **arr, int n, int *cap, size_t elem) {
  if (n < *cap) return true;
  int ncap = *cap ? *cap * 2 : 4;
  void *na = arena_array(&p->doc->arena, (size_t)ncap, elem);
  if (!na) return false;
  if (n) memcpy(na, *arr, (size_t)n * elem);
  *arr = na;
  *cap = ncap;
  return true;
}

static cxla_status parse_array(Parser *p, JsonValue *v) {
  p->pos++; /* '[' */
  int cap = 0;
  skip_ws(p);
  if (peek(p) == ']') {
    p->pos++;
    return NULL;
  }
  for (;;) {
    JsonValue *item;
    TRY(parse_value(p, &item));
    if (!grow(p, (void **)&v->items, v->n, &cap, sizeof *v->items)) return cxla_oom();
    v->items[v->n++] = item;
    skip_ws(p);
    int c = peek(p);
    if (c == ',') {
      p->pos++;
      skip_ws(p);
      if (peek(p) == ']') return error_at(p, p->pos, "trailing comma in array");
      continue;
    }
    if (c == ']') {
      p->pos++;
      return NULL;
    }
    return error_at(p, p->pos, c < 0 ? "unterminated array" : "expected ',' or ']'");
  }
}

static cxla_status parse_object(Parser *p, JsonValue *v) {
  p->pos++; /* '{' */
  int cap = 0, kcap = 0;
  skip_ws(p);
  if (peek(p) == '}') {
    p->pos++;
    return NULL;
  }
  for (;;) {
    skip_ws(p);
    if (peek(p) != '"')
      return error_at(p, p->pos, peek(p) == '}' ? "trailing comma in object"
                                                : "expected a string key");
    size_t key_pos = p->pos;
    const char *key;
    size_t klen;
    TRY(parse_string_raw(p, &key, &klen));
    for (int i = 0; i < v->n; i++)
      if (strcmp(v->keys[i], key) == 0) return error_at(p, key_pos, "duplicate key");
    skip_ws(p);
    if (peek(p) != ':') return error_at(p, p->pos, "expected ':' after a key");
    p->pos++;
    JsonValue *item;
    TRY(parse_value(p, &item));
    if (!grow(p, (void **)&v->items, v->n, &cap, sizeof *v->items) ||
        !grow(p, (void **)&v->keys, v->n, &kcap, sizeof *v->keys))
      return cxla_oom();
    v->keys[v->n] = key;
    v->items[v->n++] = item;
    skip_ws(p);
    int c = peek(p);
    if (c == ',') {
      p->pos++;
      continue;
    }
    if (c == '}') {
      p->pos++;
      return NULL;
    }
    return error_at(p, p->pos, c < 0 ? "unterminated object" : "expected ',' or '}'");
  }
}

static cxla_status parse_value(Parser *p, JsonValue **out) {
  skip_ws(p);
  int c = peek(p);
  if (c < 0) return error_at(p, p->pos, "unexpected end of input");
  JsonKind kind;
  switch (c) {
  case '{': kind = JSON_OBJECT; break;
  case '[': kind = JSON_ARRAY; break;
  case '"': kind = JSON_STRING; break;
  case 't': case 'f': kind = JSON_BOOL; break;
  case 'n': kind = JSON_NULL; break;
  default:
    if (c == '-' || is_digit(c)) {
      kind = JSON_NUMBER;
      break;
    }
    return error_at(p, p->pos, "unexpected character");
  }
  JsonValue *v = new_value(p, kind);
  if (!v) return cxla_oom();
  *out = v;
  switch (kind) {
  case JSON_OBJECT:
  case JSON_ARRAY: {
    if (p->depth >= JSON_MAX_DEPTH) return error_at(p, p->pos, "nesting too deep");
    p->depth++;
    cxla_status st = kind == JSON_OBJECT ? parse_object(p, v) : parse_array(p, v);
    p->depth--;
    return st;
  }
  case JSON_STRING: return parse_string_raw(p, &v->str, &v->len);
  case JSON_NUMBER: return parse_number(p, v);
  case JSON_NULL: return parse_word(p, "null", v);
  case JSON_BOOL:
    v->boolean = c == 't';
    return parse_word(p, c == 't' ? "true" : "false", v);
  }
  return NULL;
}

/* ---- public ----------------------------------------------------------------------------- */

cxla_status json_parse(const char *text, size_t len, const char *filename, JsonDoc **out) {
  *out = NULL;
  JsonDoc *doc = cxla_calloc(1, sizeof *doc);
  if (!doc) return cxla_oom();
  arena_init(&doc->arena);
  Parser p = {text, len, 0, 1, 0, filename ? filename : "<json>", doc, 0};
  cxla_status st = parse_value(&p, &doc->root);
  if (!st) {
    skip_ws(&p);
    if (p.pos != p.len) st = error_at(&p, p.pos, "unexpected characters after the JSON value");
  }
  if (st) {
    json_free(doc);
    return st;
  }
  *out = doc;
  return NULL;
}

void json_free(JsonDoc *doc) {
  if (!doc) return;
  arena_destroy(&doc->arena);
  cxla_free(doc);
}

const JsonValue *json_get(const JsonValue *obj, const char *key) {
  if (!obj || obj->kind != JSON_OBJECT) return NULL;
  for (int i = 0; i < obj->n; i++)
    if (strcmp(obj->keys[i], key) == 0) return obj->items[i];
  return NULL;
}

const char *json_kind_name(JsonKind k) {
  switch (k) {
  case JSON_NULL: return "null";
  case JSON_BOOL: return "boolean";
  case JSON_NUMBER: return "number";
  case JSON_STRING: return "string";
  case JSON_ARRAY: return "array";
  case JSON_OBJECT: return "object";
  }
  return "?";
}

bool json_as_i64(const JsonValue *v, int64_t *out) {
  if (!v || v->kind != JSON_NUMBER) return false;
  double d = v->number;
  if (d != floor(d) || fabs(d) > 9007199254740992.0) return false;
  *out = (int64_t)d;
  return true;
}
