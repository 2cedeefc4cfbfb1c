/* libFuzzer target for the HLO text reader and printer.
 *
 * Parses the input; if it parses, prints it, parses the printed text again
 * (which must succeed) and prints that too (which must give the same text).
 * Any crash, leak, sanitizer report or broken round trip is a finding.
 *
 *   make fuzz
 *   build-fuzz/fuzz_parse -max_total_time=300 -jobs=1 corpus-dir seed-dirs...
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cxla/cxla.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  cxla_module *m = NULL;
  cxla_status s = cxla_module_parse((const char *)data, size, "fuzz", &m);
  if (s) {
    /* Errors must carry a located message. */
    if (cxla_status_code_of(s) == CXLA_INVALID_ARGUMENT &&
        !strstr(cxla_status_message(s), "fuzz:"))
      abort();
    cxla_status_free(s);
    return 0;
  }
  char *t1 = NULL, *t2 = NULL;
  cxla_module *m2 = NULL;
  if (cxla_module_print(m, &t1)) abort();
  s = cxla_module_parse(t1, strlen(t1), "printed", &m2);
  if (s) {
    fprintf(stderr, "printed text does not parse: %s\n%s\n", cxla_status_message(s), t1);
    abort();
  }
  if (cxla_module_print(m2, &t2)) abort();
  if (strcmp(t1, t2) != 0) {
    fprintf(stderr, "round trip is not a fixed point:\n%s\n---\n%s\n", t1, t2);
    abort();
  }
  cxla_free_string(t1);
  cxla_free_string(t2);
  cxla_module_destroy(m);
  cxla_module_destroy(m2);
  return 0;
}
