/* libFuzzer target for the StableHLO text reader and the importer.
 *
 * Parses the input as MLIR text; errors must be located ("fuzz:LINE:COL").
 * A tree that parses is printed in the canonical generic form and imported
 * into HLO; a module that imports is verified and printed. Any crash, hang,
 * leak or sanitizer report is a finding.
 *
 *   make fuzz
 *   build-fuzz/fuzz_stablehlo_text -max_total_time=300 -dict=fuzz/mlir.dict \
 *     corpus-dir tests/corpus/<case>/module.mlir...
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ir/ir.h"
#include "stablehlo/mlir.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  MlirModule *mm = NULL;
  cxla_status s = mlir_parse_text((const char *)data, size, "fuzz", &mm);
  if (s) {
    if (cxla_status_code_of(s) == CXLA_INVALID_ARGUMENT &&
        strncmp(cxla_status_message(s), "fuzz:", 5) != 0) {
      fprintf(stderr, "error without location: %s\n", cxla_status_message(s));
      abort();
    }
    cxla_status_free(s);
    return 0;
  }
  char *g = NULL;
  if (mlir_print_generic(mm, &g)) abort();
  cxla_free(g);
  HloModule *hm = NULL;
  s = shlo_import(mm, &hm);
  if (s) {
    if (cxla_status_code_of(s) == CXLA_INVALID_ARGUMENT &&
        strncmp(cxla_status_message(s), "fuzz", 4) != 0) {
      fprintf(stderr, "import error without location: %s\n", cxla_status_message(s));
      abort();
    }
    cxla_status_free(s);
  } else {
    cxla_status_free(cxla_module_verify(hm));
    char *t = NULL;
    cxla_status_free(cxla_module_print(hm, &t));
    cxla_free_string(t);
    module_destroy(hm);
  }
  mlir_module_free(mm);
  return 0;
}
