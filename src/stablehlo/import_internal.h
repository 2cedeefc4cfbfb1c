/* import_internal.h: shared state of the StableHLO -> HLO importer
 * (import.c: module, functions, regions, captures, the op table;
 *  import_ops.c: the ops with structure; import_chlo.c: CHLO decompositions). */
#ifndef CXLA_STABLEHLO_IMPORT_INTERNAL_H
#define CXLA_STABLEHLO_IMPORT_INTERNAL_H

#include "ir/ir.h"
#include "stablehlo/mlir.h"

/* A pointer -> pointer hash map (open addressing), cxla heap. Values must
 * not be NULL (a set stores the key as its value). */
typedef struct PtrMap {
  const void **keys;
  void **vals;
  size_t cap, used;
} PtrMap;
void *pm_get(const PtrMap *m, const void *k);
bool pm_put(PtrMap *m, const void *k, void *v); /* false on OOM */
void pm_free(PtrMap *m);

typedef struct FuncInfo {
  MlirOp *op;
  const char *name;
  Computation *comp;   /* once imported */
  int state;           /* 0 not yet, 1 importing, 2 done */
  int inlining;        /* bodies being inlined (refinement), nested */
} FuncInfo;

/* What one op's handler sees in place of the op's own types and
 * attributes (refinement sets it for that op; imp_op clears it around
 * every handler call and restores it after). */
typedef struct ImpOverride {
  const MlirOp *op;              /* the op it is for; NULL: none */
  Shape **shapes;                /* result k's shape (NULL: the type's) */
  int nops;                      /* operands the handler uses (0: all) */
  const I64List *padding;        /* window padding, lo/hi pairs */
  const I64List *slice_sizes;    /* gather */
} ImpOverride;

typedef struct Imp {
  MlirModule *mm;
  HloModule *hm;
  FuncInfo *funcs;
  int nfuncs;
  int nregions;        /* for region_N names */
  int call_depth;      /* functions being imported, nested */
  FuncInfo *entry;
  /* -- shape refinement (import_refine.c) -- */
  bool refine;         /* the program has "?" dimensions or shape assertions */
  const cxla_arg_shape *args; /* the entry's argument shapes, nargs of them */
  int nargs;           /* < 0: none given */
  int64_t nops;        /* ops imported (inlining budget) */
  ImpOverride ov;
} Imp;

/* One computation under construction: MLIR values -> instructions. */
typedef struct Scope {
  Imp *imp;
  Computation *c;
  PtrMap vals;
} Scope;

/* Errors at an op's position. */
cxla_status imp_err(Imp *im, const MlirOp *op, cxla_status_code code, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 4, 5)))
#endif
    ;

/* MLIR type -> HLO shape (static or bounded dims; in refinement, "?" dims
 * become -1 until import_refine.c infers them). */
cxla_status imp_shape(Imp *im, const MlirOp *op, const MlirType *t, Shape **out);
/* The instruction a value became in scope s. */
cxla_status imp_value(Scope *s, const MlirOp *op, const MlirValue *v, Instr **out);

/* Builders (NULL on OOM; callers check with IMP_NN). */
Instr *ib(Scope *s, Opcode op, Shape *shape, int n, Instr *const *ops);
Instr *ib1(Scope *s, Opcode op, Instr *a);            /* same shape as a */
Instr *ib2(Scope *s, Opcode op, Instr *a, Instr *b);  /* same shape as a */
Instr *ib_cmp(Scope *s, CmpDir d, Instr *a, Instr *b);
Instr *ib_select(Scope *s, Instr *p, Instr *a, Instr *b);
Instr *ib_convert(Scope *s, Instr *a, ElemType t);
/* A scalar constant of type t broadcast to `like`'s dims. */
Instr *ib_const(Scope *s, ElemType t, double v, const Shape *like);
/* Same, from raw bits (for integers and exact float patterns). */
Instr *ib_const_i(Scope *s, ElemType t, int64_t v, const Shape *like);
Shape *shape_with_type(Scope *s, const Shape *like, ElemType t);
Instr *ib_gte(Scope *s, Instr *t, int i);
Instr *ib_tuple(Scope *s, int n, Instr *const *ops);

/* Builds a computation from a region whose block arguments become
 * parameters (reduce, sort, scatter, ... bodies). */
cxla_status imp_region_comp(Imp *im, const MlirOp *op, const MlirRegion *r, Computation **out);
/* Imports the ops of a block into scope s; the terminator's operands are
 * returned (instructions) in *rets (arena array), *nrets. */
cxla_status imp_block(Scope *s, const MlirBlock *b, Instr ***rets, int *nrets);
/* The computation of function `name` (imported on first use). */
cxla_status imp_func(Imp *im, const MlirOp *at, const char *name, Computation **out);

bool set_called(Scope *s, Instr *in, int n, Computation *const *cs);

/* Op handlers: build the instruction(s) of op from its operand
 * instructions. *out is the result (a tuple-shaped instruction when the op
 * has several results). */
typedef cxla_status (*ImpFn)(Scope *s, const MlirOp *op, Instr **ops, Instr **out);
ImpFn imp_ops_lookup(const char *name);  /* import_ops.c */
ImpFn imp_chlo_lookup(const char *name); /* import_chlo.c */
int imp_chlo_arity(const char *name);    /* its operand count */

/* Attribute accessors (NULL / false when absent or of another kind). */
const MlirAttr *attr_of(const MlirOp *op, const char *name, MlirAttrKind k);
/* An i64 list from MA_DENSE_ARRAY / MA_ARRAY of MA_INT / MA_DENSE (ints). */
cxla_status attr_i64s(Imp *im, const MlirOp *op, const char *name, bool required, I64List *out);
cxla_status attr_int(Imp *im, const MlirOp *op, const char *name, bool required, int64_t def,
                     int64_t *out);
bool attr_bool_or(const MlirOp *op, const char *name, bool def);

/* The operands a handler uses: op's, or the override's count. */
static inline int imp_nops(const Imp *im, const MlirOp *op) {
  return im->ov.op == op && im->ov.nops ? im->ov.nops : op->noperands;
}

/* ---- shape refinement (import_refine.c) ---- */

/* Ops a refined program may have once its functions are inlined. */
#define IMP_MAX_REFINED_OPS 4000000

/* Does a type have a dimension "?" without a bound? */
bool imp_type_dynamic(const MlirType *t);
/* Has a shape (or a tuple element) a provisional dimension (-1)? */
bool imp_shape_provisional(const Shape *s);
/* Decides Imp.refine: "?" types or shape assertions anywhere. */
bool imp_module_needs_refine(const MlirModule *mm);
/* Before op's handler: result shapes of elementwise ops from their
 * operands (so that decompositions build static shapes). */
cxla_status imp_refine_before(Scope *s, const MlirOp *op, Instr **ops);
/* After it: the instructions it added to s->c from index `first` get
 * their shapes inferred where they were provisional, and small integer
 * computations on constants (dimension arithmetic) are folded. */
cxla_status imp_refine_after(Scope *s, const MlirOp *op, int first);
/* Handlers of the dynamic ops and of custom calls refinement resolves
 * (stablehlo.dynamic_top_k, shape_assertion, ...); NULL if none. */
ImpFn imp_dynamic_lookup(const char *name);
ImpFn imp_dynamic_custom_call(const char *target);
/* A custom call with indices_of_shape_operands (its results' shapes in
 * trailing operands): sets the overrides so that its handler sees those
 * shapes and the other operands only. */
cxla_status imp_custom_call_shape_operands(Scope *s, const MlirOp *op, Instr **ops);

/* Static handlers the dynamic ones reuse (import_ops.c). */
cxla_status imp_broadcast_in_dim(Scope *s, const MlirOp *op, Instr *x, Shape *rs, I64List d,
                                 Instr **out);
/* custom_call @ApproxTopK: N arrays and N init values (imp_nops). */
cxla_status imp_approx_top_k(Scope *s, const MlirOp *op, Instr **ops, Instr **out);

#define IMP_NN(x)                     \
  do {                                \
    if (!(x)) return cxla_oom();      \
  } while (0)

#endif
