/* Tests for the HLO verifier (src/verify): shape inference for each op
 * family and the structural checks. Expected shapes follow XLA's documented
 * semantics.
 *
 *   test_verify [corpus-dir]     (default tests/corpus)
 *
 * Three parts: modules built by hand with ir.h's builder functions (every
 * op family, structural invariants the text format cannot even express);
 * small HLO texts that must be rejected with a given message; and every
 * corpus module.hlo / optimized.hlo, which XLA accepted and so must verify.
 * A missing corpus directory is reported and skipped. */
#include <dirent.h>
#include <stdarg.h>
#include <stdlib.h>
#include <sys/stat.h>

#include "harness.h"
#include "ir/ir.h"
#include "verify/verify.h"

/* ---- a tiny module-building DSL ---- */

static HloModule *M;
static Computation *C;

static void begin(void) {
  cxla_status s = module_create("m", &M);
  if (s) abort();
}

static void end(void) {
  module_destroy(M);
  M = NULL;
  C = NULL;
}

static Computation *comp(const char *name, bool entry) {
  C = module_add_computation(M, name);
  C->params = arena_array(&M->arena, 16, sizeof(Instr *));
  if (entry) {
    C->is_entry = true;
    M->entry = C;
  }
  return C;
}

/* sh(T_F32, 2, 3, 4) is f32[3,4]. */
static Shape *sh(ElemType t, int rank, ...) {
  int64_t dims[16];
  va_list ap;
  va_start(ap, rank);
  for (int i = 0; i < rank; i++) dims[i] = va_arg(ap, int64_t);
  va_end(ap);
  return shape_new(&M->arena, t, rank, dims);
}
#define SH(t, ...) sh(t, NARGS(__VA_ARGS__), __VA_ARGS__)
#define NARGS(...) NARGS_(__VA_ARGS__, 8, 7, 6, 5, 4, 3, 2, 1, 0)
#define NARGS_(a, b, c, d, e, f, g, h, n, ...) n
/* Scalars: sh(T_F32, 0). Dims are passed as int64_t. */
#define D(x) ((int64_t)(x))

static Shape *tup(int n, ...) {
  Shape *el[16];
  va_list ap;
  va_start(ap, n);
  for (int i = 0; i < n; i++) el[i] = va_arg(ap, Shape *);
  va_end(ap);
  return shape_new_tuple(&M->arena, n, el);
}

static Instr *param(int n, Shape *s) {
  Instr *p = comp_add_instr(C, OP_PARAMETER, s, 0, NULL, NULL);
  p->param_number = n;
  C->params[n] = p;
  if (n + 1 > C->nparams) C->nparams = n + 1;
  return p;
}

/* An instruction with n operands; the last one added becomes the root. */
static Instr *ins(const char *name, Opcode op, Shape *s, int n, ...) {
  Instr *ops[16];
  va_list ap;
  va_start(ap, n);
  for (int i = 0; i < n; i++) ops[i] = va_arg(ap, Instr *);
  va_end(ap);
  Instr *in = comp_add_instr(C, op, s, n, ops, name);
  C->root = in;
  return in;
}

static I64List L(int n, ...) {
  I64List l = {n, arena_array(&M->arena, n ? (size_t)n : 1, sizeof(int64_t))};
  va_list ap;
  va_start(ap, n);
  for (int i = 0; i < n; i++) l.v[i] = va_arg(ap, int);
  va_end(ap);
  return l;
}

static void dims(Instr *in, I64List l) {
  in->dimensions = l;
  in->attrs |= A_DIMENSIONS;
}

static Instr *constant_f32(const char *name, float v) {
  Literal *l;
  if (literal_create(T_F32, 0, NULL, &l)) abort();
  literal_set_f64(l, 0, v);
  if (module_own_literal(M, l)) abort();
  Instr *in = ins(name, OP_CONSTANT, sh(T_F32, 0), 0);
  in->literal = l;
  return in;
}

/* A scalar binary computation (p0 op p1) of type t, e.g. a reducer. */
static Computation *scalar_fn(const char *name, Opcode op, ElemType t, ElemType result) {
  Computation *saved = C;
  Computation *c = comp(name, false);
  Instr *a = param(0, sh(t, 0)), *b = param(1, sh(t, 0));
  Instr *r = ins(NULL, op, sh(result, 0), 2, a, b);
  if (op == OP_COMPARE) {
    r->cmp_dir = CMP_LT;
    r->attrs |= A_COMPARE;
  }
  C = saved;
  return c;
}

static Instr *call1(Instr *in, Computation *c) {
  in->ncalled = 1;
  in->called = arena_array(&M->arena, 1, sizeof(Computation *));
  in->called[0] = c;
  return in;
}

static Instr *call2(Instr *in, Computation *c0, Computation *c1) {
  in->ncalled = 2;
  in->called = arena_array(&M->arena, 2, sizeof(Computation *));
  in->called[0] = c0;
  in->called[1] = c1;
  return in;
}

static WindowDim *window(Instr *in, int n, int64_t size, int64_t stride, int64_t pad) {
  in->nwindow = n;
  in->window = arena_array(&M->arena, (size_t)n, sizeof(WindowDim));
  for (int i = 0; i < n; i++)
    in->window[i] = (WindowDim){size, stride, pad, pad, 1, 1, false};
  in->attrs |= A_WINDOW;
  return in->window;
}

static cxla_status verify(void) { return cxla_module_verify(M); }

/* The inferred shape of `in` printed, for checks on inference alone. */
static char *inferred(const Instr *in) {
  static char buf[256];
  Arena a;
  arena_init(&a);
  Shape *s;
  cxla_status st = infer_shape(&a, in, &s);
  if (st) {
    snprintf(buf, sizeof buf, "error: %s", cxla_status_message(st));
    cxla_status_free(st);
  } else {
    StrBuf b;
    sb_init(&b);
    shape_print(&b, s, false);
    char *t = sb_take(&b);
    snprintf(buf, sizeof buf, "%s", t ? t : "?");
    cxla_free(t);
  }
  arena_destroy(&a);
  return buf;
}

/* ---- elementwise ---- */

TEST(elementwise_ok) {
  begin();
  comp("main", true);
  Instr *x = param(0, SH(T_F32, D(2), D(3))), *y = param(1, SH(T_F32, D(2), D(3)));
  Instr *s = ins("add.1", OP_ADD, SH(T_F32, D(2), D(3)), 2, x, y);
  Instr *c = ins("cmp", OP_COMPARE, SH(T_PRED, D(2), D(3)), 2, s, y);
  c->cmp_dir = CMP_GT;
  c->attrs |= A_COMPARE;
  Instr *e = ins("exp", OP_EXP, SH(T_F32, D(2), D(3)), 1, s);
  ins("sel", OP_SELECT, SH(T_F32, D(2), D(3)), 3, c, e, x);
  CHECK_OK(verify());
  end();
}

TEST(elementwise_shape_mismatch_message) {
  begin();
  comp("main.10", true);
  Instr *x = param(0, SH(T_F32, D(2), D(3))), *y = param(1, SH(T_F32, D(2), D(3)));
  ins("add.3", OP_ADD, SH(T_F32, D(3), D(2)), 2, x, y);
  CHECK_ERR(verify(),
            "verify: computation %main.10, instruction %add.3 (add): expected shape f32[2,3], got f32[3,2]");
  end();
}

TEST(elementwise_operand_type_mismatch) {
  begin();
  comp("main", true);
  Instr *x = param(0, SH(T_F32, D(4))), *y = param(1, SH(T_S32, D(4)));
  ins("mul", OP_MULTIPLY, SH(T_F32, D(4)), 2, x, y);
  CHECK_ERR(verify(), "instruction %mul (multiply): operand 1 has type s32, expected f32");
  end();
}

TEST(elementwise_no_implicit_broadcast) {
  begin();
  comp("main", true);
  Instr *x = param(0, SH(T_F32, D(4))), *y = param(1, sh(T_F32, 0));
  ins("sub", OP_SUBTRACT, SH(T_F32, D(4)), 2, x, y);
  CHECK_ERR(verify(), "operand 1 has shape f32[], expected the dims of operand 0, f32[4]");
  end();
}

TEST(elementwise_operand_count) {
  begin();
  comp("main", true);
  Instr *x = param(0, SH(T_F32, D(4)));
  ins("add", OP_ADD, SH(T_F32, D(4)), 1, x);
  CHECK_ERR(verify(), "instruction %add (add): expected 2 operands, got 1");
  end();
}

TEST(unary_type_rules) {
  begin();
  comp("main", true);
  Instr *i = param(0, SH(T_S32, D(3))), *z = param(1, SH(T_C64, D(3)));
  CHECK(strcmp(inferred(ins(NULL, OP_ABS, SH(T_F32, D(3)), 1, z)), "f32[3]") == 0);
  CHECK(strcmp(inferred(ins(NULL, OP_REAL, SH(T_F32, D(3)), 1, z)), "f32[3]") == 0);
  CHECK(strcmp(inferred(ins(NULL, OP_IS_FINITE, SH(T_PRED, D(3)), 1, z)),
               "error: operand 0 has type c64, expected floating point") == 0);
  CHECK(strcmp(inferred(ins(NULL, OP_CLZ, SH(T_S32, D(3)), 1, i)), "s32[3]") == 0);
  CHECK(strstr(inferred(ins(NULL, OP_SQRT, SH(T_S32, D(3)), 1, i)), "expected floating point or complex"));
  CHECK(strcmp(inferred(ins(NULL, OP_COMPLEX, SH(T_C64, D(3)), 2,
                            ins(NULL, OP_REAL, SH(T_F32, D(3)), 1, z),
                            ins(NULL, OP_IMAG, SH(T_F32, D(3)), 1, z))),
               "c64[3]") == 0);
  end();
}

TEST(compare_gives_pred) {
  begin();
  comp("main", true);
  Instr *x = param(0, SH(T_F32, D(2))), *y = param(1, SH(T_F32, D(2)));
  Instr *c = ins("lt", OP_COMPARE, SH(T_F32, D(2)), 2, x, y);
  c->cmp_dir = CMP_LT;
  c->attrs |= A_COMPARE;
  CHECK_ERR(verify(), "(compare): expected shape pred[2], got f32[2]");
  c->shape = SH(T_PRED, D(2));
  CHECK_OK(verify());
  c->attrs &= ~(uint32_t)A_COMPARE;
  CHECK_ERR(verify(), "missing attribute direction");
  end();
}

TEST(select_and_clamp_scalar_forms) {
  begin();
  comp("main", true);
  Instr *p = param(0, sh(T_PRED, 0)), *x = param(1, SH(T_F32, D(5))), *lo = param(2, sh(T_F32, 0));
  Instr *pv = param(3, SH(T_PRED, D(4)));
  ins("sel", OP_SELECT, SH(T_F32, D(5)), 3, p, x, x);
  ins("clamp", OP_CLAMP, SH(T_F32, D(5)), 3, lo, x, lo);
  CHECK_OK(verify());
  ins("bad", OP_SELECT, SH(T_F32, D(5)), 3, pv, x, x);
  CHECK_ERR(verify(), "operand 0 has shape pred[4], expected a scalar or the dims of operand 1, f32[5]");
  end();
}

TEST(convert_and_bitcast_convert) {
  begin();
  comp("main", true);
  Instr *x = param(0, SH(T_F32, D(4))), *b = param(1, SH(T_S8, D(3), D(4)));
  Instr *s2 = param(2, SH(T_S8, D(3), D(2)));
  CHECK(strcmp(inferred(ins(NULL, OP_CONVERT, SH(T_S32, D(4)), 1, x)), "s32[4]") == 0);
  /* wide to narrow: a new minor dimension of the width ratio */
  CHECK(strcmp(inferred(ins(NULL, OP_BITCAST_CONVERT, SH(T_S8, D(4), D(4)), 1, x)), "s8[4,4]") == 0);
  CHECK(strcmp(inferred(ins(NULL, OP_BITCAST_CONVERT, SH(T_U32, D(4)), 1, x)), "u32[4]") == 0);
  /* narrow to wide: the minor dimension must be the ratio */
  CHECK(strcmp(inferred(ins(NULL, OP_BITCAST_CONVERT, SH(T_F32, D(3)), 1, b)), "f32[3]") == 0);
  CHECK(strstr(inferred(ins(NULL, OP_BITCAST_CONVERT, SH(T_F32, D(3)), 1, s2)),
               "needs a last dimension of 4"));
  CHECK(strstr(inferred(ins(NULL, OP_BITCAST_CONVERT, SH(T_C64, D(4)), 1, x)), "complex and real"));
  /* pred is a byte wide for bitcasts */
  Instr *pr = param(3, SH(T_PRED, D(4)));
  CHECK(strcmp(inferred(ins(NULL, OP_BITCAST_CONVERT, SH(T_U8, D(4)), 1, pr)), "u8[4]") == 0);
  end();
  begin();
  comp("main", true);
  x = param(0, SH(T_F32, D(4)));
  ins("bc", OP_BITCAST_CONVERT, SH(T_S8, D(4)), 1, x);
  CHECK_ERR(verify(), "instruction %bc (bitcast-convert): expected shape s8[4,4], got s8[4]");
  end();
}

/* ---- data movement ---- */

TEST(broadcast_rules) {
  begin();
  comp("main", true);
  Instr *x = param(0, SH(T_F32, D(3)));
  Instr *b = ins("b", OP_BROADCAST, SH(T_F32, D(2), D(3)), 1, x);
  dims(b, L(1, 1));
  CHECK_OK(verify());
  dims(b, L(1, 0));
  CHECK_ERR(verify(), "operand dimension 0 (size 3) maps to result dimension 0 of size 2");
  dims(b, L(1, 5));
  CHECK_ERR(verify(), "dimensions={5}: dimension 5 out of range for rank 2");
  dims(b, L(0));
  CHECK_ERR(verify(), "dimensions={} has 0 entries, expected one per operand dimension (1)");
  b->shape = SH(T_S32, D(2), D(3));
  dims(b, L(1, 1));
  CHECK_ERR(verify(), "expected shape f32[2,3], got s32[2,3]");
  end();
}

TEST(reshape_transpose_reverse) {
  begin();
  comp("main", true);
  Instr *x = param(0, SH(T_F32, D(2), D(3)));
  ins("r", OP_RESHAPE, SH(T_F32, D(3), D(2)), 1, x);
  Instr *t = ins("t", OP_TRANSPOSE, SH(T_F32, D(3), D(2)), 1, x);
  dims(t, L(2, 1, 0));
  Instr *v = ins("v", OP_REVERSE, SH(T_F32, D(2), D(3)), 1, x);
  dims(v, L(2, 0, 1));
  CHECK_OK(verify());
  dims(t, L(2, 0, 0));
  CHECK_ERR(verify(), "(transpose): dimensions={0,0} repeats dimension 0");
  dims(t, L(2, 0, 2));
  CHECK_ERR(verify(), "dimensions={0,2}: dimension 2 out of range for rank 2");
  dims(t, L(2, 1, 0));
  dims(v, L(2, 1, 1));
  CHECK_ERR(verify(), "(reverse): dimensions={1,1} repeats dimension 1");
  dims(v, L(1, -1));
  CHECK_ERR(verify(), "dimension -1 out of range");
  dims(v, L(0));
  ins("bad", OP_RESHAPE, SH(T_F32, D(4)), 1, x);
  CHECK_ERR(verify(), "(reshape): reshape from f32[2,3] (6 elements) to f32[4] (4 elements)");
  end();
}

TEST(slice_concat_pad) {
  begin();
  comp("main", true);
  Instr *x = param(0, SH(T_F32, D(4), D(6))), *y = param(1, SH(T_F32, D(4), D(2)));
  Instr *z = param(2, sh(T_F32, 0));
  Instr *s = ins("s", OP_SLICE, SH(T_F32, D(2), D(3)), 1, x);
  s->slice = arena_array(&M->arena, 2, sizeof(SliceDim));
  s->slice[0] = (SliceDim){1, 3, 1};
  s->slice[1] = (SliceDim){0, 6, 2}; /* 0,2,4: three elements */
  s->attrs |= A_SLICE;
  Instr *c = ins("c", OP_CONCATENATE, SH(T_F32, D(4), D(8)), 2, x, y);
  dims(c, L(1, 1));
  Instr *p = ins("p", OP_PAD, SH(T_F32, D(5), D(14)), 2, x, z);
  p->padding = arena_array(&M->arena, 2, sizeof(PadDim));
  p->padding[0] = (PadDim){-1, 2, 0}; /* 4 - 1 + 2 = 5 */
  p->padding[1] = (PadDim){1, 2, 1};  /* 6 + 5 interior + 3 = 14 */
  p->attrs |= A_PADDING;
  CHECK_OK(verify());
  s->slice[1] = (SliceDim){0, 7, 1};
  CHECK_ERR(verify(), "(slice): slice dimension 1 [0:7:1] does not fit operand f32[4,6]");
  s->slice[1] = (SliceDim){0, 6, 2};
  dims(c, L(1, 0));
  CHECK_ERR(verify(), "operand 1 has shape f32[4,2], which differs from f32[4,6] outside dimension 0");
  dims(c, L(1, 2));
  CHECK_ERR(verify(), "concatenation dimension 2 out of range for rank 2");
  dims(c, L(1, 1));
  p->padding[0] = (PadDim){-6, 1, 0};
  CHECK_ERR(verify(), "padding dimension 0 gives negative size -1");
  p->padding[0] = (PadDim){INT64_MAX, 1, 0};
  CHECK_ERR(verify(), "padding dimension 0 overflows");
  end();
}

TEST(iota_rules) {
  begin();
  comp("main", true);
  Instr *i = ins("iota", OP_IOTA, SH(T_S32, D(2), D(3)), 0);
  i->index = 1;
  i->attrs |= A_IOTA_DIM;
  CHECK_OK(verify());
  i->index = 2;
  CHECK_ERR(verify(), "(iota): iota_dimension=2 out of range for rank 2");
  end();
}

TEST(dynamic_slice_rules) {
  begin();
  comp("main", true);
  Instr *x = param(0, SH(T_F32, D(5), D(4))), *i = param(1, sh(T_S32, 0));
  Instr *u = param(2, SH(T_F32, D(2), D(4))), *v = param(3, SH(T_S32, D(2)));
  Instr *ds = ins("ds", OP_DYNAMIC_SLICE, SH(T_F32, D(2), D(4)), 3, x, i, i);
  ds->slice_sizes = L(2, 2, 4);
  ds->attrs |= A_DYN_SLICE_SIZES;
  ins("dus", OP_DYNAMIC_UPDATE_SLICE, SH(T_F32, D(5), D(4)), 4, x, u, i, i);
  CHECK_OK(verify());
  ds->slice_sizes = L(2, 6, 4);
  CHECK_ERR(verify(), "(dynamic-slice): dynamic_slice_sizes={6,4} does not fit operand f32[5,4]");
  ds->slice_sizes = L(2, 2, 4);
  ins("bad", OP_DYNAMIC_UPDATE_SLICE, SH(T_F32, D(5), D(4)), 3, x, u, v);
  CHECK_ERR(verify(), "(dynamic-update-slice): expected 4 operands (2 start indices for rank 2), got 3");
  end();
}

/* ---- tuples, leaves ---- */

TEST(tuple_and_get_tuple_element) {
  begin();
  comp("main", true);
  Instr *x = param(0, SH(T_F32, D(2))), *y = param(1, sh(T_S32, 0));
  Instr *t = ins("t", OP_TUPLE, tup(2, SH(T_F32, D(2)), sh(T_S32, 0)), 2, x, y);
  Instr *g = ins("g", OP_GET_TUPLE_ELEMENT, sh(T_S32, 0), 1, t);
  g->index = 1;
  g->attrs |= A_INDEX;
  CHECK_OK(verify());
  g->index = 2;
  CHECK_ERR(verify(), "(get-tuple-element): tuple index 2 out of range for (f32[2], s32[])");
  g->index = -1;
  CHECK_ERR(verify(), "tuple index -1 out of range");
  g->index = 0;
  CHECK_ERR(verify(), "expected shape f32[2], got s32[]");
  g->operands[0] = x;
  CHECK_ERR(verify(), "operand 0 must be a tuple, got f32[2]");
  end();
}

TEST(constant_literal_shape) {
  begin();
  comp("main", true);
  Instr *c = constant_f32("c", 1.5f);
  CHECK_OK(verify());
  c->shape = SH(T_F32, D(1));
  CHECK_ERR(verify(), "(constant): expected shape f32[], got f32[1]");
  c->literal = NULL;
  CHECK_ERR(verify(), "constant has no literal");
  end();
}

/* ---- dot, convolution ---- */

static void dot_dims(Instr *d, I64List lb, I64List rb, I64List lc, I64List rc) {
  d->dot = (DotDims){lb, rb, lc, rc};
  d->attrs |= A_DOT_DIMS;
}

TEST(dot_rules) {
  begin();
  comp("main", true);
  Instr *a = param(0, SH(T_F32, D(7), D(2), D(3))), *b = param(1, SH(T_F32, D(7), D(3), D(4)));
  Instr *d = ins("dot", OP_DOT, SH(T_F32, D(7), D(2), D(4)), 2, a, b);
  dot_dims(d, L(1, 0), L(1, 0), L(1, 2), L(1, 1));
  CHECK_OK(verify());
  dot_dims(d, L(1, 0), L(1, 0), L(1, 1), L(1, 1));
  CHECK_ERR(verify(), "(dot): contracting dimension sizes differ");
  dot_dims(d, L(1, 0), L(1, 0), L(1, 3), L(1, 1));
  CHECK_ERR(verify(), "lhs_contracting_dims={3}: dimension 3 out of range for rank 3");
  dot_dims(d, L(1, 0), L(0), L(1, 2), L(1, 1));
  CHECK_ERR(verify(), "lhs has 1 batch dimensions, rhs 0");
  dot_dims(d, L(1, 2), L(1, 0), L(1, 2), L(1, 1));
  CHECK_ERR(verify(), "lhs dimension 2 is both a batch and a contracting dimension");
  end();
}

TEST(dot_preferred_element_type) {
  begin();
  comp("main", true);
  Instr *a = param(0, SH(T_S8, D(2), D(3))), *b = param(1, SH(T_S8, D(3)));
  Instr *d = ins("dot", OP_DOT, SH(T_S32, D(2)), 2, a, b);
  dot_dims(d, L(0), L(0), L(1, 1), L(1, 0));
  CHECK_OK(verify());
  Instr *f = param(2, SH(T_F32, D(2), D(3))), *g = param(3, SH(T_F32, D(3)));
  Instr *e = ins("dot2", OP_DOT, SH(T_BF16, D(2)), 2, f, g); /* narrowing floats: allowed */
  dot_dims(e, L(0), L(0), L(1, 1), L(1, 0));
  CHECK_OK(verify());
  Instr *w = param(4, SH(T_S32, D(2), D(3))), *x = param(5, SH(T_S32, D(3)));
  Instr *h = ins("dot3", OP_DOT, SH(T_S8, D(2)), 2, w, x);
  dot_dims(h, L(0), L(0), L(1, 1), L(1, 0));
  CHECK_ERR(verify(), "(dot): result type s8 is narrower than operand type s32");
  end();
}

static void conv_nhwc(Instr *c) {
  /* dim_labels=b01f_01io->b01f */
  int64_t *sp = arena_array(&M->arena, 6, sizeof(int64_t));
  sp[0] = 1, sp[1] = 2, sp[2] = 0, sp[3] = 1, sp[4] = 1, sp[5] = 2;
  c->conv = (ConvDims){2, 0, 3, sp, 2, 3, sp + 2, 0, 3, sp + 4};
  c->attrs |= A_CONV_DIMS;
}

TEST(convolution_rules) {
  begin();
  comp("main", true);
  Instr *x = param(0, SH(T_F32, D(1), D(5), D(5), D(2)));
  Instr *k = param(1, SH(T_F32, D(3), D(3), D(2), D(4)));
  Instr *c = ins("conv", OP_CONVOLUTION, SH(T_F32, D(1), D(3), D(3), D(4)), 2, x, k);
  conv_nhwc(c);
  window(c, 2, 3, 1, 0);
  CHECK_OK(verify());
  window(c, 2, 3, 2, 1); /* (5 + 2 - 3) / 2 + 1 = 3 */
  CHECK_OK(verify());
  window(c, 2, 3, 1, 1);
  CHECK_ERR(verify(), "(convolution): expected shape f32[1,5,5,4], got f32[1,3,3,4]");
  window(c, 2, 2, 1, 0);
  CHECK_ERR(verify(), "window size 2 of spatial dimension 0 differs from the kernel's 3");
  window(c, 2, 3, 0, 0);
  CHECK_ERR(verify(), "window dimension 0 has non-positive stride 0");
  window(c, 2, 3, 1, 0);
  c->feature_group_count = 2; /* 2 input features / 2 groups = 1 != kernel's 2 */
  CHECK_ERR(verify(), "input feature size 2 must be feature_group_count (2) times the kernel input feature size 2");
  c->feature_group_count = 1;
  c->conv.in_feature = 1; /* batch=0, feature=1, spatial={1,2}: not a permutation */
  CHECK_ERR(verify(), "dim_labels: input dimensions are not a permutation of 0..3");
  end();
}

/* ---- gather, scatter ---- */

TEST(gather_rules) {
  begin();
  comp("main", true);
  Instr *x = param(0, SH(T_F32, D(5), D(3))), *i = param(1, SH(T_S32, D(4), D(1)));
  Instr *g = ins("g", OP_GATHER, SH(T_F32, D(4), D(3)), 2, x, i);
  g->gather = (GatherDims){.offset_dims = L(1, 1), .collapsed_slice_dims = L(1, 0),
                           .start_index_map = L(1, 0), .index_vector_dim = 1};
  g->slice_sizes = L(2, 1, 3);
  g->attrs |= A_GATHER_DIMS | A_SLICE_SIZES;
  CHECK_OK(verify());
  g->slice_sizes = L(2, 1, 4);
  CHECK_ERR(verify(), "(gather): slice_sizes={1,4} does not fit operand f32[5,3]");
  g->slice_sizes = L(2, 2, 3);
  CHECK_ERR(verify(), "slice size of collapsed or batching dimension 0 is 2, must be <= 1");
  g->slice_sizes = L(2, 1, 3);
  g->gather.index_vector_dim = 3;
  CHECK_ERR(verify(), "index_vector_dim=3 out of range for indices of rank 2");
  g->gather.index_vector_dim = 1;
  g->gather.start_index_map = L(1, 2);
  CHECK_ERR(verify(), "start_index_map={2}: dimension 2 out of range for rank 2");
  g->gather.start_index_map = L(1, 0);
  g->gather.offset_dims = L(1, 2);
  CHECK_ERR(verify(), "offset_dims={2}: dimension 2 out of range for rank 2");
  end();
}

TEST(gather_batching_dims) {
  begin();
  comp("main", true);
  Instr *x = param(0, SH(T_F32, D(2), D(5), D(3))), *i = param(1, SH(T_S32, D(2), D(4), D(1)));
  Instr *g = ins("g", OP_GATHER, SH(T_F32, D(2), D(4), D(3)), 2, x, i);
  g->gather = (GatherDims){.offset_dims = L(1, 2), .collapsed_slice_dims = L(1, 1),
                           .start_index_map = L(1, 1), .operand_batching_dims = L(1, 0),
                           .start_indices_batching_dims = L(1, 0), .index_vector_dim = 2};
  g->slice_sizes = L(3, 1, 1, 3);
  g->attrs |= A_GATHER_DIMS | A_SLICE_SIZES;
  CHECK_OK(verify());
  g->gather.start_indices_batching_dims = L(1, 1);
  CHECK_ERR(verify(), "batching dimension sizes differ: operand dimension 0 is 2, indices dimension 1 is 4");
  g->gather.start_indices_batching_dims = L(1, 0);
  g->gather.start_index_map = L(1, 0);
  CHECK_ERR(verify(), "operand dimension 0 is in both start_index_map and operand_batching_dims");
  end();
}

TEST(scatter_rules) {
  begin();
  Computation *add = scalar_fn("add", OP_ADD, T_F32, T_F32);
  Computation *bad = scalar_fn("bad", OP_ADD, T_S32, T_S32);
  comp("main", true);
  Instr *x = param(0, SH(T_F32, D(5), D(3))), *i = param(1, SH(T_S32, D(4), D(1)));
  Instr *u = param(2, SH(T_F32, D(4), D(3))), *u3 = param(3, SH(T_F32, D(3), D(3)));
  Instr *s = call1(ins("sc", OP_SCATTER, SH(T_F32, D(5), D(3)), 3, x, i, u), add);
  s->scatter = (ScatterDims){.update_window_dims = L(1, 1), .inserted_window_dims = L(1, 0),
                             .scatter_dims_to_operand_dims = L(1, 0), .index_vector_dim = 1};
  s->attrs |= A_SCATTER_DIMS;
  CHECK_OK(verify());
  s->called[0] = bad;
  CHECK_ERR(verify(), "(scatter): update computation %bad: result 0 is s32[], expected f32[]");
  s->called[0] = add;
  s->operands[2] = u3;
  CHECK_ERR(verify(), "updates dimension 0 (size 3) differs from indices dimension 0 (size 4)");
  end();
}

/* ---- reductions ---- */

TEST(reduce_rules) {
  begin();
  Computation *add = scalar_fn("add", OP_ADD, T_F32, T_F32);
  Computation *three = comp("three", false);
  param(0, sh(T_F32, 0)), param(1, sh(T_F32, 0)), param(2, sh(T_F32, 0));
  ins(NULL, OP_ADD, sh(T_F32, 0), 2, three->params[0], three->params[1]);
  comp("main", true);
  Instr *x = param(0, SH(T_F32, D(2), D(3))), *z = constant_f32("zero", 0);
  Instr *r = call1(ins("r", OP_REDUCE, SH(T_F32, D(2)), 2, x, z), add);
  dims(r, L(1, 1));
  CHECK_OK(verify());
  dims(r, L(1, 2));
  CHECK_ERR(verify(), "(reduce): dimensions={2}: dimension 2 out of range for rank 2");
  dims(r, L(2, 1, 1));
  CHECK_ERR(verify(), "dimensions={1,1} repeats dimension 1");
  dims(r, L(1, 0));
  CHECK_ERR(verify(), "expected shape f32[3], got f32[2]");
  dims(r, L(1, 1));
  r->called[0] = three;
  CHECK_ERR(verify(), "reducer %three must take 2 parameters, takes 3");
  end();
}

TEST(variadic_reduce) {
  begin();
  Computation *argmax = comp("argmax", false);
  Instr *a = param(0, sh(T_F32, 0)), *ai = param(1, sh(T_S32, 0));
  Instr *b = param(2, sh(T_F32, 0)), *bi = param(3, sh(T_S32, 0));
  Instr *m = ins(NULL, OP_MAXIMUM, sh(T_F32, 0), 2, a, b);
  Instr *mi = ins(NULL, OP_MAXIMUM, sh(T_S32, 0), 2, ai, bi);
  ins(NULL, OP_TUPLE, tup(2, sh(T_F32, 0), sh(T_S32, 0)), 2, m, mi);
  comp("main", true);
  Instr *x = param(0, SH(T_F32, D(2), D(3))), *xi = param(1, SH(T_S32, D(2), D(3)));
  Instr *z = param(2, sh(T_F32, 0)), *zi = param(3, sh(T_S32, 0));
  Instr *r = call1(ins("r", OP_REDUCE, tup(2, SH(T_F32, D(3)), SH(T_S32, D(3))), 4, x, xi, z, zi), argmax);
  dims(r, L(1, 0));
  CHECK_OK(verify());
  r->operands[3] = z;
  CHECK_ERR(verify(), "operand 3 (an init value) has type f32, expected s32");
  end();
}

TEST(reduce_window_and_select_and_scatter) {
  begin();
  Computation *add = scalar_fn("add", OP_ADD, T_F32, T_F32);
  Computation *ge = comp("ge", false);
  Instr *p = param(0, sh(T_F32, 0)), *q = param(1, sh(T_F32, 0));
  Instr *c = ins(NULL, OP_COMPARE, sh(T_PRED, 0), 2, p, q);
  c->cmp_dir = CMP_GE, c->attrs |= A_COMPARE;
  comp("main", true);
  Instr *x = param(0, SH(T_F32, D(4), D(6))), *z = constant_f32("zero", 0);
  Instr *src = param(1, SH(T_F32, D(2), D(3)));
  Instr *rw = call1(ins("rw", OP_REDUCE_WINDOW, SH(T_F32, D(2), D(3)), 2, x, z), add);
  window(rw, 2, 2, 2, 0);
  Instr *ss = call2(ins("ss", OP_SELECT_AND_SCATTER, SH(T_F32, D(4), D(6)), 3, x, src, z), ge, add);
  window(ss, 2, 2, 2, 0);
  CHECK_OK(verify());
  window(rw, 1, 2, 2, 0);
  CHECK_ERR(verify(), "(reduce-window): window has 1 dimensions, expected 2");
  window(rw, 2, 2, 2, 0);
  window(ss, 2, 2, 1, 0);
  CHECK_ERR(verify(), "operand 1 (the source) has shape f32[2,3], expected the windowed operand shape f32[3,5]");
  window(ss, 2, 2, 2, 0);
  ss->called[0] = add;
  CHECK_ERR(verify(), "select %add must return pred[], returns f32[]");
  end();
}

TEST(sort_and_topk) {
  begin();
  Computation *lt = scalar_fn("lt", OP_COMPARE, T_F32, T_PRED);
  Computation *lt2 = comp("lt2", false);
  Instr *a = param(0, sh(T_F32, 0)), *b = param(1, sh(T_F32, 0));
  param(2, sh(T_S32, 0)), param(3, sh(T_S32, 0));
  Instr *c = ins(NULL, OP_COMPARE, sh(T_PRED, 0), 2, a, b);
  c->cmp_dir = CMP_LT, c->attrs |= A_COMPARE;
  comp("main", true);
  Instr *x = param(0, SH(T_F32, D(3), D(5))), *i = param(1, SH(T_S32, D(3), D(5)));
  Instr *s = call1(ins("s", OP_SORT, SH(T_F32, D(3), D(5)), 1, x), lt);
  dims(s, L(1, 1));
  Instr *s2 = call1(ins("s2", OP_SORT, tup(2, SH(T_F32, D(3), D(5)), SH(T_S32, D(3), D(5))), 2, x, i), lt2);
  dims(s2, L(1, 0));
  Instr *k = ins("k", OP_TOPK, tup(2, SH(T_F32, D(3), D(2)), SH(T_S32, D(3), D(2))), 1, x);
  k->topk_k = 2, k->attrs |= A_TOPK;
  CHECK_OK(verify());
  k->topk_k = 6;
  CHECK_ERR(verify(), "(topk): k=6 out of range for operand f32[3,5]");
  k->topk_k = 2;
  s2->called[0] = lt;
  CHECK_ERR(verify(), "(sort): called computation %lt must take 4 parameters, takes 2");
  s2->called[0] = lt2;
  dims(s, L(1, 2));
  CHECK_ERR(verify(), "(sort): dimensions={2}: dimension 2 out of range for rank 2");
  end();
}

/* ---- control flow ---- */

TEST(while_rules) {
  begin();
  Computation *cond = comp("cond", false);
  Instr *cp = param(0, sh(T_S32, 0));
  Instr *lim = ins("lim", OP_IOTA, SH(T_S32, D(1)), 0);
  lim->attrs |= A_IOTA_DIM;
  Instr *cmp = ins(NULL, OP_COMPARE, sh(T_PRED, 0), 2, cp, cp);
  cmp->cmp_dir = CMP_LT, cmp->attrs |= A_COMPARE;
  Computation *body = comp("body", false);
  Instr *bp = param(0, sh(T_S32, 0));
  ins(NULL, OP_ADD, sh(T_S32, 0), 2, bp, bp);
  Computation *fbody = comp("fbody", false);
  Instr *fp = param(0, sh(T_S32, 0));
  ins(NULL, OP_CONVERT, sh(T_F32, 0), 1, fp);
  comp("main", true);
  Instr *x = param(0, sh(T_S32, 0));
  Instr *w = call2(ins("w", OP_WHILE, sh(T_S32, 0), 1, x), cond, body);
  CHECK_OK(verify());
  w->called[1] = fbody;
  CHECK_ERR(verify(), "(while): body %fbody returns f32[], expected the loop state shape s32[]");
  w->called[1] = body;
  w->called[0] = body;
  CHECK_ERR(verify(), "condition %body must return pred[], returns s32[]");
  w->called[0] = cond;
  w->ncalled = 1;
  CHECK_ERR(verify(), "expected 2 called computations, got 1");
  end();
}

TEST(conditional_rules) {
  begin();
  Computation *t = comp("t", false);
  ins(NULL, OP_NEGATE, SH(T_F32, D(3)), 1, param(0, SH(T_F32, D(3))));
  Computation *f = comp("f", false);
  ins(NULL, OP_EXP, SH(T_F32, D(3)), 1, param(0, SH(T_F32, D(3))));
  Computation *g = comp("g", false);
  ins(NULL, OP_CONVERT, SH(T_S32, D(3)), 1, param(0, SH(T_F32, D(3))));
  comp("main", true);
  Instr *p = param(0, sh(T_PRED, 0)), *x = param(1, SH(T_F32, D(3))), *y = param(2, SH(T_F32, D(2)));
  Instr *c = call2(ins("c", OP_CONDITIONAL, SH(T_F32, D(3)), 3, p, x, x), t, f);
  CHECK_OK(verify());
  c->operands[2] = y;
  CHECK_ERR(verify(), "(conditional): operand 2 has shape f32[2], but parameter 0 of %f is f32[3]");
  c->operands[2] = x;
  c->called[1] = g;
  CHECK_ERR(verify(), "branch 1 %g returns s32[3], but branch 0 %t returns f32[3]");
  end();
}

TEST(call_and_map) {
  begin();
  Computation *add = scalar_fn("add", OP_ADD, T_F32, T_F32);
  Computation *fn = comp("fn", false);
  ins(NULL, OP_TANH, SH(T_F32, D(4)), 1, param(0, SH(T_F32, D(4))));
  comp("main", true);
  Instr *x = param(0, SH(T_F32, D(4))), *y = param(1, SH(T_F32, D(5)));
  Instr *k = call1(ins("k", OP_CALL, SH(T_F32, D(4)), 1, x), fn);
  call1(ins("m", OP_MAP, SH(T_F32, D(4)), 2, x, k), add);
  CHECK_OK(verify());
  k->operands[0] = y;
  CHECK_ERR(verify(), "(call): operand 0 has shape f32[5], but parameter 0 of %fn is f32[4]");
  end();
}

TEST(declared_shape_ops) {
  begin();
  comp("main", true);
  Instr *x = param(0, SH(T_F32, D(6), D(6)));
  Instr *cc = ins("cc", OP_CUSTOM_CALL, tup(2, SH(T_F32, D(6), D(6)), sh(T_S32, 0)), 1, x);
  cc->custom_call_target = "lapack_spotrf_ffi";
  cc->attrs |= A_CUSTOM_CALL;
  CHECK_OK(verify());
  CHECK(infer_rule_is_declared(OP_CUSTOM_CALL));
  CHECK(!infer_rule_is_declared(OP_ADD));
  for (int op = 0; op < OP_COUNT; op++) CHECK(infer_has_rule((Opcode)op));
  end();
}

TEST(linalg_and_fft) {
  begin();
  comp("main", true);
  Instr *a = param(0, SH(T_F32, D(2), D(4), D(4))), *b = param(1, SH(T_F32, D(2), D(4), D(3)));
  Instr *r = param(2, SH(T_F32, D(3), D(8)));
  ins("ch", OP_CHOLESKY, SH(T_F32, D(2), D(4), D(4)), 1, a);
  Instr *ts = ins("ts", OP_TRIANGULAR_SOLVE, SH(T_F32, D(2), D(4), D(3)), 2, a, b);
  ts->tri_left_side = true;
  Instr *f = ins("f", OP_FFT, SH(T_C64, D(3), D(5)), 1, r);
  f->fft_type = FFT_RFFT, f->fft_length = L(1, 8), f->attrs |= A_FFT;
  Instr *fi = ins("fi", OP_FFT, SH(T_F32, D(3), D(8)), 1, f);
  fi->fft_type = FFT_IRFFT, fi->fft_length = L(1, 8), fi->attrs |= A_FFT;
  CHECK_OK(verify());
  ts->tri_left_side = false;
  CHECK_ERR(verify(), "(triangular-solve): operand 1 f32[2,4,3] does not fit a of f32[2,4,4]");
  ts->tri_left_side = true;
  f->fft_length = L(1, 6);
  CHECK_ERR(verify(), "(fft): fft_length={6} differs from the operand's inner dims f32[3,8]");
  end();
}

TEST(rng_bit_generator) {
  begin();
  comp("main", true);
  Instr *s = param(0, SH(T_U64, D(2)));
  ins("r", OP_RNG_BIT_GENERATOR, tup(2, SH(T_U64, D(2)), SH(T_U32, D(4), D(4))), 1, s);
  CHECK_OK(verify());
  C->params[0]->shape = SH(T_U32, D(2));
  CHECK_ERR(verify(), "operand 0 (the state) must be u64[n], got u32[2]");
  end();
}

/* ---- structure ---- */

TEST(structure_root_and_entry) {
  begin();
  comp("main", true);
  param(0, SH(T_F32, D(2)));
  C->root = NULL;
  CHECK_ERR(verify(), "verify: computation %main: computation has no root instruction");
  C->root = C->instrs[0];
  CHECK_OK(verify());
  M->entry = NULL;
  CHECK_ERR(verify(), "verify: module has no entry computation");
  end();
}

TEST(structure_parameter_numbering) {
  begin();
  comp("main", true);
  Instr *a = param(0, SH(T_F32, D(2)));
  Instr *b = param(2, SH(T_F32, D(2)));
  ins(NULL, OP_ADD, SH(T_F32, D(2)), 2, a, b);
  CHECK_ERR(verify(), "verify: computation %main: parameter 1 is missing");
  b->param_number = 1;
  C->params[1] = b, C->params[2] = NULL, C->nparams = 2;
  CHECK_OK(verify());
  b->param_number = 0;
  CHECK_ERR(verify(), "parameter %parameter.2 has number 0 but is listed as parameter 1");
  end();
}

TEST(structure_operand_order_and_scope) {
  begin();
  Computation *other = comp("other", false);
  Instr *o = param(0, SH(T_F32, D(2)));
  ins(NULL, OP_NEGATE, SH(T_F32, D(2)), 1, o);
  (void)other;
  comp("main", true);
  Instr *a = param(0, SH(T_F32, D(2)));
  Instr *n = ins("n", OP_NEGATE, SH(T_F32, D(2)), 1, a);
  ins("m", OP_NEGATE, SH(T_F32, D(2)), 1, n);
  CHECK_OK(verify());
  n->operands[0] = C->instrs[2];
  CHECK_ERR(verify(), "instruction %n (negate): operand 0 (%m) is used before it is defined");
  n->operands[0] = o;
  CHECK_ERR(verify(), "operand 0 (%parameter.1) belongs to computation %other, not %main");
  end();
}

TEST(structure_shape_checks) {
  begin();
  comp("main", true);
  Instr *a = param(0, SH(T_F32, D(2), D(3)));
  C->root = a;
  a->shape->has_layout = true;
  a->shape->minor_to_major = arena_array(&M->arena, 2, sizeof(int64_t));
  a->shape->minor_to_major[0] = 1, a->shape->minor_to_major[1] = 1;
  CHECK_ERR(verify(), "layout is not a permutation of the 2 dimensions");
  a->shape->minor_to_major[0] = 0;
  CHECK_OK(verify());
  a->shape = SH(T_F32, D(1) << 30, D(1) << 30);
  cxla_status s = verify();
  CHECK(cxla_status_code_of(s) == CXLA_RESOURCE_EXHAUSTED);
  cxla_status_free(s);
  a->shape = SH(T_F32, D(-1));
  CHECK_ERR(verify(), "dimension 0 has negative size -1");
  end();
}

TEST(structure_recursion) {
  begin();
  Computation *f = comp("f", false);
  Instr *p = param(0, SH(T_F32, D(2)));
  Instr *k = call1(ins(NULL, OP_CALL, SH(T_F32, D(2)), 1, p), f);
  (void)k;
  comp("main", true);
  Instr *x = param(0, SH(T_F32, D(2)));
  call1(ins(NULL, OP_CALL, SH(T_F32, D(2)), 1, x), f);
  CHECK_ERR(verify(), "verify: computation %f calls itself (recursion)");
  end();
}

TEST(entry_computation_layout) {
  begin();
  comp("main", true);
  Instr *x = param(0, SH(T_F32, D(2), D(3))), *y = param(1, sh(T_S32, 0));
  ins(NULL, OP_TUPLE, tup(2, SH(T_F32, D(2), D(3)), sh(T_S32, 0)), 2, x, y);
  /* the reader's typed EntryLayout (test_hlo_header reads it from text) */
  EntryLayout el = {2, NULL, NULL};
  Shape *ps[2] = {SH(T_F32, D(2), D(3)), sh(T_S32, 0)};
  el.params = ps;
  el.result = tup(2, SH(T_F32, D(2), D(3)), sh(T_S32, 0));
  M->entry_layout = &el;
  CHECK_OK(verify());
  ps[0] = SH(T_F32, D(3), D(2));
  CHECK_ERR(verify(), "entry_computation_layout gives parameter 0 as f32[3,2], entry computation %main has f32[2,3]");
  el.nparams = 1;
  CHECK_ERR(verify(), "entry_computation_layout has 1 parameters, entry computation %main has 2");
  el.nparams = 2;
  ps[0] = SH(T_F32, D(2), D(3));
  el.result = SH(T_F32, D(2), D(3));
  CHECK_ERR(verify(), "entry_computation_layout gives the result as f32[2,3]");
  M->entry_layout = NULL;
  end();
}

/* ---- error tests written as HLO text ---- */

/* Parses and verifies; a parse error is returned as is (and so fails the
 * needle check of a verifier test). */
static cxla_status verify_text(const char *text) {
  cxla_module *m = NULL;
  cxla_status s = cxla_module_parse(text, strlen(text), "test.hlo", &m);
  if (s) return cxla_status_annotate(s, "parse");
  s = cxla_module_verify(m);
  cxla_module_destroy(m);
  return s;
}

#define ADD_F32                                                                \
  "add {\n  p = f32[] parameter(0)\n  q = f32[] parameter(1)\n"               \
  "  ROOT r = f32[] add(p, q)\n}\n\n"

typedef struct TextCase {
  const char *name, *text, *needle;
} TextCase;

static const TextCase text_cases[] = {
    {"dims mismatch",
     "HloModule m\n\nENTRY main.10 {\n  x = f32[2,3] parameter(0)\n  y = f32[2,3] parameter(1)\n"
     "  ROOT add.3 = f32[3,2] add(x, y)\n}\n",
     "verify: computation %main.10, instruction %add.3 (add): expected shape f32[2,3], got f32[3,2]"},
    {"operand type mismatch",
     "HloModule m\n\nENTRY main {\n  x = f32[4] parameter(0)\n  y = s32[4] parameter(1)\n"
     "  ROOT a = f32[4] add(x, y)\n}\n",
     "instruction %a (add): operand 1 has type s32, expected f32"},
    {"result type mismatch",
     "HloModule m\n\nENTRY main {\n  x = f32[4] parameter(0)\n  ROOT n = s32[4] negate(x)\n}\n",
     "instruction %n (negate): expected shape f32[4], got s32[4]"},
    {"unary type rule",
     "HloModule m\n\nENTRY main {\n  x = s32[4] parameter(0)\n  ROOT e = s32[4] exponential(x)\n}\n",
     "(exponential): operand 0 has type s32, expected floating point or complex"},
    {"compare result",
     "HloModule m\n\nENTRY main {\n  x = f32[4] parameter(0)\n"
     "  ROOT c = f32[4] compare(x, x), direction=LT\n}\n",
     "(compare): expected shape pred[4], got f32[4]"},
    {"select predicate shape",
     "HloModule m\n\nENTRY main {\n  p = pred[3] parameter(0)\n  x = f32[4] parameter(1)\n"
     "  ROOT s = f32[4] select(p, x, x)\n}\n",
     "(select): operand 0 has shape pred[3], expected a scalar or the dims of operand 1, f32[4]"},
    {"bitcast-convert widths",
     "HloModule m\n\nENTRY main {\n  x = u8[4,3] parameter(0)\n  ROOT b = f32[4] bitcast-convert(x)\n}\n",
     "(bitcast-convert): bitcast-convert u8 to f32 needs a last dimension of 4, operand is u8[4,3]"},
    {"bitcast size",
     "HloModule m\n\nENTRY main {\n  x = f32[4,3] parameter(0)\n  ROOT b = f32[2,5] bitcast(x)\n}\n",
     "(bitcast): bitcast from f32[4,3] (48 bytes) to f32[2,5] (40 bytes) changes the size"},
    {"reshape element count",
     "HloModule m\n\nENTRY main {\n  x = f32[4,3] parameter(0)\n  ROOT r = f32[5,2] reshape(x)\n}\n",
     "(reshape): reshape from f32[4,3] (12 elements) to f32[5,2] (10 elements)"},
    {"variadic operand count",
     "HloModule m\n\n" ADD_F32 "ENTRY main {\n  x = f32[2,3] parameter(0)\n  z = f32[] constant(0)\n"
     "  ROOT r = f32[2] reduce(x, z, z), dimensions={1}, to_apply=add\n}\n",
     "(reduce): expected an even number of operands (N inputs, N init values), got 3"},
    {"dynamic-slice index count",
     "HloModule m\n\nENTRY main {\n  x = f32[5,4] parameter(0)\n  i = s32[] parameter(1)\n"
     "  ROOT d = f32[2,2] dynamic-slice(x, i), dynamic_slice_sizes={2,2}\n}\n",
     "(dynamic-slice): expected 3 operands (2 start indices for rank 2), got 2"},
    {"transpose dimension out of range",
     "HloModule m\n\nENTRY main {\n  x = f32[2,3] parameter(0)\n"
     "  ROOT t = f32[3,2] transpose(x), dimensions={0,7}\n}\n",
     "(transpose): dimensions={0,7}: dimension 7 out of range for rank 2"},
    {"broadcast dimension out of range",
     "HloModule m\n\nENTRY main {\n  x = f32[3] parameter(0)\n"
     "  ROOT b = f32[2,3] broadcast(x), dimensions={-1}\n}\n",
     "(broadcast): dimensions={-1}: dimension -1 out of range for rank 2"},
    {"reduce dimension repeated",
     "HloModule m\n\n" ADD_F32 "ENTRY main {\n  x = f32[2,3] parameter(0)\n  z = f32[] constant(0)\n"
     "  ROOT r = f32[] reduce(x, z), dimensions={1,1}, to_apply=add\n}\n",
     "(reduce): dimensions={1,1} repeats dimension 1"},
    {"concatenate dimension",
     "HloModule m\n\nENTRY main {\n  x = f32[2,3] parameter(0)\n"
     "  ROOT c = f32[4,3] concatenate(x, x), dimensions={2}\n}\n",
     "(concatenate): concatenation dimension 2 out of range for rank 2"},
    {"dot contracting dims",
     "HloModule m\n\nENTRY main {\n  x = f32[2,3] parameter(0)\n  y = f32[3,4] parameter(1)\n"
     "  ROOT d = f32[2,4] dot(x, y), lhs_contracting_dims={2}, rhs_contracting_dims={0}\n}\n",
     "(dot): lhs_contracting_dims={2}: dimension 2 out of range for rank 2"},
    {"dot sizes",
     "HloModule m\n\nENTRY main {\n  x = f32[2,3] parameter(0)\n  y = f32[4,3] parameter(1)\n"
     "  ROOT d = f32[2,3] dot(x, y), lhs_contracting_dims={1}, rhs_contracting_dims={0}\n}\n",
     "(dot): contracting dimension sizes differ: lhs f32[2,3] dimension 1 vs rhs f32[4,3] dimension 0"},
    {"gather index_vector_dim",
     "HloModule m\n\nENTRY main {\n  x = f32[5,3] parameter(0)\n  i = s32[4,1] parameter(1)\n"
     "  ROOT g = f32[4,3] gather(x, i), offset_dims={1}, collapsed_slice_dims={0}, "
     "start_index_map={0}, index_vector_dim=3, slice_sizes={1,3}\n}\n",
     "(gather): index_vector_dim=3 out of range for indices of rank 2"},
    {"gather collapsed dims",
     "HloModule m\n\nENTRY main {\n  x = f32[5,3] parameter(0)\n  i = s32[4,1] parameter(1)\n"
     "  ROOT g = f32[4,3] gather(x, i), offset_dims={1}, collapsed_slice_dims={9}, "
     "start_index_map={0}, index_vector_dim=1, slice_sizes={1,3}\n}\n",
     "(gather): collapsed_slice_dims={9}: dimension 9 out of range for rank 2"},
    {"scatter updates",
     "HloModule m\n\n" ADD_F32 "ENTRY main {\n  x = f32[5,3] parameter(0)\n  i = s32[4,1] parameter(1)\n"
     "  u = f32[4,7] parameter(2)\n"
     "  ROOT s = f32[5,3] scatter(x, i, u), update_window_dims={1}, inserted_window_dims={0}, "
     "scatter_dims_to_operand_dims={0}, index_vector_dim=1, to_apply=add\n}\n",
     "(scatter): updates dimension 1 (size 7) exceeds operand dimension 1 (size 3)"},
    {"gather batching dims",
     "HloModule m\n\nENTRY main {\n  x = f32[2,5,3] parameter(0)\n  i = s32[2,4,1] parameter(1)\n"
     "  ROOT g = f32[2,4,3] gather(x, i), offset_dims={2}, collapsed_slice_dims={1}, "
     "start_index_map={1}, operand_batching_dims={0}, start_indices_batching_dims={1}, "
     "index_vector_dim=2, slice_sizes={1,1,3}\n}\n",
     "(gather): batching dimension sizes differ: operand dimension 0 is 2, indices dimension 1 is 4"},
    {"tuple arity",
     "HloModule m\n\nENTRY main {\n  x = f32[2] parameter(0)\n"
     "  ROOT t = (f32[2], f32[2]) tuple(x)\n}\n",
     "(tuple): expected shape (f32[2]), got (f32[2], f32[2])"},
    {"tuple index",
     "HloModule m\n\nENTRY main {\n  x = (f32[2,3], s32[]) parameter(0)\n"
     "  ROOT g = f32[2,3] get-tuple-element(x), index=5\n}\n",
     "(get-tuple-element): tuple index 5 out of range for (f32[2,3], s32[])"},
    {"reducer signature",
     "HloModule m\n\nmax {\n  p = s32[] parameter(0)\n  q = s32[] parameter(1)\n"
     "  ROOT r = s32[] maximum(p, q)\n}\n\nENTRY main {\n  x = f32[2,3] parameter(0)\n"
     "  z = f32[] constant(0)\n  ROOT r = f32[2] reduce(x, z), dimensions={1}, to_apply=max\n}\n",
     "(reduce): reducer %max: result 0 is s32[], expected f32[]"},
    {"reducer parameter count",
     "HloModule m\n\nneg {\n  p = f32[] parameter(0)\n  ROOT r = f32[] negate(p)\n}\n\n"
     "ENTRY main {\n  x = f32[2,3] parameter(0)\n  z = f32[] constant(0)\n"
     "  ROOT r = f32[2] reduce(x, z), dimensions={1}, to_apply=neg\n}\n",
     "(reduce): reducer %neg must take 2 parameters, takes 1"},
    {"reduce-window window rank",
     "HloModule m\n\n" ADD_F32 "ENTRY main {\n  x = f32[4,4] parameter(0)\n  z = f32[] constant(0)\n"
     "  ROOT r = f32[2,2] reduce-window(x, z), window={size=2 stride=2}, to_apply=add\n}\n",
     "(reduce-window): window has 1 dimensions, expected 2"},
    {"while body result",
     "HloModule m\n\ncond {\n  p = s32[] parameter(0)\n  ROOT c = pred[] compare(p, p), direction=LT\n}\n\n"
     "body {\n  p = s32[] parameter(0)\n  ROOT c = f32[] convert(p)\n}\n\n"
     "ENTRY main {\n  x = s32[] parameter(0)\n  ROOT w = s32[] while(x), condition=cond, body=body\n}\n",
     "(while): body %body returns f32[], expected the loop state shape s32[]"},
    {"while condition result",
     "HloModule m\n\ncond {\n  p = s32[] parameter(0)\n  ROOT c = s32[] add(p, p)\n}\n\n"
     "body {\n  p = s32[] parameter(0)\n  ROOT c = s32[] add(p, p)\n}\n\n"
     "ENTRY main {\n  x = s32[] parameter(0)\n  ROOT w = s32[] while(x), condition=cond, body=body\n}\n",
     "(while): condition %cond must return pred[], returns s32[]"},
    {"while body parameter",
     "HloModule m\n\ncond {\n  p = s32[] parameter(0)\n  ROOT c = pred[] compare(p, p), direction=LT\n}\n\n"
     "body {\n  p = f32[] parameter(0)\n  ROOT c = s32[] convert(p)\n}\n\n"
     "ENTRY main {\n  x = s32[] parameter(0)\n  ROOT w = s32[] while(x), condition=cond, body=body\n}\n",
     "(while): operand 0 has shape s32[], but parameter 0 of %body is f32[]"},
    {"conditional branch results",
     "HloModule m\n\nb0 {\n  p = f32[3] parameter(0)\n  ROOT r = f32[3] negate(p)\n}\n\n"
     "b1 {\n  p = f32[3] parameter(0)\n  ROOT r = s32[3] convert(p)\n}\n\n"
     "ENTRY main {\n  i = s32[] parameter(0)\n  x = f32[3] parameter(1)\n"
     "  ROOT c = f32[3] conditional(i, x, x), branch_computations={b0, b1}\n}\n",
     "(conditional): branch 1 %b1 returns s32[3], but branch 0 %b0 returns f32[3]"},
    {"call argument",
     "HloModule m\n\nf {\n  p = f32[3] parameter(0)\n  ROOT r = f32[3] negate(p)\n}\n\n"
     "ENTRY main {\n  x = f32[4] parameter(0)\n  ROOT c = f32[3] call(x), to_apply=f\n}\n",
     "(call): operand 0 has shape f32[4], but parameter 0 of %f is f32[3]"},
    {"fusion result",
     "HloModule m\n\nf {\n  p = f32[3] parameter(0)\n  ROOT r = f32[3] negate(p)\n}\n\n"
     "ENTRY main {\n  x = f32[3] parameter(0)\n  ROOT c = f32[4] fusion(x), kind=kLoop, calls=f\n}\n",
     "(fusion): expected shape f32[3], got f32[4]"},
    {"sort comparator",
     "HloModule m\n\n" ADD_F32 "ENTRY main {\n  x = f32[5] parameter(0)\n"
     "  ROOT s = f32[5] sort(x), dimensions={0}, to_apply=add\n}\n",
     "(sort): comparator %add must return pred[], returns f32[]"},
    {"pad negative size",
     "HloModule m\n\nENTRY main {\n  x = f32[3] parameter(0)\n  z = f32[] constant(0)\n"
     "  ROOT p = f32[0] pad(x, z), padding=-2_-2\n}\n",
     "(pad): padding dimension 0 gives negative size -1"},
    {"convolution features",
     "HloModule m\n\nENTRY main {\n  x = f32[1,5,5,2] parameter(0)\n  k = f32[3,3,3,4] parameter(1)\n"
     "  ROOT c = f32[1,3,3,4] convolution(x, k), window={size=3x3}, dim_labels=b01f_01io->b01f\n}\n",
     "(convolution): input feature size 2 must be feature_group_count (1) times the kernel input "
     "feature size 3"},
    {"slice rank",
     "HloModule m\n\nENTRY main {\n  x = f32[4,6] parameter(0)\n"
     "  ROOT s = f32[2] slice(x), slice={[0:2:1]}\n}\n",
     "(slice): result f32[2] must have the rank of operand 0, f32[4,6]"},
    {"pad rank",
     "HloModule m\n\nENTRY main {\n  x = f32[4,6] parameter(0)\n  z = f32[] constant(0)\n"
     "  ROOT p = f32[6] pad(x, z), padding=1_1\n}\n",
     "(pad): result f32[6] must have the rank of operand 0, f32[4,6]"},
    {"iota dimension",
     "HloModule m\n\nENTRY main {\n  ROOT i = s32[2,3] iota(), iota_dimension=4\n}\n",
     "(iota): iota_dimension=4 out of range for rank 2"},
    {"shape size limit",
     "HloModule m\n\nENTRY main {\n  ROOT x = f32[100000000000,100] parameter(0)\n}\n",
     "instruction %x (parameter): array of 10000000000000 elements is larger than cxla's limit"},
    {"entry computation layout",
     "HloModule m, entry_computation_layout={(f32[3]{0})->f32[4]{0}}\n\n"
     "ENTRY main {\n  x = f32[3] parameter(0)\n  ROOT n = f32[3] negate(x)\n}\n",
     "verify: entry_computation_layout gives the result as f32[4], entry computation %main returns f32[3]"},
};

TEST(text_errors) {
  for (size_t i = 0; i < sizeof text_cases / sizeof text_cases[0]; i++) {
    const TextCase *t = &text_cases[i];
    cxla_status s = verify_text(t->text);
    if (!s || !strstr(cxla_status_message(s), t->needle)) {
      fprintf(stderr, "text case \"%s\": expected \"%s\", got \"%s\"\n", t->name, t->needle,
              s ? cxla_status_message(s) : "(no error)");
      CHECK(!"text case rejected with the right message");
    }
    cxla_status_free(s);
  }
}

TEST(text_valid) {
  /* The error cases above with their mistake fixed verify cleanly. */
  CHECK_OK(verify_text(
      "HloModule m, entry_computation_layout={(f32[5,3]{1,0}, s32[4,1]{1,0}, f32[4,3]{1,0})->f32[5,3]{1,0}}\n\n"
      ADD_F32 "ENTRY main {\n  x = f32[5,3] parameter(0)\n  i = s32[4,1] parameter(1)\n"
      "  u = f32[4,3] parameter(2)\n"
      "  g = f32[4,3] gather(x, i), offset_dims={1}, collapsed_slice_dims={0}, "
      "start_index_map={0}, index_vector_dim=1, slice_sizes={1,3}\n"
      "  a = f32[4,3] add(g, u)\n"
      "  ROOT s = f32[5,3] scatter(x, i, a), update_window_dims={1}, inserted_window_dims={0}, "
      "scatter_dims_to_operand_dims={0}, index_vector_dim=1, to_apply=add\n}\n"));
  CHECK_OK(verify_text(
      "HloModule m\n\nENTRY main {\n  x = f32[2,5,3] parameter(0)\n  i = s32[2,4,1] parameter(1)\n"
      "  ROOT g = f32[2,4,3] gather(x, i), offset_dims={2}, collapsed_slice_dims={1}, "
      "start_index_map={1}, operand_batching_dims={0}, start_indices_batching_dims={0}, "
      "index_vector_dim=2, slice_sizes={1,1,3}\n}\n"));
}

TEST(out_of_memory) {
  /* Every allocation the verifier makes can fail: the result is then the
   * out-of-memory status, never a crash, a leak or a false verdict. */
  static const char text[] =
      "HloModule m\n\n" ADD_F32 "ENTRY main {\n  x = f32[2,3] parameter(0)\n"
      "  z = f32[] constant(0)\n  r = f32[2] reduce(x, z), dimensions={1}, to_apply=add\n"
      "  ROOT t = (f32[2], f32[2,3]) tuple(r, x)\n}\n";
  cxla_module *m = NULL;
  CHECK_OK(cxla_module_parse(text, strlen(text), "oom.hlo", &m));
  if (!m) return;
  bool finished = false;
  for (long n = 1; n < 10000 && !finished; n++) {
    cxla_fail_alloc_at(n);
    cxla_status s = cxla_module_verify(m);
    cxla_fail_alloc_at(0);
    if (!s) finished = true;
    else CHECK(cxla_status_code_of(s) == CXLA_RESOURCE_EXHAUSTED);
    cxla_status_free(s);
  }
  CHECK(finished);
  cxla_module_destroy(m);
}

/* ---- the corpus: every module XLA accepted verifies ---- */

static const char *corpus_dir = "tests/corpus";

static int cmp_str(const void *a, const void *b) {
  return strcmp(*(char *const *)a, *(char *const *)b);
}

TEST(corpus_verifies) {
  DIR *d = opendir(corpus_dir);
  if (!d) {
    SKIP("corpus directory %s not found", corpus_dir);
    return;
  }
  char **names = NULL;
  size_t n = 0, cap = 0;
  struct dirent *e;
  while ((e = readdir(d))) {
    if (e->d_name[0] == '.') continue;
    if (n == cap) {
      cap = cap ? cap * 2 : 64;
      char **grown = realloc(names, cap * sizeof *names);
      if (!grown) abort();
      names = grown;
    }
    names[n++] = strdup(e->d_name);
  }
  closedir(d);
  if (n == 0) {
    SKIP("no cases under %s", corpus_dir);
    free(names);
    return;
  }
  qsort(names, n, sizeof *names, cmp_str);
  int ok = 0, total = 0;
  for (size_t i = 0; i < n; i++) {
    static const char *const files[] = {"module.hlo", "optimized.hlo"};
    for (int f = 0; f < 2; f++) {
      char path[4096];
      struct stat st;
      snprintf(path, sizeof path, "%s/%s/%s", corpus_dir, names[i], files[f]);
      if (stat(path, &st) != 0) continue;
      total++;
      cxla_module *m = NULL;
      cxla_status s = cxla_module_parse_file(path, &m);
      if (!s) s = cxla_module_verify(m);
      if (s) fprintf(stderr, "%s: %s\n", path, cxla_status_message(s));
      CHECK(!s);
      ok += !s;
      cxla_status_free(s);
      cxla_module_destroy(m);
    }
    free(names[i]);
  }
  free(names);
  printf("corpus: %d/%d files verify\n", ok, total);
}

int main(int argc, char **argv) {
  if (argc > 1) corpus_dir = argv[1];

  RUN(elementwise_ok);
  RUN(elementwise_shape_mismatch_message);
  RUN(elementwise_operand_type_mismatch);
  RUN(elementwise_no_implicit_broadcast);
  RUN(elementwise_operand_count);
  RUN(unary_type_rules);
  RUN(compare_gives_pred);
  RUN(select_and_clamp_scalar_forms);
  RUN(convert_and_bitcast_convert);
  RUN(broadcast_rules);
  RUN(reshape_transpose_reverse);
  RUN(slice_concat_pad);
  RUN(iota_rules);
  RUN(dynamic_slice_rules);
  RUN(tuple_and_get_tuple_element);
  RUN(constant_literal_shape);
  RUN(dot_rules);
  RUN(dot_preferred_element_type);
  RUN(convolution_rules);
  RUN(gather_rules);
  RUN(gather_batching_dims);
  RUN(scatter_rules);
  RUN(reduce_rules);
  RUN(variadic_reduce);
  RUN(reduce_window_and_select_and_scatter);
  RUN(sort_and_topk);
  RUN(while_rules);
  RUN(conditional_rules);
  RUN(call_and_map);
  RUN(declared_shape_ops);
  RUN(linalg_and_fft);
  RUN(rng_bit_generator);
  RUN(structure_root_and_entry);
  RUN(structure_parameter_numbering);
  RUN(structure_operand_order_and_scope);
  RUN(structure_shape_checks);
  RUN(structure_recursion);
  RUN(entry_computation_layout);
  RUN(text_errors);
  RUN(text_valid);
  RUN(out_of_memory);
  RUN(corpus_verifies);
  return test_summary(__FILE__);
}
