/* hlo.h: internals of the HLO text reader and printer (src/hlo/).
 *
 *   lexer.c         tokens, input validation, "file:line:col" error messages
 *   parser.c        module / computation / instruction structure, name
 *                   resolution, ordering; cxla_module_parse{,_file}
 *   parse_shape.c   shapes and layouts
 *   parse_attrs.c   instruction attributes: typed ones into Instr fields,
 *                   the rest kept verbatim
 *   parse_literal.c constant literals
 *   header.c        typed module header attributes (entry_computation_layout,
 *                   input_output_alias): reading and printing
 *   printer.c       canonical text; cxla_module_print
 *
 * Ownership: a Parser borrows the source text; everything it builds lives in
 * the module it creates (module arena, module-owned literals). Its own
 * scratch tables are heap memory freed by parser_finish(). */
#ifndef CXLA_HLO_H
#define CXLA_HLO_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "ir/ir.h"

/* Maximum nesting of tuples, literals and bracketed attribute values. Deeper
 * input is refused, so recursion stays far from the stack's limit. */
#define HLO_MAX_DEPTH 500
/* Maximum rank of a shape (far above any real program; keeps code that
 * walks dimensions recursively, like the literal printer, safe). */
#define HLO_MAX_RANK 256

/* ---- lexer -------------------------------------------------------------------- */

typedef enum TokKind {
  TOK_EOF,
  TOK_ERROR,   /* lexing failed; Lexer.error says why */
  TOK_IDENT,   /* [A-Za-z_][A-Za-z0-9_.-]*, optionally after '%' */
  TOK_NUMBER,  /* -?digits[.digits][e[+-]digits], -inf, -nan, 0x... */
  TOK_STRING,  /* "..." or '...' (text still escaped) */
  TOK_LPAREN, TOK_RPAREN, TOK_LBRACE, TOK_RBRACE, TOK_LSQUARE, TOK_RSQUARE,
  TOK_COMMA, TOK_COLON, TOK_EQUAL, TOK_ARROW /* -> */, TOK_LEQ /* <= */,
  TOK_QUESTION, TOK_DOTS /* ... */,
} TokKind;

typedef struct Token {
  TokKind kind;
  size_t pos;        /* offset of the token's first byte (the '%' if any) */
  const char *text;  /* identifiers: the name without '%'; strings: the body
                        without quotes; others: the whole token */
  size_t len;
  bool percent;      /* identifier written with '%' */
  bool is_float;     /* number with '.', an exponent, or -inf/-nan */
  bool is_hex;       /* number 0x... */
} Token;

typedef struct Lexer {
  const char *src;
  size_t len, pos;
  const char *error; /* message for TOK_ERROR (static string) */
} Lexer;

void lexer_init(Lexer *lx, const char *src, size_t len);
/* Scans the next token from lx->pos, skipping whitespace and comments. */
Token lexer_next(Lexer *lx);
/* Offset of the first byte that is not valid UTF-8 text for HLO (NUL,
 * control characters other than tab/CR/LF, malformed UTF-8), or len if the
 * whole input is fine; *why says what is wrong. */
size_t hlo_check_text(const char *src, size_t len, const char **why);
/* Builds the "file:line:col: error: msg" status with the source line and a
 * caret under pos. */
cxla_status hlo_error_at(cxla_status_code code, const char *file, const char *src,
                         size_t len, size_t pos, const char *msg);
static inline bool tok_is(const Token *t, const char *word) {
  size_t n = 0;
  while (word[n]) n++;
  return t->kind == TOK_IDENT && t->len == n && __builtin_memcmp(t->text, word, n) == 0;
}

/* ---- parser ------------------------------------------------------------------------ */

/* A name used before it can be resolved: an operand or control predecessor
 * (resolved when its computation ends) or a called computation (resolved
 * when the module ends). */
typedef struct Fixup {
  Instr *in;
  Instr **slot_instr;       /* operand / control-predecessor slot, or NULL */
  Computation **slot_comp;  /* called-computation slot, or NULL */
  const char *name;         /* points into the source text */
  size_t len;
  size_t pos;               /* where the name was written (for errors) */
} Fixup;

typedef struct Parser {
  const char *src;
  size_t len;
  const char *file;
  Lexer lx;
  Token tok;             /* the current token */
  HloModule *m;
  cxla_status err;       /* first error; parsing stops once set */
  int depth;             /* current nesting depth (tuples, literals) */
  Computation *comp;     /* the computation being read */
  NameMap instr_names;   /* names in the current computation */
  NameMap comp_names;    /* computation names in the module */
  Fixup *ifix;           /* pending instruction references */
  int nifix, capifix;
  Fixup *cfix;           /* pending computation references */
  int ncfix, capcfix;
  size_t *instr_pos;     /* source offset of each instruction's name, by the
                            order of creation in the current computation */
  int cap_instr_pos;
  size_t *comp_pos;      /* source offset of each computation's name, in
                            the order they were read */
  int cap_comp_pos;
} Parser;

/* Error reporting: records the first error (with location) and returns
 * false, so callers can write `return perr(p, pos, "...")`. */
bool perr(Parser *p, size_t pos, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 3, 4)))
#endif
    ;
bool perr_code(Parser *p, cxla_status_code code, size_t pos, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 4, 5)))
#endif
    ;
bool poom(Parser *p);

/* Token stream. */
void padvance(Parser *p);
/* Consumes the current token if it has kind k. */
bool peat(Parser *p, TokKind k);
/* Consumes a token of kind k or fails with "expected <what>". */
bool pexpect(Parser *p, TokKind k, const char *what);
/* Fails with "expected <what>, found <the current token>". */
bool pexpected(Parser *p, const char *what);
/* Kind of the token after the current one. */
TokKind ppeek(Parser *p);
/* Makes the lexer continue at byte offset pos (after a value that was read
 * character by character). */
void pseek(Parser *p, size_t pos);

/* Records a pending reference; false on OOM. */
bool add_instr_fixup(Parser *p, Instr *in, Instr **slot, const char *name, size_t len,
                     size_t pos);
bool add_comp_fixup(Parser *p, Instr *in, Computation **slot, const char *name,
                    size_t len, size_t pos);

/* parse_shape.c: shape ::= type '[' dims ']' layout? | '(' shape, ... ')' */
bool parse_shape(Parser *p, Shape **out);
/* True if the current token starts a shape: '(' or a type name followed by
 * '[' (a type name alone is a name). */
bool at_shape(Parser *p);

/* parse_attrs.c: reads ", name=value" pairs after an instruction's operands
 * into `in` (typed fields, called computations, control predecessors, raw
 * attributes). */
bool parse_instr_attrs(Parser *p, Instr *in);
/* Captures a verbatim attribute value starting at byte offset pos; sets *end
 * to the offset just after it. Used for module header attributes too. */
bool scan_raw_value(Parser *p, size_t pos, bool allow_empty, size_t *end);

/* header.c: the values of entry_computation_layout and input_output_alias
 * (the current token is the one after '='), into the module's typed
 * fields. */
bool parse_entry_layout(Parser *p);
bool parse_io_alias(Parser *p);

/* parse_literal.c: the literal inside constant(...), for shape s. */
bool parse_literal(Parser *p, const Shape *s, Literal **out);
/* Decodes a number token for float type t into raw bits / a double. */
bool parse_int_token(Parser *p, const Token *t, bool *neg, uint64_t *mag);

/* For float types with IEEE-style NaNs (f16, bf16, f32, f64, f8e5m2,
 * f8e4m3, f8e3m4): their exponent and mantissa widths. False otherwise. */
bool hlo_ieee_nan_format(ElemType t, int *ebits, int *mbits);

/* ---- printer helpers ----------------------------------------------------------------- */

/* Appends the text form of a shape as XLA writes it ("f32[2,3]{1,0}",
 * "token[]", "(f32[], s32[])"). */
void hlo_print_shape(StrBuf *b, const Shape *s, bool layout);
/* Appends the module header's attributes (", name=value" each): typed ones
 * and the verbatim rest, in XLA's order. */
void hlo_print_header_attrs(StrBuf *b, const HloModule *m);
/* Appends a literal's value as constant(...) takes it. */
void hlo_print_literal(StrBuf *b, const Literal *l);
/* Appends s as a double-quoted string with C escapes. */
void hlo_print_string(StrBuf *b, const char *s);
/* Unescapes a quoted string body into the arena; NULL on a bad escape
 * (*bad_at = offset of the bad escape within body). */
char *hlo_unescape(Arena *a, const char *body, size_t len, size_t *bad_at);

#endif
