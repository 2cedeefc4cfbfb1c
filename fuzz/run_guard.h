/* run_guard.h: parse -> verify -> (if small) interpret one fuzz input, with
 * the guards that keep a fuzzer from mistaking legitimately huge or endless
 * programs for bugs. Shared, header-only, by the libFuzzer target
 * fuzz/fuzz_run.c, its replay test tests/unit/test_run_fuzz_replay.c and the
 * mutation sweep fuzz/mutate_sweep.c, so all three judge an input alike.
 *
 * Input: HLO text, optionally followed by a NUL byte and argument bytes.
 * Declared shapes that disagree with the inferred ones are first repaired
 * (rg_repair), so mutated attributes still reach the interpreter.
 * The entry parameters' data is filled from those bytes in order (zeros
 * once they run out), normalised to valid values for sub-byte types.
 *
 * The rule under test: a module that verifies runs without crashing, UB,
 * leaks or giant allocations; it may return an error status. The guards:
 *  - every array shape in the module (instruction results, tuple elements,
 *    parameters, in every computation) is at most RG_MAX_ARRAY_BYTES;
 *  - an estimate of each instruction's inner work (a dot's contraction, a
 *    window's size, a factorisation's n^3) stays under RG_MAX_OP_WORK, and
 *    in computations that may run many times (loop bodies, reducers,
 *    comparators) under RG_MAX_AMPLIFY times the elements it reads and
 *    writes, which is what the interpreter's work budget counts;
 *  - the interpreter runs with a work budget of RG_BUDGET (Interp.budget),
 *    which bounds loops that do not terminate.
 * A broken invariant (INTERNAL status, a result that does not match the
 * root's shape) is reported through *bug; sanitizers report the rest.
 *
 * Ownership: run_guarded borrows data; everything it creates it frees. */
#ifndef CXLA_FUZZ_RUN_GUARD_H
#define CXLA_FUZZ_RUN_GUARD_H

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cxla/cxla.h"
#include "interp/interp.h"
#include "passes/dynamic_padder.h"
#include "verify/verify.h"

#define RG_MAX_ARRAY_BYTES ((int64_t)1 << 20)
#define RG_MAX_SHAPE_BYTES ((int64_t)4 << 20) /* all leaves of one tuple */
#define RG_MAX_OP_WORK 2e7
#define RG_MAX_MODULE_WORK 1e8
#define RG_MAX_AMPLIFY 64.0
#define RG_BUDGET 2000000ull

typedef enum RunOutcome {
  RG_PARSE_ERROR,
  RG_VERIFY_ERROR,
  RG_TOO_BIG,   /* verified, but refused by the guards */
  RG_RUN_ERROR, /* ran and returned an error status */
  RG_RUN_OK,
  RG_BUG,       /* an invariant broke; *bug says which */
  RG_NOUTCOMES
} RunOutcome;

static const char *const rg_outcome_names[RG_NOUTCOMES] = {
    "parse-error", "verify-error", "too-big", "run-error", "run-ok", "BUG"};

/* ---- size guards ---- */

/* Elements of an array shape as a double (no overflow), 0 for non-arrays;
 * tuples: the sum over their leaves. */
static double rg_elems(const Shape *s) {
  if (s->type == T_TUPLE) {
    double n = 0;
    for (int i = 0; i < s->ntuple; i++) n += rg_elems(s->tuple[i]);
    return n;
  }
  if (!type_is_array(s->type)) return 0;
  double n = 1;
  for (int i = 0; i < s->rank; i++) n *= (double)s->dims[i];
  return n;
}

/* Whether every array in s, and s as a whole, is small. */
static bool rg_shape_small(const Shape *s, int depth) {
  if (depth > 64) return false;
  if (s->type == T_TUPLE) {
    for (int i = 0; i < s->ntuple; i++)
      if (!rg_shape_small(s->tuple[i], depth + 1)) return false;
    return rg_elems(s) * 16 <= (double)RG_MAX_SHAPE_BYTES;
  }
  if (!type_is_array(s->type)) return true;
  for (int i = 0; i < s->rank; i++)
    if (s->dims[i] < 0) return false;
  return rg_elems(s) * type_bytes(s->type) <= (double)RG_MAX_ARRAY_BYTES;
}

static double rg_dim(const Shape *s, int64_t d) {
  return (d >= 0 && d < s->rank) ? (double)s->dims[d] : 1.0;
}

static double rg_last_dim(const Shape *s) {
  return (s->type != T_TUPLE && s->rank > 0) ? (double)s->dims[s->rank - 1] : 1.0;
}

/* What the interpreter's budget charges for one evaluation: 1 + operand and
 * result elements (tuples count as 0 there; here their leaves, which only
 * makes the estimate larger and the amplification check looser). */
static double rg_counted(const Instr *in) {
  double n = 1 + rg_elems(in->shape);
  for (int k = 0; k < in->noperands; k++) n += rg_elems(in->operands[k]->shape);
  return n;
}

/* An upper estimate of the elementary steps of one evaluation, not counting
 * called computations (the budget counts those as they run). */
static double rg_work(const Instr *in) {
  double out = rg_elems(in->shape), counted = rg_counted(in);
  const Shape *a = in->noperands > 0 ? in->operands[0]->shape : NULL;
  const Shape *b = in->noperands > 1 ? in->operands[1]->shape : NULL;
  double ain = a ? rg_elems(a) : 0;
  switch (in->op) {
  case OP_DOT:
  case OP_RAGGED_DOT:
  case OP_SCALED_DOT: {
    double k = 1;
    if ((in->attrs & A_DOT_DIMS) && a)
      for (int i = 0; i < in->dot.lhs_contract.n; i++) k *= rg_dim(a, in->dot.lhs_contract.v[i]);
    else
      k = ain;
    return counted + out * k;
  }
  case OP_CONVOLUTION: {
    double kin = b ? rg_elems(b) : 1;
    if (b && (in->attrs & A_CONV_DIMS)) kin /= rg_dim(b, in->conv.k_out) > 0 ? rg_dim(b, in->conv.k_out) : 1;
    return counted + out * (kin > 1 ? kin : 1) * (double)(in->batch_group_count > 0 ? in->batch_group_count : 1);
  }
  case OP_REDUCE_WINDOW:
  case OP_SELECT_AND_SCATTER: {
    double w = 1;
    for (int i = 0; i < in->nwindow; i++) w *= (double)(in->window[i].size > 0 ? in->window[i].size : 1);
    double n = in->op == OP_REDUCE_WINDOW ? out : ain + (b ? rg_elems(b) : 0);
    return counted + n * w * 2;
  }
  case OP_FFT: {
    double n = 1;
    for (int i = 0; i < in->fft_length.n; i++) n *= (double)(in->fft_length.v[i] > 0 ? in->fft_length.v[i] : 1);
    return counted + (ain + out) * (n < 64 ? n : 64) * 8;
  }
  case OP_SORT:
  case OP_TOPK: {
    double n = ain + 2, lg = 1;
    while (n > 1) n /= 2, lg++;
    return counted + ain * lg * 4 * (in->noperands ? in->noperands : 1);
  }
  case OP_CHOLESKY:
  case OP_TRIANGULAR_SOLVE:
  case OP_CUSTOM_CALL: {
    /* Factorisations, solves and iterative eigen/SVD sweeps: ~n^3 with a
     * generous factor for the sweeps. */
    double m = 1;
    for (int k = 0; k < in->noperands; k++) {
      double d = rg_last_dim(in->operands[k]->shape);
      if (d > m) m = d;
    }
    return counted * (1 + m * 64);
  }
  default:
    return counted;
  }
}

/* Called computations that an op runs once (call, fusion, a conditional's
 * branch, async wrappers) as opposed to many times (loops, reducers,
 * comparators, map's function). */
static bool rg_calls_once(Opcode op) {
  return op == OP_CALL || op == OP_FUSION || op == OP_CONDITIONAL || op == OP_ASYNC_START ||
         op == OP_ASYNC_UPDATE || op == OP_ASYNC_DONE || op == OP_CUSTOM_CALL;
}

typedef struct RgWalk {
  const HloModule *m;
  unsigned char *state; /* per computation: 0 unseen, 1 seen once, 2 seen repeated */
  double once_work;
  bool ok;
} RgWalk;

static int rg_comp_index(const HloModule *m, const Computation *c) {
  for (int i = 0; i < m->ncomps; i++)
    if (m->comps[i] == c) return i;
  return -1;
}

static void rg_walk(RgWalk *w, const Computation *c, bool repeated, int depth) {
  int ci = rg_comp_index(w->m, c);
  if (ci < 0 || depth > 128) {
    w->ok = false;
    return;
  }
  unsigned char st = repeated ? 2 : 1;
  if (w->state[ci] >= st) return;
  w->state[ci] = st;
  for (int i = 0; w->ok && i < c->ninstrs; i++) {
    const Instr *in = c->instrs[i];
    if (!rg_shape_small(in->shape, 0)) w->ok = false;
    double work = rg_work(in);
    if (work > RG_MAX_OP_WORK) w->ok = false;
    if (repeated && work > RG_MAX_AMPLIFY * rg_counted(in)) w->ok = false;
    if (!repeated) w->once_work += work;
    for (int k = 0; w->ok && k < in->ncalled; k++)
      if (in->called[k])
        rg_walk(w, in->called[k], repeated || !rg_calls_once(in->op), depth + 1);
  }
  if (w->once_work > RG_MAX_MODULE_WORK) w->ok = false;
}

/* Whether a verified module is small enough to run under the fuzzer. */
static bool rg_module_small(const HloModule *m) {
  if (!m->entry || m->ncomps <= 0) return false;
  RgWalk w = {m, calloc((size_t)m->ncomps, 1), 0, true};
  if (!w.state) return false;
  rg_walk(&w, m->entry, false, 0);
  free(w.state);
  return w.ok;
}

/* ---- arguments ---- */

/* Fills an array literal's bytes from *bytes (advancing it), zeros after
 * the end, then makes each element a valid value of its type. */
static void rg_fill(Literal *l, const uint8_t **bytes, size_t *nbytes) {
  if (l->type == T_TUPLE) {
    for (int i = 0; i < l->ntuple; i++) rg_fill(l->tuple[i], bytes, nbytes);
    return;
  }
  if (!l->data || !type_is_array(l->type)) return;
  size_t total = (size_t)l->nelems * (size_t)type_bytes(l->type);
  size_t n = total < *nbytes ? total : *nbytes;
  if (n) {
    memcpy(l->data, *bytes, n);
    *bytes += n;
    *nbytes -= n;
  }
  int bits = type_bits(l->type);
  if (l->type == T_PRED || bits >= 8) {
    if (l->type == T_PRED)
      for (int64_t i = 0; i < l->nelems; i++) ((uint8_t *)l->data)[i] &= 1;
    return;
  }
  /* s2/s4/u2/u4/f4: one byte per element holding `bits` bits. */
  bool sign = type_kind(l->type) == TK_SINT;
  for (int64_t i = 0; i < l->nelems; i++) {
    uint8_t *p = (uint8_t *)l->data + i;
    uint8_t v = (uint8_t)(*p & ((1u << bits) - 1));
    if (sign && (v >> (bits - 1))) v = (uint8_t)(v | (0xFFu << bits));
    *p = v;
  }
}

/* ---- result check ---- */

static bool rg_fits(const Literal *l, const Shape *s, int depth) {
  if (!l || depth > 64 || l->type != s->type) return false;
  if (s->type == T_TUPLE) {
    if (l->ntuple != s->ntuple) return false;
    for (int i = 0; i < s->ntuple; i++)
      if (!rg_fits(l->tuple[i], s->tuple[i], depth + 1)) return false;
    return true;
  }
  if (!type_is_array(s->type)) return true;
  if (l->rank != s->rank) return false;
  int64_t n = 1;
  for (int i = 0; i < s->rank; i++) {
    bool dyn = s->dynamic && s->dynamic[i];
    if (dyn ? (l->dims[i] < 0 || l->dims[i] > s->dims[i]) : l->dims[i] != s->dims[i])
      return false;
    n *= l->dims[i];
  }
  return l->nelems == n && (n == 0 || l->data);
}

/* ---- repair ---- */

/* Copies the name after `key` in msg (up to one of `stops`) into buf. */
static bool rg_name_after(const char *msg, const char *key, const char *stops, char *buf,
                          size_t cap) {
  const char *p = strstr(msg, key);
  if (!p) return false;
  p += strlen(key);
  size_t n = strcspn(p, stops);
  if (n == 0 || n >= cap) return false;
  memcpy(buf, p, n);
  buf[n] = 0;
  return true;
}

/* Makes mutated modules verify more often, so that fuzzing reaches the
 * interpreter: while the verifier's complaint is "expected shape X, got Y"
 * (an attribute changed, the declared shape did not follow), the
 * instruction's shape becomes the inferred one; a stale
 * entry_computation_layout is dropped. The verifier reaches shape
 * inference only once the whole module is structurally sound, so
 * infer_shape's preconditions hold. The repaired module is still just a
 * module: whatever then verifies must run safely. */
static void rg_repair(HloModule *m) {
  for (int round = 0; round < 32; round++) {
    cxla_status s = verify_module(m);
    if (!s) return;
    const char *msg = cxla_status_message(s);
    char cname[256], iname[256];
    bool fixed = false;
    if (strstr(msg, "entry_computation_layout") && m->entry_layout) {
      m->entry_layout = NULL;
      fixed = true;
    } else if (strstr(msg, "input_output_alias") && m->nio_alias) {
      m->nio_alias = 0;
      fixed = true;
    } else if (strstr(msg, "expected shape") && rg_name_after(msg, "computation %", ",", cname, sizeof cname) &&
               rg_name_after(msg, "instruction %", " ", iname, sizeof iname)) {
      Computation *c = module_find_computation(m, cname);
      Instr *in = c ? comp_find_instr(c, iname) : NULL;
      Shape *sh = NULL;
      if (in) {
        cxla_status t = infer_shape(&m->arena, in, &sh);
        if (!t && sh && !shape_compatible(sh, in->shape)) {
          in->shape = sh;
          fixed = true;
        }
        cxla_status_free(t);
      }
    }
    cxla_status_free(s);
    if (!fixed) return;
  }
}

/* ---- the whole pipeline ---- */

/* The message of the last run error (RG_RUN_ERROR), for reports. */
static char rg_last_error[512];

static RunOutcome rg_run_module(HloModule *m, const uint8_t *argb, size_t nargb,
                                const char **bug) {
  rg_repair(m);
  cxla_status s = verify_module(m);
  if (s) {
    cxla_status_free(s);
    return RG_VERIFY_ERROR;
  }
  if (!rg_module_small(m)) return RG_TOO_BIG;
  /* bounded dynamic shapes: made static first, as the runtime does */
  if (dynamic_padder_needed(m)) {
    DynamicResults dr;
    s = dynamic_padder_run(m, &dr);
    dynamic_results_free(&dr);
    if (!s && (s = verify_module(m))) {
      snprintf(rg_last_error, sizeof rg_last_error, "%s", cxla_status_message(s));
      fprintf(stderr, "fuzz_run: %s\n", rg_last_error);
      cxla_status_free(s);
      *bug = "the dynamic padder made a module that does not verify";
      return RG_BUG;
    }
    if (s) {
      bool internal = cxla_status_code_of(s) == CXLA_INTERNAL;
      snprintf(rg_last_error, sizeof rg_last_error, "%s", cxla_status_message(s));
      cxla_status_free(s);
      if (internal) *bug = "the dynamic padder returned INTERNAL on a verified module";
      return internal ? RG_BUG : RG_RUN_ERROR;
    }
  }
  const Computation *e = m->entry;
  int n = e->nparams;
  Literal **args = calloc((size_t)(n ? n : 1), sizeof *args);
  if (!args) return RG_TOO_BIG;
  RunOutcome r = RG_RUN_OK;
  for (int i = 0; i < n && r == RG_RUN_OK; i++) {
    s = literal_create_for_shape(e->params[i]->shape, &args[i]);
    if (s) {
      cxla_status_free(s);
      r = RG_TOO_BIG;
    } else {
      rg_fill(args[i], &argb, &nargb);
    }
  }
  if (r == RG_RUN_OK) {
    Literal *out = NULL;
    s = interp_run_budget(m, args, n, RG_BUDGET, &out);
    if (s) {
      r = RG_RUN_ERROR;
      snprintf(rg_last_error, sizeof rg_last_error, "%s: %s",
               cxla_status_code_name(cxla_status_code_of(s)), cxla_status_message(s));
      if (cxla_status_code_of(s) == CXLA_INTERNAL) {
        *bug = "interpreter returned INTERNAL on a verified module";
        r = RG_BUG;
      }
      cxla_status_free(s);
    } else if (!rg_fits(out, e->root->shape, 0)) {
      *bug = "result does not match the entry root's shape";
      r = RG_BUG;
    }
    literal_free(out);
  }
  for (int i = 0; i < n; i++) literal_free(args[i]);
  free(args);
  return r;
}

/* Runs one input (HLO text [NUL argument bytes]). */
static RunOutcome run_guarded(const uint8_t *data, size_t size, const char **bug) {
  *bug = NULL;
  const uint8_t *nul = memchr(data, 0, size);
  size_t tlen = nul ? (size_t)(nul - data) : size;
  const uint8_t *argb = nul ? nul + 1 : NULL;
  size_t nargb = nul ? size - tlen - 1 : 0;
  cxla_module *m = NULL;
  cxla_status s = cxla_module_parse((const char *)data, tlen, "fuzz", &m);
  if (s) {
    cxla_status_free(s);
    return RG_PARSE_ERROR;
  }
  RunOutcome r = rg_run_module(m, argb, nargb, bug);
  cxla_module_destroy(m);
  return r;
}

#endif
