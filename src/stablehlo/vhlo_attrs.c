/* vhlo_attrs.c: the VHLO dialect's bytecode encodings of attributes and types
 * (StableHLO's VhloBytecode.cpp): a varint code, then the fields of that
 * attribute or type. The codes never change meaning across StableHLO
 * versions; new ones are only added. */
#include "stablehlo/bytecode.h"

#include <string.h>

static BcAttr *new_attr(BcReader *r, BcAttrKind kind) {
  BcAttr *a = bc_alloc(r, 1, sizeof *a);
  if (a) a->kind = kind;
  return a;
}

static cxla_status svarints(BcReader *r, const int64_t **out, size_t *n) {
  uint64_t cnt;
  TRY(bc_count(r, &cnt));
  int64_t *v = bc_alloc(r, cnt, sizeof *v);
  if (!v) return cxla_oom();
  for (uint64_t i = 0; i < cnt; i++) TRY(bc_svarint(r, &v[i]));
  *out = v;
  *n = (size_t)cnt;
  return NULL;
}

static double f64_of_bits(uint64_t b) {
  double d;
  memcpy(&d, &b, sizeof d);
  return d;
}

/* An APFloat of the given semantics as a double (only the IEEE f64 case is
 * needed here: result accuracy tolerances). */
static cxla_status apfloat_f64(BcReader *r, double *out) {
  uint64_t b;
  TRY(bc_apint(r, 64, &b));
  *out = f64_of_bits(b);
  return NULL;
}

static int int_bits(const BcType *t) {
  if (t->kind == BCT_INT || t->kind == BCT_FLOAT) return t->bits;
  if (t->kind == BCT_BOOL) return 1;
  if (t->kind == BCT_INDEX) return 64;
  return 0;
}

cxla_status bc_vhlo_read_attr(BcReader *r, const BcAttr **out) {
  uint64_t code;
  TRY(bc_varint(r, &code));
  BcAttr *a = new_attr(r, BCA_OTHER);
  if (!a) return cxla_oom();
  *out = a;
  switch (code) {
  case 1: { /* array_v1 */
    uint64_t n;
    TRY(bc_count(r, &n));
    a->kind = BCA_ARRAY;
    a->elems = bc_alloc(r, n, sizeof *a->elems);
    if (!a->elems) return cxla_oom();
    for (uint64_t i = 0; i < n; i++) TRY(bc_attr_ref(r, &a->elems[i]));
    a->n = (size_t)n;
    return NULL;
  }
  case 2: { /* bool_v1 */
    uint64_t v;
    TRY(bc_varint(r, &v));
    if (v > 1) return bc_error(r, "boolean attribute value %llu", (unsigned long long)v);
    a->kind = BCA_BOOL;
    a->i = (int64_t)v;
    return NULL;
  }
  case 3: case 4: case 5: case 7: case 11: case 12: case 13: case 16: case 19: {
    static const struct { uint64_t code; BcEnumKind kind; uint64_t max; } enums[] = {
        {3, BCE_COMPARISON_DIRECTION, 5}, {4, BCE_COMPARISON_TYPE, 4},
        {5, BCE_CUSTOM_CALL_API_VERSION, 4}, {7, BCE_FFT_TYPE, 3},
        {11, BCE_PRECISION, 2}, {12, BCE_RNG_ALGORITHM, 2},
        {13, BCE_RNG_DISTRIBUTION, 2}, {16, BCE_TRANSPOSE, 3},
        {19, BCE_RESULT_ACCURACY_MODE, 2}};
    uint64_t v;
    TRY(bc_varint(r, &v));
    for (size_t i = 0; i < sizeof enums / sizeof enums[0]; i++)
      if (enums[i].code == code) {
        if (v > enums[i].max) return bc_error(r, "enum value %llu out of range for VHLO attribute code %llu", (unsigned long long)v, (unsigned long long)code);
        a->kind = BCA_ENUM;
        a->ekind = enums[i].kind;
        a->i = (int64_t)v;
      }
    return NULL;
  }
  case 6: /* dict_v1: (name, value)[] */
    return bc_dict_attr(r, a);
  case 8: { /* float_v1: type, APFloat */
    TRY(bc_type_ref(r, &a->type));
    if (a->type->kind != BCT_FLOAT) return bc_error(r, "float attribute of a non-float type");
    a->kind = BCA_FLOAT;
    TRY(bc_apint(r, a->type->bits, &a->bits));
    if (a->type->bits == 64) a->f = f64_of_bits(a->bits);
    return NULL;
  }
  case 9: { /* integer_v1: type, APInt */
    TRY(bc_type_ref(r, &a->type));
    int bits = int_bits(a->type);
    if (!bits || a->type->kind == BCT_FLOAT) return bc_error(r, "integer attribute of a non-integer type");
    uint64_t v;
    TRY(bc_apint(r, bits, &v));
    if (bits < 64) {
      uint64_t mask = ((uint64_t)1 << bits) - 1;
      v &= mask;
      if (a->type->kind == BCT_INT && !a->type->is_unsigned && (v >> (bits - 1)))
        v |= ~mask;
    }
    a->kind = BCA_INT;
    a->i = (int64_t)v;
    return NULL;
  }
  case 10: { /* output_operand_alias_v1 */
    a->kind = BCA_OUTPUT_OPERAND_ALIAS;
    TRY(svarints(r, &a->ints, &a->nints));
    TRY(bc_svarint(r, &a->i));
    return svarints(r, &a->ints2, &a->nints2);
  }
  case 14: /* string_v1 */
    a->kind = BCA_STRING;
    return bc_string_ref(r, &a->str, &a->len);
  case 15: { /* tensor_v1: type, blob (booleans bit-packed) */
    TRY(bc_type_ref(r, &a->type));
    if (a->type->kind != BCT_TENSOR) return bc_error(r, "tensor attribute of a non-tensor type");
    const uint8_t *blob;
    size_t len;
    TRY(bc_blob(r, &blob, &len));
    a->kind = BCA_TENSOR;
    a->data = blob;
    a->len = len;
    if (a->type->elem->kind != BCT_BOOL) return NULL;
    /* Booleans: one byte 0x00/0xFF for a splat, else bits packed 8 a byte
     * (unless already one byte per element). Up to 8 elements pack into
     * one byte too: only all zeros or all ones there is a splat. */
    int64_t n = 1;
    for (size_t i = 0; i < a->type->rank; i++)
      if (a->type->shape[i] < 0 || !mul_i64(n, a->type->shape[i], &n)) return bc_error(r, "bad boolean tensor shape");
    if (len == 1 && n > 1 && (blob[0] == 0 || blob[0] == 0xff)) {
      uint8_t *one = bc_alloc(r, 1, 1);
      if (!one) return cxla_oom();
      one[0] = blob[0] ? 1 : 0;
      a->data = one;
      return NULL;
    }
    if ((int64_t)len == (n + 7) / 8 && (int64_t)len != n) {
      uint8_t *bytes = bc_alloc(r, (size_t)n, 1);
      if (!bytes) return cxla_oom();
      for (int64_t i = 0; i < n; i++) bytes[i] = (blob[i / 8] >> (i % 8)) & 1;
      a->data = bytes;
      a->len = (size_t)n;
    }
    return NULL;
  }
  case 17: /* type_v1 */
    a->kind = BCA_TYPE;
    return bc_type_ref(r, &a->type);
  case 18: /* type_extensions_v1: bounds */
    a->kind = BCA_INTS;
    return svarints(r, &a->ints, &a->nints);
  case 20: { /* result_accuracy_v1: atol, rtol, ulps, mode */
    a->kind = BCA_RESULT_ACCURACY;
    TRY(apfloat_f64(r, &a->f));
    TRY(apfloat_f64(r, &a->f2));
    TRY(bc_svarint(r, &a->i));
    a->elems = bc_alloc(r, 1, sizeof *a->elems);
    if (!a->elems) return cxla_oom();
    a->n = 1;
    return bc_attr_ref(r, &a->elems[0]);
  }
  case 21: { /* sub_axis_info_v1 */
    int64_t x;
    TRY(bc_svarint(r, &x));
    TRY(bc_svarint(r, &x));
    a->name = "vhlo.sub_axis_info_v1";
    return NULL;
  }
  case 22: { /* axis_ref_v1 */
    const BcAttr *x;
    uint64_t has;
    TRY(bc_attr_ref(r, &x));
    TRY(bc_varint(r, &has));
    if (has) TRY(bc_attr_ref(r, &x));
    a->name = "vhlo.axis_ref_v1";
    return NULL;
  }
  case 23: { /* replica_group_mesh_axes_v1 */
    const BcAttr *x;
    TRY(bc_attr_ref(r, &x));
    TRY(bc_attr_ref(r, &x));
    a->name = "vhlo.replica_group_mesh_axes_v1";
    return NULL;
  }
  case 24: { /* mesh_axis_v1 */
    const BcAttr *x;
    int64_t size;
    TRY(bc_attr_ref(r, &x));
    TRY(bc_svarint(r, &size));
    a->name = "vhlo.mesh_axis_v1";
    return NULL;
  }
  case 25: { /* mesh_v1: axes, optional device ids */
    const BcAttr *x;
    uint64_t v;
    TRY(bc_attr_ref(r, &x));
    TRY(bc_varint(r, &v));
    a->name = "vhlo.mesh_v1";
    return NULL;
  }
  default:
    return bc_error(r, "unknown VHLO attribute code %llu", (unsigned long long)code);
  }
}

static BcType *new_type(BcReader *r, BcTypeKind kind) {
  BcType *t = bc_alloc(r, 1, sizeof *t);
  if (t) t->kind = kind;
  return t;
}

static cxla_status types(BcReader *r, const BcType ***out, size_t *n) {
  uint64_t cnt;
  TRY(bc_count(r, &cnt));
  const BcType **v = bc_alloc(r, cnt, sizeof *v);
  if (!v) return cxla_oom();
  for (uint64_t i = 0; i < cnt; i++) TRY(bc_type_ref(r, &v[i]));
  *out = v;
  *n = (size_t)cnt;
  return NULL;
}

cxla_status bc_vhlo_read_type(BcReader *r, const BcType **out) {
  uint64_t code;
  TRY(bc_varint(r, &code));
  static const struct { uint8_t code; BcFloatKind kind; uint8_t bits; } floats[] = {
      {2, BCF_BF16, 16}, {3, BCF_F16, 16}, {4, BCF_F32, 32}, {5, BCF_F64, 64},
      {6, BCF_F8E4M3FN, 8}, {7, BCF_F8E5M2, 8}, {27, BCF_F8E4M3FNUZ, 8},
      {28, BCF_F8E5M2FNUZ, 8}, {29, BCF_F8E4M3B11FNUZ, 8}, {34, BCF_TF32, 32},
      {35, BCF_F8E4M3, 8}, {36, BCF_F8E3M4, 8}, {37, BCF_F4E2M1FN, 4},
      {38, BCF_F6E2M3FN, 6}, {39, BCF_F6E3M2FN, 6}, {40, BCF_F8E8M0FNU, 8}};
  static const struct { uint8_t code, bits; bool is_unsigned; } ints[] = {
      {31, 2, false}, {10, 4, false}, {11, 8, false}, {12, 16, false}, {13, 32, false}, {14, 64, false},
      {32, 2, true}, {15, 4, true}, {16, 8, true}, {17, 16, true}, {18, 32, true}, {19, 64, true}};
  for (size_t i = 0; i < sizeof floats / sizeof floats[0]; i++)
    if (floats[i].code == code) {
      BcType *t = new_type(r, BCT_FLOAT);
      if (!t) return cxla_oom();
      t->fkind = floats[i].kind;
      t->bits = floats[i].bits;
      *out = t;
      return NULL;
    }
  for (size_t i = 0; i < sizeof ints / sizeof ints[0]; i++)
    if (ints[i].code == code) {
      BcType *t = new_type(r, BCT_INT);
      if (!t) return cxla_oom();
      t->bits = ints[i].bits;
      t->is_unsigned = ints[i].is_unsigned;
      *out = t;
      return NULL;
    }
  BcType *t = new_type(r, BCT_OTHER);
  if (!t) return cxla_oom();
  *out = t;
  switch (code) {
  case 0: t->kind = BCT_BOOL; t->bits = 1; return NULL;
  case 1: t->kind = BCT_COMPLEX; return bc_type_ref(r, &t->elem);
  case 8: /* function_v1 */
    t->kind = BCT_FUNCTION;
    TRY(types(r, &t->types, &t->n));
    return types(r, &t->results, &t->nresults);
  case 9: t->kind = BCT_INDEX; t->bits = 64; return NULL;
  case 21: /* ranked tensor with encoding */
    TRY(bc_attr_ref(r, &t->encoding));
    /* fall through */
  case 20: { /* ranked tensor: shape, element type */
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
  case 22: t->kind = BCT_TOKEN; return NULL;
  case 23: t->kind = BCT_TUPLE; return types(r, &t->types, &t->n);
  case 24: { /* uniform_quant_v1 */
    uint64_t flags;
    const BcType *st, *et;
    double scale;
    int64_t zp, lo, hi;
    TRY(bc_varint(r, &flags));
    TRY(bc_type_ref(r, &st));
    TRY(bc_type_ref(r, &et));
    TRY(apfloat_f64(r, &scale));
    TRY(bc_svarint(r, &zp));
    TRY(bc_svarint(r, &lo));
    TRY(bc_svarint(r, &hi));
    t->kind = BCT_QUANT;
    t->name = "!vhlo.quant_v1";
    return NULL;
  }
  case 25: t->kind = BCT_UNRANKED; return bc_type_ref(r, &t->elem);
  case 26: t->name = "!vhlo.witness_v1"; return NULL;
  case 30: { /* uniform_quant_per_axis_v1 */
    uint64_t flags, qdim, n;
    const BcType *st, *et;
    int64_t lo, hi, zp;
    double scale;
    TRY(bc_varint(r, &flags));
    TRY(bc_type_ref(r, &st));
    TRY(bc_type_ref(r, &et));
    TRY(bc_varint(r, &qdim));
    TRY(bc_svarint(r, &lo));
    TRY(bc_svarint(r, &hi));
    TRY(bc_count(r, &n));
    for (uint64_t i = 0; i < n; i++) TRY(apfloat_f64(r, &scale));
    TRY(bc_count(r, &n));
    for (uint64_t i = 0; i < n; i++) TRY(bc_svarint(r, &zp));
    t->kind = BCT_QUANT;
    t->name = "!vhlo.quant_per_axis_v1";
    return NULL;
  }
  case 33: t->kind = BCT_NONE; return NULL;
  case 41: { /* ranked buffer: shape, element type */
    const int64_t *shape;
    size_t rank;
    TRY(svarints(r, &shape, &rank));
    TRY(bc_type_ref(r, &t->elem));
    t->name = "!vhlo.buffer_v1";
    return NULL;
  }
  case 42: /* future_v1 */
    t->name = "!vhlo.future_v1";
    return types(r, &t->types, &t->n);
  default:
    return bc_error(r, "unknown VHLO type code %llu", (unsigned long long)code);
  }
}
