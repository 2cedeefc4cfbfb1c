/* StableHLO input: format detection and the parse -> import entry point. */
#include <string.h>

#include "stablehlo/mlir.h"
#include "stablehlo/stablehlo.h"

static bool starts(const char *p, size_t n, const char *w) {
  size_t l = strlen(w);
  return n >= l && memcmp(p, w, l) == 0;
}

ShloFormat shlo_detect_format(const char *data, size_t len) {
  if (mlir_is_bytecode(data, len)) return SHLO_FORMAT_BYTECODE;
  size_t i = 0;
  if (starts(data, len, "\xEF\xBB\xBF")) i = 3;
  for (;;) {
    while (i < len && (data[i] == ' ' || data[i] == '\t' || data[i] == '\n' || data[i] == '\r'))
      i++;
    if (i + 1 < len && data[i] == '/' && data[i + 1] == '/') {
      while (i < len && data[i] != '\n') i++;
      continue;
    }
    break;
  }
  const char *p = data + i;
  size_t n = len - i;
  static const char *const mlir_starts[] = {"module", "func.func", "\"builtin.module\"",
                                            "\"func.func\"", "#", "!", "{-#", NULL};
  for (int k = 0; mlir_starts[k]; k++)
    if (starts(p, n, mlir_starts[k])) return SHLO_FORMAT_MLIR;
  return SHLO_FORMAT_HLO;
}

cxla_status shlo_module_parse(const char *data, size_t len, const char *filename,
                              HloModule **out) {
  return shlo_module_parse_refined(data, len, filename, NULL, -1, out);
}

cxla_status shlo_module_parse_refined(const char *data, size_t len, const char *filename,
                                      const cxla_arg_shape *args, int nargs, HloModule **out) {
  *out = NULL;
  MlirModule *mm = NULL;
  cxla_status st;
  if (shlo_detect_format(data, len) == SHLO_FORMAT_BYTECODE)
    st = mlir_parse_bytecode((const uint8_t *)data, len, filename, &mm);
  else
    st = mlir_parse_text(data, len, filename, &mm);
  if (st) return st;
  st = shlo_import_refined(mm, args, nargs, out);
  mlir_module_free(mm);
  return st;
}
