/* Elementwise ops: XLA's semantics on the edge cases, worked out by hand
 * from XLA's definitions (hlo_evaluator_typed_visitor.h, the CPU elemental
 * emitter, the operation semantics document). */
#include <float.h>
#include <math.h>
#include <stdint.h>

#include "harness.h"
#include "interp_test.h"
#include "interp/ew_scalar.h"

/* ---- helpers ---- */

static Literal *un(Opcode op, ElemType t, ElemType rt, int n, const void *a) {
  Literal *x = tl_from(t, n, a);
  Literal *r = tm_eval_op(op, rt, 1, &x, NULL, NULL, NULL);
  literal_free(x);
  return r;
}

static Literal *bin(Opcode op, ElemType t, ElemType rt, int n, const void *a, const void *b) {
  Literal *x[2] = {tl_from(t, n, a), tl_from(t, n, b)};
  Literal *r = tm_eval_op(op, rt, 2, x, NULL, NULL, NULL);
  literal_free(x[0]);
  literal_free(x[1]);
  return r;
}

typedef struct CmpAttrs {
  CmpDir dir;
  CmpType type;
} CmpAttrs;

static void set_cmp(Instr *in, void *ctx) {
  CmpAttrs *c = ctx;
  in->cmp_dir = c->dir;
  in->cmp_type = c->type;
  in->attrs |= A_COMPARE;
}

static Literal *cmp(CmpDir d, CmpType ct, ElemType t, int n, const void *a, const void *b) {
  Literal *x[2] = {tl_from(t, n, a), tl_from(t, n, b)};
  CmpAttrs c = {d, ct};
  Literal *r = tm_eval_op(OP_COMPARE, T_PRED, 2, x, set_cmp, &c, NULL);
  literal_free(x[0]);
  literal_free(x[1]);
  return r;
}

/* Compares a result's bytes with the expectation, printing the element
 * values of both on a mismatch. */
static bool same_bytes(const Literal *r, ElemType t, int64_t n, const void *want) {
  if (!r) return false;
  if (r->type != t || r->nelems != n) {
    fprintf(stderr, "  got %s x %lld, want %s x %lld\n", type_name(r->type), (long long)r->nelems,
            type_name(t), (long long)n);
    return false;
  }
  size_t es = (size_t)type_bytes(t);
  bool ok = memcmp(r->data, want, (size_t)n * es) == 0;
  if (!ok)
    for (int64_t i = 0; i < n; i++) {
      uint64_t g = 0, w = 0;
      memcpy(&g, (const char *)r->data + i * es, es < 8 ? es : 8);
      memcpy(&w, (const char *)want + i * es, es < 8 ? es : 8);
      if (g != w) fprintf(stderr, "  [%lld] got 0x%llx want 0x%llx\n", (long long)i,
                          (unsigned long long)g, (unsigned long long)w);
    }
  return ok;
}

#define EXPECT(expr, T, ctype, ...)                                                 \
  do {                                                                              \
    Literal *got_ = (expr);                                                         \
    ctype want_[] = {__VA_ARGS__};                                                  \
    CHECK(same_bytes(got_, T, (int64_t)(sizeof want_ / sizeof want_[0]), want_));   \
    literal_free(got_);                                                             \
  } while (0)

static float f32_at(const Literal *r, int i) { return ((const float *)r->data)[i]; }
static double f64_at(const Literal *r, int i) { return ((const double *)r->data)[i]; }
static uint32_t f32_bits(float f) {
  uint32_t u;
  memcpy(&u, &f, 4);
  return u;
}
static float bits_f32(uint32_t u) {
  float f;
  memcpy(&f, &u, 4);
  return f;
}

/* ---- integer division and remainder ---- */

TEST(int_divide_edge_cases) {
  int32_t a[] = {7, -7, INT32_MIN, 7, -7, 0};
  int32_t b[] = {0, 2, -1, -2, 0, 5};
  EXPECT(bin(OP_DIVIDE, T_S32, T_S32, 6, a, b), T_S32, int32_t, -1, -3, INT32_MIN, -3, -1, 0);
  EXPECT(bin(OP_REMAINDER, T_S32, T_S32, 6, a, b), T_S32, int32_t, 7, -1, 0, 1, -7, 0);
  int64_t c[] = {INT64_MIN, INT64_MIN, 9};
  int64_t d[] = {-1, 0, 0};
  EXPECT(bin(OP_DIVIDE, T_S64, T_S64, 3, c, d), T_S64, int64_t, INT64_MIN, -1, -1);
  EXPECT(bin(OP_REMAINDER, T_S64, T_S64, 3, c, d), T_S64, int64_t, 0, INT64_MIN, 9);
  int8_t e[] = {-128, 100}, f[] = {-1, 0};
  EXPECT(bin(OP_DIVIDE, T_S8, T_S8, 2, e, f), T_S8, int8_t, -128, -1);
  uint32_t g[] = {7, 7, 0xFFFFFFFFu}, h[] = {0, 2, 0x80000000u};
  EXPECT(bin(OP_DIVIDE, T_U32, T_U32, 3, g, h), T_U32, uint32_t, 0xFFFFFFFFu, 3, 1);
  EXPECT(bin(OP_REMAINDER, T_U32, T_U32, 3, g, h), T_U32, uint32_t, 7, 1, 0x7FFFFFFFu);
  uint8_t i[] = {200}, j[] = {0};
  EXPECT(bin(OP_DIVIDE, T_U8, T_U8, 1, i, j), T_U8, uint8_t, 255);
}

TEST(int_wrapping_arithmetic) {
  int32_t a[] = {INT32_MAX, INT32_MIN, 65536}, b[] = {1, 1, 65536};
  EXPECT(bin(OP_ADD, T_S32, T_S32, 3, a, b), T_S32, int32_t, INT32_MIN, INT32_MIN + 1, 131072);
  EXPECT(bin(OP_SUBTRACT, T_S32, T_S32, 3, a, b), T_S32, int32_t, INT32_MAX - 1, INT32_MAX, 0);
  EXPECT(bin(OP_MULTIPLY, T_S32, T_S32, 3, a, b), T_S32, int32_t, INT32_MAX, INT32_MIN, 0);
  int8_t c[] = {127, -128}, d[] = {1, -1};
  EXPECT(bin(OP_ADD, T_S8, T_S8, 2, c, d), T_S8, int8_t, -128, 127);
  uint16_t e[] = {65535}, f[] = {2};
  EXPECT(bin(OP_ADD, T_U16, T_U16, 1, e, f), T_U16, uint16_t, 1);
  int32_t g[] = {INT32_MIN, -5, 5};
  EXPECT(un(OP_ABS, T_S32, T_S32, 3, g), T_S32, int32_t, INT32_MIN, 5, 5);
  EXPECT(un(OP_NEGATE, T_S32, T_S32, 3, g), T_S32, int32_t, INT32_MIN, 5, -5);
}

/* ---- shifts ---- */

TEST(shifts_by_width_or_more) {
  int32_t a[] = {1, 1, 1, -8, 8, -8, -8, -8};
  int32_t b[] = {32, 31, -1, 40, 40, 1, 28, 0};
  EXPECT(bin(OP_SHIFT_LEFT, T_S32, T_S32, 8, a, b), T_S32, int32_t, 0, INT32_MIN, 0, 0, 0, -16,
         (int32_t)0x80000000, -8);
  EXPECT(bin(OP_SHIFT_RIGHT_ARITHMETIC, T_S32, T_S32, 8, a, b), T_S32, int32_t, 0, 0, 0, -1, 0, -4,
         -1, -8);
  EXPECT(bin(OP_SHIFT_RIGHT_LOGICAL, T_S32, T_S32, 8, a, b), T_S32, int32_t, 0, 0, 0, 0, 0,
         0x7FFFFFFC, 15, -8);
  uint8_t c[] = {0x80, 0x80, 0xFF, 0x01}, d[] = {7, 7, 4, 8};
  EXPECT(bin(OP_SHIFT_RIGHT_LOGICAL, T_U8, T_U8, 4, c, d), T_U8, uint8_t, 1, 1, 0x0F, 0);
  /* Arithmetic shifts of unsigned types shift in the top bit. */
  EXPECT(bin(OP_SHIFT_RIGHT_ARITHMETIC, T_U8, T_U8, 4, c, d), T_U8, uint8_t, 0xFF, 0xFF, 0xFF, 0);
  EXPECT(bin(OP_SHIFT_LEFT, T_U8, T_U8, 4, c, d), T_U8, uint8_t, 0, 0, 0xF0, 0);
  int64_t e[] = {1, -1}, f[] = {63, 64};
  EXPECT(bin(OP_SHIFT_LEFT, T_S64, T_S64, 2, e, f), T_S64, int64_t, INT64_MIN, 0);
  EXPECT(bin(OP_SHIFT_RIGHT_ARITHMETIC, T_S64, T_S64, 2, e, f), T_S64, int64_t, 0, -1);
}

/* ---- bit counting, sign, not ---- */

TEST(popcnt_clz_sign_not) {
  int32_t a[] = {-1, 0, 1, 0x00F0F000};
  EXPECT(un(OP_POPCNT, T_S32, T_S32, 4, a), T_S32, int32_t, 32, 0, 1, 8);
  EXPECT(un(OP_CLZ, T_S32, T_S32, 4, a), T_S32, int32_t, 0, 32, 31, 8);
  EXPECT(un(OP_NOT, T_S32, T_S32, 4, a), T_S32, int32_t, 0, -1, -2, (int32_t)0xFF0F0FFF);
  int8_t b[] = {-1, 1, 0};
  EXPECT(un(OP_POPCNT, T_S8, T_S8, 3, b), T_S8, int8_t, 8, 1, 0);
  EXPECT(un(OP_CLZ, T_S8, T_S8, 3, b), T_S8, int8_t, 0, 7, 8);
  uint64_t c[] = {1, 0};
  EXPECT(un(OP_CLZ, T_U64, T_U64, 2, c), T_U64, uint64_t, 63, 64);
  int32_t d[] = {-3, 0, 7};
  EXPECT(un(OP_SIGN, T_S32, T_S32, 3, d), T_S32, int32_t, -1, 0, 1);
  uint32_t e[] = {0, 5};
  EXPECT(un(OP_SIGN, T_U32, T_U32, 2, e), T_U32, uint32_t, 0, 1);
  unsigned char p[] = {0, 1};
  EXPECT(un(OP_NOT, T_PRED, T_PRED, 2, p), T_PRED, unsigned char, 1, 0);
}

/* ---- integer power ---- */

TEST(integer_power) {
  int32_t a[] = {2, 0, 3, 1, -1, -1, 2, 0, -2, 5};
  int32_t b[] = {10, 0, -1, -5, -1, 3, 31, 5, 3, 0};
  /* (-1)^-1 is 0: XLA tests only base == 1 for negative exponents. */
  EXPECT(bin(OP_POWER, T_S32, T_S32, 10, a, b), T_S32, int32_t, 1024, 1, 0, 1, 0, -1, INT32_MIN,
         0, -8, 1);
  uint8_t c[] = {2, 3}, d[] = {8, 5};
  EXPECT(bin(OP_POWER, T_U8, T_U8, 2, c, d), T_U8, uint8_t, 0, 243);
}

/* ---- pred arithmetic ---- */

TEST(pred_ops) {
  unsigned char a[] = {0, 0, 1, 1}, b[] = {0, 1, 0, 1};
  EXPECT(bin(OP_AND, T_PRED, T_PRED, 4, a, b), T_PRED, unsigned char, 0, 0, 0, 1);
  EXPECT(bin(OP_OR, T_PRED, T_PRED, 4, a, b), T_PRED, unsigned char, 0, 1, 1, 1);
  EXPECT(bin(OP_XOR, T_PRED, T_PRED, 4, a, b), T_PRED, unsigned char, 0, 1, 1, 0);
  EXPECT(bin(OP_ADD, T_PRED, T_PRED, 4, a, b), T_PRED, unsigned char, 0, 1, 1, 1);
  EXPECT(bin(OP_MULTIPLY, T_PRED, T_PRED, 4, a, b), T_PRED, unsigned char, 0, 0, 0, 1);
  EXPECT(bin(OP_MAXIMUM, T_PRED, T_PRED, 4, a, b), T_PRED, unsigned char, 0, 1, 1, 1);
  EXPECT(bin(OP_MINIMUM, T_PRED, T_PRED, 4, a, b), T_PRED, unsigned char, 0, 0, 0, 1);
  int32_t c[] = {12}, d[] = {10};
  EXPECT(bin(OP_AND, T_S32, T_S32, 1, c, d), T_S32, int32_t, 8);
  EXPECT(bin(OP_OR, T_S32, T_S32, 1, c, d), T_S32, int32_t, 14);
  EXPECT(bin(OP_XOR, T_S32, T_S32, 1, c, d), T_S32, int32_t, 6);
}

/* ---- float max/min/sign/round ---- */

TEST(float_max_min_nan_and_zero) {
  float a[] = {NAN, 1, NAN, -0.0f, 0.0f, 2, -INFINITY};
  float b[] = {1, NAN, NAN, 0.0f, -0.0f, 3, 5};
  Literal *mx = bin(OP_MAXIMUM, T_F32, T_F32, 7, a, b);
  Literal *mn = bin(OP_MINIMUM, T_F32, T_F32, 7, a, b);
  CHECK(mx && mn);
  if (mx && mn) {
    CHECK(isnan(f32_at(mx, 0)) && isnan(f32_at(mx, 1)) && isnan(f32_at(mx, 2)));
    CHECK(isnan(f32_at(mn, 0)) && isnan(f32_at(mn, 1)) && isnan(f32_at(mn, 2)));
    CHECK(f32_bits(f32_at(mx, 3)) == 0 && f32_bits(f32_at(mx, 4)) == 0); /* +0 */
    CHECK(f32_bits(f32_at(mn, 3)) == 0x80000000u && f32_bits(f32_at(mn, 4)) == 0x80000000u);
    CHECK(f32_at(mx, 5) == 3 && f32_at(mn, 5) == 2 && f32_at(mx, 6) == 5 &&
          f32_at(mn, 6) == -INFINITY);
  }
  literal_free(mx);
  literal_free(mn);
  int32_t c[] = {-1}, d[] = {1};
  EXPECT(bin(OP_MAXIMUM, T_S32, T_S32, 1, c, d), T_S32, int32_t, 1);
  uint32_t e[] = {0xFFFFFFFFu}, f[] = {1};
  EXPECT(bin(OP_MAXIMUM, T_U32, T_U32, 1, e, f), T_U32, uint32_t, 0xFFFFFFFFu);
  EXPECT(bin(OP_MINIMUM, T_U32, T_U32, 1, e, f), T_U32, uint32_t, 1);
  /* The NaN result is the NaN operand bit for bit (XLA:CPU selects it):
   * a signalling NaN 0x7f800001 and a negative NaN payload 0xffc00123 come
   * back unchanged, not quietened or re-signed. */
  uint32_t sn[] = {0x7f800001u, 0x3f800000u}, nn[] = {0x3f800000u, 0xffc00123u};
  Literal *m2 = bin(OP_MAXIMUM, T_F32, T_F32, 2, sn, nn);
  Literal *n2 = bin(OP_MINIMUM, T_F32, T_F32, 2, sn, nn);
  CHECK(m2 && n2);
  if (m2 && n2) {
    const uint32_t *mb = m2->data, *nb = n2->data;
    CHECK(mb[0] == 0x7f800001u && mb[1] == 0xffc00123u);
    CHECK(nb[0] == 0x7f800001u && nb[1] == 0xffc00123u);
  }
  literal_free(m2);
  literal_free(n2);
}

TEST(float_sign_and_rounding) {
  float a[] = {NAN, -0.0f, 0.0f, -3, 5, -INFINITY};
  Literal *s = un(OP_SIGN, T_F32, T_F32, 6, a);
  CHECK(s);
  if (s) {
    CHECK(isnan(f32_at(s, 0)));
    CHECK(f32_bits(f32_at(s, 1)) == 0x80000000u && f32_bits(f32_at(s, 2)) == 0);
    CHECK(f32_at(s, 3) == -1 && f32_at(s, 4) == 1 && f32_at(s, 5) == -1);
  }
  literal_free(s);
  float r[] = {2.5f, 3.5f, -2.5f, 0.5f, -0.5f, 1.4f};
  EXPECT(un(OP_ROUND_NEAREST_EVEN, T_F32, T_F32, 6, r), T_F32, float, 2, 4, -2, 0, -0.0f, 1);
  EXPECT(un(OP_ROUND_NEAREST_AFZ, T_F32, T_F32, 6, r), T_F32, float, 3, 4, -3, 1, -1, 1);
  float c[] = {1.5f, -1.5f};
  EXPECT(un(OP_CEIL, T_F32, T_F32, 2, c), T_F32, float, 2, -1);
  EXPECT(un(OP_FLOOR, T_F32, T_F32, 2, c), T_F32, float, 1, -2);
  EXPECT(un(OP_ABS, T_F32, T_F32, 2, c), T_F32, float, 1.5f, 1.5f);
  EXPECT(un(OP_NEGATE, T_F32, T_F32, 2, c), T_F32, float, -1.5f, 1.5f);
}

/* ---- float arithmetic rounding ---- */

TEST(float_arithmetic_is_correctly_rounded) {
  /* f32: 1 + 2^-24 is a tie (to even: 1); 1 + (2^-24 + 2^-30) is above. */
  float a[] = {1, 1, 1, 3};
  float b[] = {0x1p-24f, 0x1p-24f + 0x1p-30f, 3, 0.1f};
  EXPECT(bin(OP_ADD, T_F32, T_F32, 4, a, b), T_F32, float, 1, 1 + 0x1p-23f, 4, 3 + 0.1f);
  EXPECT(bin(OP_DIVIDE, T_F32, T_F32, 4, a, b), T_F32, float, 0x1p24f, 1 / (0x1p-24f + 0x1p-30f),
         1.0f / 3.0f, 3 / 0.1f);
  float s[] = {2, 0.01f};
  EXPECT(un(OP_SQRT, T_F32, T_F32, 2, s), T_F32, float, sqrtf(2), sqrtf(0.01f));
  double c[] = {0.1, 1e308}, d[] = {0.2, 10};
  EXPECT(bin(OP_ADD, T_F64, T_F64, 2, c, d), T_F64, double, 0.1 + 0.2, 1e308 + 10);
  EXPECT(bin(OP_MULTIPLY, T_F64, T_F64, 2, c, d), T_F64, double, 0.1 * 0.2, INFINITY);
}

TEST(bf16_and_f16_round_per_op) {
  /* bf16 has 8 significant bits: 1 + 2^-8 is a tie and rounds to 1; 1 +
   * 2^-7 + 2^-8 rounds to the even 1 + 2^-6. bf16 bits: 1.0 = 0x3F80. */
  uint16_t a[] = {0x3F80, 0x3F81}, b[] = {0x3B80 /* 2^-8 */, 0x3B80};
  EXPECT(bin(OP_ADD, T_BF16, T_BF16, 2, a, b), T_BF16, uint16_t, 0x3F80, 0x3F82);
  /* f16 at 2048 has ulp 2: 2048 + 1 ties to 2048, 2048 + 3 goes to 2052. */
  uint16_t c[] = {0x6800 /* 2048 */, 0x6800}, d[] = {0x3C00 /* 1 */, 0x4200 /* 3 */};
  EXPECT(bin(OP_ADD, T_F16, T_F16, 2, c, d), T_F16, uint16_t, 0x6800, 0x6802);
  /* f16 overflow: 60000 + 10000 = inf (0x7C00). */
  uint16_t e[] = {0x7B53 /* 60000 */}, f[] = {0x70E2 /* 10000 */};
  EXPECT(bin(OP_ADD, T_F16, T_F16, 1, e, f), T_F16, uint16_t, 0x7C00);
  EXPECT(un(OP_NEGATE, T_BF16, T_BF16, 2, a), T_BF16, uint16_t, 0xBF80, 0xBF81);
}

/* ---- compare ---- */

TEST(compare_float_nan_and_total_order) {
  float a[] = {NAN, NAN, -0.0f, 1, -INFINITY};
  float b[] = {NAN, 1, 0.0f, 1, 2};
  EXPECT(cmp(CMP_EQ, CMPT_DEFAULT, T_F32, 5, a, b), T_PRED, unsigned char, 0, 0, 1, 1, 0);
  EXPECT(cmp(CMP_NE, CMPT_DEFAULT, T_F32, 5, a, b), T_PRED, unsigned char, 1, 1, 0, 0, 1);
  EXPECT(cmp(CMP_LT, CMPT_FLOAT, T_F32, 5, a, b), T_PRED, unsigned char, 0, 0, 0, 0, 1);
  EXPECT(cmp(CMP_GE, CMPT_FLOAT, T_F32, 5, a, b), T_PRED, unsigned char, 0, 0, 1, 1, 0);
  /* Total order: -NaN < -Inf < -1 < -0 < +0 < 1 < +Inf < +NaN. */
  float c[] = {-0.0f, bits_f32(0xFFC00000u), INFINITY, -1, NAN, 0.0f};
  float d[] = {0.0f, -INFINITY, NAN, -0.0f, NAN, -0.0f};
  EXPECT(cmp(CMP_LT, CMPT_TOTALORDER, T_F32, 6, c, d), T_PRED, unsigned char, 1, 1, 1, 1, 0, 0);
  EXPECT(cmp(CMP_EQ, CMPT_TOTALORDER, T_F32, 6, c, d), T_PRED, unsigned char, 0, 0, 0, 0, 1, 0);
  double e[] = {-0.0}, f[] = {0.0};
  EXPECT(cmp(CMP_GT, CMPT_TOTALORDER, T_F64, 1, f, e), T_PRED, unsigned char, 1);
  /* bf16 total order on raw bits: -0 (0x8000) < +0. */
  uint16_t g[] = {0x8000, 0x3F80}, h[] = {0x0000, 0x3F80};
  EXPECT(cmp(CMP_LT, CMPT_TOTALORDER, T_BF16, 2, g, h), T_PRED, unsigned char, 1, 0);
  EXPECT(cmp(CMP_EQ, CMPT_DEFAULT, T_BF16, 2, g, h), T_PRED, unsigned char, 1, 1);
}

TEST(compare_signed_unsigned) {
  int32_t a[] = {-1, 5}, b[] = {1, 5};
  EXPECT(cmp(CMP_LT, CMPT_DEFAULT, T_S32, 2, a, b), T_PRED, unsigned char, 1, 0);
  EXPECT(cmp(CMP_LE, CMPT_DEFAULT, T_S32, 2, a, b), T_PRED, unsigned char, 1, 1);
  /* The same bits compared as unsigned: 0xFFFFFFFF > 1. */
  EXPECT(cmp(CMP_LT, CMPT_UNSIGNED, T_S32, 2, a, b), T_PRED, unsigned char, 0, 0);
  uint32_t c[] = {0xFFFFFFFFu}, d[] = {1};
  EXPECT(cmp(CMP_GT, CMPT_DEFAULT, T_U32, 1, c, d), T_PRED, unsigned char, 1);
  EXPECT(cmp(CMP_GT, CMPT_SIGNED, T_U32, 1, c, d), T_PRED, unsigned char, 0);
  unsigned char p[] = {0, 1}, q[] = {1, 1};
  EXPECT(cmp(CMP_LT, CMPT_DEFAULT, T_PRED, 2, p, q), T_PRED, unsigned char, 1, 0);
}

/* ---- convert ---- */

TEST(convert_float_to_int_saturates) {
  float a[] = {NAN, 3e9f, -3e9f, 2.9f, -2.9f, INFINITY, -INFINITY, -0.5f};
  EXPECT(un(OP_CONVERT, T_F32, T_S32, 8, a), T_S32, int32_t, 0, INT32_MAX, INT32_MIN, 2, -2,
         INT32_MAX, INT32_MIN, 0);
  float b[] = {-1.5f, NAN, 5e9f, 4294967040.0f};
  EXPECT(un(OP_CONVERT, T_F32, T_U32, 4, b), T_U32, uint32_t, 0, 0, 0xFFFFFFFFu, 4294967040u);
  float c[] = {300, -1, 127.9f, -200};
  EXPECT(un(OP_CONVERT, T_F32, T_U8, 4, c), T_U8, uint8_t, 255, 0, 127, 0);
  EXPECT(un(OP_CONVERT, T_F32, T_S8, 4, c), T_S8, int8_t, 127, -1, 127, -128);
  double d[] = {1e19, -1e19, 9.2233720368547758e18};
  EXPECT(un(OP_CONVERT, T_F64, T_S64, 3, d), T_S64, int64_t, INT64_MAX, INT64_MIN, INT64_MAX);
  EXPECT(un(OP_CONVERT, T_F64, T_U64, 3, d), T_U64, uint64_t, 10000000000000000000ull, 0,
         9223372036854775808ull);
}

TEST(convert_pred_and_bool) {
  float a[] = {NAN, 0.0f, -0.0f, 0.5f};
  EXPECT(un(OP_CONVERT, T_F32, T_PRED, 4, a), T_PRED, unsigned char, 1, 0, 0, 1);
  int32_t b[] = {2, 0, -1};
  EXPECT(un(OP_CONVERT, T_S32, T_PRED, 3, b), T_PRED, unsigned char, 1, 0, 1);
  unsigned char p[] = {1, 0};
  EXPECT(un(OP_CONVERT, T_PRED, T_F32, 2, p), T_F32, float, 1, 0);
  EXPECT(un(OP_CONVERT, T_PRED, T_S32, 2, p), T_S32, int32_t, 1, 0);
}

TEST(convert_int_to_float_rounds_once) {
  int32_t a[] = {16777217, 16777219, -16777217};
  EXPECT(un(OP_CONVERT, T_S32, T_F32, 3, a), T_F32, float, 16777216, 16777220, -16777216);
  int64_t b[] = {(1ll << 53) + 1, INT64_MIN};
  EXPECT(un(OP_CONVERT, T_S64, T_F64, 2, b), T_F64, double, 0x1p53, -0x1p63);
  uint64_t c[] = {UINT64_MAX};
  EXPECT(un(OP_CONVERT, T_U64, T_F32, 1, c), T_F32, float, 0x1p64f);
  /* 2^30 + 2^22 + 1 to bf16 (8 bits): above the tie, so up to 2^30 + 2^23
   * (0x4E81); rounding through f32 first would have given the tie and 2^30. */
  int32_t d[] = {(1 << 30) + (1 << 22) + 1, 257, 259};
  EXPECT(un(OP_CONVERT, T_S32, T_BF16, 3, d), T_BF16, uint16_t, 0x4E81, 0x4380, 0x4382);
  /* The same for s64 -> f32: 2^60 + 2^36 + 1 is above the f32 tie. */
  int64_t e[] = {(1ll << 60) + (1ll << 36) + 1};
  EXPECT(un(OP_CONVERT, T_S64, T_F32, 1, e), T_F32, float, 0x1p60f + 0x1p37f);
  /* ... and s64 -> bf16, where the round-to-odd step matters. */
  EXPECT(un(OP_CONVERT, T_S64, T_BF16, 1, e), T_BF16, uint16_t, 0x5D80);
  int64_t f[] = {(1ll << 60) + (1ll << 52) + 1};
  EXPECT(un(OP_CONVERT, T_S64, T_BF16, 1, f), T_BF16, uint16_t, 0x5D81);
}

TEST(convert_between_floats) {
  /* f32 -> bf16: 1 + 2^-8 ties to 1.0; 1 + 3*2^-8 ties to 1 + 2^-6. */
  float a[] = {1 + 0x1p-8f, 1 + 3 * 0x1p-8f, NAN, -INFINITY};
  Literal *r = un(OP_CONVERT, T_F32, T_BF16, 4, a);
  CHECK(r);
  if (r) {
    uint16_t *h = r->data;
    CHECK(h[0] == 0x3F80 && h[1] == 0x3F82 && (h[2] & 0x7F80) == 0x7F80 && (h[2] & 0x7F) != 0 &&
          h[3] == 0xFF80);
  }
  literal_free(r);
  /* f64 -> bf16 in one rounding: 1 + 2^-8 + 2^-40 is above the tie. */
  double b[] = {1 + 0x1p-8 + 0x1p-40};
  EXPECT(un(OP_CONVERT, T_F64, T_BF16, 1, b), T_BF16, uint16_t, 0x3F81);
  /* f32 -> f16: 65520 is the midpoint past the max 65504 -> inf; 1e-8 is
   * under half the smallest subnormal -> 0. */
  float c[] = {65520, 65504, 1e-8f, 1};
  EXPECT(un(OP_CONVERT, T_F32, T_F16, 4, c), T_F16, uint16_t, 0x7C00, 0x7BFF, 0x0000, 0x3C00);
  uint16_t d[] = {0x3C00, 0x0001};
  EXPECT(un(OP_CONVERT, T_F16, T_F32, 2, d), T_F32, float, 1, 0x1p-24f);
  double e[] = {0.1};
  EXPECT(un(OP_CONVERT, T_F64, T_F32, 1, e), T_F32, float, 0.1f);
  float f[] = {1, -2};
  EXPECT(un(OP_CONVERT, T_F32, T_F8E5M2, 2, f), T_F8E5M2, uint8_t, 0x3C, 0xC0);
  EXPECT(un(OP_CONVERT, T_F32, T_F8E4M3FN, 2, f), T_F8E4M3FN, uint8_t, 0x38, 0xC0);
}

TEST(convert_complex) {
  float a[] = {1.5f, -2};
  Literal *r = un(OP_CONVERT, T_F32, T_C64, 2, a);
  CHECK(r && r->type == T_C64);
  if (r) {
    float *z = r->data;
    CHECK(z[0] == 1.5f && z[1] == 0 && z[2] == -2 && z[3] == 0);
  }
  literal_free(r);
  float b[] = {1, 2}; /* c64 1+2i */
  Literal *c = un(OP_CONVERT, T_C64, T_C128, 1, b);
  CHECK(c && c->type == T_C128 && ((double *)c->data)[0] == 1 && ((double *)c->data)[1] == 2);
  literal_free(c);
}

/* ---- unary math ---- */

TEST(transcendentals) {
  float a[] = {0, 1, -27, 1e-10f};
  Literal *lg = un(OP_LOGISTIC, T_F32, T_F32, 4, a);
  Literal *cb = un(OP_CBRT, T_F32, T_F32, 4, a);
  Literal *em = un(OP_EXPM1, T_F32, T_F32, 4, a);
  Literal *lp = un(OP_LOG1P, T_F32, T_F32, 4, a);
  Literal *er = un(OP_ERF, T_F32, T_F32, 4, a);
  Literal *th = un(OP_TANH, T_F32, T_F32, 4, a);
  CHECK(lg && cb && em && lp && er && th);
  if (lg && cb && em && lp && er && th) {
    CHECK(f32_at(lg, 0) == 0.5f && fabsf(f32_at(lg, 1) - 0.7310586f) < 1e-7f);
    CHECK(f32_at(cb, 2) == -3 && f32_at(cb, 1) == 1);
    CHECK(fabsf(f32_at(em, 3) - 1e-10f) < 1e-16f && fabsf(f32_at(lp, 3) - 1e-10f) < 1e-16f);
    CHECK(f32_at(er, 0) == 0 && fabsf(f32_at(er, 1) - 0.8427008f) < 1e-7f);
    CHECK(f32_at(th, 2) == -1 && f32_at(th, 0) == 0);
  }
  literal_free(lg), literal_free(cb), literal_free(em), literal_free(lp), literal_free(er),
      literal_free(th);
  float y[] = {1, -1}, x[] = {1, -1};
  Literal *at = bin(OP_ATAN2, T_F32, T_F32, 2, y, x);
  CHECK(at && fabsf(f32_at(at, 0) - 0.78539816f) < 1e-7f &&
        fabsf(f32_at(at, 1) + 2.3561945f) < 1e-6f);
  literal_free(at);
  double t[] = {1};
  Literal *ac = un(OP_ACOS, T_F64, T_F64, 1, t), *as = un(OP_ASIN, T_F64, T_F64, 1, t);
  Literal *ach = un(OP_ACOSH, T_F64, T_F64, 1, t);
  CHECK(ac && as && ach && f64_at(ac, 0) == 0 && f64_at(as, 0) == M_PI / 2 && f64_at(ach, 0) == 0);
  literal_free(ac), literal_free(as), literal_free(ach);
  float fin[] = {INFINITY, NAN, 1, -FLT_MAX};
  EXPECT(un(OP_IS_FINITE, T_F32, T_PRED, 4, fin), T_PRED, unsigned char, 0, 0, 1, 1);
  float rs[] = {4, 0};
  EXPECT(un(OP_RSQRT, T_F32, T_F32, 2, rs), T_F32, float, 0.5f, INFINITY);
}

TEST(float_remainder_and_power) {
  float a[] = {5.5f, -5.5f, 1, 5.5f}, b[] = {2, 2, 0, -2};
  Literal *r = bin(OP_REMAINDER, T_F32, T_F32, 4, a, b);
  CHECK(r && f32_at(r, 0) == 1.5f && f32_at(r, 1) == -1.5f && isnan(f32_at(r, 2)) &&
        f32_at(r, 3) == 1.5f);
  literal_free(r);
  float c[] = {0, NAN, 1, 2, -8}, d[] = {0, 0, NAN, 10, 1.0f / 3};
  Literal *p = bin(OP_POWER, T_F32, T_F32, 5, c, d);
  CHECK(p && f32_at(p, 0) == 1 && f32_at(p, 1) == 1 && f32_at(p, 2) == 1 && f32_at(p, 3) == 1024 &&
        isnan(f32_at(p, 4)));
  literal_free(p);
}

/* ---- complex ---- */

TEST(complex_arithmetic) {
  float a[] = {1, 2, 1, 1, 3, 4}, b[] = {3, 4, 0, 0, 1, 0}; /* three c64 each */
  Literal *x[2] = {tl_from(T_C64, 3, a), tl_from(T_C64, 3, b)};
  Literal *m = tm_eval_op(OP_MULTIPLY, T_C64, 2, x, NULL, NULL, NULL);
  Literal *d = tm_eval_op(OP_DIVIDE, T_C64, 2, x, NULL, NULL, NULL);
  Literal *ab = tm_eval_op(OP_ABS, T_F32, 1, x, NULL, NULL, NULL);
  Literal *re = tm_eval_op(OP_REAL, T_F32, 1, x, NULL, NULL, NULL);
  Literal *im = tm_eval_op(OP_IMAG, T_F32, 1, x, NULL, NULL, NULL);
  CmpAttrs eq = {CMP_EQ, CMPT_DEFAULT}, ne = {CMP_NE, CMPT_DEFAULT};
  Literal *ce = tm_eval_op(OP_COMPARE, T_PRED, 2, x, set_cmp, &eq, NULL);
  Literal *cn = tm_eval_op(OP_COMPARE, T_PRED, 2, x, set_cmp, &ne, NULL);
  CHECK(m && d && ab && re && im && ce && cn);
  if (m && d && ab && re && im && ce && cn) {
    float *z = m->data, *q = d->data;
    CHECK(z[0] == -5 && z[1] == 10);          /* (1+2i)(3+4i) */
    CHECK(fabsf(q[0] - 0.44f) < 1e-7f && fabsf(q[1] - 0.08f) < 1e-7f); /* (1+2i)/(3+4i) */
    CHECK(isinf(q[2]) && isinf(q[3]) && q[2] > 0 && q[3] > 0); /* (1+i)/0 */
    CHECK(q[4] == 3 && q[5] == 4);
    CHECK(f32_at(ab, 0) == (float)sqrt(5.0) && f32_at(ab, 2) == 5);
    CHECK(f32_at(re, 2) == 3 && f32_at(im, 2) == 4);
    unsigned char *e = ce->data, *n = cn->data;
    CHECK(e[0] == 0 && e[2] == 0 && n[0] == 1 && n[1] == 1);
  }
  literal_free(m), literal_free(d), literal_free(ab), literal_free(re), literal_free(im);
  literal_free(ce), literal_free(cn);
  literal_free(x[0]), literal_free(x[1]);

  double c[] = {0, M_PI, -4, 0, 3, 4, 0, 0};
  Literal *y = tl_from(T_C128, 4, c);
  Literal *ex = tm_eval_op(OP_EXP, T_C128, 1, &y, NULL, NULL, NULL);
  Literal *sq = tm_eval_op(OP_SQRT, T_C128, 1, &y, NULL, NULL, NULL);
  Literal *sg = tm_eval_op(OP_SIGN, T_C128, 1, &y, NULL, NULL, NULL);
  CHECK(ex && sq && sg);
  if (ex && sq && sg) {
    double *e = ex->data, *s = sq->data, *g = sg->data;
    CHECK(fabs(e[0] + 1) < 1e-15 && fabs(e[1]) < 1e-15); /* e^(i pi) = -1 */
    CHECK(fabs(s[2]) < 1e-15 && s[3] == 2);              /* sqrt(-4) = 2i */
    CHECK(fabs(g[4] - 0.6) < 1e-15 && fabs(g[5] - 0.8) < 1e-15);
    CHECK(g[6] == 0 && g[7] == 0);
  }
  literal_free(ex), literal_free(sq), literal_free(sg), literal_free(y);

  /* complex(re, im) and power: 0^0 = 1, 2^3 = 8. */
  float r2[] = {0, 2}, i2[] = {0, 0};
  Literal *parts[2] = {tl_from(T_F32, 2, r2), tl_from(T_F32, 2, i2)};
  Literal *z = tm_eval_op(OP_COMPLEX, T_C64, 2, parts, NULL, NULL, NULL);
  CHECK(z);
  if (z) {
    float e3[] = {0, 0, 3, 0};
    Literal *pw[2] = {z, tl_from(T_C64, 2, e3)};
    Literal *p = tm_eval_op(OP_POWER, T_C64, 2, pw, NULL, NULL, NULL);
    CHECK(p);
    if (p) {
      float *v = p->data;
      CHECK(v[0] == 1 && v[1] == 0 && fabsf(v[2] - 8) < 1e-5f && fabsf(v[3]) < 1e-5f);
    }
    literal_free(p);
    literal_free(pw[1]);
  }
  literal_free(z), literal_free(parts[0]), literal_free(parts[1]);
}

/* ---- select and clamp ---- */

TEST(select_scalar_and_array_predicate) {
  float t[] = {1, 2, 3}, f[] = {-1, -2, -3};
  unsigned char p[] = {1, 0, 1};
  Literal *x[3] = {tl_from(T_PRED, 3, p), tl_from(T_F32, 3, t), tl_from(T_F32, 3, f)};
  EXPECT(tm_eval_op(OP_SELECT, T_F32, 3, x, NULL, NULL, NULL), T_F32, float, 1, -2, 3);
  literal_free(x[0]);
  x[0] = tl_pred(false);
  EXPECT(tm_eval_op(OP_SELECT, T_F32, 3, x, NULL, NULL, NULL), T_F32, float, -1, -2, -3);
  for (int i = 0; i < 3; i++) literal_free(x[i]);
}

TEST(clamp_scalar_and_array_bounds) {
  float v[] = {-5, 0.5f, 7, NAN};
  Literal *x[3] = {tl_f32(0), tl_from(T_F32, 4, v), tl_f32(1)};
  Literal *r = tm_eval_op(OP_CLAMP, T_F32, 3, x, NULL, NULL, NULL);
  CHECK(r && f32_at(r, 0) == 0 && f32_at(r, 1) == 0.5f && f32_at(r, 2) == 1 && isnan(f32_at(r, 3)));
  literal_free(r);
  for (int i = 0; i < 3; i++) literal_free(x[i]);
  int32_t lo[] = {0, 10}, val[] = {-3, 5}, hi[] = {2, 20};
  Literal *y[3] = {tl_from(T_S32, 2, lo), tl_from(T_S32, 2, val), tl_from(T_S32, 2, hi)};
  EXPECT(tm_eval_op(OP_CLAMP, T_S32, 3, y, NULL, NULL, NULL), T_S32, int32_t, 0, 10);
  for (int i = 0; i < 3; i++) literal_free(y[i]);
}

/* Complex clamp orders values by their real parts alone, as XLA:CPU's
 * compiled clamp does (jax 0.10.2, lax.clamp on complex64): max(lo, x)
 * keeps lo on a tie of real parts, min(m, hi) keeps m; a NaN real part
 * loses both comparisons (hi comes out); imaginary parts never decide.
 * lo = 1+5i, hi = 3-5i: x = 1+9i -> lo (tie, not lexicographic: that would
 * give x), 2+100i -> x, 3-9i -> x (tie with hi), 4-100i -> hi, 0 -> lo,
 * NaN -> hi. */
TEST(clamp_complex_by_real_parts) {
  float lo[2] = {1, 5}, hi[2] = {3, -5};
  float v[12] = {1, 9, 2, 100, 3, -9, 4, -100, 0, 0, NAN, NAN};
  Literal *x[3] = {tl_from(T_C64, -1, lo), tl_from(T_C64, 6, v), tl_from(T_C64, -1, hi)};
  Literal *r = tm_eval_op(OP_CLAMP, T_C64, 3, x, NULL, NULL, NULL);
  float want[12] = {1, 5, 2, 100, 3, -9, 3, -5, 1, 5, 3, -5};
  CHECK(r != NULL);
  if (r) CHECK(memcmp(r->data, want, sizeof want) == 0);
  literal_free(r);
  /* c128, array bounds, equal real parts everywhere: lo each time */
  double l2[4] = {0, 3, 0, 3}, v2[4] = {0, 2, 0, -7}, h2[4] = {0, 1, 0, 1};
  Literal *y[3] = {tl_from(T_C128, 2, l2), tl_from(T_C128, 2, v2), tl_from(T_C128, 2, h2)};
  r = tm_eval_op(OP_CLAMP, T_C128, 3, y, NULL, NULL, NULL);
  CHECK(r != NULL);
  if (r) CHECK(memcmp(r->data, l2, sizeof l2) == 0);
  literal_free(r);
  for (int i = 0; i < 3; i++) literal_free(x[i]), literal_free(y[i]);
}

/* ---- bitcast-convert ---- */

static Literal *bitcast(const Literal *a, ElemType rt, int rank, const int64_t *dims) {
  HloModule *m = tm_module();
  Computation *c = tm_comp(m, "main");
  Instr *p = tm_param(c, 0, shape_new(&m->arena, a->type, a->rank, a->dims));
  Instr *r = tm_op(c, OP_BITCAST_CONVERT, shape_new(&m->arena, rt, rank, dims), 1, p);
  tm_root(c, r);
  tm_entry(m, c);
  Literal *out = NULL;
  Literal *args[1] = {(Literal *)a};
  CHECK_OK(tm_run(m, args, 1, &out));
  module_destroy(m);
  return out;
}

TEST(bitcast_convert_same_and_different_widths) {
  float a[] = {1.0f, -2.0f};
  Literal *x = tl_from(T_F32, 2, a);
  int64_t d1[] = {2}, d2[] = {2, 4}, d3[] = {2, 2};
  EXPECT(bitcast(x, T_S32, 1, d1), T_S32, int32_t, 0x3F800000, (int32_t)0xC0000000);
  EXPECT(bitcast(x, T_U8, 2, d2), T_U8, uint8_t, 0, 0, 0x80, 0x3F, 0, 0, 0, 0xC0);
  EXPECT(bitcast(x, T_U16, 2, d3), T_U16, uint16_t, 0, 0x3F80, 0, 0xC000);
  literal_free(x);
  uint8_t b[] = {0, 0, 0x80, 0x3F};
  int64_t db[] = {1, 4}, dr[] = {1};
  Literal *y = tl_new(T_U8, 2, db);
  memcpy(y->data, b, 4);
  EXPECT(bitcast(y, T_F32, 1, dr), T_F32, float, 1.0f);
  literal_free(y);
  double c[] = {1.0};
  Literal *z = tl_from(T_F64, 1, c);
  int64_t dz[] = {1, 2};
  EXPECT(bitcast(z, T_S32, 2, dz), T_S32, int32_t, 0, 0x3FF00000);
  literal_free(z);
  /* Sub-byte: u8 0xAB -> u4[2] = {0xB, 0xA} (low nibble first); 0xF7 ->
   * s4[2] = {7, -1}. */
  uint8_t e[] = {0xAB, 0xF7};
  Literal *w = tl_from(T_U8, 2, e);
  int64_t dw[] = {2, 2};
  EXPECT(bitcast(w, T_U4, 2, dw), T_U4, uint8_t, 0xB, 0xA, 0x7, 0xF);
  EXPECT(bitcast(w, T_S4, 2, dw), T_S4, int8_t, -5, -6, 7, -1);
  literal_free(w);
  int8_t s4[] = {7, -1};
  int64_t ds[] = {1, 2};
  Literal *v = tl_new(T_S4, 2, ds);
  memcpy(v->data, s4, 2);
  int64_t one[] = {1};
  EXPECT(bitcast(v, T_U8, 1, one), T_U8, uint8_t, 0xF7);
  literal_free(v);
}

/* ---- reduce-precision ---- */

typedef struct RpBits {
  int e, m;
} RpBits;

static void set_rp(Instr *in, void *ctx) {
  RpBits *b = ctx;
  in->exponent_bits = b->e;
  in->mantissa_bits = b->m;
  in->attrs |= A_REDUCE_PRECISION;
}

static Literal *rp(ElemType t, int n, const void *v, int e, int m) {
  Literal *x = tl_from(t, n, v);
  RpBits b = {e, m};
  Literal *r = tm_eval_op(OP_REDUCE_PRECISION, t, 1, &x, set_rp, &b, NULL);
  literal_free(x);
  return r;
}

TEST(reduce_precision_f32) {
  /* (8,7) is bf16: ties to even. */
  float a[] = {1 + 0x1p-8f, 1 + 3 * 0x1p-8f, 1 + 0x1p-8f + 0x1p-20f, -0.0f};
  EXPECT(rp(T_F32, 4, a, 8, 7), T_F32, float, 1, 1 + 0x1p-6f, 1 + 0x1p-7f, -0.0f);
  /* (5,10) is f16: 65520 rounds up past the max to inf; f16 denormals flush
   * to zero (XLA's reduce-precision does not round them). */
  float b[] = {65520, 65504, 1e-5f, -1e-5f, 6.103515625e-05f};
  EXPECT(rp(T_F32, 5, b, 5, 10), T_F32, float, INFINITY, 65504, 0, -0.0f, 6.103515625e-05f);
  /* (2,1): bias 1, so exponents 2^0 and 2^1 survive; 1.25 ties to 1, 1.75
   * ties up to 2; 4 overflows; 0.5 underflows. */
  float c[] = {1.25f, 1.75f, 3, 4, 0.5f, -4};
  EXPECT(rp(T_F32, 6, c, 2, 1), T_F32, float, 1, 2, 3, INFINITY, 0, -INFINITY);
  /* NaN stays NaN, or becomes +inf with no mantissa bits. */
  float d[] = {NAN, -NAN};
  Literal *r = rp(T_F32, 2, d, 5, 10);
  CHECK(r && isnan(f32_at(r, 0)) && isnan(f32_at(r, 1)));
  literal_free(r);
  EXPECT(rp(T_F32, 2, d, 8, 0), T_F32, float, INFINITY, INFINITY);
}

TEST(reduce_precision_f64) {
  double a[] = {1 + 0x1p-21, 1 + 3 * 0x1p-21};
  EXPECT(rp(T_F64, 2, a, 11, 20), T_F64, double, 1, 1 + 0x1p-19);
  double b[] = {1e39, 1e-39, -1e39, 1.5};
  EXPECT(rp(T_F64, 4, b, 8, 23), T_F64, double, INFINITY, 0, -INFINITY, 1.5);
}

/* ---- stochastic-convert ---- */

TEST(stochastic_convert) {
  float a[] = {2.5f, 2.5f, -2.5f, NAN, 1e10f, 3};
  uint32_t r[] = {0, 0xFFFFFFFFu, 0, 0, 0, 0};
  Literal *x[2] = {tl_from(T_F32, 6, a), tl_from(T_U32, 6, r)};
  EXPECT(tm_eval_op(OP_STOCHASTIC_CONVERT, T_S32, 2, x, NULL, NULL, NULL), T_S32, int32_t, 3, 2,
         -3, 0, INT32_MAX, 3);
  literal_free(x[0]), literal_free(x[1]);
}

/* ---- map ---- */

static Literal *run_map(bool plain_add) {
  HloModule *m = tm_module();
  Computation *f = tm_comp(m, plain_add ? "add" : "sq_plus");
  Instr *p0 = tm_param(f, 0, tm_scalar(m, T_F32)), *p1 = tm_param(f, 1, tm_scalar(m, T_F32));
  if (plain_add) {
    tm_root(f, tm_op(f, OP_ADD, tm_scalar(m, T_F32), 2, p1, p0));
  } else { /* p0*p0 + p1 */
    Instr *sq = tm_op(f, OP_MULTIPLY, tm_scalar(m, T_F32), 2, p0, p0);
    tm_root(f, tm_op(f, OP_ADD, tm_scalar(m, T_F32), 2, sq, p1));
  }
  Computation *c = tm_comp(m, "main");
  Instr *a = tm_param(c, 0, tm_shape(m, T_F32, 1, 3)), *b = tm_param(c, 1, tm_shape(m, T_F32, 1, 3));
  Instr *mp = tm_op(c, OP_MAP, tm_shape(m, T_F32, 1, 3), 2, a, b);
  tm_calls(m, mp, 1, f);
  tm_root(c, mp);
  tm_entry(m, c);
  float va[] = {1, 2, 3}, vb[] = {10, 20, 30};
  Literal *args[2] = {tl_from(T_F32, 3, va), tl_from(T_F32, 3, vb)};
  Literal *out = NULL;
  CHECK_OK(tm_run(m, args, 2, &out));
  literal_free(args[0]), literal_free(args[1]);
  module_destroy(m);
  return out;
}

TEST(map_fast_and_general) {
  ScalarFn sf;
  {
    HloModule *m = tm_module();
    Computation *f = tm_comp(m, "max");
    Instr *p0 = tm_param(f, 0, tm_scalar(m, T_F32)), *p1 = tm_param(f, 1, tm_scalar(m, T_F32));
    tm_root(f, tm_op(f, OP_MAXIMUM, tm_scalar(m, T_F32), 2, p1, p0));
    sf = scalar_fn_of(f);
    CHECK(sf.op == OP_MAXIMUM && sf.swapped);
    module_destroy(m);
  }
  EXPECT(run_map(true), T_F32, float, 11, 22, 33);
  EXPECT(run_map(false), T_F32, float, 11, 24, 39);
}

/* ---- scalar helpers for other evaluators ---- */

TEST(scalar_helpers) {
  float a = 2, b = NAN, o = 0;
  CHECK(ew_scalar_binary(OP_ADD, T_F32, &a, &a, &o) && o == 4);
  CHECK(ew_scalar_binary(OP_MAXIMUM, T_F32, &a, &b, &o) && isnan(o));
  int32_t x = 7, y = 0, z = 0;
  CHECK(ew_scalar_binary(OP_DIVIDE, T_S32, &x, &y, &z) && z == -1);
  CHECK(ew_scalar_binary(OP_ADD, T_S32, &x, &x, &x) && x == 14); /* aliasing */
  CHECK(!ew_scalar_binary(OP_ATAN2, T_S32, &x, &y, &z));
  uint16_t h1 = 0x3F80, h2 = 0x3F80, h3 = 0;
  CHECK(ew_scalar_binary(OP_ADD, T_BF16, &h1, &h2, &h3) && h3 == 0x4000);
  float n0 = -0.0f, p0 = 0.0f;
  CHECK(ew_scalar_compare(CMP_LT, CMPT_TOTALORDER, T_F32, &n0, &p0));
  CHECK(!ew_scalar_compare(CMP_LT, CMPT_DEFAULT, T_F32, &n0, &p0));
  int32_t m1 = -1, one = 1;
  CHECK(ew_scalar_compare(CMP_LT, CMPT_DEFAULT, T_S32, &m1, &one));
}

/* ---- errors ---- */

TEST(type_and_shape_errors) {
  float a[] = {1, 2};
  int32_t b[] = {1, 2};
  Literal *x[2] = {tl_from(T_F32, 2, a), tl_from(T_S32, 2, b)};
  cxla_status s = NULL;
  Literal *r = tm_eval_op(OP_ADD, T_F32, 2, x, NULL, NULL, &s);
  CHECK(!r);
  CHECK(cxla_status_code_of(s) == CXLA_INVALID_ARGUMENT);
  CHECK_ERR(s, "add %add");
  literal_free(x[1]);
  float c[] = {1, 2, 3};
  x[1] = tl_from(T_F32, 3, c);
  r = tm_eval_op(OP_ADD, T_F32, 2, x, NULL, NULL, &s);
  CHECK(!r);
  CHECK_ERR(s, "operand 1 has shape f32[3] but the result is f32[2]");
  literal_free(x[0]), literal_free(x[1]);
  Literal *p = tl_pred(true);
  r = tm_eval_op(OP_NEGATE, T_PRED, 1, &p, NULL, NULL, &s);
  CHECK(!r);
  CHECK_ERR(s, "not defined on pred");
  literal_free(p);
}

/* ---- XLA:CPU's flush-to-zero / denormals-are-zero ---- */

TEST(subnormals_flush_like_xla_cpu) {
  float sub = 1e-40f; /* an f32 subnormal */
  float a[] = {sub, 1e-20f, -1e-20f, 1}, b[] = {0, 1e-20f, 1e-20f, sub};
  /* DAZ: the subnormal reads as 0; FTZ: the subnormal product becomes 0. */
  EXPECT(bin(OP_ADD, T_F32, T_F32, 4, a, b), T_F32, float, 0, 2e-20f, 0, 1);
  EXPECT(bin(OP_MULTIPLY, T_F32, T_F32, 4, a, b), T_F32, float, 0, 0, -0.0f, 0);
  EXPECT(cmp(CMP_NE, CMPT_DEFAULT, T_F32, 4, a, b), T_PRED, unsigned char, 0, 0, 1, 1);
  Literal *lg = un(OP_LOG, T_F32, T_F32, 1, &sub);
  CHECK(lg && f32_at(lg, 0) == -INFINITY);
  literal_free(lg);
  /* Bit operations keep subnormals. */
  float neg = -sub;
  EXPECT(un(OP_ABS, T_F32, T_F32, 1, &neg), T_F32, float, sub);
  EXPECT(un(OP_NEGATE, T_F32, T_F32, 1, &sub), T_F32, float, -sub);
  /* Conversions: f32 -> f64 and -> pred read it as 0; f64 -> f32 flushes
   * the result; f32 <-> bf16 are bit shifts and keep subnormals. */
  EXPECT(un(OP_CONVERT, T_F32, T_F64, 1, &sub), T_F64, double, 0);
  EXPECT(un(OP_CONVERT, T_F32, T_PRED, 1, &sub), T_PRED, unsigned char, 0);
  double d = 1e-40;
  EXPECT(un(OP_CONVERT, T_F64, T_F32, 1, &d), T_F32, float, 0);
  float bsub = bits_f32(0x00010000u); /* 2^-133, a bf16 subnormal */
  EXPECT(un(OP_CONVERT, T_F32, T_BF16, 1, &bsub), T_BF16, uint16_t, 0x0001);
  uint16_t h = 0x0001;
  EXPECT(un(OP_CONVERT, T_BF16, T_F32, 1, &h), T_F32, float, bsub);
  /* f64 flushes at its own limit. */
  double x[] = {1e-300, 1e-310}, y[] = {1e-10, 1};
  EXPECT(bin(OP_MULTIPLY, T_F64, T_F64, 2, x, y), T_F64, double, 0, 0);
  /* f16 subnormals are f32 normals: kept. */
  uint16_t f1[] = {0x0001}, f2[] = {0x0001};
  EXPECT(bin(OP_ADD, T_F16, T_F16, 1, f1, f2), T_F16, uint16_t, 0x0002);
}

/* ---- pow and atan2: the C library under FTZ/DAZ, as XLA:CPU calls it ----
 * Rows {x, y, pow(x, y), atan2(x, y)} as bit patterns, printed by jax 0.10.2
 * on CPU (jnp.power, jnp.arctan2 under jit) for inputs with a subnormal. */
static const uint32_t POW_ATAN2_F32[][4] = {
    /* pow(NaN, 2^-149) stays NaN; atan2(2^-149, 0) is pi/2 */
    {0x7fc00000u, 0x1u, 0x7fc00000u, 0x7fc00000u},
    {0x1u, 0x0u, 0x3f800000u, 0x3fc90fdbu},
    {0x0u, 0x1u, 0x0u, 0x0u},
    {0x0u, 0x80200000u, 0x7f800000u, 0x40490fdbu},
    {0x80000000u, 0x200000u, 0x0u, 0x80000000u},
    {0x1u, 0x80000000u, 0x3f800000u, 0x3fc90fdbu},
    {0x1u, 0x200000u, 0x3f800000u, 0x7fc00000u},
    {0x1u, 0x3f800000u, 0x0u, 0x1u},
    {0x1u, 0xc0000000u, 0x7f800000u, 0x40490fdbu},
    {0x1u, 0x7fc00000u, 0x7fc00000u, 0x7fc00000u},
    {0x1u, 0x1e3ce508u, 0x3f800000u, 0x0u},
    {0x1u, 0x3e99999au, 0x28ffffebu, 0x0u},
    {0x80000001u, 0x1u, 0xffc00000u, 0xffc00000u},
    {0x80000001u, 0x80200000u, 0xffc00000u, 0x7fc00000u},
    {0x80000001u, 0x40000000u, 0x0u, 0x80000000u},
    {0x80000001u, 0x40400000u, 0x80000000u, 0x80000000u},
    {0x80000001u, 0x7f800000u, 0x0u, 0x80000000u},
    {0x80000001u, 0xda24260u, 0xffc00000u, 0x80000000u},
    {0x200000u, 0x0u, 0x3f800000u, 0x3fc90fdbu},
    {0x200000u, 0x80000001u, 0x3f800000u, 0x7fc00000u},
    {0x200000u, 0x800000u, 0x3f800000u, 0x0u},
    {0x200000u, 0x3f000000u, 0x1a000000u, 0x0u},
    {0x200000u, 0xbf000000u, 0x65000000u, 0x40490fdbu},
    {0x200000u, 0xff800000u, 0x7f800000u, 0x40490fdbu},
    {0x200000u, 0x7149f2cau, 0x0u, 0x0u},
    {0x80200000u, 0x80000000u, 0x3f800000u, 0xbfc90fdbu},
    {0x80200000u, 0x200000u, 0xffc00000u, 0xffc00000u},
    {0x80200000u, 0x3f800000u, 0x80000000u, 0x80200000u},
    {0x80200000u, 0xc0000000u, 0x7f800000u, 0xc0490fdbu},
    {0x80200000u, 0x7fc00000u, 0x7fc00000u, 0x7fc00000u},
    {0x80200000u, 0x1e3ce508u, 0xffc00000u, 0x80000000u},
    {0x80200000u, 0x3e99999au, 0xffc00000u, 0x80000000u},
    {0x800000u, 0x200000u, 0x3f800000u, 0x3fc90fdbu},
    {0x3f800000u, 0x80000001u, 0x3f800000u, 0x3fc90fdau},
    {0x40000000u, 0x1u, 0x3f800000u, 0x3fc90fdbu},
    {0x40000000u, 0x80200000u, 0x3f800000u, 0x3fc90fdau},
    {0x3f000000u, 0x200000u, 0x3f800000u, 0x3fc90fdbu},
    {0xc0000000u, 0x80000001u, 0xffc00000u, 0xbfc90fdau},
    {0x40400000u, 0x1u, 0x3f800000u, 0x3fc90fdbu},
    {0x40400000u, 0x80200000u, 0x3f800000u, 0x3fc90fdau},
    {0xbf000000u, 0x200000u, 0xffc00000u, 0xbfc90fdbu},
    {0x7fc00000u, 0x80000001u, 0x7fc00000u, 0x7fc00000u},
    {0x7f800000u, 0x1u, 0x7f800000u, 0x3fc90fdbu},
    {0x7f800000u, 0x80200000u, 0x0u, 0x3fc90fdbu},
    {0xff800000u, 0x200000u, 0x7f800000u, 0xbfc90fdbu},
    {0x1e3ce508u, 0x80000001u, 0x3f800000u, 0x3fc90fdau},
    {0xda24260u, 0x1u, 0x3f800000u, 0x3fc90fdbu},
    {0xda24260u, 0x80200000u, 0x3f800000u, 0x3fc90fdau},
    {0x7149f2cau, 0x200000u, 0x3f800000u, 0x3fc90fdbu},
    {0x3e99999au, 0x80000001u, 0x3f800000u, 0x3fc90fdau}};
static const uint64_t POW_ATAN2_F64[][4] = {
    {0x7ff8000000000000ull, 0x1ull, 0x7ff8000000000000ull, 0x7ff8000000000000ull},
    {0x1ull, 0x0ull, 0x3ff0000000000000ull, 0x3ff921fb54442d18ull},
    {0x0ull, 0x1ull, 0x0ull, 0x0ull},
    {0x0ull, 0x8004000000000000ull, 0x7ff0000000000000ull, 0x400921fb54442d18ull},
    {0x8000000000000000ull, 0x4000000000000ull, 0x0ull, 0x8000000000000000ull},
    {0x1ull, 0x8000000000000000ull, 0x3ff0000000000000ull, 0x3ff921fb54442d18ull},
    {0x1ull, 0x4000000000000ull, 0x3ff0000000000000ull, 0x3ff921fb54442d18ull},
    {0x1ull, 0x3ff0000000000000ull, 0x0ull, 0x0ull},
    {0x1ull, 0xc000000000000000ull, 0x7ff0000000000000ull, 0xc00921fb54442d18ull},
    {0x1ull, 0x7ff8000000000000ull, 0x7ff8000000000000ull, 0x7ff8000000000000ull},
    {0x1ull, 0x1eb67e9c127b6e74ull, 0x3ff0000000000000ull, 0x0ull},
    {0x1ull, 0x3fd3333333333333ull, 0x2bc6a09e667f3c01ull, 0x0ull},
    {0x8000000000000001ull, 0x1ull, 0xfff8000000000000ull, 0xbff921fb54442d18ull},
    {0x8000000000000001ull, 0x8004000000000000ull, 0xfff8000000000000ull, 0xbff921fb54442d18ull},
    {0x8000000000000001ull, 0x4000000000000000ull, 0x0ull, 0x8000000000000000ull},
    {0x8000000000000001ull, 0x4008000000000000ull, 0x8000000000000000ull, 0x8000000000000000ull},
    {0x8000000000000001ull, 0x7ff0000000000000ull, 0x0ull, 0x8000000000000000ull},
    {0x8000000000000001ull, 0x39b4484bfeebc2a0ull, 0xfff8000000000000ull, 0x8000000000000000ull},
    {0x4000000000000ull, 0x0ull, 0x3ff0000000000000ull, 0x3ff921fb54442d18ull},
    {0x4000000000000ull, 0x8000000000000001ull, 0x3ff0000000000000ull, 0x3ff921fb54442d18ull},
    {0x4000000000000ull, 0x10000000000000ull, 0x3ff0000000000000ull, 0x0ull},
    {0x4000000000000ull, 0x3fe0000000000000ull, 0x1e56a09e667f3bcdull, 0x0ull},
    {0x4000000000000ull, 0xbfe0000000000000ull, 0x6186a09e667f3bcdull, 0xc00921fb54442d18ull},
    {0x4000000000000ull, 0xfff0000000000000ull, 0x7ff0000000000000ull, 0x400921fb54442d18ull},
    {0x4000000000000ull, 0x46293e5939a08ceaull, 0x0ull, 0x0ull},
    {0x8004000000000000ull, 0x8000000000000000ull, 0x3ff0000000000000ull, 0xbff921fb54442d18ull},
    {0x8004000000000000ull, 0x4000000000000ull, 0xfff8000000000000ull, 0xbff921fb54442d18ull},
    {0x8004000000000000ull, 0x3ff0000000000000ull, 0x8000000000000000ull, 0x8000000000000000ull},
    {0x8004000000000000ull, 0xc000000000000000ull, 0x7ff0000000000000ull, 0xc00921fb54442d18ull},
    {0x8004000000000000ull, 0x7ff8000000000000ull, 0x7ff8000000000000ull, 0x7ff8000000000000ull},
    {0x8004000000000000ull, 0x1eb67e9c127b6e74ull, 0xfff8000000000000ull, 0x8000000000000000ull},
    {0x8004000000000000ull, 0x3fd3333333333333ull, 0xfff8000000000000ull, 0x8000000000000000ull},
    {0x10000000000000ull, 0x4000000000000ull, 0x3ff0000000000000ull, 0x3ff921fb54442d18ull},
    {0x3ff0000000000000ull, 0x8000000000000001ull, 0x3ff0000000000000ull, 0x3ff921fb54442d18ull},
    {0x4000000000000000ull, 0x1ull, 0x3ff0000000000000ull, 0x3ff921fb54442d18ull},
    {0x4000000000000000ull, 0x8004000000000000ull, 0x3ff0000000000000ull, 0x3ff921fb54442d18ull},
    {0x3fe0000000000000ull, 0x4000000000000ull, 0x3ff0000000000000ull, 0x3ff921fb54442d18ull},
    {0xc000000000000000ull, 0x8000000000000001ull, 0xfff8000000000000ull, 0xbff921fb54442d18ull},
    {0x4008000000000000ull, 0x1ull, 0x3ff0000000000000ull, 0x3ff921fb54442d18ull},
    {0x4008000000000000ull, 0x8004000000000000ull, 0x3ff0000000000000ull, 0x3ff921fb54442d18ull},
    {0xbfe0000000000000ull, 0x4000000000000ull, 0xfff8000000000000ull, 0xbff921fb54442d18ull},
    {0x7ff8000000000000ull, 0x8000000000000001ull, 0x7ff8000000000000ull, 0x7ff8000000000000ull},
    {0x7ff0000000000000ull, 0x1ull, 0x7ff0000000000000ull, 0x3ff921fb54442d18ull},
    {0x7ff0000000000000ull, 0x8004000000000000ull, 0x0ull, 0x3ff921fb54442d18ull},
    {0xfff0000000000000ull, 0x4000000000000ull, 0x7ff0000000000000ull, 0xbff921fb54442d18ull},
    {0x1eb67e9c127b6e74ull, 0x8000000000000001ull, 0x3ff0000000000000ull, 0x3ff921fb54442d18ull},
    {0x39b4484bfeebc2a0ull, 0x1ull, 0x3ff0000000000000ull, 0x3ff921fb54442d18ull},
    {0x39b4484bfeebc2a0ull, 0x8004000000000000ull, 0x3ff0000000000000ull, 0x3ff921fb54442d18ull},
    {0x46293e5939a08ceaull, 0x4000000000000ull, 0x3ff0000000000000ull, 0x3ff921fb54442d18ull},
    {0x3fd3333333333333ull, 0x8000000000000001ull, 0x3ff0000000000000ull, 0x3ff921fb54442d18ull}};

TEST(pow_atan2_subnormals_like_xla_cpu) {
  enum { N4 = sizeof POW_ATAN2_F32 / sizeof POW_ATAN2_F32[0] };
  enum { N8 = sizeof POW_ATAN2_F64 / sizeof POW_ATAN2_F64[0] };
  uint32_t x4[N4], y4[N4], p4[N4], a4[N4];
  for (int i = 0; i < N4; i++)
    x4[i] = POW_ATAN2_F32[i][0], y4[i] = POW_ATAN2_F32[i][1], p4[i] = POW_ATAN2_F32[i][2],
    a4[i] = POW_ATAN2_F32[i][3];
  Literal *r = bin(OP_POWER, T_F32, T_F32, N4, x4, y4);
  CHECK(same_bytes(r, T_F32, N4, p4));
  literal_free(r);
  r = bin(OP_ATAN2, T_F32, T_F32, N4, x4, y4);
  CHECK(same_bytes(r, T_F32, N4, a4));
  literal_free(r);
  uint64_t x8[N8], y8[N8], p8[N8], a8[N8];
  for (int i = 0; i < N8; i++)
    x8[i] = POW_ATAN2_F64[i][0], y8[i] = POW_ATAN2_F64[i][1], p8[i] = POW_ATAN2_F64[i][2],
    a8[i] = POW_ATAN2_F64[i][3];
  r = bin(OP_POWER, T_F64, T_F64, N8, x8, y8);
  CHECK(same_bytes(r, T_F64, N8, p8));
  literal_free(r);
  r = bin(OP_ATAN2, T_F64, T_F64, N8, x8, y8);
  CHECK(same_bytes(r, T_F64, N8, a8));
  literal_free(r);
  /* The scalar entry point (constant folding) agrees. */
  uint32_t nan = 0x7fc00000u, tiny = 0x1u, out;
  CHECK(ew_scalar_binary(OP_POWER, T_F32, &nan, &tiny, &out) && out == 0x7fc00000u);
  /* bf16 computes in f32 and rounds back keeping subnormals: atan2(2^-133, 1)
   * is 2^-133 (jax: 9.184e-41 -> 9.184e-41). */
  uint16_t bx = 0x0001, by = 0x3f80;
  EXPECT(bin(OP_ATAN2, T_BF16, T_BF16, 1, &bx, &by), T_BF16, uint16_t, 0x0001);
  /* Other arithmetic keeps flushing: 2^-149 + 0 is 0. */
  uint32_t z = 0;
  EXPECT(bin(OP_ADD, T_F32, T_F32, 1, &tiny, &z), T_F32, uint32_t, 0);
}

/* bf16 -> pred: XLA:CPU compares the bf16 with zero on its bits, so a
 * subnormal is true (jax: bfloat16(1e-40).astype(bool) is True), while f32
 * and f64 subnormals read as zero (False). */
TEST(bf16_subnormal_to_pred) {
  uint16_t b[] = {0x0000, 0x0001, 0x8001, 0x006d, 0x8000, 0x7fc0};
  EXPECT(un(OP_CONVERT, T_BF16, T_PRED, 6, b), T_PRED, unsigned char, 0, 1, 1, 1, 0, 1);
  double d[] = {5e-324, 0};
  EXPECT(un(OP_CONVERT, T_F64, T_PRED, 2, d), T_PRED, unsigned char, 0, 0);
}

/* ---- a large array, to keep the kernels honest about speed ---- */

TEST(large_array) {
  int64_t n = 1 << 16;
  Literal *a = tl_new(T_F32, 1, &n), *b = tl_new(T_F32, 1, &n);
  float *x = a->data, *y = b->data;
  for (int64_t i = 0; i < n; i++) x[i] = (float)i, y[i] = 0.5f;
  Literal *ab[2] = {a, b};
  Literal *r = tm_eval_op(OP_MULTIPLY, T_F32, 2, ab, NULL, NULL, NULL);
  CHECK(r && f32_at(r, 65535) == 32767.5f);
  literal_free(r);
  Literal *e = tm_eval_op(OP_EXP, T_F32, 1, &b, NULL, NULL, NULL);
  CHECK(e && f32_at(e, 7) == (float)exp(0.5));
  literal_free(e), literal_free(a), literal_free(b);
}

int main(void) {
  RUN(int_divide_edge_cases);
  RUN(int_wrapping_arithmetic);
  RUN(shifts_by_width_or_more);
  RUN(popcnt_clz_sign_not);
  RUN(integer_power);
  RUN(pred_ops);
  RUN(float_max_min_nan_and_zero);
  RUN(float_sign_and_rounding);
  RUN(float_arithmetic_is_correctly_rounded);
  RUN(bf16_and_f16_round_per_op);
  RUN(compare_float_nan_and_total_order);
  RUN(compare_signed_unsigned);
  RUN(convert_float_to_int_saturates);
  RUN(convert_pred_and_bool);
  RUN(convert_int_to_float_rounds_once);
  RUN(convert_between_floats);
  RUN(convert_complex);
  RUN(transcendentals);
  RUN(float_remainder_and_power);
  RUN(complex_arithmetic);
  RUN(select_scalar_and_array_predicate);
  RUN(clamp_scalar_and_array_bounds);
  RUN(clamp_complex_by_real_parts);
  RUN(bitcast_convert_same_and_different_widths);
  RUN(reduce_precision_f32);
  RUN(reduce_precision_f64);
  RUN(stochastic_convert);
  RUN(map_fast_and_general);
  RUN(scalar_helpers);
  RUN(type_and_shape_errors);
  RUN(subnormals_flush_like_xla_cpu);
  RUN(pow_atan2_subnormals_like_xla_cpu);
  RUN(bf16_subnormal_to_pred);
  RUN(large_array);
  return test_summary("test_elementwise");
}
