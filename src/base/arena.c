/* Arena (bump) allocation and a growable string buffer. */
#include "base/base.h"

#include <stdio.h>
#include <string.h>

struct ArenaBlock {
  ArenaBlock *next;
  size_t size, used;
  _Alignas(16) unsigned char data[];
};

#define ARENA_BLOCK_MIN (64 * 1024)

void arena_init(Arena *a) {
  a->head = NULL;
  a->used_total = 0;
}

void arena_destroy(Arena *a) {
  ArenaBlock *b = a->head;
  while (b) {
    ArenaBlock *n = b->next;
    cxla_free(b);
    b = n;
  }
  a->head = NULL;
  a->used_total = 0;
}

void *arena_alloc(Arena *a, size_t n) {
  if (n > ((size_t)1 << 40)) return NULL;
  n = (n + 15) & ~(size_t)15;
  if (n == 0) n = 16;
  ArenaBlock *b = a->head;
  if (!b || b->size - b->used < n) {
    size_t size = n > ARENA_BLOCK_MIN ? n : ARENA_BLOCK_MIN;
    b = cxla_malloc(sizeof(ArenaBlock) + size);
    if (!b) return NULL;
    b->size = size;
    b->used = 0;
    if (n > ARENA_BLOCK_MIN / 4 && a->head) {
      /* A big allocation gets its own block behind the current one, so the
       * current block's free space is not wasted. */
      b->next = a->head->next;
      a->head->next = b;
    } else {
      b->next = a->head;
      a->head = b;
    }
  }
  void *p = b->data + b->used;
  b->used += n;
  a->used_total += n;
  memset(p, 0, n);
  return p;
}

void *arena_array(Arena *a, size_t n, size_t size) {
  if (size && n > ((size_t)1 << 40) / size) return NULL;
  return arena_alloc(a, n * size);
}

char *arena_strndup(Arena *a, const char *s, size_t n) {
  char *d = arena_alloc(a, n + 1);
  if (!d) return NULL;
  memcpy(d, s, n);
  d[n] = 0;
  return d;
}

char *arena_strdup(Arena *a, const char *s) {
  return arena_strndup(a, s, strlen(s));
}

int64_t *arena_i64dup(Arena *a, const int64_t *v, size_t n) {
  if (n == 0) return NULL;
  int64_t *d = arena_array(a, n, sizeof(int64_t));
  if (d) memcpy(d, v, n * sizeof(int64_t));
  return d;
}

/* ---- StrBuf ---- */

void sb_init(StrBuf *b) {
  b->data = NULL;
  b->len = b->cap = 0;
  b->oom = false;
}

void sb_free(StrBuf *b) {
  cxla_free(b->data);
  sb_init(b);
}

static bool sb_reserve(StrBuf *b, size_t extra) {
  if (b->oom) return false;
  if (b->len + extra + 1 <= b->cap) return true;
  size_t cap = b->cap ? b->cap : 64;
  while (cap < b->len + extra + 1) cap *= 2;
  char *d = cxla_realloc(b->data, cap);
  if (!d) {
    b->oom = true;
    return false;
  }
  b->data = d;
  b->cap = cap;
  return true;
}

void sb_putn(StrBuf *b, const char *s, size_t n) {
  if (!sb_reserve(b, n)) return;
  memcpy(b->data + b->len, s, n);
  b->len += n;
  b->data[b->len] = 0;
}

void sb_puts(StrBuf *b, const char *s) { sb_putn(b, s, strlen(s)); }

void sb_putc(StrBuf *b, char c) { sb_putn(b, &c, 1); }

void sb_put_i64(StrBuf *b, int64_t v) {
  char buf[24], *e = buf + sizeof buf, *p = e;
  uint64_t u = v < 0 ? 0 - (uint64_t)v : (uint64_t)v;
  do *--p = (char)('0' + u % 10);
  while (u /= 10);
  if (v < 0) *--p = '-';
  sb_putn(b, p, (size_t)(e - p));
}

/* Formats straight into the free space when it fits (one vsnprintf: the
 * printer's common case, most pieces being short), else reserves what the
 * first attempt measured and formats again. */
void sb_printf(StrBuf *b, const char *fmt, ...) {
  if (b->oom) return;
  va_list ap, ap2;
  va_start(ap, fmt);
  va_copy(ap2, ap);
  size_t room = b->cap > b->len ? b->cap - b->len : 0;
  int n = vsnprintf(room ? b->data + b->len : NULL, room, fmt, ap);
  va_end(ap);
  if (n >= 0 && (size_t)n < room) {
    b->len += (size_t)n;
  } else if (n >= 0 && sb_reserve(b, (size_t)n)) {
    vsnprintf(b->data + b->len, (size_t)n + 1, fmt, ap2);
    b->len += (size_t)n;
  } else if (room) {
    b->data[b->len] = 0; /* what a failed attempt wrote is not kept */
  }
  va_end(ap2);
}

char *sb_take(StrBuf *b) {
  if (b->oom) {
    sb_free(b);
    return NULL;
  }
  char *s = b->data;
  if (!s) s = cxla_strdup("");
  sb_init(b);
  return s;
}
