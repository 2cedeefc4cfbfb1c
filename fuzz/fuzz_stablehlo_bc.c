/* libFuzzer target for the StableHLO portable-artifact reader (MLIR bytecode
 * of the VHLO dialect: src/stablehlo/bytecode.c, vhlo_attrs.c,
 * vhlo_to_mlir.c) and the importer behind it. Each input is read; a tree
 * that comes back must print and go through the importer and verifier
 * without a crash; a read error must be a status with the byte offset
 * (fuzz/bc_checks.h).
 *
 *   make fuzz && sh fuzz/make_seeds.sh OUT
 *   build-fuzz/fuzz_stablehlo_bc -max_total_time=600 -rss_limit_mb=2048 -timeout=10 \
 *     OUT/work-bc OUT/mlirbc
 * Crashing inputs go to tests/fuzz-regressions/bc-<name>.mlirbc, replayed by
 * tests/unit/test_stablehlo_bc.c (fuzz_replay_and_corpus). */
#include <stdio.h>
#include <stdlib.h>

#include "bc_checks.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  const char *bug = check_stablehlo_bc(data, size);
  if (bug) {
    fprintf(stderr, "fuzz_stablehlo_bc: %s\n", bug);
    abort();
  }
  return 0;
}
