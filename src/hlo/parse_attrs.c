/* Instruction attributes: ", name=value" after the operand list.
 *
 * Every value is first delimited as text (scan_raw_value: balanced
 * brackets, quoted strings, up to a ',' or blank at nesting level 0). The
 * attributes ir.h has typed fields for are then decoded from that text
 * character by character (a Cur over the value), so that each micro-syntax
 * (window={size=3x3 pad=0_1x0_1}, padding=0_0x1_1, dim_labels=b01f_01io->b01f,
 * slice={[0:10:2]}) gets exact error positions. All other attributes, and
 * typed names on opcodes that do not take them, are kept verbatim in
 * Instr.raw. */
#include <stdio.h>
#include <string.h>

#include "hlo/hlo.h"

/* ---- delimiting a value ------------------------------------------------------- */

bool scan_raw_value(Parser *p, size_t pos, bool allow_empty, size_t *end) {
  char stack[HLO_MAX_DEPTH];
  size_t open_at[HLO_MAX_DEPTH];
  int depth = 0;
  size_t i = pos;
  while (i < p->len && (p->src[i] == ' ' || p->src[i] == '\t')) i++;
  size_t start = i;
  while (i < p->len) {
    char c = p->src[i];
    if (c == '"' || c == '\'') {
      size_t s = i++;
      while (i < p->len && p->src[i] != c) i += p->src[i] == '\\' ? 2 : 1;
      if (i >= p->len) return perr(p, s, "unterminated string");
      i++;
      continue;
    }
    if (c == '{' || c == '(' || c == '[') {
      if (depth == HLO_MAX_DEPTH) return perr(p, i, "attribute value nested too deeply");
      stack[depth] = c == '{' ? '}' : c == '(' ? ')' : ']';
      open_at[depth++] = i++;
      continue;
    }
    if (c == '}' || c == ')' || c == ']') {
      if (depth == 0) break; /* closes something around the attribute */
      if (stack[depth - 1] != c)
        return perr(p, i, "expected '%c' to close '%c', found '%c'", stack[depth - 1],
                    p->src[open_at[depth - 1]], c);
      depth--;
      i++;
      continue;
    }
    if (depth == 0 && (c == ',' || c == ' ' || c == '\t' || c == '\n' || c == '\r')) break;
    if (depth == 0 && c == '/' && i + 1 < p->len && p->src[i + 1] == '*') break;
    i++;
  }
  if (depth > 0) return perr(p, open_at[depth - 1], "unterminated attribute value");
  if (i == start && !allow_empty) return perr(p, start, "expected an attribute value");
  *end = i;
  return true;
}

/* ---- a cursor over one value ---------------------------------------------------- */

typedef struct Cur {
  Parser *p;
  const char *s;   /* the whole source */
  size_t i, end;   /* position and end of the value */
  const char *attr;/* attribute name, for messages */
} Cur;

static int cpeek(const Cur *c) { return c->i < c->end ? (unsigned char)c->s[c->i] : -1; }
static void cws(Cur *c) {
  while (c->i < c->end && (c->s[c->i] == ' ' || c->s[c->i] == '\t' || c->s[c->i] == '\n' ||
                           c->s[c->i] == '\r'))
    c->i++;
}
static bool ceat(Cur *c, char ch) {
  if (cpeek(c) != (unsigned char)ch) return false;
  c->i++;
  return true;
}
static bool cfail(Cur *c, const char *what) {
  return perr(c->p, c->i, "expected %s in the value of '%s'", what, c->attr);
}
static bool cexpect(Cur *c, char ch) {
  if (ceat(c, ch)) return true;
  char what[8] = {'\'', ch, '\'', 0};
  return cfail(c, what);
}
static bool is_digit(int ch) { return ch >= '0' && ch <= '9'; }
static bool is_word(int ch) {
  return is_digit(ch) || (ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') || ch == '_';
}

static bool cint(Cur *c, int64_t *out) {
  size_t start = c->i;
  bool neg = ceat(c, '-');
  if (!is_digit(cpeek(c))) {
    c->i = start;
    return cfail(c, "an integer");
  }
  uint64_t v = 0;
  while (is_digit(cpeek(c))) {
    unsigned d = (unsigned)(c->s[c->i] - '0');
    if (v > (UINT64_MAX - d) / 10) return perr(c->p, start, "integer too large");
    v = v * 10 + d;
    c->i++;
  }
  if (neg ? v > (uint64_t)INT64_MAX + 1 : v > (uint64_t)INT64_MAX)
    return perr(c->p, start, "integer too large");
  *out = neg ? (int64_t)(0 - v) : (int64_t)v;
  return true;
}

static bool cword(Cur *c, const char **w, size_t *n) {
  size_t start = c->i;
  while (is_word(cpeek(c))) c->i++;
  *w = c->s + start;
  *n = c->i - start;
  return *n > 0;
}

static bool word_is(const char *w, size_t n, const char *lit) {
  return strlen(lit) == n && memcmp(w, lit, n) == 0;
}

/* The value must be used up. */
static bool cdone(Cur *c) {
  cws(c);
  if (c->i < c->end)
    return perr(c->p, c->i, "unexpected text in the value of '%s'", c->attr);
  return true;
}

/* ---- int vectors ---------------------------------------------------------------- */

typedef struct Vec {
  int64_t *v;
  int n, cap;
} Vec;

static bool vpush(Parser *p, Vec *v, int64_t x) {
  if (v->n == v->cap) {
    int nc = v->cap ? v->cap * 2 : 8;
    int64_t *nv = cxla_realloc(v->v, (size_t)nc * sizeof *nv);
    if (!nv) return poom(p);
    v->v = nv;
    v->cap = nc;
  }
  v->v[v->n++] = x;
  return true;
}

/* {a, b, c} into an arena I64List. */
static bool cint_list(Cur *c, I64List *out) {
  Vec v = {0};
  bool ok = cexpect(c, '{');
  cws(c);
  if (ok && !ceat(c, '}')) {
    for (;;) {
      int64_t x;
      cws(c);
      if (!(ok = cint(c, &x) && vpush(c->p, &v, x))) break;
      cws(c);
      if (ceat(c, ',')) continue;
      ok = cexpect(c, '}');
      break;
    }
  }
  if (ok) {
    out->n = v.n;
    out->v = v.n ? arena_i64dup(&c->p->m->arena, v.v, (size_t)v.n) : NULL;
    if (v.n && !out->v) ok = poom(c->p);
  }
  cxla_free(v.v);
  return ok;
}

/* a x b x c (window sizes, strides, dilations): at least one number. */
static bool cdims(Cur *c, Vec *v) {
  for (;;) {
    int64_t x;
    if (!cint(c, &x) || !vpush(c->p, v, x)) return false;
    if (!ceat(c, 'x')) return true;
  }
}

static bool cbool(Cur *c, bool *out) {
  const char *w;
  size_t n;
  cword(c, &w, &n);
  if (word_is(w, n, "true")) *out = true;
  else if (word_is(w, n, "false")) *out = false;
  else {
    c->i -= n;
    return cfail(c, "true or false");
  }
  return true;
}

/* One of names[0..n) -> its index. */
static bool cenum(Cur *c, const char *const *names, int n, const char *what, int *out) {
  const char *w;
  size_t len;
  size_t start = c->i;
  cword(c, &w, &len);
  for (int i = 0; i < n; i++)
    if (names[i] && word_is(w, len, names[i])) {
      *out = i;
      return true;
    }
  c->i = start;
  return cfail(c, what);
}

/* ---- structured values ------------------------------------------------------------- */

/* lo_hi[_interior] x ... (pad's padding=) */
static bool parse_padding(Cur *c, Instr *in) {
  Vec v = {0};
  bool ok = true;
  int n = 0;
  cws(c);
  for (; cpeek(c) != -1;) {
    int64_t lo, hi, interior = 0;
    ok = cint(c, &lo) && cexpect(c, '_') && cint(c, &hi);
    if (ok && ceat(c, '_')) ok = cint(c, &interior);
    ok = ok && vpush(c->p, &v, lo) && vpush(c->p, &v, hi) && vpush(c->p, &v, interior);
    if (!ok) break;
    n++;
    if (!ceat(c, 'x')) break;
  }
  /* ir.h stores one entry per dimension: the count is the rank. */
  if (ok && n != in->shape->rank)
    ok = perr(c->p, c->i, "padding has %d dimensions but the shape has rank %d", n, in->shape->rank);
  if (ok) {
    PadDim *pd = arena_array(&c->p->m->arena, (size_t)n, sizeof *pd);
    if (!pd) ok = poom(c->p);
    for (int i = 0; ok && i < n; i++) pd[i] = (PadDim){v.v[3 * i], v.v[3 * i + 1], v.v[3 * i + 2]};
    in->padding = pd;
    in->attrs |= A_PADDING;
  }
  cxla_free(v.v);
  return ok;
}

/* {[start:limit(:stride)?], ...} */
static bool parse_slice(Cur *c, Instr *in) {
  Vec v = {0};
  bool ok = cexpect(c, '{');
  int n = 0;
  cws(c);
  if (ok && !ceat(c, '}')) {
    for (;;) {
      int64_t a, b, s = 1;
      cws(c);
      ok = cexpect(c, '[') && cint(c, &a) && cexpect(c, ':') && cint(c, &b);
      if (ok && ceat(c, ':')) ok = cint(c, &s);
      ok = ok && cexpect(c, ']') && vpush(c->p, &v, a) && vpush(c->p, &v, b) && vpush(c->p, &v, s);
      if (!ok) break;
      n++;
      cws(c);
      if (ceat(c, ',')) continue;
      ok = cexpect(c, '}');
      break;
    }
  }
  if (ok && n != in->shape->rank)
    ok = perr(c->p, c->i - 1, "slice has %d dimensions but the shape has rank %d", n, in->shape->rank);
  if (ok) {
    SliceDim *sd = n ? arena_array(&c->p->m->arena, (size_t)n, sizeof *sd) : NULL;
    if (n && !sd) ok = poom(c->p);
    for (int i = 0; ok && i < n; i++) sd[i] = (SliceDim){v.v[3 * i], v.v[3 * i + 1], v.v[3 * i + 2]};
    in->slice = sd;
    in->attrs |= A_SLICE;
  }
  cxla_free(v.v);
  return ok;
}

/* {size=3x3 stride=2x2 pad=0_1x0_1 lhs_dilate=1x1 rhs_dilate=1x1 rhs_reversal=0x0} */
static bool parse_window(Cur *c, Instr *in) {
  enum { W_SIZE, W_STRIDE, W_PAD, W_LHS, W_RHS, W_REV, W_N };
  static const char *const keys[W_N] = {"size", "stride", "pad", "lhs_dilate", "rhs_dilate",
                                        "rhs_reversal"};
  Vec v[W_N] = {{0}};
  bool seen[W_N] = {0};
  bool ok = cexpect(c, '{');
  int n = -1;
  for (;;) {
    cws(c);
    if (!ok || ceat(c, '}')) break;
    size_t kpos = c->i;
    int k;
    if (!(ok = cenum(c, keys, W_N, "a window field (size, stride, pad, lhs_dilate, rhs_dilate, rhs_reversal)", &k) &&
               cexpect(c, '=')))
      break;
    if (seen[k]) {
      ok = perr(c->p, kpos, "window field '%s' given twice", keys[k]);
      break;
    }
    seen[k] = true;
    int count;
    if (k == W_PAD) {
      for (count = 0;; count++) {
        int64_t lo, hi;
        if (!(ok = cint(c, &lo) && cexpect(c, '_') && cint(c, &hi) && vpush(c->p, &v[k], lo) &&
                   vpush(c->p, &v[k], hi)))
          break;
        if (!ceat(c, 'x')) {
          count++;
          break;
        }
      }
    } else {
      ok = cdims(c, &v[k]);
      count = v[k].n;
    }
    if (!ok) break;
    if (n >= 0 && count != n) {
      ok = perr(c->p, kpos, "window field '%s' has %d dimensions, expected %d", keys[k], count, n);
      break;
    }
    n = count;
  }
  if (ok && n > 0 && !seen[W_SIZE]) ok = perr(c->p, c->i - 1, "window has no 'size'");
  if (ok) {
    if (n < 0) n = 0;
    WindowDim *w = n ? arena_array(&c->p->m->arena, (size_t)n, sizeof *w) : NULL;
    if (n && !w) ok = poom(c->p);
    for (int i = 0; ok && i < n; i++) {
      w[i].size = v[W_SIZE].v[i];
      w[i].stride = seen[W_STRIDE] ? v[W_STRIDE].v[i] : 1;
      w[i].pad_lo = seen[W_PAD] ? v[W_PAD].v[2 * i] : 0;
      w[i].pad_hi = seen[W_PAD] ? v[W_PAD].v[2 * i + 1] : 0;
      w[i].lhs_dilate = seen[W_LHS] ? v[W_LHS].v[i] : 1;
      w[i].rhs_dilate = seen[W_RHS] ? v[W_RHS].v[i] : 1;
      w[i].reversal = seen[W_REV] && v[W_REV].v[i] != 0;
    }
    in->window = w;
    in->nwindow = n;
    in->attrs |= A_WINDOW;
  }
  for (int k = 0; k < W_N; k++) cxla_free(v[k].v);
  return ok;
}

/* One part of dim_labels: the letters a, b (batch/feature or input/output
 * feature) once each, and digits 0..n-1 once each. */
static bool parse_labels(Cur *c, char a, char b, int64_t *pa, int64_t *pb, int64_t *spatial,
                         int *nspatial) {
  size_t start = c->i;
  *pa = *pb = -1;
  int n = 0;
  int64_t pos[10];
  for (int i = 0; i < 10; i++) pos[i] = -1;
  while (c->i < c->end) {
    char ch = c->s[c->i];
    int64_t at = (int64_t)(c->i - start);
    if (ch == a && *pa < 0) *pa = at;
    else if (ch == b && *pb < 0) *pb = at;
    else if (is_digit(ch) && pos[ch - '0'] < 0) pos[ch - '0'] = at, n++;
    else break;
    c->i++;
  }
  if (*pa < 0 || *pb < 0) {
    char what[48];
    snprintf(what, sizeof what, "dimension labels with one '%c' and one '%c'", a, b);
    return cfail(c, what);
  }
  for (int d = 0; d < n; d++)
    if (pos[d] < 0) return perr(c->p, start, "spatial dimension %d missing in dim_labels", d);
  if (*nspatial >= 0 && n != *nspatial)
    return perr(c->p, start, "dim_labels parts disagree on the number of spatial dimensions");
  *nspatial = n;
  for (int d = 0; d < n; d++) spatial[d] = pos[d];
  return true;
}

static bool parse_dim_labels(Cur *c, Instr *in) {
  int64_t s_in[10], s_k[10], s_out[10];
  int n = -1;
  ConvDims *cd = &in->conv;
  if (!parse_labels(c, 'b', 'f', &cd->in_batch, &cd->in_feature, s_in, &n) || !cexpect(c, '_') ||
      !parse_labels(c, 'i', 'o', &cd->k_in, &cd->k_out, s_k, &n) || !cexpect(c, '-') ||
      !cexpect(c, '>') || !parse_labels(c, 'b', 'f', &cd->out_batch, &cd->out_feature, s_out, &n))
    return false;
  cd->nspatial = n;
  Arena *a = &c->p->m->arena;
  if (n > 0) {
    cd->in_spatial = arena_i64dup(a, s_in, (size_t)n);
    cd->k_spatial = arena_i64dup(a, s_k, (size_t)n);
    cd->out_spatial = arena_i64dup(a, s_out, (size_t)n);
    if (!cd->in_spatial || !cd->k_spatial || !cd->out_spatial) return poom(c->p);
  }
  in->attrs |= A_CONV_DIMS;
  return true;
}

/* A computation or instruction reference: %name or name. */
static bool cref(Cur *c, const char **name, size_t *len, size_t *pos) {
  *pos = c->i;
  ceat(c, '%');
  size_t start = c->i;
  int ch = cpeek(c);
  if (!((ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') || ch == '_')) return cfail(c, "a name");
  while (is_word(cpeek(c)) || cpeek(c) == '.' || cpeek(c) == '-') c->i++;
  *name = c->s + start;
  *len = c->i - start;
  return true;
}

typedef struct Ref {
  const char *name;
  size_t len, pos;
} Ref;

typedef struct RefVec {
  Ref *v;
  int n, cap;
} RefVec;

/* {%a, %b, ...} */
static bool cref_list(Cur *c, RefVec *out) {
  if (!cexpect(c, '{')) return false;
  cws(c);
  if (ceat(c, '}')) return true;
  for (;;) {
    Ref r;
    cws(c);
    if (!cref(c, &r.name, &r.len, &r.pos)) return false;
    if (out->n == out->cap) {
      int nc = out->cap ? out->cap * 2 : 4;
      Ref *nv = cxla_realloc(out->v, (size_t)nc * sizeof *nv);
      if (!nv) return poom(c->p);
      out->v = nv;
      out->cap = nc;
    }
    out->v[out->n++] = r;
    cws(c);
    if (ceat(c, ',')) continue;
    return cexpect(c, '}');
  }
}

/* ---- the attribute table ---------------------------------------------------------- */

typedef enum AttrId {
  AT_DIMENSIONS, AT_INDEX, AT_SLICE, AT_PADDING, AT_WINDOW, AT_DIM_LABELS, AT_FGC, AT_BGC,
  AT_LHS_BATCH, AT_LHS_CONTRACT, AT_RHS_BATCH, AT_RHS_CONTRACT,
  AT_OFFSET_DIMS, AT_COLLAPSED, AT_START_INDEX_MAP, AT_OPERAND_BATCHING, AT_START_INDICES_BATCHING,
  AT_UPDATE_WINDOW, AT_INSERTED_WINDOW, AT_SCATTER_TO_OPERAND, AT_INPUT_BATCHING,
  AT_SCATTER_INDICES_BATCHING, AT_INDEX_VECTOR_DIM, AT_SLICE_SIZES, AT_INDICES_SORTED,
  AT_UNIQUE_INDICES, AT_DYN_SLICE_SIZES, AT_DIRECTION, AT_TYPE, AT_IOTA_DIM, AT_EXP_BITS,
  AT_MANT_BITS, AT_FFT_TYPE, AT_FFT_LENGTH, AT_DISTRIBUTION, AT_ALGORITHM, AT_TARGET,
  AT_IS_STABLE, AT_LEFT_SIDE, AT_LOWER, AT_UNIT_DIAGONAL, AT_TRANSPOSE_A, AT_KIND, AT_K,
  AT_LARGEST, AT_TO_APPLY, AT_CALLS, AT_CONDITION, AT_BODY, AT_TRUE, AT_FALSE, AT_BRANCHES,
  AT_SELECT, AT_SCATTER, AT_CONTROL, AT_SIDE_EFFECT, AT_COUNT
} AttrId;

static const struct {
  const char *name;
  AttrId id;
} attr_names[] = {
    {"dimensions", AT_DIMENSIONS}, {"index", AT_INDEX}, {"slice", AT_SLICE},
    {"padding", AT_PADDING}, {"window", AT_WINDOW}, {"dim_labels", AT_DIM_LABELS},
    {"feature_group_count", AT_FGC}, {"batch_group_count", AT_BGC},
    {"lhs_batch_dims", AT_LHS_BATCH}, {"lhs_contracting_dims", AT_LHS_CONTRACT},
    {"rhs_batch_dims", AT_RHS_BATCH}, {"rhs_contracting_dims", AT_RHS_CONTRACT},
    {"offset_dims", AT_OFFSET_DIMS}, {"collapsed_slice_dims", AT_COLLAPSED},
    {"start_index_map", AT_START_INDEX_MAP}, {"operand_batching_dims", AT_OPERAND_BATCHING},
    {"start_indices_batching_dims", AT_START_INDICES_BATCHING},
    {"update_window_dims", AT_UPDATE_WINDOW}, {"inserted_window_dims", AT_INSERTED_WINDOW},
    {"scatter_dims_to_operand_dims", AT_SCATTER_TO_OPERAND},
    {"input_batching_dims", AT_INPUT_BATCHING},
    {"scatter_indices_batching_dims", AT_SCATTER_INDICES_BATCHING},
    {"index_vector_dim", AT_INDEX_VECTOR_DIM}, {"slice_sizes", AT_SLICE_SIZES},
    {"indices_are_sorted", AT_INDICES_SORTED}, {"unique_indices", AT_UNIQUE_INDICES},
    {"dynamic_slice_sizes", AT_DYN_SLICE_SIZES}, {"direction", AT_DIRECTION}, {"type", AT_TYPE},
    {"iota_dimension", AT_IOTA_DIM}, {"exponent_bits", AT_EXP_BITS},
    {"mantissa_bits", AT_MANT_BITS}, {"fft_type", AT_FFT_TYPE}, {"fft_length", AT_FFT_LENGTH},
    {"distribution", AT_DISTRIBUTION}, {"algorithm", AT_ALGORITHM},
    {"custom_call_target", AT_TARGET}, {"is_stable", AT_IS_STABLE},
    {"left_side", AT_LEFT_SIDE}, {"lower", AT_LOWER}, {"unit_diagonal", AT_UNIT_DIAGONAL},
    {"transpose_a", AT_TRANSPOSE_A}, {"kind", AT_KIND}, {"k", AT_K}, {"largest", AT_LARGEST},
    {"to_apply", AT_TO_APPLY}, {"calls", AT_CALLS}, {"condition", AT_CONDITION},
    {"body", AT_BODY}, {"true_computation", AT_TRUE}, {"false_computation", AT_FALSE},
    {"branch_computations", AT_BRANCHES}, {"select", AT_SELECT}, {"scatter", AT_SCATTER},
    {"control-predecessors", AT_CONTROL},
    {"custom_call_has_side_effect", AT_SIDE_EFFECT},
};

/* Whether attribute id is decoded for opcode op (otherwise it is kept raw). */
static bool applies(AttrId id, Opcode op) {
  switch (id) {
  case AT_DIMENSIONS: case AT_TO_APPLY: case AT_CALLS: case AT_CONTROL: return true;
  case AT_INDEX: return op == OP_GET_TUPLE_ELEMENT;
  case AT_SLICE: return op == OP_SLICE;
  case AT_PADDING: return op == OP_PAD;
  case AT_WINDOW:
    return op == OP_CONVOLUTION || op == OP_REDUCE_WINDOW || op == OP_SELECT_AND_SCATTER ||
           op == OP_CUSTOM_CALL;
  case AT_DIM_LABELS: case AT_FGC: case AT_BGC:
    return op == OP_CONVOLUTION || op == OP_CUSTOM_CALL;
  case AT_LHS_BATCH: case AT_LHS_CONTRACT: case AT_RHS_BATCH: case AT_RHS_CONTRACT:
    return op == OP_DOT || op == OP_SCALED_DOT || op == OP_RAGGED_DOT;
  case AT_OFFSET_DIMS: case AT_COLLAPSED: case AT_START_INDEX_MAP: case AT_OPERAND_BATCHING:
  case AT_START_INDICES_BATCHING: case AT_SLICE_SIZES:
    return op == OP_GATHER;
  case AT_UPDATE_WINDOW: case AT_INSERTED_WINDOW: case AT_SCATTER_TO_OPERAND:
  case AT_INPUT_BATCHING: case AT_SCATTER_INDICES_BATCHING: case AT_UNIQUE_INDICES:
    return op == OP_SCATTER;
  case AT_INDEX_VECTOR_DIM: case AT_INDICES_SORTED: return op == OP_GATHER || op == OP_SCATTER;
  case AT_DYN_SLICE_SIZES: return op == OP_DYNAMIC_SLICE;
  case AT_DIRECTION: case AT_TYPE: return op == OP_COMPARE;
  case AT_IOTA_DIM: return op == OP_IOTA;
  case AT_EXP_BITS: case AT_MANT_BITS: return op == OP_REDUCE_PRECISION;
  case AT_FFT_TYPE: case AT_FFT_LENGTH: return op == OP_FFT;
  case AT_DISTRIBUTION: return op == OP_RNG;
  case AT_ALGORITHM: return op == OP_RNG_BIT_GENERATOR;
  case AT_TARGET: case AT_SIDE_EFFECT: return op == OP_CUSTOM_CALL;
  case AT_IS_STABLE: return op == OP_SORT;
  case AT_LEFT_SIDE: case AT_UNIT_DIAGONAL: case AT_TRANSPOSE_A: return op == OP_TRIANGULAR_SOLVE;
  case AT_LOWER: return op == OP_TRIANGULAR_SOLVE || op == OP_CHOLESKY;
  case AT_KIND: return op == OP_FUSION;
  case AT_K: case AT_LARGEST: return op == OP_TOPK;
  case AT_CONDITION: case AT_BODY: return op == OP_WHILE;
  case AT_TRUE: case AT_FALSE: case AT_BRANCHES: return op == OP_CONDITIONAL;
  case AT_SELECT: case AT_SCATTER: return op == OP_SELECT_AND_SCATTER;
  case AT_COUNT: break;
  }
  return false;
}

static bool lookup_attr(const char *name, size_t n, AttrId *out) {
  for (size_t i = 0; i < sizeof attr_names / sizeof attr_names[0]; i++)
    if (word_is(name, n, attr_names[i].name)) {
      *out = attr_names[i].id;
      return true;
    }
  return false;
}

/* Called computations, collected and then stored in ir.h's order. */
typedef struct Calls {
  Ref single[AT_CONTROL - AT_TO_APPLY]; /* by id - AT_TO_APPLY; len 0 = absent */
  RefVec branches;
  RefVec control;
} Calls;

static const char *const cmp_dirs[] = {NULL, "EQ", "NE", "LT", "LE", "GT", "GE"};
static const char *const cmp_types[] = {NULL, "FLOAT", "TOTALORDER", "SIGNED", "UNSIGNED"};
static const char *const fft_types[] = {NULL, "FFT", "IFFT", "RFFT", "IRFFT"};
static const char *const rng_dists[] = {NULL, "rng_uniform", "rng_normal"};
static const char *const rng_algs[] = {"rng_default", "rng_three_fry", "rng_philox"};
static const char *const transposes[] = {"NO_TRANSPOSE", "TRANSPOSE", "ADJOINT"};
static const char *const fusion_kinds[] = {NULL, "kLoop", "kInput", "kOutput", "kCustom"};

static bool decode(Cur *c, AttrId id, Instr *in, Calls *calls) {
  int e;
  switch (id) {
  case AT_DIMENSIONS: in->attrs |= A_DIMENSIONS; return cint_list(c, &in->dimensions);
  case AT_INDEX: in->attrs |= A_INDEX; return cint(c, &in->index);
  case AT_SLICE: return parse_slice(c, in);
  case AT_PADDING: return parse_padding(c, in);
  case AT_WINDOW: return parse_window(c, in);
  case AT_DIM_LABELS: return parse_dim_labels(c, in);
  case AT_FGC: in->attrs |= A_GROUPS; return cint(c, &in->feature_group_count);
  case AT_BGC: in->attrs |= A_GROUPS; return cint(c, &in->batch_group_count);
  case AT_LHS_BATCH: in->attrs |= A_DOT_DIMS; return cint_list(c, &in->dot.lhs_batch);
  case AT_LHS_CONTRACT: in->attrs |= A_DOT_DIMS; return cint_list(c, &in->dot.lhs_contract);
  case AT_RHS_BATCH: in->attrs |= A_DOT_DIMS; return cint_list(c, &in->dot.rhs_batch);
  case AT_RHS_CONTRACT: in->attrs |= A_DOT_DIMS; return cint_list(c, &in->dot.rhs_contract);
  case AT_OFFSET_DIMS: in->attrs |= A_GATHER_DIMS; return cint_list(c, &in->gather.offset_dims);
  case AT_COLLAPSED:
    in->attrs |= A_GATHER_DIMS;
    return cint_list(c, &in->gather.collapsed_slice_dims);
  case AT_START_INDEX_MAP:
    in->attrs |= A_GATHER_DIMS;
    return cint_list(c, &in->gather.start_index_map);
  case AT_OPERAND_BATCHING:
    in->attrs |= A_GATHER_DIMS;
    return cint_list(c, &in->gather.operand_batching_dims);
  case AT_START_INDICES_BATCHING:
    in->attrs |= A_GATHER_DIMS;
    return cint_list(c, &in->gather.start_indices_batching_dims);
  case AT_UPDATE_WINDOW:
    in->attrs |= A_SCATTER_DIMS;
    return cint_list(c, &in->scatter.update_window_dims);
  case AT_INSERTED_WINDOW:
    in->attrs |= A_SCATTER_DIMS;
    return cint_list(c, &in->scatter.inserted_window_dims);
  case AT_SCATTER_TO_OPERAND:
    in->attrs |= A_SCATTER_DIMS;
    return cint_list(c, &in->scatter.scatter_dims_to_operand_dims);
  case AT_INPUT_BATCHING:
    in->attrs |= A_SCATTER_DIMS;
    return cint_list(c, &in->scatter.input_batching_dims);
  case AT_SCATTER_INDICES_BATCHING:
    in->attrs |= A_SCATTER_DIMS;
    return cint_list(c, &in->scatter.scatter_indices_batching_dims);
  case AT_INDEX_VECTOR_DIM:
    if (in->op == OP_GATHER) {
      in->attrs |= A_GATHER_DIMS;
      return cint(c, &in->gather.index_vector_dim);
    }
    in->attrs |= A_SCATTER_DIMS;
    return cint(c, &in->scatter.index_vector_dim);
  case AT_SLICE_SIZES: in->attrs |= A_SLICE_SIZES; return cint_list(c, &in->slice_sizes);
  case AT_DYN_SLICE_SIZES: in->attrs |= A_DYN_SLICE_SIZES; return cint_list(c, &in->slice_sizes);
  case AT_INDICES_SORTED: in->attrs |= A_INDICES_SORTED; return cbool(c, &in->indices_are_sorted);
  case AT_UNIQUE_INDICES: in->attrs |= A_UNIQUE_INDICES; return cbool(c, &in->unique_indices);
  case AT_DIRECTION:
    in->attrs |= A_COMPARE;
    if (!cenum(c, cmp_dirs, 7, "a comparison direction (EQ, NE, LT, LE, GT, GE)", &e)) return false;
    in->cmp_dir = (CmpDir)e;
    return true;
  case AT_TYPE:
    in->attrs |= A_COMPARE;
    if (!cenum(c, cmp_types, 5, "a comparison type (FLOAT, TOTALORDER, SIGNED, UNSIGNED)", &e))
      return false;
    in->cmp_type = (CmpType)e;
    return true;
  case AT_IOTA_DIM: in->attrs |= A_IOTA_DIM; return cint(c, &in->index);
  case AT_EXP_BITS: in->attrs |= A_REDUCE_PRECISION; return cint(c, &in->exponent_bits);
  case AT_MANT_BITS: in->attrs |= A_REDUCE_PRECISION; return cint(c, &in->mantissa_bits);
  case AT_FFT_TYPE:
    in->attrs |= A_FFT;
    if (!cenum(c, fft_types, 5, "an FFT type (FFT, IFFT, RFFT, IRFFT)", &e)) return false;
    in->fft_type = (FftType)e;
    return true;
  case AT_FFT_LENGTH: in->attrs |= A_FFT; return cint_list(c, &in->fft_length);
  case AT_DISTRIBUTION:
    in->attrs |= A_RNG;
    if (!cenum(c, rng_dists, 3, "rng_uniform or rng_normal", &e)) return false;
    in->rng_dist = (RngDist)e;
    return true;
  case AT_ALGORITHM:
    in->attrs |= A_RNG;
    if (!cenum(c, rng_algs, 3, "rng_default, rng_three_fry or rng_philox", &e)) return false;
    in->rng_alg = (RngAlg)e;
    return true;
  case AT_TARGET: {
    if (cpeek(c) != '"' || c->end - c->i < 2 || c->s[c->end - 1] != '"')
      return cfail(c, "a quoted string");
    size_t bad;
    const char *body = c->s + c->i + 1;
    size_t len = c->end - c->i - 2;
    in->custom_call_target = hlo_unescape(&c->p->m->arena, body, len, &bad);
    if (!in->custom_call_target) {
      if (bad == (size_t)-1) return poom(c->p);
      return perr(c->p, c->i + 1 + bad, "invalid escape sequence in string");
    }
    in->attrs |= A_CUSTOM_CALL;
    c->i = c->end;
    return true;
  }
  case AT_IS_STABLE: in->attrs |= A_IS_STABLE; return cbool(c, &in->is_stable);
  case AT_SIDE_EFFECT: in->attrs |= A_SIDE_EFFECT; return cbool(c, &in->has_side_effect);
  case AT_LEFT_SIDE: in->attrs |= A_TRIANGULAR; return cbool(c, &in->tri_left_side);
  case AT_UNIT_DIAGONAL: in->attrs |= A_TRIANGULAR; return cbool(c, &in->tri_unit_diagonal);
  case AT_LOWER:
    if (in->op == OP_CHOLESKY) {
      in->attrs |= A_CHOLESKY;
      return cbool(c, &in->chol_lower);
    }
    in->attrs |= A_TRIANGULAR;
    return cbool(c, &in->tri_lower);
  case AT_TRANSPOSE_A:
    in->attrs |= A_TRIANGULAR;
    if (!cenum(c, transposes, 3, "NO_TRANSPOSE, TRANSPOSE or ADJOINT", &e)) return false;
    in->tri_transpose = (TriTranspose)e;
    return true;
  case AT_KIND:
    in->attrs |= A_FUSION_KIND;
    if (!cenum(c, fusion_kinds, 5, "a fusion kind (kLoop, kInput, kOutput, kCustom)", &e))
      return false;
    in->fusion_kind = (FusionKind)e;
    return true;
  case AT_K: in->attrs |= A_TOPK; return cint(c, &in->topk_k);
  case AT_LARGEST: in->attrs |= A_TOPK; return cbool(c, &in->topk_largest);
  case AT_BRANCHES: return cref_list(c, &calls->branches);
  case AT_CONTROL: return cref_list(c, &calls->control);
  case AT_TO_APPLY: case AT_CALLS: case AT_CONDITION: case AT_BODY: case AT_TRUE: case AT_FALSE:
  case AT_SELECT: case AT_SCATTER: {
    Ref *r = &calls->single[id - AT_TO_APPLY];
    return cref(c, &r->name, &r->len, &r->pos);
  }
  case AT_COUNT: break;
  }
  return false;
}

/* Stores called computations in ir.h's order and records their fixups. */
static bool store_calls(Parser *p, Instr *in, Calls *calls) {
  static const AttrId order[] = {AT_TO_APPLY, AT_CALLS, AT_CONDITION, AT_BODY, AT_TRUE, AT_FALSE};
  Ref refs[8];
  int n = 0;
  for (size_t i = 0; i < sizeof order / sizeof order[0]; i++) {
    Ref *r = &calls->single[order[i] - AT_TO_APPLY];
    if (r->name) refs[n++] = *r;
  }
  int nb = calls->branches.n;
  Ref *sel = &calls->single[AT_SELECT - AT_TO_APPLY], *sca = &calls->single[AT_SCATTER - AT_TO_APPLY];
  int total = n + nb + (sel->name != NULL) + (sca->name != NULL);
  if (total == 0) return true;
  in->called = arena_array(&p->m->arena, (size_t)total, sizeof(Computation *));
  if (!in->called) return poom(p);
  in->ncalled = total;
  int k = 0;
  for (int i = 0; i < n; i++, k++)
    if (!add_comp_fixup(p, in, &in->called[k], refs[i].name, refs[i].len, refs[i].pos)) return false;
  for (int i = 0; i < nb; i++, k++) {
    Ref *r = &calls->branches.v[i];
    if (!add_comp_fixup(p, in, &in->called[k], r->name, r->len, r->pos)) return false;
  }
  if (sel->name && !add_comp_fixup(p, in, &in->called[k++], sel->name, sel->len, sel->pos))
    return false;
  if (sca->name && !add_comp_fixup(p, in, &in->called[k++], sca->name, sca->len, sca->pos))
    return false;
  return true;
}

static bool store_control(Parser *p, Instr *in, RefVec *ctl) {
  if (ctl->n == 0) return true;
  in->control_preds = arena_array(&p->m->arena, (size_t)ctl->n, sizeof(Instr *));
  if (!in->control_preds) return poom(p);
  in->ncontrol_preds = ctl->n;
  for (int i = 0; i < ctl->n; i++) {
    Ref *r = &ctl->v[i];
    if (!add_instr_fixup(p, in, &in->control_preds[i], r->name, r->len, r->pos)) return false;
  }
  return true;
}

/* Raw attributes of one instruction, collected on the heap (amortized
 * growth) and copied to the arena at the end. Duplicates are found with a
 * linear scan while the list is short and a hash table beyond that. */
typedef struct RawVec {
  RawAttr *v;
  int n, cap;
  NameMap names;
} RawVec;

static bool add_raw(Parser *p, RawVec *rv, const Token *name, size_t vstart, size_t vend) {
  bool dup = false;
  if (rv->n < 16) {
    for (int i = 0; i < rv->n && !dup; i++) dup = word_is(name->text, name->len, rv->v[i].name);
  } else {
    if (rv->names.n == 0)
      for (int i = 0; i < rv->n; i++)
        if (!namemap_put(&rv->names, rv->v[i].name, &rv->v[i])) return poom(p);
    dup = namemap_get(&rv->names, name->text, name->len) != NULL;
  }
  if (dup) return perr(p, name->pos, "attribute '%.*s' given twice", (int)name->len, name->text);
  if (rv->n == rv->cap) {
    int nc = rv->cap ? rv->cap * 2 : 4;
    RawAttr *nv = cxla_realloc(rv->v, (size_t)nc * sizeof *nv);
    if (!nv) return poom(p);
    rv->v = nv;
    rv->cap = nc;
    namemap_clear(&rv->names); /* its values pointed into the old array */
  }
  Arena *a = &p->m->arena;
  RawAttr *r = &rv->v[rv->n];
  r->name = arena_strndup(a, name->text, name->len);
  r->value = arena_strndup(a, p->src + vstart, vend - vstart);
  if (!r->name || !r->value) return poom(p);
  rv->n++;
  if (rv->names.n && !namemap_put(&rv->names, r->name, r)) return poom(p);
  return true;
}

static bool store_raw(Parser *p, Instr *in, RawVec *rv) {
  if (rv->n == 0) return true;
  in->raw = arena_array(&p->m->arena, (size_t)rv->n, sizeof(RawAttr));
  if (!in->raw) return poom(p);
  memcpy(in->raw, rv->v, (size_t)rv->n * sizeof(RawAttr));
  in->nraw = rv->n;
  return true;
}

bool parse_instr_attrs(Parser *p, Instr *in) {
  Calls calls;
  memset(&calls, 0, sizeof calls);
  RawVec raw;
  memset(&raw, 0, sizeof raw);
  bool seen[AT_COUNT] = {0};
  bool ok = true;
  while (ok && p->tok.kind == TOK_COMMA) {
    padvance(p);
    if (p->tok.kind != TOK_IDENT || p->tok.percent) {
      ok = pexpected(p, "an attribute name");
      break;
    }
    Token name = p->tok;
    padvance(p);
    if (p->tok.kind != TOK_EQUAL) {
      ok = pexpected(p, "'=' after the attribute name");
      break;
    }
    size_t vstart = p->tok.pos + 1, vend;
    AttrId id = AT_COUNT;
    bool known = lookup_attr(name.text, name.len, &id) && applies(id, in->op);
    /* A scalar pad's padding is empty: XLA prints `padding=` with nothing. */
    bool empty_ok = known && id == AT_PADDING && in->shape && in->shape->rank == 0;
    if (!(ok = scan_raw_value(p, vstart, empty_ok, &vend))) break;
    while (vstart < vend && (p->src[vstart] == ' ' || p->src[vstart] == '\t')) vstart++;
    if (known) {
      if (seen[id]) {
        ok = perr(p, name.pos, "attribute '%.*s' given twice", (int)name.len, name.text);
        break;
      }
      seen[id] = true;
      Cur c = {p, p->src, vstart, vend, NULL};
      char attr[40];
      snprintf(attr, sizeof attr, "%.*s", (int)name.len, name.text);
      c.attr = attr;
      ok = decode(&c, id, in, &calls) && cdone(&c);
    } else {
      ok = add_raw(p, &raw, &name, vstart, vend);
    }
    if (ok) pseek(p, vend);
  }
  if (ok) ok = store_calls(p, in, &calls) && store_control(p, in, &calls.control) &&
               store_raw(p, in, &raw);
  if (ok && in->op == OP_TOPK && !seen[AT_LARGEST]) in->topk_largest = true; /* XLA's default */
  cxla_free(calls.branches.v);
  cxla_free(calls.control.v);
  cxla_free(raw.v);
  namemap_free(&raw.names);
  return ok && !p->err;
}
