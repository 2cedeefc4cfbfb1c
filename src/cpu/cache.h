/* cache.h: the cpu backend's programs in the runtime's disk cache (see
 * cache.c for the format and what target_id holds). */
#ifndef CXLA_CPU_CACHE_H
#define CXLA_CPU_CACHE_H

#include <stddef.h>

#include "cpu/cpu.h"

/* What the generated code depends on besides the module and options
 * (cxla_malloc'd). */
cxla_status cpu_target_id_make(int opt_level, char **out);
/* x's object code and symbol names as bytes (cxla_malloc'd). UNIMPLEMENTED
 * when the code cannot run in another process, FAILED_PRECONDITION when
 * it was compiled without CpuCompileOptions.keep_object. */
cxla_status cpu_program_serialize(const CpuExecutable *x, void **out, size_t *out_len);
/* The executable of m (borrowed, as for cpu_compile) from such bytes;
 * DATA_LOSS when they are not a program of m for this binary. */
cxla_status cpu_program_deserialize(const HloModule *m, const void *data, size_t len,
                                    CpuExecutable **out);

/* An object pack: the object files of one module's parts,
 *   u64 count (1 .. JIT_MAX_PARTS), count u64 lengths (little endian),
 *   the objects back to back.
 * objpack_header writes the first 8 + 8 n bytes; objpack_count checks a
 * pack's lengths (-1: not a pack); objpack_at is its k-th object (k below
 * a checked count). */
void objpack_header(unsigned char *p, int n, const size_t *lens);
int objpack_count(const void *pack, size_t len);
const void *objpack_at(const void *pack, int k, size_t *len);

#endif
