/* Helpers shared by the data-movement evaluators. See data_common.h. */
#include "interp/data_common.h"

#include <math.h>
#include <string.h>

#include "ir/numeric.h"

/* ---- copies ---------------------------------------------------------------- */

/* The innermost dimension, with a constant element size so that memcpy
 * becomes a plain load/store. */
#define COPY_ROW(SZ)                                                          \
  for (int64_t i = 0; i < n; i++) memcpy(dst + i * ds, src + i * ss, SZ);     \
  break;

static void copy_row(int64_t n, char *dst, int64_t ds, const char *src, int64_t ss, int esize) {
  ds *= esize;
  ss *= esize;
  if (ds == esize && ss == esize) {
    memcpy(dst, src, (size_t)(n * esize));
    return;
  }
  switch (esize) {
  case 1: COPY_ROW(1)
  case 2: COPY_ROW(2)
  case 4: COPY_ROW(4)
  case 8: COPY_ROW(8)
  case 16: COPY_ROW(16)
  default:
    for (int64_t i = 0; i < n; i++) memcpy(dst + i * ds, src + i * ss, (size_t)esize);
  }
}

void strided_copy(int rank, const int64_t *dims, char *dst, const int64_t *dstride,
                  const char *src, const int64_t *sstride, int esize) {
  if (rank == 0) {
    memcpy(dst, src, (size_t)esize);
    return;
  }
  if (rank == 1) {
    copy_row(dims[0], dst, dstride[0], src, sstride[0], esize);
    return;
  }
  for (int64_t i = 0; i < dims[0]; i++)
    strided_copy(rank - 1, dims + 1, dst + i * dstride[0] * esize, dstride + 1,
                 src + i * sstride[0] * esize, sstride + 1, esize);
}

void fill_elems(char *dst, int64_t n, const void *val, int esize) {
  if (n <= 0) return;
  memcpy(dst, val, (size_t)esize);
  /* Doubling copies: O(log n) memcpy calls. */
  int64_t done = 1;
  while (done < n) {
    int64_t k = done < n - done ? done : n - done;
    memcpy(dst + done * esize, dst, (size_t)(k * esize));
    done += k;
  }
}

int64_t index_value(const Literal *l, int64_t i) {
  if (l->type == T_U64) {
    uint64_t u;
    memcpy(&u, (const char *)l->data + i * 8, 8);
    return u > (uint64_t)INT64_MAX ? INT64_MAX : (int64_t)u;
  }
  return literal_get_i64(l, i);
}

cxla_status check_rank(const Instr *in, int rank) {
  if (rank > DATA_MAX_RANK)
    return interp_error(in, CXLA_UNIMPLEMENTED, "rank %d is above the interpreter's limit of %d",
                        rank, DATA_MAX_RANK);
  return NULL;
}

cxla_status check_array(const Instr *in, const Literal *l, const char *what) {
  if (!l || l->type == T_TUPLE || !type_is_array(l->type))
    return interp_error(in, CXLA_INVALID_ARGUMENT, "%s is not an array", what);
  if (l->unknown) return interp_error(in, CXLA_FAILED_PRECONDITION, "%s has unknown contents", what);
  return check_rank(in, l->rank);
}

/* ---- scalar arithmetic ------------------------------------------------------ */

double elem_to_double(ElemType t, const void *p) {
  switch (t) {
  case T_F32: { float f; memcpy(&f, p, 4); return f; }
  case T_F64: { double d; memcpy(&d, p, 8); return d; }
  case T_F16: case T_BF16: { uint16_t h; memcpy(&h, p, 2); return minifloat_decode(t, h); }
  default: return minifloat_decode(t, *(const uint8_t *)p);
  }
}

void elem_from_double(ElemType t, void *p, double v) {
  switch (t) {
  case T_F32: { float f = (float)v; memcpy(p, &f, 4); break; }
  case T_F64: memcpy(p, &v, 8); break;
  case T_F16: case T_BF16: { uint16_t h = (uint16_t)minifloat_encode(t, v); memcpy(p, &h, 2); break; }
  default: *(uint8_t *)p = (uint8_t)minifloat_encode(t, v); break;
  }
}

/* IEEE 754-2019 maximum/minimum, the semantics of the elementwise ops (and
 * of XLA:CPU's llvm.maximum): NaN if either operand is NaN (the first NaN
 * wins), and -0 < +0. */
static double fmax_x(double a, double b) {
  if (isnan(a)) return a;
  if (isnan(b)) return b;
  if (a == b) return signbit(a) ? b : a;
  return a > b ? a : b;
}
static double fmin_x(double a, double b) {
  if (isnan(a)) return a;
  if (isnan(b)) return b;
  if (a == b) return signbit(a) ? a : b;
  return a < b ? a : b;
}
static float fmaxf_x(float a, float b) { return (float)fmax_x(a, b); }
static float fminf_x(float a, float b) { return (float)fmin_x(a, b); }

static float float_op(Opcode op, float a, float b) {
  switch (op) {
  case OP_ADD: return a + b;
  case OP_SUBTRACT: return a - b;
  case OP_MULTIPLY: return a * b;
  case OP_MAXIMUM: return fmaxf_x(a, b);
  case OP_MINIMUM: return fminf_x(a, b);
  default: return 0;
  }
}

static double double_op(Opcode op, double a, double b) {
  switch (op) {
  case OP_ADD: return a + b;
  case OP_SUBTRACT: return a - b;
  case OP_MULTIPLY: return a * b;
  case OP_MAXIMUM: return fmax_x(a, b);
  case OP_MINIMUM: return fmin_x(a, b);
  default: return 0;
  }
}

/* Integer elements loaded as int64 (signed types sign-extended, unsigned
 * zero-extended); the arithmetic wraps in uint64 and the store truncates. */
static int64_t load_int(ElemType t, const void *p) {
  switch (t) {
  case T_S2: case T_S4: case T_S8: return *(const int8_t *)p;
  case T_U2: case T_U4: case T_U8: case T_PRED: return *(const uint8_t *)p;
  case T_S16: { int16_t v; memcpy(&v, p, 2); return v; }
  case T_U16: { uint16_t v; memcpy(&v, p, 2); return v; }
  case T_S32: { int32_t v; memcpy(&v, p, 4); return v; }
  case T_U32: { uint32_t v; memcpy(&v, p, 4); return v; }
  default: { int64_t v; memcpy(&v, p, 8); return v; }
  }
}

static void store_int(ElemType t, void *p, uint64_t v) {
  int bits = type_bits(t);
  switch (t) {
  case T_PRED: *(uint8_t *)p = v != 0; break;
  case T_S2: case T_S4: {
    uint64_t m = (1ull << bits) - 1;
    v &= m;
    if (v >> (bits - 1)) v |= ~m; /* sign-extend into the byte */
    *(int8_t *)p = (int8_t)(int64_t)v;
    break;
  }
  case T_U2: case T_U4: *(uint8_t *)p = (uint8_t)(v & ((1u << bits) - 1)); break;
  case T_S8: case T_U8: *(uint8_t *)p = (uint8_t)v; break;
  case T_S16: case T_U16: { uint16_t w = (uint16_t)v; memcpy(p, &w, 2); break; }
  case T_S32: case T_U32: { uint32_t w = (uint32_t)v; memcpy(p, &w, 4); break; }
  default: memcpy(p, &v, 8); break;
  }
}

static uint64_t int_op(Opcode op, ElemType t, int64_t a, int64_t b) {
  uint64_t ua = (uint64_t)a, ub = (uint64_t)b;
  bool is_unsigned = type_kind(t) == TK_UINT;
  switch (op) {
  case OP_ADD: return ua + ub;
  case OP_SUBTRACT: return ua - ub;
  case OP_MULTIPLY: return ua * ub;
  case OP_MAXIMUM: return is_unsigned ? (ua >= ub ? ua : ub) : (a >= b ? ua : ub);
  case OP_MINIMUM: return is_unsigned ? (ua <= ub ? ua : ub) : (a <= b ? ua : ub);
  case OP_AND: return ua & ub;
  case OP_OR: return ua | ub;
  case OP_XOR: return ua ^ ub;
  default: return 0;
  }
}

/* pred arithmetic follows C++ bool: + and max are or, * and min are and,
 * - is xor. */
static bool pred_op(Opcode op, bool a, bool b) {
  switch (op) {
  case OP_ADD: case OP_OR: case OP_MAXIMUM: return a || b;
  case OP_MULTIPLY: case OP_AND: case OP_MINIMUM: return a && b;
  case OP_SUBTRACT: case OP_XOR: return a != b;
  default: return false;
  }
}

bool binop_supported(Opcode op, ElemType t) {
  switch (type_kind(t)) {
  case TK_PRED: case TK_SINT: case TK_UINT:
    return op == OP_ADD || op == OP_SUBTRACT || op == OP_MULTIPLY || op == OP_MAXIMUM ||
           op == OP_MINIMUM || op == OP_AND || op == OP_OR || op == OP_XOR;
  case TK_FLOAT:
    return op == OP_ADD || op == OP_SUBTRACT || op == OP_MULTIPLY || op == OP_MAXIMUM ||
           op == OP_MINIMUM;
  case TK_COMPLEX: return op == OP_ADD || op == OP_SUBTRACT || op == OP_MULTIPLY;
  default: return false;
  }
}

static void complex_op(Opcode op, ElemType t, void *out, const void *a, const void *b) {
  if (t == T_C64) {
    float x[2], y[2], r[2];
    memcpy(x, a, 8);
    memcpy(y, b, 8);
    if (op == OP_MULTIPLY) {
      r[0] = x[0] * y[0] - x[1] * y[1];
      r[1] = x[0] * y[1] + x[1] * y[0];
    } else {
      r[0] = float_op(op, x[0], y[0]);
      r[1] = float_op(op, x[1], y[1]);
    }
    memcpy(out, r, 8);
  } else {
    double x[2], y[2], r[2];
    memcpy(x, a, 16);
    memcpy(y, b, 16);
    if (op == OP_MULTIPLY) {
      r[0] = x[0] * y[0] - x[1] * y[1];
      r[1] = x[0] * y[1] + x[1] * y[0];
    } else {
      r[0] = double_op(op, x[0], y[0]);
      r[1] = double_op(op, x[1], y[1]);
    }
    memcpy(out, r, 16);
  }
}

void binop_apply(Opcode op, ElemType t, void *out, const void *a, const void *b) {
  switch (t) {
  case T_F32: {
    float x, y, r;
    memcpy(&x, a, 4);
    memcpy(&y, b, 4);
    r = float_op(op, x, y);
    memcpy(out, &r, 4);
    return;
  }
  case T_F64: {
    double x, y, r;
    memcpy(&x, a, 8);
    memcpy(&y, b, 8);
    r = double_op(op, x, y);
    memcpy(out, &r, 8);
    return;
  }
  case T_C64: case T_C128: complex_op(op, t, out, a, b); return;
  case T_PRED: *(uint8_t *)out = pred_op(op, *(const uint8_t *)a != 0, *(const uint8_t *)b != 0); return;
  default: break;
  }
  if (type_is_float(t)) {
    /* Small floats: exact in float; one rounding back to the type. */
    float r = float_op(op, (float)elem_to_double(t, a), (float)elem_to_double(t, b));
    elem_from_double(t, out, r);
    return;
  }
  store_int(t, out, int_op(op, t, load_int(t, a), load_int(t, b)));
}

/* ---- comparisons --------------------------------------------------------------- */

static int total_cmp_double(double a, double b) {
  /* Classes: -NaN < numbers < +NaN; among numbers -0 < +0. */
  int ca = isnan(a) ? (signbit(a) ? -1 : 1) : 0;
  int cb = isnan(b) ? (signbit(b) ? -1 : 1) : 0;
  if (ca != cb) return ca < cb ? -1 : 1;
  if (ca) return 0;
  if (a < b) return -1;
  if (a > b) return 1;
  int sa = signbit(a) ? 1 : 0, sb = signbit(b) ? 1 : 0;
  return sb - sa; /* -0 (sa=1) before +0 */
}

int elem_total_cmp(ElemType t, const void *a, const void *b) {
  switch (type_kind(t)) {
  case TK_FLOAT: return total_cmp_double(elem_to_double(t, a), elem_to_double(t, b));
  case TK_COMPLEX: {
    int half = type_bytes(t) / 2;
    ElemType part = t == T_C64 ? T_F32 : T_F64;
    int c = total_cmp_double(elem_to_double(part, a), elem_to_double(part, b));
    if (c) return c;
    return total_cmp_double(elem_to_double(part, (const char *)a + half),
                            elem_to_double(part, (const char *)b + half));
  }
  case TK_UINT: {
    uint64_t x = (uint64_t)load_int(t, a), y = (uint64_t)load_int(t, b);
    return x < y ? -1 : x > y;
  }
  default: {
    int64_t x = load_int(t, a), y = load_int(t, b);
    return x < y ? -1 : x > y;
  }
  }
}

static bool dir_holds(CmpDir dir, int c) {
  switch (dir) {
  case CMP_EQ: return c == 0;
  case CMP_NE: return c != 0;
  case CMP_LT: return c < 0;
  case CMP_LE: return c <= 0;
  case CMP_GT: return c > 0;
  case CMP_GE: return c >= 0;
  default: return false;
  }
}

bool elem_compare(CmpDir dir, CmpType ct, ElemType t, const void *a, const void *b) {
  if (type_is_float(t) && ct != CMPT_TOTALORDER) {
    double x = elem_to_double(t, a), y = elem_to_double(t, b);
    switch (dir) {
    case CMP_EQ: return x == y;
    case CMP_NE: return x != y;
    case CMP_LT: return x < y;
    case CMP_LE: return x <= y;
    case CMP_GT: return x > y;
    case CMP_GE: return x >= y;
    default: return false;
    }
  }
  if (type_is_complex(t) && (dir == CMP_EQ || dir == CMP_NE)) {
    int half = type_bytes(t) / 2;
    ElemType part = t == T_C64 ? T_F32 : T_F64;
    bool eq = elem_to_double(part, a) == elem_to_double(part, b) &&
              elem_to_double(part, (const char *)a + half) ==
                  elem_to_double(part, (const char *)b + half);
    return dir == CMP_EQ ? eq : !eq;
  }
  return dir_holds(dir, elem_total_cmp(t, a, b));
}

CompareFn compare_fn_of(const Computation *c) {
  CompareFn f = {0};
  const Instr *r = c ? c->root : NULL;
  if (!r || r->op != OP_COMPARE || r->noperands != 2) return f;
  const Instr *a = r->operands[0], *b = r->operands[1];
  if (a->op != OP_PARAMETER || b->op != OP_PARAMETER) return f;
  if (a->shape->rank != 0 || b->shape->rank != 0) return f;
  f.ok = true;
  f.lhs_param = a->param_number;
  f.rhs_param = b->param_number;
  f.dir = r->cmp_dir;
  f.type = r->cmp_type;
  return f;
}

/* ---- scalar calls ------------------------------------------------------------------ */

cxla_status scall_init(ScalarCall *sc, Interp *ip, const Instr *in, const Computation *comp,
                       int nargs, const ElemType *arg_types) {
  memset(sc, 0, sizeof *sc);
  sc->ip = ip;
  sc->in = in;
  sc->comp = comp;
  if (!comp) return interp_error(in, CXLA_INVALID_ARGUMENT, "missing called computation");
  if (comp->nparams != nargs)
    return interp_error(in, CXLA_INVALID_ARGUMENT, "computation %s takes %d parameters, expected %d",
                        comp->name, comp->nparams, nargs);
  sc->args = cxla_calloc((size_t)(nargs ? nargs : 1), sizeof(Literal *));
  if (!sc->args) return cxla_oom();
  sc->nargs = nargs;
  for (int i = 0; i < nargs; i++) {
    cxla_status s = literal_create(arg_types[i], 0, NULL, &sc->args[i]);
    if (s) {
      scall_free(sc);
      return s;
    }
  }
  return NULL;
}

void scall_free(ScalarCall *sc) {
  if (sc->args)
    for (int i = 0; i < sc->nargs; i++) literal_free(sc->args[i]);
  cxla_free(sc->args);
  sc->args = NULL;
  sc->nargs = 0;
}

static cxla_status take_scalar(const ScalarCall *sc, const Literal *v, ElemType t, void *out) {
  if (!v || v->type != t || v->nelems != 1 || v->unknown)
    return interp_error(sc->in, CXLA_INVALID_ARGUMENT,
                        "computation %s returned a value that is not a %s scalar",
                        sc->comp->name, type_name(t));
  memcpy(out, v->data, (size_t)type_bytes(t));
  return NULL;
}

cxla_status scall_run(ScalarCall *sc, int nres, const ElemType *res_types, void *const *outs) {
  Literal *r = NULL;
  TRY(interp_call(sc->ip, sc->comp, sc->args, sc->nargs, &r));
  cxla_status s = NULL;
  if (r->type == T_TUPLE) {
    if (r->ntuple != nres)
      s = interp_error(sc->in, CXLA_INVALID_ARGUMENT, "computation %s returned %d values, expected %d",
                       sc->comp->name, r->ntuple, nres);
    for (int i = 0; !s && i < nres; i++) s = take_scalar(sc, r->tuple[i], res_types[i], outs[i]);
  } else if (nres == 1) {
    s = take_scalar(sc, r, res_types[0], outs[0]);
  } else {
    s = interp_error(sc->in, CXLA_INVALID_ARGUMENT, "computation %s returned one value, expected %d",
                     sc->comp->name, nres);
  }
  literal_free(r);
  return s;
}

cxla_status scall_run_pred(ScalarCall *sc, bool *out) {
  uint8_t b = 0;
  void *outs[1] = {&b};
  ElemType t = T_PRED;
  TRY(scall_run(sc, 1, &t, outs));
  *out = b != 0;
  return NULL;
}
