/* The on-disk compile cache store; see disk_cache.h. */
#include "runtime/disk_cache.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "base/base.h"

#define MAGIC "CXLACCH1" /* 8 bytes */
#define HEADER_BYTES 32  /* magic, then three little-endian u64: version, length, checksum */
#define FORMAT_VERSION 1
#define SUFFIX ".cxc"

char *rt_disk_cache_dir(void) {
  const char *off = getenv("CXLA_CACHE");
  if (off && strcmp(off, "0") == 0) return NULL;
  const char *d = getenv("CXLA_CACHE_DIR");
  if (d && *d) return cxla_strdup(d);
  const char *x = getenv("XDG_CACHE_HOME");
  if (x && *x) return cxla_format("%s/cxla", x);
  const char *h = getenv("HOME");
  if (h && *h) return cxla_format("%s/.cache/cxla", h);
  return NULL;
}

int64_t rt_disk_cache_max_bytes(void) {
  const char *m = getenv("CXLA_CACHE_MAX_MB");
  if (m && *m) {
    char *end = NULL;
    long long v = strtoll(m, &end, 10);
    if (end && !*end && v > 0 && v < ((long long)1 << 40)) return (int64_t)v << 20;
  }
  return RT_DISK_CACHE_MAX_BYTES;
}

static uint64_t fnv1a(const void *p, size_t n) {
  const unsigned char *c = p;
  uint64_t h = 0xcbf29ce484222325ull;
  for (size_t i = 0; i < n; i++) h = (h ^ c[i]) * 0x100000001b3ull;
  return h;
}

static void put_u64(unsigned char *p, uint64_t v) {
  for (int i = 0; i < 8; i++) p[i] = (unsigned char)(v >> (8 * i));
}

static uint64_t get_u64(const unsigned char *p) {
  uint64_t v = 0;
  for (int i = 0; i < 8; i++) v |= (uint64_t)p[i] << (8 * i);
  return v;
}

static cxla_status check_key(const char *key) {
  size_t n = key ? strlen(key) : 0;
  if (n == 0 || n > 64 || strspn(key, "0123456789abcdefghijklmnopqrstuvwxyz"
                                      "ABCDEFGHIJKLMNOPQRSTUVWXYZ_-") != n)
    return ERR(INVALID_ARGUMENT, "bad cache key");
  return NULL;
}

/* Creates dir and its missing parents. */
static cxla_status make_dirs(const char *dir) {
  char *p = cxla_strdup(dir);
  if (!p) return cxla_oom();
  cxla_status s = NULL;
  for (char *q = p + 1;; q++) {
    bool end = *q == 0;
    if (*q == '/' || end) {
      *q = 0;
      if (mkdir(p, 0700) != 0 && errno != EEXIST) {
        s = ERR(IO, "cannot create %s: %s", p, strerror(errno));
        break;
      }
      if (end) break;
      *q = '/';
    }
  }
  cxla_free(p);
  return s;
}

static cxla_status read_all(int fd, void *buf, size_t n, size_t *got) {
  size_t off = 0;
  while (off < n) {
    ssize_t r = read(fd, (char *)buf + off, n - off);
    if (r < 0 && errno == EINTR) continue;
    if (r < 0) return ERR(IO, "read: %s", strerror(errno));
    if (r == 0) break;
    off += (size_t)r;
  }
  *got = off;
  return NULL;
}

static cxla_status write_all(int fd, const void *buf, size_t n) {
  size_t off = 0;
  while (off < n) {
    ssize_t w = write(fd, (const char *)buf + off, n - off);
    if (w < 0 && errno == EINTR) continue;
    if (w < 0) return ERR(IO, "write: %s", strerror(errno));
    off += (size_t)w;
  }
  return NULL;
}

cxla_status rt_disk_cache_get(const char *dir, const char *key, void **out, size_t *out_len) {
  *out = NULL;
  *out_len = 0;
  TRY(check_key(key));
  char *path = cxla_format("%s/%s" SUFFIX, dir, key);
  if (!path) return cxla_oom();
  int fd = open(path, O_RDONLY | O_CLOEXEC);
  if (fd < 0) {
    cxla_status s = errno == ENOENT ? ERR(NOT_FOUND, "no cache entry %s", key)
                                    : ERR(IO, "%s: %s", path, strerror(errno));
    cxla_free(path);
    return s;
  }
  unsigned char h[HEADER_BYTES];
  size_t got = 0;
  cxla_status s = read_all(fd, h, sizeof h, &got);
  void *data = NULL;
  uint64_t len = 0;
  struct stat st;
  if (!s && (got != sizeof h || memcmp(h, MAGIC, 8) != 0 || get_u64(h + 8) != FORMAT_VERSION))
    s = ERR(DATA_LOSS, "cache entry %s: bad header", key);
  if (!s && fstat(fd, &st) != 0) s = ERR(IO, "%s: %s", path, strerror(errno));
  if (!s) {
    len = get_u64(h + 16);
    if ((uint64_t)st.st_size != HEADER_BYTES + len)
      s = ERR(DATA_LOSS, "cache entry %s: %lld bytes, the header says %llu", key,
              (long long)st.st_size, (unsigned long long)(HEADER_BYTES + len));
  }
  if (!s && !(data = cxla_malloc((size_t)len + 1))) s = cxla_oom();
  if (!s) s = read_all(fd, data, (size_t)len, &got);
  if (!s && (got != len || fnv1a(data, (size_t)len) != get_u64(h + 24)))
    s = ERR(DATA_LOSS, "cache entry %s: checksum mismatch", key);
  close(fd);
  if (cxla_status_code_of(s) == CXLA_DATA_LOSS) unlink(path); /* never hand it out again */
  if (!s) utimensat(AT_FDCWD, path, NULL, 0); /* used now (least-recently-used order) */
  cxla_free(path);
  if (s) {
    cxla_free(data);
    return s;
  }
  *out = data;
  *out_len = (size_t)len;
  return NULL;
}

typedef struct Entry {
  char *path;
  int64_t bytes;
  struct timespec used;
} Entry;

static int older_first(const void *a, const void *b) {
  const Entry *x = a, *y = b;
  if (x->used.tv_sec != y->used.tv_sec) return x->used.tv_sec < y->used.tv_sec ? -1 : 1;
  if (x->used.tv_nsec != y->used.tv_nsec) return x->used.tv_nsec < y->used.tv_nsec ? -1 : 1;
  return strcmp(x->path, y->path);
}

/* Removes least recently used entries while the total exceeds max_bytes. */
static cxla_status evict(const char *dir, int64_t max_bytes) {
  DIR *d = opendir(dir);
  if (!d) return ERR(IO, "%s: %s", dir, strerror(errno));
  Entry *v = NULL;
  int n = 0, cap = 0;
  int64_t total = 0;
  cxla_status s = NULL;
  struct dirent *de;
  while (!s && (de = readdir(d))) {
    size_t l = strlen(de->d_name);
    if (l <= strlen(SUFFIX) || strcmp(de->d_name + l - strlen(SUFFIX), SUFFIX) != 0) continue;
    char *path = cxla_format("%s/%s", dir, de->d_name);
    struct stat st;
    if (!path) {
      s = cxla_oom();
    } else if (stat(path, &st) != 0) {
      cxla_free(path); /* removed meanwhile by another process */
    } else {
      if (n == cap) {
        cap = cap ? 2 * cap : 64;
        Entry *nv = cxla_realloc(v, (size_t)cap * sizeof *nv);
        if (!nv) {
          cxla_free(path);
          s = cxla_oom();
          break;
        }
        v = nv;
      }
      v[n++] = (Entry){path, (int64_t)st.st_size, st.st_mtim};
      total += (int64_t)st.st_size;
    }
  }
  closedir(d);
  if (!s && total > max_bytes) {
    qsort(v, (size_t)n, sizeof *v, older_first);
    for (int i = 0; i < n && total > max_bytes; i++)
      if (unlink(v[i].path) == 0 || errno == ENOENT) total -= v[i].bytes;
  }
  for (int i = 0; i < n; i++) cxla_free(v[i].path);
  cxla_free(v);
  return s;
}

cxla_status rt_disk_cache_put(const char *dir, const char *key, const void *data, size_t len,
                              int64_t max_bytes) {
  TRY(check_key(key));
  if (len && !data) return ERR(INVALID_ARGUMENT, "cache payload is NULL");
  TRY(make_dirs(dir));
  struct timespec now;
  clock_gettime(CLOCK_REALTIME, &now);
  char *tmp = cxla_format("%s/.%s.%ld.%ld.tmp", dir, key, (long)getpid(), (long)now.tv_nsec);
  char *path = cxla_format("%s/%s" SUFFIX, dir, key);
  cxla_status s = tmp && path ? NULL : cxla_oom();
  int fd = -1;
  if (!s && (fd = open(tmp, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600)) < 0)
    s = ERR(IO, "%s: %s", tmp, strerror(errno));
  if (!s) {
    unsigned char h[HEADER_BYTES];
    memcpy(h, MAGIC, 8);
    put_u64(h + 8, FORMAT_VERSION);
    put_u64(h + 16, (uint64_t)len);
    put_u64(h + 24, fnv1a(data, len));
    s = write_all(fd, h, sizeof h);
    if (!s) s = write_all(fd, data, len);
  }
  if (fd >= 0 && close(fd) != 0 && !s) s = ERR(IO, "%s: %s", tmp, strerror(errno));
  if (!s && rename(tmp, path) != 0) s = ERR(IO, "rename to %s: %s", path, strerror(errno));
  if (s && tmp) unlink(tmp);
  cxla_free(tmp);
  cxla_free(path);
  if (!s) s = evict(dir, max_bytes);
  return s;
}
