/* The HLO text printer: canonical text in the style of XLA's default
 * HloModule::ToString for optimized modules:
 *
 *   HloModule name, <header attributes verbatim>
 *
 *   <stack-frame index verbatim, if any>
 *
 *   %comp (p: f32[2]) -> f32[2] {
 *     %p = f32[2]{0} parameter(0)
 *     ROOT %n = f32[2]{0} negate(%p), metadata={...}
 *   }
 *
 *   ENTRY %main (...) -> ... {
 *     ...
 *   }
 *
 * Names take '%', operands are written without their shapes, typed
 * attributes come first in XLA's order, then the kept-verbatim ones in
 * source order. Floats are printed in the shortest form that reads back to
 * the same bits. Printing what the parser read and reading it again gives
 * the same module, so print(parse(print(parse(x)))) == print(parse(x)). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hlo/hlo.h"
#include "ir/numeric.h"
#include "base/fpenv.h"

/* ---- shapes and strings ------------------------------------------------------- */

void hlo_print_shape(StrBuf *b, const Shape *s, bool layout) { shape_print(b, s, layout); }

void hlo_print_string(StrBuf *b, const char *s) {
  sb_putc(b, '"');
  for (; *s; s++) {
    unsigned char c = (unsigned char)*s;
    switch (c) {
    case '"': sb_puts(b, "\\\""); break;
    case '\\': sb_puts(b, "\\\\"); break;
    case '\n': sb_puts(b, "\\n"); break;
    case '\t': sb_puts(b, "\\t"); break;
    case '\r': sb_puts(b, "\\r"); break;
    default:
      if (c >= 0x80) {
        /* Valid UTF-8 is copied; stray bytes (from \\x escapes) are escaped
         * so that the text stays valid input. */
        size_t n = (c & 0xe0) == 0xc0 ? 2 : (c & 0xf0) == 0xe0 ? 3 : (c & 0xf8) == 0xf0 ? 4 : 1;
        const char *why;
        if (n > 1 && strnlen(s, n) == n && hlo_check_text(s, n, &why) == n) {
          sb_putn(b, s, n);
          s += n - 1;
        } else {
          sb_printf(b, "\\%03o", c);
        }
      } else if (c < 0x20 || c == 0x7f) {
        sb_printf(b, "\\%03o", c);
      } else {
        sb_putc(b, (char)c);
      }
    }
  }
  sb_putc(b, '"');
}

/* ---- numbers ------------------------------------------------------------------- */

/* "nan", "-nan" or "nan(0x...)" for a NaN with the given sign and mantissa
 * of an IEEE-like type with mbits mantissa bits. */
static void print_nan(StrBuf *b, bool neg, uint64_t mant, int mbits) {
  uint64_t payload = mant << (52 - mbits);
  sb_puts(b, neg ? "-nan" : "nan");
  if (payload != (uint64_t)1 << 51) sb_printf(b, "(0x%llx)", (unsigned long long)payload);
}

/* Shortest %.Ng text of v that `same` accepts as reading back to the bits. */
typedef bool (*SameFn)(double parsed, const void *ctx);

static void print_shortest(StrBuf *b, double v, SameFn same, const void *ctx) {
  /* If p digits read back exactly, so do p+1 (the p-digit text is also a
   * (p+1)-digit candidate), so the shortest precision can be bisected; 17
   * always works for a double. %.17g takes at most 24 bytes; the buffer
   * has room for the 310 that gcc -O1 (the sanitizer build) assumes, as it
   * cannot see that the precision stays at most 17. */
  char buf[320];
  int lo = 1, hi = 17;
  while (lo < hi) {
    int mid = (lo + hi) / 2;
    snprintf(buf, sizeof buf, "%.*g", mid, v);
    if (same(strtod(buf, NULL), ctx)) hi = mid;
    else lo = mid + 1;
  }
  snprintf(buf, sizeof buf, "%.*g", lo, v);
  sb_puts(b, buf);
}

static bool same_f64(double x, const void *ctx) {
  return memcmp(&x, ctx, 8) == 0;
}
static bool same_f32(double x, const void *ctx) {
  float f = (float)x;
  return memcmp(&f, ctx, 4) == 0;
}
typedef struct MiniCtx {
  ElemType t;
  uint32_t bits;
} MiniCtx;
static bool same_mini(double x, const void *ctx) {
  const MiniCtx *m = ctx;
  return minifloat_encode(m->t, x) == m->bits;
}

static void print_f64(StrBuf *b, double v) {
  uint64_t u;
  memcpy(&u, &v, 8);
  if (isnan(v)) return print_nan(b, u >> 63, u & (((uint64_t)1 << 52) - 1), 52);
  if (isinf(v)) return sb_puts(b, v < 0 ? "-inf" : "inf");
  print_shortest(b, v, same_f64, &v);
}

static void print_f32(StrBuf *b, float v) {
  uint32_t u;
  memcpy(&u, &v, 4);
  if (isnan(v)) return print_nan(b, u >> 31, u & 0x7fffff, 23);
  if (isinf(v)) return sb_puts(b, v < 0 ? "-inf" : "inf");
  print_shortest(b, v, same_f32, &v);
}

static void print_minifloat(StrBuf *b, ElemType t, uint32_t bits) {
  double v = minifloat_decode(t, bits);
  int eb, mb;
  if (isnan(v)) {
    if (hlo_ieee_nan_format(t, &eb, &mb))
      return print_nan(b, (bits >> (eb + mb)) & 1, bits & ((1u << mb) - 1), mb);
    return sb_puts(b, signbit(v) ? "-nan" : "nan");
  }
  if (isinf(v)) return sb_puts(b, v < 0 ? "-inf" : "inf");
  MiniCtx ctx = {t, bits};
  print_shortest(b, v, same_mini, &ctx);
}

/* One element of l at index i. */
static void print_elem(StrBuf *b, const Literal *l, int64_t i) {
  const unsigned char *p = (const unsigned char *)l->data + i * type_bytes(l->type);
  switch (l->type) {
  case T_PRED: sb_puts(b, *p ? "true" : "false"); return;
  case T_S2: case T_S4: case T_S8: sb_printf(b, "%d", (int)*(const int8_t *)p); return;
  case T_U2: case T_U4: case T_U8: sb_printf(b, "%u", (unsigned)*p); return;
  case T_S16: { int16_t v; memcpy(&v, p, 2); sb_printf(b, "%d", (int)v); return; }
  case T_U16: { uint16_t v; memcpy(&v, p, 2); sb_printf(b, "%u", (unsigned)v); return; }
  case T_S32: { int32_t v; memcpy(&v, p, 4); sb_printf(b, "%ld", (long)v); return; }
  case T_U32: { uint32_t v; memcpy(&v, p, 4); sb_printf(b, "%lu", (unsigned long)v); return; }
  case T_S64: { int64_t v; memcpy(&v, p, 8); sb_printf(b, "%lld", (long long)v); return; }
  case T_U64: { uint64_t v; memcpy(&v, p, 8); sb_printf(b, "%llu", (unsigned long long)v); return; }
  case T_F32: { float v; memcpy(&v, p, 4); print_f32(b, v); return; }
  case T_F64: { double v; memcpy(&v, p, 8); print_f64(b, v); return; }
  case T_C64: {
    float re, im;
    memcpy(&re, p, 4);
    memcpy(&im, p + 4, 4);
    sb_putc(b, '(');
    print_f32(b, re);
    sb_puts(b, ", ");
    print_f32(b, im);
    sb_putc(b, ')');
    return;
  }
  case T_C128: {
    double re, im;
    memcpy(&re, p, 8);
    memcpy(&im, p + 8, 8);
    sb_putc(b, '(');
    print_f64(b, re);
    sb_puts(b, ", ");
    print_f64(b, im);
    sb_putc(b, ')');
    return;
  }
  case T_F16: case T_BF16: { uint16_t v; memcpy(&v, p, 2); print_minifloat(b, l->type, v); return; }
  default:
    if (minifloat_is(l->type)) print_minifloat(b, l->type, *p);
    else sb_puts(b, "?");
    return;
  }
}

/* Dimension d of a dense array starting at flat index *i. Rank-1 arrays
 * print as {1, 2}; deeper ones as { { 1, 2 }, { 3, 4 } } (XLA's one-line
 * form). */
static void print_dim(StrBuf *b, const Literal *l, int d, int64_t *i) {
  bool inner_spaces = l->rank > 1;
  if (l->dims[d] == 0) {
    sb_puts(b, "{}");
    return;
  }
  sb_puts(b, inner_spaces ? "{ " : "{");
  for (int64_t k = 0; k < l->dims[d]; k++) {
    if (k) sb_puts(b, ", ");
    if (d + 1 < l->rank) print_dim(b, l, d + 1, i);
    else print_elem(b, l, (*i)++);
  }
  sb_puts(b, inner_spaces ? " }" : "}");
}

void hlo_print_literal(StrBuf *b, const Literal *l) {
  if (l->type == T_TUPLE) {
    sb_putc(b, '(');
    for (int i = 0; i < l->ntuple; i++) {
      if (i) sb_puts(b, ", ");
      hlo_print_literal(b, l->tuple[i]);
    }
    sb_putc(b, ')');
    return;
  }
  if (l->unknown || (!l->data && l->nelems > 0)) {
    sb_puts(b, "{...}");
    return;
  }
  if (l->rank == 0) {
    print_elem(b, l, 0);
    return;
  }
  int64_t i = 0;
  print_dim(b, l, 0, &i);
}

/* ---- attributes ----------------------------------------------------------------- */

static void print_list(StrBuf *b, const char *name, const I64List *l) {
  sb_puts(b, ", ");
  sb_puts(b, name);
  sb_puts(b, "={");
  for (int i = 0; i < l->n; i++) {
    if (i) sb_putc(b, ',');
    sb_put_i64(b, l->v[i]);
  }
  sb_putc(b, '}');
}

/* "3x3" from n values picked by get. */
static void print_x(StrBuf *b, const WindowDim *w, int n, int64_t (*get)(const WindowDim *)) {
  for (int i = 0; i < n; i++) {
    if (i) sb_putc(b, 'x');
    sb_put_i64(b, get(&w[i]));
  }
}
static int64_t w_size(const WindowDim *w) { return w->size; }
static int64_t w_stride(const WindowDim *w) { return w->stride; }
static int64_t w_lhs(const WindowDim *w) { return w->lhs_dilate; }
static int64_t w_rhs(const WindowDim *w) { return w->rhs_dilate; }
static int64_t w_rev(const WindowDim *w) { return w->reversal; }

/* Like XLA: size always, other fields only when some dimension differs from
 * the default. */
static void print_window(StrBuf *b, const Instr *in) {
  const WindowDim *w = in->window;
  int n = in->nwindow;
  bool stride = false, pad = false, lhs = false, rhs = false, rev = false;
  for (int i = 0; i < n; i++) {
    stride |= w[i].stride != 1;
    pad |= w[i].pad_lo != 0 || w[i].pad_hi != 0;
    lhs |= w[i].lhs_dilate != 1;
    rhs |= w[i].rhs_dilate != 1;
    rev |= w[i].reversal;
  }
  sb_puts(b, ", window={");
  if (n > 0) {
    sb_puts(b, "size=");
    print_x(b, w, n, w_size);
  }
  if (stride) sb_puts(b, " stride="), print_x(b, w, n, w_stride);
  if (pad) {
    sb_puts(b, " pad=");
    for (int i = 0; i < n; i++)
      sb_printf(b, i ? "x%lld_%lld" : "%lld_%lld", (long long)w[i].pad_lo, (long long)w[i].pad_hi);
  }
  if (lhs) sb_puts(b, " lhs_dilate="), print_x(b, w, n, w_lhs);
  if (rhs) sb_puts(b, " rhs_dilate="), print_x(b, w, n, w_rhs);
  if (rev) sb_puts(b, " rhs_reversal="), print_x(b, w, n, w_rev);
  sb_putc(b, '}');
}

/* One dim_labels part: letters a/b at positions pa/pb, digit d at sp[d]. */
static void print_labels(StrBuf *b, char a, char bch, int64_t pa, int64_t pb, const int64_t *sp,
                         int n) {
  int rank = n + 2;
  char buf[16];
  for (int i = 0; i < rank; i++) buf[i] = '?';
  if (pa >= 0 && pa < rank) buf[pa] = a;
  if (pb >= 0 && pb < rank) buf[pb] = bch;
  for (int d = 0; d < n; d++)
    if (sp && sp[d] >= 0 && sp[d] < rank) buf[sp[d]] = (char)('0' + d);
  sb_putn(b, buf, (size_t)rank);
}

static void print_dim_labels(StrBuf *b, const ConvDims *c) {
  int n = c->nspatial;
  if (n < 0 || n > 10) n = 0;
  sb_puts(b, ", dim_labels=");
  print_labels(b, 'b', 'f', c->in_batch, c->in_feature, c->in_spatial, n);
  sb_putc(b, '_');
  print_labels(b, 'i', 'o', c->k_in, c->k_out, c->k_spatial, n);
  sb_puts(b, "->");
  print_labels(b, 'b', 'f', c->out_batch, c->out_feature, c->out_spatial, n);
}

static const char *bool_s(bool v) { return v ? "true" : "false"; }

static void print_comp_ref(StrBuf *b, const char *attr, const Computation *c) {
  sb_printf(b, ", %s=%%%s", attr, c ? c->name : "?");
}

/* Called computations, with the attribute names XLA uses for the opcode. */
static void print_called(StrBuf *b, const Instr *in) {
  int n = in->ncalled;
  Computation *const *c = in->called;
  if (n == 0) return;
  switch (in->op) {
  case OP_WHILE:
    if (n == 2) {
      print_comp_ref(b, "condition", c[0]);
      print_comp_ref(b, "body", c[1]);
      return;
    }
    break;
  case OP_SELECT_AND_SCATTER:
    if (n == 2) {
      print_comp_ref(b, "select", c[0]);
      print_comp_ref(b, "scatter", c[1]);
      return;
    }
    break;
  case OP_CONDITIONAL:
    if (n == 2 && in->noperands > 0 && in->operands[0] && in->operands[0]->shape &&
        in->operands[0]->shape->type == T_PRED) {
      print_comp_ref(b, "true_computation", c[0]);
      print_comp_ref(b, "false_computation", c[1]);
      return;
    }
    sb_puts(b, ", branch_computations={");
    for (int i = 0; i < n; i++) sb_printf(b, i ? ", %%%s" : "%%%s", c[i] ? c[i]->name : "?");
    sb_putc(b, '}');
    return;
  case OP_FUSION: case OP_ASYNC_START: case OP_ASYNC_UPDATE: case OP_ASYNC_DONE:
    if (n == 1) {
      print_comp_ref(b, "calls", c[0]);
      return;
    }
    break;
  default:
    if (n == 1) {
      print_comp_ref(b, "to_apply", c[0]);
      return;
    }
    break;
  }
  /* An unusual count for the opcode: to_apply then calls, as parsed. */
  print_comp_ref(b, "to_apply", c[0]);
  for (int i = 1; i < n; i++) print_comp_ref(b, "calls", c[i]);
}

static const char *const cmp_dirs[] = {"?", "EQ", "NE", "LT", "LE", "GT", "GE"};
static const char *const cmp_types[] = {"?", "FLOAT", "TOTALORDER", "SIGNED", "UNSIGNED"};
static const char *const fft_types[] = {"?", "FFT", "IFFT", "RFFT", "IRFFT"};
static const char *const rng_dists[] = {"?", "rng_uniform", "rng_normal"};
static const char *const rng_algs[] = {"rng_default", "rng_three_fry", "rng_philox"};
static const char *const transposes[] = {"NO_TRANSPOSE", "TRANSPOSE", "ADJOINT"};
static const char *const fusion_kinds[] = {"?", "kLoop", "kInput", "kOutput", "kCustom"};
#define NAME_OF(table, v) ((unsigned)(v) < sizeof table / sizeof table[0] ? table[v] : "?")

static void print_attrs(StrBuf *b, const Instr *in) {
  uint32_t a = in->attrs;
  if (a & A_SLICE) {
    int n = in->shape ? in->shape->rank : 0; /* operand rank == result rank */
    bool strides = false; /* XLA writes every stride when one is not 1 */
    for (int i = 0; i < n && in->slice; i++) strides |= in->slice[i].stride != 1;
    sb_puts(b, ", slice={");
    for (int i = 0; i < n && in->slice; i++) {
      const SliceDim *s = &in->slice[i];
      sb_puts(b, i ? ", [" : "[");
      sb_put_i64(b, s->start);
      sb_putc(b, ':');
      sb_put_i64(b, s->limit);
      if (strides) sb_putc(b, ':'), sb_put_i64(b, s->stride);
      sb_putc(b, ']');
    }
    sb_putc(b, '}');
  }
  if (a & A_PADDING) {
    int n = in->shape ? in->shape->rank : 0;
    sb_puts(b, ", padding=");
    for (int i = 0; i < n && in->padding; i++) {
      const PadDim *p = &in->padding[i];
      sb_printf(b, "%s%lld_%lld", i ? "x" : "", (long long)p->lo, (long long)p->hi);
      if (p->interior) sb_printf(b, "_%lld", (long long)p->interior);
    }
  }
  if (a & A_DIMENSIONS) print_list(b, "dimensions", &in->dimensions);
  if (a & A_INDEX) sb_puts(b, ", index="), sb_put_i64(b, in->index);
  if (a & A_IOTA_DIM) sb_printf(b, ", iota_dimension=%lld", (long long)in->index);
  if (a & A_WINDOW) print_window(b, in);
  if (a & A_CONV_DIMS) print_dim_labels(b, &in->conv);
  if (a & A_GROUPS) {
    if (in->feature_group_count != 1)
      sb_printf(b, ", feature_group_count=%lld", (long long)in->feature_group_count);
    if (in->batch_group_count != 1)
      sb_printf(b, ", batch_group_count=%lld", (long long)in->batch_group_count);
  }
  if (a & A_DOT_DIMS) {
    if (in->dot.lhs_batch.n) print_list(b, "lhs_batch_dims", &in->dot.lhs_batch);
    print_list(b, "lhs_contracting_dims", &in->dot.lhs_contract);
    if (in->dot.rhs_batch.n) print_list(b, "rhs_batch_dims", &in->dot.rhs_batch);
    print_list(b, "rhs_contracting_dims", &in->dot.rhs_contract);
  }
  if (a & A_GATHER_DIMS) {
    const GatherDims *g = &in->gather;
    print_list(b, "offset_dims", &g->offset_dims);
    print_list(b, "collapsed_slice_dims", &g->collapsed_slice_dims);
    print_list(b, "start_index_map", &g->start_index_map);
    if (g->operand_batching_dims.n) print_list(b, "operand_batching_dims", &g->operand_batching_dims);
    if (g->start_indices_batching_dims.n)
      print_list(b, "start_indices_batching_dims", &g->start_indices_batching_dims);
    sb_printf(b, ", index_vector_dim=%lld", (long long)g->index_vector_dim);
  }
  if (a & A_SLICE_SIZES) print_list(b, "slice_sizes", &in->slice_sizes);
  if (a & A_SCATTER_DIMS) {
    const ScatterDims *s = &in->scatter;
    print_list(b, "update_window_dims", &s->update_window_dims);
    print_list(b, "inserted_window_dims", &s->inserted_window_dims);
    print_list(b, "scatter_dims_to_operand_dims", &s->scatter_dims_to_operand_dims);
    if (s->input_batching_dims.n) print_list(b, "input_batching_dims", &s->input_batching_dims);
    if (s->scatter_indices_batching_dims.n)
      print_list(b, "scatter_indices_batching_dims", &s->scatter_indices_batching_dims);
    sb_printf(b, ", index_vector_dim=%lld", (long long)s->index_vector_dim);
  }
  if (a & A_INDICES_SORTED) sb_printf(b, ", indices_are_sorted=%s", bool_s(in->indices_are_sorted));
  if (a & A_UNIQUE_INDICES) sb_printf(b, ", unique_indices=%s", bool_s(in->unique_indices));
  if (a & A_DYN_SLICE_SIZES) print_list(b, "dynamic_slice_sizes", &in->slice_sizes);
  if (a & A_COMPARE) {
    if (in->cmp_dir != CMP_NONE) sb_printf(b, ", direction=%s", NAME_OF(cmp_dirs, in->cmp_dir));
    if (in->cmp_type != CMPT_DEFAULT) sb_printf(b, ", type=%s", NAME_OF(cmp_types, in->cmp_type));
  }
  if (a & A_REDUCE_PRECISION)
    sb_printf(b, ", exponent_bits=%lld, mantissa_bits=%lld", (long long)in->exponent_bits,
              (long long)in->mantissa_bits);
  if (a & A_FFT) {
    if (in->fft_type != FFT_NONE) sb_printf(b, ", fft_type=%s", NAME_OF(fft_types, in->fft_type));
    print_list(b, "fft_length", &in->fft_length);
  }
  if (a & A_RNG) {
    if (in->rng_dist != RNG_NONE) sb_printf(b, ", distribution=%s", NAME_OF(rng_dists, in->rng_dist));
    if (in->op == OP_RNG_BIT_GENERATOR) sb_printf(b, ", algorithm=%s", NAME_OF(rng_algs, in->rng_alg));
  }
  if (a & A_CUSTOM_CALL) {
    sb_puts(b, ", custom_call_target=");
    hlo_print_string(b, in->custom_call_target ? in->custom_call_target : "");
  }
  if (a & A_IS_STABLE) sb_printf(b, ", is_stable=%s", bool_s(in->is_stable));
  if (a & A_TRIANGULAR) {
    if (in->tri_left_side) sb_puts(b, ", left_side=true");
    if (in->tri_lower) sb_puts(b, ", lower=true");
    if (in->tri_unit_diagonal) sb_puts(b, ", unit_diagonal=true");
    sb_printf(b, ", transpose_a=%s", NAME_OF(transposes, in->tri_transpose));
  }
  if ((a & A_CHOLESKY) && in->chol_lower) sb_puts(b, ", lower=true");
  if (a & A_FUSION_KIND) sb_printf(b, ", kind=%s", NAME_OF(fusion_kinds, in->fusion_kind));
  if (a & A_TOPK) sb_printf(b, ", k=%lld, largest=%s", (long long)in->topk_k, bool_s(in->topk_largest));
  print_called(b, in);
  if (in->ncontrol_preds) {
    sb_puts(b, ", control-predecessors={");
    for (int i = 0; i < in->ncontrol_preds; i++)
      sb_printf(b, i ? ", %%%s" : "%%%s", in->control_preds[i] ? in->control_preds[i]->name : "?");
    sb_putc(b, '}');
  }
  /* custom_call_has_side_effect goes where XLA prints it: after
   * operand_layout_constraints, before everything else kept raw. */
  bool side = (a & A_SIDE_EFFECT) != 0;
  for (int i = 0; i < in->nraw; i++) {
    if (side && strcmp(in->raw[i].name, "operand_layout_constraints") != 0) {
      sb_printf(b, ", custom_call_has_side_effect=%s", bool_s(in->has_side_effect));
      side = false;
    }
    sb_printf(b, ", %s=%s", in->raw[i].name, in->raw[i].value);
  }
  if (side) sb_printf(b, ", custom_call_has_side_effect=%s", bool_s(in->has_side_effect));
}

/* ---- structure ------------------------------------------------------------------- */

static void print_instr(StrBuf *b, const Computation *c, const Instr *in) {
  sb_puts(b, in == c->root ? "  ROOT %" : "  %");
  sb_puts(b, in->name);
  sb_puts(b, " = ");
  hlo_print_shape(b, in->shape, true);
  sb_putc(b, ' ');
  sb_puts(b, op_name(in->op));
  sb_putc(b, '(');
  if (in->op == OP_PARAMETER) {
    sb_put_i64(b, in->param_number);
  } else if (in->op == OP_CONSTANT) {
    if (in->literal) hlo_print_literal(b, in->literal);
  } else {
    for (int i = 0; i < in->noperands; i++) {
      if (i) sb_puts(b, ", ");
      if (i && i % 5 == 0) sb_printf(b, "/*index=%d*/", i);
      sb_putc(b, '%');
      sb_puts(b, in->operands[i] ? in->operands[i]->name : "?");
    }
  }
  sb_putc(b, ')');
  print_attrs(b, in);
  sb_putc(b, '\n');
}

static void print_computation(StrBuf *b, const Computation *c) {
  bool entry = c->is_entry || (c->module && c->module->entry == c);
  sb_printf(b, "%s%%%s (", entry ? "ENTRY " : "", c->name);
  for (int i = 0; i < c->nparams; i++) {
    const Instr *p = c->params[i];
    if (!p) continue;
    sb_printf(b, "%s%s: ", i ? ", " : "", p->name);
    hlo_print_shape(b, p->shape, false);
  }
  sb_puts(b, ") -> ");
  if (c->root) hlo_print_shape(b, c->root->shape, false);
  sb_puts(b, " {\n");
  for (int i = 0; i < c->ninstrs; i++) print_instr(b, c, c->instrs[i]);
  sb_puts(b, "}\n");
}

static cxla_status module_print(const cxla_module *m, char **out_text) {
  *out_text = NULL;
  StrBuf b;
  sb_init(&b);
  sb_printf(&b, "HloModule %s", m->name);
  hlo_print_header_attrs(&b, m);
  sb_puts(&b, "\n\n");
  if (m->stack_frames) {
    sb_puts(&b, m->stack_frames);
    sb_puts(&b, "\n\n\n");
  }
  for (int i = 0; i < m->ncomps; i++) {
    print_computation(&b, m->comps[i]);
    sb_putc(&b, '\n'); /* a blank line after each computation, as XLA */
  }
  char *s = sb_take(&b);
  if (!s) return cxla_oom();
  *out_text = s;
  return NULL;
}

cxla_status cxla_module_print(const cxla_module *m, char **out_text) {
  unsigned fp = fpenv_default_enter();
  cxla_status s = module_print(m, out_text);
  fpenv_leave(fp);
  return s;
}
