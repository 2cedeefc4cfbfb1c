/* The on-disk compile cache store (src/runtime/disk_cache.h): where it
 * lives, round trips, misses, damaged entries (a flipped byte, a truncated
 * file, a bad header: DATA_LOSS, removed, never handed out), replacement,
 * least-recently-used eviction under a size bound, and several processes
 * writing and reading one key at once. */
#include <dirent.h>
#include <fcntl.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "harness.h"
#include "runtime/disk_cache.h"

#include "base/base.h"

static char dir[128];

static char *entry_path(const char *key) { return cxla_format("%s/%s.cxc", dir, key); }

static bool exists(const char *key) {
  char *p = entry_path(key);
  struct stat st;
  bool e = p && stat(p, &st) == 0;
  cxla_free(p);
  return e;
}

static cxla_status_code get_code(const char *key, void **data, size_t *len) {
  cxla_status s = rt_disk_cache_get(dir, key, data, len);
  cxla_status_code c = cxla_status_code_of(s);
  cxla_status_free(s);
  return c;
}

TEST(where_it_lives) {
  const char *names[] = {"CXLA_CACHE", "CXLA_CACHE_DIR", "XDG_CACHE_HOME", "HOME",
                         "CXLA_CACHE_MAX_MB"};
  char *saved[5];
  for (int i = 0; i < 5; i++) {
    const char *v = getenv(names[i]);
    saved[i] = v ? cxla_strdup(v) : NULL;
    unsetenv(names[i]);
  }
  setenv("HOME", "/home/u", 1);
  char *d = rt_disk_cache_dir();
  CHECK(d && strcmp(d, "/home/u/.cache/cxla") == 0);
  cxla_free(d);
  setenv("XDG_CACHE_HOME", "/x", 1);
  d = rt_disk_cache_dir();
  CHECK(d && strcmp(d, "/x/cxla") == 0);
  cxla_free(d);
  setenv("CXLA_CACHE_DIR", "/somewhere/else", 1);
  d = rt_disk_cache_dir();
  CHECK(d && strcmp(d, "/somewhere/else") == 0);
  cxla_free(d);
  setenv("CXLA_CACHE", "0", 1);
  CHECK(rt_disk_cache_dir() == NULL);
  unsetenv("CXLA_CACHE");
  unsetenv("CXLA_CACHE_DIR");
  unsetenv("XDG_CACHE_HOME");
  unsetenv("HOME");
  CHECK(rt_disk_cache_dir() == NULL);
  CHECK(rt_disk_cache_max_bytes() == RT_DISK_CACHE_MAX_BYTES);
  setenv("CXLA_CACHE_MAX_MB", "3", 1);
  CHECK(rt_disk_cache_max_bytes() == 3 << 20);
  setenv("CXLA_CACHE_MAX_MB", "x", 1);
  CHECK(rt_disk_cache_max_bytes() == RT_DISK_CACHE_MAX_BYTES);
  for (int i = 0; i < 5; i++) {
    if (saved[i]) setenv(names[i], saved[i], 1);
    else unsetenv(names[i]);
    cxla_free(saved[i]);
  }
}

TEST(round_trip_and_miss) {
  const char payload[] = "object code, or anything";
  CHECK_OK(rt_disk_cache_put(dir, "abc123", payload, sizeof payload, 1 << 20));
  void *data = NULL;
  size_t len = 0;
  CHECK_OK(rt_disk_cache_get(dir, "abc123", &data, &len));
  CHECK(data && len == sizeof payload && memcmp(data, payload, len) == 0);
  cxla_free(data);
  CHECK(get_code("nothere", &data, &len) == CXLA_NOT_FOUND && data == NULL);
  CHECK(get_code("../etc/x", &data, &len) == CXLA_INVALID_ARGUMENT);
  cxla_status s = rt_disk_cache_put(dir, "a/b", payload, 1, 1 << 20);
  CHECK(cxla_status_code_of(s) == CXLA_INVALID_ARGUMENT);
  cxla_status_free(s);
  /* empty payloads are entries too; a put replaces */
  CHECK_OK(rt_disk_cache_put(dir, "empty", "", 0, 1 << 20));
  CHECK_OK(rt_disk_cache_get(dir, "empty", &data, &len));
  CHECK(len == 0);
  cxla_free(data);
  CHECK_OK(rt_disk_cache_put(dir, "abc123", "new", 3, 1 << 20));
  CHECK_OK(rt_disk_cache_get(dir, "abc123", &data, &len));
  CHECK(len == 3 && memcmp(data, "new", 3) == 0);
  cxla_free(data);
  /* the directory is made as needed, with its parents */
  char deep[128];
  snprintf(deep, sizeof deep, "%.100s/a/b/c", dir);
  CHECK_OK(rt_disk_cache_put(deep, "k", "v", 1, 1 << 20));
  CHECK_OK(rt_disk_cache_get(deep, "k", &data, &len));
  CHECK(len == 1);
  cxla_free(data);
}

/* Rewrites byte `at` of the entry (or truncates it to `at` bytes). */
static void damage(const char *key, long at, bool truncate_it) {
  char *p = entry_path(key);
  if (truncate_it) {
    CHECK(truncate(p, at) == 0);
  } else {
    int fd = open(p, O_RDWR);
    unsigned char c = 0;
    CHECK(fd >= 0 && pread(fd, &c, 1, at) == 1);
    c ^= 0x5a;
    CHECK(pwrite(fd, &c, 1, at) == 1);
    close(fd);
  }
  cxla_free(p);
}

TEST(damaged_entries) {
  char payload[1000];
  for (int i = 0; i < 1000; i++) payload[i] = (char)(i * 7);
  struct {
    long at;
    bool truncate_it;
  } cases[] = {{32 + 500, false}, {32 + 999, false}, {0, false}, {9, false},
               {32 + 400, true}, {10, true}, {0, true}};
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
    CHECK_OK(rt_disk_cache_put(dir, "dmg", payload, sizeof payload, 1 << 20));
    damage("dmg", cases[i].at, cases[i].truncate_it);
    void *data = NULL;
    size_t len = 0;
    CHECK(get_code("dmg", &data, &len) == CXLA_DATA_LOSS);
    CHECK(data == NULL);
    CHECK(!exists("dmg")); /* removed: the next compile stores a good one */
    CHECK(get_code("dmg", &data, &len) == CXLA_NOT_FOUND);
  }
}

static void set_used(const char *key, time_t when) {
  char *p = entry_path(key);
  struct timespec t[2] = {{when, 0}, {when, 0}};
  CHECK(utimensat(AT_FDCWD, p, t, 0) == 0);
  cxla_free(p);
}

TEST(least_recently_used_evicted) {
  char sub[sizeof dir - 8];
  snprintf(sub, sizeof sub, "%.100s/lru", dir);
  char payload[968]; /* + 32-byte header: 1000 bytes an entry */
  memset(payload, 1, sizeof payload);
  char *save = cxla_strdup(dir);
  snprintf(dir, sizeof dir, "%s", sub);
  CHECK_OK(rt_disk_cache_put(dir, "a", payload, sizeof payload, 3000));
  CHECK_OK(rt_disk_cache_put(dir, "b", payload, sizeof payload, 3000));
  CHECK_OK(rt_disk_cache_put(dir, "c", payload, sizeof payload, 3000));
  set_used("a", 1000000);
  set_used("b", 2000000);
  set_used("c", 3000000);
  void *data = NULL;
  size_t len = 0;
  CHECK_OK(rt_disk_cache_get(dir, "a", &data, &len)); /* a: used now */
  cxla_free(data);
  CHECK_OK(rt_disk_cache_put(dir, "d", payload, sizeof payload, 3000));
  CHECK(exists("a") && !exists("b") && exists("c") && exists("d"));
  /* a tighter bound takes more, oldest first */
  CHECK_OK(rt_disk_cache_put(dir, "e", payload, sizeof payload, 2000));
  CHECK(!exists("c") && exists("e"));
  snprintf(dir, sizeof dir, "%s", save);
  cxla_free(save);
}

/* Four processes write and read one key at once: every read is whole and
 * intact (one writer's payload), never DATA_LOSS; no temporaries remain. */
TEST(concurrent_processes) {
  enum { NPROC = 4, ROUNDS = 40, SIZE = 65536 };
  pid_t pids[NPROC];
  for (int p = 0; p < NPROC; p++) {
    pids[p] = fork();
    if (pids[p] == 0) {
      unsigned char *buf = malloc(SIZE);
      int bad = 0;
      for (int r = 0; r < ROUNDS; r++) {
        memset(buf, 'A' + p, SIZE);
        cxla_status s = rt_disk_cache_put(dir, "shared", buf, SIZE, 1 << 24);
        if (s) bad++;
        cxla_status_free(s);
        void *data = NULL;
        size_t len = 0;
        s = rt_disk_cache_get(dir, "shared", &data, &len);
        if (s || len != SIZE) {
          bad++;
        } else {
          unsigned char *d = data;
          for (size_t i = 1; i < len; i++)
            if (d[i] != d[0]) {
              bad++;
              break;
            }
          if (d[0] < 'A' || d[0] >= 'A' + NPROC) bad++;
        }
        cxla_status_free(s);
        cxla_free(data);
      }
      free(buf);
      _exit(bad ? 1 : 0);
    }
  }
  for (int p = 0; p < NPROC; p++) {
    int st = 0;
    CHECK(pids[p] > 0 && waitpid(pids[p], &st, 0) == pids[p]);
    CHECK(WIFEXITED(st) && WEXITSTATUS(st) == 0);
  }
  DIR *d = opendir(dir);
  int tmps = 0;
  struct dirent *de;
  while (d && (de = readdir(d)))
    if (strstr(de->d_name, ".tmp")) tmps++;
  if (d) closedir(d);
  CHECK(tmps == 0);
}

int main(void) {
  snprintf(dir, sizeof dir, "/tmp/cxla_disk_cache_XXXXXX");
  if (!mkdtemp(dir)) {
    perror("mkdtemp");
    return 1;
  }
  RUN(where_it_lives);
  RUN(round_trip_and_miss);
  RUN(damaged_entries);
  RUN(least_recently_used_evicted);
  RUN(concurrent_processes);
  char cmd[128];
  snprintf(cmd, sizeof cmd, "rm -rf %.100s", dir);
  if (system(cmd) != 0) fprintf(stderr, "could not remove %s\n", dir);
  return test_summary("test_disk_cache");
}
