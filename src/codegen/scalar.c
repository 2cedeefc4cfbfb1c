/* Scalar ops on values in storage form (cg_internal.h), with the
 * interpreter's semantics (src/interp/elementwise.c is the definition).
 * Common op/type pairs are emitted inline; the rest call the interpreter's
 * scalar evaluator through cxla_cg_rt_scalar. */
#include <math.h>
#include <string.h>

#include "codegen/cg_internal.h"
#include "interp/ew_scalar.h"

/* ---- types ---- */

LLVMTypeRef cg_storage_type(Codegen *cg, ElemType t) {
  switch (t) {
  case T_S16: case T_U16: case T_F16: case T_BF16: return cg->i16;
  case T_S32: case T_U32: return cg->i32;
  case T_S64: case T_U64: return cg->i64;
  case T_F32: return cg->f32;
  case T_F64: return cg->f64;
  case T_C64: return LLVMStructTypeInContext(cg->ctx, (LLVMTypeRef[]){cg->f32, cg->f32}, 2, 0);
  case T_C128: return LLVMStructTypeInContext(cg->ctx, (LLVMTypeRef[]){cg->f64, cg->f64}, 2, 0);
  default: return cg->i8; /* pred, 2/4/8-bit integers, f8/f4 bits */
  }
}

/* Float types computed inline: f32, f64, and f16/bf16 through f32. */
static bool native_float(ElemType t) {
  return t == T_F32 || t == T_F64 || t == T_F16 || t == T_BF16;
}
static bool is_int(ElemType t) { return type_is_int(t) || t == T_PRED; }
static bool is_signed(ElemType t) { return type_kind(t) == TK_SINT; }

static LLVMTypeRef work_type(Codegen *cg, ElemType t) { return t == T_F64 ? cg->f64 : cg->f32; }

/* Whether the constant element at bytes is one the kernels read as zero:
 * a subnormal of a type that flushes (ew_scalar.h: f32, f64, bf16; f16
 * and f8 ones widen to normal f32 values). */
static bool reads_as_zero(ElemType t, const void *bytes) {
  if (!ew_flushes(t) || type_is_complex(t)) return false;
  double d = ew_load_float(t, bytes, 0);
  return d != 0 && fabs(d) < ew_tiny(t);
}

/* A subnormal constant of f32, f64 or bf16 as the ops reading it get it:
 * behind an arithmetic fence, which nothing folds. The builder folds an op
 * on constant operands at once by IEEE rules, and LLVM's later folds of
 * most intrinsics (sqrt, ceil, fpext...) do too, where the kernel reads a
 * subnormal as zero (DAZ) like any other: sign(1e-45) is 1 there, 0 in the
 * kernel. Moves and bit operations keep its bits. */
static const char kFence[] = "llvm.arithmetic.fence";

static LLVMValueRef fenced(Em *e, LLVMValueRef c) { return em_intrinsic(e, kFence, LLVMTypeOf(c), 1, &c); }

/* The constant behind such a fence, or v. */
static LLVMValueRef unfenced(LLVMValueRef v) {
  if (!LLVMIsACallInst(v) || LLVMGetNumArgOperands(v) != 1) return v;
  LLVMValueRef f = LLVMGetCalledValue(v);
  if (!f || !LLVMIsAFunction(f) || LLVMGetIntrinsicID(f) != LLVMLookupIntrinsicID(kFence, sizeof kFence - 1))
    return v;
  LLVMValueRef c = LLVMGetOperand(v, 0);
  return LLVMIsAConstantFP(c) ? c : v;
}

/* storage -> working float */
static LLVMValueRef dec(Em *e, ElemType t, LLVMValueRef v) {
  Codegen *cg = e->cg;
  switch (t) {
  case T_F16: {
    LLVMValueRef h = LLVMBuildBitCast(e->b, v, LLVMHalfTypeInContext(cg->ctx), "");
    return LLVMBuildFPExt(e->b, h, cg->f32, "");
  }
  case T_BF16: {
    /* a constant subnormal (stored as bits, as em_const_elem leaves
     * bf16): fenced (above) */
    if (LLVMIsAConstantInt(v)) {
      uint16_t u = (uint16_t)LLVMConstIntGetZExtValue(v);
      if (reads_as_zero(T_BF16, &u))
        return fenced(e, LLVMBuildBitCast(e->b, LLVMConstInt(cg->i32, (uint64_t)u << 16, 0), cg->f32, ""));
    }
    LLVMValueRef w = LLVMBuildShl(e->b, LLVMBuildZExt(e->b, v, cg->i32, ""),
                                  LLVMConstInt(cg->i32, 16, 0), "");
    return LLVMBuildBitCast(e->b, w, cg->f32, "");
  }
  default: return v;
  }
}

/* working float (float or double) -> storage, rounding to t */
static LLVMValueRef enc(Em *e, ElemType t, LLVMValueRef w) {
  Codegen *cg = e->cg;
  LLVMTypeRef wt = LLVMTypeOf(w);
  if (t == T_F64) return wt == cg->f64 ? w : LLVMBuildFPExt(e->b, w, cg->f64, "");
  if (wt == cg->f64) w = LLVMBuildFPTrunc(e->b, w, cg->f32, "");
  switch (t) {
  case T_F16: {
    LLVMValueRef h = LLVMBuildFPTrunc(e->b, w, LLVMHalfTypeInContext(cg->ctx), "");
    return LLVMBuildBitCast(e->b, h, cg->i16, "");
  }
  case T_BF16: {
    LLVMValueRef u = LLVMBuildBitCast(e->b, w, cg->i32, "");
    LLVMValueRef hi = LLVMBuildLShr(e->b, u, LLVMConstInt(cg->i32, 16, 0), "");
    LLVMValueRef nan = LLVMBuildOr(e->b, hi, LLVMConstInt(cg->i32, 0x40, 0), "");
    LLVMValueRef lsb = LLVMBuildAnd(e->b, hi, LLVMConstInt(cg->i32, 1, 0), "");
    LLVMValueRef r = LLVMBuildAdd(e->b, u, LLVMBuildAdd(e->b, lsb, LLVMConstInt(cg->i32, 0x7fff, 0), ""), "");
    r = LLVMBuildLShr(e->b, r, LLVMConstInt(cg->i32, 16, 0), "");
    LLVMValueRef isnan = LLVMBuildFCmp(e->b, LLVMRealUNO, w, w, "");
    return LLVMBuildTrunc(e->b, LLVMBuildSelect(e->b, isnan, nan, r, ""), cg->i16, "");
  }
  default: return w;
  }
}

/* Re-normalizes an i8 holding a 2/4-bit integer (sign- or zero-extends). */
static LLVMValueRef renorm(Em *e, ElemType t, LLVMValueRef v) {
  Codegen *cg = e->cg;
  int bits = t == T_PRED ? 8 : type_bits(t);
  if (bits >= 8) return v;
  if (is_signed(t)) {
    LLVMValueRef sh = LLVMConstInt(cg->i8, (unsigned)(8 - bits), 0);
    return LLVMBuildAShr(e->b, LLVMBuildShl(e->b, v, sh, ""), sh, "");
  }
  return LLVMBuildAnd(e->b, v, LLVMConstInt(cg->i8, (1u << bits) - 1, 0), "");
}

LLVMValueRef em_zero(Em *e, ElemType t) { return LLVMConstNull(cg_storage_type(e->cg, t)); }

LLVMValueRef em_const_elem(Em *e, ElemType t, const void *bytes) {
  Codegen *cg = e->cg;
  LLVMTypeRef st = cg_storage_type(cg, t);
  if (t == T_F32 || t == T_F64) {
    LLVMValueRef v = t == T_F32 ? LLVMBuildBitCast(e->b, LLVMConstInt(cg->i32, *(const uint32_t *)bytes, 0), st, "")
                                : LLVMBuildBitCast(e->b, LLVMConstInt(cg->i64, *(const uint64_t *)bytes, 0), st, "");
    return reads_as_zero(t, bytes) ? fenced(e, v) : v; /* bf16 stays bits here: dec fences it */
  }
  if (type_is_complex(t)) {
    int w = t == T_C64 ? 4 : 8;
    ElemType pt = t == T_C64 ? T_F32 : T_F64;
    LLVMValueRef re = em_const_elem(e, pt, bytes), im = em_const_elem(e, pt, (const char *)bytes + w);
    LLVMValueRef v = LLVMGetUndef(st);
    v = LLVMBuildInsertValue(e->b, v, re, 0, "");
    return LLVMBuildInsertValue(e->b, v, im, 1, "");
  }
  uint64_t u = 0;
  memcpy(&u, bytes, (size_t)type_bytes(t));
  return LLVMConstInt(st, u, 0);
}

LLVMValueRef em_intrinsic(Em *e, const char *name, LLVMTypeRef t, int n, LLVMValueRef *args) {
  unsigned id = LLVMLookupIntrinsicID(name, strlen(name));
  LLVMTypeRef tys[2] = {t, t};
  int ntys = 1;
  if (!strncmp(name, "llvm.fptosi.sat", 15) || !strncmp(name, "llvm.fptoui.sat", 15)) {
    tys[1] = LLVMTypeOf(args[0]);
    ntys = 2;
  }
  LLVMValueRef f = LLVMGetIntrinsicDeclaration(e->cg->mod, id, tys, (size_t)ntys);
  LLVMTypeRef ft = LLVMIntrinsicGetType(e->cg->ctx, id, tys, (size_t)ntys);
  return LLVMBuildCall2(e->b, ft, f, args, (unsigned)n, "");
}

/* ---- the generic path ---- */

static LLVMValueRef fallback(Em *e, const Instr *in, const LLVMValueRef *ops) {
  Codegen *cg = e->cg;
  int n = in->noperands;
  LLVMValueRef arr = em_alloca(e, LLVMArrayType2(cg->ptr, (uint64_t)(n ? n : 1)));
  for (int k = 0; k < n; k++) {
    LLVMValueRef slot = em_alloca(e, cg_storage_type(cg, in->operands[k]->shape->type));
    LLVMBuildStore(e->b, ops[k], slot);
    LLVMValueRef gep = LLVMBuildGEP2(e->b, cg->ptr, arr, (LLVMValueRef[]){em_i64(e, k)}, 1, "");
    LLVMBuildStore(e->b, slot, gep);
  }
  LLVMTypeRef rt = cg_storage_type(cg, in->shape->type);
  LLVMValueRef out = em_alloca(e, rt);
  LLVMTypeRef ft = LLVMFunctionType(cg->vd, (LLVMTypeRef[]){cg->ptr, cg->ptr, cg->ptr}, 3, 0);
  LLVMValueRef f = LLVMGetNamedFunction(cg->mod, "cxla_cg_rt_scalar");
  if (!f) f = LLVMAddFunction(cg->mod, "cxla_cg_rt_scalar", ft);
  LLVMValueRef ip = LLVMConstIntToPtr(LLVMConstInt(cg->i64, (unsigned long long)(uintptr_t)in, 0), cg->ptr);
  LLVMBuildCall2(e->b, ft, f, (LLVMValueRef[]){ip, arr, out}, 3, "");
  return LLVMBuildLoad2(e->b, rt, out, "");
}

/* ---- floats ---- */

static LLVMValueRef fconst(Em *e, LLVMTypeRef t, double v) { return LLVMConstReal(t, v); }

/* max/min with the interpreter's rules, selecting storage values (so a NaN
 * operand comes back bit for bit). */
static LLVMValueRef fmaxmin(Em *e, bool is_max, ElemType t, LLVMValueRef sa, LLVMValueRef sb) {
  LLVMValueRef a = dec(e, t, sa), b = dec(e, t, sb);
  LLVMBuilderRef B = e->b;
  LLVMValueRef anan = LLVMBuildFCmp(B, LLVMRealUNO, a, a, "");
  LLVMValueRef bnan = LLVMBuildFCmp(B, LLVMRealUNO, b, b, "");
  LLVMValueRef eq = LLVMBuildFCmp(B, LLVMRealOEQ, a, b, "");
  LLVMTypeRef it = LLVMIntTypeInContext(e->cg->ctx, LLVMGetTypeKind(LLVMTypeOf(a)) == LLVMDoubleTypeKind ? 64 : 32);
  LLVMValueRef asign = LLVMBuildICmp(B, LLVMIntSLT, LLVMBuildBitCast(B, a, it, ""), LLVMConstNull(it), "");
  /* equal: max picks the non-negative zero, min the negative one */
  LLVMValueRef on_eq = is_max ? LLVMBuildSelect(B, asign, sb, sa, "") : LLVMBuildSelect(B, asign, sa, sb, "");
  LLVMValueRef gt = LLVMBuildFCmp(B, is_max ? LLVMRealOGT : LLVMRealOLT, a, b, "");
  LLVMValueRef r = LLVMBuildSelect(B, gt, sa, sb, "");
  r = LLVMBuildSelect(B, eq, on_eq, r, "");
  if (t != T_F16) {
    /* the chosen operand, read under DAZ: a subnormal is a signed zero */
    LLVMTypeRef wt = LLVMTypeOf(a);
    LLVMValueRef w = dec(e, t, r);
    LLVMValueRef aw = em_intrinsic(e, "llvm.fabs", wt, 1, &w);
    LLVMValueRef tiny = LLVMBuildFCmp(B, LLVMRealOLT, aw, fconst(e, wt, t == T_F64 ? 0x1p-1022 : 0x1p-126), "");
    LLVMValueRef z = em_intrinsic(e, "llvm.copysign", wt, 2, (LLVMValueRef[]){fconst(e, wt, 0.0), w});
    r = LLVMBuildSelect(B, tiny, enc(e, t, z), r, "");
  }
  r = LLVMBuildSelect(B, bnan, sb, r, "");
  return LLVMBuildSelect(B, anan, sa, r, "");
}

/* A unary float op computed in double through a math function (as the
 * interpreter does), rounded once to t. */
/* XLA:CPU's DAZ/FTZ for f64 values passed to and returned by C library
 * functions, which may compute with integer operations the modes do not
 * affect. (f32 and bf16 go through conversions that the modes flush.) */
static LLVMValueRef daz64(Em *e, LLVMValueRef x) {
  Codegen *cg = e->cg;
  LLVMValueRef ax = em_intrinsic(e, "llvm.fabs", cg->f64, 1, &x);
  LLVMValueRef tiny = LLVMBuildFCmp(e->b, LLVMRealOLT, ax, fconst(e, cg->f64, 0x1p-1022), "");
  LLVMValueRef z = em_intrinsic(e, "llvm.copysign", cg->f64, 2, (LLVMValueRef[]){fconst(e, cg->f64, 0.0), x});
  return LLVMBuildSelect(e->b, tiny, z, x, "");
}

/* The same for a working value (float or double). */
static LLVMValueRef dazw(Em *e, LLVMValueRef x) {
  LLVMTypeRef wt = LLVMTypeOf(x);
  bool d = LLVMGetTypeKind(wt) == LLVMDoubleTypeKind;
  LLVMValueRef ax = em_intrinsic(e, "llvm.fabs", wt, 1, &x);
  LLVMValueRef tiny = LLVMBuildFCmp(e->b, LLVMRealOLT, ax, fconst(e, wt, d ? 0x1p-1022 : 0x1p-126), "");
  LLVMValueRef z = em_intrinsic(e, "llvm.copysign", wt, 2, (LLVMValueRef[]){fconst(e, wt, 0.0), x});
  return LLVMBuildSelect(e->b, tiny, z, x, "");
}

/* A constant subnormal as the signed zero DAZ and FTZ make it. The
 * builder folds constant operands at once, by IEEE rules (-inf * 1e-45 is
 * -inf there, NaN in the kernel); the function's denormal mode (jit.c)
 * covers LLVM's later folds, not the builder's. */
static LLVMValueRef daz_const(Em *e, LLVMValueRef v) {
  /* a subnormal constant comes fenced (LLVM would fold x + 0 to x
   * through the fence): flushed here instead */
  v = unfenced(v);
  if (!LLVMIsAConstantFP(v)) return v;
  LLVMBool loses = 0;
  double d = LLVMConstRealGetDouble(v, &loses);
  bool dbl = LLVMTypeOf(v) == e->cg->f64;
  if (d == 0 || isnan(d) || fabs(d) >= (dbl ? 0x1p-1022 : 0x1p-126)) return v;
  return fconst(e, LLVMTypeOf(v), signbit(d) ? -0.0 : 0.0);
}

static LLVMValueRef via_double1(Em *e, ElemType t, Opcode op, const char *fname, LLVMValueRef sa) {
  LLVMValueRef x = dec(e, t, sa);
  if (t != T_F64) {
    LLVMValueRef r = em_vmath1_f32(e, op, x);
    if (r) return enc(e, t, r);
  }
  if (t != T_F64) x = LLVMBuildFPExt(e->b, x, e->cg->f64, "");
  else x = daz64(e, x);
  LLVMValueRef r = em_vmath1(e, op, t != T_F64, x);
  if (!r) r = em_math_call1(e, fname, x);
  if (t == T_F64) r = daz64(e, r);
  return enc(e, t, r);
}

static LLVMValueRef float_unary(Em *e, Opcode op, ElemType t, LLVMValueRef sa, bool *ok) {
  Codegen *cg = e->cg;
  LLVMTypeRef wt = work_type(cg, t);
  LLVMValueRef x;
  *ok = true;
  switch (op) {
  case OP_NEGATE: return enc(e, t, LLVMBuildFNeg(e->b, dec(e, t, sa), ""));
  case OP_ABS: x = dec(e, t, sa); return enc(e, t, em_intrinsic(e, "llvm.fabs", wt, 1, &x));
  case OP_SQRT: x = dec(e, t, sa); return enc(e, t, em_intrinsic(e, "llvm.sqrt", wt, 1, &x));
  case OP_FLOOR: x = dec(e, t, sa); return enc(e, t, em_intrinsic(e, "llvm.floor", wt, 1, &x));
  case OP_CEIL: x = dec(e, t, sa); return enc(e, t, em_intrinsic(e, "llvm.ceil", wt, 1, &x));
  case OP_ROUND_NEAREST_AFZ: x = dec(e, t, sa); return enc(e, t, em_intrinsic(e, "llvm.round", wt, 1, &x));
  case OP_ROUND_NEAREST_EVEN: x = dec(e, t, sa); return enc(e, t, em_intrinsic(e, "llvm.roundeven", wt, 1, &x));
  case OP_REAL: return sa;
  case OP_IMAG: return enc(e, t, fconst(e, wt, 0.0));
  case OP_SIGN: {
    x = dec(e, t, sa);
    LLVMValueRef one = fconst(e, wt, 1.0);
    LLVMValueRef s = em_intrinsic(e, "llvm.copysign", wt, 2, (LLVMValueRef[]){one, x});
    /* NaN stays; zero (subnormals read as zero, DAZ) gives a zero of x's
     * sign; others +-1 */
    LLVMValueRef z = em_intrinsic(e, "llvm.copysign", wt, 2, (LLVMValueRef[]){fconst(e, wt, 0.0), x});
    LLVMValueRef isnan = LLVMBuildFCmp(e->b, LLVMRealUNO, x, x, "");
    LLVMValueRef iszero = LLVMBuildFCmp(e->b, LLVMRealOEQ, x, fconst(e, wt, 0.0), "");
    LLVMValueRef r = LLVMBuildSelect(e->b, iszero, enc(e, t, z), enc(e, t, s), "");
    return LLVMBuildSelect(e->b, isnan, sa, r, "");
  }
  case OP_RSQRT: {
    x = dec(e, t, sa);
    if (t != T_F64) x = LLVMBuildFPExt(e->b, x, cg->f64, "");
    LLVMValueRef r = em_intrinsic(e, "llvm.sqrt", cg->f64, 1, &x);
    return enc(e, t, LLVMBuildFDiv(e->b, fconst(e, cg->f64, 1.0), r, ""));
  }
  case OP_LOGISTIC: {
    x = dec(e, t, sa);
    if (t != T_F64) return enc(e, t, em_vmath1_f32(e, OP_LOGISTIC, x));
    return enc(e, t, em_vmath1(e, OP_LOGISTIC, t != T_F64, x));
  }
  default: break;
  }
  const char *fname = cg_math_unary_name(op);
  if (fname) return via_double1(e, t, op, fname, sa);
  *ok = false;
  return NULL;
}

/* ---- pow and atan2: XLA:CPU's C library calls under FTZ/DAZ ----
 * XLA:CPU calls powf/pow and atan2f/atan2 (src/interp/elementwise.c) from
 * code running with FTZ and DAZ set. The library tests its arguments' bits
 * before it does arithmetic, so a subnormal argument is neither its value
 * nor zero there. Measured against XLA:CPU (glibc 2.36), and emitted here
 * with integer tests on the bits, which the modes do not touch:
 *   pow, f32 (and bf16 through it): a subnormal x acts as +-2^-150 (the
 *     library's normalization multiplies it by 2^23, which DAZ makes 0, and
 *     subtracts 23 from the exponent of 0); a subnormal y is nonzero in the
 *     library's special cases (pow(0, y) is 0 or inf, negative x gives NaN)
 *     and 0 in its arithmetic (positive x gives 1): +-2^-200 in double does
 *     both. The vector pow works in double, where both are normal.
 *   pow, f64: the library itself, on the raw arguments (kernels run in the
 *     same mode), and its result as it returns it.
 *   atan2f (fdlibm's): with y subnormal, x = 1 returns y itself, x = +-0
 *     gives +-pi/2 by y's sign, a subnormal x gives NaN (0/0; negative when
 *     y < 0 < x, from its final negation); everything else is atan2 of y
 *     and x read as zero.
 *   atan2 (IBM's): x == 0 is a float compare, true for subnormal x, so a
 *     subnormal or zero x with y nonzero and not NaN gives +-pi/2 by y's
 *     sign; with y subnormal and x negative and finite, |x| >= 2^-966 takes
 *     the quotient-underflow path, which tests y > 0 (false under DAZ) and
 *     gives -pi whatever y's sign; the rest is atan2 of DAZ'd arguments. */

/* The bits of a working value x (float or double) as an integer; with
 * `abs`, without the sign. */
static LLVMValueRef wbits(Em *e, LLVMValueRef x, bool abs) {
  bool d = LLVMTypeOf(x) == e->cg->f64;
  LLVMTypeRef it = d ? e->cg->i64 : e->cg->i32;
  LLVMValueRef v = LLVMBuildBitCast(e->b, x, it, "");
  return abs ? LLVMBuildAnd(e->b, v, LLVMConstInt(it, d ? 0x7fffffffffffffffull : 0x7fffffffu, 0), "") : v;
}

/* x is nonzero with a zero exponent field */
static LLVMValueRef is_subnormal(Em *e, LLVMValueRef x) {
  LLVMValueRef ab = wbits(e, x, true);
  LLVMTypeRef it = LLVMTypeOf(ab);
  bool d = it == e->cg->i64;
  /* ab - 1 < min normal - 1 (unsigned): 0 < ab < min normal */
  return LLVMBuildICmp(e->b, LLVMIntULT, LLVMBuildSub(e->b, ab, LLVMConstInt(it, 1, 0), ""),
                       LLVMConstInt(it, (d ? 0x0010000000000000ull : 0x00800000u) - 1, 0), "");
}

/* the bits of x equal those of c */
static LLVMValueRef bits_eq(Em *e, LLVMValueRef x, double c) {
  LLVMValueRef v = wbits(e, x, false);
  return LLVMBuildICmp(e->b, LLVMIntEQ, v, LLVMConstBitCast(fconst(e, LLVMTypeOf(x), c), LLVMTypeOf(v)), "");
}

static LLVMValueRef abs_bits_is_zero(Em *e, LLVMValueRef x) {
  LLVMValueRef ab = wbits(e, x, true);
  return LLVMBuildICmp(e->b, LLVMIntEQ, ab, LLVMConstNull(LLVMTypeOf(ab)), "");
}

static LLVMValueRef csign_w(Em *e, double mag, LLVMValueRef s) {
  LLVMTypeRef t = LLVMTypeOf(s);
  return em_intrinsic(e, "llvm.copysign", t, 2, (LLVMValueRef[]){fconst(e, t, mag), s});
}

static LLVMValueRef sign_set(Em *e, LLVMValueRef x) {
  LLVMValueRef v = wbits(e, x, false);
  return LLVMBuildICmp(e->b, LLVMIntSLT, v, LLVMConstNull(LLVMTypeOf(v)), "");
}

static LLVMValueRef libm_binary(Em *e, Opcode op, ElemType t, LLVMValueRef a, LLVMValueRef b) {
  Codegen *cg = e->cg;
  LLVMBuilderRef B = e->b;
  if (op == OP_POWER && t == T_F64) return em_math_call2(e, "pow", a, b);
  if (op == OP_POWER) {
    LLVMValueRef xs = is_subnormal(e, a), ys = is_subnormal(e, b);
    LLVMValueRef x = LLVMBuildFPExt(B, a, cg->f64, ""), y = LLVMBuildFPExt(B, b, cg->f64, "");
    x = LLVMBuildSelect(B, xs, csign_w(e, 0x1p-150, x), x, "");
    y = LLVMBuildSelect(B, ys, csign_w(e, 0x1p-200, y), y, "");
    LLVMValueRef p = em_vmath2(e, op, true, x, y); /* NaN operands: v_pow_f32 */
    LLVMValueRef one = fconst(e, cg->f64, 1.0);
    LLVMValueRef triv = LLVMBuildOr(B, LLVMBuildFCmp(B, LLVMRealOEQ, x, one, ""),
                                    LLVMBuildFCmp(B, LLVMRealOEQ, y, fconst(e, cg->f64, 0.0), ""), "");
    return enc(e, t, LLVMBuildSelect(B, triv, one, p, ""));
  }
  /* atan2(y, x): y is the first operand */
  LLVMValueRef y = a, x = b, ys = is_subnormal(e, y);
  if (t == T_F64) {
    LLVMValueRef yd = daz64(e, y), xd = daz64(e, x);
    LLVMValueRef r = daz64(e, em_vmath2(e, op, false, yd, xd)); /* NaN operands: v_atan2_f64 */
    LLVMValueRef x0 = LLVMBuildOr(B, is_subnormal(e, x), abs_bits_is_zero(e, x), "");
    r = LLVMBuildSelect(B, LLVMBuildAnd(B, ys, x0, ""), csign_w(e, 0x1.921fb54442d18p+0, y), r, "");
    LLVMValueRef ab = wbits(e, x, true);
    LLVMValueRef big = LLVMBuildICmp(B, LLVMIntUGE, ab, LLVMConstInt(cg->i64, 57ull << 52, 0), ""); /* 2^-966 */
    LLVMValueRef fin = LLVMBuildICmp(B, LLVMIntULT, ab, LLVMConstInt(cg->i64, 0x7ff0000000000000ull, 0), "");
    LLVMValueRef negpi = LLVMBuildAnd(B, LLVMBuildAnd(B, ys, sign_set(e, x), ""), LLVMBuildAnd(B, big, fin, ""), "");
    return LLVMBuildSelect(B, negpi, fconst(e, cg->f64, -0x1.921fb54442d18p+1), r, "");
  }
  LLVMValueRef xs = is_subnormal(e, x);
  LLVMValueRef yw = LLVMBuildFPExt(B, y, cg->f64, ""), xw = LLVMBuildFPExt(B, x, cg->f64, "");
  LLVMValueRef r = LLVMBuildFPTrunc(B, em_vmath2(e, op, true, yw, xw), cg->f32, ""); /* NaN: v_atan2_f32 */
  r = LLVMBuildSelect(B, LLVMBuildAnd(B, ys, bits_eq(e, x, 1.0), ""), y, r, "");
  r = LLVMBuildSelect(B, LLVMBuildAnd(B, ys, abs_bits_is_zero(e, x), ""), csign_w(e, 0x1.921fb6p+0, y), r, "");
  LLVMValueRef negnan = LLVMBuildAnd(B, sign_set(e, y), LLVMBuildNot(B, sign_set(e, x), ""), "");
  LLVMValueRef nan = LLVMBuildSelect(B, negnan, LLVMConstBitCast(LLVMConstInt(cg->i32, 0xffc00000u, 0), cg->f32),
                                     LLVMConstBitCast(LLVMConstInt(cg->i32, 0x7fc00000u, 0), cg->f32), "");
  r = LLVMBuildSelect(B, LLVMBuildAnd(B, ys, xs, ""), nan, r, "");
  return enc(e, t, r);
}

static LLVMValueRef float_binary(Em *e, Opcode op, ElemType t, LLVMValueRef sa, LLVMValueRef sb, bool *ok) {
  *ok = true;
  if (op == OP_MAXIMUM || op == OP_MINIMUM) return fmaxmin(e, op == OP_MAXIMUM, t, sa, sb);
  LLVMValueRef a = dec(e, t, sa), b = dec(e, t, sb);
  if (t != T_F16 && (op == OP_ADD || op == OP_SUBTRACT || op == OP_MULTIPLY || op == OP_DIVIDE)) {
    a = daz_const(e, a);
    b = daz_const(e, b);
  }
  switch (op) {
  case OP_ADD: return enc(e, t, daz_const(e, LLVMBuildFAdd(e->b, a, b, "")));
  case OP_SUBTRACT: return enc(e, t, daz_const(e, LLVMBuildFSub(e->b, a, b, "")));
  case OP_MULTIPLY: return enc(e, t, daz_const(e, LLVMBuildFMul(e->b, a, b, "")));
  case OP_DIVIDE: return enc(e, t, daz_const(e, LLVMBuildFDiv(e->b, a, b, "")));
  case OP_REMAINDER:
    /* frem is a C library call, which the FTZ/DAZ modes do not reach */
    if (t != T_F16) {
      a = dazw(e, a);
      b = dazw(e, b);
      return enc(e, t, dazw(e, LLVMBuildFRem(e->b, a, b, "")));
    }
    return enc(e, t, LLVMBuildFRem(e->b, a, b, ""));
  case OP_POWER: case OP_ATAN2: return libm_binary(e, op, t, a, b);
  default: break;
  }
  *ok = false;
  return NULL;
}

/* ---- integers ---- */

static LLVMValueRef int_unary(Em *e, Opcode op, ElemType t, LLVMValueRef a, bool *ok) {
  LLVMTypeRef ty = LLVMTypeOf(a);
  *ok = true;
  bool pred = t == T_PRED;
  switch (op) {
  case OP_NOT:
    if (pred) return LLVMBuildXor(e->b, a, LLVMConstInt(ty, 1, 0), "");
    return renorm(e, t, LLVMBuildNot(e->b, a, ""));
  case OP_NEGATE:
    if (pred) break;
    return renorm(e, t, LLVMBuildNeg(e->b, a, ""));
  case OP_ABS:
    if (pred || !is_signed(t)) return a;
    return renorm(e, t, LLVMBuildSelect(e->b, LLVMBuildICmp(e->b, LLVMIntSLT, a, LLVMConstNull(ty), ""),
                                        LLVMBuildNeg(e->b, a, ""), a, ""));
  case OP_SIGN:
    if (pred || !is_signed(t))
      return LLVMBuildZExt(e->b, LLVMBuildICmp(e->b, LLVMIntNE, a, LLVMConstNull(ty), ""), ty, "");
    {
      LLVMValueRef pos = LLVMBuildZExt(e->b, LLVMBuildICmp(e->b, LLVMIntSGT, a, LLVMConstNull(ty), ""), ty, "");
      LLVMValueRef neg = LLVMBuildZExt(e->b, LLVMBuildICmp(e->b, LLVMIntSLT, a, LLVMConstNull(ty), ""), ty, "");
      return LLVMBuildSub(e->b, pos, neg, "");
    }
  case OP_POPCNT:
    if (pred || type_bits(t) < 8) break;
    return em_intrinsic(e, "llvm.ctpop", ty, 1, &a);
  case OP_CLZ:
    if (pred || type_bits(t) < 8) break;
    return em_intrinsic(e, "llvm.ctlz", ty, 2, (LLVMValueRef[]){a, LLVMConstInt(e->cg->i1, 0, 0)});
  default: break;
  }
  *ok = false;
  return NULL;
}

static LLVMValueRef int_binary(Em *e, Opcode op, ElemType t, LLVMValueRef a, LLVMValueRef b, bool *ok) {
  LLVMBuilderRef B = e->b;
  LLVMTypeRef ty = LLVMTypeOf(a);
  bool sg = is_signed(t), pred = t == T_PRED;
  int bits = pred ? 1 : type_bits(t);
  *ok = true;
  switch (op) {
  case OP_AND: return LLVMBuildAnd(B, a, b, "");
  case OP_OR: return LLVMBuildOr(B, a, b, "");
  case OP_XOR: return LLVMBuildXor(B, a, b, "");
  case OP_MAXIMUM: case OP_MINIMUM: {
    LLVMIntPredicate p = op == OP_MAXIMUM ? (sg ? LLVMIntSGT : LLVMIntUGT) : (sg ? LLVMIntSLT : LLVMIntULT);
    return LLVMBuildSelect(B, LLVMBuildICmp(B, p, a, b, ""), a, b, "");
  }
  default: break;
  }
  if (pred) {
    *ok = false;
    return NULL;
  }
  switch (op) {
  case OP_ADD: return renorm(e, t, LLVMBuildAdd(B, a, b, ""));
  case OP_SUBTRACT: return renorm(e, t, LLVMBuildSub(B, a, b, ""));
  case OP_MULTIPLY: return renorm(e, t, LLVMBuildMul(B, a, b, ""));
  case OP_DIVIDE: case OP_REMAINDER: {
    LLVMValueRef zero = LLVMConstNull(ty), one = LLVMConstInt(ty, 1, 0), m1 = LLVMConstAllOnes(ty);
    LLVMValueRef bz = LLVMBuildICmp(B, LLVMIntEQ, b, zero, "");
    LLVMValueRef bm1 = sg ? LLVMBuildICmp(B, LLVMIntEQ, b, m1, "") : LLVMConstInt(e->cg->i1, 0, 0);
    LLVMValueRef safe = LLVMBuildSelect(B, LLVMBuildOr(B, bz, bm1, ""), one, b, "");
    if (op == OP_DIVIDE) {
      LLVMValueRef q = sg ? LLVMBuildSDiv(B, a, safe, "") : LLVMBuildUDiv(B, a, safe, "");
      q = LLVMBuildSelect(B, bm1, LLVMBuildNeg(B, a, ""), q, "");
      return renorm(e, t, LLVMBuildSelect(B, bz, m1, q, ""));
    }
    LLVMValueRef r = sg ? LLVMBuildSRem(B, a, safe, "") : LLVMBuildURem(B, a, safe, "");
    r = LLVMBuildSelect(B, bm1, zero, r, "");
    return LLVMBuildSelect(B, bz, a, r, "");
  }
  case OP_SHIFT_LEFT: case OP_SHIFT_RIGHT_LOGICAL: case OP_SHIFT_RIGHT_ARITHMETIC: {
    /* amounts are unsigned; past the width: 0, or the sign for arithmetic */
    LLVMValueRef amt = bits < 8 ? LLVMBuildAnd(B, b, LLVMConstInt(ty, (1u << bits) - 1, 0), "") : b;
    LLVMValueRef big = LLVMBuildICmp(B, LLVMIntUGE, amt, LLVMConstInt(ty, (unsigned)bits, 0), "");
    LLVMValueRef sa = LLVMBuildSelect(B, big, LLVMConstNull(ty), amt, "");
    if (op == OP_SHIFT_LEFT)
      return LLVMBuildSelect(B, big, LLVMConstNull(ty), renorm(e, t, LLVMBuildShl(B, a, sa, "")), "");
    if (op == OP_SHIFT_RIGHT_LOGICAL) {
      LLVMValueRef ua = bits < 8 ? LLVMBuildAnd(B, a, LLVMConstInt(ty, (1u << bits) - 1, 0), "") : a;
      return LLVMBuildSelect(B, big, LLVMConstNull(ty), renorm(e, t, LLVMBuildLShr(B, ua, sa, "")), "");
    }
    LLVMValueRef sx = a;
    if (bits < 8) sx = LLVMBuildAShr(B, LLVMBuildShl(B, a, LLVMConstInt(ty, 8u - bits, 0), ""), LLVMConstInt(ty, 8u - bits, 0), "");
    LLVMValueRef sat = LLVMBuildSelect(B, big, LLVMConstInt(ty, (unsigned)(bits < 8 ? 7 : bits - 1), 0), sa, "");
    return renorm(e, t, LLVMBuildAShr(B, sx, sat, ""));
  }
  default: break;
  }
  *ok = false;
  return NULL;
}

/* ---- compare ---- */

static CmpType default_cmp(ElemType t) {
  if (type_is_float(t) || type_is_complex(t)) return CMPT_FLOAT;
  return is_signed(t) ? CMPT_SIGNED : CMPT_UNSIGNED;
}

static LLVMValueRef total_order_key(Em *e, ElemType t, LLVMValueRef v) {
  Codegen *cg = e->cg;
  int w = type_bits(t);
  LLVMTypeRef it = LLVMIntTypeInContext(cg->ctx, (unsigned)w);
  LLVMValueRef i = LLVMBuildBitCast(e->b, v, it, "");
  LLVMValueRef s = LLVMBuildAShr(e->b, i, LLVMConstInt(it, (unsigned)w - 1, 0), "");
  s = LLVMBuildLShr(e->b, s, LLVMConstInt(it, 1, 0), "");
  return LLVMBuildXor(e->b, i, s, "");
}

static LLVMValueRef compare(Em *e, const Instr *in, ElemType t, LLVMValueRef a, LLVMValueRef b, bool *ok) {
  CmpType ct = in->cmp_type == CMPT_DEFAULT ? default_cmp(t) : in->cmp_type;
  if (ct == CMPT_TOTALORDER && !type_is_float(t)) ct = default_cmp(t);
  CmpDir d = in->cmp_dir;
  LLVMValueRef r = NULL;
  *ok = true;
  if (ct == CMPT_FLOAT && native_float(t)) {
    LLVMRealPredicate p = d == CMP_EQ ? LLVMRealOEQ : d == CMP_NE ? LLVMRealUNE : d == CMP_LT ? LLVMRealOLT
                        : d == CMP_LE ? LLVMRealOLE : d == CMP_GT ? LLVMRealOGT : LLVMRealOGE;
    r = LLVMBuildFCmp(e->b, p, dec(e, t, a), dec(e, t, b), "");
  } else if ((ct == CMPT_TOTALORDER && (native_float(t))) || ((ct == CMPT_SIGNED || ct == CMPT_UNSIGNED) && is_int(t))) {
    if (ct == CMPT_TOTALORDER) {
      a = total_order_key(e, t, a);
      b = total_order_key(e, t, b);
    }
    bool s = ct != CMPT_UNSIGNED;
    LLVMIntPredicate p = d == CMP_EQ ? LLVMIntEQ : d == CMP_NE ? LLVMIntNE : d == CMP_LT ? (s ? LLVMIntSLT : LLVMIntULT)
                       : d == CMP_LE ? (s ? LLVMIntSLE : LLVMIntULE) : d == CMP_GT ? (s ? LLVMIntSGT : LLVMIntUGT)
                       : (s ? LLVMIntSGE : LLVMIntUGE);
    r = LLVMBuildICmp(e->b, p, a, b, "");
  } else {
    *ok = false;
    return NULL;
  }
  return LLVMBuildZExt(e->b, r, e->cg->i8, "");
}

/* x (a float) to a w-bit integer, saturating, NaN to 0: llvm.fptosi.sat's
 * values, as compares, selects and a plain conversion of an argument
 * made to fit, which vectorize (LLVM expands the intrinsic lane by lane
 * on x86: f32[4096,4096] to s32 4.4 ms, against 1.0 ms to bf16). The
 * bounds are powers of two, exact in every float type. */
static LLVMValueRef sat_to_int(Em *e, LLVMValueRef x, bool sgn, unsigned w, LLVMTypeRef dt) {
  LLVMBuilderRef B = e->b;
  LLVMTypeRef ft = LLVMTypeOf(x);
  LLVMValueRef lo = LLVMConstReal(ft, sgn ? -ldexp(1, (int)w - 1) : 0);
  LLVMValueRef top = LLVMConstReal(ft, ldexp(1, sgn ? (int)w - 1 : (int)w)); /* the first value past the range */
  LLVMValueRef big = LLVMBuildFCmp(B, LLVMRealOGE, x, top, "");
  LLVMValueRef low = LLVMBuildFCmp(B, sgn ? LLVMRealOLT : LLVMRealOLE, x, lo, ""); /* unsigned: x <= 0 is 0 */
  LLVMValueRef out = LLVMBuildOr(B, LLVMBuildOr(B, big, low, ""), LLVMBuildFCmp(B, LLVMRealUNO, x, x, ""), "");
  LLVMValueRef safe = LLVMBuildSelect(B, out, LLVMConstNull(ft), x, "");
  LLVMValueRef r = sgn ? LLVMBuildFPToSI(B, safe, dt, "") : LLVMBuildFPToUI(B, safe, dt, "");
  unsigned long long maxv = sgn ? (w == 64 ? 0x7fffffffffffffffull : (1ull << (w - 1)) - 1)
                                : (w == 64 ? ~0ull : (1ull << w) - 1);
  unsigned long long minv = sgn ? (w == 64 ? 0x8000000000000000ull : ~0ull << (w - 1)) : 0;
  r = LLVMBuildSelect(B, low, LLVMConstInt(dt, minv, 0), r, "");
  return LLVMBuildSelect(B, big, LLVMConstInt(dt, maxv, 0), r, "");
}

/* ---- convert ---- */

LLVMValueRef em_to_i64(Em *e, ElemType t, LLVMValueRef v) {
  if (LLVMTypeOf(v) == e->cg->i64) return v;
  return is_signed(t) ? LLVMBuildSExt(e->b, v, e->cg->i64, "") : LLVMBuildZExt(e->b, v, e->cg->i64, "");
}

/* NULL if not emitted inline. */
static LLVMValueRef convert_inline(Em *e, ElemType from, ElemType to, LLVMValueRef v) {
  Codegen *cg = e->cg;
  LLVMBuilderRef B = e->b;
  if (from == to) return v;
  LLVMTypeRef dt = cg_storage_type(cg, to);
  if (is_int(from) && is_int(to)) {
    if (to == T_PRED) return LLVMBuildZExt(B, LLVMBuildICmp(B, LLVMIntNE, v, LLVMConstNull(LLVMTypeOf(v)), ""), dt, "");
    LLVMValueRef r = LLVMBuildIntCast2(B, v, dt, is_signed(from), "");
    return renorm(e, to, r);
  }
  if (is_int(from) && (to == T_F32 || to == T_F64)) {
    if (type_bits(from) < 8 && from != T_PRED) return NULL;
    return is_signed(from) ? LLVMBuildSIToFP(B, v, dt, "") : LLVMBuildUIToFP(B, v, dt, "");
  }
  if (is_int(from) && (to == T_F16 || to == T_BF16) && (from == T_PRED || (type_bits(from) >= 8 && type_bits(from) <= 16))) {
    /* exact in f32, so rounded once */
    LLVMValueRef f = is_signed(from) ? LLVMBuildSIToFP(B, v, cg->f32, "") : LLVMBuildUIToFP(B, v, cg->f32, "");
    return enc(e, to, f);
  }
  if (from == T_BF16 && to == T_PRED) {
    /* decided on the bits, as XLA:CPU does (the interpreter,
     * interp/elementwise.c): nonzero bits but the sign's are true, a
     * subnormal's too, constant or not */
    LLVMValueRef m = LLVMBuildAnd(B, v, LLVMConstInt(LLVMTypeOf(v), 0x7fff, 0), "");
    return LLVMBuildZExt(B, LLVMBuildICmp(B, LLVMIntNE, m, LLVMConstNull(LLVMTypeOf(v)), ""), dt, "");
  }
  if (native_float(from) && is_int(to)) {
    LLVMValueRef x = dec(e, from, v);
    if (to == T_PRED) return LLVMBuildZExt(B, LLVMBuildFCmp(B, LLVMRealUNE, x, LLVMConstNull(LLVMTypeOf(x)), ""), dt, "");
    if (type_bits(to) < 8) return NULL;
    return sat_to_int(e, x, is_signed(to), (unsigned)type_bits(to), dt);
  }
  if (native_float(from) && native_float(to)) {
    if (from == T_F64 && (to == T_F16 || to == T_BF16)) return NULL; /* would round twice */
    return enc(e, to, dec(e, from, v));
  }
  if (from == T_C64 && to == T_C128) {
    /* each part widened as f32 -> f64 is (exact; DAZ reads a subnormal
     * part as zero, as the convert op does) */
    LLVMValueRef re = LLVMBuildFPExt(B, LLVMBuildExtractValue(B, v, 0, ""), cg->f64, "");
    LLVMValueRef im = LLVMBuildFPExt(B, LLVMBuildExtractValue(B, v, 1, ""), cg->f64, "");
    return LLVMBuildInsertValue(B, LLVMBuildInsertValue(B, LLVMGetUndef(dt), re, 0, ""), im, 1, "");
  }
  return NULL;
}

LLVMValueRef em_convert(Em *e, ElemType from, ElemType to, LLVMValueRef v) {
  LLVMValueRef r = convert_inline(e, from, to, v);
  if (!r) em_fail(e, ERR(UNIMPLEMENTED, "cpu backend: no inline conversion from %s to %s",
                        type_name(from), type_name(to)));
  return r ? r : LLVMGetUndef(cg_storage_type(e->cg, to));
}

/* ---- complex ---- */

static LLVMValueRef cx_part(Em *e, LLVMValueRef z, unsigned i) { return LLVMBuildExtractValue(e->b, z, i, ""); }
static LLVMValueRef cx_make(Em *e, ElemType t, LLVMValueRef re, LLVMValueRef im) {
  LLVMValueRef v = LLVMGetUndef(cg_storage_type(e->cg, t));
  v = LLVMBuildInsertValue(e->b, v, re, 0, "");
  return LLVMBuildInsertValue(e->b, v, im, 1, "");
}

/* ---- arithmetic helpers for reductions and contractions ---- */

LLVMValueRef em_add(Em *e, ElemType t, LLVMValueRef a, LLVMValueRef b) {
  if (type_is_complex(t))
    return cx_make(e, t, LLVMBuildFAdd(e->b, cx_part(e, a, 0), cx_part(e, b, 0), ""),
                   LLVMBuildFAdd(e->b, cx_part(e, a, 1), cx_part(e, b, 1), ""));
  if (native_float(t)) return enc(e, t, LLVMBuildFAdd(e->b, dec(e, t, a), dec(e, t, b), ""));
  if (t == T_PRED) return LLVMBuildOr(e->b, a, b, "");
  if (is_int(t)) return renorm(e, t, LLVMBuildAdd(e->b, a, b, ""));
  em_fail(e, ERR(UNIMPLEMENTED, "cpu backend: no inline add on %s", type_name(t)));
  return a;
}

LLVMValueRef em_mul(Em *e, ElemType t, LLVMValueRef a, LLVMValueRef b) {
  if (type_is_complex(t)) {
    LLVMValueRef ar = cx_part(e, a, 0), ai = cx_part(e, a, 1), br = cx_part(e, b, 0), bi = cx_part(e, b, 1);
    LLVMValueRef re = LLVMBuildFSub(e->b, LLVMBuildFMul(e->b, ar, br, ""), LLVMBuildFMul(e->b, ai, bi, ""), "");
    LLVMValueRef im = LLVMBuildFAdd(e->b, LLVMBuildFMul(e->b, ar, bi, ""), LLVMBuildFMul(e->b, ai, br, ""), "");
    return cx_make(e, t, re, im);
  }
  if (native_float(t)) return enc(e, t, LLVMBuildFMul(e->b, dec(e, t, a), dec(e, t, b), ""));
  if (t == T_PRED) return LLVMBuildAnd(e->b, a, b, "");
  if (is_int(t)) return renorm(e, t, LLVMBuildMul(e->b, a, b, ""));
  em_fail(e, ERR(UNIMPLEMENTED, "cpu backend: no inline multiply on %s", type_name(t)));
  return a;
}

/* ---- the op ---- */

/* ---- division by a row's value ----
 * An f32 x / d whose divisor is the same along the innermost dim (a
 * broadcast of a value of leading dims: a row kernel's row sum) is, while
 * Em.div_lo is set, x * r with r = 1 / d (computed once per row where the
 * loop hoists it) and one correction: q = x * r, e = fma(-q, d, x) (exact),
 * q' = fma(e, r, q). With r the correctly rounded reciprocal, q within an
 * ulp of x / d, e exact and nothing subnormal or overflowing, q' is the
 * correctly rounded quotient (Markstein's theorem): x / d bit for bit.
 * That holds when 2^-63 <= |d| < 2^64 and 2^-62 <= |x| < 2^63 (the
 * quotient, the remainder and e * r then normal). The numerators' range
 * is folded into Em.div_lo/div_hi (fast_row_div_range): the caller
 * computes the chunk again with true divisions when any was out of it
 * (cg.c fast_div_chunk: the row's element pass, a chunk at a time; rows
 * too short to chunk divide as before). vdivps takes 5 cycles a vector;
 * this, 3 operations and the range: softmax_4096 on 1 thread 10%
 * faster. */
bool em_fast_div_applies(const Instr *in) {
  if (in->op != OP_DIVIDE || in->shape->type != T_F32 || in->noperands != 2) return false;
  const Instr *d = in->operands[1];
  if (d->op != OP_BROADCAST || d->shape->rank != in->shape->rank || d->operands[0]->shape->rank >= d->shape->rank)
    return false;
  for (int i = 0; i < d->dimensions.n; i++)
    if (d->dimensions.v[i] != i) return false;
  return true;
}

/* bits of |v| (f32) in [lo, hi] */
static LLVMValueRef abs_bits_in(Em *e, LLVMValueRef ab, uint32_t lo, uint32_t hi) {
  LLVMTypeRef i32 = e->cg->i32;
  return LLVMBuildICmp(e->b, LLVMIntULE, LLVMBuildSub(e->b, ab, LLVMConstInt(i32, lo, 0), ""), LLVMConstInt(i32, hi - lo, 0), "");
}

/* The fast division's parts: q = x r with r = 1 / d, its correction
 * q1 = q - e' r with e' = fma(q, d, -x) (-e rounded once: the same value
 * as q + e r), whether 2^-63 <= |d| < 2^64, and |x|'s bits. */
static void div_parts(Em *e, LLVMValueRef x, LLVMValueRef d, LLVMValueRef *q1, LLVMValueRef *d_ok,
                      LLVMValueRef *ax) {
  Codegen *cg = e->cg;
  LLVMBuilderRef B = e->b;
  LLVMTypeRef f32 = cg->f32;
  LLVMValueRef r = LLVMBuildFDiv(B, LLVMConstReal(f32, 1.0), d, "");
  LLVMValueRef q = LLVMBuildFMul(B, x, r, "");
  LLVMValueRef a1[3] = {q, d, LLVMBuildFNeg(B, x, "")};
  LLVMValueRef rem = em_intrinsic(e, "llvm.fma", f32, 3, a1);
  LLVMValueRef a2[3] = {LLVMBuildFNeg(B, rem, ""), r, q};
  *q1 = em_intrinsic(e, "llvm.fma", f32, 3, a2);
  LLVMValueRef absmask = LLVMConstInt(cg->i32, 0x7fffffff, 0);
  LLVMValueRef ad = LLVMBuildAnd(B, LLVMBuildBitCast(B, d, cg->i32, ""), absmask, "");
  *d_ok = abs_bits_in(e, ad, (127u - 63) << 23, ((127u + 64) << 23) - 1);
  *ax = LLVMBuildAnd(B, LLVMBuildBitCast(B, x, cg->i32, ""), absmask, "");
}

/* The fast division, for a chunk whose elements are all computed again
 * when any could not be exact (cg.c fast_div_chunk): q' = q - e' r
 * (div_parts). For x = +-0 and d > 0 that gives
 * x's own signed zero without a select (the exact zero e' rounds to +0,
 * e' r is +0 and q - (+0) keeps q's sign). No per-element flag: |x|'s
 * bits less 1 folded into the chunk's unsigned minimum (a zero,
 * 0xffffffff, never the least; with d < 0 |x|'s bits themselves, so that
 * a zero, whose quotient's sign this form gets wrong, makes the chunk
 * inexact) and |x|'s bits into its maximum (all ones where d is out of
 * its range). The chunk is exact when the minimum is at least 2^-62's
 * bits - 1 and the maximum below 2^63's (an infinity or NaN numerator
 * makes it inexact: computed again). 8 operations a vector where a form
 * with a flag per element took 10 and a blend: softmax_4096 alternated,
 * one thread 7.10-7.34 -> 6.74-6.98 ms, two 3.56-3.57 -> 3.37-3.44 ms. */
static LLVMValueRef fast_row_div_range(Em *e, LLVMValueRef x, LLVMValueRef d) {
  LLVMBuilderRef B = e->b;
  LLVMTypeRef i32 = e->cg->i32;
  LLVMValueRef q1, d_ok, ax;
  div_parts(e, x, d, &q1, &d_ok, &ax);
  ax = LLVMBuildOr(B, ax, LLVMBuildSelect(B, d_ok, LLVMConstInt(i32, 0, 0), LLVMConstInt(i32, 0xffffffffu, 0), ""), "");
  LLVMValueRef lo = LLVMBuildLoad2(B, i32, e->div_lo, ""), hi = LLVMBuildLoad2(B, i32, e->div_hi, "");
  /* d < 0: a zero numerator counts as 0 (inexact: its quotient's sign
   * needs the true division), else as 0xffffffff (never the least) */
  LLVMValueRef dneg = LLVMBuildICmp(B, LLVMIntSLT, LLVMBuildBitCast(B, d, i32, ""), LLVMConstInt(i32, 0, 0), "");
  LLVMValueRef k = LLVMBuildSelect(B, dneg, LLVMConstInt(i32, 0, 0), LLVMConstInt(i32, 1, 0), "");
  LLVMBuildStore(B, em_intrinsic(e, "llvm.umin", i32, 2, (LLVMValueRef[]){lo, LLVMBuildSub(B, ax, k, "")}),
                 e->div_lo);
  LLVMBuildStore(B, em_intrinsic(e, "llvm.umax", i32, 2, (LLVMValueRef[]){hi, ax}), e->div_hi);
  return q1;
}

LLVMValueRef em_fast_div_exact(Em *e, LLVMValueRef lo, LLVMValueRef hi) {
  LLVMBuilderRef B = e->b;
  LLVMTypeRef i32 = e->cg->i32;
  LLVMValueRef lo_ok = LLVMBuildICmp(B, LLVMIntUGE, lo, LLVMConstInt(i32, ((127u - 62) << 23) - 1, 0), "");
  LLVMValueRef hi_ok = LLVMBuildICmp(B, LLVMIntULT, hi, LLVMConstInt(i32, (127u + 63) << 23, 0), "");
  return LLVMBuildAnd(B, lo_ok, hi_ok, "");
}

LLVMValueRef em_fma(Em *e, ElemType t, LLVMValueRef a, LLVMValueRef b, LLVMValueRef c, bool neg_a, bool neg_c) {
  LLVMValueRef v[3] = {daz_const(e, dec(e, t, a)), daz_const(e, dec(e, t, b)), daz_const(e, dec(e, t, c))};
  if (neg_a) v[0] = LLVMBuildFNeg(e->b, v[0], "");
  if (neg_c) v[2] = LLVMBuildFNeg(e->b, v[2], "");
  return enc(e, t, daz_const(e, em_intrinsic(e, "llvm.fma", LLVMTypeOf(v[0]), 3, v)));
}

/* Whether x is a - m with m a broadcast of a's maximum over some of its
 * dims (softmax's, log-softmax's and logsumexp's x - max(x)): every
 * element of m is the maximum of a set that holds the element of a it
 * is subtracted from, so x is at most 0 (a -0 or +0 where they are
 * equal), or NaN (a NaN in the set, or inf - inf). Only inside a fused
 * computation: a kernel is made from its own instruction alone (an
 * unfused exp's operand is another kernel's output, and compile.c gives
 * two unfused exps of one shape one kernel). Looks at x, its two
 * operands, the reduce and its reducer's root: constant time. */
static bool below_own_max(const Instr *x) {
  if (x->op != OP_SUBTRACT || x->noperands != 2 || !x->parent || !x->parent->is_fusion) return false;
  const Instr *a = x->operands[0], *b = x->operands[1];
  if (b->op != OP_BROADCAST || b->noperands != 1 || !shape_same_dims(b->shape, a->shape)) return false;
  const Instr *r = b->operands[0];
  if (r->op != OP_REDUCE || r->noperands != 2 || r->operands[0] != a || r->ncalled != 1 || !r->called[0]) return false;
  const Computation *c = r->called[0];
  const Instr *root = c->root;
  if (c->nparams != 2 || !root || root->op != OP_MAXIMUM || root->noperands != 2) return false;
  const Instr *p0 = root->operands[0], *p1 = root->operands[1];
  if (p0->op != OP_PARAMETER || p1->op != OP_PARAMETER || p0->param_number == p1->param_number) return false;
  /* the broadcast puts the reduce's dims back where they were: its
   * dimensions are a's dims the reduce keeps, in order */
  int k = 0, rank = a->shape->rank;
  for (int d = 0; d < rank; d++) {
    bool reduced = false;
    for (int i = 0; i < r->dimensions.n; i++) reduced |= r->dimensions.v[i] == d;
    if (reduced) continue;
    if (k >= b->dimensions.n || b->dimensions.v[k] != d) return false;
    k++;
  }
  return k == b->dimensions.n;
}

LLVMValueRef em_scalar_op(Em *e, const Instr *in, const LLVMValueRef *ops) {
  Opcode op = in->op;
  ElemType rt = in->shape->type;
  ElemType t0 = in->noperands > 0 ? in->operands[0]->shape->type : rt;
  bool ok = false;
  LLVMValueRef r = NULL;
  if (e->div_lo && em_fast_div_applies(in))
    return fast_row_div_range(e, ops[0], ops[1]);
  switch (op) {
  case OP_SELECT: {
    LLVMValueRef p = LLVMBuildICmp(e->b, LLVMIntNE, ops[0], LLVMConstNull(e->cg->i8), "");
    if (rt == T_F32 || rt == T_F64) {
      /* select the bits: under DAZ, a float compare-and-select that the
       * backend turns into a max/min instruction would flush a subnormal
       * that select must pass through */
      LLVMTypeRef it = rt == T_F32 ? e->cg->i32 : e->cg->i64;
      LLVMValueRef x = LLVMBuildBitCast(e->b, ops[1], it, ""), y = LLVMBuildBitCast(e->b, ops[2], it, "");
      return LLVMBuildBitCast(e->b, LLVMBuildSelect(e->b, p, x, y, ""), cg_storage_type(e->cg, rt), "");
    }
    return LLVMBuildSelect(e->b, p, ops[1], ops[2], "");
  }
  case OP_CLAMP:
    if (native_float(rt)) {
      r = fmaxmin(e, true, rt, ops[0], ops[1]);
      return fmaxmin(e, false, rt, ops[2], r);
    }
    if (is_int(rt)) {
      r = int_binary(e, OP_MAXIMUM, rt, ops[0], ops[1], &ok);
      return int_binary(e, OP_MINIMUM, rt, ops[2], r, &ok);
    }
    break;
  case OP_COMPARE:
    r = compare(e, in, t0, ops[0], ops[1], &ok);
    break;
  case OP_CONVERT:
    r = convert_inline(e, t0, rt, ops[0]);
    ok = r != NULL;
    break;
  case OP_BITCAST_CONVERT:
    if (type_bytes(t0) == type_bytes(rt) && type_bits(t0) == type_bits(rt) && t0 != T_PRED && rt != T_PRED &&
        !type_is_complex(t0) && !type_is_complex(rt) && type_bits(t0) >= 8) {
      r = LLVMBuildBitCast(e->b, ops[0], cg_storage_type(e->cg, rt), "");
      ok = true;
    }
    break;
  case OP_IS_FINITE:
    if (native_float(t0)) {
      LLVMValueRef x = dec(e, t0, ops[0]);
      LLVMValueRef ax = em_intrinsic(e, "llvm.fabs", LLVMTypeOf(x), 1, &x);
      r = LLVMBuildZExt(e->b, LLVMBuildFCmp(e->b, LLVMRealOLT, ax, LLVMConstReal(LLVMTypeOf(x), __builtin_inf()), ""), e->cg->i8, "");
      ok = true;
    }
    break;
  case OP_COMPLEX:
    if (t0 == T_F32 || t0 == T_F64) return cx_make(e, rt, ops[0], ops[1]);
    break;
  case OP_REAL: case OP_IMAG:
    if (type_is_complex(t0)) return cx_part(e, ops[0], op == OP_IMAG);
    break;
  default: break;
  }
  if (ok) return r;
  if (!r && op != OP_CONVERT && op != OP_COMPARE && (op_info(op)->flags & OPF_EW) && op_info(op)->arity >= 1 &&
      in->noperands == op_info(op)->arity && t0 == rt) {
    if (in->noperands == 1) {
      if (native_float(rt)) {
        e->exp_le0 = op == OP_EXP && in->operands[0]->parent == in->parent && below_own_max(in->operands[0]);
        r = float_unary(e, op, rt, ops[0], &ok);
        e->exp_le0 = false;
      } else if (is_int(rt)) r = int_unary(e, op, rt, ops[0], &ok);
      else if (type_is_complex(rt) && op == OP_NEGATE) {
        r = cx_make(e, rt, LLVMBuildFNeg(e->b, cx_part(e, ops[0], 0), ""), LLVMBuildFNeg(e->b, cx_part(e, ops[0], 1), ""));
        ok = true;
      }
    } else if (in->noperands == 2 && in->operands[1]->shape->type == rt) {
      if (native_float(rt)) r = float_binary(e, op, rt, ops[0], ops[1], &ok);
      else if (is_int(rt)) r = int_binary(e, op, rt, ops[0], ops[1], &ok);
      else if (type_is_complex(rt) && (op == OP_ADD || op == OP_SUBTRACT)) {
        LLVMValueRef re = op == OP_ADD ? LLVMBuildFAdd(e->b, cx_part(e, ops[0], 0), cx_part(e, ops[1], 0), "")
                                       : LLVMBuildFSub(e->b, cx_part(e, ops[0], 0), cx_part(e, ops[1], 0), "");
        LLVMValueRef im = op == OP_ADD ? LLVMBuildFAdd(e->b, cx_part(e, ops[0], 1), cx_part(e, ops[1], 1), "")
                                       : LLVMBuildFSub(e->b, cx_part(e, ops[0], 1), cx_part(e, ops[1], 1), "");
        r = cx_make(e, rt, re, im);
        ok = true;
      }
    }
    if (ok) return r;
  }
  return fallback(e, in, ops);
}

/* The same bits as another type of one size (bitcast). */
LLVMValueRef em_retype(Em *e, ElemType from, ElemType to, LLVMValueRef v) {
  if (from == to) return v;
  LLVMTypeRef dt = cg_storage_type(e->cg, to);
  if (type_bytes(from) != type_bytes(to) || type_is_complex(from) || type_is_complex(to)) {
    em_fail(e, ERR(UNIMPLEMENTED, "cpu backend: bitcast from %s to %s", type_name(from), type_name(to)));
    return LLVMGetUndef(dt);
  }
  return LLVMBuildBitCast(e->b, v, dt, "");
}

/* ---- scalar computations (reducers, comparators, map functions) ---- */

void em_call_scalar_comp(Em *e, const Computation *c, const LLVMValueRef *args, LLVMValueRef *outs,
                         int max_out) {
  int n = c->ninstrs;
  LLVMValueRef *vals = cxla_calloc((size_t)(n ? n : 1), sizeof *vals);
  /* tuple instructions: their element values live in tvals */
  LLVMValueRef **tvals = cxla_calloc((size_t)(n ? n : 1), sizeof *tvals);
  if (!vals || !tvals) {
    em_fail(e, cxla_oom());
    goto done;
  }
  for (int i = 0; i < n && !e->err; i++) {
    const Instr *in = c->instrs[i];
    LLVMValueRef ops[8];
    if (in->noperands > 8) {
      em_fail(e, em_unsupported(in, "too many operands in a scalar computation"));
      break;
    }
    for (int k = 0; k < in->noperands; k++) ops[k] = vals[in->operands[k]->id];
    switch (in->op) {
    case OP_PARAMETER: vals[i] = args[in->param_number]; break;
    case OP_CONSTANT:
      if (!in->literal || in->literal->unknown || in->literal->type == T_TUPLE || in->literal->nelems != 1) {
        em_fail(e, em_unsupported(in, "non-scalar constant in a scalar computation"));
        break;
      }
      vals[i] = em_const_elem(e, in->literal->type, in->literal->data);
      break;
    case OP_TUPLE:
      tvals[i] = arena_array(&e->arena, (size_t)(in->noperands ? in->noperands : 1), sizeof(LLVMValueRef));
      if (!tvals[i]) { em_fail(e, cxla_oom()); break; }
      for (int k = 0; k < in->noperands; k++) tvals[i][k] = ops[k];
      break;
    case OP_GET_TUPLE_ELEMENT:
      if (!tvals[in->operands[0]->id]) { em_fail(e, em_unsupported(in, "tuple parameter in a scalar computation")); break; }
      vals[i] = tvals[in->operands[0]->id][in->index];
      break;
    case OP_RESHAPE: case OP_BROADCAST: case OP_COPY: case OP_BITCAST:
      if (shape_elems(in->shape) != 1) { em_fail(e, em_unsupported(in, "non-scalar value in a scalar computation")); break; }
      vals[i] = em_retype(e, in->operands[0]->shape->type, in->shape->type, ops[0]);
      break;
    default:
      if (!(op_info(in->op)->flags & OPF_EW) || in->op == OP_MAP || !type_is_array(in->shape->type) ||
          in->shape->type == T_TUPLE) {
        em_fail(e, em_unsupported(in, "in a scalar computation"));
        break;
      }
      vals[i] = em_scalar_op(e, in, ops);
      break;
    }
  }
  if (!e->err) {
    const Instr *root = c->root;
    if (root->op == OP_TUPLE) {
      for (int k = 0; k < root->noperands && k < max_out; k++) outs[k] = vals[root->operands[k]->id];
    } else {
      outs[0] = vals[root->id];
    }
  }
done:
  cxla_free(vals);
  cxla_free(tvals);
}
