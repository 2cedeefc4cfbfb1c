/* libFuzzer target for the verifier-as-gate rule: any module that verifies
 * runs in the reference interpreter without crashing, UB, leaks, hangs or
 * giant allocations (it may return an error status).
 *
 * Input: HLO text, optionally followed by a NUL byte and the bytes the
 * entry parameters are filled from (see fuzz/run_guard.h for the guards
 * that keep huge or endless programs out). A broken invariant aborts;
 * sanitizers report the rest.
 *
 *   make fuzz
 *   build-fuzz/fuzz_run -dict=fuzz/hlo.dict -max_total_time=300 -jobs=1 \
 *     -rss_limit_mb=2048 -malloc_limit_mb=256 -timeout=10 corpus-dir seeds...
 * Crashing inputs go to tests/fuzz-regressions/run-<name>.hlo, replayed by
 * tests/unit/test_run_fuzz_replay.c. */
#include <stdio.h>

#include "run_guard.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  const char *bug = NULL;
  if (run_guarded(data, size, &bug) == RG_BUG) {
    fprintf(stderr, "fuzz_run: %s\n", bug);
    abort();
  }
  return 0;
}
