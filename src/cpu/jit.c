/* The JIT: LLVM's new pass manager and ORC LLJIT, for the host CPU and its
 * features. One module per executable. */
#include <math.h>
#include <pthread.h>
#include <stdio.h>
#include <string.h>

#include <llvm-c/Analysis.h>
#include <llvm-c/Error.h>
#include <llvm-c/LLJIT.h>
#include <llvm-c/Orc.h>
#include <llvm-c/Target.h>
#include <llvm-c/TargetMachine.h>
#include <llvm-c/Transforms/PassBuilder.h>

#include "codegen/codegen.h"
#include "cpu/cache.h"
#include "cpu/cpu_internal.h"

struct CpuJit {
  LLVMOrcLLJITRef jit;
  LLVMOrcThreadSafeContextRef tsc;
  LLVMTargetMachineRef tm;
};

static pthread_once_t g_llvm_once = PTHREAD_ONCE_INIT;
static void llvm_init(void) {
  LLVMInitializeNativeTarget();
  LLVMInitializeNativeAsmPrinter();
}

static cxla_status llvm_err(LLVMErrorRef err, const char *what) {
  char *m = LLVMGetErrorMessage(err);
  cxla_status s = ERR(INTERNAL, "cpu backend: %s: %s", what, m);
  LLVMDisposeErrorMessage(m);
  return s;
}

static cxla_status make_tm(LLVMTargetMachineRef *out) {
  char *triple = LLVMGetDefaultTargetTriple();
  char *err = NULL;
  LLVMTargetRef target;
  if (LLVMGetTargetFromTriple(triple, &target, &err)) {
    cxla_status s = ERR(INTERNAL, "cpu backend: no LLVM target for %s: %s", triple, err ? err : "");
    LLVMDisposeMessage(err);
    LLVMDisposeMessage(triple);
    return s;
  }
  char *cpu = LLVMGetHostCPUName(), *feat = LLVMGetHostCPUFeatures();
  /* Position-independent code, small code model: what the JIT's linker
   * (JITLink) expects, and constants are then read pc-relative, in the
   * instructions that use them; the large model (the JIT's default) loads
   * each one's 64-bit address into a register first, which in a long
   * vectorized loop body runs out of registers and reloads them. */
  *out = LLVMCreateTargetMachine(target, triple, cpu, feat, LLVMCodeGenLevelDefault, LLVMRelocPIC,
                                 LLVMCodeModelSmall);
  LLVMDisposeMessage(cpu);
  LLVMDisposeMessage(feat);
  LLVMDisposeMessage(triple);
  return *out ? NULL : ERR(INTERNAL, "cpu backend: cannot create the target machine");
}

typedef struct SymDef {
  const char *name;
  void *addr;
} SymDef;

static double pow_fn(double a, double b) { return pow(a, b); }

/* The functions emitted code calls, by address (the executable need not
 * export them). */
static const SymDef syms[] = {
    {"cxla_cg_rt_scalar", (void *)cxla_cg_rt_scalar},
    {"cxla_cg_rt_f8_encode", (void *)cxla_cg_rt_f8_encode},
    {"cxla_cg_rt_transpose32", (void *)cxla_cg_rt_transpose32},
    {"exp", (void *)exp}, {"expm1", (void *)expm1}, {"log", (void *)log}, {"log1p", (void *)log1p},
    {"sin", (void *)sin}, {"cos", (void *)cos}, {"tan", (void *)tan}, {"tanh", (void *)tanh},
    {"sinh", (void *)sinh}, {"cosh", (void *)cosh}, {"asin", (void *)asin}, {"acos", (void *)acos},
    {"atan", (void *)atan}, {"asinh", (void *)asinh}, {"acosh", (void *)acosh}, {"atanh", (void *)atanh},
    {"erf", (void *)erf}, {"cbrt", (void *)cbrt}, {"pow", (void *)pow_fn}, {"atan2", (void *)atan2},
    {"fmod", (void *)fmod}, {"fmodf", (void *)fmodf},
};

void *jit_runtime_symbol(const char *name) {
  for (size_t i = 0; i < sizeof syms / sizeof syms[0]; i++)
    if (strcmp(syms[i].name, name) == 0) return syms[i].addr;
  return NULL;
}

static void swallow_error(void *ctx, LLVMErrorRef err) {
  (void)ctx;
  LLVMConsumeError(err);
}

cxla_status jit_create(CpuJit **out) {
  *out = NULL;
  pthread_once(&g_llvm_once, llvm_init);
  CpuJit *j = cxla_calloc(1, sizeof *j);
  if (!j) return cxla_oom();
  cxla_status s = make_tm(&j->tm);
  LLVMTargetMachineRef jtm = NULL;
  if (!s) s = make_tm(&jtm);
  if (s) {
    jit_destroy(j);
    return s;
  }
  LLVMOrcLLJITBuilderRef b = LLVMOrcCreateLLJITBuilder();
  LLVMOrcLLJITBuilderSetJITTargetMachineBuilder(b, LLVMOrcJITTargetMachineBuilderCreateFromTargetMachine(jtm));
  LLVMErrorRef err = LLVMOrcCreateLLJIT(&j->jit, b);
  if (err) {
    j->jit = NULL;
    jit_destroy(j);
    return llvm_err(err, "creating the JIT");
  }
  /* ORC reports failures it cannot return (a symbol an object refers to
   * that is nowhere, when the object links) by printing them; a library
   * does not print: the lookup that triggered the link fails anyway. */
  LLVMOrcExecutionSessionSetErrorReporter(LLVMOrcLLJITGetExecutionSession(j->jit), swallow_error,
                                          NULL);
  j->tsc = LLVMOrcCreateNewThreadSafeContext();
  LLVMOrcJITDylibRef dylib = LLVMOrcLLJITGetMainJITDylib(j->jit);
  int n = (int)(sizeof syms / sizeof syms[0]);
  LLVMOrcCSymbolMapPair pairs[sizeof syms / sizeof syms[0]];
  for (int i = 0; i < n; i++) {
    pairs[i].Name = LLVMOrcLLJITMangleAndIntern(j->jit, syms[i].name);
    pairs[i].Sym.Address = (LLVMOrcJITTargetAddress)(uintptr_t)syms[i].addr;
    pairs[i].Sym.Flags.GenericFlags = LLVMJITSymbolGenericFlagsExported | LLVMJITSymbolGenericFlagsCallable;
    pairs[i].Sym.Flags.TargetFlags = 0;
  }
  err = LLVMOrcJITDylibDefine(dylib, LLVMOrcAbsoluteSymbols(pairs, (size_t)n));
  if (err) {
    jit_destroy(j);
    return llvm_err(err, "defining runtime symbols");
  }
  /* Anything else the optimizer introduces (memset, memcpy, ...) from the
   * process. */
  LLVMOrcDefinitionGeneratorRef gen;
  err = LLVMOrcCreateDynamicLibrarySearchGeneratorForProcess(&gen, LLVMOrcLLJITGetGlobalPrefix(j->jit), NULL, NULL);
  if (err) {
    jit_destroy(j);
    return llvm_err(err, "searching the process");
  }
  LLVMOrcJITDylibAddGenerator(dylib, gen);
  *out = j;
  return NULL;
}

LLVMContextRef jit_context(CpuJit *j) { return LLVMOrcThreadSafeContextGetContext(j->tsc); }

/* Links an object file (taken) into the JIT's main library. */
static cxla_status add_object(CpuJit *j, LLVMMemoryBufferRef obj) {
  LLVMErrorRef err = LLVMOrcLLJITAddObjectFile(j->jit, LLVMOrcLLJITGetMainJITDylib(j->jit), obj);
  return err ? llvm_err(err, "adding the object code") : NULL;
}

cxla_status jit_target_machine(LLVMTargetMachineRef *out) {
  pthread_once(&g_llvm_once, llvm_init);
  return make_tm(out);
}

cxla_status jit_compile_object(LLVMTargetMachineRef tm, LLVMModuleRef mod, int opt_level, bool part,
                               const char *dump_dir, LLVMMemoryBufferRef *out) {
  *out = NULL;
  LLVMPassBuilderOptionsRef po = LLVMCreatePassBuilderOptions();
  char pipeline[48];
  /* a part first drops what it does not own (jit_parts.c) */
  snprintf(pipeline, sizeof pipeline, "%sdefault<O%d>", part ? "globaldce," : "",
           opt_level < 0 ? 0 : opt_level > 3 ? 3 : opt_level);
  LLVMErrorRef err = LLVMRunPasses(mod, pipeline, tm, po);
  LLVMDisposePassBuilderOptions(po);
  cxla_status s = err ? llvm_err(err, "optimizing") : NULL;
  if (!s) codegen_mark_streams(mod);
  if (!s && dump_dir) s = cpu_dump_ir(mod, dump_dir, true);
  if (!s && dump_dir) s = cpu_dump_asm(tm, mod, dump_dir);
  /* Machine code, as an object file in memory: what the JIT links and
   * what the disk cache keeps (cpu/cache.c). */
  if (!s) {
    char *msg = NULL;
    if (LLVMTargetMachineEmitToMemoryBuffer(tm, mod, LLVMObjectFile, &msg, out))
      s = ERR(INTERNAL, "cpu backend: making machine code: %s", msg ? msg : "");
    LLVMDisposeMessage(msg);
  }
  LLVMDisposeModule(mod);
  return s;
}

cxla_status jit_add_module(CpuJit *j, LLVMModuleRef mod, int opt_level, int max_parts,
                           const char *dump_dir, void **keep, size_t *keep_len, int *nparts) {
  if (keep) {
    *keep = NULL;
    *keep_len = 0;
  }
  *nparts = 0;
  char *triple = LLVMGetTargetMachineTriple(j->tm);
  LLVMSetTarget(mod, triple);
  LLVMDisposeMessage(triple);
  LLVMTargetDataRef td = LLVMCreateTargetDataLayout(j->tm);
  LLVMSetModuleDataLayout(mod, td);
  LLVMDisposeTargetData(td);
  cxla_status s = dump_dir ? cpu_dump_ir(mod, dump_dir, false) : NULL;
  char *msg = NULL;
  if (!s && LLVMVerifyModule(mod, LLVMReturnStatusAction, &msg))
    s = ERR(INTERNAL, "cpu backend: the emitted LLVM IR does not verify: %.2000s", msg ? msg : "");
  LLVMDisposeMessage(msg);
  if (s) {
    LLVMDisposeModule(mod);
    return s;
  }
  /* Kernels run with FTZ and DAZ set (cpu_fp_mode_enter): said to LLVM,
   * its constant folding flushes subnormals as the hardware will, and
   * does not decide 0 < 1e-45 or -inf * 1e-45 by IEEE rules. */
  static const char k[] = "denormal-fp-math", v[] = "preserve-sign,preserve-sign";
  LLVMContextRef ctx = LLVMGetModuleContext(mod);
  for (LLVMValueRef f = LLVMGetFirstFunction(mod); f; f = LLVMGetNextFunction(f))
    if (!LLVMIsDeclaration(f))
      LLVMAddAttributeAtIndex(f, LLVMAttributeFunctionIndex,
                              LLVMCreateStringAttribute(ctx, k, sizeof k - 1, v, sizeof v - 1));
  LLVMMemoryBufferRef objs[JIT_MAX_PARTS] = {NULL};
  int n = 0;
  TRY(jit_compile_parts(j->tm, mod, opt_level, max_parts, dump_dir, objs, &n));
  size_t lens[JIT_MAX_PARTS];
  for (int i = 0; i < n; i++) lens[i] = LLVMGetBufferSize(objs[i]);
  if (keep) {
    size_t total = 8 + 8 * (size_t)n;
    for (int i = 0; i < n; i++) total += lens[i];
    unsigned char *p = cxla_malloc(total);
    if (!p) s = cxla_oom();
    else {
      objpack_header(p, n, lens);
      size_t at = 8 + 8 * (size_t)n;
      for (int i = 0; i < n; i++) {
        memcpy(p + at, LLVMGetBufferStart(objs[i]), lens[i]);
        at += lens[i];
      }
      *keep = p;
      *keep_len = total;
    }
  }
  /* the JIT takes each object, linked or not */
  for (int i = 0; i < n; i++) {
    if (s) LLVMDisposeMemoryBuffer(objs[i]);
    else s = add_object(j, objs[i]);
  }
  if (s && keep) {
    cxla_free(*keep);
    *keep = NULL;
    *keep_len = 0;
  }
  if (!s) *nparts = n;
  return s;
}

cxla_status jit_define(CpuJit *j, const JitSymbol *syms, int n) {
  if (n <= 0) return NULL;
  LLVMOrcCSymbolMapPair *pairs = cxla_calloc((size_t)n, sizeof *pairs);
  if (!pairs) return cxla_oom();
  for (int i = 0; i < n; i++) {
    pairs[i].Name = LLVMOrcLLJITMangleAndIntern(j->jit, syms[i].name);
    pairs[i].Sym.Address = (LLVMOrcJITTargetAddress)(uintptr_t)syms[i].addr;
    pairs[i].Sym.Flags.GenericFlags = LLVMJITSymbolGenericFlagsExported;
    pairs[i].Sym.Flags.TargetFlags = 0;
  }
  LLVMErrorRef err = LLVMOrcJITDylibDefine(LLVMOrcLLJITGetMainJITDylib(j->jit),
                                           LLVMOrcAbsoluteSymbols(pairs, (size_t)n));
  cxla_free(pairs);
  return err ? llvm_err(err, "defining instruction symbols") : NULL;
}

cxla_status jit_add_object(CpuJit *j, const void *data, size_t len) {
  if (!data || !len) return ERR(INVALID_ARGUMENT, "cpu backend: empty object code");
  LLVMMemoryBufferRef obj = LLVMCreateMemoryBufferWithMemoryRangeCopy(data, len, "cxla_kernels");
  if (!obj) return cxla_oom();
  return add_object(j, obj);
}

cxla_status jit_lookup(CpuJit *j, const char *name, KernelFn *out) {
  LLVMOrcExecutorAddress addr = 0;
  LLVMErrorRef err = LLVMOrcLLJITLookup(j->jit, &addr, name);
  if (err) return llvm_err(err, "looking up a kernel");
  *out = (KernelFn)(uintptr_t)addr;
  return NULL;
}

void jit_destroy(CpuJit *j) {
  if (!j) return;
  if (j->jit) {
    LLVMErrorRef err = LLVMOrcDisposeLLJIT(j->jit);
    if (err) LLVMConsumeError(err);
  }
  if (j->tsc) LLVMOrcDisposeThreadSafeContext(j->tsc);
  if (j->tm) LLVMDisposeTargetMachine(j->tm);
  cxla_free(j);
}
