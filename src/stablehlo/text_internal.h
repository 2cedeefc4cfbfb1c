/* text_internal.h: the StableHLO/MLIR text reader's shared state, between
 * the core parser (text_parser.c: characters, types, attributes, generic
 * ops, blocks and regions) and the pretty-form parsers (text_pretty.c). */
#ifndef CXLA_STABLEHLO_TEXT_INTERNAL_H
#define CXLA_STABLEHLO_TEXT_INTERNAL_H

#include "stablehlo/mlir.h"

/* One visible SSA name: %name, with its values (a result group %x:N has N). */
typedef struct ScopeEntry {
  const char *name;
  size_t len;
  MlirValue **vals;
  int nvals;
  int prev;        /* index of the entry this one shadows, or -1 */
} ScopeEntry;

typedef struct PendingResource {
  MlirAttr *attr;
  const char *name;
  size_t len;
  MlirPos pos;
} PendingResource;

typedef struct Alias {
  const char *name; /* without the sigil */
  size_t len;
  bool is_type;
  void *value;      /* MlirAttr* or MlirType* */
} Alias;

typedef struct P {
  const char *s;
  size_t n, i;
  MlirModule *m;
  Arena *a;
  cxla_status err;
  int depth;                 /* nesting guard */
  /* positions: the offsets where lines start, found as far as scanned */
  size_t *line_starts;
  size_t nlines, caplines, scanned;
  /* SSA names */
  ScopeEntry *stack;
  int nstack, capstack;
  int *table;                /* hash of name -> top entry (index), -1 empty */
  const char **tnames;
  size_t *tlens;
  size_t tcap, tused;
  int iso_base;              /* entries below are not visible (isolated) */
  /* dense_resource uses, resolved at the end */
  PendingResource *pend;
  int npend, cappend;
  Alias *aliases;
  int naliases, capaliases;
  int *atab;                 /* hash of (sigil, name) -> alias index, -1 empty */
  size_t acap;
} P;

/* A growable array of pointers in the arena. */
typedef struct PtrVec {
  void **v;
  int n, cap;
} PtrVec;
bool tx_pv_push(P *p, PtrVec *v, void *x);

#define MAX_DEPTH 200

/* ---- errors and positions ---- */
bool tx_perr(P *p, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;
/* perr at a given offset. */
bool tx_perr_at(P *p, size_t off, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 3, 4)))
#endif
    ;
MlirPos tx_pos_at(P *p, size_t off);
bool tx_oom(P *p);

/* ---- characters ---- */
void tx_ws(P *p);                       /* skips blanks and // comments */
bool tx_peek(P *p, char c);             /* after ws */
bool tx_peek_str(P *p, const char *s);  /* after ws: the text starts with s */
bool tx_eat(P *p, char c);              /* after ws: consumes c if there */
bool tx_expect(P *p, char c, const char *what);
bool tx_eat_kw(P *p, const char *kw);   /* a whole keyword (not a prefix) */
bool tx_expect_kw(P *p, const char *kw);
bool tx_eat_arrow(P *p);                /* "->" */
/* A bare identifier [A-Za-z_][A-Za-z0-9_$.]*: start/len; false if none. */
bool tx_ident(P *p, const char **s, size_t *len);
bool tx_parse_i64(P *p, int64_t *out);
bool tx_is_ident_char(char c);

/* ---- values ---- */
/* Reads a use "%name" or "%name#k"; the value must be defined. */
bool tx_parse_use(P *p, MlirValue **out);
/* Defines %name with vals (copied pointer array). */
bool tx_define_name(P *p, const char *name, size_t len, MlirValue **vals, int n, size_t off);
/* Reads "%name" (a definition spelling, no #); returns its text. */
bool tx_parse_def_name(P *p, const char **name, size_t *len);
int tx_scope_mark(P *p);
void tx_scope_pop(P *p, int mark);

/* ---- types and attributes ---- */
bool tx_parse_type(P *p, MlirType **out);
/* A comma-separated type list, in parentheses if `paren`, into v. */
bool tx_parse_type_list_paren(P *p, PtrVec *v);
bool tx_parse_attr(P *p, MlirAttr **out);
/* "{a = 1, b}" into entries; the '{' is next. */
bool tx_parse_attr_dict(P *p, PtrVec *names, PtrVec *values);
MlirType *tx_type_new(P *p, MlirTypeKind k);
MlirType *tx_type_elem(P *p, cxla_type t);
MlirType *tx_type_tensor_like(P *p, const MlirType *like, MlirType *element);
MlirAttr *tx_attr_new(P *p, MlirAttrKind k);
MlirAttr *tx_attr_i64_array(P *p, const int64_t *v, int n);
MlirAttr *tx_attr_bool_array(P *p, const int64_t *v, int n);
MlirAttr *tx_attr_int(P *p, int64_t v, cxla_type t);
MlirAttr *tx_attr_bool(P *p, bool v);
MlirAttr *tx_attr_enum(P *p, MlirEnumKind k, const char *name, size_t len);
/* A list of integers in brackets: [1, 2, 3] (also [] ). */
bool tx_parse_i64_list(P *p, MlirI64s *out);
/* An enum case name as an identifier (upper case), checked against kind. */
bool tx_parse_enum_case(P *p, MlirEnumKind k, MlirAttr **out);

/* ---- ops ---- */
/* The op being built. */
typedef struct OpB {
  MlirOp *op;
  PtrVec operands;           /* MlirValue* */
  PtrVec anames, avals;      /* attributes */
  PtrVec rtypes;             /* result types */
  PtrVec regions;            /* MlirRegion* */
  int nres_expected;         /* from "%x:N =" etc, -1 when unknown */
} OpB;
bool tx_opb_attr(P *p, OpB *b, const char *name, MlirAttr *v);
/* An entry-block argument given by the op's own syntax (func.func's
 * arguments, while's iterArgs, reduce's reducer(...)). name may be NULL. */
typedef struct EntryArg {
  MlirType *type;
  const char *name;
  size_t len;
  size_t off;
} EntryArg;
/* Parses "{ ... }": with has_entry, the first block's arguments are `args`
 * (and no ^label may be written); else a label may give them. */
bool tx_parse_region(P *p, MlirOp *parent, MlirRegion **out, const EntryArg *args, int nargs,
                  bool has_entry);
/* Parses a block's ops up to the closing '}' or the next label into blk. */
bool tx_parse_block_body(P *p, MlirBlock *blk);
MlirBlock *tx_block_new(P *p, MlirRegion *parent, size_t off);
/* Allocates blk's arguments and defines their names in the current scope. */
bool tx_block_set_args(P *p, MlirBlock *blk, const EntryArg *args, int n);
/* A region of one block built by the reader itself (reduce's `applies`). */
MlirRegion *tx_region_new(P *p, MlirOp *parent);
/* ": (T, ...) -> R" or ": T -> R" functional signature after ':'. */
bool tx_parse_functional_type(P *p, PtrVec *ins, PtrVec *outs);
bool tx_parse_trailing_loc(P *p);
/* A balanced <...> group kept as MA_OPAQUE text. */
bool tx_opaque_group(P *p, MlirAttr **out);

/* Pretty forms (text_pretty.c): returns true when it handled op `name`;
 * *handled false if the op has no pretty parser. */
bool tx_parse_pretty_op(P *p, const char *name, OpB *b, bool *handled);

#endif
