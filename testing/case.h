/* case.h: one conformance case directory of the corpus (tests/corpus/<name>):
 *
 *   module.hlo      the program as JAX lowered it
 *   optimized.hlo   the same after XLA:CPU's optimisation pipeline
 *   case.json       {"description", "source",
 *                    "args":    [{"file", "dtype", "shape"}],
 *                    "results": [{"file", "dtype", "shape", "rtol", "atol"}]}
 *   args/N.npy      the inputs, results/N.npy XLA's outputs (flattened)
 *
 * dtype names are HLO's ("f32", "bf16", "pred", ...); bf16 and f8 arrays are
 * stored as unsigned integers holding the raw bits. Other keys in case.json
 * are ignored.
 *
 * Ownership: case_load returns a Case owned by the caller (case_free); all
 * its strings and arrays live in the Case's arena. Literals returned by
 * case_load_arg / case_load_result belong to the caller. */
#ifndef CXLA_TESTING_CASE_H
#define CXLA_TESTING_CASE_H

#include "ir/ir.h"

typedef struct CaseTensor {
  const char *path;   /* the .npy file: the case directory joined with "file" */
  ElemType type;
  int rank;
  int64_t *dims;
  double rtol, atol;  /* results only (0 for args) */
  const char *dir;    /* the case directory the file must stay inside */
} CaseTensor;

typedef struct Case {
  Arena arena;
  const char *dir;          /* as given */
  const char *name;         /* the directory's last component */
  const char *description;  /* "" if absent */
  const char *source;       /* "" if absent */
  int nargs, nresults;
  CaseTensor *args, *results;
} Case;

/* Reads and checks dir/case.json. A "file" with a ".." component is
 * refused (PERMISSION_DENIED), and case_load_tensor refuses a file whose
 * real path (symbolic links resolved) is outside the case directory. */
cxla_status case_load(const char *dir, Case **out);
void case_free(Case *c);
/* "dir/module.hlo" or "dir/optimized.hlo" (which: "module" / "optimized"),
 * allocated in the case's arena; NULL on OOM. */
const char *case_hlo_path(Case *c, const char *which);
/* Reads one tensor's .npy file, checking its dtype and shape against
 * case.json. */
cxla_status case_load_tensor(const CaseTensor *t, Literal **out);

#endif
