/* base.h: the small toolkit every layer of cxla uses.
 *
 *  - status propagation (TRY), the out-of-memory status;
 *  - checked allocation (cxla_malloc & co.), which tests can make fail;
 *  - Arena: bump allocation for IR that lives and dies with a module;
 *  - StrBuf: a growable string for printers and messages;
 *  - checked 64-bit arithmetic for sizes computed from untrusted input. */
#ifndef CXLA_BASE_H
#define CXLA_BASE_H

#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "cxla/status.h"

/* ---- status helpers ---------------------------------------------------- */

/* Evaluates an expression yielding cxla_status; returns it if not OK. */
#define TRY(expr)                                                             \
  do {                                                                        \
    cxla_status try_s_ = (expr);                                              \
    if (try_s_) return try_s_;                                                \
  } while (0)

#define ERR(code, ...) cxla_status_make(CXLA_##code, __VA_ARGS__)

/* The shared static out-of-memory status (freeing it is a no-op). */
cxla_status cxla_oom(void);

/* ---- allocation --------------------------------------------------------- */

/* malloc/calloc/realloc/free wrappers. All cxla heap memory goes through
 * them, so that tests can make the Nth allocation fail (cxla_fail_alloc_at)
 * and prove that every error path frees what it took. */
void *cxla_malloc(size_t n);
void *cxla_calloc(size_t n, size_t size);
void *cxla_realloc(void *p, size_t n);
void cxla_free(void *p);
/* n bytes starting on a 64-byte (cache line) boundary, from cxla_malloc;
 * *raw is what to cxla_free. NULL (and *raw NULL) if out of memory. */
void *cxla_malloc_lines(size_t n, void **raw);
char *cxla_strdup(const char *s);
char *cxla_strndup(const char *s, size_t n);
/* Test hook: the n-th allocation from now (1 = the next) returns NULL;
 * 0 turns the hook off. Returns the number of allocations since the last
 * call. Counts and fails this thread's allocations only; tests only. */
long cxla_fail_alloc_at(long n);

/* printf into a fresh cxla_malloc'd string; NULL if out of memory. */
char *cxla_format(const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 1, 2)))
#endif
    ;
char *cxla_vformat(const char *fmt, va_list ap);

/* Reads a whole regular file into a fresh NUL-terminated buffer (caller
 * frees with cxla_free). Files over max_bytes are refused before reading. */
cxla_status cxla_read_file(const char *path, int64_t max_bytes, char **out, size_t *len);

/* ---- arena --------------------------------------------------------------- */

/* A bump allocator. Everything allocated from an arena is freed at once by
 * arena_destroy. Allocations are 16-byte aligned and zeroed. arena_alloc
 * returns NULL when out of memory (or when n is absurd). */
typedef struct ArenaBlock ArenaBlock;
typedef struct Arena {
  ArenaBlock *head;
  size_t used_total;
} Arena;

void arena_init(Arena *a);
void arena_destroy(Arena *a);
void *arena_alloc(Arena *a, size_t n);
/* n elements of size each, with overflow check. */
void *arena_array(Arena *a, size_t n, size_t size);
char *arena_strndup(Arena *a, const char *s, size_t n);
char *arena_strdup(Arena *a, const char *s);
/* Copies n int64s into the arena (NULL if n == 0). */
int64_t *arena_i64dup(Arena *a, const int64_t *v, size_t n);

/* ---- string buffer -------------------------------------------------------- */

/* A growable NUL-terminated string. On allocation failure the buffer sets
 * `oom` and ignores further appends; check it once at the end. */
typedef struct StrBuf {
  char *data;
  size_t len, cap;
  bool oom;
} StrBuf;

void sb_init(StrBuf *b);
void sb_free(StrBuf *b);
void sb_putc(StrBuf *b, char c);
void sb_puts(StrBuf *b, const char *s);
void sb_putn(StrBuf *b, const char *s, size_t n);
/* v in decimal, as printf's %lld writes it, without a format's parse
 * (the HLO printer writes millions of them at 10^5 instructions). */
void sb_put_i64(StrBuf *b, int64_t v);
void sb_printf(StrBuf *b, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;
/* Hands the string to the caller (cxla_free it); the buffer is reset.
 * Returns NULL if an allocation failed along the way. */
char *sb_take(StrBuf *b);

/* ---- name tables ------------------------------------------------------------ */

/* Open-addressing hash table from strings to pointers (namemap.c), so that
 * name lookups stay O(1) on modules with hundreds of thousands of
 * instructions. Keys are borrowed (they live in a module arena). A NULL
 * value reads as absent. */
typedef struct NameMap {
  const char **keys;
  void **vals;
  uint64_t *hs; /* each key's hash: probes and growth compare and move
                 * them without reading the key strings, which at 10^5
                 * names are cache misses */
  size_t cap, n;
} NameMap;

void namemap_free(NameMap *m);
void namemap_clear(NameMap *m);
void *namemap_get(const NameMap *m, const char *s, size_t len);
/* Inserts key -> val; false when out of memory. The key must not be present. */
bool namemap_put(NameMap *m, const char *key, void *val);
/* Inserts key -> val unless the key is present (then *found is set and
 * nothing changes); false when out of memory. One hash and one probe
 * sequence where a namemap_get and a namemap_put took two. */
bool namemap_put_first(NameMap *m, const char *key, void *val, bool *found);
/* Makes room for n keys in all without growing; false when out of memory. */
bool namemap_reserve(NameMap *m, size_t n);
/* Sets key -> val, inserting the key if absent (val NULL: the key reads as
 * absent from then on); false when out of memory. */
bool namemap_set(NameMap *m, const char *key, void *val);

/* Open-addressing hash table from pointers to ints (namemap.c): an index
 * of objects by address (computations of a module, ...). */
typedef struct PtrIndex {
  const void **keys;
  int *vals;
  size_t cap, n;
} PtrIndex;

void ptrindex_free(PtrIndex *m);
/* The value of key, or -1 if absent. */
int ptrindex_get(const PtrIndex *m, const void *key);
/* Sets key -> val (val >= 0); false when out of memory. */
bool ptrindex_set(PtrIndex *m, const void *key, int val);

/* ---- checked arithmetic ------------------------------------------------------ */

/* a*b and a+b on int64 with overflow detection: return false on overflow. */
static inline bool mul_i64(int64_t a, int64_t b, int64_t *out) {
  return !__builtin_mul_overflow(a, b, out);
}
static inline bool add_i64(int64_t a, int64_t b, int64_t *out) {
  return !__builtin_add_overflow(a, b, out);
}

/* Largest number of bytes cxla will allocate for one array (literal, buffer).
 * Shapes whose byte size exceeds it are refused with RESOURCE_EXHAUSTED
 * instead of attempting a giant allocation. */
#define CXLA_MAX_ARRAY_BYTES ((int64_t)1 << 36) /* 64 GiB */

#endif
