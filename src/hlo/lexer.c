/* The HLO text lexer, input validation and located error messages.
 *
 * Tokens follow XLA's hlo_lexer: identifiers [A-Za-z_][A-Za-z0-9_.-]*
 * (optionally written %name), numbers, quoted strings, punctuation, and
 * comments (slash-star ... star-slash, and // to the end of the line) that
 * are skipped. Attribute values with their own micro-syntax (window=,
 * padding=, dim_labels=, ...) are not tokenized here: parse_attrs.c reads
 * them character by character. */
#include <stdio.h>
#include <string.h>

#include "hlo/hlo.h"

void lexer_init(Lexer *lx, const char *src, size_t len) {
  lx->src = src;
  lx->len = len;
  lx->pos = 0;
  lx->error = NULL;
}

static bool is_alpha(int c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_'; }
static bool is_digit(int c) { return c >= '0' && c <= '9'; }
static bool is_ident_char(int c) { return is_alpha(c) || is_digit(c) || c == '.' || c == '-'; }
static bool is_hex(int c) {
  return is_digit(c) || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F');
}

static int peekc(const Lexer *lx, size_t i) {
  return i < lx->len ? (unsigned char)lx->src[i] : -1;
}

static Token make(TokKind k, size_t start, size_t end, const Lexer *lx) {
  Token t;
  memset(&t, 0, sizeof t);
  t.kind = k;
  t.pos = start;
  t.text = lx->src + start;
  t.len = end - start;
  return t;
}

static Token error_tok(Lexer *lx, size_t pos, const char *why) {
  lx->error = why;
  lx->pos = pos;
  return make(TOK_ERROR, pos, pos, lx);
}

/* Skips whitespace and comments. Returns false (and sets *why) for an
 * unterminated block comment. */
static bool skip_space(Lexer *lx, size_t *bad) {
  for (;;) {
    int c = peekc(lx, lx->pos);
    if (c == ' ' || c == '\t' || c == '\n' || c == '\r') {
      lx->pos++;
    } else if (c == '/' && peekc(lx, lx->pos + 1) == '*') {
      size_t start = lx->pos;
      lx->pos += 2;
      for (;;) {
        if (lx->pos >= lx->len) {
          *bad = start;
          return false;
        }
        if (lx->src[lx->pos] == '*' && peekc(lx, lx->pos + 1) == '/') {
          lx->pos += 2;
          break;
        }
        lx->pos++;
      }
    } else if (c == '/' && peekc(lx, lx->pos + 1) == '/') {
      while (lx->pos < lx->len && lx->src[lx->pos] != '\n') lx->pos++;
    } else {
      return true;
    }
  }
}

/* number ::= -?(digits(.digits*)?|.digits)([eE][+-]?digits)? | 0x hex */
static Token lex_number(Lexer *lx, size_t start) {
  size_t i = start;
  bool is_float = false;
  if (peekc(lx, i) == '-') i++;
  if (peekc(lx, i) == '0' && (peekc(lx, i + 1) == 'x' || peekc(lx, i + 1) == 'X') &&
      is_hex(peekc(lx, i + 2))) {
    i += 2;
    while (is_hex(peekc(lx, i))) i++;
    Token t = make(TOK_NUMBER, start, i, lx);
    t.is_hex = true;
    lx->pos = i;
    return t;
  }
  size_t digits = 0;
  while (is_digit(peekc(lx, i))) i++, digits++;
  if (peekc(lx, i) == '.' && peekc(lx, i + 1) != '.') {
    i++;
    is_float = true;
    while (is_digit(peekc(lx, i))) i++, digits++;
  }
  if (digits == 0) return error_tok(lx, start, "malformed number");
  if (peekc(lx, i) == 'e' || peekc(lx, i) == 'E') {
    size_t j = i + 1;
    if (peekc(lx, j) == '+' || peekc(lx, j) == '-') j++;
    if (is_digit(peekc(lx, j))) {
      while (is_digit(peekc(lx, j))) j++;
      i = j;
      is_float = true;
    }
  }
  Token t = make(TOK_NUMBER, start, i, lx);
  t.is_float = is_float;
  lx->pos = i;
  return t;
}

static Token lex_string(Lexer *lx, size_t start) {
  char q = lx->src[start];
  size_t i = start + 1;
  while (i < lx->len && lx->src[i] != q) {
    if (lx->src[i] == '\\') i++;
    i++;
  }
  if (i >= lx->len) return error_tok(lx, start, "unterminated string");
  Token t = make(TOK_STRING, start, i + 1, lx);
  t.text = lx->src + start + 1;
  t.len = i - start - 1;
  lx->pos = i + 1;
  return t;
}

Token lexer_next(Lexer *lx) {
  size_t bad;
  if (!skip_space(lx, &bad)) return error_tok(lx, bad, "unterminated comment");
  size_t s = lx->pos;
  int c = peekc(lx, s);
  if (c < 0) return make(TOK_EOF, s, s, lx);
  if (is_alpha(c) || (c == '%' && is_alpha(peekc(lx, s + 1)))) {
    size_t i = c == '%' ? s + 1 : s;
    size_t name = i;
    while (is_ident_char(peekc(lx, i))) i++;
    /* "foo->bar": an identifier never ends in '-' when '>' follows. */
    if (i > name + 1 && lx->src[i - 1] == '-' && peekc(lx, i) == '>') i--;
    Token t = make(TOK_IDENT, s, i, lx);
    t.text = lx->src + name;
    t.len = i - name;
    t.percent = c == '%';
    lx->pos = i;
    return t;
  }
  if (is_digit(c) || (c == '.' && is_digit(peekc(lx, s + 1)))) return lex_number(lx, s);
  if (c == '-') {
    int d = peekc(lx, s + 1);
    if (d == '>') {
      lx->pos = s + 2;
      return make(TOK_ARROW, s, s + 2, lx);
    }
    if (is_digit(d) || d == '.') return lex_number(lx, s);
    /* -inf / -nan: one token, so that a literal reads them like numbers. */
    if (lx->len - s >= 4 && (memcmp(lx->src + s, "-inf", 4) == 0 || memcmp(lx->src + s, "-nan", 4) == 0) &&
        !is_ident_char(peekc(lx, s + 4))) {
      Token t = make(TOK_NUMBER, s, s + 4, lx);
      t.is_float = true;
      lx->pos = s + 4;
      return t;
    }
    return error_tok(lx, s, "unexpected character '-'");
  }
  if (c == '"' || c == '\'') return lex_string(lx, s);
  if (c == '.' && peekc(lx, s + 1) == '.' && peekc(lx, s + 2) == '.') {
    lx->pos = s + 3;
    return make(TOK_DOTS, s, s + 3, lx);
  }
  if (c == '<' && peekc(lx, s + 1) == '=') {
    lx->pos = s + 2;
    return make(TOK_LEQ, s, s + 2, lx);
  }
  TokKind k;
  switch (c) {
  case '(': k = TOK_LPAREN; break;
  case ')': k = TOK_RPAREN; break;
  case '{': k = TOK_LBRACE; break;
  case '}': k = TOK_RBRACE; break;
  case '[': k = TOK_LSQUARE; break;
  case ']': k = TOK_RSQUARE; break;
  case ',': k = TOK_COMMA; break;
  case ':': k = TOK_COLON; break;
  case '=': k = TOK_EQUAL; break;
  case '?': k = TOK_QUESTION; break;
  default: return error_tok(lx, s, "unexpected character");
  }
  lx->pos = s + 1;
  return make(k, s, s + 1, lx);
}

/* ---- input validation ------------------------------------------------------------ */

size_t hlo_check_text(const char *src, size_t len, const char **why) {
  const unsigned char *s = (const unsigned char *)src;
  size_t i = 0;
  while (i < len) {
    unsigned c = s[i];
    if (c < 0x80) {
      if (c == 0) {
        *why = "NUL byte in input";
        return i;
      }
      if ((c < 0x20 && c != '\t' && c != '\n' && c != '\r') || c == 0x7f) {
        *why = "control character in input";
        return i;
      }
      i++;
      continue;
    }
    /* Multi-byte UTF-8: reject overlong forms, surrogates and > U+10FFFF. */
    int n;
    unsigned min, cp;
    if ((c & 0xe0) == 0xc0) n = 1, min = 0x80, cp = c & 0x1f;
    else if ((c & 0xf0) == 0xe0) n = 2, min = 0x800, cp = c & 0x0f;
    else if ((c & 0xf8) == 0xf0) n = 3, min = 0x10000, cp = c & 0x07;
    else {
      *why = "invalid UTF-8 in input";
      return i;
    }
    for (int k = 1; k <= n; k++) {
      if (i + (size_t)k >= len || (s[i + k] & 0xc0) != 0x80) {
        *why = "invalid UTF-8 in input";
        return i;
      }
      cp = (cp << 6) | (s[i + k] & 0x3f);
    }
    if (cp < min || cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff)) {
      *why = "invalid UTF-8 in input";
      return i;
    }
    i += (size_t)n + 1;
  }
  return len;
}

/* ---- error messages ----------------------------------------------------------------- */

cxla_status hlo_error_at(cxla_status_code code, const char *file, const char *src,
                         size_t len, size_t pos, const char *msg) {
  if (pos > len) pos = len;
  size_t line = 1, line_start = 0;
  for (size_t i = 0; i < pos; i++)
    if (src[i] == '\n') line++, line_start = i + 1;
  size_t line_end = pos;
  while (line_end < len && src[line_end] != '\n') line_end++;
  if (line_end > pos && src[line_end - 1] == '\r') line_end--; /* CRLF */
  size_t col = 1; /* in characters: UTF-8 continuation bytes do not count */
  for (size_t i = line_start; i < pos; i++)
    if (((unsigned char)src[i] & 0xc0) != 0x80) col++;
  /* Very long lines (a huge constant on one line) are cut around the caret so
   * that the message stays readable. */
  size_t show_from = line_start, show_to = line_end;
  if (pos - line_start > 120) show_from = pos - 80;
  if (line_end - pos > 120) show_to = pos + 80;
  StrBuf b;
  sb_init(&b);
  sb_printf(&b, "%s:%zu:%zu: error: %s\n", file ? file : "<input>", line, col, msg);
  if (show_from > line_start) sb_puts(&b, "...");
  for (size_t i = show_from; i < show_to; i++) {
    /* Control bytes (what the error may be about) show as '?'. */
    unsigned char c = (unsigned char)src[i];
    sb_putc(&b, (c < 0x20 && c != '\t') || c == 0x7f ? '?' : (char)c);
  }
  if (show_to < line_end) sb_puts(&b, "...");
  sb_putc(&b, '\n');
  if (show_from > line_start) sb_puts(&b, "   ");
  for (size_t i = show_from; i < pos; i++) {
    /* Keep tabs so that the caret lines up; count one column per character
     * (UTF-8 continuation bytes take no column). */
    unsigned char c = (unsigned char)src[i];
    if ((c & 0xc0) == 0x80) continue;
    sb_putc(&b, c == '\t' ? '\t' : ' ');
  }
  sb_putc(&b, '^');
  char *text = sb_take(&b);
  if (!text) return cxla_oom();
  cxla_status st = cxla_status_make(code, "%s", text);
  cxla_free(text);
  return st;
}

/* ---- strings -------------------------------------------------------------------- */

static int hex_val(int c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

/* C-style escapes as absl::CUnescape reads them: \n \t \r \\ \' \" \? \a \b
 * \f \v, octal \ooo and hex \xHH. A NUL produced by an escape is refused,
 * since names are C strings. */
char *hlo_unescape(Arena *a, const char *body, size_t len, size_t *bad_at) {
  char *out = arena_alloc(a, len + 1);
  if (!out) {
    *bad_at = (size_t)-1;
    return NULL;
  }
  size_t o = 0;
  for (size_t i = 0; i < len; i++) {
    char c = body[i];
    if (c == '"') {
      *bad_at = i;
      return NULL;
    }
    if (c != '\\') {
      out[o++] = c;
      continue;
    }
    size_t at = i;
    if (++i >= len) {
      *bad_at = at;
      return NULL;
    }
    int v;
    switch (body[i]) {
    case 'n': v = '\n'; break;
    case 't': v = '\t'; break;
    case 'r': v = '\r'; break;
    case 'a': v = '\a'; break;
    case 'b': v = '\b'; break;
    case 'f': v = '\f'; break;
    case 'v': v = '\v'; break;
    case '\\': case '\'': case '"': case '?': v = body[i]; break;
    case 'x': {
      v = 0;
      int digits = 0;
      while (i + 1 < len && hex_val(body[i + 1]) >= 0 && digits < 2) v = v * 16 + hex_val(body[++i]), digits++;
      if (!digits) {
        *bad_at = at;
        return NULL;
      }
      break;
    }
    default:
      if (body[i] >= '0' && body[i] <= '7') {
        v = body[i] - '0';
        for (int k = 0; k < 2 && i + 1 < len && body[i + 1] >= '0' && body[i + 1] <= '7'; k++)
          v = v * 8 + (body[++i] - '0');
        if (v > 255) {
          *bad_at = at;
          return NULL;
        }
        break;
      }
      *bad_at = at;
      return NULL;
    }
    if (v == 0) {
      *bad_at = at;
      return NULL;
    }
    out[o++] = (char)v;
  }
  out[o] = 0;
  return out;
}
