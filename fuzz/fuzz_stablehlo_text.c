/* libFuzzer target for the StableHLO text reader and the importer.
 *
 * Parses the input as MLIR text; errors must be located ("fuzz:LINE:COL").
 * A tree that parses is printed in the canonical generic form and imported
 * into HLO; a module that imports is verified and printed; then imported
 * again refined to shapes for its first function ("?" = 3). Any crash, hang,
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

/* An import error must be located ("fuzz..."); frees s. */
static void check_import_error(cxla_status s, const char *what) {
  if (cxla_status_code_of(s) == CXLA_INVALID_ARGUMENT &&
      strncmp(cxla_status_message(s), "fuzz", 4) != 0) {
    fprintf(stderr, "%s error without location: %s\n", what, cxla_status_message(s));
    abort();
  }
  cxla_status_free(s);
}

/* Shape refinement: the first function's parameters, "?" dimensions 3. */
static void import_refined(MlirModule *mm) {
  const MlirOp *top = mm->op;
  if (!top || top->nregions != 1 || top->regions[0].nblocks != 1) return;
  const MlirBlock *b = top->regions[0].blocks[0];
  const MlirOp *fn = NULL;
  for (int k = 0; k < b->nops && !fn; k++)
    if (!strcmp(b->ops[k]->name, "func.func")) fn = b->ops[k];
  if (!fn || fn->nregions != 1 || fn->regions[0].nblocks != 1) return;
  const MlirBlock *eb = fn->regions[0].blocks[0];
  enum { MAXA = 16, MAXR = 8 };
  cxla_arg_shape sh[MAXA];
  int64_t dims[MAXA][MAXR];
  int n = eb->nargs < MAXA ? eb->nargs : MAXA;
  for (int k = 0; k < n; k++) {
    const MlirType *t = eb->args[k].type;
    int r = t && t->kind == MLT_TENSOR && t->rank <= MAXR ? t->rank : 0;
    for (int d = 0; d < r; d++) dims[k][d] = t->dims[d] == MLIR_DYNAMIC ? 3 : t->dims[d];
    sh[k] = (cxla_arg_shape){r, dims[k]};
  }
  HloModule *hm = NULL;
  cxla_status s = shlo_import_refined(mm, sh, n, &hm);
  if (s) {
    check_import_error(s, "refined import");
    return;
  }
  cxla_status_free(cxla_module_verify(hm));
  module_destroy(hm);
}

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
    check_import_error(s, "import");
  } else {
    cxla_status_free(cxla_module_verify(hm));
    char *t = NULL;
    cxla_status_free(cxla_module_print(hm, &t));
    cxla_free_string(t);
    module_destroy(hm);
  }
  import_refined(mm);
  mlir_module_free(mm);
  return 0;
}
