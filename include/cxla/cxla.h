/* cxla.h: the public C API of cxla, an HLO compiler and runtime.
 *
 * Handles are opaque. Every fallible function returns a cxla_status (NULL on
 * success, see cxla/status.h) and writes its results through out_*
 * parameters, which it sets to NULL (or 0) on entry.
 *
 * Ownership: an object returned through out_* by a *_create, *_parse, *_read
 * or *_run function belongs to the caller, who releases it with the matching
 * *_destroy (or cxla_free_string for strings). Pointers returned by accessors
 * (names, dims, data) belong to the object they came from and live as long
 * as it does. No function keeps a pointer to its caller's arguments after it
 * returns. */
#ifndef CXLA_CXLA_H
#define CXLA_CXLA_H

#include <stddef.h>
#include <stdint.h>

#include "cxla/status.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The library's version (also part of executable fingerprints). */
#define CXLA_VERSION "0.2.0"

/* ---- element types ---------------------------------------------------------- */

typedef enum cxla_type {
#define TY(E, name, bytes, bits, kind) CXLA_##E,
#include "cxla/types.def"
#undef TY
  CXLA_TYPE_COUNT
} cxla_type;

/* HLO's name of a type ("f32", "bf16", "pred"); "?" when out of range. */
CXLA_API const char *cxla_type_name(cxla_type t);
/* Bytes per element in a literal's data (see cxla_literal_data). */
CXLA_API int cxla_type_size(cxla_type t);

/* ---- literals: dense arrays and tuples of them --------------------------------- */

typedef struct cxla_literal cxla_literal;

/* A zero-filled array. Data is logical row-major (last dimension fastest). */
CXLA_API cxla_status cxla_literal_create(cxla_type t, int rank, const int64_t *dims,
                                cxla_literal **out);
CXLA_API void cxla_literal_destroy(cxla_literal *l);
CXLA_API cxla_type cxla_literal_type(const cxla_literal *l); /* CXLA_TUPLE for tuples */
CXLA_API int cxla_literal_rank(const cxla_literal *l);
CXLA_API const int64_t *cxla_literal_dims(const cxla_literal *l);
CXLA_API int64_t cxla_literal_elements(const cxla_literal *l);
/* The element storage: cxla_literal_elements * cxla_type_size bytes. pred is
 * one byte 0/1; s4/u4/s2/u2 one byte per element; bf16, f16 and the f8 types
 * raw bits; c64 (float re, float im) pairs. NULL for tuples. */
CXLA_API void *cxla_literal_data(cxla_literal *l);
CXLA_API int cxla_literal_tuple_size(const cxla_literal *l);
/* The i-th element of a tuple; owned by the tuple. */
CXLA_API cxla_literal *cxla_literal_tuple_get(cxla_literal *l, int i);

/* ---- modules ---------------------------------------------------------------------------- */

typedef struct cxla_module cxla_module;

/* Parses a module: HLO text, StableHLO text (MLIR, as jax.jit(f).lower().
 * as_text() prints it) or a StableHLO portable artifact (MLIR bytecode),
 * chosen by content (the bytecode magic "ML\xEFR"; "module", "func.func",
 * "#alias"... for MLIR text; anything else is read as HLO). StableHLO is
 * imported into HLO. `filename` is used in error messages only (may be
 * NULL). Errors carry "file:line:col: message" (bytecode: the byte offset)
 * and, for text, the offending line with a caret. */
CXLA_API cxla_status cxla_module_parse(const char *text, size_t len, const char *filename,
                              cxla_module **out);
CXLA_API cxla_status cxla_module_parse_file(const char *path, cxla_module **out);

/* The shape of one argument: rank dims (the element type is the program's). */
typedef struct cxla_arg_shape {
  int rank;
  const int64_t *dims;
} cxla_arg_shape;

/* As cxla_module_parse, for StableHLO whose entry function has dynamic
 * dimensions ("?": jax.export with symbolic shapes), specialized to
 * arguments of these shapes (nargs entries, one per entry parameter, token
 * parameters rank 0), as JAX's callers of such a program do: the shapes are
 * refined through the program, its dimension computations folded, its
 * dynamic ops (dynamic_broadcast_in_dim, dynamic_reshape, dynamic_iota,
 * dynamic_pad, real_dynamic_slice, dynamic_gather, dynamic_conv,
 * stablehlo.dynamic_top_k ...) made static and its shape assertions checked
 * (a failed one is an INVALID_ARGUMENT error carrying JAX's message). A
 * shape that depends on data is an UNIMPLEMENTED error. For HLO text and
 * for StableHLO whose entry is static the shapes are not used: running the
 * module checks its arguments. */
CXLA_API cxla_status cxla_module_parse_refined(const char *text, size_t len,
                                               const char *filename,
                                               const cxla_arg_shape *args, int nargs,
                                               cxla_module **out);
CXLA_API void cxla_module_destroy(cxla_module *m);
/* Canonical HLO text; the caller frees it with cxla_free_string. */
CXLA_API cxla_status cxla_module_print(const cxla_module *m, char **out_text);
/* Shape inference and structural checks over the whole module. */
CXLA_API cxla_status cxla_module_verify(const cxla_module *m);
/* The entry computation's parameter count. */
CXLA_API int cxla_module_num_parameters(const cxla_module *m);
/* Type and dims of the entry's i-th parameter; the dims belong to m. */
CXLA_API cxla_status cxla_module_parameter(const cxla_module *m, int i, cxla_type *out_type,
                                  int *out_rank, const int64_t **out_dims);

CXLA_API void cxla_free_string(char *s);

/* ---- the reference interpreter ---------------------------------------------------------- */

/* Runs the entry computation on args (borrowed) and returns its result (a
 * tuple literal if the entry returns a tuple). */
CXLA_API cxla_status cxla_interp_run(const cxla_module *m, cxla_literal *const *args,
                            int nargs, cxla_literal **out_result);

#ifdef __cplusplus
}
#endif
#endif
