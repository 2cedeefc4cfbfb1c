/* libFuzzer target for the .npy reader and writer (testing/npy.c).
 *
 * Writes the input to a scratch file and reads it as stored and as each
 * reinterpreting type (bf16, f16, f8, f4, s4, u2 ...); what reads must be a
 * well-formed literal, write back, and read back identical. Errors must be
 * statuses.
 *
 *   make fuzz
 *   build-fuzz/fuzz_npy -max_total_time=300 -jobs=1 corpus-dir seed-dirs...
 * Crashing inputs go to tests/fuzz-regressions/npy-<name>.npy, replayed by
 * tests/unit/test_data_fuzz_replay.c. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "data_checks.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  static char dir[64];
  if (!dir[0]) {
    snprintf(dir, sizeof dir, "/tmp/cxla_fuzz_npy.%d", (int)getpid());
    if (mkdir_p(dir)) abort();
  }
  const char *bug = check_npy(data, size, dir);
  if (bug) {
    fprintf(stderr, "fuzz_npy: %s\n", bug);
    abort();
  }
  return 0;
}
