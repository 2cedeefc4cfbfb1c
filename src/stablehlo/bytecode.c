/* bytecode.c: the MLIR bytecode container (MLIR's docs/BytecodeFormat.md),
 * versions 1 to 6, and the builtin dialect's attribute and type encodings.
 *
 * Layout: magic "ML\xEFR", version (varint), producer (NUL-terminated), then
 * sections (id byte with an alignment flag in bit 7, varint length, optional
 * alignment and 0xCB padding): strings, dialects and op names, attribute and
 * type offsets and data, properties, resources, and the IR. Attributes and
 * types are decoded on first use and memoized; values are numbered per
 * isolated region as the writer numbered them and given module-wide ids.
 *
 * Every length and count read from the file is checked against the bytes
 * that remain before anything is allocated for it. */
#include "stablehlo/bytecode.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

enum {
  SEC_STRING = 0,
  SEC_DIALECT = 1,
  SEC_ATTR_TYPE = 2,
  SEC_ATTR_TYPE_OFFSET = 3,
  SEC_IR = 4,
  SEC_RESOURCE = 5,
  SEC_RESOURCE_OFFSET = 6,
  SEC_DIALECT_VERSIONS = 7,
  SEC_PROPERTIES = 8,
  SEC_COUNT = 9,
};

static const char *const SECTION_NAMES[SEC_COUNT] = {
    "string", "dialect", "attribute/type", "attribute/type offset", "IR",
    "resource", "resource offset", "dialect version", "properties"};

/* Versions of the format that changed what this reader reads. */
enum {
  V_DIALECT_VERSIONING = 1,
  V_LAZY_LOADING = 2,
  V_USE_LIST_ORDERING = 3,
  V_ELIDE_UNKNOWN_BLOCK_ARG_LOC = 4,
  V_NATIVE_PROPERTIES = 5,
  V_MAX = 6,
};

#define OP_HAS_ATTRS 0x01
#define OP_HAS_RESULTS 0x02
#define OP_HAS_OPERANDS 0x04
#define OP_HAS_SUCCESSORS 0x08
#define OP_HAS_INLINE_REGIONS 0x10
#define OP_HAS_USE_LIST_ORDERS 0x20
#define OP_HAS_PROPERTIES 0x40

#define MAX_NESTING 200 /* attribute/type and region nesting */

typedef struct Entry {
  const uint8_t *data;
  size_t len;
  uint32_t dialect;
  bool custom;
  uint8_t state; /* 0 not read, 1 being read, 2 done */
  const void *value;
} Entry;

/* VHLO ops, from StableHLO's VhloOps.td (vhlo_ops.def). */
static const BcVhloOp VHLO_OPS[] = {
#define VHLO_OP(m, base, lo, hi, attrs, nops, nres, nreg) {m, base, attrs, nops, nres, nreg},
#include "stablehlo/vhlo_ops.def"
#undef VHLO_OP
};

static const BcVhloOp *vhlo_op_info(const char *name) {
  for (size_t i = 0; i < sizeof VHLO_OPS / sizeof VHLO_OPS[0]; i++)
    if (!strcmp(VHLO_OPS[i].mnemonic, name)) return &VHLO_OPS[i];
  return NULL;
}

typedef struct OpName {
  uint32_t dialect;
  const char *name;
  const BcVhloOp *vhlo; /* a known VHLO op, else NULL */
} OpName;

typedef struct Scope {
  uint32_t *ids; /* local value index -> module-wide id (UINT32_MAX: not yet) */
  size_t size, cap;
  /* Values declared by the open regions but not defined yet: each needs at
   * least a byte further on, which bounds what a region may declare. */
  size_t pending;
} Scope;

struct BcFile {
  BcModule *m;
  Arena *arena;
  const uint8_t *base;
  size_t size;
  const char *filename;
  uint64_t version;
  const uint8_t *sec[SEC_COUNT];
  size_t seclen[SEC_COUNT];
  bool have[SEC_COUNT];
  const char **strs;
  size_t *strlens;
  size_t nstrings;
  const char **dialects;
  size_t ndialects;
  int dialect_builtin, dialect_vhlo;
  OpName *opnames;
  size_t nopnames;
  Entry *attrs, *types;
  size_t nattrs, ntypes;
  const uint8_t **props;
  size_t *proplens;
  size_t nprops;
  const BcType **vtypes;
  size_t nvalues, capvalues;
  int depth;
};

/* ---- primitives ------------------------------------------------------------ */

cxla_status bc_error(const BcReader *r, const char *fmt, ...) {
  char msg[512];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(msg, sizeof msg, fmt, ap);
  va_end(ap);
  const BcFile *f = r->f;
  size_t off = r->p >= f->base && r->p <= f->base + f->size ? (size_t)(r->p - f->base) : 0;
  return ERR(INVALID_ARGUMENT, "%s: byte %zu (%s): %s", f->filename ? f->filename : "<bytecode>", off,
             r->section ? r->section : "file header", msg);
}

static size_t left(const BcReader *r) { return (size_t)(r->end - r->p); }

cxla_status bc_byte(BcReader *r, uint8_t *out) {
  *out = 0;
  if (r->p >= r->end) return bc_error(r, "unexpected end of data, expected a byte");
  *out = *r->p++;
  return NULL;
}

cxla_status bc_varint(BcReader *r, uint64_t *out) {
  *out = 0;
  if (r->p >= r->end) return bc_error(r, "unexpected end of data, expected a varint");
  uint8_t first = r->p[0];
  if (first & 1) {
    *out = first >> 1;
    r->p++;
    return NULL;
  }
  if (first == 0) { /* 9 bytes: a full 64-bit value follows */
    if (left(r) < 9) return bc_error(r, "truncated 9-byte varint");
    uint64_t v = 0;
    for (int i = 8; i >= 1; i--) v = (v << 8) | r->p[i];
    r->p += 9;
    *out = v;
    return NULL;
  }
  int extra = __builtin_ctz(first); /* 1..7 additional bytes */
  if (left(r) < (size_t)extra + 1) return bc_error(r, "truncated %d-byte varint", extra + 1);
  uint64_t v = 0;
  for (int i = extra; i >= 0; i--) v = (v << 8) | r->p[i];
  r->p += extra + 1;
  *out = v >> (extra + 1);
  return NULL;
}

cxla_status bc_svarint(BcReader *r, int64_t *out) {
  uint64_t v;
  *out = 0;
  TRY(bc_varint(r, &v));
  *out = (int64_t)((v >> 1) ^ (~(v & 1) + 1));
  return NULL;
}

cxla_status bc_count(BcReader *r, uint64_t *out) {
  TRY(bc_varint(r, out));
  if (*out > left(r)) return bc_error(r, "count %llu exceeds the %zu bytes left", (unsigned long long)*out, left(r));
  return NULL;
}

static cxla_status bc_bytes(BcReader *r, uint64_t n, const uint8_t **out) {
  if (n > left(r)) return bc_error(r, "%llu bytes expected, only %zu left", (unsigned long long)n, left(r));
  *out = r->p;
  r->p += n;
  return NULL;
}

cxla_status bc_blob(BcReader *r, const uint8_t **data, size_t *len) {
  uint64_t n;
  TRY(bc_varint(r, &n));
  TRY(bc_bytes(r, n, data));
  *len = (size_t)n;
  return NULL;
}

void *bc_alloc(BcReader *r, size_t n, size_t size) { return arena_array(r->f->arena, n ? n : 1, size); }

static cxla_status index_in(BcReader *r, uint64_t idx, size_t n, const char *what) {
  if (idx >= n) return bc_error(r, "%s index %llu out of range (%zu %ss)", what, (unsigned long long)idx, n, what);
  return NULL;
}

cxla_status bc_string_ref(BcReader *r, const char **s, size_t *len) {
  uint64_t idx;
  TRY(bc_varint(r, &idx));
  TRY(index_in(r, idx, r->f->nstrings, "string"));
  *s = r->f->strs[idx];
  *len = r->f->strlens[idx];
  return NULL;
}

cxla_status bc_apint(BcReader *r, int bits, uint64_t *out) {
  if (bits <= 8) {
    uint8_t b;
    TRY(bc_byte(r, &b));
    *out = b;
    return NULL;
  }
  if (bits <= 64) {
    int64_t v;
    TRY(bc_svarint(r, &v));
    *out = (uint64_t)v;
    return NULL;
  }
  /* Wider: the active words, each a signed varint; keep the low word. */
  uint64_t nwords;
  TRY(bc_count(r, &nwords));
  *out = 0;
  for (uint64_t i = 0; i < nwords; i++) {
    int64_t w;
    TRY(bc_svarint(r, &w));
    if (i == 0) *out = (uint64_t)w;
  }
  return NULL;
}

/* A nested section header (dialect versions, isolated regions). */
static cxla_status section_header(BcReader *r, uint8_t *id, const uint8_t **data, size_t *len) {
  uint8_t b;
  TRY(bc_byte(r, &b));
  *id = b & 0x7f;
  uint64_t n;
  TRY(bc_varint(r, &n));
  if (b & 0x80) {
    uint64_t align;
    TRY(bc_varint(r, &align));
    if (align == 0 || (align & (align - 1)) || align > 4096)
      return bc_error(r, "section alignment %llu is not a power of two up to 4096", (unsigned long long)align);
    while ((size_t)(r->p - r->f->base) & (align - 1)) {
      uint8_t pad;
      TRY(bc_byte(r, &pad));
      if (pad != 0xCB) return bc_error(r, "expected alignment padding byte 0xCB, got 0x%02x", pad);
    }
  }
  TRY(bc_bytes(r, n, data));
  *len = (size_t)n;
  return NULL;
}

static BcReader reader_for(BcFile *f, const uint8_t *p, size_t n, const char *section) {
  BcReader r = {f, p, p + n, section, 0};
  return r;
}

/* ---- attributes and types ---------------------------------------------------- */

static cxla_status read_builtin_attr(BcReader *r, const BcAttr **out);
static cxla_status read_builtin_type(BcReader *r, const BcType **out);

static cxla_status resolve(BcReader *from, Entry *e, bool is_attr, const void **out) {
  BcFile *f = from->f;
  if (e->state == 2) {
    *out = e->value;
    return NULL;
  }
  if (e->state == 1) return bc_error(from, "%s refers to itself", is_attr ? "attribute" : "type");
  if (f->depth >= MAX_NESTING) return bc_error(from, "attributes/types nested deeper than %d", MAX_NESTING);
  e->state = 1;
  f->depth++;
  BcReader r = reader_for(f, e->data, e->len, is_attr ? "attribute/type section, an attribute" : "attribute/type section, a type");
  cxla_status s = NULL;
  const char *dname = f->dialects[e->dialect];
  if (!e->custom) {
    /* The textual assembly format, NUL-terminated: kept as an opaque name. */
    if (e->len == 0 || e->data[e->len - 1] != 0) {
      s = bc_error(&r, "%s in assembly format is not NUL-terminated", is_attr ? "attribute" : "type");
    } else if (is_attr) {
      BcAttr *a = bc_alloc(&r, 1, sizeof *a);
      if (!a) s = cxla_oom();
      else {
        a->kind = BCA_OTHER;
        a->name = (const char *)e->data;
        e->value = a;
      }
    } else {
      BcType *t = bc_alloc(&r, 1, sizeof *t);
      if (!t) s = cxla_oom();
      else {
        t->kind = BCT_OTHER;
        t->name = (const char *)e->data;
        e->value = t;
      }
    }
  } else if ((int)e->dialect == f->dialect_vhlo) {
    s = is_attr ? bc_vhlo_read_attr(&r, (const BcAttr **)&e->value)
                : bc_vhlo_read_type(&r, (const BcType **)&e->value);
  } else if ((int)e->dialect == f->dialect_builtin) {
    s = is_attr ? read_builtin_attr(&r, (const BcAttr **)&e->value)
                : read_builtin_type(&r, (const BcType **)&e->value);
  } else if (is_attr) {
    /* Another dialect's attribute (e.g. sdy shardings): opaque. */
    BcAttr *a = bc_alloc(&r, 1, sizeof *a);
    if (!a) s = cxla_oom();
    else {
      a->kind = BCA_OTHER;
      a->name = dname;
      e->value = a;
    }
  } else {
    BcType *t = bc_alloc(&r, 1, sizeof *t);
    if (!t) s = cxla_oom();
    else {
      t->kind = BCT_OTHER;
      t->name = dname;
      e->value = t;
    }
  }
  f->depth--;
  if (s) {
    e->state = 0;
    return s;
  }
  e->state = 2;
  *out = e->value;
  return NULL;
}

cxla_status bc_attr_ref(BcReader *r, const BcAttr **out) {
  uint64_t idx;
  TRY(bc_varint(r, &idx));
  TRY(index_in(r, idx, r->f->nattrs, "attribute"));
  return resolve(r, &r->f->attrs[idx], true, (const void **)out);
}

cxla_status bc_type_ref(BcReader *r, const BcType **out) {
  uint64_t idx;
  TRY(bc_varint(r, &idx));
  TRY(index_in(r, idx, r->f->ntypes, "type"));
  return resolve(r, &r->f->types[idx], false, (const void **)out);
}

static cxla_status attr_list(BcReader *r, const BcAttr ***out, size_t *n) {
  uint64_t cnt;
  TRY(bc_count(r, &cnt));
  const BcAttr **v = bc_alloc(r, cnt, sizeof *v);
  if (!v) return cxla_oom();
  for (uint64_t i = 0; i < cnt; i++) TRY(bc_attr_ref(r, &v[i]));
  *out = v;
  *n = (size_t)cnt;
  return NULL;
}

static cxla_status type_list(BcReader *r, const BcType ***out, size_t *n) {
  uint64_t cnt;
  TRY(bc_count(r, &cnt));
  const BcType **v = bc_alloc(r, cnt, sizeof *v);
  if (!v) return cxla_oom();
  for (uint64_t i = 0; i < cnt; i++) TRY(bc_type_ref(r, &v[i]));
  *out = v;
  *n = (size_t)cnt;
  return NULL;
}

static int type_bits(const BcType *t) {
  switch (t->kind) {
  case BCT_BOOL: return 1;
  case BCT_INT: case BCT_FLOAT: return t->bits;
  case BCT_INDEX: return 64;
  default: return 0;
  }
}

/* A dictionary's entries: count, then (string attr, attr) pairs. */
cxla_status bc_dict_attr(BcReader *r, BcAttr *a) {
  uint64_t cnt;
  TRY(bc_count(r, &cnt));
  a->kind = BCA_DICT;
  a->keys = bc_alloc(r, cnt, sizeof *a->keys);
  a->elems = bc_alloc(r, cnt, sizeof *a->elems);
  if (!a->keys || !a->elems) return cxla_oom();
  for (uint64_t i = 0; i < cnt; i++) {
    TRY(bc_attr_ref(r, &a->keys[i]));
    if (a->keys[i]->kind != BCA_STRING) return bc_error(r, "dictionary key is not a string");
    TRY(bc_attr_ref(r, &a->elems[i]));
  }
  a->n = (size_t)cnt;
  return NULL;
}

static cxla_status read_builtin_attr(BcReader *r, const BcAttr **out) {
  uint64_t code;
  TRY(bc_varint(r, &code));
  BcAttr *a = bc_alloc(r, 1, sizeof *a);
  if (!a) return cxla_oom();
  *out = a;
  switch (code) {
  case 0: /* ArrayAttr */
    a->kind = BCA_ARRAY;
    return attr_list(r, &a->elems, &a->n);
  case 1: /* DictionaryAttr: (StringAttr name, Attribute value)[] */
    return bc_dict_attr(r, a);
  case 2: /* StringAttr */
    a->kind = BCA_STRING;
    return bc_string_ref(r, &a->str, &a->len);
  case 3: /* StringAttr with a type */
    a->kind = BCA_STRING;
    TRY(bc_string_ref(r, &a->str, &a->len));
    return bc_type_ref(r, &a->type);
  case 4: { /* FlatSymbolRefAttr */
    const BcAttr *root;
    TRY(bc_attr_ref(r, &root));
    if (root->kind != BCA_STRING) return bc_error(r, "symbol reference root is not a string");
    a->kind = BCA_SYMREF;
    a->str = root->str;
    a->len = root->len;
    return NULL;
  }
  case 5: { /* SymbolRefAttr: root, nested references */
    const BcAttr *root;
    TRY(bc_attr_ref(r, &root));
    if (root->kind != BCA_STRING) return bc_error(r, "symbol reference root is not a string");
    a->kind = BCA_SYMREF;
    a->str = root->str;
    a->len = root->len;
    return attr_list(r, &a->elems, &a->n);
  }
  case 6: /* TypeAttr */
    a->kind = BCA_TYPE;
    return bc_type_ref(r, &a->type);
  case 7: a->kind = BCA_UNIT; return NULL;
  case 8: { /* IntegerAttr */
    a->kind = BCA_INT;
    TRY(bc_type_ref(r, &a->type));
    int bits = type_bits(a->type);
    if (!bits) return bc_error(r, "integer attribute of a non-integer type");
    uint64_t v;
    TRY(bc_apint(r, bits, &v));
    if (bits < 64 && a->type->kind != BCT_BOOL && !a->type->is_unsigned) {
      uint64_t sign = (uint64_t)1 << (bits - 1);
      v &= (sign << 1) - 1;
      v = (v ^ sign) - sign;
    }
    a->i = (int64_t)v;
    return NULL;
  }
  case 9: { /* FloatAttr */
    a->kind = BCA_FLOAT;
    TRY(bc_type_ref(r, &a->type));
    if (a->type->kind != BCT_FLOAT) return bc_error(r, "float attribute of a non-float type");
    TRY(bc_apint(r, a->type->bits, &a->bits));
    return NULL;
  }
  case 10: /* CallSiteLoc */
  case 14: { /* NameLoc */
    const BcAttr *x, *y;
    TRY(bc_attr_ref(r, &x));
    TRY(bc_attr_ref(r, &y));
    a->kind = BCA_LOC;
    return NULL;
  }
  case 11: { /* FileLineColLoc */
    const BcAttr *file;
    uint64_t line, col;
    TRY(bc_attr_ref(r, &file));
    TRY(bc_varint(r, &line));
    TRY(bc_varint(r, &col));
    a->kind = BCA_LOC;
    return NULL;
  }
  case 12: /* FusedLoc */
    a->kind = BCA_LOC;
    return attr_list(r, &a->elems, &a->n);
  case 13: { /* FusedLoc with metadata */
    a->kind = BCA_LOC;
    TRY(attr_list(r, &a->elems, &a->n));
    const BcAttr *md;
    return bc_attr_ref(r, &md);
  }
  case 15: a->kind = BCA_LOC; return NULL;
  case 17: { /* DenseArrayAttr: element type, size, blob */
    a->kind = BCA_DENSE_ARRAY;
    uint64_t size;
    TRY(bc_type_ref(r, &a->type));
    TRY(bc_varint(r, &size));
    a->i = (int64_t)(size > INT64_MAX ? INT64_MAX : size);
    return bc_blob(r, &a->data, &a->len);
  }
  case 18: /* DenseIntOrFPElementsAttr */
    a->kind = BCA_TENSOR;
    TRY(bc_type_ref(r, &a->type));
    return bc_blob(r, &a->data, &a->len);
  default:
    /* Resources, sparse and string elements, newer location kinds: kept
     * opaque (an error only where an op needs the value). */
    a->kind = BCA_OTHER;
    a->name = "builtin attribute";
    return NULL;
  }
}

static cxla_status read_builtin_type(BcReader *r, const BcType **out) {
  uint64_t code;
  TRY(bc_varint(r, &code));
  BcType *t = bc_alloc(r, 1, sizeof *t);
  if (!t) return cxla_oom();
  *out = t;
  switch (code) {
  case 0: { /* IntegerType: width << 2 | signedness (0 signless, 1 signed, 2 unsigned) */
    uint64_t v;
    TRY(bc_varint(r, &v));
    uint64_t width = v >> 2;
    if (width == 1) {
      t->kind = BCT_BOOL;
      t->bits = 1;
      return NULL;
    }
    if (width == 0 || width > 64) return bc_error(r, "integer type of width %llu", (unsigned long long)width);
    t->kind = BCT_INT;
    t->bits = (int)width;
    t->is_unsigned = (v & 3) == 2;
    return NULL;
  }
  case 1: t->kind = BCT_INDEX; t->bits = 64; return NULL;
  case 2:
    t->kind = BCT_FUNCTION;
    TRY(type_list(r, &t->types, &t->n));
    return type_list(r, &t->results, &t->nresults);
  case 3: t->kind = BCT_FLOAT; t->fkind = BCF_BF16; t->bits = 16; return NULL;
  case 4: t->kind = BCT_FLOAT; t->fkind = BCF_F16; t->bits = 16; return NULL;
  case 5: t->kind = BCT_FLOAT; t->fkind = BCF_F32; t->bits = 32; return NULL;
  case 6: t->kind = BCT_FLOAT; t->fkind = BCF_F64; t->bits = 64; return NULL;
  case 7: t->kind = BCT_FLOAT; t->fkind = BCF_F80; t->bits = 80; return NULL;
  case 8: t->kind = BCT_FLOAT; t->fkind = BCF_F128; t->bits = 128; return NULL;
  case 9: t->kind = BCT_COMPLEX; return bc_type_ref(r, &t->elem);
  case 12: t->kind = BCT_NONE; return NULL;
  case 14: /* RankedTensorType with an encoding */
    TRY(bc_attr_ref(r, &t->encoding));
    /* fall through */
  case 13: { /* RankedTensorType */
    uint64_t rank;
    TRY(bc_count(r, &rank));
    int64_t *shape = bc_alloc(r, rank, sizeof *shape);
    if (!shape) return cxla_oom();
    for (uint64_t i = 0; i < rank; i++) TRY(bc_svarint(r, &shape[i]));
    t->kind = BCT_TENSOR;
    t->shape = shape;
    t->rank = (size_t)rank;
    return bc_type_ref(r, &t->elem);
  }
  case 15: t->kind = BCT_TUPLE; return type_list(r, &t->types, &t->n);
  case 18: t->kind = BCT_UNRANKED; return bc_type_ref(r, &t->elem);
  default:
    t->kind = BCT_OTHER;
    t->name = "builtin type";
    return NULL;
  }
}

/* ---- sections ---------------------------------------------------------------- */

static cxla_status read_strings(BcFile *f) {
  BcReader r = reader_for(f, f->sec[SEC_STRING], f->seclen[SEC_STRING], "string section");
  uint64_t n;
  TRY(bc_count(&r, &n));
  f->strs = arena_array(f->arena, n ? n : 1, sizeof *f->strs);
  f->strlens = arena_array(f->arena, n ? n : 1, sizeof *f->strlens);
  if (!f->strs || !f->strlens) return cxla_oom();
  uint64_t *lens = arena_array(f->arena, n ? n : 1, sizeof *lens);
  if (!lens) return cxla_oom();
  for (uint64_t i = 0; i < n; i++) TRY(bc_varint(&r, &lens[i])); /* reversed */
  /* The string data fills the rest of the section; the last string ends at
   * its end. */
  size_t end = left(&r);
  for (uint64_t k = 0; k < n; k++) {
    uint64_t i = n - 1 - k, len = lens[k];
    if (len == 0 || len > end) return bc_error(&r, "string %llu of length %llu does not fit the section", (unsigned long long)i, (unsigned long long)len);
    end -= len;
    const uint8_t *s = r.p + end;
    if (s[len - 1] != 0) return bc_error(&r, "string %llu is not NUL-terminated", (unsigned long long)i);
    f->strs[i] = (const char *)s;
    f->strlens[i] = (size_t)len - 1;
  }
  f->nstrings = (size_t)n;
  return NULL;
}

static cxla_status string_at(BcReader *r, uint64_t idx, const char **out) {
  TRY(index_in(r, idx, r->f->nstrings, "string"));
  *out = r->f->strs[idx];
  return NULL;
}

static cxla_status read_dialects(BcFile *f) {
  BcReader r = reader_for(f, f->sec[SEC_DIALECT], f->seclen[SEC_DIALECT], "dialect section");
  uint64_t n;
  TRY(bc_count(&r, &n));
  f->dialects = arena_array(f->arena, n ? n : 1, sizeof *f->dialects);
  if (!f->dialects) return cxla_oom();
  f->ndialects = (size_t)n;
  f->dialect_builtin = f->dialect_vhlo = -1;
  for (uint64_t i = 0; i < n; i++) {
    uint64_t v;
    TRY(bc_varint(&r, &v));
    if (f->version >= V_DIALECT_VERSIONING) {
      TRY(string_at(&r, v >> 1, &f->dialects[i]));
      if (v & 1) {
        uint8_t id;
        const uint8_t *data;
        size_t len;
        TRY(section_header(&r, &id, &data, &len));
        if (id != SEC_DIALECT_VERSIONS) return bc_error(&r, "expected a dialect version section, got section %u", id);
      }
    } else {
      TRY(string_at(&r, v, &f->dialects[i]));
    }
    if (!strcmp(f->dialects[i], "builtin")) f->dialect_builtin = (int)i;
    if (!strcmp(f->dialects[i], "vhlo")) f->dialect_vhlo = (int)i;
  }
  /* Op names, grouped by dialect, until the end of the section; from
   * version 4 on, their total count comes first. */
  size_t cap = left(&r);
  if (f->version >= V_ELIDE_UNKNOWN_BLOCK_ARG_LOC) {
    uint64_t total;
    TRY(bc_count(&r, &total));
    cap = (size_t)total;
  }
  f->opnames = arena_array(f->arena, cap ? cap : 1, sizeof *f->opnames);
  if (!f->opnames) return cxla_oom();
  while (r.p < r.end) {
    uint64_t d, cnt;
    TRY(bc_varint(&r, &d));
    TRY(index_in(&r, d, f->ndialects, "dialect"));
    TRY(bc_count(&r, &cnt));
    for (uint64_t k = 0; k < cnt; k++) {
      uint64_t v;
      TRY(bc_varint(&r, &v));
      if (f->version >= V_NATIVE_PROPERTIES) v >>= 1; /* low bit: registered */
      if (f->nopnames >= cap) return bc_error(&r, "too many op names");
      OpName *o = &f->opnames[f->nopnames++];
      o->dialect = (uint32_t)d;
      TRY(string_at(&r, v, &o->name));
      if ((int)d == f->dialect_vhlo) o->vhlo = vhlo_op_info(o->name);
    }
  }
  return NULL;
}

static cxla_status read_attr_type_offsets(BcFile *f) {
  BcReader r = reader_for(f, f->sec[SEC_ATTR_TYPE_OFFSET], f->seclen[SEC_ATTR_TYPE_OFFSET], "attribute/type offset section");
  uint64_t na, nt;
  TRY(bc_count(&r, &na));
  TRY(bc_count(&r, &nt));
  if (na + nt > left(&r)) return bc_error(&r, "%llu attributes and %llu types do not fit the section", (unsigned long long)na, (unsigned long long)nt);
  f->attrs = arena_array(f->arena, na ? na : 1, sizeof *f->attrs);
  f->types = arena_array(f->arena, nt ? nt : 1, sizeof *f->types);
  if (!f->attrs || !f->types) return cxla_oom();
  f->nattrs = (size_t)na;
  f->ntypes = (size_t)nt;
  size_t offset = 0, datalen = f->seclen[SEC_ATTR_TYPE];
  for (int pass = 0; pass < 2; pass++) {
    Entry *es = pass ? f->types : f->attrs;
    size_t total = pass ? f->ntypes : f->nattrs, i = 0;
    while (i < total) {
      uint64_t d, cnt;
      TRY(bc_varint(&r, &d));
      TRY(index_in(&r, d, f->ndialects, "dialect"));
      TRY(bc_varint(&r, &cnt));
      if (cnt > total - i) return bc_error(&r, "offset group of %llu entries overruns the %zu %s", (unsigned long long)cnt, total, pass ? "types" : "attributes");
      for (uint64_t k = 0; k < cnt; k++, i++) {
        uint64_t v;
        TRY(bc_varint(&r, &v));
        uint64_t size = v >> 1;
        if (size > datalen - offset) return bc_error(&r, "entry of %llu bytes overruns the attribute/type section", (unsigned long long)size);
        es[i].data = f->sec[SEC_ATTR_TYPE] + offset;
        es[i].len = (size_t)size;
        es[i].custom = v & 1;
        es[i].dialect = (uint32_t)d;
        offset += (size_t)size;
      }
    }
  }
  return NULL;
}

static cxla_status read_properties(BcFile *f) {
  if (!f->have[SEC_PROPERTIES]) return NULL;
  BcReader r = reader_for(f, f->sec[SEC_PROPERTIES], f->seclen[SEC_PROPERTIES], "properties section");
  if (r.p == r.end) return NULL;
  uint64_t n;
  TRY(bc_count(&r, &n));
  f->props = arena_array(f->arena, n ? n : 1, sizeof *f->props);
  f->proplens = arena_array(f->arena, n ? n : 1, sizeof *f->proplens);
  if (!f->props || !f->proplens) return cxla_oom();
  for (uint64_t i = 0; i < n; i++) TRY(bc_blob(&r, &f->props[i], &f->proplens[i]));
  f->nprops = (size_t)n;
  return NULL;
}

/* ---- IR ------------------------------------------------------------------------ */

typedef struct RegionVals {
  size_t next, end; /* the region's slice of the scope: [next, end) free */
} RegionVals;

static cxla_status new_value(BcReader *r, Scope *sc, RegionVals *rv, const BcType *type, uint32_t *id) {
  BcFile *f = r->f;
  if (rv->next >= rv->end) return bc_error(r, "more values defined than the region declared");
  if (f->nvalues == f->capvalues) {
    size_t cap = f->capvalues ? f->capvalues * 2 : 256;
    const BcType **v = arena_array(f->arena, cap, sizeof *v);
    if (!v) return cxla_oom();
    if (f->nvalues) memcpy(v, f->vtypes, f->nvalues * sizeof *v);
    f->vtypes = v;
    f->capvalues = cap;
  }
  if (f->nvalues >= UINT32_MAX - 1) return bc_error(r, "too many values");
  f->vtypes[f->nvalues] = type;
  *id = (uint32_t)f->nvalues++;
  sc->ids[rv->next++] = *id;
  sc->pending--;
  return NULL;
}

static cxla_status scope_push(BcReader *r, Scope *sc, uint64_t n, RegionVals *rv) {
  if (sc->pending > left(r) || n > left(r) - sc->pending)
    return bc_error(r, "region declares %llu values, more than the data left can define", (unsigned long long)n);
  sc->pending += (size_t)n;
  if (n > sc->cap - sc->size) {
    size_t cap = sc->cap ? sc->cap : 64;
    while (n > cap - sc->size) {
      if (cap > ((size_t)1 << 40)) return bc_error(r, "too many values");
      cap *= 2;
    }
    uint32_t *ids = cxla_realloc(sc->ids, cap * sizeof *ids);
    if (!ids) return cxla_oom();
    sc->ids = ids;
    sc->cap = cap;
  }
  rv->next = sc->size;
  rv->end = sc->size + (size_t)n;
  for (size_t i = sc->size; i < rv->end; i++) sc->ids[i] = UINT32_MAX;
  sc->size = rv->end;
  return NULL;
}

static cxla_status skip_use_lists(BcReader *r, uint64_t nvalues) {
  uint64_t n = 1;
  if (nvalues > 1) TRY(bc_count(r, &n));
  for (uint64_t i = 0; i < n; i++) {
    uint64_t v;
    if (nvalues > 1) TRY(bc_varint(r, &v));
    TRY(bc_varint(r, &v));
    uint64_t nidx = v >> 1;
    if (nidx > left(r)) return bc_error(r, "use-list of %llu indices overruns the data", (unsigned long long)nidx);
    for (uint64_t k = 0; k < nidx; k++) TRY(bc_varint(r, &v));
  }
  return NULL;
}

static cxla_status parse_op(BcReader *r, Scope *sc, RegionVals *rv, int depth, BcOp **out);

/* Room for element n+1 of an arena array of n elements with capacity *cap:
 * the array itself, or a copy twice as large. NULL if out of memory. */
static void *grow(BcReader *r, void *arr, size_t n, size_t *cap, size_t size) {
  if (n < *cap) return arr;
  size_t ncap = *cap ? *cap * 2 : 4;
  void *v = bc_alloc(r, ncap, size);
  if (!v) return NULL;
  if (n) memcpy(v, arr, n * size);
  *cap = ncap;
  return v;
}

static cxla_status parse_block(BcReader *r, Scope *sc, RegionVals *rv, int depth, BcBlock *b) {
  uint64_t v;
  TRY(bc_varint(r, &v));
  uint64_t nops = v >> 1;
  if (nops > left(r)) return bc_error(r, "block of %llu ops overruns the data", (unsigned long long)nops);
  if (v & 1) {
    uint64_t nargs;
    TRY(bc_count(r, &nargs));
    uint32_t *args = bc_alloc(r, nargs, sizeof *args);
    if (!args) return cxla_oom();
    for (uint64_t i = 0; i < nargs; i++) {
      uint64_t t, loc;
      if (r->f->version >= V_ELIDE_UNKNOWN_BLOCK_ARG_LOC) {
        TRY(bc_varint(r, &t));
        if (t & 1) TRY(bc_varint(r, &loc));
        t >>= 1;
      } else {
        TRY(bc_varint(r, &t));
        TRY(bc_varint(r, &loc));
      }
      TRY(index_in(r, t, r->f->ntypes, "type"));
      const BcType *type;
      TRY(resolve(r, &r->f->types[t], false, (const void **)&type));
      TRY(new_value(r, sc, rv, type, &args[i]));
    }
    b->args = args;
    b->nargs = (size_t)nargs;
    if (r->f->version >= V_USE_LIST_ORDERING) {
      uint8_t has;
      TRY(bc_byte(r, &has));
      if (has) TRY(skip_use_lists(r, nargs));
    }
  }
  /* Arrays grow as their elements are read (not sized from the counts), so
   * that nested counts cannot claim the same bytes over and over. */
  size_t cap = 0;
  for (uint64_t i = 0; i < nops; i++) {
    if (!(b->ops = grow(r, b->ops, b->nops, &cap, sizeof *b->ops))) return cxla_oom();
    TRY(parse_op(r, sc, rv, depth, &b->ops[i]));
    b->nops++;
  }
  return NULL;
}

static cxla_status parse_region(BcReader *r, Scope *sc, int depth, BcRegion *reg) {
  uint64_t nblocks;
  TRY(bc_count(r, &nblocks));
  if (nblocks == 0) return NULL;
  uint64_t nvalues;
  TRY(bc_count(r, &nvalues));
  RegionVals rv;
  size_t saved = sc->size;
  TRY(scope_push(r, sc, nvalues, &rv));
  size_t cap = 0;
  for (uint64_t i = 0; i < nblocks; i++) {
    if (!(reg->blocks = grow(r, reg->blocks, reg->nblocks, &cap, sizeof *reg->blocks))) return cxla_oom();
    TRY(parse_block(r, sc, &rv, depth, &reg->blocks[i]));
    reg->nblocks++;
  }
  sc->pending -= rv.end - rv.next; /* declared but never defined */
  sc->size = saved;
  return NULL;
}

static cxla_status add_attr(BcReader *r, BcOp *op, size_t *cap, const char *name, size_t namelen, const BcAttr *value) {
  if (op->nattrs == *cap) {
    size_t ncap = *cap ? *cap * 2 : 8;
    BcNamedAttr *v = bc_alloc(r, ncap, sizeof *v);
    if (!v) return cxla_oom();
    if (op->nattrs) memcpy(v, op->attrs, op->nattrs * sizeof *v);
    op->attrs = v;
    *cap = ncap;
  }
  char *n = arena_strndup(r->f->arena, name, namelen);
  if (!n) return cxla_oom();
  op->attrs[op->nattrs].name = n;
  op->attrs[op->nattrs].value = value;
  op->nattrs++;
  return NULL;
}

/* Decodes an op's properties: for VHLO ops, one attribute per inherent
 * attribute in definition order; for builtin.module, its optional symbol name
 * and visibility. Other ops' properties are skipped. */
static cxla_status read_op_properties(BcReader *r, BcOp *op, size_t *cap, uint64_t idx, bool is_vhlo,
                                      const BcVhloOp *info) {
  BcFile *f = r->f;
  TRY(index_in(r, idx, f->nprops, "properties"));
  BcReader pr = reader_for(f, f->props[idx], f->proplens[idx], "properties section");
  if (is_vhlo) {
    if (!info) return NULL;
    const char *names = info->attrs;
    while (*names) {
      const char *comma = strchr(names, ',');
      size_t n = comma ? (size_t)(comma - names) : strlen(names);
      const BcAttr *a;
      TRY(bc_attr_ref(&pr, &a));
      TRY(add_attr(&pr, op, cap, names, n, a));
      names += n + (comma ? 1 : 0);
    }
    return NULL;
  }
  if (!strcmp(op->dialect, "builtin") && !strcmp(op->name, "module")) {
    static const char *const names[] = {"sym_name", "sym_visibility"};
    for (int i = 0; i < 2 && pr.p < pr.end; i++) {
      uint64_t v;
      TRY(bc_varint(&pr, &v));
      if (!(v & 1)) continue;
      TRY(index_in(&pr, v >> 1, f->nattrs, "attribute"));
      const BcAttr *a;
      TRY(resolve(&pr, &f->attrs[v >> 1], true, (const void **)&a));
      TRY(add_attr(&pr, op, cap, names[i], strlen(names[i]), a));
    }
  }
  return NULL;
}

static cxla_status parse_op(BcReader *r, Scope *sc, RegionVals *rv, int depth, BcOp **out) {
  BcFile *f = r->f;
  if (depth >= MAX_NESTING) return bc_error(r, "regions nested deeper than %d", MAX_NESTING);
  BcOp *op = bc_alloc(r, 1, sizeof *op);
  if (!op) return cxla_oom();
  *out = op;
  op->offset = (size_t)(r->p - f->base);
  uint64_t name, loc;
  uint8_t mask;
  TRY(bc_varint(r, &name));
  TRY(index_in(r, name, f->nopnames, "op name"));
  op->dialect = f->dialects[f->opnames[name].dialect];
  op->name = f->opnames[name].name;
  op->vhlo = f->opnames[name].vhlo;
  bool is_vhlo = (int)f->opnames[name].dialect == f->dialect_vhlo;
  if (!is_vhlo && (int)f->opnames[name].dialect != f->dialect_builtin && strcmp(op->dialect, "sdy"))
    return bc_error(r, "op %s.%s: dialect %s is not one a StableHLO artifact may hold (builtin, vhlo, sdy)",
                    op->dialect, op->name, op->dialect);
  TRY(bc_byte(r, &mask));
  if (mask & 0x80) return bc_error(r, "unknown bits in op encoding mask 0x%02x", mask);
  TRY(bc_varint(r, &loc));
  TRY(index_in(r, loc, f->nattrs, "attribute"));
  TRY(resolve(r, &f->attrs[loc], true, (const void **)&op->loc));
  size_t cap = 0;
  const BcAttr *dict = NULL;
  if (mask & OP_HAS_ATTRS) {
    TRY(bc_attr_ref(r, &dict));
    if (dict->kind != BCA_DICT) return bc_error(r, "op attributes are not a dictionary");
  }
  if (mask & OP_HAS_PROPERTIES) {
    if (f->version < V_NATIVE_PROPERTIES) return bc_error(r, "op properties in bytecode version %llu", (unsigned long long)f->version);
    uint64_t idx;
    TRY(bc_varint(r, &idx));
    TRY(read_op_properties(r, op, &cap, idx, is_vhlo, f->opnames[name].vhlo));
  }
  if (dict)
    for (size_t i = 0; i < dict->n; i++)
      TRY(add_attr(r, op, &cap, dict->keys[i]->str, dict->keys[i]->len, dict->elems[i]));
  const BcType **rtypes = NULL;
  uint64_t nres = 0;
  if (mask & OP_HAS_RESULTS) {
    TRY(bc_count(r, &nres));
    rtypes = bc_alloc(r, nres, sizeof *rtypes);
    if (!rtypes) return cxla_oom();
    for (uint64_t i = 0; i < nres; i++) TRY(bc_type_ref(r, &rtypes[i]));
  }
  if (mask & OP_HAS_OPERANDS) {
    uint64_t n;
    TRY(bc_count(r, &n));
    uint32_t *ops = bc_alloc(r, n, sizeof *ops);
    if (!ops) return cxla_oom();
    for (uint64_t i = 0; i < n; i++) {
      uint64_t v;
      TRY(bc_varint(r, &v));
      if (v >= sc->size || sc->ids[v] == UINT32_MAX)
        return bc_error(r, "operand %llu refers to value %llu, which is not defined before it", (unsigned long long)i, (unsigned long long)v);
      ops[i] = sc->ids[v];
    }
    op->operands = ops;
    op->noperands = (size_t)n;
  }
  if (mask & OP_HAS_SUCCESSORS) {
    uint64_t n, v;
    TRY(bc_count(r, &n));
    for (uint64_t i = 0; i < n; i++) TRY(bc_varint(r, &v));
    if (n) return bc_error(r, "op %s.%s has block successors, which StableHLO does not use", op->dialect, op->name);
  }
  if ((mask & OP_HAS_USE_LIST_ORDERS) && f->version >= V_USE_LIST_ORDERING) TRY(skip_use_lists(r, nres));
  /* Results are defined now, before the op's regions. */
  uint32_t *res = bc_alloc(r, nres, sizeof *res);
  if (!res) return cxla_oom();
  for (uint64_t i = 0; i < nres; i++) TRY(new_value(r, sc, rv, rtypes[i], &res[i]));
  op->results = res;
  op->nresults = (size_t)nres;
  if (mask & OP_HAS_INLINE_REGIONS) {
    uint64_t v;
    TRY(bc_varint(r, &v));
    uint64_t nreg = v >> 1;
    if (nreg > left(r)) return bc_error(r, "%llu regions overrun the data", (unsigned long long)nreg);
    size_t cap = 0;
    if (nreg && (v & 1)) {
      /* Isolated from above: a new value scope; from version 2 on, the
       * regions sit in their own IR section (for lazy loading). */
      Scope inner = {0};
      BcReader sub = *r;
      cxla_status s = NULL;
      if (f->version >= V_LAZY_LOADING) {
        uint8_t id;
        const uint8_t *data;
        size_t len;
        s = section_header(r, &id, &data, &len);
        if (!s && id != SEC_IR) s = bc_error(r, "expected an IR section for an isolated region, got section %u", id);
        if (!s) sub = reader_for(f, data, len, "IR section");
      }
      for (uint64_t i = 0; i < nreg && !s; i++) {
        if (!(op->regions = grow(&sub, op->regions, op->nregions, &cap, sizeof *op->regions))) s = cxla_oom();
        else if (!(s = parse_region(&sub, &inner, depth + 1, &op->regions[i]))) op->nregions++;
      }
      if (f->version < V_LAZY_LOADING) r->p = sub.p;
      cxla_free(inner.ids);
      return s;
    }
    for (uint64_t i = 0; i < nreg; i++) {
      if (!(op->regions = grow(r, op->regions, op->nregions, &cap, sizeof *op->regions))) return cxla_oom();
      TRY(parse_region(r, sc, depth + 1, &op->regions[i]));
      op->nregions++;
    }
  }
  return NULL;
}

static cxla_status read_ir(BcFile *f) {
  BcReader r = reader_for(f, f->sec[SEC_IR], f->seclen[SEC_IR], "IR section");
  Scope sc = {0};
  RegionVals rv;
  cxla_status s = scope_push(&r, &sc, 0, &rv);
  if (!s) s = parse_block(&r, &sc, &rv, 0, &f->m->top);
  cxla_free(sc.ids);
  return s;
}

/* ---- entry ------------------------------------------------------------------------ */

bool bc_is_bytecode(const uint8_t *data, size_t len) {
  return len >= 4 && data[0] == 'M' && data[1] == 'L' && data[2] == 0xEF && data[3] == 'R';
}

static int parse_vhlo_version(const char *producer) {
  static const char prefix[] = "StableHLO_v";
  if (strncmp(producer, prefix, sizeof prefix - 1)) return -1;
  const char *p = producer + sizeof prefix - 1;
  long v[3] = {0, 0, 0};
  for (int i = 0; i < 3; i++) {
    if (*p < '0' || *p > '9') return -2;
    while (*p >= '0' && *p <= '9') {
      v[i] = v[i] * 10 + (*p - '0');
      if (v[i] > 99) return -2;
      p++;
    }
    if (i < 2) {
      if (*p != '.') return -2;
      p++;
    }
  }
  return (int)(v[0] * 10000 + v[1] * 100 + v[2]);
}

void bc_module_free(BcModule *m) {
  if (!m) return;
  arena_destroy(&m->arena);
  cxla_free(m);
}

cxla_status bc_read(const uint8_t *data, size_t len, const char *filename, BcModule **out) {
  *out = NULL;
  BcModule *m = cxla_calloc(1, sizeof *m);
  if (!m) return cxla_oom();
  arena_init(&m->arena);
  BcFile f;
  memset(&f, 0, sizeof f);
  f.m = m;
  f.arena = &m->arena;
  f.base = data;
  f.size = len;
  f.filename = filename;
  BcReader r = reader_for(&f, data, len, NULL);
  cxla_status s = NULL;
  if (!bc_is_bytecode(data, len)) {
    s = bc_error(&r, "not MLIR bytecode (the file does not start with \"ML\\xEFR\")");
    goto fail;
  }
  r.p += 4;
  if ((s = bc_varint(&r, &f.version))) goto fail;
  if (f.version > V_MAX) {
    s = bc_error(&r, "bytecode version %llu is newer than the newest supported (%d)", (unsigned long long)f.version, V_MAX);
    goto fail;
  }
  const uint8_t *nul = memchr(r.p, 0, left(&r));
  if (!nul) {
    s = bc_error(&r, "producer string is not NUL-terminated");
    goto fail;
  }
  m->producer = (const char *)r.p;
  r.p = nul + 1;
  m->version = f.version;
  m->vhlo_version = parse_vhlo_version(m->producer);
  if (m->vhlo_version == -2 || (m->vhlo_version >= 0 && (m->vhlo_version < BC_VHLO_MIN_VERSION || m->vhlo_version > BC_VHLO_MAX_VERSION))) {
    s = bc_error(&r, "producer \"%s\": VHLO versions 0.9.0 to 1.x are supported", m->producer);
    goto fail;
  }
  while (r.p < r.end) {
    r.section = "section table";
    uint8_t id;
    const uint8_t *sdata;
    size_t slen;
    const uint8_t *at = r.p;
    if ((s = section_header(&r, &id, &sdata, &slen))) goto fail;
    if (id >= SEC_COUNT || id == SEC_DIALECT_VERSIONS) {
      r.p = at;
      s = bc_error(&r, "unknown section id %u", id);
      goto fail;
    }
    if (f.have[id]) {
      r.p = at;
      s = bc_error(&r, "duplicate %s section", SECTION_NAMES[id]);
      goto fail;
    }
    f.have[id] = true;
    f.sec[id] = sdata;
    f.seclen[id] = slen;
  }
  static const int required[] = {SEC_STRING, SEC_DIALECT, SEC_ATTR_TYPE, SEC_ATTR_TYPE_OFFSET, SEC_IR};
  for (size_t i = 0; i < sizeof required / sizeof required[0]; i++)
    if (!f.have[required[i]]) {
      s = bc_error(&r, "missing %s section", SECTION_NAMES[required[i]]);
      goto fail;
    }
  if ((s = read_strings(&f)) || (s = read_dialects(&f)) || (s = read_attr_type_offsets(&f)) ||
      (s = read_properties(&f)) || (s = read_ir(&f)))
    goto fail;
  m->value_types = f.vtypes;
  m->nvalues = f.nvalues;
  *out = m;
  return NULL;
fail:
  bc_module_free(m);
  return s;
}

const BcAttr *bc_op_attr(const BcOp *op, const char *name) {
  for (size_t i = 0; i < op->nattrs; i++)
    if (!strcmp(op->attrs[i].name, name)) return op->attrs[i].value;
  return NULL;
}
