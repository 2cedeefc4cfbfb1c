/* A loader for the cpu backend's relocatable x86-64 objects (elfload.h).
 *
 * Layout of one anonymous mapping, each part page-aligned:
 *   code       executable sections, then one 8-byte stub per GOT slot
 *              (jmp *slot(%rip)): a call (PLT32) to a function further
 *              than 2 GiB away goes through its stub
 *   constants  read-only sections, then the GOT (one 8-byte slot per
 *              symbol a GOTPCREL relocation or a far call names)
 *   data       writable sections (zeroed for NOBITS)
 * Everything is written while the mapping is read-write; then code
 * becomes read-execute and constants read-only.
 *
 * The object is only read through bounds-checked copies (it need not be
 * aligned; the disk cache hands it at any offset). Every pass over it is
 * linear in its size; symbol lookups go through a hash table. */
#include "cpu/elfload.h"

#include <elf.h>
#include <stdbool.h>
#include <stdint.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "base/base.h"

#ifndef SHT_X86_64_UNWIND
#define SHT_X86_64_UNWIND 0x70000001
#endif
#ifndef SHT_LLVM_ADDRSIG
#define SHT_LLVM_ADDRSIG 0x6fff4c03
#endif
#ifndef R_X86_64_GOTPCRELX
#define R_X86_64_GOTPCRELX 41
#endif
#ifndef R_X86_64_REX_GOTPCRELX
#define R_X86_64_REX_GOTPCRELX 42
#endif

/* The largest image mapped: far below the 2 GiB a 32-bit displacement
 * reaches, so that references inside the image always fit. */
#define MAX_IMAGE_BYTES ((uint64_t)1 << 30)
#define STUB_BYTES 8

typedef struct Entry {
  const char *name; /* in ElfImage.names; NULL: an empty slot */
  void *addr;
} Entry;

struct ElfImage {
  unsigned char *base; /* the mapping */
  size_t size;
  char *names;         /* the defined symbols' names, NUL-terminated */
  Entry *table;        /* open addressing, a power of two of slots */
  size_t cap;
};

static uint64_t hash_name(const char *s) {
  uint64_t h = 0xcbf29ce484222325ull;
  for (; *s; s++) h = (h ^ (unsigned char)*s) * 0x100000001b3ull;
  return h;
}

/* What loading works on: the object's headers, copied, and where each
 * section and symbol went. */
typedef struct Loader {
  const unsigned char *obj;
  size_t len;
  Elf64_Shdr *sh;       /* section headers */
  int nsh;
  unsigned char **at;   /* each section's address in the image (NULL: not loaded) */
  int symtab;           /* the symbol table's section, or -1 */
  Elf64_Sym *sym;       /* its symbols */
  size_t nsym;
  const char *str;      /* its string table (within obj) */
  size_t strsz;
  int64_t *slot;        /* each symbol's GOT slot, or -1 */
  size_t nslots;
  unsigned char **addr; /* each symbol's address, once resolved */
  bool *resolved;
  ElfResolve resolve;
  void *arg;
  unsigned char *got, *stubs;
} Loader;

static bool in_bounds(uint64_t off, uint64_t size, uint64_t len) {
  return off <= len && size <= len - off;
}

static const char *sym_name(const Loader *L, const Elf64_Sym *s) {
  return s->st_name < L->strsz ? L->str + s->st_name : NULL;
}

static cxla_status read_sections(Loader *L) {
  Elf64_Ehdr eh;
  if (L->len < sizeof eh) return ERR(DATA_LOSS, "object: shorter than an ELF header");
  memcpy(&eh, L->obj, sizeof eh);
  if (memcmp(eh.e_ident, ELFMAG, SELFMAG) != 0) return ERR(DATA_LOSS, "object: not ELF");
  if (eh.e_ident[EI_CLASS] != ELFCLASS64 || eh.e_ident[EI_DATA] != ELFDATA2LSB ||
      eh.e_type != ET_REL || eh.e_machine != EM_X86_64)
    return ERR(UNIMPLEMENTED, "object: not a relocatable x86-64 ELF64 object");
  if (eh.e_shnum == 0 || eh.e_shentsize != sizeof(Elf64_Shdr))
    return ERR(UNIMPLEMENTED, "object: extended or odd section headers");
  if (!in_bounds(eh.e_shoff, (uint64_t)eh.e_shnum * sizeof(Elf64_Shdr), L->len))
    return ERR(DATA_LOSS, "object: section headers out of bounds");
  L->nsh = eh.e_shnum;
  L->sh = cxla_calloc((size_t)L->nsh, sizeof *L->sh);
  L->at = cxla_calloc((size_t)L->nsh, sizeof *L->at);
  if (!L->sh || !L->at) return cxla_oom();
  memcpy(L->sh, L->obj + eh.e_shoff, (size_t)L->nsh * sizeof *L->sh);
  L->symtab = -1;
  for (int i = 1; i < L->nsh; i++) {
    const Elf64_Shdr *s = &L->sh[i];
    if (s->sh_type != SHT_NOBITS && !in_bounds(s->sh_offset, s->sh_size, L->len))
      return ERR(DATA_LOSS, "object: section %d out of bounds", i);
    switch (s->sh_type) {
      case SHT_PROGBITS: case SHT_NOBITS: case SHT_X86_64_UNWIND: case SHT_NOTE:
      case SHT_STRTAB: case SHT_RELA: case SHT_NULL:
        break;
      case SHT_SYMTAB:
        if (L->symtab >= 0) return ERR(UNIMPLEMENTED, "object: two symbol tables");
        L->symtab = i;
        break;
      default:
        /* REL, GROUP, INIT_ARRAY, SYMTAB_SHNDX, ...: not what our LLVM emits */
        if (s->sh_type != SHT_LLVM_ADDRSIG || (s->sh_flags & SHF_ALLOC))
          return ERR(UNIMPLEMENTED, "object: section type 0x%x", (unsigned)s->sh_type);
    }
    if (!(s->sh_flags & SHF_ALLOC)) continue;
    if (s->sh_flags & SHF_TLS) return ERR(UNIMPLEMENTED, "object: thread-local storage");
    if (s->sh_type != SHT_PROGBITS && s->sh_type != SHT_NOBITS && s->sh_type != SHT_X86_64_UNWIND)
      return ERR(UNIMPLEMENTED, "object: allocated section of type 0x%x", (unsigned)s->sh_type);
    uint64_t a = s->sh_addralign;
    if (a & (a - 1)) return ERR(DATA_LOSS, "object: section %d alignment %llu", i, (unsigned long long)a);
    if (a > 4096) return ERR(UNIMPLEMENTED, "object: section alignment over a page");
    if (s->sh_size > MAX_IMAGE_BYTES) return ERR(DATA_LOSS, "object: section %d too large", i);
  }
  return NULL;
}

static cxla_status read_symbols(Loader *L) {
  if (L->symtab < 0) return NULL; /* nothing defined, nothing referenced */
  const Elf64_Shdr *s = &L->sh[L->symtab];
  if (s->sh_entsize != sizeof(Elf64_Sym) || s->sh_size % sizeof(Elf64_Sym) != 0)
    return ERR(DATA_LOSS, "object: bad symbol table");
  if (s->sh_link == 0 || s->sh_link >= (uint32_t)L->nsh || L->sh[s->sh_link].sh_type != SHT_STRTAB)
    return ERR(DATA_LOSS, "object: the symbol table has no string table");
  const Elf64_Shdr *st = &L->sh[s->sh_link];
  L->str = (const char *)L->obj + st->sh_offset;
  L->strsz = (size_t)st->sh_size;
  if (L->strsz == 0 || L->str[L->strsz - 1] != 0)
    return ERR(DATA_LOSS, "object: the string table is not terminated");
  L->nsym = (size_t)(s->sh_size / sizeof(Elf64_Sym));
  L->sym = cxla_calloc(L->nsym + 1, sizeof *L->sym);
  L->slot = cxla_malloc((L->nsym + 1) * sizeof *L->slot);
  L->addr = cxla_calloc(L->nsym + 1, sizeof *L->addr);
  L->resolved = cxla_calloc(L->nsym + 1, sizeof *L->resolved);
  if (!L->sym || !L->slot || !L->addr || !L->resolved) return cxla_oom();
  if (L->nsym) memcpy(L->sym, L->obj + s->sh_offset, L->nsym * sizeof *L->sym);
  for (size_t i = 0; i < L->nsym; i++) {
    const Elf64_Sym *y = &L->sym[i];
    L->slot[i] = -1;
    if (!sym_name(L, y)) return ERR(DATA_LOSS, "object: symbol %zu has no name", i);
    int type = ELF64_ST_TYPE(y->st_info);
    if (type == STT_TLS || type == STT_GNU_IFUNC)
      return ERR(UNIMPLEMENTED, "object: symbol of type %d", type);
    uint16_t k = y->st_shndx;
    if (k == SHN_COMMON || k == SHN_XINDEX || (k >= SHN_LORESERVE && k != SHN_ABS))
      return ERR(UNIMPLEMENTED, "object: symbol in special section 0x%x", (unsigned)k);
    if (k != SHN_UNDEF && k != SHN_ABS) {
      if (k >= L->nsh) return ERR(DATA_LOSS, "object: symbol %zu in no section", i);
      if (y->st_value > L->sh[k].sh_size)
        return ERR(DATA_LOSS, "object: symbol %zu past its section", i);
    }
  }
  return NULL;
}

/* Relocation k of section sh (check_rela has bounded the section). */
static Elf64_Rela rela_at(const Loader *L, const Elf64_Shdr *sh, size_t k) {
  Elf64_Rela r;
  memcpy(&r, L->obj + sh->sh_offset + k * sizeof r, sizeof r);
  return r;
}

/* The relocation sections that apply to loaded sections, checked. */
static cxla_status check_rela(const Loader *L, const Elf64_Shdr *r, bool *applies) {
  *applies = false;
  if (r->sh_type != SHT_RELA) return NULL;
  if (r->sh_info == 0 || r->sh_info >= (uint32_t)L->nsh)
    return ERR(DATA_LOSS, "object: relocations for no section");
  if (!(L->sh[r->sh_info].sh_flags & SHF_ALLOC)) return NULL; /* debug info and such */
  if (r->sh_entsize != sizeof(Elf64_Rela) || r->sh_size % sizeof(Elf64_Rela) != 0)
    return ERR(DATA_LOSS, "object: bad relocation section");
  if (L->symtab < 0 || r->sh_link != (uint32_t)L->symtab)
    return ERR(UNIMPLEMENTED, "object: relocations against another symbol table");
  if (L->sh[r->sh_info].sh_type == SHT_NOBITS)
    return ERR(DATA_LOSS, "object: relocations in a NOBITS section");
  *applies = true;
  return NULL;
}

static bool needs_slot(uint32_t type) {
  return type == R_X86_64_GOTPCREL || type == R_X86_64_GOTPCRELX ||
         type == R_X86_64_REX_GOTPCRELX || type == R_X86_64_PLT32;
}

/* GOT slots: one per symbol named by a GOT relocation, or by a call to
 * an external symbol (which may need a stub). */
static cxla_status count_slots(Loader *L) {
  for (int i = 1; i < L->nsh; i++) {
    bool applies;
    TRY(check_rela(L, &L->sh[i], &applies));
    if (!applies) continue;
    size_t n = (size_t)(L->sh[i].sh_size / sizeof(Elf64_Rela));
    for (size_t k = 0; k < n; k++) {
      Elf64_Rela r = rela_at(L, &L->sh[i], k);
      uint64_t si = ELF64_R_SYM(r.r_info);
      uint32_t type = (uint32_t)ELF64_R_TYPE(r.r_info);
      if (si >= L->nsym) return ERR(DATA_LOSS, "object: relocation against symbol %llu",
                                    (unsigned long long)si);
      if (type == R_X86_64_PLT32 && L->sym[si].st_shndx != SHN_UNDEF) continue;
      if (needs_slot(type) && L->slot[si] < 0) L->slot[si] = (int64_t)L->nslots++;
    }
  }
  return NULL;
}

static uint64_t align_up(uint64_t v, uint64_t a) { return (v + a - 1) & ~(a - 1); }

/* Places the allocated sections, the stubs and the GOT in the three
 * parts, maps the image read-write and copies the sections' bytes in
 * (L->at: each section's address). parts[]: the three parts' starts and
 * the end, page-aligned. */
static cxla_status place(Loader *L, ElfImage *img, uint64_t parts[4], uint64_t *got_off,
                         uint64_t *stub_off) {
  uint64_t page = (uint64_t)sysconf(_SC_PAGESIZE);
  uint64_t *off = cxla_calloc((size_t)L->nsh, sizeof *off);
  if (!off) return cxla_oom();
  uint64_t pos = 0;
  for (int part = 0; part < 3; part++) {
    parts[part] = pos;
    for (int i = 1; i < L->nsh; i++) {
      const Elf64_Shdr *s = &L->sh[i];
      if (!(s->sh_flags & SHF_ALLOC)) continue;
      int p = (s->sh_flags & SHF_EXECINSTR) ? 0 : (s->sh_flags & SHF_WRITE) ? 2 : 1;
      if (p != part) continue;
      pos = align_up(pos, s->sh_addralign ? s->sh_addralign : 1);
      off[i] = pos;
      pos += s->sh_size;
      if (pos > MAX_IMAGE_BYTES) {
        cxla_free(off);
        return ERR(DATA_LOSS, "object: sections too large");
      }
    }
    if (part == 0) {
      pos = align_up(pos, STUB_BYTES);
      *stub_off = pos;
      pos += L->nslots * STUB_BYTES;
    } else if (part == 1) {
      pos = align_up(pos, 8);
      *got_off = pos;
      pos += L->nslots * 8;
    }
    pos = align_up(pos, page);
  }
  parts[3] = pos;
  if (pos > MAX_IMAGE_BYTES) {
    cxla_free(off);
    return ERR(DATA_LOSS, "object: sections too large");
  }
  img->size = (size_t)(pos ? pos : page);
  void *m = mmap(NULL, img->size, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (m == MAP_FAILED) {
    cxla_free(off);
    cxla_status s = ERR(RESOURCE_EXHAUSTED, "object: cannot map %zu bytes for the code", img->size);
    img->size = 0;
    return s;
  }
  img->base = m;
  for (int i = 1; i < L->nsh; i++) {
    const Elf64_Shdr *s = &L->sh[i];
    if (!(s->sh_flags & SHF_ALLOC)) continue;
    L->at[i] = img->base + off[i];
    if (s->sh_type != SHT_NOBITS && s->sh_size)
      memcpy(L->at[i], L->obj + s->sh_offset, (size_t)s->sh_size);
  }
  cxla_free(off);
  L->got = img->base + *got_off;
  L->stubs = img->base + *stub_off;
  return NULL;
}

/* Symbol si's address: its section's place plus its value, the absolute
 * value, or (undefined) what resolve says. */
static cxla_status sym_addr(Loader *L, uint64_t si, unsigned char **out) {
  if (L->resolved[si]) {
    *out = L->addr[si];
    return NULL;
  }
  const Elf64_Sym *y = &L->sym[si];
  unsigned char *a = NULL;
  if (si == 0) {
    a = NULL;
  } else if (y->st_shndx == SHN_ABS) {
    a = (unsigned char *)(uintptr_t)y->st_value;
  } else if (y->st_shndx != SHN_UNDEF) {
    if (!L->at[y->st_shndx]) return ERR(DATA_LOSS, "object: a relocation names an unloaded section");
    a = L->at[y->st_shndx] + y->st_value;
  } else {
    const char *name = sym_name(L, y);
    a = L->resolve(L->arg, name);
    if (!a && ELF64_ST_BIND(y->st_info) == STB_WEAK)
      return ERR(UNIMPLEMENTED, "object: unresolved weak symbol %s", name);
    if (!a) return ERR(NOT_FOUND, "object: no symbol %s", name);
  }
  L->addr[si] = a;
  L->resolved[si] = true;
  *out = a;
  return NULL;
}

static bool fits_s32(int64_t v) { return v >= INT32_MIN && v <= INT32_MAX; }

static void put32(unsigned char *p, uint32_t v) { memcpy(p, &v, 4); }
static void put64(unsigned char *p, uint64_t v) { memcpy(p, &v, 8); }

/* Fills the GOT and the stubs, then applies every relocation. */
static cxla_status relocate(Loader *L) {
  for (size_t si = 0; si < L->nsym; si++) {
    if (L->slot[si] < 0) continue;
    unsigned char *a;
    TRY(sym_addr(L, si, &a));
    unsigned char *slot = L->got + 8 * L->slot[si], *stub = L->stubs + STUB_BYTES * L->slot[si];
    put64(slot, (uint64_t)(uintptr_t)a);
    /* jmp *slot(%rip); int3; int3 */
    stub[0] = 0xff;
    stub[1] = 0x25;
    put32(stub + 2, (uint32_t)(int32_t)(slot - (stub + 6)));
    stub[6] = stub[7] = 0xcc;
  }
  for (int i = 1; i < L->nsh; i++) {
    bool applies;
    TRY(check_rela(L, &L->sh[i], &applies));
    if (!applies) continue;
    const Elf64_Shdr *target = &L->sh[L->sh[i].sh_info];
    unsigned char *base = L->at[L->sh[i].sh_info];
    size_t n = (size_t)(L->sh[i].sh_size / sizeof(Elf64_Rela));
    for (size_t k = 0; k < n; k++) {
      Elf64_Rela r = rela_at(L, &L->sh[i], k);
      uint64_t si = ELF64_R_SYM(r.r_info);
      uint32_t type = (uint32_t)ELF64_R_TYPE(r.r_info);
      if (type == R_X86_64_NONE) continue;
      uint64_t width = type == R_X86_64_64 || type == R_X86_64_PC64 ? 8 : 4;
      if (!in_bounds(r.r_offset, width, target->sh_size))
        return ERR(DATA_LOSS, "object: relocation past its section");
      unsigned char *p = base + r.r_offset, *s;
      TRY(sym_addr(L, si, &s));
      uint64_t S = (uint64_t)(uintptr_t)s, P = (uint64_t)(uintptr_t)p, A = (uint64_t)r.r_addend;
      int64_t v;
      switch (type) {
        case R_X86_64_64:
          put64(p, S + A);
          break;
        case R_X86_64_PC64:
          put64(p, S + A - P);
          break;
        case R_X86_64_PLT32:
        case R_X86_64_PC32:
          v = (int64_t)(S + A - P);
          if (!fits_s32(v) && type == R_X86_64_PLT32 && L->slot[si] >= 0)
            v = (int64_t)((uint64_t)(uintptr_t)(L->stubs + STUB_BYTES * L->slot[si]) + A - P);
          if (!fits_s32(v)) return ERR(UNIMPLEMENTED, "object: a 32-bit displacement out of range");
          put32(p, (uint32_t)(int32_t)v);
          break;
        case R_X86_64_GOTPCREL:
        case R_X86_64_GOTPCRELX:
        case R_X86_64_REX_GOTPCRELX:
          v = (int64_t)((uint64_t)(uintptr_t)(L->got + 8 * L->slot[si]) + A - P);
          if (!fits_s32(v)) return ERR(DATA_LOSS, "object: a GOT displacement out of range");
          put32(p, (uint32_t)(int32_t)v);
          break;
        case R_X86_64_32:
        case R_X86_64_32S:
          v = (int64_t)(S + A);
          if (type == R_X86_64_32 ? (uint64_t)v > UINT32_MAX : !fits_s32(v))
            return ERR(UNIMPLEMENTED, "object: a 32-bit absolute address out of range");
          put32(p, (uint32_t)v);
          break;
        default:
          return ERR(UNIMPLEMENTED, "object: relocation type %u", (unsigned)type);
      }
    }
  }
  return NULL;
}

/* The table of defined global and weak symbols, by name. */
static cxla_status index_symbols(const Loader *L, ElfImage *img) {
  size_t n = 0, bytes = 0;
  for (size_t i = 1; i < L->nsym; i++) {
    const Elf64_Sym *y = &L->sym[i];
    int bind = ELF64_ST_BIND(y->st_info);
    if ((bind != STB_GLOBAL && bind != STB_WEAK) || y->st_shndx == SHN_UNDEF || !y->st_name)
      continue;
    n++;
    bytes += strlen(sym_name(L, y)) + 1;
  }
  img->cap = 16;
  while (img->cap < 2 * n) img->cap *= 2;
  img->table = cxla_calloc(img->cap, sizeof *img->table);
  img->names = cxla_malloc(bytes ? bytes : 1);
  if (!img->table || !img->names) return cxla_oom();
  char *w = img->names;
  for (size_t i = 1; i < L->nsym; i++) {
    const Elf64_Sym *y = &L->sym[i];
    int bind = ELF64_ST_BIND(y->st_info);
    if ((bind != STB_GLOBAL && bind != STB_WEAK) || y->st_shndx == SHN_UNDEF || !y->st_name)
      continue;
    const char *name = sym_name(L, y);
    size_t len = strlen(name) + 1;
    memcpy(w, name, len);
    size_t h = (size_t)hash_name(w) & (img->cap - 1);
    while (img->table[h].name) {
      if (strcmp(img->table[h].name, w) == 0)
        return ERR(DATA_LOSS, "object: symbol %s defined twice", w);
      h = (h + 1) & (img->cap - 1);
    }
    img->table[h].name = w;
    img->table[h].addr = y->st_shndx == SHN_ABS ? (void *)(uintptr_t)y->st_value
                         : L->at[y->st_shndx] ? L->at[y->st_shndx] + y->st_value : NULL;
    w += len;
  }
  return NULL;
}

static cxla_status protect(const ElfImage *img, const uint64_t parts[4]) {
  if (parts[1] > parts[0] && mprotect(img->base, (size_t)parts[1], PROT_READ | PROT_EXEC) != 0)
    return ERR(INTERNAL, "object: cannot make the code executable");
  if (parts[2] > parts[1] &&
      mprotect(img->base + parts[1], (size_t)(parts[2] - parts[1]), PROT_READ) != 0)
    return ERR(INTERNAL, "object: cannot make the constants read-only");
  return NULL;
}

cxla_status elf_load(const void *obj, size_t len, ElfResolve resolve, void *arg, ElfImage **out) {
  *out = NULL;
  if (!obj || !len) return ERR(DATA_LOSS, "object: empty");
  Loader L = {.obj = obj, .len = len, .resolve = resolve, .arg = arg};
  ElfImage *img = cxla_calloc(1, sizeof *img);
  if (!img) return cxla_oom();
  uint64_t parts[4] = {0}, got_off = 0, stub_off = 0;
  cxla_status s = read_sections(&L);
  if (!s) s = read_symbols(&L);
  if (!s) s = count_slots(&L);
  if (!s) s = place(&L, img, parts, &got_off, &stub_off);
  if (!s) s = relocate(&L);
  if (!s) s = index_symbols(&L, img);
  if (!s) s = protect(img, parts);
  cxla_free(L.sh);
  cxla_free(L.at);
  cxla_free(L.sym);
  cxla_free(L.slot);
  cxla_free(L.addr);
  cxla_free(L.resolved);
  if (s) {
    elf_unload(img);
    return s;
  }
  *out = img;
  return NULL;
}

void *elf_symbol(const ElfImage *img, const char *name) {
  if (!img || !img->table) return NULL;
  for (size_t h = (size_t)hash_name(name) & (img->cap - 1); img->table[h].name;
       h = (h + 1) & (img->cap - 1))
    if (strcmp(img->table[h].name, name) == 0) return img->table[h].addr;
  return NULL;
}

void elf_unload(ElfImage *img) {
  if (!img) return;
  if (img->base) munmap(img->base, img->size);
  cxla_free(img->names);
  cxla_free(img->table);
  cxla_free(img);
}
