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
  cxla_free(m->hs);
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

/* The slot of the key s (n bytes) of hash h, or the empty slot where it
 * would go; the table has a free slot (load under 1/2). */
static size_t find(const NameMap *m, uint64_t h, const char *s, size_t n) {
  size_t mask = m->cap - 1;
  size_t i = h & mask;
  for (; m->keys[i]; i = (i + 1) & mask)
    if (m->hs[i] == h && key_eq(m->keys[i], s, n)) break;
  return i;
}

void *namemap_get(const NameMap *m, const char *s, size_t n) {
  if (!m->cap) return NULL;
  return m->vals[find(m, hash(s, n), s, n)];
}

/* Rebuilds the table at nc slots (a power of two above 2 n), moving the
 * keys by their kept hashes. */
static bool grow(NameMap *m, size_t nc) {
  const char **nk = cxla_calloc(nc, sizeof *nk);
  void **nv = cxla_calloc(nc, sizeof *nv);
  uint64_t *nh = cxla_malloc(nc * sizeof *nh);
  if (!nk || !nv || !nh) {
    cxla_free(nk);
    cxla_free(nv);
    cxla_free(nh);
    return false;
  }
  for (size_t i = 0; i < m->cap; i++) {
    if (!m->keys[i]) continue;
    size_t j = m->hs[i] & (nc - 1);
    while (nk[j]) j = (j + 1) & (nc - 1);
    nk[j] = m->keys[i];
    nv[j] = m->vals[i];
    nh[j] = m->hs[i];
  }
  cxla_free(m->keys);
  cxla_free(m->vals);
  cxla_free(m->hs);
  m->keys = nk;
  m->vals = nv;
  m->hs = nh;
  m->cap = nc;
  return true;
}

bool namemap_reserve(NameMap *m, size_t n) {
  size_t nc = m->cap ? m->cap : 64;
  while ((n + 1) * 2 > nc) nc *= 2;
  return nc == m->cap || grow(m, nc);
}

/* Inserts key of hash h, absent from m, at the first free slot of its
 * probe sequence (comparing no keys). */
static bool insert_at(NameMap *m, uint64_t h, const char *key, void *val) {
  if ((m->n + 1) * 2 > m->cap) { /* keep the load factor under 1/2 */
    if (!grow(m, m->cap ? m->cap * 2 : 64)) return false;
  }
  size_t mask = m->cap - 1, i = h & mask;
  while (m->keys[i]) i = (i + 1) & mask;
  m->keys[i] = key;
  m->vals[i] = val;
  m->hs[i] = h;
  m->n++;
  return true;
}

bool namemap_put(NameMap *m, const char *key, void *val) {
  return insert_at(m, hash(key, strlen(key)), key, val);
}

bool namemap_put_first(NameMap *m, const char *key, void *val, bool *found) {
  size_t len = strlen(key);
  uint64_t h = hash(key, len);
  *found = false;
  if (m->cap && m->keys[find(m, h, key, len)]) {
    *found = true;
    return true;
  }
  return insert_at(m, h, key, val);
}

bool namemap_set(NameMap *m, const char *key, void *val) {
  size_t len = strlen(key);
  uint64_t h = hash(key, len);
  if (m->cap) {
    size_t i = find(m, h, key, len);
    if (m->keys[i]) {
      m->vals[i] = val;
      return true;
    }
  }
  return insert_at(m, h, key, val);
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
