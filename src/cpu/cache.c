/* The cpu backend's side of the runtime's disk cache (runtime/backend.h,
 * runtime/disk_cache.h): what the code depends on besides the module
 * (target_id), and a program as bytes (serialize / deserialize).
 *
 * A program is its object files plus the names of the symbols its steps
 * call (kernels, sort comparators), in planning order, and of the
 * instructions its code refers to (compile.c, "instruction references"):
 *   "CXCPUOB3"                    8 bytes
 *   u64 symbol count, u64 object bytes, u64 names bytes,
 *   u64 reference count, u64 references bytes (little endian)
 *   names                         NUL-terminated, back to back
 *   references                    the same
 *   objects                       an object pack (cache.h): the ELF
 *                                 object files of the module's parts
 *                                 (jit_parts.c), for this host
 * The steps themselves are not stored: loading plans them again from the
 * optimized module (deterministic for one binary, which target_id names),
 * checks that the plan names exactly the stored symbols, and links the
 * object (no LLVM IR, no optimization, no code generation).
 *
 * target_id: the host CPU's name and features, the LLVM version, the cxla
 * version, the opt level ($CXLA_CPU_OPT) and the build id of the binary
 * this code is in, so that a rebuilt cxla (whose emitter may have changed
 * without a version bump) never runs the code of another. */
#include "cpu/cache.h"

#include <dlfcn.h>
#include <link.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include <llvm-c/Core.h>
#include <llvm-c/TargetMachine.h>

#include "cpu/cpu_internal.h"

#define MAGIC "CXCPUOB3"
#define HEADER_BYTES (8 + 5 * 8)

static void put_u64(unsigned char *p, uint64_t v) {
  for (int i = 0; i < 8; i++) p[i] = (unsigned char)(v >> (8 * i));
}

static uint64_t get_u64(const unsigned char *p) {
  uint64_t v = 0;
  for (int i = 0; i < 8; i++) v |= (uint64_t)p[i] << (8 * i);
  return v;
}

/* ---- object packs (cache.h) ---- */

void objpack_header(unsigned char *p, int n, const size_t *lens) {
  put_u64(p, (uint64_t)n);
  for (int i = 0; i < n; i++) put_u64(p + 8 + 8 * (size_t)i, lens[i]);
}

int objpack_count(const void *pack, size_t len) {
  const unsigned char *p = pack;
  if (!p || len < 8) return -1;
  uint64_t n = get_u64(p);
  if (n < 1 || n > JIT_MAX_PARTS || len < 8 + 8 * n) return -1;
  uint64_t sum = 8 + 8 * n;
  for (uint64_t i = 0; i < n; i++) {
    uint64_t l = get_u64(p + 8 + 8 * i);
    if (l == 0 || l > len || sum + l > len) return -1;
    sum += l;
  }
  return sum == len ? (int)n : -1;
}

const void *objpack_at(const void *pack, int k, size_t *len) {
  const unsigned char *p = pack;
  uint64_t n = get_u64(p), at = 8 + 8 * n;
  for (int i = 0; i < k; i++) at += get_u64(p + 8 + 8 * (size_t)i);
  *len = (size_t)get_u64(p + 8 + 8 * (size_t)k);
  return p + at;
}

/* ---- target id ---- */

typedef struct BuildIdSearch {
  uintptr_t addr;  /* an address in this code */
  StrBuf *out;     /* the id as hex, when found */
  bool found;      /* the object holding addr was found */
  const char *name;
} BuildIdSearch;

static void hex_bytes(StrBuf *b, const unsigned char *p, size_t n) {
  for (size_t i = 0; i < n; i++) sb_printf(b, "%02x", p[i]);
}

/* The GNU build-id note of the loaded object that holds s->addr. */
static int find_build_id(struct dl_phdr_info *info, size_t size, void *arg) {
  (void)size;
  BuildIdSearch *s = arg;
  bool here = false;
  for (int i = 0; i < info->dlpi_phnum && !here; i++) {
    const ElfW(Phdr) *ph = &info->dlpi_phdr[i];
    uintptr_t lo = info->dlpi_addr + ph->p_vaddr;
    here = ph->p_type == PT_LOAD && s->addr >= lo && s->addr < lo + ph->p_memsz;
  }
  if (!here) return 0;
  s->found = true;
  s->name = info->dlpi_name;
  for (int i = 0; i < info->dlpi_phnum; i++) {
    const ElfW(Phdr) *ph = &info->dlpi_phdr[i];
    if (ph->p_type != PT_NOTE) continue;
    const unsigned char *p = (const unsigned char *)(info->dlpi_addr + ph->p_vaddr);
    size_t off = 0, len = ph->p_memsz;
    while (off + sizeof(ElfW(Nhdr)) <= len) {
      const ElfW(Nhdr) *nh = (const ElfW(Nhdr) *)(p + off);
      size_t name_sz = (nh->n_namesz + 3u) & ~3u, desc_sz = (nh->n_descsz + 3u) & ~3u;
      size_t desc_off = off + sizeof *nh + name_sz;
      if (desc_off + nh->n_descsz > len) break;
      if (nh->n_type == NT_GNU_BUILD_ID && nh->n_namesz == 4 &&
          memcmp(p + off + sizeof *nh, "GNU", 4) == 0) {
        hex_bytes(s->out, p + desc_off, nh->n_descsz);
        return 1;
      }
      off = desc_off + desc_sz;
    }
  }
  return 1;
}

/* Names this build of the code: its build id, else the file's size and
 * modification time, else nothing (then only the version names it). */
static void build_id(StrBuf *b) {
  BuildIdSearch s = {(uintptr_t)(void *)cpu_target_id_make, b, false, NULL};
  size_t before = b->len;
  dl_iterate_phdr(find_build_id, &s);
  if (b->len != before) return;
  const char *file = s.name && *s.name ? s.name : "/proc/self/exe";
  struct stat st;
  if (stat(file, &st) == 0)
    sb_printf(b, "%lld.%lld.%lld", (long long)st.st_size, (long long)st.st_mtim.tv_sec,
              (long long)st.st_mtim.tv_nsec);
  else
    sb_printf(b, "unknown");
}

cxla_status cpu_target_id_make(int opt_level, char **out) {
  *out = NULL;
  StrBuf b;
  sb_init(&b);
  char *cpu = LLVMGetHostCPUName(), *feat = LLVMGetHostCPUFeatures();
  unsigned major = 0, minor = 0, patch = 0;
  LLVMGetVersion(&major, &minor, &patch);
  char *triple = LLVMGetDefaultTargetTriple();
  sb_printf(&b, "cpu;%s;%s;%s;llvm %u.%u.%u;cxla %s;O%d;build ", triple ? triple : "",
            cpu ? cpu : "", feat ? feat : "", major, minor, patch, CXLA_VERSION, opt_level);
  LLVMDisposeMessage(triple);
  LLVMDisposeMessage(cpu);
  LLVMDisposeMessage(feat);
  build_id(&b);
  *out = sb_take(&b);
  return *out ? NULL : cxla_oom();
}

/* ---- serialize ---- */

typedef struct Names {
  StrBuf buf;
  uint64_t count;
} Names;

static cxla_status add_name(void *arg, const char *name) {
  Names *n = arg;
  sb_putn(&n->buf, name, strlen(name) + 1);
  n->count++;
  return n->buf.oom ? cxla_oom() : NULL;
}

cxla_status cpu_program_serialize(const CpuExecutable *x, void **out, size_t *out_len) {
  *out = NULL;
  *out_len = 0;
  if (!x->relocatable)
    return ERR(UNIMPLEMENTED, "cpu backend: this program's code holds addresses of this process");
  if (!x->object) return ERR(FAILED_PRECONDITION, "cpu backend: the object code was not kept");
  Names n = {.count = 0};
  sb_init(&n.buf);
  cxla_status s = cpu_symbols_each(x, add_name, &n);
  size_t names_len = n.buf.len;
  size_t refs_len = x->nrefs ? x->refs_len : 0;
  size_t total = HEADER_BYTES + names_len + refs_len + x->object_len;
  unsigned char *p = s ? NULL : cxla_malloc(total);
  if (!s && !p) s = cxla_oom();
  if (s) {
    sb_free(&n.buf);
    return s;
  }
  memcpy(p, MAGIC, 8);
  put_u64(p + 8, n.count);
  put_u64(p + 16, x->object_len);
  put_u64(p + 24, names_len);
  put_u64(p + 32, (uint64_t)x->nrefs);
  put_u64(p + 40, refs_len);
  if (names_len) memcpy(p + HEADER_BYTES, n.buf.data, names_len);
  if (refs_len) memcpy(p + HEADER_BYTES + names_len, x->refs, refs_len);
  memcpy(p + HEADER_BYTES + names_len + refs_len, x->object, x->object_len);
  sb_free(&n.buf);
  *out = p;
  *out_len = total;
  return NULL;
}

/* ---- deserialize ---- */

typedef struct Stored {
  const char *names; /* names_len bytes of NUL-terminated names */
  size_t names_len;
  uint64_t count;
  const char *next;  /* checking the plan's symbols in order */
  uint64_t seen;
} Stored;

/* Whether name is one of the stored symbols (a comparator's name, asked
 * while planning). Linear in the names: once per sort. */
static bool stored_has(void *arg, const char *name) {
  const Stored *st = arg;
  for (const char *p = st->names; p < st->names + st->names_len; p += strlen(p) + 1)
    if (strcmp(p, name) == 0) return true;
  return false;
}

static cxla_status stored_next(void *arg, const char *name) {
  Stored *st = arg;
  if (st->seen == st->count || strcmp(st->next, name) != 0)
    return ERR(DATA_LOSS, "cpu backend: the cached code does not match the plan at %s", name);
  st->next += strlen(st->next) + 1;
  st->seen++;
  return NULL;
}

/* The plan names exactly the stored symbols, in order. */
static cxla_status stored_match(void *arg, const CpuExecutable *x) {
  Stored *st = arg;
  TRY(cpu_symbols_each(x, stored_next, st));
  if (st->seen != st->count)
    return ERR(DATA_LOSS, "cpu backend: the cached code has symbols the plan does not use");
  return NULL;
}

cxla_status cpu_program_deserialize(const HloModule *m, const void *data, size_t len,
                                    CpuExecutable **out) {
  *out = NULL;
  const unsigned char *p = data;
  if (!p || len < HEADER_BYTES || memcmp(p, MAGIC, 8) != 0)
    return ERR(DATA_LOSS, "cpu backend: not a cached cpu program");
  uint64_t count = get_u64(p + 8), obj_len = get_u64(p + 16), names_len = get_u64(p + 24);
  uint64_t nrefs = get_u64(p + 32), refs_len = get_u64(p + 40);
  if (obj_len == 0 || names_len > len || obj_len > len || refs_len > len ||
      HEADER_BYTES + names_len + refs_len + obj_len != len || nrefs > refs_len)
    return ERR(DATA_LOSS, "cpu backend: a cached cpu program has bad lengths");
  Stored st = {(const char *)p + HEADER_BYTES, (size_t)names_len, count,
               (const char *)p + HEADER_BYTES, 0};
  /* the names: exactly `count` NUL-terminated strings */
  uint64_t k = 0;
  for (size_t i = 0; i < names_len; i++) k += st.names[i] == 0;
  if (k != count || (names_len && st.names[names_len - 1] != 0))
    return ERR(DATA_LOSS, "cpu backend: a cached cpu program has bad symbol names");
  /* the references: exactly `nrefs` names of instructions of m */
  const char *refs = (const char *)p + HEADER_BYTES + names_len;
  k = 0;
  for (size_t i = 0; i < refs_len; i += strlen(refs + i) + 1) {
    if (memchr(refs + i, 0, (size_t)refs_len - i) == NULL || !cpu_ref_instr(m, refs + i))
      return ERR(DATA_LOSS, "cpu backend: a cached cpu program refers to an unknown instruction");
    k++;
  }
  if (k != nrefs) return ERR(DATA_LOSS, "cpu backend: a cached cpu program has bad references");
  CpuExecutable *x = NULL;
  TRY(cpu_load(m, refs + refs_len, (size_t)obj_len, refs, (size_t)refs_len, (int)nrefs,
               stored_has, stored_match, &st, &x));
  *out = x;
  return NULL;
}
