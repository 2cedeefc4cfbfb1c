/* elfload.h: a small loader for the relocatable x86-64 ELF objects that
 * the cpu backend's LLVM emits (jit.c), so that a disk cache hit
 * (cache.c) links its code without creating an LLVM JIT.
 *
 * It understands what those objects hold: allocatable PROGBITS / NOBITS
 * sections (code, constants, data), a symbol table, and RELA relocations
 * of the kinds the small-code-model, position-independent code has
 * (PC32, PLT32, GOTPCREL and its relaxable forms, 64, PC64). Anything
 * else -- another relocation type, TLS, constructors, COMDAT groups,
 * common or IFUNC symbols -- is UNIMPLEMENTED, and the caller links the
 * object with the JIT instead; a malformed object is DATA_LOSS. No input
 * makes it read or write outside the object and the memory it maps. */
#ifndef CXLA_CPU_ELFLOAD_H
#define CXLA_CPU_ELFLOAD_H

#include <stddef.h>

#include "cxla/status.h"

typedef struct ElfImage ElfImage;

/* The address of an external symbol the object refers to, or NULL when
 * there is none (the load fails then). */
typedef void *(*ElfResolve)(void *arg, const char *name);

/* Maps the object's sections (code read-execute, constants read-only,
 * data read-write), resolves its external symbols with resolve, applies
 * its relocations. obj is read only during the call. */
cxla_status elf_load(const void *obj, size_t len, ElfResolve resolve, void *arg, ElfImage **out);
/* The address of a symbol the object defines (global or weak), or NULL. */
void *elf_symbol(const ElfImage *img, const char *name);
/* Unmaps the code; img may be NULL. */
void elf_unload(ElfImage *img);

#endif
