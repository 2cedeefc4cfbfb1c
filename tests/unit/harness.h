/* harness.h: a tiny test harness for cxla's C unit tests.
 *
 * A test file defines TEST(name) { ... } functions and lists them in
 * main via RUN(name). CHECK(cond) records a failure with file:line and goes
 * on; CHECK_OK(status) fails if the status is an error (printing it).
 * main returns test_summary(), which prints "N passed, M failed" for the
 * file's tests and returns non-zero if any failed. */
#ifndef CXLA_TEST_HARNESS_H
#define CXLA_TEST_HARNESS_H

#include <math.h>
#include <stdio.h>
#include <string.h>

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

#define RUN(name)                                                             \
  do {                                                                        \
    harness_current = #name;                                                  \
    int before_ = harness_failed_checks;                                      \
    name();                                                                   \
    if (harness_failed_checks == before_) harness_pass++;                     \
    else harness_fail++;                                                      \
  } while (0)

static inline int test_summary(const char *file) {
  printf("%s: %d passed, %d failed\n", file, harness_pass, harness_fail);
  return harness_fail != 0;
}

#endif
