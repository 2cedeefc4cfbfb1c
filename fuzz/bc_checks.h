/* bc_checks.h: what the StableHLO bytecode fuzzer (fuzz/fuzz_stablehlo_bc.c)
 * checks on one input, shared with its CI replay
 * (tests/unit/test_stablehlo_bc.c) so both judge an input alike.
 * Returns NULL when the input was handled correctly: read into a tree that
 * prints (and that the importer turns into HLO and the verifier checks, or
 * refuses with a status), or refused with an INVALID_ARGUMENT/UNIMPLEMENTED/
 * RESOURCE_EXHAUSTED status whose message gives the byte offset; otherwise a
 * static description of the broken invariant. Sanitizers report the rest. */
#ifndef CXLA_FUZZ_BC_CHECKS_H
#define CXLA_FUZZ_BC_CHECKS_H

#include <string.h>

#include "stablehlo/mlir.h"

static inline const char *check_stablehlo_bc(const uint8_t *data, size_t size) {
  MlirModule *m = NULL;
  cxla_status s = mlir_parse_bytecode(data, size, "fuzz.mlirbc", &m);
  const char *bug = NULL;
  if (s) {
    cxla_status_code code = cxla_status_code_of(s);
    if (m) bug = "a module was returned with an error";
    else if (code != CXLA_INVALID_ARGUMENT && code != CXLA_UNIMPLEMENTED && code != CXLA_RESOURCE_EXHAUSTED)
      bug = "unexpected status code";
    else if (code != CXLA_RESOURCE_EXHAUSTED && !strstr(cxla_status_message(s), "byte "))
      bug = "error message without a byte offset";
    cxla_status_free(s);
    return bug;
  }
  if (!m || !m->op) return "no module returned";
  char *text = NULL;
  cxla_status ps = mlir_print_generic(m, &text);
  if (ps) bug = "the tree read does not print";
  cxla_status_free(ps);
  cxla_free(text);
  struct cxla_module *hlo = NULL;
  cxla_status is = shlo_import(m, &hlo);
  if (!is) cxla_status_free(cxla_module_verify(hlo));
  else if (hlo) bug = "the importer returned a module with an error";
  cxla_status_free(is);
  cxla_module_destroy(hlo);
  mlir_module_free(m);
  return bug;
}

#endif
