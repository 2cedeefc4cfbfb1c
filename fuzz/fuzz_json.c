/* libFuzzer target for the strict JSON parser (testing/json.c) and the
 * case.json loader built on it (testing/case.c).
 *
 * Parses the input; errors must be located INVALID_ARGUMENT statuses
 * ("fuzz:line:col: ..."). A parsed document is walked completely (every
 * item and key present, nesting within JSON_MAX_DEPTH, string lengths
 * consistent). Every input is also written as case.json into a scratch
 * directory and loaded with case_load, whose checks must hold for what it
 * accepts (ranks and dims non-negative, dtypes known, tolerances finite).
 *
 *   make fuzz
 *   build-fuzz/fuzz_json -max_total_time=300 -jobs=1 corpus-dir seed-dirs...
 * Crashing inputs go to tests/fuzz-regressions/json-<name>.json, replayed by
 * tests/unit/test_data_fuzz_replay.c. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "data_checks.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  static char dir[64];
  if (!dir[0]) {
    snprintf(dir, sizeof dir, "/tmp/cxla_fuzz_json.%d", (int)getpid());
    if (mkdir_p(dir)) abort();
  }
  const char *bug = check_json(data, size, dir);
  if (bug) {
    fprintf(stderr, "fuzz_json: %s\n", bug);
    abort();
  }
  return 0;
}
