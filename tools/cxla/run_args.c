/* Arguments for `cxla run`: from .npy files or made up from a seed. */
#include <math.h>
#include <string.h>

#include "common.h"
#include "ir/ir.h"
#include "run_support.h"
#include "testing/compare.h"
#include "testing/npy.h"

void free_args(cxla_literal **args, int n) {
  if (!args) return;
  for (int i = 0; i < n; i++) cxla_literal_destroy(args[i]);
  cxla_free(args);
}

/* The entry parameter i as an array type + dims, or an error for tuples
 * (which neither a .npy file nor --random can supply). */
static cxla_status array_parameter(const cxla_module *m, int i, cxla_type *t, int *rank,
                                   const int64_t **dims) {
  TRY(cxla_module_parameter(m, i, t, rank, dims));
  if (!type_is_array(*t))
    return ERR(UNIMPLEMENTED, "parameter %d is a %s; cxla run can only pass arrays", i,
               type_name(*t));
  return NULL;
}

static cxla_status load_one(const cxla_module *m, int i, const char *path, cxla_literal **out) {
  cxla_type t;
  int rank;
  const int64_t *dims;
  TRY(array_parameter(m, i, &t, &rank, &dims));
  cxla_literal *l;
  cxla_status s = cxla_npy_read(path, t, &l);
  if (s) return cxla_status_annotate(s, "argument %d", i);
  bool same = l->rank == rank;
  for (int d = 0; same && d < rank; d++) same = l->dims[d] == dims[d];
  if (!same) {
    char got[200], want[200];
    format_shape(l->type, l->rank, l->dims, got, sizeof got);
    format_shape(t, rank, dims, want, sizeof want);
    cxla_literal_destroy(l);
    return ERR(INVALID_ARGUMENT, "argument %d (%s) has shape %s, but parameter %d is %s", i, path,
               got, i, want);
  }
  *out = l;
  return NULL;
}

static bool token_parameter(const cxla_module *m, int i) {
  cxla_type t = CXLA_TYPE_COUNT;
  int rank;
  const int64_t *dims;
  cxla_status s = cxla_module_parameter(m, i, &t, &rank, &dims);
  cxla_status_free(s);
  return !s && t == CXLA_TOKEN;
}

/* A token parameter takes a fresh token, not a file: the files are for the
 * others, in order. */
cxla_status load_npy_args(const cxla_module *m, char *const *paths, int n,
                          cxla_literal ***out_args) {
  *out_args = NULL;
  int nall = cxla_module_num_parameters(m), np = 0;
  for (int i = 0; i < nall; i++) np += !token_parameter(m, i);
  if (n != np) {
    StrBuf b;
    sb_init(&b);
    for (int i = 0, k = 0; i < nall; i++) {
      if (token_parameter(m, i)) continue;
      char d[200];
      describe_parameter(m, i, d, sizeof d);
      sb_printf(&b, "%s%s", k++ ? ", " : "", d);
    }
    cxla_status s = ERR(INVALID_ARGUMENT, "the module takes %d argument%s (%s) but %d %s given",
                        np, np == 1 ? "" : "s", b.data ? b.data : "", n, n == 1 ? "was" : "were");
    sb_free(&b);
    return s;
  }
  cxla_literal **args = cxla_calloc((size_t)nall + 1, sizeof *args);
  if (!args) return cxla_oom();
  for (int i = 0, k = 0; i < nall; i++) {
    cxla_status s = token_parameter(m, i) ? cxla_literal_create(CXLA_TOKEN, 0, NULL, &args[i])
                                          : load_one(m, i, paths[k++], &args[i]);
    if (s) {
      free_args(args, nall);
      return s;
    }
  }
  *out_args = args;
  return NULL;
}

/* ---- random arguments ---------------------------------------------------------- */

/* splitmix64: tiny, good enough, and the same on every platform. */
static uint64_t next_u64(uint64_t *state) {
  uint64_t z = (*state += 0x9e3779b97f4a7c15ull);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
  return z ^ (z >> 31);
}

/* Uniform in (0, 1]: never 0, so that log() below is finite. */
static double next_unit(uint64_t *state) {
  return ((double)(next_u64(state) >> 11) + 1.0) * (1.0 / 9007199254740992.0);
}

/* Standard normal via Box-Muller (one of the pair; simplicity over speed). */
static double next_normal(uint64_t *state) {
  double u1 = next_unit(state), u2 = next_unit(state);
  return sqrt(-2.0 * log(u1)) * cos(6.283185307179586 * u2);
}

static void fill_random(Literal *l, uint64_t *state) {
  for (int64_t i = 0; i < l->nelems; i++) {
    switch (type_kind(l->type)) {
    case TK_PRED: literal_set_i64(l, i, (int64_t)(next_u64(state) >> 63)); break;
    case TK_SINT: literal_set_i64(l, i, (int64_t)(next_u64(state) % 11) - 5); break;
    case TK_UINT: literal_set_i64(l, i, (int64_t)(next_u64(state) % 11)); break;
    case TK_FLOAT: literal_set_f64(l, i, next_normal(state)); break;
    case TK_COMPLEX: {
      double re = next_normal(state), im = next_normal(state);
      if (l->type == T_C64) {
        float p[2] = {(float)re, (float)im};
        memcpy((char *)l->data + i * 8, p, sizeof p);
      } else {
        double p[2] = {re, im};
        memcpy((char *)l->data + i * 16, p, sizeof p);
      }
      break;
    }
    default: break;
    }
  }
}

cxla_status make_random_args(const cxla_module *m, uint64_t seed, cxla_literal ***out_args) {
  *out_args = NULL;
  int n = cxla_module_num_parameters(m);
  cxla_literal **args = cxla_calloc((size_t)(n ? n : 1), sizeof *args);
  if (!args) return cxla_oom();
  uint64_t state = seed;
  for (int i = 0; i < n; i++) {
    cxla_type t;
    int rank;
    const int64_t *dims;
    cxla_status s = token_parameter(m, i) ? cxla_literal_create(CXLA_TOKEN, 0, NULL, &args[i])
                                          : array_parameter(m, i, &t, &rank, &dims);
    if (!s && !args[i]) s = cxla_literal_create(t, rank, dims, &args[i]);
    if (s) {
      free_args(args, n);
      return cxla_status_annotate(s, "making random argument %d", i);
    }
    fill_random(args[i], &state);
  }
  *out_args = args;
  return NULL;
}

cxla_status fill_elided_constants(cxla_module *m, uint64_t seed) {
  /* A stream of its own, so that the arguments do not depend on whether the
   * module has elided constants. */
  uint64_t state = seed ^ 0x5eed0fc0a57a47ull;
  for (int c = 0; c < m->ncomps; c++) {
    Computation *comp = m->comps[c];
    for (int i = 0; i < comp->ninstrs; i++) {
      Instr *in = comp->instrs[i];
      Literal *l = in->literal;
      if (in->op != OP_CONSTANT || !l || !l->unknown) continue;
      if (!type_is_array(l->type))
        return ERR(INVALID_ARGUMENT, "elided constant %%%s of type %s cannot be filled",
                   in->name, type_name(l->type));
      void *data = cxla_calloc((size_t)(l->nelems ? l->nelems : 1), (size_t)type_bytes(l->type));
      if (!data) return cxla_oom();
      cxla_free(l->data);
      l->data = data;
      l->unknown = false;
      fill_random(l, &state);
    }
  }
  return NULL;
}
