/* bytecode.h: the MLIR bytecode container and the VHLO dialect's encodings,
 * decoded into a raw tree (BcModule) close to what the file holds.
 *
 * A StableHLO portable artifact (what jax.export writes and a PJRT plugin
 * receives) is the VHLO dialect serialized as MLIR bytecode. Reading it is
 * two steps:
 *   1. bc_read (bytecode.c, vhlo_attrs.c): the container (varints, the
 *      string, dialect, attribute/type, properties and IR sections, lazily
 *      loaded isolated regions) and the builtin and VHLO attribute and type
 *      encodings. Ops come out with their VHLO names and attributes
 *      (vhlo.add_v1, #vhlo.integer_v1<...>), values numbered once per module.
 *   2. vhlo_import (vhlo_import.c): VHLO → the generic MLIR op tree of
 *      src/stablehlo/mlir.h with stablehlo names and normalized attributes.
 *
 * Everything lives in the BcModule's arena; pointers into the input buffer
 * (strings, tensor blobs) stay valid as long as that buffer does.
 * Every error names the byte offset and the section it was found in:
 * "FILE: byte N (IR section): ...". */
#ifndef CXLA_STABLEHLO_BYTECODE_H
#define CXLA_STABLEHLO_BYTECODE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "base/base.h"

/* ---- types ---------------------------------------------------------------- */

typedef enum BcTypeKind {
  BCT_BOOL,     /* i1 */
  BCT_INT,      /* bits, is_unsigned */
  BCT_FLOAT,    /* fkind */
  BCT_INDEX,
  BCT_COMPLEX,  /* elem */
  BCT_TENSOR,   /* shape (BC_DYNAMIC for ?), rank, elem, encoding (bounds) */
  BCT_UNRANKED, /* elem */
  BCT_TUPLE,    /* types, n */
  BCT_TOKEN,
  BCT_FUNCTION, /* types, n (inputs); results, nresults */
  BCT_NONE,
  BCT_QUANT,    /* quantized element types (decoded, not supported further) */
  BCT_OTHER,    /* any other type: name says what it was */
} BcTypeKind;

typedef enum BcFloatKind {
  BCF_F16, BCF_BF16, BCF_F32, BCF_F64, BCF_TF32,
  BCF_F8E4M3FN, BCF_F8E5M2, BCF_F8E4M3FNUZ, BCF_F8E5M2FNUZ, BCF_F8E4M3B11FNUZ,
  BCF_F8E4M3, BCF_F8E3M4, BCF_F8E8M0FNU, BCF_F4E2M1FN, BCF_F6E2M3FN,
  BCF_F6E3M2FN, BCF_F80, BCF_F128,
} BcFloatKind;

#define BC_DYNAMIC INT64_MIN

typedef struct BcAttr BcAttr;
typedef struct BcType BcType;

struct BcType {
  BcTypeKind kind;
  int bits;          /* BCT_INT: 2..64; BCT_FLOAT: storage bits */
  bool is_unsigned;  /* BCT_INT */
  BcFloatKind fkind; /* BCT_FLOAT */
  const BcType *elem;
  const int64_t *shape;
  size_t rank;
  const BcAttr *encoding; /* BCT_TENSOR: #vhlo.type_extensions or NULL */
  const BcType **types;   /* tuple elements; function inputs */
  size_t n;
  const BcType **results; /* function results */
  size_t nresults;
  const char *name; /* BCT_OTHER: a description */
};

/* ---- attributes ------------------------------------------------------------ */

typedef enum BcAttrKind {
  BCA_ARRAY,    /* elems, n */
  BCA_DICT,     /* keys (strings), elems, n */
  BCA_STRING,   /* str, len */
  BCA_BOOL,     /* i */
  BCA_INT,      /* type, i (sign- or zero-extended per type) */
  BCA_FLOAT,    /* type, f (the value as a double) and bits (raw) */
  BCA_TENSOR,   /* type, data, len (raw MLIR dense data; bools 1 byte each,
                   one element for a splat) */
  BCA_TYPE,     /* type */
  BCA_ENUM,     /* ekind, i */
  BCA_UNIT,
  BCA_LOC,      /* any location */
  BCA_INTS,     /* ints, nints: #vhlo.type_extensions bounds */
  BCA_OUTPUT_OPERAND_ALIAS, /* ints: output tuple indices (nints), i: operand
                               index, ints2/nints2: operand tuple indices */
  BCA_RESULT_ACCURACY,      /* f (atol), f2 (rtol), i (ulps), elems[0] mode */
  BCA_SYMREF,   /* str, len: @name */
  BCA_DENSE_ARRAY, /* type (element), data, len */
  BCA_OTHER,    /* an attribute cxla does not interpret: name says which */
} BcAttrKind;

typedef enum BcEnumKind {
  BCE_COMPARISON_DIRECTION, /* EQ NE GE GT LE LT */
  BCE_COMPARISON_TYPE,      /* NOTYPE FLOAT TOTALORDER SIGNED UNSIGNED */
  BCE_CUSTOM_CALL_API_VERSION,
  BCE_FFT_TYPE,             /* FFT IFFT RFFT IRFFT */
  BCE_PRECISION,            /* DEFAULT HIGH HIGHEST */
  BCE_RNG_ALGORITHM,        /* DEFAULT THREE_FRY PHILOX */
  BCE_RNG_DISTRIBUTION,     /* UNIFORM NORMAL (values 1, 2) */
  BCE_TRANSPOSE,            /* TRANSPOSE_INVALID NO_TRANSPOSE TRANSPOSE ADJOINT */
  BCE_RESULT_ACCURACY_MODE, /* DEFAULT HIGHEST TOLERANCE */
} BcEnumKind;

struct BcAttr {
  BcAttrKind kind;
  BcEnumKind ekind;
  const BcType *type;
  int64_t i;
  uint64_t bits;
  double f, f2;
  const char *str;
  size_t len;
  const BcAttr **elems;
  const BcAttr **keys;
  size_t n;
  const uint8_t *data;
  const int64_t *ints, *ints2;
  size_t nints, nints2;
  const char *name; /* BCA_OTHER: which attribute (e.g. "vhlo.mesh_v1") */
};

/* ---- operations ------------------------------------------------------------ */

typedef struct BcOp BcOp;
typedef struct BcBlock BcBlock;

/* A VHLO op as StableHLO defines it: the stablehlo op it maps to, the names
 * of its inherent attributes in the order its properties store them, and
 * how many operands, results and regions it takes (N, or -(N+1) for "N or
 * more"). */
typedef struct BcVhloOp {
  const char *mnemonic, *base, *attrs;
  int noperands, nresults, nregions;
} BcVhloOp;

typedef struct BcRegion {
  BcBlock *blocks;
  size_t nblocks;
} BcRegion;

struct BcBlock {
  const uint32_t *args; /* value ids */
  size_t nargs;
  BcOp **ops;
  size_t nops;
};

typedef struct BcNamedAttr {
  const char *name;
  const BcAttr *value;
} BcNamedAttr;

struct BcOp {
  const char *dialect; /* "vhlo", "builtin", ... */
  const char *name;    /* without the dialect: "add_v1", "module" */
  const BcVhloOp *vhlo; /* a known VHLO op (base "add" for add_v1); else NULL */
  size_t offset;       /* byte offset of the op in the file */
  const BcAttr *loc;
  /* Attributes: the properties (inherent attributes, named from VHLO's op
   * definitions) followed by the attribute dictionary (discardable ones). */
  BcNamedAttr *attrs;
  size_t nattrs;
  const uint32_t *results; /* value ids */
  size_t nresults;
  const uint32_t *operands;
  size_t noperands;
  BcRegion *regions;
  size_t nregions;
};

/* A decoded file. Values are numbered 0..nvalues-1 across the module;
 * value_types[id] is the type of each. */
typedef struct BcModule {
  Arena arena;
  uint64_t version;     /* bytecode version */
  const char *producer; /* e.g. "StableHLO_v1.15.0" */
  int vhlo_version;     /* major*10000 + minor*100 + patch, from the producer;
                           -1 if the producer is not StableHLO */
  BcBlock top;          /* the top-level block (holds builtin.module) */
  const BcType **value_types;
  size_t nvalues;
} BcModule;

/* Oldest and newest VHLO versions (from the producer string) accepted. */
#define BC_VHLO_MIN_VERSION 900     /* 0.9.0 */
#define BC_VHLO_MAX_VERSION 19999   /* 1.x */

/* Decodes a bytecode file. On success *out is a new module (free with
 * bc_module_free). Errors say "FILE: byte N (SECTION section): ...". The
 * module points into data: keep data alive while using it. */
cxla_status bc_read(const uint8_t *data, size_t len, const char *filename, BcModule **out);
void bc_module_free(BcModule *m);

/* True if the buffer starts with the MLIR bytecode magic "ML\xEFR". */
bool bc_is_bytecode(const uint8_t *data, size_t len);

/* Looks up an attribute of an op by name (NULL if absent). */
const BcAttr *bc_op_attr(const BcOp *op, const char *name);

/* Writes a readable dump of the module (VHLO names, one op per line). */
void bc_dump(const BcModule *m, StrBuf *out);

/* ---- internal: shared by the container and the dialect decoders --------- */

typedef struct BcFile BcFile;
/* A cursor over part of the file. */
typedef struct BcReader {
  BcFile *f;
  const uint8_t *p, *end;
  const char *section; /* for error messages: "IR section", ... */
  int depth;           /* nesting of attribute/type decoding */
} BcReader;

cxla_status bc_error(const BcReader *r, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;
cxla_status bc_byte(BcReader *r, uint8_t *out);
cxla_status bc_varint(BcReader *r, uint64_t *out);
cxla_status bc_svarint(BcReader *r, int64_t *out);
/* A list length: a varint no larger than the bytes left (each element takes
 * at least one byte), so that allocating for it is bounded by the input. */
cxla_status bc_count(BcReader *r, uint64_t *out);
cxla_status bc_blob(BcReader *r, const uint8_t **data, size_t *len);
cxla_status bc_string_ref(BcReader *r, const char **s, size_t *len);
cxla_status bc_attr_ref(BcReader *r, const BcAttr **out);
cxla_status bc_type_ref(BcReader *r, const BcType **out);
/* Reads a dictionary attribute's entries (count, then string-name and value
 * attribute references) into a, which becomes a BCA_DICT. */
cxla_status bc_dict_attr(BcReader *r, BcAttr *a);
/* An APInt of known width: one byte up to 8 bits, a signed varint up to 64. */
cxla_status bc_apint(BcReader *r, int bits, uint64_t *out);
void *bc_alloc(BcReader *r, size_t n, size_t size);

/* The VHLO dialect's attribute and type decoders (vhlo_attrs.c). */
cxla_status bc_vhlo_read_attr(BcReader *r, const BcAttr **out);
cxla_status bc_vhlo_read_type(BcReader *r, const BcType **out);

#endif
