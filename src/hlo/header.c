/* Module header attributes with a meaning cxla uses, read into the module's
 * typed fields (ir.h: EntryLayout, IoAlias) and printed back from them:
 *
 *   entry_computation_layout ::= '{' '(' (shape (',' shape)*)? ')' '->' shape '}'
 *   input_output_alias       ::= '{' (alias (',' alias)*)? '}'
 *   alias                    ::= index ':' '(' int ',' index (',' kind)? ')'
 *   index                    ::= '{' (int (',' int)*)? '}'
 *   kind                     ::= 'may-alias' | 'must-alias'
 *
 * No count is limited: lists grow on the heap and are copied to the module
 * arena when complete. */
#include <string.h>

#include "hlo/hlo.h"

/* Growable heap array of fixed-size elements. */
typedef struct Vec {
  void *v;
  int n, cap;
  size_t elem;
} Vec;

static void *vec_push(Parser *p, Vec *vec) {
  if (vec->n == vec->cap) {
    int nc = vec->cap ? vec->cap * 2 : 8;
    if (nc > (1 << 28)) return perr(p, p->tok.pos, "too many entries"), NULL;
    void *nv = cxla_realloc(vec->v, (size_t)nc * vec->elem);
    if (!nv) return poom(p), NULL;
    vec->v = nv;
    vec->cap = nc;
  }
  return (char *)vec->v + (size_t)vec->n++ * vec->elem;
}

/* Copies the vector's elements to the module arena (NULL for none). */
static bool vec_to_arena(Parser *p, const Vec *vec, void **out) {
  *out = NULL;
  if (vec->n == 0) return true;
  if (!(*out = arena_array(&p->m->arena, (size_t)vec->n, vec->elem))) return poom(p);
  memcpy(*out, vec->v, (size_t)vec->n * vec->elem);
  return true;
}

bool parse_entry_layout(Parser *p) {
  if (!pexpect(p, TOK_LBRACE, "'{' before the entry computation layout")) return false;
  if (!pexpect(p, TOK_LPAREN, "'(' before the entry parameter shapes")) return false;
  Vec params = {.elem = sizeof(Shape *)};
  bool ok = true;
  if (p->tok.kind != TOK_RPAREN) {
    for (;;) {
      Shape **slot = vec_push(p, &params);
      if (!(ok = slot && parse_shape(p, slot))) break;
      if (!peat(p, TOK_COMMA)) break;
    }
  }
  ok = ok && pexpect(p, TOK_RPAREN, "',' or ')' after an entry parameter shape") &&
       pexpect(p, TOK_ARROW, "'->' after the entry parameter shapes");
  Shape *result = NULL;
  ok = ok && parse_shape(p, &result) &&
       pexpect(p, TOK_RBRACE, "'}' at the end of the entry computation layout");
  EntryLayout *el = NULL;
  if (ok && !(el = arena_alloc(&p->m->arena, sizeof *el))) ok = poom(p);
  if (ok) {
    el->nparams = params.n;
    el->result = result;
    ok = vec_to_arena(p, &params, (void **)&el->params);
  }
  cxla_free(params.v);
  if (!ok) return false;
  p->m->entry_layout = el;
  return true;
}

static bool parse_index(Parser *p, I64List *out, const char *what) {
  if (!pexpect(p, TOK_LBRACE, what)) return false;
  Vec v = {.elem = sizeof(int64_t)};
  bool ok = true;
  while (ok && p->tok.kind == TOK_NUMBER) {
    Token t = p->tok;
    bool neg;
    uint64_t mag;
    if (t.is_float || t.is_hex || t.text[0] == '-' || !parse_int_token(p, &t, &neg, &mag) ||
        mag > INT64_MAX) {
      ok = perr(p, t.pos, "expected a shape index (non-negative integers)");
      break;
    }
    int64_t *slot = vec_push(p, &v);
    if (!(ok = slot != NULL)) break;
    *slot = (int64_t)mag;
    padvance(p);
    if (!peat(p, TOK_COMMA)) break;
  }
  ok = ok && pexpect(p, TOK_RBRACE, "',' or '}' in a shape index");
  if (ok) {
    out->n = v.n;
    ok = vec_to_arena(p, &v, (void **)&out->v);
  }
  cxla_free(v.v);
  return ok;
}

static bool parse_one_alias(Parser *p, IoAlias *a) {
  memset(a, 0, sizeof *a);
  if (!parse_index(p, &a->output_index, "'{' before an output shape index")) return false;
  if (!pexpect(p, TOK_COLON, "':' after the output shape index")) return false;
  if (!pexpect(p, TOK_LPAREN, "'(' before the aliased parameter")) return false;
  Token t = p->tok;
  bool neg;
  uint64_t mag;
  if (t.kind != TOK_NUMBER || t.is_float || t.is_hex || t.text[0] == '-')
    return pexpected(p, "a parameter number");
  if (!parse_int_token(p, &t, &neg, &mag)) return false;
  if (mag > INT32_MAX) return perr(p, t.pos, "parameter number too large");
  a->param_number = (int64_t)mag;
  padvance(p);
  if (!pexpect(p, TOK_COMMA, "',' after the parameter number")) return false;
  if (!parse_index(p, &a->param_index, "'{' before the parameter shape index")) return false;
  a->kind = ALIAS_MAY;
  if (peat(p, TOK_COMMA)) {
    if (tok_is(&p->tok, "must-alias")) {
      a->kind = ALIAS_MUST;
    } else if (!tok_is(&p->tok, "may-alias")) {
      return pexpected(p, "'may-alias' or 'must-alias'");
    }
    padvance(p);
  }
  return pexpect(p, TOK_RPAREN, "')' after the alias");
}

bool parse_io_alias(Parser *p) {
  if (!pexpect(p, TOK_LBRACE, "'{' before the input/output aliases")) return false;
  Vec v = {.elem = sizeof(IoAlias)};
  bool ok = true;
  while (ok && p->tok.kind == TOK_LBRACE) {
    IoAlias *slot = vec_push(p, &v);
    if (!(ok = slot && parse_one_alias(p, slot))) break;
    if (!peat(p, TOK_COMMA)) break;
  }
  ok = ok && pexpect(p, TOK_RBRACE, "'}' at the end of the input/output aliases");
  if (ok) {
    p->m->has_io_alias = true;
    p->m->nio_alias = v.n;
    ok = vec_to_arena(p, &v, (void **)&p->m->io_alias);
  }
  cxla_free(v.v);
  return ok;
}

/* ---- printing ------------------------------------------------------------------ */

static void print_index(StrBuf *b, const I64List *ix) {
  sb_putc(b, '{');
  for (int i = 0; i < ix->n; i++) sb_printf(b, "%s%lld", i ? "," : "", (long long)ix->v[i]);
  sb_putc(b, '}');
}

/* The verbatim attributes XLA prints before entry_computation_layout, in
 * its order (HloModule::Print): is_scheduled, then input_output_alias
 * (typed), then these two. Everything else it prints after. */
static bool printed_early(const char *name) {
  return strcmp(name, "is_scheduled") == 0 || strcmp(name, "buffer_donor") == 0 ||
         strcmp(name, "alias_passthrough_params") == 0;
}

static void print_raw_named(StrBuf *b, const HloModule *m, const char *name) {
  for (int i = 0; i < m->nraw; i++)
    if (strcmp(m->raw[i].name, name) == 0) sb_printf(b, ", %s=%s", m->raw[i].name, m->raw[i].value);
}

void hlo_print_header_attrs(StrBuf *b, const HloModule *m) {
  print_raw_named(b, m, "is_scheduled");
  if (m->has_io_alias) {
    sb_puts(b, ", input_output_alias={ ");
    for (int i = 0; i < m->nio_alias; i++) {
      const IoAlias *a = &m->io_alias[i];
      if (i) sb_puts(b, ", ");
      print_index(b, &a->output_index);
      sb_printf(b, ": (%lld, ", (long long)a->param_number);
      print_index(b, &a->param_index);
      sb_puts(b, a->kind == ALIAS_MUST ? ", must-alias)" : ", may-alias)");
    }
    sb_puts(b, " }");
  }
  print_raw_named(b, m, "buffer_donor");
  print_raw_named(b, m, "alias_passthrough_params");
  if (m->entry_layout) {
    const EntryLayout *el = m->entry_layout;
    sb_puts(b, ", entry_computation_layout={(");
    for (int i = 0; i < el->nparams; i++) {
      if (i) sb_puts(b, ", ");
      if (i && i % 5 == 0) sb_printf(b, "/*index=%d*/", i);
      hlo_print_shape(b, el->params[i], true);
    }
    sb_puts(b, ")->");
    hlo_print_shape(b, el->result, true);
    sb_putc(b, '}');
  }
  for (int i = 0; i < m->nraw; i++)
    if (!printed_early(m->raw[i].name)) sb_printf(b, ", %s=%s", m->raw[i].name, m->raw[i].value);
}
