/* The 8-bit (and 4-bit) float types in contractions: dots and convolutions
 * on them are computed in f32 and rounded once to the result type, as
 * XLA:CPU does (its float normalization upcasts them), also when the
 * result is f16 or bf16. Decoding is a
 * table lookup (exact: every such value is an f32); encoding calls the
 * runtime's round-to-nearest-even encoder (ir/numeric.h), once per output
 * element. f8e8m0fnu, whose smallest values are f32 subnormals that the
 * kernels' DAZ mode would flush, is not handled here. */
#include <stdio.h>

#include "codegen/cg_internal.h"
#include "ir/numeric.h"

bool cg_is_f8(ElemType t) { return minifloat_is(t) && t != T_F16 && t != T_BF16 && t != T_F8E8M0FNU; }

uint8_t cxla_cg_rt_f8_encode(int32_t type, float v) { return (uint8_t)minifloat_encode((ElemType)type, v); }

/* The module's [256 x float] table of t's values by bit pattern. */
static LLVMValueRef decode_table(Codegen *cg, ElemType t) {
  char name[48];
  snprintf(name, sizeof name, "f8tab.%s", type_name(t));
  LLVMValueRef g = LLVMGetNamedGlobal(cg->mod, name);
  if (g) return g;
  int bits = type_bits(t);
  LLVMValueRef vals[256];
  for (unsigned i = 0; i < 256; i++)
    vals[i] = LLVMConstReal(cg->f32, minifloat_decode(t, i & ((1u << bits) - 1)));
  LLVMValueRef init = LLVMConstArray2(cg->f32, vals, 256);
  g = LLVMAddGlobal(cg->mod, LLVMTypeOf(init), name);
  LLVMSetInitializer(g, init);
  LLVMSetGlobalConstant(g, 1);
  LLVMSetLinkage(g, LLVMPrivateLinkage);
  LLVMSetAlignment(g, 64);
  return g;
}

LLVMValueRef em_f8_decode(Em *e, ElemType t, LLVMValueRef v) {
  Codegen *cg = e->cg;
  LLVMValueRef tab = decode_table(cg, t);
  LLVMValueRef ix[2] = {em_i64(e, 0), LLVMBuildZExt(e->b, v, cg->i64, "")};
  LLVMValueRef p = LLVMBuildInBoundsGEP2(e->b, LLVMGlobalGetValueType(tab), tab, ix, 2, "");
  return LLVMBuildLoad2(e->b, cg->f32, p, "");
}

LLVMValueRef em_f8_encode(Em *e, ElemType t, LLVMValueRef f) {
  Codegen *cg = e->cg;
  LLVMTypeRef ft = LLVMFunctionType(cg->i8, (LLVMTypeRef[]){cg->i32, cg->f32}, 2, 0);
  LLVMValueRef fn = LLVMGetNamedFunction(cg->mod, "cxla_cg_rt_f8_encode");
  if (!fn) fn = LLVMAddFunction(cg->mod, "cxla_cg_rt_f8_encode", ft);
  LLVMValueRef args[2] = {LLVMConstInt(cg->i32, (unsigned long long)t, 0), f};
  return LLVMBuildCall2(e->b, ft, fn, args, 2, "");
}

ElemType cg_acc_type(const Instr *in) {
  ElemType t = in->shape->type;
  if (cg_is_f8(t)) return T_F32;
  bool f8_operand = cg_is_f8(in->operands[0]->shape->type) || cg_is_f8(in->operands[1]->shape->type);
  return f8_operand && (t == T_F16 || t == T_BF16) ? T_F32 : t;
}

LLVMValueRef em_to_acc(Em *e, ElemType from, ElemType acc, LLVMValueRef v) {
  if (!cg_is_f8(from)) return em_convert(e, from, acc, v);
  LLVMValueRef f = em_f8_decode(e, from, v);
  return acc == T_F32 ? f : em_convert(e, T_F32, acc, f);
}

LLVMValueRef em_from_acc(Em *e, ElemType acc, ElemType t, LLVMValueRef v) {
  if (acc == t) return v;
  return cg_is_f8(t) ? em_f8_encode(e, t, v) : em_convert(e, acc, t, v);
}

bool cg_f8_contraction_ok(ElemType t, ElemType ot) {
  if (cg_is_f8(t)) return ot == t;
  return cg_is_f8(ot) && (t == T_F32 || t == T_F64 || t == T_F16 || t == T_BF16);
}
