/* Shapes and layouts:
 *
 *   shape  ::= '(' (shape (',' shape)*)? ')'
 *            | type '[' (dim (',' dim)*)? ']' layout?
 *   dim    ::= int | '<=' int
 *   layout ::= '{' (int (',' int)*)? (':' tail)? '}'
 *
 * The layout tail (tiling, memory space, ...: "T(8,128)S(1)") is kept as
 * text. A '{' starts a layout only when a number or ':' follows it, as in
 * XLA, so "-> f32[2] {" still opens a computation body. */
#include <string.h>

#include "hlo/hlo.h"

static bool at_type_name(const Parser *p) {
  ElemType t;
  return p->tok.kind == TOK_IDENT && !p->tok.percent &&
         type_from_name(p->tok.text, p->tok.len, &t);
}

/* A type name starts a shape only when '[' follows it, as in XLA's parser:
 * "s2", "c64", "pred" or "f8e4m3fn" alone are names (of instructions,
 * operands, computations). */
bool at_shape(Parser *p) {
  if (p->tok.kind == TOK_LPAREN) return true;
  return at_type_name(p) && ppeek(p) == TOK_LSQUARE;
}

/* Reads a non-negative decimal integer token. */
static bool parse_dim_value(Parser *p, int64_t *out) {
  Token t = p->tok;
  if (t.kind != TOK_NUMBER || t.is_float || t.is_hex || t.text[0] == '-')
    return pexpected(p, "a dimension size");
  bool neg;
  uint64_t mag;
  if (!parse_int_token(p, &t, &neg, &mag)) return false;
  if (mag > (uint64_t)INT64_MAX) return perr(p, t.pos, "dimension size too large");
  *out = (int64_t)mag;
  padvance(p);
  return true;
}

/* Growable int64 vector on the heap, copied to the arena when complete. */
typedef struct I64Vec {
  int64_t *v;
  int n, cap;
} I64Vec;

static bool vec_push(Parser *p, I64Vec *vec, int64_t x) {
  if (vec->n == vec->cap) {
    int nc = vec->cap ? vec->cap * 2 : 8;
    if (nc > (1 << 28)) return perr(p, p->tok.pos, "too many dimensions");
    int64_t *nv = cxla_realloc(vec->v, (size_t)nc * sizeof *nv);
    if (!nv) return poom(p);
    vec->v = nv;
    vec->cap = nc;
  }
  vec->v[vec->n++] = x;
  return true;
}

/* The text after ':' in a layout, up to the '}' that closes the layout. */
static bool parse_layout_tail(Parser *p, Shape *s, size_t start) {
  int depth = 0;
  size_t i = start;
  for (; i < p->len; i++) {
    char c = p->src[i];
    if (c == '(' || c == '{' || c == '[') {
      if (++depth > HLO_MAX_DEPTH) return perr(p, i, "layout nested too deeply");
    } else if (c == ')' || c == ']') {
      if (--depth < 0) return perr(p, i, "unbalanced '%c' in layout", c);
    } else if (c == '}') {
      if (depth == 0) break;
      depth--;
    } else if (c == '\n') {
      return perr(p, i, "expected '}' at the end of the layout");
    }
  }
  if (i >= p->len) return perr(p, start, "unterminated layout");
  s->layout_tail = arena_strndup(&p->m->arena, p->src + start, i - start);
  if (!s->layout_tail) return poom(p);
  pseek(p, i + 1);
  return true;
}

static bool parse_layout(Parser *p, Shape *s) {
  size_t lpos = p->tok.pos;
  padvance(p); /* '{' */
  I64Vec m2m = {0};
  bool ok = true;
  while (ok && p->tok.kind == TOK_NUMBER) {
    int64_t v;
    ok = parse_dim_value(p, &v) && vec_push(p, &m2m, v);
    if (ok && !peat(p, TOK_COMMA)) break;
  }
  if (ok && m2m.n != s->rank)
    ok = perr(p, lpos, "layout has %d dimensions but the shape has rank %d", m2m.n, s->rank);
  if (ok) {
    /* minor_to_major must be a permutation of 0..rank-1. */
    for (int i = 0; ok && i < m2m.n; i++) {
      if (m2m.v[i] < 0 || m2m.v[i] >= s->rank) {
        ok = perr(p, lpos, "layout dimension %lld out of range", (long long)m2m.v[i]);
        break;
      }
      for (int j = 0; j < i; j++)
        if (m2m.v[j] == m2m.v[i]) {
          ok = perr(p, lpos, "layout repeats dimension %lld", (long long)m2m.v[i]);
          break;
        }
    }
  }
  if (ok) {
    s->has_layout = true;
    if (m2m.n && !(s->minor_to_major = arena_i64dup(&p->m->arena, m2m.v, (size_t)m2m.n)))
      ok = poom(p);
  }
  cxla_free(m2m.v);
  if (!ok) return false;
  if (p->tok.kind == TOK_COLON) return parse_layout_tail(p, s, p->tok.pos + 1);
  return pexpect(p, TOK_RBRACE, "'}' at the end of the layout");
}

static bool parse_array_shape(Parser *p, Shape **out) {
  ElemType t;
  type_from_name(p->tok.text, p->tok.len, &t);
  padvance(p);
  if (!pexpect(p, TOK_LSQUARE, "'[' after the element type")) return false;
  I64Vec dims = {0};
  bool *dyn = NULL;
  bool ok = true, any_dynamic = false;
  I64Vec dynflags = {0};
  if (p->tok.kind != TOK_RSQUARE) {
    for (;;) {
      bool d = false;
      if (p->tok.kind == TOK_LEQ) {
        padvance(p);
        d = any_dynamic = true;
      } else if (p->tok.kind == TOK_QUESTION) {
        ok = perr(p, p->tok.pos, "unbounded dynamic dimensions are not supported");
        break;
      }
      int64_t v;
      if (dims.n == HLO_MAX_RANK) {
        ok = perr(p, p->tok.pos, "shape has more than %d dimensions", HLO_MAX_RANK);
        break;
      }
      if (!(ok = parse_dim_value(p, &v) && vec_push(p, &dims, v) && vec_push(p, &dynflags, d)))
        break;
      if (!peat(p, TOK_COMMA)) break;
    }
  }
  if (ok) ok = pexpect(p, TOK_RSQUARE, "']' after the dimensions");
  if (ok && !type_is_array(t) && dims.n)
    ok = perr(p, p->tok.pos, "%s shapes have no dimensions", type_name(t));
  Shape *s = NULL;
  if (ok && !(s = shape_new(&p->m->arena, t, dims.n, dims.v))) ok = poom(p);
  if (ok && any_dynamic) {
    if (!(dyn = arena_array(&p->m->arena, (size_t)dims.n, sizeof(bool)))) {
      ok = poom(p);
    } else {
      for (int i = 0; i < dims.n; i++) dyn[i] = dynflags.v[i] != 0;
      s->dynamic = dyn;
    }
  }
  cxla_free(dims.v);
  cxla_free(dynflags.v);
  if (!ok) return false;
  if (p->tok.kind == TOK_LBRACE) {
    TokKind next = ppeek(p);
    if (next == TOK_NUMBER || next == TOK_COLON) {
      if (!type_is_array(t)) return perr(p, p->tok.pos, "%s shapes have no layout", type_name(t));
      if (!parse_layout(p, s)) return false;
    }
  }
  *out = s;
  return true;
}

static bool parse_tuple_shape(Parser *p, Shape **out) {
  size_t start = p->tok.pos;
  if (++p->depth > HLO_MAX_DEPTH) return perr(p, start, "shape nested too deeply");
  padvance(p); /* '(' */
  Shape **elems = NULL;
  int n = 0, cap = 0;
  bool ok = true;
  if (p->tok.kind != TOK_RPAREN) {
    for (;;) {
      Shape *e;
      if (!(ok = parse_shape(p, &e))) break;
      if (n == cap) {
        int nc = cap ? cap * 2 : 4;
        Shape **ne = cxla_realloc(elems, (size_t)nc * sizeof *ne);
        if (!ne) {
          ok = poom(p);
          break;
        }
        elems = ne;
        cap = nc;
      }
      elems[n++] = e;
      if (!peat(p, TOK_COMMA)) break;
    }
  }
  if (ok) ok = pexpect(p, TOK_RPAREN, "')' at the end of the tuple shape");
  Shape *s = NULL;
  if (ok && !(s = shape_new_tuple(&p->m->arena, n, elems))) ok = poom(p);
  cxla_free(elems);
  p->depth--;
  if (ok) *out = s;
  return ok;
}

bool parse_shape(Parser *p, Shape **out) {
  if (p->tok.kind == TOK_LPAREN) return parse_tuple_shape(p, out);
  if (!at_type_name(p)) return perr(p, p->tok.pos, "expected a shape");
  return parse_array_shape(p, out);
}
