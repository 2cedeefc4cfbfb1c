/* stablehlo.h: reading StableHLO (MLIR text or a portable artifact) into an
 * HLO module, and telling the input formats apart. */
#ifndef CXLA_STABLEHLO_H
#define CXLA_STABLEHLO_H

#include <stddef.h>

#include "ir/ir.h"

typedef enum ShloFormat {
  SHLO_FORMAT_HLO,      /* HLO text (HloModule ...), and anything unrecognised */
  SHLO_FORMAT_MLIR,     /* MLIR text: module / func.func / "builtin.module" ... */
  SHLO_FORMAT_BYTECODE, /* MLIR bytecode: starts with "ML\xEFR" */
} ShloFormat;

/* Chooses the reader by content: the bytecode magic, then the first word
 * after blanks and comments. */
ShloFormat shlo_detect_format(const char *data, size_t len);

/* Reads StableHLO text or a portable artifact and imports it as HLO. */
cxla_status shlo_module_parse(const char *data, size_t len, const char *filename,
                              HloModule **out);
/* The same, refining dynamic dimensions from the entry's argument shapes
 * (see cxla_module_parse_refined; nargs < 0: none given). */
cxla_status shlo_module_parse_refined(const char *data, size_t len, const char *filename,
                                      const cxla_arg_shape *args, int nargs, HloModule **out);

#endif
