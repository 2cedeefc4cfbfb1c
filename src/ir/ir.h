/* ir.h: cxla's HLO intermediate representation.
 *
 * A Module holds Computations; a Computation holds Instrs in a post order
 * (every operand before its users); one computation is the entry.
 *
 * Memory: everything reachable from a Module (computations, instructions,
 * shapes, names, attribute values, constant literals' metadata) is allocated
 * from the module's Arena and freed by module_destroy(), except constant
 * Literals, which are heap objects owned by the module (freed by
 * module_destroy too). Passes that create instructions allocate them from the
 * same arena; dropping an instruction simply unlinks it.
 *
 * Uses and callers: the IR keeps no user lists. An instruction knows its
 * operands, a computation its instructions, a module its computations, and
 * nothing points back. A pass that needs users, callers or names builds the
 * map once over what it walks (users_build and comp_index_names in
 * rewrite.h, base's NameMap and PtrIndex, the fusion passes' FusionCtx) and
 * keeps it up to date itself while it edits, so that no decision scans the
 * module: every pass is linear or N log N in the module's size. (Chosen over
 * user lists kept by a mutation API because passes edit operand arrays in
 * place all over, and a map built per pass costs one walk.)
 *
 * Layouts: shapes carry XLA's layout (minor_to_major) when the text gave one;
 * the interpreter works on logical row-major data and consults layouts only
 * where semantics depend on them (bitcast). */
#ifndef CXLA_IR_H
#define CXLA_IR_H

#include <stdbool.h>
#include <stdint.h>

#include "base/base.h"
#include "cxla/cxla.h"

/* ---- element types -------------------------------------------------------- */

/* Internal spelling of cxla_type: T_F32 == CXLA_F32, and so on. */
typedef cxla_type ElemType;
#define T_PRED CXLA_PRED
#define T_S2 CXLA_S2
#define T_S4 CXLA_S4
#define T_S8 CXLA_S8
#define T_S16 CXLA_S16
#define T_S32 CXLA_S32
#define T_S64 CXLA_S64
#define T_U2 CXLA_U2
#define T_U4 CXLA_U4
#define T_U8 CXLA_U8
#define T_U16 CXLA_U16
#define T_U32 CXLA_U32
#define T_U64 CXLA_U64
#define T_F16 CXLA_F16
#define T_BF16 CXLA_BF16
#define T_F32 CXLA_F32
#define T_F64 CXLA_F64
#define T_F4E2M1FN CXLA_F4E2M1FN
#define T_F8E3M4 CXLA_F8E3M4
#define T_F8E4M3 CXLA_F8E4M3
#define T_F8E4M3FN CXLA_F8E4M3FN
#define T_F8E4M3FNUZ CXLA_F8E4M3FNUZ
#define T_F8E4M3B11FNUZ CXLA_F8E4M3B11FNUZ
#define T_F8E5M2 CXLA_F8E5M2
#define T_F8E5M2FNUZ CXLA_F8E5M2FNUZ
#define T_F8E8M0FNU CXLA_F8E8M0FNU
#define T_C64 CXLA_C64
#define T_C128 CXLA_C128
#define T_TOKEN CXLA_TOKEN
#define T_OPAQUE CXLA_OPAQUE
#define T_TUPLE CXLA_TUPLE
#define T_COUNT CXLA_TYPE_COUNT

typedef enum TypeKind { TK_PRED, TK_SINT, TK_UINT, TK_FLOAT, TK_COMPLEX, TK_OTHER } TypeKind;

const char *type_name(ElemType t);
/* Looks up a type by its exact text name ("f32"); false if unknown. */
bool type_from_name(const char *s, size_t n, ElemType *out);
int type_bytes(ElemType t);     /* storage bytes per element in a Literal */
int type_bits(ElemType t);      /* value width in bits */
TypeKind type_kind(ElemType t);
static inline bool type_is_float(ElemType t) { return type_kind(t) == TK_FLOAT; }
static inline bool type_is_complex(ElemType t) { return type_kind(t) == TK_COMPLEX; }
static inline bool type_is_int(ElemType t) {
  return type_kind(t) == TK_SINT || type_kind(t) == TK_UINT;
}
static inline bool type_is_array(ElemType t) {
  return t != T_TUPLE && t != T_TOKEN && t != T_OPAQUE;
}

/* ---- shapes ------------------------------------------------------------------- */

typedef struct Shape Shape;
struct Shape {
  ElemType type;      /* T_TUPLE for tuples */
  int rank;
  int64_t *dims;      /* rank entries; for a bounded dynamic dim, its bound */
  bool *dynamic;      /* NULL, or rank flags: dims[i] is "<=N" */
  bool has_layout;    /* the text gave {...} */
  int64_t *minor_to_major; /* rank entries when has_layout, else NULL */
  const char *layout_tail; /* verbatim text after ':' in the layout
                              ("T(8,128)S(1)"), or NULL */
  int ntuple;
  Shape **tuple;      /* ntuple element shapes, for T_TUPLE */
};

/* Number of elements (1 for scalars; tuples: 0). No overflow checks: verified
 * shapes are known to fit (shape_check_size). */
int64_t shape_elems(const Shape *s);
/* Checks that the array's element count and byte size fit in int64 and under
 * CXLA_MAX_ARRAY_BYTES (recursively for tuples). */
cxla_status shape_check_size(const Shape *s);
/* Structural equality. compare_layout: also compare layouts. */
bool shape_equal(const Shape *a, const Shape *b, bool compare_layout);
/* Same type and dims (ignores layout and dynamic flags). */
bool shape_compatible(const Shape *a, const Shape *b);
/* Same rank and dims, whatever the types and layouts (arrays). */
bool shape_same_dims(const Shape *a, const Shape *b);
/* Whether the array's physical order is its logical row-major order: no
 * layout, or one that orders the dims of size > 1 row-major. */
bool shape_physically_row_major(const Shape *s);
/* The physical stride (in elements) of each logical dim of array shape s
 * under its layout (row-major without one): strides[rank] entries. */
void shape_layout_strides(const Shape *s, int64_t *strides);
/* Allocating constructors from the arena (NULL on OOM). */
Shape *shape_new(Arena *a, ElemType t, int rank, const int64_t *dims);
Shape *shape_new_tuple(Arena *a, int n, Shape *const *elems);
Shape *shape_clone(Arena *a, const Shape *s);
/* Default layout {rank-1,...,0} set on s (and nested tuple shapes). */
cxla_status shape_set_default_layout(Arena *a, Shape *s);
/* Appends the text form ("f32[2,3]{1,0}", "(f32[], s32[4])") to b. */
void shape_print(StrBuf *b, const Shape *s, bool print_layout);

/* ---- literals (runtime values and constants) ------------------------------ */

/* A dense array value in logical row-major order (last dimension fastest),
 * or a tuple of literals. Heap-allocated; literal_free frees everything it
 * owns (dims, data, tuple elements).
 * Storage: type_bytes(type) bytes per element; pred is one byte 0/1; s2/s4/
 * u2/u4 one byte each holding the value (sign-extended for signed types);
 * f8/f4 types one byte of raw bits; f16 and bf16 two bytes of raw bits; c64
 * two floats (re, im), c128 two doubles. */
typedef struct cxla_literal Literal;
struct cxla_literal {
  ElemType type;
  int rank;
  int64_t *dims;
  int64_t nelems;
  void *data;          /* nelems * type_bytes(type) bytes; NULL for tuples */
  int ntuple;
  Literal **tuple;
  bool unknown;        /* parsed from an elided constant "{...}": no data */
};

/* Creates a zero-filled array literal. Returns RESOURCE_EXHAUSTED if the size
 * overflows or exceeds CXLA_MAX_ARRAY_BYTES. */
cxla_status literal_create(ElemType t, int rank, const int64_t *dims, Literal **out);
cxla_status literal_create_for_shape(const Shape *s, Literal **out); /* tuples too */
cxla_status literal_create_tuple(int n, Literal **elems_taken, Literal **out);
cxla_status literal_clone(const Literal *l, Literal **out);
/* A tuple of deep copies of elems[0..n) (borrowed). */
cxla_status literal_tuple_of_clones(Literal *const *elems, int n, Literal **out);
void literal_free(Literal *l);
/* Appends "f32[2,3]" or "(f32[], s32[4])" for a literal. */
void literal_print_shape(StrBuf *b, const Literal *l);
/* Exact equality of type, dims and bytes. */
bool literal_equal(const Literal *a, const Literal *b);
/* Element access converting to double / int64 (complex: real part). */
double literal_get_f64(const Literal *l, int64_t i);
int64_t literal_get_i64(const Literal *l, int64_t i);
void literal_set_f64(Literal *l, int64_t i, double v);   /* rounds per type */
void literal_set_i64(Literal *l, int64_t i, int64_t v);  /* wraps per type */

/* ---- opcodes ---------------------------------------------------------------- */

typedef enum Opcode {
#define OP(E, name, arity, flags) OP_##E,
#include "ir/ops.def"
#undef OP
  OP_COUNT
} Opcode;

enum {
  OPF_EW = 1 << 0,    /* elementwise */
  OPF_COMM = 1 << 1,  /* binary and commutative */
  OPF_SIDE = 1 << 2,  /* has side effects: never removed or merged */
  OPF_COLL = 1 << 3,  /* collective communication */
  OPF_ASYNC = 1 << 4, /* asynchronous start/update/done */
  OPF_CTRL = 1 << 5,  /* calls computations */
};

typedef struct OpInfo {
  const char *name;
  int arity; /* -1: variadic */
  unsigned flags;
} OpInfo;

const OpInfo *op_info(Opcode op);
static inline const char *op_name(Opcode op) { return op_info(op)->name; }
bool op_from_name(const char *s, size_t n, Opcode *out);

/* ---- attributes -------------------------------------------------------------- */

typedef struct I64List {
  int n;
  int64_t *v;
} I64List;

typedef enum CmpDir { CMP_NONE, CMP_EQ, CMP_NE, CMP_LT, CMP_LE, CMP_GT, CMP_GE } CmpDir;
typedef enum CmpType {
  CMPT_DEFAULT, /* not given: derived from the operand type */
  CMPT_FLOAT, CMPT_TOTALORDER, CMPT_SIGNED, CMPT_UNSIGNED
} CmpType;

typedef struct WindowDim {
  int64_t size, stride, pad_lo, pad_hi, lhs_dilate, rhs_dilate;
  bool reversal;
} WindowDim;

typedef struct PadDim {
  int64_t lo, hi, interior;
} PadDim;

typedef struct SliceDim {
  int64_t start, limit, stride;
} SliceDim;

/* Whether slice sl (in->rank entries) of an array of shape in, giving
 * shape out, reads one contiguous run of in's memory in out's order: in
 * and out physically row-major and of in's rank, stride 1, one index of
 * each dim before some dim j, a range of j and all of every dim after it.
 * *offset: the run's first element, counted from in's first (shape.c). */
bool shape_slice_contiguous(const Shape *in, const SliceDim *sl, const Shape *out, int64_t *offset);

typedef struct DotDims {
  I64List lhs_batch, rhs_batch, lhs_contract, rhs_contract;
} DotDims;

/* dim_labels=b01f_01io->b01f. Spatial dims in order of their digit. */
typedef struct ConvDims {
  int nspatial;
  int64_t in_batch, in_feature, *in_spatial;
  int64_t k_in, k_out, *k_spatial;
  int64_t out_batch, out_feature, *out_spatial;
} ConvDims;

typedef struct GatherDims {
  I64List offset_dims, collapsed_slice_dims, start_index_map;
  I64List operand_batching_dims, start_indices_batching_dims;
  int64_t index_vector_dim;
} GatherDims;

typedef struct ScatterDims {
  I64List update_window_dims, inserted_window_dims, scatter_dims_to_operand_dims;
  I64List input_batching_dims, scatter_indices_batching_dims;
  int64_t index_vector_dim;
} ScatterDims;

typedef enum FftType { FFT_NONE, FFT_FFT, FFT_IFFT, FFT_RFFT, FFT_IRFFT } FftType;
typedef enum RngDist { RNG_NONE, RNG_UNIFORM, RNG_NORMAL } RngDist;
typedef enum RngAlg { RNGA_DEFAULT, RNGA_THREE_FRY, RNGA_PHILOX } RngAlg;
typedef enum TriTranspose { TRI_NO_TRANSPOSE, TRI_TRANSPOSE, TRI_ADJOINT } TriTranspose;
typedef enum FusionKind { FUSION_NONE, FUSION_LOOP, FUSION_INPUT, FUSION_OUTPUT, FUSION_CUSTOM } FusionKind;

/* An attribute kept as text: ones cxla does not interpret (metadata,
 * sharding, frontend_attributes, backend_config, ...) and unknown ones. The
 * printer writes them back verbatim, after the known attributes, in the
 * order they were read. */
typedef struct RawAttr {
  const char *name;
  const char *value; /* the exact source text of the value */
} RawAttr;

/* Which typed attribute fields the instruction carries. The printer prints
 * exactly these (in XLA's order), so passes that build instructions set the
 * bits of what they fill in. */
enum {
  A_DIMENSIONS = 1u << 0,   /* dimensions={...} */
  A_INDEX = 1u << 1,        /* index=N (get-tuple-element) */
  A_SLICE = 1u << 2,        /* slice={[a:b:c], ...} */
  A_PADDING = 1u << 3,      /* padding=lo_hi_int x ... (pad) */
  A_WINDOW = 1u << 4,       /* window={...} */
  A_CONV_DIMS = 1u << 5,    /* dim_labels=... */
  A_DOT_DIMS = 1u << 6,     /* lhs_batch_dims=... etc */
  A_GATHER_DIMS = 1u << 7,
  A_SCATTER_DIMS = 1u << 8,
  A_COMPARE = 1u << 9,      /* direction= [type=] */
  A_IOTA_DIM = 1u << 10,
  A_SLICE_SIZES = 1u << 11, /* slice_sizes={...} (gather) */
  A_DYN_SLICE_SIZES = 1u << 12, /* dynamic_slice_sizes={...} */
  A_GROUPS = 1u << 13,      /* feature_group_count / batch_group_count */
  A_REDUCE_PRECISION = 1u << 14, /* exponent_bits, mantissa_bits */
  A_FFT = 1u << 15,         /* fft_type, fft_length */
  A_RNG = 1u << 16,         /* distribution / algorithm */
  A_CUSTOM_CALL = 1u << 17, /* custom_call_target */
  A_IS_STABLE = 1u << 18,
  A_TRIANGULAR = 1u << 19,  /* left_side, lower, unit_diagonal, transpose_a */
  A_CHOLESKY = 1u << 20,    /* lower */
  A_FUSION_KIND = 1u << 21,
  A_TOPK = 1u << 22,        /* k, largest */
  A_INDICES_SORTED = 1u << 23,
  A_UNIQUE_INDICES = 1u << 24,
  A_SIDE_EFFECT = 1u << 25,  /* custom_call_has_side_effect=BOOL (custom-call) */
};

/* Which group of Instr's union of dimension numbers an instruction of
 * opcode op holds (the HLO reader decodes each group's attributes for
 * these opcodes only). */
typedef enum DimsKind { DIMS_NONE, DIMS_CONV, DIMS_DOT, DIMS_GATHER, DIMS_SCATTER } DimsKind;
static inline DimsKind op_dims_kind(Opcode op) {
  switch (op) {
  case OP_CONVOLUTION: case OP_CUSTOM_CALL: return DIMS_CONV;
  case OP_DOT: case OP_SCALED_DOT: case OP_RAGGED_DOT: return DIMS_DOT;
  case OP_GATHER: return DIMS_GATHER;
  case OP_SCATTER: return DIMS_SCATTER;
  default: return DIMS_NONE;
  }
}

typedef struct Computation Computation;
typedef struct Instr Instr;
typedef struct cxla_module HloModule;

struct Instr {
  /* Fields ordered so that no padding falls between them; what every pass
   * reads first lies in the first 64 bytes. */
  const char *name;      /* without '%' */
  Opcode op;
  int noperands;
  Shape *shape;
  Instr **operands;
  Computation **called;  /* to_apply/calls/condition+body (that order)/
                            true+false/branch_computations/select+scatter
                            (that order) */
  Computation *parent;
  void *scratch;         /* free for a pass's own use; not preserved */
  int ncalled;
  int id;                /* position in parent->instrs (kept by comp_renumber) */

  /* -- typed attributes; present when the A_* bit is set in `attrs` -- */
  uint32_t attrs;
  int nwindow;
  int64_t param_number;  /* parameter(N) */
  Literal *literal;      /* constant(...) */
  I64List dimensions;
  int64_t index;         /* get-tuple-element index, iota_dimension */
  SliceDim *slice;       /* rank(operand) entries */
  PadDim *padding;       /* rank entries */
  WindowDim *window;
  /* One group of dimension numbers, by opcode (op_dims_kind): the
   * convolution's (convolution, custom-call), the dot's (dot, scaled-dot,
   * ragged-dot), the gather's or the scatter's; all zero where absent.
   * Members of other opcodes' groups are not to be read: they share the
   * memory (an Instr was 640 bytes with the four side by side; `cxla opt`
   * of 10^5 instructions 7-9% faster with them overlaid). */
  union {
    ConvDims conv;
    DotDims dot;
    GatherDims gather;
    ScatterDims scatter;
  };
  I64List slice_sizes;   /* gather slice_sizes / dynamic_slice_sizes */
  CmpDir cmp_dir;
  CmpType cmp_type;
  int64_t feature_group_count, batch_group_count; /* default 1 */
  int64_t exponent_bits, mantissa_bits;
  I64List fft_length;
  FftType fft_type;
  RngDist rng_dist;
  RngAlg rng_alg;
  TriTranspose tri_transpose;
  FusionKind fusion_kind;
  int nraw;
  RawAttr *raw;          /* kept-verbatim attributes, in source order */
  const char *custom_call_target;
  int64_t topk_k;
  Instr **control_preds; /* control-predecessors={...} */
  int ncontrol_preds;
  bool has_side_effect;  /* custom-call declared custom_call_has_side_effect=true */
  bool retired;          /* replaced by a pass, dead: see instr_retire (rewrite.h) */
  bool is_stable;
  bool tri_left_side, tri_lower, tri_unit_diagonal;
  bool chol_lower;
  bool topk_largest;
  bool indices_are_sorted, unique_indices;
};

struct Computation {
  const char *name;
  bool is_entry;
  bool is_fusion;        /* called by a fusion instruction (computed) */
  /* Its f32/f64 adds and subtracts take in the multiplies only they read,
   * as fused multiply-adds (ir/contract.h): set by the fusion passes
   * (not in exact mode) and by the reader for fused computations. */
  bool contract;
  HloModule *module;
  int ninstrs, cap;
  Instr **instrs;        /* post order */
  Instr *root;
  int nparams;
  Instr **params;        /* by parameter number */
  void *scratch;         /* free for a pass's own use; not preserved */
  /* Whether running it can have an effect beyond its result: a
   * side-effecting instruction in it or in a computation it calls. Set for
   * every computation by module_mark_side_effects (rewrite.h), which the
   * parsers run on what they read and the pass pipeline before every pass;
   * comp_clone copies it; a computation a pass builds from scratch (fused
   * computations, reducers) has none. */
  bool side_effects;
};

/* ---- module header attributes ------------------------------------------------ */

/* entry_computation_layout={(P0, P1, ...)->R}: the entry computation's
 * signature with the layouts the caller uses. The verifier checks it against
 * the entry computation (same count, types and dims); layout assignment
 * takes the layouts from it. */
typedef struct EntryLayout {
  int nparams;
  Shape **params;        /* nparams shapes, layouts as written */
  Shape *result;
} EntryLayout;

typedef enum AliasKind { ALIAS_MAY, ALIAS_MUST } AliasKind;

/* One entry of input_output_alias={ {1}: (0, {}, may-alias), ... }: the
 * result's leaf at output_index lives in parameter param_number's leaf at
 * param_index (shape indices: {} is the whole value). */
typedef struct IoAlias {
  I64List output_index;
  int64_t param_number;
  I64List param_index;
  AliasKind kind;
} IoAlias;

struct cxla_module {
  Arena arena;
  const char *name;
  int ncomps, cap;
  Computation **comps;   /* callees before callers; entry last (as printed) */
  Computation *entry;

  /* -- header attributes, typed. Every reader (HLO text, StableHLO) fills
   * these; nothing re-reads their text. The HLO printer writes them among
   * the verbatim ones in XLA's order (is_scheduled, input_output_alias,
   * buffer_donor, alias_passthrough_params, entry_computation_layout, the
   * rest). -- */
  EntryLayout *entry_layout; /* NULL when the input gave none */
  bool has_io_alias;     /* input_output_alias was given (maybe empty) */
  int nio_alias;
  IoAlias *io_alias;     /* nio_alias entries, in the order given */

  int nraw;
  RawAttr *raw;          /* the other module header attributes, verbatim
                            (is_scheduled, allow_spmd_..., ...) */
  const char *stack_frames; /* the verbatim "FileNames ... StackFrames ..."
                              section after the header (metadata's
                              stack_frame_id refers to it), or NULL */
  int nliterals, literal_cap;
  Literal **literals;    /* owned constants */
  int next_id;           /* for fresh instruction names: at least every
                            numeric suffix of an instruction name in the
                            module (module_note_name) */
  /* module_unique_comp_name's index: every computation name given out
   * (built on its first call from the computations then, extended by
   * module_add_computation and module_note_comp_name; the names of
   * computations since removed stay: never handed out again), and per
   * base name the last suffix it handed out (as an intptr_t), so that a
   * computation cloned K times costs O(K), not O(K^2) or O(K C). */
  NameMap comp_names, comp_suffix;
  bool comp_names_built;
};

/* ---- building and walking modules ----------------------------------------- */

/* A new empty module (its name copied). */
cxla_status module_create(const char *name, HloModule **out);
void module_destroy(HloModule *m);
/* Adds a new empty computation (name copied into the arena); NULL on OOM. */
Computation *module_add_computation(HloModule *m, const char *name);
/* Records a name a pass gave a computation in place (c->name = ...), for
 * module_unique_comp_name; false on OOM. `name` must live as long as m. */
bool module_note_comp_name(HloModule *m, const char *name);
Computation *module_find_computation(const HloModule *m, const char *name);
/* Hands a literal to the module (freed by module_destroy). On failure frees
 * the literal and returns the OOM status. */
cxla_status module_own_literal(HloModule *m, Literal *l);
/* Raises m->next_id to name's numeric suffix ("add.42": 42; at most 2^30),
 * so that fresh names "<opcode>.<N>" cannot collide with it: called for
 * every name given to an instruction (comp_add_instr does). */
void module_note_name(HloModule *m, const char *name);
/* Appends a new instruction to c, with its attribute defaults
 * (feature_group_count = batch_group_count = 1, index_vector_dim = -1, ...).
 * The operand array is copied; `name` is copied (NULL: a fresh unique name
 * "<opcode>.<N>" is made). Returns NULL on OOM. Does not set c->root or
 * c->params: the caller does. */
Instr *comp_add_instr(Computation *c, Opcode op, Shape *shape, int nops,
                      Instr *const *ops, const char *name);
/* Appends existing instruction `in` (of c's module, taken out of its
 * computation by the caller, which drops that computation or its list
 * entry) to c: its parent becomes c, its id is left to the caller
 * (comp_renumber, comp_sort). False on OOM. */
bool comp_move_instr(Computation *c, Instr *in);
/* Re-assigns Instr.id to positions in c->instrs. */
void comp_renumber(Computation *c);
/* Looks up an instruction by name in one computation; NULL if absent. */
Instr *comp_find_instr(const Computation *c, const char *name);
/* Appends a kept-verbatim attribute (strings copied into the arena). */
cxla_status instr_add_raw(HloModule *m, Instr *in, const char *name, const char *value);
/* The value of a raw attribute, or NULL. */
const char *instr_raw(const Instr *in, const char *name);
/* The integer value of key in a backend_config of the form
 * "{uplo = 76 : ui8, mode = 65 : ui8}" (LAPACK custom-calls' character
 * attributes), or dflt. */
int instr_config_char(const Instr *in, const char *key, int dflt);

/* Structural identity (identical.c). instr_attrs_identical: everything
 * but operands and called computations (opcode, shape with layout, typed
 * attributes, raw ones but `metadata`, constants by value; an elided
 * constant equals nothing). instr_called_identical: each called
 * computation the same one or comp_identical. comp_identical: the same
 * instructions in the same order with identical attributes and calls,
 * operands at the same positions; ids must be current (comp_renumber),
 * else false. Hashes consistent with them (equal values, equal hashes):
 * instr_attrs_hash (opcode, shape, dimensions, index, constant, called
 * structure), comp_structure_hash; ir_hash_mix combines hash values.
 * Linear in the sizes compared. */
bool instr_attrs_identical(const Instr *a, const Instr *b);
bool instr_called_identical(const Instr *a, const Instr *b);
bool comp_identical(const Computation *a, const Computation *b);
uint64_t instr_attrs_hash(const Instr *in);
uint64_t comp_structure_hash(const Computation *c);
uint64_t ir_hash_mix(uint64_t h, uint64_t v);

/* Row reductions: whether computation c, computing an array of shape out
 * (rank >= 2), reduces rows of arrays of out's dims over their trailing
 * dims k .. rank-1 and reads the results only at the row's index: every
 * value that depends on a reduce is a reduce (one input of out's dims,
 * over dims k .. rank-1, a scalar init that depends on none), elementwise
 * on row values (dims out[0 .. k)) or on values of out's dims, or a
 * broadcast of a row value along the trailing dims (dimensions={0 ..
 * k-1}); the root is of out's dims and depends on a reduce (softmax,
 * layer norm). Returns k (> 0), or 0 when c is not such a computation or
 * has more than max reduces; red (when not NULL) gets the reduces in
 * definition order. Instructions must be in definition order. Linear in
 * c's size. */
int comp_row_reductions(const Computation *c, const Shape *out, const Instr **red, int max);
/* The same rules with options, for the fusion passes: k required (> 0) or
 * found (<= 0); parameter number `seed` (>= 0) read as a row value, as if
 * it were a reduce's result; a root of row dims accepted when row_root;
 * no reduce needed (*nred gets their number). */
int comp_rows(const Computation *c, const Shape *full, int k, int seed, bool row_root, int *nred,
              const Instr **red, int max);

#endif
