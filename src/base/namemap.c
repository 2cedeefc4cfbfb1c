/* NameMap: an open-addressing (linear probing) hash table from borrowed
 * NUL-terminated strings to pointers, so that name lookups stay O(1) on
 * modules with hundreds of thousands of instructions. PtrIndex: the same from
 * pointers to ints. */
#include <stdint.h>
#include <string.h>

#include "base/base.h"

static uint64_t hash(const char *s, size_t n) {
  uint64_t h = 1469598103934665603ull; /* FNV-1a */
  for (size_t i = 0; i < n; i++) {
    h ^= (unsigned char)s[i];
    h *= 1099511628211ull;
  }
  return h;
}

void namemap_free(NameMap *m) {
  cxla_free(m->keys);
  cxla_free(m->vals);
  memset(m, 0, sizeof *m);
}

void namemap_clear(NameMap *m) {
  /* A big table is dropped rather than wiped, so that many small
   * computations after a huge one do not each pay for its size. */
  if (m->cap > 1024) {
    namemap_free(m);
    return;
  }
  if (m->cap) {
    memset(m->keys, 0, m->cap * sizeof *m->keys);
    memset(m->vals, 0, m->cap * sizeof *m->vals);
  }
  m->n = 0;
}

static bool key_eq(const char *key, const char *s, size_t n) {
  return strncmp(key, s, n) == 0 && key[n] == 0;
}

void *namemap_get(const NameMap *m, const char *s, size_t n) {
  if (!m->cap) return NULL;
  size_t mask = m->cap - 1;
  for (size_t i = hash(s, n) & mask;; i = (i + 1) & mask) {
    if (!m->keys[i]) return NULL;
    if (key_eq(m->keys[i], s, n)) return m->vals[i];
  }
}

static void insert(const char **keys, void **vals, size_t cap, const char *key, void *val) {
  size_t mask = cap - 1;
  size_t i = hash(key, strlen(key)) & mask;
  while (keys[i]) i = (i + 1) & mask;
  keys[i] = key;
  vals[i] = val;
}

bool namemap_put(NameMap *m, const char *key, void *val) {
  if ((m->n + 1) * 2 > m->cap) { /* keep the load factor under 1/2 */
    size_t nc = m->cap ? m->cap * 2 : 64;
    const char **nk = cxla_calloc(nc, sizeof *nk);
    void **nv = cxla_calloc(nc, sizeof *nv);
    if (!nk || !nv) {
      cxla_free(nk);
      cxla_free(nv);
      return false;
    }
    for (size_t i = 0; i < m->cap; i++)
      if (m->keys[i]) insert(nk, nv, nc, m->keys[i], m->vals[i]);
    cxla_free(m->keys);
    cxla_free(m->vals);
    m->keys = nk;
    m->vals = nv;
    m->cap = nc;
  }
  insert(m->keys, m->vals, m->cap, key, val);
  m->n++;
  return true;
}

bool namemap_set(NameMap *m, const char *key, void *val) {
  if (m->cap) {
    size_t mask = m->cap - 1;
    for (size_t i = hash(key, strlen(key)) & mask; m->keys[i]; i = (i + 1) & mask)
      if (strcmp(m->keys[i], key) == 0) {
        m->vals[i] = val;
        return true;
      }
  }
  return namemap_put(m, key, val);
}

/* ---- PtrIndex ---- */

static size_t ptr_hash(const void *p) {
  uint64_t h = (uint64_t)(uintptr_t)p;
  h ^= h >> 33;
  h *= 0xff51afd7ed558ccdull;
  h ^= h >> 33;
  return (size_t)h;
}

void ptrindex_free(PtrIndex *m) {
  cxla_free(m->keys);
  cxla_free(m->vals);
  memset(m, 0, sizeof *m);
}

int ptrindex_get(const PtrIndex *m, const void *key) {
  if (!m->cap) return -1;
  size_t mask = m->cap - 1;
  for (size_t i = ptr_hash(key) & mask; m->keys[i]; i = (i + 1) & mask)
    if (m->keys[i] == key) return m->vals[i];
  return -1;
}

bool ptrindex_set(PtrIndex *m, const void *key, int val) {
  if ((m->n + 1) * 2 > m->cap) {
    size_t nc = m->cap ? m->cap * 2 : 64;
    const void **nk = cxla_calloc(nc, sizeof *nk);
    int *nv = cxla_calloc(nc, sizeof *nv);
    if (!nk || !nv) {
      cxla_free(nk);
      cxla_free(nv);
      return false;
    }
    for (size_t i = 0; i < m->cap; i++) {
      if (!m->keys[i]) continue;
      size_t j = ptr_hash(m->keys[i]) & (nc - 1);
      while (nk[j]) j = (j + 1) & (nc - 1);
      nk[j] = m->keys[i];
      nv[j] = m->vals[i];
    }
    cxla_free(m->keys);
    cxla_free(m->vals);
    m->keys = nk;
    m->vals = nv;
    m->cap = nc;
  }
  size_t mask = m->cap - 1, i = ptr_hash(key) & mask;
  while (m->keys[i] && m->keys[i] != key) i = (i + 1) & mask;
  if (!m->keys[i]) m->n++;
  m->keys[i] = key;
  m->vals[i] = val;
  return true;
}
