/* scratch.h: kernels' scratch memory (packed operands, converted copies,
 * partial results), kept between calls by the client's thread pool.
 *
 * A kernel takes its scratch at the start of each call and gives it back
 * at the end. Fresh memory from malloc costs a page fault per 4 KiB the
 * first time it is written, and glibc hands blocks of megabytes back to
 * the system on free, so every call paid those faults again: a 1024^3 s8
 * dot's 12 MiB of f32 copies on a Zen 2, 3 ms of its 15. The pool keeps
 * the blocks given back (up to RT_SCRATCH_BLOCKS and RT_SCRATCH_BYTES in
 * all) and hands out the smallest one big enough; a request none fits
 * frees the kept blocks smaller than it (they would only add to the
 * memory held) and takes fresh memory.
 *
 * Ownership: a block from rt_scratch_alloc belongs to the caller until
 * rt_scratch_free; the pool frees what it keeps when it is destroyed.
 * Thread-safe (executions on one pool at once take distinct blocks).
 * Internal to the backends. */
#ifndef CXLA_RUNTIME_SCRATCH_H
#define CXLA_RUNTIME_SCRATCH_H

#include <stddef.h>

#include "runtime/threadpool.h"

/* Blocks smaller than this come from malloc and go back to it (its heap
 * reuses them without new page faults). */
#define RT_SCRATCH_MIN ((size_t)256 << 10)
#define RT_SCRATCH_BLOCKS 16
#define RT_SCRATCH_BYTES ((size_t)1 << 30)

typedef struct RtScratch RtScratch;

/* A pool's cache of blocks (rt_pool_create makes one), NULL when out of
 * memory (no blocks are kept then); rt_scratch_destroy frees the blocks
 * it keeps and itself (NULL is fine). */
RtScratch *rt_scratch_create(void);
void rt_scratch_destroy(RtScratch *s);

/* n bytes (n >= 0) on a 64-byte boundary, uninitialized: a block pool
 * kept when one fits, else fresh (pool NULL: always fresh). NULL when out
 * of memory. */
void *rt_scratch_alloc(RtPool *pool, size_t n);
/* Gives p (from rt_scratch_alloc with the same pool; NULL is fine) back:
 * kept by the pool, or freed. */
void rt_scratch_free(RtPool *pool, void *p);
/* The bytes (capacities) of the blocks pool keeps now, and how many
 * (nblocks may be NULL); 0 for a NULL pool. */
size_t rt_scratch_held(RtPool *pool, int *nblocks);

#endif
