/* The code dumps of a compile with a dump directory
 * (cxla_compile_options.dump_dir), next to the optimizer's module dumps:
 *   llvm_before_opt.ll, llvm_after_opt.ll   the program's LLVM module
 *   kernels.s                               its assembly
 *   kernels/NAME.ir-no-opt.ll               each kernel (and sort
 *   kernels/NAME.ir-with-opt.ll             comparator) alone: its LLVM IR
 *   kernels/NAME.s                          before and after LLVM's
 *                                           optimization, its assembly
 * NAME is the kernel's symbol (k<program>_<instruction id>, cmp...), as
 * the executor's steps name it. */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

#include <llvm-c/Core.h>
#include <llvm-c/TargetMachine.h>

#include "cpu/cpu_internal.h"

static cxla_status write_bytes(const char *dir, const char *name, const char *suffix,
                               const char *data, size_t n) {
  char *path = cxla_format("%s/%s%s", dir, name, suffix);
  if (!path) return cxla_oom();
  FILE *f = fopen(path, "wb");
  cxla_status s = f ? NULL : ERR(IO, "cannot write %s: %s", path, strerror(errno));
  if (f) {
    bool ok = fwrite(data, 1, n, f) == n;
    ok &= fclose(f) == 0;
    if (!ok) s = ERR(IO, "error writing %s", path);
  }
  cxla_free(path);
  return s;
}

static cxla_status kernels_dir(const char *dir, char **out) {
  *out = cxla_format("%s/kernels", dir);
  if (!*out) return cxla_oom();
  if (mkdir(*out, 0777) != 0 && errno != EEXIST) {
    cxla_status s = ERR(IO, "cannot create %s: %s", *out, strerror(errno));
    cxla_free(*out);
    *out = NULL;
    return s;
  }
  return NULL;
}

/* The kernels: functions the module defines and exports. */
static bool is_kernel(LLVMValueRef f) {
  return !LLVMIsDeclaration(f) && LLVMGetLinkage(f) == LLVMExternalLinkage;
}

cxla_status cpu_dump_ir(LLVMModuleRef mod, const char *dir, bool optimized) {
  const char *file = optimized ? "llvm_after_opt.ll" : "llvm_before_opt.ll";
  char *path = cxla_format("%s/%s", dir, file);
  if (!path) return cxla_oom();
  char *err = NULL;
  cxla_status s = NULL;
  if (LLVMPrintModuleToFile(mod, path, &err))
    s = ERR(IO, "cannot write %s: %s", path, err ? err : "");
  LLVMDisposeMessage(err);
  cxla_free(path);
  char *sub = NULL;
  if (!s) s = kernels_dir(dir, &sub);
  for (LLVMValueRef f = LLVMGetFirstFunction(mod); f && !s; f = LLVMGetNextFunction(f)) {
    if (!is_kernel(f)) continue;
    size_t n = 0;
    const char *name = LLVMGetValueName2(f, &n);
    char *text = LLVMPrintValueToString(f);
    s = write_bytes(sub, name, optimized ? ".ir-with-opt.ll" : ".ir-no-opt.ll", text,
                    strlen(text));
    LLVMDisposeMessage(text);
  }
  cxla_free(sub);
  return s;
}

/* Writes each exported function's part of the assembly, from its
 * ".globl NAME" line to its ".size NAME, ..." line (LLVM's ELF output), to
 * sub/NAME.s: one pass over the text. */
static cxla_status split_asm(const char *text, const char *sub) {
  const char *start = NULL;
  char name[256];
  cxla_status s = NULL;
  for (const char *line = text; *line && !s;) {
    const char *nl = strchr(line, '\n');
    const char *next = nl ? nl + 1 : line + strlen(line);
    size_t len = (size_t)(next - line);
    if (!strncmp(line, "\t.globl\t", 8)) {
      size_t k = (nl ? (size_t)(nl - line) : len) - 8;
      if (k < sizeof name && k > 0 && strspn(line + 8, "abcdefghijklmnopqrstuvwxyz"
                                                      "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_.") == k) {
        memcpy(name, line + 8, k);
        name[k] = 0;
        start = line;
      }
    } else if (start && !strncmp(line, "\t.size\t", 7) && !strncmp(line + 7, name, strlen(name)) &&
               line[7 + strlen(name)] == ',') {
      s = write_bytes(sub, name, ".s", start, (size_t)(next - start));
      start = NULL;
    }
    line = next;
  }
  return s;
}

cxla_status cpu_dump_asm(LLVMTargetMachineRef tm, LLVMModuleRef mod, const char *dir) {
  char *err = NULL;
  LLVMMemoryBufferRef buf = NULL;
  if (LLVMTargetMachineEmitToMemoryBuffer(tm, mod, LLVMAssemblyFile, &err, &buf)) {
    cxla_status s = ERR(INTERNAL, "cpu backend: making assembly: %s", err ? err : "");
    LLVMDisposeMessage(err);
    return s;
  }
  size_t n = LLVMGetBufferSize(buf);
  char *text = cxla_malloc(n + 1);
  cxla_status s = text ? NULL : cxla_oom();
  if (text) {
    memcpy(text, LLVMGetBufferStart(buf), n);
    text[n] = 0;
  }
  LLVMDisposeMemoryBuffer(buf);
  if (!s) s = write_bytes(dir, "kernels", ".s", text, n);
  char *sub = NULL;
  if (!s) s = kernels_dir(dir, &sub);
  if (!s) s = split_asm(text, sub);
  cxla_free(sub);
  cxla_free(text);
  return s;
}
