/* jit_parts.c: one program's LLVM module compiled as several parts at
 * once, one thread each.
 *
 * LLVM's optimizer and code generator take nearly all of a compile (a
 * transformer's fwd+bwd: 3 ms to emit the IR, 280 ms in LLVM) and work
 * function by function, on one core. The kernels are independent
 * functions (the executor looks each up by name; none calls another but
 * through internal bodies), so the module is cut between them: each part
 * owns some kernels, compiles them in its own LLVMContext and target
 * machine, and becomes an object file of its own. Each kernel is
 * compiled exactly as in one module (every function it calls, internal,
 * is copied into its part; the aliases of identical kernels, share.c, go
 * with the kernel they name), so the machine code, and so every result,
 * is the same however the module is cut.
 *
 * How: the module (prepared, verified) is written once as bitcode and
 * freed; each part is read back from it into a context of its own, by
 * one of `threads` workers (the caller is one); every part then gives the
 * kernels and aliases it does not own internal linkage, so that GlobalDCE
 * drops them with whatever only they used, before the usual pipeline.
 * One part per thread, balanced by an estimate of each kernel's cost (its
 * IR instructions and its internal callees', plus KERNEL_INSTRS), the
 * costliest kernel first to the lightest part. Linear in the module (and
 * N log N to sort the kernels). */
#include <llvm-c/BitReader.h>
#include <llvm-c/BitWriter.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

#include "cpu/cpu_internal.h"

/* Below this many IR instructions in all, one part: a thread and a
 * bitcode round trip (about 0.1 ms) buy nothing for a module LLVM
 * compiles in a few milliseconds. */
#define PARTS_MIN_INSTRS 200

/* What a kernel costs LLVM besides its IR instructions, in instructions:
 * fitted to the times of 122 kernels of 10 bench programs compiled one
 * per module (about 8 ms a kernel and 0.05 ms an instruction, the size
 * explaining only part of it: a loop LLVM vectorizes costs more than
 * straight code). One part per thread: smaller parts, handed out as
 * threads come free, cost more each (about 2 ms of LLVM's fixed work per
 * module) than they won back in balance. */
#define KERNEL_INSTRS 170

static bool owned(LLVMValueRef fn) {
  LLVMLinkage l = LLVMGetLinkage(fn);
  return !LLVMIsDeclaration(fn) && l != LLVMInternalLinkage && l != LLVMPrivateLinkage;
}

static int64_t count_instrs(LLVMValueRef fn) {
  int64_t n = 0;
  for (LLVMBasicBlockRef b = LLVMGetFirstBasicBlock(fn); b; b = LLVMGetNextBasicBlock(b))
    for (LLVMValueRef i = LLVMGetFirstInstruction(b); i; i = LLVMGetNextInstruction(i)) n++;
  return n;
}

typedef struct Weighted {
  int64_t w;
  int k; /* the kernel's position among the owned functions */
} Weighted;

static int heavier_first(const void *a, const void *b) {
  const Weighted *x = a, *y = b;
  if (x->w != y->w) return x->w > y->w ? -1 : 1;
  return x->k - y->k;
}

/* Each owned function's part (owner[k] for the k-th, in module order) for
 * at most max_parts parts; the number of parts (1: compile whole). Every
 * alias must name an owned function, else one part. */
static cxla_status plan(LLVMModuleRef mod, int max_parts, int **owner_out, int *nparts) {
  *owner_out = NULL;
  *nparts = 1;
  if (max_parts < 2) return NULL;
  for (LLVMValueRef a = LLVMGetFirstGlobalAlias(mod); a; a = LLVMGetNextGlobalAlias(a)) {
    LLVMValueRef t = LLVMAliasGetAliasee(a);
    if (!LLVMIsAFunction(t) || !owned(t)) return NULL;
  }
  /* the size of every defined function, by address */
  int ndef = 0;
  for (LLVMValueRef f = LLVMGetFirstFunction(mod); f; f = LLVMGetNextFunction(f)) ndef += !LLVMIsDeclaration(f);
  PtrIndex size_of = {0};
  int64_t *sizes = cxla_calloc((size_t)(ndef ? ndef : 1), sizeof *sizes), total = 0;
  int nfn = 0, nown = 0;
  cxla_status s = sizes ? NULL : cxla_oom();
  for (LLVMValueRef f = LLVMGetFirstFunction(mod); f && !s; f = LLVMGetNextFunction(f)) {
    if (LLVMIsDeclaration(f)) continue;
    sizes[nfn] = count_instrs(f);
    total += sizes[nfn];
    if (!ptrindex_set(&size_of, f, nfn)) s = cxla_oom();
    nfn++;
    nown += owned(f);
  }
  Weighted *ws = !s && nown >= 2 && total >= PARTS_MIN_INSTRS ? cxla_calloc((size_t)nown, sizeof *ws) : NULL;
  int *owner = ws ? cxla_calloc((size_t)nown, sizeof *owner) : NULL;
  if (ws && !owner) s = cxla_oom();
  if (!s && owner) {
    /* a kernel weighs its own instructions and its internal callees' */
    int k = 0;
    for (LLVMValueRef f = LLVMGetFirstFunction(mod); f; f = LLVMGetNextFunction(f)) {
      if (!owned(f)) continue;
      int64_t w = KERNEL_INSTRS + sizes[ptrindex_get(&size_of, f)];
      for (LLVMBasicBlockRef b = LLVMGetFirstBasicBlock(f); b; b = LLVMGetNextBasicBlock(b))
        for (LLVMValueRef i = LLVMGetFirstInstruction(b); i; i = LLVMGetNextInstruction(i)) {
          if (LLVMGetInstructionOpcode(i) != LLVMCall) continue;
          LLVMValueRef c = LLVMGetCalledValue(i);
          int at = c && LLVMIsAFunction(c) && !owned(c) ? ptrindex_get(&size_of, c) : -1;
          if (at >= 0) w += sizes[at];
        }
      ws[k] = (Weighted){w, k};
      k++;
    }
    qsort(ws, (size_t)nown, sizeof *ws, heavier_first);
    int n = max_parts < nown ? max_parts : nown;
    if (n > JIT_MAX_PARTS) n = JIT_MAX_PARTS;
    int64_t load[JIT_MAX_PARTS] = {0};
    for (int i = 0; i < nown; i++) {
      int best = 0;
      for (int p = 1; p < n; p++)
        if (load[p] < load[best]) best = p;
      owner[ws[i].k] = best;
      load[best] += ws[i].w;
    }
    *owner_out = owner;
    *nparts = n;
    owner = NULL;
  }
  cxla_free(owner);
  cxla_free(ws);
  cxla_free(sizes);
  ptrindex_free(&size_of);
  return s;
}

/* Gives internal linkage to the owned functions of mod not in `part`, and
 * to the aliases of those (the module's owned functions are in the order
 * plan saw them: bitcode keeps it). */
static void keep_part(LLVMModuleRef mod, const int *owner, int part) {
  int k = 0;
  for (LLVMValueRef f = LLVMGetFirstFunction(mod); f; f = LLVMGetNextFunction(f)) {
    if (!owned(f)) continue;
    if (owner[k++] != part) LLVMSetLinkage(f, LLVMInternalLinkage);
  }
  for (LLVMValueRef a = LLVMGetFirstGlobalAlias(mod); a; a = LLVMGetNextGlobalAlias(a))
    if (LLVMGetLinkage(LLVMAliasGetAliasee(a)) == LLVMInternalLinkage) LLVMSetLinkage(a, LLVMInternalLinkage);
}

typedef struct PartJob {
  const char *bitcode;
  size_t bitcode_len;
  const int *owner;
  int part, opt_level;
  LLVMMemoryBufferRef obj; /* out */
  cxla_status status;      /* out */
} PartJob;

/* One part: its own context, module and target machine, all freed here. */
static void compile_part(PartJob *j) {
  LLVMContextRef ctx = LLVMContextCreate();
  LLVMMemoryBufferRef buf = LLVMCreateMemoryBufferWithMemoryRange(j->bitcode, j->bitcode_len, "cxla_part", 0);
  LLVMModuleRef mod = NULL;
  LLVMTargetMachineRef tm = NULL;
  if (!ctx || !buf) j->status = cxla_oom();
  else if (LLVMParseBitcodeInContext2(ctx, buf, &mod))
    j->status = ERR(INTERNAL, "cpu backend: reading back a part of the module failed");
  if (buf) LLVMDisposeMemoryBuffer(buf);
  if (!j->status) j->status = jit_target_machine(&tm);
  if (!j->status) {
    keep_part(mod, j->owner, j->part);
    j->status = jit_compile_object(tm, mod, j->opt_level, true, NULL, &j->obj);
    mod = NULL; /* taken */
  }
  if (mod) LLVMDisposeModule(mod);
  if (tm) LLVMDisposeTargetMachine(tm);
  if (ctx) LLVMContextDispose(ctx);
}

/* The parts, taken in turn by the workers (a part no thread could be
 * started for falls to the caller). */
typedef struct Queue {
  PartJob *jobs;
  int n;
  _Atomic int next;
} Queue;

static void *worker(void *arg) {
  Queue *q = arg;
  for (int p; (p = atomic_fetch_add(&q->next, 1)) < q->n;) compile_part(&q->jobs[p]);
  return NULL;
}

cxla_status jit_compile_parts(LLVMTargetMachineRef tm, LLVMModuleRef mod, int opt_level, int threads,
                              const char *dump_dir, LLVMMemoryBufferRef *objs, int *nobjs) {
  *nobjs = 0;
  int *owner = NULL, n = 1;
  cxla_status s = dump_dir || threads < 2 ? NULL : plan(mod, threads, &owner, &n);
  if (s || n < 2) {
    cxla_free(owner);
    if (s) {
      LLVMDisposeModule(mod);
      return s;
    }
    TRY(jit_compile_object(tm, mod, opt_level, false, dump_dir, &objs[0]));
    *nobjs = 1;
    return NULL;
  }
  LLVMMemoryBufferRef bc = LLVMWriteBitcodeToMemoryBuffer(mod);
  LLVMDisposeModule(mod);
  PartJob jobs[JIT_MAX_PARTS];
  memset(jobs, 0, sizeof jobs);
  if (!bc) s = cxla_oom();
  for (int p = 0; p < n && !s; p++)
    jobs[p] = (PartJob){LLVMGetBufferStart(bc), LLVMGetBufferSize(bc), owner, p, opt_level, NULL, NULL};
  Queue q = {jobs, s ? 0 : n, 0};
  int nw = threads < n ? threads : n;
  pthread_t th[JIT_MAX_PARTS];
  bool started[JIT_MAX_PARTS] = {false};
  for (int w = 1; w < nw; w++) started[w] = pthread_create(&th[w], NULL, worker, &q) == 0;
  worker(&q); /* this thread works too (and alone if no thread could start) */
  for (int w = 1; w < nw; w++)
    if (started[w]) pthread_join(th[w], NULL);
  for (int p = 0; p < n && !s; p++)
    if (jobs[p].status) s = jobs[p].status, jobs[p].status = NULL;
  for (int p = 0; p < n; p++) {
    cxla_status_free(jobs[p].status);
    if (s && jobs[p].obj) LLVMDisposeMemoryBuffer(jobs[p].obj);
    else if (!s) objs[p] = jobs[p].obj;
  }
  if (bc) LLVMDisposeMemoryBuffer(bc);
  cxla_free(owner);
  if (!s) *nobjs = n;
  return s;
}
