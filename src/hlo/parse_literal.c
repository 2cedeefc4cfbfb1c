/* Constant literals, the text inside constant(...):
 *
 *   literal ::= '(' literal (',' literal)* ')'        tuple shapes
 *             | value                                  rank 0
 *             | '{' ... '}'                            nested, one level per
 *                                                      dimension
 *             | '{' '...' '}'                          elided: unknown value
 *   value   ::= int | float | inf | -inf | nan | -nan | nan(0xPAYLOAD)
 *             | true | false | '(' real ',' imag ')'   (complex)
 *
 * Values are range-checked for their type. Floats are read from the token
 * text with strtod (so "-0" stays negative zero) and rounded once to the
 * element type; NaN payloads are given in double's 52-bit mantissa space, as
 * XLA does, and keep their top bits in narrower types.
 *
 * Array data is collected in a growable buffer and checked against the
 * shape, so a huge declared shape with few values never allocates. */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "hlo/hlo.h"
#include "ir/numeric.h"

bool parse_int_token(Parser *p, const Token *t, bool *neg, uint64_t *mag) {
  size_t i = 0;
  *neg = t->len > 0 && t->text[0] == '-';
  if (*neg) i++;
  uint64_t v = 0;
  for (; i < t->len; i++) {
    unsigned d = (unsigned)(t->text[i] - '0');
    if (d > 9) return perr(p, t->pos, "malformed integer");
    if (v > (UINT64_MAX - d) / 10) return perr(p, t->pos, "integer literal too large");
    v = v * 10 + d;
  }
  *mag = v;
  return true;
}

bool hlo_ieee_nan_format(ElemType t, int *ebits, int *mbits) {
  switch (t) {
  case T_F16: *ebits = 5, *mbits = 10; return true;
  case T_BF16: *ebits = 8, *mbits = 7; return true;
  case T_F32: *ebits = 8, *mbits = 23; return true;
  case T_F64: *ebits = 11, *mbits = 52; return true;
  case T_F8E5M2: *ebits = 5, *mbits = 2; return true;
  case T_F8E4M3: *ebits = 4, *mbits = 3; return true;
  case T_F8E3M4: *ebits = 3, *mbits = 4; return true;
  default: return false;
  }
}

/* A float value as read: either a number, or a NaN with sign and payload. */
typedef struct FloatVal {
  double v;
  bool nan, neg;
  uint64_t payload; /* in double's mantissa space; 0 = default quiet NaN */
  size_t pos;
} FloatVal;

#define DEFAULT_NAN_PAYLOAD ((uint64_t)1 << 51)

/* nan(0x...) after "nan" / "-nan". */
static bool parse_nan_payload(Parser *p, FloatVal *f) {
  if (p->tok.kind != TOK_LPAREN || ppeek(p) != TOK_NUMBER) return true;
  padvance(p);
  Token t = p->tok;
  if (!t.is_hex || t.text[0] == '-') return perr(p, t.pos, "expected a hexadecimal NaN payload");
  uint64_t v = 0;
  for (size_t i = 2; i < t.len; i++) {
    char c = t.text[i];
    unsigned d = c <= '9' ? (unsigned)(c - '0') : c <= 'F' ? (unsigned)(c - 'A' + 10) : (unsigned)(c - 'a' + 10);
    if (v >> 60) return perr(p, t.pos, "NaN payload too large");
    v = v * 16 + d;
  }
  if (v == 0 || v >= ((uint64_t)1 << 52))
    return perr(p, t.pos, "NaN payload out of range (1 to 0xfffffffffffff)");
  f->payload = v;
  padvance(p);
  return pexpect(p, TOK_RPAREN, "')' after the NaN payload");
}

static bool parse_float(Parser *p, FloatVal *f) {
  Token t = p->tok;
  memset(f, 0, sizeof *f);
  f->pos = t.pos;
  if (t.kind == TOK_IDENT && !t.percent && (tok_is(&t, "inf") || tok_is(&t, "nan"))) {
    f->nan = t.text[0] == 'n';
    f->v = f->nan ? NAN : INFINITY;
    padvance(p);
    return f->nan ? parse_nan_payload(p, f) : true;
  }
  if (t.kind != TOK_NUMBER || t.is_hex) return perr(p, t.pos, "expected a floating-point value");
  if (t.len == 4 && (memcmp(t.text, "-inf", 4) == 0 || memcmp(t.text, "-nan", 4) == 0)) {
    f->neg = true;
    f->nan = t.text[1] == 'n';
    f->v = f->nan ? -NAN : -INFINITY;
    padvance(p);
    return f->nan ? parse_nan_payload(p, f) : true;
  }
  char buf[64];
  char *heap = NULL, *s = buf;
  if (t.len >= sizeof buf) {
    if (!(heap = cxla_malloc(t.len + 1))) return poom(p);
    s = heap;
  }
  memcpy(s, t.text, t.len);
  s[t.len] = 0;
  errno = 0;
  char *end;
  f->v = strtod(s, &end);
  bool overflow = errno == ERANGE && isinf(f->v);
  bool bad = end != s + t.len;
  cxla_free(heap);
  if (bad) return perr(p, t.pos, "malformed number");
  if (overflow) return perr(p, t.pos, "floating-point literal out of range");
  f->neg = signbit(f->v) != 0;
  padvance(p);
  return true;
}

/* Raw bits of f in an IEEE-like type with ebits/mbits (NaN payload kept). */
static uint64_t ieee_nan_bits(const FloatVal *f, int ebits, int mbits) {
  uint64_t payload = f->payload ? f->payload : DEFAULT_NAN_PAYLOAD;
  uint64_t mant = payload >> (52 - mbits);
  uint64_t bits = (((uint64_t)1 << ebits) - 1) << mbits | mant;
  if (f->neg) bits |= (uint64_t)1 << (ebits + mbits);
  return bits;
}

/* Stores float value f as element type t at dst (t_bytes bytes). */
static bool store_float(Parser *p, ElemType t, const FloatVal *f, unsigned char *dst) {
  int eb, mb;
  if (f->nan && hlo_ieee_nan_format(t, &eb, &mb)) {
    uint64_t payload = f->payload ? f->payload : DEFAULT_NAN_PAYLOAD;
    if ((payload >> (52 - mb)) == 0)
      return perr(p, f->pos, "NaN payload has no bits left in %s", type_name(t));
    uint64_t bits = ieee_nan_bits(f, eb, mb);
    switch (type_bytes(t)) {
    case 8: memcpy(dst, &bits, 8); break;
    case 4: { uint32_t b = (uint32_t)bits; memcpy(dst, &b, 4); break; }
    case 2: { uint16_t b = (uint16_t)bits; memcpy(dst, &b, 2); break; }
    default: *dst = (unsigned char)bits; break;
    }
    return true;
  }
  if (t == T_F64) {
    memcpy(dst, &f->v, 8);
    return true;
  }
  if (t == T_F32) {
    float x = (float)f->v;
    if (isinf(x) && !isinf(f->v)) return perr(p, f->pos, "value out of range for f32");
    memcpy(dst, &x, 4);
    return true;
  }
  uint32_t bits = minifloat_encode(t, f->v);
  double back = minifloat_decode(t, bits);
  if (isfinite(f->v) && !isfinite(back))
    return perr(p, f->pos, "value out of range for %s", type_name(t));
  if (type_bytes(t) == 2) {
    uint16_t b = (uint16_t)bits;
    memcpy(dst, &b, 2);
  } else {
    *dst = (unsigned char)bits;
  }
  return true;
}

static bool parse_int_value(Parser *p, ElemType t, unsigned char *dst) {
  Token tk = p->tok;
  if (tk.kind != TOK_NUMBER || tk.is_float || tk.is_hex)
    return perr(p, tk.pos, "expected an integer value for %s", type_name(t));
  bool neg;
  uint64_t mag;
  if (!parse_int_token(p, &tk, &neg, &mag)) return false;
  int bits = type_bits(t);
  bool is_signed = type_kind(t) == TK_SINT;
  uint64_t max_pos = is_signed ? ((uint64_t)1 << (bits - 1)) - 1
                               : (bits == 64 ? UINT64_MAX : ((uint64_t)1 << bits) - 1);
  uint64_t max_neg = is_signed ? (uint64_t)1 << (bits - 1) : 0;
  if (neg ? mag > max_neg : mag > max_pos)
    return perr(p, tk.pos, "value %.*s out of range for %s", (int)tk.len, tk.text, type_name(t));
  uint64_t u = neg ? 0 - mag : mag;
  switch (type_bytes(t)) {
  case 8: memcpy(dst, &u, 8); break;
  case 4: { uint32_t v = (uint32_t)u; memcpy(dst, &v, 4); break; }
  case 2: { uint16_t v = (uint16_t)u; memcpy(dst, &v, 2); break; }
  default: *dst = (unsigned char)u; break; /* s2/s4 stay sign-extended */
  }
  padvance(p);
  return true;
}

/* One element of type t into dst. */
static bool parse_value(Parser *p, ElemType t, unsigned char *dst) {
  Token tk = p->tok;
  if (t == T_PRED) {
    if (tok_is(&tk, "true") || tok_is(&tk, "false")) {
      *dst = tk.text[0] == 't';
      padvance(p);
      return true;
    }
    if (tk.kind == TOK_NUMBER && !tk.is_float && !tk.is_hex && tk.len == 1 &&
        (tk.text[0] == '0' || tk.text[0] == '1')) {
      *dst = tk.text[0] == '1';
      padvance(p);
      return true;
    }
    return perr(p, tk.pos, "expected true or false");
  }
  if (type_is_int(t)) return parse_int_value(p, t, dst);
  if (type_is_complex(t)) {
    if (!pexpect(p, TOK_LPAREN, "'(' before a complex value")) return false;
    FloatVal re, im;
    ElemType part = t == T_C64 ? T_F32 : T_F64;
    int half = type_bytes(part);
    if (!parse_float(p, &re) || !store_float(p, part, &re, dst) ||
        !pexpect(p, TOK_COMMA, "',' between the real and imaginary parts") ||
        !parse_float(p, &im) || !store_float(p, part, &im, dst + half))
      return false;
    return pexpect(p, TOK_RPAREN, "')' after a complex value");
  }
  FloatVal f;
  return parse_float(p, &f) && store_float(p, t, &f, dst);
}

/* ---- arrays ---------------------------------------------------------------------- */

typedef struct Buf {
  unsigned char *data;
  size_t len, cap;
} Buf;

static unsigned char *buf_slot(Parser *p, Buf *b, size_t n) {
  if (b->len + n > b->cap) {
    size_t nc = b->cap ? b->cap * 2 : 256;
    while (nc < b->len + n) nc *= 2;
    unsigned char *nd = cxla_realloc(b->data, nc);
    if (!nd) return poom(p), NULL;
    b->data = nd;
    b->cap = nc;
  }
  unsigned char *s = b->data + b->len;
  memset(s, 0, n);
  b->len += n;
  return s;
}

/* Builds an array literal from parts, taking ownership of data. */
static bool make_array(Parser *p, const Shape *s, int64_t nelems, unsigned char *data,
                       bool unknown, Literal **out) {
  Literal *l = cxla_calloc(1, sizeof *l);
  if (!l) {
    cxla_free(data);
    return poom(p);
  }
  l->type = s->type;
  l->rank = s->rank;
  l->nelems = nelems;
  l->data = data;
  l->unknown = unknown;
  if (s->rank) {
    l->dims = cxla_malloc((size_t)s->rank * sizeof(int64_t));
    if (!l->dims) {
      literal_free(l);
      return poom(p);
    }
    memcpy(l->dims, s->dims, (size_t)s->rank * sizeof(int64_t));
  }
  *out = l;
  return true;
}

/* Nested braces, walked iteratively: `level` is the number of open braces,
 * seen[d] counts the entries read so far at nesting level d+1. */
static bool parse_nested(Parser *p, const Shape *s, Buf *b) {
  int rank = s->rank, eb = type_bytes(s->type);
  int64_t *seen = cxla_calloc((size_t)rank, sizeof *seen);
  if (!seen) return poom(p);
  bool ok = pexpect(p, TOK_LBRACE, "'{' at the start of the array");
  int level = 1;
  bool after_comma = false, need_sep = false;
  while (ok && level > 0) {
    Token t = p->tok;
    int d = level - 1;
    if (t.kind == TOK_RBRACE) {
      if (after_comma) {
        ok = perr(p, t.pos, "expected a value after ','");
      } else if (seen[d] != s->dims[d]) {
        ok = perr(p, t.pos, "expected %lld entries in dimension %d, found %lld",
                  (long long)s->dims[d], d, (long long)seen[d]);
      } else {
        seen[d] = 0;
        level--;
        padvance(p);
        need_sep = true;
      }
      continue;
    }
    if (need_sep) {
      if (t.kind != TOK_COMMA) {
        ok = perr(p, t.pos, "expected ',' or '}' in the array");
        continue;
      }
      padvance(p);
      need_sep = false;
      after_comma = true;
      continue;
    }
    if (seen[d] == s->dims[d]) {
      ok = perr(p, t.pos, "too many entries in dimension %d (expected %lld)", d,
                (long long)s->dims[d]);
      continue;
    }
    seen[d]++;
    after_comma = false;
    if (level < rank) {
      ok = pexpect(p, TOK_LBRACE, "'{' (the array has more dimensions)");
      level++;
    } else {
      unsigned char *slot = buf_slot(p, b, (size_t)eb);
      ok = slot && parse_value(p, s->type, slot);
      need_sep = true;
    }
  }
  cxla_free(seen);
  return ok;
}

static bool parse_array_literal(Parser *p, const Shape *s, Literal **out) {
  size_t start = p->tok.pos;
  if (!type_is_array(s->type))
    return perr(p, start, "constants of type %s are not supported", type_name(s->type));
  cxla_status st = shape_check_size(s);
  if (st) {
    perr_code(p, cxla_status_code_of(st), start, "%s", cxla_status_message(st));
    cxla_status_free(st);
    return false;
  }
  int64_t n = shape_elems(s);
  /* {...}: XLA's elided large constant; the value is unknown. */
  if (p->tok.kind == TOK_LBRACE && ppeek(p) == TOK_DOTS) {
    padvance(p);
    padvance(p);
    if (!pexpect(p, TOK_RBRACE, "'}' after '...'")) return false;
    return make_array(p, s, n, NULL, true, out);
  }
  Buf b = {0};
  bool ok;
  if (s->rank == 0) {
    unsigned char *slot = buf_slot(p, &b, (size_t)type_bytes(s->type));
    ok = slot && parse_value(p, s->type, slot);
  } else {
    ok = parse_nested(p, s, &b);
  }
  if (!ok) {
    cxla_free(b.data);
    return false;
  }
  if (b.len == 0) {
    cxla_free(b.data);
    b.data = NULL;
  }
  return make_array(p, s, n, b.data, false, out);
}

static bool parse_tuple_literal(Parser *p, const Shape *s, Literal **out) {
  if (++p->depth > HLO_MAX_DEPTH) return perr(p, p->tok.pos, "literal nested too deeply");
  Literal **el = cxla_calloc((size_t)(s->ntuple ? s->ntuple : 1), sizeof *el);
  if (!el) return poom(p);
  bool ok = pexpect(p, TOK_LPAREN, "'(' at the start of the tuple");
  int i = 0;
  for (; ok && i < s->ntuple; i++) {
    if (i > 0 && !(ok = pexpect(p, TOK_COMMA, "',' between tuple elements"))) break;
    ok = parse_literal(p, s->tuple[i], &el[i]);
  }
  if (ok) ok = pexpect(p, TOK_RPAREN, "')' at the end of the tuple");
  p->depth--;
  if (!ok) {
    for (int j = 0; j < s->ntuple; j++) literal_free(el[j]);
    cxla_free(el);
    return false;
  }
  cxla_status st = literal_create_tuple(s->ntuple, el, out);
  cxla_free(el);
  if (st) {
    p->err = p->err ? p->err : st;
    return false;
  }
  return true;
}

bool parse_literal(Parser *p, const Shape *s, Literal **out) {
  *out = NULL;
  if (s->type == T_TUPLE) return parse_tuple_literal(p, s, out);
  return parse_array_literal(p, s, out);
}
