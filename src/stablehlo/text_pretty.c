/* The StableHLO text reader: pretty (custom assembly) forms of the ops JAX
 * prints, each expanded to the generic form's attributes and regions
 * (mlir.h, "THE NORMALIZED FORM"). */
#include <string.h>

#include "ir/ir.h"
#include "stablehlo/text_internal.h"

bool tx_parse_func_op(P *p, OpB *b);
bool tx_parse_module_op(P *p, OpB *b);
bool tx_parse_conv_dims(P *p, MlirConvDims *c);

/* ---- pieces ------------------------------------------------------------------ */

static bool next_is_value_after_comma(P *p) {
  size_t save = p->i;
  bool r = false;
  if (tx_eat(p, ',')) r = tx_peek(p, '%');
  p->i = save;
  return r;
}

/* %a, %b, ... (stops before a ", keyword"). */
static bool operands(P *p, OpB *b) {
  if (!tx_peek(p, '%')) return true;
  do {
    MlirValue *v;
    if (!tx_parse_use(p, &v) || !tx_pv_push(p, &b->operands, v)) return false;
  } while (next_is_value_after_comma(p) && tx_eat(p, ','));
  return true;
}

static bool opt_attr_dict(P *p, OpB *b) {
  if (tx_peek(p, '{')) return tx_parse_attr_dict(p, &b->anames, &b->avals);
  return true;
}

enum { SIG_SAME, SIG_SELECT, SIG_LIST };

/* ": T" | ": (Ts) -> Rs" | ": T1, T2 [-> Rs]" | "T -> R" */
static bool signature(P *p, OpB *b, int policy) {
  if (!tx_expect(p, ':', "before the op's type")) return false;
  PtrVec ts = {0}, outs = {0};
  do {
    MlirType *t;
    if (!tx_parse_type(p, &t) || !tx_pv_push(p, &ts, t)) return false;
  } while (tx_eat(p, ','));
  if (ts.n == 1 && ((MlirType *)ts.v[0])->kind == MLT_FUNCTION) {
    MlirType *f = ts.v[0];
    for (int k = 0; k < f->nresults; k++)
      if (!tx_pv_push(p, &b->rtypes, f->results[k])) return false;
    return true;
  }
  if (tx_eat_arrow(p)) {
    if (tx_peek(p, '(')) {
      if (!tx_parse_type_list_paren(p, &outs)) return false;
    } else {
      MlirType *r;
      if (!tx_parse_type(p, &r) || !tx_pv_push(p, &outs, r)) return false;
    }
    for (int k = 0; k < outs.n; k++)
      if (!tx_pv_push(p, &b->rtypes, outs.v[k])) return false;
    return true;
  }
  if (policy == SIG_LIST) {
    for (int k = 0; k < ts.n; k++)
      if (!tx_pv_push(p, &b->rtypes, ts.v[k])) return false;
    return true;
  }
  if (policy == SIG_SELECT) {
    if (ts.n != 2) return tx_perr(p, "expected 'predicate type, result type'");
    return tx_pv_push(p, &b->rtypes, ts.v[1]);
  }
  if (ts.n != 1) return tx_perr(p, "expected one type or a function type");
  return tx_pv_push(p, &b->rtypes, ts.v[0]);
}

static bool kw_eq(P *p, const char *kw) {
  return tx_expect(p, ',', NULL) && tx_expect_kw(p, kw) && tx_expect(p, '=', NULL);
}

static bool list_attr(P *p, OpB *b, const char *name) {
  MlirI64s l;
  if (!tx_parse_i64_list(p, &l)) return false;
  return tx_opb_attr(p, b, name, tx_attr_i64_array(p, l.v, l.n));
}

static bool int_attr(P *p, OpB *b, const char *name, cxla_type t) {
  int64_t v;
  if (!tx_parse_i64(p, &v)) return false;
  return tx_opb_attr(p, b, name, tx_attr_int(p, v, t));
}

static bool bool_kw(P *p, bool *out) {
  if (tx_eat_kw(p, "true")) *out = true;
  else if (tx_eat_kw(p, "false")) *out = false;
  else return tx_perr(p, "expected true or false");
  return true;
}

/* [A, B] of enum cases */
static bool enum_list_attr(P *p, OpB *b, const char *name, MlirEnumKind k) {
  PtrVec el = {0};
  if (!tx_expect(p, '[', NULL)) return false;
  if (!tx_peek(p, ']')) {
    do {
      MlirAttr *e;
      if (!tx_parse_enum_case(p, k, &e) || !tx_pv_push(p, &el, e)) return false;
    } while (tx_eat(p, ','));
  }
  if (!tx_expect(p, ']', NULL)) return false;
  MlirAttr *a = tx_attr_new(p, MA_ARRAY);
  if (!a) return false;
  a->n = el.n;
  a->elems = (MlirAttr **)el.v;
  return tx_opb_attr(p, b, name, a);
}

/* A 2-D padding [[lo, hi], ...] as the dense tensor<Nx2xi64> the generic form has. */
static MlirAttr *padding_attr(P *p, const int64_t *v, int nrows) {
  MlirAttr *a = tx_attr_new(p, MA_DENSE);
  if (!a) return NULL;
  MlirType *t = tx_type_new(p, MLT_TENSOR);
  if (!t) return NULL;
  t->rank = 2;
  int64_t dims[2] = {nrows, 2};
  t->dims = arena_i64dup(p->a, dims, 2);
  t->element = tx_type_elem(p, CXLA_S64);
  uint8_t *d = arena_alloc(p->a, (size_t)nrows * 16 + 1);
  if (!t->dims || !t->element || !d) {
    tx_oom(p);
    return NULL;
  }
  memcpy(d, v, (size_t)nrows * 16);
  a->type = t;
  a->data = d;
  a->nbytes = (size_t)nrows * 16;
  /* splat when all entries are equal (the normalized form, mlir.h) */
  bool same = nrows > 0;
  for (int k = 1; same && k < 2 * nrows; k++) same = v[k] == v[0];
  if (same) {
    a->splat = true;
    a->nbytes = 8;
  }
  return a;
}

/* ---- op forms ------------------------------------------------------------------ */

static bool p_same(P *p, OpB *b) {
  return operands(p, b) && opt_attr_dict(p, b) && signature(p, b, SIG_SAME);
}

static bool p_list(P *p, OpB *b) {
  if (!operands(p, b) || !opt_attr_dict(p, b)) return false;
  if (!b->operands.n && !tx_peek(p, ':')) return true; /* return with no values */
  return signature(p, b, SIG_LIST);
}

/* return: "%a, %b : T1, T2"; the types are the operands', no results. */
static bool p_return(P *p, OpB *b) {
  if (!p_list(p, b)) return false;
  if (b->rtypes.n != b->operands.n)
    return tx_perr(p, "%d type(s) for %d returned value(s)", b->rtypes.n, b->operands.n);
  b->rtypes.n = 0;
  return true;
}

static bool p_select(P *p, OpB *b) {
  return operands(p, b) && opt_attr_dict(p, b) && signature(p, b, SIG_SELECT);
}

static bool p_constant(P *p, OpB *b) {
  if (!opt_attr_dict(p, b)) return false;
  MlirAttr *v;
  if (!tx_parse_attr(p, &v)) return false;
  if (!v->type || (v->kind != MA_DENSE && v->kind != MA_INT && v->kind != MA_FLOAT &&
                   v->kind != MA_BOOL))
    return tx_perr(p, "expected a typed constant value (dense<...> : tensor<...>)");
  if (!tx_opb_attr(p, b, "value", v)) return false;
  return tx_pv_push(p, &b->rtypes, v->type);
}

static bool p_iota(P *p, OpB *b) {
  if (!tx_expect_kw(p, "dim") || !tx_expect(p, '=', NULL) || !int_attr(p, b, "iota_dimension", CXLA_S64))
    return false;
  return opt_attr_dict(p, b) && signature(p, b, SIG_SAME);
}

static bool p_compare(P *p, OpB *b) {
  MlirAttr *d;
  if (!tx_parse_enum_case(p, ME_COMPARISON_DIRECTION, &d) ||
      !tx_opb_attr(p, b, "comparison_direction", d) || !tx_expect(p, ',', NULL) || !operands(p, b))
    return false;
  if (tx_eat(p, ',')) {
    MlirAttr *t;
    if (!tx_parse_enum_case(p, ME_COMPARISON_TYPE, &t) || !tx_opb_attr(p, b, "compare_type", t))
      return false;
  }
  return opt_attr_dict(p, b) && signature(p, b, SIG_SAME);
}

/* %x, KW = [list] [attr-dict] : sig */
static bool p_operand_list_kw(P *p, OpB *b, const char *kw, const char *attr) {
  return operands(p, b) && kw_eq(p, kw) && list_attr(p, b, attr) && opt_attr_dict(p, b) &&
         signature(p, b, SIG_SAME);
}

/* dynamic_iota %shape, dim = N */
static bool p_dynamic_iota(P *p, OpB *b) {
  return operands(p, b) && kw_eq(p, "dim") && int_attr(p, b, "iota_dimension", CXLA_S64) &&
         opt_attr_dict(p, b) && signature(p, b, SIG_SAME);
}

/* get_dimension_size %x, dim = N / set_dimension_size %x, %s, dim = N */
static bool p_dimension_size(P *p, OpB *b) {
  return operands(p, b) && kw_eq(p, "dim") && int_attr(p, b, "dimension", CXLA_S64) &&
         opt_attr_dict(p, b) && signature(p, b, SIG_SAME);
}

static bool p_concatenate(P *p, OpB *b) {
  return operands(p, b) && kw_eq(p, "dim") && int_attr(p, b, "dimension", CXLA_S64) &&
         opt_attr_dict(p, b) && signature(p, b, SIG_SAME);
}

static bool p_slice(P *p, OpB *b) {
  if (!operands(p, b)) return false;
  if (tx_peek(p, ',')) { /* older keyword form */
    if (!kw_eq(p, "start_indices") || !list_attr(p, b, "start_indices") ||
        !kw_eq(p, "limit_indices") || !list_attr(p, b, "limit_indices") ||
        !kw_eq(p, "strides") || !list_attr(p, b, "strides"))
      return false;
    return opt_attr_dict(p, b) && signature(p, b, SIG_SAME);
  }
  int64_t st[64], li[64], sd[64];
  int n = 0;
  if (!tx_expect(p, '[', "opening the slice ranges")) return false;
  if (!tx_peek(p, ']')) {
    do {
      if (n == 64) return tx_perr(p, "too many slice dimensions");
      if (!tx_parse_i64(p, &st[n]) || !tx_expect(p, ':', "in a slice range") || !tx_parse_i64(p, &li[n]))
        return false;
      sd[n] = 1;
      if (tx_eat(p, ':') && !tx_parse_i64(p, &sd[n])) return false;
      n++;
    } while (tx_eat(p, ','));
  }
  if (!tx_expect(p, ']', "closing the slice ranges")) return false;
  return tx_opb_attr(p, b, "start_indices", tx_attr_i64_array(p, st, n)) &&
         tx_opb_attr(p, b, "limit_indices", tx_attr_i64_array(p, li, n)) &&
         tx_opb_attr(p, b, "strides", tx_attr_i64_array(p, sd, n)) && opt_attr_dict(p, b) &&
         signature(p, b, SIG_SAME);
}

static bool p_pad(P *p, OpB *b) {
  return operands(p, b) && kw_eq(p, "low") && list_attr(p, b, "edge_padding_low") &&
         kw_eq(p, "high") && list_attr(p, b, "edge_padding_high") && kw_eq(p, "interior") &&
         list_attr(p, b, "interior_padding") && opt_attr_dict(p, b) && signature(p, b, SIG_SAME);
}

static bool p_gte(P *p, OpB *b) {
  if (!operands(p, b) || !tx_expect(p, '[', "before the tuple index") ||
      !int_attr(p, b, "index", CXLA_S32) || !tx_expect(p, ']', "after the tuple index"))
    return false;
  return opt_attr_dict(p, b) && signature(p, b, SIG_SAME);
}

static bool p_reduce_precision(P *p, OpB *b) {
  if (!operands(p, b) || !kw_eq(p, "format")) return false;
  tx_ws(p);
  /* eXmY */
  const char *s;
  size_t n;
  size_t st = p->i;
  if (!tx_ident(p, &s, &n) || n < 4 || s[0] != 'e') return tx_perr_at(p, st, "expected eXmY");
  int64_t e = 0, m = 0;
  size_t k = 1;
  while (k < n && s[k] >= '0' && s[k] <= '9' && e < 100000) e = e * 10 + (s[k++] - '0');
  if (k >= n || s[k] != 'm' || k == 1) return tx_perr_at(p, st, "expected eXmY");
  size_t ms = ++k;
  while (k < n && s[k] >= '0' && s[k] <= '9' && m < 100000) m = m * 10 + (s[k++] - '0');
  if (k != n || k == ms) return tx_perr_at(p, st, "expected eXmY");
  return tx_opb_attr(p, b, "exponent_bits", tx_attr_int(p, e, CXLA_S32)) &&
         tx_opb_attr(p, b, "mantissa_bits", tx_attr_int(p, m, CXLA_S32)) && opt_attr_dict(p, b) &&
         signature(p, b, SIG_SAME);
}

static bool p_fft(P *p, OpB *b) {
  MlirAttr *t;
  return operands(p, b) && kw_eq(p, "type") && tx_parse_enum_case(p, ME_FFT_TYPE, &t) &&
         tx_opb_attr(p, b, "fft_type", t) && kw_eq(p, "length") && list_attr(p, b, "fft_length") &&
         opt_attr_dict(p, b) && signature(p, b, SIG_SAME);
}

static bool p_dot_general(P *p, OpB *b) {
  if (!operands(p, b)) return false;
  MlirAttr *d = tx_attr_new(p, MA_DOT);
  if (!d) return false;
  while (tx_eat(p, ',')) {
    const char *s;
    size_t n;
    if (!tx_ident(p, &s, &n) || !tx_expect(p, '=', NULL)) return tx_perr(p, "expected 'name = ...'");
    if (n == 13 && !memcmp(s, "batching_dims", 13)) {
      if (!tx_parse_i64_list(p, &d->dot.lhs_batch) || !tx_expect_kw(p, "x") ||
          !tx_parse_i64_list(p, &d->dot.rhs_batch))
        return false;
    } else if (n == 16 && !memcmp(s, "contracting_dims", 16)) {
      if (!tx_parse_i64_list(p, &d->dot.lhs_contract) || !tx_expect_kw(p, "x") ||
          !tx_parse_i64_list(p, &d->dot.rhs_contract))
        return false;
    } else if (n == 9 && !memcmp(s, "precision", 9)) {
      if (!enum_list_attr(p, b, "precision_config", ME_PRECISION)) return false;
    } else if (n == 9 && !memcmp(s, "algorithm", 9)) {
      /* algorithm = <lhs_precision_type = ..., ...> */
      tx_ws(p);
      MlirAttr *alg;
      /* parse "#stablehlo.dot_algorithm" + the <...> written bare */
      size_t st = p->i;
      if (!tx_peek(p, '<')) return tx_perr(p, "expected '<' after algorithm =");
      /* Reuse the attribute parser on a synthesized spelling: simplest is to
       * read it as an opaque group; the importer ignores the algorithm. */
      (void)st;
      alg = tx_attr_new(p, MA_DOT_ALGORITHM);
      if (!alg) return false;
      int depth = 0;
      do {
        if (p->i >= p->n) return tx_perr(p, "unterminated algorithm");
        char c = p->s[p->i++];
        if (c == '<') depth++;
        else if (c == '>' && p->s[p->i - 2] != '-') depth--;
      } while (depth > 0);
      if (!tx_opb_attr(p, b, "algorithm", alg)) return false;
    } else {
      return tx_perr(p, "unknown dot_general keyword '%.*s'", (int)n, s);
    }
  }
  return tx_opb_attr(p, b, "dot_dimension_numbers", d) && opt_attr_dict(p, b) &&
         signature(p, b, SIG_SAME);
}

static bool p_dot(P *p, OpB *b) {
  if (!operands(p, b)) return false;
  if (tx_eat(p, ',')) {
    if (!tx_expect_kw(p, "precision") || !tx_expect(p, '=', NULL) ||
        !enum_list_attr(p, b, "precision_config", ME_PRECISION))
      return false;
  }
  return opt_attr_dict(p, b) && signature(p, b, SIG_SAME);
}

static bool p_convolution(P *p, OpB *b) {
  if (!tx_expect(p, '(', NULL) || !operands(p, b) || !tx_expect(p, ')', NULL)) return false;
  if (!tx_expect_kw(p, "dim_numbers") || !tx_expect(p, '=', NULL)) return false;
  MlirAttr *d = tx_attr_new(p, MA_CONV);
  if (!d || !tx_parse_conv_dims(p, &d->conv) || !tx_opb_attr(p, b, "dimension_numbers", d))
    return false;
  int ns = d->conv.in_spatial.n;
  if (tx_eat(p, ',')) {
    if (!tx_expect_kw(p, "window") || !tx_expect(p, '=', NULL) || !tx_expect(p, '{', NULL)) return false;
    if (!tx_peek(p, '}')) {
      do {
        const char *s;
        size_t n;
        if (!tx_ident(p, &s, &n) || !tx_expect(p, '=', NULL)) return tx_perr(p, "expected 'name = ...'");
        if (n == 3 && !memcmp(s, "pad", 3)) {
          int64_t v[128];
          int k = 0;
          if (!tx_expect(p, '[', NULL)) return false;
          if (!tx_peek(p, ']')) {
            do {
              if (k >= 126) return tx_perr(p, "too many padding entries");
              if (!tx_expect(p, '[', NULL) || !tx_parse_i64(p, &v[k]) || !tx_expect(p, ',', NULL) ||
                  !tx_parse_i64(p, &v[k + 1]) || !tx_expect(p, ']', NULL))
                return false;
              k += 2;
            } while (tx_eat(p, ','));
          }
          if (!tx_expect(p, ']', NULL) || !tx_opb_attr(p, b, "padding", padding_attr(p, v, k / 2)))
            return false;
        } else if (n == 7 && !memcmp(s, "reverse", 7)) {
          int64_t v[64];
          int k = 0;
          if (!tx_expect(p, '[', NULL)) return false;
          if (!tx_peek(p, ']')) {
            do {
              bool bv = false;
              if (k == 64 || !bool_kw(p, &bv)) return k == 64 ? tx_perr(p, "too many") : false;
              v[k++] = bv;
            } while (tx_eat(p, ','));
          }
          if (!tx_expect(p, ']', NULL) ||
              !tx_opb_attr(p, b, "window_reversal", tx_attr_bool_array(p, v, k)))
            return false;
        } else {
          const char *an = (n == 6 && !memcmp(s, "stride", 6))       ? "window_strides"
                           : (n == 10 && !memcmp(s, "lhs_dilate", 10)) ? "lhs_dilation"
                           : (n == 10 && !memcmp(s, "rhs_dilate", 10)) ? "rhs_dilation"
                                                                       : NULL;
          if (!an) return tx_perr(p, "unknown convolution window field '%.*s'", (int)n, s);
          if (!list_attr(p, b, an)) return false;
        }
      } while (tx_eat(p, ','));
    }
    if (!tx_expect(p, '}', "closing the window")) return false;
  }
  (void)ns;
  return opt_attr_dict(p, b) && signature(p, b, SIG_SAME);
}

/* The pretty reduce: (%x init: %i), ... applies OP across dimensions = [..] : sig
 * or ... across dimensions = [..] : sig reducer(%a: T, %b: T) (...) { body } */
static bool p_reduce(P *p, OpB *b) {
  PtrVec inputs = {0}, inits = {0};
  do {
    MlirValue *x, *i;
    if (!tx_expect(p, '(', NULL) || !tx_parse_use(p, &x) || !tx_expect_kw(p, "init") ||
        !tx_expect(p, ':', NULL) || !tx_parse_use(p, &i) || !tx_expect(p, ')', NULL) ||
        !tx_pv_push(p, &inputs, x) || !tx_pv_push(p, &inits, i))
      return false;
  } while (tx_eat(p, ','));
  for (int k = 0; k < inputs.n; k++)
    if (!tx_pv_push(p, &b->operands, inputs.v[k])) return false;
  for (int k = 0; k < inits.n; k++)
    if (!tx_pv_push(p, &b->operands, inits.v[k])) return false;
  const char *applied = NULL;
  size_t applied_len = 0;
  size_t applied_off = 0;
  if (tx_eat_kw(p, "applies")) {
    tx_ws(p);
    applied_off = p->i;
    if (!tx_ident(p, &applied, &applied_len)) return tx_perr(p, "expected the applied op's name");
  }
  if (!tx_expect_kw(p, "across") || !tx_expect_kw(p, "dimensions") || !tx_expect(p, '=', NULL) ||
      !list_attr(p, b, "dimensions") || !opt_attr_dict(p, b) || !signature(p, b, SIG_SAME))
    return false;
  int n = inputs.n;
  if (applied) {
    /* One block: (acc_0..acc_n-1, x_0..x_n-1) of the inits' element tensors. */
    MlirRegion *r = tx_region_new(p, b->op);
    if (!r) return false;
    MlirBlock *blk = r->blocks[0];
    EntryArg args[2 * 64];
    if (n > 64) return tx_perr(p, "too many reduce inputs");
    for (int k = 0; k < 2 * n; k++) {
      MlirValue *iv = inits.v[k % n];
      args[k].type = iv->type;
      args[k].name = NULL;
    }
    int mark = tx_scope_mark(p);
    if (!tx_block_set_args(p, blk, args, 2 * n)) return false;
    tx_scope_pop(p, mark);
    MlirOp *inner = arena_alloc(p->a, sizeof *inner);
    MlirOp *ret = arena_alloc(p->a, sizeof *ret);
    MlirOp **ops = arena_array(p->a, 2, sizeof(MlirOp *));
    MlirValue **iops = arena_array(p->a, (size_t)(2 * n), sizeof(MlirValue *));
    MlirValue *ires = arena_array(p->a, (size_t)n, sizeof(MlirValue));
    MlirValue **rops = arena_array(p->a, (size_t)n, sizeof(MlirValue *));
    char *iname = arena_strndup(p->a, applied, applied_len);
    if (!inner || !ret || !ops || !iops || !ires || !rops || !iname) return tx_oom(p);
    inner->name = iname;
    inner->pos = tx_pos_at(p, applied_off);
    inner->parent = blk;
    inner->noperands = 2 * n;
    inner->operands = iops;
    for (int k = 0; k < 2 * n; k++) iops[k] = &blk->args[k];
    inner->nresults = n;
    inner->results = ires;
    for (int k = 0; k < n; k++) {
      ires[k].type = blk->args[k].type;
      ires[k].owner = inner;
      ires[k].index = k;
      rops[k] = &ires[k];
    }
    ret->name = "stablehlo.return";
    ret->pos = inner->pos;
    ret->parent = blk;
    ret->noperands = n;
    ret->operands = rops;
    ops[0] = inner;
    ops[1] = ret;
    blk->nops = 2;
    blk->ops = ops;
    return tx_pv_push(p, &b->regions, r);
  }
  /* reducer(%a: T, %c: T) (%b: T, %d: T) { ... }: pair k is (acc_k, x_k). */
  if (!tx_expect_kw(p, "reducer")) return false;
  EntryArg args[2 * 64];
  if (n > 64) return tx_perr(p, "too many reduce inputs");
  for (int k = 0; k < n; k++) {
    for (int j = 0; j < 2; j++) {
      EntryArg *ea = &args[k + j * n];
      if (j == 0 && !tx_expect(p, '(', NULL)) return false;
      if (j == 1 && !tx_expect(p, ',', NULL)) return false;
      tx_ws(p);
      ea->off = p->i;
      if (!tx_parse_def_name(p, &ea->name, &ea->len) || !tx_expect(p, ':', NULL) ||
          !tx_parse_type(p, &ea->type) || !tx_parse_trailing_loc(p))
        return false;
    }
    if (!tx_expect(p, ')', NULL)) return false;
  }
  MlirRegion *r;
  return tx_parse_region(p, b->op, &r, args, 2 * n, true) && tx_pv_push(p, &b->regions, r);
}

static bool p_while(P *p, OpB *b) {
  EntryArg args[256];
  int n = 0;
  if (!tx_expect(p, '(', NULL)) return false;
  if (!tx_peek(p, ')')) {
    do {
      if (n == 256) return tx_perr(p, "too many while operands");
      tx_ws(p);
      args[n].off = p->i;
      MlirValue *v;
      if (!tx_parse_def_name(p, &args[n].name, &args[n].len) || !tx_expect(p, '=', NULL) ||
          !tx_parse_use(p, &v) || !tx_pv_push(p, &b->operands, v))
        return false;
      n++;
    } while (tx_eat(p, ','));
  }
  if (!tx_expect(p, ')', NULL) || !opt_attr_dict(p, b)) return false;
  if (n) {
    if (!tx_expect(p, ':', NULL)) return false;
    for (int k = 0; k < n; k++) {
      if (k && !tx_expect(p, ',', NULL)) return false;
      if (!tx_parse_type(p, &args[k].type) || !tx_pv_push(p, &b->rtypes, args[k].type)) return false;
    }
  }
  MlirRegion *c, *d;
  return tx_expect_kw(p, "cond") && tx_parse_region(p, b->op, &c, args, n, true) &&
         tx_pv_push(p, &b->regions, c) && tx_expect_kw(p, "do") &&
         tx_parse_region(p, b->op, &d, args, n, true) && tx_pv_push(p, &b->regions, d);
}

/* @callee(%a, %b) [attr-dict] : (T) -> R */
static bool p_call_like(P *p, OpB *b, const char *attr) {
  tx_ws(p);
  if (!tx_peek(p, '@')) return tx_perr(p, "expected '@name'");
  MlirAttr *sym;
  if (!tx_parse_attr(p, &sym) || sym->kind != MA_SYMBOL_REF) return tx_perr(p, "expected '@name'");
  if (!strcmp(attr, "call_target_name")) sym->kind = MA_STRING;
  if (!tx_opb_attr(p, b, attr, sym) || !tx_expect(p, '(', NULL) || !operands(p, b) ||
      !tx_expect(p, ')', NULL) || !opt_attr_dict(p, b))
    return false;
  return signature(p, b, SIG_SAME);
}

static bool p_composite(P *p, OpB *b) {
  MlirAttr *name;
  if (!tx_parse_attr(p, &name) || name->kind != MA_STRING)
    return tx_perr(p, "expected the composite's \"name\"");
  return tx_opb_attr(p, b, "name", name) && operands(p, b) && opt_attr_dict(p, b) &&
         signature(p, b, SIG_SAME);
}

static bool p_enum_kw(P *p, OpB *b, const char *kw, const char *attr, MlirEnumKind k) {
  MlirAttr *e;
  return operands(p, b) && kw_eq(p, kw) && tx_parse_enum_case(p, k, &e) && tx_opb_attr(p, b, attr, e) &&
         opt_attr_dict(p, b) && signature(p, b, SIG_SAME);
}

static bool p_cholesky(P *p, OpB *b) {
  if (!operands(p, b)) return false;
  if (tx_eat(p, ',')) {
    bool v = false;
    if (!tx_expect_kw(p, "lower") || !tx_expect(p, '=', NULL) || !bool_kw(p, &v) ||
        !tx_opb_attr(p, b, "lower", tx_attr_bool(p, v)))
      return false;
  }
  return opt_attr_dict(p, b) && signature(p, b, SIG_SAME);
}

static bool p_top_k(P *p, OpB *b) {
  return tx_expect(p, '(', NULL) && operands(p, b) && kw_eq(p, "k") &&
         int_attr(p, b, "k", CXLA_S64) && tx_expect(p, ')', NULL) && opt_attr_dict(p, b) &&
         signature(p, b, SIG_SAME);
}

static bool p_replica_id(P *p, OpB *b) {
  return opt_attr_dict(p, b) && signature(p, b, SIG_SAME);
}

/* Shardy on one device: the ops JAX prints, read so that the importer can
 * drop them. sdy.mesh @name = <...> {attrs} */
static bool p_sdy_mesh(P *p, OpB *b) {
  MlirAttr *sym, *mesh;
  tx_ws(p);
  if (!tx_peek(p, '@') || !tx_parse_attr(p, &sym) || sym->kind != MA_SYMBOL_REF)
    return p->err ? false : tx_perr(p, "expected the mesh's @name");
  sym->kind = MA_STRING;
  return tx_opb_attr(p, b, "sym_name", sym) && tx_expect(p, '=', NULL) &&
         tx_opaque_group(p, &mesh) && tx_opb_attr(p, b, "mesh", mesh) && opt_attr_dict(p, b);
}

/* sdy.sharding_constraint / sdy.reshard %x <sharding> : T */
static bool p_sdy_sharding(P *p, OpB *b) {
  MlirAttr *sh;
  return operands(p, b) && tx_opaque_group(p, &sh) && tx_opb_attr(p, b, "sharding", sh) &&
         opt_attr_dict(p, b) && signature(p, b, SIG_SAME);
}

/* ---- the table -------------------------------------------------------------------- */

typedef bool (*PrettyFn)(P *, OpB *);

static const struct {
  const char *name;
  PrettyFn fn;
} forms[] = {
    {"stablehlo.constant", p_constant},
    {"stablehlo.iota", p_iota},
    {"stablehlo.dynamic_iota", p_dynamic_iota},
    {"stablehlo.compare", p_compare},
    {"stablehlo.select", p_select},
    {"stablehlo.concatenate", p_concatenate},
    {"stablehlo.get_dimension_size", p_dimension_size},
    {"stablehlo.set_dimension_size", p_dimension_size},
    {"stablehlo.slice", p_slice},
    {"stablehlo.pad", p_pad},
    {"stablehlo.get_tuple_element", p_gte},
    {"stablehlo.reduce_precision", p_reduce_precision},
    {"stablehlo.fft", p_fft},
    {"stablehlo.dot_general", p_dot_general},
    {"stablehlo.dot", p_dot},
    {"stablehlo.convolution", p_convolution},
    {"stablehlo.reduce", p_reduce},
    {"stablehlo.while", p_while},
    {"stablehlo.composite", p_composite},
    {"stablehlo.cholesky", p_cholesky},
    {"stablehlo.replica_id", p_replica_id},
    {"stablehlo.partition_id", p_replica_id},
    {"chlo.top_k", p_top_k},
    {"sdy.mesh", p_sdy_mesh},
    {"sdy.sharding_constraint", p_sdy_sharding},
    {"sdy.reshard", p_sdy_sharding},
    {"func.func", tx_parse_func_op},
    {"builtin.module", tx_parse_module_op},
};

/* Ops whose form is "operands [attr-dict] : types" with the results given
 * by one type, a function type, or "T1, T2 -> R". */
static const char *const same_ops[] = {
    "abs", "cbrt", "ceil", "cosine", "count_leading_zeros", "exponential",
    "exponential_minus_one", "floor", "imag", "is_finite", "log", "log_plus_one", "logistic",
    "negate", "not", "popcnt", "real", "round_nearest_afz", "round_nearest_even", "rsqrt",
    "sign", "sine", "sqrt", "tan", "tanh", "add", "and", "atan2", "divide", "maximum",
    "minimum", "multiply", "or", "power", "remainder", "shift_left", "shift_right_arithmetic",
    "shift_right_logical", "subtract", "xor", "complex", "convert", "bitcast_convert",
    "reshape", "clamp", "tuple", "after_all", "dynamic_update_slice", "uniform_quantize",
    "uniform_dequantize", "create_token", "dynamic_reshape", "dynamic_pad",
    "real_dynamic_slice", NULL};

static bool is_same_op(const char *name) {
  if (!strncmp(name, "chlo.", 5)) return true; /* chlo unary/binary: "%x : T -> R" */
  if (strncmp(name, "stablehlo.", 10)) return false;
  for (int k = 0; same_ops[k]; k++)
    if (!strcmp(name + 10, same_ops[k])) return true;
  return false;
}

bool tx_parse_pretty_op(P *p, const char *name, OpB *b, bool *handled) {
  *handled = true;
  for (size_t k = 0; k < sizeof forms / sizeof forms[0]; k++)
    if (!strcmp(name, forms[k].name)) return forms[k].fn(p, b);
  if (!strcmp(name, "stablehlo.broadcast_in_dim"))
    return p_operand_list_kw(p, b, "dims", "broadcast_dimensions");
  if (!strcmp(name, "stablehlo.dynamic_broadcast_in_dim"))
    return p_operand_list_kw(p, b, "dims", "broadcast_dimensions");
  if (!strcmp(name, "stablehlo.transpose")) return p_operand_list_kw(p, b, "dims", "permutation");
  if (!strcmp(name, "stablehlo.reverse")) return p_operand_list_kw(p, b, "dims", "dimensions");
  if (!strcmp(name, "stablehlo.dynamic_slice"))
    return p_operand_list_kw(p, b, "sizes", "slice_sizes");
  if (!strcmp(name, "stablehlo.rng_bit_generator"))
    return p_enum_kw(p, b, "algorithm", "rng_algorithm", ME_RNG_ALGORITHM);
  if (!strcmp(name, "stablehlo.rng"))
    return p_enum_kw(p, b, "distribution", "rng_distribution", ME_RNG_DISTRIBUTION);
  if (!strcmp(name, "stablehlo.custom_call")) return p_call_like(p, b, "call_target_name");
  if (!strcmp(name, "func.call")) return p_call_like(p, b, "callee");
  if (!strcmp(name, "func.return") || !strcmp(name, "stablehlo.return"))
    return p_return(p, b);
  if (!strcmp(name, "stablehlo.optimization_barrier")) return p_list(p, b);
  if (is_same_op(name)) return p_same(p, b);
  *handled = false;
  return true;
}
