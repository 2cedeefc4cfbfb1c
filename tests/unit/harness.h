/* harness.h: a tiny test harness for cxla's C unit tests.
 *
 * A test file defines TEST(name) { ... } functions and lists them in
 * main via RUN(name). CHECK(cond) records a failure with file:line and goes
 * on; CHECK_OK(status) fails if the status is an error (printing it).
 * A test whose data is missing calls SKIP(...) and returns: it counts as
 * skipped, never as passed. main returns test_summary(), which prints
 * "N passed, M failed[, K skipped]" for the file's tests and returns
 * non-zero if any failed. */
#ifndef CXLA_TEST_HARNESS_H
#define CXLA_TEST_HARNESS_H

#include <math.h>
#include <stdbool.h>
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cxla/cxla.h"

static int harness_failed_checks, harness_pass, harness_fail;
static const char *harness_current;

#define TEST(name) static void name(void)

#define CHECK(cond)                                                           \
  do {                                                                        \
    if (!(cond)) {                                                            \
      harness_failed_checks++;                                                \
      fprintf(stderr, "%s:%d: %s: CHECK failed: %s\n", __FILE__, __LINE__,    \
              harness_current, #cond);                                        \
    }                                                                         \
  } while (0)

#define CHECK_OK(expr)                                                        \
  do {                                                                        \
    cxla_status check_s_ = (expr);                                            \
    if (check_s_) {                                                           \
      harness_failed_checks++;                                                \
      fprintf(stderr, "%s:%d: %s: unexpected error: %s\n", __FILE__,          \
              __LINE__, harness_current, cxla_status_message(check_s_));      \
      cxla_status_free(check_s_);                                             \
    }                                                                         \
  } while (0)

/* Expects an error whose message contains `needle`. */
#define CHECK_ERR(expr, needle)                                               \
  do {                                                                        \
    cxla_status check_s_ = (expr);                                            \
    if (!check_s_) {                                                          \
      harness_failed_checks++;                                                \
      fprintf(stderr, "%s:%d: %s: expected an error containing \"%s\"\n",     \
              __FILE__, __LINE__, harness_current, needle);                   \
    } else if (!strstr(cxla_status_message(check_s_), needle)) {              \
      harness_failed_checks++;                                                \
      fprintf(stderr, "%s:%d: %s: error \"%s\" lacks \"%s\"\n", __FILE__,     \
              __LINE__, harness_current, cxla_status_message(check_s_),       \
              needle);                                                        \
    }                                                                         \
    cxla_status_free(check_s_);                                               \
  } while (0)

/* Marks the running test as skipped (its data is missing): it counts as
 * skipped, never as passed, unless a check also failed. Prints the reason.
 * The caller returns. */
static bool harness_skipping;
#define SKIP(...)                                                             \
  do {                                                                        \
    printf("  %s: skipped: ", harness_current);                               \
    printf(__VA_ARGS__);                                                      \
    printf("\n");                                                             \
    harness_skipping = true;                                                  \
  } while (0)

static int harness_skip;

/* Tests never use the user's compile cache on disk: unless the caller
 * named a directory (tests/run.sh makes a fresh one), CXLA_CACHE_DIR is a
 * temporary directory of this process, removed (with its entries) when
 * the process that made it exits. Runs before main. */
static char harness_cache_dir[64];
static pid_t harness_cache_pid;

static void harness_remove_cache(void) {
  if (getpid() != harness_cache_pid) return; /* a forked child */
  DIR *d = opendir(harness_cache_dir);
  struct dirent *de;
  while (d && (de = readdir(d))) {
    if (strcmp(de->d_name, ".") == 0 || strcmp(de->d_name, "..") == 0) continue;
    char path[sizeof harness_cache_dir + 300];
    snprintf(path, sizeof path, "%s/%s", harness_cache_dir, de->d_name);
    unlink(path);
  }
  if (d) closedir(d);
  rmdir(harness_cache_dir);
}

__attribute__((constructor)) static void harness_no_user_cache(void) {
  const char *d = getenv("CXLA_CACHE_DIR");
  if (d && *d) return;
  snprintf(harness_cache_dir, sizeof harness_cache_dir, "/tmp/cxla_test_cache.XXXXXX");
  if (!mkdtemp(harness_cache_dir)) {
    setenv("CXLA_CACHE", "0", 0); /* no directory: no disk cache */
    return;
  }
  harness_cache_pid = getpid();
  setenv("CXLA_CACHE_DIR", harness_cache_dir, 1);
  atexit(harness_remove_cache);
}

#define RUN(name)                                                             \
  do {                                                                        \
    harness_current = #name;                                                  \
    harness_skipping = false;                                                 \
    int before_ = harness_failed_checks;                                      \
    name();                                                                   \
    if (harness_failed_checks != before_) harness_fail++;                     \
    else if (harness_skipping) harness_skip++;                                \
    else harness_pass++;                                                      \
  } while (0)

/* Prints "FILE: N passed, M failed[, K skipped]" (the line tests/run.sh
 * counts). */
static inline int test_summary(const char *file) {
  if (harness_skip)
    printf("%s: %d passed, %d failed, %d skipped\n", file, harness_pass, harness_fail,
           harness_skip);
  else
    printf("%s: %d passed, %d failed\n", file, harness_pass, harness_fail);
  return harness_fail != 0;
}

#endif
