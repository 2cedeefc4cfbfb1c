/* share.c: one machine-code kernel for identical kernels.
 *
 * Identical fusions (a transformer's layers, a gradient's repeated
 * pieces, the unrolled iterations of a loop) would be emitted as kernels
 * whose LLVM IR is the same but for their names, and LLVM would optimize
 * and compile each copy again. The cpu backend finds most of them before
 * emitting anything (compile.c: identical kernels) and names each copy
 * here, an alias of the kernel emitted first (codegen_alias_kernel).
 *
 * What is identical only in LLVM IR (HLO that differs where the emitter
 * does not look) is merged after emitting (codegen_share_kernels): LLVM's
 * MergeFunctions pass ("mergefunc") orders every function by a structural
 * comparison (opcodes, types, operands, attributes, the globals each
 * reads; no printing) in a tree, N log N comparisons. Of two equal
 * internal functions (kernels' bodies, NAME.body) it keeps one and points
 * the other's callers at it; an equal external one (a kernel: the
 * executor looks it up by name) becomes a thunk, a tail call of the
 * kernel kept. Each such thunk is then replaced by an alias of the kernel
 * it calls, so that every name the executor looks up (and the disk
 * cache's object exports) still exists and names the one compiled copy.
 *
 * (An earlier version printed the module and compared the kernels' texts:
 * at 10^5 instructions the printing took 16 of 25 s of codegen.) */
#include <llvm-c/Transforms/PassBuilder.h>
#include <stdlib.h>
#include <string.h>

#include "codegen/cg_internal.h"

/* Whether fn is a kernel: a defined function the executor looks up. */
static bool is_kernel(LLVMValueRef fn) {
  return LLVMGetLinkage(fn) == LLVMExternalLinkage && LLVMCountBasicBlocks(fn) > 0;
}

/* The kernel fn's one block tail-calls with its own parameters, in
 * order, and returns: a MergeFunctions thunk. NULL: fn is no thunk. */
static LLVMValueRef thunk_target(LLVMValueRef fn) {
  if (!is_kernel(fn) || LLVMCountBasicBlocks(fn) != 1) return NULL;
  LLVMValueRef call = LLVMGetFirstInstruction(LLVMGetFirstBasicBlock(fn));
  if (!call || LLVMGetInstructionOpcode(call) != LLVMCall) return NULL;
  LLVMValueRef ret = LLVMGetNextInstruction(call);
  if (!ret || LLVMGetInstructionOpcode(ret) != LLVMRet || LLVMGetNextInstruction(ret)) return NULL;
  LLVMValueRef callee = LLVMGetCalledValue(call);
  if (!callee || !LLVMIsAFunction(callee) || callee == fn || !is_kernel(callee)) return NULL;
  if (LLVMGlobalGetValueType(callee) != LLVMGlobalGetValueType(fn)) return NULL;
  unsigned n = LLVMCountParams(fn);
  if ((unsigned)LLVMGetNumArgOperands(call) != n) return NULL;
  for (unsigned i = 0; i < n; i++)
    if (LLVMGetOperand(call, i) != LLVMGetParam(fn, i)) return NULL;
  /* a non-void kernel returns what the call returned */
  if (LLVMGetNumOperands(ret) == 1 && LLVMGetOperand(ret, 0) != call) return NULL;
  return callee;
}

cxla_status codegen_alias_kernel(Codegen *cg, const char *name, const char *existing) {
  LLVMValueRef keep = LLVMGetNamedFunction(cg->mod, existing);
  if (!keep || LLVMGetNamedFunction(cg->mod, name))
    return ERR(INTERNAL, "codegen: kernel %s cannot alias %s", name, existing);
  LLVMAddAlias2(cg->mod, LLVMGlobalGetValueType(keep), 0, keep, name);
  return NULL;
}

cxla_status codegen_share_kernels(Codegen *cg, int *nshared) {
  *nshared = 0;
  LLVMModuleRef mod = cg->mod;
  int nk = 0;
  for (LLVMValueRef f = LLVMGetFirstFunction(mod); f && nk < 2; f = LLVMGetNextFunction(f)) nk += is_kernel(f);
  if (nk < 2) return NULL;
  LLVMPassBuilderOptionsRef po = LLVMCreatePassBuilderOptions();
  LLVMErrorRef err = LLVMRunPasses(mod, "mergefunc", NULL, po);
  LLVMDisposePassBuilderOptions(po);
  if (err) {
    char *msg = LLVMGetErrorMessage(err);
    cxla_status s = ERR(INTERNAL, "codegen: merging identical kernels: %s", msg ? msg : "");
    LLVMDisposeErrorMessage(msg);
    return s;
  }
  /* Each thunk becomes an alias of the kernel it calls (which is no thunk:
   * MergeFunctions points every copy at the one it keeps). The next
   * function is found before a thunk is deleted. */
  for (LLVMValueRef f = LLVMGetFirstFunction(mod), next; f; f = next) {
    next = LLVMGetNextFunction(f);
    LLVMValueRef keep = thunk_target(f);
    if (!keep || thunk_target(keep)) continue;
    size_t nlen;
    const char *nm = LLVMGetValueName2(f, &nlen);
    char *name = cxla_format("%.*s", (int)nlen, nm);
    if (!name) return cxla_oom();
    /* aliases of f (codegen_alias_kernel's) alias keep */
    LLVMReplaceAllUsesWith(f, keep);
    LLVMDeleteFunction(f);
    LLVMAddAlias2(mod, LLVMGlobalGetValueType(keep), 0, keep, name);
    cxla_free(name);
    ++*nshared;
  }
  return NULL;
}
