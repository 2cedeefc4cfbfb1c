/* Transcendental functions: the one place the emitter chooses how each is
 * computed. Today every one is a call to the C library's double function
 * (the interpreter's definition, so results agree bit for bit); vectorizable
 * implementations of our own replace these calls here. */
#include <string.h>

#include "codegen/cg_internal.h"

const char *cg_math_unary_name(Opcode op) {
  switch (op) {
  case OP_ACOS: return "acos";
  case OP_ACOSH: return "acosh";
  case OP_ASIN: return "asin";
  case OP_ASINH: return "asinh";
  case OP_ATAN: return "atan";
  case OP_ATANH: return "atanh";
  case OP_CBRT: return "cbrt";
  case OP_COS: return "cos";
  case OP_COSH: return "cosh";
  case OP_ERF: return "erf";
  case OP_EXP: return "exp";
  case OP_EXPM1: return "expm1";
  case OP_LOG: return "log";
  case OP_LOG1P: return "log1p";
  case OP_SIN: return "sin";
  case OP_SINH: return "sinh";
  case OP_TAN: return "tan";
  case OP_TANH: return "tanh";
  default: return NULL;
  }
}

static LLVMValueRef math_fn(Em *e, const char *name, int nargs, LLVMTypeRef *ft) {
  Codegen *cg = e->cg;
  LLVMTypeRef ps[2] = {cg->f64, cg->f64};
  *ft = LLVMFunctionType(cg->f64, ps, (unsigned)nargs, 0);
  LLVMValueRef f = LLVMGetNamedFunction(cg->mod, name);
  if (!f) {
    f = LLVMAddFunction(cg->mod, name, *ft);
    LLVMAddAttributeAtIndex(f, LLVMAttributeFunctionIndex,
                            LLVMCreateEnumAttribute(cg->ctx, LLVMGetEnumAttributeKindForName("nounwind", 8), 0));
  }
  return f;
}

LLVMValueRef em_math_call1(Em *e, const char *name, LLVMValueRef x) {
  LLVMTypeRef ft;
  LLVMValueRef f = math_fn(e, name, 1, &ft);
  return LLVMBuildCall2(e->b, ft, f, &x, 1, "");
}

LLVMValueRef em_math_call2(Em *e, const char *name, LLVMValueRef x, LLVMValueRef y) {
  LLVMTypeRef ft;
  LLVMValueRef f = math_fn(e, name, 2, &ft);
  return LLVMBuildCall2(e->b, ft, f, (LLVMValueRef[]){x, y}, 2, "");
}
