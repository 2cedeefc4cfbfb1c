/* share.c: one machine-code kernel for identical kernels.
 *
 * Identical fusions (a transformer's layers, a gradient's repeated
 * pieces) are emitted as kernels whose LLVM IR is the same but for their
 * names; LLVM would optimize and compile each copy again. Here every
 * kernel (a defined function of external linkage) is fingerprinted by its
 * IR text and that of its body (NAME.body, the internal function it calls,
 * codegen_emit_kernel), its own names blanked; a kernel whose text equals
 * an earlier one's is deleted and its name made an alias of the earlier
 * kernel: every name the executor looks up (and the disk cache's object
 * exports) still exists, one copy of the code is compiled.
 * transformer_fwd_bwd: 34 kernels, 26 distinct.
 *
 * Texts are compared in full, not only their hashes; equal texts call
 * the same functions and read the same globals (names included), so the
 * two kernels compute the same thing. Linear in the module's IR: each
 * kernel printed once, and a second time when its hash matches. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "codegen/cg_internal.h"

typedef struct Kernel {
  LLVMValueRef fn, body; /* body NULL: the kernel has none */
  uint64_t shape;        /* the opcodes of its instructions, hashed */
  uint64_t hash;         /* its text's */
} Kernel;

/* The hash of fn's instructions' opcodes, in order, into h: kernels that
 * differ here differ in their text, and only kernels that share it with
 * another are printed (most kernels of a module are unlike the others). */
static uint64_t opcodes_hash(LLVMValueRef fn, uint64_t h) {
  for (LLVMBasicBlockRef b = LLVMGetFirstBasicBlock(fn); b; b = LLVMGetNextBasicBlock(b)) {
    h = (h ^ 0xb10c) * 0x100000001b3ull;
    for (LLVMValueRef i = LLVMGetFirstInstruction(b); i; i = LLVMGetNextInstruction(i))
      h = (h ^ (uint64_t)LLVMGetInstructionOpcode(i)) * 0x100000001b3ull;
  }
  return h;
}

/* The IR text of fn, with every "@name" of the kernel (its own name and
 * its body's, name + ".body") written "@K", and metadata numbers (the
 * module's: loop hints) renumbered in order of appearance (owned by the
 * caller; NULL: out of memory). */
static char *kernel_text(LLVMValueRef fn, LLVMValueRef body) {
  size_t nlen;
  const char *name = LLVMGetValueName2(fn, &nlen);
  char *a = LLVMPrintValueToString(fn), *b = body ? LLVMPrintValueToString(body) : NULL;
  size_t la = strlen(a), lb = b ? strlen(b) : 0;
  /* room for every "!N" renumbered to a longer one */
  char *out = cxla_malloc(2 * (la + lb) + 2);
  int nmd = 0, mdcap = 0;
  long *md = NULL; /* the metadata numbers seen, in order */
  if (out) {
    size_t o = 0;
    const char *parts[2] = {a, b};
    for (int p = 0; p < 2 && parts[p] && out; p++)
      for (const char *s = parts[p]; *s;) {
        if (s[0] == '!' && s[1] >= '0' && s[1] <= '9') {
          char *e;
          long v = strtol(s + 1, &e, 10);
          int k = 0;
          while (k < nmd && md[k] != v) k++;
          if (k == nmd) {
            if (nmd == mdcap) {
              mdcap = mdcap ? 2 * mdcap : 8;
              long *nm = cxla_realloc(md, (size_t)mdcap * sizeof *md);
              if (!nm) {
                cxla_free(out);
                out = NULL;
                break;
              }
              md = nm;
            }
            md[nmd++] = v;
          }
          o += (size_t)sprintf(out + o, "!%d", k);
          s = e;
          continue;
        }
        /* "@name" followed by a character that cannot continue a name
         * (or by ".body") */
        if (s[0] == '@' && strncmp(s + 1, name, nlen) == 0) {
          char c = s[1 + nlen];
          bool end = !((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' ||
                       c == '$' || c == '-' || (c == '.' && strncmp(s + 1 + nlen, ".body", 5) != 0));
          if (end) {
            out[o++] = '@';
            out[o++] = 'K';
            s += 1 + nlen;
            continue;
          }
        }
        out[o++] = *s++;
      }
    if (out) out[o] = '\0';
  }
  cxla_free(md);
  LLVMDisposeMessage(a);
  if (b) LLVMDisposeMessage(b);
  return out;
}

static uint64_t fnv(const char *s) {
  uint64_t h = 0xcbf29ce484222325ull;
  for (; *s; s++) h = (h ^ (unsigned char)*s) * 0x100000001b3ull;
  return h;
}

/* The body fn calls: NAME.body, an internal function of mod, if any. */
static LLVMValueRef body_of(LLVMModuleRef mod, LLVMValueRef fn) {
  size_t nlen;
  const char *name = LLVMGetValueName2(fn, &nlen);
  char *bname = cxla_format("%.*s.body", (int)nlen, name);
  if (!bname) return NULL;
  LLVMValueRef b = LLVMGetNamedFunction(mod, bname);
  cxla_free(bname);
  return b && LLVMGetLinkage(b) == LLVMInternalLinkage && LLVMCountBasicBlocks(b) > 0 ? b : NULL;
}

cxla_status codegen_share_kernels(Codegen *cg, int *nshared) {
  *nshared = 0;
  LLVMModuleRef mod = cg->mod;
  int n = 0, cap = 0;
  Kernel *ks = NULL;
  for (LLVMValueRef f = LLVMGetFirstFunction(mod); f; f = LLVMGetNextFunction(f)) {
    if (LLVMGetLinkage(f) != LLVMExternalLinkage || LLVMCountBasicBlocks(f) == 0) continue;
    if (n == cap) {
      cap = cap ? 2 * cap : 64;
      Kernel *nk = cxla_realloc(ks, (size_t)cap * sizeof *ks);
      if (!nk) {
        cxla_free(ks);
        return cxla_oom();
      }
      ks = nk;
    }
    LLVMValueRef body = body_of(mod, f);
    uint64_t h = opcodes_hash(f, 0xcbf29ce484222325ull);
    ks[n++] = (Kernel){f, body, body ? opcodes_hash(body, h) : h, 0};
  }
  if (n < 2) {
    cxla_free(ks);
    return NULL;
  }
  /* open addressing: the kernels of each opcode hash (twin: whether a
   * second one has it), then the first kernel of each text */
  int nb = 1;
  while (nb < 2 * n) nb *= 2;
  int *table = cxla_malloc((size_t)nb * sizeof *table);
  bool *twin = cxla_calloc((size_t)n, sizeof *twin);
  if (!table || !twin) {
    cxla_free(table);
    cxla_free(twin);
    cxla_free(ks);
    return cxla_oom();
  }
  for (int i = 0; i < nb; i++) table[i] = -1;
  for (int i = 0; i < n; i++) {
    size_t h = (size_t)ks[i].shape & (size_t)(nb - 1);
    while (table[h] >= 0 && ks[table[h]].shape != ks[i].shape) h = (h + 1) & (size_t)(nb - 1);
    if (table[h] < 0) table[h] = i;
    else twin[i] = twin[table[h]] = true;
  }
  for (int i = 0; i < nb; i++) table[i] = -1;
  cxla_status s = NULL;
  for (int i = 0; i < n && !s; i++) {
    if (!twin[i]) continue;
    char *t = kernel_text(ks[i].fn, ks[i].body);
    if (!t) {
      s = cxla_oom();
      break;
    }
    ks[i].hash = fnv(t);
    int first = -1;
    size_t h = (size_t)ks[i].hash & (size_t)(nb - 1);
    for (; table[h] >= 0; h = (h + 1) & (size_t)(nb - 1)) {
      const Kernel *k = &ks[table[h]];
      if (k->hash != ks[i].hash) continue;
      char *u = kernel_text(k->fn, k->body);
      if (!u) {
        s = cxla_oom();
        break;
      }
      bool same = strcmp(t, u) == 0;
      cxla_free(u);
      if (same) {
        first = table[h];
        break;
      }
    }
    cxla_free(t);
    if (s) break;
    if (first < 0) {
      table[h] = i;
      continue;
    }
    /* only what nothing else refers to is deleted (kernels are called by
     * the executor, bodies by their kernel only) */
    LLVMUseRef bu = ks[i].body ? LLVMGetFirstUse(ks[i].body) : NULL;
    if (LLVMGetFirstUse(ks[i].fn) || (bu && LLVMGetNextUse(bu))) continue;
    /* the duplicate's name becomes an alias of the first kernel */
    size_t nlen;
    const char *nm = LLVMGetValueName2(ks[i].fn, &nlen);
    char *name = cxla_format("%.*s", (int)nlen, nm);
    if (!name) {
      s = cxla_oom();
      break;
    }
    LLVMDeleteFunction(ks[i].fn);
    if (ks[i].body) LLVMDeleteFunction(ks[i].body);
    LLVMValueRef keep = ks[first].fn;
    LLVMAddAlias2(mod, LLVMGlobalGetValueType(keep), 0, keep, name);
    cxla_free(name);
    ++*nshared;
  }
  cxla_free(table);
  cxla_free(twin);
  cxla_free(ks);
  return s;
}
