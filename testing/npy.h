/* npy.h: reading and writing .npy files (numpy's array format), for the
 * corpus, the CLI and tests. Part of the testing library
 * (build/libcxla_testing.a), not of libcxla. */
#ifndef CXLA_TESTING_NPY_H
#define CXLA_TESTING_NPY_H

#include "cxla/cxla.h"

/* .npy files. Reading takes the stored dtype; `as` (or CXLA_TYPE_COUNT for
 * "as stored") reinterprets unsigned-integer files as bf16 or f8 raw bits,
 * the corpus convention for types numpy lacks. */
cxla_status cxla_npy_read(const char *path, cxla_type as, cxla_literal **out);
/* The shape stored in a .npy file's header (at most max_rank dims). */
cxla_status cxla_npy_read_shape(const char *path, int *rank, int64_t *dims, int max_rank);
/* Writes an array literal; bf16/f8 types are written as raw unsigned ints. */
cxla_status cxla_npy_write(const char *path, const cxla_literal *l);

#endif
