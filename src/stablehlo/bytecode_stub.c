/* Placeholder for the portable-artifact (VHLO bytecode) reader, which lives
 * on its own branch (shlo-bc): that branch deletes this file and defines
 * mlir_parse_bytecode in src/stablehlo/bytecode*.c. */
#include "stablehlo/mlir.h"

cxla_status mlir_parse_bytecode(const uint8_t *data, size_t len, const char *filename,
                                MlirModule **out) {
  (void)data;
  (void)len;
  *out = NULL;
  return ERR(UNIMPLEMENTED, "%s: StableHLO portable artifacts (MLIR bytecode) are not "
                            "supported in this build", filename ? filename : "<input>");
}
