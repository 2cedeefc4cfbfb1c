/* math_oom.h: an allocation-failure sweep for the math evaluators' unit
 * tests (test_dot/conv/fft/linalg.c). Include after harness.h. */
#ifndef CXLA_TEST_MATH_OOM_H
#define CXLA_TEST_MATH_OOM_H

#include "base/base.h"

/* Runs `call` (an expression yielding cxla_status that stores its result in
 * the Literal pointer `res`) with the k-th allocation failing, for k = 1, 2,
 * ... until it succeeds: every failure must be a clean out-of-memory status
 * with no result (ASan reports any leak). Evaluates to the number of
 * failing runs via `count`. */
#define OOM_SWEEP(res, call, count)                                            \
  do {                                                                         \
    count = 0;                                                                 \
    for (long k_ = 1; k_ < 100000; k_++) {                                     \
      res = NULL;                                                              \
      cxla_fail_alloc_at(k_);                                                  \
      cxla_status s_ = (call);                                                 \
      cxla_fail_alloc_at(0);                                                   \
      if (!s_) {                                                               \
        literal_free(res);                                                     \
        break;                                                                 \
      }                                                                        \
      count++;                                                                 \
      CHECK(cxla_status_code_of(s_) == CXLA_RESOURCE_EXHAUSTED);               \
      CHECK(res == NULL);                                                      \
      cxla_status_free(s_);                                                    \
    }                                                                          \
  } while (0)

#endif
