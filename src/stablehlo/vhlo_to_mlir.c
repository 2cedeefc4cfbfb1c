/* vhlo_to_mlir.c: the portable-artifact reader's second half: the decoded
 * VHLO module (bytecode.h) becomes the generic op tree of mlir.h in its
 * normalized form, as StableHLO's VhloLegalizeToStablehlo does it:
 *   - op names: vhlo.add_v1 -> stablehlo.add, vhlo.func_v1 -> func.func,
 *     vhlo.call_v1 -> func.call, vhlo.return_v1 -> func.return directly in a
 *     function and stablehlo.return elsewhere;
 *   - attributes: VHLO's always-present attributes lose their default values;
 *     flattened dimension numbers are gathered into MA_DOT / MA_CONV /
 *     MA_GATHER / MA_SCATTER, channel ids into MA_CHANNEL_HANDLE, the dot
 *     algorithm fields into MA_DOT_ALGORITHM; the attributes stablehlo keeps
 *     as dense arrays (broadcast_dimensions, permutation, ...) become
 *     MA_DENSE_ARRAY;
 *   - types and dense data: MLIR's layout -> the one mlir.h states.
 * Entry point: mlir_parse_bytecode (mlir.h). */
#include <stdio.h>
#include <string.h>

#include "ir/ir.h"
#include "stablehlo/bytecode.h"
#include "stablehlo/mlir.h"

typedef struct Conv {
  MlirModule *m;
  const BcModule *bc;
  MlirValue **values; /* module-wide value id -> value */
  const BcOp *op;     /* the op being converted (for error positions) */
  /* Nodes (attributes, types, array elements) the tree may still get: the
   * decoded module shares attributes and types, the tree copies them, so a
   * small file could otherwise expand without bound. */
  int64_t budget;
  /* Value types converted so far (open addressing, BcType* -> MlirType*). */
  const BcType **tkeys;
  MlirType **tvals;
  size_t tcap, tused;
} Conv;

static MlirPos pos_of(const BcOp *op) {
  MlirPos p = {0, 0, op ? (int64_t)op->offset : 0, "IR"};
  return p;
}

#define conv_err(c, ...) mlir_error_at(CXLA_INVALID_ARGUMENT, (c)->m, pos_of((c)->op), __VA_ARGS__)

static void *alloc(Conv *c, size_t n, size_t size) { return arena_array(&c->m->arena, n ? n : 1, size); }

static cxla_status spend(Conv *c, uint64_t n) {
  if (n > (uint64_t)c->budget) {
    c->budget = 0;
    return mlir_error_at(CXLA_RESOURCE_EXHAUSTED, c->m, pos_of(c->op),
                         "attributes and types expand to too many nodes for the file's size");
  }
  c->budget -= (int64_t)n;
  return NULL;
}

/* ---- types ------------------------------------------------------------------ */

static cxla_type float_type(BcFloatKind k) {
  switch (k) {
  case BCF_F16: return CXLA_F16;
  case BCF_BF16: return CXLA_BF16;
  case BCF_F32: return CXLA_F32;
  case BCF_F64: return CXLA_F64;
  case BCF_F8E4M3FN: return CXLA_F8E4M3FN;
  case BCF_F8E5M2: return CXLA_F8E5M2;
  case BCF_F8E4M3FNUZ: return CXLA_F8E4M3FNUZ;
  case BCF_F8E5M2FNUZ: return CXLA_F8E5M2FNUZ;
  case BCF_F8E4M3B11FNUZ: return CXLA_F8E4M3B11FNUZ;
  case BCF_F8E4M3: return CXLA_F8E4M3;
  case BCF_F8E3M4: return CXLA_F8E3M4;
  case BCF_F8E8M0FNU: return CXLA_F8E8M0FNU;
  case BCF_F4E2M1FN: return CXLA_F4E2M1FN;
  default: return CXLA_TYPE_COUNT;
  }
}

static cxla_type int_type(int bits, bool is_unsigned) {
  switch (bits) {
  case 2: return is_unsigned ? CXLA_U2 : CXLA_S2;
  case 4: return is_unsigned ? CXLA_U4 : CXLA_S4;
  case 8: return is_unsigned ? CXLA_U8 : CXLA_S8;
  case 16: return is_unsigned ? CXLA_U16 : CXLA_S16;
  case 32: return is_unsigned ? CXLA_U32 : CXLA_S32;
  case 64: return is_unsigned ? CXLA_U64 : CXLA_S64;
  default: return CXLA_TYPE_COUNT;
  }
}

static MlirType *elem_type(Conv *c, cxla_type t) {
  MlirType *r = alloc(c, 1, sizeof *r);
  if (r) {
    r->kind = MLT_ELEM;
    r->elem = t;
  }
  return r;
}

static MlirType *other_type(Conv *c, const char *text) {
  MlirType *r = alloc(c, 1, sizeof *r);
  if (!r) return NULL;
  r->kind = MLT_OTHER;
  r->text = arena_strdup(&c->m->arena, text ? text : "?");
  return r->text ? r : NULL;
}

static cxla_status conv_type(Conv *c, const BcType *t, MlirType **out);

static cxla_status conv_types(Conv *c, const BcType **ts, size_t n, MlirType ***out) {
  MlirType **v = alloc(c, n, sizeof *v);
  if (!v) return cxla_oom();
  for (size_t i = 0; i < n; i++) TRY(conv_type(c, ts[i], &v[i]));
  *out = v;
  return NULL;
}

static cxla_status conv_type(Conv *c, const BcType *t, MlirType **out) {
  MlirType *r = NULL;
  TRY(spend(c, 1 + t->rank + t->n + t->nresults));
  switch (t->kind) {
  case BCT_BOOL: r = elem_type(c, CXLA_PRED); break;
  case BCT_INT: {
    cxla_type e = int_type(t->bits, t->is_unsigned);
    r = e == CXLA_TYPE_COUNT ? other_type(c, "integer type") : elem_type(c, e);
    break;
  }
  case BCT_FLOAT: {
    cxla_type e = float_type(t->fkind);
    r = e == CXLA_TYPE_COUNT ? other_type(c, "float type") : elem_type(c, e);
    break;
  }
  case BCT_COMPLEX:
    if (t->elem->kind == BCT_FLOAT && t->elem->fkind == BCF_F32) r = elem_type(c, CXLA_C64);
    else if (t->elem->kind == BCT_FLOAT && t->elem->fkind == BCF_F64) r = elem_type(c, CXLA_C128);
    else r = other_type(c, "complex type");
    break;
  case BCT_INDEX:
  case BCT_TOKEN:
  case BCT_NONE:
    r = alloc(c, 1, sizeof *r);
    if (r) r->kind = t->kind == BCT_INDEX ? MLT_INDEX : t->kind == BCT_TOKEN ? MLT_TOKEN : MLT_NONE;
    break;
  case BCT_TENSOR:
  case BCT_UNRANKED: {
    r = alloc(c, 1, sizeof *r);
    if (!r) return cxla_oom();
    r->kind = t->kind == BCT_TENSOR ? MLT_TENSOR : MLT_UNRANKED;
    TRY(conv_type(c, t->elem, &r->element));
    if (t->kind == BCT_UNRANKED) break;
    if (t->rank > 1024) return conv_err(c, "tensor of rank over 1024");
    r->rank = (int)t->rank;
    r->dims = alloc(c, t->rank, sizeof *r->dims);
    if (!r->dims) return cxla_oom();
    for (size_t i = 0; i < t->rank; i++) {
      if (t->shape[i] < 0 && t->shape[i] != BC_DYNAMIC) return conv_err(c, "negative tensor dimension");
      r->dims[i] = t->shape[i];
    }
    if (t->encoding) {
      const BcAttr *e = t->encoding;
      if (e->kind != BCA_INTS || e->nints != t->rank) return conv_err(c, "unsupported tensor encoding");
      r->bounds = alloc(c, t->rank, sizeof *r->bounds);
      if (!r->bounds) return cxla_oom();
      memcpy(r->bounds, e->ints, t->rank * sizeof *r->bounds);
    }
    break;
  }
  case BCT_TUPLE:
  case BCT_FUNCTION:
    r = alloc(c, 1, sizeof *r);
    if (!r) return cxla_oom();
    r->kind = t->kind == BCT_TUPLE ? MLT_TUPLE : MLT_FUNCTION;
    if (t->n > INT32_MAX || t->nresults > INT32_MAX) return conv_err(c, "too many types");
    r->n = (int)t->n;
    TRY(conv_types(c, t->types, t->n, &r->types));
    if (t->kind == BCT_FUNCTION) {
      r->nresults = (int)t->nresults;
      TRY(conv_types(c, t->results, t->nresults, &r->results));
    }
    break;
  case BCT_QUANT:
  case BCT_OTHER:
    r = other_type(c, t->name);
    break;
  }
  if (!r) return cxla_oom();
  *out = r;
  return NULL;
}

/* The type of a value: converted once per distinct decoded type. */
static cxla_status conv_value_type(Conv *c, const BcType *t, MlirType **out) {
  if (c->tused * 2 >= c->tcap) {
    size_t cap = c->tcap ? c->tcap * 2 : 64;
    const BcType **keys = cxla_calloc(cap, sizeof *keys);
    MlirType **vals = cxla_calloc(cap, sizeof *vals);
    if (!keys || !vals) {
      cxla_free(keys);
      cxla_free(vals);
      return cxla_oom();
    }
    for (size_t i = 0; i < c->tcap; i++)
      if (c->tkeys[i]) {
        size_t k = ((uintptr_t)c->tkeys[i] >> 4) & (cap - 1);
        while (keys[k]) k = (k + 1) & (cap - 1);
        keys[k] = c->tkeys[i];
        vals[k] = c->tvals[i];
      }
    cxla_free(c->tkeys);
    cxla_free(c->tvals);
    c->tkeys = keys;
    c->tvals = vals;
    c->tcap = cap;
  }
  size_t k = ((uintptr_t)t >> 4) & (c->tcap - 1);
  while (c->tkeys[k] && c->tkeys[k] != t) k = (k + 1) & (c->tcap - 1);
  if (!c->tkeys[k]) {
    TRY(conv_type(c, t, &c->tvals[k]));
    c->tkeys[k] = t;
    c->tused++;
  }
  *out = c->tvals[k];
  return NULL;
}

/* ---- attributes ----------------------------------------------------------------- */

static MlirAttr *new_attr(Conv *c, MlirAttrKind kind) {
  MlirAttr *a = alloc(c, 1, sizeof *a);
  if (a) {
    a->kind = kind;
    a->pos = pos_of(c->op);
  }
  return a;
}

static const char *const ENUM_CASES[][6] = {
    [BCE_COMPARISON_DIRECTION] = {"EQ", "NE", "GE", "GT", "LE", "LT"},
    [BCE_COMPARISON_TYPE] = {"NOTYPE", "FLOAT", "TOTALORDER", "SIGNED", "UNSIGNED"},
    [BCE_FFT_TYPE] = {"FFT", "IFFT", "RFFT", "IRFFT"},
    [BCE_PRECISION] = {"DEFAULT", "HIGH", "HIGHEST"},
    [BCE_RNG_ALGORITHM] = {"DEFAULT", "THREE_FRY", "PHILOX"},
    [BCE_RNG_DISTRIBUTION] = {NULL, "UNIFORM", "NORMAL"},
    [BCE_TRANSPOSE] = {"TRANSPOSE_INVALID", "NO_TRANSPOSE", "TRANSPOSE", "ADJOINT"},
    [BCE_RESULT_ACCURACY_MODE] = {"DEFAULT", "HIGHEST", "TOLERANCE"},
};

static const MlirEnumKind ENUM_KINDS[] = {
    [BCE_COMPARISON_DIRECTION] = ME_COMPARISON_DIRECTION, [BCE_COMPARISON_TYPE] = ME_COMPARISON_TYPE,
    [BCE_CUSTOM_CALL_API_VERSION] = ME_OTHER, [BCE_FFT_TYPE] = ME_FFT_TYPE,
    [BCE_PRECISION] = ME_PRECISION, [BCE_RNG_ALGORITHM] = ME_RNG_ALGORITHM,
    [BCE_RNG_DISTRIBUTION] = ME_RNG_DISTRIBUTION, [BCE_TRANSPOSE] = ME_TRANSPOSE,
    [BCE_RESULT_ACCURACY_MODE] = ME_RESULT_ACCURACY_MODE,
};

static double half_to_double(uint16_t h) {
  int e = (h >> 10) & 31, m = h & 1023;
  double v;
  if (e == 0) v = m * (1.0 / (1 << 24));
  else if (e == 31) v = m ? __builtin_nan("") : __builtin_inf();
  else v = (1 + m / 1024.0) * __builtin_ldexp(1.0, e - 15);
  return (h & 0x8000) ? -v : v;
}

static cxla_status float_value(Conv *c, const BcAttr *a, double *out) {
  switch (a->type->kind == BCT_FLOAT ? a->type->fkind : BCF_F80) {
  case BCF_F64: {
    memcpy(out, &a->bits, sizeof *out);
    return NULL;
  }
  case BCF_F32: {
    uint32_t b = (uint32_t)a->bits;
    float f;
    memcpy(&f, &b, sizeof f);
    *out = f;
    return NULL;
  }
  case BCF_BF16: {
    uint32_t b = (uint32_t)(a->bits & 0xFFFF) << 16;
    float f;
    memcpy(&f, &b, sizeof f);
    *out = f;
    return NULL;
  }
  case BCF_F16: *out = half_to_double((uint16_t)a->bits); return NULL;
  default: return conv_err(c, "float attribute of an unsupported float type");
  }
}

/* The element count of a static tensor type, or -1. */
static int64_t elems_of(const BcType *t) {
  if (t->kind != BCT_TENSOR) return -1;
  int64_t n = 1;
  for (size_t i = 0; i < t->rank; i++)
    if (t->shape[i] < 0 || !mul_i64(n, t->shape[i], &n)) return -1;
  return n;
}

/* Dense data: MLIR's raw layout (one element for a splat) -> mlir.h's. */
static cxla_status conv_dense(Conv *c, const BcAttr *a, MlirAttr *r) {
  TRY(conv_type(c, a->type, &r->type));
  if (r->type->kind != MLT_TENSOR) return conv_err(c, "dense elements of a non-tensor type");
  int esize = mlir_elem_bytes(r->type->element);
  int64_t n = elems_of(a->type);
  if (esize <= 0 || n < 0) return conv_err(c, "dense elements of an unsupported type");
  int64_t total;
  if (!mul_i64(n, esize, &total)) return conv_err(c, "dense elements too large");
  bool splat = n != 1 && a->len == (size_t)esize;
  if (!splat && a->len != (size_t)total) {
    return conv_err(c, "dense elements data has %zu bytes for %lld elements of %d bytes", a->len,
                    (long long)n, esize);
  }
  uint8_t *data = alloc(c, a->len, 1);
  if (!data) return cxla_oom();
  if (a->len) memcpy(data, a->data, a->len);
  /* Sub-byte signed integers: MLIR stores the low bits; sign-extend. */
  const BcType *et = a->type->elem;
  if (et->kind == BCT_INT && et->bits < 8 && !et->is_unsigned) {
    for (size_t i = 0; i < a->len; i++) {
      int shift = 8 - et->bits;
      data[i] = (uint8_t)(int8_t)((int8_t)(data[i] << shift) >> shift);
    }
  }
  r->kind = MA_DENSE;
  r->splat = splat;
  r->data = data;
  r->nbytes = a->len;
  return NULL;
}

static cxla_status conv_attr(Conv *c, const BcAttr *a, MlirAttr **out);

static cxla_status conv_attr(Conv *c, const BcAttr *a, MlirAttr **out) {
  TRY(spend(c, 1 + a->n + a->nints + a->nints2));
  MlirAttr *r = new_attr(c, MA_OPAQUE);
  if (!r) return cxla_oom();
  *out = r;
  switch (a->kind) {
  case BCA_ARRAY:
    r->kind = MA_ARRAY;
    if (a->n > INT32_MAX) return conv_err(c, "array too long");
    r->n = (int)a->n;
    r->elems = alloc(c, a->n, sizeof *r->elems);
    if (!r->elems) return cxla_oom();
    for (size_t i = 0; i < a->n; i++) TRY(conv_attr(c, a->elems[i], &r->elems[i]));
    return NULL;
  case BCA_DICT:
    r->kind = MA_DICT;
    if (a->n > INT32_MAX) return conv_err(c, "dictionary too long");
    r->n = (int)a->n;
    r->entries = alloc(c, a->n, sizeof *r->entries);
    if (!r->entries) return cxla_oom();
    for (size_t i = 0; i < a->n; i++) {
      r->entries[i].name = arena_strndup(&c->m->arena, a->keys[i]->str, a->keys[i]->len);
      if (!r->entries[i].name) return cxla_oom();
      TRY(conv_attr(c, a->elems[i], &r->entries[i].value));
    }
    return NULL;
  case BCA_STRING:
  case BCA_SYMREF:
    r->kind = a->kind == BCA_STRING ? MA_STRING : MA_SYMBOL_REF;
    r->str = arena_strndup(&c->m->arena, a->str, a->len);
    r->len = a->len;
    return r->str ? NULL : cxla_oom();
  case BCA_BOOL:
    r->kind = MA_BOOL;
    r->i = a->i;
    return NULL;
  case BCA_INT:
    r->kind = a->type->kind == BCT_BOOL ? MA_BOOL : MA_INT; /* i1 integers are MLIR's BoolAttr */
    r->i = a->type->kind == BCT_BOOL ? (a->i & 1) : a->i;
    return conv_type(c, a->type, &r->type);
  case BCA_FLOAT:
    r->kind = MA_FLOAT;
    TRY(float_value(c, a, &r->f));
    return conv_type(c, a->type, &r->type);
  case BCA_TENSOR:
    return conv_dense(c, a, r);
  case BCA_TYPE:
    r->kind = MA_TYPE;
    return conv_type(c, a->type, &r->type);
  case BCA_ENUM: {
    if (a->ekind == BCE_CUSTOM_CALL_API_VERSION) {
      r->kind = MA_INT;
      r->i = a->i;
      r->type = elem_type(c, CXLA_S32);
      return r->type ? NULL : cxla_oom();
    }
    const char *name = a->i >= 0 && a->i < 6 ? ENUM_CASES[a->ekind][a->i] : NULL;
    if (!name) return conv_err(c, "invalid enum value");
    r->kind = MA_ENUM;
    r->ekind = ENUM_KINDS[a->ekind];
    r->str = name;
    r->len = strlen(name);
    return NULL;
  }
  case BCA_UNIT:
    r->kind = MA_UNIT;
    return NULL;
  case BCA_OUTPUT_OPERAND_ALIAS: {
    r->kind = MA_OUTPUT_OPERAND_ALIAS;
    if (a->nints > INT32_MAX || a->nints2 > INT32_MAX) return conv_err(c, "alias too long");
    r->alias.output_tuple_indices.n = (int)a->nints;
    r->alias.output_tuple_indices.v = arena_i64dup(&c->m->arena, a->ints, a->nints);
    r->alias.operand_index = a->i;
    r->alias.operand_tuple_indices.n = (int)a->nints2;
    r->alias.operand_tuple_indices.v = arena_i64dup(&c->m->arena, a->ints2, a->nints2);
    if ((a->nints && !r->alias.output_tuple_indices.v) || (a->nints2 && !r->alias.operand_tuple_indices.v)) return cxla_oom();
    return NULL;
  }
  case BCA_RESULT_ACCURACY: {
    const BcAttr *mode = a->elems[0];
    if (mode->kind != BCA_ENUM || mode->ekind != BCE_RESULT_ACCURACY_MODE || mode->i < 0 || mode->i > 2)
      return conv_err(c, "result accuracy mode is not a mode");
    r->kind = MA_RESULT_ACCURACY;
    r->accuracy.atol = a->f;
    r->accuracy.rtol = a->f2;
    r->accuracy.ulps = a->i;
    r->accuracy.mode = ENUM_CASES[BCE_RESULT_ACCURACY_MODE][mode->i];
    return NULL;
  }
  case BCA_INTS:
  case BCA_LOC:
  case BCA_DENSE_ARRAY:
  case BCA_OTHER:
    r->kind = MA_OPAQUE;
    r->str = arena_strdup(&c->m->arena, a->name ? a->name : "attribute");
    if (!r->str) return cxla_oom();
    r->len = strlen(r->str);
    return NULL;
  }
  return NULL;
}

/* ---- op-specific normalization ------------------------------------------------------ */

typedef struct AttrList {
  MlirNamedAttr *v;
  int n, cap;
} AttrList;

static cxla_status push(Conv *c, AttrList *l, const char *name, MlirAttr *value) {
  if (l->n == l->cap) {
    int cap = l->cap ? l->cap * 2 : 8;
    MlirNamedAttr *v = alloc(c, (size_t)cap, sizeof *v);
    if (!v) return cxla_oom();
    if (l->n) memcpy(v, l->v, (size_t)l->n * sizeof *v);
    l->v = v;
    l->cap = cap;
  }
  l->v[l->n].name = arena_strdup(&c->m->arena, name);
  if (!l->v[l->n].name) return cxla_oom();
  l->v[l->n].value = value;
  l->n++;
  return NULL;
}

/* The integers of a 1-D integer tensor attribute (or an empty one). */
static cxla_status ints_of(Conv *c, const BcAttr *a, const char *name, MlirI64s *out) {
  out->n = 0;
  out->v = NULL;
  if (!a || a->kind != BCA_TENSOR || a->type->kind != BCT_TENSOR || a->type->elem->kind != BCT_INT)
    return conv_err(c, "attribute %s: expected an integer tensor", name);
  int64_t n = elems_of(a->type);
  int bytes = a->type->elem->bits / 8;
  if (n < 0 || n > INT32_MAX || bytes <= 0) return conv_err(c, "attribute %s: bad integer tensor", name);
  bool splat = n != 1 && a->len == (size_t)bytes;
  if (!splat && a->len != (size_t)n * (size_t)bytes) return conv_err(c, "attribute %s: integer tensor data of the wrong size", name);
  TRY(spend(c, (uint64_t)n));
  out->v = alloc(c, (size_t)n, sizeof *out->v);
  if (!out->v) return cxla_oom();
  for (int64_t i = 0; i < n; i++) {
    const uint8_t *p = a->data + (splat ? 0 : (size_t)i * (size_t)bytes);
    uint64_t u = 0;
    for (int k = bytes - 1; k >= 0; k--) u = (u << 8) | p[k];
    int64_t v;
    if (bytes < 8 && !a->type->elem->is_unsigned) {
      int sh = 64 - 8 * bytes;
      v = (int64_t)(u << sh) >> sh;
    } else {
      v = (int64_t)u;
    }
    out->v[i] = v;
  }
  out->n = (int)n;
  return NULL;
}

static cxla_status int_of(Conv *c, const BcAttr *a, const char *name, int64_t *out) {
  if (!a || a->kind != BCA_INT) return conv_err(c, "attribute %s: expected an integer", name);
  *out = a->i;
  return NULL;
}

static bool is_none(const BcAttr *a) { return a && a->kind == BCA_TYPE && a->type->kind == BCT_NONE; }

static bool is_false(const BcAttr *a) { return a && a->kind == BCA_BOOL && !a->i; }

static bool is_int(const BcAttr *a, int64_t v) { return a && a->kind == BCA_INT && a->i == v; }

static bool is_empty_array(const BcAttr *a) { return a && (a->kind == BCA_ARRAY || a->kind == BCA_DICT) && a->n == 0; }

static bool is_empty_string(const BcAttr *a) { return a && a->kind == BCA_STRING && a->len == 0; }

/* Every element of a tensor attribute equals v (integers or booleans). */
static bool is_splat_of(Conv *c, const BcAttr *a, int64_t v) {
  if (!a || a->kind != BCA_TENSOR || a->type->kind != BCT_TENSOR) return false;
  const BcType *e = a->type->elem;
  if (e->kind == BCT_BOOL) {
    for (size_t i = 0; i < a->len; i++)
      if ((a->data[i] != 0) != (v != 0)) return false;
    return true;
  }
  MlirI64s xs;
  cxla_status s = ints_of(c, a, "", &xs);
  if (s) {
    cxla_status_free(s);
    return false;
  }
  for (int i = 0; i < xs.n; i++)
    if (xs.v[i] != v) return false;
  return true;
}

static bool is_default_accuracy(const BcAttr *a) {
  return a && a->kind == BCA_RESULT_ACCURACY && a->f == 0 && a->f2 == 0 && a->i == 0 &&
         a->elems[0]->kind == BCA_ENUM && a->elems[0]->i == 0;
}

/* A 1-D tensor -> MA_DENSE_ARRAY of i64 (or i1 for booleans). */
static cxla_status dense_array(Conv *c, const BcAttr *a, const char *name, MlirAttr **out) {
  MlirAttr *r = new_attr(c, MA_DENSE_ARRAY);
  if (!r) return cxla_oom();
  *out = r;
  if (a && a->kind == BCA_TENSOR && a->type->kind == BCT_TENSOR && a->type->elem->kind == BCT_BOOL) {
    int64_t n = elems_of(a->type);
    if (n < 0 || n > INT32_MAX || (a->len != (size_t)n && !(n != 1 && a->len == 1)))
      return conv_err(c, "attribute %s: bad boolean tensor", name);
    TRY(spend(c, (uint64_t)n));
    r->array_elem = CXLA_PRED;
    r->n = (int)n;
    r->ints = alloc(c, (size_t)n, sizeof *r->ints);
    if (!r->ints) return cxla_oom();
    for (int64_t i = 0; i < n; i++) r->ints[i] = a->data[a->len == 1 ? 0 : i] != 0;
    return NULL;
  }
  MlirI64s xs;
  TRY(ints_of(c, a, name, &xs));
  r->array_elem = CXLA_S64;
  r->n = xs.n;
  r->ints = xs.v;
  return NULL;
}

static bool name_in(const char *name, const char *const *list) {
  for (; *list; list++)
    if (!strcmp(name, *list)) return true;
  return false;
}

/* Attributes that stablehlo stores as dense arrays, per op (base name). */
static bool is_dense_array_attr(const char *op, const char *attr) {
  static const struct { const char *op; const char *attrs[5]; } table[] = {
      {"fft", {"fft_length"}},
      {"broadcast", {"broadcast_sizes"}},
      {"dynamic_slice", {"slice_sizes"}},
      {"reverse", {"dimensions"}},
      {"transpose", {"permutation"}},
      {"pad", {"edge_padding_low", "edge_padding_high", "interior_padding"}},
      {"slice", {"start_indices", "limit_indices", "strides"}},
      {"broadcast_in_dim", {"broadcast_dimensions"}},
      {"dynamic_broadcast_in_dim", {"broadcast_dimensions", "known_expanding_dimensions", "known_nonexpanding_dimensions"}},
      {"select_and_scatter", {"window_dimensions", "window_strides"}},
      {"reduce_window", {"window_dimensions", "window_strides", "base_dilations", "window_dilations"}},
      {"map", {"dimensions"}},
      {"reduce", {"dimensions"}},
      {"gather", {"slice_sizes"}},
      {"convolution", {"lhs_dilation", "rhs_dilation", "window_strides", "window_reversal"}},
      {"dynamic_conv", {"lhs_dilation", "rhs_dilation", "window_strides", "window_reversal"}},
  };
  for (size_t i = 0; i < sizeof table / sizeof table[0]; i++)
    if (!strcmp(table[i].op, op)) {
      for (int k = 0; k < 5 && table[i].attrs[k]; k++)
        if (!strcmp(table[i].attrs[k], attr)) return true;
      return false;
    }
  return false;
}

/* Is attribute `name` of op `base` (VHLO value a) at its default, so that
 * stablehlo would omit it? */
static bool is_default(Conv *c, const char *base, const char *name, const BcAttr *a) {
  if (!strcmp(base, "func")) {
    if (!strcmp(name, "sym_visibility")) return is_empty_string(a);
    if (!strcmp(name, "arg_attrs") || !strcmp(name, "res_attrs")) {
      /* Absent, as in MLIR, when every argument's dictionary is empty. */
      if (!a || a->kind != BCA_ARRAY) return false;
      for (size_t i = 0; i < a->n; i++)
        if (a->elems[i]->kind != BCA_DICT || a->elems[i]->n) return false;
      return true;
    }
    return false;
  }
  if (!strcmp(name, "channel_id") || !strcmp(name, "channel_type")) return false; /* handled by caller */
  /* Booleans stablehlo omits when false, each only on the ops that do. */
  if (!strcmp(name, "use_global_device_ids") || !strcmp(name, "has_dynamic_root") ||
      (!strcmp(name, "lower") && !strcmp(base, "cholesky")) ||
      (!strcmp(name, "indices_are_sorted") &&
       (!strcmp(base, "gather") || !strcmp(base, "dynamic_gather") || !strcmp(base, "scatter"))) ||
      (!strcmp(name, "unique_indices") && !strcmp(base, "scatter")) ||
      (!strcmp(name, "is_stable") && !strcmp(base, "sort")) ||
      (!strcmp(name, "is_host_transfer") && (!strcmp(base, "send") || !strcmp(base, "recv"))) ||
      (!strcmp(name, "has_side_effect") && !strcmp(base, "custom_call")))
    return is_false(a);
  if (!strcmp(name, "compare_type")) return a && a->kind == BCA_ENUM && a->i == 0;
  if (!strcmp(base, "composite")) {
    if (!strcmp(name, "version")) return is_int(a, 0);
    if (!strcmp(name, "composite_attributes")) return is_empty_array(a);
  }
  if (!strcmp(base, "convolution") || !strcmp(base, "dynamic_conv") || !strcmp(base, "reduce_window") ||
      !strcmp(base, "select_and_scatter")) {
    static const char *const ones[] = {"window_strides", "lhs_dilation", "rhs_dilation", "base_dilations", "window_dilations", NULL};
    if (name_in(name, ones)) return is_splat_of(c, a, 1);
    if (!strcmp(name, "padding") && strcmp(base, "dynamic_conv")) return is_splat_of(c, a, 0);
    if (!strcmp(name, "window_reversal")) return is_splat_of(c, a, 0);
  }
  if (!strcmp(base, "custom_call")) {
    if (!strcmp(name, "backend_config")) return is_empty_string(a) || (a && a->kind == BCA_DICT && a->n == 0);
    if (!strcmp(name, "api_version")) return a && a->kind == BCA_ENUM && a->i == 1;
    if (!strcmp(name, "called_computations") || !strcmp(name, "output_operand_aliases") || !strcmp(name, "result_tilings"))
      return is_empty_array(a);
    return false; /* layouts: handled by caller */
  }
  if (!strcmp(base, "dynamic_broadcast_in_dim") && strcmp(name, "broadcast_dimensions"))
    return a && a->kind == BCA_TENSOR && a->len == 0;
  if (!strcmp(name, "infeed_config") || !strcmp(name, "outfeed_config")) return is_empty_string(a);
  if (!strcmp(base, "infeed") && !strcmp(name, "layout")) return is_empty_array(a);
  if (!strcmp(name, "source_target_pairs") && (!strcmp(base, "send") || !strcmp(base, "recv")))
    return a && a->kind == BCA_TENSOR && a->len == 0;
  if (!strcmp(base, "sort") && !strcmp(name, "dimension")) return is_int(a, -1);
  if (!strcmp(name, "result_accuracy")) return is_default_accuracy(a);
  return false;
}

static cxla_status need(Conv *c, const BcOp *op, const char *name, const BcAttr **out) {
  *out = bc_op_attr(op, name);
  if (!*out) return conv_err(c, "%s: missing attribute %s", op->name, name);
  return NULL;
}

static cxla_status ints_attr(Conv *c, const BcOp *op, const char *name, MlirI64s *out) {
  const BcAttr *a = bc_op_attr(op, name);
  if (!a) { /* a field that an older op version does not have */
    out->n = 0;
    out->v = NULL;
    return NULL;
  }
  return ints_of(c, a, name, out);
}

/* Folds the flattened fields VHLO stores into stablehlo's structured
 * attributes; `used` lists the VHLO names consumed. */
static cxla_status implode(Conv *c, const BcOp *op, const char *base, AttrList *out, const char **used, int *nused) {
  const BcAttr *a;
#define USE(n) (used[(*nused)++] = (n))
  if (!strcmp(base, "convolution") || !strcmp(base, "dynamic_conv")) {
    MlirAttr *r = new_attr(c, MA_CONV);
    if (!r) return cxla_oom();
    MlirConvDims *d = &r->conv;
    TRY(need(c, op, "input_batch_dimension", &a));
    TRY(int_of(c, a, "input_batch_dimension", &d->in_batch));
    TRY(need(c, op, "input_feature_dimension", &a));
    TRY(int_of(c, a, "input_feature_dimension", &d->in_feature));
    TRY(ints_attr(c, op, "input_spatial_dimensions", &d->in_spatial));
    TRY(need(c, op, "kernel_input_feature_dimension", &a));
    TRY(int_of(c, a, "kernel_input_feature_dimension", &d->k_in_feature));
    TRY(need(c, op, "kernel_output_feature_dimension", &a));
    TRY(int_of(c, a, "kernel_output_feature_dimension", &d->k_out_feature));
    TRY(ints_attr(c, op, "kernel_spatial_dimensions", &d->k_spatial));
    TRY(need(c, op, "output_batch_dimension", &a));
    TRY(int_of(c, a, "output_batch_dimension", &d->out_batch));
    TRY(need(c, op, "output_feature_dimension", &a));
    TRY(int_of(c, a, "output_feature_dimension", &d->out_feature));
    TRY(ints_attr(c, op, "output_spatial_dimensions", &d->out_spatial));
    USE("input_batch_dimension"); USE("input_feature_dimension"); USE("input_spatial_dimensions");
    USE("kernel_input_feature_dimension"); USE("kernel_output_feature_dimension"); USE("kernel_spatial_dimensions");
    USE("output_batch_dimension"); USE("output_feature_dimension"); USE("output_spatial_dimensions");
    return push(c, out, "dimension_numbers", r);
  }
  if (!strcmp(base, "dot_general")) {
    MlirAttr *r = new_attr(c, MA_DOT);
    if (!r) return cxla_oom();
    TRY(ints_attr(c, op, "lhs_batching_dimensions", &r->dot.lhs_batch));
    TRY(ints_attr(c, op, "rhs_batching_dimensions", &r->dot.rhs_batch));
    TRY(ints_attr(c, op, "lhs_contracting_dimensions", &r->dot.lhs_contract));
    TRY(ints_attr(c, op, "rhs_contracting_dimensions", &r->dot.rhs_contract));
    USE("lhs_batching_dimensions"); USE("rhs_batching_dimensions");
    USE("lhs_contracting_dimensions"); USE("rhs_contracting_dimensions");
    TRY(push(c, out, "dot_dimension_numbers", r));
    static const char *const alg[] = {"lhs_precision_type", "rhs_precision_type", "accumulation_type",
                                      "lhs_component_count", "rhs_component_count",
                                      "num_primitive_operations", "allow_imprecise_accumulation"};
    for (int i = 0; i < 7; i++) USE(alg[i]);
    const BcAttr *lc = bc_op_attr(op, "lhs_component_count");
    if (!lc || is_none(lc)) return NULL;
    MlirAttr *g = new_attr(c, MA_DOT_ALGORITHM);
    if (!g) return cxla_oom();
    MlirDotAlgorithm *da = &g->algorithm;
    MlirType **types[3] = {&da->lhs_precision_type, &da->rhs_precision_type, &da->accumulation_type};
    for (int i = 0; i < 3; i++) {
      TRY(need(c, op, alg[i], &a));
      if (a->kind != BCA_TYPE) return conv_err(c, "dot algorithm: %s is not a type", alg[i]);
      TRY(conv_type(c, a->type, types[i]));
    }
    TRY(int_of(c, lc, "lhs_component_count", &da->lhs_component_count));
    TRY(need(c, op, "rhs_component_count", &a));
    TRY(int_of(c, a, "rhs_component_count", &da->rhs_component_count));
    TRY(need(c, op, "num_primitive_operations", &a));
    TRY(int_of(c, a, "num_primitive_operations", &da->num_primitive_operations));
    TRY(need(c, op, "allow_imprecise_accumulation", &a));
    if (a->kind != BCA_BOOL) return conv_err(c, "dot algorithm: %s is not a boolean", "allow_imprecise_accumulation");
    da->allow_imprecise_accumulation = a->i != 0;
    return push(c, out, "algorithm", g);
  }
  if (!strcmp(base, "gather") || !strcmp(base, "dynamic_gather")) {
    MlirAttr *r = new_attr(c, MA_GATHER);
    if (!r) return cxla_oom();
    MlirGatherDims *d = &r->gather;
    TRY(ints_attr(c, op, "offset_dims", &d->offset_dims));
    TRY(ints_attr(c, op, "collapsed_slice_dims", &d->collapsed_slice_dims));
    TRY(ints_attr(c, op, "operand_batching_dims", &d->operand_batching_dims));
    TRY(ints_attr(c, op, "start_indices_batching_dims", &d->start_indices_batching_dims));
    TRY(ints_attr(c, op, "start_index_map", &d->start_index_map));
    TRY(need(c, op, "index_vector_dim", &a));
    TRY(int_of(c, a, "index_vector_dim", &d->index_vector_dim));
    USE("offset_dims"); USE("collapsed_slice_dims"); USE("operand_batching_dims");
    USE("start_indices_batching_dims"); USE("start_index_map"); USE("index_vector_dim");
    return push(c, out, "dimension_numbers", r);
  }
  if (!strcmp(base, "scatter")) {
    MlirAttr *r = new_attr(c, MA_SCATTER);
    if (!r) return cxla_oom();
    MlirScatterDims *d = &r->scatter;
    TRY(ints_attr(c, op, "update_window_dims", &d->update_window_dims));
    TRY(ints_attr(c, op, "inserted_window_dims", &d->inserted_window_dims));
    TRY(ints_attr(c, op, "input_batching_dims", &d->input_batching_dims));
    TRY(ints_attr(c, op, "scatter_indices_batching_dims", &d->scatter_indices_batching_dims));
    TRY(ints_attr(c, op, "scatter_dims_to_operand_dims", &d->scatter_dims_to_operand_dims));
    TRY(need(c, op, "index_vector_dim", &a));
    TRY(int_of(c, a, "index_vector_dim", &d->index_vector_dim));
    USE("update_window_dims"); USE("inserted_window_dims"); USE("input_batching_dims");
    USE("scatter_indices_batching_dims"); USE("scatter_dims_to_operand_dims"); USE("index_vector_dim");
    return push(c, out, "scatter_dimension_numbers", r);
  }
  const BcAttr *ch = bc_op_attr(op, "channel_id");
  if (ch) {
    USE("channel_id");
    int64_t id, type = 0;
    TRY(int_of(c, ch, "channel_id", &id));
    const BcAttr *ct = bc_op_attr(op, "channel_type");
    if (ct) {
      USE("channel_type");
      TRY(int_of(c, ct, "channel_type", &type));
    } else if (id == 0) {
      return NULL; /* the default: no channel */
    }
    MlirAttr *r = new_attr(c, MA_CHANNEL_HANDLE);
    if (!r) return cxla_oom();
    r->channel.handle = id;
    r->channel.type = type;
    return push(c, out, "channel_handle", r);
  }
  if (!strcmp(base, "custom_call")) {
    const BcAttr *ol = bc_op_attr(op, "operand_layouts"), *rl = bc_op_attr(op, "result_layouts");
    if (is_empty_array(ol) && is_empty_array(rl)) {
      USE("operand_layouts");
      USE("result_layouts");
    }
  }
  return NULL;
#undef USE
}

/* The attributes of a converted op, in stablehlo's form. */
static cxla_status conv_op_attrs(Conv *c, const BcOp *op, const char *base, bool is_vhlo, AttrList *out) {
  const char *used[24];
  int nused = 0;
  if (is_vhlo) TRY(implode(c, op, base, out, used, &nused));
  for (size_t i = 0; i < op->nattrs; i++) {
    const char *name = op->attrs[i].name;
    const BcAttr *a = op->attrs[i].value;
    bool skip = false;
    for (int k = 0; k < nused; k++)
      if (!strcmp(used[k], name)) skip = true;
    if (skip) continue;
    MlirAttr *r;
    if (is_vhlo && is_default(c, base, name, a)) continue;
    if (is_vhlo && (!strcmp(name, "use_global_device_ids") || !strcmp(name, "has_dynamic_root")) &&
        a->kind == BCA_BOOL) {
      r = new_attr(c, MA_UNIT); /* true (false was dropped as the default) */
      if (!r) return cxla_oom();
    } else if (is_vhlo && is_dense_array_attr(base, name)) {
      TRY(dense_array(c, a, name, &r));
    } else if (is_vhlo && a->kind == BCA_STRING &&
               ((!strcmp(base, "call") && !strcmp(name, "callee")) ||
                (!strcmp(base, "composite") && !strcmp(name, "decomposition")))) {
      TRY(conv_attr(c, a, &r));
      r->kind = MA_SYMBOL_REF;
    } else if (is_vhlo && !strcmp(base, "custom_call") && !strcmp(name, "called_computations") &&
               a->kind == BCA_ARRAY) {
      TRY(conv_attr(c, a, &r));
      for (int k = 0; k < r->n; k++)
        if (r->elems[k]->kind == MA_STRING) r->elems[k]->kind = MA_SYMBOL_REF;
    } else {
      TRY(conv_attr(c, a, &r));
    }
    TRY(push(c, out, name, r));
  }
  return NULL;
}

/* ---- ops ----------------------------------------------------------------------------- */

static cxla_status conv_region(Conv *c, const BcRegion *src, MlirOp *parent, MlirRegion *dst, bool in_func);

/* The ops of a block being built. */
typedef struct OpList {
  MlirOp **v;
  int n, cap;
} OpList;

static cxla_status op_list_add(Conv *c, OpList *l, MlirOp *op) {
  if (l->n == l->cap) {
    int cap = l->cap ? l->cap * 2 : 8;
    MlirOp **v = alloc(c, (size_t)cap, sizeof *v);
    if (!v) return cxla_oom();
    if (l->n) memcpy(v, l->v, (size_t)l->n * sizeof *v);
    l->v = v;
    l->cap = cap;
  }
  l->v[l->n++] = op;
  return NULL;
}

static cxla_status conv_op(Conv *c, const BcOp *src, MlirBlock *parent, bool parent_is_func, OpList *list) {
  c->op = src;
  if (!strcmp(src->dialect, "builtin") && !strcmp(src->name, "unrealized_conversion_cast")) {
    /* VHLO mixed with other dialects (sdy) casts between VHLO's types and
     * theirs; both are the same type in the tree: the casts disappear. */
    if (src->noperands != src->nresults || src->nregions)
      return conv_err(c, "unrealized_conversion_cast with %zu operands and %zu results", src->noperands,
                      src->nresults);
    for (size_t i = 0; i < src->noperands; i++) {
      MlirValue *v = c->values[src->operands[i]];
      if (!v) return conv_err(c, "unrealized_conversion_cast uses a value before it is defined");
      c->values[src->results[i]] = v;
    }
    return NULL;
  }
  MlirOp *op = alloc(c, 1, sizeof *op);
  if (!op) return cxla_oom();
  op->pos = pos_of(src);
  op->parent = parent;
  bool is_vhlo = !strcmp(src->dialect, "vhlo");
  const char *base = NULL;
  char name[128];
  if (is_vhlo) {
    if (!src->vhlo) return conv_err(c, "unknown VHLO op vhlo.%s", src->name);
    base = src->vhlo->base;
    const struct { const char *what; size_t have; int want; } arity[3] = {
        {"operands", src->noperands, src->vhlo->noperands},
        {"results", src->nresults, src->vhlo->nresults},
        {"regions", src->nregions, src->vhlo->nregions}};
    for (int k = 0; k < 3; k++) {
      int w = arity[k].want;
      if (w >= 0 ? arity[k].have != (size_t)w : arity[k].have < (size_t)(-w - 1))
        return conv_err(c, "vhlo.%s has %zu %s; it takes %s%d", src->name, arity[k].have, arity[k].what,
                        w >= 0 ? "" : "at least ", w >= 0 ? w : -w - 1);
    }
    if (!strcmp(base, "func")) snprintf(name, sizeof name, "func.func");
    else if (!strcmp(base, "call")) snprintf(name, sizeof name, "func.call");
    else if (!strcmp(base, "return")) snprintf(name, sizeof name, parent_is_func ? "func.return" : "stablehlo.return");
    else snprintf(name, sizeof name, "stablehlo.%s", base);
  } else if (!strcmp(src->dialect, "builtin")) {
    if (strcmp(src->name, "module")) return conv_err(c, "unsupported op builtin.%s", src->name);
    snprintf(name, sizeof name, "builtin.module");
  } else {
    /* Other dialects (e.g. sdy) are kept under their own name; the importer
     * decides whether it can ignore them. */
    snprintf(name, sizeof name, "%s.%s", src->dialect, src->name);
  }
  op->name = arena_strdup(&c->m->arena, name);
  if (!op->name) return cxla_oom();
  AttrList attrs = {0};
  TRY(conv_op_attrs(c, src, base ? base : "", is_vhlo, &attrs));
  op->attrs = attrs.v;
  op->nattrs = attrs.n;
  if (src->noperands > INT32_MAX || src->nresults > INT32_MAX || src->nregions > INT32_MAX)
    return conv_err(c, "op %s has too many operands, results or regions", name);
  op->noperands = (int)src->noperands;
  op->operands = alloc(c, src->noperands, sizeof *op->operands);
  if (!op->operands) return cxla_oom();
  for (size_t i = 0; i < src->noperands; i++) {
    MlirValue *v = c->values[src->operands[i]];
    if (!v) return conv_err(c, "op %s uses a value before it is defined", name);
    op->operands[i] = v;
  }
  op->nresults = (int)src->nresults;
  op->results = alloc(c, src->nresults, sizeof *op->results);
  if (!op->results) return cxla_oom();
  for (size_t i = 0; i < src->nresults; i++) {
    MlirValue *v = &op->results[i];
    TRY(conv_value_type(c, c->bc->value_types[src->results[i]], &v->type));
    v->owner = op;
    v->index = (int)i;
    c->values[src->results[i]] = v;
  }
  op->nregions = (int)src->nregions;
  op->regions = alloc(c, src->nregions, sizeof *op->regions);
  if (!op->regions) return cxla_oom();
  bool is_func = is_vhlo && !strcmp(base, "func");
  for (size_t i = 0; i < src->nregions; i++) TRY(conv_region(c, &src->regions[i], op, &op->regions[i], is_func));
  return op_list_add(c, list, op);
}

static cxla_status conv_block(Conv *c, const BcBlock *src, MlirRegion *parent, bool in_func, MlirBlock **out) {
  MlirBlock *b = alloc(c, 1, sizeof *b);
  if (!b) return cxla_oom();
  *out = b;
  b->parent = parent;
  if (src->nargs > INT32_MAX || src->nops > INT32_MAX) return conv_err(c, "block too large");
  b->nargs = (int)src->nargs;
  b->args = alloc(c, src->nargs, sizeof *b->args);
  if (!b->args) return cxla_oom();
  for (size_t i = 0; i < src->nargs; i++) {
    MlirValue *v = &b->args[i];
    TRY(conv_value_type(c, c->bc->value_types[src->args[i]], &v->type));
    v->block = b;
    v->index = (int)i;
    c->values[src->args[i]] = v;
  }
  OpList list = {0};
  for (size_t i = 0; i < src->nops; i++) TRY(conv_op(c, src->ops[i], b, in_func, &list));
  b->ops = list.v;
  b->nops = list.n;
  return NULL;
}

static cxla_status conv_region(Conv *c, const BcRegion *src, MlirOp *parent, MlirRegion *dst, bool in_func) {
  dst->parent = parent;
  if (src->nblocks > INT32_MAX) return conv_err(c, "region too large");
  dst->nblocks = (int)src->nblocks;
  dst->blocks = alloc(c, src->nblocks, sizeof *dst->blocks);
  if (!dst->blocks) return cxla_oom();
  for (size_t i = 0; i < src->nblocks; i++) TRY(conv_block(c, &src->blocks[i], dst, in_func, &dst->blocks[i]));
  return NULL;
}

cxla_status mlir_parse_bytecode(const uint8_t *data, size_t len, const char *filename, MlirModule **out) {
  *out = NULL;
  BcModule *bc;
  TRY(bc_read(data, len, filename, &bc));
  MlirModule *m = mlir_module_new(filename);
  if (!m) {
    bc_module_free(bc);
    return cxla_oom();
  }
  Conv c = {m, bc, NULL, NULL, 0, NULL, NULL, 0, 0};
  c.budget = ((int64_t)1 << 20) + 64 * (int64_t)(len > ((size_t)1 << 36) ? ((size_t)1 << 36) : len);
  cxla_status s = NULL;
  c.values = cxla_calloc(bc->nvalues ? bc->nvalues : 1, sizeof *c.values);
  if (!c.values) s = cxla_oom();
  else if (bc->top.nops != 1 || strcmp(bc->top.ops[0]->dialect, "builtin") || strcmp(bc->top.ops[0]->name, "module"))
    s = mlir_error_at(CXLA_INVALID_ARGUMENT, m, pos_of(bc->top.nops ? bc->top.ops[0] : NULL),
                      "expected one builtin.module at the top level");
  else {
    OpList top = {0};
    s = conv_op(&c, bc->top.ops[0], NULL, false, &top);
    if (!s) m->op = top.v[0];
  }
  if (!s && (m->op->nregions != 1 || m->op->regions[0].nblocks != 1))
    s = mlir_error_at(CXLA_INVALID_ARGUMENT, m, m->op->pos, "builtin.module must have one region with one block");
  cxla_free(c.values);
  cxla_free(c.tkeys);
  cxla_free(c.tvals);
  bc_module_free(bc);
  if (s) {
    mlir_module_free(m);
    return s;
  }
  *out = m;
  return NULL;
}
