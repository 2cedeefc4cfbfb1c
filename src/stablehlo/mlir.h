/* mlir.h: the generic MLIR operation tree that both StableHLO readers build.
 *
 *   StableHLO text (.mlir)  --mlir_parse_text------\
 *                                                   >-- MlirModule --shlo_import--> HloModule
 *   portable artifact (VHLO bytecode) --mlir_parse_bytecode--/
 *
 * The tree is MLIR's generic form: operations with operands, typed results,
 * attributes and regions of blocks. Everything in it (ops, values, types,
 * attributes, strings, dense data) is allocated from MlirModule.arena and
 * freed at once by mlir_module_free. The importer only reads the tree (it
 * may use MlirValue.scratch).
 *
 * ---- THE NORMALIZED FORM (what every reader must produce) -----------------
 *
 * Op names are the full "dialect.op" names of the stablehlo, chlo, func and
 * builtin dialects, whatever the source spelling: "builtin.module",
 * "func.func", "func.return", "func.call", "stablehlo.add",
 * "stablehlo.return", "chlo.top_k", "stablehlo.composite", ... Pretty
 * (custom assembly) forms are expanded to exactly what MLIR's generic printer
 * (--mlir-print-op-generic) would show for the same op, and VHLO ops
 * ("vhlo.add_v1", "vhlo.func_v1", ...) are mapped back to their stablehlo /
 * func / builtin names with stablehlo's attribute names and value kinds.
 * Ops of other dialects (sdy.*, ...) are kept under their own name with
 * their attributes as far as they can be read (MA_OPAQUE otherwise).
 *
 * Attributes: an op's inherent attributes (properties, "<{...}>") and its
 * discardable attributes ("{...}") are ONE list, names unique, in the order
 * read. Each has the name and the value kind stablehlo's ODS gives it, e.g.
 *   stablehlo.constant         value: MA_DENSE
 *   stablehlo.compare          comparison_direction: MA_ENUM,
 *                              compare_type: MA_ENUM (optional)
 *   stablehlo.broadcast_in_dim broadcast_dimensions: MA_DENSE_ARRAY (i64)
 *   stablehlo.reduce           dimensions: MA_DENSE_ARRAY (i64); region 0
 *                              the reducer (a `applies stablehlo.add` pretty
 *                              form becomes a block with two scalar tensor
 *                              arguments, the op and stablehlo.return)
 *   stablehlo.dot_general      dot_dimension_numbers: MA_DOT,
 *                              precision_config: MA_ARRAY of MA_ENUM
 *                              (ME_PRECISION), algorithm: MA_DOT_ALGORITHM
 *   stablehlo.convolution      dimension_numbers: MA_CONV; window_strides,
 *                              lhs_dilation, rhs_dilation: MA_DENSE_ARRAY i64;
 *                              window_reversal: MA_DENSE_ARRAY i1; padding:
 *                              MA_DENSE tensor<Nx2xi64>; feature_group_count,
 *                              batch_group_count: MA_INT
 *   stablehlo.gather           dimension_numbers: MA_GATHER, slice_sizes:
 *                              MA_DENSE_ARRAY, indices_are_sorted: MA_BOOL
 *   stablehlo.scatter          scatter_dimension_numbers: MA_SCATTER, ...
 *   stablehlo.custom_call      call_target_name: MA_STRING, has_side_effect:
 *                              MA_BOOL, backend_config: MA_STRING or MA_DICT,
 *                              api_version: MA_INT (i32),
 *                              called_computations: MA_ARRAY of MA_SYMBOL_REF,
 *                              output_operand_aliases: MA_ARRAY of
 *                              MA_OUTPUT_OPERAND_ALIAS, operand_layouts /
 *                              result_layouts: MA_ARRAY of MA_DENSE (index)
 *   func.func                  sym_name: MA_STRING, function_type: MA_TYPE
 *                              (MLT_FUNCTION), sym_visibility: MA_STRING
 *                              ("private"; absent = public), arg_attrs /
 *                              res_attrs: MA_ARRAY of MA_DICT (optional)
 *   func.call                  callee: MA_SYMBOL_REF
 *   builtin.module             sym_name: MA_STRING (optional), then its
 *                              discardable attributes (mhlo.num_partitions..)
 * Optional attributes that the source omits are absent (readers do not fill
 * in defaults). Integer-valued ODS enums that stablehlo prints as integers
 * (custom_call api_version) are MA_INT. Dialect enums
 * (#stablehlo<comparison_direction GT>, the bare `GT` of pretty forms,
 * VHLO's enum attributes) are MA_ENUM with the enum's kind and the
 * upper-case case name as stablehlo prints it ("GT", "TOTALORDER",
 * "DEFAULT", "HIGHEST", "FFT", "THREE_FRY", "NO_TRANSPOSE", ...).
 * dense_resource<blob> constants are resolved by the reader to MA_DENSE with
 * the blob's bytes (the text reader reads the trailing {-# dialect_resources
 * #-} section), so the importer never sees resource handles.
 * Locations are dropped (positions are kept in MlirPos for messages).
 *
 * Dense elements data layout (MA_DENSE), the same as cxla's Literal storage:
 * row-major, little-endian, one element after another with
 * type_bytes(elem) bytes each: i1 one byte 0/1; i2/i4/ui2/ui4 one byte per
 * element holding the value (sign-extended for signed); f8/f4 types one byte
 * of raw bits; f16/bf16 two bytes of raw bits; complex<f32> (re, im) floats,
 * complex<f64> (re, im) doubles; index 8 bytes (int64). A tensor of more
 * than one element whose elements are all equal bit for bit is a SPLAT
 * (splat = true) and stores ONE element, however the source spelled it (as
 * MLIR's DenseElementsAttr does); otherwise splat = false and nbytes =
 * elements * element size.
 */
#ifndef CXLA_STABLEHLO_MLIR_H
#define CXLA_STABLEHLO_MLIR_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "base/base.h"
#include "cxla/cxla.h"

typedef struct MlirType MlirType;
typedef struct MlirAttr MlirAttr;
typedef struct MlirValue MlirValue;
typedef struct MlirOp MlirOp;
typedef struct MlirBlock MlirBlock;
typedef struct MlirRegion MlirRegion;

/* ---- positions ---------------------------------------------------------- */

/* Where something was read: line/col (1-based) for text; for bytecode
 * line = 0 and `offset` is the byte offset, `section` the section's name
 * ("ir", "attr_type", "properties", ...; NULL if none). */
typedef struct MlirPos {
  int32_t line, col;
  int64_t offset;
  const char *section;
} MlirPos;

/* ---- types ------------------------------------------------------------------ */

/* Marks a dynamic dimension ("?") in MlirType.dims, and "no bound" in
 * MlirType.bounds. */
#define MLIR_DYNAMIC INT64_MIN

typedef enum MlirTypeKind {
  MLT_ELEM,      /* a scalar element type: `elem` (see below) */
  MLT_INDEX,     /* index */
  MLT_TENSOR,    /* ranked tensor: element, rank, dims, bounds */
  MLT_UNRANKED,  /* tensor<*xT>: element only (importer: unsupported) */
  MLT_TUPLE,     /* tuple<...>: n, types */
  MLT_TOKEN,     /* !stablehlo.token */
  MLT_FUNCTION,  /* (inputs) -> results: n/types are the inputs */
  MLT_NONE,      /* none */
  MLT_OTHER,     /* any other type (quant, sdy, ...): `text` spells it */
} MlirTypeKind;

struct MlirType {
  MlirTypeKind kind;
  /* MLT_ELEM: i1 -> CXLA_PRED; iN and siN -> CXLA_SN; uiN -> CXLA_UN;
   * f16, bf16, f32, f64, the f8/f4 types -> theirs; complex<f32> -> CXLA_C64,
   * complex<f64> -> CXLA_C128. */
  cxla_type elem;
  /* MLT_TENSOR / MLT_UNRANKED: the element type (MLT_ELEM or MLT_INDEX;
   * MLT_OTHER for quantized elements). */
  MlirType *element;
  int rank;            /* MLT_TENSOR */
  int64_t *dims;       /* rank entries; MLIR_DYNAMIC for "?" */
  int64_t *bounds;     /* NULL, or rank entries from the tensor's encoding
                          #stablehlo.bounds<...> (MLIR_DYNAMIC: unbounded) */
  int n;               /* MLT_TUPLE: elements; MLT_FUNCTION: inputs */
  MlirType **types;
  int nresults;        /* MLT_FUNCTION */
  MlirType **results;
  const char *text;    /* MLT_OTHER */
};

/* ---- attributes --------------------------------------------------------------- */

typedef struct MlirI64s {
  int n;
  int64_t *v;
} MlirI64s;

typedef struct MlirNamedAttr {
  const char *name;
  MlirAttr *value;
} MlirNamedAttr;

typedef enum MlirAttrKind {
  MA_UNIT,         /* `unit` (a name with no value) */
  MA_BOOL,         /* true / false */
  MA_INT,          /* 42 : i64  (type defaults to i64 when not written) */
  MA_FLOAT,        /* 1.0 : f32 (type defaults to f64) */
  MA_STRING,       /* "..." with escapes decoded; str + len */
  MA_ARRAY,        /* [a, b, ...]: n, elems */
  MA_DICT,         /* {name = attr, ...}: n, entries */
  MA_DENSE,        /* dense<...> : type, dense_resource<...>: type, data */
  MA_DENSE_ARRAY,  /* array<i64: 1, 2>: elem type, n, ints or floats */
  MA_TYPE,         /* a type used as an attribute: type */
  MA_SYMBOL_REF,   /* @name (nested refs @a::@b keep the root): str */
  MA_ENUM,         /* #stablehlo<comparison_direction GT>: ekind, str */
  MA_DOT,          /* #stablehlo.dot<...>: dot */
  MA_CONV,         /* #stablehlo.conv<...>: conv */
  MA_GATHER,       /* #stablehlo.gather<...>: gather */
  MA_SCATTER,      /* #stablehlo.scatter<...>: scatter */
  MA_OUTPUT_OPERAND_ALIAS, /* #stablehlo.output_operand_alias<...>: alias */
  MA_CHANNEL_HANDLE,       /* #stablehlo.channel_handle<...>: channel */
  MA_DOT_ALGORITHM,        /* #stablehlo.dot_algorithm<...>: algorithm */
  MA_RESULT_ACCURACY,      /* #stablehlo.result_accuracy<...>: accuracy */
  MA_OPAQUE,       /* any other dialect attribute (#sdy..., #mhlo...), kept
                      as its spelling: str (text) or bytes (bytecode) */
} MlirAttrKind;

typedef enum MlirEnumKind {
  ME_COMPARISON_DIRECTION, /* EQ NE GE GT LE LT (stablehlo and chlo) */
  ME_COMPARISON_TYPE,      /* NOTYPE FLOAT TOTALORDER SIGNED UNSIGNED */
  ME_PRECISION,            /* DEFAULT HIGH HIGHEST */
  ME_FFT_TYPE,             /* FFT IFFT RFFT IRFFT */
  ME_RNG_DISTRIBUTION,     /* UNIFORM NORMAL */
  ME_RNG_ALGORITHM,        /* DEFAULT THREE_FRY PHILOX */
  ME_TRANSPOSE,            /* TRANSPOSE_INVALID NO_TRANSPOSE TRANSPOSE ADJOINT */
  ME_RESULT_ACCURACY_MODE, /* DEFAULT HIGHEST TOLERANCE */
  ME_OTHER,                /* another dialect enum: str is "kind VALUE" */
} MlirEnumKind;

typedef struct MlirDotDims {
  MlirI64s lhs_batch, rhs_batch, lhs_contract, rhs_contract;
} MlirDotDims;

/* #stablehlo.conv<[b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f]>: the dimension
 * numbers; spatial lists ordered by spatial index (0, 1, ...). */
typedef struct MlirConvDims {
  int64_t in_batch, in_feature;
  MlirI64s in_spatial;
  int64_t k_in_feature, k_out_feature;
  MlirI64s k_spatial;
  int64_t out_batch, out_feature;
  MlirI64s out_spatial;
} MlirConvDims;

typedef struct MlirGatherDims {
  MlirI64s offset_dims, collapsed_slice_dims, operand_batching_dims,
      start_indices_batching_dims, start_index_map;
  int64_t index_vector_dim;
} MlirGatherDims;

typedef struct MlirScatterDims {
  MlirI64s update_window_dims, inserted_window_dims, input_batching_dims,
      scatter_indices_batching_dims, scatter_dims_to_operand_dims;
  int64_t index_vector_dim;
} MlirScatterDims;

typedef struct MlirOutputOperandAlias {
  MlirI64s output_tuple_indices;
  int64_t operand_index;
  MlirI64s operand_tuple_indices;
} MlirOutputOperandAlias;

typedef struct MlirChannelHandle {
  int64_t handle, type;
} MlirChannelHandle;

typedef struct MlirDotAlgorithm {
  MlirType *lhs_precision_type, *rhs_precision_type, *accumulation_type;
  int64_t lhs_component_count, rhs_component_count, num_primitive_operations;
  bool allow_imprecise_accumulation;
} MlirDotAlgorithm;

typedef struct MlirResultAccuracy {
  double atol, rtol;
  int64_t ulps;
  const char *mode; /* "DEFAULT", "HIGHEST", "TOLERANCE" */
} MlirResultAccuracy;

struct MlirAttr {
  MlirAttrKind kind;
  MlirPos pos;
  MlirType *type;      /* MA_INT, MA_FLOAT, MA_DENSE (a tensor type), MA_TYPE */
  int64_t i;           /* MA_INT (uiN values: the bit pattern); MA_BOOL 0/1 */
  double f;            /* MA_FLOAT */
  const char *str;     /* MA_STRING (NUL-terminated too), MA_SYMBOL_REF,
                          MA_ENUM (case name), MA_OPAQUE (text spelling) */
  size_t len;          /* MA_STRING / MA_OPAQUE length in bytes */
  int n;               /* MA_ARRAY, MA_DICT, MA_DENSE_ARRAY: element count */
  MlirAttr **elems;    /* MA_ARRAY */
  MlirNamedAttr *entries; /* MA_DICT */
  /* MA_DENSE: data in the layout stated at the top of this file. */
  bool splat;
  const uint8_t *data;
  size_t nbytes;
  /* MA_DENSE_ARRAY: array<i64: ...>, array<i1: ...>, array<f32: ...>. */
  cxla_type array_elem;
  int64_t *ints;       /* integer and i1 arrays (booleans 0/1) */
  double *floats;      /* float arrays */
  MlirEnumKind ekind;  /* MA_ENUM */
  MlirDotDims dot;
  MlirConvDims conv;
  MlirGatherDims gather;
  MlirScatterDims scatter;
  MlirOutputOperandAlias alias;
  MlirChannelHandle channel;
  MlirDotAlgorithm algorithm;
  MlirResultAccuracy accuracy;
};

/* ---- values, operations, regions, blocks ------------------------------------ */

struct MlirValue {
  MlirType *type;
  MlirOp *owner;       /* the defining op; NULL for a block argument */
  MlirBlock *block;    /* block argument: its block; NULL for results */
  int index;           /* result number, or argument number */
  void *scratch;       /* free for the importer (e.g. the Instr it became) */
};

struct MlirOp {
  const char *name;        /* "stablehlo.add", "func.func", ... */
  MlirPos pos;
  int noperands;
  MlirValue **operands;    /* resolved: results of earlier ops or block args */
  int nresults;
  MlirValue *results;      /* nresults values, owner = this op */
  int nattrs;
  MlirNamedAttr *attrs;    /* properties + discardable attributes */
  int nregions;
  MlirRegion *regions;
  MlirBlock *parent;       /* NULL for the top-level module op */
};

struct MlirBlock {
  MlirPos pos;
  int nargs;
  MlirValue *args;         /* owner = NULL, block = this block */
  int nops;
  MlirOp **ops;            /* in order; the terminator last */
  MlirRegion *parent;
};

struct MlirRegion {
  int nblocks;             /* 0 for an empty region */
  MlirBlock **blocks;
  MlirOp *parent;
};

typedef struct MlirModule {
  Arena arena;
  const char *filename;    /* for messages; may be NULL */
  MlirOp *op;              /* the builtin.module op (one region, one block) */
} MlirModule;

/* ---- the readers --------------------------------------------------------------- */

/* StableHLO/MLIR text (src/stablehlo/text_*.c). `filename` is used in error
 * messages ("file:line:col: expected ..."). The caller frees *out with
 * mlir_module_free. */
cxla_status mlir_parse_text(const char *text, size_t len, const char *filename,
                            MlirModule **out);
/* A StableHLO portable artifact: MLIR bytecode of the VHLO dialect
 * (src/stablehlo/bytecode*.c). Errors give the byte offset and section. */
cxla_status mlir_parse_bytecode(const uint8_t *data, size_t len, const char *filename,
                                MlirModule **out);
/* Does the buffer start with the MLIR bytecode magic "ML\xEFR"? */
bool mlir_is_bytecode(const void *data, size_t len);
void mlir_module_free(MlirModule *m);

/* ---- the importer ------------------------------------------------------------------ */

struct cxla_module;
/* Builds a new HLO module (ir.h) from a tree in the normalized form: the
 * public func.func named "main" (or the only public one) is the entry; CHLO
 * ops are decomposed as XLA does; errors carry the op's position
 * (src/stablehlo/import*.c). The tree is not changed except MlirValue.scratch. */
cxla_status shlo_import(MlirModule *m, struct cxla_module **out);
/* The same for a program with dynamic dimensions ("?", jax.export's
 * symbolic shapes): the entry's parameters take the shapes `args` (nargs
 * entries; nargs < 0: none given) and every type is refined from them
 * (import_refine.c). shlo_import refines too, from static parameters. */
cxla_status shlo_import_refined(MlirModule *m, const cxla_arg_shape *args, int nargs,
                                struct cxla_module **out);

/* ---- helpers for readers and the importer (mlir.c) ---------------------------- */

/* A new empty module (arena initialised; filename copied). NULL on OOM. */
MlirModule *mlir_module_new(const char *filename);
/* The attribute `name` of an op, or NULL. */
MlirAttr *mlir_op_attr(const MlirOp *op, const char *name);
/* The entry `name` of an MA_DICT attribute, or NULL. */
MlirAttr *mlir_dict_get(const MlirAttr *dict, const char *name);
/* Appends "file:line:col" or "file: byte N (section)" for pos. */
void mlir_pos_print(StrBuf *b, const char *filename, MlirPos pos);
/* An INVALID_ARGUMENT (or other code) status "file:line:col: message". */
cxla_status mlir_error_at(cxla_status_code code, const MlirModule *m, MlirPos pos,
                          const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 4, 5)))
#endif
    ;
/* Appends MLIR's spelling of a type ("tensor<2x?xf32>", "i1", ...). */
void mlir_type_print(StrBuf *b, const MlirType *t);
/* Size in bytes of one dense element of scalar type t (MLT_ELEM: the cxla
 * literal size; MLT_INDEX: 8); 0 for other kinds. */
int mlir_elem_bytes(const MlirType *t);
/* Elements of a ranked static tensor type; -1 if dynamic, unranked or
 * overflowing. */
int64_t mlir_type_elems(const MlirType *t);
/* The name of an enum kind as spelled in #stablehlo<KIND ...>. */
const char *mlir_enum_kind_name(MlirEnumKind k);
/* The tree in a canonical generic form (values numbered in definition order,
 * attributes sorted by name, dense data in hex): two readers' trees of the
 * same program print the same. The caller frees *out with cxla_free
 * (mlir_print.c). */
cxla_status mlir_print_generic(const MlirModule *m, char **out);

#endif
