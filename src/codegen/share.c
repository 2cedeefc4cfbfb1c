/* share.c: one machine-code kernel for identical kernels.
 *
 * Identical fusions (a transformer's layers, a gradient's repeated
 * pieces) are emitted as kernels whose LLVM IR is the same but for their
 * names; LLVM would optimize and compile each copy again. Here every
 * kernel (a defined function of external linkage) is compared by its IR
 * text and that of its body (NAME.body, the internal function it calls,
 * codegen_emit_kernel), its own names blanked and metadata renumbered; a
 * kernel whose text equals an earlier one's is deleted and its name made
 * an alias of the earlier kernel: every name the executor looks up (and
 * the disk cache's object exports) still exists, one copy of the code is
 * compiled. transformer_fwd_bwd: 8 of 34 kernels shared.
 *
 * Texts are compared in full, not only their hashes; equal texts call
 * the same functions and read the same globals (names included), so the
 * two kernels compute the same thing. Linear in the module's IR: kernels
 * are first hashed by their instructions' opcodes, and only when two
 * share a hash is the module printed, once (printing one function numbers
 * the whole module's values first: a print per kernel was quadratic, 231 s
 * for 10^4 kernels), each kernel's text then cut out of it. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "codegen/cg_internal.h"

typedef struct Kernel {
  LLVMValueRef fn, body; /* body NULL: the kernel has none */
  uint64_t shape;        /* the opcodes of its instructions, hashed */
  uint64_t hash;         /* its text's */
  char *text;            /* its text (twins only; freed when done) */
} Kernel;

static uint64_t fnv_mem(const char *s, size_t n, uint64_t h) {
  for (size_t i = 0; i < n; i++) h = (h ^ (unsigned char)s[i]) * 0x100000001b3ull;
  return h;
}

/* The hash of fn's instructions' opcodes, in order, into h. */
static uint64_t opcodes_hash(LLVMValueRef fn, uint64_t h) {
  for (LLVMBasicBlockRef b = LLVMGetFirstBasicBlock(fn); b; b = LLVMGetNextBasicBlock(b)) {
    h = (h ^ 0xb10c) * 0x100000001b3ull;
    for (LLVMValueRef i = LLVMGetFirstInstruction(b); i; i = LLVMGetNextInstruction(i))
      h = (h ^ (uint64_t)LLVMGetInstructionOpcode(i)) * 0x100000001b3ull;
  }
  return h;
}

/* The definitions in a printed module: name -> [start, end) of its text
 * ("define ..." up to and including its closing "}"), by open addressing
 * over the names' hashes. */
typedef struct Def {
  const char *name;
  size_t nlen, start, end;
} Def;

typedef struct Defs {
  Def *v;
  size_t cap; /* a power of two, v[i].name NULL: empty */
} Defs;

static Def *defs_slot(Defs *d, const char *name, size_t nlen) {
  size_t h = (size_t)fnv_mem(name, nlen, 0xcbf29ce484222325ull) & (d->cap - 1);
  while (d->v[h].name && (d->v[h].nlen != nlen || memcmp(d->v[h].name, name, nlen) != 0))
    h = (h + 1) & (d->cap - 1);
  return &d->v[h];
}

/* Indexes the definitions of text (LLVMPrintModuleToString's): at most
 * nfuncs of them. */
static cxla_status defs_index(Defs *d, const char *text, size_t nfuncs) {
  d->cap = 16;
  while (d->cap < 2 * nfuncs + 2) d->cap *= 2;
  d->v = cxla_calloc(d->cap, sizeof *d->v);
  if (!d->v) return cxla_oom();
  for (const char *p = text; *p;) {
    const char *eol = strchr(p, '\n');
    if (!eol) break;
    if (strncmp(p, "define ", 7) == 0) {
      const char *at = memchr(p, '@', (size_t)(eol - p)), *paren = at ? memchr(at, '(', (size_t)(eol - at)) : NULL;
      const char *close = strstr(eol, "\n}\n");
      if (at && paren && close) {
        Def *s = defs_slot(d, at + 1, (size_t)(paren - at - 1));
        *s = (Def){at + 1, (size_t)(paren - at - 1), (size_t)(p - text), (size_t)(close + 2 - text)};
        p = close + 3;
        continue;
      }
    }
    p = eol + 1;
  }
  return NULL;
}

/* The span of fn's definition in the printed module, or NULL. */
static const Def *def_of(Defs *d, LLVMValueRef fn) {
  size_t nlen;
  const char *name = LLVMGetValueName2(fn, &nlen);
  const Def *s = defs_slot(d, name, nlen);
  return s->name ? s : NULL;
}

/* Appends text[a, b) to out at *o, with every "@name" (the kernel's own
 * name, alone or as name.body) written "@K" and each metadata number "!N"
 * renumbered in order of first appearance (md: the numbers seen, in
 * order). out has room for twice the bytes appended. */
static cxla_status normalize(const char *t, size_t a, size_t b, const char *name, size_t nlen, char *out, size_t *o,
                             long **md, int *nmd, int *mdcap) {
  for (size_t i = a; i < b;) {
    const char *s = t + i;
    if (s[0] == '!' && s[1] >= '0' && s[1] <= '9') {
      char *e;
      long v = strtol(s + 1, &e, 10);
      int k = 0;
      while (k < *nmd && (*md)[k] != v) k++;
      if (k == *nmd) {
        if (*nmd == *mdcap) {
          *mdcap = *mdcap ? 2 * *mdcap : 8;
          long *nm = cxla_realloc(*md, (size_t)*mdcap * sizeof **md);
          if (!nm) return cxla_oom();
          *md = nm;
        }
        (*md)[(*nmd)++] = v;
      }
      *o += (size_t)sprintf(out + *o, "!%d", k);
      i = (size_t)(e - t);
      continue;
    }
    if (s[0] == '@' && i + 1 + nlen <= b && strncmp(s + 1, name, nlen) == 0) {
      char c = s[1 + nlen];
      bool cont = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' ||
                  c == '$' || c == '-' || (c == '.' && strncmp(s + 1 + nlen, ".body", 5) != 0);
      if (!cont) {
        out[(*o)++] = '@';
        out[(*o)++] = 'K';
        i += 1 + nlen;
        continue;
      }
    }
    out[(*o)++] = *s;
    i++;
  }
  return NULL;
}

/* Kernel k's normalized text (its definition, then its body's) into
 * k->text and its hash into k->hash. */
static cxla_status kernel_text(Kernel *k, Defs *d, const char *all) {
  const Def *f = def_of(d, k->fn), *b = k->body ? def_of(d, k->body) : NULL;
  if (!f || (k->body && !b)) return ERR(INTERNAL, "codegen: a kernel's definition is not in the printed module");
  size_t nlen;
  const char *name = LLVMGetValueName2(k->fn, &nlen);
  size_t len = (f->end - f->start) + (b ? b->end - b->start : 0), o = 0;
  /* room for every "!N" renumbered to a longer one */
  k->text = cxla_malloc(2 * len + 1);
  if (!k->text) return cxla_oom();
  long *md = NULL;
  int nmd = 0, mdcap = 0;
  cxla_status s = normalize(all, f->start, f->end, name, nlen, k->text, &o, &md, &nmd, &mdcap);
  if (!s && b) s = normalize(all, b->start, b->end, name, nlen, k->text, &o, &md, &nmd, &mdcap);
  cxla_free(md);
  if (s) return s;
  k->text[o] = '\0';
  k->hash = fnv_mem(k->text, o, 0xcbf29ce484222325ull);
  return NULL;
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

/* Makes the twins (kernels that share an opcode hash) whose text equals
 * an earlier kernel's aliases of it. table: nb slots, -1 when empty. */
static cxla_status share_twins(LLVMModuleRef mod, Kernel *ks, int n, const bool *twin, int *table, int nb,
                               int *nshared) {
  size_t nfuncs = 0;
  for (LLVMValueRef f = LLVMGetFirstFunction(mod); f; f = LLVMGetNextFunction(f)) nfuncs++;
  char *all = LLVMPrintModuleToString(mod);
  Defs d = {0};
  cxla_status s = defs_index(&d, all, nfuncs);
  for (int i = 0; i < n && !s; i++) {
    if (!twin[i]) continue;
    s = kernel_text(&ks[i], &d, all);
    if (s) break;
    int first = -1;
    size_t h = (size_t)ks[i].hash & (size_t)(nb - 1);
    for (; table[h] >= 0; h = (h + 1) & (size_t)(nb - 1)) {
      const Kernel *k = &ks[table[h]];
      if (k->hash == ks[i].hash && strcmp(k->text, ks[i].text) == 0) {
        first = table[h];
        break;
      }
    }
    if (first < 0) {
      table[h] = i;
      continue;
    }
    cxla_free(ks[i].text);
    ks[i].text = NULL;
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
  for (int i = 0; i < n; i++) cxla_free(ks[i].text);
  cxla_free(d.v);
  LLVMDisposeMessage(all);
  return s;
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
    ks[n++] = (Kernel){f, body, body ? opcodes_hash(body, h) : h, 0, NULL};
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
  cxla_status s = table && twin ? NULL : cxla_oom();
  bool any = false;
  if (!s) {
    for (int i = 0; i < nb; i++) table[i] = -1;
    for (int i = 0; i < n; i++) {
      size_t h = (size_t)ks[i].shape & (size_t)(nb - 1);
      while (table[h] >= 0 && ks[table[h]].shape != ks[i].shape) h = (h + 1) & (size_t)(nb - 1);
      if (table[h] < 0) table[h] = i;
      else twin[i] = twin[table[h]] = any = true;
    }
    for (int i = 0; i < nb; i++) table[i] = -1;
  }
  if (!s && any) s = share_twins(mod, ks, n, twin, table, nb, nshared);
  cxla_free(table);
  cxla_free(twin);
  cxla_free(ks);
  return s;
}
